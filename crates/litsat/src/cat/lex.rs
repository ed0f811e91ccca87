//! Tokens of the cat language, lexed with nom.

use crate::diag::{Diag, Pos, offset_in};
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while},
    character::complete::{char, digit1, satisfy},
    combinator::{map, opt, recognize},
    sequence::{delimited, pair, preceded},
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    Str(String),
    Tag(String),
    Int(i64),
    Sym(&'static str),
}

fn ident(i: &str) -> IResult<&str, &str> {
    recognize((
        opt(char('_')),
        satisfy(|c| c.is_ascii_alphabetic()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'),
        opt(char('\'')),
    ))
    .parse(i)
}

const SYMS: &[&str] = &[
    "^-1", "||", "++", "->", "&&", "|", ";", "\\", "&", "*", "+", "?", "~", "[", "]", "(", ")", "{", "}", ",", "=",
    "^", "!", "-",
];

fn sym(i: &str) -> IResult<&str, &'static str> {
    for s in SYMS {
        if let Some(r) = i.strip_prefix(s) {
            return Ok((r, s));
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Tag)))
}

fn token(i: &str) -> IResult<&str, Tok> {
    alt((
        map(ident, |s: &str| Tok::Ident(s.to_string())),
        map(
            preceded(
                char('\''),
                recognize(pair(
                    satisfy(|c| c.is_ascii_alphabetic() || c == '_'),
                    take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'),
                )),
            ),
            |s: &str| Tok::Tag(s.to_string()),
        ),
        map(delimited(char('"'), take_while(|c| c != '"'), char('"')), |s: &str| Tok::Str(s.to_string())),
        map(digit1, |d: &str| Tok::Int(d.parse().unwrap_or(i64::MAX))),
        map(tag("_"), |_| Tok::Ident("_".to_string())),
        map(sym, Tok::Sym),
    ))
    .parse(i)
}

/// Skips blanks and comments: `(* … *)` nested, `//` and `#` to the end of the line.
fn skip<'a>(file: &str, text: &'a str, mut i: &'a str) -> Result<&'a str, Diag> {
    loop {
        let t = i.trim_start();
        if t.starts_with("//") || t.starts_with('#') {
            i = match t.find('\n') {
                Some(k) => &t[k..],
                None => "",
            };
        } else if t.starts_with("(*") {
            let mut depth = 0usize;
            let mut rest = t;
            loop {
                if let Some(r) = rest.strip_prefix("(*") {
                    depth += 1;
                    rest = r;
                } else if let Some(r) = rest.strip_prefix("*)") {
                    depth -= 1;
                    rest = r;
                    if depth == 0 {
                        break;
                    }
                } else {
                    let next = rest.char_indices().nth(1).map(|(k, _)| k);
                    match next {
                        Some(k) => rest = &rest[k..],
                        None => {
                            return Err(Diag::at(
                                file,
                                text,
                                offset_in(text, t),
                                "unterminated comment: expected `*)`",
                            ));
                        }
                    }
                }
            }
            i = rest;
        } else {
            return Ok(t);
        }
    }
}

pub fn lex(file: &str, text: &str) -> Result<Vec<(Tok, Pos)>, Diag> {
    let mut out = Vec::new();
    let mut i = skip(file, text, text)?;
    while !i.is_empty() {
        let pos = offset_in(text, i);
        match token(i) {
            Ok((r, t)) => {
                out.push((t, pos));
                i = skip(file, text, r)?;
            }
            Err(_) => {
                let c = i.chars().next().unwrap_or(' ');
                return Err(Diag::at(file, text, pos, format!("unexpected character '{c}'")));
            }
        }
    }
    Ok(out)
}
