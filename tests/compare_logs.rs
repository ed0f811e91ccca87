//! `litsat compare`, mcompare7's comparison of logs: tests keyed by name, each name's
//! `Hash=` checked, the answers set side by side. On small logs written here, and on
//! litsat's and herd's logs of shared suites, which must agree test for test.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn litsat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_litsat"))
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-compare-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A herd log of one test: its name, Observation, counts and hash.
fn entry(name: &str, obs: &str, pos: u32, neg: u32, hash: &str) -> String {
    format!(
        "Test {name} Allowed\nStates 1\n0:X0=0;\nOk\nWitnesses\nPositive: {pos} Negative: {neg}\n\
         Condition exists (0:X0=0)\nObservation {name} {obs} {pos} {neg}\nTime {name} 0.01\nHash={hash}\n\n"
    )
}

fn compare(dir: &Path, a: &str, b: &str, flags: &[&str]) -> Output {
    std::fs::write(dir.join("a.log"), a).unwrap();
    std::fs::write(dir.join("b.log"), b).unwrap();
    litsat().arg("compare").args(flags).arg(dir.join("a.log")).arg(dir.join("b.log")).output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn equal_logs_agree_and_a_different_observation_is_listed() {
    let d = scratch("obs");
    let same = entry("SB", "Sometimes", 1, 3, "abc") + &entry("MP", "Never", 0, 4, "def");
    let o = compare(&d, &same, &same, &[]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("2 tests agree, 0 differ"), "{out}");

    let other = entry("SB", "Sometimes", 1, 3, "abc") + &entry("MP", "Sometimes", 1, 3, "def");
    let o = compare(&d, &same, &other, &[]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.lines().any(|l| l == "MP\tNever\tSometimes"), "{out}");
    assert!(out.contains("1 tests agree, 1 differ"), "{out}");
}

#[test]
fn counts_are_compared_only_when_asked() {
    let d = scratch("counts");
    let a = entry("SB", "Sometimes", 1, 3, "abc");
    let b = entry("SB", "Sometimes", 2, 3, "abc");
    assert_eq!(compare(&d, &a, &b, &[]).status.code(), Some(0));
    let o = compare(&d, &a, &b, &["--counts"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).0.lines().any(|l| l == "SB\tSometimes 1 3\tSometimes 2 3"), "{}", text(&o).0);
}

#[test]
fn one_name_with_two_hashes_is_a_mismatch_unless_hashes_are_off() {
    let d = scratch("hash");
    let a = entry("SB", "Sometimes", 1, 3, "abc");
    let b = entry("SB", "Sometimes", 1, 3, "xyz");
    let o = compare(&d, &a, &b, &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(err.contains("Hash mismatch, test SB, files"), "{err}");
    assert!(out.contains("1 hash mismatches"), "{out}");
    assert_eq!(compare(&d, &a, &b, &["--nohash"]).status.code(), Some(0));
    // A log without hashes is not checked, as in mcompare7.
    let bare: String = b.lines().filter(|l| !l.starts_with("Hash=")).map(|l| format!("{l}\n")).collect();
    assert_eq!(compare(&d, &a, &bare, &[]).status.code(), Some(0));
}

#[test]
fn a_file_without_tests_is_refused() {
    let d = scratch("empty");
    let o = compare(&d, &entry("SB", "Sometimes", 1, 3, "abc"), "nothing here\n", &[]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("b.log") && err.contains("no test in this log"), "{err}");
}

/// litsat's log of a shared suite, compared with herd's raw log of it: every test agrees
/// by Observation, counts and States, and no hash differs.
fn suite_agrees(shared: &Path, suite: &str, model: &str, floor: usize) {
    let tsv = shared.join(format!("corpus/expected/{suite}.tsv"));
    let list: String = std::fs::read_to_string(&tsv)
        .unwrap()
        .lines()
        .filter_map(|l| l.split('\t').next())
        .map(|p| format!("{}\n", shared.join("corpus").join(p).display()))
        .collect();
    let d = scratch(suite);
    std::fs::write(d.join("tests.list"), list).unwrap();
    let out = litsat()
        .args(["check", "-m"])
        .arg(shared.join(model))
        .arg("-I")
        .arg(shared.join("models/herd"))
        .arg(format!("@{}", d.join("tests.list").display()))
        .output()
        .unwrap();
    std::fs::write(d.join("litsat.log"), &out.stdout).unwrap();
    let o = litsat()
        .args(["compare", "--counts", "--states"])
        .arg(d.join("litsat.log"))
        .arg(shared.join(format!("corpus/expected/logs/{suite}.log")))
        .output()
        .unwrap();
    let (text, err) = text(&o);
    let summary = text.lines().last().unwrap_or_default();
    let agree: usize =
        summary.split(" tests agree").next().and_then(|s| s.rsplit(' ').next()?.parse().ok()).unwrap_or(0);
    assert_eq!(o.status.code(), Some(0), "{suite}: {summary}\n{err}");
    assert!(summary.contains(" 0 differ, 0 missing from some log, 0 hash mismatches"), "{suite}: {summary}");
    assert!(agree >= floor, "{suite}: only {agree} tests agree (floor {floor})");
}

#[test]
fn litsat_and_herd_logs_of_shared_suites_agree() {
    let Some(shared) = common::shared_or_skip("litsat's and herd's logs compared") else { return };
    suite_agrees(&shared, "dat3m-aarch64.aarch64", "models/herd/aarch64.cat", 2569);
    suite_agrees(&shared, "dat3m-x86.x86tso", "models/herd/x86tso.cat", 487);
    suite_agrees(&shared, "dat3m-c11.rc11", "models/herd/rc11.cat", 135);
    suite_agrees(&shared, "dat3m-ppc.ppc", "models/herd/ppc.cat", 2363);
    suite_agrees(&shared, "lisa-diy.sc", "models/herd/sc.cat", 278);
}
