//! The viewport: which clocks and which addresses are shown, and where each lane sits
//! on the canvas. The core takes a CSS size and a device-pixel ratio and never asks
//! the DOM; every data→pixel conversion goes through [`PixelLayout`].

use super::chart::Chart;
use super::geom::Rect;

/// Margins around the plot, in CSS pixels: y tick labels on the left (at least
/// [`LEFT`]: wider for a plan whose hex addresses need it, [`left_margin`]), clock
/// ticks under the last lane, the names of the steps at them, and the axis title.
pub const LEFT: f64 = 76.0;
pub const RIGHT: f64 = 14.0;
pub const TOP: f64 = 10.0;
pub const BOTTOM: f64 = 46.0;
/// Width of a digit of the axis font (10 px sans-serif; DejaVu Sans's 0.636 em).
const AXIS_DIGIT: f64 = 6.4;
/// Between lanes, and above the first when lanes have titles ([`Chart::titled`]): the
/// title stands there, above the chart, where no line or plane can cross it.
const LANE_GAP: f64 = 22.0;
pub const TITLED_TOP: f64 = LANE_GAP;

/// What is visible. Addresses are fractions of each lane's extent, so one zoom
/// applies to lanes of different sizes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Canvas size in CSS pixels and the device-pixel ratio.
    pub width: f64,
    pub height: f64,
    pub dpr: f64,
    /// Visible clocks `[t0, t1)`.
    pub t0: f64,
    pub t1: f64,
    /// Visible addresses `[y0, y1)` as fractions of the lane extent.
    pub y0: f64,
    pub y1: f64,
    /// CSS pixels kept above the lanes for a picture's title ([`super::Options::title`]:
    /// an exported SVG or PNG says which plan it shows); 0 on screen.
    pub title_band: f64,
}

/// Headroom above the peak in the fitted view, so the peak line and its label show.
pub const FIT_TOP: f64 = 1.08;

impl View {
    /// The whole plan on a canvas of this size.
    pub fn fit(chart: &Chart, width: f64, height: f64, dpr: f64) -> View {
        View {
            width,
            height,
            dpr: if dpr > 0.0 { dpr } else { 1.0 },
            t0: 0.0,
            t1: chart.horizon() as f64,
            y0: 0.0,
            y1: FIT_TOP,
            title_band: 0.0,
        }
    }

    /// Zooms time by `factor` (> 1 zooms in) keeping the clock under `x` fixed.
    pub fn zoom_time(&mut self, chart: &Chart, x: f64, factor: f64) {
        let l = PixelLayout::new(chart, self);
        let t = l.clock_at(self, x);
        let span = ((self.t1 - self.t0) / factor).clamp(0.5, chart.horizon() as f64 * 4.0);
        let k = (t - self.t0) / (self.t1 - self.t0);
        self.t0 = t - k * span;
        self.t1 = self.t0 + span;
    }

    /// Zooms addresses by `factor` keeping the address under `y` fixed.
    pub fn zoom_address(&mut self, chart: &Chart, y: f64, factor: f64) {
        let l = PixelLayout::new(chart, self);
        let lane = l.lane_at(y).unwrap_or(0);
        let Some(b) = l.lanes.get(lane) else {
            return;
        };
        let f = self.y0 + (b.chart.bottom() - y) / b.chart.h * (self.y1 - self.y0);
        let span = ((self.y1 - self.y0) / factor).clamp(1e-9, FIT_TOP * 4.0);
        let k = (f - self.y0) / (self.y1 - self.y0);
        self.y0 = f - k * span;
        self.y1 = self.y0 + span;
    }

    /// Moves the view by a drag of `(dx, dy)` CSS pixels.
    pub fn pan(&mut self, chart: &Chart, dx: f64, dy: f64) {
        let l = PixelLayout::new(chart, self);
        let dt = dx / l.plot_w.max(1.0) * (self.t1 - self.t0);
        self.t0 -= dt;
        self.t1 -= dt;
        if let Some(b) = l.lanes.first() {
            let df = dy / b.chart.h.max(1.0) * (self.y1 - self.y0);
            self.y0 += df;
            self.y1 += df;
        }
    }

    /// Brings clocks `[t0, t1)` and address fractions `[f0, f1)` (a selection) into
    /// view, and keeps the view inside the plan (`horizon` clocks, address fractions up
    /// to `top`, the fitted view's top: [`FIT_TOP`] on the main chart): a view already
    /// showing the selection only comes back inside the plan; else it is centred on
    /// it, zoomed out only as far as the selection needs. So `P` and the arrow keys
    /// never show empty clocks or negative addresses.
    pub fn reveal(&mut self, horizon: f64, top: f64, t: (f64, f64), f: (f64, f64)) {
        (self.t0, self.t1) = reveal_axis((self.t0, self.t1), t, horizon, 0.0);
        (self.y0, self.y1) = reveal_axis((self.y0, self.y1), f, top, 0.2);
    }

    /// `x` rounded to the device-pixel grid, so edges stay crisp and 1-px gaps
    /// between planes stay visible at any ratio.
    pub fn snap(&self, x: f64) -> f64 {
        (x * self.dpr).round() / self.dpr
    }
}

/// One axis of [`View::reveal`]: the range `shown` moved (and widened up to the
/// selection plus `margin` of it, never past `[0, limit]`) so it holds `sel`.
fn reveal_axis(shown: (f64, f64), sel: (f64, f64), limit: f64, margin: f64) -> (f64, f64) {
    let need = (sel.1 - sel.0) * (1.0 + margin);
    let span = (shown.1 - shown.0).max(need).min(limit);
    let mut lo = if sel.0 >= shown.0 && sel.1 <= shown.1 {
        shown.0
    } else {
        (sel.0 + sel.1) / 2.0 - span / 2.0
    };
    lo = lo.min(limit - span).max(0.0);
    (lo, lo + span)
}

/// Where one lane is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaneBox {
    /// The clock × address chart.
    pub chart: Rect,
    /// The live-bytes strip under it.
    pub strip: Rect,
}

/// Pixel geometry of a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct PixelLayout {
    pub plot_x: f64,
    pub plot_w: f64,
    pub lanes: Vec<LaneBox>,
    /// Baseline of the clock axis.
    pub axis_y: f64,
    /// Lane extents in bytes, copied for the conversions.
    extents: Vec<f64>,
}

/// The left margin of a chart: [`LEFT`], or wider when the hex label of its largest
/// address in the fitted view (`0x1C0000000`) needs it, so that the address axis is
/// not cut at the canvas's edge in either notation. The same for every frame of the
/// chart (hit-testing reads it too).
pub fn left_margin(chart: &Chart) -> f64 {
    let top = chart.lanes().iter().map(|l| l.extent).max().unwrap_or(1) as f64 * FIT_TOP;
    let digits = format!("{:X}", top as u64).len() + 2;
    LEFT.max(digits as f64 * AXIS_DIGIT + 10.0).ceil()
}

impl PixelLayout {
    pub fn new(chart: &Chart, view: &View) -> PixelLayout {
        let n = chart.lanes().len().max(1);
        let plot_x = left_margin(chart);
        let plot_w = (view.width - plot_x - RIGHT).max(10.0);
        let top = view.title_band + if chart.titled() { TITLED_TOP } else { TOP };
        let avail = (view.height - top - BOTTOM - LANE_GAP * (n - 1) as f64).max(40.0);
        let lane_h = avail / n as f64;
        let strip_h = (lane_h * 0.16).clamp(18.0, 56.0);
        let lanes = (0..n)
            .map(|i| {
                let top = top + i as f64 * (lane_h + LANE_GAP);
                let chart_h = (lane_h - strip_h - 4.0).max(10.0);
                LaneBox {
                    chart: Rect {
                        x: plot_x,
                        y: top,
                        w: plot_w,
                        h: chart_h,
                    },
                    strip: Rect {
                        x: plot_x,
                        y: top + chart_h + 4.0,
                        w: plot_w,
                        h: strip_h,
                    },
                }
            })
            .collect::<Vec<_>>();
        let axis_y = lanes.last().map_or(TOP, |b| b.strip.bottom());
        PixelLayout {
            plot_x,
            plot_w,
            lanes,
            axis_y,
            extents: chart.lanes().iter().map(|l| l.extent as f64).collect(),
        }
    }

    pub fn x_of(&self, view: &View, t: f64) -> f64 {
        self.plot_x + (t - view.t0) / (view.t1 - view.t0) * self.plot_w
    }

    pub fn clock_at(&self, view: &View, x: f64) -> f64 {
        view.t0 + (x - self.plot_x) / self.plot_w * (view.t1 - view.t0)
    }

    /// Pixel row of address `a` in lane `lane` (addresses grow upwards).
    pub fn y_of(&self, view: &View, lane: usize, a: f64) -> f64 {
        let b = &self.lanes[lane].chart;
        let f = a / self.extents.get(lane).copied().unwrap_or(1.0);
        b.bottom() - (f - view.y0) / (view.y1 - view.y0) * b.h
    }

    pub fn address_at(&self, view: &View, lane: usize, y: f64) -> f64 {
        let b = &self.lanes[lane].chart;
        let f = view.y0 + (b.bottom() - y) / b.h * (view.y1 - view.y0);
        f * self.extents.get(lane).copied().unwrap_or(1.0)
    }

    /// Visible address range `[lo, hi)` of a lane, in bytes.
    pub fn address_range(&self, view: &View, lane: usize) -> (f64, f64) {
        let e = self.extents.get(lane).copied().unwrap_or(1.0);
        (view.y0 * e, view.y1 * e)
    }

    /// The lane whose chart or strip holds row `y`.
    pub fn lane_at(&self, y: f64) -> Option<usize> {
        self.lanes
            .iter()
            .position(|b| b.chart.y <= y && y < b.strip.bottom())
    }
}
