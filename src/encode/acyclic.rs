//! Acyclicity constraints.
//!
//! Only the strongly connected components of the may-graph (entries that are not constant
//! false) can carry a cycle, so everything else costs nothing.

use crate::logic::{B, Logic};
use crate::rel::Rel;
use std::collections::{BTreeMap, BTreeSet};

/// Strongly connected components with more than one node or a self-loop (Tarjan).
fn cyclic_components(r: &Rel) -> Vec<Vec<usize>> {
    let n = r.n;
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(i, j) in r.m.keys() {
        adj[i].push(j);
    }
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Iterative DFS: (node, next child position).
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k < adj[v].len() {
                let w = adj[v][*k];
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 || r.m.contains_key(&(v, v)) {
                        comp.sort();
                        out.push(comp);
                    }
                }
            }
        }
    }
    out
}

/// A literal that implies `r` is acyclic, by vertex elimination with one-way clauses:
/// eliminating k adds, for each i→k→j, an edge i→j; a self-loop at any point is a cycle.
/// When `r` is acyclic the auxiliary edges can take their least values, so the literal is
/// satisfiable exactly when a real execution is acyclic.
pub fn selector(lg: &mut Logic, r: &Rel) -> B {
    let comps = cyclic_components(r);
    if comps.is_empty() {
        return B::T;
    }
    let s = B::L(lg.fresh());
    for comp in comps {
        let members: BTreeSet<usize> = comp.iter().copied().collect();
        let mut edges: BTreeMap<(usize, usize), B> = BTreeMap::new();
        for (&(i, j), &b) in &r.m {
            if members.contains(&i) && members.contains(&j) {
                edges.insert((i, j), b);
            }
        }
        let mut alive = members.clone();
        while !alive.is_empty() {
            // Eliminate the vertex with the fewest in×out pairs.
            let k = *alive
                .iter()
                .min_by_key(|&&k| {
                    let ins = edges.keys().filter(|(a, b)| *b == k && *a != k).count();
                    let outs = edges.keys().filter(|(a, b)| *a == k && *b != k).count();
                    ins * outs
                })
                .unwrap_or(&0);
            if let Some(&b) = edges.get(&(k, k)) {
                lg.owned_clause(s.negate(), &[s.negate(), b.negate()]);
            }
            let ins: Vec<(usize, B)> =
                edges.iter().filter(|((a, b), _)| *b == k && *a != k).map(|(&(a, _), &x)| (a, x)).collect();
            let outs: Vec<(usize, B)> =
                edges.iter().filter(|((a, b), _)| *a == k && *b != k).map(|(&(_, b), &x)| (b, x)).collect();
            for &(i, a) in &ins {
                for &(j, b) in &outs {
                    if i == j {
                        lg.owned_clause(s.negate(), &[s.negate(), a.negate(), b.negate()]);
                        continue;
                    }
                    let old = edges.get(&(i, j)).copied().unwrap_or(B::F);
                    let e = match (a, b) {
                        (B::T, B::T) => B::T,
                        _ => {
                            if old == B::T {
                                B::T
                            } else {
                                let e = B::L(lg.fresh());
                                lg.owned_clause(e, &[a.negate(), b.negate(), e]);
                                lg.owned_clause(e, &[old.negate(), e]);
                                e
                            }
                        }
                    };
                    edges.insert((i, j), e);
                }
            }
            edges.retain(|&(a, b), _| a != k && b != k);
            alive.remove(&k);
        }
    }
    s
}

/// A literal that holds exactly when `r` is acyclic (for flags and negated checks).
pub fn exact(lg: &mut Logic, r: &Rel) -> B {
    if cyclic_components(r).is_empty() {
        return B::T;
    }
    let p = r.plus(lg);
    let d = p.diagonal();
    lg.or(&d).negate()
}
