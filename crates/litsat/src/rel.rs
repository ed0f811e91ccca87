//! The relation algebra of cat, over literals.
//!
//! A relation is a sparse n×n matrix of [`B`] entries (absent means false); a set is a
//! vector of n entries. Operations build gates through [`Logic`], so a relation that is
//! fixed by the event structure stays constant and costs nothing in the CNF.

use crate::logic::{B, Logic};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set(pub Vec<B>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rel {
    pub n: usize,
    pub m: Entries,
}

/// A relation's entries: a vector sorted by pair, each pair once, the pair packed in one
/// integer (`packed`). Litmus relations are small and built whole, in order, by merges;
/// a vector costs one allocation where a B-tree costs one per node, which dominated small
/// tests, and a packed pair makes an entry 16 bytes (a pair of `usize`s made it 24) and a
/// merge's comparison one word's.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Entries(Vec<(u64, B)>);

type Entry = ((usize, usize), B);

/// A pair as one integer, ordered as the pair is.
#[inline]
fn packed(i: usize, j: usize) -> u64 {
    ((i as u64) << 32) | j as u64
}

#[inline]
fn unpacked(k: u64) -> (usize, usize) {
    ((k >> 32) as usize, (k & 0xffff_ffff) as usize)
}

/// The row of a packed pair.
#[inline]
fn row_of(k: u64) -> usize {
    (k >> 32) as usize
}

/// An entry as it is stored, as callers see it.
fn unpacked_entry(&(k, b): &(u64, B)) -> Entry {
    (unpacked(k), b)
}

impl Entries {
    fn find(&self, &(i, j): &(usize, usize)) -> Result<usize, usize> {
        self.0.binary_search_by_key(&packed(i, j), |e| e.0)
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Entry> + Clone {
        self.0.iter().map(unpacked_entry)
    }
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = (usize, usize)> + Clone {
        self.0.iter().map(|&(k, _)| unpacked(k))
    }
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &B> + Clone {
        self.0.iter().map(|(_, v)| v)
    }
    pub fn get(&self, k: &(usize, usize)) -> Option<&B> {
        self.find(k).ok().map(|x| &self.0[x].1)
    }
    pub fn contains_key(&self, k: &(usize, usize)) -> bool {
        self.find(k).is_ok()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn insert(&mut self, (i, j): (usize, usize), v: B) -> Option<B> {
        let k = packed(i, j);
        // Appending in order, the common case, is a push.
        if self.0.last().is_none_or(|(x, _)| *x < k) {
            self.0.push((k, v));
            return None;
        }
        match self.find(&(i, j)) {
            Ok(x) => Some(std::mem::replace(&mut self.0[x].1, v)),
            Err(x) => {
                self.0.insert(x, (k, v));
                None
            }
        }
    }
    pub fn remove(&mut self, k: &(usize, usize)) -> Option<B> {
        self.find(k).ok().map(|x| self.0.remove(x).1)
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = Entry;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (u64, B)>, fn(&(u64, B)) -> Entry>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(unpacked_entry)
    }
}

impl Set {
    pub fn empty(n: usize) -> Set {
        Set(vec![B::F; n])
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn zip(&self, o: &Set, lg: &mut Logic, f: impl Fn(&mut Logic, B, B) -> B) -> Set {
        Set(self.0.iter().zip(&o.0).map(|(&a, &b)| f(lg, a, b)).collect())
    }
    pub fn union(&self, o: &Set, lg: &mut Logic) -> Set {
        self.zip(o, lg, |lg, a, b| lg.or2(a, b))
    }
    pub fn inter(&self, o: &Set, lg: &mut Logic) -> Set {
        self.zip(o, lg, |lg, a, b| lg.and2(a, b))
    }
    pub fn diff(&self, o: &Set, lg: &mut Logic) -> Set {
        self.zip(o, lg, |lg, a, b| lg.and2(a, b.negate()))
    }
}

/// [`Rel::seq`]'s scratch space: the row starts and reached marks by event, and a row's
/// terms.
#[derive(Default)]
struct SeqScratch {
    by_event: Vec<usize>,
    acc: Vec<(usize, B)>,
    terms: Vec<B>,
}

thread_local! {
    static SEQ_SCRATCH: std::cell::Cell<SeqScratch> = const {
        std::cell::Cell::new(SeqScratch { by_event: Vec::new(), acc: Vec::new(), terms: Vec::new() })
    };
}

impl Rel {
    pub fn empty(n: usize) -> Rel {
        Rel { n, m: Entries::default() }
    }

    /// The entries that are not false, in order of their pairs.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Entry> + Clone {
        self.m.iter()
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = (usize, usize)> + Clone {
        self.m.keys()
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = B> + Clone {
        self.m.values().copied()
    }

    /// How many entries are not false.
    pub fn len(&self) -> usize {
        self.m.len()
    }

    pub fn is_empty(&self) -> bool {
        self.m.is_empty()
    }

    pub fn get(&self, i: usize, j: usize) -> B {
        self.m.get(&(i, j)).copied().unwrap_or(B::F)
    }

    pub fn set(&mut self, i: usize, j: usize, b: B) {
        if b.is_false() {
            self.m.remove(&(i, j));
        } else {
            self.m.insert((i, j), b);
        }
    }

    /// The relation with these entries, given in increasing order (false ones are left out).
    pub fn from_sorted(n: usize, entries: Vec<((usize, usize), B)>) -> Rel {
        Rel::collect_sorted(n, entries.len(), entries)
    }

    /// [`Rel::from_sorted`] of the entries `entries` yields, with room for `most` of them
    /// made at once: a relation built from the event structure is packed as it is made,
    /// without a vector of unpacked entries first.
    pub fn collect_sorted(n: usize, most: usize, entries: impl IntoIterator<Item = Entry>) -> Rel {
        let mut m: Vec<(u64, B)> = Vec::with_capacity(most);
        for ((i, j), b) in entries {
            let k = packed(i, j);
            debug_assert!(m.last().is_none_or(|l| l.0 < k), "entries out of order");
            if !b.is_false() {
                m.push((k, b));
            }
        }
        Rel { n, m: Entries(m) }
    }

    /// The pairs the relation holds under `truth` (an execution's model), in order.
    pub fn pairs_in(&self, truth: &[bool]) -> Vec<(usize, usize)> {
        self.m.iter().filter(|(_, b)| b.value(truth)).map(|(k, _)| k).collect()
    }

    pub fn from_pairs(n: usize, pairs: impl IntoIterator<Item = (usize, usize)>) -> Rel {
        let mut r = Rel::empty(n);
        for (i, j) in pairs {
            r.set(i, j, B::T);
        }
        r
    }

    pub fn union(&self, o: &Rel, lg: &mut Logic) -> Rel {
        let (a, b) = (&self.m.0, &o.m.0);
        // A side with no entry leaves the other as it is (no entry is false).
        if a.is_empty() || b.is_empty() {
            return if a.is_empty() { o.clone() } else { self.clone() };
        }
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut x, mut y) = (0, 0);
        while x < a.len() && y < b.len() {
            let ((ka, va), (kb, vb)) = (a[x], b[y]);
            if ka < kb {
                out.push(a[x]);
                x += 1;
            } else if kb < ka {
                out.push(b[y]);
                y += 1;
            } else {
                let v = lg.or2(va, vb);
                if !v.is_false() {
                    out.push((ka, v));
                }
                x += 1;
                y += 1;
            }
        }
        out.extend_from_slice(&a[x..]);
        out.extend_from_slice(&b[y..]);
        // Merged in order, each pair once.
        Rel { n: self.n, m: Entries(out) }
    }

    pub fn inter(&self, o: &Rel, lg: &mut Logic) -> Rel {
        self.merge_left(o, lg, |lg, a, b| lg.and2(a, b))
    }

    pub fn diff(&self, o: &Rel, lg: &mut Logic) -> Rel {
        self.merge_left(o, lg, |lg, a, b| lg.and2(a, b.negate()))
    }

    /// The entries of `self`, each combined by `f` with `o`'s entry for the same pair (false
    /// where `o` has none), in one pass over both sorted vectors.
    fn merge_left(&self, o: &Rel, lg: &mut Logic, f: impl Fn(&mut Logic, B, B) -> B) -> Rel {
        let theirs = &o.m.0;
        let mut out = Vec::with_capacity(self.m.len());
        let mut y = 0;
        for &(k, a) in &self.m.0 {
            while y < theirs.len() && theirs[y].0 < k {
                y += 1;
            }
            let b = if y < theirs.len() && theirs[y].0 == k { theirs[y].1 } else { B::F };
            let ab = f(lg, a, b);
            if !ab.is_false() {
                out.push((k, ab));
            }
        }
        Rel { n: self.n, m: Entries(out) }
    }

    /// The entries are placed by column, without sorting: they come by row, so each
    /// column's come in order.
    pub fn inverse(&self) -> Rel {
        let mut next = vec![0usize; self.n + 1];
        for (_, j) in self.m.keys() {
            next[j + 1] += 1;
        }
        for j in 0..self.n {
            next[j + 1] += next[j];
        }
        let mut out = vec![(0, B::F); self.m.len()];
        for ((i, j), b) in &self.m {
            out[next[j]] = (packed(j, i), b);
            next[j] += 1;
        }
        Rel { n: self.n, m: Entries(out) }
    }

    /// Relational composition `self ; o`, row by row: each entry (i, j) is the OR of
    /// `self(i,k) ∧ o(k,j)` over k, built once (and not at all past a true term). The
    /// rows of `o` are slices of its entries (sorted by source), and the terms of a row
    /// of the result gathered in one reused vector, sorted by target with the order of k
    /// kept, so that the gates built are those a per-pair accumulation would build.
    pub fn seq(&self, o: &Rel, lg: &mut Logic) -> Rel {
        // `[s] ; o` and `r ; [s]`, frequent in models, are each entry of one side and'ed
        // with the other's entry on its row (column): the same gates, in the same order,
        // as below, without gathering and sorting terms.
        if self.is_diagonal() {
            return o.map_entries(|lg, (i, _), b| lg.and2(self.get(i, i), b), lg);
        }
        if o.is_diagonal() {
            return self.map_entries(|lg, (_, j), a| lg.and2(a, o.get(j, j)), lg);
        }
        // The scratch arrays are the thread's, kept from one composition to the next (this
        // runs a few dozen times a test).
        let mut s = SEQ_SCRATCH.take();
        let out = self.seq_rows(o, lg, &mut s);
        SEQ_SCRATCH.set(s);
        out
    }

    /// [`Rel::seq`] where neither side is diagonal, with `s` for scratch space.
    fn seq_rows(&self, o: &Rel, lg: &mut Logic, s: &mut SeqScratch) -> Rel {
        let SeqScratch { by_event: scratch, acc, terms } = s;
        scratch.clear();
        scratch.resize(2 * self.n + 1, 0);
        let (start, reached) = scratch.split_at_mut(self.n + 1);
        for &(k, _) in &o.m.0 {
            start[row_of(k) + 1] += 1;
        }
        for k in 0..self.n {
            start[k + 1] += start[k];
        }
        // `reached[j] == 1`: target j is already reached by a true term in the current row.
        let mut out: Vec<(u64, B)> = Vec::with_capacity(self.m.len());
        let mut it = self.m.iter().peekable();
        while let Some(&((i, _), _)) = it.peek() {
            acc.clear();
            while let Some(&((i2, k), a)) = it.peek() {
                if i2 != i {
                    break;
                }
                it.next();
                for &(kj, b) in &o.m.0[start[k]..start[k + 1]] {
                    let j = unpacked(kj).1;
                    if reached[j] == 1 {
                        continue;
                    }
                    let ab = lg.and2(a, b);
                    if !ab.is_false() {
                        reached[j] = usize::from(ab == B::T);
                        acc.push((j, ab));
                    }
                }
            }
            acc.sort_by_key(|&(j, _)| j);
            for group in acc.chunk_by(|x, y| x.0 == y.0) {
                let j = group[0].0;
                reached[j] = 0;
                // A true term is its group's last (none is built after it).
                let b = match group {
                    [(_, b)] => *b,
                    [.., (_, B::T)] => B::T,
                    _ => {
                        terms.clear();
                        terms.extend(group.iter().map(|&(_, t)| t));
                        lg.or(terms)
                    }
                };
                if !b.is_false() {
                    out.push((packed(i, j), b));
                }
            }
        }
        // Row by row, each row sorted by target.
        Rel { n: self.n, m: Entries(out) }
    }

    /// Whether every entry is on the diagonal (as `[s]`'s).
    fn is_diagonal(&self) -> bool {
        self.m.keys().all(|(i, j)| i == j)
    }

    /// The entries `f` makes of each of this relation's, in order, less the false ones.
    fn map_entries(&self, mut f: impl FnMut(&mut Logic, (usize, usize), B) -> B, lg: &mut Logic) -> Rel {
        let mut out = Vec::with_capacity(self.m.len());
        for &(k, b) in &self.m.0 {
            let fb = f(lg, unpacked(k), b);
            if !fb.is_false() {
                out.push((k, fb));
            }
        }
        Rel { n: self.n, m: Entries(out) }
    }

    /// `[s]`.
    pub fn id_on(s: &Set) -> Rel {
        let m = s.0.iter().enumerate().filter(|(_, b)| !b.is_false()).map(|(i, &b)| (packed(i, i), b)).collect();
        Rel { n: s.len(), m: Entries(m) }
    }

    /// `a * b`.
    pub fn product(a: &Set, b: &Set, lg: &mut Logic) -> Rel {
        let rows = a.0.iter().filter(|x| !x.is_false()).count();
        let cols: Vec<(usize, B)> = b.0.iter().copied().enumerate().filter(|(_, y)| !y.is_false()).collect();
        let mut m = Vec::with_capacity(rows * cols.len());
        for (i, &x) in a.0.iter().enumerate() {
            if x.is_false() {
                continue;
            }
            for &(j, y) in &cols {
                let xy = lg.and2(x, y);
                if !xy.is_false() {
                    m.push((packed(i, j), xy));
                }
            }
        }
        // Built in order, without false entries.
        Rel { n: a.len(), m: Entries(m) }
    }

    /// Complement with respect to `universe * universe`.
    pub fn complement(&self, universe: &Set, lg: &mut Logic) -> Rel {
        let full = Rel::product(universe, universe, lg);
        full.diff(self, lg)
    }

    /// Each row's OR, the rows being runs of the sorted entries (one reused buffer, where
    /// a vector per event cost an allocation each).
    pub fn domain(&self, lg: &mut Logic) -> Set {
        let mut out = Vec::with_capacity(self.n);
        let mut row: Vec<B> = Vec::new();
        let mut rest = &self.m.0[..];
        for i in 0..self.n {
            let len = rest.iter().take_while(|&&(k, _)| row_of(k) == i).count();
            row.clear();
            row.extend(rest[..len].iter().map(|&(_, b)| b));
            rest = &rest[len..];
            out.push(lg.or(&row));
        }
        Set(out)
    }

    pub fn range(&self, lg: &mut Logic) -> Set {
        self.inverse().domain(lg)
    }

    /// Transitive closure, exact in both directions, so it may be used under negation.
    pub fn plus(&self, lg: &mut Logic) -> Rel {
        self.closed(|k, d| lg.closure(k, d))
    }

    /// Transitive closure, exact only where some use needs it to be (see
    /// [`Logic::closure_lower`]).
    pub fn plus_lazy(&self, lg: &mut Logic) -> Rel {
        self.closed(|k, d| lg.closure_lower(k, d))
    }

    /// The relation `close` makes of a dense matrix over the events that have an edge at
    /// all (the sparse map would be scanned once per pivot).
    fn closed(&self, close: impl FnOnce(usize, &mut [B])) -> Rel {
        let (nodes, mut d) = self.dense();
        let k = nodes.len();
        close(k, &mut d);
        let mut out = Vec::with_capacity(d.iter().filter(|b| !b.is_false()).count());
        for (x, &b) in d.iter().enumerate() {
            if !b.is_false() {
                out.push((packed(nodes[x / k], nodes[x % k]), b));
            }
        }
        Rel { n: self.n, m: Entries(out) }
    }

    /// The events that have an edge, and the relation over them as a dense k×k matrix
    /// (row by row, in the order of the events).
    pub fn dense(&self) -> (Vec<usize>, Vec<B>) {
        // By event: 1 + its place among the endpoints, or 0 if it has no edge.
        let mut at = vec![0usize; self.n];
        for (i, j) in self.m.keys() {
            at[i] = 1;
            at[j] = 1;
        }
        let mut nodes = Vec::with_capacity(self.n);
        for (e, a) in at.iter_mut().enumerate() {
            if *a > 0 {
                nodes.push(e);
                *a = nodes.len();
            }
        }
        let k = nodes.len();
        let mut d = vec![B::F; k * k];
        for ((i, j), b) in &self.m {
            d[(at[i] - 1) * k + at[j] - 1] = b;
        }
        (nodes, d)
    }

    pub fn with_id(&self, universe: &Set, lg: &mut Logic) -> Rel {
        self.union(&Rel::id_on(universe), lg)
    }

    /// Whether the relation is empty: a literal that holds exactly when no entry does.
    pub fn is_empty_b(&self, lg: &mut Logic) -> B {
        let v: Vec<B> = self.m.values().copied().collect();
        lg.or(&v).negate()
    }

    pub fn diagonal(&self) -> Vec<B> {
        (0..self.n).map(|i| self.get(i, i)).collect()
    }
}
