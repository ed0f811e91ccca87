//! AArch64 instructions as herd's hash prints them (`dump_instruction_hash`, the compat
//! printer of lib/AArch64Base.ml): upper case, no space after commas, immediates `#`
//! decimal, zero offsets and shifts left out, aliases of `SUBS`, `ANDS`, `ORN` with the zero
//! register printed `CMP`, `TST`, `MVN`, and its backward-compatible quirks: `ADR` prints
//! `ADDR`, `NEG` prints `SUB` from the zero register, a post-index prints `[X1]#8`
//! (` [X1]#8` in a pair), `LDXP`'s first register prints W.

use super::util::operands;

/// A register's canonical name, if `s` is one.
pub fn reg(s: &str) -> Option<String> {
    // A symbolic register, `%r`, `X%r` or `W%r`: herd prints it `X%r` (`W%r`).
    if let Some((w, name)) = s.trim().split_once('%') {
        let w = match w {
            "" | "X" | "x" => "X",
            "W" | "w" => "W",
            _ => return None,
        };
        let ok = name.bytes().next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
        return ok.then(|| format!("{w}%{name}"));
    }
    let u = s.to_ascii_uppercase();
    match u.as_str() {
        "XZR" | "WZR" | "SP" | "WSP" => return Some(u),
        _ => {}
    }
    // The text may hold anything, multi-byte characters included.
    if !u.is_ascii() || u.is_empty() {
        return None;
    }
    let (c, n) = u.split_at(1);
    let ok = matches!(c, "X" | "W") && !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit());
    let n: u32 = n.parse().ok()?;
    (ok && n <= 30).then(|| format!("{c}{n}"))
}

/// An immediate as the compat printer shows it: `#` and its value in decimal.
fn imm(s: &str) -> Option<i64> {
    let t = s.trim().strip_prefix('#').unwrap_or(s.trim());
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None => t.parse().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// A shift or extension operand (`LSL #2`, `SXTW`, `UXTW #3`): its text, `None` for a
/// zero shift, which herd leaves out.
fn shift(s: &str) -> Option<Option<String>> {
    // `LSL#2` as well as `LSL #2`.
    let s = s.trim();
    let n = s.bytes().take_while(u8::is_ascii_alphabetic).count();
    let op = s[..n].to_ascii_uppercase();
    let w = s[n..].split_whitespace();
    if !["LSL", "LSR", "ASR", "ROR", "SXTW", "UXTW", "SXTX", "UXTX", "SXTB", "SXTH", "UXTB", "UXTH", "MSL"]
        .contains(&op.as_str())
    {
        return None;
    }
    let amount = w.collect::<String>();
    if amount.is_empty() {
        return Some(Some(op));
    }
    let k = imm(&amount)?;
    let ext = !matches!(op.as_str(), "LSL" | "LSR" | "ASR" | "ROR" | "MSL");
    Some(if k == 0 { if ext { Some(op) } else { None } } else { Some(format!("{op} #{k}")) })
}

/// One operand outside brackets: a register, an immediate, a shift or a label.
fn operand(s: &str, label: &mut dyn FnMut(&str) -> String, is_label: bool) -> Option<String> {
    if is_label {
        // `.+8`, a branch by offset, is no label.
        return Some(if s.starts_with(".+") || s.starts_with(".-") { s.to_string() } else { label(s) });
    }
    if let Some(r) = reg(s) {
        return Some(r);
    }
    if s.starts_with('#') || s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return Some(format!("#{}", imm(s)?));
    }
    if let Some(sh) = shift(s) {
        return Some(sh.unwrap_or_default());
    }
    let ok = !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    ok.then(|| s.to_ascii_uppercase())
}

/// A memory operand `[Xn{,offset{,ext}}]{!}`, followed perhaps by a post-index.
fn memory(m: &str, post: Option<&str>, pair: bool) -> Option<String> {
    let pre = m.ends_with('!');
    let inner = m.trim_end_matches('!').trim().strip_prefix('[')?.strip_suffix(']')?;
    let parts = operands(inner);
    let base = parts.first().and_then(|p| reg(p).or_else(|| capability(p)))?;
    if let Some(p) = post {
        let k = imm(p)?;
        return Some(format!("{}[{base}]#{k}", if pair { " " } else { "" }));
    }
    let out = match &parts[1..] {
        [] => format!("[{base}]"),
        [k] if k.starts_with('#') || imm(k).is_some() => {
            let k = imm(k)?;
            if pre {
                return Some(format!("[{base},#{k}]!"));
            }
            if k == 0 { format!("[{base}]") } else { format!("[{base},#{k}]") }
        }
        [r] => format!("[{base},{}]", reg(r)?),
        [r, e] => match shift(e)? {
            Some(e) => format!("[{base},{},{e}]", reg(r)?),
            None => format!("[{base},{}]", reg(r)?),
        },
        _ => return None,
    };
    (!pre).then_some(out)
}

/// A capability register `Cn` as a base (herd's variant morello): the register `Xn`.
fn capability(s: &str) -> Option<String> {
    let n = s.trim().strip_prefix(['C', 'c'])?;
    let k: u32 = n.parse().ok().filter(|_| n.bytes().all(|b| b.is_ascii_digit()))?;
    (k <= 30).then(|| format!("X{k}"))
}

/// Prints one AArch64 instruction as herd's hash does under variant morello, where the
/// base of a load or store without offset prints as a capability register (`[C1]`,
/// herd's `pp_ra`; with an offset it stays `[X1,#4]`, and `LDUR`'s always does).
pub fn print_morello(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let out = print(ins, label)?;
    let plain = out.starts_with("LDR") || out.starts_with("STR");
    match out.split_once(",[X") {
        Some((head, tail)) if plain && tail.ends_with(']') && tail[..tail.len() - 1].bytes().all(|b| b.is_ascii_digit()) => {
            Some(format!("{head},[C{tail}"))
        }
        _ => Some(out),
    }
}

/// Prints one AArch64 instruction as herd's hash does.
pub fn print(ins: &str, label: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let ins = ins.trim();
    let (mnem, rest) = ins.split_once(char::is_whitespace).unwrap_or((ins, ""));
    let mnem = mnem.to_ascii_uppercase();
    let ops = operands(rest);
    let label_at = match mnem.as_str() {
        "B" | "BL" => Some(0),
        m if m.starts_with("B.") => Some(0),
        "CBZ" | "CBNZ" | "ADR" => Some(1),
        "TBZ" | "TBNZ" => Some(2),
        _ => None,
    };
    let mnem = match mnem.as_str() {
        "ADR" => "ADDR".to_string(),
        m => m.to_string(),
    };
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    let pair = ["LDP", "STP", "LDNP", "STNP", "LDPSW", "LDXP", "LDAXP", "STXP", "STLXP"].contains(&mnem.as_str());
    while k < ops.len() {
        let o = ops[k];
        if o.starts_with('[') {
            let post = ops.get(k + 1).filter(|p| p.starts_with('#') && !o.ends_with('!')).copied();
            out.push(memory(o, post, pair)?);
            k += 1 + usize::from(post.is_some());
            continue;
        }
        // A move's explicit shift is printed even when zero, after a doubled comma.
        if k == 2 && ["MOVZ", "MOVN", "MOVK"].contains(&mnem.as_str()) {
            let mut w = o.split_whitespace();
            let op = w.next()?.to_ascii_uppercase();
            out.push(format!(",{op} #{}", imm(&w.collect::<String>())?));
            k += 1;
            continue;
        }
        let s = operand(o, label, label_at == Some(k))?;
        if !s.is_empty() {
            out.push(s);
        }
        k += 1;
    }
    aliases(mnem, out)
}

/// herd's condition inverse (lib/AArch64Base.ml's `inverse_cond`, `GE` to `GT` included).
fn inverse_cond(c: &str) -> Option<&'static str> {
    const PAIRS: [(&str, &str); 15] = [
        ("NE", "EQ"),
        ("EQ", "NE"),
        ("LE", "GT"),
        ("LT", "GE"),
        ("GE", "GT"),
        ("GT", "LE"),
        ("CS", "CC"),
        ("CC", "CS"),
        ("MI", "PL"),
        ("PL", "MI"),
        ("VS", "VC"),
        ("VC", "VS"),
        ("HI", "LS"),
        ("LS", "HI"),
        ("AL", "AL"),
    ];
    PAIRS.iter().find(|(a, _)| *a == c).map(|(_, b)| *b)
}

/// The instruction printed from its mnemonic and operands, with herd's aliases: the
/// conditional selects it parses as `CSINC`/`CSINV` and prints as `CSET`, `CSETM`, `CINC`
/// (the condition inverted once by the parser and once by the printer).
fn aliases(mnem: String, mut out: Vec<String>) -> Option<String> {
    let mut mnem = mnem;
    match mnem.as_str() {
        "CSET" | "CSETM" if out.len() == 2 => out[1] = inverse_cond(inverse_cond(&out[1])?)?.into(),
        "CINC" if out.len() == 3 => out[2] = inverse_cond(inverse_cond(&out[2])?)?.into(),
        "CSINC" | "CSINV" if out.len() == 4 && out[1] == out[2] => {
            let c = inverse_cond(&out[3])?.to_string();
            if out[1].ends_with("ZR") {
                mnem = if mnem == "CSINC" { "CSET" } else { "CSETM" }.into();
                out = vec![out[0].clone(), c];
            } else if mnem == "CSINC" {
                mnem = "CINC".into();
                out = vec![out[0].clone(), out[1].clone(), c];
            }
        }
        _ => {}
    }
    let zr = |r: &str| if r.starts_with('X') { "XZR" } else { "WZR" };
    match mnem.as_str() {
        "LDXP" | "LDAXP" if !out.is_empty() => out[0] = out[0].replacen('X', "W", 1),
        // The compat printer has no NEG: `SUB rd,ZR,…`.
        "NEG" | "NEGS" if out.len() >= 2 => {
            mnem = mnem.replace("NEG", "SUB");
            out.insert(1, zr(&out[0]).to_string());
        }
        // Aliases herd prints by their own name, written as the instruction they stand for.
        "SUBS" if out.len() >= 3 && out[0].ends_with("ZR") => {
            mnem = "CMP".into();
            out.remove(0);
        }
        "ANDS" if out.len() >= 3 && out[0].ends_with("ZR") => {
            mnem = "TST".into();
            out.remove(0);
        }
        "ORN" if out.len() >= 3 && out[1].ends_with("ZR") => {
            mnem = "MVN".into();
            out.remove(1);
        }
        // Bitfield moves print their registers as X.
        "UBFM" | "SBFM" => {
            for r in out.iter_mut().take(2) {
                *r = r.replacen('W', "X", 1);
            }
        }
        "REV64" => mnem = "REV".into(),
        // Cache maintenance without an address (`IC IALLU`) names the zero register.
        "IC" | "DC" if out.len() == 1 => out.push("XZR".into()),
        // An unscaled load of a general register: a space after the comma.
        "LDUR" if out.len() == 2 && !out[0].starts_with(['B', 'H', 'S', 'D', 'Q']) => {
            return Some(format!("LDUR {}, {}", out[0], out[1]));
        }
        _ => {}
    }
    let mut s = mnem;
    if !out.is_empty() {
        s.push(' ');
        s.push_str(&out.join(","));
    }
    Some(s)
}
