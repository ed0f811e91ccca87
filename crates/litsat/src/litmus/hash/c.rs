//! The code part of a C test's hash (lib/CTestHash.ml over herd's shallow C parse,
//! lib/dumpCAst.ml): each function as `P0(int* x, int* y) {`, its body exactly as written
//! between the braces (comments and all), `}`, and each global block `{…}` as written;
//! one column each in herd's code table. A parameter's type is printed by herd's type
//! printer (`atomic_int *x` as `_Atomic int* x`, `const int *x` as `int const* x`).

/// The code of a C test (its text between the init block and the constraints) as herd's
/// hash prints it, or `None` for a form this reader does not know.
pub fn digest_text(code: &str) -> Option<String> {
    let mut cols = Vec::new();
    let mut rest = code;
    loop {
        rest = skip_blank(rest)?;
        // The scopes and memory map after the functions are no code.
        if rest.is_empty() || rest.starts_with("scopes") || rest.starts_with("regions") {
            break;
        }
        if let Some(r) = rest.strip_prefix('{') {
            let (body, after) = body(r)?;
            cols.push(vec![format!("{{{body}}}\n\n")]);
            rest = after;
            continue;
        }
        let (col, after) = function(rest)?;
        cols.push(vec![col]);
        rest = after;
    }
    Some(super::code::layout(&cols))
}

/// `s` after blanks and C comments; `None` for an unterminated comment.
fn skip_blank(mut s: &str) -> Option<&str> {
    loop {
        s = s.trim_start();
        if let Some(r) = s.strip_prefix("/*") {
            s = &r[r.find("*/")? + 2..];
        } else if let Some(r) = s.strip_prefix("//") {
            s = r.find('\n').map_or("", |e| &r[e..]);
        } else {
            return Some(s);
        }
    }
}

/// The body after a `{`: its text up to the matching `}` (braces counted as written, as
/// herd's lexer does), and the text after that `}`.
fn body(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' if depth == 0 => return Some((&s[..i], &s[i + 1..])),
            b'}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `[void[*]] Pn(params) { body }`: the column herd prints and the text after it.
fn function(s: &str) -> Option<(String, &str)> {
    let mut s = s;
    if let Some(r) = s.strip_prefix("void").filter(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_')) {
        s = skip_blank(r)?;
        s = skip_blank(s.strip_prefix('*').unwrap_or(s))?;
    }
    let r = s.strip_prefix('P')?;
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    let proc: usize = r[..digits].parse().ok()?;
    let r = skip_blank(&r[digits..])?.strip_prefix('(')?;
    let close = r.find(')')?;
    let params = params(&r[..close])?;
    let r = skip_blank(&r[close + 1..])?.strip_prefix('{')?;
    let (body, after) = body(r)?;
    Some((format!("P{proc}({params}) {{\n{body}\n}}\n"), after))
}

/// The parameters as herd prints them: `type* name`, joined by `, `.
fn params(s: &str) -> Option<String> {
    if s.trim().is_empty() {
        return Some(String::new());
    }
    let mut out = Vec::new();
    for p in s.split(',') {
        let spaced = p.replace('*', " * ");
        let words: Vec<&str> = spaced.split_whitespace().collect();
        let (name, ty) = words.split_last()?;
        let stars = ty.iter().rev().take_while(|w| **w == "*").count();
        if stars == 0 {
            return None;
        }
        let base = base_type(&ty[..ty.len() - stars])?;
        out.push(format!("{base}{} {name}", "*".repeat(stars)));
    }
    Some(out.join(", "))
}

/// A parameter's base type as herd's `CType.dump` prints it.
fn base_type(words: &[&str]) -> Option<String> {
    const BASES: [&str; 22] = [
        "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "__int128_t",
        "__uint128_t", "__int128", "__uint128", "intptr_t", "uintptr_t", "mtx_t", "spinlock_t", "atomic_t", "int",
        "char", "long", "mutex", "void",
    ];
    let base = |w: &str| -> Option<String> {
        match w {
            "atomic_int" => Some("_Atomic int".into()),
            w if BASES.contains(&w) => Some(w.into()),
            _ => None,
        }
    };
    Some(match words {
        [w] => base(w)?,
        ["struct", s] => format!("struct {s}"),
        ["_Atomic", w] if w != &"atomic_int" => format!("_Atomic {}", base(w)?),
        ["volatile", w] | [w, "volatile"] if w != &"atomic_int" => format!("volatile {}", base(w)?),
        ["const", w] | [w, "const"] => format!("{} const", base(w)?),
        _ => return None,
    })
}
