//! The event structure of a test: what every candidate execution shares.
//!
//! Threads are interpreted once, symbolically: a read's value is a variable
//! ([`VExpr::Read`]), and register contents are expressions over such variables, so the
//! solver decides values through rf while po, locations, dependencies and fences are fixed
//! here.

use crate::diag::{Diag, Pos};
use crate::isa::{Addr, BinOp, Isa, LockOp, Op, Operand, Reg, Src};
use crate::litmus::{Loc, Test, Val, code_label, elem_name};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

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
    /// A conditional branch: herd's `B` events, which ctrl dependencies go through.
    Branch,
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
    pub tags: Vec<String>,
    /// Sets the event belongs to where a 0/1 value is 1 ([`Op::TagIf`]).
    pub tags_if: Vec<(String, ValId)>,
    /// The instruction's text, for explanations and graphs.
    pub text: String,
    /// 1 when the event happens: a 0/1-valued expression over values read (the path
    /// condition of its instruction, and the success of a store-conditional).
    pub guard: ValId,
    /// For herd's C lock events, which one.
    pub lock: Option<LockRole>,
}

impl Event {
    /// In herd's built-in set R: a read that is no lock event.
    pub fn is_read(&self) -> bool {
        self.kind == Kind::Read && self.lock.is_none()
    }
    /// In herd's built-in set W.
    pub fn is_write(&self) -> bool {
        self.kind == Kind::Write && self.lock.is_none()
    }
    /// Among the writes that the built-in co orders: W and lock acquisitions' writes.
    pub fn in_co(&self) -> bool {
        self.is_write() || self.lock == Some(LockRole::Lkw)
    }
    /// Whether the event has a location (memory accesses, lock events, markers).
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
    val_ids: HashMap<VExpr, ValId>,
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
    pub known_sets: Vec<String>,
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
    /// Read and write pairs that the model sees as one event ([`Op::OneEvent`]).
    pub one_event: Vec<(Eid, Eid)>,
    /// Pairs `(i, j)`, `i` earlier, from different operands of one C operator: po does
    /// not order them ([`Op::Operand`]).
    pub unsequenced: BTreeSet<(Eid, Eid)>,
    /// The arrays: which addresses an offset from another names.
    pub layout: Layout,
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

    /// Whether po orders event `i` before event `j`.
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

    pub fn intern(&mut self, e: VExpr) -> ValId {
        if let Some(&id) = self.val_ids.get(&e) {
            return id;
        }
        let id = self.vals.len();
        self.vals.push(e.clone());
        self.val_ids.insert(e, id);
        id
    }

    pub fn constant(&mut self, v: Value) -> ValId {
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
            && let Some(v) = self.layout.apply(op, *x, *y)
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

    pub fn and(&mut self, a: ValId, b: ValId) -> ValId {
        if self.is_const(a, 0) || self.is_const(b, 0) {
            return self.constant(Value::Int(0));
        }
        if self.is_const(a, 1) {
            return b;
        }
        if self.is_const(b, 1) {
            return a;
        }
        self.intern(VExpr::Bin(BinOp::And, a, b))
    }

    pub fn or(&mut self, a: ValId, b: ValId) -> ValId {
        if self.is_const(a, 1) || self.is_const(b, 1) {
            return self.constant(Value::Int(1));
        }
        if self.is_const(a, 0) {
            return b;
        }
        if self.is_const(b, 0) {
            return a;
        }
        self.intern(VExpr::Bin(BinOp::Or, a, b))
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
        self.locs.iter().position(|l| l == name)
    }

    /// Converts a test's value (a number or a symbol) into a [`Value`].
    pub fn value_of(&self, v: &Val) -> Option<Value> {
        match v {
            Val::Int(i) => Some(Value::Int(*i)),
            Val::Sym(s) => self.loc_index(s).map(Value::Addr),
        }
    }

    /// herd's way of printing a value.
    pub fn show_value(&self, v: Value) -> Val {
        match v {
            Value::Int(i) => Val::Int(i),
            Value::Addr(l) => Val::Sym(self.locs[l].clone()),
            Value::Sym => Val::Sym(SYM_NAME.into()),
        }
    }

    /// Why `x op y` has no value, for a diagnostic: arithmetic on an address that names
    /// no array element.
    pub fn arith_message(&self, op: BinOp, x: Value, y: Value) -> String {
        match (op, x, y) {
            (BinOp::Add, Value::Addr(l), Value::Int(k)) | (BinOp::Add, Value::Int(k), Value::Addr(l)) => {
                self.offset_message(l, k)
            }
            (BinOp::Sub, Value::Addr(l), Value::Int(k)) => self.offset_message(l, k.wrapping_neg()),
            _ => "unsupported: arithmetic on an address".into(),
        }
    }

    /// Why location `l` plus `bytes` names no location, for a diagnostic.
    fn offset_message(&self, l: usize, bytes: i64) -> String {
        let x = &self.locs[l];
        match self.layout.offset(l, bytes) {
            Ok(_) => format!("address {x}{bytes:+} is an array element"),
            Err(OffsetError::NoArray) => {
                format!("unsupported: offset {bytes} from '{x}', which is no array element (mixed-size access)")
            }
            Err(OffsetError::Misaligned(size)) => {
                format!(
                    "unsupported: address {x}{bytes:+} is not at an element of its array (elements of {size} bytes)"
                )
            }
            Err(OffsetError::Outside(n)) => {
                format!("unsupported: address {x}{bytes:+} is outside its array ({n} elements)")
            }
        }
    }

    pub fn is_init(&self, e: Eid) -> bool {
        self.events[e].thread.is_none()
    }
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

/// Where the test's arrays lie: each element is a location of its own, and an address
/// plus a byte offset that is a multiple of the element size names another element of
/// the same array. Addresses outside every array admit no arithmetic.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Each array's elements (locations, in order) and element size in bytes.
    arrays: Vec<(Vec<usize>, i64)>,
    /// For a location that is an array element: its array and its index there.
    elems: HashMap<usize, (usize, usize)>,
    /// Locations that stand for code, not memory: instructions (`NOP`, `instr:"…"`) and
    /// labels (`P0:foo`) given as values. Tests copy and compare them; a word load's
    /// extension keeps them (herd's 64-bit PPC loads a stored instruction with `lwz`),
    /// where on an address it is arithmetic that herd refuses.
    code: HashSet<usize>,
}

/// Why an address plus an offset names no location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OffsetError {
    /// The location is no array element (a mixed-size access, herd's byte offsets).
    NoArray,
    /// Not a multiple of the element size, which is given.
    Misaligned(i64),
    /// Past either end of the array, whose length is given.
    Outside(usize),
}

impl Layout {
    /// The test's arrays and code values, over the locations `ev` names.
    fn of(test: &Test, ev: &Events, src: &SourceRef<'_>) -> Result<Layout, Diag> {
        let mut layout = Layout::default();
        for a in &test.arrays {
            let elems: Option<Vec<usize>> = (0..a.len).map(|i| ev.loc_index(&elem_name(&a.name, i))).collect();
            let elems = elems.ok_or_else(|| src.err(a.pos, "array element without a location"))?;
            let k = layout.arrays.len();
            for (i, &l) in elems.iter().enumerate() {
                layout.elems.insert(l, (k, i));
            }
            layout.arrays.push((elems, a.size as i64));
        }
        for it in &test.init {
            if let Val::Sym(v) = &it.value
                && (is_code_value(v) || it.ty.as_deref() == Some("ins_t"))
                && let Some(i) = ev.loc_index(v)
            {
                layout.code.insert(i);
            }
        }
        Ok(layout)
    }

    /// The location `bytes` bytes after location `l`.
    pub fn offset(&self, l: usize, bytes: i64) -> Result<usize, OffsetError> {
        if bytes == 0 {
            return Ok(l);
        }
        let &(a, i) = self.elems.get(&l).ok_or(OffsetError::NoArray)?;
        let (elems, size) = &self.arrays[a];
        if bytes % size != 0 {
            return Err(OffsetError::Misaligned(*size));
        }
        let j = (i as i64).checked_add(bytes / size).filter(|j| (0..elems.len() as i64).contains(j));
        j.map(|j| elems[j as usize]).ok_or(OffsetError::Outside(elems.len()))
    }

    /// The element size of the array location `l` belongs to, if any.
    pub fn elem_size(&self, l: usize) -> Option<i64> {
        self.elems.get(&l).map(|&(a, _)| self.arrays[a].1)
    }

    /// Whether an access `width` bytes wide (`None`: of a width the ISA does not say)
    /// may be made at a solver-decided address: only where every array's elements are
    /// that wide, so that it cannot be a mixed-size access to an element.
    pub fn fits_any(&self, width: Option<usize>) -> bool {
        self.arrays.iter().all(|(_, size)| width.is_some_and(|w| w as i64 == *size))
    }

    /// Whether location `l` stands for an instruction or a label given as a value.
    pub fn is_code(&self, l: usize) -> bool {
        self.code.contains(&l)
    }

    /// [`apply`], with an address plus or minus a constant naming another element, and a
    /// word or wider extension keeping an instruction or label value.
    pub fn apply(&self, op: BinOp, x: Value, y: Value) -> Option<Value> {
        match (op, x, y) {
            (BinOp::Sext | BinOp::Zext, Value::Addr(l), Value::Int(c)) if c >= 32 && self.is_code(l) => {
                Some(Value::Addr(l))
            }
            (BinOp::Add, Value::Addr(l), Value::Int(c)) | (BinOp::Add, Value::Int(c), Value::Addr(l)) => {
                self.offset(l, c).ok().map(Value::Addr)
            }
            (BinOp::Sub, Value::Addr(l), Value::Int(c)) => self.offset(l, c.checked_neg()?).ok().map(Value::Addr),
            _ => apply(op, x, y),
        }
    }
}

/// Concrete semantics of [`BinOp`] on values; `None` for arithmetic on addresses (see
/// [`Layout::apply`] for array elements).
pub fn apply(op: BinOp, x: Value, y: Value) -> Option<Value> {
    let b = |c: bool| Some(Value::Int(c as i64));
    if x == Value::Sym || y == Value::Sym {
        return None;
    }
    match (op, x, y) {
        (BinOp::Eq, _, _) => return b(x == y),
        (BinOp::Ne, _, _) => return b(x != y),
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
            BinOp::Lt => (a < c) as i64,
            BinOp::Ge => (a >= c) as i64,
            BinOp::Gt => (a > c) as i64,
            BinOp::Le => (a <= c) as i64,
            BinOp::Ltu => ((a as u64) < (c as u64)) as i64,
            BinOp::Geu => ((a as u64) >= (c as u64)) as i64,
            BinOp::Sext if (1..64).contains(&c) => (a << (64 - c)) >> (64 - c),
            BinOp::Zext if (1..64).contains(&c) => a & ((1i64 << c) - 1),
            BinOp::Sext | BinOp::Zext => a,
            BinOp::Eq | BinOp::Ne => unreachable!("handled above"),
        })),
        (Value::Addr(l), Value::Int(0)) | (Value::Int(0), Value::Addr(l))
            if matches!(op, BinOp::Add | BinOp::Or | BinOp::Xor) =>
        {
            Some(Value::Addr(l))
        }
        _ => None,
    }
}

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

/// Splits a leading `LABEL:` off a cell.
fn split_label(s: &str) -> (Option<&str>, &str, usize) {
    if let Some(k) = s.find(':') {
        let lab = s[..k].trim();
        if !lab.is_empty()
            && lab.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !lab.chars().all(|c| c.is_ascii_digit())
        {
            let rest = &s[k + 1..];
            let skipped = k + 1 + (rest.len() - rest.trim_start().len());
            return (Some(lab), rest.trim_start(), skipped);
        }
    }
    (None, s, 0)
}

/// Where [`Op::Exit`] paths wait for the thread's end: no label is spelt so.
const EXIT: &str = "%exit";

/// One parsed instruction of a thread: what an ISA plug-in (or a language's lowering)
/// hands the interpreter.
pub struct Instr {
    pub label: Option<String>,
    pub ops: Vec<Op>,
    pub text: String,
    pub pos: Pos,
}

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

/// Parses every instruction and interprets the threads into an event structure. `macros`
/// is the model's macro file `(path, text)`, for languages that have macros (C); loops
/// are unrolled `unroll` times (herd's `-unroll`).
pub fn build(
    test: &Test,
    isa: &dyn Isa,
    src: &SourceRef<'_>,
    macros: Option<(&str, &str)>,
    unroll: usize,
) -> Result<Events, Diag> {
    let code = match isa.lower(test, src, macros, unroll) {
        Some(code) => code?,
        None => parse_cells(test, isa, src)?,
    };
    let mut code = code;
    resolve_jumps(test, &mut code, src)?;
    let mut flat = Vec::with_capacity(code.len());
    for th in code {
        let unrolled = crate::unroll::thread(th, unroll).map_err(|n| {
            Diag::limit(src.file, format!("limit: unrolling the loops gives {n} instructions in one thread"))
        })?;
        flat.push(unrolled);
    }
    interpret(test, &flat, isa, src)
}

/// Makes each computed branch ([`Op::Jump`]) a branch to the label its register holds: the
/// initial state binds the register to a code label of the same thread (`P0:foo`), and no
/// instruction of the thread writes it, so the target is known before interpretation (and
/// before unrolling, which reads branch targets).
fn resolve_jumps(test: &Test, code: &mut [Vec<Instr>], src: &SourceRef<'_>) -> Result<(), Diag> {
    for (th, instrs) in test.threads.iter().zip(code.iter_mut()) {
        let written: BTreeSet<Reg> = instrs.iter().flat_map(|i| i.ops.iter()).filter_map(written_reg).collect();
        let labels: BTreeSet<&str> = instrs.iter().filter_map(|i| i.label.as_deref()).collect();
        let mut targets: Vec<(usize, usize, String)> = Vec::new();
        for (k, ins) in instrs.iter().enumerate() {
            for (j, op) in ins.ops.iter().enumerate() {
                let Op::Jump(r) = op else { continue };
                let refuse = |why: &str| src.err(ins.pos, format!("unsupported: computed branch on '{r}': {why}"));
                let bound = test.init.iter().find_map(|it| match (&it.loc, &it.value) {
                    (Loc::Reg(t, x), Val::Sym(v)) if *t == th.id && x == r => Some(v.as_str()),
                    _ => None,
                });
                let label = bound.and_then(code_label).filter(|&(t, _)| t == th.id).map(|(_, l)| l);
                let Some(label) = label else {
                    return Err(refuse("the initial state binds it to no code label of this thread"));
                };
                if written.contains(r) {
                    return Err(refuse("the thread writes it, so its label is not fixed"));
                }
                if !labels.contains(label) {
                    return Err(refuse(&format!("no label '{label}' in this thread")));
                }
                targets.push((k, j, label.to_string()));
            }
        }
        for (k, j, target) in targets {
            instrs[k].ops[j] = Op::Branch { cond: None, target };
        }
    }
    Ok(())
}

/// The register an op writes, if any.
fn written_reg(op: &Op) -> Option<Reg> {
    match op {
        Op::Load { dst, .. }
        | Op::Mov { dst, .. }
        | Op::Bin { dst, .. }
        | Op::Select { dst, .. }
        | Op::Choose { dst, .. } => Some(dst.clone()),
        Op::StoreCond { status, .. } => status.clone(),
        Op::Lock { dst, .. } => dst.clone(),
        _ => None,
    }
}

/// Each cell of the code table through the ISA's instruction parser.
fn parse_cells(test: &Test, isa: &dyn Isa, src: &SourceRef<'_>) -> Result<Vec<Vec<Instr>>, Diag> {
    let mut code: Vec<Vec<Instr>> = Vec::new();
    for th in &test.threads {
        let mut instrs = Vec::new();
        for cell in &th.cells {
            let (label, text, skip) = split_label(&cell.text);
            let pos = Pos(cell.pos.0 + skip);
            if text.is_empty() {
                if let Some(l) = label {
                    instrs.push(Instr { label: Some(l.to_string()), ops: Vec::new(), text: String::new(), pos });
                }
                continue;
            }
            let ops = isa.parse(text).map_err(|e| src.err(Pos(pos.0 + e.offset), e.message))?;
            instrs.push(Instr { label: label.map(str::to_string), ops, text: text.to_string(), pos });
        }
        code.push(instrs);
    }
    Ok(code)
}

/// Whether an initial value names code rather than memory: an instruction
/// (`instr:"add r1,r1,r1"`) or a thread's label (`P0:foo`).
fn is_code_value(v: &str) -> bool {
    v.starts_with("instr:") || code_label(v).is_some()
}

/// Interprets the threads' instructions into an event structure.
fn interpret(test: &Test, code: &[Vec<Instr>], isa: &dyn Isa, src: &SourceRef<'_>) -> Result<Events, Diag> {
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
