//! herd's way of writing places, values and propositions in logs.
//!
//! Each is written by one function generic over its output: `Display` uses it, and a log
//! line being built writes straight into its `String` (formatting machinery cost a log a
//! few hundred instructions per piece).

use super::ast::*;
use std::fmt::{self, Display, Write};

/// A value in decimal, or under herd's `-hexa` as `0x` and the 64-bit two's complement.
fn write_val<W: Write>(v: &Val, hexa: bool, f: &mut W) -> fmt::Result {
    match v {
        Val::Int(v) if hexa => write!(f, "{:#x}", *v as u64),
        Val::Int(v) => f.write_str(itoa::Buffer::new().format(*v)),
        Val::Sym(s) => f.write_str(&sym_text(s)),
    }
}

/// Memory is bracketed, as in herd's `Condition` and `States` lines, but for array
/// elements (`v[1]`).
pub(crate) fn write_loc<W: Write>(l: &Loc, f: &mut W) -> fmt::Result {
    match l {
        Loc::Reg(t, r) => {
            f.write_str(itoa::Buffer::new().format(*t))?;
            f.write_str(":")?;
            f.write_str(r)
        }
        Loc::Mem(x) if x.ends_with(']') => f.write_str(x),
        Loc::Mem(x) => {
            f.write_str("[")?;
            f.write_str(x)?;
            f.write_str("]")
        }
    }
}

impl Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_val(self, false, f)
    }
}

impl Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_loc(self, f)
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

fn write_at<W: Write>(p: &Prop, min: u8, hexa: bool, f: &mut W) -> fmt::Result {
    if level(p) < min {
        f.write_str("(")?;
        write_at(p, 0, hexa, f)?;
        return f.write_str(")");
    }
    match p {
        Prop::True => f.write_str("true"),
        Prop::False => f.write_str("false"),
        Prop::Eq(l, v) => {
            write_loc(l, f)?;
            f.write_str("=")?;
            write_val(v, hexa, f)
        }
        Prop::EqArray(x, es) => {
            f.write_str(x)?;
            f.write_str("={")?;
            for (k, (_, v)) in es.iter().enumerate() {
                if k > 0 {
                    f.write_str(",")?;
                }
                write_val(v, hexa, f)?;
            }
            f.write_str("}")
        }
        Prop::EqLoc(a, b) => {
            write_loc(a, f)?;
            f.write_str("=")?;
            write_loc(b, f)
        }
        Prop::Not(q) => {
            f.write_str("not (")?;
            write_at(q, 0, hexa, f)?;
            f.write_str(")")
        }
        Prop::Or(ps) | Prop::And(ps) => {
            let (sep, lvl) = if matches!(p, Prop::Or(_)) { (" \\/ ", 1) } else { (" /\\ ", 2) };
            for (k, q) in ps.iter().enumerate() {
                if k > 0 {
                    f.write_str(sep)?;
                }
                write_at(q, lvl, hexa, f)?;
            }
            Ok(())
        }
        Prop::Implies(a, b) => {
            write_at(a, 3, hexa, f)?;
            f.write_str(" => ")?;
            write_at(b, 2, hexa, f)
        }
        Prop::Fault(a) => write_fault_atom(a, "fault", f),
    }
}

/// A fault atom as herd writes it, after `word` (`fault` in conditions, `Fault` in a
/// state's `~Fault(…)`): `fault(P0:L0,x,MMU:Permission)`.
pub fn write_fault_atom<W: Write>(a: &FaultAtom, word: &str, f: &mut W) -> fmt::Result {
    write!(f, "{word}(P{}", a.thread)?;
    if let Some(l) = &a.label {
        write!(f, ":{l}")?;
    }
    for part in [&a.loc, &a.ftype].into_iter().flatten() {
        write!(f, ",{part}")?;
    }
    f.write_str(")")
}

impl Display for Prop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_at(self, 0, false, f)
    }
}

/// Appends the condition as herd's `Condition` line shows it: as written, numbers in
/// hexadecimal under `hexa`.
pub fn write_condition<W: Write>(c: &Condition, hexa: bool, f: &mut W) -> fmt::Result {
    let kw = match c.kind {
        CondKind::Exists => "exists",
        CondKind::NotExists => "~exists",
        CondKind::Forall => "forall",
    };
    f.write_str(kw)?;
    f.write_str(" (")?;
    write_at(c.written.as_deref().unwrap_or(&c.prop), 0, hexa, f)?;
    f.write_str(")")
}

impl Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_condition(self, false, f)
    }
}
