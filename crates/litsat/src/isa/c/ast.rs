//! The syntax of herd's C dialect: thread bodies and macro bodies.

use crate::diag::Pos;
use crate::isa::BinOp;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    Var(String, Pos),
    /// `*e`
    Deref(Box<Expr>, Pos),
    /// `&e`
    AddrOf(Box<Expr>, Pos),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    BitNot(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `a && b`, `a || b`: 0/1 valued.
    Logic(bool, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A macro or primitive call; `tag` is the `{…}` annotation of a primitive. Boxed,
    /// as a call is the largest node: every expression is moved through the parser's
    /// levels, and a small one moves cheaply.
    Call(Box<Call>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub name: String,
    pub tag: Option<String>,
    pub args: Vec<Arg>,
    pub pos: Pos,
    /// The file the call is written in (a test or a `.def`), for diagnostics.
    pub file: usize,
}

/// An argument: an expression, or an operator (`__atomic_op(X,+,V)`).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Expr(Expr),
    Op(String, Pos),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `int r;`, `int *r = e;`: a local.
    Decl(String, Option<Expr>, Pos),
    /// `lhs = rhs;`
    Assign(Expr, Expr, Pos),
    Expr(Expr, Pos),
    If(Expr, Vec<Stmt>, Vec<Stmt>, Pos),
    While(Expr, Vec<Stmt>, Pos),
    Block(Vec<Stmt>),
}

impl Expr {
    pub fn pos(&self) -> Option<Pos> {
        match self {
            Expr::Var(_, p) | Expr::Deref(_, p) | Expr::AddrOf(_, p) => Some(*p),
            Expr::Call(c) => Some(c.pos),
            Expr::Neg(e) | Expr::Not(e) | Expr::BitNot(e) => e.pos(),
            Expr::Bin(_, a, _) | Expr::Logic(_, a, _) | Expr::Cond(a, _, _) => a.pos(),
            Expr::Int(_) => None,
        }
    }
}
