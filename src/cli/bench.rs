//! `litsat bench`: throughput over a corpus and cost over growing test families, measured
//! in one run, with ratios against a baseline from the same run and an SVG plot.
//!
//! Every test is answered on one thread from text already in memory (parse, events,
//! encoding, model, solving), so the figures measure the checker and not the disk. Small
//! tests are repeated and the median kept. The parallel pass over a corpus reads the files,
//! as `litsat run` does, to give a wall time on all the worker threads.

mod chart;
mod counting;
mod distinguish;
mod locks;
mod loops;
mod rcu;

use crate::cli::generate::{self, Family};
use crate::clock::{process_cpu, thread_cpu};
use crate::driver::{check_file, collect_inputs};
use litsat::cat::{Program, compile_model_with, load_program};
use litsat::diag::{Deadline, Diag, DiagKind};
use litsat::encode::exec;
use litsat::litmus::parse_test;
use litsat::logic::Logic;
use litsat::query::{self, Options};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Corpus folders, files or @LISTs to measure throughput on (default: the project's
    /// `litmus/`).
    #[arg(long, value_name = "DIR")]
    pub corpus: Vec<String>,
    /// The model for the corpus and the families (bundled name or .cat path).
    #[arg(short, long, default_value = "tso")]
    pub model: String,
    /// Also measure the shared corpora when present: dat3m RISCV (rvwmo), C11 (c11), PPC
    /// (power), the ARM campaign third (armv7) and the LKMM scale tests.
    #[arg(long)]
    pub shared: bool,
    /// Measure only `--fast` answers (no full logs).
    #[arg(long)]
    pub fast: bool,
    /// Small families, fewer repetitions, no shared corpus: a smoke run of a few seconds.
    #[arg(long)]
    pub quick: bool,
    /// Where to write the plot of time against events.
    #[arg(long, value_name = "FILE", default_value = "bench/plot.svg")]
    pub svg: PathBuf,
    /// Do not write the plot.
    #[arg(long)]
    pub no_svg: bool,
    /// Runs per small test; the median is reported.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub reps: usize,
    /// Stop a full-log answer after this many seconds (reported as a timeout).
    #[arg(long, value_name = "S", default_value_t = 15.0, value_parser = crate::cli::args::parse_seconds)]
    pub budget: f64,
    /// Worker threads for the parallel corpus pass (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Run only this section of the shared benchmark (the corpora and models beside the
    /// project).
    #[arg(long, value_enum, value_name = "SECTION")]
    pub only: Option<Section>,
}

/// A section `--only` runs by itself.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The kernel's RCU ring from `litsat gen rcu`, 10 to 19 processes.
    Rcu,
    /// The `lkmm/paulmck` tests herd did not answer in 25 s.
    LkmmUnanswered,
    /// Dat3M's AArch64 tests under herd's `aarch64.cat`, ordinary and mixed-size, beside
    /// herd's own time for them.
    Aarch64,
    /// `litsat distinguish`'s acceptance rows (issue #40).
    Distinguish,
}

/// How one answer ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Done,
    Timeout,
    Error(String),
}

/// One mode's answer to one test.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Median seconds over the repetitions (the time to the timeout for a timeout).
    pub seconds: f64,
    pub status: Status,
    pub observation: String,
    pub states: usize,
    pub executions: u128,
}

/// One test, measured.
#[derive(Clone, Debug)]
pub struct Measured {
    pub name: String,
    pub events: usize,
    pub vars: usize,
    pub clauses: usize,
    /// Seconds to parse, build events, encode executions and compile the model: the CNF
    /// construction, without any solver call.
    pub build: f64,
    pub full: Option<Answer>,
    pub fast: Answer,
}

/// Times one piece of work on this thread: its CPU time where Linux reports it (robust
/// on a loaded machine), else its wall time.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let (c0, w0) = (thread_cpu(), Instant::now());
    let r = f();
    let wall = w0.elapsed().as_secs_f64();
    let s = match (c0, thread_cpu()) {
        (Some(a), Some(b)) if b >= a => b - a,
        _ => wall,
    };
    (s, r)
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) / 2]
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

/// Answers a test `reps` times (once if it is slow) and keeps the median.
fn answer(name: &str, text: &str, prog: &Program, opts: &Options, reps: usize) -> Answer {
    let once = || timed(|| parse_test(name, text).and_then(|t| query::run(t, name, text, prog, opts)?.complete()));
    // A first run warms the caches; it is the only sample of a slow test.
    let (s, r) = once();
    let mut times = vec![s];
    let mut last = Some(r);
    if s <= 0.25 && last.as_ref().is_some_and(|r| r.is_ok()) && reps > 1 {
        times.clear();
        for _ in 0..reps {
            let (s, r) = once();
            times.push(s);
            last = Some(r);
        }
    }
    let seconds = median(&mut times);
    match last {
        Some(Ok(o)) => Answer {
            seconds,
            status: Status::Done,
            observation: o.observation().to_string(),
            states: o.states.len(),
            executions: o.pos + o.neg,
        },
        Some(Err(d)) => Answer {
            seconds,
            status: if d.kind == DiagKind::Limit { Status::Timeout } else { Status::Error(d.to_string()) },
            observation: String::new(),
            states: 0,
            executions: 0,
        },
        None => unreachable!("at least one repetition"),
    }
}

/// The CNF construction alone, as `query::run` does it before its first solver call:
/// events, CNF variables, seconds.
fn build(name: &str, text: &str, prog: &Program, opts: &Options) -> Result<(usize, usize, usize, f64), Diag> {
    let (s, r) = timed(|| build_cnf(name, text, prog, opts));
    r.map(|(e, v, c)| (e, v, c, s))
}

fn build_cnf(name: &str, text: &str, prog: &Program, opts: &Options) -> Result<(usize, usize, usize), Diag> {
    let mut test = parse_test(name, text)?;
    // The events as the query builds them: under the variants, with the model's macros
    // and its register events.
    let variants = query::variants_of(prog, opts, &test);
    test.variants = variants.clone();
    let ev_opts = (prog.macro_file(), opts.unroll_bound(), prog.catdep);
    let (_, _, ev) = query::prepare_until(test, name, text, ev_opts, Deadline::NONE)?;
    let mut lg = Logic::new();
    let x = exec::encode(&ev, &mut lg).map_err(|m| Diag::file(name, m))?;
    let b = exec::builtins(&ev, &x, &mut lg);
    let checks = compile_model_with(prog, &mut lg, b, &variants, true, Deadline::NONE)?.checks;
    for c in &checks {
        if !c.flag {
            lg.assert(c.ok);
        }
    }
    Ok((ev.len(), lg.num_vars(), lg.num_clauses()))
}

/// Measures one test in both modes (full logs unless `fast_only`).
pub fn measure(
    name: &str,
    text: &str,
    prog: &Program,
    base: &Options,
    reps: usize,
    budget: f64,
    fast_only: bool,
) -> Measured {
    let (events, _, _, build_s) = build(name, text, prog, base).unwrap_or((0, 0, 0, 0.0));
    let mut builds = vec![build_s];
    if build_s <= 0.05 && reps > 1 {
        builds.clear();
        for _ in 0..reps {
            if let Ok(b) = build(name, text, prog, base) {
                builds.push(b.3);
            }
        }
    }
    let fast_opts = base.clone().fast(true);
    let fast = answer(name, text, prog, &fast_opts, reps);
    let full = (!fast_only).then(|| {
        let o = base.clone().fast(false).timeout(Some(Duration::from_secs_f64(budget)));
        answer(name, text, prog, &o, reps)
    });
    // The sizes of the CNF the solver gets (the condition's literals included).
    let (vars, clauses) = match parse_test(name, text).and_then(|t| query::run(t, name, text, prog, &fast_opts)) {
        Ok(o) => (o.vars, o.clauses),
        Err(_) => (0, 0),
    };
    Measured { name: name.to_string(), events, vars, clauses, build: median(&mut builds), full, fast }
}

/// The members of each family the benchmark measures.
pub fn family_plan(quick: bool) -> Vec<(Family, Vec<Vec<usize>>)> {
    let co = |ts: std::ops::RangeInclusive<usize>, ks: std::ops::RangeInclusive<usize>| {
        ts.flat_map(|t| ks.clone().map(move |k| vec![t, k])).collect::<Vec<_>>()
    };
    let one = |r: std::ops::RangeInclusive<usize>| r.map(|n| vec![n]).collect::<Vec<_>>();
    if quick {
        vec![
            (Family::Co, co(2..=3, 1..=2)),
            (Family::Sb, one(2..=4)),
            (Family::Iriw, one(2..=3)),
            (Family::Mp, one(1..=3)),
        ]
    } else {
        vec![
            (Family::Co, co(2..=4, 1..=3)),
            (Family::Sb, one(2..=12)),
            (Family::Iriw, one(2..=6)),
            (Family::Mp, one(1..=8)),
        ]
    }
}

fn ms(s: f64) -> String {
    if s >= 10.0 {
        format!("{:.1} s", s)
    } else if s >= 1.0 {
        format!("{:.2} s", s)
    } else if s >= 0.01 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.3} ms", s * 1e3)
    }
}

fn time_cell(a: &Answer) -> String {
    match &a.status {
        Status::Done => ms(a.seconds),
        Status::Timeout => format!("> {} (timeout)", ms(a.seconds)),
        Status::Error(_) => "error".to_string(),
    }
}

fn model_key(m: &str) -> String {
    m.rsplit('/').next().unwrap_or(m).trim_end_matches(".cat").to_string()
}

/// The results of the family runs, kept for the targets and the plot.
pub struct FamilyRun {
    pub family: Family,
    pub members: Vec<(Vec<usize>, Measured)>,
}

/// The results of one corpus, kept for the targets.
pub struct CorpusRun {
    pub label: String,
    pub model: String,
    pub tests: usize,
    pub errors: usize,
    pub full_total: f64,
    pub fast_total: f64,
    pub full_max: (f64, String),
    pub fast_max: (f64, String),
    pub full_wall: Option<f64>,
    pub fast_wall: Option<f64>,
    /// CPU seconds of the parallel passes, all threads together.
    pub full_cpu: Option<f64>,
    pub fast_cpu: Option<f64>,
    pub threads: usize,
    /// herd's own time for the same tests (the sum of its log's `Time` lines), where
    /// known.
    pub herd: Option<f64>,
}

fn corpus(
    out: &mut String,
    label: &str,
    inputs: &[String],
    model: &str,
    args: &Args,
    pool: &rayon::ThreadPool,
) -> Result<CorpusRun, Diag> {
    corpus_in(out, label, inputs, model, (&[], &[]), args, pool)
}

/// [`corpus`], with folders to find the model's files in (a cfg's bell, cat and macros)
/// and variants beside the model's own (herd's `-variant`).
fn corpus_in(
    out: &mut String,
    label: &str,
    inputs: &[String],
    model: &str,
    (includes, variants): (&[PathBuf], &[&str]),
    args: &Args,
    pool: &rayon::ThreadPool,
) -> Result<CorpusRun, Diag> {
    let (fast_only, quick, budget) = (args.fast, args.quick, args.budget);
    let prog = load_program(model, includes)?;
    super::args::no_per_test_files(&prog.settings, model)?;
    let files = crate::driver::select(collect_inputs(inputs)?, &prog.settings);
    let mut texts = Vec::new();
    for f in &files {
        let name = f.to_string_lossy().to_string();
        let text = std::fs::read(f).map_err(|e| Diag::file(&name, format!("cannot read: {e}")))?;
        texts.push((name, String::from_utf8_lossy(&text).to_string()));
    }
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    let base = Options::new().timeout(Some(Duration::from_secs_f64(budget))).variants(prog.variants_with(&variants));
    let fast_opts = base.clone().fast(true);
    struct Row {
        name: String,
        full: Option<f64>,
        fast: f64,
        ok: bool,
        vars: usize,
        clauses: usize,
        execs: u128,
    }
    let mut rows = Vec::new();
    for (name, text) in &texts {
        let one = |o: &Options| {
            timed(|| parse_test(name, text).and_then(|t| query::run(t, name, text, &prog, o)?.complete()))
        };
        let (fast, rf) = one(&fast_opts);
        let (full, execs) = if fast_only {
            (None, 0)
        } else {
            let (s, r) = one(&base);
            (Some(s), r.map(|o| o.pos + o.neg).unwrap_or(0))
        };
        let (ok, vars, clauses) = match &rf {
            Ok(o) => (true, o.vars, o.clauses),
            Err(_) => (false, 0, 0),
        };
        rows.push(Row { name: name.clone(), full, fast, ok, vars, clauses, execs });
    }
    let n = rows.len();
    let errors = rows.iter().filter(|r| !r.ok).count();
    let wall = |o: &Options| {
        let c0 = process_cpu();
        let start = Instant::now();
        pool.install(|| files.par_iter().for_each(|f| drop(check_file(f, &prog, o))));
        let w = start.elapsed().as_secs_f64();
        (w, c0.zip(process_cpu()).map(|(a, b)| b - a))
    };
    let (fast_wall, fast_cpu) = wall(&fast_opts);
    let full = (!fast_only).then(|| wall(&base));
    // Full logs by listing every execution, without counting (issue #15), against the
    // default: passes alternating, so that drift in the machine's load falls on both.
    let listing = base.clone().count_after(Some(u64::MAX));
    let rounds = if quick || fast_only { 0 } else { 3 };
    let (mut counted, mut listed) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        counted.extend(wall(&base).1);
        listed.extend(wall(&listing).1);
    }
    let full_wall = full.map(|f| f.0);
    let _ = writeln!(out, "\n## Corpus {label} under {} ({n} tests, {errors} not answered)\n", model_key(model));
    let _ = writeln!(
        out,
        "| mode | tests/s (1 thread) | total | median | p99 | max (test) | wall on {t} threads | CPU on {t} threads | tests/s ({t} threads, wall) |",
        t = pool.current_num_threads()
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    let mut line = |mode: &str, times: Vec<(f64, &str)>, (wall, cpu): (f64, Option<f64>)| -> (f64, (f64, String)) {
        let total: f64 = times.iter().map(|t| t.0).sum();
        let mut sorted: Vec<f64> = times.iter().map(|t| t.0).collect();
        sorted.sort_by(f64::total_cmp);
        let max = times.iter().cloned().fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a });
        let short = max.1.rsplit('/').next().unwrap_or(max.1);
        let _ = writeln!(
            out,
            "| {mode} | {:.0} | {} | {} | {} | {} ({short}) | {} | {} | {:.0} |",
            n as f64 / total.max(1e-9),
            ms(total),
            ms(quantile(&sorted, 0.5)),
            ms(quantile(&sorted, 0.99)),
            ms(max.0),
            ms(wall),
            cpu.map(ms).unwrap_or_else(|| "-".into()),
            n as f64 / wall.max(1e-9)
        );
        (total, (max.0, max.1.to_string()))
    };
    let (full_total, full_max) = match full {
        Some(w) => line("full logs", rows.iter().map(|r| (r.full.unwrap_or(0.0), r.name.as_str())).collect(), w),
        None => (0.0, (0.0, String::new())),
    };
    let (fast_total, fast_max) =
        line("--fast", rows.iter().map(|r| (r.fast, r.name.as_str())).collect(), (fast_wall, fast_cpu));
    if !fast_only {
        let _ = writeln!(
            out,
            "\nFull logs / --fast, total time on 1 thread: {:.2}×. Executions counted by the full logs: {}.",
            full_total / fast_total.max(1e-9),
            rows.iter().map(|r| r.execs).sum::<u128>()
        );
        if !counted.is_empty() && !listed.is_empty() {
            let (c, l) = (median(&mut counted), median(&mut listed));
            let _ = writeln!(
                out,
                "Full logs by counting against listing every execution (median CPU of {rounds} alternating parallel passes each): {} against {}, {:+.1}%.",
                ms(c),
                ms(l),
                100.0 * (c / l.max(1e-9) - 1.0)
            );
        }
    }
    // Where the --fast time goes: the CNF construction alone, on the same tests.
    let build_total: f64 =
        texts.iter().map(|(name, text)| build(name, text, &prog, &base).map(|b| b.3).unwrap_or(0.0)).sum();
    let _ = writeln!(
        out,
        "CNF construction (parse, events, encoding, model; no solver call): {} in all, {:.0}% of the --fast total{}.",
        ms(build_total),
        100.0 * build_total / fast_total.max(1e-9),
        if fast_only {
            String::new()
        } else {
            format!(", {:.0}% of the full-log total", 100.0 * build_total / full_total.max(1e-9))
        }
    );
    let answered: Vec<&Row> = rows.iter().filter(|r| r.ok).collect();
    let mut vars: Vec<f64> = answered.iter().map(|r| r.vars as f64).collect();
    let mut clauses: Vec<f64> = answered.iter().map(|r| r.clauses as f64).collect();
    vars.sort_by(f64::total_cmp);
    clauses.sort_by(f64::total_cmp);
    let biggest = answered.iter().max_by_key(|r| r.clauses).map(|r| r.name.rsplit('/').next().unwrap_or(&r.name));
    let _ = writeln!(
        out,
        "CNF per test: variables median {:.0}, max {:.0}; clauses median {:.0}, max {:.0} ({}).",
        quantile(&vars, 0.5),
        vars.last().copied().unwrap_or(0.0),
        quantile(&clauses, 0.5),
        clauses.last().copied().unwrap_or(0.0),
        biggest.unwrap_or("-")
    );
    if quick {
        let _ = writeln!(out, "(quick run: one answer a test)");
    }
    Ok(CorpusRun {
        label: label.to_string(),
        model: model_key(model),
        tests: n,
        errors,
        full_total,
        fast_total,
        full_max,
        fast_max,
        full_wall,
        fast_wall: Some(fast_wall),
        full_cpu: full.and_then(|f| f.1),
        fast_cpu,
        threads: pool.current_num_threads(),
        herd: None,
    })
}

/// The shared corpora `--shared` adds, beside the project (`../shared/corpus/<dir>`), each
/// under the bundled model standing for herd's default for its architecture.
const SHARED_SUITES: &[(&str, &str)] =
    &[("dat3m/RISCV", "rvwmo"), ("dat3m/C11", "c11"), ("dat3m/PPC", "power"), ("herd-campaign/arm", "armv7")];

/// Dat3M's AArch64 tests that herd's TSVs list, under herd's current `aarch64.cat`, with
/// herd's own time for them (the sum of the `Time` lines of its raw log) and the variants
/// herd ran them under: the ordinary tests (issue #36) and the mixed-size ones (#38).
const AARCH64_HERD: &[(&str, &str, &str, &[&str])] = &[
    (
        "expected/dat3m-aarch64.aarch64.tsv",
        "expected/logs/dat3m-aarch64.aarch64.log",
        "dat3m/AARCH64 (herd's aarch64.cat)",
        &[],
    ),
    (
        "expected/dat3m-aarch64-mixed.aarch64.tsv",
        "expected/logs/dat3m-aarch64-mixed.aarch64.log",
        "dat3m/AARCH64/mixed (herd's aarch64.cat, -variant mixed)",
        &["mixed"],
    ),
];

/// Measures one row of [`AARCH64_HERD`] where the shared corpus and herd's library are
/// beside the project; notes the skip otherwise.
fn aarch64_herd(
    out: &mut String,
    (tsv, log, label, variants): (&str, &str, &str, &[&str]),
    args: &Args,
    pool: &rayon::ThreadPool,
) -> Result<Option<CorpusRun>, Diag> {
    let (corpus, lib) = (project_path("../shared/corpus"), project_path("../shared/models/herd"));
    let (Ok(listed), Ok(log)) = (std::fs::read_to_string(corpus.join(tsv)), std::fs::read_to_string(corpus.join(log)))
    else {
        let _ = writeln!(
            out,
            "
({tsv} or its log not found beside the project: skipped)"
        );
        return Ok(None);
    };
    let inputs: Vec<String> =
        listed.lines().filter_map(|l| l.split('\t').next()).map(|p| corpus.join(p).to_string_lossy().into()).collect();
    let model = lib.join("aarch64.cat").to_string_lossy().to_string();
    let mut run = corpus_in(out, label, &inputs, &model, (&[lib], variants), args, pool)?;
    run.herd = Some(herd_time(&log));
    Ok(Some(run))
}

/// The sum of a herd log's `Time NAME SECONDS` lines.
fn herd_time(log: &str) -> f64 {
    let secs = |l: &str| l.strip_prefix("Time ")?.rsplit(' ').next()?.parse::<f64>().ok();
    log.lines().filter_map(secs).sum()
}

/// The project's folders: next to the sources the binary was built from, or the
/// current folder.
fn project_path(rel: &str) -> PathBuf {
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if built.exists() { built } else { PathBuf::from(rel) }
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    let (report, ok) = run(&args)?;
    crate::out::print(&report);
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Runs the benchmark and returns its report (markdown) and whether every answer was
/// right (fast and full Observations agree and match the families' expectations).
pub fn run(args: &Args) -> Result<(String, bool), Diag> {
    let started = Instant::now();
    let reps = if args.quick { args.reps.min(2) } else { args.reps }.max(1);
    let threads = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Diag::file("litsat bench", format!("cannot start threads: {e}")))?;
    let mut out = String::new();
    let mut ok = true;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let clock = if thread_cpu().is_some() { "thread CPU time" } else { "wall time" };
    if let Some(section) = args.only {
        let _ = writeln!(
            out,
            "# litsat bench --only\n\nPer-test times are {clock}, one run each; full logs stopped after {} s; load average {load}.",
            args.budget
        );
        return only(out, section, args, &pool);
    }
    let _ = writeln!(
        out,
        "# litsat bench\n\nModel {}; per-test times are {clock}, the median of {} run(s) for small tests; full logs stopped after {} s; {} worker thread(s) for the parallel pass; load average {}.",
        model_key(&args.model),
        reps,
        args.budget,
        threads,
        load
    );

    // The baseline: SB (two threads) under sc, full logs, many repetitions.
    let sc = load_program("sc", &[])?;
    let sb2 = generate::sb(2).map_err(|m| Diag::file("litsat bench", m))?;
    let base = measure(&sb2.name, &sb2.text, &sc, &Options::default(), reps.max(5) * 4, args.budget, false);
    let baseline = base.full.as_ref().map(|a| a.seconds).unwrap_or(base.fast.seconds).max(1e-9);
    let _ = writeln!(
        out,
        "\nBaseline: {} under sc with full logs takes {} (--fast: {}). Columns `× SB` divide by it.",
        sb2.name,
        ms(baseline),
        ms(base.fast.seconds)
    );

    // Corpora.
    let mut corpora = Vec::new();
    let inputs: Vec<String> = if args.corpus.is_empty() {
        vec![project_path("litmus").to_string_lossy().to_string()]
    } else {
        args.corpus.clone()
    };
    let label = if args.corpus.is_empty() { "litmus/".to_string() } else { inputs.join(" ") };
    corpora.push(corpus(&mut out, &label, &inputs, &args.model, args, &pool)?);
    let mut rcu_rows = Vec::new();
    if args.shared && !args.quick {
        for (dir, model) in SHARED_SUITES {
            let path = project_path(&format!("../shared/corpus/{dir}"));
            if path.is_dir() {
                let inputs = vec![path.to_string_lossy().to_string()];
                corpora.push(corpus(&mut out, dir, &inputs, model, args, &pool)?);
            } else {
                let _ = writeln!(out, "\n({dir} not found at {}: skipped)", path.display());
            }
        }
        for &row in AARCH64_HERD {
            corpora.extend(aarch64_herd(&mut out, row, args, &pool)?);
        }
        // The LKMM scale tests (10 and 16 processes) under linux-kernel.cfg.
        let lkmm = project_path("../shared/models/lkmm");
        let scale = project_path("../shared/corpus/lkmm/scale");
        let cfg = lkmm.join("linux-kernel.cfg");
        if cfg.is_file() && scale.is_dir() {
            let inputs = vec![scale.to_string_lossy().to_string()];
            let cfg = cfg.to_string_lossy().to_string();
            corpora.push(corpus_in(
                &mut out,
                "lkmm/scale",
                &inputs,
                &cfg,
                (std::slice::from_ref(&lkmm), &[]),
                args,
                &pool,
            )?);
            if !args.fast {
                let prog = load_program(&cfg, &[lkmm])?;
                let (agree, rows) = rcu::section(&mut out, &prog, args.budget)?;
                ok &= agree;
                rcu_rows = rows;
                ok &= locks::section(&mut out, &project_path("../shared/corpus"), &prog, args.budget);
            }
        } else {
            let _ = writeln!(out, "\n(lkmm/scale or models/lkmm not found beside the project: skipped)");
        }
    }

    // Families.
    let prog = load_program(&args.model, &[])?;
    let mut families = Vec::new();
    for (family, plan) in family_plan(args.quick) {
        let want = generate::expected(family, &args.model);
        let _ = writeln!(out, "\n## Family {} under {}\n", family.name(), model_key(&args.model));
        let _ = writeln!(
            out,
            "| test | events | CNF vars | clauses | CNF build | --fast | full logs | states | executions | Observation | full / fast | full × SB |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|");
        let mut members = Vec::new();
        for params in plan {
            let g = generate::generate(family, &params).map_err(|m| Diag::file("litsat bench", m))?;
            let m = measure(&g.name, &g.text, &prog, &Options::default(), reps, args.budget, args.fast);
            let mut obs = m.fast.observation.clone();
            if m.fast.status != Status::Done {
                ok = false;
                obs = format!("fast: {:?}", m.fast.status);
            }
            if let Some(w) = want
                && m.fast.status == Status::Done
                && m.fast.observation != w
            {
                ok = false;
                obs = format!("{obs} (WRONG: expected {w})");
            }
            let (full_t, states, execs, ratio, times_sb) = match &m.full {
                Some(f) => {
                    if f.status == Status::Done && f.observation != m.fast.observation {
                        ok = false;
                        obs = format!("{obs} (full says {})", f.observation);
                    }
                    let done = f.status == Status::Done;
                    let more = if done { "" } else { "> " };
                    (
                        time_cell(f),
                        if done { f.states.to_string() } else { "-".into() },
                        if done { f.executions.to_string() } else { "-".into() },
                        format!("{more}{:.1}", f.seconds / m.fast.seconds.max(1e-9)),
                        format!("{more}{:.0}", f.seconds / baseline),
                    )
                }
                None => ("-".into(), "-".into(), "-".into(), "-".into(), "-".into()),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {full_t} | {states} | {execs} | {obs} | {ratio} | {times_sb} |",
                m.name,
                m.events,
                m.vars,
                m.clauses,
                ms(m.build),
                time_cell(&m.fast)
            );
            members.push((params, m));
        }
        families.push(FamilyRun { family, members });
    }

    if !args.quick {
        ok &= loops::section(&mut out, reps)?;
    }
    let counted = if args.fast { Vec::new() } else { counting_rows(&mut out, args, reps, &mut ok)? };

    targets(&mut out, &families, &corpora, args);

    if !args.no_svg {
        out.push('\n');
        ok &= plotted(&mut out, &args.svg, plot(&args.svg, &families, &model_key(&args.model)));
        if !counted.is_empty() {
            let path = counting::plot_path(&args.svg);
            ok &= plotted(&mut out, &path, counting::plot(&path, &counted));
        }
        if !rcu_rows.is_empty() {
            let path = rcu::plot_path(&args.svg);
            ok &= plotted(&mut out, &path, rcu::plot(&path, &rcu_rows));
        }
    }
    let _ = writeln!(out, "\nBenchmark wall time: {:.1} s.", started.elapsed().as_secs_f64());
    Ok((out, ok))
}

/// One section of the shared benchmark by itself (see [`Args::only`]).
fn only(mut out: String, section: Section, args: &Args, pool: &rayon::ThreadPool) -> Result<(String, bool), Diag> {
    let ok = match section {
        Section::Aarch64 => aarch64_section(&mut out, args, pool)?,
        Section::Distinguish => distinguish::section(&mut out)?,
        Section::Rcu | Section::LkmmUnanswered => lkmm_section(&mut out, section, args)?,
    };
    Ok((out, ok))
}

/// [`AARCH64_HERD`]'s corpora and their rows against herd's time.
fn aarch64_section(out: &mut String, args: &Args, pool: &rayon::ThreadPool) -> Result<bool, Diag> {
    let mut corpora = Vec::new();
    for &row in AARCH64_HERD {
        corpora.extend(aarch64_herd(out, row, args, pool)?);
    }
    let _ = writeln!(out, "\n| target | figure | verdict |\n|---|---|---|");
    Ok(against_herd(out, &corpora, args))
}

/// An LKMM section, under the kernel's cfg beside the project.
fn lkmm_section(out: &mut String, section: Section, args: &Args) -> Result<bool, Diag> {
    let lkmm = project_path("../shared/models/lkmm");
    let cfg = lkmm.join("linux-kernel.cfg");
    if !cfg.is_file() {
        let _ = writeln!(out, "\n(models/lkmm not found beside the project: skipped)");
        return Ok(true);
    }
    let prog = load_program(&cfg.to_string_lossy(), &[lkmm])?;
    Ok(match section {
        Section::Rcu => {
            let (mut ok, rows) = rcu::section(out, &prog, args.budget)?;
            if !args.no_svg {
                let path = rcu::plot_path(&args.svg);
                ok &= plotted(out, &path, rcu::plot(&path, &rows));
            }
            ok
        }
        _ => locks::section(out, &project_path("../shared/corpus"), &prog, args.budget),
    })
}

/// Says where a plot went, or why it was not written (false then).
fn plotted(out: &mut String, path: &Path, drawn: Result<(), String>) -> bool {
    match drawn {
        Ok(()) => {
            let _ = writeln!(out, "Plot: {}", path.display());
            true
        }
        Err(e) => {
            let _ = writeln!(out, "Plot not written to {}: {e}", path.display());
            false
        }
    }
}

/// The counting section's rows; `ok` turns false where listing and counting disagree.
fn counting_rows(out: &mut String, args: &Args, reps: usize, ok: &mut bool) -> Result<Vec<counting::Row>, Diag> {
    let (agree, rows) = counting::section(out, args.budget, reps, args.quick)?;
    *ok &= agree;
    Ok(rows)
}

fn find<'a>(fams: &'a [FamilyRun], f: Family, p: &[usize]) -> Option<&'a Measured> {
    fams.iter().filter(|r| r.family == f).flat_map(|r| &r.members).find(|(q, _)| q == p).map(|(_, m)| m)
}

fn verdict(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "MISSED",
        None => "not measured",
    }
}

/// The targets of issue #6, judged from this run's figures.
/// The target rows of the corpora herd's time is known for (full logs at least 50 times
/// faster than herd's `Time` lines); whether each is met.
fn against_herd(out: &mut String, corpora: &[CorpusRun], args: &Args) -> bool {
    let mut ok = true;
    for c in corpora.iter().filter(|c| c.herd.is_some() && !args.fast) {
        let herd = c.herd.unwrap_or(0.0);
        let ratio = herd / c.full_total.max(1e-9);
        let met = c.errors == 0 && ratio >= 50.0;
        ok &= met;
        let _ = writeln!(
            out,
            "| {}, full logs ≥ 50× herd's Time lines ({}) | {} on 1 thread, {ratio:.0}× | {} |",
            c.label,
            ms(herd),
            ms(c.full_total),
            verdict(Some(met))
        );
    }
    ok
}

fn targets(out: &mut String, fams: &[FamilyRun], corpora: &[CorpusRun], args: &Args) {
    let _ = writeln!(out, "\n## Targets\n");
    let _ = writeln!(out, "| target | figure | verdict |");
    let _ = writeln!(out, "|---|---|---|");
    let full_plan = family_plan(false);
    // --fast on every co up to T=4, K=3 and sb up to N=12, each under 0.5 s.
    let mut worst: Option<(f64, String)> = None;
    let mut complete = true;
    for (f, plan) in full_plan.iter().filter(|(f, _)| matches!(f, Family::Co | Family::Sb)) {
        for p in plan {
            match find(fams, *f, p) {
                Some(m) if m.fast.status == Status::Done => {
                    if worst.as_ref().is_none_or(|w| m.fast.seconds > w.0) {
                        worst = Some((m.fast.seconds, m.name.clone()));
                    }
                }
                Some(m) => worst = Some((f64::INFINITY, m.name.clone())),
                None => complete = false,
            }
        }
    }
    let w = worst.clone().unwrap_or((0.0, "-".into()));
    let _ = writeln!(
        out,
        "| --fast, every co up to T=4,K=3 and sb up to N=12, each < 0.5 s | slowest {} ({}) | {} |",
        ms(w.0),
        w.1,
        verdict(complete.then_some(w.0 < 0.5))
    );
    for (f, p, label) in [(Family::Sb, vec![10], "sb N=10"), (Family::Co, vec![3, 2], "co T=3,K=2")] {
        let m = find(fams, f, &p).and_then(|m| m.full.as_ref());
        let fig = m.map(|a| format!("{} ({} states)", time_cell(a), a.states)).unwrap_or_else(|| "-".into());
        let met = m.map(|a| a.status == Status::Done && a.seconds < 0.5);
        let _ = writeln!(out, "| full logs, {label}, < 0.5 s | {fig} | {} |", verdict(met));
    }
    let riscv = corpora.iter().find(|c| c.label == "dat3m/RISCV");
    // A loaded machine stretches wall time; CPU time over the threads is what an idle
    // machine with as many cores would take, so both are shown and judged.
    let wall_target = |label: &str, wall: Option<f64>, cpu: Option<f64>, threads: usize, limit: f64| {
        let fig = match (wall, cpu) {
            (Some(w), Some(c)) => format!("wall {} (CPU {} on {threads} threads)", ms(w), ms(c)),
            (Some(w), None) => format!("wall {}", ms(w)),
            _ => "-".into(),
        };
        let v = match (wall, cpu) {
            (Some(w), _) if w < limit => "met",
            (Some(_), Some(c)) if c / (threads.max(1) as f64) < limit => {
                "MISSED on wall, met on CPU / threads (loaded machine)"
            }
            (Some(_), _) => "MISSED",
            _ => "not measured",
        };
        format!("| dat3m/RISCV under rvwmo, {label}, < {limit} s wall | {fig} | {v} |")
    };
    let th = riscv.map(|c| c.threads).unwrap_or(1);
    let _ = writeln!(
        out,
        "{}",
        wall_target("full logs", riscv.and_then(|c| c.full_wall), riscv.and_then(|c| c.full_cpu), th, 10.0)
    );
    let _ = writeln!(
        out,
        "{}",
        wall_target("--fast", riscv.and_then(|c| c.fast_wall), riscv.and_then(|c| c.fast_cpu), th, 3.0)
    );
    let full_max = riscv.filter(|_| !args.fast).map(|c| c.full_max.clone());
    let fast_max = riscv.map(|c| c.fast_max.clone());
    let short = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    let _ = writeln!(
        out,
        "| no shared test > 1 s with full logs | max {} | {} |",
        full_max.as_ref().map(|m| format!("{} ({})", ms(m.0), short(&m.1))).unwrap_or("-".into()),
        verdict(full_max.map(|m| m.0 <= 1.0))
    );
    let _ = writeln!(
        out,
        "| no shared test > 0.1 s with --fast | max {} | {} |",
        fast_max.as_ref().map(|m| format!("{} ({})", ms(m.0), short(&m.1))).unwrap_or("-".into()),
        verdict(fast_max.map(|m| m.0 <= 0.1))
    );
    against_herd(out, corpora, args);
    for c in corpora {
        let _ = writeln!(
            out,
            "\n{} under {}: {} tests ({} not answered), {} full / {} --fast on 1 thread.",
            c.label,
            c.model,
            c.tests,
            c.errors,
            ms(c.full_total),
            ms(c.fast_total)
        );
    }
}

/// Time against events, one series per family and mode, log–log. `co` gets one line per
/// thread count (K grows along it); a full log stopped by the budget is a cross at the
/// time it had run, a lower bound.
pub fn plot(path: &Path, fams: &[FamilyRun], model: &str) -> Result<(), String> {
    use plotters::prelude::*;
    let point = |m: &Measured, full: bool, done: bool| -> Option<(f64, f64)> {
        let a = if full { m.full.as_ref()? } else { &m.fast };
        let ok = if done { a.status == Status::Done } else { a.status == Status::Timeout };
        (ok && m.events > 0).then(|| (m.events as f64, a.seconds.max(1e-6)))
    };
    let all: Vec<(f64, f64)> = fams
        .iter()
        .flat_map(|f| &f.members)
        .flat_map(|(_, m)| [point(m, true, true), point(m, false, true), point(m, true, false)])
        .flatten()
        .collect();
    let caption = format!("litsat under {model}: time per test against events");
    let frame = chart::Frame {
        caption: &caption,
        x_desc: "events per test (initial writes included)",
        y_desc: "seconds per test (median CPU time)",
        x_pad: (0.8, 1.25),
        x_label: |x| format!("{x:.0}"),
    };
    chart::log_log(path, &frame, &all, |chart| {
        let colours = [RGBColor(200, 30, 30), RGBColor(30, 90, 200), RGBColor(20, 140, 60), RGBColor(150, 60, 170)];
        let mut timeout_label = false;
        for (k, f) in fams.iter().enumerate() {
            let c = colours[k % colours.len()];
            let mut groups: Vec<usize> =
                f.members.iter().map(|(p, _)| if f.family == Family::Co { p[0] } else { 0 }).collect();
            groups.dedup();
            let (mut full_label, mut fast_label) = (false, false);
            for g in groups {
                let members = || f.members.iter().filter(|(p, _)| f.family != Family::Co || p[0] == g).map(|(_, m)| m);
                let sorted = |mut v: Vec<(f64, f64)>| {
                    v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                    v
                };
                let full = sorted(members().filter_map(|m| point(m, true, true)).collect());
                let fast = sorted(members().filter_map(|m| point(m, false, true)).collect());
                let stopped: Vec<(f64, f64)> = members().filter_map(|m| point(m, true, false)).collect();
                if !full.is_empty() {
                    let s = chart.draw_series(LineSeries::new(full.clone(), c.stroke_width(2))).map_err(chart::err)?;
                    if !full_label {
                        full_label = true;
                        s.label(format!("{} full logs", f.family.name()))
                            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
                    }
                    chart.draw_series(full.iter().map(|&p| Circle::new(p, 4, c.filled()))).map_err(chart::err)?;
                }
                if !fast.is_empty() {
                    let s = chart
                        .draw_series(DashedLineSeries::new(fast.clone(), 6, 4, c.stroke_width(1)))
                        .map_err(chart::err)?;
                    if !fast_label {
                        fast_label = true;
                        s.label(format!("{} --fast", f.family.name()))
                            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 5, c.stroke_width(1)));
                    }
                    chart
                        .draw_series(fast.iter().map(|&p| TriangleMarker::new(p, 5, c.stroke_width(1))))
                        .map_err(chart::err)?;
                }
                if !stopped.is_empty() {
                    let s = chart
                        .draw_series(stopped.iter().map(|&p| Cross::new(p, 6, c.stroke_width(2))))
                        .map_err(chart::err)?;
                    if !timeout_label {
                        timeout_label = true;
                        s.label("full logs stopped by --budget (lower bound)")
                            .legend(|(x, y)| Cross::new((x + 10, y), 6, BLACK.stroke_width(2)));
                    }
                }
            }
        }
        Ok(())
    })
}
