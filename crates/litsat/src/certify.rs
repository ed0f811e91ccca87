//! Certified verdicts: evidence for a test's Observation that is checked apart from the
//! solving path.
//!
//! A verdict rests on two questions about the test's CNF `F` and the literal `p` of its
//! condition (and `f` of its filter, when it has one):
//!
//! - q1: is `F ∧ f ∧ p` satisfiable? (some allowed execution satisfies the condition)
//! - q2: is `F ∧ f ∧ ¬p` satisfiable? (some allowed execution does not)
//!
//! `Never` is "q1 is UNSAT", `Always` is "q2 is UNSAT and q1 is SAT", `Sometimes` is "both are
//! SAT". Each UNSAT answer is certified by a proof: a fresh, non-incremental varisat solver
//! (varisat's DRAT writer wants every clause before the first solve and no assumptions)
//! writes a DRAT proof to memory, and a small forward RUP checker of this module, which
//! shares no code with the solver, replays it against the formula given to it here. A DRAT
//! proof carries no input clauses, so it is accepted only for a formula it really refutes.
//! Each SAT answer is certified by a model, evaluated clause by clause against the formula.
//! Evidence that does not check (a refused proof, a missing witness) makes the test an
//! error: a verdict that `--certify` cannot back is not reported as an answer.
//!
//! (`varisat-checker` checks varisat's native proofs, but a corrupted native proof can make
//! it abort the process on an absurd allocation; the DRAT checker here refuses any malformed
//! input instead. The test suite uses `varisat-checker` as a second opinion on the corpus.)
//!
//! `--dimacs DIR` writes q1 and q2 as `DIR/NAME.q1.cnf` and `DIR/NAME.q2.cnf`, for other
//! solvers and checkers (with `--certify`, also each checked proof as `NAME.qK.drat`, for
//! drat-trim and the like). NAME is the test file's name without `.litmus`; where several
//! inputs of a run share it, it keeps as many folders as tell them apart (see
//! the command line's `driver::dimacs_names`), so no test overwrites another's files.

use crate::diag::{Deadline, Diag, TIMEOUT};
use crate::logic::{B, Logic};
use crate::query::{Observation, Options, Outcome};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver, Var};

/// What the checker saw in an accepted proof.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CertReport {
    /// Clauses the proof adds, each checked to follow by unit propagation (RUP), the final
    /// empty clause included.
    pub lemmas: u64,
    /// Clause deletions the checker followed.
    pub deletions: u64,
    /// The proof's size in bytes.
    pub proof_bytes: usize,
}

/// Solves `cnf ∧ units` once with a fresh solver writing a DRAT proof (text) to memory, and
/// returns the proof. It is an error for the formula to be satisfiable.
pub fn prove_unsat(cnf: &CnfFormula, units: &[Lit]) -> Result<Vec<u8>, String> {
    let mut proof = Vec::new();
    {
        let mut solver = Solver::new();
        solver.write_proof(&mut proof, ProofFormat::Drat);
        solver.add_formula(cnf);
        for &u in units {
            solver.add_clause(&[u]);
        }
        if solver.solve().map_err(|e| format!("solver error: {e}"))? {
            return Err("the query is satisfiable".to_string());
        }
        solver.close_proof().map_err(|e| format!("cannot finish the proof: {e}"))?;
    }
    Ok(proof)
}

/// Proves `cnf ∧ units` unsatisfiable with a fresh solver and checks the proof.
pub fn certify_unsat(cnf: &CnfFormula, units: &[Lit]) -> Result<CertReport, String> {
    let proof = prove_unsat(cnf, units)?;
    check_drat(cnf, units, &proof)
}

/// Checks a DRAT proof (text format) against `cnf ∧ units`, forward: each added clause must
/// follow from the live clauses by unit propagation (RUP), and the formula with the lemmas
/// must propagate to a conflict. RAT lemmas are not accepted (varisat writes none), deleting
/// an unknown clause is ignored (as drat-trim does), and a lemma over a variable the formula
/// lacks is refused, so that no input can make the checker allocate beyond the formula's size.
/// Any byte string is safe to check: malformed proofs are refused, never a panic.
pub fn check_drat(cnf: &CnfFormula, units: &[Lit], proof: &[u8]) -> Result<CertReport, String> {
    check_drat_until(cnf, units, proof, Deadline::NONE).map_err(|f| match f {
        Failure::NotChecked(why) | Failure::Io(why) => why,
        Failure::Timeout => TIMEOUT.to_string(),
    })
}

/// How many lemmas [`check_drat_until`] checks between two looks at the clock.
const LEMMAS_PER_LOOK: u64 = 256;

/// [`check_drat`], giving up with [`Failure::Timeout`] once `deadline` passes (a long
/// proof takes as long to check as to find).
fn check_drat_until(cnf: &CnfFormula, units: &[Lit], proof: &[u8], deadline: Deadline) -> Result<CertReport, Failure> {
    let refuse = Failure::NotChecked;
    let vars = units.iter().map(|l| l.index() + 1).fold(cnf.var_count(), usize::max);
    let mut db = Rup::new(vars);
    for c in cnf.iter() {
        db.add(c);
    }
    for &u in units {
        db.add(&[u]);
    }
    let mut report = CertReport { proof_bytes: proof.len(), ..CertReport::default() };
    let text = std::str::from_utf8(proof).map_err(|_| refuse("the proof is not text".to_string()))?;
    let mut clause: Vec<Lit> = Vec::new();
    let mut delete = false;
    let mut open = false;
    for tok in text.split_ascii_whitespace() {
        if tok == "d" && !open {
            delete = true;
            open = true;
            continue;
        }
        let n: isize =
            tok.parse().map_err(|_| refuse(format!("lemma {}: not a literal: '{tok}'", report.lemmas + 1)))?;
        open = true;
        if n != 0 {
            if n.unsigned_abs() > vars {
                return Err(refuse(format!("lemma {}: variable {} is not in the formula", report.lemmas + 1, n.abs())));
            }
            clause.push(Lit::from_dimacs(n));
            continue;
        }
        if delete {
            report.deletions += 1;
            db.delete(&clause);
        } else {
            report.lemmas += 1;
            if report.lemmas.is_multiple_of(LEMMAS_PER_LOOK) && deadline.passed() {
                return Err(Failure::Timeout);
            }
            if !db.implied(&clause) {
                return Err(refuse(format!(
                    "lemma {} ({}) does not follow by unit propagation",
                    report.lemmas,
                    dimacs(&clause)
                )));
            }
            db.add(&clause);
        }
        clause.clear();
        delete = false;
        open = false;
    }
    if open {
        return Err(refuse("the proof ends inside a clause".to_string()));
    }
    if !db.conflict {
        return Err(refuse("the proof does not derive the empty clause".to_string()));
    }
    Ok(report)
}

fn dimacs(c: &[Lit]) -> String {
    let mut s: String = c.iter().map(|l| format!("{} ", l.to_dimacs())).collect();
    s.push('0');
    s
}

/// A clause database with watched literals, for reverse unit propagation. Assignments on the
/// trail up to `top` are the formula's top-level consequences and are never undone: every
/// clause ever added is implied by the input, so what it propagated stays implied after it
/// is deleted.
struct Rup {
    clauses: Vec<Vec<Lit>>,
    alive: Vec<bool>,
    /// Clause ids watching each literal (by code): visited when the literal becomes false.
    watches: Vec<Vec<usize>>,
    /// Each literal's value, by code.
    value: Vec<Option<bool>>,
    trail: Vec<Lit>,
    head: usize,
    /// Live clauses by their sorted literals, for deletions.
    index: std::collections::HashMap<Vec<Lit>, Vec<usize>>,
    /// The top level propagates to a conflict: the formula is refuted.
    conflict: bool,
}

impl Rup {
    fn new(vars: usize) -> Rup {
        Rup {
            clauses: Vec::new(),
            alive: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            value: vec![None; 2 * vars],
            trail: Vec::new(),
            head: 0,
            index: std::collections::HashMap::new(),
            conflict: false,
        }
    }

    fn val(&self, l: Lit) -> Option<bool> {
        self.value[l.code()]
    }

    fn assign(&mut self, l: Lit) {
        self.value[l.code()] = Some(true);
        self.value[(!l).code()] = Some(false);
        self.trail.push(l);
    }

    /// Propagates the trail from `head`; true on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let false_lit = !self.trail[self.head];
            self.head += 1;
            let mut ws = std::mem::take(&mut self.watches[false_lit.code()]);
            let mut i = 0;
            let mut conflict = false;
            while i < ws.len() {
                let c = ws[i];
                if !self.alive[c] {
                    ws.swap_remove(i);
                    continue;
                }
                let cl = &mut self.clauses[c];
                if cl[0] == false_lit {
                    cl.swap(0, 1);
                }
                let first = cl[0];
                if self.value[first.code()] == Some(true) {
                    i += 1;
                    continue;
                }
                if let Some(k) = (2..cl.len()).find(|&k| self.value[cl[k].code()] != Some(false)) {
                    cl.swap(1, k);
                    let w = cl[1];
                    self.watches[w.code()].push(c);
                    ws.swap_remove(i);
                    continue;
                }
                i += 1;
                if self.value[first.code()] == Some(false) {
                    conflict = true;
                    break;
                }
                self.assign(first);
            }
            let mut pushed = std::mem::replace(&mut self.watches[false_lit.code()], ws);
            self.watches[false_lit.code()].append(&mut pushed);
            if conflict {
                return true;
            }
        }
        false
    }

    /// Adds a clause at the top level and propagates its consequences.
    fn add(&mut self, c: &[Lit]) {
        if self.conflict {
            return;
        }
        let mut key = c.to_vec();
        key.sort();
        key.dedup();
        if key.windows(2).any(|w| w[0] == !w[1]) {
            return; // a tautology: always satisfied, never needed
        }
        // Non-false literals first, so the two watches are the best ones.
        let mut lits = key.clone();
        lits.sort_by_key(|&l| match self.val(l) {
            Some(true) => 0,
            None => 1,
            Some(false) => 2,
        });
        let id = self.clauses.len();
        let live = lits.iter().take_while(|&&l| self.val(l) != Some(false)).count();
        let satisfied = lits.first().is_some_and(|&l| self.val(l) == Some(true));
        if lits.len() >= 2 {
            self.watches[lits[0].code()].push(id);
            self.watches[lits[1].code()].push(id);
        }
        let first = lits.first().copied();
        self.clauses.push(lits);
        self.alive.push(true);
        self.index.entry(key).or_default().push(id);
        if satisfied {
            return;
        }
        match (live, first) {
            (0, _) | (_, None) => self.conflict = true,
            (1, Some(l)) => {
                self.assign(l);
                if self.propagate() {
                    self.conflict = true;
                }
            }
            _ => {}
        }
    }

    fn delete(&mut self, c: &[Lit]) {
        let mut key = c.to_vec();
        key.sort();
        key.dedup();
        if let Some(ids) = self.index.get_mut(&key)
            && let Some(id) = ids.pop()
        {
            self.alive[id] = false;
            if ids.is_empty() {
                self.index.remove(&key);
            }
        }
    }

    /// Whether `c` follows by unit propagation: assuming its negation conflicts.
    fn implied(&mut self, c: &[Lit]) -> bool {
        if self.conflict {
            return true;
        }
        let top = self.trail.len();
        let mut conflict = false;
        for &l in c {
            match self.val(l) {
                Some(true) => {
                    conflict = true;
                    break;
                }
                Some(false) => {}
                None => self.assign(!l),
            }
        }
        if !conflict {
            conflict = self.propagate();
        }
        for l in self.trail.drain(top..) {
            self.value[l.code()] = None;
            self.value[(!l).code()] = None;
        }
        self.head = top;
        conflict
    }
}

/// Whether `model` (a set of literals) satisfies every clause of `cnf`. A literal absent from
/// the model satisfies nothing, and a model holding both polarities of a variable is refused.
pub fn check_model(cnf: &CnfFormula, model: &[Lit]) -> bool {
    satisfies(cnf, &[], model)
}

fn satisfies(cnf: &CnfFormula, units: &[Lit], model: &[Lit]) -> bool {
    let n = model.iter().map(|l| l.index() + 1).max().unwrap_or(0);
    let mut truth: Vec<Option<bool>> = vec![None; n];
    for l in model {
        let slot = &mut truth[l.index()];
        if slot.is_some_and(|v| v != l.is_positive()) {
            return false;
        }
        *slot = Some(l.is_positive());
    }
    let holds = |l: &Lit| truth.get(l.index()).copied().flatten() == Some(l.is_positive());
    cnf.iter().all(|c| c.iter().any(holds)) && units.iter().all(holds)
}

/// Solves `cnf ∧ units` with a fresh solver; returns a model that [`check_model`] accepted,
/// or `None` when the query is unsatisfiable.
pub fn checked_model(cnf: &CnfFormula, units: &[Lit]) -> Result<Option<Vec<Lit>>, String> {
    let mut solver = Solver::new();
    solver.add_formula(cnf);
    for &u in units {
        solver.add_clause(&[u]);
    }
    if !solver.solve().map_err(|e| format!("solver error: {e}"))? {
        return Ok(None);
    }
    let model = solver.model().ok_or("the solver gave no model")?;
    if !satisfies(cnf, units, &model) {
        return Err("the solver's model violates the formula".to_string());
    }
    Ok(Some(model))
}

/// Writes `cnf ∧ units` in DIMACS CNF format.
pub fn write_dimacs(cnf: &CnfFormula, units: &[Lit], path: &Path) -> io::Result<()> {
    let mut w = io::BufWriter::new(std::fs::File::create(path)?);
    dimacs_to(&mut w, cnf, units, &[])?;
    w.flush()
}

fn dimacs_to(w: &mut dyn Write, cnf: &CnfFormula, units: &[Lit], comments: &[String]) -> io::Result<()> {
    for c in comments {
        writeln!(w, "c {c}")?;
    }
    let vars = units.iter().map(|l| l.index() + 1).fold(cnf.var_count(), usize::max);
    writeln!(w, "p cnf {vars} {}", cnf.len() + units.len())?;
    for clause in cnf.iter() {
        for l in clause {
            write!(w, "{} ", l.to_dimacs())?;
        }
        writeln!(w, "0")?;
    }
    for u in units {
        writeln!(w, "{} 0", u.to_dimacs())?;
    }
    Ok(())
}

/// A test name made safe as a file name.
pub fn safe_name(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c == '/' || c == '\\' || c == '\0' || c.is_control() { '_' } else { c }).collect();
    match s.as_str() {
        "" | "." | ".." => format!("_{s}"),
        _ => s,
    }
}

/// The unit clauses asserting every one of `bs`, over a formula of `nvars` variables: constant
/// truths drop out, and a constant falsehood becomes the pair `x, ¬x` of a fresh variable, so
/// that every query is a plain CNF.
pub fn units_of(bs: &[B], nvars: usize) -> Vec<Lit> {
    let mut units = Vec::new();
    for b in bs {
        match *b {
            B::T => {}
            B::L(l) => units.push(l),
            B::F => {
                let x = Var::from_index(nvars).positive();
                return vec![x, !x];
            }
        }
    }
    units
}

/// The `--certify` line and `--dimacs` files for an Outcome whose Observation is decided,
/// for the test in `file`. The whole CNF is only written out when a certificate or DIMACS
/// files are asked for. A certificate that does not check is an error, not a log line:
/// a verdict `--certify` cannot back must not pass for an answer.
pub fn for_outcome(
    out: &Outcome,
    file: &str,
    lg: &mut Logic,
    p: B,
    filter: B,
    opts: &Options,
    deadline: Deadline,
) -> Result<Option<String>, Diag> {
    let base = opts.dimacs.as_ref().map(|dir| dir.join(dimacs_name(file, &out.test.name, opts)));
    let req = Request { certify: opts.certify, dimacs: base.as_deref(), deadline, ..Request::default() };
    if !req.certify && req.dimacs.is_none() {
        return Ok(None);
    }
    deadline.check(file)?;
    certify_verdict(&out.test.name, out.observation(), &lg.full_cnf(), p, filter, req).map_err(|f| f.diag(file))
}

/// The name of a test's `--dimacs` files: the one the driver chose for it, else its file's
/// name without `.litmus` (else its test name).
fn dimacs_name(file: &str, test_name: &str, opts: &Options) -> String {
    if let Some(n) = &opts.dimacs_name {
        return n.clone();
    }
    match Path::new(file).file_stem() {
        Some(s) => s.to_string_lossy().to_string(),
        None => safe_name(test_name),
    }
}

/// Makes a DRAT proof (text) that `cnf ∧ units` is unsatisfiable.
pub type Prover = fn(&CnfFormula, &[Lit]) -> Result<Vec<u8>, String>;

/// What `--certify` and `--dimacs` ask for one test.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub certify: bool,
    /// Where the files go, without their extensions: `DIR/NAME` writes `DIR/NAME.q1.cnf`.
    pub dimacs: Option<&'a Path>,
    /// Where the proofs come from: [`prove_unsat`]. The checker trusts nothing about them,
    /// so another source (a corrupting one, in the tests) can only be refused.
    pub prove: Prover,
    /// `--timeout`'s, looked at before each solver call and while checking a proof.
    pub deadline: Deadline,
}

impl Default for Request<'_> {
    fn default() -> Self {
        Request { certify: false, dimacs: None, prove: prove_unsat, deadline: Deadline::NONE }
    }
}

/// Why a verdict got no certificate. Each makes the test an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The evidence did not check: a proof refused, a witness missing, a solver error.
    NotChecked(String),
    /// A `--dimacs` file could not be written.
    Io(String),
    /// The deadline passed first: the test is a timeout, as in any other phase.
    Timeout,
}

impl Failure {
    /// The diagnostic for the test in `file`.
    pub fn diag(&self, file: &str) -> Diag {
        match self {
            Failure::NotChecked(why) => Diag::file(file, format!("certificate not checked: {why}")),
            Failure::Io(m) => Diag::file(file, m.clone()),
            Failure::Timeout => Diag::limit(file, TIMEOUT),
        }
    }
}

/// `base` with `.qK.EXT` appended (`DIR/SB` gives `DIR/SB.q1.cnf`).
fn query_file(base: &Path, k: usize, ext: &str) -> PathBuf {
    let mut f = base.as_os_str().to_owned();
    f.push(format!(".q{k}.{ext}"));
    PathBuf::from(f)
}

/// Writes `path` with `write`, naming the file in any error.
fn save(path: &Path, write: &dyn Fn(&mut dyn Write) -> io::Result<()>) -> Result<(), Failure> {
    let fail = |e: io::Error| Failure::Io(format!("cannot write {}: {e}", path.display()));
    let mut w = io::BufWriter::new(std::fs::File::create(path).map_err(fail)?);
    write(&mut w).and_then(|()| w.flush()).map_err(fail)
}

/// Writes q1 and q2 as `BASE.q1.cnf` and `BASE.q2.cnf`, creating BASE's folder.
fn write_queries(name: &str, cnf: &CnfFormula, q: &[Vec<Lit>; 2], base: &Path) -> Result<(), Failure> {
    if let Some(dir) = base.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Io(format!("cannot create {}: {e}", dir.display())))?;
    }
    for (k, units, what) in [(1, &q[0], "satisfying"), (2, &q[1], "not satisfying")] {
        let comments = [format!("litsat: {name}, an allowed execution {what} the condition (UNSAT: there is none)")];
        save(&query_file(base, k, "cnf"), &|w| dimacs_to(w, cnf, units, &comments))?;
    }
    Ok(())
}

/// Certifies the Observation `observation` of test `name`, whose CNF is `cnf`, condition
/// literal `p` and filter literal `filter` (`B::T` when there is none, or when the filter is
/// already asserted in `cnf`). Writes the two queries when asked (and, with `--certify`, the
/// DRAT proof of each certified UNSAT query beside them, as `BASE.qK.drat`). Returns the log
/// line, if `--certify` asked for one.
pub fn certify_verdict(
    name: &str,
    observation: Observation,
    cnf: &CnfFormula,
    p: B,
    filter: B,
    req: Request,
) -> Result<Option<String>, Failure> {
    let n = cnf.var_count();
    let q = [units_of(&[filter, p], n), units_of(&[filter, p.negate()], n)];
    if let Some(base) = req.dimacs {
        write_queries(name, cnf, &q, base)?;
    }
    if !req.certify {
        return Ok(None);
    }
    let c = Certifier { cnf, q: &q, req };
    let what = match observation {
        Observation::Never => c.proof(1).map(|r| format!("DRAT checked ({} lemmas)", r.lemmas)),
        Observation::Always => c
            .witness(1)
            .and_then(|()| c.proof(2))
            .map(|r| format!("DRAT checked ({} lemmas), witness checked", r.lemmas)),
        Observation::Sometimes => c.witness(1).and_then(|()| c.witness(2)).map(|()| "witnesses checked".to_string()),
    }?;
    Ok(Some(format!("Certificate {name} {what}")))
}

/// The evidence for one verdict: q1 and q2 over `cnf`.
struct Certifier<'a> {
    cnf: &'a CnfFormula,
    q: &'a [Vec<Lit>; 2],
    req: Request<'a>,
}

impl Certifier<'_> {
    /// Query `k` is UNSAT: its proof, written beside the query under `--dimacs`, checks.
    fn proof(&self, k: usize) -> Result<CertReport, Failure> {
        let units = &self.q[k - 1];
        self.in_time()?;
        let drat = (self.req.prove)(self.cnf, units).map_err(|e| Failure::NotChecked(format!("q{k}: {e}")))?;
        if let Some(base) = self.req.dimacs {
            save(&query_file(base, k, "drat"), &|w| w.write_all(&drat))?;
        }
        check_drat_until(self.cnf, units, &drat, self.req.deadline).map_err(|f| match f {
            Failure::NotChecked(e) => Failure::NotChecked(format!("q{k}: the checker refused the proof: {e}")),
            other => other,
        })
    }

    /// Query `k` is SAT: a model of it checks.
    fn witness(&self, k: usize) -> Result<(), Failure> {
        self.in_time()?;
        match checked_model(self.cnf, &self.q[k - 1]) {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(Failure::NotChecked(format!("q{k}: no witness, the query is unsatisfiable"))),
            Err(e) => Err(Failure::NotChecked(format!("q{k}: {e}"))),
        }
    }

    /// Before a solver call, which cannot be interrupted: the deadline has not passed.
    fn in_time(&self) -> Result<(), Failure> {
        if self.req.deadline.passed() { Err(Failure::Timeout) } else { Ok(()) }
    }
}
