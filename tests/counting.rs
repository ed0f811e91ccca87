//! Full logs by counting (issue #15) against listing, the oracle: the same states,
//! counts, flags and loops, on generated families where the executions far outnumber
//! their states. The shared corpora are compared the same way in `shared_corpus.rs`.

use litsat::cat::load_program;
use litsat::litmus::parse_test;
use litsat::query::{self, Options, Outcome};
use litsat_cli::cli::generate::{self, Generated};

fn answer(g: &Generated, model: &str, count_after: u64) -> Outcome {
    let prog = load_program(model, &[]).expect("bundled model");
    let test = parse_test(&g.name, &g.text).unwrap_or_else(|d| panic!("{} does not parse: {d}", g.name));
    let opts = Options { count_after: Some(count_after), ..Options::default() };
    query::run(test, &g.name, &g.text, &prog, &opts).unwrap_or_else(|d| panic!("{} under {model}: {d}", g.name))
}

/// What the log says of an outcome, but the time.
fn log(o: &Outcome) -> String {
    let text = litsat::report::herd_log(o, 0.0);
    text.lines().filter(|l| !l.starts_with("Time")).collect::<Vec<_>>().join("\n")
}

#[test]
fn counting_gives_the_listed_logs() {
    let members = [generate::co(2, 3), generate::co(3, 1), generate::co(3, 2), generate::sb(4), generate::iriw(2)];
    for g in members.iter().map(|g| g.as_ref().unwrap()) {
        for model in ["sc", "tso", "relaxed"] {
            let listed = answer(g, model, u64::MAX);
            let counted = answer(g, model, 0);
            assert_eq!(log(&counted), log(&listed), "{} under {model}", g.name);
        }
    }
}

#[test]
fn counts_equal_the_closed_form() {
    // BENCHMARKS.md's closed form: co-T3-K2 has 762 executions and co-T3-K3 16,530.
    for (t, k, executions) in [(3, 2, 762), (3, 3, 16_530)] {
        let o = answer(&generate::co(t, k).unwrap(), "tso", 0);
        assert_eq!(o.pos + o.neg, executions, "co-T{t}-K{k}");
    }
}
