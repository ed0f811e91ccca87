//! Random litmus tests, generated as structures and rendered as herd7 text (so the litmus
//! parser and the ISA front ends are exercised too).
//!
//! A test has 1–4 threads of 1–4 abstract instructions over 1–3 locations. Each abstract
//! instruction renders as one or a few lines of X86 (Intel syntax) or RISC-V assembly:
//! stores of constants, loads into fresh registers, stores of loaded registers (data
//! dependencies), address dependencies (RISC-V `xor`/`add`), atomic swaps and other atomics,
//! LR/SC pairs and lone halves (RISC-V), fences of every kind, and forward branches on a
//! loaded register. Registers are allocated at rendering time, so every structure renders
//! to a valid test; the condition's atoms pick their places (loaded registers, status
//! registers, memory) by index modulo what the program offers.

use proptest::prelude::*;
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    X86,
    Riscv,
    AArch64,
}

/// A RISC-V ordering annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ann {
    No,
    Aq,
    Rl,
    AqRl,
}

impl Ann {
    fn suffix(self) -> &'static str {
        match self {
            Ann::No => "",
            Ann::Aq => ".aq",
            Ann::Rl => ".rl",
            Ann::AqRl => ".aqrl",
        }
    }
}

/// One abstract instruction. `loc` is taken modulo the test's location count, `dep` modulo
/// the number of registers loaded so far in the thread.
#[derive(Clone, Debug)]
pub enum Ins {
    Store {
        loc: usize,
        val: i64,
        ann: Ann,
    },
    Load {
        loc: usize,
        ann: Ann,
    },
    /// Stores a loaded register (a data dependency); a constant when nothing is loaded yet.
    StoreData {
        loc: usize,
        dep: usize,
    },
    /// Stores a constant computed from a loaded register (`xor; ori`): a data dependency.
    StoreDataConst {
        loc: usize,
        dep: usize,
        val: i64,
    },
    /// A load through an address computed from a loaded register.
    LoadAddr {
        loc: usize,
        dep: usize,
    },
    /// A store through an address computed from a loaded register.
    StoreAddr {
        loc: usize,
        dep: usize,
        val: i64,
    },
    /// `amoswap.w` / `XCHG`.
    Swap {
        loc: usize,
        val: i64,
        ann: Ann,
    },
    /// `amoadd.w`, `amoor.w` / `LOCK XADD`, `LOCK INC`, `LOCK ADD`.
    Amo {
        op: u8,
        loc: usize,
        val: i64,
        ann: Ann,
    },
    /// `lr.w` then `sc.w` (to the same location unless `other`).
    LrSc {
        loc: usize,
        val: i64,
        ann: Ann,
        other: Option<usize>,
    },
    /// A lone `lr.w`.
    Lr {
        loc: usize,
    },
    /// A lone `sc.w`.
    Sc {
        loc: usize,
        val: i64,
    },
    Fence(u8),
    /// A forward branch on a loaded register over the next `skip` instructions.
    Branch {
        dep: usize,
        skip: usize,
        eq: bool,
    },
}

#[derive(Clone, Debug)]
pub enum Prop {
    Atom { place: usize, val: i64, bracket: bool },
    Neq { place: usize, val: i64 },
    Not(Box<Prop>),
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
    Implies(Box<Prop>, Box<Prop>),
}

#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Exists,
    NotExists,
    Forall,
}

#[derive(Clone, Debug)]
pub struct LitmusSpec {
    pub arch: Arch,
    pub nlocs: usize,
    /// Initial values of the locations (mostly 0).
    pub init: Vec<i64>,
    pub threads: Vec<Vec<Ins>>,
    pub kind: Kind,
    pub prop: Prop,
    /// RISC-V: print registers under their ABI names.
    pub abi_names: bool,
    /// Initial values of each thread's first register (0: none given).
    pub reg_init: Vec<i64>,
    /// `locations [...]`: indices into the places (those of the condition, then one
    /// register per thread that the code never sets).
    pub locations: Option<Vec<usize>>,
    pub filter: Option<Prop>,
    /// Allocate registers from a small pool, so that later instructions overwrite the
    /// registers of earlier ones (and dependencies and branches may see either).
    pub tight: bool,
}

const LOCS: [&str; 3] = ["x", "y", "z"];

const RV_FENCES: [&str; 12] = [
    "fence rw,rw",
    "fence r,r",
    "fence w,w",
    "fence r,w",
    "fence w,r",
    "fence r,rw",
    "fence rw,r",
    "fence w,rw",
    "fence rw,w",
    "fence.tso",
    "fence",
    "fence.i",
];
const X86_FENCES: [&str; 3] = ["MFENCE", "LFENCE", "SFENCE"];
const ARM_FENCES: [&str; 12] = [
    "DMB SY",
    "DMB LD",
    "DMB ST",
    "DMB ISH",
    "DMB ISHLD",
    "DMB ISHST",
    "DSB SY",
    "DMB OSH",
    "DSB ISHST",
    "ISB",
    "DMB NSH",
    "DSB LD",
];
/// AArch64 temporaries (address registers are X10–X12).
const ARM_TEMPS: [u8; 14] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16];

/// RISC-V temporaries (address registers are x10–x12).
const RV_TEMPS: [u8; 16] = [5, 6, 7, 8, 9, 13, 14, 15, 16, 17, 18, 19, 28, 29, 30, 31];
const RV_ABI: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2",
    "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];
const X86_REGS: [&str; 6] = ["EAX", "EBX", "ECX", "EDX", "ESI", "EDI"];

fn ann_load() -> impl Strategy<Value = Ann> {
    prop_oneof![6 => Just(Ann::No), 1 => Just(Ann::Aq), 1 => Just(Ann::AqRl)]
}
fn ann_store() -> impl Strategy<Value = Ann> {
    prop_oneof![6 => Just(Ann::No), 1 => Just(Ann::Rl), 1 => Just(Ann::AqRl)]
}
fn ann_any() -> impl Strategy<Value = Ann> {
    prop_oneof![4 => Just(Ann::No), 1 => Just(Ann::Aq), 1 => Just(Ann::Rl), 1 => Just(Ann::AqRl)]
}

fn ins(arch: Arch) -> BoxedStrategy<Ins> {
    let loc = 0..3usize;
    let val = 1..=3i64;
    let dep = 0..4usize;
    match arch {
        Arch::X86 => prop_oneof![
            6 => (loc.clone(), val.clone()).prop_map(|(loc, val)| Ins::Store { loc, val, ann: Ann::No }),
            6 => loc.clone().prop_map(|loc| Ins::Load { loc, ann: Ann::No }),
            2 => (loc.clone(), dep.clone()).prop_map(|(loc, dep)| Ins::StoreData { loc, dep }),
            2 => (loc.clone(), val.clone()).prop_map(|(loc, val)| Ins::Swap { loc, val, ann: Ann::No }),
            1 => (0..3u8, loc.clone(), val.clone()).prop_map(|(op, loc, val)| Ins::Amo { op, loc, val, ann: Ann::No }),
            3 => prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)].prop_map(Ins::Fence),
            1 => (dep.clone(), 1..=2usize, any::<bool>()).prop_map(|(dep, skip, eq)| Ins::Branch { dep, skip, eq }),
        ]
        .boxed(),
        Arch::Riscv | Arch::AArch64 => prop_oneof![
            6 => (loc.clone(), val.clone(), ann_store()).prop_map(|(loc, val, ann)| Ins::Store { loc, val, ann }),
            6 => (loc.clone(), ann_load()).prop_map(|(loc, ann)| Ins::Load { loc, ann }),
            1 => (loc.clone(), dep.clone()).prop_map(|(loc, dep)| Ins::StoreData { loc, dep }),
            1 => (loc.clone(), dep.clone(), val.clone())
                .prop_map(|(loc, dep, val)| Ins::StoreDataConst { loc, dep, val }),
            1 => (loc.clone(), dep.clone()).prop_map(|(loc, dep)| Ins::LoadAddr { loc, dep }),
            1 => (loc.clone(), dep.clone(), val.clone()).prop_map(|(loc, dep, val)| Ins::StoreAddr { loc, dep, val }),
            2 => (loc.clone(), val.clone(), ann_any()).prop_map(|(loc, val, ann)| Ins::Swap { loc, val, ann }),
            1 => (0..2u8, loc.clone(), val.clone(), ann_any())
                .prop_map(|(op, loc, val, ann)| Ins::Amo { op, loc, val, ann }),
            2 => (loc.clone(), val.clone(), ann_any(), prop::option::weighted(0.15, 0..3usize))
                .prop_map(|(loc, val, ann, other)| Ins::LrSc { loc, val, ann, other }),
            1 => prop_oneof![
                loc.clone().prop_map(|loc| Ins::Lr { loc }),
                (loc.clone(), val.clone()).prop_map(|(loc, val)| Ins::Sc { loc, val }),
            ],
            4 => prop_oneof![4 => Just(0u8), 4 => 1..12u8].prop_map(Ins::Fence),
            2 => (dep.clone(), 1..=2usize, any::<bool>()).prop_map(|(dep, skip, eq)| Ins::Branch { dep, skip, eq }),
        ]
        .boxed(),
    }
}

fn prop_strategy() -> impl Strategy<Value = Prop> {
    let place = 0..16usize;
    let val = prop_oneof![3 => 0..=1i64, 2 => 2..=3i64];
    let leaf = prop_oneof![
        8 => (place.clone(), val.clone(), prop::bool::weighted(0.2))
            .prop_map(|(place, val, bracket)| Prop::Atom { place, val, bracket }),
        1 => (place, val).prop_map(|(place, val)| Prop::Neq { place, val }),
    ];
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            2 => inner.clone().prop_map(|p| Prop::Not(Box::new(p))),
            4 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Prop::And(Box::new(a), Box::new(b))),
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| Prop::Or(Box::new(a), Box::new(b))),
            1 => (inner.clone(), inner).prop_map(|(a, b)| Prop::Implies(Box::new(a), Box::new(b))),
        ]
    })
}

/// Random tests of one architecture, or of either.
pub fn litmus(arch: Option<Arch>) -> impl Strategy<Value = LitmusSpec> {
    let arch = match arch {
        Some(a) => Just(a).boxed(),
        None => prop_oneof![2 => Just(Arch::X86), 2 => Just(Arch::Riscv), 1 => Just(Arch::AArch64)].boxed(),
    };
    arch.prop_flat_map(|arch| {
        let nthreads = prop_oneof![2 => Just(1usize), 6 => Just(2usize), 3 => Just(3usize), 1 => Just(4usize)];
        let threads = nthreads.prop_flat_map(move |n| {
            let len = prop_oneof![2 => Just(1usize), 4 => Just(2usize), 3 => Just(3usize), 1 => Just(4usize)];
            prop::collection::vec(len.prop_flat_map(move |k| prop::collection::vec(ins(arch), k)), n)
        });
        let kind = prop_oneof![5 => Just(Kind::Exists), 3 => Just(Kind::NotExists), 2 => Just(Kind::Forall)];
        let init = prop::collection::vec(prop_oneof![8 => Just(0i64), 1 => Just(1i64), 1 => Just(2i64)], 3);
        let reg_init = prop::collection::vec(prop_oneof![6 => Just(0i64), 1 => 1..=3i64], 4);
        let locations = prop::option::weighted(0.15, prop::collection::vec(0..20usize, 1..=3));
        let filter = prop::option::weighted(0.08, prop_strategy());
        (
            (1..=3usize, init, threads, kind, prop_strategy(), prop::bool::weighted(0.15)),
            (reg_init, locations, filter, prop::bool::weighted(0.2)),
        )
            .prop_map(
                move |((nlocs, init, threads, kind, prop, abi_names), (reg_init, locations, filter, tight))| {
                    LitmusSpec {
                        arch,
                        nlocs,
                        init,
                        threads,
                        kind,
                        prop,
                        abi_names: abi_names && arch == Arch::Riscv,
                        reg_init,
                        locations,
                        filter,
                        tight,
                    }
                },
            )
    })
}

/// What rendering one thread produced.
struct ThreadCode {
    lines: Vec<String>,
    /// Registers the condition may name (`N:reg`).
    places: Vec<String>,
    init: Vec<String>,
}

struct RvThread<'a> {
    t: usize,
    spec: &'a LitmusSpec,
    next_temp: usize,
    loaded: Vec<String>,
    out: ThreadCode,
}

impl RvThread<'_> {
    fn reg(&self, n: u8) -> String {
        if self.spec.abi_names { RV_ABI[n as usize].to_string() } else { format!("x{n}") }
    }
    fn fresh(&mut self) -> String {
        let n = RV_TEMPS[self.next_temp % self.spec.pool(RV_TEMPS.len())];
        self.next_temp += 1;
        let r = self.reg(n);
        // About to be overwritten: no longer a loaded value (nor, later, an address that
        // a data dependency would store: pointers are out of the oracle's reach).
        self.loaded.retain(|x| *x != r);
        r
    }
    fn addr(&self, loc: usize) -> String {
        self.reg(10 + (loc % self.spec.nlocs) as u8)
    }
    fn line(&mut self, s: String) {
        self.out.lines.push(s);
    }
    fn observe(&mut self, r: &str) {
        self.out.places.push(format!("{}:{r}", self.t));
    }
    fn dep(&self, dep: usize) -> Option<String> {
        (!self.loaded.is_empty()).then(|| self.loaded[dep % self.loaded.len()].clone())
    }
    fn constant(&mut self, val: i64) -> String {
        let r = self.fresh();
        let z = self.reg(0);
        self.line(format!("ori {r},{z},{val}"));
        r
    }
    /// `xor t,r,r; add u,a,t`: the address of `loc`, depending on `r`.
    fn dep_addr(&mut self, loc: usize, r: &str) -> String {
        let t = self.fresh();
        let u = self.fresh();
        let a = self.addr(loc);
        self.line(format!("xor {t},{r},{r}"));
        self.line(format!("add {u},{a},{t}"));
        u
    }
    fn load_into(&mut self, op: &str, addr: &str) {
        let d = self.fresh();
        self.line(format!("{op} {d},0({addr})"));
        self.observe(&d);
        self.loaded.push(d);
    }

    fn ins(&mut self, i: &Ins) {
        match i {
            Ins::Store { loc, val, ann } => {
                let r = self.constant(*val);
                let a = self.addr(*loc);
                self.line(format!("sw{} {r},0({a})", ann.suffix()));
            }
            Ins::Load { loc, ann } => {
                let a = self.addr(*loc);
                self.load_into(&format!("lw{}", ann.suffix()), &a);
            }
            Ins::StoreData { loc, dep } => match self.dep(*dep) {
                Some(r) => {
                    let a = self.addr(*loc);
                    self.line(format!("sw {r},0({a})"));
                }
                None => self.ins(&Ins::Store { loc: *loc, val: 1, ann: Ann::No }),
            },
            Ins::StoreDataConst { loc, dep, val } => match self.dep(*dep) {
                Some(r) => {
                    let t = self.fresh();
                    let a = self.addr(*loc);
                    self.line(format!("xor {t},{r},{r}"));
                    self.line(format!("ori {t},{t},{val}"));
                    self.line(format!("sw {t},0({a})"));
                }
                None => self.ins(&Ins::Store { loc: *loc, val: *val, ann: Ann::No }),
            },
            Ins::LoadAddr { loc, dep } => match self.dep(*dep) {
                Some(r) => {
                    let u = self.dep_addr(*loc, &r);
                    self.load_into("lw", &u);
                }
                None => self.ins(&Ins::Load { loc: *loc, ann: Ann::No }),
            },
            Ins::StoreAddr { loc, dep, val } => match self.dep(*dep) {
                Some(r) => {
                    let u = self.dep_addr(*loc, &r);
                    let v = self.constant(*val);
                    self.line(format!("sw {v},0({u})"));
                }
                None => self.ins(&Ins::Store { loc: *loc, val: *val, ann: Ann::No }),
            },
            Ins::Swap { loc, val, ann } => self.amo("amoswap", *loc, *val, *ann),
            Ins::Amo { op, loc, val, ann } => self.amo(if *op == 0 { "amoadd" } else { "amoor" }, *loc, *val, *ann),
            Ins::LrSc { loc, val, ann, other } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                let (lr_ann, sc_ann) = match ann {
                    Ann::No => ("", ""),
                    Ann::Aq => (".aq", ""),
                    Ann::Rl => ("", ".rl"),
                    Ann::AqRl => (".aq", ".rl"),
                };
                self.load_into(&format!("lr.w{lr_ann}"), &a);
                let b = self.addr(other.unwrap_or(*loc));
                let s = self.fresh();
                self.line(format!("sc.w{sc_ann} {s},{v},0({b})"));
                self.observe(&s);
            }
            Ins::Lr { loc } => {
                let a = self.addr(*loc);
                self.load_into("lr.w", &a);
            }
            Ins::Sc { loc, val } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                let s = self.fresh();
                self.line(format!("sc.w {s},{v},0({a})"));
                self.observe(&s);
            }
            Ins::Fence(k) => self.line(RV_FENCES[*k as usize % RV_FENCES.len()].to_string()),
            Ins::Branch { .. } => unreachable!("branches are rendered by the caller"),
        }
    }

    fn amo(&mut self, op: &str, loc: usize, val: i64, ann: Ann) {
        let v = self.constant(val);
        let a = self.addr(loc);
        let d = self.fresh();
        self.line(format!("{op}.w{} {d},{v},({a})", ann.suffix()));
        self.observe(&d);
        self.loaded.push(d);
    }
}

struct ArmThread<'a> {
    t: usize,
    spec: &'a LitmusSpec,
    next_temp: usize,
    /// Registers (numbers) holding loaded values.
    loaded: Vec<u8>,
    out: ThreadCode,
}

impl ArmThread<'_> {
    fn fresh(&mut self) -> u8 {
        let n = ARM_TEMPS[self.next_temp % self.spec.pool(ARM_TEMPS.len())];
        self.next_temp += 1;
        self.loaded.retain(|x| *x != n);
        n
    }
    fn addr(&self, loc: usize) -> String {
        format!("X{}", 10 + loc % self.spec.nlocs)
    }
    fn line(&mut self, s: String) {
        self.out.lines.push(s);
    }
    fn observe(&mut self, r: u8) {
        self.out.places.push(format!("{}:X{r}", self.t));
    }
    fn dep(&self, dep: usize) -> Option<u8> {
        (!self.loaded.is_empty()).then(|| self.loaded[dep % self.loaded.len()])
    }
    fn constant(&mut self, val: i64) -> u8 {
        let r = self.fresh();
        self.line(format!("MOV W{r},#{val}"));
        r
    }
    fn load_into(&mut self, op: &str, mem: &str) {
        let d = self.fresh();
        self.line(format!("{op} W{d},{mem}"));
        self.observe(d);
        self.loaded.push(d);
    }
    /// `EOR t,r,r`: a zero offset depending on `r`, and the operand `[Xa,Wt,SXTW]`.
    fn dep_mem(&mut self, loc: usize, r: u8) -> String {
        let t = self.fresh();
        self.line(format!("EOR W{t},W{r},W{r}"));
        format!("[{},W{t},SXTW]", self.addr(loc))
    }
    /// `A`/`L`/`AL` suffixes of atomics.
    fn order(ann: Ann) -> &'static str {
        match ann {
            Ann::No => "",
            Ann::Aq => "A",
            Ann::Rl => "L",
            Ann::AqRl => "AL",
        }
    }

    fn ins(&mut self, i: &Ins) {
        match i {
            Ins::Store { loc, val, ann } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                let op = if *ann == Ann::No { "STR" } else { "STLR" };
                self.line(format!("{op} W{v},[{a}]"));
            }
            Ins::Load { loc, ann } => {
                let a = self.addr(*loc);
                let op = match ann {
                    Ann::No | Ann::Rl => "LDR",
                    Ann::Aq => "LDAR",
                    Ann::AqRl => "LDAPR",
                };
                self.load_into(op, &format!("[{a}]"));
            }
            Ins::StoreData { loc, dep } => match self.dep(*dep) {
                Some(r) => {
                    let a = self.addr(*loc);
                    self.line(format!("STR W{r},[{a}]"));
                }
                None => self.ins(&Ins::Store { loc: *loc, val: 1, ann: Ann::No }),
            },
            Ins::StoreDataConst { loc, dep, val } => match self.dep(*dep) {
                Some(r) => {
                    let t = self.fresh();
                    let a = self.addr(*loc);
                    self.line(format!("EOR W{t},W{r},W{r}"));
                    self.line(format!("ADD W{t},W{t},#{val}"));
                    self.line(format!("STR W{t},[{a}]"));
                }
                None => self.ins(&Ins::Store { loc: *loc, val: *val, ann: Ann::No }),
            },
            Ins::LoadAddr { loc, dep } => match self.dep(*dep) {
                Some(r) => {
                    let m = self.dep_mem(*loc, r);
                    self.load_into("LDR", &m);
                }
                None => self.ins(&Ins::Load { loc: *loc, ann: Ann::No }),
            },
            Ins::StoreAddr { loc, dep, val } => match self.dep(*dep) {
                Some(r) => {
                    let m = self.dep_mem(*loc, r);
                    let v = self.constant(*val);
                    self.line(format!("STR W{v},{m}"));
                }
                None => self.ins(&Ins::Store { loc: *loc, val: *val, ann: Ann::No }),
            },
            Ins::Swap { loc, val, ann } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                let d = self.fresh();
                self.line(format!("SWP{} W{v},W{d},[{a}]", Self::order(*ann)));
                self.observe(d);
                self.loaded.push(d);
            }
            Ins::Amo { op, loc, val, ann } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                if *op == 0 {
                    let d = self.fresh();
                    self.line(format!("LDADD{} W{v},W{d},[{a}]", Self::order(*ann)));
                    self.observe(d);
                    self.loaded.push(d);
                } else {
                    // No result: herd's NoRet read.
                    let l = if matches!(ann, Ann::Rl | Ann::AqRl) { "L" } else { "" };
                    self.line(format!("STADD{l} W{v},[{a}]"));
                }
            }
            Ins::LrSc { loc, val, ann, other } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                let (ld, st) = match ann {
                    Ann::No => ("LDXR", "STXR"),
                    Ann::Aq => ("LDAXR", "STXR"),
                    Ann::Rl => ("LDXR", "STLXR"),
                    Ann::AqRl => ("LDAXR", "STLXR"),
                };
                self.load_into(ld, &format!("[{a}]"));
                let b = self.addr(other.unwrap_or(*loc));
                let s = self.fresh();
                self.line(format!("{st} W{s},W{v},[{b}]"));
                self.observe(s);
            }
            Ins::Lr { loc } => {
                let a = self.addr(*loc);
                self.load_into("LDXR", &format!("[{a}]"));
            }
            Ins::Sc { loc, val } => {
                let v = self.constant(*val);
                let a = self.addr(*loc);
                let s = self.fresh();
                self.line(format!("STXR W{s},W{v},[{a}]"));
                self.observe(s);
            }
            Ins::Fence(k) => self.line(ARM_FENCES[*k as usize % ARM_FENCES.len()].to_string()),
            Ins::Branch { .. } => unreachable!("branches are rendered by the caller"),
        }
    }
}

struct X86Thread<'a> {
    t: usize,
    spec: &'a LitmusSpec,
    next: usize,
    loaded: Vec<String>,
    out: ThreadCode,
}

impl X86Thread<'_> {
    fn fresh(&mut self) -> String {
        let r = X86_REGS[self.next % self.spec.pool(X86_REGS.len())].to_string();
        self.next += 1;
        self.loaded.retain(|x| *x != r);
        r
    }
    fn loc(&self, loc: usize) -> &'static str {
        LOCS[loc % self.spec.nlocs]
    }
    fn line(&mut self, s: String) {
        self.out.lines.push(s);
    }
    fn observe(&mut self, r: &str) {
        self.out.places.push(format!("{}:{r}", self.t));
    }

    fn ins(&mut self, i: &Ins) {
        match i {
            Ins::Store { loc, val, .. } | Ins::StoreAddr { loc, val, .. } | Ins::Sc { loc, val } => {
                let x = self.loc(*loc);
                self.line(format!("MOV [{x}],${val}"));
            }
            Ins::Load { loc, .. } | Ins::LoadAddr { loc, .. } | Ins::Lr { loc } => {
                let x = self.loc(*loc);
                let d = self.fresh();
                self.line(format!("MOV {d},[{x}]"));
                self.observe(&d);
                self.loaded.push(d);
            }
            Ins::StoreData { loc, dep } | Ins::StoreDataConst { loc, dep, .. } => {
                let x = self.loc(*loc);
                if self.loaded.is_empty() {
                    self.line(format!("MOV [{x}],$1"));
                } else {
                    let r = self.loaded[dep % self.loaded.len()].clone();
                    self.line(format!("MOV [{x}],{r}"));
                }
            }
            Ins::Swap { loc, val, .. } | Ins::LrSc { loc, val, .. } => {
                let x = self.loc(*loc);
                let r = self.fresh();
                self.line(format!("MOV {r},${val}"));
                self.line(format!("XCHG [{x}],{r}"));
                self.observe(&r);
                self.loaded.push(r);
            }
            Ins::Amo { op, loc, val, .. } => {
                let x = self.loc(*loc);
                match op % 3 {
                    0 => {
                        let r = self.fresh();
                        self.line(format!("MOV {r},${val}"));
                        self.line(format!("LOCK XADD [{x}],{r}"));
                        self.observe(&r);
                        self.loaded.push(r);
                    }
                    1 => self.line(format!("LOCK INC [{x}]")),
                    _ => self.line(format!("LOCK ADD [{x}],${val}")),
                }
            }
            Ins::Fence(k) => self.line(X86_FENCES[if *k < 6 { 0 } else { *k as usize % 3 }].to_string()),
            Ins::Branch { .. } => unreachable!("branches are rendered by the caller"),
        }
    }
}

/// What rendering needs of each architecture's thread renderer.
trait Render {
    fn push(&mut self, line: String);
    fn ins(&mut self, i: &Ins);
    /// A conditional branch to `label` on a loaded register (`dep`), or on a constant.
    fn branch(&mut self, dep: usize, eq: bool, label: &str);
    fn finish(self) -> ThreadCode;
}

impl Render for RvThread<'_> {
    fn push(&mut self, line: String) {
        self.line(line);
    }
    fn ins(&mut self, i: &Ins) {
        RvThread::ins(self, i);
    }
    fn branch(&mut self, dep: usize, eq: bool, label: &str) {
        let r = self.dep(dep).unwrap_or_else(|| self.reg(0));
        let z = self.reg(0);
        let b = if eq { "beq" } else { "bne" };
        self.line(format!("{b} {r},{z},{label}"));
    }
    fn finish(self) -> ThreadCode {
        let (t, spec) = (self.t, self.spec);
        let init = (0..spec.nlocs).map(|l| format!("{t}:{}={};", self.reg(10 + l as u8), LOCS[l])).collect();
        ThreadCode { init, ..self.out }
    }
}

impl Render for ArmThread<'_> {
    fn push(&mut self, line: String) {
        self.line(line);
    }
    fn ins(&mut self, i: &Ins) {
        ArmThread::ins(self, i);
    }
    fn branch(&mut self, dep: usize, eq: bool, label: &str) {
        let r = self.dep(dep).map_or("WZR".to_string(), |r| format!("W{r}"));
        let b = if eq { "CBZ" } else { "CBNZ" };
        self.line(format!("{b} {r},{label}"));
    }
    fn finish(self) -> ThreadCode {
        let t = self.t;
        let init = (0..self.spec.nlocs).map(|l| format!("{t}:X{}={};", 10 + l, LOCS[l])).collect();
        ThreadCode { init, ..self.out }
    }
}

impl Render for X86Thread<'_> {
    fn push(&mut self, line: String) {
        self.line(line);
    }
    fn ins(&mut self, i: &Ins) {
        X86Thread::ins(self, i);
    }
    fn branch(&mut self, dep: usize, eq: bool, label: &str) {
        let r = if self.loaded.is_empty() { "EAX".to_string() } else { self.loaded[dep % self.loaded.len()].clone() };
        self.line(format!("CMP {r},$1"));
        self.line(format!("{} {label}", if eq { "JE" } else { "JNE" }));
    }
    fn finish(self) -> ThreadCode {
        self.out
    }
}

fn no_code() -> ThreadCode {
    ThreadCode { lines: Vec::new(), places: Vec::new(), init: Vec::new() }
}

/// Renders one thread, branches included: a branch's label goes after the `skip`
/// instructions that follow it (or at the end of the thread).
fn render_thread(spec: &LitmusSpec, t: usize, code: &[Ins]) -> ThreadCode {
    match spec.arch {
        Arch::Riscv => render_with(RvThread { t, spec, next_temp: 0, loaded: Vec::new(), out: no_code() }, t, code),
        Arch::AArch64 => render_with(ArmThread { t, spec, next_temp: 0, loaded: Vec::new(), out: no_code() }, t, code),
        Arch::X86 => render_with(X86Thread { t, spec, next: 0, loaded: Vec::new(), out: no_code() }, t, code),
    }
}

fn render_with(mut r: impl Render, t: usize, code: &[Ins]) -> ThreadCode {
    let mut labels_at: Vec<Vec<String>> = vec![Vec::new(); code.len() + 1];
    let mut nlabel = 0;
    for (k, i) in code.iter().enumerate() {
        for l in std::mem::take(&mut labels_at[k]) {
            r.push(format!("{l}:"));
        }
        if let Ins::Branch { dep, skip, eq } = i {
            let label = format!("LC{t}{nlabel}");
            nlabel += 1;
            labels_at[(k + 1 + skip).min(code.len())].push(label.clone());
            r.branch(*dep, *eq, &label);
        } else {
            r.ins(i);
        }
    }
    for l in std::mem::take(&mut labels_at[code.len()]) {
        r.push(format!("{l}:"));
    }
    r.finish()
}

fn render_prop(p: &Prop, places: &[String], out: &mut String) {
    let place = |k: usize, bracket: bool| {
        let s = &places[k % places.len()];
        if bracket && !s.contains(':') { format!("[{s}]") } else { s.clone() }
    };
    match p {
        Prop::Atom { place: k, val, bracket } => {
            let _ = write!(out, "{}={val}", place(*k, *bracket));
        }
        Prop::Neq { place: k, val } => {
            let _ = write!(out, "{}!={val}", place(*k, false));
        }
        Prop::Not(a) => {
            out.push_str("~(");
            render_prop(a, places, out);
            out.push(')');
        }
        Prop::And(a, b) | Prop::Or(a, b) | Prop::Implies(a, b) => {
            let op = match p {
                Prop::And(..) => " /\\ ",
                Prop::Or(..) => " \\/ ",
                _ => " => ",
            };
            out.push('(');
            render_prop(a, places, out);
            out.push_str(op);
            render_prop(b, places, out);
            out.push(')');
        }
    }
}

/// Names of the features [`LitmusSpec::features`] reports, in order.
pub const FEATURES: [&str; 14] = [
    "X86",
    "RISC-V",
    "AArch64",
    "3+ threads",
    "fence",
    "branch",
    "RMW",
    "LR/SC pair",
    "lone LR or SC",
    "data dep",
    "addr dep",
    "locations",
    "filter",
    "reused registers",
];

impl LitmusSpec {
    /// How many registers of a pool of `n` the allocator cycles through.
    fn pool(&self, n: usize) -> usize {
        match (self.tight, self.arch) {
            (false, _) => n,
            (true, Arch::X86) => 2,
            (true, _) => 3,
        }
    }

    /// Which of [`FEATURES`] the test has (a dependency or branch counts only where a
    /// register was loaded before it, as rendering requires).
    pub fn features(&self) -> [bool; FEATURES.len()] {
        let mut f = [false; FEATURES.len()];
        f[0] = self.arch == Arch::X86;
        f[1] = self.arch == Arch::Riscv;
        f[2] = self.arch == Arch::AArch64;
        f[3] = self.threads.len() >= 3;
        // RISC-V and AArch64 render every instruction kind as itself.
        let rv = self.arch != Arch::X86;
        f[11] = self.locations.is_some();
        f[12] = self.filter.is_some();
        f[13] = self.tight;
        for code in &self.threads {
            let mut loaded = false;
            for i in code {
                match i {
                    Ins::Fence(_) => f[4] = true,
                    Ins::Branch { .. } => f[5] = true,
                    Ins::Swap { .. } | Ins::Amo { .. } => f[6] = true,
                    Ins::LrSc { .. } if rv => f[7] = true,
                    Ins::LrSc { .. } => f[6] = true,
                    Ins::Lr { .. } | Ins::Sc { .. } if rv => f[8] = true,
                    Ins::StoreData { .. } | Ins::StoreDataConst { .. } if loaded => f[9] = true,
                    Ins::LoadAddr { .. } | Ins::StoreAddr { .. } if loaded && rv => f[10] = true,
                    _ => {}
                }
                loaded |= matches!(
                    i,
                    Ins::Load { .. } | Ins::Swap { .. } | Ins::LrSc { .. } | Ins::Lr { .. } | Ins::LoadAddr { .. }
                ) || matches!(i, Ins::Amo { op, .. } if *op % 3 == 0 || self.arch == Arch::Riscv);
            }
        }
        f
    }

    /// The test as herd7 litmus text.
    pub fn render(&self, name: &str) -> String {
        let codes: Vec<ThreadCode> = self.threads.iter().enumerate().map(|(t, c)| render_thread(self, t, c)).collect();
        let mut s = String::new();
        let arch = match self.arch {
            Arch::X86 => "X86",
            Arch::Riscv => "RISCV",
            Arch::AArch64 => "AArch64",
        };
        let _ = writeln!(s, "{arch} {name}");
        let _ = writeln!(s, "\"generated by tests/differential.rs\"");
        s.push_str("{\n");
        let mem: Vec<String> = (0..self.nlocs)
            .filter(|&l| self.init[l] != 0 || self.arch == Arch::X86)
            .map(|l| format!("{}={};", LOCS[l], self.init[l]))
            .collect();
        if !mem.is_empty() {
            let _ = writeln!(s, "{}", mem.join(" "));
        }
        for (t, c) in codes.iter().enumerate() {
            let mut init = c.init.clone();
            let v = self.reg_init.get(t).copied().unwrap_or(0);
            if v != 0 {
                let r = match self.arch {
                    Arch::X86 => X86_REGS[0].to_string(),
                    Arch::Riscv if self.abi_names => RV_ABI[RV_TEMPS[0] as usize].to_string(),
                    Arch::Riscv => format!("x{}", RV_TEMPS[0]),
                    Arch::AArch64 => format!("X{}", ARM_TEMPS[0]),
                };
                init.push(format!("{t}:{r}={v};"));
            }
            if !init.is_empty() {
                let _ = writeln!(s, "{}", init.join(" "));
            }
        }
        s.push_str("}\n");
        // The code table, columns padded.
        let rows = codes.iter().map(|c| c.lines.len()).max().unwrap_or(0);
        let head: Vec<String> = (0..codes.len()).map(|t| format!("P{t}")).collect();
        let width: Vec<usize> = codes
            .iter()
            .zip(&head)
            .map(|(c, h)| c.lines.iter().map(|l| l.len()).chain([h.len()]).max().unwrap_or(0))
            .collect();
        let row = |cells: Vec<&str>| -> String {
            let padded: Vec<String> = cells.iter().zip(&width).map(|(c, w)| format!(" {c:w$} ")).collect();
            format!("{};\n", padded.join("|"))
        };
        s.push_str(&row(head.iter().map(String::as_str).collect()));
        for r in 0..rows {
            s.push_str(&row(codes.iter().map(|c| c.lines.get(r).map(String::as_str).unwrap_or("")).collect()));
        }
        // The condition over the registers the code set and the memory.
        let mut places: Vec<String> = codes.iter().flat_map(|c| c.places.iter().cloned()).collect();
        places.extend(LOCS.iter().take(self.nlocs).map(|x| x.to_string()));
        if let Some(ls) = &self.locations {
            // One register per thread the code never sets.
            let unset = match self.arch {
                Arch::X86 => "ESP",
                Arch::Riscv => "x4",
                Arch::AArch64 => "X20",
            };
            let mut all = places.clone();
            all.extend((0..codes.len()).map(|t| format!("{t}:{unset}")));
            let items: Vec<String> = ls.iter().map(|k| format!("{};", all[k % all.len()])).collect();
            let _ = writeln!(s, "locations [{}]", items.join(""));
        }
        if let Some(f) = &self.filter {
            let mut text = String::new();
            render_prop(f, &places, &mut text);
            let _ = writeln!(s, "filter ({text})");
        }
        let mut prop = String::new();
        render_prop(&self.prop, &places, &mut prop);
        let kind = match self.kind {
            Kind::Exists => "exists",
            Kind::NotExists => "~exists",
            Kind::Forall => "forall",
        };
        let _ = writeln!(s, "{kind} ({prop})");
        s
    }
}
