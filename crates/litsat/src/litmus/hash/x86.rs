//! x86 (Intel syntax) instructions as herd's hash prints them (lib/X86Base.ml's
//! `dump_instruction`): upper-case mnemonics, immediates `$k` in decimal, memory `[x]` or
//! `[EAX]` however bracketed, every sized `MOV` as `MOV` (herd's `norm_ins`), `LOCK; `
//! before a locked instruction, and the extra space herd leaves after `DEC`, `INC` and
//! `CMP`.

use super::util::{int, operands};

const REGS: [&str; 12] = ["EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "EIP", "ZF", "SF", "CF"];

/// A register (spelled as herd's lexer wants it, upper case), or a symbolic `%r`.
fn reg(s: &str) -> Option<String> {
    if let Some(sym) = s.strip_prefix('%') {
        return Some(format!("%{sym}"));
    }
    REGS.contains(&s).then(|| s.to_string())
}

/// An effective address: a register, `[r]`, `(r)`, `[x]` or `[k]`.
fn effaddr(s: &str) -> Option<String> {
    let inner = s.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
    let inner = inner.or_else(|| s.strip_prefix('(').and_then(|r| r.strip_suffix(')')));
    let Some(inner) = inner.map(str::trim) else { return reg(s) };
    if let Some(r) = reg(inner) {
        return Some(format!("[{r}]"));
    }
    if let Some(k) = int(inner) {
        return Some(format!("[{k}]"));
    }
    let ok = inner.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && inner.bytes().all(|b| b.is_ascii_alphanumeric() || b"_/.-".contains(&b));
    (ok && s.starts_with('[')).then(|| format!("[{inner}]"))
}

/// An operand: an effective address or an immediate (`$k` or `k`).
fn operand(s: &str) -> Option<String> {
    if let Some(k) = int(s.strip_prefix('$').unwrap_or(s)) {
        return Some(format!("${k}"));
    }
    effaddr(s)
}

/// Prints one x86 instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let ins = ins.trim();
    let (m, rest) = ins.split_once(char::is_whitespace).unwrap_or((ins, ""));
    let m = mnemonic(m)?;
    if m == "LOCK" {
        let inner = rest.trim_start().trim_start_matches(';');
        return Some(format!("LOCK; {}", print(inner, label)?));
    }
    let ops = operands(rest);
    Some(match (m, ops.as_slice()) {
        ("NOP" | "MFENCE" | "LFENCE" | "SFENCE" | "MOVSD", []) => m.to_string(),
        ("ADD" | "XOR" | "OR" | "MOV" | "MOVB" | "MOVW" | "MOVL" | "MOVQ" | "MOVT", [a, b]) => {
            let m = if m.starts_with("MOV") { "MOV" } else { m };
            format!("{m} {},{}", effaddr(a)?, operand(b)?)
        }
        ("CMP", [a, b]) => format!("CMP  {},{}", effaddr(a)?, operand(b)?),
        ("DEC" | "INC", [a]) => format!("{m}  {}", effaddr(a)?),
        ("SETNB", [a]) => format!("SETNB {}", effaddr(a)?),
        ("CMOVC", [r, a]) => format!("CMOVC {},{}", reg(r)?, effaddr(a)?),
        ("XCHG", [a, b]) => format!("XCHG {},{}", effaddr(a)?, effaddr(b)?),
        ("CMPXCHG", [a, r]) => format!("CMPXCHG {},{}", effaddr(a)?, reg(r)?),
        ("JMP", [l]) => format!("JMP {}", label(l)),
        ("JE", [l]) => format!("JE {}", label(l)),
        ("JNE", [l]) => format!("JNE {}", label(l)),
        _ => return None,
    })
}

/// The mnemonic, upper case, where herd's lexer knows its spelling (all lower or all
/// upper case).
fn mnemonic(m: &str) -> Option<&'static str> {
    const ALL: [&str; 24] = [
        "ADD", "XOR", "OR", "MOV", "MOVB", "MOVW", "MOVL", "MOVQ", "MOVT", "MOVSD", "DEC", "CMP", "CMOVC", "INC",
        "JMP", "JE", "JNE", "LOCK", "XCHG", "CMPXCHG", "LFENCE", "SFENCE", "MFENCE", "SETNB",
    ];
    let u = m.to_ascii_uppercase();
    let same_case = m == u || m == m.to_ascii_lowercase();
    ALL.iter().find(|a| **a == u && same_case).copied().or_else(|| (m == "NOP").then_some("NOP"))
}
