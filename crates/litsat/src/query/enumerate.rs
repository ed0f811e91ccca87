//! Listing every execution: each distinct assignment to the primaries that the formula
//! allows, found once.
//!
//! Most tests are listed without the solver (see [`walk`]): depth first over the
//! primaries, by unit propagation. Where that search grows past a budget, the solver
//! takes over with what was found so far excluded, as follows.
//!
//! The first [`BLOCKING`] executions are excluded one by one with blocking clauses. The
//! rest are listed depth first, by assumptions, so the solver's formula stops growing. A
//! node is a prefix of the primaries (in a fixed order) whose last literal is flipped
//! from the model found above it. Under a prefix, after the model m found there, the rest
//! of the subtree is the union of the subtrees where the first primary beyond the prefix
//! that differs from m is the i-th, for each i.
//!
//! Most children are contradictory, and mostly for the same few reasons (a read given two
//! sources, a coherence order that the prefix already breaks). Each contradiction the
//! solver proves comes with the assumptions it used (its failed core); a later node whose
//! assumptions include a known core is skipped without a solver call. A node is first
//! tried with its guess (the model above, flipped) by propagation outside the solver.

mod walk;

use super::propagate::Propagator;
use crate::logic::Formula;
use varisat::{ExtendFormula, Lit, Solver};

/// How many executions are excluded by blocking clauses before the depth-first search.
const BLOCKING: usize = 64;

/// Sets of primary literals that no execution satisfies together, as bit sets over the
/// literals of the primaries (bit `2·position + negated`).
struct Nogoods {
    words: usize,
    sets: Vec<u64>,
}

impl Nogoods {
    fn new(primaries: usize) -> Nogoods {
        Nogoods { words: (2 * primaries).div_ceil(64).max(1), sets: Vec::new() }
    }

    fn add(&mut self, bits: &[u64]) {
        self.sets.extend_from_slice(bits);
    }

    /// Whether some known core lies within `bits`.
    fn covers(&self, bits: &[u64]) -> bool {
        self.sets.chunks_exact(self.words).any(|ng| ng.iter().zip(bits).all(|(&n, &b)| n & !b == 0))
    }
}

/// A node of the search: the executions that agree with `guess` on its first `prefix`
/// primaries; the rest of `guess` is a likely completion (the model above, adjusted).
struct Node {
    prefix: usize,
    guess: Vec<Lit>,
}

/// Depth-first listing over `order` (the primaries, as the solver's literals).
pub struct Lister<'s> {
    /// Loaded on first use: most tests never need it.
    solver: Option<Solver<'static>>,
    order: Vec<Lit>,
    /// For each solver variable, its position in `order` (`usize::MAX`: none).
    position: Vec<usize>,
    nogoods: Nogoods,
    /// Groups of positions of which at most one holds (a read's sources), and each
    /// position's group.
    groups: Vec<Vec<usize>>,
    group_of: Vec<Option<usize>>,
    /// The solver's clauses, for checking guesses without it (built once the blocking
    /// clauses are in).
    check: Option<Propagator>,
    cnf: &'s Formula,
    blocks: Vec<Vec<Lit>>,
    /// Propagations [`walk`] may spend before the first execution.
    walk_budget: usize,
}

impl<'s> Lister<'s> {
    /// `cnf`: the formula, over the solver's variables; `groups`: sets of primaries (as
    /// in `order`) of which at most one holds.
    pub fn new(cnf: &'s Formula, order: Vec<Lit>, groups: &[Vec<Lit>]) -> Self {
        let mut position = vec![usize::MAX; cnf.var_count()];
        for (k, l) in order.iter().enumerate() {
            position[l.var().index()] = k;
        }
        let nogoods = Nogoods::new(order.len());
        let mut group_of = vec![None; order.len()];
        let mut gs = Vec::new();
        for g in groups {
            let mut ps: Vec<usize> = g.iter().map(|l| position[l.var().index()]).filter(|&p| p != usize::MAX).collect();
            ps.sort_unstable();
            for &p in &ps {
                group_of[p] = Some(gs.len());
            }
            gs.push(ps);
        }
        Lister {
            solver: None,
            order,
            position,
            nogoods,
            groups: gs,
            group_of,
            check: None,
            cnf,
            blocks: Vec::new(),
            walk_budget: walk::START,
        }
    }

    /// The primaries, in the order listed.
    pub fn order(&self) -> &[Lit] {
        &self.order
    }

    /// The solver, loaded with the formula and the blocking clauses so far.
    fn solver(&mut self) -> &mut Solver<'static> {
        self.solver.get_or_insert_with(|| {
            let mut s = Solver::new();
            s.add_formula(&super::propagate::simplify(self.cnf));
            for b in &self.blocks {
                s.add_clause(b);
            }
            s
        })
    }

    /// Excludes an execution (its primaries' literals) from now on.
    fn block(&mut self, assignment: &[Lit]) {
        let block: Vec<Lit> = assignment.iter().map(|&l| !l).collect();
        if let Some(s) = &mut self.solver {
            s.add_clause(&block);
        }
        self.blocks.push(block);
    }

    fn bits(&self, lits: &[Lit]) -> Vec<u64> {
        let mut bits = vec![0u64; self.nogoods.words];
        for l in lits {
            let k = self.position[l.var().index()];
            if k != usize::MAX {
                let b = 2 * k + usize::from(l.is_negative());
                bits[b / 64] |= 1 << (b % 64);
            }
        }
        bits
    }

    /// Calls `visit` with each model, one per execution, until it returns `Ok(false)` or
    /// an error; `tick` runs before each node (for time limits).
    pub fn run<E>(
        &mut self,
        mut tick: impl FnMut() -> Result<(), E>,
        mut visit: impl FnMut(&[Lit]) -> Result<bool, E>,
        solver_err: impl Fn(String) -> E,
    ) -> Result<(), E> {
        let mut check = Propagator::of(self.cnf);
        match self.walk(&mut check, &mut tick, &mut visit, &solver_err)? {
            walk::Walk::Done => return Ok(()),
            walk::Walk::Unfinished(found) => {
                for a in found {
                    self.block(&a);
                }
            }
        }
        if !self.block_first(&mut tick, &mut visit, &solver_err)? {
            return Ok(());
        }
        let clauses = self.cnf.iter().chain(self.blocks.iter().map(|b| &b[..]));
        self.check = Some(Propagator::new(self.cnf.var_count(), clauses));
        let mut pending: Vec<Node> = vec![Node { prefix: 0, guess: Vec::new() }];
        while let Some(node) = pending.pop() {
            tick()?;
            let prefix_bits = self.bits(&node.guess[..node.prefix]);
            if self.nogoods.covers(&prefix_bits) {
                continue;
            }
            let Some(model) = self.solve_node(&node, &prefix_bits, &solver_err)? else { continue };
            if !visit(&model)? {
                return Ok(());
            }
            let here = self.assignment(&model);
            for i in node.prefix..here.len() {
                let mut guess = here.clone();
                guess[i] = !guess[i];
                self.repair(&mut guess, i);
                pending.push(Node { prefix: i + 1, guess });
            }
        }
        Ok(())
    }

    /// A model under the node's prefix (whose bits are `prefix_bits`), or `None` if there
    /// is none. The node's guess is tried first, by propagation and then by the solver
    /// with every primary assumed; where that fails for a reason outside the prefix, the
    /// prefix alone is solved.
    fn solve_node<E>(
        &mut self,
        node: &Node,
        prefix_bits: &[u64],
        solver_err: &impl Fn(String) -> E,
    ) -> Result<Option<Vec<Lit>>, E> {
        let prefix = &node.guess[..node.prefix];
        let tries: &[&[Lit]] = if node.prefix > 0 {
            if let Some(model) = self.check.as_mut().and_then(|c| c.model(&node.guess)) {
                return Ok(Some(model));
            }
            &[&node.guess, prefix]
        } else {
            &[prefix]
        };
        for &assumed in tries {
            let solver = self.solver();
            solver.assume(assumed);
            if solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))? {
                return Ok(Some(solver.model().unwrap_or_default()));
            }
            let core = solver.failed_core().unwrap_or(assumed).to_vec();
            let core = self.bits(&core);
            self.nogoods.add(&core);
            if core.iter().zip(prefix_bits).all(|(&c, &p)| c & !p == 0) {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// Makes a guess respect the one-source rule of the read whose choice was flipped at
    /// position `i`: choosing a source drops the later ones; dropping it takes the next.
    fn repair(&self, guess: &mut [Lit], i: usize) {
        let Some(g) = self.group_of[i] else { return };
        let later = self.groups[g].iter().copied().filter(|&j| j > i);
        let mut chosen = guess[i] == self.order[i];
        for j in later {
            guess[j] = if chosen { !self.order[j] } else { self.order[j] };
            chosen = true;
        }
    }

    /// The first executions, each excluded by a clause once found: while there are few,
    /// one solver call per execution and a last one that finds no more costs less than
    /// the depth-first search's proofs that its subtrees are empty. Past [`BLOCKING`]
    /// executions the clauses would slow every later call, so the depth-first search
    /// lists the rest (of the formula with these excluded). `Ok(false)` when done.
    fn block_first<E>(
        &mut self,
        tick: &mut impl FnMut() -> Result<(), E>,
        visit: &mut impl FnMut(&[Lit]) -> Result<bool, E>,
        solver_err: &impl Fn(String) -> E,
    ) -> Result<bool, E> {
        for _ in 0..BLOCKING {
            tick()?;
            let solver = self.solver();
            if !solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))? {
                return Ok(false);
            }
            let model = solver.model().unwrap_or_default();
            if !visit(&model)? {
                return Ok(false);
            }
            let assignment = self.assignment(&model);
            if assignment.is_empty() {
                return Ok(false);
            }
            self.block(&assignment);
        }
        Ok(true)
    }

    /// The primaries' literals as `model` sets them.
    fn assignment(&self, model: &[Lit]) -> Vec<Lit> {
        let mut truth = vec![false; self.solver_vars(model)];
        crate::logic::fill_truth(model, &mut truth, Some);
        self.order.iter().map(|&p| if truth[p.var().index()] == p.is_positive() { p } else { !p }).collect()
    }

    fn solver_vars(&self, model: &[Lit]) -> usize {
        let top = self.order.iter().map(|l| l.var().index() + 1).max().unwrap_or(0);
        top.max(model.iter().map(|l| l.var().index() + 1).max().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::{CnfFormula, Var};

    /// Small random formulas over 8 variables, from a fixed seed, with one group of
    /// "sources" (at most one of variables 0–2 holds) as the encoder writes for a read.
    fn formulas() -> impl Iterator<Item = CnfFormula> {
        let mut next = super::super::propagate::xorshift(0x9e37_79b9_7f4a_7c15);
        (0..200).map(move |_| {
            let mut f = CnfFormula::new();
            f.set_var_count(8);
            let v = |i: usize| Var::from_index(i);
            f.add_clause(&[v(0).positive(), v(1).positive(), v(2).positive()]);
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                f.add_clause(&[v(a).negative(), v(b).negative()]);
            }
            for _ in 0..next(12) {
                let len = 2 + next(2) as usize;
                let c: Vec<Lit> = (0..len).map(|_| v(next(8) as usize).lit(next(2) == 0)).collect();
                f.add_clause(&c);
            }
            f
        })
    }

    /// The assignments to the first five variables that extend to a model, by brute force.
    fn expected(f: &CnfFormula) -> Vec<u32> {
        let holds = |bits: u32, l: Lit| ((bits >> l.var().index()) & 1 == 1) == l.is_positive();
        let mut out: Vec<u32> =
            (0..1u32 << 8).filter(|&b| f.iter().all(|c| c.iter().any(|&l| holds(b, l)))).map(|b| b & 31).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn every_budget_lists_each_execution_once() {
        for f in formulas() {
            let want = expected(&f);
            let order: Vec<Lit> = (0..5).map(|i| Var::from_index(i).positive()).collect();
            let groups = vec![order[..3].to_vec()];
            for budget in [0, 1, 3, 10, walk::START] {
                let flat = Formula::from(&f);
                let mut lister = Lister::new(&flat, order.clone(), &groups);
                lister.walk_budget = budget;
                let mut got = Vec::new();
                lister
                    .run(
                        || Ok::<(), String>(()),
                        |m| {
                            let bits = m.iter().filter(|l| l.is_positive() && l.var().index() < 5);
                            got.push(bits.fold(0u32, |b, l| b | 1 << l.var().index()));
                            Ok(true)
                        },
                        |e| e,
                    )
                    .expect("no solver error");
                got.sort_unstable();
                assert_eq!(got, want, "budget {budget}");
            }
        }
    }
}
