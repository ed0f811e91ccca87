//! The symbolic skeleton: N event slots whose thread, kind, location, rf and co are
//! solver variables, with the well-formedness of a candidate execution, and the initial
//! writes (one per location) as constants. Events `0..L` are the initial writes of
//! locations `0..L`; events `L..L+N` are the slots.
//!
//! Symmetries are broken here: the threads are contiguous runs of slots, numbered in
//! slot order; a location is used first after every lower one.

use super::vocab::{Half, Vocab};
use crate::logic::{B, Logic};
use crate::rel::Rel;

/// The slots' variables and the base relations over them.
pub struct Skeleton<'v> {
    pub vocab: &'v Vocab,
    pub locs: usize,
    pub slots: usize,
    pub threads: usize,
    /// Per slot, one-hot: its thread.
    pub th: Vec<Vec<B>>,
    /// Per slot, one-hot: its kind (a row of the vocabulary).
    pub kind: Vec<Vec<B>>,
    /// Per event, one-hot where it is an access, else all false: its location.
    pub loc: Vec<Vec<B>>,
    pub read: Vec<B>,
    pub write: Vec<B>,
    pub fence: Vec<B>,
    /// Per pair of events: same location (both accesses).
    pub same_loc: Vec<Vec<B>>,
    /// Slot pairs `i < j` of one thread (as events).
    pub same_thread: Rel,
    /// A read-modify-write's read and write.
    pub pair: Rel,
    /// A load-reserve and its store-conditional (two instructions, in po).
    pub lxsx: Rel,
    pub po: Rel,
    pub rf: Rel,
    pub co: Rel,
    /// Dependencies from a read to a po-later event of its thread (`deps.rs`), empty
    /// where the vocabulary has none.
    pub addr: Rel,
    pub data: Rel,
    pub ctrl: Rel,
}

impl Skeleton<'_> {
    /// The number of events: the initial writes and the slots.
    pub fn n(&self) -> usize {
        self.locs + self.slots
    }

    /// The event of slot `i`.
    pub fn ev(&self, i: usize) -> usize {
        self.locs + i
    }

    /// The variables that fix a candidate's shape (thread, kind, location, rf, co): what
    /// blocking a candidate rules out.
    pub fn shape_lits(&self) -> Vec<B> {
        let mut out: Vec<B> = self.th.iter().chain(&self.kind).chain(&self.loc).flatten().copied().collect();
        out.extend(self.rf.values());
        out.extend(self.co.values());
        for d in [&self.addr, &self.data, &self.ctrl] {
            out.extend(d.values());
        }
        out.retain(|b| matches!(b, B::L(_)));
        out
    }
}

/// Builds the skeleton of `slots` events over at most `threads` threads and `locs`
/// locations, asserting its well-formedness in `lg`.
pub fn build<'v>(lg: &mut Logic, vocab: &'v Vocab, slots: usize, threads: usize, locs: usize) -> Skeleton<'v> {
    let mut sk = Skeleton {
        vocab,
        locs,
        slots,
        threads,
        th: Vec::new(),
        kind: Vec::new(),
        loc: Vec::new(),
        read: Vec::new(),
        write: Vec::new(),
        fence: Vec::new(),
        same_loc: Vec::new(),
        same_thread: Rel::empty(0),
        pair: Rel::empty(0),
        lxsx: Rel::empty(0),
        po: Rel::empty(0),
        rf: Rel::empty(0),
        co: Rel::empty(0),
        addr: Rel::empty(0),
        data: Rel::empty(0),
        ctrl: Rel::empty(0),
    };
    threads_of(lg, &mut sk);
    kinds_of(lg, &mut sk);
    locations_of(lg, &mut sk);
    pairs_of(lg, &mut sk);
    rf_of(lg, &mut sk);
    co_of(lg, &mut sk);
    observed_co(lg, &sk);
    super::deps::deps_of(lg, &mut sk);
    sk
}

fn fresh_vec(lg: &mut Logic, k: usize) -> Vec<B> {
    (0..k).map(|_| B::L(lg.fresh())).collect()
}

/// Threads: slot 0 in thread 0, each later slot in its predecessor's thread or the next.
fn threads_of(lg: &mut Logic, sk: &mut Skeleton) {
    let t = sk.threads;
    for i in 0..sk.slots {
        let v = fresh_vec(lg, t);
        lg.exactly_one(&v);
        if i == 0 {
            lg.assert(v[0]);
        } else {
            for k in 0..t {
                let prev = &sk.th[i - 1];
                let from = if k > 0 { vec![v[k].negate(), prev[k], prev[k - 1]] } else { vec![v[k].negate(), prev[k]] };
                lg.clause(&from);
            }
        }
        sk.th.push(v);
    }
    let n = sk.n();
    let mut m = Vec::new();
    for i in 0..sk.slots {
        for j in i + 1..sk.slots {
            let both: Vec<B> = (0..t).map(|k| lg.and2(sk.th[i][k], sk.th[j][k])).collect();
            m.push(((sk.ev(i), sk.ev(j)), lg.or(&both)));
        }
    }
    sk.same_thread = Rel::collect_sorted(n, m.len(), m);
}

/// Kinds: one per slot; the class sets of every event (the initial writes are writes).
fn kinds_of(lg: &mut Logic, sk: &mut Skeleton) {
    let kinds = &sk.vocab.kinds;
    for _ in 0..sk.locs {
        sk.read.push(B::F);
        sk.write.push(B::T);
        sk.fence.push(B::F);
    }
    for i in 0..sk.slots {
        let v = fresh_vec(lg, kinds.len());
        lg.exactly_one(&v);
        let of = |lg: &mut Logic, f: &dyn Fn(usize) -> bool| {
            let xs: Vec<B> = (0..kinds.len()).filter(|&k| f(k)).map(|k| v[k]).collect();
            lg.or(&xs)
        };
        sk.read.push(of(lg, &|k| kinds[k].read));
        sk.write.push(of(lg, &|k| kinds[k].write));
        let fence = of(lg, &|k| kinds[k].fence);
        // A fence orders something only between two events of its thread.
        if i == 0 || i + 1 == sk.slots {
            lg.assert(fence.negate());
        } else {
            let (before, after) =
                (sk.same_thread.get(sk.ev(i - 1), sk.ev(i)), sk.same_thread.get(sk.ev(i), sk.ev(i + 1)));
            lg.implies(fence, before);
            lg.implies(fence, after);
        }
        sk.fence.push(fence);
        sk.kind.push(v);
    }
}

/// Locations: one per access, none for a fence; location `l > 0` is used first after
/// location `l - 1`.
fn locations_of(lg: &mut Logic, sk: &mut Skeleton) {
    let l = sk.locs;
    for e in 0..l {
        sk.loc.push((0..l).map(|k| B::from_bool(k == e)).collect());
    }
    for i in 0..sk.slots {
        let e = sk.ev(i);
        let v = fresh_vec(lg, l);
        let access = lg.or2(sk.read[e], sk.write[e]);
        let mut some = v.clone();
        some.push(access.negate());
        lg.clause(&some);
        lg.at_most_one(&v);
        for k in 0..l {
            lg.implies(v[k], access);
            if k > 0 {
                let mut earlier: Vec<B> = sk.loc[l..].iter().map(|x| x[k - 1]).collect();
                earlier.push(v[k].negate());
                lg.clause(&earlier);
            }
        }
        sk.loc.push(v);
    }
    let n = sk.n();
    sk.same_loc = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| {
                    let both: Vec<B> = (0..l).map(|k| lg.and2(sk.loc[a][k], sk.loc[b][k])).collect();
                    lg.or(&both)
                })
                .collect()
        })
        .collect();
}

/// Read-modify-writes: a read half is followed by its write half, in its thread, at its
/// location; po orders the slots of a thread but not the two halves of one instruction.
/// A load-reserve is followed by its store-conditional the same way, in po.
fn pairs_of(lg: &mut Logic, sk: &mut Skeleton) {
    sk.pair = link(lg, sk, Half::Read, Half::Write);
    sk.lxsx = link(lg, sk, Half::LinkRead, Half::LinkWrite);
    let in_po = crate::isa::for_arch(sk.vocab.arch).is_some_and(|i| i.rmw_in_po());
    let mut po = Vec::new();
    for ((a, b), s) in sk.same_thread.iter() {
        let p = if in_po { s } else { lg.and2(s, sk.pair.get(a, b).negate()) };
        po.push(((a, b), p));
    }
    sk.po = Rel::collect_sorted(sk.n(), po.len(), po);
}

/// The pairs of a `first` kind and the `second` kind in the next slot, which must follow
/// it (and only it), in its thread, at its location.
fn link(lg: &mut Logic, sk: &Skeleton, first: Half, second: Half) -> Rel {
    let kinds = &sk.vocab.kinds;
    let half = |i: usize, h: Half| -> Vec<B> {
        (0..kinds.len()).filter(|&k| kinds[k].half == h).map(|k| sk.kind[i][k]).collect()
    };
    let (n, mut m) = (sk.n(), Vec::new());
    for i in 0..sk.slots {
        let (r, w) = (half(i, first), half(i, second));
        let (r, w) = (lg.or(&r), lg.or(&w));
        if i + 1 == sk.slots {
            lg.assert(r.negate());
        }
        if i == 0 {
            lg.assert(w.negate());
        }
        if i + 1 < sk.slots {
            let (a, b) = (sk.ev(i), sk.ev(i + 1));
            let next = half(i + 1, second);
            let next = lg.or(&next);
            lg.implies(r, next);
            lg.implies(r, sk.same_thread.get(a, b));
            lg.implies(r, sk.same_loc[a][b]);
            m.push(((a, b), r));
            if first == Half::Read {
                // One instruction: its write half is the row after its read half.
                for k in (0..kinds.len()).filter(|&k| kinds[k].half == Half::Read) {
                    lg.implies(sk.kind[i][k], sk.kind[i + 1][k + 1]);
                }
            }
        }
        if i > 0 {
            let prev = half(i - 1, first);
            let prev = lg.or(&prev);
            lg.implies(w, prev);
        }
    }
    Rel::collect_sorted(n, m.len(), m)
}

/// rf: each read reads one write of its location, never its own instruction's.
fn rf_of(lg: &mut Logic, sk: &mut Skeleton) {
    let n = sk.n();
    let mut m = Vec::new();
    for i in 0..sk.slots {
        let r = sk.ev(i);
        let mut srcs = Vec::new();
        for w in (0..n).filter(|&w| w != r) {
            let v = B::L(lg.fresh());
            lg.implies(v, sk.write[w]);
            lg.implies(v, sk.read[r]);
            lg.implies(v, sk.same_loc[w][r]);
            if w == r + 1 {
                lg.implies(v, sk.pair.get(r, w).negate());
            }
            srcs.push(v);
            m.push(((w, r), v));
        }
        lg.at_most_one(&srcs);
        srcs.push(sk.read[r].negate());
        lg.clause(&srcs);
    }
    m.sort_by_key(|e| e.0);
    sk.rf = Rel::collect_sorted(n, m.len(), m);
}

/// co: per location a strict total order of its writes, the initial write first. An
/// orientation variable per slot pair, fixed where the pair is no same-location writes,
/// transitive over same-location triples.
fn co_of(lg: &mut Logic, sk: &mut Skeleton) {
    let n = sk.n();
    let ww: Vec<Vec<B>> =
        (0..n).map(|a| (0..n).map(|b| lg.and(&[sk.write[a], sk.write[b], sk.same_loc[a][b]])).collect()).collect();
    // before[a][b] for slot events a < b: a is co-before b.
    let mut before = vec![vec![B::F; n]; n];
    for a in sk.locs..n {
        for b in a + 1..n {
            let o = B::L(lg.fresh());
            lg.clause(&[ww[a][b], o]);
            before[a][b] = o;
            before[b][a] = o.negate();
        }
    }
    for a in sk.locs..n {
        for b in sk.locs..n {
            for c in sk.locs..n {
                if a == b || b == c || a == c || !(a < b && a < c) {
                    continue;
                }
                // No 3-cycle a → b → c → a among same-location writes.
                let rel = lg.and2(ww[a][b], ww[b][c]);
                lg.clause(&[rel.negate(), before[a][b].negate(), before[b][c].negate(), before[c][a].negate()]);
            }
        }
    }
    let mut m = Vec::new();
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a && b >= sk.locs) {
            let o = if a < sk.locs { B::T } else { before[a][b] };
            let e = lg.and2(ww[a][b], o);
            if !e.is_false() {
                m.push(((a, b), e));
            }
        }
    }
    sk.co = Rel::collect_sorted(n, m.len(), m);
}

/// herd's candidate rules (its `pco`, as `encode::exec::observed_co`): co extends what a
/// thread observes of one location. For accesses a before b (in po, or, where the
/// vocabulary says herd orders them, the two halves of one instruction): W a, W b: a co
/// b; R a, W b: a's write co b; W a, R b: a co b's write unless b reads a; R a, R b: a's
/// write co b's where they differ. There, an event that both reads and writes (C's
/// read-modify-write) writes after what it read.
fn observed_co(lg: &mut Logic, sk: &Skeleton) {
    let n = sk.n();
    let mut sources: Vec<Vec<(usize, B)>> = vec![Vec::new(); n];
    for ((w, r), b) in sk.rf.iter() {
        sources[r].push((w, b));
    }
    let intra = sk.vocab.rmw_ordered;
    for a in sk.locs..n {
        for &(w, x) in sources[a].iter().filter(|_| intra) {
            lg.clause(&[x.negate(), sk.write[a].negate(), sk.co.get(w, a)]);
        }
        for b in a + 1..n {
            let pair = if intra { sk.pair.get(a, b) } else { B::F };
            let ordered = lg.or2(sk.po.get(a, b), pair);
            let both = lg.and2(ordered, sk.same_loc[a][b]);
            if both.is_false() {
                continue;
            }
            let ww = lg.and(&[both, sk.write[a], sk.write[b]]);
            lg.implies(ww, sk.co.get(a, b));
            for &(w, x) in &sources[a] {
                lg.clause(&[x.negate(), both.negate(), sk.write[b].negate(), sk.co.get(w, b)]);
            }
            for &(w, x) in sources[b].iter().filter(|s| s.0 != a) {
                lg.clause(&[x.negate(), both.negate(), sk.write[a].negate(), sk.co.get(a, w)]);
            }
            for &(w, x) in &sources[a] {
                for &(w2, y) in sources[b].iter().filter(|s| s.0 != w) {
                    lg.clause(&[x.negate(), y.negate(), both.negate(), sk.co.get(w, w2)]);
                }
            }
        }
    }
}
