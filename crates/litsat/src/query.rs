//! Questions asked of the solver: the final states and execution counts herd reports.

use crate::cat::{CheckOut, Compiled, Program, compile_model_with};
use crate::diag::{Deadline, Diag, DiagKind};
use crate::encode::exec::{self, Exec};
use crate::events::{self, Events, SourceRef, Value};
use crate::isa::{self, Isa};
use crate::litmus::{CondKind, Loc, Prop, Test, Val};
use crate::logic::{B, Logic, holding};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;
use varisat::Solver;

mod checks;
mod enumerate;
mod herdsym;
mod listing;
mod non_address;
mod propagate;
mod reads;
mod sliced;
mod symmetry;
mod tally;

/// How a test is answered: herd's switches (`-variant`, `-skipcheck`, `-unroll`,
/// `-speedcheck`, `-hexa`) and litsat's own (limits, certificates, DIMACS output).
///
/// Built from [`Options::new`] (herd's defaults, no limits) by its setters:
///
/// ```
/// use std::time::Duration;
/// let opts = litsat::Options::new().fast(true).timeout(Duration::from_secs(10)).variants(["mixed"]);
/// assert!(opts.fast && opts.timeout.is_some());
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// Variants set for `if "variant"` in models (herd's `-variant`).
    pub variants: Vec<String>,
    /// Checks (by `as` name) to skip (herd's `-skipcheck`).
    pub skipchecks: Vec<String>,
    /// herd's `-through all` (or `invalid`): every check but the flags passes, so every
    /// candidate execution reaches the final states.
    pub through: bool,
    /// herd's `-throughflag F`: only the executions that raise the flag F are kept.
    pub throughflag: Option<String>,
    /// herd's `-checkfilter false`: the test's `filter` is not applied (herd's default,
    /// and this one's `false`, applies it).
    pub no_checkfilter: bool,
    /// Stop with an [`Error`](crate::Error) of kind [`Limit`](crate::DiagKind::Limit)
    /// after this long, from the start of the test. Every phase of the answer checks it
    /// between its steps (a single solver call is not interrupted, and litmus-sized ones
    /// are short).
    pub timeout: Option<std::time::Duration>,
    /// Refuse tests with more events than this, with a limit error.
    pub max_events: Option<usize>,
    /// Decide only the Observation and the flags, by two solver calls, without the
    /// final states and counts (herd's `-speedcheck fast`).
    pub fast: bool,
    /// herd's `-speedcheck true`: only the executions that decide the condition reach
    /// the log (those satisfying an `exists` or `~exists` proposition, those falsifying
    /// a `forall` one), and the Observation is read as herd reads it then.
    pub relevant: bool,
    /// herd's `-strictskip true`: an execution is kept only where every check named by
    /// `skipchecks` fails (and the others pass).
    pub strictskip: bool,
    /// herd's `-candidates true`: the log's `Candidates` line, the executions the model
    /// was asked about (those it rejects and those it keeps).
    pub candidates: bool,
    /// herd's `-outcomereads true`: a state shows every register that an instruction
    /// reading memory writes, and no other register.
    pub outcomereads: bool,
    /// Certify the verdict: a proof of each UNSAT answer behind it and a model of each
    /// SAT one are checked apart from the solver (see [`crate::Outcome::certificate`]).
    pub certify: bool,
    /// Write each query's CNF into this folder.
    pub dimacs: Option<std::path::PathBuf>,
    /// The name of this test's files under `dimacs` (`NAME.q1.cnf`; it may hold `/`, for
    /// subfolders); `None`: the test file's name without `.litmus`. The command line sets
    /// it per input, so that tests of one name in different folders do not overwrite
    /// each other's files.
    #[doc(hidden)]
    pub dimacs_name: Option<String>,
    /// How many times a loop's body may be entered (herd's `-unroll`; `None`: herd's
    /// default, 2).
    pub unroll: Option<usize>,
    /// Raise the unrolling bound from `unroll` until no execution is cut off, up to 16.
    pub auto_unroll: bool,
    /// List at most this many executions, then count the rest; `None`: 2048, and only
    /// where the executions outnumber their states. `Some(0)` counts every test whose log
    /// can be counted (the tests compare the two).
    #[doc(hidden)]
    pub count_after: Option<u64>,
    /// herd's `-hexa`: the log's numbers in hexadecimal.
    pub hexa: bool,
}

impl Options {
    /// herd's defaults: every check, no variant, no limit, the full log.
    pub fn new() -> Options {
        Options::default()
    }

    /// Sets [`Options::variants`].
    pub fn variants<S: Into<String>>(mut self, variants: impl IntoIterator<Item = S>) -> Options {
        self.variants = variants.into_iter().map(Into::into).collect();
        self
    }

    /// Sets [`Options::no_checkfilter`] where `check` is false.
    pub fn checkfilter(mut self, check: bool) -> Options {
        self.no_checkfilter = !check;
        self
    }

    /// Sets [`Options::throughflag`].
    pub fn throughflag(mut self, flag: Option<String>) -> Options {
        self.throughflag = flag;
        self
    }

    /// Sets [`Options::through`].
    pub fn through(mut self, through: bool) -> Options {
        self.through = through;
        self
    }

    /// Whether check `c` is not applied: skipped by its name or by a call's it was made
    /// in, or let through.
    pub fn skips(&self, c: &crate::cat::CheckOut) -> bool {
        let named = |n: &str| self.skipchecks.iter().any(|s| s == n);
        (self.through && !c.flag) || c.name.as_deref().is_some_and(named) || c.callers.iter().any(|n| named(n))
    }

    /// Sets [`Options::skipchecks`].
    pub fn skipchecks<S: Into<String>>(mut self, checks: impl IntoIterator<Item = S>) -> Options {
        self.skipchecks = checks.into_iter().map(Into::into).collect();
        self
    }

    /// Sets [`Options::timeout`] (a `Duration`, or an `Option` of one).
    pub fn timeout(mut self, timeout: impl Into<Option<std::time::Duration>>) -> Options {
        self.timeout = timeout.into();
        self
    }

    /// Sets [`Options::max_events`].
    pub fn max_events(mut self, max: impl Into<Option<usize>>) -> Options {
        self.max_events = max.into();
        self
    }

    /// Sets [`Options::fast`].
    pub fn fast(mut self, fast: bool) -> Options {
        self.fast = fast;
        self
    }

    /// Sets [`Options::relevant`].
    pub fn relevant(mut self, relevant: bool) -> Options {
        self.relevant = relevant;
        self
    }

    /// Sets [`Options::strictskip`].
    pub fn strictskip(mut self, strict: bool) -> Options {
        self.strictskip = strict;
        self
    }

    /// Sets [`Options::candidates`].
    pub fn candidates(mut self, candidates: bool) -> Options {
        self.candidates = candidates;
        self
    }

    /// Sets [`Options::outcomereads`].
    pub fn outcomereads(mut self, reads: bool) -> Options {
        self.outcomereads = reads;
        self
    }

    /// Sets [`Options::certify`].
    pub fn certify(mut self, certify: bool) -> Options {
        self.certify = certify;
        self
    }

    /// Sets [`Options::dimacs`].
    pub fn dimacs(mut self, folder: impl Into<Option<std::path::PathBuf>>) -> Options {
        self.dimacs = folder.into();
        self
    }

    /// Sets [`Options::unroll`].
    pub fn unroll(mut self, bound: impl Into<Option<usize>>) -> Options {
        self.unroll = bound.into();
        self
    }

    /// Sets [`Options::auto_unroll`].
    pub fn auto_unroll(mut self, auto: bool) -> Options {
        self.auto_unroll = auto;
        self
    }

    /// Sets [`Options::hexa`].
    pub fn hexa(mut self, hexa: bool) -> Options {
        self.hexa = hexa;
        self
    }

    /// Sets the hidden `dimacs_name`.
    #[doc(hidden)]
    pub fn dimacs_name(mut self, name: Option<String>) -> Options {
        self.dimacs_name = name;
        self
    }

    /// Sets the hidden `count_after`.
    #[doc(hidden)]
    pub fn count_after(mut self, after: Option<u64>) -> Options {
        self.count_after = after;
        self
    }
}

/// herd's default `-unroll`.
pub const DEFAULT_UNROLL: usize = 2;

/// The highest bound `--unroll auto` tries.
pub const AUTO_UNROLL_LIMIT: usize = 16;

impl Options {
    /// These options with the cfg's settings (`prog.settings`) where the options leave
    /// them unset, as herd's command line and its `-conf` file combine: the checks
    /// skipped add up, and the options' own timeout, unroll and hexa win.
    #[doc(hidden)]
    pub fn under<'a>(&'a self, prog: &Program) -> std::borrow::Cow<'a, Options> {
        let s = &prog.settings;
        if *s == crate::cat::cfg::Settings::default() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut o = self.clone();
        let extra = s.skipchecks.iter().filter(|c| !self.skipchecks.contains(c));
        o.skipchecks.extend(extra.cloned());
        o.timeout = self.timeout.or(s.timeout.flatten().map(std::time::Duration::from_secs_f64));
        if self.unroll.is_none() && !self.auto_unroll {
            o.unroll = s.unroll.flatten();
        }
        o.hexa |= s.hexa == Some(true);
        o.fast |= s.speedcheck == Some(crate::cat::cfg::Speedcheck::Fast);
        o.relevant |= s.speedcheck == Some(crate::cat::cfg::Speedcheck::True);
        o.strictskip |= s.strictskip == Some(true);
        o.outcomereads |= s.outcomereads == Some(true);
        o.through |= s.through == Some(true);
        o.no_checkfilter |= s.checkfilter == Some(false);
        std::borrow::Cow::Owned(o)
    }

    /// The loop-unrolling bound in force.
    pub fn unroll_bound(&self) -> usize {
        self.unroll.unwrap_or(DEFAULT_UNROLL)
    }
}

/// One final state: values of the observed places, in herd's printing order.
pub type State = Vec<(Loc, Val)>;

#[derive(Clone, Debug)]
pub struct Outcome {
    pub test: Test,
    pub states: BTreeSet<StateKey>,
    /// Executions satisfying the condition's proposition, and the others.
    pub pos: u128,
    pub neg: u128,
    pub flags: BTreeSet<String>,
    pub vars: usize,
    pub clauses: usize,
    /// Under `--fast`, the Observation decided without counting.
    pub fast: Option<Observation>,
    /// Under `--certify`, the `Certificate` line of the log.
    pub certificate: Option<String>,
    /// Some consistent execution went past the unrolling bound and was dropped: herd's
    /// `Loop` prefix on the verdict.
    pub looped: bool,
    /// The loops whose bound such executions went past (labels, or `the while at line N`).
    pub cut_at: BTreeSet<String>,
    /// Under `--unroll auto`, the bound the answer was found with.
    pub unroll: Option<usize>,
    /// Why the counts fell short (a limit met while counting, issue #15): the states are
    /// those found so far, and the counts and flags are not to be read.
    pub incomplete: Option<Diag>,
    /// herd's `-hexa`: the log writes numbers in hexadecimal.
    pub hexa: bool,
    /// herd's digest of the test, its log's `Hash=` line (`None`: no such line).
    pub hash: Option<String>,
    /// Under `-candidates`, the executions the model was asked about: its log's
    /// `Candidates` line.
    pub candidates: Option<u128>,
}

impl Outcome {
    /// The outcome of `test` before any execution is found, with the size of the CNF
    /// `lg` holds.
    fn empty(test: Test, lg: &Logic, hexa: bool) -> Outcome {
        Outcome {
            test,
            states: BTreeSet::new(),
            pos: 0,
            neg: 0,
            flags: BTreeSet::new(),
            vars: lg.num_vars(),
            clauses: lg.num_clauses(),
            fast: None,
            certificate: None,
            looped: false,
            cut_at: BTreeSet::new(),
            unroll: None,
            incomplete: None,
            hexa,
            hash: None,
            candidates: None,
        }
    }
}

impl Outcome {
    /// The outcome where it is complete, else why it is not: for the callers that have no
    /// use for a part of a log.
    pub fn complete(self) -> Result<Outcome, Diag> {
        match self.incomplete {
            Some(d) => Err(d),
            None => Ok(self),
        }
    }

    /// Back to no execution seen: the counts, states, flags and loops start over.
    /// A limit met while listing or counting leaves the states found so far in the log,
    /// with the counts marked incomplete, rather than nothing; other errors are the test's.
    fn keep_partial(&mut self, r: Result<(), Diag>) -> Result<(), Diag> {
        match r {
            Err(d) if d.kind == DiagKind::Limit => {
                self.incomplete = Some(d);
                Ok(())
            }
            r => r,
        }
    }

    fn forget_executions(&mut self) {
        self.pos = 0;
        self.neg = 0;
        self.states.clear();
        self.flags.clear();
        self.looped = false;
        self.cut_at.clear();
    }
}

/// herd's Observation: whether some, all or none of the executions satisfy the condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observation {
    /// No execution satisfies the condition.
    Never,
    /// Some do, some do not.
    Sometimes,
    /// Every execution does.
    Always,
}

impl Observation {
    /// The word herd's log prints.
    pub fn word(self) -> &'static str {
        match self {
            Observation::Never => "Never",
            Observation::Sometimes => "Sometimes",
            Observation::Always => "Always",
        }
    }
}

impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, so that a width (`{:10}`) applies, as for a string.
        f.pad(self.word())
    }
}

/// A state with herd's sort order: places in printing order, values compared numerically.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct StateKey(pub Vec<(Loc, SortVal)>);

/// herd sorts an unsolved value (`S13`) before every number.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SortVal {
    Sym(String),
    Int(i64),
    UInt(u64),
}

impl From<&Val> for SortVal {
    fn from(v: &Val) -> SortVal {
        match v {
            Val::Int(i) => SortVal::Int(*i),
            Val::Sym(s) => SortVal::Sym(s.clone()),
        }
    }
}

impl Outcome {
    /// herd's Observation: from the counts, or as `--fast` decided it.
    pub fn observation(&self) -> Observation {
        if let Some(w) = self.fast {
            return w;
        }
        if self.pos == 0 {
            Observation::Never
        } else if self.neg == 0 {
            Observation::Always
        } else {
            Observation::Sometimes
        }
    }

    /// herd's `Positive:`/`Negative:` pair: for `~exists` the executions that do not
    /// satisfy the proposition are the positive ones.
    pub fn witnesses(&self) -> (u128, u128) {
        match self.test.cond.kind {
            CondKind::NotExists => (self.neg, self.pos),
            _ => (self.pos, self.neg),
        }
    }

    /// The word herd prints after the states: `Undef` when some execution is undefined
    /// (a model's `undefined_unless` failed: the flag `*undef*`), else `Ok` or `No`.
    pub fn verdict_word(&self) -> &'static str {
        if self.flags.iter().any(|f| f == UNDEF_FLAG) {
            "Undef"
        } else if self.ok() {
            "Ok"
        } else {
            "No"
        }
    }

    /// Whether the condition holds: some execution satisfies `exists`, none `~exists`,
    /// and none falsifies `forall` (so a test with no execution at all validates a
    /// `forall`, as herd says `Ok` for it).
    pub fn ok(&self) -> bool {
        // Under `--fast` the counts are not known: the Observation decides.
        if let Some(w) = self.fast {
            return match self.test.cond.kind {
                CondKind::Exists => w != Observation::Never,
                CondKind::NotExists => w == Observation::Never,
                CondKind::Forall => w == Observation::Always,
            };
        }
        match self.test.cond.kind {
            CondKind::Exists => self.pos > 0,
            CondKind::NotExists => self.pos == 0,
            CondKind::Forall => self.neg == 0,
        }
    }
}

/// The flag an undefined execution raises (herd's name for a failed `undefined_unless`).
pub const UNDEF_FLAG: &str = "*undef*";

/// Canonicalises register names through the ISA, so `t2` and `x7` are one place.
fn canonical_loc(isa: &dyn Isa, l: &Loc) -> Result<Loc, String> {
    match l {
        Loc::Reg(t, r) => {
            isa.canonical_reg(r).map(|c| Loc::Reg(*t, c)).ok_or_else(|| format!("unknown register '{r}'"))
        }
        m => Ok(m.clone()),
    }
}

/// Parses the test's code for its ISA and canonicalises its places.
pub fn prepare(test: Test, file: &str, text: &str) -> Result<(Test, &'static dyn Isa, Events), Diag> {
    prepare_with(test, file, text, None, DEFAULT_UNROLL)
}

/// [`prepare`], with the model's macro file `(path, text)` for C tests and herd's
/// `-unroll`.
pub fn prepare_with(
    test: Test,
    file: &str,
    text: &str,
    macros: Option<(&str, &str)>,
    unroll: usize,
) -> Result<(Test, &'static dyn Isa, Events), Diag> {
    prepare_until(test, file, text, (macros, unroll, false), Deadline::NONE)
}

/// [`prepare_with`], stopping with a timeout once `deadline` passes.
pub fn prepare_until(
    mut test: Test,
    file: &str,
    text: &str,
    (macros, unroll, register_events): (Option<(&str, &str)>, usize, bool),
    deadline: Deadline,
) -> Result<(Test, &'static dyn Isa, Events), Diag> {
    let isa = isa::for_arch(&test.arch)
        .ok_or_else(|| Diag::file(file, format!("unsupported architecture '{}'", test.arch)))?;
    crate::litmus::symbolic::resolve(&mut test, isa, file, text)?;
    let d = |m: String| Diag::file(file, m);
    let mut canonical = |l: &mut Loc| -> Result<(), String> {
        *l = canonical_loc(isa, l)?;
        Ok(())
    };
    test.cond.prop.try_map_locs(&mut canonical).map_err(d)?;
    if let Some(f) = &mut test.filter {
        f.try_map_locs(&mut canonical).map_err(d)?;
    }
    test.locations = test.locations.iter().map(|l| canonical_loc(isa, l)).collect::<Result<_, _>>().map_err(d)?;
    if crate::variant::holds(&test.variants, "ifetch") {
        events::name_instructions(&mut test);
    }
    for it in &mut test.init {
        it.loc = canonical_loc(isa, &it.loc).map_err(|m| Diag::at(file, text, it.pos, m))?;
    }
    let init = test.init.clone();
    if isa.scalar_bits(&test.variants) == 32 {
        // herd reads these architectures' constants as 32-bit values, and echoes them so.
        map_constants(&mut test.cond.prop, &|_, v| v as i32 as i64);
    }
    let written = test.cond.prop.clone();
    narrow_constants(&mut test.cond.prop, &init);
    if test.cond.prop != written {
        test.cond.written = Some(Box::new(written));
    }
    if let Some(f) = &mut test.filter {
        narrow_constants(f, &init);
    }
    let ev = events::build_with(&test, isa, &SourceRef { file, text }, (macros, unroll, register_events), deadline)?;
    // A fault atom holds where its thread's fault register names a site it matches.
    test.cond.prop.resolve_faults(&ev.fault_sites);
    if let Some(f) = &mut test.filter {
        f.resolve_faults(&ev.fault_sites);
    }
    Ok((test, isa, ev))
}

/// 64-bit C types; everything else herd treats as a 32-bit `int`.
fn is_wide(ty: &str) -> bool {
    ["int64_t", "uint64_t", "long", "intptr_t", "uintptr_t", "size_t"].iter().any(|w| ty.contains(w))
}

/// Whether herd prints a place's values unsigned.
fn is_unsigned(ty: &str) -> bool {
    ty.starts_with("uint") || ty.starts_with("unsigned") || ty == "size_t" || ty == "uintptr_t"
}

/// How herd prints a place's integer values in a state: cast to the place's type
/// (sign-extended from its width when signed, masked to it when unsigned), an untyped
/// place being an `int`; `None` for pointers, printed as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintCast {
    bits: u32,
    unsigned: bool,
}

impl PrintCast {
    fn of(ty: Option<&str>) -> Option<PrintCast> {
        let Some(ty) = ty else { return Some(PrintCast { bits: 32, unsigned: false }) };
        if ty.contains('*') {
            return None;
        }
        let bits = if is_wide(ty) {
            64
        } else if ty.contains("int8_t") || ty.contains("char") {
            8
        } else if ty.contains("int16_t") || ty.contains("short") {
            16
        } else {
            32
        };
        Some(PrintCast { bits, unsigned: is_unsigned(ty) })
    }

    fn apply(self, i: i64) -> SortVal {
        match (self.bits, self.unsigned) {
            (64, true) => SortVal::UInt(i as u64),
            (64, false) => SortVal::Int(i),
            (b, true) => SortVal::Int(i & ((1i64 << b) - 1)),
            (b, false) => SortVal::Int((i << (64 - b)) >> (64 - b)),
        }
    }
}

/// The initial-state item that types place `l` (an array's element takes its array's).
fn init_of<'t>(init: &'t [crate::litmus::InitItem], l: &Loc) -> Option<&'t crate::litmus::InitItem> {
    match l {
        Loc::Mem(x) => {
            let m = crate::litmus::location_of(x);
            init.iter().find(|it| matches!(&it.loc, Loc::Mem(y) if *y == m))
        }
        Loc::Reg(..) => init.iter().find(|it| it.loc == *l),
    }
}

/// An integer as herd compares it for the place `item` types: cast to the type (an
/// untyped place is an `int`; a pointer is left as it is), as it is printed.
fn cast_int(item: Option<&crate::litmus::InitItem>, i: i64) -> i64 {
    match PrintCast::of(item.and_then(|it| it.ty.as_deref())) {
        Some(c) => match c.apply(i) {
            SortVal::Int(v) => v,
            SortVal::UInt(u) => u as i64,
            SortVal::Sym(_) => i,
        },
        None => i,
    }
}

/// How herd compares a place's final value with a constant: both cast to the place's
/// type (herd's constraints), so that `0:X3=4294967296` holds of an `int` register
/// holding 0. The constants are cast once (`narrow_constants`), the values by this.
pub type Cast<'a> = dyn Fn(&Loc, Value) -> Value + 'a;

/// The [`Cast`] of `test`'s places.
pub fn cond_cast(test: &Test) -> impl Fn(&Loc, Value) -> Value + '_ {
    move |l, v| match v {
        Value::Int(i) => Value::Int(cast_int(init_of(&test.init, l), i)),
        v => v,
    }
}

/// herd reads a constant for a place modulo its type's width: in a condition on an `int`
/// register, `0xffffffff` is -1, and 4294967296 is 0. Rewritten in place.
fn narrow_constants(p: &mut Prop, init: &[crate::litmus::InitItem]) {
    map_constants(p, &|l, v| cast_int(init_of(init, l), v));
}

/// Rewrites every integer constant of `p` compared with a place by `f(place, constant)`.
fn map_constants(p: &mut Prop, f: &dyn Fn(&Loc, i64) -> i64) {
    match p {
        Prop::Eq(l, Val::Int(v)) => *v = f(l, *v),
        Prop::EqArray(_, es) => {
            for (l, v) in es {
                if let Val::Int(i) = v {
                    *i = f(l, *i);
                }
            }
        }
        Prop::Not(q) => map_constants(q, f),
        Prop::And(qs) | Prop::Or(qs) => qs.iter_mut().for_each(|q| map_constants(q, f)),
        Prop::Implies(a, b) => {
            map_constants(a, f);
            map_constants(b, f);
        }
        _ => {}
    }
}

/// The places whose final values make up a state, in herd's order: registers by thread
/// and register index, then memory by name.
pub fn observed(test: &Test, isa: &dyn Isa) -> Vec<Loc> {
    let mut ls = Vec::new();
    for l in &test.locations {
        // An array named bare is shown whole, as herd does (`v={3,2,1}`).
        let whole = match l {
            Loc::Mem(x) => test.arrays.iter().find(|a| a.name == *x),
            Loc::Reg(..) => None,
        };
        let ps = match whole {
            Some(a) => (0..a.len).map(|i| Loc::Mem(crate::litmus::whole_elem(&a.name, i))).collect(),
            None => vec![l.clone()],
        };
        for p in ps {
            if !ls.contains(&p) {
                ls.push(p);
            }
        }
    }
    test.cond.prop.locs(&mut ls);
    sort_places(&mut ls, isa);
    ls
}

/// Puts places in herd's printing order, each once.
fn sort_places(ls: &mut Vec<Loc>, isa: &dyn Isa) {
    // Compared by borrowed keys: no name is copied per comparison. Memory goes by name,
    // an array shown whole by its name too (herd's location `a`, whose value is the
    // vector), its elements in order. An element named with an index (`u[0]`, herd's
    // `Deref`) comes after every location named bare, as herd orders them.
    fn key<'l>(isa: &dyn Isa, l: &'l Loc) -> (u8, usize, usize, &'l str, usize) {
        match l {
            // herd shows the faults after every other place.
            Loc::Reg(t, r) if r == crate::litmus::FAULT_REG => (2, *t, 0, r, 0),
            Loc::Reg(t, r) => (0, *t, isa.reg_index(r), r, 0),
            Loc::Mem(x) => match crate::litmus::whole_part(x) {
                Some((base, i)) => (1, 0, 0, base, i),
                None => match indexed(x) {
                    Some((base, i)) => (2, 0, 0, base, i),
                    None => (1, 0, 0, x, 0),
                },
            },
        }
    }
    fn indexed(x: &str) -> Option<(&str, usize)> {
        let (base, rest) = x.split_once('[')?;
        Some((base, rest.strip_suffix(']')?.parse().ok()?))
    }
    ls.sort_by(|a, b| key(isa, a).cmp(&key(isa, b)));
    ls.dedup();
}

/// Literals for each possible final value of a place.
pub fn place_lits(
    ev: &Events,
    x: &Exec,
    l: &Loc,
    lg: &mut Logic,
    text_err: &dyn Fn(String) -> Diag,
) -> Result<Vec<(Value, B)>, Diag> {
    Ok(match l {
        Loc::Reg(t, r) => match ev.final_regs.get(&(*t, r.clone())) {
            Some(&v) => x.val[v].clone(),
            None => vec![(Value::Int(0), B::T)],
        },
        Loc::Mem(m) => {
            let li = ev.loc_index(m).ok_or_else(|| text_err(format!("unknown location '{m}'")))?;
            match ev.cells.as_ref().map(|c| c.size) {
                Some(size) => {
                    let parts: Vec<_> = ev.place_cells(li).into_iter().map(|c| x.final_mem(ev, c, lg)).collect();
                    exec::assemble(&parts, size, lg)
                }
                None => x.final_mem(ev, li, lg),
            }
        }
    })
}

/// A literal for a proposition over the places' final values.
pub fn prop_lit(p: &Prop, places: &[(Loc, Vec<(Value, B)>)], ev: &Events, lg: &mut Logic) -> B {
    prop_lit_cast(p, places, ev, lg, &|_, v| v)
}

/// [`prop_lit`], comparing each place's values as `cast` makes them, as herd compares
/// both sides under the place's type ([`cond_cast`]).
pub fn prop_lit_cast(p: &Prop, places: &[(Loc, Vec<(Value, B)>)], ev: &Events, lg: &mut Logic, cast: &Cast<'_>) -> B {
    let lits = |l: &Loc| {
        let vs = places.iter().find(|(q, _)| q == l).map(|(_, v)| v.clone()).unwrap_or_default();
        vs.into_iter().map(|(x, b)| (cast(l, x), b)).collect::<Vec<_>>()
    };
    match p {
        Prop::True => B::T,
        Prop::False => B::F,
        Prop::Eq(l, v) => {
            let want = ev.value_of(v);
            lits(l).iter().find(|(x, _)| Some(*x) == want).map(|p| p.1).unwrap_or(B::F)
        }
        Prop::EqArray(_, es) => {
            let v: Vec<B> =
                es.iter().map(|(l, v)| prop_lit_cast(&Prop::Eq(l.clone(), v.clone()), places, ev, lg, cast)).collect();
            lg.and(&v)
        }
        Prop::EqLoc(a, b) => {
            let (la, lb) = (lits(a), lits(b));
            let mut any = Vec::new();
            for (x, bx) in &la {
                for (y, by) in &lb {
                    if x == y {
                        any.push(lg.and2(*bx, *by));
                    }
                }
            }
            lg.or(&any)
        }
        Prop::Not(q) => prop_lit_cast(q, places, ev, lg, cast).negate(),
        Prop::And(qs) => {
            let v: Vec<B> = qs.iter().map(|q| prop_lit_cast(q, places, ev, lg, cast)).collect();
            lg.and(&v)
        }
        Prop::Or(qs) => {
            let v: Vec<B> = qs.iter().map(|q| prop_lit_cast(q, places, ev, lg, cast)).collect();
            lg.or(&v)
        }
        Prop::Implies(a, b) => {
            let x = prop_lit_cast(a, places, ev, lg, cast);
            let y = prop_lit_cast(b, places, ev, lg, cast);
            lg.or2(x.negate(), y)
        }
        Prop::Fault(a) => {
            let v: Vec<B> =
                lits(&a.place).iter().filter(|(x, _)| matches!(x, Value::Int(k) if a.codes.contains(k))).map(|p| p.1).collect();
            lg.or(&v)
        }
    }
}

/// A test and a model encoded into one CNF, before any check is asserted: what both the
/// queries here and explanations start from.
pub struct Encoding {
    pub test: Test,
    pub isa: &'static dyn Isa,
    pub ev: Events,
    /// The execution; its `primaries` include the model's choices (`with x from S`).
    pub x: Exec,
    pub lg: Logic,
    /// Every check of the model, flags included, in the model's order.
    pub checks: Vec<CheckOut>,
    /// The places of herd's final state, in printing order.
    pub shown: Vec<Loc>,
    /// Value literals for the shown places and those the filter reads.
    pub places: Vec<(Loc, Vec<(Value, B)>)>,
    /// The execution went past the unrolling bound (some thread reached a cut-off).
    pub cut: B,
    /// Per loop (by name), the execution went past its bound.
    pub loops: Vec<(String, B)>,
    /// When the test must stop: work after the encoding (an explanation) shares it.
    pub deadline: Deadline,
}

/// Prepares the test, encodes its candidate executions and compiles the model, within
/// `opts.timeout`.
pub fn encode(test: Test, file: &str, text: &str, prog: &Program, opts: &Options) -> Result<Encoding, Diag> {
    let opts = &*opts.under(prog);
    let deadline = Deadline::after(opts.timeout);
    let p = prepared(test, file, text, prog, opts, deadline)?;
    encode_with(p, file, prog, opts, Mode::Exact, deadline)
}

/// A test ready to encode: its locations canonical, its events built. Made once for a
/// test however many encodings answering it takes (see [`run_bounded`]).
struct Prepared {
    test: Test,
    isa: &'static dyn Isa,
    ev: Events,
}

/// The test [`Prepared`], within `opts.max_events` and stopping with a timeout once
/// `deadline` passes.
fn prepared(mut test: Test, file: &str, text: &str, prog: &Program, opts: &Options, deadline: Deadline) -> Result<Prepared, Diag> {
    let variants = variants_of(prog, opts, &test);
    crate::variant::check_built(&variants, file, &test.arch)?;
    // The code is read under all of them (`Isa::parse_under`).
    test.variants = variants;
    let (test, isa, ev) = prepare_until(test, file, text, (prog.macro_file(), opts.unroll_bound(), prog.catdep), deadline)?;
    if let Some(max) = opts.max_events
        && ev.len() > max
    {
        return Err(Diag::limit(file, format!("limit: {} events, more than the maximum of {max}", ev.len())));
    }
    Ok(Prepared { test, isa, ev })
}

/// The variants a test runs under: the cfg's, the command line's, then the test's own
/// metadata's, as herd adds them up.
pub fn variants_of(prog: &Program, opts: &Options, test: &Test) -> Vec<String> {
    let mut v = prog.variants_with(&opts.variants);
    v.extend(test.variants.iter().filter(|x| !crate::variant::holds(&v, x)).cloned().collect::<Vec<_>>());
    v
}

/// How a test's model is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Every `let rec` unrolled until proven enough.
    Exact,
    /// A monotone `let rec` may be cut short, under a guard (see
    /// [`crate::cat::compile_model_with`]).
    Deferred,
    /// Over the candidate executions, listed first, where they are few (see [`sliced`]);
    /// else as [`Mode::Deferred`].
    Sliced,
}

/// [`encode`] in a [`Mode`]: deferred, the CNF is exact where `lg.guard()` holds; sliced,
/// `lg` evaluates the model over the candidates where it could list them all. Each phase
/// stops with a timeout once `deadline` passes.
fn encode_with(
    p: Prepared,
    file: &str,
    prog: &Program,
    opts: &Options,
    mode: Mode,
    deadline: Deadline,
) -> Result<Encoding, Diag> {
    let Prepared { test, isa, ev } = p;
    let mut lg = Logic::new();
    let mut x = exec::encode(&ev, &mut lg)
        .map_err(|m| if m.starts_with("limit") { Diag::limit(file, m) } else { Diag::file(file, m) })?;
    deadline.check(file)?;
    // Listed before the built-in relations are built: those are then masks too.
    let sliced = mode == Mode::Sliced && sliced::start(&x, &mut lg, file, deadline)?;
    let b = exec::builtins_read(&ev, &x, &mut lg, &|n| prog.reads(n));
    deadline.check(file)?;
    let defer = mode == Mode::Deferred || (mode == Mode::Sliced && !sliced);
    let variants = variants_of(prog, opts, &test);
    let Compiled { checks, primaries, own_orders } = compile_model_with(prog, &mut lg, b, &variants, defer, deadline)?;
    if ev.co_from_model && own_orders {
        final_writes_choose(&mut x);
    }
    // The model's own choices (`with x from S`) make executions too.
    x.primaries.extend(primaries);
    let shown = observed(&test, isa);
    let mut needed = shown.clone();
    // The condition still reads the places `-outcomereads` does not show.
    let shown = if opts.outcomereads { reads::places(shown, &ev, isa) } else { shown };
    needed.extend(shown.iter().filter(|l| !needed.contains(l)).cloned().collect::<Vec<_>>());
    if let Some(f) = &test.filter {
        f.locs(&mut needed);
    }
    let err = |m: String| Diag::file(file, m);
    let mut places = Vec::new();
    for l in &needed {
        places.push((l.clone(), place_lits(&ev, &x, l, &mut lg, &err)?));
    }
    let mut by_loop: BTreeMap<&str, Vec<B>> = BTreeMap::new();
    for (g, name) in &ev.cuts {
        by_loop.entry(name).or_default().push(x.lit_of(*g, Value::Int(1)));
    }
    let loops: Vec<(String, B)> = by_loop.into_iter().map(|(n, bs)| (n.to_string(), lg.or(&bs))).collect();
    let reached: Vec<B> = loops.iter().map(|l| l.1).collect();
    let cut = lg.or(&reached);
    Ok(Encoding { test, isa, ev, x, lg, checks, shown, places, cut, loops, deadline })
}

/// Where co is the model's to choose and the model generates orders of its own instead
/// (as `c11_cos.cat` does, over atomic writes only), herd enumerates only the final writes
/// of the shown locations: they, not co, make an execution. co stays as an auxiliary that
/// puts the final write where a coherence order could end.
fn final_writes_choose(x: &mut exec::Exec) {
    let co: HashSet<_> = x.co_vars.iter().map(|l| l.var()).collect();
    x.primaries.retain(|l| !co.contains(&l.var()));
    x.primaries.extend(x.fw.0.iter().filter_map(|b| match b {
        B::L(l) => Some(*l),
        _ => None,
    }));
}

/// Everything one test's log needs, by listing every execution (see `enumerate`).
///
/// First from an encoding whose monotone `let rec`s may be cut short (cheaper: no solver
/// call proves that the unrolling went far enough); if some solution is an execution where
/// a cut came too early, again from the exact encoding.
pub fn run(test: Test, file: &str, text: &str, prog: &Program, opts: &Options) -> Result<Outcome, Diag> {
    // The digest reads the test as written, before anything rewrites it; it costs a few
    // MD5 blocks.
    let hash = crate::litmus::hash::herd_hash_under(text, &test, &variants_of(prog, opts, &test));
    let mut out = run_unhashed(test, file, text, prog, opts)?;
    out.hash = hash;
    Ok(out)
}

/// [`run`] without the digest.
fn run_unhashed(mut test: Test, file: &str, text: &str, prog: &Program, opts: &Options) -> Result<Outcome, Diag> {
    let opts = &*opts.under(prog);
    if opts.no_checkfilter {
        // herd's `-checkfilter false`: the executions the filter rejects are kept.
        test.filter = None;
    }
    // One deadline for the whole test, however many bounds `--unroll auto` tries.
    let deadline = Deadline::after(opts.timeout);
    if !opts.auto_unroll {
        return run_bounded(test, file, text, prog, opts, deadline);
    }
    // `--unroll auto`: a Never then means never, not "never within the bound". Each bound
    // is answered afresh: the unrolled code, hence the encoding, differs.
    // A bound past which a limit is hit (too many values or instructions) ends the search
    // with the answer of the bound before.
    let mut bound = opts.unroll.unwrap_or(DEFAULT_UNROLL);
    let mut last: Option<Outcome> = None;
    loop {
        let o = Options { unroll: Some(bound), auto_unroll: false, ..opts.clone() };
        let mut out = match (run_bounded(test.clone(), file, text, prog, &o, deadline), last) {
            (Ok(out), Some(prev)) if out.incomplete.is_some() => return Ok(prev),
            (Ok(out), _) => out,
            (Err(d), Some(prev)) if d.kind == crate::diag::DiagKind::Limit => {
                return Ok(prev);
            }
            (Err(d), _) => return Err(d),
        };
        out.unroll = Some(bound);
        if !out.looped || out.incomplete.is_some() || bound >= AUTO_UNROLL_LIMIT {
            return Ok(out);
        }
        last = Some(out);
        bound += 1;
    }
}

/// [`run`] with the bound the options give.
fn run_bounded(
    test: Test,
    file: &str,
    text: &str,
    prog: &Program,
    opts: &Options,
    deadline: Deadline,
) -> Result<Outcome, Diag> {
    let defer = !opts.certify && opts.dimacs.is_none();
    // Slicing pays where the log lists every execution; a model that makes choices of
    // its own would need the candidates multiplied (see `sliced`).
    let few = crate::logic::MAX_CANDIDATES as u64;
    // `-outcomereads` asks the solver which loads some execution reaches.
    let slice =
        defer && !opts.fast && !opts.outcomereads && !prog.chooses && opts.count_after.is_none_or(|n| n >= few);
    let first = if slice { Mode::Sliced } else { Mode::Deferred };
    let again = opts.candidates.then(|| test.clone());
    let p = prepared(test, file, text, prog, opts, deadline)?;
    let tried = if defer { run_with(p, file, text, prog, opts, first, deadline)? } else { Tried::Again(p) };
    let mut out = match tried {
        Tried::Answered(o) => o,
        Tried::Again(p) => match run_with(p, file, text, prog, opts, Mode::Exact, deadline)? {
            Tried::Answered(o) => o,
            Tried::Again(_) => {
                return Err(Diag::file(file, "internal error: the exact encoding left an execution undecided"));
            }
        },
    };
    if opts.relevant && !opts.fast && out.incomplete.is_none() {
        out.fast = Some(checks::relevant_observation(&out));
    }
    if let Some(test) = again.filter(|_| out.incomplete.is_none()) {
        let counted = checks::candidates(test, file, text, prog, opts, deadline);
        match counted {
            Ok(n) => out.candidates = Some(n),
            Err(d) => out.keep_partial(Err(d))?,
        }
    }
    Ok(out)
}

/// What one encoding of a test gave: the outcome, or (where a solution fell where the
/// encoding is not exact, or slicing met what it cannot evaluate) what the test is
/// answered again from, the test or the test [`Prepared`]. Moved once per encoding, as
/// `Option<Outcome>` was: boxing the outcome would cost an allocation per test.
#[allow(clippy::large_enum_variant)]
enum Tried<T> {
    Answered(Outcome),
    Again(T),
}

/// Whether `b` holds in the solver's current model.
fn holds(solver: &Solver, b: B) -> bool {
    match b {
        B::T => true,
        B::F => false,
        B::L(l) => solver.model().is_some_and(|m| m.contains(&l)),
    }
}

/// [`run`] on one encoding, which may give the test back (see [`Tried`]).
fn run_with(
    p: Prepared,
    file: &str,
    text: &str,
    prog: &Program,
    opts: &Options,
    mode: Mode,
    deadline: Deadline,
) -> Result<Tried<Prepared>, Diag> {
    let Encoding { test, isa, ev, x, mut lg, checks, shown, places, cut, loops, deadline: _ } =
        encode_with(p, file, prog, opts, mode, deadline)?;
    if lg.spoiled() {
        return Ok(Tried::Again(Prepared { test, isa, ev }));
    }
    // herd's names for unsolved values, where executions may have them.
    let herd = if x.val.iter().flatten().any(|(v, _)| *v == Value::Sym) {
        isa.herd_vars(&test, &SourceRef { file, text }, prog.macro_file())
    } else {
        None
    };
    // Where this fails, nothing asserted from the model on holds (see `Logic::guard_with`).
    let exact = lg.guard();
    let flag_lits = checks::assert_checks(&checks, opts, &mut lg);
    // herd's `-throughflag F`: only the executions that raise F reach the final states.
    if let Some(f) = &opts.throughflag {
        lg.assert(checks::raises(&flag_lits, f));
    }
    // An access that fails its execution stops the test once the model allows it.
    if !x.failures.is_empty() {
        let go_on = !lg.is_sliced() && non_address::check(&x, &ev, &mut lg, exact, &SourceRef { file, text }, deadline)?;
        if !go_on {
            return Ok(Tried::Again(Prepared { test, isa, ev }));
        }
    }
    let shown = if opts.outcomereads {
        let mut keep = test.filter.as_ref().map_or(B::T, |f| prop_lit(f, &places, &ev, &mut lg));
        if opts.relevant {
            let r = checks::relevant(&test, &places, &ev, &mut lg);
            keep = lg.and2(keep, r);
        }
        match reads::reached(shown, &ev, &x, &mut lg, (keep, cut, exact), file, deadline)? {
            Some(s) => s,
            None => return Ok(Tried::Again(Prepared { test, isa, ev })),
        }
    } else {
        shown
    };
    let casts: Vec<Option<PrintCast>> = shown
        .iter()
        .map(|l| PrintCast::of(init_of(&test.init, l).and_then(|i| i.ty.as_deref())))
        .collect();
    let mut out = Outcome::empty(test, &lg, opts.hexa);
    let shown_at: Vec<usize> =
        shown.iter().map(|l| places.iter().rposition(|(q, _)| q == l).expect("shown places have values")).collect();
    let view = View {
        places: &places,
        shown_at: &shown_at,
        casts: &casts,
        flag_lits: &flag_lits,
        cut,
        loops: &loops,
        ev: &ev,
        x: &x,
        herd: herd.as_ref(),
    };
    if opts.fast {
        return Ok(match run_fast(out, &mut lg, &view, exact, file, opts, deadline)? {
            Tried::Answered(out) => Tried::Answered(out),
            Tried::Again(test) => Tried::Again(Prepared { test, isa, ev }),
        });
    }
    // herd drops the executions the filter rejects before counting anything, so the
    // solver need not visit them (the filter reads only final values).
    if let Some(f) = &out.test.filter {
        let fl = prop_lit(f, &places, &ev, &mut lg);
        lg.assert(fl);
    }
    if opts.relevant {
        let r = checks::relevant(&out.test, &places, &ev, &mut lg);
        lg.assert(r);
    }
    let roots = listing::roots(&view, exact);
    deadline.check(file)?;
    if lg.is_sliced() {
        out.states = sliced::list(&mut out, &lg, &view, &roots).states(&shown);
        return Ok(Tried::Answered(out));
    }
    let Some(found) = listing::executions(&mut out, &mut lg, &roots, &view, exact, opts, file, deadline)? else {
        return Ok(Tried::Again(Prepared { test: out.test, isa, ev }));
    };
    out.states = found.states(&shown);
    if out.incomplete.is_some() {
        return Ok(Tried::Answered(out));
    }
    if opts.certify || opts.dimacs.is_some() {
        lg.assert(cut.negate());
        out.certificate = certificate(&out, &places, &ev, &mut lg, opts, (file, deadline))?;
    }
    Ok(Tried::Answered(out))
}

/// `--certify` and `--dimacs`: the Observation's proof over the CNF that excludes the
/// executions cut off by the unrolling bound, the condition and filter cast as herd
/// compares them.
fn certificate(
    out: &Outcome,
    places: &[(Loc, Vec<(Value, B)>)],
    ev: &Events,
    lg: &mut Logic,
    opts: &Options,
    (file, deadline): (&str, Deadline),
) -> Result<Option<String>, Diag> {
    let cast = cond_cast(&out.test);
    let p = prop_lit_cast(&out.test.cond.prop, places, ev, lg, &cast);
    let fl = out.test.filter.as_ref().map_or(B::T, |f| prop_lit_cast(f, places, ev, lg, &cast));
    crate::certify::for_outcome(out, file, lg, p, fl, opts, deadline)
}

/// `--fast`: the Observation by two solver calls, then one for the `Loop` prefix, one per
/// loop cut off, and one per flag no earlier solution raised, as herd's flags come from
/// every execution (an execution cut off by the unrolling bound raises none). The test
/// comes back where some answer rests on solutions outside the exact encoding (see
/// [`run`]).
fn run_fast(
    mut out: Outcome,
    lg: &mut Logic,
    view: &View,
    exact: B,
    file: &str,
    opts: &Options,
    deadline: Deadline,
) -> Result<Tried<Test>, Diag> {
    let p = {
        let cast = cond_cast(&out.test);
        if let Some(f) = &out.test.filter {
            let fl = prop_lit_cast(f, view.places, view.ev, lg, &cast);
            lg.assert(fl);
        }
        prop_lit_cast(&out.test.cond.prop, view.places, view.ev, lg, &cast)
    };
    // Executions cut off by the unrolling bound decide only the `Loop` prefix.
    let uncut = view.cut.negate();
    let (p_in, not_p_in) = (lg.and2(p, uncut), lg.and2(p.negate(), uncut));
    let flags: Vec<(&String, B)> = view.flag_lits.iter().map(|(n, b)| (n, lg.and2(*b, uncut))).collect();
    let mut roots = vec![p_in, not_p_in, view.cut, exact];
    roots.extend(view.loops.iter().map(|l| l.1));
    roots.extend(flags.iter().map(|f| f.1));
    deadline.check(file)?;
    let cone = lg.pruned(&roots);
    deadline.check(file)?;
    let mut q = Incremental::new(&cone, exact, file, deadline);
    let raised = |q: &Incremental, out: &mut Outcome| {
        out.flags.extend(flags.iter().filter(|f| q.holds(f.1)).map(|f| f.0.clone()));
    };
    let Some(some_p) = q.sat_with(p_in)? else { return Ok(Tried::Again(out.test)) };
    raised(&q, &mut out);
    let some_not_p = if some_p {
        let Some(s) = q.sat_with(not_p_in)? else { return Ok(Tried::Again(out.test)) };
        raised(&q, &mut out);
        s
    } else {
        true
    };
    for (name, f) in &flags {
        if !out.flags.contains(*name) {
            let Some(sat) = q.sat_with(*f)? else { return Ok(Tried::Again(out.test)) };
            if sat {
                out.flags.insert((*name).clone());
            }
        }
    }
    let Some(looped) = q.sat_with(view.cut)? else { return Ok(Tried::Again(out.test)) };
    out.looped = looped;
    for (name, b) in view.loops.iter().filter(|_| looped) {
        if q.sat_with(*b)? == Some(true) {
            out.cut_at.insert(name.clone());
        }
    }
    lg.assert(uncut);
    out.fast = Some(match (some_p, some_not_p) {
        (false, _) => Observation::Never,
        (true, false) => Observation::Always,
        (true, true) => Observation::Sometimes,
    });
    out.certificate = crate::certify::for_outcome(&out, file, lg, p, B::T, opts, deadline)?;
    Ok(Tried::Answered(out))
}

/// One incremental solver over a pruned CNF, asked under assumptions.
struct Incremental<'a> {
    solver: Solver<'a>,
    cone: &'a crate::logic::Pruned,
    /// Where the encoding is exact (see `Logic::guard`).
    exact: B,
    /// Whether the last call found a solution where the encoding is exact.
    found: bool,
    file: &'a str,
    deadline: Deadline,
}

impl<'a> Incremental<'a> {
    fn new(cone: &'a crate::logic::Pruned, exact: B, file: &'a str, deadline: Deadline) -> Self {
        let mut solver = Solver::new();
        solver.add_formula(&cone.cnf);
        Incremental { solver, cone, exact, found: false, file, deadline }
    }

    /// Some execution where `b` holds; `None` if the only solutions are where the encoding
    /// is not exact. The deadline is looked at before each solver call.
    fn sat_with(&mut self, b: B) -> Result<Option<bool>, Diag> {
        self.found = false;
        let mut assume: Vec<varisat::Lit> = match b {
            B::T => vec![],
            B::F => return Ok(Some(false)),
            B::L(l) => vec![self.cone.lit(l)],
        };
        if !self.solve(&assume)? {
            return Ok(Some(false));
        }
        let B::L(g) = self.exact else {
            self.found = true;
            return Ok(Some(true));
        };
        let g = self.cone.lit(g);
        if !holds(&self.solver, B::L(g)) {
            assume.push(g);
            if !self.solve(&assume)? {
                return Ok(None);
            }
        }
        self.found = true;
        Ok(Some(true))
    }

    /// The literals of `bs` in the solver's numbering, constants left out; `None` if one
    /// is false.
    fn lits(&self, bs: &[B]) -> Option<Vec<varisat::Lit>> {
        let mut out = Vec::with_capacity(bs.len());
        for b in bs {
            match *b {
                B::F => return None,
                B::T => {}
                B::L(l) => out.push(self.cone.lit(l)),
            }
        }
        Some(out)
    }

    /// Whether some solution, exact or not, satisfies every one of `bs`.
    fn sat_all(&mut self, bs: &[B]) -> Result<bool, Diag> {
        let Some(assume) = self.lits(bs) else { return Ok(false) };
        self.solve(&assume)
    }

    fn solve(&mut self, assume: &[varisat::Lit]) -> Result<bool, Diag> {
        self.deadline.check(self.file)?;
        self.solver.assume(assume);
        self.solver.solve().map_err(|e| Diag::file(self.file, format!("solver error: {e}")))
    }

    /// Whether `b` holds in the solution the last call found (false without one).
    fn holds(&self, b: B) -> bool {
        match b {
            B::L(l) => self.found && holds(&self.solver, B::L(self.cone.lit(l))),
            B::T => self.found,
            B::F => false,
        }
    }
}

/// What an execution's entry in the log is read from.
struct View<'a> {
    /// Value literals of the shown places and of those the filter reads.
    places: &'a [(Loc, Vec<(Value, B)>)],
    /// For each shown place, the index in `places` of its last entry (whose value counts).
    shown_at: &'a [usize],
    /// How each shown place's values print ([`PrintCast`]).
    casts: &'a [Option<PrintCast>],
    flag_lits: &'a [(String, B)],
    /// Holds where the execution went past the unrolling bound.
    cut: B,
    loops: &'a [(String, B)],
    ev: &'a Events,
    x: &'a Exec,
    /// herd's numbering, to name unsolved values (see [`herdsym`]).
    herd: Option<&'a events::HerdVars>,
}

/// The states found so far, as the values of the shown places: every state shows the
/// same places, so these sort as their [`StateKey`]s do, which are made once, at the end
/// (see [`Found::states`]). The buffers are reused from one execution to the next.
#[derive(Default)]
struct Found {
    rows: BTreeSet<Vec<SortVal>>,
    /// Each place's value (by its index in `places`) in the current execution.
    values: Vec<Option<Val>>,
    /// The current execution's shown values.
    row: Vec<SortVal>,
}

impl Found {
    /// The states, with their places.
    fn states(self, shown: &[Loc]) -> BTreeSet<StateKey> {
        self.rows.into_iter().map(|r| StateKey(shown.iter().cloned().zip(r).collect())).collect()
    }
}

/// A thread's fault as its state shows it: herd's text of the site its fault register
/// names, or nothing where it did not fault.
/// herd shows only the faults some fault atom of the condition (or filter) names.
fn fault_shown(ev: &Events, v: Option<&Val>, test: &Test) -> SortVal {
    let named = |s: &crate::litmus::FaultSite| {
        let mut atoms = Vec::new();
        test.cond.prop.fault_atoms(&mut atoms);
        if let Some(f) = &test.filter {
            f.fault_atoms(&mut atoms);
        }
        atoms.iter().any(|a| a.matches(s))
    };
    match v {
        Some(Val::Int(k)) if *k > 0 => {
            let site = ev.fault_sites.get(*k as usize - 1).filter(|s| named(s));
            SortVal::Sym(site.map(|s| s.text()).unwrap_or_default())
        }
        _ => SortVal::Sym(String::new()),
    }
}

/// Adds one execution (the model `truth`) to the outcome: its state, its side of the
/// counts and the flags it raises. herd drops an execution that went past the unrolling
/// bound, noting only that one was consistent.
fn record(out: &mut Outcome, found: &mut Found, truth: &[bool], view: &View, weight: u128) {
    let View { places, shown_at, casts, flag_lits, cut, loops, ev, x, herd } = *view;
    if cut.value(truth) {
        out.looped = true;
        out.cut_at.extend(loops.iter().filter(|l| l.1.value(truth)).map(|l| l.0.clone()));
        return;
    }
    let mut sym_name: Option<Option<usize>> = None;
    // Each place's value, by its index in `places` (no location cloned per execution).
    found.values.clear();
    found.values.extend(places.iter().map(|(_, lits)| {
        let v = holding(lits, truth)?;
        Some(match (v, herd) {
            (Value::Sym, Some(hv)) => match *sym_name.get_or_insert_with(|| herdsym::name(ev, x, truth, hv)) {
                Some(n) => Val::Sym(format!("S{n}")),
                None => ev.show_value(v),
            },
            _ => ev.show_value(v),
        })
    }));
    let values = &found.values;
    // A place listed twice has the value it was last given; the proposition compares it
    // under the place's type, as herd does.
    let get = |l: &Loc| {
        let v = places.iter().zip(values).rev().find_map(|((q, _), v)| v.as_ref().filter(|_| q == l)).cloned();
        v.map(|v| match v {
            Val::Int(i) => Val::Int(cast_int(init_of(&out.test.init, l), i)),
            v => v,
        })
    };
    // The filter is asserted; this only guards against a place without a value.
    if !out.test.filter.as_ref().is_none_or(|f| f.eval(&get)) {
        return;
    }
    if out.test.cond.prop.eval(&get) {
        out.pos = out.pos.saturating_add(weight);
    } else {
        out.neg = out.neg.saturating_add(weight);
    }
    found.row.clear();
    found.row.extend(shown_at.iter().zip(casts).map(|(&k, cast)| {
        if matches!(&places[k].0, Loc::Reg(_, r) if r == crate::litmus::FAULT_REG) {
            return fault_shown(ev, values[k].as_ref(), &out.test);
        }
        match (values[k].as_ref().map(SortVal::from).unwrap_or(SortVal::Int(0)), cast) {
            (SortVal::Int(i), Some(c)) => c.apply(i),
            (v, _) => v,
        }
    }));
    // Most executions show a new state: one search, not a lookup and then an insertion.
    found.rows.insert(found.row.clone());
    for (name, b) in flag_lits {
        // Most executions raise a flag another already raised: no name is cloned for them.
        if b.value(truth) && !out.flags.contains(name) {
            out.flags.insert(name.clone());
        }
    }
}
