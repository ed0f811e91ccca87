//! Lowers a C thread to the op language: each memory access or fence is its own
//! instruction (so po, addr, data and ctrl relate them as herd does), the read and write of
//! one read-modify-write share an instruction, and `if` becomes forward branches.

use super::ast::*;
use super::macros::{Body, Macros};
use crate::diag::{Diag, Pos};
use crate::events::Instr;
use crate::isa::{Addr, BinOp, Cond, LockOp, Op, Operand, Reg, Src, Tag};
use std::collections::{BTreeSet, HashMap};

/// The texts that calls can come from: the test (index 0) and the macro file (index 1).
pub struct Files<'a> {
    pub names: Vec<&'a str>,
    pub texts: Vec<&'a str>,
}

impl Files<'_> {
    fn err(&self, file: usize, pos: Pos, msg: impl Into<String>) -> Diag {
        Diag::at(self.names[file], self.texts[file], pos, msg)
    }
}

/// `prefix` followed by `n` in decimal: the names of temporaries and labels, made at
/// nearly every expression, without the formatting machinery.
fn numbered(prefix: &str, n: usize) -> String {
    // The digits, last first, on the stack: the name is the one allocation.
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut n = n;
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut s = String::with_capacity(prefix.len() + digits.len() - k);
    s.push_str(prefix);
    s.extend(digits[k..].iter().map(|&d| char::from(d)));
    s
}

/// The sets of a plain (non-atomic) access, `*x`: herd's `NA`.
pub(super) fn plain_tags() -> Vec<Tag> {
    vec!["NA".into()]
}

/// How deeply macros may expand into macros.
const MAX_EXPANSION: usize = 64;

type R<T> = Result<T, Diag>;

pub struct Lower<'a> {
    files: &'a Files<'a>,
    macros: &'a Macros,
    /// Names of shared locations: a parameter `int *x` names location `x`.
    shared: &'a BTreeSet<&'a str>,
    locals: BTreeSet<String>,
    code: Vec<Instr>,
    next_tmp: usize,
    next_label: usize,
    expansion: usize,
    /// Position, in the test, of the statement being lowered: where events point.
    site: Pos,
    /// How many times a loop's body may be entered (herd's `-unroll`).
    unroll: usize,
    /// Whether the test runs under herd's first LKMM semantics (no variant `lkmmv2`),
    /// which builds some read-modify-write primitives' events otherwise
    /// ([`super::prims`] refuses those).
    pub(super) lkmm_v1: bool,
}

impl<'a> Lower<'a> {
    pub fn new(files: &'a Files<'a>, macros: &'a Macros, shared: &'a BTreeSet<&'a str>, unroll: usize) -> Lower<'a> {
        Lower {
            files,
            macros,
            shared,
            locals: BTreeSet::new(),
            code: Vec::new(),
            next_tmp: 0,
            next_label: 0,
            expansion: 0,
            site: Pos(0),
            unroll,
            lkmm_v1: false,
        }
    }

    /// The same, under herd's first LKMM semantics when `v1` holds.
    pub fn under_lkmm_v1(self, v1: bool) -> Lower<'a> {
        Lower { lkmm_v1: v1, ..self }
    }

    pub fn finish(self) -> Vec<Instr> {
        self.code
    }

    fn tmp(&mut self) -> Reg {
        self.next_tmp += 1;
        numbered("%t", self.next_tmp)
    }

    fn label(&mut self) -> String {
        self.next_label += 1;
        numbered("%L", self.next_label)
    }

    /// An instruction of `ops`, shown as `text` (taken as it is when owned).
    fn emit(&mut self, ops: Vec<Op>, text: impl Into<String>) {
        self.code.push(Instr { label: None, ops, text: text.into(), pos: self.site });
    }

    fn place_label(&mut self, l: String) {
        self.code.push(Instr { label: Some(l), ops: Vec::new(), text: String::new(), pos: self.site });
    }

    /// Makes `x` a local, copying its name only the first time.
    fn local(&mut self, x: &str) {
        if !self.locals.contains(x) {
            self.locals.insert(x.to_string());
        }
    }

    fn test_err<T>(&self, pos: Pos, msg: impl Into<String>) -> R<T> {
        Err(self.files.err(0, pos, msg))
    }

    pub fn stmts(&mut self, ss: &[Stmt], in_test: bool) -> R<()> {
        for s in ss {
            self.stmt(s, in_test)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, in_test: bool) -> R<()> {
        let at = |p: &Pos, me: &Self| if in_test { *p } else { me.site };
        match s {
            Stmt::Decl(name, init, pos) => {
                self.site = at(pos, self);
                self.local(name);
                if let Some(e) = init {
                    let v = self.rvalue(e)?;
                    self.emit(vec![Op::Mov { dst: name.to_string(), src: v }], *name);
                }
            }
            Stmt::Assign(lhs, rhs, pos) => {
                self.site = at(pos, self);
                self.assign(lhs, rhs, *pos, in_test)?;
            }
            Stmt::Expr(e, pos) => {
                self.site = at(pos, self);
                match e {
                    Expr::Call(c) => {
                        self.call(c)?;
                    }
                    _ => {
                        self.rvalue(e)?;
                    }
                }
            }
            Stmt::If(c, then, els, pos) => {
                self.site = at(pos, self);
                self.branch(c, "if", |me| me.stmts(then, in_test), |me| me.stmts(els, in_test))?;
            }
            Stmt::While(c, body, pos) => {
                self.site = at(pos, self);
                self.unrolled(c, body, 0, in_test)?;
            }
            Stmt::Block(ss) => self.stmts(ss, in_test)?,
        }
        Ok(())
    }

    /// `if (c) then else els`: forward branches around each arm, with a control scope so
    /// that the condition's reads are control dependencies of the arms' events only.
    fn branch(
        &mut self,
        c: &Expr,
        text: &str,
        then: impl FnOnce(&mut Self) -> R<()>,
        els: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        let cv = self.rvalue(c)?;
        let (l_else, l_end) = (self.label(), self.label());
        let cond = Cond { op: BinOp::Eq, a: cv, b: Src::Imm(0) };
        self.emit(vec![Op::CtrlScope(true), Op::Branch { cond: Some(cond), target: l_else.clone() }], text);
        then(self)?;
        self.emit(vec![Op::Branch { cond: None, target: l_end.clone() }], "");
        self.place_label(l_else);
        els(self)?;
        self.place_label(l_end);
        self.emit(vec![Op::CtrlScope(false)], "");
        Ok(())
    }

    /// `while (c) body` from its `done`-th iteration on, as herd unrolls it: each
    /// iteration is an `if (c)` around the body and the rest of the loop, and where the
    /// condition still holds after `unroll` iterations the path is cut off. The statements
    /// after the loop still run on that path: herd's C semantics sequence a statement's
    /// successors whatever it returns (inferred from its sources; the corpus cannot tell,
    /// as a cut execution only decides the `Loop` prefix).
    fn unrolled(&mut self, c: &Expr, body: &[Stmt], done: usize, in_test: bool) -> R<()> {
        let site = self.site;
        self.branch(
            c,
            "while",
            |me| {
                if done >= me.unroll {
                    let (line, _) = crate::diag::line_col(me.files.texts[0], site.0);
                    me.emit(vec![Op::Cut(format!("the while at line {line}"))], "while");
                    return Ok(());
                }
                me.stmts(body, in_test)?;
                me.site = site;
                me.unrolled(c, body, done + 1, in_test)
            },
            |_| Ok(()),
        )
    }

    fn assign(&mut self, lhs: &Expr, rhs: &Expr, pos: Pos, in_test: bool) -> R<()> {
        match lhs {
            Expr::Var(x, _) if self.locals.contains(*x) || !self.shared.contains(*x) => {
                // herd accepts locals assigned without a declaration.
                self.local(x);
                let v = self.rvalue(rhs)?;
                self.emit(vec![Op::Mov { dst: x.to_string(), src: v }], *x);
                Ok(())
            }
            Expr::Deref(p, _) => {
                let v = self.rvalue(rhs)?;
                let addr = self.address(p)?;
                self.emit(vec![Op::Store { addr, src: v, tags: plain_tags(), when: None }], "store");
                Ok(())
            }
            _ if in_test => self.test_err(pos, "expected a local or `*pointer` on the left of `=`"),
            _ => self.test_err(self.site, "expected a local or `*pointer` on the left of `=`"),
        }
    }

    /// The value of an expression, emitting the accesses it makes.
    fn rvalue(&mut self, e: &Expr) -> R<Src> {
        Ok(match e {
            Expr::Int(i) => Src::Imm(*i),
            Expr::Var(x, _) => {
                if self.locals.contains(*x) || !self.shared.contains(*x) {
                    // herd reads an undeclared name as a register: its value from the
                    // initial state (`0:r4=y;`), else 0.
                    self.local(x);
                    Src::Reg(x.to_string())
                } else {
                    Src::Addr(x.to_string())
                }
            }
            Expr::Deref(p, _) => {
                let addr = self.address(p)?;
                let dst = self.tmp();
                self.emit(vec![Op::Load { dst: dst.clone(), addr, tags: plain_tags() }], "load");
                Src::Reg(dst)
            }
            Expr::AddrOf(inner, pos) => match &**inner {
                Expr::Var(x, _) if self.shared.contains(*x) && !self.locals.contains(*x) => Src::Addr(x.to_string()),
                Expr::Deref(p, _) => self.rvalue(p)?,
                _ => return self.test_err(*pos, "unsupported: `&` of something other than a location"),
            },
            Expr::Neg(a) => self.bin(BinOp::Sub, &Expr::Int(0), a)?,
            Expr::Not(a) => self.bin(BinOp::Eq, a, &Expr::Int(0))?,
            Expr::BitNot(a) => self.bin(BinOp::Xor, a, &Expr::Int(-1))?,
            Expr::Bin(op, a, b) => self.bin(*op, a, b)?,
            Expr::Logic(and, a, b) => {
                self.emit(vec![Op::Operand(Operand::First)], "");
                let x = self.rvalue(a)?;
                self.logic_rest(*and, x, b)?
            }
            Expr::Chain(c) => self.chain(c)?,
            Expr::Cond(c, a, b) => {
                let cv = self.rvalue(c)?;
                let av = self.rvalue(a)?;
                let bv = self.rvalue(b)?;
                let dst = self.tmp();
                let cond = Cond { op: BinOp::Ne, a: cv, b: Src::Imm(0) };
                self.emit(vec![Op::Select { dst: dst.clone(), cond, a: av, b: bv }], "");
                Src::Reg(dst)
            }
            Expr::Call(c) => match self.call(c)? {
                Some(v) => v,
                None => {
                    return Err(self.files.err(c.file, c.pos, format!("`{}` gives no value", c.name)));
                }
            },
        })
    }

    /// `a op b`; herd evaluates the operands unsequenced.
    fn bin(&mut self, op: BinOp, a: &Expr, b: &Expr) -> R<Src> {
        self.emit(vec![Op::Operand(Operand::First)], "");
        let x = self.rvalue(a)?;
        self.bin_rest(op, x, b)
    }

    /// The rest of `a op b` once `a` is evaluated to `x` (after its `Operand::First`).
    fn bin_rest(&mut self, op: BinOp, x: Src, b: &Expr) -> R<Src> {
        self.emit(vec![Op::Operand(Operand::Next)], "");
        let y = self.rvalue(b)?;
        self.emit(vec![Op::Operand(Operand::Done)], "");
        let dst = self.tmp();
        self.emit(vec![Op::Bin { dst: dst.clone(), op, a: x, b: y }], "");
        Ok(Src::Reg(dst))
    }

    /// The rest of `a && b` (`a || b`) once `a` is evaluated to `x`: each side compared
    /// with 0, then combined.
    fn logic_rest(&mut self, and: bool, x: Src, b: &Expr) -> R<Src> {
        let x = self.bin_rest(BinOp::Ne, x, &Expr::Int(0))?;
        let y = self.bin(BinOp::Ne, b, &Expr::Int(0))?;
        let dst = self.tmp();
        let op = if and { BinOp::And } else { BinOp::Or };
        self.emit(vec![Op::Bin { dst: dst.clone(), op, a: x, b: y }], "");
        Ok(Src::Reg(dst))
    }

    /// A chain, emitting what its left-nested operators would, in a loop: every
    /// operator opens its operands before the first operand is evaluated, and each then
    /// evaluates its right operand and combines.
    fn chain(&mut self, c: &Chain) -> R<Src> {
        for _ in &c.rest {
            self.emit(vec![Op::Operand(Operand::First)], "");
        }
        let mut x = self.rvalue(&c.first)?;
        for (op, b) in &c.rest {
            x = match op {
                Infix::Bin(op) => self.bin_rest(*op, x, b)?,
                Infix::Logic(and) => self.logic_rest(*and, x, b)?,
            };
        }
        Ok(x)
    }

    fn address(&mut self, p: &Expr) -> R<Addr> {
        match self.rvalue(p)? {
            Src::Addr(x) => Ok(Addr::Sym(x)),
            Src::Reg(r) => Ok(Addr::Reg(r, 0)),
            Src::Imm(_) => self.test_err(p.pos().unwrap_or(self.site), "expected a pointer, found a number"),
        }
    }

    /// The location an lvalue (`*p`) names.
    fn lvalue(&mut self, e: &Expr, c: &Call) -> R<Addr> {
        match e {
            Expr::Deref(p, _) => self.address(p),
            _ => Err(self.files.err(c.file, c.pos, format!("`{}` expects a location `*p`", c.name))),
        }
    }

    /// Lowers a call: a macro from the `.def`, or one of herd's primitives. Returns its
    /// value, if it has one.
    fn call(&mut self, c: &Call) -> R<Option<Src>> {
        if let Some(m) = self.macros.get(&c.name) {
            return self.expand(c, &m.params, &m.body);
        }
        super::prims::lower(self, c)
    }

    fn expand(&mut self, c: &Call, params: &[&str], body: &Body) -> R<Option<Src>> {
        if params.len() != c.args.len() {
            let msg = format!("macro `{}` takes {} arguments, found {}", c.name, params.len(), c.args.len());
            return Err(self.files.err(c.file, c.pos, msg));
        }
        if self.expansion >= MAX_EXPANSION {
            return Err(self.files.err(c.file, c.pos, format!("macro `{}` expands too deeply", c.name)));
        }
        let mut map = HashMap::new();
        for (p, a) in params.iter().zip(&c.args) {
            match a {
                Arg::Expr(e) => map.insert(*p, e.clone()),
                Arg::Op(_, pos) => {
                    return Err(self.files.err(c.file, *pos, "expected an expression, found an operator"));
                }
            };
        }
        self.expansion += 1;
        let r = match body {
            Body::Expr(e) => {
                let e = subst(e, &map);
                self.rvalue(&e).map(Some)
            }
            Body::Stmts(ss) => {
                let ss: Vec<Stmt> = ss.iter().map(|s| subst_stmt(s, &map)).collect();
                self.stmts(&ss, false).map(|_| None)
            }
        };
        self.expansion -= 1;
        r
    }

    // Helpers for the primitives.

    pub(super) fn arg_value(&mut self, c: &Call, k: usize) -> R<Src> {
        match c.args.get(k) {
            Some(Arg::Expr(e)) => self.rvalue(e),
            _ => {
                Err(self.files.err(c.file, c.pos, format!("`{}` expects an expression as argument {}", c.name, k + 1)))
            }
        }
    }

    pub(super) fn arg_pointer(&mut self, c: &Call, k: usize) -> R<Addr> {
        match c.args.get(k) {
            // A number has no position of its own: the error points at the call.
            Some(Arg::Expr(Expr::Int(_))) => Err(self.files.err(
                c.file,
                c.pos,
                format!("`{}` expects a pointer as argument {}, found a number", c.name, k + 1),
            )),
            Some(Arg::Expr(e)) => self.address(e),
            _ => Err(self.files.err(c.file, c.pos, format!("`{}` expects a pointer as argument {}", c.name, k + 1))),
        }
    }

    pub(super) fn arg_lvalue(&mut self, c: &Call, k: usize) -> R<Addr> {
        match c.args.get(k) {
            Some(Arg::Expr(e)) => self.lvalue(e, c),
            _ => Err(self.files.err(c.file, c.pos, format!("`{}` expects a location as argument {}", c.name, k + 1))),
        }
    }

    pub(super) fn arg_op(&self, c: &Call, k: usize) -> R<String> {
        match c.args.get(k) {
            Some(Arg::Op(o, _)) => Ok(o.to_string()),
            _ => Err(self.files.err(c.file, c.pos, format!("`{}` expects an operator as argument {}", c.name, k + 1))),
        }
    }

    pub(super) fn arity(&self, c: &Call, n: usize) -> R<()> {
        if c.args.len() == n {
            Ok(())
        } else {
            Err(self.files.err(c.file, c.pos, format!("`{}` takes {n} arguments, found {}", c.name, c.args.len())))
        }
    }

    pub(super) fn fresh(&mut self) -> Reg {
        self.tmp()
    }

    pub(super) fn push(&mut self, ops: Vec<Op>, text: impl Into<String>) {
        self.emit(ops, text)
    }

    pub(super) fn unknown(&self, c: &Call) -> Diag {
        self.files
            .err(c.file, c.pos, format!("unknown macro or primitive `{}`", c.name))
            .with_herd_words(format!("Unknown macro {}", c.name))
    }

    pub(super) fn lock(&mut self, addr: Addr, op: LockOp, dst: Option<Reg>, text: &str) {
        self.emit(vec![Op::Lock { addr, op, dst }], text)
    }
}

pub(super) fn subst<'a>(e: &Expr<'a>, m: &HashMap<&str, Expr<'a>>) -> Expr<'a> {
    let b = |x: &Expr<'a>| Box::new(subst(x, m));
    match e {
        Expr::Var(x, _) if m.contains_key(x) => m[x].clone(),
        Expr::Int(_) | Expr::Var(..) => e.clone(),
        Expr::Deref(a, p) => Expr::Deref(b(a), *p),
        Expr::AddrOf(a, p) => Expr::AddrOf(b(a), *p),
        Expr::Neg(a) => Expr::Neg(b(a)),
        Expr::Not(a) => Expr::Not(b(a)),
        Expr::BitNot(a) => Expr::BitNot(b(a)),
        Expr::Bin(op, x, y) => Expr::Bin(*op, b(x), b(y)),
        Expr::Logic(and, x, y) => Expr::Logic(*and, b(x), b(y)),
        Expr::Cond(c, x, y) => Expr::Cond(b(c), b(x), b(y)),
        Expr::Chain(c) => Expr::Chain(Box::new(Chain {
            first: subst(&c.first, m),
            rest: c.rest.iter().map(|(op, x)| (*op, subst(x, m))).collect(),
        })),
        Expr::Call(c) => Expr::Call(Box::new(Call {
            name: c.name,
            tag: c.tag.clone(),
            args: c
                .args
                .iter()
                .map(|a| match a {
                    Arg::Expr(x) => Arg::Expr(subst(x, m)),
                    op => op.clone(),
                })
                .collect(),
            pos: c.pos,
            file: c.file,
        })),
    }
}

pub(super) fn subst_stmt<'a>(s: &Stmt<'a>, m: &HashMap<&str, Expr<'a>>) -> Stmt<'a> {
    let all = |ss: &[Stmt<'a>]| ss.iter().map(|s| subst_stmt(s, m)).collect();
    match s {
        Stmt::Decl(n, e, p) => Stmt::Decl(n, e.as_ref().map(|e| subst(e, m)), *p),
        Stmt::Assign(a, b, p) => Stmt::Assign(subst(a, m), subst(b, m), *p),
        Stmt::Expr(e, p) => Stmt::Expr(subst(e, m), *p),
        Stmt::If(c, a, b, p) => Stmt::If(subst(c, m), all(a), all(b), *p),
        Stmt::While(c, a, p) => Stmt::While(subst(c, m), all(a), *p),
        Stmt::Block(ss) => Stmt::Block(all(ss)),
    }
}
