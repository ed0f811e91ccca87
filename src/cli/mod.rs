//! Subcommands whose work lives in the library: each module owns its clap arguments and
//! its entry point, so `main.rs` only dispatches.

pub mod args;
pub mod bench;
pub mod compare;
pub mod diff;
pub mod distinguish;
pub mod explain;
pub mod generate;
pub mod serve;
