//! The LKMM's vocabulary for `distinguish` (`--arch LKMM`): C tests in the kernel's
//! litmus style, each kind one of linux-kernel.def's macros, so that the events carry
//! the annotations the kernel's bell declares (`ONCE`, `ACQUIRE`, `RELEASE`, `MB`, `rmb`,
//! `wmb`). Locks, RCU and SRCU are outside it: their sets are empty in every candidate,
//! and so are addr, data and ctrl (no dependencies yet).

use super::vocab::{EventKind, F, Half, R, W, kind};

/// The name `--arch` takes; the tests' header is `C`.
pub const NAME: &str = "LKMM";

/// The annotations of a kernel exchange's two events: the macro's own, and herd's `RMW`
/// and `X`, as the C front end gives `__xchg`'s.
const XCHG_MB: &[&str] = &["MB", "RMW", "X"];
const XCHG_ONCE: &[&str] = &["ONCE", "RMW", "X"];
const XCHG_ACQ: &[&str] = &["ACQUIRE", "RMW", "X"];
const XCHG_REL: &[&str] = &["RELEASE", "RMW", "X"];

/// Plain and marked accesses, the three barriers, and the exchanges (a read and a write,
/// as herd's `__xchg` makes them).
pub const KINDS: &[EventKind] = &[
    kind("R.plain", R, &[], Half::Whole, "int {r} = *{x};"),
    kind("R.once", R, &["ONCE"], Half::Whole, "int {r} = READ_ONCE(*{x});"),
    kind("R.acquire", R, &["ACQUIRE"], Half::Whole, "int {r} = smp_load_acquire({x});"),
    kind("W.plain", W, &[], Half::Whole, "*{x} = {v};"),
    kind("W.once", W, &["ONCE"], Half::Whole, "WRITE_ONCE(*{x}, {v});"),
    kind("W.release", W, &["RELEASE"], Half::Whole, "smp_store_release({x}, {v});"),
    kind("F.mb", F, &["MB"], Half::Whole, "smp_mb();"),
    kind("F.rmb", F, &["rmb"], Half::Whole, "smp_rmb();"),
    kind("F.wmb", F, &["wmb"], Half::Whole, "smp_wmb();"),
    kind("XCHG.R", R, XCHG_MB, Half::Read, "int {r} = xchg({x}, {v});"),
    kind("XCHG.W", W, XCHG_MB, Half::Write, ""),
    kind("XCHG_RELAXED.R", R, XCHG_ONCE, Half::Read, "int {r} = xchg_relaxed({x}, {v});"),
    kind("XCHG_RELAXED.W", W, XCHG_ONCE, Half::Write, ""),
    kind("XCHG_ACQUIRE.R", R, XCHG_ACQ, Half::Read, "int {r} = xchg_acquire({x}, {v});"),
    kind("XCHG_ACQUIRE.W", W, XCHG_ACQ, Half::Write, ""),
    kind("XCHG_RELEASE.R", R, XCHG_REL, Half::Read, "int {r} = xchg_release({x}, {v});"),
    kind("XCHG_RELEASE.W", W, XCHG_REL, Half::Write, ""),
];
