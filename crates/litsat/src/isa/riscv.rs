//! RISC-V (RV32/RV64 integer, A extension), as in herd's `RISCV` tests.

use super::*;

pub struct RiscV;

const ABI: &[&str] = &[
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2",
    "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];

/// herd prints RISC-V registers as `xN`, whatever name the test used.
fn reg(s: &str) -> Option<Reg> {
    let s = s.trim();
    if s == "fp" {
        return Some("x8".into());
    }
    if let Some(k) = ABI.iter().position(|&a| a == s) {
        return Some(format!("x{k}"));
    }
    let n: usize = s.strip_prefix('x')?.parse().ok()?;
    (n < 32).then(|| format!("x{n}"))
}

fn r(s: &str) -> Result<Reg, InstrError> {
    reg(s).ok_or_else(|| InstrError::new(format!("expected a register, found '{s}'")))
}

fn rs(s: &str) -> Result<Src, InstrError> {
    r(s).map(Src::Reg)
}

fn imm(s: &str) -> Result<i64, InstrError> {
    parse_imm(s).ok_or_else(|| InstrError::new(format!("expected an immediate, found '{s}'")))
}

/// `off(reg)` or `(reg)`.
fn mem(s: &str) -> Result<Addr, InstrError> {
    let s = s.trim();
    let open = s.find('(').ok_or_else(|| InstrError::new(format!("expected `offset(register)`, found '{s}'")))?;
    let close = s.rfind(')').ok_or_else(|| InstrError::new(format!("expected `)` in '{s}'")))?;
    let off = if open == 0 { 0 } else { imm(&s[..open])? };
    Ok(Addr::Reg(r(&s[open + 1..close])?, off))
}

/// A fence's access set; the device-I/O bits `i` and `o` order nothing in litmus tests.
fn fence_set(s: &str) -> Option<&'static str> {
    let mem: String = s.trim().chars().filter(|c| *c != 'i' && *c != 'o').collect();
    match mem.as_str() {
        "r" => Some("r"),
        "w" => Some("w"),
        "rw" => Some("rw"),
        _ => None,
    }
}

/// The ordering annotation of `.aq`, `.rl` and `.aq.rl`/`.aqrl` suffixes.
fn annotation(suffixes: &[&str]) -> Vec<Tag> {
    let aq = suffixes.contains(&"aq") || suffixes.contains(&"aqrl");
    let rl = suffixes.contains(&"rl") || suffixes.contains(&"aqrl");
    match (aq, rl) {
        (true, true) => vec!["AcqRel".into()],
        (true, false) => vec!["Acq".into()],
        (false, true) => vec!["Rel".into()],
        _ => vec![],
    }
}

fn cond(op: BinOp, a: &str, b: &str) -> Result<Cond, InstrError> {
    Ok(Cond { op, a: rs(a)?, b: rs(b)? })
}

fn branch(c: Cond, target: &str) -> Vec<Op> {
    vec![Op::Branch { cond: Some(c), target: target.trim().to_string() }]
}

type Res = Result<Vec<Op>, InstrError>;

/// One instruction: its mnemonic without suffixes, its suffixes (`.aq`, `.w`, `.tso`),
/// its operands.
struct Ins<'t> {
    base: &'t str,
    sfx: &'t [&'t str],
    a: &'t [String],
    text: &'t str,
}

impl Ins<'_> {
    fn bad(&self) -> InstrError {
        InstrError::unsupported(self.text)
    }

    /// The operands, as many as the family takes.
    fn args<const N: usize>(&self) -> Result<[&str; N], InstrError> {
        let v: Vec<&str> = self.a.iter().map(String::as_str).collect();
        v.try_into().map_err(|_| self.bad())
    }
}

/// What a row's instructions do.
enum Sem {
    /// A family with its own semantics function.
    F(fn(&Ins) -> Res),
    /// A load of this many bits, extended by this operation (64: no extension).
    Load(i64, BinOp),
    /// A store of this many bits.
    Store(i64),
    /// `op rd, rs, imm`.
    Imm(BinOp),
    /// `op rd, rs1, rs2`.
    Regs(BinOp),
    /// `op rs1, rs2, label`: a branch where `rs1 op rs2`.
    Branch(BinOp),
    /// `op rs, label`: a branch where `rs op 0`.
    BranchZero(BinOp),
}

use Sem::*;

/// The table: one row per family, by mnemonic (suffixes apart).
const ROWS: &[(&[&str], Sem)] = &[
    (&["lb"], Load(8, BinOp::Sext)),
    (&["lh"], Load(16, BinOp::Sext)),
    (&["lw"], Load(32, BinOp::Sext)),
    (&["ld"], Load(64, BinOp::Zext)),
    (&["lbu"], Load(8, BinOp::Zext)),
    (&["lhu"], Load(16, BinOp::Zext)),
    (&["lwu"], Load(32, BinOp::Zext)),
    (&["sb"], Store(8)),
    (&["sh"], Store(16)),
    (&["sw"], Store(32)),
    (&["sd"], Store(64)),
    (&["lr"], F(lr)),
    (&["sc"], F(sc)),
    (&["amoswap", "amoadd", "amoand", "amoor", "amoxor", "amomax", "amomin", "amomaxu", "amominu"], F(amo)),
    (&["li", "lui"], F(li)),
    (&["mv"], F(mv)),
    (&["sext"], F(sext)),
    (&["nop"], F(nop)),
    (&["ori"], Imm(BinOp::Or)),
    (&["addi", "addiw"], Imm(BinOp::Add)),
    (&["xori"], Imm(BinOp::Xor)),
    (&["andi"], Imm(BinOp::And)),
    (&["slli", "slliw"], Imm(BinOp::Shl)),
    (&["srli", "srliw"], Imm(BinOp::Shr)),
    (&["add", "addw"], Regs(BinOp::Add)),
    (&["sub", "subw"], Regs(BinOp::Sub)),
    (&["xor"], Regs(BinOp::Xor)),
    (&["and"], Regs(BinOp::And)),
    (&["or"], Regs(BinOp::Or)),
    (&["sll", "sllw"], Regs(BinOp::Shl)),
    (&["srl", "srlw"], Regs(BinOp::Shr)),
    (&["mul", "mulw"], Regs(BinOp::Mul)),
    (&["slt"], Regs(BinOp::Lt)),
    (&["sltu"], Regs(BinOp::Ltu)),
    (&["beq"], Branch(BinOp::Eq)),
    (&["bne"], Branch(BinOp::Ne)),
    (&["blt"], Branch(BinOp::Lt)),
    (&["bge"], Branch(BinOp::Ge)),
    (&["bltu"], Branch(BinOp::Ltu)),
    (&["bgeu"], Branch(BinOp::Geu)),
    (&["beqz"], BranchZero(BinOp::Eq)),
    (&["bnez"], BranchZero(BinOp::Ne)),
    (&["j"], F(j)),
    (&["fence"], F(fence)),
];

impl Sem {
    fn ops(&self, ins: &Ins) -> Res {
        match *self {
            F(f) => f(ins),
            Load(bits, ext) => load(ins, bits, ext),
            Store(bits) => store(ins, bits),
            Imm(op) => {
                let [d, a, i] = ins.args()?;
                bin(ins, op, d, a, Src::Imm(imm(i)?))
            }
            Regs(op) => {
                let [d, a, b] = ins.args()?;
                bin(ins, op, d, a, rs(b)?)
            }
            Branch(op) => {
                let [a, b, l] = ins.args()?;
                Ok(branch(cond(op, a, b)?, l))
            }
            BranchZero(op) => {
                let [a, l] = ins.args()?;
                Ok(branch(cond(op, a, "x0")?, l))
            }
        }
    }
}

/// `rd = a op b`; the `…w` forms compute on 32 bits and sign-extend the result.
fn bin(ins: &Ins, op: BinOp, d: &str, a: &str, b: Src) -> Res {
    let dst = r(d)?;
    let mut ops = vec![Op::Bin { dst: dst.clone(), op, a: rs(a)?, b }];
    if ins.base.ends_with('w') {
        ops.push(Op::Bin { dst: dst.clone(), op: BinOp::Sext, a: Src::Reg(dst), b: Src::Imm(32) });
    }
    Ok(ops)
}

/// Narrow loads extend the low bits of the location's value.
fn load(ins: &Ins, bits: i64, ext: BinOp) -> Res {
    let [d, a] = ins.args()?;
    let dst = r(d)?;
    let mut ops = vec![Op::Load { dst: dst.clone(), addr: mem(a)?, tags: annotation(ins.sfx) }];
    if bits < 64 {
        ops.push(Op::Bin { dst: dst.clone(), op: ext, a: Src::Reg(dst), b: Src::Imm(bits) });
    }
    Ok(ops)
}

/// Narrow stores keep the low bits.
fn store(ins: &Ins, bits: i64) -> Res {
    let [s, a] = ins.args()?;
    let tags = annotation(ins.sfx);
    if bits == 64 {
        return Ok(vec![Op::Store { addr: mem(a)?, src: rs(s)?, tags, when: None }]);
    }
    Ok(vec![
        Op::Bin { dst: "%st".into(), op: BinOp::Zext, a: rs(s)?, b: Src::Imm(bits) },
        Op::Store { addr: mem(a)?, src: Src::Reg("%st".into()), tags, when: None },
    ])
}

/// The sets of an atomic (`lr.w.aq`: the width, then the ordering), with `extra`.
fn atomic_tags(ins: &Ins, extra: &'static str) -> Vec<Tag> {
    let mut tags = annotation(&ins.sfx[1.min(ins.sfx.len())..]);
    tags.push(Tag::Borrowed(extra));
    tags
}

fn lr(ins: &Ins) -> Res {
    let [d, a] = ins.args()?;
    Ok(vec![Op::Load { dst: r(d)?, addr: mem(a)?, tags: atomic_tags(ins, "EX") }])
}

fn sc(ins: &Ins) -> Res {
    let [d, s, a] = ins.args()?;
    let tags = atomic_tags(ins, "EX");
    Ok(vec![Op::StoreCond { addr: mem(a)?, src: rs(s)?, tags, status: Some(r(d)?), ok: 0, fail: 1, second: None }])
}

/// An AMO: the old value read, the new one computed from it and written, `rd` the old.
fn amo(ins: &Ins) -> Res {
    let [d, s, a] = ins.args()?;
    let tags = atomic_tags(ins, "X");
    let addr = mem(a)?;
    let (old, new) = ("%old".to_string(), "%new".to_string());
    let src = rs(s)?;
    let from_old = |op: BinOp| Op::Bin { dst: new.clone(), op, a: Src::Reg(old.clone()), b: src.clone() };
    let compute = match &ins.base[3..] {
        "swap" => Op::Mov { dst: new.clone(), src: src.clone() },
        "add" => from_old(BinOp::Add),
        "and" => from_old(BinOp::And),
        "or" => from_old(BinOp::Or),
        "xor" => from_old(BinOp::Xor),
        k => {
            let op = match k {
                "max" => BinOp::Gt,
                "min" => BinOp::Lt,
                "maxu" => BinOp::Geu,
                _ => BinOp::Ltu,
            };
            let cond = Cond { op, a: Src::Reg(old.clone()), b: src.clone() };
            Op::Select { dst: new.clone(), cond, a: Src::Reg(old.clone()), b: src.clone() }
        }
    };
    Ok(vec![
        Op::Load { dst: old.clone(), addr: addr.clone(), tags: tags.clone() },
        compute,
        Op::Store { addr, src: Src::Reg(new), tags, when: None },
        Op::Mov { dst: r(d)?, src: Src::Reg(old) },
    ])
}

/// `li rd, imm`, and `lui rd, imm` (the immediate's upper 20 bits).
fn li(ins: &Ins) -> Res {
    let [d, i] = ins.args()?;
    let shift = if ins.base == "lui" { 12 } else { 0 };
    Ok(vec![Op::Mov { dst: r(d)?, src: Src::Imm(imm(i)? << shift) }])
}

fn mv(ins: &Ins) -> Res {
    let [d, s] = ins.args()?;
    Ok(vec![Op::Mov { dst: r(d)?, src: rs(s)? }])
}

/// `sext.w rd, rs` only.
fn sext(ins: &Ins) -> Res {
    let [d, s] = ins.args()?;
    if ins.sfx != ["w"] {
        return Err(ins.bad());
    }
    Ok(vec![Op::Bin { dst: r(d)?, op: BinOp::Sext, a: rs(s)?, b: Src::Imm(32) }])
}

fn nop(ins: &Ins) -> Res {
    let [] = ins.args()?;
    Ok(vec![])
}

fn j(ins: &Ins) -> Res {
    let [l] = ins.args()?;
    Ok(vec![Op::Branch { cond: None, target: l.trim().to_string() }])
}

/// `fence` (both sets `rw`), `fence p, s`, `fence.tso`, `fence.i`.
fn fence(ins: &Ins) -> Res {
    let tag = match (ins.sfx, ins.a) {
        ([], []) => "Fence.rw.rw".to_string(),
        ([], [p, s]) => {
            let (p, s) = (fence_set(p).ok_or_else(|| ins.bad())?, fence_set(s).ok_or_else(|| ins.bad())?);
            format!("Fence.{p}.{s}")
        }
        (["tso"], []) => "Fence.tso".to_string(),
        (["i"], []) => "Fence.i".to_string(),
        _ => return Err(ins.bad()),
    };
    Ok(vec![Op::Fence { tags: vec![tag.into()] }])
}

impl Isa for RiscV {
    fn default_model(&self) -> Option<&'static str> {
        Some("rvwmo")
    }
    fn name(&self) -> &'static str {
        "RISCV"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn reg_index(&self, r: &str) -> usize {
        r.trim_start_matches('x').parse().unwrap_or(usize::MAX)
    }

    fn status_depends_on_store(&self) -> bool {
        true
    }

    fn amo_is_one_operation(&self) -> bool {
        true
    }

    fn zero_reg(&self) -> Option<&'static str> {
        Some("x0")
    }

    fn known_sets(&self) -> &'static [&'static str] {
        &[
            "Fence.r.r",
            "Fence.r.w",
            "Fence.r.rw",
            "Fence.w.r",
            "Fence.w.w",
            "Fence.w.rw",
            "Fence.rw.r",
            "Fence.rw.w",
            "Fence.rw.rw",
            "Fence.tso",
            "Fence.i",
            "X",
            "EX",
            "Acq",
            "Rel",
            "AcqRel",
            "Sc",
        ]
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        let (m, a) = split_operands(text);
        let parts: Vec<&str> = m.split('.').collect();
        let ins = Ins { base: parts[0], sfx: &parts[1..], a: &a, text };
        let Some((_, sem)) = ROWS.iter().find(|(ms, _)| ms.contains(&ins.base)) else {
            return Err(ins.bad());
        };
        sem.ops(&ins)
    }
}
