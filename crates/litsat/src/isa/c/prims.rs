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
    read_then_write(addr, (tags.clone(), tags), old, between, new)
}

/// [`read_modify_write`] with tags of its own for the read and for the write.
fn read_then_write(addr: Addr, (read, write): (Vec<Tag>, Vec<Tag>), old: &Reg, between: Vec<Op>, new: Src) -> Vec<Op> {
    let mut all = vec![Op::Load { dst: old.clone(), addr: addr.clone(), tags: read }];
    all.extend(between);
    all.push(Op::Store { addr, src: new, tags: write, when: None });
    all
}

/// How the LKMM's read-modify-write primitives are built. Under the variant `lkmmv2`
/// (the kernel's cfg sets it) both accesses take the annotation. Without it herd builds
/// them as its first LKMM did (herd's `CSem`): each access is `once`, unless the
/// annotation is exactly `acquire` (kept on the read) or `release` (kept on the write);
/// an `mb` one is wrapped in two `mb` fences within the instruction; `__atomic_op`'s read
/// is `noreturn`; and a successful `__atomic_add_unless` is always wrapped in fences.
struct LkmmRmw {
    read: Vec<Tag>,
    write: Vec<Tag>,
    /// Tags the read takes only where the primitive succeeds, and only where it fails
    /// (a compare-exchange's `acquire` under the first semantics: a failed one is `once`).
    read_if: Option<(Vec<Tag>, Vec<Tag>)>,
    fenced: bool,
}

impl LkmmRmw {
    fn of(l: &Lower<'_>, c: &Call) -> LkmmRmw {
        if !l.lkmm_v1 {
            return LkmmRmw { read: rmw_tags(c), write: rmw_tags(c), read_if: None, fenced: false };
        }
        let is = |t: &str| c.tag.as_deref() == Some(t);
        let once = || with_rmw(vec!["once".into()]);
        let keep = |t: &str| if is(t) { rmw_tags(c) } else { once() };
        match c.name {
            "__atomic_op" => LkmmRmw { read: with_rmw(vec!["noreturn".into()]), write: once(), read_if: None, fenced: false },
            "__atomic_add_unless" => LkmmRmw { read: once(), write: once(), read_if: None, fenced: true },
            "__cmpxchg" if is("acquire") => LkmmRmw {
                read: with_rmw(Vec::new()),
                write: once(),
                read_if: Some((tags(c), vec!["once".into()])),
                fenced: false,
            },
            _ => LkmmRmw { read: keep("acquire"), write: keep("release"), read_if: None, fenced: is("mb") },
        }
    }

    /// `ops` between the fences that wrap it, where they do (guarded by `when` where
    /// the primitive may fail: a failed one has no fences).
    fn wrap(&self, mut ops: Vec<Op>, when: Option<&Cond>) -> Vec<Op> {
        if self.fenced {
            let mb = || match when {
                Some(w) => Op::FenceIf { tags: vec!["mb".into()], when: w.clone() },
                None => Op::Fence { tags: vec!["mb".into()] },
            };
            // Both after the read: a fence's guard reads the value it decides.
            ops.extend([mb(), mb()]);
        }
        ops
    }
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

/// What lowering a primitive gives: its value, when it has one.
type Lowered = Result<Option<Src>, Diag>;

/// A primitive's lowering: given the call and its text in the event graph.
type Prim = fn(&mut Lower<'_>, &Call, String) -> Lowered;

/// The primitives, by name: one row per family, each with the function lowering it
/// (given the call and its text in the event graph).
const PRIMS: &[(&[&str], Prim)] = &[
    (&["__load"], prim_load),
    (&["__store"], prim_store),
    (&["__fence"], prim_fence),
    (&["__srcu"], prim_srcu),
    (&["__xchg"], prim_xchg),
    (&["__cmpxchg"], prim_cmpxchg),
    (&["__atomic_op", "__atomic_op_return", "__atomic_fetch_op"], prim_atomic_op),
    (&["__atomic_add_unless"], prim_add_unless),
    (&["atomic_load_explicit"], c11_load),
    (&["atomic_store_explicit"], c11_store),
    (&["atomic_thread_fence"], c11_fence),
    (&["__lock", "__unlock", "__trylock", "__islocked"], prim_lock),
    (
        &[
            "atomic_fetch_add_explicit",
            "atomic_fetch_sub_explicit",
            "atomic_fetch_and_explicit",
            "atomic_fetch_or_explicit",
            "atomic_fetch_xor_explicit",
            "atomic_exchange_explicit",
        ],
        c11_fetch,
    ),
    (
        &[
            "atomic_compare_exchange_strong_explicit",
            "atomic_compare_exchange_strong",
            "atomic_compare_exchange_weak_explicit",
            "atomic_compare_exchange_weak",
        ],
        c11_compare_exchange,
    ),
];

/// Lowers primitive `c`, returning its value when it has one.
pub fn lower(l: &mut Lower<'_>, c: &Call) -> Result<Option<Src>, Diag> {
    let text = match &c.tag {
        Some(t) => [c.name, "{", t, "}"].concat(),
        None => c.name.to_string(),
    };
    if let Some((_, f)) = PRIMS.iter().find(|(names, _)| names.contains(&c.name)) {
        return f(l, c, text);
    }
    let name = c.name;
    if C11_MACROS.iter().any(|p| name.starts_with(p)) {
        let why = "a macro of herd's c11.def: check under the model c11 or rc11, or the cfg cpp11.cfg";
        let d = l.call_err(c, format!("unknown macro or primitive `{name}` ({why})"));
        return Err(d.with_herd_words(format!("Unknown macro {name}")));
    }
    Err(l.unknown(c))
}

fn prim_load(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 1)?;
    let addr = l.arg_lvalue(c, 0)?;
    Ok(Some(load(l, addr, tags(c), text)))
}

fn prim_store(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 2)?;
    let v = l.arg_value(c, 1)?;
    let addr = l.arg_lvalue(c, 0)?;
    store(l, addr, v, tags(c), text);
    Ok(None)
}

fn prim_fence(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 0)?;
    l.push(vec![Op::Fence { tags: tags(c) }], text);
    Ok(None)
}

fn prim_srcu(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 1)?;
    let addr = l.arg_pointer(c, 0)?;
    l.push(vec![Op::Marker { addr, tags: tags(c) }], text);
    Ok(None)
}

fn prim_xchg(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 2)?;
    let addr = l.arg_pointer(c, 0)?;
    let v = l.arg_value(c, 1)?;
    let old = l.fresh();
    let k = LkmmRmw::of(l, c);
    let ops = read_then_write(addr, (k.read.clone(), k.write.clone()), &old, vec![], v);
    l.push(k.wrap(ops, None), text);
    Ok(Some(Src::Reg(old)))
}

fn prim_cmpxchg(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 3)?;
    let addr = l.arg_pointer(c, 0)?;
    let expected = l.arg_value(c, 1)?;
    let new = l.arg_value(c, 2)?;
    let old = l.fresh();
    let k = LkmmRmw::of(l, c);
    let equal = Cond { op: BinOp::Eq, a: Src::Reg(old.clone()), b: expected };
    let mut ops = vec![Op::Load { dst: old.clone(), addr: addr.clone(), tags: k.read.clone() }];
    if let Some((succeeded, failed)) = &k.read_if {
        ops.push(Op::TagIf { tags: succeeded.clone(), when: equal.clone() });
        ops.push(Op::TagIf { tags: failed.clone(), when: Cond { op: BinOp::Ne, ..equal.clone() } });
    }
    ops.push(Op::Store { addr, src: new, tags: k.write.clone(), when: Some(equal.clone()) });
    l.push(k.wrap(ops, Some(&equal)), text);
    Ok(Some(Src::Reg(old)))
}

/// `__atomic_op`, `__atomic_op_return` (the new value), `__atomic_fetch_op` (the old).
fn prim_atomic_op(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
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
    let k = LkmmRmw::of(l, c);
    let all = read_then_write(addr, (k.read.clone(), k.write.clone()), &old, ops, Src::Reg(new.clone()));
    l.push(k.wrap(all, None), text);
    Ok(match c.name {
        "__atomic_op_return" => Some(Src::Reg(new)),
        "__atomic_fetch_op" => Some(Src::Reg(old)),
        _ => None,
    })
}

fn prim_add_unless(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 3)?;
    let addr = l.arg_pointer(c, 0)?;
    let v = l.arg_value(c, 1)?;
    let u = l.arg_value(c, 2)?;
    let (old, new, did) = (l.fresh(), l.fresh(), l.fresh());
    let k = LkmmRmw::of(l, c);
    let added = Cond { op: BinOp::Ne, a: Src::Reg(old.clone()), b: u.clone() };
    let ops = vec![
        Op::Load { dst: old.clone(), addr: addr.clone(), tags: k.read.clone() },
        Op::Bin { dst: did.clone(), op: BinOp::Ne, a: Src::Reg(old.clone()), b: u },
        Op::Bin { dst: new.clone(), op: BinOp::Add, a: Src::Reg(old), b: v },
        Op::Store { addr, src: Src::Reg(new), tags: k.write.clone(), when: Some(added.clone()) },
    ];
    l.push(k.wrap(ops, Some(&added)), text);
    Ok(Some(Src::Reg(did)))
}

fn c11_load(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 2)?;
    let order = l.arg_order(c, 1, LOAD_ORDERS)?;
    let addr = l.arg_pointer(c, 0)?;
    Ok(Some(load(l, addr, atomic_tags(order), text)))
}

fn c11_store(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 3)?;
    let order = l.arg_order(c, 2, STORE_ORDERS)?;
    let v = l.arg_value(c, 1)?;
    let addr = l.arg_pointer(c, 0)?;
    store(l, addr, v, atomic_tags(order), text);
    Ok(None)
}

fn c11_fence(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 1)?;
    let order = l.arg_order(c, 0, ANY_ORDER)?;
    l.push(vec![Op::Fence { tags: vec![order.into()] }], text);
    Ok(None)
}

fn prim_lock(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    l.arity(c, 1)?;
    let addr = l.arg_pointer(c, 0)?;
    let (op, dst) = match c.name {
        "__lock" => (LockOp::Acquire, None),
        "__unlock" => (LockOp::Release, None),
        "__trylock" => (LockOp::Try, Some(l.fresh())),
        _ => (LockOp::IsLocked, Some(l.fresh())),
    };
    l.lock(addr, op, dst.clone(), &text);
    Ok(dst.map(Src::Reg))
}

/// C11's fetch-and-op and exchange: herd's C11 update is one event, the pair marked so.
fn c11_fetch(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
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
    let mut all = read_modify_write(addr, with_rmw(atomic_tags(order)), &old, ops, new);
    all.push(Op::OneEvent);
    l.push(all, text);
    Ok(Some(Src::Reg(old)))
}

fn c11_compare_exchange(l: &mut Lower<'_>, c: &Call, text: String) -> Lowered {
    Ok(Some(compare_exchange(l, c, &text)?))
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
        d.herd_words = None;
        d
    }
}
