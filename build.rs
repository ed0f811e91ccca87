//! Embeds the project's `litmus/` tests for `litsat serve`'s menu: a generated table of
//! `(name, text)` pairs, so that a new test file needs no code change, and no crate is
//! added for what a directory walk does.

use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rerun-if-changed=litmus");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut tests = Vec::new();
    collect(&root.join("litmus"), &mut tests);
    let mut named: Vec<(String, PathBuf)> = tests
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root.join("litmus")).expect("under litmus/").with_extension("");
            let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            (name, p)
        })
        .collect();
    named.sort();
    let mut out = String::from("&[\n");
    for (name, path) in named {
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    out.push_str("]\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("litmus_tests.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// Every `.litmus` file under `dir`, at any depth.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus") {
            out.push(p);
        }
    }
}
