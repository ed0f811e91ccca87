//! Recursive-descent parser for cat, over the tokens of `lex`.
//!
//! Precedence, loosest first: `|`, `++`, `;`, `\` (left), `&`, binary `*`, prefix `~` and
//! postfix `* + ?`, application, `^-1`.

use super::ast::*;
use super::lex::{Tok, lex};
use crate::diag::{Diag, Pos};
use std::sync::Arc;

/// The name of a binding that destructures a tuple (`let (a, b) = e`): its `params` hold
/// the pattern and its body the value.
pub const TUPLE_BINDING: &str = "(tuple)";

const STMT_KW: &[&str] = &[
    "let",
    "include",
    "acyclic",
    "irreflexive",
    "empty",
    "show",
    "unshow",
    "flag",
    "procedure",
    "call",
    "forall",
    "with",
    "enum",
    "instructions",
    "default",
    "undefined_unless",
    "assert",
    "catdep",
];

/// The statement keyword `word` is likely a typo of (see `resolve::nearest`), if any.
fn near_keyword(word: &str) -> Option<&'static str> {
    if KEYWORDS.contains(&word) {
        return None;
    }
    super::resolve::nearest(word, STMT_KW.iter().copied()).first().copied()
}

const KEYWORDS: &[&str] = &[
    "let",
    "rec",
    "and",
    "in",
    "as",
    "include",
    "acyclic",
    "irreflexive",
    "empty",
    "show",
    "unshow",
    "flag",
    "procedure",
    "call",
    "forall",
    "do",
    "from",
    "with",
    "end",
    "fun",
    "match",
    "try",
    "if",
    "then",
    "else",
    "enum",
    "instructions",
    "default",
    "undefined_unless",
    "assert",
    "subset",
    "when",
];

struct P<'a> {
    file: &'a str,
    text: &'a str,
    toks: Vec<(Tok, Pos)>,
    i: usize,
    /// Current nesting of expressions and statements, bounded by [`MAX_DEPTH`].
    depth: usize,
    /// Whether the file says `catdep`.
    catdep: bool,
}

/// How deeply expressions and statements may nest: deeper input is refused rather than
/// allowed to overflow the stack of the parser or of the evaluator.
pub const MAX_DEPTH: usize = 256;

type R<T> = Result<T, Diag>;

impl<'a> P<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.0)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.0)
    }
    fn pos(&self) -> Pos {
        self.toks.get(self.i).map(|t| t.1).unwrap_or(Pos(self.text.len()))
    }
    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(Diag::at(self.file, self.text, self.pos(), format!("{}, found {}", msg.into(), self.found())))
    }
    /// The current token, as messages quote it.
    fn found(&self) -> String {
        match self.peek() {
            Some(Tok::Ident(s)) => format!("`{s}`"),
            Some(Tok::Sym(s)) => format!("`{s}`"),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Tag(s)) => format!("'{s}"),
            Some(Tok::Int(n)) => format!("`{n}`"),
            None => "end of file".to_string(),
        }
    }
    /// Eats `close`, which ends what `open` (at `at`) began. Where a keyword, a new
    /// statement or the end of the file comes first, the bracket was never closed: the error is where it
    /// was opened, which is where the writer must look, not at the next statement.
    fn close(&mut self, at: Pos, open: &str, close: &str) -> R<()> {
        if self.eat_sym(close) {
            return Ok(());
        }
        let keyword = matches!(self.peek(), Some(Tok::Ident(w)) if KEYWORDS.contains(&w.as_str()));
        if !keyword && !self.at_stmt_start() {
            return self.err(format!("expected `{close}`"));
        }
        let (l, c) = crate::diag::line_col(self.text, self.pos().0);
        let msg = format!("unclosed `{open}`: {} at {l}:{c} comes before its `{close}`", self.found());
        Err(Diag::at(self.file, self.text, at, msg))
    }
    /// The current word, a typo of the statement keyword `k`.
    fn unknown_statement(&self, k: &str) -> Diag {
        let w = self.found();
        Diag::at(self.file, self.text, self.pos(), format!("unknown statement {w}; did you mean `{k}`?"))
    }
    /// Whether the current token is the first of its line.
    fn starts_line(&self) -> bool {
        let before = &self.text[..self.pos().0.min(self.text.len())];
        before.rsplit('\n').next().is_some_and(|l| l.trim().is_empty())
    }
    /// The statement keyword the current word may be a typo of, when it is the first of
    /// its line (and long enough not to be a short name by chance): such a word ends an
    /// expression or a header rather than being read into it, so that the error is at
    /// the word.
    fn typo_at_line_start(&self) -> Option<&'static str> {
        match self.peek() {
            Some(Tok::Ident(s)) if s.len() >= 4 && self.starts_line() => near_keyword(s),
            _ => None,
        }
    }
    /// Runs `f` one nesting level deeper, or refuses past [`MAX_DEPTH`] (counting `extra`
    /// levels that a loop has already built).
    fn deeper<T>(&mut self, extra: usize, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.depth + extra >= MAX_DEPTH {
            return self.err(format!("nested too deeply (more than {MAX_DEPTH} levels)"));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }
    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if s == k)
    }
    fn is_sym(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(s)) if *s == k)
    }
    fn eat_kw(&mut self, k: &str) -> bool {
        if self.is_kw(k) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn eat_sym(&mut self, k: &str) -> bool {
        if self.is_sym(k) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect_kw(&mut self, k: &str) -> R<()> {
        if self.eat_kw(k) { Ok(()) } else { self.err(format!("expected `{k}`")) }
    }
    fn expect_sym(&mut self, k: &str) -> R<()> {
        if self.eat_sym(k) { Ok(()) } else { self.err(format!("expected `{k}`")) }
    }
    fn name(&mut self) -> R<Name> {
        match self.peek() {
            Some(Tok::Ident(s)) if !KEYWORDS.contains(&s.as_str()) => {
                let s = Name::new(s);
                self.i += 1;
                Ok(s)
            }
            _ => self.err("expected a name"),
        }
    }

    fn at_stmt_start(&self) -> bool {
        match self.peek() {
            None => true,
            Some(Tok::Ident(s)) => STMT_KW.contains(&s.as_str()) || s == "if" || s == "end" || s == "else",
            Some(Tok::Sym("~")) => {
                matches!(self.peek_at(1), Some(Tok::Ident(s)) if s == "acyclic" || s == "irreflexive" || s == "empty")
            }
            _ => false,
        }
    }

    // ---------- statements ----------

    fn stmts(&mut self, stop: &[&str]) -> R<Vec<Stmt>> {
        self.deeper(0, |p| p.stmts_here(stop))
    }

    fn stmts_here(&mut self, stop: &[&str]) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            if self.peek().is_none() || stop.iter().any(|k| self.is_kw(k)) {
                return Ok(out);
            }
            out.push(self.stmt()?);
        }
    }

    fn stmt(&mut self) -> R<Stmt> {
        let pos = self.pos();
        if self.eat_kw("let") {
            let rec = self.eat_kw("rec");
            let bs = self.bindings()?;
            if self.is_kw("in") {
                return self.err("expected a statement (`let … in` is an expression)");
            }
            return Ok(Stmt::Let(rec, bs));
        }
        if self.eat_kw("include") {
            return match self.peek().cloned() {
                Some(Tok::Str(s)) => {
                    self.i += 1;
                    Ok(Stmt::Include(s, pos))
                }
                _ => self.err("expected a file name in quotes after `include`"),
            };
        }
        if self.is_kw("show") || self.is_kw("unshow") {
            self.i += 1;
            let _ = self.expr()?;
            while self.eat_sym(",") {
                let _ = self.expr()?;
            }
            if self.eat_kw("as") {
                self.name_or_kw()?;
            }
            return Ok(Stmt::Show);
        }
        if self.eat_kw("procedure") {
            let name = self.name()?;
            let pat = self.pattern()?;
            self.expect_sym("=")?;
            let body = self.stmts(&["end"])?;
            self.expect_kw("end")?;
            return Ok(Stmt::Procedure(name.to_string(), pat, body));
        }
        if self.eat_kw("call") {
            let name = self.name()?;
            let arg = self.postfix()?;
            let as_name = if self.eat_kw("as") { Some(self.name_or_kw()?) } else { None };
            return Ok(Stmt::Call(name.to_string(), arg, as_name, pos));
        }
        if self.eat_kw("forall") {
            let x = self.name()?;
            self.expect_kw("in")?;
            let e = self.expr()?;
            self.expect_kw("do")?;
            let body = self.stmts(&["end"])?;
            self.expect_kw("end")?;
            return Ok(Stmt::Forall(x, e, body, pos));
        }
        if self.eat_kw("with") {
            let x = self.name()?;
            self.expect_kw("from")?;
            let e = self.expr()?;
            return Ok(Stmt::With(x, e, pos));
        }
        if self.eat_kw("if") {
            let c = self.cond()?;
            let then = self.stmts(&["else", "end"])?;
            let els = if self.eat_kw("else") { self.stmts(&["end"])? } else { Vec::new() };
            self.expect_kw("end")?;
            return Ok(Stmt::IfVariant(c, then, els));
        }
        if self.eat_kw("enum") {
            let name = self.name()?;
            self.expect_sym("=")?;
            let mut tags = Vec::new();
            self.eat_sym("||");
            loop {
                match self.peek().cloned() {
                    Some(Tok::Tag(t)) => {
                        self.i += 1;
                        tags.push(Name::new(&t));
                    }
                    _ => return self.err("expected a tag `'name` in `enum`"),
                }
                if !self.eat_sym("||") {
                    break;
                }
            }
            return Ok(Stmt::Enum(name, tags));
        }
        if self.is_kw("instructions") || self.is_kw("default") {
            self.i += 1;
            let _ = self.expr()?;
            return Ok(Stmt::Instructions);
        }
        if self.is_kw("catdep") {
            self.i += 1;
            self.catdep = true;
            return Ok(Stmt::Show);
        }
        if self.eat_kw("undefined_unless") {
            // herd marks an execution that fails the check as undefined: its flag
            // `*undef*` is raised, whatever the `as` name.
            let Some(c) = self.check_body(true, pos)? else {
                return self.err("expected `acyclic`, `irreflexive` or `empty`");
            };
            return Ok(Stmt::Check(Check { negated: !c.negated, name: Some(crate::query::UNDEF_FLAG.into()), ..c }));
        }
        if self.eat_kw("assert") {
            let Some(c) = self.check_body(true, pos)? else {
                return self.err("expected `acyclic`, `irreflexive` or `empty` after `assert`");
            };
            return Ok(Stmt::Check(Check { assert: true, flag: false, ..c }));
        }
        let flag = self.eat_kw("flag");
        if let Some(c) = self.check_body(flag, pos)? {
            return Ok(Stmt::Check(c));
        }
        if let Some(Tok::Ident(w)) = self.peek()
            && let Some(k) = near_keyword(w)
        {
            return Err(self.unknown_statement(k));
        }
        self.err("expected a statement (`let`, `include`, `acyclic`, `irreflexive`, `empty`, `show`, …)")
    }

    fn name_or_kw(&mut self) -> R<String> {
        match self.peek().cloned() {
            Some(Tok::Ident(s)) => {
                self.i += 1;
                Ok(s)
            }
            _ => self.err("expected a name after `as`"),
        }
    }

    fn check_body(&mut self, flag: bool, pos: Pos) -> R<Option<Check>> {
        let negated = self.eat_sym("~");
        let kind = if self.eat_kw("acyclic") {
            CheckKind::Acyclic
        } else if self.eat_kw("irreflexive") {
            CheckKind::Irreflexive
        } else if self.eat_kw("empty") {
            CheckKind::Empty
        } else {
            if negated || flag {
                return self.err("expected `acyclic`, `irreflexive` or `empty`");
            }
            return Ok(None);
        };
        let expr = self.expr()?;
        let name = if self.eat_kw("as") { Some(self.name_or_kw()?.into()) } else { None };
        Ok(Some(Check { kind, negated, flag, assert: false, expr, name, pos }))
    }

    fn pattern(&mut self) -> R<Pat> {
        if self.eat_sym("(") {
            let mut names = Vec::new();
            if !self.is_sym(")") {
                names.push(self.name()?);
                while self.eat_sym(",") {
                    names.push(self.name()?);
                }
            }
            self.expect_sym(")")?;
            return Ok(if names.len() == 1 { Pat::Var(names.remove(0)) } else { Pat::Tuple(names) });
        }
        Ok(Pat::Var(self.name()?))
    }

    fn bindings(&mut self) -> R<Vec<Binding>> {
        let mut out = Vec::new();
        loop {
            let pos = self.pos();
            if self.is_sym("(") {
                // `let (a, b) = e`: destructure a tuple.
                let pat = self.pattern()?;
                self.expect_sym("=")?;
                let body = self.expr()?;
                out.push(Binding { name: Name::new(TUPLE_BINDING), params: Some(pat), body: Arc::new(body), pos, live: true });
                if !self.eat_kw("and") {
                    return Ok(out);
                }
                continue;
            }
            let name = self.name()?;
            let params = if self.is_sym("=") { None } else { Some(self.pattern()?) };
            // Curried sugar `let f x y = e` is `let f x = fun y -> e`.
            let mut more = Vec::new();
            while !self.is_sym("=") && params.is_some() {
                more.push(self.pattern()?);
            }
            self.expect_sym("=")?;
            let mut body = self.expr()?;
            for p in more.into_iter().rev() {
                body = Expr::Fun(p, Arc::new(body));
            }
            out.push(Binding { name, params, body: Arc::new(body), pos, live: true });
            if !self.eat_kw("and") {
                return Ok(out);
            }
        }
    }

    fn cond(&mut self) -> R<Cond> {
        let a = self.cond_and()?;
        if self.eat_sym("||") {
            let b = self.deeper(0, Self::cond)?;
            return Ok(Cond::Or(Box::new(a), Box::new(b)));
        }
        Ok(a)
    }
    fn cond_and(&mut self) -> R<Cond> {
        let a = self.cond_atom()?;
        if self.eat_sym("&&") {
            let b = self.deeper(0, Self::cond_and)?;
            return Ok(Cond::And(Box::new(a), Box::new(b)));
        }
        Ok(a)
    }
    fn cond_atom(&mut self) -> R<Cond> {
        if self.eat_kw("not") {
            return Ok(Cond::Not(Box::new(self.deeper(0, Self::cond_atom)?)));
        }
        self.eat_kw("variant");
        if let Some(Tok::Str(s)) = self.peek().cloned() {
            self.i += 1;
            return Ok(Cond::Variant(s));
        }
        let open = self.pos();
        if self.eat_sym("(") {
            let c = self.deeper(0, Self::cond)?;
            self.close(open, "(", ")")?;
            return Ok(c);
        }
        let a = self.expr()?;
        if self.eat_sym("=") {
            return Ok(Cond::Eq(a, self.expr()?));
        }
        if self.eat_kw("subset") {
            return Ok(Cond::Subset(a, self.expr()?));
        }
        if self.eat_kw("in") {
            return Ok(Cond::In(a, self.expr()?));
        }
        self.err("expected a condition: a variant string, `e = e`, `e subset e` or `e in e`")
    }

    // ---------- expressions ----------

    fn expr(&mut self) -> R<Expr> {
        self.deeper(0, Self::expr_here)
    }

    fn expr_here(&mut self) -> R<Expr> {
        if self.eat_kw("let") {
            let rec = self.eat_kw("rec");
            let bs = self.bindings()?;
            self.expect_kw("in")?;
            let body = self.expr()?;
            return Ok(Expr::Let(rec, bs, Box::new(body)));
        }
        if self.eat_kw("fun") {
            let p = self.pattern()?;
            self.expect_sym("->")?;
            return Ok(Expr::Fun(p, Arc::new(self.expr()?)));
        }
        if self.eat_kw("try") {
            let a = self.expr()?;
            self.expect_kw("with")?;
            let b = self.expr()?;
            return Ok(Expr::Try(Box::new(a), Box::new(b)));
        }
        if self.eat_kw("if") {
            let c = self.cond()?;
            self.expect_kw("then")?;
            let a = self.expr()?;
            self.expect_kw("else")?;
            let b = self.expr()?;
            return Ok(Expr::If(Box::new(c), Box::new(a), Box::new(b)));
        }
        self.union()
    }

    /// A chain of `sym`, read in a loop, built by [`Expr::chain`]: `\` nests to the left,
    /// the others to the right, as in herd. Each operand is read as deep as the nesting
    /// would put it while the chain is short, so that the depth bound holds on the tree.
    /// A long `a \ b \ c …` is built as `a \ (b | c | …)`, the same set or relation,
    /// as a left-nested chain cannot be balanced.
    fn bin(&mut self, op: Op2, sym: &str, next: fn(&mut Self) -> R<Expr>, nest: Nest) -> R<Expr> {
        let first = next(self)?;
        let mut rest = Vec::new();
        loop {
            let pos = self.pos();
            if !self.eat_sym(sym) {
                break;
            }
            let lift = if op.associative() || nest == Nest::Left { rest.len().min(KEEP_NESTED) } else { rest.len() };
            self.depth += lift;
            let b = self.deeper(0, next);
            self.depth -= lift;
            rest.push((pos, b?));
        }
        if nest == Nest::Left && rest.len() >= KEEP_NESTED {
            let (pos, second) = rest.remove(0);
            let others = Expr::chain(Op2::Union, second, rest, Nest::Right);
            return Ok(Expr::Op2(op, Box::new(first), Box::new(others), pos));
        }
        Ok(Expr::chain(op, first, rest, nest))
    }

    fn union(&mut self) -> R<Expr> {
        self.bin(Op2::Union, "|", Self::add, Nest::Right)
    }
    fn add(&mut self) -> R<Expr> {
        self.bin(Op2::Add, "++", Self::seq, Nest::Right)
    }
    fn seq(&mut self) -> R<Expr> {
        self.bin(Op2::Seq, ";", Self::diff, Nest::Right)
    }
    fn diff(&mut self) -> R<Expr> {
        self.bin(Op2::Diff, "\\", Self::inter, Nest::Left)
    }
    fn inter(&mut self) -> R<Expr> {
        self.bin(Op2::Inter, "&", Self::prod, Nest::Right)
    }
    fn prod(&mut self) -> R<Expr> {
        let a = self.unary()?;
        let pos = self.pos();
        if self.is_sym("*") && self.starts_atom_at(1) {
            self.i += 1;
            let b = self.unary()?;
            return Ok(Expr::Op2(Op2::Prod, Box::new(a), Box::new(b), pos));
        }
        Ok(a)
    }
    fn unary(&mut self) -> R<Expr> {
        if self.eat_sym("~") {
            let e = self.deeper(0, Self::unary)?;
            return Ok(Expr::Op1(Op1::Comp, Box::new(e)));
        }
        self.app()
    }

    fn starts_atom_at(&self, k: usize) -> bool {
        match self.peek_at(k) {
            Some(Tok::Ident(s)) => !KEYWORDS.contains(&s.as_str()),
            Some(Tok::Int(_)) | Some(Tok::Tag(_)) | Some(Tok::Str(_)) => true,
            Some(Tok::Sym(s)) => matches!(*s, "(" | "[" | "{" | "~"),
            None => false,
        }
    }

    fn app(&mut self) -> R<Expr> {
        let mut f = self.postfix()?;
        let mut built = 0;
        while self.starts_atom_at(0) && !self.is_sym("~") && !self.at_stmt_start() && self.typo_at_line_start().is_none() {
            let pos = self.pos();
            built += 1;
            let a = self.deeper(built, Self::postfix)?;
            f = Expr::App(Box::new(f), Box::new(a), pos);
        }
        Ok(f)
    }

    fn postfix(&mut self) -> R<Expr> {
        let mut e = self.atom()?;
        let mut built = 0;
        loop {
            if self.depth + built >= MAX_DEPTH {
                return self.err(format!("nested too deeply (more than {MAX_DEPTH} levels)"));
            }
            built += 1;
            let spaced_inverse = (self.is_sym("^")
                && matches!(self.peek_at(1), Some(Tok::Sym("-")))
                && matches!(self.peek_at(2), Some(Tok::Int(1))))
                || (self.is_sym("-") && matches!(self.peek_at(1), Some(Tok::Int(1))));
            if spaced_inverse {
                // `r ^ -1` and the old `r -1`.
                self.i += if self.is_sym("^") { 3 } else { 2 };
                e = Expr::Op1(Op1::Inv, Box::new(e));
            } else if self.eat_sym("^-1") {
                e = Expr::Op1(Op1::Inv, Box::new(e));
            } else if self.is_sym("*") && !self.starts_atom_at(1) {
                self.i += 1;
                e = Expr::Op1(Op1::Star, Box::new(e));
            } else if self.eat_sym("+") {
                e = Expr::Op1(Op1::Plus, Box::new(e));
            } else if self.eat_sym("?") {
                e = Expr::Op1(Op1::Opt, Box::new(e));
            } else {
                return Ok(e);
            }
        }
    }

    fn atom(&mut self) -> R<Expr> {
        let pos = self.pos();
        match self.peek().cloned() {
            Some(Tok::Int(0)) => {
                self.i += 1;
                Ok(Expr::Empty)
            }
            Some(Tok::Tag(t)) => {
                self.i += 1;
                Ok(Expr::Tag(Name::new(&t)))
            }
            Some(Tok::Str(s)) => {
                self.i += 1;
                Ok(Expr::Str(s))
            }
            Some(Tok::Ident(s)) if s == "match" => {
                self.i += 1;
                self.match_expr(pos)
            }
            Some(Tok::Ident(s)) if !KEYWORDS.contains(&s.as_str()) => {
                self.i += 1;
                Ok(Expr::Var(Name::new(&s), pos))
            }
            Some(Tok::Sym("(")) => {
                self.i += 1;
                if self.eat_sym(")") {
                    return Ok(Expr::Tuple(Vec::new()));
                }
                let e = self.expr()?;
                if self.eat_sym(",") {
                    let mut items = vec![e];
                    items.push(self.expr()?);
                    while self.eat_sym(",") {
                        items.push(self.expr()?);
                    }
                    self.close(pos, "(", ")")?;
                    return Ok(Expr::Tuple(items));
                }
                self.close(pos, "(", ")")?;
                Ok(e)
            }
            Some(Tok::Sym("[")) => {
                self.i += 1;
                let e = self.expr()?;
                self.close(pos, "[", "]")?;
                Ok(Expr::IdSet(Box::new(e)))
            }
            Some(Tok::Sym("{")) => {
                self.i += 1;
                let mut items = Vec::new();
                if !self.is_sym("}") {
                    items.push(self.expr()?);
                    while self.eat_sym(",") {
                        items.push(self.expr()?);
                    }
                }
                self.close(pos, "{", "}")?;
                Ok(Expr::SetLit(items))
            }
            _ => self.err("expected an expression"),
        }
    }

    fn match_expr(&mut self, pos: Pos) -> R<Expr> {
        let e = self.expr()?;
        self.expect_kw("with")?;
        let mut arms = Vec::new();
        self.eat_sym("||");
        loop {
            let pat = match self.peek().cloned() {
                Some(Tok::Tag(t)) => {
                    self.i += 1;
                    ArmPat::Tag(Name::new(&t))
                }
                Some(Tok::Sym("{")) => {
                    self.i += 1;
                    self.expect_sym("}")?;
                    ArmPat::EmptySet
                }
                Some(Tok::Ident(s)) if s == "_" => {
                    self.i += 1;
                    ArmPat::Wild
                }
                Some(Tok::Ident(_)) => {
                    let x = self.name()?;
                    self.expect_sym("++")?;
                    let rest = self.name()?;
                    ArmPat::Cons(x, rest)
                }
                _ => return self.err("expected a match pattern"),
            };
            self.expect_sym("->")?;
            let body = self.expr()?;
            arms.push(Arm { pat, body });
            if !self.eat_sym("||") {
                break;
            }
        }
        self.expect_kw("end")?;
        Ok(Expr::Match(Box::new(e), arms, pos))
    }
}

pub fn parse_model(file: &str, text: &str) -> R<Model> {
    let toks = lex(file, text)?;
    let mut p = P { file, text, toks, i: 0, depth: 0, catdep: false };
    let mut header = Vec::new();
    while !p.at_stmt_start() {
        if !header.is_empty()
            && let Some(k) = p.typo_at_line_start()
        {
            return Err(p.unknown_statement(k));
        }
        match p.peek().cloned() {
            Some(Tok::Ident(s)) | Some(Tok::Str(s)) => {
                header.push(s);
                p.i += 1;
            }
            _ => return p.err("expected a model name or a statement"),
        }
    }
    let stmts = p.stmts(&[])?;
    let binds = super::binders::names(&stmts);
    Ok(Model { header, stmts, binds, catdep: p.catdep })
}
