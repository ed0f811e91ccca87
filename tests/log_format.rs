//! Lines of herd's log that depend on how herd reads and orders places: the `Condition`
//! line echoes constants as herd's value module read them, and `States` lines order
//! places as herd's OCaml `compare` does.

mod isa_common;

fn log(text: &str) -> String {
    let o = isa_common::run(text, "sc").unwrap_or_else(|d| panic!("{d}"));
    litsat::report::herd_log(&o, 0.0)
}

fn line<'a>(log: &'a str, start: &str) -> &'a str {
    log.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no {start} in\n{log}"))
}

#[test]
fn an_aarch64_condition_echoes_its_constants_as_written_but_compares_them_narrowed() {
    // X2 is an `int` register: 0xFFFFFFFF compares as -1, holds, and is echoed as 64 bits.
    let log = log("AArch64 echo
{ }
 P0            ;
 MOV W2,#-1    ;
forall (0:X2=0xFFFFFFFF /\\ 0:X2=-1)
");
    assert_eq!(line(&log, "Condition"), "Condition forall (0:X2=4294967295 /\\ 0:X2=-1)");
    assert!(line(&log, "Observation").contains("Always"), "{log}");
}

#[test]
fn a_32_bit_architecture_echoes_its_constants_as_32_bit_values() {
    let log = log("ARM echo
{ }
 P0             ;
 MOV R0,#1      ;
exists (0:R0=0xBEF00000)
");
    assert_eq!(line(&log, "Condition"), "Condition exists (0:R0=-1091567616)");
}

#[test]
fn the_zero_register_and_sp_come_before_the_general_registers() {
    let log = log("AArch64 order
{ int64_t 0:X1=1; }
 P0                  ;
 CMP XZR,X1,ASR #1   ;
 MOV X0,#0           ;
locations [0:XZR; 0:X0; 0:X1;]
");
    assert_eq!(log.lines().nth(2), Some("0:XZR=0; 0:X0=0; 0:X1=1;"), "{log}");
}

#[test]
fn indexed_elements_come_after_every_location_named_bare() {
    // herd's `Deref` places (`u[0]`) sort after its `Loc` places, arrays shown whole among
    // the latter by name.
    let log = log("AArch64 elements
{ x=0; 0:X2=x; int32_t u[2]={-1,-1}; uint8_t v[2]={-1,-1}; }
 P0             ;
 MOV W0,#3      ;
 STR W0,[X2]    ;
locations [x; u; v[0]]
forall (x=3 /\\ u[0]=-1 /\\ v[1]=255)
");
    assert_eq!(log.lines().nth(2), Some("u={-1,-1}; [x]=3; u[0]=-1; v[0]=255; v[1]=255;"), "{log}");
}
