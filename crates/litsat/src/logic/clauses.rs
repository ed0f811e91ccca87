//! The clauses of a formula under construction, in one flat array.
//!
//! [`Logic::pruned`](super::Logic::pruned) visits the clauses a variable owns by index,
//! once per pruning; varisat's `CnfFormula` only iterates, and collecting its clauses
//! into a vector of slices on every pruning cost more than the pruning itself.

use std::cell::OnceCell;
use varisat::{CnfFormula, ExtendFormula, Lit};

#[derive(Default)]
pub struct Clauses {
    lits: Vec<Lit>,
    /// Where each clause ends in `lits` (it starts where the one before ends).
    end: Vec<u32>,
}

impl Clauses {
    /// Room for `clauses` clauses of `lits` literals in all, allocated once.
    pub fn with_capacity(clauses: usize, lits: usize) -> Clauses {
        Clauses { lits: Vec::with_capacity(lits), end: Vec::with_capacity(clauses) }
    }

    pub fn push(&mut self, c: &[Lit]) {
        self.lits.extend_from_slice(c);
        self.end.push(self.lits.len() as u32);
    }

    /// [`Clauses::push`] of the literals `c` yields, without gathering them first.
    pub fn push_iter(&mut self, c: impl Iterator<Item = Lit>) {
        self.lits.extend(c);
        self.end.push(self.lits.len() as u32);
    }

    /// Drops every clause, keeping the buffers.
    pub fn clear(&mut self) {
        self.lits.clear();
        self.end.clear();
    }

    pub fn len(&self) -> usize {
        self.end.len()
    }

    /// Clause `k`.
    pub fn get(&self, k: usize) -> &[Lit] {
        let start = if k == 0 { 0 } else { self.end[k - 1] };
        &self.lits[start as usize..self.end[k] as usize]
    }

    /// The literals of every clause, one after the other, and where each clause ends.
    pub fn flat(&self) -> (&[Lit], &[u32]) {
        (&self.lits, &self.end)
    }

    /// The clauses in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Lit]> {
        let starts = std::iter::once(0).chain(self.end.iter().copied());
        starts.zip(&self.end).map(|(a, &b)| &self.lits[a as usize..b as usize])
    }
}

/// A formula handed out ([`super::Logic::pruned`]): its clauses, flat, and varisat's form
/// of them, built on first use. Most tests are listed by propagation over the flat
/// clauses alone, and never load a solver.
pub struct Formula {
    vars: usize,
    clauses: Clauses,
    cnf: OnceCell<CnfFormula>,
}

impl Formula {
    pub fn new(vars: usize, clauses: Clauses) -> Formula {
        Formula { vars, clauses, cnf: OnceCell::new() }
    }

    pub fn var_count(&self) -> usize {
        self.vars
    }

    /// The clauses in order.
    pub fn iter(&self) -> impl Iterator<Item = &[Lit]> {
        self.clauses.iter()
    }

    /// The clauses as [`Clauses::flat`] gives them.
    pub fn flat(&self) -> (&[Lit], &[u32]) {
        self.clauses.flat()
    }

    /// The formula as varisat takes it.
    pub fn cnf(&self) -> &CnfFormula {
        self.cnf.get_or_init(|| {
            let mut cnf = CnfFormula::new();
            cnf.set_var_count(self.vars);
            for c in self.clauses.iter() {
                cnf.add_clause(c);
            }
            cnf
        })
    }
}

impl std::ops::Deref for Formula {
    type Target = CnfFormula;
    fn deref(&self) -> &CnfFormula {
        self.cnf()
    }
}

impl From<&CnfFormula> for Formula {
    fn from(cnf: &CnfFormula) -> Formula {
        let mut clauses = Clauses::default();
        for c in cnf.iter() {
            clauses.push(c);
        }
        Formula::new(cnf.var_count(), clauses)
    }
}
