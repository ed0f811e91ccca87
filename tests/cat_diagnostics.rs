//! Diagnostics for model writers (#35 items 1 and 3): each error is checked by its text
//! and by its `file:line:col`, so that a message that moves or loses its hint fails here.
//!
//! Runs of the binary set their environment (`LITSAT_LIB`, `HERDLIB`,
//! `OPAM_SWITCH_PREFIX`) explicitly, so that a machine with herd installed sees the same.

mod common;

use litsat::cat::load::load_text;
use std::path::{Path, PathBuf};
use std::process::Command;

const SB: &str = "X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

/// A fresh folder per call: tests run in parallel.
fn scratch(tag: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("litsat-diag-{tag}-{}-{call}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

fn s(p: &Path) -> String {
    p.to_string_lossy().to_string()
}

/// `litsat check ARGS` from `cwd`, with `env` set and the library variables otherwise
/// unset: the exit status and standard error.
fn check_in(cwd: &Path, env: &[(&str, &Path)], args: &[&str]) -> (i32, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litsat"));
    c.current_dir(cwd).arg("check").args(args);
    for v in ["LITSAT_LIB", "HERDLIB", "OPAM_SWITCH_PREFIX"] {
        c.env_remove(v);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("litsat runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).to_string())
}

/// The diagnostic of a model that fails to load: `(line, col, message)`.
fn load_err(text: &str) -> (usize, usize, String) {
    let d = load_text("m.cat", text).expect_err("refused");
    assert_eq!(d.file, "m.cat", "{d}");
    (d.line, d.col, d.message)
}

#[test]
fn a_call_with_the_wrong_arity_is_reported_at_the_call() {
    let dir = scratch("arity");
    write(&dir, "SB.litmus", SB);
    write(&dir, "m.cat", "\"m\"\nlet drain = MFENCE\nlet r = fencerel(drain, po)\nacyclic r | rf as x\n");
    let (code, err) = check_in(&dir, &[], &["-m", "m.cat", "SB.litmus"]);
    assert_eq!(code, 1, "{err}");
    let first = err.lines().next().unwrap_or("");
    assert_eq!(first, "m.cat:3:9: error: function `fencerel` takes 1 argument but is given 2", "{err}");
    assert!(err.contains("note: the call failed at <bundled>/stdlib.cat:15:"), "{err}");
}

#[test]
fn a_tuple_parameter_with_the_wrong_arity_is_reported_at_the_call() {
    let dir = scratch("arity2");
    write(&dir, "SB.litmus", SB);
    write(&dir, "m.cat", "\"m\"\nlet both(a, b) = a | b\nacyclic both(po, rf, co) as x\n");
    let (code, err) = check_in(&dir, &[], &["-m", "m.cat", "SB.litmus"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("m.cat:3:9: error: function `both` takes 2 arguments but is given 3"), "{err}");
}

#[test]
fn a_misspelt_keyword_is_reported_at_the_word() {
    // Right after the model's name (where the header would have taken it in).
    let (l, c, m) = load_err("\"m\"\nacylic po as x\n");
    assert_eq!((l, c, m.as_str()), (2, 1, "unknown statement `acylic`; did you mean `acyclic`?"));
    // After a binding (which would have applied its body to the word).
    let (l, c, m) = load_err("\"m\"\nlet a = po\nirreflexiv a as x\n");
    assert_eq!((l, c, m.as_str()), (3, 1, "unknown statement `irreflexiv`; did you mean `irreflexive`?"));
    // After a check.
    let (l, c, m) = load_err("\"m\"\nacyclic po as x\n  emtpy rf as y\n");
    assert_eq!((l, c, m.as_str()), (3, 3, "unknown statement `emtpy`; did you mean `empty`?"));
    for (typo, kw) in [("lte", "let"), ("inclde", "include"), ("falg", "flag"), ("shwo", "show")] {
        let (l, c, m) = load_err(&format!("\"m\"\nacyclic po as x\n{typo} a\n"));
        assert_eq!((l, c), (3, 1), "{m}");
        assert!(m.ends_with(&format!("did you mean `{kw}`?")), "{m}");
    }
}

#[test]
fn a_missing_parenthesis_is_reported_where_it_was_opened() {
    let (l, c, m) = load_err("\"m\"\nlet a = (po ; rf\nlet b = po\nacyclic a as x\n");
    assert_eq!((l, c), (2, 9), "{m}");
    assert_eq!(m, "unclosed `(`: `let` at 3:1 comes before its `)`");
    let (l, c, m) = load_err("\"m\"\nacyclic [R ; po as x\n");
    assert_eq!((l, c, m.as_str()), (2, 9, "unclosed `[`: `as` at 2:17 comes before its `]`"));
    let (l, c, m) = load_err("\"m\"\nlet a = fencerel(po\n");
    assert_eq!((l, c, m.as_str()), (2, 17, "unclosed `(`: end of file at 3:1 comes before its `)`"));
}

#[test]
fn an_unbound_name_is_refused_at_load_with_the_nearest_names() {
    let (l, c, m) = load_err("\"m\"\nlet a = po ; rfee\nacyclic a as x\n");
    assert_eq!((l, c, m.as_str()), (2, 14, "unbound name `rfee`; did you mean `rfe`?"));
    // A name of the model's own.
    let (l, c, m) = load_err("\"m\"\nlet hb-order = po | rf\nacyclic hb-ordr as x\n");
    assert_eq!((l, c, m.as_str()), (3, 9, "unbound name `hb-ordr`; did you mean `hb-order`?"));
    // Nothing near: no suggestion.
    let (_, _, m) = load_err("\"m\"\nacyclic xyzzy-plugh as x\n");
    assert_eq!(m, "unbound name `xyzzy-plugh`");
    // A procedure nothing defines.
    let (l, c, m) = load_err("\"m\"\nprocedure cons(r) = acyclic r end\ncall conss(po)\n");
    assert_eq!((l, c, m.as_str()), (3, 1, "unknown procedure `conss`; did you mean `cons`?"));
    // Through the library too.
    let Err(e) = litsat::Model::from_text("m.cat", "\"m\"\nacyclic po | rfee as x\n") else { panic!("loaded") };
    assert!(e.to_string().starts_with("m.cat:2:14: error: unbound name `rfee`"), "{e}");
}

#[test]
fn names_bound_conditionally_or_built_in_load() {
    let ok = [
        // Bound under a variant, by a `with`, a parameter, a `let rec`, a match arm.
        "\"m\"\nif \"v\" let a = po else let a = rf end\nacyclic a as x\n",
        "\"m\"\ninclude \"cross.cat\"\nwith mo from generate_orders(W, co)\nacyclic po | mo as x\n",
        "\"m\"\nlet rec f x = match x with {} -> 0 || e ++ es -> f es end\nacyclic po as x\n",
        // A set of some architecture (herd binds it per test), and `try` on a name nothing binds.
        "\"m\"\nlet f = MFENCE | ISYNC | DMB.ISH | Acq | LKW\nacyclic po | [f] as x\n",
        "\"m\"\nlet f = try NOT-A-SET with 0\nacyclic po | f as x\n",
        "\"m\"\nprocedure p(r) = acyclic r end\ncall p(po)\n",
    ];
    for text in ok {
        load_text("m.cat", text).unwrap_or_else(|d| panic!("{text}: {d}"));
    }
}

/// Over a folder, a model that does not load is reported once, with exit 2.
#[test]
fn an_unbound_name_over_a_folder_prints_once_and_exits_2() {
    let dir = scratch("folder");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).expect("folder");
    for k in 0..40 {
        write(&tests, &format!("SB{k}.litmus"), &SB.replace("X86 SB", &format!("X86 SB{k}")));
    }
    write(&dir, "m.cat", "\"m\"\nacyclic po | rfee as x\n");
    let (code, err) = check_in(&dir, &[], &["-m", "m.cat", "tests"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.matches("error: unbound name").count(), 1, "{err}");
    assert!(err.starts_with("m.cat:2:14: error: unbound name `rfee`; did you mean `rfe`?"), "{err}");
}

/// `-m x86tso.cat` is looked for as herd looks for `-model`: the current folder, the `-I`
/// folders, `LITSAT_LIB`, `HERDLIB`, then herd's install folders.
#[test]
fn a_model_file_is_found_on_the_search_path() {
    let cwd = scratch("find-cwd");
    write(&cwd, "SB.litmus", SB);
    let inc = scratch("find-inc");
    write(&inc, "mine.cat", "\"mine\"\nacyclic po | rf | co | fr as x\n");
    let (code, err) = check_in(&cwd, &[], &["-m", "mine.cat", "-I", &s(&inc), "SB.litmus"]);
    assert_eq!(code, 0, "{err}");
    let (code, err) = check_in(&cwd, &[("HERDLIB", &inc)], &["-m", "mine.cat", "SB.litmus"]);
    assert_eq!(code, 0, "{err}");
    // opam's switch, as herd installed by opam keeps its library.
    let opam = scratch("find-opam");
    let lib = opam.join("share/herdtools7/herd");
    std::fs::create_dir_all(&lib).expect("folder");
    write(&lib, "mine.cat", "\"mine\"\nacyclic po | rf | co | fr as x\n");
    let (code, err) = check_in(&cwd, &[("OPAM_SWITCH_PREFIX", &opam)], &["-m", "mine.cat", "SB.litmus"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_missing_model_file_says_where_litsat_looked() {
    let cwd = scratch("missing");
    write(&cwd, "SB.litmus", SB);
    let inc = scratch("missing-inc");
    let (code, err) = check_in(&cwd, &[("HERDLIB", &inc)], &["-m", "nowhere.cat", "-I", "somewhere", "SB.litmus"]);
    assert_eq!(code, 2, "{err}");
    let want = format!(
        "litsat: error: cannot find \"nowhere.cat\" (looked in: the current folder, somewhere, {}); \
         add a folder with -I DIR, or set LITSAT_LIB or HERDLIB",
        inc.display()
    );
    assert_eq!(err.lines().next(), Some(want.as_str()), "{err}");
}

/// A cfg run from another folder: the file it names is beside it, where herd does not
/// look; the error says so and which `-I` finds it.
#[test]
fn a_file_beside_the_cfg_is_hinted() {
    let dir = scratch("beside");
    let cfg = write(&dir, "m.cfg", "bell m.bell\nmodel m.cat\n");
    write(&dir, "m.bell", "\"b\"\n");
    write(&dir, "m.cat", "\"m\"\nacyclic po as x\n");
    let cwd = scratch("beside-cwd");
    write(&cwd, "SB.litmus", SB);
    let (code, err) = check_in(&cwd, &[], &["--conf", &s(&cfg), "SB.litmus"]);
    assert_eq!(code, 2, "{err}");
    let first = err.lines().next().unwrap_or("");
    let d = dir.display();
    assert!(
        first.starts_with(&format!(
            "{}:1:6: error: cannot find \"m.bell\" (looked in: the current folder",
            cfg.display()
        )),
        "{err}"
    );
    assert!(first.ends_with(&format!("; it is beside the cfg, in {d}, where herd does not look: add -I {d}")), "{err}");
    let (code, err) = check_in(&cwd, &[], &["--conf", &s(&cfg), "-I", &s(&dir), "SB.litmus"]);
    assert_eq!(code, 0, "{err}");
}

/// The acceptance's run: herd's own x86tso.cat, named by file and found through `-I`.
#[test]
fn herds_x86tso_is_found_through_dash_i() {
    let Some(shared) = common::shared_or_skip("herd's x86tso.cat through -I") else { return };
    let herd = shared.join("models/herd");
    let cwd = scratch("x86tso");
    write(&cwd, "SB.litmus", SB);
    let mut c = Command::new(env!("CARGO_BIN_EXE_litsat"));
    c.current_dir(&cwd).args(["check", "-m", "x86tso.cat", "-I", &s(&herd), "SB.litmus"]);
    let out = c.env_remove("LITSAT_LIB").env_remove("HERDLIB").output().expect("runs");
    let log = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // herd: SB is allowed under TSO (the store buffer).
    assert!(log.contains("Observation SB Sometimes 1 3"), "{log}");
}
