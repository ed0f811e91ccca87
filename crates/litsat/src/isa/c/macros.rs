//! herd's `.def` macro files: `READ_ONCE(X) __load{ONCE}(X)` (an expression) and
//! `WRITE_ONCE(X,V) { __store{ONCE}(X,V); }` (statements).

use super::ast::{Expr, Stmt};
use super::parse::Parser;
use crate::diag::Diag;
use std::cell::RefCell;
use crate::logic::Fx;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

#[derive(Clone, Debug)]
pub enum Body {
    Expr(Expr<'static>),
    Stmts(Vec<Stmt<'static>>),
}

#[derive(Clone, Debug)]
pub struct Macro {
    pub params: Vec<&'static str>,
    pub body: Body,
}

/// Macros by name, hashed with [`Fx`]: every call of a C thread is looked up.
pub type Macros = HashMap<&'static str, Macro, BuildHasherDefault<Fx>>;

/// A parsed file with what it was parsed from: its name, text and file id.
type Parsed = (&'static str, &'static str, usize, Result<Rc<Macros>, Diag>);

thread_local! {
    /// The files parsed so far on this thread: a corpus run reads the same `.def` file for
    /// every test. A list searched by comparison, as a run has one or two of them and a
    /// hashed key would copy and hash the whole text on every look-up. Each name and
    /// text is kept for the process (leaked, once per file and thread), so that the
    /// macros' names borrow it.
    static PARSED: RefCell<Vec<Parsed>> = RefCell::default();
}

/// [`parse_defs`], once per file: its failure too, so that a file is kept once.
pub fn parse_defs_once(file: &str, text: &str, file_id: usize) -> Result<Rc<Macros>, Diag> {
    let known = PARSED.with(|p| {
        p.borrow().iter().find(|(f, t, id, _)| (*f, *t, *id) == (file, text, file_id)).map(|e| e.3.clone())
    });
    if let Some(m) = known {
        return m;
    }
    let (file, text): (&'static str, &'static str) = (Box::leak(file.into()), Box::leak(text.into()));
    let m = parse_defs(file, text, file_id).map(Rc::new);
    PARSED.with(|p| p.borrow_mut().push((file, text, file_id, m.clone())));
    m
}

/// Parses a `.def` file. `file_id` is its index in the front end's file table.
pub fn parse_defs(file: &'static str, text: &'static str, file_id: usize) -> Result<Macros, Diag> {
    let mut out = Macros::default();
    let mut off = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut k = 0;
    while k < lines.len() {
        let line = lines[k];
        let start = off;
        off += line.len();
        k += 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        // A statement macro's braces may span lines: take lines until they balance.
        let mut end = off;
        while depth(&text[start..end]) > 0 && k < lines.len() {
            end += lines[k].len();
            off = end;
            k += 1;
        }
        let (name, m) = parse_one(file, text, start, end, file_id)?;
        out.insert(name, m);
    }
    Ok(out)
}

fn depth(s: &str) -> i32 {
    let code = s.split("//").next().unwrap_or("");
    code.matches('{').count() as i32 - code.matches('}').count() as i32
}

fn parse_one(
    file: &'static str,
    text: &'static str,
    start: usize,
    end: usize,
    file_id: usize,
) -> Result<(&'static str, Macro), Diag> {
    super::parse::unboxed(macro_of(&mut Parser::new(&text[start..end], start, file, text, file_id)))
}

/// One macro, in the parser's own result type.
fn macro_of(p: &mut Parser<'static>) -> super::parse::R<(&'static str, Macro)> {
    let (name, _) = p.ident()?;
    let mut params = Vec::new();
    p.expect("(")?;
    if !p.eat_sym(")") {
        loop {
            params.push(p.ident()?.0);
            if p.eat_sym(")") {
                break;
            }
            p.expect(",")?;
        }
    }
    let body = if p.peek_sym("{") {
        let b = p.block()?;
        Body::Stmts(b)
    } else {
        Body::Expr(p.expr()?)
    };
    p.finish("unexpected text after the macro's body")?;
    Ok((name, Macro { params, body }))
}
