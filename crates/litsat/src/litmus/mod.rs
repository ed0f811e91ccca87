//! The litmus front end: herd's test format, independent of any instruction set.

pub mod ast;
mod c_split;
pub mod hash;
mod parse;
pub mod print;
pub mod prop;
pub mod symbolic;

pub use ast::*;
pub use parse::{parse_condition, parse_test};
