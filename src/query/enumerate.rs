//! Listing every execution: each distinct assignment to the primaries that the formula
//! allows, found once.
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

use super::propagate::Propagator;
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

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
pub struct Lister<'s, 'a> {
    solver: &'s mut Solver<'a>,
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
    cnf: &'s CnfFormula,
    blocks: Vec<Vec<Lit>>,
}

impl<'s, 'a> Lister<'s, 'a> {
    /// `groups`: sets of primaries (as in `order`) of which at most one holds.
    pub fn new(solver: &'s mut Solver<'a>, cnf: &'s CnfFormula, order: Vec<Lit>, groups: &[Vec<Lit>]) -> Self {
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
        Lister { solver, order, position, nogoods, groups: gs, group_of, check: None, cnf, blocks: Vec::new() }
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
            self.solver.assume(assumed);
            if self.solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))? {
                return Ok(Some(self.solver.model().unwrap_or_default()));
            }
            let core = self.bits(self.solver.failed_core().unwrap_or(assumed));
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
            if !self.solver.solve().map_err(|e| solver_err(format!("solver error: {e}")))? {
                return Ok(false);
            }
            let model = self.solver.model().unwrap_or_default();
            if !visit(&model)? {
                return Ok(false);
            }
            let block: Vec<Lit> = self.assignment(&model).iter().map(|&l| !l).collect();
            if block.is_empty() {
                return Ok(false);
            }
            self.solver.add_clause(&block);
            self.blocks.push(block);
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
