//! The cat language's constructs, each checked on a fixed event structure against a
//! relation computed by hand.
//!
//! The structure is store buffering with fences: events 0 and 1 are the initial writes
//! of x and y; P0 has 2: W x=1, 3: MFENCE, 4: R y; P1 has 5: W y=1, 6: MFENCE, 7: R x.

use litsat::cat::{load_program, run_model};
use litsat::encode::exec;
use litsat::litmus::parse_test;
use litsat::logic::{B, Logic};
use litsat::query::prepare;
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
        .m
        .iter()
        .map(|(&k, &b)| {
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
