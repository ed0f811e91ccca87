//! `litsat diff` (not implemented yet).

use crate::diag::Diag;
use std::process::ExitCode;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {}

pub fn main(_args: Args) -> Result<ExitCode, Diag> {
    Err(Diag::file("litsat", "unsupported: `litsat diff` is not implemented yet"))
}
