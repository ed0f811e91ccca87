//! Bit-sliced evaluation: a formula over a few known candidate executions.
//!
//! Most litmus tests have only a handful of candidate executions (the C11 corpus: 650 in
//! all over 135 tests, at most 72 in one), yet a model's gates had to be pruned into a
//! CNF, loaded into a propagator and listed, where judging each candidate is enough.
//! Once the candidates are listed (see `query::sliced`), [`Logic::slice`] turns the
//! circuit into a bit-parallel evaluator: each variable gets the mask of the candidates
//! where it holds, and each gate built from then on is the mask of its inputs' operation
//! (a constant where the mask is empty or full). Gates are not hash-consed here: a lookup
//! per gate cost more than the duplicates it saved. A clause added from then on is no longer written: it drops the candidates it
//! rules out ([`Logic::allowed`]). Closures are Warshall's over masks, exact. A choice
//! the model makes among orders splits each candidate into one per order
//! ([`Logic::split_candidates`]).
//!
//! What cannot be judged this way (a new variable nothing defines: a model's generic
//! choice, a one-way auxiliary, a guard; or more than [`MAX_CANDIDATES`] after a split)
//! marks the formula spoiled ([`Logic::spoiled`]): the test is then answered by the solver
//! as before.

use super::{B, Logic};
use varisat::Lit;

/// How many candidates a formula can be sliced over: one bit each.
pub const MAX_CANDIDATES: usize = 128;

/// A set of candidates, one bit each.
pub type Mask = u128;

pub(super) struct Slices {
    /// Per variable: the candidates where it holds.
    mask: Vec<Mask>,
    /// Every candidate.
    all: Mask,
    /// The candidates every clause added since slicing allows.
    allowed: Mask,
    /// A variable was made that no mask defines (see the module doc).
    spoiled: bool,
}

impl Logic {
    /// Starts bit-sliced evaluation over `count` candidates (at most [`MAX_CANDIDATES`]):
    /// `mask` gives, for each variable that is not an AND gate, the candidates where it
    /// holds (by index; variables past its end hold nowhere). A gate's value is its
    /// inputs' AND, whatever `mask` says: a model of a pruned CNF need not give it (see
    /// [`Logic::pruned`]).
    pub fn slice(&mut self, count: usize, mut mask: Vec<Mask>) {
        debug_assert!(count <= MAX_CANDIDATES);
        let n = self.num_vars();
        let all = if count == MAX_CANDIDATES { Mask::MAX } else { (1 << count) - 1 };
        mask.resize(n, 0);
        // A gate's inputs are older variables than the gate: one pass in order.
        for v in 0..n {
            let inputs = self.gate_inputs(v);
            if !inputs.is_empty() {
                let of = |l: Lit| if l.is_positive() { mask[l.var().index()] } else { !mask[l.var().index()] & all };
                mask[v] = inputs.iter().fold(all, |m, &l| m & of(l));
            }
        }
        self.slices = Some(Box::new(Slices { mask, all, allowed: all, spoiled: false }));
    }

    /// Whether the formula is evaluated over candidates ([`Logic::slice`]).
    pub fn is_sliced(&self) -> bool {
        self.slices.is_some()
    }

    /// Whether slicing met something it cannot evaluate: the answer must come from the
    /// solver.
    pub fn spoiled(&self) -> bool {
        self.slices.as_ref().is_some_and(|s| s.spoiled)
    }

    /// The candidates that every clause added since slicing allows.
    pub fn allowed(&self) -> Option<Mask> {
        self.slices.as_ref().map(|s| s.allowed)
    }

    /// The candidates where `b` holds.
    pub fn mask(&self, b: B) -> Option<Mask> {
        self.slices.as_ref().map(|s| s.of(b))
    }

    /// Under slicing, whether `b` holds in some allowed candidate.
    pub fn decided(&self, b: B) -> Option<bool> {
        self.slices.as_ref().map(|s| s.of(b) & s.allowed != 0)
    }

    /// The gate `x ∧ y`, or of all of `lits`, as a mask.
    pub(super) fn sliced_and(&mut self, lits: &[Lit]) -> Option<B> {
        let s = self.slices.as_mut()?;
        let m = lits.iter().fold(s.all, |m, &l| m & s.of(B::L(l)));
        Some(self.sliced(m))
    }

    /// The literal for the candidates `m`: a constant, or a new variable.
    pub(super) fn sliced(&mut self, m: Mask) -> B {
        let s = self.slices.as_mut().expect("sliced");
        if m == 0 {
            return B::F;
        }
        if m == s.all {
            return B::T;
        }
        let l = Lit::from_index(self.gate.len(), true);
        self.gate.push((0, 0));
        s.mask.push(m);
        B::L(l)
    }

    /// Under slicing, the literal for the candidates `m` (see [`Logic::slice`]).
    pub fn of_mask(&mut self, m: Mask) -> B {
        self.sliced(m)
    }

    /// Under slicing, a new variable no mask defines spoils it.
    pub(super) fn sliced_fresh(&mut self) {
        if let Some(s) = self.slices.as_mut() {
            s.spoiled = true;
            s.mask.push(0);
        }
    }

    /// Under slicing, a clause rules out the candidates it fails in; `true` if so.
    pub(super) fn sliced_clause(&mut self, c: &[B]) -> bool {
        let Some(s) = self.slices.as_mut() else { return false };
        let m = c.iter().fold(0, |m, &b| m | s.of(b));
        s.allowed &= m;
        true
    }

    /// Under slicing, a guard spoils it (a guard is for a cut unrolling, never made under
    /// slicing); `true` if so.
    pub(super) fn sliced_guard(&mut self) -> bool {
        match self.slices.as_mut() {
            Some(s) => {
                s.spoiled = true;
                true
            }
            None => false,
        }
    }

    /// Under slicing, `r+` of the dense k×k matrix `d` by Warshall's over masks; `true`
    /// if so.
    pub(super) fn sliced_closure(&mut self, k: usize, d: &mut [B]) -> bool {
        let Some(s) = self.slices.as_ref() else { return false };
        let input: Vec<Mask> = d.iter().map(|&b| s.of(b)).collect();
        let m = warshall(k, input.clone());
        // Entries no path changed keep their literal.
        for ((x, &mx), &old) in d.iter_mut().zip(&m).zip(&input) {
            if mx != old {
                *x = self.sliced(mx);
            }
        }
        true
    }

    /// Under slicing, whether the dense k×k matrix `d` is acyclic, as a literal: the
    /// candidates where no event reaches itself.
    pub fn sliced_acyclic(&mut self, k: usize, d: &[B]) -> B {
        let s = self.slices.as_ref().expect("sliced");
        let m = warshall(k, d.iter().map(|&b| s.of(b)).collect());
        let cyclic = (0..k).fold(0, |acc, i| acc | m[i * k + i]);
        let acyclic = !cyclic & s.all;
        self.sliced(acyclic)
    }
}

impl Logic {
    /// Under slicing, the candidates that every clause so far allows, in order.
    pub fn allowed_candidates(&self) -> Vec<u32> {
        let mut left = self.allowed().unwrap_or(0);
        let mut out = Vec::with_capacity(left.count_ones() as usize);
        while left != 0 {
            out.push(left.trailing_zeros());
            left &= left - 1;
        }
        out
    }

    /// Under slicing, whether `b` holds in candidate `c`.
    pub fn holds_in(&self, b: B, c: u32) -> bool {
        self.mask(b).is_some_and(|m| m >> c & 1 == 1)
    }

    /// Replaces the candidates by new ones, each a copy of an old one (`parent`) where
    /// every variable so far has the value it had there: a choice the model makes splits
    /// each candidate into one per way of making it (see `cat::interp::with`). Where the
    /// new candidates would be too many, slicing is spoiled and `false` returned.
    pub fn split_candidates(&mut self, parent: &[u32]) -> bool {
        let Some(s) = self.slices.as_mut() else { return false };
        if parent.len() > MAX_CANDIDATES {
            s.spoiled = true;
            return false;
        }
        // Each candidate kept as it was: nothing to move.
        if parent.iter().enumerate().all(|(k, &p)| k == p as usize) && parent.len() as u32 == s.all.count_ones() {
            return true;
        }
        let spread = |m: Mask| parent.iter().enumerate().fold(0, |acc, (k, &p)| acc | (m >> p & 1) << k);
        for m in &mut s.mask {
            *m = spread(*m);
        }
        s.all = if parent.len() == MAX_CANDIDATES { Mask::MAX } else { (1 << parent.len()) - 1 };
        s.allowed = spread(s.allowed);
        true
    }
}

/// The transitive closure of the k×k matrix of masks `m`, candidate by candidate
/// (Warshall's: a path through p joins i to j where i reaches p and p reaches j).
fn warshall(k: usize, mut m: Vec<Mask>) -> Vec<Mask> {
    let mut via = Vec::with_capacity(k);
    for p in 0..k {
        via.clear();
        via.extend((0..k).filter(|&j| m[p * k + j] != 0));
        if via.is_empty() {
            continue;
        }
        for i in 0..k {
            let ip = m[i * k + p];
            if ip == 0 {
                continue;
            }
            for &j in &via {
                m[i * k + j] |= ip & m[p * k + j];
            }
        }
    }
    m
}

impl Slices {
    /// The candidates where `b` holds.
    fn of(&self, b: B) -> Mask {
        match b {
            B::F => 0,
            B::T => self.all,
            B::L(l) => {
                let m = self.mask[l.var().index()];
                if l.is_positive() { m } else { !m & self.all }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_over_candidates_are_their_masks() {
        let mut lg = Logic::new();
        let (a, b) = (B::L(lg.fresh()), B::L(lg.fresh()));
        // Four candidates: (a, b) = 00, 10, 01, 11.
        lg.slice(4, vec![0b1010, 0b1100]);
        let ab = lg.and2(a, b);
        assert_eq!(lg.mask(ab), Some(0b1000));
        let or = lg.or2(a, b);
        assert_eq!(lg.mask(or), Some(0b1110));
        // A full mask is a constant.
        let ba = lg.or2(b, a);
        assert_eq!(lg.mask(ba), lg.mask(or));
        assert_eq!(lg.or2(a, a.negate()), B::T);
        let na = lg.and2(a.negate(), B::T);
        assert_eq!(lg.mask(na), Some(0b0101));
        lg.assert(or);
        assert_eq!(lg.allowed(), Some(0b1110));
        let neither = lg.and2(a.negate(), b.negate());
        assert_eq!(lg.decided(neither), Some(false));
        assert!(!lg.spoiled());
        lg.fresh();
        assert!(lg.spoiled());
    }

    #[test]
    fn splitting_copies_each_candidate_and_drops_those_ruled_out() {
        let mut lg = Logic::new();
        let a2 = B::L(lg.fresh());
        // Three candidates, a2 = 0, 1, 0; the first is ruled out.
        lg.slice(3, vec![0b010]);
        let not_first = lg.of_mask(0b110);
        lg.assert(not_first);
        assert_eq!(lg.allowed_candidates(), vec![1, 2]);
        // Candidate 1 splits in two, candidate 2 stays one.
        assert!(lg.split_candidates(&[1, 1, 2]));
        assert_eq!(lg.mask(a2), Some(0b011));
        assert_eq!(lg.allowed(), Some(0b111));
        assert!(lg.holds_in(a2, 0) && !lg.holds_in(a2, 2));
        // A choice made in the split: true in the first copy only.
        let choice = lg.of_mask(0b001);
        let both = lg.and2(choice, a2);
        assert_eq!(lg.mask(both), lg.mask(choice));
        assert!(!lg.split_candidates(&[0; MAX_CANDIDATES + 1]));
        assert!(lg.spoiled());
    }

    #[test]
    fn a_sliced_closure_is_reachability_in_each_candidate() {
        let mut lg = Logic::new();
        let (x, y) = (B::L(lg.fresh()), B::L(lg.fresh()));
        // 0→1 where x, 1→2 where y, 2→0 always; candidates 00, 10, 01, 11.
        // Four candidates: (a, b) = 00, 10, 01, 11.
        lg.slice(4, vec![0b1010, 0b1100]);
        let mut d = vec![B::F, x, B::F, B::F, B::F, y, B::T, B::F, B::F];
        lg.closure(3, &mut d);
        // 0 reaches itself only round the whole cycle: where x and y hold.
        assert_eq!(lg.mask(d[0]), Some(0b1000));
        // 0 reaches 2 through 1; 2 reaches 1 through 0.
        assert_eq!(lg.mask(d[2]), Some(0b1000));
        assert_eq!(lg.mask(d[7]), Some(0b1010));
        assert_eq!(d[6], B::T);
    }
}
