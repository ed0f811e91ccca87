//! Requests to replies: routing, the body limit and its time, and the JSON error shape. A
//! handler that panics after all is answered 500 instead of taking its worker down.

use super::conn::Shared;
use super::library::Library;
use super::{Limits, api, assets};
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Body, Bytes, Incoming};
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

/// The largest request body accepted: 1 MB.
pub const BODY_LIMIT: usize = 1 << 20;

const JSON: &str = "application/json";

/// A response before it is written.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Cow<'static, [u8]>,
}

impl Reply {
    pub fn json(status: u16, v: &Value) -> Reply {
        Reply { status, content_type: JSON, body: Cow::Owned(v.to_string().into_bytes()) }
    }

    pub fn ok(v: &Value) -> Reply {
        Reply::json(200, v)
    }

    /// `{"error":{"message":…}}`.
    pub fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply::json(status, &json!({ "error": { "message": message.into() } }))
    }

    /// Always with a Content-Length (hyper's, from the body's known size), never chunked;
    /// hyper leaves the body out of a reply to HEAD.
    fn into_response(self) -> Response<Full<Bytes>> {
        let body = match self.body {
            Cow::Borrowed(b) => Bytes::from_static(b),
            Cow::Owned(v) => Bytes::from(v),
        };
        let mut r = Response::new(Full::new(body));
        *r.status_mut() = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        r.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        r
    }
}

/// An API handler: the body to its reply, on a worker.
type Handler = fn(&[u8], &Limits, &Library) -> Reply;

/// Answers one request.
pub async fn answer(req: Request<Incoming>, shared: &Arc<Shared>) -> Response<Full<Bytes>> {
    route(req, shared).await.into_response()
}

/// The reply for a method and path (query string ignored).
async fn route(req: Request<Incoming>, shared: &Arc<Shared>) -> Reply {
    let path = req.uri().path().to_string();
    let get = matches!(*req.method(), Method::GET | Method::HEAD);
    let post = *req.method() == Method::POST;
    if let Some(asset) = assets::file(&path) {
        return if get { asset } else { not_allowed("GET") };
    }
    let answer: Handler = match path.as_str() {
        "/api/tests" | "/api/models" if !get => return not_allowed("GET"),
        "/api/tests" => return Reply::ok(&assets::tests()),
        "/api/models" => return Reply::ok(&assets::models(&shared.library)),
        "/api/check" => api::check,
        "/api/explain" => api::explain,
        "/api/execution" => api::execution,
        "/api/diff" => api::diff,
        _ => return Reply::error(404, format!("no such page or endpoint: {path}")),
    };
    if !post {
        return not_allowed("POST");
    }
    match body(req, shared.limits.read_timeout).await {
        Ok(bytes) => work(answer, bytes, shared).await,
        Err(reply) => reply,
    }
}

/// Runs `answer` on a worker (a blocking thread: a solver call cannot yield), or says at
/// once that too many requests are waiting.
async fn work(answer: Handler, body: Bytes, shared: &Arc<Shared>) -> Reply {
    let Ok(queued) = shared.jobs.clone().try_acquire_owned() else {
        return Reply::error(503, "the server is busy: try again");
    };
    let shared = shared.clone();
    let job = move || {
        let _queued = queued;
        // Workers are the only threads that intern what clients send.
        litsat::cat::bound_here(Some(shared.limits.max_names));
        catch_unwind(AssertUnwindSafe(|| answer(&body, &shared.limits, &shared.library))).unwrap_or_else(|_| internal())
    };
    tokio::task::spawn_blocking(job).await.unwrap_or_else(|_| internal())
}

fn internal() -> Reply {
    Reply::error(500, "internal error: litsat could not answer this request")
}

fn not_allowed(method: &str) -> Reply {
    Reply::error(405, format!("method not allowed: use {method}"))
}

fn too_big() -> Reply {
    Reply::error(413, "request body over 1 MB")
}

/// A declared body over [`BODY_LIMIT`] but under this is read and dropped before the 413,
/// so that a client sending it all gets the reply rather than a reset connection; a larger
/// one is answered at once.
const DRAIN_LIMIT: u64 = 16 << 20;

/// The request body, up to [`BODY_LIMIT`] bytes (more, or more declared, is refused: 413),
/// all of it within `wait` (else 408: the connection closes with the reply).
async fn body(req: Request<Incoming>, wait: Duration) -> Result<Bytes, Reply> {
    let mut body = req.into_body();
    let declared = body.size_hint().lower();
    if declared > BODY_LIMIT as u64 {
        if declared <= DRAIN_LIMIT {
            let drain = async { while body.frame().await.is_some_and(|f| f.is_ok()) {} };
            let _ = tokio::time::timeout(wait, drain).await;
        }
        return Err(too_big());
    }
    match tokio::time::timeout(wait, Limited::new(body, BODY_LIMIT).collect()).await {
        Ok(Ok(all)) => Ok(all.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(too_big()),
        Ok(Err(e)) => Err(Reply::error(400, format!("cannot read the request body: {e}"))),
        Err(_) => Err(Reply::error(408, "the request body did not arrive within --read-timeout")),
    }
}
