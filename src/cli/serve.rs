//! `litsat serve`: a herd-www-like page and the JSON API behind it, served locally
//! (issue #16).
//!
//! tiny_http's threads read requests; one accept loop hands each to a bounded pool of
//! workers through a bounded queue and never answers a test itself, so a runaway test holds
//! one worker (until its `--timeout`), never the server. Nothing is read from the file
//! system: the page, the litmus menu and the models are embedded (`serve/assets.rs`).

mod api;
mod assets;
mod http;
pub mod load;

use crate::cli::args::parse_seconds;
use litsat::diag::Diag;
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8017)]
    pub port: u16,
    /// The address to bind: loopback by default, so that only this machine can connect.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Open the page in the browser (by `xdg-open`).
    #[arg(long)]
    pub open: bool,
    /// Stop each request's test after this many seconds (answered 422, kind "limit").
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Refuse tests with more events than this.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_events: usize,
    /// Worker threads answering requests (default: the cores, at least 2).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
}

/// What every request is answered under.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Per test (each model of a diff counts apart).
    pub timeout: Duration,
    pub max_events: usize,
}

/// A server answering on its own threads until [`Running::stop`].
pub struct Running {
    pub addr: SocketAddr,
    server: Arc<tiny_http::Server>,
    accept: JoinHandle<()>,
}

impl Running {
    /// `http://ADDR:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops accepting, lets the workers finish the requests they hold, and returns.
    pub fn stop(self) {
        self.server.unblock();
        let _ = self.accept.join();
    }
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    let limits = Limits { timeout: Duration::from_secs_f64(args.timeout), max_events: args.max_events };
    let workers = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let running = start(&args.bind, args.port, limits, workers)?;
    let url = running.url();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "Listening on {url}");
    let _ = out.flush();
    drop(out);
    if args.open {
        let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
    }
    let _ = running.accept.join();
    Ok(ExitCode::SUCCESS)
}

/// Binds `bind:port` and starts the accept loop and `workers` workers (at least 2).
pub fn start(bind: &str, port: u16, limits: Limits, workers: usize) -> Result<Running, Diag> {
    let server = tiny_http::Server::http((bind, port))
        .map_err(|e| Diag::file("litsat serve", format!("cannot listen on {bind}:{port}: {e}")))?;
    let addr =
        server.server_addr().to_ip().ok_or_else(|| Diag::file("litsat serve", "the server has no IP address"))?;
    let server = Arc::new(server);
    let workers = workers.max(2);
    // Many requests may wait per worker (a page's campaign, a load test); past that, the
    // server says at once that it is busy.
    let (tx, rx) = sync_channel::<tiny_http::Request>(workers * 64);
    let rx = Arc::new(Mutex::new(rx));
    let limits = Arc::new(limits);
    let pool: Vec<JoinHandle<()>> = (0..workers)
        .map(|_| {
            std::thread::spawn({
                let (rx, limits) = (rx.clone(), limits.clone());
                move || work(&rx, &limits)
            })
        })
        .collect();
    let accept = std::thread::spawn({
        let server = server.clone();
        move || accept(&server, tx, pool)
    });
    Ok(Running { addr, server, accept })
}

/// Hands requests to the workers until the server is unblocked, then waits for them.
fn accept(server: &tiny_http::Server, tx: SyncSender<tiny_http::Request>, pool: Vec<JoinHandle<()>>) {
    for req in server.incoming_requests() {
        if let Err(TrySendError::Full(req)) = tx.try_send(req) {
            http::busy(req);
        }
    }
    drop(tx);
    for w in pool {
        let _ = w.join();
    }
}

/// A worker: answers requests until the queue closes.
fn work(rx: &Mutex<Receiver<tiny_http::Request>>, limits: &Limits) {
    loop {
        // The lock is held only to take one request, not while answering it.
        let next = rx.lock().map(|r| r.recv());
        match next {
            Ok(Ok(req)) => http::answer(req, limits),
            _ => return,
        }
    }
}
