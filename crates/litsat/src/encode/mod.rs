//! From an event structure and a model to CNF.

pub mod acyclic;
pub mod exec;
pub mod one_event;
pub mod rmw;
pub mod sca;
