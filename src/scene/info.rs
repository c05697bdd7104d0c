//! The words shown about a plane (tooltip, pinned details) and about the plan (stats
//! panel). Byte counts travel as text as well as numbers: JS numbers lose precision
//! above 2^53 and the page must not do arithmetic on sizes.

use super::axis::{bytes_long, bytes_short, group_digits};
use super::chart::Chart;
use crate::formats::words::Words;
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
    /// Its details as the tooltip and the pinned panel list them, in the words of
    /// the file's format: its writer, what the file tells of its tensor (index, shape,
    /// type, module, source), where and when it lives.
    pub rows: Vec<Row>,
}

/// One line of a plane's details: what, and its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub label: &'static str,
    pub value: String,
}

/// In 128 bits: the end of a part whose size wrapped in `size_t` passes 2^64.
fn dec_hex(v: impl Into<u128>) -> String {
    let v = v.into();
    format!("{} (0x{v:X})", group_digits(v))
}

/// `1 × 96 × 96 × 8` (`?` for a dimension unknown until run time), `scalar`.
fn shape_text(dims: &[i64]) -> String {
    if dims.is_empty() {
        return "scalar".into();
    }
    let dims: Vec<String> = dims
        .iter()
        .map(|&d| match d {
            d if d < 0 => "?".to_owned(),
            d => group_digits(d),
        })
        .collect();
    dims.join(" × ")
}

/// The writer of step `step`, as its details name it: `conv1 (Conv)`.
pub fn step_text(chart: &Chart, step: usize) -> String {
    let name = chart.step_name(step);
    match chart.plan().steps.get(step).map(|s| s.kind.as_str()) {
        Some(kind) if !kind.is_empty() && kind != name => format!("{name} ({kind})"),
        _ => name.into_owned(),
    }
}

pub fn plane_info(chart: &Chart, plane: usize) -> Option<PlaneInfo> {
    let plan = &chart.plan();
    let p = plan.planes.get(plane)?;
    let space = plan.spaces.get(p.space)?;
    let step = plan.steps.get(p.node);
    // Only a flagged plane is named by a finding: the others skip the search.
    let findings: Vec<String> = match chart.flagged(plane) {
        true => chart
            .report()
            .problems
            .iter()
            .filter(|pr| pr.planes.contains(&plane))
            .map(|pr| pr.to_string())
            .collect(),
        _ => Vec::new(),
    };
    let component = plan
        .components
        .get(space.component)
        .map_or_else(|| "mem".into(), |c| c.name.clone());
    let w = chart.words();
    let last_live = chart.last_live(plane);
    let mut rows = Vec::new();
    let mut row = |label: &'static str, value: String| rows.push(Row { label, value });
    if let (Some(writer), Some(_)) = (w.node, step) {
        row(writer, step_text(chart, p.node));
    }
    if w.geometry {
        row("output", p.index.to_string());
    }
    if let Some(t) = p.tensor.as_deref() {
        if let Some(i) = t.index {
            row("tensor", format!("#{i}"));
        }
        if let Some(dims) = &t.shape {
            row("shape", shape_text(dims));
        }
        if let Some(d) = &t.dtype {
            row("type", d.clone());
        }
        if let Some(m) = &t.module {
            row("module", m.clone());
        }
        if let Some(src) = &t.source {
            row("source", src.clone());
        }
    }
    // Aidge's offset is in its space; the frameworks' in their memory.
    if w.geometry {
        row("offset", dec_hex(p.offset));
        row("address", dec_hex(p.cont_offset));
    } else {
        row("offset", dec_hex(p.cont_offset));
    }
    row("size", bytes_long(p.size));
    if w.geometry {
        row(
            "stride × length × count",
            format!(
                "{} × {} × {}",
                group_digits(p.stride),
                group_digits(p.length),
                group_digits(p.count)
            ),
        );
    }
    let never = if w.geometry && space.released.is_none() {
        " (never released)"
    } else {
        ""
    };
    row("live", format!("{} → {last_live}{never}", p.allocated));
    if w.geometry {
        row("space", format!("{} in {component}", p.space));
    } else if chart.lanes().len() > 1 {
        row(w.memory, component.clone());
    }
    let wrap = p.is_wrapped().then(|| {
        format!(
            "contiguous {}..{} + wrapped {}..{}",
            dec_hex(p.cont_offset),
            dec_hex(u128::from(p.cont_offset) + u128::from(p.cont_size)),
            dec_hex(p.wrap_offset),
            dec_hex(u128::from(p.wrap_offset) + u128::from(p.wrap_size)),
        )
    });
    if let Some(wrap) = &wrap {
        row("wrapped", wrap.clone());
    }
    for f in &findings {
        row("problem", f.clone());
    }
    Some(PlaneInfo {
        plane,
        name: chart.name(plane).into_owned(),
        node: chart.step_name(p.node).into_owned(),
        kind: step.map_or_else(String::new, |s| s.kind.clone()),
        output: p.index,
        space: p.space,
        component,
        offset: dec_hex(p.offset),
        address: dec_hex(p.cont_offset),
        size: bytes_long(p.size),
        allocated: p.allocated,
        last_live,
        released: space.released,
        wrap,
        findings,
        color: super::palette::node(chart.color_key(plane)).css(),
        rows,
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

impl LiveRow {
    /// The row of `plane` (its name in `chart`) holding `bytes`.
    fn of(chart: &Chart, plane: usize, bytes: Bytes, sets_peak: bool) -> LiveRow {
        LiveRow {
            plane,
            name: chart.name(plane).into_owned(),
            size: bytes_long(bytes),
            sets_peak,
        }
    }
}

/// Spans of clocks listed where the address peak is held, at most (the rest are
/// counted).
const PEAK_SPANS: usize = 8;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneSummary {
    pub name: String,
    pub peak: String,
    pub peak_bytes: String,
    pub lower_bound: String,
    /// The most bytes live at once in this plan (at `busiest_clock`): its layout's own
    /// bound, above `lower_bound` when that is the bound over every layout of a schedule.
    pub most_live: String,
    /// The spans of clocks `[first, last]` (inclusive) at which a live plane's top is
    /// the peak (the address peak: what the arena must hold), in order, at most
    /// [`PEAK_SPANS`]. The clock `live_at_peak` is listed at lies in one of them.
    pub peak_spans: Vec<[u32; 2]>,
    /// How many more such spans there are.
    pub peak_spans_more: usize,
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
    /// Their bytes by the operator type of their writers, most first.
    pub by_kind: Vec<KindRow>,
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

/// The clock spans `[first, last]` where lane `lane`'s parts top its peak, merged.
fn peak_spans(chart: &Chart, lane: usize) -> Vec<[u32; 2]> {
    let mut spans: Vec<[u32; 2]> = peak_parts(chart, lane)
        .map(|q| {
            let last = Clock::try_from(q.t1.saturating_sub(1)).unwrap_or(Clock::MAX);
            [q.t0, last.max(q.t0)]
        })
        .collect();
    spans.sort_unstable();
    let mut merged: Vec<[u32; 2]> = Vec::with_capacity(spans.len());
    for s in spans {
        match merged.last_mut() {
            Some(m) if s[0] <= m[1].saturating_add(1) => m[1] = m[1].max(s[1]),
            _ => merged.push(s),
        }
    }
    merged
}

fn lane_summary(chart: &Chart, lane: usize) -> LaneSummary {
    let l = &chart.lanes()[lane];
    let cs = chart.stats().components.get(l.component);
    let mut spans = peak_spans(chart, lane);
    let fullest = fullest_peak_clock(chart, lane);
    let top = fullest.map(|(_, plane)| plane);
    let at = fullest
        .map(|(t, _)| t)
        .or_else(|| cs.and_then(|c| c.peak_clock));
    let plan = &chart.plan();
    let mut live: Vec<(Bytes, LiveRow)> = at
        .map(|t| stats::live_at(plan, l.component, t))
        .unwrap_or_default()
        .iter()
        .filter_map(|s| {
            let sets_peak = top.is_some_and(|p| plan.planes[p].space == s.space);
            let plane = if sets_peak { top? } else { *s.planes.last()? };
            Some((s.size, LiveRow::of(chart, plane, s.size, sets_peak)))
        })
        .collect();
    // Stable: the rest stay largest first.
    live.sort_by_key(|r| !r.1.sets_peak);
    let by_kind = by_kind(chart, live.iter().map(|(b, r)| (r.plane, *b)));
    let live_at_peak = live.into_iter().map(|r| r.1).collect();
    let capacity = l.capacity;
    let more = spans.len().saturating_sub(PEAK_SPANS);
    spans.truncate(PEAK_SPANS);
    LaneSummary {
        name: l.name.clone(),
        peak: bytes_long(l.peak),
        peak_bytes: l.peak.to_string(),
        lower_bound: bytes_long(l.lower_bound),
        most_live: bytes_long(l.max_live),
        peak_spans: spans,
        peak_spans_more: more,
        busiest_clock: cs.and_then(|c| c.peak_clock),
        live_clock: at,
        live_at_peak,
        by_kind,
        capacity: capacity.map(bytes_long),
        fits: capacity.map(|c| l.peak <= c),
        margin: capacity.map(|c| bytes_long(l.peak.abs_diff(c))),
    }
}

/// Live bytes of one operator type (the `kind` of the writers' steps).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindRow {
    pub kind: String,
    pub bytes: String,
    /// Its share of the bytes listed, in percent (one decimal), and as a number for a bar.
    pub share: String,
    pub percent: f64,
    /// How many buffers (spaces) of that type.
    pub count: usize,
}

/// Live bytes by the operator type of their writers, most first: `(plane shown,
/// bytes)` of each live space. Empty when no writer has a type (a buffer list).
fn by_kind(chart: &Chart, live: impl Iterator<Item = (usize, Bytes)>) -> Vec<KindRow> {
    let plan = chart.plan();
    let mut sums: std::collections::HashMap<&str, (u128, usize)> = Default::default();
    let mut total: u128 = 0;
    let mut typed = false;
    for (plane, bytes) in live {
        let kind = plan
            .planes
            .get(plane)
            .and_then(|p| plan.steps.get(p.node))
            .map_or("", |s| s.kind.as_str());
        typed |= !kind.is_empty();
        let e = sums.entry(kind).or_default();
        e.0 += u128::from(bytes);
        e.1 += 1;
        total += u128::from(bytes);
    }
    if !typed {
        return Vec::new();
    }
    let mut rows: Vec<(&str, u128, usize)> = sums.into_iter().map(|(k, v)| (k, v.0, v.1)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    rows.into_iter()
        .map(|(kind, bytes, count)| {
            let percent = if total == 0 {
                0.0
            } else {
                bytes as f64 * 100.0 / total as f64
            };
            KindRow {
                kind: match kind {
                    "" => "(no type)".to_owned(),
                    k => k.to_owned(),
                },
                bytes: bytes_short(Bytes::try_from(bytes).unwrap_or(Bytes::MAX)),
                share: format!("{percent:.1} %"),
                percent,
                count,
            }
        })
        .collect()
}

/// Rows listed at most by [`live_at`] (the rest are counted; their bytes are in the
/// total and the breakdown).
pub const LIVE_ROWS: usize = 200;

/// What is live at one clock, over every memory.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LiveAt {
    pub clock: u32,
    /// What runs then (`conv1 (Conv)`), in the words' `step`, when a step has the clock.
    pub step: Option<String>,
    /// Bytes live then over every memory, as text and digits.
    pub bytes: String,
    pub bytes_digits: String,
    /// Spaces live then, largest first, each shown by its plane that tops its lane's
    /// peak then (`sets_peak`) or else its latest live plane; at most [`LIVE_ROWS`].
    pub rows: Vec<LiveRow>,
    /// Live spaces not in `rows`.
    pub more: usize,
    pub by_kind: Vec<KindRow>,
}

/// What is live at clock `t` (clamped to the plan's clocks): the parts live then
/// (found through the clock index, so a click on a big plan visits what is live),
/// their spaces' live bytes, and the breakdown by operator type.
pub fn live_at(chart: &Chart, t: Clock) -> LiveAt {
    let last = Clock::try_from(chart.horizon().saturating_sub(1)).unwrap_or(Clock::MAX);
    let t = t.min(last);
    let plan = chart.plan();
    let at = f64::from(t);
    // (space, plane, tops its lane's peak) of every part live at t.
    let mut live: Vec<(usize, usize, bool)> = chart
        .lod_index()
        .visible(chart.parts(), at, at + 1.0)
        .map(|k| &chart.parts()[k])
        .filter(|q| q.t0 <= t && u64::from(t) < q.t1)
        .map(|q| {
            let top = q.a1 == chart.lanes()[q.lane].peak;
            (plan.planes[q.plane].space, q.plane, top)
        })
        .collect();
    live.sort_unstable();
    live.dedup_by_key(|x| (x.0, x.1));
    let mut spaces: Vec<(Bytes, LiveRow)> = live
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| {
            let planes: Vec<usize> = group.iter().map(|x| x.1).collect();
            let top = group.iter().find(|x| x.2).map(|x| x.1);
            let plane = top.unwrap_or(planes[planes.len() - 1]);
            let bytes = stats::space_bytes(plan, &planes);
            (bytes, LiveRow::of(chart, plane, bytes, top.is_some()))
        })
        .collect();
    spaces.sort_by(|a, b| (b.1.sets_peak, b.0, a.1.plane).cmp(&(a.1.sets_peak, a.0, b.1.plane)));
    let total = spaces.iter().map(|s| s.0).fold(0, Bytes::saturating_add);
    let by_kind = by_kind(chart, spaces.iter().map(|(b, r)| (r.plane, *b)));
    let more = spaces.len().saturating_sub(LIVE_ROWS);
    spaces.truncate(LIVE_ROWS);
    LiveAt {
        clock: t,
        step: chart
            .words()
            .node
            .and_then(|_| chart.step_at(t))
            .map(|s| step_text(chart, s)),
        bytes: bytes_long(total),
        bytes_digits: total.to_string(),
        rows: spaces.into_iter().map(|s| s.1).collect(),
        more,
        by_kind,
    }
}

/// The columns of [`table`]: their keys, in order.
pub const COLUMNS: [&str; 6] = ["name", "node", "size", "from", "to", "address"];

/// Every plane, one row each, sorted by a column: the page's table of buffers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Planes in the plan (rows beyond `rows` are counted here).
    pub total: usize,
    /// The column sorted by and its direction.
    pub sort: &'static str,
    pub descending: bool,
    /// `(key, header)` of each column shown, in the words of the file's format
    /// (a buffer list has no node column).
    pub columns: Vec<(&'static str, &'static str)>,
    pub rows: Vec<TableRow>,
}

/// One plane of the [`Table`]: its cells, in the order of its columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRow {
    pub plane: usize,
    pub cells: Vec<String>,
}

/// `a` before `b` with their runs of digits compared as numbers (`id=2` < `id=10`).
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, _) => return std::cmp::Ordering::Less,
            (_, None) => return std::cmp::Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let run = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (run(a), run(b));
                let (da, db) = (&a[..na], &b[..nb]);
                // Without leading zeros, a longer run is a larger number.
                let trim = |d: &[u8]| {
                    let z = d.iter().take_while(|&&c| c == b'0').count();
                    d[z..].to_vec()
                };
                let (ta, tb) = (trim(da), trim(db));
                let o = ta.len().cmp(&tb.len()).then(ta.cmp(&tb));
                if o.is_ne() {
                    return o;
                }
                (a, b) = (&a[na..], &b[nb..]);
            }
            (Some(x), Some(y)) => {
                let o = x.to_ascii_lowercase().cmp(&y.to_ascii_lowercase());
                if o.is_ne() {
                    return o;
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

/// The first `limit` planes sorted by column `sort` (a key of [`COLUMNS`]; anything
/// else sorts by size), descending or not; ties in plane order. Only the rows shown
/// are sorted (a selection first), so a million planes cost a pass, not a sort.
pub fn table(chart: &Chart, sort: &str, descending: bool, limit: usize) -> Table {
    let plan = chart.plan();
    let w = chart.words();
    let sort = COLUMNS
        .into_iter()
        .find(|&c| c == sort && (c != "node" || w.node.is_some()))
        .unwrap_or("size");
    let step_of = |i: usize| plan.planes[i].node;
    let kind_of = |i: usize| plan.steps.get(step_of(i)).map_or("", |s| s.kind.as_str());
    let key = |a: usize, b: usize| -> std::cmp::Ordering {
        let (pa, pb) = (&plan.planes[a], &plan.planes[b]);
        match sort {
            "name" => natural(&chart.name(a), &chart.name(b)),
            "node" => kind_of(a)
                .cmp(kind_of(b))
                .then_with(|| natural(&chart.step_name(step_of(a)), &chart.step_name(step_of(b)))),
            "from" => pa.allocated.cmp(&pb.allocated),
            "to" => chart.last_live(a).cmp(&chart.last_live(b)),
            "address" => pa.cont_offset.cmp(&pb.cont_offset),
            _ => pa.size.cmp(&pb.size),
        }
    };
    let cmp = |a: &u32, b: &u32| {
        let (a, b) = (*a as usize, *b as usize);
        let o = if descending { key(b, a) } else { key(a, b) };
        o.then(a.cmp(&b))
    };
    let n = plan.planes.len();
    let mut order: Vec<u32> = (0..n as u32).collect();
    let k = limit.min(n);
    if k > 0 && k < n {
        order.select_nth_unstable_by(k - 1, cmp);
    }
    order.truncate(k);
    order.sort_unstable_by(cmp);
    let mut columns = vec![("name", w.plane)];
    if let Some(step) = w.node {
        columns.push(("node", step));
    }
    let offset = if w.geometry { "address" } else { "offset" };
    columns.extend([
        ("size", "size"),
        ("from", "from"),
        ("to", "to"),
        ("address", offset),
    ]);
    let rows = order
        .into_iter()
        .map(|i| {
            let i = i as usize;
            let p = &plan.planes[i];
            let mut cells = vec![chart.name(i).into_owned()];
            if w.node.is_some() {
                cells.push(step_text(chart, p.node));
            }
            cells.extend([
                bytes_short(p.size),
                p.allocated.to_string(),
                chart.last_live(i).to_string(),
                group_digits(p.cont_offset),
            ]);
            TableRow { plane: i, cells }
        })
        .collect();
    Table {
        total: n,
        sort,
        descending,
        columns,
        rows,
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
    /// What the file's format calls things ([`Chart::words`]): the panel's labels.
    pub words: &'static Words,
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
    /// Their bytes by the operator type of their writers, most first.
    pub by_kind: Vec<KindRow>,
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
                    Some((s.size, LiveRow::of(chart, plane, s.size, false)))
                })
                .collect()
        })
        .unwrap_or_default();
    live_at_peak.sort_by_key(|r| std::cmp::Reverse(r.0));
    let by_kind = by_kind(chart, live_at_peak.iter().map(|(b, r)| (r.plane, *b)));
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
        by_kind,
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
        words: chart.words(),
        peak_bytes: s.peak.to_string(),
        peak: bytes_long(s.peak),
        lower_bound: bytes_long(s.lower_bound),
        bound_name: chart.bound_name(),
        // Against a layout's own bound, which a re-plan can go under, no efficiency.
        efficiency: match chart.layout_bound() {
            true => "—".into(),
            false => format!("{:.1}%", s.efficiency * 100.0),
        },
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
