//! What the integration tests share: where the shared folder is, and, for the mutation
//! sweeps (`robustness.rs`, `serve.rs`), a deterministic PRNG and the tokens they splice
//! into inputs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared folder of corpora, herd's answers and model files: `LITSAT_SHARED` when
/// set, else `../shared` beside the project. `None` when it holds no `corpus/`, and the
/// tests that need it then say they skipped. CI runs the suite a second time with
/// `LITSAT_SHARED` pointing nowhere, to prove the project's own files suffice.
pub fn shared() -> Option<PathBuf> {
    let p = shared_location();
    p.join("corpus").is_dir().then_some(p)
}

/// Where the shared folder is looked for.
pub fn shared_location() -> PathBuf {
    match std::env::var_os("LITSAT_SHARED") {
        Some(v) => PathBuf::from(v),
        None => root().join("../shared"),
    }
}

/// [`shared`], or `None` after saying that `what` was skipped and why.
pub fn shared_or_skip(what: &str) -> Option<PathBuf> {
    let s = shared();
    if s.is_none() {
        println!("skipped: {what} (no shared folder at {}; see LITSAT_SHARED)", shared_location().display());
    }
    s
}

/// The project's root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// xorshift64*: small, fixed-seed, good enough to pick mutation points.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// One of `xs` (not empty).
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// Tokens that mean something to one of the parsers, plus plain junk.
pub const GARBAGE: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    "|",
    "||",
    "~",
    "/\\",
    "\\/",
    "=>",
    "=",
    "==",
    "!=",
    "(*",
    "*)",
    "\"",
    "'",
    "<<",
    ">>",
    ":",
    ",",
    "&",
    "&&",
    "*",
    "+",
    "?",
    "^-1",
    "^",
    "-",
    "--",
    "0x",
    "0xffffffffffffffffff",
    "99999999999999999999999",
    "-1",
    "$",
    "%",
    "&x",
    "P0",
    "P99999999999999999999",
    "0:",
    "1:EAX",
    "0:x5",
    "[x]",
    "exists",
    "~exists",
    "forall",
    "final",
    "locations",
    "filter",
    "with",
    "kinds",
    "not",
    "true",
    "false",
    "let",
    "rec",
    "in",
    "and",
    "as",
    "fun",
    "->",
    "match",
    "end",
    "try",
    "if",
    "then",
    "else",
    "include \"nope.cat\"",
    "include \"stdlib.cat\"",
    "acyclic",
    "irreflexive",
    "empty",
    "flag",
    "show",
    "procedure",
    "call",
    "forall",
    "do",
    "from",
    "with co from",
    "generate_cos",
    "domain",
    "range",
    "linearisations",
    "enum",
    "instructions",
    "MOV",
    "MFENCE",
    "XCHG",
    "LOCK",
    "EAX",
    "movl",
    "%eax",
    "lw",
    "sw",
    "amoswap.w.aq",
    "fence",
    "LDR",
    "STR",
    "X0",
    "W1",
    "DMB",
    "r[]",
    "w[]",
    "label:",
    "L0:",
    "goto",
    "b",
    "bne",
    "X86",
    "AArch64",
    "RISCV",
    "LISA",
    "X86_64",
    "C",
    "PPC",
    "\u{e9}",
    "\u{1F600}",
    "\u{0}",
    "\t",
    "\n",
    "\r\n",
    " ",
    "#",
    "//",
    "_",
    "__",
    "x'",
    "int",
    "uint64_t",
    "*p",
    "PTE(x)",
    "fault(P0:L0,x)",
    "scopes:",
    "regions:",
    "include \"/etc/passwd\"",
    "é",
];
