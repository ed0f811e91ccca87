//! The Power instruction table: one row per family, its mnemonics (without the record
//! form's `.`) and the semantics that turns its operands into ops. A mnemonic in no row
//! is refused by name.

use super::{
    DOUBLE, R0, WORD, bit_cond, branch, comment, cr_field, d_form, eq, field, gt, ibm_mask, imm, indexed, lt, mem,
    mfcr, r, refusal, rot32, rs, set_flags, tmp, update,
};
use crate::isa::{Addr, BinOp, Cond, InstrError, Op, Reg, Src, Tag, split_operands};

type Res = Result<Vec<Op>, InstrError>;

/// One instruction: its mnemonic as written, its base (the record form's `.` off),
/// whether it is the record form (`op.` also sets cr0 from the result compared with 0),
/// and its operands.
struct Ins<'t> {
    m: &'t str,
    base: &'t str,
    dot: bool,
    o: Vec<&'t str>,
    text: &'t str,
}

impl Ins<'_> {
    fn bad(&self) -> InstrError {
        InstrError::unsupported(self.text)
    }

    /// The operands, as many as the family takes.
    fn args<const N: usize>(&self) -> Result<[&str; N], InstrError> {
        self.o.clone().try_into().map_err(|_| self.bad())
    }

    /// The record form's update of cr0 from `d`.
    fn record(&self, mut v: Vec<Op>, d: &str) -> Res {
        if self.dot {
            set_flags(&mut v, 0, rs(d)?, Src::Imm(0));
        }
        Ok(v)
    }

    /// How wide its stores are.
    fn width(&self) -> usize {
        if self.base.starts_with("std") { DOUBLE } else { WORD }
    }
}

/// What a row's instructions do.
enum Sem {
    /// A family with its own semantics function.
    F(fn(&Ins) -> Res),
    /// `op rD, rA, rB`; `true`: the operands swapped (`subf`).
    Alu(BinOp, bool),
    /// `op rD, rA, imm`.
    AluImm(BinOp),
    /// A branch on a bit of cr0 (by the function naming its pseudo-register), where it is
    /// set (`true`) or clear.
    Bc(fn(u8) -> Reg, bool),
    /// A barrier: a fence in this set.
    Barrier(&'static str),
}

use Sem::*;

/// Only these record forms set cr0 here; any other `op.` (`mr.`, `addi.`, `lwz.`) is
/// refused rather than read as `op` without its cr0 update.
const RECORDED: &[&str] = &["add", "sub", "subf", "or", "and", "xor", "mullw", "mulld", "divw", "extsw", "andi"];

/// The table.
const ROWS: &[(&[&str], Sem)] = &[
    (&["nop"], F(nop)),
    (&["lwz", "ld"], F(load_d)),
    (&["lwa"], F(lwa)),
    (&["stw", "std"], F(store_d)),
    (&["lwzu"], F(lwzu)),
    (&["stwu"], F(stwu)),
    (&["lwzx", "lwax", "ldx"], F(load_x)),
    (&["stwx", "stdx"], F(store_x)),
    (&["lwarx", "ldarx"], F(larx)),
    (&["stwcx.", "stdcx."], F(stcx)),
    (&["li", "lis"], F(li)),
    (&["mr"], F(mr)),
    (&["addi", "addis", "subi"], F(addi)),
    (&["add"], Alu(BinOp::Add, false)),
    (&["sub"], Alu(BinOp::Sub, false)),
    (&["subf"], Alu(BinOp::Sub, true)),
    (&["or"], Alu(BinOp::Or, false)),
    (&["and"], Alu(BinOp::And, false)),
    (&["xor"], Alu(BinOp::Xor, false)),
    (&["mullw", "mulld"], Alu(BinOp::Mul, false)),
    (&["divw"], Alu(BinOp::Div, false)),
    (&["ori"], AluImm(BinOp::Or)),
    (&["xori"], AluImm(BinOp::Xor)),
    (&["mulli"], AluImm(BinOp::Mul)),
    (&["andi"], F(andi)),
    (&["extsw"], F(extsw)),
    (&["clrldi"], F(clrldi)),
    (&["rlwinm", "rlwimi"], F(rlwinm)),
    (&["cmpw", "cmpwi", "cmplwi"], F(compare)),
    (&["b"], F(b)),
    (&["beq"], Bc(eq, true)),
    (&["bne"], Bc(eq, false)),
    (&["blt"], Bc(lt, true)),
    (&["bge", "bnl"], Bc(lt, false)),
    (&["bgt"], Bc(gt, true)),
    (&["ble", "bng"], Bc(gt, false)),
    (&["mfcr"], F(mfcr_row)),
    (&["com"], F(com)),
    // herd (variant telechat) takes a return as the thread's end.
    (&["blr"], F(blr)),
    (&["sync", "hwsync"], Barrier("SYNC")),
    (&["lwsync"], Barrier("LWSYNC")),
    (&["eieio"], Barrier("EIEIO")),
    (&["isync"], Barrier("ISYNC")),
    (&["dcbf"], F(dcbf)),
];

/// The ops of one Power instruction.
pub(super) fn parse(text: &str) -> Res {
    let (m, ops) = split_operands(text);
    let (base, dot) = match m.strip_suffix('.') {
        Some(b) if m != "stwcx." && m != "stdcx." => (b, true),
        _ => (m.as_str(), false),
    };
    if let Some(e) = refusal(base, text) {
        return Err(e);
    }
    let ins = Ins { m: &m, base, dot, o: ops.iter().map(String::as_str).collect(), text };
    if dot && !RECORDED.contains(&base) {
        return Err(ins.bad());
    }
    let Some((_, sem)) = ROWS.iter().find(|(ms, _)| ms.contains(&base)) else { return Err(ins.bad()) };
    match *sem {
        F(f) => f(&ins),
        Alu(op, swap) => {
            let [d, a, b] = ins.args()?;
            let (a, b) = if swap { (rs(b)?, rs(a)?) } else { (rs(a)?, rs(b)?) };
            ins.record(vec![Op::Bin { dst: r(d)?, op, a, b }], d)
        }
        AluImm(op) => alu_imm(&ins, op),
        Bc(bit, set) => {
            let [l] = ins.args()?;
            Ok(branch(Some(bit_cond(bit(0), set)), l))
        }
        Barrier(tag) => {
            let [] = ins.args()?;
            Ok(vec![Op::Fence { tags: vec![tag.into()] }])
        }
    }
}

fn alu_imm(ins: &Ins, op: BinOp) -> Res {
    let [d, a, i] = ins.args()?;
    Ok(vec![Op::Bin { dst: r(d)?, op, a: rs(a)?, b: Src::Imm(imm(i)?) }])
}

/// A load, its value extended as `ext` says (`None`: the whole doubleword), a word or
/// doubleword wide, which an array's elements must be.
fn load(pre: Vec<Op>, d: &str, addr: Addr, ext: Option<BinOp>, tags: &[&str]) -> Res {
    let dst = r(d)?;
    let mut v = vec![Op::Width(if ext.is_some() { WORD } else { DOUBLE })];
    v.extend(pre);
    v.push(Op::Load { dst: dst.clone(), addr, tags: tags.iter().map(|t| Tag::from(t.to_string())).collect() });
    if let Some(op) = ext {
        v.push(Op::Bin { dst: dst.clone(), op, a: Src::Reg(dst), b: Src::Imm(32) });
    }
    Ok(v)
}

fn store(ins: &Ins, pre: Vec<Op>, s: &str, addr: Addr) -> Res {
    let mut v = vec![Op::Width(ins.width())];
    v.extend(pre);
    v.push(Op::Store { addr, src: rs(s)?, tags: Vec::new(), when: None });
    Ok(v)
}

/// The first operand, and the rest (a displacement form's address).
fn first_and_rest<'a>(ins: &'a Ins) -> Result<(&'a str, &'a [&'a str]), InstrError> {
    match ins.o.as_slice() {
        [d, rest @ ..] => Ok((d, rest)),
        [] => Err(ins.bad()),
    }
}

/// `lwz` (the low word, zero-extended) and `ld`.
fn load_d(ins: &Ins) -> Res {
    let (d, rest) = first_and_rest(ins)?;
    let ext = if ins.base == "lwz" { Some(BinOp::Zext) } else { None };
    load(Vec::new(), d, d_form(rest)?, ext, &[])
}

fn lwa(ins: &Ins) -> Res {
    let [d, a] = ins.args()?;
    load(Vec::new(), d, mem(a)?, Some(BinOp::Sext), &[])
}

fn store_d(ins: &Ins) -> Res {
    let (s, rest) = first_and_rest(ins)?;
    store(ins, Vec::new(), s, d_form(rest)?)
}

/// With update: the base register gets the address.
fn lwzu(ins: &Ins) -> Res {
    let (d, rest) = first_and_rest(ins)?;
    let addr = d_form(rest)?;
    let mut v = load(Vec::new(), d, addr.clone(), Some(BinOp::Zext), &[])?;
    update(&mut v, &addr, Some(&r(d)?));
    Ok(v)
}

fn stwu(ins: &Ins) -> Res {
    let (s, rest) = first_and_rest(ins)?;
    let addr = d_form(rest)?;
    let mut v = store(ins, Vec::new(), s, addr.clone())?;
    update(&mut v, &addr, None);
    Ok(v)
}

fn load_x(ins: &Ins) -> Res {
    let [d, a, b] = ins.args()?;
    let mut pre = Vec::new();
    let addr = indexed(&mut pre, a, b)?;
    let ext = match ins.base {
        "lwzx" => Some(BinOp::Zext),
        "lwax" => Some(BinOp::Sext),
        _ => None,
    };
    load(pre, d, addr, ext, &[])
}

fn store_x(ins: &Ins) -> Res {
    let [s, a, b] = ins.args()?;
    let mut pre = Vec::new();
    let addr = indexed(&mut pre, a, b)?;
    store(ins, pre, s, addr)
}

/// Reservations.
fn larx(ins: &Ins) -> Res {
    let [d, a, b] = ins.args()?;
    let mut pre = Vec::new();
    let addr = indexed(&mut pre, a, b)?;
    load(pre, d, addr, if ins.base == "lwarx" { Some(BinOp::Zext) } else { None }, &["EX"])
}

/// `stwcx.` sets cr0 to "equal" on success, to no bit on failure.
fn stcx(ins: &Ins) -> Res {
    let [s, a, b] = ins.args()?;
    let mut pre = vec![Op::Width(ins.width())];
    let addr = indexed(&mut pre, a, b)?;
    pre.push(Op::Mov { dst: lt(0), src: Src::Imm(0) });
    pre.push(Op::Mov { dst: gt(0), src: Src::Imm(0) });
    let tags = vec!["EX".into()];
    pre.push(Op::StoreCond { addr, src: rs(s)?, tags, status: Some(eq(0)), ok: 1, fail: 0, second: None });
    Ok(pre)
}

fn li(ins: &Ins) -> Res {
    let [d, i] = ins.args()?;
    let k = if ins.base == "lis" { imm(i)?.wrapping_shl(16) } else { imm(i)? };
    Ok(vec![Op::Mov { dst: r(d)?, src: Src::Imm(k) }])
}

fn mr(ins: &Ins) -> Res {
    let [d, s] = ins.args()?;
    Ok(vec![Op::Mov { dst: r(d)?, src: rs(s)? }])
}

/// `addi`, `addis`, `subi`: `rA` = `r0` stands for 0.
fn addi(ins: &Ins) -> Res {
    let [d, a, i] = ins.args()?;
    let k = imm(i)?;
    let v = match ins.base {
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

/// `andi.` only (the record form).
fn andi(ins: &Ins) -> Res {
    let [d, ..] = ins.o.as_slice() else { return Err(ins.bad()) };
    if !ins.dot {
        return Err(ins.bad());
    }
    let mut v = alu_imm(ins, BinOp::And)?;
    set_flags(&mut v, 0, rs(d)?, Src::Imm(0));
    Ok(v)
}

fn extsw(ins: &Ins) -> Res {
    let [d, a] = ins.args()?;
    ins.record(vec![Op::Bin { dst: r(d)?, op: BinOp::Sext, a: rs(a)?, b: Src::Imm(32) }], d)
}

fn clrldi(ins: &Ins) -> Res {
    let [d, a, k] = ins.args()?;
    let k = imm(k)?;
    if !(0..64).contains(&k) {
        return Err(InstrError::new(format!("expected a bit count 0–63, found '{k}'")));
    }
    Ok(vec![Op::Bin { dst: r(d)?, op: BinOp::And, a: rs(a)?, b: Src::Imm(ibm_mask(k, 63)) }])
}

/// `rlwinm` (rotate, then mask) and `rlwimi` (the bits outside the mask keep rD's).
fn rlwinm(ins: &Ins) -> Res {
    let [d, a, sh, mb, me] = ins.args()?;
    let (sh, mb, me) = (field(sh)?, field(mb)?, field(me)?);
    let m = ibm_mask(mb + 32, me + 32);
    let dst = r(d)?;
    let mut v = Vec::new();
    rot32(&mut v, rs(a)?, sh);
    if ins.base == "rlwinm" {
        v.push(Op::Bin { dst, op: BinOp::And, a: tmp("%rot"), b: Src::Imm(m) });
    } else {
        v.push(Op::Bin { dst: "%in".into(), op: BinOp::And, a: tmp("%rot"), b: Src::Imm(m) });
        v.push(Op::Bin { dst: "%out".into(), op: BinOp::And, a: Src::Reg(dst.clone()), b: Src::Imm(!m) });
        v.push(Op::Bin { dst, op: BinOp::Or, a: tmp("%out"), b: tmp("%in") });
    }
    Ok(v)
}

/// A compare: `cmpw [crK,] rA, rB`, `cmpwi` and `cmplwi` with an immediate last.
fn compare(ins: &Ins) -> Res {
    let (k, a, last) = match ins.o.as_slice() {
        [a, x] => (0, *a, *x),
        [c, a, x] => (cr_field(c)?, *a, *x),
        _ => return Err(ins.bad()),
    };
    let mut pre = Vec::new();
    let bv = match ins.m {
        "cmpw" => rs(last)?,
        "cmpwi" => Src::Imm(imm(last)?),
        _ => Src::Imm(imm(last)? & 0xffff),
    };
    let av = match ins.m {
        "cmplwi" => {
            pre.push(Op::Bin { dst: "%c".into(), op: BinOp::Zext, a: rs(a)?, b: Src::Imm(32) });
            tmp("%c")
        }
        _ => rs(a)?,
    };
    set_flags(&mut pre, k, av, bv);
    Ok(pre)
}

fn b(ins: &Ins) -> Res {
    let [l] = ins.args()?;
    Ok(branch(None::<Cond>, l))
}

fn mfcr_row(ins: &Ins) -> Res {
    let [d] = ins.args()?;
    Ok(mfcr(r(d)?))
}

fn com(ins: &Ins) -> Res {
    comment(ins.text)
}

fn blr(ins: &Ins) -> Res {
    let [] = ins.args()?;
    Ok(vec![Op::Exit])
}

fn nop(ins: &Ins) -> Res {
    let [] = ins.args()?;
    Ok(vec![])
}

/// A cache flush orders nothing in herd.
fn dcbf(ins: &Ins) -> Res {
    let [a, b] = ins.args()?;
    r(a)?;
    r(b)?;
    Ok(vec![])
}
