//! Anchoring at the fullest clock: solve a narrow time window around the clock that
//! sets the lower bound exactly, then place everything else around it.
//!
//! A greedy pass fills every clock at once, so the clock where the lower bound is
//! reached (where no placement at the bound may leave a hole) gets holes from
//! buffers placed for other clocks' sake. On PanGu-2.6B every greedy order leaves one
//! 40 MiB hole there (+0.758 %), and neither iterated greedy nor the local search at
//! the peak, whose moves each meet thousands of long-lived buffers, finds a way out.
//! Here the buffers live in a window of clocks around the fullest one, cut to the
//! window, are a small problem (a few hundred buffers, every long-lived one reduced
//! to a block across the window) that the exact search ([`super::search`]) solves at
//! the bound in milliseconds; its offsets are kept for those buffers over their whole
//! lifetimes, and the rest are placed around them in breadth order
//! ([`super::Order::Breadth`]: the next fullest clocks first). PanGu-2.6B then
//! reaches its lower bound.
//!
//! Two buffers that both meet the window and overlap in time overlap inside it (an
//! intersection of intervals that each meet the window, outside it on one side,
//! would make both cover the window's edge), so the window's solution never puts two
//! overlapping buffers on the same bytes.

use super::bound::{self, Item};
use crate::model::{Bytes, Clock};

/// The earliest clock with the most bytes live (where the lower bound is reached).
pub(crate) fn fullest_clock(items: &[Item]) -> Option<Clock> {
    let mut starts: Vec<Clock> = items.iter().map(|it| it.lower).collect();
    starts.sort_unstable();
    starts.dedup();
    let live = bound::live_at(items, &starts);
    let k = (0..live.len()).rev().max_by_key(|&k| live[k])?;
    Some(starts[k])
}

/// The buffers live in `[from, to)`, cut to it.
pub(crate) struct Window {
    /// Their indices in the whole list...
    pub ids: Vec<usize>,
    /// ... and their lifetimes cut to the window.
    pub items: Vec<Item>,
}

impl Window {
    pub(crate) fn new(items: &[Item], from: Clock, to: Clock) -> Window {
        let ids: Vec<usize> = (0..items.len())
            .filter(|&i| items[i].lower < to && from < items[i].upper)
            .collect();
        let cut = ids
            .iter()
            .map(|&i| Item {
                lower: items[i].lower.max(from),
                upper: items[i].upper.min(to),
                size: items[i].size,
            })
            .collect();
        Window { ids, items: cut }
    }

    /// The whole list's offsets fixed by the window's `offsets`.
    pub(crate) fn fixed(&self, len: usize, offsets: &[Bytes]) -> Vec<Option<Bytes>> {
        let mut fixed = vec![None; len];
        for (k, &i) in self.ids.iter().enumerate() {
            fixed[i] = Some(offsets[k]);
        }
        fixed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::bound::overlap_free;
    use crate::strategies::greedy::{place_around, Fit, Order};

    fn item(lower: Clock, upper: Clock, size: Bytes) -> Item {
        Item { lower, upper, size }
    }

    /// The fullest clock is the earliest of the clocks with the most bytes live.
    #[test]
    fn fullest_clock_is_the_first_at_the_bound() {
        let items = [item(0, 4, 2), item(1, 2, 5), item(3, 5, 5), item(6, 7, 1)];
        assert_eq!(fullest_clock(&items), Some(1));
        assert_eq!(fullest_clock(&[]), None);
    }

    /// Any placement of the window, kept for the buffers' whole lifetimes, leaves
    /// the others room to be placed without an overlap.
    #[test]
    fn a_window_placement_extends_to_a_valid_one() {
        let items = [
            item(0, 10, 4),
            item(2, 4, 3),
            item(3, 8, 2),
            item(5, 6, 6),
            item(7, 9, 1),
            item(0, 2, 8),
        ];
        let window = Window::new(&items, 3, 6);
        assert_eq!(window.ids, vec![0, 1, 2, 3]);
        assert!(window.items.iter().all(|it| it.lower >= 3 && it.upper <= 6));
        // Stacked in window order: valid inside the window.
        let mut at = 0;
        let offsets: Vec<Bytes> = window
            .items
            .iter()
            .map(|it| {
                at += it.size;
                at - it.size
            })
            .collect();
        let fixed = window.fixed(items.len(), &offsets);
        let order = Order::Breadth.sort(&items);
        let all = place_around(&items, (&fixed, Bytes::MAX), &order, Fit::First, || false).unwrap();
        assert!(overlap_free(&items, &all));
        for (k, &i) in window.ids.iter().enumerate() {
            assert_eq!(all[i], offsets[k]);
        }
    }
}
