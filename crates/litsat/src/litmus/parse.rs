//! Splits a litmus file into herd's sections and parses each.
//!
//! The code table is kept as text per cell: instructions belong to the ISA plug-ins, so this
//! module knows nothing of any instruction set.

use super::ast::*;
use super::prop;
use crate::diag::{Diag, Pos, offset_in};
use nom::Parser;
use std::borrow::Cow;

/// The most elements an array in the initial state may have.
const MAX_ARRAY: usize = 4096;

/// Replaces `(* … *)` comments (nested) by blanks of the same byte length, so that
/// offsets into the cleaned text are offsets into the file. Borrowed when the text holds
/// no `(*`: nothing to blank.
pub(super) fn blank_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("(*") {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut depth = 0usize;
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        if depth == 0 && bytes[i] == b'"' {
            in_string = !in_string;
        }
        if !in_string && i + 1 < bytes.len() && bytes[i] == b'(' && bytes[i + 1] == b'*' {
            depth += 1;
            out[i] = b' ';
            out[i + 1] = b' ';
            i += 2;
            continue;
        }
        if depth > 0 && i + 1 < bytes.len() && bytes[i] == b'*' && bytes[i + 1] == b')' {
            depth -= 1;
            out[i] = b' ';
            out[i + 1] = b' ';
            i += 2;
            continue;
        }
        if depth > 0 && bytes[i] != b'\n' {
            out[i] = b' ';
        }
        i += 1;
    }
    // herd's splitter reads the header region line by line, so an unterminated comment
    // there is harmless text: leave it for the metadata skipper rather than eating the file.
    if depth > 0 {
        return Cow::Borrowed(text);
    }
    // Blanking whole bytes keeps UTF-8 valid: every byte of a multi-byte character inside a
    // comment becomes a space, and characters outside comments are untouched.
    String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned)
}

struct Cursor<'a> {
    file: &'a str,
    /// The text with comments blanked, which `at` slices come from.
    text: &'a str,
    /// The file as written: same byte offsets, but columns count its own characters (a
    /// blanked multi-byte character is several blanks).
    source: &'a str,
}

impl<'a> Cursor<'a> {
    fn err(&self, at: &str, msg: impl Into<String>) -> Diag {
        Diag::at(self.file, self.source, offset_in(self.text, at), msg)
    }
}

const COND_WORDS: &[&str] =
    &["exists", "~exists", "~", "forall", "final", "locations", "filter", "observed", "not", "scopes:", "regions:"];

fn starts_with_word(s: &str, w: &str) -> bool {
    // `get`: the text may hold a multi-byte character where the word would end.
    s.get(..w.len()).is_some_and(|h| h.eq_ignore_ascii_case(w))
        && (w == "~" || !s[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// Parses a litmus test. `file` names the source in diagnostics.
pub fn parse_test(file: &str, source: &str) -> Result<Test, Diag> {
    let is_c = source.split_whitespace().next() == Some("C");
    let cleaned = if is_c { super::c_split::blank_comments(source) } else { blank_comments(source) };
    let text: &str = &cleaned;
    let cur = Cursor { file, text, source };

    // Header: ARCH NAME [extra tokens]
    let rest = text.trim_start();
    let line_end = rest.find('\n').unwrap_or(rest.len());
    let header = &rest[..line_end];
    let mut toks = header.split_whitespace();
    let arch = toks.next().ok_or_else(|| cur.err(rest, "expected a header `ARCH NAME`"))?.to_string();
    let name = toks.next().ok_or_else(|| cur.err(header, "expected a test name after the architecture"))?;
    let name = if name == "--" {
        std::path::Path::new(file).file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default()
    } else {
        name.to_string()
    };
    // herd drops a trailing `.litmus` from a test's name.
    let name = name.strip_suffix(".litmus").map_or(name.clone(), str::to_string);
    let mut rest = &rest[line_end..];

    // Doc string and metadata, up to the init block. Quotes may hold braces; a quote that
    // never closes (an unterminated doc string, which herd tolerates) holds none.
    let open = find_outside_quotes(rest, '{')
        .or_else(|| rest.find('{'))
        .ok_or_else(|| cur.err(rest, "expected the initial state `{ ... }`"))?;
    let variants = metadata_variants(&rest[..open]);
    let meta_text = rest[..open].to_string();
    // A variant that changes herd's semantics beyond what litsat builds is refused here,
    // before the parts of the test only it explains (page-table entries in the initial
    // state, labels as instruction addresses) fail to parse.
    if let Err(d) = crate::variant::check_built(&variants, file, &arch) {
        let meta = &rest[..open];
        let line = meta.lines().find(|l| l.split_once('=').is_some_and(|(k, _)| is_variant_key(k))).unwrap_or(meta);
        return Err(cur.err(line.trim_start(), d.message));
    }
    rest = &rest[open..];
    let close = matching_brace(rest).ok_or_else(|| cur.err(rest, "unterminated initial state: expected `}`"))?;
    let init_text = &rest[1..close];
    let (init, arrays) = parse_init(&cur, init_text)?;
    rest = &rest[close + 1..];
    let t = rest.trim_start();
    if let Some(s) = t.strip_prefix(';') {
        rest = s;
    }

    let (threads, rest) = if is_c { super::c_split::threads(file, source, text, rest)? } else { table(&cur, rest)? };
    let mut test = constraints(&cur, arch, name, (init, arrays), threads, rest)?;
    test.variants = variants;
    (test.el0, test.tthm) = metadata_vmsa(&meta_text);
    if test.init.iter().any(is_entry_item) {
        entries_canonical(&mut test).map_err(|(pos, m)| Diag::at(file, text, pos, m))?;
    }
    Ok(test)
}

/// The vmsa metadata: the threads `EL0=P0,P2` names, and `TTHM=` as written.
fn metadata_vmsa(meta: &str) -> (Vec<usize>, Option<String>) {
    let (mut el0, mut tthm) = (Vec::new(), None);
    for line in meta.lines() {
        let Some((key, value)) = line.split_once('=') else { continue };
        match key.trim() {
            "EL0" => {
                let procs = value.split(|c: char| c == ',' || c.is_whitespace());
                el0.extend(procs.filter_map(|p| p.trim().strip_prefix('P')?.parse::<usize>().ok()));
            }
            "TTHM" => tthm = Some(value.trim().to_string()),
            _ => {}
        }
    }
    (el0, tthm)
}

/// Whether a metadata line's key sets variants.
fn is_variant_key(k: &str) -> bool {
    ["Variant", "CacheType"].iter().any(|v| k.trim().eq_ignore_ascii_case(v))
}

/// The variants a test's metadata lines set (`Variant=a,b`; `CacheType=DIC`, which sets
/// `DIC` and `IDC`, or `CacheType=IDC`), as herd adds them to the command line's.
fn metadata_variants(meta: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in meta.lines() {
        let Some((key, value)) = line.split_once('=') else { continue };
        let words = value.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty());
        match key.trim() {
            k if k.eq_ignore_ascii_case("Variant") => out.extend(words.map(str::to_string)),
            k if k.eq_ignore_ascii_case("CacheType") => {
                for w in words {
                    if w.eq_ignore_ascii_case("DIC") {
                        out.push("DIC".into());
                    }
                    if w.eq_ignore_ascii_case("DIC") || w.eq_ignore_ascii_case("IDC") {
                        out.push("IDC".into());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The code table of an ISA test: a header row of thread names, then rows of cells.
fn table<'a>(cur: &Cursor<'a>, rest: &'a str) -> Result<(Vec<ThreadCode>, &'a str), Diag> {
    let text = cur.text;
    // Cut herd's trailing `<< … >>` blocks (old X86 files) before splitting the code.
    let cut = rest.find("<<").unwrap_or(rest.len());
    let rest_all = &rest[..cut];

    // Thread header row.
    let (header_row, mut rest) = split_row(cur, rest_all)?;
    let mut threads = Vec::new();
    for cell in header_row.split('|') {
        let c = cell.trim();
        if c.strip_prefix('P').and_then(|n| n.strip_suffix(".F")).is_some_and(|n| n.parse::<usize>().is_ok()) {
            return Err(cur.err(cell.trim_start(), format!("unsupported: fault handler code (`{c}`, herd's exception handlers)")));
        }
        let id = c
            .strip_prefix('P')
            .and_then(|n| n.parse::<usize>().ok())
            .ok_or_else(|| cur.err(cell.trim_start(), format!("expected a thread name `P<n>`, found `{c}`")))?;
        threads.push(ThreadCode { id, cells: Vec::new() });
    }
    if threads.is_empty() {
        return Err(cur.err(header_row, "expected at least one thread"));
    }

    // Code rows until the constraints.
    loop {
        let t = rest.trim_start();
        if t.is_empty() || COND_WORDS.iter().any(|w| starts_with_word(t, w)) || t.starts_with('(') {
            rest = t;
            break;
        }
        let (row, r) = split_row(cur, rest)?;
        let cells: Vec<&str> = row.split('|').collect();
        if cells.len() > threads.len() {
            return Err(cur.err(row, format!("row has {} cells but there are {} threads", cells.len(), threads.len())));
        }
        for (k, th) in threads.iter_mut().enumerate() {
            let (txt, pos) = match cells.get(k) {
                Some(c) => (c.trim().to_string(), offset_in(text, c.trim_start())),
                None => (String::new(), offset_in(text, row)),
            };
            th.cells.push(Cell { text: txt, pos });
        }
        rest = r;
    }

    Ok((threads, rest))
}

/// `locations`, `filter` and the final condition, after the code.
fn constraints(
    cur: &Cursor<'_>,
    arch: String,
    name: String,
    (init, arrays): (Vec<InitItem>, Vec<ArrayDecl>),
    threads: Vec<ThreadCode>,
    rest: &str,
) -> Result<Test, Diag> {
    let mut rest = rest;
    // LISA's `scopes:` and `regions:` sections describe scope trees and memory regions for
    // GPU-style models; they do not change the candidate executions.
    for kw in ["scopes:", "regions:"] {
        let t = rest.trim_start();
        if let Some(after) = t.strip_prefix(kw) {
            let end = after.find(['\n']).unwrap_or(after.len());
            let mut tail = &after[end..];
            // A scope tree may span lines: skip to its balancing parenthesis.
            let mut depth: i32 = after[..end].matches('(').count() as i32 - after[..end].matches(')').count() as i32;
            while depth > 0 && !tail.is_empty() {
                let e = tail[1..].find('\n').map(|k| k + 1).unwrap_or(tail.len());
                depth += tail[..e].matches('(').count() as i32 - tail[..e].matches(')').count() as i32;
                tail = &tail[e..];
            }
            rest = tail;
        }
    }

    // Constraints: locations, filter, condition.
    let mut locations = Vec::new();
    let mut filter = None;
    let mut cond = None;
    loop {
        let t = rest.trim_start();
        if t.is_empty() {
            break;
        }
        if let Some(s) = strip_word(t, "locations") {
            let s = s.trim_start();
            let s = s.strip_prefix('[').ok_or_else(|| cur.err(s, "expected `[` after `locations`"))?;
            // The `]` that closes the list, past those of elements (`v[0]`).
            let mut depth = 0usize;
            let end = s.char_indices().find_map(|(k, c)| match c {
                '[' => {
                    depth += 1;
                    None
                }
                ']' if depth == 0 => Some(k),
                ']' => {
                    depth -= 1;
                    None
                }
                _ => None,
            });
            let end = end.ok_or_else(|| cur.err(s, "expected `]` closing `locations`"))?;
            for item in s[..end].split(';') {
                let it = item.trim();
                if it.is_empty() {
                    continue;
                }
                match prop::loc(it) {
                    Ok((r, l)) if r.trim().is_empty() => locations.push(l),
                    // herd's `locations [0:X2 ins_t;]`: an instruction's type, which prints
                    // as any instruction value does.
                    Ok((r, l)) if r.trim() == "ins_t" => locations.push(l),
                    _ if it.starts_with("fault(") || it.starts_with("Fault(") => {
                        let m = format!("unsupported: a fault in `locations` (`{it}`)");
                        return Err(cur.err(item.trim_start(), m));
                    }
                    _ => {
                        return Err(cur.err(item.trim_start(), format!("expected a location, found `{it}`")));
                    }
                }
            }
            rest = &s[end + 1..];
            continue;
        }
        if let Some(s) = strip_word(t, "filter") {
            let (r, p) = parse_prop(cur, s)?;
            filter = Some(p);
            rest = r;
            continue;
        }
        if cond.is_some() {
            let t2 = t.trim_start_matches(';').trim();
            if t2.is_empty() {
                break;
            }
            return Err(cur.err(t, "unexpected text after the final condition"));
        }
        let Some((r, c)) = condition(cur, t)? else {
            return Err(cur.err(t, "expected `exists`, `~exists`, `forall`, `locations` or `filter`"));
        };
        let mut r = r.trim_start();
        // `final P; with kinds`: the kinds part is informational.
        let after = r.strip_prefix(';').unwrap_or(r).trim_start();
        if strip_word(after, "with").is_some() {
            r = "";
        }
        cond = Some(c);
        rest = r;
    }
    let cond = cond.unwrap_or(Condition { kind: CondKind::Forall, prop: Prop::True, written: None });
    Ok(Test { arch, name, init, arrays, threads, locations, filter, cond, variants: Vec::new(), el0: Vec::new(), tthm: None })
}

/// A quantified condition at the start of `t` (`exists P`, `~exists P`, `forall P`,
/// `final P`, `(P)`) and the text after it; `None` where `t` starts with no quantifier.
fn condition<'a>(cur: &Cursor<'a>, t: &'a str) -> Result<Option<(&'a str, Condition)>, Diag> {
    let (kind, s) = if let Some(s) = strip_word(t, "exists") {
        (CondKind::Exists, s)
    } else if let Some(s) = strip_word(t, "forall") {
        (CondKind::Forall, s)
    } else if let Some(s) = strip_word(t, "final") {
        (CondKind::Exists, s)
    } else if let Some(s) = t.strip_prefix('~').and_then(|s| strip_word(s.trim_start(), "exists")) {
        (CondKind::NotExists, s)
    } else if let Some(s) = strip_word(t, "not").and_then(|s| strip_word(s.trim_start(), "exists")) {
        (CondKind::NotExists, s)
    } else if t.starts_with('(') {
        (CondKind::Exists, t)
    } else {
        return Ok(None);
    };
    let (r, p) = parse_prop(cur, s)?;
    Ok(Some((r, Condition { kind, prop: p, written: None })))
}

/// A condition written on its own, as herd's `-conds` files give one per test (herd's
/// `main_constr`): `value` is a slice of `source`, the text of `file`, so that an error
/// is located in it. An empty one is herd's `forall (true)`.
pub fn parse_condition(file: &str, source: &str, value: &str) -> Result<Condition, Diag> {
    let cur = Cursor { file, text: source, source };
    let t = value.trim_start();
    if t.trim().is_empty() {
        return Ok(Condition { kind: CondKind::Forall, prop: Prop::True, written: None });
    }
    let Some((r, c)) = condition(&cur, t)? else {
        return Err(cur.err(t, "expected a condition: `exists`, `~exists` or `forall` and a proposition"));
    };
    match r.trim_start() {
        "" => Ok(c),
        r => Err(cur.err(r, "unexpected text after the condition")),
    }
}

fn parse_prop<'a>(cur: &Cursor<'a>, s: &'a str) -> Result<(&'a str, Prop), Diag> {
    match prop::prop(s) {
        Ok((r, p)) => Ok((r, p)),
        Err(nom::Err::Failure(e)) if e.code == nom::error::ErrorKind::TooLarge => {
            Err(cur.err(e.input, format!("proposition nested too deeply (more than {} levels)", prop::MAX_DEPTH)))
        }
        // herd's typed values of system registers (`parel1_t:(oa:PA(x))`, vmsa's `AT`).
        Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) if e.input.contains("_t:(") => {
            Err(cur.err(e.input, "unsupported: a typed system-register value in the condition (`parel1_t:(…)`)"))
        }
        Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) => {
            Err(cur.err(e.input, "expected a proposition: `loc=value`, `/\\`, `\\/`, `~`, `=>` or parentheses"))
        }
        Err(nom::Err::Incomplete(_)) => Err(cur.err(s, "incomplete proposition")),
    }
}

fn strip_word<'a>(s: &'a str, w: &str) -> Option<&'a str> {
    if starts_with_word(s, w) { Some(&s[w.len()..]) } else { None }
}

fn find_outside_quotes(s: &str, target: char) -> Option<usize> {
    let mut in_q = false;
    for (i, c) in s.char_indices() {
        if c == '"' {
            in_q = !in_q;
        } else if c == target && !in_q {
            return Some(i);
        }
    }
    None
}

fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn split_row<'a>(cur: &Cursor<'a>, s: &'a str) -> Result<(&'a str, &'a str), Diag> {
    let end = s.find(';').ok_or_else(|| cur.err(s.trim_start(), "expected `;` at the end of a code row"))?;
    Ok((&s[..end], &s[end + 1..]))
}

/// herd's `TTD(x)` is `PTE(x)`, which an item may name without brackets: the left side
/// with the entry as `[PTE(x)]`.
fn bracketed_entry(lhs: &str) -> std::borrow::Cow<'_, str> {
    if !(lhs.contains("TTD(") || lhs.contains("PTE(")) {
        return lhs.into();
    }
    let l = lhs.replace("TTD(", "PTE(");
    match l.rfind("PTE(") {
        Some(k) if !l[..k].ends_with('[') => format!("{}[{}]", &l[..k], &l[k..]).into(),
        _ => l.into(),
    }
}

fn parse_init(cur: &Cursor<'_>, body: &str) -> Result<(Vec<InitItem>, Vec<ArrayDecl>), Diag> {
    let mut items = Vec::new();
    let mut arrays: Vec<ArrayDecl> = Vec::new();
    for atom in body.split(';') {
        let a = atom.trim();
        if a.is_empty() {
            continue;
        }
        let pos: Pos = offset_in(cur.text, atom.trim_start());
        let (lhs, rhs) = match a.find('=') {
            Some(k) => (a[..k].trim(), Some(a[k + 1..].trim())),
            None => (a, None),
        };
        let lhs_owned = bracketed_entry(lhs);
        let lhs = lhs_owned.as_ref();
        // The place is the last token of the left side; earlier tokens are C-like types.
        if lhs.contains('[') && !lhs.trim_start().starts_with('[') || rhs.is_some_and(|r| r.starts_with('{')) {
            let decl = array_decl(cur, atom.trim_start(), pos, lhs, rhs)?;
            for (i, value) in decl.1.into_iter().enumerate() {
                let loc = Loc::Mem(elem_name(&decl.0.name, i));
                items.push(InitItem { loc, value, pos, ty: Some(decl.0.ty.clone()) });
            }
            arrays.push(decl.0);
            continue;
        }
        // A thread's register `N:reg`, which herd also takes written `N: reg`.
        let joined;
        let lhs = match lhs.split_once(':') {
            Some((head, reg)) => {
                joined = format!("{}:{}", head.trim_end(), reg.trim_start());
                joined.as_str()
            }
            None => lhs,
        };
        if rhs.is_some_and(|r| r.trim_start().starts_with("PA(")) {
            let msg = format!("unsupported: a physical address as a value (`{a}`: litsat builds virtual ones)");
            return Err(cur.err(atom.trim_start(), msg));
        }
        let place = lhs.rsplit(|c: char| c.is_whitespace() || c == '*').next().unwrap_or("").trim();
        let ty = lhs[..lhs.len() - place.len()].trim().trim_end_matches('*').trim();
        let ty = (!ty.is_empty()).then(|| ty.to_string());
        let loc = match prop::loc(place) {
            Ok(("", l)) => l,
            _ => {
                return Err(
                    cur.err(atom.trim_start(), format!("expected an initial-state item `loc=value`, found `{a}`"))
                );
            }
        };
        // herd's older spelling of a page-table entry, `pte_x`, is `PTE(x)`.
        let loc = match loc {
            Loc::Mem(x) if x.starts_with("pte_") && rhs.is_some_and(|r| r.starts_with('(')) => {
                Loc::Mem(format!("PTE({})", &x[4..]))
            }
            l => l,
        };
        // C: `int *p = &x;` and `atomic_t v = ATOMIC_INIT(1);`.
        let rhs = rhs.map(|r| {
            let r = r.strip_prefix('&').unwrap_or(r).trim();
            r.strip_prefix("ATOMIC_INIT(").and_then(|v| v.strip_suffix(')')).map_or(r, str::trim)
        });
        // herd's code labels as values (`P0:foo`, jumped to by `BX R0`): a symbol, like an
        // instruction value, which only a computed branch uses ([`crate::isa::Op::Jump`]).
        let value = match rhs {
            Some(v) if code_label(v).is_some() => Val::Sym(v.split_whitespace().collect()),
            // herd's `1:L0` for the label `P1:L0`.
            Some(v) if let Some(l) = thread_label(v) => Val::Sym(l),
            // The address of an array element (`0:X0=x[1]`).
            Some(v) if let Some((x, i)) = element(v) => Val::Sym(elem_name(x, i)),
            Some(v) if let Some(x) = v.strip_prefix("pte_") => Val::Sym(format!("PTE({x})")),
            Some(v) if v.starts_with("phy_") => {
                let msg = format!("unsupported: a physical address as a value (`{a}`: litsat builds virtual ones)");
                return Err(cur.err(atom.trim_start(), msg));
            }
            None => Val::Int(0),
            Some(v) => match prop::value.parse(v) {
                Ok((r, val)) if r.trim().is_empty() => val,
                // herd's `x:red` (an MTE colour) and `x:1`, `0x…:x:1` (a Morello capability).
                _ if v.contains(':') => {
                    let msg = format!("unsupported: `{v}`, an address with a tag or capability bits (herd's variants memtag and morello)");
                    return Err(cur.err(atom.trim_start(), msg));
                }
                _ => {
                    return Err(cur.err(atom.trim_start(), format!("expected a value, found `{v}`")));
                }
            },
        };
        items.push(InitItem { loc, value, pos, ty });
    }
    Ok((items, arrays))
}

/// A code label written `1:L0` (herd's `P1:L0`), as `P1:L0`.
fn thread_label(v: &str) -> Option<String> {
    let (p, l) = v.split_once(':')?;
    let p = p.trim();
    (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())).then_some(())?;
    let l = format!("P{p}:{}", l.trim());
    code_label(&l).is_some().then_some(l)
}

/// `x[i]`: an array's name and an index.
fn element(v: &str) -> Option<(&str, usize)> {
    let (x, i) = v.strip_suffix(']')?.split_once('[')?;
    let x = x.trim();
    let ident = !x.is_empty() && !x.starts_with(|c: char| c.is_ascii_digit());
    (ident && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(())?;
    Some((x, i.trim().parse().ok()?))
}

/// An array declaration `TYPE x[N]` with an optional `= {v0,v1,…}` (zeros when absent):
/// the declaration and its elements' initial values.
fn array_decl(
    cur: &Cursor<'_>,
    atom: &str,
    pos: Pos,
    lhs: &str,
    rhs: Option<&str>,
) -> Result<(ArrayDecl, Vec<Val>), Diag> {
    let bad = |m: String| cur.err(atom, m);
    let open = lhs.find('[').ok_or_else(|| bad(format!("expected an array declaration `TYPE x[N]`, found `{lhs}`")))?;
    let close = lhs.rfind(']').filter(|&c| c > open && lhs[c + 1..].trim().is_empty());
    let close = close.ok_or_else(|| bad(format!("expected `]` closing the size in `{lhs}`")))?;
    let head = lhs[..open].trim();
    let name = head.rsplit(char::is_whitespace).next().unwrap_or("").trim();
    let ty = head[..head.len() - name.len()].trim();
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Err(bad(format!("expected an array name before `[`, found `{head}`")));
    }
    let len: usize = match lhs[open + 1..close].trim().parse() {
        Ok(n) if n > 0 => n,
        _ => return Err(bad(format!("expected a positive array size in `{lhs}`"))),
    };
    // Each element is a location with an initial write: litmus arrays have a few.
    if len > MAX_ARRAY {
        return Err(bad(format!("unsupported: an array of {len} elements (at most {MAX_ARRAY})")));
    }
    if ty.is_empty() {
        return Err(bad(format!("expected an element type before the array `{name}`")));
    }
    let Some(size) = type_size(ty) else {
        return Err(bad(format!("unsupported: arrays of `{ty}` (herd knows the size of integer types only)")));
    };
    let values = match rhs {
        None => vec![Val::Int(0); len],
        Some(r) => {
            let inner = r.strip_prefix('{').and_then(|r| r.strip_suffix('}'));
            let inner =
                inner.ok_or_else(|| bad(format!("expected the elements `{{v0,v1,…}}` of `{name}`, found `{r}`")))?;
            let mut vs = Vec::new();
            for v in inner.split(',') {
                let v = v.trim();
                match prop::value.parse(v) {
                    Ok((rest, val)) if rest.trim().is_empty() => vs.push(val),
                    _ => return Err(bad(format!("expected a value, found `{v}`"))),
                }
            }
            if vs.len() != len {
                return Err(bad(format!("array `{name}` has {len} elements but {} initial values", vs.len())));
            }
            vs
        }
    };
    Ok((ArrayDecl { name: name.to_string(), ty: ty.to_string(), len, size, pos }, values))
}

/// Whether an initial-state item is about page tables (an entry, or an entry's value).
fn is_entry_item(it: &InitItem) -> bool {
    let entry = matches!(&it.loc, Loc::Mem(x) if x.starts_with("PTE("));
    entry || matches!(&it.value, Val::Sym(v) if v.starts_with('(') || v.starts_with("PTE("))
}

/// A test with page tables: each entry's value as herd prints it (`(oa:PA(x), af:0)`,
/// its output address given where the entry's own is meant), and the older spellings
/// (`pte_x`) of the condition's places and values as the newer (`PTE(x)`).
fn entries_canonical(test: &mut Test) -> Result<(), (Pos, String)> {
    for it in &mut test.init {
        if let Val::Sym(v) = &it.value
            && v.starts_with('(')
        {
            let entry = if let Loc::Mem(x) = &it.loc { crate::events::pte_name(x) } else { None };
            it.value = Val::Sym(crate::events::canonical_pte(v, entry).map_err(|m| (it.pos, m))?);
        }
    }
    let pos = Pos(0);
    let mut err = None;
    let mut fix = |p: &mut Prop| {
        if let Err(m) = entries_in_prop(p) {
            err.get_or_insert(m);
        }
    };
    fix(&mut test.cond.prop);
    if let Some(f) = &mut test.filter {
        fix(f);
    }
    for l in &mut test.locations {
        rename_entry(l);
    }
    err.map_or(Ok(()), |m| Err((pos, m)))
}

/// `pte_x` is `PTE(x)`.
fn rename_entry(l: &mut Loc) {
    if let Loc::Mem(x) = l
        && let Some(v) = x.strip_prefix("pte_")
    {
        *x = format!("PTE({v})");
    }
}

/// [`entries_canonical`] on a proposition.
fn entries_in_prop(p: &mut Prop) -> Result<(), String> {
    match p {
        Prop::Eq(l, v) => {
            rename_entry(l);
            if let Val::Sym(s) = v {
                if let Some(x) = s.strip_prefix("pte_") {
                    *s = format!("PTE({x})");
                } else if s.starts_with('(') {
                    let entry = if let Loc::Mem(x) = &*l { crate::events::pte_name(x) } else { None };
                    *s = crate::events::canonical_pte(s, entry)?;
                }
            }
            Ok(())
        }
        Prop::EqLoc(a, b) => {
            rename_entry(a);
            rename_entry(b);
            Ok(())
        }
        Prop::Not(q) => entries_in_prop(q),
        Prop::And(qs) | Prop::Or(qs) => qs.iter_mut().try_for_each(entries_in_prop),
        Prop::Implies(a, b) => {
            entries_in_prop(a)?;
            entries_in_prop(b)
        }
        _ => Ok(()),
    }
}
