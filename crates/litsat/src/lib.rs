//! litsat: an axiomatic memory-model checker that answers herd7's questions by SAT.
//!
//! The pipeline, one module per stage: [`litmus`] (test syntax) → [`isa`] (per-architecture
//! instruction semantics) → [`events`] (event structure) → [`logic`] and [`rel`] (relation
//! algebra over literals) → [`encode`] (candidate executions) and [`cat`] (models) →
//! [`query`] (solving) → [`report`] (herd's log). The CLI in `main.rs` only does I/O.

pub mod cat;
pub mod certify;
pub mod diag;
pub mod encode;
pub mod events;
pub mod explain;
pub mod isa;
pub mod litmus;
pub mod logic;
pub mod query;
pub mod rel;
pub mod report;
pub mod unroll;
