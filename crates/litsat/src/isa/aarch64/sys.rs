//! System register moves (herd's `I_MRS`, `I_MSR`): `NZCV` stands for the four flags
//! (bits 31 to 28), every other system register herd knows is a plain register.

use super::operand::{B, C, N, R, V, Z, r, sysreg};
use super::table::Ins;
use crate::isa::{Addr, BinOp, InstrError, Op, Src, Tag};

type Res = Result<Vec<Op>, InstrError>;

/// The flags from bit 31 (`N`) down to bit 28 (`V`).
const FLAGS: [(&str, i64); 4] = [(N, 31), (Z, 30), (C, 29), (V, 28)];

/// `MRS Xt, <sysreg>` and `MSR <sysreg>, Xt`.
pub fn mrs_msr(ins: &Ins) -> Res {
    let [a, b] = ins.a.as_slice() else { return Err(ins.bad()) };
    let (xt, sys) = if ins.m == "MRS" { (a, b) } else { (b, a) };
    let xt = x_reg(xt)?;
    let nzcv = sys.trim().eq_ignore_ascii_case("NZCV");
    let name = if nzcv { "NZCV" } else { sysreg(sys).ok_or_else(|| unknown(sys))? };
    let mut bb = B::default();
    match (ins.m == "MRS", nzcv) {
        (true, true) => {
            let mut v = Src::Imm(0);
            for (f, bit) in FLAGS {
                let s = bb.imm(BinOp::Shl, Src::Reg(f.into()), bit);
                v = bb.bin(BinOp::Or, v, s);
            }
            bb.ops.push(Op::Mov { dst: xt.x, src: v });
        }
        (false, true) => {
            let v = bb.read(&xt);
            for (f, bit) in FLAGS {
                let s = bb.imm(BinOp::Shr, v.clone(), bit);
                bb.bin_to(f, BinOp::And, s, Src::Imm(1));
            }
        }
        (true, false) => bb.ops.push(Op::Mov { dst: xt.x, src: Src::Reg(name.into()) }),
        (false, false) => bb.ops.push(Op::Mov { dst: name.into(), src: xt.src() }),
    }
    Ok(bb.ops)
}

/// herd's `MRS`/`MSR` take an X register (or `XZR`, `SP`).
fn x_reg(s: &str) -> Result<R, InstrError> {
    let x = r(s)?;
    if x.w {
        return Err(InstrError::new(format!("expected an X register, found '{}'", s.trim())));
    }
    Ok(x)
}

fn unknown(s: &str) -> InstrError {
    InstrError::new(format!("unsupported system register '{}'", s.trim()))
}

/// The offset from `VNCR_EL2` at which herd's `NV2` variant keeps a system register in
/// memory (lib/AArch64Base.ml's `sysregs_map`).
fn nv2_offset(name: &str) -> Option<i64> {
    match name {
        "VNCR_EL2" => Some(0xB0),
        "ESR_EL1" => Some(0x138),
        "ELR_EL1" => Some(0x230),
        _ => None,
    }
}

/// `MRS`/`MSR` ops (as [`mrs_msr`] makes them) under herd's `NV2` variant: a move from or
/// to `ELR_EL1`, `ESR_EL1` or `VNCR_EL2` is an 8-byte load or store at `VNCR_EL2` plus the
/// register's offset; other moves are unchanged.
pub fn under_nv2(ops: Vec<Op>) -> Vec<Op> {
    let at = |name: &str| nv2_offset(name).map(|off| Addr::Reg("VNCR_EL2".into(), off));
    match ops.as_slice() {
        [Op::Mov { dst, src: Src::Reg(sys) }] if let Some(addr) = at(sys) => {
            vec![Op::Width(8), Op::Load { dst: dst.clone(), addr, tags: Vec::new() }]
        }
        [Op::Mov { dst, src }] if let Some(addr) = at(dst) => {
            vec![Op::Width(8), Op::Store { addr, src: src.clone(), tags: Vec::new(), when: None }]
        }
        _ => ops,
    }
}

/// herd's cache maintenance by address (`DC <op>, Xn`, `IC IVAU, Xn`): one event at the
/// location `Xn` holds, which is no memory access (herd's `CMO` action, in the set named
/// after the operation: `DC.CVAU`, `IC.IVAU`), fed by the register's read; without an
/// address (`IC IALLU`, `IC IALLUIS`, a DC by set/way), an event at no location.
pub fn cache(ins: &Ins) -> Res {
    let (op, xn) = match ins.a.as_slice() {
        [op] => (op.trim().to_ascii_uppercase(), None),
        [op, xn] => (op.trim().to_ascii_uppercase(), Some(xn)),
        _ => return Err(ins.bad()),
    };
    let known: &[&str] = if ins.m == "DC" { &["CVAU", "CVAC", "CIVAC", "IVAC", "CSW", "ISW", "CISW"] } else { &["IVAU", "IALLU", "IALLUIS"] };
    if !known.contains(&op.as_str()) {
        return Err(InstrError::new(format!("unsupported cache maintenance '{} {op}'", ins.m)));
    }
    let tags = vec![format!("{}.{op}", ins.m).into()];
    let by_address = op.ends_with("VAU") || op.ends_with("VAC");
    match (by_address, xn) {
        (true, Some(xn)) => Ok(vec![Op::Marker { addr: Addr::Reg(x_reg(xn)?.x, 0), tags }]),
        (false, None) if ins.m == "IC" => Ok(vec![Op::Fence { tags }]),
        (false, Some(xn)) if ins.m == "DC" => x_reg(xn).map(|_| vec![Op::Fence { tags }]),
        _ => Err(ins.bad()),
    }
}

/// The TLBI operations litsat builds, by kind (herd's `TLBI.typ`): those that take a
/// virtual address's page in a register, and those that invalidate every entry.
const TLBI_BY_PAGE: [&str; 4] = ["VA", "VAL", "VAA", "VAAL"];
const TLBI_ALL: [&str; 3] = ["ALL", "VMALL", "VMALLS12"];

/// `TLBI <op>{, Xt}` (herd's `I_TLBI`, under `-variant vmsa`): a marker event in `TLBI`,
/// and in `TLBIIS` for an inner-shareable operation (`…IS`), `TLBInXS` for `…nXS`; the
/// interpreter finds the page invalidated in the register (`%all` marks the operations
/// that take none).
pub fn tlbi(ins: &Ins) -> Res {
    let (op, xt) = match ins.a.as_slice() {
        [op] => (op, None),
        [op, xt] => (op, Some(x_reg(xt)?)),
        _ => return Err(ins.bad()),
    };
    let name = op.trim().to_ascii_uppercase();
    let (rest, nxs) = name.strip_suffix("NXS").map_or((name.as_str(), false), |r| (r, true));
    let (rest, is) = rest.strip_suffix("IS").map_or((rest, false), |r| (r, true));
    let kind = rest.len().checked_sub(2).filter(|&k| rest[k..].starts_with('E')).map(|k| &rest[..k]);
    let level_ok = rest.len() >= 2 && matches!(&rest[rest.len() - 2..], "E0" | "E1" | "E2" | "E3");
    let Some(kind) = kind.filter(|_| level_ok) else {
        return Err(InstrError::new(format!("unknown TLBI operation '{}'", op.trim())));
    };
    let mut tags: Vec<Tag> = vec!["TLBI".into()];
    tags.extend(is.then(|| "TLBIIS".into()));
    tags.extend(nxs.then(|| "TLBInXS".into()));
    let addr = match (xt, TLBI_ALL.contains(&kind), TLBI_BY_PAGE.contains(&kind)) {
        (None, true, _) => {
            tags.push("%all".into());
            Addr::Reg(super::ZR.into(), 0)
        }
        (Some(x), _, true) => Addr::Reg(x.x, 0),
        (_, false, false) => return Err(InstrError::new(format!("unsupported: TLBI operation '{}'", op.trim()))),
        _ => return Err(ins.bad()),
    };
    Ok(vec![Op::Marker { addr, tags }])
}
