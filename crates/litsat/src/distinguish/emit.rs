//! A shape written as a litmus test: distinct values per location, and a final condition
//! that pins rf and co (each read's value, each location's final value, and, where a
//! location has more than two writes besides its initial one, an observer thread reading
//! all but the last in co order). Each kind's instruction is its vocabulary row's
//! template; the layout around them is the architecture's [`Style`].

use super::shape::Shape;
use super::vocab::{Half, Style, Vocab};

/// Location names, in order of first use.
pub(super) const LOCS: [&str; 8] = ["x", "y", "z", "a", "b", "c", "d", "e"];

/// One thread's instructions and the registers it sets up.
#[derive(Default)]
pub(super) struct Thread {
    pub(super) code: Vec<String>,
    /// Registers given an initial value (`0:EAX=1`, `0:x6=x`).
    pub(super) init: Vec<(String, String)>,
    /// What the condition asks of its registers.
    pub(super) cond: Vec<(String, i64)>,
    /// The locations it touches, and whether it touches them atomically (C's types).
    pub(super) uses: Vec<(usize, bool)>,
}

/// The test, or why this shape cannot be written (too many registers).
pub fn litmus(shape: &Shape, vocab: &Vocab, name: &str, doc: &str) -> Result<String, String> {
    let value = values(shape, vocab);
    let read_value = |slot: usize| shape.rf[slot].map_or(0, |w| if w < shape.locs { 0 } else { value[w - shape.locs] });
    let mut threads = match vocab.style.asm() {
        Some(asm) => super::emit_asm::threads(shape, vocab, asm, &value, &read_value)?,
        None => direct(shape, vocab, &value, &read_value)?,
    };
    let finals = observers(shape, vocab, &value, &mut threads);
    Ok(render(vocab, name, doc, shape.used_locs(), &threads, &finals))
}

/// The threads, each kind's template filled in place (X86, C).
fn direct(
    shape: &Shape,
    vocab: &Vocab,
    value: &[i64],
    read_value: &dyn Fn(usize) -> i64,
) -> Result<Vec<Thread>, String> {
    let mut threads = Vec::new();
    for t in &shape.threads {
        let mut th = Thread::default();
        let mut regs = vocab.style.regs().iter();
        for e in t {
            let k = &vocab.kinds[e.kind];
            if k.half == Half::Write {
                continue;
            }
            let mut line = k.instr.to_string();
            if let Some(l) = e.loc {
                line = line.replace("{x}", LOCS[l]);
                th.uses.push((l, !k.tags.contains(&"NA")));
            }
            // A read-modify-write's written value is the next slot's where its halves are two.
            let written = if k.half == Half::Read { value[e.slot + 1] } else { value[e.slot] };
            if line.contains("{r}") {
                let r = regs.next().ok_or("too many registers")?;
                line = line.replace("{r}", r);
                if line.contains("{v}") || k.half != Half::Read {
                    line = line.replace("{v}", &written.to_string());
                } else {
                    th.init.push((r.to_string(), written.to_string()));
                }
                th.cond.push((r.to_string(), read_value(e.slot)));
            }
            th.code.push(line.replace("{v}", &written.to_string()));
        }
        threads.push(th);
    }
    Ok(threads)
}

/// Each location's final value, and an observer thread for each location with more than
/// two writes.
fn observers(shape: &Shape, vocab: &Vocab, value: &[i64], threads: &mut Vec<Thread>) -> Vec<String> {
    let mut finals = Vec::new();
    for (l, (co, name)) in shape.co.iter().zip(LOCS).take(shape.used_locs()).enumerate() {
        if let Some(&last) = co.last() {
            finals.push(format!("{name}={}", value[last]));
        }
        if co.len() > 2 {
            let mut th = Thread::default();
            let regs = vocab.style.regs();
            // A register machine reads through a register holding the address: the last.
            let a = regs.last().copied().unwrap_or_default();
            if vocab.style.observe().contains("{a}") {
                th.init.push((a.to_string(), name.to_string()));
            }
            for (&w, r) in co[..co.len() - 1].iter().zip(regs) {
                th.code.push(vocab.style.observe().replace("{r}", r).replace("{x}", name).replace("{a}", a));
                th.cond.push((r.to_string(), value[w]));
                th.uses.push((l, true));
            }
            threads.push(th);
        }
    }
    finals
}

/// Per slot, the value its write writes: per location 1, 2, … in slot order.
fn values(shape: &Shape, vocab: &Vocab) -> Vec<i64> {
    let mut events: Vec<_> = shape.threads.iter().flatten().collect();
    events.sort_by_key(|e| e.slot);
    let mut next = vec![0i64; shape.locs];
    let mut out = vec![0i64; events.len() + 1];
    for e in events {
        if let (Some(l), true) = (e.loc, vocab.kinds[e.kind].write) {
            next[l] += 1;
            out[e.slot] = next[l];
        }
    }
    out
}

/// The test's text, in herd's layout for the architecture.
fn render(vocab: &Vocab, name: &str, doc: &str, locs: usize, threads: &[Thread], finals: &[String]) -> String {
    let mut out = format!("{} {name}\n\"{doc}\"\n", vocab.arch);
    match vocab.style {
        Style::X86 | Style::RiscV | Style::Ppc => columns(&mut out, locs, threads),
        Style::C | Style::Kernel => functions(&mut out, vocab.style, locs, threads),
    }
    let mut atoms: Vec<String> = Vec::new();
    for (t, th) in threads.iter().enumerate() {
        atoms.extend(th.cond.iter().map(|(r, v)| format!("{t}:{r}={v}")));
    }
    atoms.extend(finals.iter().cloned());
    let prop = if atoms.is_empty() { "true".to_string() } else { atoms.join(" /\\ ") };
    out.push_str(&format!("exists ({prop})\n"));
    out
}

/// The init block and the code as columns, one per thread (assembly tests).
fn columns(out: &mut String, locs: usize, threads: &[Thread]) {
    let mut init: Vec<String> = LOCS[..locs].iter().map(|l| format!("{l}=0;")).collect();
    for (t, th) in threads.iter().enumerate() {
        init.extend(th.init.iter().map(|(r, v)| format!("{t}:{r}={v};")));
    }
    out.push_str(&format!("{{ {} }}\n", init.join(" ")));
    let rows = threads.iter().map(|t| t.code.len()).max().unwrap_or(0);
    let mut cols: Vec<Vec<String>> = threads.iter().enumerate().map(|(t, _)| vec![format!("P{t}")]).collect();
    for (c, th) in cols.iter_mut().zip(threads) {
        c.extend((0..rows).map(|k| th.code.get(k).cloned().unwrap_or_default()));
    }
    let widths: Vec<usize> = cols.iter().map(|c| c.iter().map(String::len).max().unwrap_or(0)).collect();
    for k in 0..=rows {
        let cells: Vec<String> = cols.iter().zip(&widths).map(|(c, &w)| format!(" {:w$} ", c[k])).collect();
        out.push_str(&format!("{};\n", cells.join("|")));
    }
}

/// The init block and one C function per thread, taking the locations it uses: C11's as
/// `atomic_int*` where it touches them atomically, the kernel's as `int *` and every
/// location 0 by default (the kernel's `{}`).
fn functions(out: &mut String, style: Style, locs: usize, threads: &[Thread]) {
    let kernel = style == Style::Kernel;
    let init: Vec<String> =
        if kernel { Vec::new() } else { LOCS[..locs].iter().map(|l| format!("[{l}] = 0;")).collect() };
    out.push_str(&if init.is_empty() { "{}\n".to_string() } else { format!("{{ {} }}\n", init.join(" ")) });
    for (t, th) in threads.iter().enumerate() {
        let mut params: Vec<usize> = th.uses.iter().map(|u| u.0).collect();
        params.sort_unstable();
        params.dedup();
        let atomic = |l: usize| !kernel && th.uses.iter().any(|&(m, a)| m == l && a);
        let param = |l: usize| match (kernel, atomic(l)) {
            (true, _) => format!("int *{}", LOCS[l]),
            (false, a) => format!("{}* {}", if a { "atomic_int" } else { "int" }, LOCS[l]),
        };
        let params: Vec<String> = params.iter().map(|&l| param(l)).collect();
        let gap = if kernel { "" } else { " " };
        out.push_str(&format!("P{t}{gap}({}) {{\n", params.join(", ")));
        for line in &th.code {
            out.push_str(&format!("  {line}\n"));
        }
        out.push_str("}\n");
    }
}
