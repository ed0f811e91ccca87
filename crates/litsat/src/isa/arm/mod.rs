//! ARMv7 (A32), as in herd's `ARM` tests.
//!
//! herd's ARM semantics has one flag, Z: `CMP a,b` sets it to `a = b`, and the `S` forms
//! (`SUBS`, `ADDS`, …) to "the result is 0". It lives in two pseudo-registers holding the
//! compared values, so `BEQ`/`BNE` (and the conditional forms `<op>EQ`/`<op>NE`) compare
//! them. A conditional register operation is an [`Op::Select`] keeping the old value where
//! the condition fails, a conditional store a guarded store; conditional branches give
//! ctrl dependencies as every branch does.
//!
//! Events carry herd's sets: the barriers `DMB` (`DMB SY`), `DMB.ISH`, `DMB.ST`, `DSB`
//! (`DSB SY`), `DSB.ST` and `ISB`; other options (`DMB ISHST`, `DSB ISH`, `NSH`, `OSH`) are
//! fences in no set but `F`. The exclusives `LDREX`/`STREX` are `X` (herd's atomic
//! annotation) and `EX` (the exclusives, which the stdlib's `rmw` pairs, and which take and
//! use the reservation), `LDA`/`STL` are `A`/`L` and `X`.
//! Values are herd's 32-bit ones where an instruction makes them wide (`MOVT`).

use super::*;

mod table;

pub struct Arm;

/// The registers `CMP` leaves its operands in: Z is `FLAG_A = FLAG_B`.
const FLAG_A: &str = "%fa";
const FLAG_B: &str = "%fb";

/// herd's names: `R0`–`R12`, `SP`, `LR`, `PC`; `IP` is R12 and `FP` R11.
fn reg(s: &str) -> Option<Reg> {
    let u = s.trim().to_ascii_uppercase();
    match u.as_str() {
        "SP" | "R13" => return Some("SP".into()),
        "LR" | "R14" => return Some("LR".into()),
        "PC" | "R15" => return Some("PC".into()),
        "IP" => return Some("R12".into()),
        "FP" => return Some("R11".into()),
        _ => {}
    }
    let n = u.strip_prefix('R')?;
    if n.is_empty() || n.len() > 2 || !n.bytes().all(|b| b.is_ascii_digit()) || n.starts_with('0') && n.len() > 1 {
        return None;
    }
    let n: usize = n.parse().ok()?;
    (n <= 12).then(|| format!("R{n}"))
}

fn r(s: &str) -> Result<Reg, InstrError> {
    reg(s)
        .ok_or_else(|| InstrError::new(format!("expected an ARM register (R0-R12, SP, LR, PC), found '{}'", s.trim())))
}

/// An immediate `#n`; herd's old syntax also writes it bare (`MOV R2,0`).
fn imm(s: &str) -> Result<i64, InstrError> {
    let t = s.trim();
    t.strip_prefix('#')
        .unwrap_or(t)
        .trim()
        .parse::<i64>()
        .ok()
        .or_else(|| parse_imm(t.strip_prefix('#').unwrap_or(t)))
        .ok_or_else(|| InstrError::new(format!("expected an immediate `#n`, found '{t}'")))
}

/// A register or an immediate operand.
fn src(s: &str) -> Result<Src, InstrError> {
    match reg(s) {
        Some(r) => Ok(Src::Reg(r)),
        None => imm(s)
            .map(Src::Imm)
            .map_err(|_| InstrError::new(format!("expected a register or an immediate `#n`, found '{}'", s.trim()))),
    }
}

fn tmp(name: &str) -> Src {
    Src::Reg(name.into())
}

/// A shift of a register offset (`LSL #2`), applied through the temporary `%o`.
fn shifted(pre: &mut Vec<Op>, v: Src, modifier: Option<&str>) -> Result<Src, InstrError> {
    let Some(m) = modifier else { return Ok(v) };
    let m = m.trim();
    let (kind, amount) = match m.find(char::is_whitespace) {
        Some(k) => (m[..k].to_ascii_uppercase(), imm(&m[k..])?),
        None => return Err(InstrError::new(format!("expected a shift `LSL #n`, found '{m}'"))),
    };
    let op = match kind.as_str() {
        "LSL" => BinOp::Shl,
        "LSR" => BinOp::Shr,
        _ => return Err(InstrError::new(format!("unsupported operand shift '{m}'"))),
    };
    if !(0..=31).contains(&amount) {
        return Err(InstrError::new(format!("a shift must be 0 to 31, found '{m}'")));
    }
    if amount == 0 {
        return Ok(v);
    }
    pre.push(Op::Bin { dst: "%o".into(), op, a: v, b: Src::Imm(amount) });
    Ok(tmp("%o"))
}

/// A memory operand: `[Rn]`, `[Rn,#k]`, `[Rn,Rm]`, `[Rn,Rm,LSL #k]`, or herd's old bare
/// `Rn`. A register offset is added into the temporary `%a`, so both registers give
/// address dependencies.
fn mem(pre: &mut Vec<Op>, s: &str) -> Result<Addr, InstrError> {
    let s = s.trim();
    if let Some(b) = reg(s) {
        return Ok(Addr::Reg(b, 0));
    }
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        if s.starts_with('[') {
            return Err(InstrError::new(format!("unsupported: pre- or post-indexed addressing '{s}'")));
        }
        return Err(InstrError::new(format!("expected a memory operand `[Rn…]`, found '{s}'")));
    };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let base = r(parts[0])?;
    match parts.as_slice() {
        [_] => Ok(Addr::Reg(base, 0)),
        [_, o] if o.starts_with('#') => Ok(Addr::Reg(base, imm(o)?)),
        [_, o, rest @ ..] if rest.len() <= 1 => {
            let off = shifted(pre, Src::Reg(r(o)?), rest.first().copied())?;
            pre.push(Op::Bin { dst: "%a".into(), op: BinOp::Add, a: Src::Reg(base), b: off });
            Ok(Addr::Reg("%a".into(), 0))
        }
        _ => Err(InstrError::new(format!("unsupported memory operand '{s}'"))),
    }
}

/// The width of herd's ARM accesses, words.
const WORD: usize = 4;

/// Loads of `regs` from consecutive words, the first `first` bytes past `addr`. The base
/// is copied first (into `%m`), so that a loaded register that is also the base does not
/// move the later words.
fn words(pre: &mut Vec<Op>, addr: Addr, first: i64, regs: &[Reg]) -> Result<(), InstrError> {
    let (base, off) = match addr {
        Addr::Reg(b, off) => (b, off),
        Addr::Sym(_) => unreachable!("ARM memory operands are registers"),
    };
    pre.push(Op::Mov { dst: "%m".into(), src: Src::Reg(base) });
    for (i, rt) in regs.iter().enumerate() {
        let at = off
            .checked_add(first)
            .and_then(|o| o.checked_add((WORD * i) as i64))
            .ok_or_else(|| InstrError::new(format!("offset {off} is out of range")))?;
        pre.push(Op::Load { dst: rt.clone(), addr: Addr::Reg("%m".into(), at), tags: Vec::new() });
    }
    Ok(())
}

/// A register list `{R1, R2}` or `{R1-R3}`: the registers, lowest first (the order in
/// which `LDM` fills them from ascending addresses).
fn reg_list(s: &str) -> Result<Vec<Reg>, InstrError> {
    let inner = s.trim().strip_prefix('{').and_then(|s| s.strip_suffix('}'));
    let inner = inner.ok_or_else(|| InstrError::new(format!("expected a register list `{{R1, R2}}`, found '{s}'")))?;
    let index = |r: &str| Arm.reg_index(r);
    let mut regs: Vec<Reg> = Vec::new();
    for item in inner.split(',') {
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (index(&r(a)?), index(&r(b)?));
                if a > b || b > 12 {
                    return Err(InstrError::new(format!("unsupported register range '{}'", item.trim())));
                }
                regs.extend((a..=b).map(|k| format!("R{k}")));
            }
            None => regs.push(r(item)?),
        }
    }
    regs.sort_by_key(|r| index(r));
    regs.dedup();
    if regs.is_empty() {
        // Unreachable through `split`, which yields an item; kept for direct callers.
        return Err(InstrError::new("expected at least one register in the list"));
    }
    Ok(regs)
}

/// herd's ARM conditions: Z set (`EQ`), clear (`NE`), always (`AL`).
fn flag_cond(cc: &str) -> Result<Option<Cond>, InstrError> {
    let c = |op| Ok(Some(Cond { op, a: tmp(FLAG_A), b: tmp(FLAG_B) }));
    match cc {
        "EQ" => c(BinOp::Eq),
        "NE" => c(BinOp::Ne),
        "" | "AL" => Ok(None),
        k => Err(InstrError::new(format!("unsupported condition code '{k}' (herd's ARM has EQ and NE)"))),
    }
}

/// Mnemonics, longest first so that `LDREX` is not `LDR` + `EX`.
const BASES: &[&str] = &[
    "LDMIA", "LDMIB", "LDREX", "STREX", "LDRD", "MOVW", "MOVT", "LDM", "LDR", "STR", "LDA", "STL", "MOV", "MVN", "ADD",
    "SUB", "RSB", "EOR", "AND", "ORR", "BIC", "CMP", "CBZ", "CBNZ", "NOP", "DMB", "DSB", "ISB", "BX", "B",
];

/// `<base>{S}{cond}`: the base mnemonic, whether it sets the flags, and its condition.
fn mnemonic(m: &str) -> Option<(&'static str, bool, &str)> {
    for b in BASES {
        let Some(rest) = m.strip_prefix(b) else { continue };
        let (s, cc) = match rest.strip_prefix('S') {
            Some(cc) if matches!(cc, "" | "EQ" | "NE" | "AL") && !matches!(*b, "CMP" | "B" | "BX") => (true, cc),
            _ => (false, rest),
        };
        // Pre-UAL order: `ADDEQS`.
        let (s, cc) = match cc.strip_suffix('S') {
            Some(c) if !s && c.len() == 2 => (true, c),
            _ => (s, cc),
        };
        if cc.is_empty() || cc.len() == 2 && cc.bytes().all(|c| c.is_ascii_uppercase()) {
            return Some((b, s, cc));
        }
    }
    None
}

impl Isa for Arm {
    fn name(&self) -> &'static str {
        "ARM"
    }
    fn scalar_bits(&self, _variants: &[String]) -> u32 {
        32
    }

    fn default_model(&self) -> Option<&'static str> {
        Some("armv7")
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn reg_index(&self, r: &str) -> usize {
        match r {
            "SP" => 13,
            "LR" => 14,
            "PC" => 15,
            _ => r.strip_prefix('R').and_then(|n| n.parse().ok()).unwrap_or(usize::MAX),
        }
    }

    fn symbolic_regs(&self) -> &'static [&'static str] {
        &["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12"]
    }

    /// herd's ARM sets; `AL` and `NoRet` (herd's annotations of instructions this plug-in
    /// does not take) are always empty here, so that a model naming them still loads.
    fn known_sets(&self) -> &'static [&'static str] {
        &["DMB", "DMB.ISH", "DMB.ST", "DSB", "DSB.ST", "ISB", "X", "EX", "A", "L", "AL", "NoRet"]
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        table::parse(text)
    }
}
