//! AArch64 register values herd allows and litsat once refused: symbolic registers given
//! values in the initial state (`%name`, and telechat's `X%name`/`W%name`, with its `RET`
//! that ends the thread), and a load from a raw address that only executions the model
//! forbids make (herd fails the test only where the model allows the access).

use litsat::{Model, Options, Test, check};

/// herd's log of `text` under the bundled `aarch64` model, without its `Time` line, or
/// the message refusing it.
fn log(text: &str) -> Result<String, String> {
    let test = Test::parse(text, "t.litmus").map_err(|e| e.message().to_string())?;
    let model = Model::bundled("aarch64").unwrap_or_else(|e| panic!("{}", e.render()));
    let out = check(&test, &model, &Options::new()).map_err(|e| e.message().to_string())?;
    Ok(out.log().lines().filter(|l| !l.starts_with("Time ")).map(|l| format!("{l}\n")).collect())
}

#[test]
fn a_symbolic_register_given_a_value_is_a_register_of_its_thread() {
    let text = "AArch64 S\n{ uint64_t %r = x; uint64_t x; }\n P0 ;\n MOV X0,%r ;\nexists (0:X0=x)\n";
    let l = log(text).unwrap_or_else(|m| panic!("{m}"));
    assert!(l.contains("States 1\n0:X0=x;\n"), "{l}");
    assert!(l.contains("Observation S Always 1 0\n"), "{l}");
}

#[test]
fn telechat_registers_take_their_width_and_ret_ends_the_thread() {
    let text = "AArch64 T
Variant=telechat
{ [x]=0; [r]=0; uint64_t %P0_x=x; uint64_t %P1_x=x; uint64_t %P1_r=r; }
 P0               | P1                 ;
 MOVZ W1,#2       |  LDR W1,[X%P1_x]   ;
 STR W1,[X%P0_x]  |  STR W1,[X%P1_r]   ;
 RET              |  RET               ;
 MOVZ W1,#3       |  MOVZ W1,#5        ;
 STR W1,[X%P0_x]  |  STR W1,[X%P1_r]   ;
exists ([x]=2 /\\ r=2)
";
    let l = log(text).unwrap_or_else(|m| panic!("{m}"));
    // Nothing after a RET runs: x never gets 3, r never 5.
    assert!(l.contains("States 2\n[r]=0; [x]=2;\n[r]=2; [x]=2;\n"), "{l}");
    assert!(l.contains("Observation T Sometimes 1 1\n"), "{l}");
    // Without telechat, RET jumps to X30, which holds no code label.
    let plain = text.replace("Variant=telechat\n", "");
    assert!(log(&plain).is_err());
}

/// herd's A261 shape: the load from address 16 runs only after x=1 then x=0 were read,
/// which the model forbids (coherence); where `avoid` is false it runs on every path.
fn raw(avoid: bool) -> String {
    let guard = if avoid { " EOR W4,W0,#1 | ORR W4,W4,W2 | CBNZ W4,L1 |" } else { " | | |" };
    let cells: Vec<&str> = guard.split('|').map(str::trim).collect();
    format!(
        "AArch64 R
{{ int x=0; 0:X1=x; 1:X1=x; 1:X3=16; }}
 P0          | P1           ;
 MOV W0,#1   | LDR W0,[X1]  ;
 STR W0,[X1] | LDR W2,[X1]  ;
             | {}  ;
             | {}  ;
             | {}  ;
             | LDR W6,[X3]  ;
             |L1:           ;
forall 1:X0=1 \\/ 1:X0=0
",
        cells[0], cells[1], cells[2]
    )
}

#[test]
fn a_raw_address_the_model_never_reaches_is_no_failure() {
    let l = log(&raw(true)).unwrap_or_else(|m| panic!("{m}"));
    // Three executions: (0,0), (0,1), (1,1); (1,0) is the forbidden one that loads.
    assert!(l.contains("Positive: 3 Negative: 0\n"), "{l}");
}

#[test]
fn a_raw_address_the_model_reaches_fails_the_test() {
    let m = log(&raw(false)).expect_err("herd fails on the access");
    assert!(m.contains("Non symbolic address: [16]"), "{m}");
}

#[test]
fn under_nv2_system_registers_are_memory_at_vncr_el2() {
    // herd's A254 shape: ELR_EL1 is at VNCR_EL2+0x230 (element 70 of 8 bytes).
    let text = "AArch64 N
Variant=NV2
{ uint64_t nvmem[100]; 0:VNCR_EL2=nvmem; 1:X1=nvmem; }
 P0             | P1              ;
 MOV X0,#1      | LDR X0,[X1,560] ;
 MSR ELR_EL1,X0 |                 ;
exists (1:X0=1)
";
    let l = log(text).unwrap_or_else(|m| panic!("{m}"));
    assert!(l.contains("Observation N Sometimes 1 1\n"), "{l}");
    // Without NV2, ELR_EL1 is a register: memory never sees the 1.
    let l = log(&text.replace("Variant=NV2\n", "")).unwrap_or_else(|m| panic!("{m}"));
    assert!(l.contains("Observation N Never 0 1\n"), "{l}");
    // MRS reads it back from memory; MSR VNCR_EL2 stores at the old VNCR_EL2+0xB0.
    let read = "AArch64 M
Variant=NV2
{ uint64_t nvmem[80]; 0:VNCR_EL2=nvmem; 0:X1=nvmem; }
 P0               ;
 MOV X0,#1        ;
 MSR VNCR_EL2,X0  ;
 LDR X2,[X1,#176] ;
 MRS X3,ESR_EL1   ;
forall (0:X2=1 /\\ 0:X3=0)
";
    let l = log(read).unwrap_or_else(|m| panic!("{m}"));
    assert!(l.contains("Observation M Always 1 0\n"), "{l}");
}
