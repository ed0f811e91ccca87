//! Evaluates a cat model on one test's event structure, producing gates.
//!
//! Static values (sets and relations fixed by the event structure) are relations whose
//! entries are constants, so one evaluator serves as both herd's static evaluator and the
//! symbolic compiler: constant folding in [`Logic`] keeps the static part free.

use super::ast::*;
use super::load::Program;
use crate::diag::{Deadline, Diag, DiagKind, Pos, TIMEOUT};
use crate::events::Value;
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use varisat::Lit;

mod fixpoint;
mod lazy;
mod matching;
mod values;
mod with;

pub use values::Member;

#[derive(Clone, Debug)]
pub enum V {
    Set(Rc<Set>),
    Rel(Rc<Rel>),
    /// `0` and `{}`: empty, of whatever type the context wants.
    Empty,
    Tag(Name),
    Str(String),
    Tuple(Vec<V>),
    /// A set of non-event values (tags, relations, …): its members, each present where
    /// its guard holds.
    Coll(Vec<Member>),
    /// One event: an element of an event set taken apart by `match`.
    Event(usize),
    /// One pair of events: an element of a relation taken apart by `match`.
    Pair(usize, usize),
    Func(Rc<Closure>),
    Prim(Prim),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    Domain,
    Range,
    /// `different-values(r)`: the pairs of r whose events have different values.
    DifferentValues,
    /// `same-oa(r)`: the pairs of r whose events' page-table entry values map to one page.
    SameOa,
    /// `at-least-one-writable(r)`: the pairs of r one of whose events' entry values is
    /// writable.
    Writable,
    /// herd primitives over event sets that only enumeration can compute (`linearisations`,
    /// `classes-loc`, …): bound so models that merely name them load, refused when applied.
    Enumerative(&'static str),
}

/// herd's primitives that litsat does not compile; applying one is a located error.
const ENUMERATIVE: &[&str] = &[
    "classes-loc",
    "classes",
    "linearisations",
    "lift",
    "delift",
    "deliftinter",
    "bisimulation",
    "fromto",
    "tag2scope",
    "tag2level",
    "tag2events",
    "tag2fenced",
    "loc2events",
    "fail",
    "as_transitive",
];

/// The primitives, under their names (interned once, not per test).
fn primitives() -> &'static [(Name, Prim)] {
    static PRIMS: std::sync::OnceLock<Vec<(Name, Prim)>> = std::sync::OnceLock::new();
    PRIMS.get_or_init(|| {
        let named = [
            ("domain", Prim::Domain),
            ("range", Prim::Range),
            ("different-values", Prim::DifferentValues),
            ("same-oa", Prim::SameOa),
            ("at-least-one-writable", Prim::Writable),
        ];
        let enumerative = ENUMERATIVE.iter().map(|&p| (p, Prim::Enumerative(p)));
        named.into_iter().chain(enumerative).map(|(x, p)| (Name::new(x), p)).collect()
    })
}

/// What joins an arity error's two counts (and tells it apart, so that an outer call
/// does not wrap it again).
const ARITY: &str = " but is given ";

/// A closure's number of parameters and its argument's, when they differ.
fn arity_mismatch(f: &V, a: &V) -> Option<(usize, usize)> {
    let V::Func(c) = f else { return None };
    let takes = match &c.pat {
        Pat::Var(_) => 1,
        Pat::Tuple(xs) => xs.len(),
    };
    let given = match a {
        V::Tuple(vs) => vs.len(),
        _ => 1,
    };
    (takes != given).then_some((takes, given))
}

/// The primitives' names, for resolving names at load.
pub fn primitive_names() -> impl Iterator<Item = Name> {
    primitives().iter().map(|p| p.0)
}

#[derive(Debug)]
pub struct Closure {
    pat: Pat,
    body: Arc<Expr>,
    env: Env,
    /// For `let rec`: the group, rebound on every call.
    recs: Option<Rc<Vec<Binding>>>,
    /// For `let rec`: which of the group's bindings this is.
    rec_index: usize,
    file: Rc<str>,
}

/// The names in scope: a persistent list, each binding sharing those before it, that
/// ends in the built-ins.
#[derive(Clone, Debug, Default)]
pub struct Env(Option<Rc<Node>>);

/// One binding of an environment. The name and the rest of the list are in the same
/// place whatever the binding, so that a lookup's walk compares a name and steps on.
#[derive(Debug)]
struct Node {
    /// The name bound; `None` for the built-ins' table, which ends a list.
    name: Option<Name>,
    next: Env,
    what: Slot,
}

#[derive(Debug)]
enum Slot {
    Val(V),
    /// A `let` binding evaluated when first read (see `lazy`).
    Lazy(lazy::Thunk),
    /// The built-ins, bound all at once: a test binds about a hundred, which as list
    /// nodes cost an allocation each, and a name is found by its number where the list
    /// was walked to its end. The primitives follow them (hiding any of their names).
    Table {
        bindings: Vec<(Name, V)>,
        /// By [`Name::index`]: 1 + where the name's last binding is (past `bindings`, the
        /// primitive's place among [`primitives`]), or 0 if it has none.
        index: Rc<[u32]>,
    },
}

impl Env {
    /// The environment of these bindings then the primitives; of two with one name, the
    /// later is seen.
    pub fn table(bindings: Vec<(Name, V)>) -> Env {
        let index = table_index(&bindings);
        Env::node(None, Env::default(), Slot::Table { bindings, index })
    }
    fn node(name: Option<Name>, next: Env, what: Slot) -> Env {
        Env(Some(Rc::new(Node { name, next, what })))
    }
    pub fn bind(&self, name: Name, val: V) -> Env {
        Env::node(Some(name), self.clone(), Slot::Val(val))
    }
    fn bind_lazy(&self, name: Name, thunk: lazy::Thunk) -> Env {
        Env::node(Some(name), self.clone(), Slot::Lazy(thunk))
    }
    /// The environment's identity (its innermost binding's address).
    fn addr(&self) -> usize {
        self.0.as_ref().map_or(0, |n| Rc::as_ptr(n) as usize)
    }
    /// What `name` is bound to (read it with `Interp::force`).
    pub fn get(&self, name: Name) -> Option<Bound<'_>> {
        let mut n = self.0.as_deref()?;
        while n.name.is_some_and(|x| x != name) {
            n = n.next.0.as_deref()?;
        }
        match &n.what {
            Slot::Val(v) => Some(Bound::Val(v)),
            Slot::Lazy(t) => Some(Bound::Lazy(t)),
            Slot::Table { bindings, index } => {
                let at = *index.get(name.index()).filter(|&&at| at > 0)? as usize - 1;
                Some(match bindings.get(at) {
                    Some((_, v)) => Bound::Val(v),
                    None => Bound::Prim(primitives()[at - bindings.len()].1),
                })
            }
        }
    }
}

/// What a name is bound to: a value, a `let` binding evaluated when first read, or a
/// primitive.
#[derive(Clone, Copy, Debug)]
pub enum Bound<'a> {
    Val(&'a V),
    Lazy(&'a lazy::Thunk),
    Prim(Prim),
}

/// The index of [`Node::Table`] for `bindings` and the primitives. Every test binds the
/// same built-in names in the same order, so the index made for one test serves the next
/// (and is made again where the names differ).
fn table_index(bindings: &[(Name, V)]) -> Rc<[u32]> {
    thread_local! {
        static LAST: std::cell::RefCell<(Vec<Name>, Rc<[u32]>)> = std::cell::RefCell::new((Vec::new(), Rc::new([])));
    }
    LAST.with_borrow_mut(|(names, index)| {
        if !bindings.iter().map(|(x, _)| x).eq(names.iter()) || index.is_empty() {
            *names = bindings.iter().map(|&(x, _)| x).collect();
            let prims = primitives().iter().map(|(x, _)| x);
            let all: Vec<Name> = names.iter().chain(prims).copied().collect();
            let len = all.iter().map(|x| x.index() + 1).max().unwrap_or(0);
            let mut at = vec![0; len];
            for (x, k) in all.iter().zip(1..) {
                at[x.index()] = k;
            }
            *index = at.into();
        }
        index.clone()
    })
}

/// What a check compiled to.
#[derive(Clone, Debug)]
pub struct CheckOut {
    /// The `as` name, or `file:line` for an unnamed check.
    pub label: Arc<str>,
    pub name: Option<Arc<str>>,
    pub kind: CheckKind,
    pub negated: bool,
    pub flag: bool,
    /// Holds only if the check passes. For plain checks it may be a one-way selector (it
    /// implies the check); for flags and negated checks it is exact.
    pub ok: B,
    pub rel: Rc<Rel>,
    /// The calls it was made in, by their procedures' and `as` names: herd skips a call
    /// (so every check in it) that `-skipcheck` names either way.
    pub callers: Vec<Arc<str>>,
}

/// Built-in names and the symbolic co the model's `with co from …` binds.
pub struct Builtins {
    /// The names bound, in order (a later one hides an earlier one of its name).
    pub env: Vec<(Name, V)>,
    pub universe: Set,
    pub co: Rel,
    /// Same-location pairs: the classes `generate_orders` orders separately.
    pub loc: Rel,
    /// Same-location write pairs: where a `cobase` may constrain co.
    pub ww_loc: Rel,
    /// Each event's value, one-hot: `(value, literal)` pairs (for `different-values`).
    pub vals: Vec<Vec<(Value, B)>>,
}

/// A compiled model: its checks, and the choice literals its `with x from S` statements
/// add to the execution's (each passing choice is an execution of its own, as in herd).
pub struct Compiled {
    pub checks: Vec<CheckOut>,
    pub primaries: Vec<Lit>,
    /// Whether the model generates orders of its own (`with mo from generate_orders(…)`)
    /// and never binds the built-in co (`with co from …`): herd then chooses final writes,
    /// not a coherence order, for a C test.
    pub own_orders: bool,
}

pub struct Interp<'a> {
    prog: &'a Program,
    pub lg: &'a mut Logic,
    universe: Set,
    /// Shared with every `with co from …` that binds it.
    co: Rc<Rel>,
    loc: Rel,
    /// `with co from …` bound the built-in co; `with x from …` made a new order.
    co_bound: bool,
    order_made: bool,
    ww_loc: Rel,
    vals: Vec<Vec<(Value, B)>>,
    /// "Events i and j have the same value", built once per pair.
    same_vals: HashMap<(usize, usize), B>,
    /// Choice literals of `with x from S`.
    primaries: Vec<Lit>,
    /// Whether a monotone `let rec` may stop unrolling before it is known to have reached
    /// its fixpoint in every execution, guarding what follows with the literal saying it
    /// has (see `Logic::guard_with`).
    defer: bool,
    /// Calls memoised while a `match` splits a set on an uncertain member.
    calls: matching::Calls,
    /// Closures of named relations, by relation (see [`Interp::plus`]); the entry keeps
    /// its relation alive, so its address stays its own.
    closed: Vec<(Rc<Rel>, Rc<Rel>)>,
    variants: &'a [String],
    /// The files run so far (a handful: a list, where hashing cost more).
    included: Vec<Rc<str>>,
    /// The procedures defined so far, by name.
    procs: Vec<(String, Procedure)>,
    /// The names of the calls being run ([`CheckOut::callers`]).
    callers: Vec<Arc<str>>,
    pub checks: Vec<CheckOut>,
    file: Rc<str>,
    /// The built-ins' table, the end of every environment.
    builtins: Env,
    /// By [`Name::index`]: whether some file of the program binds the name (see
    /// [`Program::bound`]).
    bound: &'a [bool],
    /// Current nesting of evaluation (expressions, calls, statement blocks).
    depth: usize,
    /// Evaluation steps so far, bounded by [`MAX_STEPS`].
    steps: usize,
    /// `--timeout`'s: checked at the first step and every [`DEADLINE_EVERY`] after (a
    /// `let rec` over a large test can take long).
    deadline: Deadline,
    /// Every check's literal exact, both ways (for `distinguish`, which negates them).
    exact: bool,
}

/// A procedure's parameter and body, shared by its calls (a copy per call was a good part
/// of a model's evaluation when it calls procedures in a loop).
type Procedure = Rc<(Pat, Vec<Stmt>)>;

/// How many evaluation steps pass between two looks at the clock.
const DEADLINE_EVERY: usize = 256;

/// Evaluation's results: the error boxed, so that the `Ok` values every step returns
/// are not moved about with the room a diagnostic takes.
type R<T> = Result<T, Box<Diag>>;

/// How deeply evaluation may nest: a recursion without end (`let rec f x = f x`) is
/// stopped with a diagnostic before it overflows the stack. Above the parser's nesting
/// bound, so any model that parses can be evaluated.
const MAX_EVAL_DEPTH: usize = 400;

/// How many expressions one model evaluation may take: runaway recursion that branches
/// (`try f x with f x`) is stopped instead of running for ever.
const MAX_STEPS: usize = 2_000_000;

impl<'a> Interp<'a> {
    fn text(&self) -> &str {
        self.prog.file(&self.file).map(|f| &*f.text).unwrap_or("")
    }

    fn err<T>(&self, pos: Pos, msg: impl Into<String>) -> R<T> {
        Err(Box::new(Diag::at(&self.file, self.text(), pos, msg)))
    }

    fn n(&self) -> usize {
        self.universe.len()
    }

    /// The value as a set of events. It is taken, not borrowed: every caller is done with
    /// it, and a set's count need not go up and down again.
    fn as_set(&self, v: V, pos: Pos) -> R<Rc<Set>> {
        match v {
            V::Set(s) => Ok(s),
            V::Empty => Ok(Rc::new(Set::empty(self.n()))),
            V::Event(e) => Ok(Rc::new(values::singleton_set(self.n(), e))),
            _ => self.err(pos, "type error: expected a set of events"),
        }
    }

    /// The value as a relation (taken, as by [`Interp::as_set`]).
    fn as_rel(&self, v: V, pos: Pos) -> R<Rc<Rel>> {
        match v {
            V::Rel(r) => Ok(r),
            V::Empty => Ok(Rc::new(Rel::empty(self.n()))),
            V::Pair(i, j) => Ok(Rc::new(Rel::from_pairs(self.n(), [(i, j)]))),
            _ => self.err(pos, "type error: expected a relation"),
        }
    }

    /// Whether some file binds `x`. A name none binds can only be a built-in (see
    /// `binders`), found in their table without walking the environment to its end.
    fn file_bound(&self, x: Name) -> bool {
        self.bound.get(x.index()) == Some(&true)
    }

    /// What `x` is bound to in `env`.
    fn lookup<'e>(&'e self, env: &'e Env, x: Name) -> Option<Bound<'e>> {
        if self.file_bound(x) { env.get(x) } else { self.builtins.get(x) }
    }

    fn eval(&mut self, env: &Env, e: &Expr) -> R<V> {
        // A name is a leaf: reading it takes no step of its own (a pending binding's body
        // is evaluated under `force`'s guard).
        if let Expr::Var(x, pos) = e {
            return self.eval_var(env, *x, *pos);
        }
        self.guarded(|| expr_pos(e), |it| it.eval_here(env, e))
    }

    /// The value of the name `x`, read at `pos`.
    fn eval_var(&mut self, env: &Env, x: Name, pos: Pos) -> R<V> {
        // A built-in is a value (see `lookup`).
        if !self.file_bound(x) {
            return match self.builtins.get(x) {
                Some(Bound::Val(v)) => Ok(v.clone()),
                Some(Bound::Prim(p)) => Ok(V::Prim(p)),
                _ => self.err(pos, format!("unbound name `{x}`")),
            };
        }
        match env.get(x) {
            Some(b) => self.force(b),
            None => self.err(pos, format!("unbound name `{x}`")),
        }
    }

    /// Runs `f` one evaluation level deeper, within [`MAX_EVAL_DEPTH`] and [`MAX_STEPS`];
    /// `pos` places a limit's error (found only then).
    fn guarded<T>(&mut self, pos: impl FnOnce() -> Pos, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        self.steps += 1;
        if self.depth >= MAX_EVAL_DEPTH || self.steps > MAX_STEPS || self.steps % DEADLINE_EVERY == 1 {
            self.limits(pos())?;
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// The error for a limit passed, if any: apart from `guarded`, which runs at every
    /// step, so that its fast path stays small.
    #[cold]
    #[inline(never)]
    fn limits(&self, pos: Pos) -> R<()> {
        if self.depth >= MAX_EVAL_DEPTH {
            return self.err(
                pos,
                format!("evaluation nested more than {MAX_EVAL_DEPTH} deep (a recursion that does not end?)"),
            );
        }
        if self.steps > MAX_STEPS {
            return self
                .err(pos, format!("evaluation took more than {MAX_STEPS} steps (a recursion that does not end?)"));
        }
        if self.steps % DEADLINE_EVERY == 1 && self.deadline.passed() {
            return self.err(pos, TIMEOUT).map_err(|d| Box::new(Diag { kind: DiagKind::Limit, ..*d }));
        }
        Ok(())
    }

    fn eval_here(&mut self, env: &Env, e: &Expr) -> R<V> {
        match e {
            Expr::Var(x, pos) => self.eval_var(env, *x, *pos),
            Expr::Empty => Ok(V::Empty),
            Expr::Tag(t) => Ok(V::Tag(*t)),
            Expr::Str(s) => Ok(V::Str(s.clone())),
            Expr::Op1(op, a) => {
                let pos = expr_pos(a);
                let v = self.eval(env, a)?;
                self.op1(*op, v, pos)
            }
            Expr::Op2(op, a, b, pos) => self.op2_lazy(env, *op, a, b, *pos),
            Expr::IdSet(a) => {
                let pos = expr_pos(a);
                let v = self.eval(env, a)?;
                let s = self.as_set(v, pos)?;
                Ok(V::Rel(Rc::new(Rel::id_on(&s))))
            }
            Expr::SetLit(items) => {
                let mut vs = Vec::new();
                for it in items {
                    vs.push(self.eval(env, it)?);
                }
                let pos = items.first().map(expr_pos).unwrap_or_default();
                self.set_literal(vs, pos)
            }
            Expr::Tuple(items) => {
                let mut vs = Vec::new();
                for it in items {
                    vs.push(self.eval(env, it)?);
                }
                Ok(V::Tuple(vs))
            }
            Expr::App(f, a, pos) => {
                let fv = self.eval(env, f)?;
                let av = self.eval(env, a)?;
                let arity = arity_mismatch(&fv, &av);
                let r = self.apply(fv, av, *pos);
                match (r, arity) {
                    (Err(d), Some(ks)) if d.kind == DiagKind::Error && !d.message.contains(ARITY) => {
                        Err(self.arity_error(f, ks, *pos, *d))
                    }
                    (r, _) => r,
                }
            }
            Expr::Fun(p, body) => Ok(V::Func(Rc::new(Closure {
                pat: p.clone(),
                body: body.clone(),
                env: env.clone(),
                recs: None,
                rec_index: 0,
                file: self.file.clone(),
            }))),
            Expr::Let(rec, bs, body) => {
                let env2 = self.bind_all(env, *rec, bs)?;
                self.eval(&env2, body)
            }
            // `try NAME with …` on an unbound name, herd's idiom for a set an architecture
            // may lack, takes the default without building the error.
            Expr::Try(a, b) if matches!(&**a, Expr::Var(x, _) if self.lookup(env, *x).is_none()) => self.eval(env, b),
            Expr::Try(a, b) => {
                let saved = self.checks.len();
                match self.eval(env, a) {
                    Ok(v) => Ok(v),
                    Err(_) => {
                        self.checks.truncate(saved);
                        self.eval(env, b)
                    }
                }
            }
            Expr::If(c, a, b) => {
                if self.cond(env, c)? {
                    self.eval(env, a)
                } else {
                    self.eval(env, b)
                }
            }
            Expr::Match(e, arms, pos) => {
                let v = self.eval(env, e)?;
                self.do_match(env, v, arms, *pos)
            }
        }
    }

    fn cond(&mut self, env: &Env, c: &Cond) -> R<bool> {
        Ok(match c {
            Cond::Variant(v) => crate::variant::holds(self.variants, v),
            Cond::Not(c) => !self.cond(env, c)?,
            Cond::And(a, b) => self.cond(env, a)? && self.cond(env, b)?,
            Cond::Or(a, b) => self.cond(env, a)? || self.cond(env, b)?,
            Cond::Eq(a, b) | Cond::Subset(a, b) | Cond::In(a, b) => {
                let pos = expr_pos(a);
                let va = self.eval(env, a)?;
                let vb = self.eval(env, b)?;
                match (c, va, vb) {
                    (Cond::In(..), V::Tag(t), V::Coll(xs)) => {
                        match xs.iter().find(|m| matches!(&m.val, V::Tag(u) if *u == t)) {
                            None => false,
                            Some(m) if m.guard == B::T => true,
                            Some(_) => {
                                return self
                                    .err(pos, "unsupported: `in` on a set of values that depends on the execution");
                            }
                        }
                    }
                    (Cond::In(..), V::Event(e), V::Set(s)) if s.0[e] != B::T && !s.0[e].is_false() => {
                        return self.err(pos, "unsupported: `in` on an event set that depends on the execution");
                    }
                    (Cond::In(..), V::Event(e), V::Set(s)) => s.0[e] == B::T,
                    (Cond::In(..), V::Event(_) | V::Pair(..), V::Empty) => false,
                    (Cond::In(..), V::Pair(i, j), V::Rel(r)) if !matches!(r.get(i, j), B::T | B::F) => {
                        return self.err(pos, "unsupported: `in` on a relation that depends on the execution");
                    }
                    (Cond::In(..), V::Pair(i, j), V::Rel(r)) => r.get(i, j) == B::T,
                    (Cond::Eq(..), V::Tag(t), V::Tag(u)) => t == u,
                    _ => return self.err(pos, "unsupported: condition on event sets or relations"),
                }
            }
        })
    }

    /// A call that failed and gave its function the wrong number of arguments: the
    /// writer's mistake is at the call (the failure inside the function, often in an
    /// included file such as the stdlib, is a note).
    #[cold]
    fn arity_error(&self, f: &Expr, (takes, given): (usize, usize), pos: Pos, inner: Diag) -> Box<Diag> {
        let (what, at) = match f {
            Expr::Var(x, p) => (format!("function `{x}`"), *p),
            _ => ("this function".to_string(), pos),
        };
        let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
        let msg = format!("{what} takes {takes} {}{ARITY}{given}", plural(takes));
        let d = Diag::at(&self.file, self.text(), at, msg);
        if (inner.file.as_str(), inner.line, inner.col) == (d.file.as_str(), d.line, d.col) {
            return Box::new(d);
        }
        let note = format!("the call failed at {}:{}:{}: {}", inner.file, inner.line, inner.col, inner.message);
        Box::new(d.with_note(note))
    }

    fn bind_pat(&self, env: &Env, p: &Pat, v: V, pos: Pos) -> R<Env> {
        match p {
            Pat::Var(x) => Ok(env.bind(*x, v)),
            Pat::Tuple(xs) => match v {
                V::Tuple(vs) if vs.len() == xs.len() => {
                    let mut e = env.clone();
                    for (x, v) in xs.iter().zip(vs) {
                        e = e.bind(*x, v);
                    }
                    Ok(e)
                }
                _ => self.err(pos, format!("expected a tuple of {} arguments", xs.len())),
            },
        }
    }

    fn apply(&mut self, f: V, a: V, pos: Pos) -> R<V> {
        match f {
            V::Func(c) => self.apply_closure(c, a, pos),
            V::Prim(Prim::Domain) => {
                let r = self.as_rel(a, pos)?;
                Ok(V::Set(Rc::new(r.domain(self.lg))))
            }
            V::Prim(Prim::Range) => {
                let r = self.as_rel(a, pos)?;
                Ok(V::Set(Rc::new(r.range(self.lg))))
            }
            V::Prim(Prim::DifferentValues) => {
                let r = self.as_rel(a, pos)?;
                Ok(V::Rel(Rc::new(self.different_values(&r))))
            }
            V::Prim(p @ (Prim::SameOa | Prim::Writable)) => {
                let r = self.as_rel(a, pos)?;
                Ok(V::Rel(Rc::new(self.entry_pairs(&r, p == Prim::SameOa))))
            }
            V::Prim(Prim::Enumerative(name)) => self.err(
                pos,
                format!(
                    "unsupported: herd primitive `{name}` (it enumerates candidates; litsat compiles models to SAT)"
                ),
            ),
            _ => self.err(pos, "type error: applying something that is not a function"),
        }
    }

    /// Runs a closure's body on its argument.
    fn call(&mut self, c: &Closure, a: V, pos: Pos) -> R<V> {
        let mut env = c.env.clone();
        if let Some(recs) = &c.recs {
            env = bind_rec_closures(&env, recs, &c.file);
        }
        let env = self.bind_pat(&env, &c.pat, a, pos)?;
        let saved = std::mem::replace(&mut self.file, c.file.clone());
        let r = self.eval(&env, &c.body);
        self.file = saved;
        r
    }

    fn op1(&mut self, op: Op1, v: V, pos: Pos) -> R<V> {
        if let (Op1::Inv, V::Pair(i, j)) = (op, &v) {
            return Ok(V::Pair(*j, *i));
        }
        if let (Op1::Comp, V::Set(s)) = (op, &v) {
            return Ok(V::Set(Rc::new(self.universe.diff(s, self.lg))));
        }
        let r = self.as_rel(v, pos)?;
        let out = match op {
            Op1::Inv => r.inverse(),
            Op1::Plus => return Ok(V::Rel(self.plus(&r))),
            Op1::Star => self.plus(&r).with_id(&self.universe, self.lg),
            Op1::Opt => r.with_id(&self.universe, self.lg),
            Op1::Comp => r.complement(&self.universe, self.lg),
        };
        Ok(V::Rel(Rc::new(out)))
    }

    /// `r+`, built once per relation that has a name: a model may close one relation in
    /// several places (c11's `sb+` twice in one definition), and each closure costs more
    /// than any other operation. The one built again would be this one (the closure's
    /// gates are cached by input in [`Logic`]), so the encoding is unchanged. A relation
    /// held only here is an intermediate value no other expression can meet again.
    fn plus(&mut self, r: &Rc<Rel>) -> Rc<Rel> {
        if let Some((_, done)) = self.closed.iter().find(|(x, _)| Rc::ptr_eq(x, r)) {
            return done.clone();
        }
        let out = Rc::new(r.plus_lazy(self.lg));
        if Rc::strong_count(r) > 1 {
            self.closed.push((r.clone(), out.clone()));
        }
        out
    }

    fn op2(&mut self, op: Op2, a: V, b: V, pos: Pos) -> R<V> {
        if op == Op2::Add {
            return self.add_element(a, b, pos);
        }
        if let Some(v) = values::with_empty(op, &a, &b) {
            return Ok(v);
        }
        if op == Op2::Prod {
            let sa = self.as_set(a, pos)?;
            let sb = self.as_set(b, pos)?;
            return Ok(V::Rel(Rc::new(Rel::product(&sa, &sb, self.lg))));
        }
        let is_set = |v: &V| matches!(v, V::Set(_));
        let is_rel = |v: &V| matches!(v, V::Rel(_));
        if matches!(op, Op2::Union | Op2::Inter | Op2::Diff) && (is_set(&a) || is_set(&b)) && !is_rel(&a) && !is_rel(&b)
        {
            let sa = self.as_set(a, pos)?;
            let sb = self.as_set(b, pos)?;
            let s = match op {
                Op2::Union => sa.union(&sb, self.lg),
                Op2::Inter => sa.inter(&sb, self.lg),
                _ => sa.diff(&sb, self.lg),
            };
            return Ok(V::Set(Rc::new(s)));
        }
        if matches!((&a, &b), (V::Empty, V::Empty)) {
            return Ok(V::Empty);
        }
        if let Some(v) = values::coll_op(self.lg, op, &a, &b) {
            return Ok(v);
        }
        let ra = self.as_rel(a, pos)?;
        let rb = self.as_rel(b, pos)?;
        let r = match op {
            Op2::Union => ra.union(&rb, self.lg),
            Op2::Inter => ra.inter(&rb, self.lg),
            Op2::Diff => ra.diff(&rb, self.lg),
            Op2::Seq => ra.seq(&rb, self.lg),
            Op2::Prod | Op2::Add => unreachable!("handled above"),
        };
        Ok(V::Rel(Rc::new(r)))
    }

    fn bind_all(&mut self, env: &Env, rec: bool, bs: &[Binding]) -> R<Env> {
        if rec {
            return self.let_rec(env, bs);
        }
        let mut out = env.clone();
        // A binding nothing can read is not made (see `reach`).
        for b in bs.iter().filter(|b| b.live) {
            if b.name == super::parse::TUPLE_BINDING
                && let Some(p) = &b.params
            {
                let v = self.eval(env, &b.body)?;
                out = self.bind_pat(&out, p, v, b.pos)?;
                continue;
            }
            out = match &b.params {
                Some(p) => out.bind(
                    b.name,
                    V::Func(Rc::new(Closure {
                        pat: p.clone(),
                        body: b.body.clone(),
                        env: env.clone(),
                        recs: None,
                        rec_index: 0,
                        file: self.file.clone(),
                    })),
                ),
                None => out.bind_lazy(b.name, lazy::Thunk::new(b.body.clone(), env.clone(), self.file.clone())),
            };
        }
        Ok(out)
    }

    fn stmts(&mut self, env: Env, stmts: &[Stmt]) -> R<Env> {
        let pos = stmts.first().map(stmt_pos).unwrap_or_default();
        self.guarded(|| pos, |it| {
            let mut env = env;
            for s in stmts {
                // A spoiled slicing is answered again by the solver: the rest is not needed.
                if it.lg.spoiled() {
                    break;
                }
                env = it.stmt(env, s)?;
            }
            Ok(env)
        })
    }

    fn stmt(&mut self, env: Env, s: &Stmt) -> R<Env> {
        match s {
            Stmt::Let(rec, bs) => self.bind_all(&env, *rec, bs),
            Stmt::Check(c) => {
                self.check(&env, c)?;
                Ok(env)
            }
            Stmt::Include(name, pos) => {
                let target = match self.prog.include_target(&self.file, name) {
                    Some(t) => t.to_string(),
                    None => return self.err(*pos, format!("cannot find included file \"{name}\"")),
                };
                self.run_file(env, &target)
            }
            Stmt::Show | Stmt::Instructions => Ok(env),
            Stmt::Procedure(name, p, body) => {
                self.procs.push((name.clone(), Rc::new((p.clone(), body.clone()))));
                Ok(env)
            }
            Stmt::Call(name, arg, as_name, pos) => {
                let Some(proc) = self.procs.iter().rev().find(|(n, _)| n == name).map(|(_, p)| p.clone()) else {
                    return self.err(*pos, format!("unknown procedure '{name}'"));
                };
                let (p, body) = &*proc;
                let a = self.eval(&env, arg)?;
                let inner = self.bind_pat(&env, p, a, *pos)?;
                let outer = self.callers.len();
                self.callers.extend(std::iter::once(name).chain(as_name).map(|n| Arc::from(n.as_str())));
                let ran = self.stmts(inner, body);
                self.callers.truncate(outer);
                ran.map(|_| env)
            }
            Stmt::Forall(x, set, body, pos) => {
                let v = self.eval(&env, set)?;
                let items = match v {
                    V::Coll(xs) => xs,
                    V::Empty => Vec::new(),
                    _ => return self.err(*pos, "unsupported: `forall` over a set of events"),
                };
                if items.iter().any(|m| m.guard != B::T) {
                    return self.err(*pos, "unsupported: `forall` over a set of values that depends on the execution");
                }
                for it in items {
                    self.stmts(env.bind(*x, it.val), body)?;
                }
                Ok(env)
            }
            Stmt::With(x, e, pos) => self.with(env, *x, e, *pos),
            Stmt::IfVariant(c, a, b) => {
                if self.cond(&env, c)? {
                    self.stmts(env, a)
                } else {
                    self.stmts(env, b)
                }
            }
            Stmt::Enum(name, tags) => {
                // A bell's tags name event sets (`'rcu-lock` is `Rcu-lock` too); the
                // events carrying none of them make an empty set.
                let mut env = env.bind(*name, V::Coll(tags.iter().map(|&t| Member::always(V::Tag(t))).collect()));
                for &t in tags {
                    for set in [t, Name::new(&crate::encode::exec::capitalised(&t))] {
                        if env.get(set).is_none() {
                            env = env.bind(set, V::Set(Rc::new(Set::empty(self.n()))));
                        }
                    }
                }
                Ok(env)
            }
            Stmt::Unsupported(kw, pos) => self.err(*pos, format!("unsupported construct `{kw}`")),
        }
    }

    fn check(&mut self, env: &Env, c: &Check) -> R<()> {
        let v = self.eval(env, &c.expr)?;
        // `empty S` on a set asks the same as on the identity over it.
        let v = match (c.kind, v) {
            (CheckKind::Empty, V::Set(s)) => V::Rel(Rc::new(Rel::id_on(&s))),
            (_, v) => v,
        };
        let r = self.as_rel(v, c.pos)?;
        let label = c.name.clone().unwrap_or_else(|| {
            let (l, _) = crate::diag::line_col(self.text(), c.pos.0);
            format!("{}:{l}", self.file.trim_start_matches("<bundled>/")).into()
        });
        let exact = self.exact || c.flag || c.negated;
        let holds = match c.kind {
            CheckKind::Acyclic if exact => crate::encode::acyclic::exact(self.lg, &r),
            CheckKind::Acyclic => crate::encode::acyclic::selector(self.lg, &r),
            CheckKind::Irreflexive => {
                let d = r.diagonal();
                self.lg.or(&d).negate()
            }
            CheckKind::Empty => r.is_empty_b(self.lg),
        };
        let ok = if c.negated { holds.negate() } else { holds };
        if c.assert {
            return self.asserted(c, &label, ok);
        }
        self.checks.push(CheckOut {
            label,
            name: c.name.clone(),
            kind: c.kind,
            negated: c.negated,
            flag: c.flag,
            ok,
            rel: r,
            callers: self.callers.clone(),
        });
        Ok(())
    }

    /// An `assert`: herd ends the test with an error ("assertion failed, check input test")
    /// where the check fails. One that holds or fails whatever the execution is decided
    /// here; one that depends on the execution is refused by name, not turned into a check.
    fn asserted(&self, c: &Check, label: &str, ok: B) -> R<()> {
        match ok {
            B::T => Ok(()),
            B::F => self.err(c.pos, format!("assertion `{label}` failed, check input test")),
            _ => self.err(c.pos, format!("unsupported: `assert` `{label}` that depends on the execution")),
        }
    }

    /// Runs the stdlib (unless it is the model itself), the bell file if any, and the model.
    fn run_files(&mut self, mut env: Env) -> R<Env> {
        let prog = self.prog;
        if let Some(std) = &prog.stdlib
            && *std != prog.root
        {
            env = self.run_file(env, std)?;
        }
        if let Some(bell) = &prog.bell {
            env = self.run_file(env, bell)?;
        }
        self.run_file(env, &prog.root)
    }

    fn run_file(&mut self, env: Env, path: &str) -> R<Env> {
        if self.included.iter().any(|p| **p == *path) {
            return Ok(env);
        }
        let file: Rc<str> = path.into();
        self.included.push(file.clone());
        let Some(f) = self.prog.file(path) else {
            return Err(Box::new(Diag::file(path, "model file not loaded")));
        };
        let model = f.model.clone();
        let saved = std::mem::replace(&mut self.file, file);
        let r = self.stmts(env, &model.stmts);
        self.file = saved;
        r
    }
}

fn bind_rec_closures(env: &Env, recs: &Rc<Vec<Binding>>, file: &Rc<str>) -> Env {
    let mut e = env.clone();
    for (rec_index, b) in recs.iter().enumerate() {
        let (pat, body) = match (&b.params, &*b.body) {
            (Some(p), _) => (p.clone(), b.body.clone()),
            (None, Expr::Fun(p, body)) => (p.clone(), body.clone()),
            (None, _) => continue,
        };
        e = e.bind(
            b.name,
            V::Func(Rc::new(Closure {
                pat,
                body,
                env: env.clone(),
                recs: Some(recs.clone()),
                rec_index,
                file: file.clone(),
            })),
        );
    }
    e
}

fn stmt_pos(s: &Stmt) -> Pos {
    match s {
        Stmt::Let(_, bs) => bs.first().map(|b| b.pos).unwrap_or_default(),
        Stmt::Check(c) => c.pos,
        Stmt::Include(_, p) | Stmt::Call(_, _, _, p) | Stmt::Forall(_, _, _, p) | Stmt::With(_, _, p) => *p,
        Stmt::Unsupported(_, p) => *p,
        _ => Pos(0),
    }
}

fn expr_pos(e: &Expr) -> Pos {
    match e {
        // A call is where its function is named (a runaway recursion's limit is met there).
        Expr::App(f, _, _) if matches!(**f, Expr::Var(..)) => expr_pos(f),
        Expr::Var(_, p) | Expr::Op2(_, _, _, p) | Expr::App(_, _, p) | Expr::Match(_, _, p) => *p,
        Expr::Op1(_, a) | Expr::IdSet(a) => expr_pos(a),
        _ => Pos(0),
    }
}

/// Runs the model (after the implicit stdlib and the bell file, if any) on one test, returning its checks and the
/// choice literals it adds: block on those with `Exec::primaries` when counting executions.
pub fn compile_model(prog: &Program, lg: &mut Logic, b: Builtins, variants: &[String]) -> Result<Compiled, Diag> {
    compile_model_with(prog, lg, b, variants, false, Deadline::NONE)
}

/// [`compile_model`], stopping with a timeout once `deadline` passes; with `defer`, a
/// monotone `let rec` whose unrolling has stopped growing is cut there without proving
/// that every execution has reached its fixpoint:
/// the constraints after it (and the checks asserted later) are guarded by the literal
/// saying it has, `lg.guard()`. A solution where the guard fails is an execution this
/// encoding cannot judge, to be answered by an exact encoding.
pub fn compile_model_with(
    prog: &Program,
    lg: &mut Logic,
    b: Builtins,
    variants: &[String],
    defer: bool,
    deadline: Deadline,
) -> Result<Compiled, Diag> {
    compile(prog, lg, b, variants, (defer, false), deadline)
}

/// [`compile_model`] with every check's literal exact both ways, so that a caller may
/// assert a check's failure (`distinguish` asks for an execution the second model
/// forbids); the closures are made exact by `Logic::full_cnf`.
pub fn compile_model_exact(prog: &Program, lg: &mut Logic, b: Builtins, variants: &[String]) -> Result<Compiled, Diag> {
    compile(prog, lg, b, variants, (false, true), Deadline::NONE)
}

/// The interpreter's run: `(defer, exact)` as [`compile_model_with`] and
/// [`compile_model_exact`] say.
fn compile(
    prog: &Program,
    lg: &mut Logic,
    b: Builtins,
    variants: &[String],
    (defer, exact): (bool, bool),
    deadline: Deadline,
) -> Result<Compiled, Diag> {
    let mut it = Interp {
        exact,
        deadline,
        defer,
        prog,
        lg,
        universe: b.universe,
        co: Rc::new(b.co),
        loc: b.loc,
        co_bound: false,
        order_made: false,
        ww_loc: b.ww_loc,
        vals: b.vals,
        same_vals: HashMap::new(),
        primaries: Vec::new(),
        calls: Default::default(),
        closed: Vec::new(),
        variants,
        included: Vec::new(),
        procs: Vec::new(),
        callers: Vec::new(),
        checks: Vec::new(),
        file: prog.root.as_str().into(),
        builtins: Env::default(),
        bound: &prog.bound,
        depth: 0,
        steps: 0,
    };
    let env = Env::table(b.env);
    it.builtins = env.clone();
    it.run_files(env).map_err(|d| *d)?;
    let own_orders = it.order_made && !it.co_bound;
    Ok(Compiled { checks: it.checks, primaries: it.primaries, own_orders })
}

/// The checks of [`compile_model`] alone: enough to measure or inspect a model, not to
/// count executions (the choices of `with x from S` are dropped).
pub fn run_model(prog: &Program, lg: &mut Logic, b: Builtins, variants: &[String]) -> Result<Vec<CheckOut>, Diag> {
    compile_model(prog, lg, b, variants).map(|c| c.checks)
}
