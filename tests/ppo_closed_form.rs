//! The bundled Power and ARMv7 models compute preserved program order in closed form
//! (`cat/nmca.cat`); the paper defines it as a mutual fixpoint. Both are evaluated on every
//! execution of real tests, and any pair in one and not the other raises a flag.

mod common;

use litsat::cat::load_program;
use litsat::query::Options;
use litsat_cli::driver::{check_file, collect_inputs};
use rayon::prelude::*;
use std::path::PathBuf;

const CHECKS: &[&str] = &["sc-per-location", "atomicity", "no-thin-air", "propagation", "observation", "exclusives"];

fn files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let inputs: Vec<String> = dirs.iter().filter(|d| d.is_dir()).map(|d| d.to_string_lossy().to_string()).collect();
    collect_inputs(&inputs).expect("inputs expand")
}

#[test]
fn closed_form_equals_the_fixpoint() {
    let root = common::root();
    let prog =
        load_program(&root.join("tests/oracle_models/ppo-fixpoint.cat").to_string_lossy(), &[]).expect("model loads");
    let opts = Options::new().skipchecks(CHECKS.iter().copied());
    let own = compare(&prog, &opts, &[root.join("litmus/ppc"), root.join("litmus/arm"), root.join("litmus/aarch64")]);
    // The project's own tests include two (`MP+lwsync+data-rfi-addr`, `MP+dmb+data-rfi-addr`)
    // whose ppo holds a pair only a composition gives.
    assert!(own.0 >= 16 && own.1 >= 2, "too few of the project's tests exercise ppo: {} of {}", own.1, own.0);
    let Some(sh) = common::shared_or_skip("the shared Power corpus") else { return };
    let (n, sane) = compare(&prog, &opts, &[sh.join("corpus/dat3m/PPC")]);
    assert!(n >= 16 && sane >= n / 10, "too few shared tests exercise ppo: {sane} of {n}");
}

/// Runs every test of `dirs`, fails where the two forms differ, and returns how many tests
/// ran and how many of them showed ppo pairs beyond the starting relations.
fn compare(prog: &litsat::cat::Program, opts: &Options, dirs: &[PathBuf]) -> (usize, usize) {
    let results: Vec<(PathBuf, Result<Vec<String>, String>)> = files(dirs)
        .into_par_iter()
        .map(|f| {
            let r =
                check_file(&f, prog, opts).outcome.map(|o| o.flags.into_iter().collect()).map_err(|d| d.to_string());
            (f, r)
        })
        .collect();
    let mut sane = 0;
    for (f, r) in &results {
        let flags = r.as_ref().unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(
            !flags.iter().any(|x| x.ends_with("-has-more")),
            "{}: the two forms of ppo differ ({flags:?})",
            f.display()
        );
        sane += flags.iter().any(|x| x == "sanity") as usize;
    }
    println!("{} tests compared, {sane} with ppo pairs beyond the starting relations", results.len());
    (results.len(), sane)
}
