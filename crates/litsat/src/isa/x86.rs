//! X86 in Intel syntax, as in herd's `X86` tests, and the instruction semantics shared
//! with the AT&T-syntax `X86_64` plug-in.

use super::*;

pub struct X86;

const REGS: &[&str] = &["EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"];

fn reg(s: &str) -> Option<Reg> {
    let u = s.trim().to_ascii_uppercase();
    REGS.contains(&u.as_str()).then_some(u)
}

/// An x86 operand, whatever the syntax.
#[derive(Clone, Debug)]
pub enum Opnd {
    Reg(Reg),
    Imm(i64),
    Mem(Addr),
    Label(String),
}

/// The two values the last comparison compared, which a conditional branch compares again.
pub const FLAG_A: &str = "%fa";
pub const FLAG_B: &str = "%fb";

fn src_of(o: &Opnd) -> Result<Src, InstrError> {
    match o {
        Opnd::Reg(r) => Ok(Src::Reg(r.clone())),
        Opnd::Imm(i) => Ok(Src::Imm(*i)),
        _ => Err(InstrError::new("expected a register or an immediate")),
    }
}

fn reg_of(o: &Opnd) -> Result<Reg, InstrError> {
    match o {
        Opnd::Reg(r) => Ok(r.clone()),
        _ => Err(InstrError::new("expected a register")),
    }
}

fn arith(m: &str) -> Option<BinOp> {
    Some(match m {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "xor" => BinOp::Xor,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "shl" | "sal" => BinOp::Shl,
        "shr" => BinOp::Shr,
        _ => return None,
    })
}

/// Read-modify-write of memory: `[a] = f(old)`, atomic (tagged `X`) when locked.
fn rmw(addr: &Addr, locked: bool, compute: Op, result: Option<(Reg, &str)>) -> Vec<Op> {
    let tags: Vec<Tag> = if locked { vec!["X".into()] } else { vec![] };
    let mut ops = vec![
        Op::Load { dst: "%old".into(), addr: addr.clone(), tags: tags.clone() },
        compute,
        Op::Store { addr: addr.clone(), src: Src::Reg("%new".into()), tags, when: None },
    ];
    if let Some((r, from)) = result {
        ops.push(Op::Mov { dst: r, src: Src::Reg(from.into()) });
    }
    ops
}

/// The semantics of one x86 instruction, operands in Intel order (destination first);
/// `acc` names the accumulator that `cmpxchg` compares with and loads (`EAX` in X86,
/// `rax` in X86_64, whose registers have other names).
pub fn semantics(m: &str, locked: bool, ops: &[Opnd], text: &str, acc: &str) -> Result<Vec<Op>, InstrError> {
    let bad = || InstrError::unsupported(text);
    let old = || Src::Reg("%old".into());
    let cond_branch = |op: BinOp, l: &Opnd| -> Result<Vec<Op>, InstrError> {
        let Opnd::Label(t) = l else { return Err(bad()) };
        Ok(vec![Op::Branch {
            cond: Some(Cond { op, a: Src::Reg(FLAG_A.into()), b: Src::Reg(FLAG_B.into()) }),
            target: t.clone(),
        }])
    };
    match (m, ops) {
        ("mfence", []) => Ok(vec![Op::Fence { tags: vec!["MFENCE".into()] }]),
        ("sfence", []) => Ok(vec![Op::Fence { tags: vec!["SFENCE".into()] }]),
        ("lfence", []) => Ok(vec![Op::Fence { tags: vec!["LFENCE".into()] }]),
        ("nop" | "endbr64", _) => Ok(vec![]),
        ("ret", _) => Ok(vec![Op::Exit]),
        ("mov", [Opnd::Mem(a), s]) => {
            Ok(vec![Op::Store { addr: a.clone(), src: src_of(s)?, tags: vec![], when: None }])
        }
        ("mov", [Opnd::Reg(d), Opnd::Mem(a)]) => Ok(vec![Op::Load { dst: d.clone(), addr: a.clone(), tags: vec![] }]),
        ("mov", [Opnd::Reg(d), s]) => Ok(vec![Op::Mov { dst: d.clone(), src: src_of(s)? }]),
        ("xchg", [Opnd::Mem(a), Opnd::Reg(r)] | [Opnd::Reg(r), Opnd::Mem(a)]) => {
            Ok(rmw(a, true, Op::Mov { dst: "%new".into(), src: Src::Reg(r.clone()) }, Some((r.clone(), "%old"))))
        }
        ("xchg", [Opnd::Reg(a), Opnd::Reg(b)]) => Ok(vec![
            Op::Mov { dst: "%t".into(), src: Src::Reg(a.clone()) },
            Op::Mov { dst: a.clone(), src: Src::Reg(b.clone()) },
            Op::Mov { dst: b.clone(), src: Src::Reg("%t".into()) },
        ]),
        ("xadd", [Opnd::Mem(a), Opnd::Reg(r)]) => Ok(rmw(
            a,
            locked,
            Op::Bin { dst: "%new".into(), op: BinOp::Add, a: old(), b: Src::Reg(r.clone()) },
            Some((r.clone(), "%old")),
        )),
        ("cmpxchg", [Opnd::Mem(a), Opnd::Reg(r)]) => {
            let tags: Vec<Tag> = if locked { vec!["X".into()] } else { vec![] };
            let eq = Cond { op: BinOp::Eq, a: old(), b: Src::Reg(acc.into()) };
            Ok(vec![
                Op::Load { dst: "%old".into(), addr: a.clone(), tags: tags.clone() },
                Op::Store { addr: a.clone(), src: Src::Reg(r.clone()), tags, when: Some(eq) },
                Op::Mov { dst: acc.into(), src: old() },
            ])
        }
        ("inc" | "dec", [Opnd::Mem(a)]) => {
            let op = if m == "inc" { BinOp::Add } else { BinOp::Sub };
            Ok(rmw(a, locked, Op::Bin { dst: "%new".into(), op, a: old(), b: Src::Imm(1) }, None))
        }
        ("inc" | "dec", [Opnd::Reg(r)]) => {
            let op = if m == "inc" { BinOp::Add } else { BinOp::Sub };
            Ok(vec![Op::Bin { dst: r.clone(), op, a: Src::Reg(r.clone()), b: Src::Imm(1) }])
        }
        (m, [Opnd::Mem(a), s]) if arith(m).is_some() => {
            let op = arith(m).ok_or_else(bad)?;
            Ok(rmw(a, locked, Op::Bin { dst: "%new".into(), op, a: old(), b: src_of(s)? }, None))
        }
        (m, [Opnd::Reg(d), s]) if arith(m).is_some() => {
            let op = arith(m).ok_or_else(bad)?;
            let b = match s {
                Opnd::Mem(a) => {
                    return Ok(vec![
                        Op::Load { dst: "%m".into(), addr: a.clone(), tags: vec![] },
                        Op::Bin { dst: d.clone(), op, a: Src::Reg(d.clone()), b: Src::Reg("%m".into()) },
                    ]);
                }
                s => src_of(s)?,
            };
            Ok(vec![Op::Bin { dst: d.clone(), op, a: Src::Reg(d.clone()), b }])
        }
        ("cmp", [a, b]) => {
            let mut out = Vec::new();
            let mut side = |o: &Opnd, flag: &str| -> Result<(), InstrError> {
                match o {
                    Opnd::Mem(addr) => out.push(Op::Load { dst: flag.into(), addr: addr.clone(), tags: vec![] }),
                    o => out.push(Op::Mov { dst: flag.into(), src: src_of(o)? }),
                }
                Ok(())
            };
            side(a, FLAG_A)?;
            side(b, FLAG_B)?;
            Ok(out)
        }
        ("je" | "jz", [l]) => cond_branch(BinOp::Eq, l),
        ("jne" | "jnz", [l]) => cond_branch(BinOp::Ne, l),
        ("jmp", [Opnd::Label(t)]) => Ok(vec![Op::Branch { cond: None, target: t.clone() }]),
        _ => {
            let _ = reg_of;
            Err(bad())
        }
    }
}

/// Splits an optional `LOCK` prefix off an instruction.
pub fn strip_lock(text: &str) -> (bool, &str) {
    let t = text.trim_start();
    // `get`: a multi-byte character may straddle byte 4.
    if t.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("lock")) && t[4..].starts_with(char::is_whitespace) {
        (true, t[4..].trim_start())
    } else {
        (false, t)
    }
}

fn operand(s: &str) -> Result<Opnd, InstrError> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        let inner = inner.trim();
        return Ok(Opnd::Mem(match reg(inner) {
            Some(r) => Addr::Reg(r, 0),
            None => Addr::Sym(inner.to_string()),
        }));
    }
    if let Some(r) = reg(s) {
        return Ok(Opnd::Reg(r));
    }
    imm_or_label(s)
}

/// The operand forms both syntaxes share: an immediate or a branch label.
pub fn imm_or_label(s: &str) -> Result<Opnd, InstrError> {
    if let Some(i) = parse_imm(s) {
        return Ok(Opnd::Imm(i));
    }
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Ok(Opnd::Label(s.to_string()));
    }
    Err(InstrError::new(format!("expected an operand, found '{s}'")))
}

/// herd's X86 event sets, the same in both syntaxes.
pub const SETS: &[&str] = &["MFENCE", "SFENCE", "LFENCE", "X"];

impl Isa for X86 {
    fn default_model(&self) -> Option<&'static str> {
        Some("tso")
    }
    fn name(&self) -> &'static str {
        "X86"
    }
    fn scalar_bits(&self, _variants: &[String]) -> u32 {
        32
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn reg_index(&self, r: &str) -> usize {
        REGS.iter().position(|&x| x == r).unwrap_or(REGS.len())
    }

    fn known_sets(&self) -> &'static [&'static str] {
        SETS
    }

    fn rmw_sequential(&self) -> bool {
        false
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        let (locked, rest) = strip_lock(text);
        let (m, raw) = split_operands(rest);
        if m.eq_ignore_ascii_case("ret") {
            // X86_64's `ret` (under telechat) shares the semantics; herd's X86 has none.
            return Err(InstrError::unsupported(text));
        }
        let ops = raw.iter().map(|o| operand(o)).collect::<Result<Vec<_>, _>>()?;
        semantics(&m, locked, &ops, text, "EAX")
    }
}
