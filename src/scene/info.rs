//! The words shown about a plane (tooltip, pinned details) and about the plan (stats
//! panel). Byte counts travel as text as well as numbers: JS numbers lose precision
//! above 2^53 and the page must not do arithmetic on sizes.

use super::axis::{bytes_long, group_digits};
use super::chart::Chart;
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

fn dec_hex(v: u64) -> String {
    format!("{} (0x{v:X})", group_digits(v))
}

pub fn plane_info(chart: &Chart, plane: usize) -> Option<PlaneInfo> {
    let plan = &chart.plan;
    let p = plan.planes.get(plane)?;
    let space = plan.spaces.get(p.space)?;
    let step = plan.steps.get(p.node);
    let findings = chart
        .report
        .problems
        .iter()
        .filter(|pr| pr.planes.contains(&plane))
        .map(|pr| pr.to_string())
        .collect();
    Some(PlaneInfo {
        plane,
        name: chart.name(plane).into_owned(),
        node: step.map_or_else(String::new, |s| s.name.clone()),
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
        last_live: plan.plane_last_live(plane),
        released: space.released,
        wrap: p.is_wrapped().then(|| {
            format!(
                "contiguous {}..{} + wrapped {}..{}",
                dec_hex(p.cont_offset),
                dec_hex(p.cont_offset.saturating_add(p.cont_size)),
                dec_hex(p.wrap_offset),
                dec_hex(p.wrap_offset.saturating_add(p.wrap_size)),
            )
        }),
        findings,
        color: super::palette::node(p.node).css(),
    })
}

/// One buffer live at the peak clock.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LiveRow {
    pub plane: usize,
    pub name: String,
    pub size: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneSummary {
    pub name: String,
    pub peak: String,
    pub peak_bytes: String,
    pub lower_bound: String,
    pub peak_clock: Option<u32>,
    /// Spaces live at the peak clock, largest first, each shown by its latest plane.
    pub live_at_peak: Vec<LiveRow>,
}

/// What the stats panel shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Exact peak in bytes, as digits (for tests and copy-paste).
    pub peak_bytes: String,
    pub peak: String,
    pub lower_bound: String,
    /// `lower bound / peak` as a percentage with one decimal.
    pub efficiency: String,
    pub planes: usize,
    pub spaces: usize,
    pub steps: usize,
    pub clocks: u64,
    pub lanes: Vec<LaneSummary>,
    pub findings: Vec<Finding>,
    pub findings_omitted: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub text: String,
    pub planes: Vec<usize>,
}

pub fn summary(chart: &Chart) -> Summary {
    let s = &chart.stats;
    let lanes = chart
        .lanes
        .iter()
        .map(|lane| {
            let cs = s.components.get(lane.component);
            let live_at_peak = cs
                .map(|c| {
                    c.live_at_peak
                        .iter()
                        .filter_map(|l| {
                            let plane = *l.planes.last()?;
                            Some(LiveRow {
                                plane,
                                name: chart.name(plane).into_owned(),
                                size: bytes_long(l.size),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            LaneSummary {
                name: lane.name.clone(),
                peak: bytes_long(lane.peak),
                peak_bytes: lane.peak.to_string(),
                lower_bound: bytes_long(lane.lower_bound),
                peak_clock: cs.and_then(|c| c.peak_clock),
                live_at_peak,
            }
        })
        .collect();
    Summary {
        peak_bytes: s.peak.to_string(),
        peak: bytes_long(s.peak),
        lower_bound: bytes_long(s.lower_bound),
        efficiency: format!("{:.1}%", s.efficiency * 100.0),
        planes: s.planes,
        spaces: s.spaces,
        steps: s.steps,
        clocks: chart.horizon,
        lanes,
        findings: chart
            .report
            .problems
            .iter()
            .map(|p| Finding {
                text: p.to_string(),
                planes: p.planes.clone(),
            })
            .collect(),
        findings_omitted: chart.report.omitted,
    }
}
