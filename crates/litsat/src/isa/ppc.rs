//! Power (PPC) at user level, as in herd's `PPC` tests.
//!
//! Registers are `r0`–`r31` (herd prints them so). Compares write a condition-register
//! field as three pseudo-registers (`%lt0`, `%gt0`, `%eq0` for `cr0`), each 1 or 0, and
//! conditional branches test one bit of `cr0`, as herd's semantics do; `stwcx.` sets `cr0`
//! to "equal" on success and to no bit on failure. Reservations are herd's `EX` set
//! (`lwarx` reads, successful `stwcx.` writes); barriers are `SYNC` (`sync`, `hwsync`),
//! `LWSYNC`, `EIEIO` and `ISYNC` events.
//!
//! Values are herd's 64-bit ones: a word load (`lwz`, `lwzx`, `lwarx`) zero-extends the low
//! 32 bits of the location's value, `lwa`/`lwax` sign-extend them, `ld` reads them whole.
//! In the indexed forms (`lwzx rD,rA,rB`, `stwx`, `lwarx`, `stwcx.`) and in `addi`/`addis`,
//! `r0` as the base register `rA` is the constant 0, read from no register.

use super::*;

pub struct Ppc;

/// The widths in bytes of word and doubleword accesses.
const WORD: usize = 4;
const DOUBLE: usize = 8;

/// The base register that indexed forms and `addi` read as 0.
const R0: &str = "r0";

/// The link register, herd's only named register besides `r0`–`r31` (`lr`, any case).
const LR: &str = "LR";

/// herd's PPC registers, `r0`–`r31` and `lr`, in any case (symbolic registers `%name` are
/// given real ones before the plug-in reads the code: [`crate::litmus::symbolic`]).
fn reg(s: &str) -> Option<Reg> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("lr") {
        return Some(LR.to_string());
    }
    let n = s.strip_prefix('r').or_else(|| s.strip_prefix('R'))?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || (n.len() > 1 && n.starts_with('0')) {
        return None;
    }
    let k: usize = n.parse().ok()?;
    // Already herd's spelling (`r3`): no formatting.
    (k < 32).then(|| if s.starts_with('r') { s.to_string() } else { format!("r{k}") })
}

fn r(s: &str) -> Result<Reg, InstrError> {
    reg(s).ok_or_else(|| InstrError::new(format!("expected a register `r0`–`r31` or `lr`, found '{}'", s.trim())))
}

fn rs(s: &str) -> Result<Src, InstrError> {
    r(s).map(Src::Reg)
}

fn imm(s: &str) -> Result<i64, InstrError> {
    parse_imm(s).ok_or_else(|| InstrError::new(format!("expected an immediate, found '{}'", s.trim())))
}

fn tmp(name: &str) -> Src {
    Src::Reg(name.into())
}

/// A condition-register field, `cr0`–`cr7` (or its number).
fn cr_field(s: &str) -> Result<u8, InstrError> {
    let t = s.trim();
    let n = t.strip_prefix("cr").unwrap_or(t);
    match n.parse::<u8>() {
        Ok(k) if k < 8 => Ok(k),
        _ => Err(InstrError::new(format!("expected a condition-register field `cr0`–`cr7`, found '{t}'"))),
    }
}

/// The pseudo-registers holding the LT, GT and EQ bits of field `k`.
fn lt(k: u8) -> Reg {
    format!("%lt{k}")
}
fn gt(k: u8) -> Reg {
    format!("%gt{k}")
}
fn eq(k: u8) -> Reg {
    format!("%eq{k}")
}

/// Field `k` set by comparing `a` with `b` (signed, as herd's `Lt` and `Gt`).
fn set_flags(ops: &mut Vec<Op>, k: u8, a: Src, b: Src) {
    ops.push(Op::Bin { dst: lt(k), op: BinOp::Lt, a: a.clone(), b: b.clone() });
    ops.push(Op::Bin { dst: gt(k), op: BinOp::Gt, a: a.clone(), b: b.clone() });
    ops.push(Op::Bin { dst: eq(k), op: BinOp::Eq, a, b });
}

/// `d(rA)`: a displacement and a base register.
fn mem(s: &str) -> Result<Addr, InstrError> {
    let s = s.trim();
    let open = s.find('(').ok_or_else(|| InstrError::new(format!("expected `offset(register)`, found '{s}'")))?;
    let close = s.rfind(')').filter(|&c| c > open);
    let close = close.ok_or_else(|| InstrError::new(format!("expected `)` in '{s}'")))?;
    if !s[close + 1..].trim().is_empty() {
        return Err(InstrError::new(format!("unexpected text after `)` in '{s}'")));
    }
    let off = s[..open].trim();
    let off = if off.is_empty() { 0 } else { imm(off)? };
    Ok(Addr::Reg(r(&s[open + 1..close])?, off))
}

/// The address of a displacement form from its operands after the first: `d(rA)`, or
/// herd's older spelling `d,rA` (`stw r6,0,r4`), the same access.
fn d_form(ops: &[&str]) -> Result<Addr, InstrError> {
    match ops {
        [m] => mem(m),
        [d, a] => Ok(Addr::Reg(r(a)?, imm(d)?)),
        _ => Err(InstrError::new("expected `offset(register)` or `offset,register`")),
    }
}

/// The base register's update in `lwzu` and `stwu`: it gets the address accessed, unless
/// it is `r0` or `keep` (a load's destination), as herd's semantics say.
fn update(v: &mut Vec<Op>, addr: &Addr, keep: Option<&str>) {
    if let Addr::Reg(base, off) = addr
        && base != R0
        && Some(base.as_str()) != keep
    {
        v.push(Op::Bin { dst: base.clone(), op: BinOp::Add, a: Src::Reg(base.clone()), b: Src::Imm(*off) });
    }
}

/// The address `rA + rB` of an indexed form, `rA` = `r0` standing for 0. The sum goes
/// through a temporary so that both registers' dependencies reach the access.
fn indexed(pre: &mut Vec<Op>, a: &str, b: &str) -> Result<Addr, InstrError> {
    let (a, b) = (r(a)?, r(b)?);
    if a == R0 {
        return Ok(Addr::Reg(b, 0));
    }
    pre.push(Op::Bin { dst: "%a".into(), op: BinOp::Add, a: Src::Reg(a), b: Src::Reg(b) });
    Ok(Addr::Reg("%a".into(), 0))
}

/// The 64-bit mask with IBM bits `k1`..=`k2` set (bit 0 the most significant), wrapping
/// round when `k1 > k2`, as herd builds it.
fn ibm_mask(k1: i64, k2: i64) -> i64 {
    let bit = |k: i64| 1u64 << (63 - k);
    let mut m = 0u64;
    if k1 <= k2 {
        for k in k1..=k2 {
            m |= bit(k);
        }
    } else {
        m = u64::MAX;
        for k in k2 + 1..k1 {
            m &= !bit(k);
        }
    }
    m as i64
}

/// herd's 32-bit rotation of `a` left by `n` into `%rot`: the low word doubled into both
/// halves, then rotated as a 64-bit value, which herd does as `(x << n) | (x >> (63-n))`
/// (logical shift).
fn rot32(ops: &mut Vec<Op>, a: Src, n: i64) {
    let n = n.rem_euclid(64);
    ops.push(Op::Bin { dst: "%w".into(), op: BinOp::Zext, a, b: Src::Imm(32) });
    ops.push(Op::Bin { dst: "%h".into(), op: BinOp::Shl, a: tmp("%w"), b: Src::Imm(32) });
    ops.push(Op::Bin { dst: "%x".into(), op: BinOp::Or, a: tmp("%w"), b: tmp("%h") });
    ops.push(Op::Bin { dst: "%l".into(), op: BinOp::Shl, a: tmp("%x"), b: Src::Imm(n) });
    ops.push(Op::Bin { dst: "%r".into(), op: BinOp::Shr, a: tmp("%x"), b: Src::Imm(63 - n) });
    ops.push(Op::Bin { dst: "%rot".into(), op: BinOp::Or, a: tmp("%l"), b: tmp("%r") });
}

/// A rotate's bit-field operand (`mb`, `me`: 0–31; `sh`: 0–31).
fn field(s: &str) -> Result<i64, InstrError> {
    let v = imm(s)?;
    if (0..32).contains(&v) {
        Ok(v)
    } else {
        Err(InstrError::new(format!("expected a bit number 0–31, found '{}'", s.trim())))
    }
}

/// herd's `mfcr rD`: field `cr0` as herd holds it, LT 8, GT 4 and EQ 2.
fn mfcr(dst: Reg) -> Vec<Op> {
    let bit = |t: &str, b: Reg, k| Op::Bin { dst: t.into(), op: BinOp::Shl, a: Src::Reg(b), b: Src::Imm(k) };
    vec![
        bit("%l", lt(0), 3),
        bit("%g", gt(0), 2),
        bit("%e", eq(0), 1),
        Op::Bin { dst: "%c".into(), op: BinOp::Or, a: tmp("%l"), b: tmp("%g") },
        Op::Bin { dst, op: BinOp::Or, a: tmp("%c"), b: tmp("%e") },
    ]
}

/// herd's `com "text"`, a comment that herd runs as a no-op.
fn comment(text: &str) -> Result<Vec<Op>, InstrError> {
    let rest = text.trim().get(3..).unwrap_or_default().trim();
    let body = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"'));
    match body {
        Some(b) if !b.contains('"') => Ok(vec![]),
        _ => Err(InstrError::new(format!("expected a quoted string after `com`, found '{rest}'"))),
    }
}

/// Instructions herd's parser reads but its Power semantics stops at, "not implemented".
const NOT_IN_HERD: &[&str] = &["nor", "neg", "slw", "srawi", "sraw", "bl", "mtlr", "mflr", "stmw", "lmw"];

/// Byte and halfword accesses: herd takes them only on locations of their own size, and
/// litsat does not model mixed sizes.
const NARROW: &[&str] = &["lbz", "lbzx", "lhz", "lhzx", "stb", "stbx", "sth", "sthx"];

/// The refusal of an instruction herd reads but litsat gives no meaning, saying why; `None`
/// for one herd does not read either.
fn refusal(base: &str, text: &str) -> Option<InstrError> {
    let why = if NOT_IN_HERD.contains(&base) {
        "herd's Power semantics does not implement it"
    } else if NARROW.contains(&base) {
        "a byte or halfword access (mixed-size)"
    } else {
        return None;
    };
    Some(InstrError::new(format!("unsupported instruction '{}': {why}", text.trim())))
}

fn branch(cond: Option<Cond>, target: &str) -> Vec<Op> {
    vec![Op::Branch { cond, target: target.trim().to_string() }]
}

/// A bit of `cr0` set (`set`) or clear.
fn bit_cond(bit: Reg, set: bool) -> Cond {
    Cond { op: if set { BinOp::Ne } else { BinOp::Eq }, a: Src::Reg(bit), b: Src::Imm(0) }
}

impl Isa for Ppc {
    fn default_model(&self) -> Option<&'static str> {
        Some("power")
    }

    fn name(&self) -> &'static str {
        "PPC"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    /// herd's order: the general-purpose registers by number, then the link register.
    fn reg_index(&self, r: &str) -> usize {
        if r == LR {
            return 32;
        }
        r.strip_prefix('r').and_then(|n| n.parse().ok()).unwrap_or(usize::MAX)
    }

    /// The registers herd may give a symbolic register: the general-purpose ones a
    /// compiled function may use freely (r0 reads as 0 in some forms, r1 is the stack
    /// pointer and r2 the table of contents).
    fn symbolic_regs(&self) -> &'static [&'static str] {
        &[
            "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r14", "r15", "r16", "r17", "r18", "r19",
            "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
        ]
    }

    fn known_sets(&self) -> &'static [&'static str] {
        &["SYNC", "LWSYNC", "EIEIO", "ISYNC", "EX"]
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        let (m, ops) = split_operands(text);
        let o: Vec<&str> = ops.iter().map(String::as_str).collect();
        let bad = || InstrError::unsupported(text);
        // `op.` also sets cr0 from the result compared with 0.
        let (base, dot) = match m.strip_suffix('.') {
            Some(b) if m != "stwcx." && m != "stdcx." => (b, true),
            _ => (m.as_str(), false),
        };
        if let Some(e) = refusal(base, text) {
            return Err(e);
        }
        // Only these record forms set cr0 here; any other `op.` (`mr.`, `addi.`, `lwz.`)
        // is refused rather than read as `op` without its cr0 update.
        const RECORDED: &[&str] =
            &["add", "sub", "subf", "or", "and", "xor", "mullw", "mulld", "divw", "extsw", "andi"];
        if dot && !RECORDED.contains(&base) {
            return Err(bad());
        }
        let record = |mut v: Vec<Op>, d: &str| -> Result<Vec<Op>, InstrError> {
            if dot {
                set_flags(&mut v, 0, rs(d)?, Src::Imm(0));
            }
            Ok(v)
        };
        let bin3 = |op: BinOp, swap: bool| -> Result<Vec<Op>, InstrError> {
            let [d, a, b] = o.as_slice() else { return Err(bad()) };
            let (a, b) = if swap { (rs(b)?, rs(a)?) } else { (rs(a)?, rs(b)?) };
            record(vec![Op::Bin { dst: r(d)?, op, a, b }], d)
        };
        let bin_imm = |op: BinOp| -> Result<Vec<Op>, InstrError> {
            let [d, a, i] = o.as_slice() else { return Err(bad()) };
            Ok(vec![Op::Bin { dst: r(d)?, op, a: rs(a)?, b: Src::Imm(imm(i)?) }])
        };
        // A load, its value extended as `ext` says (`None`: the whole doubleword).
        // A word or doubleword wide, which an array's elements must be.
        let load = |pre: Vec<Op>, d: &str, addr: Addr, ext: Option<BinOp>, tags: &[&str]| {
            let dst = r(d)?;
            let mut v = vec![Op::Width(if ext.is_some() { WORD } else { DOUBLE })];
            v.extend(pre);
            v.push(Op::Load { dst: dst.clone(), addr, tags: tags.iter().map(|t| Tag::from(t.to_string())).collect() });
            if let Some(op) = ext {
                v.push(Op::Bin { dst: dst.clone(), op, a: Src::Reg(dst), b: Src::Imm(32) });
            }
            Ok(v)
        };
        let width = if base.starts_with("std") { DOUBLE } else { WORD };
        let store = |pre: Vec<Op>, s: &str, addr: Addr| -> Result<Vec<Op>, InstrError> {
            let mut v = vec![Op::Width(width)];
            v.extend(pre);
            v.push(Op::Store { addr, src: rs(s)?, tags: Vec::new(), when: None });
            Ok(v)
        };
        // A compare: `cmpw [crK,] rA, rB`; `b` reads the last operand.
        let compare = |b: &dyn Fn(&str) -> Result<Src, InstrError>| -> Result<Vec<Op>, InstrError> {
            let (k, a, last) = match o.as_slice() {
                [a, x] => (0, a, x),
                [c, a, x] => (cr_field(c)?, a, x),
                _ => return Err(bad()),
            };
            let mut pre = Vec::new();
            let bv = b(last)?;
            let av = match m.as_str() {
                "cmplwi" => {
                    pre.push(Op::Bin { dst: "%c".into(), op: BinOp::Zext, a: rs(a)?, b: Src::Imm(32) });
                    tmp("%c")
                }
                _ => rs(a)?,
            };
            set_flags(&mut pre, k, av, bv);
            Ok(pre)
        };
        let zext = Some(BinOp::Zext);
        let sext = Some(BinOp::Sext);
        match (base, o.as_slice()) {
            ("nop", []) => Ok(vec![]),
            // Memory: displacement forms.
            ("lwz", [d, rest @ ..]) => load(Vec::new(), d, d_form(rest)?, zext, &[]),
            ("lwa", [d, a]) => load(Vec::new(), d, mem(a)?, sext, &[]),
            ("ld", [d, rest @ ..]) => load(Vec::new(), d, d_form(rest)?, None, &[]),
            ("stw" | "std", [s, rest @ ..]) => store(Vec::new(), s, d_form(rest)?),
            // With update: the base register gets the address.
            ("lwzu", [d, rest @ ..]) => {
                let addr = d_form(rest)?;
                let mut v = load(Vec::new(), d, addr.clone(), zext, &[])?;
                update(&mut v, &addr, Some(&r(d)?));
                Ok(v)
            }
            ("stwu", [s, rest @ ..]) => {
                let addr = d_form(rest)?;
                let mut v = store(Vec::new(), s, addr.clone())?;
                update(&mut v, &addr, None);
                Ok(v)
            }
            // Indexed forms.
            ("lwzx" | "lwax" | "ldx", [d, a, b]) => {
                let mut pre = Vec::new();
                let addr = indexed(&mut pre, a, b)?;
                let ext = match base {
                    "lwzx" => zext,
                    "lwax" => sext,
                    _ => None,
                };
                load(pre, d, addr, ext, &[])
            }
            ("stwx" | "stdx", [s, a, b]) => {
                let mut pre = Vec::new();
                let addr = indexed(&mut pre, a, b)?;
                store(pre, s, addr)
            }
            // Reservations.
            ("lwarx" | "ldarx", [d, a, b]) => {
                let mut pre = Vec::new();
                let addr = indexed(&mut pre, a, b)?;
                load(pre, d, addr, if base == "lwarx" { zext } else { None }, &["EX"])
            }
            ("stwcx." | "stdcx.", [s, a, b]) => {
                let mut pre = vec![Op::Width(width)];
                let addr = indexed(&mut pre, a, b)?;
                pre.push(Op::Mov { dst: lt(0), src: Src::Imm(0) });
                pre.push(Op::Mov { dst: gt(0), src: Src::Imm(0) });
                pre.push(Op::StoreCond {
                    addr,
                    src: rs(s)?,
                    tags: vec!["EX".into()],
                    status: Some(eq(0)),
                    ok: 1,
                    fail: 0,
                    second: None,
                });
                Ok(pre)
            }
            // Moves and arithmetic.
            ("li", [d, i]) => Ok(vec![Op::Mov { dst: r(d)?, src: Src::Imm(imm(i)?) }]),
            ("lis", [d, i]) => Ok(vec![Op::Mov { dst: r(d)?, src: Src::Imm(imm(i)?.wrapping_shl(16)) }]),
            ("mr", [d, s]) => Ok(vec![Op::Mov { dst: r(d)?, src: rs(s)? }]),
            ("addi" | "addis" | "subi", [d, a, i]) => {
                let k = imm(i)?;
                let v = match base {
                    "addis" => k.wrapping_shl(16),
                    "subi" => k.wrapping_neg(),
                    _ => k,
                };
                let (dst, a) = (r(d)?, r(a)?);
                if a == R0 {
                    return Ok(vec![Op::Mov { dst, src: Src::Imm(v) }]);
                }
                Ok(vec![Op::Bin { dst, op: BinOp::Add, a: Src::Reg(a), b: Src::Imm(v) }])
            }
            ("add", _) => bin3(BinOp::Add, false),
            ("sub", _) => bin3(BinOp::Sub, false),
            ("subf", _) => bin3(BinOp::Sub, true),
            ("or", _) => bin3(BinOp::Or, false),
            ("and", _) => bin3(BinOp::And, false),
            ("xor", _) => bin3(BinOp::Xor, false),
            ("mullw" | "mulld", _) => bin3(BinOp::Mul, false),
            ("divw", _) => bin3(BinOp::Div, false),
            ("ori", _) if !dot => bin_imm(BinOp::Or),
            ("xori", _) if !dot => bin_imm(BinOp::Xor),
            ("mulli", _) if !dot => bin_imm(BinOp::Mul),
            ("andi", [d, ..]) if dot => {
                let mut v = bin_imm(BinOp::And)?;
                set_flags(&mut v, 0, rs(d)?, Src::Imm(0));
                Ok(v)
            }
            ("extsw", [d, a]) => record(vec![Op::Bin { dst: r(d)?, op: BinOp::Sext, a: rs(a)?, b: Src::Imm(32) }], d),
            ("clrldi", [d, a, k]) if !dot => {
                let k = imm(k)?;
                if !(0..64).contains(&k) {
                    return Err(InstrError::new(format!("expected a bit count 0–63, found '{k}'")));
                }
                Ok(vec![Op::Bin { dst: r(d)?, op: BinOp::And, a: rs(a)?, b: Src::Imm(ibm_mask(k, 63)) }])
            }
            ("rlwinm" | "rlwimi", [d, a, sh, mb, me]) if !dot => {
                let (sh, mb, me) = (field(sh)?, field(mb)?, field(me)?);
                let m = ibm_mask(mb + 32, me + 32);
                let dst = r(d)?;
                let mut v = Vec::new();
                rot32(&mut v, rs(a)?, sh);
                if base == "rlwinm" {
                    v.push(Op::Bin { dst, op: BinOp::And, a: tmp("%rot"), b: Src::Imm(m) });
                } else {
                    // The bits outside the mask keep rD's.
                    v.push(Op::Bin { dst: "%in".into(), op: BinOp::And, a: tmp("%rot"), b: Src::Imm(m) });
                    v.push(Op::Bin { dst: "%out".into(), op: BinOp::And, a: Src::Reg(dst.clone()), b: Src::Imm(!m) });
                    v.push(Op::Bin { dst, op: BinOp::Or, a: tmp("%out"), b: tmp("%in") });
                }
                Ok(v)
            }
            // Compares.
            ("cmpw", _) if !dot => compare(&rs),
            ("cmpwi", _) if !dot => compare(&|b| Ok(Src::Imm(imm(b)?))),
            ("cmplwi", _) if !dot => compare(&|b| Ok(Src::Imm(imm(b)? & 0xffff))),
            // Branches, on cr0.
            ("b", [l]) if !dot => Ok(branch(None, l)),
            ("beq", [l]) => Ok(branch(Some(bit_cond(eq(0), true)), l)),
            ("bne", [l]) => Ok(branch(Some(bit_cond(eq(0), false)), l)),
            ("blt", [l]) => Ok(branch(Some(bit_cond(lt(0), true)), l)),
            ("bge" | "bnl", [l]) => Ok(branch(Some(bit_cond(lt(0), false)), l)),
            ("bgt", [l]) => Ok(branch(Some(bit_cond(gt(0), true)), l)),
            ("ble" | "bng", [l]) => Ok(branch(Some(bit_cond(gt(0), false)), l)),
            ("mfcr", [d]) if !dot => Ok(mfcr(r(d)?)),
            ("com", _) if !dot => comment(text),
            // herd (variant telechat) takes a return as the thread's end.
            ("blr", []) if !dot => Ok(vec![Op::Exit]),
            // Barriers.
            ("sync" | "hwsync", []) if !dot => Ok(vec![Op::Fence { tags: vec!["SYNC".into()] }]),
            ("lwsync", []) if !dot => Ok(vec![Op::Fence { tags: vec!["LWSYNC".into()] }]),
            ("eieio", []) if !dot => Ok(vec![Op::Fence { tags: vec!["EIEIO".into()] }]),
            ("isync", []) if !dot => Ok(vec![Op::Fence { tags: vec!["ISYNC".into()] }]),
            // A cache flush orders nothing in herd.
            ("dcbf", [a, b]) if !dot => {
                r(a)?;
                r(b)?;
                Ok(vec![])
            }
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_as_herd() {
        assert_eq!(ibm_mask(62, 63), 3);
        assert_eq!(ibm_mask(32, 47), 0xffff_0000);
        assert_eq!(ibm_mask(32, 63), 0xffff_ffff);
        assert_eq!(ibm_mask(0, 63), -1);
        assert_eq!(ibm_mask(63, 0) as u64, 0x8000_0000_0000_0001);
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let e = Ppc.parse("lwz r1,0(r33)").unwrap_err();
        assert!(e.message.contains("r33"), "{}", e.message);
        let e = Ppc.parse("frob r1").unwrap_err();
        assert!(e.message.contains("frob"), "{}", e.message);
        let e = Ppc.parse("cmpw cr9,r1,r2").unwrap_err();
        assert!(e.message.contains("cr9"), "{}", e.message);
        assert!(Ppc.parse("stw r1").is_err());
        // A record form litsat does not implement is refused, not read without its cr0.
        for t in ["mr. r5,r4", "lwz. r5,0(r2)", "addi. r3,r3,1", "beq. L0"] {
            assert!(Ppc.parse(t).unwrap_err().message.contains("unsupported instruction"), "{t}");
        }
        assert!(Ppc.parse("add. r3,r4,r5").is_ok());
        assert!(Ppc.parse("rlwinm r1,r2,40,0,31").is_err());
    }

    #[test]
    fn r0_as_a_base_is_zero() {
        // Indexed forms and addi read no register for rA = r0 (herd's read_reg_or_zero).
        let ops = Ppc.parse("lwzx r1,r0,r2").unwrap();
        assert!(matches!(&ops[1], Op::Load { addr: Addr::Reg(r, 0), .. } if r == "r2"), "{ops:?}");
        let ops = Ppc.parse("lwzx r1,r3,r2").unwrap();
        assert!(matches!(&ops[1], Op::Bin { op: BinOp::Add, .. }), "{ops:?}");
        assert_eq!(Ppc.parse("addi r3,r0,5").unwrap(), vec![Op::Mov { dst: "r3".into(), src: Src::Imm(5) }]);
        assert_eq!(Ppc.parse("addis r3,r0,1").unwrap(), vec![Op::Mov { dst: "r3".into(), src: Src::Imm(65536) }]);
        // A displacement form reads r0 as a register.
        let ops = Ppc.parse("lwz r1,0(r0)").unwrap();
        assert!(matches!(&ops[1], Op::Load { addr: Addr::Reg(r, 0), .. } if r == "r0"), "{ops:?}");
    }

    #[test]
    fn store_conditional_sets_cr0_eq() {
        let ops = Ppc.parse("stwcx. r4,r0,r3").unwrap();
        let Some(Op::StoreCond { status, ok, fail, tags, .. }) = ops.last() else { panic!("{ops:?}") };
        assert_eq!((status.as_deref(), *ok, *fail), (Some("%eq0"), 1, 0));
        assert_eq!(tags, &["EX".to_string()]);
        // The doubleword forms reserve and store alike, without the word's extension.
        let ops = Ppc.parse("stdcx. r4,r0,r3").unwrap();
        assert!(matches!(ops.last(), Some(Op::StoreCond { status: Some(s), .. }) if s == "%eq0"), "{ops:?}");
        let ops = Ppc.parse("ldarx r4,r0,r3").unwrap();
        assert!(matches!(&ops[..], [Op::Width(8), Op::Load { tags, .. }] if tags == &["EX".to_string()]), "{ops:?}");
        let ops = Ppc.parse("bne Loop").unwrap();
        let Op::Branch { cond: Some(c), target } = &ops[0] else { panic!("{ops:?}") };
        assert_eq!((c.op, &c.a, target.as_str()), (BinOp::Eq, &Src::Reg("%eq0".into()), "Loop"));
    }

    #[test]
    fn registers_print_as_herd() {
        assert_eq!(Ppc.canonical_reg("r3").as_deref(), Some("r3"));
        assert_eq!(Ppc.canonical_reg("r32"), None);
        assert_eq!(Ppc.canonical_reg("x3"), None);
        assert_eq!(Ppc.reg_index("r11"), 11);
    }
}
