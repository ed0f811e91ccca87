//! herd's configuration files (`.cfg`, read by `herd7 -conf FILE`): which macros, bell
//! and cat files make up a model, and the variants it is meant to run with.
//!
//! A line is `key value` or `key = value`, the key made of letters and the value the rest
//! of the line. litsat reads `macros`, `bell`, `model` (and its synonym `cat`) and
//! `variant` (comma-separated, possibly on several lines); every other key — the graph and
//! output options such as `graph columns` or `edgeattr hb,color,indigo` — is accepted and
//! ignored. Blank lines and lines starting with `#` are skipped, as herd does; lines
//! starting with `//` are skipped too (herd rejects them). The files named are found as
//! [`super::load`] describes: never in the cfg's own folder.

use crate::diag::{Diag, Pos};

/// A value a cfg gives, with where it was written (for errors about the file it names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgValue {
    pub value: String,
    /// Where the value starts in the cfg's text.
    pub pos: Pos,
}

/// The model-side contents of one cfg file; a key given twice keeps its last value, as in
/// herd, except `variant`, whose lines accumulate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cfg {
    pub macros: Option<CfgValue>,
    pub bell: Option<CfgValue>,
    pub model: Option<CfgValue>,
    pub variants: Vec<String>,
}

/// Parses the text of the cfg `path`. A known key without a value, a key that is not a
/// word and herd's nested `conf` are errors located at the offending line.
pub fn parse_cfg(path: &str, text: &str) -> Result<Cfg, Diag> {
    let mut cfg = Cfg::default();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let at = start;
        start += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let lead = body.len() - trimmed.len();
        let key_len = trimmed.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(trimmed.len());
        let key = &trimmed[..key_len];
        let here = |off: usize| Pos(at + lead + off);
        if key.is_empty() {
            return Err(Diag::at(path, text, here(0), "expected a key (a word such as `model` or `variant`)"));
        }
        let rest = &trimmed[key_len..];
        let after_blanks = rest.trim_start_matches([' ', '\t']);
        let value_part = match after_blanks.strip_prefix('=') {
            Some(v) => v.trim_start_matches([' ', '\t']),
            None if after_blanks.len() < rest.len() || rest.is_empty() => after_blanks,
            None => {
                let off = key_len;
                return Err(Diag::at(path, text, here(off), format!("expected a blank or `=` after the key `{key}`")));
            }
        };
        let value = value_part.trim_end();
        let value_pos = here(trimmed.len() - value_part.len());
        let known = matches!(key, "macros" | "bell" | "model" | "cat" | "variant" | "conf");
        if known && value.is_empty() {
            return Err(Diag::at(path, text, here(0), format!("the key `{key}` needs a value")));
        }
        let v = || CfgValue { value: value.to_string(), pos: value_pos };
        match key {
            "macros" => cfg.macros = Some(v()),
            "bell" => cfg.bell = Some(v()),
            "model" | "cat" => cfg.model = Some(v()),
            "variant" => {
                cfg.variants.extend(value.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from))
            }
            "conf" => {
                return Err(Diag::at(
                    path,
                    text,
                    here(0),
                    "unsupported: a cfg reading another cfg (`conf`); name the files in one cfg",
                ));
            }
            _ => {}
        }
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_model_keys_and_ignores_graph_options() {
        let text = "# a comment\nmacros m.def\nbell  m.bell\n\n// another\nmodel = m.cat\nvariant a,b\n\
                    graph columns\nedgeattr hb,color,indigo\nvariant c\nshowinitrf false\n";
        let cfg = parse_cfg("x.cfg", text).unwrap();
        assert_eq!(cfg.macros.as_ref().map(|v| v.value.as_str()), Some("m.def"));
        assert_eq!(cfg.bell.as_ref().map(|v| v.value.as_str()), Some("m.bell"));
        assert_eq!(cfg.model.as_ref().map(|v| v.value.as_str()), Some("m.cat"));
        assert_eq!(cfg.variants, ["a", "b", "c"]);
        // The value's position is its first character: line 3, column 7.
        let d = Diag::at("x.cfg", text, cfg.bell.unwrap().pos, "");
        assert_eq!((d.line, d.col), (3, 7));
    }

    #[test]
    fn a_known_key_without_value_is_located() {
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
        let d = parse_cfg("x.cfg", "model-x m.cat\n").unwrap_err();
        assert_eq!((d.line, d.col), (1, 6));
        let d = parse_cfg("x.cfg", "conf other.cfg\n").unwrap_err();
        assert!(d.message.starts_with("unsupported"), "{}", d.message);
    }

    #[test]
    fn the_last_model_wins_and_crlf_is_accepted() {
        let cfg = parse_cfg("x.cfg", "model a.cat\r\ncat b.cat\r\n").unwrap();
        assert_eq!(cfg.model.map(|v| v.value), Some("b.cat".to_string()));
    }
}
