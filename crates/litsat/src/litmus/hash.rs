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
mod arm;
mod c;
mod code;
mod lisa;
mod ppc;
mod riscv;
mod state;
mod util;
mod x86;
mod x86_64;

use super::ast::Test;

/// The text of the test's parts, comments blanked: the metadata lines, the init block,
/// the code and the constraints after it.
struct Sections<'a> {
    meta: &'a str,
    init: &'a str,
    code: &'a str,
    post: &'a str,
}

/// Splits `text` (comments blanked) as herd's splitter does (lib/splitter.mll): the
/// metadata from the header (and its quoted doc string) to the init block's `{`, the init
/// block, the code up to the first keyword that starts the constraints, the constraints.
fn sections(text: &str) -> Option<Sections<'_>> {
    let rest = &text[header_end(text)?..];
    let open = init_open(rest)?;
    let meta = &rest[..open];
    let init_len = matching_brace(&rest[open..])?;
    let init = &rest[open + 1..open + init_len];
    let after = &rest[open + init_len + 1..];
    let code_len = code_end(after);
    // herd's constraints end at a `<<` (a section of display directives).
    let post = &after[code_len..];
    let post = post.find("<<").map_or(post, |e| &post[..e]);
    Some(Sections { meta, init, code: &after[..code_len], post })
}

/// The end of the header: its line, or its doc string `"…"` where one opens on the
/// header line or starts the next (herd's doc may span lines).
fn header_end(text: &str) -> Option<usize> {
    let nl = text.find('\n')?;
    let quote = match text[..nl].find('"') {
        Some(q) => Some(q),
        None => {
            let next = &text[nl + 1..];
            let blanks = next.len() - next.trim_start_matches([' ', '\t', '\r']).len();
            next[blanks..].starts_with('"').then_some(nl + 1 + blanks)
        }
    };
    Some(match quote.and_then(|q| text[q + 1..].find('"').map(|c| q + 1 + c + 1)) {
        Some(end) => end,
        None => nl,
    })
}

/// The offset of the init block's `{`: the first outside a `key=value` metadata line.
fn init_open(s: &str) -> Option<usize> {
    let mut at = 0;
    for line in s.split_inclusive('\n') {
        let key = line.bytes().take_while(|c| c.is_ascii_alphanumeric() || b"_/.-".contains(c)).count();
        let is_kv = key > 0
            && line.as_bytes()[0].is_ascii_alphabetic()
            && line[key..].trim_start_matches([' ', '\t', '\r']).starts_with('=');
        if !is_kv && let Some(b) = line.find('{') {
            return Some(at + b);
        }
        at += line.len();
    }
    None
}

/// The length of the code: up to the first keyword that starts the constraints (a whole
/// name, strings skipped), or all of it.
fn code_end(s: &str) -> usize {
    const KEYS: [&str; 8] = ["final", "forall", "exists", "cases", "observed", "Observed", "locations", "filter"];
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i += 1 + s[i + 1..].find('"').map_or(s.len() - i - 1, |e| e + 1);
        } else if c == b'~' && s[i + 1..].trim_start_matches([' ', '\t', '\r']).starts_with("exists") {
            return i;
        } else if c.is_ascii_alphabetic() {
            let n = b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || b"_/.-".contains(c)).count();
            if KEYS.contains(&&s[i..i + n]) {
                return i;
            }
            i += n;
        } else {
            i += 1;
        }
    }
    s.len()
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

/// The words of herd's page-table syntax in a state (`[PTE(x)]=(oa:PA(y))`, `pte_x`).
const PAGE_TABLE_WORDS: [&str; 7] = ["PTE(", "pte_", "PA(", "phy_", "TTD(", "pteval_t", "oa:"];

/// Whether the test's state or condition uses herd's page-table syntax, which the digest
/// leaves out ([`herd_hash`] gives `None`).
pub fn page_tables(source: &str) -> bool {
    sections(&super::parse::blank_comments(source)).is_some_and(|s| page_tables_in(&s))
}

fn page_tables_in(s: &Sections<'_>) -> bool {
    [s.init, s.post].iter().any(|p| PAGE_TABLE_WORDS.iter().any(|w| p.contains(w)))
}

/// herd's `Hash=` value for the test `test` parsed from `source`, or `None` where herd
/// prints no such line (a metadata key `hash` not spelled `Hash`) or where this module
/// cannot reproduce it.
pub fn herd_hash(source: &str, test: &Test) -> Option<String> {
    herd_hash_under(source, test, &test.variants)
}

/// [`herd_hash`] under the variants the test runs under (herd prints some instructions
/// otherwise under `morello`).
pub fn herd_hash_under(source: &str, test: &Test, variants: &[String]) -> Option<String> {
    let morello = crate::variant::holds(variants, "morello");
    let is_c = test.arch == "C";
    let blanked = if is_c { super::c_split::blank_comments(source) } else { super::parse::blank_comments(source) };
    let s = sections(&blanked)?;
    // A hash the test carries is herd's answer; only the key spelled `Hash` is printed.
    if let Some((k, v)) = meta_lines(s.meta).find(|(k, _)| k.eq_ignore_ascii_case("Hash")) {
        return (k == "Hash").then(|| v.to_string());
    }
    // herd digests page-table entries and their values (`-variant vmsa`) in forms of its
    // own, which this digest does not know: no hash rather than a wrong one.
    if page_tables_in(&s) {
        return None;
    }
    let code = if is_c { c::digest_text(s.code)? } else { code::digest_text(&test.arch, &test.threads, morello)? };
    let init = state::init(s.init)?;
    let locs = state::observed(s.post)?;
    let mut all = info_part(s.meta);
    for part in [init.as_str(), code.as_str(), locs.as_str()] {
        all.extend_from_slice(&md5::compute(part).0);
    }
    Some(format!("{:x}", md5::compute(all)))
}

/// Whether the digest knows the instructions of architecture `arch` (elsewhere logs have
/// no `Hash=` line yet, unless the test carries its own).
pub fn supports(arch: &str) -> bool {
    arch == "C" || code::printer(arch).is_some()
}

/// The strings the digest is made of, for debugging a mismatch: init, code, observed.
pub fn parts(source: &str, test: &Test) -> Option<[String; 3]> {
    let is_c = test.arch == "C";
    let blanked = if is_c { super::c_split::blank_comments(source) } else { super::parse::blank_comments(source) };
    let s = sections(&blanked)?;
    let morello = crate::variant::holds(&test.variants, "morello");
    let code = if is_c { c::digest_text(s.code) } else { code::digest_text(&test.arch, &test.threads, morello) };
    Some([
        state::init(s.init).unwrap_or_else(|| "?".into()),
        code.unwrap_or_else(|| "?".into()),
        state::observed(s.post).unwrap_or_else(|| "?".into()),
    ])
}
