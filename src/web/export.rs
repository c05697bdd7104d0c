//! The exports of the shown plan: the SVG of the view (the scene's `SvgPainter`, the
//! very code `memplan render` runs), the text formats of `planning::export`, and
//! [`Picture`]: a frame recorded once at any size and replayed tile by tile onto a small
//! canvas, so the page can write a PNG wider than any canvas may be.

use super::canvas::CanvasPainter;
use super::{to_js, Viewer};
use crate::scene::svg::to_svg;
use crate::scene::{self, Call, Fill, Frame, Painter, RecordingPainter, Rect, Stroke};
use crate::scene::{TextStyle, View};
#[cfg(not(feature = "lite"))]
use crate::{
    formats::{Document, Export},
    planning,
};
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
    /// A picture's view at `width` × `height`, with room for its title on top.
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
                title_band: scene::info::TITLE_BAND,
                ..v
            },
        ))
    }

    /// Exports are exact (one rectangle per part) whatever the plan's size, and the
    /// same as `memplan render`'s.
    fn export_options(&self) -> scene::Options {
        let title = self
            .current
            .and_then(|i| self.files.get(i))
            .map(|f| scene::info::picture_title(&f.name, &f.chart));
        scene::Options {
            title,
            hover: None,
            exact_limit: Some(usize::MAX),
            ..self.opts.clone()
        }
    }
}

#[wasm_bindgen]
impl Viewer {
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
    /// `header` (C) — any name `memplan convert --format` takes. The page's first
    /// module (feature `lite`) writes memplan JSON only (the page's links carry it on
    /// every change of view); for the others the page hands [`Viewer::wire`] to the
    /// whole crate's [`export_plan`].
    pub fn export(&self, format: &str) -> Result<String, JsValue> {
        let f = self
            .current
            .and_then(|i| self.files.get(i))
            .ok_or_else(|| JsValue::from_str("no plan open"))?;
        #[cfg(feature = "lite")]
        return match format {
            "memplan" | "json" => Ok(crate::formats::memplan_json::write(
                &crate::formats::Document::of_plan(f.chart.plan().clone()),
            )),
            _ => Err(JsValue::from_str(&format!(
                "{format}: not written by the page's first module (pkg-lite)"
            ))),
        };
        #[cfg(not(feature = "lite"))]
        export_text(&f.name, f.chart.plan().clone(), format)
    }

    /// The current file's plan as wire bytes ([`crate::formats::wire`], with its stats
    /// and checker report), for [`export_plan`] in another module; empty when no file
    /// is open.
    pub fn wire(&self) -> Vec<u8> {
        self.current
            .and_then(|i| self.files.get(i))
            .map(|f| {
                let c = &f.chart;
                crate::formats::wire::encode(c.plan(), c.stats(), c.report())
            })
            .unwrap_or_default()
    }
}

/// The plan of wire bytes (a [`Viewer::wire`] of the page's first module) as text in
/// `format`, as [`Viewer::export`] writes it; `name` names the file in errors.
#[cfg(not(feature = "lite"))]
#[wasm_bindgen]
pub fn export_plan(name: &str, wire: &[u8], format: &str) -> Result<String, JsValue> {
    let plan = crate::formats::wire::decode(wire)
        .map_err(|e| JsValue::from_str(&e.in_file(name).to_string()))?
        .plan;
    export_text(name, plan, format)
}

#[cfg(not(feature = "lite"))]
fn export_text(name: &str, plan: crate::Plan, format: &str) -> Result<String, JsValue> {
    let export = Export::from_name(format).ok_or_else(|| {
        JsValue::from_str(&format!("unknown format `{format}`: {}", Export::names()))
    })?;
    planning::export(&Document::of_plan(plan), export)
        .map_err(|e| JsValue::from_str(&e.in_file(name).to_string()))
}

/// A `.tflite` with a plan written in ([`crate::formats::tflite::with_plan`]): its bytes
/// and what to set the arena to.
#[cfg(not(feature = "lite"))]
#[wasm_bindgen]
pub struct TfliteWritten {
    bytes: Vec<u8>,
    summary: String,
}

#[cfg(not(feature = "lite"))]
#[wasm_bindgen]
impl TfliteWritten {
    #[wasm_bindgen(getter)]
    pub fn bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }
    #[wasm_bindgen(getter)]
    pub fn summary(&self) -> String {
        self.summary.clone()
    }
}

/// The `.tflite` `model` (named `name` in errors) with the plan of wire bytes (a
/// [`Viewer::wire`]) as its offline plan: the bytes `memplan plan model.tflite -o
/// out.tflite` writes for the same plan, checked the same way.
#[cfg(not(feature = "lite"))]
#[wasm_bindgen]
pub fn tflite_with_plan(name: &str, model: &[u8], wire: &[u8]) -> Result<TfliteWritten, JsValue> {
    let err = |e: crate::Error| JsValue::from_str(&e.in_file(name).to_string());
    let plan = crate::formats::wire::decode(wire).map_err(err)?.plan;
    let written = crate::formats::tflite::with_plan(model, &plan).map_err(err)?;
    Ok(TfliteWritten {
        summary: written.summary(),
        bytes: written.bytes,
    })
}
