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
//!
//! Split by what it draws: the plane rectangles, the raster of tiny planes and their
//! emphasis ([`planes`]); the reference lines of the peak, lower bound and capacity
//! with their labels ([`references`]); the plane names ([`labels`]); grid, axes, titles,
//! the live-bytes strip and the marked clock ([`axes`]). This module holds what a frame
//! is (its [`Options`] and [`Frame`]), the [`Renderer`] and the per-lane context every
//! part reads ([`LaneCtx`]).

mod axes;
mod labels;
mod planes;
mod references;

use super::axis::{self, clock_ticks};
use super::chart::Chart;
use super::lod::{Occupancy, OccupancyStats};
use super::paint::{Align, Color, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use super::palette;
use super::theme::{Role, Theme};
use super::view::{LaneBox, PixelLayout, View};
use crate::model::Clock;

/// Below this size (CSS pixels) in width or height a part is rasterized.
pub const TINY: f64 = 1.5;
/// Label font size (CSS pixels).
pub const FONT: f64 = 11.0;
/// Above this many parts in the view's clocks, a frame is drawn from occupancy tiles
/// ([`super::lod`]): visiting them all would cost more than a frame's budget.
pub const EXACT_LIMIT: usize = 10_000;
/// Above this many runs of equal cells (per row), the raster of tiny planes is painted
/// in one colour: the one place that decides it, for every surface.
pub const DENSE_RUNS: usize = 40_000;

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
        axes::step_names(chart, view, &layout, &xticks, p, &mut frame, opts);
        let middle = layout.plot_x + layout.plot_w / 2.0;
        p.text(chart.words().clock, middle, y + 37.0, label);
        frame
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
