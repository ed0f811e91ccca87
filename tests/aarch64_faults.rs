//! herd's AArch64 faults without page tables (`UDF`, `SVC`): the fault event and its sets,
//! the thread ending at the fault (herd's default `fatal` handling), fault atoms in
//! conditions (`fault(P0:L0,UndefinedInstruction)`, `fault(P0)`) and faults in states
//! (` Fault(P0:L0,SupervisorCall);`, ` ~Fault(P0,…);`), and what stays refused by name.

use litsat::{Model, Options, Test, check};

/// herd's log of `text` under the bundled `aarch64` model, without its `Time` line.
fn log(text: &str) -> String {
    let test = Test::parse(text, "t.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
    let model = Model::bundled("aarch64").unwrap_or_else(|e| panic!("{}", e.render()));
    let out = check(&test, &model, &Options::new()).unwrap_or_else(|e| panic!("{}", e.render()));
    out.log().lines().filter(|l| !l.starts_with("Time ")).map(|l| format!("{l}\n")).collect()
}

/// The message refusing `text`.
fn refusal(text: &str) -> String {
    let model = Model::bundled("aarch64").unwrap_or_else(|e| panic!("{}", e.render()));
    let r = Test::parse(text, "t.litmus").and_then(|t| check(&t, &model, &Options::new()));
    match r {
        Ok(o) => panic!("answered: {}", o.log()),
        Err(e) => e.message().to_string(),
    }
}

#[test]
fn udf_faults_and_the_state_shows_the_fault() {
    let text = "AArch64 U\n{ }\n P0 ;\nL0: ;\n UDF #0 ;\nforall(Fault(P0:L0,UndefinedInstruction))\n";
    let l = log(text);
    assert!(l.contains("States 1\n Fault(P0:L0,UndefinedInstruction);\nOk\n"), "{l}");
    assert!(l.contains("Condition forall (fault(P0:L0,UndefinedInstruction))\n"), "{l}");
    assert!(l.contains("Observation U Always 1 0\n"), "{l}");
}

#[test]
fn a_fault_ends_its_thread() {
    // herd's default handling (`fatal`): nothing after the SVC runs.
    let text = "AArch64 S\n{ 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\n SVC #0 ;\n STR W0,[X1] ;\n MOV W2,#3 ;\nexists (x=1 \\/ 0:X2=3)\n";
    let l = log(text);
    assert!(l.contains("Observation S Never 0 1\n"), "{l}");
    assert!(l.contains("States 1\n0:X2=0; [x]=0;\n"), "{l}");
}

#[test]
fn a_fault_on_one_path_only() {
    // The SVC runs where the read sees 1; a state without the fault names the atom with
    // `~`, after the places and two spaces, as herd writes it.
    let text = "AArch64 P
{ 0:X1=x; 1:X4=x; }
 P0          | P1          ;
 LDR W0,[X1] | MOV W2,#1   ;
 CBZ W0,L1   | STR W2,[X4] ;
 SVC #1      |             ;
L1:          |             ;
exists (fault(P0,SupervisorCall))
";
    let l = log(text);
    assert!(l.contains("States 2\n  ~Fault(P0,SupervisorCall);\n Fault(P0,SupervisorCall);\n"), "{l}");
    assert!(l.contains("Condition exists (fault(P0,SupervisorCall))\n"), "{l}");
    assert!(l.contains("Observation P Sometimes 1 1\n"), "{l}");
    let shown = text.replace("exists", "locations [0:X0;]\nexists");
    let l = log(&shown);
    assert!(l.contains("States 2\n0:X0=0;  ~Fault(P0,SupervisorCall);\n0:X0=1; Fault(P0,SupervisorCall);\n"), "{l}");
}

#[test]
fn atoms_match_by_thread_label_and_type() {
    let base = "AArch64 M\n{ }\n P0 | P1 ;\nL0: | NOP ;\n SVC #0 | ;\n";
    let word = |cond: &str| {
        let l = log(&format!("{base}exists ({cond})\n"));
        l.lines()
            .find(|l| l.starts_with("Observation"))
            .unwrap_or_default()
            .split(' ')
            .nth(2)
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(word("fault(P0)"), "Always");
    assert_eq!(word("fault(P0:L0)"), "Always");
    assert_eq!(word("fault(P0,SupervisorCall)"), "Always");
    assert_eq!(word("fault(P0,UndefinedInstruction)"), "Never");
    assert_eq!(word("fault(P1)"), "Never");
    assert_eq!(word("~fault(P0) \\/ fault(P1)"), "Never");
}

#[test]
fn the_fault_event_is_in_herds_fault_sets() {
    let text = "AArch64 F\n{ }\n P0 ;\n SVC #0 ;\n UDF #1 ;\nexists (0:X0=0)\n";
    let test = Test::parse(text, "f.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
    let probes = "\"probe\"\nflag ~empty FAULT as fault\nflag ~empty EXC-ENTRY as entry\nflag ~empty SVC as svc\n\
                  flag ~empty UndefinedInstruction as udf\nflag ~empty (FAULT & (M | F | B)) as wrong\n";
    let model = Model::from_text("probe.cat", probes).unwrap_or_else(|e| panic!("{}", e.render()));
    let out = check(&test, &model, &Options::new()).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut f: Vec<&str> = out.flags().collect();
    f.sort();
    // The UDF is never reached.
    assert_eq!(f, ["entry", "fault", "svc"]);
}

#[test]
fn an_unknown_label_in_a_fault_atom_is_refused_as_herd_does() {
    let text = "AArch64 W\n{ }\n P0 ;\nL0: ;\n UDF #0 ;\nforall(Fault(P0:L1,UndefinedInstruction))\n";
    assert!(refusal(text).contains("{P0:L1}"));
}

#[test]
fn fault_handlers_and_other_fault_handling_are_refused_by_name() {
    let handler = "AArch64 H\n{ }\n P0 | P0.F ;\n SVC #0 | NOP ;\nexists (fault(P0))\n";
    assert!(refusal(handler).contains("fault handler"), "{}", refusal(handler));
    let skip = "AArch64 K\nVariant=faultToNext\n{ }\n P0 ;\n SVC #0 ;\nexists (fault(P0))\n";
    assert!(refusal(skip).contains("faultToNext"), "{}", refusal(skip));
}
