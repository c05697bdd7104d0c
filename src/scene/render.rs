//! One frame: from a [`Chart`], a [`View`] and [`Options`] to painter calls.
//!
//! Level of detail: parts outside the view are culled; parts smaller than
//! [`TINY`] pixels in either direction are not drawn one by one but rasterized into
//! a grid of 1-px cells (last writer wins, as paint would), then emitted as runs of
//! equal colour per row. So a frame costs at most one call per visible large part
//! plus one per run of cells, whatever the number of planes. Only the parts live in the
//! view's clocks are visited ([`super::chart::PartIndex`]); when even those are more than
//! [`EXACT_LIMIT`], the lane is drawn from cached occupancy tiles ([`super::lod`]), so a
//! zoomed-out frame of a million planes costs the cells on screen, not the planes.

use super::axis::{self, address_label, bytes_long, clock_ticks};
use super::chart::{Chart, Part, SEPARATORS};
use super::lod::{Occupancy, OccupancyStats};
use super::paint::{Align, Cells, Color, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use super::palette;
use super::theme::{Role, Theme};
use super::view::{LaneBox, PixelLayout, View};
use crate::model::{Bytes, Clock};
use std::collections::BTreeMap;

/// Below this size (CSS pixels) in width or height a part is rasterized.
pub const TINY: f64 = 1.5;
/// Label font size (CSS pixels).
pub const FONT: f64 = 11.0;
/// A lane's title stands this far above its chart (its middle), in the margin the
/// layout leaves there ([`super::view::TITLED_TOP`]).
const TITLE_ABOVE: f64 = 10.0;
/// At most this many labels per frame: beyond, nobody reads them.
const MAX_LABELS: usize = 4000;
/// Above this many parts in the view's clocks, a frame is drawn from occupancy tiles
/// ([`super::lod`]): visiting them all would cost more than a frame's budget.
pub const EXACT_LIMIT: usize = 10_000;
/// Above this many runs of equal cells (per row), the raster of tiny planes is painted
/// in one colour: the one place that decides it, for every surface.
pub const DENSE_RUNS: usize = 40_000;
/// Parts a label's spot is checked against at most before it counts as taken.
const SPOT_CHECKS: usize = 20_000;
/// How many lines a reference label may move away from its line to stay off the
/// other labels.
const MOVED_LINES: usize = 3;
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
    /// The colours of the chrome ([`Theme::color`]); plane colours do not change.
    pub theme: Theme,
    /// A title drawn in the view's [`View::title_band`] (exports: the file and its peak).
    pub title: Option<String>,
    /// The clock whose live buffers the page lists: marked across the lanes.
    pub clock: Option<Clock>,
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
    /// Labels drawn: plane, text box and the text (a shortened name).
    pub labels: Vec<(usize, Rect, String)>,
    /// Per lane: pixel row of the peak line and of the lower-bound line (None when
    /// out of view).
    pub peak_y: Vec<Option<f64>>,
    pub lower_bound_y: Vec<Option<f64>>,
    /// Per lane: pixel row of the capacity line (None without a capacity or out of view).
    pub capacity_y: Vec<Option<f64>>,
    /// Pixel column of the middle of the marked clock ([`Options::clock`]), when in view.
    pub clock_x: Option<f64>,
    /// The names written under the clock ticks: the tick's clock and the name (shortened)
    /// of the step that runs then.
    pub tick_names: Vec<(u64, String)>,
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

/// Draws the frames of one chart and keeps what they share: the occupancy tiles of
/// zoomed-out frames of big plans ([`Occupancy`]). The chart itself stays immutable;
/// a viewer keeps one renderer per open chart.
#[derive(Debug, Clone, Default)]
pub struct Renderer {
    occupancy: Occupancy,
}

/// One frame with nothing kept for the next: exports, pictures and tests.
pub fn render(chart: &Chart, view: &View, opts: &Options, p: &mut dyn Painter) -> Frame {
    Renderer::default().render(chart, view, opts, p)
}

impl Renderer {
    /// A renderer whose frames visit at most `budget` parts to build occupancy tiles
    /// while coarser ones can stand in ([`Occupancy::with_budget`]).
    pub fn with_budget(budget: usize) -> Renderer {
        Renderer {
            occupancy: Occupancy::with_budget(budget),
        }
    }

    /// Occupancy tiles held (for tests).
    pub fn tiles_held(&self) -> usize {
        self.occupancy.tiles_held()
    }

    /// Draws the frame and reports what it drew.
    pub fn render(
        &mut self,
        chart: &Chart,
        view: &View,
        opts: &Options,
        p: &mut dyn Painter,
    ) -> Frame {
        let layout = PixelLayout::new(chart, view);
        let mut frame = Frame::default();
        let color = |role| opts.theme.color(role);
        p.clip(None);
        p.fill_rects(
            Fill {
                color: color(Role::Background),
                pattern: Pattern::Solid,
            },
            &[Rect {
                x: 0.0,
                y: 0.0,
                w: view.width,
                h: view.height,
            }],
        );
        if let Some(title) = opts.title.as_deref().filter(|_| view.title_band > 0.0) {
            let st = TextStyle {
                bold: true,
                ..style(color(Role::Axis), 13.0, Align::Left)
            };
            p.text(title, layout.plot_x, view.title_band / 2.0, st);
        }
        let xticks = clock_ticks(view.t0, view.t1, (layout.plot_w / 70.0).max(2.0) as usize);
        for lane in 0..chart.lanes().len() {
            let c = LaneCtx::new(chart, view, opts, &layout, lane);
            c.draw(&xticks, &mut self.occupancy, p, &mut frame);
        }
        // Clock axis under the last lane.
        p.clip(None);
        let y = layout.axis_y;
        let axis = stroke(color(Role::Axis), 1.0);
        p.line(
            &[(layout.plot_x, y), (layout.plot_x + layout.plot_w, y)],
            axis,
        );
        let label = style(color(Role::Axis), 10.0, Align::Center);
        for &t in &xticks {
            let x = view.snap(layout.x_of(view, t as f64)) + 0.5 / view.dpr;
            p.line(&[(x, y), (x, y + 4.0)], axis);
            p.text(&t.to_string(), x, y + 12.0, label);
        }
        step_names(chart, view, &layout, &xticks, p, &mut frame, opts);
        let middle = layout.plot_x + layout.plot_w / 2.0;
        p.text(chart.words().clock, middle, y + 37.0, label);
        frame
    }
}

/// Under each clock tick, the name of the step that runs then (shortened to the room
/// between ticks, as plane labels are), when the plan names its steps: the x axis
/// reads as the model's operators, not only as numbers.
fn step_names(
    chart: &Chart,
    view: &View,
    layout: &PixelLayout,
    xticks: &[u64],
    p: &mut dyn Painter,
    frame: &mut Frame,
    opts: &Options,
) {
    if chart.words().node.is_none() {
        return;
    }
    let room = match xticks {
        [a, b, ..] => (layout.x_of(view, *b as f64) - layout.x_of(view, *a as f64)) - 8.0,
        _ => layout.plot_w - 8.0,
    };
    let st = style(opts.theme.color(Role::Axis), NAME_FONT, Align::Center);
    let y = layout.axis_y + 24.0;
    for &t in xticks {
        let Some(step) = Clock::try_from(t).ok().and_then(|c| chart.step_at(c)) else {
            continue;
        };
        let name = chart.step_name(step);
        // A buffer list's steps are named by their clock: nothing more to say.
        if name == t.to_string() {
            continue;
        }
        let kind = &chart.plan().steps[step].kind;
        let short = Short {
            prefix: chart.name_prefix(),
            kind,
        };
        let Some((text, _)) = short.fit(&name, room, NAME_FONT, p) else {
            continue;
        };
        let x = view.snap(layout.x_of(view, t as f64)) + 0.5 / view.dpr;
        p.text(&text, x, y, st);
        frame.tick_names.push((t, text));
    }
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

impl<'a> LaneCtx<'a> {
    fn new(
        chart: &'a Chart,
        view: &'a View,
        opts: &'a Options,
        l: &'a PixelLayout,
        lane: usize,
    ) -> LaneCtx<'a> {
        let (a_lo, a_hi) = l.address_range(view, lane);
        LaneCtx {
            chart,
            view,
            opts,
            l,
            lane,
            b: l.lanes[lane],
            a_lo,
            a_hi,
        }
    }

    /// The theme's colour for `role`.
    fn color(&self, role: Role) -> Color {
        self.opts.theme.color(role)
    }

    /// The whole lane: grid, planes, emphasis, reference lines and labels, axes and
    /// the live-bytes strip.
    fn draw(
        &self,
        xticks: &[u64],
        occupancy: &mut Occupancy,
        p: &mut dyn Painter,
        frame: &mut Frame,
    ) {
        let (b, opts) = (self.b, self.opts);
        let yticks = axis::address_ticks(
            self.a_lo,
            self.a_hi,
            (b.chart.h / 40.0).max(2.0) as usize,
            opts.hex,
        );
        p.clip(Some(b.chart));
        self.grid(xticks, &yticks, p);
        let first = frame.drawn.len();
        let aggregate = self.planes(occupancy, p, frame);
        let drawn: Vec<Drawn> = frame.drawn[first..].to_vec();
        self.wrap_connectors(&drawn, p);
        self.emphasis(aggregate, &drawn, p, frame);
        self.reference_lines(p, frame);
        if opts.names {
            self.place_labels(&drawn, p, frame);
        }
        p.clip(None);
        self.axes(&yticks, p);
        self.strip(xticks, p);
        self.clock_mark(p, frame);
    }

    /// The clock whose live buffers the page lists ([`Options::clock`]): a dashed line
    /// down the middle of its column in the chart, its column filled in the strip.
    fn clock_mark(&self, p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            view, l, b, opts, ..
        } = *self;
        let Some(t) = opts.clock else {
            return;
        };
        let (x0, x1) = (l.x_of(view, f64::from(t)), l.x_of(view, f64::from(t) + 1.0));
        let x = view.snap((x0 + x1) / 2.0);
        if x < b.chart.x || x > b.chart.right() {
            return;
        }
        let color = self.color(Role::Select);
        p.line(
            &[(x, b.chart.y), (x, b.chart.bottom())],
            Stroke {
                color,
                width: 1.5,
                dash: 4.0,
            },
        );
        let (c0, c1) = (x0.max(b.strip.x), x1.min(b.strip.right()));
        let band = Rect {
            x: c0.min(x - 1.0),
            y: b.strip.y,
            w: (c1 - c0).max(2.0),
            h: b.strip.h,
        };
        p.fill_rects(
            Fill {
                color: color.with_alpha(110),
                pattern: Pattern::Solid,
            },
            &[band],
        );
        frame.clock_x = Some(x);
    }

    /// Grid lines at the clock and address ticks.
    fn grid(&self, xticks: &[u64], yticks: &[u64], p: &mut dyn Painter) {
        let LaneCtx {
            view, l, lane, b, ..
        } = *self;
        let grid = stroke(self.color(Role::Grid), 1.0);
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
    fn planes(&self, occupancy: &mut Occupancy, p: &mut dyn Painter, frame: &mut Frame) -> bool {
        let (chart, view, l, lane, b) = (self.chart, self.view, self.l, self.lane, self.b);
        let (a_lo, a_hi) = (self.a_lo, self.a_hi);
        let cols = b.chart.w.ceil() as usize;
        let rows = b.chart.h.ceil() as usize;
        let mut raster: Vec<u16> = Vec::new();
        let mut colors: Vec<Color> = Vec::new();
        let mut batch: Vec<Rect> = Vec::new();
        let mut batch_fill: Option<Fill> = None;
        let mut outlines: Vec<Rect> = Vec::new();
        let limit = self.opts.exact_limit.unwrap_or(EXACT_LIMIT);
        let aggregate = chart.lod_index().estimate(chart.parts(), view.t0, view.t1) > limit;
        if aggregate {
            raster = vec![0; cols * rows];
            colors = palette::NODES.to_vec();
            let s = occupancy.paint(chart, view, l, lane, &mut raster);
            let total = frame.occupancy.get_or_insert_with(Default::default);
            total.tiles_built += s.tiles_built;
            total.tiles_used += s.tiles_used;
            total.parts_visited += s.parts_visited;
            total.pending += s.pending;
        }
        let visible = chart.lod_index().visible(chart.parts(), view.t0, view.t1);
        for q in visible
            .take_while(|_| !aggregate)
            .map(|k| &chart.parts()[k])
        {
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
                    color: self.color(Role::Outline),
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
        let dense = [self.color(Role::Dense)];
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

    /// The rectangles of the parts of `plane` in this lane and in view.
    fn in_view(&self, plane: usize) -> Vec<Rect> {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            a_lo,
            a_hi,
            ..
        } = *self;
        chart
            .parts_of(plane)
            .filter(|q| q.lane == lane && (q.t1 as f64) > view.t0 && f64::from(q.t0) < view.t1)
            .filter(|q| (q.a1 as f64) > a_lo && (q.a0 as f64) < a_hi)
            .map(|q| outlinable(part_rect(l, view, lane, q, &b.chart)))
            .collect()
    }

    /// Emphasis: findings, search matches, hover and selection outline every part of
    /// their plane, so the two parts of a wrapped plane light up together. Drawn from
    /// the frame's rectangles, or, in an occupancy frame, from the planes' data.
    fn emphasis(&self, aggregate: bool, drawn: &[Drawn], p: &mut dyn Painter, frame: &mut Frame) {
        let (chart, opts) = (self.chart, self.opts);
        let in_view = |plane: usize| self.in_view(plane);
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
                .report()
                .problems
                .iter()
                .flat_map(|pr| pr.planes.iter().copied()),
            &|i| chart.flagged(i),
        );
        if !flagged.is_empty() {
            p.stroke_rects(
                Stroke {
                    color: self.color(Role::Finding),
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
            p.stroke_rects(stroke(self.color(Role::Match), 2.0), &m);
        }
        for (plane, width) in [(opts.hover, 1.5), (opts.selected, 2.5)] {
            if let Some(plane) = plane {
                let rs = in_view(plane);
                p.stroke_rects(stroke(self.color(Role::Select), width), &rs);
                if rs.len() == 2 {
                    let (a, c) = (rs[0], rs[1]);
                    let (top, bottom) = if a.y < c.y { (a, c) } else { (c, a) };
                    let x = top.x + (top.w / 2.0).min(4.0);
                    p.line(
                        &[(x, top.bottom()), (x, bottom.y)],
                        Stroke {
                            color: self.color(Role::Select),
                            width: 1.5,
                            dash: 4.0,
                        },
                    );
                }
            }
        }
    }

    /// The peak, lower-bound and capacity lines with their labels. A label sits at an
    /// end of its line, inside the chart (never cut by its top border), on the first of
    /// its spots that no plane covers and no other label takes: the peak's above its
    /// line when there is room, else under it; the lower bound's under its line, else
    /// above it, at the right end, else at the left.
    fn reference_lines(&self, p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            ..
        } = *self;
        let info = &chart.lanes()[lane];
        let line = |a: Bytes, role, dash, p: &mut dyn Painter| {
            hline(l, view, lane, a as f64, self.color(role), dash, p)
        };
        frame.peak_y.push(line(info.peak, Role::Peak, 0.0, p));
        frame
            .lower_bound_y
            .push(line(info.lower_bound, Role::LowerBound, 5.0, p));
        let cap_y = info
            .capacity
            .and_then(|cap| line(cap, Role::Capacity, 2.0, p));
        frame.capacity_y.push(cap_y);
        let (right, left) = (b.chart.right() - 6.0, b.chart.x + 6.0);
        let mut taken = Vec::new();
        if let Some(y) = frame.peak_y[lane] {
            let text = format!("{} = {}", chart.words().peak_line, bytes_long(info.peak));
            let st = TextStyle {
                bold: true,
                ..style(self.color(Role::Peak), 12.0, Align::Right)
            };
            let spots = [(right, y - 8.0), (right, y + 10.0), (left, y + 10.0)];
            self.reference_label(&text, st, y, &spots, &mut taken, p);
        }
        if let Some(y) = frame.lower_bound_y[lane] {
            let text = format!("{} = {}", chart.bound_name(), bytes_long(info.lower_bound));
            let st = style(self.color(Role::LowerBound), 11.0, Align::Right);
            // Last, a line lower: under the peak's label when both lines are one.
            let spots = [
                (right, y + 9.0),
                (right, y - 8.0),
                (left, y + 9.0),
                (left, y - 8.0),
                (left, y + 27.0),
                (right, y + 27.0),
            ];
            self.reference_label(&text, st, y, &spots, &mut taken, p);
        }
        if let (Some(cap), Some(y)) = (info.capacity, cap_y) {
            let verdict = if info.peak <= cap { "fits" } else { "over" };
            let text = format!("Capacity = {} ({verdict})", bytes_long(cap));
            let st = TextStyle {
                bold: true,
                ..style(self.color(Role::Capacity), 11.0, Align::Left)
            };
            let spots = [
                (left, y - 8.0),
                (left, y + 9.0),
                (right, y - 8.0),
                (right, y + 9.0),
            ];
            self.reference_label(&text, st, y, &spots, &mut taken, p);
        }
    }

    /// Draws a reference line's label at the first of `spots` (the text's anchor: its
    /// right end at the right of the chart, its left end at the left, and its middle)
    /// that lies inside the chart, off the labels `taken` and off every plane; else at
    /// the first inside the chart and off `taken`; else, when lines lie a few pixels
    /// apart (a capacity just above a peak at its bound) and every spot touches another
    /// label, at the nearest spot moved a line at a time away from its line (up for
    /// spots above it, down for those below) that is inside and off `taken`; else at
    /// the first. Right-aligned styles turn left-aligned at the left end.
    fn reference_label(
        &self,
        text: &str,
        st: TextStyle,
        line_y: f64,
        spots: &[(f64, f64)],
        taken: &mut Vec<Rect>,
        p: &mut dyn Painter,
    ) {
        let w = p.text_width(text, st.size, st.bold);
        let mid = self.b.chart.x + self.b.chart.w / 2.0;
        let placed: Vec<(TextStyle, f64, f64, Rect)> = spots
            .iter()
            .map(|&(x, y)| {
                let align = if x < mid { Align::Left } else { Align::Right };
                let st = TextStyle { align, ..st };
                (st, x, y, label_box(x, y, w, st))
            })
            .collect();
        let chart = self.b.chart;
        let inside = |r: &Rect| r.y >= chart.y + 1.0 && r.bottom() <= chart.bottom() - 1.0;
        let free = |r: &Rect| inside(r) && !taken.iter().any(|t| t.intersects(r));
        let step = st.size + 5.0;
        let moved = (1..=MOVED_LINES).flat_map(|k| {
            placed.iter().map(move |&(st, x, y, _)| {
                let y = if y < line_y {
                    y - k as f64 * step
                } else {
                    y + k as f64 * step
                };
                (st, x, y, label_box(x, y, w, st))
            })
        });
        let best = placed
            .iter()
            .copied()
            .find(|s| free(&s.3) && !self.covered(&s.3))
            .or_else(|| placed.iter().copied().find(|s| free(&s.3)))
            .or_else(|| moved.clone().find(|s| free(&s.3) && !self.covered(&s.3)))
            .or_else(|| moved.clone().find(|s| free(&s.3)))
            .unwrap_or(placed[0]);
        let (st, x, y, patch) = best;
        backed_text(p, text, x, y, st, self.color(Role::Background));
        taken.push(patch);
    }

    /// True when a part of the lane lies under `r` (pixels), judged from the data so
    /// that tiny and aggregated planes count; a spot over more parts than
    /// [`SPOT_CHECKS`] looked at counts as covered.
    fn covered(&self, r: &Rect) -> bool {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            ..
        } = *self;
        let (t0, t1) = (l.clock_at(view, r.x), l.clock_at(view, r.right()));
        let (a0, a1) = (
            l.address_at(view, lane, r.bottom()),
            l.address_at(view, lane, r.y),
        );
        let mut visible = chart.lod_index().visible(chart.parts(), t0, t1);
        let mut checked = 0;
        visible.any(|k| {
            checked += 1;
            let q = &chart.parts()[k];
            let under = q.lane == lane && f64::from(q.t0) < t1 && (q.a0 as f64) < a1;
            checked > SPOT_CHECKS || (under && (q.a1 as f64) > a0)
        })
    }

    /// The address axis and the lane's title, above its chart.
    fn axes(&self, yticks: &[u64], p: &mut dyn Painter) {
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
        let axis = self.color(Role::Axis);
        p.stroke_rects(stroke(axis, 1.0), &[b.chart]);
        let span = a_hi - a_lo;
        for &a in yticks {
            let y = l.y_of(view, lane, a as f64);
            p.line(&[(b.chart.x - 4.0, y), (b.chart.x, y)], stroke(axis, 1.0));
            let label = address_label(a, span, opts.hex);
            p.text(&label, b.chart.x - 6.0, y, style(axis, 10.0, Align::Right));
        }
        if chart.titled() {
            let info = &chart.lanes()[lane];
            let st = TextStyle {
                bold: true,
                ..style(axis, 11.0, Align::Left)
            };
            let peak = format!(" — peak {}", axis::bytes_short(info.peak));
            let title = lane_title(p, &info.name, &peak, b.chart.w, st);
            p.text(&title, b.chart.x, b.chart.y - TITLE_ABOVE, st);
        }
    }
}

/// A lane's title within `width`: its name, cut at the end with `…` when the whole
/// does not fit, then `peak` whole (the figure is what a narrow screen must keep: a
/// phone cut "— peak 576.1…" off at the edge).
fn lane_title<P: Painter + ?Sized>(
    p: &mut P,
    name: &str,
    peak: &str,
    width: f64,
    st: TextStyle,
) -> String {
    let whole = format!("{name}{peak}");
    if p.text_width(&whole, st.size, st.bold) <= width {
        return whole;
    }
    let chars: Vec<char> = name.chars().collect();
    for keep in (1..chars.len()).rev() {
        let t: String = chars[..keep].iter().chain(['…'].iter()).collect();
        let t = format!("{}{peak}", t.trim_end());
        if p.text_width(&t, st.size, st.bold) <= width {
            return t;
        }
    }
    peak.trim_start_matches(" — ").to_owned()
}

/// The translucent patch under a reference label: the text's box (`x` its right end,
/// or its left end for left-aligned text; `y` its middle; `w` its width) and a margin.
fn label_box(x: f64, y: f64, w: f64, st: TextStyle) -> Rect {
    let left = match st.align {
        Align::Left => x,
        _ => x - w,
    };
    Rect {
        x: left - 3.0,
        y: y - st.size / 2.0 - 2.0,
        w: w + 6.0,
        h: st.size + 4.0,
    }
}

/// Text on a translucent patch of `background`, so the peak, lower-bound and capacity
/// labels stay readable over a dense plan. `x` is the text's right end, or its left
/// end for left-aligned text.
fn backed_text(p: &mut dyn Painter, text: &str, x: f64, y: f64, st: TextStyle, background: Color) {
    let patch = label_box(x, y, p.text_width(text, st.size, st.bold), st);
    p.fill_rects(
        Fill {
            color: background.with_alpha(210),
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

/// `r` at least 2 px wide and high, about its centre: a plane thinner than a pixel
/// snaps to a rectangle of no height, whose outline (hover, selection, a finding)
/// would not show, nor hold the pointer that found it.
fn outlinable(r: Rect) -> Rect {
    const MIN: f64 = 2.0;
    let grow = |at: f64, len: f64| {
        if len >= MIN {
            (at, len)
        } else {
            (at - (MIN - len) / 2.0, MIN)
        }
    };
    let (x, w) = grow(r.x, r.w);
    let (y, h) = grow(r.y, r.h);
    Rect { x, y, w, h }
}

fn plane_fill(chart: &Chart, plane: usize) -> Fill {
    let p = &chart.plan().planes[plane];
    let pattern = if chart.producer(plane) {
        Pattern::Hatch
    } else if p.is_striped() {
        Pattern::Stripes
    } else {
        Pattern::Solid
    };
    Fill {
        color: palette::node(chart.color_key(plane)),
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

/// How names are shortened to fit: the start most names of the plan share, and the
/// operator type of the name's writer.
struct Short<'a> {
    prefix: &'a str,
    kind: &'a str,
}

impl Short<'_> {
    /// The name, or a shorter form of it that fits in `room` pixels at font `size`,
    /// with its width: what tells it from its neighbours first. In order, the first
    /// that fits: the whole; the first of several names joined by `;` (a TFLite
    /// tensor of fused operators names its own first), without the start most names
    /// share (`functional_3_1/`: every box of a TFLite model read `functional_…`) and
    /// without a token repeated right after itself (`layer1_layer1_0_conv1` →
    /// `layer1_0_conv1`); without a trailing operator type (`_Conv`, `/Relu6`: the
    /// colour and the tooltip tell it); then, as the room shrinks, its head and its
    /// last token (`layer1_0…conv1`), its head (`block_1_ex…`, at least [`MIN_HEAD`]
    /// characters), and last its writer's operator type (`Conv2D`).
    fn fit(&self, name: &str, room: f64, size: f64, p: &mut dyn Painter) -> Option<(String, f64)> {
        let mut fits = |t: &str| {
            let w = p.text_width(t, size, false);
            (w <= room).then_some(w)
        };
        if let Some(w) = fits(name) {
            return Some((name.to_owned(), w));
        }
        let first = name
            .split(';')
            .find(|s| !s.trim().is_empty())
            .unwrap_or(name);
        // The shared start goes before repeats collapse (which would change it).
        let first = match first.strip_prefix(self.prefix) {
            Some(rest) if !self.prefix.is_empty() && !rest.is_empty() => rest,
            _ => first,
        };
        let mut short = collapse_repeats(first);
        let steps: [&dyn Fn(&str) -> String; 2] =
            [&|s| s.to_owned(), &|s| without_kind(s).to_owned()];
        for step in steps {
            short = step(&short);
            if let Some(w) = fits(&short) {
                return Some((short, w));
            }
        }
        let chars: Vec<char> = short.chars().collect();
        // The last token, when short enough to be what tells the name apart and more
        // than a number (`layer…_1` says less than `layer1_1_r…`).
        let last = short
            .rfind(SEPARATORS)
            .map(|i| &short[i..])
            .filter(|t| (3..=9).contains(&t.chars().count()))
            .filter(|t| t.chars().skip(1).any(|c| !c.is_ascii_digit()));
        let tail_len = last.map_or(0, |t| t.chars().count());
        // Estimate from the average glyph width, then step down until it fits.
        let avg = p.text_width(&short, size, false) / chars.len().max(1) as f64;
        let mut fits = |t: &str| {
            let w = p.text_width(t, size, false);
            (w <= room).then_some(w)
        };
        if let Some(last) = last {
            let head_max = chars.len().saturating_sub(tail_len + 1);
            let mut n = (((room / avg) as usize).saturating_sub(tail_len + 1)).min(head_max);
            while n >= MIN_HEAD {
                let t: String = chars[..n].iter().chain(['…'].iter()).collect::<String>() + last;
                if let Some(w) = fits(&t) {
                    return Some((t, w));
                }
                n -= 1;
            }
        }
        let mut n = ((room / avg) as usize).min(chars.len().saturating_sub(1));
        while n >= MIN_HEAD {
            let t: String = chars[..n].iter().chain(['…'].iter()).collect();
            if let Some(w) = fits(&t) {
                return Some((t, w));
            }
            n -= 1;
        }
        let kind = self.kind.trim();
        fits(kind)
            .filter(|_| !kind.is_empty())
            .map(|w| (kind.to_owned(), w))
    }
}

/// Fewer characters of a name's head than this say nothing: its head and last token,
/// or its operator type, or no label then.
const MIN_HEAD: usize = 5;

/// Font size of the step names under the clock ticks.
const NAME_FONT: f64 = 9.0;

/// `name` without a last `_`- or `/`-separated token that is an operator type
/// (`Conv`, `MatMul`, TFLite's `Relu6`: an upper-case letter then letters or digits),
/// when something is left.
fn without_kind(name: &str) -> &str {
    match name.rsplit_once(['_', '/']) {
        Some((head, kind))
            if !head.is_empty()
                && kind.starts_with(|c: char| c.is_ascii_uppercase())
                && kind.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            head
        }
        _ => name,
    }
}

/// `name` without a `_`/`.`/`/`-separated token that repeats the one before it
/// (ONNX paths exported by Aidge read `layer1_layer1_0_…`).
fn collapse_repeats(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut last: Option<&str> = None;
    let mut rest = name;
    while !rest.is_empty() {
        let end = rest.find(['_', '.', '/']).map_or(rest.len(), |i| i + 1);
        let (tok, more) = rest.split_at(end);
        let word = tok.trim_end_matches(['_', '.', '/']);
        if last != Some(word) || word.is_empty() {
            out.push_str(tok);
        }
        last = Some(word);
        rest = more;
    }
    out
}

impl LaneCtx<'_> {
    /// Names inside their planes where they fit, largest planes first, never overlapping
    /// another label; a label stays in the span before a later plane covers its plane.
    fn place_labels(&self, drawn: &[Drawn], p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            chart, view, l, b, ..
        } = *self;
        let clip = b.chart;
        let mut order: Vec<&Drawn> = drawn
            .iter()
            .filter(|d| d.rect.h >= FONT + 2.0 && d.rect.w >= 12.0)
            .collect();
        order.sort_by(|a, b| (b.rect.w * b.rect.h).total_cmp(&(a.rect.w * a.rect.h)));
        // Placed boxes bucketed by 64-px column, to keep the overlap test short.
        let mut buckets: BTreeMap<i64, Vec<Rect>> = BTreeMap::new();
        let mut placed_planes: Vec<bool> = vec![false; chart.plan().planes.len()];
        for d in order {
            if frame.labels.len() >= MAX_LABELS {
                break;
            }
            if placed_planes[d.plane] {
                continue;
            }
            let covered = l.x_of(view, chart.covered_from(d.plane) as f64);
            let x0 = d.rect.x.max(clip.x);
            let x1 = d.rect.right().min(clip.right()).min(covered);
            let y0 = d.rect.y.max(clip.y);
            let y1 = d.rect.bottom().min(clip.bottom());
            if x1 - x0 < 12.0 || y1 - y0 < FONT + 2.0 {
                continue;
            }
            let kind = chart
                .plan()
                .steps
                .get(chart.plan().planes[d.plane].node)
                .map_or("", |s| s.kind.as_str());
            let short = Short {
                prefix: chart.name_prefix(),
                kind,
            };
            let Some((name, w)) = short.fit(&chart.name(d.plane), x1 - x0 - 6.0, FONT, p) else {
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
            frame.labels.push((d.plane, bx, name));
        }
    }

    /// Live bytes per clock as bars, merged per pixel column (max of the column).
    fn strip(&self, xticks: &[u64], p: &mut dyn Painter) {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            ..
        } = *self;
        let info = &chart.lanes()[lane];
        let s = b.strip;
        let solid = |role| Fill {
            color: self.color(role),
            pattern: Pattern::Solid,
        };
        p.clip(Some(s));
        p.fill_rects(solid(Role::StripBackground), &[s]);
        for &t in xticks {
            let x = view.snap(l.x_of(view, t as f64)) + 0.5 / view.dpr;
            p.line(
                &[(x, s.y), (x, s.bottom())],
                stroke(self.color(Role::Grid), 1.0),
            );
        }
        let cols = s.w.ceil() as usize;
        let mut col_max: Vec<u64> = vec![0; cols];
        let top = info.max_live.max(1) as f64;
        for (k, &(from, bytes)) in info.live.iter().enumerate() {
            let to = info
                .live
                .get(k + 1)
                .map_or(chart.horizon() as f64, |r| f64::from(r.0));
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
        p.fill_rects(solid(Role::Strip), &bars);
        p.clip(None);
        let axis = self.color(Role::Axis);
        p.stroke_rects(stroke(axis, 1.0), &[s]);
        let middle = s.y + s.h / 2.0;
        p.text(
            "live",
            s.x - 6.0,
            middle - 6.0,
            style(axis, 10.0, Align::Right),
        );
        let max = axis::bytes_short(info.max_live);
        p.text(
            &max,
            s.x - 6.0,
            middle + 6.0,
            style(axis, 9.0, Align::Right),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::collapse_repeats;

    #[test]
    fn a_trailing_operator_type_is_dropped() {
        use super::without_kind;
        assert_eq!(without_kind("layer1_0_conv1_Conv"), "layer1_0_conv1");
        assert_eq!(without_kind("block0_fc1_add"), "block0_fc1_add");
        assert_eq!(without_kind("Conv"), "Conv");
    }

    #[test]
    fn a_token_repeated_right_after_itself_is_dropped() {
        assert_eq!(
            collapse_repeats("layer1_layer1_0_conv1_Conv"),
            "layer1_0_conv1_Conv"
        );
        assert_eq!(collapse_repeats("a__b"), "a__b");
        assert_eq!(collapse_repeats("conv1_Conv"), "conv1_Conv");
        assert_eq!(collapse_repeats("x/x/y"), "x/y");
    }
}
