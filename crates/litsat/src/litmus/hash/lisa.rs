//! LISA instructions as herd's hash prints them (lib/BellBase.ml's `dump_instruction`):
//! the mnemonic with its annotations in brackets (`r[once]`, `f[mb]`, always with
//! brackets), operands separated by one space, `x+r1` with no spaces, operations
//! `(add a b)`, `ne` as `neq`, registers `rN` and numbers in decimal.

use super::util::int;

/// Splits LISA text into herd's tokens: brackets, parentheses, `+`, `,` and words.
fn tokens(s: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b"[](){}+,".contains(&c) {
            out.push(&s[i..i + 1]);
            i += 1;
        } else {
            let n = b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || b"_/-%&.".contains(c)).count();
            if n == 0 {
                return None;
            }
            out.push(&s[i..i + n]);
            i += n;
        }
    }
    Some(out)
}

/// A register (`r` and a number), a symbolic register, a number or a name, as printed.
fn atom(t: &str) -> Option<String> {
    if let Some(n) = t.strip_prefix('r').and_then(|n| int(n).filter(|_| n.bytes().all(|b| b.is_ascii_digit()))) {
        return Some(format!("r{n}"));
    }
    if t.starts_with('%') {
        return Some(t.to_string());
    }
    if let Some(k) = int(t) {
        return Some(k.to_string());
    }
    let ok = t.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"_/-".contains(&b));
    ok.then(|| t.to_string())
}

/// The operand at the start of `t`: an atom, `a+b`, or `(op a b)`; its text and length.
fn operand(t: &[&str]) -> Option<(String, usize)> {
    match t {
        ["(", op, a, b, ")", ..] => {
            let op = match *op {
                "add" | "xor" | "and" | "eq" => *op,
                "ne" | "neq" => "neq",
                _ => return None,
            };
            Some((format!("({op} {} {})", atom(a)?, atom(b)?), 5))
        }
        [a, "+", b, ..] => Some((format!("{}+{}", atom(a)?, atom(b)?), 3)),
        [a, ..] => Some((atom(a)?, 1)),
        [] => None,
    }
}

/// Prints one LISA instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let t = tokens(ins)?;
    let (m, rest) = t.split_first()?;
    let m = *m;
    // The annotations, if any.
    let (annots, mut rest) = match rest {
        ["[", r @ ..] => {
            let close = r.iter().position(|x| *x == "]")?;
            let names: Vec<&str> = r[..close].iter().copied().filter(|x| *x != ",").collect();
            (Some(names.join(",")), &r[close + 1..])
        }
        r => (None, r),
    };
    let head = match m {
        "r" | "w" | "f" | "rmw" | "b" => format!("{m}[{}]", annots.unwrap_or_default()),
        "mov" | "nop" if annots.is_none() => m.to_string(),
        "call" => return Some(format!("call[{}]", annots?)),
        _ => return None,
    };
    let mut out = vec![head];
    if m == "b" {
        // `b[] r0 L` or `b[] L`: the last word is the label.
        let (l, regs) = rest.split_last()?;
        for r in regs {
            out.push(atom(r)?);
        }
        out.push(label(l));
        return Some(out.join(" "));
    }
    while !rest.is_empty() {
        let (s, n) = operand(rest)?;
        out.push(s);
        rest = &rest[n..];
    }
    Some(out.join(" "))
}
