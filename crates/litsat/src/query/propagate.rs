//! Checking a complete guess of the primaries without the solver.
//!
//! Once every primary is fixed, the rest of the formula is nearly determined: gates
//! follow their inputs, a read's value follows its source, and one-way auxiliaries are
//! forced only where their antecedents hold. Unit propagation from the guess, with every
//! variable it leaves open set false, is then usually a model, found in one pass over
//! the clauses instead of a solver call (varisat decides every open variable and learns
//! from the conflicts). Where it is not a model, nothing is concluded: the caller asks the
//! solver, so this only ever saves work.
//!
//! Guesses arrive in depth-first order, so consecutive ones share long prefixes. Each
//! primary of a guess is assumed at its own level, and a new guess keeps the levels of
//! the prefix it shares with the last one: only what depends on the rest is undone and
//! propagated again.

use crate::logic::Formula;
use varisat::{CnfFormula, ExtendFormula, Lit, Var};

/// A clause database for repeated propagation, in flat arrays: it runs once per
/// execution listed, so memory locality is most of its cost.
pub struct Propagator {
    /// Clause literals, flattened; clause `c` is `lits[start[c]..start[c + 1]]`.
    lits: Vec<Lit>,
    start: Vec<u32>,
    /// The clauses each literal occurs in: `occurs[first[code]..first[code + 1]]`.
    occurs: Vec<u32>,
    first: Vec<u32>,
    /// Per variable: 0 open, 1 true, -1 false.
    value: Vec<i8>,
    /// Per clause: how many of its literals are not false (counted for processed
    /// literals): a clause is unit at 1 and in conflict at 0, without reading its length.
    open: Vec<u32>,
    trail: Vec<Lit>,
    /// Trail literals whose clauses have been counted.
    head: usize,
    /// The guess assumed so far (one literal a level) and where each level's trail starts.
    assumed: Vec<Lit>,
    level_start: Vec<usize>,
    /// The unit clauses contradict each other: there is no model at all.
    dead: bool,
}

impl Propagator {
    pub fn new<C: AsRef<[Lit]>>(vars: usize, clauses: impl IntoIterator<Item = C>) -> Propagator {
        // Sized for the clauses, and for three literals each (most have two or three).
        let clauses = clauses.into_iter();
        let count = clauses.size_hint().0;
        let (mut lits, mut start) = (Vec::with_capacity(3 * count), Vec::with_capacity(count + 1));
        start.push(0u32);
        for c in clauses {
            lits.extend_from_slice(c.as_ref());
            start.push(lits.len() as u32);
        }
        Propagator::from_flat(vars, lits, start)
    }

    /// [`Propagator::new`] over a formula's clauses, copied whole.
    pub fn of(f: &Formula) -> Propagator {
        let (lits, end) = f.flat();
        let mut start = Vec::with_capacity(end.len() + 1);
        start.push(0u32);
        start.extend_from_slice(end);
        Propagator::from_flat(f.var_count(), lits.to_vec(), start)
    }

    /// Over the clauses `lits[start[c]..start[c + 1]]`.
    fn from_flat(vars: usize, lits: Vec<Lit>, start: Vec<u32>) -> Propagator {
        // `first[code]` counts up to where the literal's list ends; filled from the last
        // clause back, it comes down to where the list starts, each list in clause order.
        let mut first = vec![0u32; 2 * vars + 1];
        for l in &lits {
            first[l.code()] += 1;
        }
        for k in 1..first.len() {
            first[k] += first[k - 1];
        }
        let mut occurs = vec![0u32; lits.len()];
        for (c, w) in start.windows(2).enumerate().rev() {
            for l in lits[w[0] as usize..w[1] as usize].iter().rev() {
                first[l.code()] -= 1;
                occurs[first[l.code()] as usize] = c as u32;
            }
        }
        let n = start.len() - 1;
        let open = start.windows(2).map(|w| w[1] - w[0]).collect();
        let mut p = Propagator {
            lits,
            start,
            occurs,
            first,
            value: vec![0; vars],
            open,
            trail: Vec::with_capacity(vars),
            head: 0,
            assumed: Vec::new(),
            level_start: Vec::new(),
            dead: false,
        };
        p.dead = (0..n).any(|c| match *p.clause(c) {
            [] => true,
            [l] => p.assign(l).is_none(),
            _ => false,
        }) || p.propagate().is_none();
        p
    }

    fn occurrences(&self, l: Lit) -> std::ops::Range<usize> {
        self.first[l.code()] as usize..self.first[l.code() + 1] as usize
    }

    fn clause(&self, c: usize) -> &[Lit] {
        &self.lits[self.start[c] as usize..self.start[c + 1] as usize]
    }

    fn holds(&self, l: Lit) -> i8 {
        holds(&self.value, l)
    }

    /// A model extending `guess`, if propagation and "open means false" give one.
    pub fn model(&mut self, guess: &[Lit]) -> Option<Vec<Lit>> {
        if self.dead {
            return None;
        }
        let shared = self.assumed.iter().zip(guess).take_while(|(a, b)| a == b).count();
        self.backtrack(shared);
        for &l in &guess[shared..] {
            if !self.push(l) {
                return None;
            }
        }
        self.completion()
    }

    /// Whether the unit clauses contradict each other (there is no model at all).
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// The value of `l`: 1 true, -1 false, 0 open.
    pub fn value(&self, l: Lit) -> i8 {
        self.holds(l)
    }

    /// Assumes `l` at a new level and propagates; on a conflict the level is undone and
    /// the answer is `false` (as it always is where there is no model at all).
    pub fn push(&mut self, l: Lit) -> bool {
        if self.dead {
            return false;
        }
        self.level_start.push(self.trail.len());
        self.assumed.push(l);
        if self.assign(l).and_then(|()| self.propagate()).is_none() {
            self.backtrack(self.assumed.len() - 1);
            return false;
        }
        true
    }

    /// Undoes the last level.
    pub fn pop(&mut self) {
        self.backtrack(self.assumed.len().saturating_sub(1));
    }

    /// The current assignment with open variables false, if that is a model.
    pub fn completion(&self) -> Option<Vec<Lit>> {
        self.open_false_holds().then(|| self.assignment())
    }

    /// A model extending the current assignment, found greedily: each open variable in
    /// turn is set false, or true where false conflicts, with propagation after each; a
    /// variable that can take neither value ends the attempt (`None`, nothing concluded).
    /// Variables are numbered as the formula was built, inputs before the gates over
    /// them, so this mostly follows the circuit forward. The assignment is left as it was.
    pub fn complete_greedily(&mut self) -> Option<Vec<Lit>> {
        if let Some(m) = self.completion() {
            return Some(m);
        }
        let levels = self.assumed.len();
        for v in 0..self.value.len() {
            let x = Var::from_index(v);
            if self.value[v] == 0 && !self.push(x.negative()) && !self.push(x.positive()) {
                break;
            }
        }
        let out = self.value.iter().all(|&x| x != 0).then(|| self.assignment());
        self.backtrack(levels);
        out
    }

    fn assignment(&self) -> Vec<Lit> {
        self.value.iter().enumerate().map(|(v, &x)| Var::from_index(v).lit(x > 0)).collect()
    }

    /// Whether setting every open variable false satisfies the clauses: only those where
    /// one occurs positively can lose their last true literal that way.
    fn open_false_holds(&self) -> bool {
        let satisfied =
            |c: usize| self.clause(c).iter().any(|&l| self.holds(l) > 0 || (self.holds(l) == 0 && l.is_negative()));
        open_vars(&self.value).all(|v| self.occurrences(Var::from_index(v).positive()).all(|k| satisfied(self.occurs[k] as usize)))
    }

    /// Undoes the levels from `level` on.
    fn backtrack(&mut self, level: usize) {
        let Some(&to) = self.level_start.get(level) else { return };
        let Propagator { occurs, first, value, open, trail, head, .. } = &mut *self;
        while trail.len() > to {
            let l = trail.pop().expect("above the level's start");
            if trail.len() < *head {
                let code = (!l).code();
                for &c in &occurs[first[code] as usize..first[code + 1] as usize] {
                    open[c as usize] += 1;
                }
            }
            value[l.var().index()] = 0;
        }
        *head = (*head).min(to);
        self.assumed.truncate(level);
        self.level_start.truncate(level);
    }

    fn assign(&mut self, l: Lit) -> Option<()> {
        assign(&mut self.value, &mut self.trail, l)
    }

    /// Unit propagation to a fixpoint; `None` on a conflict. After a conflict the rest of
    /// the literal's clauses are still counted, so that undoing it is exact.
    fn propagate(&mut self) -> Option<()> {
        // The fields apart, so that the occurrence lists are read as slices while the
        // counts and the assignment change.
        let Propagator { lits, start, occurs, first, value, open, trail, head, .. } = &mut *self;
        while *head < trail.len() {
            let code = (!trail[*head]).code();
            *head += 1;
            let mut conflict = false;
            for &c in &occurs[first[code] as usize..first[code + 1] as usize] {
                let c = c as usize;
                open[c] -= 1;
                if conflict || open[c] > 1 {
                    continue;
                }
                let clause = &lits[start[c] as usize..start[c + 1] as usize];
                conflict = match clause.iter().copied().find(|&m| holds(value, m) >= 0) {
                    Some(unit) => assign(value, trail, unit).is_none(),
                    None => true,
                };
            }
            if conflict {
                return None;
            }
        }
        Some(())
    }
}

/// The value of `l` under `value` (per variable: 1 true, -1 false, 0 open).
fn holds(value: &[i8], l: Lit) -> i8 {
    let v = value[l.var().index()];
    if l.is_negative() { -v } else { v }
}

/// Sets `l` true, onto the trail; `None` if it is false.
fn assign(value: &mut [i8], trail: &mut Vec<Lit>, l: Lit) -> Option<()> {
    match holds(value, l) {
        1 => Some(()),
        -1 => None,
        _ => {
            value[l.var().index()] = if l.is_negative() { -1 } else { 1 };
            trail.push(l);
            Some(())
        }
    }
}

/// The same formula with what unit propagation fixes at the start taken out: each fixed
/// variable becomes a unit clause, clauses it satisfies go, and its false literals leave
/// the others. On LKMM tests about a quarter of the cone's variables are fixed this way
/// (asserted checks, constant parts of the model), and varisat would otherwise load and
/// re-derive them on every solver call.
pub fn simplify(cnf: &CnfFormula) -> CnfFormula {
    let p = Propagator::new(cnf.var_count(), cnf.iter());
    let mut out = CnfFormula::new();
    out.set_var_count(cnf.var_count());
    if p.dead {
        out.add_clause(&[]);
        return out;
    }
    for &l in &p.trail {
        out.add_clause(&[l]);
    }
    let mut kept = Vec::new();
    for c in cnf.iter() {
        if c.iter().any(|&l| p.holds(l) > 0) {
            continue;
        }
        kept.clear();
        kept.extend(c.iter().copied().filter(|&l| p.holds(l) == 0));
        out.add_clause(&kept);
    }
    out
}

/// The open variables of `value`, found eight at a time: once the primaries are fixed
/// nearly every variable is assigned, and this scan ran once per execution listed.
fn open_vars(value: &[i8]) -> impl Iterator<Item = usize> + '_ {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let chunks = value.chunks(8).enumerate().filter(|(_, c)| {
        if c.len() < 8 {
            return true;
        }
        let w = u64::from_ne_bytes(std::array::from_fn(|k| c[k] as u8));
        // Some byte of `w` is zero.
        w.wrapping_sub(ONES) & !w & HIGHS != 0
    });
    chunks.flat_map(|(k, c)| c.iter().enumerate().filter(|(_, x)| **x == 0).map(move |(j, _)| 8 * k + j))
}

/// A xorshift generator from `seed`: each call gives a number below its argument. For
/// the tests' random formulas, reproducible without a crate.
#[cfg(test)]
pub(super) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_vars_finds_every_zero_whatever_its_place() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for len in 0..40 {
            let value: Vec<i8> = (0..len).map(|_| [0, 1, -1, 1, -1, 1][next(6) as usize]).collect();
            let want: Vec<usize> = (0..len).filter(|&v| value[v] == 0).collect();
            assert_eq!(open_vars(&value).collect::<Vec<_>>(), want, "{value:?}");
        }
    }

    /// Small random CNFs over `n` variables, from a fixed seed.
    fn formulas(n: usize) -> impl Iterator<Item = Vec<Vec<Lit>>> {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        (0..300).map(move |_| {
            let clauses = 1 + next(3 * n as u64) as usize;
            (0..clauses)
                .map(|_| {
                    let len = 1 + next(3) as usize;
                    (0..len).map(|_| Var::from_index(next(n as u64) as usize).lit(next(2) == 0)).collect()
                })
                .collect()
        })
    }

    fn satisfies(clauses: &[Vec<Lit>], bits: u32) -> bool {
        let holds = |l: Lit| ((bits >> l.var().index()) & 1 == 1) == l.is_positive();
        clauses.iter().all(|c| c.iter().any(|&l| holds(l)))
    }

    fn models(clauses: &[Vec<Lit>], n: usize) -> Vec<u32> {
        (0..1u32 << n).filter(|&b| satisfies(clauses, b)).collect()
    }

    #[test]
    fn simplify_keeps_the_models() {
        let n = 6;
        for f in formulas(n) {
            let mut cnf = CnfFormula::new();
            cnf.set_var_count(n);
            for c in &f {
                cnf.add_clause(c);
            }
            let s: Vec<Vec<Lit>> = simplify(&cnf).iter().map(|c| c.to_vec()).collect();
            assert_eq!(models(&s, n), models(&f, n), "{f:?}");
        }
    }

    /// Whatever order guesses come in, an answer is a model that extends the guess, and
    /// propagation alone finds one wherever it forces every variable.
    #[test]
    fn guesses_give_only_models() {
        let n = 6;
        for f in formulas(n) {
            let mut p = Propagator::new(n, &f);
            for bits in [0u32, 5, 63, 7, 56, 1, 62, 21, 42] {
                let guess: Vec<Lit> = (0..4).map(|v| Var::from_index(v).lit((bits >> v) & 1 == 1)).collect();
                let fresh = Propagator::new(n, &f).model(&guess);
                let got = p.model(&guess);
                assert_eq!(got, fresh, "incremental and from scratch agree");
                if let Some(m) = got {
                    let b = m.iter().filter(|l| l.is_positive()).fold(0u32, |b, l| b | 1 << l.var().index());
                    assert!(satisfies(&f, b) && guess.iter().all(|g| m.contains(g)), "{f:?} {guess:?}");
                }
            }
        }
    }

    #[test]
    fn greedy_completions_are_models_and_leave_the_state_alone() {
        let n = 6;
        let (mut found, mut all) = (0, 0);
        for f in formulas(n) {
            let mut p = Propagator::new(n, &f);
            for bits in [0u32, 3, 5, 6] {
                let a = Var::from_index(0).lit(bits & 1 == 1);
                let b = Var::from_index(1).lit(bits & 2 == 2);
                if !p.push(a) {
                    continue;
                }
                if p.push(b) {
                    let before: Vec<i8> = (0..n).map(|v| p.value(Var::from_index(v).positive())).collect();
                    let m = p.complete_greedily();
                    let after: Vec<i8> = (0..n).map(|v| p.value(Var::from_index(v).positive())).collect();
                    assert_eq!(before, after, "the assignment is restored");
                    let exists = models(&f, n)
                        .iter()
                        .any(|&m| (m & 1 == 1) == a.is_positive() && (m & 2 == 2) == b.is_positive());
                    all += usize::from(exists);
                    if let Some(m) = m {
                        found += 1;
                        let bm = m.iter().filter(|l| l.is_positive()).fold(0u32, |b, l| b | 1 << l.var().index());
                        assert!(satisfies(&f, bm) && m.contains(&a) && m.contains(&b), "{f:?}");
                    }
                    p.pop();
                }
                p.pop();
            }
        }
        // Greedy completion is incomplete, but on these formulas it finds most.
        assert!(found * 10 >= all * 9, "{found} of {all}");
    }
}

