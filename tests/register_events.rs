//! Register events (a model that says `catdep`, as herd's current `aarch64.cat` does): the
//! events, sets and intra-instruction relations herd's AArch64 semantics give the model,
//! each probed by a small model that raises a flag per relation it finds non-empty, and
//! the constructs that came with them (`assert`, herd's compare-and-swap alternatives).
//! herd's own suites under its `aarch64.cat` are in `shared_corpus.rs`.

use litsat::{DiagKind, Model, Options, Test, check};

/// The flags `probes` (one `flag ~empty E as NAME` per line) raise on the AArch64 thread
/// `code` (one instruction per line), with `x` and `y` in X1 and X4.
fn flags(code: &str, probes: &str) -> Vec<String> {
    let cells: Vec<String> = code.lines().map(|l| format!(" {l} ;")).collect();
    let test = format!("AArch64 probe\n{{ 0:X1=x; 0:X4=y; }}\n P0 ;\n{}\nexists (x=0)\n", cells.join("\n"));
    let test = Test::parse(&test, "probe.litmus").unwrap_or_else(|e| panic!("{}", e.render()));
    let model = Model::from_text("probe.cat", &format!("\"probe\"\ncatdep\n{probes}\n"))
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let out = check(&test, &model, &Options::new()).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut f: Vec<String> = out.flags().map(str::to_string).collect();
    f.sort();
    f
}

/// herd's lrrs, as aarch64deps.cat defines it: a register write to the next read of that
/// register in program order.
const LRRS: &str = "let same-gpr = [Rreg|Wreg]; loc; [Rreg|Wreg]
let lrrs = [Wreg]; (po & same-gpr) \\ ((po & same-gpr); [Wreg]; (po & same-gpr)); [Rreg]";

#[test]
fn an_address_dependency_goes_through_registers() {
    // LDR → w(X0) → r(X0) at EOR → w(X2) → r(X2) on the address port → the second read.
    let probes = format!(
        "{LRRS}
flag ~empty [R]; iico_data; [Wreg]; lrrs; iico_data; [Wreg]; lrrs; [ADDR]; iico_data; [R] as addr-chain
flag ~empty [R]; iico_data; [Wreg]; lrrs; iico_data; [Wreg]; lrrs; [DATA] as data-port
flag ~empty iico_ctrl as ctrl
flag ~empty iico_order as order"
    );
    let f = flags("LDR W0,[X1]\nEOR W2,W0,W0\nLDR W3,[X4,W2,SXTW]", &probes);
    assert_eq!(f, ["addr-chain"]);
    // Through a store's data port instead.
    let f = flags("LDR W0,[X1]\nEOR W2,W0,W0\nSTR W2,[X4]", &probes);
    assert_eq!(f, ["data-port"]);
}

#[test]
fn a_register_read_twice_in_one_instruction_is_one_event() {
    let probes = "flag ~empty [Rreg]; (loc & same-instance) \\ id; [Rreg] as two-reads
flag ~empty Rreg as reads";
    assert_eq!(flags("EOR W2,W0,W0", probes), ["reads"]);
    // Two registers: two reads, on different registers.
    assert_eq!(flags("EOR W2,W0,W3", probes), ["reads"]);
}

#[test]
fn exclusives_reserve_through_a_register_and_store_without_a_data_port() {
    let probes = "flag ~empty DATA as data
flag ~empty [Rreg]; iico_ctrl; [W & EX] as res-controls-store
flag ~empty [Rreg]; iico_ctrl; [Wreg] as res-controls-clear
flag ~empty [ADDR]; iico_data; [Wreg] as base-feeds-reservation";
    let f = flags("LDXR W0,[X1]\nSTXR W3,W0,[X1]", probes);
    assert_eq!(f, ["base-feeds-reservation", "res-controls-clear", "res-controls-store"]);
}

#[test]
fn a_swap_orders_its_read_before_its_write_and_an_add_feeds_it() {
    let probes = "flag ~empty [R]; iico_order; [W] as order
flag ~empty [R]; iico_data; [W] as data";
    assert_eq!(flags("SWP W0,W2,[X1]", probes), ["order"]);
    assert_eq!(flags("LDADD W0,W2,[X1]", probes), ["data"]);
    // LDIAPP's two reads are ordered too (here on a two-element array).
    let test = "AArch64 pair
{ int x[2]={0,0}; 0:X2=x; }
 P0 ;
 LDIAPP W0,W1,[X2] ;
exists (0:X0=0)
";
    let test = Test::parse(test, "pair.litmus").unwrap();
    let model =
        Model::from_text("p.cat", "\"p\"\ncatdep\nflag ~empty [R & Q]; iico_order; [R & Q] as ordered\n").unwrap();
    let out = check(&test, &model, &Options::new()).unwrap();
    assert_eq!(out.flags().collect::<Vec<_>>(), ["ordered"]);
}

#[test]
fn a_conditional_select_reaches_its_result_through_a_commit() {
    let probes = "flag ~empty [Rreg]; iico_data; [PRED] as flags-to-commit
flag ~empty [PRED]; iico_ctrl; [Rreg] as commit-to-source
flag ~empty [PRED]; iico_ctrl; [Wreg] as commit-to-result
flag ~empty [Rreg]; iico_data; [Wreg] as data-to-result
flag ~empty BCC as bcc";
    // CSEL reads its selected source under the commit's control, which feeds the result.
    let f = flags("CMP W0,#1\nCSEL W2,W5,W6,EQ", probes);
    assert_eq!(f, ["commit-to-result", "commit-to-source", "data-to-result", "flags-to-commit"]);
    // CSET reads no register: the commit controls the result alone (and the compare's
    // operand reaches the flags' write by data).
    let f = flags("CMP W0,#1\nCSET W2,EQ", probes);
    assert_eq!(f, ["commit-to-result", "data-to-result", "flags-to-commit"]);
}

#[test]
fn a_compare_and_swap_is_two_executions_per_outcome() {
    // herd 7.58: success two ways (w(Xs) from the register or from memory), failure with
    // or without writing the value back (HERD-AARCH64.md §3).
    let test = "AArch64 cas
{ 0:X1=x; 0:X0=0; 0:X2=1; }
 P0 ;
 CAS X0,X2,[X1] ;
exists (x=1)
";
    let test = Test::parse(test, "cas.litmus").unwrap();
    let out = check(&test, &Model::bundled("sc").unwrap(), &Options::new()).unwrap();
    assert_eq!(out.counts(), (2, 0));
    let fail = "AArch64 casfail
{ 0:X1=x; 0:X0=5; 0:X2=1; }
 P0 ;
 CAS X0,X2,[X1] ;
exists (x=0 /\\ 0:X0=0)
";
    let test = Test::parse(fail, "casfail.litmus").unwrap();
    let probes = "\"p\"\ncatdep\nflag ~empty W & X as wrote-back\n";
    let out = check(&test, &Model::from_text("p.cat", probes).unwrap(), &Options::new()).unwrap();
    assert_eq!(out.counts(), (2, 0));
    assert_eq!(out.flags().collect::<Vec<_>>(), ["wrote-back"]);
}

#[test]
fn catdep_is_refused_where_litsat_builds_no_register_events() {
    let test = "X86 t\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n";
    let test = Test::parse(test, "t.litmus").unwrap();
    let model = Model::from_text("d.cat", "\"d\"\ncatdep\nacyclic po | rf as x\n").unwrap();
    let e = check(&test, &model, &Options::new()).unwrap_err();
    assert_eq!(e.kind(), DiagKind::Unsupported);
    assert!(e.message().contains("register events (`catdep`)"), "{}", e.message());
}

#[test]
fn assert_is_decided_or_refused() {
    let test = "X86 t\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[x] ;\nexists (x=1)\n";
    let test = Test::parse(test, "t.litmus").unwrap();
    let run = |cat: &str| check(&test, &Model::from_text("a.cat", cat).unwrap(), &Options::new());
    assert!(run("\"a\"\nassert empty 0 as fine\n").is_ok());
    let e = run("\"a\"\nlet r = po | id\nassert empty [W]; r as nonempty\n").unwrap_err();
    assert_eq!(e.message(), "assertion `nonempty` failed, check input test");
    assert_eq!(e.location(), ("a.cat", 3, 1));
    let e = run("\"a\"\nassert empty [W \\ IW]; rfe as depends\n").unwrap_err();
    assert_eq!(e.kind(), DiagKind::Unsupported, "{}", e.message());
    assert!(e.message().contains("`depends`"), "{}", e.message());
}

#[test]
fn a_tests_own_variants_count_and_unbuilt_ones_are_refused_by_name() {
    let text = "AArch64 v\nVariant=ETS2\nCacheType=DIC\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\nexists (0:X0=0)\n";
    let test = Test::parse(text, "v.litmus").unwrap();
    let cat = "\"v\"\nflag ~empty (if \"ets2\" && \"IDC\" && \"DIC\" then _ else 0) as seen\n";
    let out = check(&test, &Model::from_text("v.cat", cat).unwrap(), &Options::new()).unwrap();
    assert_eq!(out.flags().collect::<Vec<_>>(), ["seen"]);
    // vmsa is built on AArch64, not with a variant it does not combine with.
    let text = "AArch64 v\nVariant=kvm,mixed\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1] ;\nexists (0:X0=0)\n";
    let e = Test::parse(text, "v.litmus").unwrap_err();
    assert_eq!(e.location(), ("v.litmus", 2, 1));
    assert_eq!(e.message(), "unsupported: variant `mixed` with vmsa (mixed-size accesses through page tables)");
    let text = "RISCV v\nVariant=kvm\n{ 0:x1=x; }\n P0 ;\n lw x5,0(x1) ;\nexists (0:x5=0)\n";
    let e = Test::parse(text, "v.litmus").unwrap_err();
    assert_eq!(e.message(), "unsupported: variant `kvm` (page tables and their faults)");
}

#[test]
fn an_initial_register_may_be_written_with_blanks() {
    // `0: X0 = x` is thread 0's X0, as herd reads it.
    let text = "AArch64 sp\n{ 0: X1 = x; }\n P0 ;\n LDR W0,[X1] ;\nexists (0: X0 = 0)\n";
    let test = Test::parse(text, "sp.litmus").unwrap();
    let out = check(&test, &Model::bundled("sc").unwrap(), &Options::new()).unwrap();
    assert_eq!(out.counts(), (1, 0));
}
