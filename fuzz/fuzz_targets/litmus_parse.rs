//! The litmus parser on arbitrary text: it must return a test or a located diagnostic.
#![no_main]

mod expand;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = expand::expand(data);
    if let Err(d) = litsat::litmus::parse_test("fuzz.litmus", &text) {
        let _ = d.to_string();
    }
});
