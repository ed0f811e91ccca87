//! Full logs by counting, for tests with too many executions to list (issue #15).
//!
//! The log needs the distinct final states, the executions on each side of the condition,
//! the flags any execution raises and the loops any execution overruns. Listing the
//! executions costs a solver call each, so it grows with their number. Here each distinct
//! valuation of the places the log reads (the shown ones, and those the condition and the
//! filter read) costs one solver call, and the executions behind it are counted, not
//! visited: a projected model count over the primaries ([`crate::count`]) under that
//! valuation. Flags and loops cost one solver call each, as under `--fast`.

use super::{Found, Incremental, Outcome, View, record};
use super::symmetry::PlaceMap;
use crate::count::{Counter, Stop};
use std::collections::HashMap;
use crate::diag::{Deadline, Diag};
use crate::logic::{B, Pruned};
use varisat::{ExtendFormula, Lit, Var};

/// How many executions are listed one by one before the rest are counted instead: below
/// it, listing (mostly by propagation, without a solver) is the cheaper of the two.
pub(super) const LIST_FIRST: u64 = 2048;

/// Whether counting pays, from what listing found so far: a solver call and a count per
/// state cost more than listing where few executions share a state (the `sb` rings; the
/// ARM campaign's MOREDETOUR tests, 4 to 10 executions a state at the switch, listed 2–3×
/// faster), and far less where many do (the `co` family: 57 to 1,000 at the switch).
pub(super) fn worth_counting(executions: u64, states: usize) -> bool {
    executions >= 16 * states as u64
}

/// Fills `out` by counting, and returns its states. `order`: the primaries, in the pruned
/// numbering. `None` where some execution lies outside the exact encoding (see
/// `Logic::guard`), as listing would have met it.
pub(super) fn tally(
    out: &mut Outcome,
    cone: &Pruned,
    order: &[Lit],
    view: &View,
    exact: B,
    file: &str,
    deadline: Deadline,
) -> Result<Option<Found>, Diag> {
    let mut ask = Incremental::new(cone, exact, file, deadline);
    if ask.sat_all(&[exact.negate()])? {
        return Ok(None);
    }
    overruns(out, &mut ask, view)?;
    let uncut = view.cut.negate();
    for (name, b) in view.flag_lits {
        if ask.sat_all(&[uncut, *b])? {
            out.flags.insert(name.clone());
        }
    }
    let projection: Vec<Var> = order.iter().map(|l| l.var()).collect();
    let mut counter = Counter::new(cone.cnf.var_count(), cone.cnf.iter(), &projection);
    let mut found = Found::default();
    let mut orbits = Orbits { maps: super::symmetry::place_maps(&out.test, view), known: HashMap::new() };
    // A limit met from here on leaves the states found so far in the log.
    let counted = states(out, &mut found, &mut ask, &mut counter, &mut orbits, view, file, deadline);
    out.keep_partial(counted)?;
    Ok(Some(found))
}

/// Each distinct valuation of the log's places: one solver call finds it, and the
/// executions behind it are counted.
#[allow(clippy::too_many_arguments)]
fn states(
    out: &mut Outcome,
    found: &mut Found,
    ask: &mut Incremental,
    counter: &mut Counter,
    orbits: &mut Orbits,
    view: &View,
    file: &str,
    deadline: Deadline,
) -> Result<(), Diag> {
    let uncut = view.cut.negate();
    let mut truth = Vec::new();
    while ask.sat_all(&[uncut])? {
        let model = ask.solver.model().unwrap_or_default();
        ask.cone.fill_truth(&model, &mut truth);
        // The valuation: at each place, the value literal that holds.
        let state: Vec<Option<usize>> =
            view.places.iter().map(|(_, vals)| vals.iter().position(|v| v.1.value(&truth))).collect();
        let mut held: Vec<B> = vec![uncut];
        held.extend(view.places.iter().zip(&state).filter_map(|((_, vals), v)| v.map(|v| vals[v].1)));
        let too_many = || Diag::file(file, "more than 2^128 executions");
        let counted = match orbits.known.get(&state) {
            Some(&n) => Ok(n),
            None => {
                let assume = ask.lits(&held).unwrap_or_default();
                let counted = counter.count(&assume, &mut || deadline.check(file).is_ok());
                if let Ok(n) = counted {
                    orbits.remember(state, n);
                }
                counted
            }
        };
        let weight = match counted {
            Ok(n) => n,
            Err(Stop::Interrupted) => 0,
            Err(Stop::Overflow) => return Err(too_many()),
        };
        if out.pos.checked_add(out.neg).and_then(|t| t.checked_add(weight)).is_none() {
            return Err(too_many());
        }
        // The state is known even where its count is not.
        record(out, found, &truth, view, weight);
        if counted.is_err() {
            return Err(Diag::limit(file, crate::diag::TIMEOUT));
        }
        // The valuation's own literals (past `uncut`), negated: the next one differs.
        let block: Vec<Lit> = ask.lits(&held[1..]).unwrap_or_default().into_iter().map(|l| !l).collect();
        if block.is_empty() {
            break;
        }
        ask.solver.add_clause(&block);
    }
    Ok(())
}

/// At most this many images of one state are remembered (a group of identical threads
/// may have millions; any part of an orbit is still sound).
const ORBIT_MAX: usize = 4096;

/// The counts known by symmetry: each counted state's images under the test's symmetries
/// ([`super::symmetry`]) have its count.
struct Orbits {
    maps: Vec<PlaceMap>,
    known: HashMap<Vec<Option<usize>>, u128>,
}

impl Orbits {
    /// Gives `state` and every image of it under the symmetries (and their compositions)
    /// the count `n`.
    fn remember(&mut self, state: Vec<Option<usize>>, n: u128) {
        if self.maps.is_empty() {
            return;
        }
        let mut todo = vec![state];
        let mut budget = ORBIT_MAX;
        while let Some(s) = todo.pop() {
            budget -= 1;
            if budget == 0 {
                return;
            }
            for m in &self.maps {
                let image = m.apply(&s);
                if !self.known.contains_key(&image) {
                    todo.push(image);
                }
            }
            self.known.insert(s, n);
        }
    }
}

/// herd's `Loop` prefix: whether some execution went past the unrolling bound, and the
/// loops such executions overran.
fn overruns(out: &mut Outcome, ask: &mut Incremental, view: &View) -> Result<(), Diag> {
    if ask.sat_all(&[view.cut])? {
        out.looped = true;
        for (name, b) in view.loops {
            if ask.sat_all(&[view.cut, *b])? {
                out.cut_at.insert(name.clone());
            }
        }
    }
    Ok(())
}
