//! `litsat diff` over the project's corpus: the tests it lists are exactly those whose
//! Observations `litmus/expected.tsv` gives differently under the two models.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn diff(args: &[&str]) -> (Output, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_litsat")).arg("diff").args(args).current_dir(root()).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    (out, text)
}

/// The folders of `litmus/` whose tests have an expectation under both sc and tso.
const DIRS: &[&str] = &["litmus/x86", "litmus/riscv", "litmus/x86_64"];

/// The corpus table for those folders: test path (relative to `litmus/`) and its
/// Observation per model.
fn table() -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let text = std::fs::read_to_string(root().join("litmus/expected.tsv")).expect("litmus/expected.tsv");
    let mut lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<String> = lines.next().expect("header").split('\t').map(str::to_string).collect();
    let rows = lines
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (cols[0].to_string(), cols[1..].iter().map(|c| c.to_string()).collect::<Vec<String>>())
        })
        .filter(|(p, _)| DIRS.iter().any(|d| format!("litmus/{p}").starts_with(&format!("{d}/"))))
        .collect();
    (header[1..].to_vec(), rows)
}

fn column(models: &[String], m: &str) -> usize {
    models.iter().position(|x| x == m).unwrap_or_else(|| panic!("no column {m}"))
}

/// The tests `litsat diff` listed, relative to `litmus/`.
fn listed(text: &str) -> BTreeSet<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("test "))
        .skip(1)
        .take_while(|l| !l.contains(" tests differ"))
        .filter_map(|l| l.split_whitespace().next())
        .map(|p| p.trim_start_matches("litmus/").to_string())
        .collect()
}

fn allows(obs: &str) -> (bool, bool) {
    match obs {
        "Never" => (false, true),
        "Always" => (true, false),
        _ => (true, true),
    }
}

#[test]
fn sc_and_tso_differ_exactly_where_the_table_says() {
    let (models, rows) = table();
    let (sc, tso) = (column(&models, "sc"), column(&models, "tso"));
    let want: BTreeSet<String> = rows.iter().filter(|(_, o)| o[sc] != o[tso]).map(|(p, _)| p.clone()).collect();
    assert!(want.contains("x86/SB.litmus") && !want.contains("x86/MP.litmus"));
    let (out, text) = diff(&[&["-m", "sc", "-m", "tso"], DIRS].concat());
    // They differ: 1, as `diff` says.
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let got = listed(&text);
    assert_eq!(got, want, "\n{text}");
    let summary = format!("{} of {} tests differ", want.len(), rows.len());
    assert!(text.lines().any(|l| l == summary), "expected '{summary}' in\n{text}");
    let sb = text.lines().find(|l| l.starts_with("litmus/x86/SB.litmus")).expect("SB row");
    assert_eq!(sb.split_whitespace().collect::<Vec<_>>(), ["litmus/x86/SB.litmus", "Never", "Sometimes"]);
}

#[test]
fn stronger_holds_one_way_and_fails_the_other_with_counter_examples() {
    let (models, rows) = table();
    let (sc, tso) = (column(&models, "sc"), column(&models, "tso"));
    let (out, text) = diff(&[&["-m", "sc", "-m", "tso", "--stronger"], DIRS].concat());
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Stronger: yes, everything sc allows is allowed by tso"), "{text}");

    // tso allows something sc forbids wherever its Observation admits an outcome sc's does not.
    let want: BTreeSet<String> = rows
        .iter()
        .filter(|(_, o)| {
            let ((p, q), (p2, q2)) = (allows(&o[tso]), allows(&o[sc]));
            (p && !p2) || (q && !q2)
        })
        .map(|(p, _)| p.clone())
        .collect();
    assert!(want.contains("x86/SB.litmus"));
    let (out, text) = diff(&[&["-m", "tso", "-m", "sc", "--stronger"], DIRS].concat());
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("Stronger: no,"), "{text}");
    let got: BTreeSet<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Stronger: no"))
        .skip(1)
        .filter_map(|l| l.trim().split(':').next())
        .map(|p| p.trim_start_matches("litmus/").to_string())
        .collect();
    assert_eq!(got, want, "\n{text}");
    assert!(text.contains("litmus/x86/SB.litmus: tso allows 0:EAX=0 /\\ 1:EAX=0 (Sometimes), sc does not (Never)"));
}

#[test]
fn diff_wants_two_models() {
    let (out, _) = diff(&["-m", "sc", "litmus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly two models"));
}
