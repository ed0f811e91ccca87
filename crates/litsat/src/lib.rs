//! litsat: an axiomatic memory-model checker that answers herd7's questions by SAT.
//!
//! A litmus test asks whether an outcome of a small concurrent program is allowed under a
//! memory model. litsat builds the test's events, encodes every candidate execution and
//! the model (a cat file, herd's language) as one SAT problem, and gives herd7's answer:
//! the final states, the execution counts, the flags and the Observation.
//!
//! ```
//! use litsat::{Model, Observation, Options, Test, check};
//!
//! fn main() -> Result<(), litsat::Error> {
//!     let sb = "X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n \
//!               MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";
//!     let test = Test::parse(sb, "SB.litmus")?;
//!     let outcome = check(&test, &Model::bundled("tso")?, &Options::default())?;
//!     assert_eq!(outcome.observation(), Observation::Sometimes);
//!     assert_eq!(outcome.states().len(), 4);
//!     let sc = check(&test, &Model::bundled("sc")?, &Options::default())?;
//!     assert_eq!(sc.observation(), Observation::Never);
//!     print!("{}", outcome.log());
//!     Ok(())
//! }
//! ```
//!
//! The same program is in the README (a test keeps the two equal).
//!
//! The public API is [`Model`], [`Test`], [`check`], [`witness`], [`explain`] and the
//! types they take and return. The pipeline behind them — [`litmus`](crate) front end →
//! per-ISA semantics → events → relation algebra over literals → cat compiler → solver
//! queries → herd's log — is private; the `internals` feature opens it, unstable, for
//! litsat's own command line, tests and fuzzing (see ARCHITECTURE.md).

#![warn(missing_docs)]
// Without `internals`, the pipeline is reached only through `api`; the parts that serve
// the command line and tests alone are then unused, not dead.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

mod api;
pub mod distinguish;

pub use api::{Error, Execution, Model, Observation, Options, Outcome, State, Test, check, explain, witness};
pub use diag::{Diag, DiagKind};

/// Declares the pipeline's modules: private, or with `internals`, public and hidden.
macro_rules! pipeline {
    ($($m:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $m;
        #[cfg(not(feature = "internals"))]
        mod $m;
    )*};
}

pipeline!(cat, certify, count, diag, encode, events, explain, isa, litmus, logic, query, rel, report, unroll, variant);

#[cfg(test)]
mod readme {
    /// The README's library example is the crate's doctest, so that it compiles and runs.
    #[test]
    fn readme_shows_the_doctest() {
        let lib = include_str!("lib.rs");
        let doc: Vec<&str> =
            lib.lines().filter_map(|l| l.strip_prefix("//!")).map(|l| l.strip_prefix(' ').unwrap_or(l)).collect();
        let block = |lines: &[&str], open: &str| -> Vec<String> {
            let start = lines.iter().position(|l| *l == open).expect("an example") + 1;
            lines[start..].iter().take_while(|l| **l != "```").map(|l| l.to_string()).collect()
        };
        let readme = include_str!("../../../README.md");
        let readme: Vec<&str> = readme.lines().collect();
        assert_eq!(block(&readme, "```rust"), block(&doc, "```"));
        assert!(block(&doc, "```").len() <= 15);
    }
}
