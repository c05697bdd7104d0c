//! Spaces placed by what they hold, not by their rectangle.
//!
//! A space of an Aidge plan keeps its bytes from its allocation to its release, but
//! with wrap-around and in-place reuse its *live planes* fill less than that: a
//! 3,211,264 B space whose first plane was replaced by a 602,112 B plane holds
//! 602,112 live bytes from then on. The checker (and Aidge's semantics, see
//! [`Plan::plane_last_lives`]) only forbids live planes of two spaces to share a
//! byte, so another space may sit in the bytes a wrapped space no longer uses.
//! Here each space is a *shape*: the pieces (clocks × bytes relative to the space)
//! its planes' contiguous and wrapped parts occupy while live. Spaces move as wholes,
//! planes keep their place inside their space, so every plane keeps the bytes its
//! writer's kernel expects; only where spaces go changes.
//!
//! [`improve`] drops spaces one by one at the lowest offset where their pieces meet
//! no placed piece: first in the order of a given placement (each space then lands
//! at or below where it was, so the peak never rises), then in other orders and in
//! random perturbations of the best one, within a node and time budget.

use super::rng::splitmix64;
use super::Budget;
use crate::model::{Bytes, Clock, Plan};
use crate::timer::Timer;

/// Clocks `from..=to` × bytes `lo..hi`, relative to its space's offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    from: Clock,
    to: Clock,
    lo: Bytes,
    hi: Bytes,
}

/// The spaces of one component as shapes.
pub(super) struct Shapes {
    /// Indices into the plan's spaces.
    members: Vec<usize>,
    /// Each member's extent (its size: the arena must hold `offset + size`).
    sizes: Vec<Bytes>,
    pieces: Vec<Vec<Piece>>,
    /// For each member, the members whose pieces share a clock with its own.
    neighbours: Vec<Vec<usize>>,
}

/// Above this many spaces in a component shapes are not tried: each drop visits its
/// neighbours' pieces (synthetic plans of 10^5 planes are for the viewer).
const MAX_SPACES: usize = 5_000;

/// Passes in a row without a lower peak after which the random orders stop.
const STALL: u32 = 300;

impl Shapes {
    /// The shapes of `members` (spaces of one component), or `None` when every space
    /// is full for its whole life (nothing to gain over rectangles) or there are too
    /// many.
    pub(super) fn of(plan: &Plan, members: &[usize]) -> Option<Shapes> {
        if members.len() > MAX_SPACES || members.len() < 2 {
            return None;
        }
        let lives = plan.plane_last_lives();
        let (start, order) = plan.planes_by_space();
        let mut sparse = false;
        let mut pieces = Vec::with_capacity(members.len());
        for &s in members {
            let space = &plan.spaces[s];
            let last = space.last_live(plan.max_lifetime);
            let whole = Piece {
                from: space.allocated,
                to: last.max(space.allocated),
                lo: 0,
                hi: space.size,
            };
            let mut own: Vec<Piece> = Vec::new();
            for &k in &order[start[s]..start[s + 1]] {
                let p = &plan.planes[k];
                for (offset, size) in [(p.cont_offset, p.cont_size), (p.wrap_offset, p.wrap_size)] {
                    if size == 0 {
                        continue;
                    }
                    let lo = offset.wrapping_sub(space.offset);
                    // A part outside its space (auto-concat's wrapped sizes) is the
                    // checker's finding: the whole space stands for it here.
                    let piece = match lo.checked_add(size) {
                        Some(hi) if hi <= space.size => Piece {
                            from: p.allocated,
                            to: lives[k].max(p.allocated),
                            lo,
                            hi,
                        },
                        _ => Piece {
                            from: p.allocated,
                            to: lives[k].max(p.allocated),
                            ..whole
                        },
                    };
                    own.push(piece);
                }
            }
            if own.is_empty() {
                own.push(whole);
            }
            own.sort_unstable_by_key(|p| (p.lo, p.hi, p.from));
            own.dedup();
            sparse |= !fills(&own, &whole);
            pieces.push(own);
        }
        if !sparse {
            return None;
        }
        let span = |ps: &[Piece]| {
            let from = ps.iter().map(|p| p.from).min().unwrap_or(0);
            let to = ps.iter().map(|p| p.to).max().unwrap_or(0);
            (from, to)
        };
        let spans: Vec<(Clock, Clock)> = pieces.iter().map(|p| span(p)).collect();
        let mut neighbours = vec![Vec::new(); members.len()];
        let mut by_start: Vec<usize> = (0..members.len()).collect();
        by_start.sort_unstable_by_key(|&i| spans[i].0);
        for (k, &i) in by_start.iter().enumerate() {
            for &j in &by_start[k + 1..] {
                if spans[j].0 > spans[i].1 {
                    break;
                }
                let meet = pieces[i]
                    .iter()
                    .any(|a| pieces[j].iter().any(|b| a.from <= b.to && b.from <= a.to));
                if meet {
                    neighbours[i].push(j);
                    neighbours[j].push(i);
                }
            }
        }
        Some(Shapes {
            members: members.to_vec(),
            sizes: members.iter().map(|&s| plan.spaces[s].size).collect(),
            pieces,
            neighbours,
        })
    }

    /// The arena `offsets` (one per member) need.
    pub(super) fn peak(&self, offsets: &[Bytes]) -> Bytes {
        offsets
            .iter()
            .zip(&self.sizes)
            .map(|(&o, &z)| o.saturating_add(z))
            .max()
            .unwrap_or(0)
    }

    /// Drops the members in `order` one by one at the lowest offset where their pieces
    /// meet no piece of a member dropped before; stops (None) as soon as one passes
    /// `below`. Counts the piece pairs it compares in `work`.
    fn drop_in(&self, order: &[usize], below: Bytes, work: &mut u64) -> Option<Vec<Bytes>> {
        let n = self.members.len();
        let mut offsets: Vec<Option<Bytes>> = vec![None; n];
        let mut forbidden: Vec<(i128, i128)> = Vec::new();
        for &i in order {
            forbidden.clear();
            for &j in &self.neighbours[i] {
                let Some(at) = offsets[j] else { continue };
                let at = i128::from(at);
                for r in &self.pieces[i] {
                    for q in &self.pieces[j] {
                        *work += 1;
                        if r.from <= q.to && q.from <= r.to {
                            // X + r.lo < at + q.hi and at + q.lo < X + r.hi.
                            let a = at + i128::from(q.lo) - i128::from(r.hi) + 1;
                            let b = at + i128::from(q.hi) - i128::from(r.lo);
                            if b > a {
                                forbidden.push((a, b));
                            }
                        }
                    }
                }
            }
            forbidden.sort_unstable();
            let mut x: i128 = 0;
            for &(a, b) in &forbidden {
                if a > x {
                    break;
                }
                x = x.max(b);
            }
            let x = Bytes::try_from(x).ok()?;
            if x.saturating_add(self.sizes[i]) > below {
                return None;
            }
            offsets[i] = Some(x);
        }
        offsets.into_iter().collect()
    }

    /// The lowest of the drops in a few fixed orders: by `start`'s offsets when
    /// given (each space then lands at or below its place, so never above `start`'s
    /// peak), by size, by the area of the pieces, by first clock. Returns the
    /// offsets, their peak and the order that gave them.
    pub(super) fn drops(
        &self,
        start: Option<&[Bytes]>,
        work: &mut u64,
    ) -> (Vec<Bytes>, Bytes, Vec<usize>) {
        let n = self.members.len();
        let area = |i: usize| -> u128 {
            self.pieces[i]
                .iter()
                .map(|p| u128::from(p.hi - p.lo) * u128::from(p.to - p.from + 1))
                .sum()
        };
        let first = |i: usize| self.pieces[i].iter().map(|p| p.from).min().unwrap_or(0);
        let mut orders = Vec::new();
        let mut best = (Vec::new(), Bytes::MAX, Vec::new());
        if let Some(start) = start {
            let mut by_offset: Vec<usize> = (0..n).collect();
            by_offset.sort_by_key(|&i| (start[i], i));
            best = (start.to_vec(), self.peak(start), by_offset.clone());
            orders.push(by_offset);
        }
        let mut by_size: Vec<usize> = (0..n).collect();
        by_size.sort_by_key(|&i| (std::cmp::Reverse(self.sizes[i]), first(i), i));
        let mut by_area: Vec<usize> = (0..n).collect();
        by_area.sort_by_key(|&i| (std::cmp::Reverse(area(i)), i));
        let mut by_clock: Vec<usize> = (0..n).collect();
        by_clock.sort_by_key(|&i| (first(i), std::cmp::Reverse(self.sizes[i]), i));
        orders.extend([by_size, by_area, by_clock]);
        for order in orders {
            if let Some(offsets) = self.drop_in(&order, best.1, work) {
                let peak = self.peak(&offsets);
                if peak < best.1 || (peak == best.1 && order == best.2) {
                    best = (offsets, peak, order);
                }
            }
        }
        best
    }

    /// The members' offsets after dropping them, from `start` when given (one offset
    /// per member, a valid placement): never higher-peaked than `start`. Runs within `budget`'s
    /// time (from `timer`) and a quarter of its nodes, and stops after [`STALL`]
    /// random orders in a row find nothing lower.
    pub(super) fn improve(
        &self,
        start: Option<&[Bytes]>,
        budget: &Budget,
        timer: &Timer,
    ) -> Vec<Bytes> {
        let mut work = 0u64;
        let max_work = budget.max_nodes.saturating_mul(4);
        let out_of_time = |work: u64| {
            work >= max_work || timer.elapsed_ms() >= budget.millis || budget.cancelled()
        };
        let (mut best, mut best_peak, mut best_order) = self.drops(start, &mut work);
        let n = self.members.len();
        // Random moves of the best order: a space at the peak moved earlier, or two
        // spaces swapped; ties are kept, so the order drifts on plateaus.
        let mut rng = splitmix64(0x5eed ^ n as u64);
        let mut stalled = 0;
        while stalled < STALL && !out_of_time(work) {
            let mut order = best_order.clone();
            let r = rng();
            let pos = |v: u64, len: usize| (v % len as u64) as usize;
            if r & 1 == 0 {
                let top: Vec<usize> = (0..n)
                    .filter(|&k| best[order[k]].saturating_add(self.sizes[order[k]]) == best_peak)
                    .collect();
                let k = top[pos(r >> 1, top.len())];
                let to = pos(rng(), k + 1);
                let item = order.remove(k);
                order.insert(to, item);
            } else {
                let (a, b) = (pos(r >> 1, n), pos(rng(), n));
                order.swap(a, b);
            }
            match self.drop_in(&order, best_peak, &mut work) {
                Some(offsets) => {
                    let peak = self.peak(&offsets);
                    stalled = if peak < best_peak { 0 } else { stalled + 1 };
                    best = offsets;
                    best_peak = peak;
                    best_order = order;
                }
                None => stalled += 1,
            }
        }
        best
    }
}

/// Whether `pieces` cover `whole` (every byte at every clock of it).
fn fills(pieces: &[Piece], whole: &Piece) -> bool {
    let mut cuts: Vec<Clock> = pieces
        .iter()
        .flat_map(|p| [p.from, p.to.saturating_add(1)])
        .chain([whole.from, whole.to.saturating_add(1)])
        .filter(|&c| c >= whole.from && c <= whole.to.saturating_add(1))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts.iter().all(|&t| {
        if t > whole.to {
            return true;
        }
        let mut live: Vec<(Bytes, Bytes)> = pieces
            .iter()
            .filter(|p| p.from <= t && t <= p.to)
            .map(|p| (p.lo, p.hi))
            .collect();
        live.sort_unstable();
        let mut reach = whole.lo;
        for (lo, hi) in live {
            if lo > reach {
                return false;
            }
            reach = reach.max(hi);
        }
        reach >= whole.hi
    })
}
