//! herd's `-variant ifetch` (self-modifying code): the SAT engine against the brute-force
//! oracle (`tests/oracle/`, which takes an instruction's fetch as an implicit read, in
//! `NExp` and outside the observed coherence, on its own) on the fetch suites of the
//! shared corpora, when present. States and counts must be equal wherever both answer,
//! and at least a floor of tests compared.

mod common;
mod oracle;

use common::shared_or_skip;
use litsat::cat::Program;
use litsat::litmus::parse_test;
use rayon::prelude::*;
use std::path::Path;

/// One test, both ways ([`oracle::versus_engine`]); a test litsat does not read (fault
/// handlers) is not compared.
fn compare(path: &Path, prog: &Program) -> Result<bool, String> {
    let name = path.to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let Ok(test) = parse_test(&name, &text) else { return Ok(false) };
    oracle::versus_engine(test, &name, &text, prog, false)
}

/// The tests under `dir` of the corpus, engine against oracle under herd's aarch64.cat
/// and the cfg `conf` (its variants).
fn suite(dir: &str, conf: &str, floor: usize) {
    let Some(sh) = shared_or_skip(&format!("{dir} against the oracle under -variant ifetch")) else { return };
    let (prog, files) = oracle::herd_aarch64_suite(&sh, dir, conf);
    let results: Vec<Result<bool, String>> = files.par_iter().map(|p| compare(p, &prog)).collect();
    oracle::assert_suite(dir, &results, floor);
}

#[test]
fn self_instructions_against_oracle() {
    suite("herd-aarch64/instructions/AArch64.self", "corpus/herd-aarch64/cfgs/instructions-AArch64.self.cfg", 30);
}

#[test]
fn catalogue_ifetch_against_oracle() {
    suite(
        "herd-aarch64/catalogue/aarch64-ifetch",
        "corpus/herd-aarch64/cfgs/catalogue-aarch64-ifetch-new-web.cfg",
        130,
    );
}
