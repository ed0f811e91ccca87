//! The whole `check` pipeline on an arbitrary litmus text, under the bundled SC model with
//! a small time and size budget.
#![no_main]

mod expand;

use libfuzzer_sys::fuzz_target;
use litsat::cat::{Program, load_program};
use litsat::query::{Options, prepare, run};
use std::sync::OnceLock;
use std::time::Duration;

fn model() -> &'static Program {
    static PROG: OnceLock<Program> = OnceLock::new();
    PROG.get_or_init(|| load_program("sc", &[]).expect("the bundled sc model loads"))
}

fuzz_target!(|data: &[u8]| {
    let text = expand::expand(data);
    let name = "fuzz.litmus";
    let Ok(test) = litsat::litmus::parse_test(name, &text) else {
        return;
    };
    // `prepare` alone (ISA parsing, event structure), then the solver run.
    let _ = prepare(test.clone(), name, &text);
    let opts = Options::new().timeout(Some(Duration::from_millis(200))).max_events(Some(40));
    if let Ok(o) = run(test, name, &text, model(), &opts) {
        let _ = litsat::report::herd_log(&o, 0.0);
    }
});
