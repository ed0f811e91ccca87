//! The Power plug-in on what herd's PPC parser reads beyond the common spellings: the older
//! displacement spelling `d,rA`, the update forms, `subi`, `divw`, `mfcr`, `bnl`/`bng`,
//! `com "…"` and the link register. Each gives herd's meaning (its `PPCSem`): as the ops of
//! the modern twin, as the same log as the modern spelling, and as final values of the
//! project's tests in `litmus/ppc`. What herd reads but gives no meaning is refused, located,
//! saying why.

mod isa_common;

use isa_common::{check, run};
use litsat::isa::{Isa, Op, for_arch};
use litsat::query::Outcome;
use std::path::{Path, PathBuf};

fn isa() -> &'static dyn Isa {
    for_arch("PPC").expect("PPC plug-in")
}

fn ops(text: &str) -> Vec<Op> {
    isa_common::ops(isa(), text)
}

fn error(text: &str) -> String {
    isa_common::error(isa(), text)
}

fn project_test(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("litmus/ppc").join(format!("{name}.litmus"))
}

fn log(o: &Outcome) -> String {
    litsat::report::herd_log(o, 0.0)
}

#[test]
fn comma_displacements_are_the_d_form() {
    for (old, new) in [
        ("stw r6,0,r4", "stw r6,0(r4)"),
        ("lwz r1,0,r5", "lwz r1,0(r5)"),
        ("ld r1,-8,r5", "ld r1,-8(r5)"),
        ("std r2,16,r0", "std r2,16(r0)"),
        ("lwzu r1,4,r3", "lwzu r1,4(r3)"),
        ("stwu r1,4,r3", "stwu r1,4(r3)"),
    ] {
        assert_eq!(ops(old), ops(new), "{old}");
    }
    // herd reads `lwa` only as d(rA), and a displacement is a number.
    assert!(error("lwa r1,0,r2").contains("unsupported instruction"));
    assert!(error("lwz r1,r2,r3").contains("expected an immediate, found 'r2'"));
    assert!(error("stw r1,0,r2,r3").contains("offset(register)"));
}

#[test]
fn older_mnemonics_are_their_modern_twins() {
    assert_eq!(ops("subi r3,r4,5"), ops("addi r3,r4,-5"));
    // r0 as rA is 0 in subi, as in addi.
    assert_eq!(ops("subi r3,r0,5"), ops("li r3,-5"));
    assert_eq!(ops("bnl L0"), ops("bge L0"));
    assert_eq!(ops("bng L0"), ops("ble L0"));
    assert!(ops("com \"a note, with a comma\"").is_empty());
    assert!(error("com note").contains("quoted string"));
    // The record form of divw sets cr0 as the other record forms do.
    let d = ops("divw. r3,r4,r5");
    assert_eq!(&d[1..], &ops("add. r3,r4,r5")[1..]);
}

#[test]
fn the_link_register_is_a_register() {
    let a = isa();
    assert_eq!(a.canonical_reg("lr").as_deref(), Some("LR"));
    assert_eq!(a.canonical_reg("LR").as_deref(), Some("LR"));
    assert!(a.reg_index("r31") < a.reg_index("LR"));
    // herd names no other special register.
    assert_eq!(a.canonical_reg("ctr"), None);
    assert_eq!(a.canonical_reg("xer"), None);
    assert_eq!(ops("mr r3,lr"), ops("mr r3,LR"));
}

#[test]
fn what_herd_reads_without_a_meaning_is_refused_saying_why() {
    let unimplemented = [
        "neg r1,r2",
        "neg. r1,r2",
        "nor r1,r2,r3",
        "nor. r1,r2,r3",
        "slw r1,r2,r3",
        "srawi r1,r2,3",
        "sraw r1,r2,r3",
        "bl L0",
        "mtlr r1",
        "mflr r1",
        "lmw r28,0(r1)",
        "stmw r28,0(r1)",
    ];
    for t in unimplemented {
        let e = error(t);
        assert!(e.contains(&format!("'{t}'")) && e.contains("does not implement"), "{t}: {e}");
    }
    let narrow = ["lbz r1,0(r2)", "lbz r1,0,r2", "lhz r1,0(r2)", "lbzx r1,r2,r3", "lhzx r1,r2,r3", "stb r1,0(r2)"];
    for t in narrow.into_iter().chain(["sth r1,2,r2", "stbx r1,r2,r3", "sthx r1,r2,r3"]) {
        let e = error(t);
        assert!(e.contains(&format!("'{t}'")) && e.contains("mixed-size"), "{t}: {e}");
    }
    // In a test, the diagnostic points at the instruction.
    let e = run("PPC N\n{ }\n P0 ;\n li r1,1 ;\n neg r2,r1 ;\nexists (0:r2=0)\n", "sc").unwrap_err();
    assert!(e.contains(":5:2: error: unsupported instruction 'neg r2,r1'"), "{e}");
}

/// `MP+old-displacements` gives, under SC and Power, the log its modern spelling gives.
#[test]
fn old_displacements_log_as_the_modern_spelling() {
    let path = project_test("MP+old-displacements");
    let old = std::fs::read_to_string(&path).unwrap();
    let modern = old
        .replace("stw r6,0,r2", "stw r6,0(r2)")
        .replace("stw r6,0,r4", "stw r6,0(r4)")
        .replace("lwz r1,0,r4", "lwz r1,0(r4)")
        .replace("lwz r3,0,r2", "lwz r3,0(r2)")
        .replace("ld r7,0,r5 ", "ld r7,0(r5)");
    assert!(!modern.contains(",0,r"), "{modern}");
    for model in ["sc", "power"] {
        let o = check(&path, model).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(log(&o), log(&run(&modern, model).unwrap()), "{model}");
        assert_eq!(o.observation().word(), "Never");
        assert_eq!(o.states.len(), 3, "{}", log(&o));
    }
    // Without the sync, Power lets the message pass its flag, as herd's MP.
    let o = run(&old.replace(" sync        | sync        ;\n", ""), "power").unwrap();
    assert_eq!(o.observation().word(), "Sometimes", "{}", log(&o));
}

/// The project's tests of final values: herd's semantics give each `forall` in one
/// execution.
#[test]
fn final_values_are_herds() {
    for name in ["ppc-update-forms", "ppc-old-arith"] {
        for model in ["sc", "power"] {
            let o = check(&project_test(name), model).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((o.observation().word(), o.witnesses()), ("Always", (1, 0)), "{name}\n{}", log(&o));
        }
    }
}

/// `divw` divides herd's 64-bit values, truncating; a division by zero stops herd, and is
/// refused, located.
#[test]
fn division_as_herd() {
    let t = |a: i64, b: i64| format!("PPC D\n{{ 0:r1={a}; 0:r2={b}; }}\n P0 ;\n divw r3,r1,r2 ;\nexists (0:r3=0)\n");
    let quotient = |a, b| {
        let o = run(&t(a, b), "sc").unwrap();
        let line = litsat::report::state_line(o.states.iter().next().unwrap());
        line.trim().trim_start_matches("0:r3=").trim_end_matches(';').parse::<i64>().unwrap()
    };
    assert_eq!(quotient(-7, 2), -3);
    assert_eq!(quotient(7, -7), -1);
    assert_eq!(quotient(6, 7), 0);
    let e = run(&t(1, 0), "sc").unwrap_err();
    assert!(e.contains("division by zero"), "{e}");
}
