//! Backward branches, unrolled as herd unrolls them, so that [`crate::events`] only ever
//! sees forward branches.
//!
//! herd follows a thread's control flow path by path and counts, on each path, how often
//! it has jumped back to each target; the jump that would make a target's count exceed
//! `-unroll N` ends the thread with a cut-off instead. Here a thread becomes several
//! copies of its code, one per vector of those counts: a backward branch in the copy for
//! counts `c` becomes a forward branch into the copy for `c` plus one at its target, or,
//! where that count is already `N`, a branch to a block holding [`Op::Cut`] that ends the
//! thread. Copies are laid out by their total count, so every such branch goes forward.
//! The rewrite knows nothing of any architecture: it reads only labels and branches.

use crate::events::Instr;
use crate::isa::Op;
use std::collections::{BTreeMap, HashMap};

/// More instructions than this after unrolling is refused (copies multiply per target).
pub const MAX_UNROLLED: usize = 200_000;

pub mod concrete;

/// The label of the block that cuts a thread off at the loop back to `target`.
fn cut_label(target: &str) -> String {
    format!("%cut:{target}")
}

/// Whether some branch goes to a label at or before it: most threads have no loop, and
/// this tells so without the tables [`thread`] unrolls with.
fn branches_back(code: &[Instr]) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    for ins in code {
        if let Some(l) = &ins.label {
            seen.push(l);
        }
        if branch_targets(ins).any(|t| seen.contains(&t)) {
            return true;
        }
    }
    false
}

/// The thread's code with every backward branch unrolled `unroll` times; the code itself
/// when it has none. `Err` with the unrolled size when it would exceed [`MAX_UNROLLED`].
pub fn thread(code: Vec<Instr>, unroll: usize) -> Result<Vec<Instr>, usize> {
    if !branches_back(&code) {
        return Ok(code);
    }
    let at: HashMap<&str, usize> =
        code.iter().enumerate().rev().filter_map(|(k, i)| i.label.as_deref().map(|l| (l, k))).collect();
    let mut targets: Vec<usize> = Vec::new();
    for (j, ins) in code.iter().enumerate() {
        for t in branch_targets(ins) {
            if let Some(&k) = at.get(t)
                && k <= j
                && !targets.contains(&k)
            {
                targets.push(k);
            }
        }
    }
    if targets.is_empty() {
        return Ok(code);
    }
    targets.sort_unstable();
    let copies = count_vectors(targets.len(), unroll);
    let size = copies.len().saturating_mul(code.len() + 1);
    if size > MAX_UNROLLED {
        return Err(size);
    }
    let index: BTreeMap<&[usize], usize> = copies.iter().enumerate().map(|(k, c)| (c.as_slice(), k)).collect();
    let ctx = Layout { at: &at, targets: &targets, index: &index, unroll };
    let mut out = Vec::with_capacity(size + 2);
    for (k, counts) in copies.iter().enumerate() {
        // A copy other than the first is entered only by a jump back to some target.
        let from = if k == 0 { 0 } else { targets[0] };
        for (j, ins) in code.iter().enumerate().skip(from) {
            out.push(ctx.rename(ins, j, k, counts));
        }
        out.push(Instr { label: None, ops: vec![Op::Exit], text: String::new(), pos: code[code.len() - 1].pos });
    }
    for &t in &targets {
        let Some(target) = code[t].label.clone() else { continue };
        let ops = vec![Op::Cut(target.clone()), Op::Exit];
        out.push(Instr { label: Some(cut_label(&target)), ops, text: String::new(), pos: code[t].pos });
    }
    Ok(out)
}

/// [`thread`], after running the thread's start on the values known before any read
/// (see [`concrete`]): a loop whose condition those decide is laid out in full, as herd
/// runs it, and what follows the run is unrolled as usual.
pub fn thread_known(code: Vec<Instr>, unroll: usize, known: concrete::Known<'_>) -> Result<Vec<Instr>, usize> {
    if !branches_back(&code) {
        return Ok(code);
    }
    let Some((mut trace, stop)) = concrete::run(&code, known, MAX_UNROLLED)? else {
        return thread(code, unroll);
    };
    let Some(j) = stop else { return Ok(trace) };
    let mut code = code;
    let pos = code[j].pos;
    code.insert(j, Instr { label: Some(concrete::ENTER.into()), ops: Vec::new(), text: String::new(), pos });
    let rest = thread(code, unroll)?;
    if trace.len() + rest.len() > MAX_UNROLLED {
        return Err(trace.len() + rest.len());
    }
    // The run goes on into the first copy of the code, where it stopped.
    let enter = rest.iter().find_map(|i| i.label.clone().filter(|l| l.starts_with(concrete::ENTER)));
    if let (Some(enter), Some(last)) = (enter, trace.last_mut()) {
        last.ops = vec![Op::Branch { cond: None, target: enter }];
    }
    trace.extend(rest);
    Ok(trace)
}

/// Every vector of `k` counts, each at most `n`, ordered by their sum (then lexically).
fn count_vectors(k: usize, n: usize) -> Vec<Vec<usize>> {
    let mut all = vec![Vec::new()];
    for _ in 0..k {
        all = all.into_iter().flat_map(|v: Vec<usize>| (0..=n).map(move |x| [v.clone(), vec![x]].concat())).collect();
    }
    all.sort_by_key(|v| (v.iter().sum::<usize>(), v.clone()));
    all
}

fn branch_targets(ins: &Instr) -> impl Iterator<Item = &str> {
    ins.ops.iter().flat_map(|op| {
        let (one, more): (Option<&str>, &[(String, String)]) = match op {
            Op::Branch { target, .. } => (Some(target.as_str()), &[]),
            // A decoded instruction goes to one of its cases' code (`events::ifetch`).
            Op::Decode { cases, other, .. } => (Some(other.as_str()), cases.as_slice()),
            _ => (None, &[]),
        };
        one.into_iter().chain(more.iter().map(|c| c.1.as_str()))
    })
}

struct Layout<'a> {
    at: &'a HashMap<&'a str, usize>,
    targets: &'a [usize],
    index: &'a BTreeMap<&'a [usize], usize>,
    unroll: usize,
}

impl Layout<'_> {
    /// Instruction `j` in copy `k` (for `counts`): labels and forward branches stay in
    /// the copy, backward ones go to the next copy or are cut off.
    fn rename(&self, ins: &Instr, j: usize, k: usize, counts: &[usize]) -> Instr {
        let ops = ins
            .ops
            .iter()
            .map(|op| match op {
                Op::Branch { cond, target } => {
                    Op::Branch { cond: cond.clone(), target: self.target(target, j, k, counts) }
                }
                Op::Decode { src, cases, refused, other } => Op::Decode {
                    src: src.clone(),
                    cases: cases.iter().map(|(v, t)| (v.clone(), self.target(t, j, k, counts))).collect(),
                    refused: refused.clone(),
                    other: self.target(other, j, k, counts),
                },
                op => op.clone(),
            })
            .collect();
        let label = ins.label.as_ref().map(|l| format!("{l}#{k}"));
        Instr { label, ops, text: ins.text.clone(), pos: ins.pos }
    }

    fn target(&self, target: &str, j: usize, k: usize, counts: &[usize]) -> String {
        let Some(&t) = self.at.get(target) else { return target.to_string() };
        if t > j {
            return format!("{target}#{k}");
        }
        let slot = self.targets.iter().position(|&x| x == t).unwrap_or(0);
        if counts[slot] >= self.unroll {
            return cut_label(target);
        }
        let mut next = counts.to_vec();
        next[slot] += 1;
        match self.index.get(next.as_slice()) {
            Some(n) => format!("{target}#{n}"),
            None => cut_label(target),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;
    use crate::isa::{BinOp, Cond, Src};

    fn ins(label: Option<&str>, ops: Vec<Op>) -> Instr {
        Instr { label: label.map(str::to_string), ops, text: String::new(), pos: Pos(0) }
    }

    fn back(target: &str) -> Op {
        let cond = Cond { op: BinOp::Eq, a: Src::Reg("r".into()), b: Src::Imm(0) };
        Op::Branch { cond: Some(cond), target: target.into() }
    }

    /// Two loops one after the other: herd counts jumps per target, so each may repeat
    /// twice whatever the other did: 3 × 3 copies, every branch forward.
    #[test]
    fn counts_are_per_target_and_branches_go_forward() {
        let fence = || Op::Fence { tags: vec![] };
        let code = vec![
            ins(Some("A"), vec![fence()]),
            ins(None, vec![back("A")]),
            ins(Some("B"), vec![fence()]),
            ins(None, vec![back("B")]),
        ];
        let out = thread(code, 2).expect("small");
        let fences = out.iter().filter(|i| matches!(i.ops.first(), Some(Op::Fence { .. }))).count();
        // Each copy starts at the first target, here the first instruction.
        assert_eq!(fences, 9 * 2);
        for (j, i) in out.iter().enumerate() {
            for t in branch_targets(i) {
                let at = out.iter().position(|k| k.label.as_deref() == Some(t)).expect("target placed");
                assert!(at > j, "branch at {j} to {t} at {at} is not forward");
            }
        }
        let cuts: Vec<&Op> = out.iter().flat_map(|i| &i.ops).filter(|op| matches!(op, Op::Cut(_))).collect();
        assert_eq!(cuts, [&Op::Cut("A".into()), &Op::Cut("B".into())], "one cut-off per loop, named by its label");
    }

    #[test]
    fn code_without_backward_branches_is_unchanged() {
        let code = vec![ins(None, vec![back("E")]), ins(Some("E"), vec![])];
        let out = thread(code, 2).expect("small");
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].ops, vec![back("E")]);
    }

    #[test]
    fn unroll_zero_cuts_every_backward_jump() {
        let out = thread(vec![ins(Some("A"), vec![back("A")])], 0).expect("small");
        let Op::Branch { target, .. } = &out[0].ops[0] else { panic!("a branch") };
        assert_eq!(*target, cut_label("A"));
    }
}
