//! herd's candidate rule for mixed-size reads (mem.ml `find_rfs_sca`): a read takes each
//! write's group whole or not at all.
//!
//! herd matches a read's cells against the write groups (single-copy-atomic classes) that
//! overlap it, smallest first: a group either gives the read every one of its cells the
//! read still lacks, or none. So a read that takes cell `a` from group `W` takes every
//! other cell `W` covers from `W` or from a smaller group; never from another group as
//! large. The final values of a location are matched the same way against the co-last
//! writes (`all_finals_mixed`), except where the test has arrays (herd then falls back to
//! per-cell finals). Outside `-variant mixed` there is nothing to add.

use super::exec::Exec;
use crate::events::{Eid, Events};
use crate::logic::{B, Logic};
use std::collections::BTreeMap;

/// Adds the rule's clauses for `x`'s rf, and for its final writes.
pub fn restrict(ev: &Events, x: &Exec, lg: &mut Logic) {
    let Some(cells) = &ev.cells else { return };
    let groups = Groups(Groups::of_ev(ev));
    let mut sources: BTreeMap<Eid, Vec<(Eid, B)>> = BTreeMap::new();
    for ((w, r), b) in x.rf.iter() {
        sources.entry(r).or_default().push((w, b));
    }
    for (&ra, from) in &sources {
        for &rb in groups.of(ra).iter().filter(|&&rb| rb != ra) {
            let empty = Vec::new();
            pairs(ev, &groups, (from, sources.get(&rb).unwrap_or(&empty)), lg);
        }
    }
    if cells.objects.iter().any(|o| o.len > 1) {
        return;
    }
    for &l in &ev.observed {
        let last: Vec<(Eid, B)> = (0..ev.len())
            .filter(|&w| ev.events[w].is_write() && ev.events[w].loc == Some(l) && !x.fw.0[w].is_false())
            .map(|w| (w, x.fw.0[w]))
            .collect();
        for &m in ev.observed.iter().filter(|&&m| m != l && same_place(ev, l, m)) {
            let other: Vec<(Eid, B)> = (0..ev.len())
                .filter(|&w| ev.events[w].is_write() && ev.events[w].loc == Some(m) && !x.fw.0[w].is_false())
                .map(|w| (w, x.fw.0[w]))
                .collect();
            pairs(ev, &groups, (&last, &other), lg);
        }
    }
}

/// Writes, each with the literal of its being chosen (read from, or final).
type Writes<'a> = &'a [(Eid, B)];

/// Forbids cell `a` from group `W` (each of `at_a`) beside cell `b` from a group as large
/// that is not `W` (each of `at_b`), where `W` covers `b` too.
fn pairs(ev: &Events, groups: &Groups, (at_a, at_b): (Writes<'_>, Writes<'_>), lg: &mut Logic) {
    for &(wa, ba) in at_a {
        let w = groups.of(wa);
        let Some(b_loc) = at_b.first().and_then(|p| ev.events[p.0].loc) else { continue };
        if !w.iter().any(|&c| ev.events[c].loc == Some(b_loc)) {
            continue;
        }
        for &(y, bb) in at_b {
            if !w.contains(&y) && groups.of(y).len() >= w.len() {
                lg.clause(&[ba.negate(), bb.negate()]);
            }
        }
    }
}

/// Whether locations `l` and `m` are cells of one element (or scalar).
fn same_place(ev: &Events, l: usize, m: usize) -> bool {
    let (a, b) = (ev.place_of(l), ev.place_of(m));
    a.is_some() && a == b
}

/// Each memory event's single-copy-atomic group: itself and its `sm` partners.
struct Groups(BTreeMap<Eid, Vec<Eid>>);

impl Groups {
    fn of_ev(ev: &Events) -> BTreeMap<Eid, Vec<Eid>> {
        let mut g: BTreeMap<Eid, Vec<Eid>> = BTreeMap::new();
        for &(i, j) in &ev.sm {
            g.entry(i).or_insert_with(|| vec![i]).push(j);
        }
        g
    }
    fn of(&self, e: Eid) -> std::borrow::Cow<'_, [Eid]> {
        match self.0.get(&e) {
            Some(g) => std::borrow::Cow::Borrowed(g),
            None => std::borrow::Cow::Owned(vec![e]),
        }
    }
}
