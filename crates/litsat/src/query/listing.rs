//! The executions of a full log: the solver's models over the primaries, each listed
//! with its final state, until herd's listing threshold, past which the rest are counted
//! per state ([`super::tally`]) rather than listed.

use super::{Found, Outcome, Options, View, enumerate, record, tally};
use crate::diag::{Deadline, Diag};
use crate::logic::{B, Logic};

/// What an execution's log depends on: the primaries first (an execution is one
/// assignment to them), then the exactness guard, the unrolling cut, the loops, the flags
/// and the shown places; where a state names unsolved values, also the paths, rf and
/// values that herd's names read.
pub(super) fn roots(view: &View, exact: B) -> Vec<B> {
    let x = view.x;
    let mut roots: Vec<B> = x.primaries.iter().map(|&l| B::L(l)).collect();
    roots.push(exact);
    roots.push(view.cut);
    roots.extend(view.loops.iter().map(|l| l.1));
    roots.extend(view.flag_lits.iter().map(|f| f.1));
    roots.extend(view.places.iter().flat_map(|(_, v)| v.iter().map(|p| p.1)));
    if view.herd.is_some() {
        roots.extend(x.exists.iter().copied());
        roots.extend(x.rf.m.values().copied());
        roots.extend(x.val.iter().flatten().map(|p| p.1));
    }
    roots
}

/// Lists the executions of the cone of `roots` (the formula pruned to what they read),
/// recording each one's state in the returned [`Found`], and counts the rest once they
/// outnumber their states. `None` where a solution falls outside the exact encoding, so
/// that the caller runs the test again without the shortcut that made it inexact.
#[allow(clippy::too_many_arguments)]
pub(super) fn executions(
    out: &mut Outcome,
    lg: &mut Logic,
    roots: &[B],
    view: &View,
    exact: B,
    opts: &Options,
    file: &str,
    deadline: Deadline,
) -> Result<Option<Found>, Diag> {
    let x = view.x;
    let cone = lg.pruned(roots);
    // What an execution's log reads: the roots past the primaries (all of the model where
    // unsolved values are named, which reads rf and values too).
    let read: Option<Vec<usize>> = view.herd.is_none().then(|| {
        let lits = roots[x.primaries.len()..].iter().filter_map(|b| match b {
            B::L(l) => Some(cone.lit(*l).var().index()),
            _ => None,
        });
        let mut v: Vec<usize> = lits.collect();
        v.sort_unstable();
        v.dedup();
        v
    });
    // Executions are assignments to the primaries (each once, in the pruned numbering).
    let mut seen = vec![false; cone.cnf.var_count()];
    let order: Vec<varisat::Lit> =
        x.primaries.iter().map(|&p| cone.lit(p)).filter(|p| !std::mem::replace(&mut seen[p.var().index()], true)).collect();
    let mut truth = vec![false; out.vars.max(1)];
    let mut inexact = false;
    let sources: Vec<Vec<varisat::Lit>> = x.sources.iter().map(|g| g.iter().map(|&l| cone.lit(l)).collect()).collect();
    let mut lister = enumerate::Lister::new(&cone.cnf, order, &sources);
    let tick = || deadline.check(file);
    let mut found = Found::default();
    // Where the executions outnumber their states, past a number of them, the rest are
    // counted rather than listed; not where a state names unsolved values, which needs
    // each execution (see `herdsym`).
    let countable = view.herd.is_none();
    let mut listed = 0;
    let mut counting = false;
    let listing = lister.run(
        tick,
        |model| {
            listed += 1;
            let pays = || opts.count_after.is_some() || tally::worth_counting(listed, found.rows.len());
            if countable && listed == opts.count_after.unwrap_or(tally::LIST_FIRST).saturating_add(1) && pays() {
                counting = true;
                return Ok(false);
            }
            match &read {
                Some(vars) => cone.fill_truth_of(model, &mut truth, vars),
                None => cone.fill_truth(model, &mut truth),
            }
            if !exact.value(&truth) {
                inexact = true;
                return Ok(false);
            }
            record(out, &mut found, &truth, view, 1);
            Ok(true)
        },
        |m: String| Diag::file(file, m),
    );
    out.keep_partial(listing)?;
    if counting {
        out.forget_executions();
        match tally::tally(out, &cone, lister.order(), view, exact, file, deadline)? {
            Some(counted) => found = counted,
            None => inexact = true,
        }
    }
    Ok((!inexact).then_some(found))
}
