//! What a thread's interpretation carries along a path: each register's value with the
//! reads it depends on (and under which path condition), and the joining of two paths
//! where a branch meets the code it skipped.

use super::{Eid, Events, VExpr, ValId, Value};

/// The reads a value depends on, each with the path condition under which it does (the
/// constant 1 for always), sorted by read: a value depends on a handful, which a vector
/// holds without the nodes a map allocates, and clones in one copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Deps(Vec<(Eid, ValId)>);

impl Deps {
    pub(super) fn new() -> Deps {
        Deps(Vec::new())
    }

    /// The condition under which the value depends on read `d`, if it does.
    pub(super) fn get(&self, d: Eid) -> Option<ValId> {
        self.0.binary_search_by_key(&d, |x| x.0).ok().map(|k| self.0[k].1)
    }

    pub(super) fn contains(&self, d: Eid) -> bool {
        self.get(d).is_some()
    }

    /// Sets the condition of the dependency on read `d`.
    pub(super) fn insert(&mut self, d: Eid, g: ValId) {
        match self.0.binary_search_by_key(&d, |x| x.0) {
            Ok(k) => self.0[k].1 = g,
            Err(k) => self.0.insert(k, (d, g)),
        }
    }

    /// The reads depended on, in order.
    pub(super) fn reads(&self) -> impl Iterator<Item = Eid> + '_ {
        self.0.iter().map(|x| x.0)
    }

    /// The dependencies on reads before `first`, in order.
    pub(super) fn before(&self, first: Eid) -> impl Iterator<Item = (Eid, ValId)> + '_ {
        self.0.iter().copied().take_while(move |x| x.0 < first)
    }
}

/// The register contents during interpretation: a value and the reads it depends on.
#[derive(Clone, Debug)]
pub(super) struct Content {
    pub(super) val: ValId,
    pub(super) deps: Deps,
    /// With register events, the events of the instruction being interpreted that the
    /// value comes from (its register reads, its own memory reads): herd's iico sources.
    /// Meaningful only within that instruction; empty without register events.
    pub(super) src: Vec<Eid>,
}

impl Content {
    /// A value that depends on no read (a constant, or a register never written).
    pub(super) fn of(val: ValId) -> Content {
        Content { val, deps: Deps::new(), src: Vec::new() }
    }
}

/// The union of two sorted lists of source events.
pub(super) fn src_union(mut a: Vec<Eid>, b: &[Eid]) -> Vec<Eid> {
    if b.is_empty() {
        return a;
    }
    a.extend_from_slice(b);
    a.sort_unstable();
    a.dedup();
    a
}

/// The dependencies of a value computed from two others: `a`'s, taken over, and `b`'s.
pub(super) fn dep_union(ev: &mut Events, a: Deps, b: &Deps) -> Deps {
    let mut out = a;
    for &(d, g) in &b.0 {
        let h = match out.get(d) {
            Some(f) => ev.or(f, g),
            None => g,
        };
        out.insert(d, h);
    }
    out
}

/// Dependencies that always hold.
pub(super) fn always(ev: &mut Events, ds: impl IntoIterator<Item = Eid>) -> Deps {
    let one = ev.constant(Value::Int(1));
    let mut deps = Deps::new();
    for d in ds {
        deps.insert(d, one);
    }
    deps
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

/// Register contents, indexed by the thread's register numbers (see
/// `thread::RegNames`): `None` for a register not written or initialised on the path.
pub(super) type Regs = Vec<Option<Content>>;

/// One control-flow path's state: its condition and registers.
#[derive(Clone, Debug)]
pub(super) struct PathState {
    pub(super) guard: ValId,
    pub(super) regs: Regs,
}

/// Joins two paths: the guard is the disjunction, registers that differ become
/// `ite(g1, v1, v2)`. `names` gives the registers' names, in whose order the values are
/// interned.
pub(super) fn merge(ev: &mut Events, a: PathState, b: PathState, names: &[&str]) -> PathState {
    if ev.is_const(a.guard, 0) {
        return b;
    }
    if ev.is_const(b.guard, 0) {
        return a;
    }
    let guard = ev.or(a.guard, b.guard);
    let zero = ev.constant(Value::Int(0));
    let (mut ra, mut rb) = (a.regs, b.regs);
    let n = ra.len().max(rb.len());
    ra.resize(n, None);
    rb.resize(n, None);
    // The registers either path has, sorted by name.
    let mut order: Vec<usize> = (0..n).filter(|&r| ra[r].is_some() || rb[r].is_some()).collect();
    order.sort_unstable_by_key(|&r| names[r]);
    let mut regs: Regs = vec![None; n];
    for r in order {
        let (ca, cb) = (ra[r].take().unwrap_or(Content::of(zero)), rb[r].take().unwrap_or(Content::of(zero)));
        let val = ev.ite(a.guard, ca.val, cb.val);
        ev.joins.insert(val);
        // Dependencies both paths share are kept as they are (what `join_deps` gives
        // them), without building them anew: most registers a branch skips are untouched.
        let deps = if ca.deps == cb.deps { ca.deps } else { join_deps(ev, (a.guard, &ca.deps), (b.guard, &cb.deps)) };
        regs[r] = Some(Content { val, deps, src: Vec::new() });
    }
    PathState { guard, regs }
}

/// The dependencies of a register joined from two paths, given each path's guard and
/// dependencies: each path's hold where it is taken; one both paths share (with the same
/// condition) holds as it did.
fn join_deps(ev: &mut Events, (ga, da): (ValId, &Deps), (gb, db): (ValId, &Deps)) -> Deps {
    let zero = ev.constant(Value::Int(0));
    let mut deps = Deps::new();
    let mut reads: Vec<Eid> = da.reads().chain(db.reads()).collect();
    reads.sort_unstable();
    reads.dedup();
    for d in reads {
        let g = match (da.get(d), db.get(d)) {
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
