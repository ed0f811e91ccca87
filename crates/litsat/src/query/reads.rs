//! herd's `-outcomereads true` (`top_herd.ml`): a final state shows the memory locations
//! it shows anyway and, of the registers, exactly those that some kept execution wrote
//! by an instruction that reads memory (herd's `all_regs_that_read`, unioned over the
//! executions the model keeps). A register of the condition that no such instruction
//! writes is not shown: herd restricts each state after checking the condition, and
//! states that then look alike are one.

use super::Incremental;
use crate::diag::{Deadline, Diag};
use crate::encode::exec::Exec;
use crate::events::{Events, Value};
use crate::isa::Isa;
use crate::litmus::Loc;
use crate::logic::{B, Logic};

/// The places a state shows under `-outcomereads`: the memory places of `shown`, and
/// every register that an instruction reading memory writes, in herd's printing order.
pub(super) fn places(shown: Vec<Loc>, ev: &Events, isa: &dyn Isa) -> Vec<Loc> {
    let mut ls: Vec<Loc> = shown.into_iter().filter(|l| matches!(l, Loc::Mem(_))).collect();
    for (t, r, _) in &ev.load_regs {
        let l = Loc::Reg(*t, r.clone());
        if !ls.contains(&l) {
            ls.push(l);
        }
    }
    super::sort_places(&mut ls, isa);
    ls
}

/// `shown` without the registers that no kept execution loads into: a register that an
/// instruction on every path loads is kept at once; for the others one solver call asks
/// whether some execution the log counts (not cut off, past the filter `keep`) reaches
/// such a load. `None` where the answer rests on a solution outside the exact encoding
/// (see `Logic::guard`).
#[allow(clippy::too_many_arguments)]
pub(super) fn reached(
    shown: Vec<Loc>,
    ev: &Events,
    x: &Exec,
    lg: &mut Logic,
    (keep, cut, exact): (B, B, B),
    file: &str,
    deadline: Deadline,
) -> Result<Option<Vec<Loc>>, Diag> {
    let mut open: Vec<(Loc, B)> = Vec::new();
    let mut sure: Vec<Loc> = Vec::new();
    for (t, r, g) in &ev.load_regs {
        let l = Loc::Reg(*t, r.clone());
        match x.lit_of(*g, Value::Int(1)) {
            B::T => sure.push(l),
            B::F => {}
            b => open.push((l, b)),
        }
    }
    open.retain(|(l, _)| !sure.contains(l));
    if open.is_empty() {
        return Ok(Some(shown.into_iter().filter(|l| matches!(l, Loc::Mem(_)) || sure.contains(l)).collect()));
    }
    let uncut = lg.and2(keep, cut.negate());
    let asked: Vec<B> = open.iter().map(|o| lg.and2(o.1, uncut)).collect();
    let mut roots = asked.clone();
    roots.push(exact);
    let cone = lg.pruned(&roots);
    let mut q = Incremental::new(&cone, exact, file, deadline);
    for ((l, _), b) in open.iter().zip(asked) {
        if sure.contains(l) {
            continue;
        }
        match q.sat_with(b)? {
            None => return Ok(None),
            Some(true) => sure.push(l.clone()),
            Some(false) => {}
        }
    }
    Ok(Some(shown.into_iter().filter(|l| matches!(l, Loc::Mem(_)) || sure.contains(l)).collect()))
}
