//! The `litsat` command line's own code, over the `litsat` library: the subcommands'
//! arguments and entry points ([`cli`]), expanding inputs and rendering diagnostics
//! ([`driver`]), reading herd's expectations ([`expect`]) and running corpora ([`runner`]).

pub mod cli;
pub mod driver;
pub mod expect;
pub mod runner;
