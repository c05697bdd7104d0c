//! The words shown about a plane (tooltip, pinned details) and about the plan (stats
//! panel). Byte counts travel as text as well as numbers: JS numbers lose precision
//! above 2^53 and the page must not do arithmetic on sizes.

use super::axis::{bytes_long, group_digits};
use super::chart::Chart;
use crate::model::{Bytes, Clock};
use crate::stats;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaneInfo {
    pub plane: usize,
    pub name: String,
    pub node: String,
    pub kind: String,
    pub output: usize,
    pub space: usize,
    pub component: String,
    /// Offset relative to the space, decimal and hex.
    pub offset: String,
    /// Absolute start of the contiguous part.
    pub address: String,
    pub size: String,
    pub stride: String,
    pub length: String,
    pub count: String,
    pub allocated: u32,
    /// The plane's last live clock (inclusive): replaced in its space, or the
    /// space's last live clock ([`crate::model::Plan::plane_last_lives`]).
    pub last_live: u32,
    /// Aidge's `released` (None = never released).
    pub released: Option<u32>,
    /// `contiguous [a, b) + wrapped [c, d)` when the plane wraps.
    pub wrap: Option<String>,
    pub findings: Vec<String>,
    /// The plane's fill colour (CSS), for a swatch beside its name.
    pub color: String,
}

/// In 128 bits: the end of a part whose size wrapped in `size_t` passes 2^64.
fn dec_hex(v: impl Into<u128>) -> String {
    let v = v.into();
    format!("{} (0x{v:X})", group_digits(v))
}

pub fn plane_info(chart: &Chart, plane: usize) -> Option<PlaneInfo> {
    let plan = &chart.plan();
    let p = plan.planes.get(plane)?;
    let space = plan.spaces.get(p.space)?;
    let step = plan.steps.get(p.node);
    // Only a flagged plane is named by a finding: the others skip the search.
    let findings = match chart.flagged(plane) {
        true => chart
            .report()
            .problems
            .iter()
            .filter(|pr| pr.planes.contains(&plane))
            .map(|pr| pr.to_string())
            .collect(),
        _ => Vec::new(),
    };
    Some(PlaneInfo {
        plane,
        name: chart.name(plane).into_owned(),
        node: chart.step_name(p.node).into_owned(),
        kind: step.map_or_else(String::new, |s| s.kind.clone()),
        output: p.index,
        space: p.space,
        component: plan
            .components
            .get(space.component)
            .map_or_else(|| "mem".into(), |c| c.name.clone()),
        offset: dec_hex(p.offset),
        address: dec_hex(p.cont_offset),
        size: bytes_long(p.size),
        stride: group_digits(p.stride),
        length: group_digits(p.length),
        count: group_digits(p.count),
        allocated: p.allocated,
        last_live: chart.last_live(plane),
        released: space.released,
        wrap: p.is_wrapped().then(|| {
            format!(
                "contiguous {}..{} + wrapped {}..{}",
                dec_hex(p.cont_offset),
                dec_hex(u128::from(p.cont_offset) + u128::from(p.cont_size)),
                dec_hex(p.wrap_offset),
                dec_hex(u128::from(p.wrap_offset) + u128::from(p.wrap_size)),
            )
        }),
        findings,
        color: super::palette::node(chart.color_key(plane)).css(),
    })
}

/// One buffer live at the peak clock.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LiveRow {
    pub plane: usize,
    pub name: String,
    pub size: String,
    /// This plane's top is the peak: it is what the arena must reach.
    pub sets_peak: bool,
}

/// Clocks listed where the address peak is reached, at most (the rest are counted).
const PEAK_CLOCKS: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneSummary {
    pub name: String,
    pub peak: String,
    pub peak_bytes: String,
    pub lower_bound: String,
    /// The first clocks at which a live plane's top reaches the peak (the address
    /// peak: what the arena must hold), in order, at most [`PEAK_CLOCKS`].
    pub peak_clocks: Vec<u32>,
    /// How many more such clocks there are.
    pub peak_clocks_more: usize,
    /// The clock of most live bytes (where the lower bound is met). Not where the peak
    /// is: a plan can top out later, where a hole left earlier pushes a plane up.
    pub busiest_clock: Option<u32>,
    /// The clock `live_at_peak` is at: of the clocks where a live plane tops the
    /// peak, the one with the most live bytes ([`fullest_peak_clock`]); the busiest
    /// clock when no plane is drawn at the peak.
    pub live_clock: Option<u32>,
    /// Spaces live at `live_clock`, the one setting the peak first, then largest
    /// first, each shown by its latest plane.
    pub live_at_peak: Vec<LiveRow>,
    /// Capacity of the component when the file states one (a MiniMalloc set's name,
    /// an Aidge component), and whether the peak fits in it.
    pub capacity: Option<String>,
    pub fits: Option<bool>,
    /// `peak - capacity` when over, or the room left when it fits.
    pub margin: Option<String>,
}

/// The parts of lane `lane` whose top is the lane's peak, in clock order.
fn peak_parts(chart: &Chart, lane: usize) -> impl Iterator<Item = &super::chart::Part> + '_ {
    let peak = chart.lanes()[lane].peak;
    chart
        .parts()
        .iter()
        .filter(move |q| q.lane == lane && q.a1 == peak)
}

/// The clock the panel lists what is live at, with the plane topping the peak then:
/// among the clocks where a live plane tops the peak, the one with the most live
/// bytes (the first of them). The first such clock can hold little: on a plan at its
/// bound, a 3 KiB buffer placed at the top from clock 0 sets the peak there, while
/// the arena is full at clock 117,760 (MiniMalloc's C set); at the fullest clock the
/// list shows what the arena must hold. Peak parts topping one byte never share a
/// clock in a valid plan, so this reads each run of live bytes about once.
fn fullest_peak_clock(chart: &Chart, lane: usize) -> Option<(Clock, usize)> {
    let runs = &chart.lanes()[lane].live;
    let live_at = |i: usize| runs.get(i).map_or(0, |r| r.1);
    let mut best: Option<(Bytes, Clock, usize)> = None;
    for q in peak_parts(chart, lane) {
        // The run holding t0 (none before the first run: nothing live), then every
        // run starting inside [t0, t1).
        let first = runs.partition_point(|r| r.0 <= q.t0);
        let at_t0 = first.checked_sub(1).map_or(0, live_at);
        let inside = runs[first..]
            .iter()
            .take_while(|r| u64::from(r.0) < q.t1)
            .map(|r| (r.1, r.0));
        for (bytes, t) in std::iter::once((at_t0, q.t0)).chain(inside) {
            let better = match best {
                None => true,
                Some((b, c, _)) => bytes > b || (bytes == b && t < c),
            };
            if better {
                best = Some((bytes, t, q.plane));
            }
        }
    }
    best.map(|(_, t, plane)| (t, plane))
}

fn lane_summary(chart: &Chart, lane: usize) -> LaneSummary {
    let l = &chart.lanes()[lane];
    let cs = chart.stats().components.get(l.component);
    let mut clocks: Vec<u32> = peak_parts(chart, lane).map(|q| q.t0).collect();
    clocks.dedup();
    let fullest = fullest_peak_clock(chart, lane);
    let top = fullest.map(|(_, plane)| plane);
    let at = fullest
        .map(|(t, _)| t)
        .or_else(|| cs.and_then(|c| c.peak_clock));
    let plan = &chart.plan();
    let mut live_at_peak: Vec<LiveRow> = at
        .map(|t| stats::live_at(plan, l.component, t))
        .unwrap_or_default()
        .iter()
        .filter_map(|s| {
            let sets_peak = top.is_some_and(|p| plan.planes[p].space == s.space);
            let plane = if sets_peak { top? } else { *s.planes.last()? };
            Some(LiveRow {
                plane,
                name: chart.name(plane).into_owned(),
                size: bytes_long(s.size),
                sets_peak,
            })
        })
        .collect();
    // Stable: the rest stay largest first.
    live_at_peak.sort_by_key(|r| !r.sets_peak);
    let capacity = l.capacity;
    let more = clocks.len().saturating_sub(PEAK_CLOCKS);
    clocks.truncate(PEAK_CLOCKS);
    LaneSummary {
        name: l.name.clone(),
        peak: bytes_long(l.peak),
        peak_bytes: l.peak.to_string(),
        lower_bound: bytes_long(l.lower_bound),
        peak_clocks: clocks,
        peak_clocks_more: more,
        busiest_clock: cs.and_then(|c| c.peak_clock),
        live_clock: at,
        live_at_peak,
        capacity: capacity.map(bytes_long),
        fits: capacity.map(|c| l.peak <= c),
        margin: capacity.map(|c| bytes_long(l.peak.abs_diff(c))),
    }
}

/// CSS pixels above an exported picture's lanes for its [`picture_title`].
pub const TITLE_BAND: f64 = 24.0;

/// The title an exported picture (the page's SVG and PNG, `memplan render`) carries:
/// the file and its peak, or its total over several memories.
pub fn picture_title(name: &str, chart: &Chart) -> String {
    let comps = &chart.stats().components;
    if comps.len() > 1 {
        let total = comps.iter().map(|c| c.peak).fold(0, Bytes::saturating_add);
        format!("{name} — {} in {} memories", bytes_long(total), comps.len())
    } else {
        format!("{name} — peak {}", bytes_long(chart.stats().peak))
    }
}

/// What the stats panel shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Exact peak in bytes, as digits (for tests and copy-paste).
    pub peak_bytes: String,
    pub peak: String,
    pub lower_bound: String,
    /// What `lower_bound` is called: "Lower bound", or "Layout bound" for a plan whose
    /// other layouts can need fewer bytes ([`Chart::bound_name`]).
    pub bound_name: &'static str,
    /// `lower bound / peak` as a percentage with one decimal.
    pub efficiency: String,
    pub planes: usize,
    pub spaces: usize,
    pub steps: usize,
    /// Steps without a clock of their own (producers: weights, inputs).
    pub producers: usize,
    pub clocks: u64,
    pub lanes: Vec<LaneSummary>,
    /// With several memories (XLA's allocations, ExecuTorch's `mem_id`s, IREE's
    /// packs): what they need together, the frameworks' own figures. None with one.
    pub memories: Option<Memories>,
    pub findings: Vec<Finding>,
    pub findings_omitted: usize,
}

/// The figures of a plan over several memories. `peak` above is only the largest
/// memory's; a framework reports the sum of its arenas (XLA's `Total bytes`,
/// ExecuTorch's and IREE's arena sizes) and, in XLA's live-range dump, the most
/// bytes live at once over all of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Memories {
    pub count: usize,
    /// Sum of the memories' peaks (what a framework allocates), digits and text.
    pub total_bytes: String,
    pub total: String,
    /// Sum of the memories' lower bounds: no placement memory by memory needs less.
    pub lower_bound: String,
    /// `lower_bound / total`.
    pub efficiency: String,
    /// Most bytes live at once over all memories, and the first clock it happens.
    pub live_peak_bytes: String,
    pub live_peak: String,
    pub live_peak_clock: Option<u32>,
    /// Spaces live then, over every memory, largest first.
    pub live_at_peak: Vec<LiveRow>,
    /// Every memory's peak equals its lower bound.
    pub all_at_bound: bool,
}

/// The clock at which the most bytes are live over all memories (the first such),
/// and that sum: the live runs of the memories merged.
fn live_peak(chart: &Chart) -> (Option<u32>, u64) {
    let runs: Vec<&[(u32, u64)]> = chart
        .stats()
        .components
        .iter()
        .map(|c| c.live.as_slice())
        .collect();
    let mut clocks: Vec<u32> = runs.iter().flat_map(|r| r.iter().map(|x| x.0)).collect();
    clocks.sort_unstable();
    clocks.dedup();
    let at = |r: &[(u32, u64)], t: u32| match r.partition_point(|x| x.0 <= t) {
        0 => 0,
        k => r[k - 1].1,
    };
    let mut best: (Option<u32>, u64) = (None, 0);
    for t in clocks {
        let sum: u64 = runs.iter().map(|r| at(r, t)).fold(0, u64::saturating_add);
        if sum > best.1 {
            best = (Some(t), sum);
        }
    }
    best
}

fn memories(chart: &Chart) -> Option<Memories> {
    let comps = &chart.stats().components;
    if comps.len() < 2 {
        return None;
    }
    let total = comps.iter().map(|c| c.peak).fold(0, Bytes::saturating_add);
    let lower_bound = comps
        .iter()
        .map(|c| c.lower_bound)
        .fold(0, Bytes::saturating_add);
    let (clock, live) = live_peak(chart);
    let plan = &chart.plan();
    let mut live_at_peak: Vec<(Bytes, LiveRow)> = clock
        .map(|t| {
            (0..comps.len())
                .flat_map(|c| stats::live_at(plan, c, t))
                .filter_map(|s| {
                    let plane = *s.planes.last()?;
                    Some((
                        s.size,
                        LiveRow {
                            plane,
                            name: chart.name(plane).into_owned(),
                            size: bytes_long(s.size),
                            sets_peak: false,
                        },
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    live_at_peak.sort_by_key(|r| std::cmp::Reverse(r.0));
    Some(Memories {
        count: comps.len(),
        total_bytes: total.to_string(),
        total: bytes_long(total),
        lower_bound: bytes_long(lower_bound),
        efficiency: format!(
            "{:.1}%",
            if total == 0 {
                100.0
            } else {
                lower_bound as f64 * 100.0 / total as f64
            }
        ),
        live_peak_bytes: live.to_string(),
        live_peak: bytes_long(live),
        live_peak_clock: clock,
        live_at_peak: live_at_peak.into_iter().map(|x| x.1).collect(),
        all_at_bound: comps.iter().all(|c| c.peak == c.lower_bound),
    })
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub text: String,
    pub planes: Vec<usize>,
}

pub fn summary(chart: &Chart) -> Summary {
    let s = &chart.stats();
    let lanes = (0..chart.lanes().len())
        .map(|i| lane_summary(chart, i))
        .collect();
    Summary {
        peak_bytes: s.peak.to_string(),
        peak: bytes_long(s.peak),
        lower_bound: bytes_long(s.lower_bound),
        bound_name: chart.bound_name(),
        efficiency: format!("{:.1}%", s.efficiency * 100.0),
        planes: s.planes,
        spaces: s.spaces,
        steps: s.steps,
        producers: chart
            .plan()
            .steps
            .iter()
            .filter(|t| t.clock.is_none())
            .count(),
        clocks: chart.horizon(),
        lanes,
        memories: memories(chart),
        findings: chart
            .report()
            .problems
            .iter()
            .map(|p| Finding {
                text: p.to_string(),
                planes: p.planes.clone(),
            })
            .collect(),
        findings_omitted: chart.report().omitted,
    }
}
