//! Memory access families (herd's `AArch64Sem` for `I_LDR*`, `I_STR*`, pairs, exclusives
//! and atomics): the addressing modes, then one function per family of [`super::table`].

use super::operand::{B, R, ZR, imm, is_imm, modifier, r};
use super::table::Ins;
use crate::isa::{Addr, BinOp, Cond, InstrError, Op, Reg, Src, Tag};

type Res = Result<Vec<Op>, InstrError>;

/// A base register's update after the access (pre- or post-indexed addressing), and how
/// many operands the memory operand took (a post-index's offset is one more).
pub struct Writeback {
    base: Reg,
    by: i64,
    pub operands: usize,
}

/// The memory operand, the last of `ops`: `[Xn]`, `[Xn,#k]`, `[Xn,Xm{,LSL #k}]`,
/// `[Xn,Wm,SXTW|UXTW {#k}]`, pre-indexed `[Xn,#k]!` and post-indexed `[Xn],#k` (accepted
/// only where `wb` allows). A register offset is extended, shifted (herd's
/// `memext_sext`) and added into the temporary `%a`.
pub fn mem(b: &mut B, ops: &[String], text: &str, wb: bool) -> Result<(Addr, Option<Writeback>), InstrError> {
    let Some(last) = ops.last() else {
        return Err(InstrError::new(format!("expected a memory operand in '{}'", text.trim())));
    };
    let s = last.trim();
    let refuse = |what: &str| Err(InstrError::new(format!("unsupported: {what} addressing in '{}'", text.trim())));
    if !s.starts_with('[') && ops.len() >= 2 && ops[ops.len() - 2].trim().starts_with('[') {
        let by = imm(s)?;
        return match mem(b, &ops[..ops.len() - 1], text, false)? {
            (Addr::Reg(base, 0), None) if wb => Ok((Addr::Reg(base.clone(), 0), Some(Writeback { base, by, operands: 2 }))),
            _ => refuse("post-indexed"),
        };
    }
    if let Some(inner) = s.strip_suffix('!') {
        return match mem(b, &[inner.to_string()], text, false)? {
            (Addr::Reg(base, by), None) if wb && !base.starts_with('%') => {
                Ok((Addr::Reg(base.clone(), by), Some(Writeback { base, by, operands: 1 })))
            }
            _ => refuse("pre-indexed"),
        };
    }
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return Err(InstrError::new(format!("expected a memory operand `[Xn…]`, found '{s}'")));
    };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let base = r(parts[0])?;
    if base.w {
        return Err(InstrError::new(format!("a base register is an X register, found '{}'", parts[0])));
    }
    match parts.as_slice() {
        [_] => Ok((Addr::Reg(base.x, 0), None)),
        [_, o] if is_imm(o) => Ok((Addr::Reg(base.x, imm(o)?), None)),
        [_, o, rest @ ..] if rest.len() <= 1 => {
            let off = r(o)?;
            let v = match rest.first().map(|m| modifier(m)).transpose()? {
                None => off.src(),
                Some(super::operand::Modifier::Lsl(k)) => b.imm(BinOp::Shl, off.src(), k),
                Some(super::operand::Modifier::Ext(signed, from, k)) if from == 32 || from == 64 => {
                    let e = if signed { b.sext(off.src(), from) } else { b.zext(off.src(), from) };
                    if k == 0 { e } else { b.imm(BinOp::Shl, e, k) }
                }
                Some(_) => return Err(InstrError::new(format!("unsupported memory operand '{s}'"))),
            };
            b.bin_to("%a", BinOp::Add, base.src(), v);
            Ok((Addr::Reg("%a".into(), 0), None))
        }
        _ => Err(InstrError::new(format!("unsupported memory operand '{s}'"))),
    }
}

/// The ops of a base register's writeback (`None`: none). A store's writeback waits for
/// its data register too (herd's STR semantics; not its pairs'), `data`.
fn writeback(b: &mut B, wb: Option<Writeback>, data: Option<&Reg>) {
    let Some(Writeback { base, by, .. }) = wb else { return };
    b.ops.push(Op::Bin { dst: base.clone(), op: BinOp::Add, a: Src::Reg(base.clone()), b: Src::Imm(by) });
    if let Some(d) = data {
        b.ops.push(Op::Also { dst: base, src: d.clone() });
    }
}

fn tags(t: &[&'static str]) -> Vec<Tag> {
    t.iter().map(|&t| Tag::from(t)).collect()
}

/// An access's size in bytes from its mnemonic's suffix (`B`, `H`, `SB`, `SH`, `SW`), else
/// from its register; and whether a load sign-extends.
fn size_of(m: &str, rt: &R) -> (usize, bool) {
    let ends = |s: &str| m.ends_with(s) && !m.ends_with("AP") && m != "LDAPR";
    if ends("SB") {
        (1, true)
    } else if ends("SH") {
        (2, true)
    } else if ends("SW") {
        (4, true)
    } else if m.ends_with('B') {
        (1, false)
    } else if m.ends_with('H') {
        (2, false)
    } else {
        (if rt.w { 4 } else { 8 }, false)
    }
}

/// A load into `rt`: as wide as its register, or narrower, zero- or sign-extended (a W
/// destination's sign extension then zero-extended from 32 bits).
fn load_into(b: &mut B, rt: &R, addr: Addr, t: Vec<Tag>, (size, signed): (usize, bool)) {
    b.ops.push(Op::Width(size));
    if size >= 4 && !signed {
        b.ops.push(Op::Load { dst: rt.x.clone(), addr, tags: t });
        return;
    }
    let v = b.tmp();
    b.ops.push(Op::Load { dst: v.clone(), addr, tags: t });
    let bits = 8 * size as i64;
    let e = if signed { b.sext(Src::Reg(v), bits) } else { b.zext(Src::Reg(v), bits) };
    let e = if signed && rt.w { b.zext(e, 32) } else { e };
    b.ops.push(Op::Mov { dst: rt.x.clone(), src: e });
}

/// The value a store of `size` bytes writes from `rt`: masked below a word.
fn stored(b: &mut B, rt: &R, size: usize) -> Src {
    if size >= 4 { rt.src() } else { b.zext(rt.src(), 8 * size as i64) }
}

/// `LDR`-like loads: `OP Rt, <mem>`, with writeback where `LDR` has it.
pub fn load(ins: &Ins, t: &[&'static str]) -> Res {
    let mut b = B::default();
    let wb_ok = ins.m.starts_with("LDR") && !ins.m.starts_with("LDRA");
    let (addr, wb) = mem(&mut b, &ins.a, ins.text, wb_ok)?;
    let n = ins.a.len() - wb.as_ref().map_or(1, |w| w.operands);
    let [rt] = &ins.a[..n] else { return Err(ins.bad()) };
    let rt = r(rt)?;
    let size = size_of(&ins.m, &rt);
    if size.1 && rt.w && size.0 == 4 {
        return Err(InstrError::new(format!("expected an X register in '{}'", ins.text.trim())));
    }
    load_into(&mut b, &rt, addr, tags(t), size);
    writeback(&mut b, wb, None);
    Ok(b.ops)
}

/// `STR`-like stores: `OP Rt, <mem>`.
pub fn store(ins: &Ins, t: &[&'static str]) -> Res {
    let mut b = B::default();
    let wb_ok = ins.m.starts_with("STR");
    let (addr, wb) = mem(&mut b, &ins.a, ins.text, wb_ok)?;
    let n = ins.a.len() - wb.as_ref().map_or(1, |w| w.operands);
    let [rt] = &ins.a[..n] else { return Err(ins.bad()) };
    let rt = r(rt)?;
    let (size, _) = size_of(&ins.m, &rt);
    b.ops.push(Op::Width(size));
    let v = stored(&mut b, &rt, size);
    b.ops.push(Op::Store { addr, src: v, tags: tags(t), when: None });
    writeback(&mut b, wb, Some(&rt.x));
    Ok(b.ops)
}

/// Store-exclusive `STXR Ws, Rt, <mem>`: status 0 on success, 1 on failure.
pub fn store_cond(ins: &Ins, t: &[&'static str]) -> Res {
    let mut b = B::default();
    let (addr, _) = mem(&mut b, &ins.a, ins.text, false)?;
    let [rs, rt, _] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (rs, rt) = (r(rs)?, r(rt)?);
    let (size, _) = size_of(&ins.m, &rt);
    b.ops.push(Op::Width(size));
    let v = stored(&mut b, &rt, size);
    b.ops.push(Op::StoreCond { addr, src: v, tags: tags(t), status: Some(rs.x), ok: 0, fail: 1, second: None });
    Ok(b.ops)
}

/// Pairs: `LDP`/`STP`/`LDNP`/`STNP`/`LDPSW` (unordered accesses at a and a+size, with
/// writeback for LDP/STP/LDPSW), `LDIAPP`/`STILP` (the first ordered before the second).
pub fn pair(ins: &Ins, load: bool, t: &[&'static str], ordered: bool) -> Res {
    let mut b = B::default();
    let wb_ok = matches!(ins.m.as_str(), "LDP" | "STP" | "LDPSW" | "STILP");
    let (addr, wb) = mem(&mut b, &ins.a, ins.text, wb_ok)?;
    let n = ins.a.len() - wb.as_ref().map_or(1, |w| w.operands);
    let ([r1, r2], Addr::Reg(base, off)) = (&ins.a[..n], &addr) else { return Err(ins.bad()) };
    let (r1, r2) = (r(r1)?, r(r2)?);
    if r1.w != r2.w {
        return Err(InstrError::new(format!("registers of different widths in '{}'", ins.text.trim())));
    }
    let size = if ins.m == "LDPSW" { (4, true) } else { (if r1.w { 4 } else { 8 }, false) };
    // herd's `STILP` pre-indexed by minus its size writes the higher address first.
    let downward = ordered && ordered_form(ins, *off, wb.as_ref(), size.0)?;
    let at = |k: usize| Addr::Reg(base.clone(), off + (k * size.0) as i64);
    let regs = if downward { [(1, r2), (0, r1)] } else { [(0, r1), (1, r2)] };
    for (step, (k, rt)) in regs.iter().enumerate() {
        let k = *k;
        if ordered && step == 1 {
            b.ops.push(Op::Ordered);
        }
        if load {
            load_into(&mut b, rt, at(k), tags(t), size);
        } else {
            b.ops.push(Op::Width(size.0));
            b.ops.push(Op::Store { addr: at(k), src: rt.src(), tags: tags(t), when: None });
        }
    }
    writeback(&mut b, wb, None);
    Ok(b.ops)
}

/// `LDIAPP`/`STILP` take no offset, or (`STILP` only here) pre-index by minus the pair's
/// size (`[Xn,#-16]!` for X registers), as herd's parser; whether it is that pre-index.
fn ordered_form(ins: &Ins, off: i64, wb: Option<&Writeback>, size: usize) -> Result<bool, InstrError> {
    match wb {
        None if off == 0 => Ok(false),
        Some(w) if w.operands == 1 && w.by == -2 * size as i64 => Ok(true),
        _ => Err(InstrError::new(format!(
            "unsupported memory operand in '{}': {} takes `[Xn]`{}",
            ins.text.trim(),
            ins.m,
            if ins.m == "STILP" { format!(" or `[Xn,#-{}]!`", 2 * size) } else { String::new() }
        ))),
    }
}

/// Splits an atomic's suffix into acquire, release and size: `None` for a suffix that is
/// not an ordering.
fn ordering(suffix: &str) -> Option<(bool, bool, Option<usize>)> {
    let (o, size) = match suffix.strip_suffix('B') {
        Some(o) => (o, Some(1)),
        None => match suffix.strip_suffix('H') {
            Some(o) => (o, Some(2)),
            None => (suffix, None),
        },
    };
    match o {
        "" => Some((false, false, size)),
        "A" => Some((true, false, size)),
        "L" => Some((false, true, size)),
        "AL" => Some((true, true, size)),
        _ => None,
    }
}

/// The read and write of one atomic instruction, as herd tags them: both `X`, the read `A`
/// when acquiring (or `NoRet` when the result is discarded), the write `L` when releasing.
fn amo_tags(acq: bool, rel: bool, noret: bool) -> (Vec<Tag>, Vec<Tag>) {
    let mut rt = Vec::new();
    if noret {
        rt.push("NoRet".into());
    } else if acq {
        rt.push("A".into());
    }
    rt.push("X".into());
    let mut wt = Vec::new();
    if rel {
        wt.push("L".into());
    }
    wt.push("X".into());
    (rt, wt)
}

const LDOPS: &[&str] = &["ADD", "EOR", "SET", "CLR", "SMAX", "SMIN", "UMAX", "UMIN"];

/// Whether `m` is an atomic read-modify-write's mnemonic: `SWP`, `CAS`, `LD<op>`,
/// `ST<op>` with ordering and size suffixes.
pub fn is_atomic(m: &str) -> bool {
    let sfx = |rest: &str| LDOPS.iter().find_map(|o| rest.strip_prefix(o)).and_then(ordering).is_some();
    m.strip_prefix("SWP").and_then(ordering).is_some()
        || m.strip_prefix("CAS").and_then(ordering).is_some()
        || m.strip_prefix("LD").is_some_and(sfx)
        || m.strip_prefix("ST").is_some_and(|r| sfx(r) && !r.ends_with('A') && !r.contains("AL"))
}

/// Atomic read-modify-writes: `SWP`, `CAS`, `LD<op>`, `ST<op>`.
pub fn atomic(ins: &Ins) -> Res {
    let m = ins.m.as_str();
    let mut b = B::default();
    let (addr, _) = mem(&mut b, &ins.a, ins.text, false)?;
    let regs: Vec<R> = ins.a[..ins.a.len() - 1].iter().map(|s| r(s)).collect::<Result<_, _>>()?;
    let (kind, rest) = if let Some(s) = m.strip_prefix("SWP") {
        ("SWP", s)
    } else if let Some(s) = m.strip_prefix("CAS") {
        ("CAS", s)
    } else {
        let (ret, s) = if let Some(s) = m.strip_prefix("LD") { (true, s) } else { (false, &m[2..]) };
        let op = LDOPS.iter().copied().find(|o| s.starts_with(o)).ok_or_else(|| ins.bad())?;
        (if ret { op } else { "ST" }, &s[op.len()..])
    };
    let (acq, rel, size) = ordering(rest).ok_or_else(|| ins.bad())?;
    let width = size.unwrap_or(if regs.first().is_some_and(|x| x.w) { 4 } else { 8 });
    b.ops.push(Op::Width(width));
    match (kind, regs.as_slice()) {
        ("SWP", [rs, rt]) => {
            let (rtags, wtags) = amo_tags(acq, rel, rt.x == ZR);
            b.ops.push(Op::Load { dst: "%old".into(), addr: addr.clone(), tags: rtags });
            let v = stored(&mut b, rs, width);
            b.ops.push(Op::Store { addr, src: v, tags: wtags, when: None });
            b.ops.push(Op::Mov { dst: rt.x.clone(), src: Src::Reg("%old".into()) });
        }
        ("CAS", [rs, rt]) => {
            let (read_tags, write_tags) = amo_tags(acq, rel, rs.x == ZR);
            // Failing without a write, the read is no atomic's: `X` goes.
            let fail_read_tags = read_tags.iter().filter(|t| *t != "X").cloned().collect();
            b.ops.push(Op::Cas {
                expected: rs.x.clone(),
                new: rt.src(),
                addr,
                read_tags,
                write_tags,
                fail_read_tags,
                pair: None,
            });
        }
        ("ST", [rs]) => ldop(&mut b, ins, rs, None, addr, (acq, rel)),
        (op, [rs, rt]) if op != "ST" && op != "SWP" && op != "CAS" => {
            ldop(&mut b, ins, rs, Some(rt), addr, (acq, rel))
        }
        _ => return Err(ins.bad()),
    }
    Ok(b.ops)
}

/// `LD<op>`/`ST<op>`: `[a] = old op rs`, `rt = old`.
fn ldop(b: &mut B, ins: &Ins, rs: &R, rt: Option<&R>, addr: Addr, (acq, rel): (bool, bool)) {
    let noret = rt.is_none_or(|r| r.x == ZR);
    let (rtags, wtags) = amo_tags(acq, rel, noret);
    let op = LDOPS.iter().copied().find(|o| ins.m[2..].starts_with(o)).unwrap_or("ADD");
    let old = || Src::Reg("%old".into());
    b.ops.push(Op::Load { dst: "%old".into(), addr: addr.clone(), tags: rtags });
    let new = "%new".to_string();
    let rv = rs.src();
    let select =
        |op| Op::Select { dst: new.clone(), cond: Cond { op, a: old(), b: rv.clone() }, a: old(), b: rv.clone() };
    match op {
        "ADD" => b.bin_to(&new, BinOp::Add, old(), rv.clone()),
        "EOR" => b.bin_to(&new, BinOp::Xor, old(), rv.clone()),
        "SET" => b.bin_to(&new, BinOp::Or, old(), rv.clone()),
        "CLR" => {
            let m = b.imm(BinOp::Xor, rv.clone(), -1);
            b.bin_to(&new, BinOp::And, old(), m);
        }
        "SMAX" => b.ops.push(select(BinOp::Gt)),
        "SMIN" => b.ops.push(select(BinOp::Lt)),
        "UMAX" => b.ops.push(select(BinOp::Geu)),
        _ => b.ops.push(select(BinOp::Ltu)),
    }
    b.ops.push(Op::Store { addr, src: Src::Reg(new), tags: wtags, when: None });
    if let Some(rt) = rt {
        b.ops.push(Op::Mov { dst: rt.x.clone(), src: old() });
    }
}
