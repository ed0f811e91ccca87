//! Power instructions as herd's hash prints them (lib/PPCBase.ml's `dump_instruction`):
//! lower-case mnemonics, registers `rN`, numbers in decimal, `d(rA)` for every spelling
//! of a displacement, `subi` as `addi` of the negated immediate, `cr0` left out of
//! compares, doubleword accesses as word ones (herd's `norm_ins`), and its spacing quirks
//! (`b   L`, `beq  L`, `extsw r1, r2`).

use super::util::{int, operands};

/// A general register's canonical name (`r0`…`r31`, any case), or a symbolic `%r`.
fn reg(s: &str) -> Option<String> {
    if let Some(sym) = s.strip_prefix('%') {
        return Some(format!("%{sym}"));
    }
    let l = s.to_ascii_lowercase();
    if l == "lr" {
        return Some("LR".into());
    }
    let n: u32 = l.strip_prefix('r')?.parse().ok()?;
    (n < 32 && !l[1..].starts_with('+')).then(|| format!("r{n}"))
}

/// A condition-register field `crN`.
fn crf(s: &str) -> Option<u32> {
    let d = s.strip_prefix("cr")?;
    (d.len() == 1).then(|| d.parse().ok()).flatten()
}

/// `d(rA)` or the older `d,rA` (two operands): the displacement and register.
fn displacement(ops: &[&str]) -> Option<(i64, String)> {
    match ops {
        [m] => {
            let (d, r) = m.strip_suffix(')')?.split_once('(')?;
            Some((int(d)?, reg(r.trim())?))
        }
        [d, r] => Some((int(d)?, reg(r)?)),
        _ => None,
    }
}

/// The family of a mnemonic: how its operands print.
fn family(m: &str) -> Option<(&'static str, &str)> {
    Some(match m {
        "add" | "add." | "sub" | "sub." | "subf" | "subf." | "xor" | "xor." | "and" | "and." | "or" | "or."
        | "mullw" | "mullw." | "divw" | "divw." | "nor" | "nor." | "slw" | "sraw" | "lbzx" | "lhzx" | "lwzx"
        | "stbx" | "sthx" | "stwx" | "lwax" | "lwarx" | "stwcx." => ("rrr", m),
        "ldx" => ("rrr", "lwzx"),
        "stdx" => ("rrr", "stwx"),
        "addi" | "addis" | "ori" | "xori" | "andi." | "mulli" | "srawi" | "clrldi" => ("rrk", m),
        "subi" => ("rrk-", "addi"),
        "rlwinm" | "rlwimi" => ("rrkkk", m),
        "li" | "lis" => ("rk", m),
        "mr" | "dcbf" | "neg" | "neg." => ("rr", m),
        "extsw" => ("rr ", m),
        "cmpwi" | "cmplwi" | "cmpw" => ("cmp", m),
        "lbz" | "lhz" | "lwz" | "lwa" | "lwzu" | "stb" | "sth" | "stw" | "stwu" | "lmw" | "stmw" => ("mem", m),
        "ld" => ("mem", "lwz"),
        "std" => ("mem", "stw"),
        "b" | "bl" => ("b3", m),
        "beq" | "bne" | "blt" | "bge" | "bgt" | "ble" => ("b2", m),
        "bnl" => ("b2", "bge"),
        "bng" => ("b2", "ble"),
        "mtlr" | "mflr" | "mfcr" => ("r", m),
        "sync" | "lwsync" | "isync" | "eieio" | "nop" | "blr" => ("", m),
        "hwsync" => ("", "sync"),
        _ => return None,
    })
}

/// Prints one Power instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let ins = ins.trim();
    let (m, rest) = ins.split_once(char::is_whitespace).unwrap_or((ins, ""));
    let (fam, name) = family(m)?;
    let ops = operands(rest);
    let regs = |ops: &[&str]| -> Option<Vec<String>> { ops.iter().map(|o| reg(o)).collect() };
    Some(match (fam, ops.as_slice()) {
        ("", []) => name.to_string(),
        ("r", [a]) => format!("{name} {}", reg(a)?),
        ("rr", [_, _]) => format!("{name} {}", regs(&ops)?.join(",")),
        ("rr ", [_, _]) => format!("{name} {}", regs(&ops)?.join(", ")),
        ("rrr", [_, _, _]) => format!("{name} {}", regs(&ops)?.join(",")),
        ("rk", [a, k]) => format!("{name} {},{}", reg(a)?, int(k)?),
        ("rrk", [a, b, k]) => format!("{name} {},{},{}", reg(a)?, reg(b)?, int(k)?),
        ("rrk-", [a, b, k]) => format!("{name} {},{},{}", reg(a)?, reg(b)?, -int(k)?),
        ("rrkkk", [a, b, k1, k2, k3]) => {
            format!("{name} {},{},{}, {},{}", reg(a)?, reg(b)?, int(k1)?, int(k2)?, int(k3)?)
        }
        ("cmp", [c, a, b]) if crf(c).is_some() => {
            let last = if name == "cmpw" { reg(b)? } else { int(b)?.to_string() };
            match crf(c)? {
                0 => format!("{name} {},{last}", reg(a)?),
                n => format!("{name} cr{n},{},{last}", reg(a)?),
            }
        }
        ("cmp", [a, b]) => {
            let last = if name == "cmpw" { reg(b)? } else { int(b)?.to_string() };
            format!("{name} {},{last}", reg(a)?)
        }
        ("mem", [r, m @ ..]) => {
            let (d, base) = displacement(m)?;
            format!("{name} {},{d}({base})", reg(r)?)
        }
        ("b3", [l]) => format!("{name}   {}", label(l)),
        ("b2", [l]) => format!("{name}  {}", label(l)),
        _ => return None,
    })
}
