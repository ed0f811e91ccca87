//! herd's translation-table walk (`-variant vmsa`, AArch64Sem's `check_ptw`), without
//! hardware management of the flags: an access through virtual address `x` first reads
//! the entry `PTE(x)` (an implicit read), then, through a commit (herd's branch on the
//! entry), either accesses the physical page the entry maps to, or faults, where the
//! entry is invalid, not accessed, not dirty for a write, or closed to EL0, and the
//! thread ends there (herd's default `fatal` fault handling).
//!
//! Events: the entry read (in `NExp`, the implicit accesses) gets iico_data from the
//! address's registers and gives it to both commits; the access (in `PA`) gets iico_ctrl
//! from its commit, the fault event and `ELR_EL1`'s write from theirs.

use super::super::pte;
use super::{Access, Thread};
use crate::diag::Diag;
use crate::events::{BinOp, Eid, Kind, Tag, VExpr, ValId, Value};
use crate::isa::{Addr, Op};

/// Which way an access goes, for the flags it needs and the fault it raises.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Dir {
    R,
    W,
}

/// An access after translation: where it goes, and the commit it depends on.
pub(super) struct Translated {
    pub access: Access,
    pub commit: Option<Eid>,
    /// The sets the access is in, its instruction's and its own (`PA`); empty outside
    /// vmsa, where the instruction's are the access's.
    pub tags: Vec<Tag>,
}

impl Thread<'_> {
    /// The access `a` under vmsa: through a virtual address, the walk and the physical
    /// access; at an entry, the entry itself (from EL1 only); refused elsewhere.
    pub(super) fn translate(&mut self, a: Access, dir: Dir) -> Result<Translated, Diag> {
        let l = match self.ev.vals[a.val] {
            VExpr::Const(Value::Addr(l)) => l,
            _ => return Err(self.err("unsupported: under vmsa, an access through a computed address")),
        };
        if self.ev.is_entry(l) {
            if self.at_el0() {
                return Err(self.err("unsupported: under vmsa, an access to a page-table entry from EL0"));
            }
            if dir == Dir::R {
                return Err(self.err("unsupported: under vmsa, an explicit read of a page-table entry"));
            }
            return Ok(Translated { access: a, commit: None, tags: Vec::new() });
        }
        if self.own_events().any(|e| matches!(self.ev.events[e].kind, Kind::Read | Kind::Write)) {
            return Err(self.err("unsupported: under vmsa, an instruction with more than one access"));
        }
        let entry = self.ev.entry_of(l).ok_or_else(|| self.err("no page-table entry for this location"))?;
        self.walk(a, entry, l, dir)
    }

    /// Whether this thread runs at EL0.
    fn at_el0(&self) -> bool {
        self.ev.vmsa.as_ref().is_some_and(|v| v.el0.contains(&self.id))
    }

    /// The walk of an access at virtual location `virt` through entry location `entry`.
    fn walk(&mut self, a: Access, entry: usize, virt: usize, dir: Dir) -> Result<Translated, Diag> {
        let guard = self.cur.guard;
        let id = self.ev.events.len();
        let pte_val = self.ev.intern(VExpr::Read(id));
        let e = self.event(Kind::Read, 0, (Some(entry), None), pte_val, vec!["NExp".into()], guard);
        self.push_access(e, &a.deps);
        self.iico_in(&a.src, id, "ADDR");
        self.ev.mark_entry(id);
        let mut need = pte::VALID | pte::AF;
        if dir == Dir::W {
            need |= pte::DB;
        }
        if self.at_el0() {
            need |= pte::EL0;
        }
        let ok = self.has(pte_val, need);
        let fault_guard = {
            let no = self.ev.not(ok);
            self.ev.and(guard, no)
        };
        let ok_guard = self.ev.and(guard, ok);
        if !self.ev.is_const(fault_guard, 0) {
            self.fault_path(id, pte_val, fault_guard, (dir, virt))?;
        }
        self.cur.guard = ok_guard;
        let commit = self.commit(id, ok_guard);
        let oa = {
            let zero = self.zero;
            self.ev.bin(BinOp::PteOa, pte_val, zero)
        };
        let mut deps = a.deps.clone();
        deps.insert(id, self.one());
        let mut src = a.src.clone();
        src.push(id);
        let access = Access { val: oa, place: self.ev.place(oa), deps, src };
        Ok(Translated { access, commit: Some(commit), tags: vec!["PA".into()] })
    }

    /// The constant 1.
    fn one(&mut self) -> ValId {
        self.ev.constant(Value::Int(1))
    }

    /// 1 where entry value `v` has every flag of `flags`.
    fn has(&mut self, v: ValId, flags: u8) -> ValId {
        let m = self.ev.constant(Value::Int(i64::from(flags)));
        self.ev.bin(BinOp::PteAll, v, m)
    }

    /// herd's commit on the entry read `read`, where `guard` holds.
    fn commit(&mut self, read: Eid, guard: ValId) -> Eid {
        let e = self.event(Kind::Branch, 0, (None, None), self.zero, vec!["PRED".into()], guard);
        self.ev.events.push(e);
        let b = self.ev.events.len() - 1;
        self.ev.iico_data.insert((read, b));
        b
    }

    /// The faulting path, where `guard` holds: its commit, one fault event per fault
    /// type the entry may give (invalid: Translation; not accessed: AccessFlag; else
    /// Permission), `ELR_EL1`'s write, and the thread's end.
    fn fault_path(&mut self, read: Eid, v: ValId, guard: ValId, (dir, virt): (Dir, usize)) -> Result<(), Diag> {
        let saved = self.cur.regs.clone();
        self.cur.guard = guard;
        let b = self.commit(read, guard);
        let valid = self.has(v, pte::VALID);
        let af = self.has(v, pte::AF);
        let not_valid = self.ev.not(valid);
        let valid_no_af = {
            let no_af = self.ev.not(af);
            self.ev.and(valid, no_af)
        };
        let perm = self.ev.and(valid, af);
        let kinds = [("Translation", not_valid), ("AccessFlag", valid_no_af), ("Permission", perm)];
        let mut code = self.zero;
        for (ftype, when) in kinds {
            let g = self.ev.and(guard, when);
            if self.ev.is_const(g, 0) {
                continue;
            }
            let k = self.fault_event(b, (ftype, dir, virt), g);
            let kv = self.ev.constant(Value::Int(k));
            code = self.ev.ite(when, kv, code);
        }
        if self.regev {
            let w = self.reg_event(Kind::RegWrite, "ELR_EL1", guard);
            self.ev.iico_ctrl.insert((b, w));
        }
        let n = self.regs.number(crate::litmus::FAULT_REG);
        super::put(&mut self.cur.regs, n, super::Content::of(code));
        self.leave_for(super::EXIT);
        self.cur.regs = saved;
        Ok(())
    }

    /// A fault event of type `ftype` where `guard` holds, under commit `b`; the number
    /// its site has in the thread's fault register.
    fn fault_event(&mut self, b: Eid, (ftype, dir, virt): (&'static str, Dir, usize), guard: ValId) -> i64 {
        let side = if dir == Dir::R { "FAULT-RD" } else { "FAULT-WR" };
        let tags: Vec<Tag> =
            ["FAULT", "EXC-ENTRY", "MMU", "D-MMU", ftype, side].into_iter().map(Tag::from).collect();
        let e = self.event(Kind::Fault, 0, (None, None), self.zero, tags, guard);
        self.ev.events.push(e);
        let f = self.ev.events.len() - 1;
        self.ev.iico_ctrl.insert((b, f));
        let labels = self.at_labels();
        let site = crate::litmus::FaultSite {
            thread: self.id,
            labels,
            ftype: format!("D-MMU:{ftype}"),
            loc: Some(self.ev.locs[virt].clone()),
        };
        let sites = &mut self.ev.fault_sites;
        let k = sites.iter().position(|s| *s == site).unwrap_or_else(|| {
            sites.push(site);
            sites.len() - 1
        });
        k as i64 + 1
    }
}

impl<'a> Thread<'a> {
    /// Refuses, under vmsa, the ops whose translation litsat has not built: exclusives,
    /// compare-and-swaps and atomics (herd's walk for these updates or checks the dirty
    /// flag otherwise).
    pub(super) fn vmsa_op_built(&self, op: &Op) -> Result<(), Diag> {
        let what = match op {
            Op::StoreCond { .. } => "a store-exclusive",
            Op::Cas { .. } => "a compare-and-swap",
            Op::Lock { .. } => "a lock operation",
            Op::Load { tags, .. } if tags.iter().any(|t| t == "EX") => "a load-exclusive",
            Op::Load { tags, .. } | Op::Store { tags, .. } if tags.iter().any(|t| t == "X") => "an atomic",
            _ => return Ok(()),
        };
        Err(self.err(format!("unsupported: under vmsa, {what} (its translation is not built)")))
    }

    /// The access `a` as vmsa makes it ([`Thread::translate`]), with the instruction's
    /// sets `tags` and the access's own; unchanged outside vmsa.
    pub(super) fn vmsa_access(&mut self, a: Access, dir: Dir, tags: &[Tag]) -> Result<Translated, Diag> {
        if self.ev.vmsa.is_none() {
            return Ok(Translated { access: a, commit: None, tags: Vec::new() });
        }
        let mut t = self.translate(a, dir)?;
        t.tags.splice(0..0, tags.iter().cloned());
        Ok(t)
    }

    /// After an access's events `ids` are made: the commit controls them, and those at
    /// an entry join the entry's sets.
    pub(super) fn settle(&mut self, ids: &[Eid], commit: Option<Eid>) {
        for &id in ids {
            if let Some(b) = commit {
                self.ev.iico_ctrl.insert((b, id));
            }
            self.ev.mark_entry(id);
        }
    }

    /// A TLB invalidation (`TLBI`, an [`Op::Marker`] in `TLBI`): an event of no location,
    /// with the virtual location whose entry it invalidates, which the register holds
    /// shifted by a page (`LSR X1,X0,#12`); every entry for the `%all` kinds.
    pub(super) fn tlbi(&mut self, addr: &Addr, tags: &[Tag]) -> Result<(), Diag> {
        let all = tags.iter().any(|t| t == "%all");
        let (target, src, deps) = if all {
            (None, Vec::new(), super::Deps::new())
        } else {
            let (v, deps, src) = self.address(addr)?;
            match self.ev.vals[v] {
                VExpr::Const(Value::Tlb(l)) => (Some(l), src, deps),
                _ => return Err(self.err("unsupported: a TLBI whose register holds no page of a location (`LSR Xn,Xm,#12`)")),
            }
        };
        let tags: Vec<Tag> = tags.iter().filter(|t| *t != "%all").cloned().collect();
        let e = self.event(Kind::Fence, 0, (None, None), self.zero, tags, self.cur.guard);
        let id = self.push_access(e, &deps);
        self.iico_in(&src, id, "ADDR");
        if let Some(v) = self.ev.vmsa.as_mut() {
            v.tlbi.push((id, target));
        }
        Ok(())
    }

    /// herd's labels of the current instruction: its own and those of the empty cells
    /// before it, as the source names them (a copy of a loop's code, `crate::unroll`,
    /// names its labels `L0#1`).
    pub(super) fn at_labels(&self) -> Vec<String> {
        let source = |l: &Option<String>| l.as_ref().map(|l| l.split('#').next().unwrap_or(l).to_string());
        let mut out = Vec::new();
        let mut k = self.at.idx;
        out.extend(source(&self.code[k].label));
        while k > 0 && self.code[k - 1].text.is_empty() {
            k -= 1;
            out.extend(source(&self.code[k].label));
        }
        out.sort();
        out.dedup();
        out
    }
}
