//! `let rec` over values, as herd iterates it (`env_rec_vals` and `fix_step` in herd's
//! `lib/interpreter.ml`): every name starts empty; one step evaluates the definitions in
//! order, each seeing the new values of those before it and the old values of the others
//! (and the group's functions closed over the old values); the iteration stops at the first
//! step whose new values are each contained in the old ones, and the names take the new
//! values. For monotone definitions that is the least fixpoint; for others (the LKMM bell's
//! `rcu-rscs`) it is whatever that step gives.
//!
//! Iterates are computed symbolically. Definitions that are syntactically monotone need no
//! stop literals: the iterates grow, so after more steps than the entries any iterate can
//! hold, every execution has reached its fixpoint and the last iterate is it. Otherwise a
//! literal stop_k (step k's values are within step k-1's) is built for every step and the
//! result selects the iterate of the first step that stops; unrolling ends when no
//! execution can still be running (constant-folded, or decided by a solver call).

use super::values::{Shape, same_struct, select, shape, subset};
use super::{Bound, Interp, Prim, R, V, bind_rec_closures};
use crate::cat::ast::{Binding, Expr, Nest, Op1, Op2};
use crate::cat::parse::TUPLE_BINDING;
use crate::diag::Pos;
use crate::logic::B;
use std::collections::HashSet;
use std::rc::Rc;
use varisat::{ExtendFormula, Solver};

/// Steps unrolled at most before a `let rec` that has not stopped is refused.
const MAX_ITERATIONS: usize = 1024;

fn is_fun(b: &Binding) -> bool {
    b.params.is_some() || matches!(*b.body, Expr::Fun(..))
}

/// A recursive group split into its functions and its values.
struct Group<'b> {
    funs: Rc<Vec<Binding>>,
    vals: Vec<&'b Binding>,
    pos: Pos,
}

impl Interp<'_> {
    pub(super) fn let_rec(&mut self, env: &super::Env, bs: &[Binding]) -> R<super::Env> {
        if bs.iter().all(is_fun) {
            return Ok(bind_rec_closures(env, &Rc::new(bs.to_vec()), &self.file));
        }
        let pos = bs[0].pos;
        if bs.iter().any(|b| b.name == TUPLE_BINDING) {
            return self.err(pos, "unsupported: a tuple pattern in `let rec`");
        }
        // `r = a | b | … | r;r` has the least fixpoint `(a | b | …)+`, exactly.
        if let [b] = bs
            && let Some(base) = closure_base(&b.name, &b.body)
        {
            let v = self.eval(env, &base)?;
            let r = self.as_rel(v, b.pos)?;
            let plus = r.plus(self.lg);
            return Ok(env.bind(b.name, V::Rel(Rc::new(plus))));
        }
        let g = Group {
            funs: Rc::new(bs.iter().filter(|b| is_fun(b)).cloned().collect()),
            vals: bs.iter().filter(|b| !is_fun(b)).collect(),
            pos,
        };
        let result = if self.monotone(env, &g) { self.iterate_monotone(env, &g)? } else { self.iterate(env, &g)? };
        Ok(self.bind_group(env, &g, &result))
    }

    /// The environment with the group's values bound to `vals` and its functions closed
    /// over them.
    fn bind_group(&self, env: &super::Env, g: &Group, vals: &[V]) -> super::Env {
        let mut e = env.clone();
        for (b, v) in g.vals.iter().zip(vals) {
            e = e.bind(b.name, v.clone());
        }
        bind_rec_closures(&e, &g.funs, &self.file)
    }

    /// One of herd's steps: the definitions in order, from the values `cur`.
    fn step(&mut self, env: &super::Env, g: &Group, cur: &[V]) -> R<Vec<V>> {
        let mut e = self.bind_group(env, g, cur);
        let mut next = Vec::with_capacity(cur.len());
        for b in &g.vals {
            let v = self.eval(&e, &b.body)?;
            e = e.bind(b.name, v.clone());
            next.push(v);
        }
        Ok(next)
    }

    /// Monotone definitions: X₀ ⊆ X₁ ⊆ …, so an execution whose iteration has not stopped
    /// by step k has at least k entries in X_k. Once k exceeds the entries any iterate
    /// so far can hold, every execution has stopped, and X_k is its fixpoint.
    fn iterate_monotone(&mut self, env: &super::Env, g: &Group) -> R<Vec<V>> {
        let mut cur = vec![V::Empty; g.vals.len()];
        let mut support = HashSet::new();
        let mut countable = true;
        let mut grew_at = 0;
        for k in 1..=MAX_ITERATIONS {
            let next = self.step(env, g, &cur)?;
            let before = support.len();
            countable &= add_support(&next, &mut support);
            if support.len() > before {
                grew_at = k;
            }
            let same = next.iter().zip(&cur).all(|(a, b)| same_struct(a, b));
            if self.defer && !same && !(countable && k > support.len()) && k >= 4 && (k >= grew_at + 2 || k >= 16) {
                // Cut here: where X_k ⊆ X_(k-1), X_k is the fixpoint; the rest of the
                // model holds only there (see `Logic::guard_with`).
                match self.stops(&next, &cur, g.pos)? {
                    B::F => {}
                    B::T => return Ok(next),
                    stop => {
                        self.lg.guard_with(stop);
                        return Ok(next);
                    }
                }
            }
            let done = same
                || (countable && k > support.len())
                || (!self.defer && k >= 4 && k.is_power_of_two() && {
                    let stop = self.stops(&next, &cur, g.pos)?;
                    !self.satisfiable(stop.negate(), g.pos)?
                });
            cur = next;
            if done {
                return Ok(cur);
            }
        }
        self.err(g.pos, format!("`let rec` did not stabilise within {MAX_ITERATIONS} steps"))
    }

    /// Any definitions: the result is the iterate of the first step that stops.
    fn iterate(&mut self, env: &super::Env, g: &Group) -> R<Vec<V>> {
        let mut cur = vec![V::Empty; g.vals.len()];
        let mut support = HashSet::new();
        let mut picks: Vec<(B, Vec<V>)> = Vec::new();
        let mut running = B::T;
        let mut check_at = 0;
        for k in 1..=MAX_ITERATIONS {
            let next = self.step(env, g, &cur)?;
            add_support(&next, &mut support);
            let stop = self.stops(&next, &cur, g.pos)?;
            let first = self.lg.and2(running, stop);
            if !first.is_false() {
                picks.push((first, next.clone()));
            }
            running = self.lg.and2(running, stop.negate());
            cur = next;
            if running.is_false() {
                return self.select_picks(&picks, g.pos);
            }
            if k > support.len() && k >= check_at {
                if !self.satisfiable(running, g.pos)? {
                    self.lg.assert(running.negate());
                    return self.select_picks(&picks, g.pos);
                }
                check_at = 2 * k;
            }
        }
        self.err(g.pos, format!("`let rec` did not stabilise within {MAX_ITERATIONS} steps in some execution"))
    }

    /// stop: every new value is contained in the old one.
    fn stops(&mut self, next: &[V], cur: &[V], pos: Pos) -> R<B> {
        let mut all = Vec::with_capacity(next.len());
        for (a, b) in next.iter().zip(cur) {
            if same_struct(a, b) {
                continue;
            }
            if let Some(s) = static_subset(a, b) {
                all.push(B::from_bool(s));
                continue;
            }
            let (Some(sa), Some(sb)) = (shape(a), shape(b)) else {
                return self.err(pos, "unsupported: `let rec` over values other than event sets and relations");
            };
            match subset(self.lg, &sa, &sb) {
                Some(s) => all.push(s),
                None => {
                    return self.err(pos, "type error: a `let rec` value is a set in one step, a relation in another");
                }
            }
        }
        Ok(self.lg.and(&all))
    }

    fn select_picks(&mut self, picks: &[(B, Vec<V>)], pos: Pos) -> R<Vec<V>> {
        let n = self.n();
        let width = picks.first().map_or(0, |p| p.1.len());
        let mut out = Vec::with_capacity(width);
        for i in 0..width {
            let terms: Vec<(B, &V)> = picks.iter().map(|(b, vs)| (*b, &vs[i])).collect();
            match select(self.lg, n, &terms) {
                Some(v) => out.push(v),
                None => {
                    return self.err(pos, "type error: a `let rec` value is a set in one step, a relation in another");
                }
            }
        }
        Ok(out)
    }

    /// Whether some execution (so far as the CNF built until now constrains them) makes
    /// `b` true.
    pub(super) fn satisfiable(&mut self, b: B, pos: Pos) -> R<bool> {
        let l = match b {
            B::T => return Ok(true),
            B::F => return Ok(false),
            B::L(l) => l,
        };
        if let Some(sat) = self.lg.decided(b) {
            return Ok(sat);
        }
        let mut s = Solver::new();
        let cone = self.lg.pruned(&[b]);
        s.add_formula(&cone.cnf);
        s.add_clause(&[cone.lit(l)]);
        s.solve().or_else(|e| self.err(pos, format!("solver error: {e}")))
    }

    /// Whether every value definition is monotone in the group's names (syntactically).
    fn monotone(&self, env: &super::Env, g: &Group) -> bool {
        let names: HashSet<&str> =
            g.vals.iter().map(|b| b.name.as_str()).chain(g.funs.iter().map(|b| b.name.as_str())).collect();
        g.vals.iter().all(|b| monotone_in(&b.body, &names, env))
    }
}

/// The entries that may hold in some iterate: sets by event, relations by pair. False when
/// some value is neither (a set of tags, …), whose growth this does not count.
fn add_support(vals: &[V], acc: &mut HashSet<(usize, usize, usize)>) -> bool {
    let mut countable = true;
    for (k, v) in vals.iter().enumerate() {
        match shape(v) {
            Some(Shape::Set(s)) => {
                acc.extend(s.0.iter().enumerate().filter(|(_, b)| !b.is_false()).map(|(i, _)| (k, i, usize::MAX)))
            }
            Some(Shape::Rel(r)) => acc.extend(r.keys().map(|(i, j)| (k, i, j))),
            Some(Shape::Empty) => {}
            None => countable = false,
        }
    }
    countable
}

/// `a ⊆ b` for sets of values fixed by the event structure.
fn static_subset(a: &V, b: &V) -> Option<bool> {
    let items = |v: &V| match v {
        V::Coll(xs) if xs.iter().all(|m| m.guard == B::T && is_static(&m.val)) => {
            Some(xs.iter().map(|m| m.val.clone()).collect())
        }
        V::Empty => Some(Vec::new()),
        _ => None,
    };
    let (xs, ys) = (items(a)?, items(b)?);
    if !matches!(a, V::Coll(_)) && !matches!(b, V::Coll(_)) {
        return None;
    }
    Some(xs.iter().all(|x| ys.iter().any(|y| same_struct(x, y))))
}

/// Whether a value is the same in every execution.
fn is_static(v: &V) -> bool {
    let konst = |b: &B| !matches!(b, B::L(_));
    match v {
        V::Set(s) => s.0.iter().all(konst),
        V::Rel(r) => r.values().all(|b| konst(&b)),
        V::Coll(xs) => xs.iter().all(|m| konst(&m.guard) && is_static(&m.val)),
        V::Tuple(xs) => xs.iter().all(is_static),
        _ => true,
    }
}

fn mentions_any(e: &Expr, names: &HashSet<&str>) -> bool {
    names.iter().any(|n| mentions(e, n))
}

/// Whether `e` can only grow when the names' values grow.
fn monotone_in(e: &Expr, names: &HashSet<&str>, env: &super::Env) -> bool {
    if !mentions_any(e, names) {
        return true;
    }
    let m = |x: &Expr| monotone_in(x, names, env);
    match e {
        Expr::Var(..) => true,
        Expr::Op1(Op1::Comp, _) => false,
        Expr::Op1(_, a) | Expr::IdSet(a) => m(a),
        Expr::Op2(Op2::Diff, a, b, _) => m(a) && !mentions_any(b, names),
        Expr::Op2(Op2::Add, ..) => false,
        Expr::Op2(_, a, b, _) => m(a) && m(b),
        Expr::App(f, a, _) => match &**f {
            Expr::Var(x, _) if !names.contains(x.as_str()) => {
                matches!(env.get(*x), Some(Bound::Prim(Prim::Domain | Prim::Range) | Bound::Val(V::Prim(Prim::Domain | Prim::Range)))) && m(a)
            }
            _ => false,
        },
        _ => false,
    }
}

/// For `name = t1 | … | tn` where one term is `name;name` and no other mentions `name`,
/// the union of the other terms.
fn closure_base(name: &str, body: &Expr) -> Option<Expr> {
    fn terms<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match e {
            Expr::Op2(Op2::Union, a, b, _) => {
                terms(a, out);
                terms(b, out);
            }
            e => out.push(e),
        }
    }
    let mut ts = Vec::new();
    terms(body, &mut ts);
    let is_self = |e: &Expr| matches!(e, Expr::Var(x, _) if x == name);
    let (rec, rest): (Vec<&Expr>, Vec<&Expr>) =
        ts.into_iter().partition(|t| matches!(t, Expr::Op2(Op2::Seq, a, b, _) if is_self(a) && is_self(b)));
    if rec.is_empty() || rest.is_empty() || rest.iter().any(|t| mentions(t, name)) {
        return None;
    }
    let mut rest = rest.into_iter().cloned();
    let first = rest.next()?;
    Some(Expr::chain(Op2::Union, first, rest.map(|e| (Pos(0), e)).collect(), Nest::Left))
}

/// Whether `e` refers to `name` anywhere (ignoring shadowing, which only makes this
/// conservative).
fn mentions(e: &Expr, name: &str) -> bool {
    match e {
        Expr::Var(x, _) => x == name,
        Expr::Empty | Expr::Tag(_) | Expr::Str(_) => false,
        Expr::Op1(_, a) | Expr::IdSet(a) => mentions(a, name),
        Expr::Fun(_, a) => mentions(a, name),
        Expr::Op2(_, a, b, _) | Expr::App(a, b, _) | Expr::Try(a, b) => mentions(a, name) || mentions(b, name),
        Expr::SetLit(xs) | Expr::Tuple(xs) => xs.iter().any(|x| mentions(x, name)),
        Expr::Let(_, bs, body) => bs.iter().any(|b| mentions(&b.body, name)) || mentions(body, name),
        Expr::Match(e, arms, _) => mentions(e, name) || arms.iter().any(|a| mentions(&a.body, name)),
        Expr::If(c, a, b) => cond_mentions(c, name) || mentions(a, name) || mentions(b, name),
    }
}

fn cond_mentions(c: &crate::cat::ast::Cond, name: &str) -> bool {
    use crate::cat::ast::Cond;
    match c {
        Cond::Variant(_) => false,
        Cond::Not(c) => cond_mentions(c, name),
        Cond::And(a, b) | Cond::Or(a, b) => cond_mentions(a, name) || cond_mentions(b, name),
        Cond::Eq(a, b) | Cond::Subset(a, b) | Cond::In(a, b) => mentions(a, name) || mentions(b, name),
    }
}
