//! Symbolic candidate executions: rf, co and values as literals over the event structure.

use crate::cat::{Builtins, Env, V};
use crate::events::{Eid, Events, Kind, VExpr, ValId, Value, apply};
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use varisat::Lit;

/// Bound on a value domain: values are finite, and a test whose registers can take more
/// values than this is rejected rather than encoded at great cost.
pub const MAX_DOMAIN: usize = 256;

pub struct Exec {
    pub n: usize,
    pub rf: Rel,
    pub co: Rel,
    /// Co-last writes.
    pub fw: Set,
    /// Possible values of each value expression.
    pub domains: Vec<Vec<Value>>,
    /// One-hot literals: `val[v]` lists `(value, literal)`.
    pub val: Vec<Vec<(Value, B)>>,
    /// The choices that make an execution: herd counts distinct assignments to these.
    pub primaries: Vec<Lit>,
}

/// May-values of every expression, by fixpoint over rf candidates.
fn domains(ev: &Events) -> Result<Vec<Vec<Value>>, String> {
    let mut dom: Vec<BTreeSet<Value>> = vec![BTreeSet::new(); ev.vals.len()];
    let writes_to = |l: usize| {
        ev.events
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.kind == Kind::Write && e.loc == Some(l))
            .map(|(i, _)| i)
    };
    loop {
        let mut changed = false;
        for v in 0..ev.vals.len() {
            let new: BTreeSet<Value> = match &ev.vals[v] {
                VExpr::Const(c) => BTreeSet::from([*c]),
                VExpr::Read(e) => {
                    let l = ev.events[*e].loc.unwrap_or(0);
                    writes_to(l)
                        .flat_map(|w| dom[ev.events[w].val].iter().copied().collect::<Vec<_>>())
                        .collect()
                }
                VExpr::Bin(op, a, b) => {
                    let mut s = BTreeSet::new();
                    for &x in &dom[*a] {
                        for &y in &dom[*b] {
                            match apply(*op, x, y) {
                                Some(z) => {
                                    s.insert(z);
                                }
                                None => return Err("unsupported: arithmetic on an address".into()),
                            }
                        }
                    }
                    s
                }
            };
            if new.len() > MAX_DOMAIN {
                return Err(format!("a register may take more than {MAX_DOMAIN} values"));
            }
            if new != dom[v] {
                dom[v] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Ok(dom.into_iter().map(|s| s.into_iter().collect()).collect())
}

impl Exec {
    pub fn lit_of(&self, v: ValId, x: Value) -> B {
        self.val[v]
            .iter()
            .find(|(y, _)| *y == x)
            .map(|(_, b)| *b)
            .unwrap_or(B::F)
    }

    /// The value of `v` under a model.
    pub fn value_in(&self, v: ValId, model: &[bool]) -> Option<Value> {
        self.val[v]
            .iter()
            .find(|(_, b)| b.value(model))
            .map(|(x, _)| *x)
    }

    /// Literals for "the final value of location `l` is x", for every possible x.
    pub fn final_mem(&self, ev: &Events, l: usize, lg: &mut Logic) -> Vec<(Value, B)> {
        let mut by_val: BTreeMap<Value, Vec<B>> = BTreeMap::new();
        for (w, e) in ev.events.iter().enumerate() {
            if e.kind == Kind::Write && e.loc == Some(l) {
                for &(x, b) in &self.val[e.val] {
                    let g = lg.and2(self.fw.0[w], b);
                    by_val.entry(x).or_default().push(g);
                }
            }
        }
        by_val.into_iter().map(|(x, bs)| (x, lg.or(&bs))).collect()
    }
}

pub fn encode(ev: &Events, lg: &mut Logic) -> Result<Exec, String> {
    let n = ev.len();
    let domains = domains(ev)?;
    let mut primaries = Vec::new();

    // Values: reads get one-hot variables; expressions are gates over them.
    let mut val: Vec<Vec<(Value, B)>> = Vec::with_capacity(ev.vals.len());
    for (v, e) in ev.vals.iter().enumerate() {
        let lits = match e {
            VExpr::Const(c) => vec![(*c, B::T)],
            VExpr::Read(_) => {
                let ls: Vec<(Value, B)> = domains[v]
                    .iter()
                    .map(|&x| {
                        (
                            x,
                            if domains[v].len() == 1 {
                                B::T
                            } else {
                                B::L(lg.fresh())
                            },
                        )
                    })
                    .collect();
                let bs: Vec<B> = ls.iter().map(|p| p.1).collect();
                lg.exactly_one(&bs);
                ls
            }
            VExpr::Bin(op, a, b) => {
                let mut acc: BTreeMap<Value, Vec<B>> = BTreeMap::new();
                for &(x, bx) in &val[*a] {
                    for &(y, by) in &val[*b] {
                        if let Some(z) = apply(*op, x, y) {
                            let g = lg.and2(bx, by);
                            acc.entry(z).or_default().push(g);
                        }
                    }
                }
                acc.into_iter().map(|(z, bs)| (z, lg.or(&bs))).collect()
            }
        };
        val.push(lits);
    }
    let lit_of = |val: &Vec<Vec<(Value, B)>>, v: ValId, x: Value| {
        val[v]
            .iter()
            .find(|(y, _)| *y == x)
            .map(|(_, b)| *b)
            .unwrap_or(B::F)
    };

    // rf: each read reads from exactly one same-location write with an agreeing value.
    let mut rf = Rel::empty(n);
    for (r, e) in ev.events.iter().enumerate() {
        if e.kind != Kind::Read {
            continue;
        }
        let cands: Vec<Eid> = ev
            .events
            .iter()
            .enumerate()
            .filter(|(_, w)| w.kind == Kind::Write && w.loc == e.loc)
            .map(|(i, _)| i)
            .collect();
        let mut choice = Vec::new();
        for &w in &cands {
            let wv = ev.events[w].val;
            let possible = val[wv]
                .iter()
                .any(|&(x, _)| !lit_of(&val, e.val, x).is_false());
            if !possible {
                continue;
            }
            choice.push(w);
        }
        let lits: Vec<B> = if choice.len() == 1 {
            vec![B::T]
        } else {
            choice
                .iter()
                .map(|_| {
                    let l = lg.fresh();
                    primaries.push(l);
                    B::L(l)
                })
                .collect()
        };
        lg.exactly_one(&lits);
        for (&w, &b) in choice.iter().zip(&lits) {
            rf.set(w, r, b);
            for &(x, bx) in &val[ev.events[w].val] {
                let br = lit_of(&val, e.val, x);
                lg.clause(&[b.negate(), bx.negate(), br]);
            }
        }
    }

    // co: per location a strict total order with the initial write first.
    let mut co = Rel::empty(n);
    for l in 0..ev.locs.len() {
        let ws: Vec<Eid> = ev
            .events
            .iter()
            .enumerate()
            .filter(|(_, w)| w.kind == Kind::Write && w.loc == Some(l))
            .map(|(i, _)| i)
            .collect();
        for (a, &i) in ws.iter().enumerate() {
            for &j in &ws[a + 1..] {
                if ev.is_init(i) {
                    co.set(i, j, B::T);
                } else {
                    let o = lg.fresh();
                    primaries.push(o);
                    co.set(i, j, B::L(o));
                    co.set(j, i, B::L(!o));
                }
            }
        }
        let nonit: Vec<Eid> = ws.iter().copied().filter(|&w| !ev.is_init(w)).collect();
        for &a in &nonit {
            for &b in &nonit {
                for &c in &nonit {
                    if a != b && b != c && a != c {
                        let (x, y, z) = (co.get(a, b), co.get(b, c), co.get(a, c));
                        lg.clause(&[x.negate(), y.negate(), z]);
                    }
                }
            }
        }
    }
    let mut fw = Set::empty(n);
    for (w, e) in ev.events.iter().enumerate() {
        if e.kind == Kind::Write {
            let later: Vec<B> = ev
                .events
                .iter()
                .enumerate()
                .filter(|(k, x)| *k != w && x.kind == Kind::Write && x.loc == e.loc)
                .map(|(k, _)| co.get(w, k))
                .collect();
            fw.0[w] = lg.or(&later).negate();
        }
    }
    Ok(Exec {
        n,
        rf,
        co,
        fw,
        domains,
        val,
        primaries,
    })
}

/// The names a model can use without defining them.
pub fn builtins(ev: &Events, x: &Exec, lg: &mut Logic) -> Builtins {
    let n = ev.len();
    let set = |f: &dyn Fn(usize) -> bool| Set((0..n).map(|i| B::from_bool(f(i))).collect());
    let rel = |f: &dyn Fn(usize, usize) -> bool| {
        let mut r = Rel::empty(n);
        for i in 0..n {
            for j in 0..n {
                if f(i, j) {
                    r.set(i, j, B::T);
                }
            }
        }
        r
    };
    let e = &ev.events;
    let universe = set(&|_| true);
    let mem = |i: usize| e[i].kind != Kind::Fence;
    let mut env = Env::default();
    let put_set = |env: &mut Env, name: &str, s: Set| *env = env.bind(name, V::Set(Rc::new(s)));
    put_set(&mut env, "_", universe.clone());
    put_set(&mut env, "R", set(&|i| e[i].kind == Kind::Read));
    put_set(&mut env, "W", set(&|i| e[i].kind == Kind::Write));
    put_set(&mut env, "M", set(&mem));
    put_set(&mut env, "F", set(&|i| e[i].kind == Kind::Fence));
    put_set(&mut env, "IW", set(&|i| ev.is_init(i)));
    put_set(&mut env, "FW", x.fw.clone());
    put_set(&mut env, "B", Set::empty(n));
    put_set(&mut env, "Exp", set(&mem));
    put_set(&mut env, "NExp", Set::empty(n));
    let mut tags: BTreeSet<String> = ev.known_sets.iter().cloned().collect();
    for ev in e {
        tags.extend(ev.tags.iter().cloned());
    }
    for t in &tags {
        put_set(&mut env, t, set(&|i| e[i].tags.contains(t)));
    }
    let same_thread = |i: usize, j: usize| e[i].thread == e[j].thread;
    let po = rel(&|i, j| e[i].thread.is_some() && same_thread(i, j) && e[i].instr < e[j].instr);
    let loc = rel(&|i, j| mem(i) && mem(j) && e[i].loc == e[j].loc);
    let int = rel(&|i, j| same_thread(i, j));
    let ext = rel(&|i, j| !same_thread(i, j));
    let id = rel(&|i, j| i == j);
    let same_instr =
        rel(&|i, j| e[i].thread.is_some() && same_thread(i, j) && e[i].instr == e[j].instr);
    let dep = |s: &BTreeSet<(Eid, Eid)>| Rel::from_pairs(n, s.iter().copied());
    let fr = x.rf.inverse().seq(&x.co, lg).diff(&id, lg);
    let put = |env: &mut Env, name: &str, r: Rel| *env = env.bind(name, V::Rel(Rc::new(r)));
    put(&mut env, "po-loc", po.inter(&loc, lg));
    put(&mut env, "rfe", x.rf.inter(&ext, lg));
    put(&mut env, "rfi", x.rf.inter(&int, lg));
    put(&mut env, "coe", x.co.inter(&ext, lg));
    put(&mut env, "coi", x.co.inter(&int, lg));
    put(&mut env, "fre", fr.inter(&ext, lg));
    put(&mut env, "fri", fr.inter(&int, lg));
    put(&mut env, "po", po);
    put(&mut env, "loc", loc.clone());
    put(&mut env, "int", int);
    put(&mut env, "ext", ext);
    put(&mut env, "id", id.clone());
    put(&mut env, "sm", id.clone());
    put(&mut env, "rf", x.rf.clone());
    put(&mut env, "co", x.co.clone());
    put(&mut env, "fr", fr);
    put(&mut env, "addr", dep(&ev.addr));
    put(&mut env, "data", dep(&ev.data));
    put(&mut env, "ctrl", dep(&ev.ctrl));
    put(&mut env, "rmw", Rel::empty(n));
    put(&mut env, "amo", Rel::empty(n));
    put(&mut env, "same-instance", same_instr.clone());
    put(&mut env, "same-instr", same_instr);
    put(&mut env, "iico_data", Rel::empty(n));
    put(&mut env, "iico_ctrl", Rel::empty(n));
    let ww_loc = rel(&|i, j| {
        i != j && e[i].kind == Kind::Write && e[j].kind == Kind::Write && e[i].loc == e[j].loc
    });
    Builtins {
        env,
        universe,
        co: x.co.clone(),
        ww_loc,
    }
}
