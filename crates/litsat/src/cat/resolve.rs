//! Names resolved when a model loads: a name that no file of the program binds and no
//! built-in table knows is an error before any test runs, printed once, instead of once
//! per test at evaluation.
//!
//! Only what is certain to be evaluated is checked: a top-level binding something
//! evaluated reads (`Binding::live`), not one under a variant or in a branch of `if`, as
//! herd's models name there the built-ins of the features a variant selects. Then the
//! check is lenient where a name may exist for some test only: every
//! architecture's set names count (herd binds them per architecture), and herd's own
//! built-ins that litsat does not bind ([`HERD_BUILTINS`]), and so does every
//! word of the macros file (a C test's annotations become sets). A name bound anywhere,
//! under a variant or inside a procedure too, counts as bound: its scope is still checked
//! at evaluation, as herd does. The left side of `try … with` is not checked at all (herd's
//! idiom for a set an architecture may lack).

use super::ast::{Binding, Cond, Expr, Name, Stmt};
use super::load::Program;
use crate::diag::{Diag, Pos};
use std::collections::HashSet;

/// The names a model may read without binding them, and the procedures it defines.
struct Known {
    names: HashSet<Name>,
    /// The architectures' set names, upper-cased.
    upper: HashSet<String>,
    procedures: HashSet<String>,
}

/// Fails with the first name, in the order the files run, that nothing binds.
pub fn check(prog: &Program) -> Result<(), Diag> {
    let known = Known::of(prog);
    let mut w = Walk { prog, known: &known, seen: Vec::new() };
    let first = [prog.stdlib.as_deref(), prog.bell.as_deref(), Some(prog.root.as_str())];
    for path in first.into_iter().flatten() {
        w.file(path)?;
    }
    Ok(())
}

impl Known {
    fn of(prog: &Program) -> Known {
        let mut names: HashSet<Name> = prog.files.values().flat_map(|f| f.model.binds.iter().copied()).collect();
        names.extend(crate::encode::exec::fixed_builtin_names().map(Name::new));
        names.extend(super::interp::primitive_names());
        let mut upper = HashSet::new();
        for isa in crate::isa::ARCHS.iter().filter_map(|a| crate::isa::for_arch(a)) {
            names.extend(isa.known_sets().iter().flat_map(|s| with_capital(s)));
            upper.extend(isa.known_sets().iter().map(|s| s.to_ascii_uppercase()));
        }
        names.extend(HERD_BUILTINS.iter().map(|s| Name::new(s)));
        if let Some(m) = &prog.macros {
            names.extend(words(&m.text).flat_map(with_capital));
        }
        let mut procedures = HashSet::new();
        for f in prog.files.values() {
            procedures_in(&f.model.stmts, &mut procedures);
        }
        Known { names, upper, procedures }
    }
}

/// Names herd binds for some architecture, variant or test that litsat does not bind
/// (virtual memory, ASL, register events, …, from herd's `machModelChecker` and its
/// architectures' `arch_sets`): a model naming one loads, and fails only if evaluation
/// reaches it, as before. herd's `PTE…` sets (one per page-table attribute) and its fence
/// names in any case are accepted by [`Known::herd_family`].
const HERD_BUILTINS: &[&str] = &[
    "instr", "tst", "same-low-order-bits", "partial_po", "depend", "success", "control", "aligned",
    "iico_order", "rf-reg", "same-static", "equiv-spec", "pco", "EXEC", "Instr", "TLBI", "ASLLocal", "WPC",
    "Imp", "MMU", "FAULT", "FAULT-RD", "FAULT-WR", "EXC-ENTRY", "EXC-RET", "IC", "DC", "AQ", "GCS", "NoRet",
    "ReadOnly", "alias", "annot", "no-loc", "CON", "NT", "ClFlush", "ClFlushOpt", "D-PTE", "PA", "T", "TTD",
    "CutOff", "ExcEntry", "ExcReturn", "Fault", "inv-domain", "isb", "AF", "DB", "PTEtoPA",
    // The kinds of fault (herd's `faultType`).
    "AccessFlag", "D-MMU", "Exclusive", "GCSCheck", "PacCheck", "Permission", "SVC", "TagCheck", "Translation",
    "UndefinedInstruction",
];

impl Known {
    /// Whether `x` belongs to one of herd's open families of built-ins: a page-table set
    /// (`PTEV`, `PTEAF0`, …) or TLB maintenance set (`TLBInXS`), an architecture's set written in another case (`dsb.sy`
    /// for `DSB.SY`), or an operation of a known kind (`IC.IALLUIS`, `TLBI.VAE1IS`).
    fn herd_family(&self, x: &str) -> bool {
        let upper = x.to_ascii_uppercase();
        let kind = upper.split('.').next().unwrap_or("");
        x.starts_with("PTE") || x.starts_with("TLBI")
            || self.upper.contains(&upper)
            || (upper.contains('.') && (self.upper.contains(kind) || HERD_BUILTINS.contains(&kind)))
    }
}

/// `s` and herd's capitalised set name for it.
fn with_capital(s: &str) -> [Name; 2] {
    [Name::new(s), Name::new(&crate::encode::exec::capitalised(s))]
}

/// The identifier-like words of a text.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')).filter(|w| !w.is_empty())
}

fn procedures_in(stmts: &[Stmt], out: &mut HashSet<String>) {
    for s in stmts {
        match s {
            Stmt::Procedure(name, _, body) => {
                out.insert(name.clone());
                procedures_in(body, out);
            }
            Stmt::IfVariant(_, a, b) => {
                procedures_in(a, out);
                procedures_in(b, out);
            }
            Stmt::Forall(_, _, body, _) => procedures_in(body, out),
            _ => {}
        }
    }
}

/// The program's files walked in the order they run, each once.
struct Walk<'a> {
    prog: &'a Program,
    known: &'a Known,
    seen: Vec<&'a str>,
}

/// The file being walked: where errors are located.
#[derive(Clone, Copy)]
struct Here<'a> {
    path: &'a str,
    text: &'a str,
}

type R = Result<(), Diag>;

impl<'a> Walk<'a> {
    fn file(&mut self, path: &'a str) -> R {
        if self.seen.contains(&path) {
            return Ok(());
        }
        self.seen.push(path);
        let Some(f) = self.prog.file(path) else { return Ok(()) };
        let here = Here { path: &f.path, text: &f.text };
        self.stmts(here, &f.model.stmts)
    }

    fn stmts(&mut self, here: Here<'a>, stmts: &'a [Stmt]) -> R {
        stmts.iter().try_for_each(|s| self.stmt(here, s))
    }

    fn stmt(&mut self, here: Here<'a>, s: &'a Stmt) -> R {
        match s {
            // A binding nothing evaluated reads is never made (see `reach`).
            Stmt::Let(_, bs) => bs.iter().filter(|b| b.live).try_for_each(|b| self.binding(here, b)),
            Stmt::Check(c) => self.expr(here, &c.expr),
            Stmt::Include(name, _) => match self.prog.include_target(here.path, name) {
                Some(target) => self.file(target),
                None => Ok(()),
            },
            Stmt::Procedure(_, _, body) => self.stmts(here, body),
            Stmt::Call(name, e, _, pos) => {
                if !self.known.procedures.contains(name) {
                    let near = nearest(name, self.known.procedures.iter().map(String::as_str));
                    return Err(Diag::at(here.path, here.text, *pos, unknown("procedure", name, &near)));
                }
                self.expr(here, e)
            }
            Stmt::Forall(_, e, body, _) => {
                self.expr(here, e)?;
                self.stmts(here, body)
            }
            Stmt::With(_, e, _) => self.expr(here, e),
            // What runs under a variant may never run (herd's models name there the sets
            // of the features the variant selects): only its includes are followed.
            Stmt::IfVariant(c, a, b) => {
                self.cond(here, c)?;
                a.iter().chain(b).filter(|s| matches!(s, Stmt::Include(..))).try_for_each(|s| self.stmt(here, s))
            }
            Stmt::Enum(..) | Stmt::Show | Stmt::Instructions | Stmt::Unsupported(..) => Ok(()),
        }
    }

    fn binding(&mut self, here: Here<'a>, b: &'a Binding) -> R {
        self.expr(here, &b.body)
    }

    fn expr(&mut self, here: Here<'a>, e: &'a Expr) -> R {
        match e {
            Expr::Var(x, pos) => self.name(here, *x, *pos),
            Expr::Empty | Expr::Tag(_) | Expr::Str(_) => Ok(()),
            Expr::Op1(_, a) | Expr::IdSet(a) => self.expr(here, a),
            Expr::Op2(_, a, b, _) | Expr::App(a, b, _) => {
                self.expr(here, a)?;
                self.expr(here, b)
            }
            // herd's `try e with d` takes d on any error of e, an unbound name's too.
            Expr::Try(_, b) => self.expr(here, b),
            Expr::SetLit(xs) | Expr::Tuple(xs) => xs.iter().try_for_each(|x| self.expr(here, x)),
            Expr::Fun(_, body) => self.expr(here, body),
            Expr::Let(_, bs, body) => {
                bs.iter().try_for_each(|b| self.binding(here, b))?;
                self.expr(here, body)
            }
            Expr::Match(e, arms, _) => {
                self.expr(here, e)?;
                arms.iter().try_for_each(|a| self.expr(here, &a.body))
            }
            // Only one branch is evaluated: neither is certain to be.
            Expr::If(c, _, _) => self.cond(here, c),
        }
    }

    fn cond(&mut self, here: Here<'a>, c: &'a Cond) -> R {
        match c {
            Cond::Variant(_) => Ok(()),
            Cond::Not(c) => self.cond(here, c),
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond(here, a)?;
                self.cond(here, b)
            }
            Cond::Eq(a, b) | Cond::Subset(a, b) | Cond::In(a, b) => {
                self.expr(here, a)?;
                self.expr(here, b)
            }
        }
    }

    fn name(&self, here: Here<'a>, x: Name, pos: Pos) -> R {
        if self.known.names.contains(&x) || self.known.herd_family(x.as_str()) {
            return Ok(());
        }
        let near = nearest(x.as_str(), self.known.names.iter().map(|n| n.as_str()));
        Err(Diag::at(here.path, here.text, pos, unknown("name", x.as_str(), &near)))
    }
}

/// `unbound name `x`` with its suggestions: `; did you mean `a` or `b`?`.
fn unknown(what: &str, x: &str, near: &[&str]) -> String {
    let head = if what == "name" { format!("unbound name `{x}`") } else { format!("unknown {what} `{x}`") };
    match near {
        [] => head,
        [a] => format!("{head}; did you mean `{a}`?"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(|r| format!("`{r}`")).collect();
            format!("{head}; did you mean {} or `{last}`?", rest.join(", "))
        }
    }
}

/// The candidates nearest to `x` (at most three, sorted), as rustc suggests names: a
/// candidate equal but for case first, else those at the least edit distance within a
/// third of the name's length (at least one edit).
pub fn nearest<'c>(x: &str, candidates: impl Iterator<Item = &'c str>) -> Vec<&'c str> {
    let most = (x.chars().count() / 3).max(1);
    let mut best: Vec<(usize, &str)> = Vec::new();
    for c in candidates.filter(|c| *c != x) {
        let d = if c.eq_ignore_ascii_case(x) { 0 } else { strsim::damerau_levenshtein(x, c) };
        if d <= most {
            best.push((d, c));
        }
    }
    let Some(min) = best.iter().map(|b| b.0).min() else { return Vec::new() };
    let mut out: Vec<&str> = best.into_iter().filter(|b| b.0 == min).map(|b| b.1).collect();
    out.sort_unstable();
    out.dedup();
    out.truncate(3);
    out
}

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn suggestions_are_the_nearest_names() {
        let names = ["rfe", "rfi", "rf", "fre", "po", "acyclic"];
        assert_eq!(nearest("rfee", names.into_iter()), ["rfe"]);
        assert_eq!(nearest("acylic", names.into_iter()), ["acyclic"]);
        assert_eq!(nearest("RFE", names.into_iter()), ["rfe"]);
        assert!(nearest("xyzzy", names.into_iter()).is_empty());
    }
}
