//! Which tests a herd7 command line names, read as herd reads them: each argument a test
//! file or an `@LIST` (one name a line, relative to the list's folder, blank and `#`
//! lines skipped, lists within lists); with no argument, names on standard input, one a
//! line. Folders are not walked (herd opens the name as a file). A named file that does
//! not exist is reported when its turn comes, and the run goes on.

use super::opts::HerdArgs;
use litsat::cat::cfg::Settings;
use litsat::diag::Diag;
use std::io::{BufRead, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// The test files `args` names, or standard input's lines when it names none.
pub fn test_names(args: &[String]) -> Result<Vec<PathBuf>, Diag> {
    let mut out = Vec::new();
    if args.is_empty() {
        let lines = std::io::stdin().lock().lines().map_while(Result::ok);
        for line in lines {
            name_line(Path::new(""), &line, &mut out)?;
        }
    } else {
        for a in args {
            one_name(PathBuf::from(a), &mut out)?;
        }
    }
    Ok(out)
}

/// One line of a list (or of standard input), relative to the list's folder `dir`.
fn name_line(dir: &Path, line: &str, out: &mut Vec<PathBuf>) -> Result<(), Diag> {
    let line = line.trim_end_matches('\r');
    if line.is_empty() || line.starts_with('#') {
        return Ok(());
    }
    one_name(dir.join(line), out)
}

/// A test file, or an `@LIST` (by its file name's first character, as herd tells them).
fn one_name(p: PathBuf, out: &mut Vec<PathBuf>) -> Result<(), Diag> {
    let is_list = p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('@'));
    if !is_list {
        out.push(p);
        return Ok(());
    }
    let name = p.file_name().map(|n| n.to_string_lossy()[1..].to_string()).unwrap_or_default();
    let list = p.with_file_name(name);
    let shown = list.to_string_lossy().to_string();
    let text = std::fs::read_to_string(&list).map_err(|e| Diag::file(&shown, format!("open_in failed: {e}")))?;
    let dir = list.parent().unwrap_or(Path::new("")).to_path_buf();
    for line in text.lines() {
        name_line(&dir, line, out)?;
    }
    Ok(())
}

/// Adds the command line's test selection to the cfg's: `-oknames` and the names of
/// the `names` files (the cfg's and `-names`') select, `-nonames` and the names of the
/// `excl` files exclude (a names
/// file holds a test name at the start of each line, as herd's `ReadNames`).
pub fn selection(h: &HerdArgs, names: &[String], excl: &[String], s: &mut Settings) -> Result<(), Diag> {
    s.oknames.extend(h.oknames.iter().cloned());
    s.nonames.extend(h.nonames.iter().cloned());
    for (files, to) in [(names, &mut s.oknames), (excl, &mut s.nonames)] {
        for f in files {
            let text = std::fs::read_to_string(f).map_err(|e| Diag::file(f, format!("open_in failed: {e}")))?;
            let first = |l: &str| l.split(' ').next().unwrap_or_default().trim_end_matches('\r').to_string();
            to.extend(text.lines().map(first).filter(|n| !n.is_empty()));
        }
    }
    // A -names file that names nothing still selects: no test.
    if !names.is_empty() && s.oknames.is_empty() {
        s.oknames.push(String::new());
    }
    Ok(())
}

/// When the tests are named on the command line and standard input is not a terminal,
/// reads standard input to its end on a thread of its own and drops it: herd's
/// regression harness writes the names to the pipe as well, and a `herd7` that exits
/// before it has written them kills it with a broken pipe.
pub fn drain_stdin(tests_given: bool) -> Option<mpsc::Receiver<()>> {
    if !tests_given || std::io::stdin().is_terminal() {
        return None;
    }
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock().take(u64::MAX), &mut std::io::sink());
        let _ = tx.send(());
    });
    Some(rx)
}

/// Waits for [`drain_stdin`]'s thread to reach the end of standard input, at most two
/// seconds: a writer that never closes its end (a shell's inherited pipe) does not keep
/// the run from ending.
pub fn finish_drain(rx: Option<mpsc::Receiver<()>>) {
    if let Some(rx) = rx {
        let _ = rx.recv_timeout(Duration::from_secs(2));
    }
}
