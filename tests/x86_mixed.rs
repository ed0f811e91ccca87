//! X86_64 mixed-size accesses (`Variant=mixed`, issue #38) under herd's
//! `x86tso-mixed.cat`: the project's tests in `litmus/x86_64-mixed/`, each answered by
//! the SAT engine and by the brute-force oracle (`tests/oracle/`, which reads herd's cell
//! matching and a place's cells on its own, and evaluates the model itself), which must
//! agree; each test's Observation as worked out by hand; and the widths an instruction
//! cannot take, which are located errors.

mod common;
mod oracle;

use common::{root, shared_or_skip};
use litsat::cat::{ModelSpec, Program, load_model};
use litsat::litmus::parse_test;
use litsat::query::{self, Options};
use litsat::report::state_line;
use oracle::DEFAULT_BUDGET;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// herd's `x86tso-mixed.cat` from the shared folder, or `None` (said) without it.
fn model(what: &str) -> Option<Program> {
    let sh = shared_or_skip(what)?;
    let spec = ModelSpec {
        model: Some(sh.join("models/herd/x86tso-mixed.cat").to_string_lossy().to_string()),
        ..ModelSpec::default()
    };
    Some(load_model(&spec, &[sh.join("models/herd")]).expect("x86tso-mixed.cat loads"))
}

fn tests() -> Vec<PathBuf> {
    let dir = root().join("litmus/x86_64-mixed");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("litmus/x86_64-mixed")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .collect();
    files.sort();
    files
}

/// The engine's answer: its states, counts and Observation word.
fn engine(path: &Path, prog: &Program) -> (BTreeSet<String>, (u128, u128), String) {
    let name = path.to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).expect("test");
    let test = parse_test(&name, &text).expect("parses");
    let o = query::run(test, &name, &text, prog, &Options::default()).expect("answered");
    let states = o.states.iter().map(state_line).collect();
    (states, (o.pos, o.neg), o.observation().word().to_string())
}

#[test]
fn engine_agrees_with_the_oracle() {
    let Some(prog) = model("X86_64 mixed tests against the oracle") else { return };
    let mut compared = 0;
    let mut bad = Vec::new();
    for path in tests() {
        let name = path.to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("test");
        let test = parse_test(&name, &text).expect("parses");
        assert!(litsat::variant::holds(&test.variants, "mixed"), "{name}: every test here says Variant=mixed");
        let (states, counts, _) = engine(&path, &prog);
        let ans = oracle::answer(test, &name, &text, &prog, DEFAULT_BUDGET)
            .unwrap_or_else(|r| panic!("{name}: the oracle refused: {r}"));
        let oracle: BTreeSet<String> = ans.states.iter().cloned().collect();
        if states != oracle || counts != (u128::from(ans.pos), u128::from(ans.neg)) {
            bad.push(format!("{name}: SAT {states:?} {counts:?}, oracle {oracle:?} ({}, {})", ans.pos, ans.neg));
        }
        compared += 1;
    }
    println!("litmus/x86_64-mixed: {compared} compared, {} differ", bad.len());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(compared >= 26, "only {compared} X86_64 mixed tests compared");
}

/// Each test's Observation under x86tso-mixed.cat, worked out by hand (the oracle shares
/// the front end, so this is what checks the instructions' widths and register parts).
const BY_HAND: &[(&str, &str)] = &[
    ("2+2W+movq+movb", "Never"),
    ("ARRAY+movb+movl", "Sometimes"),
    ("CMPXCHG+cmpxchgb+movw", "Never"),
    ("CMPXCHG+fail+success", "Always"),
    ("CoRR+movl+atomic", "Never"),
    ("CoRR+movq+movb", "Never"),
    ("CoRR+movw+movb+movb", "Never"),
    ("CoRW+movb+movq", "Sometimes"),
    ("CoWW+movq+movb", "Never"),
    ("INC+incb+incq", "Sometimes"),
    ("IRIW+movb+movw", "Never"),
    ("LB+movb+movq", "Never"),
    ("LOCK+addb+addw", "Never"),
    ("LOCK+incb+incq", "Sometimes"),
    ("MOV+unsuffixed", "Always"),
    ("MP+movb+movb+movw", "Never"),
    ("MP+movb+movq", "Never"),
    ("R+movq+movb+mfence", "Never"),
    ("S+movw+movb", "Never"),
    ("SB+movb+mfence+movq", "Never"),
    ("SB+movb+movq", "Sometimes"),
    ("SB+xchgb+movq", "Never"),
    ("STORE+movb+ah", "Always"),
    ("WRITEREG+movb+movw", "Always"),
    ("XCHG+xchgb+xchgw", "Never"),
    ("ZEXT+movl", "Always"),
];

#[test]
fn observations_worked_out_by_hand() {
    let Some(prog) = model("X86_64 mixed tests' observations") else { return };
    let files = tests();
    assert_eq!(files.len(), BY_HAND.len(), "one row per test of litmus/x86_64-mixed");
    for (name, want) in BY_HAND {
        let path = root().join("litmus/x86_64-mixed").join(format!("{name}.litmus"));
        let (states, _, got) = engine(&path, &prog);
        assert_eq!(&got, want, "{name}: {states:?}");
    }
}

/// `text`'s error under `-variant mixed` (the test's own metadata) and the bundled tso.
fn error(text: &str) -> String {
    let test = litsat::Test::parse(text, "w.litmus");
    let e = match test {
        Ok(t) => litsat::check(&t, &litsat::Model::bundled("tso").expect("tso"), &Options::new()).expect_err("refused"),
        Err(e) => e,
    };
    let d = e.diag();
    format!("{}:{}:{}: {}", d.file, d.line, d.col, d.message)
}

fn one(instr: &str, variant: bool) -> String {
    let v = if variant { "Variant=mixed\n" } else { "" };
    format!("X86_64 W\n{v}{{ uint64_t x; 0:rcx=x; }}\n P0 ;\n {instr} ;\nexists (x=0)\n")
}

#[test]
fn bad_operands_are_located_errors() {
    let e = error(&one("movb %al,(%rdx9)", true));
    assert!(e.starts_with("w.litmus:5:2: unknown register"), "{e}");
    // herd's alignment check, as under AArch64.
    let e = error(&one("movw $1,1(%rcx)", true));
    assert_eq!(e, "w.litmus:5:2: Unaligned or out-of-bound access: x+1, 2 bytes");
}

/// herd checks no suffix against a register, and its X86_64 takes byte and word accesses
/// outside the variant too (no `check_sizes`): each of these is answered, in both modes.
#[test]
fn any_suffix_on_any_register_is_answered() {
    let tso = litsat::Model::bundled("tso").expect("tso");
    for instr in ["movb %rax,(x)", "movl (x),%bx", "mov (x),%al", "movb $1,(x)"] {
        for variant in [true, false] {
            let text = one(instr, variant);
            let t = litsat::Test::parse(&text, "w.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
            let o = litsat::check(&t, &tso, &Options::new()).unwrap_or_else(|e| panic!("{instr}: {}", e.render()));
            assert_eq!(o.counts().0 + o.counts().1, 1, "{instr}: {}", o.log());
        }
    }
}

/// herd's X86_64 tests (catalogue and instructions: one width per location) answered
/// under `-variant mixed` as without it: the cells change nothing where no location is
/// accessed at two widths.
#[test]
fn single_width_tests_answer_alike_under_the_variant() {
    let Some(prog) = model("herd's X86_64 tests under -variant mixed") else { return };
    let Some(sh) = shared_or_skip("herd's X86_64 tests under -variant mixed") else { return };
    let mut compared = 0;
    for dir in ["corpus/herd-catalogue/x86_64", "corpus/herd-instructions/X86_64"] {
        let inputs = litsat_cli::driver::collect_inputs(&[sh.join(dir).to_string_lossy().to_string()]).expect("tests");
        for path in inputs {
            let name = path.to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).expect("test");
            let plain = parse_test(&name, &text).expect("parses");
            let mut mixed = plain.clone();
            mixed.variants.push("mixed".into());
            let a = query::run(plain, &name, &text, &prog, &Options::default()).expect("answered");
            let b = query::run(mixed, &name, &text, &prog, &Options::default())
                .unwrap_or_else(|d| panic!("{name} under -variant mixed: {d}"));
            assert_eq!((&a.states, a.pos, a.neg), (&b.states, b.pos, b.neg), "{name}");
            compared += 1;
        }
    }
    assert!(compared >= 41, "only {compared} of herd's X86_64 tests compared");
}
