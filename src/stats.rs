//! Numbers about a plan: peak, lower bound, efficiency, and what is live when.
//!
//! The *live bytes* of a space at a clock are the bytes its live planes occupy there
//! (the union of their contiguous and wrapped parts; planes live as the checker says,
//! [`Plan::plane_last_lives`]): a wrap-around space that a narrower plane has replaced
//! holds fewer bytes than its size. The *lower bound* of a component is the largest,
//! over clocks, of the summed live bytes of its spaces. Live planes of different
//! spaces never overlap in a valid plan, so no placement of these spaces (each moved
//! as a whole, its planes with it) can have a smaller peak. It can be below what
//! placing spaces as rectangles (`strategies`, whose `proven_optimal` is about that
//! problem) can reach; `best` also places spaces by their live planes
//! (`strategies::shapes`), which can reach it.

use crate::model::{Bytes, Clock, Plan};
use serde::Serialize;

/// A space holding data at the peak clock, with the planes live then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LiveSpace {
    pub space: usize,
    /// Its live bytes at that clock (its size unless a plane was replaced by a
    /// narrower one).
    pub size: Bytes,
    pub planes: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComponentStats {
    pub name: String,
    /// Max over the component's spaces of `offset + size`.
    pub peak: Bytes,
    pub lower_bound: Bytes,
    /// First clock whose live bytes equal the lower bound (none without spaces).
    pub peak_clock: Option<Clock>,
    /// The spaces live at `peak_clock`, largest first.
    pub live_at_peak: Vec<LiveSpace>,
    /// Live bytes per clock as [`live_runs`], the runs the lower bound is the max of.
    /// Kept for the chart's live strip, so it is not computed twice; not in the JSON
    /// (a MiniMalloc set has a million clocks).
    #[serde(skip)]
    pub live: Vec<(Clock, Bytes)>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stats {
    /// The plan's peak: the largest component peak (the arena with one component).
    pub peak: Bytes,
    /// The largest component lower bound.
    pub lower_bound: Bytes,
    /// `lower_bound / peak` (1 for an empty plan): 1 means nothing to gain by moving
    /// spaces.
    pub efficiency: f64,
    pub planes: usize,
    pub spaces: usize,
    pub steps: usize,
    pub max_lifetime: Clock,
    pub components: Vec<ComponentStats>,
}

/// Clock-ordered changes of a component's live bytes: `(clock, bytes live from this
/// clock on)`, one entry per clock where the value changes. Compact for long
/// horizons (MiniMalloc sets span a million clocks).
pub fn live_runs(plan: &Plan, component: usize) -> Vec<(Clock, Bytes)> {
    let mut events: Vec<(u64, bool, Bytes)> = Vec::new();
    let lives = plan.plane_last_lives();
    let (start, order) = plan.planes_by_space();
    for (space, s) in plan.spaces.iter().enumerate() {
        if s.component != component {
            continue;
        }
        let planes = &order[start[space]..start[space + 1]];
        for (from, to, bytes) in space_runs(plan, planes, &lives) {
            events.push((u64::from(from), true, bytes));
            events.push((u64::from(to) + 1, false, bytes));
        }
    }
    events.sort_unstable();
    let mut runs: Vec<(Clock, Bytes)> = Vec::new();
    let mut live: u128 = 0;
    for group in events.chunk_by(|a, b| a.0 == b.0) {
        for &(_, add, size) in group {
            if add {
                live += u128::from(size);
            } else {
                live -= u128::from(size);
            }
        }
        let bytes = Bytes::try_from(live).unwrap_or(Bytes::MAX);
        let clock = Clock::try_from(group[0].0).unwrap_or(Clock::MAX);
        if runs.last().map_or(true, |&(_, b)| b != bytes) {
            runs.push((clock, bytes));
        }
    }
    runs
}

/// Bytes of their space covered by the contiguous and wrapped parts of `planes` (all
/// of one space). A part is cut at its space's bounds: a broken plan's part that leaves
/// its space (auto-concat's sizes wrapped past 2^64) is `check`'s finding, not live
/// bytes of this space, and counting it would put the bound at 2^64.
fn covered(plan: &Plan, planes: &[usize]) -> Bytes {
    let space = planes
        .first()
        .and_then(|&i| plan.spaces.get(plan.planes[i].space));
    let (lo, hi) = space.map_or((0, Bytes::MAX), |s| {
        (s.offset, s.offset.saturating_add(s.size))
    });
    let mut parts: Vec<(Bytes, Bytes)> = Vec::with_capacity(planes.len() * 2);
    for &i in planes {
        let p = &plan.planes[i];
        for (o, z) in [(p.cont_offset, p.cont_size), (p.wrap_offset, p.wrap_size)] {
            let (a, b) = (o.max(lo), o.saturating_add(z).min(hi));
            if b > a {
                parts.push((a, b));
            }
        }
    }
    parts.sort_unstable();
    let (mut total, mut reach) = (0u64, 0u64);
    for (a, b) in parts {
        let a = a.max(reach);
        if b > a {
            total = total.saturating_add(b - a);
            reach = b;
        }
    }
    total
}

/// The live bytes of a space whose live planes are `planes` (all of one space): the
/// union of their parts inside the space.
pub fn space_bytes(plan: &Plan, planes: &[usize]) -> Bytes {
    covered(plan, planes)
}

/// A space's live bytes as `(from, to, bytes)` runs over closed clock ranges: between
/// consecutive clocks where a plane of it is written or ends, the union of its live
/// planes. Quadratic in the planes of one space (a few in Aidge plans, one in
/// buffer lists).
fn space_runs(plan: &Plan, planes: &[usize], lives: &[Clock]) -> Vec<(Clock, Clock, Bytes)> {
    let mut cuts: Vec<u64> = Vec::with_capacity(planes.len() * 2);
    for &i in planes {
        let (from, to) = (plan.planes[i].allocated, lives[i]);
        if to >= from {
            cuts.push(u64::from(from));
            cuts.push(u64::from(to) + 1);
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut runs = Vec::new();
    for w in cuts.windows(2) {
        let t = Clock::try_from(w[0]).unwrap_or(Clock::MAX);
        let (bytes, _) = space_at(plan, planes, lives, t);
        if bytes > 0 {
            let to = Clock::try_from(w[1] - 1).unwrap_or(Clock::MAX);
            runs.push((t, to, bytes));
        }
    }
    runs
}

/// Live bytes at clock `t` of a space with `planes`, and its planes live then.
fn space_at(plan: &Plan, planes: &[usize], lives: &[Clock], t: Clock) -> (Bytes, Vec<usize>) {
    let live: Vec<usize> = planes
        .iter()
        .copied()
        .filter(|&i| plan.planes[i].allocated <= t && t <= lives[i])
        .collect();
    (covered(plan, &live), live)
}

/// Live bytes of a component at every clock `0..=max_lifetime` (the viewer's strip).
pub fn live_bytes(plan: &Plan, component: usize) -> Vec<Bytes> {
    let horizon = plan.max_lifetime as usize + 1;
    let mut out = vec![0; horizon];
    let runs = live_runs(plan, component);
    for (k, &(from, bytes)) in runs.iter().enumerate() {
        let to = runs
            .get(k + 1)
            .map_or(horizon, |r| (r.0 as usize).min(horizon));
        if let Some(slice) = out.get_mut((from as usize).min(horizon)..to) {
            slice.fill(bytes);
        }
    }
    out
}

/// All the numbers of the module comment.
pub fn stats(plan: &Plan) -> Stats {
    let peaks = plan.peaks();
    let components: Vec<ComponentStats> = peaks
        .iter()
        .enumerate()
        .map(|(c, &peak)| {
            let runs = live_runs(plan, c);
            let best = runs
                .iter()
                .copied()
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
            let (peak_clock, lower_bound) = best.map_or((None, 0), |(t, b)| (Some(t), b));
            let live_at_peak = peak_clock.map_or_else(Vec::new, |t| live_at(plan, c, t));
            let name = plan
                .components
                .get(c)
                .map_or_else(|| "mem".into(), |x| x.name.clone());
            ComponentStats {
                name,
                peak,
                lower_bound,
                peak_clock,
                live_at_peak,
                live: runs,
            }
        })
        .collect();
    let peak = plan.peak();
    let lower_bound = components.iter().map(|c| c.lower_bound).max().unwrap_or(0);
    Stats {
        peak,
        lower_bound,
        efficiency: if peak == 0 {
            1.0
        } else {
            lower_bound as f64 / peak as f64
        },
        planes: plan.planes.len(),
        spaces: plan.spaces.len(),
        steps: plan.steps.len(),
        max_lifetime: plan.max_lifetime,
        components,
    }
}

impl Stats {
    /// These stats with their bounds lowered to `floor`, a bound over more plans than
    /// this one's layout (`planning::BoundScope::Layouts`: the lowest bound of every
    /// layout memplan makes of a schedule, which `best` can reach below this plan's
    /// own). A component's bound becomes the lower of its own and `floor`, and the
    /// efficiency is measured against it: a bound that `best` beats is no floor.
    pub fn floored(mut self, floor: Bytes) -> Stats {
        for c in &mut self.components {
            c.lower_bound = c.lower_bound.min(floor);
        }
        self.lower_bound = self.lower_bound.min(floor);
        self.efficiency = if self.peak == 0 {
            1.0
        } else {
            self.lower_bound as f64 / self.peak as f64
        };
        self
    }
}

/// Spaces of a component holding data at clock `t`, most live bytes first, each with
/// its live bytes then and its planes live then.
pub fn live_at(plan: &Plan, component: usize, t: Clock) -> Vec<LiveSpace> {
    let lives = plan.plane_last_lives();
    let (start, order) = plan.planes_by_space();
    let mut live: Vec<LiveSpace> = (0..plan.spaces.len())
        .filter(|&s| plan.spaces[s].component == component)
        .filter_map(|s| {
            let planes = &order[start[s]..start[s + 1]];
            let (size, planes) = space_at(plan, planes, &lives, t);
            (!planes.is_empty()).then_some(LiveSpace {
                space: s,
                size,
                planes,
            })
        })
        .collect();
    live.sort_by(|a, b| b.size.cmp(&a.size).then(a.space.cmp(&b.space)));
    live
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_bound_is_the_busiest_clock() {
        // a [0,2) 4 bytes, b [1,3) 6 bytes, c [2,4) 5 bytes: clock 1 holds 10, clock 2 holds 11.
        let plan = Plan::of_buffers(&[(0, 2, 4, 0), (1, 3, 6, 4), (2, 4, 5, 10)]);
        let s = stats(&plan);
        assert_eq!((s.peak, s.lower_bound), (15, 11));
        assert_eq!(s.components[0].peak_clock, Some(2));
        let at: Vec<usize> = s.components[0]
            .live_at_peak
            .iter()
            .map(|l| l.space)
            .collect();
        assert_eq!(at, vec![1, 2]);
        assert_eq!(live_bytes(&plan, 0), vec![4, 10, 11, 5]);
        assert!((s.efficiency - 11.0 / 15.0).abs() < 1e-12);
    }

    #[test]
    fn a_replaced_plane_stops_counting_after_its_replacement() {
        // Space 0 ([0, 8), clocks 0..=5) holds `a` ([0, 8), written at 0) until its
        // reader writes `b` over [0, 4) at clock 2; space 1 reuses [4, 8) from 3 on.
        let mut plan = Plan::of_buffers(&[(0, 6, 8, 0), (3, 6, 4, 4)]);
        let mut b = plan.planes[0].clone();
        (b.allocated, b.size, b.stride, b.cont_size) = (2, 4, 4, 4);
        plan.planes.push(b);
        assert!(crate::check::check(&plan).is_valid());
        let s = stats(&plan);
        // The rule of whole spaces would say 12 at clocks 3..=5, above the peak.
        assert_eq!((s.peak, s.lower_bound), (8, 8));
        assert_eq!(live_bytes(&plan, 0), vec![8, 8, 8, 8, 8, 8]);
        let at: Vec<(usize, Bytes, Vec<usize>)> = live_at(&plan, 0, 2)
            .into_iter()
            .map(|l| (l.space, l.size, l.planes))
            .collect();
        assert_eq!(at, vec![(0, 8, vec![0, 2])]);
        let at: Vec<(usize, Bytes)> = live_at(&plan, 0, 3)
            .iter()
            .map(|l| (l.space, l.size))
            .collect();
        assert_eq!(at, vec![(0, 4), (1, 4)]);
    }

    #[test]
    fn empty_plan_is_fully_efficient() {
        let s = stats(&Plan::default());
        assert_eq!((s.peak, s.lower_bound, s.efficiency), (0, 0, 1.0));
    }
}
