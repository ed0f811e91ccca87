//! herd's C dialect as a plug-in: thread functions `P0(int *x) { … }` are parsed, their
//! macro calls expanded with the model's `.def` file, and lowered to the op language.
//!
//! Unlike the ISAs, a C thread is one body rather than a column of instructions, so the
//! plug-in lowers whole threads ([`Isa::lower`]).

mod ast;
mod herdvars;
mod lex;
mod lower;
mod macros;
mod parse;
mod prims;

use super::{InstrError, Isa, Op, Reg};
use crate::diag::{Diag, Pos};
use crate::events::{Instr, SourceRef};
use crate::litmus::{Loc, Test, Val};
use lower::{Files, Lower};
use std::collections::BTreeSet;

pub struct C;

/// Sets herd gives C events beyond the annotations: read-modify-writes, lock events, and
/// C11's atomic accesses (`A`, `NA`) and memory orders. `LK` and `LS` are C11 mutexes'
/// (`c11_los.cat`), which litsat does not build yet: they stay empty.
const SETS: &[&str] = &[
    "RMW", "X", "LKR", "LKW", "UL", "LF", "RL", "RU", "LK", "LS", "A", "NA", "RLX", "CON", "ACQ", "REL", "ACQ_REL",
    "SC",
];

impl Isa for C {
    /// herd's C values are 32-bit (`Int32Value`), 128-bit under `-variant S128`, where
    /// litsat keeps its 64 bits.
    fn scalar_bits(&self, variants: &[String]) -> u32 {
        if crate::variant::holds(variants, "s128") { 64 } else { 32 }
    }
    /// herd's default for C is `c11_partialSC.cat`, which the bundled `c11` restates.
    fn default_model(&self) -> Option<&'static str> {
        Some("c11")
    }
    fn name(&self) -> &'static str {
        "C"
    }
    fn parse(&self, instr: &str) -> Result<Vec<Op>, InstrError> {
        Err(InstrError::unsupported(instr))
    }
    fn canonical_reg(&self, r: &str) -> Option<Reg> {
        let ok = r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && r.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        ok.then(|| r.to_string())
    }
    fn reg_index(&self, _r: &str) -> usize {
        0
    }
    fn rmw_in_po(&self) -> bool {
        true
    }
    fn known_sets(&self) -> &'static [&'static str] {
        SETS
    }
    fn co_from_model(&self) -> bool {
        true
    }
    fn herd_vars(
        &self,
        test: &Test,
        src: &SourceRef<'_>,
        macros: Option<(&str, &str)>,
    ) -> Option<crate::events::HerdVars> {
        let (def_name, def_text) = macros.unwrap_or(("<no macros>", ""));
        let macros = macros::parse_defs_once(def_name, def_text, 1).ok()?;
        let mut threads = Vec::new();
        for th in &test.threads {
            let cell = th.cells.first()?;
            let (_, body) = parse_thread(src, &cell.text, cell.pos).ok()?;
            threads.push((th.id, body));
        }
        herdvars::number(&macros, &threads)
    }
    fn check_threads(&self, test: &Test, src: &SourceRef<'_>) -> Option<Result<(), Diag>> {
        let syntax = |th: &crate::litmus::ThreadCode| match th.cells.first() {
            Some(cell) => parse_thread(src, &cell.text, cell.pos).map(drop),
            None => Ok(()),
        };
        Some(test.threads.iter().try_for_each(syntax))
    }
    fn lower(
        &self,
        test: &Test,
        src: &SourceRef<'_>,
        macros: Option<(&str, &str)>,
        unroll: usize,
    ) -> Option<Result<Vec<Vec<Instr>>, Diag>> {
        Some(lower_test(test, src, macros, unroll))
    }
}

fn lower_test(
    test: &Test,
    src: &SourceRef<'_>,
    defs: Option<(&str, &str)>,
    unroll: usize,
) -> Result<Vec<Vec<Instr>>, Diag> {
    let (def_name, def_text) = defs.unwrap_or(("<no macros>", ""));
    let macros = macros::parse_defs_once(def_name, def_text, 1)?;
    let files = Files { names: vec![src.file, def_name], texts: vec![src.text, def_text] };
    let mut shared: BTreeSet<&str> = BTreeSet::new();
    for it in &test.init {
        if let Loc::Mem(x) = &it.loc {
            shared.insert(x);
        }
        if let Val::Sym(s) = &it.value {
            shared.insert(s);
        }
    }
    let mut code = Vec::new();
    let mut parsed = Vec::new();
    for th in &test.threads {
        let cell = th.cells.first().ok_or_else(|| Diag::file(src.file, "a C thread without a body"))?;
        let (params, body) = parse_thread(src, &cell.text, cell.pos)?;
        shared.extend(params);
        parsed.push(body);
    }
    let v1 = !crate::variant::holds(&test.variants, "lkmmv2");
    for body in parsed {
        let mut l = Lower::new(&files, &macros, &shared, unroll).under_lkmm_v1(v1);
        l.stmts(&body, true)?;
        code.push(l.finish());
    }
    Ok(code)
}

/// `P0(int *x, spinlock_t *l) { … }`: the parameters' names and the body.
fn parse_thread<'a>(src: &SourceRef<'a>, text: &'a str, pos: Pos) -> Result<(Vec<&'a str>, Vec<ast::Stmt<'a>>), Diag> {
    parse::unboxed(thread_of(&mut parse::Parser::new(text, pos.0, src.file, src.text, 0)))
}

/// [`parse_thread`] in the parser's own result type.
fn thread_of<'a>(p: &mut parse::Parser<'a>) -> parse::R<(Vec<&'a str>, Vec<ast::Stmt<'a>>)> {
    p.ident()?;
    p.expect("(")?;
    let mut params = Vec::new();
    if !p.eat_sym(")") {
        loop {
            p.skip_type()?;
            params.push(p.ident()?.0);
            if p.eat_sym(")") {
                break;
            }
            p.expect(",")?;
        }
    }
    let body = p.block()?;
    p.finish("unexpected text after the thread's body")?;
    Ok((params, body))
}
