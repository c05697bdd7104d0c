//! Exact search in the manner of MiniMalloc (Moffitt, ASPLOS 2023): decide whether
//! the buffers fit in a capacity by depth-first search over *canonical* placements,
//! where buffers are placed in non-decreasing offset order, each at its lowest offset
//! above the placed buffers it meets in time. Every placement can be pushed down into
//! a canonical one, so an exhausted search proves that none fits.
//!
//! Pruning: a buffer placed above the lowest top any other could reach would leave a
//! needless gap (dominance); and in every *section* (a time interval between two
//! consecutive lifetime bounds) the floor plus the sizes still to place there must fit
//! (section inference). Independent time ranges (no lifetime crosses the cut) are
//! solved separately. The search is iterative (no recursion: sets of thousands of
//! buffers would overflow a wasm stack) and round-robins three buffer orders with a
//! doubling node limit, as MiniMalloc does.

use super::bound::Item;
use super::clock::Timer;
use super::Budget;
use crate::model::Bytes;
use std::sync::atomic::Ordering;

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
}

impl Limits<'_> {
    fn exhausted(&self) -> bool {
        self.nodes >= self.stop_at || (self.nodes % 256 == 0 && self.out_of_time())
    }

    /// The whole run's budget is spent (nodes, time, or cancelled).
    pub(crate) fn out_of_time(&self) -> bool {
        self.nodes >= self.budget.max_nodes
            || self.timer.elapsed_ms() >= self.budget.millis
            || self
                .budget
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Time ranges no lifetime crosses: item indices per independent part.
fn partitions(items: &[Item]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..items.len()).collect();
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
    for part in partitions(items) {
        let sub: Vec<Item> = part.iter().map(|&i| items[i]).collect();
        match Part::new(&sub, capacity).solve(limits) {
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
const MAX_DEPTH: usize = 48;

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
    members: Vec<Vec<u32>>,
    /// Per boundary `b` (between sections `b` and `b + 1`): unplaced items crossing it.
    /// At zero, the items left on either side no longer interact.
    cuts: Vec<u32>,
    /// Sections to re-floor after a placement (deduplicated by `seen`).
    affected: Vec<u32>,
    seen: Vec<bool>,
    /// Per item: its lowest offset above placed neighbours, and its offset once placed.
    min_offset: Vec<Bytes>,
    offset: Vec<Bytes>,
}

/// Preorder keys, descending: the largest section total an item meets (T), its
/// section count (W), its area (A).
#[derive(Clone, Copy)]
enum Key {
    Total,
    Width,
    Area,
}

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
    undo: Option<(usize, usize, usize)>,
}

impl<'a> Part<'a> {
    fn new(items: &'a [Item], capacity: Bytes) -> Self {
        let mut points: Vec<u32> = items.iter().flat_map(|it| [it.lower, it.upper]).collect();
        points.sort_unstable();
        points.dedup();
        let sec = |t: u32| points.partition_point(|&p| p < t);
        let sections: Vec<(usize, usize)> = items
            .iter()
            .map(|it| (sec(it.lower), sec(it.upper)))
            .collect();
        let nsec = points.len().saturating_sub(1);
        let mut total = vec![0; nsec];
        let mut members = vec![Vec::new(); nsec];
        for (i, (it, &(a, b))) in items.iter().zip(&sections).enumerate() {
            for s in a..b {
                total[s] += it.size;
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
            for &j in &by_lower[k + 1..] {
                if items[j].lower >= items[i].upper {
                    break;
                }
                overlaps[i].push(j as u32);
                overlaps[j].push(i as u32);
            }
        }
        Part {
            items,
            capacity,
            sections,
            overlaps,
            floor: vec![0; nsec],
            total,
            members,
            cuts,
            affected: Vec::new(),
            seen: vec![false; nsec],
            min_offset: vec![0; items.len()],
            offset: vec![NONE; items.len()],
        }
    }

    fn preorder(&self, keys: [Key; 3]) -> Vec<usize> {
        let value = |i: usize, k: Key| -> u128 {
            let (a, b) = self.sections[i];
            let it = &self.items[i];
            match k {
                Key::Total => self.total[a..b].iter().copied().max().unwrap_or(0) as u128,
                Key::Width => (b - a) as u128,
                Key::Area => it.size as u128 * (it.upper - it.lower) as u128,
            }
        };
        let mut order: Vec<usize> = (0..self.items.len()).collect();
        order.sort_by(|&x, &y| {
            keys.iter()
                .map(|&k| value(y, k).cmp(&value(x, k)))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(x.cmp(&y))
        });
        order
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
                let pre = self.preorder(keys);
                let mut nodes = 0;
                let all = (0, self.floor.len());
                match self.dfs(&pre, all, node_limit, &mut nodes, limits, 0) {
                    Some(out) => return out,
                    None if limits.exhausted() => return Outcome::Undecided,
                    None => {}
                }
            }
        }
    }

    /// Searches placements of the unplaced items `pre` (in preorder), which live in the
    /// sections `range` and meet nothing else unplaced. `None` when the node limit ran
    /// out first. Leaves the state as it found it.
    fn dfs(
        &mut self,
        pre: &[usize],
        range: (usize, usize),
        node_limit: u64,
        nodes: &mut u64,
        limits: &mut Limits,
        depth: usize,
    ) -> Option<Outcome> {
        let mut offset_log: Vec<(u32, Bytes)> = Vec::new();
        let mut floor_log: Vec<(u32, Bytes)> = Vec::new();
        let root = self.frame(pre, (0, 0));
        let mut stack = vec![root];
        let result = 'search: loop {
            let Some(top) = stack.last_mut() else {
                break 'search Some(Outcome::Infeasible);
            };
            if let Some((i, olog, flog)) = top.undo.take() {
                self.unplace(i, olog, flog, &mut offset_log, &mut floor_log);
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
                if *nodes >= node_limit || limits.exhausted() {
                    break 'search None;
                }
                *nodes += 1;
                limits.nodes += 1;
                let i = pre[r as usize];
                let marks = (offset_log.len(), floor_log.len());
                self.place(i, at, &mut offset_log, &mut floor_log);
                if self.consistent(at, range) {
                    let (a, e) = self.sections[i];
                    let cutpoints: Vec<usize> = (a..e.saturating_sub(1))
                        .filter(|&b| self.cuts[b] == 0 && range.0 <= b && b + 1 < range.1)
                        .map(|b| b + 1)
                        .collect();
                    if !cutpoints.is_empty() && depth < MAX_DEPTH {
                        match self
                            .decompose(pre, range, &cutpoints, node_limit, nodes, limits, depth)
                        {
                            Some(Outcome::Infeasible) => {
                                self.unplace(i, marks.0, marks.1, &mut offset_log, &mut floor_log);
                                continue;
                            }
                            Some(Outcome::Fits(o)) => {
                                self.unplace(i, marks.0, marks.1, &mut offset_log, &mut floor_log);
                                break 'search Some(Outcome::Fits(o));
                            }
                            _ => {
                                self.unplace(i, marks.0, marks.1, &mut offset_log, &mut floor_log);
                                break 'search None;
                            }
                        }
                    }
                    top.undo = Some((i, marks.0, marks.1));
                    let child = self.frame(pre, (at, r));
                    if child.order.is_empty() {
                        let offsets = self.offset.clone();
                        break 'search Some(Outcome::Fits(offsets));
                    }
                    stack.push(child);
                    continue 'search;
                }
                self.unplace(i, marks.0, marks.1, &mut offset_log, &mut floor_log);
            }
            stack.pop();
        };
        // Leave the state clean for the next heuristic.
        while let Some(mut f) = stack.pop() {
            if let Some((i, olog, flog)) = f.undo.take() {
                self.unplace(i, olog, flog, &mut offset_log, &mut floor_log);
            }
        }
        result
    }

    /// The placement of the last item left the unplaced items of `range` in independent
    /// groups between `cutpoints`: solves each on its own (as MiniMalloc's dynamic
    /// decomposition does), so a failure in one never re-enumerates another.
    #[allow(clippy::too_many_arguments)]
    fn decompose(
        &mut self,
        pre: &[usize],
        range: (usize, usize),
        cutpoints: &[usize],
        node_limit: u64,
        nodes: &mut u64,
        limits: &mut Limits,
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
            match self.dfs(&group, (lo, hi), node_limit, nodes, limits, depth + 1)? {
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

    fn frame(&self, pre: &[usize], last: (Bytes, u32)) -> Frame {
        let mut order: Vec<(Bytes, u32)> = pre
            .iter()
            .enumerate()
            .filter(|&(_, &i)| self.offset[i] == NONE)
            .map(|(r, &i)| (self.min_offset[i], r as u32))
            .collect();
        order.sort_unstable();
        let min_height = order
            .iter()
            .map(|&(at, r)| at + self.items[pre[r as usize]].size)
            .min()
            .unwrap_or(NONE);
        Frame {
            order,
            next: 0,
            min_height,
            last,
            undo: None,
        }
    }

    fn place(
        &mut self,
        i: usize,
        at: Bytes,
        olog: &mut Vec<(u32, Bytes)>,
        flog: &mut Vec<(u32, Bytes)>,
    ) {
        self.offset[i] = at;
        let top = at + self.items[i].size;
        for &j in &self.overlaps[i] {
            let j = j as usize;
            if self.offset[j] == NONE && self.min_offset[j] < top {
                olog.push((j as u32, self.min_offset[j]));
                self.min_offset[j] = top;
                let (a, b) = self.sections[j];
                for s in a..b {
                    if !self.seen[s] {
                        self.seen[s] = true;
                        self.affected.push(s as u32);
                    }
                }
            }
        }
        let (a, b) = self.sections[i];
        for c in &mut self.cuts[a..b.saturating_sub(1).max(a)] {
            *c -= 1;
        }
        for s in a..b {
            flog.push((s as u32, self.floor[s]));
            self.floor[s] = top;
            self.total[s] -= self.items[i].size;
        }
        // A section's floor is at least the lowest offset any of its unplaced items
        // can still take.
        for k in 0..self.affected.len() {
            let s = self.affected[k] as usize;
            self.seen[s] = false;
            let lowest = self.members[s]
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| self.offset[j] == NONE)
                .map(|j| self.min_offset[j])
                .min();
            if let Some(m) = lowest.filter(|&m| m > self.floor[s]) {
                flog.push((s as u32, self.floor[s]));
                self.floor[s] = m;
            }
        }
        self.affected.clear();
    }

    fn unplace(
        &mut self,
        i: usize,
        omark: usize,
        fmark: usize,
        olog: &mut Vec<(u32, Bytes)>,
        flog: &mut Vec<(u32, Bytes)>,
    ) {
        for (j, v) in olog.drain(omark..).rev() {
            self.min_offset[j as usize] = v;
        }
        for (s, v) in flog.drain(fmark..).rev() {
            self.floor[s as usize] = v;
        }
        let (a, b) = self.sections[i];
        for c in &mut self.cuts[a..b.saturating_sub(1).max(a)] {
            *c += 1;
        }
        for t in &mut self.total[a..b] {
            *t += self.items[i].size;
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
