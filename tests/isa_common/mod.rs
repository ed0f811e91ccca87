//! What the ISA plug-in tests share (`isa_arm.rs`, `isa_aarch64.rs`, `isa_ppc.rs`): one
//! instruction's ops or refusal, and whole tests run under a bundled model.
#![allow(dead_code)]

use litsat::isa::{Isa, Op};
use litsat::query::{Options, Outcome};
use litsat_cli::driver::check_file;
use std::path::Path;

/// The ops of `text`, which must parse.
pub fn ops(isa: &dyn Isa, text: &str) -> Vec<Op> {
    isa.parse(text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
}

/// The message refusing `text`, which must not parse.
pub fn error(isa: &dyn Isa, text: &str) -> String {
    match isa.parse(text) {
        Ok(ops) => panic!("{text} parsed as {ops:?}"),
        Err(e) => e.message,
    }
}

/// The outcome of the test at `path` under the bundled `model`, or its diagnostic rendered
/// as `file:line:col: error: message`.
pub fn check(path: &Path, model: &str) -> Result<Outcome, String> {
    let prog = litsat::cat::load_program(model, &[]).expect("bundled model");
    check_file(path, &prog, &Options::default()).outcome.map_err(|d| d.to_string())
}

/// [`check`] on a test written inline.
pub fn run(text: &str, model: &str) -> Result<Outcome, String> {
    let dir = std::env::temp_dir().join(format!("litsat-isa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Named by the text's hash: tests run in parallel, and texts may have one length.
    let hash = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        h.finish()
    };
    let path = dir.join(format!("t{hash:x}.litmus"));
    std::fs::write(&path, text).unwrap();
    check(&path, model)
}
