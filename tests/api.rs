//! The library's public API, used as a program embedding litsat would: only the items the
//! crate root exports.

use litsat::{DiagKind, Model, Observation, Options, Test, check, explain, witness};
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
    assert!(o.log().contains("\nObservation MP Never 0 3\n"));
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
    let fast = Options::new().fast(true);
    let sb = read("litmus/x86/SB.litmus");
    let o = check(&sb, &Model::bundled("sc").unwrap(), &fast).unwrap();
    assert_eq!(o.observation(), Observation::Never);
    assert!(o.states().is_empty());
    assert!(o.log().contains("\nNo\n"));
    // The verdict word follows the Observation, not the counts `--fast` leaves at 0.
    let o = check(&sb, &Model::bundled("tso").unwrap(), &fast).unwrap();
    assert_eq!(o.observation(), Observation::Sometimes);
    assert!(o.log().contains("\nOk\n"), "{}", o.log());
    let mp = read("litmus/x86/MP.litmus");
    let o = check(&mp, &Model::bundled("relaxed").unwrap(), &fast).unwrap();
    assert!(o.log().contains("\nNo\n"), "{}", o.log());
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
    let certify = Options::new().certify(true);
    let o = check(&sb, &Model::bundled("sc").unwrap(), &certify).unwrap();
    assert!(o.certificate().is_some_and(|c| c.starts_with("Certificate")), "{:?}", o.certificate());
    assert!(check(&sb, &Model::bundled("sc").unwrap(), &Options::default()).unwrap().certificate().is_none());
}

#[test]
fn errors_are_typed_and_located() {
    let e = Test::parse("X86 bad\n{ x=0 \n", "cut.litmus").unwrap_err();
    assert_eq!(e.kind(), DiagKind::Error, "{e}");
    assert_eq!(e.location().0, "cut.litmus");
    assert!(Model::bundled("nosuch").is_err_and(|e| e.kind() == DiagKind::Error));
    let few = Options::new().max_events(1);
    let e = check(&read("litmus/x86/SB.litmus"), &Model::bundled("tso").unwrap(), &few).unwrap_err();
    assert_eq!(e.kind(), DiagKind::Limit, "{e}");
    let e = Model::from_file(root().join("tests/robustness/cat-deep-brackets.cat"), &[]).err();
    assert!(e.is_some_and(|e| e.location().1 >= 1));
}

/// An unknown instruction is the parser's error, at the instruction, not `check`'s.
#[test]
fn unknown_instructions_fail_to_parse() {
    let bad = "X86 bad\n{ x=0; }\n P0 ;\n FROB [x],$1 ;\nexists (x=1)\n";
    let e = Test::parse(bad, "bad.litmus").unwrap_err();
    assert_eq!(e.kind(), DiagKind::Unsupported, "{e}");
    assert_eq!(e.location(), ("bad.litmus", 4, 2));
    assert_eq!(e.message(), "unsupported instruction 'FROB [x],$1'");
    let foo = "X86 foo\n{ x=0; }\n P0 | P1 ;\n MOV [x],$1 | FOO EAX ;\nexists (x=1)\n";
    let e = Test::parse(foo, "foo.litmus").unwrap_err();
    assert_eq!(e.location(), ("foo.litmus", 4, 15), "{e}");
    assert!(e.message().contains("FOO EAX"), "{e}");
    let e = Test::parse("NOSUCH arch\n{ x=0; }\n P0 ;\n nop ;\nexists (x=1)\n", "arch.litmus").unwrap_err();
    assert_eq!(e.message(), "unsupported architecture 'NOSUCH'");
    // A C thread's syntax is checked at once; its calls wait for the model's macros.
    let c = "C bad\n{ x=0; }\nP0(int *x) { WRITE_ONCE(*x, 1) }\nexists (x=1)\n";
    let e = Test::parse(c, "c.litmus").unwrap_err();
    assert_eq!(e.location().1, 3, "{e}");
    let c = "C ok\n{ x=0; }\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n";
    assert!(Test::parse(c, "c.litmus").is_ok());
}

/// `litsat::Error` is a `std::error::Error` and a `miette::Diagnostic` carrying its
/// source: `?` turns it into a miette report that quotes the line it points at.
#[test]
fn errors_render_with_their_source() {
    fn parse(text: &str) -> miette::Result<Test> {
        Ok(Test::parse(text, "bad.litmus")?)
    }
    let bad = "X86 bad\n{ x=0; }\n P0 ;\n FROB [x],$1 ;\nexists (x=1)\n";
    let e = Test::parse(bad, "bad.litmus").unwrap_err();
    assert_eq!(e.source_text(), Some(bad));
    let shown = e.render();
    assert!(shown.contains("bad.litmus:4:2: error: unsupported instruction 'FROB [x],$1'"), "{shown}");
    assert!(shown.contains("[bad.litmus:4:2]"), "{shown}");
    assert!(shown.contains(" 4 │  FROB [x],$1 ;"), "{shown}");
    let report = parse(bad).unwrap_err();
    assert_eq!(report.code().map(|c| c.to_string()).as_deref(), Some("litsat::unsupported"));
    let mut drawn = String::new();
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor());
    handler.render_report(&mut drawn, report.as_ref()).unwrap();
    assert!(drawn.contains("[bad.litmus:4:2]") && drawn.contains("FROB [x],$1 ;"), "{drawn}");
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().starts_with("bad.litmus:4:2: "));
    // A model's error quotes the model's text; a bundled model's, the bundled file.
    let e = Model::from_text("m.cat", "let x = po |\n").unwrap_err();
    assert_eq!(e.source_text(), Some("let x = po |\n"));
    assert!(e.render().contains("[m.cat:"), "{}", e.render());
    // A limit stands for the whole test: no line to quote.
    let e = check(&read("litmus/x86/SB.litmus"), &Model::bundled("tso").unwrap(), &Options::new().max_events(1));
    let e = e.unwrap_err();
    assert_eq!(e.source_text(), None);
    assert_eq!(e.render(), e.to_string());
}

/// The library's messages speak of the library: no command-line flag in them.
#[test]
fn errors_name_no_flags() {
    let lisa = std::fs::read_dir(root().join("litmus/lisa")).expect("litmus/lisa").next().expect("a test");
    let lisa = Test::read(lisa.expect("entry").path()).unwrap();
    let e = check(&lisa, &Model::herd_default().unwrap(), &Options::new()).unwrap_err();
    assert!(e.message().ends_with("bundles no default for LISA"), "{e}");
    let sb = read("litmus/x86/SB.litmus");
    let e = check(&sb, &Model::bundled("tso").unwrap(), &Options::new().max_events(3)).unwrap_err();
    assert!(e.message().ends_with("more than the maximum of 3"), "{e}");
    let e = check(&sb, &Model::bundled("tso").unwrap(), &Options::new().timeout(std::time::Duration::ZERO));
    assert_eq!(e.unwrap_err().message(), "timeout: the test ran past its time limit");
    // A macro of herd's c11.def, under a model without it.
    let c11 = "C m\n{ x=0; }\nP0(atomic_int *x) { atomic_store(x, 1); }\nexists (x=1)\n";
    let e = check(&Test::parse(c11, "m.litmus").unwrap(), &Model::bundled("tso").unwrap(), &Options::new());
    let e = e.unwrap_err();
    assert!(e.message().contains("c11.def: check under the model c11 or rc11"), "{e}");
}

/// `Options` are built by setters from herd's defaults.
#[test]
fn options_are_built_by_setters() {
    let o = Options::new()
        .variants(["mixed"])
        .skipchecks(vec!["sc".to_string()])
        .timeout(std::time::Duration::from_secs(3))
        .max_events(100)
        .unroll(4)
        .fast(true)
        .hexa(true);
    assert_eq!(o.variants, ["mixed"]);
    assert_eq!(o.skipchecks, ["sc"]);
    assert_eq!((o.timeout, o.max_events, o.unroll), (Some(std::time::Duration::from_secs(3)), Some(100), Some(4)));
    assert!(o.fast && o.hexa && !o.certify && !o.auto_unroll);
    let o = o.timeout(None).unroll(None);
    assert_eq!((o.timeout, o.unroll), (None, None));
}

/// The outcome times its own answer: its log's `Time` line needs no argument.
#[test]
fn outcomes_time_themselves() {
    let sb = read("litmus/x86/SB.litmus");
    let o = check(&sb, &Model::bundled("tso").unwrap(), &Options::new()).unwrap();
    assert!(o.elapsed() > std::time::Duration::ZERO && o.elapsed() < std::time::Duration::from_secs(60));
    let time = o.log().lines().find(|l| l.starts_with("Time SB ")).map(str::to_string);
    assert_eq!(time, Some(format!("Time SB {:.2}", o.elapsed().as_secs_f64())), "{}", o.log());
}

/// herd's `-candidates`, `-strictskip` and `-speedcheck true` through the library.
#[test]
fn herds_log_options_through_options() {
    let sb = read("litmus/x86/SB.litmus");
    let sc = Model::bundled("sc").unwrap();
    let o = check(&sb, &sc, &Options::new().candidates(true)).unwrap();
    assert_eq!((o.counts(), o.candidates()), ((0, 3), Some(4)));
    assert!(o.log().contains("\nCandidates SB 4\n"));
    assert_eq!(check(&sb, &sc, &Options::new()).unwrap().candidates(), None);
    let strict = Options::new().skipchecks(["sc"]).strictskip(true);
    let o = check(&sb, &sc, &strict).unwrap();
    assert_eq!((o.observation(), o.counts()), (Observation::Always, (1, 0)));
    let o = check(&sb, &Model::bundled("tso").unwrap(), &Options::new().relevant(true)).unwrap();
    assert_eq!((o.observation(), o.counts()), (Observation::Sometimes, (1, 0)));
}
