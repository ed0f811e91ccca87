//! herd's per-test map files, read as herd's `LexRename` reads them: `-kinds` (a test's
//! quantifier), `-conds` (a test's whole condition) and `-rename` (a test's name).
//!
//! A line is `NAME VALUE` or `NAME "VALUE WITH BLANKS"` or a lone `NAME`, blanks around,
//! then an optional `#` or `%` comment; a line of blanks or a comment is skipped. A name
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
        for line in text.split_inclusive('\n') {
            if let Some((name, start, len)) = split(f, &text, at, line)? {
                out.insert(name, Entry { file: f.clone(), text: text.clone(), start, len });
            }
            at += line.len();
        }
    }
    Ok(out)
}

/// The line starting at `at`: its name, and where its value starts and how long it is
/// (empty for a lone name); `None` for a blank or comment line.
fn split(file: &str, text: &str, at: usize, line: &str) -> Result<Option<(String, usize, usize)>, Diag> {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\r');
    let body = line.strip_suffix('\n').unwrap_or(line);
    // The comment ends the line, unless it starts inside a quoted value.
    let word_end = |s: &str| s.find(|c: char| blank(c) || matches!(c, '#' | '%' | '"')).unwrap_or(s.len());
    let s = body.trim_start_matches(blank);
    let off = |s: &str| at + body.len() - s.len();
    let bad = |s: &str, m: &str| Err(Diag::at(file, text, Pos(off(s)), format!("error in rename map, {m}")));
    if s.is_empty() || s.starts_with(['#', '%']) {
        return Ok(None);
    }
    let n = word_end(s);
    if n == 0 {
        return bad(s, "expected a test name");
    }
    let name = s[..n].to_string();
    let after = &s[n..];
    let v = after.trim_start_matches(blank);
    let (start, len, rest) = if v.is_empty() || v.starts_with(['#', '%']) {
        (off(v), 0, v)
    } else if after.len() == v.len() {
        return bad(v, "expected a blank after the test name");
    } else if let Some(q) = v.strip_prefix('"') {
        let Some(end) = q.find('"') else { return bad(v, "a quoted value is not closed on its line") };
        (off(q), end, &q[end + 1..])
    } else {
        let m = word_end(v);
        (off(v), m, &v[m..])
    };
    let rest = rest.trim_start_matches(blank);
    if !(rest.is_empty() || rest.starts_with(['#', '%'])) {
        return bad(rest, "expected the end of the line or a comment after the value");
    }
    Ok(Some((name, start, len)))
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
        for line in text.split_inclusive('\n') {
            if let Some((n, s, l)) = split("m", text, at, line)? {
                out.push((n, text[s..s + l].to_string()));
            }
            at += line.len();
        }
        Ok(out)
    }

    #[test]
    fn lines_are_herds_rename_map_lines() {
        let got = lines("# c\nA Allowed\n  B \"exists (x=1 /\\ y=0)\" % why\n\nC\nD\tx # c\nE F").unwrap();
        let want = [("A", "Allowed"), ("B", "exists (x=1 /\\ y=0)"), ("C", ""), ("D", "x"), ("E", "F")];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn a_bad_line_is_located() {
        let d = lines("A x\nB x y\n").unwrap_err();
        assert_eq!((d.line, d.col), (2, 5));
        let d = lines("A \"open\n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 3));
    }
}
