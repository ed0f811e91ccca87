//! `litsat distinguish` (issue #40): each acceptance row's answer, not its time, and every
//! emitted test run again through the ordinary check (A allows it, B forbids it).

mod common;

use litsat::distinguish::{Answer, Search, distinguish};
use litsat::{Model, Observation, Options, Test, check, explain};
use std::path::PathBuf;

fn search(a: &str, b: &str, arch: &str, max: usize, tune: impl FnOnce(&mut Search)) -> Answer {
    let mut s = Search::new(arch);
    s.max_events = max;
    tune(&mut s);
    distinguish(&Model::bundled(a).unwrap(), &Model::bundled(b).unwrap(), &s).unwrap()
}

/// Each test found parses, and the ordinary engine allows it under `a` and forbids it under `b`.
fn confirmed(ans: &Answer, a: &str, b: &str) {
    for f in &ans.found {
        let t = Test::parse(&f.text, &format!("{}.litmus", f.name)).unwrap();
        let under = |m: &str| check(&t, &Model::bundled(m).unwrap(), &Options::new()).unwrap().observation();
        assert_ne!(under(a), Observation::Never, "{}", f.text);
        assert_eq!(under(b), Observation::Never, "{}", f.text);
    }
}

#[test]
fn tso_against_sc_finds_sb() {
    let ans = search("tso", "sc", "X86", 6, |_| {});
    let f = &ans.found[0];
    assert_eq!((f.events, f.threads, f.under_a), (4, 2, Observation::Sometimes), "{}", f.text);
    // SB: each thread writes one location, then reads the other's initial value.
    assert_eq!(f.text.matches("MOV [").count(), 2, "{}", f.text);
    assert!(f.text.contains("0:EAX=0 /\\ 1:EAX=0"), "{}", f.text);
    assert_eq!(f.forbidden_by, ["sc"]);
    confirmed(&ans, "tso", "sc");
}

#[test]
fn sc_against_tso_differs_only_by_xchg() {
    // herd's sc.cat leaves an XCHG's read and write out of po (HERD-FACTS.md): a real
    // difference, which the ordinary check confirms.
    let ans = search("sc", "tso", "X86", 6, |_| {});
    assert_eq!(ans.found.len(), 1);
    assert!(ans.found[0].text.contains("XCHG"), "{}", ans.found[0].text);
    confirmed(&ans, "sc", "tso");
    // Without it, none up to 6 events, with a checked proof.
    let ans = search("sc", "tso", "X86", 6, |s| {
        s.kinds = vec!["R".into(), "W".into(), "MFENCE".into()];
        s.certify = true;
    });
    assert!(ans.found.is_empty());
    assert_eq!(ans.complete_up_to, 6);
    assert!(ans.certified);
}

/// The first test found has the fewest events: none is found with one event fewer.
fn minimal(a: &str, b: &str, arch: &str, max: usize) -> usize {
    let ans = search(a, b, arch, max, |_| {});
    assert_eq!(ans.found.len(), 1, "{a} against {b}");
    confirmed(&ans, a, b);
    let n = ans.found[0].events;
    let below = search(a, b, arch, n - 1, |_| {});
    assert!(below.found.is_empty(), "{}", below.found[0].text);
    assert_eq!(below.complete_up_to, n - 1);
    n
}

#[test]
fn relaxed_against_tso_is_minimal() {
    // relaxed.cat's uniproc leaves out rmw, so an XCHG reading a write co-after its own
    // is a 3-event difference (the issue expected 4 events: MP or LB without XCHG).
    assert_eq!(minimal("relaxed", "tso", "X86", 5), 3);
    let ans = search("relaxed", "tso", "X86", 5, |s| s.kinds = vec!["R".into(), "W".into(), "MFENCE".into()]);
    assert_eq!(ans.found[0].events, 4, "{}", ans.found[0].text);
    confirmed(&ans, "relaxed", "tso");
}

#[test]
fn all_twenty_tso_against_sc_are_no_renamings() {
    let ans = search("tso", "sc", "X86", 6, |s| s.all = 20);
    assert_eq!(ans.found.len(), 20);
    let mut keys: Vec<&str> = ans.found.iter().map(|f| f.key.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 20);
    confirmed(&ans, "tso", "sc");
}

#[test]
fn c11_against_rc11_is_minimal() {
    assert_eq!(minimal("c11", "rc11", "C", 4), 4);
}

#[test]
fn bad_input_is_named() {
    let a = Model::bundled("tso").unwrap();
    let err = distinguish(&a, &a, &Search::new("LISA")).unwrap_err();
    assert!(err.message.contains("no vocabulary for architecture LISA"), "{}", err.message);
    let unbound = Model::from_text("unbound.cat", "acyclic [ACQ] ; po as x\n").unwrap();
    let err = distinguish(&unbound, &a, &Search::new("X86")).unwrap_err();
    assert!(err.message.contains("unbound name `ACQ`"), "{}", err.message);
    // The LKMM's vocabulary binds C's sets and the kernel's annotations, not x86's.
    let x86 = Model::from_text("x86.cat", "acyclic [MFENCE] ; po as x\n").unwrap();
    let err = distinguish(&x86, &a, &Search::new("LKMM")).unwrap_err();
    assert!(err.message.contains("unbound name `MFENCE`"), "{}", err.message);
}

/// The kernel's model minus the axiom (a check, not a flag) `NAME`, written as a cat file and a
/// cfg (the kernel's bell and macros) into a fresh folder: the reduced model, the full
/// one, and the folders both are found in. `None` (having said so) without the shared
/// folder.
fn lkmm_without(axiom: &str) -> Option<(Model, Model, Vec<PathBuf>)> {
    let sh = common::shared_or_skip("the LKMM against the LKMM minus an axiom")?;
    let lkmm = sh.join("models/lkmm");
    let full = std::fs::read_to_string(lkmm.join("linux-kernel.cat")).unwrap();
    let is_axiom = |l: &str| !l.starts_with("flag") && l.trim_end().ends_with(&format!(" as {axiom}"));
    assert_eq!(full.lines().filter(|l| is_axiom(l)).count(), 1, "one axiom {axiom} in linux-kernel.cat");
    let reduced: String = full.split_inclusive('\n').filter(|l| !is_axiom(l)).collect();
    let dir = std::env::temp_dir().join(format!("litsat-lkmm-{axiom}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("no-{axiom}.cat")), reduced).unwrap();
    let cfg = format!("macros linux-kernel.def\nbell linux-kernel.bell\nmodel no-{axiom}.cat\nvariant lkmmv2\n");
    std::fs::write(dir.join(format!("no-{axiom}.cfg")), cfg).unwrap();
    let inc = vec![dir.clone(), lkmm.clone()];
    let a = Model::from_file(dir.join(format!("no-{axiom}.cfg")), &inc).unwrap();
    let b = Model::from_file(lkmm.join("linux-kernel.cfg"), &inc).unwrap();
    Some((a, b, inc))
}

/// The reduced LKMM against the full one finds a test of `events` events in the kernel's
/// style, which the ordinary engine allows under the reduced model and forbids under the
/// full one, where explain names the removed axiom alone.
fn lkmm_axiom_is_needed(axiom: &str, max: usize, events: usize) -> Option<String> {
    let (a, b, _) = lkmm_without(axiom)?;
    let mut s = Search::new("LKMM");
    s.max_events = max;
    let ans = distinguish(&a, &b, &s).unwrap();
    let f = &ans.found[0];
    assert_eq!((f.events, f.threads), (events, 2), "{}", f.text);
    assert_eq!(f.forbidden_by, [axiom], "{}", f.text);
    assert!(f.text.starts_with("C ") && f.text.contains("\n{}\nP0(int *x, int *y) {\n"), "{}", f.text);
    let t = Test::parse(&f.text, &format!("{}.litmus", f.name)).unwrap();
    let under = |m: &Model| check(&t, m, &Options::new()).unwrap().observation();
    assert_eq!(under(&a), Observation::Sometimes, "{}", f.text);
    assert_eq!(under(&b), Observation::Never, "{}", f.text);
    let why = explain(&t, &b, &Options::new()).unwrap().to_string();
    assert!(why.contains(&format!("Forbidden by: {axiom} ")), "{why}");
    Some(f.text.clone())
}

#[test]
fn lkmm_without_happens_before_allows_mp_with_release_and_acquire() {
    // MP+pooncerelease+poacquireonce: the weakest kinds that show it are preferred.
    let Some(text) = lkmm_axiom_is_needed("happens-before", 5, 4) else { return };
    for call in ["WRITE_ONCE(", "smp_store_release(", "smp_load_acquire(", "READ_ONCE("] {
        assert_eq!(text.matches(call).count(), 1, "{text}");
    }
    // `--arch C` with the kernel's macros is the kernel's vocabulary.
    let (a, b, _) = lkmm_without("happens-before").unwrap();
    let mut s = Search::new("C");
    s.max_events = 5;
    assert_eq!(distinguish(&a, &b, &s).unwrap().found[0].text, text);
}

#[test]
fn lkmm_without_propagation_allows_sb_with_full_barriers() {
    // SB with a full barrier between each thread's write and read: pb's strong fence.
    let Some(text) = lkmm_axiom_is_needed("propagation", 6, 6) else { return };
    assert_eq!((text.matches("smp_mb();").count(), text.matches("READ_ONCE(").count()), (2, 2), "{text}");
}

#[test]
fn lkmm_without_plain_coherence_allows_lb_with_plain_accesses() {
    // LB whose reads and writes of x are plain, ordered by release and acquire on y.
    let Some(text) = lkmm_axiom_is_needed("plain-coherence", 5, 4) else { return };
    assert!(text.contains("int r0 = *x;") && text.contains("*x = 1;"), "{text}");
}

#[test]
fn lkmm_exchanges_are_full_barriers() {
    // Without fences, SB needs its writes to be xchg()s, which act as smp_mb(): two events
    // each, in po, tagged MB.
    let Some((a, b, _)) = lkmm_without("propagation") else { return };
    let mut s = Search::new("lkmm");
    s.kinds = vec!["R.once".into(), "W.once".into(), "XCHG".into()];
    let ans = distinguish(&a, &b, &s).unwrap();
    let f = &ans.found[0];
    assert_eq!((f.events, f.forbidden_by.as_slice()), (6, &["propagation".to_string()][..]), "{}", f.text);
    assert_eq!(f.text.matches("= xchg(").count(), 2, "{}", f.text);
}

/// Searches between two models given as text, on `arch`.
fn search_text(a: (&str, &str), b: (&str, &str), arch: &str, max: usize) -> (Answer, Model, Model) {
    let (ma, mb) = (Model::from_text(a.0, a.1).unwrap(), Model::from_text(b.0, b.1).unwrap());
    let mut s = Search::new(arch);
    s.max_events = max;
    (distinguish(&ma, &mb, &s).unwrap(), ma, mb)
}

/// Each test found is allowed by `a` and forbidden by `b` under the ordinary check.
fn confirmed_by(ans: &Answer, a: &Model, b: &Model) {
    assert!(!ans.found.is_empty());
    for f in &ans.found {
        let t = Test::parse(&f.text, &format!("{}.litmus", f.name)).unwrap();
        assert_ne!(check(&t, a, &Options::new()).unwrap().observation(), Observation::Never, "{}", f.text);
        assert_eq!(check(&t, b, &Options::new()).unwrap().observation(), Observation::Never, "{}", f.text);
    }
}

/// A RISC-V model that orders loads by `extra` (and stores after anything, and fences).
fn riscv_model(extra: &str) -> String {
    format!(
        "RISCV \"deps\"\nlet ppo = {extra}[M];po;[W] | fencerel(Fence.rw.rw)\n\
         acyclic po-loc | rf | co | fr as coherence\nacyclic ppo | rfe | co | fr as model\n"
    )
}

#[test]
fn riscv_addr_is_written_as_a_dependency() {
    // Only an address dependency tells the two apart: the test found must carry one that
    // the ordinary check (the ISA's own dependencies) sees.
    let (with, without) = (riscv_model("[M];addr;[M] | "), riscv_model(""));
    let (ans, a, b) = search_text(("noaddr.cat", &without), ("addr.cat", &with), "RISCV", 5);
    confirmed_by(&ans, &a, &b);
    let text = &ans.found[0].text;
    assert!(text.contains("xor") && text.contains("add "), "{text}");
}

#[test]
fn riscv_ctrl_is_a_branch_to_the_next_label() {
    let (with, without) = (riscv_model("[R];ctrl;[R] | "), riscv_model(""));
    let (ans, a, b) = search_text(("noctrl.cat", &without), ("ctrl.cat", &with), "RISCV", 5);
    confirmed_by(&ans, &a, &b);
    let text = &ans.found[0].text;
    assert!(text.contains("bne ") && text.contains("LC00:"), "{text}");
}

/// A Power model that orders what `extra` says (and stores after anything).
fn ppc_model(extra: &str) -> String {
    format!(
        "PPC \"deps\"\nlet ppo = {extra}[M];po;[W] | fencerel(SYNC)\n\
         acyclic po-loc | rf | co | fr as coherence\nacyclic ppo | rfe | co | fr as model\n"
    )
}

#[test]
fn ppc_ctrlisync_and_data_are_written_as_herd_does() {
    let ctrlisync = "((ctrl & (_ * ISYNC)) ; po) & (R * R) | ";
    let (ans, a, b) = search_text(("plain.cat", &ppc_model("")), ("isync.cat", &ppc_model(ctrlisync)), "PPC", 6);
    confirmed_by(&ans, &a, &b);
    let text = &ans.found[0].text;
    assert!(text.contains("cmpw") && text.contains("beq") && text.contains("isync"), "{text}");
    // data: only a data dependency into a store orders it (stores no longer follow anything).
    let model = |extra: &str| ppc_model(extra).replace("[M];po;[W] | ", "[R];po;[R] | ");
    let (ans, a, b) = search_text(("nodata.cat", &model("")), ("data.cat", &model("data | ")), "PPC", 6);
    confirmed_by(&ans, &a, &b);
    assert!(ans.found[0].text.contains("addi"), "{}", ans.found[0].text);
}

/// herd's model file from the shared folder, or `None` (the test then says it skipped).
fn herd_model(file: &str) -> Option<Model> {
    let shared = common::shared_or_skip(&format!("distinguish against herd's {file}"))?;
    Some(Model::from_file(shared.join("models/herd").join(file), &[]).unwrap())
}

/// herd's model and the bundled one allow the same tests of up to 6 events, both ways.
fn equal_up_to_six(file: &str, bundled: &str, arch: &str) {
    let Some(herd) = herd_model(file) else { return };
    let ours = Model::bundled(bundled).unwrap();
    for (a, b) in [(&herd, &ours), (&ours, &herd)] {
        let ans = distinguish(a, b, &Search::new(arch)).unwrap();
        assert!(ans.found.is_empty(), "{}", ans.found[0].text);
        assert_eq!(ans.complete_up_to, 6);
    }
}

#[test]
fn herd_riscv_and_rvwmo_agree_up_to_six_events() {
    equal_up_to_six("riscv.cat", "rvwmo", "RISCV");
}

#[test]
fn herd_ppc_and_power_agree_up_to_six_events() {
    equal_up_to_six("ppc.cat", "power", "PPC");
}

#[test]
fn riscv_atomics_are_written_as_one_instruction_or_a_pair() {
    // rvwmo without its atomicity axiom allows a write between an atomic's read and
    // write: an AMO, or an lr/sc pair whose sc succeeds.
    let rvwmo = include_str!("../cat/rvwmo.cat");
    let weak = rvwmo.replace("empty rmw & (fre ; coe) as atomicity", "");
    assert_ne!(weak, rvwmo);
    let (a, b) = (Model::from_text("weak.cat", &weak).unwrap(), Model::from_text("rvwmo.cat", rvwmo).unwrap());
    for (kinds, shows) in [(&["lw", "sw", "amoswap"][..], "amoswap.w"), (&["lw", "sw", "lr", "sc"][..], "sc.w")] {
        let mut s = Search::new("RISCV");
        s.kinds = kinds.iter().map(|k| k.to_string()).collect();
        let ans = distinguish(&a, &b, &s).unwrap();
        confirmed_by(&ans, &a, &b);
        assert_eq!(ans.found[0].events, 3, "{}", ans.found[0].text);
        assert!(ans.found[0].text.contains(shows), "{}", ans.found[0].text);
        assert_eq!(ans.found[0].forbidden_by, ["atomicity"]);
    }
}
