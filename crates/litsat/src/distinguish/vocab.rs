//! What an architecture's tests may contain, for `distinguish`: the kinds of event a slot
//! may be (a row per kind), and how a kind is written as an instruction. An architecture
//! is a row of [`VOCABS`]; the search reads only the table.

/// Where a kind sits in a read-modify-write instruction: its read comes in one slot and
/// its write in the next, one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    Whole,
    /// The read of a read-modify-write (the write follows in the next slot).
    Read,
    /// The write of a read-modify-write (its read is in the slot before).
    Write,
}

/// One kind of event: its class, the sets it belongs to, and its instruction.
#[derive(Clone, Copy, Debug)]
pub struct EventKind {
    pub name: &'static str,
    pub read: bool,
    pub write: bool,
    pub fence: bool,
    /// The tag sets holding it (`MFENCE`, `X`, C's memory orders, …).
    pub tags: &'static [&'static str],
    pub half: Half,
}

const fn kind(name: &'static str, rw: (bool, bool), tags: &'static [&'static str], half: Half) -> EventKind {
    EventKind { name, read: rw.0, write: rw.1, fence: !rw.0 && !rw.1, tags, half }
}

const R: (bool, bool) = (true, false);
const W: (bool, bool) = (false, true);
const F: (bool, bool) = (false, false);

/// An architecture's vocabulary (or the part of it a search keeps).
#[derive(Clone, Debug)]
pub struct Vocab {
    /// The architecture's name in a litmus test's header.
    pub arch: &'static str,
    pub kinds: Vec<EventKind>,
}

/// x86: `MOV` loads and stores, `MFENCE`, `XCHG` (a locked read-modify-write, tagged `X`).
const X86: &[EventKind] = &[
    kind("R", R, &[], Half::Whole),
    kind("W", W, &[], Half::Whole),
    kind("MFENCE", F, &["MFENCE"], Half::Whole),
    kind("XCHG.R", R, &["X"], Half::Read),
    kind("XCHG.W", W, &["X"], Half::Write),
];

/// Every vocabulary, by architecture.
pub const VOCABS: &[(&str, &[EventKind])] = &[("X86", X86)];

/// The vocabulary of `arch` (as a test's header or `--arch` names it), with only the
/// kinds `keep` names where it names some (a read-modify-write's two halves go together).
pub fn for_arch(arch: &str, keep: &[String]) -> Result<Vocab, String> {
    let Some(&(arch, kinds)) = VOCABS.iter().find(|v| v.0.eq_ignore_ascii_case(arch)) else {
        let known: Vec<&str> = VOCABS.iter().map(|v| v.0).collect();
        return Err(format!("no vocabulary for architecture {arch} (known: {})", known.join(", ")));
    };
    let family = |k: &EventKind| k.name.split('.').next().unwrap_or(k.name).to_string();
    if let Some(bad) = keep.iter().find(|n| !kinds.iter().any(|k| family(k) == **n)) {
        let known: Vec<String> = kinds.iter().map(family).collect();
        return Err(format!("no event kind {bad} in {arch}'s vocabulary (known: {})", known.join(", ")));
    }
    let kinds = kinds.iter().filter(|k| keep.is_empty() || keep.contains(&family(k))).copied().collect();
    Ok(Vocab { arch, kinds })
}
