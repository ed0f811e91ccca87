//! Power's vocabulary for `distinguish`: `lwz`, `stw`, the four barriers herd's `ppc.cat`
//! reads (`sync`, `lwsync`, `eieio`, `isync`), and the syntax their tests are written in.
//! A control dependency followed by `isync` is herd's `ctrlisync`: an `isync` event that
//! a read controls.

use super::emit_asm::Asm;
use super::vocab::{EventKind, F, Half, R, W, kind};

/// Placeholders: `{r}` the register read into, `{a}` the address's register, `{v}` the
/// register holding the value written.
pub const KINDS: &[EventKind] = &[
    kind("lwz", R, &[], Half::Whole, "lwz {r},0({a})"),
    kind("stw", W, &[], Half::Whole, "stw {v},0({a})"),
    kind("sync", F, &["SYNC"], Half::Whole, "sync"),
    kind("lwsync", F, &["LWSYNC"], Half::Whole, "lwsync"),
    kind("eieio", F, &["EIEIO"], Half::Whole, "eieio"),
    kind("isync", F, &["ISYNC"], Half::Whole, "isync"),
];

/// herd's Power idioms: `xor` of a read's register with itself for a dependency (added
/// as an index: `lwzx`, `stwx`), `li` and `addi` for a value, `cmpw` and `beq` to the
/// next label for a control dependency.
pub const ASM: Asm = Asm {
    regs: &[
        "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "r16", "r17",
        "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
    ],
    observe: "lwz {r},0({a})",
    zero_of: "xor {d},{s},{s}",
    add: "add {d},{a},{b}",
    value: "li {d},{n}",
    value_plus: "addi {d},{z},{n}",
    branch: &["cmpw {r},{r}", "beq {l}"],
    indexed: &[("lwz {r},0({a})", "lwzx {r},{z},{a}"), ("stw {v},0({a})", "stwx {v},{z},{a}")],
};
