//! The event structure of a test: what every candidate execution shares.
//!
//! Threads are interpreted once, symbolically: a read's value is a variable
//! ([`VExpr::Read`]), and register contents are expressions over such variables, so the
//! solver decides values through rf while po, locations, dependencies and fences are fixed
//! here.

mod cells;
mod code;
mod flow;
mod ifetch;
mod interp;
mod layout;
mod paths;
mod pte;
mod thread;
mod vmsa;

pub use cells::{Cells, Object};
pub use ifetch::name_instructions;
pub use layout::{Layout, OffsetError};
pub use pte::{Oa, PteVal, canonical as canonical_pte, oa_name, physical_name, pte_loc, pte_name};

use crate::diag::{Deadline, Diag, Pos};
use crate::isa::{BinOp, Isa, Op, Reg, Tag};
use crate::litmus::{Test, Val};
use crate::logic::Fx;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::BuildHasherDefault;

pub type Eid = usize;
pub type ValId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Int(i64),
    /// The address of location `locs[i]`.
    Addr(usize),
    /// A value herd's equation solver leaves unsolved: read along an rf cycle of plain
    /// copies that no constant enters. It differs from every constant, and any arithmetic
    /// or branch on it leaves an equation unsolved, which drops the execution.
    Sym,
    /// herd's `x+k`: the address `k` bytes (never 0) after location `locs[b]`, which is
    /// no array element or an array's first, where no location lies (past an array's
    /// end, inside an element, beside a scalar). A register may hold it, compare and
    /// print it, and offset it back; an access through it is a mixed-size access.
    Off(usize, i64),
    /// A page-table entry (herd's `-variant vmsa`).
    Pte(PteVal),
    /// herd's TLB location of virtual location `locs[i]`: its address shifted right by
    /// 12 bits, which a TLBI takes.
    Tlb(usize),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VExpr {
    Const(Value),
    /// The value read by a read event.
    Read(Eid),
    Bin(BinOp, ValId, ValId),
    /// `c ? a : b`, with `c` valued 0 or 1: register contents where paths join.
    Ite(ValId, ValId, ValId),
    /// A free choice of 0 or 1 (store-conditional success), numbered per test.
    Choice(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Read,
    Write,
    Fence,
    /// A conditional branch: herd's `B` events, which ctrl dependencies go through. One
    /// tagged `PRED` is herd's predicated commit (a compare-and-swap's, a conditional
    /// select's), in `B` but not `BCC`.
    Branch,
    /// A read of a register ([`Event::reg`]), made only for a model that computes its
    /// own dependencies (`catdep`): herd's `Rreg`, tagged `ADDR` or `DATA` by the port the
    /// value goes to.
    RegRead,
    /// A write of a register: herd's `Wreg`.
    RegWrite,
    /// A fault (herd's `Fault`/`ExcEntry` action): no memory access, fence or branch; the
    /// model sees it through its tags (`FAULT`, `EXC-ENTRY`, the type's set).
    Fault,
}

/// herd's lock events (C spin locks): accesses to the lock's location that stay out of
/// the built-in rf, of co (all but LKW) and of the sets R and W; `lock.cat` relates them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockRole {
    /// The read of a lock acquisition.
    Lkr,
    /// The write of a lock acquisition: in co, with the plain writes.
    Lkw,
    /// An unlock.
    Ul,
    /// A failed try-lock.
    Lf,
    /// An is-locked test that found the lock held.
    Rl,
    /// An is-locked test that found it free.
    Ru,
}

impl LockRole {
    /// herd's name for the set of such events.
    pub fn set_name(self) -> &'static str {
        match self {
            LockRole::Lkr => "LKR",
            LockRole::Lkw => "LKW",
            LockRole::Ul => "UL",
            LockRole::Lf => "LF",
            LockRole::Rl => "RL",
            LockRole::Ru => "RU",
        }
    }
    pub const ALL: [LockRole; 6] =
        [LockRole::Lkr, LockRole::Lkw, LockRole::Ul, LockRole::Lf, LockRole::Rl, LockRole::Ru];
}

#[derive(Clone, Debug)]
pub struct Event {
    /// `None` for initial writes.
    pub thread: Option<usize>,
    /// Position of the event's instruction within its thread, twice the instruction's
    /// index (a lock acquisition's write takes the odd slot after its read): po compares
    /// these.
    pub instr: usize,
    pub kind: Kind,
    /// The location, when the event structure fixes it.
    pub loc: Option<usize>,
    /// For an access whose address is computed from loaded values (pointer chasing): the
    /// address, a value the solver decides with the rest. `loc` is then `None`.
    pub addr: Option<ValId>,
    /// The value written, or the read's own variable.
    pub val: ValId,
    /// Architecture sets the event belongs to (`MFENCE`, `Fence.rw.rw`, …).
    pub tags: Vec<Tag>,
    /// Sets the event belongs to where a 0/1 value is 1 ([`Op::TagIf`]).
    pub tags_if: Vec<(Tag, ValId)>,
    /// The instruction's text, for explanations and graphs.
    pub text: String,
    /// 1 when the event happens: a 0/1-valued expression over values read (the path
    /// condition of its instruction, and the success of a store-conditional).
    pub guard: ValId,
    /// For herd's C lock events, which one.
    pub lock: Option<LockRole>,
    /// For a register event, the register: an index into [`Events::reg_names`].
    pub reg: Option<usize>,
}

impl Event {
    /// In herd's built-in set R: a read that is no lock event.
    #[inline]
    pub fn is_read(&self) -> bool {
        self.kind == Kind::Read && self.lock.is_none()
    }
    /// In herd's built-in set W.
    #[inline]
    pub fn is_write(&self) -> bool {
        self.kind == Kind::Write && self.lock.is_none()
    }
    /// Among the writes that the built-in co orders: W and lock acquisitions' writes.
    #[inline]
    pub fn in_co(&self) -> bool {
        self.is_write() || self.lock == Some(LockRole::Lkw)
    }
    /// Whether the event has a location (memory accesses, lock events, markers).
    #[inline]
    pub fn has_loc(&self) -> bool {
        self.loc.is_some() || self.addr.is_some()
    }
}

#[derive(Clone, Debug)]
pub struct Events {
    pub events: Vec<Event>,
    pub locs: Vec<String>,
    /// Thread numbers in column order.
    pub threads: Vec<usize>,
    pub vals: Vec<VExpr>,
    /// Hashed with [`Fx`]: interning is the interpreter's most frequent operation, and its
    /// keys are a few small numbers.
    val_ids: HashMap<VExpr, ValId, BuildHasherDefault<Fx>>,
    /// Final register contents, for every register of every thread that was written or
    /// initialised.
    pub final_regs: BTreeMap<(usize, Reg), ValId>,
    pub addr: BTreeSet<(Eid, Eid)>,
    pub data: BTreeSet<(Eid, Eid)>,
    pub ctrl: BTreeSet<(Eid, Eid)>,
    /// The pairs of `addr` and `data` that hold on some paths only (a register joined
    /// from two paths depends on each path's reads only where that path is taken, as
    /// herd's event structures are one per path), each with that condition (0/1).
    pub addr_when: BTreeMap<(Eid, Eid), ValId>,
    pub data_when: BTreeMap<(Eid, Eid), ValId>,
    /// Intra-instruction order from a read to a write (herd's iico): the write's value,
    /// address or condition depends on the read, or the ISA sequences its atomics.
    pub iico: BTreeSet<(Eid, Eid)>,
    /// Set names the ISA may use; models see unused ones as empty.
    pub known_sets: &'static [&'static str],
    /// Intra-instruction dependencies as herd's semantics give them to a model that reads
    /// register events (`catdep`): through a value (`iico_data`), through a commit
    /// (`iico_ctrl`), and an order alone (`iico_order`: a swap's read before its write).
    pub iico_data: BTreeSet<(Eid, Eid)>,
    pub iico_ctrl: BTreeSet<(Eid, Eid)>,
    pub iico_order: BTreeSet<(Eid, Eid)>,
    /// herd's single-copy-atomic groups of more than one access, as pairs both ways:
    /// `sm` (and `si`) is the identity and these, between events that happen.
    pub sm: BTreeSet<(Eid, Eid)>,
    /// The registers register events name, `thread:register`; empty without them.
    pub reg_names: Vec<String>,
    /// Whether the threads' register accesses are events ([`Kind::RegRead`],
    /// [`Kind::RegWrite`]), as herd makes them for a model that says `catdep`.
    pub register_events: bool,
    /// The ISA's atomics are one memory operation (see [`Isa::amo_is_one_operation`]).
    pub amo_as_one: bool,
    /// co is the model's to choose (see [`Isa::co_from_model`]).
    pub co_from_model: bool,
    /// For each [`VExpr::Choice`], the path condition of its store-conditional: a choice
    /// is only made on a path that reaches it, or skipped stores would count twice.
    pub choice_guards: Vec<ValId>,
    /// Locations whose final value a state shows: herd chooses a final write (FW) only
    /// for these.
    pub observed: BTreeSet<usize>,
    /// The `Ite` values that join two control-flow paths: their condition is a path
    /// condition, which herd resolves by taking one path, not a value it must compute.
    pub joins: BTreeSet<ValId>,
    /// Each conditional branch event with its condition (a 0/1 value): which way a branch
    /// goes is part of an execution, as herd's event structures are one per path.
    pub branch_conds: Vec<(Eid, ValId)>,
    /// The path conditions under which a thread reaches a cut-off ([`Op::Cut`]), each
    /// with its loop's name: an execution where one holds went past the unrolling bound.
    pub cuts: Vec<(ValId, String)>,
    /// Where each access that may fail its execution is in the source (see
    /// `encode::exec::Exec::failures`): one at a computed address, which may be a number,
    /// and the narrow loads of [`Events::narrow_reads`]; the refusal points here.
    pub access_at: BTreeMap<Eid, Pos>,
    /// The loads narrower than a register, with their width in bytes, in an ISA that
    /// masks their values ([`Isa::masks_narrow_loads`]).
    pub narrow_reads: Vec<(Eid, usize)>,
    /// Read and write pairs that the model sees as one event ([`Op::OneEvent`]).
    pub one_event: Vec<(Eid, Eid)>,
    /// Pairs `(i, j)`, `i` earlier, from different operands of one C operator: po does
    /// not order them ([`Op::Operand`]).
    pub unsequenced: BTreeSet<(Eid, Eid)>,
    /// The arrays: which addresses an offset from another names.
    pub layout: Layout,
    /// Accesses at computed addresses in a test with arrays of other element sizes: the
    /// address and the access's width. Each location the address may name must not be an
    /// element of another size (a mixed-size access), which the encoder checks against
    /// the address's possible values.
    pub widths: Vec<(ValId, Option<usize>)>,
    /// Under herd's `-variant mixed`: how memory is cut into cells, each cell a location
    /// (see `cells.rs`). `None` otherwise, and every access is one event.
    pub cells: Option<Cells>,
    /// Whether the architecture has herd's `-variant mixed` ([`Isa::mixed_cells`]).
    pub mixed_isa: bool,
    /// Whether herd refuses accesses of two widths to one location outside the variant
    /// ([`Isa::rejects_mixed`]).
    pub rejects_mixed: bool,
    /// Outside `-variant mixed`, on such an architecture: the width of the accesses seen
    /// so far at each location, which herd requires to be one (its `check_sizes`).
    pub widths_seen: BTreeMap<usize, usize>,
    /// The instructions that may fault, numbered as their thread's fault register
    /// ([`crate::litmus::FAULT_REG`]) names them: site `k` is value `k + 1`.
    pub fault_sites: Vec<crate::litmus::FaultSite>,
    /// The registers each instruction that reads memory writes (herd's
    /// `all_regs_that_read`, for `-outcomereads`): thread, register, and the guard of
    /// the instruction's first read (1 where it happens).
    pub load_regs: Vec<(usize, Reg, ValId)>,
    /// Under herd's `-variant ifetch` (`events::ifetch`): instructions are fetched, and code
    /// may be written.
    pub ifetch: bool,
    /// Under it, the decode commits of instructions herd cannot run where they were
    /// fetched (a branch out of the code, an `ADR` to no label), with why: an execution
    /// the model allows with one of them stops the test, as herd's does.
    pub unrunnable: Vec<(Eid, String)>,
    /// Under herd's `-variant vmsa`: what its page tables add (`None` otherwise).
    pub vmsa: Option<Vmsa>,
}

/// What herd's `-variant vmsa` adds to an event structure.
#[derive(Clone, Debug, Default)]
pub struct Vmsa {
    /// The threads that run at EL0 (the test's `EL0=` metadata).
    pub el0: Vec<usize>,
    /// Each TLBI event with the virtual location whose entry it invalidates (`None`: all).
    pub tlbi: Vec<(Eid, Option<usize>)>,
}

impl Vmsa {
    /// Whether location name `l` is a page-table entry's.
    pub fn is_pte(l: &str) -> bool {
        pte_name(l).is_some()
    }
}

impl Events {
    /// A 0/1 value the solver chooses, made only where `reach` (a path condition) holds
    /// and 0 elsewhere, so that an execution that does not reach it is counted once.
    fn choice_where(&mut self, reach: ValId) -> ValId {
        if self.is_const(reach, 0) {
            return self.constant(Value::Int(0));
        }
        let k = self.choice_guards.len();
        self.choice_guards.push(reach);
        self.intern(VExpr::Choice(k))
    }

    /// Whether po orders event `i` before event `j`. Inlined, as these small questions
    /// are asked of every pair of events by the encoder, in another module.
    #[inline]
    pub fn po_before(&self, i: Eid, j: Eid) -> bool {
        let (a, b) = (&self.events[i], &self.events[j]);
        a.thread.is_some() && a.thread == b.thread && a.instr < b.instr && !self.unsequenced.contains(&(i, j))
    }
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The number of `e`, a new one if it is new (hashed once).
    pub fn intern(&mut self, e: VExpr) -> ValId {
        match self.val_ids.entry(e) {
            std::collections::hash_map::Entry::Occupied(o) => *o.get(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let id = self.vals.len();
                self.vals.push(v.key().clone());
                v.insert(id);
                id
            }
        }
    }

    /// The number of a constant. The constants 1 and 0, asked for at nearly every op, are
    /// the first two values (see `interp::interpret`): found without hashing.
    pub fn constant(&mut self, v: Value) -> ValId {
        if let Value::Int(i @ (0 | 1)) = v {
            let id = usize::from(i == 0);
            if self.vals.get(id) == Some(&VExpr::Const(v)) {
                return id;
            }
        }
        self.intern(VExpr::Const(v))
    }

    /// Builds `a op b`, folding constants and the `xor r,r` / `sub r,r` idioms to zero (the
    /// dependency is tracked separately, as herd does).
    pub fn bin(&mut self, op: BinOp, a: ValId, b: ValId) -> ValId {
        if a == b && matches!(op, BinOp::Xor | BinOp::Sub | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Ltu) {
            return self.constant(Value::Int(0));
        }
        if a == b && matches!(op, BinOp::Eq | BinOp::Ge | BinOp::Le | BinOp::Geu) {
            return self.constant(Value::Int(1));
        }
        if let (VExpr::Const(x), VExpr::Const(y)) = (&self.vals[a], &self.vals[b])
            && let Some(v) = self.layout.apply(op, *x, *y, &self.locs)
        {
            return self.constant(v);
        }
        if let VExpr::Const(Value::Int(0)) = self.vals[b]
            && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Xor | BinOp::Or)
        {
            return a;
        }
        if let VExpr::Const(Value::Int(0)) = self.vals[a]
            && matches!(op, BinOp::Add | BinOp::Xor | BinOp::Or)
        {
            return b;
        }
        self.intern(VExpr::Bin(op, a, b))
    }

    pub fn is_const(&self, v: ValId, x: i64) -> bool {
        self.vals[v] == VExpr::Const(Value::Int(x))
    }

    /// `c ? a : b`, folded when `c` is constant or both sides agree.
    pub fn ite(&mut self, c: ValId, a: ValId, b: ValId) -> ValId {
        if a == b || self.is_const(c, 1) {
            return a;
        }
        if self.is_const(c, 0) {
            return b;
        }
        self.intern(VExpr::Ite(c, a, b))
    }

    /// Conjunction of 0/1 values.
    pub fn and(&mut self, a: ValId, b: ValId) -> ValId {
        self.connective(BinOp::And, a, b, 0)
    }

    /// Disjunction of 0/1 values.
    pub fn or(&mut self, a: ValId, b: ValId) -> ValId {
        self.connective(BinOp::Or, a, b, 1)
    }

    /// `a op b` for a connective of 0/1 values whose absorbing constant is `absorbing`
    /// (0 for and, 1 for or) and whose identity is the other: folded where a side is
    /// constant, so that path conditions of unconditional code stay constants.
    fn connective(&mut self, op: BinOp, a: ValId, b: ValId, absorbing: i64) -> ValId {
        if self.is_const(a, absorbing) || self.is_const(b, absorbing) {
            return self.constant(Value::Int(absorbing));
        }
        let identity = 1 - absorbing;
        if self.is_const(a, identity) {
            return b;
        }
        if self.is_const(b, identity) {
            return a;
        }
        self.intern(VExpr::Bin(op, a, b))
    }

    /// Negation of a 0/1 value.
    pub fn not(&mut self, a: ValId) -> ValId {
        let z = self.constant(Value::Int(0));
        self.bin(BinOp::Eq, a, z)
    }

    /// Where an access with address value `v` goes: a fixed location, or an address the
    /// solver decides.
    pub fn place(&self, v: ValId) -> (Option<usize>, Option<ValId>) {
        match self.vals[v] {
            VExpr::Const(Value::Addr(l)) => (Some(l), None),
            _ => (None, Some(v)),
        }
    }

    pub fn loc_index(&self, name: &str) -> Option<usize> {
        let name = crate::litmus::location_of(name);
        self.locs.iter().position(|l| *l == name)
    }

    /// Converts a test's value (a number or a symbol) into a [`Value`].
    pub fn value_of(&self, v: &Val) -> Option<Value> {
        match v {
            Val::Int(i) => Some(Value::Int(*i)),
            Val::Sym(s) if s.starts_with('(') => {
                PteVal::parse(s, &|x| self.loc_index(x)).ok().filter(|_| self.vmsa.is_some()).map(Value::Pte)
            }
            Val::Sym(s) => self.loc_index(s).map(Value::Addr),
        }
    }

    /// herd's way of printing a value. An address is a symbol plus a byte offset, so
    /// the address of element 1 of `int x[2]` prints as `x+4`.
    pub fn show_value(&self, v: Value) -> Val {
        match v {
            Value::Int(i) => Val::Int(i),
            Value::Addr(l) if self.layout.is_code(l) => Val::Sym(self.locs[l].clone()),
            Value::Addr(l) => match self.layout.base(l) {
                (b, 0) => Val::Sym(self.locs[b].clone()),
                (b, k) => Val::Sym(offset_name(&self.locs[b], k)),
            },
            Value::Sym => Val::Sym(SYM_NAME.into()),
            Value::Off(b, k) => Val::Sym(offset_name(&self.locs[b], k)),
            Value::Pte(p) => Val::Sym(p.show(&self.locs)),
            Value::Tlb(l) => Val::Sym(format!("TLB({})", self.locs[l])),
        }
    }

    /// Why `x op y` has no value, for a diagnostic.
    pub fn arith_message(&self, op: BinOp, x: Value, y: Value) -> String {
        let code = |v: Value| matches!(v, Value::Addr(l) if self.layout.is_code(l));
        match (op, x, y) {
            (BinOp::Div, Value::Int(_), Value::Int(0)) => "unsupported: a division by zero (herd stops there)".into(),
            _ if code(x) || code(y) => "unsupported: arithmetic on an instruction or a label as a value".into(),
            (BinOp::PteAll | BinOp::PteOa, _, _) => "unsupported: a value that is no page-table entry, at an entry".into(),
            _ if matches!(x, Value::Pte(_)) || matches!(y, Value::Pte(_)) => {
                "unsupported: arithmetic on a page-table entry's value (under vmsa)".into()
            }
            _ => "unsupported: arithmetic on an address".into(),
        }
    }

    /// Why an access at `bytes` after base location `b` ([`Layout::base`]) is refused:
    /// no location lies there, so it is a mixed-size access.
    pub fn offset_message(&self, b: usize, bytes: i64) -> String {
        let at = offset_name(&self.locs[b], bytes);
        let why = match self.layout.offset(b, bytes) {
            Ok(_) | Err(OffsetError::NoArray) => format!("offset {bytes} from '{}', which is no array element", self.locs[b]),
            Err(OffsetError::Misaligned(size)) => format!("not at an element of its array (elements of {size} bytes)"),
            Err(OffsetError::Outside(n)) => format!("outside its array ({n} elements)"),
        };
        format!("unsupported: mixed-size access: an access at {at}, {why}{}", self.mixed_hint())
    }

    /// Which herd mode runs a mixed-size test of this architecture, for a refusal.
    pub fn mixed_hint(&self) -> &'static str {
        if self.mixed_isa {
            " (herd runs it under `-variant mixed`)"
        } else {
            " (herd has no mixed-size mode for this architecture)"
        }
    }

    #[inline]
    pub fn is_init(&self, e: Eid) -> bool {
        self.events[e].thread.is_none()
    }
}

/// herd's `x+k` (`x-k` below `x`).
fn offset_name(base: &str, k: i64) -> String {
    if k < 0 { format!("{base}-{}", k.unsigned_abs()) } else { format!("{base}+{k}") }
}

/// How a state shows an unsolved value ([`Value::Sym`]) whose herd name is not known.
pub const SYM_NAME: &str = "S";

/// herd's numbers for the variables of an unsolved value, from an ISA plug-in
/// ([`crate::isa::Isa::herd_vars`]).
///
/// herd prints an unsolved value as `S<n>`, `n` the root of the union-find its solver
/// (`valconstraint`, `partition`: union by rank, the first argument's root on a tie)
/// builds twice: first over the register equations (a register read equals the value last
/// written to it), then, with those substituted, over the memory equations `read = write`,
/// taken from the last read to the first. A plug-in gives for each read its number and
/// the number of its root after the register phase; the memory phase is replayed per
/// execution ([`crate::query`]).
#[derive(Clone, Debug)]
pub struct HerdVars {
    pub threads: Vec<HerdThreadVars>,
}

#[derive(Clone, Debug)]
pub struct HerdThreadVars {
    /// The thread's id.
    pub thread: usize,
    /// Indexed by the thread's path: bit `i` set when its `i`-th conditional branch fell
    /// through (herd's then-arm). For each read event of the path, in po order: herd's
    /// number for it and that of its register-phase root (`None`: not modelled).
    pub paths: Vec<Vec<(usize, Option<usize>)>>,
}

/// Concrete semantics of [`BinOp`] on values; `None` for arithmetic on addresses (see
/// [`Layout::apply`] for array elements).
pub fn apply(op: BinOp, x: Value, y: Value) -> Option<Value> {
    let b = |c: bool| Some(Value::Int(c as i64));
    if x == Value::Sym || y == Value::Sym {
        return None;
    }
    if op == BinOp::ToInt {
        return Layout::to_integer(x, y);
    }
    match (op, x, y) {
        (BinOp::Eq, _, _) => return b(x == y),
        (BinOp::Ne, _, _) => return b(x != y),
        (BinOp::PteAll, Value::Pte(p), Value::Int(m)) => return b(m & 0xff == m && p.flags & m as u8 == m as u8),
        (BinOp::PteOa, Value::Pte(PteVal { oa: Oa::Phy(l), .. }), _) => return Some(Value::Addr(l)),
        // No page (`PA()`): no address, which an access made through it fails on.
        (BinOp::PteOa, Value::Pte(_), _) => return Some(Value::Int(0)),
        (BinOp::PteAll | BinOp::PteOa, _, _) => return None,
        // herd's AArch64 shift of a virtual address by a page: its TLB location.
        (BinOp::Shr, Value::Addr(l), Value::Int(12)) => return Some(Value::Tlb(l)),
        _ => {}
    }
    match (x, y) {
        (Value::Int(a), Value::Int(c)) => Some(Value::Int(match op {
            BinOp::Add => a.wrapping_add(c),
            BinOp::Sub => a.wrapping_sub(c),
            BinOp::Xor => a ^ c,
            BinOp::And => a & c,
            BinOp::Or => a | c,
            BinOp::Shl => a.wrapping_shl(c as u32),
            BinOp::Shr => ((a as u64).wrapping_shr(c as u32)) as i64,
            BinOp::Mul => a.wrapping_mul(c),
            // herd's Int64.div: `min_int / -1` wraps to `min_int`.
            BinOp::Div if c == 0 => return None,
            BinOp::Div => a.wrapping_div(c),
            BinOp::Lt => (a < c) as i64,
            BinOp::Ge => (a >= c) as i64,
            BinOp::Gt => (a > c) as i64,
            BinOp::Le => (a <= c) as i64,
            BinOp::Ltu => ((a as u64) < (c as u64)) as i64,
            BinOp::Geu => ((a as u64) >= (c as u64)) as i64,
            BinOp::Sext if (1..64).contains(&c) => (a << (64 - c)) >> (64 - c),
            BinOp::Zext if (1..64).contains(&c) => a & ((1i64 << c) - 1),
            BinOp::Sext | BinOp::Zext => a,
            BinOp::Eq | BinOp::Ne | BinOp::ToInt | BinOp::PteAll | BinOp::PteOa => unreachable!("handled above"),
        })),
        (a @ (Value::Addr(_) | Value::Off(..)), Value::Int(0))
        | (Value::Int(0), a @ (Value::Addr(_) | Value::Off(..)))
            if matches!(op, BinOp::Add | BinOp::Or | BinOp::Xor) =>
        {
            Some(a)
        }
        _ => None,
    }
}

/// Where in the source a failure is, for diagnostics.
pub struct SourceRef<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl SourceRef<'_> {
    fn err(&self, pos: Pos, msg: impl Into<String>) -> Diag {
        Diag::at(self.file, self.text, pos, msg)
    }
}

/// One parsed instruction of a thread: what an ISA plug-in (or a language's lowering)
/// hands the interpreter.
pub struct Instr {
    pub label: Option<String>,
    pub ops: Vec<Op>,
    pub text: String,
    pub pos: Pos,
}

/// Checks a test's code as far as it can be without a model: its architecture is known,
/// and each instruction parses (symbolic registers given real ones, computed branches
/// resolved), or, for a language whose threads are lowered whole (C), each thread's
/// syntax. Builds no events: [`build`] parses the code again, under the model's macros.
pub fn check_code(test: &Test, file: &str, text: &str) -> Result<(), Diag> {
    let isa = crate::isa::for_arch(&test.arch)
        .ok_or_else(|| Diag::file(file, format!("unsupported architecture '{}'", test.arch)))?;
    let src = SourceRef { file, text };
    if let Some(checked) = isa.check_threads(test, &src) {
        return checked;
    }
    let mut test = test.clone();
    crate::litmus::symbolic::resolve(&mut test, isa, file, text)?;
    let mut code = code::parse_cells(&test, isa, &src)?;
    code::check_names(&test, &code, &src)?;
    code::resolve_flow(&test, isa, &mut code, &src).map(drop)
}

/// Parses every instruction and interprets the threads into an event structure. `macros`
/// is the model's macro file `(path, text)`, for languages that have macros (C); loops
/// are unrolled `unroll` times (herd's `-unroll`). Past `deadline`, stops with a timeout
/// (unrolled code can be long).
pub fn build(
    test: &Test,
    isa: &dyn Isa,
    src: &SourceRef<'_>,
    macros: Option<(&str, &str)>,
    unroll: usize,
    deadline: Deadline,
) -> Result<Events, Diag> {
    build_with(test, isa, src, (macros, unroll, false), deadline)
}

/// [`build`], with register events where `register_events` (a model that computes its
/// own dependencies, `catdep`): refused for an ISA that cannot make them, rather than
/// answered with empty dependencies.
pub fn build_with(
    test: &Test,
    isa: &dyn Isa,
    src: &SourceRef<'_>,
    (macros, unroll, register_events): (Option<(&str, &str)>, usize, bool),
    deadline: Deadline,
) -> Result<Events, Diag> {
    if register_events && !isa.register_events() {
        return Err(Diag::file(
            src.file,
            format!(
                "unsupported: the model computes dependencies from register events (`catdep`), which litsat builds for AArch64 only, not {}",
                isa.name()
            ),
        ));
    }
    let mut code = match isa.lower(test, src, macros, unroll) {
        Some(code) => code?,
        None => code::parse_cells(test, isa, src)?,
    };
    code::check_names(test, &code, src)?;
    let normalised;
    let test = match crate::variant::holds(&test.variants, "ifetch") {
        true => {
            normalised = ifetch::normalise(test, &code, register_events, src)?;
            &normalised
        }
        false => test,
    };
    let labels = code::resolve_flow(test, isa, &mut code, src)?;
    let code = code::unrolled(test, isa, code, unroll, src)?;
    deadline.check(src.file)?;
    match labels {
        // The exported labels' locations, initialised with their instructions.
        Some(items) if !items.is_empty() => {
            let mut test = test.clone();
            test.init.extend(items);
            interp::interpret(&test, &code, isa, src, register_events, deadline)
        }
        _ => interp::interpret(test, &code, isa, src, register_events, deadline),
    }
}
