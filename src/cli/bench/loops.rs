//! The benchmark's loop rows: one compare-and-exchange retry loop (`litmus/c11`) under
//! the bundled c11 at growing unrolling bounds and with `--unroll auto`, to show what each
//! bound costs and where `auto` stops.

use super::{median, ms, project_path, timed};
use litsat::cat::load_program;
use litsat::diag::Diag;
use litsat::litmus::parse_test;
use litsat::query::{self, Options};
use std::fmt::Write as _;

/// The test the rows measure.
const TEST: &str = "litmus/c11/CAS-retry-inc.litmus";

/// Appends the loop rows to `out`; false if an answer is wrong (the retry loop never
/// loses an update, whatever the bound).
pub fn section(out: &mut String, reps: usize) -> Result<bool, Diag> {
    let path = project_path(TEST);
    let name = path.to_string_lossy().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| Diag::file(&name, format!("cannot read: {e}")))?;
    let prog = load_program("c11", &[])?;
    let _ = writeln!(out, "\n## Loops under c11: a compare-and-exchange retry loop ({TEST})\n");
    let _ = writeln!(out, "| --unroll | full logs | executions | Observation | Loop | bound |");
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    let mut ok = true;
    for (label, unroll, auto) in
        [("2", Some(2), false), ("4", Some(4), false), ("8", Some(8), false), ("auto", None, true)]
    {
        let opts = Options::new().unroll(unroll).auto_unroll(auto);
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..reps.max(1) {
            let (s, r) =
                timed(|| parse_test(&name, &text).and_then(|t| query::run(t, &name, &text, &prog, &opts)?.complete()));
            times.push(s);
            last = Some(r);
        }
        let o = last.expect("one repetition")?;
        ok &= o.observation() == litsat::Observation::Never;
        let bound = o.unroll.or(unroll).map_or("-".to_string(), |b| b.to_string());
        let _ = writeln!(
            out,
            "| {label} | {} | {} | {} | {} | {bound} |",
            ms(median(&mut times)),
            o.pos + o.neg,
            o.observation(),
            if o.looped { "yes" } else { "no" }
        );
    }
    Ok(ok)
}
