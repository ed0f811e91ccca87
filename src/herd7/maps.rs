//! herd's per-test map files, read as herd's `LexRename` reads them: `-kinds` (a test's
//! quantifier), `-conds` (a test's whole condition) and `-rename` (a test's name).
//!
//! A line is `NAME VALUE` or `NAME "VALUE WITH BLANKS"` (which may run over lines) or a
//! lone `NAME`, blanks around, then an optional `#` or `%` comment; a line of blanks or
//! a comment is skipped. A name
//! or bare value is any run of characters but blanks, `#`, `%` and `"`. Anything else is
//! an error at its line. Within a file the last line for a name wins; across files the
//! first file's wins (herd reads the files from last to first, each overriding). herd
//! wants a newline after the last line; litsat takes a file without one.

use litsat::diag::{Diag, Pos};
use litsat::litmus::ast::{CondKind, Condition};
use std::collections::BTreeMap;

/// One value a map gives, with where it was written.
struct Entry {
    file: String,
    /// The file's text, which `start` indexes.
    text: std::rc::Rc<str>,
    /// Where the value starts, and its length.
    start: usize,
    len: usize,
}

impl Entry {
    fn value(&self) -> &str {
        &self.text[self.start..self.start + self.len]
    }

    fn error(&self, m: String) -> Diag {
        Diag::at(&self.file, &self.text, Pos(self.start), m)
    }
}

/// The entries of the map files `files`, by test name.
fn read(files: &[String]) -> Result<BTreeMap<String, Entry>, Diag> {
    let mut out = BTreeMap::new();
    for f in files.iter().rev() {
        let text: std::rc::Rc<str> =
            std::fs::read_to_string(f).map_err(|e| Diag::file(f, format!("open_in failed: {e}")))?.into();
        let mut at = 0;
        while at < text.len() {
            let (entry, next) = split(f, &text, at)?;
            if let Some((name, start, len)) = entry {
                out.insert(name, Entry { file: f.clone(), text: text.clone(), start, len });
            }
            at = next;
        }
    }
    Ok(out)
}

/// The entry whose line starts at `at`: its name, and where its value starts and how
/// long it is (empty for a lone name), or `None` for a blank or comment line; and where
/// the next line starts. A quoted value may run over several lines, as in herd.
#[allow(clippy::type_complexity)]
fn split(file: &str, text: &str, at: usize) -> Result<(Option<(String, usize, usize)>, usize), Diag> {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\r');
    let line_end = |from: usize| text[from..].find('\n').map_or(text.len(), |k| from + k);
    let word_end = |s: &str| s.find(|c: char| blank(c) || matches!(c, '#' | '%' | '"' | '\n')).unwrap_or(s.len());
    let off = |s: &str| text.len() - s.len();
    let bad = |s: &str, m: &str| Err(Diag::at(file, text, Pos(off(s)), format!("error in rename map, {m}")));
    let end = line_end(at);
    let s = text[at..].trim_start_matches(blank);
    if s.is_empty() || s.starts_with(['#', '%', '\n']) {
        return Ok((None, end + 1));
    }
    let n = word_end(s);
    if n == 0 {
        return bad(s, "expected a test name");
    }
    let name = s[..n].to_string();
    let after = &s[n..];
    let v = after.trim_start_matches(blank);
    let (start, len, rest) = if v.is_empty() || v.starts_with(['#', '%', '\n']) {
        (off(v), 0, v)
    } else if after.len() == v.len() {
        return bad(v, "expected a blank after the test name");
    } else if let Some(q) = v.strip_prefix('"') {
        let Some(close) = q.find('"') else { return bad(v, "a quoted value is not closed") };
        (off(q), close, &q[close + 1..])
    } else {
        let m = word_end(v);
        (off(v), m, &v[m..])
    };
    let rest = rest.trim_start_matches(blank);
    if !(rest.is_empty() || rest.starts_with(['#', '%', '\n'])) {
        return bad(rest, "expected the end of the line or a comment after the value");
    }
    Ok((Some((name, start, len)), line_end(off(rest)) + 1))
}

/// The quantifier `-kinds` files give each test name (`Allow`, `Forbid`, `Require`, with
/// or without a final `ed`; `Unknown`, `???`, `---` or nothing leaves the test's own).
pub fn kinds(files: &[String]) -> Result<BTreeMap<String, CondKind>, Diag> {
    let mut out = BTreeMap::new();
    for (name, e) in read(files)? {
        let kind = match e.value() {
            "Allow" | "Allowed" => CondKind::Exists,
            "Forbid" | "Forbidden" => CondKind::NotExists,
            "Require" | "Required" => CondKind::Forall,
            "" | "Unknown" | "???" | "---" => continue,
            w => return Err(e.error(format!("error in rename map, {w} is not a valid value"))),
        };
        out.insert(name, kind);
    }
    Ok(out)
}

/// The condition `-conds` files give each test name, replacing the test's own (its
/// quantifier too; `-kinds` still applies after it, as in herd).
pub fn conds(files: &[String]) -> Result<BTreeMap<String, Condition>, Diag> {
    let mut out = BTreeMap::new();
    for (name, e) in read(files)? {
        let c = litsat::litmus::parse_condition(&e.file, &e.text, e.value())?;
        out.insert(name, c);
    }
    Ok(out)
}

/// The new name `-rename` files give each test name (a lone name keeps its name).
pub fn renames(files: &[String]) -> Result<BTreeMap<String, String>, Diag> {
    let map = read(files)?;
    Ok(map.into_iter().filter(|(_, e)| e.len > 0).map(|(n, e)| (n, e.value().to_string())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Result<Vec<(String, String)>, Diag> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let (entry, next) = split("m", text, at)?;
            if let Some((n, s, l)) = entry {
                out.push((n, text[s..s + l].to_string()));
            }
            at = next;
        }
        Ok(out)
    }

    #[test]
    fn lines_are_herds_rename_map_lines() {
        let got = lines("# c\nA Allowed\n  B \"exists (x=1 /\\ y=0)\" % why\n\nC\nD\tx # c\nG \"exists\n (x=1)\"\nE F")
            .unwrap();
        let want = [
            ("A", "Allowed"),
            ("B", "exists (x=1 /\\ y=0)"),
            ("C", ""),
            ("D", "x"),
            ("G", "exists\n (x=1)"),
            ("E", "F"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn a_bad_line_is_located() {
        let d = lines("A x\nB x y\n").unwrap_err();
        assert_eq!((d.line, d.col), (2, 5));
        let d = lines("A \"open\nB x\n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 3));
    }
}
