//! The JSON API's handlers: `/api/check`, `/api/explain` and `/api/diff`, over the library
//! API (`litsat::check`, `litsat::explain`). Answers reuse `litsat run --format json`'s
//! record and herd's log, so that the page and the command line say the same thing.

use super::Limits;
use super::assets::bundled_text;
use super::http::Reply;
use crate::expect::Answer;
use crate::runner::{Record, Status};
use litsat::cat::take_refused;
use litsat::diag::{Deadline, Diag, DiagKind, Pos, TIMEOUT};
use litsat::{Error, Model, Options, Test};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The name the request's litmus text goes by in diagnostics and records.
const TEST_ORIGIN: &str = "<request>";
/// The name a custom model's cat text goes by.
const CAT_ORIGIN: &str = "custom.cat";

/// A model as a request names it: bundled, or cat text.
#[derive(Deserialize)]
struct ModelChoice {
    model: Option<String>,
    cat: Option<String>,
}

/// The body of `/api/check` and `/api/explain`.
#[derive(Deserialize)]
struct Job {
    test: String,
    #[serde(flatten)]
    model: ModelChoice,
    #[serde(default)]
    fast: bool,
}

/// One test of `/api/diff`.
#[derive(Deserialize)]
struct NamedTest {
    name: String,
    text: String,
}

/// The body of `/api/diff`.
#[derive(Deserialize)]
struct Diff {
    tests: Vec<NamedTest>,
    a: ModelChoice,
    b: ModelChoice,
}

/// `POST /api/check`: `litsat run --format json`'s record of the test, plus herd's log.
pub fn check(body: &[u8], limits: &Limits) -> Reply {
    reply(body, || {
        let job: Job = parse(body)?;
        let (test, model) = (read_test(&job.test, job.model.cat.as_deref())?, load(&job.model)?);
        let opts = options(limits).fast(job.fast);
        let outcome =
            litsat::check(&test, &model, &opts).map_err(|e| located(&e, &job.test, job.model.cat.as_deref()))?;
        let time = outcome.elapsed().as_secs_f64();
        let record = Record {
            name: test.name().to_string(),
            path: TEST_ORIGIN.to_string(),
            model: model.name(),
            status: Status::Done,
            answer: Some(Answer::of(outcome.internals())),
            time,
            detail: String::new(),
        };
        let mut v = serde_json::to_value(&record).map_err(|e| Reply::error(500, e.to_string()))?;
        v["log"] = Value::String(outcome.log());
        Ok(v)
    })
}

/// `POST /api/explain`: `litsat explain`'s text and the execution's graph.
pub fn explain(body: &[u8], limits: &Limits) -> Reply {
    reply(body, || {
        let job: Job = parse(body)?;
        let (test, model) = (read_test(&job.test, job.model.cat.as_deref())?, load(&job.model)?);
        let at = |e: Error| located(&e, &job.test, job.model.cat.as_deref());
        let started = std::time::Instant::now();
        let exec = litsat::explain(&test, &model, &options(limits)).map_err(at)?;
        // The witness says allowed or not; the Observation takes the (fast) check, within
        // what the explanation left of the request's one timeout.
        let left = limits.timeout.saturating_sub(started.elapsed());
        let fast = litsat::check(&test, &model, &options(limits).fast(true).timeout(Some(left))).map_err(at)?;
        Ok(json!({
            "allowed": exec.allowed(),
            "observation": fast.observation().to_string(),
            "text": exec.to_string(),
            "dot": exec.dot(),
        }))
    })
}

/// `POST /api/diff`: each test's Observation under models A and B (an error per test
/// is its row's entry, not the reply's). All the rows share the request's one timeout:
/// each check runs within what is left of it, and rows past it are timeouts.
pub fn diff(body: &[u8], limits: &Limits) -> Reply {
    reply(body, || {
        let job: Diff = parse(body)?;
        let (a, b) = (load(&job.a)?, load(&job.b)?);
        let deadline = Deadline::after(Some(limits.timeout));
        let observe = |name: &str, test: &Result<Test, Error>, model: &Model| {
            let left = deadline.left().filter(|t| !t.is_zero());
            let run = |t: &Test| match left {
                Some(left) => litsat::check(t, model, &options(limits).fast(true).timeout(Some(left))),
                None => Err(Error::from(Diag::limit(name, TIMEOUT))),
            };
            test.as_ref()
                .map_err(Clone::clone)
                .and_then(run)
                .map_or_else(|e| format!("error: {e}"), |o| o.observation().to_string())
        };
        let rows: Vec<Value> = job
            .tests
            .iter()
            .map(|t| {
                let test = Test::parse(&t.text, &t.name);
                json!({ "name": t.name, "a": observe(&t.name, &test, &a), "b": observe(&t.name, &test, &b) })
            })
            .collect();
        Ok(json!({ "rows": rows }))
    })
}

/// The options every test of a request runs under.
fn options(limits: &Limits) -> Options {
    Options::new().timeout(Some(limits.timeout)).max_events(Some(limits.max_events))
}

/// A handler's answer: its JSON (200) or its error reply; or, when the request brought a
/// cat name past `--max-names`, a limit located at the name's first use in the request.
fn reply(body: &[u8], f: impl FnOnce() -> Result<Value, Reply>) -> Reply {
    let _ = take_refused();
    let answer = f();
    match take_refused() {
        Some(name) => too_many_names(body, &name),
        None => answer.map_or_else(|r| r, |v| Reply::ok(&v)),
    }
}

/// The limit error for a name refused past `--max-names`, in the first of the request's
/// cat texts (then its tests) that spells it.
fn too_many_names(body: &[u8], name: &str) -> Reply {
    let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let cats = [&v["cat"], &v["a"]["cat"], &v["b"]["cat"]].map(|c| (CAT_ORIGIN, c.as_str()));
    let tests = v["tests"].as_array().into_iter().flatten().map(|t| (TEST_ORIGIN, t["text"].as_str()));
    let mut texts = cats.into_iter().chain([(TEST_ORIGIN, v["test"].as_str())]).chain(tests);
    let (file, text, at) =
        texts.find_map(|(f, t)| t.and_then(|t| Some((f, t, t.find(name)?)))).unwrap_or((TEST_ORIGIN, "", 0));
    let message = format!("limit: the server holds its --max-names of cat names; `{name}` is new to it");
    let mut d = Diag::at(file, text, Pos(at), message);
    d.kind = DiagKind::Limit;
    located(&Error::from(d), text, Some(text))
}

/// The request body as `T`; malformed or mistyped JSON is refused (400) with serde's reason.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Reply> {
    serde_json::from_slice(body).map_err(|e| Reply::error(400, format!("malformed request: {e}")))
}

fn read_test(text: &str, cat: Option<&str>) -> Result<Test, Reply> {
    Test::parse(text, TEST_ORIGIN).map_err(|e| located(&e, text, cat))
}

/// The model a request names: an unknown bundled name is the request's fault (400), a
/// cat text that does not load is located in it (422).
fn load(choice: &ModelChoice) -> Result<Model, Reply> {
    match (&choice.model, &choice.cat) {
        (Some(name), None) => Model::bundled(name).map_err(|e| Reply::error(400, e.diag().message.clone())),
        (None, Some(cat)) => Model::from_text(CAT_ORIGIN, cat).map_err(|e| located(&e, "", Some(cat))),
        _ => Err(Reply::error(400, "give either \"model\" (a bundled model's name) or \"cat\" (cat text)")),
    }
}

/// A 422 naming the editor (`test` or `cat`) and the line and column the error is at,
/// rendered as `litsat check` prints it, quoting the text it points into.
fn located(e: &Error, test: &str, cat: Option<&str>) -> Reply {
    let d = e.diag();
    let (input, source) = match d.file.as_str() {
        TEST_ORIGIN => ("test", Some(test)),
        CAT_ORIGIN => ("cat", cat),
        f => ("cat", f.strip_prefix("<bundled>/").and_then(bundled_text)),
    };
    let kind = match e.kind() {
        DiagKind::Unsupported => "unsupported",
        DiagKind::Limit => "limit",
        _ => "error",
    };
    let error = json!({
        "message": d.message,
        "input": input,
        "line": d.line,
        "col": d.col,
        "kind": kind,
        "rendered": d.render(source),
    });
    Reply::json(422, &json!({ "error": error }))
}
