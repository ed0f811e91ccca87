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
    pub stmts: Vec<Stmt>,
    /// Every name the statements may bind (see `binders`).
    pub binds: Vec<Name>,
}
