//! herd's delayed failures of an access: one made at a number rather than an address,
//! and a narrow load that reads an address.
//!
//! herd gives a load or store whose address is computed a way out of rf: "no write,
//! and fail unless the address is symbolic"; and a narrow AArch64 load masks the value
//! it reads, which fails on an address. Each failure is an equation herd solves with the
//! rest, and it is only raised once the model has accepted the execution: an execution
//! the model rejects (a path no consistent execution takes) vanishes silently, one it
//! accepts stops the whole test. So the question is one solver call under the model's
//! checks: does an execution with such a failure pass them?

use super::Incremental;
use crate::diag::{Deadline, Diag};
use crate::encode::exec::{Exec, Failure};
use crate::events::{Events, SourceRef, Value};
use crate::logic::{B, Logic};

/// Whether the test may go on: `Ok(true)` when no execution the model allows fails,
/// `Ok(false)` when that rests on solutions outside the exact encoding (answer again),
/// and the refusal, at the access, otherwise. Call it with the model's checks asserted.
pub(super) fn check(
    x: &Exec,
    ev: &Events,
    lg: &mut Logic,
    exact: B,
    src: &SourceRef<'_>,
    deadline: Deadline,
) -> Result<bool, Diag> {
    let bads: Vec<B> = x.failures.iter().map(|p| p.1).collect();
    let any = lg.or(&bads);
    let mut roots = vec![any, exact];
    roots.extend(&bads);
    for &(e, _, why) in &x.failures {
        roots.extend(x.val[culprit(ev, e, why)].iter().map(|p| p.1));
    }
    let cone = lg.pruned(&roots);
    let mut q = Incremental::new(&cone, exact, src.file, deadline);
    match q.sat_with(any)? {
        None => Ok(false),
        Some(false) => Ok(true),
        Some(true) => {
            let (e, _, why) = x.failures.iter().copied().find(|&(_, b, _)| q.holds(b)).unwrap_or(x.failures[0]);
            let value = x.val[culprit(ev, e, why)].iter().find(|p| q.holds(p.1)).map(|p| p.0);
            let pos = ev.access_at.get(&e).copied().unwrap_or_default();
            Err(Diag::at(src.file, src.text, pos, message(ev, why, value)))
        }
    }
}

/// The value a failure is about: the address of an access, the value of a load.
fn culprit(ev: &Events, e: usize, why: Failure) -> usize {
    let event = &ev.events[e];
    match why {
        Failure::NonAddress => event.addr.expect("an access at a computed address"),
        Failure::Narrowed(_) | Failure::Unrunnable(_) => event.val,
    }
}

/// herd's message, and what it means.
fn message(ev: &Events, why: Failure, value: Option<Value>) -> String {
    let shown = match value {
        Some(Value::Int(n)) => n.to_string(),
        Some(Value::Addr(l)) => ev.locs[l].clone(),
        _ => "a value".to_string(),
    };
    match why {
        Failure::NonAddress => format!(
            "an execution the model allows accesses memory at {shown}, which is no address (herd stops on it: \"Non symbolic address: [{shown}]\")"
        ),
        Failure::Narrowed(w) => format!(
            "an execution the model allows loads the address {shown} into a {}-bit register (herd stops on it: \"Illegal operation mask{} on {shown}\")",
            8 * w,
            8 * w
        ),
        Failure::Unrunnable(k) => format!("an execution the model allows {}", ev.unrunnable[k].1),
    }
}
