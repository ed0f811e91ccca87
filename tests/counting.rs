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
    let opts = Options::new().count_after(Some(count_after));
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

/// BENCHMARKS.md's closed form for `co` T K, worked out by walking the coherence orders
/// (the interleavings of the threads' stores): each order contributes the product over
/// the threads of 1 + the stores after the thread's last one (its load reads its own last
/// store or a later one).
fn co_closed_form(t: usize, k: usize) -> u128 {
    fn walk(left: &mut [usize], after: &mut Vec<usize>, placed: usize, total: usize) -> u128 {
        if placed == total {
            return after.iter().map(|&a| 1 + a as u128).product();
        }
        let mut sum = 0;
        for th in 0..left.len() {
            if left[th] == 0 {
                continue;
            }
            left[th] -= 1;
            // Once a thread's last store is placed, every later store counts for it.
            let mark = after.clone();
            for (u, a) in after.iter_mut().enumerate() {
                if left[u] == 0 && u != th {
                    *a += 1;
                }
            }
            sum += walk(left, after, placed + 1, total);
            *after = mark;
            left[th] += 1;
        }
        sum
    }
    walk(&mut vec![k; t], &mut vec![0; t], 0, t * k)
}

#[test]
fn counts_equal_the_closed_form() {
    assert_eq!((co_closed_form(3, 2), co_closed_form(3, 3)), (762, 16_530), "BENCHMARKS.md's figures");
    for (t, k) in [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)] {
        let o = answer(&generate::co(t, k).unwrap(), "tso", 0);
        assert_eq!(o.pos + o.neg, co_closed_form(t, k), "co-T{t}-K{k}");
    }
}

/// A test with 2^66 executions (66 locations, each written by two threads of one store),
/// past u64: counted exactly, on both sides of a condition that reads one location.
#[test]
fn counts_past_u64_are_exact() {
    let n = 66;
    let threads: Vec<String> = (0..2 * n).map(|p| format!("P{p}")).collect();
    let stores: Vec<String> = (0..2 * n).map(|p| format!("MOV [x{}],${}", p / 2, 1 + p % 2)).collect();
    let init: String = (0..n).map(|i| format!("x{i}=0; ")).collect();
    let text = format!("X86 wide\n{{ {init}}}\n {} ;\n {} ;\nexists (x0=1)\n", threads.join(" | "), stores.join(" | "));
    let g = Generated { name: "wide".into(), text };
    let o = answer(&g, "tso", 0);
    assert_eq!((o.pos, o.neg), (1 << 65, 1 << 65));
    assert!(log(&o).contains("Observation wide Sometimes 36893488147419103232 36893488147419103232"), "{}", log(&o));
}

/// A limit met while counting leaves the states found so far in the log, and says that
/// the counts are incomplete instead of giving a verdict.
#[test]
fn a_timeout_while_counting_keeps_the_states_found() {
    let g = generate::co(4, 3).unwrap();
    let prog = load_program("tso", &[]).expect("bundled model");
    let test = parse_test(&g.name, &g.text).unwrap();
    let timeout = Some(std::time::Duration::from_secs(3));
    let opts = Options::new().count_after(Some(0)).timeout(timeout);
    let o = query::run(test, &g.name, &g.text, &prog, &opts).expect("a partial log, not an error");
    let why = o.incomplete.as_ref().expect("co-T4-K3 is not counted within 3 s");
    assert_eq!(why.kind, litsat::diag::DiagKind::Limit);
    assert!(!o.states.is_empty());
    let text = log(&o);
    assert!(text.contains("Counts incomplete: timeout"), "{text}");
    assert!(!text.contains("Observation"), "{text}");
    assert!(o.clone().complete().is_err());
}

/// So does a limit met while still listing: sb-20 has 2^20 states, one execution each, so
/// it is listed, never counted, and not within a second.
#[test]
fn a_timeout_while_listing_keeps_the_states_listed() {
    let g = generate::sb(20).unwrap();
    let prog = load_program("tso", &[]).expect("bundled model");
    let test = parse_test(&g.name, &g.text).unwrap();
    let opts = Options::new().timeout(Some(std::time::Duration::from_secs(1)));
    let o = query::run(test, &g.name, &g.text, &prog, &opts).expect("a partial log, not an error");
    let why = o.incomplete.as_ref().expect("sb-20 is not listed within 1 s");
    assert_eq!(why.kind, litsat::diag::DiagKind::Limit);
    assert!(!o.states.is_empty() && o.states.len() < 1 << 20, "{} states", o.states.len());
    let text = log(&o);
    assert!(text.contains("Counts incomplete: timeout"), "{text}");
    assert!(!text.contains("Observation"), "{text}");
}
