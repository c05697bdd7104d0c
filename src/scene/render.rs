//! One frame: from a [`Chart`], a [`View`] and [`Options`] to painter calls.
//!
//! Level of detail: parts outside the view are culled; parts smaller than
//! [`TINY`] pixels in either direction are not drawn one by one but rasterized into
//! a grid of 1-px cells (last writer wins, as paint would), then emitted as runs of
//! equal colour per row. So a frame costs at most one call per visible large part
//! plus one per run of cells, whatever the number of planes. Only the parts live in the
//! view's clocks are visited ([`super::lod::PartIndex`]); when even those are more than
//! [`EXACT_LIMIT`], the lane is drawn from cached occupancy tiles ([`super::lod`]), so a
//! zoomed-out frame of a million planes costs the cells on screen, not the planes.

use super::axis::{self, address_label, bytes_long, clock_ticks};
use super::chart::{Chart, Part};
use super::lod::OccupancyStats;
use super::paint::{Align, Cells, Color, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use super::palette;
use super::view::{LaneBox, PixelLayout, View};
use std::collections::BTreeMap;

/// Below this size (CSS pixels) in width or height a part is rasterized.
pub const TINY: f64 = 1.5;
/// Label font size (CSS pixels).
pub const FONT: f64 = 11.0;
/// At most this many labels per frame: beyond, nobody reads them.
const MAX_LABELS: usize = 4000;
/// Above this many parts in the view's clocks, a frame is drawn from occupancy tiles
/// ([`super::lod`]): visiting them all would cost more than a frame's budget.
pub const EXACT_LIMIT: usize = 10_000;
/// Above this many runs of equal cells (per row), the raster of tiny planes is painted
/// in one colour.
const DENSE_RUNS: usize = 40_000;
/// Planes outlined at most per emphasis in an occupancy frame.
const MAX_EMPHASIS: usize = 5_000;

/// What the user switched on and pointed at.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Draw plane names where they fit.
    pub names: bool,
    /// Addresses in hex instead of B/KiB/MiB.
    pub hex: bool,
    pub hover: Option<usize>,
    pub selected: Option<usize>,
    /// Planes matching the search box.
    pub matches: Vec<usize>,
    /// Parts in view above which the frame is drawn from occupancy tiles; `None` for
    /// [`EXACT_LIMIT`]. Tests force either level with it.
    pub exact_limit: Option<usize>,
}

/// A part drawn as its own rectangle.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Drawn {
    pub plane: usize,
    pub wrapped: bool,
    pub rect: Rect,
}

/// What a frame drew, for hit-checks in tests and the page's test hook.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Frame {
    pub drawn: Vec<Drawn>,
    /// Parts folded into the 1-px raster.
    pub rasterized: usize,
    /// Labels drawn: plane and text box.
    pub labels: Vec<(usize, Rect)>,
    /// Per lane: pixel row of the peak line and of the lower-bound line (None when
    /// out of view).
    pub peak_y: Vec<Option<f64>>,
    pub lower_bound_y: Vec<Option<f64>>,
    /// Per lane: pixel row of the capacity line (None without a capacity or out of view).
    pub capacity_y: Vec<Option<f64>>,
    /// Rectangles outlined as search matches (or, in the compare view, as changed).
    pub marked: usize,
    /// Painter calls that filled rectangles (batches).
    pub fill_calls: usize,
    /// Parts the frame looked at (the index skips those out of the view's clocks).
    pub parts_visited: usize,
    /// Set when the frame was drawn from occupancy tiles (zoomed out on a big plan):
    /// no per-plane rectangles or labels then.
    pub occupancy: Option<OccupancyStats>,
}

impl Frame {
    /// Parts of this frame were drawn from coarser tiles while finer ones are built:
    /// draw it again next frame.
    pub fn refining(&self) -> bool {
        self.occupancy.is_some_and(|o| o.pending > 0)
    }
}

fn style(color: Color, size: f64, align: Align) -> TextStyle {
    TextStyle {
        color,
        size,
        align,
        bold: false,
    }
}

fn stroke(color: Color, width: f64) -> Stroke {
    Stroke {
        color,
        width,
        dash: 0.0,
    }
}

/// Draws the frame and reports what it drew.
pub fn render(chart: &Chart, view: &View, opts: &Options, p: &mut dyn Painter) -> Frame {
    let layout = PixelLayout::new(chart, view);
    let mut frame = Frame::default();
    p.clip(None);
    p.fill_rects(
        Fill {
            color: palette::BACKGROUND,
            pattern: Pattern::Solid,
        },
        &[Rect {
            x: 0.0,
            y: 0.0,
            w: view.width,
            h: view.height,
        }],
    );
    let xticks = clock_ticks(view.t0, view.t1, (layout.plot_w / 70.0).max(2.0) as usize);
    for lane in 0..chart.lanes.len() {
        draw_lane(chart, view, opts, &layout, lane, &xticks, p, &mut frame);
    }
    // Clock axis under the last lane.
    p.clip(None);
    let y = layout.axis_y;
    p.line(
        &[(layout.plot_x, y), (layout.plot_x + layout.plot_w, y)],
        stroke(palette::AXIS, 1.0),
    );
    for &t in &xticks {
        let x = view.snap(layout.x_of(view, t as f64)) + 0.5 / view.dpr;
        p.line(&[(x, y), (x, y + 4.0)], stroke(palette::AXIS, 1.0));
        p.text(
            &t.to_string(),
            x,
            y + 12.0,
            style(palette::AXIS, 10.0, Align::Center),
        );
    }
    p.text(
        "clock (scheduling step)",
        layout.plot_x + layout.plot_w / 2.0,
        y + 26.0,
        style(palette::AXIS, 10.0, Align::Center),
    );
    frame
}

/// What every step of drawing one lane reads.
#[derive(Clone, Copy)]
struct LaneCtx<'a> {
    chart: &'a Chart,
    view: &'a View,
    opts: &'a Options,
    l: &'a PixelLayout,
    lane: usize,
    b: LaneBox,
    /// The addresses the view shows in this lane.
    a_lo: f64,
    a_hi: f64,
}

#[allow(clippy::too_many_arguments)]
fn draw_lane(
    chart: &Chart,
    view: &View,
    opts: &Options,
    l: &PixelLayout,
    lane: usize,
    xticks: &[u64],
    p: &mut dyn Painter,
    frame: &mut Frame,
) {
    let (a_lo, a_hi) = l.address_range(view, lane);
    let c = LaneCtx {
        chart,
        view,
        opts,
        l,
        lane,
        b: l.lanes[lane],
        a_lo,
        a_hi,
    };
    let yticks = axis::address_ticks(a_lo, a_hi, (c.b.chart.h / 40.0).max(2.0) as usize, opts.hex);
    p.clip(Some(c.b.chart));
    c.grid(xticks, &yticks, p);
    let first = frame.drawn.len();
    let aggregate = c.planes(p, frame);
    let drawn: Vec<Drawn> = frame.drawn[first..].to_vec();
    c.wrap_connectors(&drawn, p);
    c.emphasis(aggregate, &drawn, p, frame);
    let info = &chart.lanes[lane];
    let title = (chart.lanes.len() > 1 || info.name != "mem")
        .then(|| format!("{} — peak {}", info.name, axis::bytes_short(info.peak)));
    c.reference_lines(title.as_deref(), p, frame);
    if opts.names {
        place_labels(chart, view, l, lane, &drawn, p, frame);
    }
    p.clip(None);
    c.axes(&yticks, title.as_deref(), p);
    draw_strip(chart, view, l, lane, xticks, p);
}

impl LaneCtx<'_> {
    /// Grid lines at the clock and address ticks.
    fn grid(&self, xticks: &[u64], yticks: &[u64], p: &mut dyn Painter) {
        let LaneCtx {
            view, l, lane, b, ..
        } = *self;
        let grid = stroke(palette::GRID, 1.0);
        for &t in xticks {
            let x = view.snap(l.x_of(view, t as f64)) + 0.5 / view.dpr;
            p.line(&[(x, b.chart.y), (x, b.chart.bottom())], grid);
        }
        for &a in yticks {
            let y = view.snap(l.y_of(view, lane, a as f64)) + 0.5 / view.dpr;
            p.line(&[(b.chart.x, y), (b.chart.right(), y)], grid);
        }
    }

    /// Planes: large parts as rectangles, batched while the fill stays the same;
    /// tiny ones into the raster. A view with too many parts to visit per frame is
    /// drawn from the chart's occupancy tiles instead (see `lod`); returns whether
    /// it was.
    fn planes(&self, p: &mut dyn Painter, frame: &mut Frame) -> bool {
        let LaneCtx {
            chart,
            view,
            opts,
            l,
            lane,
            b,
            a_lo,
            a_hi,
        } = *self;
        let cols = b.chart.w.ceil() as usize;
        let rows = b.chart.h.ceil() as usize;
        let mut raster: Vec<u16> = Vec::new();
        let mut colors: Vec<Color> = Vec::new();
        let mut batch: Vec<Rect> = Vec::new();
        let mut batch_fill: Option<Fill> = None;
        let mut outlines: Vec<Rect> = Vec::new();
        let limit = opts.exact_limit.unwrap_or(EXACT_LIMIT);
        let aggregate = chart.lod_index.estimate(&chart.parts, view.t0, view.t1) > limit;
        if aggregate {
            raster = vec![0; cols * rows];
            colors = palette::NODES.to_vec();
            let s = chart.occupancy.paint(chart, view, l, lane, &mut raster);
            let total = frame.occupancy.get_or_insert_with(Default::default);
            total.tiles_built += s.tiles_built;
            total.tiles_used += s.tiles_used;
            total.parts_visited += s.parts_visited;
            total.pending += s.pending;
        }
        let visible = chart.lod_index.visible(&chart.parts, view.t0, view.t1);
        for q in visible.take_while(|_| !aggregate).map(|k| &chart.parts[k]) {
            if q.lane != lane {
                continue;
            }
            if (q.a1 as f64) <= a_lo || (q.a0 as f64) >= a_hi {
                continue;
            }
            frame.parts_visited += 1;
            let r = part_rect(l, view, lane, q, &b.chart);
            let fill = plane_fill(chart, q.plane);
            if r.w < TINY || r.h < TINY {
                if raster.is_empty() {
                    raster = vec![0; cols * rows];
                }
                let ci = match colors.iter().position(|&c| c == fill.color) {
                    Some(i) => i,
                    None => {
                        colors.push(fill.color);
                        colors.len() - 1
                    }
                };
                let (c0, c1) = cells(r.x - b.chart.x, r.w, cols);
                let (r0, r1) = cells(r.y - b.chart.y, r.h, rows);
                for row in r0..r1 {
                    raster[row * cols + c0..row * cols + c1].fill(ci as u16 + 1);
                }
                frame.rasterized += 1;
                continue;
            }
            if batch_fill != Some(fill) && !batch.is_empty() {
                p.fill_rects(batch_fill.unwrap_or(fill), &batch);
                frame.fill_calls += 1;
                batch.clear();
            }
            batch_fill = Some(fill);
            batch.push(r);
            if r.w >= 4.0 && r.h >= 4.0 {
                outlines.push(r);
            }
            frame.drawn.push(Drawn {
                plane: q.plane,
                wrapped: q.wrapped,
                rect: r,
            });
        }
        if let (Some(f), false) = (batch_fill, batch.is_empty()) {
            p.fill_rects(f, &batch);
            frame.fill_calls += 1;
        }
        if !outlines.is_empty() {
            p.stroke_rects(
                Stroke {
                    color: palette::OUTLINE,
                    width: 1.0 / view.dpr,
                    dash: 0.0,
                },
                &outlines,
            );
        }
        if !raster.is_empty() {
            frame.fill_calls += self.raster(&mut raster, (cols, rows), &colors, p);
        }
        aggregate
    }

    /// Paints the raster of tiny planes (`(cols, rows)` cells, `colors` by index);
    /// returns the fill calls made.
    fn raster(
        &self,
        raster: &mut [u16],
        (cols, rows): (usize, usize),
        colors: &[Color],
        p: &mut dyn Painter,
    ) -> usize {
        // Too fragmented for colours to be told apart: one colour shows occupancy
        // better than noise (and is what the run-length painters fall back to).
        let dense = [palette::DENSE];
        let fragmented = row_runs(raster, cols) > DENSE_RUNS;
        if fragmented {
            for v in raster.iter_mut().filter(|v| **v != 0) {
                *v = 1;
            }
        }
        let grid = Cells {
            cols,
            rows,
            cells: raster,
            colors: if fragmented { &dense } else { colors },
        };
        p.cells(self.b.chart, &grid)
    }

    /// Wrapped planes: a dashed connector from the top of the contiguous part (the end
    /// of the space) to the bottom of the wrapped part (its start).
    fn wrap_connectors(&self, drawn: &[Drawn], p: &mut dyn Painter) {
        let chart = self.chart;
        for d in drawn.iter().filter(|d| d.wrapped) {
            if let Some(c) = drawn.iter().find(|c| c.plane == d.plane && !c.wrapped) {
                let x = c.rect.x + (c.rect.w / 2.0).min(4.0);
                let col = plane_fill(chart, d.plane).color;
                let dark = Color {
                    r: col.r / 2,
                    g: col.g / 2,
                    b: col.b / 2,
                    a: 255,
                };
                p.line(
                    &[(x, c.rect.y), (x, d.rect.bottom())],
                    Stroke {
                        color: dark,
                        width: 1.5,
                        dash: 4.0,
                    },
                );
            }
        }
    }

    /// Emphasis: findings, search matches, hover and selection outline every part of
    /// their plane, so the two parts of a wrapped plane light up together. Drawn from
    /// the frame's rectangles, or, in an occupancy frame, from the planes' data.
    fn emphasis(&self, aggregate: bool, drawn: &[Drawn], p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            chart,
            view,
            opts,
            l,
            lane,
            b,
            a_lo,
            a_hi,
        } = *self;
        let in_view = |plane: usize| -> Vec<Rect> {
            chart
                .parts_of(plane)
                .filter(|q| q.lane == lane && (q.t1 as f64) > view.t0 && f64::from(q.t0) < view.t1)
                .filter(|q| (q.a1 as f64) > a_lo && (q.a0 as f64) < a_hi)
                .map(|q| part_rect(l, view, lane, q, &b.chart))
                .collect()
        };
        let emphasis =
            |planes: &mut dyn Iterator<Item = usize>, keep: &dyn Fn(usize) -> bool| -> Vec<Rect> {
                if aggregate {
                    planes.take(MAX_EMPHASIS).flat_map(in_view).collect()
                } else {
                    drawn
                        .iter()
                        .filter(|d| keep(d.plane))
                        .map(|d| d.rect)
                        .collect()
                }
            };
        let flagged = emphasis(
            &mut chart
                .report
                .problems
                .iter()
                .flat_map(|pr| pr.planes.iter().copied()),
            &|i| chart.flagged.get(i).copied().unwrap_or(false),
        );
        if !flagged.is_empty() {
            p.stroke_rects(
                Stroke {
                    color: palette::FINDING,
                    width: 2.0,
                    dash: 3.0,
                },
                &flagged,
            );
        }
        if !opts.matches.is_empty() {
            let m = emphasis(&mut opts.matches.iter().copied(), &|i| {
                opts.matches.binary_search(&i).is_ok()
            });
            frame.marked += m.len();
            p.stroke_rects(stroke(palette::MATCH, 2.0), &m);
        }
        for (plane, width) in [(opts.hover, 1.5), (opts.selected, 2.5)] {
            if let Some(plane) = plane {
                let rs = in_view(plane);
                p.stroke_rects(stroke(palette::SELECT, width), &rs);
                if rs.len() == 2 {
                    let (a, c) = (rs[0], rs[1]);
                    let (top, bottom) = if a.y < c.y { (a, c) } else { (c, a) };
                    let x = top.x + (top.w / 2.0).min(4.0);
                    p.line(
                        &[(x, top.bottom()), (x, bottom.y)],
                        Stroke {
                            color: palette::SELECT,
                            width: 1.5,
                            dash: 4.0,
                        },
                    );
                }
            }
        }
    }

    /// The peak, lower-bound and capacity lines with their labels; the peak's label
    /// goes under its line where the lane's `title` is above it.
    fn reference_lines(&self, title: Option<&str>, p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            ..
        } = *self;
        let info = &chart.lanes[lane];
        frame.peak_y.push(hline(
            l,
            view,
            lane,
            info.peak as f64,
            palette::PEAK,
            0.0,
            p,
        ));
        frame.lower_bound_y.push(hline(
            l,
            view,
            lane,
            info.lower_bound as f64,
            palette::LOWER_BOUND,
            5.0,
            p,
        ));
        if let Some(y) = frame.peak_y[lane] {
            let text = format!("Peak usage = {}", bytes_long(info.peak));
            let st = TextStyle {
                bold: true,
                ..style(palette::PEAK, 12.0, Align::Right)
            };
            // Above the line, unless the lane's title is there (a narrow chart whose
            // peak is near the top): then under it.
            let left = b.chart.right() - 6.0 - p.text_width(&text, 12.0, true);
            let title_end = title.as_ref().map_or(f64::NEG_INFINITY, |t| {
                b.chart.x + 12.0 + p.text_width(t, 11.0, true)
            });
            let above = y - 8.0;
            let clash = (above - (b.chart.y + 8.0)).abs() < 13.0 && left < title_end;
            backed_text(
                p,
                &text,
                b.chart.right() - 6.0,
                if clash { y + 10.0 } else { above },
                st,
            );
        }
        if let Some(y) = frame.lower_bound_y[lane] {
            let text = format!("Lower bound = {}", bytes_long(info.lower_bound));
            let st = style(palette::LOWER_BOUND, 11.0, Align::Right);
            backed_text(p, &text, b.chart.right() - 6.0, y + 9.0, st);
        }

        let cap_y = info
            .capacity
            .and_then(|cap| hline(l, view, lane, cap as f64, palette::CAPACITY, 2.0, p));
        frame.capacity_y.push(cap_y);
        if let (Some(cap), Some(y)) = (info.capacity, cap_y) {
            let verdict = if info.peak <= cap { "fits" } else { "over" };
            let text = format!("Capacity = {} ({verdict})", bytes_long(cap));
            let st = TextStyle {
                bold: true,
                ..style(palette::CAPACITY, 11.0, Align::Left)
            };
            backed_text(p, &text, b.chart.x + 6.0, y - 8.0, st);
        }
    }

    /// The address axis and the lane's name.
    fn axes(&self, yticks: &[u64], title: Option<&str>, p: &mut dyn Painter) {
        let LaneCtx {
            view,
            opts,
            l,
            lane,
            b,
            a_lo,
            a_hi,
            ..
        } = *self;
        p.stroke_rects(stroke(palette::AXIS, 1.0), &[b.chart]);
        let span = a_hi - a_lo;
        for &a in yticks {
            let y = l.y_of(view, lane, a as f64);
            p.line(
                &[(b.chart.x - 4.0, y), (b.chart.x, y)],
                stroke(palette::AXIS, 1.0),
            );
            p.text(
                &address_label(a, span, opts.hex),
                b.chart.x - 6.0,
                y,
                style(palette::AXIS, 10.0, Align::Right),
            );
        }
        if let Some(title) = title {
            p.text(
                title,
                b.chart.x + 4.0,
                b.chart.y + 8.0,
                TextStyle {
                    bold: true,
                    ..style(palette::AXIS, 11.0, Align::Left)
                },
            );
        }
    }
}

/// Text on a translucent patch of background, so the peak, lower-bound and capacity
/// labels stay readable over a dense plan. `x` is the text's right end, or its left
/// end for left-aligned text.
fn backed_text(p: &mut dyn Painter, text: &str, x: f64, y: f64, st: TextStyle) {
    let w = p.text_width(text, st.size, st.bold);
    let left = match st.align {
        Align::Left => x,
        _ => x - w,
    };
    let patch = Rect {
        x: left - 3.0,
        y: y - st.size / 2.0 - 2.0,
        w: w + 6.0,
        h: st.size + 4.0,
    };
    let color = palette::BACKGROUND.with_alpha(210);
    p.fill_rects(
        Fill {
            color,
            pattern: Pattern::Solid,
        },
        &[patch],
    );
    p.text(text, x, y, st);
}

/// Runs of equal non-empty cells along the rows of a raster.
fn row_runs(raster: &[u16], cols: usize) -> usize {
    raster
        .chunks(cols.max(1))
        .map(|row| {
            let starts = row.windows(2).filter(|w| w[1] != 0 && w[1] != w[0]).count();
            starts + usize::from(row.first().is_some_and(|&v| v != 0))
        })
        .sum()
}

/// The part's rectangle in pixels, snapped to device pixels and clamped to a little
/// beyond the chart (huge coordinates upset canvases).
fn part_rect(l: &PixelLayout, view: &View, lane: usize, q: &Part, clip: &Rect) -> Rect {
    let x0 = view.snap(l.x_of(view, f64::from(q.t0)).max(clip.x - 2.0));
    let x1 = view.snap(l.x_of(view, q.t1 as f64).min(clip.right() + 2.0));
    let y0 = view.snap(l.y_of(view, lane, q.a1 as f64).max(clip.y - 2.0));
    let y1 = view.snap(l.y_of(view, lane, q.a0 as f64).min(clip.bottom() + 2.0));
    Rect {
        x: x0,
        y: y0,
        w: (x1 - x0).max(0.0),
        h: (y1 - y0).max(0.0),
    }
}

fn plane_fill(chart: &Chart, plane: usize) -> Fill {
    let p = &chart.plan.planes[plane];
    let pattern = if chart.producer.get(plane).copied().unwrap_or(false) {
        Pattern::Hatch
    } else if p.is_striped() {
        Pattern::Stripes
    } else {
        Pattern::Solid
    };
    Fill {
        color: palette::node(p.node),
        pattern,
    }
}

/// Cell range `[c0, c1)` covered by `[x, x + w)` in a grid of `n` cells, at least one.
fn cells(x: f64, w: f64, n: usize) -> (usize, usize) {
    let c0 = (x.floor().max(0.0) as usize).min(n.saturating_sub(1));
    let c1 = ((x + w).ceil().max(0.0) as usize).clamp(c0 + 1, n.max(c0 + 1));
    (c0, c1.min(n))
}

/// A horizontal line across a lane's chart at address `a`; its row if visible.
#[allow(clippy::too_many_arguments)]
fn hline(
    l: &PixelLayout,
    view: &View,
    lane: usize,
    a: f64,
    color: Color,
    dash: f64,
    p: &mut dyn Painter,
) -> Option<f64> {
    let b = l.lanes[lane].chart;
    let y = view.snap(l.y_of(view, lane, a));
    if y < b.y - 0.5 || y > b.bottom() + 0.5 {
        return None;
    }
    p.line(
        &[(b.x, y), (b.right(), y)],
        Stroke {
            color,
            width: 1.5,
            dash,
        },
    );
    Some(y)
}

/// Names inside their planes where they fit, largest planes first, never overlapping
/// another label; a label stays in the span before a later plane covers its plane.
fn place_labels(
    chart: &Chart,
    view: &View,
    l: &PixelLayout,
    lane: usize,
    drawn: &[Drawn],
    p: &mut dyn Painter,
    frame: &mut Frame,
) {
    let clip = l.lanes[lane].chart;
    let mut order: Vec<&Drawn> = drawn
        .iter()
        .filter(|d| d.rect.h >= FONT + 2.0 && d.rect.w >= 12.0)
        .collect();
    order.sort_by(|a, b| (b.rect.w * b.rect.h).total_cmp(&(a.rect.w * a.rect.h)));
    // Placed boxes bucketed by 64-px column, to keep the overlap test short.
    let mut buckets: BTreeMap<i64, Vec<Rect>> = BTreeMap::new();
    let mut placed_planes: Vec<bool> = vec![false; chart.plan.planes.len()];
    for d in order {
        if frame.labels.len() >= MAX_LABELS {
            break;
        }
        if placed_planes[d.plane] {
            continue;
        }
        let covered = l.x_of(view, chart.covered_from[d.plane] as f64);
        let x0 = d.rect.x.max(clip.x);
        let x1 = d.rect.right().min(clip.right()).min(covered);
        let y0 = d.rect.y.max(clip.y);
        let y1 = d.rect.bottom().min(clip.bottom());
        if x1 - x0 < 12.0 || y1 - y0 < FONT + 2.0 {
            continue;
        }
        let Some((name, w)) = fitting_text(&chart.name(d.plane), x1 - x0 - 6.0, p) else {
            continue;
        };
        let cx = (x0 + x1) / 2.0;
        let cy = (y0 + y1) / 2.0;
        let bx = Rect {
            x: cx - w / 2.0 - 2.0,
            y: cy - FONT / 2.0 - 1.0,
            w: w + 4.0,
            h: FONT + 2.0,
        };
        let k0 = (bx.x / 64.0).floor() as i64;
        let k1 = (bx.right() / 64.0).floor() as i64;
        let clash = (k0..=k1).any(|k| {
            buckets
                .get(&k)
                .is_some_and(|v| v.iter().any(|o| o.intersects(&bx)))
        });
        if clash {
            continue;
        }
        for k in k0..=k1 {
            buckets.entry(k).or_default().push(bx);
        }
        placed_planes[d.plane] = true;
        let color = plane_fill(chart, d.plane).color.text_on();
        p.text(&name, cx, cy, style(color, FONT, Align::Center));
        frame.labels.push((d.plane, bx));
    }
}

/// The name, or `…` plus its longest tail (at least 4 characters) that fits in
/// `room` pixels, with its width. The tail is kept because framework names share
/// long prefixes (`layer1_layer1_0_…`) and differ at the end (`…conv1_Conv`).
fn fitting_text(name: &str, room: f64, p: &mut dyn Painter) -> Option<(String, f64)> {
    let w = p.text_width(name, FONT, false);
    if w <= room {
        return Some((name.to_owned(), w));
    }
    let chars: Vec<char> = name.chars().collect();
    // Estimate from the average glyph width, then step down until it fits.
    let avg = w / chars.len().max(1) as f64;
    let mut n = ((room / avg) as usize).min(chars.len().saturating_sub(1));
    while n >= 4 {
        let t: String = std::iter::once('…')
            .chain(chars[chars.len() - n..].iter().copied())
            .collect();
        let tw = p.text_width(&t, FONT, false);
        if tw <= room {
            return Some((t, tw));
        }
        n -= 1;
    }
    None
}

/// Live bytes per clock as bars, merged per pixel column (max of the column).
fn draw_strip(
    chart: &Chart,
    view: &View,
    l: &PixelLayout,
    lane: usize,
    xticks: &[u64],
    p: &mut dyn Painter,
) {
    let info = &chart.lanes[lane];
    let s = l.lanes[lane].strip;
    p.clip(Some(s));
    p.fill_rects(
        Fill {
            color: Color::rgb(0xF6, 0xF6, 0xF8),
            pattern: Pattern::Solid,
        },
        &[s],
    );
    for &t in xticks {
        let x = view.snap(l.x_of(view, t as f64)) + 0.5 / view.dpr;
        p.line(&[(x, s.y), (x, s.bottom())], stroke(palette::GRID, 1.0));
    }
    let cols = s.w.ceil() as usize;
    let mut col_max: Vec<u64> = vec![0; cols];
    let top = info.max_live.max(1) as f64;
    for (k, &(from, bytes)) in info.live.iter().enumerate() {
        let to = info
            .live
            .get(k + 1)
            .map_or(chart.horizon as f64, |r| f64::from(r.0));
        let (x0, x1) = (l.x_of(view, f64::from(from)), l.x_of(view, to));
        if x1 <= s.x || x0 >= s.right() || bytes == 0 {
            continue;
        }
        let (c0, c1) = cells(x0 - s.x, (x1 - x0).max(0.01), cols);
        for c in &mut col_max[c0..c1] {
            *c = (*c).max(bytes);
        }
    }
    let mut bars = Vec::new();
    let mut c = 0;
    while c < cols {
        let v = col_max[c];
        let start = c;
        while c < cols && col_max[c] == v {
            c += 1;
        }
        if v > 0 {
            let h = v as f64 / top * (s.h - 2.0);
            bars.push(Rect {
                x: s.x + start as f64,
                y: s.bottom() - h,
                w: (c - start) as f64,
                h,
            });
        }
    }
    p.fill_rects(
        Fill {
            color: palette::STRIP,
            pattern: Pattern::Solid,
        },
        &bars,
    );
    p.clip(None);
    p.stroke_rects(stroke(palette::AXIS, 1.0), &[s]);
    p.text(
        "live",
        s.x - 6.0,
        s.y + s.h / 2.0 - 6.0,
        style(palette::AXIS, 10.0, Align::Right),
    );
    p.text(
        &axis::bytes_short(info.max_live),
        s.x - 6.0,
        s.y + s.h / 2.0 + 6.0,
        style(palette::AXIS, 9.0, Align::Right),
    );
}
