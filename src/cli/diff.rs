//! `litsat diff`: the tests whose Observation differs between two models, and with
//! `--stronger` whether everything the first allows the second allows too.

use crate::driver::{check_file, collect_inputs, nothing_found, report, select};
use crate::runner::plural;
use litsat::Observation;
use litsat::cat::load_program;
use litsat::diag::Diag;
use litsat::litmus::Prop;
use litsat::query::Options;
use litsat::query::Outcome;
use rayon::prelude::*;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    #[command(flatten)]
    pub two: super::args::TwoModels,
    /// Variants set for `if "variant"` in models, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = super::args::parse_variant)]
    pub variant: Vec<String>,
    /// Checks (by `as` name) to skip in both models, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub skipchecks: Vec<String>,
    /// Stop a test after this many seconds (it is reported as an error).
    #[arg(long, value_name = "S", value_parser = crate::cli::args::parse_seconds)]
    pub timeout: Option<f64>,
    /// Refuse tests with more events than this.
    #[arg(long, value_name = "N")]
    pub max_events: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// Test files, folders of tests, or @LIST files.
    #[arg(required = true)]
    pub inputs: Vec<String>,
    /// Also report whether every outcome A allows is allowed by B, listing the
    /// counter-examples; the exit status then answers this (1 if not), not whether the
    /// Observations differ.
    #[arg(long)]
    pub stronger: bool,
}

/// The outcomes an Observation allows: (the proposition, its negation).
fn allows(obs: Observation) -> (bool, bool) {
    match obs {
        Observation::Never => (false, true),
        Observation::Always => (true, false),
        Observation::Sometimes => (true, true),
    }
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    let (a, b) = args.two.pair("litsat diff")?;
    let pa = load_program(a, &args.two.include)?;
    let pb = load_program(b, &args.two.include)?;
    super::args::no_per_test_files(&pa.settings, a)?;
    super::args::no_per_test_files(&pb.settings, b)?;
    let opts = Options::new()
        .skipchecks(args.skipchecks.clone())
        .timeout(args.timeout.map(Duration::from_secs_f64))
        .max_events(args.max_events)
        .fast(true);
    // Each model runs with its own cfg's variants, then --variant's.
    let opts_a = opts.clone().variants(pa.variants_with(&args.variant));
    let opts_b = opts.variants(pb.variants_with(&args.variant));
    if let Some(j) = args.jobs {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(j).build_global();
    }
    // The tests both models' cfgs select (their `oknames` and `nonames`).
    let files = select(select(collect_inputs(&args.inputs)?, &pa.settings), &pb.settings);
    if files.is_empty() {
        return Ok(nothing_found(&args.inputs));
    }
    let results: Vec<_> =
        files.par_iter().map(|f| (check_file(f, &pa, &opts_a), check_file(f, &pb, &opts_b))).collect();
    let (na, nb) = (display(a), display(b));
    let mut out = crate::out::Quiet(std::io::stdout().lock());
    let mut rows = Vec::new();
    let mut counter = Vec::new();
    let mut compared = 0;
    let mut errors = 0;
    for (ra, rb) in results {
        let path = ra.path.to_string_lossy().to_string();
        let (oa, ob) = match (ra.outcome.and_then(Outcome::complete), rb.outcome.and_then(Outcome::complete)) {
            (Ok(x), Ok(y)) => (x, y),
            (x, y) => {
                errors += 1;
                let _ = out.flush();
                for d in [x.err(), y.err()].into_iter().flatten() {
                    report(&d);
                }
                continue;
            }
        };
        compared += 1;
        let (sa, sb) = (oa.observation(), ob.observation());
        if sa != sb {
            rows.push((path.clone(), oa.test.name.clone(), sa, sb));
        }
        let ((pa_, qa), (pb_, qb)) = (allows(sa), allows(sb));
        let p = &oa.test.cond.prop;
        for (here, there, what) in [(pa_, pb_, p.to_string()), (qa, qb, Prop::Not(Box::new(p.clone())).to_string())] {
            if here && !there {
                counter.push(format!("{path}: {na} allows {what} ({sa}), {nb} does not ({sb})"));
            }
        }
    }
    if !rows.is_empty() {
        let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(4);
        let _ = writeln!(out, "{:w$}  {:10} {}", "test", na, nb);
        for (path, _, sa, sb) in &rows {
            let _ = writeln!(out, "{path:w$}  {sa:10} {sb}");
        }
    }
    let _ = writeln!(out, "{} of {} differ", rows.len(), plural(compared, "test"));
    if errors > 0 {
        let _ = writeln!(out, "{} could not be answered under both models", plural(errors, "test"));
    }
    // As `diff` does: 0 when the models agree on every test, 1 when they differ on one;
    // under --stronger, the status answers that question instead.
    let mut ok = errors == 0 && (args.stronger || rows.is_empty());
    if args.stronger {
        if counter.is_empty() {
            let _ = writeln!(
                out,
                "Stronger: yes, everything {na} allows is allowed by {nb} on these {}",
                plural(compared, "test")
            );
        } else {
            let _ = writeln!(
                out,
                "Stronger: no, {} {na} allows {} forbidden by {nb}:",
                plural(counter.len(), "outcome"),
                if counter.len() == 1 { "is" } else { "are" }
            );
            for c in &counter {
                let _ = writeln!(out, "  {c}");
            }
            ok = false;
        }
    }
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A model as the user named it, without a folder or `.cat`.
fn display(m: &str) -> String {
    let base = m.rsplit('/').next().unwrap_or(m);
    base.trim_end_matches(".cat").to_string()
}
