//! What the command line says to people: diagnostics printed once, hints, the tests that
//! run long, the summary's times, quiet ends on closed pipes, exit statuses, argument
//! errors and the help's width. Each is checked by its text.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn litsat() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litsat"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn run(args: &[&str]) -> (Output, String, String) {
    let out = litsat().args(args).output().expect("litsat runs");
    let (o, e) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    (out, o, e)
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-ux-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a scratch folder");
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("written");
    p.to_string_lossy().into_owned()
}

#[test]
fn a_diagnostic_is_printed_once_with_its_location_first() {
    let dir = scratch("once");
    let f = write(&dir, "bad.litmus", "X86 SB\n{ }\n P0 ;\n FROB ;\nexists (0:EAX=0)\n");
    let (out, _, err) = run(&["check", &f]);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let first = err.lines().next().unwrap_or("");
    assert_eq!(first, format!("{f}:4:2: error: unsupported instruction 'FROB'"));
    assert_eq!(err.matches("unsupported instruction 'FROB'").count(), 1, "{err}");
    assert!(!err.contains("× "), "no second title:\n{err}");
    assert!(err.contains(&format!("╭─[{f}:4:2]")) && err.contains(" 4 │  FROB ;"), "the source is shown:\n{err}");
}

const KERNEL_TEST: &str = "C K\n\n{}\n\nP0(int *x)\n{\n\tsmp_mb();\n\tWRITE_ONCE(*x, 1);\n}\n\nexists (x=2)\n";

#[test]
fn a_kernel_macro_without_the_kernel_model_gets_a_hint() {
    let dir = scratch("lkmm-hint");
    let f = write(&dir, "K.litmus", KERNEL_TEST);
    let (out, _, err) = run(&["check", &f]);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with(&format!("{f}:7:2: error: unknown macro or primitive `smp_mb`")), "{err}");
    assert!(
        err.contains("help: `smp_mb` is a Linux-kernel macro: check the test under the kernel's model, `-m lkmm`"),
        "{err}"
    );
    // A name the kernel does not define gets no such hint.
    let g = write(&dir, "N.litmus", &KERNEL_TEST.replace("smp_mb()", "frobnicate()"));
    let (_, _, err) = run(&["check", &g]);
    assert!(err.contains("unknown macro or primitive `frobnicate`"), "{err}");
    assert!(!err.contains("-m lkmm"), "{err}");
}

/// A test of about a second or more even in an optimised build (co, 4 threads of 3
/// stores), stopped by `--timeout` so that the test stays short.
fn slow_test(dir: &Path) -> String {
    let out = litsat().args(["gen", "co", "4", "3", "-o"]).arg(dir).output().expect("gen runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("co-T4-K3.litmus").to_string_lossy().into_owned()
}

#[test]
fn tests_running_long_are_named_on_stderr() {
    let dir = scratch("long");
    let f = slow_test(&dir);
    let log = dir.join("run.log");
    for cmd in ["run", "check"] {
        let mut c = litsat();
        c.args([cmd, "-m", "sc", "--timeout", "3", &f]).env("LITSAT_PROGRESS_SECONDS", "0.3");
        if cmd == "run" {
            c.arg("--log").arg(&log);
        }
        let out = c.output().expect("litsat runs");
        let err = String::from_utf8_lossy(&out.stderr);
        let line =
            err.lines().find(|l| l.starts_with("litsat: still running: ")).unwrap_or_else(|| panic!("{cmd}: {err}"));
        assert!(line.contains(&format!("{f} (")) && line.ends_with(" s)"), "{cmd}: {line}");
    }
}

#[test]
fn the_summary_says_wall_and_cpu_time_and_counts_in_the_singular() {
    let (out, text, err) = run(&["run", "-m", "tso", "litmus/x86/SB.litmus"]);
    assert!(out.status.success(), "{err}");
    assert!(
        text.contains("Summary: 1 test: 0 passed, 0 failed, 1 answered without expectation, 0 errors, 0 timeouts\n"),
        "{text}"
    );
    let time = text.lines().find(|l| l.starts_with("Time: ")).expect("a Time line");
    let words: Vec<&str> = time.split_whitespace().collect();
    assert_eq!(words.len(), 7, "{time}");
    assert_eq!((words[2], words[3], words[5], words[6]), ("s", "wall,", "s", "CPU"), "{time}");
    assert!(words[1].parse::<f64>().is_ok() && words[4].parse::<f64>().is_ok(), "{time}");
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    // Both streams into `head -1`, as in `litsat check … 2>&1 | head -1`: four times the
    // corpus is more than a pipe holds, so litsat writes logs and warnings after `head`
    // has gone.
    let script = r#""$0" check -m tso litmus litmus litmus litmus 2>&1 | head -1; echo "status ${PIPESTATUS[0]}""#;
    let out = Command::new("bash")
        .args(["-c", script, env!("CARGO_BIN_EXE_litsat")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("Test ") || lines[0].starts_with("Warning: "), "{text}");
    // 0, or 141 if a shell reports a death by SIGPIPE; never a panic's 101.
    assert!(matches!(lines[1], "status 0" | "status 141"), "{text}");
}

#[test]
fn a_folder_without_tests_is_an_error() {
    let dir = scratch("empty");
    let d = dir.to_string_lossy().into_owned();
    for cmd in ["check", "run", "explain"] {
        let (out, _, err) = run(&[cmd, "-m", "tso", &d]);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
        assert_eq!(err, format!("litsat: error: no .litmus file found in {d}\n"), "{cmd}");
    }
    let (out, _, err) = run(&["diff", "-m", "sc", "-m", "tso", &d]);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no .litmus file found in"), "{err}");
}

#[test]
fn diff_exits_1_when_the_models_differ_and_0_when_they_agree() {
    let (out, text, _) = run(&["diff", "-m", "sc", "-m", "tso", "litmus/x86"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("7 of 41 tests differ"), "{text}");
    let (out, text, _) = run(&["diff", "-m", "tso", "-m", "tso", "litmus/x86"]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.ends_with("0 of 41 tests differ\n"), "{text}");
    let (out, text, _) = run(&["diff", "-m", "sc", "-m", "tso", "litmus/x86/SB.litmus"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.ends_with("1 of 1 test differ\n"), "{text}");
}

#[test]
fn a_test_named_without_a_subcommand_is_checked() {
    let (out, text, err) = run(&["litmus/x86/SB.litmus", "-m", "tso"]);
    assert!(out.status.success(), "{err}");
    assert!(text.contains("Observation SB Sometimes 1 3"), "{text}");
    // A folder too; a word that names nothing stays clap's error about subcommands.
    let (out, text, _) = run(&["litmus/x86", "-m", "tso"]);
    assert!(out.status.success() && text.contains("Observation SB Sometimes"));
    let (out, _, err) = run(&["frob"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("unrecognized subcommand 'frob'"), "{err}");
}

#[test]
fn argument_errors_carry_no_invented_location() {
    let cases: &[(&[&str], &str)] = &[
        (&["check", "-m", "nosuch", "litmus/x86/SB.litmus"], "litsat: error: unknown bundled model 'nosuch'"),
        (&["diff", "-m", "sc", "litmus/x86"], "litsat: error: expected exactly two models (-m A -m B), found 1"),
        (&["gen", "sb", "x"], "litsat: error: expected a number or a range A..B, found 'x'"),
        (&["check", "nosuch.litmus"], "litsat: error: nosuch.litmus: cannot read: "),
        (&["run", "--shard", "3/2", "litmus"], "error: invalid value '3/2' for '--shard <I/N>'"),
    ];
    for (args, want) in cases {
        let (out, _, err) = run(args);
        assert!(err.starts_with(want), "{args:?}: {err}");
        assert!(!err.contains(":1:1:"), "{args:?}: {err}");
        let code = if args[0] == "check" && args[1] == "nosuch.litmus" { 1 } else { 2 };
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    }
}

#[test]
fn help_is_wrapped() {
    for cmd in ["check", "run", "diff", "explain", "bench", "gen", "serve"] {
        let (out, text, _) = run(&[cmd, "--help"]);
        assert!(out.status.success());
        let longest = text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(longest <= 100, "{cmd}: a line of {longest} characters:\n{text}");
    }
}
