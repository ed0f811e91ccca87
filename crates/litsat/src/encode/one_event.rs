//! The model's view of herd's one-event read-modify-writes (C11's, [`Op::OneEvent`]).
//!
//! herd builds a C11 exchange, fetch-and-op or successful compare-and-exchange as one
//! event in both R and W. The encoder keeps it a read and a write, so values, rf, co and
//! everything printed need nothing new; only what the model sees changes. There, the write
//! stands for both where it happens: it joins the read's sets and takes over the read's
//! pairs, and pairs between the two vanish. Where the write does not happen (a failed
//! compare-and-exchange), the read stands alone, as the plain read herd builds then.
//!
//! [`Op::OneEvent`]: crate::isa::Op::OneEvent

use crate::events::{Eid, Events};
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};

/// Where each fused read appears to the model.
pub struct View {
    /// For each event, `Some((w, happens))` when it is the read of a one-event pair whose
    /// write `w` happens exactly when `happens` holds.
    fused: Vec<Option<(Eid, B)>>,
    /// Scratch space for [`View::rel`]'s dense matrix, kept from one relation to the next.
    dense: Vec<B>,
    /// Whether there is no one-event pair (the view is the encoder's own).
    identity: bool,
}

impl View {
    pub fn new(ev: &Events, exists: &[B]) -> View {
        let mut fused = vec![None; ev.len()];
        for &(r, w) in &ev.one_event {
            fused[r] = Some((w, exists[w]));
        }
        let identity = fused.iter().all(Option::is_none);
        View { fused, dense: Vec::new(), identity }
    }

    /// Whether the view is the encoder's own (no one-event pairs).
    pub fn is_identity(&self) -> bool {
        self.identity
    }

    /// Where event `e` may appear: itself, under a condition; a fused read also as its
    /// write, where the write happens.
    fn places(&self, e: Eid) -> [(Eid, B); 2] {
        match self.fused[e] {
            Some((w, happens)) => [(e, happens.negate()), (w, happens)],
            None => [(e, B::T), (e, B::F)],
        }
    }

    /// A set of the encoder's events as the model sees it.
    pub fn set(&self, mut s: Set, lg: &mut Logic) -> Set {
        if self.identity {
            return s;
        }
        // A fused read's entry is read before it changes, and nothing else reads it (a
        // write is no fused read), so the set is rewritten in place.
        for (r, f) in self.fused.iter().enumerate() {
            if let Some((w, happens)) = *f {
                let was = s.0[r];
                s.0[r] = lg.and2(was, happens.negate());
                let moved = lg.and2(was, happens);
                s.0[w] = lg.or2(s.0[w], moved);
            }
        }
        s
    }

    /// A relation of the encoder's events as the model sees it. A pair that the merge
    /// turns into a loop (the read and the write of one event) vanishes; a loop that was
    /// there (`id`) stays.
    pub fn rel(&mut self, r: Rel, lg: &mut Logic) -> Rel {
        if r.is_empty() || self.is_identity() {
            return r;
        }
        // The merged relation, dense (n×n): a pair reached again is or-ed with what it
        // holds, in the same order as ever (or-ing with false builds nothing), and the
        // entries come out in order.
        let n = r.n;
        let mut out = std::mem::take(&mut self.dense);
        out.clear();
        out.resize(n * n, B::F);
        for ((a, b), v) in r.iter() {
            // Most pairs join two events no merge moves: they stay as they are.
            if self.fused[a].is_none() && self.fused[b].is_none() {
                out[a * n + b] = lg.or2(out[a * n + b], v);
                continue;
            }
            for (a2, wa) in self.places(a) {
                for (b2, wb) in self.places(b) {
                    if wa.is_false() || wb.is_false() || (a2 == b2 && a != b) {
                        continue;
                    }
                    // A loop stays a loop: a fused read's `(r, r)` becomes `(w, w)`.
                    if a == b && a2 != b2 {
                        continue;
                    }
                    let when = if (wa, wb) == (B::T, B::T) { v } else { lg.and(&[v, wa, wb]) };
                    out[a2 * n + b2] = lg.or2(out[a2 * n + b2], when);
                }
            }
        }
        let set = out.iter().enumerate().filter(|(_, b)| !b.is_false());
        let merged = Rel::collect_sorted(n, r.len() + n, set.map(|(k, &b)| ((k / n, k % n), b)));
        self.dense = out;
        merged
    }
}
