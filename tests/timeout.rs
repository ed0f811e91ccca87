//! `--timeout` bounds every phase of answering a test, not only the listing of executions:
//! building events, evaluating the model, `--fast`'s solver calls and `--certify`'s proofs
//! each stop at the deadline with a timeout (a limit), never with an answer.

use litsat::cat::{compile_model_with, load_program};
use litsat::certify::{Failure, Request, certify_verdict};
use litsat::diag::{Deadline, Diag, DiagKind, TIMEOUT};
use litsat::encode::exec;
use litsat::litmus::parse_test;
use litsat::logic::{B, Logic};
use litsat::query::{DEFAULT_UNROLL, prepare_until};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;
use varisat::{CnfFormula, ExtendFormula, Lit};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A deadline that has already passed.
fn passed() -> Deadline {
    Deadline::after(Some(Duration::ZERO))
}

fn is_timeout(r: Result<impl std::fmt::Debug, Diag>) -> bool {
    matches!(&r, Err(d) if d.kind == DiagKind::Limit && d.message == TIMEOUT)
}

/// SB's events, under the deadline given.
fn sb_events(deadline: Deadline) -> Result<litsat::events::Events, Diag> {
    let file = root().join("litmus/x86/SB.litmus");
    let name = file.to_string_lossy().to_string();
    let text = std::fs::read_to_string(&file).expect("SB");
    let test = parse_test(&name, &text).expect("parses");
    prepare_until(test, &name, &text, (None, DEFAULT_UNROLL, false), deadline).map(|(_, _, ev)| ev)
}

#[test]
fn building_events_stops_at_the_deadline() {
    assert!(sb_events(Deadline::NONE).is_ok());
    assert!(is_timeout(sb_events(passed())));
}

/// The model's evaluation (where a `let rec` over a large test can take long) stops at the
/// deadline.
#[test]
fn evaluating_the_model_stops_at_the_deadline() {
    let prog = load_program("tso", &[]).expect("bundled model");
    let ev = sb_events(Deadline::NONE).expect("events");
    for (deadline, timeout) in [(Deadline::NONE, false), (passed(), true)] {
        let mut lg = Logic::new();
        let x = exec::encode(&ev, &mut lg).expect("encodes");
        let b = exec::builtins(&ev, &x, &mut lg);
        let r = compile_model_with(&prog, &mut lg, b, &[], false, deadline).map(|c| c.checks.len());
        assert_eq!(is_timeout(r.clone()), timeout, "{r:?}");
    }
}

/// Certifying (solving and checking a proof) stops at the deadline too.
#[test]
fn certifying_stops_at_the_deadline() {
    let mut cnf = CnfFormula::new();
    let (a, b) = (Lit::from_index(0, true), Lit::from_index(1, true));
    for c in [[a, b], [!a, b], [a, !b], [!a, !b]] {
        cnf.add_clause(&c);
    }
    let req = Request { certify: true, ..Request::default() };
    assert!(certify_verdict("T", litsat::Observation::Never, &cnf, B::T, B::T, req).is_ok_and(|l| l.is_some()));
    let late = Request { deadline: passed(), ..req };
    assert_eq!(certify_verdict("T", litsat::Observation::Never, &cnf, B::T, B::T, late), Err(Failure::Timeout));
    assert_eq!(Failure::Timeout.diag("t.litmus").kind, DiagKind::Limit);
}

/// Through the binary, with a deadline of a nanosecond, every mode reports a timeout rather
/// than an answer: `check` exits with 1, `run` counts a timeout.
#[test]
fn every_mode_reports_a_timeout() {
    let modes: [&[&str]; 4] = [&[], &["--fast"], &["--certify"], &["--fast", "--certify"]];
    for mode in modes {
        let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
            .args(["check", "-m", "tso", "--timeout", "0.000000001", "litmus/x86/SB.litmus"])
            .args(mode)
            .current_dir(root())
            .output()
            .expect("runs");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{mode:?}: {stdout}");
        assert!(!stdout.contains("Observation"), "{mode:?}: {stdout}");
        assert!(stderr.contains(TIMEOUT), "{mode:?}: {stderr}");

        let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
            .args(["run", "-m", "tso", "--timeout", "0", "litmus/x86/SB.litmus", "litmus/x86/MP.litmus"])
            .args(mode)
            .current_dir(root())
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{mode:?}: {stdout}");
        assert!(stdout.contains("0 errors, 2 timeouts"), "{mode:?}: {stdout}");
    }
}

/// A timeout that cannot be a duration is refused as an argument (exit 2), not a panic.
#[test]
fn a_bad_timeout_is_an_argument_error() {
    for bad in ["-1", "nan", "1e300", "soon"] {
        let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
            .args(["check", "-m", "tso", &format!("--timeout={bad}"), "litmus/x86/SB.litmus"])
            .current_dir(root())
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains("expected a number of seconds"), "{bad}: {stderr}");
    }
}
