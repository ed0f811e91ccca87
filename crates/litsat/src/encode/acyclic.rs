//! Acyclicity constraints.
//!
//! Only the strongly connected components of the may-graph (entries that are not constant
//! false) can carry a cycle, so everything else costs nothing.

use crate::logic::{B, Logic};
use crate::rel::Rel;

/// Strongly connected components with more than one node or a self-loop (Tarjan).
///
/// The per-node arrays share one allocation, and a component is gathered in a reused
/// buffer, copied out only when it is cyclic (most are single nodes without a loop).
fn cyclic_components(r: &Rel) -> Vec<Vec<usize>> {
    const NONE: u32 = u32::MAX;
    let n = r.n;
    // Successors in one flat array (the entries are sorted by source), by node: the
    // start of its run, its DFS index and low-link, and whether it has a self-loop.
    let mut node = vec![(0u32, NONE, 0u32, false); n + 1];
    let mut succ: Vec<u32> = Vec::with_capacity(r.len());
    for (i, j) in r.keys() {
        node[i + 1].0 += 1;
        node[i].3 |= i == j;
        succ.push(j as u32);
    }
    for i in 0..n {
        node[i + 1].0 += node[i].0;
    }
    let adj = |node: &[(u32, u32, u32, bool)], v: usize| node[v].0 as usize..node[v + 1].0 as usize;
    let mut on = vec![false; n];
    let mut stack: Vec<u32> = Vec::with_capacity(n);
    let mut comp: Vec<usize> = Vec::with_capacity(n);
    let mut next = 0u32;
    let mut out = Vec::new();
    // Iterative DFS: (node, next child position).
    let mut work: Vec<(usize, usize)> = Vec::with_capacity(n);
    for root in 0..n {
        if node[root].1 != NONE {
            continue;
        }
        work.push((root, adj(&node, root).start));
        node[root].1 = next;
        node[root].2 = next;
        next += 1;
        stack.push(root as u32);
        on[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k < adj(&node, v).end {
                let w = succ[*k] as usize;
                *k += 1;
                if node[w].1 == NONE {
                    node[w].1 = next;
                    node[w].2 = next;
                    next += 1;
                    stack.push(w as u32);
                    on[w] = true;
                    work.push((w, adj(&node, w).start));
                } else if on[w] {
                    node[v].2 = node[v].2.min(node[w].1);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    node[u].2 = node[u].2.min(node[v].2);
                }
                if node[v].2 == node[v].1 {
                    comp.clear();
                    while let Some(w) = stack.pop() {
                        on[w as usize] = false;
                        comp.push(w as usize);
                        if w as usize == v {
                            break;
                        }
                    }
                    if comp.len() > 1 || node[v].3 {
                        comp.sort();
                        out.push(comp.clone());
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
    // Over candidates (see `Logic::slice`) the exact literal costs no more.
    if lg.is_sliced() {
        return exact(lg, r);
    }
    let comps = cyclic_components(r);
    if comps.is_empty() {
        return B::T;
    }
    let s = B::L(lg.fresh());
    for comp in comps {
        let mut g = Graph::of(r, &comp);
        let mut alive: Vec<usize> = (0..comp.len()).collect();
        while !alive.is_empty() {
            // Eliminate the vertex with the fewest in×out pairs.
            let at = (0..alive.len()).min_by_key(|&a| g.pairs(alive[a])).unwrap_or(0);
            let k = alive.remove(at);
            if let Some(b) = g.out[k].remove(k) {
                lg.owned_clause(s.negate(), &[s.negate(), b.negate()]);
                g.ins[k].remove(k);
            }
            let ins = std::mem::take(&mut g.ins[k]).0;
            let outs = std::mem::take(&mut g.out[k]).0;
            for &(i, _) in &ins {
                g.out[i].remove(k);
            }
            for &(j, _) in &outs {
                g.ins[j].remove(k);
            }
            for &(i, a) in &ins {
                for &(j, b) in &outs {
                    if i == j {
                        lg.owned_clause(s.negate(), &[s.negate(), a.negate(), b.negate()]);
                        continue;
                    }
                    let old = g.out[i].get(j).unwrap_or(B::F);
                    let e = match (a, b, old) {
                        (B::T, B::T, _) | (_, _, B::T) => B::T,
                        _ => {
                            let e = B::L(lg.fresh());
                            lg.owned_clause(e, &[a.negate(), b.negate(), e]);
                            lg.owned_clause(e, &[old.negate(), e]);
                            e
                        }
                    };
                    g.out[i].insert(j, e);
                    g.ins[j].insert(i, e);
                }
            }
        }
    }
    s
}

/// One component's edges, by local index, both ways.
struct Graph {
    out: Vec<Edges>,
    ins: Vec<Edges>,
}

impl Graph {
    fn of(r: &Rel, comp: &[usize]) -> Graph {
        let n = comp.len();
        let mut g = Graph { out: vec![Edges::default(); n], ins: vec![Edges::default(); n] };
        // Each event's local index, where it is in the component.
        let mut local = vec![usize::MAX; r.n];
        for (k, &v) in comp.iter().enumerate() {
            local[v] = k;
        }
        for ((i, j), b) in r.iter() {
            let (a, c) = (local[i], local[j]);
            if a != usize::MAX && c != usize::MAX {
                g.out[a].insert(c, b);
                g.ins[c].insert(a, b);
            }
        }
        g
    }

    /// The paths through `k` that eliminating it adds (self-loops aside).
    fn pairs(&self, k: usize) -> usize {
        let self_loop = usize::from(self.out[k].get(k).is_some());
        (self.ins[k].0.len() - self_loop) * (self.out[k].0.len() - self_loop)
    }
}

/// A node's edges one way: its neighbours in increasing order, each with its literal. A
/// vector, where a B-tree map per node cost an allocation per node and per change; a
/// component's nodes have few neighbours.
#[derive(Clone, Default)]
struct Edges(Vec<(usize, B)>);

impl Edges {
    fn find(&self, k: usize) -> Result<usize, usize> {
        self.0.binary_search_by_key(&k, |e| e.0)
    }

    fn get(&self, k: usize) -> Option<B> {
        self.find(k).ok().map(|x| self.0[x].1)
    }

    /// Sets the edge to `k`, replacing the one there was.
    fn insert(&mut self, k: usize, b: B) {
        match self.find(k) {
            Ok(x) => self.0[x].1 = b,
            Err(x) => self.0.insert(x, (k, b)),
        }
    }

    fn remove(&mut self, k: usize) -> Option<B> {
        self.find(k).ok().map(|x| self.0.remove(x).1)
    }
}

/// A literal that holds exactly when `r` is acyclic (for flags and negated checks).
pub fn exact(lg: &mut Logic, r: &Rel) -> B {
    if lg.is_sliced() {
        let (nodes, d) = r.dense();
        return lg.sliced_acyclic(nodes.len(), &d);
    }
    if cyclic_components(r).is_empty() {
        return B::T;
    }
    let p = r.plus(lg);
    let d = p.diagonal();
    lg.or(&d).negate()
}
