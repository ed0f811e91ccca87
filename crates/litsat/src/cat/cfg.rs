//! herd's configuration files (`.cfg`, read by `herd7 -conf FILE`): which macros, bell
//! and cat files make up a model, and any other herd option, one `key value` a line.
//!
//! A line is `key value` or `key = value`, the key a word (herd allows one `-` inside it)
//! and the value the rest of the line. Blank lines and lines starting with `#` are
//! skipped, as herd does; lines starting with `//` are skipped too (herd rejects them).
//!
//! Every key herd accepts is in one of three places here, and any other key is an error
//! at its line, as in herd:
//! - the model's files (`macros`, `bell`, `model`/`cat`) and `variant`;
//! - [`Settings`]: the options that change answers or which tests run, each with herd's
//!   meaning (`skipchecks`, `strictskip`, `timeout`, `unroll`, `hexa`, `nonames`,
//!   `oknames`, `include`, `speedcheck`, `outcomereads`, the per-test files of
//!   [`MapFiles`], and options set to herd's default, `machsize auto`);
//! - [`DISPLAY_KEYS`]: options that only change herd's pictures, accepted and unused.
//!
//! A key herd accepts whose meaning litsat does not implement is refused by name, so that
//! no setting is silently dropped. The files named are found as [`super::load`]
//! describes: never in the cfg's own folder.

use crate::diag::{Diag, Pos};

/// A value a cfg gives, with where it was written (for errors about the file it names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgValue {
    pub value: String,
    /// Where the value starts in the cfg's text.
    pub pos: Pos,
}

/// The contents of one cfg file; a key given twice keeps its last value, as in herd,
/// except those that accumulate (`variant`, `skipchecks`, `nonames`, `oknames`,
/// `include`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cfg {
    pub macros: Option<CfgValue>,
    pub bell: Option<CfgValue>,
    pub model: Option<CfgValue>,
    pub variants: Vec<String>,
    pub settings: Settings,
}

/// The herd options a cfg sets besides the model's files: each takes effect as herd's
/// command-line option of the same name does (see `query::Options` and the command
/// line's test selection), the command line's own value winning.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// `skipchecks` (and `skipcheck`, as on herd's command line): checks not applied.
    pub skipchecks: Vec<String>,
    /// `timeout`: seconds, or `Some(None)` for `none`.
    pub timeout: Option<Option<f64>>,
    /// `unroll`: the loop bound, or `Some(None)` for `none` (herd's default).
    pub unroll: Option<Option<usize>>,
    /// `hexa`: numbers printed in hexadecimal.
    pub hexa: Option<bool>,
    /// `oknames`: where not empty, only tests of these names run.
    pub oknames: Vec<String>,
    /// `nonames`: tests of these names do not run.
    pub nonames: Vec<String>,
    /// `include`: folders searched after the command line's `-I`.
    pub includes: Vec<String>,
    /// `speedcheck`: `fast` (the verdict only, as `Options::fast`), `true` (only the
    /// executions that decide the condition, as `Options::relevant`) or `false`.
    pub speedcheck: Option<Speedcheck>,
    /// `strictskip`: `Some(true)` keeps only the executions that fail every skipped check
    /// (as `Options::strictskip`).
    pub strictskip: Option<bool>,
    /// `outcomereads`: `Some(true)` shows every register a memory read writes (as
    /// `Options::outcomereads`).
    pub outcomereads: Option<bool>,
    /// `through`: `Some(true)` for `all` or `invalid` (every check but the flags passes,
    /// as `Options::through`), `Some(false)` for `none`.
    pub through: Option<bool>,
    /// `checkfilter`: `Some(false)` keeps the executions a test's filter rejects.
    pub checkfilter: Option<bool>,
    /// `names`, `excl`, `kinds`, `conds`, `rename`: herd's per-test files.
    pub maps: MapFiles,
}

/// The files of herd's per-test keys, as a cfg names them (each key may repeat, and
/// accumulates). herd opens them from the folder it runs in; they are read by litsat's
/// `herd7` command line, which reads the same options on its own command line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapFiles {
    /// `names`: only the tests named (a name at the start of each line) run.
    pub names: Vec<String>,
    /// `excl`: the tests named do not run.
    pub excl: Vec<String>,
    /// `kinds`: a test's quantifier, by name.
    pub kinds: Vec<String>,
    /// `conds`: a test's whole condition, by name.
    pub conds: Vec<String>,
    /// `rename`: a test's new name.
    pub rename: Vec<String>,
}

impl MapFiles {
    /// The keys that name some file, in herd's order of options.
    pub fn keys(&self) -> Vec<&'static str> {
        let all = [
            ("names", &self.names),
            ("excl", &self.excl),
            ("kinds", &self.kinds),
            ("conds", &self.conds),
            ("rename", &self.rename),
        ];
        all.into_iter().filter(|(_, v)| !v.is_empty()).map(|(k, _)| k).collect()
    }
}

/// herd's `speedcheck` values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speedcheck {
    /// The full log.
    #[default]
    False,
    /// Only the executions that decide the condition.
    True,
    /// The verdict only, from the first deciding execution.
    Fast,
}

impl Settings {
    /// Whether herd's test selection (`oknames`, `nonames`) keeps the test `name`.
    pub fn selects(&self, name: &str) -> bool {
        (self.oknames.is_empty() || self.oknames.iter().any(|n| n == name)) && !self.nonames.iter().any(|n| n == name)
    }
}

/// Keys that only change herd's pictures (dot files and viewers), which litsat draws
/// its own way: accepted with any value, and unused.
pub const DISPLAY_KEYS: &[&str] = &[
    "arrowsize",
    "boxscale",
    "brackets",
    "classes",
    "dotcom",
    "dotheader",
    "dotmode",
    "doshow",
    "dsiy",
    "edgeattr",
    "edgefontsizedelta",
    "edgemerge",
    "extrachars",
    "finalrfpos",
    "fixedsize",
    "fontname",
    "fontsize",
    "graph",
    "initpos",
    "initrfpos",
    "labelbox",
    "labelinit",
    "margin",
    "mono",
    "movelabel",
    "noid",
    "nshow",
    "oneinit",
    "overlap",
    "pad",
    "penwidth",
    "ptscale",
    "relabel",
    "scale",
    "sep",
    "shift",
    "shortlegend",
    "show",
    "showevents",
    "showfinalrf",
    "showflag",
    "showinitrf",
    "showinitwrites",
    "showkind",
    "showlegend",
    "showobserved",
    "showpo",
    "showraw",
    "showthread",
    "siwidth",
    "splines",
    "squished",
    "symetric",
    "texmacros",
    "threadposy",
    "unshow",
    "view",
    "withbox",
    "xscale",
    "yscale",
];

/// Keys herd accepts that change what it answers or how it runs, and the one value of
/// each that is herd's default (so litsat already does what it says); any other value
/// is refused by name. `None`: no value is implemented.
const DEFAULT_ONLY: &[(&str, Option<&str>)] = &[
    ("archcheck", Some("true")),
    ("badexecs", Some("true")),
    ("badflag", Some("none")),
    ("conf", None),
    ("debug", None),
    ("dumpallfaults", Some("false")),
    ("endian", Some("little")),
    ("initwrites", Some("false")),
    ("local-conf", None),
    ("machsize", Some("auto")),
    ("optace", Some("iico")),
    ("restrict", Some("none")),
    ("suffix", None),
    ("verbose", Some("0")),
];

/// One `key value` line: the key, the value and where each starts.
struct Line<'a> {
    key: &'a str,
    key_pos: Pos,
    value: &'a str,
    value_pos: Pos,
}

/// Parses the text of the cfg `path`. A line that is not `key value`, an unknown key, a
/// key without a value or with a value of the wrong kind, and a key litsat does not
/// implement are errors located at the offending line.
pub fn parse_cfg(path: &str, text: &str) -> Result<Cfg, Diag> {
    let mut cfg = Cfg::default();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let at = start;
        start += line.len();
        if let Some(l) = split_line(path, text, at, line)? {
            set(&mut cfg, &l).map_err(|(at_key, m)| Diag::at(path, text, if at_key { l.key_pos } else { l.value_pos }, m))?;
        }
    }
    Ok(cfg)
}

/// Splits the line starting at `at` into key and value; `None` for a blank or comment line.
fn split_line<'a>(path: &str, text: &str, at: usize, line: &'a str) -> Result<Option<Line<'a>>, Diag> {
    let body = line.trim_end_matches(['\n', '\r']);
    let trimmed = body.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
        return Ok(None);
    }
    let here = |off: usize| Pos(at + body.len() - trimmed.len() + off);
    let key_len = key_len(trimmed);
    let key = &trimmed[..key_len];
    if key.is_empty() {
        return Err(Diag::at(path, text, here(0), "expected a key (a word such as `model` or `variant`)"));
    }
    let rest = &trimmed[key_len..];
    let after_blanks = rest.trim_start_matches([' ', '\t']);
    let value_part = match after_blanks.strip_prefix('=') {
        Some(v) => v.trim_start_matches([' ', '\t']),
        None if after_blanks.len() < rest.len() || rest.is_empty() => after_blanks,
        None => {
            return Err(Diag::at(path, text, here(key_len), format!("expected a blank or `=` after the key `{key}`")));
        }
    };
    let value = value_part.trim_end();
    if value.is_empty() {
        return Err(Diag::at(path, text, here(0), format!("the key `{key}` needs a value")));
    }
    Ok(Some(Line { key, key_pos: here(0), value, value_pos: here(trimmed.len() - value_part.len()) }))
}

/// The length of the key at the start of `s`: letters, with at most one `-` between
/// letters (herd's `local-conf`).
fn key_len(s: &str) -> usize {
    let word = |s: &str| s.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(s.len());
    let first = word(s);
    match s[first..].strip_prefix('-') {
        Some(after) if first > 0 && word(after) > 0 => first + 1 + word(after),
        _ => first,
    }
}

/// Applies one line to `cfg`. An error says whether it is the key's (unknown or not
/// implemented) or the value's (of the wrong kind), and why.
fn set(cfg: &mut Cfg, l: &Line) -> Result<(), (bool, String)> {
    let at_value = |m: String| (false, m);
    let v = l.value;
    let s = &mut cfg.settings;
    match l.key {
        "macros" => cfg.macros = Some(value(l)),
        "bell" => cfg.bell = Some(value(l)),
        "model" | "cat" => cfg.model = Some(value(l)),
        "variant" => cfg.variants.extend(crate::variant::parse_list(v).map_err(at_value)?),
        "skipchecks" | "skipcheck" => s.skipchecks.extend(names(v)),
        "timeout" => s.timeout = Some(or_none(v, seconds, "a number of seconds").map_err(at_value)?),
        "unroll" => s.unroll = Some(or_none(v, |x| x.parse().ok(), "a whole number").map_err(at_value)?),
        "hexa" => s.hexa = Some(boolean(v).map_err(at_value)?),
        "oknames" => s.oknames.extend(names(v)),
        "nonames" => s.nonames.extend(names(v)),
        "include" => s.includes.push(v.to_string()),
        "through" => s.through = Some(through(v).map_err(at_value)?),
        "checkfilter" => s.checkfilter = Some(boolean(v).map_err(at_value)?),
        "speedcheck" => s.speedcheck = Some(speedcheck(v).map_err(at_value)?),
        "strictskip" => s.strictskip = Some(boolean(v).map_err(at_value)?),
        "outcomereads" => s.outcomereads = Some(boolean(v).map_err(at_value)?),
        "names" => s.maps.names.push(v.to_string()),
        "excl" => s.maps.excl.push(v.to_string()),
        "kinds" => s.maps.kinds.push(v.to_string()),
        "conds" => s.maps.conds.push(v.to_string()),
        "rename" => s.maps.rename.push(v.to_string()),
        k if DISPLAY_KEYS.contains(&k) => {}
        k => return default_only(k, v).map_err(|m| (true, m)),
    }
    Ok(())
}

fn value(l: &Line) -> CfgValue {
    CfgValue { value: l.value.to_string(), pos: l.value_pos }
}

/// A comma-separated list, as herd's string sets are written.
fn names(v: &str) -> impl Iterator<Item = String> + '_ {
    v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from)
}

/// A number of seconds a `Duration` can hold (not negative, not NaN, not too large).
fn seconds(v: &str) -> Option<f64> {
    v.parse().ok().filter(|x| std::time::Duration::try_from_secs_f64(*x).is_ok())
}

/// `speedcheck`'s value (herd's `Speed` tags).
pub fn speedcheck(v: &str) -> Result<Speedcheck, String> {
    match v {
        "fast" => Ok(Speedcheck::Fast),
        "true" => Ok(Speedcheck::True),
        "false" => Ok(Speedcheck::False),
        _ => Err(format!("expected `false`, `true` or `fast`, found `{v}`")),
    }
}

/// herd's `-through`: whether checks are let through (`all`, `invalid`) or not (`none`).
pub fn through(v: &str) -> Result<bool, String> {
    match v {
        "all" | "invalid" => Ok(true),
        "none" => Ok(false),
        _ => Err(format!("expected `all`, `invalid` or `none`, found `{v}`")),
    }
}

fn boolean(v: &str) -> Result<bool, String> {
    v.parse().map_err(|_| format!("expected `true` or `false`, found `{v}`"))
}

/// `none`, or a value `parse` reads.
fn or_none<T>(v: &str, parse: impl Fn(&str) -> Option<T>, what: &str) -> Result<Option<T>, String> {
    match v {
        "none" => Ok(None),
        _ => parse(v).map(Some).ok_or_else(|| format!("expected {what} or `none`, found `{v}`")),
    }
}

/// A key of [`DEFAULT_ONLY`] at herd's default is accepted; any other value, or a key
/// herd does not know, is refused by name.
fn default_only(key: &str, v: &str) -> Result<(), String> {
    match DEFAULT_ONLY.iter().find(|(k, _)| *k == key) {
        Some((_, Some(d))) if *d == v => Ok(()),
        Some((_, Some(d))) => Err(format!(
            "unsupported: herd's option `{key} {v}` (litsat implements `{key}` only at herd's default, `{d}`)"
        )),
        Some((_, None)) => Err(format!("unsupported: herd's option `{key}` is not implemented by litsat")),
        None => Err(format!("unknown key `{key}` in a configuration file")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_model_keys_and_accepts_display_keys() {
        let text = "# a comment\nmacros m.def\nbell  m.bell\n\n// another\nmodel = m.cat\nvariant ets,ets2\n\
                    graph columns\nedgeattr hb,color,indigo\nvariant exs\nshowinitrf false\n";
        let cfg = parse_cfg("x.cfg", text).unwrap();
        assert_eq!(cfg.macros.as_ref().map(|v| v.value.as_str()), Some("m.def"));
        assert_eq!(cfg.bell.as_ref().map(|v| v.value.as_str()), Some("m.bell"));
        assert_eq!(cfg.model.as_ref().map(|v| v.value.as_str()), Some("m.cat"));
        assert_eq!(cfg.variants, ["ets", "ets2", "exs"]);
        assert_eq!(cfg.settings, Settings::default());
        // The value's position is its first character: line 3, column 7.
        let d = Diag::at("x.cfg", text, cfg.bell.unwrap().pos, "");
        assert_eq!((d.line, d.col), (3, 7));
    }

    #[test]
    fn settings_take_herds_meaning() {
        let text = "skipcheck sc\nskipchecks a, b\ntimeout 2.5\nunroll 1\nhexa true\nnonames T1,T2\n\
                    oknames T3\ninclude lib\nmachsize auto\n";
        let s = parse_cfg("x.cfg", text).unwrap().settings;
        assert_eq!(s.skipchecks, ["sc", "a", "b"]);
        assert_eq!((s.timeout, s.unroll, s.hexa), (Some(Some(2.5)), Some(Some(1)), Some(true)));
        assert_eq!((s.nonames.len(), s.oknames.len(), s.includes.len()), (2, 1, 1));
        assert!(s.selects("T3") && !s.selects("T1") && !s.selects("T4"));
        let s = parse_cfg("x.cfg", "timeout none\nunroll none\n").unwrap().settings;
        assert_eq!((s.timeout, s.unroll), (Some(None), Some(None)));
    }

    #[test]
    fn an_unknown_key_is_located_and_named() {
        let d = parse_cfg("x.cfg", "model m.cat\n  colour blue\n").unwrap_err();
        assert_eq!((d.line, d.col), (2, 3));
        assert!(d.message.contains("unknown key `colour`"), "{}", d.message);
    }

    #[test]
    fn keys_herd_knows_but_litsat_does_not_implement_are_refused_by_name() {
        for (text, word) in
            [("machsize quad\n", "`machsize quad`"), ("conf other.cfg\n", "`conf`"), ("optace false\n", "optace")]
        {
            let d = parse_cfg("x.cfg", text).unwrap_err();
            assert!(d.message.starts_with("unsupported") && d.message.contains(word), "{}", d.message);
        }
        // herd's defaults are what litsat does already.
        parse_cfg("x.cfg", "archcheck true\nspeedcheck false\nlocal-conf = x\n").unwrap_err();
        parse_cfg("x.cfg", "archcheck true\nspeedcheck false\n").unwrap();
        assert_eq!(parse_cfg("x.cfg", "speedcheck fast\n").unwrap().settings.speedcheck, Some(Speedcheck::Fast));
    }

    #[test]
    fn strictskip_speedcheck_and_outcomereads_are_read() {
        let s = parse_cfg("x.cfg", "speedcheck true\nstrictskip true\noutcomereads true\n").unwrap().settings;
        assert_eq!((s.speedcheck, s.strictskip, s.outcomereads), (Some(Speedcheck::True), Some(true), Some(true)));
        let d = parse_cfg("x.cfg", "strictskip yes\n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 12));
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_located() {
        let d = parse_cfg("x.cfg", "hexa maybe\n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 6));
        let d = parse_cfg("x.cfg", "\nunroll = two\n").unwrap_err();
        assert_eq!((d.line, d.col), (2, 10));
    }

    #[test]
    fn a_key_without_value_is_located() {
        let d = parse_cfg("x.cfg", "model m.cat\n  bell\n").unwrap_err();
        assert_eq!((d.file.as_str(), d.line, d.col), ("x.cfg", 2, 3));
        assert!(d.message.contains("`bell` needs a value"), "{}", d.message);
        let d = parse_cfg("x.cfg", "variant =  \n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 1));
    }

    #[test]
    fn a_line_that_is_not_key_value_is_located() {
        let d = parse_cfg("x.cfg", "model m.cat\n\n3 things\n").unwrap_err();
        assert_eq!((d.line, d.col), (3, 1));
        let d = parse_cfg("x.cfg", "model- m.cat\n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 6));
    }

    #[test]
    fn the_last_model_wins_and_crlf_is_accepted() {
        let cfg = parse_cfg("x.cfg", "model a.cat\r\ncat b.cat\r\n").unwrap();
        assert_eq!(cfg.model.map(|v| v.value), Some("b.cat".to_string()));
    }
}
