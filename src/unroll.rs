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

/// The label of the block that cuts a thread off.
const CUT: &str = "%cut";

/// The thread's code with every backward branch unrolled `unroll` times; the code itself
/// when it has none. `Err` with the unrolled size when it would exceed [`MAX_UNROLLED`].
pub fn thread(code: Vec<Instr>, unroll: usize) -> Result<Vec<Instr>, usize> {
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
    let pos = code[code.len() - 1].pos;
    out.push(Instr { label: Some(CUT.into()), ops: vec![Op::Cut, Op::Exit], text: String::new(), pos });
    Ok(out)
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
    ins.ops.iter().filter_map(|op| match op {
        Op::Branch { target, .. } => Some(target.as_str()),
        _ => None,
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
            return CUT.to_string();
        }
        let mut next = counts.to_vec();
        next[slot] += 1;
        match self.index.get(next.as_slice()) {
            Some(n) => format!("{target}#{n}"),
            None => CUT.to_string(),
        }
    }
}
