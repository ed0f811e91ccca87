//! Naming the tests that run long. A corpus run can sit on one test for minutes (a full
//! log of a test with millions of executions); without this, a run writing to a file
//! says nothing meanwhile, and the progress bar sits at the same count. On a terminal the
//! bar names them; otherwise standard error does, every [`interval`].

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long a test runs before the progress bar names it.
const BAR_AFTER: Duration = Duration::from_secs(5);

/// The tests being answered now, each with when it started; a test's end moves the
/// progress bar, when there is one.
#[derive(Default)]
pub struct Running {
    list: Mutex<List>,
    bar: Option<indicatif::ProgressBar>,
}

#[derive(Default)]
struct List {
    /// The last test's number.
    last: u64,
    /// Each test running, by number: its path and its start.
    started: BTreeMap<u64, (String, Instant)>,
}

/// Takes a test off the list when its answer is done, or when answering it panicked.
struct Done<'a>(&'a Running, u64);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.lock().started.remove(&self.1);
        if let Some(b) = &self.0.bar {
            b.inc(1);
        }
    }
}

impl Running {
    /// A list whose tests, as they end, move `bar`.
    pub fn with_bar(bar: Option<indicatif::ProgressBar>) -> Running {
        Running { list: Mutex::default(), bar }
    }

    /// The list, even after a panic elsewhere (it stays consistent: one insert or remove).
    fn lock(&self) -> std::sync::MutexGuard<'_, List> {
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `answer` for `path`, listed as running meanwhile.
    pub fn time<T>(&self, path: &Path, answer: impl FnOnce() -> T) -> T {
        let id = {
            let mut g = self.lock();
            g.last += 1;
            let id = g.last;
            g.started.insert(id, (path.display().to_string(), Instant::now()));
            id
        };
        let _done = Done(self, id);
        answer()
    }

    /// The tests running for at least `min`, longest first.
    pub fn longer_than(&self, min: Duration) -> Vec<(String, Duration)> {
        let mut long: Vec<(String, Duration)> =
            self.lock().started.values().map(|(p, t)| (p.clone(), t.elapsed())).filter(|(_, d)| *d >= min).collect();
        long.sort_by_key(|t| std::cmp::Reverse(t.1));
        long
    }
}

/// How often standard error names the tests running long, when it is not a terminal:
/// 30 s, or `LITSAT_PROGRESS_SECONDS` (undocumented: for tests, which cannot wait 30 s).
pub fn interval() -> Duration {
    std::env::var("LITSAT_PROGRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .filter(|d| !d.is_zero())
        .unwrap_or(Duration::from_secs(30))
}

/// `tests` as `path (31 s), path (45 s)`.
pub fn describe(tests: &[(String, Duration)]) -> String {
    let secs = |d: &Duration| match d.as_secs_f64() {
        s if s < 10.0 => format!("{s:.1} s"),
        s => format!("{s:.0} s"),
    };
    tests.iter().map(|(p, d)| format!("{p} ({})", secs(d))).collect::<Vec<_>>().join(", ")
}

/// A thread that names the tests running long until it is dropped: on `bar` when there
/// is one, otherwise on standard error.
pub struct Watcher {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watcher {
    pub fn start(running: Arc<Running>) -> Watcher {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let bar = running.bar.clone();
            let every = if bar.is_some() { Duration::from_secs(1) } else { interval() };
            // Only a message or the sender's drop ends the wait early: either means stop.
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                match &bar {
                    Some(b) => b.set_message(bar_message(&running.longer_than(BAR_AFTER))),
                    None => report(&running.longer_than(every)),
                }
            }
        });
        Watcher { stop: Some(stop), thread: Some(thread) }
    }
}

/// What the bar says after its count: the tests running long, if any.
fn bar_message(long: &[(String, Duration)]) -> String {
    if long.is_empty() { String::new() } else { format!("running: {}", describe(long)) }
}

/// One line on standard error naming the tests running long, if any.
fn report(long: &[(String, Duration)]) {
    if !long.is_empty() {
        crate::out::eprint_line(&format!("litsat: still running: {}", describe(long)));
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_is_listed_while_it_runs_and_only_then() {
        let running = Running::default();
        let seen = running.time(Path::new("a/SB.litmus"), || running.longer_than(Duration::ZERO));
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].0, "a/SB.litmus");
        assert!(running.longer_than(Duration::ZERO).is_empty());
        assert!(running.time(Path::new("x"), || running.longer_than(Duration::from_secs(60))).is_empty());
    }

    #[test]
    fn descriptions_give_seconds() {
        let d = describe(&[("A".into(), Duration::from_millis(31_400)), ("B".into(), Duration::from_millis(2_240))]);
        assert_eq!(d, "A (31 s), B (2.2 s)");
    }
}
