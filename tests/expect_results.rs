//! The paulmck LKMM tests' own `Result:` lines against herd's recorded answers
//! (`../shared/corpus/expected/lkmm-paulmck.lkmm.tsv`), by judgelitmus.sh's rules, when
//! `../shared` is present.

mod common;

use common::shared_or_skip;
use litsat_cli::driver::collect_inputs;
use litsat_cli::expect::parse_tsv;
use litsat_cli::expect::results::{Difference, result_differences};
use litsat_cli::runner::{Record, Status};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const SUITE: &str = "lkmm/paulmck/manual";
const TSV: &str = "expected/lkmm-paulmck.lkmm.tsv";

/// The paulmck tests, as paths relative to `corpus/` (as the TSV names them), and the
/// TSV's paths.
fn differences(sh: &Path) -> (Vec<Difference>, BTreeSet<String>) {
    let corpus = sh.join("corpus");
    let files = collect_inputs(&[corpus.join(SUITE).to_string_lossy().to_string()]).expect("the suite's tests");
    let tests: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&corpus).unwrap_or(f).to_string_lossy().to_string();
            (rel, std::fs::read_to_string(f).expect("test reads"))
        })
        .collect();
    assert_eq!(tests.len(), 744, "the paulmck suite has 744 tests");
    let entries = parse_tsv(&std::fs::read_to_string(corpus.join(TSV)).expect("tsv"));
    assert!(entries.iter().all(|e| e.flags.is_some()), "the TSV has its flags column");
    let answered = entries.iter().map(|e| e.path.clone()).collect();
    (result_differences(&entries, &tests).expect("well-formed Result lines"), answered)
}

#[test]
fn herd_answers_that_differ_from_result_lines() {
    let Some(sh) = shared_or_skip("the paulmck Result lines") else { return };
    let (diffs, _) = differences(&sh);
    let fails = diffs.iter().filter(|d| d.judgement.is_fail()).count();
    println!("{} of herd's answers differ from their Result line ({fails} fail, the rest forgiven):", diffs.len());
    for d in &diffs {
        let a = &d.answer;
        println!(
            "{:?} {} ({}): herd says Observation {} {} {} flags [{}]",
            d.judgement,
            d.path,
            d.result,
            a.observation,
            a.witnesses.0,
            a.witnesses.1,
            a.flags.join(" ")
        );
    }
    assert!(fails > 0, "some herd answers fail their Result line");
    assert!(diffs.len() < 40, "{} differences", diffs.len());
}

/// litsat's run over the paulmck folder with `--expect-results` must fail exactly the
/// tests whose herd answer fails its Result line. Tests herd did not answer (absent from
/// the TSV) are left out of the comparison and printed: their Result lines were never
/// checked against herd.
#[test]
fn expect_results_fails_where_herd_differs() {
    let Some(sh) = shared_or_skip("expect-results over the paulmck suite") else { return };
    let (diffs, answered) = differences(&sh);
    let expected: BTreeSet<String> = diffs.iter().filter(|d| d.judgement.is_fail()).map(|d| d.path.clone()).collect();
    let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
        // Bounded: a few tests that herd could not answer either run long; they are left
        // out of the comparison below.
        .args(["run", "--expect-results", "--format", "json", "--timeout", "10", "--conf"])
        .arg(sh.join("models/lkmm/linux-kernel.cfg"))
        .arg("-I")
        .arg(sh.join("models/lkmm"))
        .arg(sh.join("corpus").join(SUITE))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let records: Vec<Record> = stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect();
    assert_eq!(records.len(), 744, "every test is reported:\n{stderr}");
    let rel = |p: &str| p.find(SUITE).map_or(p.to_string(), |k| p[k..].to_string());
    let failed: BTreeSet<String> = records.iter().filter(|r| r.status == Status::Fail).map(|r| rel(&r.path)).collect();
    for p in failed.iter().filter(|p| !answered.contains(*p)) {
        println!("fails, but herd did not answer it: {p}");
    }
    let failed: BTreeSet<String> = failed.into_iter().filter(|p| answered.contains(p)).collect();
    assert_eq!(failed, expected, "litsat's failures are herd's\n{stderr}");
}
