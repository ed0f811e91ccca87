//! The library's public API, used as a program embedding litsat would: only the items the
//! crate root exports.

use litsat::{Error, Model, Observation, Options, Test, check, explain, witness};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> Test {
    Test::read(root().join(rel)).expect("the test parses")
}

#[test]
fn verdicts_states_and_counts_are_herds() {
    let mp = read("litmus/x86/MP.litmus");
    assert_eq!((mp.name(), mp.arch()), ("MP", "X86"));
    let tso = Model::bundled("tso").unwrap();
    let o = check(&mp, &tso, &Options::default()).unwrap();
    assert_eq!(o.observation(), Observation::Never);
    // `~exists`: the counts are of the proposition, as herd's Observation line has them.
    assert_eq!(o.counts(), (0, 3));
    let lines: Vec<String> = o.states().iter().map(|s| s.to_string()).collect();
    assert_eq!(lines, ["1:EAX=0; 1:EBX=0;", "1:EAX=0; 1:EBX=1;", "1:EAX=1; 1:EBX=1;"]);
    assert_eq!(o.states()[0].places()[1], ("1:EBX".to_string(), "0".to_string()));
    assert!(o.log(0.0).contains("\nObservation MP Never 0 3\n"));
    let relaxed = check(&mp, &Model::bundled("relaxed").unwrap(), &Options::default()).unwrap();
    assert_eq!(relaxed.observation(), Observation::Sometimes);
}

#[test]
fn the_default_model_is_herds_for_the_architecture() {
    let any = Model::herd_default().unwrap();
    assert_eq!(any.name(), "default");
    let sb = read("litmus/x86/SB.litmus");
    assert_eq!(check(&sb, &any, &Options::default()).unwrap().observation(), Observation::Sometimes);
    let c = read("litmus/c11/SB+sc.litmus");
    assert_eq!(check(&c, &any, &Options::default()).unwrap().observation(), Observation::Never);
}

#[test]
fn flags_and_the_fast_mode() {
    let race = "C race\n{ x=0; }\nP0(int *x) { *x = 1; }\nP1(int *x) { int r0 = *x; }\nexists (1:r0=1)\n";
    let t = Test::parse(race, "race.litmus").unwrap();
    let o = check(&t, &Model::bundled("c11").unwrap(), &Options::default()).unwrap();
    assert_eq!(o.flags().collect::<Vec<_>>(), ["*undef*"]);
    let fast = Options { fast: true, ..Options::default() };
    let sb = read("litmus/x86/SB.litmus");
    let o = check(&sb, &Model::bundled("sc").unwrap(), &fast).unwrap();
    assert_eq!(o.observation(), Observation::Never);
    assert!(o.states().is_empty());
    assert!(o.log(0.0).contains("\nNo\n"));
    // The verdict word follows the Observation, not the counts `--fast` leaves at 0.
    let o = check(&sb, &Model::bundled("tso").unwrap(), &fast).unwrap();
    assert_eq!(o.observation(), Observation::Sometimes);
    assert!(o.log(0.0).contains("\nOk\n"), "{}", o.log(0.0));
    let mp = read("litmus/x86/MP.litmus");
    let o = check(&mp, &Model::bundled("relaxed").unwrap(), &fast).unwrap();
    assert!(o.log(0.0).contains("\nNo\n"), "{}", o.log(0.0));
}

#[test]
fn witnesses_and_explanations() {
    let sb = read("litmus/x86/SB.litmus");
    let tso = Model::bundled("tso").unwrap();
    let sc = Model::bundled("sc").unwrap();
    let w = witness(&sb, &tso, &Options::default()).unwrap().expect("TSO allows SB");
    assert!(w.allowed());
    assert!(w.dot().starts_with("digraph"));
    assert!(witness(&sb, &sc, &Options::default()).unwrap().is_none());
    let why = explain(&sb, &sc, &Options::default()).unwrap();
    assert!(!why.allowed());
    assert!(why.to_string().contains("Forbidden by"), "{why}");
}

#[test]
fn certificates_come_with_the_outcome() {
    let sb = read("litmus/x86/SB.litmus");
    let certify = Options { certify: true, ..Options::default() };
    let o = check(&sb, &Model::bundled("sc").unwrap(), &certify).unwrap();
    assert!(o.certificate().is_some_and(|c| c.starts_with("Certificate")), "{:?}", o.certificate());
    assert!(check(&sb, &Model::bundled("sc").unwrap(), &Options::default()).unwrap().certificate().is_none());
}

#[test]
fn errors_are_typed_and_located() {
    let bad = "X86 bad\n{ x=0; }\n P0 ;\n FROB [x],$1 ;\nexists (x=1)\n";
    let t = Test::parse(bad, "bad.litmus").unwrap();
    let e = check(&t, &Model::bundled("tso").unwrap(), &Options::default()).unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)), "{e}");
    assert_eq!(e.location(), ("bad.litmus", 4, 2));
    let e = Test::parse("X86 bad\n{ x=0 \n", "cut.litmus").unwrap_err();
    assert!(matches!(e, Error::Input(_)), "{e}");
    assert_eq!(e.location().0, "cut.litmus");
    assert!(matches!(Model::bundled("nosuch"), Err(Error::Input(_))));
    let few = Options { max_events: Some(1), ..Options::default() };
    let e = check(&read("litmus/x86/SB.litmus"), &Model::bundled("tso").unwrap(), &few).unwrap_err();
    assert!(matches!(e, Error::Limit(_)), "{e}");
    let e = Model::from_file(root().join("tests/robustness/cat-deep-brackets.cat"), &[]).err();
    assert!(e.is_some_and(|e| e.location().1 >= 1));
}
