//! Numbers about a plan: peak, lower bound, efficiency, and what is live when.
//!
//! The *lower bound* of a component is the largest, over clocks, of its *live bytes*:
//! the summed sizes of its spaces live at that clock (from `allocated` to
//! [`Space::last_live`](crate::model::Space::last_live)). Live spaces never overlap
//! in a valid plan, so no placement of these spaces can have a smaller peak.

use crate::model::{Bytes, Clock, Plan};
use serde::Serialize;

/// A space live at the peak clock, with its planes written by then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LiveSpace {
    pub space: usize,
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
    for s in plan.spaces.iter().filter(|s| s.component == component) {
        let last = s.last_live(plan.max_lifetime);
        if last < s.allocated {
            continue;
        }
        events.push((u64::from(s.allocated), true, s.size));
        events.push((u64::from(last) + 1, false, s.size));
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

/// Spaces of a component live at clock `t`, largest first, each with its planes
/// written by `t`.
pub fn live_at(plan: &Plan, component: usize, t: Clock) -> Vec<LiveSpace> {
    let mut live: Vec<LiveSpace> = plan
        .spaces
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.component == component && s.allocated <= t && t <= s.last_live(plan.max_lifetime)
        })
        .map(|(i, s)| LiveSpace {
            space: i,
            size: s.size,
            planes: Vec::new(),
        })
        .collect();
    live.sort_by(|a, b| b.size.cmp(&a.size).then(a.space.cmp(&b.space)));
    // Space → its row, so a plan of a million planes with thousands live is linear.
    let mut row = vec![usize::MAX; plan.spaces.len()];
    for (k, l) in live.iter().enumerate() {
        row[l.space] = k;
    }
    for (i, p) in plan.planes.iter().enumerate() {
        if p.allocated <= t {
            if let Some(l) = row.get(p.space).and_then(|&k| live.get_mut(k)) {
                l.planes.push(i);
            }
        }
    }
    live
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, BufferList};

    fn list(items: &[(u32, u32, u64, u64)]) -> Plan {
        let buffers = items
            .iter()
            .enumerate()
            .map(|(i, &(lower, upper, size, _))| Buffer::new(i.to_string(), lower, upper, size))
            .collect();
        let offsets: Vec<u64> = items.iter().map(|i| i.3).collect();
        BufferList {
            buffers,
            capacity: None,
        }
        .to_plan(&offsets)
    }

    #[test]
    fn lower_bound_is_the_busiest_clock() {
        // a [0,2) 4 bytes, b [1,3) 6 bytes, c [2,4) 5 bytes: clock 1 holds 10, clock 2 holds 11.
        let plan = list(&[(0, 2, 4, 0), (1, 3, 6, 4), (2, 4, 5, 10)]);
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
    fn empty_plan_is_fully_efficient() {
        let s = stats(&Plan::default());
        assert_eq!((s.peak, s.lower_bound, s.efficiency), (0, 0, 1.0));
    }
}
