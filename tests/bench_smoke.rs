//! `litsat gen` and `litsat bench`: the generated families parse and get the answers
//! derived by hand, and a quick benchmark runs end to end.

use litsat::cat::load_program;
use litsat::litmus::parse_test;
use litsat::query::{self, Options, Outcome};
use litsat_cli::cli::bench;
use litsat_cli::cli::generate::{self, Family};
use std::path::PathBuf;
use std::process::Command;

fn answer(g: &generate::Generated, model: &str, fast: bool) -> Outcome {
    let prog = load_program(model, &[]).expect("bundled model");
    let test = parse_test(&g.name, &g.text).unwrap_or_else(|d| panic!("{} does not parse: {d}\n{}", g.name, g.text));
    let opts = Options::new().fast(fast);
    query::run(test, &g.name, &g.text, &prog, &opts).unwrap_or_else(|d| panic!("{} under {model}: {d}", g.name))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-bench-smoke-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d
}

/// Observation, States and executions worked out by hand for the smallest members.
#[test]
fn small_members_by_hand() {
    // SB of 2 threads: 4 final states; SC forbids only both loads reading 0.
    let sb2 = generate::sb(2).unwrap();
    let o = answer(&sb2, "sc", false);
    assert_eq!((o.observation().word(), o.states.len(), o.pos + o.neg), ("Never", 3, 3));
    let o = answer(&sb2, "tso", false);
    assert_eq!((o.observation().word(), o.states.len(), o.pos + o.neg), ("Sometimes", 4, 4));

    // co 2 1: W x=1 then R on P0, W x=2 then R on P1. Coherence order 1<2 gives x=2 with
    // P0 reading 1 or 2 and P1 reading 2; order 2<1 gives x=1 with P1 reading 2 or 1 and
    // P0 reading 1. Four executions, four states, none with 0:EAX=2 /\ 1:EAX=1.
    let co21 = generate::co(2, 1).unwrap();
    assert!(co21.text.contains("exists (0:EAX=2 /\\ 1:EAX=1 /\\ x=1)"), "{}", co21.text);
    for m in ["sc", "tso", "relaxed"] {
        let o = answer(&co21, m, false);
        assert_eq!((o.observation().word(), o.states.len(), o.pos + o.neg), ("Never", 4, 4), "co-T2-K1 under {m}");
    }
    // co 3 2: the 63 states.
    let o = answer(&generate::co(3, 2).unwrap(), "tso", false);
    assert_eq!((o.observation().word(), o.states.len()), ("Never", 63));

    // IRIW with two readers: 16 combinations of the four loads; SC and TSO forbid the one
    // where the readers disagree, relaxed allows it.
    let iriw2 = generate::iriw(2).unwrap();
    for (m, obs, states) in [("sc", "Never", 15), ("tso", "Never", 15), ("relaxed", "Sometimes", 16)] {
        let o = answer(&iriw2, m, false);
        assert_eq!((o.observation().word(), o.states.len()), (obs, states), "iriw-2 under {m}");
    }

    // MP through one flag (classic MP): flag=1 and data=0 is the one state SC and TSO forbid.
    let mp1 = generate::mp(1).unwrap();
    for (m, obs, states) in [("sc", "Never", 3), ("tso", "Never", 3), ("relaxed", "Sometimes", 4)] {
        let o = answer(&mp1, m, false);
        assert_eq!((o.observation().word(), o.states.len()), (obs, states), "mp-1 under {m}");
    }
}

/// Every small member of every family: full logs and --fast agree with each other and
/// with the family's documented Observation.
#[test]
fn families_match_expectations() {
    for (family, plan) in bench::family_plan(true) {
        for params in plan {
            let g = generate::generate(family, &params).unwrap();
            for m in ["sc", "tso", "relaxed"] {
                let want = generate::expected(family, m).expect("documented");
                let full = answer(&g, m, false);
                let fast = answer(&g, m, true);
                assert_eq!(full.observation().word(), want, "{} under {m}", g.name);
                assert_eq!(fast.observation().word(), want, "{} under {m} --fast", g.name);
            }
        }
    }
    assert!(generate::generate(Family::Sb, &[1]).is_err());
    assert!(generate::generate(Family::Co, &[2]).is_err());
}

/// The CLI writes files that `litsat check` reads.
#[test]
fn gen_cli_writes_checkable_files() {
    let dir = tmp("gen");
    let bin = env!("CARGO_BIN_EXE_litsat");
    for args in [&["sb", "2..3"][..], &["co", "2", "1..2"], &["iriw", "2"], &["mp", "2"]] {
        let out = Command::new(bin).arg("gen").args(args).arg("-o").arg(&dir).output().expect("litsat gen runs");
        assert!(out.status.success(), "litsat gen {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    for f in ["sb-2", "sb-3", "co-T2-K1", "co-T2-K2", "iriw-2", "mp-2"] {
        assert!(dir.join(format!("{f}.litmus")).is_file(), "{f}.litmus written");
    }
    let out = Command::new(bin).args(["check", "-m", "sc"]).arg(&dir).output().expect("litsat check runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    for f in ["sb-2", "sb-3", "co-T2-K1", "co-T2-K2", "iriw-2", "mp-2"] {
        assert!(text.contains(&format!("Observation {f} Never ")), "{f} under sc:\n{text}");
    }
    let out = Command::new(bin).args(["gen", "sb", "2"]).output().expect("litsat gen runs");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("X86 sb-2\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `litsat bench --quick`: every figure printed, every answer right, a plot written.
#[test]
fn bench_quick_runs() {
    let dir = tmp("bench");
    let svg = dir.join("plot.svg");
    let args = bench::Args {
        corpus: Vec::new(),
        model: "tso".to_string(),
        shared: false,
        fast: false,
        quick: true,
        svg: svg.clone(),
        no_svg: false,
        reps: 2,
        budget: 5.0,
        jobs: Some(2),
        only: None,
    };
    let (report, ok) = bench::run(&args).expect("bench runs");
    assert!(ok, "some answer was wrong:\n{report}");
    for needle in
        ["Baseline: sb-2", "## Corpus", "tests/s", "CNF per test", "## Family co", "## Family mp", "## Targets"]
    {
        assert!(report.contains(needle), "'{needle}' missing from:\n{report}");
    }
    let plot = std::fs::read_to_string(&svg).expect("plot written");
    assert!(plot.starts_with("<svg") && plot.contains("sb --fast"), "not the plot: {}", &plot[..plot.len().min(200)]);
    let _ = std::fs::remove_dir_all(&dir);
}
