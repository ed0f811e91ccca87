//! `litsat explain`: which checks forbid a test's outcome and the cycle that breaks them,
//! or a witness execution when it is allowed; `--graph` draws the execution.

use crate::cli::args::{ModelArgs, setup};
use crate::driver::{collect_inputs, nothing_found, report};
use litsat::diag::Diag;
use litsat::explain::{dot, explain_file, render_text};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Clone)]
pub struct Args {
    #[command(flatten)]
    pub model: ModelArgs,
    /// Test files (folders and @LIST files work too; each is explained in turn).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Write the execution graph of each test to DIR/NAME.dot.
    #[arg(long, value_name = "DIR")]
    pub graph: Option<PathBuf>,
    /// Also render the graph with Graphviz's `dot` (which must be on PATH).
    #[arg(long, value_name = "FORMAT", value_parser = ["svg", "png"], requires = "graph")]
    pub graph_format: Option<String>,
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    let (prog, opts) = setup(&args.model)?;
    let files = collect_inputs(&args.files)?;
    if files.is_empty() {
        return Ok(nothing_found(&args.files));
    }
    let mut failed = false;
    let mut out = crate::out::Quiet(std::io::stdout().lock());
    for (k, f) in files.iter().enumerate() {
        if k > 0 {
            let _ = writeln!(out);
        }
        let a = match explain_file(f, &prog, &opts) {
            Ok(a) => a,
            Err(d) => {
                let _ = out.flush();
                report(&d);
                failed = true;
                continue;
            }
        };
        let _ = write!(out, "{}", render_text(&a));
        if let Some(dir) = &args.graph {
            match dot::write(&a, f, dir, args.graph_format.as_deref()) {
                Ok(p) => {
                    let _ = writeln!(out, "Graph: {}", p.display());
                }
                Err(d) => {
                    let _ = out.flush();
                    report(&d);
                    failed = true;
                }
            }
        }
    }
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Writes `DIR/NAME.dot` (and `DIR/NAME.svg` or `.png` when `format` asks, by Graphviz's
/// `dot`) for one test under `check --graph`: the witness of the test's outcome when the
/// model allows it, otherwise a candidate execution with the cycle that forbids it in
/// bold. NAME is the test's name made file-safe; when another test of this process
/// already took it, a name made from `path` is used, so call in input order for stable
/// names. Returns the last file written.
pub fn write_graph(
    prog: &(impl litsat::cat::ChooseModel + ?Sized),
    opts: &litsat::query::Options,
    path: &Path,
    dir: &Path,
    format: Option<&str>,
) -> Result<PathBuf, Diag> {
    let a = explain_file(path, prog, opts)?;
    dot::write(&a, path, dir, format)
}
