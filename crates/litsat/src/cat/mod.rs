//! The cat front end and compiler.

pub mod ast;
mod binders;
pub mod cfg;
pub mod interp;
mod lex;
pub mod load;
pub mod models;
mod name;
pub mod parse;
mod reach;
mod resolve;

pub use interp::{Builtins, CheckOut, Compiled, Env, V, compile_model, compile_model_with, run_model};
pub use name::{Name, bound_here, count as names_interned, take_refused};
pub use load::{MacroSource, ModelSpec, Program, load_model, load_or, load_program};
pub use models::{ChooseModel, Models};
