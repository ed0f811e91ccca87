//! Propositions of final conditions, `filter` and `locations`, with nom.
//!
//! herd's yacc precedence, loosest first: `\/`, `/\`, `=>` (right-associative), `~`.

use super::ast::{Loc, Prop, Val};
use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, tag_no_case, take_while, take_while1},
    character::complete::{char, digit1, multispace0},
    combinator::{map, opt, recognize},
    multi::separated_list1,
    sequence::{delimited, pair, preceded},
};

mod fast;

type Res<'a, T> = IResult<&'a str, T>;

/// How deeply a proposition may nest (parentheses, `~`, `=>`): deeper input is refused
/// rather than allowed to overflow the stack of the parser or of the passes over the tree.
pub const MAX_DEPTH: usize = 200;

thread_local! {
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `f` one nesting level deeper; fails with `TooLarge` past [`MAX_DEPTH`].
fn nested<'a, T>(i: &'a str, f: impl FnOnce(&'a str) -> Res<'a, T>) -> Res<'a, T> {
    let d = DEPTH.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    let r = if d > MAX_DEPTH {
        Err(nom::Err::Failure(nom::error::Error::new(i, nom::error::ErrorKind::TooLarge)))
    } else {
        f(i)
    };
    DEPTH.with(|c| c.set(c.get() - 1));
    r
}

fn ws<'a, O>(
    p: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>> {
    preceded(multispace0, p)
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

pub fn ident(i: &str) -> Res<'_, &str> {
    recognize(pair(
        take_while1(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$'),
        take_while(is_ident_char),
    ))
    .parse(i)
}

/// A number in decimal or hex, possibly negative. Hex values wider than i64 wrap, as herd's
/// 64-bit values do.
pub fn number(i: &str) -> Res<'_, i64> {
    let (i, neg) = opt(char('-')).parse(i)?;
    let (i, v) = alt((
        map(preceded(tag_no_case("0x"), take_while1(|c: char| c.is_ascii_hexdigit())), |h: &str| {
            u64::from_str_radix(h, 16).map(|v| v as i64).ok()
        }),
        map(digit1, |d: &str| d.parse::<i64>().ok().or_else(|| d.parse::<u64>().ok().map(|v| v as i64))),
    ))
    .parse(i)?;
    match v {
        Some(v) => Ok((i, if neg.is_some() { v.wrapping_neg() } else { v })),
        None => Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Digit))),
    }
}

/// A value: a number, a location's address (`x` or `&x`), or an instruction
/// (`instr:"add r1,r1,r1"`; herd's `NOP` reads as a name). An instruction is a symbol
/// like a name: herd copies and compares it and computes nothing on it.
pub fn value(i: &str) -> Res<'_, Val> {
    // A page-table entry (`PTE(x)`, `(oa:PA(x))`) is left to the combinators.
    let entry = i.starts_with("PTE(") || i.starts_with('(');
    match fast::value(i).filter(|_| !entry) {
        Some(r) => Ok(r),
        None => value_nom(i),
    }
}

/// [`value`] with the combinators, for what the fast path leaves.
fn value_nom(i: &str) -> Res<'_, Val> {
    let instr = recognize(pair(tag("instr:"), delimited(char('"'), take_while(|c| c != '"'), char('"'))));
    let label = preceded(tag("label:"), delimited(char('"'), take_while(|c| c != '"'), char('"')));
    alt((
        map(number, Val::Int),
        map(instr, |s: &str| Val::Sym(s.to_string())),
        map(label, |s: &str| Val::Sym(label_name(s))),
        map(pte_entry, |s: &str| Val::Sym(s.to_string())),
        map(pte_value, |s: &str| Val::Sym(s.to_string())),
        map(preceded(opt(char('&')), ident), |s: &str| Val::Sym(s.to_string())),
    ))
    .parse(i)
}

/// A page-table entry's location `PTE(x)` (herd's `-variant vmsa`), as a place or value.
fn pte_entry(i: &str) -> Res<'_, &str> {
    recognize(delimited(tag("PTE("), ws(ident), char(')'))).parse(i)
}

/// A page-table entry's value `(oa:PA(x), valid:0)`, as written: its parentheses
/// balanced, with a field inside (read by `events::PteVal::parse`).
fn pte_value(i: &str) -> Res<'_, &str> {
    let fail = || nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify));
    if !i.starts_with('(') {
        return Err(fail());
    }
    let mut depth = 0usize;
    for (k, c) in i.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let text = &i[..=k];
                    return if text.contains(':') { Ok((&i[k + 1..], text)) } else { Err(fail()) };
                }
            }
            '\n' | ';' => break,
            _ => {}
        }
    }
    Err(fail())
}

/// A code label value's name, `P0:L0`, from herd's `label:"P0:L0"` (or `label:"0:L0"`).
fn label_name(s: &str) -> String {
    let s: String = s.split_whitespace().collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) { format!("P{s}") } else { s }
}

fn thread_reg(i: &str) -> Res<'_, Loc> {
    let (i, _) = opt(char('P')).parse(i)?;
    let (i, t) = digit1.parse(i)?;
    let (i, _) = char(':').parse(i)?;
    // herd takes `0: r0` as `0:r0`.
    let (i, _) = multispace0(i)?;
    let (i, r) = ident.parse(i)?;
    let t = t.parse::<usize>().unwrap_or(usize::MAX);
    Ok((i, Loc::Reg(t, r.trim_start_matches('%').to_string())))
}

/// A place: `N:reg`, `PN:reg`, `[x]` or `x`.
pub fn loc(i: &str) -> Res<'_, Loc> {
    // A page-table entry (`PTE(x)`, `[PTE(x)]`) is left to the combinators.
    let entry = i.starts_with("PTE(") || i.starts_with("[PTE(") || i.starts_with("TTD(");
    match fast::loc(i).filter(|_| !entry) {
        Some(r) => Ok(r),
        None => loc_nom(i),
    }
}

/// [`loc`] with the combinators, for what the fast path leaves.
fn loc_nom(i: &str) -> Res<'_, Loc> {
    alt((
        thread_reg,
        map(delimited(char('['), ws(ident), ws(char(']'))), |s: &str| Loc::Mem(s.to_string())),
        map(delimited(char('['), ws(pte_entry), ws(char(']'))), |s: &str| Loc::Mem(s.to_string())),
        map(pte_entry, |s: &str| Loc::Mem(s.to_string())),
        // herd's `TTD(x)` is `PTE(x)`.
        map(delimited(tag("TTD("), ws(ident), char(')')), |s: &str| Loc::Mem(format!("PTE({s})"))),
        elem,
        map(ident, |s: &str| Loc::Mem(s.to_string())),
    ))
    .parse(i)
}

/// An array element `t[1]` (herd's `Location_deref`), named as the initial state names it.
fn elem(i: &str) -> Res<'_, Loc> {
    let (i, base) = ident(i)?;
    let (i, n) = delimited(char('['), ws(digit1), ws(char(']'))).parse(i)?;
    let n = n.parse::<usize>().unwrap_or(usize::MAX);
    // Element 0 is the array's own location, but herd prints it as written, `x[0]`.
    let name = if n == 0 { format!("{base}[0]") } else { super::ast::elem_name(base, n) };
    Ok((i, Loc::Mem(name)))
}

fn atom(i: &str) -> Res<'_, Prop> {
    let (i, _) = multispace0(i)?;
    if i.starts_with('(') {
        match nested(i, |i| delimited(char('('), prop_nom, ws(char(')'))).parse(i)) {
            Ok((r, p)) => return Ok((r, p)),
            Err(e @ nom::Err::Failure(_)) => return Err(e),
            Err(_) => {}
        }
    }
    if let Ok((r, _)) = keyword("true")(i) {
        return Ok((r, Prop::True));
    }
    if let Ok((r, _)) = keyword("false")(i) {
        return Ok((r, Prop::False));
    }
    if let Ok(r) = fault_atom(i) {
        return Ok(r);
    }
    let (i, l) = loc_nom(i)?;
    let (i, op) = ws(alt((tag("=="), tag("!="), tag("<>"), tag("=")))).parse(i)?;
    let (i, _) = multispace0(i)?;
    // `x={1,0}`: an array compared whole.
    if let (Loc::Mem(x), Some(rest)) = (&l, i.strip_prefix('{')) {
        let (r, vs) = separated_list1(ws(char(',')), ws(value)).parse(rest)?;
        let (r, _) = ws(char('}')).parse(r)?;
        let es = vs.into_iter().enumerate().map(|(k, v)| (Loc::Mem(super::ast::whole_elem(x, k)), v)).collect();
        let p = Prop::EqArray(x.clone(), es);
        return Ok((r, if op == "!=" || op == "<>" { Prop::Not(Box::new(p)) } else { p }));
    }
    // `loc = loc` only when the right side cannot be a value: `0:r1` or `[x]`.
    let (i, p) = if let Ok((r, l2)) =
        alt((thread_reg, map(delimited(char('['), ws(ident), ws(char(']'))), |s: &str| Loc::Mem(s.to_string()))))
            .parse(i)
    {
        (r, Prop::EqLoc(l, l2))
    } else {
        let (r, v) = value(i)?;
        (r, Prop::Eq(l, v))
    };
    Ok((i, if op == "!=" || op == "<>" { Prop::Not(Box::new(p)) } else { p }))
}

/// herd's fault atom: `fault(P0)`, `fault(P0:L0)`, then a location, a fault type
/// (`UndefinedInstruction`, `MMU:Translation`) or both, `fault(P0:L0,x,MMU:Permission)`;
/// `Fault` is the same word. A single name is a type where herd knows it as one.
fn fault_atom(i: &str) -> Res<'_, Prop> {
    let (i, _) = alt((tag("fault"), tag("Fault"))).parse(i)?;
    let (i, _) = ws(char('(')).parse(i)?;
    let (i, _) = ws(char('P')).parse(i)?;
    let (i, t) = digit1.parse(i)?;
    let (i, label) = opt(preceded(ws(char(':')), ws(ident))).parse(i)?;
    let (i, rest) = opt(preceded(ws(char(',')), separated_list1(ws(char(',')), ws(fault_word)))).parse(i)?;
    let (i, _) = ws(char(')')).parse(i)?;
    let thread = t.parse::<usize>().unwrap_or(usize::MAX);
    let (loc, ftype) = match rest.as_deref() {
        None => (None, None),
        Some([w]) if is_fault_type(w) => (None, Some(w.to_string())),
        Some([w]) => (Some(w.to_string()), None),
        Some([l, w]) => (Some(l.to_string()), Some(w.to_string())),
        Some(_) => return Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify))),
    };
    let place = Loc::Reg(thread, super::ast::FAULT_REG.to_string());
    let label = label.map(str::to_string);
    Ok((i, Prop::Fault(super::ast::FaultAtom { thread, place, label, loc, ftype, codes: Vec::new() })))
}

/// A name or a fault type with its parts (`MMU:Translation`), or `PTE(x)`.
fn fault_word(i: &str) -> Res<'_, &str> {
    recognize(pair(ident, opt(alt((recognize(delimited(char('('), ident, char(')'))), recognize(pair(char(':'), separated_list1(char(':'), ident))))))))
        .parse(i)
}

/// herd's AArch64 fault types (lib/faultType.ml).
fn is_fault_type(w: &str) -> bool {
    let mmu = ["Translation", "AccessFlag", "Permission", "Exclusive"];
    match w.split_once(':') {
        Some(("MMU" | "D-MMU" | "I-MMU", m)) => mmu.contains(&m),
        Some(("GCS", g)) => ["PRET", "POPM", "PRETAA", "PRETAB", "SS1", "SS2", "POPCX", "POPX"].contains(&g),
        Some(("PacCheck", k)) => ["DA", "DB", "IA", "IB"].contains(&k),
        Some(_) => false,
        None => ["TagCheck", "UndefinedInstruction", "SupervisorCall"].contains(&w),
    }
}

fn keyword(k: &'static str) -> impl Fn(&str) -> Res<'_, &str> {
    move |i: &str| {
        let (r, w) = tag(k).parse(i)?;
        if r.starts_with(is_ident_char) {
            return Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Tag)));
        }
        Ok((r, w))
    }
}

fn not_p(i: &str) -> Res<'_, Prop> {
    let (i, _) = multispace0(i)?;
    if let Ok((r, _)) = alt((tag("~"), keyword("not"))).parse(i) {
        let (r, p) = nested(r, not_p)?;
        return Ok((r, Prop::Not(Box::new(p))));
    }
    atom(i)
}

fn imp_p(i: &str) -> Res<'_, Prop> {
    let (i, a) = not_p(i)?;
    if let Ok((r, _)) = ws(tag("=>")).parse(i) {
        let (r, b) = nested(r, imp_p)?;
        return Ok((r, Prop::Implies(Box::new(a), Box::new(b))));
    }
    Ok((i, a))
}

fn and_p(i: &str) -> Res<'_, Prop> {
    let (mut i, first) = imp_p(i)?;
    let mut items = vec![first];
    while let Ok((r, _)) = ws(tag("/\\")).parse(i) {
        let (r, p) = imp_p(r)?;
        items.push(p);
        i = r;
    }
    Ok((i, if items.len() == 1 { items.pop().unwrap_or(Prop::True) } else { Prop::And(items) }))
}

/// A whole proposition.
pub fn prop(i: &str) -> Res<'_, Prop> {
    match fast::prop(i) {
        Some(r) => Ok(r),
        None => prop_nom(i),
    }
}

/// [`prop`] with the combinators, for what the fast path leaves (and every failure).
fn prop_nom(i: &str) -> Res<'_, Prop> {
    let (mut i, first) = and_p(i)?;
    let mut items = vec![first];
    while let Ok((r, _)) = ws(tag("\\/")).parse(i) {
        let (r, p) = and_p(r)?;
        items.push(p);
        i = r;
    }
    Ok((i, if items.len() == 1 { items.pop().unwrap_or(Prop::True) } else { Prop::Or(items) }))
}
