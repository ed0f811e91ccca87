//! Tokens of herd's C dialect.
//!
//! Positions are byte offsets into the text handed in; callers add the offset of that text
//! in its file. Names borrow the text, and tokens are taken one at a time ([`Lexer`]), so
//! lexing allocates nothing; it reads bytes, every token starting with an ASCII one. `//`
//! and `/* */` comments are skipped; OCaml comments never reach here (the litmus splitter
//! blanks them outside thread bodies, where `(*x` is a dereference).

use crate::diag::Pos;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    Ident(&'a str),
    Int(i64),
    Sym(&'static str),
}

/// Punctuators of two characters, taken before their first character alone.
const PAIRS: &[&str] = &["&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "++", "--", "->", "&~"];

/// Punctuators of one character.
const SINGLES: &str = "{}()[];,*&+-/%^|~!=<>?:.";

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// An ASCII character that `char::is_whitespace` holds for: unlike
/// `u8::is_ascii_whitespace`, the vertical tab too.
fn is_ascii_blank(c: u8) -> bool {
    c == b' ' || (b'\t'..=b'\r').contains(&c)
}

/// The end of the run of bytes from `from` on that satisfy `f`.
fn run_end(b: &[u8], from: usize, f: impl Fn(u8) -> bool) -> usize {
    b[from..].iter().position(|&c| !f(c)).map_or(b.len(), |k| from + k)
}

/// A number and its length: hexadecimal after `0x`, else decimal; `i64::MAX` where it
/// does not fit.
fn number(i: &str) -> (i64, usize) {
    let b = i.as_bytes();
    if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'x' | b'X') && b[2].is_ascii_hexdigit() {
        let n = run_end(b, 2, |c| c.is_ascii_hexdigit());
        return (u64::from_str_radix(&i[2..n], 16).map_or(i64::MAX, |v| v as i64), n);
    }
    let n = run_end(b, 0, |c| c.is_ascii_digit());
    (i[..n].parse().unwrap_or(i64::MAX), n)
}

/// The punctuator `b` starts with, the longest one.
fn sym(b: &[u8]) -> Option<&'static str> {
    let pair = PAIRS.iter().find(|p| matches!((p.as_bytes(), b), ([x, y], [c, d, ..]) if (x, y) == (c, d)));
    let single = || SINGLES.bytes().position(|c| Some(&c) == b.first()).map(|k| &SINGLES[k..k + 1]);
    pair.copied().or_else(single)
}

/// The token `i` starts with and its length, chosen by its first byte; `None` where no
/// token starts.
fn token(i: &str) -> Option<(Tok<'_>, usize)> {
    let b = i.as_bytes();
    let c = *b.first()?;
    if c.is_ascii_alphabetic() || c == b'_' {
        let n = run_end(b, 1, is_word);
        Some((Tok::Ident(&i[..n]), n))
    } else if c.is_ascii_digit() {
        let (v, n) = number(i);
        Some((Tok::Int(v), n))
    } else {
        sym(b).map(|s| (Tok::Sym(s), s.len()))
    }
}

/// Skips blanks and C comments. `Err` carries the offset of an unterminated `/*`.
fn skip(i: &str) -> Result<&str, &str> {
    let mut i = i;
    loop {
        // ASCII blanks by byte; `trim_start` for any other Unicode blank.
        let mut t = &i[run_end(i.as_bytes(), 0, is_ascii_blank)..];
        if !t.as_bytes().first().is_none_or(u8::is_ascii) {
            t = t.trim_start();
        }
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
            Some((t, n)) => {
                self.rest = self.skipped(&i[n..]);
                Some((t, self.at(i)))
            }
            None => {
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

#[cfg(test)]
mod tests {
    use super::Tok::{Ident, Int, Sym};
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        let mut l = Lexer::new(s, 0);
        std::iter::from_fn(|| l.next_token().map(|t| t.0)).collect()
    }

    fn error(s: &str) -> Option<(usize, String)> {
        Lexer::new(s, 10).error().map(|e| (e.pos.0, e.msg))
    }

    #[test]
    fn tokens_longest_first() {
        let want = [Ident("r0"), Sym("="), Int(31), Sym("<<"), Int(2), Sym("&~"), Ident("_x1"), Sym("&"), Sym(";")];
        assert_eq!(toks("r0 = 0x1F<<2 &~_x1& ; // c\n /* d */"), want);
        assert_eq!(toks("0x 99999999999999999999"), [Int(0), Ident("x"), Int(i64::MAX)]);
    }

    #[test]
    fn blanks_are_unicode_ones() {
        assert_eq!(toks("a\x0b\u{85}\u{2003}b"), [Ident("a"), Ident("b")]);
    }

    #[test]
    fn errors_where_lexing_stops() {
        assert_eq!(error("a é"), Some((12, "unexpected character 'é'".to_string())));
        assert_eq!(error("a /* b"), Some((12, "unterminated comment: expected `*/`".to_string())));
        assert_eq!(error("a // b"), None);
    }
}
