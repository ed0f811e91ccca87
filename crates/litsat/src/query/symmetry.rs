//! Symmetries of a C test: permutations of its threads, with a renaming of the locations
//! their parameters name, that map the test onto itself (issue #41).
//!
//! herd's semantics never names a thread: a model sees events, program order, locations
//! and values. So where thread `i`'s code is thread `π(i)`'s with the parameters renamed
//! by `σ`, and the initial state is the same under `σ`, each execution maps to one of the
//! renamed test, and the executions of a final state `s` are as many as those of its
//! image `π(s)`. Counting ([`super::tally`]) then counts one state per orbit and gives
//! its images the same count. The five rotations of a ring of lock/unlock threads cut the
//! counts fivefold; two identical threads halve them.
//!
//! Only what can be checked on the text is taken: one cell per thread (a C function),
//! bodies equal token for token once each parameter is named by its position, a body that
//! names no location but its own parameters, no arrays, no filter, an initial state and
//! shown locations that the renaming maps onto themselves. Anything else finds no
//! symmetry, and every state is counted.

use super::View;
use crate::events::Value;
use crate::litmus::{Loc, Test, Val};
use std::collections::{HashMap, HashSet};

/// At most this many permutations are kept (their compositions are applied as well).
const KEEP: usize = 32;

/// How many partial permutations the search may try before it gives up.
const STEPS: usize = 100_000;

/// A thread's parameters, in order (their names), and its body with each parameter
/// replaced by its position.
struct Shape {
    params: Vec<String>,
    canon: String,
}

/// A permutation of the places in `View::places`: for each place, the index of its image
/// and, for each of its values (by index), the index of the image value there.
pub(super) struct PlaceMap {
    place: Vec<usize>,
    value: Vec<Vec<usize>>,
}

impl PlaceMap {
    /// The image of a state given as one value index per place (`None` where no value
    /// holds).
    pub(super) fn apply(&self, state: &[Option<usize>]) -> Vec<Option<usize>> {
        let mut out = vec![None; state.len()];
        for (p, v) in state.iter().enumerate() {
            out[self.place[p]] = v.map(|v| self.value[p][v]);
        }
        out
    }
}

/// The test's symmetries other than the identity, as maps of the view's places; empty
/// where none is found.
pub(super) fn place_maps(test: &Test, view: &View) -> Vec<PlaceMap> {
    let maps = symmetries(test).into_iter().map(|(thread, sigma)| {
        let rename = move |s: &str| sigma.get(s).cloned().unwrap_or_else(|| s.to_string());
        map_places(view, &thread, &rename)
    });
    maps.flatten().collect()
}

/// A thread permutation (by thread number) and the renaming of locations that goes with it.
type Symmetry = (HashMap<usize, usize>, HashMap<String, String>);

/// The test's symmetries other than the identity (at most [`KEEP`]).
fn symmetries(test: &Test) -> Vec<Symmetry> {
    let Some(shapes) = shapes(test) else { return Vec::new() };
    let ids: Vec<usize> = test.threads.iter().map(|t| t.id).collect();
    let mut found = Vec::new();
    search(&shapes, &mut Vec::new(), &mut HashMap::new(), &mut found, &mut 0);
    found
        .into_iter()
        .map(|(perm, sigma)| (perm.iter().enumerate().map(|(i, &j)| (ids[i], ids[j])).collect(), sigma))
        .filter(|(thread, sigma)| init_is_mapped(test, thread, &|s| sigma.get(s).cloned().unwrap_or_else(|| s.to_string())))
        .collect()
}

/// Each thread's shape, or `None` where the test is outside what is checked.
fn shapes(test: &Test) -> Option<Vec<Shape>> {
    if test.arch != "C" || test.filter.is_some() || !test.arrays.is_empty() || test.threads.len() < 2 {
        return None;
    }
    let mut shapes = Vec::new();
    for t in &test.threads {
        let [cell] = &t.cells[..] else { return None };
        shapes.push(shape(&cell.text)?);
    }
    // Every location a body could name without a parameter: refused.
    let mut locations: HashSet<&str> = shapes.iter().flat_map(|s| s.params.iter().map(String::as_str)).collect();
    locations.extend(test.init.iter().filter_map(|i| match &i.loc {
        Loc::Mem(m) => Some(m.as_str()),
        Loc::Reg(..) => None,
    }));
    let names_other = |s: &Shape| words(&s.canon).any(|w| locations.contains(w));
    (!shapes.iter().any(names_other)).then_some(shapes)
}

/// A thread function `Pn(int *a, int *b) { … }`: its parameter names and its body with
/// each parameter written as its position (`\u{1}0`, …), blanks collapsed.
fn shape(text: &str) -> Option<Shape> {
    let open = text.find('(')?;
    let close = open + text[open..].find(')')?;
    if !text[close + 1..].trim_start().starts_with('{') {
        return None;
    }
    let mut types = Vec::new();
    let mut params = Vec::new();
    for p in text[open + 1..close].split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let name = words(p).last()?.to_string();
        if !p.ends_with(&name) {
            return None;
        }
        types.push(p[..p.len() - name.len()].split_whitespace().collect::<Vec<_>>().join(" "));
        params.push(name);
    }
    let mut canon = types.join(",");
    canon.push('|');
    let body = &text[close + 1..];
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_alphabetic() || c == '_' {
            let n = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            let word = &rest[..n];
            match params.iter().position(|p| p == word) {
                Some(k) => canon.push_str(&format!("\u{1}{k}")),
                None => canon.push_str(word),
            }
            rest = &rest[n..];
        } else if c.is_whitespace() {
            if !canon.ends_with(' ') {
                canon.push(' ');
            }
            rest = rest.trim_start();
        } else {
            canon.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    Some(Shape { params, canon })
}

/// The identifiers of a text.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\u{1}'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

/// Extends the partial permutation `perm` (thread index to thread index) and renaming
/// `sigma` consistently, keeping each complete non-identity one in `found`.
fn search(
    shapes: &[Shape],
    perm: &mut Vec<usize>,
    sigma: &mut HashMap<String, String>,
    found: &mut Vec<(Vec<usize>, HashMap<String, String>)>,
    steps: &mut usize,
) {
    if found.len() >= KEEP || *steps >= STEPS {
        return;
    }
    *steps += 1;
    let i = perm.len();
    if i == shapes.len() {
        if perm.iter().enumerate().any(|(a, &b)| a != b) {
            found.push((perm.clone(), sigma.clone()));
        }
        return;
    }
    for j in 0..shapes.len() {
        if perm.contains(&j) || shapes[j].canon != shapes[i].canon {
            continue;
        }
        let mut added = Vec::new();
        let consistent = shapes[i].params.iter().zip(&shapes[j].params).all(|(a, b)| match sigma.get(a) {
            Some(x) => x == b,
            None if sigma.values().any(|x| x == b) => false,
            None => {
                sigma.insert(a.clone(), b.clone());
                added.push(a.clone());
                true
            }
        });
        if consistent {
            perm.push(j);
            search(shapes, perm, sigma, found, steps);
            perm.pop();
        }
        for a in added {
            sigma.remove(&a);
        }
    }
}

/// Whether the initial state and the shown locations are the same under the symmetry.
fn init_is_mapped(test: &Test, thread: &HashMap<usize, usize>, rename: &dyn Fn(&str) -> String) -> bool {
    let loc = |l: &Loc| match l {
        Loc::Reg(t, r) => thread.get(t).map(|&u| Loc::Reg(u, r.clone())),
        Loc::Mem(m) => Some(Loc::Mem(rename(m))),
    };
    let val = |v: &Val| match v {
        Val::Int(i) => Val::Int(*i),
        Val::Sym(s) => Val::Sym(rename(s)),
    };
    let init_ok = test.init.iter().all(|i| {
        let Some(image) = loc(&i.loc) else { return false };
        test.init.iter().any(|j| j.loc == image && j.value == val(&i.value) && j.ty == i.ty)
    });
    init_ok && test.locations.iter().all(|l| loc(l).is_some_and(|m| test.locations.contains(&m)))
}

/// The symmetry as a map of the view's places and their values; `None` where some place
/// or value has no image there (or a value is not a plain number or address).
fn map_places(view: &View, thread: &HashMap<usize, usize>, rename: &dyn Fn(&str) -> String) -> Option<PlaceMap> {
    let places = view.places;
    let distinct: HashSet<&Loc> = places.iter().map(|p| &p.0).collect();
    if distinct.len() != places.len() {
        return None;
    }
    let mut map = PlaceMap { place: Vec::new(), value: Vec::new() };
    for (l, values) in places {
        let image = match l {
            Loc::Reg(t, r) if r != crate::litmus::FAULT_REG => Loc::Reg(*thread.get(t)?, r.clone()),
            Loc::Reg(..) => return None,
            Loc::Mem(m) => Loc::Mem(rename(m)),
        };
        let q = places.iter().position(|p| p.0 == image)?;
        let value = values
            .iter()
            .map(|(v, _)| {
                let w = match *v {
                    Value::Int(i) => Value::Int(i),
                    Value::Addr(a) => {
                        let name = rename(&view.ev.locs[a]);
                        Value::Addr(view.ev.locs.iter().position(|l| *l == name)?)
                    }
                    Value::Sym | Value::Off(..) | Value::Pte(_) | Value::Tlb(_) => return None,
                };
                places[q].1.iter().position(|(x, _)| *x == w)
            })
            .collect::<Option<Vec<usize>>>()?;
        map.place.push(q);
        map.value.push(value);
    }
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(threads: &[&str], init: &str) -> Test {
        let text = format!("C t\n{{\n{init}\n}}\n\n{}\nexists (0:r0=0)\n", threads.join("\n\n"));
        crate::litmus::parse_test("t.litmus", &text).expect("the test parses")
    }

    /// Each symmetry's thread permutation as the images of threads 0, 1, ….
    fn perms(t: &Test) -> Vec<Vec<usize>> {
        let mut v: Vec<Vec<usize>> =
            symmetries(t).iter().map(|(p, _)| (0..p.len()).map(|i| p[&i]).collect()).collect();
        v.sort();
        v
    }

    fn ring(i: usize, n: usize, body: &str) -> String {
        format!("P{i}(int *x{i}, int *x{}) {{ int r0; {body} }}", (i + 1) % n)
    }

    #[test]
    fn a_ring_has_its_rotations() {
        let threads: Vec<String> = (0..3)
            .map(|i| ring(i, 3, &format!("WRITE_ONCE(*x{i}, 1); r0 = READ_ONCE(*x{});", (i + 1) % 3)))
            .collect();
        let t = test(&threads.iter().map(String::as_str).collect::<Vec<_>>(), "");
        assert_eq!(perms(&t), vec![vec![1, 2, 0], vec![2, 0, 1]]);
    }

    #[test]
    fn a_difference_anywhere_breaks_the_symmetry() {
        let same = |i: usize| format!("P{i}(int *x, int *y) {{ int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1); }}");
        let t = test(&[&same(0), &same(1)], "");
        assert_eq!(perms(&t), vec![vec![1, 0]]);
        // Another constant, another order of parameters with the same body text, an
        // initial state that tells threads apart, a location named outside the parameters.
        let other = "P1(int *x, int *y) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*y, 2); }";
        assert!(perms(&test(&[&same(0), other], "")).is_empty());
        // The same body over the parameters in the other order: found, with x and y
        // exchanged. P0 itself with its parameters listed the other way is not found (its
        // text differs by position): a symmetry missed costs only time.
        let mirror = "P1(int *y, int *x) { int r0; r0 = READ_ONCE(*y); WRITE_ONCE(*x, 1); }";
        assert_eq!(perms(&test(&[&same(0), mirror], "")), vec![vec![1, 0]]);
        let swapped = "P1(int *y, int *x) { int r0; r0 = READ_ONCE(*x); WRITE_ONCE(*y, 1); }";
        assert!(perms(&test(&[&same(0), swapped], "")).is_empty());
        assert!(perms(&test(&[&same(0), &same(1)], "0:r0=1;")).is_empty());
        let global = |i: usize| format!("P{i}(int *x, int *y) {{ int r0; r0 = READ_ONCE(*z); WRITE_ONCE(*y, 1); }}");
        assert!(perms(&test(&[&global(0), &global(1)], "z=0;")).is_empty());
    }
}
