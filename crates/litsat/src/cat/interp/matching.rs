//! `match`, over sets whose members may depend on the execution.
//!
//! herd matches one execution's set: `e ++ rest` takes out its first element. Here a set
//! (of events, of pairs, of values) may hold an element only in some executions, where
//! its literal (a guard) holds: an LF event exists only where a try-lock fails. Such a
//! set is split on its first possible element x (see [`values::split`]): where x is
//! present, the `e ++ rest` arm runs with e = x; elsewhere the match runs again on the
//! set without x. The two results are combined entry by entry ([`values::mux`]): relation
//! and set entries become `ite` gates, members of sets of values get guards. So
//! `map f S` over an LF set is `{ f x | x ∈ S }` in every execution, with f x present
//! where x is, and nothing is enumerated outside the solver.
//!
//! A recursive function over such a set (`map`'s `each rest`) meets the same rest on
//! both sides of every split, so while a split is being evaluated calls are memoised by
//! the function and the argument's structure: without that the work would double with
//! each uncertain element; with it, it grows with their square.

use super::values::{self, Fp, Split, fingerprint};
use super::{Env, Interp, R, V};
use crate::cat::ast::{Arm, ArmPat};
use crate::diag::Pos;
use std::collections::HashMap;
use std::rc::Rc;

/// Memoised calls: the function and argument are kept with the result, so the addresses
/// in the key stay theirs.
#[derive(Default)]
pub(super) struct Calls {
    /// How many splits are being evaluated: calls are memoised while there is one.
    active: usize,
    memo: HashMap<CallKey, (V, V, V)>,
}

/// A call, by the function's code and environment and the argument's structure.
#[derive(Hash, PartialEq, Eq)]
pub(super) struct CallKey {
    code: (usize, usize, usize),
    arg: Fp,
}

impl Interp<'_> {
    pub(super) fn do_match(&mut self, env: &Env, v: V, arms: &[Arm], pos: Pos) -> R<V> {
        match values::split(self.lg, &v) {
            Some(s) => self.match_split(env, s, arms, pos),
            None => self.match_value(env, &v, arms, pos),
        }
    }

    /// A match on a value that is no set: a tag, or anything for `_`.
    fn match_value(&mut self, env: &Env, v: &V, arms: &[Arm], pos: Pos) -> R<V> {
        for arm in arms {
            match (&arm.pat, v) {
                (ArmPat::Wild, _) => return self.eval(env, &arm.body),
                (ArmPat::Tag(t), V::Tag(u)) if t == u => return self.eval(env, &arm.body),
                _ => {}
            }
        }
        self.err(pos, "no `match` arm applies")
    }

    /// A match on a set: where the first element's presence is uncertain, the arms on
    /// each possible first element in turn, the results combined from the last.
    fn match_split(&mut self, env: &Env, s: Split, arms: &[Arm], pos: Pos) -> R<V> {
        match s {
            Split::Empty => self.match_set(env, None, arms, pos),
            Split::First(first, rest) => self.match_set(env, Some((first, rest)), arms, pos),
            Split::Maybe { .. } => {
                self.calls.active += 1;
                let r = self.match_uncertain(env, s, arms, pos);
                self.calls.active -= 1;
                if self.calls.active == 0 {
                    self.calls.memo.clear();
                }
                r
            }
        }
    }

    fn match_uncertain(&mut self, env: &Env, mut s: Split, arms: &[Arm], pos: Pos) -> R<V> {
        // (guard, result where the guarded element is the first present one)
        let mut present = Vec::new();
        let last = loop {
            match s {
                Split::Empty => break self.match_set(env, None, arms, pos)?,
                Split::First(first, rest) => break self.match_set(env, Some((first, rest)), arms, pos)?,
                Split::Maybe { guard, first, rest, absent } => {
                    present.push((guard, self.match_set(env, Some((first, rest)), arms, pos)?));
                    s = values::split(self.lg, &absent).expect("the rest of a set is a set");
                }
            }
        };
        let n = self.n();
        let mut acc = last;
        for (guard, v) in present.into_iter().rev() {
            acc = match values::mux(self.lg, n, guard, &v, &acc) {
                Some(v) => v,
                None => {
                    return self.err(
                        pos,
                        "unsupported: `match` over a set whose members depend on the execution, with arms giving \
                         values that cannot be combined (tags, functions, events)",
                    );
                }
            };
        }
        Ok(acc)
    }

    /// The first arm for a set known to be empty (`None`) or to hold `first` and `rest`.
    fn match_set(&mut self, env: &Env, elems: Option<(V, V)>, arms: &[Arm], pos: Pos) -> R<V> {
        for arm in arms {
            match (&arm.pat, &elems) {
                (ArmPat::Wild, _) | (ArmPat::EmptySet, None) => return self.eval(env, &arm.body),
                (ArmPat::Cons(x, rest), Some((first, others))) => {
                    let env2 = env.bind(*x, first.clone()).bind(*rest, others.clone());
                    return self.eval(&env2, &arm.body);
                }
                _ => {}
            }
        }
        self.err(pos, "no `match` arm applies")
    }

    /// `f a` for a closure, memoised while a split is being evaluated.
    pub(super) fn apply_closure(&mut self, c: Rc<super::Closure>, a: V, pos: Pos) -> R<V> {
        // Accumulating calls (a tuple argument, as in `cross`) differ on the two sides of
        // a split anyway, and their arguments can be large: not memoised.
        if self.calls.active == 0 || matches!(a, V::Tuple(_)) {
            return self.call(&c, a, pos);
        }
        let key = CallKey { code: code_id(&c), arg: fingerprint(&a) };
        if let Some((_, _, r)) = self.calls.memo.get(&key) {
            return Ok(r.clone());
        }
        let r = self.call(&c, a.clone(), pos)?;
        self.calls.memo.insert(key, (V::Func(c), a, r.clone()));
        Ok(r)
    }
}

/// What determines a closure's calls: the closure itself, or for a member of a `let rec`
/// group (rebuilt on every call) the group, its place in it and the environment.
fn code_id(c: &Rc<super::Closure>) -> (usize, usize, usize) {
    match &c.recs {
        Some(recs) => (Rc::as_ptr(recs) as *const u8 as usize, c.rec_index, c.env.addr()),
        None => (Rc::as_ptr(c) as *const u8 as usize, 0, 0),
    }
}
