//! herd's `-variant ifetch` (alias `self`) on AArch64, against herd 7.58's answers in the
//! shared corpora (`../shared`, or `LITSAT_SHARED`), when present: the catalogue's
//! `aarch64-ifetch` suite under its cfg (`variant ifetch,fatal`), herd's instruction
//! tests `AArch64.self` under theirs, and the readers' guide's two instruction-fetch tests.
//!
//! A test litsat answers must agree with herd (Observation, States, counts and flags):
//! no wrong answer, ever. A test it refuses (fault handlers, page tables) must be refused
//! by name. At least the floor agrees, so a mass refusal fails. The tests herd itself
//! refuses (`.expected-failure`) are refused.

mod common;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, Program, load_model};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use litsat_cli::expect::{Answer, by_path, compare, parse_tsv};
use std::path::Path;

/// A cfg under `../shared`, with `cat` (if any) replacing its model, herd's library on
/// the search path.
fn model(sh: &Path, conf: &str, cat: Option<&str>) -> Program {
    let path = |f: &str| Some(sh.join(f).to_string_lossy().to_string());
    let spec = ModelSpec { conf: path(conf), model: cat.and_then(path), ..ModelSpec::default() };
    load_model(&spec, &[sh.join("models/herd")]).expect("cfg and cat load")
}

/// Runs the tests of `tsv` whose path contains `only`: none may disagree with herd or be
/// refused other than by name, and at least `floor` agree. Returns the number agreeing.
fn suite(sh: &Path, tsv: &str, prog: &Program, only: &str, floor: usize) -> usize {
    let corpus = sh.join("corpus");
    let text = std::fs::read_to_string(corpus.join("expected").join(tsv)).expect("tsv");
    let (mut agree, mut refused, mut bad) = (0, Vec::new(), Vec::new());
    for (path, e) in by_path(parse_tsv(&text)).iter().filter(|(p, _)| p.contains(only)) {
        match check_file(&corpus.join(path), prog, &Options::default()).outcome {
            Ok(o) => {
                let d = compare(&Answer::of(&o), e);
                if d.is_empty() {
                    agree += 1;
                } else {
                    bad.push(format!("{path}: {}", d.join("; ")));
                }
            }
            Err(diag) if diag.kind == litsat::DiagKind::Unsupported => refused.push(path.clone()),
            Err(diag) => bad.push(format!("{path}: refused, not by name: {diag}")),
        }
    }
    println!("{tsv}: {agree} agree with herd, {} refused by name", refused.len());
    assert!(bad.is_empty(), "{} wrong or unexplained:\n{}", bad.len(), bad.join("\n"));
    assert!(agree >= floor, "{tsv}: only {agree} tests agree with herd, fewer than {floor}");
    agree
}

#[test]
fn catalogue_ifetch_suite_agrees() {
    let Some(sh) = shared_or_skip("the aarch64-ifetch catalogue") else { return };
    let prog =
        model(&sh, "corpus/herd-aarch64/cfgs/catalogue-aarch64-ifetch-new-web.cfg", Some("models/herd/aarch64.cat"));
    // Of 163: refused are 5 tests with fault handlers (`P0.F`) and one with a page-table
    // value (`(oa:phy_x)`, herd's vmsa).
    suite(&sh, "a64-ifetch.aarch64.tsv", &prog, "", 157);
}

#[test]
fn readers_guide_fetch_tests_agree() {
    let Some(sh) = shared_or_skip("the readers' guide's instruction-fetch tests") else { return };
    let prog = model(
        &sh,
        "corpus/herd-aarch64/cfgs/catalogue-aarch64-readers-guide-new-web.cfg",
        Some("models/herd/aarch64.cat"),
    );
    // The tests say `Variant=ifetch` themselves; the cfg names none.
    let n = suite(&sh, "a64-readers-guide.aarch64.tsv", &prog, "MP.FF+", 2);
    assert_eq!(n, 2, "DIC1.MP.FF+dmb.st+po and MP.FF+dc.cvau-dsb.ish-ic.ivau-dsb.ish+po");
}

#[test]
fn herd_self_instruction_tests_agree() {
    let Some(sh) = shared_or_skip("herd's AArch64.self instruction tests") else { return };
    let prog = model(&sh, "corpus/herd-aarch64/cfgs/instructions-AArch64.self.cfg", None);
    suite(&sh, "instructions-aarch64-self.aarch64.tsv", &prog, "", 39);
    // What herd refuses (a store to a final label, a branch out of the code, an ADR to no
    // label, a branch to a number), litsat refuses too.
    let dir = sh.join("corpus/herd-aarch64/instructions/AArch64.self");
    let mut failures: Vec<_> = std::fs::read_dir(&dir)
        .expect("folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "expected-failure"))
        .collect();
    failures.sort();
    assert_eq!(failures.len(), 8);
    for f in failures {
        let test = f.with_extension("");
        let r = check_file(&test, &prog, &Options::default());
        assert!(r.outcome.is_err(), "{}: herd refuses it, litsat answered", test.display());
    }
}
