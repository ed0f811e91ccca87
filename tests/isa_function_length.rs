//! Issue #37: no function of the ISA plug-ins (`crates/litsat/src/isa/`) is longer than
//! 100 lines, so that each instruction family stays a row of a table rather than an arm
//! of a long `match`. Measured by matching braces, outside comments, strings and
//! character literals.

use std::path::{Path, PathBuf};

const MAX_LINES: usize = 100;

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text with comments, strings and character literals blanked (newlines kept), so
/// that only the code's own braces are left.
fn code_only(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            i + 2 + rest[2..].windows(2).position(|w| w == b"*/").map_or(rest.len(), |k| k + 2)
        } else if rest.starts_with(b"r#\"") || rest.starts_with(b"r\"") {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let from = 2 + hashes;
            i + from
                + rest[from..].windows(close.len()).position(|w| w == close).map_or(rest.len(), |k| k + close.len())
        } else if rest[0] == b'"' {
            let mut k = 1;
            while k < rest.len() && rest[k] != b'"' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            i + k + 1
        } else if rest[0] == b'\'' && rest.len() > 2 && (rest[1] == b'\\' || rest[2] == b'\'') {
            // A character literal, not a lifetime.
            let mut k = 1;
            while k < rest.len() && rest[k] != b'\'' {
                k += if rest[k] == b'\\' { 2 } else { 1 };
            }
            i + k + 1
        } else {
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end;
    }
    out
}

/// The functions of `text` longer than `max` lines: name, first line, length.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let code = code_only(text);
    let code = String::from_utf8_lossy(&code);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let words: Vec<&str> = lines[i].split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        let Some(k) = words.iter().position(|w| *w == "fn") else {
            i += 1;
            continue;
        };
        let name = words[k + 1..].iter().find(|w| !w.is_empty()).copied().unwrap_or("?").to_string();
        // The body: from the first `{` (unless a `;` ends a declaration first) to its match.
        let (mut depth, mut opened, mut j) = (0i64, false, i);
        'scan: while j < lines.len() {
            for c in lines[j].chars() {
                match c {
                    ';' if !opened => break 'scan,
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
                if opened && depth == 0 {
                    break 'scan;
                }
            }
            j += 1;
        }
        if opened && j - i + 1 > max {
            out.push((name, i + 1, j - i + 1));
        }
        // Nested functions are measured inside their parent only.
        i = if opened { j + 1 } else { i + 1 };
    }
    out
}

#[test]
fn no_function_in_the_isa_plugins_is_over_100_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/litsat/src/isa");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    files.sort();
    assert!(files.len() > 5, "the plug-ins' sources are found");
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        for (name, line, n) in long_functions(&text, MAX_LINES) {
            long.push(format!("{}:{line}: fn {name} is {n} lines", f.strip_prefix(&dir).unwrap_or(f).display()));
        }
    }
    assert!(long.is_empty(), "functions over {MAX_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_measure_sees_through_strings_and_comments() {
    let text = "fn a() {\n    let s = \"}}}\"; // }\n    let c = '}';\n    x\n}\nfn b<'a>(x: &'a str) {\n\n\n}\n";
    assert_eq!(long_functions(text, 2), vec![("a".to_string(), 1, 5), ("b".to_string(), 6, 4)]);
    assert!(long_functions(text, 5).is_empty());
}
