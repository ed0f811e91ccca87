//! RISC-V's vocabulary for `distinguish`: the kinds herd's `riscv.cat` tells apart (plain
//! and annotated loads and stores, the nine `fence p,s` and `fence.tso`, `amoswap` with
//! each annotation, `lr`/`sc` pairs), and the syntax their tests are written in.
//!
//! `amoadd` and the other AMOs give the same events and sets as `amoswap` (they differ
//! only in the value written), so only `amoswap` is a row.

use super::emit_asm::Asm;
use super::vocab::{EventKind, F, Half, R, W, kind};

/// Placeholders: `{r}` the register read into, `{a}` the address's register, `{v}` the
/// register holding the value written, `{s}` a store-conditional's status register.
pub const KINDS: &[EventKind] = &[
    kind("lw", R, &[], Half::Whole, "lw {r},0({a})"),
    kind("lw.aq", R, &["Acq"], Half::Whole, "lw.aq {r},0({a})"),
    kind("sw", W, &[], Half::Whole, "sw {v},0({a})"),
    kind("sw.rl", W, &["Rel"], Half::Whole, "sw.rl {v},0({a})"),
    kind("fence.rw.rw", F, &["Fence.rw.rw"], Half::Whole, "fence rw,rw"),
    kind("fence.rw.r", F, &["Fence.rw.r"], Half::Whole, "fence rw,r"),
    kind("fence.rw.w", F, &["Fence.rw.w"], Half::Whole, "fence rw,w"),
    kind("fence.r.rw", F, &["Fence.r.rw"], Half::Whole, "fence r,rw"),
    kind("fence.r.r", F, &["Fence.r.r"], Half::Whole, "fence r,r"),
    kind("fence.r.w", F, &["Fence.r.w"], Half::Whole, "fence r,w"),
    kind("fence.w.rw", F, &["Fence.w.rw"], Half::Whole, "fence w,rw"),
    kind("fence.w.r", F, &["Fence.w.r"], Half::Whole, "fence w,r"),
    kind("fence.w.w", F, &["Fence.w.w"], Half::Whole, "fence w,w"),
    kind("fence.tso", F, &["Fence.tso"], Half::Whole, "fence.tso"),
    kind("amoswap.R", R, &["X"], Half::Read, "amoswap.w {r},{v},0({a})"),
    kind("amoswap.W", W, &["X"], Half::Write, ""),
    kind("amoswap.aq.R", R, &["X", "Acq"], Half::Read, "amoswap.w.aq {r},{v},0({a})"),
    kind("amoswap.aq.W", W, &["X", "Acq"], Half::Write, ""),
    kind("amoswap.rl.R", R, &["X", "Rel"], Half::Read, "amoswap.w.rl {r},{v},0({a})"),
    kind("amoswap.rl.W", W, &["X", "Rel"], Half::Write, ""),
    kind("amoswap.aqrl.R", R, &["X", "AcqRel"], Half::Read, "amoswap.w.aqrl {r},{v},0({a})"),
    kind("amoswap.aqrl.W", W, &["X", "AcqRel"], Half::Write, ""),
    kind("lr", R, &["EX"], Half::LinkRead, "lr.w {r},0({a})"),
    kind("lr.aq", R, &["EX", "Acq"], Half::LinkRead, "lr.w.aq {r},0({a})"),
    kind("lr.aqrl", R, &["EX", "AcqRel"], Half::LinkRead, "lr.w.aqrl {r},0({a})"),
    kind("sc", W, &["EX"], Half::LinkWrite, "sc.w {s},{v},0({a})"),
    kind("sc.rl", W, &["EX", "Rel"], Half::LinkWrite, "sc.w.rl {s},{v},0({a})"),
    kind("sc.aqrl", W, &["EX", "AcqRel"], Half::LinkWrite, "sc.w.aqrl {s},{v},0({a})"),
];

/// herd's RISC-V idioms: `xor` of a read's register with itself for a dependency, `ori`
/// for a value, `bne` to the next label for a control dependency.
pub const ASM: Asm = Asm {
    regs: &[
        "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
        "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "x31",
    ],
    observe: "lw {r},0({a})",
    zero_of: "xor {d},{s},{s}",
    add: "add {d},{a},{b}",
    value: "ori {d},x0,{n}",
    value_plus: "ori {d},{z},{n}",
    branch: &["bne {r},x0,{l}"],
    indexed: &[],
};
