//! Small readers the instruction printers share.

/// An integer as herd's lexers read one: decimal or `0x` hexadecimal, perhaps negative.
pub fn int(s: &str) -> Option<i64> {
    let t = s.trim();
    let (neg, t) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok()?,
        None => return None,
    };
    Some(if neg { -v } else { v })
}

/// Splits operands at the commas outside brackets, braces and parentheses, trimmed.
pub fn operands(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s.trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}
