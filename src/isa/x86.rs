//! X86 in Intel syntax, as in herd's `X86` tests.

use super::*;

pub struct X86;

const REGS: &[&str] = &["EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"];

fn reg(s: &str) -> Option<Reg> {
    let u = s.trim().to_ascii_uppercase();
    REGS.contains(&u.as_str()).then_some(u)
}

/// `[x]` or `[EAX]`.
fn mem(s: &str) -> Option<Addr> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?.trim();
    Some(match reg(inner) {
        Some(r) => Addr::Reg(r, 0),
        None => Addr::Sym(inner.to_string()),
    })
}

fn src(s: &str) -> Option<Src> {
    if let Some(r) = reg(s) {
        return Some(Src::Reg(r));
    }
    parse_imm(s).map(Src::Imm)
}

impl Isa for X86 {
    fn name(&self) -> &'static str {
        "X86"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn reg_index(&self, r: &str) -> usize {
        REGS.iter().position(|&x| x == r).unwrap_or(REGS.len())
    }

    fn known_sets(&self) -> &'static [&'static str] {
        &["MFENCE", "SFENCE", "LFENCE", "X"]
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        let (m, ops) = split_operands(text);
        let bad = || InstrError::unsupported(text);
        match (m.as_str(), ops.as_slice()) {
            ("mfence", []) => Ok(vec![Op::Fence {
                tags: vec!["MFENCE".into()],
            }]),
            ("mov", [d, s]) => {
                if let Some(a) = mem(d) {
                    let s = src(s).ok_or_else(bad)?;
                    Ok(vec![Op::Store {
                        addr: a,
                        src: s,
                        tags: vec![],
                        when: None,
                    }])
                } else if let Some(r) = reg(d) {
                    if let Some(a) = mem(s) {
                        Ok(vec![Op::Load {
                            dst: r,
                            addr: a,
                            tags: vec![],
                        }])
                    } else {
                        Ok(vec![Op::Mov {
                            dst: r,
                            src: src(s).ok_or_else(bad)?,
                        }])
                    }
                } else {
                    Err(bad())
                }
            }
            _ => Err(bad()),
        }
    }
}
