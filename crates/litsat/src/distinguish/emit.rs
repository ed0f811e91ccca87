//! A shape written as a litmus test: distinct values per location, and a final condition
//! that pins rf and co (each read's value, each location's final value, and, where a
//! location has more than two writes besides its initial one, an observer thread reading
//! all but the last in co order).

use super::shape::Shape;
use super::vocab::{Half, Vocab};

/// Location names, in order of first use.
const LOCS: [&str; 8] = ["x", "y", "z", "a", "b", "c", "d", "e"];

/// One thread's instructions and the registers it sets up.
struct Thread {
    code: Vec<String>,
    /// Registers given an initial value (`0:EAX=1`).
    init: Vec<(String, i64)>,
    /// What the condition asks of its registers.
    cond: Vec<(String, i64)>,
}

/// The test, or why this shape cannot be written (too many registers).
pub fn litmus(shape: &Shape, vocab: &Vocab, name: &str, doc: &str) -> Result<String, String> {
    let value = values(shape, vocab);
    let read_value = |slot: usize| shape.rf[slot].map_or(0, |w| if w < shape.locs { 0 } else { value[w - shape.locs] });
    let mut threads = Vec::new();
    for t in &shape.threads {
        let mut th = Thread { code: Vec::new(), init: Vec::new(), cond: Vec::new() };
        let mut regs = REGS.iter();
        for e in t {
            let k = &vocab.kinds[e.kind];
            let loc = e.loc.map(|l| LOCS[l]).unwrap_or("");
            match (k.half, k.read, k.write) {
                (Half::Write, _, _) => {}
                (Half::Read, _, _) => {
                    let r = regs.next().ok_or("too many registers")?;
                    th.code.push(format!("XCHG [{loc}],{r}"));
                    th.init.push((r.to_string(), value[e.slot + 1]));
                    th.cond.push((r.to_string(), read_value(e.slot)));
                }
                (_, true, _) => {
                    let r = regs.next().ok_or("too many registers")?;
                    th.code.push(format!("MOV {r},[{loc}]"));
                    th.cond.push((r.to_string(), read_value(e.slot)));
                }
                (_, _, true) => th.code.push(format!("MOV [{loc}],${}", value[e.slot])),
                _ => th.code.push(k.name.to_string()),
            }
        }
        threads.push(th);
    }
    let mut finals = Vec::new();
    for (co, name) in shape.co.iter().zip(LOCS).take(shape.used_locs()) {
        if let Some(&last) = co.last() {
            finals.push(format!("{name}={}", value[last]));
        }
        if co.len() > 2 {
            let mut th = Thread { code: Vec::new(), init: Vec::new(), cond: Vec::new() };
            for (&w, r) in co[..co.len() - 1].iter().zip(REGS) {
                th.code.push(format!("MOV {r},[{name}]"));
                th.cond.push((r.to_string(), value[w]));
            }
            threads.push(th);
        }
    }
    Ok(render(vocab, name, doc, shape.used_locs(), &threads, &finals))
}

const REGS: [&str; 6] = ["EAX", "EBX", "ECX", "EDX", "ESI", "EDI"];

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

/// The test's text, in herd's layout.
fn render(vocab: &Vocab, name: &str, doc: &str, locs: usize, threads: &[Thread], finals: &[String]) -> String {
    let mut init: Vec<String> = LOCS[..locs].iter().map(|l| format!("{l}=0;")).collect();
    for (t, th) in threads.iter().enumerate() {
        init.extend(th.init.iter().map(|(r, v)| format!("{t}:{r}={v};")));
    }
    let rows = threads.iter().map(|t| t.code.len()).max().unwrap_or(0);
    let mut cols: Vec<Vec<String>> = threads.iter().enumerate().map(|(t, _)| vec![format!("P{t}")]).collect();
    for (c, th) in cols.iter_mut().zip(threads) {
        c.extend((0..rows).map(|k| th.code.get(k).cloned().unwrap_or_default()));
    }
    let widths: Vec<usize> = cols.iter().map(|c| c.iter().map(String::len).max().unwrap_or(0)).collect();
    let mut out = format!("{} {name}\n\"{doc}\"\n{{ {} }}\n", vocab.arch, init.join(" "));
    for k in 0..=rows {
        let cells: Vec<String> = cols.iter().zip(&widths).map(|(c, &w)| format!(" {:w$} ", c[k])).collect();
        out.push_str(&format!("{};\n", cells.join("|")));
    }
    let mut atoms: Vec<String> = Vec::new();
    for (t, th) in threads.iter().enumerate() {
        atoms.extend(th.cond.iter().map(|(r, v)| format!("{t}:{r}={v}")));
    }
    atoms.extend(finals.iter().cloned());
    out.push_str(&format!("exists ({})\n", atoms.join(" /\\ ")));
    out
}
