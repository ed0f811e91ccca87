//! The initial state and the observed places as herd's hash prints them.
//!
//! herd digests these parts as its state parser left them: registers and numbers as
//! written, not as litsat normalises them for the checker. So this module reads the raw
//! text of the init block and of the constraints again with the few tokens of herd's state
//! lexer that a hash can see, and refuses (`None`) any form it does not know rather than
//! guess.

/// A token of herd's state lexer, as far as the hash needs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Num(String),
    Proc(usize),
    Name(String),
    /// `%r`, a symbolic register.
    Sreg(String),
    /// `label:"P0:L0"`.
    Label(usize, String),
    /// `instr:"…"` or `NOP`.
    Instr(String),
    /// Punctuation and operators, by their text (`==` and `<>` as `=` and `!=`).
    P(&'static str),
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'.' || c == b'$'
}

fn is_name_rest(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'/' || c == b'.' || c == b'-'
}

const PUNCT: &[&str] =
    &["/\\", "\\/", "=>", "==", "!=", "<>", ",", "&", ";", ":", "+", "[", "]", "(", ")", "{", "}", "=", "~", "*"];

/// The length of the name at the start of `b` (herd's `name`: a run of letters, `_`, `.`
/// and `$`, then letters, digits, `_`, `/`, `.`, `-`).
fn name_len(b: &[u8]) -> usize {
    let mut i = b.iter().take_while(|&&c| is_name_start(c)).count();
    if i > 0 {
        i += b[i..].iter().take_while(|&&c| is_name_rest(c)).count();
    }
    i
}

fn num_len(b: &[u8]) -> usize {
    if b.len() > 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') && b[2].is_ascii_hexdigit() {
        return 2 + b[2..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
    }
    let sign = usize::from(b.first() == Some(&b'-'));
    let d = b[sign..].iter().take_while(|c| c.is_ascii_digit()).count();
    if d == 0 { 0 } else { sign + d }
}

/// `instr:"…"` or `label:"P0:L0"` at the start of `s`: the token (or `None` where it is
/// malformed) and its length.
fn quoted(s: &str) -> Option<(Option<Tok>, usize)> {
    let (pre, label) = [("instr:\"", false), ("label:\"", true)].into_iter().find(|(p, _)| s.starts_with(p))?;
    let body = &s[pre.len()..];
    let Some(end) = body.find('"') else { return Some((None, s.len())) };
    let text = &body[..end];
    let tok = if label {
        text.split_once(':').and_then(|(p, l)| {
            Some(Tok::Label(p.strip_prefix('P').unwrap_or(p).parse().ok()?, l.to_string()))
        })
    } else {
        Some(Tok::Instr(text.to_string()))
    };
    Some((tok, pre.len() + end + 1))
}

/// Splits state text (comments already blanked) into tokens; `None` on a character the
/// lexer would refuse.
pub fn lex(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let r = &b[i..];
        let c = r[0];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some((tok, used)) = quoted(&s[i..]) {
            out.push(tok?);
            i += used;
            continue;
        }
        let n = num_len(r);
        if n > 0 {
            out.push(Tok::Num(s[i..i + n].to_string()));
            i += n;
            continue;
        }
        if c == b'P' {
            let d = r[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if d > 0 && name_len(r) <= d + 1 {
                out.push(Tok::Proc(s[i + 1..i + 1 + d].parse().ok()?));
                i += 1 + d;
                continue;
            }
        }
        if c == b'%' {
            let n = name_len(&r[1..]);
            if n == 0 {
                return None;
            }
            out.push(Tok::Sreg(s[i + 1..i + 1 + n].to_string()));
            i += 1 + n;
            continue;
        }
        let n = name_len(r);
        if n > 0 {
            let w = &s[i..i + n];
            out.push(if w == "NOP" || w == "nop" { Tok::Instr(String::new()) } else { Tok::Name(w.to_string()) });
            i += n;
            continue;
        }
        let p = PUNCT.iter().find(|p| r.starts_with(p.as_bytes()))?;
        out.push(Tok::P(match *p {
            "==" => "=",
            "<>" => "!=",
            p => p,
        }));
        i += p.len();
    }
    Some(out)
}

/// A location as herd's hash sorts and prints it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HLoc {
    Reg(usize, String),
    Sreg(String),
    /// A symbol's name (data symbols: herd orders labels before them, and no state of a
    /// supported test names a label as a place) and offset.
    Global(String, i64),
}

impl HLoc {
    pub fn print(&self) -> String {
        match self {
            HLoc::Reg(p, r) => format!("{p}:{r}"),
            HLoc::Sreg(s) => s.clone(),
            HLoc::Global(x, o) => symbol(x, *o),
        }
    }
}

/// A symbol plus an offset, as herd prints it (`x`, `x+1`, `x-1`).
fn symbol(x: &str, o: i64) -> String {
    match o {
        0 => x.to_string(),
        o if o > 0 => format!("{x}+{o}"),
        o => format!("{x}-{}", o.unsigned_abs()),
    }
}

/// A location at the start of `t`: `(location, tokens used)`.
fn location(t: &[Tok]) -> Option<(HLoc, usize)> {
    match t {
        [Tok::Proc(_) | Tok::Num(_), Tok::P(":"), Tok::Name(r) | Tok::Sreg(r), ..] => {
            let p = match &t[0] {
                Tok::Proc(p) => *p,
                Tok::Num(n) => n.parse().ok()?,
                _ => return None,
            };
            Some((HLoc::Reg(p, r.clone()), 3))
        }
        [Tok::Sreg(s), ..] => Some((HLoc::Sreg(s.clone()), 1)),
        // `x:red`, a tagged location: not read here.
        [Tok::Name(_), Tok::P(":"), ..] => None,
        [Tok::Name(x), ..] => Some((HLoc::Global(x.clone(), 0), 1)),
        _ => None,
    }
}

/// A location, possibly in brackets (`[x]`).
fn left_loc(t: &[Tok]) -> Option<(HLoc, usize)> {
    if let [Tok::P("["), rest @ ..] = t {
        let (l, n) = location(rest)?;
        if !matches!(l, HLoc::Global(..)) || rest.get(n) != Some(&Tok::P("]")) {
            return None;
        }
        return Some((l, n + 2));
    }
    location(t)
}

/// A value (herd's `maybev`, with `&x` and labels): its printed form and tokens used.
fn value(t: &[Tok]) -> Option<(String, usize)> {
    Some(match t {
        [Tok::Num(a), Tok::P(":"), Tok::Num(b), ..] => (format!("{a}:{b}"), 3),
        [Tok::Num(a), Tok::P(":"), Tok::Name(l), ..] => (format!("{}:{l}", a.parse::<usize>().ok()?), 3),
        [Tok::Proc(p), Tok::P(":"), Tok::Name(l), ..] => (format!("{p}:{l}"), 3),
        [Tok::Num(a), ..] => (a.clone(), 1),
        [Tok::Label(p, l), ..] => (format!("{p}:{l}"), 1),
        [Tok::Instr(i), ..] if i.is_empty() => ("NOP".into(), 1),
        [Tok::Instr(i), ..] => (format!("instr:\"{i}\""), 1),
        [Tok::P("&"), Tok::Name(x), Tok::P("["), Tok::Num(k), Tok::P("]"), ..] => (symbol(x, k.parse().ok()?), 5),
        [Tok::P("&"), Tok::Name(x), ..] => (x.clone(), 2),
        [Tok::Name(x), Tok::P("["), Tok::Num(k), Tok::P("]"), ..] => (symbol(x, k.parse().ok()?), 4),
        [Tok::Name(_), Tok::P(":"), ..] => return None,
        [Tok::Name(x), Tok::P("("), ..] if x == "PTE" || x == "PA" || x == "TTD" => return None,
        [Tok::Name(x), ..] => (x.clone(), 1),
        [Tok::P(":"), Tok::Name(t), ..] => (format!(":{t}"), 2),
        _ => return None,
    })
}

/// One binding of the initial state, printed as the hash prints it, with its location.
fn init_item(t: &[Tok]) -> Option<(HLoc, String)> {
    let eq = t.iter().position(|k| *k == Tok::P("="));
    let (lhs, rhs) = match eq {
        Some(e) => (&t[..e], Some(&t[e + 1..])),
        None => (t, None),
    };
    let val = |rhs: Option<&[Tok]>| -> Option<String> {
        match rhs {
            None => Some("0".into()),
            Some(r) => {
                let (v, n) = value(r)?;
                (n == r.len()).then_some(v)
            }
        }
    };
    // `loc[=v]`
    if let Some((l, n)) = left_loc(lhs)
        && n == lhs.len()
    {
        let star = matches!(rhs, Some([Tok::P("&"), ..])) && matches!(l, HLoc::Reg(..));
        let v = val(rhs)?;
        // An instruction value is typed `ins_t` (herd's init rule for `instr:` and `NOP`).
        let ty = if matches!(rhs, Some([Tok::Instr(_)])) { "ins_t " } else { "" };
        let s = format!("{ty}{}{}={v}", if star { "*" } else { "" }, l.print());
        return Some((l, s));
    }
    match lhs {
        [Tok::P("*"), rest @ ..] => {
            let (l, n) = left_loc(rest)?;
            (n == rest.len()).then_some(())?;
            let v = val(rhs)?;
            Some((l.clone(), format!("*{}={v}", l.print())))
        }
        [Tok::Name(ty), Tok::P("*"), rest @ ..] => {
            let (l, n) = left_loc(rest)?;
            (n == rest.len()).then_some(())?;
            let v = val(rhs)?;
            Some((l.clone(), format!("{ty} *{}={v}", l.print())))
        }
        [Tok::Name(ty), Tok::Name(x), Tok::P("["), Tok::Num(sz), Tok::P("]")] => {
            let sz: usize = sz.parse().ok()?;
            if let Some(r) = rhs {
                let [Tok::P("{"), .., Tok::P("}")] = r else { return None };
            }
            let l = HLoc::Global(x.clone(), 0);
            Some((l, format!("{ty} {x}[{sz}]")))
        }
        [Tok::Name(a), Tok::Name(ty), rest @ ..] if a == "_Atomic" => {
            let (l, n) = left_loc(rest)?;
            (n == rest.len()).then_some(())?;
            let v = val(rhs)?;
            Some((l.clone(), format!("_Atomic {ty} {}={v}", l.print())))
        }
        [Tok::Name(ty), rest @ ..] => {
            let (l, n) = left_loc(rest)?;
            (n == rest.len()).then_some(())?;
            let v = match rhs {
                Some([Tok::P("{"), ..]) => return None,
                Some([Tok::Name(a), Tok::P("("), v @ .., Tok::P(")")]) if a == "ATOMIC_INIT" => val(Some(v))?,
                r => val(r)?,
            };
            let ty = if matches!(rhs, Some([Tok::Instr(_)])) { "ins_t" } else { ty };
            Some((l.clone(), format!("{ty} {}={v}", l.print())))
        }
        _ => None,
    }
}

/// The init block's bindings as the hash prints them: sorted by location, joined by `; `.
pub fn init(text: &str) -> Option<String> {
    let toks = lex(text)?;
    let mut items = Vec::new();
    for item in toks.split(|t| *t == Tok::P(";")) {
        if item.is_empty() {
            continue;
        }
        items.push(init_item(item)?);
    }
    // A value with `instr:` typed `ins_t` even with no type written.
    items.sort_by(|a, b| a.0.cmp(&b.0));
    items.dedup_by(|a, b| a.0 == b.0);
    Some(items.into_iter().map(|(_, s)| s).collect::<Vec<_>>().join("; "))
}

/// An observed place: a location, or an array's element (`x[1]`, herd's `Deref`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RLoc {
    Loc(HLoc),
    Deref(HLoc, i64),
}

/// An observed place at the start of `t` (herd's `rloc`).
fn rloc(t: &[Tok]) -> Option<(RLoc, usize)> {
    if let [Tok::Name(x), Tok::P("["), Tok::Num(k), Tok::P("]"), ..] = t {
        return Some((RLoc::Deref(HLoc::Global(x.clone(), 0), k.parse().ok()?), 4));
    }
    let (l, n) = left_loc(t)?;
    Some((RLoc::Loc(l), n))
}

const COND_START: &[&str] = &["exists", "forall", "final", "observed", "Observed"];

/// The observed places (the `locations` list and the condition's places), sorted, as the
/// hash prints them.
pub fn observed(post: &str) -> Option<String> {
    let toks = lex(post)?;
    let mut set: Vec<RLoc> = Vec::new();
    let mut i = 0;
    // `locations [ … ]`
    if let Some(Tok::Name(w)) = toks.first()
        && w == "locations"
    {
        // The `]` that closes the list (its items may be elements `v[0]`).
        let mut depth = 0usize;
        let end = toks.iter().position(|t| {
            match t {
                Tok::P("[") => depth += 1,
                Tok::P("]") => depth -= 1,
                _ => {}
            }
            depth == 0 && *t == Tok::P("]")
        })?;
        for item in toks.get(2..end)?.split(|t| *t == Tok::P(";")) {
            if item.is_empty() {
                continue;
            }
            if matches!(&item[0], Tok::Name(f) if f == "fault" || f == "Fault") {
                continue;
            }
            let (r, _) = rloc(item)?;
            set.push(r);
        }
        i = end + 1;
    }
    // Skip a filter: the condition starts at its quantifier.
    if matches!(toks.get(i), Some(Tok::Name(w)) if w == "filter") {
        i += toks[i..].iter().position(|t| matches!(t, Tok::Name(w) if COND_START.contains(&w.as_str())))?;
    }
    let cond = &toks[i..];
    // `final … with kind: …;`: the kinds name no place.
    let cond = match cond.iter().position(|t| matches!(t, Tok::Name(w) if w == "with")) {
        Some(w) => &cond[..w],
        None => cond,
    };
    if cond.iter().any(|t| matches!(t, Tok::Name(w) if w == "observed" || w == "Observed")) {
        return None;
    }
    cond_locs(cond, &mut set)?;
    set.sort();
    set.dedup();
    let pr = |r: &RLoc| match r {
        RLoc::Loc(l) => l.print(),
        RLoc::Deref(l, k) => format!("{}[{k}]", l.print()),
    };
    Some(set.iter().map(pr).collect::<Vec<_>>().join("; "))
}

/// The places of the condition's atoms: the left of each `=` or `!=`, and its right where
/// it is a place rather than a value (herd's `LL`).
fn cond_locs(cond: &[Tok], set: &mut Vec<RLoc>) -> Option<()> {
    let mut k = 0;
    while k < cond.len() {
        match &cond[k] {
            Tok::Name(f) if (f == "fault" || f == "Fault") => {
                // `fault(P0:L0,x)`: the location x is observed; fault types are not.
                let close = k + cond[k..].iter().position(|t| *t == Tok::P(")"))?;
                let args = cond.get(k + 2..close)?;
                let parts: Vec<&[Tok]> = args.split(|t| *t == Tok::P(",")).collect();
                if let Some([Tok::Name(x)]) = parts.get(1)
                    && !is_fault_type(x)
                {
                    set.push(RLoc::Loc(HLoc::Global(x.clone(), 0)));
                }
                k = close + 1;
            }
            Tok::P("=") | Tok::P("!=") => {
                let (l, _) = lhs_before(&cond[..k])?;
                set.push(l);
                let r = &cond[k + 1..];
                match r {
                    [Tok::Proc(_) | Tok::Num(_), Tok::P(":"), Tok::Name(_) | Tok::Sreg(_), ..] | [Tok::Sreg(_), ..] => {
                        set.push(RLoc::Loc(location(r)?.0));
                    }
                    [Tok::P("["), ..] => set.push(RLoc::Loc(left_loc(r)?.0)),
                    [Tok::P("*"), rest @ ..] => set.push(RLoc::Loc(left_loc(rest)?.0)),
                    _ => {}
                }
                k += 1;
            }
            _ => k += 1,
        }
    }
    Some(())
}

/// The place that ends at the end of `t`, the left of an atom.
fn lhs_before(t: &[Tok]) -> Option<(RLoc, usize)> {
    for n in [4, 3, 1] {
        if t.len() >= n
            && let Some((r, m)) = rloc(&t[t.len() - n..])
            && m == n
        {
            // `0:X0` ends with a name that is also a location on its own: prefer the longer.
            return Some((r, n));
        }
    }
    None
}

/// herd's fault types (lib/faultType.ml), which a `fault(…)` atom names rather than a
/// location.
fn is_fault_type(x: &str) -> bool {
    x.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}
