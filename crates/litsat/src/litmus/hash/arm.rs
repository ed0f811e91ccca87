//! ARMv7 instructions as herd's hash prints them (lib/ARMBase.ml's `dump_instruction`):
//! upper case, registers by their first name (`IP` is `R12`), immediates `#` in decimal,
//! a load or store from a bare register as `[Rn]`, `DMB SY` as `DMB`, `ANDEQ r,r,r` of
//! one register as `NOP`, `PUSH`/`POP` as `NOP`, and its spacing quirks (`AND`'s
//! conditional form, `LDRD`, `LDM`, `MOVW` without a space after the mnemonic).

use super::util::{int, operands};

/// A register's canonical name, or a symbolic `%r`.
fn reg(s: &str) -> Option<String> {
    if let Some(sym) = s.strip_prefix('%') {
        return Some(format!("%{sym}"));
    }
    let u = s.to_ascii_uppercase();
    match u.as_str() {
        "IP" => return Some("R12".into()),
        "SP" | "FP" | "LR" | "PC" => return Some(u),
        _ => {}
    }
    let n: u32 = u.strip_prefix('R')?.parse().ok()?;
    (n <= 12 && u[1..].bytes().all(|b| b.is_ascii_digit())).then(|| format!("R{n}"))
}

/// An immediate `#k` (or a bare number): `#` and its value in decimal.
fn imm(s: &str) -> Option<String> {
    Some(format!("#{}", int(s.trim().strip_prefix('#').unwrap_or(s))?))
}

fn regs(ops: &[&str]) -> Option<Vec<String>> {
    ops.iter().map(|o| reg(o)).collect()
}

/// A memory operand `[Rn]`, `[Rn,Rm]`, `[Rn,Rm,LSL #k]`, `[Rn,#k]`, or a bare register.
fn memory(m: &str) -> Option<String> {
    let Some(inner) = m.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
        return Some(format!("[{}]", reg(m)?));
    };
    Some(match operands(inner).as_slice() {
        [b] => format!("[{}]", reg(b)?),
        [b, k] if reg(k).is_none() => format!("[{},{}]", reg(b)?, imm(k)?),
        [b, r] => format!("[{},{}]", reg(b)?, reg(r)?),
        [b, r, s] => {
            let k = s.trim().strip_prefix("LSL").or_else(|| s.trim().strip_prefix("lsl"))?;
            format!("[{},{},lsl {}]", reg(b)?, reg(r)?, imm(k)?)
        }
        _ => return None,
    })
}

/// The mnemonic's family and its printed name (the condition kept where herd keeps it).
fn family(m: &str) -> Option<(&'static str, String)> {
    let f = match m {
        "ADD" | "ADDS" | "SUB" | "SUBS" | "AND" | "ANDS" | "ORR" => "arith",
        "EOR" | "EORS" | "SADD16" | "SEL" => "rrr",
        "ANDEQ" => "andeq",
        "B" | "BEQ" | "BNE" => "b",
        "CBZ" | "CBNZ" => "cb",
        "CMP" => "cmp",
        "BX" => "r",
        "LDR" | "LDRNE" | "LDREQ" | "STR" | "STRNE" | "STREQ" | "LDREX" | "LDAEX" | "LDA" | "STL" => "mem",
        "STREX" | "STLEX" => "strex",
        "LDRD" => "ldrd",
        "LDM" | "LDMIB" => "ldm",
        "MOV" | "MOVNE" | "MOVEQ" => "mov",
        "MOVW" | "MOVWEQ" => "movw",
        "MOVT" | "MOVTEQ" => "movt",
        "DMB" | "DSB" => "barrier",
        "ISB" | "NOP" => "",
        "PUSH" | "POP" => "nop",
        _ => return None,
    };
    Some((f, m.to_string()))
}

/// Prints one ARM instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let ins = ins.trim();
    let (m, rest) = ins.split_once(char::is_whitespace).unwrap_or((ins, ""));
    let m = m.to_ascii_uppercase();
    let (fam, name) = family(&m)?;
    let ops = operands(rest);
    Some(match (fam, ops.as_slice()) {
        ("", []) => name,
        ("nop", _) => "NOP".into(),
        ("arith", [a, b, c]) => {
            let last = reg(c).or_else(|| imm(c))?;
            format!("{name} {},{},{last}", reg(a)?, reg(b)?)
        }
        ("rrr", [_, _, _]) => format!("{name} {}", regs(&ops)?.join(",")),
        ("andeq", [a, b, c]) => {
            let r = regs(&[a, b, c])?;
            if r[0] == r[1] && r[1] == r[2] { "NOP".into() } else { format!("ANDEQ {}, {}, {}", r[0], r[1], r[2]) }
        }
        ("b", [l]) => format!("{name} {}", label(l)),
        ("cb", [r, l]) => format!("{name} {},{}", reg(r)?, label(l)),
        ("cmp", [a, b]) => format!("CMP {},{}", reg(a)?, reg(b).or_else(|| imm(b))?),
        ("r", [a]) => format!("{name} {}", reg(a)?),
        ("mem", [r, m]) => {
            // An offset load prints no condition.
            let mem = memory(m)?;
            let name = if mem.contains('#') { &name[..3] } else { name.as_str() };
            format!("{name} {},{mem}", reg(r)?)
        }
        ("strex", [t, n, m]) => format!("{name} {},{},{}", reg(t)?, reg(n)?, memory(m)?),
        ("ldrd", [a, b, m]) if reg(b).is_some() => ldrd(a, b, m)?,
        ("ldrd", [a, m]) => ldrd(a, &next_reg(a)?, m)?,
        ("ldm", [r, list]) => {
            let inner = list.trim().strip_prefix(['(', '{'])?.strip_suffix([')', '}'])?;
            format!("{name} {}, {{{}}}", reg(r)?, regs(&operands(inner))?.join(","))
        }
        ("mov", [a, b]) => format!("{name} {},{}", reg(a)?, reg(b).or_else(|| imm(b))?),
        ("movw", [a, k]) => format!("{name}{}, {}", reg(a)?, imm(k)?),
        ("movt", [a, k]) => format!("MOVT {}{}, {}", &name[4..], reg(a)?, imm(k)?),
        ("barrier", []) => name,
        ("barrier", [o]) => match o.to_ascii_uppercase().as_str() {
            "SY" => name,
            o => format!("{name} {o}"),
        },
        _ => return None,
    })
}

/// `LDRD Rd1, Rd2, [Rn{, #k}]`, herd's spacing.
fn ldrd(a: &str, b: &str, m: &str) -> Option<String> {
    let inner = m.strip_prefix('[')?.strip_suffix(']')?;
    let (a, b) = (reg(a)?, reg(b)?);
    Some(match operands(inner).as_slice() {
        [n] => format!("LDRD {a}, {b}, [{}]", reg(n)?),
        [n, k] => format!("LDRD {a}, {b}, [{}, {}]", reg(n)?, imm(k)?),
        _ => return None,
    })
}

/// The register after `r`, which `LDRD Rd, [Rn]` loads as its second.
fn next_reg(r: &str) -> Option<String> {
    let n: u32 = reg(r)?.strip_prefix('R')?.parse().ok()?;
    (n < 12).then(|| format!("R{}", n + 1))
}
