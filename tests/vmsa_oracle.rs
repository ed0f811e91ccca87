//! herd's `-variant vmsa` (page tables): the SAT engine against the brute-force oracle
//! (`tests/oracle/`, whose `vmsa` module computes the page-table sets from the values an
//! access at an entry reads or writes, `inv-domain`, `PTEtoPA`, `same-low-order-bits`,
//! `same-oa` and `at-least-one-writable` on its own) on the vmsa tests of the shared
//! corpora, when present. States and counts must be equal wherever both answer, and at
//! least a floor of tests compared.

mod common;
mod oracle;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, Program, load_model};
use litsat::litmus::parse_test;
use litsat::query::{self, Options};
use litsat::report::state_line;
use oracle::{DEFAULT_BUDGET, Refusal};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One test, both ways: `Ok(true)` agreed, `Ok(false)` one side did not answer, `Err`
/// a difference.
fn compare(path: &Path, prog: &Program, all: bool) -> Result<bool, String> {
    let name = path.to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    // Only the tests that run under vmsa (the readers' guide mixes them with others).
    if !all && !vmsa_test(&text) {
        return Ok(false);
    }
    // A test litsat does not read (fault handlers) is not compared.
    let Ok(test) = parse_test(&name, &text) else { return Ok(false) };
    let Ok(engine) = query::run(test.clone(), &name, &text, prog, &Options::default()) else { return Ok(false) };
    let ans = match oracle::answer(test, &name, &text, prog, DEFAULT_BUDGET) {
        Ok(a) => a,
        Err(Refusal::TooBig(n)) => {
            println!("  {name}: {n} candidates, over the oracle's budget");
            return Ok(false);
        }
        Err(r) => {
            println!("  {name}: the oracle refused: {r}");
            return Ok(false);
        }
    };
    // A state of faults alone starts with the space that separates them from places.
    let sat: BTreeSet<String> = engine.states.iter().map(|s| state_line(s).trim_start().to_string()).collect();
    let oracle: BTreeSet<String> = ans.states.iter().map(|s| oracle::whole_arrays(s)).collect();
    // The flags too: herd's break-before-make checks (aarch64bbm.cat) raise them from
    // the page-table sets and relations.
    let flags: BTreeSet<String> = engine.flags.iter().map(|f| f.to_string()).collect();
    if sat != oracle || (engine.pos, engine.neg) != (u128::from(ans.pos), u128::from(ans.neg)) || flags != ans.flags {
        return Err(format!(
            "{name}: SAT {:?} ({}, {}) {:?}, oracle {:?} ({}, {}) {:?}",
            sat, engine.pos, engine.neg, flags, ans.states, ans.pos, ans.neg, ans.flags
        ));
    }
    Ok(true)
}

/// Whether a test asks for herd's vmsa (or its alias kvm) itself, or its suite does.
fn vmsa_test(text: &str) -> bool {
    let low = text.to_ascii_lowercase();
    low.lines().any(|l| l.trim_start().starts_with("variant") && (l.contains("vmsa") || l.contains("kvm")))
}

/// The tests under `dir` of the corpus, engine against oracle under herd's aarch64.cat
/// and the cfg `conf` (its variants); `all` compares every test (the cfg says vmsa).
fn suite(dir: &str, conf: &str, all: bool, floor: usize) {
    let Some(sh) = shared_or_skip(&format!("{dir} against the oracle under -variant vmsa")) else { return };
    let corpus = sh.join("corpus");
    let path = |f: &str| Some(sh.join(f).to_string_lossy().to_string());
    let spec = ModelSpec { conf: path(conf), model: path("models/herd/aarch64.cat"), ..ModelSpec::default() };
    let prog = load_model(&spec, &[sh.join("models/herd")]).expect("model loads");
    let files: Vec<PathBuf> =
        litsat_cli::driver::collect_inputs(&[corpus.join(dir).to_string_lossy().to_string()]).unwrap_or_default();
    let results: Vec<Result<bool, String>> = files.par_iter().map(|p| compare(p, &prog, all)).collect();
    let agreed = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let skipped = results.iter().filter(|r| matches!(r, Ok(false))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!("{dir}: {agreed} agree with the oracle, {skipped} not compared, {} differ", bad.len());
    assert!(bad.is_empty(), "{}", bad.iter().take(10).map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
    assert!(agreed >= floor, "{dir}: only {agreed} compared, fewer than {floor}");
}

#[test]
fn readers_guide_vmsa_against_oracle() {
    suite(
        "herd-aarch64/catalogue/aarch64-readers-guide",
        "corpus/herd-aarch64/cfgs/catalogue-aarch64-readers-guide-new-web.cfg",
        false,
        3,
    );
}

#[test]
fn vmsa_catalogue_against_oracle() {
    suite(
        "herd-aarch64/catalogue/aarch64-VMSA",
        "corpus/herd-aarch64/cfgs/catalogue-aarch64-VMSA-new-web.cfg",
        true,
        160,
    );
}

#[test]
fn kvm_instructions_against_oracle() {
    suite("herd-aarch64/instructions/AArch64.kvm", "corpus/herd-aarch64/cfgs/instructions-AArch64.kvm.cfg", true, 12);
}
