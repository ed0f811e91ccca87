//! AArch64 operand syntax (herd's `AArch64Base`): registers with their width, immediates,
//! shifts and extensions, condition codes, and a builder of ops with fresh temporaries.

use crate::isa::{BinOp, InstrError, Op, Reg, Src, parse_imm};

/// The zero register, under the one name both `XZR` and `WZR` canonicalise to.
pub const ZR: &str = "XZR";

/// The stack pointer, a register of its own in herd (`SP`, read and written as X).
pub const SP: &str = "SP";

/// The system registers herd keeps as plain registers (`AArch64Base.sysregs`, without
/// `NZCV`, which `MRS`/`MSR` map to the flags), by their printing names.
pub const SYSREGS: &[&str] = &[
    "CTR_EL0",
    "DCIZ_EL0",
    "MDCCSR_EL0",
    "DBGDTR_EL0",
    "DBGDTRRX_EL0",
    "DBGDTRTX_EL0",
    "ELR_EL1",
    "ESR_EL1",
    "TFSR_ELx",
    "VNCR_EL2",
    "PAR_EL1",
    "GCSPR_EL1",
];

/// A system register by its name in any case (`ctr_el0`), as herd's `parse_sysreg`.
pub fn sysreg(s: &str) -> Option<&'static str> {
    SYSREGS.iter().copied().find(|r| r.eq_ignore_ascii_case(s.trim()))
}

/// herd prints AArch64 registers in their X form: `W3` and `X3` are one register. Init
/// blocks and conditions also name `SP`, `LR` (X30) and the system registers.
pub fn reg(s: &str) -> Option<Reg> {
    gpr(s).or_else(|| sysreg(s).map(str::to_string))
}

/// A general-purpose register operand's X name: `Xn`, `Wn`, the zero registers, `SP`
/// and `LR`, in any case (herd's `parse_xreg` and `parse_wreg`).
fn gpr(s: &str) -> Option<Reg> {
    let u = s.trim().to_ascii_uppercase();
    match u.as_str() {
        "XZR" | "WZR" => return Some(ZR.into()),
        "SP" => return Some(SP.into()),
        "LR" => return Some("X30".into()),
        _ => {}
    }
    let n = u.strip_prefix('X').or_else(|| u.strip_prefix('W'))?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = n.parse().ok()?;
    (n <= 30).then(|| format!("X{n}"))
}

/// A general-purpose register operand: its X name and whether it was written as `W`.
#[derive(Clone, Debug)]
pub struct R {
    pub x: Reg,
    pub w: bool,
}

impl R {
    pub fn src(&self) -> Src {
        Src::Reg(self.x.clone())
    }
    /// The operation's width in bits.
    pub fn bits(&self) -> i64 {
        if self.w { 32 } else { 64 }
    }
}

pub fn r(s: &str) -> Result<R, InstrError> {
    let t = s.trim();
    let Some(x) = gpr(t) else {
        let what = if sysreg(t).is_some() || t.eq_ignore_ascii_case("NZCV") {
            format!("a system register, '{t}', where a general-purpose register is expected")
        } else if t.starts_with(['C', 'c']) && t[1..].parse::<u8>().is_ok() {
            format!("unsupported: capability register '{t}' (herd's variant morello)")
        } else if t.contains('%') {
            format!("unsupported: symbolic register '{t}' given a value in the initial state")
        } else {
            format!("expected a register, found '{t}'")
        };
        return Err(InstrError::new(what));
    };
    Ok(R { x, w: t.starts_with(['W', 'w']) })
}

/// Registers of one width, as every data-processing instruction wants them.
pub fn same_width(rs: &[&R], text: &str) -> Result<(), InstrError> {
    match rs.split_first() {
        Some((a, rest)) if rest.iter().any(|b| b.w != a.w) => {
            Err(InstrError::new(format!("registers of different widths in '{}'", text.trim())))
        }
        _ => Ok(()),
    }
}

/// An immediate `#n` (herd also reads a bare `n`).
pub fn imm(s: &str) -> Result<i64, InstrError> {
    let t = s.trim();
    parse_imm(t.strip_prefix('#').unwrap_or(t))
        .ok_or_else(|| InstrError::new(format!("expected an immediate `#n`, found '{t}'")))
}

pub fn is_imm(s: &str) -> bool {
    let t = s.trim();
    t.starts_with('#') || t.starts_with(|c: char| c.is_ascii_digit() || c == '-')
}

/// An immediate in `lo..=hi`, else an error naming it.
pub fn imm_in(s: &str, lo: i64, hi: i64) -> Result<i64, InstrError> {
    let k = imm(s)?;
    if (lo..=hi).contains(&k) {
        Ok(k)
    } else {
        Err(InstrError::new(format!("immediate '{}' out of range {lo}..{hi}", s.trim())))
    }
}

/// A shift or extension modifier of a register operand (`LSL #2`, `SXTW`, `UXTB 2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    Lsl(i64),
    Lsr(i64),
    Asr(i64),
    Ror(i64),
    /// Zero- (`false`) or sign-extension from this many bits, then a left shift.
    Ext(bool, i64, i64),
}

pub fn modifier(s: &str) -> Result<Modifier, InstrError> {
    let m = s.trim();
    // herd's lexer reads `LSL#2` as `LSL #2`: a name ends where `#` or a space begins.
    let (kind, amount) = match m.find(|c: char| c.is_whitespace() || c == '#') {
        Some(k) => (m[..k].to_ascii_uppercase(), Some(imm(&m[k..])?)),
        None => (m.to_ascii_uppercase(), None),
    };
    let ext = |signed, bits| Ok(Modifier::Ext(signed, bits, amount.unwrap_or(0)));
    let shift = |f: fn(i64) -> Modifier| {
        amount.map(f).ok_or_else(|| InstrError::new(format!("expected a shift amount in '{m}'")))
    };
    match kind.as_str() {
        "LSL" => shift(Modifier::Lsl),
        "LSR" => shift(Modifier::Lsr),
        "ASR" => shift(Modifier::Asr),
        "ROR" => shift(Modifier::Ror),
        "UXTB" => ext(false, 8),
        "UXTH" => ext(false, 16),
        "UXTW" => ext(false, 32),
        "UXTX" => ext(false, 64),
        "SXTB" => ext(true, 8),
        "SXTH" => ext(true, 16),
        "SXTW" => ext(true, 32),
        "SXTX" => ext(true, 64),
        _ => Err(InstrError::new(format!("unsupported operand modifier '{m}'"))),
    }
}

/// The condition codes, each as a function of the flags (herd's `condition_holds`).
pub const CONDS: &[&str] =
    &["EQ", "NE", "CS", "CC", "HS", "LO", "MI", "PL", "VS", "VC", "HI", "LS", "GE", "LT", "GT", "LE", "AL", "NV"];

/// The four flags, as pseudo-registers that [`super::AArch64`] names `NZCV` for events.
pub const N: &str = "%N";
pub const Z: &str = "%Z";
pub const C: &str = "%C";
pub const V: &str = "%V";

/// Ops being built for one instruction, with fresh temporaries `%t1`, `%t2`, ….
#[derive(Default)]
pub struct B {
    pub ops: Vec<Op>,
    n: usize,
}

impl B {
    pub fn tmp(&mut self) -> Reg {
        self.n += 1;
        format!("%t{}", self.n)
    }
    /// `a op b` into a fresh temporary.
    pub fn bin(&mut self, op: BinOp, a: Src, b: Src) -> Src {
        let t = self.tmp();
        self.ops.push(Op::Bin { dst: t.clone(), op, a, b });
        Src::Reg(t)
    }
    pub fn bin_to(&mut self, dst: &str, op: BinOp, a: Src, b: Src) {
        self.ops.push(Op::Bin { dst: dst.into(), op, a, b });
    }
    pub fn imm(&mut self, op: BinOp, a: Src, k: i64) -> Src {
        self.bin(op, a, Src::Imm(k))
    }
    /// `a` zero-extended from its low `bits` (nothing for 64).
    pub fn zext(&mut self, a: Src, bits: i64) -> Src {
        if bits >= 64 { a } else { self.imm(BinOp::Zext, a, bits) }
    }
    pub fn sext(&mut self, a: Src, bits: i64) -> Src {
        if bits >= 64 { a } else { self.imm(BinOp::Sext, a, bits) }
    }
    /// A register operand as herd reads it: a W register masked to 32 bits.
    pub fn read(&mut self, r: &R) -> Src {
        if r.w && r.x != ZR { self.zext(r.src(), 32) } else { r.src() }
    }
    /// Logical shift right of a `bits`-wide value by `k` (a constant or a register).
    pub fn lsr(&mut self, a: Src, k: Src, bits: i64) -> Src {
        let a = self.zext(a, bits);
        self.bin(BinOp::Shr, a, k)
    }
    /// Arithmetic shift right of a `bits`-wide value: sign-extended to 64 bits, shifted,
    /// and sign-extended again from the bits left.
    pub fn asr(&mut self, a: Src, k: Src) -> Src {
        let s = self.bin(BinOp::Shr, a, k.clone());
        let left = self.bin(BinOp::Sub, Src::Imm(64), k);
        self.bin(BinOp::Sext, s, left)
    }
    /// Rotate right of a `bits`-wide value by `k`.
    pub fn ror(&mut self, a: Src, k: Src, bits: i64) -> Src {
        let a = self.zext(a, bits);
        let lo = self.bin(BinOp::Shr, a.clone(), k.clone());
        let back = self.bin(BinOp::Sub, Src::Imm(bits), k);
        let hi = self.bin(BinOp::Shl, a, back);
        let v = self.bin(BinOp::Or, lo, hi);
        self.zext(v, bits)
    }
    /// A shifted or extended register operand of an ALU instruction, as herd computes
    /// it (`opext_shift`, `ext_sext`: an extension is applied after the shift).
    pub fn modified(&mut self, v: Src, m: Modifier, bits: i64) -> Src {
        match m {
            Modifier::Lsl(0) => v,
            Modifier::Lsl(k) => self.imm(BinOp::Shl, v, k),
            Modifier::Lsr(k) => self.lsr(v, Src::Imm(k), bits),
            Modifier::Asr(k) => {
                let s = self.sext(v, bits);
                self.asr(s, Src::Imm(k))
            }
            Modifier::Ror(k) => self.ror(v, Src::Imm(k % bits), bits),
            Modifier::Ext(signed, from, k) => {
                let s = if k == 0 { v } else { self.imm(BinOp::Shl, v, k) };
                if signed { self.sext(s, from) } else { self.zext(s, from) }
            }
        }
    }
    /// The 0/1 value of condition `cc` over the flags.
    pub fn cond(&mut self, cc: &str) -> Result<Src, InstrError> {
        let f = |s: &str| Src::Reg(s.into());
        let not = |b: &mut B, v: Src| b.imm(BinOp::Xor, v, 1);
        Ok(match cc.trim().to_ascii_uppercase().as_str() {
            "EQ" => f(Z),
            "NE" => not(self, f(Z)),
            "CS" | "HS" => f(C),
            "CC" | "LO" => not(self, f(C)),
            "MI" => f(N),
            "PL" => not(self, f(N)),
            "VS" => f(V),
            "VC" => not(self, f(V)),
            "HI" => self.bin(BinOp::Gt, f(C), f(Z)),
            "LS" => self.bin(BinOp::Le, f(C), f(Z)),
            "GE" => self.bin(BinOp::Eq, f(N), f(V)),
            "LT" => self.bin(BinOp::Ne, f(N), f(V)),
            "GT" | "LE" => {
                let nv = self.bin(BinOp::Xor, f(N), f(V));
                let any = self.bin(BinOp::Or, nv, f(Z));
                if cc.trim().eq_ignore_ascii_case("GT") { not(self, any) } else { any }
            }
            "AL" | "NV" => Src::Imm(1),
            k => return Err(InstrError::new(format!("unsupported condition code '{k}'"))),
        })
    }
    /// The condition code inverted (`CSET`'s alias of `CSINC`).
    pub fn invert(cc: &str) -> Result<&'static str, InstrError> {
        let u = cc.trim().to_ascii_uppercase();
        let k = CONDS
            .iter()
            .position(|c| *c == u)
            .ok_or_else(|| InstrError::new(format!("unsupported condition code '{}'", cc.trim())))?;
        Ok(match u.as_str() {
            "AL" | "NV" => return Err(InstrError::new(format!("condition '{u}' cannot be inverted here"))),
            _ => CONDS[k ^ 1],
        })
    }
}
