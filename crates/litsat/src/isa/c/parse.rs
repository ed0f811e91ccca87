//! A recursive-descent parser for herd's C dialect, over the tokens of [`super::lex`].

use super::ast::*;
use super::lex::{Lexer, Tok};
use crate::diag::{Diag, Pos};
use crate::isa::BinOp;

/// How deeply expressions and statements may nest before the parser refuses.
const MAX_DEPTH: usize = 200;

/// A parser of one text (a thread or a macro), reading its tokens as it goes.
///
/// Whether the text lexes is only known once it is read to the end, yet a text that
/// does not lex is reported so whatever else is wrong with it: a failure reports the
/// first place the rest of the text stops lexing, if there is one, before its own.
pub struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The next two tokens (`None` past the end of the text, or where it stops lexing).
    ahead: [Option<(Tok<'a>, Pos)>; 2],
    file: &'a str,
    source: &'a str,
    /// Which file of the front end's file table the tokens come from (see [`Call::file`]).
    file_id: usize,
    /// Offset of the end of the text, for errors at the end.
    end: Pos,
    depth: usize,
}

/// A parse result. The failure is boxed: every node is returned through several levels
/// of the descent, and a large failure type made each return a large copy.
pub type R<T> = Result<T, Box<Diag>>;

/// A parse result as the rest of the front end takes it.
pub fn unboxed<T>(r: R<T>) -> Result<T, Diag> {
    r.map_err(|e| *e)
}

/// Words that start a type: a statement that begins with one is a declaration, and a
/// parenthesis that holds one is a cast. Exactly the type words of herd's C lexer: it
/// reads any other word (`int128_t`, `unsigned`, `u8`) as a name, and refuses the test
/// where a type is due.
fn is_type_word(s: &str) -> bool {
    matches!(
        s,
        "int"
            | "long"
            | "char"
            | "volatile"
            | "const"
            | "void"
            | "struct"
            | "_Atomic"
            | "atomic"
            | "atomic_int"
            | "srcu_struct"
            | "int8_t"
            | "uint8_t"
            | "int16_t"
            | "uint16_t"
            | "int32_t"
            | "uint32_t"
            | "int64_t"
            | "uint64_t"
            | "__int128_t"
            | "__uint128_t"
            | "__int128"
            | "__uint128"
            | "intptr_t"
            | "uintptr_t"
            | "mtx_t"
            | "spinlock_t"
            | "atomic_t"
    )
}

impl<'a> Parser<'a> {
    /// A parser of `text`, which starts at offset `base` of file `file_id`, named `file`,
    /// whose text is `source`.
    pub fn new(text: &'a str, base: usize, file: &'a str, source: &'a str, file_id: usize) -> Parser<'a> {
        let mut lexer = Lexer::new(text, base);
        let ahead = [lexer.next_token(), lexer.next_token()];
        Parser { lexer, ahead, file, source, file_id, end: Pos(base + text.len()), depth: 0 }
    }

    /// Takes the next token.
    fn bump(&mut self) {
        self.ahead = [self.ahead[1], self.lexer.next_token()];
    }

    /// The text ends here, and lexes: else, a failure saying `what` is after the end.
    pub fn finish(&self, what: &str) -> R<()> {
        if self.done() { self.lex_error().map_or(Ok(()), |e| Err(Box::new(e))) } else { self.err(what) }
    }

    fn done(&self) -> bool {
        self.ahead[0].is_none()
    }

    /// The first place the text stops lexing, from the tokens not taken yet on.
    fn lex_error(&self) -> Option<Diag> {
        let e = self.lexer.clone().error()?;
        Some(Diag::at(self.file, self.source, e.pos, e.msg))
    }

    fn pos(&self) -> Pos {
        self.ahead[0].map_or(self.end, |t| t.1)
    }

    pub fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        self.err_at(self.pos(), msg)
    }

    /// A failure at `pos`, unless the text stops lexing somewhere: that failure first.
    fn err_at<T>(&self, pos: Pos, msg: impl Into<String>) -> R<T> {
        Err(Box::new(self.lex_error().unwrap_or_else(|| Diag::at(self.file, self.source, pos, msg))))
    }

    fn peek(&self) -> Option<Tok<'a>> {
        self.peek_at(0)
    }

    /// The token `k` ahead of the next (`k` is 0 or 1).
    fn peek_at(&self, k: usize) -> Option<Tok<'a>> {
        self.ahead[k].map(|t| t.0)
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(x)) if short_eq(x, s))
    }

    pub fn peek_sym(&self, s: &str) -> bool {
        self.is_sym(s)
    }

    pub fn eat_sym(&mut self, s: &str) -> bool {
        self.eat(s)
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, s: &str) -> R<()> {
        if self.eat(s) { Ok(()) } else { self.err(format!("expected `{s}`{}", self.found())) }
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(Tok::Ident(x)) => format!(", found `{x}`"),
            Some(Tok::Int(i)) => format!(", found `{i}`"),
            Some(Tok::Sym(s)) => format!(", found `{s}`"),
            None => ", found the end of the text".to_string(),
        }
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(x)) if short_eq(x, w))
    }

    pub fn ident(&mut self) -> R<(&'a str, Pos)> {
        match self.peek() {
            Some(Tok::Ident(x)) => {
                let r = (x, self.pos());
                self.bump();
                Ok(r)
            }
            _ => self.err(format!("expected a name{}", self.found())),
        }
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        if self.depth >= MAX_DEPTH {
            return self.err(format!("nested too deeply (more than {MAX_DEPTH} levels)"));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Skips a type: words, `struct NAME`, and pointer stars. Returns how many stars.
    pub fn skip_type(&mut self) -> R<usize> {
        let mut any = false;
        while let Some(Tok::Ident(w)) = self.peek() {
            if !is_type_word(w) {
                break;
            }
            let is_struct = w == "struct";
            self.bump();
            any = true;
            if is_struct {
                self.ident()?;
            }
        }
        if !any {
            return self.err(format!("expected a type{}", self.found()));
        }
        let mut stars = 0;
        while self.eat("*") {
            stars += 1;
            while self.is_word("volatile") || self.is_word("const") {
                self.bump();
            }
        }
        Ok(stars)
    }

    fn starts_decl(&self) -> bool {
        matches!(self.peek(), Some(Tok::Ident(w)) if is_type_word(w))
            && !matches!(self.peek_at(1), Some(Tok::Sym("(")) | Some(Tok::Sym("=")))
    }

    /// `{ stmt* }`
    pub fn block(&mut self) -> R<Vec<Stmt<'a>>> {
        self.expect("{")?;
        let mut out = Vec::new();
        while !self.eat("}") {
            if self.done() {
                return self.err("expected `}` closing the block");
            }
            self.stmt(&mut out)?;
        }
        Ok(out)
    }

    /// One statement (a declaration may give several).
    pub fn stmt(&mut self, out: &mut Vec<Stmt<'a>>) -> R<()> {
        self.nested(|p| p.stmt_here(out))
    }

    fn stmt_here(&mut self, out: &mut Vec<Stmt<'a>>) -> R<()> {
        let pos = self.pos();
        if self.eat(";") {
            return Ok(());
        }
        if self.is_sym("{") {
            out.push(Stmt::Block(self.block()?));
            return Ok(());
        }
        if self.is_word("if") {
            self.bump();
            self.expect("(")?;
            let c = self.expr()?;
            self.expect(")")?;
            let then = self.branch()?;
            let els = if self.is_word("else") {
                self.bump();
                self.branch()?
            } else {
                Vec::new()
            };
            out.push(Stmt::If(c, then, els, pos));
            return Ok(());
        }
        if self.is_word("while") {
            self.bump();
            self.expect("(")?;
            let c = self.expr()?;
            self.expect(")")?;
            let body = self.branch()?;
            out.push(Stmt::While(c, body, pos));
            return Ok(());
        }
        if self.is_word("for") || self.is_word("do") || self.is_word("goto") {
            return self.err("unsupported: loops other than `while`");
        }
        if self.starts_decl() {
            return self.decl(out);
        }
        let lhs = self.expr()?;
        if self.eat("=") {
            let rhs = self.expr()?;
            self.expect(";")?;
            out.push(Stmt::Assign(lhs, rhs, pos));
        } else {
            if !self.is_sym(";") {
                return self.err(format!("expected `;` or `=` after an expression{}", self.found()));
            }
            self.bump();
            out.push(Stmt::Expr(lhs, pos));
        }
        Ok(())
    }

    fn branch(&mut self) -> R<Vec<Stmt<'a>>> {
        let mut v = Vec::new();
        self.stmt(&mut v)?;
        Ok(v)
    }

    fn decl(&mut self, out: &mut Vec<Stmt<'a>>) -> R<()> {
        self.skip_type()?;
        loop {
            while self.eat("*") {}
            let (name, pos) = self.ident()?;
            let init = if self.eat("=") { Some(self.expr()?) } else { None };
            out.push(Stmt::Decl(name, init, pos));
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";")
    }

    pub fn expr(&mut self) -> R<Expr<'a>> {
        self.nested(|p| p.ternary())
    }

    fn ternary(&mut self) -> R<Expr<'a>> {
        let c = self.binary(0)?;
        if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    /// Binary operators binding at least as tightly as precedence `min` (see [`level`]),
    /// by precedence climbing: each operator's right operand takes only tighter ones, so
    /// that all associate to the left. The operators read here are one left-nested
    /// sequence, built flat as a [`Chain`] where there are two or more: its length costs
    /// neither this parser nor the passes after it any stack.
    fn binary(&mut self, min: usize) -> R<Expr<'a>> {
        let first = self.unary()?;
        let mut rest = Vec::new();
        while let Some(Tok::Sym(s)) = self.peek()
            && let Some(l) = level(s)
            && l >= min
        {
            let pos = self.pos();
            self.bump();
            let rhs = self.nested(|p| p.binary(l + 1))?;
            rest.push(match s {
                "||" => (Infix::Logic(false), rhs),
                "&&" => (Infix::Logic(true), rhs),
                "&~" => (Infix::Bin(BinOp::And), Expr::BitNot(Box::new(rhs))),
                _ => match bin_op(s) {
                    Some(op) => (Infix::Bin(op), rhs),
                    None => return self.err_at(pos, format!("unsupported: operator `{s}`")),
                },
            });
        }
        Ok(match rest.len() {
            0 => first,
            1 => {
                let (op, rhs) = rest.swap_remove(0);
                op.node(first, rhs)
            }
            _ => Expr::Chain(Box::new(Chain { first, rest })),
        })
    }

    fn unary(&mut self) -> R<Expr<'a>> {
        let pos = self.pos();
        if self.eat("*") {
            let e = self.nested(|p| p.unary())?;
            return Ok(Expr::Deref(Box::new(e), pos));
        }
        if self.eat("&") {
            let e = self.nested(|p| p.unary())?;
            return Ok(Expr::AddrOf(Box::new(e), pos));
        }
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.nested(|p| p.unary())?)));
        }
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.nested(|p| p.unary())?)));
        }
        if self.eat("~") {
            return Ok(Expr::BitNot(Box::new(self.nested(|p| p.unary())?)));
        }
        if self.is_sym("(") && matches!(self.peek_at(1), Some(Tok::Ident(w)) if is_type_word(w)) {
            self.bump();
            self.skip_type()?;
            self.expect(")")?;
            return self.nested(|p| p.unary());
        }
        self.primary()
    }

    fn primary(&mut self) -> R<Expr<'a>> {
        let pos = self.pos();
        match self.peek() {
            Some(Tok::Int(i)) => {
                self.bump();
                Ok(Expr::Int(i))
            }
            Some(Tok::Ident(name)) => {
                self.bump();
                if self.is_sym("(") || (name.starts_with("__") && self.is_sym("{")) {
                    return self.call(name, pos);
                }
                Ok(Expr::Var(name, pos))
            }
            Some(Tok::Sym("(")) => {
                self.bump();
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            _ => self.err(format!("expected an expression{}", self.found())),
        }
    }

    fn call(&mut self, name: &'a str, pos: Pos) -> R<Expr<'a>> {
        let tag = if self.is_sym("{") { Some(self.tag()?) } else { None };
        let mut args = Vec::new();
        // `__fence{MB}` takes no argument list.
        if self.eat("(") && !self.eat(")") {
            loop {
                args.push(self.arg()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        Ok(Expr::Call(Box::new(Call { name, tag, args, pos, file: self.file_id })))
    }

    /// `{ONCE}`, `{rcu-lock}`: the tokens between braces, glued back together.
    fn tag(&mut self) -> R<String> {
        self.expect("{")?;
        let mut s = String::new();
        while !self.eat("}") {
            match self.peek() {
                Some(Tok::Ident(x)) => s.push_str(x),
                Some(Tok::Sym("-")) => s.push('-'),
                Some(Tok::Int(i)) => s.push_str(&i.to_string()),
                _ => return self.err(format!("expected an annotation name or `}}`{}", self.found())),
            }
            self.bump();
        }
        Ok(s)
    }

    fn arg(&mut self) -> R<Arg<'a>> {
        if let Some(Tok::Sym(s)) = self.peek()
            && matches!(self.peek_at(1), Some(Tok::Sym(",")) | Some(Tok::Sym(")")))
        {
            let r = Arg::Op(s, self.pos());
            self.bump();
            return Ok(r);
        }
        Ok(Arg::Expr(self.expr()?))
    }
}

/// Whether two short strings (punctuators, keywords) are equal, compared byte by byte in
/// place: the parser asks this for nearly every token, and a call to `memcmp` costs more.
fn short_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// The precedence of a binary operator, as in C: 0 binds loosest.
fn level(s: &str) -> Option<usize> {
    Some(match s {
        "||" => 0,
        "&&" => 1,
        "|" => 2,
        "^" => 3,
        "&" | "&~" => 4,
        "==" | "!=" => 5,
        "<" | "<=" | ">" | ">=" => 6,
        "<<" | ">>" => 7,
        "+" | "-" => 8,
        "*" | "/" | "%" => 9,
        _ => return None,
    })
}

/// The op of a C binary operator.
pub fn bin_op(s: &str) -> Option<BinOp> {
    Some(match s {
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "*" => BinOp::Mul,
        "&" => BinOp::And,
        "|" => BinOp::Or,
        "^" => BinOp::Xor,
        "<<" => BinOp::Shl,
        ">>" => BinOp::Shr,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        _ => return None,
    })
}
