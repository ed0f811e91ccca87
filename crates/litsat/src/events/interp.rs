//! Interpreting the threads into an event structure: the locations, one initial write per
//! location, then each thread in turn (`thread.rs`).

use super::thread;
use super::{Cells, Event, Events, Instr, Kind, Layout, SourceRef, ValId, Value};
use crate::diag::{Deadline, Diag, Pos};
use crate::isa::{Addr, Isa, Op, Src};
use crate::litmus::{Loc, Prop, Test, Val, elem_name, location_of};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Interprets the threads' instructions into an event structure.
pub(super) fn interpret(
    test: &Test,
    code: &[Vec<Instr>],
    isa: &dyn Isa,
    src: &SourceRef<'_>,
    register_events: bool,
    deadline: Deadline,
) -> Result<Events, Diag> {
    let places = places_read(test);
    check_elements(test, &places, src)?;
    let mut names = location_names(test, code, &places);
    let vmsa = crate::variant::holds(&test.variants, "vmsa");
    super::vmsa::check(test, vmsa, src)?;
    let entries = if vmsa { super::vmsa::entry_names(&names) } else { Vec::new() };
    names.extend(entries.iter().map(String::as_str));
    let cells = crate::variant::holds(&test.variants, "mixed").then(|| Cells::plan(test, code, isa, &names));
    let cell_names = cells.as_ref().map(Cells::names).unwrap_or_default();
    let mut ev = Events::empty(test, isa, names.into_iter().chain(cell_names.iter().map(String::as_str)).collect());
    ev.register_events = register_events;
    ev.ifetch = crate::variant::holds(&test.variants, "ifetch");
    if vmsa {
        ev.vmsa = Some(super::Vmsa { el0: test.el0.clone(), tlbi: Vec::new() });
    }
    ev.events.reserve(ev.locs.len() + most_events(code));
    ev.layout = match &cells {
        Some(c) => Layout::of_cells(test, &ev, c, src)?,
        None => Layout::of(test, &ev, src)?,
    };
    ev.cells = cells;
    ev.layout.words = isa.scalar_bits(&test.variants) == 32;
    for l in &places {
        let Loc::Mem(x) = *l else { continue };
        // An array named bare in `locations` is shown whole: every element.
        let elems = match test.arrays.iter().find(|a| a.name == *x) {
            Some(a) => (0..a.len).map(|i| elem_name(x, i)).collect(),
            None => vec![x.clone()],
        };
        for e in elems {
            if let Some(i) = ev.loc_index(&e) {
                ev.observed.extend(ev.place_cells(i));
            }
        }
    }
    // The constants 1 and 0 take the first value numbers, in this order, before the
    // initial values: the encoding numbers its variables in value order.
    let one = ev.constant(Value::Int(1));
    ev.constant(Value::Int(0));
    initial_writes(&mut ev, test, src, one)?;
    for (th, instrs) in test.threads.iter().zip(code) {
        thread::interpret(&mut ev, test, th.id, instrs, isa, src, deadline)?;
    }
    if ev.ifetch {
        super::ifetch::tag_code_accesses(&mut ev);
    }
    Ok(ev)
}

/// How many events the threads' code can make, at most. Reserved up front, as growing
/// the vector of events (large ones) cost more than filling it; and counted closely, as
/// past a kilobyte an allocation costs more (glibc's large bins).
fn most_events(code: &[Vec<Instr>]) -> usize {
    code.iter().flatten().flat_map(|ins| &ins.ops).map(most_events_of).sum()
}

/// How many events an op can make, at most: an access, a fence or a conditional branch
/// one, a lock operation up to three (a try-lock's acquisition and failure).
fn most_events_of(op: &Op) -> usize {
    match op {
        Op::Load { .. }
        | Op::Store { .. }
        | Op::StoreCond { second: None, .. }
        | Op::Fence { .. }
        | Op::Marker { .. }
        | Op::Branch { cond: Some(_), .. } => 1,
        Op::Lock { .. } | Op::Cas { pair: None, .. } => 3,
        Op::Cas { pair: Some(_), .. } => 6,
        Op::StoreCond { second: Some(_), .. } => 2,
        _ => 0,
    }
}

/// The places the test's final state reads: the condition's, the filter's and those of
/// `locations`. Their memory locations are the ones herd chooses a final write for.
fn places_read(test: &Test) -> Vec<&Loc> {
    let mut places = Vec::new();
    test.cond.prop.loc_refs(&mut places);
    if let Some(f) = &test.filter {
        f.loc_refs(&mut places);
    }
    places.extend(&test.locations);
    places
}

/// Refuses a place `x[i]` that is no element of an array the initial state declares: it
/// would otherwise be taken for a location of its own.
fn check_elements(test: &Test, places: &[&Loc], src: &SourceRef<'_>) -> Result<(), Diag> {
    for l in places {
        if let Loc::Mem(x) = *l
            && x.ends_with(']')
            && !test.arrays.iter().any(|a| (0..a.len).any(|i| elem_name(&a.name, i) == location_of(x)))
        {
            let at = src.text.rfind(x.as_str()).unwrap_or(0);
            return Err(src.err(Pos(at), format!("`{x}` is no element of an array the initial state declares")));
        }
    }
    Ok(())
}

/// Every location the test names, sorted: those the initial state sets or gives as values,
/// the code accesses or takes the address of, and the final state reads or compares with.
/// Each gets an initial write, and its index is its [`Value::Addr`].
/// Borrowed: each name is copied once, into the event structure.
fn location_names<'t>(test: &'t Test, code: &'t [Vec<Instr>], places: &[&'t Loc]) -> BTreeSet<&'t str> {
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for it in &test.init {
        if let Loc::Mem(x) = &it.loc {
            names.insert(x);
        }
        // A page-table entry's value (`(oa:PA(x))`) names the location it maps to.
        match &it.value {
            Val::Sym(s) if s.starts_with('(') => names.extend(super::oa_name(s)),
            Val::Sym(s) => {
                names.insert(s);
            }
            Val::Int(_) => {}
        }
    }
    for op in code.iter().flatten().flat_map(|ins| &ins.ops) {
        op_locations(op, &mut names);
    }
    for l in places {
        // An element's place (`x[0]`, `x{1}`) names an array's location, which the
        // initial state declares.
        if let Loc::Mem(x) = *l
            && !x.ends_with([']', '}'])
        {
            names.insert(x);
        }
    }
    // Values in conditions that name locations are addresses too.
    let mut cond_vals = Vec::new();
    collect_syms(&test.cond.prop, &mut cond_vals);
    names.extend(cond_vals);
    names
}

/// The locations an op names: the one it accesses, and those whose address it takes.
pub(super) fn op_locations<'t>(op: &'t Op, names: &mut BTreeSet<&'t str>) {
    if let Op::Load { addr: Addr::Sym(x), .. }
    | Op::Store { addr: Addr::Sym(x), .. }
    | Op::StoreCond { addr: Addr::Sym(x), .. }
    | Op::Cas { addr: Addr::Sym(x), .. }
    | Op::Lock { addr: Addr::Sym(x), .. }
    | Op::Marker { addr: Addr::Sym(x), .. } = op
    {
        names.insert(x);
    }
    let srcs: [Option<&Src>; 2] = match op {
        Op::Store { src, .. } | Op::StoreCond { src, .. } | Op::Mov { src, .. } | Op::Cas { new: src, .. } => {
            [Some(src), None]
        }
        Op::Bin { a, b, .. } | Op::Select { a, b, .. } | Op::SelectOp { a, b, .. } => [Some(a), Some(b)],
        _ => [None, None],
    };
    for s in srcs.into_iter().flatten() {
        if let Src::Addr(x) = s {
            names.insert(x);
        }
    }
}

/// The symbols a proposition compares places with (`0:r1=x`): they may name locations.
pub(super) fn collect_syms<'t>(p: &'t Prop, out: &mut Vec<&'t str>) {
    match p {
        Prop::Eq(_, Val::Sym(s)) => out.push(s),
        Prop::Not(q) => collect_syms(q, out),
        Prop::And(ps) | Prop::Or(ps) => ps.iter().for_each(|q| collect_syms(q, out)),
        Prop::Implies(a, b) => {
            collect_syms(a, out);
            collect_syms(b, out);
        }
        _ => {}
    }
}

impl Events {
    /// An event structure with its locations and what the ISA says of it, and nothing
    /// interpreted yet.
    fn empty(test: &Test, isa: &dyn Isa, names: BTreeSet<&str>) -> Events {
        Events {
            events: Vec::new(),
            locs: names.into_iter().map(str::to_string).collect(),
            threads: test.threads.iter().map(|t| t.id).collect(),
            // Both sized for a litmus test's values at once: growing step by step
            // rehashed and copied them several times.
            vals: Vec::with_capacity(64),
            val_ids: HashMap::with_capacity_and_hasher(64, Default::default()),
            final_regs: BTreeMap::new(),
            fault_sites: Vec::new(),
            load_regs: Vec::new(),
            addr: BTreeSet::new(),
            data: BTreeSet::new(),
            ctrl: BTreeSet::new(),
            addr_when: BTreeMap::new(),
            data_when: BTreeMap::new(),
            iico: BTreeSet::new(),
            iico_data: BTreeSet::new(),
            iico_ctrl: BTreeSet::new(),
            iico_order: BTreeSet::new(),
            sm: BTreeSet::new(),
            reg_names: Vec::new(),
            register_events: false,
            known_sets: isa.known_sets(),
            choice_guards: Vec::new(),
            amo_as_one: isa.amo_is_one_operation(),
            co_from_model: isa.co_from_model(),
            observed: BTreeSet::new(),
            joins: BTreeSet::new(),
            branch_conds: Vec::new(),
            cuts: Vec::new(),
            access_at: BTreeMap::new(),
            narrow_reads: Vec::new(),
            one_event: Vec::new(),
            unsequenced: BTreeSet::new(),
            layout: Layout::default(),
            widths: Vec::new(),
            cells: None,
            mixed_isa: isa.mixed_cells(),
            rejects_mixed: isa.rejects_mixed(),
            widths_seen: BTreeMap::new(),
            ifetch: false,
            unrunnable: Vec::new(),
            vmsa: None,
        }
    }
}

/// One initial write per location, of the value the initial state gives it (0 where it
/// gives none): the first write of each location in co.
fn initial_writes(ev: &mut Events, test: &Test, src: &SourceRef<'_>, one: ValId) -> Result<(), Diag> {
    for l in 0..ev.locs.len() {
        let (name, part) = ev.cell_part(l);
        let mut v = ev.default_value(l);
        for it in &test.init {
            if matches!(&it.loc, Loc::Mem(x) if *x == name) {
                v = ev.value_of(&it.value).ok_or_else(|| src.err(it.pos, "unknown location in initial value"))?;
            }
        }
        let val = match part {
            None => ev.constant(v),
            Some((k, n, size)) => {
                let whole = ev.constant(v);
                ev.cell_of(whole, k, n, size)
            }
        };
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
            reg: None,
        });
        let e = ev.events.len() - 1;
        ev.mark_entry(e);
    }
    if ev.cells.is_some() {
        ev.init_groups();
    } else if ev.rejects_mixed {
        // herd's initial write is as wide as the declared type (not known here for a
        // pointer, `int *p = &x`, whose type the parser reads as `int`: left out).
        for it in test.init.iter().filter(|it| matches!(it.value, Val::Int(_))) {
            if let (Loc::Mem(x), Some(size)) = (&it.loc, it.ty.as_deref().and_then(crate::litmus::type_size))
                && let Some(l) = ev.loc_index(x)
            {
                ev.widths_seen.insert(l, size);
            }
        }
    }
    Ok(())
}
