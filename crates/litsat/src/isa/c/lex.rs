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
const PAIRS: [&str; 12] = ["&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "++", "--", "->", "&~"];

/// Punctuators of one character.
const SINGLES: &str = "{}()[];,*&+-/%^|~!=<>?:.";

/// For each ASCII byte, the punctuator of one character it is, as an index into
/// [`SINGLES`] plus one (0: none): built at compile time, so a token's kind is one load.
const SINGLE_AT: [u8; 128] = {
    let mut t = [0u8; 128];
    let b = SINGLES.as_bytes();
    let mut k = 0;
    while k < b.len() {
        t[b[k] as usize] = k as u8 + 1;
        k += 1;
    }
    t
};

/// Bytes that continue a name, as a table: names are most of a thread's bytes.
const WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
};

fn is_word(c: u8) -> bool {
    WORD[usize::from(c)]
}

/// An ASCII character that `char::is_whitespace` holds for: unlike
/// `u8::is_ascii_whitespace`, the vertical tab too.
fn is_ascii_blank(c: u8) -> bool {
    c == b' ' || (b'\t'..=b'\r').contains(&c)
}

/// The end of the run of bytes from `from` on that satisfy `f`.
#[inline]
fn run_end(b: &[u8], from: usize, f: impl Fn(u8) -> bool) -> usize {
    let mut k = from;
    while k < b.len() && f(b[k]) {
        k += 1;
    }
    k
}

/// The value of the digits `d` in `radix`; `None` where it does not fit in a u64.
fn digits_value(d: &[u8], radix: u64) -> Option<u64> {
    d.iter().try_fold(0u64, |v, &c| v.checked_mul(radix)?.checked_add(char::from(c).to_digit(16)? as u64))
}

/// A number and its length: hexadecimal after `0x`, else decimal; `i64::MAX` where it
/// does not fit.
fn number(b: &[u8]) -> (i64, usize) {
    if b.len() > 2 && b[0] == b'0' && matches!(b[1], b'x' | b'X') && b[2].is_ascii_hexdigit() {
        let n = run_end(b, 2, |c| c.is_ascii_hexdigit());
        return (digits_value(&b[2..n], 16).map_or(i64::MAX, |v| v as i64), n);
    }
    let n = run_end(b, 0, |c| c.is_ascii_digit());
    (digits_value(&b[..n], 10).and_then(|v| i64::try_from(v).ok()).unwrap_or(i64::MAX), n)
}

/// The punctuator `b` starts with, the longest one.
fn sym(b: &[u8]) -> Option<&'static str> {
    let k = *SINGLE_AT.get(usize::from(*b.first()?))? as usize;
    if k == 0 {
        return None;
    }
    // Only these bytes end a pair: most punctuators are followed by none of them.
    if let Some(&d) = b.get(1)
        && matches!(d, b'&' | b'|' | b'=' | b'<' | b'>' | b'+' | b'-' | b'~')
        && let Some(p) = PAIRS.iter().find(|p| p.as_bytes()[0] == b[0] && p.as_bytes()[1] == d)
    {
        return Some(p);
    }
    Some(&SINGLES[k - 1..k])
}

/// The token at the start of `i` and its length, chosen by its first byte; `None` where
/// no token starts.
#[inline]
fn token(i: &str) -> Option<(Tok<'_>, usize)> {
    let b = i.as_bytes();
    let c = *b.first()?;
    if c.is_ascii_alphabetic() || c == b'_' {
        let n = run_end(b, 1, is_word);
        Some((Tok::Ident(&i[..n]), n))
    } else if c.is_ascii_digit() {
        let (v, n) = number(b);
        Some((Tok::Int(v), n))
    } else {
        sym(b).map(|s| (Tok::Sym(s), s.len()))
    }
}

/// Skips blanks and C comments. `Err` carries the offset of an unterminated `/*`.
fn skip(i: &str) -> Result<&str, &str> {
    let mut i = i;
    loop {
        let b = i.as_bytes();
        let mut k = 0;
        while k < b.len() && is_ascii_blank(b[k]) {
            k += 1;
        }
        // ASCII blanks by byte; `trim_start` for any other Unicode blank.
        let t = match b.get(k) {
            Some(c) if !c.is_ascii() => i[k..].trim_start(),
            Some(b'/') => &i[k..],
            _ => return Ok(&i[k..]),
        };
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
    /// The text after the tokens taken, blanks and comments skipped; empty once the
    /// text stops lexing.
    rest: &'a str,
    /// Why the text stops lexing, once it has: kept apart from `rest` so that taking a
    /// token moves no `Result`.
    failed: Option<LexError>,
}

impl<'a> Lexer<'a> {
    /// The tokens of `text`, each with its offset plus `base`.
    pub fn new(text: &'a str, base: usize) -> Lexer<'a> {
        let mut l = Lexer { text, base, rest: "", failed: None };
        l.skip_to_token(text);
        l
    }

    fn at(&self, s: &str) -> Pos {
        Pos(self.base + (s.as_ptr() as usize - self.text.as_ptr() as usize))
    }

    /// Moves to the next token from `i` on, past blanks and comments: ASCII blanks here,
    /// inlined in the loop over tokens; comments and other blanks in [`Lexer::skip_slow`].
    #[inline]
    fn skip_to_token(&mut self, i: &'a str) {
        let b = i.as_bytes();
        let mut k = 0;
        while k < b.len() && is_ascii_blank(b[k]) {
            k += 1;
        }
        match b.get(k) {
            Some(&c) if c == b'/' || !c.is_ascii() => self.skip_slow(&i[k..]),
            _ => self.rest = &i[k..],
        }
    }

    #[inline(never)]
    fn skip_slow(&mut self, i: &'a str) {
        match skip(i) {
            Ok(r) => self.rest = r,
            Err(s) => self.stop(s, "unterminated comment: expected `*/`".into()),
        }
    }

    fn stop(&mut self, at: &str, msg: String) {
        self.failed = Some(LexError { pos: self.at(at), msg });
        self.rest = "";
    }

    /// The next token and its position; `None` at the end of the text or where it stops
    /// lexing ([`Lexer::error`] tells which).
    pub fn next_token(&mut self) -> Option<(Tok<'a>, Pos)> {
        let i = self.rest;
        if i.is_empty() {
            return None;
        }
        match token(i) {
            Some((t, n)) => {
                self.skip_to_token(&i[n..]);
                Some((t, self.at(i)))
            }
            None => {
                let c = i.chars().next().unwrap_or(' ');
                self.stop(i, format!("unexpected character '{c}'"));
                None
            }
        }
    }

    /// The first place, from the tokens not taken yet on, where the text does not lex.
    pub fn error(mut self) -> Option<LexError> {
        while self.next_token().is_some() {}
        self.failed
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
