//! `with x from S`. herd runs the rest of the model once per element of S, and every
//! element that passes is an execution of its own (`WithFrom` in herd's
//! `lib/interpreter.ml`; an empty S fails). Here x is a new value: an event set or
//! relation whose entries, where S's members differ, are new primary variables, and x
//! must equal a present member of S (its guard holds: S may be built from events that
//! happen only in some executions). Each value of herd's set is then one assignment of
//! those variables, however many members denote it; where S has no present member, no
//! assignment fits and the execution does not pass, as herd rejects it.
//!
//! herd's order generators (`generate_cos`, `generate_orders`, `linearisations`, which
//! cross.cat computes by enumeration) are native: `with co from generate_cos(cobase)` binds
//! the built-in co, and the others make new orders of SAT variables.

use super::values::{Member, Shape, equal_shapes, shape};
use super::{Env, Interp, R, V};
use crate::cat::ast::{Expr, Name};
use crate::diag::Pos;
use crate::logic::{B, MAX_CANDIDATES, Mask};
use crate::rel::{Rel, Set};
use std::collections::BTreeSet;
use std::rc::Rc;
use varisat::Lit;

impl Interp<'_> {
    pub(super) fn with(&mut self, env: Env, x: Name, e: &Expr, pos: Pos) -> R<Env> {
        if let Some(env) = self.with_order(&env, x, e, pos)? {
            return Ok(env);
        }
        let items = match self.eval(&env, e)? {
            V::Coll(xs) => xs,
            // No element: no execution passes.
            V::Empty => Vec::new(),
            _ => {
                return self.err(pos, "type error: `with x from S` wants a set of values (of relations or event sets)");
            }
        };
        let v = self.choose(&items, pos)?;
        Ok(env.bind(x, v))
    }

    /// One of `items`, as a new choice: a value whose varying entries are new primary
    /// variables, equal to some present member. Distinct assignments of those variables
    /// are distinct values, so each value of herd's duplicate-free set counts once however
    /// many members denote it, without comparing members pairwise.
    fn choose(&mut self, items: &[Member], pos: Pos) -> R<V> {
        match items {
            [] => {
                self.lg.assert(B::F);
                return Ok(V::Empty);
            }
            // The only candidate: the executions without it do not pass.
            [m] => {
                self.lg.assert(m.guard);
                return Ok(m.val.clone());
            }
            _ => {}
        }
        let Some(shapes) = items.iter().map(|m| shape(&m.val)).collect::<Option<Vec<Shape>>>() else {
            return self.err(pos, "unsupported: `with x from S` over values other than relations and event sets");
        };
        let is_set = shapes.iter().any(|s| matches!(s, Shape::Set(_)));
        if is_set && shapes.iter().any(|s| matches!(s, Shape::Rel(_))) {
            return self.err(pos, "type error: `with x from S` over a mix of relations and event sets");
        }
        let chosen = if is_set { self.new_set(&shapes) } else { self.new_rel(&shapes) };
        let Some(chosen_shape) = shape(&chosen) else { unreachable!("a set or a relation") };
        let mut some = Vec::with_capacity(items.len());
        for (m, s) in items.iter().zip(&shapes) {
            let Some(eq) = equal_shapes(self.lg, &chosen_shape, s) else {
                unreachable!("the choice has the members' shape")
            };
            some.push(self.lg.and2(m.guard, eq));
        }
        let holds = self.lg.or(&some);
        self.lg.assert(holds);
        Ok(chosen)
    }

    /// The entry of a choice among `entries`: the members' common entry, or a new
    /// primary variable where they differ.
    fn choice_entry(&mut self, entries: impl Iterator<Item = B>) -> B {
        let mut entries = entries.peekable();
        let Some(&first) = entries.peek() else { return B::F };
        if entries.all(|b| b == first) {
            return first;
        }
        let l = self.lg.fresh();
        self.primaries.push(l);
        B::L(l)
    }

    /// An event set chosen among event sets (and `{}`).
    fn new_set(&mut self, shapes: &[Shape]) -> V {
        let entry = |s: &Shape, i: usize| match s {
            Shape::Set(x) => x.0[i],
            _ => B::F,
        };
        let set = (0..self.n()).map(|i| self.choice_entry(shapes.iter().map(|s| entry(s, i)))).collect();
        V::Set(Rc::new(Set(set)))
    }

    /// A relation chosen among relations (and `0`).
    fn new_rel(&mut self, shapes: &[Shape]) -> V {
        let mut keys = BTreeSet::new();
        for s in shapes {
            if let Shape::Rel(r) = s {
                keys.extend(r.keys());
            }
        }
        let entry = |s: &Shape, i: usize, j: usize| match s {
            Shape::Rel(r) => r.get(i, j),
            _ => B::F,
        };
        let mut out = Rel::empty(self.n());
        for (i, j) in keys {
            let b = self.choice_entry(shapes.iter().map(|s| entry(s, i, j)));
            out.set(i, j, b);
        }
        V::Rel(Rc::new(out))
    }

    /// herd's order generators, native: `with co from generate_cos(cobase)` (or
    /// `generate_orders(S, cobase)`) binds the built-in co, constrained by cobase; with any
    /// other name, `generate_orders(S, r)` is a new order per location of S's events and
    /// `linearisations(S, r)` one over all of them, each containing r.
    fn with_order(&mut self, env: &Env, x: Name, e: &Expr, pos: Pos) -> R<Option<Env>> {
        let Expr::App(f, arg, _) = e else { return Ok(None) };
        let Expr::Var(fname, _) = &**f else { return Ok(None) };
        let per_loc = match fname.as_str() {
            "generate_cos" | "generate_orders" => true,
            "linearisations" => false,
            _ => return Ok(None),
        };
        // As in herd, the generators are names a model must have in scope (cross.cat's).
        if env.get(*fname).is_none() {
            return Ok(None);
        }
        let arg = self.eval(env, arg)?;
        let (set, base) = match arg {
            V::Tuple(mut vs) if *fname != "generate_cos" && vs.len() == 2 => {
                let base = vs.remove(1);
                (Some(vs.remove(0)), base)
            }
            v if *fname == "generate_cos" => (None, v),
            _ => return self.err(pos, format!("type error: `{fname}` takes an event set and a relation")),
        };
        let base = self.as_rel(base, pos)?;
        if x == "co" && per_loc {
            self.co_bound = true;
            let restricted = base.inter(&self.ww_loc, self.lg);
            for ((i, j), b) in restricted.iter() {
                let c = self.co.get(i, j);
                self.lg.implies(b, c);
            }
            return Ok(Some(env.bind(x, V::Rel(self.co.clone()))));
        }
        let set = match set {
            Some(v) => self.as_set(v, pos)?,
            None => match env.get(Name::new("W")) {
                Some(w) => {
                    let w = self.force(w)?;
                    self.as_set(w, pos)?
                }
                None => return self.err(pos, "unbound name `W`"),
            },
        };
        self.order_made = true;
        let order = self.new_order(&set, &base, per_loc);
        Ok(Some(env.bind(x, V::Rel(Rc::new(order)))))
    }

    /// A strict total order of the events of `s` (of each location's, `per_loc`) that
    /// contains `base` between them: an orientation variable per pair, a primary, so each
    /// order is an execution of its own as in herd. Built as a dense matrix: the
    /// transitivity clauses read it cubically often.
    fn new_order(&mut self, s: &Set, base: &Rel, per_loc: bool) -> Rel {
        if self.lg.is_sliced() {
            return self.new_order_sliced(s, base, per_loc);
        }
        let n = self.n();
        let members: Vec<usize> = (0..n).filter(|&i| !s.0[i].is_false()).collect();
        let same = |it: &Self, i: usize, j: usize| if per_loc { it.loc.get(i, j) } else { B::T };
        let mut order = Dense { n, m: vec![B::F; n * n] };
        for (k, &i) in members.iter().enumerate() {
            for &j in &members[k + 1..] {
                let sl = same(self, i, j);
                let both = self.lg.and(&[s.0[i], s.0[j], sl]);
                if both.is_false() {
                    continue;
                }
                let o = self.lg.fresh();
                self.primaries.push(o);
                let o = B::L(o);
                self.lg.implies(o, both);
                order.m[i * n + j] = o;
                order.m[j * n + i] = self.lg.and2(o.negate(), both);
            }
        }
        // By event: the members it may precede (most pairs are of two locations, never
        // ordered), in order, so the clauses come as a walk over all triples gives them.
        let mut after = vec![Vec::new(); n];
        for &a in &members {
            after[a] = members.iter().copied().filter(|&b| !order.get(a, b).is_false()).collect();
        }
        for &a in &members {
            for &b in &after[a] {
                for &c in after[b].iter().filter(|&&c| c != a) {
                    let (ab, bc) = (order.get(a, b), order.get(b, c));
                    self.lg.clause(&[ab.negate(), bc.negate(), order.get(a, c)]);
                }
            }
        }
        for ((i, j), b) in base.iter() {
            let sl = same(self, i, j);
            let [b, si, sj, sl] = [b, s.0[i], s.0[j], sl].map(B::negate);
            self.lg.clause(&[b, si, sj, sl, order.get(i, j)]);
        }
        let entries = order.m.iter().enumerate().filter(|(_, b)| !b.is_false());
        Rel::from_sorted(n, entries.map(|(x, &b)| ((x / n, x % n), b)).collect())
    }
}

impl Interp<'_> {
    /// [`Interp::new_order`] over candidates (see `Logic::slice`): each candidate is split
    /// into one per order its events allow, and each orientation is the mask of the new
    /// candidates it holds in. Where they are too many, slicing is spoiled (and the empty
    /// relation returned is never read: the solver answers the test).
    fn new_order_sliced(&mut self, s: &Set, base: &Rel, per_loc: bool) -> Rel {
        let n = self.n();
        let members: Vec<usize> = (0..n).filter(|&i| !s.0[i].is_false()).collect();
        if members.len() < 2 {
            return Rel::empty(n);
        }
        let (parent, places) = self.orders_per_candidate(&members, s, base, per_loc);
        if !self.lg.split_candidates(&parent) {
            return Rel::empty(n);
        }
        let mut order = vec![B::F; n * n];
        for (k, &i) in members.iter().enumerate() {
            for &j in &members[k + 1..] {
                // The new candidates where i comes before j, and where after.
                let (mut ahead, mut behind): (Mask, Mask) = (0, 0);
                for (c, place) in places.iter().enumerate() {
                    if let (Some((gi, a)), Some((gj, b))) = (place[i], place[j])
                        && gi == gj
                    {
                        *if a < b { &mut ahead } else { &mut behind } |= 1 << c;
                    }
                }
                order[i * n + j] = self.lg.of_mask(ahead);
                order[j * n + i] = self.lg.of_mask(behind);
                // Each orientation is a choice that makes executions, as in herd.
                if let B::L(l) = order[i * n + j] {
                    self.primaries.push(Lit::from_var(l.var(), true));
                }
            }
        }
        let entries = order.iter().enumerate().filter(|(_, b)| !b.is_false());
        Rel::from_sorted(n, entries.map(|(x, &b)| ((x / n, x % n), b)).collect())
    }

    /// For each allowed candidate, every order of the `members` present there (of each
    /// location's, `per_loc`) that contains `base`: the candidate each new one copies, and
    /// in the new one each member's location group and place in its order (`None`:
    /// absent). Stops past [`MAX_CANDIDATES`] new candidates.
    fn orders_per_candidate(&self, members: &[usize], s: &Set, base: &Rel, per_loc: bool) -> (Vec<u32>, Vec<Places>) {
        let mut parent = Vec::new();
        let mut places = Vec::new();
        for c in self.lg.allowed_candidates() {
            let mut groups: Vec<Vec<usize>> = Vec::new();
            for &i in members.iter().filter(|&&i| self.lg.holds_in(s.0[i], c)) {
                match groups.iter_mut().find(|g| !per_loc || self.lg.holds_in(self.loc.get(g[0], i), c)) {
                    Some(g) => g.push(i),
                    None => groups.push(vec![i]),
                }
            }
            let before = |i: usize, j: usize| self.lg.holds_in(base.get(i, j), c);
            let per_group: Vec<Vec<Vec<usize>>> = groups.iter().map(|g| linear_extensions(g, &before)).collect();
            if per_group.iter().any(|g| g.is_empty()) {
                continue;
            }
            // Every combination of one order per group, as an odometer over `pick`.
            let mut pick = vec![0; groups.len()];
            loop {
                if parent.len() > MAX_CANDIDATES {
                    return (parent, places);
                }
                let mut place = vec![None; self.n()];
                for (g, (orders, &k)) in per_group.iter().zip(&pick).enumerate() {
                    for (at, &e) in orders[k].iter().enumerate() {
                        place[e] = Some((g, at));
                    }
                }
                parent.push(c);
                places.push(place);
                let Some(g) = (0..pick.len()).find(|&g| pick[g] + 1 < per_group[g].len()) else { break };
                pick[g] += 1;
                pick[..g].fill(0);
            }
        }
        (parent, places)
    }
}

/// For each event, its location group and place in the group's order (`None`: absent).
type Places = Vec<Option<(usize, usize)>>;

/// Every sequence of `group` in which `before(i, j)` puts i ahead of j (stopping past
/// [`MAX_CANDIDATES`] of them: more cannot be sliced).
fn linear_extensions(group: &[usize], before: &impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    fn go(left: &mut Vec<usize>, seq: &mut Vec<usize>, before: &impl Fn(usize, usize) -> bool, out: &mut Vec<Vec<usize>>) {
        if left.is_empty() {
            out.push(seq.clone());
            return;
        }
        for k in 0..left.len() {
            if out.len() > MAX_CANDIDATES {
                return;
            }
            let e = left[k];
            if left.iter().any(|&o| o != e && before(o, e)) {
                continue;
            }
            left.remove(k);
            seq.push(e);
            go(left, seq, before, out);
            seq.pop();
            left.insert(k, e);
        }
    }
    // Most groups are a location's initial write and one other.
    match *group {
        [_] => return vec![group.to_vec()],
        [a, b] => {
            let (ab, ba) = (before(a, b), before(b, a));
            return [(!ba).then(|| vec![a, b]), (!ab).then(|| vec![b, a])].into_iter().flatten().collect();
        }
        _ => {}
    }
    let mut out = Vec::new();
    go(&mut group.to_vec(), &mut Vec::new(), before, &mut out);
    out
}

/// An n×n matrix of entries, row by row.
struct Dense {
    n: usize,
    m: Vec<B>,
}

impl Dense {
    fn get(&self, i: usize, j: usize) -> B {
        self.m[i * self.n + j]
    }
}
