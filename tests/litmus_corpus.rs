//! The project's own corpus: every test in `litmus/` against the Observation
//! `litmus/expected.tsv` gives under each bundled model.

use litsat::cat::load_program;
use litsat::query::Options;
use litsat_cli::driver::check_file;
use std::path::Path;

#[test]
fn expected_observations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("litmus");
    let table = std::fs::read_to_string(root.join("expected.tsv")).expect("litmus/expected.tsv");
    let mut lines = table.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let models: Vec<_> =
        header[1..].iter().map(|m| (m.to_string(), load_program(m, &[]).expect("bundled model"))).collect();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        let path = root.join(cols[0]);
        for (k, (name, prog)) in models.iter().enumerate() {
            let Some(want) = cols.get(k + 1).filter(|w| !w.is_empty() && **w != "-") else {
                continue;
            };
            let r = check_file(&path, prog, &Options::default());
            checked += 1;
            match r.outcome {
                Ok(o) if o.observation().word() == *want => {}
                Ok(o) => {
                    failures.push(format!("{} under {name}: {} (expected {want})", cols[0], o.observation().word()))
                }
                Err(d) => failures.push(format!("{} under {name}: error {d}", cols[0])),
            }
        }
    }
    println!("litmus/: {checked} observations checked, {} wrong", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 200, "too few expectations checked: {checked}");
}
