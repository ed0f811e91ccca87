//! File-level work shared by the subcommands: expanding inputs and running one test file.

use litsat::cat::ChooseModel;
use litsat::cat::cfg::Settings;
use litsat::diag::Diag;
use litsat::litmus::parse_test;
use litsat::query::{self, Options, Outcome};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Expands `FILE`, `DIR` (all `.litmus` files below it, sorted) and `@LIST` (one path a
/// line, relative to the list's folder; blanks and `#` comments skipped). A path ending
/// in `.litmus` is taken for a file without asking the file system: on a corpus of small
/// tests, the kernel's path lookups were a sixth of the CPU time, and this was one of two
/// per test.
pub fn collect_inputs(args: &[String]) -> Result<Vec<PathBuf>, Diag> {
    let mut out = Vec::new();
    for a in args {
        if let Some(list) = a.strip_prefix('@') {
            let text = std::fs::read_to_string(list).map_err(|e| Diag::file(list, format!("cannot read list: {e}")))?;
            let base = Path::new(list).parent().unwrap_or(Path::new("")).to_path_buf();
            for line in text.lines() {
                let l = line.trim();
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let p = base.join(l);
                if is_dir(&p) {
                    walk(&p, &mut out);
                } else {
                    out.push(p);
                }
            }
        } else {
            let p = PathBuf::from(a);
            if is_dir(&p) {
                walk(&p, &mut out);
            } else {
                out.push(p);
            }
        }
    }
    Ok(out)
}

/// Whether an input names a folder to walk (see [`collect_inputs`]).
fn is_dir(p: &Path) -> bool {
    p.extension().is_none_or(|x| x != "litmus") && p.is_dir()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                found.push(p);
            }
        }
    }
    found.sort();
    out.extend(found);
}

/// The name `--dimacs` gives each input's files (`DIR/NAME.q1.cnf`): the test file's name
/// without `.litmus`, or, where other inputs share it, that name under as many of its
/// folders as tell it apart (`ATOM/SB`, a subfolder of DIR). Computed over the whole input
/// list before any test runs, so that no test overwrites another's files and each file's
/// name does not depend on which worker finishes first.
pub fn dimacs_names(files: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = files.iter().map(|f| name_parts(f)).collect();
    let tail = |p: &[String], k: usize| p[p.len().saturating_sub(k)..].join("/");
    let mut names: Vec<Option<String>> = vec![None; files.len()];
    let longest = parts.iter().map(Vec::len).max().unwrap_or(0);
    for k in 1..=longest {
        if names.iter().all(Option::is_some) {
            break;
        }
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for p in &parts {
            *count.entry(tail(p, k)).or_default() += 1;
        }
        for (name, p) in names.iter_mut().zip(&parts).filter(|(n, _)| n.is_none()) {
            let t = tail(p, k);
            if count[&t] == 1 || p.len() <= k {
                *name = Some(t);
            }
        }
    }
    names.into_iter().map(Option::unwrap_or_default).collect()
}

/// A test file's path as names: its folders (`.`, `..` and the root left out), then the
/// file's name without `.litmus`.
fn name_parts(f: &Path) -> Vec<String> {
    let mut parts: Vec<String> = f
        .parent()
        .into_iter()
        .flat_map(|d| d.components())
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().to_string()),
            _ => None,
        })
        .collect();
    let stem = f.file_stem().map(|s| s.to_string_lossy().to_string());
    parts.push(stem.unwrap_or_else(|| "_".to_string()));
    parts
}

/// The options to answer each input with: `opts`, and under `--dimacs` each input's
/// name from [`dimacs_names`].
pub fn per_input(files: &[PathBuf], opts: &Options) -> Vec<Options> {
    if opts.dimacs.is_none() {
        return vec![opts.clone(); files.len()];
    }
    dimacs_names(files).into_iter().map(|n| opts.clone().dimacs_name(Some(n))).collect()
}

/// Hands `sink` each input's result in input order, as soon as it and every result
/// before it are made, so that a corpus's output appears as it is answered and only
/// results that came early are held (holding every log until the last test grew the
/// heap by a page every few tests). On one thread the inputs are answered in order here;
/// on more, the worker that completes the next result in order passes on every result
/// that was waiting for it.
pub fn for_each_input<T: Send>(
    files: &[PathBuf],
    opts: &[Options],
    f: impl Fn(&Path, &Options) -> T + Sync + Send,
    mut sink: impl FnMut(T) + Send,
) {
    if files.len() <= 1 || rayon::current_num_threads() == 1 {
        files.iter().zip(opts).for_each(|(p, o)| sink(f(p, o)));
        return;
    }
    // The index of the next result to pass on, the results waiting for it, and the sink.
    let state = std::sync::Mutex::new((0, BTreeMap::new(), sink));
    files.par_iter().zip(opts).enumerate().for_each(|(k, (p, o))| {
        let r = f(p, o);
        // A sink that panicked has ended the run already (rayon passes the panic on).
        let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
        let (next, waiting, sink) = &mut *guard;
        waiting.insert(k, r);
        while let Some(r) = waiting.remove(next) {
            sink(r);
            *next += 1;
        }
    });
}

/// The inputs herd's test selection keeps (a cfg's `oknames` and `nonames`, by the name on
/// a test's first line). Only where the cfg selects is each file read for its name here;
/// a file that cannot be read or parsed is kept, so that its error is reported.
pub fn select(files: Vec<PathBuf>, settings: &Settings) -> Vec<PathBuf> {
    select_renamed(files, settings, &|n| n)
}

/// [`select`] by each test's name as `rename` gives it (herd7's `-rename`).
pub fn select_renamed(files: Vec<PathBuf>, settings: &Settings, rename: &dyn Fn(String) -> String) -> Vec<PathBuf> {
    if settings.oknames.is_empty() && settings.nonames.is_empty() {
        return files;
    }
    let keeps = |f: &PathBuf| {
        let name = f.to_string_lossy();
        let text = read(f).map(|b| String::from_utf8_lossy(&b).into_owned());
        text.ok().and_then(|t| parse_test(&name, &t).ok()).is_none_or(|t| settings.selects(&rename(t.name)))
    };
    files.into_iter().filter(keeps).collect()
}

pub struct FileResult {
    pub path: PathBuf,
    pub outcome: Result<Outcome, Diag>,
    pub seconds: f64,
}

/// Reads, parses and answers one test file.
pub fn check_file(path: &Path, models: &(impl ChooseModel + ?Sized), opts: &Options) -> FileResult {
    check_file_with(path, models, opts, &|_| {})
}

/// [`check_file`], with `edit` applied to the test once parsed (herd7's `-rename`,
/// `-conds` and `-kinds`, which set a test's name, condition and quantifier by its name).
pub fn check_file_with(
    path: &Path,
    models: &(impl ChooseModel + ?Sized),
    opts: &Options,
    edit: &dyn Fn(&mut litsat::litmus::ast::Test),
) -> FileResult {
    let start = Instant::now();
    let name = path.to_string_lossy().to_string();
    let outcome = match read(path) {
        Err(e) => Err(Diag::file(&name, format!("cannot read: {e}"))),
        Ok(bytes) => {
            // Valid UTF-8 (nearly every file) is taken as it is, without a lossy copy.
            let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            parse_test(&name, &text).and_then(|mut t| {
                edit(&mut t);
                // The only error in choosing a model: none given, none bundled for the arch.
                let hint = |mut d: Diag| {
                    d.message.push_str(": name one with -m");
                    d
                };
                if let Some(note) = models.note(&t) {
                    note_once(&note);
                }
                models.for_test(&t, &name).map_err(hint).and_then(|prog| query::run(t, &name, &text, prog, opts))
            })
        }
    };
    FileResult { path: path.to_path_buf(), outcome, seconds: start.elapsed().as_secs_f64() }
}

/// Prints `note` on standard error, once per run whatever the note: it concerns the
/// run's choice of model, the same for every test it applies to.
fn note_once(note: &str) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        crate::out::eprint_line(&format!("litsat: note: {note}"));
    }
}

/// A file's bytes, read without asking for its size and position first (`std::fs::read`
/// and `File`'s own `read_to_end` do, in two system calls): a test file fits the first
/// buffer nearly always. `take` hides the `File`, so the generic reading loop runs.
fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(16 << 10);
    open(path)?.take(u64::MAX).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens a test file by its name in its directory, which stays open from one file to the
/// next: a corpus lists thousands of files from a few directories, and the kernel's walk
/// of every component of each full path was over 1% of a run's CPU time. The
/// directory is the thread's last one; a path with no directory part, or whose last part
/// is not a name, is opened whole.
#[cfg(target_os = "linux")]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use rustix::fs::{Mode, OFlags};
    use std::cell::RefCell;
    use std::os::fd::OwnedFd;
    use std::os::unix::ffi::OsStrExt;
    thread_local! {
        static DIR: RefCell<Option<(Vec<u8>, OwnedFd)>> = const { RefCell::new(None) };
    }
    let bytes = path.as_os_str().as_bytes();
    let split = bytes.iter().rposition(|&b| b == b'/').map(|at| (&bytes[..at.max(1)], &bytes[at + 1..]));
    let Some((dir, name)) = split.filter(|(_, name)| !matches!(*name, b"" | b"." | b"..")) else {
        return std::fs::File::open(path);
    };
    DIR.with_borrow_mut(|last| {
        if last.as_ref().is_none_or(|(d, _)| d != dir) {
            let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            *last = rustix::fs::open(dir, flags, Mode::empty()).ok().map(|fd| (dir.to_vec(), fd));
        }
        // Where opening by name fails (the directory replaced since, say), the whole path
        // decides, and gives the error.
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        match last.as_ref().map(|(_, fd)| rustix::fs::openat(fd, name, flags, Mode::empty())) {
            Some(Ok(fd)) => Ok(fd.into()),
            _ => std::fs::File::open(path),
        }
    })
}

#[cfg(not(target_os = "linux"))]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// What stderr says of a test's loops: herd's warning when executions were cut off by the
/// unrolling bound (naming the loops), and under `--unroll auto` the bound it took.
pub fn loop_note(path: &Path, o: &Outcome) -> Option<String> {
    let at = o.cut_at.iter().cloned().collect::<Vec<_>>().join(", ");
    let p = path.display();
    match (o.looped, o.unroll) {
        (true, None) => Some(format!("Warning: {p}: unrolling limit exceeded at {at}, legal outcomes may be missing")),
        (true, Some(n)) => Some(format!(
            "Warning: {p}: --unroll auto stopped at bound {n} with executions still going past it at {at}; legal outcomes may be missing"
        )),
        (false, Some(n)) => Some(format!("Note: {p}: every execution ends within {n} iterations of each loop")),
        (false, None) => None,
    }
}

/// A diagnostic as people read it: with the source line it points at, when the file (or
/// bundled model) can be read. A diagnostic that is not about a place in a file gets no
/// invented `:1:1` but reads as the command's own error (see `not_located`), and a C
/// test stopped by one of the kernel's macros gets a hint to use its model.
pub fn render(d: &Diag) -> String {
    let text = source_of(d);
    if let Some(line) = not_located(d, text.is_some()) {
        return line;
    }
    let mut out = d.render(text.as_deref());
    if let Some(hint) = lkmm_hint(d) {
        out.push('\n');
        out.push_str(&hint);
    }
    out
}

/// The text a diagnostic points into: its file, or the bundled model it names.
fn source_of(d: &Diag) -> Option<String> {
    match d.file.strip_prefix("<bundled>/") {
        Some(name) => litsat::cat::load::BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string()),
        None => std::fs::read(&d.file).ok().map(|b| String::from_utf8_lossy(&b).to_string()),
    }
}

/// `litsat: error: …` for a diagnostic that names no place in a file: one about the
/// command line (its `file` is the command, `litsat gen`), or about a name that is no
/// readable file (`-m nosuch`, a missing test), where `:1:1` would be invented. The
/// name is kept in front unless the message already quotes it.
fn not_located(d: &Diag, readable: bool) -> Option<String> {
    if d.file == "litsat" || d.file.starts_with("litsat ") {
        return Some(format!("litsat: error: {}", d.message));
    }
    if readable || (d.line, d.col) != (1, 1) || d.file.starts_with("<bundled>/") {
        return None;
    }
    let quoted = [format!("'{}'", d.file), format!("\"{}\"", d.file), format!("`{}`", d.file)];
    if quoted.iter().any(|q| d.message.contains(q.as_str())) {
        Some(format!("litsat: error: {}", d.message))
    } else {
        Some(format!("litsat: error: {}: {}", d.file, d.message))
    }
}

/// The Linux kernel's macros and primitives that its memory model (`-m lkmm`) defines in
/// linux-kernel.def and C11 does not.
const LKMM_NAMES: &[&str] = &[
    "READ_ONCE",
    "WRITE_ONCE",
    "smp_load_acquire",
    "smp_store_release",
    "smp_store_mb",
    "smp_mb",
    "smp_rmb",
    "smp_wmb",
    "smp_mb__before_atomic",
    "smp_mb__after_atomic",
    "smp_mb__after_spinlock",
    "smp_mb__after_unlock_lock",
    "smp_mb__after_srcu_read_unlock",
    "barrier",
    "rcu_read_lock",
    "rcu_read_unlock",
    "rcu_dereference",
    "rcu_assign_pointer",
    "synchronize_rcu",
    "synchronize_rcu_expedited",
    "call_rcu",
    "srcu_read_lock",
    "srcu_read_unlock",
    "srcu_down_read",
    "srcu_up_read",
    "synchronize_srcu",
    "synchronize_srcu_expedited",
    "spin_lock",
    "spin_unlock",
    "spin_trylock",
    "spin_is_locked",
    "xchg",
    "xchg_relaxed",
    "xchg_acquire",
    "xchg_release",
    "cmpxchg",
    "cmpxchg_relaxed",
    "cmpxchg_acquire",
    "cmpxchg_release",
    "atomic_read",
    "atomic_set",
    "atomic_read_acquire",
    "atomic_set_release",
    "atomic_add",
    "atomic_sub",
    "atomic_inc",
    "atomic_dec",
    "atomic_xchg",
    "atomic_cmpxchg",
    "atomic_add_return",
    "atomic_sub_return",
    "atomic_inc_return",
    "atomic_dec_return",
    "atomic_fetch_add",
    "atomic_fetch_sub",
    "atomic_fetch_inc",
    "atomic_fetch_dec",
    "atomic_inc_and_test",
    "atomic_dec_and_test",
    "atomic_add_unless",
    "atomic_sub_and_test",
    "atomic_add_negative",
];

/// The hint for a C test that stopped on one of the kernel's names (`WRITE_ONCE`): it
/// was read without linux-kernel.def, the kernel's model.
fn lkmm_hint(d: &Diag) -> Option<String> {
    let name = d.message.split('`').nth(1)?;
    let known = d.message.starts_with("unknown macro or primitive") && LKMM_NAMES.contains(&name);
    known.then(|| {
        format!("  help: `{name}` is a Linux-kernel macro: check the test under the kernel's model, `-m lkmm`")
    })
}

/// Writes a diagnostic to standard error as people read it (see [`render`]).
pub fn report(d: &Diag) {
    crate::out::eprint_line(&render(d));
}

/// Says that `inputs` held no test, for a command that was given nothing to do: a typo
/// in a folder's name should not pass for a clean run. The exit status is 1.
pub fn nothing_found(inputs: &[String]) -> std::process::ExitCode {
    crate::out::eprint_line(&format!("litsat: error: no .litmus file found in {}", inputs.join(", ")));
    std::process::ExitCode::from(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results reach the sink in input order, on one thread and on several, where later
    /// inputs are answered first.
    #[test]
    fn results_are_passed_on_in_input_order() {
        let files: Vec<PathBuf> = (0..40).map(|k| PathBuf::from(format!("{k}.litmus"))).collect();
        let opts = vec![Options::default(); files.len()];
        // Early inputs take longest, so that on two threads later ones finish first.
        let answer = |p: &Path, _: &Options| {
            let k: u64 = p.file_stem().and_then(|s| s.to_str()).and_then(|s| s.parse().ok()).expect("a number");
            std::thread::sleep(std::time::Duration::from_micros(40 * (40 - k)));
            k
        };
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            let mut seen = Vec::new();
            pool.install(|| for_each_input(&files, &opts, answer, |k| seen.push(k)));
            assert_eq!(seen, (0..40).collect::<Vec<u64>>(), "{threads} thread(s)");
        }
    }

    /// Files read through the kept directory are the files their paths name, whichever
    /// directory the last one was in, and a missing one fails as opening it whole does.
    #[test]
    fn files_are_read_by_name_in_the_last_directory() {
        let root = std::env::temp_dir().join(format!("litsat-read-{}", std::process::id()));
        let (one, two) = (root.join("one"), root.join("two"));
        std::fs::create_dir_all(&one).unwrap();
        std::fs::create_dir_all(&two).unwrap();
        for (dir, name) in [(&one, "a"), (&one, "b"), (&two, "a")] {
            std::fs::write(dir.join(name), format!("{}/{name}", dir.display())).unwrap();
        }
        let order = [one.join("a"), one.join("b"), two.join("a"), one.join("a"), root.join("one/../two/a")];
        for path in &order {
            let want = std::fs::read(path).unwrap();
            assert_eq!(read(path).unwrap(), want, "{}", path.display());
        }
        let missing = one.join("c");
        let (ours, std) = (read(&missing).unwrap_err(), std::fs::read(&missing).unwrap_err());
        assert_eq!((ours.kind(), ours.to_string()), (std.kind(), std.to_string()));
        assert!(read(&one).is_err(), "a directory is not a test file");
        // The kept directory replaced by another of its name: the file there is read.
        read(&one.join("a")).unwrap();
        std::fs::remove_dir_all(&one).unwrap();
        std::fs::create_dir_all(&one).unwrap();
        std::fs::write(one.join("a"), "replaced").unwrap();
        assert_eq!(read(&one.join("a")).unwrap(), b"replaced");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn dimacs_names_keep_the_folders_that_tell_inputs_apart() {
        let files: Vec<PathBuf> = [
            "../c/AARCH64/ATOM/SB.litmus",
            "../c/AARCH64/LDAR/SB.litmus",
            "../c/AARCH64/MP.litmus",
            "/x/a/deep/CoRR.litmus",
            "/x/b/deep/CoRR.litmus",
            "SB.litmus",
            "ATOM/SB.litmus",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let names = dimacs_names(&files);
        let want = ["AARCH64/ATOM/SB", "LDAR/SB", "MP", "a/deep/CoRR", "b/deep/CoRR", "SB", "ATOM/SB"];
        assert_eq!(names, want);
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
    }
}
