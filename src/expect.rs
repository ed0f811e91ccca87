//! Expected results to compare against: herd's answers as the shared corpus records them,
//! and (in [`results`]) the `Result:` lines tests state themselves.

pub mod results;

use litsat::query::{Outcome, StateKey};
use litsat::report::kind_word;
use serde::{Deserialize, Serialize};

/// What an expectation can be compared with: a test's answer, as herd's log gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// `Allowed`, `Forbidden` or `Required`.
    pub kind: String,
    pub observation: String,
    pub ok: bool,
    /// herd's `Positive:`/`Negative:` pair.
    pub witnesses: (u128, u128),
    /// Normalised states, sorted.
    pub states: Vec<String>,
    /// Decided by `--fast`: only the Observation is known.
    #[serde(default)]
    pub fast: bool,
    /// The flags herd prints as `Flag NAME` lines, sorted (none are computed under
    /// `--fast`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// herd's `Loop` prefix: a consistent execution went past the unrolling bound.
    #[serde(default)]
    pub looped: bool,
}

impl Expected {
    /// Whether the entry expects anything at all.
    pub fn checks_nothing(&self) -> bool {
        self.ok.is_none()
            && self.verdict.is_none()
            && self.kind.is_none()
            && self.observation.is_none()
            && self.witnesses.is_none()
            && self.states.is_none()
            && self.flags.is_none()
    }
}

impl Answer {
    pub fn of(o: &Outcome) -> Answer {
        let mut states: Vec<String> = o.states.iter().map(|s| normal_state(s, o.hexa)).collect();
        states.sort();
        // The normal form leaves faults out (as the corpus TSVs do): states that differ by
        // their faults alone are one.
        states.dedup();
        Answer { states, ..Answer::stateless(o) }
    }

    /// [`Answer::of`] without the states: normalising them costs more than the rest, and
    /// a run that neither compares them nor prints JSON never reads them.
    pub fn stateless(o: &Outcome) -> Answer {
        Answer {
            kind: kind_word(o.test.cond.kind).to_string(),
            observation: o.observation().to_string(),
            ok: o.ok(),
            witnesses: o.witnesses(),
            states: Vec::new(),
            fast: o.fast.is_some(),
            flags: o.flags.iter().cloned().collect(),
            looped: o.looped,
        }
    }

    /// herd's answer as an expectation records it, to judge it as litsat's would be.
    /// `None` unless the entry has the Observation, the counts and the flags (a corpus
    /// TSV's row with its eighth column). herd's `Ok`/`No`, when the entry lacks it,
    /// follows from the kind and the Observation.
    pub fn from_expected(e: &Expected) -> Option<Answer> {
        let observation = e.observation.clone()?;
        let kind = e.kind.clone().unwrap_or_default();
        let ok = e.ok.unwrap_or(match kind.as_str() {
            "Forbidden" => observation == "Never",
            "Required" => observation == "Always",
            _ => observation != "Never",
        });
        Some(Answer {
            kind,
            observation,
            ok,
            witnesses: e.witnesses?,
            states: e.states.clone().unwrap_or_default(),
            fast: false,
            flags: e.flags.clone()?,
            looped: e.looped.unwrap_or(false),
        })
    }
}
use std::collections::BTreeMap;

/// One expected result. Entries from herd logs and `kinds.txt` have no path; they
/// match by name.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Expected {
    pub path: String,
    pub name: String,
    /// herd's `Ok`/`No` (a Dat3M CSV's 1/0: the condition as written holds).
    pub ok: Option<bool>,
    /// A `kinds.txt` verdict: `Allow`, `Forbid` or `Require`.
    pub verdict: Option<String>,
    pub kind: Option<String>,
    pub observation: Option<String>,
    /// herd's `Positive:`/`Negative:` Witnesses pair.
    pub witnesses: Option<(u128, u128)>,
    /// Normalised states (see [`normalise_state`]), sorted.
    pub states: Option<Vec<String>>,
    /// herd's `Flag` lines, sorted: a corpus TSV's eighth column. `None` (a seven-column
    /// row, or another format) expects nothing about flags; `Some(vec![])` expects none.
    pub flags: Option<Vec<String>>,
    /// herd's `Loop` prefix on `Ok`/`No`: only a herd log records it.
    pub looped: Option<bool>,
    /// herd's `Hash=`, the digest of the test: only a herd log records it.
    pub hash: Option<String>,
}

/// [`normalise_state`] of a state's line, built from the state itself.
fn normal_state(s: &StateKey, hexa: bool) -> String {
    let mut items: Vec<String> =
        litsat::report::state_items(s, false, hexa).into_iter().map(|(p, v)| format!("{p}={}", decimal(&v))).collect();
    items.sort();
    items.join(";")
}

/// A value with its hexadecimal numbers (herd's `-hexa`, unsigned) in decimal, also
/// inside an array's braces: the corpus TSVs of `-hexa` runs give scalars in decimal and
/// arrays as herd printed them.
fn decimal(v: &str) -> String {
    let one = |x: &str| match x.strip_prefix("0x").and_then(|h| u64::from_str_radix(h, 16).ok()) {
        Some(n) => n.to_string(),
        None => x.to_string(),
    };
    match v.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        Some(inner) => format!("{{{}}}", inner.split(',').map(one).collect::<Vec<_>>().join(",")),
        None => one(v),
    }
}

/// The corpus TSVs' normal form of a state: `loc=value` items without memory brackets,
/// sorted byte-wise and `;`-joined.
pub fn normalise_state(line: &str) -> String {
    let mut items: Vec<String> = line
        .split(';')
        .map(str::trim)
        // herd's faults (` Fault(P0:L0,…);`, ` ~Fault(…);`) are no places.
        .filter(|s| !s.is_empty() && !s.starts_with("Fault(") && !s.starts_with("~Fault("))
        .map(|s| if let Some(rest) = s.strip_prefix('[') { rest.replacen(']', "", 1) } else { s.to_string() })
        .map(|s| match s.split_once('=') {
            Some((p, v)) => format!("{p}={}", decimal(v)),
            None => s,
        })
        .collect();
    items.sort();
    items.join(";")
}

/// Parses a TSV as in `shared/corpus/expected`: path, name, kind, observation, positive,
/// negative, states, and in the newer TSVs an eighth column, flags (space-separated,
/// empty when herd raised none).
pub fn parse_tsv(text: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    for line in text.lines() {
        let c: Vec<&str> = line.split('\t').collect();
        if c.len() < 7 {
            continue;
        }
        let mut states: Vec<String> =
            if c[6].is_empty() { Vec::new() } else { c[6].split(" | ").map(normalise_state).collect() };
        states.sort();
        let flags = c.get(7).map(|f| {
            let mut v: Vec<String> = f.split_whitespace().map(str::to_string).collect();
            v.sort();
            v
        });
        out.push(Expected {
            path: c[0].to_string(),
            name: c[1].to_string(),
            kind: Some(c[2].to_string()),
            observation: Some(c[3].to_string()),
            witnesses: c[4].parse().ok().zip(c[5].parse().ok()),
            states: Some(states),
            flags,
            ..Expected::default()
        });
    }
    out
}

/// Parses a Dat3M CSV: `path,1|0`.
pub fn parse_csv(text: &str) -> Vec<Expected> {
    text.lines()
        .filter_map(|l| {
            let (p, v) = l.trim().rsplit_once(',')?;
            let ok = match v.trim() {
                "1" => true,
                "0" => false,
                _ => return None,
            };
            let name = p.rsplit('/').next().unwrap_or(p).trim_end_matches(".litmus").to_string();
            Some(Expected { path: p.trim().to_string(), name, ok: Some(ok), ..Expected::default() })
        })
        .collect()
}

/// Parses herd's `kinds.txt`: `NAME Allowed|Forbidden|Required` (or `Allow|Forbid|Require`).
pub fn parse_kinds(text: &str) -> Vec<Expected> {
    text.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let name = it.next()?;
            let v = match it.next()? {
                "Allow" | "Allowed" => "Allow",
                "Forbid" | "Forbidden" => "Forbid",
                "Require" | "Required" => "Require",
                _ => return None,
            };
            Some(Expected { name: name.to_string(), verdict: Some(v.to_string()), ..Expected::default() })
        })
        .collect()
}

/// Parses a herd log: per test its kind, States, Ok/No, Witnesses and Observation.
pub fn parse_herd_log(text: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    let mut cur: Option<Expected> = None;
    let mut in_states = false;
    for line in text.lines() {
        let l = line.trim_end();
        if let Some(h) = l.strip_prefix("Hash=") {
            // herd prints it after the Observation, which ends the test's entry.
            if let Some(e) = cur.as_mut().or(out.last_mut()).filter(|e| e.hash.is_none()) {
                e.hash = Some(h.to_string());
            }
            continue;
        }
        if let Some(rest) = l.strip_prefix("Test ") {
            let mut it = rest.split_whitespace();
            cur = Some(Expected {
                name: it.next().unwrap_or("").to_string(),
                kind: it.next().map(str::to_string),
                states: Some(Vec::new()),
                ..Expected::default()
            });
            in_states = false;
            continue;
        }
        let Some(e) = cur.as_mut() else { continue };
        if l.starts_with("States ") {
            in_states = true;
        } else if matches!(l.strip_prefix("Loop ").unwrap_or(l), "Ok" | "No" | "Undef") {
            let w = l.strip_prefix("Loop ").unwrap_or(l);
            in_states = false;
            // `Undef` says only that an execution was undefined: its `Flag *undef*`
            // line is compared with the flags.
            e.ok = (w != "Undef").then_some(w == "Ok");
            e.looped = Some(w.len() != l.len());
        } else if in_states {
            if let Some(st) = e.states.as_mut() {
                st.push(normalise_state(l));
            }
        } else if let Some(rest) = l.strip_prefix("Positive: ") {
            let v: Vec<&str> = rest.split_whitespace().collect();
            if let (Some(p), Some(n)) = (v.first(), v.get(2)) {
                e.witnesses = p.parse().ok().zip(n.parse().ok());
            }
        } else if let Some(rest) = l.strip_prefix("Observation ") {
            e.observation = rest.split_whitespace().nth(1).map(str::to_string);
            if let Some(mut done) = cur.take() {
                if let Some(st) = done.states.as_mut() {
                    st.sort();
                }
                out.push(done);
            }
        }
    }
    out
}

/// Parses a table of Observations per model, as `litmus/expected.tsv` holds them: a
/// header `path<TAB>model…`, then a row per test.
pub fn parse_observation_table(text: &str, model: &str) -> Vec<Expected> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let Some(header) = lines.next() else { return Vec::new() };
    let cols: Vec<&str> = header.split('\t').collect();
    let Some(k) = cols.iter().position(|c| *c == model) else { return Vec::new() };
    lines
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            // A row whose cell is `-` still claims its test, so that it is not matched to a
            // namesake elsewhere; it just checks nothing.
            let obs = c.get(k).filter(|o| matches!(**o, "Never" | "Sometimes" | "Always")).map(|o| o.to_string());
            let name = c.first()?.rsplit('/').next().unwrap_or(c[0]).trim_end_matches(".litmus").to_string();
            Some(Expected { path: c[0].to_string(), name, observation: obs, ..Expected::default() })
        })
        .collect()
}

/// Reads an expectation file in any of the formats, chosen by its name and content.
/// `model` picks the column of an Observation table.
pub fn parse_any(path: &str, text: &str, model: &str) -> Vec<Expected> {
    if text.starts_with("path\t") {
        parse_observation_table(text, model)
    } else if path.ends_with(".tsv") {
        parse_tsv(text)
    } else if path.ends_with(".csv") {
        parse_csv(text)
    } else if text.lines().any(|l| l.starts_with("Observation ")) {
        parse_herd_log(text)
    } else {
        parse_kinds(text)
    }
}

/// Matches expectations to tests. Each test takes the entry whose path shares the
/// longest tail of path components with its own (so `litmus/X86/SB.litmus` takes
/// `dat3m/X86/SB.litmus` over `RISCV/SB.litmus`); a test with no such entry takes a
/// name-only entry of its name, when no other test has that name. Returns, per test, the
/// index of its entry; the entries that matched no test; and the ambiguities (an entry
/// claimed by several tests, or a test with several equally good entries).
pub fn match_entries(
    tests: &[(String, String)],
    entries: &[Expected],
) -> (Vec<Option<usize>>, Vec<String>, Vec<String>) {
    let comps = |p: &str| -> Vec<String> {
        p.split(['/', '\\']).filter(|c| !c.is_empty() && *c != ".").map(str::to_string).collect()
    };
    let entry_comps: Vec<Vec<String>> = entries.iter().map(|e| comps(&e.path)).collect();
    let mut assigned: Vec<Option<usize>> = vec![None; tests.len()];
    let mut ambiguous = Vec::new();
    for (t, (path, name)) in tests.iter().enumerate() {
        let tc = comps(path);
        let score = |ec: &Vec<String>| tc.iter().rev().zip(ec.iter().rev()).take_while(|(a, b)| a == b).count();
        let best = entry_comps.iter().map(score).max().unwrap_or(0);
        if best > 0 {
            let cands: Vec<usize> =
                (0..entries.len()).filter(|&k| !entries[k].path.is_empty() && score(&entry_comps[k]) == best).collect();
            match cands.as_slice() {
                [k] => assigned[t] = Some(*k),
                _ => ambiguous.push(format!("{path} matches {} expectations equally well", cands.len())),
            }
            continue;
        }
        let named: Vec<usize> =
            (0..entries.len()).filter(|&k| entries[k].path.is_empty() && entries[k].name == *name).collect();
        let same_name = tests.iter().filter(|(_, n)| n == name).count();
        match (named.as_slice(), same_name) {
            ([], _) => {}
            ([k], 1) => assigned[t] = Some(*k),
            _ => ambiguous.push(format!("{path}: the name {name} is not unique")),
        }
    }
    let mut claims = vec![0usize; entries.len()];
    for k in assigned.iter().flatten() {
        claims[*k] += 1;
    }
    let label = |e: &Expected| if e.path.is_empty() { e.name.clone() } else { e.path.clone() };
    let unmatched = (0..entries.len()).filter(|&k| claims[k] == 0).map(|k| label(&entries[k])).collect();
    for (k, &c) in claims.iter().enumerate() {
        if c > 1 {
            ambiguous.push(format!("expectation for {} matches {c} tests", label(&entries[k])));
        }
    }
    (assigned, unmatched, ambiguous)
}

/// The differences between an answer and an expectation, empty when they agree.
pub fn compare(a: &Answer, e: &Expected) -> Vec<String> {
    let mut d = Vec::new();
    let word = |ok: bool| if ok { "Ok" } else { "No" };
    if let Some(ok) = e.ok
        && a.ok != ok
    {
        d.push(format!("{} (expected {})", word(a.ok), word(ok)));
    }
    if let Some(v) = &e.verdict {
        let holds = match v.as_str() {
            "Allow" => a.observation != "Never",
            "Forbid" => a.observation == "Never",
            _ => a.observation == "Always",
        };
        if !holds {
            d.push(format!("observation {} (expected {v})", a.observation));
        }
    }
    if let Some(obs) = &e.observation
        && &a.observation != obs
    {
        d.push(format!("observation {} (expected {obs})", a.observation));
    }
    if let Some(k) = &e.kind
        && &a.kind != k
    {
        d.push(format!("kind {} (expected {k})", a.kind));
    }
    if let Some(l) = e.looped
        && a.looped != l
    {
        let says = |b: bool| if b { "a `Loop` prefix" } else { "no `Loop` prefix" };
        d.push(format!("{} (expected {})", says(a.looped), says(l)));
    }
    if a.fast {
        return d;
    }
    if let Some(w) = e.witnesses
        && a.witnesses != w
    {
        d.push(format!("witnesses {} {} (expected {} {})", a.witnesses.0, a.witnesses.1, w.0, w.1));
    }
    // A state with no places (only faults, which a corpus TSV leaves out) is an empty
    // column there: states without items are compared as none.
    let items = |v: &[String]| v.iter().filter(|s| !s.is_empty()).cloned().collect::<Vec<_>>();
    if let Some(st) = &e.states
        && items(&a.states) != items(st)
    {
        d.push(format!("states [{}] (expected [{}])", a.states.join(" | "), st.join(" | ")));
    }
    if let Some(f) = &e.flags
        && &a.flags != f
    {
        d.push(format!("flags [{}] (expected [{}])", a.flags.join(" "), f.join(" ")));
    }
    d
}

/// Index of expectations by path suffix, for matching tests found elsewhere.
pub fn by_path(es: Vec<Expected>) -> BTreeMap<String, Expected> {
    es.into_iter().map(|e| (e.path.clone(), e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use litsat::litmus::Loc;
    use litsat::query::SortVal;

    #[test]
    fn a_state_normalised_directly_equals_its_printed_line_normalised() {
        let key = StateKey(vec![
            (Loc::Reg(1, "r3".into()), SortVal::Int(-1)),
            (Loc::Mem("v[1]".into()), SortVal::UInt(u64::MAX)),
            (Loc::Mem("x".into()), SortVal::Sym("instr:\"add r1,r1,r1\"".into())),
            (Loc::Reg(0, "EAX".into()), SortVal::Int(2)),
        ]);
        assert_eq!(normal_state(&key, false), normalise_state(&litsat::report::state_line(&key)));
    }

    fn answer(observation: &str, flags: &[&str]) -> Answer {
        Answer {
            kind: "Allowed".into(),
            observation: observation.into(),
            ok: observation != "Never",
            witnesses: (1, 2),
            states: vec!["0:r0=0".into()],
            fast: false,
            flags: flags.iter().map(|f| f.to_string()).collect(),
            looped: false,
        }
    }

    #[test]
    fn tsv_reads_the_optional_flags_column() {
        let text = "a/T.litmus\tT\tAllowed\tSometimes\t1\t2\t0:r0=0\tdata-race mixed-accesses\n\
                    a/U.litmus\tU\tAllowed\tSometimes\t1\t2\t0:r0=0\t\n\
                    a/V.litmus\tV\tAllowed\tSometimes\t1\t2\t0:r0=0\n\
                    a/W.litmus\tW\tAllowed\tSometimes\t1\t2\t0:r0=0\tz-flag a-flag\n";
        let es = parse_tsv(text);
        assert_eq!(es.len(), 4);
        assert_eq!(es[0].flags, Some(vec!["data-race".to_string(), "mixed-accesses".to_string()]));
        assert_eq!(es[1].flags, Some(vec![]), "an empty eighth column expects no flags");
        assert_eq!(es[2].flags, None, "a seven-column row expects nothing about flags");
        assert_eq!(es[3].flags, Some(vec!["a-flag".to_string(), "z-flag".to_string()]), "sorted");
        assert_eq!(es[0].states, Some(vec!["0:r0=0".to_string()]));
    }

    #[test]
    fn compare_checks_flags_only_when_expected() {
        let es = parse_tsv(
            "a/T.litmus\tT\tAllowed\tSometimes\t1\t2\t0:r0=0\tdata-race\n\
             a/U.litmus\tU\tAllowed\tSometimes\t1\t2\t0:r0=0\t\n\
             a/V.litmus\tV\tAllowed\tSometimes\t1\t2\t0:r0=0\n",
        );
        let raced = answer("Sometimes", &["data-race"]);
        let clean = answer("Sometimes", &[]);
        assert!(compare(&raced, &es[0]).is_empty());
        assert_eq!(compare(&clean, &es[0]), vec!["flags [] (expected [data-race])".to_string()]);
        assert!(compare(&clean, &es[1]).is_empty());
        assert_eq!(compare(&raced, &es[1]), vec!["flags [data-race] (expected [])".to_string()]);
        assert!(compare(&raced, &es[2]).is_empty() && compare(&clean, &es[2]).is_empty());
        // `--fast` computes no flags, so they are not compared.
        assert!(compare(&Answer { fast: true, ..clean }, &es[0]).is_empty());
    }

    #[test]
    fn answers_without_flags_still_deserialise() {
        let json = r#"{"kind":"Allowed","observation":"Never","ok":false,"witnesses":[0,3],"states":[]}"#;
        let a: Answer = serde_json::from_str(json).expect("old records read");
        assert!(a.flags.is_empty() && !a.fast);
    }
}
