//! herd's X86_64 semantics (X86_64Sem.ml), under `-variant mixed` and without it alike:
//! every access has herd's width, and a register operand is the part of its 64-bit
//! register its name says. Only memory differs between the two: cells under the
//! variant, whole locations outside it.
//!
//! herd's widths: the suffix's (`b` 1, `w` 2, `l` 4, `q` 8 bytes), and 4 bytes for an
//! unsuffixed instruction whatever its registers (X86_64Arch_herd.ml maps `INSb` to
//! `Word`). Every value an instruction reads, from memory or a register operand, is cut
//! to the suffix's size (`b`, `w`, `l`; `q` and no suffix keep all 64 bits); an
//! immediate is not. Reading `%al`, `%ah`, `%ax` or `%eax` reads those bits of `rax`;
//! writing a register leaves it as herd's `write_reg` does ([`write_part`]). herd never
//! checks a suffix against a register's size, and neither does litsat: `movb %rax,(x)`
//! stores `rax`'s low byte, `mov (x),%al` loads 4 bytes.

use super::super::x86::{FLAG_A, FLAG_B, Opnd, semantics, strip_lock};
use super::{operand, split_att};
use crate::isa::{BinOp, Cond, InstrError, Op, Reg, Src, Tag};

/// Which bits of a 64-bit register an operand names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Part {
    Low8,
    High8,
    Word,
    Dword,
    Quad,
}

impl Part {
    /// The part's bits as a mask, before any shift (`None`: the whole register).
    fn mask(self) -> Option<i64> {
        match self {
            Part::Low8 | Part::High8 => Some(0xff),
            Part::Word => Some(0xffff),
            Part::Dword => Some(0xffff_ffff),
            Part::Quad => None,
        }
    }
    /// The low part as wide as `w` bytes.
    fn from_width(w: usize) -> Part {
        match w {
            1 => Part::Low8,
            2 => Part::Word,
            4 => Part::Dword,
            _ => Part::Quad,
        }
    }
    fn shift(self) -> i64 {
        if self == Part::High8 { 8 } else { 0 }
    }
}

const BASES: &[&str] = &["ax", "bx", "cx", "dx", "si", "di", "bp", "sp"];

/// A register operand's 64-bit register and part, by herd's names (X86_64Base.ml
/// `gen_regs`): `rax`, `eax`, `ax`, `al`, `ah`, `r8`, `r8d`, `r8w`, `r8b`, `sil`, ….
fn part(name: &str) -> Option<(Reg, Part)> {
    let n = name.trim().strip_prefix('%')?.to_ascii_lowercase();
    if let Some(num) = n.strip_prefix('r').filter(|s| s.starts_with(|c: char| c.is_ascii_digit())) {
        let digits = num.trim_end_matches(['d', 'w', 'b']);
        let k: u32 = digits.parse().ok().filter(|k| (8..=15).contains(k))?;
        let p = match &num[digits.len()..] {
            "" => Part::Quad,
            "d" => Part::Dword,
            "w" => Part::Word,
            "b" => Part::Low8,
            _ => return None,
        };
        return Some((format!("r{k}"), p));
    }
    let wide = |b: &str| format!("r{b}");
    if let Some(b) = n.strip_prefix('r').filter(|b| BASES.contains(b)) {
        return Some((wide(b), Part::Quad));
    }
    if let Some(b) = n.strip_prefix('e').filter(|b| BASES.contains(b)) {
        return Some((wide(b), Part::Dword));
    }
    if BASES.contains(&n.as_str()) {
        return Some((wide(&n), Part::Word));
    }
    let (b, p) = match n.as_bytes() {
        [c, b'l'] if b"abcd".contains(c) => (format!("{}x", *c as char), Part::Low8),
        [c, b'h'] if b"abcd".contains(c) => (format!("{}x", *c as char), Part::High8),
        _ => match n.strip_suffix('l').filter(|b| ["si", "di", "bp", "sp"].contains(b)) {
            Some(b) => (b.to_string(), Part::Low8),
            None => return None,
        },
    };
    Some((wide(&b), p))
}

/// The mnemonics herd's X86_64 parser gives a width suffix (X86_64Lexer.mll).
const SIZED: &[&str] = &["mov", "add", "xor", "or", "cmp", "inc", "dec", "xchg", "cmpxchg"];
/// Those herd takes a `lock` prefix on (X86_64Sem.ml `I_LOCK`).
const LOCKABLE: &[&str] = &["xchg", "add", "xor", "inc", "dec", "cmpxchg"];
/// Those it reads without one only.
const UNSIZED: &[&str] = &["and", "shl"];

/// The mnemonic without its suffix, and the suffix's width (`None`: no suffix).
fn mnemonic(m: &str) -> Result<(&str, Option<usize>), InstrError> {
    if SIZED.contains(&m) || UNSIZED.contains(&m) {
        return Ok((m, None));
    }
    const SUFFIXES: [(&str, usize); 4] = [("b", 1), ("w", 2), ("l", 4), ("q", 8)];
    let Some((base, w)) = SUFFIXES.iter().find_map(|&(s, w)| m.strip_suffix(s).map(|b| (b, w))) else {
        return Err(unsupported(m));
    };
    if SIZED.contains(&base) { Ok((base, Some(w))) } else { Err(unsupported(m)) }
}

fn unsupported(m: &str) -> InstrError {
    InstrError::new(format!("unsupported: instruction '{m}' on memory (none of herd's X86_64 instructions)"))
}

/// The bits of a value an instruction of this suffix keeps (herd's `read_loc_gen`
/// masks every value it reads, from memory or a register, to the instruction's size;
/// `q` and no suffix, `INSb`, keep all 64): `None` for all of them.
fn kept(suffix: Option<usize>) -> Option<i64> {
    suffix.and_then(|w| Part::from_width(w).mask())
}

/// The ops of one instruction, herd's X86_64 semantics under `-variant mixed` and
/// without it alike (only memory differs: cells under the variant, whole locations
/// outside it, [`crate::isa::Isa::whole_locations`]).
pub fn parse(text: &str) -> Result<Vec<Op>, InstrError> {
    let (locked, rest) = strip_lock(text);
    let (m, raw) = split_att(rest);
    let Ok((base, suffix)) = mnemonic(&m) else { return widthless(&m, text) };
    if let Some(o) = raw.iter().find(|o| o.trim().starts_with('%') && part(o).is_none()) {
        return Err(InstrError::new(format!("unknown register '{o}'")));
    }
    if locked && !LOCKABLE.contains(&base) {
        return Err(InstrError::new(format!("Illegal lock prefix on instruction '{m}'")));
    }
    let (w, keep) = (suffix.unwrap_or(4), kept(suffix));
    let mut pre = vec![Op::Width(w)];
    let mut post = Vec::new();
    let mut ops = Vec::new();
    for (k, o) in raw.iter().enumerate() {
        match part(o) {
            Some((r, Part::Quad)) if keep.is_none() => ops.push(Opnd::Reg(r)),
            Some((r, p)) => {
                let t = format!("%p{k}");
                pre.extend(read_part(&t, &r, p, keep));
                post.push((t.clone(), r, p));
                ops.push(Opnd::Reg(t));
            }
            None => ops.push(operand(&mut pre, o)?),
        }
    }
    ops.reverse();
    let body = if base == "cmpxchg" { cmpxchg(&ops, locked, keep, text)? } else { semantics(base, locked, &ops, text, "rax")? };
    let written: Vec<Op> =
        post.iter().filter(|(t, _, _)| writes(&body, t)).flat_map(|(t, r, p)| write_part(t, r, *p)).collect();
    pre.extend(masked_loads(body, keep));
    pre.extend(written);
    Ok(pre)
}

/// `ops` with each value loaded cut to the bits the instruction keeps.
fn masked_loads(ops: Vec<Op>, keep: Option<i64>) -> Vec<Op> {
    let Some(mask) = keep else { return ops };
    let mut out = Vec::with_capacity(ops.len() + 1);
    for op in ops {
        let dst = if let Op::Load { dst, .. } = &op { Some(dst.clone()) } else { None };
        out.push(op);
        if let Some(d) = dst {
            out.push(Op::Bin { dst: d.clone(), op: BinOp::And, a: Src::Reg(d), b: Src::Imm(mask) });
        }
    }
    out
}

/// An instruction of no width (fences, branches, `nop`s, `ret`, and litsat's register
/// arithmetic that herd's parser lacks: `sub`, `shr`, …), by [`super::plain`]. One that
/// accesses memory is none of herd's sized families, and refused.
fn widthless(m: &str, text: &str) -> Result<Vec<Op>, InstrError> {
    let ops = super::plain(text)?;
    if ops.iter().any(|o| matches!(o, Op::Load { .. } | Op::Store { .. })) {
        return Err(unsupported(m));
    }
    Ok(ops.into_iter().filter(|o| !matches!(o, Op::Width(_))).collect())
}

/// herd's `cmpxchg` (X86_64Sem.ml): the memory operand's value compared with `rax`,
/// both cut to the bits the instruction keeps (`keep`: all for `q` and no suffix);
/// equal, the source is stored; else `rax` becomes the value read (herd writes the
/// 64-bit register). The flags keep the comparison.
fn cmpxchg(ops: &[Opnd], locked: bool, keep: Option<i64>, text: &str) -> Result<Vec<Op>, InstrError> {
    let [Opnd::Mem(a), Opnd::Reg(r)] = ops else { return Err(InstrError::unsupported(text)) };
    let tags: Vec<Tag> = if locked { vec!["X".into()] } else { vec![] };
    let mut out = match keep {
        None => vec![Op::Mov { dst: "%acc".into(), src: Src::Reg("rax".into()) }],
        k => read_part("%acc", "rax", Part::Quad, k),
    };
    let (old, acc) = (Src::Reg("%old".into()), Src::Reg("%acc".into()));
    let eq = Cond { op: BinOp::Eq, a: old.clone(), b: acc.clone() };
    out.extend([
        Op::Load { dst: "%old".into(), addr: a.clone(), tags: tags.clone() },
        Op::Store { addr: a.clone(), src: Src::Reg(r.clone()), tags, when: Some(eq.clone()) },
        Op::Select { dst: "rax".into(), cond: eq, a: Src::Reg("rax".into()), b: old.clone() },
        Op::Mov { dst: FLAG_A.into(), src: old },
        Op::Mov { dst: FLAG_B.into(), src: acc },
    ]);
    Ok(out)
}

/// Whether `ops` write register `t`.
fn writes(ops: &[Op], t: &str) -> bool {
    ops.iter().any(|op| matches!(op, Op::Load { dst, .. } | Op::Mov { dst, .. } | Op::Bin { dst, .. } if dst == t))
}

/// `t` = part `p` of register `r` (herd's `read_reg`: shifted down and masked), cut to
/// the bits the instruction keeps (`keep`, herd's `read_loc_gen`).
fn read_part(t: &str, r: &str, p: Part, keep: Option<i64>) -> Vec<Op> {
    let mut out = Vec::new();
    let mut from = Src::Reg(r.to_string());
    if p.shift() > 0 {
        out.push(Op::Bin { dst: t.into(), op: BinOp::Shr, a: from, b: Src::Imm(p.shift()) });
        from = Src::Reg(t.into());
    }
    let mask = p.mask().unwrap_or(-1) & keep.unwrap_or(-1);
    out.push(Op::Bin { dst: t.into(), op: BinOp::And, a: from, b: Src::Imm(mask) });
    out
}

/// Register `r` after `t` is written to its part `p`, as herd's `write_reg` computes it:
/// it reads the part (masked, [`read_part`]), clears the part's bits in that and ors in
/// the value, so that a write to `%al`, `%ax`, `%eax` or `%rax` leaves the whole register
/// the value written (not Intel's merge, which the function's comment describes), and
/// one to `%ah` leaves it the value shifted up by 8, or'ed with the old `%ah` as the low
/// byte.
fn write_part(t: &str, r: &str, p: Part) -> Vec<Op> {
    if p != Part::High8 {
        return vec![Op::Mov { dst: r.into(), src: Src::Reg(t.into()) }];
    }
    let mut out = read_part("%keep", r, p, None);
    out.push(Op::Bin { dst: t.into(), op: BinOp::Shl, a: Src::Reg(t.into()), b: Src::Imm(8) });
    out.push(Op::Bin { dst: r.into(), op: BinOp::Or, a: Src::Reg("%keep".into()), b: Src::Reg(t.into()) });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn herds_register_names() {
        assert_eq!(part("%al"), Some(("rax".into(), Part::Low8)));
        assert_eq!(part("%ah"), Some(("rax".into(), Part::High8)));
        assert_eq!(part("%sil"), Some(("rsi".into(), Part::Low8)));
        assert_eq!(part("%si"), Some(("rsi".into(), Part::Word)));
        assert_eq!(part("%r9d"), Some(("r9".into(), Part::Dword)));
        assert_eq!(part("%r15b"), Some(("r15".into(), Part::Low8)));
        assert_eq!(part("%RBX"), Some(("rbx".into(), Part::Quad)));
        assert_eq!(part("%r7"), None);
        assert_eq!(part("%xl"), None);
    }

    #[test]
    fn widths_and_their_errors() {
        assert!(matches!(parse("movb %al,(x)").unwrap()[0], Op::Width(1)));
        assert!(matches!(parse("mov %rax,(x)").unwrap()[0], Op::Width(4)));
        assert!(matches!(parse("xchgw %ax,(x)").unwrap()[0], Op::Width(2)));
        // herd checks no suffix against a register: these are its semantics, not errors.
        assert!(matches!(parse("movb %rax,(x)").unwrap()[0], Op::Width(1)));
        assert!(matches!(parse("movq (x),%eax").unwrap()[0], Op::Width(8)));
        assert!(matches!(parse("mov (x),%al").unwrap()[0], Op::Width(4)));
        assert!(parse("xaddq %rax,(x)").unwrap_err().message.contains("'xaddq'"));
        assert!(parse("lock movb $1,(x)").unwrap_err().message.contains("Illegal lock prefix"));
        assert!(parse("lock xorw $1,(x)").is_ok());
        assert!(parse("mov\u{fffd} %al,(x)").is_err() && parse("\u{fffd}").is_err());
    }

    #[test]
    fn values_read_are_cut_to_the_suffix() {
        // `movb %rax,(x)`: rax's low byte is stored.
        let ops = parse("movb %rax,(x)").unwrap();
        assert!(ops.contains(&Op::Bin { dst: "%p0".into(), op: BinOp::And, a: Src::Reg("rax".into()), b: Src::Imm(0xff) }));
        // `movl (x),%rbx`: the value loaded is cut to 32 bits, then is all of rbx.
        let ops = parse("movl (x),%rbx").unwrap();
        let cut = Op::Bin { dst: "%p1".into(), op: BinOp::And, a: Src::Reg("%p1".into()), b: Src::Imm(0xffff_ffff) };
        assert!(ops.contains(&cut), "{ops:?}");
        assert_eq!(ops.last(), Some(&Op::Mov { dst: "rbx".into(), src: Src::Reg("%p1".into()) }));
        // Unsuffixed, nothing is cut.
        assert!(!parse("mov (x),%rbx").unwrap().iter().any(|o| matches!(o, Op::Bin { op: BinOp::And, .. })));
    }

    #[test]
    fn register_writes_as_herds_write_reg_leaves_them() {
        // `%al`: the whole register is the value written.
        let ops = parse("movb $5,%al").unwrap();
        assert_eq!(ops.last(), Some(&Op::Mov { dst: "rax".into(), src: Src::Reg("%p1".into()) }));
        // `%ah`: the value shifted up, or'ed with the old `%ah` as the low byte.
        let ops = parse("movb $5,%ah").unwrap();
        assert_eq!(
            ops.last(),
            Some(&Op::Bin { dst: "rax".into(), op: BinOp::Or, a: Src::Reg("%keep".into()), b: Src::Reg("%p1".into()) })
        );
    }
}
