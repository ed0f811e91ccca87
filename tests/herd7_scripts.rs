//! Scripts written for herd7 run on litsat unchanged (issue #39): the Linux kernel's
//! `tools/memory-model/scripts`, and herdtools' regression harness over herd's
//! instruction tests, with litsat's binary on the PATH as `herd7`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A folder holding `herd7`, a link to (or copy of) litsat's binary.
fn herd7_bin(name: &str) -> PathBuf {
    let bin = std::env::temp_dir().join(format!("litsat-herd7-bin-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&bin);
    std::fs::create_dir_all(&bin).expect("a temp folder");
    let link = bin.join("herd7");
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_litsat"), &link).expect("a symlink");
    #[cfg(not(unix))]
    std::fs::copy(env!("CARGO_BIN_EXE_litsat"), &link).expect("a copy");
    bin
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for e in std::fs::read_dir(from).expect("a readable folder").flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("a copy");
        }
    }
}

/// `bash`, when it can be run.
fn has_bash() -> bool {
    Command::new("bash").arg("-c").arg("true").status().is_ok_and(|s| s.success())
}

/// The kernel's `checkalllitmus.sh` and `checktheselitmus.sh`, unmodified, in a writable
/// copy of its `tools/memory-model`: every test's verdict matches its `Result:` line (the
/// scripts' `judgelitmus.sh` reads the `.litmus.out` files herd7 wrote).
#[test]
fn the_kernels_scripts_pass_with_litsat_as_herd7() {
    let Some(shared) = common::shared_or_skip("the kernel's memory-model scripts") else { return };
    if !has_bash() || !Path::new("/usr/bin/time").exists() {
        println!("skipped: the kernel's memory-model scripts (they need bash and /usr/bin/time)");
        return;
    }
    let tree = std::env::temp_dir().join(format!("litsat-kernel-tree-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tree);
    copy_tree(&shared.join("corpus/lkmm/kernel-tree"), &tree);
    let bin = herd7_bin("kernel");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let run = |script: &str, args: &[&str]| {
        Command::new("bash")
            .arg(script)
            .args(args)
            .current_dir(&tree)
            .env("PATH", &path)
            .stdin(Stdio::null())
            .output()
            .expect("bash runs")
    };
    let o = run("scripts/checkalllitmus.sh", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "checkalllitmus.sh failed:\n{out}\n{err}");
    assert!(err.contains("All litmus tests verified as was expected."), "{err}");
    let tests: Vec<PathBuf> = std::fs::read_dir(tree.join("litmus-tests"))
        .expect("litmus-tests")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .collect();
    assert!(tests.len() > 30, "the kernel's litmus-tests: {}", tests.len());
    for t in &tests {
        let log = std::fs::read_to_string(t.with_extension("litmus.out")).expect("a .litmus.out per test");
        assert!(log.starts_with("Herd options: -conf linux-kernel.cfg"), "{}", t.display());
        assert!(log.lines().any(|l| l.starts_with("Observation ")), "{}: {log}", t.display());
    }
    let some: Vec<String> =
        tests.iter().take(3).map(|t| format!("litmus-tests/{}", t.file_name().unwrap().to_string_lossy())).collect();
    let refs: Vec<&str> = std::iter::once("--").chain(some.iter().map(String::as_str)).collect();
    let o = run("scripts/checktheselitmus.sh", &refs);
    assert!(o.status.success(), "checktheselitmus.sh: {}", String::from_utf8_lossy(&o.stderr));
    // A macro the model does not know: herd's words on the `.litmus.out`, which
    // `judgelitmus.sh` reads to name it, rather than calling it a verification error.
    std::fs::write(tree.join("litmus-tests/C-unknown-macro.litmus"), UNKNOWN_MACRO).expect("a test");
    let o = run("scripts/checktheselitmus.sh", &["--", "litmus-tests/C-unknown-macro.litmus"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "checktheselitmus.sh passed a test with an unknown macro:\n{out}");
    assert!(out.contains("Current LKMM version does not know \"spin_unlock_wait\""), "{out}");
    let _ = std::fs::remove_dir_all(&tree);
    let _ = std::fs::remove_dir_all(&bin);
}

/// A kernel-style test calling `spin_unlock_wait`, a macro the LKMM no longer has.
const UNKNOWN_MACRO: &str = "C C-unknown-macro\n\n{}\n\nP0(spinlock_t *r, int *x)\n{\n\tWRITE_ONCE(*x, 1);\n\tspin_unlock_wait(r);\n}\n\nexists (x=1)\n";

/// One folder of herd's instruction tests: how many logs equal herd's `.expected` (line for
/// line, `Time` aside, `Hash` included), and how many of herd's `.expected-failure` tests
/// fail with a non-zero exit.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Figures {
    equal: usize,
    differ: usize,
    failed_as_herd: usize,
    not_failed: usize,
}

/// The log lines compared: all but `Time` (which varies).
fn stable(log: &str) -> Vec<&str> {
    log.lines().filter(|l| !l.starts_with("Time ")).collect()
}

/// Runs each test of `dir` as herdtools' harness runs it, from `root` (where
/// `herd/libdir` is herd's library): `herd7 -exit true -set-libdir herd/libdir -conf
/// DIR/ci.cfg FILE`, the `-conf` where the folder has a `ci.cfg`.
fn suite(herd7: &Path, root: &Path, dir: &Path) -> Figures {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a test folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .collect();
    files.sort();
    let conf = dir.join("ci.cfg");
    let mut f = Figures::default();
    for t in files {
        let (expected, failure) = (t.with_extension("litmus.expected"), t.with_extension("litmus.expected-failure"));
        let mut cmd = Command::new(herd7);
        cmd.args(["-exit", "true", "-set-libdir", "herd/libdir"]).current_dir(root).stdin(Stdio::null());
        if conf.is_file() {
            cmd.arg("-conf").arg(&conf);
        }
        let o = cmd.arg(&t).output().expect("herd7 runs");
        if failure.is_file() {
            if o.status.success() { f.not_failed += 1 } else { f.failed_as_herd += 1 }
        } else if let Ok(want) = std::fs::read_to_string(&expected) {
            let got = String::from_utf8_lossy(&o.stdout);
            if stable(&got) == stable(&want) { f.equal += 1 } else { f.differ += 1 }
        }
    }
    f
}

/// herd's instruction tests of every architecture, run as herd's harness runs them, with
/// floors per folder: logs equal to herd's, and herd's failures failing too.
#[test]
fn herds_instruction_tests_run_as_its_harness_runs_them() {
    let Some(shared) = common::shared_or_skip("herd's instruction tests under herd7's command line") else { return };
    let root = std::env::temp_dir().join(format!("litsat-herd-root-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("herd")).expect("a temp folder");
    #[cfg(unix)]
    std::os::unix::fs::symlink(shared.join("models/herd"), root.join("herd/libdir")).expect("a symlink");
    #[cfg(not(unix))]
    copy_tree(&shared.join("models/herd"), &root.join("herd/libdir"));
    let bin = herd7_bin("instructions");
    // Floors: (folder, logs equal, `Hash` included, failures as herd's). The rest are refused by name
    // (architectures and variants litsat does not implement) or differ in a log line.
    let floors: &[(&str, usize, usize)] = &[
        ("herd-instructions/AArch32", 0, 0),
        ("herd-instructions/ARM", 22, 0),
        ("herd-instructions/C", 14, 0),
        ("herd-instructions/MIPS", 0, 0),
        ("herd-instructions/PPC", 17, 0),
        ("herd-instructions/RISCV", 28, 1),
        ("herd-instructions/X86_64", 13, 0),
        ("herd-aarch64/instructions/AArch64", 277, 31),
        ("herd-aarch64/instructions/AArch64.MTE", 0, 2),
        ("herd-aarch64/instructions/AArch64.kvm", 0, 0),
        ("herd-aarch64/instructions/AArch64.mixed", 19, 0),
        ("herd-aarch64/instructions/AArch64.self", 0, 8),
    ];
    let mut report = Vec::new();
    for &(folder, equal, failed) in floors {
        let dir = shared.join("corpus").join(folder);
        if !dir.is_dir() {
            println!("skipped: {folder} (not in the shared folder)");
            continue;
        }
        let f = suite(&bin.join("herd7"), &root, &dir);
        println!("{folder}: {f:?}");
        // Where herd refuses a test, litsat must refuse it too.
        if f.equal < equal || f.failed_as_herd < failed || f.not_failed > 0 {
            report.push(format!("{folder}: {f:?}, floors {equal} equal, {failed} failures"));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&bin);
    assert!(report.is_empty(), "below the floors:\n{}", report.join("\n"));
}
