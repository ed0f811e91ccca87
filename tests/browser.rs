//! The page of `litsat serve` in a real browser (issue #16): headless Chromium, driven only
//! by command-line flags (no WebDriver), opens a permalink with `run=1` and the test reads the
//! DOM it dumps. SB under tso shows "Sometimes" and an SVG graph; MP under tso shows the
//! cycle of its explanation; a broken test shows its error at the line.
//!
//! Without Chromium (`chromium` or `chromium-browser` on PATH, or `LITSAT_CHROMIUM`), each
//! test says it was skipped and passes; `.ci/run` installs Debian's `chromium` where absent.
//!
//! The SB run's screenshot goes to the target folder; with `LITSAT_SCREENSHOT=1` it also
//! replaces `docs/serve.png`, the README's picture. It is not rewritten on every run because
//! the page shows the run's time, so the PNG would change and dirty the tree each time.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

mod common;

/// How long the server may take to say where it listens, and Chromium to finish a page.
const SERVER_START: Duration = Duration::from_secs(30);
const BROWSER_RUN: Duration = Duration::from_secs(20);

/// Attempts at a page. Headless Chromium's virtual time does not wait for work off the main
/// thread (viz.js compiling its WebAssembly), so on a loaded machine a page can be dumped
/// before its run has finished, or now and then never be dumped; such an attempt is retried.
const ATTEMPTS: usize = 3;

/// One Chromium at a time: the tests run in parallel, and several browsers at once on two
/// cores are what makes the attempts above fail.
static BROWSER: Mutex<()> = Mutex::new(());

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Chromium binary, if there is one.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("LITSAT_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// `litsat serve --port 0`, killed when dropped. Its standard error is kept for messages.
struct Server {
    child: Child,
    url: String,
    stderr: Arc<Mutex<String>>,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// `litsat serve --port 0` with more arguments (`-I DIR`).
    fn start_with(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_litsat"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("litsat serve starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        drain(child.stderr.take().expect("stderr"), Arc::clone(&stderr));
        // A thread reads stdout, so that a silent server fails the test after SERVER_START
        // instead of hanging it, and keeps reading so that the server never blocks on a full pipe.
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout");
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut server = Server { child, url: String::new(), stderr };
        let line = rx
            .recv_timeout(SERVER_START)
            .unwrap_or_else(|_| panic!("litsat serve printed no line; stderr:\n{}", server.stderr()));
        let url = line
            .strip_prefix("Listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}; stderr:\n{}", server.stderr()));
        server.url = url.trim().to_string();
        server
    }

    fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn drain(mut from: impl Read + Send + 'static, into: Arc<Mutex<String>>) {
    thread::spawn(move || {
        let mut text = String::new();
        let _ = from.read_to_string(&mut text);
        if let Ok(mut into) = into.lock() {
            into.push_str(&text);
        }
    });
}

/// A fresh folder for Chromium's profile, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("litsat-browser-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temporary folder");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs headless Chromium on `url` with `extra` flags (its action: `--dump-dom`,
/// `--screenshot=…`) and answers its standard output. Virtual time lets the page's fetches,
/// viz.js and the run finish before the dump, without a fixed sleep. A browser that takes
/// over BROWSER_RUN is killed, and the answer is then an error.
fn browse(chromium: &Path, url: &str, extra: &[&str]) -> Result<String, String> {
    let _one = BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let profile = TempDir::new();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", profile.0.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let stdout = Arc::new(Mutex::new(String::new()));
    let stderr = Arc::new(Mutex::new(String::new()));
    drain(child.stdout.take().expect("stdout"), Arc::clone(&stdout));
    drain(child.stderr.take().expect("stderr"), Arc::clone(&stderr));
    let deadline = Instant::now() + BROWSER_RUN;
    let status = loop {
        if let Some(status) = child.try_wait().expect("chromium runs") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("chromium took over {BROWSER_RUN:?}"));
        }
        thread::sleep(Duration::from_millis(50));
    };
    // The drain threads end with the process's pipes; give them a moment to hand over.
    let out = wait_for_text(&stdout, status.success());
    assert!(status.success(), "chromium failed ({status}):\n{}", stderr.lock().map(|s| s.clone()).unwrap_or_default());
    Ok(out)
}

fn wait_for_text(text: &Arc<Mutex<String>>, expect_some: bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let now = text.lock().map(|s| s.clone()).unwrap_or_default();
        // The drain thread writes once, at the end, so any text is all of it.
        if !now.is_empty() || !expect_some || Instant::now() > deadline {
            return now;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// The page's permalink: `#s=` and base64url of `{"test": …, "model": …}`, and `run=1`.
fn permalink(server: &Server, test: &str, model: &str) -> String {
    link(server, &serde_json::json!({ "test": test, "model": model }))
}

fn link(server: &Server, inputs: &serde_json::Value) -> String {
    let inputs = inputs.to_string();
    format!("{}#s={}&run=1", server.url, base64url(inputs.as_bytes()))
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn litmus(name: &str) -> String {
    std::fs::read_to_string(root().join("litmus").join(name)).expect("litmus test")
}

/// The element with this id, from its start tag to the end of the dump (callers look at
/// its beginning).
fn element<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in the page:\n{dom}"));
    &dom[start..]
}

/// The text of the element with this id, up to the first tag inside it.
fn text_of(dom: &str, id: &str) -> String {
    first_text(element(dom, id))
}

/// The text after the end of the start tag `el` begins with, up to the next tag, unescaped.
fn first_text(el: &str) -> String {
    let body = &el[el.find('>').map_or(el.len(), |i| i + 1)..];
    let text = &body[..body.find('<').unwrap_or(body.len())];
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

/// The content of the element with this id up to the next `</div>` (the graph's box holds
/// only the SVG, which has no div).
fn inner_div<'a>(dom: &'a str, id: &str) -> &'a str {
    let el = element(dom, id);
    &el[..el.find("</div>").unwrap_or(el.len())]
}

/// The texts of the cells of the campaign table's row for this test.
fn row_cells(dom: &str, test: &str) -> Vec<String> {
    let start = dom
        .find(&format!(">{test}</button></th>"))
        .unwrap_or_else(|| panic!("no row for {test} in the campaign table:\n{dom}"));
    let row = &dom[start..];
    let row = &row[..row.find("</tr>").unwrap_or(row.len())];
    row.split("<td").skip(1).map(first_text).collect()
}

/// Runs one permalink and answers the DOM once the page says it has finished.
fn run_page(chromium: &Path, server: &Server, test: &str, model: &str) -> String {
    run_link(chromium, server, &permalink(server, test, model), &[])
}

/// Runs a link with `--dump-dom` (and `extra` flags) and answers the DOM once the page says
/// it has finished.
fn run_link(chromium: &Path, server: &Server, url: &str, extra: &[&str]) -> String {
    let mut failures = Vec::new();
    for _ in 0..ATTEMPTS {
        match browse(chromium, url, &[&["--dump-dom"], extra].concat()) {
            Ok(dom) if finished(&dom) => return dom,
            Ok(dom) => failures.push(format!("#status is {:?}", text_of(&dom, "status"))),
            Err(e) => failures.push(e),
        }
    }
    panic!(
        "the run did not finish in {ATTEMPTS} attempts ({}); server stderr:\n{}",
        failures.join("; "),
        server.stderr()
    );
}

/// Whether the page's run (and its campaign, if it has one) has finished.
fn finished(dom: &str) -> bool {
    let ended = |id| {
        let el = element(dom, id);
        let tag = &el[..el.find('>').unwrap_or(el.len())];
        tag.contains("data-state=\"done\"") || tag.contains("data-state=\"error\"")
    };
    let campaign = element(dom, "campaign-status");
    let campaign_idle = !campaign[..campaign.find('>').unwrap_or(0)].contains("data-state");
    ended("status") && (campaign_idle || ended("campaign-status"))
}

macro_rules! need_chromium {
    () => {
        match chromium() {
            Some(path) => path,
            None => {
                println!("skipped: no chromium on PATH, so the page was not tested in a browser");
                return;
            }
        }
    };
}

#[test]
fn sb_under_tso_is_sometimes_with_a_witness_graph() {
    let chromium = need_chromium!();
    let server = Server::start();
    // The screenshot is taken with the dump: always into the target folder, and into docs/
    // when asked (see above).
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve.png");
    let _ = std::fs::remove_file(&shot);
    let flag = format!("--screenshot={}", shot.display());
    let url = permalink(&server, &litmus("x86/SB.litmus"), "tso");
    let dom = run_link(&chromium, &server, &url, &[&flag, "--window-size=1280,900"]);
    assert_eq!(text_of(&dom, "status"), "done");
    assert_eq!(text_of(&dom, "verdict"), "Sometimes");
    assert!(inner_div(&dom, "graph").contains("<svg"), "no SVG in #graph:\n{dom}");
    assert!(text_of(&dom, "explain").contains("is allowed by"), "{}", text_of(&dom, "explain"));
    assert!(text_of(&dom, "log").starts_with("Test SB Allowed"), "{}", text_of(&dom, "log"));

    let png = std::fs::read(&shot).expect("the screenshot was written");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "{} bytes", png.len());
    if std::env::var_os("LITSAT_SCREENSHOT").is_some_and(|v| v == "1") {
        std::fs::write(root().join("docs/serve.png"), &png).expect("docs/serve.png");
    }
}

#[test]
fn mp_under_tso_shows_the_cycle() {
    let chromium = need_chromium!();
    let server = Server::start();
    let dom = run_page(&chromium, &server, &litmus("x86/MP.litmus"), "tso");
    assert_eq!(text_of(&dom, "status"), "done");
    assert_eq!(text_of(&dom, "verdict"), "Never");
    let explain = text_of(&dom, "explain");
    assert!(explain.contains("Check tso (acyclic) fails: cycle"), "{explain}");
    for edge in ["--po-->", "--rf-->", "--fr-->"] {
        assert!(explain.contains(edge), "no {edge} in the cycle:\n{explain}");
    }
    assert!(inner_div(&dom, "graph").contains("<svg"), "no SVG in #graph:\n{dom}");
}

#[test]
fn a_broken_test_shows_its_error_at_the_line() {
    let chromium = need_chromium!();
    let server = Server::start();
    let broken = litmus("x86/SB.litmus").replace("MOV EAX,[y]", "MOVE EAX,[y]");
    let line = broken.lines().position(|l| l.contains("MOVE")).expect("the broken line") + 1;
    let dom = run_page(&chromium, &server, &broken, "tso");
    assert!(element(&dom, "status").contains("data-state=\"error\""), "{dom}");
    let message = text_of(&dom, "test-error");
    assert!(message.starts_with(&format!("line {line}, col ")), "{message}");
    assert!(dom.contains(r#"class="editor has-error" data-input="test""#), "the editor is not marked");
}

#[test]
fn a_campaign_in_a_link_fills_its_table_and_diff() {
    let chromium = need_chromium!();
    let server = Server::start();
    let inputs = serde_json::json!({
        "test": litmus("x86/SB.litmus"),
        "model": "tso",
        "campaign": { "tests": ["x86/SB", "x86/MP"], "models": ["sc", "tso"], "diff": ["sc", "tso"] },
    });
    let dom = run_link(&chromium, &server, &link(&server, &inputs), &[]);
    assert!(element(&dom, "campaign-status").contains("data-state=\"done\""), "{dom}");
    assert_eq!(row_cells(&dom, "x86/SB"), ["Never", "Sometimes", "Never ≠ Sometimes"]);
    assert_eq!(row_cells(&dom, "x86/MP"), ["Never", "Never", "same"]);
}

#[test]
fn an_lkmm_test_runs_under_linux_kernel_cfg_and_steps_through_its_executions() {
    let chromium = need_chromium!();
    let Some(shared) = common::shared_or_skip("the page under linux-kernel.cfg") else { return };
    let lkmm = shared.join("models/lkmm").display().to_string();
    let server = Server::start_with(&["-I", &lkmm]);
    let test = std::fs::read_to_string(shared.join("corpus/lkmm/catalogue/SB+poonceonces.litmus")).expect("the test");
    let dom = run_page(&chromium, &server, &test, "linux-kernel.cfg");
    assert_eq!(text_of(&dom, "status"), "done", "{}", server.stderr());
    assert_eq!(text_of(&dom, "verdict"), "Sometimes");
    assert!(text_of(&dom, "log").starts_with("Test SB+poonceonces Allowed"), "{}", text_of(&dom, "log"));
    assert!(inner_div(&dom, "graph").contains("<svg"), "no SVG in #graph:\n{dom}");
    assert!(dom.contains(r#"<option value="linux-kernel.cfg" selected"#) || dom.contains(">linux-kernel.cfg</option>"));
    // A link to the second execution, with a variant and a check skipped: the page steps
    // there after the run, and says which of how many it shows.
    let inputs = serde_json::json!({
        "test": test, "model": "linux-kernel.cfg", "execution": 1, "among": "all",
        "variants": ["lkmmv2"], "skipchecks": ["happens-before"],
    });
    let dom = run_link(&chromium, &server, &link(&server, &inputs), &[]);
    assert_eq!(text_of(&dom, "status"), "done", "{}", server.stderr());
    assert_eq!(text_of(&dom, "exec-label"), "execution 2 of 4");
    assert!(text_of(&dom, "explain").starts_with("Test SB+poonceonces"), "{}", text_of(&dom, "explain"));
    assert!(text_of(&dom, "explain").contains("Execution 2 under"), "{}", text_of(&dom, "explain"));
    assert!(inner_div(&dom, "graph").contains("<svg"), "no SVG in #graph:\n{dom}");
    assert!(dom.contains(r#"id="skipchecks""#) && dom.contains(r#"id="exec-next""#));
}
