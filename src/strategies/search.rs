//! Exact search in the manner of MiniMalloc (Moffitt, ASPLOS 2023; google/minimalloc's
//! `solver.cc` and `sweeper.cc`): decide whether the buffers fit in a capacity by
//! depth-first search over *canonical* placements, where buffers are placed in
//! non-decreasing (offset, preorder rank) order, each at its lowest offset above the
//! placed buffers it meets in time. Every placement can be pushed down into a
//! canonical one, so an exhausted search proves that none fits.
//!
//! Sections are MiniMalloc's: one per distinct end time, holding the buffers live just
//! before it (the maximal cross sections), so there are at most as many sections as
//! buffers and the inference below looks only where the live bytes peak.
//!
//! Pruning, all from MiniMalloc:
//! - *dominance*: a buffer placed at or above the lowest top another unplaced buffer
//!   could reach leaves a gap that buffer would fill;
//! - *section inference*: in every section, the floor (the top of the last buffer
//!   placed there, raised to the lowest offset its unplaced buffers can take, and to
//!   the current offset since offsets never decrease) plus the sizes still to place
//!   there must fit;
//! - *hatless pruning*: a buffer with nothing unplaced overhead takes its place without
//!   loss of generality, so if that fails no other choice at the node succeeds;
//! - *dynamic decomposition*: once no unplaced buffer crosses a section boundary, the
//!   two sides are solved separately (a failure on one side never re-enumerates the
//!   other), each with a preorder recomputed from the sizes still to place.
//!
//! The search is iterative (sets of thousands of buffers would overflow a wasm stack
//! with recursion) and round-robins MiniMalloc's three preorders with a doubling node
//! limit.

use super::bound::Item;
use super::Budget;
use crate::model::Bytes;
use crate::timer::Timer;

/// What a feasibility search concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A placement within the capacity (offsets for every item).
    Fits(Vec<Bytes>),
    /// Proven: nothing fits.
    Infeasible,
    /// The node limit, the time budget or the cancel flag ended the search.
    Undecided,
}

/// Shared limits of one planning run.
pub(crate) struct Limits<'a> {
    pub budget: &'a Budget,
    pub timer: &'a Timer,
    /// Nodes spent so far (all searches of the run).
    pub nodes: u64,
    /// Node count at which the current attempt stops (at most `budget.max_nodes`).
    pub stop_at: u64,
    /// The clock is read every `stride` nodes: every node on large parts, where one
    /// node costs a sort of all their items, so the budget's end is not overshot.
    pub stride: u64,
}

impl Limits<'_> {
    fn exhausted(&self) -> bool {
        self.nodes >= self.stop_at || (self.nodes % self.stride == 0 && self.out_of_time())
    }

    /// The whole run's budget is spent (nodes, time, or cancelled).
    pub(crate) fn out_of_time(&self) -> bool {
        self.nodes >= self.budget.max_nodes
            || self.timer.elapsed_ms() >= self.budget.millis
            || self.budget.cancelled()
    }
}

/// Time ranges no lifetime crosses: item indices per independent part.
///
/// Zero-size items are left out: they take no bytes (they stay at offset 0), and one
/// of them would make the dominance rule reject every candidate at or above its own
/// lowest offset, itself included.
fn partitions(items: &[Item]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..items.len()).filter(|&i| items[i].size > 0).collect();
    order.sort_by_key(|&i| (items[i].lower, i));
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut reach = 0;
    for i in order {
        if parts.is_empty() || items[i].lower >= reach {
            parts.push(Vec::new());
        }
        reach = reach.max(items[i].upper);
        if let Some(p) = parts.last_mut() {
            p.push(i);
        }
    }
    parts
}

/// Does everything fit in `capacity`?
pub(crate) fn fits(items: &[Item], capacity: Bytes, limits: &mut Limits) -> Outcome {
    let mut offsets = vec![0; items.len()];
    for mut part in partitions(items) {
        // In list order, so preorder ties fall to the earlier buffer as in MiniMalloc.
        part.sort_unstable();
        let sub: Vec<Item> = part.iter().map(|&i| items[i]).collect();
        limits.stride = if sub.len() > 1000 { 1 } else { 256 };
        // Setting a large part up costs seconds (a list per item of every item it
        // meets): the clock is read while it is built, so the budget's end holds.
        let Some(search) = Part::new(&sub, capacity, || limits.out_of_time()) else {
            return Outcome::Undecided;
        };
        match search.solve(limits) {
            Outcome::Fits(o) => {
                for (k, &i) in part.iter().enumerate() {
                    offsets[i] = o[k];
                }
            }
            other => return other,
        }
    }
    Outcome::Fits(offsets)
}

const NONE: Bytes = Bytes::MAX;

/// Nesting limit of decompositions (each nests one search; wasm stacks are small).
const MAX_DEPTH: usize = 64;

/// One independent part: items, sections, and the search state.
struct Part<'a> {
    items: &'a [Item],
    capacity: Bytes,
    /// Section range `[first, last)` of each item.
    sections: Vec<(usize, usize)>,
    /// Items whose lifetimes intersect, per item.
    overlaps: Vec<Vec<u32>>,
    /// Per section: the lowest offset anything still to place there can take...
    floor: Vec<Bytes>,
    /// ... and the sizes still to place there.
    total: Vec<Bytes>,
    /// Items live in each section.
    /// The unplaced ones first: `members[s][..live[s]]` are exactly the unplaced
    /// items of section `s` (placing swaps an item behind them; undoing, always of
    /// the latest placement, only moves the boundary back).
    members: Vec<Vec<u32>>,
    live: Vec<usize>,
    /// Position of item `i` in `members[s]`, at `slot[i][s - first section of i]`.
    slot: Vec<Vec<u32>>,
    /// Per boundary `b` (between sections `b` and `b + 1`): unplaced items crossing it.
    /// At zero, the items left on either side no longer interact.
    cuts: Vec<u32>,
    /// Section ranges to re-floor after a placement (merged before the re-floor:
    /// long-lived neighbours share most of their sections).
    affected: Vec<(usize, usize)>,
    /// Per item: its lowest offset above placed neighbours, and its offset once placed.
    min_offset: Vec<Bytes>,
    offset: Vec<Bytes>,
}

/// Preorder keys, descending (MiniMalloc's letters): the largest section total an
/// item meets (`T`), its lifetime's length (`W`), its area, size × length (`A`).
#[derive(Clone, Copy)]
enum Key {
    Total,
    Width,
    Area,
}

/// MiniMalloc's default round robin: "WAT", "TAW", "TWA".
const HEURISTICS: [[Key; 3]; 3] = [
    [Key::Width, Key::Area, Key::Total],
    [Key::Total, Key::Area, Key::Width],
    [Key::Total, Key::Width, Key::Area],
];

/// One level of the depth-first search.
struct Frame {
    /// Unplaced items by (min offset, preorder rank).
    order: Vec<(Bytes, u32)>,
    next: usize,
    /// The lowest top any unplaced item can reach: placing at or above it is dominated.
    min_height: Bytes,
    /// Canonical order: offset and rank of the item this frame's parent placed.
    last: (Bytes, u32),
    /// The placement this frame has made and must undo before its next try.
    undo: Option<Undo>,
    /// Nothing is left to place: the parent's placement completed a solution.
    done: bool,
}

/// How to take back one placement; `hatless` when the item had nothing unplaced
/// overlapping it, so no sibling choice needs trying once it failed.
#[derive(Clone, Copy)]
struct Undo {
    item: usize,
    offsets_mark: usize,
    floors_mark: usize,
    hatless: bool,
}

/// Undo logs of one search: previous min offsets and section floors.
#[derive(Default)]
struct Logs {
    offsets: Vec<(u32, Bytes)>,
    floors: Vec<(u32, Bytes)>,
}

/// How many items [`Part::new`] handles between two looks at the clock.
const SETUP_STRIDE: usize = 256;

impl<'a> Part<'a> {
    /// The part of `items` in `capacity`, or `None` when `stop` said so while it was
    /// set up (asked every [`SETUP_STRIDE`] items).
    fn new(items: &'a [Item], capacity: Bytes, stop: impl Fn() -> bool) -> Option<Self> {
        // A section per distinct end time `e`, holding the items with lower < e <= upper
        // (live at e - 1); an item spans sections [#ends <= lower, #ends <= upper).
        let mut ends: Vec<u32> = items.iter().map(|it| it.upper).collect();
        ends.sort_unstable();
        ends.dedup();
        let sec = |t: u32| ends.partition_point(|&e| e <= t);
        let sections: Vec<(usize, usize)> = items
            .iter()
            .map(|it| (sec(it.lower), sec(it.upper)))
            .collect();
        let nsec = ends.len();
        let mut total = vec![0; nsec];
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); nsec];
        let mut slot = vec![Vec::new(); items.len()];
        for (i, (it, &(a, b))) in items.iter().zip(&sections).enumerate() {
            if i % SETUP_STRIDE == SETUP_STRIDE - 1 && stop() {
                return None;
            }
            for s in a..b {
                total[s] += it.size;
                slot[i].push(members[s].len() as u32);
                members[s].push(i as u32);
            }
        }
        let mut cuts = vec![0; nsec.saturating_sub(1)];
        for &(a, b) in &sections {
            for c in &mut cuts[a..b.saturating_sub(1).max(a)] {
                *c += 1;
            }
        }
        let mut by_lower: Vec<usize> = (0..items.len()).collect();
        by_lower.sort_by_key(|&i| items[i].lower);
        let mut overlaps = vec![Vec::new(); items.len()];
        for (k, &i) in by_lower.iter().enumerate() {
            if k % SETUP_STRIDE == SETUP_STRIDE - 1 && stop() {
                return None;
            }
            for &j in &by_lower[k + 1..] {
                if items[j].lower >= items[i].upper {
                    break;
                }
                overlaps[i].push(j as u32);
                overlaps[j].push(i as u32);
            }
        }
        Some(Part {
            items,
            capacity,
            sections,
            overlaps,
            floor: vec![0; nsec],
            total,
            live: members.iter().map(Vec::len).collect(),
            members,
            slot,
            cuts,
            affected: Vec::new(),
            min_offset: vec![0; items.len()],
            offset: vec![NONE; items.len()],
        })
    }

    /// `group` sorted by the preorder `keys`, with section totals as they stand now
    /// (MiniMalloc recomputes them for every sub-problem of a decomposition).
    fn preorder(&self, mut group: Vec<usize>, keys: [Key; 3]) -> Vec<usize> {
        let value = |i: usize, k: Key| -> u128 {
            let (a, b) = self.sections[i];
            let it = &self.items[i];
            let width = (it.upper - it.lower) as u128;
            match k {
                Key::Total => self.total[a..b].iter().copied().max().unwrap_or(0) as u128,
                Key::Width => width,
                Key::Area => it.size as u128 * width,
            }
        };
        group.sort_by_cached_key(|&i| (std::cmp::Reverse(keys.map(|k| value(i, k))), i));
        group
    }

    fn solve(mut self, limits: &mut Limits) -> Outcome {
        // Section inference before any placement: a section that cannot hold its own
        // buffers proves infeasibility at once.
        if self.total.iter().any(|&t| t > self.capacity) {
            return Outcome::Infeasible;
        }
        let mut node_limit = self.items.len() as u64;
        loop {
            node_limit = node_limit.saturating_mul(2);
            for keys in HEURISTICS {
                let pre = self.preorder((0..self.items.len()).collect(), keys);
                let mut nodes = 0;
                let all = (0, self.floor.len());
                let mut search = Search {
                    keys,
                    node_limit,
                    nodes: &mut nodes,
                    limits,
                };
                match self.dfs(&pre, all, &mut search, 0) {
                    Some(out) => return out,
                    None if limits.exhausted() => return Outcome::Undecided,
                    None => {}
                }
            }
        }
    }
}

/// One round of the round robin: its preorder keys and node limit.
struct Search<'s, 'b> {
    keys: [Key; 3],
    node_limit: u64,
    nodes: &'s mut u64,
    limits: &'s mut Limits<'b>,
}

impl Part<'_> {
    /// Searches placements of the unplaced items `pre` (in preorder), which live in the
    /// sections `range` and meet nothing else unplaced. `None` when the node limit ran
    /// out first. Leaves the state as it found it.
    fn dfs(
        &mut self,
        pre: &[usize],
        range: (usize, usize),
        search: &mut Search,
        depth: usize,
    ) -> Option<Outcome> {
        let mut logs = Logs::default();
        let root = self.frame(pre, (0, 0));
        let mut stack = vec![root];
        let result = 'search: loop {
            let Some(top) = stack.last_mut() else {
                break 'search Some(Outcome::Infeasible);
            };
            if let Some(u) = top.undo.take() {
                self.unplace(u, &mut logs);
                if u.hatless {
                    top.next = top.order.len();
                }
            }
            while top.next < top.order.len() {
                let (at, r) = top.order[top.next];
                top.next += 1;
                if (at, r) < top.last {
                    continue;
                }
                if at >= top.min_height {
                    // Every later candidate is at least as high: all dominated.
                    top.next = top.order.len();
                    break;
                }
                if *search.nodes >= search.node_limit || search.limits.exhausted() {
                    break 'search None;
                }
                *search.nodes += 1;
                search.limits.nodes += 1;
                let i = pre[r as usize];
                let u = self.place(i, at, &mut logs);
                if self.consistent(at, range) {
                    let (a, e) = self.sections[i];
                    let cutpoints: Vec<usize> = (a..e.saturating_sub(1))
                        .filter(|&b| self.cuts[b] == 0 && range.0 <= b && b + 1 < range.1)
                        .map(|b| b + 1)
                        .collect();
                    if !cutpoints.is_empty() && depth < MAX_DEPTH {
                        let out = self.decompose(pre, range, &cutpoints, search, depth);
                        self.unplace(u, &mut logs);
                        match out {
                            Some(Outcome::Infeasible) if u.hatless => {
                                top.next = top.order.len();
                                break;
                            }
                            Some(Outcome::Infeasible) => continue,
                            other => break 'search other,
                        }
                    }
                    top.undo = Some(u);
                    let child = self.frame(pre, (at, r));
                    if child.done {
                        let offsets = self.offset.clone();
                        break 'search Some(Outcome::Fits(offsets));
                    }
                    stack.push(child);
                    continue 'search;
                }
                self.unplace(u, &mut logs);
                if u.hatless {
                    top.next = top.order.len();
                }
            }
            stack.pop();
        };
        // Leave the state clean for the next heuristic.
        while let Some(mut f) = stack.pop() {
            if let Some(u) = f.undo.take() {
                self.unplace(u, &mut logs);
            }
        }
        result
    }

    /// The placement of the last item left the unplaced items of `range` in independent
    /// groups between `cutpoints`: solves each on its own (MiniMalloc's dynamic
    /// decomposition), so a failure in one never re-enumerates another.
    fn decompose(
        &mut self,
        pre: &[usize],
        range: (usize, usize),
        cutpoints: &[usize],
        search: &mut Search,
        depth: usize,
    ) -> Option<Outcome> {
        let mut bounds = vec![range.0];
        bounds.extend_from_slice(cutpoints);
        bounds.push(range.1);
        let mut result = self.offset.clone();
        for w in bounds.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let group: Vec<usize> = pre
                .iter()
                .copied()
                .filter(|&j| self.offset[j] == NONE)
                .filter(|&j| self.sections[j].0 < hi && lo < self.sections[j].1)
                .collect();
            if group.is_empty() {
                continue;
            }
            let group = self.preorder(group, search.keys);
            match self.dfs(&group, (lo, hi), search, depth + 1)? {
                Outcome::Fits(o) => {
                    for &j in &group {
                        result[j] = o[j];
                    }
                }
                other => return Some(other),
            }
        }
        Some(Outcome::Fits(result))
    }

    /// The candidates of the next placement: unplaced items below the lowest top any
    /// of them reaches (dominance) and not before `last` (canonical order), by (min
    /// offset, rank). Only those are sorted, so a node costs one pass over `pre`.
    fn frame(&self, pre: &[usize], last: (Bytes, u32)) -> Frame {
        let unplaced = || {
            pre.iter()
                .enumerate()
                .filter(|&(_, &i)| self.offset[i] == NONE)
        };
        let min_height = unplaced()
            .map(|(_, &i)| self.min_offset[i] + self.items[i].size)
            .min();
        let mut order: Vec<(Bytes, u32)> = unplaced()
            .map(|(r, &i)| (self.min_offset[i], r as u32))
            .filter(|&c| c >= last && min_height.is_some_and(|h| c.0 < h))
            .collect();
        order.sort_unstable();
        Frame {
            order,
            next: 0,
            min_height: min_height.unwrap_or(NONE),
            last,
            undo: None,
            done: min_height.is_none(),
        }
    }

    /// Places item `i` at `at`: raises its unplaced neighbours' min offsets, takes its
    /// size out of its sections' totals and raises their floors.
    fn place(&mut self, i: usize, at: Bytes, logs: &mut Logs) -> Undo {
        let undo = Undo {
            item: i,
            offsets_mark: logs.offsets.len(),
            floors_mark: logs.floors.len(),
            hatless: true,
        };
        let mut hatless = true;
        self.offset[i] = at;
        let top = at + self.items[i].size;
        for &j in &self.overlaps[i] {
            let j = j as usize;
            if self.offset[j] != NONE {
                continue;
            }
            hatless = false;
            if self.min_offset[j] < top {
                logs.offsets.push((j as u32, self.min_offset[j]));
                self.min_offset[j] = top;
                self.affected.push(self.sections[j]);
            }
        }
        let (a, b) = self.sections[i];
        for c in &mut self.cuts[a..b.saturating_sub(1).max(a)] {
            *c -= 1;
        }
        for s in a..b {
            logs.floors.push((s as u32, self.floor[s]));
            self.floor[s] = top;
            self.total[s] -= self.items[i].size;
            // Swap `i` behind the unplaced members.
            let at = self.slot[i][s - a] as usize;
            let end = self.live[s] - 1;
            let k = self.members[s][end] as usize;
            self.members[s].swap(at, end);
            self.slot[k][s - self.sections[k].0] = at as u32;
            self.slot[i][s - a] = end as u32;
            self.live[s] = end;
        }
        // A section's floor is at least the lowest offset any of its unplaced items
        // can still take. One unplaced item at or below the floor settles it, so the
        // scan stops there (this loop is most of a node's time on large sets).
        self.affected.sort_unstable();
        let mut from = 0;
        let affected = std::mem::take(&mut self.affected);
        for s in affected.iter().flat_map(|&(a, b)| {
            let a = a.max(from);
            from = from.max(b);
            a..b
        }) {
            let floor = self.floor[s];
            let mut lowest = NONE;
            for &j in &self.members[s][..self.live[s]] {
                lowest = lowest.min(self.min_offset[j as usize]);
                if lowest <= floor {
                    break;
                }
            }
            if lowest != NONE && lowest > floor {
                logs.floors.push((s as u32, floor));
                self.floor[s] = lowest;
            }
        }
        self.affected = affected;
        self.affected.clear();
        Undo { hatless, ..undo }
    }

    fn unplace(&mut self, u: Undo, logs: &mut Logs) {
        for (j, v) in logs.offsets.drain(u.offsets_mark..).rev() {
            self.min_offset[j as usize] = v;
        }
        for (s, v) in logs.floors.drain(u.floors_mark..).rev() {
            self.floor[s as usize] = v;
        }
        let i = u.item;
        let (a, b) = self.sections[i];
        for c in &mut self.cuts[a..b.saturating_sub(1).max(a)] {
            *c += 1;
        }
        for t in &mut self.total[a..b] {
            *t += self.items[i].size;
        }
        for l in &mut self.live[a..b] {
            *l += 1;
        }
        self.offset[i] = NONE;
    }

    /// Section inference: every later item sits at or above `at` (canonical order) and
    /// above its section's floor, stacked over the sizes still to place there.
    fn consistent(&self, at: Bytes, range: (usize, usize)) -> bool {
        self.floor[range.0..range.1]
            .iter()
            .zip(&self.total[range.0..range.1])
            .all(|(&f, &t)| f.max(at) + t <= self.capacity)
    }
}
