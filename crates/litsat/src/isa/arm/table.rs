//! The ARM instruction table: one row per family, its base mnemonics and the semantics
//! that turns its operands into ops. `<base>{S}{cond}` is split off first
//! ([`super::mnemonic`]); a base in no row is refused by name.

use super::{Arm, FLAG_A, FLAG_B, WORD, flag_cond, imm, mem, mnemonic, r, reg_list, src, tmp, words};
use crate::isa::{Addr, BinOp, Cond, InstrError, Isa, Op, Src, Tag, split_grouped};

type Res = Result<Vec<Op>, InstrError>;

/// One instruction: its base mnemonic, whether it sets the flags (`S`), its condition,
/// its operands (brackets and braces kept whole).
struct Ins<'t> {
    base: &'static str,
    setflags: bool,
    cond: Option<Cond>,
    o: Vec<&'t str>,
    text: &'t str,
}

impl Ins<'_> {
    fn bad(&self) -> InstrError {
        InstrError::unsupported(self.text)
    }

    fn no_cond(&self) -> Result<(), InstrError> {
        match self.cond {
            None => Ok(()),
            Some(_) => Err(InstrError::new(format!("unsupported: conditional '{}'", self.text.trim()))),
        }
    }

    fn no_flags(&self) -> Result<(), InstrError> {
        if self.setflags {
            Err(InstrError::new(format!("unsupported: flag-setting '{}'", self.text.trim())))
        } else {
            Ok(())
        }
    }

    /// A register result: computed into `%v`, kept where the condition fails, then the
    /// flags of the `S` form (Z: the result is 0).
    fn result(&self, mut pre: Vec<Op>, dst: &str, val: Src) -> Res {
        let dst = r(dst)?;
        match &self.cond {
            None => pre.push(Op::Mov { dst: dst.clone(), src: val }),
            Some(c) => {
                pre.push(Op::Mov { dst: "%v".into(), src: val });
                pre.push(Op::Select { dst: dst.clone(), cond: c.clone(), a: tmp("%v"), b: Src::Reg(dst.clone()) });
            }
        }
        if self.setflags {
            if self.cond.is_some() {
                return Err(InstrError::new(format!("unsupported: conditional flag-setting '{}'", self.text.trim())));
            }
            pre.push(Op::Mov { dst: FLAG_A.into(), src: Src::Reg(dst) });
            pre.push(Op::Mov { dst: FLAG_B.into(), src: Src::Imm(0) });
        }
        Ok(pre)
    }
}

/// What a row's instructions do.
enum Sem {
    /// A family with its own semantics function.
    F(fn(&Ins) -> Res),
    /// A word load in these sets.
    Load(&'static [&'static str]),
    /// `OP Rd, Rn, op2` (`OP Rd, op2` for `Rd, Rd, op2`); `true`: the operands swapped
    /// (`RSB`).
    Alu(BinOp, bool),
}

use Sem::*;

/// The table, by base mnemonic.
const ROWS: &[(&[&str], Sem)] = &[
    (&["LDR"], Load(&[])),
    (&["LDA"], Load(&["A", "X"])),
    (&["LDREX"], Load(&["X", "EX"])),
    (&["STR", "STL"], F(store)),
    (&["STREX"], F(strex)),
    (&["LDRD"], F(ldrd)),
    (&["LDM", "LDMIA", "LDMIB"], F(ldm)),
    (&["DMB", "DSB"], F(barrier)),
    (&["ISB"], F(isb)),
    (&["NOP"], F(nop)),
    (&["MOV"], F(mov)),
    (&["MOVW"], F(movw)),
    (&["MOVT"], F(movt)),
    (&["MVN"], F(mvn)),
    (&["ADD"], Alu(BinOp::Add, false)),
    (&["SUB"], Alu(BinOp::Sub, false)),
    (&["RSB"], Alu(BinOp::Sub, true)),
    (&["EOR"], Alu(BinOp::Xor, false)),
    (&["AND"], Alu(BinOp::And, false)),
    (&["ORR"], Alu(BinOp::Or, false)),
    (&["BIC"], F(bic)),
    (&["CMP"], F(cmp)),
    (&["B"], F(b)),
    (&["CBZ", "CBNZ"], F(cbz)),
    (&["BX"], F(bx)),
];

/// The ops of one ARM instruction.
pub(super) fn parse(text: &str) -> Res {
    let (m, ops) = split_grouped(text);
    let Some((base, setflags, cc)) = mnemonic(&m) else { return Err(InstrError::unsupported(text)) };
    let cond = flag_cond(cc)?;
    let ins = Ins { base, setflags, cond, o: ops.iter().map(String::as_str).collect(), text };
    match ROWS.iter().find(|(ms, _)| ms.contains(&base)) {
        Some((_, F(f))) => f(&ins),
        Some((_, Load(tags))) => load(&ins, tags),
        Some((_, Alu(op, swap))) => alu(&ins, *op, *swap),
        None => Err(ins.bad()),
    }
}

fn alu(ins: &Ins, op: BinOp, swap: bool) -> Res {
    let (d, a, b) = match ins.o.as_slice() {
        [d, a, b] => (*d, *a, *b),
        [d, b] => (*d, *d, *b),
        _ => return Err(ins.bad()),
    };
    let (a, b) = if swap { (src(b)?, Src::Reg(r(a)?)) } else { (Src::Reg(r(a)?), src(b)?) };
    let pre = vec![Op::Bin { dst: "%r".into(), op, a, b }];
    ins.result(pre, d, tmp("%r"))
}

fn load(ins: &Ins, tags: &[&'static str]) -> Res {
    ins.no_flags()?;
    ins.no_cond()?;
    let [rt, a] = ins.o.as_slice() else { return Err(ins.bad()) };
    let mut pre = vec![Op::Width(WORD)];
    let addr = mem(&mut pre, a)?;
    pre.push(Op::Load { dst: r(rt)?, addr, tags: tags.iter().map(|&t| Tag::from(t)).collect() });
    Ok(pre)
}

/// `STR`, and `STL` (`L` and `X`); a conditional store is a guarded one.
fn store(ins: &Ins) -> Res {
    ins.no_flags()?;
    let [rt, a] = ins.o.as_slice() else { return Err(ins.bad()) };
    let mut pre = vec![Op::Width(WORD)];
    let addr = mem(&mut pre, a)?;
    let tags = if ins.base == "STL" { vec!["L".into(), "X".into()] } else { Vec::new() };
    pre.push(Op::Store { addr, src: Src::Reg(r(rt)?), tags, when: ins.cond.clone() });
    Ok(pre)
}

fn strex(ins: &Ins) -> Res {
    ins.no_flags()?;
    ins.no_cond()?;
    let [rs, rt, a] = ins.o.as_slice() else { return Err(ins.bad()) };
    let mut pre = vec![Op::Width(WORD)];
    let addr = mem(&mut pre, a)?;
    let tags = vec!["X".into(), "EX".into()];
    pre.push(Op::StoreCond { addr, src: Src::Reg(r(rt)?), tags, status: Some(r(rs)?), ok: 0, fail: 1, second: None });
    Ok(pre)
}

/// `LDRD Rt, Rt2, [Rn…]`, or `LDRD Rt, [Rn…]` with Rt2 the next register: two words,
/// the second 4 bytes above the first.
fn ldrd(ins: &Ins) -> Res {
    ins.no_flags()?;
    ins.no_cond()?;
    let (rt, rt2, a) = match ins.o.as_slice() {
        [rt, rt2, a] => (r(rt)?, r(rt2)?, *a),
        [rt, a] => {
            let rt = r(rt)?;
            let next = Arm.reg_index(&rt) + 1;
            // Only R0–R12 are loaded: SP, LR and PC are no data registers here.
            let rt2 = (next <= 12)
                .then(|| format!("R{next}"))
                .ok_or_else(|| InstrError::new(format!("'LDRD {rt}' has no next register")))?;
            (rt, rt2, *a)
        }
        _ => return Err(ins.bad()),
    };
    let mut pre = vec![Op::Width(WORD)];
    let addr = mem(&mut pre, a)?;
    words(&mut pre, addr, 0, &[rt, rt2])?;
    Ok(pre)
}

/// The registers, lowest first, from consecutive words at `Rn` (IA) or `Rn + 4` (IB).
fn ldm(ins: &Ins) -> Res {
    ins.no_flags()?;
    ins.no_cond()?;
    let [rn, list] = ins.o.as_slice() else { return Err(ins.bad()) };
    if rn.trim().ends_with('!') {
        return Err(InstrError::new(format!("unsupported: write-back '{}'", ins.text.trim())));
    }
    let regs = reg_list(list)?;
    let mut pre = vec![Op::Width(WORD)];
    let first = if ins.base == "LDMIB" { WORD as i64 } else { 0 };
    words(&mut pre, Addr::Reg(r(rn)?, 0), first, &regs)?;
    Ok(pre)
}

/// herd's sets: `DMB`, `DSB` (option SY), `DMB.ISH`, `DMB.ST`, `DSB.ST`; the other
/// options are fences in no set but `F`.
fn barrier(ins: &Ins) -> Res {
    ins.no_flags()?;
    ins.no_cond()?;
    let opt = match ins.o.as_slice() {
        [] => "SY".to_string(),
        [opt] => opt.to_ascii_uppercase(),
        _ => return Err(ins.bad()),
    };
    let base = ins.base;
    let tags = match (base, opt.as_str()) {
        (_, "SY") => vec![base.to_string().into()],
        ("DMB", "ISH") | (_, "ST") => vec![format!("{base}.{opt}").into()],
        (_, "ISH" | "ISHST" | "NSH" | "NSHST" | "OSH" | "OSHST") => Vec::new(),
        _ => return Err(InstrError::new(format!("unsupported barrier option '{opt}'"))),
    };
    Ok(vec![Op::Fence { tags }])
}

fn isb(ins: &Ins) -> Res {
    ins.no_flags()?;
    ins.no_cond()?;
    match ins.o.as_slice() {
        [] => Ok(vec![Op::Fence { tags: vec!["ISB".into()] }]),
        [opt] if opt.eq_ignore_ascii_case("SY") => Ok(vec![Op::Fence { tags: vec!["ISB".into()] }]),
        _ => Err(ins.bad()),
    }
}

fn nop(ins: &Ins) -> Res {
    if ins.o.is_empty() && !ins.setflags && ins.cond.is_none() { Ok(vec![]) } else { Err(ins.bad()) }
}

fn mov(ins: &Ins) -> Res {
    let [d, s] = ins.o.as_slice() else { return Err(ins.bad()) };
    ins.result(Vec::new(), d, src(s)?)
}

fn movw(ins: &Ins) -> Res {
    ins.no_flags()?;
    let [d, s] = ins.o.as_slice() else { return Err(ins.bad()) };
    ins.result(Vec::new(), d, Src::Imm(imm(s)? & 0xffff))
}

/// herd's MOVT writes `k << 16`, a 32-bit value.
fn movt(ins: &Ins) -> Res {
    ins.no_flags()?;
    let [d, s] = ins.o.as_slice() else { return Err(ins.bad()) };
    let k = ((imm(s)? & 0xffff) << 16) as i32 as i64;
    ins.result(Vec::new(), d, Src::Imm(k))
}

fn mvn(ins: &Ins) -> Res {
    let [d, s] = ins.o.as_slice() else { return Err(ins.bad()) };
    let pre = vec![Op::Bin { dst: "%r".into(), op: BinOp::Xor, a: src(s)?, b: Src::Imm(-1) }];
    ins.result(pre, d, tmp("%r"))
}

fn bic(ins: &Ins) -> Res {
    let [d, a, b] = ins.o.as_slice() else { return Err(ins.bad()) };
    let pre = vec![
        Op::Bin { dst: "%n".into(), op: BinOp::Xor, a: src(b)?, b: Src::Imm(-1) },
        Op::Bin { dst: "%r".into(), op: BinOp::And, a: Src::Reg(r(a)?), b: tmp("%n") },
    ];
    ins.result(pre, d, tmp("%r"))
}

/// Z is `FLAG_A = FLAG_B`.
fn cmp(ins: &Ins) -> Res {
    ins.no_cond()?;
    let [a, b] = ins.o.as_slice() else { return Err(ins.bad()) };
    Ok(vec![Op::Mov { dst: FLAG_A.into(), src: Src::Reg(r(a)?) }, Op::Mov { dst: FLAG_B.into(), src: src(b)? }])
}

fn b(ins: &Ins) -> Res {
    ins.no_flags()?;
    let [l] = ins.o.as_slice() else { return Err(ins.bad()) };
    Ok(vec![Op::Branch { cond: ins.cond.clone(), target: l.trim().to_string() }])
}

fn cbz(ins: &Ins) -> Res {
    ins.no_cond()?;
    ins.no_flags()?;
    let [t, l] = ins.o.as_slice() else { return Err(ins.bad()) };
    let op = if ins.base == "CBZ" { BinOp::Eq } else { BinOp::Ne };
    let cond = Some(Cond { op, a: Src::Reg(r(t)?), b: Src::Imm(0) });
    Ok(vec![Op::Branch { cond, target: l.trim().to_string() }])
}

/// `BX LR` ends the thread; `BX Rm` jumps to the code label `Rm` holds.
fn bx(ins: &Ins) -> Res {
    ins.no_cond()?;
    match ins.o.as_slice() {
        [t] if r(t)? == "LR" => Ok(vec![Op::Exit]),
        [t] => Ok(vec![Op::Jump(r(t)?)]),
        _ => Err(ins.bad()),
    }
}
