//! The compare view: two opened plans drawn on two stacked canvases with one shared
//! view (same clocks, same bytes per pixel; [`scene::compare::on_one_scale`]), and the
//! matched-buffer table of [`scene::compare::compare`]. Pan and zoom on either canvas
//! move both. Changed and unmatched buffers are outlined on both charts, so the
//! savings show where they are; a table row selects its buffer in both.

use super::canvas::CanvasPainter;
use super::{to_js, Viewer};
use crate::scene::theme::Theme;
use crate::scene::{self, compare, hit_test, info, Chart, Frame, Options, Renderer, View};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Rows of the change table sent to the page at most (the rest are counted).
const MAX_ROWS: usize = 500;
/// Top of the fitted view as a fraction of the shared extent.
const FIT_TOP: f64 = 1.2;

struct Half {
    canvas: HtmlCanvasElement,
    painter: CanvasPainter,
    chart: Chart,
    /// The chart's frames' caches.
    renderer: Renderer,
    opts: Options,
    frame: Frame,
}

#[wasm_bindgen]
pub struct CompareView {
    halves: [Half; 2],
    view: View,
    comparison: compare::Comparison,
    /// B is drawn on A's clocks, and that moved some of its steps.
    aligned: bool,
}

fn half(
    canvas: HtmlCanvasElement,
    chart: Chart,
    changed: &[usize],
    theme: Theme,
) -> Result<Half, JsValue> {
    Ok(Half {
        painter: CanvasPainter::for_canvas(&canvas)?,
        canvas,
        chart,
        renderer: Renderer::default(),
        opts: Options {
            matches: changed.to_vec(),
            theme,
            ..Options::default()
        },
        frame: Frame::default(),
    })
}

#[wasm_bindgen]
impl CompareView {
    /// Compares files `a` (top) and `b` (bottom) of `viewer`, by id. With `align`, B's
    /// clocks are drawn on A's axis, matched by node ([`scene::align`]): the same
    /// layer at the same x in both charts however many steps fusion removed.
    #[wasm_bindgen(constructor)]
    pub fn new(
        top: HtmlCanvasElement,
        bottom: HtmlCanvasElement,
        viewer: &Viewer,
        a: u32,
        b: u32,
        align: bool,
    ) -> Result<CompareView, JsValue> {
        let chart = |id: u32| {
            viewer
                .index_of(id)
                .map(|i| viewer.files[i].chart.clone())
                .ok_or_else(|| JsValue::from_str(&format!("no opened file {id}")))
        };
        let (ca, mut cb) = (chart(a)?, chart(b)?);
        let comparison = compare::compare(&ca, &cb, MAX_ROWS);
        let mut aligned = false;
        if align {
            // Drawn on A's clocks. The comparison above and the findings are B's as it
            // is: squeezing clocks could make spaces that follow each other overlap.
            let plan = scene::align::align_to(ca.plan(), cb.plan());
            aligned = plan.steps != cb.plan().steps;
            let stats = crate::stats::stats(&plan);
            let capacities: Vec<_> = cb.lanes().iter().map(|l| l.capacity).collect();
            let layout_bound = cb.layout_bound();
            let floor = cb.stats().lower_bound;
            cb = Chart::with(plan, stats, cb.report().clone());
            cb = match layout_bound {
                true => cb.with_layout_bound(),
                // The bound B was shown with (over every layout, for a schedule).
                false => cb.with_floor(floor),
            };
            // A buffer list's capacity is the file's, not the plan's: B keeps its line.
            for (lane, c) in capacities.into_iter().enumerate() {
                if let Some(c) = c {
                    cb = cb.with_capacity(lane, c);
                }
            }
        }
        // A buffer has one colour in both charts: B's planes take their pair's node in
        // A; B's own (unpaired) take keys past A's nodes.
        let mut keys: Vec<usize> = cb
            .plan()
            .planes
            .iter()
            .map(|p| p.node + ca.plan().steps.len())
            .collect();
        for &(i, j) in &comparison.pairs {
            if let (Some(k), Some(p)) = (keys.get_mut(j), ca.plan().planes.get(i)) {
                *k = p.node;
            }
        }
        let cb = cb.recolored(|j| keys[j]);
        let (ca, cb) = compare::on_one_scale(ca, cb);
        let view = View::fit(&ca, 300.0, 150.0, 1.0);
        Ok(CompareView {
            halves: [
                half(top, ca, &comparison.changed[0], viewer.opts.theme)?,
                half(bottom, cb, &comparison.changed[1], viewer.opts.theme)?,
            ],
            view,
            comparison,
            aligned,
        })
    }

    /// Sizes both canvases (each `css_width` × `css_height`) and fits the view.
    pub fn resize(&mut self, css_width: f64, css_height: f64, dpr: f64) {
        let dpr = if dpr > 0.0 { dpr } else { 1.0 };
        for h in &self.halves {
            h.canvas
                .set_width((css_width * dpr).round().max(1.0) as u32);
            h.canvas
                .set_height((css_height * dpr).round().max(1.0) as u32);
        }
        self.view.width = css_width.max(1.0);
        self.view.height = css_height.max(1.0);
        self.view.dpr = dpr;
    }

    /// Both plans whole, with room above the higher peak for its label (each half
    /// is only half as tall as the main chart).
    pub fn fit(&mut self) {
        let v = self.view;
        self.view = View::fit(&self.halves[0].chart, v.width, v.height, v.dpr);
        self.view.y1 = FIT_TOP;
    }

    /// Draws both halves; true when either should be drawn again next frame (see
    /// `Viewer::render`).
    pub fn render(&mut self) -> bool {
        let mut again = false;
        for h in &mut self.halves {
            h.painter.begin(self.view.dpr);
            h.frame = h
                .renderer
                .render(&h.chart, &self.view, &h.opts, &mut h.painter);
            h.painter.end();
            again |= h.frame.refining();
        }
        again
    }

    /// `light` or `dark`, as the page (`Viewer::set_theme`).
    pub fn set_theme(&mut self, name: &str) {
        let theme = Theme::from_name(name).unwrap_or_default();
        for h in &mut self.halves {
            h.opts.theme = theme;
        }
    }

    /// Selects a table row's buffer: plane `a` of the top chart and `b` of the bottom
    /// one (either may be absent), and brings it into view.
    pub fn select(&mut self, a: Option<usize>, b: Option<usize>) {
        self.halves[0].opts.selected = a;
        self.halves[1].opts.selected = b;
        let shown = [(0, a), (1, b)]
            .into_iter()
            .find_map(|(w, p)| Some((w, self.halves[w].chart.parts_of(p?).next().copied()?)));
        if let Some((w, q)) = shown {
            let chart = &self.halves[w].chart;
            let e = chart.lanes()[q.lane].extent as f64;
            let t = (f64::from(q.t0), q.t1 as f64);
            let f = (q.a0 as f64 / e, q.a1 as f64 / e);
            self.view.reveal(chart.horizon() as f64, FIT_TOP, t, f);
        }
    }

    pub fn zoom_time(&mut self, x: f64, factor: f64) {
        self.view.zoom_time(&self.halves[0].chart, x, factor);
    }

    /// Zooms addresses around row `y` of canvas `which` (0 top, 1 bottom).
    pub fn zoom_address(&mut self, which: usize, y: f64, factor: f64) {
        let chart = &self.halves[which.min(1)].chart;
        self.view.zoom_address(chart, y, factor);
    }

    pub fn pan(&mut self, which: usize, dx: f64, dy: f64) {
        let chart = &self.halves[which.min(1)].chart;
        self.view.pan(chart, dx, dy);
    }

    /// The plane under `(x, y)` of canvas `which`, outlined in the other half too when it
    /// changed place; its details, or null.
    pub fn hover(&mut self, which: usize, x: f64, y: f64) -> JsValue {
        let w = which.min(1);
        let hit = hit_test(&self.halves[w].chart, &self.view, x, y).map(|h| h.plane);
        let other = hit.and_then(|p| {
            self.comparison
                .rows
                .iter()
                .find(|r| {
                    if w == 0 {
                        r.plane_a == Some(p)
                    } else {
                        r.plane_b == Some(p)
                    }
                })
                .and_then(|r| if w == 0 { r.plane_b } else { r.plane_a })
        });
        self.halves[w].opts.hover = hit;
        self.halves[1 - w].opts.hover = other;
        hit.and_then(|p| info::plane_info(&self.halves[w].chart, p))
            .map_or(JsValue::NULL, |i| to_js(&i))
    }

    /// True when B is drawn on A's clocks and that moved some of its steps.
    pub fn aligned(&self) -> bool {
        self.aligned
    }

    /// Details of plane `plane` of chart `which` (0 top, 1 bottom), or null.
    pub fn plane_info(&self, which: usize, plane: usize) -> JsValue {
        info::plane_info(&self.halves[which.min(1)].chart, plane)
            .map_or(JsValue::NULL, |i| to_js(&i))
    }

    /// Peaks, lower bounds, peak delta and the changed buffers
    /// (`scene::compare::Comparison`).
    pub fn summary(&self) -> JsValue {
        to_js(&self.comparison)
    }

    /// The indices of the summary's rows sorted by column `column` of
    /// [`compare_columns`] on its values, blanks last (`Comparison::order`).
    pub fn order(&self, column: usize, descending: bool) -> Vec<u32> {
        self.comparison
            .order(column, descending)
            .into_iter()
            .map(|i| i as u32)
            .collect()
    }

    /// What canvas `which` drew last (`scene::Frame`), for tests.
    pub fn frame(&self, which: usize) -> JsValue {
        to_js(&self.halves[which.min(1)].frame)
    }
}

/// The headers of the compare view's change table (`scene::compare::COLUMNS`); each
/// row's `cells` follow them.
#[wasm_bindgen]
pub fn compare_columns() -> Vec<String> {
    compare::COLUMNS.iter().map(|c| (*c).to_owned()).collect()
}
