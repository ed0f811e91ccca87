//! The syntax of herd's C dialect: thread bodies and macro bodies.
//!
//! Names borrow the text they are read from (`'a`): a thread's names are never copied
//! to be parsed, and a macro's borrow its `.def` file, kept for the process.

use crate::diag::Pos;
use crate::isa::BinOp;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr<'a> {
    Int(i64),
    Var(&'a str, Pos),
    /// `*e`
    Deref(Box<Expr<'a>>, Pos),
    /// `&e`
    AddrOf(Box<Expr<'a>>, Pos),
    Neg(Box<Expr<'a>>),
    Not(Box<Expr<'a>>),
    BitNot(Box<Expr<'a>>),
    Bin(BinOp, Box<Expr<'a>>, Box<Expr<'a>>),
    /// `a && b`, `a || b`: 0/1 valued.
    Logic(bool, Box<Expr<'a>>, Box<Expr<'a>>),
    Cond(Box<Expr<'a>>, Box<Expr<'a>>, Box<Expr<'a>>),
    /// Two or more binary operators in a row, `a op b op c …`, associating to the left
    /// as C does (`(a op b) op c`): kept flat, so that no pass recurses once per operator
    /// and a chain of any length costs no stack. Every pass treats it exactly as the
    /// left-nested `Bin`s and `Logic`s it stands for.
    Chain(Box<Chain<'a>>),
    /// A macro or primitive call; `tag` is the `{…}` annotation of a primitive. Boxed,
    /// as a call is the largest node: every expression is moved through the parser's
    /// levels, and a small one moves cheaply.
    Call(Box<Call<'a>>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Call<'a> {
    pub name: &'a str,
    pub tag: Option<String>,
    pub args: Vec<Arg<'a>>,
    pub pos: Pos,
    /// The file the call is written in (a test or a `.def`), for diagnostics.
    pub file: usize,
}

/// A chain of binary operators: the first operand, then each operator with its right
/// operand, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain<'a> {
    pub first: Expr<'a>,
    pub rest: Vec<(Infix, Expr<'a>)>,
}

/// A binary operator of a [`Chain`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Infix {
    Bin(BinOp),
    /// `&&` (true) or `||` (false), as [`Expr::Logic`].
    Logic(bool),
}

impl<'a> Infix {
    /// The node `a op b`.
    pub fn node(self, a: Expr<'a>, b: Expr<'a>) -> Expr<'a> {
        match self {
            Infix::Bin(op) => Expr::Bin(op, Box::new(a), Box::new(b)),
            Infix::Logic(and) => Expr::Logic(and, Box::new(a), Box::new(b)),
        }
    }
}

/// An argument: an expression, or an operator (`__atomic_op(X,+,V)`).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'a> {
    Expr(Expr<'a>),
    Op(&'a str, Pos),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt<'a> {
    /// `int r;`, `int *r = e;`: a local.
    Decl(&'a str, Option<Expr<'a>>, Pos),
    /// `lhs = rhs;`
    Assign(Expr<'a>, Expr<'a>, Pos),
    Expr(Expr<'a>, Pos),
    If(Expr<'a>, Vec<Stmt<'a>>, Vec<Stmt<'a>>, Pos),
    While(Expr<'a>, Vec<Stmt<'a>>, Pos),
    Block(Vec<Stmt<'a>>),
}

impl Expr<'_> {
    pub fn pos(&self) -> Option<Pos> {
        match self {
            Expr::Var(_, p) | Expr::Deref(_, p) | Expr::AddrOf(_, p) => Some(*p),
            Expr::Call(c) => Some(c.pos),
            Expr::Neg(e) | Expr::Not(e) | Expr::BitNot(e) => e.pos(),
            Expr::Bin(_, a, _) | Expr::Logic(_, a, _) | Expr::Cond(a, _, _) => a.pos(),
            Expr::Chain(c) => c.first.pos(),
            Expr::Int(_) => None,
        }
    }

    /// The operator applied last: the top node's, or a chain's last.
    pub fn top_op(&self) -> Option<Infix> {
        match self {
            Expr::Bin(op, ..) => Some(Infix::Bin(*op)),
            Expr::Logic(and, ..) => Some(Infix::Logic(*and)),
            Expr::Chain(c) => c.rest.last().map(|(op, _)| *op),
            _ => None,
        }
    }
}
