//! `litsat gen rcu`, the kernel's RCU ring, checked under the Linux-kernel model: every
//! order of 2 to 6 threads and a few of 10, each against the RCU guarantee (its
//! `Result:` line) and its States against their closed form (2^N, less the cycle where
//! the guarantee forbids it), one execution per state.

mod common;

use std::process::Command;

fn litsat() -> Command {
    Command::new(env!("CARGO_BIN_EXE_litsat"))
}

fn patterns(n: usize) -> impl Iterator<Item = String> {
    (0..1usize << n).map(move |bits| (0..n).map(|i| if bits >> i & 1 == 1 { 'G' } else { 'R' }).collect())
}

#[test]
fn the_rcu_ring_meets_the_guarantee_and_the_closed_form() {
    let Some(shared) = common::shared_or_skip("the RCU ring under the LKMM") else { return };
    let dir = std::env::temp_dir().join(format!("litsat-rcu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut wanted = Vec::new();
    let more = ["RRGGGGRRRR", "GGGGGRRRRR", "RGRGRGRGRG", "RRRRRRGGGG"].map(str::to_string);
    for p in (2..=6).flat_map(patterns).chain(more) {
        let out = litsat().args(["gen", "rcu", &p, "-o"]).arg(&dir).output().unwrap();
        assert!(out.status.success(), "{p}: {}", String::from_utf8_lossy(&out.stderr));
        wanted.push(p);
    }
    let out = litsat().args(["check", "-m", "lkmm", "-I"]).arg(shared.join("models/lkmm")).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let log = litsat_cli::expect::parse_herd_log(&String::from_utf8_lossy(&out.stdout));
    let mut checked = 0;
    for p in &wanted {
        let name =
            format!("C-{}", p.chars().map(|c| if c == 'G' { "RW-G" } else { "RW-R" }).collect::<Vec<_>>().join("+"));
        let e = log.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("{name} unanswered"));
        let g = p.chars().filter(|c| *c == 'G').count();
        let forbidden = 2 * g >= p.len();
        let states = (1usize << p.len()) - usize::from(forbidden);
        let obs = if forbidden { "Never" } else { "Sometimes" };
        assert_eq!(e.observation.as_deref(), Some(obs), "{name}");
        assert_eq!(e.states.as_ref().map(Vec::len), Some(states), "{name}");
        let (pos, neg) = e.witnesses.expect("counts");
        assert_eq!(pos + neg, states as u128, "{name}: one execution per state");
        checked += 1;
    }
    assert!(checked >= 128, "only {checked} tests checked");
    // The kernel's own 10-process test of the family is the member written for its order.
    let ours = std::fs::read_to_string(dir.join("C-RW-R+RW-R+RW-G+RW-G+RW-G+RW-G+RW-R+RW-R+RW-R+RW-R.litmus")).unwrap();
    assert!(ours.contains(" * Result: Sometimes"), "{ours}");
}
