//! The benchmark's counting rows (issue #15): full logs by listing every execution (one
//! solver call and one blocking clause each) against full logs by counting them (a solver
//! call per state, a projected model count per state), on tests whose executions far
//! outnumber their states, beside herd7's recorded times; and their plot.

use super::chart::{Frame, err, log_log};
use super::{Answer, Status, answer, ms, project_path};
use crate::cli::generate::{self, Generated};
use litsat::cat::load_program;
use litsat::diag::Diag;
use litsat::query::Options;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// herd7's full-log times, recorded by hand on this kind of machine (issues #6, #9 and
/// #15; BENCHMARKS.md): seconds, and whether herd was stopped then (a lower bound).
const HERD: &[(&str, f64, bool)] = &[
    ("co-T2-K3", 2.0, false),
    ("co-T3-K2", 13.0, false),
    ("co-T3-K3", 120.0, true),
    ("co-T4-K2", 120.0, true),
    ("sb-12", 16.0, false),
    ("lkmm 16 processes", 472.97, false),
];

/// One test measured both ways.
pub struct Row {
    pub name: String,
    pub listing: Answer,
    pub counting: Answer,
}

impl Row {
    /// The executions, from whichever method finished (they agree where both did).
    fn executions(&self) -> Option<u128> {
        [&self.counting, &self.listing].into_iter().find(|a| a.status == Status::Done).map(|a| a.executions)
    }
}

/// The tests: the `co` family (executions grow much faster than states), `sb` rings (one
/// execution per state, where counting must not lose) and, when present beside the
/// project, the LKMM 16-process RCU test.
fn tests(quick: bool) -> Result<Vec<(Generated, String)>, Diag> {
    let gen_err = |m: String| Diag::file("litsat bench", m);
    let co: &[(usize, usize)] =
        if quick { &[(2, 2), (3, 1)] } else { &[(2, 3), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2), (4, 3)] };
    let sb: &[usize] = if quick { &[4] } else { &[8, 12, 16] };
    let mut out = Vec::new();
    for &(t, k) in co {
        out.push((generate::co(t, k).map_err(gen_err)?, "tso".to_string()));
    }
    for &n in sb {
        out.push((generate::sb(n).map_err(gen_err)?, "tso".to_string()));
    }
    let scale = project_path("../shared/corpus/lkmm/scale");
    let cfg = project_path("../shared/models/lkmm/linux-kernel.cfg");
    let big = "C-RW-R+RW-R+RW-G+RW-G+RW-G+RW-G+RW-R+RW-R+RW-R+RW-R+RW-G+RW-G+RW-G+RW-G+RW-R+RW-R.litmus";
    if !quick && cfg.is_file() && scale.join(big).is_file() {
        let path = scale.join(big);
        let text = std::fs::read_to_string(&path).map_err(|e| Diag::file(&path.to_string_lossy(), e.to_string()))?;
        out.push((Generated { name: "lkmm 16 processes".into(), text }, cfg.to_string_lossy().to_string()));
    }
    Ok(out)
}

/// Appends the rows to `out`, and returns them; false where the two methods disagree.
pub fn section(out: &mut String, budget: f64, reps: usize, quick: bool) -> Result<(bool, Vec<Row>), Diag> {
    let _ = writeln!(out, "\n## Full logs: listing executions against counting them\n");
    let _ = writeln!(
        out,
        "Listing: one solver call and one blocking clause per execution (`--count-after` past every test). \
         Counting: the default, which lists 2,048 executions and then counts, where executions outnumber \
         states sixteen to one. Both stop after {budget} s. herd7: recorded times (BENCHMARKS.md).\n"
    );
    let _ = writeln!(out, "| test | model | states | executions | listing | counting | listing / counting | herd7 |");
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
    let timeout = Some(Duration::from_secs_f64(budget));
    let listing_opts = Options::new().count_after(Some(u64::MAX)).timeout(timeout);
    let counting_opts = Options::new().timeout(timeout);
    let lkmm = project_path("../shared/models/lkmm");
    let mut ok = true;
    let mut rows = Vec::new();
    for (g, model) in tests(quick)? {
        let prog = load_program(&model, std::slice::from_ref(&lkmm))?;
        let listing = answer(&g.name, &g.text, &prog, &listing_opts, reps);
        let counting = answer(&g.name, &g.text, &prog, &counting_opts, reps);
        let both = listing.status == Status::Done && counting.status == Status::Done;
        let agree = !both
            || (listing.executions, listing.states, &listing.observation)
                == (counting.executions, counting.states, &counting.observation);
        ok &= agree;
        let row = Row { name: g.name.clone(), listing, counting };
        let done = row.counting.status == Status::Done;
        let herd = HERD.iter().find(|h| h.0 == g.name).map_or("-".to_string(), |h| herd_cell(h.1, h.2));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {herd} |",
            row.name,
            Path::new(&model).file_name().map_or(model.clone(), |f| f.to_string_lossy().to_string()),
            if done { row.counting.states.to_string() } else { "-".into() },
            row.executions().map_or("-".into(), |n| n.to_string()) + if agree { "" } else { " (DISAGREE)" },
            cell(&row.listing),
            cell(&row.counting),
            ratio(&row.listing, &row.counting),
        );
        rows.push(row);
    }
    Ok((ok, rows))
}

fn cell(a: &Answer) -> String {
    match &a.status {
        Status::Done => ms(a.seconds),
        Status::Timeout => format!("> {}", ms(a.seconds)),
        Status::Error(e) => format!("error: {e}"),
    }
}

fn herd_cell(seconds: f64, stopped: bool) -> String {
    format!("{}{seconds} s", if stopped { "> " } else { "" })
}

/// How many times faster counting is; a lower bound where listing was stopped.
fn ratio(listing: &Answer, counting: &Answer) -> String {
    match (&listing.status, &counting.status) {
        (Status::Done, Status::Done) => format!("{:.1}", listing.seconds / counting.seconds.max(1e-9)),
        (Status::Timeout, Status::Done) => format!("> {:.0}", listing.seconds / counting.seconds.max(1e-9)),
        _ => "-".into(),
    }
}

/// Where the counting plot goes: beside the main plot.
pub fn plot_path(main: &Path) -> PathBuf {
    main.with_file_name("counting.svg")
}

/// Full-log time against executions, log–log: listing, counting and herd7's recorded
/// times. A run stopped by the budget is a cross at the time it had run (a lower bound).
pub fn plot(path: &Path, rows: &[Row]) -> Result<(), String> {
    use plotters::prelude::*;
    let point = |r: &Row, a: &Answer, done: bool| -> Option<(f64, f64)> {
        let ok = if done { a.status == Status::Done } else { a.status == Status::Timeout };
        ok.then_some(())?;
        Some((r.executions()? as f64, a.seconds.max(1e-6)))
    };
    let herd: Vec<((f64, f64), bool)> = rows
        .iter()
        .filter_map(|r| {
            let h = HERD.iter().find(|h| h.0 == r.name)?;
            Some(((r.executions()? as f64, h.1), h.2))
        })
        .collect();
    let series = |listing: bool, done: bool| -> Vec<(f64, f64)> {
        let mut v: Vec<(f64, f64)> =
            rows.iter().filter_map(|r| point(r, if listing { &r.listing } else { &r.counting }, done)).collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    };
    let all: Vec<(f64, f64)> = [series(true, true), series(true, false), series(false, true), series(false, false)]
        .concat()
        .into_iter()
        .chain(herd.iter().map(|h| h.0))
        .collect();
    let frame = Frame {
        caption: "full logs: time against executions, listing and counting",
        x_desc: "executions per test",
        y_desc: "seconds per test (CPU time)",
        x_pad: (0.5, 2.0),
        x_label: |x| format!("{x:.0e}"),
    };
    log_log(path, &frame, &all, |chart| {
        let (red, blue, black) = (RGBColor(200, 30, 30), RGBColor(30, 90, 200), RGBColor(40, 40, 40));
        for (listing, c, label) in [(true, red, "litsat, listing"), (false, blue, "litsat, counting")] {
            let done = series(listing, true);
            chart
                .draw_series(done.iter().map(|&p| Circle::new(p, 4, c.filled())))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
            let stopped = series(listing, false);
            chart.draw_series(stopped.iter().map(|&p| Cross::new(p, 6, c.stroke_width(2)))).map_err(err)?;
        }
        chart
            .draw_series(herd.iter().filter(|h| !h.1).map(|h| TriangleMarker::new(h.0, 6, black.filled())))
            .map_err(err)?
            .label("herd7 (recorded)")
            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 6, black.filled()));
        chart
            .draw_series(herd.iter().filter(|h| h.1).map(|h| Cross::new(h.0, 6, black.stroke_width(2))))
            .map_err(err)?
            .label("stopped by the budget, or herd7 stopped (lower bounds)")
            .legend(move |(x, y)| Cross::new((x + 10, y), 6, black.stroke_width(2)));
        Ok(())
    })
}
