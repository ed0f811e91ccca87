//! Certified verdicts (`--certify`) and query export (`--dimacs`): DRAT proofs of the UNSAT
//! answers behind verdicts are checked by litsat's own RUP checker (and, as a second opinion,
//! varisat's native proofs of the same queries by `varisat-checker`), models of the SAT ones
//! clause by clause, and a tampered proof or formula is refused.

use litsat::cat::load_program;
use litsat::certify::{
    CertReport, Failure, Request, certify_unsat, certify_verdict, check_drat, check_model, checked_model, prove_unsat,
    safe_name, units_of, write_dimacs,
};
use litsat::diag::DiagKind;
use litsat::logic::B;
use litsat::query::{Options, Outcome};
use litsat::report::herd_log;
use litsat_cli::driver::check_file;
use std::path::{Path, PathBuf};
use std::process::Command;
use varisat::dimacs::DimacsParser;
use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};
use varisat_checker::{CheckedProofStep, Checker, CheckerData, ProofProcessor};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn certified() -> Options {
    Options::new().certify(true)
}

fn answer(rel: &str, model: &str, opts: &Options) -> Outcome {
    let prog = load_program(model, &[]).expect("bundled model");
    check_file(&root().join(rel), &prog, opts).outcome.expect("answered")
}

/// The lemma count of a `... DRAT checked (N lemmas)...` line.
fn lemmas(line: &str) -> u64 {
    let (_, rest) = line.split_once(" DRAT checked (").expect("a checked proof");
    rest.split_once(" lemmas)").and_then(|(n, _)| n.parse().ok()).expect("a lemma count")
}

/// A fresh, empty folder under the system's temporary folder.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-certify-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn read_cnf(path: &Path) -> CnfFormula {
    DimacsParser::parse(std::fs::File::open(path).expect("dimacs file")).expect("valid DIMACS")
}

fn without_clause(cnf: &CnfFormula, skip: usize) -> CnfFormula {
    let mut out = CnfFormula::new();
    out.set_var_count(cnf.var_count());
    for (k, c) in cnf.iter().enumerate() {
        if k != skip {
            out.add_clause(c);
        }
    }
    out
}

/// The CNF of SB under sc with the condition asserted: UNSAT, as SB is Never there.
fn sb_sc_q1() -> CnfFormula {
    let dir = scratch("sbq1");
    let opts = Options::new().dimacs(Some(dir.clone()));
    let o = answer("litmus/x86/SB.litmus", "sc", &opts);
    assert_eq!(o.observation().word(), "Never");
    assert_eq!(o.certificate, None, "--dimacs alone prints no certificate");
    read_cnf(&dir.join("SB.q1.cnf"))
}

#[test]
fn sb_under_sc_never_has_a_checked_proof() {
    let o = answer("litmus/x86/SB.litmus", "sc", &certified());
    assert_eq!(o.observation().word(), "Never");
    let line = o.certificate.clone().expect("a certificate line");
    assert!(line.starts_with("Certificate SB DRAT checked ("), "{line}");
    assert!(lemmas(&line) > 0, "{line}");
    // The log carries it right after the Observation line, before Time.
    let log = herd_log(&o, 0.0);
    let lines: Vec<&str> = log.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("Observation SB ")).expect("Observation line");
    assert_eq!(lines[at + 1], line);
    assert!(lines[at + 2].starts_with("Time SB "), "{log}");
}

#[test]
fn sb_under_tso_sometimes_has_checked_witnesses() {
    let o = answer("litmus/x86/SB.litmus", "tso", &certified());
    assert_eq!(o.observation().word(), "Sometimes");
    assert_eq!(o.certificate.as_deref(), Some("Certificate SB witnesses checked"));
}

#[test]
fn forall_always_has_a_proof_and_a_witness() {
    for (test, model) in [("litmus/x86/LB.litmus", "tso"), ("litmus/x86/CoWW.litmus", "sc")] {
        let o = answer(test, model, &certified());
        assert_eq!(o.observation().word(), "Always", "{test}");
        let line = o.certificate.expect("a certificate line");
        assert!(line.contains(" DRAT checked (") && line.ends_with("), witness checked"), "{line}");
        // CoWW's negated condition is refuted by unit propagation alone: no lemma is needed.
        assert!(lemmas(&line) > 0 || test.contains("CoWW"), "{line}");
    }
}

#[test]
fn fast_mode_is_certified_too() {
    let opts = Options::new().fast(true).certify(true);
    let o = answer("litmus/x86/SB+mfences.litmus", "tso", &opts);
    assert_eq!(o.observation().word(), "Never");
    let line = o.certificate.expect("a certificate line");
    assert!(lemmas(&line) > 0, "{line}");
    let o = answer("litmus/x86/SB.litmus", "tso", &opts);
    assert_eq!(o.certificate.as_deref(), Some("Certificate SB witnesses checked"));
}

/// Every verdict over the project's corpus, under each bundled model, gets a certificate,
/// and every certificate checks. Each certified query, read back from its DIMACS file, is
/// also refuted by varisat's native proof as `varisat-checker` checks it, and its written
/// DRAT proof checks against the file alone.
#[test]
fn every_verdict_of_the_corpus_is_certified() {
    let (mut proofs, mut witnesses, mut learnt) = (0, 0, 0);
    for arch in ["x86", "riscv"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("litmus").join(arch))
            .expect("folder")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for model in ["sc", "tso", "relaxed"] {
            let prog = load_program(model, &[]).expect("bundled model");
            let dir = scratch(&format!("corpus-{arch}-{model}"));
            let opts = Options::new().certify(true).dimacs(Some(dir.clone()));
            for f in &files {
                let o = check_file(f, &prog, &opts).outcome.expect("answered");
                let line = o.certificate.clone().unwrap_or_default();
                let name = safe_name(&o.test.name);
                let q = match o.observation().word() {
                    "Sometimes" => {
                        assert_eq!(line, format!("Certificate {} witnesses checked", o.test.name), "{f:?} {model}");
                        witnesses += 1;
                        continue;
                    }
                    "Never" => 1,
                    _ => 2,
                };
                assert!(line.starts_with(&format!("Certificate {} DRAT checked (", o.test.name)), "{line}");
                proofs += 1;
                let cnf = read_cnf(&dir.join(format!("{name}.q{q}.cnf")));
                let drat = std::fs::read(dir.join(format!("{name}.q{q}.drat"))).expect("proof file");
                assert_eq!(check_drat(&cnf, &[], &drat).map(|r| r.lemmas), Ok(lemmas(&line)), "{f:?} {model}");
                assert!(native_certificate(&cnf).expect("varisat-checker") > 0, "{f:?} {model}");
                if check_drat(&cnf, &[], b"").is_err() {
                    learnt += 1;
                }
            }
        }
    }
    println!("litmus/: {proofs} proofs ({learnt} beyond unit propagation) and {witnesses} witness pairs checked");
    assert!(proofs >= 100 && witnesses >= 20, "{proofs} proofs, {witnesses} witnesses");
}

/// Refutes `cnf` with varisat's native proof and checks it with `varisat-checker`: the
/// number of checked lemmas.
fn native_certificate(cnf: &CnfFormula) -> Result<u64, String> {
    #[derive(Default)]
    struct Tally {
        lemmas: u64,
        empty: bool,
    }
    impl ProofProcessor for Tally {
        fn process_step(&mut self, step: &CheckedProofStep, _: CheckerData) -> Result<(), anyhow::Error> {
            if let CheckedProofStep::AtClause { clause, .. } = step {
                self.lemmas += 1;
                self.empty |= clause.is_empty();
            }
            Ok(())
        }
    }
    let mut proof = Vec::new();
    {
        let mut solver = Solver::new();
        solver.write_proof(&mut proof, ProofFormat::Varisat);
        solver.add_formula(cnf);
        if solver.solve().map_err(|e| e.to_string())? {
            return Err("satisfiable".into());
        }
        solver.close_proof().map_err(|e| e.to_string())?;
    }
    let mut tally = Tally::default();
    {
        let mut checker = Checker::new();
        checker.add_processor(&mut tally);
        checker.add_formula(cnf).map_err(|e| e.to_string())?;
        checker.check_proof(&proof[..]).map_err(|e| e.to_string())?;
    }
    if tally.empty { Ok(tally.lemmas) } else { Err("no empty clause".into()) }
}

/// The pigeonhole formula: `n + 1` pigeons in `n` holes. Unsatisfiable, beyond unit
/// propagation, and every clause is needed.
fn pigeonhole(n: usize) -> CnfFormula {
    let mut f = CnfFormula::new();
    let x = |i: usize, j: usize| Lit::from_index(i * n + j, true);
    for i in 0..=n {
        f.add_clause(&(0..n).map(|j| x(i, j)).collect::<Vec<_>>());
    }
    for j in 0..n {
        for a in 0..=n {
            for b in a + 1..=n {
                f.add_clause(&[!x(a, j), !x(b, j)]);
            }
        }
    }
    f
}

#[test]
fn dimacs_files_are_the_two_queries() {
    let dir = scratch("dimacs");
    let opts = Options::new().dimacs(Some(dir.clone())).certify(true);
    let o = answer("litmus/x86/SB.litmus", "tso", &opts);
    assert_eq!(o.observation().word(), "Sometimes");
    let (q1, q2) = (read_cnf(&dir.join("SB.q1.cnf")), read_cnf(&dir.join("SB.q2.cnf")));
    assert_eq!(q1.len(), q2.len());
    let m1 = checked_model(&q1, &[]).expect("solves").expect("q1 is SAT under tso");
    assert!(check_model(&q1, &m1));
    assert!(checked_model(&q2, &[]).expect("solves").is_some(), "q2 is SAT under tso");

    // Under sc, q1 is UNSAT and the exported file alone is certifiable.
    let q1 = sb_sc_q1();
    let r = certify_unsat(&q1, &[]).expect("certified");
    assert!(r.lemmas > 0 && r.proof_bytes > 0, "{r:?}");
    assert_eq!(checked_model(&q1, &[]).expect("solves"), None);
}

#[test]
fn a_tampered_formula_is_refused() {
    let cnf = sb_sc_q1();
    let proof = prove_unsat(&cnf, &[]).expect("UNSAT");
    assert!(check_drat(&cnf, &[], &proof).is_ok());
    // Drop each clause in turn: wherever the rest is satisfiable, no proof may be accepted.
    let mut refused = 0;
    for k in 0..cnf.len() {
        let weaker = without_clause(&cnf, k);
        if checked_model(&weaker, &[]).expect("solves").is_some() {
            let r = check_drat(&weaker, &[], &proof);
            assert!(r.is_err(), "clause {k} removed, yet the proof was accepted: {r:?}");
            refused += 1;
        }
    }
    assert!(refused > 0, "no clause of the refuted formula was essential");
}

#[test]
fn a_proof_of_another_formula_is_refused() {
    let dir = scratch("other");
    let opts = Options::new().dimacs(Some(dir.clone()));
    answer("litmus/x86/SB.litmus", "sc", &opts);
    let (q1, q2) = (read_cnf(&dir.join("SB.q1.cnf")), read_cnf(&dir.join("SB.q2.cnf")));
    let proof = prove_unsat(&q1, &[]).expect("UNSAT");
    // q2 (the negated condition) is satisfiable under sc: the proof of q1 must not pass for it.
    assert!(checked_model(&q2, &[]).expect("solves").is_some());
    let r = check_drat(&q2, &[], &proof);
    assert!(r.is_err(), "{r:?}");
    // And asking for a proof of a satisfiable query is an error, not a certificate.
    assert!(prove_unsat(&q2, &[]).is_err());
    assert!(certify_unsat(&q2, &[]).is_err());
}

#[test]
fn a_tampered_proof_is_refused() {
    let cnf = pigeonhole(4);
    let proof = prove_unsat(&cnf, &[]).expect("UNSAT");
    let good: CertReport = check_drat(&cnf, &[], &proof).expect("accepted");
    assert_eq!(good.proof_bytes, proof.len());
    assert!(good.lemmas > 10, "{good:?}");
    assert_eq!(native_certificate(&cnf).map(|n| n > 0), Ok(true));
    // The empty proof, the proof cut inside a clause, and garbage are refused.
    assert!(check_drat(&cnf, &[], b"").is_err());
    let text = String::from_utf8(proof.clone()).expect("DRAT text");
    let mid = text.find(" 0\n").expect("a clause") + 1;
    assert!(check_drat(&cnf, &[], &proof[..mid]).is_err());
    assert!(check_drat(&cnf, &[], b"1 2 x 0\n0\n").is_err());
    assert!(check_drat(&cnf, &[], b"99999999999999999999 0\n0\n").is_err());
    assert!(check_drat(&cnf, &[], b"1000 0\n0\n").is_err(), "a variable the formula lacks");
    assert!(check_drat(&cnf, &[], b"0\n").is_err(), "the empty clause alone is no proof here");
    // Dropping the lemmas before the final empty clause leaves a refused proof.
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.iter().rposition(|l| l.trim() == "0").expect("the empty clause");
    let adds = lines[..last].iter().filter(|l| !l.starts_with('d')).count();
    let skip_half: String = lines
        .iter()
        .enumerate()
        .filter(|(k, l)| *k == last || l.starts_with('d') || k % 2 == 0)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    assert!(adds > 1 && check_drat(&cnf, &[], skip_half.as_bytes()).is_err());
    // With any byte changed, it is refused, or still refutes the same formula: a corrupted
    // proof never makes a satisfiable formula pass, and the checker never panics.
    let weaker = without_clause(&cnf, 0);
    assert!(checked_model(&weaker, &[]).expect("solves").is_some());
    let mut refused = 0;
    for at in 0..proof.len() {
        for flip in [0x01u8, 0x04, 0x80] {
            let mut bad = proof.clone();
            bad[at] ^= flip;
            assert!(check_drat(&weaker, &[], &bad).is_err(), "byte {at} ^ {flip:#x}");
            if check_drat(&cnf, &[], &bad).is_err() {
                refused += 1;
            }
        }
    }
    assert!(refused > proof.len(), "{refused} of {} corruptions refused", 3 * proof.len());
}

#[test]
fn pigeonhole_without_any_clause_is_refused() {
    let cnf = pigeonhole(3);
    let proof = prove_unsat(&cnf, &[]).expect("UNSAT");
    assert!(check_drat(&cnf, &[], &proof).is_ok());
    for k in 0..cnf.len() {
        let weaker = without_clause(&cnf, k);
        assert!(checked_model(&weaker, &[]).expect("solves").is_some(), "pigeonhole is minimally unsatisfiable");
        assert!(check_drat(&weaker, &[], &proof).is_err(), "clause {k} removed, yet the proof was accepted");
    }
}

#[test]
fn units_are_part_of_the_checked_formula() {
    // SB's q1 file ends with the condition's unit clause; split it off and pass it as a unit.
    let cnf = sb_sc_q1();
    let clauses: Vec<Vec<Lit>> = cnf.iter().map(|c| c.to_vec()).collect();
    let (last, rest) = clauses.split_last().expect("clauses");
    assert_eq!(last.len(), 1, "the query's unit comes last");
    let mut base = CnfFormula::new();
    for c in rest {
        base.add_clause(c);
    }
    let proof = prove_unsat(&base, last).expect("UNSAT with the unit");
    assert!(check_drat(&base, last, &proof).is_ok());
    assert!(check_drat(&base, &[], &proof).is_err(), "the proof needs the unit");
    assert!(check_drat(&base, &[!last[0]], &proof).is_err());
}

#[test]
fn models_are_checked_clause_by_clause() {
    let cnf = sb_sc_q1();
    let weaker = (0..cnf.len()).map(|k| without_clause(&cnf, k)).find(|f| checked_model(f, &[]).unwrap().is_some());
    let weaker = weaker.expect("an essential clause");
    let model = checked_model(&weaker, &[]).expect("solves").expect("SAT");
    assert!(check_model(&weaker, &model));
    assert!(!check_model(&cnf, &model), "a model of the weaker formula is no model of the whole");
    assert!(!check_model(&weaker, &[]), "the empty assignment satisfies no clause");
    assert!(!check_model(&weaker, &model[1..]), "every variable of a clause may matter");
    let mut both = model.clone();
    both.push(!model[0]);
    assert!(!check_model(&weaker, &both), "a contradictory assignment is refused");
}

#[test]
fn constant_queries_are_plain_cnfs() {
    let mut cnf = CnfFormula::new();
    let x = cnf.new_lit();
    cnf.add_clause(&[x]);
    assert_eq!(units_of(&[B::T, B::L(!x)], cnf.var_count()), vec![!x]);
    let f = units_of(&[B::L(x), B::F], cnf.var_count());
    assert_eq!(f.len(), 2);
    assert_eq!(f[0], !f[1]);
    // Refuted by unit propagation: the proof is empty, and checks.
    assert_eq!(certify_unsat(&cnf, &f).expect("certified").lemmas, 0);
    assert!(certify_unsat(&cnf, &[!x]).is_ok());
    assert!(certify_unsat(&cnf, &[]).is_err());

    let dir = scratch("const");
    let path = dir.join("q.cnf");
    write_dimacs(&cnf, &f, &path).expect("written");
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(text, "p cnf 2 3\n1 0\n2 0\n-2 0\n");
    assert!(checked_model(&read_cnf(&path), &[]).expect("solves").is_none());
}

#[test]
fn file_names_are_safe() {
    assert_eq!(safe_name("SB+mfences"), "SB+mfences");
    assert_eq!(safe_name("a/b\\c"), "a_b_c");
    assert_eq!(safe_name(".."), "_..");
    assert_eq!(safe_name(""), "_");
}

#[test]
fn cli_check_and_run_take_the_flags() {
    let dir = scratch("cli");
    let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
        .args(["check", "-m", "sc", "litmus/x86/SB.litmus", "litmus/x86/MP.litmus", "--certify", "--dimacs"])
        .arg(&dir)
        .current_dir(root())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("Certificate ") && l.contains(" checked")).count(), 2, "{text}");
    for f in ["SB.q1.cnf", "SB.q2.cnf", "MP.q1.cnf", "MP.q2.cnf"] {
        assert!(dir.join(f).is_file(), "{f}");
    }

    let log = dir.join("run.log");
    let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
        .args(["run", "-m", "tso", "litmus/x86", "--certify", "--log"])
        .arg(&log)
        .current_dir(root())
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let text = std::fs::read_to_string(&log).expect("log");
    let observations = text.lines().filter(|l| l.starts_with("Observation ")).count();
    let certificates = text.lines().filter(|l| l.starts_with("Certificate ")).count();
    assert_eq!(observations, certificates, "{text}");
    assert!(!text.contains("not checked"), "{text}");
}

/// SB's q1 under sc split into the formula and the condition's literal (its last clause).
fn sb_sc_formula_and_condition() -> (CnfFormula, Lit) {
    let cnf = sb_sc_q1();
    let clauses: Vec<Vec<Lit>> = cnf.iter().map(|c| c.to_vec()).collect();
    let (last, rest) = clauses.split_last().expect("clauses");
    assert_eq!(last.len(), 1, "the query's unit comes last");
    let mut base = CnfFormula::new();
    base.set_var_count(cnf.var_count());
    for c in rest {
        base.add_clause(c);
    }
    (base, last[0])
}

/// A proof with its lemmas dropped: the empty clause alone.
fn lemmas_dropped(cnf: &CnfFormula, units: &[Lit]) -> Result<Vec<u8>, String> {
    prove_unsat(cnf, units).map(|_| b"0\n".to_vec())
}

/// A certificate that does not check is an error, never a log line: a corrupted proof, and
/// verdicts the formula does not bear out (each needs a witness or a proof that is not there).
#[test]
fn a_certificate_that_does_not_check_is_an_error() {
    let (cnf, p) = sb_sc_formula_and_condition();
    let req = Request { certify: true, ..Request::default() };
    let good = certify_verdict("SB", litsat::Observation::Never, &cnf, B::L(p), B::T, req).expect("certified");
    assert!(good.is_some_and(|l| l.starts_with("Certificate SB DRAT checked (")));

    // Pigeonhole needs its lemmas (SB under sc is refuted by unit propagation alone).
    let php = pigeonhole(4);
    assert!(certify_verdict("PHP", litsat::Observation::Never, &php, B::T, B::T, req).is_ok_and(|l| l.is_some()));
    let corrupt = Request { prove: lemmas_dropped, ..req };
    match certify_verdict("PHP", litsat::Observation::Never, &php, B::T, B::T, corrupt) {
        Err(Failure::NotChecked(why)) => assert!(why.contains("q1: the checker refused the proof"), "{why}"),
        other => panic!("a corrupted proof passed: {other:?}"),
    }
    for wrong in [litsat::Observation::Sometimes, litsat::Observation::Always] {
        let r = certify_verdict("SB", wrong, &cnf, B::L(p), B::T, req);
        assert!(matches!(&r, Err(Failure::NotChecked(why)) if why.contains("q1: no witness")), "{wrong}: {r:?}");
    }
    // Claiming Never for what is Sometimes: no proof of a satisfiable query.
    let r = certify_verdict("SB", litsat::Observation::Never, &cnf, B::L(!p), B::T, req);
    assert!(matches!(&r, Err(Failure::NotChecked(why)) if why.contains("satisfiable")), "{r:?}");

    let d = Failure::NotChecked("q1: x".into()).diag("t.litmus");
    assert_eq!((d.kind, d.message.as_str()), (DiagKind::Error, "certificate not checked: q1: x"));
}

/// Through the binary, a test whose certification fails (here: its proof cannot be
/// written) is an error: `check` and `run` exit with 1, and the other tests are answered.
#[test]
fn a_failed_certification_fails_the_run() {
    let dir = scratch("unwritable");
    std::fs::create_dir_all(dir.join("SB.q1.drat")).expect("a folder where the proof goes");
    let check = Command::new(env!("CARGO_BIN_EXE_litsat"))
        .args(["check", "-m", "sc", "--certify", "litmus/x86/SB.litmus", "litmus/x86/MP.litmus", "--dimacs"])
        .arg(&dir)
        .current_dir(root())
        .output()
        .expect("runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&check.stdout), String::from_utf8_lossy(&check.stderr));
    assert_eq!(check.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("SB.q1.drat"), "{stderr}");
    assert!(!stdout.contains("Observation SB") && stdout.contains("Certificate MP DRAT checked"), "{stdout}");

    let run = Command::new(env!("CARGO_BIN_EXE_litsat"))
        .args(["run", "-m", "sc", "--certify", "litmus/x86/SB.litmus", "litmus/x86/MP.litmus", "--dimacs"])
        .arg(&dir)
        .current_dir(root())
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("Summary: 2 tests: 0 passed, 0 failed, 1 answered without expectation, 1 error,"),
        "{stdout}"
    );
}
