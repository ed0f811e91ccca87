//! herd configuration files (`--conf`, `-m x.cfg`, `-m lkmm`) and herd's order for the
//! files they name and every include: the current folder, the `-I` folders, `LITSAT_LIB`,
//! the bundled library — never the folder of the cfg or of the including file.
//!
//! Lookups that depend on the current folder or on `LITSAT_LIB` run the binary, so no test
//! changes the process's own folder or environment.

mod common;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, Program, load_model, load_program};
use litsat::litmus::parse_test;
use litsat::query::{self, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

const SB: &str = "X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

fn litsat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_litsat"))
}

/// A fresh folder per call: tests run in parallel.
fn scratch(tag: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("litsat-cfg-{tag}-{}-{call}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(d) = p.parent() {
        std::fs::create_dir_all(d).expect("folder");
    }
    std::fs::write(&p, text).expect("write");
    p
}

fn s(p: &Path) -> String {
    p.to_string_lossy().to_string()
}

/// A model that only raises the flag `name`, so a log shows which file was loaded.
fn flagging(name: &str) -> String {
    format!("\"{name}\"\nflag ~empty po as {name}\n")
}

/// `litsat check ARGS test` from `cwd`, with `LITSAT_LIB` set to `lib` (or unset):
/// the exit status, standard output and standard error.
fn check_in(cwd: &Path, lib: Option<&Path>, args: &[&str]) -> (i32, String, String) {
    let test = write(cwd, "SB.litmus", SB);
    let mut c = litsat();
    c.current_dir(cwd).arg("check").args(args).arg(&test);
    match lib {
        Some(l) => c.env("LITSAT_LIB", l),
        None => c.env_remove("LITSAT_LIB"),
    };
    let out = c.output().expect("litsat runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn flags(log: &str) -> Vec<&str> {
    log.lines().filter_map(|l| l.strip_prefix("Flag ")).collect()
}

#[test]
fn the_current_folder_shadows_include_folders_which_shadow_litsat_lib() {
    let cwd = scratch("cwd");
    let inc = scratch("inc");
    let lib = scratch("lib");
    write(&cwd, "m.cfg", "model m.cat\ngraph columns\n");
    write(&cwd, "m.cat", &flagging("from-cwd"));
    write(&inc, "m.cat", &flagging("from-include"));
    write(&lib, "m.cat", &flagging("from-lib"));
    let inc_s = s(&inc);
    let (code, out, err) = check_in(&cwd, Some(&lib), &["--conf", "m.cfg", "-I", &inc_s]);
    assert_eq!((code, flags(&out)), (0, vec!["from-cwd"]), "{err}");
    std::fs::remove_file(cwd.join("m.cat")).expect("remove");
    let (code, out, err) = check_in(&cwd, Some(&lib), &["--conf", "m.cfg", "-I", &inc_s]);
    assert_eq!((code, flags(&out)), (0, vec!["from-include"]), "{err}");
    let (code, out, err) = check_in(&cwd, Some(&lib), &["--conf", "m.cfg"]);
    assert_eq!((code, flags(&out)), (0, vec!["from-lib"]), "{err}");
    // The same through `-m x.cfg`.
    let (code, out, err) = check_in(&cwd, Some(&lib), &["-m", "m.cfg"]);
    assert_eq!((code, flags(&out)), (0, vec!["from-lib"]), "{err}");
}

#[test]
fn includes_follow_the_same_order_once_a_cfg_is_used() {
    let cwd = scratch("inc-cwd");
    let inc = scratch("inc-inc");
    write(&cwd, "m.cfg", "model m.cat\n");
    write(&inc, "m.cat", "\"m\"\ninclude \"part.cat\"\n");
    write(&inc, "part.cat", &flagging("part-from-include"));
    write(&cwd, "part.cat", &flagging("part-from-cwd"));
    let inc_s = s(&inc);
    let (code, out, err) = check_in(&cwd, None, &["--conf", "m.cfg", "-I", &inc_s]);
    assert_eq!((code, flags(&out)), (0, vec!["part-from-cwd"]), "{err}");
    // Without a cfg, the including file's folder comes first, as before.
    let m = s(&inc.join("m.cat"));
    let (code, out, err) = check_in(&cwd, None, &["-m", &m]);
    assert_eq!((code, flags(&out)), (0, vec!["part-from-include"]), "{err}");
}

#[test]
fn the_cfg_folder_is_never_searched() {
    let home = scratch("home");
    let elsewhere = scratch("elsewhere");
    let cfg = write(&home, "m.cfg", "model m.cat\n");
    write(&home, "m.cat", &flagging("beside-the-cfg"));
    let cfg_s = s(&cfg);
    let (code, _, err) = check_in(&elsewhere, None, &["--conf", &cfg_s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{cfg_s}:1:7: error: cannot find \"m.cat\"")), "{err}");
    assert!(err.contains("the current folder") && err.contains("the bundled library"), "{err}");
    // Named with -I, the same folder is searched.
    let home_s = s(&home);
    let (code, out, err) = check_in(&elsewhere, None, &["--conf", &cfg_s, "-I", &home_s]);
    assert_eq!((code, flags(&out)), (0, vec!["beside-the-cfg"]), "{err}");
    // Nor is the including file's folder: m.cat, found through the current folder,
    // includes part.cat from beside itself.
    write(&elsewhere, "sub/m.cat", "\"m\"\ninclude \"part.cat\"\n");
    write(&elsewhere, "sub/part.cat", &flagging("part"));
    write(&elsewhere, "n.cfg", "model sub/m.cat\n");
    let (code, _, err) = check_in(&elsewhere, None, &["--conf", "n.cfg"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sub/m.cat:2:1: error: cannot find included file \"part.cat\""), "{err}");
}

#[test]
fn a_cfg_naming_a_missing_file_is_an_error_at_its_line() {
    let dir = scratch("missing");
    write(&dir, "m.cat", "\"m\"\n");
    let cfg = write(&dir, "m.cfg", "model m.cat\nbell nowhere.bell\n");
    let inc = s(&dir);
    let spec = ModelSpec { conf: Some(s(&cfg)), ..ModelSpec::default() };
    let d = load_model(&spec, std::slice::from_ref(&dir)).expect_err("the bell is missing");
    assert_eq!((d.file.as_str(), d.line, d.col), (s(&cfg).as_str(), 2, 6));
    assert!(d.message.starts_with("cannot find \"nowhere.bell\" (looked in: the current folder, "), "{}", d.message);
    assert!(d.message.contains(&inc), "{}", d.message);
    // A missing cfg names itself.
    let spec = ModelSpec { conf: Some("no-such.cfg".into()), ..ModelSpec::default() };
    let d = load_model(&spec, &[]).expect_err("no cfg");
    assert_eq!(d.file, "no-such.cfg");
    assert!(d.message.contains("cannot find \"no-such.cfg\""), "{}", d.message);
    // A malformed line is located.
    let bad = write(&dir, "bad.cfg", "model m.cat\nvariant\n");
    let spec = ModelSpec { conf: Some(s(&bad)), ..ModelSpec::default() };
    let d = load_model(&spec, std::slice::from_ref(&dir)).expect_err("malformed");
    assert_eq!((d.line, d.col), (2, 1));
    assert!(d.message.contains("`variant` needs a value"), "{}", d.message);
}

#[test]
fn the_command_line_overrides_the_cfg() {
    let dir = scratch("override");
    write(&dir, "m.cat", "\"m\"\n");
    write(&dir, "b.bell", "\"b\"\nenum Kinds = 'k\n");
    write(&dir, "m.def", "f(X) __load{once}(X)\n");
    let cfg = write(&dir, "m.cfg", "model m.cat\nvariant ets,ets2\nvariant ets3\n");
    let dirs = [dir.clone()];
    let spec = ModelSpec {
        model: Some("sc".into()),
        conf: Some(s(&cfg)),
        bell: Some(s(&dir.join("b.bell"))),
        macros: Some(s(&dir.join("m.def"))),
    };
    let p = load_model(&spec, &dirs).expect("loads");
    assert_eq!(p.root, "<bundled>/sc.cat");
    assert_eq!(p.bell.as_deref(), Some(s(&dir.join("b.bell")).as_str()));
    assert!(p.files.contains_key(p.bell.as_deref().unwrap_or_default()));
    assert_eq!(p.macros.as_ref().map(|m| &*m.text), Some("f(X) __load{once}(X)\n"));
    assert_eq!(p.variants, ["ets", "ets2", "ets3"]);
    assert_eq!(p.variants_with(&["ets2".into(), "exs".into()]), ["ets", "ets2", "ets3", "exs"]);
    // A name herd's -variant does not take is an error at its place, as in herd.
    let bad = write(&dir, "bad.cfg", "model m.cat\nvariant ets2,etss\n");
    let d = load_model(&ModelSpec { conf: Some(s(&bad)), ..ModelSpec::default() }, &dirs).expect_err("etss");
    assert_eq!((d.line, d.col), (2, 9), "{}", d.message);
    assert!(d.message.contains("etss"), "{}", d.message);
    // Two cfgs at once are refused.
    let spec = ModelSpec { model: Some(s(&cfg)), conf: Some(s(&cfg)), ..ModelSpec::default() };
    let d = load_model(&spec, &dirs).expect_err("two cfgs");
    assert!(d.message.contains("two cfgs"), "{}", d.message);
    // Without a cfg, --bell joins a plain model.
    let spec = ModelSpec { model: Some("tso".into()), bell: Some(s(&dir.join("b.bell"))), ..ModelSpec::default() };
    let p = load_model(&spec, &[]).expect("loads");
    assert!(p.bell.is_some() && p.macros.is_none() && p.variants.is_empty());
}

/// The bell runs after the stdlib and before the model: it sees the stdlib's names, and
/// the model sees the bell's.
#[test]
fn the_bell_runs_between_the_stdlib_and_the_model() {
    let dir = scratch("bell");
    write(&dir, "m.bell", "\"b\"\nlet from-bell = fencerel(M) | po\n");
    write(&dir, "m.cat", "\"m\"\nflag ~empty from-bell as saw-the-bell\n");
    let cwd = scratch("bell-cwd");
    write(&cwd, "m.cfg", "bell m.bell\nmodel m.cat\n");
    let dir_s = s(&dir);
    let (code, out, err) = check_in(&cwd, None, &["--conf", "m.cfg", "-I", &dir_s]);
    assert_eq!((code, flags(&out)), (0, vec!["saw-the-bell"]), "{err}");
    // The same files without the bell: the model's name is unbound, refused at load.
    let (code, _, err) = check_in(&cwd, None, &["-m", &s(&dir.join("m.cat"))]);
    assert_eq!(code, 2);
    assert!(err.contains("unbound name `from-bell`"), "{err}");
}

/// cat/cos-opt.cat builds coherence on the built-in co0 and names co's derived relations.
#[test]
fn cos_opt_gives_a_coherence_order() {
    let dir = scratch("cos");
    let run = |cat: &str| {
        let m = write(&dir, "m.cat", cat);
        let prog = load_program(&s(&m), &[]).expect("loads");
        let t = parse_test("SB.litmus", SB).expect("test");
        query::run(t, "SB.litmus", SB, &prog, &Options::default()).expect("answers")
    };
    let o = run("\"m\"\ninclude \"cos-opt.cat\"\nacyclic po | rf | co | fr as sc\n");
    assert_eq!((o.observation().word(), o.pos, o.neg), ("Never", 0, 3));
    let o = run("\"m\"\ninclude \"cos-opt.cat\"\nacyclic po-loc | rf | coe | fre as uniproc\n");
    assert_eq!((o.observation().word(), o.pos, o.neg), ("Sometimes", 1, 3));
}

fn lkmm(what: &str) -> Option<PathBuf> {
    shared_or_skip(what).map(|s| s.join("models/lkmm"))
}

/// What herd's linux-kernel.cfg names, loaded: bell, cat, macros, variant, and lock.cat's
/// includes from the bundled library.
fn assert_is_lkmm(p: &Program, dir: &Path) {
    let at = |name: &str| s(&dir.join(name));
    assert_eq!(p.root, at("linux-kernel.cat"));
    assert_eq!(p.bell.as_deref(), Some(at("linux-kernel.bell").as_str()));
    assert!(p.files.contains_key(&at("linux-kernel.bell")));
    let macros = p.macros.as_ref().expect("macros");
    assert_eq!(macros.path, at("linux-kernel.def"));
    assert!(macros.text.contains("READ_ONCE(X)"));
    assert_eq!(p.variants, ["lkmmv2"]);
    let inc = |from: &str, name: &str| p.includes.get(&(from.to_string(), name.to_string())).cloned();
    assert_eq!(inc(&at("linux-kernel.cat"), "lock.cat"), Some(at("lock.cat")));
    assert_eq!(inc(&at("lock.cat"), "cross.cat").as_deref(), Some("<bundled>/cross.cat"));
    assert_eq!(inc(&at("lock.cat"), "cos-opt.cat").as_deref(), Some("<bundled>/cos-opt.cat"));
    assert_eq!(p.stdlib.as_deref(), Some("<bundled>/stdlib.cat"));
}

#[test]
fn herd_linux_kernel_cfg_loads() {
    let Some(dir) = lkmm("loading herd's linux-kernel.cfg") else { return };
    let cfg = s(&dir.join("linux-kernel.cfg"));
    let spec = ModelSpec { conf: Some(cfg.clone()), ..ModelSpec::default() };
    let p = load_model(&spec, std::slice::from_ref(&dir)).expect("loads");
    assert_is_lkmm(&p, &dir);
    // Without -I the cfg's own folder is not searched, as in herd.
    let d = load_model(&spec, &[]).expect_err("not found");
    assert!(d.file == cfg && d.message.contains("cannot find \"linux-kernel."), "{d}");
}

#[test]
fn m_lkmm_finds_linux_kernel_cfg_on_the_search_path() {
    let Some(dir) = lkmm("-m lkmm") else { return };
    let p = load_program("lkmm", std::slice::from_ref(&dir)).expect("loads");
    assert_is_lkmm(&p, &dir);
    // It is never bundled: with no folder holding it, the error says where to look.
    let empty = scratch("no-lkmm");
    let (code, _, err) = check_in(&empty, None, &["-m", "lkmm"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot find \"linux-kernel.cfg\"") && err.contains("does not bundle"), "{err}");
    // Through LITSAT_LIB too.
    let (code, _, err) = check_in(&empty, Some(&dir), &["-m", "lkmm"]);
    assert!(!err.contains("cannot find"), "{code}: {err}");
}

/// A cfg's `skipcheck` takes effect as `--skipchecks` does: SB's cycle no longer forbids.
#[test]
fn a_cfg_skipcheck_acts_as_the_option() {
    let cwd = scratch("skip");
    write(&cwd, "s.cfg", "model sc.cat\nskipcheck sc\n");
    let obs = |log: &str| log.lines().find(|l| l.starts_with("Observation")).map(str::to_string);
    let (code, by_cfg, err) = check_in(&cwd, None, &["--conf", "s.cfg"]);
    assert_eq!((code, obs(&by_cfg).as_deref()), (0, Some("Observation SB Sometimes 1 3")), "{err}");
    let (_, by_option, _) = check_in(&cwd, None, &["-m", "sc", "--skipchecks", "sc"]);
    assert_eq!(obs(&by_option), obs(&by_cfg));
    let (_, plain, _) = check_in(&cwd, None, &["-m", "sc"]);
    assert_eq!(obs(&plain).as_deref(), Some("Observation SB Never 0 3"));
}

/// An unknown key stops the run with status 2, located at the key; a key herd knows but
/// litsat does not implement is refused by name.
#[test]
fn a_cfg_with_an_unknown_or_unimplemented_key_is_refused_at_the_key() {
    let cwd = scratch("unknown");
    write(&cwd, "u.cfg", "model sc.cat\n  frobnicate 3\n");
    let (code, out, err) = check_in(&cwd, None, &["--conf", "u.cfg"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("u.cfg:2:3: error: unknown key `frobnicate`"), "{err}");
    write(&cwd, "n.cfg", "model sc.cat\noptace false\n");
    let (code, _, err) = check_in(&cwd, None, &["--conf", "n.cfg"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("n.cfg:2:") && err.contains("`optace false`"), "{err}");
}

/// A cfg that names no model leaves the architecture's default, as herd does: the log is
/// the one without `--conf`.
#[test]
fn an_empty_cfg_keeps_the_default_model() {
    let cwd = scratch("empty");
    write(&cwd, "e.cfg", "");
    write(&cwd, "d.cfg", "# display only\ngraph columns\nshowevents memory\n");
    let untimed = |log: String| log.lines().filter(|l| !l.starts_with("Time ")).collect::<Vec<_>>().join("\n");
    let (code, plain, err) = check_in(&cwd, None, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(plain.contains("Observation SB Sometimes 1 3"), "x86-TSO, the default: {plain}");
    for cfg in ["e.cfg", "d.cfg"] {
        let (code, out, err) = check_in(&cwd, None, &["--conf", cfg]);
        assert_eq!((code, untimed(out)), (0, untimed(plain.clone())), "{cfg}: {err}");
    }
}

/// herd's own instruction suites run with their `ci.cfg` (empty: the default model) give
/// herd's recorded `.expected` logs: the same States, Witnesses and Observation.
#[test]
fn herd_instruction_suites_under_their_ci_cfg_give_herds_expected_logs() {
    let Some(sh) = shared_or_skip("herd's instruction suites under their ci.cfg") else { return };
    let root = sh.join("corpus/herd-instructions");
    for (arch, floor) in [("PPC", 17), ("RISCV", 28), ("X86_64", 13), ("ARM", 22)] {
        let dir = root.join(arch);
        let mut expected = Vec::new();
        let mut tests = Vec::new();
        for e in std::fs::read_dir(&dir).expect("suite").flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "expected") {
                let text = std::fs::read_to_string(&p).expect("expected log");
                expected.extend(litsat_cli::expect::parse_herd_log(&text));
                tests.push(p.with_extension(""));
            }
        }
        let out = litsat().arg("check").arg("--conf").arg(dir.join("ci.cfg")).args(&tests).output().expect("runs");
        let log = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{arch}: {}", String::from_utf8_lossy(&out.stderr));
        let ours = litsat_cli::expect::parse_herd_log(&log);
        let mut agree = 0;
        for e in &expected {
            let a = ours.iter().find(|o| o.name == e.name).unwrap_or_else(|| panic!("{arch}: {} unanswered", e.name));
            let key = |x: &litsat_cli::expect::Expected| (x.observation.clone(), x.witnesses, x.states.clone(), x.ok);
            assert_eq!(key(a), key(e), "{arch}/{}", e.name);
            agree += 1;
        }
        assert!(agree >= floor && agree == tests.len(), "{arch}: {agree} of {} agree, floor {floor}", tests.len());
        // herd's Hash lines too, test by test.
        let hashes = |log: &str| log.lines().filter(|l| l.starts_with("Hash=")).map(str::to_string).collect::<Vec<_>>();
        let theirs: Vec<String> = tests
            .iter()
            .flat_map(|t| hashes(&std::fs::read_to_string(t.with_extension("litmus.expected")).expect("log")))
            .collect();
        assert_eq!(hashes(&log), theirs, "{arch}: the Hash lines");
        assert!(theirs.len() >= floor, "{arch}: {} Hash lines", theirs.len());
    }
}

/// herd's C instruction suite under its `ci.cfg` (`hexa true`, rc11 named from herdtools'
/// root, `variant S128`): herd's `.expected` logs line for line (Hash included), numbers in
/// hexadecimal.
#[test]
fn herd_c_instructions_under_their_ci_cfg_print_herds_hexadecimal_logs() {
    let Some(sh) = shared_or_skip("herd's C instruction suite under its ci.cfg") else { return };
    let dir = sh.join("corpus/herd-instructions/C");
    let root = herd_root(&sh);
    let mut tests = Vec::new();
    for e in std::fs::read_dir(&dir).expect("suite").flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "expected") {
            tests.push(p.with_extension(""));
        }
    }
    tests.sort();
    let mut c = litsat();
    c.arg("check").arg("--conf").arg(dir.join("ci.cfg")).arg("-I").arg(&root).arg("-I").arg(sh.join("models/herd"));
    let out = c.args(&tests).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Everything but the Time line, herd's Hash line included.
    let strip =
        |log: &str| -> String { log.lines().filter(|l| !l.starts_with("Time ")).map(|l| format!("{l}\n")).collect() };
    let expected: String = tests
        .iter()
        .map(|t| strip(&std::fs::read_to_string(t.with_extension("litmus.expected")).expect("log")))
        .collect();
    assert_eq!(strip(&String::from_utf8_lossy(&out.stdout)), expected);
    assert!(tests.len() >= 14 && expected.contains("=0x1"), "{} tests", tests.len());
}

/// A folder standing for herdtools' root, whose `herd/libdir` is the shared herd library.
fn herd_root(sh: &Path) -> PathBuf {
    let root = scratch("herdroot");
    std::fs::create_dir_all(root.join("herd")).expect("folder");
    #[cfg(unix)]
    std::os::unix::fs::symlink(sh.join("models/herd"), root.join("herd/libdir")).expect("link");
    root
}

/// Every cfg file in the shared folder loads: each key takes effect or is a listed display
/// setting, and each file it names is found (herd's test harness names
/// `herd/libdir/rc11.cat` from herdtools' root, so that root is mimicked with a link).
#[test]
fn every_shared_cfg_loads() {
    let Some(sh) = shared_or_skip("loading every cfg file of the shared folder") else { return };
    let incs = [sh.join("models/herd"), sh.join("models/lkmm"), herd_root(&sh)];
    let mut cfgs = Vec::new();
    let mut stack = vec![sh.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "cfg") {
                cfgs.push(p);
            }
        }
    }
    let mut named_models = 0;
    for c in &cfgs {
        let spec = ModelSpec { conf: Some(s(c)), ..ModelSpec::default() };
        let p = litsat::cat::load_or(&spec, &incs, Some("sc"))
            .unwrap_or_else(|d| panic!("{}: {d}", c.display()))
            .expect("a model, at worst the fallback");
        named_models += usize::from(p.root != "<bundled>/sc.cat");
    }
    println!("{} cfg files loaded, {named_models} naming their own model", cfgs.len());
    assert!(cfgs.len() >= 38 && named_models >= 5, "{} cfgs, {named_models} with a model", cfgs.len());
}

/// `hexa true` in a cfg prints values as herd's `-hexa` does, the same as `--hexa`.
#[test]
fn hexa_from_a_cfg_or_the_command_line_prints_hexadecimal() {
    let cwd = scratch("hexa");
    write(&cwd, "h.cfg", "hexa true\n");
    let untimed = |log: String| log.lines().filter(|l| !l.starts_with("Time ")).collect::<Vec<_>>().join("\n");
    let (code, by_cfg, err) = check_in(&cwd, None, &["--conf", "h.cfg"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        by_cfg.contains("0:EAX=0x1; 1:EAX=0x0;") && by_cfg.contains("exists (0:EAX=0x0 /\\ 1:EAX=0x0)"),
        "{by_cfg}"
    );
    let (_, by_flag, _) = check_in(&cwd, None, &["--hexa"]);
    assert_eq!(untimed(by_cfg), untimed(by_flag));
    write(&cwd, "d.cfg", "hexa false\n");
    let (_, decimal, _) = check_in(&cwd, None, &["--conf", "d.cfg"]);
    assert!(decimal.contains("0:EAX=1; 1:EAX=0;"), "{decimal}");
}

/// `nonames` and `oknames` select tests by name, as herd's options do.
#[test]
fn a_cfg_selects_tests_by_name() {
    let cwd = scratch("names");
    let other = write(&cwd, "SB2.litmus", &SB.replace("X86 SB", "X86 SB2"));
    let names = |cfg: &str| {
        write(&cwd, "n.cfg", cfg);
        let (code, out, err) = check_in(&cwd, None, &["--conf", "n.cfg", &s(&other)]);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .filter_map(|l| l.strip_prefix("Observation ")?.split(' ').next().map(str::to_string))
            .collect::<Vec<_>>()
    };
    assert_eq!(names("nonames SB\n"), ["SB2"]);
    assert_eq!(names("oknames SB2,SB\nnonames SB2\n"), ["SB"]);
    assert_eq!(names("graph columns\n"), ["SB2", "SB"]);
}
