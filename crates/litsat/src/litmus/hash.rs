//! herd's `Hash=` line: its digest of a test (herdtools7's `lib/testHash.ml`).
//!
//! The digest is the MD5 of four parts, each itself an MD5: the metadata keys herd digests
//! (`MemoryType`, `MT`, `CacheType`; no part at all when there are none), the initial state
//! sorted by location, the code printed canonically (labels renamed `L00`, `L01`, … in the
//! order of their names, each instruction by the architecture's printer, the threads laid
//! out as herd pads its code table), and the observed places. A test whose metadata carries
//! a `Hash=` line has that hash instead: herd does not recompute it.
//!
//! The parts are read from the test's text as written (herd digests what its parsers
//! kept: registers and numbers as spelled), the code from the cells the front end kept.
//! Where a printer or the state reader meets a form it does not know, there is no hash
//! (`None`): the log leaves the line out rather than print a wrong one.

mod aarch64;
mod code;
mod riscv;
mod state;

use super::ast::Test;

/// The text of the test's parts, comments blanked: the metadata lines, the init block and
/// the constraints after the code.
struct Sections<'a> {
    meta: &'a str,
    init: &'a str,
    post: &'a str,
}

/// Splits `text` (comments blanked) as herd's splitter does: the metadata between the
/// header line and the init block's `{`, the init block, then, `rows` code rows (`;`
/// each) after it, the constraints.
fn sections(text: &str, rows: usize) -> Option<Sections<'_>> {
    let body = text.trim_start();
    let rest = &body[body.find('\n')?..];
    let open = outside_quotes(rest, b'{')?;
    let meta = &rest[..open];
    let init_len = matching_brace(&rest[open..])?;
    let init = &rest[open + 1..open + init_len];
    let mut code = &rest[open + init_len + 1..];
    // The thread header row, then the code rows.
    for _ in 0..=rows {
        code = &code[code.find(';')? + 1..];
    }
    Some(Sections { meta, init, post: code })
}

fn outside_quotes(s: &str, target: u8) -> Option<usize> {
    let mut in_q = false;
    for (i, &c) in s.as_bytes().iter().enumerate() {
        if c == b'"' {
            in_q = !in_q;
        } else if c == target && !in_q {
            return Some(i);
        }
    }
    None
}

/// The offset of the `}` that closes the `{` at the start of `s`.
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The metadata lines `key=value` (herd's splitter: a name, `=`, the rest of the line).
fn meta_lines(meta: &str) -> impl Iterator<Item = (&str, &str)> {
    meta.lines().filter_map(|l| {
        let (k, v) = l.split_once('=')?;
        let k = k.trim();
        let ok = !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-');
        ok.then(|| (k, v.trim_start_matches([' ', '\t']).trim_end_matches('\r')))
    })
}

/// The metadata part: herd's digested keys, sorted by name, lowercased, concatenated in
/// reverse order; nothing when there are none.
fn info_part(meta: &str) -> Vec<u8> {
    const KEYS: [&str; 3] = ["MemoryType", "MT", "CacheType"];
    let mut kept: Vec<(&str, &str)> = meta_lines(meta).filter(|(k, _)| KEYS.iter().any(|d| d.eq_ignore_ascii_case(k))).collect();
    if kept.is_empty() {
        return Vec::new();
    }
    kept.sort_by(|a, b| a.0.cmp(b.0));
    let s: String = kept.iter().rev().map(|(k, v)| format!("{}={v}", k.to_lowercase())).collect();
    md5::compute(s).0.to_vec()
}

/// herd's `Hash=` value for the test `test` parsed from `source`, or `None` where herd
/// prints no such line (a metadata key `hash` not spelled `Hash`) or where this module
/// cannot reproduce it.
pub fn herd_hash(source: &str, test: &Test) -> Option<String> {
    let blanked = super::parse::blank_comments(source);
    let rows = test.threads.first().map_or(0, |t| t.cells.len());
    let s = sections(&blanked, rows)?;
    // A hash the test carries is herd's answer; only the key spelled `Hash` is printed.
    if let Some((k, v)) = meta_lines(s.meta).find(|(k, _)| k.eq_ignore_ascii_case("Hash")) {
        return (k == "Hash").then(|| v.to_string());
    }
    if !reproducible(s.post) {
        return None;
    }
    let code = code::digest_text(&test.arch, &test.threads)?;
    let init = state::init(s.init)?;
    let locs = state::observed(s.post)?;
    let mut all = info_part(s.meta);
    for part in [init.as_str(), code.as_str(), locs.as_str()] {
        all.extend_from_slice(&md5::compute(part).0);
    }
    Some(format!("{:x}", md5::compute(all)))
}

/// Forms whose digest is not reproduced yet, so that no wrong `Hash=` is printed: an
/// array element in the `locations` list.
fn reproducible(post: &str) -> bool {
    let element_observed = post
        .find("locations")
        .and_then(|at| post[at..].split_once(']').map(|(list, _)| list.matches('[').count() > 1))
        .unwrap_or(false);
    !element_observed
}

/// Whether the digest knows the instructions of architecture `arch` (elsewhere logs have
/// no `Hash=` line yet, unless the test carries its own).
pub fn supports(arch: &str) -> bool {
    code::printer(arch).is_some()
}

/// The strings the digest is made of, for debugging a mismatch: init, code, observed.
pub fn parts(source: &str, test: &Test) -> Option<[String; 3]> {
    let blanked = super::parse::blank_comments(source);
    let rows = test.threads.first().map_or(0, |t| t.cells.len());
    let s = sections(&blanked, rows)?;
    Some([
        state::init(s.init).unwrap_or_else(|| "?".into()),
        code::digest_text(&test.arch, &test.threads).unwrap_or_else(|| "?".into()),
        state::observed(s.post).unwrap_or_else(|| "?".into()),
    ])
}
