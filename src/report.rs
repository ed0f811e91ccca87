//! herd7's log layout.

use crate::litmus::CondKind;
use crate::query::{Outcome, SortVal, StateKey};
use std::fmt::Write;

pub fn kind_word(k: CondKind) -> &'static str {
    match k {
        CondKind::Exists => "Allowed",
        CondKind::NotExists => "Forbidden",
        CondKind::Forall => "Required",
    }
}

pub fn state_line(s: &StateKey) -> String {
    let mut out = String::new();
    for (l, v) in &s.0 {
        let _ = match v {
            SortVal::Int(i) => write!(out, "{l}={i}; "),
            SortVal::UInt(u) => write!(out, "{l}={u}; "),
            SortVal::Sym(x) => write!(out, "{l}={x}; "),
        };
    }
    out.trim_end().to_string()
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
