//! Located diagnostics.
//!
//! Every user-facing error carries the file and the 1-based line and column where the
//! problem starts, so that a corpus run can say exactly which input was bad and go on.

use std::fmt;

/// A position in a source text, as a byte offset; turned into line and column lazily so
/// parsers only have to keep offsets around.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos(pub usize);

/// What kind of failure a diagnostic reports, so runners can count them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum DiagKind {
    /// Malformed input.
    #[default]
    Error,
    /// Well-formed input using something litsat does not support.
    Unsupported,
    /// A limit stopped the test (`Options::timeout`, `Options::max_events`).
    Limit,
}

/// A located diagnostic: what went wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diag {
    /// Bad input, unsupported input, or a limit.
    pub kind: DiagKind,
    /// The file (a path, or `<bundled>/NAME` for a bundled model).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What was wrong or expected.
    pub message: String,
    /// Where this file was included from, innermost first (for cat includes).
    pub context: Vec<String>,
    /// Further facts that help, each printed as a `note:` line (where else to look). A
    /// boxed slice, not a `Vec`: rarely any, and every `Result` carrying a diagnostic
    /// stays small.
    pub notes: Box<[String]>,
    /// herd's own words for this failure, where scripts written for herd read them (the
    /// kernel's `judgelitmus.sh` greps `: Unknown macro NAME (User error)`). A thin box:
    /// rarely set, and a `Diag` must stay small in every `Result`.
    pub herd_words: Option<Box<String>>,
}

impl Diag {
    /// Locates `pos` in `text`. Columns count characters, not bytes.
    #[doc(hidden)]
    pub fn at(file: &str, text: &str, pos: Pos, message: impl Into<String>) -> Diag {
        let (line, col) = line_col(text, pos.0);
        let message = message.into();
        Diag { kind: kind_of(&message), file: file.to_string(), line, col, message, context: Vec::new(), notes: Box::default(), herd_words: None }
    }

    /// A diagnostic about a whole file (I/O errors, limits).
    #[doc(hidden)]
    pub fn file(file: &str, message: impl Into<String>) -> Diag {
        let message = message.into();
        Diag { kind: kind_of(&message), file: file.to_string(), line: 1, col: 1, message, context: Vec::new(), notes: Box::default(), herd_words: None }
    }

    /// A limit that stopped a test.
    #[doc(hidden)]
    pub fn limit(file: &str, message: impl Into<String>) -> Diag {
        Diag { kind: DiagKind::Limit, ..Diag::file(file, message) }
    }

    /// Adds a note (printed after the message and the including sites).
    pub fn with_note(mut self, note: impl Into<String>) -> Diag {
        let mut notes = std::mem::take(&mut self.notes).into_vec();
        notes.push(note.into());
        self.notes = notes.into_boxed_slice();
        self
    }

    /// Sets herd's own words for this failure (see [`Diag::herd_warning`]).
    pub fn with_herd_words(mut self, words: impl Into<String>) -> Diag {
        self.herd_words = Some(Box::new(words.into()));
        self
    }

    /// The failure as herd7 reports a user error, on one line: herd's words where they are
    /// known (herd names no position then), else litsat's message at its position, in
    /// herd's `line L, characters C-D` form with 0-based characters.
    pub fn herd_warning(&self) -> String {
        match &self.herd_words {
            Some(w) => format!("Warning: File \"{}\": {w} (User error)", self.file),
            None => format!(
                "Warning: File \"{}\", line {}, characters {}-{}: {} (User error)",
                self.file,
                self.line,
                self.col - 1,
                self.col,
                self.message
            ),
        }
    }

    /// Adds an including site (`file:line:col`), outermost last.
    #[doc(hidden)]
    pub fn included_from(mut self, site: String) -> Diag {
        self.context.push(site);
        self
    }
}

/// When a test must stop (`Options::timeout`). A solver call cannot be interrupted, so every phase
/// of answering a test (building events, evaluating the model, solving, certifying) checks
/// it between its steps, and a test stops within one step of its deadline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadline(Option<std::time::Instant>);

/// What a test stopped by its deadline reports.
pub const TIMEOUT: &str = "timeout: the test ran past its time limit";

impl Deadline {
    /// No deadline.
    pub const NONE: Deadline = Deadline(None);

    /// `timeout` from now (none without one, or when it is too far to represent).
    pub fn after(timeout: Option<std::time::Duration>) -> Deadline {
        Deadline(timeout.and_then(|t| std::time::Instant::now().checked_add(t)))
    }

    /// The time left before the deadline (zero once it has passed); `None` without one.
    pub fn left(&self) -> Option<std::time::Duration> {
        self.0.map(|d| d.saturating_duration_since(std::time::Instant::now()))
    }

    pub fn passed(&self) -> bool {
        self.0.is_some_and(|d| std::time::Instant::now() >= d)
    }

    /// A [`DiagKind::Limit`] diagnostic about `file` once the deadline has passed.
    pub fn check(&self, file: &str) -> Result<(), Diag> {
        if self.passed() { Err(Diag::limit(file, TIMEOUT)) } else { Ok(()) }
    }
}

fn kind_of(message: &str) -> DiagKind {
    if message.starts_with("unsupported") { DiagKind::Unsupported } else { DiagKind::Error }
}

pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut line = 1;
    let mut col = 1;
    for (i, c) in text.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.col, self.message)?;
        for c in &self.context {
            write!(f, "\n  included from {c}")?;
        }
        for n in &self.notes {
            write!(f, "\n  note: {n}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diag {}

/// Byte offset of `sub` inside `whole`; both must come from the same allocation, which is
/// how the parsers slice their input.
pub fn offset_in(whole: &str, sub: &str) -> Pos {
    let start = whole.as_ptr() as usize;
    let p = sub.as_ptr() as usize;
    Pos(p.saturating_sub(start).min(whole.len()))
}

/// A miette report over the source text, for people; the first line stays the plain
/// `file:line:col: error: …` that scripts and editors parse.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct Report {
    message: String,
    src: miette::NamedSource<String>,
    span: miette::SourceSpan,
    label: String,
}

impl miette::Diagnostic for Report {
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(miette::LabeledSpan::new_with_span(Some(self.label.clone()), self.span))))
    }
}

impl Diag {
    /// Byte offset of this diagnostic's line and column in `text`.
    fn offset(&self, text: &str) -> usize {
        let mut line = 1;
        let mut col = 1;
        for (i, c) in text.char_indices() {
            if line == self.line && col == self.col {
                return i;
            }
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        text.len()
    }

    /// The diagnostic with the offending source line drawn under it, when the source is
    /// at hand: one rendering whose first line is the plain `file:line:col: error: …`
    /// that editors and CI logs parse, standing as the title of miette's box (in place of
    /// miette's own title line, which would say the message a second time). A limit has
    /// no place in the text to show.
    pub fn render(&self, source: Option<&str>) -> String {
        let head = self.to_string();
        let Some(text) = source.filter(|_| self.kind != DiagKind::Limit) else { return head };
        let at = self.offset(text);
        let len = text[at..].chars().next().map(char::len_utf8).unwrap_or(0);
        let report = Report {
            message: String::new(),
            src: miette::NamedSource::new(&self.file, text.to_string()),
            span: (at, len).into(),
            label: match self.kind {
                DiagKind::Unsupported => "not supported".into(),
                _ => "here".into(),
            },
        };
        let mut out = String::new();
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
        if handler.render_report(&mut out, &report).is_err() {
            return head;
        }
        // miette's first line is its title, empty here: the head takes its place.
        let snippet = out.split_once('\n').map_or("", |(_, rest)| rest);
        format!("{head}\n{}", snippet.trim_end_matches('\n'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn herd_warnings_read_as_herds() {
        let d = Diag::at("t.litmus", "P0 {\n  r0 = f(x);\n}", Pos(9), "unknown macro or primitive `f`");
        assert_eq!(
            d.herd_warning(),
            "Warning: File \"t.litmus\", line 2, characters 4-5: unknown macro or primitive `f` (User error)"
        );
        let d = d.with_herd_words("Unknown macro f");
        assert_eq!(d.herd_warning(), "Warning: File \"t.litmus\": Unknown macro f (User error)");
    }
}
