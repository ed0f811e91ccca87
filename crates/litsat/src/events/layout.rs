//! Where a test's arrays lie, and which locations stand for code: the address arithmetic
//! that names another array element.

use super::{Events, SourceRef, Value, apply};
use crate::diag::Diag;
use crate::isa::BinOp;
use crate::litmus::{Loc, Test, Val, code_label, elem_name};
use std::collections::{HashMap, HashSet};

/// Where the test's arrays lie: each element is a location of its own, and an address
/// plus a byte offset that is a multiple of the element size names another element of
/// the same array. Addresses outside every array admit no arithmetic.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Each array's elements (locations, in order) and element size in bytes.
    arrays: Vec<(Vec<usize>, i64)>,
    /// For a location that is an array element: its array and its index there.
    elems: HashMap<usize, (usize, usize)>,
    /// Locations that stand for code, not memory: instructions (`NOP`, `instr:"…"`) and
    /// labels (`P0:foo`) given as values. Tests copy and compare them; a word load's
    /// extension keeps them (herd's 64-bit PPC loads a stored instruction with `lwz`),
    /// where on an address it is arithmetic that herd refuses.
    code: HashSet<usize>,
    /// Whether values are herd's 32-bit ones (X86, ARM, C): arithmetic wraps there.
    pub words: bool,
}

/// Why an address plus an offset names no location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OffsetError {
    /// The location is no array element (a mixed-size access, herd's byte offsets).
    NoArray,
    /// Not a multiple of the element size, which is given.
    Misaligned(i64),
    /// Past either end of the array, whose length is given.
    Outside(usize),
}

impl Layout {
    /// The test's arrays and code values, over the locations `ev` names.
    pub(super) fn of(test: &Test, ev: &Events, src: &SourceRef<'_>) -> Result<Layout, Diag> {
        let mut layout = Layout::default();
        for a in &test.arrays {
            let elems: Option<Vec<usize>> = (0..a.len).map(|i| ev.loc_index(&elem_name(&a.name, i))).collect();
            let elems = elems.ok_or_else(|| src.err(a.pos, "array element without a location"))?;
            let k = layout.arrays.len();
            for (i, &l) in elems.iter().enumerate() {
                layout.elems.insert(l, (k, i));
            }
            layout.arrays.push((elems, a.size as i64));
        }
        for it in &test.init {
            if let Loc::Mem(x) = &it.loc
                && is_code_value(x)
                && let Some(i) = ev.loc_index(x)
            {
                layout.code.insert(i);
            }
            if let Val::Sym(v) = &it.value
                && (is_code_value(v) || it.ty.as_deref() == Some("ins_t"))
                && let Some(i) = ev.loc_index(v)
            {
                layout.code.insert(i);
            }
        }
        Ok(layout)
    }

    /// The layout of a mixed-size test: each object an array of its cells
    /// ([`super::cells`]), with the code values as [`Layout::of`] finds them.
    pub(super) fn of_cells(test: &Test, ev: &Events, cells: &super::Cells, src: &SourceRef<'_>) -> Result<Layout, Diag> {
        let mut layout = Layout::of(&Test { arrays: Vec::new(), ..test.clone() }, ev, src)?;
        for o in &cells.objects {
            let n = cells.count(o.bytes());
            let elems: Option<Vec<usize>> =
                (0..n).map(|k| ev.loc_index(&cells.cell_name(o, k * cells.size))).collect();
            let elems = elems.ok_or_else(|| Diag::file(src.file, format!("no cells for '{}'", o.name)))?;
            let k = layout.arrays.len();
            for (i, &l) in elems.iter().enumerate() {
                layout.elems.insert(l, (k, i));
            }
            layout.arrays.push((elems, cells.size));
        }
        Ok(layout)
    }

    /// The location `bytes` bytes after location `l`.
    pub fn offset(&self, l: usize, bytes: i64) -> Result<usize, OffsetError> {
        if bytes == 0 {
            return Ok(l);
        }
        let &(a, i) = self.elems.get(&l).ok_or(OffsetError::NoArray)?;
        let (elems, size) = &self.arrays[a];
        if bytes % size != 0 {
            return Err(OffsetError::Misaligned(*size));
        }
        let j = (i as i64).checked_add(bytes / size).filter(|j| (0..elems.len() as i64).contains(j));
        j.map(|j| elems[j as usize]).ok_or(OffsetError::Outside(elems.len()))
    }

    /// Where location `l` lies as herd sees it: a symbol (the array's first element, or
    /// `l` itself) and a byte offset from it.
    pub fn base(&self, l: usize) -> (usize, i64) {
        match self.elems.get(&l) {
            Some(&(a, i)) => {
                let (elems, size) = &self.arrays[a];
                (elems[0], i as i64 * size)
            }
            None => (l, 0),
        }
    }

    /// The address `bytes` after base location `b`: the location there, or herd's
    /// `b+bytes` where none lies ([`Value::Off`]).
    pub fn at(&self, b: usize, bytes: i64) -> Value {
        match self.offset(b, bytes) {
            Ok(l) => Value::Addr(l),
            Err(_) => Value::Off(b, bytes),
        }
    }

    /// An address plus `bytes`: herd adds to the symbol's offset whatever it names.
    /// Instructions and labels as values admit no arithmetic.
    fn add(&self, x: Value, bytes: i64) -> Option<Value> {
        if bytes == 0 {
            return Some(x);
        }
        let (b, k) = match x {
            Value::Addr(l) if !self.is_code(l) => self.base(l),
            Value::Off(b, k) => (b, k),
            _ => return None,
        };
        Some(self.at(b, k.checked_add(bytes)?))
    }

    /// herd's subtraction of two symbolic values, which compares them (-1, 0 or 1):
    /// symbols by name, then offsets. Two different instructions or labels as values
    /// are left without a value: herd orders them by their syntax, not their text.
    fn compare(&self, x: Value, y: Value, names: &[String]) -> Option<Value> {
        if x == y {
            return Some(Value::Int(0));
        }
        // Two different instructions or labels: herd orders them by OCaml's structural
        // compare of their syntax, which only their being different reproduces here (Z
        // is right; N after such a compare follows the names' order instead).
        if let (Value::Addr(a), Value::Addr(b)) = (x, y)
            && self.is_code(a)
            && self.is_code(b)
        {
            return Some(Value::Int(names[a].as_bytes().cmp(names[b].as_bytes()) as i64));
        }
        let key = |v: Value| match v {
            Value::Addr(l) if !self.is_code(l) => Some(self.base(l)),
            Value::Off(b, k) => Some((b, k)),
            _ => None,
        };
        let ((b, k), (c, j)) = (key(x)?, key(y)?);
        let order = names[b].as_bytes().cmp(names[c].as_bytes()).then(k.cmp(&j));
        Some(Value::Int(order as i64))
    }

    /// The element size of the array location `l` belongs to, if any.
    pub fn elem_size(&self, l: usize) -> Option<i64> {
        self.elems.get(&l).map(|&(a, _)| self.arrays[a].1)
    }

    /// Whether an access `width` bytes wide (`None`: of a width the ISA does not say)
    /// may be made at a solver-decided address: only where every array's elements are
    /// that wide, so that it cannot be a mixed-size access to an element.
    pub fn fits_any(&self, width: Option<usize>) -> bool {
        self.arrays.iter().all(|(_, size)| width.is_some_and(|w| w as i64 == *size))
    }

    /// Whether location `l` stands for an instruction or a label given as a value.
    pub fn is_code(&self, l: usize) -> bool {
        self.code.contains(&l)
    }

    /// [`apply`], with an address plus or minus a constant naming another element, and a
    /// word or wider extension keeping an instruction or label value.
    ///
    /// `names` are the locations' names, by which herd orders symbols when it
    /// subtracts them.
    pub fn apply(&self, op: BinOp, x: Value, y: Value, names: &[String]) -> Option<Value> {
        let addr = |v: Value| matches!(v, Value::Addr(_) | Value::Off(..));
        if self.words
            && let (Value::Int(a), Value::Int(b)) = (x, y)
        {
            return word_op(op, a, b);
        }
        match (op, x, y) {
            (BinOp::Sext | BinOp::Zext, Value::Addr(l), Value::Int(c)) if c >= 32 && self.is_code(l) => {
                Some(Value::Addr(l))
            }
            (BinOp::Add, a, Value::Int(c)) | (BinOp::Add, Value::Int(c), a) if addr(a) => self.add(a, c),
            (BinOp::Sub, a, Value::Int(c)) if addr(a) => self.add(a, c.checked_neg()?),
            (BinOp::Sub, a, b) if addr(a) && addr(b) => self.compare(a, b, names),
            _ => apply(op, x, y),
        }
    }

    /// herd's `ToInteger` (flags of a flag-setting addition or subtraction): `x` where
    /// it is an integer, else `d` where that is one.
    pub fn to_integer(x: Value, d: Value) -> Option<Value> {
        match (x, d) {
            (Value::Int(_), _) => Some(x),
            (_, Value::Int(_)) => Some(d),
            _ => None,
        }
    }
}

/// Whether an initial value names code rather than memory: an instruction
/// (`instr:"add r1,r1,r1"`, or herd's `NOP`) or a thread's label (`P0:foo`).
fn is_code_value(v: &str) -> bool {
    v.starts_with("instr:") || v == "NOP" || code_label(v).is_some()
}

/// [`apply`] on herd's 32-bit values (sign-extended in an `i64`): the result wraps to 32
/// bits, and a logical right shift sees the 32-bit pattern, as herd's `Int32` scalars
/// compute. Comparisons and extensions of sign-extended words need nothing more.
fn word_op(op: BinOp, a: i64, b: i64) -> Option<Value> {
    let wrap = |v: i64| Value::Int(v as i32 as i64);
    match op {
        // Shift counts modulo 32, as the hardware takes them (herd leaves larger ones unspecified).
        BinOp::Shr => Some(wrap(((a as u32).wrapping_shr(b as u32)) as i64)),
        BinOp::Shl => Some(wrap(((a as i32).wrapping_shl(b as u32)) as i64)),
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => match apply(op, Value::Int(a), Value::Int(b))? {
            Value::Int(v) => Some(wrap(v)),
            v => Some(v),
        },
        _ => apply(op, Value::Int(a), Value::Int(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_as_herds_int32() {
        let int = |v: i64| Some(Value::Int(v));
        assert_eq!(word_op(BinOp::Add, i32::MAX as i64, 1), int(i32::MIN as i64));
        assert_eq!(word_op(BinOp::Mul, 65536, 65536), int(0));
        assert_eq!(word_op(BinOp::Div, i32::MIN as i64, -1), int(i32::MIN as i64));
        // A logical shift sees the 32-bit pattern of -1, not 64 bits of it.
        assert_eq!(word_op(BinOp::Shr, -1, 1), int(i32::MAX as i64));
        assert_eq!(word_op(BinOp::Gt, i32::MIN as i64, 0), int(0));
        let words = Layout { words: true, ..Layout::default() };
        assert_eq!(words.apply(BinOp::Add, Value::Int(-1), Value::Int(1), &[]), int(0));
        assert_eq!(Layout::default().apply(BinOp::Add, Value::Int(i32::MAX as i64), Value::Int(1), &[]), int(1 << 31));
    }
}
