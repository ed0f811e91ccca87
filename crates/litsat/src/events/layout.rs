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
    pub fn apply(&self, op: BinOp, x: Value, y: Value) -> Option<Value> {
        match (op, x, y) {
            (BinOp::Sext | BinOp::Zext, Value::Addr(l), Value::Int(c)) if c >= 32 && self.is_code(l) => {
                Some(Value::Addr(l))
            }
            (BinOp::Add, Value::Addr(l), Value::Int(c)) | (BinOp::Add, Value::Int(c), Value::Addr(l)) => {
                self.offset(l, c).ok().map(Value::Addr)
            }
            // herd subtracts two instructions or labels by comparing them (a compare's
            // flags then say whether they are equal).
            (BinOp::Sub, Value::Addr(a), Value::Addr(b)) if self.is_code(a) && self.is_code(b) => {
                Some(Value::Int(a.cmp(&b) as i64))
            }
            (BinOp::Sub, Value::Addr(l), Value::Int(c)) => self.offset(l, c.checked_neg()?).ok().map(Value::Addr),
            // The bit operations of a compare's carry and overflow on an instruction or a
            // label: herd never evaluates them unless a condition reads C or V; taken as 0.
            (BinOp::Xor | BinOp::And | BinOp::Or, Value::Addr(l), _) | (BinOp::Xor | BinOp::And | BinOp::Or, _, Value::Addr(l))
                if self.is_code(l) =>
            {
                Some(Value::Int(0))
            }
            _ => apply(op, x, y),
        }
    }
}

/// Whether an initial value names code rather than memory: an instruction
/// (`instr:"add r1,r1,r1"`) or a thread's label (`P0:foo`).
fn is_code_value(v: &str) -> bool {
    v.starts_with("instr:") || code_label(v).is_some()
}
