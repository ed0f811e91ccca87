//! The C front end on the kernel's litmus tests: every final state that sequential
//! consistency allows is one that herd7 lists under the (weaker) LKMM, for the tests
//! without locks or RCU (whose semantics SC does not know), and every test of the
//! catalogue parses and lowers with the LKMM's macro file.

mod common;

use common::shared_or_skip;
use litsat::cat::{Program, load_program};
use litsat::litmus::parse_test;
use litsat::query::{Options, run};
use litsat::report::state_line;
use litsat_cli::expect::normalise_state;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `prog` with the kernel's macros, and the events of the kernel's `linux-kernel.cfg`
/// (its variant `lkmmv2`).
fn with_macros(mut prog: Program, def: &Path) -> Program {
    let text = std::fs::read_to_string(def).expect("def file");
    prog.macros = Some(litsat::cat::MacroSource { path: def.to_string_lossy().to_string(), text: text.into() });
    prog.variants.push("lkmmv2".into());
    prog
}

/// herd's states per test path, from a corpus TSV.
fn herd_states(tsv: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(tsv).expect("tsv");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 7).then(|| (f[0].to_string(), f[6].split(" | ").map(str::to_string).collect()))
        })
        .collect()
}

#[test]
fn sc_states_are_lkmm_states_on_the_catalogue() {
    let Some(sh) = shared_or_skip("the kernel's catalogue under SC") else { return };
    let prog = with_macros(load_program("sc", &[]).expect("sc"), &sh.join("models/lkmm/linux-kernel.def"));
    let herd = herd_states(&sh.join("corpus/expected/lkmm-catalogue.lkmm.tsv"));
    let (mut checked, mut lowered) = (0, 0);
    let mut failures = Vec::new();
    for (path, states) in &herd {
        let file = sh.join("corpus").join(path);
        let text = std::fs::read_to_string(&file).expect("test");
        let name = file.to_string_lossy().to_string();
        let out = parse_test(&name, &text).and_then(|t| run(t, &name, &text, &prog, &Options::default()));
        let beyond_sc = ["spin_", "rcu", "srcu"].iter().any(|w| text.contains(w));
        match out {
            Ok(_) if beyond_sc => lowered += 1,
            Ok(o) => {
                let mine: BTreeSet<String> = o.states.iter().map(|s| normalise_state(&state_line(s))).collect();
                let extra: Vec<&String> = mine.difference(states).collect();
                if !extra.is_empty() || mine.is_empty() {
                    failures.push(format!("{path}: states not in herd's LKMM answer: {extra:?}"));
                }
                checked += 1;
            }
            Err(d) => failures.push(format!("{path}: {d}")),
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} of {} catalogue tests failed", failures.len(), herd.len());
    assert_eq!(checked + lowered, herd.len(), "every catalogue test runs");
    assert!(checked >= 40, "only {checked} tests compared with herd's states");
}

/// The tests herd refused for unknown macros get a located error naming the macro.
#[test]
fn unknown_macros_are_named() {
    let Some(sh) = shared_or_skip("the tests herd refused for unknown macros") else { return };
    let spec = litsat::cat::ModelSpec {
        conf: Some(sh.join("models/lkmm/linux-kernel.cfg").to_string_lossy().to_string()),
        ..Default::default()
    };
    let prog = litsat::cat::load_model(&spec, &[sh.join("models/lkmm")]).expect("lkmm loads");
    let listed = std::fs::read_to_string(sh.join("corpus/expected/unanswered.tsv")).expect("unanswered.tsv");
    let mut named = 0;
    for line in listed.lines().filter(|l| l.contains("Unknown macro")) {
        let path = line.split('\t').next().unwrap_or_default();
        let mac = line.rsplit("Unknown macro ").next().unwrap_or_default().split_whitespace().next().unwrap_or("");
        let file = sh.join("corpus").join(path);
        let text = std::fs::read_to_string(&file).expect("test");
        let name = file.to_string_lossy().to_string();
        let err = parse_test(&name, &text)
            .and_then(|t| run(t, &name, &text, &prog, &Options::default()))
            .expect_err("herd refuses this test");
        assert!(err.message.contains(&format!("`{mac}`")), "{path}: {err}");
        assert_eq!(err.file, name, "{path}: the error is located in the test");
        let (line_no, _) = (err.line, err.col);
        assert!(text.lines().nth(line_no - 1).is_some_and(|l| l.contains(mac)), "{path}: line {line_no}");
        named += 1;
    }
    assert!(named >= 6, "only {named} unknown-macro tests");
}

const SPIN: &str = "C spin
{}
P0(int *x, int *f) { *x = 1; *f = 1; }
P1(int *x, int *f) {
  int r0 = *f;
  while (r0 == 0) { r0 = *f; }
  int r1 = *x;
}
exists (1:r1=0)
";

/// A C `while` is entered at most `--unroll` times (herd's `-unroll`, default 2): under
/// SC the spin ends after 1 to N+1 reads of the flag, each time seeing the data; the path
/// that reads 0 every time is cut off and only noted (herd's `Loop No`).
#[test]
fn while_loops_unroll_as_herd_does() {
    let prog = load_program("sc", &[]).expect("sc");
    for (unroll, executions) in [(None, 3), (Some(0), 1), (Some(1), 2), (Some(4), 5)] {
        let opts = Options::new().unroll(unroll);
        let o = parse_test("spin.litmus", SPIN).and_then(|t| run(t, "spin.litmus", SPIN, &prog, &opts)).expect("runs");
        assert_eq!((o.pos, o.neg, o.looped), (0, executions, true), "unroll {unroll:?}");
        let states: Vec<String> = o.states.iter().map(state_line).collect();
        assert_eq!(states, vec!["1:r1=1;".to_string()]);
        let log = litsat::report::herd_log(&o, 0.0);
        assert!(log.contains("\nLoop No\n"), "{log}");
    }
}

/// A loop whose condition fails in time is never cut: no `Loop` prefix.
#[test]
fn a_loop_that_ends_within_the_bound_is_not_cut() {
    let text = SPIN.replace("while (r0 == 0)", "while (r0 == 2)");
    let prog = load_program("sc", &[]).expect("sc");
    let o = parse_test("t.litmus", &text)
        .and_then(|t| run(t, "t.litmus", &text, &prog, &Options::default()))
        .expect("runs");
    assert!(!o.looped);
    assert_eq!((o.pos, o.neg), (1, 2));
    assert!(litsat::report::herd_log(&o, 0.0).contains("\nOk\n"));
}

/// Loops litsat does not unroll (`for`, `do`) are refused where they are written.
#[test]
fn other_loops_are_refused_with_a_location() {
    let prog = load_program("sc", &[]).expect("sc");
    for (stmt, col) in [("for (;;) { r0 = *f; }", 3), ("do { r0 = *f; } while (r0 == 0);", 3)] {
        let text = SPIN.replace("while (r0 == 0) { r0 = *f; }", stmt);
        let d = parse_test("t.litmus", &text)
            .and_then(|t| run(t, "t.litmus", &text, &prog, &Options::default()))
            .expect_err("refused");
        assert_eq!((d.file.as_str(), d.line, d.col), ("t.litmus", 6, col), "{d}");
        assert!(d.message.contains("unsupported"), "{d}");
    }
}

/// A small release-acquire model, with herd's `undefined_unless` on write-write races.
const MINI_RA: &str = r#""mini-ra"
let sw = [REL] ; rf ; [ACQ]
let hb = (po | sw)+
irreflexive hb ; fr as ra
undefined_unless empty ((([W \ IW]) ; loc ; [W \ IW]) & ext) \ (hb | hb^-1) as race
"#;

fn mini_ra() -> Program {
    // One file per call: tests run in parallel, and one must not read another's file
    // while it is being written.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("litsat-mini-ra-{}-{k}.cat", std::process::id()));
    std::fs::write(&path, MINI_RA).expect("write model");
    load_program(&path.to_string_lossy(), &[]).expect("model parses")
}

fn c11_mp(load_y: &str, extra: &str) -> String {
    format!(
        "C mp\n{{ x=0; y=0; z=0; }}\n\
         P0(atomic_int* x, atomic_int* y, int* z) {{\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n  \
         atomic_store_explicit(y, 1, memory_order_release);\n{extra}}}\n\
         P1(atomic_int* x, atomic_int* y, int* z) {{\n  int r0 = atomic_load_explicit(y, {load_y});\n  \
         int r1 = atomic_load_explicit(x, memory_order_relaxed);\n{extra}}}\n\
         exists (1:r0=1 /\\ 1:r1=0)\n"
    )
}

/// C11 loads and stores carry herd's sets (A and their memory order's): message passing
/// is forbidden through a release-acquire pair and allowed through a relaxed load.
#[test]
fn c11_accesses_carry_their_memory_order() {
    let prog = mini_ra();
    for (order, pos) in [("memory_order_acquire", 0), ("memory_order_relaxed", 1)] {
        let text = c11_mp(order, "");
        let o = parse_test("mp.litmus", &text).and_then(|t| run(t, "mp.litmus", &text, &prog, &Options::default()));
        let o = o.expect("runs");
        assert_eq!((o.pos, o.neg), (pos, 3), "{order}");
        assert!(o.flags.is_empty(), "{order}: {:?}", o.flags);
    }
}

/// `undefined_unless` raises herd's `*undef*` flag on the executions that fail it.
#[test]
fn undefined_unless_raises_the_undef_flag() {
    let text = c11_mp("memory_order_acquire", "  *z = 1;\n");
    let prog = mini_ra();
    let o = parse_test("mp.litmus", &text).and_then(|t| run(t, "mp.litmus", &text, &prog, &Options::default()));
    assert_eq!(o.expect("runs").flags.into_iter().collect::<Vec<_>>(), vec!["*undef*".to_string()]);
}

/// A memory order the operation cannot take is a located error naming it.
#[test]
fn a_wrong_memory_order_is_refused_where_written() {
    let text = c11_mp("memory_order_release", "");
    let d = parse_test("mp.litmus", &text)
        .and_then(|t| run(t, "mp.litmus", &text, &mini_ra(), &Options::default()))
        .expect_err("refused");
    assert_eq!((d.line, d.col), (8, 12), "{d}");
    assert!(d.message.contains("cannot take `memory_order_release`"), "{d}");
}

fn c11_cas(success: &str) -> String {
    format!(
        "C cas\n{{ x=0; y=0; one=1; }}\n\
         P0(atomic_int* x, atomic_int* y) {{\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n  \
         atomic_store_explicit(y, 1, memory_order_release);\n}}\n\
         P1(atomic_int* x, atomic_int* y, int* one) {{\n  \
         int r0 = atomic_compare_exchange_strong_explicit(y, one, 2, {success}, memory_order_relaxed);\n  \
         int r1 = atomic_load_explicit(x, memory_order_relaxed);\n}}\n\
         exists (1:r0=1 /\\ 1:r1=0)\n"
    )
}

/// A compare-and-exchange's read takes the success order only when it succeeds: message
/// passing through a successful acquire CAS is forbidden, through a relaxed one allowed;
/// a failed one writes what it read back to `*expected`.
#[test]
fn c11_compare_exchange_takes_the_order_its_value_selects() {
    let prog = mini_ra();
    for (order, pos) in [("memory_order_acquire", 0), ("memory_order_relaxed", 1)] {
        let text = c11_cas(order);
        let o = parse_test("cas.litmus", &text).and_then(|t| run(t, "cas.litmus", &text, &prog, &Options::default()));
        let o = o.expect("runs");
        assert_eq!((o.pos, o.neg), (pos, 3), "{order}");
        let failed: Vec<String> = o.states.iter().map(state_line).filter(|s| s.contains("1:r0=0;")).collect();
        assert!(!failed.is_empty(), "{order}: some execution fails the CAS");
    }
    let text = c11_cas("memory_order_acquire").replace("exists (1:r0=1 /\\ 1:r1=0)", "exists (1:r0=0 /\\ one=0)");
    let o = parse_test("cas.litmus", &text).and_then(|t| run(t, "cas.litmus", &text, &prog, &Options::default()));
    assert_eq!(o.expect("runs").pos, 2, "a failed CAS stores the value it read (0) into *expected");
}

/// A weak compare-and-exchange may fail although the values are equal: alone on x, a
/// strong one always succeeds, a weak one also fails (and then writes x's value back to
/// `*expected`); under the bundled c11, whose c11.def also gives the plain names.
#[test]
fn weak_compare_exchange_may_fail_spuriously() {
    let prog = load_program("c11", &[]).expect("bundled c11");
    for (cas, states) in [
        ("atomic_compare_exchange_strong_explicit(x, e, 1, memory_order_relaxed, memory_order_relaxed)", 1),
        ("atomic_compare_exchange_weak_explicit(x, e, 1, memory_order_relaxed, memory_order_relaxed)", 2),
        ("atomic_compare_exchange_weak(x, e, 1)", 2),
    ] {
        let text = format!(
            "C weak\n{{ x=0; e=0; }}\nP0(atomic_int* x, int* e) {{\n  int r0 = {cas};\n  \
             atomic_store(x, atomic_load(x) + 5);\n}}\nexists (0:r0=0 /\\ x=5)\n"
        );
        let o = parse_test("weak.litmus", &text).and_then(|t| run(t, "weak.litmus", &text, &prog, &Options::default()));
        let o = o.expect("runs");
        let lines: Vec<String> = o.states.iter().map(state_line).collect();
        assert_eq!(lines.len(), states, "{cas}: {lines:?}");
        assert_eq!(o.pos > 0, states == 2, "{cas}: {lines:?}");
        if states == 2 {
            assert!(lines.iter().any(|l| l.contains("0:r0=0;") && l.contains("[x]=5;")), "{lines:?}");
        }
    }
}

/// Plain accesses (`*x`) are in herd's set NA, atomic ones in A, never both.
#[test]
fn plain_accesses_are_na() {
    let path = std::env::temp_dir().join(format!("litsat-na-{}.cat", std::process::id()));
    std::fs::write(&path, "\"na\"\nflag ~empty (NA & W) as plain-write\nflag ~empty (NA & A) as both\n")
        .expect("model");
    let prog = load_program(&path.to_string_lossy(), &[]).expect("model parses");
    for (store, flags) in
        [("*x = 1;", vec!["plain-write"]), ("atomic_store_explicit(x, 1, memory_order_relaxed);", vec![])]
    {
        let text = format!("C na\n{{ x=0; }}\nP0(atomic_int* x) {{\n  {store}\n}}\nexists (x=1)\n");
        let o = parse_test("na.litmus", &text).and_then(|t| run(t, "na.litmus", &text, &prog, &Options::default()));
        assert_eq!(o.expect("runs").flags.into_iter().collect::<Vec<_>>(), flags, "{store}");
    }
}

/// A number where an atomic operation wants a pointer is an error at the call, naming the
/// argument.
#[test]
fn a_number_for_a_pointer_is_refused_at_the_call() {
    let text = "C bad\n{ x=0; }\nP0(atomic_int* x) {\n  int s = atomic_load_explicit(5, memory_order_relaxed);\n}\nexists (x=0)\n";
    let prog = load_program("c11", &[]).expect("bundled c11");
    let d = parse_test("bad.litmus", text)
        .and_then(|t| run(t, "bad.litmus", text, &prog, &Options::default()))
        .expect_err("refused");
    assert_eq!((d.line, d.col), (4, 11), "{d}");
    assert!(d.message.contains("expects a pointer as argument 1, found a number"), "{d}");
}

/// The events of one C thread `P0(int *x) { BODY }` under the kernel-style macros `def`
/// and the variants: (kind, tags, tags some outcome adds, whether it always exists).
fn c_events(def: &str, body: &str, variants: &[&str]) -> Vec<(String, Vec<String>, Vec<String>, bool)> {
    use litsat::events::Kind;
    let text = format!("C t\n{{}}\nP0(int *x) {{ {body} }}\nexists (0:r0=0)\n");
    let mut test = parse_test("t.litmus", &text).expect("parses");
    test.variants = variants.iter().map(|v| v.to_string()).collect();
    let ev_opts = (Some(("k.def", def)), litsat::query::DEFAULT_UNROLL, false);
    let (_, _, ev) =
        litsat::query::prepare_until(test, "t.litmus", &text, ev_opts, litsat::diag::Deadline::NONE).expect("lowers");
    let kind = |k: &Kind| match k {
        Kind::Read => "R",
        Kind::Write => "W",
        Kind::Fence => "F",
        _ => "other",
    };
    let one = ev.events.iter().find(|e| e.thread.is_none()).map(|e| e.guard);
    ev.events
        .iter()
        .filter(|e| e.thread == Some(0))
        .map(|e| {
            let mut tags: Vec<String> = e.tags.iter().map(|t| t.to_string()).collect();
            tags.sort();
            let iff: Vec<String> = e.tags_if.iter().map(|(t, _)| t.to_string()).collect();
            (kind(&e.kind).to_string(), tags, iff, Some(e.guard) == one)
        })
        .collect()
}

/// Without the variant `lkmmv2` herd builds the LKMM's read-modify-writes as its first
/// LKMM did: accesses `once` unless `acquire` (read) or `release` (write), `mb` as two
/// fences in the instruction (only where a compare-exchange or add-unless succeeds),
/// `__atomic_op`'s read `noreturn`. Under `lkmmv2` both accesses take the annotation.
#[test]
fn lkmm_rmws_are_built_as_herd_builds_them_with_and_without_lkmmv2() {
    let def = "xchg(X,V) __xchg{mb}(X,V)\nxchg_acquire(X,V) __xchg{acquire}(X,V)\n\
               cmpxchg_acquire(X,V,W) __cmpxchg{acquire}(X,V,W)\ncmpxchg(X,V,W) __cmpxchg{mb}(X,V,W)\n\
               atomic_inc(X) { __atomic_op{noreturn}(X,+,1); }\nadd_unless(X,V,U) __atomic_add_unless{mb}(X,V,U)\n";
    let s = |v: &[&str]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    let rw = |k: &str, t: &[&str]| {
        let mut tags = s(&[t, &["RMW", "X"]].concat());
        tags.sort();
        (k.to_string(), tags, Vec::new(), true)
    };
    let fence = |always: bool| ("F".to_string(), s(&["mb"]), Vec::new(), always);
    let v1 = c_events(def, "int r0 = xchg(x, 1);", &[]);
    assert_eq!(v1, [rw("R", &["once"]), rw("W", &["once"]), fence(true), fence(true)]);
    let v2 = c_events(def, "int r0 = xchg(x, 1);", &["lkmmv2"]);
    assert_eq!(v2, [rw("R", &["mb"]), rw("W", &["mb"])]);
    let v1 = c_events(def, "int r0 = xchg_acquire(x, 1);", &[]);
    assert_eq!(v1, [rw("R", &["acquire"]), rw("W", &["once"])]);
    let v1 = c_events(def, "int r0 = cmpxchg_acquire(x, 0, 1);", &[]);
    assert_eq!(v1[0], ("R".to_string(), s(&["RMW", "X"]), s(&["acquire", "once"]), true));
    let v1 = c_events(def, "int r0 = cmpxchg(x, 0, 1);", &[]);
    assert_eq!(
        v1.iter().map(|e| (e.0.as_str(), e.3)).collect::<Vec<_>>(),
        [("R", true), ("W", false), ("F", false), ("F", false)]
    );
    let v1 = c_events(def, "atomic_inc(x); int r0 = 0;", &[]);
    assert_eq!(v1[..2], [rw("R", &["noreturn"]), rw("W", &["once"])]);
    let v1 = c_events(def, "int r0 = add_unless(x, 1, 0);", &[]);
    assert_eq!(
        v1.iter().map(|e| (e.0.as_str(), e.3)).collect::<Vec<_>>(),
        [("R", true), ("W", false), ("F", false), ("F", false)]
    );
}
