//! AArch64's atomic pairs (`CASP`, `LDXP`/`STXP`), system registers (`MRS`/`MSR`), the
//! stack pointer and the operand forms that came with them (issue #37), against herd's
//! answers (HERD-AARCH64.md §3): counts under `sc`, the sets and relations a `catdep`
//! model sees through probe flags, and located refusals.

mod common;

use litsat::{Model, Options, Outcome, Test, check};

fn run(text: &str, model: &Model) -> Outcome {
    let test = Test::parse(text, "t.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
    check(&test, model, &Options::new()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn sc(text: &str) -> Outcome {
    run(text, &Model::bundled("sc").unwrap())
}

/// The flags a probe model (one `flag ~empty E as NAME` per line, register events on)
/// raises on `text`, sorted.
fn probe(text: &str, probes: &str) -> Vec<String> {
    let model = Model::from_text("probe.cat", &format!("\"probe\"\ncatdep\n{probes}\n")).unwrap();
    let mut f: Vec<String> = run(text, &model).flags().map(str::to_string).collect();
    f.sort();
    f
}

/// The location and message of the refusal of `text`.
fn refusal(text: &str) -> ((usize, usize), String) {
    let e = Test::parse(text, "t.litmus").err().unwrap_or_else(|| panic!("accepted: {text}"));
    let (_, line, col) = e.location();
    ((line, col), e.message().to_string())
}

const CASP: &str = "AArch64 casp
{ int x[2]; 0:X4=x; }
 P0 ;
 MOV W0,#0 ;
 MOV W1,#0 ;
 MOV W2,#2 ;
 MOV W3,#3 ;
 CASPAL W0,W1,W2,W3,[X4] ;
locations [0:X0;0:X1;]
exists (x={2,3})
";

#[test]
fn a_compare_and_swap_pair_swaps_both_halves_two_ways() {
    // Success, as for CAS, is two of herd's executions.
    let out = sc(CASP);
    assert_eq!(out.counts(), (2, 0));
    // One half differs: the pair fails, with or without writing the values back.
    let fail = CASP.replace("MOV W1,#0", "MOV W1,#5").replace("exists (x={2,3})", "exists (x={0,0} /\\ 0:X1=0)");
    assert_eq!(sc(&fail).counts(), (2, 0));
}

#[test]
fn a_compare_and_swap_pairs_reads_are_atomic_but_not_one_class() {
    let probes = "flag ~empty [R & X & A] as acquire-x
flag ~empty [W & X & L] as release-x
flag ~empty amo as amo
flag ~empty [R]; (sm \\ id); [R] as one-class
flag ~empty PRED as pred";
    assert_eq!(probe(CASP, probes), ["acquire-x", "amo", "pred", "release-x"]);
}

const EXCL: &str = "AArch64 ldxp
{ uint64_t t[2]; 0:X2=t; uint64_t 0:X3; uint64_t 0:X4; }
 P0 ;
 MOV X0,#1 ;
 MOV X1,#2 ;
 LDXP X3,X4,[X2] ;
 STXP W9,X0,X1,[X2] ;
exists (t={1,2} /\\ 0:X9=0)
";

#[test]
fn an_exclusive_pair_succeeds_or_fails_whole() {
    let out = sc(EXCL);
    // Success writes both halves, failure neither.
    assert_eq!(out.counts(), (1, 1));
    let states: Vec<String> = out.states().iter().map(|s| s.to_string()).collect();
    assert_eq!(states.len(), 2, "{states:?}");
    assert!(states.iter().any(|s| s.contains("0:X9=1") && s.contains("t={0,0}")), "{states:?}");
}

#[test]
fn an_exclusive_pairs_accesses_are_one_class_and_reserve_once() {
    let probes = "flag ~empty [R & EX]; (sm \\ id); [R & EX] as reads-one-class
flag ~empty [W & EX]; (sm \\ id); [W & EX] as writes-one-class
flag ~empty [R]; (sm \\ id); [W] as across
flag ~empty lxsx as lxsx
flag ~empty [Wreg]; (loc & same-instance) \\ id; [Wreg] as two-register-writes";
    // LDXP writes two data registers and one reservation: no register written twice.
    assert_eq!(probe(EXCL, probes), ["lxsx", "reads-one-class", "writes-one-class"]);
}

#[test]
fn nzcv_moves_to_and_from_the_flags() {
    // CMP W1,#0 with W1 = 0: Z and C set, bits 30 and 29.
    let text = "AArch64 mrs
{ uint64_t 0:X0; uint64_t 0:X2; 0:X3=1610612736; }
 P0 ;
 CMP W1,#0 ;
 MRS X0,NZCV ;
 LSR X0,X0,28 ;
 MSR NZCV,X3 ;
 CSET W4,EQ ;
 CSET W5,CS ;
 CSET W6,MI ;
 MSR TFSR_ELx,X0 ;
 MRS X2,tfsr_elx ;
forall (0:X0=6 /\\ 0:X4=1 /\\ 0:X5=1 /\\ 0:X6=0 /\\ 0:X2=6)
";
    assert_eq!(sc(text).counts(), (1, 0));
}

#[test]
fn the_stack_pointer_is_a_register() {
    let text = "AArch64 sp
{ 0:sp=x; uint64_t x=1; uint64_t 1:SP=1; }
 P0 | P1 ;
 ldr X1,[SP] | add X2,SP,#8 ;
 | mov X3,sp ;
forall (0:X1=1 /\\ 1:X2=9 /\\ 1:X3=1 /\\ 1:SP=1)
";
    assert_eq!(sc(text).counts(), (1, 0));
}

#[test]
fn operand_forms_herds_lexer_reads() {
    // `LSL#2` is `LSL #2`; an initial register may hold an element's address; `locations`
    // may name an element.
    let text = "AArch64 forms
{ uint32_t x[2] = {2,2}; 0:X0=1; 0:X2=x; int64_t 0:X3=1; 0:X4=x[1]; }
 P0 ;
 STR W0,[X2,X3,LSL#2] ;
 LDR W5,[X4] ;
locations [x[1];]
forall (x={2,1} /\\ 0:X5=1)
";
    assert_eq!(sc(text).counts(), (1, 0));
}

fn one(instr: &str) -> String {
    format!("AArch64 bad\n{{ 0:X1=x; }}\n P0 ;\n {instr} ;\nexists (x=0)\n")
}

#[test]
fn bad_operands_are_refused_at_their_column() {
    // Each refusal, the text it points at (the instruction's start where that is empty),
    // and what it says.
    let cases: &[(&str, &str, &str)] = &[
        ("CASP W0,X1,W2,W3,[X4]", "", "registers of different widths"),
        ("CASP W0,W1,W2,W3,[X4,#0]", "[X4,#0]", "expected `[Xn]`"),
        ("CASPA W0,W1,W2,W3,[X4,#8]", "[X4,#8]", "expected `[Xn]`"),
        ("STXP X9,X0,X1,[X2]", "X9", "expected a W status register"),
        ("LDXP X3,X4,[X2,#8]", "[X2,#8]", "expected `[Xn]`"),
        ("LDXP X3,X4,[W2]", "W2", "a base register is an X register"),
        ("MRS W0,NZCV", "W0", "expected an X register"),
        ("MRS X0,FOO_EL1", "FOO_EL1", "unsupported system register 'FOO_EL1'"),
        ("MSR CTR_EL0,W3", "W3", "expected an X register"),
        ("ADD X0,CTR_EL0,#1", "CTR_EL0", "a system register, 'CTR_EL0'"),
        ("STR W0,[X2,X3,LSX#2]", "LSX#2", "unsupported operand modifier 'LSX#2'"),
        ("STILP X0,X1,[X2,#-8]!", "", "STILP takes `[Xn]` or `[Xn,#-16]!`"),
        ("STR WZR,[C1]", "C1", "capability register 'C1' (herd's variant morello)"),
    ];
    for &(instr, at, msg) in cases {
        let ((line, c), m) = refusal(&one(instr));
        assert_eq!(line, 4, "{instr}: {m}");
        // The cell's text starts at column 2.
        assert_eq!(c, 2 + instr.find(at).unwrap(), "{instr}: {m}");
        assert!(m.contains(msg), "{instr}: {m}");
    }
}

/// herd's L083 with the base already past the pair (herd refuses nothing there; litsat
/// has no address outside an array): the pre-indexed `STILP` writes the higher address
/// first, so a reader that sees the lower one sees the higher too (herd: `Never 0 3`).
#[test]
fn a_pre_indexed_store_pair_writes_downwards() {
    let Some(shared) = common::shared_or_skip("a_pre_indexed_store_pair_writes_downwards") else { return };
    let dir = shared.join("models/herd");
    let model = Model::from_file(dir.join("aarch64.cat"), std::slice::from_ref(&dir))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let text = "AArch64 stilp
{ int64_t x[4]; 0:X2=x[2]; 1:X2=x; int64_t 1:X0; int64_t 1:X1; }
 P0 | P1 ;
 MOV X0,#1 | LDR X1,[X2] ;
 MOV X1,#2 | DMB LD ;
 STILP X0,X1,[X2,#-16]! | LDR X0,[X2,#8] ;
~exists (1:X1=1 /\\ 1:X0=0)
";
    let out = run(text, &model);
    assert_eq!(out.observation().word(), "Never");
    assert_eq!(out.counts(), (0, 3));
}
