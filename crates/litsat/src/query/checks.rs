//! Which of the model's checks an execution must pass, as herd's options combine them
//! (`run_interpret` in herd's `machModelChecker.ml`, `exec_test` in `lib/interpreter.ml`):
//! a check is skipped by name (`-skipcheck`), every non-flag check is let through by
//! `-through all`, and under `-strictskip true` an execution is kept only where each
//! skipped name names a check it fails (herd keeps those whose set of failed skipped
//! checks equals the set of skipped names). `-candidates` counts the executions the
//! model rejects beside those it keeps, which asks for the negation of "the model
//! passes".
//!
//! A plain check's literal from the interpreter may be a one-way selector (it implies the
//! check, see [`CheckOut::ok`]); wherever a check's failure is asserted it is rebuilt
//! here as an exact literal, so that its negation is sound.

use super::{Observation, Options, Outcome};
use crate::cat::ast::CheckKind;
use crate::cat::{CheckOut, Program};
use crate::diag::{Deadline, Diag};
use crate::events::{Events, Value};
use crate::litmus::{CondKind, Loc, Test};
use crate::logic::{B, Logic};

/// A literal that holds exactly when check `c` passes.
fn passes(lg: &mut Logic, c: &CheckOut) -> B {
    // Flags, negated checks and the gate-built kinds are exact already.
    if c.flag || c.negated || c.kind != CheckKind::Acyclic {
        return c.ok;
    }
    crate::encode::acyclic::exact(lg, &c.rel)
}

/// Asserts what the model demands of an execution under `opts` and returns the flags it
/// may raise, by name, with their literals. Under `-strictskip`, also that each skipped
/// name names a failing check.
pub(super) fn assert_checks(checks: &[CheckOut], opts: &Options, lg: &mut Logic) -> Vec<(String, B)> {
    let mut flag_lits = Vec::new();
    for c in checks {
        if opts.skips(c) {
            continue;
        }
        if c.flag {
            // herd raises a flag when its check holds (`flag ~empty r`: r is not empty);
            // an unnamed flag only draws a warning (`exec_test` in herd's interpreter).
            if let Some(name) = &c.name {
                flag_lits.push((name.to_string(), c.ok));
            }
        } else {
            lg.assert(c.ok);
        }
    }
    if opts.strictskip {
        let s = skipped_all_fail(checks, opts, lg);
        lg.assert(s);
    }
    flag_lits
}

/// herd's `-strictskip` condition: every name of `-skipcheck` names some check that the
/// execution fails (a name that names no check is never failed, so nothing is kept). A
/// skipped check is evaluated as herd evaluates it: under `-through all` a plain check
/// passes whatever the execution.
pub(super) fn skipped_all_fail(checks: &[CheckOut], opts: &Options, lg: &mut Logic) -> B {
    let mut all = Vec::with_capacity(opts.skipchecks.len());
    for name in &opts.skipchecks {
        let mut fails = Vec::new();
        // A call fails where a check made in it fails (herd runs a skipped call for its
        // truth under `-strictskip`).
        let named = |c: &&CheckOut| c.name.as_deref() == Some(name.as_str()) || c.callers.iter().any(|n| **n == **name);
        for c in checks.iter().filter(named) {
            // Under `-through all` a plain check passes, so it is never failed.
            if !opts.through || c.flag {
                fails.push(passes(lg, c).negate());
            }
        }
        all.push(lg.or(&fails));
    }
    lg.and(&all)
}

/// A literal that holds exactly when the model rejects an execution, as herd counts its
/// failures (`kfail`): some applied check fails. A strictskip rejection is no failure in herd (the execution is
/// dropped after the model passed it), so it is not one here either.
pub(super) fn model_fails(checks: &[CheckOut], opts: &Options, lg: &mut Logic) -> B {
    let mut fails = Vec::new();
    for c in checks.iter().filter(|c| !c.flag && !opts.skips(c)) {
        fails.push(passes(lg, c).negate());
    }
    lg.or(&fails)
}

/// The literal of flag `name` among `flag_lits` (false where the model has no such flag).
pub(super) fn raises(flag_lits: &[(String, B)], name: &str) -> B {
    flag_lits.iter().find(|(n, _)| n == name).map_or(B::F, |x| x.1)
}

/// herd's `-speedcheck true` (`worth_going` in herd's `mem.ml`): the executions that
/// decide the condition, those satisfying an `exists` or `~exists` proposition, those
/// falsifying a `forall` one. The others never reach the model.
pub(super) fn relevant(test: &Test, places: &[(Loc, Vec<(Value, B)>)], ev: &Events, lg: &mut Logic) -> B {
    let p = super::prop_lit_cast(&test.cond.prop, places, ev, lg, &super::cond_cast(test));
    match test.cond.kind {
        CondKind::Exists | CondKind::NotExists => p,
        CondKind::Forall => p.negate(),
    }
}

/// The Observation herd reads from counts made of deciding executions only (herd's
/// `Top_herd.observation` under speedcheck): one side is never counted, so it cannot say
/// `Always` of an `exists` nor `Never` of a `forall`.
pub(super) fn relevant_observation(out: &Outcome) -> Observation {
    match out.test.cond.kind {
        CondKind::Forall if out.neg == 0 => Observation::Always,
        CondKind::Forall => Observation::Sometimes,
        _ if out.pos == 0 => Observation::Never,
        _ => Observation::Sometimes,
    }
}

/// herd's `-candidates` count (`cfail + cands` in herd's `top_herd.ml`): the executions
/// that reached the model (past the filter and, under `-speedcheck true`, the
/// relevance test) and were rejected by it, plus those it kept that were counted: not
/// cut off by the unrolling bound, raising the `-throughflag` flag, and under
/// `-strictskip` failing every skipped check. A projected count over the primaries of
/// the exact encoding, where the checks' failure can be asserted.
pub(super) fn candidates(
    test: Test,
    file: &str,
    text: &str,
    prog: &Program,
    opts: &Options,
    deadline: Deadline,
) -> Result<u128, Diag> {
    let p = super::prepared(test, file, text, prog, opts, deadline)?;
    let e = super::encode_with(p, file, prog, opts, super::Mode::Exact, deadline)?;
    let (mut lg, checks, x) = (e.lg, e.checks, e.x);
    if let Some(f) = &e.test.filter {
        let fl = super::prop_lit(f, &e.places, &e.ev, &mut lg);
        lg.assert(fl);
    }
    if opts.relevant {
        let r = relevant(&e.test, &e.places, &e.ev, &mut lg);
        lg.assert(r);
    }
    let fails = model_fails(&checks, opts, &mut lg);
    let mut kept = vec![e.cut.negate()];
    if opts.strictskip {
        kept.push(skipped_all_fail(&checks, opts, &mut lg));
    }
    if let Some(f) = &opts.throughflag {
        let flags: Vec<(String, B)> =
            checks.iter().filter(|c| c.flag).filter_map(|c| Some((c.name.as_deref()?.to_string(), c.ok))).collect();
        kept.push(raises(&flags, f));
    }
    let kept = lg.and(&kept);
    let counted = lg.or(&[fails, kept]);
    lg.assert(counted);
    let mut roots: Vec<B> = x.primaries.iter().map(|&l| B::L(l)).collect();
    roots.push(counted);
    let cone = lg.pruned(&roots);
    let projection: Vec<varisat::Var> = x.primaries.iter().map(|&l| cone.lit(l).var()).collect();
    let mut tick = || deadline.check(file).is_ok();
    match crate::count::projected_count(cone.cnf.var_count(), cone.cnf.iter(), &projection, &[], &mut tick) {
        Ok(n) => Ok(n),
        Err(crate::count::Stop::Overflow) => Err(Diag::limit(file, "limit: more candidates than a count holds")),
        Err(crate::count::Stop::Interrupted) => deadline.check(file).map(|()| 0),
    }
}
