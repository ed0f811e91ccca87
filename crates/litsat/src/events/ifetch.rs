//! herd's `-variant ifetch` (alias `self`) on AArch64: self-modifying code.
//!
//! herd fetches an instruction only where one of its labels is *exported*: named by a
//! value of the initial state (`0:X1=P1:L0`, `label:"P1:L0"`) or taken by an `ADR`, the
//! name alone counting, whatever the thread. Such an instruction's code is a memory
//! location, named by the least of its labels (`P1:L0`: every label of it stands for
//! that one, in values too), initialised with the instruction as herd prints it
//! (`instr:"B .+8"`, or `NOP`). Running it is a fetch, a read of that location which is
//! no explicit access, then a decode: a predicated commit per instruction the read may
//! have found, herd's candidates (the instruction itself and every instruction value of
//! the initial state that may overwrite one: not a branch to a label), leading to that
//! instruction's semantics, run at the same address in the same instance; a value that
//! is none of them faults (`UndefinedInstruction`) and the thread ends.
//!
//! Here each fetched instruction is rewritten before the code is laid out and unrolled:
//! an instruction of [`Op::Fetch`] and [`Op::Decode`], then one block of code per
//! candidate (its branch offsets taken from the fetched instruction's address), each
//! going on to the next instruction, and the fault's block. The events' sets that the
//! model reads under the variant (`Instr`, `Restricted-CMODX`) are [`tag_code_accesses`].

use super::{Events, Instr, Kind, SourceRef, VExpr, Value};
use crate::diag::Diag;
use crate::isa::{BinOp, Isa, Op, Src, split_grouped};
use crate::litmus::{InitItem, Loc, Test, Val, code_label};
use std::collections::{BTreeMap, BTreeSet};

/// The register the fetched value goes to: a temporary of litsat's, never shown.
const FETCH_REG: &str = "%ifetch";

/// The instructions that herd's CMODX rules leave free to modify while they run (Arm
/// ARM B2.2.5; herd's `is_cmodx_restricted_instruction`): every other is restricted.
const UNRESTRICTED: &[&str] = &["B", "BL", "CBNZ", "CBZ", "ISB", "NOP", "TBNZ", "TBZ", "SVC"];

/// Branches that herd never takes as an overwriting instruction when their target is a
/// label (its `can_overwrite`).
const LABEL_BRANCHES: &[&str] = &["B", "BL", "CBZ", "CBNZ", "TBZ", "TBNZ"];

/// An instruction as herd prints it inside a value: operands separated by bare commas,
/// upper case.
fn normal_text(text: &str) -> String {
    let (m, args) = split_grouped(text);
    let args: Vec<String> = args.iter().map(|a| a.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    let t = if args.is_empty() { m } else { format!("{m} {}", args.join(",")) };
    t.to_ascii_uppercase()
}

/// The name of the value of an instruction whose text is `text`, as herd prints it:
/// `NOP` bare, any other `instr:"…"`.
fn value_name(text: &str) -> String {
    let t = normal_text(text);
    if t == "NOP" { t } else { format!("instr:\"{t}\"") }
}

/// The instruction text a value names (`NOP`, `instr:"B .+8"`), if it names one.
fn instruction_of(v: &str) -> Option<&str> {
    if v == "NOP" {
        return Some(v);
    }
    v.strip_prefix("instr:\"")?.strip_suffix('"')
}

/// Whether herd may take the instruction `text` as overwriting another.
fn can_overwrite(text: &str) -> bool {
    let (m, args) = split_grouped(text);
    let m = m.to_ascii_uppercase();
    let branch = LABEL_BRANCHES.contains(&m.as_str()) || m.starts_with("B.");
    !branch || args.last().is_none_or(|l| l.trim().starts_with('.'))
}

/// Whether modifying the instruction `text` while it runs is restricted (CMODX).
fn restricted(text: &str) -> bool {
    let (m, _) = split_grouped(text);
    !UNRESTRICTED.contains(&m.to_ascii_uppercase().as_str())
}

/// The label names the test exports: those of code labels given as initial values, and
/// those `ADR` takes.
fn exported(test: &Test, code: &[Vec<Instr>]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for it in &test.init {
        if let Val::Sym(v) = &it.value
            && let Some((_, l)) = code_label(v)
        {
            names.insert(l.to_string());
        }
    }
    for op in code.iter().flatten().flat_map(|i| &i.ops) {
        if let Op::LabelOf { label, .. } = op {
            names.insert(label.clone());
        }
    }
    names
}

/// A fetched instruction: its index in its thread's code and its labels, sorted (the
/// first is herd's canonical one).
struct Site {
    k: usize,
    labels: Vec<String>,
}

/// The fetched instructions of one thread's code: those with an exported label (its own,
/// or one of the label cells before it). Labels litsat made for branch offsets are none
/// of herd's.
fn sites(instrs: &[Instr], exported: &BTreeSet<String>) -> Vec<Site> {
    let mut out = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for (k, ins) in instrs.iter().enumerate() {
        labels.extend(ins.label.iter().filter(|l| !l.starts_with("__off")).cloned());
        if ins.text.is_empty() {
            continue;
        }
        let mut ls = std::mem::take(&mut labels);
        if ls.iter().any(|l| exported.contains(l)) {
            ls.sort();
            ls.dedup();
            out.push(Site { k, labels: ls });
        }
    }
    out
}

/// Every label of a fetched instruction mapped to its canonical one, where they differ.
fn renames(test: &Test, code: &[Vec<Instr>]) -> BTreeMap<String, String> {
    let exported = exported(test, code);
    let mut map = BTreeMap::new();
    for s in code.iter().flat_map(|instrs| sites(instrs, &exported)) {
        for l in &s.labels[1..] {
            map.insert(l.clone(), s.labels[0].clone());
        }
    }
    map
}

/// The test with its initial values as herd reads them under the variant: a code
/// label by its instruction's canonical label, an instruction by herd's printing of it.
/// Refused without register events: the fetch's order is the model's to compute.
pub(super) fn normalise(test: &Test, code: &[Vec<Instr>], register_events: bool, src: &SourceRef<'_>) -> Result<Test, Diag> {
    if !register_events {
        return Err(Diag::file(
            src.file,
            "unsupported: variant `ifetch` under a model that does not compute its own dependencies (`catdep`, herd's aarch64.cat)",
        ));
    }
    let map = renames(test, code);
    let mut t = test.clone();
    for it in &mut t.init {
        if let Val::Sym(v) = &it.value
            && let Some((p, l)) = code_label(v)
            && let Some(c) = map.get(l)
        {
            it.value = Val::Sym(format!("P{p}:{c}"));
        }
    }
    Ok(t)
}

/// The test's instruction values, in its initial state and its condition, named as herd
/// prints them under the variant (`instr:"NOP"` is `NOP`, `instr:"b  .+8"` is
/// `instr:"B .+8"`), so that equal instructions are one value.
pub fn name_instructions(test: &mut Test) {
    let mut name = |v: &mut Val| {
        if let Val::Sym(s) = v
            && let Some(i) = instruction_of(s)
        {
            *v = Val::Sym(value_name(i));
        }
    };
    test.init.iter_mut().for_each(|it| name(&mut it.value));
    test.cond.prop.map_vals(&mut name);
}

/// The candidates a fetch may decode, besides the instruction itself: herd's
/// instructions that may overwrite one, taken from its initial state once the code
/// locations are in it (the initial state's instruction values, and the fetched
/// instructions as their locations hold them, their labels as offsets), but the
/// branches to a label. By value name.
fn overwriting(test: &Test, code: &[Vec<Instr>], exported: &BTreeSet<String>) -> BTreeSet<String> {
    let values = test.init.iter().filter_map(|it| if let Val::Sym(v) = &it.value { instruction_of(v) } else { None });
    let mut out: BTreeSet<String> = values.filter(|t| can_overwrite(t)).map(value_name).collect();
    for (th, instrs) in code.iter().enumerate() {
        for s in sites(instrs, exported) {
            out.insert(value_name(&instr_text(instrs, s.k, test.threads[th].id)));
        }
    }
    out
}

/// Rewrites every fetched instruction as the module's documentation says, and returns
/// the initial writes of their code locations.
pub(super) fn rewrite(
    test: &Test,
    isa: &dyn Isa,
    code: &mut [Vec<Instr>],
    src: &SourceRef<'_>,
) -> Result<Vec<InitItem>, Diag> {
    let exported = exported(test, code);
    let map = renames(test, code);
    let others = overwriting(test, code, &exported);
    let mut items = Vec::new();
    for (th, instrs) in code.iter_mut().enumerate() {
        for op in instrs.iter_mut().flat_map(|i| &mut i.ops) {
            if let Op::LabelOf { label, .. } = op
                && let Some(c) = map.get(label.as_str())
            {
                label.clone_from(c);
            }
        }
        let found = sites(instrs, &exported);
        if found.is_empty() {
            continue;
        }
        let tid = test.threads[th].id;
        let mut blocks = Vec::new();
        for s in &found {
            let b = site_blocks(test, isa, (th, tid), instrs, s, &others).map_err(|m| src.err(instrs[s.k].pos, m))?;
            items.push(b.item.clone());
            blocks.push(b);
        }
        let mut out = Vec::with_capacity(instrs.len() + 4 * blocks.len());
        let mut next = blocks.into_iter().peekable();
        for (k, ins) in std::mem::take(instrs).into_iter().enumerate() {
            match next.next_if(|b| b.k == k) {
                Some(mut b) => {
                    // A later site's offsets may have labelled this instruction since.
                    b.code[0].label = ins.label;
                    out.extend(b.code);
                }
                None => out.push(ins),
            }
        }
        *instrs = out;
    }
    Ok(items)
}

/// One fetched instruction rewritten: its code (the fetch, each candidate's block, the
/// fault's) and its code location's initial write.
struct Blocks {
    k: usize,
    code: Vec<Instr>,
    item: InitItem,
}

/// The blocks of site `s` of thread `th` (numbered `tid`), the initial-state candidates
/// `others` besides the instruction itself.
fn site_blocks(
    test: &Test,
    isa: &dyn Isa,
    (th, tid): (usize, usize),
    instrs: &mut Vec<Instr>,
    s: &Site,
    others: &BTreeSet<String>,
) -> Result<Blocks, String> {
    let (k, pos) = (s.k, instrs[s.k].pos);
    let loc = format!("P{tid}:{}", s.labels[0]);
    let own = value_name(&instr_text(instrs, k, tid));
    let next = next_label(instrs, th, k);
    let mut cases: Vec<(String, Vec<Op>, String)> = vec![(own.clone(), instrs[k].ops.clone(), instrs[k].text.clone())];
    let mut refused = Vec::new();
    for v in others.iter().filter(|v| **v != own) {
        let text = match at_address(instruction_of(v).unwrap_or(v), instrs, th, k) {
            Ok(text) => text,
            Err(why) => {
                refused.push((v.clone(), format!("runs {v} at {loc}, which {why}")));
                continue;
            }
        };
        let ops = isa
            .parse_under(&text, &test.variants)
            .map_err(|e| format!("unsupported: the instruction value {v} overwriting this one: {}", e.message))?;
        cases.push((v.clone(), ops, text));
    }
    let label = |i: &dyn std::fmt::Display| format!("%if{th}.{k}.{i}");
    let mut code = Vec::with_capacity(cases.len() + 2);
    let targets: Vec<(String, String)> = cases.iter().enumerate().map(|(i, c)| (c.0.clone(), label(&i))).collect();
    let decode = Op::Decode { src: FETCH_REG.into(), cases: targets, refused, other: label(&"x") };
    let fetch = Op::Fetch { dst: FETCH_REG.into(), loc: loc.clone() };
    code.push(Instr { label: instrs[k].label.clone(), ops: vec![fetch, decode], text: instrs[k].text.clone(), pos });
    for (i, (_, mut ops, text)) in cases.into_iter().enumerate() {
        if !matches!(ops.last(), Some(Op::Exit)) {
            ops.push(Op::Branch { cond: None, target: next.clone() });
        }
        code.push(Instr { label: Some(label(&i)), ops, text, pos });
    }
    code.push(Instr { label: Some(label(&"x")), ops: undefined(s, &loc), text: instrs[k].text.clone(), pos });
    let item = InitItem { loc: Loc::Mem(loc), value: Val::Sym(own), pos, ty: None };
    Ok(Blocks { k, code, item })
}

/// herd's undefined-instruction fault at a fetched instruction that read no candidate:
/// `ELR_EL1` gets the instruction's address, and the thread ends.
fn undefined(s: &Site, loc: &str) -> Vec<Op> {
    let tags = vec!["FAULT".into(), "FAULT-RD".into(), "EXC-ENTRY".into(), "UndefinedInstruction".into()];
    vec![
        Op::Fault { ftype: "UndefinedInstruction".into(), tags, labels: s.labels.clone(), at: None },
        Op::Mov { dst: "ELR_EL1".into(), src: Src::Addr(loc.to_string()) },
        Op::Exit,
    ]
}

/// The text of instruction `k` of thread `tid`, as herd prints it in a value: its
/// labels as offsets.
fn instr_text(instrs: &[Instr], k: usize, tid: usize) -> String {
    let labels: BTreeMap<&str, usize> =
        instrs.iter().enumerate().filter_map(|(j, i)| i.label.as_deref().map(|l| (l, j))).collect();
    let addr = |j: usize| {
        let before = instrs[..j].iter().filter(|i| !i.text.is_empty()).count() as i64;
        (tid as i64 + 1) * 100_000 + 4 * before
    };
    super::code::herd_text(instrs, k, tid, |l| labels.get(l).map(|&j| addr(j)))
}

/// The label of the instruction after `k`, made where it has none.
fn next_label(instrs: &mut Vec<Instr>, th: usize, k: usize) -> String {
    if let Some(l) = instrs.get(k + 1).and_then(|i| i.label.clone()) {
        return l;
    }
    let fresh = format!("%if{th}.{k}.next");
    match instrs.get_mut(k + 1) {
        Some(i) => i.label = Some(fresh.clone()),
        None => {
            let pos = instrs[k].pos;
            instrs.push(Instr { label: Some(fresh.clone()), ops: Vec::new(), text: String::new(), pos });
        }
    }
    fresh
}

/// A candidate's text with its offsets (`B .+8`, `ADR X3,.+4`) made the labels they
/// name from the address of instruction `k`, where it runs: for a branch, one made where
/// there is none; `ADR` needs one of the test's. `Err` with why herd cannot run it
/// there.
fn at_address(text: &str, instrs: &mut Vec<Instr>, th: usize, k: usize) -> Result<String, String> {
    let (m, args) = split_grouped(text);
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        let a = a.trim();
        let Some(off) = super::code::offset(a) else {
            out.push(a.to_string());
            continue;
        };
        let outside = "branches out of the code (herd stops on it: \"Segmentation fault\")";
        if m.eq_ignore_ascii_case("ADR") {
            let to = herd_label_at(instrs, k, off);
            out.push(to.ok_or("takes the address of an instruction without a label (herd stops on it: \"Overwriting with ADR, cannot handle\")")?);
        } else {
            out.push(super::code::offset_label(instrs, th, k, a).map_err(|_| outside)?);
        }
    }
    Ok(if out.is_empty() { m } else { format!("{m} {}", out.join(",")) })
}

/// The least of the test's own labels on the instruction `off` bytes from instruction
/// `k`, if any.
fn herd_label_at(instrs: &[Instr], k: usize, off: i64) -> Option<String> {
    let real: Vec<usize> = (0..instrs.len()).filter(|&j| !instrs[j].text.is_empty()).collect();
    let here = real.iter().position(|&j| j == k)? as i64;
    let to = usize::try_from(here + off / 4).ok().filter(|_| off % 4 == 0)?;
    let (from, end) = (if to == 0 { 0 } else { real[to - 1] + 1 }, real.get(to).map_or(instrs.len(), |&j| j + 1));
    let own = |l: &&String| !l.starts_with("__off") && !l.starts_with('%');
    instrs[from..end].iter().filter_map(|i| i.label.as_ref()).filter(own).min().cloned()
}

/// The sets the model reads under the variant (herd's `Instr`: the memory accesses to
/// code locations; `Restricted-CMODX`: those of them whose value is an instruction the
/// CMODX rules restrict), as tags, or conditional tags where the address or the value is
/// the solver's.
pub(super) fn tag_code_accesses(ev: &mut Events) {
    let code: Vec<usize> = (0..ev.locs.len()).filter(|&l| code_label(&ev.locs[l]).is_some()).collect();
    let restricted: Vec<usize> = (0..ev.locs.len())
        .filter(|&l| ev.layout.is_code(l) && instruction_of(&ev.locs[l]).is_some_and(restricted))
        .collect();
    for i in 0..ev.events.len() {
        let e = &ev.events[i];
        if !(e.is_read() || e.is_write()) || e.kind == Kind::Fence {
            continue;
        }
        let (loc, addr, val) = (e.loc, e.addr, e.val);
        let at = match (loc, addr) {
            (Some(l), _) => ev.constant(Value::Int(i64::from(code.contains(&l)))),
            (None, Some(a)) => any_of(ev, a, &code),
            (None, None) => continue,
        };
        let is = any_of(ev, val, &restricted);
        let is = ev.and(at, is);
        for (tag, v) in [("Instr", at), ("Restricted-CMODX", is)] {
            if ev.is_const(v, 1) {
                ev.events[i].tags.push(tag.into());
            } else if !ev.is_const(v, 0) {
                ev.events[i].tags_if.push((tag.into(), v));
            }
        }
    }
}

/// Whether value `v` is the address of one of the locations `locs` (0/1).
fn any_of(ev: &mut Events, v: usize, locs: &[usize]) -> usize {
    let mut any = ev.constant(Value::Int(0));
    for &l in locs {
        let c = ev.constant(Value::Addr(l));
        let eq = match ev.vals[v] {
            VExpr::Const(x) => ev.constant(Value::Int(i64::from(x == Value::Addr(l)))),
            _ => ev.bin(BinOp::Eq, v, c),
        };
        any = ev.or(any, eq);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Pos;

    #[test]
    fn values_are_named_as_herd_prints_them() {
        assert_eq!(value_name("nop"), "NOP");
        assert_eq!(value_name("B   .+8"), "instr:\"B .+8\"");
        assert_eq!(value_name("mov w9, #1"), "instr:\"MOV W9,#1\"");
        assert_eq!(instruction_of("instr:\"B .+8\""), Some("B .+8"));
        assert!(can_overwrite("B .+8") && !can_overwrite("B L0") && !can_overwrite("CBZ W0,L1"));
        assert!(restricted("MOV W9,#1") && !restricted("B .+8") && !restricted("NOP") && restricted("B.EQ .+8"));
    }

    #[test]
    fn a_fetched_instruction_has_an_exported_label() {
        let ins = |l: Option<&str>, t: &str| Instr { label: l.map(str::to_string), ops: Vec::new(), text: t.into(), pos: Pos(0) };
        let code = vec![ins(Some("l1"), ""), ins(Some("l2"), "B l0"), ins(None, "MOV W2,#1"), ins(Some("l0"), "")];
        let exported: BTreeSet<String> = ["l2".to_string()].into();
        let s = sites(&code, &exported);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].k, s[0].labels.clone()), (1, vec!["l1".to_string(), "l2".to_string()]));
    }
}
