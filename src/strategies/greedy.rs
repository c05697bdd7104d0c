//! The greedy family: TFLite's arena planner (greedy by size, best fit), TFLM's
//! greedy by size with first fit, and TVM USMP's greedy by conflicts. Each visits the
//! buffers in a fixed order and puts each one into a gap between the already placed
//! buffers whose lifetimes intersect its own.
//!
//! The placed buffers are found through [`TimeIndex`], buckets over the time axis, so
//! a step costs about the number of buffers live around it rather than all placed
//! buffers: 60,000 buffers take well under a second.

use super::bound::Item;
use crate::model::Bytes;

/// Which gap a buffer takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fit {
    /// The lowest gap that holds it.
    First,
    /// The smallest gap that holds it (lowest on ties); above everything when none.
    Best,
}

impl From<bool> for Fit {
    /// `true` is [`Fit::Best`].
    fn from(best: bool) -> Self {
        if best {
            Fit::Best
        } else {
            Fit::First
        }
    }
}

/// Placed buffers bucketed by time: a buffer is listed in every bucket its lifetime
/// touches. The bucket width is the mean lifetime, so a buffer sits in about two.
pub(crate) struct TimeIndex {
    width: u64,
    buckets: Vec<Vec<u32>>,
    stamp: Vec<u32>,
    round: u32,
}

impl TimeIndex {
    pub(crate) fn new(items: &[Item]) -> Self {
        let horizon = items.iter().map(|it| it.upper as u64).max().unwrap_or(0);
        let total_len: u64 = items.iter().map(|it| (it.upper - it.lower) as u64).sum();
        let width = (total_len / (items.len().max(1) as u64)).max(1);
        TimeIndex {
            width,
            buckets: vec![Vec::new(); (horizon / width + 1) as usize],
            stamp: vec![0; items.len()],
            round: 0,
        }
    }

    fn range(&self, it: &Item) -> std::ops::RangeInclusive<usize> {
        (it.lower as u64 / self.width) as usize..=((it.upper as u64 - 1) / self.width) as usize
    }

    pub(crate) fn insert(&mut self, items: &[Item], i: usize) {
        for b in self.range(&items[i]) {
            self.buckets[b].push(i as u32);
        }
    }

    /// Calls `f` once for every inserted buffer whose lifetime intersects `items[i]`'s.
    pub(crate) fn for_each_overlap(&mut self, items: &[Item], i: usize, mut f: impl FnMut(usize)) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.round = 1;
        }
        let it = items[i];
        for b in self.range(&it) {
            for &j in &self.buckets[b] {
                let j = j as usize;
                if self.stamp[j] != self.round && items[j].overlaps(&it) {
                    self.stamp[j] = self.round;
                    f(j);
                }
            }
        }
    }
}

/// The offset `fit` chooses for `size` bytes among the busy `[start, end)` ranges.
pub(crate) fn choose_gap(busy: &mut [(Bytes, Bytes)], size: Bytes, fit: Fit) -> Bytes {
    busy.sort_unstable();
    let mut top: Bytes = 0;
    let mut best: Option<(Bytes, Bytes)> = None;
    for &(start, end) in busy.iter() {
        if start >= top + size {
            let gap = start - top;
            match fit {
                Fit::First => return top,
                Fit::Best => {
                    if best.map_or(true, |(g, _)| gap < g) {
                        best = Some((gap, top));
                    }
                }
            }
        }
        top = top.max(end);
    }
    best.map_or(top, |(_, at)| at)
}

/// Places the items in `order`, each into the gap `fit` picks.
pub(crate) fn place_in_order(items: &[Item], order: &[usize], fit: Fit) -> Vec<Bytes> {
    place_until(items, order, fit, || false).unwrap_or_default()
}

/// [`place_in_order`], abandoned (`None`) as soon as `stop` says so; asked every
/// 1,024 buffers, so a budget ends within a fraction of a pass.
pub(crate) fn place_until(
    items: &[Item],
    order: &[usize],
    fit: Fit,
    stop: impl Fn() -> bool,
) -> Option<Vec<Bytes>> {
    let mut index = TimeIndex::new(items);
    let mut offsets = vec![0; items.len()];
    let mut busy = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if k % 1024 == 1023 && stop() {
            return None;
        }
        busy.clear();
        index.for_each_overlap(items, i, |j| {
            busy.push((offsets[j], offsets[j] + items[j].size))
        });
        offsets[i] = choose_gap(&mut busy, items[i].size, fit);
        index.insert(items, i);
    }
    Some(offsets)
}

/// Largest first; longer lifetimes, then earlier ones, break ties.
pub(crate) fn by_size(items: &[Item]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&items[a], &items[b]);
        y.size
            .cmp(&x.size)
            .then((y.upper - y.lower).cmp(&(x.upper - x.lower)))
            .then(x.lower.cmp(&y.lower))
            .then(a.cmp(&b))
    });
    order
}

/// For each item, how many other items' lifetimes intersect its own: those starting
/// before its end minus those ending at or before its start (binary searches over
/// the sorted bounds, O(n log n)).
pub(crate) fn conflicts(items: &[Item]) -> Vec<usize> {
    let mut lowers: Vec<u32> = items.iter().map(|it| it.lower).collect();
    let mut uppers: Vec<u32> = items.iter().map(|it| it.upper).collect();
    lowers.sort_unstable();
    uppers.sort_unstable();
    items
        .iter()
        .map(|it| {
            let started = lowers.partition_point(|&l| l < it.upper);
            let ended = uppers.partition_point(|&u| u <= it.lower);
            started - ended - 1
        })
        .collect()
}

/// TVM USMP's greedy by conflicts: most conflicting first, then largest.
pub(crate) fn by_conflicts(items: &[Item]) -> Vec<usize> {
    let c = conflicts(items);
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        c[b].cmp(&c[a])
            .then(items[b].size.cmp(&items[a].size))
            .then(a.cmp(&b))
    });
    order
}

/// Largest area (size × lifetime length) first; larger, then earlier, break ties.
pub(crate) fn by_area(items: &[Item]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_cached_key(|&i| {
        let it = &items[i];
        let len = (it.upper - it.lower) as u128;
        (
            std::cmp::Reverse(it.size as u128 * len),
            std::cmp::Reverse(it.size),
            it.lower,
            i,
        )
    });
    order
}

/// Longest lifetime first; larger, then earlier, break ties.
pub(crate) fn by_length(items: &[Item]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| {
        let it = &items[i];
        (
            std::cmp::Reverse(it.upper - it.lower),
            std::cmp::Reverse(it.size),
            it.lower,
            i,
        )
    });
    order
}

/// Iterated greedy: from `order` (which placed `best` with peak `best_peak`), moves
/// every buffer that ends above `target` in the best placement so far to a random earlier place in the order, re-places all, and
/// keeps the new order when its peak is no higher (equal peaks let it drift off a
/// plateau). Runs while `go(passes in a row without a lower peak)` says so, and
/// drops a pass `stop` interrupts; returns the best offsets and their peak.
/// Deterministic for a given `seed`, `go` and `stop`.
pub(crate) fn iterate(
    items: &[Item],
    (mut order, mut best, mut best_peak): (Vec<usize>, Vec<Bytes>, Bytes),
    fit: Fit,
    target: Bytes,
    seed: u64,
    mut go: impl FnMut(u32) -> bool,
    stop: impl Fn() -> bool,
) -> (Vec<Bytes>, Bytes) {
    let mut stalled = 0;
    let peak = |o: &[Bytes]| super::bound::peak(items, o);
    let mut next = super::rng::splitmix64(seed);
    while best_peak > target && go(stalled) {
        let mut candidate = order.clone();
        let high: Vec<usize> = (0..order.len())
            .filter(|&k| best[order[k]] + items[order[k]].size > target)
            .collect();
        // Ascending positions: moving one to an earlier place leaves later ones put.
        for k in high {
            let i = candidate.remove(k);
            candidate.insert((next() % (k as u64 + 1)) as usize, i);
        }
        let Some(offsets) = place_until(items, &candidate, fit, &stop) else {
            break;
        };
        let p = peak(&offsets);
        stalled = if p < best_peak { 0 } else { stalled + 1 };
        if p <= best_peak {
            best = offsets;
            best_peak = p;
            order = candidate;
        }
    }
    (best, best_peak)
}
