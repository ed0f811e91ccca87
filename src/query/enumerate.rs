//! Listing every execution: each distinct assignment to the primaries that the formula
//! allows, found once.
//!
//! The search is depth first, by assumptions rather than blocking clauses, so the
//! solver's formula never grows. A node is a prefix of the primaries (in a fixed order)
//! whose last literal is flipped from the model found above it. Under a prefix, after the
//! model m found there, the rest of the subtree is the union of the subtrees where the
//! first primary beyond the prefix that differs from m is the i-th, for each i.
//!
//! Most children are contradictory, and mostly for the same few reasons (a read given two
//! sources, a coherence order that the prefix already breaks). Each contradiction the
//! solver proves comes with the assumptions it used (its failed core); a later node whose
//! assumptions include a known core is skipped without a solver call.

use varisat::{ExtendFormula, Lit, Solver};

/// How many executions are excluded by blocking clauses before the depth-first search.
const BLOCKING: usize = 64;

/// How a listing went, for benchmarks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Solver calls that found an execution.
    pub sat: u64,
    /// Solver calls that proved a node empty.
    pub unsat: u64,
    /// Nodes skipped because they contain a known core.
    pub skipped: u64,
}

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

/// Depth-first listing over `order` (the primaries, as the solver's literals).
pub struct Lister<'s, 'a> {
    solver: &'s mut Solver<'a>,
    order: Vec<Lit>,
    /// For each solver variable, its position in `order`.
    position: std::collections::HashMap<varisat::Var, usize>,
    nogoods: Nogoods,
    pub stats: Stats,
}

impl<'s, 'a> Lister<'s, 'a> {
    pub fn new(solver: &'s mut Solver<'a>, order: Vec<Lit>) -> Self {
        let position = order.iter().enumerate().map(|(k, l)| (l.var(), k)).collect();
        let nogoods = Nogoods::new(order.len());
        Lister { solver, order, position, nogoods, stats: Stats::default() }
    }

    fn bits(&self, lits: &[Lit]) -> Vec<u64> {
        let mut bits = vec![0u64; self.nogoods.words];
        for l in lits {
            if let Some(&k) = self.position.get(&l.var()) {
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
        if !self.block_first(&mut tick, &mut visit, &solver_err)? {
            return Ok(());
        }
        let mut pending: Vec<Vec<Lit>> = vec![Vec::new()];
        while let Some(prefix) = pending.pop() {
            tick()?;
            if !self.nogoods.sets.is_empty() && self.nogoods.covers(&self.bits(&prefix)) {
                self.stats.skipped += 1;
                continue;
            }
            self.solver.assume(&prefix);
            if !self.solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))? {
                self.stats.unsat += 1;
                let core = self.solver.failed_core().unwrap_or(&prefix).to_vec();
                let bits = self.bits(&core);
                self.nogoods.add(&bits);
                continue;
            }
            self.stats.sat += 1;
            let model = self.solver.model().unwrap_or_default();
            if !visit(&model)? {
                return Ok(());
            }
            let here = self.assignment(&model);
            for i in prefix.len()..here.len() {
                let mut next = here[..i].to_vec();
                next.push(!here[i]);
                pending.push(next);
            }
        }
        Ok(())
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
            if !self.solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))? {
                self.stats.unsat += 1;
                return Ok(false);
            }
            self.stats.sat += 1;
            let model = self.solver.model().unwrap_or_default();
            if !visit(&model)? {
                return Ok(false);
            }
            let block: Vec<Lit> = self.assignment(&model).iter().map(|&l| !l).collect();
            if block.is_empty() {
                return Ok(false);
            }
            self.solver.add_clause(&block);
        }
        Ok(true)
    }

    /// The primaries' literals as `model` sets them.
    fn assignment(&self, model: &[Lit]) -> Vec<Lit> {
        let mut truth = vec![false; self.solver_vars(model)];
        for l in model {
            truth[l.var().index()] = l.is_positive();
        }
        self.order.iter().map(|&p| if truth[p.var().index()] == p.is_positive() { p } else { !p }).collect()
    }

    fn solver_vars(&self, model: &[Lit]) -> usize {
        let top = self.order.iter().map(|l| l.var().index() + 1).max().unwrap_or(0);
        top.max(model.iter().map(|l| l.var().index() + 1).max().unwrap_or(0))
    }
}
