//! The `litsat` command line: argument parsing and I/O only; the work is in the library.

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};
use litsat::diag::Diag;
use litsat::report::herd_log;
use litsat_cli::cli::args::{ModelArgs, setup};
use litsat_cli::driver::{
    check_file, collect_inputs, for_each_input, loop_note, nothing_found, per_input, report, select,
};
use litsat_cli::expect::parse_any;
use litsat_cli::out::{Quiet, eprint_line};
use litsat_cli::runner::{Clock, Expectations, Record, judge_result_lines, run_all, shard, success, summary};
use litsat_cli::watch::{Running, Watcher};
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// jemalloc rather than the system's malloc: a test allocates about a thousand blocks and
/// frees them all at the end, and with glibc's malloc the 135 Dat3M C11 tests took 41% more
/// CPU time; jemalloc also measured ahead of mimalloc (BENCHMARKS.md, issue #34).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[derive(Parser)]
#[command(name = "litsat", version, about = "Axiomatic memory-model checking by SAT, with herd7's answers")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Herd,
    Json,
}

#[derive(Subcommand)]
enum Cmd {
    /// Answers each test and prints herd7's log.
    Check {
        #[command(flatten)]
        model: ModelArgs,
        /// Test files, folders of tests, or @LIST files.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// Write each test's execution graph to DIR/NAME.dot.
        #[arg(long, value_name = "DIR")]
        graph: Option<PathBuf>,
        /// Also render the graphs with Graphviz's `dot`: svg or png.
        #[arg(long, value_name = "FORMAT")]
        graph_format: Option<String>,
    },
    /// Runs a corpus, compares with expectations and prints a summary.
    Run {
        #[command(flatten)]
        model: ModelArgs,
        /// Test files, folders of tests, or @LIST files.
        #[arg(required = true)]
        inputs: Vec<String>,
        /// Expected results: a herd log, a kinds.txt, a Dat3M CSV or a corpus TSV.
        #[arg(long, value_name = "FILE")]
        expect: Option<PathBuf>,
        /// Judge each test against its own `Result:` line, as the Linux kernel's
        /// judgelitmus.sh does.
        #[arg(long, conflicts_with = "expect")]
        expect_results: bool,
        /// Output per test: herd's log or JSON lines.
        #[arg(long, value_enum, default_value = "herd")]
        format: Format,
        /// Write the herd logs to FILE (standard output then has only the summary).
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
        /// Run only shard I of N (1-based), split deterministically by input position.
        #[arg(long, value_name = "I/N", value_parser = parse_shard)]
        shard: Option<(usize, usize)>,
    },
    /// Explains why an outcome is forbidden (the checks and a cycle), or shows a witness.
    Explain(litsat_cli::cli::explain::Args),
    /// Lists the tests whose Observation differs between two models (exit status 1 if any).
    Diff(litsat_cli::cli::diff::Args),
    /// Searches for the smallest test that model A allows and model B forbids, or proves
    /// that none exists up to N events (exit status 1 if one is found).
    Distinguish(litsat_cli::cli::distinguish::Args),
    /// Compares herd logs of one corpus test by test, as mcompare7 does: by name, with
    /// each name's `Hash=` checked (exit status 1 on a difference or a hash mismatch).
    Compare(litsat_cli::cli::compare::Args),
    /// Writes families of litmus tests (co, sb, iriw, mp) that grow with a parameter.
    Gen(litsat_cli::cli::generate::Args),
    /// Measures throughput over a corpus and cost over growing test families.
    Bench {
        #[command(flatten)]
        args: litsat_cli::cli::bench::Args,
        /// Measure only `litsat serve` under load: 50 concurrent clients on loopback, each
        /// checking SB under tso 20 times (target: p99 < 50 ms, no errors).
        #[arg(long)]
        serve: bool,
    },
    /// Serves a herd-www-like page and its JSON API on a local port.
    Serve(litsat_cli::cli::serve::Args),
    /// Runs herd7's own command line (`litsat herd7 -model x86tso.cat SB.litmus`), as the
    /// binary does when it is started under the name `herd7`.
    Herd7 {
        /// herd7's options and tests, in herd's syntax.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Combines the JSON results of shards into one summary.
    Merge {
        /// JSON-lines files written by `litsat run --format json`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    // Under the name `herd7`, or as `litsat herd7 …`: herd's own command line.
    if let Some(args) = herd7_args(&argv) {
        return litsat_cli::herd7::main(args);
    }
    let cli = Cli::parse_from(with_subcommand(argv));
    let r = match cli.cmd {
        Cmd::Check { model, inputs, graph, graph_format } => check(&model, &inputs, graph, graph_format),
        Cmd::Run { model, inputs, expect, expect_results, format, log, shard } => {
            run(&model, &inputs, Expect { file: expect, results: expect_results }, format, log, shard)
        }
        Cmd::Merge { files } => merge(&files),
        Cmd::Explain(a) => litsat_cli::cli::explain::main(a),
        Cmd::Diff(a) => litsat_cli::cli::diff::main(a),
        Cmd::Distinguish(a) => litsat_cli::cli::distinguish::main(a),
        Cmd::Compare(a) => litsat_cli::cli::compare::main(a),
        Cmd::Gen(a) => litsat_cli::cli::generate::main(a),
        Cmd::Bench { serve: true, .. } => litsat_cli::cli::serve::load::main(),
        Cmd::Bench { args, .. } => litsat_cli::cli::bench::main(args),
        Cmd::Serve(a) => litsat_cli::cli::serve::main(a),
        Cmd::Herd7 { args } => Ok(litsat_cli::herd7::main(args)),
    };
    match r {
        Ok(code) => code,
        Err(d) => {
            report(&d);
            ExitCode::from(2)
        }
    }
}

/// The arguments of herd7's command line when the program was started as `herd7`, or
/// as `litsat herd7 …` (herd's syntax is not clap's, so it is read apart).
fn herd7_args(argv: &[OsString]) -> Option<Vec<String>> {
    let text = |a: &[OsString]| a.iter().map(|s| s.to_string_lossy().to_string()).collect();
    if argv.first().is_some_and(|a0| litsat_cli::herd7::called_herd7(a0)) {
        return Some(text(&argv[1..]));
    }
    (argv.get(1).is_some_and(|a| a == "herd7")).then(|| text(&argv[2..]))
}

/// `litsat X.litmus …` read as `litsat check X.litmus …`, when the first argument is no
/// subcommand but names a test, a folder or an @LIST (or ends with `.litmus`): the
/// commonest thing to do, and "unrecognized subcommand" helped nobody. Subcommands keep
/// priority, so a file named `run` still needs `litsat check run`.
fn with_subcommand(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = args.get(1).and_then(|a| a.to_str()) else { return args };
    let cmd = Cli::command();
    let known = first == "help" || cmd.get_subcommands().any(|c| c.get_name() == first);
    if !known && !first.starts_with('-') && names_input(first) {
        args.insert(1, "check".into());
    }
    args
}

/// Whether an argument names what `check` takes.
fn names_input(a: &str) -> bool {
    a.ends_with(".litmus") || Path::new(a.strip_prefix('@').unwrap_or(a)).exists()
}

/// `--shard I/N`, with 1 <= I <= N.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let parsed = s.split_once('/').and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    parsed.filter(|&(i, n)| i >= 1 && i <= n).ok_or_else(|| format!("expected I/N with 1 <= I <= N, found '{s}'"))
}

fn check(m: &ModelArgs, inputs: &[String], graph: Option<PathBuf>, format: Option<String>) -> Result<ExitCode, Diag> {
    let (prog, opts) = setup(m)?;
    let files = select(collect_inputs(inputs)?, &prog.settings());
    if files.is_empty() {
        return Ok(nothing_found(inputs));
    }
    let per_input = per_input(&files, &opts);
    let mut failed = 0;
    // One buffer for every log, flushed before each message to stderr, so that the two
    // interleave as they would line by line (one write per line cost a system call each).
    // Logs are written in input order as tests are answered (see `for_each_input`), by
    // whichever worker passes them on: the buffer is over `Stdout`, not its lock.
    let mut out = litsat_cli::out::buffered();
    let running = Arc::new(Running::default());
    let _watcher = Watcher::start(running.clone());
    // Each outcome becomes its log text as soon as it is answered: the outcomes (tests,
    // states) are not all held until the last test is done.
    let answer = |f: &Path, o: &litsat::query::Options| {
        let r = running.time(f, || check_file(f, &prog, o));
        let text = r.outcome.map(|o| (herd_log(&o, r.seconds), loop_note(&r.path, &o), o.incomplete));
        (r.path, text)
    };
    for_each_input(&files, &per_input, answer, |(path, text)| match text {
        Ok((log, note, incomplete)) => {
            let _ = writeln!(out, "{log}");
            if let Some(note) = note {
                let _ = out.flush();
                eprint_line(&note);
            }
            // A log with the states found before a limit: the test is not answered.
            if let Some(d) = incomplete {
                failed += 1;
                let _ = out.flush();
                report(&d);
            }
            if let Some(dir) = &graph {
                let _ = out.flush();
                if let Err(d) = litsat_cli::cli::explain::write_graph(&prog, &opts, &path, dir, format.as_deref()) {
                    failed += 1;
                    report(&d);
                }
            }
        }
        Err(d) => {
            failed += 1;
            let _ = out.flush();
            report(&d);
        }
    });
    let _ = out.flush();
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Where `litsat run` takes its expectations from.
struct Expect {
    /// `--expect FILE`.
    file: Option<PathBuf>,
    /// `--expect-results`: each test's own Result line.
    results: bool,
}

fn run(
    m: &ModelArgs,
    inputs: &[String],
    expect: Expect,
    format: Format,
    log: Option<PathBuf>,
    shard_arg: Option<(usize, usize)>,
) -> Result<ExitCode, Diag> {
    let (prog, opts) = setup(m)?;
    let mut files = select(collect_inputs(inputs)?, &prog.settings());
    if files.is_empty() {
        return Ok(nothing_found(inputs));
    }
    if let Some((i, n)) = shard_arg {
        files = shard(files, i, n);
    }
    let expected = match &expect.file {
        Some(p) => {
            let name = p.to_string_lossy().to_string();
            let text = std::fs::read_to_string(p).map_err(|e| Diag::file(&name, format!("cannot read: {e}")))?;
            Some(parse_any(&name, &text, prog.display_name().trim_end_matches(".cat")))
        }
        None => None,
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(files.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} tests, ETA {eta} {msg}") {
            b.set_style(style);
        }
        b
    });
    let json = matches!(format, Format::Json);
    let mut logs = Logs::open(log.as_deref(), &format, bar.clone())?;
    let running = Arc::new(Running::with_bar(bar.clone()));
    let watcher = Watcher::start(running.clone());
    let (start, cpu) = (Instant::now(), litsat_cli::clock::process_cpu());
    let (mut records, problems) =
        run_all(&files, &prog, &opts, expected.as_deref(), json, &running, &mut |text| logs.write(text));
    let clock = Clock {
        wall: start.elapsed().as_secs_f64(),
        cpu: cpu.zip(litsat_cli::clock::process_cpu()).map(|(a, b)| b - a),
    };
    drop(watcher);
    if expect.results {
        judge_result_lines(&mut records);
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    logs.finish()?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, Quiet(std::io::stdout().lock()));
    let sum = summary(&records, &problems, Some(clock));
    match format {
        Format::Json => {
            for r in &records {
                let _ = writeln!(out, "{}", serde_json::to_string(r).unwrap_or_default());
            }
            let _ = out.flush();
            eprint_line(sum.trim_end());
        }
        Format::Herd => {
            let _ = write!(out, "{sum}");
            let _ = out.flush();
        }
    }
    Ok(if success(&records, &problems) { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Where `litsat run` writes each test's log as it is answered, in input order: the
/// `--log` file, or in herd's format standard output, above the progress bar. JSON
/// output without `--log` has no logs.
struct Logs {
    file: Option<(PathBuf, std::io::BufWriter<std::fs::File>)>,
    /// The first error writing the file, reported once the run is over.
    failed: Option<std::io::Error>,
    stdout: Option<std::io::BufWriter<Quiet<std::io::Stdout>>>,
    bar: Option<indicatif::ProgressBar>,
}

impl Logs {
    /// Creates the log file now, so that a path that cannot be written stops the run
    /// before it starts.
    fn open(log: Option<&Path>, format: &Format, bar: Option<indicatif::ProgressBar>) -> Result<Logs, Diag> {
        let file = match log {
            Some(path) => {
                let f = std::fs::File::create(path).map_err(|e| log_error(path, e))?;
                Some((path.to_path_buf(), std::io::BufWriter::with_capacity(1 << 16, f)))
            }
            None => None,
        };
        let to_stdout = log.is_none() && matches!(format, Format::Herd);
        let stdout = to_stdout.then(litsat_cli::out::buffered);
        Ok(Logs { file, failed: None, stdout, bar })
    }

    /// One test's log (empty for a test not answered: a blank line in the file, as herd's
    /// log of a run has, and nothing on standard output).
    fn write(&mut self, text: &str) {
        if let Some((_, f)) = &mut self.file
            && let Err(e) = writeln!(f, "{text}")
        {
            self.failed.get_or_insert(e);
        }
        let Some(out) = self.stdout.as_mut().filter(|_| !text.is_empty()) else { return };
        match &self.bar {
            Some(b) => b.suspend(|| {
                let _ = writeln!(out, "{text}");
                let _ = out.flush();
            }),
            None => {
                let _ = writeln!(out, "{text}");
            }
        }
    }

    /// Flushes what is buffered, and reports the first error writing the file.
    fn finish(self) -> Result<(), Diag> {
        if let Some(mut out) = self.stdout {
            let _ = out.flush();
        }
        let Some((path, mut f)) = self.file else { return Ok(()) };
        self.failed.map_or_else(|| f.flush(), Err).map_err(|e| log_error(&path, e))
    }
}

fn log_error(path: &Path, e: std::io::Error) -> Diag {
    Diag::file(&path.to_string_lossy(), format!("cannot write log: {e}"))
}

fn merge(files: &[PathBuf]) -> Result<ExitCode, Diag> {
    let mut records: Vec<Record> = Vec::new();
    for f in files {
        let name = f.to_string_lossy().to_string();
        let text = std::fs::read_to_string(f).map_err(|e| Diag::file(&name, format!("cannot read: {e}")))?;
        for (k, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let r: Record = serde_json::from_str(line).map_err(|e| {
                let mut d = Diag::file(&name, format!("not a litsat JSON record: {e}"));
                d.line = k + 1;
                d
            })?;
            records.push(r);
        }
    }
    records.sort_by(|a, b| a.path.cmp(&b.path));
    let none = Expectations::default();
    litsat_cli::out::print(&summary(&records, &none, None));
    Ok(if success(&records, &none) { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
