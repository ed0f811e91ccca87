//! The syntax of herd's cat language.

pub use super::name::Name;
use crate::diag::Pos;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Var(Name, Pos),
    /// `0`: the empty relation (and, by herd's typing, the empty set where one is wanted).
    Empty,
    Tag(Name),
    Str(String),
    Op1(Op1, Box<Expr>),
    Op2(Op2, Box<Expr>, Box<Expr>, Pos),
    /// `[e]`
    IdSet(Box<Expr>),
    SetLit(Vec<Expr>),
    Tuple(Vec<Expr>),
    App(Box<Expr>, Box<Expr>, Pos),
    Fun(Pat, Arc<Expr>),
    Let(bool, Vec<Binding>, Box<Expr>),
    Match(Box<Expr>, Vec<Arm>, Pos),
    Try(Box<Expr>, Box<Expr>),
    If(Box<Cond>, Box<Expr>, Box<Expr>),
}

/// How many operands a chain of one binary operator may have and keep the nested shape
/// it is written in: the models people write stay exactly as before, and a longer chain
/// (a generated model's union of thousands of terms) is built balanced, so that its
/// depth, which every pass over the tree recurses through, grows as its logarithm.
pub const KEEP_NESTED: usize = 32;

/// Which way a short chain nests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nest {
    /// `(a op b) op c`
    Left,
    /// `a op (b op c)`
    Right,
}

impl Expr {
    /// `first op e1 op e2 …`, where each `ei` comes with the position of the operator
    /// before it: nested as `nest` says up to [`KEEP_NESTED`] operands, balanced past
    /// that where `op` is associative. Built in loops, as it may be long.
    pub fn chain(op: Op2, first: Expr, rest: Vec<(Pos, Expr)>, nest: Nest) -> Expr {
        let node = |a, b, pos| Expr::Op2(op, Box::new(a), Box::new(b), pos);
        if rest.len() < KEEP_NESTED || !op.associative() {
            return match nest {
                Nest::Left => rest.into_iter().fold(first, |a, (pos, b)| node(a, b, pos)),
                Nest::Right => {
                    // Each node takes the position of the operator on its left.
                    let mut items = rest.into_iter().rev();
                    let Some((mut pos, mut acc)) = items.next() else { return first };
                    for (p, e) in items {
                        acc = node(e, acc, pos);
                        pos = p;
                    }
                    node(first, acc, pos)
                }
            };
        }
        // Pairs of neighbours joined, round by round; each item keeps the position of the
        // operator on its left (none for the first).
        let mut items: Vec<(Option<Pos>, Expr)> = std::iter::once((None, first))
            .chain(rest.into_iter().map(|(p, e)| (Some(p), e)))
            .collect();
        while items.len() > 1 {
            let mut joined = Vec::with_capacity(items.len().div_ceil(2));
            let mut it = items.into_iter();
            while let Some((pa, a)) = it.next() {
                joined.push(match it.next() {
                    Some((pb, b)) => (pa, node(a, b, pb.unwrap_or(Pos(0)))),
                    None => (pa, a),
                });
            }
            items = joined;
        }
        items.pop().map(|(_, e)| e).unwrap_or(Expr::Empty)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op1 {
    Plus,
    Star,
    Opt,
    Inv,
    Comp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op2 {
    Union,
    Inter,
    Diff,
    Seq,
    Prod,
    /// `++`: add an element to a set.
    Add,
}

impl Op2 {
    /// Whether `(a op b) op c` is `a op (b op c)` for every value herd gives them.
    pub fn associative(self) -> bool {
        matches!(self, Op2::Union | Op2::Inter | Op2::Seq)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Pat {
    Var(Name),
    Tuple(Vec<Name>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub name: Name,
    /// `Some` for function sugar `f(x) = e` / `f x = e`.
    pub params: Option<Pat>,
    /// Shared: every test's evaluation binds it again.
    pub body: Arc<Expr>,
    pub pos: Pos,
    /// Whether the binding is made at all: false only for a top-level binding that
    /// nothing evaluated can read (see `reach`), which is then never bound.
    pub live: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ArmPat {
    Tag(Name),
    EmptySet,
    /// `x ++ rest`
    Cons(Name, Name),
    Wild,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    pub pat: ArmPat,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Variant(String),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Eq(Expr, Expr),
    Subset(Expr, Expr),
    In(Expr, Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    Acyclic,
    Irreflexive,
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub kind: CheckKind,
    pub negated: bool,
    pub flag: bool,
    /// `assert`: herd stops the test with an error where it fails, instead of rejecting
    /// the execution.
    pub assert: bool,
    pub expr: Expr,
    /// Shared with every test's [`CheckOut`](super::CheckOut) of the check.
    pub name: Option<Arc<str>>,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Let(bool, Vec<Binding>),
    Check(Check),
    Include(String, Pos),
    /// `show`/`unshow`: only pictures care.
    Show,
    Procedure(String, Pat, Vec<Stmt>),
    Call(String, Expr, Option<String>, Pos),
    Forall(Name, Expr, Vec<Stmt>, Pos),
    With(Name, Expr, Pos),
    IfVariant(Cond, Vec<Stmt>, Vec<Stmt>),
    /// `enum Name = 'a || 'b`: binds `Name` to the set of tags.
    Enum(Name, Vec<Name>),
    /// Bell constructs that declare instruction annotations; they constrain tests, not
    /// executions.
    Instructions,
    /// A construct the compiler refuses, kept so the error can point at it.
    Unsupported(String, Pos),
}

#[derive(Clone, Debug)]
pub struct Model {
    pub header: Vec<String>,
    /// The model computes its dependencies from register events (herd's `catdep`).
    pub catdep: bool,
    pub stmts: Vec<Stmt>,
    /// Every name the statements may bind (see `binders`).
    pub binds: Vec<Name>,
}
