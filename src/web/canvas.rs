//! The canvas [`Painter`]: turns the scene's batched calls into Canvas 2D calls.
//! Coordinates arrive in CSS pixels; the context's transform scales them by the
//! device-pixel ratio, so the backing store stays sharp. Styles are cached to skip
//! redundant property writes, each of which crosses from wasm into JS.

use crate::scene::paint::paint_runs;
use crate::scene::paint::Align;
use crate::scene::{Cells, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use wasm_bindgen::{Clamped, JsCast, JsValue};
use web_sys::{CanvasPattern, CanvasRenderingContext2d, Document, HtmlCanvasElement, ImageData};

pub struct CanvasPainter {
    ctx: CanvasRenderingContext2d,
    stripes: Option<CanvasPattern>,
    hatch: Option<CanvasPattern>,
    /// An off-screen canvas the cell grids are written to, then drawn scaled.
    scratch: Option<(HtmlCanvasElement, CanvasRenderingContext2d)>,
    clipped: bool,
    font: String,
}

fn scratch(document: &Document) -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
    let canvas: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    let ctx = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    Some((canvas, ctx))
}

/// A small tile for a pattern: `draw` paints it once, the canvas repeats it.
fn tile(
    document: &Document,
    ctx: &CanvasRenderingContext2d,
    draw: impl Fn(&CanvasRenderingContext2d),
) -> Option<CanvasPattern> {
    let canvas: HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    canvas.set_width(8);
    canvas.set_height(8);
    let t: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    draw(&t);
    ctx.create_pattern_with_html_canvas_element(&canvas, "repeat")
        .ok()?
}

impl CanvasPainter {
    /// The painter of `canvas`'s 2D context (the page's chart, a compare half).
    pub fn for_canvas(canvas: &HtmlCanvasElement) -> Result<CanvasPainter, JsValue> {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .ok_or_else(|| JsValue::from_str("no document"))?;
        let ctx: CanvasRenderingContext2d = canvas
            .get_context("2d")?
            .ok_or_else(|| JsValue::from_str("no 2d context"))?
            .dyn_into()?;
        Ok(CanvasPainter::new(&document, ctx))
    }

    pub fn new(document: &Document, ctx: CanvasRenderingContext2d) -> CanvasPainter {
        // Stripes: light horizontal bands, so the gaps of a strided plane read as gaps.
        let stripes = tile(document, &ctx, |t| {
            t.set_fill_style_str("rgba(255,255,255,0.55)");
            t.fill_rect(0.0, 0.0, 8.0, 3.0);
        });
        // Hatching: a dark and a light diagonal, visible on any palette colour.
        let hatch = tile(document, &ctx, |t| {
            t.set_line_width(1.5);
            t.set_stroke_style_str("rgba(0,0,0,0.45)");
            t.begin_path();
            t.move_to(0.0, 8.0);
            t.line_to(8.0, 0.0);
            t.stroke();
            t.set_stroke_style_str("rgba(255,255,255,0.5)");
            t.begin_path();
            t.move_to(0.0, 4.0);
            t.line_to(4.0, 0.0);
            t.move_to(4.0, 8.0);
            t.line_to(8.0, 4.0);
            t.stroke();
        });
        CanvasPainter {
            ctx,
            stripes,
            hatch,
            scratch: scratch(document),
            clipped: false,
            font: String::new(),
        }
    }

    /// Starts a frame: device-pixel transform, state saved for the clips.
    pub fn begin(&mut self, dpr: f64) {
        self.ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0).ok();
        self.clipped = false;
        self.font.clear();
    }

    pub fn end(&mut self) {
        self.clip(None);
    }

    /// Clears `width` × `height` CSS pixels from the origin: a frame with nothing to show.
    pub fn blank(&self, width: f64, height: f64) {
        self.ctx.clear_rect(0.0, 0.0, width, height);
    }

    fn path(&self, rects: &[Rect]) {
        self.ctx.begin_path();
        for r in rects {
            self.ctx.rect(r.x, r.y, r.w, r.h);
        }
    }

    fn set_stroke(&self, s: Stroke) {
        self.ctx.set_stroke_style_str(&s.color.css());
        self.ctx.set_line_width(s.width);
        let dash = js_sys::Array::new();
        if s.dash > 0.0 {
            dash.push(&JsValue::from_f64(s.dash));
            dash.push(&JsValue::from_f64(s.dash));
        }
        self.ctx.set_line_dash(&dash).ok();
    }

    fn set_font(&mut self, size: f64, bold: bool) {
        let font = format!(
            "{}{size}px system-ui, sans-serif",
            if bold { "bold " } else { "" }
        );
        if font != self.font {
            self.ctx.set_font(&font);
            self.font = font;
        }
    }
}

impl Painter for CanvasPainter {
    fn fill_rects(&mut self, fill: Fill, rects: &[Rect]) {
        if rects.is_empty() {
            return;
        }
        self.path(rects);
        self.ctx.set_fill_style_str(&fill.color.css());
        self.ctx.fill();
        let pattern = match fill.pattern {
            Pattern::Solid => None,
            Pattern::Stripes => self.stripes.as_ref(),
            Pattern::Hatch => self.hatch.as_ref(),
        };
        if let Some(p) = pattern {
            self.ctx.set_fill_style_canvas_pattern(p);
            self.ctx.fill();
        }
    }

    /// One `putImageData` and one `drawImage`, however many runs the grid has: a
    /// zoomed-out plan of a million planes is tens of thousands of runs, which cost
    /// the canvas more than the whole frame's budget as rectangles.
    fn cells(&mut self, at: Rect, grid: &Cells) -> usize {
        let (w, h) = (grid.cols as u32, grid.rows as u32);
        if w == 0 || h == 0 || grid.cells.len() != grid.cols * grid.rows {
            return 0;
        }
        let mut rgba = vec![0u8; grid.cells.len() * 4];
        for (px, &v) in rgba.chunks_exact_mut(4).zip(grid.cells) {
            if let Some(c) = (v as usize).checked_sub(1).and_then(|k| grid.colors.get(k)) {
                px.copy_from_slice(&[c.r, c.g, c.b, c.a]);
            }
        }
        let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), w, h);
        let (Some((canvas, sctx)), Ok(image)) = (&self.scratch, image) else {
            return paint_runs(self, at, grid);
        };
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        if sctx.put_image_data(&image, 0.0, 0.0).is_err() {
            return paint_runs(self, at, grid);
        }
        self.ctx.set_image_smoothing_enabled(false);
        self.ctx
            .draw_image_with_html_canvas_element_and_dw_and_dh(
                canvas,
                at.x,
                at.y,
                f64::from(w),
                f64::from(h),
            )
            .ok();
        1
    }

    fn stroke_rects(&mut self, stroke: Stroke, rects: &[Rect]) {
        if rects.is_empty() {
            return;
        }
        self.set_stroke(stroke);
        self.path(rects);
        self.ctx.stroke();
    }

    fn line(&mut self, points: &[(f64, f64)], stroke: Stroke) {
        let Some(&(x, y)) = points.first() else {
            return;
        };
        self.set_stroke(stroke);
        self.ctx.begin_path();
        self.ctx.move_to(x, y);
        for &(x, y) in &points[1..] {
            self.ctx.line_to(x, y);
        }
        self.ctx.stroke();
    }

    fn text(&mut self, text: &str, x: f64, y: f64, style: TextStyle) {
        self.set_font(style.size, style.bold);
        self.ctx.set_text_align(match style.align {
            Align::Left => "left",
            Align::Center => "center",
            Align::Right => "right",
        });
        self.ctx.set_text_baseline("middle");
        self.ctx.set_fill_style_str(&style.color.css());
        self.ctx.fill_text(text, x, y).ok();
    }

    fn text_width(&mut self, text: &str, size: f64, bold: bool) -> f64 {
        self.set_font(size, bold);
        self.ctx
            .measure_text(text)
            .map_or(0.6 * size * text.len() as f64, |m| m.width())
    }

    fn clip(&mut self, rect: Option<Rect>) {
        if self.clipped {
            self.ctx.restore();
            self.clipped = false;
            self.font.clear();
        }
        if let Some(r) = rect {
            self.ctx.save();
            self.ctx.begin_path();
            self.ctx.rect(r.x, r.y, r.w, r.h);
            self.ctx.clip();
            self.clipped = true;
        }
    }
}
