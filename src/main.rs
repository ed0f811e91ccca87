//! The `litsat` command line.

use clap::{Parser, Subcommand};
use litsat::cat::load_program;
use litsat::driver::{check_file, collect_inputs};
use litsat::query::Options;
use litsat::report::herd_log;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "litsat", version, about = "Axiomatic memory-model checking by SAT, with herd7's answers")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Clone)]
struct ModelArgs {
    /// A bundled model (sc, tso, relaxed) or a path to a .cat file.
    #[arg(short, long)]
    model: String,
    /// Extra folders searched for included .cat files, in order.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Variants set for `if "variant"` in models, comma-separated.
    #[arg(long, value_delimiter = ',')]
    variant: Vec<String>,
    /// Checks (by `as` name) to skip, comma-separated.
    #[arg(long, value_delimiter = ',')]
    skipchecks: Vec<String>,
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
        /// Worker threads (default: all cores).
        #[arg(short = 'j', long)]
        jobs: Option<usize>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Check { model, inputs, jobs } => check(&model, &inputs, jobs),
    }
}

fn check(m: &ModelArgs, inputs: &[String], jobs: Option<usize>) -> ExitCode {
    let prog = match load_program(&m.model, &m.include) {
        Ok(p) => p,
        Err(d) => {
            eprintln!("{d}");
            return ExitCode::from(2);
        }
    };
    let files = match collect_inputs(inputs) {
        Ok(f) => f,
        Err(d) => {
            eprintln!("{d}");
            return ExitCode::from(2);
        }
    };
    let opts = Options { variants: m.variant.clone(), skipchecks: m.skipchecks.clone() };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs.unwrap_or(0)).build();
    let Ok(pool) = pool else {
        eprintln!("error: cannot start worker threads");
        return ExitCode::from(2);
    };
    let results: Vec<_> = pool.install(|| files.par_iter().map(|f| check_file(f, &prog, &opts)).collect());
    let mut failed = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in results {
        match r.outcome {
            Ok(o) => {
                let _ = writeln!(out, "{}", herd_log(&o, r.seconds));
            }
            Err(d) => {
                failed += 1;
                let _ = out.flush();
                eprintln!("{d}");
            }
        }
    }
    if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
