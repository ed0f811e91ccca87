//! The tests of herd's AArch64 instruction suite that herd refuses (each has an
//! `.expected-failure` with herd's message instead of an `.expected` log): litsat must
//! refuse each too, with an error that says where (`file:line:col`) and why, rather
//! than answer it.

mod common;

use common::shared_or_skip;
use litsat::query::Options;
use litsat_cli::driver::check_file;

#[test]
fn every_test_herd_refuses_is_refused_where_it_fails() {
    let Some(sh) = shared_or_skip("herd's refused AArch64 instruction tests") else { return };
    let dir = sh.join("corpus/herd-aarch64/instructions/AArch64");
    let herd = sh.join("models/herd");
    let prog = litsat::cat::load_program(herd.join("aarch64.cat").to_str().expect("path"), &[herd])
        .expect("herd's aarch64.cat loads");
    let mut refused: Vec<_> = std::fs::read_dir(&dir)
        .expect("the suite's folder")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".expected-failure").map(String::from))
        .collect();
    refused.sort();
    assert_eq!(refused.len(), 31, "herd refuses 31 tests of the suite: {refused:?}");
    let mut wrong = Vec::new();
    for name in &refused {
        let path = dir.join(name);
        match check_file(&path, &prog, &Options::default()).outcome {
            Ok(o) => wrong.push(format!("{name}: answered {}", o.observation())),
            Err(d) => {
                let text = d.to_string();
                // `file:line:col: error: …` on the first line.
                let first = text.lines().next().unwrap_or_default();
                let located = first.split(':').take(3).skip(1).all(|n| n.trim().parse::<usize>().is_ok());
                if !(first.contains(name.as_str()) && located) {
                    wrong.push(format!("{name}: refused without a place: {first}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
