//! `distinguish`: the smallest litmus test that one model allows and another forbids, or
//! a bounded proof that none exists (issue #40).
//!
//! The base relations of a test of N events are solver variables (`skeleton.rs`), bound
//! under herd's names (`builtins.rs`); both models are compiled over them by the ordinary
//! cat compiler, with every check exact. The solver is asked for an execution that passes
//! every check of A and fails one of B (and raises no flag), for N = 2, 3, …. Each
//! solution becomes a litmus test (`emit.rs`), which the ordinary engine must find
//! `Sometimes` or `Always` under A and `Never` under B; a candidate that fails is blocked
//! and the search goes on.

mod builtins;
mod deps;
mod emit;
mod emit_asm;
mod shape;
mod skeleton;
mod vocab;
mod vocab_lkmm;
mod vocab_ppc;
mod vocab_riscv;

use crate::api::{Model, Test, check, explain};
use crate::cat::{Models, Program};
use crate::diag::Diag;
use crate::logic::{B, Logic, fill_truth};
use crate::query::{Observation, Options};
use shape::Shape;
use std::time::{Duration, Instant};
use varisat::{CnfFormula, ExtendFormula, Lit, Solver};

/// The search's bounds and switches.
#[derive(Clone, Debug)]
pub struct Search {
    /// The architecture whose vocabulary the tests use (`LKMM`: C tests in the kernel's
    /// style, see `vocab_lkmm.rs`).
    pub arch: String,
    /// The largest number of events searched.
    pub max_events: usize,
    /// At most this many threads (default: as many as events).
    pub threads: Option<usize>,
    /// At most this many locations (default: as many as events).
    pub locations: Option<usize>,
    /// How many tests to find (renamings of one another count once).
    pub all: usize,
    /// Check each "no difference" answer's UNSAT proof with the DRAT checker.
    pub certify: bool,
    /// Let executions that raise a flag be candidates.
    pub flags: bool,
    /// Only these kinds of event (by the vocabulary's names: `R`, `W`, `MFENCE`, `XCHG`,
    /// …); all where empty.
    pub kinds: Vec<String>,
    /// Stop after this long, reporting the largest size finished.
    pub timeout: Option<Duration>,
}

impl Search {
    /// The defaults for `arch`: up to 6 events, one test, nothing certified.
    pub fn new(arch: &str) -> Search {
        Search {
            arch: arch.to_string(),
            max_events: 6,
            threads: None,
            locations: None,
            all: 1,
            certify: false,
            flags: false,
            kinds: Vec::new(),
            timeout: None,
        }
    }
}

/// A test that A allows and B forbids.
#[derive(Clone, Debug)]
pub struct Found {
    /// The test's name (`A-not-B-<events><letter>`).
    pub name: String,
    /// Its events, observers left out.
    pub events: usize,
    /// Its threads, observers left out.
    pub threads: usize,
    /// The test's text, in the architecture's syntax.
    pub text: String,
    /// A's answer (B's is `Never`).
    pub under_a: Observation,
    /// The shape's key, the same for every renaming of its threads and locations.
    pub key: String,
    /// The checks of B that forbid it (explain's).
    pub forbidden_by: Vec<String>,
}

/// The search's answer.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// The tests found, at most as many as asked.
    pub found: Vec<Found>,
    /// The largest N for which every test of up to N events was searched (and, where
    /// fewer tests than asked were found, shown to have no more).
    pub complete_up_to: usize,
    /// Each "no difference" step's proof was checked (with `--certify`).
    pub certified: bool,
    /// The search stopped at its time limit.
    pub timed_out: bool,
    /// Candidates the ordinary check refused.
    pub refused: usize,
}

fn program(m: &Model) -> Result<&Program, Diag> {
    match &m.0 {
        Models::Named(p) => Ok(p),
        Models::Defaults(..) => Err(Diag::file("distinguish", "name the two models")),
    }
}

/// Searches for tests of `s.arch` that `a` allows and `b` forbids.
pub fn distinguish(a: &Model, b: &Model, s: &Search) -> Result<Answer, Diag> {
    let (pa, pb) = (program(a)?, program(b)?);
    let arch = vocab_name(&s.arch, [pa, pb]);
    let vocab = vocab::for_arch(arch, &s.kinds).map_err(|e| Diag::file("distinguish", e))?;
    let vocab = &vocab;
    let known = crate::isa::for_arch(vocab.arch).map_or(&[][..], |i| i.known_sets());
    let start = Instant::now();
    let mut ans = Answer { certified: s.certify, ..Answer::default() };
    let mut seen: Vec<String> = Vec::new();
    for n in 1..=s.max_events {
        let t = s.threads.unwrap_or(n).min(n).max(1);
        let l = s.locations.unwrap_or(n).min(n).max(1);
        let mut lg = Logic::new();
        let sk = skeleton::build(&mut lg, vocab, n, t, l);
        let goal = goal(&mut lg, &sk, (pa, pb), known, s.flags)?;
        lg.assert(goal);
        let cnf = lg.full_cnf();
        let mut blocks: Vec<Vec<Lit>> = Vec::new();
        let mut solver = Solver::new();
        solver.add_formula(&cnf);
        let vars = lg.num_vars();
        // With one test asked, the simplest of the first few found at this size.
        let (mut best, mut tried) = (None, 0);
        loop {
            if s.timeout.is_some_and(|d| start.elapsed() > d) {
                ans.timed_out = true;
                return Ok(ans);
            }
            let Some((shape, block)) = solution(&mut solver, &sk, vars)? else { break };
            solver.add_clause(&block);
            blocks.push(block);
            let key = shape.canonical();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let score = (shape.score(vocab), shape.rows());
            if s.all == 1 && best.as_ref().is_some_and(|b: &(Score, Found)| b.0 <= score) {
                tried += 1;
                if tried >= PREFER_CAP {
                    break;
                }
                continue;
            }
            match confirm(&shape, vocab, (a, b), ans.found.len() + ans.refused)? {
                Some(f) if s.all == 1 => {
                    best = Some((score, f));
                }
                Some(f) => {
                    ans.found.push(f);
                    if ans.found.len() >= s.all {
                        return Ok(ans);
                    }
                }
                None => ans.refused += 1,
            }
        }
        if let Some((_, f)) = best {
            ans.found.push(f);
            return Ok(ans);
        }
        if s.certify {
            certify(&cnf, &blocks)?;
        }
        ans.complete_up_to = n;
    }
    Ok(ans)
}

/// The vocabulary `arch` names; for `C`, the kernel's where a model's macros are the
/// kernel's (they define `READ_ONCE`): to such a model, C11's atomics are plain accesses.
fn vocab_name<'a>(arch: &'a str, models: [&Program; 2]) -> &'a str {
    let kernel = |p: &Program| {
        p.macros.as_ref().is_some_and(|m| m.text.lines().any(|l| l.trim_start().starts_with("READ_ONCE(")))
    };
    if arch.eq_ignore_ascii_case("C") && models.into_iter().any(kernel) { vocab_lkmm::NAME } else { arch }
}

/// The solver's next solution as a shape, with the clause that blocks it; `None` once
/// there is none.
fn solution(solver: &mut Solver, sk: &skeleton::Skeleton, vars: usize) -> Result<Option<(Shape, Vec<Lit>)>, Diag> {
    let sat = solver.solve().map_err(|e| Diag::file("distinguish", format!("solver error: {e}")))?;
    if !sat {
        return Ok(None);
    }
    let mut truth = vec![false; vars.max(1)];
    let model = solver.model().unwrap_or_default();
    fill_truth(&model, &mut truth, |i| (i < vars).then_some(i));
    Ok(Some((Shape::read(sk, &truth), blocking(&sk.shape_lits(), &truth))))
}

/// How many further candidates of the first size that has one are looked at for a
/// simpler test (fewer writes, fences and threads: SB before R).
const PREFER_CAP: usize = 64;

/// A test's complexity, least first (see [`Shape::score`]), then the weakness of its
/// kinds ([`Shape::rows`]).
type Score = ((usize, usize, usize), usize);

/// The literal saying: A's checks pass, one of B's fails, and (unless `flags`) neither
/// raises a flag.
fn goal(
    lg: &mut Logic,
    sk: &skeleton::Skeleton,
    (pa, pb): (&Program, &Program),
    known: &[&str],
    flags: bool,
) -> Result<B, Diag> {
    let mut all = Vec::new();
    let mut b_fails = Vec::new();
    for (k, p) in [pa, pb].into_iter().enumerate() {
        let bi = builtins::builtins(sk, lg, known);
        let compiled = crate::cat::interp::compile_model_exact(p, lg, bi, &p.variants)?;
        for c in &compiled.checks {
            if c.flag {
                if !flags {
                    all.push(c.ok.negate());
                }
            } else if k == 0 {
                all.push(c.ok);
            } else {
                b_fails.push(c.ok.negate());
            }
        }
    }
    let fails = lg.or(&b_fails);
    all.push(fails);
    Ok(lg.and(&all))
}

/// The clause that rules out this assignment of `lits`.
fn blocking(lits: &[B], truth: &[bool]) -> Vec<Lit> {
    lits.iter()
        .filter_map(|b| match *b {
            B::L(l) => Some(if b.value(truth) { !l } else { l }),
            _ => None,
        })
        .collect()
}

/// Checks that the formula with the blocking clauses is unsatisfiable, by a DRAT proof.
fn certify(cnf: &CnfFormula, blocks: &[Vec<Lit>]) -> Result<(), Diag> {
    let mut f = CnfFormula::new();
    f.set_var_count(cnf.var_count());
    for c in cnf.iter() {
        f.add_clause(c);
    }
    for b in blocks {
        f.add_clause(b);
    }
    crate::certify::certify_unsat(&f, &[])
        .map(|_| ())
        .map_err(|e| Diag::file("distinguish", format!("certificate: {e}")))
}

/// The shape as a test, checked by the ordinary engine: allowed by A, forbidden by B.
fn confirm(shape: &Shape, vocab: &vocab::Vocab, (a, b): (&Model, &Model), k: usize) -> Result<Option<Found>, Diag> {
    let name = format!("{}-not-{}-{}{}", short(a), short(b), shape.len(), letter(k));
    let doc = format!("allowed by {}, forbidden by {}", a.name(), b.name());
    let Ok(text) = emit::litmus(shape, vocab, &name, &doc) else { return Ok(None) };
    let test = Test::parse(&text, &format!("{name}.litmus")).map_err(|e| e.diag().clone())?;
    let opts = Options::new();
    let under_a = check(&test, a, &opts).map_err(|e| e.diag().clone())?.observation();
    let under_b = check(&test, b, &opts).map_err(|e| e.diag().clone())?.observation();
    if under_a == Observation::Never || under_b != Observation::Never {
        return Ok(None);
    }
    let why = explain(&test, b, &opts).map_err(|e| e.diag().clone())?;
    let forbidden_by = why.0.breaks.iter().map(|br| why.0.checks[br.check].0.clone()).collect();
    Ok(Some(Found {
        name,
        events: shape.len(),
        threads: shape.threads.len(),
        text,
        under_a,
        key: shape.canonical(),
        forbidden_by,
    }))
}

/// A model's short name: its file's stem.
fn short(m: &Model) -> String {
    let n = m.name();
    let stem = std::path::Path::new(&n).file_stem().map(|s| s.to_string_lossy().to_string());
    stem.unwrap_or(n)
}

/// `a`, `b`, …, `z`, `aa`, …: the k-th test's suffix.
fn letter(k: usize) -> String {
    let c = (b'a' + (k % 26) as u8) as char;
    if k < 26 { c.to_string() } else { format!("{}{c}", letter(k / 26 - 1)) }
}
