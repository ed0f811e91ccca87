//! Loops herd runs to their end: a conditional branch whose condition is known when herd
//! builds the thread's events (computed from constants and initial registers only) does
//! not count towards `-unroll`; herd just follows it. So a thread that starts with a loop
//! over a constant counter (`MOV W0,#10` … `SUB W0,W0,#1; CBNZ W0,L0`) runs all of its
//! iterations, however many.
//!
//! Here the thread is run from its start on known values, following every branch whose
//! condition is known, until the first one whose condition is not (it depends on a
//! read), an unconditional backward branch (which herd does count), or the end. The
//! instructions run so far become straight code, each decided branch now going to the
//! next instruction of the run; what follows is the thread's code from where the run
//! stopped, unrolled as usual (`super::thread`). A run that never jumps back changes
//! nothing.

use crate::events::{Instr, Value, apply};
use crate::isa::{Cond, Op, Reg, Src};
use std::collections::HashMap;

/// The registers whose values are known, and the symbols met, each given a number so
/// that [`apply`] compares them as addresses.
pub struct Known<'a> {
    regs: HashMap<Reg, Value>,
    syms: Vec<String>,
    zero: Option<&'a str>,
}

impl<'a> Known<'a> {
    /// The values at the thread's start: `init` (numbers, or symbols: locations and code
    /// labels), 0 elsewhere; `zero` is the ISA's zero register.
    pub fn new(init: impl IntoIterator<Item = (Reg, Result<i64, String>)>, zero: Option<&'a str>) -> Self {
        let mut k = Known { regs: HashMap::new(), syms: Vec::new(), zero };
        for (r, v) in init {
            let v = match v {
                Ok(i) => Value::Int(i),
                Err(s) => k.sym(s),
            };
            k.regs.insert(r, v);
        }
        k
    }

    fn sym(&mut self, s: String) -> Value {
        let at = self.syms.iter().position(|x| *x == s).unwrap_or_else(|| {
            self.syms.push(s);
            self.syms.len() - 1
        });
        Value::Addr(at)
    }

    fn get(&mut self, s: &Src) -> Option<Value> {
        match s {
            Src::Reg(r) if Some(r.as_str()) == self.zero => Some(Value::Int(0)),
            Src::Reg(r) => Some(self.regs.get(r).copied().unwrap_or(Value::Int(0))),
            Src::Imm(i) => Some(Value::Int(*i)),
            Src::Addr(x) => Some(self.sym(x.clone())),
        }
    }

    fn set(&mut self, r: &Reg, v: Option<Value>) {
        if Some(r.as_str()) == self.zero {
            return;
        }
        // A register without a known value is absent; reading it is not 0 then.
        match v {
            Some(v) => self.regs.insert(r.clone(), v),
            None => self.regs.insert(r.clone(), Value::Sym),
        };
    }

    fn value(&mut self, s: &Src) -> Option<Value> {
        self.get(s).filter(|v| *v != Value::Sym)
    }

    fn bin(&mut self, op: crate::isa::BinOp, a: &Src, b: &Src) -> Option<Value> {
        apply(op, self.value(a)?, self.value(b)?)
    }

    /// The condition's value, where known.
    fn cond(&mut self, c: &Cond) -> Option<bool> {
        match self.bin(c.op, &c.a, &c.b)? {
            Value::Int(i) => Some(i != 0),
            _ => None,
        }
    }
}

/// What one instruction does to the run.
enum Step {
    /// On to the next instruction.
    Next,
    /// To the instruction at this index.
    Goto(usize),
    /// The thread ends.
    End,
    /// The run stops before this instruction: something here is not known.
    Stop,
}

/// Runs instruction `ins` (at index `j`) on `k`.
fn step(k: &mut Known<'_>, ins: &Instr, j: usize, at: &HashMap<&str, usize>) -> Step {
    for op in &ins.ops {
        match op {
            Op::Mov { dst, src } => {
                let v = k.value(src);
                k.set(dst, v);
            }
            Op::Bin { dst, op, a, b } => {
                let v = k.bin(*op, a, b);
                k.set(dst, v);
            }
            Op::Select { dst, cond, a, b } => {
                let v = k.cond(cond).and_then(|c| k.value(if c { a } else { b }));
                k.set(dst, v);
            }
            Op::SelectOp { dst, cond, a, b, op, k: imm } => {
                let v = match k.cond(cond) {
                    Some(true) => k.value(a),
                    Some(false) => k.bin(*op, b, &Src::Imm(*imm)),
                    None => None,
                };
                k.set(dst, v);
            }
            Op::Load { dst, .. } | Op::Choose { dst, .. } | Op::Cas { expected: dst, .. } | Op::Fetch { dst, .. } => {
                k.set(dst, None)
            }
            Op::StoreCond { status: Some(dst), .. } | Op::Lock { dst: Some(dst), .. } => k.set(dst, None),
            Op::Branch { cond, target } => {
                let Some(&t) = at.get(target.as_str()) else { return Step::Stop };
                let taken = match cond {
                    // herd counts an unconditional jump back.
                    None if t <= j => return Step::Stop,
                    None => true,
                    Some(c) => match k.cond(c) {
                        Some(taken) => taken,
                        None => return Step::Stop,
                    },
                };
                if taken {
                    return Step::Goto(t);
                }
            }
            Op::Exit => return Step::End,
            // A decoded instruction is chosen by the value its fetch reads.
            Op::Jump(_) | Op::Cut(_) | Op::Decode { .. } => return Step::Stop,
            _ => {}
        }
    }
    Step::Next
}

/// The label of the `s`-th instruction of the run.
fn run_label(s: usize) -> String {
    format!("%run{s}")
}

/// The label the unrolled rest of the code is entered at.
pub const ENTER: &str = "%enter";

/// A run: its instructions, and where it stopped in the code (`None`: the thread ended).
pub type Run = (Vec<Instr>, Option<usize>);

/// The run from the thread's start (see the module's doc): its instructions, each
/// branch going to the next one, and where the run stopped (`None`: the thread ended).
/// `None` when the run never jumps back; `Err` with its length past `max` instructions
/// (herd would run on forever).
pub fn run(code: &[Instr], mut k: Known<'_>, max: usize) -> Result<Option<Run>, usize> {
    let at: HashMap<&str, usize> =
        code.iter().enumerate().rev().filter_map(|(j, i)| i.label.as_deref().map(|l| (l, j))).collect();
    let (mut j, mut back, mut trace) = (0, false, Vec::new());
    let stop = loop {
        let Some(ins) = code.get(j) else { break None };
        let next = match step(&mut k, ins, j, &at) {
            Step::Stop => break Some(j),
            Step::Next => Some(j + 1),
            Step::Goto(t) => {
                back |= t <= j;
                Some(t)
            }
            Step::End => None,
        };
        if trace.len() >= max {
            return Err(trace.len());
        }
        let s = trace.len();
        let ops = ins
            .ops
            .iter()
            .map(|op| match op {
                Op::Branch { cond, .. } => Op::Branch { cond: cond.clone(), target: run_label(s + 1) },
                op => op.clone(),
            })
            .collect();
        trace.push(Instr { label: Some(run_label(s)), ops, text: ins.text.clone(), pos: ins.pos });
        match next {
            Some(n) => j = n,
            None => break None,
        }
    };
    if !back {
        return Ok(None);
    }
    // The next instruction of the run: its last one's branches go there.
    let s = trace.len();
    let pos = code.get(stop.unwrap_or(0)).map_or(crate::diag::Pos(0), |i| i.pos);
    let ops = match stop {
        Some(_) => vec![Op::Branch { cond: None, target: ENTER.to_string() }],
        None => vec![Op::Exit],
    };
    trace.push(Instr { label: Some(run_label(s)), ops, text: String::new(), pos });
    Ok(Some((trace, stop)))
}
