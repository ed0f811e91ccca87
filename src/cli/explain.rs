//! `litsat explain` (not implemented yet).

use crate::diag::Diag;
use std::process::ExitCode;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {}

pub fn main(_args: Args) -> Result<ExitCode, Diag> {
    Err(Diag::file("litsat", "unsupported: `litsat explain` is not implemented yet"))
}

/// Writes `DIR/NAME.dot` (and an SVG or PNG when `format` asks) for one test under `check
/// --graph`. Not implemented yet.
pub fn write_graph(
    _prog: &crate::cat::Program,
    _opts: &crate::query::Options,
    path: &std::path::Path,
    _dir: &std::path::Path,
    _format: Option<&str>,
) -> Result<std::path::PathBuf, Diag> {
    Err(Diag::file(&path.to_string_lossy(), "unsupported: --graph is not implemented yet"))
}
