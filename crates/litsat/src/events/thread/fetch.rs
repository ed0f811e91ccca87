//! herd's instruction fetch under `-variant ifetch` ([`crate::events::ifetch`] rewrites
//! the code into these ops): the fetch is a read of the instruction's code location, the
//! decode a predicated commit per instruction it may have read, and the chosen
//! instruction's events are of the fetch's instance, controlled by that commit.

use super::super::paths::{Content, PathState, always};
use super::Thread;
use crate::diag::Diag;
use crate::events::{Eid, Kind, VExpr, ValId, Value};
use crate::isa::{BinOp, Reg};

/// A decode's case: an instruction value's name, and its code's label (or why herd
/// cannot run it).
type Case = (String, String);

impl<'a> Thread<'a> {
    /// The fetch ([`crate::isa::Op::Fetch`]): a read of code location `loc` into `dst`,
    /// in herd's `NExp` (an implicit access), its value the solver's through rf.
    pub(super) fn fetch(&mut self, dst: &'a Reg, loc: &str) -> Result<(), Diag> {
        let l = self.loc_named(loc)?;
        let id = self.ev.events.len();
        let val = self.ev.intern(VExpr::Read(id));
        let e = self.event(Kind::Read, 0, (Some(l), None), val, vec!["NExp".into()], self.cur.guard);
        self.push(e);
        let deps = always(self.ev, [id]);
        self.set_reg(dst, Content { val, deps, src: vec![id] });
        Ok(())
    }

    /// The decode ([`crate::isa::Op::Decode`]): where the fetched value `src` is the
    /// instruction named by a case, a commit fed by the fetch and the path to that case's
    /// code; where it is one herd cannot run here, a commit whose execution fails
    /// ([`crate::events::Events::unrunnable`]); where it is none of them, a commit and the path to
    /// `other`. No path falls through.
    pub(super) fn decode(
        &mut self,
        src: &Reg,
        (cases, refused): (&'a [Case], &'a [Case]),
        other: &'a str,
    ) -> Result<(), Diag> {
        self.flush_reg_writes();
        let guard = self.cur.guard;
        let v = self.reg(src);
        let mut none = guard;
        for (k, (name, target)) in cases.iter().chain(refused).enumerate() {
            let c = self.loc_named(name)?;
            let c = self.ev.constant(Value::Addr(c));
            let eq = self.ev.bin(BinOp::Eq, v.val, c);
            let g = self.ev.and(guard, eq);
            let ne = self.ev.not(eq);
            none = self.ev.and(none, ne);
            match k < cases.len() {
                true => {
                    self.commit_to(target, g, &v.src);
                }
                false => {
                    // `target` is why: the path ends, and the execution fails.
                    let p = self.commit_to(super::EXIT, g, &v.src);
                    self.ev.unrunnable.push((p, target.clone()));
                    self.ev.access_at.insert(p, self.at.pos);
                }
            }
        }
        self.commit_to(other, none, &v.src);
        self.cur.guard = self.zero;
        Ok(())
    }

    /// herd's `decode` commit where `g` holds, fed by `src` (the fetch), and the path
    /// under `g` to `target`, whose code is of this instance.
    fn commit_to(&mut self, target: &'a str, g: ValId, src: &[Eid]) -> Eid {
        let e = self.event(Kind::Branch, 0, (None, None), self.zero, vec!["PRED".into()], g);
        let p = self.push(e);
        self.iico_in(src, p, "");
        self.decoded.insert(target, (self.at.po, p));
        let regs = self.cur.regs.clone();
        self.pending.entry(target).or_default().push(PathState { guard: g, regs });
        p
    }

    /// Under `-variant ifetch`, a store to code location `l` must find an instruction
    /// there: a label on none (at the code's end) is herd's error.
    pub(super) fn overwritable(&self, l: usize) -> Result<(), Diag> {
        let name = &self.ev.locs[l];
        // The location's initial write is the `l`-th event.
        let holds_code = matches!(self.ev.vals[self.ev.events[l].val], VExpr::Const(Value::Addr(_)));
        match crate::litmus::code_label(name) {
            Some((_, label)) if !holds_code => {
                Err(self.err(format!("a store to '{name}', a label on no instruction (herd: \"Final label {label} cannot be overwritten\")")))
            }
            _ => Ok(()),
        }
    }

    /// The decoded instruction's first events (those no other of its events precedes in
    /// iico) controlled by its decode commit `c` (herd's iico_ctrl into the semantics it
    /// chose).
    pub(super) fn controlled_by(&mut self, c: Eid) {
        let first = self.at.first;
        let ev = &self.ev;
        let inner = |s: &std::collections::BTreeSet<(Eid, Eid)>| -> Vec<Eid> {
            s.range((first, 0)..).map(|&(_, b)| b).collect::<Vec<Eid>>()
        };
        let mut after = inner(&ev.iico_data);
        after.extend(inner(&ev.iico_ctrl));
        after.extend(inner(&ev.iico_order));
        let minimal: Vec<Eid> = (first..ev.events.len()).filter(|e| !after.contains(e)).collect();
        self.ev.iico_ctrl.extend(minimal.into_iter().map(|e| (c, e)));
    }
}
