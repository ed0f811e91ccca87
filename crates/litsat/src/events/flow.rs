//! Code addresses as values (herd's AArch64 `ADR`, `BL`, `BLR`, `BR`, `RET`): each thread's
//! control flow laid out again, instruction by instruction, as far as the code labels its
//! registers hold are known.
//!
//! herd lays every thread's code out in one address space (thread `k` at `(k+1)*100000`,
//! four bytes an instruction, labels unique across threads), so a thread may branch into
//! another's code (`0:X8=P1:Ldec`, `BLR X8`). Here each thread is walked from its start
//! with the registers known to hold a code label or address (from the initial state,
//! `ADR`, the link of `BL`/`BLR`, moves): a node is an instruction with such a register
//! map, so that a subroutine called from two places is laid out twice and its `RET` is a
//! plain branch. A branch on a register whose label is not known goes, as in herd, to
//! every label the test exports (labels given as values in the initial state or taken by
//! `ADR`), each under the condition that the register holds it. A node met again is a
//! backward branch, which `crate::unroll` bounds like any other loop.

use super::{Instr, SourceRef};
use crate::diag::{Diag, Pos};
use crate::isa::{BinOp, Cond, Op, Reg, Src};
use crate::litmus::{InitItem, Loc, Test, Val, code_label};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// At most this many laid-out instructions per thread, before unrolling.
const MAX_NODES: usize = 20_000;

/// Where a code value points: a thread's instruction, by its index in the thread's cells.
type Place = (usize, usize);

/// A register's known code value: a label (`P1:L0`) or an unlabelled code address.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Code {
    Label(usize, String),
    Addr(usize, usize),
}

/// The registers known to hold code values.
type Env = BTreeMap<Reg, Code>;

/// Whether a thread's code takes code addresses as values, so that [`lay_out`] is needed.
pub(super) fn needed(code: &[Vec<Instr>]) -> bool {
    code.iter().flatten().flat_map(|i| &i.ops).any(|op| matches!(op, Op::Link(_) | Op::LabelOf { .. }))
}

/// The whole test's code, as one address space.
struct Space<'c> {
    code: &'c [Vec<Instr>],
    labels: HashMap<&'c str, Place>,
    /// The labels the test exports, with the thread each belongs to, sorted.
    exported: Vec<(usize, String)>,
    /// The code values the initial state gives each thread's registers, by thread number.
    init: HashMap<usize, Env>,
}

impl<'c> Space<'c> {
    fn new(test: &Test, code: &'c [Vec<Instr>]) -> Space<'c> {
        let mut labels = HashMap::new();
        for (t, instrs) in code.iter().enumerate() {
            for (k, ins) in instrs.iter().enumerate() {
                if let Some(l) = &ins.label {
                    labels.entry(l.as_str()).or_insert((t, k));
                }
            }
        }
        let mut exported = BTreeSet::new();
        for it in &test.init {
            if let Val::Sym(v) = &it.value
                && let Some((t, l)) = code_label(v)
            {
                exported.insert((t, l.to_string()));
            }
        }
        for (t, instrs) in code.iter().enumerate() {
            for op in instrs.iter().flat_map(|i| &i.ops) {
                if let Op::LabelOf { label, .. } = op {
                    exported.insert((test.threads[t].id, label.clone()));
                }
            }
        }
        let mut init: HashMap<usize, Env> = HashMap::new();
        for it in &test.init {
            if let (Loc::Reg(t, r), Val::Sym(v)) = (&it.loc, &it.value)
                && let Some((u, l)) = code_label(v)
            {
                init.entry(*t).or_default().insert(r.clone(), Code::Label(u, l.to_string()));
            }
        }
        Space { code, labels, exported: exported.into_iter().collect(), init }
    }

    /// The instruction index a code value points to.
    fn place(&self, c: &Code) -> Option<Place> {
        match c {
            Code::Label(_, l) => self.labels.get(l.as_str()).copied(),
            Code::Addr(t, k) => Some((*t, *k)),
        }
    }

    /// The return address of the instruction at `(t, k)`: the label of the next
    /// instruction (a label cell before it included), else its index.
    fn link(&self, tid: usize, (t, k): Place) -> Code {
        let instrs = &self.code[t];
        let mut j = k + 1;
        while j < instrs.len() {
            if let Some(l) = &instrs[j].label {
                return Code::Label(tid, l.clone());
            }
            if !instrs[j].text.is_empty() {
                break;
            }
            j += 1;
        }
        Code::Addr(t, j)
    }
}

/// herd's integer code address of cell `k` of thread `t` (thread number `tid`).
fn code_addr(code: &[Instr], tid: usize, k: usize) -> i64 {
    let before = code[..k.min(code.len())].iter().filter(|i| !i.text.is_empty()).count();
    (tid as i64 + 1) * 100_000 + 4 * before as i64
}

/// The source value of a code value.
fn src_of(space: &Space<'_>, tids: &[usize], c: &Code) -> Src {
    match c {
        Code::Label(t, l) => Src::Addr(format!("P{t}:{l}")),
        Code::Addr(t, k) => Src::Imm(code_addr(&space.code[*t], tids[*t], *k)),
    }
}

/// One thread laid out: its nodes in order, each one instruction.
struct Layout<'s, 'c> {
    space: &'s Space<'c>,
    tids: Vec<usize>,
    nodes: Vec<(Place, Env)>,
    index: HashMap<(Place, Env), usize>,
    out: Vec<Instr>,
    /// Each laid-out instruction's fall-through node, if it may fall through.
    falls: Vec<Option<usize>>,
}

impl Layout<'_, '_> {
    fn node(&mut self, place: Place, env: Env) -> Result<usize, String> {
        if let Some(&n) = self.index.get(&(place, env.clone())) {
            return Ok(n);
        }
        if self.nodes.len() >= MAX_NODES {
            return Err(format!("limit: laying out the code gives more than {MAX_NODES} instructions in one thread"));
        }
        let n = self.nodes.len();
        self.nodes.push((place, env.clone()));
        self.index.insert((place, env), n);
        Ok(n)
    }

    /// The node a branch to `label` from thread `t`'s code goes to, with `env`.
    fn target(&mut self, label: &str, env: Env) -> Result<usize, String> {
        let place = *self.space.labels.get(label).ok_or_else(|| format!("unknown label '{label}'"))?;
        self.node(place, env)
    }
}

fn node_label(n: usize) -> String {
    format!("@{n}")
}

/// Lays thread `th`'s control flow out as described in the module's documentation.
fn thread(space: &Space<'_>, tids: &[usize], th: usize) -> Result<Vec<Instr>, (Pos, String)> {
    let mut lay =
        Layout { space, tids: tids.to_vec(), nodes: Vec::new(), index: HashMap::new(), out: Vec::new(), falls: Vec::new() };
    let entry_pos = space.code[th].first().map_or(Pos(0), |i| i.pos);
    let env = space.init.get(&tids[th]).cloned().unwrap_or_default();
    lay.node((th, 0), env).map_err(|e| (entry_pos, e))?;
    let mut done = 0;
    while done < lay.nodes.len() {
        let ((t, k), env) = lay.nodes[done].clone();
        let (ins, fall) = if k < space.code[t].len() {
            let ins = &space.code[t][k];
            step(&mut lay, (t, k), env, ins).map_err(|e| (ins.pos, e))?
        } else {
            let pos = space.code[t].last().map_or(entry_pos, |i| i.pos);
            (Instr { label: None, ops: vec![Op::Exit], text: String::new(), pos }, None)
        };
        lay.out.push(Instr { label: Some(node_label(done)), ..ins });
        lay.falls.push(fall);
        done += 1;
    }
    // Each fall-through to any node but the next is an explicit branch.
    let mut out = lay.out;
    for (n, fall) in lay.falls.into_iter().enumerate() {
        if let Some(f) = fall
            && f != n + 1
        {
            out[n].ops.push(Op::Branch { cond: None, target: node_label(f) });
        }
    }
    Ok(out)
}

/// One instruction at `place` with registers `env`: its ops with code values made moves
/// and branches retargeted to nodes, and the node it falls through to, if any.
fn step(lay: &mut Layout<'_, '_>, place: Place, mut env: Env, ins: &Instr) -> Result<(Instr, Option<usize>), String> {
    let space = lay.space;
    let tid = lay.tids[place.0];
    let mut ops = Vec::with_capacity(ins.ops.len());
    let mut falls = true;
    for op in &ins.ops {
        match op {
            Op::Link(dst) => {
                let c = space.link(tid, place);
                ops.push(Op::Mov { dst: dst.clone(), src: src_of(space, &lay.tids, &c) });
                env.insert(dst.clone(), c);
            }
            Op::LabelOf { dst, label } => {
                let c = Code::Label(tid, label.clone());
                space.place(&c).ok_or_else(|| format!("unknown label '{label}'"))?;
                ops.push(Op::Mov { dst: dst.clone(), src: src_of(space, &lay.tids, &c) });
                env.insert(dst.clone(), c);
            }
            Op::Branch { cond, target } => {
                // herd: a thread's code names only its own labels; another's is reached
                // through a register that holds it.
                if let Some(&(t, _)) = lay.space.labels.get(target.as_str())
                    && t != place.0
                {
                    return Err(format!(
                        "P{} cannot refer to {target}, a label of P{}: give a register the label as its initial value",
                        lay.tids[place.0], lay.tids[t]
                    ));
                }
                let n = lay.target(target, env.clone())?;
                ops.push(Op::Branch { cond: cond.clone(), target: node_label(n) });
                falls &= cond.is_some();
            }
            Op::Jump(r) => {
                jump(lay, r, &env, &mut ops)?;
                falls = false;
            }
            // A fetched instruction's decode (`super::ifetch`): to each case's code.
            Op::Decode { src, cases, refused, other } => {
                let mut to = |t: &String| lay.target(t, env.clone()).map(node_label);
                let cases = cases.iter().map(|(v, t)| Ok((v.clone(), to(t)?))).collect::<Result<_, String>>()?;
                ops.push(Op::Decode { src: src.clone(), cases, refused: refused.clone(), other: to(other)? });
                falls = false;
            }
            Op::Exit => {
                ops.push(Op::Exit);
                falls = false;
            }
            op => {
                if let Some(dst) = super::code::written_reg(op) {
                    match op {
                        Op::Mov { src: Src::Reg(s), .. } if env.contains_key(s) => {
                            let c = env[s].clone();
                            env.insert(dst, c);
                        }
                        _ => {
                            env.remove(&dst);
                        }
                    }
                }
                ops.push(op.clone());
            }
        }
    }
    let fall = if falls { Some(lay.node((place.0, place.1 + 1), env)?) } else { None };
    Ok((Instr { label: None, ops, text: ins.text.clone(), pos: ins.pos }, fall))
}

/// A branch to the code value register `r` holds: to it, where known; else to each label
/// the test exports, where `r` holds it (herd's `indirectBranchT`).
fn jump(lay: &mut Layout<'_, '_>, r: &Reg, env: &Env, ops: &mut Vec<Op>) -> Result<(), String> {
    if let Some(c) = env.get(r) {
        let place = lay.space.place(c).ok_or_else(|| format!("branch to an unknown label in '{r}'"))?;
        let n = lay.node(place, env.clone())?;
        ops.push(Op::Branch { cond: None, target: node_label(n) });
        return Ok(());
    }
    if lay.space.exported.is_empty() {
        return Err(format!("unsupported: branch on '{r}', which holds no code label, and the test exports none"));
    }
    for (t, l) in lay.space.exported.clone() {
        let c = Code::Label(t, l.clone());
        let Some(place) = lay.space.place(&c) else { continue };
        let mut e = env.clone();
        e.insert(r.clone(), c);
        let n = lay.node(place, e)?;
        let cond = Cond { op: BinOp::Eq, a: Src::Reg(r.clone()), b: Src::Addr(format!("P{t}:{l}")) };
        ops.push(Op::Branch { cond: Some(cond), target: node_label(n) });
    }
    // A value that is no exported label branches nowhere: the thread ends.
    ops.push(Op::Exit);
    Ok(())
}

/// Lays out every thread (see the module's documentation), and returns the initial
/// writes of the exported labels: each the instruction it labels, as herd prints it.
pub(super) fn lay_out(test: &Test, code: &mut Vec<Vec<Instr>>, src: &SourceRef<'_>) -> Result<Vec<InitItem>, Diag> {
    let tids: Vec<usize> = test.threads.iter().map(|t| t.id).collect();
    let space = Space::new(test, code);
    let items = exported_items(&space, &tids);
    let mut laid = Vec::with_capacity(code.len());
    for th in 0..code.len() {
        laid.push(thread(&space, &tids, th).map_err(|(pos, e)| src.err(pos, e))?);
    }
    *code = laid;
    Ok(items)
}

/// The initial writes of the labels the test exports, for code laid out as written.
pub(super) fn exported(test: &Test, code: &[Vec<Instr>]) -> Vec<InitItem> {
    let tids: Vec<usize> = test.threads.iter().map(|t| t.id).collect();
    exported_items(&Space::new(test, code), &tids)
}

/// The initial writes of the exported labels' locations: the instruction each labels.
fn exported_items(space: &Space<'_>, tids: &[usize]) -> Vec<InitItem> {
    let mut items = Vec::new();
    for (t, l) in &space.exported {
        let Some((u, k)) = space.place(&Code::Label(*t, l.clone())) else { continue };
        let instrs = &space.code[u];
        let Some(j) = (k..instrs.len()).find(|&j| !instrs[j].text.is_empty()) else { continue };
        let text = super::code::herd_text(instrs, j, tids[u], |lab| {
            space.labels.get(lab).filter(|p| p.0 == u).map(|p| code_addr(instrs, tids[u], p.1))
        });
        items.push(InitItem {
            loc: Loc::Mem(format!("P{t}:{l}")),
            value: Val::Sym(format!("instr:\"{text}\"")),
            pos: instrs[j].pos,
            ty: None,
        });
    }
    items
}
