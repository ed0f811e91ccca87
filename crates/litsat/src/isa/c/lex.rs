//! Tokens of herd's C dialect, lexed with nom.
//!
//! Positions are byte offsets into the text handed in; callers add the offset of that text
//! in its file. `//` and `/* */` comments are skipped; OCaml comments never reach here
//! (the litmus splitter blanks them outside thread bodies, where `(*x` is a dereference).

use crate::diag::{Diag, Pos};
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::satisfy,
    combinator::{map, recognize},
    sequence::pair,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Int(i64),
    Sym(&'static str),
}

/// Punctuators, longest first so that `<<=`-like prefixes are taken whole.
const SYMS: &[&str] = &[
    "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "++", "--", "->", "&~", "{", "}", "(", ")", "[", "]", ";", ",",
    "*", "&", "+", "-", "/", "%", "^", "|", "~", "!", "=", "<", ">", "?", ":", ".",
];

fn ident(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(i)
}

fn number(i: &str) -> IResult<&str, i64> {
    alt((
        map(recognize(pair(alt((tag("0x"), tag("0X"))), take_while1(|c: char| c.is_ascii_hexdigit()))), |s: &str| {
            u64::from_str_radix(&s[2..], 16).map(|v| v as i64).unwrap_or(i64::MAX)
        }),
        map(take_while1(|c: char| c.is_ascii_digit()), |s: &str| s.parse().unwrap_or(i64::MAX)),
    ))
    .parse(i)
}

fn sym(i: &str) -> IResult<&str, &'static str> {
    // Only the punctuators that start with `i`'s first byte can match.
    let first = i.as_bytes().first().copied();
    for s in SYMS.iter().filter(|s| s.as_bytes().first().copied() == first) {
        if let Some(r) = i.strip_prefix(s) {
            return Ok((r, s));
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Tag)))
}

/// A token, chosen by its first character.
fn token(i: &str) -> IResult<&str, Tok> {
    match i.as_bytes().first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => map(ident, |s: &str| Tok::Ident(s.to_string())).parse(i),
        Some(c) if c.is_ascii_digit() => map(number, Tok::Int).parse(i),
        _ => map(sym, Tok::Sym).parse(i),
    }
}

/// Skips blanks and C comments. `Err` carries the offset of an unterminated `/*`.
fn skip(i: &str) -> Result<&str, &str> {
    let mut i = i;
    loop {
        let t = i.trim_start();
        if let Some(r) = t.strip_prefix("//") {
            i = r.find('\n').map_or("", |k| &r[k..]);
        } else if let Some(r) = t.strip_prefix("/*") {
            i = r.find("*/").map(|k| &r[k + 2..]).ok_or(t)?;
        } else {
            return Ok(t);
        }
    }
}

/// The tokens of `text`, each with its offset plus `base`. `file`/`source` locate errors.
pub fn lex(file: &str, source: &str, text: &str, base: usize) -> Result<Vec<(Tok, Pos)>, Diag> {
    let at = |s: &str| Pos(base + (s.as_ptr() as usize - text.as_ptr() as usize));
    let unterminated = |s: &str| Diag::at(file, source, at(s), "unterminated comment: expected `*/`");
    let mut out = Vec::new();
    let mut i = skip(text).map_err(unterminated)?;
    while !i.is_empty() {
        match token(i) {
            Ok((r, t)) => {
                out.push((t, at(i)));
                i = skip(r).map_err(unterminated)?;
            }
            Err(_) => {
                let c = i.chars().next().unwrap_or(' ');
                return Err(Diag::at(file, source, at(i), format!("unexpected character '{c}'")));
            }
        }
    }
    Ok(out)
}
