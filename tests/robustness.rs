//! Robustness against bad input (issue #8): no panics, located diagnostics, and a batch
//! that goes on past its bad files.
//!
//! - `mutation_sweep_*`: corpus litmus files and cat models, deterministically mutated
//!   (truncated, lines dropped or doubled, garbage tokens inserted, bytes swapped or
//!   replaced), go through the parsers and the whole pipeline; none may panic, and every
//!   rejection must name `file:line:col` inside the input.
//! - `regressions`: the inputs the fuzzers (`fuzz/`) found, kept under `tests/robustness/`.
//! - `batch_*`: `litsat check` over a folder mixing good and bad tests, and a bad model.
//! - `fuzz_loop_long` (ignored): a million mutants per entry point, for the closing figures.

mod common;

use common::{GARBAGE, Rng, shared};
use litsat::cat::load::{BUNDLED, SourceFile};
use litsat::cat::parse::parse_model;
use litsat::cat::{Program, load_program};
use litsat::diag::Diag;
use litsat::litmus::parse_test;
use litsat::query::{Options, run};
use rayon::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn opts() -> Options {
    Options::new().timeout(Some(Duration::from_millis(200))).max_events(Some(40))
}

// ---------- the mutations (PRNG and tokens in tests/common) ----------

/// One to three edits of the kinds the issue names.
fn mutate(src: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = src.to_vec();
    let edits = 1 + rng.below(3);
    for _ in 0..edits {
        match rng.below(8) {
            // Truncate at a random byte.
            0 => {
                let k = rng.below(b.len() + 1);
                b.truncate(k);
            }
            // Drop one line, or a run of lines.
            1 | 2 => {
                let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
                if lines.len() > 1 {
                    let at = rng.below(lines.len());
                    let n = if rng.below(4) == 0 { 1 + rng.below(4) } else { 1 };
                    let kept: Vec<&[u8]> =
                        lines.iter().enumerate().filter(|(i, _)| *i < at || *i >= at + n).map(|(_, l)| *l).collect();
                    b = kept.join(&b'\n');
                }
            }
            // Insert a garbage token, maybe with spaces.
            3 | 4 => {
                let tok = GARBAGE[rng.below(GARBAGE.len())];
                let at = rng.below(b.len() + 1);
                let spaced = if rng.below(2) == 0 { format!(" {tok} ") } else { tok.to_string() };
                b.splice(at..at, spaced.into_bytes());
            }
            // Swap two bytes, adjacent or anywhere.
            5 => {
                if b.len() >= 2 {
                    let i = rng.below(b.len());
                    let j = if rng.below(2) == 0 { (i + 1) % b.len() } else { rng.below(b.len()) };
                    b.swap(i, j);
                }
            }
            // Replace a byte by an arbitrary one (invalid UTF-8 included).
            6 => {
                if !b.is_empty() {
                    let i = rng.below(b.len());
                    b[i] = (rng.next() >> 24) as u8;
                }
            }
            // Duplicate a line.
            _ => {
                let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
                let at = rng.below(lines.len());
                let mut v: Vec<&[u8]> = lines.clone();
                v.insert(at, lines[at]);
                b = v.join(&b'\n');
            }
        }
    }
    b
}

// ---------- checking a rejection's location ----------

/// Splits `FILE:LINE:COL: error: …` into its parts.
fn location(msg: &str) -> Option<(&str, usize, usize)> {
    let head = &msg[..msg.find(": error: ")?];
    let mut parts = head.rsplitn(3, ':');
    let col = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    Some((parts.next()?, line, col))
}

/// Whether `line:col` lies inside `text` (one past the last line and column allowed).
fn in_bounds(text: &str, line: usize, col: usize) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    line >= 1 && col >= 1 && line <= lines.len() + 1 && col <= lines.get(line - 1).map_or(1, |l| l.chars().count() + 1)
}

/// The text a diagnostic's file names: one of the inputs, a bundled model, or a file.
fn text_of(file: &str, known: &[(&str, &str)]) -> Option<String> {
    if let Some((_, t)) = known.iter().find(|(n, _)| *n == file) {
        return Some(t.to_string());
    }
    if let Some(name) = file.strip_prefix("<bundled>/") {
        return BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string());
    }
    std::fs::read_to_string(file).ok()
}

/// A problem with one rejection, or `None` if it is well located.
fn bad_location(msg: &str, known: &[(&str, &str)]) -> Option<String> {
    let Some((file, line, col)) = location(msg) else {
        return Some(format!("no `file:line:col: error:` prefix: {msg}"));
    };
    let Some(text) = text_of(file, known) else {
        return Some(format!("names a file that is neither an input nor readable: {msg}"));
    };
    (!in_bounds(&text, line, col)).then(|| format!("location {line}:{col} outside {file}: {msg}"))
}

// ---------- the entry points, guarded ----------

/// What one input did, when it did not panic.
#[derive(Debug, PartialEq)]
enum Fate {
    /// Parsed (and answered, where the entry point runs tests).
    Accepted,
    /// Rejected with a well-located diagnostic.
    Rejected,
    /// Rejected, but the diagnostic's location is missing or wrong.
    Misplaced(String),
}

/// `Err` holds a panic's message.
type Verdict = Result<Fate, String>;

/// An input: a label, its bytes, and what it did.
type Case = (String, Vec<u8>, Verdict);

/// Checks a rejection's location, and renders it over its source as the CLI does.
fn rejected(d: &Diag, known: &[(&str, &str)]) -> Fate {
    let msg = d.to_string();
    if let Some(problem) = bad_location(&msg, known) {
        return Fate::Misplaced(problem);
    }
    let rendered = d.render(text_of(&d.file, known).as_deref());
    if !rendered.starts_with(&msg) {
        return Fate::Misplaced(format!("the rendering does not start with the diagnostic: {rendered}"));
    }
    Fate::Rejected
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic".to_string())
}

/// Parse and run a litmus text under `prog`, as `litsat check` does.
fn pipeline(name: &str, text: &str, prog: &Program) -> Verdict {
    catch_unwind(AssertUnwindSafe(|| {
        let r = parse_test(name, text).and_then(|t| run(t, name, text, prog, &opts()));
        match r {
            Ok(o) => {
                let _ = litsat::report::herd_log(&o, 0.0);
                Fate::Accepted
            }
            Err(d) => rejected(&d, &[(name, text)]),
        }
    }))
    .map_err(panic_text)
}

fn litmus_parse_only(name: &str, text: &str) -> Verdict {
    catch_unwind(AssertUnwindSafe(|| match parse_test(name, text) {
        Ok(_) => Fate::Accepted,
        Err(d) => rejected(&d, &[(name, text)]),
    }))
    .map_err(panic_text)
}

const SB: &str = "X86 SB\n{ x=0; y=0; }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

/// Parse a cat text and, where it parses, evaluate it in memory as the model of SB (with
/// the bundled stdlib; its includes do not resolve).
fn cat_in_memory(name: &str, text: &str, base: &Program) -> Verdict {
    catch_unwind(AssertUnwindSafe(|| {
        let known = [(name, text), ("SB.litmus", SB)];
        let model = match parse_model(name, text) {
            Ok(m) => m,
            Err(d) => return rejected(&d, &known),
        };
        let mut prog = base.clone();
        prog.set_root(SourceFile { path: name.to_string(), text: Arc::from(text), model: Arc::new(model) });
        match parse_test("SB.litmus", SB).and_then(|t| run(t, "SB.litmus", SB, &prog, &opts())) {
            Ok(_) => Fate::Accepted,
            Err(d) => rejected(&d, &known),
        }
    }))
    .map_err(panic_text)
}

/// Write a cat text as a model file named like its original, with the original's folder
/// on the include path so its includes resolve, then load it and run SB under it.
fn cat_as_file(path: &Path, text: &str, orig_dir: &Path) -> Verdict {
    if std::fs::write(path, text).is_err() {
        return Ok(Fate::Misplaced(format!("cannot write {}", path.display())));
    }
    let name = path.to_string_lossy().to_string();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let known = [(name.as_str(), text), ("SB.litmus", SB)];
        if let Err(d) = parse_model(&name, text) {
            return rejected(&d, &known);
        }
        let prog = match load_program(&name, &[orig_dir.to_path_buf()]) {
            Ok(p) => p,
            Err(d) => return rejected(&d, &known),
        };
        match parse_test("SB.litmus", SB).and_then(|t| run(t, "SB.litmus", SB, &prog, &opts())) {
            Ok(_) => Fate::Accepted,
            Err(d) => rejected(&d, &known),
        }
    }))
    .map_err(panic_text);
    let _ = std::fs::remove_file(path);
    r
}

// ---------- inputs ----------

fn files_with(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_with(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

fn sorted_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v = Vec::new();
    files_with(dir, ext, &mut v);
    v.sort();
    v
}

/// Files with their bytes.
type Files = Vec<(PathBuf, Vec<u8>)>;

/// The project's litmus tests, then (when `../shared` is present) every `stride`-th
/// shared corpus file, so the sample is fixed and spread over all suites.
fn litmus_sources(stride: usize) -> (Files, Files) {
    let read = |ps: Vec<PathBuf>| ps.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect();
    let local = read(sorted_files(&root().join("litmus"), "litmus"));
    let shared = match shared() {
        Some(sh) => read(sorted_files(&sh.join("corpus"), "litmus").into_iter().step_by(stride).collect()),
        None => Vec::new(),
    };
    (local, shared)
}

/// `(folder, file, text)` for the project's models and, when present, herd's.
fn cat_sources() -> Vec<(PathBuf, PathBuf, Vec<u8>)> {
    let mut dirs = vec![root().join("cat")];
    if let Some(sh) = shared() {
        dirs.push(sh.join("models/herd"));
    }
    let mut out = Vec::new();
    for d in dirs {
        for p in sorted_files(&d, "cat") {
            if let Ok(b) = std::fs::read(&p) {
                out.push((d.clone(), p, b));
            }
        }
    }
    out
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-robust-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Fails with the first few offending inputs, saved under the temp folder for replay.
fn report(what: &str, results: Vec<Case>, started: Instant) {
    let n = results.len();
    let panics: Vec<_> = results.iter().filter(|r| r.2.is_err()).collect();
    let misplaced: Vec<_> = results.iter().filter(|r| matches!(r.2, Ok(Fate::Misplaced(_)))).collect();
    let accepted = results.iter().filter(|r| r.2 == Ok(Fate::Accepted)).count();
    let rejected = results.iter().filter(|r| r.2 == Ok(Fate::Rejected)).count();
    println!(
        "{what}: {n} inputs ({accepted} accepted, {rejected} rejected with a location), {} panics, {} badly located errors, {:.1?}",
        panics.len(),
        misplaced.len(),
        started.elapsed()
    );
    if panics.is_empty() && misplaced.is_empty() {
        return;
    }
    let dir = temp_dir(&format!("fail-{}", what.replace(' ', "-")));
    let mut lines = Vec::new();
    for (k, (label, input, v)) in panics.iter().chain(misplaced.iter()).take(20).enumerate() {
        let p = dir.join(format!("case-{k}"));
        let _ = std::fs::write(&p, input);
        lines.push(format!("{label} (saved as {}): {v:?}", p.display()));
    }
    panic!("{what}: {} panics, {} badly located errors:\n{}", panics.len(), misplaced.len(), lines.join("\n"));
}

// ---------- the sweep ----------

/// Mutants of the project's litmus tests, of a fixed sample of the shared corpus (when
/// present), and of the cat models. The whole sweep takes a few seconds.
const LOCAL_MUTANTS: usize = 6000;
const SHARED_MUTANTS: usize = 4000;
const CAT_MUTANTS: usize = 2000;

/// Mutants of the project's tests and of a fixed sample of the shared corpus, through the
/// whole pipeline under SC.
#[test]
fn mutation_sweep_litmus() {
    let started = Instant::now();
    let prog = load_program("sc", &[]).expect("bundled sc");
    let (local, shared) = litmus_sources(40);
    let mut jobs: Vec<(usize, &PathBuf, &Vec<u8>)> = Vec::new();
    for k in 0..LOCAL_MUTANTS {
        let (p, b) = &local[k % local.len()];
        jobs.push((k, p, b));
    }
    if !shared.is_empty() {
        for k in 0..SHARED_MUTANTS {
            let (p, b) = &shared[k % shared.len()];
            jobs.push((LOCAL_MUTANTS + k, p, b));
        }
    }
    let results: Vec<_> = jobs
        .par_iter()
        .map(|&(k, p, b)| {
            let mut rng = Rng::new(k as u64 + 1);
            let m = mutate(b, &mut rng);
            let text = String::from_utf8_lossy(&m).to_string();
            let name = format!("mutant-{k}.litmus");
            let v = pipeline(&name, &text, &prog);
            (format!("mutant {k} of {}", p.display()), m, v)
        })
        .collect();
    report("litmus sweep", results, started);
}

/// Mutants of the cat models: parsed, written beside-named and loaded with the
/// original folder on the include path, and used to answer SB.
#[test]
fn mutation_sweep_cat() {
    let started = Instant::now();
    let sources = cat_sources();
    let dir = temp_dir("cat");
    let results: Vec<_> = (0..CAT_MUTANTS)
        .into_par_iter()
        .map(|k| {
            let (orig_dir, p, b) = &sources[k % sources.len()];
            let mut rng = Rng::new(0xCA7 + k as u64);
            let m = mutate(b, &mut rng);
            let text = String::from_utf8_lossy(&m).to_string();
            // Each mutant gets its own folder, so includes of the same name do not clash.
            let sub = dir.join(format!("m{k}"));
            let _ = std::fs::create_dir_all(&sub);
            let file = sub.join(p.file_name().unwrap_or_default());
            let v = cat_as_file(&file, &text, orig_dir);
            let _ = std::fs::remove_dir(&sub);
            (format!("mutant {k} of {}", p.display()), m, v)
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    report("cat sweep", results, started);
}

// ---------- regressions found by fuzzing ----------

/// Every file under `tests/robustness/`: `*.litmus` through the pipeline, `*.cat` through
/// the parser and the in-memory evaluation.
#[test]
fn regressions() {
    let started = Instant::now();
    let prog = load_program("sc", &[]).expect("bundled sc");
    let dir = root().join("tests/robustness");
    let mut results = Vec::new();
    for p in sorted_files(&dir, "litmus") {
        let b = std::fs::read(&p).expect("read");
        let text = String::from_utf8_lossy(&b).to_string();
        let name = p.to_string_lossy().to_string();
        results.push((name.clone(), b.clone(), pipeline(&name, &text, &prog)));
    }
    for p in sorted_files(&dir, "cat") {
        let b = std::fs::read(&p).expect("read");
        let text = String::from_utf8_lossy(&b).to_string();
        let name = p.to_string_lossy().to_string();
        results.push((name.clone(), b.clone(), cat_in_memory(&name, &text, &prog)));
    }
    report("regressions", results, started);
}

/// What the limits say on the hand-made regressions: too-deep input is refused by the
/// parsers, runaway recursion by the evaluator, and input just inside the bounds runs.
#[test]
fn limits_name_themselves() {
    let prog = load_program("sc", &[]).expect("bundled sc");
    let dir = root().join("tests/robustness");
    let message = |p: &Path| -> Option<String> {
        let text = String::from_utf8_lossy(&std::fs::read(p).expect("read")).to_string();
        let name = p.to_string_lossy().to_string();
        let r = if name.ends_with(".cat") {
            parse_model(&name, &text)
                .map(|m| {
                    let mut prog = prog.clone();
                    prog.set_root(SourceFile {
                        path: name.clone(),
                        text: Arc::from(text.as_str()),
                        model: Arc::new(m),
                    });
                    prog
                })
                .and_then(|prog| parse_test("SB.litmus", SB).and_then(|t| run(t, "SB.litmus", SB, &prog, &opts())))
                .map(|_| ())
        } else {
            parse_test(&name, &text).and_then(|t| run(t, &name, &text, &prog, &opts())).map(|_| ())
        };
        r.err().map(|d| d.to_string())
    };
    let cases: &[(&str, Option<&str>)] = &[
        ("litmus-deep-parens.litmus", Some("proposition nested too deeply")),
        ("litmus-deep-not.litmus", Some("proposition nested too deeply")),
        ("litmus-deep-implies.litmus", Some("proposition nested too deeply")),
        ("litmus-nested-199.litmus", None),
        ("cat-deep-parens.cat", Some("nested too deeply")),
        ("cat-deep-union.cat", None),
        ("cat-deep-diff.cat", None),
        ("cat-deep-inverse.cat", Some("nested too deeply")),
        ("cat-deep-comp.cat", Some("nested too deeply")),
        ("cat-deep-app.cat", Some("nested too deeply")),
        ("cat-deep-brackets.cat", Some("nested too deeply")),
        ("cat-deep-let-in.cat", Some("nested too deeply")),
        ("cat-deep-if.cat", Some("nested too deeply")),
        ("cat-deep-cond.cat", Some("nested too deeply")),
        ("cat-deep-cond-or.cat", Some("nested too deeply")),
        ("cat-nested-250.cat", None),
        ("cat-rec-fun.cat", Some("cat-rec-fun.cat:2:15: error: evaluation nested more than")),
        ("cat-rec-proc.cat", Some("evaluation nested more than")),
        ("cat-omega.cat", Some("evaluation nested more than")),
        ("cat-rec-branching.cat", Some("evaluation took more than")),
        ("cat-rec-try-depth.cat", None),
        ("litmus-accented-comment-instr-column.litmus", Some("litmus:4:38: error: unsupported instruction 'FROB'")),
        ("litmus-multibyte-in-comment-column.litmus", Some("litmus:6:2: error: expected a thread name")),
        ("litmus-x86_64-paren-order.litmus", Some("litmus:4:2: error: expected `)` after `(`")),
    ];
    for (file, want) in cases {
        let got = message(&dir.join(file));
        match (want, &got) {
            (None, None) => {}
            (Some(w), Some(g)) if g.contains(w) => {}
            _ => panic!("{file}: expected {want:?}, got {got:?}"),
        }
    }
}

// ---------- long chains ----------

/// `n` copies of `term` joined by `op`.
fn chain(n: usize, op: &str, term: &str) -> String {
    vec![term; n].join(op)
}

/// herd's log of a C test under rc11, answered on this test thread's small stack.
fn c_log(name: &str, text: &str) -> String {
    let prog = load_program("rc11", &[]).expect("bundled rc11");
    // No time budget here: the chains must be answered, however loaded the machine (speed
    // is the benchmark's business, never a timed test's).
    let opts = Options::new().max_events(Some(40));
    let o = parse_test(name, text).and_then(|t| run(t, name, text, &prog, &opts)).expect("answered");
    litsat::report::herd_log(&o, 0.0)
}

/// Flat chains of 20,000 C operators (in an initialiser, in a thread's assignment, the
/// non-associative `-`) and of as many conjuncts and disjuncts in the final condition
/// are answered, as their values say, on a test thread's 2 MB stack (issue #34).
#[test]
fn long_c_chains_are_answered() {
    const N: usize = 20_000;
    let test = |name: &str, body: &str, cond: &str| {
        format!("C {name}\n{{ x = 0; }}\nP0 (int* x) {{\n  int r0 = 1;\n{body}\n}}\nexists ({cond})\n")
    };
    let init = test("init", &format!("  int r1 = {};\n  *x = r1;", chain(N, " + ", "1")), "x=0");
    assert!(c_log("init", &init).contains(&format!("[x]={N};")), "{}", c_log("init", &init));
    let body = test("body", &format!("  r0 = {};\n  *x = r0;", chain(N, " + ", "r0")), &format!("x={N}"));
    assert!(c_log("body", &body).contains("\nOk\n"));
    let minus =
        test("minus", &format!("  r0 = {};\n  *x = r0;", chain(N, " - ", "r0")), &format!("x={}", 2 - N as i64));
    assert!(c_log("minus", &minus).contains("\nOk\n"));
    let and = test("and", "  *x = 1;", &chain(N, " /\\ ", "x=1"));
    assert!(c_log("and", &and).contains("\nOk\n"));
    let or = test("or", "  *x = 1;", &format!("{} \\/ x=1", chain(N, " \\/ ", "x=2")));
    assert!(c_log("or", &or).contains("\nOk\n"));
}

/// A chain of 100,000 terms (a 200 KB test) through `litsat check`: answered, on the main
/// thread's stack, with the value it sums to.
#[test]
fn a_100_000_term_chain_is_checked_by_the_binary() {
    const N: usize = 100_000;
    let dir = std::env::temp_dir().join(format!("litsat-chain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let file = dir.join("long.litmus");
    let body = format!("  int r1 = {};\n  *x = r1;", chain(N, " + ", "1"));
    std::fs::write(&file, format!("C long\n{{ x = 0; }}\nP0 (int* x) {{\n{body}\n}}\nexists (x={N})\n"))
        .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_litsat"))
        .args(["check", "-m", "rc11"])
        .arg(&file)
        .output()
        .expect("litsat runs");
    let log = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(log.contains("Observation long Always 1 0"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Flat cat chains of 5,000 terms run, as in herd: `|`, `;` and `&` built balanced, `\`
/// as the difference with the union of the rest; a chain of `++`, which is not
/// associative, is refused past the nesting bound with a located error.
#[test]
fn long_cat_chains_run() {
    let prog = load_program("sc", &[]).expect("bundled sc");
    let answer = |text: &str| -> Result<String, Diag> {
        let m = parse_model("chain.cat", text)?;
        let mut prog = prog.clone();
        prog.set_root(SourceFile { path: "chain.cat".into(), text: Arc::from(text), model: Arc::new(m) });
        let o = parse_test("SB.litmus", SB).and_then(|t| run(t, "SB.litmus", SB, &prog, &opts()))?;
        Ok(litsat::report::herd_log(&o, 0.0))
    };
    // Every term is `po`, and SB keeps its four states under an acyclic subset of po.
    for op in [" | ", " ; ", " & ", " \\ "] {
        let log = answer(&format!("X\nlet r = {}\nacyclic r as a\n", chain(5_000, op, "po")))
            .unwrap_or_else(|d| panic!("{op}: {d}"));
        assert!(log.contains("States 4"), "{op}: {log}");
    }
    // The union's terms all count: the `fr` after 5,000 `po`s forbids SB's outcome.
    let union = format!("X\nlet r = {} | fr\nacyclic r | rf as a\n", chain(5_000, " | ", "po"));
    assert!(answer(&union).expect("runs").contains("States 3"));
    let adds = format!("X\nlet s = {} ++ {{}}\nacyclic po as a\n", chain(1_000, " ++ ", "'a"));
    let err = answer(&adds).expect_err("refused").to_string();
    assert!(err.contains("chain.cat:2:") && err.contains("nested too deeply"), "{err}");
}

// ---------- a batch with good and bad files ----------

fn litsat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_litsat"))
}

/// `litsat check -m tso DIR`: each good test gets its log, each bad one a located error,
/// and the status is 1.
#[test]
fn batch_with_bad_files_answers_the_good_ones() {
    let dir = temp_dir("batch");
    let good = ["SB", "MP", "IRIW+mfence+po", "CoRR", "2+2W"];
    for g in good {
        std::fs::copy(root().join(format!("litmus/x86/{g}.litmus")), dir.join(format!("{g}.litmus"))).expect("copy");
    }
    let sb = std::fs::read_to_string(root().join("litmus/x86/SB.litmus")).expect("SB");
    // (file, text, expected `file:line:col` suffix of the error's location)
    let bad: Vec<(&str, String, &str)> = vec![
        ("bad-truncated.litmus", sb[..sb.find("exists").expect("exists") + 9].to_string(), "bad-truncated.litmus:11:"),
        ("bad-no-row-end.litmus", "X86 BAD\n{ x=0; }\n P0 ;\n MOV [x],$1 \n".to_string(), "bad-no-row-end.litmus:4:2:"),
        ("bad-instr.litmus", sb.replace("MOV EAX,[y]", "FROB EAX,[y]"), "bad-instr.litmus:10:2:"),
        ("bad-arch.litmus", sb.replace("X86 SB", "Z80 SB"), "bad-arch.litmus:1:1:"),
        ("bad-cond.litmus", sb.replace("exists (0:EAX=0", "exists (0:EAX=/\\"), "bad-cond.litmus:11:"),
        ("bad-empty.litmus", String::new(), "bad-empty.litmus:1:1:"),
        ("bad-binary.litmus", "\u{0}\u{1}\u{7f}\u{fffd}{{{{".to_string(), "bad-binary.litmus:1:"),
        ("bad-thread.litmus", sb.replace(" P1          ;", " Q1          ;"), "bad-thread.litmus:8:16:"),
    ];
    for (f, t, _) in &bad {
        std::fs::write(dir.join(f), t).expect("write");
    }
    let out = litsat().args(["check", "-m", "tso"]).arg(&dir).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stdout:\n{stdout}\nstderr:\n{stderr}");
    // Each good test's answer, as it is when the test runs alone.
    for g in good {
        let alone = litsat().args(["check", "-m", "tso"]).arg(dir.join(format!("{g}.litmus"))).output().expect("runs");
        assert!(alone.status.success(), "{g} alone failed");
        let obs = String::from_utf8_lossy(&alone.stdout)
            .lines()
            .find(|l| l.starts_with("Observation "))
            .map(str::to_string)
            .expect("an Observation line");
        assert!(stdout.lines().any(|l| l == obs), "{g}: `{obs}` missing from the batch's output:\n{stdout}");
    }
    assert_eq!(stdout.lines().filter(|l| l.starts_with("Observation ")).count(), good.len(), "{stdout}");
    for (f, _, want) in &bad {
        let line = stderr
            .lines()
            .find(|l| l.contains(&format!("/{f}:")))
            .unwrap_or_else(|| panic!("{f}: no error in\n{stderr}"));
        assert!(line.contains(want), "{f}: expected `{want}` in `{line}`");
        let loc = location(line).unwrap_or_else(|| panic!("{f}: no file:line:col in `{line}`"));
        assert!(loc.0.ends_with(f), "{f}: `{line}` names another file");
    }
    // Under a size limit, the oversized test gets a located limit message and the rest of
    // the batch (good files and bad) is answered as before.
    let out =
        litsat().args(["check", "-m", "tso", "--max-events", "8", "--timeout", "10"]).arg(&dir).output().expect("runs");
    let limited = String::from_utf8_lossy(&out.stdout);
    let errs = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{errs}");
    assert!(errs.lines().any(|l| l.contains("IRIW+mfence+po.litmus:1:1: error: limit:")), "{errs}");
    assert!(!limited.contains("Observation IRIW+mfence+po"), "{limited}");
    assert_eq!(limited.lines().filter(|l| l.starts_with("Observation ")).count(), good.len() - 1, "{limited}");
    for (f, _, want) in &bad {
        assert!(errs.contains(want), "{f}: expected `{want}` under --max-events too");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad model given by path: the error names the model file (or the included file, with
/// the include site), line and column, and the status is 2.
#[test]
fn batch_with_a_bad_model_is_a_located_usage_error() {
    let dir = temp_dir("badmodel");
    let tso = BUNDLED.iter().find(|(n, _)| *n == "tso.cat").map(|(_, t)| *t).expect("tso");
    let cases: Vec<(&str, String, String)> = vec![
        // A syntax error on line 3.
        ("syntax.cat", "X86 bad\nlet a = po |\nacyclic a | as x\n".to_string(), "syntax.cat:3:".to_string()),
        // Truncated in the middle of a comment.
        ("comment.cat", format!("{}(* never closed", &tso[..200]), "comment.cat:".to_string()),
        // A stray character.
        ("char.cat", tso.replacen("acyclic", "acyclic @", 1), "char.cat:".to_string()),
        // An include that does not exist.
        ("noinc.cat", "X86 x\ninclude \"no-such-file.cat\"\n".to_string(), "noinc.cat:2:1:".to_string()),
    ];
    for (f, t, want) in &cases {
        let p = dir.join(f);
        std::fs::write(&p, t).expect("write");
        let out =
            litsat().args(["check", "-m"]).arg(&p).arg(root().join("litmus/x86/SB.litmus")).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{f}: {stderr}");
        assert!(stderr.contains(want.as_str()), "{f}: expected `{want}` in {stderr}");
        let first = stderr.lines().next().unwrap_or("");
        let (file, line, col) = location(first).unwrap_or_else(|| panic!("{f}: no file:line:col in `{first}`"));
        assert!(in_bounds(t, line, col), "{f}: {line}:{col} outside the file");
        assert!(file.ends_with(f), "{f}: `{first}`");
    }
    // A good model that includes a bad one: the error is in the included file, and says
    // where it was included from.
    std::fs::write(dir.join("inner.cat"), "let x = (po\n").expect("write");
    std::fs::write(dir.join("outer.cat"), "X86 outer\n\ninclude \"inner.cat\"\nacyclic po as sc\n").expect("write");
    let out = litsat()
        .args(["check", "-m"])
        .arg(dir.join("outer.cat"))
        .arg(root().join("litmus/x86/SB.litmus"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // The unclosed `(` is reported where it was opened (#35).
    assert!(stderr.contains("inner.cat:1:9: error: unclosed `(`"), "{stderr}");
    assert!(stderr.contains("included from") && stderr.contains("outer.cat:3:1"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------- the long in-process fuzz loop ----------

/// A million mutants per entry point (litmus parser, cat parser, whole pipeline), each
/// mutated from the previous survivor or a fresh seed: `cargo test --release --test
/// robustness -- --ignored --nocapture`. `LITSAT_FUZZ_N` changes the count.
#[test]
#[ignore]
fn fuzz_loop_long() {
    let n: usize = std::env::var("LITSAT_FUZZ_N").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let prog = load_program("sc", &[]).expect("bundled sc");
    let (mut litmus, shared) = litmus_sources(50);
    litmus.extend(shared);
    let cats: Vec<Vec<u8>> = cat_sources().into_iter().map(|c| c.2).collect();
    let lit: Vec<Vec<u8>> = litmus.into_iter().map(|l| l.1).collect();
    let run_target = |what: &str, seeds: &[Vec<u8>], f: &(dyn Fn(&str, &str) -> Verdict + Sync)| {
        let started = Instant::now();
        let threads = std::thread::available_parallelism().map_or(1, |p| p.get());
        let per = n.div_ceil(threads);
        let per_thread: Vec<(usize, Vec<Case>)> = (0..threads)
            .into_par_iter()
            .map(|t| {
                let mut rng = Rng::new(0xF00D + t as u64);
                let mut accepted = 0;
                let mut bad = Vec::new();
                let mut cur: Vec<u8> = Vec::new();
                for k in 0..per {
                    // Mostly stack mutations on the last input; restart from a seed now and then.
                    if k % 8 == 0 || cur.len() > 16_384 {
                        cur = seeds[rng.below(seeds.len())].clone();
                    }
                    cur = mutate(&cur, &mut rng);
                    let text = String::from_utf8_lossy(&cur).to_string();
                    match f(&format!("fuzz-{t}-{k}"), &text) {
                        Ok(Fate::Accepted) => accepted += 1,
                        Ok(Fate::Rejected) => {}
                        v => bad.push((format!("thread {t} input {k}"), cur.clone(), v)),
                    }
                }
                (accepted, bad)
            })
            .collect();
        let accepted: usize = per_thread.iter().map(|p| p.0).sum();
        let bad: Vec<_> = per_thread.into_iter().flat_map(|p| p.1).collect();
        println!(
            "{what}: {} executions ({accepted} accepted) in {:.1?}, {} failures",
            per * threads,
            started.elapsed(),
            bad.len()
        );
        if !bad.is_empty() {
            report(what, bad, started);
        }
    };
    run_target("fuzz litmus parser", &lit, &|name, text| litmus_parse_only(name, text));
    run_target("fuzz cat parser", &cats, &|name, text| {
        catch_unwind(AssertUnwindSafe(|| match parse_model(name, text) {
            Ok(_) => Fate::Accepted,
            Err(d) => rejected(&d, &[(name, text)]),
        }))
        .map_err(panic_text)
    });
    run_target("fuzz pipeline", &lit, &|name, text| pipeline(name, text, &prog));
}
