//! Conformance with herd7 on the shared corpora (`../shared`), when present.
//!
//! Each suite is run under a model and compared with herd's answers (Observation, States
//! and Witnesses counts). A test litsat does not support yet must fail with a diagnostic
//! saying so; any wrong answer fails the test.

use litsat::cat::load_program;
use litsat::driver::check_file;
use litsat::expect::{by_path, compare, parse_tsv};
use litsat::query::Options;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    p.join("corpus").is_dir().then_some(p)
}

/// Runs one suite; returns (matched, unsupported) and fails on any wrong answer.
fn suite(dir: &str, tsv: &str, model: &str, includes: &[&str]) -> (usize, usize) {
    let Some(sh) = shared() else {
        println!("skipped: ../shared is absent, so {dir} under {model} was not run");
        return (0, 0);
    };
    let corpus = sh.join("corpus");
    let model_path = if model.ends_with(".cat") {
        sh.join(model).to_string_lossy().to_string()
    } else {
        model.to_string()
    };
    let incs: Vec<PathBuf> = includes.iter().map(|i| sh.join(i)).collect();
    let prog = load_program(&model_path, &incs).expect("model loads");
    let text = std::fs::read_to_string(corpus.join("expected").join(tsv)).expect("tsv");
    let expected = by_path(parse_tsv(&text));
    let results: Vec<_> = expected
        .par_iter()
        .map(|(path, e)| {
            let r = check_file(&corpus.join(path), &prog, &Options::default());
            match r.outcome {
                Ok(o) => {
                    let d = compare(&o, e);
                    if d.is_empty() {
                        Ok(true)
                    } else {
                        Err(format!("{path}: {}", d.join("; ")))
                    }
                }
                Err(diag) if diag.message.contains("unsupported") => Ok(false),
                Err(diag) => Err(format!("{path}: error {diag}")),
            }
        })
        .collect();
    let matched = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let unsupported = results.iter().filter(|r| matches!(r, Ok(false))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!(
        "{dir} under {model}: {matched} match herd, {unsupported} unsupported, {} wrong, of {}",
        bad.len(),
        expected.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements with herd:\n{}",
        bad.len(),
        bad.iter()
            .take(40)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    (matched, unsupported)
}

#[test]
fn dat3m_x86_tso() {
    suite("dat3m/X86", "dat3m-x86.x86tso.tsv", "tso", &[]);
}

#[test]
fn dat3m_x86_sc() {
    suite("dat3m/X86", "dat3m-x86.sc.tsv", "sc", &[]);
}

#[test]
fn catalogue_x86_tso() {
    suite("herd-catalogue/x86", "catalogue-x86.x86tso.tsv", "tso", &[]);
}

#[test]
fn catalogue_x86_sc() {
    suite("herd-catalogue/x86", "catalogue-x86.sc.tsv", "sc", &[]);
}
