//! Small dense boolean matrices.

/// A k×k boolean matrix, each row a run of 64-bit words: a closure's reachability is a
/// few word operations per pair of nodes, where a search per node cost a vector each.
#[derive(Clone)]
pub struct Bits {
    words: usize,
    m: Vec<u64>,
}

impl Bits {
    pub fn new(k: usize) -> Bits {
        let words = k.div_ceil(64);
        Bits { words, m: vec![0; k * words] }
    }

    pub fn set(&mut self, i: usize, j: usize) {
        self.m[i * self.words + j / 64] |= 1 << (j % 64);
    }

    pub fn has(&self, i: usize, j: usize) -> bool {
        self.m[i * self.words + j / 64] >> (j % 64) & 1 == 1
    }

    /// The transitive closure (Warshall's): `(i, j)` where a path of one or more pairs
    /// joins i to j.
    pub fn close(&mut self, k: usize) {
        let w = self.words;
        for p in 0..k {
            let (at, bit) = (p / 64, 1u64 << (p % 64));
            if w == 1 {
                // The common case, a word per row: two operations per row.
                let via = self.m[p];
                for row in &mut self.m {
                    if *row & bit != 0 {
                        *row |= via;
                    }
                }
                continue;
            }
            for i in 0..k {
                if self.m[i * w + at] & bit != 0 {
                    for x in 0..w {
                        self.m[i * w + x] |= self.m[p * w + x];
                    }
                }
            }
        }
    }

    /// The columns of row `i` that are set, in increasing order.
    pub fn ones(&self, i: usize) -> Ones<'_> {
        let row = &self.m[i * self.words..(i + 1) * self.words];
        Ones { row, at: 0, left: row.first().copied().unwrap_or(0) }
    }
}

/// The set columns of a row of [`Bits`].
pub struct Ones<'a> {
    row: &'a [u64],
    /// The word being read, and its bits not yet given.
    at: usize,
    left: u64,
}

impl Iterator for Ones<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        while self.left == 0 {
            self.at += 1;
            self.left = *self.row.get(self.at)?;
        }
        let j = self.at * 64 + self.left.trailing_zeros() as usize;
        self.left &= self.left - 1;
        Some(j)
    }
}
