//! Instruction sets as plug-ins.
//!
//! Each ISA module turns the text of one instruction into a few [`Op`]s of a small
//! architecture-neutral language; [`crate::events`] interprets that language. Adding an ISA
//! means adding a module here and a line in [`for_arch`]; the encoder never changes.

mod aarch64;
mod arm;
mod c;
mod lisa;
mod ppc;
mod riscv;
mod x86;
mod x86_64;

/// A register name as the ISA canonicalises it (herd's printing name).
pub type Reg = String;

/// The name of a set an event belongs to (`MFENCE`, `ACQ`): nearly always one of the
/// ISA's fixed names, borrowed, so that tagging ops and their events copies no text.
pub type Tag = std::borrow::Cow<'static, str>;

/// Where a value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(Reg),
    Imm(i64),
    /// The address of a named location.
    Addr(String),
}

/// How a memory access names its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    Sym(String),
    /// A register holding an address, plus a byte offset.
    Reg(Reg, i64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Xor,
    And,
    Or,
    Shl,
    Shr,
    Mul,
    /// Signed 64-bit division, truncated towards zero (herd's `Op.Div` on its 64-bit
    /// values); no value for a zero divisor.
    Div,
    /// Comparisons give 1 or 0.
    Eq,
    Ne,
    Lt,
    Ge,
    Ltu,
    Geu,
    Gt,
    Le,
    /// `a` sign-extended from its low `b` bits.
    Sext,
    /// `a` truncated to its low `b` bits.
    Zext,
    /// herd's `ToInteger`: `a` where it is an integer, else `b` where that is one (the
    /// flags of a comparison of two addresses come from the comparison's result).
    ToInt,
    /// 1 where page-table entry `a` has every flag of the mask `b` set, else 0
    /// (`-variant vmsa`).
    PteAll,
    /// The physical address page-table entry `a` maps to (`b` unused).
    PteOa,
}

/// A branch or store condition: `a op b` with a comparison operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub op: BinOp,
    pub a: Src,
    pub b: Src,
}

/// One step of an instruction's semantics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Load {
        dst: Reg,
        addr: Addr,
        tags: Vec<Tag>,
    },
    /// A store, made only when `when` holds (compare-and-swap). The events of one
    /// instruction form herd's same-instance groups, so an RMW is a load and a store.
    Store {
        addr: Addr,
        src: Src,
        tags: Vec<Tag>,
        when: Option<Cond>,
    },
    /// A store-conditional: the solver chooses success; `status` gets `ok` or `fail`.
    StoreCond {
        addr: Addr,
        src: Src,
        tags: Vec<Tag>,
        status: Option<Reg>,
        ok: i64,
        fail: i64,
        /// A second write, made with the first where it succeeds (AArch64's `STXP`): its
        /// address and value.
        second: Option<Box<(Addr, Src)>>,
    },
    /// A compare-and-swap as herd's AArch64 semantics make it (`CAS Xs, Xt, [Xn]`): a
    /// read; a write of `new` where the value read equals `expected`; `expected` gets the
    /// value read. Each execution of it is two of herd's: on success, two ways the value
    /// reaches `expected` (from the register compared, from memory), which only a model
    /// reading register events tells apart; on failure, with a write of the value read
    /// back, or without one (the read then in `fail_read_tags` instead of `read_tags`).
    Cas {
        expected: Reg,
        new: Src,
        addr: Addr,
        read_tags: Vec<Tag>,
        write_tags: Vec<Tag>,
        fail_read_tags: Vec<Tag>,
        /// The second half of a compare-and-swap pair (`CASP`): its expected register, new
        /// value and address. Both halves compare, and both swap, as one.
        pair: Option<Box<(Reg, Src, Addr)>>,
    },
    /// A forward branch to a label, conditional or not.
    Branch {
        cond: Option<Cond>,
        target: String,
    },
    /// A branch to the code label a register holds (ARM's `BX R0` with `0:R0 = P0:foo`):
    /// resolved before interpretation into a [`Op::Branch`] where the initial state binds
    /// the register to a label of its own thread and no instruction of the thread writes
    /// it; refused otherwise.
    Jump(Reg),
    /// `dst` gets the return address of this instruction (AArch64's `BL`, `BLR`): the
    /// label of the next instruction, or its code address where it has none. Resolved
    /// with the code's layout before interpretation (`events::flow`).
    Link(Reg),
    /// `dst` gets the code label `label` of this thread as a value (AArch64's `ADR`).
    /// Resolved before interpretation (`events::flow`): it names a thread's label.
    LabelOf {
        dst: Reg,
        label: String,
    },
    /// `dst` gets 1 or 0, as the solver chooses, where `when` holds on the path; 0
    /// elsewhere (a weak compare-and-exchange that may fail spuriously).
    Choose {
        dst: Reg,
        when: Cond,
    },
    /// `dst = cond ? a : b`.
    Select {
        dst: Reg,
        cond: Cond,
        a: Src,
        b: Src,
    },
    /// `dst = cond ? a : (b op k)`: a conditional select whose second source is changed
    /// once selected (AArch64's `CSINC`, `CSINV`, `CSNEG`), so that, as in herd, only the
    /// selected register is read.
    SelectOp {
        dst: Reg,
        cond: Cond,
        a: Src,
        b: Src,
        op: BinOp,
        k: i64,
    },
    /// A fence event belonging to the given sets (herd's names: `MFENCE`, `Fence.rw.rw`).
    Fence {
        tags: Vec<Tag>,
    },
    /// A fence made only where `when` holds (herd's first LKMM semantics wraps a
    /// successful `mb` compare-exchange in fences, a failed one not).
    FenceIf {
        tags: Vec<Tag>,
        when: Cond,
    },
    Mov {
        dst: Reg,
        src: Src,
    },
    Bin {
        dst: Reg,
        op: BinOp,
        a: Src,
        b: Src,
    },
    /// Opens (`true`) or closes a region in which the conditions of branches taken inside
    /// it give control dependencies: herd's C `if` makes them only to its own branches.
    CtrlScope(bool),
    /// Delimits the operands of a C operator, which herd evaluates unsequenced: events of
    /// different operands are not related by po.
    Operand(Operand),
    /// A spin-lock operation (herd's C `__lock`, `__unlock`, `__trylock`, `__islocked`):
    /// its events are herd's lock events, outside the built-in rf and co.
    Lock {
        addr: Addr,
        op: LockOp,
        /// Where a try-lock puts 1 on success, an is-locked test 1 when locked.
        dst: Option<Reg>,
    },
    /// An event at a location that is no memory access (herd's C `__srcu{sync-srcu}(s)`).
    Marker {
        addr: Addr,
        tags: Vec<Tag>,
    },
    /// The instruction's last event is also in these sets where `when` holds (a C11
    /// compare-and-exchange's read takes the success or the failure order by its value).
    TagIf {
        tags: Vec<Tag>,
        when: Cond,
    },
    /// The instruction's last read and its last write are one event to the model, in
    /// both R and W (herd's C11 read-modify-writes). Inside, they stay a pair, so values,
    /// rf and co need nothing new; `encode::exec::builtins` shows the write alone where it
    /// happens, and the read alone where it does not (a failed compare-and-exchange).
    OneEvent,
    /// The later accesses of this instruction are this many bytes wide. An ISA that says
    /// so may access array elements of that size; an access of unknown width, or of another
    /// width, to an array element is a mixed-size access, which is refused.
    Width(usize),
    /// The thread ends here (herd's `ret` in compiled X86_64 code).
    Exit,
    /// The instruction faults (herd's AArch64 `UDF`, `SVC`): an event in `tags` (herd's
    /// `FAULT`, `EXC-ENTRY` and the type's set), and the thread's fault register set to
    /// this fault site, of type `ftype` at the instruction's `labels` (filled in from the
    /// source when the code is read, before any layout renames labels). An `Exit` after it
    /// ends the thread, as herd's default (`fatal`) fault handling does.
    ///
    /// `at`: the fault of an access whose check failed before it was made (herd's Morello
    /// capability check): the address is read (port `ADDR`) into a predicated commit that
    /// controls the fault, and the fault is located at that address, as herd's is.
    Fault {
        ftype: String,
        tags: Vec<Tag>,
        labels: Vec<String>,
        at: Option<Addr>,
    },
    /// `dst` keeps its value and also comes from `src`: an intra-instruction data edge
    /// without arithmetic (herd's post-indexed store updates its base once the data
    /// register is read).
    Also {
        dst: Reg,
        src: Reg,
    },
    /// The instruction's memory accesses so far are ordered before its later ones (herd's
    /// iico_order: `LDIAPP`'s and `STILP`'s two accesses).
    Ordered,
    /// The instruction's memory accesses so far are one single-copy-atomic group (herd's
    /// `sm` classes: `LDXP`'s two reads, `STXP`'s two writes).
    Atomic,
    /// herd's instruction fetch under `-variant ifetch`: a read of the code location
    /// `loc` (the instruction's canonical label, `P1:L0`) into `dst`, which is no explicit
    /// access (herd's `NExp IFetch`). Made by `events::ifetch`, never by a plug-in.
    Fetch {
        dst: Reg,
        loc: String,
    },
    /// The fetched instruction decoded (herd's `decode` predicated commit): where `src`
    /// holds the instruction value named `cases[i].0`, the path goes to label
    /// `cases[i].1`, whose code is that instruction's, in the fetch's instance; where it
    /// holds none of them, to `other` (herd's undefined-instruction fault). Where it
    /// holds one of `refused` (an instruction herd cannot run there, with why), the
    /// execution fails, as herd's does once its model allows it.
    Decode {
        src: Reg,
        cases: Vec<(String, String)>,
        refused: Vec<(String, String)>,
        other: String,
    },
    /// The unrolling bound of the loop named here (its label, or where a `while` is) was
    /// exceeded on this path (herd's cut-off): an execution that reaches it is dropped
    /// from the States and counts, and when such an execution is consistent herd prefixes
    /// its verdict with `Loop`.
    Cut(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The first operand starts.
    First,
    /// The next operand starts.
    Next,
    /// The last operand has ended.
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockOp {
    /// A lock read and a lock write (herd's LKR, LKW).
    Acquire,
    /// An unlock write (UL).
    Release,
    /// LKR and LKW on success, a failed lock read (LF) otherwise: the solver chooses.
    Try,
    /// A read that finds the lock held (RL) or free (RU): the solver chooses.
    IsLocked,
}

/// An error inside one instruction: a message and a byte offset into the cell's text.
#[derive(Clone, Debug)]
pub struct InstrError {
    pub offset: usize,
    pub message: String,
}

impl InstrError {
    pub fn new(message: impl Into<String>) -> InstrError {
        InstrError { offset: 0, message: message.into() }
    }
    pub fn unsupported(instr: &str) -> InstrError {
        InstrError::new(format!("unsupported instruction '{}'", instr.trim()))
    }
}

pub trait Isa: Sync {
    /// herd's architecture name, as in a test's header.
    fn name(&self) -> &'static str;
    /// The ops of one instruction (labels already stripped).
    fn parse(&self, instr: &str) -> Result<Vec<Op>, InstrError>;
    /// [`Isa::parse`] under the variants the test runs under, for the instructions whose
    /// semantics a variant changes (AArch64's `RET` under `telechat`).
    fn parse_under(&self, instr: &str, _variants: &[String]) -> Result<Vec<Op>, InstrError> {
        self.parse(instr)
    }
    /// herd's printing name for a register, as written in conditions and init blocks; `None`
    /// when `r` is no register of this ISA.
    fn canonical_reg(&self, r: &str) -> Option<Reg>;
    /// herd's order of registers inside a state line.
    fn reg_index(&self, r: &str) -> usize;
    /// Whether an instruction's write is ordered after its read even when its value does
    /// not depend on it (herd sequences RISC-V and Arm atomics; X86's XCHG reads and
    /// writes in parallel). The order matters to the co herd generates.
    fn rmw_sequential(&self) -> bool {
        true
    }
    /// Whether an atomic read-modify-write is one memory operation to the model, as herd's
    /// RISC-V semantics make it: its write is also in the set `R` (a fence's read set orders
    /// it), and its destination register depends on its write as well as its read.
    fn amo_is_one_operation(&self) -> bool {
        false
    }
    /// Whether co is the model's to choose: herd enumerates co itself for an ISA's tests,
    /// but for C only rf and each shown location's final write, so there each order a
    /// model's `with` generates is an execution of its own, and a model that orders only
    /// some writes (`c11_cos.cat`) leaves the rest to the final-write choice.
    fn co_from_model(&self) -> bool {
        false
    }
    /// Whether a store-conditional's status register carries a dependency on the store
    /// (herd's RISC-V semantics do, its AArch64 semantics do not).
    fn status_depends_on_store(&self) -> bool {
        false
    }
    /// Whether the write of a read-modify-write follows its read in po (herd's C events of
    /// one statement are ordered by their dependencies) rather than sharing its place.
    fn rmw_in_po(&self) -> bool {
        false
    }
    /// Whether the plug-in names its registers for register events ([`Isa::event_reg`]),
    /// which a model that computes its own dependencies (`catdep`) reads.
    fn register_events(&self) -> bool {
        false
    }
    /// The register an access to `r` is an event on, as herd names it: `None` for the
    /// plug-in's own temporaries and the zero register, which make no event. Several
    /// internal names may stand for one register (the flags).
    fn event_reg<'r>(&self, _r: &'r str) -> Option<&'r str> {
        None
    }
    /// A register that always reads as zero and ignores writes (RISC-V `x0`).
    fn zero_reg(&self) -> Option<&'static str> {
        None
    }
    /// The width of herd's values for this architecture under `variants` (its
    /// `Int32Value` or `Int64Value`): a test's constants are read modulo it, and the
    /// `Condition` line echoes them so (ARM's `0xBEF00000` is -1091633152, AArch64's
    /// `0xFAA99887` stays); arithmetic wraps at it ([`crate::events::Layout::apply`]).
    fn scalar_bits(&self, _variants: &[String]) -> u32 {
        64
    }
    /// Whether a load narrower than a register masks the value it reads to its width, as
    /// herd's AArch64 loads do (`uxt_op`): an address read so fails the execution, once
    /// the model allows it ("Illegal operation mask32 on x").
    fn masks_narrow_loads(&self) -> bool {
        false
    }
    /// Whether herd's `-variant mixed` (memory as cells, accesses of several sizes to one
    /// location) runs on this architecture.
    fn mixed_cells(&self) -> bool {
        false
    }
    /// Whether herd's `-variant morello` (capabilities) runs on this architecture as far
    /// as litsat builds it: AArch64's accesses through untagged capabilities, which fault
    /// (`aarch64/morello.rs`); anything else under the variant is refused there.
    fn capabilities(&self) -> bool {
        false
    }
    /// Whether, outside `-variant mixed`, an access of any width is an access to the whole
    /// location its address names, as in herd's X86_64 (no `check_sizes`, memory by
    /// location): no width is then checked against an array's elements.
    fn whole_locations(&self) -> bool {
        false
    }
    /// Whether herd refuses, outside `-variant mixed`, a test that accesses one location
    /// at two widths (its `reject_mixed`: AArch64 does, X86_64 does not).
    fn rejects_mixed(&self) -> bool {
        self.mixed_cells()
    }
    /// Whether herd counts the access size of the instruction `text` when it picks the
    /// cell size of a mixed-size test (its `mem_access_size`, which leaves some out).
    fn sizes_cells(&self, _text: &str) -> bool {
        true
    }
    /// For languages whose threads are whole bodies rather than instruction columns (C):
    /// the threads' instructions, lowered with the model's macro file `(path, text)`; a
    /// loop's body is entered at most `unroll` times (herd's `-unroll`).
    fn lower(
        &self,
        _test: &crate::litmus::Test,
        _src: &crate::events::SourceRef<'_>,
        _macros: Option<(&str, &str)>,
        _unroll: usize,
    ) -> Option<Result<Vec<Vec<crate::events::Instr>>, crate::diag::Diag>> {
        None
    }
    /// For languages that lower whole threads ([`Isa::lower`]): what of the threads can be
    /// checked without the model's macros (their syntax). `None`, the default: the ISA
    /// parses instruction cells ([`Isa::parse`]), which are checked one by one.
    fn check_threads(
        &self,
        _test: &crate::litmus::Test,
        _src: &crate::events::SourceRef<'_>,
    ) -> Option<Result<(), crate::diag::Diag>> {
        None
    }
    /// herd's numbering of the fresh variables its semantics draws for these threads, so
    /// that an unsolved value prints under herd's name `S<n>` ([`crate::events::HerdVars`]);
    /// `None` where the plug-in does not know it, and the value prints as `S`.
    fn herd_vars(
        &self,
        _test: &crate::litmus::Test,
        _src: &crate::events::SourceRef<'_>,
        _macros: Option<(&str, &str)>,
    ) -> Option<crate::events::HerdVars> {
        None
    }
    /// Every set name this ISA can put on events, so that a model's reference to a set the
    /// test happens not to use is an empty set rather than an unbound name.
    fn known_sets(&self) -> &'static [&'static str];
    /// The registers herd may give a symbolic register (`%x0`), in the order it gives them
    /// ([`crate::litmus::symbolic`]); empty where the ISA has no symbolic registers.
    fn symbolic_regs(&self) -> &'static [&'static str] {
        &[]
    }
    /// The bundled model standing for herd's default for this architecture: what a test
    /// is checked under when no model is named.
    fn default_model(&self) -> Option<&'static str> {
        None
    }
    /// herd's own default model file for this architecture, where the bundled stand-in
    /// ([`Isa::default_model`]) is a different model: used instead of it when found on the
    /// search path. `None` where the bundled model gives herd's answers.
    fn herd_model(&self) -> Option<&'static str> {
        None
    }
}

/// The architecture names tests may give, each with its plug-in.
pub const ARCHS: &[&str] = &["X86", "X86_64", "AArch64", "ARM", "PPC", "RISCV", "LISA", "C"];

/// The plug-in for a test's architecture name.
pub fn for_arch(arch: &str) -> Option<&'static dyn Isa> {
    match arch {
        "X86" => Some(&x86::X86),
        "RISCV" => Some(&riscv::RiscV),
        "AArch64" | "AARCH64" => Some(&aarch64::AArch64),
        "ARM" => Some(&arm::Arm),
        "LISA" => Some(&lisa::Lisa),
        "X86_64" => Some(&x86_64::X86_64),
        "C" => Some(&c::C),
        "PPC" => Some(&ppc::Ppc),
        _ => None,
    }
}

/// Splits `op a, b, c` into the mnemonic and comma-separated operands, trimmed.
pub fn split_operands(text: &str) -> (String, Vec<String>) {
    let t = text.trim();
    let (m, rest) = match t.find(char::is_whitespace) {
        Some(k) => (&t[..k], t[k..].trim()),
        None => (t, ""),
    };
    let ops = if rest.is_empty() { Vec::new() } else { rest.split(',').map(|s| s.trim().to_string()).collect() };
    (m.to_ascii_lowercase(), ops)
}

/// Splits `OP a, [b, c], {d, e}` into the upper-case mnemonic and comma-separated
/// operands, trimmed, keeping brackets and braces whole (Arm's addressing modes and
/// register lists).
pub fn split_grouped(text: &str) -> (String, Vec<String>) {
    let t = text.trim();
    let (m, rest) = match t.find(char::is_whitespace) {
        Some(k) => (&t[..k], t[k..].trim()),
        None => (t, ""),
    };
    let mut ops = Vec::new();
    if !rest.is_empty() {
        let mut depth = 0i32;
        let mut cur = String::new();
        for c in rest.chars() {
            match c {
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                _ => {}
            }
            if c == ',' && depth == 0 {
                ops.push(cur.trim().to_string());
                cur.clear();
            } else {
                cur.push(c);
            }
        }
        ops.push(cur.trim().to_string());
    }
    (m.to_ascii_uppercase(), ops)
}

/// Parses an immediate: decimal or hex, with an optional `$` (Intel and AT&T style).
pub fn parse_imm(s: &str) -> Option<i64> {
    let s = s.trim().trim_start_matches('$');
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()? as i64
    } else {
        s.parse::<i64>().ok()?
    };
    Some(if neg { v.wrapping_neg() } else { v })
}
