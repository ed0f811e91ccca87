//! The event structure of a test: what every candidate execution shares.
//!
//! Threads are interpreted once, symbolically: a read's value is a variable
//! ([`VExpr::Read`]), and register contents are expressions over such variables, so the
//! solver decides values through rf while po, locations, dependencies and fences are fixed
//! here.

use crate::diag::{Diag, Pos};
use crate::isa::{Addr, BinOp, Isa, Op, Reg, Src};
use crate::litmus::{Loc, Test, Val};
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub type Eid = usize;
pub type ValId = usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Int(i64),
    /// The address of location `locs[i]`.
    Addr(usize),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VExpr {
    Const(Value),
    /// The value read by a read event.
    Read(Eid),
    Bin(BinOp, ValId, ValId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Read,
    Write,
    Fence,
}

#[derive(Clone, Debug)]
pub struct Event {
    /// `None` for initial writes.
    pub thread: Option<usize>,
    /// Index of the instruction within its thread: po compares these.
    pub instr: usize,
    pub kind: Kind,
    pub loc: Option<usize>,
    /// The value written, or the read's own variable.
    pub val: ValId,
    /// Architecture sets the event belongs to (`MFENCE`, `Fence.rw.rw`, …).
    pub tags: Vec<String>,
    /// The instruction's text, for explanations and graphs.
    pub text: String,
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
    /// Set names the ISA may use; models see unused ones as empty.
    pub known_sets: Vec<String>,
}

impl Events {
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
    fn bin(&mut self, op: BinOp, a: ValId, b: ValId) -> ValId {
        if a == b && matches!(op, BinOp::Xor | BinOp::Sub) {
            return self.constant(Value::Int(0));
        }
        if let (VExpr::Const(x), VExpr::Const(y)) = (&self.vals[a], &self.vals[b])
            && let Some(v) = apply(op, *x, *y)
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
        }
    }

    pub fn is_init(&self, e: Eid) -> bool {
        self.events[e].thread.is_none()
    }
}

/// Concrete semantics of [`BinOp`] on values; `None` for arithmetic on addresses.
pub fn apply(op: BinOp, x: Value, y: Value) -> Option<Value> {
    match (x, y) {
        (Value::Int(a), Value::Int(b)) => Some(Value::Int(match op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Xor => a ^ b,
            BinOp::And => a & b,
            BinOp::Or => a | b,
        })),
        (Value::Addr(l), Value::Int(0)) | (Value::Int(0), Value::Addr(l))
            if matches!(op, BinOp::Add | BinOp::Or | BinOp::Xor) =>
        {
            Some(Value::Addr(l))
        }
        _ => None,
    }
}

/// The register contents during interpretation: a value and the reads it depends on.
#[derive(Clone)]
struct Content {
    val: ValId,
    deps: BTreeSet<Eid>,
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

/// Strips a leading `LABEL:` from a cell.
fn strip_label(s: &str) -> (&str, usize) {
    if let Some(k) = s.find(':') {
        let lab = &s[..k];
        if !lab.is_empty()
            && lab.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !lab.chars().all(|c| c.is_ascii_digit())
        {
            let rest = &s[k + 1..];
            let skipped = k + 1 + (rest.len() - rest.trim_start().len());
            return (rest.trim_start(), skipped);
        }
    }
    (s, 0)
}

/// Parses every instruction and interprets the threads into an event structure.
pub fn build(test: &Test, isa: &dyn Isa, src: &SourceRef<'_>) -> Result<Events, Diag> {
    // Parse all code first: locations named by instructions must be known before values.
    let mut code: Vec<Vec<(usize, Vec<Op>, String)>> = Vec::new();
    for th in &test.threads {
        let mut ops = Vec::new();
        for (k, cell) in th.cells.iter().enumerate() {
            let (text, skip) = strip_label(&cell.text);
            if text.is_empty() {
                continue;
            }
            let parsed = isa
                .parse(text)
                .map_err(|e| src.err(Pos(cell.pos.0 + skip + e.offset), e.message))?;
            ops.push((k, parsed, text.to_string()));
        }
        code.push(ops);
    }

    let mut names: BTreeSet<String> = BTreeSet::new();
    for it in &test.init {
        if let Loc::Mem(x) = &it.loc {
            names.insert(x.clone());
        }
        if let Val::Sym(s) = &it.value {
            names.insert(s.clone());
        }
    }
    for ops in &code {
        for (_, instr, _) in ops {
            for op in instr {
                match op {
                    Op::Load {
                        addr: Addr::Sym(x), ..
                    }
                    | Op::Store {
                        addr: Addr::Sym(x), ..
                    } => {
                        names.insert(x.clone());
                    }
                    _ => {}
                }
                if let Op::Store {
                    src: Src::Addr(x), ..
                }
                | Op::Mov {
                    src: Src::Addr(x), ..
                } = op
                {
                    names.insert(x.clone());
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
        known_sets: isa.known_sets().iter().map(|s| s.to_string()).collect(),
    };

    // Initial writes, one per location.
    for l in 0..ev.locs.len() {
        let mut v = Value::Int(0);
        for it in &test.init {
            if it.loc == Loc::Mem(ev.locs[l].clone()) {
                v = ev
                    .value_of(&it.value)
                    .ok_or_else(|| src.err(it.pos, "unknown location in initial value"))?;
            }
        }
        let val = ev.constant(v);
        ev.events.push(Event {
            thread: None,
            instr: 0,
            kind: Kind::Write,
            loc: Some(l),
            val,
            tags: vec![],
            text: String::new(),
        });
    }

    let zero = isa.zero_reg();
    for (ti, th) in test.threads.iter().enumerate() {
        let mut regs: HashMap<Reg, Content> = HashMap::new();
        for it in &test.init {
            if let Loc::Reg(t, r) = &it.loc
                && *t == th.id
            {
                let v = ev
                    .value_of(&it.value)
                    .ok_or_else(|| src.err(it.pos, "unknown location in initial value"))?;
                let val = ev.constant(v);
                regs.insert(
                    r.clone(),
                    Content {
                        val,
                        deps: BTreeSet::new(),
                    },
                );
            }
        }
        let zero_val = ev.constant(Value::Int(0));
        for (instr_idx, (cell_idx, ops, text)) in code[ti].iter().enumerate() {
            let pos = th.cells[*cell_idx].pos;
            let read_src =
                |regs: &HashMap<Reg, Content>, ev: &mut Events, s: &Src| -> Result<Content, Diag> {
                    Ok(match s {
                        Src::Reg(r) if Some(r.as_str()) == zero => Content {
                            val: zero_val,
                            deps: BTreeSet::new(),
                        },
                        Src::Reg(r) => regs.get(r).cloned().unwrap_or(Content {
                            val: zero_val,
                            deps: BTreeSet::new(),
                        }),
                        Src::Imm(i) => Content {
                            val: ev.constant(Value::Int(*i)),
                            deps: BTreeSet::new(),
                        },
                        Src::Addr(x) => {
                            let l = ev
                                .loc_index(x)
                                .ok_or_else(|| src.err(pos, format!("unknown location '{x}'")))?;
                            Content {
                                val: ev.constant(Value::Addr(l)),
                                deps: BTreeSet::new(),
                            }
                        }
                    })
                };
            let resolve = |regs: &HashMap<Reg, Content>,
                           ev: &Events,
                           a: &Addr|
             -> Result<(usize, BTreeSet<Eid>), Diag> {
                match a {
                    Addr::Sym(x) => Ok((
                        ev.loc_index(x)
                            .ok_or_else(|| src.err(pos, format!("unknown location '{x}'")))?,
                        BTreeSet::new(),
                    )),
                    Addr::Reg(r, off) => {
                        let c = regs.get(r).ok_or_else(|| {
                            src.err(pos, format!("register '{r}' holds no address"))
                        })?;
                        match (&ev.vals[c.val], off) {
                            (VExpr::Const(Value::Addr(l)), 0) => Ok((*l, c.deps.clone())),
                            (VExpr::Const(Value::Addr(_)), _) => Err(src.err(
                                pos,
                                "unsupported: memory offsets (arrays and mixed-size accesses)",
                            )),
                            _ => Err(src.err(
                                pos,
                                format!(
                                    "unsupported: address in '{r}' is computed from a loaded value"
                                ),
                            )),
                        }
                    }
                }
            };
            let set_reg = |regs: &mut HashMap<Reg, Content>, r: &Reg, c: Content| {
                if Some(r.as_str()) != zero {
                    regs.insert(r.clone(), c);
                }
            };
            for op in ops {
                let id = ev.events.len();
                match op {
                    Op::Load { dst, addr, tags } => {
                        let (l, adeps) = resolve(&regs, &ev, addr)?;
                        let val = ev.intern(VExpr::Read(id));
                        ev.events.push(Event {
                            thread: Some(th.id),
                            instr: instr_idx,
                            kind: Kind::Read,
                            loc: Some(l),
                            val,
                            tags: tags.clone(),
                            text: text.clone(),
                        });
                        ev.addr.extend(adeps.iter().map(|&d| (d, id)));
                        set_reg(
                            &mut regs,
                            dst,
                            Content {
                                val,
                                deps: BTreeSet::from([id]),
                            },
                        );
                    }
                    Op::Store { addr, src: s, tags } => {
                        let (l, adeps) = resolve(&regs, &ev, addr)?;
                        let c = read_src(&regs, &mut ev, s)?;
                        ev.events.push(Event {
                            thread: Some(th.id),
                            instr: instr_idx,
                            kind: Kind::Write,
                            loc: Some(l),
                            val: c.val,
                            tags: tags.clone(),
                            text: text.clone(),
                        });
                        ev.addr.extend(adeps.iter().map(|&d| (d, id)));
                        ev.data.extend(c.deps.iter().map(|&d| (d, id)));
                    }
                    Op::Fence { tags } => {
                        ev.events.push(Event {
                            thread: Some(th.id),
                            instr: instr_idx,
                            kind: Kind::Fence,
                            loc: None,
                            val: zero_val,
                            tags: tags.clone(),
                            text: text.clone(),
                        });
                    }
                    Op::Mov { dst, src: s } => {
                        let c = read_src(&regs, &mut ev, s)?;
                        set_reg(&mut regs, dst, c);
                    }
                    Op::Bin { dst, op, a, b } => {
                        let ca = read_src(&regs, &mut ev, a)?;
                        let cb = read_src(&regs, &mut ev, b)?;
                        let val = ev.bin(*op, ca.val, cb.val);
                        let deps = ca.deps.union(&cb.deps).copied().collect();
                        set_reg(&mut regs, dst, Content { val, deps });
                    }
                }
            }
        }
        for (r, c) in regs {
            ev.final_regs.insert((th.id, r), c.val);
        }
    }
    Ok(ev)
}
