//! Conformance with herd7 on the shared corpora (`../shared`, or `LITSAT_SHARED`), when present.
//!
//! Each suite is run under a model and compared with herd's answers (Observation, States
//! and Witnesses counts). Every test of a TSV is one herd answered, so litsat must answer
//! it too: an "unsupported" diagnostic, a limit or any other error fails the suite. A
//! wrong answer fails, unless `tests/known-gaps.tsv` lists it with a reason — and a listed
//! gap that starts agreeing fails too, so the list stays true. Each suite also has a
//! floor, the number of tests README.md's agreement tables claim agree with herd.

mod common;

use common::{shared, shared_or_skip};
use litsat::cat::{ModelSpec, Program, load_model, load_program};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use litsat_cli::expect::{Answer, by_path, compare, parse_tsv};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// `model<TAB>path` pairs that are known to differ from herd, with a reason column.
fn known_gaps() -> BTreeSet<(String, String)> {
    let text = include_str!("known-gaps.tsv");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c.len() >= 3).then(|| (c[0].to_string(), c[1].to_string()))
        })
        .collect()
}

/// A bundled model's name, or a `.cat` or `.cfg` file under `../shared`, or `CFG|CAT`: the
/// cat under the cfg's other settings (as `--conf CFG -m CAT`).
fn model(sh: &Path, model: &str, includes: &[&str]) -> Program {
    let incs: Vec<PathBuf> = includes.iter().map(|i| sh.join(i)).collect();
    if let Some((conf, cat)) = model.split_once('|') {
        let [conf, cat] = [conf, cat].map(|f| Some(sh.join(f).to_string_lossy().to_string()));
        return load_model(&ModelSpec { conf, model: cat, ..ModelSpec::default() }, &incs).expect("cfg and cat load");
    }
    let path = sh.join(model).to_string_lossy().to_string();
    if model.ends_with(".cfg") {
        load_model(&ModelSpec { conf: Some(path), ..ModelSpec::default() }, &incs).expect("cfg loads")
    } else if model.ends_with(".cat") {
        load_program(&path, &incs).expect("model loads")
    } else {
        load_program(model, &incs).expect("model loads")
    }
}

/// Runs one suite under one model and fails on any unexplained disagreement, on any test
/// herd answered and litsat did not, and when fewer than `floor` tests match herd.
fn suite_floor(tsv: &str, model: &str, includes: &[&str], floor: usize, opts: Options) {
    let Some(sh) = shared_or_skip(&format!("{tsv} under {model}")) else { return };
    let corpus = sh.join("corpus");
    let models = self::model(&sh, model, includes);
    let text = std::fs::read_to_string(corpus.join("expected").join(tsv)).expect("tsv");
    let expected = by_path(parse_tsv(&text));
    let gaps = known_gaps();
    let model_key = model.rsplit('/').next().unwrap_or(model).to_string();
    let results: Vec<_> = expected
        .par_iter()
        .map(|(path, e)| {
            let gap = gaps.contains(&(model_key.clone(), path.clone()));
            let r = check_file(&corpus.join(path), &models, &opts);
            match (r.outcome, gap) {
                (Ok(o), false) => {
                    let d = compare(&Answer::of(&o), e);
                    if d.is_empty() { Ok(true) } else { Err(format!("{path}: {}", d.join("; "))) }
                }
                (Ok(o), true) if compare(&Answer::of(&o), e).is_empty() => {
                    Err(format!("{path}: listed in known-gaps.tsv but agrees with herd now"))
                }
                (Ok(_), true) => Ok(false),
                // A known gap may be a refusal by name (a feature not built yet).
                (Err(diag), true) if diag.kind == litsat::DiagKind::Unsupported => Ok(false),
                (Err(diag), _) => Err(format!("{path}: herd answered, litsat did not: {diag}")),
            }
        })
        .collect();
    let matched = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let other = results.iter().filter(|r| matches!(r, Ok(false))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!(
        "{tsv} under {model}: {matched} match herd, {other} known gaps, {} wrong or unanswered, of {}",
        bad.len(),
        expected.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements with herd:\n{}",
        bad.len(),
        bad.iter().take(40).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    assert!(matched >= floor, "{tsv} under {model}: only {matched} tests match herd, fewer than {floor}");
}

const HERD: &[&str] = &["models/herd"];
/// herd's current AArch64 model under each catalogue suite's cfg (display settings only).
const A64_CATALOGUE: &str = "corpus/herd-aarch64/cfgs/catalogue-aarch64-new-web.cfg|models/herd/aarch64.cat";
const A64_READERS_GUIDE: &str =
    "corpus/herd-aarch64/cfgs/catalogue-aarch64-readers-guide-new-web.cfg|models/herd/aarch64.cat";
const A64_CAS: &str = "corpus/herd-aarch64/cfgs/catalogue-aarch64-cas-new-web.cfg|models/herd/aarch64.cat";
const ARM: &[&str] = &["models/herd-aarch64-2018", "models/herd"];

/// One test per suite: TSV, model, include folders, and the floor, the number of tests
/// README.md's agreement table claims agree with herd.
macro_rules! suites {
    ($($name:ident: $tsv:expr, $model:expr, $inc:expr, $floor:expr;)*) => {
        $(#[test] fn $name() { suite_floor($tsv, $model, $inc, $floor, Options::default()); })*
    };
}

suites! {
    dat3m_x86_sc_bundled: "dat3m-x86.sc.tsv", "sc", &[], 487;
    dat3m_x86_tso_bundled: "dat3m-x86.x86tso.tsv", "tso", &[], 487;
    dat3m_x86_sc_herd: "dat3m-x86.sc.tsv", "models/herd/sc.cat", HERD, 487;
    dat3m_x86_x86tso_herd: "dat3m-x86.x86tso.tsv", "models/herd/x86tso.cat", HERD, 487;
    catalogue_x86_sc_bundled: "catalogue-x86.sc.tsv", "sc", &[], 23;
    catalogue_x86_tso_bundled: "catalogue-x86.x86tso.tsv", "tso", &[], 23;
    catalogue_x86_sc_herd: "catalogue-x86.sc.tsv", "models/herd/sc.cat", HERD, 23;
    catalogue_x86_x86tso_herd: "catalogue-x86.x86tso.tsv", "models/herd/x86tso.cat", HERD, 23;
    catalogue_x86_64_sc_bundled: "catalogue-x86_64.sc.tsv", "sc", &[], 28;
    catalogue_x86_64_tso_bundled: "catalogue-x86_64.x86tso-mixed.tsv", "tso", &[], 28;
    catalogue_x86_64_mixed_herd: "catalogue-x86_64.x86tso-mixed.tsv", "models/herd/x86tso-mixed.cat", HERD, 28;
    dat3m_riscv_sc_bundled: "dat3m-riscv.sc.tsv", "sc", &[], 6843;
    dat3m_riscv_sc_herd: "dat3m-riscv.sc.tsv", "models/herd/sc.cat", HERD, 6843;
    dat3m_riscv_riscv_herd: "dat3m-riscv.riscv.tsv", "models/herd/riscv.cat", HERD, 6843;
    dat3m_riscv_rvwmo_bundled: "dat3m-riscv.riscv.tsv", "rvwmo", &[], 6843;
    instructions_riscv_rvwmo_bundled: "instructions-riscv.riscv.tsv", "rvwmo", &[], 28;
    instructions_riscv_sc_bundled: "instructions-riscv.sc.tsv", "sc", &[], 28;
    instructions_riscv_riscv_herd: "instructions-riscv.riscv.tsv", "models/herd/riscv.cat", HERD, 28;
    dat3m_aarch64_sc_bundled: "dat3m-aarch64.sc.tsv", "sc", &[], 5140;
    dat3m_aarch64_herd2018: "dat3m-aarch64.aarch64-2018.tsv", "models/herd-aarch64-2018/aarch64.cat", ARM, 5140;
    dat3m_aarch64_bundled: "dat3m-aarch64.aarch64-2018.tsv", "aarch64", &[], 5140;
    dat3m_aarch64_herd: "dat3m-aarch64.aarch64.tsv", "models/herd/aarch64.cat", HERD, 2569;
    a64_catalogue_herd: "a64-catalogue.aarch64.tsv", A64_CATALOGUE, HERD, 80;
    a64_cas_herd: "a64-cas.aarch64.tsv", A64_CAS, HERD, 31;
    instructions_aarch64_herd: "instructions-aarch64.aarch64.tsv", "models/herd/aarch64.cat", HERD, 278;
    a64_readers_guide_herd: "a64-readers-guide.aarch64.tsv", A64_READERS_GUIDE, HERD, 50;
    loops_aarch64_bundled: "loops.aarch64-2018.tsv", "aarch64", &[], 1;
    catalogue_lisa_sc_bundled: "catalogue-lisa.sc.tsv", "sc", &[], 28;
    catalogue_lisa_uniproc_herd: "catalogue-lisa.uniproc.tsv", "models/herd/uniproc.cat", HERD, 28;
    lisa_diy_sc_bundled: "lisa-diy.sc.tsv", "sc", &[], 278;
    lisa_diy_uniproc_herd: "lisa-diy.uniproc.tsv", "models/herd/uniproc.cat", HERD, 278;
}

/// herd's mixed-size mode (issue #38): herd's current AArch64 model under `-variant mixed`,
/// with each suite's cfg where it has one (the plain catalogue's cfg for its re-run).
const A64_MIXED_INSTR: &str = "corpus/herd-aarch64/instructions/AArch64.mixed/ci.cfg|models/herd/aarch64.cat";
const A64_MIXED: &str = "corpus/herd-aarch64/cfgs/catalogue-aarch64-mixed-web-mixed.cfg|models/herd/aarch64.cat";

macro_rules! mixed_suites {
    ($($name:ident: $tsv:expr, $model:expr, $floor:expr;)*) => {
        $(#[test] fn $name() { suite_floor($tsv, $model, HERD, $floor, Options::new().variants(["mixed"])); })*
    };
}

mixed_suites! {
    instructions_aarch64_mixed_herd: "instructions-aarch64-mixed.aarch64.tsv", A64_MIXED_INSTR, 19;
    a64_mixed_herd: "a64-mixed.aarch64.tsv", A64_MIXED, 20;
    a64_catalogue_mixed_herd: "a64-catalogue-mixed.aarch64.tsv", A64_CATALOGUE, 80;
    dat3m_aarch64_mixed_herd: "dat3m-aarch64-mixed.aarch64.tsv", "models/herd/aarch64.cat", 625;
}

/// Full logs by counting (issue #15) instead of listing, from each test's first execution
/// on: the same answers as herd's, on every shared TSV corpus (lkmm-scale aside: its
/// 16-process test has one execution per state, which the default lists).
fn counted() -> Options {
    Options::new().count_after(Some(0)).timeout(Some(std::time::Duration::from_secs(60)))
}

macro_rules! counted_suites {
    ($($name:ident: $tsv:expr, $model:expr, $inc:expr, $floor:expr;)*) => {
        $(#[test] fn $name() { suite_floor($tsv, $model, $inc, $floor, counted()); })*
    };
}

counted_suites! {
    counted_dat3m_x86_tso_bundled: "dat3m-x86.x86tso.tsv", "tso", &[], 487;
    counted_instructions_riscv_rvwmo_bundled: "instructions-riscv.riscv.tsv", "rvwmo", &[], 28;
    counted_catalogue_lisa_uniproc_herd: "catalogue-lisa.uniproc.tsv", "models/herd/uniproc.cat", HERD, 28;
    counted_c11_bundled: "dat3m-c11.c11.tsv", "c11", &[], 135;
    counted_rc11_herd: "dat3m-c11.rc11.tsv", "models/herd/rc11.cat", HERD, 135;
    counted_lkmm_catalogue: "lkmm-catalogue.lkmm.tsv", LKMM, LKMM_INC, 79;
    counted_lkmm_paulmck: "lkmm-paulmck.lkmm.tsv", LKMM, LKMM_INC, 725;
    counted_dat3m_x86_sc_bundled: "dat3m-x86.sc.tsv", "sc", &[], 487;
    counted_catalogue_x86_sc_bundled: "catalogue-x86.sc.tsv", "sc", &[], 23;
    counted_catalogue_x86_tso_bundled: "catalogue-x86.x86tso.tsv", "tso", &[], 23;
    counted_catalogue_x86_64_sc_bundled: "catalogue-x86_64.sc.tsv", "sc", &[], 28;
    counted_catalogue_x86_64_mixed_herd: "catalogue-x86_64.x86tso-mixed.tsv", "models/herd/x86tso-mixed.cat", HERD, 28;
    counted_instructions_x86_64_sc_bundled: "instructions-x86_64.sc.tsv", "sc", &[], 13;
    counted_instructions_x86_64_mixed_herd: "instructions-x86_64.x86tso-mixed.tsv", "models/herd/x86tso-mixed.cat", HERD, 13;
    counted_dat3m_riscv_sc_bundled: "dat3m-riscv.sc.tsv", "sc", &[], 6843;
    counted_dat3m_riscv_rvwmo_bundled: "dat3m-riscv.riscv.tsv", "rvwmo", &[], 6843;
    counted_instructions_riscv_sc_bundled: "instructions-riscv.sc.tsv", "sc", &[], 28;
    counted_dat3m_aarch64_sc_bundled: "dat3m-aarch64.sc.tsv", "sc", &[], 5140;
    counted_dat3m_aarch64_bundled: "dat3m-aarch64.aarch64-2018.tsv", "aarch64", &[], 5140;
    counted_dat3m_aarch64_herd: "dat3m-aarch64.aarch64.tsv", "models/herd/aarch64.cat", HERD, 2569;
    counted_a64_catalogue_herd: "a64-catalogue.aarch64.tsv", A64_CATALOGUE, HERD, 80;
    counted_instructions_aarch64_herd: "instructions-aarch64.aarch64.tsv", "models/herd/aarch64.cat", HERD, 278;
    counted_catalogue_lisa_sc_bundled: "catalogue-lisa.sc.tsv", "sc", &[], 28;
    counted_lisa_diy_sc_bundled: "lisa-diy.sc.tsv", "sc", &[], 278;
    counted_lisa_diy_uniproc_herd: "lisa-diy.uniproc.tsv", "models/herd/uniproc.cat", HERD, 278;
    counted_instructions_c_c11_bundled: "instructions-c.c11.tsv", "c11", &[], 12;
    counted_loops_c11_bundled: "loops.c11.tsv", "c11", &[], 1;
    counted_dat3m_ppc_power_bundled: "dat3m-ppc.ppc.tsv", "power", &[], 2363;
    counted_instructions_ppc_power_bundled: "instructions-ppc.ppc.tsv", "power", &[], 17;
    counted_campaign_arm_armv7_bundled: "campaign-arm.arm.tsv", "armv7", &[], 3264;
    counted_instructions_arm_armv7_bundled: "instructions-arm.arm.tsv", "armv7", &[], 22;
}

const LKMM: &str = "models/lkmm/linux-kernel.cfg";
const LKMM_INC: &[&str] = &["models/lkmm"];
const LKMM_HERD_INC: &[&str] = &["models/lkmm", "models/herd"];

/// The LKMM suites bound each test: herd itself needs over 20 s on a few.
fn lkmm_opts() -> Options {
    Options::new().timeout(Some(std::time::Duration::from_secs(30)))
}

#[test]
fn lkmm_catalogue() {
    suite_floor("lkmm-catalogue.lkmm.tsv", LKMM, LKMM_INC, 79, lkmm_opts());
}

#[test]
fn lkmm_catalogue_herd_library() {
    suite_floor("lkmm-catalogue.lkmm.tsv", LKMM, LKMM_HERD_INC, 79, lkmm_opts());
}

#[test]
fn lkmm_paulmck() {
    suite_floor("lkmm-paulmck.lkmm.tsv", LKMM, LKMM_INC, 725, lkmm_opts());
}

/// herd's own library (its `cross.cat`, `cos-opt.cat`, stdlib) in place of the bundled
/// pieces gives the same answers.
#[test]
fn lkmm_paulmck_herd_library() {
    suite_floor("lkmm-paulmck.lkmm.tsv", LKMM, LKMM_HERD_INC, 725, lkmm_opts());
}

#[test]
fn loops_lkmm_herd_library() {
    suite_floor("loops.lkmm.tsv", LKMM, LKMM_HERD_INC, 1, lkmm_opts());
}

// C11 under herd's rc11.cat and herd's default for C, c11_partialSC.cat: all 135 tests
// herd answered.

#[test]
fn c11_rc11_herd() {
    suite_floor("dat3m-c11.rc11.tsv", "models/herd/rc11.cat", HERD, 135, Options::default());
}

#[test]
fn c11_partial_sc_herd() {
    suite_floor("dat3m-c11.c11.tsv", "models/herd/c11_partialSC.cat", HERD, 135, Options::default());
}

// The bundled c11 and rc11, written for litsat, give the same answers as herd's files.

#[test]
fn c11_bundled() {
    suite_floor("dat3m-c11.c11.tsv", "c11", &[], 135, Options::default());
}

#[test]
fn rc11_bundled() {
    suite_floor("dat3m-c11.rc11.tsv", "rc11", &[], 135, Options::default());
}

// herd's C instruction tests: the 12 of 15 herd answered (it rejects C07, C08 and C11).

#[test]
fn instructions_c_herd() {
    suite_floor("instructions-c.c11.tsv", "models/herd/c11_partialSC.cat", HERD, 12, Options::default());
}

#[test]
fn instructions_c_bundled() {
    suite_floor("instructions-c.c11.tsv", "c11", &[], 12, Options::default());
}

#[test]
fn loops_c11() {
    suite_floor("loops.c11.tsv", "c11", &[], 1, Options::default());
    suite_floor("loops.c11.tsv", "models/herd/c11_partialSC.cat", HERD, 1, Options::default());
}

// Power and ARMv7, not multi-copy atomic: under herd's own ppc.cat and arm.cat (ppo.cat's
// four mutually recursive relations, the fence files, ppc-checks.cat, cos.cat) and under the
// bundled power and armv7 (ppo in closed form). Every test herd answered, the ARM
// instruction tests with arrays (A005, A007-A010, A020) and a jump to a label held in a
// register (A015) included.

#[test]
fn ppc_herd() {
    suite_floor("dat3m-ppc.ppc.tsv", "models/herd/ppc.cat", HERD, 2363, Options::default());
}

#[test]
fn ppc_power_bundled() {
    suite_floor("dat3m-ppc.ppc.tsv", "power", &[], 2363, Options::default());
}

#[test]
fn instructions_ppc_herd() {
    suite_floor("instructions-ppc.ppc.tsv", "models/herd/ppc.cat", HERD, 17, Options::default());
    suite_floor("instructions-ppc.ppc.tsv", "power", &[], 17, Options::default());
}

#[test]
fn arm_campaign_herd() {
    suite_floor("campaign-arm.arm.tsv", "models/herd/arm.cat", HERD, 3264, Options::default());
}

#[test]
fn arm_campaign_armv7_bundled() {
    suite_floor("campaign-arm.arm.tsv", "armv7", &[], 3264, Options::default());
}

/// All 22 of herd's ARM instruction tests, arrays (`int x[2] = {1,2}`, `LDRD`, `LDM`,
/// `LDMIB`, `[R0,#4]`, `[R4,R3,lsl #2]`) and a code label as a value (`BX R0` with
/// `0:R0 = P0:foo`) included.
#[test]
fn instructions_arm_herd() {
    suite_floor("instructions-arm.arm.tsv", "models/herd/arm.cat", HERD, 22, Options::default());
    suite_floor("instructions-arm.arm.tsv", "armv7", &[], 22, Options::default());
}

/// All 13 of herd's X86_64 instruction tests, the array one (`int64_t t[2]`, read at
/// `0(%rax,%rbx,8)`) included.
#[test]
fn instructions_x86_64_sc_bundled() {
    suite_floor("instructions-x86_64.sc.tsv", "sc", &[], 13, Options::default());
}

#[test]
fn instructions_x86_64_mixed_herd() {
    suite_floor("instructions-x86_64.x86tso-mixed.tsv", "models/herd/x86tso-mixed.cat", HERD, 13, Options::default());
}

// Loops: herd unrolls them twice by default and drops the executions that need more.

#[test]
fn loops_lkmm() {
    suite_floor("loops.lkmm.tsv", LKMM, LKMM_INC, 1, lkmm_opts());
}

#[test]
fn loops_riscv_herd() {
    suite_floor("loops.riscv.tsv", "models/herd/riscv.cat", HERD, 1, Options::default());
}

#[test]
fn loops_riscv_rvwmo_bundled() {
    suite_floor("loops.riscv.tsv", "rvwmo", &[], 1, Options::default());
}

#[test]
fn loops_aarch64_herd2018() {
    suite_floor("loops.aarch64-2018.tsv", "models/herd-aarch64-2018/aarch64.cat", ARM, 1, Options::default());
}

/// The TSVs do not record herd's `Loop` prefix; its raw log does. Every loop test litsat
/// answers must print the log's verdict line (and counts and states) as herd does.
#[test]
fn loops_match_herds_log_loop_lines() {
    let Some(sh) = shared_or_skip("herd's Loop lines on the loops corpus") else { return };
    let corpus = sh.join("corpus");
    let log = std::fs::read_to_string(corpus.join("expected/logs/loops.log")).expect("loops log");
    let herd = litsat_cli::expect::parse_herd_log(&log);
    let runs: [(&str, &str, &[&str]); 3] = [
        ("LOOP-lkmm-spin", LKMM, LKMM_INC),
        ("LOOP-lrsc-inc", "models/herd/riscv.cat", HERD),
        ("LOOP-ldxr-inc", "models/herd-aarch64-2018/aarch64.cat", ARM),
    ];
    for (name, m, inc) in runs {
        let prog = self::model(&sh, m, inc);
        let e = herd.iter().find(|e| e.name == name).expect("the log has the test");
        assert_eq!(e.looped, Some(true), "{name}: herd's log says Loop");
        let o = check_file(&corpus.join(format!("loops/{name}.litmus")), &prog, &Options::default())
            .outcome
            .expect("answered");
        let d = compare(&Answer::of(&o), e);
        assert!(d.is_empty(), "{name}: {}", d.join("; "));
    }
}

/// `--unroll N` (herd's `-unroll`): the spin can end after 0 to N re-reads, one execution
/// each; the path that keeps reading 0 is cut off whatever N is, so `Loop` stays.
#[test]
fn unroll_option_changes_the_cut() {
    let Some(sh) = shared_or_skip("--unroll on the loops corpus") else { return };
    let prog = self::model(&sh, LKMM, LKMM_INC);
    let path = sh.join("corpus/loops/LOOP-lkmm-spin.litmus");
    for n in [0usize, 1, 3] {
        let opts = Options::new().unroll(Some(n));
        let o = check_file(&path, &prog, &opts).outcome.expect("answered");
        assert_eq!((o.pos, o.neg, o.looped), (0, n as u128 + 1, true), "--unroll {n}");
    }
}

/// `--fast` prints herd's flags as the full log does: on every test of the corpora whose
/// TSVs record flags (C11, the LKMM), the fast answer has the full answer's flags and
/// Observation. Returns how many tests raise some flag.
fn fast_flags_as_full(tsv: &str, model: &str, includes: &[&str], opts: Options) -> usize {
    let Some(sh) = shared() else {
        println!("skipped: ../shared is absent, so {tsv} under {model} was not run");
        return 0;
    };
    let corpus = sh.join("corpus");
    let prog = self::model(&sh, model, includes);
    let text = std::fs::read_to_string(corpus.join("expected").join(tsv)).expect("tsv");
    let expected = by_path(parse_tsv(&text));
    let fast_opts = opts.clone().fast(true);
    let flagged: Vec<Result<bool, String>> = expected
        .par_iter()
        .map(|(path, _)| {
            let answer = |o: &Options| check_file(&corpus.join(path), &prog, o).outcome.map_err(|d| d.to_string());
            let (full, fast) = (answer(&opts)?, answer(&fast_opts)?);
            if (&fast.flags, fast.observation().word()) != (&full.flags, full.observation().word()) {
                return Err(format!(
                    "{path}: --fast {:?} {}, full {:?} {}",
                    fast.flags,
                    fast.observation().word(),
                    full.flags,
                    full.observation().word()
                ));
            }
            Ok(!full.flags.is_empty())
        })
        .collect();
    let bad: Vec<&String> = flagged.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(bad.is_empty(), "{tsv} under {model}:\n{}", bad.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
    let herd_flagged = text.lines().filter(|l| l.split('\t').nth(7).is_some_and(|f| !f.trim().is_empty())).count();
    let n = flagged.iter().filter(|r| matches!(r, Ok(true))).count();
    assert_eq!(n, herd_flagged, "{tsv} under {model}: tests with flags, litsat and herd");
    n
}

#[test]
fn fast_flags_equal_full_flags_c11() {
    for (tsv, model, inc) in [
        ("dat3m-c11.c11.tsv", "c11", &[][..]),
        ("dat3m-c11.rc11.tsv", "rc11", &[]),
        ("dat3m-c11.c11.tsv", "models/herd/c11_partialSC.cat", HERD),
        ("dat3m-c11.rc11.tsv", "models/herd/rc11.cat", HERD),
    ] {
        let n = fast_flags_as_full(tsv, model, inc, Options::default());
        assert!(n > 0 || shared().is_none(), "{tsv} under {model}: no test raises a flag");
    }
}

#[test]
fn fast_flags_equal_full_flags_lkmm() {
    let n = fast_flags_as_full("lkmm-paulmck.lkmm.tsv", LKMM, LKMM_INC, lkmm_opts());
    assert!(n > 0 || shared().is_none(), "no LKMM test raises a flag");
}
