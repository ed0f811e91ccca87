//! X86_64 in AT&T syntax, as in herd's `X86_64` tests: AT&T operands (source first),
//! registers named as herd names them, and herd's widths and register parts ([`sized`]),
//! over the semantics shared with X86.

use super::x86::{Opnd, SETS, imm_or_label, semantics, strip_lock};
use super::*;

mod sized;

pub struct X86_64;

const REGS: &[&str] = &[
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "rip", "cs", "ds", "ss", "es", "fs", "gs",
];

/// herd names every width of a register by its 64-bit name (`%eax` is `rax`).
fn reg(s: &str) -> Option<Reg> {
    let s = s.trim().trim_start_matches('%').to_ascii_lowercase();
    let wide = match s.as_str() {
        "eax" | "ax" | "al" => "rax",
        "ebx" | "bx" | "bl" => "rbx",
        "ecx" | "cx" | "cl" => "rcx",
        "edx" | "dx" | "dl" => "rdx",
        "esi" | "si" => "rsi",
        "edi" | "di" => "rdi",
        "ebp" | "bp" => "rbp",
        "esp" | "sp" => "rsp",
        other => {
            let base = other.trim_end_matches(['d', 'w', 'b']);
            return REGS
                .contains(&base)
                .then(|| base.to_string())
                .or_else(|| REGS.contains(&other).then(|| other.to_string()));
        }
    };
    Some(wide.to_string())
}

/// A memory operand's inside `(%base,%index,scale)`: the address computed into `%ea`
/// (the index times the scale, added to the base), so that both registers give address
/// dependencies.
fn indexed(pre: &mut Vec<Op>, inner: &str, whole: &str) -> Result<Reg, InstrError> {
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let (base, index, scale) = match parts.as_slice() {
        [b, i] => (*b, *i, 1),
        [b, i, k] => {
            let k = parse_imm(k).filter(|k| [1, 2, 4, 8].contains(k));
            (*b, *i, k.ok_or_else(|| InstrError::new(format!("expected a scale 1, 2, 4 or 8 in '{whole}'")))?)
        }
        _ => return Err(InstrError::new(format!("unsupported memory operand '{whole}'"))),
    };
    if base.is_empty() {
        return Err(InstrError::new(format!("unsupported: indexed addressing without a base register '{whole}'")));
    }
    let reg_of = |r: &str| reg(r).ok_or_else(|| InstrError::new(format!("unknown register '{r}' in '{whole}'")));
    let (base, index) = (reg_of(base)?, reg_of(index)?);
    pre.push(Op::Bin { dst: "%ix".into(), op: BinOp::Mul, a: Src::Reg(index), b: Src::Imm(scale) });
    pre.push(Op::Bin { dst: "%ea".into(), op: BinOp::Add, a: Src::Reg(base), b: Src::Reg("%ix".into()) });
    Ok("%ea".into())
}

fn operand(pre: &mut Vec<Op>, s: &str) -> Result<Opnd, InstrError> {
    let s = s.trim();
    if let Some(i) = s.strip_prefix('$') {
        return parse_imm(i)
            .map(Opnd::Imm)
            .ok_or_else(|| InstrError::new(format!("expected an immediate, found '{s}'")));
    }
    if s.starts_with('%') {
        return reg(s).map(Opnd::Reg).ok_or_else(|| InstrError::new(format!("unknown register '{s}'")));
    }
    if let Some(open) = s.find('(') {
        let close = s.rfind(')').filter(|&c| c > open);
        let close = close.ok_or_else(|| InstrError::new(format!("expected `)` after `(` in '{s}'")))?;
        let off = s[..open].trim();
        let inner = s[open + 1..close].trim();
        let off = if off.is_empty() {
            0
        } else {
            parse_imm(off).ok_or_else(|| InstrError::new(format!("unsupported: offset '{off}'")))?
        };
        if inner.contains(',') {
            return Ok(Opnd::Mem(Addr::Reg(indexed(pre, inner, s)?, off)));
        }
        return Ok(Opnd::Mem(match reg(inner) {
            Some(r) => Addr::Reg(r, off),
            None if inner.starts_with('%') => return Err(InstrError::new(format!("unknown register '{inner}'"))),
            None if off == 0 => Addr::Sym(inner.to_string()),
            None => return Err(InstrError::new(format!("unsupported: offset on '{inner}'"))),
        }));
    }
    imm_or_label(s)
}

/// Drops AT&T's width suffix (`subl` → `sub`) of the instructions litsat reads beyond
/// herd's sized families ([`plain`]).
fn base_mnemonic(m: &str) -> &str {
    const BASES: &[&str] = &["sub", "xadd", "shr", "sal", "nop"];
    match m.strip_suffix(['b', 'w', 'l', 'q']) {
        Some(base) if !BASES.contains(&m) && BASES.contains(&base) => base,
        _ => m,
    }
}

/// An instruction outside herd's sized families ([`sized`]): fences, branches, `ret`,
/// `nop`s, and register arithmetic herd's parser lacks (`sub`, `xadd`, `shr`, `sal`), on
/// whole 64-bit registers.
fn plain(text: &str) -> Result<Vec<Op>, InstrError> {
    let (locked, rest) = strip_lock(text);
    let (m, raw) = split_att(rest);
    let base = base_mnemonic(&m);
    if base.starts_with("nop") {
        return Ok(vec![]);
    }
    let mut pre = Vec::new();
    let mut ops = raw.iter().map(|o| operand(&mut pre, o)).collect::<Result<Vec<_>, _>>()?;
    ops.reverse();
    pre.extend(semantics(base, locked, &ops, text, "rax")?);
    Ok(pre)
}

impl Isa for X86_64 {
    fn default_model(&self) -> Option<&'static str> {
        Some("tso")
    }
    fn name(&self) -> &'static str {
        "X86_64"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn reg_index(&self, r: &str) -> usize {
        REGS.iter().position(|&x| x == r).unwrap_or(REGS.len())
    }

    fn known_sets(&self) -> &'static [&'static str] {
        SETS
    }

    fn rmw_sequential(&self) -> bool {
        false
    }

    fn mixed_cells(&self) -> bool {
        true
    }
    fn rejects_mixed(&self) -> bool {
        false
    }

    /// herd's `mem_access_size` has no size for a `lock`ed instruction.
    fn sizes_cells(&self, text: &str) -> bool {
        !strip_lock(text).0
    }

    /// Outside `-variant mixed`, an access of any width is to a whole location (herd
    /// checks no sizes on X86_64).
    fn whole_locations(&self) -> bool {
        true
    }

    /// herd's widths and register parts ([`sized`]), under `-variant mixed` or not.
    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        sized::parse(text)
    }

    /// herd parses `ret` but runs it only under `telechat` (code from a C compiler), as
    /// the thread's end; elsewhere it stops with "not implemented".
    fn parse_under(&self, text: &str, variants: &[String]) -> Result<Vec<Op>, InstrError> {
        if text.trim().eq_ignore_ascii_case("ret") && !crate::variant::holds(variants, "telechat") {
            return Err(InstrError::new("unsupported: `ret` outside herd's variant telechat, where herd does not implement it"));
        }
        self.parse(text)
    }
}

/// Like [`split_operands`], but commas inside `( … )` belong to one operand.
fn split_att(text: &str) -> (String, Vec<String>) {
    let t = text.trim();
    let (m, rest) = match t.find(char::is_whitespace) {
        Some(k) => (&t[..k], t[k..].trim()),
        None => (t, ""),
    };
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in rest.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    (m.to_ascii_lowercase(), out)
}
