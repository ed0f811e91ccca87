//! Interpreting one thread: its instructions' ops in order, into events, with each
//! register's symbolic contents and the reads it depends on, one path condition per
//! forward branch, and the paths joined at labels.

use super::paths::{Content, Deps, PathState, Regs, always, dep_union, merge, src_union};
use super::{Eid, Event, Events, Instr, Kind, LockRole, SourceRef, VExpr, ValId, Value};
use crate::diag::{Deadline, Diag, Pos};
use crate::isa::{Addr, BinOp, Cond, Isa, LockOp, Op, Operand, Reg, Src, Tag};
use crate::litmus::{Loc, Test};
use std::collections::{BTreeMap, HashMap};

mod fetch;
mod split;
mod walk;

/// Where [`Op::Exit`] paths wait for the thread's end: no label is spelt so.
const EXIT: &str = "%exit";

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

/// Interprets the thread `id` (its instructions `code`) into `ev`: its events, their
/// dependencies, and its registers' final contents.
pub(super) fn interpret<'a>(
    ev: &'a mut Events,
    test: &'a Test,
    id: usize,
    code: &'a [Instr],
    isa: &dyn Isa,
    src: &SourceRef<'_>,
    deadline: Deadline,
) -> Result<(), Diag> {
    let mut names = RegNames::default();
    let regs = initial_regs(ev, test, id, src, &mut names)?;
    let mut t = Thread::new(ev, id, code, isa, src, (names, regs));
    for (idx, ins) in code.iter().enumerate() {
        deadline.check(src.file)?;
        t.instruction(idx, ins)?;
    }
    t.finish();
    Ok(())
}

/// The registers the initial state sets for thread `id`; the others hold 0.
fn initial_regs<'a>(
    ev: &mut Events,
    test: &'a Test,
    id: usize,
    src: &SourceRef<'_>,
    names: &mut RegNames<'a>,
) -> Result<Regs, Diag> {
    let mut regs = Regs::default();
    for it in &test.init {
        if let Loc::Reg(t, r) = &it.loc
            && *t == id
        {
            let v = ev.value_of(&it.value).ok_or_else(|| src.err(it.pos, "unknown location in initial value"))?;
            let val = ev.constant(v);
            put(&mut regs, names.number(r), Content::of(val));
        }
    }
    Ok(regs)
}

/// Sets register number `r` in `regs`.
fn put(regs: &mut Regs, r: usize, c: Content) {
    if regs.len() <= r {
        regs.resize(r + 1, None);
    }
    regs[r] = Some(c);
}

/// The thread's registers, numbered as first written: paths hold their contents in
/// vectors indexed so, which clone without copying names. Looked up by a scan: a thread
/// has a handful of registers, and a hash table cost more to build and grow than the
/// scans it saved.
struct RegNames<'a> {
    names: Vec<&'a str>,
    /// The numbers by name, kept only past [`RegNames::INDEXED`] registers (a long C
    /// expression's temporaries), where searching `names` would take quadratic time.
    index: HashMap<&'a str, usize>,
}

impl Default for RegNames<'_> {
    /// Room for the registers of most threads, so that numbering them does not grow it.
    fn default() -> Self {
        RegNames { names: Vec::with_capacity(16), index: HashMap::new() }
    }
}

impl<'a> RegNames<'a> {
    /// How many registers are searched in order before they are indexed.
    const INDEXED: usize = 64;

    /// The number of register `r`, a new one if it is new.
    fn number(&mut self, r: &'a str) -> usize {
        if let Some(k) = self.get(r) {
            return k;
        }
        self.names.push(r);
        if self.names.len() > Self::INDEXED {
            if self.index.is_empty() {
                self.index.extend(self.names.iter().enumerate().map(|(k, n)| (*n, k)));
            } else {
                self.index.insert(r, self.names.len() - 1);
            }
        }
        self.names.len() - 1
    }

    fn get(&self, r: &str) -> Option<usize> {
        if self.index.is_empty() {
            self.names.iter().position(|n| *n == r)
        } else {
            self.index.get(r).copied()
        }
    }
}

/// A thread being interpreted: the path followed, the paths waiting at labels, and what
/// later instructions depend on.
struct Thread<'a> {
    ev: &'a mut Events,
    isa: &'a dyn Isa,
    src: &'a SourceRef<'a>,
    /// The thread's id.
    id: usize,
    /// The register that always reads 0, where the ISA has one.
    zero_reg: Option<&'a str>,
    /// The constant 0.
    zero: ValId,
    /// Each instruction's label: a branch may only go forward.
    labels: Vec<Option<&'a str>>,
    /// The thread's instructions (for the labels a fault names).
    code: &'a [Instr],
    /// The registers' numbers.
    regs: RegNames<'a>,
    /// The path being followed.
    cur: PathState,
    /// The paths that branched to a label ahead (or left for [`EXIT`]), to join there.
    /// Ordered, so that the paths left at the end join in one order and the encoding
    /// comes out the same on every run.
    pending: BTreeMap<&'a str, Vec<PathState>>,
    /// Reads that some earlier branch depended on: every later event depends on them.
    /// Sorted, without repeats: a vector, as a thread has a few such reads.
    ctrl_src: Vec<Eid>,
    /// Saved control sources of the enclosing [`Op::CtrlScope`]s.
    ctrl_saved: Vec<Vec<Eid>>,
    /// The location reserved by the latest exclusive load: a store-conditional can only
    /// succeed on it, and consumes it.
    /// In a mixed-size test, with the reserving access's width: a store-conditional of
    /// another width fails (herd's answer to the constrained-unpredictable case).
    reservation: Option<(ValId, Option<usize>)>,
    /// The operands being evaluated ([`Op::Operand`]), outermost first, as (group,
    /// operand) pairs; the number of groups opened so far; and for each event of the
    /// thread, the operands at its creation.
    operands: Vec<(usize, usize)>,
    groups: usize,
    operand_paths: Vec<Vec<(usize, usize)>>,
    /// The thread's first event.
    first_of_thread: Eid,
    /// Whether register accesses are events ([`Kind::RegRead`]), for a `catdep` model.
    regev: bool,
    /// The instruction being interpreted.
    at: At<'a>,
    /// The registers herd's current instruction has set so far (kept from one instruction
    /// to the next, emptied, so that no instruction allocates). herd's instruction is the
    /// run of litsat's instructions from one source position: one cell, or one C
    /// statement, which the C plug-in lowers to several.
    set_regs: Vec<&'a Reg>,
    /// That run's source position, and the guard of its first memory read.
    run: Option<(Pos, Option<ValId>)>,
    /// Under `-variant ifetch`: the label of each decoded instruction's code
    /// ([`Op::Decode`]), with the po index of its fetch's instruction and its decode commit.
    decoded: HashMap<&'a str, (usize, Eid)>,
}

/// The instruction being interpreted: where its events stand in po, where a failure is
/// reported, and what its earlier ops have said.
#[derive(Default)]
struct At<'a> {
    /// Its index in the thread.
    idx: usize,
    /// Its index in po: its own, or, for a decoded instruction's code, its fetch's (one
    /// instance, as in herd).
    po: usize,
    /// For a decoded instruction's code, the decode commit that chose it.
    commit: Option<Eid>,
    pos: Pos,
    text: &'a str,
    /// Its first event: dependencies on its own reads are iico, not addr/data/ctrl.
    first: Eid,
    /// The width of its accesses ([`Op::Width`]), where the ISA says it.
    width: Option<usize>,
    /// Whether the op being interpreted is its last.
    last_op: bool,
    /// With register events: the register read events made so far, by register (one
    /// per register and instruction, as herd reads an operand named twice once).
    reg_reads: Vec<(String, Eid)>,
    /// With register events: the registers (the plug-in's names) written and not yet
    /// made write events, which the instruction's end (or a branch) makes.
    written: Vec<String>,
    /// With register events: predicated commits that control the write of a register
    /// (a conditional select's), by register.
    ctrl_into: Vec<(String, Eid)>,
    /// The memory accesses ordered before the instruction's later ones ([`Op::Ordered`]).
    ordered: Vec<Eid>,
    /// Whether it has reserved a location: a pair of exclusive reads reserves at its
    /// first (herd's `LDXP`).
    reserved: bool,
}

/// Where an access goes: its address value, the location when that is fixed (else the
/// address is the solver's), and the reads the address depends on.
struct Access {
    val: ValId,
    place: (Option<usize>, Option<ValId>),
    deps: Deps,
    /// The instruction's events the address comes from (with register events).
    src: Vec<Eid>,
}

impl<'a> Thread<'a> {
    /// A thread at its start: one path, taken unconditionally, with the initial registers.
    fn new(
        ev: &'a mut Events,
        id: usize,
        code: &'a [Instr],
        isa: &'a dyn Isa,
        src: &'a SourceRef<'a>,
        (names, regs): (RegNames<'a>, Regs),
    ) -> Thread<'a> {
        let one = ev.constant(Value::Int(1));
        let zero = ev.constant(Value::Int(0));
        let first_of_thread = ev.events.len();
        let regev = ev_regs(ev, isa);
        Thread {
            ev,
            isa,
            src,
            id,
            zero_reg: isa.zero_reg(),
            zero,
            labels: code.iter().map(|i| i.label.as_deref()).collect(),
            code,
            regs: names,
            cur: PathState { guard: one, regs },
            pending: BTreeMap::new(),
            ctrl_src: Vec::new(),
            ctrl_saved: Vec::new(),
            reservation: None,
            operands: Vec::new(),
            groups: 0,
            operand_paths: Vec::new(),
            first_of_thread,
            regev,
            at: At::default(),
            set_regs: Vec::new(),
            run: None,
            decoded: HashMap::new(),
        }
    }

    /// Interprets one instruction, after joining the paths that branched to its label.
    fn instruction(&mut self, idx: usize, ins: &'a Instr) -> Result<(), Diag> {
        if let Some(l) = &ins.label
            && let Some(states) = self.pending.remove(l.as_str())
        {
            for s in states {
                self.join(s);
            }
        }
        let (po, commit) = match ins.label.as_deref().and_then(|l| self.decoded.get(l)) {
            Some(&(po, c)) => (po, Some(c)),
            None => (idx, None),
        };
        self.at = At { idx, po, commit, pos: ins.pos, text: &ins.text, first: self.ev.events.len(), ..At::default() };
        if self.run.is_none_or(|r| r.0 != ins.pos) {
            self.note_load_regs();
            self.run = Some((ins.pos, None));
        }
        for (k, op) in ins.ops.iter().enumerate() {
            self.at.last_op = k + 1 == ins.ops.len();
            self.op(op)?;
        }
        self.flush_reg_writes();
        if let Some(c) = self.at.commit {
            self.controlled_by(c);
        }
        if let Some((_, read @ None)) = &mut self.run {
            let ev = &self.ev.events;
            *read = (self.at.first..ev.len()).find(|&e| ev[e].kind == Kind::Read).map(|e| ev[e].guard);
        }
        Ok(())
    }

    /// Notes that herd's current instruction set `r`. litsat's temporaries (`%t1`) are
    /// never shown, and are left out here: a C statement of many operators sets one per
    /// operator, and the list is searched at each.
    fn note_set(&mut self, r: &'a Reg) {
        if !r.starts_with('%') && !self.set_regs.contains(&r) {
            self.set_regs.push(r);
        }
    }

    /// Where herd's instruction that just ended reads memory, the registers it wrote
    /// (see [`Events::load_regs`]), but litsat's own temporaries (`%t1`).
    fn note_load_regs(&mut self) {
        if let Some((_, Some(guard))) = self.run.take() {
            for r in &self.set_regs {
                self.ev.load_regs.push((self.id, (*r).clone(), guard));
            }
        }
        self.set_regs.clear();
    }

    /// The thread's end: the operand pairs po leaves unordered, the paths still waiting
    /// joined (a branch to a label on no instruction goes to the end), and the registers'
    /// final contents.
    fn finish(mut self) {
        self.note_load_regs();
        if self.groups > 0 {
            self.note_operands();
            self.ev.unsequenced.extend(unsequenced(&self.operand_paths, self.first_of_thread));
        }
        for states in std::mem::take(&mut self.pending).into_values() {
            for s in states {
                self.join(s);
            }
        }
        for (r, c) in self.cur.regs.into_iter().enumerate() {
            if let Some(c) = c {
                self.ev.final_regs.insert((self.id, self.regs.names[r].to_string()), c.val);
            }
        }
    }

    /// Joins the path `s` into the one being followed.
    fn join(&mut self, s: PathState) {
        let cur = std::mem::replace(&mut self.cur, PathState { guard: self.zero, regs: Regs::default() });
        self.cur = merge(self.ev, cur, s, &self.regs.names);
    }

    /// The current path goes to `label`: it waits there, and no op after this one runs
    /// on it until then.
    fn leave_for(&mut self, label: &'a str) {
        let regs = if self.dead_until_join(label) { std::mem::take(&mut self.cur.regs) } else { self.cur.regs.clone() };
        self.pending.entry(label).or_default().push(PathState { guard: self.cur.guard, regs });
        self.cur.guard = self.zero;
    }

    /// Whether the current path, once it leaves for `label`, runs no op before it is
    /// joined with another, which drops it (a C `if`'s arm, a jump to the next
    /// instruction): its registers are then moved to `label` rather than copied.
    fn dead_until_join(&self, label: &str) -> bool {
        self.at.last_op
            && match self.labels.get(self.at.idx + 1) {
                // The thread's end joins every path left.
                None => true,
                Some(Some(next)) => *next == label || self.pending.contains_key(next),
                Some(None) => false,
            }
    }

    /// Notes, for each event made since the last note, the operands it was made in.
    fn note_operands(&mut self) {
        let made = self.ev.events.len() - self.first_of_thread;
        // Most ops make no event: nothing to note, and no copy of the operands.
        if made > self.operand_paths.len() {
            self.operand_paths.resize(made, self.operands.clone());
        }
    }

    /// Interprets one op of the current instruction.
    fn op(&mut self, op: &'a Op) -> Result<(), Diag> {
        if self.groups > 0 || matches!(op, Op::Operand(_)) {
            self.note_operands();
        }
        let guard = self.cur.guard;
        if self.ev.vmsa.is_some() {
            self.vmsa_op_built(op)?;
        }
        match op {
            Op::Operand(o) => self.operand(o),
            Op::Load { dst, addr, tags } => self.load(dst, addr, tags)?,
            Op::Store { addr, src, tags, when } => self.store(addr, src, tags, when.as_ref())?,
            Op::Choose { dst, when } => self.choose(dst, when)?,
            Op::StoreCond { addr, src, tags, status, ok, fail, second } => {
                self.store_cond((addr, src, second.as_deref()), tags, status.as_ref(), (*ok, *fail))?
            }
            Op::Fence { tags } => {
                let e = self.event(Kind::Fence, 0, (None, None), self.zero, tags.clone(), guard);
                self.push(e);
            }
            Op::FenceIf { tags, when } => {
                let cv = self.cond(when)?;
                let g = self.ev.and(guard, cv.val);
                if !self.ev.is_const(g, 0) {
                    let e = self.event(Kind::Fence, 0, (None, None), self.zero, tags.clone(), g);
                    self.push(e);
                }
            }
            // Joined with the other paths at the thread's end.
            Op::Exit => self.leave_for(EXIT),
            Op::Fault { ftype, tags, labels, at } => self.fault(ftype, tags, labels, at.as_ref())?,
            Op::TagIf { tags, when } => self.tag_if(tags, when)?,
            Op::OneEvent => self.one_event(),
            Op::Cut(name) => {
                if !self.ev.is_const(guard, 0) {
                    self.ev.cuts.push((guard, name.clone()));
                }
            }
            Op::Width(w) => self.at.width = Some(*w),
            Op::Fetch { dst, loc } => self.fetch(dst, loc)?,
            Op::Decode { src, cases, refused, other } => self.decode(src, (cases, refused), other)?,
            // `resolve_jumps` has made every jump a branch, or refused it.
            Op::Jump(r) => return Err(self.err(format!("unsupported: computed branch on '{r}'"))),
            // `flow` has made every link and label value a move.
            Op::Link(_) | Op::LabelOf { .. } => return Err(self.err("unsupported: code address as a value")),
            Op::CtrlScope(true) => self.ctrl_saved.push(self.ctrl_src.clone()),
            Op::CtrlScope(false) => self.ctrl_src = self.ctrl_saved.pop().unwrap_or_default(),
            Op::Marker { addr, tags } if self.ev.vmsa.is_some() && tags.iter().any(|t| t == "TLBI") => {
                self.tlbi(addr, tags)?
            }
            Op::Marker { addr, tags } => {
                let a = self.access(addr)?;
                let e = self.event(Kind::Fence, 0, a.place, self.zero, tags.clone(), guard);
                let id = self.push_access(e, &a.deps);
                // herd's cache maintenance by address reads it from a register.
                self.iico_in(&a.src, id, "ADDR");
            }
            Op::Lock { addr, op, dst } => self.lock(addr, *op, dst.as_ref())?,
            Op::Mov { dst, src } => self.mov(dst, src)?,
            Op::Bin { dst, op, a, b } => self.bin(dst, *op, a, b)?,
            Op::Select { dst, cond, a, b } => self.select(dst, cond, a, b, None)?,
            Op::SelectOp { dst, cond, a, b, op, k } => self.select(dst, cond, a, b, Some((*op, *k)))?,
            Op::Branch { cond, target } => self.branch(cond.as_ref(), target)?,
            Op::Also { dst, src } => {
                let mut c = self.reg(dst);
                let s = self.read_reg(src);
                c.deps = dep_union(self.ev, c.deps, &s.deps);
                c.src = src_union(c.src, &s.src);
                self.set_reg(dst, c);
            }
            Op::Ordered => {
                let ev = &self.ev;
                let mem: Vec<Eid> =
                    self.own_events().filter(|&e| matches!(ev.events[e].kind, Kind::Read | Kind::Write)).collect();
                self.at.ordered = mem;
            }
            Op::Cas { expected, new, addr, read_tags, write_tags, fail_read_tags, pair } => {
                let mut halves = vec![(expected, new, addr)];
                halves.extend(pair.as_deref().map(|(e, n, a)| (e, n, a)));
                self.cas(&halves, [read_tags, write_tags, fail_read_tags])?
            }
            Op::Atomic => {
                let ev = &self.ev;
                let mem: Vec<Eid> =
                    self.own_events().filter(|&e| matches!(ev.events[e].kind, Kind::Read | Kind::Write)).collect();
                for &i in &mem {
                    self.ev.sm.extend(mem.iter().filter(|&&j| j != i).map(|&j| (i, j)));
                }
            }
        }
        Ok(())
    }

    /// A fault ([`Op::Fault`]): its event, and the thread's fault register naming the
    /// site (numbered once per thread, label and type, herd's identity of a fault). A
    /// fault `at` an address comes after the predicated commit of the check that failed.
    fn fault(&mut self, ftype: &str, tags: &[Tag], labels: &[String], at: Option<&Addr>) -> Result<(), Diag> {
        let (place, commit) = match at {
            Some(a) => {
                let (l, commit) = self.checked_place(a)?;
                ((Some(l), None), commit)
            }
            None => ((None, None), None),
        };
        let e = self.event(Kind::Fault, 0, place, self.zero, tags.to_vec(), self.cur.guard);
        let f = self.push(e);
        self.ev.iico_ctrl.extend(commit.map(|p| (p, f)));
        let site =
            crate::litmus::FaultSite { thread: self.id, labels: labels.to_vec(), ftype: ftype.to_string(), loc: None };
        let sites = &mut self.ev.fault_sites;
        let k = sites.iter().position(|s| *s == site).unwrap_or_else(|| {
            sites.push(site);
            sites.len() - 1
        });
        let v = self.ev.constant(Value::Int(k as i64 + 1));
        let n = self.regs.number(crate::litmus::FAULT_REG);
        put(&mut self.cur.regs, n, Content::of(v));
        Ok(())
    }

    /// Where a failed access check faults: the address's location (read with port
    /// `ADDR`), and the predicated commit it feeds (with register events). herd locates
    /// the fault at the address; one that is no location of the test is refused.
    fn checked_place(&mut self, a: &Addr) -> Result<(usize, Option<Eid>), Diag> {
        let (val, _, src) = self.address(a)?;
        let (Some(l), _) = self.ev.place(val) else {
            return Err(self.err("unsupported: a capability check on an address that is no location of the test"));
        };
        let commit = self.predicate(&src);
        if let Some(p) = commit {
            self.iico_in(&src, p, "ADDR");
        }
        Ok((l, commit))
    }

    /// A C operator's operands begin, follow one another or end: events in different
    /// operands of one operator are unordered by po.
    fn operand(&mut self, o: &Operand) {
        match o {
            Operand::First => {
                self.groups += 1;
                self.operands.push((self.groups, 0));
            }
            Operand::Next => {
                if let Some(o) = self.operands.last_mut() {
                    o.1 += 1;
                }
            }
            Operand::Done => {
                self.operands.pop();
            }
        }
    }

    /// A solver's choice of 0 or 1 where a condition holds ([`Op::Choose`]), 0 elsewhere.
    fn choose(&mut self, dst: &'a Reg, when: &Cond) -> Result<(), Diag> {
        let cv = self.cond(when)?;
        let reach = self.ev.and(self.cur.guard, cv.val);
        let choice = self.ev.choice_where(reach);
        self.set_reg(dst, Content { val: choice, deps: cv.deps, src: cv.src });
        Ok(())
    }

    /// Puts the instruction's latest event in sets where a condition holds
    /// ([`Op::TagIf`]).
    fn tag_if(&mut self, tags: &[Tag], when: &Cond) -> Result<(), Diag> {
        let cv = self.cond(when)?;
        if let Some(e) = self.ev.events[self.at.first..].last_mut() {
            e.tags_if.extend(tags.iter().map(|t| (t.clone(), cv.val)));
        }
        Ok(())
    }

    /// The instruction's latest read and write are one event to the model
    /// ([`Op::OneEvent`]).
    fn one_event(&mut self) {
        let ev = &self.ev;
        let last = |k: Kind| self.own_events().rev().find(|&e| ev.events[e].kind == k);
        if let (Some(r), Some(w)) = (last(Kind::Read), last(Kind::Write)) {
            self.ev.one_event.push((r, w));
        }
    }

    /// A read: its value is a variable of its own, which the solver decides through rf.
    fn load(&mut self, dst: &'a Reg, addr: &Addr, tags: &[Tag]) -> Result<(), Diag> {
        let a = self.access(addr)?;
        let t = self.vmsa_access(a, walk::Dir::R, tags)?;
        let (a, tags) = (t.access, if t.tags.is_empty() { tags } else { &t.tags[..] });
        let (ids, val) = self.read_cells(&a, tags, self.cur.guard)?;
        self.settle(&ids, t.commit);
        let id = ids[0];
        if let Some(w) = self.at.width.filter(|&w| w < 8 && self.isa.masks_narrow_loads() && self.ev.cells.is_none()) {
            self.ev.narrow_reads.push((id, w));
            self.ev.access_at.insert(id, self.at.pos);
        }
        let deps = always(self.ev, ids.iter().copied());
        let src = if self.regev { ids } else { Vec::new() };
        self.set_reg(dst, Content { val, deps, src });
        if tags.iter().any(|t| t == "EX") && !self.at.reserved {
            self.at.reserved = true;
            self.reservation = Some((a.val, self.at.width));
            // herd's exclusive load writes the reservation register from the address.
            if self.regev {
                let w = self.reg_event(Kind::RegWrite, RESERVATION, self.cur.guard);
                self.iico_in(&a.src, w, "");
            }
        }
        Ok(())
    }

    /// A write, made only where its condition (if any) holds on the current path.
    fn store(&mut self, addr: &Addr, s: &Src, tags: &[Tag], when: Option<&Cond>) -> Result<(), Diag> {
        let a = self.access(addr)?;
        if self.ev.vmsa.is_some() && when.is_some() {
            return Err(self.err("unsupported: under vmsa, a conditional store"));
        }
        let t = self.vmsa_access(a, walk::Dir::W, tags)?;
        let (a, vmsa_commit) = (t.access, t.commit);
        let tags = if t.tags.is_empty() { tags } else { &t.tags[..] };
        let guard = self.cur.guard;
        // Code is no memory to herd unless it fetches instructions (`-variant self`).
        if let Some(l) = a.place.0.filter(|&l| self.ev.layout.is_code(l) && !self.ev.ifetch) {
            return Err(self.err(format!(
                "unsupported: a store to the code at '{}' (herd asks for instruction fetches, `-variant self`)",
                self.ev.locs[l]
            )));
        }
        if let Some(l) = a.place.0.filter(|&l| self.ev.ifetch && self.ev.layout.is_code(l)) {
            self.overwritable(l)?;
        }
        let c = self.read_src(s)?;
        let mut inner = dep_union(self.ev, c.deps.clone(), &a.deps);
        let mut commit = None;
        let g = match when {
            None => guard,
            Some(w) => {
                let cv = self.cond(w)?;
                inner = dep_union(self.ev, inner, &cv.deps);
                commit = self.predicate(&cv.src);
                self.ev.and(guard, cv.val)
            }
        };
        if self.ev.is_const(g, 0) {
            return Ok(());
        }
        // Where the ISA orders an RMW's read before its write in po, the write takes
        // the slot after the read's.
        let after_read = self.isa.rmw_in_po() && self.own_events().any(|r| self.ev.events[r].kind == Kind::Read);
        let ids = self.write_cells(&a, (usize::from(after_read), c.val, g), tags, &c.deps)?;
        self.settle(&ids, vmsa_commit);
        for id in ids {
            self.iico(&inner, id);
            self.iico_in(&a.src, id, "ADDR");
            self.iico_in(&c.src, id, "DATA");
            match commit {
                Some(p) => {
                    self.ev.iico_ctrl.insert((p, id));
                }
                // A swap's write does not take its value from its read, yet follows it.
                None if self.regev => {
                    let ev = &self.ev;
                    let reads: Vec<Eid> = self
                        .own_events()
                        .filter(|&r| ev.events[r].kind == Kind::Read && !c.src.contains(&r))
                        .collect();
                    self.ev.iico_order.extend(reads.into_iter().map(|r| (r, id)));
                }
                None => {}
            }
        }
        Ok(())
    }

    /// A store-conditional: whether it succeeds is a choice, made only where the
    /// reservation is on its address; its status register says which way it went.
    fn store_cond(
        &mut self,
        (addr, s, second): (&Addr, &Src, Option<&(Addr, Src)>),
        tags: &[Tag],
        status: Option<&'a Reg>,
        (ok, fail): (i64, i64),
    ) -> Result<(), Diag> {
        let guard = self.cur.guard;
        let a = self.access(addr)?;
        let c = self.read_src(s)?;
        let mut writes = vec![(a, c)];
        if let Some((addr2, s2)) = second {
            let a2 = self.access(addr2)?;
            let c2 = self.read_src(s2)?;
            writes.push((a2, c2));
        }
        let a_val = writes[0].0.val;
        // Success needs the reservation to be on this address: folded when both are
        // fixed, a condition on values when either is not.
        let same = match self.reservation.take() {
            Some((_, w)) if self.ev.cells.is_some() && w != self.at.width => self.zero,
            Some((r, _)) => self.ev.bin(BinOp::Eq, r, a_val),
            None => self.zero,
        };
        let reach = self.ev.and(guard, same);
        let choice = self.ev.choice_where(reach);
        let g = self.ev.and(guard, choice);
        // herd's store-exclusive reads the reservation register, and clears it, under
        // its control; the status register's write has no source.
        let res = self.regev.then(|| {
            let r = self.reg_read_event(RESERVATION);
            let w = self.reg_event(Kind::RegWrite, RESERVATION, guard);
            self.ev.iico_ctrl.insert((r, w));
            r
        });
        if let Some(st) = status {
            let okv = self.ev.constant(Value::Int(ok));
            let failv = self.ev.constant(Value::Int(fail));
            let val = self.ev.ite(choice, okv, failv);
            // In herd's RISC-V semantics the status register depends on the store
            // itself (a dependency through success); in its AArch64 semantics it does not.
            let deps = if self.ev.is_const(g, 0) || !self.isa.status_depends_on_store() {
                Deps::new()
            } else {
                let next = self.ev.events.len();
                always(self.ev, [next])
            };
            self.set_reg(st, Content { val, deps, src: Vec::new() });
        }
        if self.ev.is_const(g, 0) {
            return Ok(());
        }
        for (a, c) in writes {
            for id in self.write_cells(&a, (0, c.val, g), tags, &c.deps)? {
                // The value register is read without a port: no data dependency.
                self.iico_in(&a.src, id, "ADDR");
                self.iico_in(&c.src, id, "");
                if let Some(r) = res {
                    self.ev.iico_ctrl.insert((r, id));
                }
            }
        }
        Ok(())
    }

    /// herd's C lock events: an acquisition is a read and a write of the lock, a
    /// try-lock or an is-locked test a choice between its outcomes' events.
    fn lock(&mut self, addr: &Addr, op: LockOp, dst: Option<&'a Reg>) -> Result<(), Diag> {
        let guard = self.cur.guard;
        let a = self.access(addr)?;
        // A try-lock or an is-locked test has two outcomes: a choice, made only where the
        // operation is reached.
        let choice = match op {
            LockOp::Try | LockOp::IsLocked => Some(self.ev.choice_where(guard)),
            _ => None,
        };
        for (kind, role, g, slot) in self.lock_events(op, choice) {
            if self.ev.is_const(g, 0) {
                continue;
            }
            // Lock events carry no value the test can see: a lock write writes 1 (held),
            // an unlock 0.
            let v = i64::from(role == LockRole::Lkw);
            let val = self.ev.constant(Value::Int(v));
            let e = Event { lock: Some(role), ..self.event(kind, slot, a.place, val, vec![], g) };
            self.push_access(e, &a.deps);
        }
        if let (Some(d), Some(c)) = (dst, choice) {
            self.set_reg(d, Content::of(c));
        }
        Ok(())
    }

    /// The events of a lock operation, given its outcome's choice: each with its kind,
    /// role, condition and po slot.
    fn lock_events(&mut self, op: LockOp, choice: Option<ValId>) -> Vec<(Kind, LockRole, ValId, usize)> {
        let guard = self.cur.guard;
        let not_choice = choice.map(|c| self.ev.not(c));
        let on = |ev: &mut Events, c: Option<ValId>| c.map_or(guard, |c| ev.and(guard, c));
        let mut events = Vec::new();
        match op {
            LockOp::Acquire | LockOp::Try => {
                let g = on(self.ev, choice);
                events.push((Kind::Read, LockRole::Lkr, g, 0));
                events.push((Kind::Write, LockRole::Lkw, g, 1));
                if let Some(nc) = not_choice {
                    let g = on(self.ev, Some(nc));
                    events.push((Kind::Read, LockRole::Lf, g, 0));
                }
            }
            LockOp::Release => events.push((Kind::Write, LockRole::Ul, guard, 0)),
            LockOp::IsLocked => {
                let g = on(self.ev, choice);
                events.push((Kind::Read, LockRole::Rl, g, 0));
                let g = on(self.ev, not_choice);
                events.push((Kind::Read, LockRole::Ru, g, 0));
            }
        }
        events
    }

    /// A register copy. Where the ISA's atomics are one operation, a value its read
    /// returned also depends on its write.
    fn mov(&mut self, dst: &'a Reg, s: &Src) -> Result<(), Diag> {
        let mut c = self.read_src(s)?;
        if self.ev.amo_as_one && c.deps.reads().any(|d| d >= self.at.first) {
            let writes: Vec<Eid> = self.own_events().filter(|&w| self.ev.events[w].kind == Kind::Write).collect();
            let more = always(self.ev, writes);
            c.deps = dep_union(self.ev, c.deps, &more);
        }
        self.set_reg(dst, c);
        Ok(())
    }

    /// `dst = a op b`, depending on both.
    fn bin(&mut self, dst: &'a Reg, op: BinOp, a: &Src, b: &Src) -> Result<(), Diag> {
        let ca = self.read_src(a)?;
        let cb = self.read_src(b)?;
        let val = self.ev.bin(op, ca.val, cb.val);
        let deps = dep_union(self.ev, ca.deps, &cb.deps);
        self.set_reg(dst, Content { val, deps, src: src_union(ca.src, &cb.src) });
        Ok(())
    }

    /// `dst = cond ? a : b`, depending on all three; `b op k` in place of `b` where given.
    fn select(&mut self, dst: &'a Reg, cond: &Cond, a: &Src, b: &Src, then: Option<(BinOp, i64)>) -> Result<(), Diag> {
        let c = self.cond(cond)?;
        let (ca, mut cb) =
            if self.regev { self.selected(dst, &c, a, b)? } else { (self.read_src(a)?, self.read_src(b)?) };
        if let Some((op, k)) = then {
            let k = self.ev.constant(Value::Int(k));
            cb.val = self.ev.bin(op, cb.val, k);
        }
        let val = self.ev.ite(c.val, ca.val, cb.val);
        let deps = dep_union(self.ev, c.deps, &ca.deps);
        let deps = dep_union(self.ev, deps, &cb.deps);
        // With register events the condition reaches `dst` through the commit only.
        let src = src_union(if self.regev { Vec::new() } else { c.src }, &ca.src);
        let src = src_union(src, &cb.src);
        self.set_reg(dst, Content { val, deps, src });
        Ok(())
    }

    /// A forward branch: the taken path waits at the target, the current one falls
    /// through. A conditional one is a branch event, and what follows is ctrl-dependent
    /// on the reads its condition depends on.
    fn branch(&mut self, cond: Option<&Cond>, target: &'a str) -> Result<(), Diag> {
        // Backward branches were unrolled away (`crate::unroll`).
        let later = self.labels[self.at.idx + 1..].contains(&Some(target));
        if !later {
            return Err(self.err(format!("unknown label '{target}'")));
        }
        self.flush_reg_writes();
        let Some(c) = cond else {
            self.leave_for(target);
            return Ok(());
        };
        let guard = self.cur.guard;
        let cv = self.cond(c)?;
        self.ev.branch_conds.push((self.ev.events.len(), cv.val));
        let e = self.event(Kind::Branch, 0, (None, None), self.zero, vec![], guard);
        let b = self.push(e);
        self.iico_in(&cv.src, b, "");
        let taken = self.ev.and(guard, cv.val);
        let nc = self.ev.not(cv.val);
        let fall = self.ev.and(guard, nc);
        let regs = self.cur.regs.clone();
        self.pending.entry(target).or_default().push(PathState { guard: taken, regs });
        self.cur.guard = fall;
        let from = self.outside(&cv.deps);
        self.ctrl_src.extend(from.map(|(d, _)| d));
        self.ctrl_src.sort_unstable();
        self.ctrl_src.dedup();
        Ok(())
    }

    /// A located failure at the current instruction.
    fn err(&self, msg: impl Into<String>) -> Diag {
        self.src.err(self.at.pos, msg)
    }

    /// The index of a location the code names.
    fn loc_named(&self, x: &str) -> Result<usize, Diag> {
        self.ev.loc_index(x).ok_or_else(|| self.err(format!("unknown location '{x}'")))
    }

    /// A register's contents on the current path (0 where never written).
    fn reg(&self, r: &Reg) -> Content {
        let c = self.regs.get(r).and_then(|k| self.cur.regs.get(k)).and_then(Option::as_ref);
        c.cloned().unwrap_or(Content::of(self.zero))
    }

    /// Sets a register on the current path; writes to the zero register are lost.
    fn set_reg(&mut self, r: &'a Reg, c: Content) {
        if Some(r.as_str()) == self.zero_reg {
            return;
        }
        if self.regev && self.isa.event_reg(r).is_some() && !self.at.written.contains(r) {
            self.at.written.push(r.clone());
        }
        self.note_set(r);
        put(&mut self.cur.regs, self.regs.number(r), c);
    }

    /// The value of an operand: a register (the zero register reads 0), a constant, or a
    /// location's address.
    fn read_src(&mut self, s: &Src) -> Result<Content, Diag> {
        Ok(match s {
            Src::Reg(r) if Some(r.as_str()) == self.zero_reg => Content::of(self.zero),
            Src::Reg(r) => self.read_reg(r),
            Src::Imm(i) => Content::of(self.ev.constant(Value::Int(*i))),
            Src::Addr(x) => {
                let l = self.loc_named(x)?;
                Content::of(self.ev.constant(Value::Addr(l)))
            }
        })
    }

    /// The 0/1 value of a condition, and the reads it depends on.
    fn cond(&mut self, c: &Cond) -> Result<Content, Diag> {
        let a = self.read_src(&c.a)?;
        let b = self.read_src(&c.b)?;
        let val = self.ev.bin(c.op, a.val, b.val);
        let deps = dep_union(self.ev, a.deps, &b.deps);
        Ok(Content { val, deps, src: src_union(a.src, &b.src) })
    }

    /// Where an access of the current instruction goes.
    fn access(&mut self, a: &Addr) -> Result<Access, Diag> {
        let (val, deps, src) = self.address(a)?;
        if self.ev.cells.is_some() || self.isa.whole_locations() {
            // Every width is a number of cells, checked as it is cut (`split.rs`), or none
            // matters (the whole location is accessed).
            return Ok(Access { val, place: self.ev.place(val), deps, src });
        }
        self.check_width(val)?;
        self.check_size(val)?;
        if !matches!(self.ev.vals[val], VExpr::Const(_)) && !self.ev.layout.fits_any(self.at.width) {
            self.ev.widths.push((val, self.at.width));
        }
        Ok(Access { val, place: self.ev.place(val), deps, src })
    }

    /// The value of an address operand and the reads it depends on. A register must
    /// hold an address, and a constant one plus an offset must name an element.
    fn address(&mut self, a: &Addr) -> Result<(ValId, Deps, Vec<Eid>), Diag> {
        let (r, off) = match a {
            Addr::Sym(x) => {
                let l = self.loc_named(x)?;
                return Ok((self.ev.constant(Value::Addr(l)), Deps::new(), Vec::new()));
            }
            Addr::Reg(r, off) => (r, *off),
        };
        let c = self.read_reg(r);
        let v = if off == 0 {
            c.val
        } else {
            let o = self.ev.constant(Value::Int(off));
            self.ev.bin(BinOp::Add, c.val, o)
        };
        let ev = &self.ev;
        // A constant address plus a constant offset that names no element.
        if let VExpr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) = ev.vals[v]
            && let (&VExpr::Const(x), &VExpr::Const(y)) = (&ev.vals[a], &ev.vals[b])
            && matches!((x, y), (Value::Addr(_), Value::Int(_)) | (Value::Int(_), Value::Addr(_)))
        {
            return Err(self.err(ev.arith_message(op, x, y)));
        }
        match ev.vals[v] {
            VExpr::Const(Value::Off(b, k)) if ev.cells.is_some() => {
                Err(self.unaligned(b, k, self.at.width.map_or(1, |w| w as i64)))
            }
            VExpr::Const(Value::Off(b, k)) => Err(self.err(ev.offset_message(b, k))),
            // A number (`1:X3=16`) is an access herd fails only where the model allows it:
            // made as at a computed address, whose number the encoder marks as a failure
            // (`Exec::failures`, `query::non_address`).
            _ => Ok((v, c.deps, c.src)),
        }
    }

    /// An access to an array element must be as wide as the element: herd's mixed-size
    /// accesses (several elements, or part of one) are not modelled. A computed address
    /// is checked by the encoder, over the values it may take ([`Events::widths`]).
    fn check_width(&self, v: ValId) -> Result<(), Diag> {
        let (ev, width) = (&self.ev, self.at.width);
        let wide = |w: Option<usize>| w.map_or("of unknown width".to_string(), |w| format!("{w} bytes wide"));
        match ev.vals[v] {
            VExpr::Const(Value::Addr(l)) => match ev.layout.elem_size(l) {
                Some(size) if width != Some(size as usize) => Err(self.err(format!(
                    "unsupported: mixed-size access: an access {} to '{}', an element of {size} bytes{}",
                    wide(width),
                    ev.locs[l],
                    ev.mixed_hint()
                ))),
                _ => Ok(()),
            },
            // A computed address: checked against its values by the encoder.
            _ => Ok(()),
        }
    }

    /// An event of the current instruction in po slot `slot` (1: a write after the
    /// instruction's read), at `place`, happening where `guard` is 1.
    fn event(
        &self,
        kind: Kind,
        slot: usize,
        place: (Option<usize>, Option<ValId>),
        val: ValId,
        tags: Vec<Tag>,
        guard: ValId,
    ) -> Event {
        Event {
            thread: Some(self.id),
            instr: 2 * self.at.po + slot,
            kind,
            loc: place.0,
            addr: place.1,
            val,
            tags,
            tags_if: Vec::new(),
            text: self.at.text.to_string(),
            guard,
            lock: None,
            reg: None,
        }
    }

    /// The events the current instruction has made so far.
    fn own_events(&self) -> std::ops::Range<Eid> {
        self.at.first..self.ev.events.len()
    }

    /// The dependencies on reads of earlier instructions: those inside one instruction
    /// are herd's iico, not addr/data/ctrl.
    fn outside<'d>(&self, deps: &'d Deps) -> impl Iterator<Item = (Eid, ValId)> + use<'d> {
        deps.before(self.at.first)
    }

    /// Adds an event, ctrl-dependent on the reads earlier branches depended on.
    fn push(&mut self, e: Event) -> Eid {
        let id = self.ev.events.len();
        self.ev.ctrl.extend(self.ctrl_src.iter().map(|&d| (d, id)));
        if e.loc.is_none() && e.addr.is_some() {
            self.ev.access_at.insert(id, self.at.pos);
        }
        self.ev.events.push(e);
        id
    }

    /// Adds an access, with the addr dependencies its address carries.
    fn push_access(&mut self, e: Event, adeps: &Deps) -> Eid {
        let id = self.push(e);
        self.ev.iico_order.extend(self.at.ordered.iter().map(|&o| (o, id)));
        for (d, g) in self.outside(adeps) {
            self.ev.add_dep(false, d, id, g);
        }
        id
    }

    /// Adds a write, with the addr and data dependencies it carries.
    fn write(&mut self, w: Event, adeps: &Deps, vdeps: &Deps) -> Eid {
        let id = self.push_access(w, adeps);
        for (d, g) in self.outside(vdeps) {
            self.ev.add_dep(true, d, id, g);
        }
        id
    }

    /// Orders the instruction's reads before its write `w` (herd's iico): those the
    /// write depends on (`deps`), or all where the ISA sequences its atomics.
    fn iico(&mut self, deps: &Deps, w: Eid) {
        let sequential = self.isa.rmw_sequential();
        let ev = &self.ev;
        let reads: Vec<Eid> = (self.at.first..w)
            .filter(|&r| ev.events[r].kind == Kind::Read && (sequential || deps.contains(r)))
            .collect();
        self.ev.iico.extend(reads.into_iter().map(|r| (r, w)));
    }

    /// A register's contents as an operand. With register events, a register this
    /// instruction has not written is read by an event (one per register and
    /// instruction), the value's only source; a temporary keeps the sources it was
    /// computed from.
    fn read_reg(&mut self, r: &Reg) -> Content {
        let mut c = self.reg(r);
        if !self.regev || Some(r.as_str()) == self.zero_reg || self.at.written.contains(r) {
            return c;
        }
        // A temporary of the plug-in's is written earlier in the instruction.
        if let Some(name) = self.isa.event_reg(r) {
            c.src = vec![self.reg_read_event(name)];
        }
        c
    }

    /// The instruction's read event of register `name` (the plug-in's event name), made
    /// on first use.
    fn reg_read_event(&mut self, name: &str) -> Eid {
        if let Some(&(_, e)) = self.at.reg_reads.iter().find(|(n, _)| n == name) {
            return e;
        }
        let e = self.reg_event(Kind::RegRead, name, self.cur.guard);
        self.at.reg_reads.push((name.to_string(), e));
        e
    }

    /// A register event of the current instruction on register `name`, where `guard`
    /// holds. Outside po's ctrl bookkeeping: dependencies are the model's to compute.
    fn reg_event(&mut self, kind: Kind, name: &str, guard: ValId) -> Eid {
        let full = format!("{}:{name}", self.id);
        let k = match self.ev.reg_names.iter().position(|n| *n == full) {
            Some(k) => k,
            None => {
                self.ev.reg_names.push(full);
                self.ev.reg_names.len() - 1
            }
        };
        let e = Event { reg: Some(k), ..self.event(kind, 0, (None, None), self.zero, Vec::new(), guard) };
        self.ev.events.push(e);
        self.ev.events.len() - 1
    }

    /// The write events of the registers the instruction wrote since the last flush: one
    /// per register (the plug-in's names standing for one register, the flags, are
    /// one), fed through iico_data by the sources of what was written.
    fn flush_reg_writes(&mut self) {
        let written = std::mem::take(&mut self.at.written);
        let mut done: Vec<&str> = Vec::new();
        for (k, r) in written.iter().enumerate() {
            let Some(name) = self.isa.event_reg(r) else { continue };
            if done.contains(&name) {
                continue;
            }
            done.push(name);
            let mut src = Vec::new();
            for r2 in written[k..].iter().filter(|r2| self.isa.event_reg(r2) == Some(name)) {
                src = src_union(src, &self.reg(r2).src);
            }
            let w = self.reg_event(Kind::RegWrite, name, self.cur.guard);
            self.ev.iico_data.extend(src.into_iter().map(|s| (s, w)));
            let isa = self.isa;
            let ctrl: Vec<Eid> =
                self.at.ctrl_into.iter().filter(|(r, _)| isa.event_reg(r) == Some(name)).map(|p| p.1).collect();
            self.ev.iico_ctrl.extend(ctrl.into_iter().map(|p| (p, w)));
        }
    }

    /// iico_data from each source in `src` to event `e`; register reads among them take
    /// the port `port` (`ADDR`, `DATA`; none where empty).
    fn iico_in(&mut self, src: &[Eid], e: Eid, port: &'static str) {
        for &s in src {
            self.ev.iico_data.insert((s, e));
            let from = &mut self.ev.events[s];
            if !port.is_empty() && from.kind == Kind::RegRead && !from.tags.iter().any(|t| t == port) {
                from.tags.push(port.into());
            }
        }
    }

    /// herd's predicated commit (a compare-and-swap's): fed by the comparison's sources,
    /// and controlling the write; `None` without register events.
    fn predicate(&mut self, src: &[Eid]) -> Option<Eid> {
        if !self.regev {
            return None;
        }
        let e = self.event(Kind::Branch, 0, (None, None), self.zero, vec!["PRED".into()], self.cur.guard);
        self.ev.events.push(e);
        let p = self.ev.events.len() - 1;
        self.iico_in(src, p, "");
        Some(p)
    }

    /// With register events, a conditional select's operands as herd reads them: the
    /// condition's sources feed a predicated commit, which controls the read of the
    /// selected register only (each read happens where its side is chosen), or, with no
    /// register to read, the write of `dst`.
    fn selected(&mut self, dst: &Reg, c: &Content, a: &Src, b: &Src) -> Result<(Content, Content), Diag> {
        let guard = self.cur.guard;
        let Some(p) = self.predicate(&c.src) else { return Ok((self.read_src(a)?, self.read_src(b)?)) };
        let nc = self.ev.not(c.val);
        let sides = if a == b { [guard, guard] } else { [self.ev.and(guard, c.val), self.ev.and(guard, nc)] };
        let read = |it: &mut Self, s: &Src, g: ValId| -> Result<Content, Diag> {
            it.cur.guard = g;
            let first = it.ev.events.len();
            let r = it.read_src(s);
            it.cur.guard = guard;
            let made = first..it.ev.events.len();
            it.ev.iico_ctrl.extend(made.map(|e| (p, e)));
            r
        };
        let ca = read(self, a, sides[0])?;
        let cb = read(self, b, sides[1])?;
        self.at.ctrl_into.push((dst.clone(), p));
        Ok((ca, cb))
    }

    /// A compare-and-swap ([`Op::Cas`]), of one location or of a pair (`CASP`: each half
    /// its own read and write, compared and swapped together): herd's four alternatives,
    /// two per outcome, told apart by a choice made where the instruction is reached.
    fn cas(&mut self, halves: &[(&'a Reg, &Src, &Addr)], tags: [&Vec<Tag>; 3]) -> Result<(), Diag> {
        let [read_tags, write_tags, fail_tags] = tags;
        let guard = self.cur.guard;
        let mut parts = Vec::new();
        for &(expected, _, addr) in halves {
            let a = self.access(addr)?;
            let cmp = self.read_src(&Src::Reg(expected.clone()))?;
            parts.push((a, cmp));
        }
        let alt = self.ev.choice_where(guard);
        let mut ok = self.ev.constant(Value::Int(1));
        let mut reads = Vec::new();
        for (a, cmp) in &parts {
            let (ids, old) = self.read_cells(a, fail_tags, guard)?;
            let eq = self.ev.bin(BinOp::Eq, old, cmp.val);
            ok = self.ev.and(ok, eq);
            reads.push((ids, old));
        }
        let [not_ok, not_alt] = [ok, alt].map(|v| self.ev.not(v));
        // The reads are an atomic's unless the swap fails without writing back.
        let no_wb = self.ev.and(not_ok, not_alt);
        let atomic = self.ev.not(no_wb);
        for &id in reads.iter().flat_map(|r| &r.0) {
            self.ev.events[id].tags_if =
                read_tags.iter().filter(|t| !fail_tags.contains(t)).map(|t| (t.clone(), atomic)).collect();
        }
        let pred = self.predicate(&reads.iter().flat_map(|r| r.0.iter().copied()).collect::<Vec<_>>());
        if let Some(p) = pred {
            for (_, cmp) in &parts {
                self.iico_in(&cmp.src, p, "DATA");
            }
        }
        // Success writes the new values (their registers read where it succeeds);
        // failure may write the values read back.
        let g_ok = self.ev.and(guard, ok);
        let saved = std::mem::replace(&mut self.cur.guard, g_ok);
        let news: Result<Vec<Content>, Diag> = halves.iter().map(|h| self.read_src(h.1)).collect();
        self.cur.guard = saved;
        let wb = self.ev.and(not_ok, alt);
        let g_wb = self.ev.and(guard, wb);
        for ((nv, (a, _)), (ids, old)) in news?.into_iter().zip(&parts).zip(&reads) {
            let writes = [(g_ok, nv.val, nv.deps, nv.src, "DATA"), (g_wb, *old, Deps::new(), ids.clone(), "")];
            self.cas_writes(a, writes, write_tags, pred)?;
        }
        for ((h, (_, cmp)), (ids, old)) in halves.iter().zip(&parts).zip(&reads) {
            let got = Content { val: *old, deps: always(self.ev, ids.iter().copied()), src: Vec::new() };
            self.cas_result(h.0, got, (&cmp.src, ids, pred), (ok, alt));
        }
        Ok(())
    }

    /// A compare-and-swap's writes of one location: each with its condition, value,
    /// dependencies, sources and the port its sources feed; controlled by the commit.
    fn cas_writes(
        &mut self,
        a: &Access,
        writes: [(ValId, ValId, Deps, Vec<Eid>, &'static str); 2],
        tags: &[Tag],
        pred: Option<Eid>,
    ) -> Result<(), Diag> {
        for (g, val, vdeps, vsrc, port) in writes {
            if self.ev.is_const(g, 0) {
                continue;
            }
            for wid in self.write_cells(a, (0, val, g), tags, &vdeps)? {
                self.iico(&Deps::new(), wid);
                self.iico_in(&a.src, wid, "ADDR");
                self.iico_in(&vsrc, wid, port);
                if let Some(p) = pred {
                    self.ev.iico_ctrl.insert((p, wid));
                }
            }
        }
        Ok(())
    }

    /// The compare-and-swap's `expected` register gets the value read. With register
    /// events, its write comes from the register compared, under the commit's control,
    /// in one way of succeeding, and from the read otherwise: one write event per case.
    fn cas_result(
        &mut self,
        r: &'a Reg,
        c: Content,
        (cmp, reads, pred): (&[Eid], &[Eid], Option<Eid>),
        (ok, alt): (ValId, ValId),
    ) {
        if Some(r.as_str()) == self.zero_reg {
            return;
        }
        put(&mut self.cur.regs, self.regs.number(r), c);
        self.note_set(r);
        let (Some(name), Some(p)) = (self.isa.event_reg(r), pred) else { return };
        let guard = self.cur.guard;
        let not_alt = self.ev.not(alt);
        let from_reg = self.ev.and(ok, not_alt);
        let from_mem = self.ev.not(from_reg);
        let g = self.ev.and(guard, from_reg);
        let w1 = self.reg_event(Kind::RegWrite, name, g);
        self.ev.iico_data.extend(cmp.iter().map(|&s| (s, w1)));
        self.ev.iico_ctrl.insert((p, w1));
        let g = self.ev.and(guard, from_mem);
        let w2 = self.reg_event(Kind::RegWrite, name, g);
        self.ev.iico_data.extend(reads.iter().map(|&r| (r, w2)));
    }
}

/// The register herd's exclusive accesses reserve through.
const RESERVATION: &str = "Res";

/// Whether the threads' register accesses are events: asked for (`catdep`) and made by
/// the plug-in.
fn ev_regs(ev: &Events, isa: &dyn Isa) -> bool {
    ev.register_events && isa.register_events()
}
