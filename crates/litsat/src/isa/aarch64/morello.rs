//! herd's `-variant morello` (capabilities), as far as litsat builds it.
//!
//! Under the variant herd's registers and memory hold 128-bit capabilities (an address
//! with bounds, permissions, an object type and a tag), and every access goes through
//! herd's check of the capability its address register holds (`lift_morello`): its tag,
//! then whether it is sealed, then its permissions. A check that fails makes no access:
//! the address register is read into a predicated commit, which controls a fault at the
//! address (in `FAULT`, `FAULT-RD` or `FAULT-WR`, `EXC-ENTRY`; no fault type, herd's
//! message `CapTag`), and the thread ends (herd's default `fatal` handling).
//!
//! An initial value such as `0:X1=x` is a capability whose tag is clear (herd's symbols
//! carry the capability bits zero unless written `x:1` or `0x…:x:1`), and nothing litsat
//! builds sets a tag: a load of a W or X register clears it, and herd's Morello
//! instructions, C registers as data and tagged initial values are refused. So every
//! access litsat builds under the variant fails the tag check, as herd's A235 does
//! (`STR WZR,[C1]`). The plain loads and stores (`LDR`, `STR` and their byte, halfword
//! and signed forms, `LDUR`) are built so, through `[Cn]` or `[Xn]`, with an immediate
//! offset or none; `B` and `NOP` are as without the variant. Every other instruction is
//! refused: herd computes on 128-bit unsigned capability values under the variant
//! (`CapabilityScalar`: no negative numbers, unsigned comparisons), which litsat does
//! not build.

use super::operand::{ZR, imm, is_imm, r};
use super::table;
use crate::isa::{Addr, InstrError, Op, Tag, split_grouped};

type Res = Result<Vec<Op>, InstrError>;

/// The plain loads and stores, built as faults of the tag check.
const LOADS: &[&str] = &["LDR", "LDRB", "LDRH", "LDRSB", "LDRSH", "LDRSW", "LDUR"];
const STORES: &[&str] = &["STR", "STRB", "STRH"];

/// What runs under the variant as without it.
const PLAIN: &[&str] = &["B", "NOP"];

/// The ops of one instruction under `-variant morello`.
pub fn parse(text: &str) -> Res {
    let (m, a) = split_grouped(text);
    let load = LOADS.contains(&m.as_str());
    if !load && !STORES.contains(&m.as_str()) {
        if PLAIN.contains(&m.as_str()) {
            return table::parse(text);
        }
        return Err(refused(text));
    }
    let [rt, mem] = a.as_slice() else {
        return Err(at(text, a.last().map_or("", String::as_str), format!("unsupported under variant morello: the addressing of '{}' (herd's capability checks are built for `[Cn]` and `[Cn,#k]` only)", text.trim())));
    };
    if capability(rt).is_some() {
        return Err(at(text, rt, format!("unsupported: capability register '{rt}' as data (herd's variant morello)")));
    }
    let (base, off) = address(text, mem)?;
    // The instruction as herd would read it with an X base: its widths and operands checked.
    let plain = text.replacen(mem.as_str(), &format!("[{base},#{off}]"), 1);
    table::parse(&plain).map_err(|mut e| {
        e.offset = 0;
        e
    })?;
    let dir = if load { "FAULT-RD" } else { "FAULT-WR" };
    let tags: Vec<Tag> = vec!["FAULT".into(), dir.into(), "EXC-ENTRY".into()];
    Ok(vec![Op::Fault { ftype: "CapTag".into(), tags, labels: Vec::new(), at: Some(Addr::Reg(base, off)) }, Op::Exit])
}

/// `[Cn]`, `[Cn,#k]` (or `Xn`): the base register's X name and the offset.
fn address(text: &str, mem: &str) -> Result<(String, i64), InstrError> {
    let unsupported = || {
        at(text, mem, format!("unsupported under variant morello: the memory operand '{mem}' (herd's capability checks are built for `[Cn]` and `[Cn,#k]` only)"))
    };
    let Some(inner) = mem.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else { return Err(unsupported()) };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let base = match capability(parts[0]) {
        Some(n) => format!("X{n}"),
        None => {
            let b = r(parts[0]).map_err(|e| at(text, parts[0], e.message))?;
            if b.w || !b.x.starts_with('X') || b.x == ZR {
                return Err(unsupported());
            }
            b.x
        }
    };
    match parts.as_slice() {
        [_] => Ok((base, 0)),
        [_, k] if is_imm(k) => Ok((base, imm(k).map_err(|e| at(text, k, e.message))?)),
        _ => Err(unsupported()),
    }
}

/// `Cn` (n from 0 to 30, any case): its number.
fn capability(s: &str) -> Option<u8> {
    let t = s.trim();
    let n: u8 = t.strip_prefix(['C', 'c'])?.parse().ok()?;
    (n <= 30 && t[1..].bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

fn refused(text: &str) -> InstrError {
    InstrError::new(format!(
        "unsupported under variant morello: '{}' (herd's capability semantics are built for plain loads and stores through untagged capabilities, B and NOP only)",
        text.trim()
    ))
}

/// An error pointing at `what` in the instruction's text.
fn at(text: &str, what: &str, message: String) -> InstrError {
    InstrError { offset: if what.is_empty() { 0 } else { text.find(what).unwrap_or(0) }, message }
}
