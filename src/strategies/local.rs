//! Local search past the greedy winner: ruin and recreate at the peak.
//!
//! A greedy pass fixes every buffer once; iterated greedy re-runs whole passes in
//! other orders; the exact search cannot hold tens of thousands of buffers. A move
//! here touches only the neighbourhood of the peak: it takes a buffer whose top is the
//! peak and either
//! - *ruins* its column (the buffers with the highest tops among those live with it,
//!   or live at one clock of its lifetime) and puts them back in a shuffled size
//!   order into the gaps the other buffers leave (first or best fit), or
//! - *ejects*: moves it down to where a buffer of its column starts or ends and puts
//!   the buffers it then meets back elsewhere, the same way.
//!
//! A move is kept when the peak does not rise and no more buffers reach it than
//! before, so the search drifts along a plateau until a move lowers the peak; the
//! number of buffers a ruin takes grows while nothing improves. (The "remove what is
//! in the way and re-insert it" repair of idealloc and TelaMalloc, confined to the
//! peak.) A move costs about the number of buffers live with the ones it moves, not
//! the whole list, so it scales to 10^6 buffers. Deterministic for a given seed and
//! `go`.
//!
//! It lowers the sweep's placements of dense traces; on PanGu-2.6B (a training graph
//! whose peak buffer is held by long-lived buffers over 13,000 clocks) it has found
//! nothing below the greedy winner yet.

use super::bound::Item;
use super::greedy::{choose_gap, Fit, TimeIndex};
use super::rng::splitmix64;
use crate::model::{Bytes, Clock};
use std::collections::BTreeSet;

/// Fewest and most buffers one move takes out (the most doubles while moves stall).
const RUIN_MIN: usize = 2;
const RUIN_START: usize = 16;
const RUIN_MAX: usize = 1024;

/// Buffers a move puts back between two looks at the clock: a move that re-inserts
/// 1,024 long-lived buffers, each beside thousands, takes a second on IOPDDL S_1.
const STOP_STRIDE: usize = 32;

/// Moves without a lower peak before the ruin size doubles.
const WIDEN_AFTER: u32 = 2000;

/// The placement being improved, with its buffers indexed by time and by top.
struct State<'a> {
    items: &'a [Item],
    offsets: Vec<Bytes>,
    index: TimeIndex,
    /// (top, item) of every placed buffer: the peak and who reaches it.
    tops: BTreeSet<(Bytes, u32)>,
    /// Taken out by the current move and not yet put back.
    removed: Vec<bool>,
}

impl State<'_> {
    fn top(&self, i: usize) -> Bytes {
        self.offsets[i] + self.items[i].size
    }

    /// The peak and how many buffers reach it (the move's objective).
    fn objective(&self) -> (Bytes, usize) {
        match self.tops.last() {
            Some(&(peak, _)) => (peak, self.tops.range((peak, 0)..).count()),
            None => (0, 0),
        }
    }

    fn take_out(&mut self, i: usize) {
        self.tops.remove(&(self.top(i), i as u32));
        self.removed[i] = true;
    }

    fn put_at(&mut self, i: usize, at: Bytes) {
        self.offsets[i] = at;
        self.removed[i] = false;
        self.tops.insert((self.top(i), i as u32));
    }

    /// Puts `i` back into the gap `fit` picks among the placed buffers live with it;
    /// returns how many it looked at.
    fn put_back(&mut self, i: usize, fit: Fit, busy: &mut Vec<(Bytes, Bytes)>) -> u64 {
        busy.clear();
        let (items, offsets, removed) = (self.items, &self.offsets, &self.removed);
        self.index.for_each_overlap(items, i, |j| {
            if !removed[j] {
                busy.push((offsets[j], offsets[j] + items[j].size));
            }
        });
        let at = choose_gap(busy, items[i].size, fit);
        self.put_at(i, at);
        busy.len() as u64 + 1
    }
}

impl State<'_> {
    /// The column of `c`: the buffers live with it (or only those live at `clock`),
    /// each with its top.
    fn column(&mut self, c: usize, clock: Option<Clock>) -> Vec<(Bytes, usize)> {
        let (items, offsets) = (self.items, &self.offsets);
        let mut column = Vec::new();
        self.index.for_each_overlap(items, c, |j| {
            if clock.map_or(true, |t| items[j].lower <= t && t < items[j].upper) {
                column.push((offsets[j] + items[j].size, j));
            }
        });
        column
    }

    /// Narrows `column` to the buffers the move takes out. With `eject`, `c` goes
    /// down to a spot where a buffer of its column starts or ends, below `peak`
    /// (returned), and only the buffers it then meets go; otherwise (or when there is
    /// no such spot) the ruin: the `k` highest tops, `k` random up to `ruin_max`
    /// (ties by index, so the move is deterministic).
    fn narrow(
        &self,
        c: usize,
        column: &mut Vec<(Bytes, usize)>,
        (eject, peak, ruin_max): (bool, Bytes, usize),
        next: &mut impl FnMut() -> u64,
    ) -> Option<Bytes> {
        let size = self.items[c].size;
        let mut spots: Vec<Bytes> = column
            .iter()
            .filter(|&&(_, j)| j != c)
            .flat_map(|&(top, j)| [self.offsets[j], top])
            .filter(|&x| x + size < peak)
            .collect();
        spots.sort_unstable();
        spots.dedup();
        let pin =
            (eject && !spots.is_empty()).then(|| spots[(next() % spots.len() as u64) as usize]);
        if let Some(x) = pin {
            column.retain(|&(top, j)| j == c || (top > x && self.offsets[j] < x + size));
        } else {
            let k = RUIN_MIN + (next() % (ruin_max - RUIN_MIN + 1) as u64) as usize;
            let k = k.min(column.len());
            if k < column.len() {
                column.select_nth_unstable_by(k, |a, b| b.cmp(a));
                column.truncate(k);
            }
        }
        pin
    }

    /// Puts the `moved` buffers back (`c` at `pin` first, when pinned): size
    /// descending, shuffled a little (a random key breaks ties, and a few random swaps
    /// put some smaller buffers first), all first fit or all best fit. Returns the
    /// buffers looked at, or `None` when `stop` (asked every [`STOP_STRIDE`] buffers)
    /// ended the move half done: [`State::undo`] then puts everything back.
    fn reinsert(
        &mut self,
        moved: &[(usize, Bytes)],
        (c, pin): (usize, Option<Bytes>),
        next: &mut impl FnMut() -> u64,
        busy: &mut Vec<(Bytes, Bytes)>,
        stop: &impl Fn() -> bool,
    ) -> Option<u64> {
        if let Some(x) = pin {
            self.put_at(c, x);
        }
        let mut order: Vec<(Bytes, u64, usize)> = moved
            .iter()
            .filter(|&&(j, _)| pin.is_none() || j != c)
            .map(|&(j, _)| (self.items[j].size, next(), j))
            .collect();
        order.sort_unstable_by(|a, b| b.cmp(a));
        for _ in 0..order.len() / 4 {
            let a = (next() % order.len() as u64) as usize;
            let b = (next() % order.len() as u64) as usize;
            order.swap(a, b);
        }
        let fit = if next() % 2 == 0 {
            Fit::First
        } else {
            Fit::Best
        };
        let mut work = 0;
        for (k, &(_, _, j)) in order.iter().enumerate() {
            if k % STOP_STRIDE == STOP_STRIDE - 1 && stop() {
                return None;
            }
            work += self.put_back(j, fit, busy);
        }
        Some(work)
    }

    /// Puts the `moved` buffers back where they were (also after a move `stop` ended
    /// half done: taking out one not yet put back removes nothing).
    fn undo(&mut self, moved: &[(usize, Bytes)]) {
        for &(j, _) in moved {
            self.take_out(j);
        }
        for &(j, at) in moved {
            self.put_at(j, at);
        }
    }
}

/// Improves `offsets` (a valid placement of `items`) until its peak reaches `target`
/// or `go(work, stalled)` says stop (or `stop`, asked within a move), where `work` counts the buffers looked at since
/// the last call (about the cost of the move just made) and `stalled` the moves since
/// the peak last went down. Returns the best placement found and its peak: never
/// higher than the peak it started from.
///
/// A move: a buffer at the peak, picked at random among them; its column (the
/// buffers live with it, or, one move in three, those live at one of its clocks);
/// some of them taken out ([`State::narrow`]) and put back ([`State::reinsert`]).
/// A move that raises the objective (peak, then how many buffers reach it) is undone.
pub(crate) fn improve(
    items: &[Item],
    offsets: Vec<Bytes>,
    target: Bytes,
    seed: u64,
    mut go: impl FnMut(u64, u32) -> bool,
    stop: impl Fn() -> bool,
) -> (Vec<Bytes>, Bytes) {
    let mut index = TimeIndex::new(items);
    for i in 0..items.len() {
        index.insert(items, i);
    }
    let tops = (0..items.len())
        .map(|i| (offsets[i] + items[i].size, i as u32))
        .collect();
    let mut s = State {
        items,
        offsets,
        index,
        tops,
        removed: vec![false; items.len()],
    };
    let mut next = splitmix64(seed);
    let mut best = s.objective();
    let mut best_offsets = s.offsets.clone();
    let mut stalled: u32 = 0;
    let mut ruin_max = RUIN_START;
    let mut busy = Vec::new();
    let mut work = 0;
    while best.0 > target && go(work, stalled) {
        let (peak, count) = s.objective();
        let pick = (next() % count as u64) as usize;
        let Some(&(_, c)) = s.tops.range((peak, 0)..).nth(pick) else {
            break;
        };
        let c = c as usize;
        let it = items[c];
        let kind = next() % 3;
        let clock = match kind {
            1 => Some(it.lower + (next() % (it.upper - it.lower) as u64) as u32),
            _ => None,
        };
        let mut column = s.column(c, clock);
        work = column.len() as u64;
        let pin = s.narrow(c, &mut column, (kind == 2, peak, ruin_max), &mut next);
        column.sort_unstable_by(|a, b| b.cmp(a));
        let moved: Vec<(usize, Bytes)> = column.iter().map(|&(_, j)| (j, s.offsets[j])).collect();
        for &(j, _) in &moved {
            s.take_out(j);
        }
        let Some(more) = s.reinsert(&moved, (c, pin), &mut next, &mut busy, &stop) else {
            s.undo(&moved);
            break;
        };
        work += more;
        let now = s.objective();
        if now > (peak, count) {
            s.undo(&moved);
        } else if now.0 < best.0 {
            best = now;
            best_offsets.clone_from(&s.offsets);
            stalled = 0;
            ruin_max = RUIN_START;
        }
        stalled += 1;
        if stalled % WIDEN_AFTER == 0 {
            ruin_max = (ruin_max * 2).min(RUIN_MAX);
        }
    }
    (best_offsets, best.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategies::bound::{lower_bound, overlap_free, peak};
    use crate::strategies::greedy::{place_in_order, Pass};

    /// Six buffers that tile an 8-byte strip over clocks 0–8 (so the bound, 8, is
    /// reachable), on which TFLM's greedy (size descending, first fit) ends at 10: the
    /// local search from that placement reaches the bound.
    #[test]
    fn a_move_lowers_a_peak_greedy_cannot() {
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
        let start_peak = peak(&items, &start);
        let bound = lower_bound(&items);
        assert_eq!((start_peak, bound), (10, 8));
        let mut moves = 0;
        let (offsets, p) = improve(
            &items,
            start,
            bound,
            7,
            |_, _| {
                moves += 1;
                moves < 10_000
            },
            || false,
        );
        assert!(overlap_free(&items, &offsets));
        assert_eq!(p, peak(&items, &offsets));
        assert_eq!(p, bound);
    }
}
