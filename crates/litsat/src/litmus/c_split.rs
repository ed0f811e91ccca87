//! The parts of a C litmus test that differ from the ISA tables: comments, and thread
//! functions `P0(int *x) { … }` instead of a code table.
//!
//! OCaml comments `(* … *)` are comments only outside thread bodies; inside one, `(*x` is
//! a dereference. Bodies keep their C comments for the C lexer.

use super::ast::{Cell, ThreadCode};
use crate::diag::{Diag, Pos, offset_in};
use std::borrow::Cow;

/// `source` with OCaml comments outside thread bodies blanked, byte for byte; borrowed
/// when it holds no `(*` (most files), so that no byte is walked or copied.
pub fn blank_comments(source: &str) -> Cow<'_, str> {
    if !source.contains("(*") {
        return Cow::Borrowed(source);
    }
    let b = source.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut depth, mut last_sig) = (0usize, 0usize, b'\n');
    while i < b.len() {
        if depth > 0 {
            if b[i..].starts_with(b"(*") {
                depth += 1;
                blank(&mut out, i, 2);
                i += 2;
            } else if b[i..].starts_with(b"*)") {
                depth -= 1;
                blank(&mut out, i, 2);
                i += 2;
            } else {
                blank(&mut out, i, 1);
                i += 1;
            }
            continue;
        }
        match b[i] {
            b'(' if b[i..].starts_with(b"(*") => {
                depth = 1;
                blank(&mut out, i, 2);
                i += 2;
            }
            b'/' if b[i..].starts_with(b"//") => i = line_end(b, i),
            b'"' => i = string_end(b, i),
            b'{' if last_sig == b')' => {
                i = body_end(b, i);
                last_sig = b'}';
            }
            c => {
                if !c.is_ascii_whitespace() {
                    last_sig = c;
                }
                i += 1;
            }
        }
    }
    if depth > 0 {
        return Cow::Borrowed(source);
    }
    String::from_utf8(out).map_or(Cow::Borrowed(source), Cow::Owned)
}

/// Blanks `n` bytes at `i`, keeping newlines.
fn blank(out: &mut [u8], i: usize, n: usize) {
    let end = (i + n).min(out.len());
    for c in &mut out[i..end] {
        if *c != b'\n' {
            *c = b' ';
        }
    }
}

fn line_end(b: &[u8], i: usize) -> usize {
    b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k)
}

fn string_end(b: &[u8], i: usize) -> usize {
    b[i + 1..].iter().position(|&c| c == b'"').map_or(b.len(), |k| i + k + 2)
}

/// The bytes [`body_end`] stops at, as a table: it walks every byte of every thread.
const MATTERS: [bool; 256] = {
    let mut t = [false; 256];
    t[b'/' as usize] = true;
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'}' as usize] = true;
    t
};

/// The offset just past the brace matching the `{` at `i`, skipping C comments and
/// strings; the length of the text when it is unterminated.
fn body_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        // Straight to the next byte that can matter.
        while i < b.len() && !MATTERS[usize::from(b[i])] {
            i += 1;
        }
        if i == b.len() {
            break;
        }
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = line_end(b, i);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = find(b, i + 2, b"*/").map_or(b.len(), |k| k + 2);
                continue;
            }
            b'"' => {
                i = string_end(b, i);
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    (from..b.len().saturating_sub(pat.len() - 1)).find(|&k| b[k..].starts_with(pat))
}

/// Skips blanks and C comments.
fn skip_blank(s: &str) -> &str {
    let mut s = s;
    loop {
        let t = s.trim_start();
        if let Some(r) = t.strip_prefix("//") {
            s = r.find('\n').map_or("", |k| &r[k..]);
        } else if let Some(r) = t.strip_prefix("/*") {
            s = r.find("*/").map_or("", |k| &r[k + 2..]);
        } else {
            return t;
        }
    }
}

/// The thread functions at the start of `rest`, and what follows them. Each thread is
/// one cell holding the whole function.
pub fn threads<'a>(file: &str, source: &str, text: &'a str, rest: &'a str) -> Result<(Vec<ThreadCode>, &'a str), Diag> {
    let err = |at: &str, m: &str| Diag::at(file, source, offset_in(text, at), m);
    let mut out = Vec::new();
    let mut rest = rest;
    loop {
        let t = skip_blank(rest);
        let digits = t.strip_prefix('P').map(|r| r.bytes().take_while(u8::is_ascii_digit).count()).unwrap_or(0);
        if digits == 0 || !t[1 + digits..].trim_start().starts_with('(') {
            rest = t;
            break;
        }
        let id: usize = t[1..1 + digits].parse().map_err(|_| err(t, "thread number out of range"))?;
        let open = t.find('{').ok_or_else(|| err(t, "expected the thread's body `{ … }`"))?;
        let end = body_end(t.as_bytes(), open);
        if end > t.len() || !t[..end].ends_with('}') {
            return Err(err(&t[open..], "unterminated thread body: expected `}`"));
        }
        let pos: Pos = offset_in(text, t);
        out.push(ThreadCode { id, cells: vec![Cell { text: t[..end].to_string(), pos }] });
        rest = &t[end..];
    }
    if out.is_empty() {
        return Err(err(rest, "expected a thread `P0(…) { … }`"));
    }
    Ok((out, rest))
}
