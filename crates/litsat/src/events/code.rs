//! A test's threads as instructions, ready to interpret: each cell through the ISA's
//! parser (where the ISA does not lower whole threads), computed branches resolved to
//! labels, loops unrolled.

use super::{Instr, SourceRef};
use crate::diag::{Diag, Pos};
use crate::isa::{Isa, Op, Reg};
use crate::litmus::{InitItem, Loc, Test, Val, code_label};
use std::collections::BTreeSet;

/// Splits a leading `LABEL:` off a cell.
fn split_label(s: &str) -> (Option<&str>, &str, usize) {
    if let Some(k) = s.find(':') {
        let lab = s[..k].trim();
        if !lab.is_empty()
            && lab.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !lab.chars().all(|c| c.is_ascii_digit())
        {
            let rest = &s[k + 1..];
            let skipped = k + 1 + (rest.len() - rest.trim_start().len());
            return (Some(lab), rest.trim_start(), skipped);
        }
    }
    (None, s, 0)
}

/// Branch offsets made labels, then each thread's control flow laid out where the code
/// takes code addresses as values ([`super::flow`], which gives the exported labels'
/// initial writes), else each computed branch resolved ([`resolve_jumps`]).
///
/// Under `-variant ifetch`, the fetched instructions are rewritten first
/// ([`super::ifetch`]), and their code locations are the ones initialised.
pub(super) fn resolve_flow(
    test: &Test,
    isa: &dyn Isa,
    code: &mut Vec<Vec<Instr>>,
    src: &SourceRef<'_>,
) -> Result<Option<Vec<InitItem>>, Diag> {
    resolve_offsets(code, src)?;
    let fetched = match crate::variant::holds(&test.variants, "ifetch") {
        true => Some(super::ifetch::rewrite(test, isa, code, src)?),
        false => None,
    };
    // Under the variant, a branch to a register that holds no known label goes to every
    // exported label where it holds it, as herd's does (`flow`).
    let jumps = fetched.is_some() && code.iter().flatten().flat_map(|i| &i.ops).any(|op| matches!(op, Op::Jump(_)));
    let exported = if jumps || super::flow::needed(code) {
        super::flow::lay_out(test, code, src)?
    } else {
        resolve_jumps(test, code, src)?;
        super::flow::exported(test, code)
    };
    Ok(Some(fetched.unwrap_or(exported)))
}

/// Makes each computed branch ([`Op::Jump`]) a branch to the label its register holds: the
/// initial state binds the register to a code label of the same thread (`P0:foo`), and no
/// instruction of the thread writes it, so the target is known before interpretation (and
/// before unrolling, which reads branch targets).
pub(super) fn resolve_jumps(test: &Test, code: &mut [Vec<Instr>], src: &SourceRef<'_>) -> Result<(), Diag> {
    for (th, instrs) in test.threads.iter().zip(code.iter_mut()) {
        // Most threads have no computed jump: nothing to collect for them.
        if !instrs.iter().flat_map(|i| &i.ops).any(|op| matches!(op, Op::Jump(_))) {
            continue;
        }
        let written: BTreeSet<Reg> = instrs.iter().flat_map(|i| i.ops.iter()).flat_map(written_regs).flatten().collect();
        let labels: BTreeSet<&str> = instrs.iter().filter_map(|i| i.label.as_deref()).collect();
        let mut targets: Vec<(usize, usize, String)> = Vec::new();
        for (k, ins) in instrs.iter().enumerate() {
            for (j, op) in ins.ops.iter().enumerate() {
                let Op::Jump(r) = op else { continue };
                let refuse = |why: &str| src.err(ins.pos, format!("unsupported: computed branch on '{r}': {why}"));
                let bound = test.init.iter().find_map(|it| match (&it.loc, &it.value) {
                    (Loc::Reg(t, x), Val::Sym(v)) if *t == th.id && x == r => Some(v.as_str()),
                    _ => None,
                });
                let label = bound.and_then(code_label).filter(|&(t, _)| t == th.id).map(|(_, l)| l);
                let Some(label) = label else {
                    return Err(refuse("the initial state binds it to no code label of this thread"));
                };
                if written.contains(r) {
                    return Err(refuse("the thread writes it, so its label is not fixed"));
                }
                if !labels.contains(label) {
                    return Err(refuse(&format!("no label '{label}' in this thread")));
                }
                targets.push((k, j, label.to_string()));
            }
        }
        for (k, j, target) in targets {
            instrs[k].ops[j] = Op::Branch { cond: None, target };
        }
    }
    Ok(())
}

/// What herd checks of the names a test uses before it runs it: a code label given as an
/// initial value is a label of its thread, and the final condition names no location
/// (or label) that neither the initial state nor the code names ("Post-condition
/// introduces new symbolic location(s)"). Not for C, whose locations are its threads'
/// parameters.
pub(super) fn check_names(test: &Test, code: &[Vec<Instr>], src: &SourceRef<'_>) -> Result<(), Diag> {
    let labels = |t: usize| -> BTreeSet<&str> {
        let at = test.threads.iter().position(|th| th.id == t);
        at.and_then(|k| code.get(k)).into_iter().flatten().filter_map(|i| i.label.as_deref()).collect()
    };
    for it in &test.init {
        if let Val::Sym(v) = &it.value
            && let Some((t, l)) = code_label(v)
            && !labels(t).contains(l)
        {
            return Err(src.err(it.pos, format!("label {l} not found on P{t}, yet the initial state uses it ('{v}')")));
        }
    }
    if test.arch == "C" {
        return Ok(());
    }
    check_located_faults(test, code, src)?;
    let base = |x: &str| x.split(['[', '{']).next().unwrap_or(x).to_string();
    let mut known: BTreeSet<String> = BTreeSet::new();
    for it in &test.init {
        if let Loc::Mem(x) = &it.loc {
            known.insert(base(x));
        }
        if let Val::Sym(v) = &it.value {
            known.insert(base(v));
            known.extend(super::oa_name(v).map(str::to_string));
        }
    }
    known.extend(test.arrays.iter().map(|a| a.name.clone()));
    // An entry `PTE(x)` names its virtual location `x`.
    let virt: Vec<String> = known.iter().filter_map(|k| super::pte_name(k).map(str::to_string)).collect();
    known.extend(virt);
    let mut named = BTreeSet::new();
    for op in code.iter().flatten().flat_map(|i| &i.ops) {
        super::interp::op_locations(op, &mut named);
    }
    known.extend(named.into_iter().map(base));
    for (th, instrs) in test.threads.iter().zip(code) {
        known.extend(instrs.iter().filter_map(|i| i.label.as_deref()).map(|l| format!("P{}:{l}", th.id)));
    }
    let mut places = Vec::new();
    test.cond.prop.loc_refs(&mut places);
    let mut syms: Vec<&str> = places.iter().filter_map(|l| if let Loc::Mem(x) = l { Some(x.as_str()) } else { None }).collect();
    super::interp::collect_syms(&test.cond.prop, &mut syms);
    // Instructions as values (`instr:"…"`, `NOP`) are no symbols.
    // Nor are page-table entries' values (`(oa:PA(x))`).
    let symbolic = |x: &&str| !x.starts_with("instr:") && *x != "NOP" && !x.starts_with('(');
    let mut new: BTreeSet<String> = syms.into_iter().filter(symbolic).map(base).filter(|x| !known.contains(x)).collect();
    // A fault atom's label (`fault(P0:L1)`) is a code label of its thread.
    let mut atoms = Vec::new();
    test.cond.prop.fault_atoms(&mut atoms);
    for a in atoms {
        let l = a.label.as_ref().map(|l| format!("P{}:{l}", a.thread));
        new.extend(l.filter(|l| !known.contains(l)));
    }
    let Some(first) = new.first() else { return Ok(()) };
    let at = src.text.rfind(first.as_str()).unwrap_or(0);
    let all = new.iter().cloned().collect::<Vec<_>>().join(", ");
    Err(src.err(
        Pos(at),
        format!("the final condition names {{{all}}}, which neither the initial state nor the code names (herd: \"Post-condition introduces new symbolic location(s)\")"),
    ))
}

/// A fault at an address (herd's Morello capability faults, [`Op::Fault`]'s `at`) is one
/// that herd's fault atoms match by location and print with its message
/// (`Fault(P0,x,CapTag)`): not built, so a condition naming faults beside one is refused.
fn check_located_faults(test: &Test, code: &[Vec<Instr>], src: &SourceRef<'_>) -> Result<(), Diag> {
    let mut atoms = Vec::new();
    test.cond.prop.fault_atoms(&mut atoms);
    let located = |op: &Op| matches!(op, Op::Fault { at: Some(_), .. });
    if atoms.is_empty() || !code.iter().flatten().flat_map(|i| &i.ops).any(located) {
        return Ok(());
    }
    let at = src.text.rfind("ault(").map_or(0, |k| k - 1);
    Err(src.err(Pos(at), "unsupported: a fault atom where capability checks fault (herd's variant morello: faults located at an address, printed with their message)"))
}

/// The registers an op writes: a compare-and-swap pair writes two.
fn written_regs(op: &Op) -> [Option<Reg>; 2] {
    if let Op::Cas { pair: Some(p), .. } = op {
        return [written_reg(op), Some(p.0.clone())];
    }
    [written_reg(op), None]
}

/// The register an op writes, if any.
pub(super) fn written_reg(op: &Op) -> Option<Reg> {
    match op {
        Op::Link(dst) | Op::LabelOf { dst, .. } => Some(dst.clone()),
        Op::Load { dst, .. }
        | Op::Fetch { dst, .. }
        | Op::Mov { dst, .. }
        | Op::Bin { dst, .. }
        | Op::Select { dst, .. }
        | Op::SelectOp { dst, .. }
        | Op::Choose { dst, .. }
        | Op::Cas { expected: dst, .. }
        | Op::Also { dst, .. } => Some(dst.clone()),
        Op::StoreCond { status, .. } => status.clone(),
        Op::Lock { dst, .. } => dst.clone(),
        _ => None,
    }
}

/// Each cell of the code table through the ISA's instruction parser.
pub(super) fn parse_cells(test: &Test, isa: &dyn Isa, src: &SourceRef<'_>) -> Result<Vec<Vec<Instr>>, Diag> {
    let mut code: Vec<Vec<Instr>> = Vec::new();
    for th in &test.threads {
        let mut instrs = Vec::new();
        // herd's labels of the next instruction: those of the empty cells before it.
        let mut labels: Vec<String> = Vec::new();
        for cell in &th.cells {
            let (mut label, mut text, mut skip) = split_label(&cell.text);
            // Several labels on one instruction (`l1:l2:B l0`): all but the last become
            // label cells before it.
            while let (Some(l), (Some(l2), t2, s2)) = (label, split_label(text)) {
                labels.push(l.to_string());
                instrs.push(Instr { label: Some(l.to_string()), ops: Vec::new(), text: String::new(), pos: Pos(cell.pos.0 + skip) });
                (label, text, skip) = (Some(l2), t2, skip + s2);
            }
            let pos = Pos(cell.pos.0 + skip);
            labels.extend(label.map(str::to_string));
            if text.is_empty() {
                if let Some(l) = label {
                    instrs.push(Instr { label: Some(l.to_string()), ops: Vec::new(), text: String::new(), pos });
                }
                continue;
            }
            let mut ops = isa.parse_under(text, &test.variants).map_err(|e| src.err(Pos(pos.0 + e.offset), e.message))?;
            labels.sort();
            labels.dedup();
            for op in &mut ops {
                if let Op::Fault { labels: l, .. } = op {
                    l.clone_from(&labels);
                }
            }
            labels.clear();
            instrs.push(Instr { label: label.map(str::to_string), ops, text: text.to_string(), pos });
        }
        code.push(instrs);
    }
    Ok(code)
}

/// Branches and labels given as offsets (`B .+8`, `CBNZ W0,.-8`, herd's code addresses
/// four bytes an instruction) made branches to labels: the instruction there gets one
/// where it has none.
pub(super) fn resolve_offsets(code: &mut [Vec<Instr>], src: &SourceRef<'_>) -> Result<(), Diag> {
    for (t, instrs) in code.iter_mut().enumerate() {
        let real: Vec<usize> = (0..instrs.len()).filter(|&k| !instrs[k].text.is_empty()).collect();
        let mut n = 0;
        for k in 0..instrs.len() {
            let here = n;
            n += usize::from(!instrs[k].text.is_empty());
            for j in 0..instrs[k].ops.len() {
                let (Op::Branch { target: l, .. } | Op::LabelOf { label: l, .. }) = &instrs[k].ops[j] else { continue };
                let Some(off) = offset(l) else { continue };
                let to = (here as i64 + off / 4).try_into().ok().filter(|&i: &usize| i <= real.len() && off % 4 == 0);
                let Some(to) = to else {
                    return Err(src.err(instrs[k].pos, format!("unsupported: branch offset '{l}' outside the thread's code")));
                };
                let label = label_at(instrs, &real, to, t);
                match &mut instrs[k].ops[j] {
                    Op::Branch { target: l, .. } | Op::LabelOf { label: l, .. } => *l = label,
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// The label of the instruction that offset `l` (`.+8`) from instruction `k` of thread
/// `t` names, made where it has none.
pub(super) fn offset_label(instrs: &mut Vec<Instr>, t: usize, k: usize, l: &str) -> Result<String, String> {
    let real: Vec<usize> = (0..instrs.len()).filter(|&j| !instrs[j].text.is_empty()).collect();
    let here = real.iter().position(|&j| j == k).unwrap_or(0) as i64;
    let off = offset(l).unwrap_or(0);
    let to = (here + off / 4).try_into().ok().filter(|&i: &usize| i <= real.len() && off % 4 == 0);
    let to = to.ok_or_else(|| format!("unsupported: branch offset '{l}' outside the thread's code"))?;
    Ok(label_at(instrs, &real, to, t))
}

/// A code offset, `.+8` or `.-8`, in bytes.
pub(super) fn offset(l: &str) -> Option<i64> {
    let rest = l.strip_prefix('.')?;
    let (sign, n) = match rest.as_bytes().first()? {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return None,
    };
    n.parse::<i64>().ok().map(|n| sign * n)
}

/// A label for real instruction `to` of a thread (its end, past the last), made where
/// it has none.
fn label_at(instrs: &mut Vec<Instr>, real: &[usize], to: usize, t: usize) -> String {
    let fresh = format!("__off{t}_{to}");
    let Some(&k) = real.get(to) else {
        if let Some(l) = instrs.last().filter(|i| i.text.is_empty()).and_then(|i| i.label.clone()) {
            return l;
        }
        let pos = instrs.last().map_or(Pos(0), |i| i.pos);
        instrs.push(Instr { label: Some(fresh.clone()), ops: Vec::new(), text: String::new(), pos });
        return fresh;
    };
    if let Some(l) = &instrs[k].label {
        return l.clone();
    }
    if let Some(l) = k.checked_sub(1).filter(|&p| instrs[p].text.is_empty()).and_then(|p| instrs[p].label.clone()) {
        return l;
    }
    instrs[k].label = Some(fresh.clone());
    fresh
}

/// An instruction's text as herd prints it in an instruction value (`instr:"B .+4"`):
/// operands separated by bare commas, labels as offsets from the instruction (`addr` gives
/// a label's code address in the thread).
pub(super) fn herd_text(instrs: &[Instr], k: usize, tid: usize, addr: impl Fn(&str) -> Option<i64>) -> String {
    let before = instrs[..k].iter().filter(|i| !i.text.is_empty()).count() as i64;
    let here = (tid as i64 + 1) * 100_000 + 4 * before;
    let (m, args) = crate::isa::split_grouped(&instrs[k].text);
    let args: Vec<String> = args
        .iter()
        .map(|a| match addr(a.trim()) {
            Some(to) if to >= here => format!(".+{}", to - here),
            Some(to) => format!(".-{}", here - to),
            None => a.split_whitespace().collect::<Vec<_>>().join(" "),
        })
        .collect();
    if args.is_empty() { m } else { format!("{m} {}", args.join(",")) }
}

/// Each thread with its backward branches unrolled `unroll` times (`crate::unroll`), so
/// that interpretation only ever branches forward; a loop that the values known before
/// any read decide is run to its end first, as herd does (`crate::unroll::concrete`).
pub(super) fn unrolled(
    test: &Test,
    isa: &dyn Isa,
    code: Vec<Vec<Instr>>,
    unroll: usize,
    src: &SourceRef<'_>,
) -> Result<Vec<Vec<Instr>>, Diag> {
    let mut flat = Vec::with_capacity(code.len());
    for (th, instrs) in test.threads.iter().zip(code) {
        let init = test.init.iter().filter_map(|it| match (&it.loc, &it.value) {
            (Loc::Reg(t, r), Val::Int(i)) if *t == th.id => Some((r.clone(), Ok(*i))),
            (Loc::Reg(t, r), Val::Sym(s)) if *t == th.id => Some((r.clone(), Err(s.clone()))),
            _ => None,
        });
        let known = crate::unroll::concrete::Known::new(init, isa.zero_reg());
        let unrolled = crate::unroll::thread_known(instrs, unroll, known).map_err(|n| {
            Diag::limit(src.file, format!("limit: unrolling the loops gives {n} instructions in one thread"))
        })?;
        flat.push(unrolled);
    }
    Ok(flat)
}
