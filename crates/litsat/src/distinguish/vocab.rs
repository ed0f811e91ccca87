//! What an architecture's tests may contain, for `distinguish`: the kinds of event a slot
//! may be (a row per kind), and how a kind is written as an instruction. An architecture
//! is a row of [`VOCABS`]; the search reads only the table.

pub use super::emit_asm::Asm;

/// Where a kind sits in a read-modify-write instruction: its read comes in one slot and
/// its write in the next, one instruction. In a table, a `Read` row's `Write` row comes
/// right after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Whole,
    /// The read of a read-modify-write (the write follows in the next slot).
    Read,
    /// The write of a read-modify-write (its read is in the slot before).
    Write,
    /// A load-reserve, its own instruction: its store-conditional follows in the next slot.
    LinkRead,
    /// A store-conditional that succeeds, paired with the load-reserve in the slot before.
    LinkWrite,
}

impl Half {
    /// Whether the kind is one of two slots that the skeleton keeps together.
    pub fn paired(self) -> bool {
        self != Half::Whole
    }
}

/// One kind of event: its class, the sets it belongs to, and its instruction.
#[derive(Clone, Copy, Debug)]
pub struct EventKind {
    pub name: &'static str,
    pub read: bool,
    pub write: bool,
    pub fence: bool,
    /// The tag sets holding it (`MFENCE`, `X`, C's memory orders, …).
    pub tags: &'static [&'static str],
    pub half: Half,
    /// Its instruction: `{x}` the location, `{v}` the value written, `{r}` the register
    /// read into (a two-slot read-modify-write without `{v}` takes its value from `{r}`'s
    /// initial value); the second half of a read-modify-write writes nothing.
    pub instr: &'static str,
}

/// How an architecture's tests are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Columns of instructions, one per thread; registers set in the init block.
    X86,
    /// One C function per thread, taking the locations as pointers.
    C,
    /// The kernel's litmus style: C functions over `int *` locations, an empty init block
    /// (every location starts at 0), observers reading with `READ_ONCE`.
    Kernel,
    /// Columns of RISC-V instructions over registers (`vocab_riscv.rs`).
    RiscV,
    /// Columns of Power instructions over registers (`vocab_ppc.rs`).
    Ppc,
}

impl Style {
    /// The registers a thread reads into, in order.
    pub fn regs(self) -> &'static [&'static str] {
        match self {
            Style::X86 => &["EAX", "EBX", "ECX", "EDX", "ESI", "EDI"],
            Style::C | Style::Kernel => &["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"],
            Style::RiscV | Style::Ppc => self.asm().map_or(&[], |a| a.regs),
        }
    }

    /// An observer's read of `{x}` into `{r}`.
    pub fn observe(self) -> &'static str {
        match self {
            Style::X86 => "MOV {r},[{x}]",
            Style::C => "int {r} = atomic_load_explicit({x}, memory_order_relaxed);",
            Style::Kernel => "int {r} = READ_ONCE(*{x});",
            Style::RiscV | Style::Ppc => self.asm().map_or("", |a| a.observe),
        }
    }

    /// The syntax of a register machine's tests, whose dependencies the search chooses.
    pub fn asm(self) -> Option<&'static Asm> {
        match self {
            Style::RiscV => Some(&super::vocab_riscv::ASM),
            Style::Ppc => Some(&super::vocab_ppc::ASM),
            Style::X86 | Style::C | Style::Kernel => None,
        }
    }

    /// Whether tests of this style carry addr, data and ctrl dependencies (solver variables).
    pub fn deps(self) -> bool {
        self.asm().is_some()
    }
}

pub(super) const fn kind(
    name: &'static str,
    rw: (bool, bool),
    tags: &'static [&'static str],
    half: Half,
    instr: &'static str,
) -> EventKind {
    EventKind { name, read: rw.0, write: rw.1, fence: !rw.0 && !rw.1, tags, half, instr }
}

/// A C11 read-modify-write: one event, both read and write.
const RW: (bool, bool) = (true, true);

pub(super) const R: (bool, bool) = (true, false);
pub(super) const W: (bool, bool) = (false, true);
pub(super) const F: (bool, bool) = (false, false);

/// An architecture's vocabulary (or the part of it a search keeps).
#[derive(Clone, Debug)]
pub struct Vocab {
    /// The architecture's name in a litmus test's header.
    pub arch: &'static str,
    pub kinds: Vec<EventKind>,
    pub style: Style,
    /// Whether herd's candidate rules put a read-modify-write's write co-after the write
    /// its read saw (C's, through iico); X86's `XCHG` gets no such order (herd's sc.cat
    /// then allows what x86tso.cat forbids, HERD-FACTS.md).
    pub rmw_ordered: bool,
}

/// x86: `MOV` loads and stores, `MFENCE`, `XCHG` (a locked read-modify-write, tagged `X`).
const X86: &[EventKind] = &[
    kind("R", R, &[], Half::Whole, "MOV {r},[{x}]"),
    kind("W", W, &[], Half::Whole, "MOV [{x}],${v}"),
    kind("MFENCE", F, &["MFENCE"], Half::Whole, "MFENCE"),
    kind("XCHG.R", R, &["X"], Half::Read, "XCHG [{x}],{r}"),
    kind("XCHG.W", W, &["X"], Half::Write, ""),
];

/// C11: plain accesses, atomic loads, stores and exchanges with their memory orders (one
/// event each, as herd's C), and fences; the sets as herd's C front end gives them.
const C11: &[EventKind] = &[
    kind("R.na", R, &["NA"], Half::Whole, "int {r} = *{x};"),
    kind("R.rlx", R, &["A", "RLX"], Half::Whole, "int {r} = atomic_load_explicit({x}, memory_order_relaxed);"),
    kind("R.acq", R, &["A", "ACQ"], Half::Whole, "int {r} = atomic_load_explicit({x}, memory_order_acquire);"),
    kind("R.sc", R, &["A", "SC"], Half::Whole, "int {r} = atomic_load_explicit({x}, memory_order_seq_cst);"),
    kind("W.na", W, &["NA"], Half::Whole, "*{x} = {v};"),
    kind("W.rlx", W, &["A", "RLX"], Half::Whole, "atomic_store_explicit({x}, {v}, memory_order_relaxed);"),
    kind("W.rel", W, &["A", "REL"], Half::Whole, "atomic_store_explicit({x}, {v}, memory_order_release);"),
    kind("W.sc", W, &["A", "SC"], Half::Whole, "atomic_store_explicit({x}, {v}, memory_order_seq_cst);"),
    kind("F.acq", F, &["ACQ"], Half::Whole, "atomic_thread_fence(memory_order_acquire);"),
    kind("F.rel", F, &["REL"], Half::Whole, "atomic_thread_fence(memory_order_release);"),
    kind("F.acq_rel", F, &["ACQ_REL"], Half::Whole, "atomic_thread_fence(memory_order_acq_rel);"),
    kind("F.sc", F, &["SC"], Half::Whole, "atomic_thread_fence(memory_order_seq_cst);"),
    kind(
        "XCHG.rlx",
        RW,
        &["A", "RLX", "RMW", "X"],
        Half::Whole,
        "int {r} = atomic_exchange_explicit({x}, {v}, memory_order_relaxed);",
    ),
    kind(
        "XCHG.acq_rel",
        RW,
        &["A", "ACQ_REL", "RMW", "X"],
        Half::Whole,
        "int {r} = atomic_exchange_explicit({x}, {v}, memory_order_acq_rel);",
    ),
    kind(
        "XCHG.sc",
        RW,
        &["A", "SC", "RMW", "X"],
        Half::Whole,
        "int {r} = atomic_exchange_explicit({x}, {v}, memory_order_seq_cst);",
    ),
];

/// Every vocabulary, by architecture.
pub const VOCABS: &[(&str, &[EventKind], Style, bool)] = &[
    ("X86", X86, Style::X86, false),
    ("C", C11, Style::C, true),
    ("RISCV", super::vocab_riscv::KINDS, Style::RiscV, true),
    ("PPC", super::vocab_ppc::KINDS, Style::Ppc, false),
];

/// The vocabulary of `arch` (as a test's header or `--arch` names it), with only the
/// kinds `keep` names where it names some (a read-modify-write's two halves go together).
pub fn for_arch(arch: &str, keep: &[String]) -> Result<Vocab, String> {
    let lkmm = arch.eq_ignore_ascii_case(super::vocab_lkmm::NAME).then_some((
        "C",
        super::vocab_lkmm::KINDS,
        Style::Kernel,
        true,
    ));
    let Some((arch, kinds, style, rmw_ordered)) =
        lkmm.or_else(|| VOCABS.iter().find(|v| v.0.eq_ignore_ascii_case(arch)).copied())
    else {
        let mut known: Vec<&str> = VOCABS.iter().map(|v| v.0).collect();
        known.push(super::vocab_lkmm::NAME);
        return Err(format!("no vocabulary for architecture {arch} (known: {})", known.join(", ")));
    };
    let family = |k: &EventKind| k.name.split('.').next().unwrap_or(k.name).to_string();
    let kept = |k: &EventKind| keep.iter().any(|n| family(k) == *n || k.name == n);
    if let Some(bad) = keep.iter().find(|n| !kinds.iter().any(|k| family(k) == **n || k.name == n.as_str())) {
        let mut known: Vec<String> = kinds.iter().map(family).collect();
        known.dedup();
        return Err(format!("no event kind {bad} in {arch}'s vocabulary (known: {})", known.join(", ")));
    }
    let kinds = kinds.iter().filter(|k| keep.is_empty() || kept(k)).copied().collect();
    Ok(Vocab { arch, kinds, style, rmw_ordered })
}
