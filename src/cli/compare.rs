//! `litsat compare`: herd logs of one corpus compared test by test, as herd's `mcompare7`
//! compares them: keyed by test name, every `Hash=` of a name checked against the
//! others (the same name must be the same test), and the answers set side by side.
//! It reads litsat's logs and herd's alike, so a campaign run on both is compared
//! without either tool.

use crate::expect::{Expected, parse_herd_log};
use litsat::diag::Diag;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Two or more logs, as `herd7` or `litsat check` prints them.
    #[arg(required = true, num_args = 2..)]
    pub logs: Vec<PathBuf>,
    /// Compare the States too, not only the Observations.
    #[arg(long)]
    pub states: bool,
    /// Compare the Positive/Negative counts too.
    #[arg(long)]
    pub counts: bool,
    /// Do not check that tests of one name have one `Hash=` (mcompare7's `-nohash`).
    #[arg(long)]
    pub nohash: bool,
}

/// One log's tests by name; a name a log holds twice (two files) is kept per occurrence.
struct Log {
    path: String,
    tests: BTreeMap<(String, usize), Expected>,
}

fn read(path: &PathBuf) -> Result<Log, Diag> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Diag::file(&shown, e.to_string()))?;
    let mut tests = BTreeMap::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for e in parse_herd_log(&text) {
        let k = seen.entry(e.name.clone()).or_default();
        tests.insert((e.name.clone(), *k), e);
        *k += 1;
    }
    if tests.is_empty() {
        return Err(Diag::file(&shown, "no test in this log (no `Test …` … `Observation …` block)"));
    }
    Ok(Log { path: shown, tests })
}

/// The `Hash mismatch` warnings: a name whose hash differs from the first log that gave it
/// one. A test without a hash is not checked, as in mcompare7.
fn hash_mismatches(logs: &[Log]) -> Vec<String> {
    let mut first: BTreeMap<&(String, usize), (&str, &str)> = BTreeMap::new();
    let mut out = Vec::new();
    for log in logs {
        for (key, e) in &log.tests {
            let Some(h) = e.hash.as_deref() else { continue };
            match first.get(key) {
                Some((h0, file)) if *h0 != h => {
                    out.push(format!("Hash mismatch, test {}, files {}<>{}", key.0, file, log.path))
                }
                Some(_) => {}
                None => {
                    first.insert(key, (h, &log.path));
                }
            }
        }
    }
    out
}

/// The answer of one test as compared: the Observation, then what the flags add.
fn cell(e: &Expected, a: &Args) -> String {
    let mut s = e.observation.clone().unwrap_or_else(|| "?".into());
    if a.counts
        && let Some((p, n)) = e.witnesses
    {
        s.push_str(&format!(" {p} {n}"));
    }
    if a.states {
        let states = e.states.as_deref().unwrap_or_default();
        s.push_str(&format!(" {{{}}}", states.join(" | ")));
    }
    s
}

pub fn main(a: Args) -> Result<ExitCode, Diag> {
    let logs = a.logs.iter().map(read).collect::<Result<Vec<Log>, Diag>>()?;
    let warnings = if a.nohash { Vec::new() } else { hash_mismatches(&logs) };
    for w in &warnings {
        eprintln!("Warning: {w}");
    }
    let mut names: Vec<&(String, usize)> = logs.iter().flat_map(|l| l.tests.keys()).collect();
    names.sort();
    names.dedup();
    let (mut agree, mut differ, mut partial) = (0, 0, 0);
    let header: Vec<&str> = logs.iter().map(|l| l.path.as_str()).collect();
    println!("test\t{}", header.join("\t"));
    for key in names {
        let cells: Vec<Option<String>> = logs.iter().map(|l| l.tests.get(key).map(|e| cell(e, &a))).collect();
        let present: Vec<&String> = cells.iter().flatten().collect();
        if present.len() < logs.len() {
            partial += 1;
        }
        if present.windows(2).all(|w| w[0] == w[1]) {
            agree += usize::from(present.len() == logs.len());
            continue;
        }
        differ += 1;
        let row: Vec<&str> = cells.iter().map(|c| c.as_deref().unwrap_or("-")).collect();
        println!("{}\t{}", key.0, row.join("\t"));
    }
    println!(
        "Compared {} logs: {agree} tests agree, {differ} differ, {partial} missing from some log, {} hash mismatches",
        logs.len(),
        warnings.len()
    );
    Ok(if differ > 0 || !warnings.is_empty() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
