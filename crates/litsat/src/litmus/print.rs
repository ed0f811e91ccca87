//! herd's way of writing places, values and propositions in logs.

use super::ast::*;
use std::fmt::{self, Display};

impl Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Int(v) => write!(f, "{v}"),
            Val::Sym(s) => write!(f, "{s}"),
        }
    }
}

impl Display for Loc {
    /// Memory is bracketed, as in herd's `Condition` and `States` lines, but for array
    /// elements (`v[1]`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Reg(t, r) => write!(f, "{t}:{r}"),
            Loc::Mem(x) if x.ends_with(']') => write!(f, "{x}"),
            Loc::Mem(x) => write!(f, "[{x}]"),
        }
    }
}

/// Binding strength, loosest first, used to add only the parentheses herd adds.
fn level(p: &Prop) -> u8 {
    match p {
        Prop::Or(_) => 0,
        Prop::And(_) => 1,
        Prop::Implies(..) => 2,
        _ => 3,
    }
}

fn write_at(p: &Prop, min: u8, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if level(p) < min {
        write!(f, "(")?;
        write_at(p, 0, f)?;
        return write!(f, ")");
    }
    match p {
        Prop::True => write!(f, "true"),
        Prop::False => write!(f, "false"),
        Prop::Eq(l, v) => write!(f, "{l}={v}"),
        Prop::EqLoc(a, b) => write!(f, "{a}={b}"),
        Prop::Not(q) => {
            write!(f, "not (")?;
            write_at(q, 0, f)?;
            write!(f, ")")
        }
        Prop::Or(ps) | Prop::And(ps) => {
            let (sep, lvl) = if matches!(p, Prop::Or(_)) { (" \\/ ", 1) } else { (" /\\ ", 2) };
            for (k, q) in ps.iter().enumerate() {
                if k > 0 {
                    write!(f, "{sep}")?;
                }
                write_at(q, lvl, f)?;
            }
            Ok(())
        }
        Prop::Implies(a, b) => {
            write_at(a, 3, f)?;
            write!(f, " => ")?;
            write_at(b, 2, f)
        }
    }
}

impl Display for Prop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_at(self, 0, f)
    }
}

impl Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kw = match self.kind {
            CondKind::Exists => "exists",
            CondKind::NotExists => "~exists",
            CondKind::Forall => "forall",
        };
        write!(f, "{kw} ({})", self.prop)
    }
}
