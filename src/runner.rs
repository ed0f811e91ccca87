//! The corpus regression runner behind `litsat run` and `litsat merge`.

use crate::driver::{check_file, for_each_input, per_input};
use crate::expect::results::{Judgement, judge, parse_result_line};
use crate::expect::{Answer, Expected, compare, match_entries};
use crate::watch::Running;
use litsat::cat::Models;
use litsat::diag::DiagKind;
use litsat::query::Options;
use litsat::report::herd_log;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Answered and agreeing with its expectation.
    Pass,
    /// Answered, and disagreeing.
    Fail,
    /// Answered, with no expectation to compare.
    Done,
    /// Rejected: unreadable, malformed or unsupported.
    Error,
    /// Stopped by `--timeout` or `--max-events`.
    Timeout,
}

/// One test's result: what JSON lines hold, and what the summary counts.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    pub name: String,
    pub path: String,
    pub model: String,
    pub status: Status,
    /// herd's answer, when the test was answered.
    #[serde(flatten)]
    pub answer: Option<Answer>,
    pub time: f64,
    /// The disagreement or the diagnostic.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// Keeps the tests of shard `i` of `n` (1-based), by position in the sorted input.
pub fn shard<T>(items: Vec<T>, i: usize, n: usize) -> Vec<T> {
    items.into_iter().enumerate().filter(|(k, _)| n == 0 || k % n == i.saturating_sub(1)).map(|(_, t)| t).collect()
}

/// Runs every file, in parallel, and returns records in input order. Each test is on
/// `running` while it runs (which moves its progress bar as each ends). Answers carry their states where `expected` is given
/// or `with_states` asks for them (for JSON output). Each test's herd log (empty for a
/// test not answered) goes to `logs` in input order as soon as the tests before it are
/// answered (see [`for_each_input`]).
pub fn run_all(
    files: &[PathBuf],
    models: &Models,
    opts: &Options,
    expected: Option<&[Expected]>,
    with_states: bool,
    running: &Running,
    logs: &mut (dyn FnMut(&str) + Send),
) -> (Vec<Record>, Expectations) {
    let model = models.display_name();
    let per_input = per_input(files, opts);
    let with_states = with_states || expected.is_some();
    let mut records: Vec<Record> = Vec::with_capacity(files.len());
    let answer = |f: &std::path::Path, opts: &Options| {
        let r = running.time(f, || check_file(f, models, opts));
        let path = f.to_string_lossy().to_string();
        let stem = f.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        match r.outcome {
            // A limit met while counting: a timeout, with the states found so far in the log.
            Ok(o) if o.incomplete.is_some() => (
                Record {
                    name: o.test.name.clone(),
                    path,
                    model: model.clone(),
                    status: Status::Timeout,
                    answer: None,
                    time: r.seconds,
                    detail: o.incomplete.as_ref().map(ToString::to_string).unwrap_or_default(),
                },
                herd_log(&o, r.seconds),
            ),
            Ok(o) => (
                Record {
                    name: o.test.name.clone(),
                    path,
                    model: model.clone(),
                    status: Status::Done,
                    answer: Some(if with_states { Answer::of(&o) } else { Answer::stateless(&o) }),
                    time: r.seconds,
                    detail: String::new(),
                },
                herd_log(&o, r.seconds),
            ),
            Err(d) => (
                Record {
                    name: stem,
                    path,
                    model: model.clone(),
                    status: if d.kind == DiagKind::Limit { Status::Timeout } else { Status::Error },
                    answer: None,
                    time: r.seconds,
                    detail: d.to_string(),
                },
                String::new(),
            ),
        }
    };
    for_each_input(files, &per_input, answer, |(rec, log)| {
        logs(&log);
        records.push(rec);
    });
    let mut problems = Vec::new();
    let mut unmatched_count = 0;
    if let Some(entries) = expected {
        let keys: Vec<(String, String)> = records.iter().map(|r| (r.path.clone(), r.name.clone())).collect();
        let (assigned, unmatched, ambiguous) = match_entries(&keys, entries);
        problems = ambiguous;
        unmatched_count = unmatched.len();
        for (rec, a) in records.iter_mut().zip(assigned) {
            let (Some(k), Status::Done) = (a, rec.status) else { continue };
            let Some(a) = &rec.answer else { continue };
            if entries[k].checks_nothing() {
                continue;
            }
            let d = compare(a, &entries[k]);
            if d.is_empty() {
                rec.status = Status::Pass;
            } else {
                rec.status = Status::Fail;
                rec.detail = d.join("; ");
            }
        }
    }
    (records, Expectations { ambiguous: problems, unmatched: unmatched_count })
}

/// Judges every answered test against its own `Result:` line, as `--expect-results` does
/// (see [`crate::expect::results`]): agreement passes, a disagreement judgelitmus forgives
/// passes with the difference in `detail`, any other disagreement fails, and a malformed
/// Result line is an error. A test without a Result line stays answered without
/// expectation (`detail` says so). Records that are not answered are left alone.
pub fn judge_result_lines(records: &mut [Record]) {
    records.par_iter_mut().for_each(|rec| {
        let (Status::Done, Some(a)) = (rec.status, &rec.answer) else { return };
        let parsed = std::fs::read_to_string(&rec.path)
            .map_err(|e| litsat::diag::Diag::file(&rec.path, format!("cannot read: {e}")))
            .and_then(|text| parse_result_line(&rec.path, &text));
        let (status, detail) = match parsed {
            Err(d) => (Status::Error, d.to_string()),
            Ok(None) => (Status::Done, "no Result line".to_string()),
            Ok(Some(r)) => match judge(&r, a) {
                Judgement::Pass => (Status::Pass, String::new()),
                Judgement::Forgiven(m) => (Status::Pass, format!("forgiven ({r}, data race): {m}")),
                Judgement::Fail(m) => (Status::Fail, format!("{r}: {m}")),
            },
        };
        rec.status = status;
        rec.detail = detail;
    });
}

/// What matching expectations to tests found besides per-test results.
#[derive(Clone, Debug, Default)]
pub struct Expectations {
    /// Ambiguous matches: these fail the run.
    pub ambiguous: Vec<String>,
    /// Entries for tests not in this run (normal for a shard or a sub-folder).
    pub unmatched: usize,
}

/// `n` and `word`, plural unless `n` is 1 (`1 test`, `2 tests`).
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") }
}

/// How long a run took, for its summary.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Seconds from the first test's start to the last one's end.
    pub wall: f64,
    /// CPU seconds of the process meanwhile, where the system reports them.
    pub cpu: Option<f64>,
}

/// The closing table: counts by status, the run's times (for a merge of shards, only the
/// tests' own times, summed) and the slowest tests.
pub fn summary(records: &[Record], ex: &Expectations, clock: Option<Clock>) -> String {
    let count = |s: Status| records.iter().filter(|r| r.status == s).count();
    let mut out = format!(
        "Summary: {}: {} passed, {} failed, {} answered without expectation, {}, {}\n",
        plural(records.len(), "test"),
        count(Status::Pass),
        count(Status::Fail),
        count(Status::Done),
        plural(count(Status::Error), "error"),
        plural(count(Status::Timeout), "timeout"),
    );
    for p in &ex.ambiguous {
        out.push_str(&format!("Expectation: {p}\n"));
    }
    if ex.unmatched > 0 {
        out.push_str(&format!("Expectations for tests not in this run: {}\n", ex.unmatched));
    }
    for r in records.iter().filter(|r| matches!(r.status, Status::Fail | Status::Error | Status::Timeout)) {
        let word = match r.status {
            Status::Fail => "FAIL",
            Status::Timeout => "TIMEOUT",
            _ => "ERROR",
        };
        out.push_str(&format!("{word} {} {}\n", r.path, r.detail));
    }
    for r in records.iter().filter(|r| r.status == Status::Pass && !r.detail.is_empty()) {
        out.push_str(&format!("FORGIVEN {} {}\n", r.path, r.detail));
    }
    out.push_str(&times(records, clock));
    let mut slow: Vec<&Record> = records.iter().collect();
    slow.sort_by(|a, b| b.time.total_cmp(&a.time));
    for r in slow.iter().take(5) {
        out.push_str(&format!("Slowest: {:.3} s {}\n", r.time, r.path));
    }
    out
}

/// The summary's `Time:` line. Tests run in parallel, so their times summed are neither
/// the wall time nor the CPU time: each is said by its name.
fn times(records: &[Record], clock: Option<Clock>) -> String {
    let summed: f64 = records.iter().map(|r| r.time).sum();
    match clock {
        Some(Clock { wall, cpu: Some(cpu) }) => format!("Time: {wall:.2} s wall, {cpu:.2} s CPU\n"),
        Some(Clock { wall, cpu: None }) => format!("Time: {wall:.2} s wall, {summed:.2} s summed over tests\n"),
        None => format!("Time: {summed:.2} s summed over tests\n"),
    }
}

/// Whether a run succeeded: nothing failed, errored or timed out, and no expectation was
/// ambiguous.
pub fn success(records: &[Record], ex: &Expectations) -> bool {
    ex.ambiguous.is_empty() && records.iter().all(|r| matches!(r.status, Status::Pass | Status::Done))
}
