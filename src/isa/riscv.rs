//! RISC-V (RV32/RV64 integer), as in herd's `RISCV` tests.

use super::*;

pub struct RiscV;

const ABI: &[&str] = &[
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
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

fn reg_or_err(s: &str) -> Result<Reg, InstrError> {
    reg(s).ok_or_else(|| InstrError::new(format!("expected a register, found '{s}'")))
}

fn imm_or_err(s: &str) -> Result<i64, InstrError> {
    parse_imm(s).ok_or_else(|| InstrError::new(format!("expected an immediate, found '{s}'")))
}

/// `off(reg)`.
fn mem(s: &str) -> Result<Addr, InstrError> {
    let s = s.trim();
    let open = s
        .find('(')
        .ok_or_else(|| InstrError::new(format!("expected `offset(register)`, found '{s}'")))?;
    let close = s
        .rfind(')')
        .ok_or_else(|| InstrError::new(format!("expected `)` in '{s}'")))?;
    let off = if open == 0 {
        0
    } else {
        imm_or_err(&s[..open])?
    };
    Ok(Addr::Reg(reg_or_err(&s[open + 1..close])?, off))
}

fn fence_set(s: &str) -> Option<&'static str> {
    match s.trim() {
        "r" => Some("r"),
        "w" => Some("w"),
        "rw" => Some("rw"),
        _ => None,
    }
}

impl Isa for RiscV {
    fn name(&self) -> &'static str {
        "RISCV"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn reg_index(&self, r: &str) -> usize {
        r.trim_start_matches('x').parse().unwrap_or(usize::MAX)
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
        let (m, ops) = split_operands(text);
        let bad = || InstrError::unsupported(text);
        let binop = |op: BinOp, d: &str, a: &str, b: Src| -> Result<Vec<Op>, InstrError> {
            Ok(vec![Op::Bin {
                dst: reg_or_err(d)?,
                op,
                a: Src::Reg(reg_or_err(a)?),
                b,
            }])
        };
        match (m.as_str(), ops.as_slice()) {
            ("lw" | "ld" | "lb" | "lh" | "lwu" | "lbu" | "lhu", [d, a]) => Ok(vec![Op::Load {
                dst: reg_or_err(d)?,
                addr: mem(a)?,
                tags: vec![],
            }]),
            ("sw" | "sd" | "sb" | "sh", [s, a]) => Ok(vec![Op::Store {
                addr: mem(a)?,
                src: Src::Reg(reg_or_err(s)?),
                tags: vec![],
            }]),
            ("li", [d, i]) => Ok(vec![Op::Mov {
                dst: reg_or_err(d)?,
                src: Src::Imm(imm_or_err(i)?),
            }]),
            ("mv", [d, s]) => Ok(vec![Op::Mov {
                dst: reg_or_err(d)?,
                src: Src::Reg(reg_or_err(s)?),
            }]),
            ("ori", [d, a, i]) => binop(BinOp::Or, d, a, Src::Imm(imm_or_err(i)?)),
            ("addi" | "addiw", [d, a, i]) => binop(BinOp::Add, d, a, Src::Imm(imm_or_err(i)?)),
            ("xori", [d, a, i]) => binop(BinOp::Xor, d, a, Src::Imm(imm_or_err(i)?)),
            ("andi", [d, a, i]) => binop(BinOp::And, d, a, Src::Imm(imm_or_err(i)?)),
            ("add" | "addw", [d, a, b]) => binop(BinOp::Add, d, a, Src::Reg(reg_or_err(b)?)),
            ("sub" | "subw", [d, a, b]) => binop(BinOp::Sub, d, a, Src::Reg(reg_or_err(b)?)),
            ("xor", [d, a, b]) => binop(BinOp::Xor, d, a, Src::Reg(reg_or_err(b)?)),
            ("and", [d, a, b]) => binop(BinOp::And, d, a, Src::Reg(reg_or_err(b)?)),
            ("or", [d, a, b]) => binop(BinOp::Or, d, a, Src::Reg(reg_or_err(b)?)),
            ("fence", []) => Ok(vec![Op::Fence {
                tags: vec!["Fence.rw.rw".into()],
            }]),
            ("fence", [p, s]) => {
                let (p, s) = (fence_set(p).ok_or_else(bad)?, fence_set(s).ok_or_else(bad)?);
                Ok(vec![Op::Fence {
                    tags: vec![format!("Fence.{p}.{s}")],
                }])
            }
            ("fence.tso", []) => Ok(vec![Op::Fence {
                tags: vec!["Fence.tso".into()],
            }]),
            ("fence.i", []) => Ok(vec![Op::Fence {
                tags: vec!["Fence.i".into()],
            }]),
            _ => Err(bad()),
        }
    }
}
