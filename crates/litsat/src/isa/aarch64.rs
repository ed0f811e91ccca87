//! AArch64 at user level, as in herd's `AArch64` tests (without `-variant mixed`).
//!
//! Events carry herd's annotation sets: `A` (acquire: `LDAR`, `LDAXR`, `SWPA`, …), `Q`
//! (acquire-PC: `LDAPR`), `L` (release: `STLR`, `STLXR`, `SWPL`, …), `X` (both accesses of an
//! atomic read-modify-write: `SWP`, `LDADD`, `CAS`, …), `NoRet` (the read of an atomic whose
//! result goes to the zero register: `STADD`, `LDADD Ws,WZR,[Xn]`), and `EX` (exclusives:
//! `LDXR`, `STXR`). Barriers are `DMB.<option>`, `DSB.<option>` and `ISB` events.

use super::*;

pub struct AArch64;

/// The registers `CMP` leaves its operands in; conditions compare them.
const FLAG_A: &str = "%fa";
const FLAG_B: &str = "%fb";
/// The zero register, under the one name both `XZR` and `WZR` canonicalise to.
const ZR: &str = "XZR";

const BARRIER_OPTIONS: &[&str] =
    &["SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "OSH", "OSHST", "OSHLD", "NSH", "NSHST", "NSHLD"];

/// herd prints AArch64 registers in their X form: `W3` and `X3` are one register.
fn reg(s: &str) -> Option<Reg> {
    let u = s.trim().to_ascii_uppercase();
    if u == "XZR" || u == "WZR" {
        return Some(ZR.into());
    }
    let n = u.strip_prefix('X').or_else(|| u.strip_prefix('W'))?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = n.parse().ok()?;
    (n <= 30).then(|| format!("X{n}"))
}

fn r(s: &str) -> Result<Reg, InstrError> {
    reg(s).ok_or_else(|| InstrError::new(format!("expected a register, found '{}'", s.trim())))
}

fn imm(s: &str) -> Result<i64, InstrError> {
    let t = s.trim();
    t.strip_prefix('#')
        .and_then(parse_imm)
        .ok_or_else(|| InstrError::new(format!("expected an immediate `#n`, found '{t}'")))
}

/// A register or an immediate operand.
fn src(s: &str) -> Result<Src, InstrError> {
    if s.trim().starts_with('#') { imm(s).map(Src::Imm) } else { r(s).map(Src::Reg) }
}

fn tmp(name: &str) -> Src {
    Src::Reg(name.into())
}

/// Applies a shift or extension (`LSL #2`, `SXTW`, `UXTW #3`) to `v`, through the temporary
/// `t` when it changes anything. Extensions are the identity on the values litmus tests use.
fn shifted(pre: &mut Vec<Op>, v: Src, modifier: Option<&str>, t: &str) -> Result<Src, InstrError> {
    let Some(m) = modifier else { return Ok(v) };
    let m = m.trim();
    let (kind, amount) = match m.find(char::is_whitespace) {
        Some(k) => (m[..k].to_ascii_uppercase(), Some(imm(&m[k..])?)),
        None => (m.to_ascii_uppercase(), None),
    };
    let op = match kind.as_str() {
        "LSL" => BinOp::Shl,
        "LSR" => BinOp::Shr,
        "SXTW" | "UXTW" | "SXTX" | "UXTX" => BinOp::Shl,
        _ => return Err(InstrError::new(format!("unsupported operand modifier '{m}'"))),
    };
    if matches!(kind.as_str(), "LSL" | "LSR") && amount.is_none() {
        return Err(InstrError::new(format!("expected a shift amount in '{m}'")));
    }
    match amount {
        None | Some(0) => Ok(v),
        Some(k) => {
            pre.push(Op::Bin { dst: t.into(), op, a: v, b: Src::Imm(k) });
            Ok(tmp(t))
        }
    }
}

/// A memory operand, the last of `ops`: `[Xn]`, `[Xn,#k]`, `[Xn,Xm]`, `[Xn,Wm,SXTW]`,
/// `[Xn,Xm,LSL #k]`. A register offset is added into the temporary `%a` (so the
/// interpreter sees the dependency of the `EOR W2,W0,W0` idiom). An immediate offset is
/// the address's; only an array's element can be reached so. Writeback forms are
/// [`mem_wb`]'s: here they are refused.
fn mem(pre: &mut Vec<Op>, ops: &[String], text: &str) -> Result<Addr, InstrError> {
    match mem_wb(pre, ops, text)? {
        (a, None) => Ok(a),
        (_, Some(_)) => Err(InstrError::new(format!("unsupported: writeback addressing in '{}'", text.trim()))),
    }
}

/// A base register's update after the access (pre- or post-indexed addressing), and how
/// many operands the memory operand took (a post-index's offset is one more).
struct Writeback {
    base: Reg,
    by: i64,
    operands: usize,
}

/// [`mem`], with the writeback forms: pre-indexed `[Xn,#k]!` accesses `Xn+k`, post-indexed
/// `[Xn],#k` accesses `Xn`; either then sets `Xn` to `Xn+k`.
fn mem_wb(pre: &mut Vec<Op>, ops: &[String], text: &str) -> Result<(Addr, Option<Writeback>), InstrError> {
    let Some(last) = ops.last() else {
        return Err(InstrError::new(format!("expected a memory operand in '{}'", text.trim())));
    };
    let s = last.trim();
    if s.starts_with('#') && ops.len() >= 2 && ops[ops.len() - 2].trim().starts_with('[') {
        let by = imm(s)?;
        return match mem_wb(pre, &ops[..ops.len() - 1], text)? {
            (Addr::Reg(base, 0), None) => Ok((Addr::Reg(base.clone(), 0), Some(Writeback { base, by, operands: 2 }))),
            _ => Err(InstrError::new(format!("unsupported: post-indexed addressing in '{}'", text.trim()))),
        };
    }
    if let Some(inner) = s.strip_suffix('!') {
        return match mem_wb(pre, &[inner.to_string()], text)? {
            (Addr::Reg(base, by), None) if !base.starts_with('%') => {
                Ok((Addr::Reg(base.clone(), by), Some(Writeback { base, by, operands: 1 })))
            }
            _ => Err(InstrError::new(format!("unsupported: pre-indexed addressing '{s}'"))),
        };
    }
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        return Err(InstrError::new(format!("expected a memory operand `[Xn…]`, found '{s}'")));
    };
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let base = r(parts[0])?;
    match parts.as_slice() {
        [_] => Ok((Addr::Reg(base, 0), None)),
        [_, o] if o.starts_with('#') => Ok((Addr::Reg(base, imm(o)?), None)),
        [_, o, rest @ ..] if rest.len() <= 1 => {
            let off = shifted(pre, Src::Reg(r(o)?), rest.first().copied(), "%o")?;
            pre.push(Op::Bin { dst: "%a".into(), op: BinOp::Add, a: Src::Reg(base), b: off });
            Ok((Addr::Reg("%a".into(), 0), None))
        }
        _ => Err(InstrError::new(format!("unsupported memory operand '{s}'"))),
    }
}

/// The ops of a base register's writeback (`None`: none). A store's writeback waits for
/// its data register too (herd's STR semantics; not its pairs'), `data`.
fn writeback(wb: Option<Writeback>, data: Option<&Reg>) -> Vec<Op> {
    let Some(Writeback { base, by, .. }) = wb else { return Vec::new() };
    let mut ops = vec![Op::Bin { dst: base.clone(), op: BinOp::Add, a: Src::Reg(base.clone()), b: Src::Imm(by) }];
    if let Some(d) = data {
        ops.push(Op::Also { dst: base, src: d.clone() });
    }
    ops
}

/// How wide an access through register `rt` is: 4 bytes for a `W` register, else 8.
fn width_of(rt: &str) -> usize {
    if rt.trim().starts_with(['W', 'w']) { 4 } else { 8 }
}

fn mixed(text: &str) -> InstrError {
    InstrError::new(format!("unsupported: mixed-size access '{}' (byte, halfword or pair)", text.trim()))
}

/// The condition `cc` over the flags `CMP` left; `None` for "always". Some need a
/// computation first, pushed to `pre`.
fn flag_cond(pre: &mut Vec<Op>, cc: &str) -> Result<Option<Cond>, InstrError> {
    let (fa, fb) = (tmp(FLAG_A), tmp(FLAG_B));
    let c = |op, a, b| Ok(Some(Cond { op, a, b }));
    match cc.trim().to_ascii_uppercase().as_str() {
        "EQ" => c(BinOp::Eq, fa, fb),
        "NE" => c(BinOp::Ne, fa, fb),
        "GT" => c(BinOp::Gt, fa, fb),
        "GE" => c(BinOp::Ge, fa, fb),
        "LT" => c(BinOp::Lt, fa, fb),
        "LE" => c(BinOp::Le, fa, fb),
        "HI" => c(BinOp::Ltu, fb, fa),
        "LS" => c(BinOp::Geu, fb, fa),
        "HS" | "CS" => c(BinOp::Geu, fa, fb),
        "LO" | "CC" => c(BinOp::Ltu, fa, fb),
        k @ ("MI" | "PL") => {
            pre.push(Op::Bin { dst: "%fd".into(), op: BinOp::Sub, a: fa, b: fb });
            c(if k == "MI" { BinOp::Lt } else { BinOp::Ge }, tmp("%fd"), Src::Imm(0))
        }
        "AL" | "NV" => Ok(None),
        k => Err(InstrError::new(format!("unsupported condition code '{k}'"))),
    }
}

fn branch(mut pre: Vec<Op>, cond: Option<Cond>, target: &str) -> Vec<Op> {
    pre.push(Op::Branch { cond, target: target.trim().to_string() });
    pre
}

/// Splits an atomic's suffix into acquire and release; `None` for a suffix that is not an
/// ordering, `Some(Err)` for byte and halfword forms.
fn ordering(suffix: &str, text: &str) -> Option<Result<(bool, bool), InstrError>> {
    if suffix.ends_with('B') || suffix.ends_with('H') {
        let o = &suffix[..suffix.len() - 1];
        return matches!(o, "" | "A" | "L" | "AL").then(|| Err(mixed(text)));
    }
    match suffix {
        "" => Some(Ok((false, false))),
        "A" => Some(Ok((true, false))),
        "L" => Some(Ok((false, true))),
        "AL" => Some(Ok((true, true))),
        _ => None,
    }
}

/// The read and write of one atomic instruction, as herd tags them: both `X`, the read `A`
/// when acquiring (or `NoRet` when the result is discarded), the write `L` when releasing.
fn amo_tags(acq: bool, rel: bool, noret: bool) -> (Vec<Tag>, Vec<Tag>) {
    let mut rt = Vec::new();
    if noret {
        rt.push("NoRet".into());
    } else if acq {
        rt.push("A".into());
    }
    rt.push("X".into());
    let mut wt = Vec::new();
    if rel {
        wt.push("L".into());
    }
    wt.push("X".into());
    (rt, wt)
}

/// `LD<op>`/`ST<op>`: `[a] = old op rs`, `rt = old`.
fn ldop(op: &str, rs: Src, rt: Option<Reg>, addr: Addr, pre: Vec<Op>, acq: bool, rel: bool) -> Vec<Op> {
    let noret = rt.as_deref().is_none_or(|r| r == ZR);
    let (rtags, wtags) = amo_tags(acq, rel, noret);
    let old = || tmp("%old");
    let mut ops = pre;
    ops.push(Op::Load { dst: "%old".into(), addr: addr.clone(), tags: rtags });
    let new = "%new".to_string();
    let select =
        |op| Op::Select { dst: new.clone(), cond: Cond { op, a: old(), b: rs.clone() }, a: old(), b: rs.clone() };
    match op {
        "ADD" => ops.push(Op::Bin { dst: new.clone(), op: BinOp::Add, a: old(), b: rs.clone() }),
        "EOR" => ops.push(Op::Bin { dst: new.clone(), op: BinOp::Xor, a: old(), b: rs.clone() }),
        "SET" => ops.push(Op::Bin { dst: new.clone(), op: BinOp::Or, a: old(), b: rs.clone() }),
        "CLR" => {
            ops.push(Op::Bin { dst: "%m".into(), op: BinOp::Xor, a: rs.clone(), b: Src::Imm(-1) });
            ops.push(Op::Bin { dst: new.clone(), op: BinOp::And, a: old(), b: tmp("%m") });
        }
        "SMAX" => ops.push(select(BinOp::Gt)),
        "SMIN" => ops.push(select(BinOp::Lt)),
        "UMAX" => ops.push(select(BinOp::Geu)),
        "UMIN" => ops.push(select(BinOp::Ltu)),
        _ => unreachable!("checked by the caller"),
    }
    ops.push(Op::Store { addr, src: tmp(&new), tags: wtags, when: None });
    if let Some(rt) = rt {
        ops.push(Op::Mov { dst: rt, src: old() });
    }
    ops
}

const LDOPS: &[&str] = &["ADD", "EOR", "SET", "CLR", "SMAX", "SMIN", "UMAX", "UMIN"];

/// Atomic read-modify-writes: `SWP`, `CAS`, `LD<op>`, `ST<op>` with their ordering suffixes.
fn atomic(m: &str, ops: &[String], text: &str) -> Option<Result<Vec<Op>, InstrError>> {
    let bad = || InstrError::unsupported(text);
    if let Some(sfx) = m.strip_prefix("SWP") {
        let (acq, rel) = match ordering(sfx, text)? {
            Ok(o) => o,
            Err(e) => return Some(Err(e)),
        };
        return Some((|| {
            let [rs, rt, _] = ops else { return Err(bad()) };
            let mut pre = Vec::new();
            let addr = mem(&mut pre, ops, text)?;
            // A swap into the zero register returns nothing: its read is `NoRet`.
            let rt = r(rt)?;
            let (rtags, wtags) = amo_tags(acq, rel, rt == ZR);
            pre.push(Op::Load { dst: "%old".into(), addr: addr.clone(), tags: rtags });
            pre.push(Op::Store { addr, src: Src::Reg(r(rs)?), tags: wtags, when: None });
            pre.push(Op::Mov { dst: rt, src: tmp("%old") });
            Ok(pre)
        })());
    }
    if let Some(sfx) = m.strip_prefix("CAS") {
        if sfx.starts_with('P') {
            return Some(Err(mixed(text)));
        }
        let (acq, rel) = match ordering(sfx, text)? {
            Ok(o) => o,
            Err(e) => return Some(Err(e)),
        };
        return Some((|| {
            let [rs, rt, _] = ops else { return Err(bad()) };
            let mut pre = Vec::new();
            let addr = mem(&mut pre, ops, text)?;
            let rs = r(rs)?;
            let (read_tags, write_tags) = amo_tags(acq, rel, rs == ZR);
            // Failing without a write, the read is no atomic's: `X` goes.
            let fail_read_tags = read_tags.iter().filter(|t| *t != "X").cloned().collect();
            pre.push(Op::Cas { expected: rs, new: Src::Reg(r(rt)?), addr, read_tags, write_tags, fail_read_tags });
            Ok(pre)
        })());
    }
    for (prefix, returns) in [("LD", true), ("ST", false)] {
        let Some(rest) = m.strip_prefix(prefix) else { continue };
        let Some(op) = LDOPS.iter().copied().find(|o| rest.starts_with(o)) else { continue };
        let (acq, rel) = match ordering(&rest[op.len()..], text)? {
            Ok(o) => o,
            Err(e) => return Some(Err(e)),
        };
        if !returns && acq {
            return None;
        }
        return Some((|| {
            let (rs, rt) = match (returns, ops) {
                (true, [rs, rt, _]) => (rs, Some(r(rt)?)),
                (false, [rs, _]) => (rs, None),
                _ => return Err(bad()),
            };
            let mut pre = Vec::new();
            let addr = mem(&mut pre, ops, text)?;
            Ok(ldop(op, Src::Reg(r(rs)?), rt, addr, pre, acq, rel))
        })());
    }
    None
}

impl Isa for AArch64 {
    fn default_model(&self) -> Option<&'static str> {
        Some("aarch64")
    }
    /// Arm's current model in herd's library; the bundled `aarch64` is the 2018 one.
    fn herd_model(&self) -> Option<&'static str> {
        Some("aarch64.cat")
    }
    fn name(&self) -> &'static str {
        "AArch64"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r)
    }

    fn register_events(&self) -> bool {
        true
    }

    /// The general-purpose registers by their X names; the flags `CMP` leaves (two
    /// temporaries here) are the one register `NZCV` (herd's four PSTATE flags, which
    /// every flag-setting instruction writes together); other temporaries make no event.
    fn event_reg<'r>(&self, r: &'r str) -> Option<&'r str> {
        match r {
            FLAG_A | FLAG_B => Some("NZCV"),
            ZR => None,
            _ if r.starts_with('%') => None,
            _ => Some(r),
        }
    }

    fn reg_index(&self, r: &str) -> usize {
        if r == ZR {
            return 31;
        }
        r.strip_prefix('X').and_then(|n| n.parse().ok()).unwrap_or(usize::MAX)
    }

    fn zero_reg(&self) -> Option<&'static str> {
        Some(ZR)
    }

    fn known_sets(&self) -> &'static [&'static str] {
        &[
            "DMB.SY",
            "DMB.ST",
            "DMB.LD",
            "DMB.ISH",
            "DMB.ISHST",
            "DMB.ISHLD",
            "DMB.OSH",
            "DMB.OSHST",
            "DMB.OSHLD",
            "DMB.NSH",
            "DMB.NSHST",
            "DMB.NSHLD",
            "DSB.SY",
            "DSB.ST",
            "DSB.LD",
            "DSB.ISH",
            "DSB.ISHST",
            "DSB.ISHLD",
            "DSB.OSH",
            "DSB.OSHST",
            "DSB.OSHLD",
            "DSB.NSH",
            "DSB.NSHST",
            "DSB.NSHLD",
            "ISB",
            "A",
            "L",
            "Q",
            "X",
            "EX",
            "NoRet",
            // Empty in the plain case (no vmsa, memtag or ifetch): cache and TLB
            // maintenance, tags, non-temporal pairs, guarded control stacks.
            "DC.CVAU",
            "DC.CIVAC",
            "IC.IVAU",
            "IC.IALLU",
            "IC.IALLUIS",
            "TLBIIS",
            "TLBInXS",
            "GCSB.DSYNC",
            "T",
            "NT",
            "EXC-ENTRY",
            "EXC-RET",
            "SVC",
            "UndefinedInstruction",
            "FAULT",
            "FAULT-RD",
            "FAULT-WR",
            "MMU",
            "Translation",
            "AccessFlag",
            "Permission",
            "TagCheck",
            "Exclusive",
            "PacCheck",
            "GCSCheck",
            "TLBI",
        ]
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        let (m, ops) = split_grouped(text);
        let bad = || InstrError::unsupported(text);
        let o: Vec<&str> = ops.iter().map(String::as_str).collect();
        // The operands before the memory operand, and the access's ops around them.
        // Only `LDR` and `STR` have writeback forms.
        let wb_ok = m == "LDR" || m == "STR";
        let access = |pre: &mut Vec<Op>| -> Result<(Addr, Option<Writeback>, usize), InstrError> {
            let (addr, wb) = if wb_ok { mem_wb(pre, &ops, text)? } else { (mem(pre, &ops, text)?, None) };
            let n = o.len().saturating_sub(wb.as_ref().map_or(1, |w| w.operands));
            Ok((addr, wb, n))
        };
        let load = |tags: &[&'static str]| -> Result<Vec<Op>, InstrError> {
            let mut pre = Vec::new();
            let (addr, wb, n) = access(&mut pre)?;
            let [rt] = &o[..n] else { return Err(bad()) };
            pre.push(Op::Width(width_of(rt)));
            pre.push(Op::Load { dst: r(rt)?, addr, tags: tags.iter().map(|&t| Tag::from(t)).collect() });
            pre.extend(writeback(wb, None));
            Ok(pre)
        };
        let store = |tags: &[&'static str]| -> Result<Vec<Op>, InstrError> {
            let mut pre = Vec::new();
            let (addr, wb, n) = access(&mut pre)?;
            let [rt] = &o[..n] else { return Err(bad()) };
            let tags = tags.iter().map(|&t| Tag::from(t)).collect();
            pre.push(Op::Width(width_of(rt)));
            let rt = r(rt)?;
            pre.push(Op::Store { addr, src: Src::Reg(rt.clone()), tags, when: None });
            pre.extend(writeback(wb, Some(&rt)));
            Ok(pre)
        };
        // `LDIAPP`/`STILP`: two accesses at consecutive addresses, the first ordered
        // before the second (herd's iico_order).
        let pair = |load: bool, tag: &'static str| -> Result<Vec<Op>, InstrError> {
            let mut pre = Vec::new();
            let addr = mem(&mut pre, &ops, text)?;
            let ([r1, r2, _], Addr::Reg(base, 0)) = (o.as_slice(), &addr) else { return Err(bad()) };
            let w = width_of(r1);
            pre.push(Op::Width(w));
            let at = |k: usize| Addr::Reg(base.clone(), (k * w) as i64);
            let tags = || vec![Tag::from(tag)];
            for (k, rt) in [r1, r2].into_iter().enumerate() {
                if k == 1 {
                    pre.push(Op::Ordered);
                }
                let rt = r(rt)?;
                pre.push(if load {
                    Op::Load { dst: rt, addr: at(k), tags: tags() }
                } else {
                    Op::Store { addr: at(k), src: Src::Reg(rt), tags: tags(), when: None }
                });
            }
            Ok(pre)
        };
        let store_cond = |tags: &[&'static str]| -> Result<Vec<Op>, InstrError> {
            let mut pre = Vec::new();
            let addr = mem(&mut pre, &ops, text)?;
            let [rs, rt, _] = o.as_slice() else { return Err(bad()) };
            let tags = tags.iter().map(|&t| Tag::from(t)).collect();
            pre.push(Op::Width(width_of(rt)));
            pre.push(Op::StoreCond { addr, src: Src::Reg(r(rt)?), tags, status: Some(r(rs)?), ok: 0, fail: 1 });
            Ok(pre)
        };
        // `OP Rd, Rn, op2{, shift}`.
        let bin = |op: BinOp| -> Result<Vec<Op>, InstrError> {
            let (d, a, b, sh) = match o.as_slice() {
                [d, a, b] => (d, a, b, None),
                [d, a, b, sh] => (d, a, b, Some(*sh)),
                _ => return Err(bad()),
            };
            let mut pre = Vec::new();
            let b = shifted(&mut pre, src(b)?, sh, "%o")?;
            pre.push(Op::Bin { dst: r(d)?, op, a: src(a)?, b });
            Ok(pre)
        };
        // `OP Rd, Rn, op2` with op2 inverted first (`BIC`, `ORN`, `EON`).
        let bin_not = |op: BinOp| -> Result<Vec<Op>, InstrError> {
            let [d, a, b] = o.as_slice() else { return Err(bad()) };
            Ok(vec![
                Op::Bin { dst: "%n".into(), op: BinOp::Xor, a: src(b)?, b: Src::Imm(-1) },
                Op::Bin { dst: r(d)?, op, a: src(a)?, b: tmp("%n") },
            ])
        };
        let compare = |a: &str, b: &str, sh: Option<&str>| -> Result<Vec<Op>, InstrError> {
            let mut pre = Vec::new();
            let b = shifted(&mut pre, src(b)?, sh, "%o")?;
            pre.push(Op::Mov { dst: FLAG_A.into(), src: src(a)? });
            pre.push(Op::Mov { dst: FLAG_B.into(), src: b });
            Ok(pre)
        };
        let select = |d: &str, a: Src, b: Src, cc: &str, mut pre: Vec<Op>| -> Result<Vec<Op>, InstrError> {
            let dst = r(d)?;
            match flag_cond(&mut pre, cc)? {
                Some(cond) => pre.push(Op::Select { dst, cond, a, b }),
                None => pre.push(Op::Mov { dst, src: a }),
            }
            Ok(pre)
        };
        if let Some(res) = atomic(&m, &ops, text) {
            return res;
        }
        match m.as_str() {
            "LDR" | "LDUR" => load(&[]),
            "STR" | "STUR" => store(&[]),
            "LDAR" => load(&["A"]),
            "LDAPR" | "LDAPUR" => load(&["Q"]),
            "STLR" | "STLUR" => store(&["L"]),
            "LDXR" => load(&["EX"]),
            "LDAXR" => load(&["A", "EX"]),
            "STXR" => store_cond(&["EX"]),
            "STLXR" => store_cond(&["L", "EX"]),
            "LDIAPP" => pair(true, "Q"),
            "STILP" => pair(false, "L"),
            "LDRB" | "LDRH" | "LDRSB" | "LDRSH" | "LDRSW" | "STRB" | "STRH" | "LDURB" | "LDURH" | "STURB" | "STURH"
            | "LDARB" | "LDARH" | "LDAPRB" | "LDAPRH" | "STLRB" | "STLRH" | "LDXRB" | "LDXRH" | "LDAXRB" | "LDAXRH"
            | "STXRB" | "STXRH" | "STLXRB" | "STLXRH" | "LDP" | "STP" | "LDXP" | "LDAXP" | "STXP" | "STLXP"
            | "LDPSW" => Err(mixed(text)),
            "DMB" | "DSB" => {
                let [opt] = o.as_slice() else { return Err(bad()) };
                let opt = opt.to_ascii_uppercase();
                if !BARRIER_OPTIONS.contains(&opt.as_str()) {
                    return Err(InstrError::new(format!("unsupported barrier option '{opt}'")));
                }
                Ok(vec![Op::Fence { tags: vec![format!("{m}.{opt}").into()] }])
            }
            "ISB" if o.is_empty() || o == ["SY"] => Ok(vec![Op::Fence { tags: vec!["ISB".into()] }]),
            "NOP" if o.is_empty() => Ok(vec![]),
            "MOV" | "MOVZ" => match o.as_slice() {
                [d, s] => Ok(vec![Op::Mov { dst: r(d)?, src: src(s)? }]),
                [d, s, sh] if m == "MOVZ" => {
                    let mut pre = Vec::new();
                    let v = shifted(&mut pre, src(s)?, Some(sh), "%o")?;
                    pre.push(Op::Mov { dst: r(d)?, src: v });
                    Ok(pre)
                }
                _ => Err(bad()),
            },
            "MVN" => {
                let [d, s] = o.as_slice() else { return Err(bad()) };
                Ok(vec![Op::Bin { dst: r(d)?, op: BinOp::Xor, a: src(s)?, b: Src::Imm(-1) }])
            }
            "NEG" => {
                let [d, s] = o.as_slice() else { return Err(bad()) };
                Ok(vec![Op::Bin { dst: r(d)?, op: BinOp::Sub, a: Src::Imm(0), b: src(s)? }])
            }
            "ADD" => bin(BinOp::Add),
            "SUB" => bin(BinOp::Sub),
            "EOR" => bin(BinOp::Xor),
            "AND" => bin(BinOp::And),
            "ORR" => bin(BinOp::Or),
            "MUL" => bin(BinOp::Mul),
            "LSL" => bin(BinOp::Shl),
            "LSR" => bin(BinOp::Shr),
            "BIC" => bin_not(BinOp::And),
            "ORN" => bin_not(BinOp::Or),
            "EON" => bin_not(BinOp::Xor),
            "CMP" => match o.as_slice() {
                [a, b] => compare(a, b, None),
                [a, b, sh] => compare(a, b, Some(sh)),
                _ => Err(bad()),
            },
            "SUBS" => {
                // The flags of `SUBS Rd,Rn,op2` are those of `CMP Rn,op2`.
                let (d, a, b, sh) = match o.as_slice() {
                    [d, a, b] => (d, a, b, None),
                    [d, a, b, sh] => (d, a, b, Some(*sh)),
                    _ => return Err(bad()),
                };
                let mut pre = compare(a, b, sh)?;
                pre.push(Op::Bin { dst: r(d)?, op: BinOp::Sub, a: tmp(FLAG_A), b: tmp(FLAG_B) });
                Ok(pre)
            }
            "CSEL" => {
                let [d, a, b, cc] = o.as_slice() else { return Err(bad()) };
                select(d, src(a)?, src(b)?, cc, Vec::new())
            }
            "CSINC" => {
                let [d, a, b, cc] = o.as_slice() else { return Err(bad()) };
                let pre = vec![Op::Bin { dst: "%i".into(), op: BinOp::Add, a: src(b)?, b: Src::Imm(1) }];
                select(d, src(a)?, tmp("%i"), cc, pre)
            }
            "CSET" => {
                let [d, cc] = o.as_slice() else { return Err(bad()) };
                select(d, Src::Imm(1), Src::Imm(0), cc, Vec::new())
            }
            "B" => {
                let [l] = o.as_slice() else { return Err(bad()) };
                Ok(branch(Vec::new(), None, l))
            }
            "CBZ" | "CBNZ" => {
                let [t, l] = o.as_slice() else { return Err(bad()) };
                let op = if m == "CBZ" { BinOp::Eq } else { BinOp::Ne };
                Ok(branch(Vec::new(), Some(Cond { op, a: Src::Reg(r(t)?), b: Src::Imm(0) }), l))
            }
            "TBZ" | "TBNZ" => {
                let [t, bit, l] = o.as_slice() else { return Err(bad()) };
                let pre = vec![
                    Op::Bin { dst: "%t".into(), op: BinOp::Shr, a: Src::Reg(r(t)?), b: Src::Imm(imm(bit)?) },
                    Op::Bin { dst: "%t".into(), op: BinOp::And, a: tmp("%t"), b: Src::Imm(1) },
                ];
                let op = if m == "TBZ" { BinOp::Eq } else { BinOp::Ne };
                Ok(branch(pre, Some(Cond { op, a: tmp("%t"), b: Src::Imm(0) }), l))
            }
            b if b.starts_with("B.") => {
                let [l] = o.as_slice() else { return Err(bad()) };
                let mut pre = Vec::new();
                let cond = flag_cond(&mut pre, &b[2..])?;
                Ok(branch(pre, cond, l))
            }
            _ => Err(bad()),
        }
    }
}
