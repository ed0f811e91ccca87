//! `let` bindings evaluated when first used, and operators that skip an operand once the
//! other makes the result empty.
//!
//! herd evaluates every binding of a model, but the only effect of evaluation here is
//! building gates: a relation nothing reads costs gates and time for nothing. The LKMM
//! defines `rcu-link`, the data-race relations and more for every test, and most tests
//! have no RCU and no plain accesses, so most of those gates were never used.
//! Evaluating on demand gives the same values, once each.

use super::{Bound, Env, Interp, R, V};
use crate::cat::ast::{Expr, Op1, Op2};
use crate::diag::Pos;
use std::cell::OnceCell;
use std::rc::Rc;
use std::sync::Arc;

/// A binding's value, computed the first time its name is read. It lives in the
/// environment's node for the name (see `Env::bind_lazy`): one allocation per binding.
#[derive(Debug)]
pub struct Thunk {
    body: Arc<Expr>,
    env: Env,
    file: Rc<str>,
    value: OnceCell<V>,
}

impl Thunk {
    pub fn new(body: Arc<Expr>, env: Env, file: Rc<str>) -> Thunk {
        Thunk { body, env, file, value: OnceCell::new() }
    }

    /// The value, if already computed.
    fn known(&self) -> Option<&V> {
        self.value.get()
    }
}

/// Whether a value is empty of events (a set or relation with no entry that can hold).
pub fn is_empty(v: &V) -> bool {
    match v {
        V::Empty => true,
        V::Rel(r) => r.is_empty(),
        V::Set(s) => s.0.iter().all(|b| b.is_false()),
        _ => false,
    }
}

impl Interp<'_> {
    /// The value of a bound name, computing it if it is a pending binding.
    pub(super) fn force(&mut self, b: Bound) -> R<V> {
        let t = match b {
            Bound::Val(v) => return Ok(v.clone()),
            Bound::Prim(p) => return Ok(V::Prim(p)),
            Bound::Lazy(t) => t,
        };
        if let Some(done) = t.known() {
            return Ok(done.clone());
        }
        let saved = std::mem::replace(&mut self.file, t.file.clone());
        let r = self.eval(&t.env, &t.body);
        self.file = saved;
        let v = r?;
        // Its own body cannot read it (the name is not in its environment): unset.
        let _ = t.value.set(v.clone());
        Ok(v)
    }

    /// `e`'s value if it is known without evaluating anything: `0`, or a name whose value
    /// is already computed (a built-in, or a binding already read).
    fn known_value(&self, env: &Env, e: &Expr) -> Option<V> {
        match e {
            Expr::Empty => Some(V::Empty),
            Expr::Var(x, _) => match self.lookup(env, *x)? {
                Bound::Lazy(t) => t.known().cloned(),
                Bound::Val(v) => Some(v.clone()),
                Bound::Prim(_) => None,
            },
            _ => None,
        }
    }

    /// `a op b`, leaving out an operand that cannot matter: for `;` and `&` an empty side
    /// makes the result empty, and for `\` an empty left side does. The empty value
    /// returned is the operand's own, so a set stays a set and a relation a relation.
    pub(super) fn op2_lazy(&mut self, env: &Env, op: Op2, a: &Expr, b: &Expr, pos: Pos) -> R<V> {
        // `a & ~b` is `a \ b`, every value being over the events that happen: the
        // complement, all pairs but b's, is never built.
        if op == Op2::Inter {
            match (a, b) {
                (_, Expr::Op1(Op1::Comp, c)) => return self.op2_lazy(env, Op2::Diff, a, c, pos),
                (Expr::Op1(Op1::Comp, c), _) => return self.op2_lazy(env, Op2::Diff, b, c, pos),
                _ => {}
            }
        }
        let absorbing = matches!(op, Op2::Seq | Op2::Inter);
        // A right side already known is taken now, and not looked up again below.
        let known = self.known_value(env, b);
        if absorbing && let Some(vb) = known.as_ref().filter(|v| is_empty(v)) {
            return Ok(vb.clone());
        }
        let va = self.eval(env, a)?;
        if (absorbing || op == Op2::Diff) && is_empty(&va) {
            // Of the left side's type: an empty set stays a set (`~` tells them apart).
            return Ok(va);
        }
        let vb = match known {
            Some(v) => v,
            None => self.eval(env, b)?,
        };
        self.op2(op, va, vb, pos)
    }
}
