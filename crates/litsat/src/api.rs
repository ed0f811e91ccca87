//! The library's public face: a model, a test, a question, an answer.
//!
//! Everything else in the crate is the pipeline behind these types, private so that it
//! can change. A program needs only [`Model`], [`Test`], [`check`], [`Options`] and what
//! [`check`] returns: an [`Outcome`] or an [`Error`].

use crate::cat::load::{bundled_names, load_text};
use crate::cat::{ChooseModel, ModelSpec, Models};
use crate::diag::{Diag, DiagKind};
use crate::explain::{self, Analysis, Verdict};
use crate::litmus::{self, parse_test};
use crate::query::{self, StateKey};
use crate::report;
use std::fmt;
use std::path::{Path, PathBuf};

pub use crate::query::{Observation, Options};

/// A memory model: a cat file with what it includes (and, from a herd `.cfg`, its bell and
/// macro files), or herd's default model for each test's architecture.
pub struct Model(Models);

impl Model {
    /// A model bundled in the library: `sc`, `tso`, `relaxed`, `rvwmo`, `aarch64`, `c11`,
    /// `rc11`, `power` or `armv7`.
    pub fn bundled(name: &str) -> Result<Model, Error> {
        if !bundled_names().contains(&name) {
            let known = bundled_names().join(", ");
            return Err(Diag::file(name, format!("no bundled model '{name}' (bundled: {known})")).into());
        }
        Model::load(&ModelSpec { model: Some(name.to_string()), ..ModelSpec::default() }, &[])
    }

    /// A `.cat` file, or a herd `.cfg` file naming a model, bell and macros. Included files
    /// are searched in the including file's folder, then `includes`, then `LITSAT_LIB`,
    /// then the bundled library, as `litsat check -I` does.
    pub fn from_file(path: impl AsRef<Path>, includes: &[PathBuf]) -> Result<Model, Error> {
        let model = path.as_ref().to_string_lossy().to_string();
        Model::load(&ModelSpec { model: Some(model), ..ModelSpec::default() }, includes)
    }

    /// A model given as cat text, named `name` in diagnostics. Its includes (and the
    /// stdlib) come from the bundled library only: nothing is read from the file system,
    /// so a server can load the models its clients send.
    pub fn from_text(name: &str, text: &str) -> Result<Model, Error> {
        Ok(Model(Models::Named(Box::new(load_text(name, text)?))))
    }

    /// herd's default for each test's architecture, through the bundled model that stands
    /// for it (X86 → `tso`, RISC-V → `rvwmo`, C → `c11`, …).
    pub fn herd_default() -> Result<Model, Error> {
        Model::load(&ModelSpec::default(), &[])
    }

    fn load(spec: &ModelSpec, includes: &[PathBuf]) -> Result<Model, Error> {
        Ok(Model(Models::load(spec, includes)?))
    }

    /// The name reports give the model: a bundled name, a path, or `default`.
    pub fn name(&self) -> String {
        self.0.display_name()
    }

    /// The loaded programs behind this model, for litsat's own server (which steps
    /// through executions with the pipeline's `explain::step`).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn internals(&self) -> &Models {
        &self.0
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model({})", self.name())
    }
}

/// A parsed litmus test, with its text (which diagnostics quote).
#[derive(Clone, Debug)]
pub struct Test {
    parsed: litmus::Test,
    origin: String,
    text: String,
}

impl Test {
    /// Parses a litmus test; `origin` names it in diagnostics (usually its path).
    pub fn parse(text: &str, origin: &str) -> Result<Test, Error> {
        let parsed = parse_test(origin, text)?;
        Ok(Test { parsed, origin: origin.to_string(), text: text.to_string() })
    }

    /// Reads and parses a litmus file.
    pub fn read(path: impl AsRef<Path>) -> Result<Test, Error> {
        let origin = path.as_ref().to_string_lossy().to_string();
        let bytes = std::fs::read(path.as_ref()).map_err(|e| Diag::file(&origin, format!("cannot read: {e}")))?;
        Test::parse(&String::from_utf8_lossy(&bytes), &origin)
    }

    /// The test's name, from its first line.
    pub fn name(&self) -> &str {
        &self.parsed.name
    }

    /// The architecture the test is written for (`X86`, `AArch64`, `C`, …).
    pub fn arch(&self) -> &str {
        &self.parsed.arch
    }
}

/// Answers the test's question under the model: its final states, how many executions
/// satisfy the condition, and the Observation herd would print.
pub fn check(test: &Test, model: &Model, opts: &Options) -> Result<Outcome, Error> {
    let prog = model.0.for_test(&test.parsed, &test.origin)?;
    // A log cut short by a limit is an error here: the API answers whole questions.
    let out = query::run(test.parsed.clone(), &test.origin, &test.text, prog, opts)?.complete()?;
    Ok(Outcome(out))
}

/// A witness execution of the test's outcome when the model allows it, or `None` when it
/// forbids it. The SAT query behind it is asked afresh, apart from [`check`]'s.
pub fn witness(test: &Test, model: &Model, opts: &Options) -> Result<Option<Execution>, Error> {
    let a = analyse(test, model, opts)?;
    Ok(match a.verdict {
        Verdict::Allowed => Some(Execution(a)),
        _ => None,
    })
}

/// Why the model forbids the test's outcome (its checks and the cycle that breaks them),
/// or a witness when it allows it: `litsat explain`.
pub fn explain(test: &Test, model: &Model, opts: &Options) -> Result<Execution, Error> {
    Ok(Execution(analyse(test, model, opts)?))
}

fn analyse(test: &Test, model: &Model, opts: &Options) -> Result<Analysis, Error> {
    let prog = model.0.for_test(&test.parsed, &test.origin)?;
    let enc = explain::encode(test.parsed.clone(), &test.origin, &test.text, prog, opts)?;
    Ok(explain::analyse(enc, prog, &test.origin)?)
}

/// The answer to a test: what herd7 prints for it.
#[derive(Clone, Debug)]
pub struct Outcome(query::Outcome);

impl Outcome {
    /// The Observation.
    pub fn observation(&self) -> Observation {
        self.0.observation()
    }

    /// The final states, in herd's order (empty under `Options::fast`).
    pub fn states(&self) -> Vec<State> {
        self.0.states.iter().map(State::of).collect()
    }

    /// Executions that satisfy the condition's proposition, and those that do not: the two
    /// numbers of herd's `Observation` line.
    /// They are exact past `u64`, where counting (issue #15) finds that many.
    pub fn counts(&self) -> (u128, u128) {
        (self.0.pos, self.0.neg)
    }

    /// herd's flags (`Flag` lines), such as `data-race` or `undefined-behaviour`.
    pub fn flags(&self) -> impl Iterator<Item = &str> {
        self.0.flags.iter().map(String::as_str)
    }

    /// Under `Options::certify`, the `Certificate` line: how the verdict was checked.
    pub fn certificate(&self) -> Option<&str> {
        self.0.certificate.as_deref()
    }

    /// Whether some execution was dropped at the loop-unrolling bound (herd's `Loop`).
    pub fn looped(&self) -> bool {
        self.0.looped
    }

    /// The pipeline's outcome behind this answer, for litsat's own command line (which
    /// turns it into its JSON records).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn internals(&self) -> &query::Outcome {
        &self.0
    }

    /// herd7's log of the test, with `seconds` on its `Time` line.
    pub fn log(&self, seconds: f64) -> String {
        report::herd_log(&self.0, seconds)
    }
}

/// One final state: each observed place with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    places: Vec<(String, String)>,
    line: String,
}

impl State {
    fn of(key: &StateKey) -> State {
        let split = |(l, v): &(litmus::Loc, query::SortVal)| {
            let (mut place, mut value) = (String::new(), String::new());
            report::push_place(&mut place, l, false);
            report::push_value(&mut value, v, false);
            (place, value)
        };
        State { places: key.0.iter().map(split).collect(), line: report::state_line(key) }
    }

    /// `(place, value)` pairs in herd's order, such as `("0:EAX", "1")` or `("x", "2")`.
    pub fn places(&self) -> &[(String, String)] {
        &self.places
    }
}

impl fmt::Display for State {
    /// herd's state line: `0:EAX=1; [x]=2;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line)
    }
}

/// An execution of a test: a witness of its outcome, or, when the model forbids the
/// outcome, a candidate execution with the checks that forbid it.
pub struct Execution(Analysis);

impl Execution {
    /// Whether the model allows the test's outcome.
    pub fn allowed(&self) -> bool {
        matches!(self.0.verdict, Verdict::Allowed)
    }

    /// The execution as a Graphviz graph, the forbidding cycle in bold.
    pub fn dot(&self) -> String {
        explain::dot::render(&self.0)
    }
}

impl fmt::Debug for Execution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Execution({}, allowed: {})", self.0.test.name, self.allowed())
    }
}

impl fmt::Display for Execution {
    /// `litsat explain`'s text: the verdict, the checks that forbid it and their cycle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&explain::render_text(&self.0))
    }
}

/// Why a test or model could not be answered, with where: file, 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Malformed input: a litmus, cat, bell, def or cfg file, or an unreadable one.
    Input(Diag),
    /// Well-formed input that uses something litsat does not support.
    Unsupported(Diag),
    /// A limit (`Options::timeout`, `Options::max_events`) stopped the test.
    Limit(Diag),
}

impl Error {
    /// The located diagnostic behind the error.
    pub fn diag(&self) -> &Diag {
        match self {
            Error::Input(d) | Error::Unsupported(d) | Error::Limit(d) => d,
        }
    }

    /// `(file, line, column)`, 1-based.
    pub fn location(&self) -> (&str, usize, usize) {
        let d = self.diag();
        (&d.file, d.line, d.col)
    }

    /// The error as miette renders it, quoting `source`, the text of the file it points
    /// into (from [`Error::location`]); without it, one line.
    pub fn render(&self, source: Option<&str>) -> String {
        self.diag().render(source)
    }
}

impl From<Diag> for Error {
    fn from(d: Diag) -> Error {
        match d.kind {
            DiagKind::Error => Error::Input(d),
            DiagKind::Unsupported => Error::Unsupported(d),
            DiagKind::Limit => Error::Limit(d),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diag().fmt(f)
    }
}

impl std::error::Error for Error {}
