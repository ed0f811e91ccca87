//! A shape written for a register machine (RISC-V, Power): each location's address in a
//! register set in the init block, each value written put in a register first, and the
//! shape's dependencies made by herd's idioms: an address or a value plus the `xor` of a
//! read's register with itself (addr, data), a branch on the read to the next label
//! (ctrl: every later instruction of the thread depends on it).

use super::emit::{LOCS, Thread};
use super::shape::Shape;
use super::vocab::{Half, Vocab};

/// A register machine's syntax: `{d}` a destination, `{s}`, `{a}`, `{b}`, `{z}` sources,
/// `{n}` a number, `{l}` a label, `{r}` a read's register.
#[derive(Debug)]
pub struct Asm {
    /// The registers a thread may use, in order.
    pub regs: &'static [&'static str],
    /// An observer's read of the location whose address is in `{a}` into `{r}`.
    pub observe: &'static str,
    /// `{d}` = `{s}` xor `{s}`: zero, depending on `{s}`.
    pub zero_of: &'static str,
    /// `{d}` = `{a}` + `{b}`.
    pub add: &'static str,
    /// `{d}` = `{n}`.
    pub value: &'static str,
    /// `{d}` = `{z}` + `{n}`, `{z}` being zero.
    pub value_plus: &'static str,
    /// A branch on `{r}` to `{l}`, the label that follows it.
    pub branch: &'static [&'static str],
    /// Instructions with an indexed form, which herd's tests use for an address
    /// dependency (`{z}` the zero added to `{a}`): (template, indexed template).
    pub indexed: &'static [(&'static str, &'static str)],
}

/// One thread's registers as they are handed out.
struct Regs<'a> {
    free: std::slice::Iter<'a, &'static str>,
    /// Per location, its address's register.
    locs: Vec<Option<&'static str>>,
    /// Per slot, the register a read of this thread read into.
    read: Vec<Option<&'static str>>,
}

impl Regs<'_> {
    fn fresh(&mut self) -> Result<&'static str, String> {
        self.free.next().copied().ok_or_else(|| "too many registers".to_string())
    }

    /// The register holding location `l`'s address, set up in `th`'s init.
    fn loc(&mut self, l: usize, th: &mut Thread) -> Result<&'static str, String> {
        if let Some(r) = self.locs[l] {
            return Ok(r);
        }
        let r = self.fresh()?;
        th.init.push((r.to_string(), LOCS[l].to_string()));
        self.locs[l] = Some(r);
        Ok(r)
    }

    /// A register holding zero that depends on the reads of `srcs` (none: `None`).
    fn zero(&mut self, asm: &Asm, srcs: &[usize], th: &mut Thread) -> Result<Option<&'static str>, String> {
        let mut acc: Option<&'static str> = None;
        for &s in srcs {
            let from = self.read[s].ok_or("a dependency from no read")?;
            let d = self.fresh()?;
            th.code.push(asm.zero_of.replace("{d}", d).replace("{s}", from));
            if let Some(a) = acc {
                th.code.push(asm.add.replace("{d}", d).replace("{a}", a).replace("{b}", d));
            }
            acc = Some(d);
        }
        Ok(acc)
    }
}

/// The threads of `shape` as instructions; `value[slot]` is what a write writes and
/// `read_value(slot)` what a read reads.
pub fn threads(
    shape: &Shape,
    vocab: &Vocab,
    asm: &Asm,
    value: &[i64],
    read_value: &dyn Fn(usize) -> i64,
) -> Result<Vec<Thread>, String> {
    let into = |deps: &[(usize, usize)], slot: usize| -> Vec<usize> {
        let mut v: Vec<usize> = deps.iter().filter(|d| d.1 == slot).map(|d| d.0).collect();
        v.sort_unstable();
        v
    };
    let mut labels = 0;
    let mut out = Vec::new();
    for t in &shape.threads {
        let mut th = Thread::default();
        let mut regs = Regs { free: asm.regs.iter(), locs: vec![None; shape.locs], read: vec![None; value.len()] };
        for e in t {
            let k = &vocab.kinds[e.kind];
            if k.half == Half::Write {
                continue;
            }
            for src in shape.ctrl_starts(e.slot) {
                let (r, l) = (regs.read[src].ok_or("a dependency from no read")?, format!("LC{labels:02}"));
                labels += 1;
                th.code.extend(asm.branch.iter().map(|b| b.replace("{r}", r).replace("{l}", &l)));
                th.code.push(format!("{l}:"));
            }
            let mut line = k.instr.to_string();
            if let Some(l) = e.loc {
                let base = regs.loc(l, &mut th)?;
                let a = match regs.zero(asm, &into(&shape.addr, e.slot), &mut th)? {
                    None => base,
                    Some(z) => match asm.indexed.iter().find(|i| i.0 == line) {
                        Some(i) => {
                            line = i.1.replace("{z}", z);
                            base
                        }
                        None => {
                            let d = regs.fresh()?;
                            th.code.push(asm.add.replace("{d}", d).replace("{a}", z).replace("{b}", base));
                            d
                        }
                    },
                };
                line = line.replace("{a}", a);
            }
            if line.contains("{v}") {
                // An AMO's value goes to its write, in the next slot.
                let w = if k.half == Half::Read { e.slot + 1 } else { e.slot };
                let d = regs.fresh()?;
                let n = value[w].to_string();
                match regs.zero(asm, &into(&shape.data, w), &mut th)? {
                    None => th.code.push(asm.value.replace("{d}", d).replace("{n}", &n)),
                    Some(z) => th.code.push(asm.value_plus.replace("{d}", d).replace("{z}", z).replace("{n}", &n)),
                }
                line = line.replace("{v}", d);
            }
            if line.contains("{r}") {
                let r = regs.fresh()?;
                regs.read[e.slot] = Some(r);
                line = line.replace("{r}", r);
                th.cond.push((r.to_string(), read_value(e.slot)));
            }
            if line.contains("{s}") {
                let s = regs.fresh()?;
                line = line.replace("{s}", s);
                th.cond.push((s.to_string(), 0));
            }
            th.code.push(line);
        }
        out.push(th);
    }
    Ok(out)
}
