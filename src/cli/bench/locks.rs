//! The benchmark's rows for the `lkmm/paulmck` tests herd did not answer in its 25 s
//! (issue #41; the shared corpus's `expected/unanswered.tsv`): lock-heavy tests with few
//! states and a great many executions each, whose full logs are the counter's work. Each
//! row is checked against what is known without herd: the Observation of the full log
//! against `--fast`'s and against the test's `Result:` line where it has one, and the
//! time against issue #41's 10 s.

use super::{Answer, Status, answer, ms};
use crate::expect::results::{Prediction, parse_result_line};
use litsat::cat::Program;
use litsat::query::Options;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// The suite the rows come from, and the reason `unanswered.tsv` gives for herd's silence.
const SUITE: &str = "lkmm/paulmck/";
const TIMED_OUT: &str = "no answer within";

/// Issue #41's bound on each full log, in seconds of CPU time.
const TARGET: f64 = 10.0;

/// The tests: the suite's rows of `unanswered.tsv` where herd ran out of time (not those
/// it refused), as paths under `corpus`.
fn tests(corpus: &Path) -> Vec<String> {
    let listed = std::fs::read_to_string(corpus.join("expected/unanswered.tsv")).unwrap_or_default();
    let rows = listed.lines().map(|l| l.split('\t').collect::<Vec<_>>());
    rows.filter(|r| r.len() >= 3 && r[0].starts_with(SUITE) && r[2].starts_with(TIMED_OUT))
        .map(|r| r[0].to_string())
        .collect()
}

/// Appends the rows to `out`; false where one is past the target, does not finish within
/// `budget` seconds, or disagrees with `--fast` or its `Result:` line.
pub fn section(out: &mut String, corpus: &Path, prog: &Program, budget: f64) -> bool {
    let tests = tests(corpus);
    let _ = writeln!(out, "\n## LKMM tests herd did not answer in 25 s (`{SUITE}`), full logs\n");
    if tests.is_empty() {
        let _ = writeln!(out, "(no such rows in {}: skipped)", corpus.join("expected/unanswered.tsv").display());
        return true;
    }
    let _ = writeln!(out, "| test | full log | states | executions | Observation | --fast | Result | < {TARGET} s |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    let opts = Options::new().timeout(Some(Duration::from_secs_f64(budget))).variants(prog.variants_with(&[]));
    let mut ok = true;
    for rel in tests {
        let path = corpus.join(&rel);
        let name = path.to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let full: Answer = answer(&name, &text, prog, &opts, 1);
        let fast: Answer = answer(&name, &text, prog, &opts.clone().fast(true), 1);
        let result = parse_result_line(&name, &text).ok().flatten().map(|r| r.prediction);
        let agrees = |p: &Prediction| match p {
            Prediction::Never | Prediction::Sometimes | Prediction::Always => p.to_string() == full.observation,
            _ => true,
        };
        let done = full.status == Status::Done;
        let good =
            done && full.seconds < TARGET && full.observation == fast.observation && result.as_ref().is_none_or(agrees);
        ok &= good;
        let time = if done { ms(full.seconds) } else { format!("{:?}", full.status) };
        let short = rel.rsplit('/').next().unwrap_or(&rel);
        let _ = writeln!(
            out,
            "| `{short}` | {time} | {} | {} | {} | {} | {} | {} |",
            full.states,
            full.executions,
            full.observation,
            fast.observation,
            result.map_or("-".to_string(), |p| p.to_string()),
            if good { "yes" } else { "NO" }
        );
    }
    ok
}
