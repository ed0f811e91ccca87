//! Values as herd's interpreter sees them: elements of event sets and relations, sets of
//! values with herd's duplicate-free membership, and comparisons between symbolic values
//! (inclusion and difference as literals).

use super::{Interp, R, V};
use crate::diag::Pos;
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};
use std::rc::Rc;

pub(super) fn singleton_set(n: usize, e: usize) -> Set {
    let mut s = Set::empty(n);
    s.0[e] = B::T;
    s
}

/// Whether two values are equal in every execution, by their structure: the same
/// literals in the same places (constants included).
pub(super) fn same_struct(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::Rel(x), V::Rel(y)) => x == y,
        (V::Set(x), V::Set(y)) => x == y,
        (V::Empty, V::Empty) => true,
        (V::Empty, V::Rel(r)) | (V::Rel(r), V::Empty) => r.m.is_empty(),
        (V::Empty, V::Set(s)) | (V::Set(s), V::Empty) => s.0.iter().all(|b| b.is_false()),
        (V::Empty, V::Coll(xs)) | (V::Coll(xs), V::Empty) => xs.is_empty(),
        (V::Tag(x), V::Tag(y)) | (V::Str(x), V::Str(y)) => x == y,
        (V::Event(x), V::Event(y)) => x == y,
        (V::Pair(a, b), V::Pair(c, d)) => (a, b) == (c, d),
        (V::Tuple(xs), V::Tuple(ys)) => xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_struct(x, y)),
        (V::Coll(xs), V::Coll(ys)) => xs.len() == ys.len() && xs.iter().all(|x| ys.iter().any(|y| same_struct(x, y))),
        _ => false,
    }
}

/// Adds `v` to a set of values unless it is (structurally) there already: herd's sets of
/// values hold each value once. Values that are equal only in some executions stay apart;
/// `with` tells them apart symbolically.
pub(super) fn push_distinct(xs: &mut Vec<V>, v: V) {
    if !xs.iter().any(|x| same_struct(x, &v)) {
        xs.push(v);
    }
}

/// `|`, `&` and `\` on sets of values (one side may be the empty `{}`); `None` for other
/// operands. Membership is structural, so these are exact on values fixed by the event
/// structure.
pub(super) fn coll_op(op: crate::cat::ast::Op2, a: &V, b: &V) -> Option<V> {
    use crate::cat::ast::Op2;
    let items = |v: &V| match v {
        V::Coll(xs) => Some(xs.clone()),
        V::Empty => Some(Vec::new()),
        _ => None,
    };
    if !matches!(op, Op2::Union | Op2::Inter | Op2::Diff) || (!matches!(a, V::Coll(_)) && !matches!(b, V::Coll(_))) {
        return None;
    }
    let (xs, ys) = (items(a)?, items(b)?);
    let mut out = Vec::new();
    for x in &xs {
        let in_y = ys.iter().any(|y| same_struct(x, y));
        let keep = match op {
            Op2::Union => true,
            Op2::Inter => in_y,
            _ => !in_y,
        };
        if keep {
            push_distinct(&mut out, x.clone());
        }
    }
    if op == Op2::Union {
        for y in ys {
            push_distinct(&mut out, y);
        }
    }
    Some(if out.is_empty() { V::Empty } else { V::Coll(out) })
}

/// The first element of an event set or relation whose membership is fixed, and the rest:
/// what `match S with || e ++ rest -> …` binds. `None` when membership depends on the
/// execution; `Some(None)` for the empty set.
pub(super) fn split_first(v: &V) -> Option<Option<(V, V)>> {
    match v {
        V::Set(s) => {
            if s.0.iter().any(|b| matches!(b, B::L(_))) {
                return None;
            }
            let Some(e) = s.0.iter().position(|&b| b == B::T) else { return Some(None) };
            let mut rest = (**s).clone();
            rest.0[e] = B::F;
            Some(Some((V::Event(e), V::Set(Rc::new(rest)))))
        }
        V::Rel(r) => {
            if r.m.values().any(|b| matches!(b, B::L(_))) {
                return None;
            }
            let Some((&(i, j), _)) = r.m.iter().next() else { return Some(None) };
            let mut rest = (**r).clone();
            rest.set(i, j, B::F);
            Some(Some((V::Pair(i, j), V::Rel(Rc::new(rest)))))
        }
        _ => None,
    }
}

/// A value seen as a set or a relation, for comparisons; `Empty` fits either.
pub(super) enum Shape<'v> {
    Empty,
    Set(&'v Set),
    Rel(&'v Rel),
}

pub(super) fn shape(v: &V) -> Option<Shape<'_>> {
    match v {
        V::Empty => Some(Shape::Empty),
        V::Set(s) => Some(Shape::Set(s)),
        V::Rel(r) => Some(Shape::Rel(r)),
        _ => None,
    }
}

/// `a ⊆ b` as a literal (`None` when one is a set and the other a relation).
pub(super) fn subset(lg: &mut Logic, a: &Shape, b: &Shape) -> Option<B> {
    let gates: Vec<B> = match (a, b) {
        (Shape::Empty, _) => return Some(B::T),
        (Shape::Set(x), Shape::Empty) => x.0.iter().map(|b| b.negate()).collect(),
        (Shape::Rel(x), Shape::Empty) => x.m.values().map(|b| b.negate()).collect(),
        (Shape::Set(x), Shape::Set(y)) => x.0.iter().zip(&y.0).map(|(&p, &q)| lg.or2(p.negate(), q)).collect(),
        (Shape::Rel(x), Shape::Rel(y)) => x.m.iter().map(|(&(i, j), &p)| lg.or2(p.negate(), y.get(i, j))).collect(),
        _ => return None,
    };
    Some(lg.and(&gates))
}

/// `a ≠ b` as a literal (`None` when one is a set and the other a relation).
pub(super) fn differ(lg: &mut Logic, a: &Shape, b: &Shape) -> Option<B> {
    let (s, t) = (subset(lg, a, b)?, subset(lg, b, a)?);
    Some(lg.and2(s, t).negate())
}

/// The value `terms` select: the one whose literal holds (the literals are exclusive).
pub(super) fn select(lg: &mut Logic, n: usize, terms: &[(B, &V)]) -> Option<V> {
    let live: Vec<&(B, &V)> = terms.iter().filter(|(b, _)| !b.is_false()).collect();
    if let Some((_, v)) = live.first()
        && live.iter().all(|(_, w)| same_struct(v, w))
    {
        return Some((*v).clone());
    }
    let shapes: Vec<(B, Shape)> = live.iter().map(|(b, v)| shape(v).map(|s| (*b, s))).collect::<Option<_>>()?;
    let is_set = shapes.iter().any(|(_, s)| matches!(s, Shape::Set(_)));
    let is_rel = shapes.iter().any(|(_, s)| matches!(s, Shape::Rel(_)));
    match (is_set, is_rel) {
        (true, true) => None,
        (true, false) => {
            let mut out = vec![Vec::new(); n];
            for (b, s) in &shapes {
                if let Shape::Set(s) = s {
                    for (i, &x) in s.0.iter().enumerate() {
                        out[i].push(lg.and2(*b, x));
                    }
                }
            }
            Some(V::Set(Rc::new(Set(out.iter().map(|bs| lg.or(bs)).collect()))))
        }
        _ => {
            let mut acc: std::collections::BTreeMap<(usize, usize), Vec<B>> = Default::default();
            for (b, s) in &shapes {
                if let Shape::Rel(r) = s {
                    for (&k, &x) in &r.m {
                        acc.entry(k).or_default().push(lg.and2(*b, x));
                    }
                }
            }
            let mut r = Rel::empty(n);
            for (k, bs) in acc {
                let b = lg.or(&bs);
                r.set(k.0, k.1, b);
            }
            Some(V::Rel(Rc::new(r)))
        }
    }
}

impl Interp<'_> {
    /// `{a, b, …}`: an event set when the elements are events, a relation when they are
    /// pairs, otherwise a set of values.
    pub(super) fn set_literal(&mut self, vs: Vec<V>, pos: Pos) -> R<V> {
        if vs.is_empty() {
            return Ok(V::Empty);
        }
        let n = self.n();
        if vs.iter().all(|v| matches!(v, V::Event(_))) {
            let mut s = Set::empty(n);
            for v in &vs {
                if let V::Event(e) = v {
                    s.0[*e] = B::T;
                }
            }
            return Ok(V::Set(Rc::new(s)));
        }
        if vs.iter().all(|v| matches!(v, V::Pair(..))) {
            let pairs = vs.iter().filter_map(|v| if let V::Pair(i, j) = v { Some((*i, *j)) } else { None });
            return Ok(V::Rel(Rc::new(Rel::from_pairs(n, pairs))));
        }
        if vs.iter().any(|v| matches!(v, V::Event(_) | V::Pair(..))) {
            return self.err(pos, "type error: a set mixing events with other values");
        }
        let mut out = Vec::new();
        for v in vs {
            push_distinct(&mut out, v);
        }
        Ok(V::Coll(out))
    }

    /// `a ++ b`: adds an element to a set of values, an event to an event set, a pair to a
    /// relation.
    pub(super) fn add_element(&mut self, a: V, b: V, pos: Pos) -> R<V> {
        let n = self.n();
        match (a, b) {
            (V::Event(e), V::Empty) => Ok(V::Set(Rc::new(singleton_set(n, e)))),
            (V::Event(e), V::Set(s)) => {
                let mut s = (*s).clone();
                s.0[e] = B::T;
                Ok(V::Set(Rc::new(s)))
            }
            (V::Pair(i, j), V::Empty) => Ok(V::Rel(Rc::new(Rel::from_pairs(n, [(i, j)])))),
            (V::Pair(i, j), V::Rel(r)) => {
                let mut r = (*r).clone();
                r.set(i, j, B::T);
                Ok(V::Rel(Rc::new(r)))
            }
            (V::Tuple(ts), V::Rel(r)) if matches!(ts[..], [V::Event(_), V::Event(_)]) => {
                let (V::Event(i), V::Event(j)) = (&ts[0], &ts[1]) else { unreachable!("matched above") };
                let mut r = (*r).clone();
                r.set(*i, *j, B::T);
                Ok(V::Rel(Rc::new(r)))
            }
            (a, V::Coll(mut xs)) => {
                if !xs.iter().any(|x| same_struct(x, &a)) {
                    xs.insert(0, a);
                }
                Ok(V::Coll(xs))
            }
            (a, V::Empty) => Ok(V::Coll(vec![a])),
            (_, V::Set(_)) => self.err(pos, "type error: `++` adds an event to an event set"),
            (_, V::Rel(_)) => self.err(pos, "type error: `++` adds a pair to a relation"),
            _ => self.err(pos, "type error: `++` adds an element to a set"),
        }
    }

    /// herd's `different-values(r)`: the pairs of r whose two events' values differ.
    pub(super) fn different_values(&mut self, r: &Rel) -> Rel {
        let mut out = Rel::empty(r.n);
        for (&(i, j), &b) in &r.m {
            let same = self.same_value(i, j);
            let g = self.lg.and2(b, same.negate());
            out.set(i, j, g);
        }
        out
    }

    fn same_value(&mut self, i: usize, j: usize) -> B {
        let key = (i.min(j), i.max(j));
        if let Some(&b) = self.same_vals.get(&key) {
            return b;
        }
        let mut any = Vec::new();
        for &(x, bx) in &self.vals[i] {
            for &(y, by) in &self.vals[j] {
                if x == y {
                    any.push(self.lg.and2(bx, by));
                }
            }
        }
        let b = self.lg.or(&any);
        self.same_vals.insert(key, b);
        b
    }
}
