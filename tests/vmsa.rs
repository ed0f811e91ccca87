//! herd's `-variant vmsa` (alias `kvm`): page-table entries, translation-table walks,
//! TLB invalidations and MMU faults, against herd's answers on the shared corpora
//! (skipped, saying so, without `../shared`), and by hand.
//!
//! Every test of a suite is either answered as herd answers it (Observation, States,
//! counts, flags) or refused with an "unsupported" diagnostic naming what is not built:
//! no vmsa test may be answered wrongly. Floors keep a mass refusal from passing.

mod common;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, load_model};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use litsat_cli::expect::{Answer, by_path, compare, parse_tsv};
use rayon::prelude::*;

/// Runs the tests of `tsv` under `cfg` and herd's `aarch64.cat`: none may differ from
/// herd or fail otherwise than by refusing a feature by name; at least `floor` agree.
fn suite(tsv: &str, cfg: &str, floor: usize) {
    let Some(sh) = shared_or_skip(&format!("vmsa suite {tsv}")) else { return };
    let corpus = sh.join("corpus");
    let [conf, model] =
        [corpus.join(cfg), sh.join("models/herd/aarch64.cat")].map(|p| Some(p.to_string_lossy().to_string()));
    let prog =
        load_model(&ModelSpec { conf, model, ..ModelSpec::default() }, &[sh.join("models/herd")]).expect("model");
    let text = std::fs::read_to_string(corpus.join("expected").join(tsv)).expect("tsv");
    let expected = by_path(parse_tsv(&text));
    let results: Vec<Result<bool, String>> = expected
        .par_iter()
        .map(|(path, e)| match check_file(&corpus.join(path), &prog, &Options::default()).outcome {
            Ok(o) => {
                let d = compare(&Answer::of(&o), e);
                if d.is_empty() { Ok(true) } else { Err(format!("{path}: {}", d.join("; "))) }
            }
            Err(diag) if diag.kind == litsat::DiagKind::Unsupported => Ok(false),
            Err(diag) => Err(format!("{path}: not refused by name: {diag}")),
        })
        .collect();
    let agree = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let refused = results.iter().filter(|r| matches!(r, Ok(false))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!("{tsv}: {agree} agree, {refused} refused by name, {} differ, of {}", bad.len(), expected.len());
    assert!(
        bad.is_empty(),
        "{} differ from herd:\n{}",
        bad.len(),
        bad.iter().take(30).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    assert!(agree >= floor, "{tsv}: only {agree} agree with herd, fewer than {floor}");
}

#[test]
fn readers_guide_under_vmsa() {
    suite("a64-readers-guide.aarch64.tsv", "herd-aarch64/cfgs/catalogue-aarch64-readers-guide-new-web.cfg", 50);
}

#[test]
fn vmsa_catalogue() {
    suite("a64-VMSA.aarch64.tsv", "herd-aarch64/cfgs/catalogue-aarch64-VMSA-new-web.cfg", 171);
}

#[test]
fn kvm_instructions() {
    suite("instructions-aarch64-kvm.aarch64.tsv", "herd-aarch64/cfgs/instructions-AArch64.kvm.cfg", 12);
}
