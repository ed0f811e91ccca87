//! herd's `rmw`: the read and the write of one atomic instruction (`amo`, as RISC-V's
//! atomic memory operations are called), and the successful pairs of exclusive
//! (load-reserved / store-conditional) accesses with no exclusive access between them
//! (`lxsx`).
//!
//! herd's front ends provide both; litsat builds them with the other relations, over the
//! sets and relations as the model sees them (see `one_event`), so that no model pays for
//! evaluating them per test:
//! - `amo = [R & X] ; ((same-instance \ id) & loc) ; [W & X]`;
//! - `lxsx = [R & EX] ; (po \ (po ; [M & EX] ; po)) ; [W & EX]`;
//! - `rmw = amo | lxsx`.

use crate::logic::Logic;
use crate::rel::{Rel, Set};

/// What the two relations are made of, as the model sees them.
pub struct Parts<'a> {
    pub r: &'a Set,
    pub w: &'a Set,
    pub m: &'a Set,
    /// Events of atomic instructions, and exclusive accesses.
    pub x: &'a Set,
    pub ex: &'a Set,
    pub po: &'a Rel,
    pub loc: &'a Rel,
    pub id: &'a Rel,
    pub same_instance: &'a Rel,
}

/// `[amo, lxsx, rmw]` over `n` events.
pub fn relations(p: &Parts, n: usize, lg: &mut Logic) -> [Rel; 3] {
    let amo = match (restriction(p.r, p.x, lg), restriction(p.w, p.x, lg)) {
        (Some(rx), Some(wx)) => {
            let same = p.same_instance.diff(p.id, lg).inter(p.loc, lg);
            rx.seq(&same, lg).seq(&wx, lg)
        }
        _ => Rel::empty(n),
    };
    let lxsx = match (restriction(p.r, p.ex, lg), restriction(p.w, p.ex, lg)) {
        (Some(rex), Some(wex)) => {
            let between = match restriction(p.m, p.ex, lg) {
                Some(mex) => p.po.seq(&mex, lg).seq(p.po, lg),
                None => Rel::empty(n),
            };
            rex.seq(&p.po.diff(&between, lg), lg).seq(&wex, lg)
        }
        _ => Rel::empty(n),
    };
    let rmw = amo.union(&lxsx, lg);
    [amo, lxsx, rmw]
}

/// `[a & b]`, or `None` where it is empty (as it is in most tests, without building it).
fn restriction(a: &Set, b: &Set, lg: &mut Logic) -> Option<Rel> {
    let meet = a.0.iter().zip(&b.0).any(|(x, y)| !x.is_false() && !y.is_false());
    meet.then(|| Rel::id_on(&a.inter(b, lg))).filter(|r| !r.is_empty())
}
