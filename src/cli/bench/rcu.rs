//! The benchmark's RCU rows (issue #41): the kernel's `C-RW-R+RW-G+…` ring from
//! `litsat gen rcu`, 10 to 19 processes in two orders of its threads (and the kernel's
//! own order where herd's time for it is known), full logs under the Linux-kernel model.
//! Each row is checked against what is known without herd: the Observation against the
//! RCU guarantee (the test's `Result:`), and the States against their closed form (2^N,
//! less the cycle where it is forbidden; see `generate.rs`). The plot sets the full-log
//! times beside herd's recorded ones.

use super::chart::{Frame, err, lin_log};
use super::{Answer, Status, answer, ms};
use crate::cli::generate::{rcu_forbidden, rcu_pattern};
use litsat::cat::Program;
use litsat::diag::Diag;
use litsat::query::Options;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// herd7's recorded full-log times for the kernel's own orders of the ring: the 10- and
/// 16-process tests of `../shared/corpus/lkmm/scale` (their `Time` lines in
/// `expected/logs/lkmm-scale.lkmm.log.gz`), and the 19-process test of the kernel's
/// `Documentation/litmus-tests.txt` ("2 hours and 40 minutes", a wall-clock time).
const HERD: [(&str, f64, &str); 3] = [
    ("RRGGGGRRRR", 2.68, "shared log"),
    ("RRGGGGRRRRGGGGRR", 472.97, "shared log"),
    ("RRGGGGRRRRRRGGGGRRR", 9600.0, "kernel documentation"),
];

/// One measured ring: its order of `RW-R`/`RW-G` threads and litsat's answer.
pub struct Row {
    pub order: String,
    pub kind: Order,
    pub answer: Answer,
}

/// How a row's threads are ordered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// ⌊N/2⌋ grace periods spread evenly, as `rcu N G` writes them.
    Spread,
    /// Every grace period first.
    Grouped,
    /// The kernel's own test of that size, which herd's time is for.
    Kernel,
}

impl Order {
    fn name(self) -> &'static str {
        match self {
            Order::Spread => "spread",
            Order::Grouped => "grouped",
            Order::Kernel => "the kernel's",
        }
    }
}

/// The orders measured for N processes.
fn orders(n: usize) -> Vec<(String, Order)> {
    let g = n / 2;
    let spread: String = (0..n).map(|i| if (i + 1) * g / n > i * g / n { 'G' } else { 'R' }).collect();
    let grouped = "G".repeat(g) + &"R".repeat(n - g);
    let mut v = vec![(spread, Order::Spread), (grouped, Order::Grouped)];
    v.extend(HERD.iter().filter(|h| h.0.len() == n).map(|h| (h.0.to_string(), Order::Kernel)));
    v
}

/// Appends the rows to `out` and returns them; the flag is false where a row disagrees
/// with the guarantee or the closed form, or does not finish within `budget` seconds.
pub fn section(out: &mut String, prog: &Program, budget: f64) -> Result<(bool, Vec<Row>), Diag> {
    let _ = writeln!(out, "\n## The kernel's RCU ring under the LKMM, full logs (`litsat gen rcu`)\n");
    let _ = writeln!(
        out,
        "| processes | order | full log | states | closed form | executions | Observation | Result | herd7 |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    let opts = Options::new().timeout(Some(Duration::from_secs_f64(budget)));
    let mut ok = true;
    let mut rows = Vec::new();
    for n in 10..=19 {
        for (order, kind) in orders(n) {
            let g = rcu_pattern(&order).map_err(|m| Diag::file("litsat bench", m))?;
            let a: Answer = answer(&g.name, &g.text, prog, &opts, 1);
            let forbidden = rcu_forbidden(&order);
            let closed = (1usize << n) - usize::from(forbidden);
            let result = if forbidden { "Never" } else { "Sometimes" };
            let good = a.status == Status::Done && a.states == closed && a.observation == result;
            ok &= good;
            let time = if a.status == Status::Done { ms(a.seconds) } else { format!("{:?}", a.status) };
            let herd = HERD.iter().find(|h| h.0 == order).map_or("-".into(), |h| format!("{} s ({})", h.1, h.2));
            let _ = writeln!(
                out,
                "| {n} | {order} | {time} | {} | {closed} | {} | {} | {result}{} | {herd} |",
                a.states,
                a.executions,
                a.observation,
                if good { "" } else { " (MISMATCH)" }
            );
            rows.push(Row { order, kind, answer: a });
        }
    }
    Ok((ok, rows))
}

/// Where the RCU plot goes: beside the main plot.
pub fn plot_path(main: &Path) -> PathBuf {
    main.with_file_name("rcu.svg")
}

/// Full-log time against processes, the y axis logarithmic: litsat's rows by order, a
/// cross where the budget stopped one (a lower bound), and herd7's recorded times.
pub fn plot(path: &Path, rows: &[Row]) -> Result<(), String> {
    use plotters::prelude::*;
    let point = |r: &Row| (r.order.len() as f64, r.answer.seconds.max(1e-6));
    let herd: Vec<(f64, f64)> = HERD.iter().map(|h| (h.0.len() as f64, h.1)).collect();
    let all: Vec<(f64, f64)> = rows.iter().map(point).chain(herd.iter().copied()).collect();
    let frame = Frame {
        caption: "the kernel's RCU ring under the LKMM: full-log time against processes",
        x_desc: "processes",
        y_desc: "seconds per test (CPU time; herd's 19-process time is wall-clock)",
        x_pad: (0.5, 0.5),
        x_label: |x| format!("{x:.0}"),
    };
    lin_log(path, &frame, &all, |chart| {
        let colours = [RGBColor(200, 30, 30), RGBColor(30, 90, 200), RGBColor(20, 140, 60)];
        for (kind, c) in [Order::Spread, Order::Grouped, Order::Kernel].into_iter().zip(colours) {
            let done: Vec<(f64, f64)> =
                rows.iter().filter(|r| r.kind == kind && r.answer.status == Status::Done).map(point).collect();
            let stopped = rows.iter().filter(|r| r.kind == kind && r.answer.status != Status::Done).map(point);
            chart
                .draw_series(done.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(err)?
                .label(format!("litsat, {} order", kind.name()))
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
            chart.draw_series(LineSeries::new(done, c.stroke_width(1))).map_err(err)?;
            chart.draw_series(stopped.map(|p| Cross::new(p, 6, c.stroke_width(2)))).map_err(err)?;
        }
        let black = RGBColor(40, 40, 40);
        chart
            .draw_series(herd.iter().map(|&p| TriangleMarker::new(p, 7, black.filled())))
            .map_err(err)?
            .label("herd7 (recorded), the kernel's order")
            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 7, black.filled()));
        Ok(())
    })
}
