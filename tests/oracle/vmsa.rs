//! herd's `-variant vmsa` as a model sees it, computed by the oracle from a candidate's
//! events, their locations and their values alone (not from the event structure's
//! conditional tags, nor from the encoder): the page-table sets, decided by the value an
//! access at an entry reads or writes; `inv-domain`, `PTEtoPA` and `same-low-order-bits`;
//! and the primitives `same-oa` and `at-least-one-writable` (herd's machModelChecker and
//! machAction, AArch64Arch_herd's `pteval_sets` and `dirty_sets`).

use super::{Rel, Set, bit, bits};
use litsat::events::{Events, Kind, Oa, PteVal, Value};

/// An entry's flags, as herd's lib/AArch64PteVal.ml names them (litsat's bit encoding
/// of [`PteVal::flags`]).
const AF: u8 = 1;
const DB: u8 = 2;
const VALID: u8 = 8;

/// The virtual location whose entry the location named `name` is (`PTE(x)`).
fn entry_of_name(name: &str) -> Option<&str> {
    name.strip_prefix("PTE(")?.strip_suffix(')')
}

/// The page-table entry value of an event, if it reads or writes one.
fn pte(values: &[Option<Value>], i: usize) -> Option<PteVal> {
    match values[i] {
        Some(Value::Pte(p)) => Some(p),
        _ => None,
    }
}

/// herd's `writable ha hd` without hardware management of the flags (litsat refuses
/// `TTHM`): access allowed (af) and write allowed (db).
pub(super) fn writable(p: &PteVal) -> bool {
    p.flags & AF != 0 && p.flags & DB != 0
}

/// herd's `same_oa`: both entries give one output address.
pub(super) fn same_oa(a: &PteVal, b: &PteVal) -> bool {
    a.oa == b.oa
}

/// One candidate's view under vmsa.
pub(super) struct View<'v> {
    pub ev: &'v Events,
    pub live: Set,
    pub loc_of: &'v [Option<usize>],
    pub values: &'v [Option<Value>],
}

impl View<'_> {
    fn mem(&self, i: usize) -> bool {
        self.live & bit(i) != 0 && matches!(self.ev.events[i].kind, Kind::Read | Kind::Write)
    }

    /// The virtual location whose entry event `i` accesses.
    fn entry_access(&self, i: usize) -> Option<&str> {
        let l = self.loc_of[i]?;
        if !self.mem(i) {
            return None;
        }
        entry_of_name(&self.ev.locs[l])
    }

    fn set(&self, f: impl Fn(usize) -> bool) -> Set {
        bits(self.live).filter(|&i| f(i)).fold(0, |s, i| s | bit(i))
    }

    /// herd's sets of accesses at entries: `PTE` (and its data side `D-PTE`, all of it
    /// without ifetch) and those the value decides (herd's `pteval_sets`, and the dirty
    /// set `ReadOnly`: accessed and dirty, without hardware management).
    pub(super) fn sets(&self) -> Vec<(&'static str, Set)> {
        let at = |i: usize| self.entry_access(i).is_some();
        let with = |f: fn(u8) -> bool| self.set(|i| at(i) && pte(self.values, i).is_some_and(|p| f(p.flags)));
        vec![
            ("PTE", self.set(at)),
            ("D-PTE", self.set(at)),
            ("PTEV", with(|f| f & VALID != 0)),
            ("PTEINV", with(|f| f & VALID == 0)),
            ("PTEAF0", with(|f| f & AF == 0)),
            ("PTEDB0", with(|f| f & DB == 0)),
            ("ReadOnly", with(|f| f & AF != 0 && f & DB != 0)),
        ]
    }

    /// herd's `inv-domain` (both ways between a TLBI and the accesses at the entries it
    /// invalidates: its page's, or every entry for the `ALL` kinds), `PTEtoPA` (from an
    /// access at an entry to the memory accesses at the physical page its value gives)
    /// and `same-low-order-bits` (without arrays, which vmsa refuses: any two events with
    /// a location).
    pub(super) fn rels(&self) -> Vec<(&'static str, Rel)> {
        let ev = self.ev;
        let n = ev.len();
        let mut inv = Vec::new();
        for &(t, target) in ev.vmsa.iter().flat_map(|v| &v.tlbi) {
            if self.live & bit(t) == 0 {
                continue;
            }
            for i in bits(self.live) {
                let hit = match (self.entry_access(i), target) {
                    (Some(_), None) => true,
                    (Some(x), Some(l)) => x == ev.locs[l],
                    (None, _) => false,
                };
                if hit {
                    inv.extend([(t, i), (i, t)]);
                }
            }
        }
        let to_pa = Rel::from_fn(n, |i, j| {
            let page = pte(self.values, i).and_then(|p| match p.oa {
                Oa::Phy(l) => Some(l),
                Oa::Nil => None,
            });
            self.entry_access(i).is_some() && self.mem(j) && page.is_some() && self.loc_of[j] == page
        });
        let located = |i: usize| self.live & bit(i) != 0 && self.loc_of[i].is_some();
        let low = Rel::from_fn(n, |i, j| located(i) && located(j));
        vec![("inv-domain", Rel::from_pairs(n, inv)), ("PTEtoPA", to_pa), ("same-low-order-bits", low)]
    }
}

/// `same-oa(r)` or (not `same`) `at-least-one-writable(r)`: the pairs of r whose events'
/// values are entries with one output address, or of which one is writable.
pub(super) fn entry_pairs(r: &Rel, values: &[Option<Value>], same: bool) -> Rel {
    Rel::from_fn(r.n(), |i, j| {
        r.has(i, j)
            && match (pte(values, i), pte(values, j)) {
                (Some(a), Some(b)) if same => same_oa(&a, &b),
                (a, b) if !same => a.iter().chain(b.iter()).any(writable),
                _ => false,
            }
    })
}
