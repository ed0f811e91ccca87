//! The ARM (ARMv7) plug-in: register names, herd's sets on events, the Z flag, herd's
//! symbolic registers, located refusals, and herd's answers under its own `arm.cat` for the
//! project's ARM tests (when `../shared` is present).

mod isa_common;

mod common;

use common::shared_or_skip;
use litsat::isa::{Addr, BinOp, Cond, Isa, Op, Src, for_arch};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use std::path::Path;

fn isa() -> &'static dyn Isa {
    for_arch("ARM").expect("ARM plug-in")
}

fn ops(text: &str) -> Vec<Op> {
    isa_common::ops(isa(), text)
}

fn error(text: &str) -> String {
    isa_common::error(isa(), text)
}

fn fence_tags(text: &str) -> Vec<String> {
    match ops(text).as_slice() {
        [Op::Fence { tags }] => tags.iter().map(|t| t.to_string()).collect(),
        o => panic!("{text}: {o:?}"),
    }
}

#[test]
fn registers() {
    let a = isa();
    assert_eq!(a.canonical_reg("R5").as_deref(), Some("R5"));
    assert_eq!(a.canonical_reg("r12").as_deref(), Some("R12"));
    assert_eq!(a.canonical_reg("IP").as_deref(), Some("R12"));
    assert_eq!(a.canonical_reg("FP").as_deref(), Some("R11"));
    assert_eq!(a.canonical_reg("R14").as_deref(), Some("LR"));
    assert_eq!(a.canonical_reg("R16"), None);
    assert_eq!(a.canonical_reg("X1"), None);
    assert!(a.reg_index("R2") < a.reg_index("R10"));
    assert_eq!(a.symbolic_regs().len(), 13);
}

#[test]
fn barriers_carry_herds_sets() {
    assert_eq!(fence_tags("DMB"), ["DMB"]);
    assert_eq!(fence_tags("DMB SY"), ["DMB"]);
    assert_eq!(fence_tags("DMB ISH"), ["DMB.ISH"]);
    assert_eq!(fence_tags("DMB ST"), ["DMB.ST"]);
    assert_eq!(fence_tags("DSB"), ["DSB"]);
    assert_eq!(fence_tags("DSB ST"), ["DSB.ST"]);
    assert_eq!(fence_tags("ISB"), ["ISB"]);
    // Fences in no set but F.
    assert!(fence_tags("DMB ISHST").is_empty());
    assert!(fence_tags("DSB ISH").is_empty());
    assert!(fence_tags("dmb").contains(&"DMB".to_string()));
    assert!(error("DMB LD").contains("barrier option"));
}

#[test]
fn accesses_and_dependencies() {
    let load =
        |dst: &str, base: &str, off: i64| Op::Load { dst: dst.into(), addr: Addr::Reg(base.into(), off), tags: vec![] };
    // Every access says it is a word wide.
    assert_eq!(ops("LDR R0,[R1]"), vec![Op::Width(4), load("R0", "R1", 0)]);
    // herd's old syntax: a bare address register.
    assert_eq!(ops("ldr R1,R5"), vec![Op::Width(4), load("R1", "R5", 0)]);
    // A constant offset is the address's byte offset.
    assert_eq!(ops("LDR R1,[R0,#4]"), vec![Op::Width(4), load("R1", "R0", 4)]);
    // A register offset is an addition, so both registers give address dependencies.
    let o = ops("STR R2,[R1,R4]");
    assert_eq!(o[1], Op::Bin { dst: "%a".into(), op: BinOp::Add, a: Src::Reg("R1".into()), b: Src::Reg("R4".into()) });
    assert!(matches!(&o[2], Op::Store { addr: Addr::Reg(a, 0), .. } if a == "%a"));
    // A shifted register offset: `%o = R3 << 2` first.
    let o = ops("LDR R2,[R1,R3,LSL #2]");
    assert_eq!(o[1], Op::Bin { dst: "%o".into(), op: BinOp::Shl, a: Src::Reg("R3".into()), b: Src::Imm(2) });
    assert_eq!(o[2], Op::Bin { dst: "%a".into(), op: BinOp::Add, a: Src::Reg("R1".into()), b: Src::Reg("%o".into()) });
    assert!(matches!(ops("LDREX R0,[R1]").as_slice(), [Op::Width(4), Op::Load { tags, .. }] if tags == &["X", "EX"]));
    assert!(matches!(
        ops("STREX R2,R0,[R1]").as_slice(),
        [Op::Width(4), Op::StoreCond { status: Some(s), ok: 0, fail: 1, tags, .. }] if s == "R2" && tags == &["X", "EX"]
    ));
}

#[test]
fn multiple_word_loads() {
    let load = |dst: &str, off: i64| Op::Load { dst: dst.into(), addr: Addr::Reg("%m".into(), off), tags: vec![] };
    let copy = |base: &str| Op::Mov { dst: "%m".into(), src: Src::Reg(base.into()) };
    // LDRD: two words, the second register named or the next one.
    assert_eq!(ops("LDRD R2,R3,[R1]"), vec![Op::Width(4), copy("R1"), load("R2", 0), load("R3", 4)]);
    assert_eq!(ops("LDRD R4,[R1]"), vec![Op::Width(4), copy("R1"), load("R4", 0), load("R5", 4)]);
    assert_eq!(ops("LDRD R4,[R1,#8]"), vec![Op::Width(4), copy("R1"), load("R4", 8), load("R5", 12)]);
    assert!(error("LDRD R12,[R1]").contains("no next register"));
    // LDM fills the registers lowest first from ascending words; IB starts one word up.
    assert_eq!(ops("LDM R0, { R2, R1 }"), vec![Op::Width(4), copy("R0"), load("R1", 0), load("R2", 4)]);
    assert_eq!(ops("LDMIA R0,{R1-R3}"), vec![Op::Width(4), copy("R0"), load("R1", 0), load("R2", 4), load("R3", 8)]);
    assert_eq!(ops("LDMIB R0,{R1,R2}"), vec![Op::Width(4), copy("R0"), load("R1", 4), load("R2", 8)]);
    assert!(error("LDM R0!,{R1,R2}").contains("write-back"));
    assert!(error("LDM R0,R1").contains("register list"));
}

#[test]
fn arrays_in_memory() {
    // Elements are locations; a register bound to the array holds element 0's address.
    let o = run("ARM AR1\n{ int x[3] = {1,2,3}; 0:R0 = x; 0:R3 = 2; }\n P0 ;\n LDMIB R0,{R1,R2} ;\n LDR R4,[R0,R3,LSL #2] ;\n STR R1,[R0] ;\nforall (0:R1=2 /\\ 0:R2=3 /\\ 0:R4=3 /\\ x=2 /\\ x[1]=2)\n")
        .expect("answered");
    assert_eq!(o.observation().word(), "Always");
    // An index loaded from memory: the solver decides the element.
    let o = run("ARM AR2\n{ int t[2] = {5,6}; 0:R0 = t; 0:R1 = y; 1:R1 = y; }\n P0 | P1 ;\n LDR R2,[R1] | MOV R0,#4 ;\n LDR R3,[R0,R2] | STR R0,[R1] ;\nexists (0:R3=6)\n")
        .expect("answered");
    assert_eq!(o.observation().word(), "Sometimes");
    assert_eq!(state_lines(&o), ["0:R3=5;", "0:R3=6;"]);
    // Off an element boundary, outside the array, or wider than an element: located refusals.
    let mis = run("ARM AR3\n{ int x[2]; 0:R0 = x; }\n P0 ;\n LDR R1,[R0,#2] ;\nexists (0:R1=0)\n");
    assert!(mis.unwrap_err().contains("not at an element"));
    let out = run("ARM AR4\n{ int x[2]; 0:R0 = x; }\n P0 ;\n LDR R1,[R0,#8] ;\nexists (0:R1=0)\n");
    assert!(out.unwrap_err().contains("outside its array"));
    let wide = run("ARM AR5\n{ int64_t x[2]; 0:R0 = x; }\n P0 ;\n LDR R1,[R0,#8] ;\nexists (0:R1=0)\n");
    assert!(wide.unwrap_err().contains("mixed-size"));
    let scalar = run("ARM AR6\n{ 0:R0 = x; }\n P0 ;\n LDR R1,[R0,#4] ;\nexists (0:R1=0)\n");
    assert!(scalar.unwrap_err().contains("no array element"));
    let untyped = run("ARM AR7\n{ atomic_int x[2]; 0:R0 = x; }\n P0 ;\n LDR R1,[R0] ;\nexists (0:R1=0)\n");
    assert!(untyped.unwrap_err().contains("arrays of `atomic_int`"));
    let count = run("ARM AR8\n{ int x[2] = {1}; }\n P0 ;\n LDR R1,[R0] ;\nexists (0:R1=0)\n");
    assert!(count.unwrap_err().contains("2 elements but 1 initial values"));
}

#[test]
fn computed_branches_to_labels() {
    // BX to a label its register is bound to: a branch over the MOV.
    let o =
        run("ARM J1\n{ 0:R0 = P0:foo; }\n P0 ;\n BX R0 ;\n MOV R1,#1 ;\n foo: ;\nforall (0:R1=0)\n").expect("answered");
    assert_eq!(o.observation().word(), "Always");
    let bound = run("ARM J2\n{ 0:R0 = x; }\n P0 ;\n BX R0 ;\n foo: ;\nforall (0:R1=0)\n");
    assert!(bound.unwrap_err().contains("no code label"));
    let written = run("ARM J3\n{ 0:R0 = P0:foo; }\n P0 ;\n MOV R0,#0 ;\n BX R0 ;\n foo: ;\nforall (0:R1=0)\n");
    assert!(written.unwrap_err().contains("the thread writes it"));
    let other = run("ARM J4\n{ 0:R0 = P1:foo; }\n P0 | P1 ;\n BX R0 | foo: ;\nforall (0:R1=0)\n");
    assert!(other.unwrap_err().contains("no code label of this thread"));
}

#[test]
fn flags_and_conditions() {
    // CMP leaves its operands; BNE branches where they differ.
    assert_eq!(ops("CMP R0,#1").len(), 2);
    assert_eq!(
        ops("BNE L0"),
        vec![Op::Branch {
            cond: Some(Cond { op: BinOp::Ne, a: Src::Reg("%fa".into()), b: Src::Reg("%fb".into()) }),
            target: "L0".into()
        }]
    );
    assert!(matches!(ops("B L1").as_slice(), [Op::Branch { cond: None, .. }]));
    // A conditional register operation keeps the old value where the condition fails.
    assert!(
        matches!(ops("MOVWEQ R1,#2").last(), Some(Op::Select { dst, b: Src::Reg(old), .. }) if dst == "R1" && old == "R1")
    );
    // SUBS sets Z from its result.
    assert!(
        ops("SUBS R2,R1,#1")
            .iter()
            .any(|o| matches!(o, Op::Mov { dst, src: Src::Reg(r) } if dst == "%fa" && r == "R2"))
    );
    // herd's MOVT writes k << 16, a 32-bit value.
    assert_eq!(ops("MOVT R0,#48879"), vec![Op::Mov { dst: "R0".into(), src: Src::Imm(0xBEEF_0000u32 as i32 as i64) }]);
    assert_eq!(ops("BX LR"), vec![Op::Exit]);
    assert!(error("BGT L0").contains("condition code"));
    assert_eq!(ops("BX R0"), vec![Op::Jump("R0".into())]);
}

#[test]
fn refusals_are_messages() {
    assert!(error("FOO R0,R1").contains("unsupported instruction"));
    assert!(error("MOV R16,#1").contains("register"));
    assert!(error("LDR R0,[X1]").contains("register"));
    assert!(error("LDR R0,[R1]!").contains("pre- or post-indexed"));
    // A shift outside 0-31 is refused, not taken modulo 64; so are flag-setting branches.
    assert!(error("LDR R0,[R2,R3,LSL #66]").contains("a shift must be 0 to 31"));
    assert!(error("BEQS L0").contains("flag-setting"));
    assert!(error("CBZS R0,L0").contains("flag-setting"));
    assert!(error("LDRD R0,R1,[R2,#9223372036854775807]").contains("out of range"));
}

/// Places and arrays the initial state does not declare are located errors.
#[test]
fn undeclared_elements_and_huge_arrays_are_refused_where_written() {
    let e = run("ARM E1\n{ int x[2] = {1,2}; 0:R1=x; }\n P0 ;\n LDR R0,[R1] ;\nexists (x[5]=0)\n").unwrap_err();
    assert!(e.contains(":5:9: error: `x[5]` is no element"), "{e}");
    let e = run("ARM E2\n{ 0:R1=y; }\n P0 ;\n LDR R0,[R1] ;\nexists (y[1]=0)\n").unwrap_err();
    assert!(e.contains("`y[1]` is no element"), "{e}");
    let e = run("ARM E3\n{ int x[4000000000]; 0:R1=x; }\n P0 ;\n LDR R0,[R1] ;\nexists (0:R0=0)\n").unwrap_err();
    assert!(e.contains(":2:3: error: unsupported: an array of 4000000000 elements"), "{e}");
}

/// Runs a test written inline under the bundled `sc`, returning its outcome or its
/// diagnostic, rendered as `file:line:col: error: message`.
fn run(text: &str) -> Result<litsat::query::Outcome, String> {
    isa_common::run(text, "sc")
}

#[test]
fn symbolic_registers_take_free_registers() {
    // P0 uses R0 and R1 itself, so %x0 and %y0 take R2 and R3, in name order; a symbolic
    // register in the condition prints as the register it was given.
    let o = run("ARM S1\n{ %x0=x; %y0=y; }\n P0 ;\n MOV R0,#1 ;\n STR R0,[%y0] ;\n LDR R1,[%x0] ;\nexists (%x0=x /\\ %y0=y /\\ 0:R1=0)\n")
        .expect("answered");
    assert_eq!(o.observation().word(), "Always");
    assert_eq!(state_lines(&o), ["0:R1=0; 0:R2=x; 0:R3=y;"]);
}

/// The state lines of an outcome, as the log prints them.
fn state_lines(o: &litsat::query::Outcome) -> Vec<String> {
    o.states.iter().map(litsat::report::state_line).collect()
}

#[test]
fn symbolic_registers_misused_are_errors() {
    let two = run("ARM S2\n{ %x0=x; }\n P0 | P1 ;\n LDR R0,[%x0] | LDR R0,[%x0] ;\nexists (0:R0=0)\n");
    assert!(two.unwrap_err().contains("ambiguous symbolic register"));
    let unused = run("ARM S3\n{ %x0=x; %z=y; }\n P0 ;\n LDR R0,[%x0] ;\nexists (0:R0=0)\n");
    assert!(unused.unwrap_err().contains("%z does not appear in code"));
    // In the condition, which keeps no positions, the error points at the register.
    let e = run("ARM S5\n{ 0:R2=x; }\n P0 ;\n LDR R0,[R2] ;\nexists (%q=0)\n").unwrap_err();
    assert!(e.contains(":5:9: error: symbolic register %q does not appear in code"), "{e}");
    // Undeclared, it is each thread's own register, starting at 0.
    let local = run("ARM S4\n{ 0:R1=x; }\n P0 | P1 ;\n MOV %t,#1 | MOV %t,#2 ;\n STR %t,[R1] | ;\nexists (x=1)\n");
    assert_eq!(local.expect("answered").observation().word(), "Always");
}

#[test]
fn project_tests_under_herds_arm_cat() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(herd) = shared_or_skip("the project's ARM tests under herd's arm.cat").map(|s| s.join("models/herd"))
    else {
        return;
    };
    let prog = litsat::cat::load_program(&herd.join("arm.cat").to_string_lossy(), std::slice::from_ref(&herd)).unwrap();
    for (name, want) in [
        ("SB", "Sometimes"),
        ("MP+dmb+addr", "Never"),
        ("MP+dmb+addr+symbolic", "Never"),
        ("MP+dmb+ctrl", "Sometimes"),
        ("MP+dmb+ctrlisb", "Never"),
        ("IRIW+dmbs", "Never"),
        ("2+inc+ldrex-strex", "Never"),
    ] {
        let o = check_file(&root.join(format!("litmus/arm/{name}.litmus")), &prog, &Options::default())
            .outcome
            .unwrap_or_else(|d| panic!("{name}: {}", d.message));
        assert_eq!(o.observation().word(), want, "{name} under herd's arm.cat");
    }
}
