//! The oracle's own reading of herd's mixed-size mode (`-variant mixed`), over the cells
//! the front end makes: a read's cells, and a location's final cells, must come from
//! write groups as herd's `find_rfs_sca` matches them (smallest group first, each taken
//! whole for the cells still lacking or not at all), and a place's final value is its
//! cells' values put together, least significant first.

use litsat::events::{Eid, Events, Value};

/// Each event's single-copy-atomic group, as the front end records it (`sm` pairs).
fn group(ev: &Events, e: Eid) -> Vec<Eid> {
    let mut g: Vec<Eid> = ev.sm.iter().filter(|p| p.0 == e).map(|p| p.1).collect();
    g.push(e);
    g.sort_unstable();
    g
}

/// Whether `cells` (events standing for cells, each with its location) taking their
/// values from `src` is one of herd's matchings.
pub fn matched(
    ev: &Events,
    cells: &[(Eid, Option<usize>)],
    src: &dyn Fn(Eid) -> Eid,
    loc_of: &[Option<usize>],
) -> bool {
    let mut groups: Vec<Vec<Eid>> = cells.iter().map(|&(c, _)| group(ev, src(c))).collect();
    groups.sort_by_key(|g| (g.len(), g.clone()));
    groups.dedup();
    let mut remaining: Vec<(Eid, Option<usize>)> = cells.to_vec();
    for g in &groups {
        let covered: Vec<(Eid, Option<usize>)> =
            remaining.iter().copied().filter(|&(_, l)| g.iter().any(|&w| loc_of[w] == l)).collect();
        let from_g = covered.iter().filter(|&&(c, _)| g.contains(&src(c))).count();
        if from_g > 0 && from_g < covered.len() {
            return false;
        }
        if from_g > 0 {
            remaining.retain(|p| !covered.contains(p));
        }
    }
    true
}

/// The read groups of the reads that happen (`lives`), each a list of its cells.
pub fn read_groups(ev: &Events, reads: &[Eid], lives: &dyn Fn(Eid) -> bool) -> Vec<Vec<Eid>> {
    let mut out: Vec<Vec<Eid>> = Vec::new();
    for &r in reads.iter().filter(|&&r| lives(r)) {
        let g: Vec<Eid> = group(ev, r).into_iter().filter(|&c| reads.contains(&c) && lives(c)).collect();
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// A place's value from its cells' (least significant first), cells of `size` bytes.
pub fn put_together(parts: &[Value], size: i64) -> Option<Value> {
    if let [one] = parts {
        return Some(*one);
    }
    let mut acc: i64 = 0;
    for (k, v) in parts.iter().enumerate() {
        match v {
            Value::Int(x) => acc |= x.wrapping_shl((8 * size * k as i64) as u32),
            _ => return None,
        }
    }
    Some(Value::Int(acc))
}
