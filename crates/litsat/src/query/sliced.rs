//! Answers by bit-sliced evaluation, for tests with few candidate executions.
//!
//! Where a test's candidates (its assignments of the primaries that the execution's own
//! constraints allow: rf, co, branches, store-conditionals) number at most
//! [`MAX_CANDIDATES`], they are listed before the built-in relations and the model, and
//! both are then evaluated over all of them at once ([`Logic::slice`]): every relation
//! entry is a mask of candidates, every check the mask of those it passes, and the
//! executions are the candidates every check passes, one per assignment of the
//! primaries. The log is the same as listing the solutions of the model's CNF, at a
//! fraction of the cost: no clauses are written, pruned or propagated for the model.
//!
//! herd's order generators split each candidate into one per order (see
//! `cat::interp::with`); a model with a generic `with x from S` is not sliced
//! (`Program::chooses`).

use super::{Found, Outcome, View, enumerate::Lister, record};
use crate::diag::{Deadline, Diag};
use crate::encode::exec::Exec;
use crate::logic::{B, FxSet, Logic, MAX_CANDIDATES, Mask};
use varisat::Lit;

/// Lists the candidate executions of the formula so far (`x`'s encoding, before the
/// built-in relations and the model), and starts evaluating `lg` over them; `false`,
/// with `lg` as it was, where there are more than [`MAX_CANDIDATES`].
pub(super) fn start(x: &Exec, lg: &mut Logic, file: &str, deadline: Deadline) -> Result<bool, Diag> {
    let n = lg.num_vars();
    // The constraints' cone gives every variable that matters a value but the gates,
    // which `Logic::slice` computes from their inputs.
    let roots: Vec<B> = x.primaries.iter().map(|&p| B::L(p)).collect();
    let cone = lg.pruned(&roots);
    let mut seen = vec![false; cone.cnf.var_count()];
    let order: Vec<Lit> =
        x.primaries.iter().map(|&p| cone.lit(p)).filter(|p| !std::mem::replace(&mut seen[p.var().index()], true)).collect();
    let sources: Vec<Vec<Lit>> = x.sources.iter().map(|g| g.iter().map(|&l| cone.lit(l)).collect()).collect();
    let mut lister = Lister::new(&cone.cnf, order, &sources);
    // Each variable's candidates, built as they are listed.
    let mut mask: Vec<Mask> = vec![0; n];
    let mut count = 0;
    let mut few = true;
    lister.run(
        || deadline.check(file),
        |model| {
            if count == MAX_CANDIDATES {
                few = false;
                return Ok(false);
            }
            for l in model.iter().filter(|l| l.is_positive()) {
                if let Some(v) = cone.whole(l.var().index()) {
                    mask[v] |= 1 << count;
                }
            }
            count += 1;
            Ok(true)
        },
        |m| Diag::file(file, m),
    )?;
    if few {
        lg.slice(count, mask);
    }
    Ok(few)
}

/// Records each candidate every constraint allows (the model's checks, the filter) as an
/// execution of `out`: the log's entries read only the literals `roots` lists.
pub(super) fn list(out: &mut Outcome, lg: &Logic, view: &View, roots: &[B]) -> Found {
    let vars: Vec<(usize, Mask)> = roots
        .iter()
        .filter_map(|&b| match b {
            B::L(l) => Some((l.var().index(), lg.mask(B::L(Lit::from_var(l.var(), true)))?)),
            _ => None,
        })
        .collect();
    // Candidates that differ only where no primary does are one execution (co, where a
    // C model's own orders replace it, see `final_writes_choose`): the first stands for it.
    let primaries: Vec<Mask> = view.x.primaries.iter().filter_map(|&p| lg.mask(B::L(p))).collect();
    let candidates = lg.allowed_candidates();
    let mut seen: FxSet<Vec<u64>> = FxSet::with_capacity_and_hasher(candidates.len(), Default::default());
    let mut truth = vec![false; lg.num_vars()];
    let mut found = Found::default();
    for c in candidates {
        let key: Vec<u64> = primaries.chunks(64).map(|ms| ms.iter().fold(0, |w, m| w << 1 | (m >> c & 1) as u64)).collect();
        if !seen.insert(key) {
            continue;
        }
        for &(v, m) in &vars {
            truth[v] = m >> c & 1 == 1;
        }
        record(out, &mut found, &truth, view, 1);
    }
    found
}
