//! herd7's options that change the log, each with herd's meaning (issue #39):
//! `-strictskip`, `-candidates`, `-outcomereads`, `-speedcheck true`, `-conds`, `-rename`,
//! on herd7's command line, as cfg keys and as `litsat check` flags.
//!
//! No shared raw log ran herd with these options, so the expected logs come from herd's
//! sources (herdtools7 5feffe4e): `herd/top_herd.ml` (the `Candidates` line,
//! `cfail + cands`; `-outcomereads` restricting each state to memory and the registers
//! that loads write; the Observation under speedcheck), `herd/mem.ml` (`worth_going`:
//! under `-speedcheck true` only the executions that decide the condition reach the
//! model), `lib/interpreter.ml` and `herd/machModelChecker.ml` (`-strictskip`: an
//! execution is kept where the set of skipped checks it fails is every skipped check),
//! `lib/lexRename.mll` (the map files of `-conds`, `-rename`) and `lib/genParser.ml`,
//! `lib/splitter.mll` (a test renamed as it is split; its condition replaced by its new
//! name). Three expectations are herd's own regression outputs
//! (`herd/tests/other/output.t/run.t`): `Candidates MP 4`, `Candidates Loop-zero 0` for
//! a thread that only loops, and the `-outcomereads true` states of MP+CAS-rfi-ctrl+acq,
//! whose shapes the tests below write out again.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn litsat() -> &'static str {
    env!("CARGO_BIN_EXE_litsat")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-herdopts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temp folder");
    d
}

/// Runs `litsat SUB ARGS` in `dir`.
fn run(dir: &Path, sub: &str, args: &[&str]) -> Output {
    Command::new(litsat()).arg(sub).args(args).current_dir(dir).output().expect("litsat runs")
}

/// The log's lines, `Time` lines aside.
fn log(o: &Output) -> Vec<String> {
    text(&o.stdout).lines().filter(|l| !l.starts_with("Time ")).map(String::from).collect()
}

/// The lines of a log that start with `word`.
fn lines(o: &Output, word: &str) -> Vec<String> {
    log(o).into_iter().filter(|l| l.starts_with(word)).collect()
}

fn states(o: &Output) -> Vec<String> {
    let all = log(o);
    let Some(k) = all.iter().position(|l| l.starts_with("States ")) else { return Vec::new() };
    let n: usize = all[k]["States ".len()..].parse().expect("a count");
    all[k + 1..k + 1 + n].to_vec()
}

const SB: &str = "X86 SB\n{ x=0; y=0; }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n \
                  MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

const MP: &str = "AArch64 MP\n{\n0:X1=x; 0:X3=y;\n1:X1=y; 1:X3=x;\n}\n P0          | P1          ;\n \
                  MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X1] | LDR W2,[X3] ;\n MOV W2,#1   |             ;\n \
                  STR W2,[X3] |             ;\nexists (1:X0=1 /\\ 1:X2=0)\n";

const LOOP: &str = "AArch64 Loop-zero\n{\n}\n P0          ;\nL0:          ;\n B L0        ;\nforall (true)\n";

/// A compare-and-swap writes its register W1 with the value it reads: a register no
/// condition names, which `-outcomereads` shows.
const CAS: &str = "AArch64 MP+CAS-rfi-ctrl+acq\n{\n0:X0=x; 0:X4=y;\n1:X1=y; 1:X3=x;\n}\n\
                   P0             | P1           ;\nMOV W1,#0      | LDAR W0,[X1] ;\n\
                   MOV W2,#1      | LDR W2,[X3]  ;\nCAS W1,W2,[X0] |              ;\n\
                   CBNZ W1,out    |              ;\nMOV W3,#1      |              ;\n\
                   STR W3,[X4]    |              ;\nout:           |              ;\n\
                   exists (x=1 /\\ 1:X0=1 /\\ 1:X2=0)\n";

/// P1 loads into W2 only where it read 1 from y, which no thread writes.
const NEVER_LOADED: &str = "AArch64 Never-loaded\n{\n0:X3=x;\n1:X1=y; 1:X3=x;\n}\n P0          | P1          ;\n \
                            MOV W0,#1   | LDR W0,[X1] ;\n STR W0,[X3] | CBZ W0,end  ;\n             | \
                            LDR W2,[X3] ;\n             | end:        ;\nexists (1:X2=0)\n";

fn scratch(name: &str) -> PathBuf {
    let dir = temp(name);
    for (f, t) in [("SB.litmus", SB), ("MP.litmus", MP), ("Loop.litmus", LOOP), ("CAS.litmus", CAS)] {
        std::fs::write(dir.join(f), t).unwrap();
    }
    std::fs::write(dir.join("NL.litmus"), NEVER_LOADED).unwrap();
    dir
}

/// `-candidates true` adds `Candidates NAME N` after `Time`: the executions the model
/// rejected and those it kept. Under sc, SB's fourth candidate is rejected and counted.
#[test]
fn candidates_counts_what_the_model_rejects_too() {
    let dir = scratch("candidates");
    let o = run(&dir, "herd7", &["-model", "sc", "-candidates", "true", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Never 0 3"]);
    assert_eq!(lines(&o, "Candidates"), ["Candidates SB 4"]);
    let all = text(&o.stdout);
    let (time, cand, hash) = (all.find("\nTime SB"), all.find("\nCandidates SB"), all.find("\nHash="));
    assert!(time < cand && cand < hash, "herd's order: Time, Candidates, Hash: {all}");
    // herd's own: MP, four candidates; a thread that only loops, none (its executions are
    // cut off, and the model keeps them).
    let o = run(&dir, "herd7", &["-candidates", "true", "MP.litmus", "Loop.litmus"]);
    assert_eq!(lines(&o, "Candidates"), ["Candidates MP 4", "Candidates Loop-zero 0"]);
    assert_eq!(lines(&o, "Loop"), ["Loop Ok"]);
    // Without the option, no such line.
    let o = run(&dir, "herd7", &["-model", "sc", "-candidates", "false", "SB.litmus"]);
    assert!(lines(&o, "Candidates").is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-strictskip true`: the executions that fail every skipped check and pass the others.
#[test]
fn strictskip_keeps_the_executions_that_fail_the_skipped_checks() {
    let dir = scratch("strictskip");
    let o = run(&dir, "herd7", &["-model", "sc", "-skipcheck", "sc", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Sometimes 1 3"]);
    let o = run(&dir, "herd7", &["-model", "sc", "-skipcheck", "sc", "-strictskip", "true", "SB.litmus"]);
    assert_eq!(states(&o), ["0:EAX=0; 1:EAX=0;"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Always 1 0"]);
    // The strictskip rejections are no model failures: one candidate.
    let o = run(
        &dir,
        "herd7",
        &["-model", "sc", "-skipchecks", "sc", "-strictskip", "true", "-candidates", "true", "SB.litmus"],
    );
    assert_eq!(lines(&o, "Candidates"), ["Candidates SB 1"]);
    // A skipped name that names no check is never failed: nothing is kept. So is a
    // check that never fails (`atom`: SB has no read-modify-write).
    for skip in ["nosuch", "sc,atom"] {
        let o = run(&dir, "herd7", &["-model", "sc", "-skipchecks", skip, "-strictskip", "true", "SB.litmus"]);
        assert_eq!(lines(&o, "Observation"), ["Observation SB Never 0 0"], "{skip}");
    }
    // Under -through all a skipped plain check passes, so it is never failed either.
    let o = run(
        &dir,
        "herd7",
        &["-model", "sc", "-skipcheck", "sc", "-strictskip", "true", "-through", "all", "SB.litmus"],
    );
    assert_eq!(lines(&o, "Observation"), ["Observation SB Never 0 0"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-speedcheck true`: only the executions that decide the condition are listed, and
/// the Observation cannot say Always of an exists, nor Never of a forall.
#[test]
fn speedcheck_true_lists_the_deciding_executions() {
    let dir = scratch("speedcheck");
    let o = run(&dir, "herd7", &["-model", "tso", "-speedcheck", "true", "SB.litmus"]);
    assert_eq!(states(&o), ["0:EAX=0; 1:EAX=0;"]);
    assert_eq!(lines(&o, "Ok"), ["Ok"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Sometimes 1 0"]);
    let o = run(&dir, "herd7", &["-model", "sc", "-speedcheck", "true", "SB.litmus"]);
    assert_eq!(lines(&o, "States"), ["States 0"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Never 0 0"]);
    // A forall: the executions that falsify it.
    std::fs::write(dir.join("SBf.litmus"), SB.replace("exists", "forall").replace("X86 SB", "X86 SBf")).unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-speedcheck", "true", "SBf.litmus"]);
    assert_eq!(lines(&o, "States"), ["States 3"]);
    assert_eq!(lines(&o, "No"), ["No"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SBf Sometimes 0 3"]);
    // -speedcheck fast is still the verdict alone.
    let o = run(&dir, "herd7", &["-model", "tso", "-speedcheck", "fast", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Sometimes 0 0"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-outcomereads true`: each state shows the registers written by instructions that read
/// memory, and no other register; states that then look alike are one.
#[test]
fn outcomereads_shows_the_registers_loads_write() {
    let dir = scratch("outcomereads");
    let o = run(&dir, "herd7", &["-outcomereads", "true", "CAS.litmus"]);
    let want = [
        "0:X1=0; 1:X0=0; 1:X2=0; [x]=1;",
        "0:X1=0; 1:X0=0; 1:X2=1; [x]=1;",
        "0:X1=0; 1:X0=1; 1:X2=0; [x]=1;",
        "0:X1=0; 1:X0=1; 1:X2=1; [x]=1;",
    ];
    assert_eq!(states(&o), want);
    assert_eq!(lines(&o, "Observation"), ["Observation MP+CAS-rfi-ctrl+acq Sometimes 2 6"]);
    let o = run(&dir, "herd7", &["-outcomereads", "false", "CAS.litmus"]);
    assert_eq!(states(&o)[0], "1:X0=0; 1:X2=0; [x]=1;");
    // A load no execution reaches shows nothing: 1:X2 goes, and the two states merge.
    let o = run(&dir, "herd7", &["NL.litmus"]);
    assert_eq!(states(&o), ["1:X2=0;"]);
    let o = run(&dir, "herd7", &["-outcomereads", "true", "NL.litmus"]);
    assert_eq!(states(&o), ["1:X0=0;"]);
    assert_eq!(lines(&o, "Observation"), ["Observation Never-loaded Always 1 0"]);
    // A register of the condition that no load writes is not shown, yet the condition
    // still reads it.
    std::fs::write(
        dir.join("R.litmus"),
        "X86 R\n{ x=0; }\n P0          ;\n MOV EBX,$2  ;\n MOV EAX,[x] ;\nforall (0:EBX=2 /\\ 0:EAX=0)\n",
    )
    .unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-outcomereads", "true", "R.litmus"]);
    assert_eq!(states(&o), ["0:EAX=0;"]);
    assert_eq!(lines(&o, "Observation"), ["Observation R Always 1 0"]);
    // In C, herd's instruction is a statement (`StoreReg` in herd's C semantics): the
    // local a load is assigned to is shown, never litsat's temporaries.
    let c = "C Rc\n{ x=0; }\nP0(atomic_int *x) {\n  int r1 = 2;\n  int r0 = atomic_load_explicit(x, memory_order_relaxed);\n}\nexists (0:r1=2)\n";
    std::fs::write(dir.join("Rc.litmus"), c).unwrap();
    let o = run(&dir, "check", &["-m", "sc", "--outcomereads", "Rc.litmus"]);
    assert_eq!(states(&o), ["0:r0=0;"], "{}", text(&o.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-conds FILE`: a test's condition replaced by the one the file gives its name;
/// `-rename FILE`: its name replaced, and the selection and the maps read the new name.
#[test]
fn conds_and_rename_maps_are_read_as_herd_reads_them() {
    let dir = scratch("maps");
    std::fs::write(dir.join("conds"), "# c\nSB \"~exists (0:EAX=1 /\\ 1:EAX=1)\" % both\nMP \"exists (1:X0=1)\"\n")
        .unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-conds", "conds", "SB.litmus"]);
    assert_eq!(lines(&o, "Test"), ["Test SB Forbidden"]);
    assert_eq!(lines(&o, "Condition"), ["Condition ~exists (0:EAX=1 /\\ 1:EAX=1)"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Sometimes 1 3"]);
    // The digest is the test's own.
    let plain = run(&dir, "herd7", &["-model", "tso", "SB.litmus"]);
    assert_eq!(lines(&o, "Hash="), lines(&plain, "Hash="));
    // Renamed, by the first file that names it; within a file, by its last line.
    std::fs::write(dir.join("r1"), "SB SB-first\nSB SB-last\n").unwrap();
    std::fs::write(dir.join("r2"), "SB SB-second\n").unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-rename", "r1", "-rename", "r2", "SB.litmus"]);
    assert_eq!(lines(&o, "Test"), ["Test SB-last Allowed"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB-last Sometimes 1 3"]);
    let o = run(&dir, "herd7", &["-model", "tso", "-rename", "r1", "-oknames", "SB", "SB.litmus"]);
    assert!(lines(&o, "Test").is_empty(), "selected by its new name");
    std::fs::write(dir.join("c2"), "SB-last \"exists (0:EAX=1)\"\n").unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-rename", "r1", "-conds", "c2", "SB.litmus"]);
    assert_eq!(lines(&o, "Condition"), ["Condition exists (0:EAX=1)"]);
    // A bad condition or line is located in its file, exit 2.
    std::fs::write(dir.join("bad"), "SB \"exists (0:EAX=1 /\\\"\n").unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-conds", "bad", "SB.litmus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("bad:1:12"), "{}", text(&o.stderr));
    std::fs::write(dir.join("bad"), "SB a b\n").unwrap();
    let o = run(&dir, "herd7", &["-model", "tso", "-rename", "bad", "SB.litmus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("bad:1:6"), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same keys in a cfg file (`-conf`, `litsat check -m X.cfg`), and as `litsat check`
/// flags.
#[test]
fn the_keys_work_in_a_cfg_and_as_check_flags() {
    let dir = scratch("cfg");
    std::fs::write(dir.join("s.cfg"), "model sc.cat\nskipchecks sc\nstrictskip true\n").unwrap();
    std::fs::write(dir.join("t.cfg"), "model tso.cat\nspeedcheck true\noutcomereads true\n").unwrap();
    let o = run(&dir, "herd7", &["-conf", "s.cfg", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Always 1 0"]);
    let o = run(&dir, "check", &["-m", "s.cfg", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Always 1 0"]);
    let o = run(&dir, "check", &["-m", "t.cfg", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Sometimes 1 0"]);
    let o = run(&dir, "check", &["-m", "sc", "--skipchecks", "sc", "--strictskip", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Always 1 0"]);
    let o = run(&dir, "check", &["-m", "sc", "--candidates", "SB.litmus"]);
    assert_eq!(lines(&o, "Candidates"), ["Candidates SB 4"]);
    let o = run(&dir, "check", &["-m", "tso", "--speedcheck", "true", "SB.litmus"]);
    assert_eq!(lines(&o, "Observation"), ["Observation SB Sometimes 1 0"]);
    let o = run(&dir, "check", &["--outcomereads", "CAS.litmus"]);
    assert_eq!(states(&o)[0], "0:X1=0; 1:X0=0; 1:X2=0; [x]=1;");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A cfg's per-test files (`names`, `excl`, `kinds`, `conds`, `rename`) act as herd7's
/// options of the same names; litsat's own commands, which have no such options, refuse
/// such a cfg by the key's name.
#[test]
fn a_cfgs_per_test_files_act_as_the_options() {
    let dir = scratch("cfgmaps");
    // Selected and changed by the name `rename` gives, as herd does.
    std::fs::write(dir.join("kinds"), "SB-cfg Forbidden\n").unwrap();
    std::fs::write(dir.join("names"), "MP\nSB-cfg\n").unwrap();
    std::fs::write(dir.join("excl"), "MP\n").unwrap();
    std::fs::write(dir.join("ren"), "SB SB-cfg\n").unwrap();
    std::fs::write(dir.join("k.cfg"), "model tso.cat\nkinds kinds\nnames names\nexcl excl\nrename ren\n").unwrap();
    let o = run(&dir, "herd7", &["-conf", "k.cfg", "SB.litmus", "MP.litmus", "Loop.litmus"]);
    assert_eq!(lines(&o, "Test"), ["Test SB-cfg Forbidden"], "{}", text(&o.stderr));
    assert_eq!(lines(&o, "Observation"), ["Observation SB-cfg Sometimes 1 3"]);
    // The cfg's files come first: its kinds win over a later -kinds file's.
    std::fs::write(dir.join("kinds2"), "SB-cfg Required\n").unwrap();
    let o = run(&dir, "herd7", &["-conf", "k.cfg", "-kinds", "kinds2", "SB.litmus"]);
    assert_eq!(lines(&o, "Test"), ["Test SB-cfg Forbidden"]);
    for (cmd, args) in [("check", &["-m", "k.cfg"][..]), ("diff", &["-m", "k.cfg", "-m", "sc"])] {
        let o = run(&dir, cmd, &[args, &["SB.litmus"]].concat());
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(text(&o.stderr).contains("the cfg key `names`"), "{cmd}: {}", text(&o.stderr));
    }
    // `diff` runs the tests both cfgs select: SB differs between tso and sc, unless the
    // cfg leaves it out by name.
    std::fs::write(dir.join("no-sb.cfg"), "model tso.cat\nnonames SB\n").unwrap();
    let o = run(&dir, "diff", &["-m", "tso", "-m", "sc", "SB.litmus", "MP.litmus"]);
    assert!(text(&o.stdout).contains("SB"), "{}", text(&o.stdout));
    let o = run(&dir, "diff", &["-m", "no-sb.cfg", "-m", "sc", "SB.litmus", "MP.litmus"]);
    assert!(!text(&o.stdout).contains("SB"), "{}", text(&o.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-strictskip` of a flag: herd records the flag where its check holds and counts the
/// skipped check as failed where it does not, so the executions kept are those that do
/// not raise it (here, under the LKMM, the one without a data race), and none raises it.
#[test]
fn strictskip_of_a_flag_keeps_the_executions_without_it() {
    let Some(shared) = common::shared_or_skip("the LKMM (models/lkmm)") else { return };
    let dir = temp("flag");
    let mp = "C MP+plain\n\n{}\n\nP0(int *x, int *y)\n{\n\t*x = 1;\n\tsmp_store_release(y, 1);\n}\n\n\
              P1(int *x, int *y)\n{\n\tint r0;\n\tint r1 = -1;\n\n\tr0 = smp_load_acquire(y);\n\tr1 = *x;\n}\n\n\
              exists (1:r0=1 /\\ 1:r1=0)\n";
    std::fs::write(dir.join("MP+plain.litmus"), mp).unwrap();
    let lkmm = shared.join("models/lkmm");
    let (inc, cfg) = (lkmm.display().to_string(), lkmm.join("linux-kernel.cfg").display().to_string());
    let herd = |extra: &[&str]| {
        let mut args = vec!["-I", &inc, "-conf", &cfg];
        args.extend_from_slice(extra);
        args.push("MP+plain.litmus");
        run(&dir, "herd7", &args)
    };
    let o = herd(&[]);
    assert_eq!((states(&o).len(), lines(&o, "Flag")), (3, vec!["Flag data-race".to_string()]));
    let o = herd(&["-skipcheck", "data-race", "-strictskip", "true"]);
    assert_eq!(states(&o), ["1:r0=1; 1:r1=1;"]);
    assert!(lines(&o, "Flag").is_empty());
    let o = herd(&["-throughflag", "data-race"]);
    assert_eq!(states(&o).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// herd's own regression outputs (`herd/tests/other/output.t/run.t`), reproduced line for
/// line under herd's current `aarch64.cat` from the shared library, `Time` aside: MP's
/// candidates, Loop-zero's, and MP+CAS-rfi-ctrl+acq under `-outcomereads true`.
#[test]
fn herds_own_outputs_under_its_aarch64_cat() {
    let Some(shared) = common::shared_or_skip("herd's aarch64.cat (models/herd)") else { return };
    let dir = scratch("herd-aarch64");
    let lib = shared.join("models/herd").display().to_string();
    let o = run(&dir, "herd7", &["-set-libdir", &lib, "MP.litmus", "-candidates", "true"]);
    assert_eq!(lines(&o, "Candidates"), ["Candidates MP 4"]);
    let o = run(&dir, "herd7", &["-set-libdir", &lib, "Loop.litmus", "-candidates", "true"]);
    let want = [
        "Test Loop-zero Required",
        "States 0",
        "Loop Ok",
        "Witnesses",
        "Positive: 0 Negative: 0",
        "Condition forall (true)",
        "Observation Loop-zero Never 0 0",
        "Candidates Loop-zero 0",
        "Hash=89723a07ff97592f57f8dbfa0871cfdd",
        "",
    ];
    assert_eq!(log(&o), want);
    let o = run(&dir, "herd7", &["-set-libdir", &lib, "CAS.litmus", "-outcomereads", "true"]);
    let want = [
        "Test MP+CAS-rfi-ctrl+acq Allowed",
        "States 4",
        "0:X1=0; 1:X0=0; 1:X2=0; [x]=1;",
        "0:X1=0; 1:X0=0; 1:X2=1; [x]=1;",
        "0:X1=0; 1:X0=1; 1:X2=0; [x]=1;",
        "0:X1=0; 1:X0=1; 1:X2=1; [x]=1;",
        "Ok",
        "Witnesses",
        "Positive: 2 Negative: 6",
        "Condition exists ([x]=1 /\\ 1:X0=1 /\\ 1:X2=0)",
        "Observation MP+CAS-rfi-ctrl+acq Sometimes 2 6",
        "Hash=62c8603fff543d64f663988ed4b06cd9",
        "",
    ];
    assert_eq!(log(&o), want);
    let _ = std::fs::remove_dir_all(&dir);
}
