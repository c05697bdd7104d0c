//! What embedding, sharing, exporting and the keyboard need from the [`Viewer`]: the
//! view as four numbers (for links), a theme, the SVG of the view (the scene's
//! `SvgPainter`, the very code `memplan render` runs), the text exports of
//! `planning::export`, keyboard moves between planes (`scene::nav`), and [`Picture`]:
//! a frame recorded once at any size and replayed tile by tile onto a small canvas,
//! so the page can write a PNG wider than any canvas may be.

use super::canvas::CanvasPainter;
use super::{to_js, Viewer};
use crate::formats::{Document, Export, Format};
use crate::planning;
use crate::scene::nav::{self, Dir};
use crate::scene::svg::to_svg;
use crate::scene::theme::Theme;
use crate::scene::{self, info, Call, Fill, Frame, Painter, RecordingPainter, Rect, Stroke};
use crate::scene::{TextStyle, View};
use crate::strategies::Budget;
use wasm_bindgen::prelude::*;
use web_sys::CanvasRenderingContext2d;

/// Largest export side in CSS pixels: beyond, layout arrays (one cell per pixel
/// column) stop being small.
const MAX_EXPORT_SIDE: f64 = 200_000.0;

/// Records calls like [`RecordingPainter`] but measures text on the page's canvas,
/// so the labels of an export are placed exactly as on screen.
struct Measured<'a> {
    rec: RecordingPainter,
    measure: &'a mut CanvasPainter,
}

impl Painter for Measured<'_> {
    fn fill_rects(&mut self, fill: Fill, rects: &[Rect]) {
        self.rec.fill_rects(fill, rects);
    }
    fn stroke_rects(&mut self, stroke: Stroke, rects: &[Rect]) {
        self.rec.stroke_rects(stroke, rects);
    }
    fn line(&mut self, points: &[(f64, f64)], stroke: Stroke) {
        self.rec.line(points, stroke);
    }
    fn text(&mut self, text: &str, x: f64, y: f64, style: TextStyle) {
        self.rec.text(text, x, y, style);
    }
    fn text_width(&mut self, text: &str, size: f64, bold: bool) -> f64 {
        self.measure.text_width(text, size, bold)
    }
    fn clip(&mut self, rect: Option<Rect>) {
        self.rec.clip(rect);
    }
}

/// Plays recorded calls on another painter.
fn replay(calls: &[Call], p: &mut dyn Painter) {
    for c in calls {
        match c {
            Call::Fill(f, rs) => p.fill_rects(*f, rs),
            Call::Stroke(s, rs) => p.stroke_rects(*s, rs),
            Call::Line(pts, s) => p.line(pts, *s),
            Call::Text(t, x, y, s) => p.text(t, *x, *y, *s),
            Call::Clip(r) => p.clip(*r),
        }
    }
}

/// One frame drawn at export size, kept as painter calls.
#[wasm_bindgen]
pub struct Picture {
    calls: Vec<Call>,
    frame: Frame,
    /// Output pixels per CSS pixel.
    scale: f64,
    /// Size in output pixels.
    width: u32,
    height: u32,
}

#[wasm_bindgen]
impl Picture {
    /// Width in output pixels.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height in output pixels.
    pub fn height(&self) -> u32 {
        self.height
    }
    /// What the picture drew (`scene::Frame`), in CSS pixels.
    pub fn frame(&self) -> JsValue {
        to_js(&self.frame)
    }

    /// Paints the part of the picture whose top-left output pixel is `(x, y)` onto
    /// `ctx` (a canvas of the tile's size). The pattern phase follows the picture's
    /// origin, so tiles join without seams.
    pub fn paint_tile(&self, ctx: CanvasRenderingContext2d, x: f64, y: f64) -> Result<(), JsValue> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| JsValue::from_str("no document"))?;
        let mut painter = CanvasPainter::new(&document, ctx.clone());
        painter.begin(self.scale);
        ctx.set_transform(self.scale, 0.0, 0.0, self.scale, -x, -y)?;
        replay(&self.calls, &mut painter);
        painter.end();
        Ok(())
    }
}

impl Viewer {
    /// The current file's view at another CSS size (same clocks and addresses), the
    /// hover left out: what an export shows.
    fn export_view(&self, width: f64, height: f64, dpr: f64) -> Result<(usize, View), JsValue> {
        if !(width >= 100.0
            && height >= 80.0
            && width <= MAX_EXPORT_SIDE
            && height <= MAX_EXPORT_SIDE)
        {
            return Err(JsValue::from_str(&format!(
                "export size {width} × {height}: each side must be in 100..{MAX_EXPORT_SIDE} (height ≥ 80)"
            )));
        }
        let i = self
            .current
            .filter(|&i| i < self.files.len())
            .ok_or_else(|| JsValue::from_str("no plan open"))?;
        let v = self.files[i].view;
        Ok((
            i,
            View {
                width,
                height,
                dpr,
                ..v
            },
        ))
    }

    /// Exports are exact (one rectangle per part) whatever the plan's size, and the
    /// same as `memplan render`'s.
    fn export_options(&self) -> scene::Options {
        scene::Options {
            hover: None,
            exact_limit: Some(usize::MAX),
            ..self.opts.clone()
        }
    }
}

#[wasm_bindgen]
impl Viewer {
    /// Opens a file like [`Viewer::open`], then, when `strategy` is not empty or
    /// `aidge`, re-places it with that strategy (`greedy-size`, `search`, `best`…): a
    /// buffer list's buffers or a plan's spaces, as `memplan plan --strategy` does.
    /// The search gets a small budget (a docs page must not freeze).
    ///
    /// `companion` and `companion_bytes`, when given, are the file `name` needs beside
    /// it ([`companion_of`]).
    pub fn open_with(
        &mut self,
        name: &str,
        bytes: &[u8],
        strategy: &str,
        companion: Option<String>,
        companion_bytes: Option<Vec<u8>>,
    ) -> Result<usize, JsValue> {
        let err = |e: crate::Error| JsValue::from_str(&e.to_string());
        let choice = if strategy.is_empty() {
            planning::AS_LOADED
        } else {
            strategy
        };
        let request = planning::Request::new(choice, Budget::millis(300)).map_err(err)?;
        let session = match (companion, companion_bytes) {
            (Some(other), Some(other_bytes)) => {
                planning::Session::open_pair(name, bytes, &other, &other_bytes)
            }
            _ => planning::Session::open(name, bytes),
        };
        let (plan, _) = session
            .and_then(|mut session| session.plan(&request))
            .map_err(err)?;
        Ok(self.show(name, scene::Chart::new(plan), false))
    }

    /// `light` or `dark` chrome; anything else is light.
    pub fn set_theme(&mut self, name: &str) {
        self.opts.theme = Theme::from_name(name).unwrap_or_default();
    }

    /// The visible part of the current file: `[t0, t1, a0, a1]`, clocks then
    /// addresses as fractions of the lane extent (what a link fragment stores).
    pub fn view(&self) -> Vec<f64> {
        self.current
            .and_then(|i| self.files.get(i))
            .map(|f| vec![f.view.t0, f.view.t1, f.view.y0, f.view.y1])
            .unwrap_or_default()
    }

    /// Shows `[t0, t1)` × `[a0, a1)`; ignores empty or non-finite ranges.
    pub fn set_view(&mut self, t0: f64, t1: f64, a0: f64, a1: f64) {
        let ok = [t0, t1, a0, a1].iter().all(|x| x.is_finite()) && t0 < t1 && a0 < a1;
        if let (true, Some(f)) = (ok, self.current.and_then(|i| self.files.get_mut(i))) {
            f.view.t0 = t0;
            f.view.t1 = t1;
            f.view.y0 = a0;
            f.view.y1 = a1;
        }
    }

    /// The pinned plane, if any.
    pub fn selected(&self) -> Option<u32> {
        self.opts.selected.map(|i| i as u32)
    }

    /// Number of planes of the current file.
    pub fn plane_count(&self) -> usize {
        self.current
            .and_then(|i| self.files.get(i))
            .map_or(0, |f| f.chart.plan.planes.len())
    }

    /// Number of steps of the current file (a buffer list has one per clock, which can
    /// be millions: `share.js` must not export such a plan into a link).
    pub fn step_count(&self) -> usize {
        self.current
            .and_then(|i| self.files.get(i))
            .map_or(0, |f| f.chart.plan.steps.len())
    }

    /// The SVG of the current view at `width` × `height` CSS pixels, drawn by the
    /// scene's SVG painter (the code `memplan render` runs).
    pub fn svg(&self, width: f64, height: f64) -> Result<String, JsValue> {
        let (i, view) = self.export_view(width, height, 1.0)?;
        let (svg, _) = to_svg(&self.files[i].chart, &view, &self.export_options());
        Ok(svg)
    }

    /// The current view recorded at `width` × `height` CSS pixels for a PNG of
    /// `scale` output pixels per CSS pixel; see [`Picture::paint_tile`].
    pub fn picture(&mut self, width: f64, height: f64, scale: f64) -> Result<Picture, JsValue> {
        if !(scale > 0.0 && scale <= 16.0) {
            return Err(JsValue::from_str("scale must be in (0, 16]"));
        }
        let (i, view) = self.export_view(width, height, scale)?;
        let opts = self.export_options();
        let mut m = Measured {
            rec: RecordingPainter::new(),
            measure: &mut self.painter,
        };
        let frame = scene::render(&self.files[i].chart, &view, &opts, &mut m);
        Ok(Picture {
            calls: m.rec.calls,
            frame,
            scale,
            width: (width * scale).round() as u32,
            height: (height * scale).round() as u32,
        })
    }

    /// The current plan as text: `memplan` (JSON), `aidge` (memory_info log), `csv`,
    /// `header` (C) — any name `memplan convert --format` takes.
    pub fn export(&self, format: &str) -> Result<String, JsValue> {
        let export = Export::from_name(format).ok_or_else(|| {
            JsValue::from_str(&format!("unknown format `{format}`: {}", Export::NAMES))
        })?;
        let f = self
            .current
            .and_then(|i| self.files.get(i))
            .ok_or_else(|| JsValue::from_str("no plan open"))?;
        let doc = Document {
            format: Format::Memplan,
            plan: Some(f.chart.plan.clone()),
            schedule: None,
            buffers: None,
            warnings: Vec::new(),
        };
        planning::export(&doc, export)
            .map_err(|e| JsValue::from_str(&e.in_file(&f.name).to_string()))
    }

    /// Moves the selection with an arrow key (`ArrowLeft`…), starting from the peak
    /// plane when nothing is pinned; returns the new selection's details or null.
    pub fn navigate(&mut self, key: &str) -> JsValue {
        let Some(f) = self.current.and_then(|i| self.files.get(i)) else {
            return JsValue::NULL;
        };
        let next = match (self.opts.selected, Dir::from_key(key)) {
            (Some(from), Some(dir)) => nav::neighbour(&f.chart, from, dir),
            (None, Some(_)) => nav::peak_plane(&f.chart),
            _ => None,
        };
        match next {
            Some(p) => self.select_plane(p),
            None => JsValue::NULL,
        }
    }

    /// Selects the plane at the peak and reveals it; returns its details or null.
    pub fn select_peak(&mut self) -> JsValue {
        match self
            .current
            .and_then(|i| self.files.get(i))
            .and_then(|f| nav::peak_plane(&f.chart))
        {
            Some(p) => self.select_plane(p),
            None => JsValue::NULL,
        }
    }

    /// Details of the first `limit` planes, for the page's hidden table of buffers.
    pub fn planes(&self, limit: usize) -> JsValue {
        let rows: Vec<info::PlaneInfo> = self
            .current
            .and_then(|i| self.files.get(i))
            .map(|f| {
                (0..f.chart.plan.planes.len().min(limit))
                    .filter_map(|p| info::plane_info(&f.chart, p))
                    .collect()
            })
            .unwrap_or_default();
        to_js(&rows)
    }
}

/// The name of the file that file `name` (with content `bytes`) needs beside it to be
/// read, if any: the page and `<memplan-view>` fetch or pair it
/// ([`crate::formats::companion`]: XLA's live ranges beside its buffer assignment).
/// `bytes` may be empty: then any name that can have a companion gets one.
#[wasm_bindgen]
pub fn companion_of(name: &str, bytes: &[u8]) -> Option<String> {
    if bytes.is_empty() {
        return crate::formats::xla::companion_name(name);
    }
    crate::formats::companion(name, bytes)
}
