//! The benchmark's rows for `litsat distinguish` (issue #40): each acceptance row's
//! search, its answer checked against what the row expects and its time against the
//! row's target. herd's models and the LKMM come from the shared folder beside the
//! project; without it those rows are skipped, saying so.

use super::{ms, project_path, timed, verdict};
use litsat::Model;
use litsat::diag::Diag;
use litsat::distinguish::{Answer, Search, distinguish};
use std::fmt::Write as _;
use std::path::PathBuf;

/// What a row's search must answer.
enum Expect {
    /// A test of exactly this many events.
    Found(usize),
    /// This many tests, none a renaming of another.
    All(usize),
    /// No test up to this many events (certified where the search asks for it).
    Equal(usize),
}

/// One row: its label, the two models, the search, what it expects and its target.
struct Row {
    label: String,
    a: Model,
    b: Model,
    search: Search,
    expect: Expect,
    target: f64,
}

fn search(arch: &str, max: usize, tune: impl FnOnce(&mut Search)) -> Search {
    let mut s = Search::new(arch);
    s.max_events = max;
    tune(&mut s);
    s
}

fn bundled(name: &str) -> Result<Model, Diag> {
    Model::bundled(name).map_err(|e| e.diag().clone())
}

/// The rows that need only the bundled models.
fn bundled_rows() -> Result<Vec<Row>, Diag> {
    let row = |label: &str, (a, b): (&str, &str), search: Search, expect: Expect, target: f64| -> Result<Row, Diag> {
        Ok(Row { label: label.to_string(), a: bundled(a)?, b: bundled(b)?, search, expect, target })
    };
    let plain = |s: &mut Search| s.kinds = ["R", "W", "MFENCE"].map(String::from).to_vec();
    Ok(vec![
        row("tso vs sc (X86)", ("tso", "sc"), search("X86", 6, |_| {}), Expect::Found(4), 1.0)?,
        row(
            "sc vs tso (X86: R, W, MFENCE), certified",
            ("sc", "tso"),
            search("X86", 8, |s| {
                plain(s);
                s.certify = true;
            }),
            Expect::Equal(8),
            60.0,
        )?,
        row("relaxed vs tso (X86)", ("relaxed", "tso"), search("X86", 6, |_| {}), Expect::Found(3), 1.0)?,
        row("c11 vs rc11 (C)", ("c11", "rc11"), search("C", 6, |_| {}), Expect::Found(4), 5.0)?,
        row("tso vs sc --all 20 (X86)", ("tso", "sc"), search("X86", 6, |s| s.all = 20), Expect::All(20), 10.0)?,
    ])
}

/// herd's RISC-V and Power models against the bundled ones, both ways, and the LKMM
/// against itself without `happens-before` (a copy of its cat and cfg written to `tmp`).
fn shared_rows(shared: &std::path::Path, tmp: &std::path::Path) -> Result<Vec<Row>, Diag> {
    let herd = |f: &str| Model::from_file(shared.join("models/herd").join(f), &[]).map_err(|e| e.diag().clone());
    let mut rows = Vec::new();
    for (file, ours, arch) in [("riscv.cat", "rvwmo", "RISCV"), ("ppc.cat", "power", "PPC")] {
        for (a, b, label) in [(herd(file)?, bundled(ours)?, format!("herd's {file} vs {ours}")), {
            (bundled(ours)?, herd(file)?, format!("{ours} vs herd's {file}"))
        }] {
            rows.push(Row { label, a, b, search: search(arch, 6, |_| {}), expect: Expect::Equal(6), target: 60.0 });
        }
    }
    let lkmm = shared.join("models/lkmm");
    let cat = std::fs::read_to_string(lkmm.join("linux-kernel.cat"))
        .map_err(|e| Diag::file("linux-kernel.cat", e.to_string()))?;
    let cfg = std::fs::read_to_string(lkmm.join("linux-kernel.cfg"))
        .map_err(|e| Diag::file("linux-kernel.cfg", e.to_string()))?;
    let axiom = "acyclic hb as happens-before";
    let write =
        |name: &str, text: String| std::fs::write(tmp.join(name), text).map_err(|e| Diag::file(name, e.to_string()));
    write("no-hb.cat", cat.replace(axiom, ""))?;
    write("no-hb.cfg", cfg.replace("model linux-kernel.cat", "model no-hb.cat"))?;
    let inc = [tmp.to_path_buf(), lkmm.clone()];
    let model = |p: PathBuf| Model::from_file(p, &inc).map_err(|e| e.diag().clone());
    rows.push(Row {
        label: "LKMM without happens-before vs LKMM".into(),
        a: model(tmp.join("no-hb.cfg"))?,
        b: model(lkmm.join("linux-kernel.cfg"))?,
        search: search("LKMM", 6, |_| {}),
        expect: Expect::Found(4),
        target: 30.0,
    });
    Ok(rows)
}

/// Whether `ans` is what the row expects (its proof checked where `certify` asked for
/// one), and the answer in words.
fn judged(ans: &Answer, expect: &Expect, certify: bool) -> (bool, String) {
    let first = ans.found.first().map(|f| format!("{} ({} events)", f.name, f.events));
    match *expect {
        Expect::Found(n) => (ans.found.first().is_some_and(|f| f.events == n), first.unwrap_or("none".into())),
        Expect::All(k) => (ans.found.len() == k, format!("{} tests, no two renamings", ans.found.len())),
        Expect::Equal(n) => {
            let ok = ans.found.is_empty() && ans.complete_up_to == n && (!certify || ans.certified);
            let proof = if ans.certified { ", DRAT-checked" } else { "" };
            (ok, first.unwrap_or(format!("none up to {} events{proof}", ans.complete_up_to)))
        }
    }
}

/// Appends the rows to `out`; false where one misses its answer or its target.
pub fn section(out: &mut String) -> Result<bool, Diag> {
    let _ = writeln!(out, "\n## `litsat distinguish` (issue #40), one run each\n");
    let mut rows = bundled_rows()?;
    let shared = project_path("../shared");
    let tmp = std::env::temp_dir().join(format!("litsat-bench-distinguish-{}", std::process::id()));
    if shared.join("models/herd").is_dir() && shared.join("models/lkmm").is_dir() {
        std::fs::create_dir_all(&tmp).map_err(|e| Diag::file("litsat bench", e.to_string()))?;
        rows.extend(shared_rows(&shared, &tmp)?);
    } else {
        let _ = writeln!(out, "(herd's models or the LKMM not found beside the project: their rows skipped)\n");
    }
    let _ = writeln!(out, "| A vs B | answer | CPU time | target | verdict |\n|---|---|---|---|---|");
    let mut ok = true;
    for r in &rows {
        let (secs, ans) = timed(|| distinguish(&r.a, &r.b, &r.search));
        let (right, said) = judged(&ans?, &r.expect, r.search.certify);
        let met = right && secs < r.target;
        ok &= met;
        let _ = writeln!(out, "| {} | {said} | {} | < {} s | {} |", r.label, ms(secs), r.target, verdict(Some(met)));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(ok)
}
