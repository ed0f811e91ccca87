//! herd's mixed-size accesses (`-variant mixed`, issue #38) against herd's answers in the
//! shared corpora, when present: each suite's agreement (Observation, States, counts and
//! flags) must reach its floor, and no test may go unanswered but a refusal by name.

mod common;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, load_model};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use litsat_cli::expect::{Answer, by_path, compare, parse_tsv};
use rayon::prelude::*;

const AARCH64: &str = "models/herd/aarch64.cat";

/// Runs the TSV suite `tsv` under herd's aarch64.cat with the cfg `conf` (under the
/// shared folder; `None`: `-variant mixed` alone) and asserts at least `floor` agree.
fn suite(tsv: &str, conf: Option<&str>, floor: usize) {
    let Some(sh) = shared_or_skip(&format!("{tsv} under -variant mixed")) else { return };
    let corpus = sh.join("corpus");
    let spec = ModelSpec {
        conf: conf.map(|c| sh.join(c).to_string_lossy().to_string()),
        model: Some(sh.join(AARCH64).to_string_lossy().to_string()),
        ..ModelSpec::default()
    };
    let prog = load_model(&spec, &[sh.join("models/herd")]).expect("model loads");
    let opts = Options::new().variants(["mixed"]);
    let text = std::fs::read_to_string(corpus.join("expected").join(tsv)).expect("tsv");
    let expected = by_path(parse_tsv(&text));
    let results: Vec<Result<(), String>> = expected
        .par_iter()
        .map(|(path, e)| match check_file(&corpus.join(path), &prog, &opts).outcome {
            Ok(o) => {
                let d = compare(&Answer::of(&o), e);
                if d.is_empty() { Ok(()) } else { Err(format!("{path}: {}", d.join("; "))) }
            }
            Err(diag) => Err(format!("{path}: not answered: {diag}")),
        })
        .collect();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    let agree = results.len() - bad.len();
    println!("{tsv}: {agree} of {} agree with herd", results.len());
    for b in bad.iter().take(20) {
        println!("  {b}");
    }
    assert!(agree >= floor, "{tsv}: only {agree} agree with herd, fewer than {floor}");
}

#[test]
fn instructions_aarch64_mixed() {
    suite("instructions-aarch64-mixed.aarch64.tsv", Some("corpus/herd-aarch64/instructions/AArch64.mixed/ci.cfg"), 19);
}

#[test]
fn a64_catalogue_mixed() {
    suite("a64-mixed.aarch64.tsv", Some("corpus/herd-aarch64/cfgs/catalogue-aarch64-mixed-web-mixed.cfg"), 0);
}

#[test]
fn a64_plain_catalogue_under_mixed() {
    suite("a64-catalogue-mixed.aarch64.tsv", Some("corpus/herd-aarch64/cfgs/catalogue-aarch64-new-web.cfg"), 0);
}

#[test]
fn dat3m_aarch64_mixed() {
    suite("dat3m-aarch64-mixed.aarch64.tsv", None, 0);
}
