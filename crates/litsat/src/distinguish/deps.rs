//! The skeleton's dependencies, for a vocabulary that has them (`Style::deps`): `addr`,
//! `data` and `ctrl` from a read to a po-later event of its thread, one variable per slot
//! pair, with what makes them writable as herd's idioms (`emit_asm.rs`):
//!
//! - the source is a read that writes a register of its own: a plain load or a
//!   load-reserve, not an AMO (herd's RISC-V AMO register also depends on its write);
//! - `addr` goes into an access, `data` into a write;
//! - `ctrl` comes from a branch on the read, so it holds into every later event of the
//!   thread from the first it holds into (fences included, as herd's `ctrl` reaches them);
//! - an AMO's two events are one instruction: one address, one branch before both.

use super::skeleton::Skeleton;
use super::vocab::Half;
use crate::logic::{B, Logic};
use crate::rel::Rel;

/// Binds `sk.addr`, `sk.data` and `sk.ctrl` (empty unless the style has dependencies).
pub fn deps_of(lg: &mut Logic, sk: &mut Skeleton) {
    let n = sk.n();
    sk.addr = Rel::empty(n);
    sk.data = Rel::empty(n);
    sk.ctrl = Rel::empty(n);
    if !sk.vocab.style.deps() {
        return;
    }
    let kinds = &sk.vocab.kinds;
    let of = |lg: &mut Logic, i: usize, f: &dyn Fn(usize) -> bool| {
        let xs: Vec<B> = (0..kinds.len()).filter(|&k| f(k)).map(|k| sk.kind[i][k]).collect();
        lg.or(&xs)
    };
    let own_reg = |k: usize| kinds[k].read && matches!(kinds[k].half, Half::Whole | Half::LinkRead);
    let (mut addr, mut data, mut ctrl) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..sk.slots {
        let src = of(lg, i, &own_reg);
        for j in i + 1..sk.slots {
            let (a, b) = (sk.ev(i), sk.ev(j));
            let within = lg.and2(src, sk.same_thread.get(a, b));
            let access = lg.or2(sk.read[b], sk.write[b]);
            let [x, d, c] = [(); 3].map(|_| B::L(lg.fresh()));
            lg.implies(x, within);
            lg.implies(x, access);
            lg.implies(d, within);
            lg.implies(d, sk.write[b]);
            lg.implies(c, within);
            addr.push(((a, b), x));
            data.push(((a, b), d));
            ctrl.push(((a, b), c));
        }
    }
    sk.addr = Rel::collect_sorted(n, addr.len(), addr);
    sk.data = Rel::collect_sorted(n, data.len(), data);
    sk.ctrl = Rel::collect_sorted(n, ctrl.len(), ctrl);
    for i in 0..sk.slots {
        for j in i + 1..sk.slots.saturating_sub(1) {
            let (a, b, c) = (sk.ev(i), sk.ev(j), sk.ev(j + 1));
            // A branch controls the rest of its thread.
            lg.clause(&[sk.ctrl.get(a, b).negate(), sk.same_thread.get(b, c).negate(), sk.ctrl.get(a, c)]);
            // An AMO's events share their address and their branch.
            let one = sk.pair.get(b, c);
            for r in [&sk.addr, &sk.ctrl] {
                lg.clause(&[one.negate(), r.get(a, b).negate(), r.get(a, c)]);
                lg.clause(&[one.negate(), r.get(a, c).negate(), r.get(a, b)]);
            }
        }
    }
}
