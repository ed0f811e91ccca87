//! Random small cat models, well typed by construction.
//!
//! A model is 0–4 `let` bindings, each a relation or a set, then 1–3 checks (`acyclic`,
//! `irreflexive`, `empty`, sometimes negated, sometimes named) and sometimes a
//! `flag ~empty … as f`. Relations combine the base relations with `|`, `&`, `\`, `;`, the
//! postfix `+`, `*`, `?`, `^-1`, the complement `~`, identities `[S]`, products `S * S`,
//! earlier bindings and the stdlib's `fencerel(S)` (rarely also `amo`, `lxsx`, `com`,
//! `same-instance`, `sm`); sets combine R, W, M, F, IW, X, `_` (rarely FW, B, EX and
//! architecture tags under `try … with emptyset`) with `|`, `&`, `\`, `~`, `domain` and
//! `range`. Checks are mostly on "tame" relations (built around the acyclic base relations)
//! so that a model keeps some candidates and rejects others. Every composite is parenthesised, so the
//! text means what the structure says whatever the precedences (applications too: herd's
//! application binds looser than postfix operators, `f(s)+` is `f((s)+)`).

use proptest::prelude::*;
use std::fmt::Write as _;

const BASE_RELS: [&str; 24] = [
    "po",
    "rf",
    "co",
    "fr",
    "rfe",
    "fre",
    "coe",
    "rfi",
    "coi",
    "fri",
    "po-loc",
    "addr",
    "data",
    "ctrl",
    "rmw",
    "loc",
    "ext",
    "int",
    "id",
    // Less common: the stdlib's and herd's other names.
    "amo",
    "lxsx",
    "com",
    "same-instance",
    "sm",
];
/// How many of [`BASE_RELS`] are the common ones.
const COMMON_RELS: usize = 19;
/// The base relations that are acyclic (`tame` expressions start from them, so that
/// checks on them accept some candidates and reject others).
const TAME: [usize; 15] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
const BASE_SETS: [&str; 19] = [
    "R",
    "W",
    "M",
    "F",
    "IW",
    "X",
    "_",
    // Less common: final writes, branches, exclusives, and architecture tags through `try`.
    "FW",
    "B",
    "EX",
    "(try A with emptyset)",
    "(try L with emptyset)",
    "(try Acq with emptyset)",
    "(try Rel with emptyset)",
    "(try NoRet with emptyset)",
    "(try MFENCE with emptyset)",
    "(try Fence.rw.rw with emptyset)",
    "(try DMB.SY with emptyset)",
    "(try ISB with emptyset)",
];
/// How many of [`BASE_SETS`] are the common ones.
const COMMON_SETS: usize = 7;

#[derive(Clone, Copy, Debug)]
pub enum SOp {
    Union,
    Inter,
    Diff,
}

#[derive(Clone, Copy, Debug)]
pub enum ROp {
    Union,
    Inter,
    Diff,
    Seq,
}

#[derive(Clone, Copy, Debug)]
pub enum Post {
    Plus,
    Star,
    Opt,
    Inv,
}

#[derive(Clone, Debug)]
pub enum SetE {
    Base(usize),
    /// An earlier set binding (modulo how many there are; `M` when none).
    Var(usize),
    Bin(SOp, Box<SetE>, Box<SetE>),
    Comp(Box<SetE>),
    Domain(Box<RelE>),
    Range(Box<RelE>),
}

#[derive(Clone, Debug)]
pub enum RelE {
    Base(usize),
    /// An earlier relation binding (modulo how many there are; `po` when none).
    Var(usize),
    Id(Box<SetE>),
    Prod(Box<SetE>, Box<SetE>),
    Bin(ROp, Box<RelE>, Box<RelE>),
    Post(Post, Box<RelE>),
    Comp(Box<RelE>),
    Fencerel(Box<SetE>),
}

#[derive(Clone, Debug)]
pub enum Bind {
    Rel(RelE),
    Set(SetE),
}

#[derive(Clone, Copy, Debug)]
pub enum CKind {
    Acyclic,
    Irreflexive,
    Empty,
}

#[derive(Clone, Debug)]
pub enum Target {
    Rel(RelE),
    /// `empty` on a set.
    Set(SetE),
}

#[derive(Clone, Debug)]
pub struct CheckSpec {
    pub kind: CKind,
    pub negated: bool,
    pub named: bool,
    pub target: Target,
}

#[derive(Clone, Debug)]
pub struct ModelSpec {
    pub binds: Vec<Bind>,
    pub checks: Vec<CheckSpec>,
    /// `flag ~empty r as f`.
    pub flag: Option<RelE>,
}

fn set_leaf() -> BoxedStrategy<SetE> {
    prop_oneof![
        5 => (0..COMMON_SETS).prop_map(SetE::Base),
        1 => (COMMON_SETS..BASE_SETS.len()).prop_map(SetE::Base),
        1 => (0..4usize).prop_map(SetE::Var),
    ]
    .boxed()
}

fn rel_leaf() -> BoxedStrategy<RelE> {
    prop_oneof![
        8 => (0..COMMON_RELS).prop_map(RelE::Base),
        1 => (COMMON_RELS..BASE_RELS.len()).prop_map(RelE::Base),
        2 => (0..4usize).prop_map(RelE::Var),
        1 => set_leaf().prop_map(|s| RelE::Id(Box::new(s))),
    ]
    .boxed()
}

fn sop() -> impl Strategy<Value = SOp> {
    prop_oneof![Just(SOp::Union), Just(SOp::Inter), Just(SOp::Diff)]
}

fn set_expr(depth: u32) -> BoxedStrategy<SetE> {
    if depth == 0 {
        return set_leaf();
    }
    let s = set_expr(depth - 1);
    let r = rel_expr(depth - 1);
    prop_oneof![
        6 => set_leaf(),
        3 => (sop(), s.clone(), s.clone()).prop_map(|(o, a, b)| SetE::Bin(o, Box::new(a), Box::new(b))),
        1 => s.prop_map(|a| SetE::Comp(Box::new(a))),
        1 => r.clone().prop_map(|a| SetE::Domain(Box::new(a))),
        1 => r.prop_map(|a| SetE::Range(Box::new(a))),
    ]
    .boxed()
}

fn rel_expr(depth: u32) -> BoxedStrategy<RelE> {
    if depth == 0 {
        return rel_leaf();
    }
    let r = rel_expr(depth - 1);
    let s = set_expr(depth - 1);
    let rop = prop_oneof![2 => Just(ROp::Union), 1 => Just(ROp::Inter), 1 => Just(ROp::Diff), 3 => Just(ROp::Seq)];
    let post = prop_oneof![2 => Just(Post::Plus), 1 => Just(Post::Star), 1 => Just(Post::Opt), 1 => Just(Post::Inv)];
    prop_oneof![
        5 => rel_leaf(),
        6 => (rop, r.clone(), r.clone()).prop_map(|(o, a, b)| RelE::Bin(o, Box::new(a), Box::new(b))),
        2 => (post, r.clone()).prop_map(|(p, a)| RelE::Post(p, Box::new(a))),
        1 => r.prop_map(|a| RelE::Comp(Box::new(a))),
        1 => s.clone().prop_map(|a| RelE::Id(Box::new(a))),
        1 => (s.clone(), s.clone()).prop_map(|(a, b)| RelE::Prod(Box::new(a), Box::new(b))),
        1 => s.prop_map(|a| RelE::Fencerel(Box::new(a))),
    ]
    .boxed()
}

/// Relations built around irreflexive base relations: unions, sequences and closures of
/// them, restricted by random sets or cut down by random relations.
fn tame(depth: u32) -> BoxedStrategy<RelE> {
    let leaf = prop::sample::select(TAME.to_vec()).prop_map(RelE::Base).boxed();
    if depth == 0 {
        return leaf;
    }
    let t = tame(depth - 1);
    let r = rel_expr(depth - 1);
    let s = set_expr(1);
    prop_oneof![
        3 => leaf,
        4 => (t.clone(), t.clone()).prop_map(|(a, b)| RelE::Bin(ROp::Union, Box::new(a), Box::new(b))),
        2 => (t.clone(), t.clone()).prop_map(|(a, b)| RelE::Bin(ROp::Seq, Box::new(a), Box::new(b))),
        1 => t.clone().prop_map(|a| RelE::Post(Post::Plus, Box::new(a))),
        1 => (t.clone(), r.clone()).prop_map(|(a, b)| RelE::Bin(ROp::Inter, Box::new(a), Box::new(b))),
        2 => (t.clone(), r).prop_map(|(a, b)| RelE::Bin(ROp::Diff, Box::new(a), Box::new(b))),
        2 => (s, t).prop_map(|(s, a)| RelE::Bin(ROp::Seq, Box::new(RelE::Id(Box::new(s))), Box::new(a))),
    ]
    .boxed()
}

pub fn model() -> impl Strategy<Value = ModelSpec> {
    let bind = prop_oneof![
        2 => tame(2).prop_map(Bind::Rel),
        2 => rel_expr(3).prop_map(Bind::Rel),
        1 => set_expr(2).prop_map(Bind::Set),
    ];
    // `acyclic` and `irreflexive` on a relation, mostly a tame one; `empty` on an
    // intersection with a tame relation (herd's `empty rmw & (fre ; coe)`), on any relation,
    // or on a set.
    let cyc = (
        prop_oneof![3 => Just(CKind::Acyclic), 2 => Just(CKind::Irreflexive)],
        prop_oneof![
            4 => tame(3),
            1 => rel_expr(3),
        ],
    )
        .prop_map(|(k, r)| (k, Target::Rel(r)));
    let empty_target = prop_oneof![
        3 => (tame(2), prop_oneof![tame(2), rel_expr(2)])
            .prop_map(|(a, b)| Target::Rel(RelE::Bin(ROp::Inter, Box::new(a), Box::new(b)))),
        1 => rel_expr(3).prop_map(Target::Rel),
        1 => set_expr(2).prop_map(Target::Set),
    ];
    let check = (
        prop_oneof![4 => cyc, 1 => empty_target.prop_map(|t| (CKind::Empty, t))],
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.5),
    )
        .prop_map(|((kind, target), negated, named)| CheckSpec { kind, negated, named, target });
    (
        prop::collection::vec(bind, 0..=4),
        prop::collection::vec(check, 1..=3),
        prop::option::weighted(0.15, prop_oneof![tame(2), rel_expr(2)]),
    )
        .prop_map(|(binds, checks, flag)| ModelSpec { binds, checks, flag })
}

/// Names bound so far, for `Var`.
struct Scope {
    rels: Vec<String>,
    sets: Vec<String>,
}

fn set_text(e: &SetE, sc: &Scope, out: &mut String) {
    match e {
        SetE::Base(k) => out.push_str(BASE_SETS[*k]),
        SetE::Var(k) => out.push_str(if sc.sets.is_empty() { "M" } else { &sc.sets[k % sc.sets.len()] }),
        SetE::Bin(o, a, b) => {
            out.push('(');
            set_text(a, sc, out);
            out.push_str(match o {
                SOp::Union => " | ",
                SOp::Inter => " & ",
                SOp::Diff => " \\ ",
            });
            set_text(b, sc, out);
            out.push(')');
        }
        SetE::Comp(a) => {
            out.push_str("(~");
            set_text(a, sc, out);
            out.push(')');
        }
        SetE::Domain(r) | SetE::Range(r) => {
            out.push_str(if matches!(e, SetE::Domain(_)) { "(domain(" } else { "(range(" });
            rel_text(r, sc, out);
            out.push_str("))");
        }
    }
}

fn rel_text(e: &RelE, sc: &Scope, out: &mut String) {
    match e {
        RelE::Base(k) => out.push_str(BASE_RELS[*k]),
        RelE::Var(k) => out.push_str(if sc.rels.is_empty() { "po" } else { &sc.rels[k % sc.rels.len()] }),
        RelE::Id(s) => {
            out.push('[');
            set_text(s, sc, out);
            out.push(']');
        }
        RelE::Prod(a, b) => {
            out.push('(');
            set_text(a, sc, out);
            out.push_str(" * ");
            set_text(b, sc, out);
            out.push(')');
        }
        RelE::Bin(o, a, b) => {
            out.push('(');
            rel_text(a, sc, out);
            out.push_str(match o {
                ROp::Union => " | ",
                ROp::Inter => " & ",
                ROp::Diff => " \\ ",
                ROp::Seq => " ; ",
            });
            rel_text(b, sc, out);
            out.push(')');
        }
        RelE::Post(p, a) => {
            out.push('(');
            rel_text(a, sc, out);
            out.push_str(match p {
                Post::Plus => "+",
                Post::Star => "*",
                Post::Opt => "?",
                Post::Inv => "^-1",
            });
            out.push(')');
        }
        RelE::Comp(a) => {
            out.push_str("(~");
            rel_text(a, sc, out);
            out.push(')');
        }
        RelE::Fencerel(s) => {
            out.push_str("(fencerel(");
            set_text(s, sc, out);
            out.push_str("))");
        }
    }
}

impl ModelSpec {
    pub fn render(&self) -> String {
        let mut s = String::from("\"generated by tests/differential.rs\"\n");
        let mut sc = Scope { rels: Vec::new(), sets: Vec::new() };
        for (k, b) in self.binds.iter().enumerate() {
            let mut e = String::new();
            match b {
                Bind::Rel(r) => {
                    rel_text(r, &sc, &mut e);
                    let name = format!("r{k}");
                    let _ = writeln!(s, "let {name} = {e}");
                    sc.rels.push(name);
                }
                Bind::Set(x) => {
                    set_text(x, &sc, &mut e);
                    let name = format!("s{k}");
                    let _ = writeln!(s, "let {name} = {e}");
                    sc.sets.push(name);
                }
            }
        }
        for (k, c) in self.checks.iter().enumerate() {
            let mut e = String::new();
            match &c.target {
                Target::Rel(r) => rel_text(r, &sc, &mut e),
                Target::Set(x) => set_text(x, &sc, &mut e),
            }
            let kw = match c.kind {
                CKind::Acyclic => "acyclic",
                CKind::Irreflexive => "irreflexive",
                CKind::Empty => "empty",
            };
            let neg = if c.negated { "~" } else { "" };
            let name = if c.named { format!(" as c{k}") } else { String::new() };
            let _ = writeln!(s, "{neg}{kw} {e}{name}");
        }
        if let Some(f) = &self.flag {
            let mut e = String::new();
            rel_text(f, &sc, &mut e);
            let _ = writeln!(s, "flag ~empty {e} as f0");
        }
        s
    }
}
