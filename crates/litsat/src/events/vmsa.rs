//! herd's `-variant vmsa` in the event structure: the page-table entry locations, their
//! initial values, and the sets the model reads of the events at them.
//!
//! Each virtual location `x` of the test has an entry `PTE(x)`, initially mapping `x` to
//! its own physical page with herd's default flags. Memory locations are physical
//! (`[x]` is `PA(x)`'s contents); an access through a virtual address reads `PTE(x)`
//! first (the translation-table walk, `thread/walk.rs`).

use super::pte::{self, PteVal};
use super::{BinOp, Eid, Events, Tag, ValId, Value};
use std::collections::BTreeSet;

/// The entry locations the test's memory locations `names` need, beside those it names.
pub(super) fn entry_names(names: &BTreeSet<&str>) -> Vec<String> {
    let mut out = Vec::new();
    for n in names {
        let plain = !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if plain && !names.contains(pte::pte_loc(n).as_str()) {
            out.push(pte::pte_loc(n));
        }
        // An entry named alone (`0:X0=PTE(x)`) still maps its virtual location.
        if let Some(x) = pte::pte_name(n)
            && !names.contains(x)
        {
            out.push(x.to_string());
        }
    }
    out
}

/// herd's page-table sets of an entry's value (`PTEV` …), each with the flags that
/// decide it and whether they must be all set (or not all).
const VALUE_SETS: [(&str, u8, bool); 5] = [
    ("PTEV", pte::VALID, true),
    ("PTEINV", pte::VALID, false),
    ("PTEAF0", pte::AF, false),
    ("PTEDB0", pte::DB, false),
    // herd's dirty set `ReadOnly`, without hardware management of the flags.
    ("ReadOnly", pte::AF | pte::DB, true),
];

impl Events {
    /// The entry location `PTE(x)` of virtual location `l`, where there is one.
    pub fn entry_of(&self, l: usize) -> Option<usize> {
        self.loc_index(&pte::pte_loc(&self.locs[l]))
    }

    /// Whether location `l` is a page-table entry.
    pub fn is_entry(&self, l: usize) -> bool {
        pte::pte_name(&self.locs[l]).is_some()
    }

    /// The initial value of location `l` where the test gives none: its default entry,
    /// for an entry under vmsa.
    pub(super) fn default_value(&self, l: usize) -> Value {
        let entry = self.vmsa.as_ref().and_then(|_| pte::pte_name(&self.locs[l]));
        match entry.and_then(|x| self.loc_index(x)) {
            Some(x) => Value::Pte(PteVal::default_for(x)),
            None => Value::Int(0),
        }
    }

    /// Puts event `e`, an access at an entry location, in herd's sets of such events
    /// (`PTE`, `D-PTE`), and in those its value decides: fixed for a constant, else
    /// where the value has the flags.
    pub(super) fn mark_entry(&mut self, e: Eid) {
        let Some(l) = self.events[e].loc else { return };
        if self.vmsa.is_none() || !self.is_entry(l) {
            return;
        }
        let val = self.events[e].val;
        let mut tags: Vec<Tag> = vec!["PTE".into(), "D-PTE".into()];
        let mut tags_if: Vec<(Tag, ValId)> = Vec::new();
        for (name, flags, all) in VALUE_SETS {
            let m = self.constant(Value::Int(i64::from(flags)));
            let has = self.bin(BinOp::PteAll, val, m);
            let holds = if all { has } else { self.not(has) };
            match self.vals[holds] {
                super::VExpr::Const(Value::Int(1)) => tags.push(name.into()),
                super::VExpr::Const(_) => {}
                _ => tags_if.push((name.into(), holds)),
            }
        }
        let ev = &mut self.events[e];
        ev.tags.extend(tags);
        ev.tags_if.extend(tags_if);
    }
}

/// Refuses what litsat's vmsa has not built, and page tables outside vmsa: hardware management of the flags (`TTHM=`), the exception registers in
/// the final state, entry values it cannot read.
pub(super) fn check(test: &crate::litmus::Test, vmsa: bool, src: &super::SourceRef<'_>) -> Result<(), crate::diag::Diag> {
    use crate::litmus::{Loc, Val};
    let entry_value = |v: &Val| matches!(v, Val::Sym(s) if s.starts_with('(') || pte::pte_name(s).is_some());
    for it in &test.init {
        let at_entry = matches!(&it.loc, Loc::Mem(x) if pte::pte_name(x).is_some());
        if !vmsa && (at_entry || entry_value(&it.value)) {
            // herd answers some (an ifetch test's `pte_x=(oa:phy_x)`), under semantics
            // litsat has not built.
            return Err(src.err(it.pos, "unsupported: page-table entries without -variant vmsa"));
        }
        if let Val::Sym(s) = &it.value
            && s.starts_with('(')
        {
            PteVal::parse(s, &|_| Some(0)).map_err(|m| src.err(it.pos, m))?;
        }
    }
    if !vmsa {
        return Ok(());
    }
    if let Some(a) = test.arrays.first() {
        return Err(src.err(a.pos, "unsupported: arrays under vmsa"));
    }
    let at = |w: &str| crate::diag::Pos(src.text.find(w).unwrap_or(0));
    if let Some(t) = &test.tthm {
        let m = format!("unsupported: `TTHM={t}` (hardware management of page-table flags, under vmsa)");
        return Err(src.err(at("TTHM"), m));
    }
    let mut places = Vec::new();
    test.cond.prop.locs(&mut places);
    places.extend(test.locations.iter().cloned());
    for p in &places {
        if let Loc::Mem(x) = p
            && (x.starts_with("pte_") || x.starts_with("phy_"))
        {
            return Err(src.err(at(x), format!("unsupported: under vmsa, the place `{x}` (write `PTE(x)`)")));
        }
    }
    for p in places {
        if let Loc::Reg(_, r) = &p
            && (r.starts_with("ELR_") || r.starts_with("ESR_") || r.starts_with("FAR_"))
        {
            return Err(src.err(at(r), format!("unsupported: under vmsa, the exception register {r} in the final state")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plain_location_gets_an_entry() {
        let names: BTreeSet<&str> = ["x", "PTE(y)", "P0:L0", "PTE(x)"].into_iter().collect();
        assert_eq!(entry_names(&names), vec!["y".to_string()]);
        let names: BTreeSet<&str> = ["x", "y"].into_iter().collect();
        assert_eq!(entry_names(&names), vec!["PTE(x)".to_string(), "PTE(y)".to_string()]);
    }
}
