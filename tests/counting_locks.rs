//! Counting against listing on lock-heavy LKMM tests (issue #41): the counter's
//! per-node simplification (auxiliaries of one sign set at every node, components
//! without projected variables decided by plain DPLL) must give the listed logs, states
//! and counts alike, where the executions are many orders of lock acquisitions. The
//! tests are those of the shared `lkmm/paulmck` suite that herd answered and that take a
//! lock or exchange a value (`spin_lock`, `xchg`, `cmpxchg`, …); skipped (saying so)
//! without `../shared`.

mod common;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, load_model};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use litsat_cli::expect::parse_tsv;
use rayon::prelude::*;
use std::time::Duration;

/// The primitives whose tests are compared.
const LOCKING: [&str; 4] = ["spin_lock", "spin_trylock", "xchg", "cmpxchg"];

/// How many such tests both ways must answer within the limit, and agree on: all 358
/// did when this was written.
const FLOOR: usize = 358;

/// What the log says, but the time.
fn log(o: &litsat::query::Outcome) -> String {
    let text = litsat::report::herd_log(o, 0.0);
    text.lines().filter(|l| !l.starts_with("Time")).collect::<Vec<_>>().join("\n")
}

#[test]
fn counted_lock_tests_give_the_listed_logs() {
    let Some(sh) = shared_or_skip("counting against listing on the LKMM lock tests") else { return };
    let corpus = sh.join("corpus");
    let conf = Some(sh.join("models/lkmm/linux-kernel.cfg").to_string_lossy().to_string());
    let prog = load_model(&ModelSpec { conf, ..ModelSpec::default() }, &[sh.join("models/lkmm")]).expect("cfg loads");
    let text = std::fs::read_to_string(corpus.join("expected/lkmm-paulmck.lkmm.tsv")).expect("tsv");
    let tests: Vec<_> = parse_tsv(&text)
        .into_iter()
        .map(|e| corpus.join(&e.path))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| LOCKING.iter().any(|w| t.contains(w))))
        .collect();
    let limit = Some(Duration::from_secs(10));
    let results: Vec<Result<bool, String>> = tests
        .par_iter()
        .map(|path| {
            let listed = check_file(path, &prog, &Options::new().count_after(Some(u64::MAX)).timeout(limit));
            let counted = check_file(path, &prog, &Options::new().count_after(Some(0)).timeout(limit));
            match (listed.outcome, counted.outcome) {
                (Ok(l), Ok(c)) if log(&l) == log(&c) => Ok(true),
                (Ok(l), Ok(c)) => Err(format!("{}:\nlisted:\n{}\ncounted:\n{}", path.display(), log(&l), log(&c))),
                // Past the limit either way: not compared.
                _ => Ok(false),
            }
        })
        .collect();
    let compared = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!("{compared} of {} lock tests compared, {} differ", tests.len(), bad.len());
    assert!(
        bad.is_empty(),
        "counting differs from listing:\n{}",
        bad.iter().take(5).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    assert!(compared >= FLOOR, "only {compared} lock tests compared (floor {FLOOR})");
}
