//! An arbitrary cat text, where it parses, evaluated as the model of one small test (SB on
//! x86, with the bundled stdlib), then solved.
#![no_main]

mod expand;

use libfuzzer_sys::fuzz_target;
use litsat::cat::load::SourceFile;
use litsat::cat::{Program, load_program};
use litsat::query::{Options, run};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

const SB: &str = "X86 SB\n{ x=0; y=0; }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

fn base() -> &'static Program {
    static PROG: OnceLock<Program> = OnceLock::new();
    PROG.get_or_init(|| load_program("sc", &[]).expect("the bundled sc model loads"))
}

fuzz_target!(|data: &[u8]| {
    let text = expand::expand(data);
    let path = "fuzz.cat";
    let Ok(model) = litsat::cat::parse::parse_model(path, &text) else {
        return;
    };
    // The fuzzed file as the root, with the bundled stdlib; its includes do not resolve.
    let mut prog = base().clone();
    prog.root = path.to_string();
    prog.files.insert(
        path.to_string(),
        SourceFile { path: path.to_string(), text: Arc::from(&*text), model: Arc::new(model) },
    );
    let Ok(test) = litsat::litmus::parse_test("SB.litmus", SB) else {
        return;
    };
    let opts = Options::new().timeout(Some(Duration::from_millis(200))).max_events(Some(40));
    let _ = run(test, "SB.litmus", SB, &prog, &opts);
});
