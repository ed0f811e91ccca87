//! The cat parser on arbitrary text: it must return a model or a located diagnostic.
#![no_main]

mod expand;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = expand::expand(data);
    if let Err(d) = litsat::cat::parse::parse_model("fuzz.cat", &text) {
        let _ = d.to_string();
    }
});
