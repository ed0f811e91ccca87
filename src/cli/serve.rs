//! `litsat serve`: a herd-www-like page and the JSON API behind it, served locally
//! (issue #16).
//!
//! hyper reads requests on a small tokio runtime of one thread, and the tests are answered
//! on a bounded pool of blocking threads (`--jobs`), so a runaway test holds one worker
//! (until its `--timeout`), never the server. Every connection is bounded in time and
//! the connections in number (issue #34): a client that declares a huge body, or one it
//! never sends, costs a socket for at most `--read-timeout`. The page, the litmus menu and
//! the bundled models are embedded (`serve/assets.rs`); the only files read are the model
//! files of the folders named by `-I` (`serve/library.rs`), which clients pick by name.

mod api;
mod assets;
mod conn;
mod http;
pub mod library;
pub mod load;

use crate::cli::args::parse_seconds;
use library::Library;
use litsat::diag::Diag;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::oneshot;

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
    /// Drop a client that sends no request head, or no body, within this many seconds
    /// (a body's whole declared length must arrive within it).
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = parse_seconds)]
    pub read_timeout: f64,
    /// Refuse tests with more events than this.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_events: usize,
    /// Refuse cat names new to the server once it holds this many (they are kept for the
    /// life of the process).
    #[arg(long, value_name = "N", default_value_t = MAX_NAMES)]
    pub max_names: usize,
    /// Worker threads answering requests (default: the cores, at least 2).
    #[arg(short = 'j', long)]
    pub jobs: Option<usize>,
    /// A folder of model files (herd's library, the LKMM's), repeatable: the page lists
    /// its `.cfg` and `.cat` files by name, and their includes and the files a cfg names
    /// are looked for in these folders, as `litsat check -I` does.
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include: Vec<PathBuf>,
}

/// What every request is answered under.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Per request: one deadline for all the tests a request runs (a diff's rows, an
    /// explanation and its check).
    pub timeout: Duration,
    pub max_events: usize,
    /// For a request's head, and then for its body.
    pub read_timeout: Duration,
    /// Distinct cat names the process may hold (see `litsat::cat::bound_here`).
    pub max_names: usize,
}

/// The default `--max-names`: a few MB of names, hundreds of times what a bundled model
/// uses (tso with the stdlib: about 100).
pub const MAX_NAMES: usize = 1 << 16;

impl Limits {
    /// `timeout` and `max_events`, with the default `--read-timeout` (10 s) and
    /// `--max-names`.
    pub fn new(timeout: Duration, max_events: usize) -> Limits {
        Limits { timeout, max_events, read_timeout: Duration::from_secs(10), max_names: MAX_NAMES }
    }
}

/// A server answering on its own threads until [`Running::stop`].
pub struct Running {
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    accept: JoinHandle<()>,
}

impl Running {
    /// `http://ADDR:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops accepting, lets the connections open finish, and returns.
    pub fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.accept.join();
    }
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    let limits = Limits {
        timeout: Duration::from_secs_f64(args.timeout),
        max_events: args.max_events,
        read_timeout: Duration::from_secs_f64(args.read_timeout),
        max_names: args.max_names,
    };
    let workers = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let library = Library::scan(&args.include)?;
    let running = start_with(&args.bind, args.port, limits, library, workers)?;
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

/// Binds `bind:port` and starts serving with `workers` workers (at least 2), with the
/// bundled models only.
pub fn start(bind: &str, port: u16, limits: Limits, workers: usize) -> Result<Running, Diag> {
    start_with(bind, port, limits, Library::default(), workers)
}

/// [`start`] offering the model files of `library` too.
pub fn start_with(bind: &str, port: u16, limits: Limits, library: Library, workers: usize) -> Result<Running, Diag> {
    let cannot = |e: std::io::Error| Diag::file("litsat serve", format!("cannot listen on {bind}:{port}: {e}"));
    let listener = std::net::TcpListener::bind((bind, port)).map_err(cannot)?;
    listener.set_nonblocking(true).map_err(cannot)?;
    let addr = listener.local_addr().map_err(cannot)?;
    let workers = workers.max(2);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(workers)
        .build()
        .map_err(|e| Diag::file("litsat serve", format!("cannot start the server: {e}")))?;
    let (stop, stopped) = oneshot::channel();
    let accept = std::thread::spawn(move || runtime.block_on(conn::serve(listener, limits, library, workers, stopped)));
    Ok(Running { addr, stop, accept })
}
