//! The relations herd's `-variant vmsa` gives a model (its `arch_rels`): `inv-domain`,
//! from each TLB invalidation to the accesses at the entries it invalidates, both ways;
//! `PTEtoPA`, from an access at an entry to the accesses at the physical page its value
//! maps to, which depends on the value read or written; `same-low-order-bits`.

use super::Base;
use crate::cat::{Name, V};
use crate::events::{Oa, PteVal, Value};
use crate::logic::{B, Logic};
use crate::rel::Rel;
use std::rc::Rc;

impl Base<'_> {
    /// Binds `inv-domain` and `PTEtoPA` where the test runs under vmsa.
    pub(super) fn vmsa_relations(&mut self, lg: &mut Logic) {
        let Some(vm) = &self.ev.vmsa else { return };
        let e = &self.ev.events;
        let at_entry = |i: usize| e[i].loc.is_some_and(|l| self.ev.is_entry(l));
        let mut pairs = Vec::new();
        for &(t, target) in &vm.tlbi {
            let entry = target.and_then(|l| self.ev.entry_of(l));
            for i in (0..e.len()).filter(|&i| at_entry(i) && (target.is_none() || e[i].loc == entry)) {
                pairs.extend([(t, i), (i, t)]);
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let inv = self.rel_of(lg, pairs.iter().copied(), pairs.len());
        let to_pa = self.pte_to_pa(lg, &at_entry);
        // herd's `same-low-order-bits`: accesses at one offset from their symbols, which
        // without arrays (refused under vmsa) is every pair of located events.
        let located: Vec<usize> = (0..e.len()).filter(|&i| e[i].has_loc()).collect();
        let low = located.iter().flat_map(|&i| located.iter().map(move |&j| (i, j)));
        let low = self.rel_of(lg, low, located.len() * located.len());
        for (name, r) in [("inv-domain", inv), ("PTEtoPA", to_pa), ("same-low-order-bits", low)] {
            let r = Rc::new(self.view.rel(r, lg));
            self.env.push((Name::new(name), V::Rel(r)));
        }
    }

    /// `PTEtoPA`: from each access at an entry to each memory access at the page its
    /// value maps to, where both happen.
    fn pte_to_pa(&self, lg: &mut Logic, at_entry: &dyn Fn(usize) -> bool) -> Rel {
        let (ev, x) = (self.ev, self.x);
        let e = &ev.events;
        let mut entries = Vec::new();
        for i in (0..e.len()).filter(|&i| at_entry(i)) {
            let maps: Vec<(usize, B)> = x.val[e[i].val]
                .iter()
                .filter_map(|&(v, b)| match v {
                    Value::Pte(PteVal { oa: Oa::Phy(l), .. }) => Some((l, b)),
                    _ => None,
                })
                .collect();
            for j in (0..e.len()).filter(|&j| e[j].is_read() || e[j].is_write()) {
                let mut any = Vec::new();
                for &(l, b) in &maps {
                    for &(l2, b2) in x.locs[j].iter().filter(|p| p.0 == l) {
                        let _ = l2;
                        any.push(lg.and2(b, b2));
                    }
                }
                if any.is_empty() {
                    continue;
                }
                let both = lg.and2(x.exists[i], x.exists[j]);
                let some = lg.or(&any);
                entries.push(((i, j), lg.and2(both, some)));
            }
        }
        Rel::from_sorted(e.len(), entries)
    }
}
