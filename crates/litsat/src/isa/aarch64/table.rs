//! The instruction table: one row per family, its mnemonics and the semantics that turns
//! its operands into ops (as herd separates `AArch64Base`'s syntax from `AArch64Sem`).
//! A mnemonic in no row is refused by name; so are the families herd has and litsat not.

use super::operand::{B, ZR, imm_in, r};
use super::{alu, mem, pair, sys};
use crate::isa::{BinOp, Cond, InstrError, Op, Src, split_grouped};

type Res = Result<Vec<Op>, InstrError>;

/// One instruction: its upper-case mnemonic and its operands (brackets kept whole).
pub struct Ins<'t> {
    pub m: String,
    pub a: Vec<String>,
    pub text: &'t str,
}

impl Ins<'_> {
    pub fn bad(&self) -> InstrError {
        InstrError::new(format!("unsupported operands in '{}'", self.text.trim()))
    }
}

/// What a row's instructions do.
enum Sem {
    /// A family with its own semantics function.
    F(fn(&Ins) -> Res),
    /// A load (`LDR`-like) with these annotation sets.
    Load(&'static [&'static str]),
    Store(&'static [&'static str]),
    /// A store-exclusive.
    StoreCond(&'static [&'static str]),
    /// Two accesses: loads or stores, sets, whether the first is ordered before the second.
    Pair(bool, &'static [&'static str], bool),
    /// A family herd has that litsat does not build: refused, naming why.
    Refused(&'static str),
}

use Sem::*;

/// The table. Families that differ only in size (`B`, `H`) or sign-extension share a row.
const ROWS: &[(&[&str], Sem)] = &[
    (
        &["ADD", "ADDS", "SUB", "SUBS", "AND", "ANDS", "ORR", "EOR", "EON", "ORN", "BIC", "BICS", "LSL", "LSR", "ASR", "ROR"],
        F(alu::op3),
    ),
    (&["CMP", "TST", "NEG", "NEGS", "MVN"], F(alu::alias)),
    (&["MOV"], F(alu::mov)),
    (&["MOVZ", "MOVN", "MOVK"], F(alu::movw)),
    (&["UBFM", "SBFM"], F(alu::bfm)),
    (&["SXTW"], F(alu::sxtw)),
    (&["REV", "REV16", "REV32", "REV64", "RBIT"], F(alu::rev)),
    (&["ABS"], F(alu::abs)),
    (&["EXTR"], F(alu::extr)),
    (
        &["MUL", "MNEG", "MADD", "MSUB", "SMULL", "UMULL", "SMNEGL", "UMNEGL", "SMADDL", "SMSUBL", "UMADDL", "UMSUBL"],
        F(alu::mul),
    ),
    (&["CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM", "CINC", "CINV", "CNEG"], F(alu::csel)),
    (&["B"], F(b)),
    (&["CBZ", "CBNZ"], F(cbz)),
    (&["TBZ", "TBNZ"], F(tbz)),
    (&["DMB", "DSB"], F(barrier)),
    (&["ISB"], F(isb)),
    (&["DC", "IC"], F(sys::cache)),
    (&["NOP"], F(nop)),
    (&["LDR", "LDRB", "LDRH", "LDRSB", "LDRSH", "LDRSW", "LDUR"], Load(&[])),
    (&["STR", "STRB", "STRH"], Store(&[])),
    (&["LDAR", "LDARB", "LDARH"], Load(&["A"])),
    (&["LDAPR", "LDAPRB", "LDAPRH"], Load(&["Q"])),
    (&["STLR", "STLRB", "STLRH"], Store(&["L"])),
    (&["LDXR", "LDXRB", "LDXRH"], Load(&["EX"])),
    (&["LDAXR", "LDAXRB", "LDAXRH"], Load(&["A", "EX"])),
    (&["STXR", "STXRB", "STXRH"], StoreCond(&["EX"])),
    (&["STLXR", "STLXRB", "STLXRH"], StoreCond(&["L", "EX"])),
    (&["LDP", "LDPSW"], Pair(true, &[], false)),
    (&["STP"], Pair(false, &[], false)),
    (&["LDNP"], Pair(true, &["NT"], false)),
    (&["STNP"], Pair(false, &["NT"], false)),
    (&["LDAP"], Pair(true, &["A"], false)),
    (&["STLP"], Pair(false, &["L"], false)),
    (&["LDIAPP"], Pair(true, &["Q"], true)),
    (&["STILP"], Pair(false, &["L"], true)),
    (&["LDXP", "LDAXP"], F(pair::ldxp)),
    (&["STXP", "STLXP"], F(pair::stxp)),
    (&["CASP", "CASPA", "CASPL", "CASPAL"], F(pair::casp)),
    (&["BL"], F(bl)),
    (&["BLR", "BR", "RET"], F(indirect)),
    (&["ADR"], F(adr)),
    (&["MRS", "MSR"], F(sys::mrs_msr)),
    (&["TLBI"], F(sys::tlbi)),
    (&["UDF"], F(udf)),
    (&["SVC"], F(svc)),
    (&["ERET"], Refused("exception returns")),
];

/// The ops of one instruction, through its row.
pub fn parse(text: &str) -> Res {
    rows(text).map_err(|e| locate(e, text))
}

/// Points an error at the operand it names in quotes (`'W3'`, `'LSL#2'`), where the
/// instruction's text has it and the error points at nothing yet.
fn locate(mut e: InstrError, text: &str) -> InstrError {
    if e.offset != 0 {
        return e;
    }
    let quoted = e.message.split('\'').skip(1).step_by(2);
    let whole = text.trim();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let alone = |q: &str, k: usize| !word(text[..k].chars().last()) && !word(text[k + q.len()..].chars().next());
    let at = |q: &str| text.match_indices(q).map(|(k, _)| k).find(|&k| alone(q, k));
    if let Some(k) = quoted.filter(|q| !q.is_empty() && *q != whole).find_map(at) {
        e.offset = k;
    }
    e
}

fn rows(text: &str) -> Res {
    let (m, a) = split_grouped(text);
    let ins = Ins { m, a, text };
    if let Some(cc) = ins.m.strip_prefix("B.") {
        return bcond(&ins, cc);
    }
    if mem::is_atomic(&ins.m) {
        return mem::atomic(&ins);
    }
    let Some((_, sem)) = ROWS.iter().find(|(names, _)| names.contains(&ins.m.as_str())) else {
        return Err(InstrError::unsupported(text));
    };
    match sem {
        F(f) => f(&ins),
        Load(t) => mem::load(&ins, t),
        Store(t) => mem::store(&ins, t),
        StoreCond(t) => mem::store_cond(&ins, t),
        Pair(load, t, ordered) => mem::pair(&ins, *load, t, *ordered),
        Refused(what) => Err(InstrError::new(format!("unsupported instruction '{}': {what}", text.trim()))),
    }
}

fn branch(mut b: B, cond: Option<Cond>, target: &str) -> Res {
    b.ops.push(Op::Branch { cond, target: target.trim().to_string() });
    Ok(b.ops)
}

fn b(ins: &Ins) -> Res {
    let [l] = ins.a.as_slice() else { return Err(ins.bad()) };
    branch(B::default(), None, l)
}

/// `B.cond label`: a branch on the flags (herd's `condition_holds`).
fn bcond(ins: &Ins, cc: &str) -> Res {
    let [l] = ins.a.as_slice() else { return Err(ins.bad()) };
    let mut b = B::default();
    let cond = match b.cond(cc)? {
        Src::Imm(_) => None,
        c => Some(Cond { op: BinOp::Ne, a: c, b: Src::Imm(0) }),
    };
    branch(b, cond, l)
}

/// `BL label`: X30 gets the return address, then a branch (resolved with the layout of
/// the code, `events::flow`).
fn bl(ins: &Ins) -> Res {
    let [l] = ins.a.as_slice() else { return Err(ins.bad()) };
    Ok(vec![Op::Link("X30".into()), Op::Branch { cond: None, target: l.trim().to_string() }])
}

/// `BR Xn`, `BLR Xn` (X30 gets the return address), `RET` (to X30) and `RET Xn`: a branch
/// to the code address the register holds.
fn indirect(ins: &Ins) -> Res {
    let n = match (ins.m.as_str(), ins.a.as_slice()) {
        ("RET", []) => "X30".to_string(),
        (_, [n]) => {
            let n = r(n)?;
            if n.w || n.x == ZR {
                return Err(ins.bad());
            }
            n.x
        }
        _ => return Err(ins.bad()),
    };
    if ins.m != "BLR" {
        return Ok(vec![Op::Jump(n)]);
    }
    if n == "X30" {
        return Err(InstrError::new(format!("unsupported instruction '{}': BLR on the link register", ins.text.trim())));
    }
    Ok(vec![Op::Link("X30".into()), Op::Jump(n)])
}

/// `ADR Xd,label`: the label as a value.
fn adr(ins: &Ins) -> Res {
    let [d, l] = ins.a.as_slice() else { return Err(ins.bad()) };
    let d = r(d)?;
    if d.w || d.x == ZR {
        return Err(ins.bad());
    }
    // herd 7.58 wants a label here, not an offset (`ADR X1,.+0` is its user error).
    if l.trim().starts_with('.') {
        return Err(InstrError::new(format!("unsupported: an offset as ADR's operand, '{}' (herd: replace the offset by a label)", l.trim())));
    }
    Ok(vec![Op::LabelOf { dst: d.x, label: l.trim().to_string() }])
}

/// `UDF #imm`: herd's undefined-instruction fault, `ELR_EL1` getting the instruction's own
/// address; the thread ends there (herd's default `fatal` handling, no handler code).
fn udf(ins: &Ins) -> Res {
    let [k] = ins.a.as_slice() else { return Err(ins.bad()) };
    imm_in(k, 0, 0xffff)?;
    let tags = vec!["FAULT".into(), "FAULT-RD".into(), "EXC-ENTRY".into(), "UndefinedInstruction".into()];
    Ok(vec![
        Op::Fault { ftype: "UndefinedInstruction".into(), tags, labels: Vec::new(), at: None },
        Op::LabelOf { dst: "ELR_EL1".into(), label: ".+0".into() },
        Op::Exit,
    ])
}

/// `SVC #imm`: herd's supervisor call, `ELR_EL1` getting the return address and `ESR_EL1`
/// the syndrome (class 0b010101, IL set, the immediate); the thread ends there, as for
/// [`udf`].
fn svc(ins: &Ins) -> Res {
    let [k] = ins.a.as_slice() else { return Err(ins.bad()) };
    let k = imm_in(k, 0, 0xffff)?;
    let tags = vec!["FAULT".into(), "FAULT-RD".into(), "EXC-ENTRY".into(), "SVC".into()];
    Ok(vec![
        Op::Fault { ftype: "SupervisorCall".into(), tags, labels: Vec::new(), at: None },
        Op::Link("ELR_EL1".into()),
        Op::Mov { dst: "ESR_EL1".into(), src: Src::Imm((0b010_1011 << 25) | k) },
        Op::Exit,
    ])
}

fn cbz(ins: &Ins) -> Res {
    let [t, l] = ins.a.as_slice() else { return Err(ins.bad()) };
    let mut b = B::default();
    let v = b.read(&r(t)?);
    let op = if ins.m == "CBZ" { BinOp::Eq } else { BinOp::Ne };
    branch(b, Some(Cond { op, a: v, b: Src::Imm(0) }), l)
}

fn tbz(ins: &Ins) -> Res {
    let [t, bit, l] = ins.a.as_slice() else { return Err(ins.bad()) };
    let t = r(t)?;
    let bit = imm_in(bit, 0, t.bits() - 1)?;
    let mut b = B::default();
    let v = b.read(&t);
    let s = b.imm(BinOp::Shr, v, bit);
    let s = b.imm(BinOp::And, s, 1);
    let op = if ins.m == "TBZ" { BinOp::Eq } else { BinOp::Ne };
    branch(b, Some(Cond { op, a: s, b: Src::Imm(0) }), l)
}

const BARRIER_OPTIONS: &[&str] =
    &["SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "OSH", "OSHST", "OSHLD", "NSH", "NSHST", "NSHLD"];

fn barrier(ins: &Ins) -> Res {
    let [opt] = ins.a.as_slice() else { return Err(ins.bad()) };
    let opt = opt.to_ascii_uppercase();
    if !BARRIER_OPTIONS.contains(&opt.as_str()) {
        return Err(InstrError::new(format!("unsupported barrier option '{opt}'")));
    }
    Ok(vec![Op::Fence { tags: vec![format!("{}.{opt}", ins.m).into()] }])
}

fn isb(ins: &Ins) -> Res {
    match ins.a.as_slice() {
        [] => Ok(vec![Op::Fence { tags: vec!["ISB".into()] }]),
        [s] if s.eq_ignore_ascii_case("SY") => Ok(vec![Op::Fence { tags: vec!["ISB".into()] }]),
        _ => Err(ins.bad()),
    }
}

fn nop(ins: &Ins) -> Res {
    if ins.a.is_empty() { Ok(Vec::new()) } else { Err(ins.bad()) }
}
