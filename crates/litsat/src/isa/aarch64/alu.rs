//! Data processing (herd's `AArch64Sem` for `I_OP3`, `I_MOV*`, `I_*BFM`, `I_MOP*`, `I_REV`,
//! `I_RBIT`, `I_ABS`, `I_EXTR`, `I_CSEL`): each function is one family of the table in
//! [`super::table`]. A W operand is read as its X register masked to 32 bits, and a W
//! result is zero-extended (herd's `read_reg_ord_sz`, `mask32`).

use super::operand::{B, C, Modifier, N, R, V, Z, ZR, imm, imm_in, is_imm, modifier, r, same_width};
use super::table::Ins;
use crate::isa::{BinOp, Cond, InstrError, Op, Src};

type Res = Result<Vec<Op>, InstrError>;

/// The second operand of an ALU instruction: `#imm {, LSL #0|#12}` or `Rm {, modifier}`,
/// at `a[k..]`. An extended register may be narrower than the operation (`X1, W2, SXTB`).
fn operand2(b: &mut B, ins: &Ins, k: usize, bits: i64, shift_ok: bool) -> Result<Src, InstrError> {
    let a = &ins.a;
    let m = a.get(k + 1).map(|s| modifier(s)).transpose()?;
    if a.len() > k + 2 {
        return Err(ins.bad());
    }
    if is_imm(&a[k]) {
        let v = imm(&a[k])?;
        return match m {
            None => Ok(Src::Imm(v)),
            Some(Modifier::Lsl(s @ (0 | 12))) => Ok(Src::Imm(v << s)),
            Some(_) => Err(InstrError::new(format!("unsupported immediate shift in '{}'", ins.text.trim()))),
        };
    }
    let rm = r(&a[k])?;
    let ext = matches!(m, Some(Modifier::Ext(..)));
    if (rm.bits() != bits && !ext) || (m.is_some() && !shift_ok) {
        return Err(InstrError::new(format!("unsupported operand form in '{}'", ins.text.trim())));
    }
    let v = b.read(&rm);
    Ok(match m {
        Some(Modifier::Ror(_)) if ext => return Err(ins.bad()),
        Some(m) => b.modified(v, m, bits),
        None => v,
    })
}

/// Writes `v` to `d`, zero-extended from a W result.
fn write(b: &mut B, d: &R, v: Src) {
    let v = if d.w { b.zext(v, 32) } else { v };
    b.ops.push(Op::Mov { dst: d.x.clone(), src: v });
}

/// Bit `s` of `v`, as 0 or 1.
fn bit(b: &mut B, v: Src, s: i64) -> Src {
    let t = b.imm(BinOp::Shr, v, s);
    b.imm(BinOp::And, t, 1)
}

/// The flags of `res = x op y` (herd's `op_set_flags`, Hacker's Delight 2-13): N and Z from
/// the result, C and V from the sign bits; logical operations clear C and V.
fn flags(b: &mut B, op: &str, x: Src, y: Src, res: Src, bits: i64) {
    let s = bits - 1;
    let n = bit(b, res.clone(), s);
    b.ops.push(Op::Mov { dst: N.into(), src: n });
    b.bin_to(Z, BinOp::Eq, res.clone(), Src::Imm(0));
    // herd's `ToInteger`: an operand that is no integer (an address, an instruction)
    // counts as the result (the first) or as 0 (the second), so that comparing two
    // addresses sets C and V from the comparison's -1, 0 or 1.
    let (x, y) = if matches!(op, "ADDS" | "SUBS") {
        (b.bin(BinOp::ToInt, x, res.clone()), b.bin(BinOp::ToInt, y, Src::Imm(0)))
    } else {
        (x, y)
    };
    let (c, v) = match op {
        "ADDS" => {
            let and = b.bin(BinOp::And, x.clone(), y.clone());
            let or = b.bin(BinOp::Or, x.clone(), y.clone());
            let nres = b.imm(BinOp::Xor, res.clone(), -1);
            let t = b.bin(BinOp::And, or, nres);
            let c = b.bin(BinOp::Or, and, t);
            let rx = b.bin(BinOp::Xor, res.clone(), x);
            let ry = b.bin(BinOp::Xor, res, y);
            (c, b.bin(BinOp::And, rx, ry))
        }
        "SUBS" => {
            let ny = b.imm(BinOp::Xor, y.clone(), -1);
            let and = b.bin(BinOp::And, x.clone(), ny.clone());
            let or = b.bin(BinOp::Or, x.clone(), ny);
            let nres = b.imm(BinOp::Xor, res.clone(), -1);
            let t = b.bin(BinOp::And, or, nres);
            let c = b.bin(BinOp::Or, and, t);
            let xy = b.bin(BinOp::Xor, x.clone(), y);
            let rx = b.bin(BinOp::Xor, res, x);
            (c, b.bin(BinOp::And, xy, rx))
        }
        _ => {
            b.ops.push(Op::Mov { dst: C.into(), src: Src::Imm(0) });
            b.ops.push(Op::Mov { dst: V.into(), src: Src::Imm(0) });
            return;
        }
    };
    let c = bit(b, c, s);
    b.ops.push(Op::Mov { dst: C.into(), src: c });
    let v = bit(b, v, s);
    b.ops.push(Op::Mov { dst: V.into(), src: v });
}

/// `x op y` at `bits` wide, for the ALU mnemonics (flag setting or not).
fn compute(b: &mut B, op: &str, x: Src, y: Src, bits: i64) -> Src {
    let not = |b: &mut B, y| b.imm(BinOp::Xor, y, -1);
    // A shift amount in a register is masked to the operation's size (herd's `Mask sz`).
    let amount = |b: &mut B, y| b.zext(y, bits);
    match op {
        "ADD" | "ADDS" => b.bin(BinOp::Add, x, y),
        "SUB" | "SUBS" => b.bin(BinOp::Sub, x, y),
        "AND" | "ANDS" => b.bin(BinOp::And, x, y),
        "ORR" => b.bin(BinOp::Or, x, y),
        "EOR" => b.bin(BinOp::Xor, x, y),
        "EON" => {
            let ny = not(b, y);
            b.bin(BinOp::Xor, x, ny)
        }
        "ORN" => {
            let ny = not(b, y);
            b.bin(BinOp::Or, x, ny)
        }
        "BIC" | "BICS" => {
            let ny = not(b, y);
            b.bin(BinOp::And, x, ny)
        }
        "LSL" => {
            let k = amount(b, y);
            b.bin(BinOp::Shl, x, k)
        }
        "LSR" => {
            let k = amount(b, y);
            b.lsr(x, k, bits)
        }
        "ASR" => {
            let k = amount(b, y);
            let s = b.sext(x, bits);
            b.asr(s, k)
        }
        _ => {
            let k = amount(b, y);
            let k = b.imm(BinOp::And, k, bits - 1);
            b.ror(x, k, bits)
        }
    }
}

/// `OP Rd, Rn, op2 {, modifier}`: ADD, SUB, AND, ORR, EOR, EON, ORN, BIC, the shifts, and
/// the flag-setting ADDS, SUBS, ANDS, BICS.
pub fn op3(ins: &Ins) -> Res {
    if ins.a.len() < 3 {
        return Err(ins.bad());
    }
    let (d, n) = (r(&ins.a[0])?, r(&ins.a[1])?);
    same_width(&[&d, &n], ins.text)?;
    let shifts = matches!(ins.m.as_str(), "LSL" | "LSR" | "ASR" | "ROR");
    if shifts && is_imm(&ins.a[2]) {
        imm_in(&ins.a[2], 0, d.bits() - 1)?;
    }
    let mut b = B::default();
    let x = b.read(&n);
    let y = operand2(&mut b, ins, 2, d.bits(), !shifts)?;
    alu(b, &ins.m, d, x, y)
}

fn alu(mut b: B, op: &str, d: R, x: Src, y: Src) -> Res {
    let res = compute(&mut b, op, x.clone(), y.clone(), d.bits());
    let res = b.zext(res, d.bits());
    if op.ends_with('S') && op != "ORRS" {
        flags(&mut b, op, x, y, res.clone(), d.bits());
    }
    write(&mut b, &d, res);
    Ok(b.ops)
}

/// `CMP Rn, op2` (SUBS to the zero register), `TST Rn, op2` (ANDS), `NEG(S) Rd, op2`
/// (SUB(S) from the zero register), `MVN Rd, op2` (ORN from the zero register).
pub fn alias(ins: &Ins) -> Res {
    let (op, zd) = match ins.m.as_str() {
        "CMP" => ("SUBS", true),
        "TST" => ("ANDS", true),
        "NEG" => ("SUB", false),
        "NEGS" => ("SUBS", false),
        _ => ("ORN", false),
    };
    let Some(first) = ins.a.first() else { return Err(ins.bad()) };
    let f = r(first)?;
    let mut b = B::default();
    let (d, x, k) = if zd {
        let x = b.read(&f);
        (R { x: ZR.into(), w: f.w }, x, 1)
    } else {
        (f, Src::Imm(0), 1)
    };
    if ins.a.len() < 2 {
        return Err(ins.bad());
    }
    let y = operand2(&mut b, ins, k, d.bits(), true)?;
    alu(b, op, d, x, y)
}

/// `MOV Rd, #imm` (a W immediate masked to 32 bits) and `MOV Rd, Rn`.
pub fn mov(ins: &Ins) -> Res {
    let [d, s] = ins.a.as_slice() else { return Err(ins.bad()) };
    let d = r(d)?;
    let mut b = B::default();
    if is_imm(s) {
        let k = imm(s)?;
        b.ops.push(Op::Mov { dst: d.x.clone(), src: Src::Imm(if d.w { k & 0xffff_ffff } else { k }) });
        return Ok(b.ops);
    }
    let s = r(s)?;
    same_width(&[&d, &s], ins.text)?;
    let v = b.read(&s);
    b.ops.push(Op::Mov { dst: d.x, src: v });
    Ok(b.ops)
}

/// `MOVZ`, `MOVN`, `MOVK Rd, #imm16 {, LSL #s}`: `s` in 0, 16 (and 32, 48 for X). `MOVN`
/// writes the 64-bit complement, W or X (herd's `movzn`).
pub fn movw(ins: &Ins) -> Res {
    let (d, k, s) = match ins.a.as_slice() {
        [d, k] => (d, k, 0),
        [d, k, m] => match modifier(m)? {
            Modifier::Lsl(s) => (d, k, s),
            _ => return Err(InstrError::new(format!("expected `LSL #s` in '{}'", ins.text.trim()))),
        },
        _ => return Err(ins.bad()),
    };
    let d = r(d)?;
    let k = imm_in(k, 0, 0xffff)?;
    if s % 16 != 0 || !(0..d.bits()).contains(&s) {
        return Err(InstrError::new(format!("illegal shift {s} in '{}'", ins.text.trim())));
    }
    let mut b = B::default();
    let v = k << s;
    let src = match ins.m.as_str() {
        "MOVZ" => Src::Imm(v),
        "MOVN" => Src::Imm(!v),
        _ => {
            let old = b.read(&d);
            let kept = b.imm(BinOp::And, old, !(0xffff << s));
            b.imm(BinOp::Or, kept, v)
        }
    };
    b.ops.push(Op::Mov { dst: d.x, src });
    Ok(b.ops)
}

/// `UBFM`/`SBFM Rd, Rn, #immr, #imms` as herd computes them (`xbfm`): the field masked,
/// shifted right by immr (or left by size-immr when imms < immr), then for SBFM
/// sign-extended from its top bit; the result is not masked to 32 bits.
pub fn bfm(ins: &Ins) -> Res {
    let [d, n, kr, ks] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (d, n) = (r(d)?, r(n)?);
    same_width(&[&d, &n], ins.text)?;
    let size = d.bits();
    let (kr, ks) = (imm_in(kr, 0, size - 1)?, imm_in(ks, 0, size - 1)?);
    let ones = |k: i64| if k >= 63 { -1 } else { (1i64 << (k + 1)) - 1 };
    let mut b = B::default();
    let x = b.read(&n);
    let (mask, top) = if ks >= kr { (ones(ks) & !(ones(kr) >> 1), ks - kr) } else { (ones(ks), size - kr + ks) };
    let f = b.imm(BinOp::And, x, mask);
    let f = if ks >= kr { b.imm(BinOp::Shr, f, kr) } else { b.imm(BinOp::Shl, f, size - kr) };
    let f = if ins.m == "SBFM" { b.sext(f, top + 1) } else { f };
    b.ops.push(Op::Mov { dst: d.x, src: f });
    Ok(b.ops)
}

/// `SXTW Xd, Wn`.
pub fn sxtw(ins: &Ins) -> Res {
    let [d, n] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (d, n) = (r(d)?, r(n)?);
    if d.w || !n.w {
        return Err(InstrError::new(format!("expected `SXTW Xd, Wn` in '{}'", ins.text.trim())));
    }
    let mut b = B::default();
    let x = b.read(&n);
    let v = b.sext(x, 32);
    b.ops.push(Op::Mov { dst: d.x, src: v });
    Ok(b.ops)
}

/// `REV`, `REV16`, `REV32`, `REV64` (bytes reversed within containers) and `RBIT`.
pub fn rev(ins: &Ins) -> Res {
    let [d, n] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (d, n) = (r(d)?, r(n)?);
    same_width(&[&d, &n], ins.text)?;
    let bits = d.bits();
    let container = match ins.m.as_str() {
        "REV16" => 16,
        "REV32" if !d.w => 32,
        "REV64" if !d.w => 64,
        "REV" | "RBIT" => bits,
        _ => return Err(InstrError::new(format!("unsupported register width in '{}'", ins.text.trim()))),
    };
    let mut b = B::default();
    let mut v = b.read(&n);
    // Swap neighbouring groups of `g` bits, for every `g` below the container (bytes only
    // for REV*): the reversal as log2 rounds.
    let mut g = if ins.m == "RBIT" { 1 } else { 8 };
    while g < container {
        let mut m: i64 = 0;
        for i in (0..bits).step_by(2 * g as usize) {
            m |= ((1i64 << g) - 1) << i;
        }
        let lo = b.imm(BinOp::And, v.clone(), m);
        let lo = b.imm(BinOp::Shl, lo, g);
        let hi = b.imm(BinOp::Shr, v, g);
        let hi = b.imm(BinOp::And, hi, m);
        v = b.bin(BinOp::Or, lo, hi);
        g *= 2;
    }
    write(&mut b, &d, v);
    Ok(b.ops)
}

/// `ABS Rd, Rn`: the source sign-extended from its width, its absolute value unmasked.
pub fn abs(ins: &Ins) -> Res {
    let [d, n] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (d, n) = (r(d)?, r(n)?);
    same_width(&[&d, &n], ins.text)?;
    let mut b = B::default();
    let x = b.read(&n);
    let x = b.sext(x, n.bits());
    let neg = b.bin(BinOp::Sub, Src::Imm(0), x.clone());
    let tmp = b.tmp();
    b.ops.push(Op::Select { dst: tmp.clone(), cond: Cond { op: BinOp::Lt, a: x.clone(), b: Src::Imm(0) }, a: neg, b: x });
    b.ops.push(Op::Mov { dst: d.x, src: Src::Reg(tmp) });
    Ok(b.ops)
}

/// `EXTR Rd, Rn, Rm, #lsb`: `Rm >> lsb | Rn << (size - lsb)`.
pub fn extr(ins: &Ins) -> Res {
    let [d, n, m, k] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (d, n, m) = (r(d)?, r(n)?, r(m)?);
    same_width(&[&d, &n, &m], ins.text)?;
    let k = imm_in(k, 0, d.bits() - 1)?;
    let mut b = B::default();
    let (xn, xm) = (b.read(&n), b.read(&m));
    let lo = b.imm(BinOp::Shr, xm, k);
    let hi = b.imm(BinOp::Shl, xn, d.bits() - k);
    let v = b.bin(BinOp::Or, lo, hi);
    write(&mut b, &d, v);
    Ok(b.ops)
}

/// `MUL`, `MNEG`, `MADD`, `MSUB` (same width) and the long forms `SMULL`, `UMULL`,
/// `SMNEGL`, `UMNEGL`, `SMADDL`, `SMSUBL`, `UMADDL`, `UMSUBL` (`Xd, Wn, Wm {, Xa}`).
pub fn mul(ins: &Ins) -> Res {
    let m = ins.m.as_str();
    let long = m.ends_with('L') && m.len() > 4;
    let three = matches!(m, "MUL" | "MNEG" | "SMULL" | "UMULL" | "SMNEGL" | "UMNEGL");
    let regs: Vec<R> = ins.a.iter().map(|s| r(s)).collect::<Result<_, _>>()?;
    if regs.len() != if three { 3 } else { 4 } {
        return Err(ins.bad());
    }
    let d = &regs[0];
    let ok = if long { !d.w && regs[1].w && regs[2].w && regs.get(3).is_none_or(|a| !a.w) } else { regs.iter().all(|x| x.w == d.w) };
    if !ok {
        return Err(InstrError::new(format!("registers of the wrong width in '{}'", ins.text.trim())));
    }
    let mut b = B::default();
    let (mut x, mut y) = (b.read(&regs[1]), b.read(&regs[2]));
    if long && m.starts_with('S') {
        x = b.sext(x, 32);
        y = b.sext(y, 32);
    }
    let p = b.bin(BinOp::Mul, x, y);
    let acc = match regs.get(3) {
        Some(a) => b.read(a),
        None => Src::Imm(0),
    };
    let sub = m.contains("SUB") || m.contains("NEG");
    let v = b.bin(if sub { BinOp::Sub } else { BinOp::Add }, acc, p);
    write(&mut b, d, v);
    Ok(b.ops)
}

/// `CSEL`, `CSINC`, `CSINV`, `CSNEG Rd, Rn, Rm, cond` and their aliases `CSET`, `CSETM
/// Rd, cond` and `CINC`, `CINV`, `CNEG Rd, Rn, cond`: only the selected register is read.
pub fn csel(ins: &Ins) -> Res {
    let a = &ins.a;
    let (base, d, n, m, cc) = match (ins.m.as_str(), a.as_slice()) {
        ("CSET", [d, cc]) => ("CSINC", d, ZR, ZR, B::invert(cc)?.to_string()),
        ("CSETM", [d, cc]) => ("CSINV", d, ZR, ZR, B::invert(cc)?.to_string()),
        ("CINC", [d, n, cc]) => ("CSINC", d, n.as_str(), n.as_str(), B::invert(cc)?.to_string()),
        ("CINV", [d, n, cc]) => ("CSINV", d, n.as_str(), n.as_str(), B::invert(cc)?.to_string()),
        ("CNEG", [d, n, cc]) => ("CSNEG", d, n.as_str(), n.as_str(), B::invert(cc)?.to_string()),
        (m @ ("CSEL" | "CSINC" | "CSINV" | "CSNEG"), [d, n, mm, cc]) => (m, d, n.as_str(), mm.as_str(), cc.clone()),
        _ => return Err(ins.bad()),
    };
    let d = r(d)?;
    let (n, m) = (if n == ZR { R { x: ZR.into(), w: d.w } } else { r(n)? }, if m == ZR { R { x: ZR.into(), w: d.w } } else { r(m)? });
    same_width(&[&d, &n, &m], ins.text)?;
    let mut b = B::default();
    let c = b.cond(&cc)?;
    let cond = Cond { op: BinOp::Ne, a: c, b: Src::Imm(0) };
    let f = match base {
        "CSINC" => Some((BinOp::Add, 1)),
        "CSINV" => Some((BinOp::Xor, -1)),
        "CSNEG" => Some((BinOp::Mul, -1)),
        _ => None,
    };
    let (dst, a, bb) = (d.x.clone(), n.src(), m.src());
    b.ops.push(match f {
        Some((op, k)) => Op::SelectOp { dst, cond, a, b: bb, op, k },
        None => Op::Select { dst, cond, a, b: bb },
    });
    if d.w && d.x != ZR {
        b.bin_to(&d.x, BinOp::Zext, Src::Reg(d.x.clone()), Src::Imm(32));
    }
    Ok(b.ops)
}
