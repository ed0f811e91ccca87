//! The AArch64 plug-in: register names, the ops and sets of each instruction family, and
//! small end-to-end tests of the atomics the shared corpus does not exercise.

mod isa_common;

use litsat::isa::{Addr, BinOp, Isa, Op, Src, for_arch};

fn isa() -> &'static dyn Isa {
    for_arch("AArch64").expect("AArch64 plug-in")
}

fn ops(text: &str) -> Vec<Op> {
    isa_common::ops(isa(), text)
}

fn error(text: &str) -> String {
    isa_common::error(isa(), text)
}

/// The tags of every memory or fence event, in order.
fn tags(text: &str) -> Vec<Vec<String>> {
    ops(text)
        .into_iter()
        .filter_map(|op| match op {
            Op::Load { tags, .. } | Op::Store { tags, .. } | Op::StoreCond { tags, .. } | Op::Fence { tags } => {
                Some(tags.into_iter().map(|t| t.into_owned()).collect())
            }
            _ => None,
        })
        .collect()
}

fn t(v: &[&[&str]]) -> Vec<Vec<String>> {
    v.iter().map(|s| s.iter().map(|x| x.to_string()).collect()).collect()
}

#[test]
fn registers() {
    let a = isa();
    assert_eq!(a.canonical_reg("W5").as_deref(), Some("X5"));
    assert_eq!(a.canonical_reg("X30").as_deref(), Some("X30"));
    assert_eq!(a.canonical_reg("WZR").as_deref(), Some("XZR"));
    assert_eq!(a.canonical_reg("XZR").as_deref(), Some("XZR"));
    assert_eq!(a.canonical_reg("X31"), None);
    assert_eq!(a.canonical_reg("EAX"), None);
    assert_eq!(a.zero_reg(), Some("XZR"));
    assert!(a.reg_index("X2") < a.reg_index("X10"));
}

#[test]
fn plain_and_ordered_accesses() {
    // A W register's access is 4 bytes wide, an X register's 8 (only an array's element
    // of that size can be reached at an offset).
    let load = Op::Load { dst: "X0".into(), addr: Addr::Reg("X1".into(), 0), tags: vec![] };
    assert_eq!(ops("LDR W0,[X1]"), vec![Op::Width(4), load]);
    assert_eq!(
        ops("STR X0,[X1,#8]")[..2],
        [
            Op::Width(8),
            Op::Store { addr: Addr::Reg("X1".into(), 8), src: Src::Reg("X0".into()), tags: vec![], when: None }
        ]
    );
    assert_eq!(tags("STR X0,[X1,#0]"), t(&[&[]]));
    assert_eq!(tags("LDAR W0,[X1]"), t(&[&["A"]]));
    assert_eq!(tags("LDAPR W0,[X1]"), t(&[&["Q"]]));
    assert_eq!(tags("STLR W0,[X1]"), t(&[&["L"]]));
    assert_eq!(tags("LDXR W0,[X1]"), t(&[&["EX"]]));
    assert_eq!(tags("LDAXR W0,[X1]"), t(&[&["A", "EX"]]));
    assert_eq!(tags("STLXR W3,W2,[X0]"), t(&[&["L", "EX"]]));
    let Op::StoreCond { status, ok, fail, src, .. } = &ops("STXR W7,W5,[X4]")[1] else { panic!() };
    assert_eq!((status.as_deref(), *ok, *fail), (Some("X7"), 0, 1));
    assert_eq!(src, &Src::Reg("X5".into()));
}

#[test]
fn register_offsets_go_through_a_temporary() {
    let o = ops("LDR W5,[X4,W2,SXTW]");
    assert_eq!(
        o,
        vec![
            Op::Bin { dst: "%a".into(), op: BinOp::Add, a: Src::Reg("X4".into()), b: Src::Reg("X2".into()) },
            Op::Width(4),
            Op::Load { dst: "X5".into(), addr: Addr::Reg("%a".into(), 0), tags: vec![] },
        ]
    );
    assert_eq!(ops("STR W1,[X4,X2,LSL #3]").len(), 4);
}

#[test]
fn writeback_and_pairs() {
    // Post-indexed: the access at the base, then the base moves; a store's update also
    // waits for its data register. Pre-indexed: the access at the moved base.
    let bump = Op::Bin { dst: "X1".into(), op: BinOp::Add, a: Src::Reg("X1".into()), b: Src::Imm(4) };
    let post = ops("STR W0,[X1],#4");
    assert_eq!(
        post[1],
        Op::Store { addr: Addr::Reg("X1".into(), 0), src: Src::Reg("X0".into()), tags: vec![], when: None }
    );
    assert_eq!(post[2..], [bump.clone(), Op::Also { dst: "X1".into(), src: "X0".into() }]);
    let pre = ops("LDR W0,[X1,#4]!");
    assert_eq!(pre[1..], [Op::Load { dst: "X0".into(), addr: Addr::Reg("X1".into(), 4), tags: vec![] }, bump]);
    // LDIAPP and STILP: two accesses, the second ordered after the first.
    let p = ops("LDIAPP W0,W1,[X2]");
    assert!(
        matches!(
            &p[..],
            [Op::Width(4), Op::Load { addr: Addr::Reg(_, 0), .. }, Op::Ordered, Op::Load { addr: Addr::Reg(_, 4), .. }]
        ),
        "{p:?}"
    );
    assert_eq!(tags("STILP X0,X1,[X2]"), t(&[&["L"], &["L"]]));
}

#[test]
fn unsupported_forms_say_why() {
    assert!(error("LDRB W0,[X1]").contains("mixed-size"));
    assert!(error("STRH W0,[X1]").contains("mixed-size"));
    assert!(error("LDADDB W0,W1,[X2]").contains("mixed-size"));
    assert!(error("LDP X0,X1,[X2]").contains("mixed-size"));
    assert!(error("SWP W0,W1,[X2],#4").contains("unsupported"));
    assert!(error("LDAR W0,[X1],#4").contains("unsupported"));
    assert!(error("LDR W0,[X1,X2]!").contains("pre-indexed"));
    assert!(error("FROB X0").contains("unsupported instruction"));
}

#[test]
fn atomics_carry_herds_sets() {
    assert_eq!(tags("SWP W0,W1,[X2]"), t(&[&["X"], &["X"]]));
    assert_eq!(tags("SWPAL W0,W1,[X2]"), t(&[&["A", "X"], &["L", "X"]]));
    assert_eq!(tags("LDADDA W0,W1,[X2]"), t(&[&["A", "X"], &["X"]]));
    assert_eq!(tags("LDCLRL W0,W1,[X2]"), t(&[&["X"], &["L", "X"]]));
    // No-return forms: herd tags the read NoRet (and drops the acquire).
    assert_eq!(tags("STADD W0,[X2]"), t(&[&["NoRet", "X"], &["X"]]));
    assert_eq!(tags("STSETL W0,[X2]"), t(&[&["NoRet", "X"], &["L", "X"]]));
    assert_eq!(tags("LDADDAL W0,WZR,[X2]"), t(&[&["NoRet", "X"], &["L", "X"]]));
    // A compare-and-swap is one op: its read drops `X` where it fails without writing.
    let cas = ops("CASA X0,X1,[X2]");
    let [Op::Cas { expected, new, read_tags, write_tags, fail_read_tags, .. }] = cas.as_slice() else {
        panic!("{cas:?}")
    };
    assert_eq!((expected.as_str(), new), ("X0", &Src::Reg("X1".into())));
    let owned = |v: &Vec<litsat::isa::Tag>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        [owned(read_tags), owned(write_tags), owned(fail_read_tags)].to_vec(),
        t(&[&["A", "X"], &["X"], &["A"]])
    );
    let noret = ops("CASL XZR,X1,[X2]");
    let [Op::Cas { read_tags, .. }] = noret.as_slice() else { panic!("{noret:?}") };
    assert_eq!(vec![owned(read_tags)], t(&[&["NoRet", "X"]]));
    assert_eq!(tags("SWPA W0,WZR,[X2]"), t(&[&["NoRet", "X"], &["X"]]));
}

#[test]
fn barriers() {
    assert_eq!(tags("DMB SY"), t(&[&["DMB.SY"]]));
    assert_eq!(tags("DMB ISHLD"), t(&[&["DMB.ISHLD"]]));
    assert_eq!(tags("DSB ST"), t(&[&["DSB.ST"]]));
    assert_eq!(tags("ISB"), t(&[&["ISB"]]));
    for s in ["DMB.SY", "DMB.ISH", "DSB.OSHST", "ISB", "A", "L", "Q", "X", "EX", "NoRet"] {
        assert!(isa().known_sets().contains(&s), "{s}");
    }
}

/// Runs `text` under herd's sc and returns the Observation and Witnesses.
fn check(name: &str, text: &str) -> (String, u128, u128) {
    let o = isa_common::run(text, "sc").unwrap_or_else(|d| panic!("{name}: {d}"));
    let (p, n) = o.witnesses();
    (o.observation().to_string(), p, n)
}

#[test]
fn atomic_races_under_sc() {
    let cas = "AArch64 cas-race
{ 0:X1=x; 0:X0=0; 0:X2=1; 1:X1=x; 1:X0=0; 1:X2=2; }
 P0             | P1               ;
 CAS X0,X2,[X1] | CASAL W0,W2,[X1] ;
exists (0:X0=0 /\\ 1:X0=0)
";
    // Each compare-and-swap that runs is two of herd's executions (HERD-AARCH64.md §3).
    assert_eq!(check("cas", cas), ("Never".into(), 0, 8));
    let add = "AArch64 ldadd-race
{ 0:X1=x; 0:X2=1; 1:X1=x; 1:X2=1; }
 P0                 | P1            ;
 LDADDAL W2,W3,[X1] | STADD W2,[X1] ;
exists (x=2)
";
    assert_eq!(check("ldadd", add), ("Always".into(), 2, 0));
    let swp = "AArch64 swp-race
{ 0:X1=x; 0:X2=1; 1:X1=x; 1:X2=2; }
 P0              | P1              ;
 SWPA W2,W3,[X1] | SWPL W2,W3,[X1] ;
exists (0:X3=0 /\\ 1:X3=0)
";
    assert_eq!(check("swp", swp), ("Never".into(), 0, 2));
}

#[test]
fn arithmetic_and_flags() {
    let text = "AArch64 ops
{ x=7; y=3; z=3; 0:X1=x; 0:X2=2; 0:X4=y; 0:X5=5; 0:X7=z; }
 P0                 ;
 LDCLR W2,W3,[X1]   ;
 LDSMAX W5,W6,[X4]  ;
 LDEORL W5,W8,[X7]  ;
 CMP W3,#7          ;
 CSINC W9,WZR,W3,NE ;
 CSET W10,EQ        ;
 MOV WZR,#5         ;
 ADD W11,WZR,#1     ;
 B.GT L0            ;
 MOV W12,#1         ;
 L0:                ;
forall (x=5 /\\ y=5 /\\ z=6 /\\ 0:X3=7 /\\ 0:X6=3 /\\ 0:X8=3 /\\ 0:X9=8 /\\ 0:X10=1 /\\ 0:X11=1 /\\ 0:X12=1)
";
    assert_eq!(check("ops", text), ("Always".into(), 1, 0));
}

/// herd's `HAND/ATOM01`: a store-exclusive skipped by an earlier failure must not count its
/// success choice twice (herd: `Never 0 8`).
#[test]
fn skipped_store_exclusive_is_not_a_choice() {
    let text = "AArch64 ATOM01
{ ok=1; 0:X1=x; 0:X3=y; 1:X0=y; 1:X3=x; 1:X6=ok; }
 P0          | P1              ;
 MOV W0,#1   | LDXR W1,[X0]    ;
 STR W0,[X1] | STXR W2,W1,[X0] ;
 DMB SY      | CBNZ W2,Fail1   ;
 MOV W2,#1   | LDXR W4,[X3]    ;
 STR W2,[X3] | STXR W2,W4,[X3] ;
             | CBNZ W2,Fail1   ;
             | B Exit1         ;
             | Fail1:          ;
             | MOV W5,#0       ;
             | STR W5,[X6]     ;
             | Exit1:          ;
exists (ok=1 /\\ x=1 /\\ y=1 /\\ 1:X1=1 /\\ 1:X4=0)
";
    assert_eq!(check("atom01", text), ("Never".into(), 0, 8));
}
