//! herd's symbolic registers: `%x0=x` in the initial state and `STR R0,[%x0]` in the code.
//!
//! herd's litmus lexer reads `%name` as a register still to be chosen. Before anything
//! else, it gives each thread's symbolic registers real ones (herd's `SymbReg`): those the
//! ISA allows for the purpose ([`Isa::symbolic_regs`], in its order), minus every register
//! the thread's code names and every register of that thread that the initial state,
//! `locations`, `filter` or the condition names; a thread's symbolic names take them in
//! sorted order. A name that the initial state or a condition mentions must appear in the
//! code of exactly one thread (herd: "ambiguous symbolic register(s)", "does not appear in
//! code"); one that only code uses is local to each thread that uses it (it starts at 0).
//! In a state, a symbolic register is printed under the register it was given.
//!
//! The litmus parser reads a place `%name` as a memory location whose name starts with `%`
//! ([`Loc::Mem`]); [`resolve`] turns those into [`Loc::Reg`] and rewrites the code cells,
//! so the ISA plug-ins only ever see real registers.

use super::ast::*;
use crate::diag::Diag;
use crate::isa::Isa;
use std::collections::{BTreeMap, BTreeSet};

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The words of a cell: `(start, end, symbolic)`, a symbolic one without its `%`.
fn words(text: &str) -> Vec<(usize, usize, bool)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let sym = b[i] == b'%' && b.get(i + 1).is_some_and(|&c| is_word(c));
        let start = if sym { i + 1 } else { i };
        if sym || is_word(b[i]) && (i == 0 || !is_word(b[i - 1])) {
            let mut j = start;
            while j < b.len() && is_word(b[j]) {
                j += 1;
            }
            out.push((start, j, sym));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The width letter (`X` or `W`, upper-cased) written right before the `%` of the
/// symbolic register whose name starts at `s`, as AArch64's `X%name` and `W%name` (herd's
/// lexer reads them as one symbolic register, at that width).
fn width_prefix(text: &str, s: usize) -> Option<char> {
    let b = text.as_bytes();
    if s < 2 || (s >= 3 && is_word(b[s - 3])) {
        return None;
    }
    match b[s - 2] {
        b'X' | b'x' => Some('X'),
        b'W' | b'w' => Some('W'),
        _ => None,
    }
}

fn sym_name(l: &Loc) -> Option<&str> {
    match l {
        Loc::Mem(x) => x.strip_prefix('%'),
        Loc::Reg(..) => None,
    }
}

/// Gives the test's symbolic registers real ones, as herd does; a no-op for an ISA without
/// symbolic registers or a test that uses none.
pub fn resolve(test: &mut Test, isa: &dyn Isa, file: &str, text: &str) -> Result<(), Diag> {
    let allowed = isa.symbolic_regs();
    // Most ISAs (C among them) have none: nothing to look at.
    if allowed.is_empty() {
        return Ok(());
    }
    let in_code = test.threads.iter().any(|t| t.cells.iter().any(|c| words(&c.text).iter().any(|w| w.2)));
    let mut outside: Vec<Loc> = test.init.iter().map(|i| i.loc.clone()).collect();
    test.cond.prop.locs(&mut outside);
    if let Some(f) = &test.filter {
        f.locs(&mut outside);
    }
    outside.extend(test.locations.iter().cloned());
    let declared: BTreeSet<String> = outside.iter().filter_map(sym_name).map(str::to_string).collect();
    if !in_code && declared.is_empty() {
        return Ok(());
    }

    // Each thread's symbolic names and real registers, from its code.
    let mut users: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut envs: Vec<BTreeMap<String, String>> = Vec::new();
    for th in &test.threads {
        let mut symbs = BTreeSet::new();
        let mut used = BTreeSet::new();
        for c in &th.cells {
            for (s, e, sym) in words(&c.text) {
                let w = &c.text[s..e];
                if sym {
                    symbs.insert(w.to_string());
                } else if let Some(r) = isa.canonical_reg(w) {
                    used.insert(r);
                }
            }
        }
        for l in &outside {
            if let Loc::Reg(t, r) = l
                && *t == th.id
                && let Some(r) = isa.canonical_reg(r)
            {
                used.insert(r);
            }
        }
        let mut free = allowed.iter().map(|r| r.to_string()).filter(|r| !used.contains(r));
        let mut env = BTreeMap::new();
        for s in symbs {
            let r = free.next().ok_or_else(|| {
                Diag::file(file, format!("not enough registers for the symbolic registers of thread P{}", th.id))
            })?;
            users.entry(s.clone()).or_default().push(th.id);
            env.insert(s, r);
        }
        envs.push(env);
    }
    let ambiguous: Vec<String> =
        declared.iter().filter(|s| users.get(*s).is_some_and(|u| u.len() > 1)).map(|s| format!("%{s}")).collect();
    if !ambiguous.is_empty() {
        let message = format!("ambiguous symbolic register(s): {{{}}} (used by several threads)", ambiguous.join(","));
        // At the initial state's binding of the first of them.
        let site = test.init.iter().find(|it| matches!(&it.loc, Loc::Mem(x) if ambiguous.contains(x)));
        return Err(match site {
            Some(it) => Diag::at(file, text, it.pos, message),
            None => Diag::file(file, message),
        });
    }

    // The code: each `%name` becomes its register, padded to the same length where the
    // register's name is shorter, so that positions in the cell stay right.
    for (th, env) in test.threads.iter_mut().zip(&envs) {
        for c in &mut th.cells {
            let ws = words(&c.text);
            if !ws.iter().any(|w| w.2) {
                continue;
            }
            let mut out = String::with_capacity(c.text.len());
            let mut last = 0;
            for (s, e, sym) in ws {
                if !sym {
                    continue;
                }
                let r = &env[&c.text[s..e]];
                // AArch64's `X%name` and `W%name`: the register at that width.
                let (from, r) = match width_prefix(&c.text, s) {
                    Some(w) => (s - 2, format!("{w}{}", r.get(1..).unwrap_or_default())),
                    None => (s - 1, r.clone()),
                };
                out.push_str(&c.text[last..from]);
                out.push_str(&r);
                for _ in r.len()..e - from {
                    out.push(' ');
                }
                last = e;
            }
            out.push_str(&c.text[last..]);
            c.text = out;
        }
    }

    // The places outside the code.
    let owner: BTreeMap<&str, (usize, &str)> = test
        .threads
        .iter()
        .zip(&envs)
        .flat_map(|(th, env)| env.iter().map(move |(s, r)| (s.as_str(), (th.id, r.as_str()))))
        .collect();
    let mut place = |l: &mut Loc| -> Result<(), String> {
        if let Some(s) = sym_name(l) {
            let &(t, r) = owner.get(s).ok_or_else(|| format!("symbolic register %{s} does not appear in code"))?;
            *l = Loc::Reg(t, r.to_string());
        }
        Ok(())
    };
    for it in &mut test.init {
        place(&mut it.loc).map_err(|m| Diag::at(file, text, it.pos, m))?;
    }
    // The condition, filter and `locations` keep no positions: the message names the
    // register, and the error points at its last mention, in the final part of the test.
    let d = |m: String| {
        let at = m.split('%').nth(1).and_then(|rest| {
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            text.rfind(&format!("%{name}"))
        });
        match at {
            Some(at) => Diag::at(file, text, crate::diag::Pos(at), m),
            None => Diag::file(file, m),
        }
    };
    test.cond.prop.try_map_locs(&mut place).map_err(d)?;
    if let Some(f) = &mut test.filter {
        f.try_map_locs(&mut place).map_err(d)?;
    }
    for l in &mut test.locations {
        place(l).map_err(d)?;
    }
    Ok(())
}
