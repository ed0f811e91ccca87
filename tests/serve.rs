//! `litsat serve` (issue #16): the JSON API's answers, its errors, and a sweep of 1,000
//! mutated requests that must each get a 2xx or a 4xx with a JSON error (a located one
//! for 422), never a 5xx, with the server still answering afterwards.
//!
//! One server runs in-process on a free port for all the tests here.

mod common;

use common::{GARBAGE, Rng};
use litsat_cli::cli::serve::load::request;
use litsat_cli::cli::serve::{Limits, start};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn litmus(name: &str) -> String {
    std::fs::read_to_string(root().join("litmus").join(name)).expect("a project test")
}

/// The shared server, started on first use and left running until the process ends.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let limits = Limits::new(Duration::from_secs(2), 40);
        start("127.0.0.1", 0, limits, 2).expect("the server starts").addr
    })
}

/// Sends `body` (any bytes) and returns the status and the body as JSON (`Null` if not).
fn send(method: &str, path: &str, body: &[u8]) -> (u16, Value) {
    let (status, bytes) = request(server(), method, path, body).expect("the server answers");
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn post(path: &str, body: &Value) -> (u16, Value) {
    send("POST", path, body.to_string().as_bytes())
}

/// herd's log without its `Time` line (which differs from run to run) and blank lines.
fn timeless(log: &str) -> String {
    log.lines().filter(|l| !l.starts_with("Time ") && !l.is_empty()).collect::<Vec<_>>().join("\n")
}

#[test]
fn sb_under_tso_is_sometimes_with_the_states_check_prints() {
    let (status, v) = post("/api/check", &json!({ "test": litmus("x86/SB.litmus"), "model": "tso" }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["observation"], "Sometimes");
    assert_eq!(v["status"], "done");
    assert_eq!(v["states"].as_array().map(Vec::len), Some(4), "{v}");
    let out = Command::new(env!("CARGO_BIN_EXE_litsat"))
        .args(["check", "-m", "tso", "litmus/x86/SB.litmus"])
        .current_dir(root())
        .output()
        .expect("litsat check runs");
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(timeless(v["log"].as_str().unwrap_or_default()), timeless(&printed));
    // The fields of `litsat run --format json`, all there.
    for field in ["name", "path", "model", "status", "kind", "observation", "ok", "witnesses", "fast", "flags", "time"]
    {
        assert!(v.get(field).is_some(), "no {field} in {v}");
    }
}

#[test]
fn mp_under_tso_is_explained_by_its_cycle() {
    let (status, v) = post("/api/explain", &json!({ "test": litmus("x86/MP.litmus"), "model": "tso" }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["allowed"], false);
    assert_eq!(v["observation"], "Never");
    let text = v["text"].as_str().unwrap_or_default();
    assert!(text.contains("Check tso (acyclic) fails: cycle") && text.contains("--fr--> a"), "{text}");
    assert!(v["dot"].as_str().is_some_and(|d| d.starts_with("digraph")), "{v}");
}

#[test]
fn custom_cat_includes_come_from_the_bundled_library() {
    let cat = "\"mine\"\ninclude \"cross.cat\"\nacyclic po | rf | co | fr as sc\n";
    let (status, v) = post("/api/check", &json!({ "test": litmus("x86/SB.litmus"), "cat": cat }));
    assert_eq!((status, &v["observation"]), (200, &json!("Never")), "{v}");
}

#[test]
fn custom_cat_never_includes_from_the_file_system() {
    // A model file on disk, valid, at a path the request names outright.
    let dir = std::env::temp_dir().join(format!("litsat-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mine.cat");
    std::fs::write(&file, "\"on disk\"\n").expect("written");
    for name in [file.display().to_string(), "Cargo.toml".to_string(), "cat/tso.cat".to_string()] {
        let cat = format!("\"mine\"\ninclude \"{name}\"\n");
        let (status, v) = post("/api/check", &json!({ "test": litmus("x86/SB.litmus"), "cat": cat }));
        assert_eq!(status, 422, "{v}");
        let e = &v["error"];
        assert_eq!((&e["input"], &e["line"], &e["col"]), (&json!("cat"), &json!(2), &json!(1)), "{v}");
        assert!(e["message"].as_str().is_some_and(|m| m.contains("looked in: the bundled library")), "{v}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// HEAD answers as GET does, headers only.
#[test]
fn head_gets_the_headers_of_get() {
    for path in ["/", "/api/models"] {
        let (status, body) = request(server(), "HEAD", path, b"").expect("the server answers");
        assert_eq!((status, body.len()), (200, 0), "{path}");
    }
    assert_eq!(request(server(), "HEAD", "/api/check", b"").expect("the server answers").0, 405);
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let sb = litmus("x86/SB.litmus");
    let cases: Vec<(u16, (u16, Value))> = vec![
        (400, send("POST", "/api/check", b"{\"test\": ")),
        (400, post("/api/check", &json!({ "test": sb, "model": "lkmm" }))),
        (400, post("/api/check", &json!({ "test": sb }))),
        (400, post("/api/check", &json!({ "test": 7, "model": "tso" }))),
        (404, send("GET", "/etc/passwd", b"")),
        (405, send("GET", "/api/check", b"")),
        (405, send("POST", "/api/tests", b"")),
        (413, send("POST", "/api/check", &vec![b' '; 2 << 20])),
    ];
    for (want, (status, v)) in cases {
        assert_eq!(status, want, "{v}");
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }
    let (_, v) = send("POST", "/api/check", &vec![b' '; 2 << 20]);
    assert_eq!(v["error"]["message"], "request body over 1 MB");
}

#[test]
fn a_body_declared_a_terabyte_long_is_refused_and_the_server_lives() {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(server()).expect("connects");
    s.write_all(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\r\n{").expect("sent");
    let mut reply = [0; 64];
    let n = s.read(&mut reply).expect("a reply");
    assert!(reply[..n].starts_with(b"HTTP/1.1 413"), "{}", String::from_utf8_lossy(&reply[..n]));
    drop(s);
    let (status, _) = send("GET", "/api/models", b"");
    assert_eq!(status, 200);
}

#[test]
fn syntax_errors_are_located_in_their_editor() {
    let sb = litmus("x86/SB.litmus");
    let bad_test = sb.replace("MOV EAX,[y]", "MOV EAX,[y");
    let line = 1 + bad_test.lines().position(|l| l.contains("[y |")).expect("the broken line");
    let (status, v) = post("/api/check", &json!({ "test": bad_test, "model": "tso" }));
    assert_eq!(status, 422, "{v}");
    let e = &v["error"];
    assert_eq!(
        (&e["input"], &e["line"], &e["col"], &e["kind"]),
        (&json!("test"), &json!(line), &json!(2), &json!("error"))
    );
    assert!(e["rendered"].as_str().is_some_and(|r| r.contains("MOV EAX,[y |")), "{v}");
    let (status, v) = post("/api/check", &json!({ "test": sb, "cat": "\"mine\"\nlet x = (po\n" }));
    assert_eq!(status, 422, "{v}");
    let e = &v["error"];
    // An unclosed `(` is located where it was opened (#35).
    assert_eq!((&e["input"], &e["line"], &e["col"]), (&json!("cat"), &json!(2), &json!(9)), "{v}");
}

#[test]
fn the_menu_and_the_models_are_listed() {
    let (status, tests) = send("GET", "/api/tests", b"");
    assert_eq!(status, 200);
    let names: Vec<&str> = tests.as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"x86/SB") && names.is_sorted(), "{names:?}");
    let sb = tests.as_array().into_iter().flatten().find(|t| t["name"] == "x86/SB").expect("SB");
    assert_eq!(sb["text"], litmus("x86/SB.litmus"));
    let (_, models) = send("GET", "/api/models", b"");
    let names: Vec<&str> = models.as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"tso") && !names.contains(&"lkmm") && !names.contains(&"cross"), "{names:?}");
    let (status, page) = request(server(), "GET", "/", b"").expect("the page");
    assert_eq!(status, 200);
    assert_eq!(page, std::fs::read(root().join("web/index.html")).expect("web/index.html"));
}

#[test]
fn diff_of_tso_and_sc_on_sb() {
    let body = json!({
        "tests": [{ "name": "SB", "text": litmus("x86/SB.litmus") }, { "name": "junk", "text": "junk" }],
        "a": { "model": "tso" },
        "b": { "model": "sc" },
    });
    let (status, v) = post("/api/diff", &body);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["rows"][0], json!({ "name": "SB", "a": "Sometimes", "b": "Never" }));
    assert!(v["rows"][1]["a"].as_str().is_some_and(|a| a.starts_with("error: ")), "{v}");
}

// ---------- the mutation sweep ----------

/// JSON values of the wrong type or size for any field.
const WRONG: &[&str] =
    &["1", "true", "null", "[]", "{}", "1e400", "-99999999999999999999999999", "\"\"", "[{\"name\":1}]", "\"tso\""];

/// Mutates a text: truncation, a line dropped or doubled, a token inserted, bytes swapped.
fn mutate_text(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let at = rng.below(text.len() + 1);
    let at = (0..=at).rev().find(|&k| text.is_char_boundary(k)).unwrap_or(0);
    match rng.below(4) {
        0 => text[..at].to_string(),
        1 if !lines.is_empty() => {
            let k = rng.below(lines.len());
            if rng.below(2) == 0 {
                lines.remove(k);
            } else {
                lines.insert(k, lines[k]);
            }
            lines.join("\n")
        }
        2 => format!("{}{}{}", &text[..at], rng.pick(GARBAGE), &text[at..]),
        _ => {
            let mut chars: Vec<char> = text.chars().collect();
            if chars.len() > 1 {
                let (i, j) = (rng.below(chars.len()), rng.below(chars.len()));
                chars.swap(i, j);
            }
            chars.into_iter().collect()
        }
    }
}

/// Mutates a request body: bytes flipped, cut or deleted; fields renamed, swapped or given
/// a wrong type; invalid UTF-8; or (most often) the litmus or cat text inside valid JSON.
fn mutate(rng: &mut Rng, body: &Value) -> Vec<u8> {
    let bytes = body.to_string().into_bytes();
    let at = rng.below(bytes.len());
    match rng.below(10) {
        0 => {
            let mut b = bytes;
            b[at] = rng.below(256) as u8;
            b
        }
        1 => bytes[..at].to_vec(),
        2 => [&bytes[..at], &bytes[(at + 1 + rng.below(20)).min(bytes.len())..]].concat(),
        3 => [&bytes[..at], b"\xff\xfe\xc3", &bytes[at..]].concat(),
        4 => {
            // Renames or swaps fields.
            let text = body.to_string();
            let (from, to) = rng.pick(&[
                ("\"test\"", "\"tset\""),
                ("\"model\"", "\"cat\""),
                ("\"a\"", "\"b\""),
                ("\"text\"", "\"name\""),
                ("\"tests\"", "\"test\""),
            ]);
            text.replacen(from, to, 1).into_bytes()
        }
        5 | 6 => {
            // A wrong value for one field, as raw JSON (huge numbers survive no parser).
            let keys = ["test", "model", "cat", "fast", "tests", "a", "b"];
            let mut v = body.clone();
            let key = rng.pick(&keys);
            v[key] = json!("@WRONG@");
            v.to_string().replace("\"@WRONG@\"", rng.pick(WRONG)).into_bytes()
        }
        _ => mutate_inside(rng, body).to_string().into_bytes(),
    }
}

/// The body with its litmus or cat text mutated, still valid JSON.
fn mutate_inside(rng: &mut Rng, body: &Value) -> Value {
    let mut v = body.clone();
    let slot = if v.get("tests").is_some() {
        let k = rng.below(v["tests"].as_array().map_or(1, Vec::len));
        &mut v["tests"][k]["text"]
    } else if v.get("cat").is_some() && rng.below(2) == 0 {
        &mut v["cat"]
    } else {
        &mut v["test"]
    };
    let text = slot.as_str().unwrap_or_default().to_string();
    *slot = json!(mutate_text(rng, &text));
    v
}

/// The valid requests the sweep mutates: `(endpoint, body)`.
fn seeds() -> Vec<(&'static str, Value)> {
    let cat = "\"mine\"\ninclude \"cross.cat\"\nlet com = rf | co | fr\nacyclic po | com as sc\n";
    let (sb, mp) = (litmus("x86/SB.litmus"), litmus("x86/MP.litmus"));
    let tests = |names: &[&str]| -> Vec<Value> {
        names.iter().map(|n| json!({ "name": n, "text": litmus(&format!("{n}.litmus")) })).collect()
    };
    let other = [("aarch64/MP", "aarch64"), ("riscv/MP", "rvwmo"), ("c11/MP+rel+acq", "rc11"), ("x86/IRIW", "relaxed")];
    let mut seeds = vec![
        ("/api/check", json!({ "test": sb, "model": "tso" })),
        ("/api/check", json!({ "test": mp, "cat": cat, "fast": true })),
        ("/api/explain", json!({ "test": mp, "model": "tso" })),
        ("/api/explain", json!({ "test": sb, "cat": cat })),
        ("/api/execution", json!({ "test": sb, "model": "tso", "index": 1 })),
        ("/api/execution", json!({ "test": mp, "cat": cat, "among": "outcome", "skipchecks": ["sc"] })),
        ("/api/check", json!({ "test": sb, "model": "sc", "variants": ["ets2"], "unroll": 1 })),
        ("/api/diff", json!({ "tests": tests(&["x86/SB", "x86/MP"]), "a": { "model": "tso" }, "b": { "cat": cat } })),
    ];
    for (n, model) in other {
        seeds.push(("/api/check", json!({ "test": litmus(&format!("{n}.litmus")), "model": model })));
    }
    seeds
}

/// Whether a reply is one the contract allows: 2xx JSON, or 4xx with a JSON error, a
/// located one for 422.
fn acceptable(status: u16, v: &Value) -> bool {
    let e = &v["error"];
    match status {
        200..=299 => v.is_object(),
        422 => {
            e["message"].is_string()
                && e["line"].as_u64().is_some_and(|l| l >= 1)
                && e["col"].as_u64().is_some_and(|c| c >= 1)
                && ["test", "cat", "model"].contains(&e["input"].as_str().unwrap_or_default())
                && ["error", "unsupported", "limit"].contains(&e["kind"].as_str().unwrap_or_default())
                && e["rendered"].is_string()
        }
        400..=499 => e["message"].is_string(),
        _ => false,
    }
}

#[test]
fn mutation_sweep_of_1000_requests() {
    let seeds = seeds();
    let mut rng = Rng::new(0x5EED_1234_5678_9ABC);
    let mut histogram: BTreeMap<u16, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for k in 0..1000 {
        let (path, body) = &seeds[k % seeds.len()];
        let sent = mutate(&mut rng, body);
        let (status, v) = send("POST", path, &sent);
        *histogram.entry(status).or_default() += 1;
        if !acceptable(status, &v) {
            bad.push(format!("{status} {path} {v}\n  sent: {}", String::from_utf8_lossy(&sent)));
        }
    }
    eprintln!("mutation sweep: replies by status {histogram:?}");
    assert!(bad.is_empty(), "{} unacceptable replies:\n{}", bad.len(), bad.join("\n"));
    assert!([200, 400, 422].iter().all(|s| histogram.contains_key(s)), "too little variety: {histogram:?}");
    let (status, v) = post("/api/check", &json!({ "test": litmus("x86/SB.litmus"), "model": "tso" }));
    assert_eq!((status, &v["observation"]), (200, &json!("Sometimes")), "the server stopped answering");
}

#[test]
fn limits_are_located_errors_of_kind_limit() {
    let small = start("127.0.0.1", 0, Limits::new(Duration::from_secs(2), 4), 2).expect("starts");
    let body = json!({ "test": litmus("x86/SB.litmus"), "model": "tso" }).to_string();
    for path in ["/api/check", "/api/explain"] {
        let (status, bytes) = request(small.addr, "POST", path, body.as_bytes()).expect("answers");
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        assert_eq!(status, 422, "{v}");
        let e = &v["error"];
        assert_eq!(
            (&e["kind"], &e["input"], &e["line"], &e["col"]),
            (&json!("limit"), &json!("test"), &json!(1), &json!(1))
        );
    }
    small.stop();
}

#[test]
fn a_stuck_request_does_not_block_the_others() {
    use std::io::Write;
    // A client that promises a body and sends only part of it holds one worker.
    let mut stuck = std::net::TcpStream::connect(server()).expect("connects");
    let head = "POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{\"test\": \"";
    stuck.write_all(head.as_bytes()).expect("sent");
    std::thread::sleep(Duration::from_millis(100));
    for _ in 0..5 {
        let (status, v) = post("/api/check", &json!({ "test": litmus("x86/SB.litmus"), "model": "tso" }));
        assert_eq!((status, &v["observation"]), (200, &json!("Sometimes")), "{v}");
    }
    drop(stuck);
}

/// `litsat bench --serve`'s load run, small: every request answered (its latencies are
/// the benchmark's to judge, not a test's).
#[test]
fn the_load_run_counts_its_requests() {
    let (report, _) = litsat_cli::cli::serve::load::run(4, 3).expect("the load run");
    assert!(report.contains("| 12 | 0 |"), "{report}");
}

// ---------- the server's limits (issue #34) ----------

/// `litsat serve` as a child process of its own, so that its file descriptors can be
/// counted apart from this test process's; killed when dropped.
struct Served {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Served {
    fn start(args: &[&str]) -> Served {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_litsat"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("litsat serve starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("its stdout");
        std::io::BufReader::new(stdout).read_line(&mut line).expect("its first line");
        let addr = line.trim().trim_start_matches("Listening on http://").trim_end_matches('/');
        let addr = addr.parse().unwrap_or_else(|_| panic!("no address in {line:?}"));
        Served { child, addr }
    }

    /// How many file descriptors the server holds open.
    fn fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).map_or(0, |d| d.count())
    }

    /// Checks SB under tso: whether it was answered `Sometimes`, and how long it took.
    fn check_sb(&self) -> (bool, Duration) {
        let body = json!({ "test": litmus("x86/SB.litmus"), "model": "tso" }).to_string();
        let t = std::time::Instant::now();
        let answered = request(self.addr, "POST", "/api/check", body.as_bytes()).ok().is_some_and(|(s, b)| {
            s == 200 && serde_json::from_slice::<Value>(&b).is_ok_and(|v| v["observation"] == "Sometimes")
        });
        (answered, t.elapsed())
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A connection that declares a body of `declared` bytes and sends only `sent` of it.
fn declare(addr: SocketAddr, declared: u64, sent: &[u8]) -> std::net::TcpStream {
    use std::io::Write;
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    let head = format!("POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Length: {declared}\r\n\r\n");
    s.write_all(head.as_bytes()).expect("head sent");
    s.write_all(sent).expect("body begun");
    s
}

/// 100 requests declaring 1 GB bodies (half of them then closed, half held open), and 20
/// clients that declare a body and never send it: the server still answers a check while
/// they hold on, and once they are gone (or dropped past `--read-timeout`) it holds the
/// file descriptors it started with.
#[test]
#[cfg(target_os = "linux")]
fn a_flood_of_huge_and_stalled_bodies_leaves_the_server_as_it_was() {
    use std::io::Read;
    let served = Served::start(&["--read-timeout", "1", "-j", "2"]);
    assert!(served.check_sb().0, "the server answers before the flood");
    // The check's connection may still be closing on the server's side.
    std::thread::sleep(Duration::from_millis(200));
    let before = served.fds();
    assert!(before > 0, "no /proc/PID/fd to count");
    let mut held = Vec::new();
    for k in 0..100 {
        let mut s = declare(served.addr, 1_000_000_000, b"{\"test\": \"");
        let mut reply = [0; 12];
        let n = s.read(&mut reply).unwrap_or(0);
        assert_eq!(&reply[..n], b"HTTP/1.1 413", "request {k}");
        if k % 2 == 0 {
            held.push(s);
        }
    }
    let stalled: Vec<_> = (0..20).map(|_| declare(served.addr, 1000, b"")).collect();
    let (answered, took) = served.check_sb();
    eprintln!("a check during the flood answered in {:.1} ms", took.as_secs_f64() * 1e3);
    assert!(answered, "the server stopped answering");
    drop(held);
    // The stalled clients are not closed: the server must drop them itself.
    let waited = std::time::Instant::now();
    while served.fds() > before && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("fds: {before} before, {} after ({:.1} s)", served.fds(), waited.elapsed().as_secs_f64());
    assert!(served.fds() <= before, "file descriptors left open: {} > {before}", served.fds());
    assert!(served.check_sb().0, "the server stopped answering");
    drop(stalled);
}

/// A 100,000-term expression in a C test (a 200 KB request) is answered, and the server
/// goes on answering: no stack overflow takes it down.
#[test]
fn a_deep_expression_chain_is_answered_and_the_server_lives() {
    let chain = vec!["1"; 100_000].join("+");
    let test = format!(
        "C deep\n{{ [x] = 0; }}\nP0 (atomic_int* x) {{\n  int r0 = {chain};\n  atomic_store_explicit(x, r0, memory_order_relaxed);\n}}\nexists (x=100000)\n"
    );
    let served = Served::start(&[]);
    let body = json!({ "test": test, "model": "rc11" }).to_string();
    let (status, bytes) = request(served.addr, "POST", "/api/check", body.as_bytes()).expect("an answer");
    let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    assert_eq!((status, v["observation"].as_str()), (200, Some("Always")), "{v}");
    assert!(served.check_sb().0, "the server stopped answering");
}

/// A diff of 2,000 tests under two models (about 0.3 s of checks) runs under the request's
/// one `--timeout` of 50 ms, not one per check: the rows past it are timeouts, and the
/// reply comes soon after it.
#[test]
fn a_diff_answers_within_one_timeout() {
    let timeout = Duration::from_millis(50);
    let small = start("127.0.0.1", 0, Limits::new(timeout, 40), 2).expect("starts");
    let sb = litmus("x86/SB.litmus");
    let tests: Vec<Value> = (0..2000).map(|k| json!({ "name": format!("SB{k}"), "text": sb })).collect();
    let body = json!({ "tests": tests, "a": { "model": "tso" }, "b": { "model": "sc" } }).to_string();
    let t = std::time::Instant::now();
    let (status, bytes) = request(small.addr, "POST", "/api/diff", body.as_bytes()).expect("answers");
    let took = t.elapsed();
    let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    assert_eq!(status, 200, "{v}");
    let rows = v["rows"].as_array().map_or(&[][..], Vec::as_slice);
    let late = rows.iter().filter(|r| r["b"].as_str().is_some_and(|b| b.contains("timeout"))).count();
    eprintln!("diff of {} rows: {late} past the timeout, answered in {:.2} s", rows.len(), took.as_secs_f64());
    assert_eq!(rows.len(), 2000);
    assert!(late > 0 && rows[0]["a"] == "Sometimes", "{}", rows[0]);
    assert!(took < timeout + Duration::from_secs(2), "{took:?}");
    small.stop();
}

/// Models with fresh names, 20,000 of them in all, grow the process's names by no more
/// than the server's `--max-names` allows; past it a model is refused with a located
/// limit, and bundled models still answer.
#[test]
fn fresh_cat_names_stay_within_max_names() {
    use litsat::cat::names_interned;
    let sb_tso = json!({ "test": litmus("x86/SB.litmus"), "model": "tso" }).to_string();
    // tso's names, interned before the count starts.
    let _ = request(server(), "POST", "/api/check", sb_tso.as_bytes()).expect("answers");
    let start_count = names_interned();
    let limits = Limits { max_names: start_count + 1000, ..Limits::new(Duration::from_secs(2), 40) };
    let small = start("127.0.0.1", 0, limits, 2).expect("starts");
    let sb = litmus("x86/SB.litmus");
    let mut last = (0, Value::Null);
    for k in 0..40 {
        let lets: String = (0..500).map(|n| format!("let fresh_{k}_{n} = po\n")).collect();
        let cat = format!("\"fresh\"\n{lets}acyclic po | rf | co | fr as sc\n");
        let body = json!({ "test": sb, "cat": cat }).to_string();
        let (status, bytes) = request(small.addr, "POST", "/api/check", body.as_bytes()).expect("answers");
        last = (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null));
    }
    let grown = names_interned() - start_count;
    eprintln!("names: {start_count} before, grown by {grown} for 20,000 sent");
    // Other tests may intern a few names of their own meanwhile.
    assert!(grown < 1000 + 500, "{grown} names kept");
    let (status, v) = last;
    let e = &v["error"];
    assert_eq!((status, &e["kind"], &e["input"]), (422, &json!("limit"), &json!("cat")), "{v}");
    assert!(e["line"].as_u64().is_some_and(|l| l > 1), "{v}");
    let (status, _) = request(small.addr, "POST", "/api/check", sb_tso.as_bytes()).expect("answers");
    assert_eq!(status, 200);
    small.stop();
}

// ---- Model files of `-I` folders, knobs and stepping (issue #35, item 5) -------------------

use litsat_cli::cli::serve::library::Library;
use litsat_cli::cli::serve::start_with;

/// A server offering the model files of `dirs`, and the statuses and JSON bodies it answers.
struct WithLibrary(SocketAddr);

impl WithLibrary {
    fn start(dirs: &[PathBuf]) -> WithLibrary {
        let library = Library::scan(dirs).expect("the folders are listed");
        let limits = Limits::new(Duration::from_secs(20), 64);
        WithLibrary(start_with("127.0.0.1", 0, limits, library, 2).expect("the server starts").addr)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, bytes) = request(self.0, "POST", path, body.to_string().as_bytes()).expect("an answer");
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    fn names(&self) -> Vec<(String, bool)> {
        let (status, bytes) = request(self.0, "GET", "/api/models", b"").expect("an answer");
        assert_eq!(status, 200);
        let v: Value = serde_json::from_slice(&bytes).expect("JSON");
        v.as_array()
            .into_iter()
            .flatten()
            .map(|m| (m["name"].as_str().unwrap_or_default().to_string(), m["file"] == true))
            .collect()
    }
}

/// A fresh folder with a cat that includes another, a cfg naming it, and files that must
/// not be listed.
fn model_folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("litsat-serve-models-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).expect("a temporary folder");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("a model file");
    write("base.cat", "\"base\"\nlet com = rf | co | fr\n");
    write("mine.cat", "\"mine\"\ninclude \"base.cat\"\nacyclic po | com as sc\n");
    write("mine.cfg", "model mine.cat\n");
    write("notes.txt", "not a model\n");
    write("sub/hidden.cat", "\"hidden\"\nacyclic po as sc\n");
    dir
}

fn observation(v: &Value) -> &str {
    v["observation"].as_str().unwrap_or_else(|| panic!("no observation in {v}"))
}

#[test]
fn model_files_of_the_include_folders_are_listed_and_used() {
    let dir = model_folder();
    let server = WithLibrary::start(std::slice::from_ref(&dir));
    let names = server.names();
    let files: Vec<&str> = names.iter().filter(|n| n.1).map(|n| n.0.as_str()).collect();
    assert_eq!(files, ["base.cat", "mine.cat", "mine.cfg"]);
    assert!(names.iter().any(|n| n.0 == "tso" && !n.1), "{names:?}");
    let sb = litmus("x86/SB.litmus");
    // The cfg names mine.cat, which includes base.cat: both found in the folder.
    for name in ["mine.cfg", "mine.cat", "mine.cfg"] {
        let (status, v) = server.post("/api/check", &json!({ "test": sb, "model": name }));
        assert_eq!(status, 200, "{name}: {v}");
        assert_eq!(observation(&v), "Never", "{name}");
        assert_eq!(v["model"], json!(name), "answers name the file as listed, not by its path");
    }
    let (status, v) = server.post("/api/explain", &json!({ "test": sb, "model": "mine.cfg" }));
    assert_eq!((status, v["allowed"].clone()), (200, json!(false)), "{v}");
    let folder = dir.display().to_string();
    assert!(!v.to_string().contains(&folder), "the server's path in {v}");
    let (status, v) = server.post("/api/execution", &json!({ "test": sb, "model": "mine.cfg" }));
    assert_eq!(status, 200, "{v}");
    assert!(!v.to_string().contains(&folder) && v.to_string().contains("mine.cfg"), "{v}");
    // Names not listed, paths above all, are refused without reading anything.
    let absolute = dir.join("mine.cat").display().to_string();
    for name in ["notes.txt", "sub/hidden.cat", "hidden.cat", "../mine.cat", "./mine.cat", absolute.as_str(), ""] {
        let (status, v) = server.post("/api/check", &json!({ "test": sb, "model": name }));
        assert_eq!(status, 400, "{name}: {v}");
        assert!(v["error"]["message"].as_str().unwrap_or_default().contains("GET /api/models"), "{v}");
    }
    // A custom cat still includes from the bundled library only.
    let cat = "\"c\"\ninclude \"base.cat\"\nacyclic po | com as sc\n";
    let (status, v) = server.post("/api/check", &json!({ "test": sb, "cat": cat }));
    assert_eq!(status, 422, "{v}");
    assert!(Library::scan(&[dir.join("no-such-folder")]).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lkmm_runs_under_linux_kernel_cfg() {
    let Some(shared) = common::shared_or_skip("the LKMM under linux-kernel.cfg from -I") else { return };
    let server = WithLibrary::start(&[shared.join("models/lkmm"), shared.join("models/herd")]);
    let names = server.names();
    assert!(names.contains(&("linux-kernel.cfg".to_string(), true)), "{names:?}");
    assert!(names.contains(&("x86tso.cat".to_string(), true)), "{names:?}");
    let test =
        |name: &str| std::fs::read_to_string(shared.join("corpus/lkmm/catalogue").join(name)).expect("an LKMM test");
    for (name, expected) in [("SB+fencembonceonces.litmus", "Never"), ("SB+poonceonces.litmus", "Sometimes")] {
        let (status, v) = server.post("/api/check", &json!({ "test": test(name), "model": "linux-kernel.cfg" }));
        assert_eq!(status, 200, "{name}: {v}");
        assert_eq!(observation(&v), expected, "{name}");
        assert!(v["log"].as_str().unwrap_or_default().contains(&format!("Observation {}", &name[..name.len() - 7])));
    }
    // The executions behind the answer: Positive + Negative of them.
    let sb = test("SB+fencembonceonces.litmus");
    let (_, check) = server.post("/api/check", &json!({ "test": sb, "model": "linux-kernel.cfg" }));
    let all = steps(&server, &json!({ "test": sb, "model": "linux-kernel.cfg" }));
    assert_eq!(all.len() as u64, witnesses(&check), "{check}");
    // herd's library: x86tso.cat and what it includes, for an x86 test.
    let (status, v) = server.post("/api/check", &json!({ "test": litmus("x86/SB.litmus"), "model": "x86tso.cat" }));
    assert_eq!((status, observation(&v)), (200, "Sometimes"), "{v}");
}

/// Positive + Negative of a check's answer.
fn witnesses(check: &Value) -> u64 {
    check["witnesses"].as_array().expect("witnesses").iter().map(|w| w.as_u64().expect("a count")).sum()
}

/// Every execution `/api/execution` steps through for `body`, as (dot, satisfies), checking
/// `more` on the way and that the one past the last is null.
fn steps(server: &WithLibrary, body: &Value) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for index in 0..100 {
        let mut b = body.clone();
        b["index"] = json!(index);
        let (status, v) = server.post("/api/execution", &b);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["index"], json!(index));
        if v["execution"].is_null() {
            assert_eq!(v["more"], json!(false));
            return out;
        }
        let e = &v["execution"];
        let dot = e["dot"].as_str().expect("a graph").to_string();
        assert!(dot.starts_with("digraph") && e["text"].as_str().is_some_and(|t| t.contains("final state")), "{v}");
        out.push((dot, e["satisfies"] == true));
        let mut next = b.clone();
        next["index"] = json!(index + 1);
        let (_, after) = server.post("/api/execution", &next);
        assert_eq!(v["more"], json!(!after["execution"].is_null()), "more at {index}");
    }
    panic!("more than 100 executions")
}

#[test]
fn stepping_through_executions_finds_each_once() {
    let server = WithLibrary(server());
    let sb = litmus("x86/SB.litmus");
    for model in ["tso", "sc"] {
        let (_, check) = post("/api/check", &json!({ "test": sb, "model": model }));
        let all = steps(&server, &json!({ "test": sb, "model": model }));
        assert_eq!(all.len() as u64, witnesses(&check), "{model}: {check}");
        let distinct: std::collections::BTreeSet<&String> = all.iter().map(|s| &s.0).collect();
        assert_eq!(distinct.len(), all.len(), "{model}: an execution found twice");
        let positive = check["witnesses"][0].as_u64().expect("positive");
        assert_eq!(all.iter().filter(|s| s.1).count() as u64, positive, "{model}");
        let reaching = steps(&server, &json!({ "test": sb, "model": model, "among": "outcome" }));
        assert_eq!(reaching.len() as u64, positive, "{model}");
        assert!(reaching.iter().all(|s| s.1));
    }
    // The same inputs step to the same execution.
    let body = json!({ "test": sb, "model": "tso", "index": 2 });
    assert_eq!(post("/api/execution", &body), post("/api/execution", &body));
    // skipchecks sc: SB's outcome is reached under sc too.
    let reaching = steps(&server, &json!({ "test": sb, "model": "sc", "among": "outcome", "skipchecks": ["sc"] }));
    assert_eq!(reaching.len(), 1);
    // Bounded, and validated.
    for (body, reason) in [
        (json!({ "test": sb, "model": "tso", "index": 1000 }), "index"),
        (json!({ "test": sb, "model": "tso", "among": "some" }), "among"),
        (json!({ "test": sb, "model": "tso", "index": -1 }), "malformed"),
    ] {
        let (status, v) = post("/api/execution", &body);
        assert_eq!(status, 400, "{v}");
        assert!(v["error"]["message"].as_str().unwrap_or_default().contains(reason), "{v}");
    }
}

#[test]
fn variants_skipchecks_and_unroll_take_effect() {
    let sb = litmus("x86/SB.litmus");
    let check = |extra: Value| {
        let mut body = json!({ "test": sb, "model": "sc" });
        body.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
        let (status, v) = post("/api/check", &body);
        assert_eq!(status, 200, "{v}");
        v
    };
    assert_eq!(observation(&check(json!({}))), "Never");
    assert_eq!(observation(&check(json!({ "skipchecks": ["sc"] }))), "Sometimes");
    assert_eq!(observation(&check(json!({ "skipchecks": ["no-such-check"] }))), "Never");
    // A variant chooses a branch of the model.
    let cat = "\"v\"\nlet com = rf | co | fr\nif \"ets2\" acyclic po | com as sc else acyclic po-loc | com as sc end\n";
    let with = |variants: Value| {
        let (status, v) = post("/api/check", &json!({ "test": sb, "cat": cat, "variants": variants }));
        assert_eq!(status, 200, "{v}");
        observation(&v).to_string()
    };
    assert_eq!(with(json!([])), "Sometimes");
    assert_eq!(with(json!(["ETS2"])), "Never");
    // The unrolling bound: each pass of MP+spin's loop is one more execution.
    let spin = litmus("c11/MP+spin.litmus");
    for (unroll, negative) in [(0, 1), (1, 2), (3, 4)] {
        let (status, v) = post("/api/check", &json!({ "test": spin, "model": "rc11", "unroll": unroll }));
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["witnesses"], json!([0, negative]), "unroll {unroll}");
    }
    // The diff takes them too.
    let body = json!({
        "tests": [{ "name": "SB", "text": sb }],
        "a": { "model": "sc" }, "b": { "model": "sc" }, "skipchecks": ["sc"],
    });
    let (status, v) = post("/api/diff", &body);
    assert_eq!((status, v["rows"][0]["a"].as_str()), (200, Some("Sometimes")), "{v}");
}

#[test]
fn refused_knobs_are_400_with_a_reason() {
    let sb = litmus("x86/SB.litmus");
    let many: Vec<String> = (0..17).map(|k| format!("v{k}")).collect();
    let long = "v".repeat(65);
    for (knob, value, reason) in [
        ("variants", json!(many), "more than 16"),
        ("skipchecks", json!([long]), "not a name"),
        ("skipchecks", json!(["a b"]), "not a name"),
        ("variants", json!([""]), "not a name"),
        ("variants", json!(["\"; include"]), "not a name"),
        ("unroll", json!(17), "more than 16"),
        ("unroll", json!(-1), "malformed"),
        ("unroll", json!("auto"), "malformed"),
        ("variants", json!("strong"), "malformed"),
        ("variants", json!(["strong"]), "not one of herd's variants"),
    ] {
        for path in ["/api/check", "/api/explain", "/api/execution"] {
            let (status, v) = post(path, &json!({ "test": sb, "model": "tso", knob: value }));
            assert_eq!(status, 400, "{path} {knob}={value}: {v}");
            let message = v["error"]["message"].as_str().unwrap_or_default();
            assert!(message.contains(reason), "{path} {knob}={value}: {message}");
        }
    }
}
