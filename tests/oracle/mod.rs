//! A brute-force oracle for litmus tests, independent of the SAT engine.
//!
//! It shares only the front end with litsat (the litmus parser, [`query::prepare_until`] for the
//! event structure, [`query::observed`] for the places of a state, and the cat parser's
//! AST). Everything else is done concretely and naively:
//!
//! 1. every candidate is enumerated: each choice (a store-conditional's success, a
//!    try-lock's or is-locked test's outcome) is made where it is reached and is 0
//!    elsewhere; each read of herd's R picks any write of W that may share its location
//!    (rf; lock events take no part in the built-in rf); then, once values fix which
//!    events happen and where computed addresses point, each location's writes that happen
//!    take every total order with the initial write first (co, over W and the writes of
//!    lock acquisitions, LKW, as herd's built-in co). A read that does not happen reads
//!    from its first candidate, so each candidate is enumerated once;
//! 2. herd's candidate generation rules apply: a read reads a write that happens at its
//!    location, not a later write of its own instruction, and co extends the coherence the
//!    test observes (cos-ok-opt.cat's `pco`, which herd computes by default);
//! 3. the model's statements (the stdlib, the bell, the model, with the cfg's variants) are
//!    evaluated on the candidate with bit-matrix relations over the events that happen; a
//!    failing non-flag check rejects it. FW holds the co-last writes of the locations a
//!    state shows only, as herd chooses final writes only there;
//! 4. values are computed by following rf through the value expressions; a read on (or
//!    after) an rf cycle of plain copies holds herd's unsolved value (`Value::Sym`), and a
//!    candidate that computes with one, branches on one or goes through one as an address
//!    is dropped ([`Answer::unsolved`]), as herd drops candidates whose equations stay
//!    unsolved; a candidate whose values cannot be determined otherwise (a cycle through
//!    rf and arithmetic) is not counted and is reported in [`Answer::undetermined`];
//! 5. the final state is formed, `filter` applied and the condition's proposition counted.
//!
//! A model that says `catdep` (herd's current `aarch64.cat`) gets the event structure with
//! register events, as herd hands them to such a model; the names over them (`Rreg`,
//! `Wreg`, the ports `ADDR` and `DATA`, the predicated commits `PRED`, which are in `B`
//! but not `BCC`, `loc` relating a thread's events on one register, and `iico_data`,
//! `iico_ctrl`, `iico_order` between events that happen) are computed here from the
//! events' fields. The evaluator follows herd's interpreter where that chain depends on
//! it: a `let` is lazy (an error waits for a use of the name), a sequence stops at an
//! empty operand, a file included again runs again, variant names match in any case, and
//! a failing `assert` is an error for the whole test ([`Refusal::Assert`]).
//!
//! herd's C front end (events of kernel macros, lock events, SRCU markers) comes with the
//! event structure; the names a model sees for them (R and W without lock events, the lock
//! sets, `loc` over every event with a location, `same-instance`, capitalised tag sets)
//! are computed here, from the events alone.
//!
//! Under herd's `-variant vmsa` (page tables), the `vmsa` module gives the model the
//! page-table sets from the values the accesses at entries read or write in the candidate,
//! `inv-domain`, `PTEtoPA` and `same-low-order-bits`, and applies `same-oa` and
//! `at-least-one-writable`; a translation-table walk's read is in `NExp`, outside the
//! observed coherence; a thread's fault register shows as herd shows a fault.

#![allow(dead_code)]

mod mixed;
mod vmsa;

use litsat::cat::Program;
use litsat::cat::ast::{Arm, ArmPat, Binding, Check, CheckKind, Cond, Expr, Op1, Op2, Pat, Stmt};
use litsat::diag::Deadline;
use litsat::events::{self, Eid, Events, Kind, LockRole, VExpr, ValId, Value};
use litsat::litmus::{Loc, Test, Val};
use litsat::query;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

/// Candidates enumerated at most, by default.
pub const DEFAULT_BUDGET: u64 = 200_000;

/// Events are bits of a `u64`.
const MAX_EVENTS: usize = 64;

/// What the oracle found for one test.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// Final states, each as `loc=val; loc=val` in [`query::observed`] order.
    pub states: BTreeSet<String>,
    /// Kept executions satisfying / falsifying the condition's proposition.
    pub pos: u64,
    pub neg: u64,
    /// Names of flags raised by some kept execution.
    pub flags: BTreeSet<String>,
    /// Candidates enumerated.
    pub candidates: u64,
    /// Candidates the model accepted (before values, filter and counting).
    pub consistent: u64,
    /// Accepted candidates whose values could not be determined (a cycle through rf and
    /// data): left out of states and counts.
    pub undetermined: u64,
    /// Candidates dropped because an access that happens goes through a value that is no
    /// address.
    pub bad_address: u64,
    /// Some accepted, kept candidate reached a cut-off (went past the unrolling bound):
    /// herd's `Loop` prefix. Such candidates are in no state and no count.
    pub looped: bool,
    /// Candidates dropped because herd's equations keep more than equalities between
    /// unsolved values (arithmetic, a branch or an address on one).
    pub unsolved: u64,
}

/// Why the oracle gives no answer.
#[derive(Clone, Debug)]
pub enum Refusal {
    /// litsat's front end (parser, ISA, event builder) rejects the test.
    Front(String),
    /// More candidates than the budget.
    TooBig(u64),
    /// The test or model uses something this oracle does not evaluate.
    Unsupported(String),
    /// An `assert` of the model fails on some candidate: herd stops the test with an
    /// error, so there is no answer to compare, only that error.
    Assert(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Front(m) => write!(f, "front end: {m}"),
            Refusal::TooBig(k) => write!(f, "too big: {k} candidates"),
            Refusal::Unsupported(m) => write!(f, "unsupported: {m}"),
            Refusal::Assert(m) => write!(f, "assertion {m} failed"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Relations as bit matrices.

type Set = u64;

fn bit(i: usize) -> u64 {
    1u64 << i
}

fn bits(mut s: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(i)
        }
    })
}

/// `rows[i]` has bit j when (i, j) is in the relation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Rel {
    rows: Vec<u64>,
}

impl Rel {
    fn empty(n: usize) -> Rel {
        Rel { rows: vec![0; n] }
    }
    fn from_fn(n: usize, f: impl Fn(usize, usize) -> bool) -> Rel {
        let mut r = Rel::empty(n);
        for i in 0..n {
            for j in 0..n {
                if f(i, j) {
                    r.rows[i] |= bit(j);
                }
            }
        }
        r
    }
    fn from_pairs(n: usize, ps: impl IntoIterator<Item = (usize, usize)>) -> Rel {
        let mut r = Rel::empty(n);
        for (i, j) in ps {
            r.rows[i] |= bit(j);
        }
        r
    }
    fn n(&self) -> usize {
        self.rows.len()
    }
    fn has(&self, i: usize, j: usize) -> bool {
        self.rows[i] & bit(j) != 0
    }
    fn zip(&self, o: &Rel, f: impl Fn(u64, u64) -> u64) -> Rel {
        Rel { rows: self.rows.iter().zip(&o.rows).map(|(a, b)| f(*a, *b)).collect() }
    }
    fn union(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a | b)
    }
    fn inter(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a & b)
    }
    fn diff(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a & !b)
    }
    fn seq(&self, o: &Rel) -> Rel {
        Rel { rows: self.rows.iter().map(|&row| bits(row).fold(0, |acc, k| acc | o.rows[k])).collect() }
    }
    fn inverse(&self) -> Rel {
        let n = self.n();
        let mut r = Rel::empty(n);
        for i in 0..n {
            for j in bits(self.rows[i]) {
                r.rows[j] |= bit(i);
            }
        }
        r
    }
    /// Transitive closure (Warshall).
    fn plus(&self) -> Rel {
        let mut r = self.clone();
        let n = r.n();
        for k in 0..n {
            let rk = r.rows[k];
            for i in 0..n {
                if r.rows[i] & bit(k) != 0 {
                    r.rows[i] |= rk;
                }
            }
        }
        r
    }
    /// `r ∪ id` on the events in `all`.
    fn with_id(&self, all: Set) -> Rel {
        let mut r = self.clone();
        for i in bits(all) {
            r.rows[i] |= bit(i);
        }
        r
    }
    /// The pairs of `all × all` not in `r`.
    fn complement(&self, all: Set) -> Rel {
        Rel { rows: (0..self.n()).map(|i| if all & bit(i) != 0 { !self.rows[i] & all } else { 0 }).collect() }
    }
    fn id_on(n: usize, s: Set) -> Rel {
        let mut r = Rel::empty(n);
        for i in bits(s) {
            r.rows[i] |= bit(i);
        }
        r
    }
    fn product(n: usize, a: Set, b: Set) -> Rel {
        let mut r = Rel::empty(n);
        for i in bits(a) {
            r.rows[i] = b;
        }
        r
    }
    fn domain(&self) -> Set {
        self.rows.iter().enumerate().filter(|(_, r)| **r != 0).fold(0, |acc, (i, _)| acc | bit(i))
    }
    fn range(&self) -> Set {
        self.rows.iter().fold(0, |acc, r| acc | r)
    }
    fn is_empty(&self) -> bool {
        self.rows.iter().all(|r| *r == 0)
    }
    fn irreflexive(&self) -> bool {
        (0..self.n()).all(|i| !self.has(i, i))
    }
    fn acyclic(&self) -> bool {
        self.plus().irreflexive()
    }
    fn subset(&self, o: &Rel) -> bool {
        self.rows.iter().zip(&o.rows).all(|(a, b)| a & !b == 0)
    }
}

// ---------------------------------------------------------------------------------------
// Values, environments and evaluation errors.

#[derive(Clone)]
enum V<'a> {
    /// `0`, `{}`: empty, of whatever type is wanted.
    Empty,
    Set(Set),
    Rel(Rc<Rel>),
    Tag(String),
    Str(String),
    Tuple(Vec<V<'a>>),
    /// A set of non-event values (tags, relations, event sets).
    Coll(Vec<V<'a>>),
    /// An event, taken out of an event set by `match`.
    Event(usize),
    /// A pair of events, taken out of a relation by `match`.
    Pair(usize, usize),
    Func(Rc<Closure<'a>>),
    Proc(Rc<Procedure<'a>>),
    /// A primitive: `domain`, `range`, or one of herd's that this oracle only names.
    Prim(&'static str),
    /// A predefined name of herd's whose meaning the oracle does not model: any use is
    /// unsupported.
    Opaque(&'static str),
    /// A `let` whose evaluation failed: herd's `let` is lazy, so the error is raised
    /// only where the name is used.
    Failed(Rc<str>),
}

struct Closure<'a> {
    pat: &'a Pat,
    body: &'a Expr,
    env: Env<'a>,
    /// A `let rec` group of functions: rebound around every call.
    recs: Option<&'a [Binding]>,
}

struct Procedure<'a> {
    pat: &'a Pat,
    body: &'a [Stmt],
    env: Env<'a>,
    file: String,
}

struct Node<'a> {
    name: Cow<'a, str>,
    val: V<'a>,
    next: Option<Rc<Node<'a>>>,
}

/// Model bindings (a persistent list) over the fixed predefined names.
#[derive(Clone)]
struct Env<'a> {
    top: Option<Rc<Node<'a>>>,
    base: Rc<HashMap<String, V<'a>>>,
}

impl<'a> Env<'a> {
    fn bind(&self, name: &'a str, val: V<'a>) -> Env<'a> {
        self.bind_cow(Cow::Borrowed(name), val)
    }
    fn bind_cow(&self, name: Cow<'a, str>, val: V<'a>) -> Env<'a> {
        Env { top: Some(Rc::new(Node { name, val, next: self.top.clone() })), base: self.base.clone() }
    }
    fn get(&self, name: &str) -> Option<&V<'a>> {
        let mut cur = &self.top;
        while let Some(n) = cur {
            if n.name == name {
                return Some(&n.val);
            }
            cur = &n.next;
        }
        self.base.get(name)
    }
}

enum Stop {
    /// An evaluation error: `try` catches it.
    Fail(String),
    /// Beyond this oracle: the whole test is refused.
    Unsupported(String),
    /// A check failed: the candidate is no execution.
    Reject,
    /// An `assert` failed: herd stops the test with an error.
    Assert(String),
    /// The model needs a value the candidate does not determine (a cycle through rf and
    /// data): the candidate is undetermined.
    NoValue,
}

type R<T> = Result<T, Stop>;

fn fail<T>(m: impl Into<String>) -> R<T> {
    Err(Stop::Fail(m.into()))
}

fn unsupported<T>(m: impl Into<String>) -> R<T> {
    Err(Stop::Unsupported(m.into()))
}

/// herd's primitives other than `domain` and `range`: bound so that herd's stdlib can
/// mention them, refused when applied.
const OTHER_PRIMS: &[&str] = &[
    "classes-loc",
    "classes",
    "linearisations",
    "lift",
    "delift",
    "deliftinter",
    "bisimulation",
    "fromto",
    "same-oa",
    "at-least-one-writable",
    "tag2scope",
    "tag2level",
    "tag2events",
    "tag2fenced",
    "loc2events",
    "fail",
    "as_transitive",
];

/// herd predefines these; this oracle does not know what they hold.
const OPAQUE: &[&str] = &["pco"];

/// The sets of register events and commits, bound by kind (their tags are not sets of
/// their own).
const REGISTER_SETS: &[&str] = &["ADDR", "DATA", "PRED"];

// ---------------------------------------------------------------------------------------
// The evaluator.

struct Eval<'a> {
    prog: &'a Program,
    /// The variants the test runs under: the cfg's, then its own metadata's
    /// (`Variant=`, `CacheType=`), as herd adds them up.
    variants: &'a [String],
    n: usize,
    all: u64,
    w: Set,
    /// The candidate co, and the distinct same-location write pairs it orders.
    co: Rc<Rel>,
    ww_loc: Rc<Rel>,
    /// Same-location pairs, for `classes-loc`.
    loc: Rc<Rel>,
    included: HashSet<String>,
    flags: BTreeSet<String>,
    file: String,
    /// The value of each event that happens (`None` where it cannot be computed).
    values: Rc<Vec<Option<Value>>>,
    /// `with x from S`: the element to take at each `with` met so far in this run, and how
    /// many elements each offered.
    script: Vec<usize>,
    offered: Vec<usize>,
}

impl<'a> Eval<'a> {
    fn as_set(&self, v: &V<'a>) -> R<Set> {
        match v {
            V::Set(s) => Ok(*s),
            V::Empty => Ok(0),
            V::Event(e) => Ok(bit(*e)),
            V::Opaque(x) => unsupported(format!("predefined name '{x}'")),
            _ => fail("type error: expected a set of events"),
        }
    }

    fn as_rel(&self, v: &V<'a>) -> R<Rc<Rel>> {
        match v {
            V::Rel(r) => Ok(r.clone()),
            V::Empty => Ok(Rc::new(Rel::empty(self.n))),
            V::Pair(i, j) => Ok(Rc::new(Rel::from_pairs(self.n, [(*i, *j)]))),
            V::Opaque(x) => unsupported(format!("predefined name '{x}'")),
            _ => fail("type error: expected a relation"),
        }
    }

    fn rel(r: Rel) -> V<'a> {
        V::Rel(Rc::new(r))
    }

    fn eval(&mut self, env: &Env<'a>, e: &'a Expr) -> R<V<'a>> {
        match e {
            Expr::Var(x, _) => match env.get(x) {
                Some(V::Failed(m)) => fail(m.to_string()),
                Some(v) => Ok(v.clone()),
                None => fail(format!("unbound name '{x}'")),
            },
            Expr::Empty => Ok(V::Empty),
            Expr::Tag(t) => Ok(V::Tag(t.to_string())),
            Expr::Str(s) => Ok(V::Str(s.clone())),
            Expr::Op1(op, a) => {
                let v = self.eval(env, a)?;
                self.op1(*op, v)
            }
            Expr::Op2(op, a, b, _) => {
                let va = self.eval(env, a)?;
                // herd evaluates a sequence from the left and stops at an empty operand:
                // what follows it is not evaluated (and may name what is not bound).
                if *op == Op2::Seq {
                    match &va {
                        V::Empty => return Ok(V::Empty),
                        V::Rel(r) if r.is_empty() => return Ok(va),
                        _ => {}
                    }
                }
                let vb = self.eval(env, b)?;
                self.op2(*op, va, vb)
            }
            Expr::IdSet(a) => {
                let v = self.eval(env, a)?;
                let s = self.as_set(&v)?;
                Ok(Self::rel(Rel::id_on(self.n, s)))
            }
            Expr::SetLit(items) => {
                if items.is_empty() {
                    return Ok(V::Empty);
                }
                let mut vs = Vec::new();
                for it in items {
                    vs.push(self.eval(env, it)?);
                }
                if vs.iter().all(|v| matches!(v, V::Event(_))) {
                    return Ok(V::Set(
                        vs.iter().map(|v| if let V::Event(e) = v { bit(*e) } else { 0 }).fold(0, |a, b| a | b),
                    ));
                }
                if vs.iter().all(|v| matches!(v, V::Pair(..))) {
                    let ps = vs.iter().filter_map(|v| if let V::Pair(i, j) = v { Some((*i, *j)) } else { None });
                    return Ok(Self::rel(Rel::from_pairs(self.n, ps)));
                }
                let mut out = Vec::new();
                for v in vs {
                    push_unique(&mut out, v);
                }
                Ok(V::Coll(out))
            }
            Expr::Tuple(items) => {
                let mut vs = Vec::new();
                for it in items {
                    vs.push(self.eval(env, it)?);
                }
                Ok(V::Tuple(vs))
            }
            Expr::App(f, a, _) => {
                let fv = self.eval(env, f)?;
                let av = self.eval(env, a)?;
                self.apply(fv, av)
            }
            Expr::Fun(p, body) => Ok(V::Func(Rc::new(Closure { pat: p, body, env: env.clone(), recs: None }))),
            Expr::Let(rec, bs, body) => {
                let env2 = self.bind_all(env, *rec, bs)?;
                self.eval(&env2, body)
            }
            Expr::Try(a, b) => match self.eval(env, a) {
                Err(Stop::Fail(_)) => self.eval(env, b),
                r => r,
            },
            Expr::If(c, a, b) => {
                if self.cond(env, c)? {
                    self.eval(env, a)
                } else {
                    self.eval(env, b)
                }
            }
            Expr::Match(e, arms, _) => {
                let v = self.eval(env, e)?;
                self.do_match(env, v, arms)
            }
        }
    }

    fn do_match(&mut self, env: &Env<'a>, v: V<'a>, arms: &'a [Arm]) -> R<V<'a>> {
        // A set is taken apart into its first element and the others: the least event or
        // pair of an event set or relation, the first value of a set of values.
        let split: Option<(V<'a>, V<'a>)> = match &v {
            V::Set(s) if *s != 0 => {
                let e = s.trailing_zeros() as usize;
                Some((V::Event(e), V::Set(s & !bit(e))))
            }
            V::Rel(r) if !r.is_empty() => {
                let i = r.rows.iter().position(|row| *row != 0).expect("a non-empty row");
                let j = r.rows[i].trailing_zeros() as usize;
                let mut rest = (**r).clone();
                rest.rows[i] &= !bit(j);
                Some((V::Pair(i, j), Self::rel(rest)))
            }
            V::Coll(xs) if !xs.is_empty() => {
                Some((xs[0].clone(), if xs.len() == 1 { V::Empty } else { V::Coll(xs[1..].to_vec()) }))
            }
            _ => None,
        };
        let empty = match &v {
            V::Empty => true,
            V::Set(s) => *s == 0,
            V::Rel(r) => r.is_empty(),
            V::Coll(xs) => xs.is_empty(),
            _ => false,
        };
        for arm in arms {
            match (&arm.pat, &v) {
                (ArmPat::Wild, _) => return self.eval(env, &arm.body),
                (ArmPat::Tag(t), V::Tag(u)) if **t == **u => return self.eval(env, &arm.body),
                (ArmPat::EmptySet, _) if empty => return self.eval(env, &arm.body),
                (ArmPat::Cons(x, rest), _) if split.is_some() => {
                    let (first, others) = split.clone().expect("checked");
                    let env2 = env.bind(x, first).bind(rest, others);
                    return self.eval(&env2, &arm.body);
                }
                _ => {}
            }
        }
        fail("no `match` arm applies")
    }

    fn cond(&mut self, env: &Env<'a>, c: &'a Cond) -> R<bool> {
        Ok(match c {
            // The variants the test runs under, named in any case (herd ignores case here).
            // and by herd's aliases (`self` is `ifetch`).
            Cond::Variant(v) => litsat::variant::holds(self.variants, v),
            Cond::Not(c) => !self.cond(env, c)?,
            Cond::And(a, b) => self.cond(env, a)? && self.cond(env, b)?,
            Cond::Or(a, b) => self.cond(env, a)? || self.cond(env, b)?,
            Cond::Eq(a, b) | Cond::Subset(a, b) => {
                let va = self.eval(env, a)?;
                let vb = self.eval(env, b)?;
                let eq = matches!(c, Cond::Eq(..));
                match (&va, &vb) {
                    (V::Tag(t), V::Tag(u)) if eq => t == u,
                    (V::Set(_), _) | (_, V::Set(_)) => {
                        let (x, y) = (self.as_set(&va)?, self.as_set(&vb)?);
                        if eq { x == y } else { x & !y == 0 }
                    }
                    (V::Rel(_), _) | (_, V::Rel(_)) | (V::Empty, V::Empty) => {
                        let (x, y) = (self.as_rel(&va)?, self.as_rel(&vb)?);
                        if eq { x == y } else { x.subset(&y) }
                    }
                    _ => return unsupported("condition on these values"),
                }
            }
            Cond::In(a, b) => {
                let va = self.eval(env, a)?;
                let vb = self.eval(env, b)?;
                match (va, vb) {
                    (V::Tag(t), V::Coll(xs)) => xs.iter().any(|x| matches!(x, V::Tag(u) if *u == t)),
                    (V::Tag(_) | V::Event(_) | V::Pair(..), V::Empty) => false,
                    (V::Event(e), V::Set(s)) => s & bit(e) != 0,
                    (V::Pair(i, j), V::Rel(r)) => r.has(i, j),
                    _ => return unsupported("`in` on these values"),
                }
            }
        })
    }

    fn bind_pat(&self, env: &Env<'a>, p: &'a Pat, v: V<'a>) -> R<Env<'a>> {
        match p {
            Pat::Var(x) => Ok(env.bind(x, v)),
            Pat::Tuple(xs) => match v {
                V::Tuple(vs) if vs.len() == xs.len() => {
                    let mut e = env.clone();
                    for (x, v) in xs.iter().zip(vs) {
                        e = e.bind(x, v);
                    }
                    Ok(e)
                }
                v if xs.len() == 1 => Ok(env.bind(&xs[0], v)),
                _ => fail(format!("expected a tuple of {} values", xs.len())),
            },
        }
    }

    fn apply(&mut self, f: V<'a>, a: V<'a>) -> R<V<'a>> {
        match f {
            V::Func(c) => {
                let mut env = c.env.clone();
                if let Some(recs) = c.recs {
                    env = rec_closures(&env, recs);
                }
                let env = self.bind_pat(&env, c.pat, a)?;
                self.eval(&env, c.body)
            }
            V::Prim("domain") => {
                let r = self.as_rel(&a)?;
                Ok(V::Set(r.domain()))
            }
            V::Prim("range") => {
                let r = self.as_rel(&a)?;
                Ok(V::Set(r.range()))
            }
            V::Prim("different-values") => {
                let r = self.as_rel(&a)?;
                let mut out = Rel::empty(self.n);
                for i in 0..self.n {
                    for j in bits(r.rows[i]) {
                        match (self.values[i], self.values[j]) {
                            (Some(x), Some(y)) if x != y => out.rows[i] |= bit(j),
                            (Some(_), Some(_)) => {}
                            _ => return Err(Stop::NoValue),
                        }
                    }
                }
                Ok(Self::rel(out))
            }
            V::Prim("classes-loc") => {
                // The events of a set, grouped by location.
                let s = self.as_set(&a)?;
                let mut classes: Vec<Set> = Vec::new();
                let mut seen: Set = 0;
                for i in bits(s) {
                    if seen & bit(i) == 0 {
                        let class = bits(s).filter(|&j| self.loc.has(i, j)).fold(0, |c, j| c | bit(j)) | bit(i);
                        seen |= class;
                        classes.push(class);
                    }
                }
                Ok(V::Coll(classes.into_iter().map(V::Set).collect()))
            }
            V::Prim("linearisations") => {
                // Every strict total order of a set's events that contains the relation
                // between them.
                let V::Tuple(args) = a else { return fail("linearisations takes a set and a relation") };
                let [s, r] = &args[..] else { return fail("linearisations takes a set and a relation") };
                let (s, r) = (self.as_set(s)?, self.as_rel(r)?);
                let members: Vec<Eid> = bits(s).collect();
                let mut out = Vec::new();
                for order in permutations(&members) {
                    let mut lin = Rel::empty(self.n);
                    for (k, &a) in order.iter().enumerate() {
                        for &b in &order[k + 1..] {
                            lin.rows[a] |= bit(b);
                        }
                    }
                    let inside = Rel::id_on(self.n, s).seq(&r).seq(&Rel::id_on(self.n, s));
                    if inside.subset(&lin) {
                        out.push(Self::rel(lin));
                    }
                }
                Ok(V::Coll(out))
            }
            // herd's page-table filters keep some pairs of a relation: of none, none.
            V::Prim("same-oa" | "at-least-one-writable") if self.as_rel(&a)?.is_empty() => Ok(V::Empty),
            V::Prim(p @ ("same-oa" | "at-least-one-writable")) => {
                let r = self.as_rel(&a)?;
                Ok(Self::rel(vmsa::entry_pairs(&r, &self.values[..], p == "same-oa")))
            }
            V::Prim(p) => unsupported(format!("primitive '{p}'")),
            V::Opaque(x) => unsupported(format!("predefined name '{x}'")),
            _ => fail("applying something that is not a function"),
        }
    }

    fn op1(&mut self, op: Op1, v: V<'a>) -> R<V<'a>> {
        if let V::Opaque(x) = v {
            return unsupported(format!("predefined name '{x}'"));
        }
        match (op, &v) {
            (Op1::Inv, V::Pair(i, j)) => return Ok(V::Pair(*j, *i)),
            (Op1::Comp, V::Set(s)) => return Ok(V::Set(!s & self.all)),
            (Op1::Comp, V::Empty) => return unsupported("complement of an untyped empty value"),
            (_, V::Set(_)) => return fail("type error: relation operator on a set"),
            _ => {}
        }
        let r = self.as_rel(&v)?;
        Ok(Self::rel(match op {
            Op1::Inv => r.inverse(),
            Op1::Plus => r.plus(),
            Op1::Star => r.plus().with_id(self.all),
            Op1::Opt => r.with_id(self.all),
            Op1::Comp => r.complement(self.all),
        }))
    }

    fn op2(&mut self, op: Op2, a: V<'a>, b: V<'a>) -> R<V<'a>> {
        for v in [&a, &b] {
            if let V::Opaque(x) = v {
                return unsupported(format!("predefined name '{x}'"));
            }
        }
        match op {
            Op2::Add => match (a, b) {
                (V::Event(e), V::Empty) => Ok(V::Set(bit(e))),
                (V::Event(e), V::Set(s)) => Ok(V::Set(s | bit(e))),
                (V::Pair(i, j), V::Empty) => Ok(Self::rel(Rel::from_pairs(self.n, [(i, j)]))),
                (V::Pair(i, j), V::Rel(r)) => {
                    let mut r = (*r).clone();
                    r.rows[i] |= bit(j);
                    Ok(Self::rel(r))
                }
                (a, V::Coll(mut xs)) => {
                    if !xs.iter().any(|x| same_value(x, &a)) {
                        xs.insert(0, a);
                    }
                    Ok(V::Coll(xs))
                }
                (a, V::Empty) => Ok(V::Coll(vec![a])),
                _ => fail("type error: `++`"),
            },
            Op2::Prod => {
                let (x, y) = (self.as_set(&a)?, self.as_set(&b)?);
                Ok(Self::rel(Rel::product(self.n, x, y)))
            }
            Op2::Seq => {
                if matches!(a, V::Set(_)) || matches!(b, V::Set(_)) {
                    return fail("type error: `;` on a set");
                }
                let (x, y) = (self.as_rel(&a)?, self.as_rel(&b)?);
                Ok(Self::rel(x.seq(&y)))
            }
            Op2::Union | Op2::Inter | Op2::Diff => {
                let is_set = |v: &V| matches!(v, V::Set(_));
                let is_rel = |v: &V| matches!(v, V::Rel(_));
                let is_coll = |v: &V| matches!(v, V::Coll(_));
                if (is_set(&a) || is_set(&b)) && !is_rel(&a) && !is_rel(&b) {
                    let (x, y) = (self.as_set(&a)?, self.as_set(&b)?);
                    return Ok(V::Set(match op {
                        Op2::Union => x | y,
                        Op2::Inter => x & y,
                        _ => x & !y,
                    }));
                }
                if (is_rel(&a) || is_rel(&b)) && !is_set(&a) && !is_set(&b) {
                    let (x, y) = (self.as_rel(&a)?, self.as_rel(&b)?);
                    return Ok(Self::rel(match op {
                        Op2::Union => x.union(&y),
                        Op2::Inter => x.inter(&y),
                        _ => x.diff(&y),
                    }));
                }
                if is_coll(&a) || is_coll(&b) {
                    let xs = coll_items(&a)?;
                    let ys = coll_items(&b)?;
                    let mut out = Vec::new();
                    for x in &xs {
                        let in_y = ys.iter().any(|y| same_value(x, y));
                        let keep = match op {
                            Op2::Union => true,
                            Op2::Inter => in_y,
                            _ => !in_y,
                        };
                        if keep {
                            push_unique(&mut out, x.clone());
                        }
                    }
                    if op == Op2::Union {
                        for y in ys {
                            push_unique(&mut out, y);
                        }
                    }
                    return Ok(if out.is_empty() { V::Empty } else { V::Coll(out) });
                }
                if matches!((&a, &b), (V::Empty, V::Empty)) {
                    return Ok(V::Empty);
                }
                fail("type error: mixing sets and relations")
            }
        }
    }

    fn bind_all(&mut self, env: &Env<'a>, rec: bool, bs: &'a [Binding]) -> R<Env<'a>> {
        let is_fun = |b: &Binding| b.params.is_some() || matches!(*b.body, Expr::Fun(..));
        if rec {
            if bs.iter().all(is_fun) {
                return Ok(rec_closures(env, bs));
            }
            return self.fixpoint(env, bs);
        }
        let mut out = env.clone();
        for b in bs {
            let v = match &b.params {
                Some(p) => V::Func(Rc::new(Closure { pat: p, body: &b.body, env: env.clone(), recs: None })),
                // Lazy, as herd's: an error waits for a use of the name.
                None => match self.eval(env, &b.body) {
                    Err(Stop::Fail(m)) => V::Failed(m.into()),
                    r => r?,
                },
            };
            out = out.bind(&b.name, v);
        }
        Ok(out)
    }

    /// `let rec` over values, as herd iterates: all values start empty; a step evaluates
    /// the definitions in order (each sees the new values of those before it, the group's
    /// functions see the old values); the first step whose new values are each within the
    /// old ones ends it, with the new values.
    fn fixpoint(&mut self, env: &Env<'a>, bs: &'a [Binding]) -> R<Env<'a>> {
        let is_fun = |b: &Binding| b.params.is_some() || matches!(*b.body, Expr::Fun(..));
        let vals: Vec<&'a Binding> = bs.iter().filter(|b| !is_fun(b)).collect();
        let bind = |vs: &[V<'a>]| {
            let mut e = env.clone();
            for (b, v) in vals.iter().zip(vs) {
                e = e.bind(&b.name, v.clone());
            }
            rec_closures(&e, bs)
        };
        let mut cur: Vec<V<'a>> = vals.iter().map(|_| V::Empty).collect();
        for _ in 0..10_000 {
            let mut e = bind(&cur);
            let mut next = Vec::new();
            for b in &vals {
                let v = self.eval(&e, &b.body)?;
                e = e.bind(&b.name, v.clone());
                next.push(v);
            }
            let mut stop = true;
            for (n, c) in next.iter().zip(&cur) {
                stop &= self.within(n, c)?;
            }
            cur = next;
            if stop {
                return Ok(bind(&cur));
            }
        }
        unsupported("`let rec` that does not stop")
    }

    /// `a ⊆ b` on values of one type.
    fn within(&self, a: &V<'a>, b: &V<'a>) -> R<bool> {
        Ok(match (a, b) {
            (V::Empty, _) => true,
            (V::Set(_), _) | (_, V::Set(_)) => self.as_set(a)? & !self.as_set(b)? == 0,
            (V::Rel(_), _) | (_, V::Rel(_)) => self.as_rel(a)?.subset(&*self.as_rel(b)?),
            (V::Coll(_), _) => {
                let ys = coll_items(b)?;
                coll_items(a)?.iter().all(|x| ys.iter().any(|y| same_value(x, y)))
            }
            _ => return unsupported("`let rec` over these values"),
        })
    }

    fn stmts(&mut self, env: Env<'a>, ss: &'a [Stmt]) -> R<Env<'a>> {
        let mut env = env;
        for s in ss {
            env = self.stmt(env, s)?;
        }
        Ok(env)
    }

    fn stmt(&mut self, env: Env<'a>, s: &'a Stmt) -> R<Env<'a>> {
        match s {
            Stmt::Let(rec, bs) => self.bind_all(&env, *rec, bs),
            Stmt::Check(c) => {
                self.check(&env, c)?;
                Ok(env)
            }
            Stmt::Include(name, _) => {
                let prog: &'a Program = self.prog;
                let Some(target) = prog.includes.get(&(self.file.clone(), name.clone())) else {
                    return unsupported(format!("include \"{name}\" not resolved"));
                };
                self.run_file(env, target)
            }
            Stmt::Show | Stmt::Instructions => Ok(env),
            Stmt::Procedure(name, p, body) => {
                let proc = V::Proc(Rc::new(Procedure { pat: p, body, env: env.clone(), file: self.file.clone() }));
                Ok(env.bind(name, proc))
            }
            Stmt::Call(name, arg, _, _) => {
                let Some(V::Proc(p)) = env.get(name).cloned() else {
                    return unsupported(format!("call of unknown procedure '{name}'"));
                };
                let a = self.eval(&env, arg)?;
                let inner = self.bind_pat(&p.env, p.pat, a)?;
                let saved = std::mem::replace(&mut self.file, p.file.clone());
                let r = self.stmts(inner, p.body);
                self.file = saved;
                r?;
                Ok(env)
            }
            Stmt::Forall(x, set, body, _) => {
                let items = match self.eval(&env, set)? {
                    V::Empty => Vec::new(),
                    V::Coll(xs) => xs,
                    v @ V::Tag(_) => vec![v],
                    _ => return unsupported("`forall` over events"),
                };
                for it in items {
                    self.stmts(env.bind(x, it), body)?;
                }
                Ok(env)
            }
            Stmt::With(x, e, _) => self.with(env, x, e),
            Stmt::IfVariant(c, a, b) => {
                if self.cond(&env, c)? {
                    self.stmts(env, a)
                } else {
                    self.stmts(env, b)
                }
            }
            Stmt::Enum(name, tags) => {
                // Each tag names the set of events annotated with it (`'rcu-lock` is also
                // `Rcu-lock`): empty when no event carries it.
                let mut env = env.bind(name, V::Coll(tags.iter().map(|t| V::Tag(t.to_string())).collect()));
                for t in tags {
                    for set in [t.to_string(), capitalise(t)] {
                        if env.get(&set).is_none() {
                            env = env.bind_cow(Cow::Owned(set), V::Set(0));
                        }
                    }
                }
                Ok(env)
            }
            Stmt::Unsupported(kw, _) => unsupported(format!("construct `{kw}`")),
        }
    }

    /// `with x from S`: the element this run's script picks (the first one past the
    /// script); each element is run in turn by [`run_choices`]. An empty S rejects.
    fn with(&mut self, env: Env<'a>, x: &'a str, e: &'a Expr) -> R<Env<'a>> {
        if let Some(env) = self.with_co(&env, x, e)? {
            return Ok(env);
        }
        let items = match self.eval(&env, e)? {
            V::Empty => return Err(Stop::Reject),
            V::Coll(xs) => {
                let mut out = Vec::new();
                for v in xs {
                    push_unique(&mut out, v);
                }
                out
            }
            _ => return fail("`with x from S` wants a set of values"),
        };
        let k = self.offered.len();
        if self.script.len() == k {
            self.script.push(0);
        }
        self.offered.push(items.len());
        Ok(env.bind(x, items[self.script[k]].clone()))
    }

    /// `with co from generate_cos(base)` (or `generate_orders(W, base)`): the candidate's co,
    /// provided it contains every base pair of distinct same-location writes.
    fn with_co(&mut self, env: &Env<'a>, x: &'a str, e: &'a Expr) -> R<Option<Env<'a>>> {
        let Expr::App(f, arg, _) = e else { return Ok(None) };
        let Expr::Var(fname, _) = &**f else { return Ok(None) };
        if x != "co" || (fname != "generate_cos" && fname != "generate_orders") {
            return Ok(None);
        }
        let base = match self.eval(env, arg)? {
            V::Tuple(mut vs) if fname == "generate_orders" && vs.len() == 2 => {
                let s = self.as_set(&vs[0])?;
                if s != self.w {
                    return unsupported("generate_orders over a set other than W");
                }
                vs.remove(1)
            }
            _ if fname == "generate_orders" => return fail("generate_orders wants a pair"),
            v => v,
        };
        let base = self.as_rel(&base)?;
        if !base.inter(&self.ww_loc).subset(&self.co) {
            return Err(Stop::Reject);
        }
        Ok(Some(env.bind(x, V::Rel(self.co.clone()))))
    }

    fn check(&mut self, env: &Env<'a>, c: &'a Check) -> R<()> {
        let v = self.eval(env, &c.expr)?;
        let holds = match c.kind {
            CheckKind::Acyclic => self.as_rel(&v)?.acyclic(),
            CheckKind::Irreflexive => self.as_rel(&v)?.irreflexive(),
            CheckKind::Empty => match &v {
                V::Set(s) => *s == 0,
                V::Coll(xs) => xs.is_empty(),
                _ => self.as_rel(&v)?.is_empty(),
            },
        };
        let ok = holds != c.negated;
        if c.assert {
            let name = c.name.as_deref().map_or_else(|| format!("{:?}", c.kind), str::to_string);
            return if ok { Ok(()) } else { Err(Stop::Assert(name)) };
        }
        if c.flag {
            // herd records a flag when its test holds (and only a named one).
            if ok && let Some(name) = &c.name {
                self.flags.insert(name.to_string());
            }
            Ok(())
        } else if ok {
            Ok(())
        } else {
            Err(Stop::Reject)
        }
    }

    /// Runs a model file. As herd does, a file included a second time runs again; one
    /// that includes itself, directly or not, is refused.
    fn run_file(&mut self, env: Env<'a>, path: &str) -> R<Env<'a>> {
        if !self.included.insert(path.to_string()) {
            return unsupported(format!("{path} includes itself"));
        }
        let prog: &'a Program = self.prog;
        let Some(f) = prog.file(path) else {
            return unsupported(format!("model file {path} not loaded"));
        };
        let saved = std::mem::replace(&mut self.file, path.to_string());
        let r = self.stmts(env, &f.model.stmts);
        self.file = saved;
        self.included.remove(path);
        r
    }
}

fn rec_closures<'a>(env: &Env<'a>, recs: &'a [Binding]) -> Env<'a> {
    let mut e = env.clone();
    for b in recs {
        let (pat, body) = match (&b.params, &*b.body) {
            (Some(p), body) => (p, body),
            (None, Expr::Fun(p, body)) => (p, &**body),
            (None, _) => continue,
        };
        e = e.bind(&b.name, V::Func(Rc::new(Closure { pat, body, env: env.clone(), recs: Some(recs) })));
    }
    e
}

fn coll_items<'a>(v: &V<'a>) -> R<Vec<V<'a>>> {
    match v {
        V::Coll(xs) => Ok(xs.clone()),
        V::Empty => Ok(Vec::new()),
        _ => fail("type error: mixing tag sets and event sets"),
    }
}

fn push_unique<'a>(xs: &mut Vec<V<'a>>, v: V<'a>) {
    if !xs.iter().any(|x| same_value(x, &v)) {
        xs.push(v);
    }
}

fn same_value(a: &V, b: &V) -> bool {
    match (a, b) {
        (V::Empty, V::Empty) => true,
        (V::Set(x), V::Set(y)) => x == y,
        (V::Rel(x), V::Rel(y)) => x == y,
        (V::Empty, V::Set(s)) | (V::Set(s), V::Empty) => *s == 0,
        (V::Empty, V::Rel(r)) | (V::Rel(r), V::Empty) => r.is_empty(),
        (V::Empty, V::Coll(xs)) | (V::Coll(xs), V::Empty) => xs.is_empty(),
        (V::Tag(x), V::Tag(y)) | (V::Str(x), V::Str(y)) => x == y,
        (V::Event(x), V::Event(y)) => x == y,
        (V::Pair(a, b), V::Pair(c, d)) => (a, b) == (c, d),
        (V::Tuple(xs), V::Tuple(ys)) => xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_value(x, y)),
        // Sets of values: the same members, in any order.
        (V::Coll(xs), V::Coll(ys)) => xs.len() == ys.len() && xs.iter().all(|x| ys.iter().any(|y| same_value(x, y))),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// Candidates.

/// `base` with the events whose conditional tags hold in this candidate (their value is
/// 1) added to those tags' sets, under both names.
fn with_conditional_tags<'a>(
    base: Rc<HashMap<String, V<'a>>>,
    ev: &Events,
    live: Set,
    vals: &mut Values,
) -> Rc<HashMap<String, V<'a>>> {
    let mut extra: Vec<(String, usize)> = Vec::new();
    let fused = fused_pairs(ev, live);
    for (i, x) in ev.events.iter().enumerate() {
        for (t, v) in &x.tags_if {
            if live & bit(i) != 0 && matches!(vals.get(*v), Ok(Value::Int(1))) {
                extra.push((t.to_string(), seen_as(i, &fused)));
            }
        }
    }
    if extra.is_empty() {
        return base;
    }
    let mut m = (*base).clone();
    for (t, i) in extra {
        for name in [capitalise(&t), t] {
            let s = match m.get(&name) {
                Some(V::Set(s)) => *s,
                _ => 0,
            };
            m.insert(name, V::Set(s | bit(i)));
        }
    }
    Rc::new(m)
}

/// `rcu-lock` → `Rcu-lock`: the set name herd gives events annotated `'rcu-lock`.
fn capitalise(t: &str) -> String {
    let mut c = t.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The predefined names that do not depend on rf and co, for the events in `live`, each
/// at the location `loc_of` gives it in this candidate (`None`: no location).
fn static_names<'a>(ev: &Events, live: Set, loc_of: &[Option<usize>]) -> HashMap<String, V<'a>> {
    let n = ev.len();
    let e = &ev.events;
    let set = |f: &dyn Fn(usize) -> bool| bits(live).filter(|&i| f(i)).fold(0u64, |a, i| a | bit(i));
    let rel = |f: &dyn Fn(usize, usize) -> bool| {
        let mut r = Rel::empty(n);
        for i in bits(live) {
            for j in bits(live) {
                if f(i, j) {
                    r.rows[i] |= bit(j);
                }
            }
        }
        r
    };
    // herd's R and W hold no lock event: lock.cat adds them to R and W itself.
    let plain_read = |i: usize| e[i].kind == Kind::Read && e[i].lock.is_none();
    let plain_write = |i: usize| e[i].kind == Kind::Write && e[i].lock.is_none();
    let mem = |i: usize| plain_read(i) || plain_write(i);
    let mut m: HashMap<String, V<'a>> = HashMap::new();
    let fused = fused_pairs(ev, live);
    let mut put_set = |name: &str, s: Set| {
        m.insert(name.to_string(), V::Set(merge_set(s, &fused)));
    };
    // herd's RISC-V atomics are one memory operation: their write is in R as well (an
    // event-structure fact the oracle shares with the engine, see `Isa::amo_is_one_operation`).
    let atomic_write = |i: usize| ev.amo_as_one && plain_write(i) && e[i].tags.iter().any(|t| t == "X");
    let reads = set(&|i| plain_read(i) || atomic_write(i));
    let writes = set(&plain_write);
    let branches = set(&|i| e[i].kind == Kind::Branch);
    let tagged = |i: usize, t: &str| e[i].tags.iter().any(|x| x == t);
    put_set("_", live);
    put_set("R", reads);
    put_set("W", writes);
    put_set("M", set(&mem));
    put_set("F", set(&|i| e[i].kind == Kind::Fence));
    put_set("IW", set(&|i| e[i].thread.is_none()));
    // herd's implicit accesses: an instruction's fetch under `-variant ifetch`, a
    // translation-table walk's read under `-variant vmsa`.
    let implicit = |i: usize| (ev.ifetch || ev.vmsa.is_some()) && tagged(i, "NExp");
    put_set("Exp", set(&|i| mem(i) && !implicit(i)));
    put_set("NExp", set(&implicit));
    let mut tags: BTreeSet<String> = ev.known_sets.iter().map(|s| s.to_string()).collect();
    for x in e {
        tags.extend(x.tags.iter().map(|t| t.to_string()));
        tags.extend(x.tags_if.iter().map(|(t, _)| t.to_string()));
    }
    // Register events (made only for a `catdep` model; otherwise these are all empty, as
    // herd hides them): reads and writes, the reads' ports, and the predicated commits,
    // which are in B but not in BCC.
    let reg_read = |i: usize| e[i].kind == Kind::RegRead;
    let pred = |i: usize| e[i].kind == Kind::Branch && tagged(i, "PRED");
    for t in REGISTER_SETS {
        tags.remove(*t);
    }
    tags.remove("NExp");
    put_set("B", branches);
    put_set("BCC", branches & !set(&pred));
    put_set("PRED", set(&pred));
    put_set("Rreg", set(&reg_read));
    put_set("Wreg", set(&|i| e[i].kind == Kind::RegWrite));
    put_set("ADDR", set(&|i| reg_read(i) && tagged(i, "ADDR")));
    put_set("DATA", set(&|i| reg_read(i) && tagged(i, "DATA")));
    // Speculation, which herd (and litsat) does not model: nothing is speculated.
    put_set("SPEC", 0);
    put_set("SPURIOUS", 0);
    // A tag names the set of events carrying it, under its own name and capitalised.
    for t in &tags {
        let s = set(&|i| e[i].tags.iter().any(|x| x == t));
        let cap = capitalise(t);
        if !tags.contains(&cap) {
            put_set(&cap, s);
        }
        put_set(t, s);
    }
    // herd's lock events, by what they are rather than by a tag.
    for (name, role) in [
        ("LKR", LockRole::Lkr),
        ("LKW", LockRole::Lkw),
        ("UL", LockRole::Ul),
        ("LF", LockRole::Lf),
        ("RL", LockRole::Rl),
        ("RU", LockRole::Ru),
    ] {
        put_set(name, set(&|i| e[i].lock == Some(role)));
    }
    let tag_set = |t: &str| set(&|i| e[i].tags.iter().any(|x| x == t));
    let (x_set, ex_set) = (tag_set("X"), tag_set("EX"));

    let same_thread = |i: usize, j: usize| e[i].thread == e[j].thread;
    let po = rel(&|i, j| ev.po_before(i, j));
    // Every event with a location: accesses, lock events, SRCU markers; and herd's
    // register events, located at their thread's register.
    let same_reg = |i: usize, j: usize| e[i].reg.is_some() && e[i].reg == e[j].reg && same_thread(i, j);
    let loc = rel(&|i, j| (loc_of[i].is_some() && loc_of[i] == loc_of[j]) || same_reg(i, j));
    let id = rel(&|i, j| i == j);
    // Events numbered 2k and 2k+1 come from one instruction (a C RMW's or lock's write
    // takes the odd slot, so that po orders it after the read).
    let same_instr = rel(&|i, j| e[i].thread.is_some() && same_thread(i, j) && e[i].instr / 2 == e[j].instr / 2);
    // herd's rmw, of two kinds: amo = [R & X]; (same-instance \ id) & loc; [W & X] and
    // lxsx = [R & EX]; po \ (po; [M & EX]; po); [W & EX].
    let amo = Rel::id_on(n, reads & x_set).seq(&same_instr.diff(&id).inter(&loc)).seq(&Rel::id_on(n, writes & x_set));
    let mex = Rel::id_on(n, set(&mem) & ex_set);
    let lxsx = Rel::id_on(n, reads & ex_set).seq(&po.diff(&po.seq(&mex).seq(&po))).seq(&Rel::id_on(n, writes & ex_set));
    let dep = |s: &BTreeSet<(Eid, Eid)>| rel(&|i, j| s.contains(&(i, j)));
    let mut put = |name: &str, r: Rel| {
        m.insert(name.to_string(), V::Rel(Rc::new(merge_rel(&r, &fused))));
    };
    put("po-loc", po.inter(&loc));
    put("po", po);
    put("loc", loc);
    put("int", rel(&same_thread));
    put("ext", rel(&|i, j| !same_thread(i, j)));
    put("id", id.clone());
    // herd's single-copy-atomic classes: each event, and the accesses of an LDXP or STXP.
    let sm = id.union(&dep(&ev.sm));
    put("si", sm.clone());
    put("sm", sm);
    put("addr", dep(&ev.addr));
    put("data", dep(&ev.data));
    put("ctrl", dep(&ev.ctrl));
    put("rmw", amo.union(&lxsx));
    put("amo", amo);
    put("lxsx", lxsx);
    put("same-instance", same_instr.clone());
    put("same-instr", same_instr);
    // The intra-instruction relations, between events that both happen.
    put("iico_data", dep(&ev.iico_data));
    put("iico_ctrl", dep(&ev.iico_ctrl));
    put("iico_order", dep(&ev.iico_order));
    m.insert("domain".into(), V::Prim("domain"));
    m.insert("range".into(), V::Prim("range"));
    m.insert("different-values".into(), V::Prim("different-values"));
    for p in OTHER_PRIMS {
        m.insert(p.to_string(), V::Prim(p));
    }
    for x in OPAQUE {
        m.insert(x.to_string(), V::Opaque(x));
    }
    m
}

/// herd's C11 read-modify-writes are one event in R and W: of each such read and write
/// pair that happens, the model sees the write alone, standing for both.
fn fused_pairs(ev: &Events, live: Set) -> Vec<(Eid, Eid)> {
    ev.one_event.iter().copied().filter(|&(_, w)| live & bit(w) != 0).collect()
}

/// Where event `i` is seen: the write of its pair for a fused read.
fn seen_as(i: Eid, fused: &[(Eid, Eid)]) -> Eid {
    fused.iter().find(|&&(r, _)| r == i).map_or(i, |&(_, w)| w)
}

fn merge_set(s: Set, fused: &[(Eid, Eid)]) -> Set {
    bits(s).fold(0, |acc, i| acc | bit(seen_as(i, fused)))
}

/// A relation as the model sees it: a fused read's pairs are its write's; a pair of the
/// read and the write of one event disappears (a loop that was there stays).
fn merge_rel(r: &Rel, fused: &[(Eid, Eid)]) -> Rel {
    if fused.is_empty() {
        return r.clone();
    }
    let mut out = Rel::empty(r.n());
    for i in 0..r.n() {
        for j in bits(r.rows[i]) {
            let (a, b) = (seen_as(i, fused), seen_as(j, fused));
            if a != b || i == j {
                out.rows[a] |= bit(b);
            }
        }
    }
    out
}

/// All orders of `xs`.
fn permutations(xs: &[Eid]) -> Vec<Vec<Eid>> {
    if xs.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for k in 0..xs.len() {
        let mut rest = xs.to_vec();
        let first = rest.remove(k);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Advances a mixed-radix counter; false when it wraps around.
fn step(counter: &mut [usize], radix: &[usize]) -> bool {
    for (c, r) in counter.iter_mut().zip(radix) {
        *c += 1;
        if *c < *r {
            return true;
        }
        *c = 0;
    }
    false
}

/// Why a value is unknown.
enum NoValue {
    /// A cycle through rf and the value expressions.
    Cycle,
    /// Arithmetic the concrete semantics leaves undefined (on an address).
    Undefined(String),
    /// Arithmetic, a branch or an address on herd's unsolved value: an equation remains,
    /// and herd drops the candidate.
    Unsolved,
}

/// Concrete values of one candidate, computed on demand.
struct Values<'e> {
    ev: &'e Events,
    /// The write each read reads from.
    rf_of: Vec<Eid>,
    choices: u64,
    memo: Vec<Option<Result<Value, ()>>>,
    busy: Vec<bool>,
}

impl Values<'_> {
    fn get(&mut self, v: ValId) -> Result<Value, NoValue> {
        match self.memo[v] {
            Some(Ok(x)) => return Ok(x),
            Some(Err(())) => return Err(NoValue::Cycle),
            None => {}
        }
        if self.busy[v] {
            return Err(NoValue::Cycle);
        }
        self.busy[v] = true;
        let ev = self.ev;
        let r = match &ev.vals[v] {
            VExpr::Const(c) => Ok(*c),
            VExpr::Read(r) => self.read(v, *r),
            VExpr::Choice(k) => Ok(Value::Int(((self.choices >> k) & 1) as i64)),
            // Only the selected side is evaluated.
            VExpr::Ite(c, a, b) => match self.get(*c) {
                Ok(Value::Int(1)) => self.get(*a),
                Ok(Value::Sym) => Err(NoValue::Unsolved),
                Ok(_) => self.get(*b),
                Err(e) => Err(e),
            },
            VExpr::Bin(op, a, b) => match self.get(*a) {
                // `0 & x` is 0 whatever x is: guards of dead paths need no value there.
                Ok(Value::Int(0)) if *op == litsat::isa::BinOp::And => Ok(Value::Int(0)),
                Ok(Value::Sym) => Err(NoValue::Unsolved),
                Ok(x) => match self.get(*b) {
                    Ok(Value::Sym) => Err(NoValue::Unsolved),
                    Ok(y) => {
                        arith(ev, *op, x, y).ok_or_else(|| NoValue::Undefined(format!("{op:?} on {x:?} and {y:?}")))
                    }
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            },
        };
        self.busy[v] = false;
        match &r {
            Ok(x) => self.memo[v] = Some(Ok(*x)),
            Err(NoValue::Cycle) => self.memo[v] = Some(Err(())),
            Err(NoValue::Undefined(_) | NoValue::Unsolved) => {}
        }
        r
    }

    /// The value of read `r` (whose value is `v`, marked busy): follow rf and the
    /// writes that store a read's value unchanged (through selects, whose condition is
    /// evaluated) back to a value computed otherwise; coming back to a read of the walk
    /// means that only equalities tie these values, which herd leaves unsolved.
    fn read(&mut self, v: ValId, r: Eid) -> Result<Value, NoValue> {
        let ev = self.ev;
        let mut walk = vec![v];
        let mut cur = ev.events[self.rf_of[r]].val;
        let res = loop {
            match &ev.vals[cur] {
                VExpr::Read(r2) => {
                    let rv = ev.events[*r2].val;
                    if walk.contains(&rv) {
                        break Ok(Value::Sym);
                    }
                    if self.busy[rv] || self.memo[rv].is_some() {
                        break self.get(rv);
                    }
                    self.busy[rv] = true;
                    walk.push(rv);
                    cur = ev.events[self.rf_of[*r2]].val;
                }
                VExpr::Ite(c, a, b) => match self.get(*c) {
                    Ok(Value::Int(1)) => cur = *a,
                    Ok(Value::Sym) => break Err(NoValue::Unsolved),
                    Ok(_) => cur = *b,
                    Err(e) => break Err(e),
                },
                _ => break self.get(cur),
            }
        };
        for &w in &walk[1..] {
            self.busy[w] = false;
            match &res {
                Ok(x) => self.memo[w] = Some(Ok(*x)),
                Err(NoValue::Cycle) => self.memo[w] = Some(Err(())),
                Err(_) => {}
            }
        }
        res
    }
}

/// The most choices (store-conditional outcomes, try-lock and is-locked outcomes)
/// enumerated.
const MAX_CHOICES: usize = 16;

/// `n!`, saturating.
fn factorial(n: usize) -> u64 {
    (1..=n as u64).fold(1u64, |a, k| a.saturating_mul(k))
}

/// Answers one test by enumerating its candidates under `prog`.
pub fn answer(mut test: Test, file: &str, text: &str, prog: &Program, budget: u64) -> Result<Answer, Refusal> {
    // The front end builds some events under the model's variants (the cfg's `lkmmv2`).
    test.variants = prog.variants_with(&test.variants);
    // A C test's macros come from the model (a cfg's `macros` line).
    let macros = prog.macros.as_ref().map(|m| (m.path.as_str(), &*m.text));
    // A model that computes its own dependencies (`catdep`) sees register events.
    let ev_opts = (macros, query::DEFAULT_UNROLL, prog.catdep);
    let (test, isa, ev) =
        query::prepare_until(test, file, text, ev_opts, Deadline::NONE).map_err(|d| Refusal::Front(d.to_string()))?;
    let n = ev.len();
    let nchoices = ev.choice_guards.len();
    if n > MAX_EVENTS {
        return Err(Refusal::Unsupported(format!("{n} events (at most {MAX_EVENTS})")));
    }
    if ev.vmsa.is_some() && ev.ifetch {
        return Err(Refusal::Unsupported("vmsa with ifetch (instruction-side entries, I-PTE)".into()));
    }
    if nchoices > MAX_CHOICES {
        return Err(Refusal::Unsupported(format!("{nchoices} choices (at most {MAX_CHOICES})")));
    }
    let e = &ev.events;
    let nlocs = ev.locs.len();
    let plain_read = |i: usize| e[i].kind == Kind::Read && e[i].lock.is_none();
    let plain_write = |i: usize| e[i].kind == Kind::Write && e[i].lock.is_none();
    // herd's built-in co orders W and the writes of lock acquisitions (LKW); unlocks join
    // co only through lock.cat.
    let co_member = |i: usize| plain_write(i) || e[i].lock == Some(LockRole::Lkw);
    for (i, x) in e.iter().enumerate() {
        if (plain_read(i) || co_member(i)) && x.loc.is_none() && x.addr.is_none() {
            return Err(Refusal::Unsupported("an access without a location".into()));
        }
    }
    // Where two events may meet: equal fixed locations, or a computed address (decided
    // per candidate).
    // Under vmsa, a computed address is a translated one, the physical page an entry
    // gives, which is never an entry: entries are met only where they are named.
    let entry = |l: usize| ev.vmsa.is_some() && ev.locs[l].starts_with("PTE(");
    let may_meet = |a: Eid, b: Eid| match (e[a].loc, e[b].loc) {
        (Some(x), Some(y)) => x == y,
        (Some(x), None) | (None, Some(x)) => !entry(x),
        (None, None) => true,
    };
    // herd's built-in rf: each read of R (lock events have none) picks a write of W (lock
    // writes are no sources) at its location.
    let reads: Vec<(Eid, Vec<Eid>)> = (0..n)
        .filter(|&r| plain_read(r))
        .map(|r| (r, (0..n).filter(|&w| plain_write(w) && may_meet(w, r)).collect()))
        .collect();
    if reads.iter().any(|(_, ws)| ws.is_empty()) {
        return Err(Refusal::Unsupported("a read with no write to read from".into()));
    }
    let mut init_of = vec![None; nlocs];
    for (i, x) in e.iter().enumerate() {
        if x.thread.is_none()
            && let Some(l) = x.loc
        {
            init_of[l] = Some(i);
        }
    }
    let co_writes: Vec<Eid> = (0..n).filter(|&w| co_member(w) && e[w].thread.is_some()).collect();

    // An upper bound on the candidates: choices × rf × co orders per location.
    let mut count: u64 = 1u64 << nchoices;
    for (_, ws) in &reads {
        count = count.saturating_mul(ws.len() as u64);
    }
    for l in 0..nlocs {
        let k = co_writes.iter().filter(|&&w| e[w].loc.is_none_or(|m| m == l)).count();
        count = count.saturating_mul(factorial(k));
    }
    if count > budget {
        return Err(Refusal::TooBig(count));
    }

    let shown = query::observed(&test, isa);
    let mut needed = shown.clone();
    if let Some(f) = &test.filter {
        f.locs(&mut needed);
    }
    let mut mem_of = HashMap::new();
    for l in &needed {
        if let Loc::Mem(x) = l {
            let i = ev.loc_index(x).ok_or_else(|| Refusal::Unsupported(format!("unknown location {x}")))?;
            mem_of.insert(x.clone(), i);
        }
    }
    let mut s = Search {
        prog,
        ev: &ev,
        test: &test,
        shown,
        needed,
        mem_of,
        reads,
        co_writes,
        init_of,
        statics: HashMap::new(),
        fw_mode: ev.co_from_model && own_orders(prog),
        out: Answer::default(),
    };
    let rf_radix: Vec<usize> = s.reads.iter().map(|(_, ws)| ws.len()).collect();
    for choices in 0..(1u64 << nchoices) {
        let mut rf_c = vec![0usize; rf_radix.len()];
        loop {
            s.rf_candidate(choices, &rf_c)?;
            if !step(&mut rf_c, &rf_radix) {
                break;
            }
        }
    }
    Ok(s.out)
}

/// The events that happen and the location of each (`None`: no location).
type Placement = (Set, Vec<Option<usize>>);

/// The enumeration's fixed parts and what it has found so far.
struct Search<'a> {
    prog: &'a Program,
    ev: &'a Events,
    test: &'a Test,
    /// The places of a state, and those the filter reads too.
    shown: Vec<Loc>,
    needed: Vec<Loc>,
    mem_of: HashMap<String, usize>,
    /// Each read of R with the writes it may read from.
    reads: Vec<(Eid, Vec<Eid>)>,
    /// The writes co orders, the initial ones apart.
    co_writes: Vec<Eid>,
    init_of: Vec<Option<Eid>>,
    /// [`static_names`] per set of events that happen and their locations.
    statics: HashMap<Placement, Rc<HashMap<String, V<'a>>>>,
    /// herd's C tests under a model that generates orders of its own: an execution is a
    /// final-write choice, not a co (see [`own_orders`]).
    fw_mode: bool,
    out: Answer,
}

/// What a value that cannot be computed means for the candidate.
enum Drop {
    /// A cycle through rf and the value expressions: counted as undetermined.
    Cycle,
    /// herd's equations stay unsolved beyond equalities: herd drops the candidate.
    Unsolved,
    /// The test is beyond the oracle.
    Refuse(Refusal),
}

impl From<NoValue> for Drop {
    fn from(v: NoValue) -> Drop {
        match v {
            NoValue::Cycle => Drop::Cycle,
            NoValue::Unsolved => Drop::Unsolved,
            NoValue::Undefined(m) => Drop::Refuse(Refusal::Unsupported(format!("undefined arithmetic: {m}"))),
        }
    }
}

/// An integer as herd sees it at a place of C type `ty` (`int` when the test gives
/// none): cut to the type's width, sign-extended when signed; and whether it prints as
/// an unsigned 64-bit number. `None` for a pointer, left as it is.
fn cast(i: i64, ty: Option<&str>) -> Option<(i64, bool)> {
    let ty = ty.unwrap_or("int");
    if ty.contains('*') {
        return None;
    }
    let unsigned = ty.starts_with('u') || ty.starts_with("unsigned") || ty == "size_t";
    let bits = if ["64", "long", "size_t", "intptr_t"].iter().any(|w| ty.contains(w)) {
        64
    } else if ty.contains("8_t") || ty.contains("char") {
        8
    } else if ty.contains("16_t") || ty.contains("short") {
        16
    } else {
        32
    };
    if bits == 64 {
        return Some((i, unsigned));
    }
    let low = (i as u64) & ((1u64 << bits) - 1);
    let shift = 64 - bits;
    Some((if unsigned { low as i64 } else { ((low << shift) as i64) >> shift }, false))
}

/// A value as herd prints it in a state: an integer cut to its place's C type, read
/// signed or unsigned by that type; pointers and symbols print as they are.
fn typed(v: &Val, ty: Option<&str>) -> String {
    let Val::Int(i) = v else { return v.to_string() };
    match cast(*i, ty) {
        None => i.to_string(),
        Some((c, true)) => (c as u64).to_string(),
        Some((c, false)) => c.to_string(),
    }
}

/// A value as herd compares it with a condition's constant (herd's constraints cast
/// both to the place's type; the front end has cast the constants).
fn compared(v: &Val, ty: Option<&str>) -> Val {
    match v {
        Val::Int(i) => Val::Int(cast(*i, ty).map_or(*i, |c| c.0)),
        v => v.clone(),
    }
}

impl<'a> Search<'a> {
    /// The C type the initial state gives a place.
    fn type_of(&self, l: &Loc) -> Option<&str> {
        self.test.init.iter().find(|i| i.loc == *l).and_then(|i| i.ty.as_deref())
    }

    /// One choice of store-conditional and lock outcomes and of rf: which events happen,
    /// where they go, whether rf is well formed; then every co.
    fn rf_candidate(&mut self, choices: u64, rf_c: &[usize]) -> Result<(), Refusal> {
        let ev = self.ev;
        let n = ev.len();
        let mut rf_of = vec![0; n];
        for ((r, ws), &c) in self.reads.iter().zip(rf_c) {
            rf_of[*r] = ws[c];
        }
        let mut vals = Values { ev, rf_of, choices, memo: vec![None; ev.vals.len()], busy: vec![false; ev.vals.len()] };
        match self.placed(&mut vals, rf_c) {
            Ok(Some((live, loc_of))) => self.co_orders(&mut vals, live, &loc_of),
            Ok(None) => {
                self.out.candidates += 1;
                Ok(())
            }
            Err(Drop::Cycle) => {
                self.out.candidates += 1;
                self.out.undetermined += 1;
                Ok(())
            }
            Err(Drop::Unsolved) => {
                self.out.candidates += 1;
                self.out.unsolved += 1;
                Ok(())
            }
            Err(Drop::Refuse(r)) => Err(r),
        }
    }

    /// The events that happen and their locations, if the candidate is in canonical form
    /// and its rf well formed.
    fn placed(&mut self, vals: &mut Values, rf_c: &[usize]) -> Result<Option<Placement>, Drop> {
        let ev = self.ev;
        let e = &ev.events;
        let mut live: Set = 0;
        for (i, x) in e.iter().enumerate() {
            if vals.get(x.guard)? == Value::Int(1) {
                live |= bit(i);
            }
        }
        // A choice is made only where it is reached (a store-conditional on its
        // reservation, a try-lock on the path taken); elsewhere it is 0, so executions
        // told apart only by a choice that is not reached are one.
        for (k, &g) in ev.choice_guards.iter().enumerate() {
            if (vals.choices >> k) & 1 == 1 && vals.get(g)? != Value::Int(1) {
                return Ok(None);
            }
        }
        let lives = |i: usize| live & bit(i) != 0;
        let mut loc_of = vec![None; e.len()];
        for i in bits(live) {
            loc_of[i] = match (e[i].loc, e[i].addr) {
                (Some(l), _) => Some(l),
                (None, Some(a)) => match vals.get(a)? {
                    Value::Addr(l) => Some(l),
                    Value::Sym => return Err(Drop::Unsolved),
                    // Page tables (`-variant vmsa`): not built in the oracle.
                    Value::Pte(_) | Value::Tlb(_) => {
                        return Err(Drop::Refuse(Refusal::Unsupported("page tables (vmsa)".into())));
                    }
                    // herd's `x+k` where no location lies: a mixed-size access.
                    Value::Off(b, k) => {
                        return Err(Drop::Refuse(Refusal::Unsupported(format!(
                            "an access at {}+{k}: mixed-size",
                            ev.locs[b]
                        ))));
                    }
                    // herd's cache maintenance at a number (`IC IVAU` of 0) is an event
                    // there, at no location of the test's.
                    Value::Int(_) if is_cmo(&e[i]) => None,
                    // An access through something that is no address is no execution.
                    Value::Int(_) => {
                        self.out.bad_address += 1;
                        return Ok(None);
                    }
                },
                (None, None) => None,
            };
        }
        self.solved(vals, live)?;
        for ((r, ws), &c) in self.reads.iter().zip(rf_c) {
            // Canonical form: a read that does not happen reads from its first candidate.
            if !lives(*r) {
                if c != 0 {
                    return Ok(None);
                }
                continue;
            }
            // One that happens reads from a write that happens, at its location, ...
            let w = ws[c];
            if !lives(w) || loc_of[w] != loc_of[*r] {
                return Ok(None);
            }
            // ... and not from a later write of its own instruction (herd's iico: an RMW
            // reads, then writes).
            if e[w].thread.is_some() && e[w].thread == e[*r].thread && e[w].instr / 2 == e[*r].instr / 2 && w > *r {
                return Ok(None);
            }
        }
        Ok(Some((live, loc_of)))
    }

    /// A place of a state as herd shows it: `loc=val;`, or for a thread's fault register
    /// the fault it holds where an atom of the condition (or filter) names that fault,
    /// nothing otherwise.
    fn shown_place(&self, l: &Loc, v: &Val) -> Option<String> {
        let Loc::Reg(_, r) = l else { return Some(format!("{l}={};", typed(v, self.type_of(l)))) };
        if r != litsat::litmus::FAULT_REG {
            return Some(format!("{l}={};", typed(v, self.type_of(l))));
        }
        let Val::Int(k) = v else { return None };
        let site = self.ev.fault_sites.get(usize::try_from(*k).ok()?.checked_sub(1)?)?;
        let mut atoms = Vec::new();
        self.test.cond.prop.fault_atoms(&mut atoms);
        if let Some(f) = &self.test.filter {
            f.fault_atoms(&mut atoms);
        }
        atoms.iter().any(|a| a.matches(site)).then(|| format!("{};", site.text()))
    }

    /// herd drops a candidate whose equations keep more than equalities between unsolved
    /// values: a write that happens, a branch taken or not, or a register's final value
    /// computed from one, or a branch on one.
    fn solved(&self, vals: &mut Values, live: Set) -> Result<(), Drop> {
        let ev = self.ev;
        let unsolved = |r: Result<Value, NoValue>| matches!(r, Err(NoValue::Unsolved));
        for i in bits(live) {
            if ev.events[i].is_write() && unsolved(vals.get(ev.events[i].val)) {
                return Err(Drop::Unsolved);
            }
        }
        for &(b, c) in &ev.branch_conds {
            if live & bit(b) != 0 && matches!(vals.get(c), Ok(Value::Sym) | Err(NoValue::Unsolved)) {
                return Err(Drop::Unsolved);
            }
        }
        for &v in ev.final_regs.values() {
            if unsolved(vals.get(v)) {
                return Err(Drop::Unsolved);
            }
        }
        Ok(())
    }

    /// Every co of the candidate: per location a total order of its writes that happen,
    /// the initial write first.
    fn co_orders(&mut self, vals: &mut Values, live: Set, loc_of: &[Option<usize>]) -> Result<(), Refusal> {
        let nlocs = self.ev.locs.len();
        let perms: Vec<Vec<Vec<Eid>>> = (0..nlocs)
            .map(|l| {
                let ws: Vec<Eid> =
                    self.co_writes.iter().copied().filter(|&w| live & bit(w) != 0 && loc_of[w] == Some(l)).collect();
                permutations(&ws)
            })
            .collect();
        let radix: Vec<usize> = perms.iter().map(|p| p.len()).collect();
        let mut co_c = vec![0usize; nlocs];
        // In final-write mode, the final writes already tried with this rf.
        let mut tried: HashSet<Vec<Option<Eid>>> = HashSet::new();
        loop {
            let n = self.ev.len();
            let mut co = Rel::empty(n);
            let mut last = vec![None; nlocs];
            for l in 0..nlocs {
                let order: Vec<Eid> = self.init_of[l].into_iter().chain(perms[l][co_c[l]].iter().copied()).collect();
                for (k, &a) in order.iter().enumerate() {
                    for &b in &order[k + 1..] {
                        co.rows[a] |= bit(b);
                    }
                }
                last[l] = order.last().copied();
            }
            let fw: Vec<Option<Eid>> = self.ev.observed.iter().map(|&l| last[l]).collect();
            let fresh = !self.fw_mode || !tried.contains(&fw);
            match if fresh { self.execution(vals, live, loc_of, co, &last) } else { Ok(false) } {
                Ok(true) if self.fw_mode => {
                    tried.insert(fw);
                }
                Ok(_) => {}
                Err(Drop::Cycle) => self.out.undetermined += 1,
                Err(Drop::Unsolved) => self.out.unsolved += 1,
                Err(Drop::Refuse(r)) => return Err(r),
            }
            if !step(&mut co_c, &radix) {
                return Ok(());
            }
        }
    }

    /// Under `-variant mixed`: every read's cells, and every shown place's final cells
    /// (unless the test has arrays, where herd matches finals per cell), come from write
    /// groups as herd matches them.
    fn sca_matched(
        &self,
        vals: &Values,
        lives: &dyn Fn(Eid) -> bool,
        loc_of: &[Option<usize>],
        last: &[Option<Eid>],
    ) -> bool {
        let ev = self.ev;
        let Some(cells) = &ev.cells else { return true };
        let reads: Vec<Eid> = self.reads.iter().map(|r| r.0).collect();
        for g in mixed::read_groups(ev, &reads, lives) {
            let cs: Vec<(Eid, Option<usize>)> = g.iter().map(|&c| (c, loc_of[c])).collect();
            if !mixed::matched(ev, &cs, &|c| vals.rf_of[c], loc_of) {
                return false;
            }
        }
        if cells.objects.iter().any(|o| o.len > 1) {
            return true;
        }
        for &first in self.mem_of.values() {
            let place = ev.place_cells(first);
            let Some(ws): Option<Vec<Eid>> = place.iter().map(|&c| last[c]).collect() else { continue };
            // The final cells stand for themselves here: each "reads" its co-last write.
            let cs: Vec<(Eid, Option<usize>)> = ws.iter().map(|&w| (w, loc_of[w])).collect();
            if !mixed::matched(ev, &cs, &|w| w, loc_of) {
                return false;
            }
        }
        true
    }

    /// One candidate (rf and co fixed): herd's candidate rules, the model, the state.
    fn execution(
        &mut self,
        vals: &mut Values,
        live: Set,
        loc_of: &[Option<usize>],
        co: Rel,
        last: &[Option<Eid>],
    ) -> Result<bool, Drop> {
        self.out.candidates += 1;
        let ev = self.ev;
        let e = &ev.events;
        let n = ev.len();
        let prog = self.prog;
        let lives = |i: usize| live & bit(i) != 0;
        let base = self
            .statics
            .entry((live, loc_of.to_vec()))
            .or_insert_with(|| Rc::new(static_names(ev, live, loc_of)))
            .clone();
        let base = with_conditional_tags(base, ev, live, vals);
        let mut rf = Rel::empty(n);
        for (r, _) in &self.reads {
            if lives(*r) {
                rf.rows[vals.rf_of[*r]] |= bit(*r);
            }
        }
        let seen_rf = merge_rel(&rf, &fused_pairs(ev, live));
        let id = Rel::id_on(n, live);
        // herd (with its default -optace) generates only co orders that extend the
        // coherence the test itself observes, cos-ok-opt.cat's `pco`: over R and W
        // (no lock events), same-thread same-location pairs in program order or ordered
        // inside one instruction (herd's iico, as the event structure records it).
        // Not an instruction's fetch nor a walk's read (herd's pco is over explicit
        // accesses).
        let fetch = |i: usize| (ev.ifetch || ev.vmsa.is_some()) && e[i].tags.iter().any(|t| t == "NExp");
        let mem = |i: usize| matches!(e[i].kind, Kind::Read | Kind::Write) && e[i].lock.is_none() && !fetch(i);
        let ppl = Rel::from_fn(n, |a, b| {
            mem(a)
                && mem(b)
                && e[a].thread.is_some()
                && e[a].thread == e[b].thread
                && loc_of[a].is_some()
                && loc_of[a] == loc_of[b]
                && (ev.po_before(a, b) || (e[a].instr == e[b].instr && ev.iico.contains(&(a, b))))
        });
        let w_set: Set = (0..n).filter(|&i| e[i].kind == Kind::Write && e[i].lock.is_none()).fold(0, |a, i| a | bit(i));
        if !pco(&ppl, &rf, &id, w_set).subset(&co) {
            return Ok(false);
        }
        if !self.sca_matched(vals, &lives, loc_of, last) {
            return Ok(false);
        }
        let rf = seen_rf;
        let fr = rf.inverse().seq(&co).diff(&id);
        let int = match base.get("int") {
            Some(V::Rel(r)) => r.clone(),
            _ => unreachable!("int is predefined"),
        };
        let ext = match base.get("ext") {
            Some(V::Rel(r)) => r.clone(),
            _ => unreachable!("ext is predefined"),
        };
        // herd chooses a final write only for the locations a state shows; elsewhere FW
        // is empty.
        let fw: Set = ev.observed.iter().filter_map(|&l| last[l]).fold(0, |a, w| a | bit(w));
        let co = Rc::new(co);
        let mut env = Env { top: None, base };
        for (name, r) in [
            ("rfe", rf.inter(&ext)),
            ("rfi", rf.inter(&int)),
            ("coe", co.inter(&ext)),
            ("coi", co.inter(&int)),
            ("fre", fr.inter(&ext)),
            ("fri", fr.inter(&int)),
            ("fr", fr),
            ("rf", rf),
        ] {
            env = env.bind(name, V::Rel(Rc::new(r)));
        }
        env = env.bind("co", V::Rel(co.clone()));

        // A dependency through a register joined from two paths holds on its own path.
        for (name, when) in [("addr", &ev.addr_when), ("data", &ev.data_when)] {
            if when.is_empty() {
                continue;
            }
            let mut r = match env.get(name) {
                Some(V::Rel(r)) => (**r).clone(),
                _ => unreachable!("{name} is predefined"),
            };
            for (&(i, j), &c) in when {
                if !matches!(vals.get(c), Ok(Value::Int(1))) {
                    r.rows[i] &= !bit(j);
                }
            }
            env = env.bind(name, V::Rel(Rc::new(r)));
        }
        env = env.bind("FW", V::Set(fw));
        // co0, as herd's stdlib.cat defines it (litsat's is built in): on each location,
        // the initial write before the other writes, and every write but the final one
        // before it.
        let (w, iw) = (base_set(&env, "W"), base_set(&env, "IW"));
        let loc = match env.get("loc") {
            Some(V::Rel(r)) => r.clone(),
            _ => unreachable!("loc is predefined"),
        };
        let has = |s: Set, i: usize| s & bit(i) != 0;
        let co0 = Rel::from_fn(n, |i, j| {
            let first = has(iw, i) && has(w & !iw, j);
            let before_final = has(w & !fw, i) && has(fw, j);
            loc.has(i, j) && (first || before_final)
        });
        env = env.bind("co0", V::Rel(Rc::new(co0)));
        let co_member =
            |i: usize| (e[i].kind == Kind::Write && e[i].lock.is_none()) || e[i].lock == Some(LockRole::Lkw);
        let ww_loc = Rel::from_fn(n, |i, j| {
            i != j && lives(i) && lives(j) && co_member(i) && co_member(j) && loc_of[i] == loc_of[j]
        });
        let event_values: Vec<Option<Value>> =
            (0..n).map(|i| if lives(i) { vals.get(e[i].val).ok() } else { None }).collect();
        // Under vmsa, the page-table names, from this candidate's values.
        if ev.vmsa.is_some() {
            let view = vmsa::View { ev, live, loc_of, values: &event_values };
            for (name, s) in view.sets() {
                env = env.bind(name, V::Set(s));
            }
            for (name, r) in view.rels() {
                env = env.bind(name, V::Rel(Rc::new(r)));
            }
        }
        let model = Eval {
            prog,
            variants: &self.test.variants,
            n,
            all: live,
            w: live & base_set(&env, "W"),
            co,
            ww_loc: Rc::new(ww_loc),
            loc: match env.get("loc") {
                Some(V::Rel(r)) => r.clone(),
                _ => unreachable!("loc is predefined"),
            },

            included: HashSet::new(),
            flags: BTreeSet::new(),
            file: prog.root.clone(),
            values: Rc::new(event_values),
            script: Vec::new(),
            offered: Vec::new(),
        };
        // One execution per passing sequence of `with` choices, with its flags.
        let passing = run_choices(model, env).map_err(|s| match s {
            Stop::Fail(m) => Drop::Refuse(Refusal::Unsupported(format!("model error: {m}"))),
            Stop::Unsupported(m) => Drop::Refuse(Refusal::Unsupported(m)),
            Stop::Reject => Drop::Refuse(Refusal::Unsupported("rejection outside a candidate".into())),
            Stop::Assert(m) => Drop::Refuse(Refusal::Assert(m)),
            Stop::NoValue => Drop::Cycle,
        })?;
        if passing.is_empty() {
            return Ok(true);
        }
        self.out.consistent += 1;

        // Values: every read that happens must have one.
        for (r, _) in &self.reads {
            if lives(*r) {
                vals.get(e[*r].val)?;
            }
        }
        let mut values: HashMap<Loc, Val> = HashMap::new();
        for place in &self.needed {
            let v = match place {
                Loc::Reg(t, r) => match ev.final_regs.get(&(*t, r.clone())) {
                    Some(&v) => vals.get(v)?,
                    None => Value::Int(0),
                },
                Loc::Mem(x) if ev.cells.is_some() => {
                    let size = ev.cells.as_ref().map_or(1, |c| c.size);
                    let mut parts = Vec::new();
                    for c in ev.place_cells(self.mem_of[x]) {
                        let w =
                            last[c].ok_or_else(|| Drop::Refuse(Refusal::Unsupported(format!("no write to {x}"))))?;
                        parts.push(vals.get(e[w].val)?);
                    }
                    mixed::put_together(&parts, size)
                        .ok_or(Drop::Refuse(Refusal::Unsupported("a symbol in a cell".into())))?
                }
                Loc::Mem(x) => match last[self.mem_of[x]] {
                    Some(w) => vals.get(e[w].val)?,
                    None => return Err(Drop::Refuse(Refusal::Unsupported(format!("no write to {x}")))),
                },
            };
            values.insert(place.clone(), ev.show_value(v));
        }
        let get = |l: &Loc| values.get(l).map(|v| compared(v, self.type_of(l)));
        let mut cut = false;
        for &(g, _) in &ev.cuts {
            cut |= vals.get(g)? == Value::Int(1);
        }
        let keep = self.test.filter.as_ref().is_none_or(|f| f.eval(&get));
        if keep && cut {
            self.out.looped = true;
        } else if keep {
            let k = passing.len() as u64;
            if self.test.cond.prop.eval(&get) {
                self.out.pos += k;
            } else {
                self.out.neg += k;
            }
            let line: Vec<String> = self.shown.iter().filter_map(|l| self.shown_place(l, &values[l])).collect();
            self.out.states.insert(line.join(" "));
            for flags in passing {
                self.out.flags.extend(flags);
            }
        }
        Ok(true)
    }
}

/// Whether `prog` generates orders of its own for herd's C tests: some statement binds a
/// name other than co with `with … from generate_orders(…)` (or `linearisations`), and
/// none binds co with `with co from …`. herd then enumerates final writes, not co.
fn own_orders(prog: &Program) -> bool {
    fn walk(ss: &[Stmt], orders: &mut bool, co: &mut bool) {
        for s in ss {
            match s {
                Stmt::With(x, _, _) if x == "co" => *co = true,
                Stmt::With(_, Expr::App(f, _, _), _) if matches!(&**f, Expr::Var(n, _) if n == "generate_orders" || n == "linearisations") =>
                {
                    *orders = true;
                }
                Stmt::IfVariant(_, a, b) => {
                    walk(a, orders, co);
                    walk(b, orders, co);
                }
                Stmt::Procedure(_, _, body) | Stmt::Forall(_, _, body, _) => walk(body, orders, co),
                _ => {}
            }
        }
    }
    let (mut orders, mut co) = (false, false);
    for f in prog.files.values() {
        walk(&f.model.stmts, &mut orders, &mut co);
    }
    orders && !co
}

/// Runs the model once per sequence of `with x from S` choices (an odometer over the
/// elements each `with` offers, re-running the model from the start for each), returning
/// the flags of every run that passes.
fn run_choices<'a>(mut model: Eval<'a>, env: Env<'a>) -> Result<Vec<BTreeSet<String>>, Stop> {
    let prog = model.prog;
    let mut passing = Vec::new();
    loop {
        model.included.clear();
        model.flags.clear();
        model.offered.clear();
        model.file = prog.root.clone();
        let mut run = Ok(env.clone());
        if let Some(std) = &prog.stdlib
            && *std != prog.root
        {
            run = run.and_then(|env| model.run_file(env, std));
        }
        if let Some(bell) = &prog.bell {
            run = run.and_then(|env| model.run_file(env, bell));
        }
        let root = prog.root.clone();
        run = run.and_then(|env| model.run_file(env, &root));
        match run {
            Ok(_) => passing.push(std::mem::take(&mut model.flags)),
            Err(Stop::Reject) => {}
            Err(s) => return Err(s),
        }
        // The next script: advance the last `with` that has elements left.
        model.script.truncate(model.offered.len());
        let Some(k) = (0..model.offered.len()).rev().find(|&k| model.script[k] + 1 < model.offered[k]) else {
            return Ok(passing);
        };
        model.script.truncate(k + 1);
        model.script[k] += 1;
    }
}

/// Whether an event is herd's cache maintenance by address (`DC CVAU`, `IC IVAU`): no
/// memory access.
fn is_cmo(e: &litsat::events::Event) -> bool {
    e.kind == Kind::Fence && e.tags.iter().any(|t| t.starts_with("DC.") || t.starts_with("IC."))
}

/// The state line of a state that shows an array whole (`[t{0}]=1; [t{1}]=0;`) written
/// as herd's log writes it (`t={1,0};`).
pub fn whole_arrays(line: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(String, Vec<String>)> = None;
    for item in line.split(';').map(str::trim).filter(|i| !i.is_empty()) {
        let elem = item.strip_prefix('[').and_then(|i| i.split_once("]=")).and_then(|(p, v)| {
            let (base, k) = p.strip_suffix('}')?.split_once('{')?;
            k.parse::<usize>().ok().map(|_| (base.to_string(), v.to_string()))
        });
        match (elem, &mut run) {
            (Some((b, v)), Some((rb, vs))) if *rb == b => vs.push(v),
            (e, _) => {
                if let Some((b, vs)) = run.take() {
                    out.push(format!("{b}={{{}}}", vs.join(",")));
                }
                match e {
                    Some((b, v)) => run = Some((b, vec![v])),
                    None => out.push(item.to_string()),
                }
            }
        }
    }
    if let Some((b, vs)) = run {
        out.push(format!("{b}={{{}}}", vs.join(",")));
    }
    out.iter().map(|i| format!("{i};")).collect::<Vec<_>>().join(" ")
}

/// cos-ok-opt.cat's observed coherence, on the events that happen (`id` is the identity on
/// them, `ppl` the static same-location order, `w` the writes):
///   ww = po-loc & (W * W), rw = rf ; (po-loc & (R * W)),
///   wr = ((po-loc & (W * R)) ; rf^-1) \ id, rr = (rf ; (po-loc & (R * R)) ; rf^-1) \ id.
fn pco(ppl: &Rel, rf: &Rel, id: &Rel, w: Set) -> Rel {
    let n = ppl.n();
    let live = id.domain();
    let ppl = Rel::id_on(n, live).seq(ppl).seq(&Rel::id_on(n, live));
    let (wr_, rd) = (w & live, !w & live);
    let part = |a: Set, b: Set| Rel::id_on(n, a).seq(&ppl).seq(&Rel::id_on(n, b));
    let inv = rf.inverse();
    let ww = part(wr_, wr_);
    let rw = rf.seq(&part(rd, wr_));
    let wr = part(wr_, rd).seq(&inv).diff(id);
    let rr = rf.seq(&part(rd, rd)).seq(&inv).diff(id);
    ww.union(&rw).union(&wr).union(&rr)
}

fn base_set(env: &Env, name: &str) -> Set {
    match env.get(name) {
        Some(V::Set(s)) => *s,
        _ => 0,
    }
}

/// herd's `Int32` arithmetic (X86, ARM, C outside S128), where it differs from 64-bit
/// arithmetic on sign-extended words: `Some(None)` where it has no value (a zero
/// divisor), `None` for the operations that need nothing more (comparisons, bitwise).
/// Shift counts are taken modulo 32, as the hardware does (herd leaves larger ones
/// unspecified).
fn int32(op: litsat::isa::BinOp, a: i32, b: i64) -> Option<Option<i32>> {
    use litsat::isa::BinOp;
    let b32 = b as i32;
    Some(Some(match op {
        BinOp::Add => a.wrapping_add(b32),
        BinOp::Sub => a.wrapping_sub(b32),
        BinOp::Mul => a.wrapping_mul(b32),
        BinOp::Div if b32 == 0 => return Some(None),
        BinOp::Div => a.wrapping_div(b32),
        BinOp::Shl => a << (b & 31),
        BinOp::Shr => ((a as u32) >> (b & 31)) as i32,
        _ => return None,
    }))
}

/// A value computed from two others. An address is a symbol and a byte offset (herd's
/// `Virtual` values): plus or minus an integer it is the location the front end's layout
/// puts there (another element of an array), or else `x+k` ([`Value::Off`]); two of them
/// subtract to herd's comparison (names, then offsets; equal values 0). A word or wider
/// extension keeps what the front end says stands for code; anything else is
/// [`events::apply`]'s arithmetic.
fn arith(ev: &Events, op: litsat::isa::BinOp, x: Value, y: Value) -> Option<Value> {
    use litsat::isa::BinOp;
    let sym = |v: Value| match v {
        Value::Addr(l) if !ev.layout.is_code(l) => Some(ev.layout.base(l)),
        Value::Off(b, k) => Some((b, k)),
        _ => None,
    };
    let at = |(b, k): (usize, i64), d: i64| {
        let k = k.checked_add(d)?;
        Some(ev.layout.offset(b, k).map_or(Value::Off(b, k), Value::Addr))
    };
    if ev.layout.words
        && let (Value::Int(a), Value::Int(b)) = (x, y)
        && let Some(w) = int32(op, a as i32, b)
    {
        return w.map(|w| Value::Int(w as i64));
    }
    match (op, x, y) {
        (BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor, _, Value::Int(0)) => Some(x),
        (BinOp::Add, Value::Int(k), _) | (BinOp::Add, _, Value::Int(k)) if sym(x).or(sym(y)).is_some() => {
            at(sym(x).or(sym(y))?, k)
        }
        (BinOp::Sub, _, Value::Int(k)) if sym(x).is_some() => at(sym(x)?, k.checked_neg()?),
        (BinOp::Sub, _, _) if x == y && x != Value::Sym => Some(Value::Int(0)),
        (BinOp::Sub, _, _) if sym(x).is_some() && sym(y).is_some() => {
            let ((b, k), (c, j)) = (sym(x)?, sym(y)?);
            Some(Value::Int(ev.locs[b].cmp(&ev.locs[c]).then(k.cmp(&j)) as i64))
        }
        // An instruction or a label as a value survives a word load's extension.
        (BinOp::Sext | BinOp::Zext, Value::Addr(l), Value::Int(c)) if c >= 32 && ev.layout.is_code(l) => {
            Some(Value::Addr(l))
        }
        // Division as herd's Int64.div, computed here rather than by the engine: truncated
        // towards zero, `min_int / -1` wrapping, no value for a zero divisor.
        (BinOp::Div, Value::Int(a), Value::Int(b)) => match b {
            0 => None,
            -1 => Some(Value::Int(a.wrapping_neg())),
            _ => Some(Value::Int(a / b)),
        },
        // herd's ToInteger, for the flags of a comparison.
        (BinOp::ToInt, Value::Int(_), _) => Some(x),
        (BinOp::ToInt, _, Value::Int(_)) => Some(y),
        _ => events::apply(op, x, y),
    }
}

/// One test, the SAT engine's log against the oracle's: `Ok(true)` where the states and
/// counts (and, with `flags`, the flags) agree, `Ok(false)` where one side does not
/// answer (said where the oracle refuses), `Err` the difference. A state of faults alone
/// is compared without the space that separates faults from places.
pub fn versus_engine(test: Test, name: &str, text: &str, prog: &Program, flags: bool) -> Result<bool, String> {
    let Ok(engine) = query::run(test.clone(), name, text, prog, &query::Options::default()) else { return Ok(false) };
    let ans = match answer(test, name, text, prog, DEFAULT_BUDGET) {
        Ok(a) => a,
        Err(r) => {
            println!("  {name}: the oracle refused: {r}");
            return Ok(false);
        }
    };
    let sat: BTreeSet<String> =
        engine.states.iter().map(|s| litsat::report::state_line(s).trim_start().to_string()).collect();
    let oracle: BTreeSet<String> = ans.states.iter().map(|s| whole_arrays(s).trim_start().to_string()).collect();
    let sat_flags: BTreeSet<String> = engine.flags.iter().map(|f| f.to_string()).collect();
    let counts = (engine.pos, engine.neg) == (u128::from(ans.pos), u128::from(ans.neg));
    if sat != oracle || !counts || (flags && sat_flags != ans.flags) {
        return Err(format!(
            "{name}: SAT {:?} ({}, {}) {:?}, oracle {:?} ({}, {}) {:?}",
            sat, engine.pos, engine.neg, sat_flags, ans.states, ans.pos, ans.neg, ans.flags
        ));
    }
    Ok(true)
}

/// A suite's comparisons ([`versus_engine`]): prints the tally, and fails on any
/// difference or where fewer than `floor` tests were compared.
pub fn assert_suite(label: &str, results: &[Result<bool, String>], floor: usize) {
    let agreed = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let skipped = results.iter().filter(|r| matches!(r, Ok(false))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!("{label}: {agreed} agree with the oracle, {skipped} not compared, {} differ", bad.len());
    assert!(bad.is_empty(), "{}", bad.iter().take(10).map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
    assert!(agreed >= floor, "{label}: only {agreed} compared, fewer than {floor}");
}

/// herd's `aarch64.cat` under the cfg `conf` (its variants) and the test files under
/// `dir`, both of the shared folder `sh`: what an AArch64 oracle suite runs.
pub fn herd_aarch64_suite(sh: &std::path::Path, dir: &str, conf: &str) -> (Program, Vec<std::path::PathBuf>) {
    let path = |f: &str| Some(sh.join(f).to_string_lossy().to_string());
    let spec =
        litsat::cat::ModelSpec { conf: path(conf), model: path("models/herd/aarch64.cat"), ..Default::default() };
    let prog = litsat::cat::load_model(&spec, &[sh.join("models/herd")]).expect("model loads");
    let root = sh.join("corpus").join(dir).to_string_lossy().to_string();
    (prog, litsat_cli::driver::collect_inputs(&[root]).unwrap_or_default())
}
