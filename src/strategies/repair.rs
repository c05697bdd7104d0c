//! Repair under a capacity: the improvement phase of `best` for sets too large for the
//! exact search (IOPDDL S_1 and Y_1, dense traces).
//!
//! The local search ([`super::local`]) keeps a valid placement and accepts a move only
//! when the peak does not rise, so a buffer that needs room taken from long-lived ones
//! never gets it. Here the placement is allowed to be incomplete instead, as in
//! TelaMalloc's search and idealloc's re-placement of what does not fit: a capacity
//! below the peak is set, every buffer whose top passes it is taken out, and the
//! taken-out buffers go back one at a time, largest first, each into a gap under the
//! capacity when one holds it, else at the spot where the buffers it overlaps cost
//! least to move (their area, times a random factor, and much more for a buffer placed
//! in the last few steps, so the repair does not cycle); those are taken out in turn.
//! When nothing is left out, the placement is valid and under the capacity: it is kept
//! and a lower capacity tried. When a repair runs out of steps the placement it
//! started from is kept and the next capacity is closer to the peak.
//!
//! A step costs about the number of buffers live with the one placed, so it scales to
//! 10^5 buffers. Deterministic for a given seed and `go`.

use super::bound::Item;
use super::greedy::{choose_gap, Fit, TimeIndex};
use super::rng::splitmix64;
use crate::model::Bytes;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A buffer placed within this many steps is not taken out again unless every spot
/// would take one out.
const TABU: u64 = 64;

/// A repair is given up after this many steps per buffer it started with (and at
/// least [`MIN_STEPS`]).
const STEPS_PER_BUFFER: u64 = 50;
const MIN_STEPS: u64 = 2_000;

/// A buffer is not taken out to make room for one of less than 1/BLOCK of its area
/// (a long-lived buffer of gigabytes for a short one of kilobytes): without this,
/// the repairs of IOPDDL Y_1 cascade into thousands of buffers out.
const BLOCK: f64 = 1e5;

/// A repair is given up after this many steps whatever it started with.
const MAX_STEPS: u64 = 20_000;

/// A repair starts with at most this many buffers out (ties at the capacity aside).
const MAX_START: usize = 64;

/// A repair is given up when more than this many buffers are out at once.
const MAX_OUT: usize = 20_000;

/// The state of one repair: every buffer has an offset; `out` ones are not placed.
struct State<'a> {
    items: &'a [Item],
    offsets: Vec<Bytes>,
    out: Vec<bool>,
    /// The step at which each buffer was last placed.
    placed_at: Vec<u64>,
    index: TimeIndex,
    /// Area of each buffer (size × lifetime), the cost of taking it out.
    area: Vec<f64>,
}

impl State<'_> {
    /// Puts `i` back under `cap`: into a gap when one holds it, else where the buffers
    /// it meets cost least to take out (they are returned in `evicted`). Returns the
    /// buffers looked at.
    fn place(
        &mut self,
        i: usize,
        cap: Bytes,
        step: u64,
        next: &mut impl FnMut() -> u64,
        scratch: &mut Scratch,
    ) -> u64 {
        let (items, offsets, out) = (self.items, &self.offsets, &self.out);
        let size = items[i].size;
        scratch.busy.clear();
        scratch.near.clear();
        self.index.for_each_overlap(items, i, |j| {
            if !out[j] && j != i {
                scratch.busy.push((offsets[j], offsets[j] + items[j].size));
                scratch.near.push(j);
            }
        });
        let work = scratch.near.len() as u64 + 1;
        let fit = if next() % 4 == 0 {
            Fit::First
        } else {
            Fit::Best
        };
        let mut busy = scratch.busy.clone();
        let at = choose_gap(&mut busy, size, fit);
        if at + size <= cap {
            self.offsets[i] = at;
            self.out[i] = false;
            self.placed_at[i] = step;
            return work;
        }
        // The cheapest spot: candidates are 0, every neighbour's top and the capacity
        // less the size; the cost of [x, x + size) is the cost of every neighbour
        // whose range meets it.
        let noise = |r: u64| 1.0 + (r % 1024) as f64 / 1024.0;
        let own = self.area[i];
        scratch.costed.clear();
        for (&j, &(lo, hi)) in scratch.near.iter().zip(&scratch.busy) {
            let tabu = step.saturating_sub(self.placed_at[j]) < TABU;
            let c = if self.area[j] >= own * BLOCK {
                f64::INFINITY
            } else {
                self.area[j] * noise(next()) * if tabu { 1e6 } else { 1.0 }
            };
            scratch.costed.push((lo, hi, c));
        }
        let Some(x) = cheapest(&mut scratch.costed, size, cap, &mut scratch.ends) else {
            scratch.blocked = true;
            return work;
        };
        self.offsets[i] = x;
        self.out[i] = false;
        self.placed_at[i] = step;
        for (&j, &(lo, hi)) in scratch.near.iter().zip(&scratch.busy) {
            if lo < x + size && x < hi {
                self.out[j] = true;
                scratch.evicted.push(j);
            }
        }
        work * 2
    }
}

/// Buffers reused between steps.
#[derive(Default)]
struct Scratch {
    busy: Vec<(Bytes, Bytes)>,
    near: Vec<usize>,
    costed: Vec<(Bytes, Bytes, f64)>,
    ends: Vec<(Bytes, f64)>,
    evicted: Vec<usize>,
    /// The last buffer could not be placed without taking out a larger one.
    blocked: bool,
}

/// The offset `x` in `[0, cap - size]` among 0, the ranges' ends and `cap - size`
/// where the ranges meeting `[x, x + size)` cost least (lowest `x` on ties). A range
/// meets it when `start < x + size` and `end > x`; as `start < end`, every range
/// ending at or below `x` also starts below `x + size`, so the cost is the sum over
/// ranges starting below `x + size` less the sum over those ending at or below `x`.
fn cheapest(
    ranges: &mut [(Bytes, Bytes, f64)],
    size: Bytes,
    cap: Bytes,
    ends: &mut Vec<(Bytes, f64)>,
) -> Option<Bytes> {
    let last = cap - size;
    ranges.sort_unstable_by_key(|r| r.0);
    ends.clear();
    ends.extend(ranges.iter().map(|r| (r.1, r.2)));
    ends.sort_unstable_by_key(|e| e.0);
    let mut xs: Vec<Bytes> = std::iter::once(0)
        .chain(ends.iter().map(|e| e.0).filter(|&e| e <= last))
        .chain(std::iter::once(last))
        .collect();
    xs.sort_unstable();
    xs.dedup();
    let (mut s, mut e) = (0, 0);
    let (mut started, mut ended) = (0.0, 0.0);
    let mut blocked: i64 = 0;
    let mut best = (f64::INFINITY, 0);
    for x in xs {
        while s < ranges.len() && ranges[s].0 < x + size {
            match ranges[s].2 {
                c if c.is_finite() => started += c,
                _ => blocked += 1,
            }
            s += 1;
        }
        while e < ends.len() && ends[e].0 <= x {
            match ends[e].1 {
                c if c.is_finite() => ended += c,
                _ => blocked -= 1,
            }
            e += 1;
        }
        // Infinite costs are counted apart: inf - inf is no number.
        let cost = if blocked > 0 {
            f64::INFINITY
        } else {
            started - ended
        };
        if cost < best.0 - 1e-9 || (best.0.is_infinite() && cost.is_finite()) {
            best = (cost, x);
        }
    }
    (best.0 < f64::INFINITY).then_some(best.1)
}

/// Improves `offsets` (a valid placement of `items`, peak `peak`) by repairs under
/// lower and lower capacities, until the peak reaches `target` or `go(work)` says
/// stop, where `work` counts the buffers looked at since the last call. Returns the
/// best placement and its peak: never above the one it started from.
pub(crate) fn improve(
    items: &[Item],
    offsets: Vec<Bytes>,
    target: Bytes,
    seed: u64,
    mut go: impl FnMut(u64) -> bool,
) -> (Vec<Bytes>, Bytes) {
    let top = |offsets: &[Bytes]| {
        (0..items.len())
            .map(|i| offsets[i] + items[i].size)
            .max()
            .unwrap_or(0)
    };
    let mut peak = top(&offsets);
    if items.is_empty() || peak <= target {
        return (offsets, peak);
    }
    let mut index = TimeIndex::new(items);
    for i in 0..items.len() {
        index.insert(items, i);
    }
    let mut s = State {
        items,
        area: items
            .iter()
            .map(|it| it.size as f64 * (it.upper - it.lower) as f64)
            .collect(),
        offsets,
        out: vec![false; items.len()],
        placed_at: vec![0; items.len()],
        index,
    };
    let mut next = splitmix64(seed);
    let mut best = s.offsets.clone();
    let mut scratch = Scratch::default();
    // The next capacity is the peak less `drop`: halved after a failed repair, grown
    // after a successful one.
    let mut drop = ((peak - target) / 256).max(1);
    let mut step: u64 = 0;
    let mut stop = false;
    while peak > target && !stop && go(0) {
        // A capacity that takes out more than MAX_START buffers is too ambitious: the
        // drop halves until it takes out fewer.
        let mut cap = peak - drop.min(peak - target);
        let mut tops: Vec<Bytes> = (0..items.len())
            .map(|i| s.offsets[i] + items[i].size)
            .filter(|&t| t > cap)
            .collect();
        if tops.len() > MAX_START {
            tops.select_nth_unstable_by(MAX_START, |a, b| b.cmp(a));
            // (All the buffers at the peak go out, however many.)
            cap = cap.max(tops[MAX_START]).min(peak - 1);
            drop = peak - cap;
        }
        let mut heap: BinaryHeap<(Bytes, Reverse<u64>, usize)> = BinaryHeap::new();
        for (i, it) in items.iter().enumerate() {
            if s.offsets[i] + it.size > cap {
                s.out[i] = true;
                heap.push((it.size, Reverse(next()), i));
            }
        }
        let mut left = heap.len();
        let steps = (left as u64 * STEPS_PER_BUFFER).clamp(MIN_STEPS, MAX_STEPS);
        let most_out = (left * 4 + 64).min(MAX_OUT);
        let mut done = 0;
        while let Some((_, _, i)) = heap.pop() {
            if !s.out[i] {
                continue;
            }
            step += 1;
            done += 1;
            scratch.evicted.clear();
            scratch.blocked = false;
            let work = s.place(i, cap, step, &mut next, &mut scratch);
            if scratch.blocked {
                stop = !go(work);
                break;
            }
            left = left + scratch.evicted.len() - 1;
            for &j in &scratch.evicted {
                heap.push((items[j].size, Reverse(next()), j));
            }
            if left == 0 {
                break;
            }
            if !go(work) {
                stop = true;
                break;
            }
            if done >= steps || left > most_out {
                break;
            }
        }
        let ok = left == 0;
        if ok {
            peak = top(&s.offsets);
            best.clone_from(&s.offsets);
            drop = drop.saturating_mul(2);
        } else {
            s.offsets.clone_from(&best);
            s.out.iter_mut().for_each(|o| *o = false);
            if drop == 1 {
                // Even one byte below the peak did not repair: start over from the
                // best with other random choices (the seed moves on).
                drop = ((peak - target) / 256).max(1);
            } else {
                drop /= 2;
            }
        }
    }
    (best, peak)
}

/// Buffers of one lifetime merged into one block, largest first inside it: placing
/// the block places them all, side by side. On IOPDDL S_1, 1,609 parameters live
/// over clocks 0–26,922, each of a few hundred bytes; one at a time they end on top
/// of everything and no repair can take one down (it needs a gap free for 26,922
/// clocks), as one block of 504 MB they move together.
pub(crate) struct Blocks {
    /// The blocks as items.
    pub items: Vec<Item>,
    /// The buffers of each block, in their order inside it.
    members: Vec<Vec<(usize, Bytes)>>,
}

impl Blocks {
    pub(crate) fn of(items: &[Item]) -> Blocks {
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| (items[i].lower, items[i].upper, Reverse(items[i].size), i));
        let mut blocks = Blocks {
            items: Vec::new(),
            members: Vec::new(),
        };
        for i in order {
            let it = items[i];
            match blocks.items.last_mut() {
                Some(b) if (b.lower, b.upper) == (it.lower, it.upper) => {
                    b.size += it.size;
                    blocks.members.last_mut().unwrap().push((i, it.size));
                }
                _ => {
                    blocks.items.push(it);
                    blocks.members.push(vec![(i, it.size)]);
                }
            }
        }
        blocks
    }

    /// The offsets of the buffers when the blocks are at `offsets`.
    pub(crate) fn unpack(&self, offsets: &[Bytes], n: usize) -> Vec<Bytes> {
        let mut out = vec![0; n];
        for (b, members) in self.members.iter().enumerate() {
            let mut at = offsets[b];
            for &(i, size) in members {
                out[i] = at;
                at += size;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::bound::{lower_bound, overlap_free, peak};
    use crate::strategies::greedy::{place_in_order, Pass};

    /// The six buffers of `local`'s test (the bound, 8, is reachable; TFLM's greedy
    /// ends at 10): the repair reaches the bound.
    #[test]
    fn a_repair_lowers_a_peak_greedy_cannot() {
        let item = |lower, upper, size| Item { lower, upper, size };
        let items = [
            item(0, 5, 3),
            item(5, 8, 3),
            item(0, 2, 5),
            item(2, 8, 1),
            item(2, 8, 3),
            item(2, 8, 1),
        ];
        let order = Pass::TFLM.order.sort(&items);
        let start = place_in_order(&items, &order, Pass::TFLM.fit);
        let bound = lower_bound(&items);
        assert_eq!((peak(&items, &start), bound), (10, 8));
        let mut work = 0;
        let (offsets, p) = improve(&items, start, bound, 7, |w| {
            work += w;
            work < 100_000
        });
        assert!(overlap_free(&items, &offsets));
        assert_eq!(p, peak(&items, &offsets));
        assert_eq!(p, bound);
    }

    /// Buffers of one lifetime become one block; unpacked, they sit side by side in
    /// it, so a valid placement of the blocks is a valid placement of the buffers.
    #[test]
    fn blocks_unpack_into_a_valid_placement() {
        let item = |lower, upper, size| Item { lower, upper, size };
        let items = [
            item(0, 9, 3),
            item(2, 4, 5),
            item(0, 9, 1),
            item(2, 4, 2),
            item(5, 7, 4),
        ];
        let blocks = Blocks::of(&items);
        assert_eq!(blocks.items.len(), 3);
        let order = Pass::TFLITE.order.sort(&blocks.items);
        let at = place_in_order(&blocks.items, &order, Pass::TFLITE.fit);
        let offsets = blocks.unpack(&at, items.len());
        assert!(overlap_free(&items, &offsets));
        assert_eq!(peak(&items, &offsets), peak(&blocks.items, &at));
    }

    #[test]
    fn the_cheapest_spot_avoids_the_costly_range() {
        // Capacity 10, size 4: [0,4) meets the costly range, [6,10) only the cheap one.
        let mut ranges = vec![(0, 3, 100.0), (3, 6, 1.0), (6, 10, 0.5)];
        let mut ends = Vec::new();
        assert_eq!(cheapest(&mut ranges, 4, 10, &mut ends), Some(6));
    }
}
