//! X86_64 under herd's `-variant mixed` (X86_64Sem.ml): every access has herd's width,
//! and a register operand is the part of its 64-bit register its name says.
//!
//! herd's widths: the suffix's (`b` 1, `w` 2, `l` 4, `q` 8 bytes), and 4 bytes for an
//! unsuffixed instruction whatever its registers (X86_64Arch_herd.ml maps `INSb` to
//! `Word`). Reading `%al`, `%ah`, `%ax` or `%eax` reads those bits of `rax`; writing
//! `%al`, `%ah` or `%ax` replaces those bits and keeps the others, writing `%eax` or
//! `%rax` replaces the whole register (X86_64Sem.ml `write_reg`, after Intel's manual).
//! herd never checks a suffix against a register's size; an assembler does, and so does
//! litsat: `movb %rax,(x)` is an error, and an unsuffixed instruction on a byte or word
//! register (whose memory access herd makes 4 bytes wide) is refused by name.

use super::super::x86::{FLAG_A, FLAG_B, Opnd, semantics, strip_lock};
use crate::isa::Isa;
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
    fn bytes(self) -> usize {
        match self {
            Part::Low8 | Part::High8 => 1,
            Part::Word => 2,
            Part::Dword => 4,
            Part::Quad => 8,
        }
    }
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
    InstrError::new(format!("unsupported under `-variant mixed`: instruction '{m}'"))
}

/// The instruction's width: its suffix's, checked against its register operands, or
/// herd's 4 bytes where it has none.
fn width(m: &str, suffix: Option<usize>, regs: &[(Reg, Part, &str)]) -> Result<usize, InstrError> {
    for (_, p, name) in regs {
        match suffix {
            Some(w) if p.bytes() != w => {
                return Err(InstrError::new(format!(
                    "'{m}' accesses {w} byte(s), but register '{name}' has {}",
                    p.bytes()
                )));
            }
            None if p.bytes() < 4 => {
                return Err(InstrError::new(format!(
                    "unsupported: '{m}' on the {}-byte register '{name}' without a width suffix \
                     (herd makes it a 4-byte access); write it with `b` or `w`",
                    p.bytes()
                )));
            }
            _ => {}
        }
    }
    Ok(suffix.unwrap_or(4))
}

/// The ops of one instruction under `-variant mixed`.
pub fn parse(text: &str) -> Result<Vec<Op>, InstrError> {
    let (locked, rest) = strip_lock(text);
    let (m, raw) = split_att(rest);
    let Ok((base, suffix)) = mnemonic(&m) else { return widthless(&m, text) };
    let regs: Vec<(Reg, Part, &str)> =
        raw.iter().filter_map(|o| part(o).map(|(r, p)| (r, p, o.as_str()))).collect();
    if let Some(o) = raw.iter().find(|o| o.trim().starts_with('%') && part(o).is_none()) {
        return Err(InstrError::new(format!("unknown register '{o}'")));
    }
    let w = width(&m, suffix, &regs)?;
    if locked && !LOCKABLE.contains(&base) {
        return Err(InstrError::new(format!("Illegal lock prefix on instruction '{m}'")));
    }
    let mut pre = vec![Op::Width(w)];
    let mut post = Vec::new();
    let mut ops = Vec::new();
    for (k, o) in raw.iter().enumerate() {
        match part(o) {
            Some((r, Part::Quad)) => ops.push(Opnd::Reg(r)),
            Some((r, p)) => {
                let t = format!("%p{k}");
                pre.extend(read_part(&t, &r, p));
                post.push((t.clone(), r, p));
                ops.push(Opnd::Reg(t));
            }
            None => ops.push(operand(&mut pre, o)?),
        }
    }
    ops.reverse();
    let body = if base == "cmpxchg" { cmpxchg(&ops, locked, w, text)? } else { semantics(base, locked, &ops, text, "rax")? };
    let written: Vec<Op> =
        post.iter().filter(|(t, _, _)| writes(&body, t)).flat_map(|(t, r, p)| write_part(t, r, *p)).collect();
    pre.extend(body);
    pre.extend(written);
    Ok(pre)
}

/// An instruction of no width (fences, branches, `nop`s, `ret`): as outside the variant.
/// One that accesses memory or has a width is none of herd's sized families here.
fn widthless(m: &str, text: &str) -> Result<Vec<Op>, InstrError> {
    let ops = super::X86_64.parse(text).map_err(|_| unsupported(m))?;
    if ops.iter().any(|o| matches!(o, Op::Load { .. } | Op::Store { .. } | Op::Width(_))) {
        return Err(unsupported(m));
    }
    Ok(ops)
}

/// herd's `cmpxchg` (X86_64Sem.ml): the memory operand's `w` bytes compared with as many
/// of `rax`; equal, the source is stored; else `rax` becomes the value read (all of
/// `rax`, zero-extended: herd writes the 64-bit register). The flags keep the comparison.
fn cmpxchg(ops: &[Opnd], locked: bool, w: usize, text: &str) -> Result<Vec<Op>, InstrError> {
    let [Opnd::Mem(a), Opnd::Reg(r)] = ops else { return Err(InstrError::unsupported(text)) };
    let tags: Vec<Tag> = if locked { vec!["X".into()] } else { vec![] };
    let mut out = match Part::from_width(w) {
        Part::Quad => vec![Op::Mov { dst: "%acc".into(), src: Src::Reg("rax".into()) }],
        p => read_part("%acc", "rax", p),
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

/// `t` = part `p` of register `r` (herd's `read_reg`: shifted down and masked).
fn read_part(t: &str, r: &str, p: Part) -> Vec<Op> {
    let mut out = Vec::new();
    let mut from = Src::Reg(r.to_string());
    if p.shift() > 0 {
        out.push(Op::Bin { dst: t.into(), op: BinOp::Shr, a: from, b: Src::Imm(p.shift()) });
        from = Src::Reg(t.into());
    }
    let mask = p.mask().unwrap_or(-1);
    out.push(Op::Bin { dst: t.into(), op: BinOp::And, a: from, b: Src::Imm(mask) });
    out
}

/// Register `r` after `t` is written to its part `p` (herd's `write_reg`): a byte or
/// word keeps the other bits, a doubleword replaces the whole register.
fn write_part(t: &str, r: &str, p: Part) -> Vec<Op> {
    if p == Part::Dword {
        return vec![Op::Mov { dst: r.into(), src: Src::Reg(t.into()) }];
    }
    let keep = !(p.mask().unwrap_or(-1) << p.shift());
    let mut out = vec![Op::Bin { dst: "%keep".into(), op: BinOp::And, a: Src::Reg(r.into()), b: Src::Imm(keep) }];
    let mut v = Src::Reg(t.into());
    if p.shift() > 0 {
        out.push(Op::Bin { dst: t.into(), op: BinOp::Shl, a: v, b: Src::Imm(p.shift()) });
        v = Src::Reg(t.into());
    }
    out.push(Op::Bin { dst: r.into(), op: BinOp::Or, a: Src::Reg("%keep".into()), b: v });
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
        assert!(parse("movb %rax,(x)").unwrap_err().message.contains("register '%rax' has 8"));
        assert!(parse("movq (x),%eax").unwrap_err().message.contains("has 4"));
        assert!(parse("mov (x),%al").unwrap_err().message.contains("without a width suffix"));
        assert!(parse("xaddq %rax,(x)").unwrap_err().message.contains("'xaddq'"));
        assert!(parse("lock movb $1,(x)").unwrap_err().message.contains("Illegal lock prefix"));
        assert!(parse("lock xorw $1,(x)").is_ok());
        assert!(parse("mov\u{fffd} %al,(x)").is_err() && parse("\u{fffd}").is_err());
    }
}
