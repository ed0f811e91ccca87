//! The library's public face: a model, a test, a question, an answer.
//!
//! Everything else in the crate is the pipeline behind these types, private so that it
//! can change. A program needs only [`Model`], [`Test`], [`check`], [`Options`] and what
//! [`check`] returns: an [`Outcome`] or an [`Error`].

use crate::cat::load::{BUNDLED, bundled_names, load_text};
use crate::cat::{ChooseModel, ModelSpec, Models, Program};
use crate::diag::{Diag, DiagKind};
use crate::events;
use crate::explain::{self, Analysis, Verdict};
use crate::litmus::{self, parse_test};
use crate::query::{self, StateKey};
use crate::report;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::query::{Observation, Options};

/// A memory model: a cat file with what it includes (and, from a herd `.cfg`, its bell and
/// macro files), or herd's default model for each test's architecture.
pub struct Model(pub(crate) Models);

impl Model {
    /// A model bundled in the library: `sc`, `tso`, `relaxed`, `rvwmo`, `aarch64`, `c11`,
    /// `rc11`, `power` or `armv7`.
    pub fn bundled(name: &str) -> Result<Model, Error> {
        if !bundled_names().contains(&name) {
            let known = bundled_names().join(", ");
            return Err(Diag::file(name, format!("no bundled model '{name}' (bundled: {known})")).into());
        }
        Model::load(&ModelSpec { model: Some(name.to_string()), ..ModelSpec::default() }, &[], false)
    }

    /// A `.cat` file, or a herd `.cfg` file naming a model, bell and macros. Included files
    /// are searched in the including file's folder, then `includes`, then `LITSAT_LIB`,
    /// then the bundled library, as `litsat check -I` does.
    pub fn from_file(path: impl AsRef<Path>, includes: &[PathBuf]) -> Result<Model, Error> {
        let model = path.as_ref().to_string_lossy().to_string();
        Model::load(&ModelSpec { model: Some(model), ..ModelSpec::default() }, includes, true)
    }

    /// A model given as cat text, named `name` in diagnostics. Its includes (and the
    /// stdlib) come from the bundled library only: nothing is read from the file system,
    /// so a server can load the models its clients send.
    pub fn from_text(name: &str, text: &str) -> Result<Model, Error> {
        let prog = load_text(name, text).map_err(|d| Error::with_source(d, &[(name, text)], false))?;
        Ok(Model(Models::Named(Box::new(prog))))
    }

    /// herd's default for each test's architecture, through the bundled model that stands
    /// for it (X86 → `tso`, RISC-V → `rvwmo`, C → `c11`, …).
    pub fn herd_default() -> Result<Model, Error> {
        Model::load(&ModelSpec::default(), &[], false)
    }

    /// The model `spec` names; an error quotes the file it points into, read again from
    /// the disk where `disk` says the model came from there.
    fn load(spec: &ModelSpec, includes: &[PathBuf], disk: bool) -> Result<Model, Error> {
        Ok(Model(Models::load(spec, includes).map_err(|d| Error::with_source(d, &[], disk))?))
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
    text: Arc<str>,
}

impl Test {
    /// Parses a litmus test; `origin` names it in diagnostics (usually its path). Each
    /// instruction goes through its architecture's parser, so an unknown instruction or
    /// architecture is an error here. A C test's threads are read by [`check`], under the
    /// model's macros (the Linux kernel's `WRITE_ONCE` comes from the LKMM's).
    pub fn parse(text: &str, origin: &str) -> Result<Test, Error> {
        let known = [(origin, text)];
        let at = |d: Diag| Error::with_source(d, &known, false);
        let parsed = parse_test(origin, text).map_err(at)?;
        events::check_code(&parsed, origin, text).map_err(at)?;
        Ok(Test { parsed, origin: origin.to_string(), text: Arc::from(text) })
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

    /// An error about this test or `prog`'s files, with the text it points into.
    fn error(&self, prog: Option<&Program>, d: Diag) -> Error {
        let mut known: Vec<(&str, &str)> = vec![(&self.origin, &self.text)];
        if let Some(p) = prog {
            known.extend(p.files.values().map(|f| (f.path.as_str(), &*f.text)));
            known.extend(p.macros.iter().map(|m| (m.path.as_str(), &*m.text)));
        }
        Error::with_source(d, &known, false)
    }
}

/// Answers the test's question under the model: its final states, how many executions
/// satisfy the condition, and the Observation herd would print.
pub fn check(test: &Test, model: &Model, opts: &Options) -> Result<Outcome, Error> {
    let start = Instant::now();
    let prog = model.0.for_test(&test.parsed, &test.origin).map_err(|d| test.error(None, d))?;
    // A log cut short by a limit is an error here: the API answers whole questions.
    let out = query::run(test.parsed.clone(), &test.origin, &test.text, prog, opts)
        .and_then(query::Outcome::complete)
        .map_err(|d| test.error(Some(prog), d))?;
    Ok(Outcome { out, elapsed: start.elapsed() })
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
    let prog = model.0.for_test(&test.parsed, &test.origin).map_err(|d| test.error(None, d))?;
    let at = |d: Diag| test.error(Some(prog), d);
    let enc = explain::encode(test.parsed.clone(), &test.origin, &test.text, prog, opts).map_err(at)?;
    explain::analyse(enc, prog, &test.origin).map_err(at)
}

/// The answer to a test: what herd7 prints for it.
#[derive(Clone, Debug)]
pub struct Outcome {
    out: query::Outcome,
    /// How long [`check`] took to answer.
    elapsed: Duration,
}

impl Outcome {
    /// The Observation.
    pub fn observation(&self) -> Observation {
        self.out.observation()
    }

    /// The final states, in herd's order (empty under `Options::fast`).
    pub fn states(&self) -> Vec<State> {
        self.out.states.iter().map(State::of).collect()
    }

    /// Executions that satisfy the condition's proposition, and those that do not: the two
    /// numbers of herd's `Observation` line.
    /// They are exact past `u64`.
    pub fn counts(&self) -> (u128, u128) {
        (self.out.pos, self.out.neg)
    }

    /// herd's flags (`Flag` lines), such as `data-race` or `undefined-behaviour`.
    pub fn flags(&self) -> impl Iterator<Item = &str> {
        self.out.flags.iter().map(String::as_str)
    }

    /// Under `Options::certify`, the `Certificate` line: how the verdict was checked.
    pub fn certificate(&self) -> Option<&str> {
        self.out.certificate.as_deref()
    }

    /// Under `Options::candidates`, herd's `Candidates` count: the executions the model
    /// rejected or kept.
    pub fn candidates(&self) -> Option<u128> {
        self.out.candidates
    }

    /// Whether some execution was dropped at the loop-unrolling bound (herd's `Loop`).
    pub fn looped(&self) -> bool {
        self.out.looped
    }

    /// The pipeline's outcome behind this answer, for litsat's own command line (which
    /// turns it into its JSON records).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn internals(&self) -> &query::Outcome {
        &self.out
    }

    /// How long [`check`] took to answer the test.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// herd7's log of the test, with [`Outcome::elapsed`] on its `Time` line.
    pub fn log(&self) -> String {
        report::herd_log(&self.out, self.elapsed.as_secs_f64())
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
        State { places: report::state_items(key, false, false), line: report::state_line(key) }
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
pub struct Execution(pub(crate) Analysis);

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

/// Why a test or model could not be answered: a located diagnostic ([`Error::location`]:
/// file, 1-based line and column), of a [kind](Error::kind), with the text of the file it
/// points into where the library had it, so that [`Error::render`] and miette (as a
/// [`miette::Diagnostic`]) can quote the line.
///
/// ```
/// fn main() -> miette::Result<()> {
///     let bad = "X86 bad\n{ x=0; }\n P0 ;\n FROB [x],$1 ;\nexists (x=1)\n";
///     let err = litsat::Test::parse(bad, "bad.litmus").unwrap_err();
///     assert_eq!(err.location(), ("bad.litmus", 4, 2));
///     assert!(err.render().contains("bad.litmus:4:2"));
///     // `?` turns it into a miette report, which quotes the test's fourth line.
///     let report = litsat::Test::parse(bad, "bad.litmus").map(|_| ()).map_err(miette::Report::from);
///     assert!(format!("{:?}", report.unwrap_err()).contains("FROB [x],$1"));
///     let sb = "X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n \
///               MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";
///     let test = litsat::Test::parse(sb, "SB.litmus")?;
///     litsat::check(&test, &litsat::Model::bundled("tso")?, &litsat::Options::new())?;
///     Ok(())
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    diag: Box<Diag>,
    /// The text of the file `diag` points into, under that file's name.
    source: Option<miette::NamedSource<Arc<str>>>,
}

impl Error {
    /// Malformed input, unsupported input, or a limit.
    pub fn kind(&self) -> DiagKind {
        self.diag.kind
    }

    /// The located diagnostic behind the error.
    pub fn diag(&self) -> &Diag {
        &self.diag
    }

    /// What was wrong or expected, without the location.
    pub fn message(&self) -> &str {
        &self.diag.message
    }

    /// `(file, line, column)`, 1-based.
    pub fn location(&self) -> (&str, usize, usize) {
        let d = &self.diag;
        (&d.file, d.line, d.col)
    }

    /// The text of the file the error points into, when the library had it (the test's,
    /// a model's, or a file it read).
    pub fn source_text(&self) -> Option<&str> {
        self.source.as_ref().map(|s| &**s.inner())
    }

    /// The error as miette draws it, without colours: the `file:line:col: error: …` line,
    /// then the line of the file it points at, marked (one line where there is no text).
    pub fn render(&self) -> String {
        if self.source.is_none() {
            return self.to_string();
        }
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
        match handler.render_report(&mut out, self) {
            Ok(()) => out.trim_end_matches('\n').to_string(),
            Err(_) => self.to_string(),
        }
    }

    /// The error with the text of the file it points into, found among `known`
    /// (`(file, text)` pairs), the bundled library, or, with `disk`, the file system.
    fn with_source(diag: Diag, known: &[(&str, &str)], disk: bool) -> Error {
        let file = diag.file.as_str();
        let text: Option<Arc<str>> = if diag.kind == DiagKind::Limit {
            None
        } else if let Some((_, t)) = known.iter().find(|(f, _)| *f == file) {
            Some(Arc::from(*t))
        } else if let Some(name) = file.strip_prefix("<bundled>/") {
            BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, t)| Arc::from(*t))
        } else if disk {
            std::fs::read(file).ok().map(|b| Arc::from(String::from_utf8_lossy(&b)))
        } else {
            None
        };
        let source = text.map(|t| miette::NamedSource::new(file, t));
        Error { diag: Box::new(diag), source }
    }

    /// The byte span the error points at in its source: one character.
    fn span(&self, text: &str) -> miette::SourceSpan {
        let (mut line, mut col) = (1, 1);
        let d = &self.diag;
        let mut at = text.len();
        for (i, c) in text.char_indices() {
            if (line, col) == (d.line, d.col) {
                at = i;
                break;
            }
            if c == '\n' {
                (line, col) = (line + 1, 1);
            } else {
                col += 1;
            }
        }
        let len = text[at..].chars().next().filter(|c| *c != '\n').map_or(0, char::len_utf8);
        (at, len).into()
    }
}

impl From<Diag> for Error {
    /// An error without source text.
    fn from(d: Diag) -> Error {
        Error { diag: Box::new(d), source: None }
    }
}

impl fmt::Display for Error {
    /// `file:line:col: error: message`, then the include chain, one `included from` a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diag.fmt(f)
    }
}

impl std::error::Error for Error {}

impl miette::Diagnostic for Error {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let code = match self.diag.kind {
            DiagKind::Error => "litsat::input",
            DiagKind::Unsupported => "litsat::unsupported",
            DiagKind::Limit => "litsat::limit",
        };
        Some(Box::new(code))
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let text = self.source_text()?;
        Some(Box::new(std::iter::once(miette::LabeledSpan::new_with_span(None, self.span(text)))))
    }
}
