//! `litsat distinguish`: the smallest test one model allows and another forbids, or a
//! bounded proof that none exists (the search is the library's `litsat::distinguish`).

use litsat::Model;
use litsat::diag::Diag;
use litsat::distinguish::{Answer, Search, distinguish};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    #[command(flatten)]
    pub two: super::args::TwoModels,
    /// The vocabulary the tests use: X86, RISCV, PPC, C (C11's atomics), or LKMM (C tests
    /// in the kernel's style: READ_ONCE, WRITE_ONCE, smp_*, xchg; for `-m lkmm` and its
    /// variants, which C also picks where a model's macros are the kernel's).
    #[arg(long, default_value = "X86")]
    pub arch: String,
    /// Search tests of up to this many events.
    #[arg(long, value_name = "N", default_value_t = 6)]
    pub max_events: usize,
    /// At most this many threads (default: as many as events).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// At most this many locations (default: as many as events).
    #[arg(long, value_name = "L")]
    pub locations: Option<usize>,
    /// Find K tests, none a renaming of another.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub all: usize,
    /// Write each test found to DIR/NAME.litmus.
    #[arg(short, value_name = "DIR")]
    pub o: Option<PathBuf>,
    /// Check each "no difference" answer's UNSAT proof with the DRAT checker.
    #[arg(long)]
    pub certify: bool,
    /// Let executions that raise a flag (a data race, `undefined_unless`) be candidates.
    #[arg(long)]
    pub flags: bool,
    /// Only these kinds of event, comma-separated, by family or name (X86: R, W, MFENCE,
    /// XCHG; RISCV: lw, sw, fence, amoswap, lr, sc; PPC: lwz, stw, sync, lwsync, eieio,
    /// isync; LKMM: R, W, F, XCHG, …, or R.once, W.release, F.mb, …).
    #[arg(long, value_delimiter = ',')]
    pub kinds: Vec<String>,
    /// Stop after this many seconds, reporting the largest N finished.
    #[arg(long, value_name = "S", value_parser = crate::cli::args::parse_seconds)]
    pub timeout: Option<f64>,
}

pub fn main(args: Args) -> Result<ExitCode, Diag> {
    let (a, b) = args.two.pair("litsat distinguish")?;
    let load = |m: &str| Model::from_file(m, &args.two.include).map_err(|e| e.diag().clone());
    let (ma, mb) = (load(a)?, load(b)?);
    let mut s = Search::new(&args.arch);
    s.max_events = args.max_events;
    s.threads = args.threads;
    s.locations = args.locations;
    s.all = args.all.max(1);
    s.certify = args.certify;
    s.flags = args.flags;
    s.kinds = args.kinds.clone();
    s.timeout = args.timeout.map(Duration::from_secs_f64);
    let ans = distinguish(&ma, &mb, &s)?;
    if let Some(dir) = &args.o {
        write_tests(dir, &ans)?;
    }
    print(&ans, (&ma.name(), &mb.name()), &s);
    Ok(if ans.found.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn write_tests(dir: &PathBuf, ans: &Answer) -> Result<(), Diag> {
    let err = |e: std::io::Error| Diag::file(&dir.to_string_lossy(), format!("cannot write: {e}"));
    std::fs::create_dir_all(dir).map_err(err)?;
    for f in &ans.found {
        std::fs::write(dir.join(format!("{}.litmus", f.name)), &f.text).map_err(err)?;
    }
    Ok(())
}

fn print(ans: &Answer, (a, b): (&str, &str), s: &Search) {
    for f in &ans.found {
        println!(
            "{} ({} events, {} threads): {} under {a}, Never under {b}",
            f.name,
            f.events,
            f.threads,
            f.under_a.word()
        );
        println!("forbidden by {b}'s {}", f.forbidden_by.join(", "));
        println!("{}", f.text);
    }
    let bounds = match (s.threads, s.locations) {
        (None, None) => String::new(),
        (t, l) => format!(
            " (at most {} threads, {} locations)",
            t.map_or("N".into(), |t| t.to_string()),
            l.map_or("N".into(), |l| l.to_string())
        ),
    };
    let proof = if ans.certified { ", certified" } else { "" };
    if ans.refused > 0 {
        println!("{} candidates refused by the ordinary check", ans.refused);
    }
    if ans.found.is_empty() {
        let n = ans.complete_up_to;
        if ans.timed_out {
            println!("time limit: no difference up to {n} events{bounds}");
        } else {
            println!("{a} ⊆ {b} for tests of up to {n} events{bounds}{proof}");
        }
    } else if ans.found.len() < s.all && !ans.timed_out {
        println!("{} tests; no more up to {} events{bounds}", ans.found.len(), ans.complete_up_to);
    }
}
