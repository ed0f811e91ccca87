//! An access as herd's mixed-size mode makes it (`-variant mixed`): one event per cell
//! it covers, the cells one single-copy-atomic group. Outside that mode an access is one
//! event, made exactly as before.

use super::super::cells::aligned;
use super::super::paths::Deps;
use super::{Access, Thread};
use crate::diag::Diag;
use crate::events::{Eid, Kind, VExpr, ValId, Value};
use crate::isa::{BinOp, Tag};

/// Where an event goes: a fixed location, or an address the solver decides.
type Place = (Option<usize>, Option<ValId>);

impl Thread<'_> {
    /// The places of the cells the current instruction's access at `a` covers, checked
    /// as herd checks a mixed-size access (aligned to its size, within its object).
    fn cell_places(&mut self, a: &Access) -> Result<Vec<Place>, Diag> {
        let Some(cells) = &self.ev.cells else { return Ok(vec![a.place]) };
        let size = cells.size;
        let width = self.at.width.map_or(size, |w| w as i64);
        let n = cells.count(width);
        match a.place {
            (Some(l), _) => {
                let (b, at) = self.ev.layout.base(l);
                let fits = cells.object(&self.ev.locs[b]).is_none_or(|o| aligned(o, at, width));
                let places: Option<Vec<Place>> =
                    (0..n).map(|k| self.ev.layout.offset(l, k * size).ok().map(|c| (Some(c), None))).collect();
                match places {
                    Some(p) if fits => Ok(p),
                    _ => Err(self.unaligned(b, at, width)),
                }
            }
            (None, Some(v)) => Ok((0..n)
                .map(|k| {
                    let off = self.ev.constant(Value::Int(k * size));
                    (None, Some(self.ev.bin(BinOp::Add, v, off)))
                })
                .collect()),
            (None, None) => Ok(vec![a.place]),
        }
    }

    /// herd's refusal of a misaligned or out-of-bounds mixed-size access.
    pub(super) fn unaligned(&self, b: usize, at: i64, width: i64) -> Diag {
        let x = &self.ev.locs[b];
        let at = if at == 0 { x.clone() } else { format!("{x}+{at}") };
        self.err(format!("Unaligned or out-of-bound access: {at}, {width} bytes"))
    }

    /// The read events of an access at `a`, and the value they read together.
    pub(super) fn read_cells(&mut self, a: &Access, tags: &[Tag], guard: ValId) -> Result<(Vec<Eid>, ValId), Diag> {
        let places = self.cell_places(a)?;
        let (mut ids, mut vals) = (Vec::new(), Vec::new());
        for p in places {
            let id = self.ev.events.len();
            let val = self.ev.intern(VExpr::Read(id));
            let e = self.event(Kind::Read, 0, p, val, tags.to_vec(), guard);
            self.push_access(e, &a.deps);
            self.iico_in(&a.src, id, "ADDR");
            ids.push(id);
            vals.push(val);
        }
        let val = match &self.ev.cells {
            Some(c) if vals.len() > 1 => {
                let size = c.size;
                self.ev.group(&ids);
                self.ev.assemble(&vals, size)
            }
            _ => vals[0],
        };
        Ok((ids, val))
    }

    /// The write events of an access at `a` writing `val` where `guard` holds, in po
    /// slot `slot`, with the data dependencies `vdeps`.
    pub(super) fn write_cells(
        &mut self,
        a: &Access,
        (slot, val, guard): (usize, ValId, ValId),
        tags: &[Tag],
        vdeps: &Deps,
    ) -> Result<Vec<Eid>, Diag> {
        let places = self.cell_places(a)?;
        let (n, size) = (places.len() as i64, self.ev.cells.as_ref().map_or(8, |c| c.size));
        let mut ids = Vec::new();
        for (k, p) in places.into_iter().enumerate() {
            let v = match &self.ev.cells {
                // One cell holds the access's bytes only, as every cell of a wider access
                // does: a register wider than the access leaves its other bits out (herd
                // reads `STR W0`'s register masked to the access, `read_reg_data_sz`).
                Some(_) if n == 1 && size < 8 => {
                    let mask = self.ev.constant(Value::Int((1i64 << (8 * size)) - 1));
                    self.ev.bin(BinOp::And, val, mask)
                }
                _ => self.ev.cell_of(val, k as i64, n, size),
            };
            let w = self.event(Kind::Write, slot, p, v, tags.to_vec(), guard);
            ids.push(self.write(w, &a.deps, vdeps));
        }
        if ids.len() > 1 {
            self.ev.group(&ids);
        }
        Ok(ids)
    }
}

impl Thread<'_> {
    /// Outside `-variant mixed`, where herd refuses mixed sizes: every access to a
    /// location has one width, the declared type's where the initial state gives one, or
    /// the test is herd's "Illegal mixed-size test".
    pub(super) fn check_size(&mut self, v: ValId) -> Result<(), Diag> {
        let (VExpr::Const(Value::Addr(l)), Some(w)) = (&self.ev.vals[v], self.at.width) else { return Ok(()) };
        if !self.ev.rejects_mixed || self.ev.layout.is_code(*l) {
            return Ok(());
        }
        let l = *l;
        let seen = *self.ev.widths_seen.entry(l).or_insert(w);
        if seen == w {
            return Ok(());
        }
        Err(self.err(format!(
            "unsupported: Illegal mixed-size test: accesses of {seen} and {w} bytes to '{}'{}",
            self.ev.locs[l],
            self.ev.mixed_hint()
        )))
    }
}
