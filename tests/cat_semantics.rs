//! The cat language's constructs, each checked on a fixed event structure against a
//! relation computed by hand.
//!
//! The structure is store buffering with fences: events 0 and 1 are the initial writes
//! of x and y; P0 has 2: W x=1, 3: MFENCE, 4: R y; P1 has 5: W y=1, 6: MFENCE, 7: R x.

mod common;

use common::shared_or_skip;
use litsat::cat::{load_program, run_model};
use litsat::encode::exec;
use litsat::litmus::parse_test;
use litsat::logic::{B, Logic};
use litsat::query::{self, prepare};
use std::collections::BTreeSet;

const TEST: &str = "X86 SBF\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MFENCE | MFENCE ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

type Pairs = BTreeSet<(usize, usize)>;

/// Evaluates `expr` (a relation) in a model made of `defs`, returning its pairs; every
/// entry must be a constant, since the constructs probed here do not depend on rf or co.
fn probe(defs: &str, expr: &str) -> Pairs {
    // One folder per call: tests run in parallel and may probe the same expression.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("litsat-cat-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("probe.cat");
    std::fs::write(&path, format!("\"probe\"\n{defs}\nempty {expr} as probe\n")).expect("write model");
    let prog = load_program(&path.to_string_lossy(), &[]).expect("model parses");
    let test = parse_test("sbf.litmus", TEST).expect("test parses");
    let (_, _, ev) = prepare(test, "sbf.litmus", TEST).expect("events");
    let mut lg = Logic::new();
    let x = exec::encode(&ev, &mut lg).expect("encodes");
    let b = exec::builtins(&ev, &x, &mut lg);
    let checks = run_model(&prog, &mut lg, b, &[]).expect("model runs");
    let probe = checks.iter().find(|c| c.name.as_deref() == Some("probe")).expect("probe check");
    probe
        .rel
        .iter()
        .map(|(k, b)| {
            assert_eq!(b, B::T, "entry {k:?} of `{expr}` is not constant");
            k
        })
        .collect()
}

fn pairs(v: &[(usize, usize)]) -> Pairs {
    v.iter().copied().collect()
}

/// The event numbering the expectations below rely on.
#[test]
fn event_numbering() {
    assert_eq!(probe("", "[IW]"), pairs(&[(0, 0), (1, 1)]));
    assert_eq!(probe("", "[W]"), pairs(&[(0, 0), (1, 1), (2, 2), (5, 5)]));
    assert_eq!(probe("", "[R]"), pairs(&[(4, 4), (7, 7)]));
    assert_eq!(probe("", "[F]"), pairs(&[(3, 3), (6, 6)]));
    assert_eq!(probe("", "[MFENCE]"), pairs(&[(3, 3), (6, 6)]));
}

#[test]
fn base_relations() {
    assert_eq!(probe("", "po"), pairs(&[(2, 3), (2, 4), (3, 4), (5, 6), (5, 7), (6, 7)]));
    assert_eq!(probe("", "po-loc"), pairs(&[]));
    assert_eq!(probe("", "loc & (W * R)"), pairs(&[(0, 7), (2, 7), (1, 4), (5, 4)]));
    assert_eq!(probe("", "([M] ; int ; [M]) \\ id"), pairs(&[(2, 4), (4, 2), (5, 7), (7, 5), (0, 1), (1, 0)]));
    // `\` binds tighter than `;`: this is [M] ; int ; ([M] \ id), which is empty.
    assert_eq!(probe("", "[M] ; int ; [M] \\ id"), pairs(&[]));
}

#[test]
fn union_intersection_difference() {
    assert_eq!(probe("", "[R] | [MFENCE]"), pairs(&[(4, 4), (7, 7), (3, 3), (6, 6)]));
    assert_eq!(probe("", "po & (W * R)"), pairs(&[(2, 4), (5, 7)]));
    assert_eq!(probe("", "po \\ (W * R)"), pairs(&[(2, 3), (3, 4), (5, 6), (6, 7)]));
    // `\` is left-associative: (po \ (W*R)) \ (F*_).
    assert_eq!(probe("", "po \\ (W * R) \\ (F * _)"), pairs(&[(2, 3), (5, 6)]));
}

#[test]
fn sequence_inverse_closure() {
    assert_eq!(probe("", "[W] ; po ; [F]"), pairs(&[(2, 3), (5, 6)]));
    assert_eq!(probe("", "([W] ; po ; [F]) ^-1"), pairs(&[(3, 2), (6, 5)]));
    assert_eq!(probe("", "([W];po;[F]) ; ([F];po;[R])"), pairs(&[(2, 4), (5, 7)]));
    let step = "let s = ([W];po;[F]) | ([F];po;[R])";
    assert_eq!(probe(step, "s+"), pairs(&[(2, 3), (3, 4), (2, 4), (5, 6), (6, 7), (5, 7)]));
    assert_eq!(
        probe(step, "s* & ([W] ; s*)"),
        pairs(&[(0, 0), (1, 1), (2, 2), (2, 3), (2, 4), (5, 5), (5, 6), (5, 7)])
    );
    assert_eq!(probe(step, "s? \\ s"), (0..8).map(|i| (i, i)).collect());
}

#[test]
fn complement_and_products() {
    // ~ is taken within the universe: everything but po-pairs.
    let all: Pairs = (0..8).flat_map(|i| (0..8).map(move |j| (i, j))).collect();
    let po = probe("", "po");
    assert_eq!(probe("", "~po"), all.difference(&po).copied().collect());
    assert_eq!(probe("", "IW * (R \\ IW)"), pairs(&[(0, 4), (0, 7), (1, 4), (1, 7)]));
    // `*` binds tighter than `&`: loc & W * W = loc & (W * W).
    assert_eq!(probe("", "(loc & W * W) \\ id"), pairs(&[(0, 2), (2, 0), (1, 5), (5, 1)]));
}

#[test]
fn functions_and_let() {
    let defs = "let WR(r) = r & (W * R)\nlet twice f x = f (f x)\nlet drop-fence r = r \\ (_ * F)";
    assert_eq!(probe(defs, "WR(po)"), pairs(&[(2, 4), (5, 7)]));
    assert_eq!(probe(defs, "twice drop-fence po"), pairs(&[(2, 4), (3, 4), (5, 7), (6, 7)]));
    assert_eq!(probe("", "let a = [R] and b = [W] in a | b"), probe("", "[M]"));
    assert_eq!(probe("let f = fun r -> r ; r", "f ([W];po;[F] | [F];po;[R])"), pairs(&[(2, 4), (5, 7)]));
    assert_eq!(probe("let (a, b) = ([R], [W])", "b ; po ; a"), pairs(&[(2, 4), (5, 7)]));
}

#[test]
fn recursion() {
    // A least fixpoint of the `r = base | r;r` shape is the closure of base.
    let defs = "let rec r = ([W];po;[F]) | ([F];po;[R]) | r ; r";
    assert_eq!(probe(defs, "r"), probe("let s = ([W];po;[F]) | ([F];po;[R])", "s+"));
    // Recursive functions, over sets of tags.
    let defs = "let rec pick xs = match xs with || {} -> 0 || x ++ rest -> (match x with 'f -> [F] || _ -> 0 end) | pick rest end";
    assert_eq!(probe(defs, "pick {'a, 'f}"), pairs(&[(3, 3), (6, 6)]));
}

#[test]
fn try_if_and_variants() {
    assert_eq!(probe("", "try [NOSUCHSET] with [R]"), pairs(&[(4, 4), (7, 7)]));
    assert_eq!(probe("", "try [MFENCE] with [R]"), pairs(&[(3, 3), (6, 6)]));
    assert_eq!(probe("", "if 'a = 'a then [R] else [W]"), pairs(&[(4, 4), (7, 7)]));
    assert_eq!(probe("let v = if \"novariant\" then [R] else [W]", "v & [IW]"), pairs(&[(0, 0), (1, 1)]));
    assert_eq!(probe("let S = domain(po)", "[S]"), pairs(&[(2, 2), (3, 3), (5, 5), (6, 6)]));
    assert_eq!(probe("let S = range([W];po)", "[S]"), pairs(&[(3, 3), (4, 4), (6, 6), (7, 7)]));
}

#[test]
fn fencerel_from_the_bundled_stdlib() {
    assert_eq!(probe("", "fencerel(MFENCE) & (M * M)"), pairs(&[(2, 4), (5, 7)]));
    assert_eq!(probe("", "fenced(MFENCE, W, R)"), pairs(&[(2, 4), (5, 7)]));
}

/// The rest of herd's stdlib names, for models written against herd's library: each
/// against the relation it stands for on SBF.
#[test]
fn herd_stdlib_names_from_the_bundled_stdlib() {
    assert_eq!(probe("", "toid(W) \\ [IW]"), pairs(&[(2, 2), (5, 5)]));
    assert_eq!(probe("", "[imply(W, IW)] \\ [F]"), pairs(&[(0, 0), (1, 1), (4, 4), (7, 7)]));
    assert_eq!(probe("", "nodetour(po, po, po)"), pairs(&[(2, 3), (3, 4), (5, 6), (6, 7)]));
    assert_eq!(probe("", "[udr(po & (W * F))]"), pairs(&[(2, 2), (3, 3), (5, 5), (6, 6)]));
    assert_eq!(probe("", "ctrlcfence(po & (W * _), F) & (_ * R)"), pairs(&[(2, 4), (5, 7)]));
    assert_eq!(probe("", "[PTE] | [PoD] | [BR] | inv-field"), pairs(&[]));
}

/// The stdlib's `map` applies a function to each member of a set of values.
#[test]
fn map_from_the_bundled_stdlib() {
    let unite = "let rec unite S = match S with || {} -> 0 || r ++ rest -> r | unite rest end";
    let fw = "[W];po;[F]";
    assert_eq!(
        probe(unite, &format!("unite (map (fun r -> r^-1) {{{fw}, [R]}})")),
        pairs(&[(3, 2), (6, 5), (4, 4), (7, 7)])
    );
    assert_eq!(probe(unite, "unite (map (fun r -> r ; po) {})"), pairs(&[]));
    // Over tags, as lock.cat's helpers are: each tag to a relation.
    let defs = format!("{unite}\nlet of-tag t = match t with 'f -> [F] || _ -> [IW] end");
    assert_eq!(probe(&defs, "unite (map of-tag {'f, 'g})"), pairs(&[(3, 3), (6, 6), (0, 0), (1, 1)]));
}

/// `cross` (cat/cross.cat): from a set of choices (sets of relations), every union that
/// takes one relation from each choice.
#[test]
fn cross_from_the_bundled_library() {
    let defs = "include \"cross.cat\"
let a1 = [W];po;[F]
let a2 = [F];po;[R]
let b1 = [IW]
let b2 = [R]
let X = cross({{a1, a2}, {b1, b2}})
let rec unite S = match S with || {} -> 0 || r ++ rest -> r | unite rest end
(* The pairs (e, f), e in the domain of r and f in that of s, over the candidates holding
   both r and s. *)
let both(r, s) = unite(map (fun c -> domain(c & r) * domain(c & s)) X)
(* [IW] when D is empty, else nothing. *)
let lacks(D) = [IW] \\ ((_ * D) ; (D * _))";
    let prod =
        |xs: &[usize], ys: &[usize]| -> Pairs { xs.iter().flat_map(|&x| ys.iter().map(move |&y| (x, y))).collect() };
    // Every combination of one relation from each choice is a candidate …
    assert_eq!(probe(defs, "both(a1, b1)"), prod(&[2, 5], &[0, 1]));
    assert_eq!(probe(defs, "both(a1, b2)"), prod(&[2, 5], &[4, 7]));
    assert_eq!(probe(defs, "both(a2, b1)"), prod(&[3, 6], &[0, 1]));
    assert_eq!(probe(defs, "both(a2, b2)"), prod(&[3, 6], &[4, 7]));
    // … no candidate takes two relations of one choice …
    assert_eq!(probe(defs, "both(a1, a2)"), pairs(&[]));
    assert_eq!(probe(defs, "both(b1, b2)"), pairs(&[]));
    // … and none misses a choice.
    assert_eq!(
        probe(defs, "unite(map (fun c -> lacks(domain(c & (a1 | a2))) | lacks(domain(c & (b1 | b2)))) X)"),
        pairs(&[])
    );
    // With no choice there is one candidate, the empty relation; an empty choice leaves none.
    assert_eq!(probe(defs, "unite(map (fun c -> c | [IW]) (cross({})))"), pairs(&[(0, 0), (1, 1)]));
    assert_eq!(probe(defs, "unite(map (fun c -> c | [IW]) (cross({{a1}, {}})))"), pairs(&[]));
    assert_eq!(probe(defs, "unite(cross({{a1}, {b2}}))"), pairs(&[(2, 3), (5, 6), (4, 4), (7, 7)]));
}

// ---------------------------------------------------------------------------------------
// Constructs whose values depend on the execution, checked through the executions they
// keep: (Positive, Negative) counts and flags of whole runs, computed by hand.

/// Store buffering: 0, 1 initial writes of x, y; P0 2: W x=1, 3: R y; P1 4: W y=1, 5: R x.
/// Four executions (each read sees the initial write or the other thread's); the condition
/// holds in the one where both see the initial writes (rf from an initial write is rfe).
const SB: &str = "X86 SB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n";

/// Load buffering: P0 2: R x, 3: W y=1; P1 4: R y, 5: W x=1. Four executions; the
/// condition holds in the one where both reads see the other thread's write, the only one
/// with a cycle in rf ∪ po.
const LB: &str = "X86 LB\n{ x=0; y=0; }\n P0 | P1 ;\n MOV EAX,[x] | MOV EAX,[y] ;\n MOV [y],$1 | MOV [x],$1 ;\nexists (0:EAX=1 /\\ 1:EAX=1)\n";

/// P0 writes x=0 then x=1; P1 reads x: from the initial write (0), the first (0) or the
/// second (1) write. The condition holds in the first two.
const DV: &str = "X86 DV\n{ x=0; }\n P0 | P1 ;\n MOV [x],$0 | MOV EAX,[x] ;\n MOV [x],$1 | ;\nexists (1:EAX=0)\n";

/// Runs `model` on `test` end to end (with `lib` on the include path): the counts and the
/// flags, or the error.
fn run_with(model: &str, test: &str, lib: &[std::path::PathBuf]) -> Result<(u128, u128, BTreeSet<String>), String> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("litsat-cat-run-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("model.cat");
    std::fs::write(&path, format!("\"model\"\n{model}\n")).expect("write model");
    let prog = load_program(&path.to_string_lossy(), lib).map_err(|d| d.to_string())?;
    let t = parse_test("t.litmus", test).expect("test parses");
    let o = query::run(t, "t.litmus", test, &prog, &query::Options::default()).map_err(|d| d.to_string())?;
    Ok((o.pos, o.neg, o.flags))
}

fn run(model: &str, test: &str) -> (u128, u128, BTreeSet<String>) {
    run_with(model, test, &[]).unwrap_or_else(|e| panic!("{model}: {e}"))
}

fn counts(model: &str, test: &str) -> (u128, u128) {
    let (p, n, _) = run(model, test);
    (p, n)
}

fn flags(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn let_rec_over_the_execution() {
    // r = rf ∪ r;po;rf holds a pair (3, 2) with 2 po 3 only in the LB cycle.
    let r = "let rec r = rf | (r ; po ; rf)";
    assert_eq!(counts(&format!("{r}\nirreflexive r ; po as lb"), LB), (0, 3));
    assert_eq!(run(&format!("{r}\nflag ~irreflexive r ; po as cyc"), LB), (1, 3, flags(&["cyc"])));
    // Mutual recursion, a function in the group, and the expression form.
    assert_eq!(counts("let rec a = rf | (b ; rf) and b = a ; po\nirreflexive b as lb", LB), (0, 3));
    assert_eq!(
        counts("let rec reach = rf | step(reach) and step(x) = x ; po ; rf\nirreflexive reach ; po as lb", LB),
        (0, 3)
    );
    assert_eq!(counts("let r2 = let rec q = rf | (q ; po ; rf) in q ; po\nirreflexive r2 as lb", LB), (0, 3));
}

#[test]
fn let_rec_stops_as_herd_does() {
    // t = rf \ (t;po;t;po;t) has no fixpoint in the LB cycle: herd's iteration goes
    // ∅, rf, ∅ and stops at the first step within the one before, taking the new iterate
    // ∅ (the old one, rf, would reject the cycle). Elsewhere it stops at rf.
    let t = "let rec t = rf \\ (t ; po ; t ; po ; t)";
    assert_eq!(counts(&format!("{t}\nacyclic t | po as c"), LB), (1, 3));
    assert_eq!(run(&format!("{t}\nflag ~acyclic t | po as cyc"), LB), (1, 3, flags(&[])));
    // A step evaluates the definitions in order: b sees the new a. So a = rfe, b = ∅
    // (evaluating both from the old values would give a = b = ∅).
    let gs = "let rec a = rfe \\ b and b = rfe \\ a\nempty rfe \\ a as gs\nflag ~empty b as b";
    assert_eq!(run(gs, SB), (1, 3, flags(&[])));
    // v = rfe \ v: rfe, then ∅ — stopping after one step where rfe is empty.
    assert_eq!(run("let rec v = rfe \\ v\nflag ~empty v as v", SB), (1, 3, flags(&[])));
    // Sets too: S = W \ S goes ∅, W, ∅.
    assert_eq!(run("let rec S = W \\ S\nflag ~empty S as s", SB), (1, 3, flags(&[])));
}

#[test]
fn with_from_a_set_of_relations() {
    // Each element that passes is an execution: every count doubles.
    assert_eq!(run("with x from {rf, 0}\nflag ~empty x as chose-rf", SB), (2, 6, flags(&["chose-rf"])));
    // In the LB cycle only x = 0 passes.
    assert_eq!(counts("with x from {rf, 0}\nacyclic x | po as c", LB), (1, 6));
    // Where no read sees the other thread, {rf \ (IW * _), 0} has one element.
    assert_eq!(run("with x from {rf \\ (IW * _), 0}\nflag ~empty x as e", SB), (1, 6, flags(&["e"])));
    // Equal elements are one; an empty set lets no execution pass.
    assert_eq!(counts("with x from {rf, rf | 0}\nacyclic x as c", SB), (1, 3));
    assert_eq!(counts("with x from {}\nacyclic x as c", SB), (0, 0));
    // Event sets as elements, and two choices in a row.
    assert_eq!(counts("with s from {R, W}\nwith t from {R, 0}\nempty [s] ; [t] as c", SB), (3, 9));
}

/// A `map` as herd's stdlib has it (herd's own is not in litsat's bundled stdlib).
const MAP: &str = "let rec map f S = match S with || {} -> {} || e ++ es -> f e ++ map f es end";

#[test]
fn map_over_events_and_pairs() {
    // One singleton relation per rf candidate of each read; one of each as x.
    let choices = format!(
        "{MAP}\nlet pair-to-relation p = p ++ 0\nlet choices e = map pair-to-relation ((W * {{e}}) & loc)\n\
         let rec pick S = match S with || {{}} -> {{0}} || c ++ cs -> union-each (c, pick cs) end\n\
         and union-each (c, ys) = match c with || {{}} -> {{}} || o ++ os -> add-to (o, ys) | union-each (os, ys) end\n\
         and add-to (o, ys) = match ys with || {{}} -> {{}} || y ++ rest -> (o | y) ++ add-to (o, rest) end"
    );
    // Four candidate rf relations; exactly one is the execution's.
    let m = format!("{choices}\nwith x from pick (map choices R)\nempty x \\ rf as x-is-rf");
    assert_eq!(counts(&m, SB), (1, 3));
    let m = format!("{choices}\nwith x from pick (map choices R)\nflag ~empty x \\ rf as other");
    assert_eq!(run(&m, SB), (4, 12, flags(&["other"])));
    // Event sets whose members depend on the execution are taken apart execution by
    // execution: the reads that see a non-initial write are none (no execution passes),
    // one or both.
    let m = format!("{MAP}\nwith x from map (fun e -> {{e}}) (range(rf \\ (IW * _)))");
    assert_eq!(counts(&m, SB), (0, 4));
}

// ---------------------------------------------------------------------------------------
// Sets built from events that exist only in some executions: herd's is-locked tests
// (`__islocked`, which the kernel's `spin_is_locked` expands to) make an RL event where
// the lock is found held and an RU event where it is found free, a choice of the solver.

/// One thread tests a lock twice: four executions (RL or RU for each test); the
/// condition holds in the one with two RUs.
const IL2: &str = "C IL2\n{}\nP0(spinlock_t *l) { int r1; int r2; r1 = __islocked(l); r2 = __islocked(l); }\n\
                   exists (0:r1=0 /\\ 0:r2=0)\n";

/// The same tests in P1, and a lock and an unlock in P0: an RU may read from the
/// initial write or from the unlock (the models below say so; the built-in rf leaves
/// lock events alone).
const LK: &str = "C LK\n{}\nP0(spinlock_t *l) { __lock(l); __unlock(l); }\n\
                  P1(spinlock_t *l) { int r1; int r2; r1 = __islocked(l); r2 = __islocked(l); }\n\
                  exists (1:r1=0 /\\ 1:r2=0)\n";

#[test]
fn map_and_with_over_events_that_exist_in_some_executions() {
    // {{e} | e ∈ RU} has 0, 1, 1 and 2 elements: (RL, RL) is rejected.
    assert_eq!(counts("with x from map (fun e -> {e}) RU", IL2), (2, 2));
    // (RU \ {e}) | {e} is RU for every e: one element wherever RU is not empty, though
    // the two members are built differently.
    assert_eq!(counts("with x from map (fun e -> (RU \\ {e}) | {e}) RU", IL2), (1, 2));
    assert_eq!(counts("with x from map (fun e -> 0) RU", IL2), (1, 2));
    // Set operations compare members where they are present: the RL events as sets are
    // 2, 1, 1 and 0 (rejected); the RU events 0 (rejected), 1, 1, 2.
    let sets = "let A = map (fun e -> {e}) RU\nlet Bc = map (fun e -> {e}) (RU | RL)";
    assert_eq!(counts(&format!("{sets}\nwith x from Bc \\ A"), IL2), (0, 4));
    assert_eq!(counts(&format!("{sets}\nwith x from Bc & A"), IL2), (2, 2));
    // A try-lock makes LKR and LKW where it succeeds (r1 = 1), an LF where it fails.
    let tl = "C TL\n{}\nP0(spinlock_t *l) { int r1; r1 = __trylock(l); }\nexists (0:r1=0)\n";
    assert_eq!(counts("with x from map (fun e -> {e}) LF", tl), (1, 0));
    assert_eq!(counts("with x from map (fun e -> {e}) (LF | LKW)", tl), (1, 1));
}

#[test]
fn match_over_events_that_exist_in_some_executions() {
    // A fold giving a relation: the union of [e] over RU is [RU] in every execution.
    let u = "let rec unite S = match S with || {} -> 0 || r ++ rest -> r | unite rest end\n\
             let u = unite (map (fun e -> {e} * {e}) RU)";
    let m = format!("{u}\nflag ~empty (u \\ [RU]) | ([RU] \\ u) as differs\nflag ~empty u as some");
    assert_eq!(run(&m, LK), (1, 3, flags(&["some"])));
    // Arms whose results cannot be combined entry by entry are refused, located, once
    // something reads the binding (bindings are evaluated on first use).
    let m = "let f S = match S with || {} -> 'a || _ -> 'b end\nlet t = f RU\nempty t";
    let e = run_with(m, LK, &[]).unwrap_err();
    assert!(e.contains("model.cat:2:") && e.contains("depend on the execution"), "{e}");
}

/// A binding is evaluated where it is first read, and only then: an unused one costs
/// nothing, and `;`, `&` and `\\` skip the operand that an empty side makes irrelevant.
#[test]
fn bindings_are_evaluated_on_first_use() {
    let all = counts("acyclic po", LK);
    let refused = "let f S = match S with || {} -> 'a || _ -> 'b end\nlet t = f RU\n";
    // Never read: the refusal inside it is never reached.
    assert_eq!(counts(&format!("{refused}acyclic po"), LK), all);
    // Read only beside an empty operand: skipped too, whichever side is empty.
    assert_eq!(counts(&format!("{refused}let e = 0\nempty (e ; t) | (0 & t) | (e \\ t)"), LK), all);
    // An empty result keeps its operand's type: `~` of an empty set is the universe.
    assert_eq!(counts("let S = RU \\ RU\nempty [~S] \\ [_]", LK), all);
    assert_eq!(counts("let S = RU \\ RU\nempty [~S]", LK), (0, 0));
}

#[test]
fn cross_over_events_that_exist_in_some_executions() {
    // lock.cat's construction: one choice per RU event of the write it reads, each RU
    // reading the initial write or the unlock. Executions: (RL, RL) 1 (cross({}) = {0}),
    // (RU, RL) 2, (RL, RU) 2, (RU, RU) 4; the condition holds in the last four.
    let sources = "include \"cross.cat\"\nlet pair-to-relation p = p ++ 0\n\
                   let sources e = map pair-to-relation (((UL | IW) * {e}) & loc)\n\
                   with x from cross(map sources RU)";
    assert_eq!(run(&format!("{sources}\nflag ~empty x & (UL * _) as from-ul"), LK), (4, 5, flags(&["from-ul"])));
    // Only the initial write: one execution per outcome of the tests.
    assert_eq!(counts(&format!("{sources}\nempty x & (UL * _) as no-ul"), LK), (1, 3));
}

/// herd's `cross.cat`, from the shared models.
#[test]
fn herd_cross() {
    let Some(lib) = shared_or_skip("herd's cross.cat").map(|s| s.join("models/herd")) else { return };
    let m = "include \"cross.cat\"\nwith x from cross({{rf, 0}, {po, 0}})\nflag ~empty x & po as has-po";
    assert_eq!(run_with(m, SB, std::slice::from_ref(&lib)).expect("runs"), (4, 12, flags(&["has-po"])));
    let m = format!(
        "include \"cross.cat\"\n{MAP}\nlet pair-to-relation p = p ++ 0\n\
         with x from cross(map (fun e -> map pair-to-relation ((W * {{e}}) & loc)) R)\nempty x \\ rf as x-is-rf"
    );
    assert_eq!(run_with(&m, SB, &[lib]).expect("runs"), (1, 3, flags(&[])));
}

#[test]
fn different_values() {
    // fr from a read of 0 to the write of 1 has different values; to the write of 0 not.
    assert_eq!(run("flag ~empty different-values(fr) as dv", DV), (2, 1, flags(&["dv"])));
    assert_eq!(counts("empty different-values(fr) as dv", DV), (0, 1));
    // The writes with a co successor, the initial one apart: the write of 0.
    let zero = "let W0 = domain(co \\ (IW * _))";
    assert_eq!(counts(&format!("{zero}\nempty different-values(fr & (R * W0)) as q"), DV), (2, 1));
    assert_eq!(counts(&format!("{zero}\nempty fr & (R * W0) as p"), DV), (1, 1));
    // rf never relates different values.
    assert_eq!(run("flag ~empty different-values(rf) as dv", SB), (1, 3, flags(&[])));
}

#[test]
fn unnamed_flags_are_not_recorded() {
    // herd warns that a flagged test without a name has none, and records nothing.
    assert_eq!(run("flag ~empty rf\nflag ~empty rf as named", SB), (1, 3, flags(&["named"])));
}

#[test]
fn nested_sections_matched_as_the_lkmm_bell_does() {
    // The LKMM bell's matching of nested lock/unlock pairs, a non-monotone recursion
    // (written afresh here), with W \ IW and F as locks and R as unlocks: P0 has
    // lock 2, lock 3, unlock 4. herd's steps: matched = {(3,4)}, then the unmatched sets
    // shrink to {2} and ∅ while matched stays: the second step stops.
    let defs = "let L = (W \\ IW) | F\nlet U = R\n\
        let sections = let rec\n  open = L \\ domain(m)\n  and close = U \\ range(m)\n  and loose = open | close\n\
        \x20 and loose-po = [loose] ; po ; [loose]\n  and spans = [open] ; po ; [close]\n\
        \x20 and m = m | (spans \\ (loose-po ; loose-po))\n  in m";
    assert_eq!(probe(defs, "sections"), pairs(&[(3, 4), (6, 7)]));
    assert_eq!(
        probe(&format!("{defs}\nlet unmatched = L \\ domain(sections)"), "[unmatched]"),
        pairs(&[(2, 2), (5, 5)])
    );
}

/// herd skips a call that `-skipcheck` names by its `as` name or its procedure's name,
/// and with it every check the procedure makes; `-strictskip` then keeps the executions
/// where the call fails. SB under SC as a procedure: 1 of 4 executions is forbidden.
#[test]
fn skipcheck_skips_a_call_by_either_name() {
    let model = "procedure sc(r) = acyclic r as inner end\ncall sc(po | rf | fr | co) as seq\n";
    let dir = std::env::temp_dir().join(format!("litsat-cat-call-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("model.cat");
    std::fs::write(&path, format!("\"model\"\n{model}")).expect("write model");
    let prog = load_program(&path.to_string_lossy(), &[]).expect("model");
    let answer = |skip: &[&str], strict: bool| {
        let t = parse_test("t.litmus", SB).expect("test parses");
        let opts = query::Options::default().skipchecks(skip.iter().copied()).strictskip(strict);
        let o = query::run(t, "t.litmus", SB, &prog, &opts).expect("answered");
        (o.pos, o.neg)
    };
    assert_eq!(answer(&[], false), (0, 3));
    for name in ["seq", "sc", "inner"] {
        assert_eq!(answer(&[name], false), (1, 3), "-skipcheck {name}");
    }
    assert_eq!(answer(&["seq"], true), (1, 0), "-strictskip keeps where the call fails");
    let _ = std::fs::remove_dir_all(&dir);
}
