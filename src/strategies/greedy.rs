//! The greedy family: TFLite's arena planner (greedy by size, best fit), TFLM's
//! greedy by size with first fit, TVM USMP's greedy by conflicts, and other orders
//! ([`Pass::ALL`]). Each visits the buffers in a fixed order and puts each one into a
//! gap between the already placed buffers whose lifetimes intersect its own. On real
//! graphs the tie rule between equal sizes alone moves the peak by percents (PanGu-2.6B:
//! +0.8 % over the lower bound with earlier-start ties, +3.3 % with longer-lifetime
//! ties), and no one rule wins everywhere, so `best` runs them all.
//!
//! The placed buffers are found through [`TimeIndex`], buckets over the time axis, so
//! a step costs about the number of buffers live around it rather than all placed
//! buffers: 60,000 buffers take well under a second.

use super::bound::Item;
use crate::model::Bytes;

/// Which gap a buffer takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// The lowest gap that holds it.
    First,
    /// The smallest gap that holds it (lowest on ties); above everything when none.
    Best,
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
    place_around(items, (&[], Bytes::MAX), order, fit, stop)
}

/// [`place_until`] around buffers already placed: `fixed[i]` is the offset of
/// buffer `i` when it has one (they must not overlap one another); the others are
/// placed in `order` (which may list the fixed ones: they are skipped). A missing
/// `fixed` entry is a buffer to place. Abandoned too as soon as a buffer's top
/// would pass `below` (a placement no lower than one already known).
pub(crate) fn place_around(
    items: &[Item],
    (fixed, below): (&[Option<Bytes>], Bytes),
    order: &[usize],
    fit: Fit,
    stop: impl Fn() -> bool,
) -> Option<Vec<Bytes>> {
    let mut index = TimeIndex::new(items);
    let mut offsets = vec![0; items.len()];
    for (i, at) in fixed.iter().enumerate() {
        if let Some(at) = *at {
            offsets[i] = at;
            index.insert(items, i);
        }
    }
    let mut busy = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        if fixed.get(i).is_some_and(Option::is_some) {
            continue;
        }
        if k % 1024 == 1023 && stop() {
            return None;
        }
        busy.clear();
        index.for_each_overlap(items, i, |j| {
            busy.push((offsets[j], offsets[j] + items[j].size))
        });
        offsets[i] = choose_gap(&mut busy, items[i].size, fit);
        if offsets[i] + items[i].size > below {
            return None;
        }
        index.insert(items, i);
    }
    Some(offsets)
}

/// The order a greedy pass visits the buffers in. Every order ends its ties in input
/// order (reverse input order for [`Order::SizeThenLatest`]), so a pass is deterministic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// TFLite `ArenaPlanner::CreateTensorAllocationVector`: buffers live over the
    /// whole horizon first (input order), then size descending, earlier start, input order.
    Tflite,
    /// TFLM `GreedyMemoryPlanner`: size descending, ties in *reverse* input order. Its
    /// sort is stable (a bubble sort that only swaps a strictly smaller size), but the
    /// list it sorts was filled from the tail, so of equal sizes the buffer added last
    /// comes first (`formats::tflite::arena::greedy`, which matches the interpreter).
    SizeThenLatest,
    /// Size descending, ties in input order.
    SizeThenInput,
    /// Size descending, ties by earlier start, then input order (TFLite's rule
    /// without its whole-horizon group).
    SizeThenStart,
    /// Size descending, ties by longer lifetime, earlier start, input order (memplan's
    /// first greedy: 2.5 % worse than earlier-start ties on PanGu-2.6B, better elsewhere).
    SizeThenLength,
    /// TVM USMP's greedy by conflicts: most overlapping lifetimes first, ties by size
    /// descending, then input order.
    Conflicts,
    /// Largest area (size × lifetime length) first, ties by size descending, earlier
    /// start, input order.
    Area,
    /// Longest lifetime first, ties by size descending, earlier start, input order.
    Length,
    /// Greedy by breadth (Pisarchyk & Lee, "Efficient Memory Management for Deep
    /// Neural Net Inference", 2020): the buffers live at the clock with the most bytes
    /// live first, then those of the next fullest clock, and so on; ties by size
    /// descending, earlier start, input order. It packs the clocks that set the lower
    /// bound before anything else can leave holes in them.
    Breadth,
}

impl Order {
    /// The visiting order of `items`.
    pub(crate) fn sort(self, items: &[Item]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..items.len()).collect();
        let len = |it: &Item| it.upper - it.lower;
        match self {
            Order::Tflite => {
                let horizon = items.iter().map(|it| it.upper).max().unwrap_or(0);
                let whole = |it: &Item| it.lower == 0 && it.upper == horizon;
                order.sort_by(|&a, &b| {
                    let (x, y) = (&items[a], &items[b]);
                    whole(y)
                        .cmp(&whole(x))
                        .then_with(|| match whole(x) && whole(y) {
                            true => std::cmp::Ordering::Equal,
                            false => y.size.cmp(&x.size).then(x.lower.cmp(&y.lower)),
                        })
                        .then(a.cmp(&b))
                });
            }
            Order::SizeThenLatest => {
                order.reverse();
                order.sort_by_key(|&i| std::cmp::Reverse(items[i].size))
            }
            Order::SizeThenInput => order.sort_by_key(|&i| std::cmp::Reverse(items[i].size)),
            Order::SizeThenStart => {
                order.sort_by_key(|&i| (std::cmp::Reverse(items[i].size), items[i].lower))
            }
            Order::SizeThenLength => order.sort_by_key(|&i| {
                let it = &items[i];
                (
                    std::cmp::Reverse(it.size),
                    std::cmp::Reverse(len(it)),
                    it.lower,
                )
            }),
            Order::Conflicts => {
                let c = conflicts(items);
                order.sort_by_key(|&i| (std::cmp::Reverse(c[i]), std::cmp::Reverse(items[i].size)));
            }
            Order::Area => order.sort_by_cached_key(|&i| {
                let it = &items[i];
                (
                    std::cmp::Reverse(it.size as u128 * len(it) as u128),
                    std::cmp::Reverse(it.size),
                    it.lower,
                )
            }),
            Order::Length => order.sort_by_key(|&i| {
                let it = &items[i];
                (
                    std::cmp::Reverse(len(it)),
                    std::cmp::Reverse(it.size),
                    it.lower,
                )
            }),
            Order::Breadth => {
                let fullest = fullest_clocks(items);
                order.sort_by_key(|&i| {
                    let it = &items[i];
                    (fullest[i], std::cmp::Reverse(it.size), it.lower)
                });
            }
        }
        order
    }
}

/// One greedy pass: an order and a fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub order: Order,
    pub fit: Fit,
}

impl Pass {
    /// TFLite's `ArenaPlanner` exactly: [`Order::Tflite`], best fit by gap size.
    pub const TFLITE: Pass = Pass {
        order: Order::Tflite,
        fit: Fit::Best,
    };
    /// TFLM's `GreedyMemoryPlanner` exactly: [`Order::SizeThenLatest`], first fit
    /// (tests/tflite.rs: the same offsets as the interpreter's on every TFLM fixture).
    pub const TFLM: Pass = Pass {
        order: Order::SizeThenLatest,
        fit: Fit::First,
    };
    /// TVM USMP's greedy by conflicts: [`Order::Conflicts`], first fit.
    pub const CONFLICTS: Pass = Pass {
        order: Order::Conflicts,
        fit: Fit::First,
    };

    /// Every pass `best` runs, in this order (earlier ones win ties): the three
    /// named greedy strategies first, then the other orders with both fits. Each
    /// costs one greedy placement, a fraction of a second at 60,000 buffers.
    pub const ALL: [Pass; 15] = [
        Pass::TFLITE,
        Pass::TFLM,
        Pass::CONFLICTS,
        Pass {
            order: Order::SizeThenStart,
            fit: Fit::First,
        },
        Pass {
            order: Order::SizeThenStart,
            fit: Fit::Best,
        },
        Pass {
            order: Order::SizeThenLength,
            fit: Fit::Best,
        },
        Pass {
            order: Order::SizeThenLength,
            fit: Fit::First,
        },
        Pass {
            order: Order::SizeThenInput,
            fit: Fit::First,
        },
        Pass {
            order: Order::SizeThenInput,
            fit: Fit::Best,
        },
        Pass {
            order: Order::Area,
            fit: Fit::Best,
        },
        Pass {
            order: Order::Area,
            fit: Fit::First,
        },
        Pass {
            order: Order::Length,
            fit: Fit::Best,
        },
        Pass {
            order: Order::Length,
            fit: Fit::First,
        },
        Pass {
            order: Order::Breadth,
            fit: Fit::First,
        },
        Pass {
            order: Order::Breadth,
            fit: Fit::Best,
        },
    ];

    /// A short name for tables and test messages, e.g. `size,start/first`.
    pub fn name(self) -> String {
        let order = match self.order {
            Order::Tflite => "tflite",
            Order::SizeThenLatest => "size,latest",
            Order::SizeThenInput => "size,input",
            Order::SizeThenStart => "size,start",
            Order::SizeThenLength => "size,length",
            Order::Conflicts => "conflicts",
            Order::Area => "area",
            Order::Length => "length",
            Order::Breadth => "breadth",
        };
        let fit = match self.fit {
            Fit::First => "first",
            Fit::Best => "best",
        };
        format!("{order}/{fit}")
    }
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

/// For each item, the rank of the fullest clock of its lifetime among all clocks
/// (fullest first, earlier first on equal bytes): the key of [`Order::Breadth`].
/// Bytes live only rise where a buffer starts, so the clocks ranked are the distinct
/// starts, and a sparse table answers each lifetime's maximum in O(1): O(n log n).
fn fullest_clocks(items: &[Item]) -> Vec<(std::cmp::Reverse<Bytes>, u32)> {
    let mut starts: Vec<u32> = items.iter().map(|it| it.lower).collect();
    starts.sort_unstable();
    starts.dedup();
    let live = super::bound::live_at(items, &starts);
    // table[j][k]: the index of the fullest clock among starts[k .. k + 2^j].
    let fuller = |a: u32, b: u32| {
        if live[b as usize] > live[a as usize] {
            b
        } else {
            a
        }
    };
    let mut table: Vec<Vec<u32>> = vec![(0..starts.len() as u32).collect()];
    while 1 << table.len() <= starts.len() {
        let (prev, half) = (&table[table.len() - 1], 1 << (table.len() - 1));
        let next = (0..prev.len() - half)
            .map(|k| fuller(prev[k], prev[k + half]))
            .collect();
        table.push(next);
    }
    items
        .iter()
        .map(|it| {
            let lo = starts.partition_point(|&s| s < it.lower);
            let hi = starts.partition_point(|&s| s < it.upper);
            let j = (usize::BITS - 1 - (hi - lo).leading_zeros()) as usize;
            let k = fuller(table[j][lo], table[j][hi - (1 << j)]);
            (std::cmp::Reverse(live[k as usize]), starts[k as usize])
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Breadth order: the buffers of the fullest clock (clock 2: 9 bytes) first, by
    /// size; then those of the next fullest clock they do not share (clock 0: 5
    /// bytes); the lone buffer of clock 5 (4 bytes) last, though it is larger than
    /// two of the buffers before it.
    #[test]
    fn breadth_visits_the_fullest_clock_first() {
        let item = |lower, upper, size| Item { lower, upper, size };
        let items = [
            item(0, 1, 4),
            item(0, 3, 1),
            item(2, 3, 5),
            item(2, 4, 3),
            item(5, 6, 4),
        ];
        assert_eq!(Order::Breadth.sort(&items), vec![2, 3, 1, 0, 4]);
    }
}
