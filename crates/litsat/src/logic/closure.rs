//! Transitive closures over gates: exact, or one way and made exact only where needed.
//!
//! The exact closure (Floyd–Warshall over gates) costs two gates per pair and pivot, so
//! it is cubic in the events it spans: on the LKMM's lock tests `cumul-fence*` alone was
//! four fifths of the CNF. Yet most closures in a model only feed checks that ask for
//! them to be small (`acyclic hb`, `acyclic pb`). For those a one-way encoding is enough:
//! one variable per pair that some path may join, forced true by an edge or by a path
//! one edge shorter, and otherwise free. Where the real closure passes the checks, its
//! least assignment does too, and where it fails, every assignment does.
//!
//! [`Logic::pruned`] finds the entries some use reads the other way (a flag, a value the
//! log prints, a complement or a difference) and only for those builds the exact closure
//! and bounds the entry by it from above.

use super::{B, Bits, Logic};
use varisat::Lit;

/// A one-way closure: its input and result (dense k×k matrices, row by row), its exact
/// closure once built, and the one built before it whose input has the same fingerprint.
pub(super) struct Lazy {
    k: usize,
    input: Vec<B>,
    output: Vec<B>,
    exact: Option<Vec<B>>,
    same_print: Option<u32>,
}

/// The one-way closure entries not yet made exact: by variable, each with its closure and
/// place in it. Entries are made in the order of their variables, so the vector is sorted
/// and searched by halves (a hash map cost a hashing per entry made, most never looked up).
#[derive(Default)]
pub(super) struct Pending {
    /// (variable, closure, place); an entry made exact has [`Pending::DONE`] for closure.
    entries: Vec<(u32, u32, u32)>,
    left: usize,
}

impl Pending {
    const DONE: u32 = u32::MAX;

    fn push(&mut self, var: u32, id: u32, at: u32) {
        debug_assert!(self.entries.last().is_none_or(|e| e.0 < var), "variables out of order");
        self.entries.push((var, id, at));
        self.left += 1;
    }

    /// The closure and place of `var`'s entry, which is no longer pending.
    fn take(&mut self, var: u32) -> Option<(u32, u32)> {
        let x = self.entries.binary_search_by_key(&var, |e| e.0).ok()?;
        let e = &mut self.entries[x];
        if e.1 == Self::DONE {
            return None;
        }
        self.left -= 1;
        Some((std::mem::replace(&mut e.1, Self::DONE), e.2))
    }

    /// The variables of the entries pending, in increasing order.
    pub fn vars(&self) -> impl Iterator<Item = u32> + '_ {
        self.entries.iter().filter(|e| e.1 != Self::DONE).map(|e| e.0)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.left
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.left = 0;
    }
}

/// A matrix's fingerprint, one multiply per entry: the one-way closures are looked up by
/// it (hashing the entries as `B`s cost two hasher rounds each, and a copy of the key).
fn fingerprint(d: &[B]) -> u64 {
    let mut h = super::Fx::default();
    for &b in d {
        h.add(match b {
            B::F => 0,
            B::T => 1,
            B::L(l) => 2 + l.code() as u64,
        });
    }
    h.0
}

impl Logic {
    /// `r+` of the dense k×k matrix `d`, exactly: `d` becomes the closure.
    pub fn closure(&mut self, k: usize, d: &mut [B]) {
        if self.sliced_closure(k, d) {
            return;
        }
        let mut preds: Vec<(usize, B)> = Vec::new();
        let mut succs: Vec<(usize, B)> = Vec::new();
        for p in 0..k {
            preds.clear();
            preds.extend((0..k).map(|i| (i, d[i * k + p])).filter(|e| !e.1.is_false()));
            succs.clear();
            succs.extend((0..k).map(|j| (j, d[p * k + j])).filter(|e| !e.1.is_false()));
            for &(i, a) in &preds {
                for &(j, b) in &succs {
                    let old = d[i * k + j];
                    if old == B::T {
                        continue;
                    }
                    let ab = self.and2(a, b);
                    d[i * k + j] = self.or2(old, ab);
                }
            }
        }
    }

    /// The one-way closure built before for the input `d`, if any.
    fn lazy_built(&self, print: u64, d: &[B]) -> Option<&[B]> {
        let mut at = self.lazy_of_print.get(&print).copied();
        while let Some(id) = at {
            let l = &self.lazy[id as usize];
            if l.input == d {
                return Some(&l.output);
            }
            at = l.same_print;
        }
        None
    }

    /// `r+` of the dense k×k matrix `d`, one way (see the module doc): `d` becomes the
    /// closure, whose non-constant entries are bounded from below only until
    /// [`Logic::pruned`] finds a use that needs more.
    pub fn closure_lower(&mut self, k: usize, d: &mut [B]) {
        // Over candidates the exact closure costs no more.
        if self.sliced_closure(k, d) {
            return;
        }
        // Built once per input, as gates are: an iteration that meets the same closure
        // again must see the same variables.
        let print = fingerprint(d);
        if let Some(done) = self.lazy_built(print, d) {
            d.copy_from_slice(done);
            return;
        }
        let input = d.to_vec();
        let id = self.lazy.len() as u32;
        // Which pairs an edge joins, a path may join, and a path of constant edges does.
        let mut edges = Bits::new(k);
        let mut sure = Bits::new(k);
        for (x, &b) in input.iter().enumerate() {
            if !b.is_false() {
                edges.set(x / k, x % k);
            }
            if b == B::T {
                sure.set(x / k, x % k);
            }
        }
        let mut may = edges.clone();
        may.close(k);
        sure.close(k);
        for i in 0..k {
            for j in may.ones(i) {
                d[i * k + j] = if sure.has(i, j) {
                    B::T
                } else {
                    let e = self.fresh();
                    self.lazy_of.push(e.var().index() as u32, id, (i * k + j) as u32);
                    B::L(e)
                };
            }
        }
        for i in 0..k {
            for j in may.ones(i) {
                if let (B::L(_), l @ B::L(_)) = (d[i * k + j], input[i * k + j]) {
                    let e = d[i * k + j];
                    self.owned_clause(e, &[l.negate(), e]);
                }
            }
            for m in may.ones(i) {
                for j in edges.ones(m) {
                    let (e, b) = (d[i * k + j], input[m * k + j]);
                    if e != B::T {
                        self.owned_clause(e, &[d[i * k + m].negate(), b.negate(), e]);
                    }
                }
            }
        }
        let same_print = self.lazy_of_print.insert(print, id);
        self.lazy.push(Lazy { k, input, output: d.to_vec(), exact: None, same_print });
    }

    /// Bounds the one-way closure entry `e` from above by the exact closure, which makes
    /// it exact.
    pub(super) fn complete(&mut self, e: Lit) {
        let Some((id, at)) = self.lazy_of.take(e.var().index() as u32) else { return };
        let id = id as usize;
        if self.lazy[id].exact.is_none() {
            let k = self.lazy[id].k;
            let mut d = self.lazy[id].input.clone();
            self.closure(k, &mut d);
            self.lazy[id].exact = Some(d);
        }
        let x = self.lazy[id].exact.as_ref().map_or(B::F, |d| d[at as usize]);
        // Not a constraint of the model: no guard applies.
        match x {
            B::T => {}
            B::F => self.push(super::NO_OWNER, &[!e]),
            B::L(l) => self.push(super::NO_OWNER, &[!e, l]),
        }
    }

    /// Makes every one-way closure entry exact (for the formulas that leave the crate
    /// whole: proofs, exports, explanations).
    pub(super) fn complete_all(&mut self) {
        let todo: Vec<u32> = self.lazy_of.vars().collect();
        for v in todo {
            self.complete(Lit::from_index(v as usize, true));
        }
    }
}
