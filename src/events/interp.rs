//! Interpreting the threads into an event structure: locations, initial writes, and each
//! thread's ops in order, with register contents, path conditions and dependencies.

use super::{Eid, Event, Events, Instr, Kind, Layout, LockRole, SourceRef, VExpr, ValId, Value};
use crate::diag::{Diag, Pos};
use crate::isa::{Addr, BinOp, Isa, LockOp, Op, Operand, Reg, Src};
use crate::litmus::{Loc, Test, Val, elem_name};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The reads a value depends on, each with the path condition under which it does (the
/// constant 1 for always).
type Deps = BTreeMap<Eid, ValId>;

/// The register contents during interpretation: a value and the reads it depends on.
#[derive(Clone, Debug)]
struct Content {
    val: ValId,
    deps: Deps,
}

/// The dependencies of a value computed from two others.
fn dep_union(ev: &mut Events, a: &Deps, b: &Deps) -> Deps {
    let mut out = a.clone();
    for (&d, &g) in b {
        let h = match out.get(&d) {
            Some(&f) => ev.or(f, g),
            None => g,
        };
        out.insert(d, h);
    }
    out
}

/// Dependencies that always hold.
fn always(ev: &mut Events, ds: impl IntoIterator<Item = Eid>) -> Deps {
    let one = ev.constant(Value::Int(1));
    ds.into_iter().map(|d| (d, one)).collect()
}

impl Events {
    /// Records the dependency `(d, e)` of `addr` (or, `data`) holding where `g` is 1.
    fn add_dep(&mut self, data: bool, d: Eid, e: Eid, g: ValId) {
        let (set, when) =
            if data { (&mut self.data, &mut self.data_when) } else { (&mut self.addr, &mut self.addr_when) };
        let known = set.contains(&(d, e));
        set.insert((d, e));
        if self.vals[g] == VExpr::Const(Value::Int(1)) || (known && !when.contains_key(&(d, e))) {
            when.remove(&(d, e));
            return;
        }
        match when.get(&(d, e)).copied() {
            Some(f) => {
                let h = self.or(f, g);
                let when = if data { &mut self.data_when } else { &mut self.addr_when };
                if self.vals[h] == VExpr::Const(Value::Int(1)) {
                    when.remove(&(d, e));
                } else {
                    when.insert((d, e), h);
                }
            }
            None => {
                when.insert((d, e), g);
            }
        }
    }
}

/// One control-flow path's state: its condition and registers.
#[derive(Clone, Debug)]
struct PathState {
    guard: ValId,
    regs: HashMap<Reg, Content>,
}

/// Where [`Op::Exit`] paths wait for the thread's end: no label is spelt so.
const EXIT: &str = "%exit";

/// Joins two paths: the guard is the disjunction, registers that differ become
/// `ite(g1, v1, v2)`.
fn merge(ev: &mut Events, a: PathState, b: PathState) -> PathState {
    if ev.is_const(a.guard, 0) {
        return b;
    }
    if ev.is_const(b.guard, 0) {
        return a;
    }
    let guard = ev.or(a.guard, b.guard);
    let zero = ev.constant(Value::Int(0));
    let mut regs = HashMap::new();
    let names: BTreeSet<Reg> = a.regs.keys().chain(b.regs.keys()).cloned().collect();
    for r in names {
        let ca = a.regs.get(&r).cloned().unwrap_or(Content { val: zero, deps: Deps::new() });
        let cb = b.regs.get(&r).cloned().unwrap_or(Content { val: zero, deps: Deps::new() });
        let val = ev.ite(a.guard, ca.val, cb.val);
        ev.joins.insert(val);
        // Each path's dependencies hold where it is taken; one both paths share (with
        // the same condition) holds as it did.
        let mut deps = Deps::new();
        for d in ca.deps.keys().chain(cb.deps.keys()).copied().collect::<BTreeSet<Eid>>() {
            let (ga, gb) = (ca.deps.get(&d).copied(), cb.deps.get(&d).copied());
            let g = match (ga, gb) {
                (Some(x), Some(y)) if x == y => x,
                _ => {
                    let za = ga.map_or(zero, |x| ev.and(a.guard, x));
                    let zb = gb.map_or(zero, |y| ev.and(b.guard, y));
                    ev.or(za, zb)
                }
            };
            deps.insert(d, g);
        }
        regs.insert(r, Content { val, deps });
    }
    PathState { guard, regs }
}

/// Interprets the threads' instructions into an event structure.
pub(super) fn interpret(test: &Test, code: &[Vec<Instr>], isa: &dyn Isa, src: &SourceRef<'_>) -> Result<Events, Diag> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for it in &test.init {
        if let Loc::Mem(x) = &it.loc {
            names.insert(x.clone());
        }
        if let Val::Sym(s) = &it.value {
            names.insert(s.clone());
        }
    }
    for instrs in code {
        for ins in instrs {
            for op in &ins.ops {
                if let Op::Load { addr: Addr::Sym(x), .. }
                | Op::Store { addr: Addr::Sym(x), .. }
                | Op::StoreCond { addr: Addr::Sym(x), .. }
                | Op::Lock { addr: Addr::Sym(x), .. }
                | Op::Marker { addr: Addr::Sym(x), .. } = op
                {
                    names.insert(x.clone());
                }
                let srcs: Vec<&Src> = match op {
                    Op::Store { src, .. } | Op::StoreCond { src, .. } | Op::Mov { src, .. } => vec![src],
                    Op::Bin { a, b, .. } | Op::Select { a, b, .. } => vec![a, b],
                    _ => vec![],
                };
                for s in srcs {
                    if let Src::Addr(x) = s {
                        names.insert(x.clone());
                    }
                }
            }
        }
    }
    let mut cond_locs = Vec::new();
    test.cond.prop.locs(&mut cond_locs);
    if let Some(f) = &test.filter {
        f.locs(&mut cond_locs);
    }
    cond_locs.extend(test.locations.iter().cloned());
    for l in &cond_locs {
        if let Loc::Mem(x) = l {
            names.insert(x.clone());
        }
    }
    // A place `x[i]` must be an element of an array the initial state declares.
    for l in &cond_locs {
        if let Loc::Mem(x) = l
            && x.ends_with(']')
            && !test.arrays.iter().any(|a| (1..a.len).any(|i| elem_name(&a.name, i) == *x))
        {
            let at = src.text.rfind(x.as_str()).unwrap_or(0);
            return Err(src.err(Pos(at), format!("`{x}` is no element of an array the initial state declares")));
        }
    }
    // Values in conditions that name locations are addresses too.
    let mut cond_vals = Vec::new();
    collect_syms(&test.cond.prop, &mut cond_vals);
    names.extend(cond_vals);

    let mut ev = Events {
        events: Vec::new(),
        locs: names.into_iter().collect(),
        threads: test.threads.iter().map(|t| t.id).collect(),
        vals: Vec::new(),
        val_ids: HashMap::new(),
        final_regs: BTreeMap::new(),
        addr: BTreeSet::new(),
        data: BTreeSet::new(),
        ctrl: BTreeSet::new(),
        addr_when: BTreeMap::new(),
        data_when: BTreeMap::new(),
        iico: BTreeSet::new(),
        known_sets: isa.known_sets().iter().map(|s| s.to_string()).collect(),
        choice_guards: Vec::new(),
        amo_as_one: isa.amo_is_one_operation(),
        co_from_model: isa.co_from_model(),
        observed: BTreeSet::new(),
        joins: BTreeSet::new(),
        branch_conds: Vec::new(),
        cuts: Vec::new(),
        one_event: Vec::new(),
        unsequenced: BTreeSet::new(),
        layout: Layout::default(),
    };
    ev.layout = Layout::of(test, &ev, src)?;
    for l in &cond_locs {
        if let Loc::Mem(x) = l
            && let Some(i) = ev.loc_index(x)
        {
            ev.observed.insert(i);
        }
    }
    let one = ev.constant(Value::Int(1));
    let zero_val = ev.constant(Value::Int(0));

    // Initial writes, one per location.
    for l in 0..ev.locs.len() {
        let mut v = Value::Int(0);
        for it in &test.init {
            if it.loc == Loc::Mem(ev.locs[l].clone()) {
                v = ev.value_of(&it.value).ok_or_else(|| src.err(it.pos, "unknown location in initial value"))?;
            }
        }
        let val = ev.constant(v);
        ev.events.push(Event {
            thread: None,
            instr: 0,
            kind: Kind::Write,
            loc: Some(l),
            addr: None,
            val,
            tags: vec![],
            tags_if: Vec::new(),
            text: String::new(),
            guard: one,
            lock: None,
        });
    }

    let zero = isa.zero_reg();
    for (ti, th) in test.threads.iter().enumerate() {
        let mut regs: HashMap<Reg, Content> = HashMap::new();
        for it in &test.init {
            if let Loc::Reg(t, r) = &it.loc
                && *t == th.id
            {
                let v = ev.value_of(&it.value).ok_or_else(|| src.err(it.pos, "unknown location in initial value"))?;
                let val = ev.constant(v);
                regs.insert(r.clone(), Content { val, deps: Deps::new() });
            }
        }
        let mut cur = PathState { guard: one, regs };
        let mut pending: HashMap<String, Vec<PathState>> = HashMap::new();
        let labels: Vec<Option<String>> = code[ti].iter().map(|i| i.label.clone()).collect();
        // Reads that some earlier branch depended on: every later event depends on them.
        let mut ctrl_src: BTreeSet<Eid> = BTreeSet::new();
        // Saved control sources of the enclosing [`Op::CtrlScope`]s.
        let mut ctrl_saved: Vec<BTreeSet<Eid>> = Vec::new();
        // The location reserved by the latest exclusive load: a store-conditional can only
        // succeed on it, and consumes it.
        let mut reservation: Option<ValId> = None;
        // The operands being evaluated ([`Op::Operand`]), outermost first, as (group,
        // operand) pairs; and for each event of the thread, those at its creation.
        let mut operands: Vec<(usize, usize)> = Vec::new();
        let mut groups = 0;
        let first_of_thread = ev.events.len();
        let mut operand_paths: Vec<Vec<(usize, usize)>> = Vec::new();
        for (instr_idx, ins) in code[ti].iter().enumerate() {
            let pos = ins.pos;
            if let Some(l) = &ins.label
                && let Some(states) = pending.remove(l)
            {
                for s in states {
                    cur = merge(&mut ev, cur, s);
                }
            }
            let text = &ins.text;
            let read_src = |regs: &HashMap<Reg, Content>, ev: &mut Events, s: &Src| -> Result<Content, Diag> {
                Ok(match s {
                    Src::Reg(r) if Some(r.as_str()) == zero => Content { val: zero_val, deps: Deps::new() },
                    Src::Reg(r) => regs.get(r).cloned().unwrap_or(Content { val: zero_val, deps: Deps::new() }),
                    Src::Imm(i) => Content { val: ev.constant(Value::Int(*i)), deps: Deps::new() },
                    Src::Addr(x) => {
                        let l = ev.loc_index(x).ok_or_else(|| src.err(pos, format!("unknown location '{x}'")))?;
                        Content { val: ev.constant(Value::Addr(l)), deps: Deps::new() }
                    }
                })
            };
            let resolve_addr = |regs: &HashMap<Reg, Content>,
                                ev: &mut Events,
                                a: &Addr|
             -> Result<(ValId, Deps), Diag> {
                match a {
                    Addr::Sym(x) => {
                        let l = ev.loc_index(x).ok_or_else(|| src.err(pos, format!("unknown location '{x}'")))?;
                        Ok((ev.constant(Value::Addr(l)), Deps::new()))
                    }
                    Addr::Reg(r, off) => {
                        let c = regs.get(r).cloned().unwrap_or(Content { val: zero_val, deps: Deps::new() });
                        let v = if *off == 0 {
                            c.val
                        } else {
                            let o = ev.constant(Value::Int(*off));
                            ev.bin(BinOp::Add, c.val, o)
                        };
                        // A constant address plus a constant offset that names no element.
                        if let VExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) = ev.vals[v]
                            && let (&VExpr::Const(x), &VExpr::Const(y)) = (&ev.vals[a], &ev.vals[b])
                            && matches!((x, y), (Value::Addr(_), Value::Int(_)) | (Value::Int(_), Value::Addr(_)))
                        {
                            return Err(src.err(pos, ev.arith_message(op, x, y)));
                        }
                        match &ev.vals[v] {
                            VExpr::Const(Value::Int(_)) => Err(src.err(
                                pos,
                                format!("unsupported: register '{r}' holds no location's address (raw addresses, arrays or mixed-size accesses)"),
                            )),
                            _ => Ok((v, c.deps.clone())),
                        }
                    }
                }
            };
            // An access to an array element must be as wide as the element: herd's mixed-size
            // accesses (several elements, or part of one) are not modelled.
            let check_width = |ev: &Events, v: ValId, width: Option<usize>| -> Result<(), Diag> {
                let wide = |w: Option<usize>| w.map_or("of unknown width".to_string(), |w| format!("{w} bytes wide"));
                match ev.vals[v] {
                    VExpr::Const(Value::Addr(l)) => match ev.layout.elem_size(l) {
                        Some(size) if width != Some(size as usize) => Err(src.err(
                            pos,
                            format!(
                                "unsupported: mixed-size access: an access {} to '{}', an element of {size} bytes",
                                wide(width),
                                ev.locs[l]
                            ),
                        )),
                        _ => Ok(()),
                    },
                    VExpr::Const(_) => Ok(()),
                    _ if ev.layout.fits_any(width) => Ok(()),
                    _ => Err(src.err(
                        pos,
                        format!(
                            "unsupported: mixed-size access: an access {} at a computed address, in a test with arrays of other element sizes",
                            wide(width)
                        ),
                    )),
                }
            };
            let resolve = |regs: &HashMap<Reg, Content>,
                           ev: &mut Events,
                           a: &Addr,
                           width: Option<usize>|
             -> Result<(ValId, Deps), Diag> {
                let (v, deps) = resolve_addr(regs, ev, a)?;
                check_width(ev, v, width)?;
                Ok((v, deps))
            };
            let set_reg = |regs: &mut HashMap<Reg, Content>, r: &Reg, c: Content| {
                if Some(r.as_str()) != zero {
                    regs.insert(r.clone(), c);
                }
            };
            let cond_val =
                |regs: &HashMap<Reg, Content>, ev: &mut Events, c: &crate::isa::Cond| -> Result<Content, Diag> {
                    let a = read_src(regs, ev, &c.a)?;
                    let b = read_src(regs, ev, &c.b)?;
                    let val = ev.bin(c.op, a.val, b.val);
                    let deps = dep_union(ev, &a.deps, &b.deps);
                    Ok(Content { val, deps })
                };
            // Dependencies inside one instruction are herd's iico, not addr/data/ctrl.
            let first_of_instr = ev.events.len();
            let outside = |deps: &Deps| -> Vec<(Eid, ValId)> {
                deps.iter().map(|(&d, &g)| (d, g)).filter(|&(d, _)| d < first_of_instr).collect()
            };
            let sequential = isa.rmw_sequential();
            let iico = |ev: &mut Events, deps: &Deps, w: Eid| {
                let reads: Vec<Eid> = (first_of_instr..w)
                    .filter(|&r| ev.events[r].kind == Kind::Read && (sequential || deps.contains_key(&r)))
                    .collect();
                ev.iico.extend(reads.into_iter().map(|r| (r, w)));
            };
            let push = |ev: &mut Events, e: Event, ctrl_src: &BTreeSet<Eid>| -> Eid {
                let id = ev.events.len();
                ev.ctrl.extend(ctrl_src.iter().map(|&d| (d, id)));
                ev.events.push(e);
                id
            };
            // A write of this instruction, with the addr and data dependencies it carries.
            let write = |ev: &mut Events, w: Event, ctrl_src: &BTreeSet<Eid>, adeps: &Deps, vdeps: &Deps| -> Eid {
                let id = push(ev, w, ctrl_src);
                for (d, g) in outside(adeps) {
                    ev.add_dep(false, d, id, g);
                }
                for (d, g) in outside(vdeps) {
                    ev.add_dep(true, d, id, g);
                }
                id
            };
            // The width of the instruction's accesses ([`Op::Width`]), where the ISA says it.
            let mut width: Option<usize> = None;
            for op in &ins.ops {
                if groups > 0 || matches!(op, Op::Operand(_)) {
                    operand_paths.resize(ev.events.len() - first_of_thread, operands.clone());
                }
                let guard = cur.guard;
                match op {
                    Op::Operand(Operand::First) => {
                        groups += 1;
                        operands.push((groups, 0));
                    }
                    Op::Operand(Operand::Next) => {
                        if let Some(o) = operands.last_mut() {
                            o.1 += 1;
                        }
                    }
                    Op::Operand(Operand::Done) => {
                        operands.pop();
                    }
                    Op::Load { dst, addr, tags } => {
                        let (av, adeps) = resolve(&cur.regs, &mut ev, addr, width)?;
                        let (loc, daddr) = ev.place(av);
                        let id = ev.events.len();
                        let val = ev.intern(VExpr::Read(id));
                        push(
                            &mut ev,
                            Event {
                                thread: Some(th.id),
                                instr: 2 * instr_idx,
                                kind: Kind::Read,
                                loc,
                                addr: daddr,
                                val,
                                tags: tags.clone(),
                                tags_if: Vec::new(),
                                text: text.clone(),
                                guard,
                                lock: None,
                            },
                            &ctrl_src,
                        );
                        for (d, g) in outside(&adeps) {
                            ev.add_dep(false, d, id, g);
                        }
                        let deps = always(&mut ev, [id]);
                        set_reg(&mut cur.regs, dst, Content { val, deps });
                        if tags.iter().any(|t| t == "EX") {
                            reservation = Some(av);
                        }
                    }
                    Op::Store { addr, src: s, tags, when } => {
                        let (av, adeps) = resolve(&cur.regs, &mut ev, addr, width)?;
                        let (loc, daddr) = ev.place(av);
                        let c = read_src(&cur.regs, &mut ev, s)?;
                        let mut inner = dep_union(&mut ev, &c.deps, &adeps);
                        let g = match when {
                            None => guard,
                            Some(w) => {
                                let cv = cond_val(&cur.regs, &mut ev, w)?;
                                inner = dep_union(&mut ev, &inner, &cv.deps);
                                ev.and(guard, cv.val)
                            }
                        };
                        if ev.is_const(g, 0) {
                            continue;
                        }
                        let after_read = isa.rmw_in_po()
                            && (first_of_instr..ev.events.len()).any(|r| ev.events[r].kind == Kind::Read);
                        let w = Event {
                            thread: Some(th.id),
                            instr: 2 * instr_idx + usize::from(after_read),
                            kind: Kind::Write,
                            loc,
                            addr: daddr,
                            val: c.val,
                            tags: tags.clone(),
                            tags_if: Vec::new(),
                            text: text.clone(),
                            guard: g,
                            lock: None,
                        };
                        let id = write(&mut ev, w, &ctrl_src, &adeps, &c.deps);
                        iico(&mut ev, &inner, id);
                    }
                    Op::Choose { dst, when } => {
                        let cv = cond_val(&cur.regs, &mut ev, when)?;
                        let reach = ev.and(guard, cv.val);
                        let choice = ev.choice_where(reach);
                        set_reg(&mut cur.regs, dst, Content { val: choice, deps: cv.deps });
                    }
                    Op::StoreCond { addr, src: s, tags, status, ok, fail } => {
                        let (av, adeps) = resolve(&cur.regs, &mut ev, addr, width)?;
                        let (loc, daddr) = ev.place(av);
                        let c = read_src(&cur.regs, &mut ev, s)?;
                        // Success needs the reservation to be on this address: folded
                        // when both are fixed, a condition on values when either is not.
                        let same = match reservation.take() {
                            Some(r) => ev.bin(BinOp::Eq, r, av),
                            None => zero_val,
                        };
                        let reach = ev.and(guard, same);
                        let choice = ev.choice_where(reach);
                        let g = ev.and(guard, choice);
                        if let Some(st) = status {
                            let okv = ev.constant(Value::Int(*ok));
                            let failv = ev.constant(Value::Int(*fail));
                            let val = ev.ite(choice, okv, failv);
                            // In herd's RISC-V semantics the status register depends on
                            // the store itself (a dependency through success); in its
                            // AArch64 semantics it does not.
                            let deps = if ev.is_const(g, 0) || !isa.status_depends_on_store() {
                                Deps::new()
                            } else {
                                let next = ev.events.len();
                                always(&mut ev, [next])
                            };
                            set_reg(&mut cur.regs, st, Content { val, deps });
                        }
                        if ev.is_const(g, 0) {
                            continue;
                        }
                        let w = Event {
                            thread: Some(th.id),
                            instr: 2 * instr_idx,
                            kind: Kind::Write,
                            loc,
                            addr: daddr,
                            val: c.val,
                            tags: tags.clone(),
                            tags_if: Vec::new(),
                            text: text.clone(),
                            guard: g,
                            lock: None,
                        };
                        write(&mut ev, w, &ctrl_src, &adeps, &c.deps);
                    }
                    Op::Fence { tags } => {
                        push(
                            &mut ev,
                            Event {
                                thread: Some(th.id),
                                instr: 2 * instr_idx,
                                kind: Kind::Fence,
                                loc: None,
                                addr: None,
                                val: zero_val,
                                tags: tags.clone(),
                                tags_if: Vec::new(),
                                text: text.clone(),
                                guard,
                                lock: None,
                            },
                            &ctrl_src,
                        );
                    }
                    Op::Exit => {
                        // Joined with the other paths at the thread's end.
                        pending.entry(EXIT.to_string()).or_default().push(cur.clone());
                        cur.guard = zero_val;
                    }
                    Op::TagIf { tags, when } => {
                        let cv = cond_val(&cur.regs, &mut ev, when)?;
                        if let Some(e) = ev.events[first_of_instr..].last_mut() {
                            e.tags_if.extend(tags.iter().map(|t| (t.clone(), cv.val)));
                        }
                    }
                    Op::OneEvent => {
                        let last = |k: Kind| (first_of_instr..ev.events.len()).rev().find(|&e| ev.events[e].kind == k);
                        if let (Some(r), Some(w)) = (last(Kind::Read), last(Kind::Write)) {
                            ev.one_event.push((r, w));
                        }
                    }
                    Op::Cut(name) => {
                        if !ev.is_const(guard, 0) {
                            ev.cuts.push((guard, name.clone()));
                        }
                    }
                    Op::Width(w) => width = Some(*w),
                    // `resolve_jumps` has made every jump a branch, or refused it.
                    Op::Jump(r) => {
                        return Err(src.err(pos, format!("unsupported: computed branch on '{r}'")));
                    }
                    Op::CtrlScope(true) => ctrl_saved.push(ctrl_src.clone()),
                    Op::CtrlScope(false) => ctrl_src = ctrl_saved.pop().unwrap_or_default(),
                    Op::Marker { addr, tags } => {
                        let (av, adeps) = resolve(&cur.regs, &mut ev, addr, width)?;
                        let (loc, daddr) = ev.place(av);
                        let e = Event {
                            thread: Some(th.id),
                            instr: 2 * instr_idx,
                            kind: Kind::Fence,
                            loc,
                            addr: daddr,
                            val: zero_val,
                            tags: tags.clone(),
                            tags_if: Vec::new(),
                            text: text.clone(),
                            guard,
                            lock: None,
                        };
                        let id = push(&mut ev, e, &ctrl_src);
                        for (d, g) in outside(&adeps) {
                            ev.add_dep(false, d, id, g);
                        }
                    }
                    Op::Lock { addr, op, dst } => {
                        let (av, adeps) = resolve(&cur.regs, &mut ev, addr, width)?;
                        let (loc, daddr) = ev.place(av);
                        // A try-lock or an is-locked test has two outcomes: a choice, made
                        // only where the operation is reached.
                        let choice = match op {
                            LockOp::Try | LockOp::IsLocked => Some(ev.choice_where(guard)),
                            _ => None,
                        };
                        let not_choice = choice.map(|c| ev.not(c));
                        let on = |ev: &mut Events, c: Option<ValId>| c.map_or(guard, |c| ev.and(guard, c));
                        let mut events: Vec<(Kind, LockRole, ValId, usize)> = Vec::new();
                        match op {
                            LockOp::Acquire | LockOp::Try => {
                                let g = on(&mut ev, choice);
                                events.push((Kind::Read, LockRole::Lkr, g, 0));
                                events.push((Kind::Write, LockRole::Lkw, g, 1));
                                if let Some(nc) = not_choice {
                                    let g = on(&mut ev, Some(nc));
                                    events.push((Kind::Read, LockRole::Lf, g, 0));
                                }
                            }
                            LockOp::Release => events.push((Kind::Write, LockRole::Ul, guard, 0)),
                            LockOp::IsLocked => {
                                let g = on(&mut ev, choice);
                                events.push((Kind::Read, LockRole::Rl, g, 0));
                                let g = on(&mut ev, not_choice);
                                events.push((Kind::Read, LockRole::Ru, g, 0));
                            }
                        }
                        for (kind, role, g, slot) in events {
                            if ev.is_const(g, 0) {
                                continue;
                            }
                            // Lock events carry no value the test can see: a lock write
                            // writes 1 (held), an unlock 0.
                            let v = i64::from(role == LockRole::Lkw);
                            let val = ev.constant(Value::Int(v));
                            let e = Event {
                                thread: Some(th.id),
                                instr: 2 * instr_idx + slot,
                                kind,
                                loc,
                                addr: daddr,
                                val,
                                tags: vec![],
                                tags_if: Vec::new(),
                                text: text.clone(),
                                guard: g,
                                lock: Some(role),
                            };
                            let id = push(&mut ev, e, &ctrl_src);
                            for (d, g) in outside(&adeps) {
                                ev.add_dep(false, d, id, g);
                            }
                        }
                        if let (Some(d), Some(c)) = (dst, choice) {
                            set_reg(&mut cur.regs, d, Content { val: c, deps: Deps::new() });
                        }
                    }
                    Op::Mov { dst, src: s } => {
                        let mut c = read_src(&cur.regs, &mut ev, s)?;
                        if ev.amo_as_one && c.deps.keys().any(|&d| d >= first_of_instr) {
                            let writes: Vec<Eid> = (first_of_instr..ev.events.len())
                                .filter(|&w| ev.events[w].kind == Kind::Write)
                                .collect();
                            let more = always(&mut ev, writes);
                            c.deps = dep_union(&mut ev, &c.deps, &more);
                        }
                        set_reg(&mut cur.regs, dst, c);
                    }
                    Op::Bin { dst, op, a, b } => {
                        let ca = read_src(&cur.regs, &mut ev, a)?;
                        let cb = read_src(&cur.regs, &mut ev, b)?;
                        let val = ev.bin(*op, ca.val, cb.val);
                        let deps = dep_union(&mut ev, &ca.deps, &cb.deps);
                        set_reg(&mut cur.regs, dst, Content { val, deps });
                    }
                    Op::Select { dst, cond, a, b } => {
                        let c = cond_val(&cur.regs, &mut ev, cond)?;
                        let ca = read_src(&cur.regs, &mut ev, a)?;
                        let cb = read_src(&cur.regs, &mut ev, b)?;
                        let val = ev.ite(c.val, ca.val, cb.val);
                        let deps = dep_union(&mut ev, &c.deps, &ca.deps);
                        let deps = dep_union(&mut ev, &deps, &cb.deps);
                        set_reg(&mut cur.regs, dst, Content { val, deps });
                    }
                    Op::Branch { cond, target } => {
                        // Backward branches were unrolled away (`crate::unroll`).
                        let later = labels[instr_idx + 1..].iter().any(|l| l.as_deref() == Some(target.as_str()));
                        if !later {
                            return Err(src.err(pos, format!("unknown label '{target}'")));
                        }
                        match cond {
                            None => {
                                pending.entry(target.clone()).or_default().push(cur.clone());
                                cur.guard = zero_val;
                            }
                            Some(c) => {
                                let cv = cond_val(&cur.regs, &mut ev, c)?;
                                ev.branch_conds.push((ev.events.len(), cv.val));
                                push(
                                    &mut ev,
                                    Event {
                                        thread: Some(th.id),
                                        instr: 2 * instr_idx,
                                        kind: Kind::Branch,
                                        loc: None,
                                        addr: None,
                                        val: zero_val,
                                        tags: vec![],
                                        tags_if: Vec::new(),
                                        text: text.clone(),
                                        guard,
                                        lock: None,
                                    },
                                    &ctrl_src,
                                );
                                let taken = ev.and(guard, cv.val);
                                let nc = ev.not(cv.val);
                                let fall = ev.and(guard, nc);
                                pending
                                    .entry(target.clone())
                                    .or_default()
                                    .push(PathState { guard: taken, regs: cur.regs.clone() });
                                cur.guard = fall;
                                ctrl_src.extend(outside(&cv.deps).into_iter().map(|(d, _)| d));
                            }
                        }
                    }
                }
            }
        }
        if groups > 0 {
            operand_paths.resize(ev.events.len() - first_of_thread, operands.clone());
            ev.unsequenced.extend(unsequenced(&operand_paths, first_of_thread));
        }
        // Branches to a label on no instruction jump to the end.
        for (_, states) in pending.drain() {
            for s in states {
                cur = merge(&mut ev, cur, s);
            }
        }
        for (r, c) in cur.regs {
            ev.final_regs.insert((th.id, r), c.val);
        }
    }
    Ok(ev)
}

/// The pairs of a thread's events (numbered from `first`) that lie in different operands
/// of one operator, given the operands each was created in.
fn unsequenced(paths: &[Vec<(usize, usize)>], first: Eid) -> Vec<(Eid, Eid)> {
    let apart = |a: &[(usize, usize)], b: &[(usize, usize)]| {
        a.iter().zip(b).take_while(|(x, y)| x.0 == y.0).any(|(x, y)| x.1 != y.1)
    };
    let mut out = Vec::new();
    for (i, a) in paths.iter().enumerate() {
        for (j, b) in paths.iter().enumerate().skip(i + 1) {
            if apart(a, b) {
                out.push((first + i, first + j));
            }
        }
    }
    out
}

fn collect_syms(p: &crate::litmus::Prop, out: &mut Vec<String>) {
    use crate::litmus::Prop;
    match p {
        Prop::Eq(_, Val::Sym(s)) => out.push(s.clone()),
        Prop::Not(q) => collect_syms(q, out),
        Prop::And(ps) | Prop::Or(ps) => ps.iter().for_each(|q| collect_syms(q, out)),
        Prop::Implies(a, b) => {
            collect_syms(a, out);
            collect_syms(b, out);
        }
        _ => {}
    }
}
