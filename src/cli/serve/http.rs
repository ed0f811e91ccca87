//! Requests to replies: routing, the body limit, and the JSON error shape. A handler
//! that panics after all is answered 500 instead of taking its worker down.

use super::{Limits, api, assets};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::io::{Cursor, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use tiny_http::{Header, Method, Request, Response, StatusCode};

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

    fn into_response(self) -> Response<Cursor<Cow<'static, [u8]>>> {
        let len = self.body.len();
        // One request per connection: on reused keep-alive connections tiny_http 0.12 now
        // and then left a request unanswered (about 1 in 900 in the page's tests; none
        // once every connection closed after its reply).
        let headers = [("Content-Type", self.content_type), ("Connection", "close")];
        let headers = headers.iter().filter_map(|(k, v)| Header::from_bytes(*k, *v).ok()).collect();
        // Always a Content-Length, never chunked: every reply's size is known.
        Response::new(StatusCode(self.status), headers, Cursor::new(self.body), Some(len), None)
            .with_chunked_threshold(usize::MAX)
    }
}

/// A declared body past this is refused without letting tiny_http drain it (see
/// [`refuse_huge`]).
const DRAIN_LIMIT: usize = 64 << 20;

/// Answers one request on this (worker) thread.
pub fn answer(mut req: Request, limits: &Limits) {
    if req.body_length().is_some_and(|n| n > DRAIN_LIMIT) {
        return refuse_huge(req);
    }
    let reply = catch_unwind(AssertUnwindSafe(|| route(&mut req, limits)))
        .unwrap_or_else(|_| Reply::error(500, "internal error: litsat could not answer this request"));
    let _ = req.respond(reply.into_response());
}

/// Answers 413 to a request declaring a huge body, and leaks its connection: tiny_http
/// 0.12 drains an unread body when a request is dropped, into one buffer the size of what
/// is left, so that dropping a request that declares a terabyte would abort the process.
fn refuse_huge(req: Request) {
    std::mem::forget(req.upgrade("none", too_big().into_response()));
}

fn too_big() -> Reply {
    Reply::error(413, "request body over 1 MB")
}

/// Answers at once that the queue is full.
pub fn busy(req: Request) {
    let _ = req.respond(Reply::error(503, "the server is busy: try again").into_response());
}

/// The reply for a method and path (query string ignored).
fn route(req: &mut Request, limits: &Limits) -> Reply {
    let path = req.url().split('?').next().unwrap_or("").to_string();
    // HEAD is GET without the body, which tiny_http leaves out of a HEAD's reply itself.
    let get = matches!(req.method(), Method::Get | Method::Head);
    let post = *req.method() == Method::Post;
    if let Some(asset) = assets::file(&path) {
        return if get { asset } else { not_allowed("GET") };
    }
    let answer: fn(&[u8], &Limits) -> Reply = match path.as_str() {
        "/api/tests" | "/api/models" if !get => return not_allowed("GET"),
        "/api/tests" => return Reply::ok(&assets::tests()),
        "/api/models" => return Reply::ok(&assets::models()),
        "/api/check" => api::check,
        "/api/explain" => api::explain,
        "/api/diff" => api::diff,
        _ => return Reply::error(404, format!("no such page or endpoint: {path}")),
    };
    if !post {
        return not_allowed("POST");
    }
    match body(req) {
        Ok(bytes) => answer(&bytes, limits),
        Err(reply) => reply,
    }
}

fn not_allowed(method: &str) -> Reply {
    Reply::error(405, format!("method not allowed: use {method}"))
}

/// The request body, read up to [`BODY_LIMIT`] + 1 bytes: more is refused (413).
fn body(req: &mut Request) -> Result<Vec<u8>, Reply> {
    if req.body_length().is_some_and(|n| n > BODY_LIMIT) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    req.as_reader()
        .take(BODY_LIMIT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Reply::error(400, format!("cannot read the request body: {e}")))?;
    if bytes.len() > BODY_LIMIT {
        return Err(too_big());
    }
    Ok(bytes)
}
