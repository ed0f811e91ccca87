//! File-level work shared by the subcommands: expanding inputs and running one test file.

use litsat::cat::ChooseModel;
use litsat::diag::Diag;
use litsat::litmus::parse_test;
use litsat::query::{self, Options, Outcome};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Expands `FILE`, `DIR` (all `.litmus` files below it, sorted) and `@LIST` (one path a
/// line, relative to the list's folder; blanks and `#` comments skipped).
pub fn collect_inputs(args: &[String]) -> Result<Vec<PathBuf>, Diag> {
    let mut out = Vec::new();
    for a in args {
        if let Some(list) = a.strip_prefix('@') {
            let text = std::fs::read_to_string(list).map_err(|e| Diag::file(list, format!("cannot read list: {e}")))?;
            let base = Path::new(list).parent().unwrap_or(Path::new("")).to_path_buf();
            for line in text.lines() {
                let l = line.trim();
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let p = base.join(l);
                if p.is_dir() {
                    walk(&p, &mut out);
                } else {
                    out.push(p);
                }
            }
        } else {
            let p = PathBuf::from(a);
            if p.is_dir() {
                walk(&p, &mut out);
            } else {
                out.push(p);
            }
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                found.push(p);
            }
        }
    }
    found.sort();
    out.extend(found);
}

pub struct FileResult {
    pub path: PathBuf,
    pub outcome: Result<Outcome, Diag>,
    pub seconds: f64,
}

/// Reads, parses and answers one test file.
pub fn check_file(path: &Path, models: &(impl ChooseModel + ?Sized), opts: &Options) -> FileResult {
    let start = Instant::now();
    let name = path.to_string_lossy().to_string();
    let outcome = match std::fs::read(path) {
        Err(e) => Err(Diag::file(&name, format!("cannot read: {e}"))),
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes).to_string();
            parse_test(&name, &text)
                .and_then(|t| models.for_test(&t, &name).and_then(|prog| query::run(t, &name, &text, prog, opts)))
        }
    };
    FileResult { path: path.to_path_buf(), outcome, seconds: start.elapsed().as_secs_f64() }
}

/// What stderr says of a test's loops: herd's warning when executions were cut off by the
/// unrolling bound (naming the loops), and under `--unroll auto` the bound it took.
pub fn loop_note(path: &Path, o: &Outcome) -> Option<String> {
    let at = o.cut_at.iter().cloned().collect::<Vec<_>>().join(", ");
    let p = path.display();
    match (o.looped, o.unroll) {
        (true, None) => Some(format!("Warning: {p}: unrolling limit exceeded at {at}, legal outcomes may be missing")),
        (true, Some(n)) => Some(format!(
            "Warning: {p}: --unroll auto stopped at bound {n} with executions still going past it at {at}; legal outcomes may be missing"
        )),
        (false, Some(n)) => Some(format!("Note: {p}: every execution ends within {n} iterations of each loop")),
        (false, None) => None,
    }
}

/// A diagnostic as people read it: with the source line it points at, when the file (or
/// bundled model) can be read.
pub fn render(d: &Diag) -> String {
    let text = match d.file.strip_prefix("<bundled>/") {
        Some(name) => litsat::cat::load::BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string()),
        None => std::fs::read(&d.file).ok().map(|b| String::from_utf8_lossy(&b).to_string()),
    };
    d.render(text.as_deref())
}
