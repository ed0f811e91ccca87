//! Why an outcome is forbidden, or how it is reached.
//!
//! The test and model are encoded as for a query, with one difference: a check's literal
//! is not asserted but implied by a fresh *selector*, so checks can be switched on and off
//! by assumptions. The outcome (the condition's proposition, or its negation for `forall`)
//! is asserted. Then
//! - all selectors assumed and satisfiable: the outcome is allowed, and the model is a
//!   witness;
//! - unsatisfiable: the failed-assumption core, shrunk by deletion, is a set of checks
//!   that together forbid the outcome; growing a satisfiable set of checks (the core's
//!   members last) gives a minimal set whose removal allows it. An execution allowed by the
//!   remaining checks violates every removed one, and each violation is shown as a cycle
//!   or an offending pair of its relation, expanded into base relations.

pub mod dot;
pub mod step;

use crate::cat::ast::CheckKind;
use crate::cat::{CheckOut, Program};
use crate::diag::{Deadline, Diag};
use crate::encode::exec::Exec;
use crate::events::{Eid, Events, Kind, Value};
use crate::litmus::{CondKind, Loc, Prop, Test, Val, parse_test};
use crate::logic::{B, Logic, fill_truth, holding};
use crate::query::{self, Options};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};
use std::fmt::Write;
use std::path::Path;
use varisat::{Lit, Solver};

/// A test and model encoded for explanation: checks behind selectors, the outcome asserted.
pub struct Encoded {
    pub test: Test,
    pub ev: Events,
    pub x: Exec,
    pub lg: Logic,
    /// The model's checks that constrain executions (not flags, not skipped).
    pub checks: Vec<CheckOut>,
    /// Per check, the selector that implies it; `None` when the check always holds.
    pub sels: Vec<Option<Lit>>,
    /// The places of herd's final state and their value literals.
    pub shown: Vec<Loc>,
    pub places: Vec<(Loc, Vec<(Value, B)>)>,
    /// The outcome explained: the condition's proposition, negated for `forall`.
    pub outcome: Prop,
    /// `opts.timeout` from the start of the encoding: one for the whole explanation.
    pub deadline: Deadline,
}

/// Encodes a parsed test under a model for [`analyse`].
pub fn encode(test: Test, file: &str, text: &str, prog: &Program, opts: &Options) -> Result<Encoded, Diag> {
    let opts = &*opts.under(prog);
    let query::Encoding { test, isa: _, ev, x, mut lg, checks, shown, places, cut, loops: _, deadline } =
        query::encode(test, file, text, prog, opts)?;
    // Executions past the unrolling bound are no executions herd answers with.
    lg.assert(cut.negate());
    let checks: Vec<CheckOut> = checks
        .into_iter()
        .filter(|c| !c.flag && !opts.skips(c))
        .collect();
    let sels = checks
        .iter()
        .map(|c| match c.ok {
            B::T => None,
            ok => {
                let s = lg.fresh();
                lg.implies(B::L(s), ok);
                Some(s)
            }
        })
        .collect();
    let p = query::prop_lit_cast(&test.cond.prop, &places, &ev, &mut lg, &query::cond_cast(&test));
    let (outcome, target) = match test.cond.kind {
        CondKind::Forall => (Prop::Not(Box::new(test.cond.prop.clone())), p.negate()),
        _ => (test.cond.prop.clone(), p),
    };
    lg.assert(target);
    if let Some(f) = &test.filter {
        let fl = query::prop_lit_cast(f, &places, &ev, &mut lg, &query::cond_cast(&test));
        lg.assert(fl);
    }
    Ok(Encoded { test, ev, x, lg, checks, sels, shown, places, outcome, deadline })
}

/// What the solver said about the outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Some execution the model allows reaches the outcome.
    Allowed,
    /// No allowed execution reaches it. `by` (indices into [`Analysis::checks`]) is a
    /// minimal set of checks whose removal allows it; `core` a minimal set that forbids it
    /// on its own (often the same).
    Forbidden { by: Vec<usize>, core: Vec<usize> },
    /// No candidate execution reaches it at all, whatever the model says.
    Impossible,
}

/// What an edge of an explanation is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeClass {
    Rmw,
    Rf,
    Co,
    Fr,
    Dep,
    Fence,
    Po,
    /// A derived edge no path of base relations explains; labelled with the check.
    Derived,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: Eid,
    pub to: Eid,
    pub label: String,
    pub class: EdgeClass,
}

/// How a check fails on the candidate execution.
#[derive(Clone, Debug)]
pub enum Broken {
    /// `acyclic`: a cycle, in base edges.
    Cycle(Vec<Edge>),
    /// `irreflexive` or `empty`: an offending pair, the base relations that relate it
    /// directly, and a (longer) path of base edges between its events.
    Pair { pair: (Eid, Eid), direct: Vec<String>, path: Vec<Edge> },
    /// A negated check, or nothing found (which would be a bug).
    Other(String),
}

#[derive(Clone, Debug)]
pub struct Break {
    pub check: usize,
    pub what: Broken,
}

/// One concrete execution: the values of the solver's model that an explanation shows.
#[derive(Clone, Debug)]
pub struct Concrete {
    pub exists: Vec<bool>,
    /// The location each access touches (computed addresses resolved).
    pub loc: Vec<Option<usize>>,
    /// herd-style names (`a`, `b`, …; `init(x)` for initial writes); empty for events
    /// that do not happen.
    pub names: Vec<String>,
    /// The value each read or write carries.
    pub values: Vec<Option<Val>>,
    pub rf: Vec<(Eid, Eid)>,
    pub co: Vec<(Eid, Eid)>,
    pub fr: Vec<(Eid, Eid)>,
    /// Every base edge, all labels of each pair, best first.
    pub base: BTreeMap<(Eid, Eid), Vec<Edge>>,
    /// The best edge of each pair, by source, best first.
    pub adj: BTreeMap<Eid, Vec<Edge>>,
    /// herd's final state.
    pub state: Vec<(Loc, Val)>,
}

pub struct Analysis {
    pub test: Test,
    pub model: String,
    pub ev: Events,
    pub outcome: Prop,
    /// Labels and kinds of the model's checks, indexed as in [`Verdict::Forbidden`].
    pub checks: Vec<(String, CheckKind, bool)>,
    pub verdict: Verdict,
    /// The witness (allowed) or the candidate execution (forbidden).
    pub exec: Option<Concrete>,
    pub breaks: Vec<Break>,
}

fn solve(solver: &mut Solver, assume: &[Lit], file: &str) -> Result<bool, Diag> {
    solver.assume(assume);
    solver.solve().map_err(|e| Diag::file(file, format!("solver error: {e}")))
}

/// The solver's model of the whole CNF as the table [`B::value`] reads.
fn truth_of(solver: &Solver, vars: usize) -> Vec<bool> {
    let mut truth = vec![false; vars.max(1)];
    let len = truth.len();
    fill_truth(&solver.model().unwrap_or_default(), &mut truth, |i| (i < len).then_some(i));
    truth
}

/// Reads, parses, encodes and explains one test file.
pub fn explain_file(
    path: &Path,
    models: &(impl crate::cat::ChooseModel + ?Sized),
    opts: &Options,
) -> Result<Analysis, Diag> {
    let name = path.to_string_lossy().to_string();
    let bytes = std::fs::read(path).map_err(|e| Diag::file(&name, format!("cannot read: {e}")))?;
    let text = String::from_utf8_lossy(&bytes).to_string();
    let test = parse_test(&name, &text)?;
    let prog = models.for_test(&test, &name)?;
    let enc = encode(test, &name, &text, prog, opts)?;
    analyse(enc, prog, &name)
}

/// Decides the outcome and explains the answer.
pub fn analyse(mut enc: Encoded, prog: &Program, file: &str) -> Result<Analysis, Diag> {
    let vars = enc.lg.num_vars();
    let mut solver = Solver::new();
    solver.add_formula(&enc.lg.full_cnf());
    let deadline = enc.deadline;
    let mut calls = 0;
    let mut sat = |solver: &mut Solver, set: &[usize]| -> Result<bool, Diag> {
        calls += 1;
        if calls > 1 {
            deadline.check(file)?;
        }
        let lits: Vec<Lit> = set.iter().filter_map(|&k| enc.sels[k]).collect();
        solve(solver, &lits, file)
    };
    let live: Vec<usize> = (0..enc.checks.len()).filter(|&k| enc.sels[k].is_some()).collect();
    let checks = enc.checks.iter().map(|c| (c.label.to_string(), c.kind, c.negated)).collect();
    let mut out = Analysis {
        test: enc.test.clone(),
        model: prog.display_name(),
        ev: enc.ev.clone(),
        outcome: enc.outcome.clone(),
        checks,
        verdict: Verdict::Allowed,
        exec: None,
        breaks: Vec::new(),
    };
    if sat(&mut solver, &live)? {
        out.exec = Some(concrete(&enc, &truth_of(&solver, vars)));
        return Ok(out);
    }
    let of_lit: HashMap<Lit, usize> = live.iter().filter_map(|&k| enc.sels[k].map(|l| (l, k))).collect();
    let core_of = |solver: &Solver| -> Vec<usize> {
        let mut c: Vec<usize> =
            solver.failed_core().unwrap_or_default().iter().filter_map(|l| of_lit.get(l).copied()).collect();
        c.sort();
        c.dedup();
        c
    };
    let mut core = core_of(&solver);
    if !sat(&mut solver, &[])? {
        out.verdict = Verdict::Impossible;
        return Ok(out);
    }
    // A minimal forbidding set, by deletion with core refinement.
    let mut k = 0;
    while k < core.len() {
        let trial: Vec<usize> = core.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, &c)| c).collect();
        if sat(&mut solver, &trial)? {
            k += 1;
        } else {
            let refined = core_of(&solver);
            core = trial.into_iter().filter(|c| refined.contains(c)).collect();
        }
    }
    // A minimal set whose removal allows the outcome: grow a satisfiable set of checks,
    // trying the core last so that the removed checks come from it where they can.
    let order: Vec<usize> = live.iter().copied().filter(|c| !core.contains(c)).chain(core.iter().copied()).collect();
    let mut keep: Vec<usize> = Vec::new();
    for c in order {
        keep.push(c);
        if !sat(&mut solver, &keep)? {
            keep.pop();
        }
    }
    let by: Vec<usize> = live.iter().copied().filter(|c| !keep.contains(c)).collect();
    if !sat(&mut solver, &keep)? {
        return Err(Diag::file(file, "internal error: the checks kept no longer allow the outcome"));
    }
    let truth = truth_of(&solver, vars);
    let ex = concrete(&enc, &truth);
    for &c in &by {
        let what = broken(&enc.checks[c], &ex, &truth);
        out.breaks.push(Break { check: c, what });
    }
    out.exec = Some(ex);
    out.verdict = Verdict::Forbidden { by, core };
    Ok(out)
}

/// `a`…`z`, `aa`, `ab`, … as herd names events.
fn letters(mut k: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (k % 26) as u8);
        if k < 26 {
            break;
        }
        k = k / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// How a fence event is named on edges: its set in lower case (`mfence`, `fence.rw.rw`).
pub fn fence_name(ev: &Events, f: Eid) -> String {
    let e = &ev.events[f];
    match e.tags.first() {
        Some(t) => t.to_lowercase(),
        None => e.text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase(),
    }
}

fn rank(c: EdgeClass, label: &str) -> (EdgeClass, u8) {
    let dep = match label {
        "addr" => 0,
        "data" => 1,
        _ => 2,
    };
    (c, dep)
}

fn concrete(enc: &Encoded, truth: &[bool]) -> Concrete {
    let ev = &enc.ev;
    let x = &enc.x;
    let e = &ev.events;
    let n = ev.len();
    let exists: Vec<bool> = x.exists.iter().map(|b| b.value(truth)).collect();
    let loc: Vec<Option<usize>> = (0..n).map(|i| e[i].loc.or_else(|| holding(&x.locs[i], truth))).collect();
    let mut names = vec![String::new(); n];
    let mut k = 0;
    let mem = |i: usize| matches!(e[i].kind, Kind::Read | Kind::Write);
    for pass in [true, false] {
        for i in 0..n {
            if exists[i] && !ev.is_init(i) && mem(i) == pass {
                names[i] = letters(k);
                k += 1;
            }
        }
    }
    for i in 0..n {
        if ev.is_init(i) {
            names[i] = format!("init({})", loc[i].map(|l| ev.locs[l].as_str()).unwrap_or("?"));
        }
    }
    let values: Vec<Option<Val>> = (0..n)
        .map(|i| if mem(i) && exists[i] { x.value_in(e[i].val, truth).map(|v| ev.show_value(v)) } else { None })
        .collect();
    let mut rf = x.rf.pairs_in(truth);
    rf.sort_by_key(|&(w, r)| (r, w));
    let co = x.co.pairs_in(truth);
    let mut fr = Vec::new();
    for &(w, r) in &rf {
        for &(w1, w2) in &co {
            if w1 == w && w2 != r {
                fr.push((r, w2));
            }
        }
    }
    fr.sort();
    fr.dedup();
    let mut base: BTreeMap<(Eid, Eid), Vec<Edge>> = BTreeMap::new();
    let mut add = |i: Eid, j: Eid, label: String, class: EdgeClass| {
        base.entry((i, j)).or_default().push(Edge { from: i, to: j, label, class });
    };
    for i in 0..n {
        for j in 0..n {
            if !exists[i] || !exists[j] || ev.is_init(i) || e[i].thread != e[j].thread || e[i].instr >= e[j].instr {
                continue;
            }
            let fence = (0..n).find(|&f| {
                exists[f]
                    && e[f].kind == Kind::Fence
                    && e[f].thread == e[i].thread
                    && e[i].instr < e[f].instr
                    && e[f].instr < e[j].instr
            });
            match fence {
                Some(f) if mem(i) && mem(j) => add(i, j, fence_name(ev, f), EdgeClass::Fence),
                _ => add(i, j, "po".into(), EdgeClass::Po),
            }
            // Exclusive pairs: a load-reserved and the next exclusive store.
            let ex = |k: usize| e[k].tags.iter().any(|t| t == "EX");
            if e[i].kind == Kind::Read && e[j].kind == Kind::Write && ex(i) && ex(j) {
                let between = (0..n).any(|k| {
                    exists[k]
                        && mem(k)
                        && ex(k)
                        && e[k].thread == e[i].thread
                        && e[i].instr < e[k].instr
                        && e[k].instr < e[j].instr
                });
                if !between {
                    add(i, j, "rmw".into(), EdgeClass::Rmw);
                }
            }
        }
    }
    for i in 0..n {
        for j in 0..n {
            if exists[i]
                && exists[j]
                && i != j
                && e[i].kind == Kind::Read
                && e[j].kind == Kind::Write
                && !ev.is_init(i)
                && e[i].thread == e[j].thread
                && e[i].instr / 2 == e[j].instr / 2
                && loc[i] == loc[j]
            {
                add(i, j, "rmw".into(), EdgeClass::Rmw);
            }
        }
    }
    for &(i, j) in &rf {
        add(i, j, "rf".into(), EdgeClass::Rf);
    }
    for &(i, j) in &co {
        add(i, j, "co".into(), EdgeClass::Co);
    }
    for &(i, j) in &fr {
        add(i, j, "fr".into(), EdgeClass::Fr);
    }
    let none = BTreeMap::new();
    for (set, when, label) in
        [(&ev.addr, &ev.addr_when, "addr"), (&ev.data, &ev.data_when, "data"), (&ev.ctrl, &none, "ctrl")]
    {
        for &(i, j) in set {
            // A dependency through a register joined from two paths: this path's only.
            let on = when.get(&(i, j)).is_none_or(|&c| x.value_in(c, truth) == Some(Value::Int(1)));
            if exists[i] && exists[j] && on {
                add(i, j, label.into(), EdgeClass::Dep);
            }
        }
    }
    for v in base.values_mut() {
        v.sort_by_key(|e| rank(e.class, &e.label));
        v.dedup_by(|a, b| a.label == b.label);
    }
    let mut state = Vec::new();
    for l in &enc.shown {
        let lits = enc.places.iter().find(|(q, _)| q == l).map(|p| &p.1);
        if let Some(v) = lits.and_then(|ls| holding(ls, truth)) {
            state.push((l.clone(), ev.show_value(v)));
        }
    }
    let mut adj: BTreeMap<Eid, Vec<Edge>> = BTreeMap::new();
    for v in base.values() {
        adj.entry(v[0].from).or_default().push(v[0].clone());
    }
    for v in adj.values_mut() {
        v.sort_by_key(|e| rank(e.class, &e.label));
    }
    Concrete { exists, loc, names, values, rf, co, fr, base, adj, state }
}

/// The shortest non-empty path of base edges from `i` to `j` (a cycle when `i == j`),
/// optionally without the direct edge `i → j`.
fn base_path(ex: &Concrete, i: Eid, j: Eid, direct: bool) -> Option<Vec<Edge>> {
    let adj = &ex.adj;
    let mut prev: BTreeMap<Eid, &Edge> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for e in adj.get(&i).map(|v| v.as_slice()).unwrap_or(&[]) {
        if e.to == j && !direct {
            continue;
        }
        if e.to == j {
            return Some(vec![e.clone()]);
        }
        if !prev.contains_key(&e.to) && e.to != i {
            prev.insert(e.to, e);
            queue.push_back(e.to);
        }
    }
    while let Some(u) = queue.pop_front() {
        for e in adj.get(&u).map(|v| v.as_slice()).unwrap_or(&[]) {
            if e.to == j {
                let mut path = vec![e.clone()];
                let mut cur = u;
                while let Some(p) = prev.get(&cur) {
                    path.push((*p).clone());
                    if p.from == i {
                        break;
                    }
                    cur = p.from;
                }
                path.reverse();
                return Some(path);
            }
            if !prev.contains_key(&e.to) && e.to != i {
                prev.insert(e.to, e);
                queue.push_back(e.to);
            }
        }
    }
    None
}

/// What breaks one check on the execution.
fn broken(c: &CheckOut, ex: &Concrete, truth: &[bool]) -> Broken {
    let pairs: Vec<(Eid, Eid)> = c.rel.pairs_in(truth);
    if c.negated {
        let what = match c.kind {
            CheckKind::Acyclic => "a cycle; this execution's relation has none",
            CheckKind::Irreflexive => "a related event pair (x, x); this execution has none",
            CheckKind::Empty => "a non-empty relation; here it is empty",
        };
        return Broken::Other(format!("the negated check needs {what}"));
    }
    let derived = |i: Eid, j: Eid| -> Vec<Edge> {
        base_path(ex, i, j, true)
            .unwrap_or_else(|| vec![Edge { from: i, to: j, label: c.label.to_string(), class: EdgeClass::Derived }])
    };
    match c.kind {
        CheckKind::Acyclic => match min_cycle(&pairs, ex, None) {
            Some(cyc) => Broken::Cycle(cyc.iter().flat_map(|&(i, j)| derived(i, j)).collect()),
            None => Broken::Other("no cycle found in this execution".into()),
        },
        CheckKind::Irreflexive | CheckKind::Empty => {
            let pick = pairs.iter().copied().min_by_key(|&(i, j)| (ex.names[i].starts_with("init"), i != j, i, j));
            let Some((i, j)) = pick else {
                return Broken::Other("no offending pair found in this execution".into());
            };
            let direct: Vec<String> =
                ex.base.get(&(i, j)).map(|v| v.iter().map(|e| e.label.clone()).collect()).unwrap_or_default();
            // For `irreflexive r` (r is usually a closure), a cycle of r's own steps through
            // the event, expanded; failing that, any cycle of base edges through it.
            let path = if i == j {
                let steps: Vec<(Eid, Eid)> = pairs.iter().copied().filter(|&(a, b)| a != b).collect();
                match min_cycle(&steps, ex, Some(i)) {
                    Some(cyc) => Some(cyc.iter().flat_map(|&(a, b)| derived(a, b)).collect()),
                    None => base_path(ex, i, i, true),
                }
            } else {
                base_path(ex, i, j, false)
            };
            Broken::Pair { pair: (i, j), direct, path: path.unwrap_or_default() }
        }
    }
}

/// The cycle of the relation (through `through`, if given) whose expansion into base edges
/// is shortest, as its derived edges, starting at its first named event (or `through`).
fn min_cycle(pairs: &[(Eid, Eid)], ex: &Concrete, through: Option<Eid>) -> Option<Vec<(Eid, Eid)>> {
    let weight = |i: Eid, j: Eid| base_path(ex, i, j, true).map(|p| p.len()).unwrap_or(100);
    let mut adj: BTreeMap<Eid, Vec<(Eid, usize)>> = BTreeMap::new();
    for &(i, j) in pairs {
        adj.entry(i).or_default().push((j, weight(i, j)));
    }
    let mut best: Option<(usize, Vec<(Eid, Eid)>)> = None;
    for &s in adj.keys().filter(|&&s| through.is_none_or(|t| t == s)) {
        // Dijkstra from s back to s.
        let mut dist: BTreeMap<Eid, usize> = BTreeMap::new();
        let mut prev: BTreeMap<Eid, Eid> = BTreeMap::new();
        let mut heap = BinaryHeap::new();
        let mut found: Option<(usize, Eid)> = None;
        for &(j, w) in &adj[&s] {
            if j == s {
                if found.is_none_or(|(d, _)| w < d) {
                    found = Some((w, s));
                }
                continue;
            }
            if dist.get(&j).is_none_or(|&d| w < d) {
                dist.insert(j, w);
                prev.insert(j, s);
                heap.push(Reverse((w, j)));
            }
        }
        while let Some(Reverse((d, u))) = heap.pop() {
            if dist.get(&u).is_some_and(|&du| du < d) {
                continue;
            }
            for &(j, w) in adj.get(&u).map(|v| v.as_slice()).unwrap_or(&[]) {
                let nd = d + w;
                if j == s {
                    if found.is_none_or(|(fd, _)| nd < fd) {
                        found = Some((nd, u));
                    }
                } else if dist.get(&j).is_none_or(|&dj| nd < dj) {
                    dist.insert(j, nd);
                    prev.insert(j, u);
                    heap.push(Reverse((nd, j)));
                }
            }
        }
        if let Some((d, last)) = found
            && best.as_ref().is_none_or(|(bd, _)| d < *bd)
        {
            let mut nodes = vec![last];
            let mut cur = last;
            while cur != s {
                cur = prev[&cur];
                nodes.push(cur);
            }
            nodes.reverse();
            if nodes.len() > 1 && nodes[0] == nodes[1] {
                nodes.pop();
            }
            let edges = (0..nodes.len()).map(|k| (nodes[k], nodes[(k + 1) % nodes.len()])).collect();
            best = Some((d, edges));
        }
    }
    let (_, mut cyc) = best?;
    // Start at the first event in herd's naming order.
    let key = |i: Eid| (Some(i) != through, ex.names[i].starts_with("init"), ex.names[i].len(), ex.names[i].clone());
    if let Some(k) = (0..cyc.len()).min_by_key(|&k| key(cyc[k].0)) {
        cyc.rotate_left(k);
    }
    Some(cyc)
}

/// `W x=1`, `R y=0`, `F mfence`, as events are shown in explanations.
pub fn describe(ev: &Events, ex: &Concrete, i: Eid, spaced: bool) -> String {
    let e = &ev.events[i];
    let loc = ex.loc[i].map(|l| ev.locs[l].as_str()).unwrap_or("?");
    let val = ex.values[i].as_ref().map(|v| v.to_string()).unwrap_or_else(|| "?".into());
    let sep = if spaced { " " } else { "" };
    let tags: Vec<&str> = e.tags.iter().map(|t| t.as_ref()).collect();
    let tagged =
        if tags.is_empty() || e.kind == Kind::Fence { String::new() } else { format!(" [{}]", tags.join(",")) };
    match e.kind {
        Kind::Read => format!("R{sep}{loc}={val}{tagged}"),
        Kind::Write => format!("W{sep}{loc}={val}{tagged}"),
        Kind::Fence => format!("F{sep}{}", fence_name(ev, i)),
        Kind::Branch => "B".to_string(),
        Kind::Fault => format!("Fault{tagged}"),
        Kind::RegRead | Kind::RegWrite => {
            let dir = if e.kind == Kind::RegRead { "Rreg" } else { "Wreg" };
            let reg = e.reg.and_then(|k| ev.reg_names.get(k)).map_or("?", |n| n.split_once(':').map_or(n.as_str(), |p| p.1));
            format!("{dir}{sep}{reg}{tagged}")
        }
    }
}

fn node(ev: &Events, ex: &Concrete, i: Eid) -> String {
    let d = describe(ev, ex, i, true);
    match ev.events[i].thread {
        Some(t) => format!("{}: {d} (P{t})", ex.names[i]),
        None => format!("{}: {d}", ex.names[i]),
    }
}

/// A chain of base edges as text: `a: W x=1 (P0) --po--> b: … --fr--> a`.
pub fn chain(ev: &Events, ex: &Concrete, edges: &[Edge]) -> String {
    let mut s = String::new();
    let mut seen: Vec<Eid> = Vec::new();
    for (k, e) in edges.iter().enumerate() {
        if k == 0 {
            s.push_str(&node(ev, ex, e.from));
            seen.push(e.from);
        }
        let _ = write!(s, " --{}--> ", e.label);
        if seen.contains(&e.to) {
            s.push_str(&ex.names[e.to]);
        } else {
            s.push_str(&node(ev, ex, e.to));
            seen.push(e.to);
        }
    }
    s
}

fn write_execution(s: &mut String, ev: &Events, ex: &Concrete, final_word: &str) {
    for &t in &ev.threads {
        let evs: Vec<String> = (0..ev.len())
            .filter(|&i| ex.exists[i] && ev.events[i].thread == Some(t))
            .filter(|&i| matches!(ev.events[i].kind, Kind::Read | Kind::Write))
            .map(|i| format!("{}: {}", ex.names[i], describe(ev, ex, i, true)))
            .collect();
        let _ = writeln!(s, "  P{t}: {}", if evs.is_empty() { "-".to_string() } else { evs.join(", ") });
    }
    let rf: Vec<String> = ex.rf.iter().map(|&(w, r)| format!("{} -> {}", ex.names[w], ex.names[r])).collect();
    let _ = writeln!(s, "  rf: {}", if rf.is_empty() { "-".to_string() } else { rf.join(", ") });
    let mut co = Vec::new();
    for (l, name) in ev.locs.iter().enumerate() {
        let mut ws: Vec<Eid> = (0..ev.len())
            .filter(|&i| ex.exists[i] && ev.events[i].kind == Kind::Write && ex.loc[i] == Some(l))
            .collect();
        if ws.len() < 2 {
            continue;
        }
        ws.sort_by_key(|&w| ex.co.iter().filter(|&&(_, b)| b == w).count());
        let order: Vec<&str> = ws.iter().map(|&w| ex.names[w].as_str()).collect();
        co.push(format!("{name}: {}", order.join(" < ")));
    }
    let _ = writeln!(s, "  co: {}", if co.is_empty() { "-".to_string() } else { co.join("; ") });
    let st: Vec<String> = ex.state.iter().map(|(l, v)| format!("{l}={v};")).collect();
    let _ = writeln!(s, "  {final_word}: {}", st.join(" "));
}

/// The explanation as text.
pub fn render_text(a: &Analysis) -> String {
    let mut s = String::new();
    let model = a.model.as_str();
    let _ = writeln!(s, "Test {}: {}", a.test.name, a.test.cond);
    match &a.verdict {
        Verdict::Allowed => {
            let _ = writeln!(s, "Outcome {} is allowed by {model}. A witness:", a.outcome);
            if let Some(ex) = &a.exec {
                write_execution(&mut s, &a.ev, ex, "final state");
            }
        }
        Verdict::Impossible => {
            let _ = writeln!(
                s,
                "Outcome {} is reached by no candidate execution, whatever the model's checks:\n  the values the code \
                 can compute, or herd's candidate co (extending each thread's own same-location order), rule it out.",
                a.outcome
            );
        }
        Verdict::Forbidden { by, core } => {
            let names = |v: &[usize]| v.iter().map(|&k| a.checks[k].0.as_str()).collect::<Vec<_>>().join(", ");
            let _ = writeln!(s, "Outcome {} is forbidden by {model}.", a.outcome);
            let _ = writeln!(
                s,
                "Forbidden by: {} (removing {} allows the outcome)",
                names(by),
                if by.len() == 1 { "it" } else { "them all" }
            );
            if core != by {
                if core.len() == 1 {
                    let _ = writeln!(s, "Minimal conflict: {} (on its own it forbids the outcome too)", names(core));
                } else {
                    let _ = writeln!(s, "Minimal conflict: {} (together they forbid the outcome)", names(core));
                }
            }
            if let Some(ex) = &a.exec {
                let _ = writeln!(s, "Candidate execution, allowed once those checks are removed:");
                write_execution(&mut s, &a.ev, ex, "state");
                for b in &a.breaks {
                    let (label, kind, _) = &a.checks[b.check];
                    let kw = match kind {
                        CheckKind::Acyclic => "acyclic",
                        CheckKind::Irreflexive => "irreflexive",
                        CheckKind::Empty => "empty",
                    };
                    match &b.what {
                        Broken::Cycle(edges) => {
                            let _ = writeln!(s, "Check {label} ({kw}) fails: cycle");
                            let _ = writeln!(s, "  {}", chain(&a.ev, ex, edges));
                        }
                        Broken::Pair { pair: (i, j), direct, path } => {
                            let (ni, nj) = (&ex.names[*i], &ex.names[*j]);
                            if i == j {
                                let _ = writeln!(s, "Check {label} ({kw}) fails: {ni} is related to itself");
                            } else {
                                let how = if direct.is_empty() {
                                    String::new()
                                } else {
                                    format!(", directly related by {}", direct.join(", "))
                                };
                                let _ = writeln!(s, "Check {label} ({kw}) fails: it relates ({ni}, {nj}){how}");
                            }
                            if path.is_empty() {
                                let mut evs = vec![node(&a.ev, ex, *i)];
                                if i != j {
                                    evs.push(node(&a.ev, ex, *j));
                                }
                                let _ = writeln!(s, "  {}", evs.join(", "));
                            } else {
                                let _ = writeln!(s, "  {}", chain(&a.ev, ex, path));
                            }
                        }
                        Broken::Other(m) => {
                            let _ = writeln!(s, "Check {label} ({kw}) fails: {m}");
                        }
                    }
                }
            }
        }
    }
    s
}

/// The edges an explanation highlights.
pub fn highlighted(a: &Analysis) -> Vec<Edge> {
    let mut out = Vec::new();
    for b in &a.breaks {
        match &b.what {
            Broken::Cycle(es) => out.extend(es.iter().cloned()),
            Broken::Pair { path, .. } => out.extend(path.iter().cloned()),
            Broken::Other(_) => {}
        }
    }
    out
}
