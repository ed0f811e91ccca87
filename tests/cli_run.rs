//! `litsat run` through the binary: expectations over `litmus/`, the shared corpora when
//! present, and sharding.

mod common;

use common::shared_or_skip;
use std::path::{Path, PathBuf};
use std::process::Command;

fn litsat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_litsat"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn summary_line(out: &str) -> String {
    out.lines().find(|l| l.starts_with("Summary:")).unwrap_or("").to_string()
}

#[test]
fn run_expect_over_project_corpus() {
    // The C11 models name the C front end's sets: they check the C tests only.
    for (model, dir) in [
        ("sc", "litmus"),
        ("tso", "litmus"),
        ("relaxed", "litmus"),
        ("rvwmo", "litmus"),
        ("aarch64", "litmus"),
        ("c11", "litmus/c11"),
        ("rc11", "litmus/c11"),
    ] {
        let out = litsat()
            .args(["run", "-m", model, dir, "--expect", "litmus/expected.tsv", "--log"])
            .arg(std::env::temp_dir().join(format!("litsat-run-{model}.log")))
            .current_dir(root())
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{model}: {text}");
        let line = summary_line(&text);
        assert!(line.contains(" 0 failed") && line.contains(" 0 errors"), "{model}: {line}");
        assert!(!line.contains(" 0 passed"), "{model}: nothing compared: {line}");
    }
}

#[test]
fn run_expect_over_shared_corpus() {
    let Some(shared) = shared_or_skip("run --expect over the shared corpora").map(|s| s.join("corpus")) else { return };
    let cases: &[(&str, &str, &str)] = &[
        ("tso", "dat3m/X86", "expected/dat3m-x86.x86tso.tsv"),
        ("tso", "herd-catalogue/x86_64", "herd-catalogue/x86_64/kinds.txt"),
        ("tso", "dat3m/X86", "expected/dat3m-csv/TSO-expected.csv"),
        ("sc", "dat3m/X86", "expected/logs/dat3m-x86.sc.log"),
    ];
    for (model, dir, expect) in cases {
        let out = litsat()
            .args(["run", "-m", model])
            .arg(shared.join(dir))
            .arg("--expect")
            .arg(shared.join(expect))
            .arg("--log")
            .arg(std::env::temp_dir().join("litsat-run-shared.log"))
            .output()
            .expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{model} {dir} {expect}: {text}");
        println!("{model} {dir} --expect {expect}: {}", summary_line(&text));
    }
}

/// Everything but the timing lines, which differ between runs.
fn counts(summary: &str) -> Vec<String> {
    summary.lines().filter(|l| !l.starts_with("Time:") && !l.starts_with("Slowest:")).map(str::to_string).collect()
}

#[test]
fn shards_merge_to_the_unsharded_summary() {
    let dir = std::env::temp_dir().join(format!("litsat-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let run = |extra: &[&str], out: &Path| {
        let o = litsat()
            .args(["run", "-m", "tso", "litmus", "--expect", "litmus/expected.tsv", "--format", "json"])
            .args(extra)
            .current_dir(root())
            .output()
            .expect("runs");
        std::fs::write(out, &o.stdout).expect("write");
    };
    let (a, b, all) = (dir.join("a.json"), dir.join("b.json"), dir.join("all.json"));
    run(&["--shard", "1/2"], &a);
    run(&["--shard", "2/2"], &b);
    run(&[], &all);
    let merge = |files: &[&Path]| {
        String::from_utf8_lossy(&litsat().arg("merge").args(files).output().expect("merge").stdout).to_string()
    };
    let merged = merge(&[&a, &b]);
    let whole = merge(&[&all]);
    let n = litsat_cli::driver::collect_inputs(&[root().join("litmus").to_string_lossy().to_string()])
        .expect("inputs")
        .len();
    assert!(merged.starts_with(&format!("Summary: {n} tests")), "{merged}");
    assert_eq!(counts(&merged), counts(&whole));
    let lines = |p: &Path| std::fs::read_to_string(p).map(|t| t.lines().count()).unwrap_or(0);
    assert_eq!(lines(&a) + lines(&b), lines(&all));
    assert!(lines(&a) > 0 && lines(&b) > 0);
}

#[test]
fn bad_file_is_reported_and_the_run_goes_on() {
    let dir = std::env::temp_dir().join(format!("litsat-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("a-bad.litmus"), "X86 BAD\n{ x=0; }\n P0 ;\n MOV [x],$1 \n").expect("write");
    std::fs::copy(root().join("litmus/x86/SB.litmus"), dir.join("b-SB.litmus")).expect("copy");
    let out = litsat().args(["check", "-m", "tso"]).arg(&dir).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("a-bad.litmus:4:2:"), "{stderr}");
    assert!(stdout.contains("Observation SB Sometimes 1 3"), "{stdout}");
}

/// Writes SB (litmus/x86/SB.litmus) with `header` as its comment line, into `dir/file`.
fn sb_with(dir: &Path, file: &str, header: &str) {
    let sb = std::fs::read_to_string(root().join("litmus/x86/SB.litmus")).expect("SB");
    let (first, rest) = sb.split_once('\n').expect("a name line");
    std::fs::write(dir.join(file), format!("{first}\n{header}\n{rest}")).expect("write");
}

#[test]
fn expect_results_judges_each_test_by_its_result_line() {
    let dir = std::env::temp_dir().join(format!("litsat-results-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    sb_with(&dir, "a-pass.litmus", "(* Result: Sometimes *)");
    sb_with(&dir, "b-fail.litmus", "(*\n * Result: Never\n *)");
    sb_with(&dir, "c-race.litmus", "(* Result: Sometimes DATARACE *)");
    sb_with(&dir, "d-none.litmus", "(* Expected result: Sometimes *)");
    sb_with(&dir, "e-bad.litmus", "(* Result: Forbidden *)");
    let out = litsat().args(["run", "-m", "tso", "--expect-results"]).arg(&dir).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(
        summary_line(&text),
        "Summary: 5 tests: 1 passed, 2 failed, 1 answered without expectation, 1 error, 0 timeouts"
    );
    assert!(text.contains("b-fail.litmus Result: Never: Observation Sometimes 1 3, expected Never"), "{text}");
    assert!(text.contains("c-race.litmus Result: Sometimes DATARACE: predicted data race not modeled"), "{text}");
    assert!(text.contains("e-bad.litmus:2:12: error: unknown Result 'Forbidden'"), "{text}");

    // The answers agree with their Result lines: success.
    let out = litsat()
        .args(["run", "-m", "tso", "--expect-results"])
        .arg(dir.join("a-pass.litmus"))
        .arg(dir.join("d-none.litmus"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");

    // A model that raises `data-race` on every execution: DATARACE must be predicted, and
    // a wrong Observation is then forgiven.
    let cat = dir.join("racy.cat");
    std::fs::write(
        &cat,
        "\"racy\"\nacyclic po-loc | rf | co | fr as uniproc\nflag ~empty (po & (W * R)) as data-race\n",
    )
    .expect("write");
    let racy = dir.join("racy");
    std::fs::create_dir_all(&racy).expect("dir");
    sb_with(&racy, "a-race.litmus", " * Result: Sometimes DATARACE");
    sb_with(&racy, "b-forgiven.litmus", " * Result: Never DATARACE");
    sb_with(&racy, "c-unexpected.litmus", " * Result: Sometimes");
    let out = litsat().args(["run", "--expect-results", "-m"]).arg(&cat).arg(&racy).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        summary_line(&text),
        "Summary: 3 tests: 2 passed, 1 failed, 0 answered without expectation, 0 errors, 0 timeouts",
        "{text}"
    );
    assert!(text.contains("Flag data-race"), "{text}");
    assert!(text.contains("c-unexpected.litmus Result: Sometimes: unexpected data race modeled"), "{text}");
    assert!(text.contains("FORGIVEN"), "{text}");
    assert!(text.contains("b-forgiven.litmus forgiven (Result: Never DATARACE, data race)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn expect_and_expect_results_exclude_each_other() {
    let out = litsat()
        .args(["run", "-m", "tso", "litmus/x86", "--expect", "litmus/expected.tsv", "--expect-results"])
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}

/// Without `-m`, each test gets herd's default for its architecture: c11 for C (which
/// allows load buffering, where rc11 would not), tso for X86; an architecture without a
/// bundled default is an error naming it, and the run goes on.
#[test]
fn check_without_a_model_uses_the_architectures_default() {
    let out = litsat()
        .args(["check", "litmus/c11/LB+rlx.litmus", "litmus/x86/SB.litmus"])
        .current_dir(root())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Observation LB+rlx Sometimes 1 3"), "{text}");
    assert!(text.contains("Observation SB Sometimes"), "{text}");
    let lisa =
        std::fs::read_dir(root().join("litmus/lisa")).expect("litmus/lisa").next().expect("a test").expect("entry");
    let out =
        litsat().arg("check").arg(lisa.path()).arg("litmus/x86/SB.litmus").current_dir(root()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    // The library's message, with the command line's hint.
    assert!(String::from_utf8_lossy(&out.stderr).contains("no default for LISA: name one with -m"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Observation SB Sometimes"));
}

/// Loops: past the bound herd's `Loop` prefix and its warning, naming the loops cut off;
/// `--unroll auto` raises the bound until no execution is cut off (a compare-and-exchange
/// retry loop closes within 2 iterations), or says where it stopped (a spin loop never
/// closes); a bound of 8 stays cheap on the retry loop.
#[test]
fn unrolling_bounds_are_reported() {
    let check = |args: &[&str]| {
        let out = litsat().arg("check").args(args).current_dir(root()).output().expect("runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (log, err) = check(&["-m", "c11", "--unroll", "0", "litmus/c11/CAS-retry-inc.litmus"]);
    assert!(log.contains("\nLoop No\n"), "{log}");
    assert!(err.contains("unrolling limit exceeded at the while at line 15, the while at line 7"), "{err}");
    let (log, err) = check(&["-m", "c11", "--unroll", "auto", "litmus/c11/CAS-retry-inc.litmus"]);
    assert!(log.contains("\nNo\n") && log.contains("Never 0 2"), "{log}");
    assert!(err.contains("every execution ends within 2 iterations"), "{err}");
    let (log, _) = check(&["-m", "c11", "--unroll", "8", "litmus/c11/CAS-retry-inc.litmus"]);
    assert!(log.contains("Never 0 2"), "{log}");
    let (log, err) = check(&["-m", "rc11", "--unroll", "auto", "litmus/c11/MP+spin.litmus"]);
    assert!(log.contains("\nLoop No\n"), "{log}");
    assert!(err.contains("--unroll auto stopped at bound 16") && err.contains("the while at line 10"), "{err}");
    let out = litsat().args(["check", "--unroll", "many", "litmus/c11/MP+spin.litmus"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2), "a bad --unroll is a bad argument");
}

/// Every file below `dir`, by its path relative to `dir`, with its bytes.
fn tree(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("folder").map(|e| e.expect("entry").path()) {
            if e.is_dir() {
                stack.push(e);
            } else {
                let rel = e.strip_prefix(dir).expect("below").to_path_buf();
                out.insert(rel, std::fs::read(&e).expect("file"));
            }
        }
    }
    out
}

/// A fresh, empty folder under the system's temporary folder.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Two runs of `--dimacs` (two processes, one and two workers) write byte-identical files:
/// nothing in the encoding depends on hashing or scheduling. Tests of every ISA with a
/// default model and C, loops and branches (whose paths merge) included.
#[test]
fn dimacs_files_are_the_same_on_every_run() {
    let tests = [
        "litmus/x86/SB.litmus",
        "litmus/x86_64",
        "litmus/riscv/LB+fence.r.ws.litmus",
        "litmus/aarch64/LB+ctrls.litmus",
        "litmus/aarch64/SB+ldxr-stxrs.litmus",
        "litmus/ppc/INC+retry.litmus",
        "litmus/ppc/MP+sync+ctrlisync.litmus",
        "litmus/arm/MP+dmb+addr+symbolic.litmus",
        "litmus/arm/2+inc+ldrex-strex.litmus",
        "litmus/c11",
    ];
    let dirs = [scratch("det1"), scratch("det2")];
    for (dir, jobs) in dirs.iter().zip(["1", "2"]) {
        let out = litsat().args(["check", "-j", jobs, "--dimacs"]).arg(dir).args(tests).current_dir(root()).output();
        let out = out.expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let (a, b) = (tree(&dirs[0]), tree(&dirs[1]));
    assert!(a.len() >= 2 * 20, "{} files", a.len());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(&b[name] == bytes, "{} differs between two runs", name.display());
    }
}

/// Tests of one name in different folders get files of their own: the name keeps as many
/// folders as tell them apart, and a name no other input shares stays bare.
#[test]
fn dimacs_names_do_not_collide_across_folders() {
    let src = scratch("same-name");
    for (sub, header) in [("ATOM", "\"first\""), ("LDAR", "\"second\"")] {
        std::fs::create_dir_all(src.join(sub)).expect("folder");
        sb_with(&src.join(sub), "SB.litmus", header);
    }
    // The second SB asks for another outcome, so its queries differ from the first's.
    let second = src.join("LDAR/SB.litmus");
    let text = std::fs::read_to_string(&second).expect("SB").replace("exists (", "exists (0:EAX=1 /\\ ");
    std::fs::write(&second, text).expect("write");
    std::fs::copy(root().join("litmus/x86/MP.litmus"), src.join("MP.litmus")).expect("copy");
    let dir = scratch("same-name-out");
    let out = litsat().args(["check", "-m", "tso", "--dimacs"]).arg(&dir).arg(&src).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let files: Vec<String> = tree(&dir).keys().map(|p| p.to_string_lossy().to_string()).collect();
    let want = ["ATOM/SB.q1.cnf", "ATOM/SB.q2.cnf", "LDAR/SB.q1.cnf", "LDAR/SB.q2.cnf", "MP.q1.cnf", "MP.q2.cnf"];
    assert_eq!(files, want);
    // Each is the file its test writes when run alone.
    for sub in ["ATOM", "LDAR"] {
        let alone = scratch(&format!("alone-{sub}"));
        let mut cmd = litsat();
        cmd.args(["check", "-m", "tso", "--dimacs"]).arg(&alone).arg(src.join(sub).join("SB.litmus"));
        assert!(cmd.output().expect("runs").status.success());
        for q in ["q1", "q2"] {
            let mine = std::fs::read(dir.join(sub).join(format!("SB.{q}.cnf"))).expect("written");
            assert_eq!(mine, std::fs::read(alone.join(format!("SB.{q}.cnf"))).expect("alone"), "{sub} {q}");
        }
    }
    let differ = |q: &str| {
        std::fs::read(dir.join(format!("ATOM/SB.{q}"))).ok() != std::fs::read(dir.join(format!("LDAR/SB.{q}"))).ok()
    };
    assert!(differ("q1.cnf"), "the two tests' queries differ");
}

/// The `Flag` lines of a log.
fn flag_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.starts_with("Flag ")).collect()
}

/// `--fast` prints herd's `Flag` lines, as the full log does: a C test with a data race is
/// undefined (`Flag *undef*`, the verdict `Undef`) whichever way it is answered.
#[test]
fn fast_logs_carry_the_flags() {
    let dir = scratch("flags");
    let race = "C RACE\n{ }\nP0 (int* x) {\n  *x = 1;\n}\nP1 (int* x) {\n  int r0 = *x;\n}\nexists (1:r0=1)\n";
    std::fs::write(dir.join("RACE.litmus"), race).expect("write");
    std::fs::copy(root().join("litmus/c11/MP+rel+acq.litmus"), dir.join("MP+rel+acq.litmus")).expect("copy");
    let log = |fast: bool| {
        let mut cmd = litsat();
        cmd.args(["check", "-m", "c11"]).arg(&dir);
        if fast {
            cmd.arg("--fast");
        }
        let out = cmd.output().expect("runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let (full, fast) = (log(false), log(true));
    assert_eq!(flag_lines(&full), ["Flag *undef*"], "{full}");
    assert_eq!(flag_lines(&fast), flag_lines(&full), "{fast}");
    assert!(fast.contains("\nUndef\n"), "{fast}");
}
