//! herd's numbering of the fresh variables of its C semantics, so that an unsolved value
//! ([`crate::events::Value::Sym`]) prints under herd's name `S<n>`.
//!
//! herd (`CSem`, `eventsMonad`, `symbValue`) draws one number from a global counter for
//! every register read (a parameter such as `x` in `*x` is a register), every memory read
//! and every operation on an operand that is not a constant, walking the threads P0 first.
//! An `if` generates its condition and then its then-arm once, and then the statements
//! after it once per path: the else path first. The name of an unsolved class is the root
//! of herd's union-find ([`crate::events::HerdVars`] says how that root is chosen).
//!
//! Only the shapes whose numbering is known are numbered: straight-line code with plain
//! loads, stores, fences and arithmetic, and top-level `if`s without `else` whose arm has
//! no branch. Anything else (loops, nested or two-armed `if`s, read-modify-writes, locks,
//! `&&`, `?:`) gives `None`, and litsat keeps printing `S`.

use super::ast::*;
use super::macros::{Body, Macros};
use crate::events::{HerdThreadVars, HerdVars};
use crate::isa::BinOp;
use std::collections::HashMap;

/// How deeply macros may expand (as in lowering).
const MAX_DEPTH: usize = 64;
/// At most this many top-level `if`s per thread are numbered (herd's paths double each).
const MAX_IFS: usize = 10;

/// One draw of herd's counter, or a register write, along one path.
#[derive(Clone, Debug)]
enum Act {
    /// A memory read and its number.
    Mem(usize),
    /// A read of register `.1`, numbered `.0`; `.2` when its value is copied into a
    /// register as is (a chain of register copies, whose union-find root is not modelled).
    Reg(usize, String, bool),
    /// A write of a register with the value of the `Mem` act at that index, if it is one.
    Write(String, Option<usize>),
}

/// What an expression's value is.
#[derive(Clone, Copy)]
enum Out {
    Const,
    /// The value of the act at that index (a memory or register read).
    Act(usize),
    Other,
}

struct Gen<'a> {
    macros: &'a Macros,
    next: usize,
    depth: usize,
}

impl Gen<'_> {
    fn draw(&mut self) -> usize {
        self.next += 1;
        self.next
    }

    fn expr(&mut self, e: &Expr, acts: &mut Vec<Act>) -> Option<Out> {
        Some(match e {
            Expr::Int(_) => Out::Const,
            Expr::Var(x, _) => {
                let n = self.draw();
                acts.push(Act::Reg(n, x.to_string(), false));
                Out::Act(acts.len() - 1)
            }
            Expr::Deref(p, _) => self.load(p, acts)?,
            Expr::Bin(_, a, b) => {
                let x = self.expr(a, acts)?;
                self.operation(x, b, acts)?
            }
            // As the left-nested `Bin`s it stands for, in a loop.
            Expr::Chain(c) => {
                let mut x = self.expr(&c.first, acts)?;
                for (op, b) in &c.rest {
                    if !matches!(op, Infix::Bin(_)) {
                        return None;
                    }
                    x = self.operation(x, b, acts)?;
                }
                x
            }
            Expr::Call(c) => self.call(c, acts)??,
            _ => return None,
        })
    }

    /// An operation whose left operand's value is `x`: its right operand `b`, then one
    /// draw unless both are constants.
    fn operation(&mut self, x: Out, b: &Expr, acts: &mut Vec<Act>) -> Option<Out> {
        let y = self.expr(b, acts)?;
        Some(if matches!((x, y), (Out::Const, Out::Const)) {
            Out::Const
        } else {
            self.draw();
            Out::Other
        })
    }

    fn load(&mut self, p: &Expr, acts: &mut Vec<Act>) -> Option<Out> {
        self.expr(p, acts)?;
        let n = self.draw();
        acts.push(Act::Mem(n));
        Some(Out::Act(acts.len() - 1))
    }

    /// A call's value (`Some(None)` for a statement-like call), `None` when unsupported.
    fn call(&mut self, c: &Call, acts: &mut Vec<Act>) -> Option<Option<Out>> {
        let arg = |k: usize| match c.args.get(k) {
            Some(Arg::Expr(e)) => Some(e),
            _ => None,
        };
        if let Some(m) = self.macros.get(c.name) {
            if m.params.len() != c.args.len() || self.depth >= MAX_DEPTH {
                return None;
            }
            let mut map = HashMap::new();
            for (p, a) in m.params.iter().zip(&c.args) {
                map.insert(*p, arg_expr(a)?.clone());
            }
            self.depth += 1;
            let r = match &m.body {
                Body::Expr(e) => self.expr(&super::lower::subst(e, &map), acts).map(Some),
                Body::Stmts(ss) => {
                    let ss: Vec<Stmt> = ss.iter().map(|s| super::lower::subst_stmt(s, &map)).collect();
                    self.straight(&ss, acts).map(|_| None)
                }
            };
            self.depth -= 1;
            return r;
        }
        match c.name {
            // `__load{t}(*p)`: herd reads the pointer, then memory.
            "__load" => match arg(0)? {
                Expr::Deref(p, _) => self.load(p, acts).map(Some),
                _ => None,
            },
            // `__store{t}(*p, v)`: the location first, then the value.
            "__store" => match arg(0)? {
                Expr::Deref(p, _) => {
                    self.expr(p, acts)?;
                    self.expr(arg(1)?, acts)?;
                    Some(None)
                }
                _ => None,
            },
            // C11's: the pointer is the first argument; the memory order draws nothing.
            "atomic_load_explicit" => self.load(arg(0)?, acts).map(Some),
            "atomic_store_explicit" => {
                self.expr(arg(0)?, acts)?;
                self.expr(arg(1)?, acts)?;
                Some(None)
            }
            "__fence" | "atomic_thread_fence" => Some(None),
            _ => None,
        }
    }

    /// A register gets `v`.
    fn write(&mut self, r: &str, v: Out, acts: &mut Vec<Act>) {
        let src = match v {
            Out::Act(i) => match &mut acts[i] {
                Act::Mem(_) => Some(i),
                Act::Reg(_, _, chain) => {
                    *chain = true;
                    None
                }
                Act::Write(..) => None,
            },
            _ => None,
        };
        acts.push(Act::Write(r.to_string(), src));
    }

    /// A statement without branches.
    fn simple(&mut self, s: &Stmt, acts: &mut Vec<Act>) -> Option<()> {
        match s {
            Stmt::Decl(r, None, _) => acts.push(Act::Write(r.to_string(), None)),
            Stmt::Decl(r, Some(e), _) | Stmt::Assign(Expr::Var(r, _), e, _) => {
                let v = self.expr(e, acts)?;
                self.write(r, v, acts);
            }
            Stmt::Assign(Expr::Deref(p, _), e, _) => {
                self.expr(p, acts)?;
                self.expr(e, acts)?;
            }
            Stmt::Expr(Expr::Call(c), _) => {
                self.call(c, acts)?;
            }
            Stmt::Expr(e, _) => {
                self.expr(e, acts)?;
            }
            Stmt::Block(ss) => self.straight(ss, acts)?,
            _ => return None,
        }
        Some(())
    }

    fn straight(&mut self, ss: &[Stmt], acts: &mut Vec<Act>) -> Option<()> {
        ss.iter().try_for_each(|s| self.simple(s, acts))
    }

    /// herd's `build_cond`: a comparison as is, anything else compared with 0.
    fn cond(&mut self, c: &Expr, acts: &mut Vec<Act>) -> Option<()> {
        use BinOp::*;
        match c.top_op() {
            Some(Infix::Bin(Lt | Gt | Eq | Ne | Le | Ge)) => self.expr(c, acts)?,
            _ => self.expr(&Expr::Bin(Ne, Box::new(c.clone()), Box::new(Expr::Int(0))), acts)?,
        };
        Some(())
    }

    /// The statements `ss` on every path, each path's acts pushed to `paths` with the
    /// outcomes of its `if`s (then-arm taken), in herd's generation order.
    fn seq(
        &mut self,
        ss: &[Stmt],
        mut acts: Vec<Act>,
        bits: Vec<bool>,
        paths: &mut Vec<(Vec<bool>, Vec<Act>)>,
    ) -> Option<()> {
        for (i, s) in ss.iter().enumerate() {
            match s {
                Stmt::If(c, then, els, _) => {
                    if !els.is_empty() || bits.len() >= MAX_IFS {
                        return None;
                    }
                    self.cond(c, &mut acts)?;
                    let mut taken = acts.clone();
                    self.straight(then, &mut taken)?;
                    let rest = &ss[i + 1..];
                    let with = |b: bool| bits.iter().copied().chain([b]).collect::<Vec<_>>();
                    self.seq(rest, acts, with(false), paths)?;
                    return self.seq(rest, taken, with(true), paths);
                }
                Stmt::Block(inner) if inner.iter().any(|s| matches!(s, Stmt::If(..) | Stmt::While(..))) => {
                    return None;
                }
                _ => self.simple(s, &mut acts)?,
            }
        }
        paths.push((bits, acts));
        Some(())
    }
}

fn arg_expr<'e, 'a>(a: &'e Arg<'a>) -> Option<&'e Expr<'a>> {
    match a {
        Arg::Expr(e) => Some(e),
        Arg::Op(..) => None,
    }
}

/// For one path's acts: each memory read's number and the number of its class's root
/// after herd solves registers (see [`HerdVars`]).
fn reads_of(acts: &[Act]) -> Vec<(usize, Option<usize>)> {
    let mut holds: HashMap<&str, usize> = HashMap::new();
    let mut readers: HashMap<usize, Vec<(usize, bool)>> = HashMap::new();
    for a in acts {
        match a {
            Act::Mem(_) => {}
            Act::Reg(n, r, chain) => {
                if let Some(&m) = holds.get(r.as_str()) {
                    readers.entry(m).or_default().push((*n, *chain));
                }
            }
            Act::Write(r, src) => {
                holds.remove(r.as_str());
                if let Some(m) = src {
                    holds.insert(r, *m);
                }
            }
        }
    }
    acts.iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Act::Mem(n) => {
                // With several readers, the class's root is the reader herd unifies
                // first; like its memory phase, taken to go from the last to the first
                // (the tests so far do not tell).
                let root = match readers.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
                    [] => Some(*n),
                    rs if rs.iter().all(|&(_, chain)| !chain) => rs.iter().map(|&(q, _)| q).max(),
                    _ => None,
                };
                Some((*n, root))
            }
            _ => None,
        })
        .collect()
}

/// herd's numbering for the threads' bodies (thread id, body), in the test's order.
pub fn number(macros: &Macros, threads: &[(usize, Vec<Stmt>)]) -> Option<HerdVars> {
    let mut g = Gen { macros, next: 0, depth: 0 };
    let mut out = Vec::new();
    for (id, body) in threads {
        let mut paths = Vec::new();
        g.seq(body, Vec::new(), Vec::new(), &mut paths)?;
        let mut by_bits = vec![Vec::new(); paths.len()];
        for (bits, acts) in paths {
            let k = bits.iter().enumerate().map(|(i, &b)| (b as usize) << i).sum::<usize>();
            *by_bits.get_mut(k)? = reads_of(&acts);
        }
        out.push(HerdThreadVars { thread: *id, paths: by_bits });
    }
    Some(HerdVars { threads: out })
}
