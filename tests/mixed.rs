//! herd's mixed-size accesses (`-variant mixed`, issue #38): the semantics case by case
//! (sign extension, pairs over cells, herd's worked example, the alignment refusal), and
//! every Dat3M mixed test against Dat3M's verdicts. The suites with herd's answers are
//! rows of `tests/shared_corpus.rs`.

mod common;

use common::shared_or_skip;
use litsat::cat::{ModelSpec, load_model};
use litsat::query::Options;
use litsat_cli::driver::check_file;
use litsat_cli::expect::{Answer, compare};
use rayon::prelude::*;

const AARCH64: &str = "models/herd/aarch64.cat";

/// Answers `text` under the bundled AArch64 model with `-variant mixed`.
fn answer(text: &str) -> Result<litsat::Outcome, litsat::Error> {
    let test = litsat::Test::parse(text, "mixed.litmus")?;
    let model = litsat::Model::bundled("aarch64")?;
    litsat::check(&test, &model, &Options::new().variants(["mixed"]))
}

#[test]
fn sign_extension_and_pairs_over_cells() {
    let t = "AArch64 SX
{ uint64_t x = 0x8081828384858687; 0:X1=x; int64_t 0:X2; int64_t 0:X3; int64_t 0:X4;
  uint64_t 0:X5; uint64_t 0:X6; uint64_t 0:X7; uint64_t 0:X8; }
 P0               ;
 LDRSB X2,[X1,#1] ;
 LDRSH X3,[X1,#2] ;
 LDRSW X4,[X1,#4] ;
 LDRSB W5,[X1]    ;
 LDP W6,W7,[X1]   ;
 STP W7,W6,[X1]   ;
 LDR X8,[X1]      ;
forall (0:X2=-122 /\\ 0:X3=-31611 /\\ 0:X4=-2138996093 /\\ 0:X5=0xffffff87 /\\ 0:X6=0x84858687
  /\\ 0:X7=0x80818283 /\\ 0:X8=0x8485868780818283 /\\ x=0x8485868780818283)
";
    let o = answer(t).expect("answered");
    assert_eq!(o.observation(), litsat::Observation::Always, "{}", o.log());
}

#[test]
fn herds_worked_example() {
    // HERD-AARCH64.md §4.5: a byte store into a halfword, read as a word.
    let t = "AArch64 MIX
{ uint32_t x; 0:X1=x; 1:X1=x; }
 P0             | P1              ;
 MOV W0,#257    | MOV W2,#2       ;
 STRH W0,[X1]   | STRB W2,[X1,#1] ;
                | LDR W3,[X1]     ;
locations [x;]
exists (1:X3=0x201)
";
    let Some(sh) = shared_or_skip("herd's worked example under aarch64.cat") else { return };
    let model = litsat::Model::from_file(sh.join(AARCH64), &[sh.join("models/herd")]).expect("model");
    let test = litsat::Test::parse(t, "mix.litmus").expect("parses");
    let o = litsat::check(&test, &model, &Options::new().variants(["mixed"])).expect("answered");
    let states: Vec<String> = o.states().iter().map(|s| s.to_string()).collect();
    assert_eq!(states, ["1:X3=257; [x]=257;", "1:X3=512; [x]=257;", "1:X3=512; [x]=513;", "1:X3=513; [x]=513;"]);
    assert_eq!(o.counts(), (1, 3));
}

#[test]
fn a_store_writes_only_its_bytes() {
    // Dat3M's MP+dmb+data-rfi+MIX+BIS in one thread: a word store of a register with
    // high bits set writes its low word only (herd masks the register to the access).
    let t = "AArch64 W
{ uint64_t x; uint64_t 0:X0 = 0x101010101010101; 0:X1=x; uint64_t 0:X5; }
 P0             ;
 STR W0,[X1]    ;
 LDR X5,[X1]    ;
forall (0:X5=0x1010101 /\\ x=0x1010101)
";
    let o = answer(t).expect("answered");
    assert_eq!(o.observation(), litsat::Observation::Always, "{}", o.log());
}

#[test]
fn misaligned_access_refused_with_herds_reason() {
    let t = "AArch64 U
{ uint64_t x; 0:X1=x; }
 P0               ;
 LDR W0,[X1,#1]   ;
exists (0:X0=0)
";
    let e = answer(t).expect_err("refused");
    assert!(e.message().contains("Unaligned or out-of-bound access: x+1, 4 bytes"), "{}", e.message());
}

/// Every Dat3M mixed-size test (not only the sample herd answered): Ok/No equal to
/// Dat3M's own verdict (`ARM8-expected.csv`), or refused with herd's reason for a
/// misaligned access. At least `floor` agree.
#[test]
fn dat3m_aarch64_mixed_against_dat3m_verdicts() {
    let Some(sh) = shared_or_skip("Dat3M mixed tests against ARM8-expected.csv") else { return };
    let corpus = sh.join("corpus");
    let spec = ModelSpec { model: Some(sh.join(AARCH64).to_string_lossy().to_string()), ..ModelSpec::default() };
    let prog = load_model(&spec, &[sh.join("models/herd")]).expect("model loads");
    let opts = Options::new().variants(["mixed"]).fast(true);
    let text = std::fs::read_to_string(corpus.join("expected/dat3m-csv/ARM8-expected.csv")).expect("csv");
    let mixed: Vec<_> =
        litsat_cli::expect::parse_csv(&text).into_iter().filter(|e| e.path.contains("AARCH64/mixed/")).collect();
    let results: Vec<Result<bool, String>> = mixed
        .par_iter()
        .map(|e| {
            let path = corpus.join(e.path.trim_start_matches("litmus/").replacen("AARCH64", "dat3m/AARCH64", 1));
            match check_file(&path, &prog, &opts).outcome {
                Ok(o) => {
                    let d = compare(&Answer::of(&o), e);
                    if d.is_empty() { Ok(true) } else { Err(format!("{}: {}", e.path, d.join("; "))) }
                }
                Err(diag) if diag.message.starts_with("Unaligned or out-of-bound access") => Ok(false),
                Err(diag) => Err(format!("{}: not answered: {diag}", e.path)),
            }
        })
        .collect();
    let agree = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let refused = results.iter().filter(|r| matches!(r, Ok(false))).count();
    let bad: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    println!("Dat3M mixed: {agree} agree with Dat3M, {refused} refused as herd refuses them, {} differ", bad.len());
    for b in &bad {
        println!("  {b}");
    }
    assert!(agree >= 2659, "only {agree} Dat3M mixed tests agree with Dat3M's verdict");
}
