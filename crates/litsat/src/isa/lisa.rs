//! LISA, herd's generic "litmus instruction set architecture" (`LISA` tests, the Linux-kernel
//! model's and the tutorials' dialect).
//!
//! Instructions, as herd's `LISAParser.mly` and `BellSem.ml` define them:
//!
//! - `r[a,b] r1 x`: a read of `x` into `r1`; the address is a location, a register holding an
//!   address, or either plus a register or an immediate (`z+r1`);
//! - `w[a] x v`: a write of a register or an immediate;
//! - `f[a]`: a fence; `f[a] {l1} {l2}` (a fence between labelled instructions) is not
//!   supported;
//! - `rmw[a] r op x`: an atomic read-modify-write: `x` gets `op` and `r` the old value; when
//!   `op` mentions `r`, `r` stands there for the value read;
//! - `mov r op`, where `op` is a value (register, location, immediate) or `(add a b)`,
//!   `(xor a b)`, `(and a b)`, `(eq a b)`, `(neq a b)`;
//! - `b[a] r L` branches to `L` when `r` is not zero, `b[a] L` always.
//!
//! Each annotation of an access or a fence puts the event in the set of that name; herd adds
//! `X` and `RMW` for the accesses of `rmw`, and `Ftotal` for fences without label sets.
//! Branch annotations give no set (herd's commit events carry none).

use super::*;

pub struct Lisa;

/// A token of one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// A name: a mnemonic, register, location or label.
    Name(String),
    Num(i64),
    /// An annotation list `[a,b]`.
    Annot(Vec<String>),
    LPar,
    RPar,
    Plus,
    Comma,
    LBrace,
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic()
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '-')
}

/// Splits an instruction into tokens, as herd's `BellLexer.mll` does (names may hold `_`,
/// `/` and `-`).
fn lex(text: &str) -> Result<Vec<Tok>, InstrError> {
    let cs: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |k: usize, msg: String| InstrError { offset: cs.get(k).map_or(text.len(), |p| p.0), message: msg };
    while i < cs.len() {
        let (_, c) = cs[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '(' => {
                out.push(Tok::LPar);
                i += 1;
            }
            ')' => {
                out.push(Tok::RPar);
                i += 1;
            }
            '+' => {
                out.push(Tok::Plus);
                i += 1;
            }
            ',' => {
                out.push(Tok::Comma);
                i += 1;
            }
            '{' => {
                out.push(Tok::LBrace);
                i += 1;
            }
            '[' => {
                let start = i;
                let close = cs[i..]
                    .iter()
                    .position(|&(_, c)| c == ']')
                    .ok_or_else(|| err(start, "expected `]` closing the annotations".into()))?;
                let inner: String = cs[i + 1..i + close].iter().map(|p| p.1).collect();
                let mut names = Vec::new();
                for a in inner.split(',') {
                    let a = a.trim();
                    if a.is_empty() {
                        if inner.trim().is_empty() {
                            continue;
                        }
                        return Err(err(start, format!("empty annotation in '[{inner}]'")));
                    }
                    if !a.starts_with(is_name_start) || !a.chars().all(is_name_char) {
                        return Err(err(start, format!("bad annotation '{a}'")));
                    }
                    names.push(a.to_string());
                }
                out.push(Tok::Annot(names));
                i += close + 1;
            }
            c if c.is_ascii_digit() || c == '-' => {
                let start = i;
                let mut j = i + 1;
                while j < cs.len() && (cs[j].1.is_ascii_alphanumeric()) {
                    j += 1;
                }
                let s: String = cs[start..j].iter().map(|p| p.1).collect();
                let v = parse_imm(&s).ok_or_else(|| err(start, format!("bad number '{s}'")))?;
                out.push(Tok::Num(v));
                i = j;
            }
            c if is_name_start(c) || c == '%' => {
                let start = i;
                let mut j = i + 1;
                while j < cs.len() && is_name_char(cs[j].1) {
                    j += 1;
                }
                let s: String = cs[start..j].iter().map(|p| p.1).collect();
                out.push(Tok::Name(s));
                i = j;
            }
            _ => return Err(err(i, format!("unexpected character '{c}'"))),
        }
    }
    Ok(out)
}

/// herd's register names: `r` and a number, printed without leading zeros.
fn reg(s: &str) -> Option<Reg> {
    let n: u32 = s.strip_prefix('r')?.parse().ok()?;
    if !s[1..].chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(format!("r{n}"))
}

/// Words the lexer reserves, which cannot name a location or a label.
const KEYWORDS: &[&str] = &["rmw", "mov", "add", "and", "xor", "eq", "neq", "call", "scopes", "regions"];

fn is_location(s: &str) -> bool {
    !s.starts_with('%') && reg(s).is_none() && !KEYWORDS.contains(&s)
}

/// A register or a location.
#[derive(Clone, Debug)]
enum Roa {
    Reg(Reg),
    Loc(String),
}

/// A cursor over the tokens of one instruction.
struct P<'a> {
    toks: &'a [Tok],
    k: usize,
}

impl P<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.k)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.k).cloned();
        self.k += 1;
        t
    }

    fn annots(&mut self) -> Vec<Tag> {
        if let Some(Tok::Annot(a)) = self.peek() {
            let a = a.iter().map(|t| Tag::from(t.clone())).collect();
            self.k += 1;
            a
        } else {
            Vec::new()
        }
    }

    fn reg(&mut self) -> Result<Reg, InstrError> {
        match self.next() {
            Some(Tok::Name(s)) if s.starts_with('%') => {
                Err(InstrError::new(format!("unsupported: symbolic register '{s}' (a diy template)")))
            }
            Some(Tok::Name(s)) => reg(&s).ok_or_else(|| InstrError::new(format!("expected a register, found '{s}'"))),
            t => Err(InstrError::new(format!("expected a register, found {}", show(t.as_ref())))),
        }
    }

    fn roa(&mut self) -> Result<Roa, InstrError> {
        match self.next() {
            Some(Tok::Name(s)) if s.starts_with('%') => {
                Err(InstrError::new(format!("unsupported: symbolic register '{s}' (a diy template)")))
            }
            Some(Tok::Name(s)) => Ok(match reg(&s) {
                Some(r) => Roa::Reg(r),
                None if is_location(&s) => Roa::Loc(s),
                None => {
                    return Err(InstrError::new(format!("expected a register or a location, found '{s}'")));
                }
            }),
            t => Err(InstrError::new(format!("expected a register or a location, found {}", show(t.as_ref())))),
        }
    }

    /// A register or an immediate.
    fn roi(&mut self) -> Result<Src, InstrError> {
        match self.peek() {
            Some(Tok::Num(v)) => {
                let v = *v;
                self.k += 1;
                Ok(Src::Imm(v))
            }
            _ => Ok(Src::Reg(self.reg()?)),
        }
    }

    /// A register, a location (its address) or an immediate.
    fn value(&mut self) -> Result<Src, InstrError> {
        match self.peek() {
            Some(Tok::Num(v)) => {
                let v = *v;
                self.k += 1;
                Ok(Src::Imm(v))
            }
            _ => Ok(match self.roa()? {
                Roa::Reg(r) => Src::Reg(r),
                Roa::Loc(x) => Src::Addr(x),
            }),
        }
    }

    /// `roa` or `roa+roi`.
    fn addr(&mut self) -> Result<(Roa, Option<Src>), InstrError> {
        let base = self.roa()?;
        if self.peek() == Some(&Tok::Plus) {
            self.k += 1;
            return Ok((base, Some(self.roi()?)));
        }
        Ok((base, None))
    }

    /// A value or `(op a b)`.
    fn operation(&mut self) -> Result<Operation, InstrError> {
        if self.peek() != Some(&Tok::LPar) {
            return Ok(Operation::Val(self.value()?));
        }
        self.k += 1;
        let op = match self.next() {
            Some(Tok::Name(s)) => match s.as_str() {
                "add" => BinOp::Add,
                "xor" => BinOp::Xor,
                "and" => BinOp::And,
                "eq" => BinOp::Eq,
                "neq" => BinOp::Ne,
                _ => {
                    return Err(InstrError::new(format!(
                        "unknown operation '{s}' (herd's LISA has add, xor, and, eq, neq)"
                    )));
                }
            },
            t => {
                return Err(InstrError::new(format!("expected an operation, found {}", show(t.as_ref()))));
            }
        };
        let a = self.value()?;
        let b = self.value()?;
        match self.next() {
            Some(Tok::RPar) => Ok(Operation::Bin(op, a, b)),
            t => Err(InstrError::new(format!("expected `)`, found {}", show(t.as_ref())))),
        }
    }

    fn label(&mut self) -> Result<String, InstrError> {
        match self.next() {
            Some(Tok::Name(s)) if is_location(&s) => Ok(s),
            t => Err(InstrError::new(format!("expected a label, found {}", show(t.as_ref())))),
        }
    }

    fn end(&self) -> Result<(), InstrError> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::LBrace) => {
                Err(InstrError::new("unsupported: fences between labelled instructions (`f[..] {..} {..}`)"))
            }
            t => Err(InstrError::new(format!("unexpected {} at the end of the instruction", show(t)))),
        }
    }
}

fn show(t: Option<&Tok>) -> String {
    match t {
        None => "the end of the instruction".into(),
        Some(Tok::Name(s)) => format!("'{s}'"),
        Some(Tok::Num(v)) => format!("'{v}'"),
        Some(Tok::Annot(a)) => format!("'[{}]'", a.join(",")),
        Some(Tok::LPar) => "`(`".into(),
        Some(Tok::RPar) => "`)`".into(),
        Some(Tok::Plus) => "`+`".into(),
        Some(Tok::Comma) => "`,`".into(),
        Some(Tok::LBrace) => "`{`".into(),
    }
}

enum Operation {
    Val(Src),
    Bin(BinOp, Src, Src),
}

impl Operation {
    /// The operation with register `r` read as `by` (herd's `stack` in `rmw`).
    fn subst(self, r: &Reg, by: &Reg) -> Operation {
        let s = |x: Src| match x {
            Src::Reg(ref q) if q == r => Src::Reg(by.clone()),
            x => x,
        };
        match self {
            Operation::Val(a) => Operation::Val(s(a)),
            Operation::Bin(op, a, b) => Operation::Bin(op, s(a), s(b)),
        }
    }
}

/// Moves a location's address into a temporary, so that arithmetic on it sees the location.
fn staged(ops: &mut Vec<Op>, tmp: &str, s: Src) -> Src {
    match s {
        Src::Addr(x) => {
            ops.push(Op::Mov { dst: tmp.to_string(), src: Src::Addr(x) });
            Src::Reg(tmp.to_string())
        }
        s => s,
    }
}

/// Ops computing `op` into `dst`.
fn compute(ops: &mut Vec<Op>, dst: &Reg, op: Operation) {
    match op {
        Operation::Val(s) => ops.push(Op::Mov { dst: dst.clone(), src: s }),
        Operation::Bin(op, a, b) => {
            let a = staged(ops, "%opa", a);
            let b = staged(ops, "%opb", b);
            ops.push(Op::Bin { dst: dst.clone(), op, a, b });
        }
    }
}

/// Ops putting the address of `addr` where an access can use it.
fn address(ops: &mut Vec<Op>, (base, off): (Roa, Option<Src>)) -> Addr {
    match (base, off) {
        (Roa::Loc(x), None) => Addr::Sym(x),
        (Roa::Reg(r), None) => Addr::Reg(r, 0),
        (Roa::Reg(r), Some(Src::Imm(k))) => Addr::Reg(r, k),
        (base, Some(off)) => {
            let a = match base {
                Roa::Loc(x) => Src::Addr(x),
                Roa::Reg(r) => Src::Reg(r),
            };
            let a = staged(ops, "%addr", a);
            ops.push(Op::Bin { dst: "%addr".into(), op: BinOp::Add, a, b: off });
            Addr::Reg("%addr".into(), 0)
        }
    }
}

impl Isa for Lisa {
    fn name(&self) -> &'static str {
        "LISA"
    }

    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        reg(r.trim())
    }

    fn reg_index(&self, r: &str) -> usize {
        r.strip_prefix('r').and_then(|n| n.parse().ok()).unwrap_or(usize::MAX)
    }

    fn known_sets(&self) -> &'static [&'static str] {
        // herd's `BellAction.arch_sets`; annotation sets are open-ended.
        &["X", "RMW", "Ftotal"]
    }

    fn parse(&self, text: &str) -> Result<Vec<Op>, InstrError> {
        let toks = lex(text)?;
        let mut p = P { toks: &toks, k: 0 };
        let mnemonic = match p.next() {
            Some(Tok::Name(m)) => m,
            _ => return Err(InstrError::unsupported(text)),
        };
        let mut ops = Vec::new();
        match mnemonic.as_str() {
            "r" => {
                let tags = p.annots();
                let dst = p.reg()?;
                let a = p.addr()?;
                p.end()?;
                let addr = address(&mut ops, a);
                ops.push(Op::Load { dst, addr, tags });
            }
            "w" => {
                let tags = p.annots();
                let a = p.addr()?;
                let src = p.roi()?;
                p.end()?;
                let addr = address(&mut ops, a);
                ops.push(Op::Store { addr, src, tags, when: None });
            }
            "f" => {
                let mut tags = p.annots();
                p.end()?;
                tags.push("Ftotal".into());
                ops.push(Op::Fence { tags });
            }
            "rmw" => {
                let mut tags = p.annots();
                let dst = p.reg()?;
                let op = p.operation()?;
                let a = p.addr()?;
                p.end()?;
                tags.extend(["X".into(), "RMW".into()]);
                let addr = address(&mut ops, a);
                let old: Reg = "%old".into();
                let new: Reg = "%new".into();
                // herd computes the new value either from the value read (when the operation
                // names the destination) or from the registers (an exchange); the read and
                // the write are atomic either way.
                ops.push(Op::Load { dst: old.clone(), addr: addr.clone(), tags: tags.clone() });
                compute(&mut ops, &new, op.subst(&dst, &old));
                ops.push(Op::Store { addr, src: Src::Reg(new), tags, when: None });
                ops.push(Op::Mov { dst, src: Src::Reg(old) });
            }
            "mov" => {
                let dst = p.reg()?;
                let op = p.operation()?;
                p.end()?;
                compute(&mut ops, &dst, op);
            }
            "b" => {
                // Branch annotations are accepted but give no event set.
                let _ = p.annots();
                let cond = match p.peek() {
                    Some(Tok::Name(s)) if reg(s).is_some() => {
                        let r = p.reg()?;
                        Some(Cond { op: BinOp::Ne, a: Src::Reg(r), b: Src::Imm(0) })
                    }
                    _ => None,
                };
                if cond.is_some() && p.peek() == Some(&Tok::Comma) {
                    return Err(InstrError::new(
                        "`b[..] reg, value label` is not LISA syntax (herd rejects it): use \
                         `mov` to compute a condition and `b[] reg label`, which branches when \
                         reg is not zero",
                    ));
                }
                let target = p.label()?;
                p.end()?;
                ops.push(Op::Branch { cond, target });
            }
            "call" => {
                return Err(InstrError::new("unsupported: obsolete 'call' instruction (herd rejects it too)"));
            }
            _ => return Err(InstrError::unsupported(text)),
        }
        Ok(ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let l = Lisa;
        assert_eq!(
            l.parse("r[acquire] r1 y").unwrap(),
            vec![Op::Load { dst: "r1".into(), addr: Addr::Sym("y".into()), tags: vec!["acquire".into()] }]
        );
        assert_eq!(
            l.parse("w[] x r1").unwrap(),
            vec![Op::Store { addr: Addr::Sym("x".into()), src: Src::Reg("r1".into()), tags: vec![], when: None }]
        );
        assert_eq!(l.parse("f[mb]").unwrap(), vec![Op::Fence { tags: vec!["mb".into(), "Ftotal".into()] }]);
        assert_eq!(l.parse("r[] r2 z+r1").unwrap().len(), 3);
        assert_eq!(l.parse("mov r2 (add r1 x)").unwrap().len(), 2);
        assert_eq!(
            l.parse("b[] r01 LC00").unwrap(),
            vec![Op::Branch {
                cond: Some(Cond { op: BinOp::Ne, a: Src::Reg("r1".into()), b: Src::Imm(0) }),
                target: "LC00".into(),
            }]
        );
        assert_eq!(l.parse("rmw[] r0 (add r0 1) x").unwrap().len(), 4);
        assert!(l.parse("b[eq] r1, 0 END").is_err());
        assert!(l.parse("f[] {a} {b}").is_err());
        assert_eq!(l.canonical_reg("r07").as_deref(), Some("r7"));
        assert_eq!(l.canonical_reg("x"), None);
    }
}
