//! The sweep: buffers placed in start order, each into the smallest free gap that
//! holds it at its start (lowest on ties), above everything live when none does, as
//! a best-fit allocator would at run time. Released buffers give their bytes back to
//! the free gaps, merged with their neighbours.
//!
//! Why it exists: a greedy pass looks at every placed buffer whose lifetime meets the
//! one it places, so a dense trace (1,000,000 buffers, 2,500 live at any step) costs
//! billions of steps. The sweep only touches the free gaps, kept in ordered maps, so
//! it is O(n log n) whatever the density. It is usually a few percent above the
//! greedy passes, which is why it only stands in for them when they are too costly
//! ([`super::place_default`]).

use super::bound::Item;
use crate::model::{Bytes, Clock};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

/// Free gaps below the top of the live buffers, by offset and by (length, offset).
#[derive(Default)]
struct Free {
    by_offset: BTreeMap<Bytes, Bytes>,
    by_length: BTreeSet<(Bytes, Bytes)>,
    /// The end of the highest live buffer: everything above is free.
    top: Bytes,
}

impl Free {
    fn add(&mut self, at: Bytes, len: Bytes) {
        self.by_offset.insert(at, len);
        self.by_length.insert((len, at));
    }

    fn remove(&mut self, at: Bytes, len: Bytes) {
        self.by_offset.remove(&at);
        self.by_length.remove(&(len, at));
    }

    /// The offset of `size` bytes: the smallest gap that holds them (lowest on
    /// ties), else the top.
    fn take(&mut self, size: Bytes) -> Bytes {
        match self.by_length.range((size, 0)..).next().copied() {
            Some((len, at)) => {
                self.remove(at, len);
                if len > size {
                    self.add(at + size, len - size);
                }
                at
            }
            None => {
                let at = self.top;
                self.top += size;
                at
            }
        }
    }

    /// Gives `[at, at + len)` back, merged with the gaps it touches; a gap that
    /// reaches the top lowers the top instead.
    fn give(&mut self, mut at: Bytes, mut len: Bytes) {
        if let Some((&a, &l)) = self.by_offset.range(..at).next_back() {
            if a + l == at {
                self.remove(a, l);
                at = a;
                len += l;
            }
        }
        if let Some(&l) = self.by_offset.get(&(at + len)) {
            self.remove(at + len, l);
            len += l;
        }
        if at + len == self.top {
            self.top = at;
        } else {
            self.add(at, len);
        }
    }
}

/// Offsets for `items`, visited by start, larger first on equal starts, then in
/// input order. Zero-size items stay at offset 0.
pub(crate) fn place(items: &[Item]) -> Vec<Bytes> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (items[i].lower, Reverse(items[i].size)));
    let mut offsets = vec![0; items.len()];
    let mut live: BinaryHeap<Reverse<(Clock, usize)>> = BinaryHeap::new();
    let mut free = Free::default();
    for i in order {
        let it = items[i];
        while let Some(&Reverse((upper, j))) = live.peek() {
            if upper > it.lower {
                break;
            }
            live.pop();
            free.give(offsets[j], items[j].size);
        }
        if it.size == 0 {
            continue;
        }
        offsets[i] = free.take(it.size);
        live.push(Reverse((it.upper, i)));
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(lower: Clock, upper: Clock, size: Bytes) -> Item {
        Item { lower, upper, size }
    }

    #[test]
    fn freed_bytes_are_reused_and_merged() {
        // a and b free at 2; c (size 6) fits in their merged 6 bytes at 0.
        let items = [
            item(0, 2, 2),
            item(0, 2, 4),
            item(0, 4, 1),
            item(2, 4, 6),
            item(3, 4, 0),
        ];
        let offsets = place(&items);
        assert_eq!(offsets, vec![4, 0, 6, 0, 0]);
    }

    #[test]
    fn the_smallest_gap_that_holds_a_buffer_takes_it() {
        // Placed at 0 by size: [0, 4), [4, 7), [7, 9), [9, 10). At 1 the first and
        // third leave gaps of 4 (at 0) and 2 (at 7); the 2-byte buffer fills the second.
        let items = [
            item(0, 1, 4),
            item(0, 5, 3),
            item(0, 1, 2),
            item(0, 5, 1),
            item(1, 5, 2),
        ];
        let offsets = place(&items);
        assert_eq!(offsets, vec![0, 4, 7, 9, 7]);
    }
}
