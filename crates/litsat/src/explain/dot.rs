//! Execution graphs in Graphviz's dot language, drawn as herd draws them: one column per
//! thread in program order, events labelled `a: Wx=1`, one colour per relation, and the
//! edges that break a check drawn bold.

use super::{Analysis, Edge, EdgeClass, Verdict, describe, highlighted};
use crate::diag::Diag;
use crate::events::{Eid, Kind};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The colour of a relation's edges.
pub fn colour(c: EdgeClass) -> &'static str {
    match c {
        EdgeClass::Po => "black",
        EdgeClass::Rf => "red",
        EdgeClass::Co => "blue",
        EdgeClass::Fr => "darkorange",
        EdgeClass::Fence => "purple",
        EdgeClass::Dep => "darkgreen",
        EdgeClass::Rmw => "brown",
        EdgeClass::Derived => "gray40",
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Inches between thread columns and between rows of one column.
const COLUMN: f64 = 2.6;
const ROW: f64 = 1.2;

/// The graph of an analysis: the witness of an allowed outcome, or the candidate execution
/// of a forbidden one with its violations highlighted.
///
/// As herd does, positions are pinned for `neato` (the graph says `layout=neato`, so plain
/// `dot -Tsvg` lays it out so too): thread k is column k, its events top to bottom in
/// program order, and edges between the same two events are drawn as one multi-coloured
/// edge.
pub fn render(a: &Analysis) -> String {
    let title = match &a.verdict {
        Verdict::Allowed => format!("{} allowed by {}: a witness", a.outcome, a.model),
        Verdict::Impossible => format!("{}: no candidate execution reaches it", a.outcome),
        Verdict::Forbidden { by, .. } => {
            let names: Vec<&str> = by.iter().map(|&k| a.checks[k].0.as_str()).collect();
            format!("{} forbidden by {} ({})", a.outcome, a.model, names.join(", "))
        }
    };
    render_titled(a, &title)
}

/// [`render`] under another title (the graph's second line): an execution stepped to
/// (see [`super::step`]) is no witness.
pub fn render_titled(a: &Analysis, title: &str) -> String {
    let mut s = String::new();
    let mut body = String::new();
    let mut curved = false;
    if let Some(ex) = &a.exec {
        curved = draw(&mut body, a, ex);
    }
    let _ = writeln!(s, "digraph \"{}\" {{", esc(&a.test.name));
    let _ = writeln!(
        s,
        "  graph [layout=neato, splines={}, label=\"Test {}: {}\\n{}\", labelloc=t, fontname=\"Helvetica\", fontsize=14, outputorder=edgesfirst];",
        if curved { "curved" } else { "line" },
        esc(&a.test.name),
        esc(&a.test.cond.to_string()),
        esc(title)
    );
    let _ = writeln!(s, "  node [shape=none, margin=0.05, fontname=\"Helvetica\", fontsize=14];");
    let _ = writeln!(s, "  edge [fontname=\"Helvetica\", fontsize=12, arrowsize=0.8];");
    s.push_str(&body);
    let _ = writeln!(s, "}}");
    s
}

/// Nodes and edges; whether straight lines would hide edges (then the graph is drawn with
/// curves).
fn draw(s: &mut String, a: &Analysis, ex: &super::Concrete) -> bool {
    let ev = &a.ev;
    let e = &ev.events;
    let hl = highlighted(a);
    let mut shown: BTreeSet<Eid> = (0..ev.len())
        .filter(|&i| ex.exists[i] && !ev.is_init(i) && matches!(e[i].kind, Kind::Read | Kind::Write))
        .collect();
    for h in &hl {
        shown.insert(h.from);
        shown.insert(h.to);
    }
    // Positions: (column, row).
    let mut pos: BTreeMap<Eid, (f64, f64)> = BTreeMap::new();
    let label = |i: Eid| format!("{}: {}", ex.names[i], describe(ev, ex, i, false));
    let inits: Vec<Eid> = shown.iter().copied().filter(|&i| ev.is_init(i)).collect();
    let top = if inits.is_empty() { 0.0 } else { ROW * 1.5 };
    if !inits.is_empty() {
        let _ = writeln!(s, "  subgraph cluster_init {{");
        let _ = writeln!(s, "    label=\"Initial state\"; color=gray80; fontname=\"Helvetica\";");
        let _ = writeln!(s, "    init_title [shape=point, style=invis, pos=\"0,{:.2}!\"];", top + 0.45);
        for (k, &i) in inits.iter().enumerate() {
            let p = (k as f64 * COLUMN, top);
            pos.insert(i, p);
            let _ = writeln!(s, "    e{i} [label=\"{}\", pos=\"{:.2},{:.2}!\"];", esc(&label(i)), p.0, p.1);
        }
        let _ = writeln!(s, "  }}");
    }
    for (c, &t) in ev.threads.iter().enumerate() {
        let x = c as f64 * COLUMN;
        let _ = writeln!(s, "  subgraph cluster_P{t} {{");
        let _ = writeln!(s, "    label=\"Thread {t}\"; color=gray80; fontname=\"Helvetica\";");
        let _ = writeln!(s, "    title_P{t} [shape=point, style=invis, pos=\"{x:.2},0.45!\"];");
        for (k, &i) in shown.iter().filter(|&&i| e[i].thread == Some(t)).enumerate() {
            let p = (x, -(k as f64) * ROW);
            pos.insert(i, p);
            let _ = writeln!(s, "    e{i} [label=\"{}\", pos=\"{:.2},{:.2}!\"];", esc(&label(i)), p.0, p.1);
        }
        let _ = writeln!(s, "  }}");
    }
    // The edges drawn, herd's way: po (or the fence) between neighbours, co and fr to the
    // next write, rf from writes other than the initial ones, dependencies, rmw.
    let mut edges: Vec<Edge> = Vec::new();
    let get =
        |i: Eid, j: Eid, c: EdgeClass| ex.base.get(&(i, j)).and_then(|v| v.iter().find(|e| e.class == c)).cloned();
    for &t in &ev.threads {
        let col: Vec<Eid> = shown.iter().copied().filter(|&i| e[i].thread == Some(t)).collect();
        for w in col.windows(2) {
            let link = ex.base.get(&(w[0], w[1])).and_then(|v| {
                v.iter()
                    .find(|e| matches!(e.class, EdgeClass::Fence | EdgeClass::Rmw))
                    .or_else(|| v.iter().find(|e| e.class == EdgeClass::Po))
            });
            edges.extend(link.cloned());
        }
    }
    let is_shown = |i: Eid| shown.contains(&i) && !ev.is_init(i);
    let co_before = |a: Eid, b: Eid| ex.co.contains(&(a, b));
    for &(w, r) in &ex.rf {
        if is_shown(w) && is_shown(r) {
            edges.extend(get(w, r, EdgeClass::Rf));
        }
    }
    for &(w1, w2) in &ex.co {
        let immediate = !ex.co.iter().any(|&(x, w3)| x == w1 && w3 != w2 && co_before(w3, w2));
        if immediate && is_shown(w1) && is_shown(w2) {
            edges.extend(get(w1, w2, EdgeClass::Co));
        }
    }
    for &(r, w) in &ex.fr {
        let first = !ex.fr.iter().any(|&(r2, w2)| r2 == r && co_before(w2, w));
        if first && is_shown(r) && is_shown(w) {
            edges.extend(get(r, w, EdgeClass::Fr));
        }
    }
    for (&(i, j), v) in &ex.base {
        if is_shown(i) && is_shown(j) {
            edges.extend(v.iter().filter(|x| x.class == EdgeClass::Dep || x.class == EdgeClass::Rmw).cloned());
        }
    }
    edges.extend(hl.iter().cloned());
    // One drawn edge per pair of events, in as many colours as relations.
    let mut pairs: BTreeMap<(Eid, Eid), Vec<Edge>> = BTreeMap::new();
    for x in edges {
        let v = pairs.entry((x.from, x.to)).or_default();
        if !v.iter().any(|y| y.label == x.label) {
            v.push(x);
        }
    }
    // Straight lines, as herd draws them, unless two edges would lie on one line: opposite
    // edges between two events, or an edge passing events of its column.
    let skips = |i: Eid, j: Eid| match (pos.get(&i), pos.get(&j)) {
        (Some(p), Some(q)) => (p.0 - q.0).abs() < 1e-6 && (p.1 - q.1).abs() > ROW * 1.5,
        _ => false,
    };
    let curved = pairs.keys().any(|&(i, j)| (i != j && pairs.contains_key(&(j, i))) || skips(i, j));
    let mut labels = Vec::new();
    for (&(i, j), parts) in &pairs {
        let colours: Vec<&str> = parts.iter().map(|x| colour(x.class)).collect();
        let text: Vec<String> =
            parts.iter().map(|x| format!("<font color=\"{}\">{}</font>", colour(x.class), html(&x.label))).collect();
        let mut attrs = vec![format!("color=\"{}\"", colours.join(":"))];
        match (pos.get(&i), pos.get(&j)) {
            (Some(p), Some(q)) if (p.0 - q.0).abs() < 1e-6 => {
                // Down one column: the label is a pinned text node beside the middle of
                // the edge (right of a downward edge, left of an upward one), since neato
                // would set it over the line.
                let chars: usize = parts.iter().map(|x| x.label.chars().count() + 1).sum();
                let w = chars as f64 * 0.09;
                let skip = if skips(i, j) { 0.3 } else { 0.0 };
                let side = if p.1 > q.1 { 1.0 } else { -1.0 };
                let x = p.0 + side * (0.12 + skip + w / 2.0);
                let y = (p.1 + q.1) / 2.0;
                labels.push(format!("  l{i}_{j} [label=<{}>, pos=\"{x:.2},{y:.2}!\", fontsize=12];", text.join(",")));
            }
            _ => {
                // Near the head, so that the labels of crossing edges do not meet in the middle.
                attrs.push(format!("headlabel=<{}>, labeldistance=4, labelangle=-20", text.join(",")));
            }
        }
        if parts.iter().any(|x| hl.contains(x)) {
            attrs.push("penwidth=3.0, style=bold".into());
        }
        let _ = writeln!(s, "  e{i} -> e{j} [{}];", attrs.join(", "));
    }
    for l in labels {
        let _ = writeln!(s, "{l}");
    }
    curved
}

/// A file-name-safe version of a test name: `/` and other awkward characters become `_`.
pub fn safe_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-' | '=' | ',') { c } else { '_' })
        .collect();
    if out.starts_with('.') {
        out.replace_range(0..1, "_");
    }
    if out.is_empty() { "test".to_string() } else { out }
}

/// A name from a test's path (`litmus/x86/SB.litmus` → `litmus_x86_SB`), for tests whose
/// names repeat.
fn path_name(path: &Path) -> String {
    let stem = path.with_extension("");
    let parts: Vec<String> = stem
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().to_string()),
            _ => None,
        })
        .collect();
    safe_name(&parts.join("_"))
}

/// Graph files handed out in this process: file → the test it belongs to.
static CLAIMED: Mutex<BTreeMap<PathBuf, PathBuf>> = Mutex::new(BTreeMap::new());

/// `DIR/NAME.dot` for a test: its name made safe, or, when another test of this run
/// already has that name, one made from its path.
pub fn graph_file(dir: &Path, test_name: &str, test_path: &Path) -> PathBuf {
    let mut claimed = CLAIMED.lock().unwrap_or_else(|e| e.into_inner());
    let me = test_path.to_path_buf();
    let base = path_name(test_path);
    let mut k = 0;
    loop {
        let c = match k {
            0 => safe_name(test_name),
            1 => base.clone(),
            _ => format!("{base}-{k}"),
        };
        let f = dir.join(format!("{c}.dot"));
        match claimed.get(&f) {
            Some(p) if *p != me => k += 1,
            _ => {
                claimed.insert(f.clone(), me);
                return f;
            }
        }
    }
}

/// Writes the analysis's graph to `DIR/NAME.dot` and, when `format` is `svg` or `png`,
/// runs Graphviz's `dot` beside it. Returns the last file written.
pub fn write(a: &Analysis, test_path: &Path, dir: &Path, format: Option<&str>) -> Result<PathBuf, Diag> {
    let file = test_path.to_string_lossy().to_string();
    if let Some(f) = format
        && f != "svg"
        && f != "png"
    {
        return Err(Diag::file(&file, format!("--graph-format: expected svg or png, found '{f}'")));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Diag::file(&dir.to_string_lossy(), format!("cannot create the graph folder: {e}")))?;
    let path = graph_file(dir, &a.test.name, test_path);
    std::fs::write(&path, render(a))
        .map_err(|e| Diag::file(&path.to_string_lossy(), format!("cannot write the graph: {e}")))?;
    let Some(f) = format else {
        return Ok(path);
    };
    let img = path.with_extension(f);
    let shown = path.to_string_lossy().to_string();
    match std::process::Command::new("dot").arg(format!("-T{f}")).arg("-o").arg(&img).arg(&path).output() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Diag::file(
            &shown,
            format!(
                "--graph-format {f}: Graphviz's `dot` is not on PATH (install Graphviz, e.g. `apt-get install graphviz`); the .dot file was written"
            ),
        )),
        Err(e) => Err(Diag::file(&shown, format!("--graph-format {f}: cannot run Graphviz's `dot`: {e}"))),
        Ok(o) if !o.status.success() => Err(Diag::file(
            &shown,
            format!("--graph-format {f}: `dot` failed: {}", String::from_utf8_lossy(&o.stderr).trim()),
        )),
        Ok(_) => Ok(img),
    }
}
