//! AArch64 code addresses as values (herd's `ADR`, `BL`, `BLR`, `BR`, `RET`, branch
//! offsets): subroutines laid out per call, branches across threads, branches on a value
//! read from memory, instructions read as values.

mod isa_common;

/// Observation, Witnesses and the States lines under herd's sc.
fn run(text: &str) -> (String, u128, u128, Vec<String>) {
    let o = isa_common::run(text, "sc").unwrap_or_else(|d| panic!("{d}"));
    let (p, n) = o.witnesses();
    let states = o.states.iter().map(litsat::report::state_line).collect();
    (o.observation().to_string(), p, n, states)
}

#[test]
fn a_subroutine_called_twice_returns_to_each_caller() {
    let text = "AArch64 calls
{ }
 P0           ;
 MOV W0,#10   ;
 BL Ldbl      ;
 BL Ldbl      ;
 B Lend       ;
Ldbl:         ;
 ADD W0,W0,W0 ;
 RET          ;
Lend:         ;
forall 0:X0=40
";
    assert_eq!(run(text).0, "Always");
}

#[test]
fn a_thread_calls_another_threads_code_through_a_register() {
    let text = "AArch64 cross-call
{ 0:X5=P1:Linc; }
 P0           | P1           ;
 MOV W3,#1    | MOV W3,#7    ;
 BLR X5       | B Lout       ;
 MOV W4,W3    |Linc:         ;
 B Ldone      | ADD W3,W3,#2 ;
Ldone:        | RET          ;
              |Lout:         ;
forall 0:X4=3 /\\ 1:X3=7
";
    assert_eq!(run(text).0, "Always");
}

#[test]
fn a_link_with_a_label_prints_as_a_label() {
    let text = "AArch64 link
{ }
 P0     ;
 BL Lk  ;
Lk:     ;
 NOP    ;
locations [0:X30;]
";
    let (_, _, _, states) = run(text);
    assert_eq!(states, vec!["0:X30=label:\"P0:Lk\";".to_string()]);
}

#[test]
fn a_branch_on_a_value_read_goes_to_the_label_read() {
    // P1 branches to the label it reads: its own store's, or P0's.
    let text = "AArch64 read-target
{ 0:X2=z; 0:X3=P1:La; 1:X2=z; }
 P0          | P1          ;
 STR X3,[X2] | ADR X5,Lb   ;
             | STR X5,[X2] ;
             | LDR X6,[X2] ;
             | BR X6       ;
             |La:          ;
             | MOV W0,#1   ;
             |Lb:          ;
exists 1:X0=1
";
    let (obs, p, n, states) = run(text);
    assert_eq!((obs.as_str(), p, n), ("Sometimes", 1, 2));
    assert_eq!(states.len(), 2);
}

#[test]
fn a_label_taken_as_an_address_reads_its_instruction() {
    let text = "AArch64 read-code
{ 0:X0=instr:\"SUB W7,W7,#3\"; }
 P0          ;
 ADR X1,Lc   ;
 LDR W2,[X1] ;
 CMP W0,W2   ;
 CSET W3,EQ  ;
 B .+8       ;
Lc:          ;
 SUB W7,W7,#3;
locations [0:X2;]
forall 0:X3=1 /\\ 0:X7=0
";
    let (obs, _, _, states) = run(text);
    assert_eq!(obs, "Always");
    assert!(states[0].contains("0:X2=instr:\"SUB W7,W7,#3\";"), "{states:?}");
}

#[test]
fn a_backward_offset_loops_as_a_label_does() {
    let text = "AArch64 offset-loop
{ 0:X0=3; }
 P0            ;
 ADD W1,W1,#5  ;
 SUBS W0,W0,#1 ;
 B.NE .-8      ;
forall 0:X1=15
";
    assert_eq!(run(text).0, "Always");
}
