//! A solution of the skeleton read back as a concrete execution shape, and its canonical
//! key: the same key for every renaming of threads and locations.

use super::skeleton::Skeleton;
use crate::logic::B;

/// One event of a thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its slot (its event number is `locs + slot`).
    pub slot: usize,
    /// Its row of the vocabulary.
    pub kind: usize,
    pub loc: Option<usize>,
}

/// A candidate execution: its threads, where each read reads from, and co per location.
#[derive(Clone, Debug)]
pub struct Shape {
    pub locs: usize,
    pub threads: Vec<Vec<Event>>,
    /// Per slot, the event a read reads from (an initial write is its location's number).
    pub rf: Vec<Option<usize>>,
    /// Per location, its non-initial writes in co order (as slots).
    pub co: Vec<Vec<usize>>,
    /// Dependencies as (read, later event) slot pairs.
    pub addr: Vec<(usize, usize)>,
    pub data: Vec<(usize, usize)>,
    pub ctrl: Vec<(usize, usize)>,
}

fn holding(bs: &[B], truth: &[bool]) -> Option<usize> {
    bs.iter().position(|b| b.value(truth))
}

impl Shape {
    /// The shape a solution of `sk` gives.
    pub fn read(sk: &Skeleton, truth: &[bool]) -> Shape {
        let mut threads: Vec<Vec<Event>> = vec![Vec::new(); sk.threads];
        let mut rf = vec![None; sk.slots];
        for i in 0..sk.slots {
            let t = holding(&sk.th[i], truth).unwrap_or(0);
            let kind = holding(&sk.kind[i], truth).unwrap_or(0);
            let loc = holding(&sk.loc[sk.ev(i)], truth);
            threads[t].push(Event { slot: i, kind, loc });
        }
        threads.retain(|t| !t.is_empty());
        for ((w, r), b) in sk.rf.iter() {
            if b.value(truth) {
                rf[r - sk.locs] = Some(w);
            }
        }
        let mut co = vec![Vec::new(); sk.locs];
        for (l, writes) in co.iter_mut().enumerate() {
            let mut ws: Vec<usize> = (0..sk.slots)
                .filter(|&i| sk.write[sk.ev(i)].value(truth) && sk.loc[sk.ev(i)][l].value(truth))
                .collect();
            // Sorted by the number of co-predecessors among them.
            let before = |a: usize| ws_before(sk, truth, a, l);
            ws.sort_by_key(|&i| before(i));
            *writes = ws;
        }
        let pairs = |r: &crate::rel::Rel| -> Vec<(usize, usize)> {
            r.iter().filter(|(_, b)| b.value(truth)).map(|((a, b), _)| (a - sk.locs, b - sk.locs)).collect()
        };
        let (addr, data, ctrl) = (pairs(&sk.addr), pairs(&sk.data), pairs(&sk.ctrl));
        Shape { locs: sk.locs, threads, rf, co, addr, data, ctrl }
    }

    /// The reads whose control dependency starts at `slot` (their branch comes just
    /// before it): the first slot each controls.
    pub fn ctrl_starts(&self, slot: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .ctrl
            .iter()
            .filter(|&&(r, e)| e == slot && !self.ctrl.iter().any(|&(r2, e2)| r2 == r && e2 < e))
            .map(|d| d.0)
            .collect();
        out.sort_unstable();
        out
    }

    /// How complex the test is, least first: its writes, its fences, read-modify-writes,
    /// annotations and dependencies, its threads.
    pub fn score(&self, vocab: &super::vocab::Vocab) -> (usize, usize, usize) {
        let kinds = || self.threads.iter().flatten().map(|e| &vocab.kinds[e.kind]);
        let writes = kinds().filter(|k| k.write).count();
        let special = kinds().filter(|k| k.fence || k.half.paired()).count();
        // Annotated accesses (`sw.rl`) and dependencies count as special too.
        let annotated = kinds().filter(|k| !k.fence && !k.half.paired() && !k.tags.is_empty()).count();
        let special = special + annotated + self.addr.len() + self.data.len() + self.ctrl.len();
        (writes, special, self.threads.len())
    }

    /// Its kinds' rows summed: a table lists each class's kinds weakest first, so that
    /// among equally complex tests this prefers `READ_ONCE` to `smp_load_acquire`.
    pub fn rows(&self) -> usize {
        self.threads.iter().flatten().map(|e| e.kind).sum()
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.threads.iter().map(Vec::len).sum()
    }

    /// The locations used, in order of first use.
    pub fn used_locs(&self) -> usize {
        self.threads.iter().flatten().filter_map(|e| e.loc).map(|l| l + 1).max().unwrap_or(0)
    }

    /// A key equal for renamings of threads and locations: the least, over the orders of
    /// the threads, of the shape written with locations and events renumbered by first use.
    pub fn canonical(&self) -> String {
        let k = self.threads.len();
        let mut best: Option<String> = None;
        for perm in permutations(k) {
            let key = self.key_in(&perm);
            if best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
        best.unwrap_or_default()
    }

    /// The shape written with threads in the order `perm`.
    fn key_in(&self, perm: &[usize]) -> String {
        let order: Vec<&Event> = perm.iter().flat_map(|&t| &self.threads[t]).collect();
        let mut locs: Vec<usize> = Vec::new();
        let mut name_loc = |l: usize| match locs.iter().position(|&x| x == l) {
            Some(k) => k,
            None => {
                locs.push(l);
                locs.len() - 1
            }
        };
        let pos = |slot: usize| order.iter().position(|e| e.slot == slot);
        let mut out = String::new();
        for &t in perm {
            out.push('|');
            for e in &self.threads[t] {
                let l = e.loc.map(&mut name_loc);
                let src = self.rf[e.slot]
                    .map(|w| if w < self.locs { "i".to_string() } else { format!("{:?}", pos(w - self.locs)) });
                out.push_str(&format!("{}:{:?}:{:?};", e.kind, l, src));
            }
        }
        for (k, &l) in locs.iter().enumerate() {
            let ws: Vec<Option<usize>> = self.co[l].iter().map(|&s| pos(s)).collect();
            out.push_str(&format!("/{k}:{ws:?}"));
        }
        for (name, deps) in [("a", &self.addr), ("d", &self.data), ("c", &self.ctrl)] {
            let mut ds: Vec<(Option<usize>, Option<usize>)> = deps.iter().map(|&(r, e)| (pos(r), pos(e))).collect();
            ds.sort_unstable();
            out.push_str(&format!("/{name}{ds:?}"));
        }
        out
    }
}

/// How many writes of location `l` are co-before slot `a`'s.
fn ws_before(sk: &Skeleton, truth: &[bool], a: usize, _l: usize) -> usize {
    let e = sk.ev(a);
    (sk.locs..sk.n()).filter(|&b| sk.co.get(b, e).value(truth)).count()
}

/// Every order of `0..k`.
fn permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(k - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, k - 1);
            out.push(q);
        }
    }
    out
}
