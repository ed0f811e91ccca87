//! `litsat gen`: families of X86 litmus tests that grow with a parameter, for benchmarks.
//!
//! Every family's condition is forbidden under SC, so a checker has to prove it
//! impossible (an unsatisfiable query) rather than stumble on a witness:
//!
//! | family | shape | condition | sc | tso |
//! |---|---|---|---|---|
//! | `co T K` | T threads, each storing K distinct values to `x`, then loading `x` into `EAX` | a ring: thread t reads the last store of thread t+1 (mod T), and `x` ends at thread 0's last store | Never | Never |
//! | `sb N` | a ring of N threads: thread i stores 1 to `x<i>`, then loads `x<i+1 mod N>` | every load reads 0 | Never | Sometimes |
//! | `iriw N` | two writers (`x=1`, `y=1`) and N readers; even readers load `x` then `y`, odd ones `y` then `x` | every reader sees its first location written and its second not: even readers disagree with odd ones on the order of the writes | Never | Never |
//! | `mp N` | an MP chain: thread 0 writes `x` then `f0`; thread i (1 ≤ i < N) reads `f<i-1>` then writes `f<i>`; thread N reads `f<N-1>` then `x` | every flag read sees 1 and the last thread reads `x=0` | Never | Never |
//!
//! Under the bundled `relaxed` model, `co` stays Never and the other three are Sometimes.
//!
//! `rcu N G` (or `rcu PATTERN`, a string of `R` and `G` such as `RRGGGGRRRR`) is C for the
//! Linux-kernel model: the kernel's `C-RW-R+RW-G+…` family, the RCU guarantee at scale.
//! Thread i reads `x<i>` and writes `x<i+1 mod N>`, either inside an RCU read-side
//! critical section (`RW-R`) or around a `synchronize_rcu()` (`RW-G`); the condition is
//! that every read sees 1, a cycle. The guarantee: the cycle is forbidden exactly when
//! the grace periods are at least as many as the critical sections (G ≥ N − G), so
//! `Result: Never` then and `Sometimes` otherwise, which the test's comment states for
//! `--expect-results`. `rcu N G` spreads the G grace periods evenly; a pattern fixes the
//! order.
//!
//! Its States have a closed form. Each location has one write besides its initial one,
//! so an execution is one choice of source (initial or written) per read: 2^N
//! candidates, each with its own state, since the state is the vector of the reads'
//! values. Under the LKMM every candidate but the cycle itself is allowed (a read of 0
//! breaks the ring, and what remains is a chain that no axiom forbids), so the log has
//! 2^N states when the cycle is allowed and 2^N − 1 when it is not, one execution each.
//!
//! Why `co` is Never under any model with SC per location: thread t's load follows its
//! own last store in program order, so reading thread t+1's last store puts that store
//! after thread t's last in coherence order; around the ring this is a coherence cycle.
//! The final value of `x` is part of the condition so that it is part of every state.

use litsat::diag::Diag;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Family {
    /// T threads each making K stores to `x` then loading it (parameters: T K).
    Co,
    /// A store-buffering ring of N threads (parameter: N).
    Sb,
    /// IRIW with two writers and N readers (parameter: N).
    Iriw,
    /// A message-passing chain through N flags, N+1 threads (parameter: N).
    Mp,
    /// The Linux kernel's RCU ring of N threads, G of them grace periods (parameters:
    /// N G, or one pattern of R and G).
    Rcu,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Co => "co",
            Family::Sb => "sb",
            Family::Iriw => "iriw",
            Family::Mp => "mp",
            Family::Rcu => "rcu",
        }
    }

    /// How many parameters the family takes.
    pub fn arity(self) -> usize {
        match self {
            Family::Co | Family::Rcu => 2,
            _ => 1,
        }
    }
}

/// One generated test: its name (also its file stem) and its text.
#[derive(Clone, Debug)]
pub struct Generated {
    pub name: String,
    pub text: String,
}

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The family: co (T K), sb (N), iriw (N), mp (N) or rcu (N G, or a pattern such as
    /// RRGGGGRRRR).
    #[arg(value_enum)]
    pub family: Family,
    /// The family's parameters; each may be a number or an inclusive range `A..B`, and
    /// every combination is written.
    #[arg(required = true)]
    pub params: Vec<String>,
    /// Write NAME.litmus files into DIR (created if needed) instead of printing.
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    if let [pattern] = args.params.as_slice()
        && args.family == Family::Rcu
        && pattern.chars().all(|c| c.is_ascii_alphabetic())
    {
        let t = rcu_pattern(pattern).map_err(|m| Diag::file("litsat gen", m))?;
        return write_out(&[t], &args.output);
    }
    let ranges = args.params.iter().map(|p| parse_range(p)).collect::<Result<Vec<_>, _>>()?;
    if ranges.len() != args.family.arity() {
        return Err(Diag::file(
            "litsat gen",
            format!(
                "family '{}' takes {} parameter(s), found {}",
                args.family.name(),
                args.family.arity(),
                ranges.len()
            ),
        ));
    }
    let mut tests = Vec::new();
    for combo in combinations(&ranges) {
        tests.push(generate(args.family, &combo).map_err(|m| Diag::file("litsat gen", m))?);
    }
    write_out(&tests, &args.output)
}

/// Prints the tests, or writes each as NAME.litmus into `output` and prints its path.
fn write_out(tests: &[Generated], output: &Option<PathBuf>) -> Result<ExitCode, Diag> {
    match output {
        None => {
            let mut out = String::new();
            for t in tests {
                out.push_str(&t.text);
                out.push('\n');
            }
            crate::out::print(&out);
        }
        Some(dir) => {
            let dname = dir.to_string_lossy().to_string();
            std::fs::create_dir_all(dir).map_err(|e| Diag::file(&dname, format!("cannot create folder: {e}")))?;
            for t in tests {
                let p = dir.join(format!("{}.litmus", t.name));
                std::fs::write(&p, &t.text)
                    .map_err(|e| Diag::file(&p.to_string_lossy(), format!("cannot write: {e}")))?;
                crate::out::print(&format!("{}\n", p.display()));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `N` or `A..B` (inclusive), `A..=B` accepted too.
fn parse_range(s: &str) -> Result<(usize, usize), Diag> {
    let bad = || Diag::file("litsat gen", format!("expected a number or a range A..B, found '{s}'"));
    let num = |x: &str| x.trim().parse::<usize>().map_err(|_| bad());
    match s.split_once("..") {
        None => {
            let n = num(s)?;
            Ok((n, n))
        }
        Some((a, b)) => {
            let (a, b) = (num(a)?, num(b.strip_prefix('=').unwrap_or(b))?);
            if a > b { Err(bad()) } else { Ok((a, b)) }
        }
    }
}

fn combinations(ranges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for &(a, b) in ranges {
        out = out.into_iter().flat_map(|prefix| (a..=b).map(move |v| [prefix.clone(), vec![v]].concat())).collect();
    }
    out
}

/// The member of `family` with these parameters.
pub fn generate(family: Family, params: &[usize]) -> Result<Generated, String> {
    if params.len() != family.arity() {
        return Err(format!("family '{}' takes {} parameter(s)", family.name(), family.arity()));
    }
    match family {
        Family::Co => co(params[0], params[1]),
        Family::Sb => sb(params[0]),
        Family::Iriw => iriw(params[0]),
        Family::Mp => mp(params[0]),
        Family::Rcu => rcu(params[0], params[1]),
    }
}

/// The Observation derived by hand for every member of `family` (with its smallest
/// parameters allowed) under a bundled model, when the family's comment above gives one.
pub fn expected(family: Family, model: &str) -> Option<&'static str> {
    let m = model.rsplit('/').next().unwrap_or(model).trim_end_matches(".cat");
    match (family, m) {
        (Family::Co, "sc" | "tso" | "relaxed") => Some("Never"),
        (Family::Sb, "sc") => Some("Never"),
        (Family::Sb, "tso" | "relaxed") => Some("Sometimes"),
        (Family::Iriw | Family::Mp, "sc" | "tso") => Some("Never"),
        (Family::Iriw | Family::Mp, "relaxed") => Some("Sometimes"),
        _ => None,
    }
}

/// The value of thread `t`'s `j`-th store (0-based) in `co T K`: all distinct, nonzero.
pub fn co_value(t: usize, k: usize, j: usize) -> usize {
    t * k + j + 1
}

/// `co T K`: T ≥ 2 threads, each storing K ≥ 1 distinct values to `x`, then loading `x`.
pub fn co(t: usize, k: usize) -> Result<Generated, String> {
    if t < 2 || k < 1 {
        return Err(format!("co needs T >= 2 and K >= 1, found T={t} K={k}"));
    }
    let name = format!("co-T{t}-K{k}");
    let code: Vec<Vec<String>> = (0..t)
        .map(|i| {
            let mut c: Vec<String> = (0..k).map(|j| format!("MOV [x],${}", co_value(i, k, j))).collect();
            c.push("MOV EAX,[x]".to_string());
            c
        })
        .collect();
    let mut conj: Vec<String> = (0..t).map(|i| format!("{i}:EAX={}", co_value((i + 1) % t, k, k - 1))).collect();
    conj.push(format!("x={}", co_value(0, k, k - 1)));
    let doc = format!(
        "{t} threads, each storing {k} distinct values to x and then loading x.\n   \
         Each thread reads the next thread's last store: a coherence cycle.\n   \
         sc: Never.  tso: Never."
    );
    Ok(Generated { text: render(&name, &doc, &["x".to_string()], &code, &conj), name })
}

/// `sb N`: an SB ring of N ≥ 2 threads.
pub fn sb(n: usize) -> Result<Generated, String> {
    if n < 2 {
        return Err(format!("sb needs N >= 2, found {n}"));
    }
    let name = format!("sb-{n}");
    let locs: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
    let code: Vec<Vec<String>> =
        (0..n).map(|i| vec![format!("MOV [x{i}],$1"), format!("MOV EAX,[x{}]", (i + 1) % n)]).collect();
    let conj: Vec<String> = (0..n).map(|i| format!("{i}:EAX=0")).collect();
    let doc = format!(
        "Store buffering around a ring of {n} threads: all loads read 0.\n   \
         sc: Never.  tso: Sometimes, each store may wait in its buffer."
    );
    Ok(Generated { text: render(&name, &doc, &locs, &code, &conj), name })
}

/// `iriw N`: two writers and N ≥ 2 readers that alternate their order of loads.
pub fn iriw(n: usize) -> Result<Generated, String> {
    if n < 2 {
        return Err(format!("iriw needs N >= 2 readers, found {n}"));
    }
    let name = format!("iriw-{n}");
    let mut code = vec![vec!["MOV [x],$1".to_string()], vec!["MOV [y],$1".to_string()]];
    let mut conj = Vec::new();
    for j in 0..n {
        let (a, b) = if j % 2 == 0 { ("x", "y") } else { ("y", "x") };
        code.push(vec![format!("MOV EAX,[{a}]"), format!("MOV EBX,[{b}]")]);
        conj.push(format!("{}:EAX=1", j + 2));
        conj.push(format!("{}:EBX=0", j + 2));
    }
    let doc = format!(
        "IRIW with {n} readers: even readers see x before y, odd ones y before x.\n   \
         sc: Never.  tso: Never, stores are multi-copy atomic and loads stay in order."
    );
    Ok(Generated { text: render(&name, &doc, &["x".to_string(), "y".to_string()], &code, &conj), name })
}

/// `mp N`: message passing through a chain of N ≥ 1 flags (N+1 threads).
pub fn mp(n: usize) -> Result<Generated, String> {
    if n < 1 {
        return Err(format!("mp needs N >= 1, found {n}"));
    }
    let name = format!("mp-{n}");
    let mut locs = vec!["x".to_string()];
    locs.extend((0..n).map(|i| format!("f{i}")));
    let mut code = vec![vec!["MOV [x],$1".to_string(), "MOV [f0],$1".to_string()]];
    for i in 1..n {
        code.push(vec![format!("MOV EAX,[f{}]", i - 1), format!("MOV [f{i}],$1")]);
    }
    code.push(vec![format!("MOV EAX,[f{}]", n - 1), "MOV EBX,[x]".to_string()]);
    let mut conj: Vec<String> = (1..=n).map(|i| format!("{i}:EAX=1")).collect();
    conj.push(format!("{n}:EBX=0"));
    let doc = format!(
        "Message passing through {n} flag(s): every flag is seen set, the data is not.\n   \
         sc: Never.  tso: Never, W->W and R->R and R->W stay in order."
    );
    Ok(Generated { text: render(&name, &doc, &locs, &code, &conj), name })
}

/// `rcu N G`: the RCU ring of N ≥ 2 threads with G ≤ N grace periods spread evenly
/// (thread i is a grace period where ⌊(i+1)G/N⌋ passes an integer).
pub fn rcu(n: usize, g: usize) -> Result<Generated, String> {
    if n < 2 || g > n {
        return Err(format!("rcu needs N >= 2 and G <= N, found N={n} G={g}"));
    }
    let pattern: String = (0..n).map(|i| if (i + 1) * g / n > i * g / n { 'G' } else { 'R' }).collect();
    rcu_pattern(&pattern)
}

/// Whether the RCU ring of `pattern` forbids its cycle: as many grace periods as
/// critical sections, or more.
pub fn rcu_forbidden(pattern: &str) -> bool {
    let g = pattern.chars().filter(|c| *c == 'G').count();
    2 * g >= pattern.len()
}

/// The RCU ring whose thread i is `RW-R` or `RW-G` as `pattern`'s i-th letter is R or G.
pub fn rcu_pattern(pattern: &str) -> Result<Generated, String> {
    let pattern = pattern.to_ascii_uppercase();
    let n = pattern.len();
    if n < 2 || pattern.chars().any(|c| c != 'R' && c != 'G') {
        return Err(format!("an rcu pattern is two or more letters R or G, found '{pattern}'"));
    }
    let kinds: Vec<&str> = pattern.chars().map(|c| if c == 'G' { "RW-G" } else { "RW-R" }).collect();
    let name = format!("C-{}", kinds.join("+"));
    let result = if rcu_forbidden(&pattern) { "Never" } else { "Sometimes" };
    let mut s = String::new();
    let _ = writeln!(s, "C {name}");
    let g = n - kinds.iter().filter(|k| **k == "RW-R").count();
    let _ = writeln!(
        s,
        "(*\n * Result: {result}\n *\n * Generated by litsat gen: {g} grace period(s), {} critical section(s).\n *)",
        n - g
    );
    let _ = writeln!(s, "{{\n}}");
    for (i, k) in kinds.iter().enumerate() {
        let j = (i + 1) % n;
        let _ = writeln!(s, "\nP{i}(intptr_t *x{i}, intptr_t *x{j})\n{{");
        if *k == "RW-R" {
            let _ = writeln!(
                s,
                "\trcu_read_lock();\n\tintptr_t r1 = READ_ONCE(*x{i});\n\tWRITE_ONCE(*x{j}, 1);\n\trcu_read_unlock();"
            );
        } else {
            let _ = writeln!(s, "\tintptr_t r1 = READ_ONCE(*x{i});\n\tsynchronize_rcu();\n\tWRITE_ONCE(*x{j}, 1);");
        }
        let _ = writeln!(s, "}}");
    }
    let conj: Vec<String> = (0..n).map(|i| format!("{i}:r1=1")).collect();
    let _ = writeln!(s, "\nexists\n({})", conj.join(" /\\ "));
    Ok(Generated { name, text: s })
}

/// herd's X86 layout: header, comment, init, a padded code table, an `exists` condition.
fn render(name: &str, doc: &str, locs: &[String], code: &[Vec<String>], conj: &[String]) -> String {
    debug_assert!(code.iter().flatten().all(|i| !i.contains('|')));
    let mut s = String::new();
    let _ = writeln!(s, "X86 {name}");
    let _ = writeln!(s, "\"Generated by litsat gen\"");
    let _ = writeln!(s, "(* {doc} *)");
    let init: String = locs.iter().map(|l| format!("{l}=0; ")).collect();
    let _ = writeln!(s, "{{ {init}}}");
    let heads: Vec<String> = (0..code.len()).map(|i| format!("P{i}")).collect();
    let width: Vec<usize> =
        code.iter().zip(&heads).map(|(c, h)| c.iter().map(String::len).max().unwrap_or(0).max(h.len())).collect();
    let rows = code.iter().map(Vec::len).max().unwrap_or(0);
    let line = |cells: &[&str]| -> String {
        let padded: Vec<String> = cells.iter().zip(&width).map(|(c, w)| format!(" {c:<w$} ")).collect();
        format!("{};", padded.join("|"))
    };
    let hs: Vec<&str> = heads.iter().map(String::as_str).collect();
    let _ = writeln!(s, "{}", line(&hs));
    for r in 0..rows {
        let cells: Vec<&str> = code.iter().map(|c| c.get(r).map(String::as_str).unwrap_or("")).collect();
        let _ = writeln!(s, "{}", line(&cells));
    }
    let _ = writeln!(s, "exists ({})", conj.join(" /\\ "));
    s
}
