//! AArch64 at user level, as in herd's `AArch64` tests (without `-variant mixed`).
//!
//! `operand.rs` is the syntax (registers and their widths, immediates, shifts and
//! extensions, condition codes), `table.rs` the instruction families, one row each,
//! `alu.rs` and `mem.rs` their semantics, after herd's `AArch64Sem`.
//!
//! Events carry herd's annotation sets: `A` (acquire: `LDAR`, `LDAXR`, `SWPA`, …), `Q`
//! (acquire-PC: `LDAPR`), `L` (release: `STLR`, `STLXR`, `SWPL`, …), `X` (both accesses of an
//! atomic read-modify-write: `SWP`, `LDADD`, `CAS`, …), `NoRet` (the read of an atomic whose
//! result goes to the zero register: `STADD`, `LDADD Ws,WZR,[Xn]`), `EX` (exclusives:
//! `LDXR`, `STXR`) and `NT` (`LDNP`, `STNP`). Barriers are `DMB.<option>`, `DSB.<option>`
//! and `ISB` events. The flags N, Z, C and V are four 0/1 pseudo-registers.

mod alu;
mod mem;
mod morello;
mod operand;
mod pair;
mod sys;
mod table;

use super::*;
use operand::{ZR, reg};

pub struct AArch64;

impl Isa for AArch64 {
    fn default_model(&self) -> Option<&'static str> {
        Some("aarch64")
    }
    /// Arm's current model in herd's library; the bundled `aarch64` is the 2018 one.
    fn herd_model(&self) -> Option<&'static str> {
        Some("aarch64.cat")
    }
    fn name(&self) -> &'static str {
        "AArch64"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn register_events(&self) -> bool {
        true
    }

    /// The general-purpose registers by their X names; the four flags (pseudo-registers
    /// here) are the one register `NZCV` (herd's four PSTATE flags, which every
    /// flag-setting instruction writes together); other temporaries make no event.
    fn event_reg<'r>(&self, r: &'r str) -> Option<&'r str> {
        match r {
            operand::N | operand::Z | operand::C | operand::V => Some("NZCV"),
            ZR => None,
            _ if r.starts_with('%') => None,
            _ => Some(r),
        }
    }

    /// herd sorts registers by OCaml's `compare` on its register type: `SP`, a constant
    /// constructor, before the X registers, the system registers after them.
    fn reg_index(&self, r: &str) -> usize {
        // herd orders registers by OCaml's `compare` on its `reg` type: the constructors
        // without arguments first (`ZR`, then `SP`), then the general registers, then the
        // system registers.
        match r {
            ZR => 0,
            operand::SP => 1,
            _ => match r.strip_prefix('X').and_then(|n| n.parse::<usize>().ok()) {
                Some(n) => n + 2,
                None => operand::SYSREGS.iter().position(|s| *s == r).map_or(usize::MAX, |k| 100 + k),
            },
        }
    }

    fn masks_narrow_loads(&self) -> bool {
        true
    }
    fn mixed_cells(&self) -> bool {
        true
    }
    fn capabilities(&self) -> bool {
        true
    }
    /// herd's `mem_access_size` has no size for `I_LDAR` (`LDAR`, `LDAPR` and the
    /// exclusive loads of a W or X register), so they do not count.
    fn sizes_cells(&self, text: &str) -> bool {
        let m = text.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
        !matches!(m.as_str(), "LDAR" | "LDAPR" | "LDXR" | "LDAXR")
    }
    fn zero_reg(&self) -> Option<&'static str> {
        Some(ZR)
    }

    fn known_sets(&self) -> &'static [&'static str] {
        &[
            "DMB.SY",
            "DMB.ST",
            "DMB.LD",
            "DMB.ISH",
            "DMB.ISHST",
            "DMB.ISHLD",
            "DMB.OSH",
            "DMB.OSHST",
            "DMB.OSHLD",
            "DMB.NSH",
            "DMB.NSHST",
            "DMB.NSHLD",
            "DSB.SY",
            "DSB.ST",
            "DSB.LD",
            "DSB.ISH",
            "DSB.ISHST",
            "DSB.ISHLD",
            "DSB.OSH",
            "DSB.OSHST",
            "DSB.OSHLD",
            "DSB.NSH",
            "DSB.NSHST",
            "DSB.NSHLD",
            "ISB",
            "A",
            "L",
            "Q",
            "X",
            "EX",
            "NoRet",
            // Empty in the plain case (no vmsa, memtag or ifetch): cache and TLB
            // maintenance, tags, non-temporal pairs, guarded control stacks.
            "DC.CVAU",
            "DC.CIVAC",
            "IC.IVAU",
            "IC.IALLU",
            "IC.IALLUIS",
            "TLBIIS",
            "TLBInXS",
            "GCSB.DSYNC",
            "T",
            "NT",
            "EXC-ENTRY",
            "EXC-RET",
            "SVC",
            "UndefinedInstruction",
            "FAULT",
            "FAULT-RD",
            "FAULT-WR",
            "MMU",
            "Translation",
            "AccessFlag",
            "Permission",
            "TagCheck",
            "Exclusive",
            "PacCheck",
            "GCSCheck",
            "TLBI",
            // Under `-variant ifetch` (`events::ifetch`): accesses to code locations, and
            // those whose value is an instruction herd's CMODX rules restrict.
            "Instr",
            "Restricted-CMODX",
            // Under vmsa: page-table entries, their values' sets, physical accesses,
            // hardware updates of the flags (none built), data-side faults.
            "PTE",
            "D-PTE",
            "I-PTE",
            "PTEV",
            "PTEINV",
            "PTEAF0",
            "PTEDB0",
            "ReadOnly",
            "PA",
            "AF",
            "DB",
            "D-MMU",
        ]
    }

    /// herd's registers for symbolic ones (`%name`, `X%name`, `W%name`): the general
    /// registers but the link register X30, in order.
    fn symbolic_regs(&self) -> &'static [&'static str] {
        &[
            "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11", "X12", "X13", "X14", "X15", "X16",
            "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29",
        ]
    }

    /// herd's `telechat` variant (code compiled by a C compiler): a `RET` without a
    /// register ends the thread instead of jumping to X30. Under `NV2`, `ELR_EL1`,
    /// `ESR_EL1` and `VNCR_EL2` live in memory at `VNCR_EL2` ([`sys::under_nv2`]). Under
    /// `morello`, capabilities ([`morello`]).
    fn parse_under(&self, text: &str, variants: &[String]) -> Result<Vec<Op>, InstrError> {
        if crate::variant::holds(variants, "morello") {
            return morello::parse(text);
        }
        if text.trim().eq_ignore_ascii_case("RET") && crate::variant::holds(variants, "telechat") {
            return Ok(vec![Op::Exit]);
        }
        let ops = table::parse(text)?;
        let tlbi = text.trim().get(..4).is_some_and(|m| m.eq_ignore_ascii_case("TLBI"));
        if tlbi && !crate::variant::holds(variants, "vmsa") {
            return Err(InstrError::new("TLBI without -variant vmsa (herd refuses it)"));
        }
        let sys = text.trim().get(..3).is_some_and(|m| m.eq_ignore_ascii_case("MRS") || m.eq_ignore_ascii_case("MSR"));
        Ok(if sys && crate::variant::holds(variants, "nv2") { sys::under_nv2(ops) } else { ops })
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        table::parse(text)
    }
}
