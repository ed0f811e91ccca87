//! Differential tests: litsat's SAT engine against the brute-force oracle in `oracle/`.
//!
//! For every test both answer, the final states and the Positive/Negative execution counts
//! must be equal. Tests one side refuses are skipped and counted. Tests whose candidates
//! the model accepts but whose values the oracle cannot determine (a cycle through rf and
//! data) are reported, not failed: the engine may answer those differently. Flags are
//! compared too; a flag disagreement fails only the tests that ask for it (see
//! `cat_flags_against_oracle`), and is counted everywhere else.
//!
//! The oracle itself is checked against herd7: under herd's own `sc.cat` and `x86tso.cat`
//! it must reproduce the answers recorded in `../shared/corpus/expected/`.

mod oracle;

use litsat::cat::{Program, load_program};
use litsat::litmus::{CondKind, parse_test};
use litsat::query::{self, Options, Outcome};
use litsat::report::state_line;
use oracle::{Answer, DEFAULT_BUDGET, Refusal};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared");

fn own_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("litmus")
}

/// What happened to one test under one model.
enum Verdict {
    /// Same states and counts; `Some` when the flags differ.
    Agreed(Option<String>),
    /// The engine (or litsat's front end) refused the test.
    EngineSkip(String),
    /// The oracle refused it (an unsupported construct).
    OracleSkip(String),
    TooBig,
    /// Different answers, but the oracle left some accepted candidates undetermined.
    Undetermined(String),
    Mismatch(String),
}

#[derive(Default)]
struct Tally {
    agreed: usize,
    engine_skip: usize,
    /// Why the engine refused tests: message → count.
    engine_reasons: BTreeMap<String, usize>,
    oracle_skip: usize,
    too_big: usize,
    undetermined: usize,
    undetermined_candidates: u64,
    candidates: u64,
    flag_diffs: Vec<String>,
    mismatches: Vec<String>,
    notes: Vec<String>,
}

/// The reason of a diagnostic, without its file and position.
fn reason(m: &str) -> String {
    m.rsplit("error: ").next().unwrap_or(m).to_string()
}

impl Tally {
    fn add(&mut self, v: Verdict, a: Option<&Answer>) {
        if let Some(a) = a {
            self.candidates += a.candidates;
            self.undetermined_candidates += a.undetermined;
        }
        match v {
            Verdict::Agreed(flags) => {
                self.agreed += 1;
                self.flag_diffs.extend(flags);
            }
            Verdict::EngineSkip(m) => {
                self.engine_skip += 1;
                *self.engine_reasons.entry(reason(&m)).or_default() += 1;
            }
            Verdict::OracleSkip(m) => {
                self.oracle_skip += 1;
                self.notes.push(m);
            }
            Verdict::TooBig => self.too_big += 1,
            Verdict::Undetermined(m) => {
                self.undetermined += 1;
                self.notes.push(m);
            }
            Verdict::Mismatch(m) => self.mismatches.push(m),
        }
    }

    fn summary(&self, what: &str) -> String {
        format!(
            "oracle [{what}]: {} agreed, {} mismatched, {} skipped by the engine, {} unsupported by the \
             oracle, {} too big, {} with undetermined values; {} flag disagreements \
             ({} candidates enumerated, {} undetermined)",
            self.agreed,
            self.mismatches.len(),
            self.engine_skip,
            self.oracle_skip,
            self.too_big,
            self.undetermined,
            self.flag_diffs.len(),
            self.candidates,
            self.undetermined_candidates,
        )
    }
}

/// Every `.litmus` file below `dir`, sorted, as the CLI expands a folder.
fn litmus_files(dir: &Path) -> Vec<PathBuf> {
    litsat::driver::collect_inputs(&[dir.to_string_lossy().to_string()]).unwrap_or_default()
}

fn show_states(s: &BTreeSet<String>) -> String {
    s.iter().cloned().collect::<Vec<_>>().join(" | ")
}

fn read_test(path: &Path) -> Result<(String, String, litsat::litmus::Test), String> {
    let name = path.to_string_lossy().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let text = String::from_utf8_lossy(&bytes).to_string();
    let test = parse_test(&name, &text).map_err(|d| d.to_string())?;
    Ok((name, text, test))
}

/// How the engine's answer differs from the oracle's, as lines of text (flags apart).
fn differences(engine: &Outcome, ans: &Answer) -> String {
    let sat_states: BTreeSet<String> = engine.states.iter().map(state_line).collect();
    let mut diff = String::new();
    if sat_states != ans.states {
        let only_sat: BTreeSet<_> = sat_states.difference(&ans.states).cloned().collect();
        let only_oracle: BTreeSet<_> = ans.states.difference(&sat_states).cloned().collect();
        let _ = write!(
            diff,
            "\n    states only from SAT: {}\n    states only from the oracle: {}",
            show_states(&only_sat),
            show_states(&only_oracle)
        );
    }
    if (engine.pos, engine.neg) != (ans.pos, ans.neg) {
        let _ = write!(
            diff,
            "\n    counts (pos, neg): SAT ({}, {}), oracle ({}, {})",
            engine.pos, engine.neg, ans.pos, ans.neg
        );
    }
    diff
}

/// One test under one model: engine and oracle, compared.
fn diff_one(path: &Path, prog: &Program, check_flags: bool) -> (Verdict, Option<Answer>) {
    let (name, text, test) = match read_test(path) {
        Ok(t) => t,
        Err(m) => return (Verdict::EngineSkip(m), None),
    };
    let engine = match query::run(test.clone(), &name, &text, prog, &Options::default()) {
        Ok(o) => o,
        Err(d) => return (Verdict::EngineSkip(d.to_string()), None),
    };
    let ans = match oracle::answer(test, &name, &text, prog, DEFAULT_BUDGET) {
        Ok(a) => a,
        Err(Refusal::TooBig(_)) => return (Verdict::TooBig, None),
        Err(r) => return (Verdict::OracleSkip(format!("{name}: {r}")), None),
    };
    let mut diff = differences(&engine, &ans);
    let model = prog.display_name();
    let flags = (engine.flags != ans.flags)
        .then(|| format!("{name} under {model}: flags: SAT {:?}, oracle {:?}", engine.flags, ans.flags));
    if check_flags && let Some(f) = &flags {
        let _ = write!(diff, "\n    {f}");
    }
    let verdict = if diff.is_empty() {
        Verdict::Agreed(flags)
    } else if ans.undetermined > 0 {
        Verdict::Undetermined(format!(
            "{name} under {model}: {} accepted candidates with undetermined values{diff}",
            ans.undetermined
        ))
    } else {
        Verdict::Mismatch(format!(
            "{name} under {model} ({} candidates, {} consistent):{diff}",
            ans.candidates, ans.consistent
        ))
    };
    (verdict, Some(ans))
}

/// Runs every (corpus, model) pair, prints the summaries, and fails on any mismatch.
fn run_suite(corpora: &[(&str, PathBuf)], models: &[(&str, Program)], min_agreed: usize, check_flags: bool) {
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut agreed = 0;
    for (cname, dir) in corpora {
        let files = litmus_files(dir);
        assert!(!files.is_empty(), "no tests under {}", dir.display());
        for (mname, prog) in models {
            let results: Vec<_> = files.par_iter().map(|p| diff_one(p, prog, check_flags)).collect();
            let mut t = Tally::default();
            for (v, a) in results {
                t.add(v, a.as_ref());
            }
            eprintln!("{}", t.summary(&format!("{cname} × {mname}")));
            for (r, k) in &t.engine_reasons {
                eprintln!("  engine refused {k}: {r}");
            }
            for n in t.notes.iter().chain(t.flag_diffs.iter().take(3)) {
                eprintln!("  note: {n}");
            }
            agreed += t.agreed;
            failures.extend(t.mismatches);
        }
    }
    eprintln!("oracle: {agreed} agreed in {:.1} s", start.elapsed().as_secs_f64());
    assert!(
        failures.is_empty(),
        "{} disagreements between the SAT engine and the oracle:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(agreed >= min_agreed, "only {agreed} tests compared (expected at least {min_agreed})");
}

fn bundled(names: &[&'static str]) -> Vec<(&'static str, Program)> {
    names.iter().map(|m| (*m, load_program(m, &[]).expect("bundled model"))).collect()
}

fn test_model(name: &'static str) -> Vec<(&'static str, Program)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle_models");
    vec![(name, load_program(&dir.join(name).to_string_lossy(), &[]).expect("test model"))]
}

/// The shared folder, or `None` (with a note) when it is absent.
fn shared() -> Option<&'static Path> {
    let p = Path::new(SHARED);
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("oracle: ../shared is absent; shared-corpus tests skipped");
        None
    }
}

// ---------------------------------------------------------------------------------------
// The engine against the oracle.

#[test]
fn own_corpus_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &bundled(&["sc", "tso", "relaxed"]), 200, false);
}

#[test]
fn shared_corpus_against_oracle() {
    let Some(shared) = shared() else { return };
    let corpora: Vec<_> = [
        ("dat3m/X86", shared.join("corpus/dat3m/X86")),
        ("herd-catalogue/x86", shared.join("corpus/herd-catalogue/x86")),
    ]
    .into_iter()
    .filter(|(_, d)| d.is_dir())
    .collect();
    if corpora.is_empty() {
        eprintln!("oracle: no shared corpus found; shared-corpus tests skipped");
        return;
    }
    run_suite(&corpora, &bundled(&["sc", "tso"]), 300, false);
}

/// The RISC-V part of the shared corpus (6,852 tests: branches, AMOs, LR/SC) under the
/// weakest bundled model, which accepts the most candidates.
#[test]
fn shared_riscv_corpus_against_oracle() {
    let Some(shared) = shared() else { return };
    let dir = shared.join("corpus/dat3m/RISCV");
    if !dir.is_dir() {
        eprintln!("oracle: no RISC-V corpus found; skipped");
        return;
    }
    run_suite(&[("dat3m/RISCV", dir)], &bundled(&["relaxed"]), 6000, false);
}

/// The same under every bundled model (slow): `cargo test --test oracle_diff -- --ignored`.
#[test]
#[ignore = "slow: the whole RISC-V corpus under three models"]
fn shared_riscv_corpus_all_models_against_oracle() {
    let Some(shared) = shared() else { return };
    run_suite(&[("dat3m/RISCV", shared.join("corpus/dat3m/RISCV"))], &bundled(&["sc", "tso", "relaxed"]), 18000, false);
}

/// Small models in `tests/oracle_models/` that use the cat constructs the bundled models do
/// not: functions, tuples, `let rec`, `try`, `match`, procedures, `forall`, `if`, `~` checks.
#[test]
fn cat_features_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("features.cat"), 70, true);
}

/// `let rec` over relations that depend on rf and co.
#[test]
fn cat_let_rec_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("letrec.cat"), 70, true);
}

/// `let rec` as herd iterates it: definitions in order, the first step within the one
/// before stops, its new values are the result; monotone or not, over the execution.
#[test]
fn cat_let_rec_herd_iteration_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("letrec-herd.cat"), 70, true);
}

/// `with x from S` over sets of relations: every passing element is an execution.
#[test]
fn cat_with_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("with.cat"), 70, true);
}

/// lock.cat's idiom: `with` over the cross product of sets of single edges, built by
/// `map` over event sets and relations.
#[test]
fn cat_cross_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("cross.cat"), 50, true);
}

/// `different-values`.
#[test]
fn cat_different_values_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("values.cat"), 70, true);
}

/// `empty` on sets of events, as herd allows (its aarch64fences.cat flags `~empty (DMB.NSH | …)`).
#[test]
fn cat_empty_on_sets_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("sets.cat"), 70, true);
}

/// Flags: herd records a flag when the flagged test holds (`flag ~empty r` when r is not
/// empty, see `exec_test` in herd's `lib/interpreter.ml`), and a flag never rejects.
#[test]
fn cat_flags_against_oracle() {
    run_suite(&[("litmus/", own_corpus())], &test_model("flags.cat"), 70, true);
}

// ---------------------------------------------------------------------------------------
// The oracle (and the engine) under herd's models, against herd's recorded answers.

/// herd's answer for one test: states normalised as in the expected TSVs, and the
/// `Positive:`/`Negative:` counts.
struct HerdLine {
    kind: String,
    pos: u64,
    neg: u64,
    states: BTreeSet<String>,
}

fn read_tsv(path: &Path) -> HashMap<String, HerdLine> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = HashMap::new();
    for line in text.lines() {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 7 {
            continue;
        }
        let states = c[6].split(" | ").filter(|s| !s.is_empty()).map(str::to_string).collect();
        let num = |s: &str| s.parse().unwrap_or(u64::MAX);
        out.insert(c[0].to_string(), HerdLine { kind: c[2].to_string(), pos: num(c[4]), neg: num(c[5]), states });
    }
    out
}

/// `0:EAX=1; [x]=2;` → `0:EAX=1;x=2` (items without brackets, sorted byte-wise).
fn tsv_state(s: &str) -> String {
    let mut items: Vec<String> =
        s.split(';').map(str::trim).filter(|i| !i.is_empty()).map(|i| i.replace(['[', ']'], "")).collect();
    items.sort();
    items.join(";")
}

/// The oracle under herd's own `sc.cat` and `x86tso.cat` (with herd's stdlib, cos.cat,
/// cross.cat, fences…) against herd's recorded answers: a check of the oracle itself, and
/// of the engine wherever it accepts herd's models.
#[test]
fn oracle_with_herd_models_matches_herd() {
    herd_check(
        &[("dat3m-x86", "corpus/dat3m/X86"), ("catalogue-x86", "corpus/herd-catalogue/x86")],
        &["sc", "x86tso"],
        400,
    );
}

/// The same on the RISC-V corpus with herd's `sc.cat`.
#[test]
#[ignore = "slow: the whole RISC-V corpus"]
fn oracle_with_herd_sc_matches_herd_on_riscv() {
    herd_check(&[("dat3m-riscv", "corpus/dat3m/RISCV")], &["sc"], 1000);
}

fn herd_check(suites: &[(&str, &str)], models: &[&str], min_matched: usize) {
    let Some(shared) = shared() else { return };
    let lib = shared.join("models/herd");
    let start = Instant::now();
    let mut failures = Vec::new();
    let mut matched = 0;
    for &model in models {
        let path = lib.join(format!("{model}.cat"));
        let prog = load_program(&path.to_string_lossy(), std::slice::from_ref(&lib)).expect("herd model");
        for &(suite, dir) in suites {
            let expected = read_tsv(&shared.join(format!("corpus/expected/{suite}.{model}.tsv")));
            let files = litmus_files(&shared.join(dir));
            let results: Vec<_> = files
                .par_iter()
                .map(|p| {
                    let rel = p.strip_prefix(shared.join("corpus")).unwrap_or(p).to_string_lossy().to_string();
                    let (name, text, test) = match read_test(p) {
                        Ok(t) => t,
                        Err(m) => return (rel, Err(Refusal::Front(m)), None),
                    };
                    let a = oracle::answer(test.clone(), &name, &text, &prog, DEFAULT_BUDGET);
                    let sat = query::run(test, &name, &text, &prog, &Options::default());
                    (rel, a, Some(sat))
                })
                .collect();
            let (mut herd_ok, mut refused, mut sat_ok, mut sat_refused, mut flag_diffs) = (0, 0, 0, 0, 0);
            let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
            for (rel, a, sat) in results {
                let a = match a {
                    Ok(a) => a,
                    Err(r) => {
                        refused += 1;
                        *reasons.entry(reason(&r.to_string())).or_default() += 1;
                        continue;
                    }
                };
                let Some(h) = expected.get(&rel) else { continue };
                let states: BTreeSet<String> = a.states.iter().map(|s| tsv_state(s)).collect();
                let (kind, p, n) = match h.kind.as_str() {
                    "Forbidden" => (CondKind::NotExists, a.neg, a.pos),
                    "Required" => (CondKind::Forall, a.pos, a.neg),
                    _ => (CondKind::Exists, a.pos, a.neg),
                };
                if states != h.states || (p, n) != (h.pos, h.neg) {
                    failures.push(format!(
                        "{rel} under herd's {model}.cat ({kind:?}): oracle Positive {p} Negative {n}, states {}\n    \
                         herd Positive {} Negative {}, states {}",
                        show_states(&states),
                        h.pos,
                        h.neg,
                        show_states(&h.states)
                    ));
                    continue;
                }
                herd_ok += 1;
                match sat {
                    Some(Ok(o)) => {
                        let diff = differences(&o, &a);
                        if !diff.is_empty() {
                            failures.push(format!("{rel} under herd's {model}.cat: the engine differs:{diff}"));
                        } else {
                            sat_ok += 1;
                            if o.flags != a.flags {
                                flag_diffs += 1;
                            }
                        }
                    }
                    _ => sat_refused += 1,
                }
            }
            matched += herd_ok;
            eprintln!(
                "oracle [{suite} × herd {model}.cat]: {herd_ok} agree with herd, {refused} refused by the oracle; \
                 engine: {sat_ok} agree with the oracle ({flag_diffs} of them with other flags), {sat_refused} refused"
            );
            for (r, k) in reasons {
                eprintln!("  oracle refused {k}: {r}");
            }
        }
    }
    eprintln!("oracle: {matched} herd answers reproduced in {:.1} s", start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    assert!(matched >= min_matched, "only {matched} herd answers reproduced");
}

/// Small tests in `tests/oracle_cases/` that once exposed engine bugs: `sc-in-branch.litmus`
/// (a store-conditional on a path not taken must not double the executions).
#[test]
fn oracle_cases_against_oracle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle_cases");
    run_suite(&[("tests/oracle_cases/", dir)], &bundled(&["sc", "relaxed"]), 2, true);
}
