//! The benchmark's RCU rows (issue #41): the kernel's `C-RW-R+RW-G+…` ring from
//! `litsat gen rcu`, 10 to 19 processes in two orders of its threads, full logs under
//! the Linux-kernel model. Each row is checked against what is known without herd: the
//! Observation against the RCU guarantee (the test's `Result:`), and the States against
//! their closed form (2^N, less the cycle where it is forbidden; see `generate.rs`).

use super::{Answer, Status, answer, ms};
use crate::cli::generate::{rcu_forbidden, rcu_pattern};
use litsat::cat::Program;
use litsat::diag::Diag;
use litsat::query::Options;
use std::fmt::Write as _;
use std::time::Duration;

/// The orders measured for N processes with ⌊N/2⌋ grace periods: spread evenly (as
/// `rcu N G` writes it), and grouped, every grace period first.
fn orders(n: usize) -> Vec<String> {
    let g = n / 2;
    let spread: String = (0..n).map(|i| if (i + 1) * g / n > i * g / n { 'G' } else { 'R' }).collect();
    let grouped = "G".repeat(g) + &"R".repeat(n - g);
    vec![spread, grouped]
}

/// Appends the rows to `out`; false where a row disagrees with the guarantee or the
/// closed form, or does not finish within `budget` seconds.
pub fn section(out: &mut String, prog: &Program, budget: f64) -> Result<bool, Diag> {
    let _ = writeln!(out, "\n## The kernel's RCU ring under the LKMM, full logs (`litsat gen rcu`)\n");
    let _ =
        writeln!(out, "| processes | order | full log | states | closed form | executions | Observation | Result |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    let opts = Options::new().timeout(Some(Duration::from_secs_f64(budget)));
    let mut ok = true;
    for n in 10..=19 {
        for order in orders(n) {
            let g = rcu_pattern(&order).map_err(|m| Diag::file("litsat bench", m))?;
            let a: Answer = answer(&g.name, &g.text, prog, &opts, 1);
            let forbidden = rcu_forbidden(&order);
            let closed = (1usize << n) - usize::from(forbidden);
            let result = if forbidden { "Never" } else { "Sometimes" };
            let good = a.status == Status::Done && a.states == closed && a.observation == result;
            ok &= good;
            let time = if a.status == Status::Done { ms(a.seconds) } else { format!("{:?}", a.status) };
            let _ = writeln!(
                out,
                "| {n} | {order} | {time} | {} | {closed} | {} | {} | {result}{} |",
                a.states,
                a.executions,
                a.observation,
                if good { "" } else { " (MISMATCH)" }
            );
        }
    }
    Ok(ok)
}
