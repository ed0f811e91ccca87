//! Expectations a test states itself: the `Result:` line of its header comment, judged as
//! the Linux kernel's `tools/memory-model/scripts/judgelitmus.sh` judges it.
//!
//! judgelitmus's rules, in its order:
//!
//! 1. The Result line is the first line starting with ` * Result: ` or `(* Result: `; its
//!    first word is the prediction. A test without one is not judged here (see
//!    [`parse_result_line`]).
//! 2. `DATARACE` after the prediction and herd's `Flag data-race` must go together: a
//!    predicted race that is not raised fails, and so does a raised race that is not
//!    predicted. No other flag is looked at.
//! 3. `DEADLOCK` passes exactly when there is no execution at all: `Observation NAME Never
//!    0 0`. Any other prediction (`Maybe` included) fails on such an answer.
//! 4. `Never`, `Sometimes` and `Always` pass when herd's Observation is that word; `Maybe`
//!    passes always.
//! 5. A mismatch under 4 is forgiven (judgelitmus exits 0 with `--- Forgiven`) when the
//!    answer has a data race.
//!
//! `Flag NAME` is litsat's reading: judgelitmus has no rule for it (it would look for the
//! word `Flag` in the Observation line and fail); here it passes when herd's answer raises
//! the flag NAME, and is otherwise treated like a mismatch under 4.

use super::{Answer, Expected, match_entries};
use litsat::diag::{Diag, Pos};
use std::fmt;

/// What a Result line predicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prediction {
    Never,
    Sometimes,
    Always,
    /// `DEADLOCK`: no execution at all (herd prints `Observation NAME Never 0 0`).
    Deadlock,
    /// `Maybe`: any answer with at least one execution.
    Maybe,
    /// `Flag NAME`: the model raises the flag NAME.
    Flag(String),
}

/// A test's Result line, e.g. ` * Result: Sometimes DATARACE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine {
    pub prediction: Prediction,
    /// `DATARACE` follows the prediction: herd raises the `data-race` flag.
    pub datarace: bool,
    /// The line's number in the test, 1-based.
    pub line: usize,
}

impl fmt::Display for Prediction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Prediction::Never => f.write_str("Never"),
            Prediction::Sometimes => f.write_str("Sometimes"),
            Prediction::Always => f.write_str("Always"),
            Prediction::Deadlock => f.write_str("DEADLOCK"),
            Prediction::Maybe => f.write_str("Maybe"),
            Prediction::Flag(name) => write!(f, "Flag {name}"),
        }
    }
}

impl fmt::Display for ResultLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Result: {}{}", self.prediction, if self.datarace { " DATARACE" } else { "" })
    }
}

/// The prefixes judgelitmus's `^[( ]\* Result: ` accepts.
const PREFIXES: [&str; 2] = [" * Result: ", "(* Result: "];

const FORMS: &str = "Never, Sometimes, Always, DEADLOCK, Maybe or Flag NAME, optionally followed by DATARACE";

/// Finds and parses the test's Result line: the first line that starts with ` * Result: `
/// or `(* Result: ` (an OCaml-style comment's closing `*)` may end it). `Ok(None)` when
/// there is none; a located error when the line is not one of the forms above.
///
/// judgelitmus judges a test without a Result line against the placeholder outcome
/// `specified`, which no Observation contains, so on its own it reports `!!! Unexpected
/// non-specified verification`; the kernel's `checkghlitmus.sh`, which runs it over a
/// repository of tests, selects only tests with a Result line. Callers treat `None` as
/// "no expectation".
pub fn parse_result_line(file: &str, text: &str) -> Result<Option<ResultLine>, Diag> {
    let mut start = 0;
    for (k, raw) in text.split('\n').enumerate() {
        let line_start = start;
        start += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let Some(prefix) = PREFIXES.iter().find(|p| line.starts_with(**p)) else { continue };
        let body = &line[prefix.len()..];
        let trimmed = body.trim_end();
        let body = trimmed.strip_suffix("*)").unwrap_or(trimmed);
        // Words with their byte offsets in `text`.
        let mut words = body
            .split_whitespace()
            .map(|w| (w, line_start + prefix.len() + (w.as_ptr() as usize - body.as_ptr() as usize)));
        let end = Pos(line_start + prefix.len() + body.trim_end().len());
        let err = |at: Pos, msg: String| Diag::at(file, text, at, msg);
        let Some((word, at)) = words.next() else {
            return Err(err(end, format!("empty Result line: expected {FORMS}")));
        };
        let prediction = match word {
            "Never" => Prediction::Never,
            "Sometimes" => Prediction::Sometimes,
            "Always" => Prediction::Always,
            "DEADLOCK" => Prediction::Deadlock,
            "Maybe" => Prediction::Maybe,
            "Flag" => match words.next() {
                Some((name, _)) => Prediction::Flag(name.to_string()),
                None => return Err(err(end, "Result: Flag needs the flag's name".to_string())),
            },
            _ => return Err(err(Pos(at), format!("unknown Result '{word}': expected {FORMS}"))),
        };
        let mut datarace = false;
        for (w, at) in words {
            if w == "DATARACE" && !datarace {
                datarace = true;
            } else {
                return Err(err(Pos(at), format!("unexpected '{w}' in the Result line: expected {FORMS}")));
            }
        }
        return Ok(Some(ResultLine { prediction, datarace, line: k + 1 }));
    }
    Ok(None)
}

/// How an answer fares against a Result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    Pass,
    /// The Observation differs, but the answer has a data race, which judgelitmus
    /// forgives (`--- Forgiven non-… verification`, exit status 0). Holds the difference.
    Forgiven(String),
    /// What judgelitmus reports with `!!!` and a non-zero exit status.
    Fail(String),
}

impl Judgement {
    pub fn is_fail(&self) -> bool {
        matches!(self, Judgement::Fail(_))
    }
}

/// Judges an answer against a Result line by judgelitmus's rules (see the module's
/// documentation). A `--fast` answer has its flags (each asked of the solver) but no
/// counts: `DEADLOCK` asks only for `Never`, and no answer counts as a deadlock.
pub fn judge(r: &ResultLine, a: &Answer) -> Judgement {
    let raced = a.flags.iter().any(|f| f == "data-race");
    if r.datarace && !raced {
        return Judgement::Fail("predicted data race not modeled (no Flag data-race)".into());
    }
    if !r.datarace && raced {
        return Judgement::Fail("unexpected data race modeled (Flag data-race)".into());
    }
    let (p, n) = a.witnesses;
    let deadlocked = !a.fast && a.observation == "Never" && (p, n) == (0, 0);
    let found = format!("Observation {} {p} {n}", a.observation);
    let mismatch = match &r.prediction {
        Prediction::Deadlock if deadlocked || (a.fast && a.observation == "Never") => return Judgement::Pass,
        Prediction::Deadlock => return Judgement::Fail(format!("{found}, expected DEADLOCK (no execution)")),
        _ if deadlocked => {
            return Judgement::Fail(format!("{found}: unexpected deadlock, expected {}", r.prediction));
        }
        Prediction::Maybe => return Judgement::Pass,
        Prediction::Flag(name) if a.flags.contains(name) => return Judgement::Pass,
        Prediction::Flag(_) => format!("flags [{}], expected {}", a.flags.join(" "), r.prediction),
        word if a.observation == word.to_string() => return Judgement::Pass,
        word => format!("{found}, expected {word}"),
    };
    if raced { Judgement::Forgiven(mismatch) } else { Judgement::Fail(mismatch) }
}

/// A test whose recorded answer differs from its Result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub path: String,
    pub result: ResultLine,
    pub answer: Answer,
    /// `Fail` or `Forgiven`.
    pub judgement: Judgement,
}

/// The tests whose recorded answer (`entries`, e.g. a corpus TSV with its flags column)
/// differs from their own Result line, in the order of `tests` (`(path, source text)`
/// pairs). Entries match tests as in `--expect` (by path tail). Tests without a Result
/// line, or without a complete entry (herd did not answer them, or the row has no flags
/// column), are left out; a malformed Result line is an error.
pub fn result_differences(entries: &[Expected], tests: &[(String, String)]) -> Result<Vec<Difference>, Diag> {
    let keys: Vec<(String, String)> = tests
        .iter()
        .map(|(p, _)| {
            let stem = p.rsplit(['/', '\\']).next().unwrap_or(p).trim_end_matches(".litmus");
            (p.clone(), stem.to_string())
        })
        .collect();
    let (assigned, _, _) = match_entries(&keys, entries);
    let mut out = Vec::new();
    for ((path, text), k) in tests.iter().zip(assigned) {
        let Some(answer) = k.and_then(|k| Answer::from_expected(&entries[k])) else { continue };
        let Some(result) = parse_result_line(path, text)? else { continue };
        let judgement = judge(&result, &answer);
        if judgement != Judgement::Pass {
            out.push(Difference { path: path.clone(), result, answer, judgement });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Option<ResultLine>, Diag> {
        parse_result_line("t.litmus", text)
    }

    fn line(prediction: Prediction, datarace: bool, line: usize) -> Option<ResultLine> {
        Some(ResultLine { prediction, datarace, line })
    }

    fn answer(observation: &str, witnesses: (u128, u128), flags: &[&str]) -> Answer {
        Answer {
            kind: "Allowed".into(),
            observation: observation.into(),
            ok: observation != "Never",
            witnesses,
            states: Vec::new(),
            fast: false,
            flags: flags.iter().map(|f| f.to_string()).collect(),
            looped: false,
        }
    }

    fn result(text: &str) -> ResultLine {
        parse(text).expect("parses").expect("has a Result line")
    }

    #[test]
    fn parses_each_form() {
        let head = "C T\n\n(*\n";
        let cases = [
            (" * Result: Never", Prediction::Never, false),
            (" * Result: Sometimes", Prediction::Sometimes, false),
            (" * Result: Always", Prediction::Always, false),
            (" * Result: DEADLOCK", Prediction::Deadlock, false),
            (" * Result: Maybe", Prediction::Maybe, false),
            (" * Result: Sometimes DATARACE", Prediction::Sometimes, true),
            (" * Result: Never DATARACE  ", Prediction::Never, true),
            (" * Result: Flag srcu-bad-nesting", Prediction::Flag("srcu-bad-nesting".into()), false),
            ("(* Result: Never *)", Prediction::Never, false),
            ("(* Result: Never DATARACE *)", Prediction::Never, true),
            ("(* Result: Always*)\r", Prediction::Always, false),
        ];
        for (l, p, d) in cases {
            assert_eq!(parse(&format!("{head}{l}\n *)\n")).expect(l), line(p, d, 4), "{l}");
        }
    }

    #[test]
    fn only_judgelitmus_prefixes_and_the_first_line_count() {
        assert_eq!(parse("C T\n(* Expected result: never. *)\n{}\n").unwrap(), None);
        assert_eq!(parse("C T\n * result: Sometimes\n").unwrap(), None, "case matters");
        assert_eq!(parse("C T\n*  Result: Never\n\t* Result: Never\n").unwrap(), None);
        assert_eq!(parse("").unwrap(), None);
        let two = "C T\n * Result: Never\n * Result: Sometimes DATARACE\n";
        assert_eq!(parse(two).unwrap(), line(Prediction::Never, false, 2));
    }

    #[test]
    fn malformed_lines_are_located() {
        let d = parse("C T\n(*\n * Result: Forbidden\n *)\n").unwrap_err();
        assert_eq!((d.file.as_str(), d.line, d.col), ("t.litmus", 3, 12), "{d}");
        assert!(d.message.contains("unknown Result 'Forbidden'"), "{d}");
        let d = parse("C T\n * Result: Never DATARACE maybe\n").unwrap_err();
        assert_eq!((d.line, d.col), (2, 27), "{d}");
        assert!(d.message.contains("unexpected 'maybe'"), "{d}");
        let d = parse("C T\n * Result: Flag\n").unwrap_err();
        assert_eq!((d.line, d.col), (2, 16), "{d}");
        assert!(d.message.contains("flag's name"), "{d}");
        let d = parse("C T\n(* Result:  *)\n").unwrap_err();
        assert_eq!(d.line, 2, "{d}");
        assert!(d.message.contains("empty Result line"), "{d}");
        assert!(parse(" * Result: Never DATARACE DATARACE\n").is_err());
        assert!(parse(" * Result: never\n").is_err());
    }

    #[test]
    fn never_sometimes_always_compare_the_observation() {
        for (word, obs, pass) in [
            ("Never", "Never", true),
            ("Never", "Sometimes", false),
            ("Sometimes", "Sometimes", true),
            ("Sometimes", "Always", false),
            ("Always", "Always", true),
            ("Always", "Never", false),
        ] {
            let r = result(&format!(" * Result: {word}\n"));
            let j = judge(&r, &answer(obs, (1, 1), &[]));
            assert_eq!(j == Judgement::Pass, pass, "{word} against {obs}: {j:?}");
            if !pass {
                assert_eq!(j, Judgement::Fail(format!("Observation {obs} 1 1, expected {word}")));
            }
        }
    }

    #[test]
    fn maybe_accepts_any_observation_but_a_deadlock() {
        let r = result(" * Result: Maybe\n");
        for obs in ["Never", "Sometimes", "Always"] {
            assert_eq!(judge(&r, &answer(obs, (0, 2), &[])), Judgement::Pass, "{obs}");
        }
        assert!(judge(&r, &answer("Never", (0, 0), &[])).is_fail());
    }

    #[test]
    fn deadlock_means_no_execution() {
        let r = result(" * Result: DEADLOCK\n");
        assert_eq!(judge(&r, &answer("Never", (0, 0), &[])), Judgement::Pass);
        let j = judge(&r, &answer("Never", (0, 1), &[]));
        assert_eq!(j, Judgement::Fail("Observation Never 0 1, expected DEADLOCK (no execution)".into()));
        assert!(judge(&r, &answer("Sometimes", (1, 1), &[])).is_fail());
        // Any other prediction fails on an answer with no execution.
        for word in ["Never", "Sometimes", "Always", "Flag f"] {
            let r = result(&format!(" * Result: {word}\n"));
            let j = judge(&r, &answer("Never", (0, 0), &["f"]));
            assert!(matches!(&j, Judgement::Fail(m) if m.contains("unexpected deadlock")), "{word}: {j:?}");
        }
    }

    #[test]
    fn datarace_must_be_predicted_and_modeled_together() {
        let raced = result(" * Result: Sometimes DATARACE\n");
        let clean = result(" * Result: Sometimes\n");
        assert_eq!(judge(&raced, &answer("Sometimes", (1, 1), &["data-race"])), Judgement::Pass);
        let j = judge(&raced, &answer("Sometimes", (1, 1), &[]));
        assert_eq!(j, Judgement::Fail("predicted data race not modeled (no Flag data-race)".into()));
        let j = judge(&clean, &answer("Sometimes", (1, 1), &["data-race"]));
        assert_eq!(j, Judgement::Fail("unexpected data race modeled (Flag data-race)".into()));
        // Other flags do not matter.
        assert_eq!(judge(&clean, &answer("Sometimes", (1, 1), &["mixed-accesses"])), Judgement::Pass);
        // With the race raised, a wrong Observation is forgiven.
        let j = judge(&result(" * Result: Never DATARACE\n"), &answer("Sometimes", (1, 1), &["data-race"]));
        assert_eq!(j, Judgement::Forgiven("Observation Sometimes 1 1, expected Never".into()));
        assert!(!j.is_fail());
    }

    #[test]
    fn flag_name_asks_for_that_flag() {
        let r = result(" * Result: Flag srcu-bad-nesting\n");
        assert_eq!(judge(&r, &answer("Sometimes", (1, 3), &["srcu-bad-nesting"])), Judgement::Pass);
        let j = judge(&r, &answer("Sometimes", (1, 3), &["multiple-srcu-matches"]));
        assert_eq!(j, Judgement::Fail("flags [multiple-srcu-matches], expected Flag srcu-bad-nesting".into()));
        assert!(judge(&r, &answer("Never", (0, 3), &[])).is_fail());
    }

    #[test]
    fn fast_answers_have_flags_but_no_counts() {
        let fast = |obs: &str, flags: &[&str]| Answer { fast: true, ..answer(obs, (0, 0), flags) };
        assert_eq!(judge(&result(" * Result: Never DATARACE\n"), &fast("Never", &["data-race"])), Judgement::Pass);
        assert!(judge(&result(" * Result: Never DATARACE\n"), &fast("Never", &[])).is_fail());
        assert_eq!(judge(&result(" * Result: DEADLOCK\n"), &fast("Never", &[])), Judgement::Pass);
        assert!(judge(&result(" * Result: DEADLOCK\n"), &fast("Sometimes", &[])).is_fail());
        assert_eq!(judge(&result(" * Result: Flag f\n"), &fast("Sometimes", &["f"])), Judgement::Pass);
        assert!(judge(&result(" * Result: Flag f\n"), &fast("Sometimes", &[])).is_fail());
        assert_eq!(judge(&result(" * Result: Maybe\n"), &fast("Never", &[])), Judgement::Pass);
    }

    #[test]
    fn differences_between_a_tsv_and_result_lines() {
        let tsv = "s/A.litmus\tA\tAllowed\tNever\t0\t2\t\t\n\
                   s/B.litmus\tB\tAllowed\tSometimes\t1\t2\t\t\n\
                   s/C.litmus\tC\tAllowed\tSometimes\t1\t2\t\tdata-race\n\
                   s/D.litmus\tD\tRequired\tNever\t0\t0\t\t\n\
                   s/E.litmus\tE\tAllowed\tSometimes\t1\t2\t\n";
        let entries = super::super::parse_tsv(tsv);
        let tests: Vec<(String, String)> = [
            ("s/A.litmus", " * Result: Never\n"),
            ("s/B.litmus", " * Result: Never\n"),
            ("s/C.litmus", " * Result: Never DATARACE\n"),
            ("s/D.litmus", "C D\n"),
            ("s/E.litmus", " * Result: Never\n"),
            ("s/F.litmus", " * Result: Never\n"),
        ]
        .iter()
        .map(|(p, t)| (format!("corpus/{p}"), t.to_string()))
        .collect();
        let d = result_differences(&entries, &tests).expect("well-formed");
        let got: Vec<(&str, bool)> = d.iter().map(|d| (d.path.as_str(), d.judgement.is_fail())).collect();
        // A agrees; C is forgiven; D has no Result line; E's row has no flags column; F
        // has no row.
        assert_eq!(got, vec![("corpus/s/B.litmus", true), ("corpus/s/C.litmus", false)]);
        let bad = vec![("s/A.litmus".to_string(), " * Result: Nope\n".to_string())];
        assert!(result_differences(&entries, &bad).is_err());
    }
}
