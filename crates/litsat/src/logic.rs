//! Boolean circuits over SAT literals, with constant folding and hash-consing.
//!
//! Every relation entry is a [`B`]: a constant or a literal. Gates fold constants away, so
//! everything the event structure fixes (po, fences, static sets) costs no variables or
//! clauses, and equal gates are built once.

mod bits;
mod clauses;
mod closure;
mod polarity;
mod slices;

pub use bits::Bits;
use clauses::Clauses;
pub use clauses::Formula;
pub use slices::{MAX_CANDIDATES, Mask};
use polarity::{DOWN, UP};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use varisat::{CnfFormula, ExtendFormula, Lit};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum B {
    F,
    T,
    L(Lit),
}

impl B {
    pub fn negate(self) -> B {
        match self {
            B::F => B::T,
            B::T => B::F,
            B::L(l) => B::L(!l),
        }
    }
    pub fn is_false(self) -> bool {
        self == B::F
    }
    pub fn from_bool(b: bool) -> B {
        if b { B::T } else { B::F }
    }
    /// The value under a model given as a truth table indexed by variable.
    pub fn value(self, model: &[bool]) -> bool {
        match self {
            B::F => false,
            B::T => true,
            B::L(l) => model[l.var().index()] == l.is_positive(),
        }
    }
}

/// Writes a solver's model into `truth`, the table [`B::value`] reads (indexed by the whole
/// CNF's variables). The model's variable `i` is the whole CNF's `whole(i)`, where it is
/// one: a pruned CNF numbers its variables afresh, the whole CNF keeps its own. Entries
/// the model does not give are left as they were.
pub fn fill_truth(model: &[Lit], truth: &mut [bool], whole: impl Fn(usize) -> Option<usize>) {
    for l in model {
        if let Some(v) = whole(l.var().index()) {
            truth[v] = l.is_positive();
        }
    }
}

/// Which of a one-hot choice holds under `truth`: a value among its value literals, a
/// location among an access's location literals. What an execution says it is.
pub fn holding<T: Copy>(lits: &[(T, B)], truth: &[bool]) -> Option<T> {
    lits.iter().find(|(_, b)| b.value(truth)).map(|(x, _)| *x)
}

/// A CNF under construction, with gate caches.
///
/// Every clause is either a constraint or belongs to the definition of one variable (its
/// owner): an AND gate, or an auxiliary whose clauses some value of it satisfies whatever
/// the other variables are (see [`Logic::owned_clause`]). A variable nothing live refers to
/// can then be dropped with its definition without changing the solutions on the others:
/// [`Logic::pruned`] keeps only the cone of the constraints and the literals asked about.
/// AND gates are kept as their inputs, and their clauses written only for the formulas
/// handed out ([`Logic::pruned`], [`Logic::full_cnf`]).
///
/// A dropped `Logic` leaves its buffers to the next one made on its thread (see `Spare`).
pub struct Logic {
    /// The clauses other than AND-gate definitions, over all the variables.
    cnf: Clauses,
    /// Per variable (one entry for each variable there is): the range of its AND gate's
    /// inputs in `inputs` (empty if not a gate).
    gate: Vec<(u32, u32)>,
    inputs: Vec<Lit>,
    /// Clauses that AND-gate definitions stand for.
    gate_clauses: usize,
    and_cache: HashMap<Vec<Lit>, Lit, BuildHasherDefault<Fx>>,
    /// Two-input AND gates (most of them), by their sorted inputs.
    pair_cache: HashMap<(Lit, Lit), Lit, BuildHasherDefault<Fx>>,
    /// For each clause of `cnf`, in order: its owner's variable index, or [`NO_OWNER`].
    owner: Vec<u32>,
    /// Constraints added from now on hold only where this literal does (see [`Logic::guard_with`]).
    guard: Option<Lit>,
    /// One-way transitive closures (see [`closure`]).
    lazy: Vec<closure::Lazy>,
    /// Each one-way closure entry not yet made exact: its closure and place in it.
    lazy_of: closure::Pending,
    /// The last one-way closure built for an input of each fingerprint (see [`closure`]).
    lazy_of_print: HashMap<u64, u32, BuildHasherDefault<Fx>>,
    /// Scratch space for a conjunction's inputs.
    and_buf: Vec<Lit>,
    /// Bit-sliced evaluation over candidates, once started (see [`slices`]).
    slices: Option<Box<slices::Slices>>,
}

const NO_OWNER: u32 = u32::MAX;

/// Writes the clauses of `g = ∧ inputs` (nothing if `inputs` is empty) that the
/// directions `need` ask for ([`UP`]: g → ∧ inputs, [`DOWN`]: ∧ inputs → g), renaming
/// literals.
fn emit_gate(
    out: &mut impl FnMut(&[Lit]),
    buf: &mut Vec<Lit>,
    g: Lit,
    inputs: &[Lit],
    need: u8,
    rename: impl Fn(Lit) -> Lit,
) {
    if inputs.is_empty() {
        return;
    }
    let g = rename(g);
    if need & UP != 0 {
        for &l in inputs {
            out(&[!g, rename(l)]);
        }
    }
    if need & DOWN != 0 {
        buf.clear();
        buf.extend(inputs.iter().map(|&l| !rename(l)));
        buf.push(g);
        out(buf);
    }
}

/// A fast non-cryptographic hasher (the Fx multiply-rotate) for small keys no adversary
/// chooses: the gate caches' literals, the front end's values, registers and macros, and
/// cat's interned names.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

/// A map and a set hashed with [`Fx`].
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
pub type FxSet<K> = std::collections::HashSet<K, BuildHasherDefault<Fx>>;

impl Fx {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

/// A pruned CNF ([`Logic::pruned`]) over its own variables, with the way back.
pub struct Pruned {
    pub cnf: Formula,
    /// For each variable of the whole CNF, its index here, or `u32::MAX` if dropped.
    map: Vec<u32>,
    /// For each variable here, its index in the whole CNF.
    back: Vec<u32>,
}

impl Pruned {
    /// `l` in the pruned CNF's numbering; `l` must be live (a root or in its cone).
    pub fn lit(&self, l: Lit) -> Lit {
        let v = self.map[l.var().index()];
        debug_assert!(v != u32::MAX, "a dropped variable");
        Lit::from_index(v as usize, l.is_positive())
    }

    /// The whole CNF's variable that the pruned CNF's variable `i` stands for.
    pub fn whole(&self, i: usize) -> Option<usize> {
        self.back.get(i).map(|&v| v as usize)
    }

    /// Fills `truth` (indexed by the whole CNF's variables) from a model of the pruned
    /// CNF; dropped variables are left as they were.
    pub fn fill_truth(&self, model: &[Lit], truth: &mut Vec<bool>) {
        truth.resize(self.map.len().max(1), false);
        fill_truth(model, truth, |i| self.back.get(i).map(|&v| v as usize));
    }

    /// [`Self::fill_truth`] for the variables `vars` only (this CNF's numbering), where the
    /// model lists every variable in order, as the listers' models do: a log reads a few
    /// literals per execution, where a large test's model has thousands. Entries of other
    /// variables keep whatever they held.
    pub fn fill_truth_of(&self, model: &[Lit], truth: &mut Vec<bool>, vars: &[usize]) {
        truth.resize(self.map.len().max(1), false);
        for &i in vars {
            match (model.get(i), self.back.get(i)) {
                (Some(l), Some(&w)) if l.var().index() == i => truth[w as usize] = l.is_positive(),
                _ => return self.fill_truth(model, truth),
            }
        }
    }
}

/// The buffers a dropped [`Logic`] leaves, emptied, for the next one on its thread: a
/// test's formula is small, and growing its arrays and gate caches from nothing cost a
/// reallocation (and for a cache a rehash) at every doubling, test after test.
#[derive(Default)]
struct Spare {
    cnf: Clauses,
    gate: Vec<(u32, u32)>,
    inputs: Vec<Lit>,
    and_cache: HashMap<Vec<Lit>, Lit, BuildHasherDefault<Fx>>,
    pair_cache: HashMap<(Lit, Lit), Lit, BuildHasherDefault<Fx>>,
    owner: Vec<u32>,
    lazy_of: closure::Pending,
    lazy_of_print: HashMap<u64, u32, BuildHasherDefault<Fx>>,
}

/// Past this many variables a formula's buffers are not kept: emptying a large gate
/// cache costs in proportion to its capacity, which small tests would then pay.
const SPARE_VARS: usize = 1 << 16;

thread_local! {
    static SPARE: RefCell<Option<Spare>> = const { RefCell::new(None) };
}

impl Drop for Logic {
    fn drop(&mut self) {
        if self.gate.capacity() > SPARE_VARS {
            return;
        }
        let mut spare = Spare {
            cnf: std::mem::take(&mut self.cnf),
            gate: std::mem::take(&mut self.gate),
            inputs: std::mem::take(&mut self.inputs),
            and_cache: std::mem::take(&mut self.and_cache),
            pair_cache: std::mem::take(&mut self.pair_cache),
            owner: std::mem::take(&mut self.owner),
            lazy_of: std::mem::take(&mut self.lazy_of),
            lazy_of_print: std::mem::take(&mut self.lazy_of_print),
        };
        spare.cnf.clear();
        spare.gate.clear();
        spare.inputs.clear();
        spare.and_cache.clear();
        spare.pair_cache.clear();
        spare.owner.clear();
        spare.lazy_of.clear();
        spare.lazy_of_print.clear();
        // At thread exit the slot may be gone already: the buffers are then just freed.
        let _ = SPARE.try_with(|s| *s.borrow_mut() = Some(spare));
    }
}

impl Default for Logic {
    fn default() -> Logic {
        let Spare { cnf, gate, inputs, and_cache, pair_cache, owner, lazy_of, lazy_of_print } =
            SPARE.try_with(|s| s.borrow_mut().take()).ok().flatten().unwrap_or_default();
        Logic {
            cnf,
            gate,
            inputs,
            gate_clauses: 0,
            and_cache,
            pair_cache,
            owner,
            guard: None,
            lazy: Vec::new(),
            lazy_of,
            lazy_of_print,
            and_buf: Vec::new(),
            slices: None,
        }
    }
}

impl Logic {
    pub fn new() -> Logic {
        Logic::default()
    }

    pub fn fresh(&mut self) -> Lit {
        self.sliced_fresh();
        self.gate.push((0, 0));
        Lit::from_index(self.gate.len() - 1, true)
    }

    /// A new variable defined as the AND of `lits` (two or more).
    fn new_gate(&mut self, lits: &[Lit]) -> Lit {
        let g = self.fresh();
        let start = self.inputs.len() as u32;
        self.inputs.extend_from_slice(lits);
        self.gate[g.var().index()] = (start, start + lits.len() as u32);
        self.gate_clauses += lits.len() + 1;
        g
    }

    /// The inputs of `v`'s AND gate (empty if `v` is not one).
    fn gate_inputs(&self, v: usize) -> &[Lit] {
        let (a, b) = self.gate[v];
        &self.inputs[a as usize..b as usize]
    }

    /// Clauses of the whole formula, gate definitions included.
    pub fn num_clauses(&self) -> usize {
        self.cnf.len() + self.gate_clauses
    }

    /// The whole formula: every clause, gate definitions included, every closure exact
    /// (for proofs, exports and explanations, which want the CNF as built).
    pub fn full_cnf(&mut self) -> CnfFormula {
        debug_assert!(!self.is_sliced(), "a sliced formula writes no clauses");
        self.complete_all();
        let mut out = CnfFormula::new();
        out.set_var_count(self.num_vars());
        for c in self.cnf.iter() {
            out.add_clause(c);
        }
        let mut buf = Vec::new();
        let mut add = |c: &[Lit]| out.add_clause(c);
        for v in 0..self.gate.len() {
            emit_gate(&mut add, &mut buf, Lit::from_index(v, true), self.gate_inputs(v), UP | DOWN, |l| l);
        }
        out
    }

    pub fn num_vars(&self) -> usize {
        self.gate.len()
    }

    pub fn clause(&mut self, c: &[B]) {
        self.clause_owned_by(NO_OWNER, c);
    }

    /// A clause of the definition of `owner`'s variable, which `owner` satisfies: every
    /// clause a variable owns this way must contain it with the same sign, so that where
    /// nothing else refers to the variable, making `owner` true satisfies them all (a
    /// one-way auxiliary `a ∧ b → e` is owned by `e`; a selector's `s → …` by `¬s`).
    pub fn owned_clause(&mut self, owner: B, c: &[B]) {
        match owner {
            B::L(o) => {
                debug_assert!(c.contains(&owner));
                self.clause_owned_by(o.var().index() as u32, c)
            }
            _ => self.clause(c),
        }
    }

    fn clause_owned_by(&mut self, owner: u32, c: &[B]) {
        if self.sliced_clause(c) {
            return;
        }
        if c.contains(&B::T) {
            return;
        }
        let lits = c.iter().filter_map(|b| if let B::L(l) = b { Some(*l) } else { None });
        let guard = if owner == NO_OWNER { self.guard.map(|g| !g) } else { None };
        self.cnf.push_iter(lits.chain(guard));
        self.owner.push(owner);
    }

    /// Makes every constraint added from now on conditional on `b` (and on the guards
    /// before it): where `b` fails, nothing after this point is asserted. Gate definitions
    /// are not guarded. For a value computed up to a bound whose correctness `b` states:
    /// where `b` holds the CNF is exact, and a solution where it fails must be told apart.
    pub fn guard_with(&mut self, b: B) {
        if matches!(b, B::L(_)) && self.sliced_guard() {
            return;
        }
        let g = match self.guard {
            Some(old) => self.and2(B::L(old), b),
            None => b,
        };
        self.guard = match g {
            B::L(l) => Some(l),
            // Constant: true adds no condition; false would disable every constraint, so
            // callers only guard with a literal.
            _ => self.guard,
        };
    }

    /// The conjunction of the guards so far (true when there are none).
    pub fn guard(&self) -> B {
        self.guard.map_or(B::T, B::L)
    }

    fn push(&mut self, owner: u32, lits: &[Lit]) {
        self.cnf.push(lits);
        self.owner.push(owner);
    }

    /// The constraints and the definitions of the variables they, or `roots`, depend on:
    /// the same solutions as `cnf` on those variables, renumbered densely. One-way closure
    /// entries that some live use reads from above are made exact first.
    pub fn pruned(&mut self, roots: &[B]) -> Pruned {
        debug_assert!(!self.is_sliced(), "a sliced formula writes no clauses");
        let need = loop {
            let owned = self.owned_index();
            let need = self.needs(roots, &owned);
            let todo: Vec<u32> = self.lazy_of.vars().filter(|&v| need[v as usize] & UP != 0).collect();
            if todo.is_empty() {
                break need;
            }
            for v in todo {
                self.complete(Lit::from_index(v as usize, true));
            }
        };
        let n = self.num_vars();
        let mut map = vec![u32::MAX; n];
        let mut back = Vec::with_capacity(n);
        for (v, m) in map.iter_mut().enumerate() {
            if need[v] != 0 {
                *m = back.len() as u32;
                back.push(v as u32);
            }
        }
        // Room for every clause there is, gate definitions included (an AND of k inputs
        // has k clauses of two literals and one of k + 1): allocated once, where growing
        // from nothing cost a copy at every doubling.
        let k = self.inputs.len();
        let mut cnf = Clauses::with_capacity(self.cnf.len() + self.gate_clauses, self.cnf.flat().0.len() + 3 * k + n);
        let mut buf = Vec::new();
        let rename = |l: Lit| Lit::from_index(map[l.var().index()] as usize, l.is_positive());
        for (k, c) in self.cnf.iter().enumerate() {
            let o = self.owner[k];
            if o == NO_OWNER || need[o as usize] != 0 {
                cnf.push_iter(c.iter().map(|&l| rename(l)));
            }
        }
        let mut add = |c: &[Lit]| cnf.push(c);
        for &v in &back {
            let v = v as usize;
            emit_gate(&mut add, &mut buf, Lit::from_index(v, true), self.gate_inputs(v), need[v], rename);
        }
        Pruned { cnf: Formula::new(back.len(), cnf), map, back }
    }

    /// Asserts `b`.
    pub fn assert(&mut self, b: B) {
        self.clause(&[b]);
    }

    pub fn implies(&mut self, a: B, b: B) {
        self.clause(&[a.negate(), b]);
    }

    pub fn and(&mut self, xs: &[B]) -> B {
        self.and_of(xs.iter().copied())
    }

    /// [`Logic::and`] of the entries `xs` yields (walked twice where it has more than two
    /// literals): `or` passes its inputs negated without collecting them.
    fn and_of(&mut self, xs: impl Iterator<Item = B> + Clone) -> B {
        // Most conjunctions have at most two literals: those go to `and2`, which builds the
        // same gate without collecting them.
        let mut two = [B::T, B::T];
        let mut n = 0;
        for x in xs.clone() {
            match x {
                B::F => return B::F,
                B::T => {}
                B::L(_) if n < 2 => {
                    two[n] = x;
                    n += 1;
                }
                B::L(_) => {
                    n = 3;
                    break;
                }
            }
        }
        if n <= 2 {
            return self.and2(two[0], two[1]);
        }
        // The inputs are gathered in a scratch buffer: a gate already built (the common
        // case, by hash-consing) then costs no allocation.
        let mut lits = std::mem::take(&mut self.and_buf);
        let out = self.and_lits(xs, &mut lits);
        self.and_buf = lits;
        out
    }

    /// The part of [`Logic::and_of`] past two literals, with `lits` for scratch space.
    fn and_lits(&mut self, xs: impl Iterator<Item = B>, lits: &mut Vec<Lit>) -> B {
        lits.clear();
        for x in xs {
            match x {
                B::F => return B::F,
                B::T => {}
                B::L(l) => lits.push(l),
            }
        }
        lits.sort();
        lits.dedup();
        for w in lits.windows(2) {
            if w[0].var() == w[1].var() {
                return B::F;
            }
        }
        match lits.len() {
            0 => return B::T,
            1 => return B::L(lits[0]),
            2 => return self.and_pair(lits[0], lits[1]),
            _ => {}
        }
        if let Some(b) = self.sliced_and(lits) {
            return b;
        }
        if let Some(&g) = self.and_cache.get(&lits[..]) {
            return B::L(g);
        }
        let g = self.new_gate(lits);
        self.and_cache.insert(lits.to_vec(), g);
        B::L(g)
    }

    pub fn or(&mut self, xs: &[B]) -> B {
        if let [a, b] = *xs {
            return self.or2(a, b);
        }
        self.and_of(xs.iter().map(|x| x.negate())).negate()
    }

    pub fn and2(&mut self, a: B, b: B) -> B {
        match (a, b) {
            (B::F, _) | (_, B::F) => B::F,
            (B::T, o) | (o, B::T) => o,
            (B::L(x), B::L(y)) if x == y => a,
            (B::L(x), B::L(y)) if x == !y => B::F,
            (B::L(x), B::L(y)) => {
                if x < y {
                    self.and_pair(x, y)
                } else {
                    self.and_pair(y, x)
                }
            }
        }
    }

    /// The gate `x ∧ y` for distinct variables with `x < y`.
    fn and_pair(&mut self, x: Lit, y: Lit) -> B {
        if let Some(b) = self.sliced_and(&[x, y]) {
            return b;
        }
        if let Some(&g) = self.pair_cache.get(&(x, y)) {
            return B::L(g);
        }
        let g = self.new_gate(&[x, y]);
        self.pair_cache.insert((x, y), g);
        B::L(g)
    }

    pub fn or2(&mut self, a: B, b: B) -> B {
        self.and2(a.negate(), b.negate()).negate()
    }

    /// `a ↔ b` as a gate.
    pub fn iff(&mut self, a: B, b: B) -> B {
        let x = self.and2(a, b);
        let y = self.and2(a.negate(), b.negate());
        self.or2(x, y)
    }

    /// Exactly one of `xs` holds.
    pub fn exactly_one(&mut self, xs: &[B]) {
        self.clause(xs);
        self.at_most_one(xs);
    }

    pub fn at_most_one(&mut self, xs: &[B]) {
        let live: Vec<B> = xs.iter().copied().filter(|x| !x.is_false()).collect();
        if live.len() <= 6 {
            for i in 0..live.len() {
                for j in i + 1..live.len() {
                    self.clause(&[live[i].negate(), live[j].negate()]);
                }
            }
            return;
        }
        // Sequential counter: linear size for long lists.
        let mut prev = live[0];
        for &x in &live[1..] {
            self.clause(&[prev.negate(), x.negate()]);
            prev = self.or2(prev, x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::Solver;

    /// All assignments to `vars` (given as literals of `lg`) that extend to a model of `cnf`
    /// (numbered by `rename`).
    fn projections(cnf: &CnfFormula, vars: &[Lit], rename: impl Fn(Lit) -> Lit) -> Vec<Vec<bool>> {
        let mut out = Vec::new();
        for bits in 0..1u32 << vars.len() {
            let assume: Vec<Lit> = vars
                .iter()
                .enumerate()
                .map(|(i, &v)| if bits >> i & 1 == 1 { rename(v) } else { !rename(v) })
                .collect();
            let mut s = Solver::new();
            s.add_formula(cnf);
            s.assume(&assume);
            if s.solve().unwrap() {
                out.push((0..vars.len()).map(|i| bits >> i & 1 == 1).collect());
            }
        }
        out
    }

    #[test]
    fn pruning_keeps_the_solutions_on_the_roots() {
        let mut lg = Logic::new();
        let (a, b, c) = (lg.fresh(), lg.fresh(), lg.fresh());
        let ab = lg.and2(B::L(a), B::L(b));
        let bc = lg.or2(B::L(b), B::L(c));
        // Gates nothing refers to, and a one-way auxiliary owned by `e`.
        let _dead = lg.and(&[B::L(a), B::L(c), bc.negate()]);
        let e = lg.fresh();
        lg.owned_clause(B::L(e), &[ab.negate(), B::L(e)]);
        // A constraint: a → (b ∨ c).
        lg.implies(B::L(a), bc);
        let B::L(abl) = ab else { panic!("a gate") };
        let full = lg.full_cnf();
        let cone = lg.pruned(&[ab]);
        assert!(cone.cnf.var_count() < full.var_count(), "dead gates are dropped");
        let roots = [a, b, c, abl];
        assert_eq!(projections(&full, &roots, |l| l), projections(&cone.cnf, &roots, |l| cone.lit(l)));
    }

    #[test]
    fn a_guard_makes_later_constraints_conditional() {
        let mut lg = Logic::new();
        let (a, g) = (lg.fresh(), lg.fresh());
        lg.assert(B::L(a));
        lg.guard_with(B::L(g));
        assert_eq!(lg.guard(), B::L(g));
        lg.assert(B::L(a).negate());
        let cone = lg.pruned(&[B::L(g)]);
        // a must hold; ¬a only where the guard holds, so the guard must fail.
        assert_eq!(projections(&cone.cnf, &[a, g], |l| cone.lit(l)), vec![vec![true, false]]);
    }

    /// A graph on three nodes with a variable per edge (no self-loops), as a dense matrix.
    fn graph(lg: &mut Logic) -> (Vec<Lit>, Vec<B>) {
        let mut vars = Vec::new();
        let mut d = vec![B::F; 9];
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    let v = lg.fresh();
                    vars.push(v);
                    d[i * 3 + j] = B::L(v);
                }
            }
        }
        (vars, d)
    }

    /// Whether `j` is reachable from `i` by one or more edges of the graph `bits` (over
    /// the edge variables in the order [`graph`] makes them).
    fn reaches(bits: &[bool], i: usize, j: usize) -> bool {
        let edge = |a: usize, b: usize| a != b && bits[a * 2 + if b > a { b - 1 } else { b }];
        let mut seen = [false; 3];
        let mut stack = vec![i];
        while let Some(a) = stack.pop() {
            for (b, s) in seen.iter_mut().enumerate() {
                if edge(a, b) && !*s {
                    *s = true;
                    stack.push(b);
                }
            }
        }
        seen[j]
    }

    #[test]
    fn a_one_way_closure_read_as_a_value_is_exact() {
        let mut lg = Logic::new();
        let (vars, mut d) = graph(&mut lg);
        lg.closure_lower(3, &mut d);
        let cone = lg.pruned(&d);
        let outs: Vec<Lit> = d.iter().filter_map(|b| if let B::L(l) = b { Some(*l) } else { None }).collect();
        let all: Vec<Lit> = vars.iter().chain(&outs).copied().collect();
        for p in projections(&cone.cnf, &all, |l| cone.lit(l)) {
            let (edges, closed) = p.split_at(vars.len());
            let mut k = 0;
            for (x, b) in d.iter().enumerate() {
                if let B::L(_) = b {
                    assert_eq!(closed[k], reaches(edges, x / 3, x % 3), "entry {x} of {edges:?}");
                    k += 1;
                }
            }
        }
    }

    #[test]
    fn a_one_way_closure_under_a_check_keeps_the_acyclic_graphs() {
        let mut lg = Logic::new();
        let (vars, mut d) = graph(&mut lg);
        lg.closure_lower(3, &mut d);
        for i in 0..3 {
            lg.assert(d[i * 4].negate());
        }
        let cone = lg.pruned(&vars.iter().map(|&v| B::L(v)).collect::<Vec<_>>());
        assert_eq!(lg.lazy_of.len(), 9, "nothing was made exact");
        let got = projections(&cone.cnf, &vars, |l| cone.lit(l));
        let want: Vec<Vec<bool>> = (0..1u32 << 6)
            .map(|b| (0..6).map(|i| b >> i & 1 == 1).collect::<Vec<bool>>())
            .filter(|bits| (0..3).all(|i| !reaches(bits, i, i)))
            .collect();
        assert_eq!(got, want);
    }
}
