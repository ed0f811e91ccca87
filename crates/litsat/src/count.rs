//! Exact projected model counting: how many assignments to a set of variables (the
//! *projection*) extend to a model of a CNF formula.
//!
//! herd's execution counts are such counts: an execution is a choice of the primaries (rf,
//! co, `with` orders, …) that some assignment of the remaining, auxiliary variables
//! completes. Listing the executions one by one costs a solver call each; counting them
//! costs a search whose size depends on the formula's structure, not on the count.
//!
//! The method is DPLL with component decomposition and caching, as sharpSAT, GANAK and d4
//! count: after each decision and its unit propagation, the clauses not yet satisfied fall
//! apart into components that share no variable; the count of the whole is the product of
//! theirs, and a component met again (the same free variables under the same live clauses,
//! which fixes its residual formula) is looked up. Only projected variables are decided
//! while a component has one; a component without projected variables counts 1 if it is
//! satisfiable and 0 if not, so it is searched only to its first model, by plain DPLL
//! without splitting (its auxiliaries are mostly functions of the decided primaries, so
//! the first branch nearly always holds). A projected variable in no live clause doubles
//! the count: a cube where the rest is free. At every node, an auxiliary variable whose
//! live literals have one sign is set to it, as at the start of a count (below): no model
//! of the projection is lost, and residual formulas that differ only in such leftovers
//! meet in the cache.
//!
//! Each count first simplifies under its assumptions what its search will visit:
//! auxiliary variables of one sign are set to it, and the clauses left are cut to their
//! free literals, without tautologies or repeats. In the `co` family this removes a
//! quarter of the clauses, and every node's propagation and splitting scan less.

use crate::logic::Fx;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use varisat::{Lit, Var};

/// Why a count stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The count exceeds `u128`.
    Overflow,
    /// The caller's `tick` asked to stop (a time limit).
    Interrupted,
}

/// How many decisions run between two calls of the caller's `tick`.
const TICK_EVERY: u64 = 1024;

/// At most this many component counts are cached (32 bytes each); past it the cache
/// starts over.
const CACHE_ENTRIES: usize = 1 << 22;

/// The number of assignments to `projection` that extend to a model of the clauses (each
/// a slice of literals over `vars` variables) in which every literal of `assume` holds.
/// `tick` runs now and then and stops the count by returning false.
pub fn projected_count<'c>(
    vars: usize,
    clauses: impl IntoIterator<Item = &'c [Lit]>,
    projection: &[Var],
    assume: &[Lit],
    tick: &mut dyn FnMut() -> bool,
) -> Result<u128, Stop> {
    Counter::new(vars, clauses, projection).count(assume, tick)
}

/// A formula and a projection, counted under any number of assumptions. A component's
/// count depends only on its residual formula, so what one count caches serves the next.
pub struct Counter {
    /// How much of the trail the formula's own unit clauses fill (kept between counts);
    /// `None` where they contradict each other or an empty clause is given.
    root: Option<usize>,
    /// The clauses' literals: all of them, or during a count's search only those free
    /// when it started (see [`Counter::cut`]).
    lits: Vec<Lit>,
    /// Each clause as a range of `lits`.
    clauses: Vec<(u32, u32)>,
    /// For each literal code, the clauses it occurs in (during a search, the live ones).
    occurs: Vec<Vec<u32>>,
    /// The other version of `lits`, `clauses` and `occurs`: the cut one between counts
    /// (its buffers reused), the whole one during a search.
    spare: Cut,
    /// Per variable: 0 free, 1 true, -1 false.
    value: Vec<i8>,
    /// Per clause, how many of its literals are true.
    true_lits: Vec<u32>,
    projected: Vec<bool>,
    /// The projected variables, in order.
    projection: Vec<u32>,
    trail: Vec<Lit>,
    keys: Keys,
    split: Split,
    /// Per variable, its weight in the live clauses of the component being decided
    /// (scratch for [`Counter::pick`], zero between uses).
    score: Vec<u32>,
    cache: HashMap<u128, u128, BuildHasherDefault<Fx>>,
    decisions: u64,
    /// Per variable, the signs of its literals in the live clauses of the component
    /// being split (scratch for [`Counter::set_pure_in`], zero between uses).
    signs: Vec<u8>,
    /// The variables whose `signs` are set (scratch).
    touched: Vec<u32>,
}

impl Counter {
    /// The clauses (over `vars` variables; a literal past them widens the range) and the
    /// variables whose assignments are counted.
    pub fn new<'c>(vars: usize, clauses: impl IntoIterator<Item = &'c [Lit]>, projection: &[Var]) -> Counter {
        let mut lits = Vec::new();
        let mut ranges = Vec::new();
        for clause in clauses {
            let start = lits.len() as u32;
            lits.extend_from_slice(clause);
            ranges.push((start, lits.len() as u32));
        }
        let used = lits.iter().map(|l| l.var()).chain(projection.iter().copied());
        let vars = used.fold(vars, |n, v| n.max(v.index() + 1));
        let mut occurs = vec![Vec::new(); 2 * vars];
        for (k, &(a, b)) in ranges.iter().enumerate() {
            for l in &lits[a as usize..b as usize] {
                occurs[l.code()].push(k as u32);
            }
        }
        let mut projected = vec![false; vars];
        for v in projection {
            projected[v.index()] = true;
        }
        let keys = Keys::new(vars, ranges.len());
        let mut c = Counter {
            root: None,
            true_lits: vec![0; ranges.len()],
            lits,
            clauses: ranges,
            occurs,
            spare: Cut::default(),
            value: vec![0; vars],
            projection: (0..vars as u32).filter(|&v| projected[v as usize]).collect(),
            projected,
            trail: Vec::new(),
            keys,
            split: Split::new(vars),
            score: vec![0; vars],
            cache: HashMap::default(),
            decisions: 0,
            signs: vec![0; vars],
            touched: Vec::new(),
        };
        // An empty clause holds nowhere; unit clauses are propagated once, for every count.
        let units: Vec<Lit> = c.clauses.iter().filter(|r| r.1 - r.0 == 1).map(|r| c.lits[r.0 as usize]).collect();
        let consistent = !c.clauses.iter().any(|r| r.0 == r.1) && units.iter().all(|&l| c.assign(l));
        c.root = consistent.then_some(c.trail.len());
        c
    }

    /// The count under `assume` (literals over the counter's variables).
    pub fn count(&mut self, assume: &[Lit], tick: &mut dyn FnMut() -> bool) -> Result<u128, Stop> {
        let Some(root) = self.root else { return Ok(0) };
        let n = if assume.iter().all(|&l| self.assign(l)) {
            self.set_pure();
            let live = self.cut();
            let projection = std::mem::take(&mut self.projection);
            // What the search assigns is undone under the cut formula it was made in.
            let mark = self.trail.len();
            let n = self.residual(&live, &projection, tick);
            self.undo(mark);
            self.projection = projection;
            self.swap_cut();
            n
        } else {
            Ok(0)
        };
        self.undo(root);
        n
    }

    /// Sets each auxiliary variable whose literals in live clauses all have one sign to
    /// that sign, until none is left: the clauses it satisfies go, and no model of the
    /// projection is lost, since any model stays one with the variable so set.
    fn set_pure(&mut self) {
        let mut seen = vec![0u8; self.value.len()];
        loop {
            seen.fill(0);
            for k in 0..self.clauses.len() as u32 {
                if self.satisfied(k) {
                    continue;
                }
                for &l in self.clause(k) {
                    if self.value[l.index()] == 0 {
                        seen[l.index()] |= if l.is_negative() { 2 } else { 1 };
                    }
                }
            }
            let pure: Vec<Lit> = (0..self.value.len())
                .filter(|&v| !self.projected[v] && (seen[v] == 1 || seen[v] == 2))
                .map(|v| Var::from_index(v).lit(seen[v] == 1))
                .collect();
            if pure.is_empty() {
                return;
            }
            for l in pure {
                let ok = self.assign(l);
                debug_assert!(ok, "a pure literal conflicts with nothing");
            }
        }
    }

    /// Cuts the formula to what the search under the current assignment visits: the
    /// clauses not yet satisfied, each cut to its free literals (sorted, once each), in
    /// the occurrence lists of those literals; a cut clause that holds anyway (`x ∨ ¬x`) or
    /// that an earlier one repeats (a fifth of them, in the `co` family: `¬a ∨ ¬b ∨ e`
    /// and `¬a ∨ ¬c ∨ e` under `b` and `c`) is left out. Propagation and splitting then
    /// skip what this count never changes. Returns the clauses kept;
    /// [`Counter::swap_cut`] undoes it.
    fn cut(&mut self) -> Vec<u32> {
        let mut cut = std::mem::take(&mut self.spare);
        cut.lits.clear();
        cut.clauses.clear();
        cut.clauses.resize(self.clauses.len(), (0, 0));
        cut.occurs.resize(self.occurs.len(), Vec::new());
        cut.occurs.iter_mut().for_each(Vec::clear);
        let mut first: HashMap<u64, u32, BuildHasherDefault<Fx>> = HashMap::default();
        let mut live = Vec::new();
        let mut clause: Vec<Lit> = Vec::new();
        for k in (0..self.clauses.len() as u32).filter(|&k| !self.satisfied(k)) {
            clause.clear();
            clause.extend(self.clause(k).iter().filter(|l| self.value[l.index()] == 0));
            clause.sort_unstable_by_key(|l| l.code());
            clause.dedup();
            let tautology = clause.windows(2).any(|w| w[0].index() == w[1].index());
            let hash = clause.iter().fold(0u64, |h, l| (h.rotate_left(5) ^ l.code() as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95));
            let repeated = first.get(&hash).is_some_and(|&j| {
                let (a, b) = cut.clauses[j as usize];
                cut.lits[a as usize..b as usize] == clause[..]
            });
            if tautology || repeated {
                continue;
            }
            first.entry(hash).or_insert(k);
            for &l in &clause {
                cut.occurs[l.code()].push(k);
            }
            let start = cut.lits.len() as u32;
            cut.lits.extend_from_slice(&clause);
            cut.clauses[k as usize] = (start, cut.lits.len() as u32);
            live.push(k);
        }
        self.spare = cut;
        self.swap_cut();
        live
    }

    /// Exchanges the formula in use with the spare one (see [`Counter::cut`]).
    fn swap_cut(&mut self) {
        std::mem::swap(&mut self.lits, &mut self.spare.lits);
        std::mem::swap(&mut self.clauses, &mut self.spare.clauses);
        std::mem::swap(&mut self.occurs, &mut self.spare.occurs);
    }

    fn clause(&self, k: u32) -> &[Lit] {
        let (a, b) = self.clauses[k as usize];
        &self.lits[a as usize..b as usize]
    }

    /// The literal's value: 1 true, -1 false, 0 free.
    fn lit_value(&self, l: Lit) -> i8 {
        let v = self.value[l.index()];
        if l.is_negative() { -v } else { v }
    }

    fn satisfied(&self, k: u32) -> bool {
        self.true_lits[k as usize] > 0
    }

    /// Makes `l` true and propagates units; false on a conflict (the trail then holds
    /// what was assigned, for [`Counter::undo`]).
    fn assign(&mut self, l: Lit) -> bool {
        match self.lit_value(l) {
            1 => return true,
            -1 => return false,
            _ => {}
        }
        let mut next = self.trail.len();
        self.set(l);
        while next < self.trail.len() {
            let falsified = !self.trail[next];
            next += 1;
            for i in 0..self.occurs[falsified.code()].len() {
                let k = self.occurs[falsified.code()][i];
                match self.unit_of(k) {
                    Unit::Satisfied | Unit::Open => {}
                    Unit::Conflict => return false,
                    Unit::Forced(u) => self.set(u),
                }
            }
        }
        true
    }

    fn set(&mut self, l: Lit) {
        self.value[l.index()] = if l.is_negative() { -1 } else { 1 };
        self.trail.push(l);
        for &k in &self.occurs[l.code()] {
            self.true_lits[k as usize] += 1;
        }
    }

    /// What clause `k` says under the current assignment.
    fn unit_of(&self, k: u32) -> Unit {
        if self.satisfied(k) {
            return Unit::Satisfied;
        }
        let mut free = None;
        for &l in self.clause(k) {
            match self.lit_value(l) {
                1 => return Unit::Satisfied,
                0 if free.is_some() => return Unit::Open,
                0 => free = Some(l),
                _ => {}
            }
        }
        free.map_or(Unit::Conflict, Unit::Forced)
    }

    fn undo(&mut self, mark: usize) {
        for l in self.trail.drain(mark..) {
            self.value[l.index()] = 0;
            for &k in &self.occurs[l.code()] {
                self.true_lits[k as usize] -= 1;
            }
        }
    }

    /// The count of the formula left of a component (its clauses `clauses` and its
    /// projected variables `projected`) under the current assignment: the product over the
    /// components it now falls into, times 2 for each projected variable left in no live
    /// clause.
    fn residual(&mut self, clauses: &[u32], projected: &[u32], tick: &mut dyn FnMut() -> bool) -> Result<u128, Stop> {
        self.set_pure_in(clauses);
        self.split.start(clauses, &self.lits, &self.clauses, &self.value, &self.true_lits);
        let mut total: u128 = 1;
        for &v in projected {
            if self.value[v as usize] == 0 && !self.split.met(v) {
                total = total.checked_mul(2).ok_or(Stop::Overflow)?;
            }
        }
        for part in self.split.parts(&self.projected, &self.keys) {
            let n = self.component(part, tick)?;
            total = total.checked_mul(n).ok_or(Stop::Overflow)?;
            if total == 0 {
                break;
            }
        }
        Ok(total)
    }

    /// The count of one component: looked up, or found by deciding one of its variables.
    fn component(&mut self, part: Part, tick: &mut dyn FnMut() -> bool) -> Result<u128, Stop> {
        if let Some(&n) = self.cache.get(&part.key) {
            return Ok(n);
        }
        if part.projected.is_empty() {
            let n = u128::from(self.satisfiable(&part.clauses, tick)?);
            self.remember(part.key, n);
            return Ok(n);
        }
        let branch = self.pick(&part);
        let counting = self.projected[branch.index()];
        let mut total: u128 = 0;
        for l in [branch, !branch] {
            self.decisions += 1;
            if self.decisions % TICK_EVERY == 1 && !tick() {
                return Err(Stop::Interrupted);
            }
            let mark = self.trail.len();
            let n = if self.assign(l) { self.residual(&part.clauses, &part.projected, tick) } else { Ok(0) };
            self.undo(mark);
            total = total.checked_add(n?).ok_or(Stop::Overflow)?;
            if !counting && total > 0 {
                total = 1;
                break;
            }
        }
        self.remember(part.key, total);
        Ok(total)
    }

    /// Sets each auxiliary variable whose literals in the live clauses `clauses` all have
    /// one sign to that sign (one pass): as [`Counter::set_pure`] at the start of a count,
    /// but at every node. What the model's one-way auxiliaries leave free otherwise keeps
    /// two residual formulas apart that count the same; so set, they meet in the cache.
    /// On the lock tests of issue #41 this cut the decisions sixfold.
    fn set_pure_in(&mut self, clauses: &[u32]) {
        let mut touched = std::mem::take(&mut self.touched);
        for &k in clauses {
            if self.satisfied(k) {
                continue;
            }
            let (a, b) = self.clauses[k as usize];
            for &l in &self.lits[a as usize..b as usize] {
                let v = l.index();
                if self.value[v] == 0 && !self.projected[v] {
                    if self.signs[v] == 0 {
                        touched.push(v as u32);
                    }
                    self.signs[v] |= if l.is_negative() { 2 } else { 1 };
                }
            }
        }
        for v in touched.drain(..) {
            let signs = std::mem::take(&mut self.signs[v as usize]);
            if signs != 3 {
                // No live clause has the other literal, so nothing propagates.
                let ok = self.assign(Var::from_index(v as usize).lit(signs == 1));
                debug_assert!(ok, "a pure literal conflicts with nothing");
            }
        }
        self.touched = touched;
    }

    /// Whether the live clauses `clauses` (a component without projected variables) have
    /// a model under the current assignment: plain DPLL, deciding the first free literal
    /// of the first clause not yet satisfied, without splitting into components. The
    /// auxiliaries are mostly functions of the decided primaries, so the first branch
    /// nearly always succeeds; splitting at each of its decisions scanned the whole
    /// component each time (nine tenths of the time of the lock tests of issue #41).
    fn satisfiable(&mut self, clauses: &[u32], tick: &mut dyn FnMut() -> bool) -> Result<bool, Stop> {
        let base = self.trail.len();
        // Per decision: where the scan stood, the trail before it, its literal, and
        // whether its other value is being tried.
        let mut stack: Vec<(usize, usize, Lit, bool)> = Vec::new();
        let mut pos = 0;
        loop {
            while pos < clauses.len() && self.satisfied(clauses[pos]) {
                pos += 1;
            }
            let Some(&k) = clauses.get(pos) else {
                self.undo(base);
                return Ok(true);
            };
            let l = *self.clause(k).iter().find(|l| self.value[l.index()] == 0).expect("an open clause has a free literal");
            self.decisions += 1;
            if self.decisions % TICK_EVERY == 1 && !tick() {
                self.undo(base);
                return Err(Stop::Interrupted);
            }
            stack.push((pos, self.trail.len(), l, false));
            let mut ok = self.assign(l);
            while !ok {
                let Some(top) = stack.last_mut() else {
                    self.undo(base);
                    return Ok(false);
                };
                let (at, mark, lit, flipped) = *top;
                self.undo(mark);
                if flipped {
                    stack.pop();
                } else {
                    top.3 = true;
                    pos = at;
                    ok = self.assign(!lit);
                }
            }
        }
    }

    /// The variable to decide: a projected one while the component has one, else the
    /// first free variable of the first clause. Among projected ones, the one in the most
    /// live clauses of the component, a two-literal clause weighing four: deciding it
    /// propagates most. Over co-T4-K3's counts this took a quarter less time than the
    /// most occurrences in the whole formula (7.0–7.9 s against 9.1–11.3 s).
    fn pick(&mut self, part: &Part) -> Lit {
        for &k in &part.clauses {
            let (a, b) = self.clauses[k as usize];
            let weight = if b - a == 2 { 4 } else { 1 };
            for l in &self.lits[a as usize..b as usize] {
                if self.value[l.index()] == 0 && self.projected[l.index()] {
                    self.score[l.index()] += weight;
                }
            }
        }
        let mut best: Option<(u32, u32)> = None;
        for &v in &part.projected {
            let s = std::mem::take(&mut self.score[v as usize]);
            if best.is_none_or(|(b, bs)| s > bs || (s == bs && v < b)) {
                best = Some((v, s));
            }
        }
        let v = best.map(|(v, _)| v as usize).unwrap_or_else(|| {
            let free = part.clauses.iter().flat_map(|&k| self.clause(k)).find(|l| self.value[l.index()] == 0);
            free.expect("a live clause has a free literal").index()
        });
        Var::from_index(v).positive()
    }

    fn remember(&mut self, key: u128, n: u128) {
        if self.cache.len() >= CACHE_ENTRIES {
            self.cache.clear();
        }
        self.cache.insert(key, n);
    }
}

/// Random 128-bit values, one per variable and one per clause, whose sums are the
/// components' cache keys.
///
/// A component's residual formula is fixed by its live clauses and its free variables
/// (each clause keeps the literals of the free ones), so the key is the sum of their
/// values: found while splitting, at an addition each, in any order. Two distinct
/// components' keys agree only where a ±1 combination of random values vanishes, with
/// probability about 2^-128, as with GANAK's hashed cache. Whole keys (hundreds of words
/// each) filled the cache within seconds and cost more to hash and compare than the
/// search they saved.
struct Keys {
    var: Vec<u128>,
    clause: Vec<u128>,
}

impl Keys {
    fn new(vars: usize, clauses: usize) -> Keys {
        let values = |seed: u64, n: usize| (0..n as u64).map(|i| random(seed, i)).collect();
        Keys { var: values(1, vars), clause: values(2, clauses) }
    }
}

/// The `i`th of a stream of pseudo-random 128-bit values: two splitmix64 outputs.
fn random(seed: u64, i: u64) -> u128 {
    fn splitmix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i.wrapping_mul(0x2545_f491_4f6c_dd1d);
    u128::from(splitmix(x.wrapping_mul(2))) << 64 | u128::from(splitmix(x.wrapping_mul(2).wrapping_add(1)))
}

/// A version of the counter's clauses (see [`Counter::cut`]).
#[derive(Default)]
struct Cut {
    lits: Vec<Lit>,
    clauses: Vec<(u32, u32)>,
    occurs: Vec<Vec<u32>>,
}

/// One component: its cache key, its live clauses and its free projected variables.
struct Part {
    key: u128,
    clauses: Vec<u32>,
    projected: Vec<u32>,
}

/// What a clause says under a partial assignment.
enum Unit {
    Satisfied,
    /// Two or more literals are free.
    Open,
    Conflict,
    Forced(Lit),
}

/// The splitting of a component's live clauses into components: union-find over the free
/// variables (indexed by variable, reset lazily by an epoch stamp), kept in the counter so
/// that no node allocates its scratch.
struct Split {
    /// Bumped at each split; a variable whose stamp differs was not met in this one.
    epoch: u32,
    stamp: Vec<u32>,
    parent: Vec<u32>,
    /// At a root met in this split (stamp `part_stamp`), its component's index.
    part: Vec<u32>,
    part_stamp: Vec<u32>,
    /// The free variables met, in order.
    met: Vec<u32>,
    /// The live clauses, each with one of its free variables.
    live: Vec<(u32, u32)>,
}

impl Split {
    fn new(vars: usize) -> Split {
        Split {
            epoch: 0,
            stamp: vec![0; vars],
            parent: vec![0; vars],
            part: vec![0; vars],
            part_stamp: vec![0; vars],
            met: Vec::new(),
            live: Vec::new(),
        }
    }

    /// Joins the free variables of each live clause of `clauses`.
    fn start(&mut self, clauses: &[u32], lits: &[Lit], ranges: &[(u32, u32)], value: &[i8], true_lits: &[u32]) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.part_stamp.fill(0);
            self.epoch = 1;
        }
        self.met.clear();
        self.live.clear();
        for &k in clauses {
            if true_lits[k as usize] > 0 {
                continue;
            }
            let (a, b) = ranges[k as usize];
            let mut first = u32::MAX;
            for l in &lits[a as usize..b as usize] {
                if value[l.index()] != 0 {
                    continue;
                }
                let v = l.index() as u32;
                if self.stamp[v as usize] != self.epoch {
                    self.stamp[v as usize] = self.epoch;
                    self.parent[v as usize] = v;
                    self.met.push(v);
                }
                if first == u32::MAX {
                    first = v;
                } else {
                    self.join(first, v);
                }
            }
            assert!(first != u32::MAX, "a live clause has a free literal");
            self.live.push((k, first));
        }
    }

    /// Whether the free variable `v` is in a live clause of this split.
    fn met(&self, v: u32) -> bool {
        self.stamp[v as usize] == self.epoch
    }

    fn root(&mut self, mut v: u32) -> u32 {
        while self.parent[v as usize] != v {
            let up = self.parent[v as usize];
            self.parent[v as usize] = self.parent[up as usize];
            v = up;
        }
        v
    }

    fn join(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra.max(rb) as usize] = ra.min(rb);
    }

    /// The components found by [`Split::start`], in the order of their first variable.
    fn parts(&mut self, projected: &[bool], keys: &Keys) -> Vec<Part> {
        let mut out: Vec<Part> = Vec::new();
        for i in 0..self.met.len() {
            let v = self.met[i];
            let r = self.root(v) as usize;
            if self.part_stamp[r] != self.epoch {
                self.part_stamp[r] = self.epoch;
                self.part[r] = out.len() as u32;
                out.push(Part { key: 0, clauses: Vec::new(), projected: Vec::new() });
            }
            // Every variable met now names its component, so clauses need no `root`.
            let p = self.part[r];
            self.part[v as usize] = p;
            let part = &mut out[p as usize];
            part.key = part.key.wrapping_add(keys.var[v as usize]);
            if projected[v as usize] {
                part.projected.push(v);
            }
        }
        if let [part] = &mut out[..] {
            // Mostly the component does not split: its clauses are all the live ones.
            part.clauses = self.live.iter().map(|&(k, _)| k).collect();
            part.key = self.live.iter().fold(part.key, |key, &(k, _)| key.wrapping_add(keys.clause[k as usize]));
            return out;
        }
        for &(k, v) in &self.live {
            let part = &mut out[self.part[v as usize] as usize];
            part.key = part.key.wrapping_add(keys.clause[k as usize]);
            part.clauses.push(k);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), so that failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self, bound: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % bound as u64) as usize
        }
    }

    fn lit(v: usize, positive: bool) -> Lit {
        Lit::from_var(Var::from_index(v), positive)
    }

    /// The projected count by trying every assignment of every variable.
    fn brute(vars: usize, clauses: &[Vec<Lit>], projection: &[Var], assume: &[Lit]) -> u128 {
        let mut seen = std::collections::HashSet::new();
        for bits in 0u64..1 << vars {
            let holds = |l: &Lit| (bits >> l.index() & 1 == 1) != l.is_negative();
            if clauses.iter().all(|c| c.iter().any(holds)) && assume.iter().all(holds) {
                seen.insert(projection.iter().map(|v| bits >> v.index() & 1).collect::<Vec<_>>());
            }
        }
        seen.len() as u128
    }

    fn count(vars: usize, clauses: &[Vec<Lit>], projection: &[Var], assume: &[Lit]) -> u128 {
        projected_count(vars, clauses.iter().map(|c| &c[..]), projection, assume, &mut || true).unwrap()
    }

    /// One counter under three random sets of assumptions (its cache carries over from
    /// one count to the next) against brute force.
    fn agrees_under_assumptions(rng: &mut Rng, round: usize, vars: usize, clauses: &[Vec<Lit>], projection: &[Var]) {
        let mut counter = Counter::new(vars, clauses.iter().map(|c| &c[..]), projection);
        for _ in 0..3 {
            let assume: Vec<Lit> = (0..rng.next(3)).map(|_| lit(rng.next(vars), rng.next(2) == 0)).collect();
            let want = brute(vars, clauses, projection, &assume);
            let got = counter.count(&assume, &mut || true).unwrap();
            assert_eq!(got, want, "round {round}: {clauses:?} over {projection:?} under {assume:?}");
        }
    }

    #[test]
    fn counts_equal_brute_force_on_random_formulas() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..3000 {
            let vars = 1 + rng.next(10);
            let clauses: Vec<Vec<Lit>> = (0..rng.next(3 * vars + 1))
                .map(|_| (0..1 + rng.next(3)).map(|_| lit(rng.next(vars), rng.next(2) == 0)).collect())
                .collect();
            let projection: Vec<Var> = (0..vars).filter(|_| rng.next(3) > 0).map(Var::from_index).collect();
            agrees_under_assumptions(&mut rng, round, vars, &clauses, &projection);
        }
    }

    #[test]
    fn odd_clauses_and_projections_count_as_brute_force_says() {
        // Duplicate literals, tautologies, an empty projection, and auxiliary variables
        // of one sign (set once per count) beside projected ones.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..2000 {
            let vars = 1 + rng.next(8);
            let mut clauses: Vec<Vec<Lit>> = (0..rng.next(2 * vars + 1))
                .map(|_| (0..1 + rng.next(4)).map(|_| lit(rng.next(vars), rng.next(3) > 0)).collect())
                .collect();
            for c in clauses.iter_mut() {
                let (l, odd, tautology) = (c[0], rng.next(4) == 0, rng.next(2) == 0);
                if odd {
                    c.push(if tautology { !l } else { l });
                }
            }
            let projection: Vec<Var> = (0..vars).filter(|_| round % 5 > 0 && rng.next(2) > 0).map(Var::from_index).collect();
            agrees_under_assumptions(&mut rng, round, vars, &clauses, &projection);
        }
    }

    #[test]
    fn orders_are_counted_without_listing_them() {
        // A strict total order on 9 elements, by a variable per ordered pair (transitive,
        // total, antisymmetric), has 9! = 362,880 models: counted by caching, since no
        // component splits off.
        let n = 9;
        let v = |i: usize, j: usize| lit(i * n + j, true);
        let mut clauses = Vec::new();
        for i in 0..n {
            clauses.push(vec![!v(i, i)]);
            for j in 0..n {
                if i != j {
                    clauses.push(vec![v(i, j), v(j, i)]);
                    clauses.push(vec![!v(i, j), !v(j, i)]);
                    for k in 0..n {
                        if k != i && k != j {
                            clauses.push(vec![!v(i, j), !v(j, k), v(i, k)]);
                        }
                    }
                }
            }
        }
        let projection: Vec<Var> = (0..n * n).map(Var::from_index).collect();
        assert_eq!(count(n * n, &clauses, &projection, &[]), 362_880);
    }

    #[test]
    fn independent_parts_multiply_past_u64() {
        // 70 independent "exactly one of three" groups: 3^70 models, past u64.
        let mut clauses = Vec::new();
        for g in 0..70 {
            let x = |k: usize| lit(3 * g + k, true);
            clauses.push(vec![x(0), x(1), x(2)]);
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                clauses.push(vec![!x(a), !x(b)]);
            }
        }
        let projection: Vec<Var> = (0..210).map(Var::from_index).collect();
        assert_eq!(count(210, &clauses, &projection, &[]), 3u128.pow(70));
    }

    #[test]
    fn a_tick_that_says_stop_interrupts() {
        let projection: Vec<Var> = (0..40).map(Var::from_index).collect();
        let clauses: Vec<Vec<Lit>> = (0..39).map(|i| vec![lit(i, true), lit(i + 1, true)]).collect();
        let got = projected_count(40, clauses.iter().map(|c| &c[..]), &projection, &[], &mut || false);
        assert_eq!(got, Err(Stop::Interrupted));
    }
}
