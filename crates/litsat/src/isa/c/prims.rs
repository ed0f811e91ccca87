//! herd's C primitives, the targets of `.def` macros (`__load{ONCE}(X)`, `__xchg{MB}(X,V)`,
//! `__lock(X)`, …). The `{…}` annotation becomes the events' tag, hence their sets.

use super::ast::Call;
use super::lower::{Lower, plain_tags};
use crate::diag::Diag;
use crate::isa::{Addr, BinOp, Cond, LockOp, Op, Reg, Src, Tag};

/// Tags of the events of a read-modify-write primitive: its annotation, herd's `RMW` set
/// and `X`, which the standard library's `amo` pairs.
fn rmw_tags(c: &Call) -> Vec<Tag> {
    with_rmw(tags(c))
}

fn with_rmw(mut t: Vec<Tag>) -> Vec<Tag> {
    t.reserve_exact(2);
    t.extend(["RMW".into(), "X".into()]);
    t
}

fn tags(c: &Call) -> Vec<Tag> {
    c.tag.iter().map(|t| Tag::from(t.clone())).collect()
}

fn atomic_op(op: &str) -> Option<BinOp> {
    super::parse::bin_op(op).filter(|o| matches!(o, BinOp::Add | BinOp::Sub | BinOp::And | BinOp::Or | BinOp::Xor))
}

/// The memory orders a C11 access may take, by kind, and herd's set for each.
const ORDERS: &[(&str, &str)] = &[
    ("memory_order_relaxed", "RLX"),
    ("memory_order_consume", "CON"),
    ("memory_order_acquire", "ACQ"),
    ("memory_order_release", "REL"),
    ("memory_order_acq_rel", "ACQ_REL"),
    ("memory_order_seq_cst", "SC"),
];
const ANY_ORDER: &[&str] = &["RLX", "CON", "ACQ", "REL", "ACQ_REL", "SC"];
const LOAD_ORDERS: &[&str] = &["RLX", "CON", "ACQ", "SC"];
const STORE_ORDERS: &[&str] = &["RLX", "REL", "SC"];

/// C11's names without `_explicit`, which herd knows only as `c11.def` macros.
const C11_MACROS: &[&str] = &["atomic_fetch_", "atomic_exchange", "atomic_load", "atomic_store"];

/// Tags of a C11 atomic access with memory order `order`.
fn atomic_tags(order: &'static str) -> Vec<Tag> {
    vec!["A".into(), order.into()]
}

/// `old = *addr; *addr = new` as the ops of one instruction whose events carry `tags`,
/// where `between` computes `new` from `old` (nothing for an exchange).
fn read_modify_write(addr: Addr, tags: Vec<Tag>, old: &Reg, between: Vec<Op>, new: Src) -> Vec<Op> {
    let mut all = vec![Op::Load { dst: old.clone(), addr: addr.clone(), tags: tags.clone() }];
    all.extend(between);
    all.push(Op::Store { addr, src: new, tags, when: None });
    all
}

/// A load of `addr` into a new register, as one instruction: its value.
fn load(l: &mut Lower<'_>, addr: Addr, tags: Vec<Tag>, text: String) -> Src {
    let dst = l.fresh();
    l.push(vec![Op::Load { dst: dst.clone(), addr, tags }], text);
    Src::Reg(dst)
}

/// A store of `v` to `addr`, as one instruction.
fn store(l: &mut Lower<'_>, addr: Addr, v: Src, tags: Vec<Tag>, text: String) {
    l.push(vec![Op::Store { addr, src: v, tags, when: None }], text);
}

/// Lowers primitive `c`, returning its value when it has one.
pub fn lower(l: &mut Lower<'_>, c: &Call) -> Result<Option<Src>, Diag> {
    let text = match &c.tag {
        Some(t) => [c.name, "{", t, "}"].concat(),
        None => c.name.to_string(),
    };
    Ok(match c.name {
        "__load" => {
            l.arity(c, 1)?;
            let addr = l.arg_lvalue(c, 0)?;
            Some(load(l, addr, tags(c), text))
        }
        "__store" => {
            l.arity(c, 2)?;
            let v = l.arg_value(c, 1)?;
            let addr = l.arg_lvalue(c, 0)?;
            store(l, addr, v, tags(c), text);
            None
        }
        "__fence" => {
            l.arity(c, 0)?;
            l.push(vec![Op::Fence { tags: tags(c) }], text);
            None
        }
        "__srcu" => {
            l.arity(c, 1)?;
            let addr = l.arg_pointer(c, 0)?;
            l.push(vec![Op::Marker { addr, tags: tags(c) }], text);
            None
        }
        "__xchg" => {
            l.arity(c, 2)?;
            let addr = l.arg_pointer(c, 0)?;
            let v = l.arg_value(c, 1)?;
            let old = l.fresh();
            l.push(read_modify_write(addr, rmw_tags(c), &old, vec![], v), text);
            Some(Src::Reg(old))
        }
        "__cmpxchg" => {
            l.arity(c, 3)?;
            let addr = l.arg_pointer(c, 0)?;
            let expected = l.arg_value(c, 1)?;
            let new = l.arg_value(c, 2)?;
            let old = l.fresh();
            let t = rmw_tags(c);
            let when = Some(Cond { op: BinOp::Eq, a: Src::Reg(old.clone()), b: expected });
            let load = Op::Load { dst: old.clone(), addr: addr.clone(), tags: t.clone() };
            l.push(vec![load, Op::Store { addr, src: new, tags: t, when }], text);
            Some(Src::Reg(old))
        }
        "__atomic_op" | "__atomic_op_return" | "__atomic_fetch_op" => {
            l.arity(c, 3)?;
            let addr = l.arg_pointer(c, 0)?;
            let op = l.arg_op(c, 1)?;
            let v = l.arg_value(c, 2)?;
            let (old, new) = (l.fresh(), l.fresh());
            let mut ops = Vec::new();
            if op == "&~" {
                let inv = l.fresh();
                ops.push(Op::Bin { dst: inv.clone(), op: BinOp::Xor, a: v, b: Src::Imm(-1) });
                ops.push(Op::Bin { dst: new.clone(), op: BinOp::And, a: Src::Reg(old.clone()), b: Src::Reg(inv) });
            } else {
                let Some(bop) = atomic_op(&op) else {
                    return Err(l.unknown_op(c, &op));
                };
                ops.push(Op::Bin { dst: new.clone(), op: bop, a: Src::Reg(old.clone()), b: v });
            }
            l.push(read_modify_write(addr, rmw_tags(c), &old, ops, Src::Reg(new.clone())), text);
            match c.name {
                "__atomic_op_return" => Some(Src::Reg(new)),
                "__atomic_fetch_op" => Some(Src::Reg(old)),
                _ => None,
            }
        }
        "__atomic_add_unless" => {
            l.arity(c, 3)?;
            let addr = l.arg_pointer(c, 0)?;
            let v = l.arg_value(c, 1)?;
            let u = l.arg_value(c, 2)?;
            let (old, new, did) = (l.fresh(), l.fresh(), l.fresh());
            let t = rmw_tags(c);
            let when = Some(Cond { op: BinOp::Ne, a: Src::Reg(old.clone()), b: u.clone() });
            let ops = vec![
                Op::Load { dst: old.clone(), addr: addr.clone(), tags: t.clone() },
                Op::Bin { dst: did.clone(), op: BinOp::Ne, a: Src::Reg(old.clone()), b: u },
                Op::Bin { dst: new.clone(), op: BinOp::Add, a: Src::Reg(old), b: v },
                Op::Store { addr, src: Src::Reg(new), tags: t, when },
            ];
            l.push(ops, text);
            Some(Src::Reg(did))
        }
        "atomic_load_explicit" => {
            l.arity(c, 2)?;
            let order = l.arg_order(c, 1, LOAD_ORDERS)?;
            let addr = l.arg_pointer(c, 0)?;
            Some(load(l, addr, atomic_tags(order), text))
        }
        "atomic_store_explicit" => {
            l.arity(c, 3)?;
            let order = l.arg_order(c, 2, STORE_ORDERS)?;
            let v = l.arg_value(c, 1)?;
            let addr = l.arg_pointer(c, 0)?;
            store(l, addr, v, atomic_tags(order), text);
            None
        }
        "atomic_thread_fence" => {
            l.arity(c, 1)?;
            let order = l.arg_order(c, 0, ANY_ORDER)?;
            l.push(vec![Op::Fence { tags: vec![order.into()] }], text);
            None
        }
        "__lock" | "__unlock" | "__trylock" | "__islocked" => {
            l.arity(c, 1)?;
            let addr = l.arg_pointer(c, 0)?;
            let (op, dst) = match c.name {
                "__lock" => (LockOp::Acquire, None),
                "__unlock" => (LockOp::Release, None),
                "__trylock" => (LockOp::Try, Some(l.fresh())),
                _ => (LockOp::IsLocked, Some(l.fresh())),
            };
            l.lock(addr, op, dst.clone(), &text);
            dst.map(Src::Reg)
        }
        "atomic_fetch_add_explicit"
        | "atomic_fetch_sub_explicit"
        | "atomic_fetch_and_explicit"
        | "atomic_fetch_or_explicit"
        | "atomic_fetch_xor_explicit"
        | "atomic_exchange_explicit" => {
            l.arity(c, 3)?;
            let order = l.arg_order(c, 2, ANY_ORDER)?;
            let addr = l.arg_pointer(c, 0)?;
            let v = l.arg_value(c, 1)?;
            let old = l.fresh();
            let mut ops = Vec::new();
            let new = match c.name {
                "atomic_exchange_explicit" => v,
                name => {
                    let op = match &name["atomic_fetch_".len()..name.len() - "_explicit".len()] {
                        "add" => BinOp::Add,
                        "sub" => BinOp::Sub,
                        "and" => BinOp::And,
                        "or" => BinOp::Or,
                        _ => BinOp::Xor,
                    };
                    let new = l.fresh();
                    ops.push(Op::Bin { dst: new.clone(), op, a: Src::Reg(old.clone()), b: v });
                    Src::Reg(new)
                }
            };
            // herd's C11 update is one event: the pair is marked so.
            let mut all = read_modify_write(addr, with_rmw(atomic_tags(order)), &old, ops, new);
            all.push(Op::OneEvent);
            l.push(all, text);
            Some(Src::Reg(old))
        }
        "atomic_compare_exchange_strong_explicit"
        | "atomic_compare_exchange_strong"
        | "atomic_compare_exchange_weak_explicit"
        | "atomic_compare_exchange_weak" => Some(compare_exchange(l, c, &text)?),
        name if C11_MACROS.iter().any(|p| name.starts_with(p)) => {
            let why = "a macro of herd's c11.def: check under the model c11 or rc11, or the cfg cpp11.cfg";
            return Err(l.call_err(c, format!("unknown macro or primitive `{name}` ({why})")));
        }
        _ => return Err(l.unknown(c)),
    })
}

/// C11's compare-and-exchange, as herd builds it: a plain read of `*expected`; then
/// either the read-modify-write with the success order, which reads that value, or an
/// atomic read with the failure order, which does not, followed by a plain write of what
/// it read to `*expected`. The read's order is the one its outcome selects. A weak one may
/// also fail when the values are equal (spuriously): its success is the solver's choice
/// there.
fn compare_exchange(l: &mut Lower<'_>, c: &Call, text: &str) -> Result<Src, Diag> {
    let explicit = c.name.ends_with("_explicit");
    l.arity(c, if explicit { 5 } else { 3 })?;
    let (succ, fail) =
        if explicit { (l.arg_order(c, 3, ANY_ORDER)?, l.arg_order(c, 4, LOAD_ORDERS)?) } else { ("SC", "SC") };
    let obj = l.arg_pointer(c, 0)?;
    let expected = l.arg_pointer(c, 1)?;
    let desired = l.arg_value(c, 2)?;
    let (want, old, ok) = (l.fresh(), l.fresh(), l.fresh());
    l.push(vec![Op::Load { dst: want.clone(), addr: expected.clone(), tags: plain_tags() }], text);
    let equal = Cond { op: BinOp::Eq, a: Src::Reg(old.clone()), b: Src::Reg(want.clone()) };
    let decide = if c.name.contains("_weak") {
        Op::Choose { dst: ok.clone(), when: equal }
    } else {
        Op::Bin { dst: ok.clone(), op: BinOp::Eq, a: Src::Reg(old.clone()), b: Src::Reg(want) }
    };
    let success = Cond { op: BinOp::Ne, a: Src::Reg(ok.clone()), b: Src::Imm(0) };
    let failure = Cond { op: BinOp::Eq, ..success.clone() };
    let rmw = with_rmw(atomic_tags(succ));
    l.push(
        vec![
            Op::Load { dst: old.clone(), addr: obj.clone(), tags: vec!["A".into()] },
            decide,
            Op::TagIf { tags: rmw[1..].to_vec(), when: success.clone() },
            Op::TagIf { tags: vec![fail.into()], when: failure.clone() },
            Op::Store { addr: obj, src: desired, tags: rmw, when: Some(success) },
            Op::OneEvent,
        ],
        text,
    );
    l.push(vec![Op::Store { addr: expected, src: Src::Reg(old), tags: plain_tags(), when: Some(failure) }], text);
    Ok(Src::Reg(ok))
}

impl Lower<'_> {
    /// Argument `k` of `c` as a memory order among `allowed` (herd's set names), as its set.
    fn arg_order(&self, c: &Call, k: usize, allowed: &[&str]) -> Result<&'static str, Diag> {
        let named = match c.args.get(k) {
            Some(super::ast::Arg::Expr(super::ast::Expr::Var(v, _))) => ORDERS.iter().find(|(n, _)| n == v),
            _ => None,
        };
        match named {
            Some(&(_, set)) if allowed.contains(&set) => Ok(set),
            Some(&(name, _)) => Err(self.call_err(c, format!("`{}` cannot take `{name}`", c.name))),
            None => Err(self.call_err(c, format!("`{}` expects a memory order as argument {}", c.name, k + 1))),
        }
    }

    fn unknown_op(&self, c: &Call, op: &str) -> Diag {
        self.call_err(c, format!("`{}`: unsupported operator `{op}`", c.name))
    }

    /// An error located at the call `c`.
    fn call_err(&self, c: &Call, message: String) -> Diag {
        let mut d = self.unknown(c);
        d.message = message;
        d
    }
}
