//! The names a model binds anywhere: in `let`s, function and procedure parameters,
//! `match` arms, `with`, `forall` and `enum`.
//!
//! A name no file of the program binds can only be a built-in: its lookup need not walk
//! the environment's bindings (a hundred or so by the end of a model) to reach the
//! built-ins' table, which most lookups of `po`, `rf`, `W`, … did.

use super::ast::{ArmPat, Binding, Cond, Expr, Name, Pat, Stmt};

/// Every name `stmts` may bind, each once, by [`Name::index`].
pub fn binders(stmts: &[Stmt]) -> Vec<Name> {
    let mut out = Vec::new();
    for s in stmts {
        stmt(s, &mut out);
    }
    out.sort_unstable_by_key(|x| x.index());
    out.dedup();
    out
}

fn stmt(s: &Stmt, out: &mut Vec<Name>) {
    match s {
        Stmt::Let(_, bs) => bs.iter().for_each(|b| binding(b, out)),
        Stmt::Check(c) => expr(&c.expr, out),
        Stmt::Procedure(_, p, body) => {
            pat(p, out);
            body.iter().for_each(|s| stmt(s, out));
        }
        Stmt::Call(_, e, _, _) => expr(e, out),
        Stmt::Forall(x, e, body, _) => {
            out.push(*x);
            expr(e, out);
            body.iter().for_each(|s| stmt(s, out));
        }
        Stmt::With(x, e, _) => {
            out.push(*x);
            expr(e, out);
        }
        Stmt::IfVariant(c, a, b) => {
            cond(c, out);
            a.iter().chain(b).for_each(|s| stmt(s, out));
        }
        // The interpreter binds each tag under its capitalised name too.
        Stmt::Enum(x, tags) => {
            out.push(*x);
            for &t in tags {
                out.extend([t, Name::new(&crate::encode::exec::capitalised(&t))]);
            }
        }
        Stmt::Include(..) | Stmt::Show | Stmt::Instructions | Stmt::Unsupported(..) => {}
    }
}

fn binding(b: &Binding, out: &mut Vec<Name>) {
    out.push(b.name);
    if let Some(p) = &b.params {
        pat(p, out);
    }
    expr(&b.body, out);
}

fn pat(p: &Pat, out: &mut Vec<Name>) {
    match p {
        Pat::Var(x) => out.push(*x),
        Pat::Tuple(xs) => out.extend(xs),
    }
}

fn expr(e: &Expr, out: &mut Vec<Name>) {
    match e {
        Expr::Var(..) | Expr::Empty | Expr::Tag(_) | Expr::Str(_) => {}
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
                    out.extend([x, rest]);
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

fn cond(c: &Cond, out: &mut Vec<Name>) {
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
    use crate::cat::parse::parse_model;

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
    }
}
