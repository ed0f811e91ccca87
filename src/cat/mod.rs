//! The cat front end and compiler.

pub mod ast;
pub mod interp;
mod lex;
pub mod load;
pub mod parse;

pub use interp::{Builtins, CheckOut, Compiled, Env, V, compile_model, run_model};
pub use load::{MacroSource, Program, load_program};
