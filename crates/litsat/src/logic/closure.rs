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

use super::{B, Logic};
use varisat::Lit;

/// A one-way closure: its input, as a dense k×k matrix, and its exact closure once built.
pub(super) struct Lazy {
    k: usize,
    input: Vec<B>,
    exact: Option<Vec<B>>,
}

impl Logic {
    /// `r+` of the dense k×k matrix `d`, exactly: `d` becomes the closure.
    pub fn closure(&mut self, k: usize, d: &mut [B]) {
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

    /// `r+` of the dense k×k matrix `d`, one way (see the module doc): `d` becomes the
    /// closure, whose non-constant entries are bounded from below only until
    /// [`Logic::pruned`] finds a use that needs more.
    pub fn closure_lower(&mut self, k: usize, d: &mut [B]) {
        // Built once per input, as gates are: an iteration that meets the same closure
        // again must see the same variables.
        if let Some(done) = self.lazy_cache.get(&*d) {
            d.copy_from_slice(done);
            return;
        }
        let input = d.to_vec();
        let succ = Succ::new(k, &input);
        let id = self.lazy.len() as u32;
        // Which pairs a path may join (row by row, as d), and which a path of constant
        // edges does.
        let mut may = vec![false; k * k];
        let mut sure = vec![false; k];
        let mut stack = Vec::new();
        for i in 0..k {
            let row = &mut may[i * k..(i + 1) * k];
            search(&succ, i, |_| true, row, &mut stack);
            sure.fill(false);
            search(&succ, i, |b| b == B::T, &mut sure, &mut stack);
            for j in (0..k).filter(|&j| row[j]) {
                d[i * k + j] = if sure[j] {
                    B::T
                } else {
                    let e = self.fresh();
                    self.lazy_of.insert(e.var().index() as u32, (id, (i * k + j) as u32));
                    B::L(e)
                };
            }
        }
        for i in 0..k {
            let row = &may[i * k..(i + 1) * k];
            let reached = || (0..k).filter(move |&j| row[j]);
            for j in reached() {
                if let (B::L(_), l @ B::L(_)) = (d[i * k + j], input[i * k + j]) {
                    let e = d[i * k + j];
                    self.owned_clause(e, &[l.negate(), e]);
                }
            }
            for m in reached() {
                for &(j, b) in succ.of(m) {
                    let e = d[i * k + j];
                    if e != B::T {
                        self.owned_clause(e, &[d[i * k + m].negate(), b.negate(), e]);
                    }
                }
            }
        }
        self.lazy_cache.insert(input.clone(), d.to_vec());
        self.lazy.push(Lazy { k, input, exact: None });
    }

    /// Bounds the one-way closure entry `e` from above by the exact closure, which makes
    /// it exact.
    pub(super) fn complete(&mut self, e: Lit) {
        let Some((id, at)) = self.lazy_of.remove(&(e.var().index() as u32)) else { return };
        let id = id as usize;
        if self.lazy[id].exact.is_none() {
            let k = self.lazy[id].k;
            let mut d = std::mem::take(&mut self.lazy[id].input);
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
        let mut todo: Vec<u32> = self.lazy_of.keys().copied().collect();
        todo.sort_unstable();
        for v in todo {
            self.complete(Lit::from_index(v as usize, true));
        }
    }
}

/// A dense k×k matrix's entries that are not false, row by row: one vector for all rows
/// (a closure runs once per test and relation, and a vector per row cost most of it).
struct Succ {
    /// Row i is `edges[start[i]..start[i + 1]]`.
    start: Vec<usize>,
    edges: Vec<(usize, B)>,
}

impl Succ {
    fn new(k: usize, d: &[B]) -> Succ {
        let mut start = Vec::with_capacity(k + 1);
        let mut edges = Vec::new();
        for row in d.chunks(k.max(1)).take(k) {
            start.push(edges.len());
            edges.extend(row.iter().enumerate().filter(|e| !e.1.is_false()).map(|(j, &b)| (j, b)));
        }
        start.push(edges.len());
        Succ { start, edges }
    }

    fn of(&self, i: usize) -> &[(usize, B)] {
        &self.edges[self.start[i]..self.start[i + 1]]
    }
}

/// Marks in `seen` (false on entry) the nodes reachable from `from` by one or more edges
/// whose entry passes `ok`; `stack` is scratch space.
fn search(succ: &Succ, from: usize, ok: impl Fn(B) -> bool, seen: &mut [bool], stack: &mut Vec<usize>) {
    stack.clear();
    stack.push(from);
    while let Some(v) = stack.pop() {
        for &(j, b) in succ.of(v) {
            if ok(b) && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
}
