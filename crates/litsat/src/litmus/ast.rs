//! The parsed form of a litmus test, before any ISA has looked at its code.

use crate::diag::Pos;

#[derive(Clone, Debug)]
pub struct Test {
    pub arch: String,
    pub name: String,
    pub init: Vec<InitItem>,
    /// The arrays the initial state declares (`int x[2] = {1,2}`); each element is also a
    /// location of `init`, named by [`elem_name`].
    pub arrays: Vec<ArrayDecl>,
    /// One entry per thread, in column order: the thread's number and its cells.
    pub threads: Vec<ThreadCode>,
    pub locations: Vec<Loc>,
    pub filter: Option<Prop>,
    pub cond: Condition,
    /// The variants the test's metadata sets, which herd adds to the command line's: its
    /// `Variant=` line, and `CacheType=` (`DIC`, which implies `IDC`; `IDC`).
    pub variants: Vec<String>,
    /// The threads that run at EL0 (the `EL0=P0,P2` metadata, herd's `-variant vmsa`).
    pub el0: Vec<usize>,
    /// The `TTHM=` metadata (herd's hardware management of page-table flags), as written.
    pub tthm: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ThreadCode {
    pub id: usize,
    pub cells: Vec<Cell>,
}

/// One table cell: the text of one instruction (possibly with a label), or empty.
#[derive(Clone, Debug)]
pub struct Cell {
    pub text: String,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub struct InitItem {
    pub loc: Loc,
    pub value: Val,
    pub pos: Pos,
    /// A C-like type written before the place (`uint64_t x`), which decides how herd
    /// reads constants for it and prints its values.
    pub ty: Option<String>,
}

/// An array of the initial state: `len` elements of `size` bytes at consecutive
/// addresses, element `i` the location [`elem_name`]`(name, i)`.
#[derive(Clone, Debug)]
pub struct ArrayDecl {
    pub name: String,
    pub ty: String,
    pub len: usize,
    pub size: usize,
    pub pos: Pos,
}

/// A code label given as a value, `P0:foo`: its thread and label (herd's `Label` constant,
/// which a computed branch such as ARM's `BX R0` jumps to).
pub fn code_label(v: &str) -> Option<(usize, &str)> {
    let (p, l) = v.split_once(':')?;
    let n = p.trim().strip_prefix('P').filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))?;
    let l = l.trim();
    let ok = !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    ok.then_some((n.parse().ok()?, l))
}

/// A symbol as herd prints it: a code label as `label:"P0:foo"`, any other as it is.
pub fn sym_text(s: &str) -> std::borrow::Cow<'_, str> {
    if code_label(s).is_some() { format!("label:\"{s}\"").into() } else { s.into() }
}

/// The location name of element `i` of array `base`, as herd prints it: `x[1]`; element 0
/// is the array's own name, the address a register bound to `x` holds.
pub fn elem_name(base: &str, i: usize) -> String {
    if i == 0 { base.to_string() } else { format!("{base}[{i}]") }
}

/// The location a place's name stands for: `x[0]`, as a condition may write element 0 of
/// an array (and herd prints it), is the array's own location `x`; `x{i}`, element `i` of
/// an array a state shows whole ([`whole_elem`]), is element `i`'s.
pub fn location_of(name: &str) -> std::borrow::Cow<'_, str> {
    match whole_part(name) {
        Some((base, i)) => elem_name(base, i).into(),
        None => name.strip_suffix("[0]").unwrap_or(name).into(),
    }
}

/// The place of element `i` of array `base` where the state shows the array whole, as
/// herd does for an array named bare in `locations` or compared whole (`x={1,0}`): states
/// print such elements together, `x={1,0}`.
pub fn whole_elem(base: &str, i: usize) -> String {
    format!("{base}{{{i}}}")
}

/// The array and index of a [`whole_elem`] place's name.
pub fn whole_part(name: &str) -> Option<(&str, usize)> {
    let (base, rest) = name.split_once('{')?;
    Some((base, rest.strip_suffix('}')?.parse().ok()?))
}

/// The size in bytes of an element of C type `ty`, for the types herd knows the size of.
pub fn type_size(ty: &str) -> Option<usize> {
    let t = ty.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(match t.as_str() {
        "char" | "int8_t" | "uint8_t" | "unsigned char" => 1,
        "short" | "int16_t" | "uint16_t" | "unsigned short" => 2,
        "int" | "int32_t" | "uint32_t" | "unsigned" | "unsigned int" => 4,
        "long" | "int64_t" | "uint64_t" | "unsigned long" | "long long" | "unsigned long long" | "intptr_t"
        | "uintptr_t" => 8,
        _ => return None,
    })
}

/// A place with a final value: a thread's register or a memory location.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    Reg(usize, String),
    Mem(String),
}

/// A value as written in a test: a number, or a symbol (the address of a location).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Int(i64),
    Sym(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondKind {
    Exists,
    NotExists,
    Forall,
}

#[derive(Clone, Debug)]
pub struct Condition {
    pub kind: CondKind,
    pub prop: Prop,
    /// The proposition as the test wrote it, where loading rewrote `prop`'s constants
    /// under their places' types: herd's `Condition` line echoes the constants as written
    /// (`0:X22=4205418631` for `0xFAA99887`), though it compares them narrowed.
    pub written: Option<Box<Prop>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prop {
    True,
    False,
    Eq(Loc, Val),
    /// `x={1,0}`: an array compared whole, element by element (each a [`whole_elem`]
    /// place).
    EqArray(String, Vec<(Loc, Val)>),
    /// `loc = loc`: both places hold the same final value.
    EqLoc(Loc, Loc),
    Not(Box<Prop>),
    And(Vec<Prop>),
    Or(Vec<Prop>),
    Implies(Box<Prop>, Box<Prop>),
    /// herd's fault atom, `fault(P0:L0,UndefinedInstruction)`: a fault of the thread (at
    /// the label, of the type) happened.
    Fault(FaultAtom),
}

/// The pseudo-register of a thread that holds which of its fault sites faulted (0 for
/// none): a thread that faults ends there (herd's default `fatal` handling), so it holds
/// one at most. No ISA names a register so.
pub const FAULT_REG: &str = "<fault>";

/// A fault a condition names: its thread, and optionally the label of the faulting
/// instruction, the location accessed and the fault type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultAtom {
    pub thread: usize,
    /// The thread's [`FAULT_REG`], the place the atom reads.
    pub place: Loc,
    pub label: Option<String>,
    pub loc: Option<String>,
    pub ftype: Option<String>,
    /// The values of the thread's [`FAULT_REG`] that match the atom, once the event
    /// structure has numbered the fault sites ([`FaultSite`]).
    pub codes: Vec<i64>,
}

/// An instruction that may fault: its thread, its label and its fault type. Site `k` of
/// a test's list sets its thread's [`FAULT_REG`] to `k + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultSite {
    pub thread: usize,
    /// The instruction's labels, sorted (those of the empty cells before it too).
    pub labels: Vec<String>,
    pub ftype: String,
    /// The location accessed, where the fault is an access's (`-variant vmsa`).
    pub loc: Option<String>,
}

/// herd's matching of an actual fault type with an atom's: equal, or the atom's `MMU:t`
/// (either side) standing for the data or instruction side's `D-MMU:t`, `I-MMU:t`.
pub fn fault_type_matches(actual: &str, atom: &str) -> bool {
    let side = |t: &str| t.strip_prefix("D-").or_else(|| t.strip_prefix("I-")).unwrap_or(t).to_string();
    actual == atom || (side(actual) == side(atom) && (actual.starts_with("MMU:") || atom.starts_with("MMU:")))
}

impl FaultAtom {
    /// herd's matching of an actual fault against an atom: same thread, the atom's
    /// label among the instruction's, the same type, and no location (UDF and SVC fault
    /// at none).
    pub fn matches(&self, s: &FaultSite) -> bool {
        s.thread == self.thread
            && self.label.as_ref().is_none_or(|l| s.labels.contains(l))
            && self.ftype.as_ref().is_none_or(|t| fault_type_matches(&s.ftype, t))
            && self.loc.as_ref().is_none_or(|l| s.loc.as_ref() == Some(l))
    }
}

impl FaultSite {
    /// herd's text of the fault in a state, `Fault(P0:L0,SupervisorCall)`.
    pub fn text(&self) -> String {
        let at = self.loc.as_ref().map_or(String::new(), |l| format!(",{l}"));
        match self.labels.as_slice() {
            [] => format!("Fault(P{}{at},{})", self.thread, self.ftype),
            [l] => format!("Fault(P{}:{l}{at},{})", self.thread, self.ftype),
            ls => format!("Fault(P{}:{{{}}}{at},{})", self.thread, ls.join(","), self.ftype),
        }
    }
}

impl Prop {
    /// Rewrites every place the proposition reads, in order, stopping at the first error
    /// (symbolic registers given real ones, registers in the ISA's spelling).
    pub fn try_map_locs(&mut self, f: &mut dyn FnMut(&mut Loc) -> Result<(), String>) -> Result<(), String> {
        match self {
            Prop::True | Prop::False | Prop::Fault(_) => Ok(()),
            Prop::Eq(l, _) => f(l),
            Prop::EqArray(_, es) => es.iter_mut().try_for_each(|(l, _)| f(l)),
            Prop::EqLoc(a, b) => {
                f(a)?;
                f(b)
            }
            Prop::Not(q) => q.try_map_locs(f),
            Prop::And(qs) | Prop::Or(qs) => qs.iter_mut().try_for_each(|q| q.try_map_locs(f)),
            Prop::Implies(a, b) => {
                a.try_map_locs(f)?;
                b.try_map_locs(f)
            }
        }
    }

    /// Rewrites every value the proposition compares a place with.
    pub fn map_vals(&mut self, f: &mut dyn FnMut(&mut Val)) {
        match self {
            Prop::True | Prop::False | Prop::Fault(_) | Prop::EqLoc(..) => {}
            Prop::Eq(_, v) => f(v),
            Prop::EqArray(_, es) => es.iter_mut().for_each(|(_, v)| f(v)),
            Prop::Not(q) => q.map_vals(f),
            Prop::And(qs) | Prop::Or(qs) => qs.iter_mut().for_each(|q| q.map_vals(f)),
            Prop::Implies(a, b) => {
                a.map_vals(f);
                b.map_vals(f);
            }
        }
    }

    /// Every place the proposition reads, in order of first appearance, after those
    /// `out` holds already.
    pub fn locs(&self, out: &mut Vec<Loc>) {
        let mut refs = Vec::new();
        self.loc_refs(&mut refs);
        for l in refs {
            if !out.contains(l) {
                out.push(l.clone());
            }
        }
    }

    /// [`Prop::locs`], borrowed: what reads the places without keeping them copies none.
    pub fn loc_refs<'p>(&'p self, out: &mut Vec<&'p Loc>) {
        let mut push = |l: &'p Loc| {
            if !out.contains(&l) {
                out.push(l);
            }
        };
        match self {
            Prop::True | Prop::False => {}
            // The thread's fault register is a place the state shows (as its faults).
            Prop::Fault(a) => push(&a.place),
            Prop::Eq(l, _) => push(l),
            Prop::EqArray(_, es) => es.iter().for_each(|(l, _)| push(l)),
            Prop::EqLoc(a, b) => {
                push(a);
                push(b);
            }
            Prop::Not(p) => p.loc_refs(out),
            Prop::And(ps) | Prop::Or(ps) => ps.iter().for_each(|p| p.loc_refs(out)),
            Prop::Implies(a, b) => {
                a.loc_refs(out);
                b.loc_refs(out);
            }
        }
    }

    /// Gives each fault atom the values of its thread's fault register that match it.
    pub fn resolve_faults(&mut self, sites: &[FaultSite]) {
        match self {
            Prop::Fault(a) => {
                a.codes = (1..).zip(sites).filter(|(_, s)| a.matches(s)).map(|(k, _)| k).collect();
            }
            Prop::Not(q) => q.resolve_faults(sites),
            Prop::And(qs) | Prop::Or(qs) => qs.iter_mut().for_each(|q| q.resolve_faults(sites)),
            Prop::Implies(a, b) => {
                a.resolve_faults(sites);
                b.resolve_faults(sites);
            }
            _ => {}
        }
    }

    /// The fault atoms, in order of appearance.
    pub fn fault_atoms<'p>(&'p self, out: &mut Vec<&'p FaultAtom>) {
        match self {
            Prop::Fault(a) => out.push(a),
            Prop::Not(q) => q.fault_atoms(out),
            Prop::And(qs) | Prop::Or(qs) => qs.iter().for_each(|q| q.fault_atoms(out)),
            Prop::Implies(a, b) => {
                a.fault_atoms(out);
                b.fault_atoms(out);
            }
            _ => {}
        }
    }

    /// Evaluates the proposition on a final state given as a lookup function.
    pub fn eval(&self, get: &dyn Fn(&Loc) -> Option<Val>) -> bool {
        match self {
            Prop::True => true,
            Prop::False => false,
            Prop::Eq(l, v) => get(l).as_ref() == Some(v),
            Prop::EqArray(_, es) => es.iter().all(|(l, v)| get(l).as_ref() == Some(v)),
            Prop::EqLoc(a, b) => get(a) == get(b),
            Prop::Not(p) => !p.eval(get),
            Prop::And(ps) => ps.iter().all(|p| p.eval(get)),
            Prop::Or(ps) => ps.iter().any(|p| p.eval(get)),
            Prop::Implies(a, b) => !a.eval(get) || b.eval(get),
            Prop::Fault(a) => matches!(get(&a.place), Some(Val::Int(k)) if a.codes.contains(&k)),
        }
    }
}
