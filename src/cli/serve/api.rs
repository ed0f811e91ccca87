//! The JSON API's handlers: `/api/check`, `/api/explain`, `/api/execution` and
//! `/api/diff`, over the library API (`litsat::check`, `litsat::explain`) and, to step
//! through executions, the pipeline's `explain::step`. Answers reuse `litsat run --format
//! json`'s record and herd's log, so that the page and the command line say the same thing.

use super::Limits;
use super::assets::bundled_text;
use super::http::Reply;
use super::library::Library;
use crate::expect::Answer;
use crate::runner::{Record, Status};
use litsat::cat::{ChooseModel, take_refused};
use litsat::diag::{Deadline, Diag, DiagKind, Pos, TIMEOUT};
use litsat::explain::step::{self, Among};
use litsat::{Error, Model, Options, Test};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::sync::Arc;

/// The name the request's litmus text goes by in diagnostics and records.
const TEST_ORIGIN: &str = "<request>";
/// The name a custom model's cat text goes by.
const CAT_ORIGIN: &str = "custom.cat";

/// A model as a request names it: bundled or one of the server's model files (by the
/// name `/api/models` lists), or cat text.
#[derive(Deserialize)]
struct ModelChoice {
    model: Option<String>,
    cat: Option<String>,
}

/// Variants, checks to skip and the unrolling bound: herd's `-variant`, `-skipchecks` and
/// `-unroll`. Each list holds at most [`MAX_KNOBS`] names of at most [`MAX_KNOB_LEN`]
/// letters, digits, `_`, `-`, `.` or `+`; the bound is at most [`MAX_UNROLL`].
#[derive(Deserialize, Default)]
struct Knobs {
    #[serde(default)]
    variants: Vec<String>,
    #[serde(default)]
    skipchecks: Vec<String>,
    unroll: Option<usize>,
}

/// Names per list of [`Knobs`].
pub const MAX_KNOBS: usize = 16;
/// Characters per name of [`Knobs`].
pub const MAX_KNOB_LEN: usize = 64;
/// The highest `unroll` a request may ask for (as `--unroll auto` goes no further).
pub const MAX_UNROLL: usize = litsat::query::AUTO_UNROLL_LIMIT;
/// The highest execution index `/api/execution` steps to: reaching the k-th execution
/// takes k + 2 solver calls.
pub const MAX_STEP: usize = 1000;

impl Knobs {
    /// The knobs, or a 400 saying which one is refused and why.
    fn checked(self) -> Result<Knobs, Reply> {
        for (field, names) in [("variants", &self.variants), ("skipchecks", &self.skipchecks)] {
            if names.len() > MAX_KNOBS {
                return Err(Reply::error(400, format!("\"{field}\": {} names, more than {MAX_KNOBS}", names.len())));
            }
            let ok = |n: &String| {
                !n.is_empty()
                    && n.len() <= MAX_KNOB_LEN
                    && n.chars().all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c))
            };
            if let Some(bad) = names.iter().find(|n| !ok(n)) {
                let shown: String = bad.chars().take(MAX_KNOB_LEN).collect();
                return Err(Reply::error(
                    400,
                    format!("\"{field}\": {shown:?} is not a name (1 to {MAX_KNOB_LEN} letters, digits, _, -, . or +)"),
                ));
            }
        }
        // herd's names only, as `-variant` takes them (`variant::known`).
        if let Some(bad) = self.variants.iter().find(|v| !litsat::variant::known(v)) {
            return Err(Reply::error(400, format!("\"variants\": {bad:?} is not one of herd's variants")));
        }
        if let Some(u) = self.unroll.filter(|&u| u > MAX_UNROLL) {
            return Err(Reply::error(400, format!("\"unroll\": {u} is more than {MAX_UNROLL}")));
        }
        Ok(self)
    }
}

/// The body of `/api/check`, `/api/explain` and `/api/execution`.
#[derive(Deserialize)]
struct Job {
    test: String,
    #[serde(flatten)]
    model: ModelChoice,
    #[serde(default)]
    fast: bool,
    #[serde(flatten)]
    knobs: Knobs,
    /// `/api/execution`: which execution, from 0.
    #[serde(default)]
    index: usize,
    /// `/api/execution`: `"all"` (every execution the model allows; the default) or
    /// `"outcome"` (those reaching the outcome `explain` explains).
    among: Option<String>,
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
    #[serde(flatten)]
    knobs: Knobs,
}

/// `POST /api/check`: `litsat run --format json`'s record of the test, plus herd's log.
pub fn check(body: &[u8], limits: &Limits, lib: &Library) -> Reply {
    reply(body, || {
        let job: Job = parse(body)?;
        let opts = options(limits, &job.knobs)?.fast(job.fast);
        let (test, model) = (read_test(&job.test, job.model.cat.as_deref())?, load(&job.model, lib)?);
        let outcome = litsat::check(&test, &model, &opts).map_err(|e| located(&e, &job, lib))?;
        let time = outcome.elapsed().as_secs_f64();
        let record = Record {
            name: test.name().to_string(),
            path: TEST_ORIGIN.to_string(),
            model: shown_name(&job.model, &model, lib),
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
pub fn explain(body: &[u8], limits: &Limits, lib: &Library) -> Reply {
    reply(body, || {
        let job: Job = parse(body)?;
        let opts = options(limits, &job.knobs)?;
        let (test, model) = (read_test(&job.test, job.model.cat.as_deref())?, load(&job.model, lib)?);
        let at = |e: Error| located(&e, &job, lib);
        let started = std::time::Instant::now();
        let exec = litsat::explain(&test, &model, &opts).map_err(at)?;
        // The witness says allowed or not; the Observation takes the (fast) check, within
        // what the explanation left of the request's one timeout.
        let left = limits.timeout.saturating_sub(started.elapsed());
        let fast = litsat::check(&test, &model, &opts.clone().fast(true).timeout(Some(left))).map_err(at)?;
        let (path, name) = (model.name(), shown_name(&job.model, &model, lib));
        Ok(json!({
            "allowed": exec.allowed(),
            "observation": fast.observation().to_string(),
            "text": exec.to_string().replace(&path, &name),
            "dot": exec.dot().replace(&path, &name),
        }))
    })
}

/// `POST /api/execution`: the `index`-th execution of the test (from 0) among `among`'s,
/// its text and graph, and whether another follows; `"execution": null` past the last.
/// The order is the solver's, the same on every request for the same inputs.
pub fn execution(body: &[u8], limits: &Limits, lib: &Library) -> Reply {
    reply(body, || {
        let job: Job = parse(body)?;
        let opts = options(limits, &job.knobs)?;
        let among = match job.among.as_deref() {
            None | Some("all") => Among::All,
            Some("outcome") => Among::Outcome,
            Some(other) => {
                let shown: String = other.chars().take(32).collect();
                return Err(Reply::error(400, format!("\"among\": {shown:?} is neither \"all\" nor \"outcome\"")));
            }
        };
        if job.index >= MAX_STEP {
            return Err(Reply::error(
                400,
                format!("\"index\": {} is past the {MAX_STEP} executions served", job.index),
            ));
        }
        let (_, model) = (read_test(&job.test, job.model.cat.as_deref())?, load(&job.model, lib)?);
        let at = |d: Diag| located(&Error::from(d), &job, lib);
        let parsed = litsat::litmus::parse_test(TEST_ORIGIN, &job.test).map_err(at)?;
        let prog = model.internals().for_test(&parsed, TEST_ORIGIN).map_err(at)?;
        let found = step::nth(parsed, TEST_ORIGIN, &job.test, prog, &opts, among, job.index).map_err(at)?;
        let Some(mut s) = found else {
            return Ok(json!({ "index": job.index, "more": false, "execution": null }));
        };
        s.analysis.model = shown_name(&job.model, &model, lib);
        Ok(json!({
            "index": job.index,
            "more": s.more,
            "execution": {
                "satisfies": s.satisfies,
                "text": s.text(),
                "dot": litsat::explain::dot::render_titled(&s.analysis, &s.title()),
            },
        }))
    })
}

/// `POST /api/diff`: each test's Observation under models A and B (an error per test
/// is its row's entry, not the reply's). All the rows share the request's one timeout:
/// each check runs within what is left of it, and rows past it are timeouts.
pub fn diff(body: &[u8], limits: &Limits, lib: &Library) -> Reply {
    reply(body, || {
        let job: Diff = parse(body)?;
        let opts = options(limits, &job.knobs)?;
        let (a, b) = (load(&job.a, lib)?, load(&job.b, lib)?);
        let deadline = Deadline::after(Some(limits.timeout));
        let observe = |name: &str, test: &Result<Test, Error>, model: &Model| {
            let left = deadline.left().filter(|t| !t.is_zero());
            let run = |t: &Test| match left {
                Some(left) => litsat::check(t, model, &opts.clone().fast(true).timeout(Some(left))),
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

/// The options every test of a request runs under, with the request's knobs (checked).
fn options(limits: &Limits, knobs: &Knobs) -> Result<Options, Reply> {
    let k = Knobs { variants: knobs.variants.clone(), skipchecks: knobs.skipchecks.clone(), unroll: knobs.unroll }
        .checked()?;
    Ok(Options::new()
        .timeout(Some(limits.timeout))
        .max_events(Some(limits.max_events))
        .variants(k.variants)
        .skipchecks(k.skipchecks)
        .unroll(k.unroll))
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
    located_in(&Error::from(d), text, Some(text), &Library::default())
}

/// The request body as `T`; malformed or mistyped JSON is refused (400) with serde's reason.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Reply> {
    serde_json::from_slice(body).map_err(|e| Reply::error(400, format!("malformed request: {e}")))
}

fn read_test(text: &str, cat: Option<&str>) -> Result<Test, Reply> {
    Test::parse(text, TEST_ORIGIN).map_err(|e| located_in(&e, text, cat, &Library::default()))
}

/// The model a request names: an unknown name is the request's fault (400), a cat text
/// that does not load is located in it (422), and so is an error in a listed model file
/// (`"input": "model"`).
fn load(choice: &ModelChoice, lib: &Library) -> Result<Arc<Model>, Reply> {
    match (&choice.model, &choice.cat) {
        (Some(name), None) => match lib.model(name) {
            Some(m) => m.map_err(|e| located_in(&e, "", None, lib)),
            None => Model::bundled(name).map(Arc::new).map_err(|e| {
                let mut message = e.diag().message.clone();
                if !lib.entries().is_empty() {
                    message.push_str("; nor is it one of the server's model files (GET /api/models lists them)");
                }
                Reply::error(400, message)
            }),
        },
        (None, Some(cat)) => {
            Model::from_text(CAT_ORIGIN, cat).map(Arc::new).map_err(|e| located_in(&e, "", Some(cat), lib))
        }
        _ => {
            Err(Reply::error(400, "give either \"model\" (a model's name from GET /api/models) or \"cat\" (cat text)"))
        }
    }
}

/// The name answers give the model: a model file's listed name, never its path on the
/// server; else the library's name for it (a bundled name, `custom.cat`).
fn shown_name(choice: &ModelChoice, model: &Model, lib: &Library) -> String {
    match &choice.model {
        Some(name) if lib.lists(name) => name.clone(),
        _ => model.name(),
    }
}

/// [`located_in`] the texts of a job.
fn located(e: &Error, job: &Job, lib: &Library) -> Reply {
    located_in(e, &job.test, job.model.cat.as_deref(), lib)
}

/// A 422 naming the editor (`test` or `cat`, or `model` for one of the server's model
/// files) and the line and column the error is at, rendered as `litsat check` prints it,
/// quoting the text it points into.
fn located_in(e: &Error, test: &str, cat: Option<&str>, lib: &Library) -> Reply {
    let d = e.diag();
    let file_text;
    let (input, source) = match d.file.as_str() {
        TEST_ORIGIN => ("test", Some(test)),
        CAT_ORIGIN => ("cat", cat),
        f if f.starts_with("<bundled>/") => ("cat", f.strip_prefix("<bundled>/").and_then(bundled_text)),
        f => {
            // A file the loader read from the -I folders (or, as herd does for a cfg's
            // files, the current folder): quoted only when it is one the server lists.
            file_text = lib
                .entries()
                .iter()
                .any(|x| x.path.as_os_str() == f)
                .then(|| std::fs::read_to_string(f).ok())
                .flatten();
            ("model", file_text.as_deref())
        }
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
