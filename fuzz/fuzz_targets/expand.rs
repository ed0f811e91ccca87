//! Long chains and deep nesting from short inputs, which libFuzzer's length limit would
//! otherwise keep out of reach: every parser and pass must answer them or refuse them with
//! a located limit error, never overflow its stack (issue #34).

/// The input as text, with the part between its first two `\u{1}` bytes repeated 1,000
/// to 64,000 times (by the byte after the second): `a\u{1} | b\u{1}…` is a union of
/// thousands of terms, `\u{1}(\u{1}…` nesting as deep. Without two markers, the text.
pub fn expand(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data).into_owned();
    let mut parts = text.splitn(3, '\u{1}');
    let (Some(head), Some(unit), Some(tail)) = (parts.next(), parts.next(), parts.next()) else {
        return text;
    };
    let times = 1_000 * (1 + usize::from(tail.bytes().next().unwrap_or(0)) % 64);
    format!("{head}{}{tail}", unit.repeat(times.min((1 << 20) / unit.len().max(1))))
}
