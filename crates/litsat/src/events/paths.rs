//! What a thread's interpretation carries along a path: each register's value with the
//! reads it depends on (and under which path condition), and the joining of two paths
//! where a branch meets the code it skipped.

use super::{Eid, Events, VExpr, ValId, Value};
use crate::isa::Reg;
use crate::logic::Fx;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

/// The reads a value depends on, each with the path condition under which it does (the
/// constant 1 for always).
pub(super) type Deps = BTreeMap<Eid, ValId>;

/// The register contents during interpretation: a value and the reads it depends on.
#[derive(Clone, Debug)]
pub(super) struct Content {
    pub(super) val: ValId,
    pub(super) deps: Deps,
}

impl Content {
    /// A value that depends on no read (a constant, or a register never written).
    pub(super) fn of(val: ValId) -> Content {
        Content { val, deps: Deps::new() }
    }
}

/// The dependencies of a value computed from two others: `a`'s, taken over, and `b`'s.
pub(super) fn dep_union(ev: &mut Events, a: Deps, b: &Deps) -> Deps {
    let mut out = a;
    for (&d, &g) in b {
        let h = match out.get(&d) {
            Some(&f) => ev.or(f, g),
            None => g,
        };
        out.insert(d, h);
    }
    out
}

/// Dependencies that always hold.
pub(super) fn always(ev: &mut Events, ds: impl IntoIterator<Item = Eid>) -> Deps {
    let one = ev.constant(Value::Int(1));
    ds.into_iter().map(|d| (d, one)).collect()
}

impl Events {
    /// Records the dependency `(d, e)` of `addr` (or, `data`) holding where `g` is 1.
    pub(super) fn add_dep(&mut self, data: bool, d: Eid, e: Eid, g: ValId) {
        let (set, when) =
            if data { (&mut self.data, &mut self.data_when) } else { (&mut self.addr, &mut self.addr_when) };
        let known = set.contains(&(d, e));
        set.insert((d, e));
        if self.vals[g] == VExpr::Const(Value::Int(1)) || (known && !when.contains_key(&(d, e))) {
            when.remove(&(d, e));
            return;
        }
        match when.get(&(d, e)).copied() {
            Some(f) => {
                let h = self.or(f, g);
                let when = if data { &mut self.data_when } else { &mut self.addr_when };
                if self.vals[h] == VExpr::Const(Value::Int(1)) {
                    when.remove(&(d, e));
                } else {
                    when.insert((d, e), h);
                }
            }
            None => {
                when.insert((d, e), g);
            }
        }
    }
}

/// Register contents by name, hashed with [`Fx`] (names are short, and looked up at
/// every op); nothing depends on their order.
pub(super) type Regs = HashMap<Reg, Content, BuildHasherDefault<Fx>>;

/// One control-flow path's state: its condition and registers.
#[derive(Clone, Debug)]
pub(super) struct PathState {
    pub(super) guard: ValId,
    pub(super) regs: Regs,
}

/// A register's contents on each of two paths being joined, where it has any.
type Sides = (Option<Content>, Option<Content>);

/// Joins two paths: the guard is the disjunction, registers that differ become
/// `ite(g1, v1, v2)`.
pub(super) fn merge(ev: &mut Events, a: PathState, b: PathState) -> PathState {
    if ev.is_const(a.guard, 0) {
        return b;
    }
    if ev.is_const(b.guard, 0) {
        return a;
    }
    let guard = ev.or(a.guard, b.guard);
    let zero = ev.constant(Value::Int(0));
    // Each register with its contents on either path, sorted by name: the values are
    // interned in that order. (A sorted vector: a thread has a handful of registers.)
    let mut b_regs = b.regs;
    let mut both: Vec<(Reg, Sides)> = Vec::with_capacity(a.regs.len() + b_regs.len());
    for (r, c) in a.regs {
        let cb = b_regs.remove(&r);
        both.push((r, (Some(c), cb)));
    }
    both.extend(b_regs.into_iter().map(|(r, c)| (r, (None, Some(c)))));
    both.sort_unstable_by(|x, y| x.0.cmp(&y.0));
    let mut regs = Regs::with_capacity_and_hasher(both.len(), Default::default());
    for (r, (ca, cb)) in both {
        let (ca, cb) = (ca.unwrap_or(Content::of(zero)), cb.unwrap_or(Content::of(zero)));
        let val = ev.ite(a.guard, ca.val, cb.val);
        ev.joins.insert(val);
        // Dependencies both paths share are kept as they are (what `join_deps` gives
        // them), without building them anew: most registers a branch skips are untouched.
        let deps = if ca.deps == cb.deps { ca.deps } else { join_deps(ev, (a.guard, &ca.deps), (b.guard, &cb.deps)) };
        regs.insert(r, Content { val, deps });
    }
    PathState { guard, regs }
}

/// The dependencies of a register joined from two paths, given each path's guard and
/// dependencies: each path's hold where it is taken; one both paths share (with the same
/// condition) holds as it did.
fn join_deps(ev: &mut Events, (ga, da): (ValId, &Deps), (gb, db): (ValId, &Deps)) -> Deps {
    let zero = ev.constant(Value::Int(0));
    let mut deps = Deps::new();
    let mut reads: Vec<Eid> = da.keys().chain(db.keys()).copied().collect();
    reads.sort_unstable();
    reads.dedup();
    for d in reads {
        let g = match (da.get(&d).copied(), db.get(&d).copied()) {
            (Some(x), Some(y)) if x == y => x,
            (x, y) => {
                let za = x.map_or(zero, |x| ev.and(ga, x));
                let zb = y.map_or(zero, |y| ev.and(gb, y));
                ev.or(za, zb)
            }
        };
        deps.insert(d, g);
    }
    deps
}
