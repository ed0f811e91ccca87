//! herd's mixed-size memory (`-variant mixed`): every object the test declares is cut
//! into cells of one size, and an access is one event per cell it covers.
//!
//! The cell size is herd's `-machsize auto` (test_herd.ml `compute_size`): the smallest
//! of the sizes the initial state declares and the instructions access, or the next
//! smaller one where only one size occurs. Each cell is a location of its own, so that
//! rf, co, `loc` and the final writes stay per cell as herd builds them; an object is an
//! array of cells in the [`super::Layout`], so that an address plus a byte offset names
//! the cell there. Values are cut into cells least significant first (little-endian),
//! and a read's value is its cells' values put back together.

use super::{Events, Instr, ValId, Value};
use crate::isa::{BinOp, Isa, Op};
use crate::litmus::{Loc, Test, elem_name, type_size};
use std::collections::BTreeSet;

/// How a mixed-size test's memory is cut.
#[derive(Clone, Debug)]
pub struct Cells {
    /// The cell size in bytes.
    pub size: i64,
    pub objects: Vec<Object>,
}

/// A memory object the test names: a scalar or a whole array.
#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    /// The size of one element (of the scalar itself), in bytes.
    pub elem: i64,
    /// How many elements (1 for a scalar).
    pub len: i64,
}

impl Object {
    pub fn bytes(&self) -> i64 {
        self.elem * self.len
    }
}

/// herd's `int`, the type of a location the initial state does not type.
const INT: i64 = 4;

impl Cells {
    /// The cells of the test's memory objects: those of `names` that are no code.
    pub fn plan(test: &Test, code: &[Vec<Instr>], isa: &dyn Isa, names: &BTreeSet<&str>) -> Cells {
        let mut objects: Vec<Object> = Vec::new();
        for &n in names {
            if is_code(test, n) || test.arrays.iter().any(|a| (1..a.len).any(|i| elem_name(&a.name, i) == n)) {
                continue;
            }
            let obj = match test.arrays.iter().find(|a| a.name == n) {
                Some(a) => Object { name: n.to_string(), elem: a.size as i64, len: a.len as i64 },
                None => Object { name: n.to_string(), elem: declared(test, n).unwrap_or(INT), len: 1 },
            };
            objects.push(obj);
        }
        Cells { size: cell_size(test, code, isa), objects }
    }

    /// The name of the cell `at` bytes into object `o`: an element's own name where one
    /// starts there, else herd's `x+k`.
    pub fn cell_name(&self, o: &Object, at: i64) -> String {
        if at % o.elem == 0 {
            elem_name(&o.name, (at / o.elem) as usize)
        } else {
            format!("{}+{at}", o.name)
        }
    }

    /// Every cell's name, over every object.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for o in &self.objects {
            let n = (o.bytes() / self.size).max(1);
            out.extend((0..n).map(|k| self.cell_name(o, k * self.size)));
        }
        out
    }

    /// The object a location's base name is.
    pub fn object(&self, name: &str) -> Option<&Object> {
        self.objects.iter().find(|o| o.name == name)
    }

    /// How many cells an access `width` bytes wide covers.
    pub fn count(&self, width: i64) -> i64 {
        (width / self.size).max(1)
    }
}

/// herd's alignment check for an access `width` bytes wide at byte `at` of object `o`
/// (memUtils.ml `is_aligned`): within an element, at a multiple of its own size; wider
/// than an element, at a multiple of its size and within the array.
pub fn aligned(o: &Object, at: i64, width: i64) -> bool {
    if width <= o.elem {
        let (cell, within) = (at.div_euclid(o.elem), at.rem_euclid(o.elem));
        (0..o.len).contains(&cell) && within % width == 0 && within + width <= o.elem
    } else {
        at >= 0 && at % width == 0 && at / o.elem + width / o.elem <= o.len
    }
}

/// The size the initial state declares for location `x` (an element's for an array).
fn declared(test: &Test, x: &str) -> Option<i64> {
    let it = test.init.iter().find(|it| matches!(&it.loc, Loc::Mem(m) if m == x))?;
    Some(it.ty.as_deref().and_then(type_size).map_or(INT, |s| s as i64))
}

/// Whether a location stands for code (an instruction or a label given as a value).
fn is_code(test: &Test, x: &str) -> bool {
    x.starts_with("instr:")
        || x == "NOP"
        || crate::litmus::code_label(x).is_some()
        || test.init.iter().any(|it| it.ty.as_deref() == Some("ins_t") && matches!(&it.value, crate::litmus::Val::Sym(s) if s == x))
}

/// herd's cell size: the smallest size among the declared locations' and the
/// instructions' accesses; the next smaller where only one occurs; a byte where none.
fn cell_size(test: &Test, code: &[Vec<Instr>], isa: &dyn Isa) -> i64 {
    let mut sizes: BTreeSet<i64> = BTreeSet::new();
    for it in &test.init {
        if let Loc::Mem(_) = &it.loc {
            sizes.insert(it.ty.as_deref().and_then(type_size).map_or(INT, |s| s as i64));
        }
    }
    sizes.extend(test.arrays.iter().map(|a| a.size as i64));
    for ins in code.iter().flatten().filter(|ins| isa.sizes_cells(&ins.text)) {
        for op in &ins.ops {
            if let Op::Width(w) = op {
                sizes.insert(*w as i64);
            }
        }
    }
    match sizes.len() {
        0 => 1,
        1 => (sizes.first().copied().unwrap_or(2) / 2).max(1),
        _ => sizes.first().copied().unwrap_or(1),
    }
}

impl Events {
    /// The value of `n` cells read (`cells`, least significant first), put together.
    pub(super) fn assemble(&mut self, cells: &[ValId], size: i64) -> ValId {
        let mut acc = cells[0];
        for (k, &c) in cells.iter().enumerate().skip(1) {
            let by = self.constant(Value::Int(8 * size * k as i64));
            let part = self.bin(BinOp::Shl, c, by);
            acc = self.bin(BinOp::Or, acc, part);
        }
        acc
    }

    /// Cell `k` of value `v`, cells of `size` bytes: `v` itself where it is one cell.
    pub(super) fn cell_of(&mut self, v: ValId, k: i64, n: i64, size: i64) -> ValId {
        if n == 1 {
            return v;
        }
        let by = self.constant(Value::Int(8 * size * k));
        let shifted = if k == 0 { v } else { self.bin(BinOp::Shr, v, by) };
        if size >= 8 {
            return shifted;
        }
        let mask = self.constant(Value::Int((1i64 << (8 * size)) - 1));
        self.bin(BinOp::And, shifted, mask)
    }
}

impl Events {
    /// The cells of the place whose first cell is location `l`: the element (or scalar)
    /// that starts there, as a state shows it; `l` alone outside mixed-size tests.
    pub fn place_cells(&self, l: usize) -> Vec<usize> {
        match self.cell_part(l) {
            (_, Some((0, n, size))) => (0..n).filter_map(|k| self.layout.offset(l, k * size).ok()).collect(),
            _ => vec![l],
        }
    }

    /// The element (or scalar) location `l` is a cell of, in a mixed-size test.
    pub fn place_of(&self, l: usize) -> Option<String> {
        match self.cell_part(l) {
            (name, Some(_)) => Some(name),
            _ => None,
        }
    }

    /// The element (or scalar) location `l` is a cell of, by name, and which of its
    /// cells it is: `(k, n, size)`, cell `k` of `n` of `size` bytes. `None` outside
    /// mixed-size tests and for code.
    pub(super) fn cell_part(&self, l: usize) -> (String, Option<(i64, i64, i64)>) {
        let Some(cells) = &self.cells else { return (self.locs[l].clone(), None) };
        let (b, at) = self.layout.base(l);
        let Some(o) = cells.object(&self.locs[b]) else { return (self.locs[l].clone(), None) };
        let i = at / o.elem;
        let n = cells.count(o.elem);
        (elem_name(&o.name, i as usize), Some(((at - i * o.elem) / cells.size, n, cells.size)))
    }

    /// herd's single-copy-atomic groups of the initial writes: the cells of each
    /// element (or scalar), whose initial writes are the first events, one per location.
    pub(super) fn init_groups(&mut self) {
        let mut groups: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for l in 0..self.locs.len() {
            if let (name, Some(_)) = self.cell_part(l) {
                groups.entry(name).or_default().push(l);
            }
        }
        for g in groups.values() {
            self.group(g);
        }
    }

    /// Makes the events `g` one single-copy-atomic group (`sm`).
    pub(super) fn group(&mut self, g: &[usize]) {
        for &i in g {
            self.sm.extend(g.iter().filter(|&&j| j != i).map(|&j| (i, j)));
        }
    }
}
