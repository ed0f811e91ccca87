//! The built-in names a model reads, bound over the skeleton's variables: the same names
//! `encode::exec::builtins` binds for a concrete test, so that the cat compiler runs
//! unchanged. Names outside the vocabulary (locks, register events, branches) are bound
//! empty; a name bound nowhere is the compiler's "unbound name" error.

use super::skeleton::Skeleton;
use crate::cat::{Builtins, Name, V};
use crate::events::{LockRole, Value};
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};
use std::rc::Rc;

/// The built-ins over `sk`, with `known` the architecture's tag sets (all bound).
pub fn builtins(sk: &Skeleton, lg: &mut Logic, known: &[&str]) -> Builtins {
    let n = sk.n();
    let universe = Set(vec![B::T; n]);
    let mut env: Vec<(Name, V)> = Vec::with_capacity(96);
    let set = |env: &mut Vec<(Name, V)>, name: &str, s: Set| env.push((Name::new(name), V::Set(Rc::new(s))));
    let r = reads(sk, lg);
    let w = Set(sk.write.clone());
    let m = r.union(&w, lg);
    let init = Set((0..n).map(|e| B::from_bool(e < sk.locs)).collect());
    let fw = final_writes(sk, lg);
    set(&mut env, "_", universe.clone());
    for (name, s) in
        [("R", &r), ("W", &w), ("M", &m), ("F", &Set(sk.fence.clone())), ("IW", &init), ("FW", &fw), ("Exp", &m)]
    {
        set(&mut env, name, s.clone());
    }
    let tagged = |name: &str| known.contains(&name) || sk.vocab.kinds.iter().any(|k| k.tags.contains(&name));
    for name in ["B", "BCC", "NExp", "ADDR", "DATA", "Rreg", "Wreg", "SPEC", "SPURIOUS", "PRED", "EX"] {
        if tagged(name) {
            continue;
        }
        set(&mut env, name, Set::empty(n));
    }
    for role in LockRole::ALL {
        set(&mut env, role.set_name(), Set::empty(n));
    }
    for &tag in known.iter().chain(sk.vocab.kinds.iter().flat_map(|k| k.tags)) {
        let s = tag_set(sk, lg, tag);
        if tag.starts_with(|c: char| c.is_ascii_lowercase()) {
            set(&mut env, &crate::encode::exec::capitalised(tag), s.clone());
        }
        set(&mut env, tag, s);
    }
    let loc = loc_rel(sk, lg);
    let ww_loc = ww_loc(sk, lg, &loc);
    relations(sk, lg, &mut env, &loc);
    let vals = values(sk, lg);
    Builtins { env, universe, co: sk.co.clone(), loc, ww_loc, vals }
}

/// herd's `R`: the reads, and where the ISA's atomics are one memory operation
/// (`Isa::amo_is_one_operation`, RISC-V), an AMO's write too.
fn reads(sk: &Skeleton, lg: &mut Logic) -> Set {
    let mut r = Set(sk.read.clone());
    if crate::isa::for_arch(sk.vocab.arch).is_some_and(|i| i.amo_is_one_operation()) {
        for ((_, w), b) in sk.pair.iter() {
            r.0[w] = lg.or2(r.0[w], b);
        }
    }
    r
}

/// The events of the kinds carrying `tag`.
fn tag_set(sk: &Skeleton, lg: &mut Logic, tag: &str) -> Set {
    let kinds = &sk.vocab.kinds;
    let mut s = Set::empty(sk.n());
    for i in 0..sk.slots {
        let xs: Vec<B> = (0..kinds.len()).filter(|&k| kinds[k].tags.contains(&tag)).map(|k| sk.kind[i][k]).collect();
        s.0[sk.ev(i)] = lg.or(&xs);
    }
    s
}

/// Writes with no co successor.
fn final_writes(sk: &Skeleton, lg: &mut Logic) -> Set {
    let n = sk.n();
    let mut later = vec![Vec::new(); n];
    for ((a, _), b) in sk.co.iter() {
        later[a].push(b);
    }
    Set((0..n)
        .map(|a| {
            let any = lg.or(&later[a]);
            lg.and2(sk.write[a], any.negate())
        })
        .collect())
}

/// herd's `loc`: pairs of accesses to one location, each access with itself included.
fn loc_rel(sk: &Skeleton, _lg: &mut Logic) -> Rel {
    let n = sk.n();
    let m = (0..n).flat_map(|a| (0..n).map(move |b| ((a, b), sk.same_loc[a][b])));
    Rel::collect_sorted(n, n * n, m)
}

/// Distinct same-location writes.
fn ww_loc(sk: &Skeleton, lg: &mut Logic, loc: &Rel) -> Rel {
    let entries: Vec<_> = loc
        .iter()
        .filter(|((a, b), _)| a != b)
        .map(|((a, b), s)| ((a, b), lg.and(&[s, sk.write[a], sk.write[b]])))
        .collect();
    Rel::collect_sorted(sk.n(), entries.len(), entries)
}

/// The base relations, bound in `env`.
fn relations(sk: &Skeleton, lg: &mut Logic, env: &mut Vec<(Name, V)>, loc: &Rel) {
    let n = sk.n();
    let id = Rel::from_pairs(n, (0..n).map(|i| (i, i)));
    // int: one thread (the initial writes' counting as one), both ways, with the identity.
    let init_pairs = Rel::from_pairs(n, (0..sk.locs).flat_map(|a| (0..sk.locs).map(move |b| (a, b))));
    let int = sk.same_thread.union(&sk.same_thread.inverse(), lg).union(&id, lg).union(&init_pairs, lg);
    let universe = Set(vec![B::T; n]);
    let ext = int.complement(&universe, lg);
    let fr = sk.rf.inverse().seq(&sk.co, lg).diff(&id, lg);
    let same_instr = id.union(&sk.pair, lg).union(&sk.pair.inverse(), lg);
    let init = Set((0..n).map(|e| B::from_bool(e < sk.locs)).collect());
    let w = Set(sk.write.clone());
    let non_init_w = w.diff(&init, lg);
    let fw = final_writes(sk, lg);
    let not_final = w.diff(&fw, lg);
    let co0 = Rel::product(&init, &non_init_w, lg).union(&Rel::product(&not_final, &fw, lg), lg).inter(loc, lg);
    let empty = Rel::empty(n);
    let rmw = sk.pair.union(&sk.lxsx, lg);
    let part = |a: &Rel, b: &Rel, lg: &mut Logic| a.inter(b, lg);
    let bound: Vec<(&str, Rel)> = vec![
        ("po-loc", part(&sk.po, loc, lg)),
        ("rfe", part(&sk.rf, &ext, lg)),
        ("rfi", part(&sk.rf, &int, lg)),
        ("coe", part(&sk.co, &ext, lg)),
        ("coi", part(&sk.co, &int, lg)),
        ("fre", part(&fr, &ext, lg)),
        ("fri", part(&fr, &int, lg)),
        ("po", sk.po.clone()),
        ("loc", loc.clone()),
        ("int", int),
        ("ext", ext),
        ("id", id.clone()),
        ("sm", id.clone()),
        ("si", id),
        ("rf", sk.rf.clone()),
        ("co", sk.co.clone()),
        ("fr", fr),
        ("addr", sk.addr.clone()),
        ("data", sk.data.clone()),
        ("ctrl", sk.ctrl.clone()),
        ("same-instance", same_instr.clone()),
        ("same-instr", same_instr),
        ("iico_data", empty.clone()),
        ("iico_ctrl", empty.clone()),
        ("iico_order", empty),
        ("co0", co0),
        ("amo", sk.pair.clone()),
        ("lxsx", sk.lxsx.clone()),
        ("rmw", rmw),
    ];
    env.extend(bound.into_iter().map(|(name, r)| (Name::new(name), V::Rel(Rc::new(r)))));
}

/// Each event's value, one-hot: a write in slot `i` writes `i + 1`, an initial write 0, a
/// read the value of the write it reads from.
fn values(sk: &Skeleton, lg: &mut Logic) -> Vec<Vec<(Value, B)>> {
    let n = sk.n();
    let value = |e: usize| if e < sk.locs { 0 } else { (e - sk.locs + 1) as i64 };
    let mut out: Vec<Vec<(Value, B)>> = (0..n).map(|e| vec![(Value::Int(value(e)), sk.write[e])]).collect();
    for ((w, r), b) in sk.rf.iter() {
        let v = Value::Int(value(w));
        match out[r].iter().position(|x| x.0 == v) {
            Some(k) => out[r][k].1 = lg.or2(out[r][k].1, b),
            None => out[r].push((v, b)),
        }
    }
    out
}
