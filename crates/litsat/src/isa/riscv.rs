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
        let (m, ops) = split_operands(text);
        let bad = || InstrError::unsupported(text);
        let parts: Vec<&str> = m.split('.').collect();
        let base = parts[0];
        let sfx = &parts[1..];
        // The `…w` forms compute on 32 bits and sign-extend the result.
        let word = base.ends_with('w') && base != "sw";
        let bin = |op: BinOp, d: &str, a: &str, b: Src| -> Result<Vec<Op>, InstrError> {
            let dst = r(d)?;
            let mut ops = vec![Op::Bin { dst: dst.clone(), op, a: rs(a)?, b }];
            if word {
                ops.push(Op::Bin { dst: dst.clone(), op: BinOp::Sext, a: Src::Reg(dst), b: Src::Imm(32) });
            }
            Ok(ops)
        };
        let z = || "x0".to_string();
        match (base, ops.as_slice()) {
            ("lb" | "lh" | "lw" | "ld" | "lbu" | "lhu" | "lwu", [d, a]) => {
                // Narrow loads extend the low bits of the location's value.
                let dst = r(d)?;
                let mut ops = vec![Op::Load { dst: dst.clone(), addr: mem(a)?, tags: annotation(sfx) }];
                let (bits, op) = match base {
                    "lb" => (8, BinOp::Sext),
                    "lh" => (16, BinOp::Sext),
                    "lw" => (32, BinOp::Sext),
                    "lbu" => (8, BinOp::Zext),
                    "lhu" => (16, BinOp::Zext),
                    "lwu" => (32, BinOp::Zext),
                    _ => (64, BinOp::Zext),
                };
                if bits < 64 {
                    ops.push(Op::Bin { dst: dst.clone(), op, a: Src::Reg(dst), b: Src::Imm(bits) });
                }
                Ok(ops)
            }
            ("sb" | "sh" | "sw" | "sd", [s, a]) => {
                // Narrow stores keep the low bits.
                let bits = match base {
                    "sb" => 8,
                    "sh" => 16,
                    "sw" => 32,
                    _ => 64,
                };
                if bits == 64 {
                    return Ok(vec![Op::Store { addr: mem(a)?, src: rs(s)?, tags: annotation(sfx), when: None }]);
                }
                Ok(vec![
                    Op::Bin { dst: "%st".into(), op: BinOp::Zext, a: rs(s)?, b: Src::Imm(bits) },
                    Op::Store { addr: mem(a)?, src: Src::Reg("%st".into()), tags: annotation(sfx), when: None },
                ])
            }
            ("lr", [d, a]) => {
                let mut tags = annotation(&sfx[1.min(sfx.len())..]);
                tags.push("EX".into());
                Ok(vec![Op::Load { dst: r(d)?, addr: mem(a)?, tags }])
            }
            ("sc", [d, s, a]) => {
                let mut tags = annotation(&sfx[1.min(sfx.len())..]);
                tags.push("EX".into());
                Ok(vec![Op::StoreCond { addr: mem(a)?, src: rs(s)?, tags, status: Some(r(d)?), ok: 0, fail: 1, second: None }])
            }
            (amo, [d, s, a]) if amo.starts_with("amo") => {
                let mut tags = annotation(&sfx[1.min(sfx.len())..]);
                tags.push("X".into());
                let addr = mem(a)?;
                let old = "%old".to_string();
                let new = "%new".to_string();
                let src = rs(s)?;
                let compute = match &amo[3..] {
                    "swap" => Op::Mov { dst: new.clone(), src: src.clone() },
                    "add" => Op::Bin { dst: new.clone(), op: BinOp::Add, a: Src::Reg(old.clone()), b: src.clone() },
                    "and" => Op::Bin { dst: new.clone(), op: BinOp::And, a: Src::Reg(old.clone()), b: src.clone() },
                    "or" => Op::Bin { dst: new.clone(), op: BinOp::Or, a: Src::Reg(old.clone()), b: src.clone() },
                    "xor" => Op::Bin { dst: new.clone(), op: BinOp::Xor, a: Src::Reg(old.clone()), b: src.clone() },
                    k @ ("max" | "min" | "maxu" | "minu") => {
                        let op = match k {
                            "max" => BinOp::Gt,
                            "min" => BinOp::Lt,
                            "maxu" => BinOp::Geu,
                            _ => BinOp::Ltu,
                        };
                        Op::Select {
                            dst: new.clone(),
                            cond: Cond { op, a: Src::Reg(old.clone()), b: src.clone() },
                            a: Src::Reg(old.clone()),
                            b: src.clone(),
                        }
                    }
                    _ => return Err(bad()),
                };
                Ok(vec![
                    Op::Load { dst: old.clone(), addr: addr.clone(), tags: tags.clone() },
                    compute,
                    Op::Store { addr, src: Src::Reg(new), tags, when: None },
                    Op::Mov { dst: r(d)?, src: Src::Reg(old) },
                ])
            }
            ("li", [d, i]) => Ok(vec![Op::Mov { dst: r(d)?, src: Src::Imm(imm(i)?) }]),
            ("lui", [d, i]) => Ok(vec![Op::Mov { dst: r(d)?, src: Src::Imm(imm(i)? << 12) }]),
            ("mv", [d, s]) => Ok(vec![Op::Mov { dst: r(d)?, src: rs(s)? }]),
            ("sext", [d, s]) if sfx == ["w"] => {
                Ok(vec![Op::Bin { dst: r(d)?, op: BinOp::Sext, a: rs(s)?, b: Src::Imm(32) }])
            }
            ("nop", []) => Ok(vec![]),
            ("ori", [d, a, i]) => bin(BinOp::Or, d, a, Src::Imm(imm(i)?)),
            ("addi" | "addiw", [d, a, i]) => bin(BinOp::Add, d, a, Src::Imm(imm(i)?)),
            ("xori", [d, a, i]) => bin(BinOp::Xor, d, a, Src::Imm(imm(i)?)),
            ("andi", [d, a, i]) => bin(BinOp::And, d, a, Src::Imm(imm(i)?)),
            ("slli" | "slliw", [d, a, i]) => bin(BinOp::Shl, d, a, Src::Imm(imm(i)?)),
            ("srli" | "srliw", [d, a, i]) => bin(BinOp::Shr, d, a, Src::Imm(imm(i)?)),
            ("add" | "addw", [d, a, b]) => bin(BinOp::Add, d, a, rs(b)?),
            ("sub" | "subw", [d, a, b]) => bin(BinOp::Sub, d, a, rs(b)?),
            ("xor", [d, a, b]) => bin(BinOp::Xor, d, a, rs(b)?),
            ("and", [d, a, b]) => bin(BinOp::And, d, a, rs(b)?),
            ("or", [d, a, b]) => bin(BinOp::Or, d, a, rs(b)?),
            ("sll" | "sllw", [d, a, b]) => bin(BinOp::Shl, d, a, rs(b)?),
            ("srl" | "srlw", [d, a, b]) => bin(BinOp::Shr, d, a, rs(b)?),
            ("mul" | "mulw", [d, a, b]) => bin(BinOp::Mul, d, a, rs(b)?),
            ("slt", [d, a, b]) => bin(BinOp::Lt, d, a, rs(b)?),
            ("sltu", [d, a, b]) => bin(BinOp::Ltu, d, a, rs(b)?),
            ("beq", [a, b, l]) => Ok(branch(cond(BinOp::Eq, a, b)?, l)),
            ("bne", [a, b, l]) => Ok(branch(cond(BinOp::Ne, a, b)?, l)),
            ("blt", [a, b, l]) => Ok(branch(cond(BinOp::Lt, a, b)?, l)),
            ("bge", [a, b, l]) => Ok(branch(cond(BinOp::Ge, a, b)?, l)),
            ("bltu", [a, b, l]) => Ok(branch(cond(BinOp::Ltu, a, b)?, l)),
            ("bgeu", [a, b, l]) => Ok(branch(cond(BinOp::Geu, a, b)?, l)),
            ("beqz", [a, l]) => Ok(branch(cond(BinOp::Eq, a, &z())?, l)),
            ("bnez", [a, l]) => Ok(branch(cond(BinOp::Ne, a, &z())?, l)),
            ("j", [l]) => Ok(vec![Op::Branch { cond: None, target: l.trim().to_string() }]),
            ("fence", []) if sfx.is_empty() => Ok(vec![Op::Fence { tags: vec!["Fence.rw.rw".into()] }]),
            ("fence", [p, s]) if sfx.is_empty() => {
                let (p, s) = (fence_set(p).ok_or_else(bad)?, fence_set(s).ok_or_else(bad)?);
                Ok(vec![Op::Fence { tags: vec![format!("Fence.{p}.{s}").into()] }])
            }
            ("fence", []) if sfx == ["tso"] => Ok(vec![Op::Fence { tags: vec!["Fence.tso".into()] }]),
            ("fence", []) if sfx == ["i"] => Ok(vec![Op::Fence { tags: vec!["Fence.i".into()] }]),
            _ => Err(bad()),
        }
    }
}
