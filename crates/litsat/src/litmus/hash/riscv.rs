//! RISC-V instructions as herd's hash prints them (lib/RISCVBase.ml's `dump_instruction`):
//! lower case, registers `xN` whatever their ABI name, `.aq.rl` as `.aqrl`, offsets in
//! decimal (`lr`/`sc` always `0(x6)`, AMOs `(x6)`), `addi r,s,0` as `mv r,s`, a bare
//! `fence` as `fence rw,rw`.

const ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
    "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];

/// A register's canonical name `xN`, if `s` is one.
fn reg(s: &str) -> Option<String> {
    let s = s.trim();
    if let Some(n) = s.strip_prefix('x').and_then(|n| n.parse::<u32>().ok()).filter(|n| *n < 32) {
        return Some(format!("x{n}"));
    }
    if s == "fp" {
        return Some("x8".into());
    }
    ABI.iter().position(|a| *a == s).map(|n| format!("x{n}"))
}

fn int(s: &str) -> Option<i64> {
    let t = s.trim();
    let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
    let v = match t.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => t.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// `off(reg)`: the offset and register.
fn address(s: &str) -> Option<(i64, String)> {
    let (off, r) = s.trim().strip_suffix(')')?.split_once('(')?;
    let off = if off.trim().is_empty() { 0 } else { int(off)? };
    Some((off, reg(r)?))
}

/// Prints one RISC-V instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let ins = ins.trim();
    let (m, rest) = ins.split_once(char::is_whitespace).unwrap_or((ins, ""));
    let m = m.to_ascii_lowercase().replace(".aq.rl", ".aqrl");
    let ops: Vec<&str> = if rest.trim().is_empty() { Vec::new() } else { rest.split(',').map(str::trim).collect() };
    let regs = |ops: &[&str]| -> Option<Vec<String>> { ops.iter().map(|o| reg(o)).collect() };
    let base = m.split('.').next().unwrap_or("");
    let body = match (base, ops.as_slice()) {
        ("fence", []) if m == "fence" => return Some("fence rw,rw".into()),
        ("fence", [a, b]) => format!("{},{}", a.to_ascii_lowercase(), b.to_ascii_lowercase()),
        ("fence" | "nop" | "ret", []) => return Some(m),
        ("j", [l]) => label(l),
        ("beq" | "bne" | "blt" | "bge" | "bltu" | "bgeu", [a, b, l]) => {
            format!("{},{},{}", reg(a)?, reg(b)?, label(l))
        }
        ("lb" | "lh" | "lw" | "ld" | "lbu" | "lhu" | "lwu" | "sb" | "sh" | "sw" | "sd", [r, a]) => {
            let (off, b) = address(a)?;
            format!("{},{off}({b})", reg(r)?)
        }
        ("lr", [r, a]) => format!("{},0({})", reg(r)?, address(a)?.1),
        ("sc", [r, s, a]) => format!("{},{},0({})", reg(r)?, reg(s)?, address(a)?.1),
        (b, [r, s, a]) if b.starts_with("amo") => format!("{},{},({})", reg(r)?, reg(s)?, address(a)?.1),
        ("li", [r, k]) => format!("{},{}", reg(r)?, int(k)?),
        ("addi", [r, s, k]) if int(k)? == 0 => return Some(format!("mv {},{}", reg(r)?, reg(s)?)),
        (_, [r, k]) if reg(k).is_none() => format!("{},{}", reg(r)?, int(k)?),
        (_, [r, s, k]) if reg(k).is_none() => format!("{},{},{}", reg(r)?, reg(s)?, int(k)?),
        (_, [_, _, _] | [_, _]) => regs(&ops)?.join(","),
        _ => return None,
    };
    Some(format!("{m} {body}"))
}
