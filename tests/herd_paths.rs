//! What herd does on paths a naive reading gets wrong: an access at a number (not an
//! address) fails its execution only once the model allows it, and a loop whose exit
//! the values known before any read decide is run to its end, past `-unroll`.

mod isa_common;

/// The Observation, the Witnesses, and whether some execution was cut off (`Loop`).
fn answer(text: &str, model: &str) -> (String, u128, u128, bool) {
    let o = isa_common::run(text, model).unwrap_or_else(|d| panic!("{d}"));
    let (p, n) = o.witnesses();
    (o.observation().to_string(), p, n, o.looped)
}

/// P1 loads 16 from `y` and then loads from it, on the path where it read `x` as 1 and
/// then 0: that path breaks coherence, so the model rejects every execution that makes
/// the access, and the test has the three executions of the other path.
const SKIPPED: &str = "AArch64 number-on-dead-path
{ int x=0; int64_t y=16; 0:X1=x; 1:X1=x; 1:X3=y; }
 P0          | P1           ;
 MOV W0,#1   | LDR W0,[X1]  ;
 STR W0,[X1] | LDR W2,[X1]  ;
             | EOR W4,W0,#1 ;
             | ORR W4,W4,W2 ;
             | CBNZ W4,L1   ;
             | LDR X5,[X3]  ;
             | LDR W6,[X5]  ;
             |L1:           ;
forall 1:X4=1
";

#[test]
fn an_access_at_a_number_on_a_rejected_path_drops_only_that_path() {
    assert_eq!(answer(SKIPPED, "aarch64"), ("Always".into(), 3, 0, false));
}

#[test]
fn an_access_at_a_number_the_model_allows_is_refused_where_it_is() {
    let text = "AArch64 number-allowed
{ int64_t y=16; 0:X3=y; }
 P0          ;
 LDR X5,[X3] ;
 LDR W6,[X5] ;
exists 0:X5=16
";
    let err = isa_common::run(text, "aarch64").map(|o| o.observation().to_string()).expect_err("refused");
    assert!(err.contains(":5:2:") && err.contains("Non symbolic address: [16]"), "{err}");
}

/// A counter from 10 down to 0: the branch back is decided by constants, so herd runs
/// all ten iterations, whatever `-unroll` says.
const COUNTED: &str = "AArch64 counted-loop
{ }
 P0           ;
 MOV W0,#10   ;
 MOV W1,#0    ;
L0:           ;
 ADD W1,W1,#1 ;
 SUB W0,W0,#1 ;
 CBNZ W0,L0   ;
forall 0:X1=10
";

#[test]
fn a_loop_decided_by_constants_runs_to_its_end() {
    assert_eq!(answer(COUNTED, "aarch64"), ("Always".into(), 1, 0, false));
    assert_eq!(answer(COUNTED, "sc"), ("Always".into(), 1, 0, false));
}

/// After the counted loop, a loop on a value read: that one is unrolled as usual, and
/// the executions past the bound are cut off.
#[test]
fn a_loop_on_a_read_after_a_counted_one_is_still_bounded() {
    let text = "AArch64 counted-then-spin
{ 0:X2=x; 1:X2=x; }
 P0           | P1          ;
 MOV W0,#3    | MOV W1,#1   ;
L0:           | STR W1,[X2] ;
 SUB W0,W0,#1 |             ;
 CBNZ W0,L0   |             ;
L1:           |             ;
 LDR W3,[X2]  |             ;
 CBZ W3,L1    |             ;
exists 0:X3=1
";
    let (obs, p, n, looped) = answer(text, "aarch64");
    assert_eq!((obs.as_str(), n, looped), ("Always", 0, true), "{p}");
    assert!(p > 0);
}
