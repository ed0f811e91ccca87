//! Arguments shared by the subcommands, so that each subcommand's module can take them.

use litsat::cat::cfg::{Settings, Speedcheck};
use litsat::cat::{ModelSpec, Models};
use litsat::diag::Diag;
use litsat::query::Options;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Clone)]
pub struct ModelArgs {
    /// A bundled model (sc, tso, relaxed, rvwmo, aarch64, c11, rc11, power, armv7), a .cat
    /// or .cfg file, or `lkmm`; default: herd's for each test's architecture.
    ///
    /// `lkmm` is linux-kernel.cfg, found in the current folder, -I or
    /// LITSAT_LIB. With --conf, a .cat here replaces the cfg's `model` line. Without a
    /// model, each test gets herd's default for its architecture (tso for X86 and X86_64,
    /// aarch64, rvwmo for RISC-V, power for PPC, armv7 for ARM, c11 for C). For AArch64,
    /// herd's default is Arm's current aarch64.cat: used where it is found in the current
    /// folder or on the search path (-I, LITSAT_LIB, HERDLIB, herd's install folders);
    /// elsewhere the bundled aarch64 (the 2018 model) stands in, with a note on stderr.
    #[arg(short, long)]
    pub model: Option<String>,
    /// A herd configuration file (herd's -conf): its macros, bell, model and variant
    /// lines.
    ///
    /// The files it names are found in the current folder, -I, LITSAT_LIB, then
    /// the bundled library, never in the cfg's own folder.
    #[arg(long, value_name = "FILE")]
    pub conf: Option<String>,
    /// A bell file, evaluated before the model (replaces the cfg's).
    #[arg(long, value_name = "FILE")]
    pub bell: Option<String>,
    /// A macros (.def) file for C tests (replaces the cfg's).
    #[arg(long, value_name = "FILE")]
    pub macros: Option<String>,
    /// Extra folders searched for included .cat files (and, with a cfg, the files it
    /// names), in order.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Variants set for `if "variant"` in models, comma-separated; added to the cfg's.
    #[arg(long, value_delimiter = ',', value_parser = parse_variant)]
    pub variant: Vec<String>,
    /// Checks (by `as` name) to skip, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub skipchecks: Vec<String>,
    /// herd's -through: `all` or `invalid` lets every execution through every check but
    /// the flags; `none` (the default) applies them.
    #[arg(long, value_name = "all|invalid|none", value_parser = parse_through)]
    pub through: Option<bool>,
    /// herd's -throughflag: only the executions that raise this flag are kept.
    #[arg(long, value_name = "FLAG")]
    pub throughflag: Option<String>,
    /// herd's -checkfilter: `false` keeps the executions the test's filter rejects.
    #[arg(long, value_name = "BOOL")]
    pub checkfilter: Option<bool>,
    /// Stop a test after this many seconds (it is reported as a timeout).
    ///
    /// Every phase
    /// looks at the clock: building events, evaluating the model, solving (between solver
    /// calls) and certifying.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
    /// Refuse tests with more events than this.
    #[arg(long, value_name = "N")]
    pub max_events: Option<usize>,
    /// Answer only the verdict (the Observation) and the flags, as herd's -speedcheck.
    ///
    /// The verdict takes two solver calls, and the flags the model raises one more call
    /// per flag not raised by then; counts are printed `0 0`, as herd's -speedcheck does.
    #[arg(long)]
    pub fast: bool,
    /// herd's -speedcheck: `fast` is --fast; `true` lists only the executions that
    /// decide the condition (those satisfying exists or ~exists, those falsifying
    /// forall), and reads the Observation as herd does then.
    #[arg(long, value_name = "false|true|fast", value_parser = parse_speedcheck)]
    pub speedcheck: Option<Speedcheck>,
    /// herd's -strictskip true: keep only the executions that fail every check named by
    /// --skipchecks (and pass the others).
    #[arg(long)]
    pub strictskip: bool,
    /// herd's -candidates true: add the `Candidates` line, the executions the model
    /// rejected or kept.
    #[arg(long)]
    pub candidates: bool,
    /// herd's -outcomereads true: a state shows every register written by an instruction
    /// that reads memory, and no other register.
    #[arg(long)]
    pub outcomereads: bool,
    /// Check each verdict's solver answers apart from the solver (proofs and models).
    ///
    /// A proof of every UNSAT answer behind each verdict, and a model of every SAT one,
    /// are checked apart from the solver; the log gets a `Certificate` line. A verdict whose
    /// certificate does not check is an error (exit status 1), not an answer.
    #[arg(long)]
    pub certify: bool,
    /// Write each test's two queries as DIMACS CNF files DIR/NAME.q1.cnf and .q2.cnf.
    ///
    /// The queries are the condition and its negation. NAME is the test file's name
    /// without .litmus; where inputs share it, it keeps as many of its folders as tell them apart
    /// (DIR/ATOM/SB.q1.cnf and DIR/LDAR/SB.q1.cnf), so no test overwrites another's.
    #[arg(long, value_name = "DIR")]
    pub dimacs: Option<PathBuf>,
    /// Enter each loop's body at most N times (herd's -unroll, default 2), or `auto`.
    ///
    /// An execution
    /// that needs more is dropped, and the verdict gets herd's `Loop` prefix. `auto`
    /// raises the bound from 2 until no execution needs more (up to 16), so that Never
    /// means never.
    #[arg(long, value_name = "N|auto", value_parser = parse_unroll)]
    pub unroll: Option<Unroll>,
    /// Full logs: list at most N executions one by one, then count the rest per state.
    ///
    /// The rest are counted by projected model counting. By default, 2048, and only where many
    /// executions share a state; 0 counts from the start.
    #[arg(long, value_name = "N")]
    pub count_after: Option<u64>,
    /// Print the log's numbers in hexadecimal (herd's -hexa).
    #[arg(long)]
    pub hexa: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

/// `--unroll`'s value.
#[derive(Clone, Copy, Debug)]
pub enum Unroll {
    Bound(usize),
    Auto,
}

/// A number of seconds that makes a [`Duration`]: not negative, not NaN, not too large
/// (where `Duration::from_secs_f64` would panic).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let x: f64 = s.parse().map_err(|_| format!("expected a number of seconds, found `{s}`"))?;
    Duration::try_from_secs_f64(x).map(|_| x).map_err(|_| format!("expected a number of seconds, found `{s}`"))
}

fn parse_unroll(s: &str) -> Result<Unroll, String> {
    match s {
        "auto" => Ok(Unroll::Auto),
        n => n.parse().map(Unroll::Bound).map_err(|_| format!("expected a number or `auto`, found `{n}`")),
    }
}

impl ModelArgs {
    /// The files the flags name the model with.
    pub fn spec(&self) -> ModelSpec {
        ModelSpec {
            model: self.model.clone(),
            conf: self.conf.clone(),
            bell: self.bell.clone(),
            macros: self.macros.clone(),
        }
    }
}

/// Loads the model (or the architectures' defaults) and turns the flags into [`Options`]
/// (`--variant`'s variants: each test adds its model cfg's before them); sets the worker
/// count.
pub fn setup(m: &ModelArgs) -> Result<(Models, Options), Diag> {
    let (models, opts) = setup_herd7(m)?;
    let cfg = m.conf.clone().or_else(|| m.model.clone()).unwrap_or_default();
    no_per_test_files(&models.settings(), &cfg)?;
    Ok((models, opts))
}

/// A cfg's per-test files (`names`, `excl`, `kinds`, `conds`, `rename`): herd7's command
/// line reads them, litsat's own commands do not (they have no `-kinds`, `-conds` or
/// `-rename`), so they refuse such a cfg by the key's name rather than drop it.
pub fn no_per_test_files(settings: &Settings, cfg: &str) -> Result<(), Diag> {
    match settings.maps.keys().first() {
        Some(key) => Err(Diag::file(
            cfg,
            format!("the cfg key `{key}` names herd's per-test files, which only `litsat herd7 -conf {cfg}` reads"),
        )),
        None => Ok(()),
    }
}

/// [`setup`] for litsat's `herd7` command line, which reads a cfg's per-test files
/// (`names`, `excl`, `kinds`, `conds`, `rename`) itself.
pub fn setup_herd7(m: &ModelArgs) -> Result<(Models, Options), Diag> {
    let models = Models::load(&m.spec(), &m.include)?;
    let opts = Options::new()
        .variants(m.variant.clone())
        .skipchecks(m.skipchecks.clone())
        .through(m.through == Some(true))
        .throughflag(m.throughflag.clone())
        .checkfilter(m.checkfilter != Some(false))
        .timeout(m.timeout.map(Duration::from_secs_f64))
        .max_events(m.max_events)
        .fast(m.fast || m.speedcheck == Some(Speedcheck::Fast))
        .relevant(m.speedcheck == Some(Speedcheck::True))
        .strictskip(m.strictskip)
        .candidates(m.candidates)
        .outcomereads(m.outcomereads)
        .certify(m.certify)
        .dimacs(m.dimacs.clone())
        .unroll(match m.unroll {
            Some(Unroll::Bound(n)) => Some(n),
            _ => None,
        })
        .auto_unroll(matches!(m.unroll, Some(Unroll::Auto)))
        .count_after(m.count_after)
        .hexa(m.hexa);
    if let Some(j) = m.jobs {
        // Only the first call configures the global pool; later ones are harmless. This
        // thread is one of the `j` (it would only wait for the others): under `-j1` no
        // thread is started at all, and the tests run here.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(j).use_current_thread().build_global();
    }
    Ok((models, opts))
}

/// `--speedcheck`'s value, as the cfg's `speedcheck` reads it.
fn parse_speedcheck(v: &str) -> Result<Speedcheck, String> {
    litsat::cat::cfg::speedcheck(v)
}

/// One of `--variant`'s names, as herd's `-variant` takes them.
pub(crate) fn parse_variant(v: &str) -> Result<String, String> {
    litsat::variant::parse_list(v)?.pop().ok_or_else(|| "expected a variant name".to_string())
}

/// `--through`'s value, as herd's `-through` and the cfg's `through` read it.
fn parse_through(v: &str) -> Result<bool, String> {
    litsat::cat::cfg::through(v)
}

/// The two models a comparing command reads (`diff`, `distinguish`): `-m A -m B`.
#[derive(clap::Args, Clone, Debug)]
pub struct TwoModels {
    /// The two models, A then B (`-m A -m B`): bundled names, paths to .cat or .cfg files,
    /// or `lkmm`.
    #[arg(short, long = "model", value_name = "MODEL", required = true)]
    pub models: Vec<String>,
    /// Extra folders searched for included .cat files, in order.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
}

impl TwoModels {
    /// A and B, or an error naming `command` where not exactly two models were given.
    pub fn pair(&self, command: &str) -> Result<(&str, &str), Diag> {
        match self.models.as_slice() {
            [a, b] => Ok((a, b)),
            m => Err(Diag::file(command, format!("expected exactly two models (-m A -m B), found {}", m.len()))),
        }
    }
}
