//! herd's `-variant vmsa` (page tables): the SAT engine against the brute-force oracle
//! (`tests/oracle/`, whose `vmsa` module computes the page-table sets from the values an
//! access at an entry reads or writes, `inv-domain`, `PTEtoPA`, `same-low-order-bits`,
//! `same-oa` and `at-least-one-writable` on its own) on the vmsa tests of the shared
//! corpora, when present. States and counts must be equal wherever both answer, and at
//! least a floor of tests compared.

mod common;
mod oracle;

use common::shared_or_skip;
use litsat::cat::Program;
use litsat::litmus::parse_test;
use rayon::prelude::*;
use std::path::Path;

/// One test, both ways ([`oracle::versus_engine`], flags too: herd's break-before-make
/// checks, aarch64bbm.cat, raise them from the page-table sets and relations). Unless
/// `all`, only a test that asks for vmsa itself (the readers' guide mixes them with
/// others); a test litsat does not read (fault handlers) is not compared.
fn compare(path: &Path, prog: &Program, all: bool) -> Result<bool, String> {
    let name = path.to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if !all && !vmsa_test(&text) {
        return Ok(false);
    }
    let Ok(test) = parse_test(&name, &text) else { return Ok(false) };
    oracle::versus_engine(test, &name, &text, prog, true)
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
    let (prog, files) = oracle::herd_aarch64_suite(&sh, dir, conf);
    let results: Vec<Result<bool, String>> = files.par_iter().map(|p| compare(p, &prog, all)).collect();
    oracle::assert_suite(dir, &results, floor);
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
