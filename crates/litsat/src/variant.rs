//! herd's variants (`-variant`, a cfg's `variant` lines, a test's `Variant=` and
//! `CacheType=` metadata): names matched as herd matches them, and the ones that change
//! herd's instruction semantics, which litsat has not built, refused by name.
//!
//! A variant only a model tests (`if "ETS2"`) needs nothing but the name. One that makes
//! herd build other events (page-table walks, tag checks, instruction fetches, mixed-size
//! cells) would be answered under the plain semantics if it were only passed on to the
//! model: a wrong answer, so it is refused instead.

use crate::diag::Diag;

/// herd's aliases: the name each stands for.
const ALIASES: &[(&str, &str)] = &[
    ("kvm", "vmsa"),
    ("self", "ifetch"),
    ("mte", "memtag"),
    ("tagmem", "memtag"),
    ("amox0", "specialx0"),
    ("x0", "specialx0"),
    ("scdepend", "fullscdepend"),
    ("cu", "constrainedunpredictable"),
    ("notweakpred", "notweakpredicated"),
    ("back", "backcompat"),
];

/// Where a variant changes the events herd builds: every architecture, or those named
/// (as a test's header names them).
#[derive(Clone, Copy)]
enum Reach {
    All,
    Only(&'static [&'static str]),
    /// Every architecture but those named, where litsat builds it.
    Except(&'static [&'static str]),
}

/// The architectures whose store-conditionals herd builds with one code (its
/// `riscv_sc`), whose dependencies the `…scdepend…` variants switch.
const STORE_CONDITIONAL: Reach = Reach::Only(&["RISCV", "AArch64"]);

/// The variants that change the events herd builds, where, and what each is.
const NOT_BUILT: &[(&str, Reach, &str)] = &[
    ("vmsa", Reach::All, "page tables and their faults"),
    ("memtag", Reach::All, "memory tags"),
    // Built for AArch64 (`events::ifetch`), where herd's semantics fetch instructions.
    ("ifetch", Reach::Except(&["AArch64"]), "instruction fetches (self-modifying code)"),
    ("mixed", Reach::All, "mixed-size accesses"),
    ("unaligned", Reach::All, "unaligned mixed-size accesses"),
    ("pauth1", Reach::All, "pointer authentication"),
    ("pauth2", Reach::All, "pointer authentication"),
    ("sve", Reach::All, "scalable vectors"),
    ("sme", Reach::All, "scalable matrices"),
    ("morello", Reach::All, "capabilities"),
    ("deps", Reach::All, "speculated branches, with dependencies the model computes"),
    ("oota", Reach::All, "cyclic value equations taken as solvable (out-of-thin-air values)"),
    // herd's fault handling other than the default `fatal` (the thread ends at a fault).
    ("handled", Reach::All, "faults handled: the faulting instruction runs again, or the next after a call"),
    ("imprecise", Reach::All, "faults handled: the faulting instruction runs again, or the next after a call"),
    ("faulttonext", Reach::All, "faults skipped to the next instruction"),
    ("skip", Reach::All, "faults skipped to the next instruction"),
    // What herd's RISC-V, AArch64 and C semantics switch by name.
    ("success", STORE_CONDITIONAL, "a store-conditional's success dependency"),
    ("fullscdepend", STORE_CONDITIONAL, "a store-conditional's full dependencies"),
    ("switchdepscwrite", STORE_CONDITIONAL, "a store-conditional's dependency on its write switched"),
    ("switchdepscresult", STORE_CONDITIONAL, "a store-conditional's dependency on its result switched"),
    ("specialx0", Reach::Only(&["RISCV"]), "AMOs to or from x0 without some of their events"),
    ("acqrelasfence", Reach::Only(&["RISCV"]), "acquire loads and release stores as fences"),
    ("splittedrmw", Reach::Only(&["RISCV"]), "AMOs as a separate read and write"),
    ("lrscdiffok", Reach::Only(&["RISCV"]), "lr/sc pairs to different addresses that may succeed"),
    ("constrainedunpredictable", Reach::Only(&["AArch64"]), "exclusives of different sizes or addresses that may succeed"),
    ("shadowstack", Reach::Only(&["AArch64"]), "the guarded control stack"),
    ("asl", Reach::Only(&["AArch64"]), "instructions run through Arm's ASL pseudocode"),
    ("notweakpredicated", Reach::Only(&["AArch64"]), "CSEL reading both sources, its write not predicated"),
    ("normw", Reach::Only(&["C"]), "C11 read-modify-writes as a read and a write"),
    ("backcompat", Reach::Only(&["LISA"]), "old LISA: `deref` loads followed by an rb_dep fence, `assign` stores as releases"),
];

/// The variants that change herd's vmsa semantics (or combine with it) in ways litsat
/// has not built: refused with vmsa.
const NOT_WITH_VMSA: &[(&str, &str)] = &[
    ("mixed", "mixed-size accesses through page tables"),
    ("pte2", "page tables for the page tables"),
    ("asl", "page tables for the page tables"),
    ("noptebranch", "walks without their commit"),
    ("ifetch", "instruction fetches through page tables"),
    ("morello", "capabilities through page tables"),
];

/// Every name herd's `Variant.parse` takes (lower case), its aliases included; beside
/// these, herd takes its fault-handling and MTE-precision tags, `tNN` and `sve:N`,
/// `sme:N` ([`known`]). `dic` and `idc` are not among them: they are `CacheType=`
/// features, which herd's `-variant` refuses.
const HERD_NAMES: &[&str] = &[
    "success", "instr", "specialx0", "amox0", "x0", "normw", "acqrelasfence", "backcompat", "back",
    "fullscdepend", "scdepend", "splittedrmw", "switchdepscwrite", "switchdepscresult", "lrscdiffok",
    "mixed", "unaligned", "dontcheckmixed", "notweakpredicated", "notweakpred", "lkmmv1", "lkmmv2",
    "tagmem", "memtag", "mte", "store-only", "cutoff", "morello", "neon", "sve", "sme", "deps",
    "instances", "instance", "kvm", "vmsa", "ets", "ets2", "ets3", "exs", "eis", "eos", "noptebranch",
    "nobranch", "pte2", "pte-squared", "optrfrmw", "constrainedunpredictable", "cu", "exp", "ifetch",
    "self", "shadowstack", "cos-opt", "test", "asl", "asl_aarch64", "aslaarch64", "asl+aarch64", "aslv0",
    "asl0", "asl_0", "aslv1", "asl1", "asl_1", "asltype+warn", "asltype+silence", "asltype+check",
    "asl+aarch64+udf", "s128", "strict", "warn", "telechat", "nv2", "oldsolver", "oota", "pauth1",
    "pauth2", "no-key-da", "no-key-db", "no-key-ia", "no-key-ib", "const-pac-field", "fpac", "d128",
    // Fault handling (herd's `Fault.Handling.parse`) and MTE precision (`Precision.parse`).
    "imprecise", "handled", "precise", "fatal", "faulttonext", "skip", "synchronous", "sync",
    "asynchronous", "async", "asymmetric", "asym",
];

/// Whether herd's `-variant` takes the name `v` (case aside); herd refuses any other,
/// listing its tags.
pub fn known(v: &str) -> bool {
    let v = v.to_ascii_lowercase();
    let numbered = |prefix: &str| v.strip_prefix(prefix).is_some_and(|n| n.parse::<i64>().is_ok());
    let t_nn = v.len() == 3 && v.starts_with('t') && v[1..].bytes().all(|b| b.is_ascii_digit());
    HERD_NAMES.contains(&v.as_str()) || t_nn || numbered("sve:") || numbered("sme:")
}

/// Each of the comma-separated `names` herd's `-variant` takes, or herd's complaint about
/// the first it does not.
pub fn parse_list(names: &str) -> Result<Vec<String>, String> {
    let names = names.split(',').map(str::trim).filter(|s| !s.is_empty());
    names
        .map(|n| if known(n) { Ok(n.to_string()) } else { Err(format!("tag {n} for -variant is wrong")) })
        .collect()
}

/// `v` lower-cased, its alias resolved: herd matches variant names without case.
pub fn canonical(v: &str) -> String {
    let v = v.to_ascii_lowercase();
    ALIASES.iter().find(|(a, _)| *a == v).map_or(v, |(_, to)| to.to_string())
}

/// Whether the variant `v` is among `set`, as herd matches them.
pub fn holds(set: &[String], v: &str) -> bool {
    let v = canonical(v);
    set.iter().any(|x| canonical(x) == v)
}

/// Refuses the first variant of `set` that changes herd's semantics beyond what litsat
/// builds for architecture `arch`, naming it and what it is. `mixed` is built where the
/// architecture's plug-in cuts memory into cells ([`crate::isa::Isa::mixed_cells`]),
/// `morello` where it has capabilities ([`crate::isa::Isa::capabilities`]; what it does
/// not build of them, it refuses instruction by instruction).
pub fn check_built(set: &[String], file: &str, arch: &str) -> Result<(), Diag> {
    let isa = crate::isa::for_arch(arch);
    let cells = isa.is_some_and(|i| i.mixed_cells());
    let capabilities = isa.is_some_and(|i| i.capabilities());
    let reaches = |r: &Reach| match r {
        Reach::All => true,
        Reach::Only(archs) => archs.iter().any(|a| a.eq_ignore_ascii_case(arch)),
        Reach::Except(archs) => !archs.iter().any(|a| a.eq_ignore_ascii_case(arch)),
    };
    let vmsa = arch.eq_ignore_ascii_case("AArch64") && holds(set, "vmsa");
    for v in set {
        let c = canonical(v);
        if (c == "mixed" && cells && !vmsa) || (c == "morello" && capabilities) {
            continue;
        }
        if c == "vmsa" && vmsa {
            continue;
        }
        if vmsa && let Some((_, what)) = NOT_WITH_VMSA.iter().find(|(n, _)| *n == c) {
            return Err(Diag::file(file, format!("unsupported: variant `{v}` with vmsa ({what})")));
        }
        if let Some((_, _, what)) = NOT_BUILT.iter().find(|(n, r, _)| *n == c && reaches(r)) {
            return Err(Diag::file(file, format!("unsupported: variant `{v}` ({what})")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_as_herds() {
        let set = vec!["KVM".to_string(), "ETS2".to_string()];
        assert!(holds(&set, "vmsa") && holds(&set, "ets2") && !holds(&set, "ets3"));
        assert!(check_built(&["ETS2".into(), "DIC".into()], "t", "AArch64").is_ok());
        let e = check_built(&["ets3".into(), "self".into()], "t.litmus", "PPC").unwrap_err();
        assert_eq!(e.message, "unsupported: variant `self` (instruction fetches (self-modifying code))");
        assert!(check_built(&["self".into()], "t.litmus", "AArch64").is_ok());
        // A variant of one architecture's semantics is refused there only.
        assert!(check_built(&["SplittedRMW".into()], "t", "X86").is_ok());
        let e = check_built(&["SplittedRMW".into()], "t", "RISCV").unwrap_err();
        assert_eq!(e.message, "unsupported: variant `SplittedRMW` (AMOs as a separate read and write)");
        assert!(check_built(&["success".into()], "t", "AArch64").is_err());
        let e = check_built(&["NotWeakPred".into()], "t", "AArch64").unwrap_err();
        assert_eq!(e.message, "unsupported: variant `NotWeakPred` (CSEL reading both sources, its write not predicated)");
        assert!(check_built(&["asl".into()], "t", "AArch64").is_err() && check_built(&["asl".into()], "t", "C").is_ok());
        assert!(check_built(&["deps".into()], "t", "PPC").is_err() && check_built(&["normw".into()], "t", "C").is_err());
    }

    #[test]
    fn names_herd_refuses_are_refused() {
        assert!(known("ETS2") && known("NV2") && known("t07") && known("sve:256") && known("Precise"));
        assert!(!known("bogus") && !known("dic") && !known("t7") && !known("sve:x"));
        assert_eq!(parse_list("mixed, telechat"), Ok(vec!["mixed".to_string(), "telechat".to_string()]));
        assert_eq!(parse_list("mixed,etss"), Err("tag etss for -variant is wrong".to_string()));
    }
}
