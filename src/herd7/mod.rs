//! litsat as a drop-in `herd7`: the binary run under the name `herd7` (a symlink or a
//! copy), or `litsat herd7 ARGS…`, reads herd's own command line ([`opts`]) and prints
//! herd's log on standard output, so that scripts written for herd (the Linux kernel's
//! `tools/memory-model/scripts`, herdtools' regression harness) run unchanged.
//!
//! Exit status as herd 7.58's: 2 for a bad command line or a model that cannot be read;
//! otherwise 0, unless `-exit true`, under which the first test that fails (cannot be
//! read, parsed or answered) ends the run with status 1. A test stopped by `-timeout`
//! prints no log and is no failure, as in herd.

pub mod inputs;
pub mod maps;
pub mod opts;

use crate::cli::args::{ModelArgs, Unroll, setup_herd7};
use crate::driver::{check_file_with, for_each_input, per_input, report, select_renamed};
use crate::out::eprint_line;
use litsat::diag::{Diag, DiagKind};
use litsat::litmus::ast::{CondKind, Condition};
use litsat::report::herd_log;
use opts::{HerdArgs, Parsed, Show};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Whether the program was started under the name `herd7` (its file name, `.exe` aside).
pub fn called_herd7(argv0: &std::ffi::OsStr) -> bool {
    Path::new(argv0).file_stem().is_some_and(|s| s == "herd7")
}

/// Runs herd7's command line `args` (without the program name).
pub fn main(args: Vec<String>) -> ExitCode {
    let h = match opts::parse(&args) {
        Ok(Parsed::Run(h)) => h,
        Ok(Parsed::Print(text)) => {
            crate::out::print(&format!("{text}\n"));
            return ExitCode::SUCCESS;
        }
        Err(m) => return usage_error(&m),
    };
    if h.confs.len() > 1 {
        return usage_error(&format!(
            "litsat reads one configuration file, and was given {} (from -conf, -web, -c11).",
            h.confs.join(", ")
        ));
    }
    let drain = inputs::drain_stdin(!h.tests.is_empty());
    let code = run(&h);
    inputs::finish_drain(drain);
    code
}

/// herd's answer to a bad command line: the message naming the option, exit status 2.
fn usage_error(m: &str) -> ExitCode {
    eprint_line(&format!("herd7: {m}\nUse 'herd7 -help' for the list of options."));
    ExitCode::from(2)
}

/// herd's options as litsat's: `-set-libdir`'s folder searched after the `-I` ones.
fn model_args(h: &HerdArgs) -> ModelArgs {
    ModelArgs {
        model: h.model.clone(),
        conf: h.confs.first().cloned(),
        bell: h.bell.clone(),
        macros: h.macros.clone(),
        include: h.includes.iter().chain(&h.libdir).cloned().collect(),
        variant: h.variants.clone(),
        skipchecks: h.skipchecks.clone(),
        through: h.through,
        throughflag: h.throughflag.clone(),
        checkfilter: h.checkfilter,
        timeout: h.timeout,
        max_events: None,
        fast: false,
        speedcheck: Some(h.speed),
        strictskip: h.strictskip,
        candidates: h.candidates,
        outcomereads: h.outcomereads,
        certify: false,
        dimacs: None,
        unroll: h.unroll.map(Unroll::Bound),
        count_after: None,
        hexa: h.hexa,
        jobs: None,
    }
}

/// What a run needs before its first test: the model, the options, the selected test
/// files and the `-kinds` table. Any failure here is herd's exit status 2.
type Prepared = (litsat::cat::Models, litsat::query::Options, Vec<PathBuf>, Edits);

/// What herd's map files change in a test, by its name: `-rename`, then `-conds` and
/// `-kinds` by the new name (herd renames a test as it splits it, then parses it).
struct Edits {
    rename: BTreeMap<String, String>,
    conds: BTreeMap<String, Condition>,
    kinds: BTreeMap<String, CondKind>,
}

impl Edits {
    fn name(&self, name: String) -> String {
        self.rename.get(&name).cloned().unwrap_or(name)
    }

    fn apply(&self, t: &mut litsat::litmus::ast::Test) {
        t.name = self.name(std::mem::take(&mut t.name));
        if let Some(c) = self.conds.get(&t.name) {
            t.cond = c.clone();
        }
        // The test's quantifier, over the same proposition.
        if let Some(&k) = self.kinds.get(&t.name) {
            t.cond.kind = k;
        }
    }
}

fn prepare(h: &HerdArgs) -> Result<Prepared, Diag> {
    let (prog, opts) = setup_herd7(&model_args(h))?;
    let mut settings = prog.settings();
    // The cfg's per-test files come first, as its `-conf` comes before the options
    // that follow it on herd's command line.
    let cfg = std::mem::take(&mut settings.maps);
    let both = |c: Vec<String>, own: &[String]| -> Vec<String> { c.into_iter().chain(own.iter().cloned()).collect() };
    inputs::selection(h, &both(cfg.names, &h.names), &both(cfg.excl, &h.excl), &mut settings)?;
    let edits = Edits {
        rename: maps::renames(&both(cfg.rename, &h.rename))?,
        conds: maps::conds(&both(cfg.conds, &h.conds))?,
        kinds: maps::kinds(&both(cfg.kinds, &h.kinds))?,
    };
    let files = select_renamed(inputs::test_names(&h.tests)?, &settings, &|n| edits.name(n));
    Ok((prog, opts, files, edits))
}

fn run(h: &HerdArgs) -> ExitCode {
    let (prog, opts, files, edits) = match prepare(h) {
        Ok(x) => x,
        Err(d) => {
            report(&d);
            return ExitCode::from(2);
        }
    };
    let edit = |t: &mut litsat::litmus::ast::Test| edits.apply(t);
    let per_input = per_input(&files, &opts);
    let mut out = crate::out::buffered();
    let answer = |f: &Path, o: &litsat::query::Options| {
        let r = check_file_with(f, &prog, o, &edit);
        let log = r.outcome.map(|o| {
            let shown = !(h.no_badexecs && bad(h, &o));
            (shown.then(|| herd_log(&o, r.seconds)), crate::driver::loop_note(&r.path, &o), o.incomplete)
        });
        (r.path, log)
    };
    for_each_input(&files, &per_input, answer, |(path, log)| {
        let problem = match log {
            Ok((log, note, None)) => {
                // herd's `-badexecs false`: a test with a bad execution prints nothing.
                let Some(log) = log else { return };
                let _ = writeln!(out, "{log}");
                let _ = out.flush();
                if let Some(note) = note.filter(|_| !h.quiet) {
                    eprint_line(&note);
                }
                // A graph that cannot be written is herd's warning, not a failure.
                if let Some(Err(d)) = h.outdir.as_ref().map(|dir| graph(h, &prog, &opts, &path, dir)) {
                    report(&d);
                }
                None
            }
            // Stopped by a limit: herd prints no log for such a test, and it is no failure.
            Ok((_, _, Some(d))) => {
                limit_note(h, &d);
                None
            }
            Err(d) if d.kind == DiagKind::Limit => {
                limit_note(h, &d);
                None
            }
            Err(d) => Some(d),
        };
        if let Some(d) = problem {
            let _ = out.flush();
            // herd's one-line warning first, where scripts look for it; then litsat's.
            eprint_line(&d.herd_warning());
            report(&d);
            if h.exit {
                std::process::exit(1);
            }
        }
    });
    let _ = out.flush();
    ExitCode::SUCCESS
}

/// Whether some execution of the test is bad, as herd's `-badexecs` sees it: undefined,
/// or raising the `-badflag` flag.
fn bad(h: &HerdArgs, o: &litsat::query::Outcome) -> bool {
    o.flags.contains(litsat::query::UNDEF_FLAG) || h.badflag.as_ref().is_some_and(|f| o.flags.contains(f))
}

/// Says on standard error (unless `-q`) that a limit stopped a test.
fn limit_note(h: &HerdArgs, d: &Diag) {
    if !h.quiet {
        report(d);
    }
}

/// Writes `DIR/BASE<suffix>.dot` for one test under `-o DIR`, named as herd names it (the
/// test file's name without its extension): litsat's drawing of one execution where
/// `-show` asks for some, an empty file under `-show none` or `-nshow 0`.
fn graph(
    h: &HerdArgs,
    prog: &litsat::cat::Models,
    opts: &litsat::query::Options,
    path: &Path,
    dir: &Path,
) -> Result<(), Diag> {
    let base = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    let file: PathBuf = dir.join(format!("{base}{}.dot", h.suffix));
    let text = if h.show == Show::None || h.nshow == Some(0) {
        String::new()
    } else {
        litsat::explain::dot::render(&litsat::explain::explain_file(path, prog, opts)?)
    };
    std::fs::write(&file, text).map_err(|e| Diag::file(&file.to_string_lossy(), format!("Cannot create: {e}")))
}

/// What `-help` prints: the options and what litsat does with each.
pub fn help() -> String {
    let mut s = String::from("Usage: herd7 [options] [test]*  (litsat as herd7)\n\n");
    for r in opts::TABLE {
        let arg = if r.arg { " <arg>" } else { "" };
        let what = match r.act {
            opts::Act::Take => "herd's meaning".to_string(),
            opts::Act::Default(d) => format!("herd's default only: {d}"),
            opts::Act::Display => "display setting, accepted and unused".to_string(),
            opts::Act::Refuse(why) => format!("refused: {why}"),
        };
        s.push_str(&format!("  {:<28}{what}\n", format!("{}{arg}", r.name)));
    }
    s
}
