//! Symbolic candidate executions: rf, co and values as literals over the event structure.

use super::one_event::View;
use crate::cat::{Builtins, Name, V};
use crate::events::{Eid, Events, Kind, VExpr, ValId, Value};
use crate::logic::{B, Logic};
use crate::rel::{Rel, Set};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::OnceLock;
use varisat::Lit;

mod vmsa;

/// Bound on a value domain: values are finite, and a test whose registers can take more
/// values than this is rejected rather than encoded at great cost.
pub const MAX_DOMAIN: usize = 256;

pub struct Exec {
    pub n: usize,
    /// For each event, the locations it may access, each with the literal saying it does.
    pub locs: Vec<Vec<(usize, B)>>,
    /// Whether each event happens.
    pub exists: Vec<B>,
    pub rf: Rel,
    pub co: Rel,
    /// co's orientation variables (among the primaries).
    pub co_vars: Vec<Lit>,
    /// Co-last writes of the locations a state shows.
    pub fw: Set,
    /// Possible values of each value expression.
    pub domains: Vec<Vec<Value>>,
    /// One-hot literals: `val[v]` lists `(value, literal)`.
    pub val: Vec<Vec<(Value, B)>>,
    /// The choices that make an execution: herd counts distinct assignments to these.
    pub primaries: Vec<Lit>,
    /// Each read's source choices (primaries of which at most one holds).
    pub sources: Vec<Vec<Lit>>,
    /// The accesses that may fail their execution, each with the literal saying it does,
    /// and why. herd delays such a failure until the model has judged the execution:
    /// silently dropped where the model rejects it, the whole test stops where the model
    /// allows it. `query` refuses the test in the second case.
    pub failures: Vec<(Eid, B, Failure)>,
}

/// Why an access fails its execution (see [`Exec::failures`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Made at a number, not an address: herd keeps it out of rf and co ("Non symbolic
    /// address").
    NonAddress,
    /// A load this many bytes wide read an address, which herd cannot mask to that width
    /// ("Illegal operation mask32 on x").
    Narrowed(usize),
    /// A fetched instruction decoded as one herd cannot run there: the `k`-th of
    /// [`Events::unrunnable`] (its decode commit happens).
    Unrunnable(usize),
}

/// The locations an access may touch, under the current domains (in increasing order for
/// a computed address).
fn may_locs<'a>(ev: &Events, dom: &'a [Vec<Value>], e: Eid) -> impl Iterator<Item = usize> + 'a {
    let ev_e = &ev.events[e];
    let computed: &[Value] = match (ev_e.loc, ev_e.addr) {
        (None, Some(a)) => &dom[a],
        _ => &[],
    };
    ev_e.loc.into_iter().chain(computed.iter().filter_map(|v| if let Value::Addr(l) = v { Some(*l) } else { None }))
}

/// Whether accesses `a` and `b` may touch one location, under the current domains.
fn may_share(ev: &Events, dom: &[Vec<Value>], a: Eid, b: Eid) -> bool {
    may_locs(ev, dom, a).any(|l| may_locs(ev, dom, b).any(|m| m == l))
}

/// Whether access `e` may be made at a number rather than an address, under the current
/// domains (see [`Exec::failures`]).
fn may_miss(ev: &Events, dom: &[Vec<Value>], e: Eid) -> bool {
    let ev_e = &ev.events[e];
    match (ev_e.loc, ev_e.addr) {
        (None, Some(a)) => dom[a].iter().any(|v| matches!(v, Value::Int(_))),
        _ => false,
    }
}

/// May-values of every expression, by iteration over rf candidates; each domain sorted.
///
/// Round k finds the values that flow along rf chains of length k. A chain that visits a
/// read twice is a thin-air cycle, which herd's value solver never solves to a constant,
/// so `#reads + 1` rounds reach every value an execution can have, even where a cycle
/// (`amoadd` in both directions) would let a plain fixpoint grow without bound. A read on
/// a cycle of plain copies may instead hold herd's unsolved value ([`Value::Sym`]); it
/// flows on along copies like any other value.
fn domains(ev: &Events) -> Result<Vec<Vec<Value>>, String> {
    let mut dom: Vec<Vec<Value>> = vec![Vec::new(); ev.vals.len()];
    grow(ev, &mut dom)?;
    let cyclic = copy_cycles(ev, &dom);
    if !cyclic.is_empty() {
        for r in cyclic {
            let d = &mut dom[ev.events[r].val];
            if let Err(at) = d.binary_search(&Value::Sym) {
                d.insert(at, Value::Sym);
            }
        }
        grow(ev, &mut dom)?;
    }
    mixed_size(ev, &dom)?;
    Ok(dom)
}

/// An access at a computed address that may be herd's `x+k` where no location lies is a
/// mixed-size access, which herd refuses without `-variant mixed`: refused too, rather
/// than the executions where it happens dropped.
fn mixed_size(ev: &Events, dom: &[Vec<Value>]) -> Result<(), String> {
    for e in &ev.events {
        if let (None, Some(a)) = (e.loc, e.addr)
            && let Some(&Value::Off(b, k)) = dom[a].iter().find(|v| matches!(v, Value::Off(..)))
        {
            return Err(ev.offset_message(b, k));
        }
    }
    for &(a, width) in &ev.widths {
        for v in &dom[a] {
            if let &Value::Addr(l) = v
                && let Some(size) = ev.layout.elem_size(l)
                && width != Some(size as usize)
            {
                let wide = width.map_or("of unknown width".to_string(), |w| format!("{w} bytes wide"));
                return Err(format!(
                    "unsupported: mixed-size access: an access {wide} at a computed address that may be '{}', an element of {size} bytes{}",
                    ev.locs[l],
                    ev.mixed_hint()
                ));
            }
        }
    }
    Ok(())
}

/// Iterates [`domains`]' rounds from `dom` (sorted sets) until nothing changes.
///
/// The sets are sorted vectors, and the round's snapshot and the set being built reuse
/// their buffers from round to round: domains are small, and a tree per set cost an
/// allocation per node and per round.
fn grow(ev: &Events, dom: &mut [Vec<Value>]) -> Result<(), String> {
    let reads = ev.events.iter().filter(|e| e.kind == Kind::Read).count();
    let mut before: Vec<Vec<Value>> = vec![Vec::new(); dom.len()];
    let mut new: Vec<Value> = Vec::new();
    let fixed = fixed_sources(ev);
    // One more than the round each domain last changed in (0: never). An expression none
    // of whose inputs changed in this round or the one before gets what it got then, and
    // is not computed again.
    let mut stamp: Vec<usize> = vec![0; dom.len()];
    for round in 0..reads + 2 {
        let mut changed = false;
        // A read takes the values writes had in the round before, so that round k holds
        // exactly the chains of k rf steps (an expression's operands, interned before it,
        // are taken from this round).
        match &fixed {
            // Only the writes' values are read from the round before.
            Some(f) => {
                for &w in &f.written {
                    before[w].clone_from(&dom[w]);
                }
            }
            None => before.clone_from_slice(dom),
        }
        for v in 0..ev.vals.len() {
            new.clear();
            let recent = |x: ValId| stamp[x] >= round;
            let stale = round == 0
                || match (&ev.vals[v], &fixed) {
                    (VExpr::Read(_), Some(f)) => f.sources[v].iter().any(|&w| recent(w)),
                    (VExpr::Read(_), None) => true,
                    (VExpr::Ite(_, a, b) | VExpr::Bin(_, a, b), _) => recent(*a) || recent(*b),
                    (VExpr::Const(_) | VExpr::Choice(_), _) => false,
                };
            if !stale {
                continue;
            }
            match &ev.vals[v] {
                // Fixed from the first round on.
                VExpr::Const(_) | VExpr::Choice(_) if !dom[v].is_empty() => continue,
                VExpr::Const(c) => new.push(*c),
                VExpr::Read(e) => match &fixed {
                    Some(f) => {
                        for &w in &f.sources[v] {
                            new.extend_from_slice(&before[w]);
                        }
                    }
                    None => {
                        for w in writes_to(ev, dom, *e) {
                            new.extend_from_slice(&before[w]);
                        }
                        // Read at a number, it reads no write: its value is herd's
                        // unsolved variable, and its execution fails or is dropped
                        // whatever it is, so that any one value stands for it.
                        if may_miss(ev, dom, *e) {
                            new.push(Value::Int(0));
                        }
                    }
                },
                VExpr::Ite(_, a, b) => {
                    new.extend_from_slice(&dom[*a]);
                    new.extend_from_slice(&dom[*b]);
                }
                VExpr::Choice(_) => new.extend([Value::Int(0), Value::Int(1)]),
                VExpr::Bin(op, a, b) => {
                    for &x in &dom[*a] {
                        for &y in &dom[*b] {
                            match ev.layout.apply(*op, x, y, &ev.locs) {
                                Some(z) => new.push(z),
                                // No value: the execution is dropped.
                                None if x == Value::Sym || y == Value::Sym => {}
                                None => return Err(ev.arith_message(*op, x, y)),
                            }
                        }
                    }
                }
            }
            // Seeds stay: a read on a copy cycle may be unsolved.
            if matches!(ev.vals[v], VExpr::Read(_)) && dom[v].contains(&Value::Sym) {
                new.push(Value::Sym);
            }
            new.sort_unstable();
            new.dedup();
            if new.len() > MAX_DOMAIN {
                return Err(format!("limit: a register may take more than {MAX_DOMAIN} values"));
            }
            if new != dom[v] {
                dom[v].clone_from(&new);
                stamp[v] = round + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Ok(())
}

/// Where no address is computed, the writes each read may read from are fixed.
struct FixedSources {
    /// For each value expression that is a read, the values of those writes (in event
    /// order).
    sources: Vec<Vec<ValId>>,
    /// Every value some read may read, once.
    written: Vec<ValId>,
}

/// The [`FixedSources`] of the events; `None` where some address is computed, and the
/// writes depend on the domains.
fn fixed_sources(ev: &Events) -> Option<FixedSources> {
    if ev.events.iter().any(|e| e.loc.is_none() && e.addr.is_some()) {
        return None;
    }
    let sources: Vec<Vec<ValId>> = ev
        .vals
        .iter()
        .map(|x| if let VExpr::Read(r) = x { fixed_writes_to(ev, *r).collect() } else { Vec::new() })
        .collect();
    let mut written: Vec<ValId> = sources.iter().flatten().copied().collect();
    written.sort_unstable();
    written.dedup();
    Some(FixedSources { sources, written })
}

/// [`writes_to`] where no address is computed: the writes to the read's location.
fn fixed_writes_to(ev: &Events, r: Eid) -> impl Iterator<Item = ValId> + '_ {
    let at = ev.events[r].loc;
    let ws = ev.events.iter().filter(move |we| we.is_write() && at.is_some() && we.loc == at);
    ws.map(|we| we.val)
}

/// The values of the writes read `r` may read from, given the value domains `dom` (which
/// matter only where an address is computed).
fn writes_to<'a>(ev: &'a Events, dom: &'a [Vec<Value>], r: Eid) -> impl Iterator<Item = ValId> + 'a {
    let ws = ev.events.iter().enumerate().filter(move |&(w, we)| we.is_write() && may_share(ev, dom, w, r));
    ws.map(|(_, we)| we.val)
}

/// The reads whose value an expression copies: itself a read, or a side of a select.
fn copied_reads(ev: &Events, v: ValId, out: &mut BTreeSet<Eid>) {
    match &ev.vals[v] {
        VExpr::Read(e) => {
            out.insert(*e);
        }
        VExpr::Ite(_, a, b) => {
            copied_reads(ev, *a, out);
            copied_reads(ev, *b, out);
        }
        VExpr::Const(_) | VExpr::Bin(..) | VExpr::Choice(_) => {}
    }
}

/// The reads that may lie on an rf cycle of plain copies (a read whose value a write
/// stores unchanged, read by another such read, and so back): where herd's equations only
/// say that values are equal, and no constant decides them.
fn copy_cycles(ev: &Events, dom: &[Vec<Value>]) -> Vec<Eid> {
    let reads: Vec<Eid> = (0..ev.len()).filter(|&e| ev.events[e].kind == Kind::Read).collect();
    let idx = |e: Eid| reads.iter().position(|&r| r == e);
    let k = reads.len();
    let mut reach = vec![vec![false; k]; k];
    for (j, &r) in reads.iter().enumerate() {
        for (w, we) in ev.events.iter().enumerate() {
            if !we.is_write() || !may_share(ev, dom, w, r) {
                continue;
            }
            let mut from = BTreeSet::new();
            copied_reads(ev, we.val, &mut from);
            for i in from.into_iter().filter_map(idx) {
                reach[i][j] = true;
            }
        }
    }
    for m in 0..k {
        let via = reach[m].clone();
        for row in reach.iter_mut().filter(|row| row[m]) {
            for (to, &yes) in row.iter_mut().zip(&via) {
                *to |= yes;
            }
        }
    }
    (0..k).filter(|&i| reach[i][i]).map(|i| reads[i]).collect()
}

/// The literal saying value `v` is `x`, among the one-hot literals `val` (false where `x`
/// is not among its possible values).
fn lit_of(val: &[Vec<(Value, B)>], v: ValId, x: Value) -> B {
    val[v].iter().find(|(y, _)| *y == x).map(|(_, b)| *b).unwrap_or(B::F)
}

impl Exec {
    /// The literal saying value `v` is `x` in the execution.
    pub fn lit_of(&self, v: ValId, x: Value) -> B {
        lit_of(&self.val, v, x)
    }

    /// The value of `v` under a model.
    pub fn value_in(&self, v: ValId, model: &[bool]) -> Option<Value> {
        crate::logic::holding(&self.val[v], model)
    }

    /// Literals for "the final value of location `l` is x", for every possible x.
    pub fn final_mem(&self, ev: &Events, l: usize, lg: &mut Logic) -> Vec<(Value, B)> {
        let mut by_val: BTreeMap<Value, Vec<B>> = BTreeMap::new();
        for (w, e) in ev.events.iter().enumerate() {
            let Some(at) = self.locs[w].iter().find(|p| p.0 == l).map(|p| p.1) else { continue };
            if e.kind == Kind::Write {
                for &(x, b) in &self.val[e.val] {
                    let g = lg.and(&[self.fw.0[w], at, b]);
                    by_val.entry(x).or_default().push(g);
                }
            }
        }
        disjoin(by_val, lg)
    }
}

/// Encodes the candidate executions of an event structure: values, locations, rf, co and
/// the final writes as literals, with the constraints every candidate meets.
pub fn encode(ev: &Events, lg: &mut Logic) -> Result<Exec, String> {
    let n = ev.len();
    let domains = domains(ev)?;
    let mut primaries = Vec::new();
    let val = value_literals(ev, &domains, &mut primaries, lg);
    let exists: Vec<B> = ev.events.iter().map(|e| lit_of(&val, e.guard, Value::Int(1))).collect();
    let (locs, mut failures) = access_locations(ev, &val, &exists, lg);
    failures.extend(narrowed(ev, &val, &exists, lg));
    failures.extend(ev.unrunnable.iter().enumerate().map(|(k, &(e, _))| (e, exists[e], Failure::Unrunnable(k))));
    let (rf, co, fw) = (Rel::empty(n), Rel::empty(n), Set::empty(n));
    let sources = Vec::new();
    let mut x = Exec { n, locs, exists, rf, co, co_vars: Vec::new(), fw, domains, val, primaries, sources, failures };
    let mut same_loc = SameLoc::new(&x.locs);
    x.reads_from(ev, &mut same_loc, lg);
    x.coherence(ev, &mut same_loc, lg);
    x.branch_choices(ev, lg);
    observed_co(ev, &x.exists, &x.locs, &mut same_loc, &x.rf, &x.co, lg);
    solved(ev, &x.val, &x.exists, lg);
    no_thin_air(ev, &x.rf, &x.val, lg);
    x.fw = final_writes(ev, &x, lg);
    super::sca::restrict(ev, &x, lg);
    Ok(x)
}

/// One-hot literals for every value expression, in order (an expression's operands come
/// before it): reads get one-hot variables over their domains, choices a primary each,
/// and the other expressions are gates over their operands' literals.
fn value_literals(
    ev: &Events,
    domains: &[Vec<Value>],
    primaries: &mut Vec<Lit>,
    lg: &mut Logic,
) -> Vec<Vec<(Value, B)>> {
    let mut val: Vec<Vec<(Value, B)>> = Vec::with_capacity(ev.vals.len());
    for (v, e) in ev.vals.iter().enumerate() {
        let lits = match e {
            VExpr::Const(c) => vec![(*c, B::T)],
            VExpr::Read(_) => {
                let ls: Vec<(Value, B)> = domains[v]
                    .iter()
                    .map(|&x| (x, if domains[v].len() == 1 { B::T } else { B::L(lg.fresh()) }))
                    .collect();
                let bs: Vec<B> = ls.iter().map(|p| p.1).collect();
                lg.exactly_one(&bs);
                ls
            }
            VExpr::Choice(k) => {
                let c = lg.fresh();
                primaries.push(c);
                let reached = lit_of(&val, ev.choice_guards[*k], Value::Int(1));
                lg.implies(B::L(c), reached);
                vec![(Value::Int(0), B::L(!c)), (Value::Int(1), B::L(c))]
            }
            VExpr::Ite(c, a, b) => ite_literals(&val, *c, *a, *b, lg),
            VExpr::Bin(op, a, b) => {
                let mut acc: BTreeMap<Value, Vec<B>> = BTreeMap::new();
                for &(x, bx) in &val[*a] {
                    for &(y, by) in &val[*b] {
                        if let Some(z) = ev.layout.apply(*op, x, y, &ev.locs) {
                            let g = lg.and2(bx, by);
                            acc.entry(z).or_default().push(g);
                        }
                    }
                }
                disjoin(acc, lg)
            }
        };
        val.push(lits);
    }
    val
}

/// The literals of `c ? a : b`: each value of a side, where the condition selects it.
fn ite_literals(val: &[Vec<(Value, B)>], c: ValId, a: ValId, b: ValId, lg: &mut Logic) -> Vec<(Value, B)> {
    let c1 = lit_of(val, c, Value::Int(1));
    // An unsolved condition selects neither side: the value is undefined.
    let c0 = lg.and2(c1.negate(), lit_of(val, c, Value::Sym).negate());
    let mut acc: BTreeMap<Value, Vec<B>> = BTreeMap::new();
    for &(x, bx) in &val[a] {
        let g = lg.and2(c1, bx);
        acc.entry(x).or_default().push(g);
    }
    for &(x, bx) in &val[b] {
        let g = lg.and2(c0, bx);
        acc.entry(x).or_default().push(g);
    }
    disjoin(acc, lg)
}

/// One literal per value: the disjunction of the ways it is reached.
/// A mixed-size place's final values from its cells' (`parts`, least significant first,
/// cells of `size` bytes): each combination of the cells' values, put together.
pub fn assemble(parts: &[Vec<(Value, B)>], size: i64, lg: &mut Logic) -> Vec<(Value, B)> {
    let mut acc: Vec<(Value, B)> = vec![(Value::Int(0), B::T)];
    for (k, part) in parts.iter().enumerate() {
        let mut next: BTreeMap<Value, Vec<B>> = BTreeMap::new();
        for &(x, bx) in &acc {
            for &(y, by) in part {
                let v = match (x, y) {
                    (Value::Int(a), Value::Int(c)) => Value::Int(a | c.wrapping_shl((8 * size * k as i64) as u32)),
                    // A symbol in a cell: herd's value is the symbol where it is alone.
                    (Value::Int(0), y) if k == 0 => y,
                    (x, Value::Int(0)) => x,
                    _ => continue,
                };
                let b = lg.and2(bx, by);
                next.entry(v).or_default().push(b);
            }
        }
        acc = disjoin(next, lg);
    }
    acc
}

fn disjoin(by_val: BTreeMap<Value, Vec<B>>, lg: &mut Logic) -> Vec<(Value, B)> {
    by_val.into_iter().map(|(x, bs)| (x, lg.or(&bs))).collect()
}

/// Locations: fixed for most accesses; for a computed address, one literal per location
/// its value may name, and an access that happens must name one, or be made at a number
/// (the second list: see [`Exec::failures`]).
type AccessLocations = (Vec<Vec<(usize, B)>>, Vec<(Eid, B, Failure)>);

fn access_locations(ev: &Events, val: &[Vec<(Value, B)>], exists: &[B], lg: &mut Logic) -> AccessLocations {
    let mut non_address = Vec::new();
    let locs = ev
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| match (e.loc, e.addr) {
            (Some(l), _) => vec![(l, B::T)],
            (None, Some(a)) => {
                let ls: Vec<(usize, B)> = val[a]
                    .iter()
                    .filter_map(|&(v, b)| if let Value::Addr(l) = v { Some((l, b)) } else { None })
                    .collect();
                let numbers: Vec<B> =
                    val[a].iter().filter(|(v, _)| matches!(v, Value::Int(_))).map(|p| p.1).collect();
                let mut some: Vec<B> = ls.iter().map(|p| p.1).collect();
                some.extend(&numbers);
                some.push(exists[i].negate());
                lg.clause(&some);
                // herd's cache maintenance by address is no memory access: at a number, it
                // is an event there, not a failure.
                let cmo = e.kind == Kind::Fence && e.tags.iter().any(|t| t.starts_with("DC.") || t.starts_with("IC."));
                if !numbers.is_empty() && !cmo {
                    let number = lg.or(&numbers);
                    non_address.push((i, lg.and2(exists[i], number), Failure::NonAddress));
                }
                ls
            }
            _ => vec![],
        })
        .collect();
    (locs, non_address)
}

/// The narrow loads that may read an address (see [`Failure::Narrowed`]): at a word,
/// herd keeps an instruction or a label, which fits.
fn narrowed<'a>(
    ev: &'a Events,
    val: &'a [Vec<(Value, B)>],
    exists: &'a [B],
    lg: &'a mut Logic,
) -> impl Iterator<Item = (Eid, B, Failure)> + 'a {
    ev.narrow_reads.iter().filter_map(move |&(e, width)| {
        let fits = |l: usize| width >= 4 && ev.layout.is_code(l);
        let addrs: Vec<B> =
            val[ev.events[e].val].iter().filter(|(v, _)| matches!(v, Value::Addr(l) if !fits(*l))).map(|p| p.1).collect();
        if addrs.is_empty() || exists[e].is_false() {
            return None;
        }
        let some = lg.or(&addrs);
        Some((e, lg.and2(exists[e], some), Failure::Narrowed(width)))
    })
}

impl Exec {
    /// rf: each read that happens reads from exactly one same-location write that
    /// happens, with an agreeing value. A read with more than one candidate gets a
    /// primary per candidate.
    fn reads_from(&mut self, ev: &Events, same_loc: &mut SameLoc, lg: &mut Logic) {
        // rf's entries come by read, and are sorted by pair once made.
        let mut rf = Vec::new();
        for (r, e) in ev.events.iter().enumerate() {
            if !e.is_read() || self.exists[r].is_false() {
                continue;
            }
            let choice = self.candidate_writes(ev, r, same_loc, lg);
            // A read made at a number reads from no write.
            let missed = self.failures.iter().find(|p| p.0 == r && p.2 == Failure::NonAddress).map_or(B::F, |p| p.1);
            let certain = choice.len() == 1
                && self.exists[choice[0]] == B::T
                && self.exists[r] == B::T
                && missed == B::F;
            let lits: Vec<B> = if certain {
                vec![B::T]
            } else {
                choice
                    .iter()
                    .map(|_| {
                        let l = lg.fresh();
                        self.primaries.push(l);
                        B::L(l)
                    })
                    .collect()
            };
            self.sources.push(lits.iter().filter_map(|b| if let B::L(l) = b { Some(*l) } else { None }).collect());
            let mut some = lits.clone();
            some.push(self.exists[r].negate());
            some.push(missed);
            lg.clause(&some);
            lg.at_most_one(&lits);
            for (&w, &b) in choice.iter().zip(&lits) {
                lg.implies(b, self.exists[r]);
                lg.implies(b, self.exists[w]);
                let sl = same_loc.get(&self.locs, w, r, lg);
                lg.implies(b, sl);
                rf.push(((w, r), b));
                for &(x, bx) in &self.val[ev.events[w].val] {
                    let br = self.lit_of(e.val, x);
                    lg.clause(&[b.negate(), bx.negate(), br]);
                }
            }
        }
        rf.sort_unstable_by_key(|e| e.0);
        self.rf = Rel::from_sorted(self.n, rf);
    }

    /// The writes read `r` may read from: writes that may happen at its location, outside
    /// its own instruction, with a value it may take.
    fn candidate_writes(&self, ev: &Events, r: Eid, same_loc: &mut SameLoc, lg: &mut Logic) -> Vec<Eid> {
        let e = &ev.events[r];
        let mut choice = Vec::new();
        for (w, we) in ev.events.iter().enumerate() {
            let sl = same_loc.get(&self.locs, w, r, lg);
            if !we.is_write() || sl.is_false() || self.exists[w].is_false() {
                continue;
            }
            // Within one instruction the read comes first (herd's iico order): an RMW does
            // not read its own write.
            if we.thread == e.thread && we.thread.is_some() && we.instr / 2 == e.instr / 2 {
                continue;
            }
            let possible = self.val[we.val].iter().any(|&(x, _)| !self.lit_of(e.val, x).is_false());
            if possible {
                choice.push(w);
            }
        }
        choice
    }

    /// co: per location a strict total order on the writes that happen, with the initial
    /// write first. An orientation variable is false unless both writes happen at one
    /// location, so it stays a function of the execution.
    fn coherence(&mut self, ev: &Events, same_loc: &mut SameLoc, lg: &mut Logic) {
        let writes: Vec<Eid> = (0..self.n).filter(|&i| ev.events[i].in_co() && !self.exists[i].is_false()).collect();
        // co's entries, sorted by pair once made.
        let mut co = Vec::with_capacity(writes.len() * writes.len());
        for (a, &i) in writes.iter().enumerate() {
            for &j in &writes[a + 1..] {
                let sl = same_loc.get(&self.locs, i, j, lg);
                if sl.is_false() {
                    continue;
                }
                let (ei, ej) = (self.exists[i], self.exists[j]);
                if ev.is_init(i) {
                    let b = lg.and(&[ej, sl]);
                    co.push(((i, j), b));
                } else {
                    let o = lg.fresh();
                    self.primaries.push(o);
                    self.co_vars.push(o);
                    let o = B::L(o);
                    lg.implies(o, ei);
                    lg.implies(o, ej);
                    lg.implies(o, sl);
                    co.push(((i, j), o));
                    let back = lg.and(&[o.negate(), ei, ej, sl]);
                    co.push(((j, i), back));
                }
            }
        }
        co.sort_unstable_by_key(|e| e.0);
        self.co = Rel::from_sorted(self.n, co);
        let nonit: Vec<Eid> = writes.iter().copied().filter(|&w| !ev.is_init(w)).collect();
        transitive(&self.co, &nonit, lg);
    }

    /// The way each reached branch goes: a function of rf where values are, but a value
    /// cycle through a branch condition alone (`if (READ_ONCE(*x) == 0) r = 0;` feeding x)
    /// can go both ways, and herd counts each path.
    fn branch_choices(&mut self, ev: &Events, lg: &mut Logic) {
        for &(b, c) in &ev.branch_conds {
            let taken = self.lit_of(c, Value::Int(1));
            if let B::L(l) = lg.and2(self.exists[b], taken) {
                self.primaries.push(l);
            }
        }
    }
}

/// Makes `r` transitive over the events `among`: `a r b ∧ b r c ⇒ a r c`.
fn transitive(r: &Rel, among: &[Eid], lg: &mut Logic) {
    for &a in among {
        for &b in among {
            for &c in among {
                if a != b && b != c && a != c {
                    let (x, y, z) = (r.get(a, b), r.get(b, c), r.get(a, c));
                    if !x.is_false() && !y.is_false() {
                        lg.clause(&[x.negate(), y.negate(), z]);
                    }
                }
            }
        }
    }
}

/// Final writes: the co-last write of each location a state shows. herd chooses final
/// writes only there; elsewhere FW holds no write and co alone decides.
fn final_writes(ev: &Events, x: &Exec, lg: &mut Logic) -> Set {
    let n = x.n;
    let mut fw = Set::empty(n);
    for (w, e) in ev.events.iter().enumerate() {
        let shown = x.locs[w].iter().any(|(l, _)| ev.observed.contains(l));
        if e.in_co() && shown {
            let later: Vec<B> = (0..n).filter(|&k| k != w).map(|k| x.co.get(w, k)).filter(|b| !b.is_false()).collect();
            let none_later = lg.or(&later).negate();
            fw.0[w] = lg.and2(x.exists[w], none_later);
        }
    }
    fw
}

/// The reads whose values an expression is computed from. A path join's condition is not
/// among them: herd takes one path or the other, and each path's value is its own.
fn reads_in(ev: &Events, v: ValId, out: &mut BTreeSet<Eid>) {
    match &ev.vals[v] {
        VExpr::Read(e) => {
            out.insert(*e);
        }
        VExpr::Bin(_, a, b) => {
            reads_in(ev, *a, out);
            reads_in(ev, *b, out);
        }
        VExpr::Ite(c, a, b) => {
            if !ev.joins.contains(&v) {
                reads_in(ev, *c, out);
            }
            reads_in(ev, *a, out);
            reads_in(ev, *b, out);
        }
        VExpr::Const(_) | VExpr::Choice(_) => {}
    }
}

/// herd computes values by solving the equations rf sets up; where a write's value (or
/// address) depends, through rf, on itself, the equations have no solution it can find
/// and the candidate is dropped. So an execution's value flow — rf, and each write's
/// dependence on the reads its value and address are computed from — must be acyclic;
/// otherwise the solver would be free to pick values out of thin air.
fn no_thin_air(ev: &Events, rf: &Rel, val: &[Vec<(Value, B)>], lg: &mut Logic) {
    // An unsolved value may go round: herd keeps that execution (see `solved`).
    let mut flow = Rel::empty(rf.n);
    for ((w, r), b) in rf.iter() {
        let sym = lit_of(val, ev.events[r].val, Value::Sym);
        let b = lg.and2(b, sym.negate());
        flow.set(w, r, b);
    }
    for (w, e) in ev.events.iter().enumerate() {
        if e.kind != Kind::Write {
            continue;
        }
        let mut from = BTreeSet::new();
        reads_in(ev, e.val, &mut from);
        if let Some(a) = e.addr {
            reads_in(ev, a, &mut from);
        }
        for r in from {
            flow.set(r, w, B::T);
        }
    }
    let ok = crate::encode::acyclic::selector(lg, &flow);
    lg.assert(ok);
}

/// herd keeps an execution whose equations leave values unsolved only when nothing but
/// equalities between them remains: any arithmetic on an unsolved value, a branch on
/// one, or an address computed from one leaves an equation, and the candidate is
/// dropped. So every value an event that happens uses must be defined (a branch's
/// condition, moreover, solved), and so must every register's final value.
fn solved(ev: &Events, val: &[Vec<(Value, B)>], exists: &[B], lg: &mut Logic) {
    if !val.iter().flatten().any(|(x, _)| *x == Value::Sym) {
        return;
    }
    let defined = |v: ValId, sym_ok: bool| -> Vec<B> {
        val[v].iter().filter(|(x, _)| sym_ok || *x != Value::Sym).map(|p| p.1).collect()
    };
    for (i, e) in ev.events.iter().enumerate() {
        if e.is_write() && !exists[i].is_false() {
            let mut c = defined(e.val, true);
            c.push(exists[i].negate());
            lg.clause(&c);
        }
    }
    for &(b, c) in &ev.branch_conds {
        let mut cl = defined(c, false);
        cl.push(exists[b].negate());
        lg.clause(&cl);
    }
    for &v in ev.final_regs.values() {
        let c = defined(v, true);
        lg.clause(&c);
    }
}

/// "Events i and j access one location", built once per pair: a constant unless an
/// address is computed.
pub struct SameLoc {
    /// Each event's location where no address is computed.
    fixed: Vec<Place>,
    cache: BTreeMap<(Eid, Eid), B>,
}

/// Where an event's accesses go, as far as the event structure fixes it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    At(usize),
    /// No location (a fence, a branch).
    Nowhere,
    /// A computed address: one of several locations, each under a literal.
    Computed,
}

impl SameLoc {
    /// For the events whose may-locations are `locs`.
    pub fn new(locs: &[Vec<(usize, B)>]) -> SameLoc {
        let place = |l: &[(usize, B)]| match *l {
            [] => Place::Nowhere,
            [(l, B::T)] => Place::At(l),
            _ => Place::Computed,
        };
        SameLoc { fixed: locs.iter().map(|l| place(l)).collect(), cache: BTreeMap::new() }
    }

    #[inline]
    pub fn get(&mut self, locs: &[Vec<(usize, B)>], i: Eid, j: Eid, lg: &mut Logic) -> B {
        // Fixed locations, the common case, need no literal and no cache.
        match (self.fixed[i], self.fixed[j]) {
            (Place::At(l), Place::At(m)) => B::from_bool(l == m),
            (Place::Nowhere, _) | (_, Place::Nowhere) => B::F,
            _ => self.computed(locs, i, j, lg),
        }
    }

    /// The events `evs` that have a location, as (location, event) sorted, or `None` if
    /// some event's address is computed: where no literal decides, the pairs at one
    /// location are found without a test per pair.
    fn by_location(&self, evs: &[Eid]) -> Option<Vec<(usize, Eid)>> {
        let mut out = Vec::with_capacity(evs.len());
        for &e in evs {
            match self.fixed[e] {
                Place::At(l) => out.push((l, e)),
                Place::Nowhere => {}
                Place::Computed => return None,
            }
        }
        out.sort_unstable();
        Some(out)
    }

    /// [`SameLoc::get`] where an address is computed: a literal, built once per pair.
    fn computed(&mut self, locs: &[Vec<(usize, B)>], i: Eid, j: Eid, lg: &mut Logic) -> B {
        let key = (i.min(j), i.max(j));
        if let Some(&b) = self.cache.get(&key) {
            return b;
        }
        let mut any = Vec::new();
        for &(l, a) in &locs[i] {
            for &(m, b) in &locs[j] {
                if l == m {
                    any.push(lg.and2(a, b));
                }
            }
        }
        let b = lg.or(&any);
        self.cache.insert(key, b);
        b
    }
}

/// herd generates only co orders that extend what the test itself observes (its `pco`,
/// on by default through `-optace`): for same-location accesses a, b of one thread with a
/// before b, in program order or inside one instruction (an RMW's read iico-before its
/// write),
///   W a, W b: a co b;  R a, W b: rf(w,a) ⇒ w co b;  W a, R b: rf(w,b), w ≠ a ⇒ a co w;
///   R a, R b: rf(w,a), rf(w',b), w ≠ w' ⇒ w co w'.
/// Coherence implies all of these but the intra-instruction case, which makes an RMW's
/// write follow the write its read saw even in models that do not say so (herd's SC).
fn observed_co(
    ev: &Events,
    exists: &[B],
    locs: &[Vec<(usize, B)>],
    same_loc: &mut SameLoc,
    rf: &Rel,
    co: &Rel,
    lg: &mut Logic,
) {
    let e = &ev.events;
    // Each read's possible sources, with their literals, in the order of the writes.
    let mut by_read: Vec<Vec<(Eid, B)>> = vec![Vec::new(); e.len()];
    for ((w, r), b) in rf.iter() {
        by_read[r].push((w, b));
    }
    let sources = |r: Eid| by_read[r].iter().copied();
    for a in 0..e.len() {
        for b in 0..e.len() {
            let (ea, eb) = (&e[a], &e[b]);
            // herd's observed co is over explicit accesses: not an instruction fetch.
            let mem = |e: &crate::events::Event| (e.is_read() || e.is_write()) && !(ev.ifetch && e.tags.iter().any(|t| t == "NExp"));
            if a == b || ea.thread.is_none() || ea.thread != eb.thread || !mem(ea) || !mem(eb) {
                continue;
            }
            // herd observes explicit accesses only (a walk's implicit read is none).
            if ev.vmsa.is_some() && [ea, eb].iter().any(|x| x.tags.iter().any(|t| t == "NExp")) {
                continue;
            }
            let sl = same_loc.get(locs, a, b, lg);
            if sl.is_false() {
                continue;
            }
            if !(ev.po_before(a, b) || (ea.instr == eb.instr && ev.iico.contains(&(a, b)))) {
                continue;
            }
            let both = lg.and(&[exists[a], exists[b], sl]);
            match (ea.kind, eb.kind) {
                (Kind::Write, Kind::Write) => lg.implies(both, co.get(a, b)),
                (Kind::Read, Kind::Write) => {
                    // No `w ≠ b` here (cos-ok-opt.cat's `rw` has no `\ id`): a read that
                    // reads from a po-later write of its own location gives the pair
                    // (b, b), which no co contains, so herd generates no such candidate.
                    for (w, x) in sources(a) {
                        lg.clause(&[x.negate(), both.negate(), co.get(w, b)]);
                    }
                }
                (Kind::Write, Kind::Read) => {
                    for (w, x) in sources(b) {
                        if w != a {
                            lg.clause(&[x.negate(), both.negate(), co.get(a, w)]);
                        }
                    }
                }
                (Kind::Read, Kind::Read) => {
                    for (w, x) in sources(a) {
                        for (w2, y) in sources(b) {
                            if w != w2 {
                                lg.clause(&[x.negate(), y.negate(), sl.negate(), co.get(w, w2)]);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// The names a model can use without defining them.
pub fn builtins(ev: &Events, x: &Exec, lg: &mut Logic) -> Builtins {
    builtins_read(ev, x, lg, &|_| true)
}

/// [`builtins`], building only the relations whose names `reads` says a model reads.
pub fn builtins_read(ev: &Events, x: &Exec, lg: &mut Logic, reads: &dyn Fn(Name) -> bool) -> Builtins {
    // herd's one-event read-modify-writes: what follows is built over the encoder's
    // events, and each name is bound as the model sees it.
    let view = View::new(ev, &x.exists);
    let empty = Rc::new(Set::empty(ev.len()));
    let names = fixed_names();
    // `amo`, `lxsx` and `rmw` close RELATIONS.
    let for_rmw = names.relations[RELATIONS.len() - 3..].iter().any(|&r| reads(r));
    let mut b = Base { ev, x, view, env: Vec::with_capacity(80), empty, reads, for_rmw, rmw_sets: Default::default() };
    let universe = b.set(|_| true);
    let universe = b.view.set(universe, lg);
    b.env.push((names.universe, V::Set(Rc::new(universe.clone()))));
    b.event_sets(lg);
    b.tag_sets(lg);
    let (loc, ww_loc) = b.relations(lg);
    b.vmsa_relations(lg);
    let vals = ev.events.iter().map(|e| x.val[e.val].clone()).collect();
    Builtins { env: b.env, universe, co: x.co.clone(), loc, ww_loc, vals }
}

/// herd's sets of events by kind, in the order [`Base::event_sets`] binds them.
const EVENT_SETS: [&str; 10] = ["R", "W", "M", "F", "B", "BCC", "IW", "FW", "Exp", "NExp"];
/// Register events and the sets that mark them (their ports), speculation, and
/// predicated commits: filled where a model says `catdep` (see [`Kind::RegRead`]).
const MARKER_SETS: [&str; 7] = ["ADDR", "DATA", "Rreg", "Wreg", "SPEC", "SPURIOUS", "PRED"];
/// herd's base relations, in the order [`Base::relations`] binds them.
const RELATIONS: [&str; 29] = [
    "po-loc", "rfe", "rfi", "coe", "coi", "fre", "fri", "po", "loc", "int", "ext", "id", "sm", "si", "rf", "co", "fr",
    "addr", "data", "ctrl", "same-instance", "same-instr", "iico_data", "iico_ctrl", "iico_order", "co0", "amo", "lxsx",
    "rmw",
];
/// The tag sets `amo`, `lxsx` and `rmw` are built from, besides R, W and M (see `rmw`).
const RMW_TAGS: [&str; 2] = ["X", "EX"];

/// Every name [`builtins`] binds whatever the test (besides the ISA's and the events'
/// tags): what a model may read without binding it, for resolving names at load.
pub fn fixed_builtin_names() -> impl Iterator<Item = &'static str> {
    let locks = crate::events::LockRole::ALL.map(|r| r.set_name());
    ["_"].into_iter().chain(EVENT_SETS).chain(MARKER_SETS).chain(RELATIONS).chain(RMW_TAGS).chain(locks)
}

/// Where [`Base::rmw_sets`] keeps a tag's set: after R, W and M, X's and EX's.
fn rmw_tag(name: Name) -> Option<usize> {
    fixed_names().rmw_tags.iter().position(|&x| x == name).map(|k| k + 3)
}

/// The built-in names every test binds, interned once: interning a name afresh (a lock,
/// and a hash of its text) cost more than binding it.
struct FixedNames {
    universe: Name,
    event_sets: [Name; 10],
    markers: [Name; 7],
    locks: [Name; 6],
    relations: [Name; 29],
    rmw_tags: [Name; 2],
}

fn fixed_names() -> &'static FixedNames {
    static NAMES: OnceLock<FixedNames> = OnceLock::new();
    NAMES.get_or_init(|| FixedNames {
        universe: Name::new("_"),
        event_sets: EVENT_SETS.map(Name::new),
        markers: MARKER_SETS.map(Name::new),
        locks: crate::events::LockRole::ALL.map(|r| Name::new(r.set_name())),
        relations: RELATIONS.map(Name::new),
        rmw_tags: RMW_TAGS.map(Name::new),
    })
}

/// Each ISA's known set names (by the list's address and length), sorted, deduplicated
/// and interned once per thread: the order [`Base::tag_sets`] binds them in.
fn known_tags(known: &'static [&'static str]) -> KnownTags {
    thread_local! {
        static KNOWN: RefCell<Vec<((usize, usize), KnownTags)>> = const { RefCell::new(Vec::new()) };
    }
    let key = (known.as_ptr() as usize, known.len());
    if let Some(k) = KNOWN.with(|t| t.borrow().iter().find(|k| k.0 == key).map(|k| k.1.clone())) {
        return k;
    }
    let mut tags: Vec<&'static str> = known.to_vec();
    tags.sort_unstable();
    tags.dedup();
    let tags: KnownTags = tags.into_iter().map(|t| (t, Name::new(t))).collect();
    KNOWN.with(|t| t.borrow_mut().push((key, tags.clone())));
    tags
}

/// An ISA's known set names, sorted, with their interned names.
type KnownTags = Rc<[(&'static str, Name)]>;

/// The built-in names being bound: the events, their encoding, the view the model has of
/// them, and the environment so far.
struct Base<'a> {
    ev: &'a Events,
    x: &'a Exec,
    view: View,
    env: Vec<(Name, V)>,
    /// The empty set, bound under every name whose set is empty (most tag sets are).
    empty: Rc<Set>,
    /// Whether the model reads a name (a relation it never reads is bound empty).
    reads: &'a dyn Fn(Name) -> bool,
    /// Whether the model reads `amo`, `lxsx` or `rmw`, built from the sets below.
    for_rmw: bool,
    /// R, W, M, X and EX, in this order, as the model sees them, kept for `amo`, `lxsx`
    /// and `rmw`.
    rmw_sets: [Option<Rc<Set>>; 5],
}

impl Base<'_> {
    /// A set the event structure fixes: the events `f` picks, where they happen.
    fn set(&self, f: impl Fn(usize) -> bool) -> Set {
        let g = &self.x.exists;
        Set((0..self.ev.len()).map(|i| if f(i) { g[i] } else { B::F }).collect())
    }

    /// Static pairs, present when both events happen.
    fn rel(&self, lg: &mut Logic, f: impl Fn(usize, usize) -> bool) -> Rel {
        let n = self.ev.len();
        let f = &f;
        let pairs = (0..n).flat_map(|i| (0..n).filter(move |&j| f(i, j)).map(move |j| (i, j)));
        self.rel_of(lg, pairs, n * n)
    }

    /// [`Base::rel`] of pairs within a thread (the initial writes' counting as one), where
    /// `f` picks them: each event is tested against its thread's events only.
    fn rel_in_thread(&self, lg: &mut Logic, threads: &Threads, f: impl Fn(usize, usize) -> bool) -> Rel {
        let (n, g) = (self.ev.len(), &self.x.exists);
        let mut m = Vec::with_capacity(n * threads.longest);
        for i in (0..n).filter(|&i| !g[i].is_false()) {
            for &j in threads.of(i).iter().filter(|&&j| f(i, j)) {
                m.push(((i, j), lg.and2(g[i], g[j])));
            }
        }
        Rel::from_sorted(n, m)
    }

    /// The static pairs `pairs` (given in increasing order, at most `most` of them),
    /// present when both events happen: for the relations the event structure lists,
    /// without a test per pair.
    fn rel_of(&self, lg: &mut Logic, pairs: impl IntoIterator<Item = (usize, usize)>, most: usize) -> Rel {
        let g = &self.x.exists;
        let live = pairs.into_iter().filter(|&(i, _)| !g[i].is_false());
        Rel::collect_sorted(self.ev.len(), most, live.map(|(i, j)| ((i, j), lg.and2(g[i], g[j]))))
    }

    /// Binds a set under `name`, as the model sees it.
    fn put_set(&mut self, lg: &mut Logic, name: Name, s: Set) {
        self.put_set_kept(lg, name, s, None);
    }

    /// [`Base::put_set`], keeping the set as `rmw_sets[k]` where `keep` is `Some(k)` and
    /// the model reads `amo`, `lxsx` or `rmw`.
    fn put_set_kept(&mut self, lg: &mut Logic, name: Name, s: Set, keep: Option<usize>) {
        let keep = keep.filter(|_| self.for_rmw);
        // The view leaves an empty set empty (a set with no entries at all stands for it);
        // a set no file reads is bound empty too (nothing sees it).
        let v = if !((self.reads)(name) || keep.is_some()) || s.0.iter().all(|b| b.is_false()) {
            self.empty.clone()
        } else {
            Rc::new(self.view.set(s, lg))
        };
        if let Some(k) = keep {
            self.rmw_sets[k] = Some(v.clone());
        }
        self.env.push((name, V::Set(v)));
    }

    /// herd's sets of events by kind (R, W, M, F, B, IW, FW, …), and the register and
    /// marker sets litsat never fills.
    fn event_sets(&mut self, lg: &mut Logic) {
        let ev = self.ev;
        let e = &ev.events;
        let n = ev.len();
        let mem = |i: usize| e[i].is_read() || e[i].is_write();
        let tagged = |i: usize, t: &str| e[i].tags.iter().any(|x| x == t);
        let pred = |i: usize| e[i].kind == Kind::Branch && tagged(i, "PRED");
        let atomic_write = |i: usize| ev.amo_as_one && e[i].kind == Kind::Write && e[i].tags.iter().any(|t| t == "X");
        // herd's implicit accesses (under `-variant ifetch` or `vmsa`).
        let implicit = |i: usize| (ev.ifetch || ev.vmsa.is_some()) && tagged(i, "NExp");
        let sets = [
            self.set(|i| e[i].is_read() || atomic_write(i)),
            self.set(|i| e[i].is_write()),
            self.set(mem),
            self.set(|i| e[i].kind == Kind::Fence),
            self.set(|i| e[i].kind == Kind::Branch),
            self.set(|i| e[i].kind == Kind::Branch && !pred(i)),
            self.set(|i| ev.is_init(i)),
            self.x.fw.clone(),
            // herd's implicit accesses (an instruction fetch, a translation-table walk's
            // read) are `NExp`.
            self.set(|i| mem(i) && !implicit(i)),
            if ev.ifetch || ev.vmsa.is_some() { self.set(implicit) } else { Set::empty(n) },
        ];
        let names = fixed_names();
        // R, W and M, first, are kept for `amo`, `lxsx` and `rmw`.
        for (k, (&name, s)) in names.event_sets.iter().zip(sets).enumerate() {
            self.put_set_kept(lg, name, s, (k < 3).then_some(k));
        }
        // In the order of MARKER_SETS; without register events (`catdep`), all empty.
        let reg_read = |i: usize| e[i].kind == Kind::RegRead;
        let markers = [
            self.set(|i| reg_read(i) && tagged(i, "ADDR")),
            self.set(|i| reg_read(i) && tagged(i, "DATA")),
            self.set(reg_read),
            self.set(|i| e[i].kind == Kind::RegWrite),
            Set(Vec::new()),
            Set(Vec::new()),
            self.set(pred),
        ];
        for (&name, s) in names.markers.iter().zip(markers) {
            self.put_set(lg, name, s);
        }
    }

    /// A set per tag the ISA knows or an event carries (where a `tags_if` condition
    /// holds, for those), also under herd's capitalised name; then the lock events' sets.
    fn tag_sets(&mut self, lg: &mut Logic) {
        let (ev, x) = (self.ev, self.x);
        let e = &ev.events;
        // Every tag an event carries, with its condition (none for a plain tag), sorted
        // stably by tag: each tag's entries are one run, in event order.
        let mut carried: Vec<(&str, Eid, Option<ValId>)> = Vec::new();
        for (i, ev) in e.iter().enumerate() {
            // The markers' tags are bound with the markers (`event_sets`).
            let plain = ev.tags.iter().filter(|t| !MARKER_SETS.contains(&t.as_ref()) && t.as_ref() != "NExp");
            carried.extend(plain.map(|t| (t.as_ref(), i, None)));
            carried.extend(ev.tags_if.iter().map(|(t, v)| (t.as_ref(), i, Some(*v))));
        }
        carried.sort_by(|a, b| a.0.cmp(b.0));
        let tags = merged_tags(&known_tags(ev.known_sets), &carried);
        // herd's capitalised name, written into one buffer for every tag.
        let mut cap = String::new();
        let mut rest = &carried[..];
        for &(t, name) in &tags {
            let (mine, later) = rest.split_at(rest.iter().take_while(|c| c.0 == t).count());
            rest = later;
            // A tag no event carries (most of the ISA's) names the empty set: nothing to
            // build.
            let mut s = if mine.is_empty() { Set(Vec::new()) } else { Set::empty(ev.len()) };
            for &(_, i, _) in mine.iter().filter(|c| c.2.is_none()) {
                s.0[i] = x.exists[i];
            }
            for &(_, i, when) in mine {
                if let Some(v) = when {
                    let holds = x.lit_of(v, Value::Int(1));
                    let b = lg.and2(x.exists[i], holds);
                    s.0[i] = lg.or2(s.0[i], b);
                }
            }
            // An annotation `'rcu-lock` also names the set `Rcu-lock`, as herd's bell files
            // use it (only a lower-case first letter changes).
            if t.starts_with(|c: char| c.is_ascii_lowercase()) {
                capitalise_into(t, &mut cap);
                if tags.binary_search_by(|p| p.0.cmp(cap.as_str())).is_err() {
                    let cap = Name::new(&cap);
                    self.put_set_kept(lg, cap, s.clone(), rmw_tag(cap));
                }
            }
            self.put_set_kept(lg, name, s, rmw_tag(name));
        }
        // After the tags: the C ISA names these sets among its known ones, and lock events
        // carry no tag.
        for (role, &name) in crate::events::LockRole::ALL.into_iter().zip(&fixed_names().locks) {
            let held = |i: usize| e[i].lock == Some(role);
            let s = if (0..e.len()).any(held) { self.set(held) } else { Set(Vec::new()) };
            self.put_set(lg, name, s);
        }
    }

    /// The pairs of distinct (or any, with `loops`) events among those `member` picks
    /// that may access one location, where both happen.
    fn located_pairs(&self, sl: &mut SameLoc, lg: &mut Logic, member: impl Fn(usize) -> bool, loops: bool) -> Rel {
        let (n, g, x) = (self.ev.len(), &self.x.exists, self.x);
        let evs: Vec<usize> = (0..n).filter(|&i| !g[i].is_false() && member(i)).collect();
        let mut m = Vec::with_capacity(evs.len() * evs.len());
        // The events each may share a location with: where no address is computed, the
        // run of those at its location (sorted by location), without a test per pair.
        let by_loc = sl.by_location(&evs);
        let cands: Vec<usize> = by_loc.as_ref().map_or_else(|| evs.clone(), |v| v.iter().map(|p| p.1).collect());
        for &i in &evs {
            let run = match (&by_loc, sl.fixed[i]) {
                (Some(v), Place::At(l)) => {
                    let from = v.partition_point(|p| p.0 < l);
                    from..from + v[from..].iter().take_while(|p| p.0 == l).count()
                }
                (Some(_), _) => continue,
                (None, _) => 0..cands.len(),
            };
            for &j in cands[run].iter().filter(|&&j| loops || i != j) {
                let b = sl.get(&x.locs, i, j, lg);
                let both = match (b, g[i], g[j]) {
                    (B::F, _, _) => continue,
                    (b, B::T, B::T) => b,
                    _ => lg.and(&[b, g[i], g[j]]),
                };
                m.push(((i, j), both));
            }
        }
        Rel::from_sorted(n, m)
    }

    /// herd's base relations (po, loc, int, ext, id, addr, data, ctrl, rf, co, fr and
    /// their parts), each built only where some file of the model reads it (the others are
    /// bound empty: nothing sees them); returns `loc` and the same-location pairs of co's
    /// writes.
    fn relations(&mut self, lg: &mut Logic) -> (Rel, Rel) {
        let (ev, x) = (self.ev, self.x);
        let (n, e) = (ev.len(), &ev.events);
        let same_thread = |i: usize, j: usize| e[i].thread == e[j].thread;
        let threads = Threads::new(ev);
        let names = &fixed_names().relations;
        let read: Vec<bool> = names.iter().map(|&x| (self.reads)(x)).collect();
        let any = |ks: &[usize]| ks.iter().any(|&k| read[k]);
        // Indices into RELATIONS.
        let [po_loc, rfe, rfi, coe, coi, fre, fri, po, _, int, ext, id, sm, si, rf, _, fr, addr, data, ctrl, same_inst, same_instr, iico_d, iico_c, iico_o, co0, amo, lxsx, rmw]: [usize; 29] =
            std::array::from_fn(|k| k);
        let empty = || Rel::empty(n);
        let mut sl = SameLoc::new(&x.locs);
        // Built in the order they always were (the variables' numbering, hence the CNF
        // written out, stays the same where a model reads every relation).
        let po_r = any(&[po, po_loc, amo, lxsx, rmw]).then(|| self.rel_in_thread(lg, &threads, |i, j| ev.po_before(i, j)));
        let mut loc = self.located_pairs(&mut sl, lg, |i| e[i].has_loc(), true);
        if ev.register_events {
            // herd's `loc` relates the events of a thread on one register, too.
            let regs = self.rel_in_thread(lg, &threads, |i, j| e[i].reg.is_some() && e[i].reg == e[j].reg);
            loc = loc.union(&regs, lg);
        }
        let int_r = any(&[int, rfi, coi, fri]).then(|| self.rel_in_thread(lg, &threads, |_, _| true));
        let ext_r = any(&[ext, rfe, coe, fre]).then(|| self.rel(lg, |i, j| !same_thread(i, j)));
        let id_r = any(&[id, sm, si, fr, fre, fri, amo, lxsx, rmw]).then(|| self.rel_of(lg, (0..n).map(|i| (i, i)), n));
        let same_instr_r = any(&[same_inst, same_instr, amo, lxsx, rmw]).then(|| {
            self.rel_in_thread(lg, &threads, |i, j| e[i].thread.is_some() && e[i].instr / 2 == e[j].instr / 2)
        });
        let mut addr_r = any(&[addr]).then(|| self.rel_of(lg, ev.addr.iter().copied(), ev.addr.len()));
        let mut data_r = any(&[data]).then(|| self.rel_of(lg, ev.data.iter().copied(), ev.data.len()));
        // A dependency through a register joined from two paths holds on its own path only.
        for (r, when) in [(&mut addr_r, &ev.addr_when), (&mut data_r, &ev.data_when)] {
            let Some(r) = r else { continue };
            for (&(i, j), &c) in when {
                let on = x.lit_of(c, Value::Int(1));
                let b = lg.and2(r.get(i, j), on);
                r.set(i, j, b);
            }
        }
        let ctrl_r = any(&[ctrl]).then(|| self.rel_of(lg, ev.ctrl.iter().copied(), ev.ctrl.len()));
        let [iico_d_r, iico_c_r, iico_o_r] = [(iico_d, &ev.iico_data), (iico_c, &ev.iico_ctrl), (iico_o, &ev.iico_order)]
            .map(|(k, pairs)| if read[k] { self.rel_of(lg, pairs.iter().copied(), pairs.len()) } else { empty() });
        let ww_loc = self.located_pairs(&mut sl, lg, |i| e[i].in_co(), false);
        let rf_r = any(&[rf, rfe, rfi, fr, fre, fri]).then(|| x.rf.clone());
        // herd's multi-access single-copy-atomic groups join the identity in `sm`.
        let sm_groups =
            (!ev.sm.is_empty() && any(&[sm, si])).then(|| self.rel_of(lg, ev.sm.iter().copied(), ev.sm.len()));
        let mut view = |r: Option<Rel>, lg: &mut Logic| r.map_or_else(empty, |r| self.view.rel(r, lg));
        let po_r = view(po_r, lg);
        let loc = view(Some(loc), lg);
        let [int_r, ext_r, id_r, same_instr_r, addr_r, data_r, ctrl_r, rf_r] =
            [int_r, ext_r, id_r, same_instr_r, addr_r, data_r, ctrl_r, rf_r].map(|r| view(r, lg));
        let sm_groups = sm_groups.map(|g| view(Some(g), lg));
        let fr_r = if any(&[fr, fre, fri]) { rf_r.inverse().seq(&x.co, lg).diff(&id_r, lg) } else { empty() };
        let part = |k: usize, a: &Rel, b: &Rel, lg: &mut Logic| if read[k] { a.inter(b, lg) } else { empty() };
        let co0_r = if read[co0] { self.co0(&loc, lg) } else { empty() };
        let [amo_r, lxsx_r, rmw_r] =
            if any(&[amo, lxsx, rmw]) { self.rmw(&po_r, &loc, &id_r, &same_instr_r, lg) } else { [(); 3].map(|_| empty()) };
        let sm_r = sm_groups.map(|g| Rc::new(id_r.union(&g, lg)));
        let (id_r, same_instr_r) = (Rc::new(id_r), Rc::new(same_instr_r));
        let sm_r = sm_r.unwrap_or_else(|| id_r.clone());
        // In the order of RELATIONS.
        let bound = [
            Rc::new(part(po_loc, &po_r, &loc, lg)),
            Rc::new(part(rfe, &rf_r, &ext_r, lg)),
            Rc::new(part(rfi, &rf_r, &int_r, lg)),
            Rc::new(part(coe, &x.co, &ext_r, lg)),
            Rc::new(part(coi, &x.co, &int_r, lg)),
            Rc::new(part(fre, &fr_r, &ext_r, lg)),
            Rc::new(part(fri, &fr_r, &int_r, lg)),
            Rc::new(po_r),
            Rc::new(loc.clone()),
            Rc::new(int_r),
            Rc::new(ext_r),
            id_r,
            sm_r.clone(),
            sm_r,
            Rc::new(rf_r),
            Rc::new(x.co.clone()),
            Rc::new(fr_r),
            Rc::new(addr_r),
            Rc::new(data_r),
            Rc::new(ctrl_r),
            same_instr_r.clone(),
            same_instr_r,
            Rc::new(iico_d_r),
            Rc::new(iico_c_r),
            Rc::new(iico_o_r),
            Rc::new(co0_r),
            Rc::new(amo_r),
            Rc::new(lxsx_r),
            Rc::new(rmw_r),
        ];
        for (&name, r) in names.iter().zip(bound) {
            self.env.push((name, V::Rel(r)));
        }
        (loc, ww_loc)
    }
}

impl Base<'_> {
    /// `co0`, which herd's stdlib.cat defines as `loc & ((IW * (W \ IW)) | ((W \ FW) *
    /// FW))`: on each location, the initial write before the other writes, and every
    /// write but the final one before it. Models build their coherence base on it (`with
    /// co from generate_cos(co0)`, cos-opt.cat's cobase); built here, from `loc`'s pairs,
    /// it costs no evaluation of products of sets per test. A file that defines `co0`
    /// (herd's own stdlib.cat) hides it.
    fn co0(&self, loc: &Rel, lg: &mut Logic) -> Rel {
        let (ev, x) = (self.ev, self.x);
        let write = |i: usize| if ev.events[i].is_write() { x.exists[i] } else { B::F };
        let not_final: Vec<B> = (0..ev.len()).map(|i| lg.and2(write(i), x.fw.0[i].negate())).collect();
        let entries = loc.iter().filter_map(|((i, j), same)| {
            let first = if ev.is_init(i) && !ev.is_init(j) { lg.and2(write(i), write(j)) } else { B::F };
            let before_final = lg.and2(not_final[i], x.fw.0[j]);
            let either = lg.or2(first, before_final);
            Some(((i, j), lg.and2(same, either))).filter(|(_, b)| !b.is_false())
        });
        Rel::collect_sorted(ev.len(), loc.len(), entries)
    }

    /// `amo`, `lxsx` and `rmw` (see `rmw`), from the kept sets and these relations.
    fn rmw(&self, po: &Rel, loc: &Rel, id: &Rel, same_instance: &Rel, lg: &mut Logic) -> [Rel; 3] {
        let [r, w, m, x, ex] = std::array::from_fn(|k| self.rmw_sets[k].clone().unwrap_or_else(|| self.empty.clone()));
        let parts = super::rmw::Parts { r: &r, w: &w, m: &m, x: &x, ex: &ex, po, loc, id, same_instance };
        super::rmw::relations(&parts, self.ev.len(), lg)
    }
}

/// The events by thread (the initial writes' counting as one), for the relations within
/// threads.
struct Threads {
    /// The events sorted stably by thread: each thread's a run, in event order.
    order: Vec<Eid>,
    /// Each event's thread's run in `order`.
    run: Vec<(usize, usize)>,
    /// The most events a thread has.
    longest: usize,
}

impl Threads {
    fn new(ev: &Events) -> Threads {
        let e = &ev.events;
        let mut order: Vec<Eid> = (0..e.len()).collect();
        order.sort_by_key(|&i| e[i].thread);
        let mut run = vec![(0, 0); e.len()];
        let mut from = 0;
        for r in order.chunk_by(|&a, &b| e[a].thread == e[b].thread) {
            for &i in r {
                run[i] = (from, from + r.len());
            }
            from += r.len();
        }
        let longest = run.iter().map(|&(a, b)| b - a).max().unwrap_or(0);
        Threads { order, run, longest }
    }

    /// The events of `i`'s thread, in order.
    fn of(&self, i: Eid) -> &[Eid] {
        let (a, b) = self.run[i];
        &self.order[a..b]
    }
}

/// The tags to bind, in order: the ISA's known ones (`known`, sorted) and those events
/// carry (`carried`, sorted), each once, with its name.
fn merged_tags<'a>(known: &[(&'static str, Name)], carried: &[(&'a str, Eid, Option<ValId>)]) -> Vec<(&'a str, Name)> {
    let mut out: Vec<(&'a str, Name)> = Vec::with_capacity(known.len() + 4);
    let mut k = known.iter().peekable();
    let mut c = carried.iter().map(|c| c.0).peekable();
    loop {
        let next = match (k.peek(), c.peek()) {
            (Some(&&(a, name)), Some(&b)) if a <= b => {
                k.next();
                (a, name)
            }
            (_, Some(&b)) => {
                c.next();
                match out.last() {
                    Some(&(last, name)) if last == b => (last, name),
                    _ => (b, Name::new(b)),
                }
            }
            (Some(&&(a, name)), None) => {
                k.next();
                (a, name)
            }
            (None, None) => break,
        };
        if out.last().is_none_or(|l| l.0 != next.0) {
            out.push(next);
        }
    }
    out
}

/// `rcu-lock` → `Rcu-lock`: herd's set name for an annotation.
pub fn capitalised(t: &str) -> String {
    let mut out = String::new();
    capitalise_into(t, &mut out);
    out
}

/// [`capitalised`], written into `out` (whose old contents go).
fn capitalise_into(t: &str, out: &mut String) {
    out.clear();
    let mut c = t.chars();
    if let Some(f) = c.next() {
        out.push(f.to_ascii_uppercase());
        out.push_str(c.as_str());
    }
}
