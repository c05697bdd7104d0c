//! The wasm shell of the page: one `#[wasm_bindgen]` type, [`Viewer`], that holds the
//! opened files (registered by id: [`files`]) and the view, and a canvas
//! [`Painter`](crate::scene::Painter). It only forwards: parsing is `formats`, layout,
//! LOD and hit-testing are `scene`. JS hands it bytes, pointer positions in CSS pixels
//! and the `Blob`s the worker re-reads (kept, never read here); it never fetches.
//!
//! Values cross to JS with serde-wasm-bindgen; byte counts travel as strings (JS
//! numbers lose precision above 2^53).

mod canvas;
mod compare;
mod export;
mod files;
mod handoff;
mod shown;
mod worker;

use crate::scene::{self, info, Frame, Options, View};
use canvas::CanvasPainter;
use files::Opened;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// The viewer of the page: files, view, options; draws on one canvas.
#[wasm_bindgen]
pub struct Viewer {
    canvas: HtmlCanvasElement,
    painter: CanvasPainter,
    files: Vec<Opened>,
    current: Option<usize>,
    opts: Options,
    /// CSS size and device-pixel ratio of the canvas.
    size: (f64, f64, f64),
    frame: Frame,
    /// Milliseconds the last `render` took.
    last_ms: f64,
    /// The last id handed out (`files`).
    next_id: u32,
}

impl Viewer {
    /// Adds `chart` as a file named `name` (as given: the caller's own) and shows it;
    /// returns its index. The page's first module (feature `lite`) adds files only
    /// through its worker's jobs (`files`).
    #[cfg(not(feature = "lite"))]
    fn show(&mut self, name: &str, chart: scene::Chart, strategy: &str) -> usize {
        let id = self.fresh_id();
        self.add(Opened::new(id, name, chart, strategy, self.size))
    }

    /// Shows file `i` (its own view is kept across switches).
    fn select_index(&mut self, i: usize) {
        if i < self.files.len() {
            self.current = Some(i);
            self.opts.hover = None;
            self.opts.selected = None;
            self.opts.matches.clear();
            self.opts.clock = None;
            let (w, h, dpr) = self.size;
            let v = &mut self.files[i].view;
            v.width = w;
            v.height = h;
            v.dpr = dpr;
        }
    }
}

fn to_js<T: Serialize>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// `chart` with the bound its planning report states: the bound over every layout of a
/// schedule ([`crate::planning::PlanReport::floor`]), or named a layout's when that could
/// not be made ([`scene::Chart::with_layout_bound`]).
#[cfg(not(feature = "lite"))]
fn bounded(chart: scene::Chart, report: &crate::planning::PlanReport) -> scene::Chart {
    match (report.bound_scope, report.floor()) {
        (crate::planning::BoundScope::Layout, _) => chart.with_layout_bound(),
        (_, Some(floor)) => chart.with_floor(floor),
        _ => chart,
    }
}

#[wasm_bindgen]
impl Viewer {
    /// A viewer drawing on `canvas`.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<Viewer, JsValue> {
        console_error_panic_hook::set_once();
        Ok(Viewer {
            painter: CanvasPainter::for_canvas(&canvas)?,
            canvas,
            files: Vec::new(),
            current: None,
            opts: Options::default(),
            size: (300.0, 150.0, 1.0),
            frame: Frame::default(),
            last_ms: 0.0,
            next_id: 0,
        })
    }

    /// Opens a file (any format `formats::load` reads) as loaded and shows it, under
    /// `name` as given (the page opens through the worker instead: `open_job`). On
    /// error returns `file: place: message` and keeps showing what was shown. Returns
    /// the file's id. Not in the page's first module (feature `lite`), which opens
    /// files through its worker.
    #[cfg(not(feature = "lite"))]
    pub fn open(&mut self, name: &str, bytes: &[u8]) -> Result<u32, JsValue> {
        let doc =
            crate::formats::load(name, bytes).map_err(|e| JsValue::from_str(&e.to_string()))?;
        let mut session = crate::planning::Session::of(name, doc.clone());
        let (plan, report) = session
            .as_loaded()
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        let mut chart = bounded(scene::Chart::new(plan).with_words(doc.words()), &report);
        // A buffer list's capacity (MiniMalloc's file names), as the worker's plans show it.
        let list = doc.buffers.as_ref().filter(|_| doc.plan.is_none());
        if let Some(c) = list.and_then(|l| l.capacity) {
            chart = chart.with_capacity(0, c);
        }
        let i = self.show(name, chart, crate::planning::AS_LOADED);
        Ok(self.files[i].id)
    }

    /// Sizes the backing store to CSS size × device-pixel ratio.
    pub fn resize(&mut self, css_width: f64, css_height: f64, dpr: f64) {
        let dpr = if dpr > 0.0 { dpr } else { 1.0 };
        self.size = (css_width.max(1.0), css_height.max(1.0), dpr);
        self.canvas
            .set_width((css_width * dpr).round().max(1.0) as u32);
        self.canvas
            .set_height((css_height * dpr).round().max(1.0) as u32);
        for f in &mut self.files {
            f.view.width = self.size.0;
            f.view.height = self.size.1;
            f.view.dpr = dpr;
        }
    }

    /// Draws the current file (or a blank canvas, when the last file was closed). True
    /// when the frame showed coarser occupancy tiles while finer ones are being built:
    /// render again next frame.
    pub fn render(&mut self) -> bool {
        let t = now();
        let (w, h, dpr) = self.size;
        self.painter.begin(dpr);
        let Some(f) = self.current.and_then(|i| self.files.get_mut(i)) else {
            self.painter.blank(w, h);
            self.frame = Frame::default();
            return false;
        };
        self.frame = f
            .renderer
            .render(&f.chart, &f.view, &self.opts, &mut self.painter);
        self.painter.end();
        self.last_ms = now() - t;
        self.frame.refining()
    }

    /// Milliseconds the last `render` took (for the benchmark script).
    pub fn last_render_ms(&self) -> f64 {
        self.last_ms
    }

    fn file(&mut self) -> Option<&mut Opened> {
        self.current.and_then(|i| self.files.get_mut(i))
    }

    /// Zooms time around `x` (factor > 1 zooms in).
    pub fn zoom_time(&mut self, x: f64, factor: f64) {
        if let Some(f) = self.file() {
            f.view.zoom_time(&f.chart, x, factor);
        }
    }

    /// Zooms addresses around `y`.
    pub fn zoom_address(&mut self, y: f64, factor: f64) {
        if let Some(f) = self.file() {
            f.view.zoom_address(&f.chart, y, factor);
        }
    }

    /// Moves the view by a drag of `(dx, dy)` CSS pixels.
    pub fn pan(&mut self, dx: f64, dy: f64) {
        if let Some(f) = self.file() {
            f.view.pan(&f.chart, dx, dy);
        }
    }

    /// Shows the whole plan.
    pub fn fit(&mut self) {
        let (w, h, dpr) = self.size;
        if let Some(f) = self.file() {
            f.view = View::fit(&f.chart, w, h, dpr);
        }
    }

    /// The plane under `(x, y)`, as tooltip details, or null; remembers it for the
    /// hover outline.
    pub fn hover(&mut self, x: f64, y: f64) -> JsValue {
        let hit = self.current.and_then(|i| self.files.get(i)).and_then(|f| {
            let h = scene::hit_test(&f.chart, &f.view, x, y)?;
            let mut inf = info::plane_info(&f.chart, h.plane)?;
            if h.wrapped {
                inf.name.push_str(" (wrapped part)");
            }
            Some((h.plane, inf))
        });
        self.opts.hover = hit.as_ref().map(|h| h.0);
        hit.map_or(JsValue::NULL, |h| to_js(&h.1))
    }

    /// Pins the plane under `(x, y)` (or unpins on empty space); returns its details.
    pub fn click(&mut self, x: f64, y: f64) -> JsValue {
        let info = self.hover(x, y);
        self.opts.selected = self.opts.hover;
        info
    }

    /// Selects plane `i` and scrolls it into view; returns its details.
    pub fn select_plane(&mut self, i: usize) -> JsValue {
        let Some(f) = self.current.and_then(|c| self.files.get_mut(c)) else {
            return JsValue::NULL;
        };
        let Some(inf) = info::plane_info(&f.chart, i) else {
            return JsValue::NULL;
        };
        if let Some(q) = f.chart.parts_of(i).next().copied() {
            let e = f.chart.lanes()[q.lane].extent as f64;
            f.view.reveal(
                f.chart.horizon() as f64,
                scene::view::FIT_TOP,
                (f64::from(q.t0), q.t1 as f64),
                (q.a0 as f64 / e, q.a1 as f64 / e),
            );
        }
        self.opts.selected = Some(i);
        to_js(&inf)
    }

    /// Details of plane `i` of the current file, or null.
    pub fn plane_info(&self, i: usize) -> JsValue {
        self.current
            .and_then(|c| self.files.get(c))
            .and_then(|f| info::plane_info(&f.chart, i))
            .map_or(JsValue::NULL, |inf| to_js(&inf))
    }

    /// Clears the pinned plane.
    pub fn unselect(&mut self) {
        self.opts.selected = None;
    }

    pub fn set_names(&mut self, on: bool) {
        self.opts.names = on;
    }

    pub fn names(&self) -> bool {
        self.opts.names
    }

    pub fn set_hex(&mut self, on: bool) {
        self.opts.hex = on;
    }

    /// Addresses are shown in hexadecimal (a link carries it).
    pub fn hex(&self) -> bool {
        self.opts.hex
    }

    /// Highlights planes whose name contains `query`; returns their indices.
    pub fn search(&mut self, query: &str) -> Vec<u32> {
        let found = self
            .current
            .and_then(|i| self.files.get(i))
            .map(|f| f.chart.search(query))
            .unwrap_or_default();
        self.opts.matches = found.clone();
        found.into_iter().map(|i| i as u32).collect()
    }

    /// The stats panel's content (`scene::info::Summary`), or null.
    pub fn summary(&self) -> JsValue {
        self.current
            .and_then(|i| self.files.get(i))
            .map_or(JsValue::NULL, |f| to_js(&info::summary(&f.chart)))
    }

    /// What the last frame drew (`scene::Frame`): rectangles per plane, labels, the
    /// peak rows. For tests and benchmarks.
    pub fn frame(&self) -> JsValue {
        to_js(&self.frame)
    }
}
