//! herd7's log layout.

use crate::litmus::{CondKind, FAULT_REG, FaultAtom, Loc};
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
    push_value(out, v, false);
}

/// Appends a place as [`push_place_value`] shows it.
pub fn push_place(out: &mut String, l: &Loc, brackets: bool) {
    match l {
        Loc::Mem(x) if !brackets => out.push_str(x),
        // Writing to a `String` cannot fail.
        _ => {
            let _ = crate::litmus::print::write_loc(l, out);
        }
    }
}

/// Appends a value as [`push_place_value`] shows it, or under herd's `-hexa` (`hexa`) as
/// `0x` and its 64-bit two's complement in hexadecimal.
pub fn push_value(out: &mut String, v: &SortVal, hexa: bool) {
    match v {
        SortVal::Int(i) if hexa => {
            let _ = write!(out, "{:#x}", *i as u64);
        }
        SortVal::UInt(u) if hexa => {
            let _ = write!(out, "{u:#x}");
        }
        SortVal::Int(i) => out.push_str(itoa::Buffer::new().format(*i)),
        SortVal::UInt(u) => out.push_str(itoa::Buffer::new().format(*u)),
        SortVal::Sym(x) => out.push_str(&crate::litmus::sym_text(x)),
    }
}

pub fn state_line(s: &StateKey) -> String {
    let mut out = String::new();
    push_state_line(&mut out, s, false, &[]);
    out
}

/// Whether a state's place is a thread's fault register, which shows as its fault.
fn is_fault(l: &Loc) -> bool {
    matches!(l, Loc::Reg(_, r) if r == FAULT_REG)
}

/// The thread, labels, location and type of a fault as a state shows it,
/// `Fault(P0:L0,SVC)`, `Fault(P1:L0,x,D-MMU:Translation)`.
fn fault_parts(text: &str) -> Option<(usize, Vec<&str>, Option<&str>, &str)> {
    let inner = text.strip_prefix("Fault(P")?.strip_suffix(')')?;
    let (head, ftype) = inner.rsplit_once(',')?;
    // Several labels are braced, and hold commas.
    let (head, loc) = match head.rfind('}') {
        Some(k) => (&head[..=k], head[k + 1..].strip_prefix(',')),
        None => match head.split_once(',') {
            Some((h, l)) => (h, Some(l)),
            None => (head, None),
        },
    };
    let (t, labels) = match head.split_once(':') {
        Some((t, ls)) => (t, ls.trim_start_matches('{').trim_end_matches('}').split(',').collect()),
        None => (head, Vec::new()),
    };
    Some((t.parse().ok()?, labels, loc, ftype))
}

/// Whether fault `f` (its [`fault_parts`]) is one atom `a` names (herd's `check_one_fatom`).
fn fault_matches(f: &(usize, Vec<&str>, Option<&str>, &str), a: &FaultAtom) -> bool {
    let (t, ls, loc, ft) = f;
    *t == a.thread
        && a.label.as_deref().is_none_or(|l| ls.contains(&l))
        && a.ftype.as_deref().is_none_or(|x| crate::litmus::fault_type_matches(ft, x))
        && a.loc.as_deref().is_none_or(|x| *loc == Some(x))
}

/// A fault's text as a state shows it: with the type of the first atom naming a type
/// that it matches, where one does (herd's `data_intr_to_any_flt`: `MMU:Translation`
/// for a data-side `D-MMU:Translation`).
fn shown_fault(f: &str, atoms: &[&FaultAtom]) -> String {
    let Some(parts) = fault_parts(f) else { return f.to_string() };
    let typed = atoms.iter().filter_map(|a| a.ftype.as_deref().filter(|_| fault_matches(&parts, a))).next();
    match typed {
        Some(t) if t != parts.3 => format!("{}{t})", &f[..f.len() - parts.3.len() - 1]),
        _ => f.to_string(),
    }
}

/// Appends a state's faults as herd shows them after its places: each fault that some
/// atom of the condition matches, then ` ~Fault(…);` for each atom that none matches.
fn push_faults(out: &mut String, s: &StateKey, atoms: &[&FaultAtom]) {
    let faults: Vec<&str> = s
        .0
        .iter()
        .filter(|(l, _)| is_fault(l))
        .filter_map(|(_, v)| if let SortVal::Sym(t) = v { Some(t.as_str()) } else { None })
        .filter(|t| !t.is_empty())
        .collect();
    if faults.is_empty() && atoms.is_empty() {
        return;
    }
    out.push(' ');
    out.push_str(&faults.iter().map(|f| format!("{};", shown_fault(f, atoms))).collect::<Vec<_>>().join(" "));
    let matched = |a: &FaultAtom| faults.iter().filter_map(|f| fault_parts(f)).any(|f| fault_matches(&f, a));
    // herd lists the atoms none matches from its set's last to its first.
    let mut keys: Vec<String> = Vec::new();
    for a in atoms.iter().filter(|a| !matched(a)) {
        let mut k = String::new();
        let _ = crate::litmus::print::write_fault_atom(a, "Fault", &mut k);
        keys.push(k);
    }
    keys.sort();
    keys.dedup();
    for k in keys.iter().rev() {
        out.push_str(" ~");
        out.push_str(k);
        out.push(';');
    }
}

/// A state's `(place, value)` items as herd shows them: memory in brackets where
/// `brackets` holds (but array elements, `v[1]`), an array shown whole as one item
/// (`x`, `{1,0}`), values in decimal or, under `hexa`, in hexadecimal.
pub fn state_items(s: &StateKey, brackets: bool, hexa: bool) -> Vec<(String, String)> {
    fn whole(l: &Loc) -> Option<&str> {
        match l {
            Loc::Mem(x) => crate::litmus::whole_part(x).map(|p| p.0),
            Loc::Reg(..) => None,
        }
    }
    let mut items = Vec::with_capacity(s.0.len());
    let mut k = 0;
    while k < s.0.len() {
        let (l, v) = &s.0[k];
        // Faults are no places: the log's state line shows them after the places.
        if is_fault(l) {
            k += 1;
            continue;
        }
        let (mut place, mut value) = (String::new(), String::new());
        if let Some(base) = whole(l) {
            // An array shown whole: its elements' run.
            let n = s.0[k..].iter().take_while(|(l, _)| whole(l) == Some(base)).count();
            place.push_str(base);
            value.push('{');
            for (j, (_, v)) in s.0[k..k + n].iter().enumerate() {
                if j > 0 {
                    value.push(',');
                }
                push_value(&mut value, v, hexa);
            }
            value.push('}');
            k += n;
        } else {
            push_place(&mut place, l, brackets);
            push_value(&mut value, v, hexa);
            k += 1;
        }
        items.push((place, value));
    }
    items
}

/// Appends a state as its `States` line shows it, without the newline.
fn push_state_line(out: &mut String, s: &StateKey, hexa: bool, atoms: &[&FaultAtom]) {
    let start = out.len();
    for (place, value) in state_items(s, true, hexa) {
        out.push_str(&place);
        out.push('=');
        out.push_str(&value);
        out.push_str("; ");
    }
    let kept = out[start..].trim_end().len();
    out.truncate(start + kept);
    push_faults(out, s, atoms);
}

/// Appends `words`, then a newline.
fn push_line(out: &mut String, words: &[&str]) {
    for w in words {
        out.push_str(w);
    }
    out.push('\n');
}

/// The log of one test, as herd prints it (`Hash=` where the digest is known). Built by appending rather
/// than through the formatting machinery: a log is written for every test.
pub fn herd_log(o: &Outcome, seconds: f64) -> String {
    let t = &o.test;
    let name = t.name.as_str();
    let mut s = String::with_capacity(256);
    let mut num = itoa::Buffer::new();
    push_line(&mut s, &["Test ", name, " ", kind_word(t.cond.kind)]);
    push_line(&mut s, &["States ", num.format(o.states.len())]);
    let mut atoms = Vec::new();
    t.cond.prop.fault_atoms(&mut atoms);
    for st in &o.states {
        push_state_line(&mut s, st, o.hexa, &atoms);
        s.push('\n');
    }
    if let Some(d) = &o.incomplete {
        // Only the states found so far are known: no verdict, counts or flags.
        push_line(&mut s, &["Counts incomplete: ", &d.message]);
        let _ = writeln!(s, "Time {name} {seconds:.2}");
        return s;
    }
    let loop_word = if o.looped { "Loop " } else { "" };
    push_line(&mut s, &[loop_word, o.verdict_word()]);
    push_line(&mut s, &["Witnesses"]);
    let (p, n) = o.witnesses();
    let mut num2 = itoa::Buffer::new();
    push_line(&mut s, &["Positive: ", num.format(p), " Negative: ", num2.format(n)]);
    for f in &o.flags {
        push_line(&mut s, &["Flag ", f]);
    }
    s.push_str("Condition ");
    let _ = crate::litmus::print::write_condition(&t.cond, o.hexa, &mut s);
    s.push('\n');
    let obs = o.observation().word();
    push_line(&mut s, &["Observation ", name, " ", obs, " ", num.format(o.pos), " ", num2.format(o.neg)]);
    if let Some(c) = &o.certificate {
        push_line(&mut s, &[c]);
    }
    let _ = writeln!(s, "Time {name} {seconds:.2}");
    if let Some(c) = o.candidates {
        let mut n = itoa::Buffer::new();
        push_line(&mut s, &["Candidates ", name, " ", n.format(c)]);
    }
    if let Some(h) = &o.hash {
        push_line(&mut s, &["Hash=", h]);
    }
    s
}
