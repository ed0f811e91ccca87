//! herd7's log layout.

use crate::litmus::{CondKind, Loc};
use crate::query::{Outcome, SortVal, StateKey};
use std::fmt::Write;

pub fn kind_word(k: CondKind) -> &'static str {
    match k {
        CondKind::Exists => "Allowed",
        CondKind::NotExists => "Forbidden",
        CondKind::Forall => "Required",
    }
}

/// Appends `place=value` as a state shows it: memory in brackets where `brackets` holds
/// (but for array elements, `v[1]`, as the place's `Display`), numbers in decimal. States
/// are printed for every execution's new state, so this avoids the formatting machinery.
pub fn push_place_value(out: &mut String, l: &Loc, v: &SortVal, brackets: bool) {
    push_place(out, l, brackets);
    out.push('=');
    push_value(out, v);
}

/// Appends a place as [`push_place_value`] shows it.
pub fn push_place(out: &mut String, l: &Loc, brackets: bool) {
    match l {
        Loc::Reg(t, r) => {
            out.push_str(itoa::Buffer::new().format(*t));
            out.push(':');
            out.push_str(r);
        }
        Loc::Mem(x) if brackets && !x.ends_with(']') => {
            out.push('[');
            out.push_str(x);
            out.push(']');
        }
        Loc::Mem(x) => out.push_str(x),
    }
}

/// Appends a value as [`push_place_value`] shows it.
pub fn push_value(out: &mut String, v: &SortVal) {
    match v {
        SortVal::Int(i) => out.push_str(itoa::Buffer::new().format(*i)),
        SortVal::UInt(u) => out.push_str(itoa::Buffer::new().format(*u)),
        SortVal::Sym(x) => out.push_str(x),
    }
}

pub fn state_line(s: &StateKey) -> String {
    let mut out = String::new();
    for (l, v) in &s.0 {
        push_place_value(&mut out, l, v, true);
        out.push_str("; ");
    }
    out.truncate(out.trim_end().len());
    out
}

/// The log of one test, as herd prints it (without `Hash=`).
pub fn herd_log(o: &Outcome, seconds: f64) -> String {
    let t = &o.test;
    let mut s = String::new();
    let _ = writeln!(s, "Test {} {}", t.name, kind_word(t.cond.kind));
    let _ = writeln!(s, "States {}", o.states.len());
    for st in &o.states {
        let _ = writeln!(s, "{}", state_line(st));
    }
    let loop_word = if o.looped { "Loop " } else { "" };
    let _ = writeln!(s, "{loop_word}{}", o.verdict_word());
    let _ = writeln!(s, "Witnesses");
    let (p, n) = o.witnesses();
    let _ = writeln!(s, "Positive: {p} Negative: {n}");
    for f in &o.flags {
        let _ = writeln!(s, "Flag {f}");
    }
    let _ = writeln!(s, "Condition {}", t.cond);
    let _ = writeln!(s, "Observation {} {} {} {}", t.name, o.observation(), o.pos, o.neg);
    if let Some(c) = &o.certificate {
        let _ = writeln!(s, "{c}");
    }
    let _ = writeln!(s, "Time {} {:.2}", t.name, seconds);
    s
}
