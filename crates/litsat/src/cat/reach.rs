//! What a model can read: a built-in relation or set that nothing can read is bound empty
//! instead of being built (see `encode::exec::builtins_read`), and a top-level binding
//! that nothing can read is not made (`Binding::live`): each costs a test an allocation
//! and its drop, which the standard library's unused definitions paid for every test.
//!
//! Mentioning a name is not reading it. The standard library defines relations most
//! models never use (`com`, `fencerel`, `fenced`, …), and a model may bind a name of its
//! own over a built-in's (C11's `fr`): building `fr` for those cost a composition per test
//! for nothing. What can be evaluated is every statement but a `let`, then the body of
//! each binding that something evaluated mentions; a mention reaches the binding of its
//! name that comes before it in the order the files run (the standard library, the bell
//! file, the root, each include where it first appears), or the built-in where none does.
//!
//! Where evaluation cannot be followed by position, every possibility is kept: a binding
//! made under a variant (`if "v" … end`) may not be made, so the name reaches what it
//! reached before too; a procedure's body (run where it is called) and a `forall`'s
//! reach both the built-in and every binding of each name they mention. Local binders
//! (parameters, `match` arms, inner `let`s) are not followed either: a name they bind
//! still reaches the outer binding or the built-in. Each of these only adds built-ins.

use super::ast::{Binding, Name, Pat, Stmt};
use super::binders;
use super::load::Program;
use super::parse::TUPLE_BINDING;
use std::collections::{HashMap, HashSet};

/// What a mention of a name refers to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    Builtin(Name),
    /// A binding, by its place in [`Walk::defs`].
    Def(usize),
}

/// The program's statements walked in the order they run.
#[derive(Default)]
struct Walk {
    /// By name: what a mention here refers to (none: the built-in).
    scope: HashMap<Name, Vec<Target>>,
    /// By binding: its name, what its body's mentions refer to, and the binding's address
    /// (its identity in the program, never read through).
    defs: Vec<(Name, Vec<Target>, usize)>,
    /// What the statements evaluated unconditionally mention.
    roots: Vec<Target>,
    /// Names mentioned where the walk cannot place them (procedures, `forall`).
    loose: Vec<Name>,
    /// The files walked (each runs once, where first included).
    files: Vec<String>,
}

/// What the program can read.
pub struct Reach {
    /// The built-ins the program can read.
    pub builtins: Vec<Name>,
    /// The addresses of the top-level bindings nothing evaluated can read.
    pub dead: HashSet<usize>,
}

/// What `prog` can read (see the module doc).
pub fn reach(prog: &Program) -> Reach {
    let mut w = Walk::default();
    if let Some(std) = prog.stdlib.as_ref().filter(|s| **s != prog.root) {
        w.file(prog, std, Mode::Placed);
    }
    if let Some(bell) = &prog.bell {
        w.file(prog, bell, Mode::Placed);
    }
    w.file(prog, &prog.root, Mode::Placed);
    w.reached()
}

/// How the statements being walked are evaluated.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// In order, each once.
    Placed,
    /// Perhaps (under a variant): their bindings may not be made.
    Maybe,
    /// Elsewhere (a procedure's body): their mentions are loose.
    Loose,
}

impl Walk {
    fn file(&mut self, prog: &Program, path: &str, mode: Mode) {
        if self.files.iter().any(|f| f == path) {
            return;
        }
        self.files.push(path.to_string());
        let Some(f) = prog.file(path) else { return };
        for s in &f.model.stmts {
            self.stmt(prog, path, s, mode);
        }
    }

    fn stmt(&mut self, prog: &Program, path: &str, s: &Stmt, mode: Mode) {
        match s {
            Stmt::Let(rec, bs) => self.bindings(*rec, bs, mode),
            Stmt::Check(c) => self.mentions(&binders::uses_of(&c.expr), mode),
            Stmt::Include(name, _) => {
                if let Some(target) = prog.include_target(path, name) {
                    self.file(prog, target, mode);
                }
            }
            Stmt::Procedure(_, _, body) => body.iter().for_each(|s| self.stmt(prog, path, s, Mode::Loose)),
            Stmt::Call(_, e, _, _) => self.mentions(&binders::uses_of(e), mode),
            Stmt::Forall(_, e, body, _) => {
                self.mentions(&binders::uses_of(e), mode);
                body.iter().for_each(|s| self.stmt(prog, path, s, Mode::Loose));
            }
            // An order generator without a set orders the writes: `W` is looked up.
            Stmt::With(_, e, _) => {
                let mut uses = binders::uses_of(e);
                uses.push(Name::new("W"));
                self.mentions(&uses, mode);
            }
            Stmt::IfVariant(c, a, b) => {
                self.mentions(&binders::uses_of_cond(c), mode);
                let inner = if mode == Mode::Loose { Mode::Loose } else { Mode::Maybe };
                a.iter().chain(b).for_each(|s| self.stmt(prog, path, s, inner));
            }
            Stmt::Enum(..) | Stmt::Show | Stmt::Instructions | Stmt::Unsupported(..) => {}
        }
    }

    /// What a mention of `x` here refers to.
    fn resolve(&self, x: Name) -> Vec<Target> {
        self.scope.get(&x).cloned().unwrap_or_else(|| vec![Target::Builtin(x)])
    }

    /// Mentions made by something evaluated.
    fn mentions(&mut self, uses: &[Name], mode: Mode) {
        for &x in uses {
            if mode == Mode::Loose {
                self.loose.push(x);
            } else {
                let t = self.resolve(x);
                self.roots.extend(t);
            }
        }
    }

    /// A `let` (or `let rec`) group: each binding a definition of its names, whose body
    /// sees the bindings before the group (and, `rec`, the group's own).
    fn bindings(&mut self, rec: bool, bs: &[Binding], mode: Mode) {
        if mode == Mode::Loose {
            // Run where the procedure is called: every mention is loose, and a name it
            // binds is one the walk cannot place either.
            for b in bs {
                self.loose.extend(binders::uses_of(&b.body));
            }
            return;
        }
        let first = self.defs.len();
        let named: Vec<(Name, &Binding)> = bs.iter().flat_map(|b| bound_names(b).into_iter().map(move |x| (x, b))).collect();
        self.defs.extend(named.iter().map(|&(x, b)| (x, Vec::new(), std::ptr::from_ref(b) as usize)));
        if rec {
            self.bind(&named, first, mode);
        }
        for (k, (_, b)) in named.iter().enumerate() {
            let reads: Vec<Target> = binders::uses_of(&b.body).into_iter().flat_map(|x| self.resolve(x)).collect();
            self.defs[first + k].1 = reads;
        }
        if !rec {
            self.bind(&named, first, mode);
        }
    }

    /// Puts the definitions `first..` of `named` in scope: in place of what their names
    /// referred to, or beside it where the binding may not be made.
    fn bind(&mut self, named: &[(Name, &Binding)], first: usize, mode: Mode) {
        for (k, &(x, _)) in named.iter().enumerate() {
            let def = Target::Def(first + k);
            match mode {
                Mode::Placed => {
                    self.scope.insert(x, vec![def]);
                }
                _ => {
                    let was = self.resolve(x);
                    let now = self.scope.entry(x).or_insert(was);
                    now.push(def);
                }
            }
        }
    }

    /// The built-ins read: those the roots and loose mentions reach, through the
    /// definitions they reach; and the bindings none of whose names is reached.
    fn reached(self) -> Reach {
        let mut seen = vec![false; self.defs.len()];
        let mut out: Vec<Name> = Vec::new();
        let mut todo: Vec<Target> = self.roots;
        for &x in &self.loose {
            todo.push(Target::Builtin(x));
            todo.extend((0..self.defs.len()).filter(|&d| self.defs[d].0 == x).map(Target::Def));
        }
        while let Some(t) = todo.pop() {
            match t {
                Target::Builtin(x) => out.push(x),
                Target::Def(d) if !std::mem::replace(&mut seen[d], true) => todo.extend(&self.defs[d].1),
                Target::Def(_) => {}
            }
        }
        // A `let (a, b) = e` is one binding of two names: live if either is read.
        let live: HashSet<usize> = self.defs.iter().zip(&seen).filter(|(_, s)| **s).map(|(d, _)| d.2).collect();
        let dead = self.defs.iter().map(|d| d.2).filter(|a| !live.contains(a)).collect();
        Reach { builtins: out, dead }
    }
}

/// The names a binding binds: its own, or those of its pattern for `let (a, b) = e`.
fn bound_names(b: &Binding) -> Vec<Name> {
    match (&b.params, b.name == TUPLE_BINDING) {
        (Some(Pat::Tuple(xs)), true) => xs.clone(),
        (Some(Pat::Var(x)), true) => vec![*x],
        _ => vec![b.name],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cat::load::load_text;

    fn read(text: &str) -> impl Fn(&str) -> bool {
        let prog = load_text("t.cat", text).expect("loads");
        let used = reach(&prog).builtins;
        move |x: &str| used.contains(&Name::new(x))
    }

    #[test]
    fn only_what_something_evaluated_mentions() {
        let r = read("let unused = rf ; co\nlet used = po & loc\nacyclic used as a\n");
        assert!(r("po") && r("loc"));
        assert!(!r("rf") && !r("co"));
    }

    #[test]
    fn a_binding_hides_the_builtin_after_it_only() {
        let r = read("acyclic fr as early\nlet fr = rf ; co\nacyclic fr as late\n");
        assert!(r("fr") && r("rf"));
        let r = read("let fr = rf ; co\nacyclic fr as late\n");
        assert!(!r("fr") && r("rf") && r("co"));
    }

    #[test]
    fn a_binding_under_a_variant_may_not_hide_it() {
        let r = read("if \"v\" let fr = rf end\nacyclic fr as x\n");
        assert!(r("fr") && r("rf"));
    }

    #[test]
    fn procedures_reach_everything_they_mention() {
        let r = read("let f = ext\nprocedure p(x) = acyclic f | x as y end\ncall p(po)\n");
        assert!(r("po") && r("f") && r("ext"));
    }

    #[test]
    fn bindings_nothing_reads_are_marked_dead() {
        let prog = load_text("t.cat", "let a = po\nlet b = rf\nlet (c, d) = (co, fr)\nacyclic a | d as x\n").expect("loads");
        let live: Vec<(String, bool)> = prog.files[&prog.root]
            .model
            .stmts
            .iter()
            .flat_map(|s| match s {
                Stmt::Let(_, bs) => bs.iter().map(|b| (b.name.as_str().to_string(), b.live)).collect(),
                _ => Vec::new(),
            })
            .collect();
        let want = [("a", true), ("b", false), (TUPLE_BINDING, true)].map(|(x, l)| (x.to_string(), l));
        assert_eq!(live, want);
        // The standard library's unused `com` is not bound either.
        let std = prog.stdlib.as_ref().expect("a stdlib");
        let com = prog.files[std].model.stmts.iter().find_map(|s| match s {
            Stmt::Let(_, bs) => bs.iter().find(|b| b.name.as_str() == "com"),
            _ => None,
        });
        assert_eq!(com.map(|b| b.live), Some(false));
    }

    #[test]
    fn recursive_groups_and_orders() {
        let r = read("include \"cross.cat\"\nlet rec a = b | po and b = a ; rf\nacyclic a as x\nwith mo from generate_orders(R, 0)\n");
        assert!(r("po") && r("rf") && r("W") && r("R"));
    }
}
