//! The names a model binds anywhere (in `let`s, function and procedure parameters,
//! `match` arms, `with`, `forall` and `enum`), and the names an expression mentions.
//!
//! A name no file of the program binds can only be a built-in: its lookup need not walk
//! the environment's bindings (a hundred or so by the end of a model) to reach the
//! built-ins' table, which most lookups of `po`, `rf`, `W`, … did. Which built-ins a
//! model can read at all is `reach`'s, from the mentions.

use super::ast::{ArmPat, Binding, Cond, Expr, Name, Pat, Stmt};

/// The names some statements bind and read.
#[derive(Default)]
struct Names {
    binds: Vec<Name>,
    uses: Vec<Name>,
}

/// Every name `stmts` may bind, each once, by [`Name::index`].
pub fn names(stmts: &[Stmt]) -> Vec<Name> {
    let mut out = Names::default();
    for s in stmts {
        stmt(s, &mut out);
    }
    out.binds.sort_unstable_by_key(|x| x.index());
    out.binds.dedup();
    out.binds
}

/// Every name `e` mentions (some perhaps bound within it), each once.
pub fn uses_of(e: &Expr) -> Vec<Name> {
    let mut out = Names::default();
    expr(e, &mut out);
    dedup(out.uses)
}

/// Every name the condition `c` mentions, each once.
pub fn uses_of_cond(c: &Cond) -> Vec<Name> {
    let mut out = Names::default();
    cond(c, &mut out);
    dedup(out.uses)
}

fn dedup(mut xs: Vec<Name>) -> Vec<Name> {
    xs.sort_unstable_by_key(|x| x.index());
    xs.dedup();
    xs
}

/// Whether `stmts` make a choice of their own anywhere: a `with x from S` other than
/// herd's order generators (`generate_cos`, `generate_orders`, `linearisations`), which
/// are native.
pub fn chooses(stmts: &[Stmt]) -> bool {
    const NATIVE: [&str; 3] = ["generate_cos", "generate_orders", "linearisations"];
    stmts.iter().any(|s| match s {
        Stmt::With(_, Expr::App(f, _, _), _) => !matches!(&**f, Expr::Var(g, _) if NATIVE.contains(&g.as_str())),
        Stmt::With(..) => true,
        Stmt::Procedure(_, _, body) | Stmt::Forall(_, _, body, _) => chooses(body),
        Stmt::IfVariant(_, a, b) => chooses(a) || chooses(b),
        _ => false,
    })
}

fn stmt(s: &Stmt, out: &mut Names) {
    match s {
        Stmt::Let(_, bs) => bs.iter().for_each(|b| binding(b, out)),
        Stmt::Check(c) => expr(&c.expr, out),
        Stmt::Procedure(_, p, body) => {
            pat(p, out);
            body.iter().for_each(|s| stmt(s, out));
        }
        Stmt::Call(_, e, _, _) => expr(e, out),
        Stmt::Forall(x, e, body, _) => {
            out.binds.push(*x);
            expr(e, out);
            body.iter().for_each(|s| stmt(s, out));
        }
        Stmt::With(x, e, _) => {
            out.binds.push(*x);
            expr(e, out);
        }
        Stmt::IfVariant(c, a, b) => {
            cond(c, out);
            a.iter().chain(b).for_each(|s| stmt(s, out));
        }
        // The interpreter binds each tag under its capitalised name too.
        Stmt::Enum(x, tags) => {
            out.binds.push(*x);
            for &t in tags {
                out.binds.extend([t, Name::new(&crate::encode::exec::capitalised(&t))]);
            }
        }
        Stmt::Include(..) | Stmt::Show | Stmt::Instructions | Stmt::Unsupported(..) => {}
    }
}

fn binding(b: &Binding, out: &mut Names) {
    out.binds.push(b.name);
    if let Some(p) = &b.params {
        pat(p, out);
    }
    expr(&b.body, out);
}

fn pat(p: &Pat, out: &mut Names) {
    match p {
        Pat::Var(x) => out.binds.push(*x),
        Pat::Tuple(xs) => out.binds.extend(xs),
    }
}

fn expr(e: &Expr, out: &mut Names) {
    match e {
        Expr::Var(x, _) => out.uses.push(*x),
        Expr::Empty | Expr::Tag(_) | Expr::Str(_) => {}
        Expr::Op1(_, a) | Expr::IdSet(a) => expr(a, out),
        Expr::Op2(_, a, b, _) | Expr::App(a, b, _) | Expr::Try(a, b) => {
            expr(a, out);
            expr(b, out);
        }
        Expr::SetLit(xs) | Expr::Tuple(xs) => xs.iter().for_each(|x| expr(x, out)),
        Expr::Fun(p, body) => {
            pat(p, out);
            expr(body, out);
        }
        Expr::Let(_, bs, body) => {
            bs.iter().for_each(|b| binding(b, out));
            expr(body, out);
        }
        Expr::Match(e, arms, _) => {
            expr(e, out);
            for arm in arms {
                if let ArmPat::Cons(x, rest) = arm.pat {
                    out.binds.extend([x, rest]);
                }
                expr(&arm.body, out);
            }
        }
        Expr::If(c, a, b) => {
            cond(c, out);
            expr(a, out);
            expr(b, out);
        }
    }
}

fn cond(c: &Cond, out: &mut Names) {
    match c {
        Cond::Variant(_) => {}
        Cond::Not(c) => cond(c, out),
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond(a, out);
            cond(b, out);
        }
        Cond::Eq(a, b) | Cond::Subset(a, b) | Cond::In(a, b) => {
            expr(a, out);
            expr(b, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Name, Names, Stmt};
    use crate::cat::parse::parse_model;

    /// Every name a statement mentions, within it too.
    fn mentions(s: &Stmt) -> Vec<Name> {
        let mut out = Names::default();
        super::stmt(s, &mut out);
        out.uses
    }

    #[test]
    fn every_binding_place() {
        let text = "let a = po ; rf and f(x, y) = x | W\n\
                    let rec g z = match z with {} -> 0 || e ++ es -> g es end\n\
                    procedure p(q) = forall t in q do let u = t end end\n\
                    with mo from generate_orders(W, co)\n\
                    enum Modes = 'rlx || 'sc\n\
                    acyclic (fun v -> v)(po) as k\n";
        let model = parse_model("t.cat", text).expect("parses");
        let mut names: Vec<&str> = model.binds.iter().map(|x| x.as_str()).collect();
        names.sort_unstable();
        let want = ["Modes", "Rlx", "Sc", "a", "e", "es", "f", "g", "mo", "q", "rlx", "sc", "t", "u", "v", "x", "y", "z"];
        assert_eq!(names, want);
        let mut read: Vec<&str> = model.stmts.iter().flat_map(mentions).map(|x| x.as_str()).collect();
        read.sort_unstable();
        read.dedup();
        let want = ["W", "co", "es", "g", "generate_orders", "po", "q", "rf", "t", "v", "x", "z"];
        assert_eq!(read, want);
    }
}
