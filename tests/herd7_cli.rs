//! litsat as `herd7` (issue #39): herd's command line read as herd reads it, option by
//! option, test names from standard input, and herd's exit status.

mod common;

use litsat_cli::herd7::opts::{Act, TABLE};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn litsat() -> &'static str {
    env!("CARGO_BIN_EXE_litsat")
}

fn sb() -> String {
    common::root().join("litmus/x86/SB.litmus").display().to_string()
}

fn mp() -> String {
    common::root().join("litmus/x86/MP.litmus").display().to_string()
}

/// Runs `litsat herd7 ARGS` in `dir` with `stdin` on standard input.
fn herd7_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(litsat())
        .arg("herd7")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("litsat runs");
    let mut input = child.stdin.take().expect("a pipe");
    // A run that has already ended has closed the pipe: that is no failure here.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("litsat ends")
}

fn herd7(args: &[&str]) -> Output {
    herd7_in(common::root(), args, "")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).to_string()
}

/// The `Observation` lines of a log.
fn observations(o: &Output) -> Vec<String> {
    text(&o.stdout).lines().filter(|l| l.starts_with("Observation")).map(String::from).collect()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litsat-herd7-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temp folder");
    d
}

#[test]
fn started_as_herd7_it_reads_herds_command_line() {
    let dir = temp("argv0");
    let link = dir.join("herd7");
    #[cfg(unix)]
    std::os::unix::fs::symlink(litsat(), &link).expect("a symlink");
    #[cfg(not(unix))]
    std::fs::copy(litsat(), &link).expect("a copy");
    let o = Command::new(&link).args(["-model", "tso", &sb()]).output().expect("herd7 runs");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(observations(&o), ["Observation SB Sometimes 1 3"]);
    // `-model sc` is read as herd reads it, not as `-m odel`.
    let o = Command::new(&link).args(["-model", "sc", &sb()]).output().expect("herd7 runs");
    assert_eq!(observations(&o), ["Observation SB Never 0 3"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_command_line_names_the_option_and_exits_2() {
    for (args, word) in [
        (vec!["-m", "tso"], "'-m'"),
        (vec!["-strictskip", "maybe"], "'-strictskip'"),
        (vec!["-rename", "no/such/map.txt"], "no/such/map.txt"),
        (vec!["-conds", "no/such/conds.txt"], "no/such/conds.txt"),
        (vec!["-exit", "maybe"], "'-exit'"),
        (vec!["-speedcheck", "slow"], "'-speedcheck'"),
        (vec!["-switch"], "'-switch'"),
        (vec!["-conf", "a.cfg", "-c11"], "one configuration file"),
        // herd's -variant takes its own names only ("dic" is a CacheType= feature).
        (vec!["-model", "tso", "-variant", "ets2,bogus"], "tag bogus for -variant is wrong"),
        (vec!["-model", "tso", "-variant", "dic"], "tag dic for -variant"),
    ] {
        let mut all = args.clone();
        all.push("SB.litmus");
        let o = herd7(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o.stderr).contains(word), "{args:?}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "{args:?}: nothing runs");
    }
    let o = herd7(&["SB.litmus", "-model"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("'-model' needs an argument"), "{}", text(&o.stderr));
}

#[test]
fn exit_status_is_herds_with_and_without_exit_true() {
    let (sb, missing) = (sb(), "no/such/test.litmus".to_string());
    // Without -exit true, a test that fails is reported and the run goes on, status 0.
    let o = herd7(&["-model", "tso", &missing, &sb]);
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stderr).contains("no/such/test.litmus"), "{}", text(&o.stderr));
    assert_eq!(observations(&o), ["Observation SB Sometimes 1 3"]);
    // With it, the first failure ends the run, status 1.
    let o = herd7(&["-model", "tso", "-exit", "true", &missing, &sb]);
    assert_eq!(o.status.code(), Some(1));
    assert!(observations(&o).is_empty());
    let o = herd7(&["-model", "tso", "-exit", "true", &sb]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn test_names_come_from_standard_input_and_lists() {
    let dir = temp("stdin");
    // With no test named, standard input names them, one a line; `#` lines are skipped.
    let o = herd7_in(&dir, &["-model", "tso"], &format!("# tests\n{}\n\n{}\n", sb(), mp()));
    assert_eq!(observations(&o), ["Observation SB Sometimes 1 3", "Observation MP Never 0 3"]);
    // An @LIST names tests relative to its own folder.
    let x86 = common::root().join("litmus/x86");
    std::fs::write(dir.join("list"), format!("{}/MP.litmus\nno-such.litmus\n", x86.display())).unwrap();
    let o = herd7_in(&dir, &["-model", "tso", "@list"], "");
    assert_eq!(observations(&o), ["Observation MP Never 0 3"]);
    assert!(text(&o.stderr).contains("no-such.litmus"), "a missing test is reported");
    // Tests on the command line: standard input is read to its end but names nothing more.
    let many = format!("{}\n", sb()).repeat(20_000);
    let o = herd7_in(&dir, &["-model", "tso", &mp()], &many);
    assert!(o.status.success());
    assert_eq!(observations(&o), ["Observation MP Never 0 3"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_selection_is_herds() {
    let dir = temp("select");
    let (sb, mp) = (sb(), mp());
    let obs = |args: &[&str]| {
        let mut all = vec!["-model", "tso"];
        all.extend_from_slice(args);
        all.extend_from_slice(&[&sb, &mp]);
        observations(&herd7_in(&dir, &all, ""))
            .iter()
            .map(|l| l.split(' ').nth(1).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(obs(&["-oknames", "MP"]), ["MP"]);
    assert_eq!(obs(&["-nonames", "MP,XX"]), ["SB"]);
    std::fs::write(dir.join("names"), "SB some comment\n").unwrap();
    assert_eq!(obs(&["-names", "names"]), ["SB"]);
    assert_eq!(obs(&["-excl", "names"]), ["MP"]);
    assert_eq!(obs(&["-oknames", "MP", "-names", "names"]), ["SB", "MP"]);
    // -kinds sets a test's quantifier by its name, over the same proposition.
    std::fs::write(dir.join("kinds"), "# kinds\nSB Forbid\nMP ---\n").unwrap();
    let o = herd7_in(&dir, &["-model", "tso", "-kinds", "kinds", &sb, &mp], "");
    let log = text(&o.stdout);
    assert!(log.contains("Test SB Forbidden") && log.contains("Condition ~exists"), "{log}");
    assert!(log.contains("Test MP Forbidden"), "{log}");
    std::fs::write(dir.join("kinds"), "SB Maybe\n").unwrap();
    let o = herd7_in(&dir, &["-model", "tso", "-kinds", "kinds", &sb], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("Maybe"), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn graphs_are_written_one_per_test_as_herd_names_them() {
    let dir = temp("graphs");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let o = herd7(&["-model", "tso", "-o", &out.display().to_string(), "-show", "prop", "-suffix", "-x", &sb(), &mp()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut files: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    files.sort();
    assert_eq!(files, ["MP-x.dot", "SB-x.dot"]);
    assert!(std::fs::read_to_string(out.join("SB-x.dot")).unwrap().contains("digraph"));
    // -show none: herd still opens the file, and draws nothing in it.
    let o = herd7(&["-model", "tso", "-o", &out.display().to_string(), &sb()]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(out.join("SB.dot")).unwrap(), "");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_take_herds_meaning() {
    let sb = sb();
    // -speedcheck fast: the verdict only, counts 0 0.
    let o = herd7(&["-model", "tso", "-speedcheck", "fast", &sb]);
    assert_eq!(observations(&o), ["Observation SB Sometimes 0 0"]);
    // -skipcheck: the check that forbids SB under sc skipped.
    let o = herd7(&["-model", "sc", "-skipcheck", "sc", &sb]);
    assert_eq!(observations(&o).len(), 1);
    assert!(observations(&o)[0].contains("Sometimes"), "{:?}", observations(&o));
    // -through all (and invalid): every check but the flags passes, so SB's four
    // candidates all reach the final states under sc; -through none applies sc.
    for (through, want) in [("all", "Sometimes 1 3"), ("invalid", "Sometimes 1 3"), ("none", "Never 0 3")] {
        let o = herd7(&["-model", "sc", "-through", through, &sb]);
        assert_eq!(observations(&o), [format!("Observation SB {want}")], "-through {through}");
    }
    let o = herd7(&["-model", "sc", "-through", "all", "-speedcheck", "fast", &sb]);
    assert_eq!(observations(&o), ["Observation SB Sometimes 0 0"]);
    let o = herd7(&["-model", "sc", "-through", "some", &sb]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("-through"), "{}", text(&o.stderr));
    // The same through litsat's own command line and a cfg's `through` key.
    let dir = temp("through");
    std::fs::write(dir.join("t.cfg"), "model sc.cat\nthrough invalid\n").unwrap();
    let check = |args: &[&str]| Command::new(litsat()).arg("check").args(args).arg(&sb).output().expect("runs");
    assert_eq!(observations(&check(&["-m", "sc", "--through", "all"])), ["Observation SB Sometimes 1 3"]);
    let cfg = dir.join("t.cfg").display().to_string();
    assert_eq!(observations(&check(&["-m", &cfg])), ["Observation SB Sometimes 1 3"]);
    // -checkfilter false keeps the executions a filter rejects.
    let filtered = dir.join("SBf.litmus");
    let sb_text = std::fs::read_to_string(&sb).unwrap();
    let (head, cond) = sb_text.split_at(sb_text.find("exists").expect("SB's condition"));
    std::fs::write(&filtered, format!("{head}filter (0:EAX=1)\n{cond}")).unwrap();
    let f = filtered.display().to_string();
    let states = |o: &Output| text(&o.stdout).lines().find(|l| l.starts_with("States")).map(str::to_string);
    let o = herd7(&["-model", "tso", &f]);
    assert_eq!(states(&o).as_deref(), Some("States 2"), "{}", text(&o.stdout));
    let o = herd7(&["-model", "tso", "-checkfilter", "false", &f]);
    assert_eq!(states(&o).as_deref(), Some("States 4"), "{}", text(&o.stdout));
    assert_eq!(observations(&check(&["-m", "tso", "--checkfilter", "false"])).len(), 1);
    // -version and -help print and exit 0.
    let o = herd7(&["-version"]);
    assert!(o.status.success() && text(&o.stdout).starts_with("7.58"));
    let o = herd7(&["-help"]);
    assert!(o.status.success() && text(&o.stdout).contains("-model"));
}

/// Arguments that make each option taken with herd's meaning do its work on SB.
fn take_value(opt: &str, dir: &Path) -> Vec<String> {
    let f = |name: &str| dir.join(name).display().to_string();
    let v: &[&str] = match opt {
        "-set-libdir" | "-I" => return vec![opt.into(), f("")],
        "-exit" | "-hexa" | "-badexecs" | "-showone" | "-checkfilter" => &["true"],
        "-strictskip" | "-candidates" | "-outcomereads" => &["true"],
        "-conds" => return vec![opt.into(), f("conds")],
        "-rename" => return vec![opt.into(), f("rename")],
        "-conf" => return vec![opt.into(), f("t.cfg")],
        "-bell" => return vec![opt.into(), f("t.bell")],
        "-macros" => return vec![opt.into(), f("t.def")],
        "-o" => return vec![opt.into(), f("")],
        "-names" => return vec![opt.into(), f("names")],
        "-kinds" => return vec![opt.into(), f("kinds")],
        "-excl" => return vec![opt.into(), f("others")],
        "-oknames" => &["SB"],
        "-nonames" => &["XX"],
        "-suffix" => &["-s"],
        "-speedcheck" => &["true"],
        "-through" => &["all"],
        "-throughflag" | "-badflag" => &["none"],
        "-variant" => &["ets2"],
        "-timeout" => &["60"],
        "-unroll" | "-nshow" => &["2"],
        "-model" | "-cat" => &["t.cat"],
        "-skipcheck" | "-skipchecks" => &["nothing"],
        "-show" => &["prop"],
        _ => &[],
    };
    std::iter::once(opt.to_string()).chain(v.iter().map(|s| s.to_string())).collect()
}

/// Walks every option of `herd7 -help` (herd 7.58, the shared HERD7-HELP.txt): each is
/// litsat's to take with herd's meaning (SB is answered), a display setting (SB is
/// answered), or refused by name with status 2; none is unknown, none misread (the
/// argument it takes is consumed, never read as a test).
#[test]
fn every_option_of_herds_help_is_taken_displayed_or_refused() {
    let Some(shared) = common::shared_or_skip("herd7's options (HERD7-HELP.txt)") else { return };
    let help = std::fs::read_to_string(shared.join("HERD7-HELP.txt")).expect("HERD7-HELP.txt");
    let dir = temp("walk");
    std::fs::write(dir.join("t.cat"), "\"t\"\nacyclic po | rf | co | fr as sc\n").unwrap();
    std::fs::write(dir.join("t.cfg"), "model t.cat\ngraph columns\n").unwrap();
    std::fs::write(dir.join("web.cfg"), "model t.cat\n").unwrap();
    std::fs::write(dir.join("cpp11.cfg"), "model t.cat\n").unwrap();
    std::fs::write(dir.join("t.bell"), "\"t\"\n").unwrap();
    std::fs::write(dir.join("t.def"), "\n").unwrap();
    std::fs::write(dir.join("names"), "SB\n").unwrap();
    std::fs::write(dir.join("others"), "XX\n").unwrap();
    std::fs::write(dir.join("kinds"), "SB Allowed\n").unwrap();
    std::fs::write(dir.join("conds"), "SB \"exists (0:EAX=1)\"\n").unwrap();
    std::fs::write(dir.join("rename"), "XX YY\n").unwrap();
    let options: Vec<&str> = help
        .lines()
        .filter_map(|l| l.strip_prefix("  ").map(str::trim_start))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with('-'))
        .collect();
    assert!(options.len() > 110, "the help lists herd's options: {}", options.len());
    for opt in options {
        let row = TABLE.iter().find(|r| r.name == opt).unwrap_or_else(|| panic!("{opt} is not in litsat's table"));
        // herd's help shows an argument as <…> after the name (`-q <default>` aside, which
        // takes none, and `-o`, which takes one it does not show).
        let shown = help.lines().any(|l| l.trim_start().starts_with(&format!("{opt} <")));
        assert!(row.arg == (shown && opt != "-q") || opt == "-o", "{opt}: argument taken as herd takes it");
        let mut args = match row.act {
            Act::Take => take_value(opt, &dir),
            Act::Default(d) => vec![opt.to_string(), d.to_string()],
            Act::Display => vec![opt.to_string(), "x".to_string()].into_iter().take(1 + row.arg as usize).collect(),
            Act::Refuse(_) => vec![opt.to_string(), "x".to_string()].into_iter().take(1 + row.arg as usize).collect(),
        };
        args.extend(["-model".to_string(), "tso".to_string(), sb()]);
        // -model/-cat/-conf/-web/-c11 name the model themselves.
        if matches!(opt, "-model" | "-cat" | "-conf" | "-web" | "-c11") {
            args.retain(|a| a != "tso");
            let k = args.iter().rposition(|a| a == "-model").unwrap();
            args.remove(k);
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = herd7_in(&dir, &refs, "");
        let err = text(&o.stderr);
        match row.act {
            Act::Refuse(_) => {
                assert_eq!(o.status.code(), Some(2), "{opt}: refused");
                assert!(err.contains(&format!("'{opt}'")), "{opt}: named in {err}");
            }
            _ if matches!(opt, "-version" | "-libdir" | "-help" | "--help") => {
                assert!(o.status.success() && observations(&o).is_empty(), "{opt} prints and exits");
            }
            _ => {
                assert!(o.status.success(), "{opt}: {err}");
                assert_eq!(observations(&o).len(), 1, "{opt}: SB answered once: {}", text(&o.stdout));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// MP with a plain write and read of `x` under the LKMM: the executions where the reader
/// sees the flag at 0 race on `x` (herd's flag `data-race`), the others do not.
const MP_PLAIN: &str = "C MP+plain\n\n{}\n\nP0(int *x, int *y)\n{\n\t*x = 1;\n\tsmp_store_release(y, 1);\n}\n\n\
P1(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\n\tr0 = smp_load_acquire(y);\n\tr1 = *x;\n}\n\nexists (1:r0=1 /\\ 1:r1=0)\n";

/// `-throughflag F` keeps only the executions flagged F; `-badexecs false` prints nothing
/// for a test with a bad execution (one flagged `-badflag`, or undefined).
#[test]
fn throughflag_and_badexecs_select_by_flags_as_herd() {
    let Some(shared) = common::shared_or_skip("-throughflag and -badexecs under the LKMM") else { return };
    let dir = temp("flags");
    let test = dir.join("MP+plain.litmus");
    std::fs::write(&test, MP_PLAIN).unwrap();
    let t = test.display().to_string();
    let lkmm = shared.join("models/lkmm").display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["-model", "lkmm", "-I", &lkmm];
        args.extend_from_slice(extra);
        args.push(&t);
        herd7(&args)
    };
    assert_eq!(observations(&run(&[])), ["Observation MP+plain Never 0 3"]);
    assert_eq!(observations(&run(&["-throughflag", "data-race"])), ["Observation MP+plain Never 0 2"]);
    assert_eq!(observations(&run(&["-throughflag", "no-such-flag"])), ["Observation MP+plain Never 0 0"]);
    let o = run(&["-badexecs", "false", "-badflag", "data-race"]);
    assert!(o.status.success() && o.stdout.is_empty(), "{}", text(&o.stdout));
    assert_eq!(observations(&run(&["-badexecs", "false"])).len(), 1, "no execution is undefined");
    assert_eq!(observations(&run(&["-badflag", "data-race"])).len(), 1, "-badexecs true prints every test");
}
