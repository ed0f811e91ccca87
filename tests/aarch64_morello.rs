//! herd's `-variant morello` as far as litsat builds it: a load or store through a
//! capability whose tag is clear faults before it accesses memory (herd's `CapTag`
//! check), the fault located at the address after a predicated commit, and the thread
//! ends; herd's A235 (`STR WZR,[C1]`) line for line; every other Morello construct
//! refused by name.

mod common;

use litsat::{Model, Options, Test, check};

/// The outcome of `text` under `model`.
fn run(text: &str, model: &Model) -> litsat::Outcome {
    let test = Test::parse(text, "t.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
    check(&test, model, &Options::new()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn bundled() -> Model {
    Model::bundled("aarch64").unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The message refusing `text` under the bundled `aarch64`.
fn refusal(text: &str) -> String {
    let r = Test::parse(text, "t.litmus").and_then(|t| check(&t, &bundled(), &Options::new()));
    match r {
        Ok(o) => panic!("answered: {}", o.log()),
        Err(e) => e.message().to_string(),
    }
}

/// A morello test of one thread, `code` one instruction a line, with `x` in X1 and 5 in X0.
fn thread(code: &str, cond: &str) -> String {
    let cells: Vec<String> = code.lines().map(|l| format!(" {l} ;")).collect();
    format!("AArch64 M\nVariant=morello\n{{ int x=1; 0:X1=x; 0:X0=5; }}\n P0 ;\n{}\n{cond}\n", cells.join("\n"))
}

#[test]
fn accesses_through_untagged_capabilities_fault_and_end_the_thread() {
    // The load faults (X2 keeps 0), so nothing after it runs: the store through X1 neither.
    let t = thread("LDR W2,[C1]\nSTR W0,[X1]", "exists (0:X2=0 /\\ x=1)");
    let o = run(&t, &bundled());
    assert_eq!(o.observation().word(), "Always", "{}", o.log());
    assert_eq!(o.counts(), (1, 0), "{}", o.log());
    // A store first, with an offset of zero: no write.
    let t = thread("STR W0,[C1,#0]", "exists (x=5)");
    assert_eq!(run(&t, &bundled()).observation().word(), "Never");
    // The thread ends at the fault: a later branch target is never reached.
    let t = thread("B L1\nL1: STRB W0,[X1]\nNOP", "exists (x=1)");
    assert_eq!(run(&t, &bundled()).observation().word(), "Always");
}

#[test]
fn the_fault_follows_a_commit_fed_by_the_capability_and_is_located_at_it() {
    // The events herd's `lift_morello` makes for a failed tag check, probed by flags of a
    // model that reads register events.
    let probes = "\"probe\"\ncatdep\n\
flag ~empty [Rreg & ADDR]; iico_data; [PRED]; iico_ctrl; [FAULT & FAULT-WR & EXC-ENTRY] as checked-store\n\
flag ~empty [Rreg & ADDR]; iico_data; [PRED]; iico_ctrl; [FAULT & FAULT-RD & EXC-ENTRY] as checked-load\n\
flag ~empty [FAULT]; loc; [IW] as located\n\
flag ~empty (M \\ IW) as accessed\n";
    let model = Model::from_text("probe.cat", probes).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut f: Vec<String> = run(&thread("STR WZR,[C1]", "exists (x=1)"), &model).flags().map(str::to_string).collect();
    f.sort();
    assert_eq!(f, ["checked-store", "located"]);
    let mut f: Vec<String> = run(&thread("LDR X2,[X1]", "exists (x=1)"), &model).flags().map(str::to_string).collect();
    f.sort();
    assert_eq!(f, ["checked-load", "located"]);
}

#[test]
fn what_is_not_built_is_refused_by_name() {
    let cases = [
        // herd computes on 128-bit capability values: other instructions are refused.
        (thread("MOV X3,#1", "exists (x=1)"), "unsupported under variant morello: 'MOV X3,#1'"),
        (thread("ALIGND C0,C1,#3", "exists (x=1)"), "unsupported under variant morello: 'ALIGND C0,C1,#3'"),
        (thread("LDAR W2,[C1]", "exists (x=1)"), "unsupported under variant morello: 'LDAR W2,[C1]'"),
        (thread("STR C0,[C1]", "exists (x=1)"), "capability register 'C0' as data"),
        (thread("STR W0,[C1],#4", "exists (x=1)"), "the addressing of 'STR W0,[C1],#4'"),
        (thread("STR W0,[C1,X0]", "exists (x=1)"), "the memory operand '[C1,X0]'"),
        // A tagged capability, and a fault atom where capability checks fault.
        (
            "AArch64 M\nVariant=morello\n{ 0:X1=x:1; }\n P0 ;\n STR WZR,[C1] ;\nexists (x=0)\n".to_string(),
            "`x:1`, an address with a tag or capability bits",
        ),
        (thread("L0: STR WZR,[C1]", "exists (fault(P0:L0))"), "a fault atom where capability checks fault"),
        // Other architectures have no capabilities.
        ("X86_64 M\nVariant=morello\n{ }\n P0 ;\n movl $1,(x) ;\nexists (x=1)\n".to_string(), "variant `morello`"),
    ];
    for (text, want) in cases {
        let m = refusal(&text);
        assert!(m.contains(want), "{text}: {m}");
    }
    // Without the variant, a capability register is no register.
    let m = refusal("AArch64 M\n{ 0:X1=x; }\n P0 ;\n STR WZR,[C1] ;\nexists (x=0)\n");
    assert!(m.contains("capability register 'C1'"), "{m}");
}

#[test]
fn a235_as_herd_logs_it() {
    let Some(shared) = common::shared_or_skip("herd's A235 under -variant morello") else { return };
    let dir = shared.join("corpus/herd-aarch64/instructions/AArch64");
    let text = std::fs::read_to_string(dir.join("A235.litmus")).expect("A235");
    let want = std::fs::read_to_string(dir.join("A235.litmus.expected")).expect("A235's log");
    let model = Model::from_file(shared.join("models/herd/aarch64.cat"), &[shared.join("models/herd")])
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let log = run(&text, &model).log();
    let drop_time = |s: &str| s.trim_end().lines().filter(|l| !l.starts_with("Time ")).collect::<Vec<_>>().join("\n");
    // Hash included: herd prints the base `[C1]` under the variant.
    assert_eq!(drop_time(&log), drop_time(&want));
}
