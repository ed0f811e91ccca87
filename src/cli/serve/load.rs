//! `litsat bench --serve`: many clients at once on loopback against an in-process server,
//! with the latencies they see; and the small HTTP client they (and the tests) use.

use super::{Limits, start};
use litsat::diag::Diag;
use serde_json::json;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The SB test the clients check under tso.
const SB: &str = include_str!("../../../litmus/x86/SB.litmus");

/// One HTTP/1.1 request on a fresh connection (closed after the reply): the status and
/// the body. `body` is sent as it is (any bytes) with its Content-Length.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    let mut reply = Vec::new();
    s.read_to_end(&mut reply)?;
    let split = reply.windows(4).position(|w| w == b"\r\n\r\n").map_or(reply.len(), |k| k + 4);
    let status = std::str::from_utf8(&reply[..split])
        .ok()
        .and_then(|h| h.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no HTTP status line in the reply"))?;
    Ok((status, reply[split..].to_vec()))
}

/// Runs `clients` threads, each checking SB under tso `each` times, and reports the count,
/// the errors and the latencies against the target (p99 < 50 ms, no errors). Returns the
/// report and whether the target was met.
pub fn run(clients: usize, each: usize) -> Result<(String, bool), Diag> {
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let server = start("127.0.0.1", 0, Limits::new(Duration::from_secs(10), 64), workers)?;
    let addr = server.addr;
    let body = json!({ "test": SB, "model": "tso" }).to_string();
    let started = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let body = body.clone();
            std::thread::spawn(move || (0..each).map(|_| timed(addr, &body)).collect::<Vec<_>>())
        })
        .collect();
    let mut times: Vec<f64> = Vec::new();
    let mut errors = 0;
    for t in threads {
        for (ms, ok) in t.join().unwrap_or_default() {
            times.push(ms);
            errors += usize::from(!ok);
        }
    }
    let wall = started.elapsed().as_secs_f64();
    server.stop();
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times.get(((times.len() as f64 * p).ceil() as usize).saturating_sub(1)).copied().unwrap_or(0.0);
    let met = errors == 0 && pct(0.99) < 50.0 && times.len() == clients * each;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Serving: {clients} concurrent clients checking SB under tso, {each} requests each ({workers} workers)\n\n\
         | requests | errors | p50 | p99 | max | wall |\n|---|---|---|---|---|---|\n\
         | {} | {errors} | {:.1} ms | {:.1} ms | {:.1} ms | {wall:.2} s |\n\nTarget p99 < 50 ms, no errors: {}",
        times.len(),
        pct(0.5),
        pct(0.99),
        times.last().copied().unwrap_or(0.0),
        if met { "met" } else { "MISSED" }
    );
    Ok((out, met))
}

/// One check's latency in milliseconds, and whether it was answered 200.
fn timed(addr: SocketAddr, body: &str) -> (f64, bool) {
    let t = Instant::now();
    let ok = matches!(request(addr, "POST", "/api/check", body.as_bytes()), Ok((200, _)));
    (t.elapsed().as_secs_f64() * 1e3, ok)
}

/// `litsat bench --serve`: prints the report; exit status 1 when the target is missed.
pub fn main() -> Result<std::process::ExitCode, Diag> {
    let (report, met) = run(50, 20)?;
    crate::out::print(&format!("{report}\n"));
    Ok(if met { std::process::ExitCode::SUCCESS } else { std::process::ExitCode::from(1) })
}
