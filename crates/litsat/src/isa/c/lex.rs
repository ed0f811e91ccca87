//! Tokens of herd's C dialect, lexed with nom.
//!
//! Positions are byte offsets into the text handed in; callers add the offset of that text
//! in its file. Names borrow the text, so lexing allocates nothing but the token vector. `//` and `/* */` comments are skipped; OCaml comments never reach here
//! (the litmus splitter blanks them outside thread bodies, where `(*x` is a dereference).

use crate::diag::Pos;
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::satisfy,
    combinator::{map, recognize},
    sequence::pair,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    Ident(&'a str),
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
fn token(i: &str) -> IResult<&str, Tok<'_>> {
    match i.as_bytes().first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => map(ident, Tok::Ident).parse(i),
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

/// Why the text does not lex, and where.
#[derive(Clone, Debug)]
pub struct LexError {
    pub pos: Pos,
    pub msg: String,
}

/// The tokens of a text, taken one at a time: a parser reads them as it goes, so that no
/// token vector is built (growing one cost more than lexing itself).
#[derive(Clone)]
pub struct Lexer<'a> {
    text: &'a str,
    /// The offset of `text` in its file.
    base: usize,
    /// The text after the tokens taken, blanks and comments skipped; or why the text
    /// stops lexing there.
    rest: Result<&'a str, LexError>,
}

impl<'a> Lexer<'a> {
    /// The tokens of `text`, each with its offset plus `base`.
    pub fn new(text: &'a str, base: usize) -> Lexer<'a> {
        let mut l = Lexer { text, base, rest: Ok(text) };
        l.rest = l.skipped(text);
        l
    }

    fn at(&self, s: &str) -> Pos {
        Pos(self.base + (s.as_ptr() as usize - self.text.as_ptr() as usize))
    }

    fn skipped(&self, i: &'a str) -> Result<&'a str, LexError> {
        skip(i).map_err(|s| LexError { pos: self.at(s), msg: "unterminated comment: expected `*/`".into() })
    }

    /// The next token and its position; `None` at the end of the text or where it stops
    /// lexing ([`Lexer::error`] tells which).
    pub fn next_token(&mut self) -> Option<(Tok<'a>, Pos)> {
        let i = *self.rest.as_ref().ok()?;
        if i.is_empty() {
            return None;
        }
        match token(i) {
            Ok((r, t)) => {
                self.rest = self.skipped(r);
                Some((t, self.at(i)))
            }
            Err(_) => {
                let c = i.chars().next().unwrap_or(' ');
                self.rest = Err(LexError { pos: self.at(i), msg: format!("unexpected character '{c}'") });
                None
            }
        }
    }

    /// The first place, from the tokens not taken yet on, where the text does not lex.
    pub fn error(mut self) -> Option<LexError> {
        while self.next_token().is_some() {}
        self.rest.err()
    }
}
