//! Expected results to compare against: herd's answers as the shared corpus records them.

use crate::query::Outcome;
use crate::report::state_line;
use std::collections::BTreeMap;

/// One expected result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub path: String,
    pub name: String,
    pub kind: Option<String>,
    pub observation: Option<String>,
    /// herd's `Positive:`/`Negative:` Witnesses pair.
    pub witnesses: Option<(u64, u64)>,
    /// Normalised states (see [`normalise_state`]), sorted.
    pub states: Option<Vec<String>>,
}

/// The corpus TSVs' normal form of a state: `loc=value` items without memory brackets,
/// sorted byte-wise and `;`-joined.
pub fn normalise_state(line: &str) -> String {
    let mut items: Vec<String> = line
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| if let Some(rest) = s.strip_prefix('[') { rest.replacen(']', "", 1) } else { s.to_string() })
        .collect();
    items.sort();
    items.join(";")
}

/// Parses a TSV as in `shared/corpus/expected`: path, name, kind, observation, positive,
/// negative, states.
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
        out.push(Expected {
            path: c[0].to_string(),
            name: c[1].to_string(),
            kind: Some(c[2].to_string()),
            observation: Some(c[3].to_string()),
            witnesses: c[4].parse().ok().zip(c[5].parse().ok()),
            states: Some(states),
        });
    }
    out
}

/// The differences between an outcome and an expectation, empty when they agree.
pub fn compare(o: &Outcome, e: &Expected) -> Vec<String> {
    let mut d = Vec::new();
    if let Some(obs) = &e.observation
        && o.observation() != obs
    {
        d.push(format!("observation {} (expected {obs})", o.observation()));
    }
    if let Some(k) = &e.kind {
        let mine = crate::report::kind_word(o.test.cond.kind);
        if mine != k {
            d.push(format!("kind {mine} (expected {k})"));
        }
    }
    if let Some(w) = e.witnesses {
        let mine = o.witnesses();
        if mine != w {
            d.push(format!("witnesses {} {} (expected {} {})", mine.0, mine.1, w.0, w.1));
        }
    }
    if let Some(st) = &e.states {
        let mut mine: Vec<String> = o.states.iter().map(|s| normalise_state(&state_line(s))).collect();
        mine.sort();
        if &mine != st {
            d.push(format!("states [{}] (expected [{}])", mine.join(" | "), st.join(" | ")));
        }
    }
    d
}

/// Index of expectations by path suffix, for matching tests found elsewhere.
pub fn by_path(es: Vec<Expected>) -> BTreeMap<String, Expected> {
    es.into_iter().map(|e| (e.path.clone(), e)).collect()
}
