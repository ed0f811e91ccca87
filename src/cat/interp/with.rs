//! `with x from S`. herd runs the rest of the model once per element of S, and every
//! element that passes is an execution of its own (`WithFrom` in herd's
//! `lib/interpreter.ml`; an empty S fails). Here the choice is a new primary variable per
//! element: exactly one holds, and x is the element it selects. Elements equal in some
//! execution are one element of herd's set there, so an element may be chosen only where
//! it differs from every element before it.
//!
//! `with co from generate_cos(cobase)` (and `generate_orders(W, cobase)`) is native: co is
//! built in, and the model's cobase only constrains it.

use super::values::{Shape, differ, push_distinct, select, shape};
use super::{Env, Interp, R, V};
use crate::cat::ast::Expr;
use crate::diag::Pos;
use crate::logic::B;
use std::rc::Rc;

impl Interp<'_> {
    pub(super) fn with(&mut self, env: Env, x: &str, e: &Expr, pos: Pos) -> R<Env> {
        if let Some(env) = self.with_co(&env, x, e, pos)? {
            return Ok(env);
        }
        let items = match self.eval(&env, e)? {
            V::Coll(xs) => xs,
            // No element: no execution passes.
            V::Empty => {
                self.lg.assert(B::F);
                return Ok(env.bind(x, V::Empty));
            }
            _ => {
                return self.err(pos, "type error: `with x from S` wants a set of values (of relations or event sets)");
            }
        };
        let mut distinct = Vec::new();
        for v in items {
            push_distinct(&mut distinct, v);
        }
        let v = self.choose(&distinct, pos)?;
        Ok(env.bind(x, v))
    }

    /// One of `items`, as a new choice.
    fn choose(&mut self, items: &[V], pos: Pos) -> R<V> {
        if let [v] = items {
            return Ok(v.clone());
        }
        let Some(shapes) = items.iter().map(shape).collect::<Option<Vec<Shape>>>() else {
            return self.err(pos, "unsupported: `with x from S` over values other than relations and event sets");
        };
        // Element k may be chosen where it differs from every element before it.
        let mut allowed = Vec::with_capacity(items.len());
        for k in 0..shapes.len() {
            let mut new = Vec::with_capacity(k);
            for j in 0..k {
                match differ(self.lg, &shapes[k], &shapes[j]) {
                    Some(d) => new.push(d),
                    None => return self.err(pos, "type error: `with x from S` over a mix of relations and event sets"),
                }
            }
            allowed.push(self.lg.and(&new));
        }
        let live: Vec<usize> = (0..items.len()).filter(|&k| !allowed[k].is_false()).collect();
        if let [k] = live[..] {
            return Ok(items[k].clone());
        }
        let mut terms = Vec::with_capacity(live.len());
        let mut sels = Vec::with_capacity(live.len());
        for &k in &live {
            let l = self.lg.fresh();
            self.primaries.push(l);
            self.lg.implies(B::L(l), allowed[k]);
            sels.push(B::L(l));
            terms.push((B::L(l), &items[k]));
        }
        self.lg.exactly_one(&sels);
        let n = self.n();
        match select(self.lg, n, &terms) {
            Some(v) => Ok(v),
            None => self.err(pos, "type error: `with x from S` over a mix of relations and event sets"),
        }
    }

    /// `with co from generate_cos(cobase)`: binds the built-in co, constrained by cobase.
    fn with_co(&mut self, env: &Env, x: &str, e: &Expr, pos: Pos) -> R<Option<Env>> {
        let Expr::App(f, arg, _) = e else { return Ok(None) };
        let Expr::Var(fname, _) = &**f else { return Ok(None) };
        if x != "co" || (fname != "generate_cos" && fname != "generate_orders") {
            return Ok(None);
        }
        let base = self.eval(env, arg)?;
        let base = match base {
            V::Tuple(mut vs) if fname == "generate_orders" && vs.len() == 2 => vs.remove(1),
            v => v,
        };
        let base = self.as_rel(&base, pos)?;
        let restricted = base.inter(&self.ww_loc.clone(), self.lg);
        for (&(i, j), &b) in &restricted.m {
            let c = self.co.get(i, j);
            self.lg.implies(b, c);
        }
        Ok(Some(env.bind("co", V::Rel(Rc::new(self.co.clone())))))
    }
}
