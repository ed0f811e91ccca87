//! The `litsat` command line's own code, over the `litsat` library: the subcommands'
//! arguments and entry points ([`cli`]), expanding inputs and rendering diagnostics
//! ([`driver`]), reading herd's expectations ([`expect`]), running corpora ([`runner`]),
//! naming the tests that run long ([`watch`]), writing to pipes that may close ([`out`]),
//! and herd7's own command line, for litsat run as `herd7` ([`herd7`]).

pub mod cli;
pub mod clock;
pub mod driver;
pub mod expect;
pub mod herd7;
pub mod out;
pub mod runner;
pub mod watch;
