//! Stepping through a test's executions one at a time, as herd-www's previous and next
//! buttons do.
//!
//! The test is encoded as for a query, every check of the model asserted (flags and
//! skipped checks aside) and the executions past the unrolling bound excluded. The
//! executions are the distinct assignments to the primaries (what `query` counts), found
//! one by one: after each, a clause blocks its assignment. The solver is deterministic,
//! so the k-th execution is the same on every call with the same test, model and options;
//! reaching it takes k + 2 solver calls (the last one says whether there is a next).

use super::{Analysis, Concrete, Encoded, Verdict, concrete, truth_of, write_execution};
use crate::cat::Program;
use crate::diag::Diag;
use crate::litmus::{CondKind, Prop, Test};
use crate::logic::B;
use crate::query::{self, Options};
use std::fmt::Write;
use varisat::{ExtendFormula, Lit, Solver};

/// Which executions are stepped through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    /// Those reaching the outcome `explain` explains: the condition's proposition, or its
    /// negation under `forall` (herd's Positive count, or its Negative one for `forall`).
    Outcome,
    /// Every execution the model allows (herd's Positive + Negative).
    All,
}

/// One execution of a test.
pub struct Step {
    /// The execution as an allowed [`Analysis`], to draw with [`super::dot::render_titled`].
    pub analysis: Analysis,
    /// Its index among [`Among`]'s executions, from 0.
    pub index: usize,
    /// Whether it satisfies the condition's proposition.
    pub satisfies: bool,
    /// Whether an execution follows it.
    pub more: bool,
}

impl Step {
    /// The execution in words: its events, rf, co and final state.
    pub fn text(&self) -> String {
        let a = &self.analysis;
        let mut s = String::new();
        let holds = if self.satisfies { "satisfies" } else { "does not satisfy" };
        let _ = writeln!(s, "Test {}: {}", a.test.name, a.test.cond);
        let _ = writeln!(s, "Execution {} under {}, which {holds} {}:", self.index + 1, a.model, a.test.cond.prop);
        if let Some(ex) = &a.exec {
            write_execution(&mut s, &a.ev, ex, "final state");
        }
        s
    }

    /// The graph's title: which execution this is.
    pub fn title(&self) -> String {
        let holds = if self.satisfies { "satisfies" } else { "does not satisfy" };
        format!("execution {} under {}; it {holds} the condition", self.index + 1, self.analysis.model)
    }
}

/// The `index`-th execution (from 0) of `among`, or `None` when there are no more than
/// `index` of them. Stops with a limit at `opts.timeout`.
pub fn nth(
    test: Test,
    file: &str,
    text: &str,
    prog: &Program,
    opts: &Options,
    among: Among,
    index: usize,
) -> Result<Option<Step>, Diag> {
    let opts = &*opts.under(prog);
    let query::Encoding { test, ev, x, mut lg, checks, shown, places, cut, deadline, .. } =
        query::encode(test, file, text, prog, opts)?;
    lg.assert(cut.negate());
    for c in &checks {
        let skipped = opts.skips(c);
        if !c.flag && !skipped {
            lg.assert(c.ok);
        }
    }
    if let Some(f) = &test.filter {
        let fl = query::prop_lit_cast(f, &places, &ev, &mut lg, &query::cond_cast(&test));
        lg.assert(fl);
    }
    let p = query::prop_lit_cast(&test.cond.prop, &places, &ev, &mut lg, &query::cond_cast(&test));
    let forall = test.cond.kind == CondKind::Forall;
    if among == Among::Outcome {
        lg.assert(if forall { p.negate() } else { p });
    }
    let outcome = if forall { Prop::Not(Box::new(test.cond.prop.clone())) } else { test.cond.prop.clone() };
    let vars = lg.num_vars();
    let mut solver = Solver::new();
    solver.add_formula(&lg.full_cnf());
    let mut primaries: Vec<Lit> = Vec::new();
    for &l in &x.primaries {
        if !primaries.iter().any(|q| q.var() == l.var()) {
            primaries.push(l);
        }
    }
    let mut found: Option<(Concrete, bool)> = None;
    let enc = Encoded {
        test,
        ev,
        x,
        lg,
        checks: Vec::new(),
        sels: Vec::new(),
        shown,
        places,
        outcome: outcome.clone(),
        deadline,
    };
    for k in 0..=index.saturating_add(1) {
        if k > 0 {
            deadline.check(file)?;
        }
        if !solver.solve().map_err(|e| Diag::file(file, format!("solver error: {e}")))? {
            break;
        }
        let truth = truth_of(&solver, vars);
        if k == index {
            found = Some((concrete(&enc, &truth), p.value(&truth)));
        } else if k > index {
            let Some((ex, satisfies)) = found else { break };
            return Ok(Some(step(&enc, prog, ex, index, satisfies, true)));
        }
        // Blocks this execution: some primary must take the other value.
        let block: Vec<Lit> = primaries.iter().map(|&l| if B::L(l).value(&truth) { !l } else { l }).collect();
        if block.is_empty() {
            // No primaries: the one execution there is.
            if k == index {
                let Some((ex, satisfies)) = found else { break };
                return Ok(Some(step(&enc, prog, ex, index, satisfies, false)));
            }
            break;
        }
        solver.add_clause(&block);
    }
    Ok(found.map(|(ex, satisfies)| step(&enc, prog, ex, index, satisfies, false)))
}

fn step(enc: &Encoded, prog: &Program, ex: Concrete, index: usize, satisfies: bool, more: bool) -> Step {
    let analysis = Analysis {
        test: enc.test.clone(),
        model: prog.display_name(),
        ev: enc.ev.clone(),
        outcome: enc.outcome.clone(),
        checks: Vec::new(),
        verdict: Verdict::Allowed,
        exec: Some(ex),
        breaks: Vec::new(),
    };
    Step { analysis, index, satisfies, more }
}
