//! herd's name `S<n>` for an execution's unsolved value ([`Value::Sym`]).
//!
//! The plug-in's [`HerdVars`] give each read herd's number and its root after herd solves
//! registers; here herd's memory phase is replayed for one execution: its equations
//! `read = write` for the reads holding the unsolved value, from the last read (herd's
//! event order, which follows its numbering) to the first, joined by union by rank where a
//! tie keeps the read's root. The name is the root of the one class this makes; `None`
//! (printed `S`) where something is not modelled or there is more than one class.

use crate::encode::exec::Exec;
use crate::events::{Eid, Events, HerdVars, Kind, VExpr, ValId, Value};
use std::collections::HashMap;

/// The read whose value `v` is in the execution `truth`, through path joins.
fn copied(ev: &Events, x: &Exec, v: ValId, truth: &[bool]) -> Option<Eid> {
    match &ev.vals[v] {
        VExpr::Read(e) => Some(*e),
        VExpr::Ite(c, a, b) => {
            let pick = if x.value_in(*c, truth)? == Value::Int(1) { *a } else { *b };
            copied(ev, x, pick, truth)
        }
        _ => None,
    }
}

/// herd's `Partition`: union by rank, the first argument's root winning a tie.
struct Partition {
    parent: HashMap<usize, usize>,
    rank: HashMap<usize, usize>,
}

impl Partition {
    fn find(&mut self, v: usize) -> usize {
        let p = *self.parent.entry(v).or_insert(v);
        if p == v {
            return v;
        }
        let r = self.find(p);
        self.parent.insert(v, r);
        r
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let (ka, kb) = (self.rank.get(&ra).copied().unwrap_or(0), self.rank.get(&rb).copied().unwrap_or(0));
        if ka > kb {
            self.parent.insert(rb, ra);
        } else if kb > ka {
            self.parent.insert(ra, rb);
        } else {
            self.parent.insert(rb, ra);
            self.rank.insert(ra, ka + 1);
        }
    }
}

/// herd's number for the unsolved value of the execution `truth`.
pub fn name(ev: &Events, x: &Exec, truth: &[bool], hv: &HerdVars) -> Option<usize> {
    // Each happening read's herd number and register-phase root, by its thread's path.
    let mut nums: HashMap<Eid, (usize, Option<usize>)> = HashMap::new();
    for t in &hv.threads {
        let mut bits = 0usize;
        let branches = ev.branch_conds.iter().filter(|(b, _)| ev.events[*b].thread == Some(t.thread));
        for (i, (b, c)) in branches.enumerate() {
            if !x.exists[*b].value(truth) {
                return None;
            }
            if x.value_in(*c, truth)? == Value::Int(0) {
                bits |= 1 << i;
            }
        }
        let reads: Vec<Eid> = (0..ev.len())
            .filter(|&e| {
                let d = &ev.events[e];
                d.thread == Some(t.thread) && d.kind == Kind::Read && x.exists[e].value(truth)
            })
            .collect();
        let path = t.paths.get(bits)?;
        if path.len() != reads.len() {
            return None;
        }
        nums.extend(reads.into_iter().zip(path.iter().copied()));
    }
    // The reads holding the unsolved value, with the read their write copies.
    let mut eqs = Vec::new();
    for (&r, &(n, root)) in &nums {
        if x.value_in(ev.events[r].val, truth) != Some(Value::Sym) {
            continue;
        }
        let w = x.rf.iter().find(|&((_, r2), b)| r2 == r && b.value(truth)).map(|((w, _), _)| w)?;
        let src = copied(ev, x, ev.events[w].val, truth)?;
        eqs.push((n, root?, nums.get(&src)?.1?));
    }
    eqs.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut p = Partition { parent: HashMap::new(), rank: HashMap::new() };
    for &(_, a, b) in &eqs {
        p.union(a, b);
    }
    let roots: std::collections::BTreeSet<usize> = eqs.iter().map(|&(_, a, _)| p.find(a)).collect();
    match roots.into_iter().collect::<Vec<_>>().as_slice() {
        [r] => Some(*r),
        _ => None,
    }
}
