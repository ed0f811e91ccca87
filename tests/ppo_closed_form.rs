//! The bundled Power and ARMv7 models compute preserved program order in closed form
//! (`cat/nmca.cat`); the paper defines it as a mutual fixpoint. Both are evaluated on every
//! execution of real tests, and any pair in one and not the other raises a flag.

use litsat::cat::load_program;
use litsat::query::Options;
use litsat_cli::driver::{check_file, collect_inputs};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

const CHECKS: &[&str] = &["sc-per-location", "atomicity", "no-thin-air", "propagation", "observation", "exclusives"];

fn files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let inputs: Vec<String> = dirs.iter().filter(|d| d.is_dir()).map(|d| d.to_string_lossy().to_string()).collect();
    collect_inputs(&inputs).expect("inputs expand")
}

#[test]
fn closed_form_equals_the_fixpoint() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let prog =
        load_program(&root.join("tests/oracle_models/ppo-fixpoint.cat").to_string_lossy(), &[]).expect("model loads");
    let opts = Options { skipchecks: CHECKS.iter().map(|c| c.to_string()).collect(), ..Options::default() };
    let mut dirs = vec![root.join("litmus/ppc"), root.join("litmus/arm"), root.join("litmus/aarch64")];
    let shared = root.join("../shared/corpus/dat3m/PPC");
    if shared.is_dir() {
        dirs.push(shared);
    } else {
        println!("../shared is absent: only the project's tests were compared");
    }
    let results: Vec<(PathBuf, Result<Vec<String>, String>)> = files(&dirs)
        .into_par_iter()
        .map(|f| {
            let r =
                check_file(&f, &prog, &opts).outcome.map(|o| o.flags.into_iter().collect()).map_err(|d| d.to_string());
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
    assert!(
        results.len() >= 16 && sane >= results.len() / 10,
        "too few tests exercise ppo: {sane} of {}",
        results.len()
    );
}
