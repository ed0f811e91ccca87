//! x86-64 (AT&T syntax) instructions as herd's hash prints them (lib/X86_64Base.ml's
//! `dump_instruction`): lower-case mnemonics with the size suffix as written, registers
//! `%rax` in lower case, immediates `$k` in decimal, memory `k(%r)` (no zero offset),
//! `(x)` for a symbol, `k(%r1, %r2,s)` scaled, `lock; ` before a locked instruction, and
//! the no-operations (`nop`, `nopw`, `endbr64`, …) as `NOP`.

use super::util::{int, operands};

const BASES: [&str; 16] =
    ["ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];

/// Whether `r` (lower case, no `%`) names a general register of some width.
fn is_gpr(r: &str) -> bool {
    let legacy = |b: &str| b.len() == 2 && !b.starts_with('r');
    BASES.iter().any(|b| {
        let l = legacy(b);
        r == *b
            || (l && (r == format!("r{b}") || r == format!("e{b}")))
            || (!l && [format!("{b}d"), format!("{b}w"), format!("{b}b")].iter().any(|s| s == r))
    }) || ["al", "bl", "cl", "dl", "sil", "dil", "bpl", "spl", "ah", "bh", "ch", "dh", "rip", "cs"].contains(&r)
}

/// A register operand `%r` (or a symbolic one), as herd prints it.
fn reg(s: &str) -> Option<String> {
    let name = s.strip_prefix('%')?;
    let l = name.to_ascii_lowercase();
    if is_gpr(&l) {
        return Some(format!("%{l}"));
    }
    if l.starts_with("xmm") {
        return None;
    }
    let ok = name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
    ok.then(|| format!("%{name}"))
}

/// An effective address: a register, `k(%r)`, `(%r)`, `(x)`, `[x]` or a scaled index.
fn effaddr(s: &str) -> Option<String> {
    if s.starts_with('%') {
        return reg(s);
    }
    let open = s.find(['(', '['])?;
    let close = if s.as_bytes()[open] == b'(' { ')' } else { ']' };
    let inner = s[open + 1..].strip_suffix(close)?.trim();
    let off = match s[..open].trim() {
        "" => 0,
        k => int(k)?,
    };
    let off_s = if off == 0 { String::new() } else { off.to_string() };
    match operands(inner).as_slice() {
        [r] if r.starts_with('%') => Some(format!("{off_s}({})", reg(r)?)),
        [x] if off == 0 => {
            if let Some(k) = int(x) {
                return Some(format!("({k})"));
            }
            let ok = x.bytes().all(|b| b.is_ascii_alphanumeric() || b"_/.-".contains(&b));
            ok.then(|| format!("({x})"))
        }
        [a, b, k] if close == ')' => {
            let k = int(k)?;
            let k = if k == 0 { String::new() } else { k.to_string() };
            Some(format!("{off_s}({}, {},{k})", reg(a)?, reg(b)?))
        }
        _ => None,
    }
}

/// An operand: an immediate (`$k` or `k`) or an effective address.
fn operand(s: &str) -> Option<String> {
    match int(s.strip_prefix('$').unwrap_or(s)) {
        Some(k) => Some(format!("${k}")),
        None => effaddr(s),
    }
}

/// Prints one x86-64 instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let ins = ins.trim();
    let (m, rest) = ins.split_once(char::is_whitespace).unwrap_or((ins, ""));
    let l = m.to_ascii_lowercase();
    if m != l && m != m.to_ascii_uppercase() {
        return None;
    }
    if l == "lock" {
        return Some(format!("lock; {}", print(rest.trim_start().trim_start_matches(';'), label)?));
    }
    let ops = operands(rest);
    let sized = |base: &[&str]| {
        base.iter().any(|b| l.strip_prefix(b).is_some_and(|s| ["", "b", "w", "l", "q"].contains(&s)))
    };
    Some(match ops.as_slice() {
        [] if ["mfence", "sfence", "lfence", "ret"].contains(&l.as_str()) => l,
        _ if ["nopl", "nopw", "nop", "endbr64"].contains(&l.as_str()) => "NOP".into(),
        [l0] if jump(&l).is_some() => format!("{} {}", jump(&l)?, label(l0)),
        [a, b] if sized(&["add", "xor", "or", "mov", "cmp"]) || l == "and" || l == "shl" => {
            format!("{l} {},{}", operand(a)?, effaddr(b)?)
        }
        [a] if sized(&["dec", "inc"]) || l == "setnb" => format!("{l} {}", effaddr(a)?),
        [a, b] if sized(&["xchg", "uxch", "cmpxchg", "cmovc"]) => format!("{l} {},{}", effaddr(a)?, effaddr(b)?),
        [r, a] if ["movnti", "movntil", "movntiq"].contains(&l.as_str()) => {
            format!("{l} {},{}", reg(r)?, effaddr(a)?)
        }
        [a] if l == "clflush" || l == "clflushopt" => format!("{l} {}", effaddr(a)?),
        _ => return None,
    })
}

/// A conditional or unconditional jump's printed mnemonic.
fn jump(m: &str) -> Option<&'static str> {
    Some(match m {
        "jmp" => "jmp",
        "je" => "je",
        "jne" => "jne",
        "jle" => "jle",
        "jl" | "jlt" => "jl",
        "jg" | "jgt" => "jg",
        "jge" => "jge",
        "js" => "js",
        "jns" => "jns",
        _ => return None,
    })
}
