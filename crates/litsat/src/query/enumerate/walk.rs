//! Listing executions by unit propagation alone, while that stays cheap.
//!
//! Depth first over the primaries in their order: each open primary is assumed true,
//! then false, and propagated; a conflict closes the branch. Where every primary is
//! fixed, propagation has decided nearly everything else (see [`Propagator`]): if the
//! open variables set false complete a model, that is an execution, found without the
//! solver; otherwise the solver decides that one assignment.
//!
//! On litmus-sized formulas a solver call costs about as much as a few hundred
//! propagations (varisat simplifies its whole clause database whenever it learns a unit),
//! so this is cheaper as long as propagation refutes dead branches early. Where it does
//! not, the search could visit every candidate execution, as herd does; a budget of
//! propagations, renewed by each execution found, hands such tests back to the solver.

use super::{Lister, Propagator};
use varisat::Lit;

/// Propagations allowed before the first execution.
pub const START: usize = 4096;
/// Propagations added by each execution found.
const PER_EXECUTION: usize = 256;
/// What a solver call at a leaf counts against the budget.
const LEAF_SOLVE: usize = 256;

pub enum Walk {
    /// Every execution was visited (or the visitor asked to stop).
    Done,
    /// Over budget: the executions found so far, as assignments to the primaries.
    Unfinished(Vec<Vec<Lit>>),
}

impl Lister<'_> {
    /// Lists executions by propagation over `p` (the solver's formula), calling `visit`
    /// with each model; see the module doc.
    pub(super) fn walk<E>(
        &mut self,
        p: &mut Propagator,
        tick: &mut impl FnMut() -> Result<(), E>,
        visit: &mut impl FnMut(&[Lit]) -> Result<bool, E>,
        solver_err: &impl Fn(String) -> E,
    ) -> Result<Walk, E> {
        if p.is_dead() {
            return Ok(Walk::Done);
        }
        let n = self.order.len();
        let mut budget = self.walk_budget;
        // The primaries of each execution found, `n` apiece, in one buffer (no vector per
        // execution: they are needed only if the walk does not finish).
        let mut found: Vec<Lit> = Vec::new();
        let mut executions = 0;
        // The positions assumed, and whether their second value is the one in force.
        let mut stack: Vec<(usize, bool)> = Vec::new();
        let mut i = 0;
        loop {
            while i < n && p.value(self.order[i]) != 0 {
                i += 1;
            }
            if i == n {
                let fixed = found.len();
                found.extend(self.order.iter().map(|&l| if p.value(l) > 0 { l } else { !l }));
                let model = match p.complete_greedily() {
                    Some(m) => Some(m),
                    None => {
                        budget = budget.saturating_sub(LEAF_SOLVE);
                        self.solve_under(&found[fixed..], solver_err)?
                    }
                };
                match model {
                    Some(m) => {
                        if !visit(&m)? {
                            return Ok(Walk::Done);
                        }
                        executions += 1;
                        budget += PER_EXECUTION;
                    }
                    None => found.truncate(fixed),
                }
            } else {
                if budget == 0 {
                    return Ok(Walk::Unfinished((0..executions).map(|k| found[k * n..(k + 1) * n].to_vec()).collect()));
                }
                budget -= 1;
                if budget.is_multiple_of(256) {
                    tick()?;
                }
                let l = self.order[i];
                if p.push(l) {
                    stack.push((i, false));
                    i += 1;
                    continue;
                }
                if p.push(!l) {
                    stack.push((i, true));
                    i += 1;
                    continue;
                }
            }
            // Back to the last primary with a value left to try.
            loop {
                let Some((j, second)) = stack.pop() else { return Ok(Walk::Done) };
                p.pop();
                if !second && p.push(!self.order[j]) {
                    stack.push((j, true));
                    i = j + 1;
                    break;
                }
            }
        }
    }

    /// A model where the primaries are `fixed`, from the solver.
    fn solve_under<E>(&mut self, fixed: &[Lit], solver_err: &impl Fn(String) -> E) -> Result<Option<Vec<Lit>>, E> {
        let solver = self.solver();
        solver.assume(fixed);
        let sat = solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))?;
        let model = if sat { solver.model() } else { None };
        solver.assume(&[]);
        Ok(model)
    }
}
