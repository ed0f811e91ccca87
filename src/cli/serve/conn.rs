//! Connections: the accept loop, and each connection's bounds in time and number, so that
//! no client can hold a socket, a file descriptor or a worker for longer than its limits
//! say (issue #34).

use super::library::Library;
use super::{Limits, http};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

/// Connections open at once; past it, the kernel's backlog holds the rest until one ends.
const MAX_CONNECTIONS: usize = 512;

/// Requests waiting per worker; past it, the server says at once that it is busy.
const QUEUE_PER_WORKER: usize = 64;

/// What every connection shares.
pub struct Shared {
    pub limits: Limits,
    /// One permit per request waiting for or held by a worker.
    pub jobs: Arc<Semaphore>,
    /// The model files of the `-I` folders, and the models loaded from them.
    pub library: Library,
}

/// Accepts connections until `stopped` fires (a dropped sender never stops it), then
/// waits for those open to end.
pub async fn serve(
    listener: std::net::TcpListener,
    limits: Limits,
    library: Library,
    workers: usize,
    stopped: oneshot::Receiver<()>,
) {
    let Ok(listener) = TcpListener::from_std(listener) else { return };
    let jobs = Arc::new(Semaphore::new(workers * QUEUE_PER_WORKER));
    let shared = Arc::new(Shared { limits, jobs, library });
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let stop = async {
        if stopped.await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            _ = &mut stop => break,
            a = accept(&listener, &open) => a,
        };
        if let Some((stream, permit)) = accepted {
            tokio::spawn(connection(stream, shared.clone(), permit));
        }
    }
    let _ = open.acquire_many(MAX_CONNECTIONS as u32).await;
}

/// The next connection, once fewer than [`MAX_CONNECTIONS`] are open. An accept that fails
/// (out of file descriptors, say) waits a moment rather than spin.
async fn accept(listener: &TcpListener, open: &Arc<Semaphore>) -> Option<(TcpStream, OwnedSemaphorePermit)> {
    let permit = open.clone().acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((stream, _)) => Some((stream, permit)),
        Err(_) => {
            tokio::time::sleep(Duration::from_millis(10)).await;
            None
        }
    }
}

/// Serves one request on `stream`, then closes it. hyper drops a client whose head is not
/// in within `--read-timeout`, [`http::answer`] one whose body is not; the whole connection
/// is bounded too, for a client that never reads its reply.
async fn connection(stream: TcpStream, shared: Arc<Shared>, _open: OwnedSemaphorePermit) {
    let _ = stream.set_nodelay(true);
    let limits = shared.limits.clone();
    let service = service_fn(move |req| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(http::answer(req, &shared).await) }
    });
    // One request per connection: every reply closes it.
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.read_timeout)
        .keep_alive(false)
        .serve_connection(TokioIo::new(stream), service);
    let bound = 2 * limits.timeout + 3 * limits.read_timeout;
    let _ = tokio::time::timeout(bound, conn).await;
}
