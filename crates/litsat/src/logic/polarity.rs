//! Which direction of each variable's definition the formula relies on.
//!
//! A variable that only occurs negatively in what must hold (the constraints, the
//! definitions of what they read) only has to be true where its definition is: it may
//! be true elsewhere, since that can only make satisfying the rest harder. One that only
//! occurs positively only has to be false where its definition is. This is Plaisted and
//! Greenbaum's observation; here it decides which one-way closure entries must be made
//! exact (see [`super::closure`]).

use super::{B, Logic, NO_OWNER};
use varisat::Lit;

/// The variable must not be true where its definition is false: it occurs positively.
pub const UP: u8 = 1;
/// The variable must be true where its definition is: it occurs negatively.
pub const DOWN: u8 = 2;

/// The clauses the variable owns have been visited.
const OWNED: u8 = 4;

/// The bit a literal's occurrence asks of its variable.
fn bit(l: Lit) -> u8 {
    if l.is_positive() { UP } else { DOWN }
}

/// The clauses each variable owns (other than gate definitions): `owned[start[v]..start[v+1]]`.
pub struct Owned {
    start: Vec<u32>,
    owned: Vec<u32>,
}

impl Owned {
    pub fn of(&self, v: usize) -> &[u32] {
        &self.owned[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

impl Logic {
    pub(super) fn owned_index(&self) -> Owned {
        let n = self.num_vars();
        let mut start = vec![0u32; n + 1];
        for &o in &self.owner {
            if o != NO_OWNER {
                start[o as usize + 1] += 1;
            }
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut owned = vec![0u32; start[n] as usize];
        for (k, &o) in self.owner.iter().enumerate() {
            if o != NO_OWNER {
                owned[fill[o as usize] as usize] = k as u32;
                fill[o as usize] += 1;
            }
        }
        Owned { start, owned }
    }

    /// Per variable, the directions ([`UP`], [`DOWN`]) that the constraints and `roots`
    /// (read both ways) rely on; 0 for a variable nothing live refers to. A variable that
    /// is needed at all needs every clause it owns.
    pub(super) fn needs(&self, roots: &[B], owned: &Owned) -> Vec<u8> {
        let mut need = vec![0u8; self.num_vars()];
        // Each variable is pushed at most twice, once per direction.
        let mut work: Vec<(usize, u8)> = Vec::with_capacity(self.num_vars());
        let add = |v: usize, bits: u8, need: &mut Vec<u8>, work: &mut Vec<(usize, u8)>| {
            let new = bits & !need[v];
            if new != 0 {
                need[v] |= new;
                work.push((v, new));
            }
        };
        for b in roots {
            if let B::L(l) = b {
                add(l.var().index(), UP | DOWN, &mut need, &mut work);
            }
        }
        for (k, c) in self.cnf.iter().enumerate() {
            if self.owner[k] == NO_OWNER {
                for &l in c {
                    add(l.var().index(), bit(l), &mut need, &mut work);
                }
            }
        }
        while let Some((v, new)) = work.pop() {
            // g = ∧ lᵢ: g → lᵢ uses each lᵢ as it is; (∧ lᵢ) → g uses each negated.
            for &l in self.gate_inputs(v) {
                if new & UP != 0 {
                    add(l.var().index(), bit(l), &mut need, &mut work);
                }
                if new & DOWN != 0 {
                    add(l.var().index(), bit(!l), &mut need, &mut work);
                }
            }
            if need[v] & OWNED == 0 {
                need[v] |= OWNED;
                for &k in owned.of(v) {
                    for &l in self.cnf.get(k as usize) {
                        if l.var().index() != v {
                            add(l.var().index(), bit(l), &mut need, &mut work);
                        }
                    }
                }
            }
        }
        need
    }
}
