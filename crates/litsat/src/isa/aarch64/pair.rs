//! Atomic pairs (herd's `AArch64Sem` for `I_CASP`, `I_LDXP`, `I_STXP`): two accesses of
//! one size at `a` and `a + size`, with one register each, from a base register alone.

use super::operand::{B, R, r};
use super::table::Ins;
use crate::isa::{Addr, InstrError, Op, Src, Tag};

type Res = Result<Vec<Op>, InstrError>;

/// The base register of `[Xn]`, or of `[Xn,#0]` where `zero_ok` (herd's `zeroopt`).
fn base(s: &str, zero_ok: bool, text: &str) -> Result<R, InstrError> {
    let t = s.trim();
    let bad = || InstrError::new(format!("unsupported memory operand '{t}' in '{}': expected `[Xn]`", text.trim()));
    let inner = t.strip_prefix('[').and_then(|i| i.strip_suffix(']')).ok_or_else(bad)?;
    let (reg, off) = match inner.split_once(',') {
        Some((reg, off)) => (reg, Some(off.trim())),
        None => (inner, None),
    };
    match off {
        None => {}
        Some("#0" | "0") if zero_ok => {}
        Some(_) => return Err(bad()),
    }
    let b = r(reg)?;
    if b.w {
        return Err(InstrError::new(format!("a base register is an X register, found '{}'", reg.trim())));
    }
    Ok(b)
}

/// Registers of one width; the pair's access size in bytes.
fn one_width(rs: &[&R], text: &str) -> Result<usize, InstrError> {
    super::operand::same_width(rs, text)?;
    Ok(if rs[0].w { 4 } else { 8 })
}

fn tags(t: &[&'static str]) -> Vec<Tag> {
    t.iter().map(|&t| Tag::from(t)).collect()
}

/// `CASP{A,L,AL} Rs1,Rs2,Rt1,Rt2,[Xn]`: a compare-and-swap of two consecutive locations,
/// both compared, both swapped, with herd's four alternatives of a `CAS`. Tagged as
/// `CAS`'s accesses; the reads are two single-copy-atomic classes.
pub fn casp(ins: &Ins) -> Res {
    let [rs1, rs2, rt1, rt2, m] = ins.a.as_slice() else { return Err(ins.bad()) };
    let regs = [rs1, rs2, rt1, rt2].map(|s| r(s));
    let [rs1, rs2, rt1, rt2] = regs;
    let (rs1, rs2, rt1, rt2) = (rs1?, rs2?, rt1?, rt2?);
    let size = one_width(&[&rs1, &rs2, &rt1, &rt2], ins.text)?;
    // herd's `CASP Ws…` takes `[Xn]` only; the other forms `[Xn,#0]` too.
    let b = base(m, ins.m != "CASP" || size == 8, ins.text)?;
    let (acq, rel) = match &ins.m[4..] {
        "" => (false, false),
        "A" => (true, false),
        "L" => (false, true),
        _ => (true, true),
    };
    let mut read_tags: Vec<Tag> = if acq { vec!["A".into()] } else { Vec::new() };
    let fail_read_tags = read_tags.clone();
    read_tags.push("X".into());
    let mut write_tags: Vec<Tag> = if rel { vec!["L".into()] } else { Vec::new() };
    write_tags.push("X".into());
    let at = |k: usize| Addr::Reg(b.x.clone(), (k * size) as i64);
    let mut bb = B::default();
    bb.ops.push(Op::Width(size));
    bb.ops.push(Op::Cas {
        expected: rs1.x,
        new: rt1.src(),
        addr: at(0),
        read_tags,
        write_tags,
        fail_read_tags,
        pair: Some(Box::new((rs2.x, rt2.src(), at(1)))),
    });
    Ok(bb.ops)
}

/// `LDXP`/`LDAXP Rt1,Rt2,[Xn]`: two exclusive reads, one single-copy-atomic class; the
/// first reserves.
pub fn ldxp(ins: &Ins) -> Res {
    let [rt1, rt2, m] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (rt1, rt2) = (r(rt1)?, r(rt2)?);
    let size = one_width(&[&rt1, &rt2], ins.text)?;
    let b = base(m, false, ins.text)?;
    let t = tags(if ins.m == "LDAXP" { &["A", "EX"] } else { &["EX"] });
    let mut ops = vec![Op::Width(size)];
    for (k, rt) in [rt1, rt2].into_iter().enumerate() {
        ops.push(Op::Load { dst: rt.x, addr: Addr::Reg(b.x.clone(), (k * size) as i64), tags: t.clone() });
    }
    ops.push(Op::Atomic);
    Ok(ops)
}

/// `STXP`/`STLXP Ws,Rt1,Rt2,[Xn]`: two exclusive writes that succeed or fail together
/// (status 0 or 1 in `Ws`), one single-copy-atomic class.
pub fn stxp(ins: &Ins) -> Res {
    let [rs, rt1, rt2, m] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (rs, rt1, rt2) = (r(rs)?, r(rt1)?, r(rt2)?);
    if !rs.w {
        return Err(InstrError::new(format!("expected a W status register, found '{}'", ins.a[0].trim())));
    }
    let size = one_width(&[&rt1, &rt2], ins.text)?;
    let b = base(m, false, ins.text)?;
    let t = tags(if ins.m == "STLXP" { &["L", "EX"] } else { &["EX"] });
    let second = Some(Box::new((Addr::Reg(b.x.clone(), size as i64), Src::Reg(rt2.x))));
    let sc = Op::StoreCond { addr: Addr::Reg(b.x, 0), src: rt1.src(), tags: t, status: Some(rs.x), ok: 0, fail: 1, second };
    Ok(vec![Op::Width(size), sc, Op::Atomic])
}
