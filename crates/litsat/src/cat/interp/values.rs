//! Values as herd's interpreter sees them: elements of event sets and relations, sets of
//! values with herd's duplicate-free membership, and comparisons between symbolic values
//! (inclusion, equality and difference as literals).
//!
//! A set of values ([`V::Coll`]) is a list of [`Member`]s, each present in the executions
//! where its guard holds: in one execution the set is `{ m.val | m.guard }`. Guards arise
//! where a set is built from events that happen only in some executions (`map f LF` with
//! LF a failed try-lock); a set built from the event structure alone has only `T` guards.
//! Two members may denote the same value in some execution; herd's set then holds it once,
//! so whatever counts or takes members apart (`match`, `with`, `&`, `\`) compares them
//! with [`equal`] literals.

use super::{Interp, R, V};
use crate::cat::Name;
use crate::diag::Pos;
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};
use std::collections::HashMap;
use std::rc::Rc;

/// A member of a set of values, present where `guard` holds (never `B::F`). A value may
/// be listed more than once: it is then present where any of its guards holds.
#[derive(Clone, Debug)]
pub struct Member {
    pub guard: B,
    pub val: V,
}

impl Member {
    /// A member present in every execution.
    pub fn always(val: V) -> Member {
        Member { guard: B::T, val }
    }
}

pub(super) fn singleton_set(n: usize, e: usize) -> Set {
    let mut s = Set::empty(n);
    s.0[e] = B::T;
    s
}

/// Whether two values are equal in every execution, by their structure: the same
/// literals in the same places (constants included).
pub(super) fn same_struct(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::Rel(x), V::Rel(y)) => Rc::ptr_eq(x, y) || x == y,
        (V::Set(x), V::Set(y)) => Rc::ptr_eq(x, y) || x == y,
        (V::Empty, V::Empty) => true,
        (V::Empty, V::Rel(r)) | (V::Rel(r), V::Empty) => r.is_empty(),
        (V::Empty, V::Set(s)) | (V::Set(s), V::Empty) => s.0.iter().all(|b| b.is_false()),
        (V::Empty, V::Coll(xs)) | (V::Coll(xs), V::Empty) => xs.is_empty(),
        (V::Tag(x), V::Tag(y)) => x == y,
        (V::Str(x), V::Str(y)) => x == y,
        (V::Event(x), V::Event(y)) => x == y,
        (V::Pair(a, b), V::Pair(c, d)) => (a, b) == (c, d),
        (V::Tuple(xs), V::Tuple(ys)) => xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_struct(x, y)),
        (V::Coll(xs), V::Coll(ys)) => {
            xs.len() == ys.len()
                && xs.iter().all(|x| ys.iter().any(|y| x.guard == y.guard && same_struct(&x.val, &y.val)))
        }
        (V::Func(f), V::Func(g)) => Rc::ptr_eq(f, g),
        _ => false,
    }
}

/// Adds a member to a set of values, merging it with a structurally equal one (present
/// where either is). `front` puts a new member first, as `++` does.
pub(super) fn insert(lg: &mut Logic, xs: &mut Vec<Member>, m: Member, front: bool) {
    if m.guard.is_false() {
        return;
    }
    match xs.iter_mut().find(|x| same_struct(&x.val, &m.val)) {
        Some(x) => x.guard = lg.or2(x.guard, m.guard),
        None if front => xs.insert(0, m),
        None => xs.push(m),
    }
}

/// A set of values from its members: `{}` when there are none.
pub(super) fn coll(xs: Vec<Member>) -> V {
    if xs.is_empty() { V::Empty } else { V::Coll(xs) }
}

/// The members of a set of values (`{}` has none); `None` for other values.
pub(super) fn members(v: &V) -> Option<&[Member]> {
    match v {
        V::Coll(xs) => Some(xs),
        V::Empty => Some(&[]),
        _ => None,
    }
}

/// "`a` and `b` are the same value" as a literal: exact for event sets, relations, sets
/// of values (guards included) and tuples of them; constants elsewhere (tags, events,
/// pairs, functions by identity; values of different kinds differ).
pub(super) fn equal(lg: &mut Logic, a: &V, b: &V) -> B {
    if same_struct(a, b) {
        return B::T;
    }
    if let (Some(x), Some(y)) = (shape(a), shape(b)) {
        return equal_shapes(lg, &x, &y).unwrap_or(B::F);
    }
    match (a, b) {
        (V::Tuple(xs), V::Tuple(ys)) if xs.len() == ys.len() => {
            let eqs: Vec<B> = xs.iter().zip(ys).map(|(x, y)| equal(lg, x, y)).collect();
            lg.and(&eqs)
        }
        _ => match (members(a), members(b)) {
            (Some(xs), Some(ys)) => {
                let s = coll_subset(lg, xs, ys);
                let t = coll_subset(lg, ys, xs);
                lg.and2(s, t)
            }
            _ => B::F,
        },
    }
}

/// "`x` is a member of `ys`" as a literal.
pub(super) fn member_of(lg: &mut Logic, x: &V, ys: &[Member]) -> B {
    let mut any = Vec::with_capacity(ys.len());
    for y in ys {
        let e = equal(lg, x, &y.val);
        any.push(lg.and2(y.guard, e));
    }
    lg.or(&any)
}

/// "Every member of `xs` is one of `ys`" as a literal.
fn coll_subset(lg: &mut Logic, xs: &[Member], ys: &[Member]) -> B {
    let mut all = Vec::with_capacity(xs.len());
    for x in xs {
        let m = member_of(lg, &x.val, ys);
        all.push(lg.or2(x.guard.negate(), m));
    }
    lg.and(&all)
}

/// A value's structure, as a hashable key: equal fingerprints mean structurally equal
/// values (functions by identity).
#[derive(Hash, PartialEq, Eq)]
pub(super) enum Fp {
    Empty,
    Set(Vec<B>),
    Rel(Vec<((usize, usize), B)>),
    Tag(Name),
    Str(String),
    Tuple(Vec<Fp>),
    Coll(Vec<(B, Fp)>),
    Event(usize),
    Pair(usize, usize),
    Func(usize),
    Prim(super::Prim),
}

pub(super) fn fingerprint(v: &V) -> Fp {
    match v {
        V::Empty => Fp::Empty,
        V::Set(s) => Fp::Set(s.0.clone()),
        V::Rel(r) => Fp::Rel(r.iter().collect()),
        V::Tag(t) => Fp::Tag(*t),
        V::Str(s) => Fp::Str(s.clone()),
        V::Tuple(xs) => Fp::Tuple(xs.iter().map(fingerprint).collect()),
        V::Coll(xs) => Fp::Coll(xs.iter().map(|m| (m.guard, fingerprint(&m.val))).collect()),
        V::Event(e) => Fp::Event(*e),
        V::Pair(i, j) => Fp::Pair(*i, *j),
        V::Func(c) => Fp::Func(Rc::as_ptr(c) as usize),
        V::Prim(p) => Fp::Prim(*p),
    }
}

/// `|`, `&` and `\` on sets of values (one side may be the empty `{}`); `None` for other
/// operands. Exact where members depend on the execution: a member of `a` is in `a & b`
/// where it is present and equal to a present member of `b`.
pub(super) fn coll_op(lg: &mut Logic, op: crate::cat::ast::Op2, a: &V, b: &V) -> Option<V> {
    use crate::cat::ast::Op2;
    if !matches!(op, Op2::Union | Op2::Inter | Op2::Diff) || (!matches!(a, V::Coll(_)) && !matches!(b, V::Coll(_))) {
        return None;
    }
    let (xs, ys) = (members(a)?, members(b)?);
    let mut out = Vec::new();
    for x in xs {
        let guard = match op {
            Op2::Union => x.guard,
            _ => {
                let inside = member_of(lg, &x.val, ys);
                let keep = if op == Op2::Inter { inside } else { inside.negate() };
                lg.and2(x.guard, keep)
            }
        };
        insert(lg, &mut out, Member { guard, val: x.val.clone() }, false);
    }
    if op == Op2::Union {
        for y in ys {
            insert(lg, &mut out, y.clone(), false);
        }
    }
    Some(coll(out))
}

/// How `match S with || {} -> … || e ++ rest -> …` sees a set (of events, of pairs, of
/// values). herd matches one execution's set, taking out its first element; here the
/// first element that may be present is taken out, and where its presence depends on
/// the execution both cases are kept.
pub(super) enum Split {
    /// S is empty in every execution.
    Empty,
    /// S holds `first` in every execution; `rest` is S without it.
    First(V, V),
    /// S holds `first` where `guard` does, and `rest` is then S without it (members equal
    /// to `first` included); elsewhere S is `absent`.
    Maybe { guard: B, first: V, rest: V, absent: V },
}

/// The [`Split`] of a set-like value; `None` for other values (tags, …).
pub(super) fn split(lg: &mut Logic, v: &V) -> Option<Split> {
    match v {
        V::Empty => Some(Split::Empty),
        V::Set(s) => {
            let Some(e) = s.0.iter().position(|b| !b.is_false()) else { return Some(Split::Empty) };
            let mut rest = (**s).clone();
            rest.0[e] = B::F;
            Some(split_at(s.0[e], V::Event(e), V::Set(Rc::new(rest))))
        }
        V::Rel(r) => {
            let Some(((i, j), guard)) = r.iter().next() else { return Some(Split::Empty) };
            let mut rest = (**r).clone();
            rest.set(i, j, B::F);
            Some(split_at(guard, V::Pair(i, j), V::Rel(Rc::new(rest))))
        }
        V::Coll(xs) => {
            let Some((first, others)) = xs.split_first() else { return Some(Split::Empty) };
            let mut rest = Vec::with_capacity(others.len());
            for m in others {
                let same = equal(lg, &first.val, &m.val);
                let guard = lg.and2(m.guard, same.negate());
                insert(lg, &mut rest, Member { guard, val: m.val.clone() }, false);
            }
            if first.guard == B::T {
                return Some(Split::First(first.val.clone(), coll(rest)));
            }
            let absent = coll(others.to_vec());
            Some(Split::Maybe { guard: first.guard, first: first.val.clone(), rest: coll(rest), absent })
        }
        _ => None,
    }
}

/// The split of an event set or relation whose first possible element is present where
/// `guard` holds: taking it out leaves the same rest either way.
fn split_at(guard: B, first: V, rest: V) -> Split {
    if guard == B::T { Split::First(first, rest) } else { Split::Maybe { guard, first, absent: rest.clone(), rest } }
}

/// `if c then x else y` on literals.
pub(super) fn ite(lg: &mut Logic, c: B, x: B, y: B) -> B {
    if x == y {
        return x;
    }
    let a = lg.and2(c, x);
    let b = lg.and2(c.negate(), y);
    lg.or2(a, b)
}

/// The value that is `t` where `c` holds and `e` elsewhere, entry by entry (members by
/// their guards, tuples by component); `None` when the two cannot be combined (a set
/// and a relation, two different tags, …).
pub(super) fn mux(lg: &mut Logic, n: usize, c: B, t: &V, e: &V) -> Option<V> {
    match c {
        B::T => return Some(t.clone()),
        B::F => return Some(e.clone()),
        B::L(_) => {}
    }
    if same_struct(t, e) {
        return Some(t.clone());
    }
    if let (V::Tuple(xs), V::Tuple(ys)) = (t, e) {
        if xs.len() != ys.len() {
            return None;
        }
        let parts = xs.iter().zip(ys).map(|(x, y)| mux(lg, n, c, x, y)).collect::<Option<Vec<V>>>()?;
        return Some(V::Tuple(parts));
    }
    if matches!(t, V::Coll(_)) || matches!(e, V::Coll(_)) {
        return mux_colls(lg, c, members(t)?, members(e)?);
    }
    match (shape(t)?, shape(e)?) {
        (Shape::Rel(_), Shape::Set(_)) | (Shape::Set(_), Shape::Rel(_)) => None,
        (Shape::Set(_), _) | (_, Shape::Set(_)) => {
            let set = |v: &V| match v {
                V::Set(s) => s.0.clone(),
                _ => vec![B::F; n],
            };
            let (xs, ys) = (set(t), set(e));
            Some(V::Set(Rc::new(Set(xs.iter().zip(&ys).map(|(&x, &y)| ite(lg, c, x, y)).collect()))))
        }
        _ => {
            let empty = Rel::empty(n);
            let rel = |v: &V| -> Rel {
                match v {
                    V::Rel(r) => (**r).clone(),
                    _ => empty.clone(),
                }
            };
            let (x, y) = (rel(t), rel(e));
            let mut out = Rel::empty(n);
            for k in x.keys().chain(y.keys()) {
                let b = ite(lg, c, x.get(k.0, k.1), y.get(k.0, k.1));
                out.set(k.0, k.1, b);
            }
            Some(V::Rel(Rc::new(out)))
        }
    }
}

/// [`mux`] of two sets of values: each member is present where the chosen side has it.
/// The two sides often share their last members, with the same guards (an accumulator
/// both were built on, as in `cross`): those are kept as they are, last. The others are
/// paired by their fingerprints (structurally equal values), so combining two large sets
/// stays linear.
fn mux_colls(lg: &mut Logic, c: B, xs: &[Member], ys: &[Member]) -> Option<V> {
    let same = |x: &Member, y: &Member| x.guard == y.guard && same_struct(&x.val, &y.val);
    let common = xs.iter().rev().zip(ys.iter().rev()).take_while(|(x, y)| same(x, y)).count();
    let (xs, shared) = xs.split_at(xs.len() - common);
    let ys = &ys[..ys.len() - common];
    let mut at: HashMap<Fp, usize> = HashMap::with_capacity(ys.len());
    for (k, y) in ys.iter().enumerate() {
        at.entry(fingerprint(&y.val)).or_insert(k);
    }
    let mut paired = vec![false; ys.len()];
    let mut out = Vec::with_capacity(xs.len() + ys.len() + shared.len());
    for x in xs {
        let other = match at.get(&fingerprint(&x.val)) {
            Some(&k) => {
                paired[k] = true;
                ys[k].guard
            }
            None => B::F,
        };
        let guard = ite(lg, c, x.guard, other);
        if !guard.is_false() {
            out.push(Member { guard, val: x.val.clone() });
        }
    }
    for (y, _) in ys.iter().zip(&paired).filter(|(_, p)| !**p) {
        let guard = lg.and2(c.negate(), y.guard);
        if !guard.is_false() {
            out.push(Member { guard, val: y.val.clone() });
        }
    }
    out.extend_from_slice(shared);
    Some(coll(out))
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
        (Shape::Rel(x), Shape::Empty) => x.values().map(B::negate).collect(),
        (Shape::Set(x), Shape::Set(y)) => x.0.iter().zip(&y.0).map(|(&p, &q)| lg.or2(p.negate(), q)).collect(),
        (Shape::Rel(x), Shape::Rel(y)) => x.iter().map(|((i, j), p)| lg.or2(p.negate(), y.get(i, j))).collect(),
        _ => return None,
    };
    Some(lg.and(&gates))
}

/// `a = b` as a literal (`None` when one is a set and the other a relation).
pub(super) fn equal_shapes(lg: &mut Logic, a: &Shape, b: &Shape) -> Option<B> {
    let (s, t) = (subset(lg, a, b)?, subset(lg, b, a)?);
    Some(lg.and2(s, t))
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
                    for (k, x) in r.iter() {
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
            insert(self.lg, &mut out, Member::always(v), false);
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
                insert(self.lg, &mut xs, Member::always(a), true);
                Ok(V::Coll(xs))
            }
            (a, V::Empty) => Ok(V::Coll(vec![Member::always(a)])),
            (_, V::Set(_)) => self.err(pos, "type error: `++` adds an event to an event set"),
            (_, V::Rel(_)) => self.err(pos, "type error: `++` adds a pair to a relation"),
            _ => self.err(pos, "type error: `++` adds an element to a set"),
        }
    }

    /// herd's `different-values(r)`: the pairs of r whose two events' values differ.
    pub(super) fn different_values(&mut self, r: &Rel) -> Rel {
        let mut out = Rel::empty(r.n);
        for ((i, j), b) in r.iter() {
            let same = self.same_value(i, j);
            let g = self.lg.and2(b, same.negate());
            out.set(i, j, g);
        }
        out
    }

    /// herd's `same-oa(r)` (`same_oa`) or `at-least-one-writable(r)` (not): the pairs
    /// of r whose events' values are page-table entries mapping one page, or of which one
    /// is writable (without hardware management of the flags).
    pub(super) fn entry_pairs(&mut self, r: &Rel, same_oa: bool) -> Rel {
        use crate::events::{PteVal, Value};
        let mut out = Rel::empty(r.n);
        for ((i, j), b) in r.iter() {
            let ptes = |k: usize| -> Vec<(PteVal, B)> {
                self.vals[k].iter().filter_map(|&(v, b)| if let Value::Pte(p) = v { Some((p, b)) } else { None }).collect()
            };
            let (pi, pj) = (ptes(i), ptes(j));
            let mut any = Vec::new();
            if same_oa {
                for &(x, bx) in &pi {
                    for &(_, by) in pj.iter().filter(|(y, _)| y.oa == x.oa) {
                        any.push(self.lg.and2(bx, by));
                    }
                }
            } else {
                any.extend(pi.iter().chain(&pj).filter(|(p, _)| p.writable()).map(|p| p.1));
            }
            let holds = self.lg.or(&any);
            let g = self.lg.and2(b, holds);
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

/// `a op b` without computing it, where one side is empty and both are of one kind (two
/// event sets, or two relations): for `|` the other side, for `\` the left side, for `&`
/// and `;` the empty side. Each is the value the operation builds (no gate is made for an
/// empty side), without copying the other side's entries.
pub(super) fn with_empty(op: crate::cat::ast::Op2, a: &V, b: &V) -> Option<V> {
    use crate::cat::ast::Op2;
    // `;` is on relations only: on sets it is left to report its type error.
    let same_kind = match (a, b) {
        (V::Set(_), V::Set(_)) => op != Op2::Seq,
        (V::Rel(_), V::Rel(_)) => true,
        _ => false,
    };
    if !same_kind {
        return None;
    }
    let (ea, eb) = (super::lazy::is_empty(a), super::lazy::is_empty(b));
    match op {
        Op2::Union if ea => Some(b.clone()),
        Op2::Union | Op2::Diff if eb => Some(a.clone()),
        Op2::Diff | Op2::Inter | Op2::Seq if ea => Some(a.clone()),
        Op2::Inter | Op2::Seq if eb => Some(b.clone()),
        _ => None,
    }
}
