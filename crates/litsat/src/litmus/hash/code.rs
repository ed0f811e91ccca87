//! The code part of herd's hash: each thread's instructions printed canonically, labels
//! renamed, laid out in herd's padded table.

use super::{aarch64, arm, lisa, ppc, riscv, x86, x86_64};
use crate::litmus::ast::ThreadCode;
use std::collections::BTreeMap;

/// Prints one instruction (no label) in herd's canonical form; `label` maps each label it
/// names to its canonical name. `None`: a form the printer does not know.
pub type Printer = fn(&str, &mut dyn FnMut(&str) -> String) -> Option<String>;

/// The printer for an architecture's instructions, if there is one.
pub fn printer(arch: &str) -> Option<Printer> {
    match arch {
        "AArch64" => Some(aarch64::print),
        "RISCV" => Some(riscv::print),
        "PPC" => Some(ppc::print),
        "ARM" => Some(arm::print),
        "X86" => Some(x86::print),
        "X86_64" => Some(x86_64::print),
        "LISA" => Some(lisa::print),
        _ => None,
    }
}

/// Splits the labels off the front of a cell: `L0: LDR X0,[X1]` is `["L0"]` and the
/// instruction.
fn split_labels(cell: &str) -> (Vec<&str>, &str) {
    let mut labels = Vec::new();
    let mut rest = cell.trim();
    loop {
        let n = rest.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.').count();
        let after = rest[n..].trim_start();
        if n == 0 || !after.starts_with(':') || rest.as_bytes()[0].is_ascii_digit() {
            return (labels, rest);
        }
        labels.push(&rest[..n]);
        rest = after[1..].trim_start();
    }
}

/// The code as herd's hash prints it, before its digest; `morello`: under herd's variant
/// of that name, which prints some AArch64 bases as capability registers.
pub fn digest_text(arch: &str, threads: &[ThreadCode], morello: bool) -> Option<String> {
    let print: Printer = if morello && arch == "AArch64" { aarch64::print_morello } else { printer(arch)? };
    // First pass: every label, defined or named, in herd's order (by name).
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for th in threads {
        for c in &th.cells {
            let (labels, ins) = split_labels(&c.text);
            for l in labels {
                names.insert(l.to_string(), String::new());
            }
            if !ins.is_empty() {
                print(ins, &mut |l| {
                    names.insert(l.to_string(), String::new());
                    String::new()
                })?;
            }
        }
    }
    for (k, v) in names.values_mut().enumerate() {
        *v = format!("L{k:02}");
    }
    let mut rename = |l: &str| names.get(l).cloned().unwrap_or_default();
    let mut cols: Vec<Vec<String>> = Vec::new();
    for th in threads {
        let mut col = Vec::new();
        for c in &th.cells {
            let (labels, ins) = split_labels(&c.text);
            for l in labels {
                col.push(format!("{}:", rename(l)));
            }
            if !ins.is_empty() {
                col.push(print(ins, &mut rename)?);
            }
        }
        cols.push(col);
    }
    Some(layout(&cols))
}

/// herd's code table (`Misc.string_of_prog`): line by line, each column padded to its
/// widest entry, cells ` x ` joined by `|`, each line ending `;`.
pub(super) fn layout(cols: &[Vec<String>]) -> String {
    let widths: Vec<usize> = cols.iter().map(|c| c.iter().map(String::len).max().unwrap_or(0)).collect();
    let lines = cols.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::new();
    for i in 0..lines {
        for (k, (c, w)) in cols.iter().zip(&widths).enumerate() {
            if k > 0 {
                out.push('|');
            }
            let cell = c.get(i).map_or("", String::as_str);
            out.push(' ');
            out.push_str(cell);
            out.extend(std::iter::repeat_n(' ', w - cell.len() + 1));
        }
        out.push_str(";\n");
    }
    out
}
