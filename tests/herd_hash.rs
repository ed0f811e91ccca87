//! herd's `Hash=` lines reproduced: every raw log in the shared corpus
//! (`corpus/expected/logs/*.log`, paired with its `.tsv` for the files) and every herd
//! `.expected` log beside an instruction test, recomputed for each test litsat parses.
//! Every test of an architecture the digest supports must agree (and a test of another
//! architecture that carries its own `Hash=` too); the others are counted apart, and a
//! floor on the number compared keeps an empty run from passing. `HASH_DEBUG=1` prints
//! the parts of each mismatch.

mod common;

use std::collections::HashMap;
use std::path::Path;

/// The `Hash=` of each test of a herd log, by test name, in the log's order (a log may
/// hold two tests of one name, from two files).
fn log_hashes(text: &str) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    let mut name: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Test ") {
            name = rest.split_whitespace().next().map(str::to_string);
        } else if let (Some(h), Some(n)) = (line.strip_prefix("Hash="), &name) {
            out.entry(n.clone()).or_default().push(h.to_string());
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    /// Tests with a herd Hash that litsat parses.
    parsed: usize,
    equal: usize,
    /// No hash computed (a form the digest does not know).
    none: usize,
    /// Parsed, but of an architecture whose instructions the digest does not print.
    unsupported: usize,
    wrong: Vec<String>,
    /// Parsed, with page-table entries in the state, which the digest leaves out.
    page_tables: usize,
}

/// For each raw log, the fewest tests whose hash must agree (its tests litsat parses, as
/// measured when the digest learnt every architecture litsat reads), so that a suite that
/// stops being compared fails. Logs not listed (herd's BPF, MIPS and the AArch64 variants
/// litsat refuses at parse) have no floor.
const FLOORS: &[(&str, usize)] = &[
    ("a64-VMSA.aarch64", 7),
    ("a64-cas.aarch64", 31),
    ("a64-catalogue-mixed.aarch64", 80),
    ("a64-catalogue.aarch64", 80),
    ("a64-ifetch.aarch64", 153),
    ("a64-mixed.aarch64", 20),
    ("a64-readers-guide.aarch64", 46),
    ("campaign-arm.arm", 3264),
    ("catalogue-lisa.sc", 28),
    ("catalogue-lisa.uniproc", 28),
    ("catalogue-x86.sc", 23),
    ("catalogue-x86.x86tso", 23),
    ("catalogue-x86_64.sc", 28),
    ("catalogue-x86_64.x86tso-mixed", 28),
    ("dat3m-aarch64-mixed.aarch64", 625),
    ("dat3m-aarch64.aarch64-2018", 5140),
    ("dat3m-aarch64.aarch64", 2569),
    ("dat3m-aarch64.sc", 5140),
    ("dat3m-c11.c11", 135),
    ("dat3m-c11.rc11", 135),
    ("dat3m-ppc.ppc", 2363),
    ("dat3m-riscv.riscv", 6843),
    ("dat3m-riscv.sc", 6843),
    ("dat3m-x86.sc", 487),
    ("dat3m-x86.x86tso", 487),
    ("instructions-aarch32.herd", 21),
    ("instructions-aarch64-kvm.aarch64", 1),
    ("instructions-aarch64-mixed.aarch64", 19),
    ("instructions-aarch64-mte.aarch64", 2),
    ("instructions-aarch64-self.aarch64", 38),
    ("instructions-aarch64.aarch64", 269),
    ("instructions-arm.arm", 22),
    ("instructions-c.c11", 12),
    ("instructions-ppc.ppc", 17),
    ("instructions-riscv.riscv", 28),
    ("instructions-riscv.sc", 28),
    ("instructions-x86_64.sc", 13),
    ("instructions-x86_64.x86tso-mixed", 13),
    ("lisa-diy.sc", 278),
    ("lisa-diy.uniproc", 278),
    ("lkmm-catalogue.lkmm", 79),
    ("lkmm-paulmck.lkmm", 725),
    ("loops", 4),
];

/// Compares herd's hash of the test at `path` with litsat's.
fn compare(path: &Path, herd: &str, t: &mut Tally) {
    let Ok(bytes) = std::fs::read(path) else { return };
    let text = String::from_utf8_lossy(&bytes);
    let origin = path.to_string_lossy();
    if litsat::Test::parse(&text, &origin).is_err() {
        return;
    }
    let Ok(test) = litsat::litmus::parse_test(&origin, &text) else { return };
    let hash = litsat::litmus::hash::herd_hash(&text, &test);
    if hash.is_none() && !litsat::litmus::hash::supports(&test.arch) {
        t.unsupported += 1;
        return;
    }
    // Page-table entries in the state (`-variant vmsa`): a form the digest leaves out.
    if hash.is_none() && litsat::litmus::hash::page_tables(&text) {
        t.page_tables += 1;
        return;
    }
    t.parsed += 1;
    match hash {
        Some(h) if h == herd => t.equal += 1,
        Some(_) => {
            t.wrong.push(origin.to_string());
            if std::env::var_os("HASH_DEBUG").is_some() {
                let p = litsat::litmus::hash::parts(&text, &test).unwrap_or_default();
                println!("WRONG {origin}\n  INIT {}\n  CODE\n{}  LOCS {}", p[0], p[1], p[2]);
            }
        }
        None => {
            t.none += 1;
            if std::env::var_os("HASH_DEBUG").is_some() {
                println!("NONE {origin}");
            }
        }
    }
}

fn report(name: &str, t: &Tally) {
    let pct = if t.parsed == 0 { 100.0 } else { 100.0 * t.equal as f64 / t.parsed as f64 };
    println!(
        "{name}: {}/{} equal ({pct:.1}%), {} without hash, {} wrong; {} of architectures not printed; {} with page tables, left out",
        t.equal,
        t.parsed,
        t.none,
        t.wrong.len(),
        t.unsupported,
        t.page_tables
    );
    for w in t.wrong.iter().take(3) {
        println!("  wrong: {w}");
    }
}

#[test]
fn hashes_of_the_raw_logs() {
    let Some(shared) = common::shared_or_skip("herd_hash") else { return };
    let corpus = shared.join("corpus");
    let logs = corpus.join("expected/logs");
    let mut files: Vec<_> = std::fs::read_dir(&logs).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    let (mut total, mut bad) = (0, 0);
    let mut seen = Vec::new();
    for log in files.iter().filter(|p| p.extension().is_some_and(|e| e == "log")) {
        let stem = log.file_stem().unwrap().to_string_lossy().to_string();
        let Ok(ltext) = std::fs::read_to_string(log) else { continue };
        let mut hashes = log_hashes(&ltext);
        hashes.values_mut().for_each(|v| v.reverse());
        let mut t = Tally::default();
        for row in tsv_rows(&corpus.join("expected"), &stem) {
            let mut cols = row.split('\t');
            let (Some(file), Some(name)) = (cols.next(), cols.next()) else { continue };
            if let Some(h) = hashes.get_mut(name).and_then(Vec::pop) {
                compare(&corpus.join(file), &h, &mut t);
            }
        }
        report(&stem, &t);
        if let Some((_, floor)) = FLOORS.iter().find(|(s, _)| *s == stem) {
            assert!(t.equal >= *floor, "{stem}: {} hashes equal, fewer than its floor {floor}", t.equal);
            seen.push(stem.clone());
        }
        total += t.equal;
        bad += t.none + t.wrong.len();
    }
    println!("total: {total} equal, {bad} not");
    for (stem, _) in FLOORS {
        assert!(seen.iter().any(|s| s == stem), "no log {stem}.log compared");
    }
    assert!(total >= 36000, "too few hashes compared: {total}");
    assert_eq!(bad, 0, "hashes not reproduced");
}

/// The rows of the corpus TSVs that list the tests of the log `stem`: `stem.tsv`, or,
/// for a log of several suites (`loops.log`), every `stem.*.tsv`.
fn tsv_rows(expected: &Path, stem: &str) -> Vec<String> {
    if let Ok(t) = std::fs::read_to_string(expected.join(format!("{stem}.tsv"))) {
        return t.lines().map(str::to_string).collect();
    }
    let mut tsvs: Vec<_> = std::fs::read_dir(expected)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap_or_default().to_string_lossy();
            n.starts_with(&format!("{stem}.")) && n.ends_with(".tsv")
        })
        .collect();
    tsvs.sort();
    tsvs.iter()
        .flat_map(|p| std::fs::read_to_string(p).unwrap_or_default().lines().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// herd's instruction suites (their folders), each with the fewest `.expected` hashes that
/// must agree (MIPS: litsat reads no MIPS).
const EXPECTED_FLOORS: &[(&str, usize)] = &[
    ("AArch32", 21),
    ("ARM", 22),
    ("C", 14),
    ("PPC", 17),
    ("RISCV", 28),
    ("X86_64", 13),
    ("AArch64", 269),
    ("AArch64.MTE", 2),
    ("AArch64.kvm", 1),
    ("AArch64.mixed", 19),
    ("AArch64.self", 38),
];

#[test]
fn hashes_of_herds_expected_logs() {
    let Some(shared) = common::shared_or_skip("herd_hash") else { return };
    let corpus = shared.join("corpus");
    let mut dirs = Vec::new();
    for top in ["herd-instructions", "herd-aarch64/instructions"] {
        let Ok(rd) = std::fs::read_dir(corpus.join(top)) else { continue };
        dirs.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    dirs.sort();
    let (mut total, mut bad) = (0, 0);
    for dir in dirs {
        let mut t = Tally::default();
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for exp in files.iter().filter(|p| p.to_string_lossy().ends_with(".litmus.expected")) {
            let text = std::fs::read_to_string(exp).unwrap_or_default();
            let Some(h) = text.lines().find_map(|l| l.strip_prefix("Hash=")) else { continue };
            let test = exp.with_extension("");
            compare(&test, h, &mut t);
        }
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        report(&name, &t);
        let floor = EXPECTED_FLOORS.iter().find(|(d, _)| *d == name).map_or(0, |f| f.1);
        assert!(t.equal >= floor, "{name}: {} hashes equal, fewer than its floor {floor}", t.equal);
        total += t.equal;
        bad += t.none + t.wrong.len();
    }
    println!("total: {total} equal, {bad} not");
    assert!(total >= 434, "too few hashes compared: {total}");
    assert_eq!(bad, 0, "hashes not reproduced");
}
