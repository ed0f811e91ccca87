//! A fast path for the propositions nearly every test writes: places compared with
//! numbers or names (`0:r1=1`, `x=y`), `/\`, `\/` and parentheses, read byte by byte
//! without the combinators' intermediate results.
//!
//! It accepts a subset of what [`super::prop`] accepts and gives, where it accepts, the
//! same proposition and the same rest of the input; anything else (`~`, `=>`, `true`,
//! arrays, hexadecimal, `loc=loc`, and every error) it leaves to the nom parser, which
//! alone reports failures.

use super::super::ast::{Loc, Prop, Val};

/// How deeply the fast path nests parentheses before leaving the input to nom.
const MAX_NESTING: usize = 32;

/// nom's `multispace0`: spaces, tabs, carriage returns and newlines; read by byte, as a
/// char pattern costs several times more per character.
fn ws(i: &str) -> &str {
    &i[run(i, 0, |c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))..]
}

/// [`super::ident`]: a run of letters, `_`, `%` and `$`, then one of letters, digits,
/// `_` and `.`.
fn ident(i: &str) -> Option<(&str, &str)> {
    let n = run(i, 0, |c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'%' | b'$'));
    if n == 0 {
        return None;
    }
    let n = run(i, n, |c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'));
    Some((&i[n..], &i[..n]))
}

/// The end of the run of bytes of `i` from `from` on that satisfy `f`.
fn run(i: &str, from: usize, f: impl Fn(u8) -> bool) -> usize {
    i.as_bytes()[from..].iter().position(|&c| !f(c)).map_or(i.len(), |k| from + k)
}

/// The leading decimal digits of `i`, and the rest.
fn digits(i: &str) -> (&str, &str) {
    let n = run(i, 0, |c| c.is_ascii_digit());
    (&i[n..], &i[..n])
}

/// `N:reg` or `PN:reg` ([`super::thread_reg`]), where the input has one.
fn thread_reg(i: &str) -> Option<(&str, Loc)> {
    let (r, t) = digits(i.strip_prefix('P').unwrap_or(i));
    if t.is_empty() {
        return None;
    }
    let (r, name) = ident(ws(r.strip_prefix(':')?))?;
    Some((r, Loc::Reg(t.parse().unwrap_or(usize::MAX), name.trim_start_matches('%').to_string())))
}

/// A place ([`super::loc`]): a thread's register, `[x]` or a plain name; `None` for
/// the rest.
pub fn loc(i: &str) -> Option<(&str, Loc)> {
    if let Some(r) = thread_reg(i) {
        return Some(r);
    }
    if let Some(r) = i.strip_prefix('[') {
        let (r, name) = ident(ws(r))?;
        return Some((ws(r).strip_prefix(']')?, Loc::Mem(name.to_string())));
    }
    // nom fails on a register-like prefix with no name, and tries arrays after it.
    if i.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (r, name) = ident(i)?;
    if r.starts_with('[') {
        return None;
    }
    Some((r, Loc::Mem(name.to_string())))
}

/// A decimal number that fits in i64, or a plain name, or `&name` ([`super::value`]).
pub fn value(i: &str) -> Option<(&str, Val)> {
    let b = i.as_bytes();
    let neg = b.first() == Some(&b'-');
    let body = if neg { &i[1..] } else { i };
    if body.starts_with(|c: char| c.is_ascii_digit()) {
        if body.len() > 1 && matches!(body.as_bytes()[1], b'x' | b'X') {
            return None;
        }
        let (r, d) = digits(body);
        let v: i64 = d.parse().ok()?;
        return Some((r, Val::Int(if neg { v.wrapping_neg() } else { v })));
    }
    if neg || i.starts_with("instr:") || i.starts_with("label:") {
        return None;
    }
    let (r, name) = ident(i.strip_prefix('&').unwrap_or(i))?;
    Some((r, Val::Sym(name.to_string())))
}

/// `loc = value` or `loc != value`, or a parenthesised proposition.
fn atom(i: &str, depth: usize) -> Option<(&str, Prop)> {
    let i = ws(i);
    if let Some(r) = i.strip_prefix('(') {
        if depth >= MAX_NESTING {
            return None;
        }
        let (r, p) = or(r, depth + 1)?;
        return Some((ws(r).strip_prefix(')')?, p));
    }
    if i.starts_with('~') || ["not", "true", "false"].iter().any(|k| i.starts_with(k)) {
        return None;
    }
    let (r, l) = loc(i)?;
    let r = ws(r);
    let (r, negated) = if let Some(r) = r.strip_prefix("!=").or_else(|| r.strip_prefix("<>")) {
        (r, true)
    } else {
        (r.strip_prefix("==").or_else(|| r.strip_prefix('='))?, false)
    };
    let r = ws(r);
    // A place on the right (`loc = 0:r1`, `loc = [x]`) is nom's.
    if r.starts_with('[') || thread_reg(r).is_some() {
        return None;
    }
    let (r, v) = value(r)?;
    let p = Prop::Eq(l, v);
    Some((r, if negated { Prop::Not(Box::new(p)) } else { p }))
}

/// An atom not followed by `=>` (implications are nom's).
fn unit(i: &str, depth: usize) -> Option<(&str, Prop)> {
    let (r, p) = atom(i, depth)?;
    if ws(r).starts_with("=>") {
        return None;
    }
    Some((r, p))
}

/// Items joined by `sep`, each read by `item`: one item alone, or `join` of them all.
fn chain<'a>(
    i: &'a str,
    sep: &str,
    item: impl Fn(&'a str) -> Option<(&'a str, Prop)>,
    join: fn(Vec<Prop>) -> Prop,
) -> Option<(&'a str, Prop)> {
    let (mut i, first) = item(i)?;
    let mut items = vec![first];
    while let Some(r) = ws(i).strip_prefix(sep) {
        let (r, p) = item(r)?;
        items.push(p);
        i = r;
    }
    Some((i, if items.len() == 1 { items.pop()? } else { join(items) }))
}

fn or(i: &str, depth: usize) -> Option<(&str, Prop)> {
    chain(i, "\\/", |i| chain(i, "/\\", |i| unit(i, depth), Prop::And), Prop::Or)
}

/// A whole proposition and the rest of the input, where the fast path reads it.
pub fn prop(i: &str) -> Option<(&str, Prop)> {
    or(i, 0)
}

#[cfg(test)]
mod tests {
    /// Where the fast path reads a proposition, it reads what nom reads, to the same rest.
    #[test]
    fn agrees_with_nom() {
        let inputs = [
            "(x=1 /\\ y=1)",
            "(0:r1=1 /\\ 1:r2 = 0) \\/ P1:%r3!=-2 ;",
            "x = y /\\ (z<>&w) \\/ a==1",
            "a%b=1",
            "P0=1",
            "P0: r1=1",
            "0:r1=0:r2",
            "x=[y]",
            "0x=1",
            "x=0x10",
            "x=1 => y=2",
            "~x=1",
            "nothing=1",
            "true",
            "t[1]=2",
            "x.y=instr:\"nop\"",
            "99999999999999999999:r=1",
            "((((x=1))))",
            "(x=1",
            "[x]",
            "[ x ] = 1 /\\ [y]=&z",
            "[x",
            "&x",
            "-3",
            "-x",
            "0x1F",
            "18446744073709551616",
        ];
        for i in inputs {
            if let Some(fast) = super::prop(i) {
                assert_eq!(Ok(fast), super::super::prop_nom(i).map_err(|_| ()), "{i}");
            }
            if let Some(fast) = super::loc(i) {
                assert_eq!(Ok(fast), super::super::loc_nom(i).map_err(|_| ()), "{i}");
            }
            if let Some(fast) = super::value(i) {
                assert_eq!(Ok(fast), super::super::value_nom(i).map_err(|_| ()), "{i}");
            }
        }
    }
}
