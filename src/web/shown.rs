//! What the page, its links and `<memplan-view>` ask of the shown plan besides drawing
//! and exports: opening with a strategy (the element), the theme, the view as four
//! numbers (for links), the selection and keyboard moves between planes
//! (`scene::nav`), counts, the buffers' table, and the companion file a dump needs.

use super::{to_js, Viewer};
use crate::scene::info;
use crate::scene::nav::{self, Dir};
use crate::scene::theme::Theme;
#[cfg(not(feature = "lite"))]
use crate::{planning, strategies::Budget};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Viewer {
    /// Opens a file like [`Viewer::open`] (returns its id), then, when `strategy` is
    /// not empty or as loaded, re-places it with that strategy (`greedy-size`, `search`,
    /// `best`…): a buffer list's buffers or a plan's spaces, as `memplan plan
    /// --strategy` does. The search gets a small budget (a docs page must not freeze).
    ///
    /// `companion` and `companion_bytes`, when given, are the file `name` needs beside
    /// it ([`companion_of`]). Its planning report is kept (`Viewer::report`). Not in
    /// the page's first module (feature `lite`):
    /// `<memplan-view>` loads the whole crate's.
    #[cfg(not(feature = "lite"))]
    pub fn open_with(
        &mut self,
        name: &str,
        bytes: &[u8],
        strategy: &str,
        companion: Option<String>,
        companion_bytes: Option<Vec<u8>>,
    ) -> Result<u32, JsValue> {
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
        let mut session = session.map_err(err)?;
        let (plan, report) = session.plan(&request).map_err(err)?;
        let mut chart = crate::scene::Chart::new(plan).with_words(session.document().words());
        chart = super::bounded(chart, &report);
        // A buffer list's capacity (MiniMalloc's file names), as the worker's plans show it.
        if let Some(c) = report.capacity.as_deref().and_then(|c| c.parse().ok()) {
            chart = chart.with_capacity(0, c);
        }
        let i = self.show(name, chart, choice);
        self.files[i].set_report(to_js(&report));
        Ok(self.files[i].id)
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
            .map_or(0, |f| f.chart.plan().planes.len())
    }

    /// Number of steps of the current file (a buffer list has one per clock, which can
    /// be millions: `share.js` must not export such a plan into a link).
    pub fn step_count(&self) -> usize {
        self.current
            .and_then(|i| self.files.get(i))
            .map_or(0, |f| f.chart.plan().steps.len())
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

    /// The table of the current file's planes (`scene::info::Table`): the first `limit`
    /// sorted by column `sort` (`name`, `node`, `size`, `from`, `to`, `address`),
    /// descending or not; null without a file.
    pub fn table(&self, sort: &str, descending: bool, limit: usize) -> JsValue {
        self.current
            .and_then(|i| self.files.get(i))
            .map_or(JsValue::NULL, |f| {
                to_js(&info::table(&f.chart, sort, descending, limit))
            })
    }

    /// What is live at clock `clock` of the current file (`scene::info::LiveAt`), which
    /// the chart then marks; null without a file.
    pub fn live_at(&mut self, clock: u32) -> JsValue {
        let Some(f) = self.current.and_then(|i| self.files.get(i)) else {
            return JsValue::NULL;
        };
        let live = info::live_at(&f.chart, clock);
        self.opts.clock = Some(live.clock);
        to_js(&live)
    }

    /// Stops marking the clock of [`Viewer::live_at`].
    pub fn clear_clock(&mut self) {
        self.opts.clock = None;
    }

    /// The marked clock, if any.
    pub fn clock(&self) -> Option<u32> {
        self.opts.clock
    }

    /// The clock under `(x, y)` (over a lane, its live strip or the clock axis), or
    /// null: `{ clock, step, live }`, the step that runs then (`conv1 (Conv)`) and the
    /// bytes live in that lane then, for the page's tooltip.
    pub fn clock_under(&self, x: f64, y: f64) -> JsValue {
        #[derive(serde::Serialize)]
        struct Under {
            clock: u32,
            step: Option<String>,
            /// What the file's format calls what runs (`node`, `operator`).
            step_word: Option<&'static str>,
            live: String,
        }
        let Some(f) = self.current.and_then(|i| self.files.get(i)) else {
            return JsValue::NULL;
        };
        let Some((lane, clock)) = crate::scene::clock_at(&f.chart, &f.view, x, y) else {
            return JsValue::NULL;
        };
        let runs = &f.chart.lanes()[lane].live;
        let k = runs.partition_point(|r| r.0 <= clock);
        let live = k.checked_sub(1).map_or(0, |k| runs[k].1);
        let words = f.chart.words();
        let step = f.chart.step_at(clock).filter(|_| words.node.is_some());
        to_js(&Under {
            clock,
            step: step.map(|s| info::step_text(&f.chart, s)),
            step_word: words.node,
            live: crate::scene::axis::bytes_long(live),
        })
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

/// The choices of the page's strategy menu, as loaded first, then every strategy
/// `memplan plan --strategy` takes ([`crate::planning::choices`]): the menu is made
/// from this list, so a strategy added in Rust is offered at once.
#[wasm_bindgen]
pub fn strategy_names() -> Vec<String> {
    let choices = crate::planning::choices();
    choices.into_iter().map(|(name, _)| name.into()).collect()
}

/// The board presets `memplan fit --memory` takes ([`crate::fit::PRESETS`]), for the
/// page's *Fit to device* menu: the names, in the table's order.
#[wasm_bindgen]
pub fn fit_presets() -> Vec<String> {
    crate::fit::PRESETS.iter().map(|p| p.name.into()).collect()
}

/// What the strategy menu's choice `name` does (the option's tooltip), if it is one.
#[wasm_bindgen]
pub fn strategy_help(name: &str) -> Option<String> {
    let choices = crate::planning::choices();
    let found = choices.into_iter().find(|(n, _)| *n == name);
    found.map(|(_, help)| help.into())
}

/// The name of the choice that keeps the plan as loaded ([`crate::planning::AS_LOADED`]),
/// which the worker plans in the page's first module.
#[wasm_bindgen]
pub fn as_loaded() -> String {
    crate::planning::AS_LOADED.into()
}

/// The text formats of the page's Export menu ([`crate::formats::Export::CHOICES`]):
/// `[{name, help, suffix, mime}]`.
#[wasm_bindgen]
pub fn export_formats() -> JsValue {
    #[derive(serde::Serialize)]
    struct Format {
        name: &'static str,
        help: &'static str,
        suffix: &'static str,
        mime: &'static str,
    }
    let all: Vec<Format> = crate::formats::Export::CHOICES
        .iter()
        .map(|c| Format {
            name: c.name,
            help: c.help,
            suffix: c.suffix,
            mime: c.mime,
        })
        .collect();
    to_js(&all)
}

/// What file `name` (content `bytes`) is when a framework writes it beside a plan dump
/// and it holds no plan ([`crate::formats::siblings`]): the page notes such files of a
/// dropped folder instead of failing on them. None for anything else.
#[wasm_bindgen]
pub fn not_a_plan(name: &str, bytes: &[u8]) -> Option<String> {
    crate::formats::siblings::not_a_plan(name, bytes).map(std::borrow::Cow::into_owned)
}

/// True when `bytes` is TFLite Micro's `print_allocations()` output with the arena's
/// head and tail ([`crate::formats::tflm::allocations`]): the page keeps it to say the
/// `kTensorArenaSize` of the `.tflite` models it shows ([`Viewer::tflm_arena`]).
#[wasm_bindgen]
pub fn is_tflm_allocations(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(crate::formats::tflm::allocations)
        .is_some()
}

/// Whether a file is a binary ONNX model, by its name and its first bytes `head` (at
/// least [`ONNX_HEAD`] of them): [`crate::formats::is_onnx_model`], the rule the CLI
/// and `formats::load` follow, so the page sends to its ONNX module what the core
/// reads as a model (a model named `model.bin` too), one rule for all.
#[wasm_bindgen]
pub fn is_onnx(name: &str, head: &[u8]) -> bool {
    crate::formats::is_onnx_model(name, head)
}

/// How many first bytes of a file [`is_onnx`] needs (JSON's first non-blank byte
/// can come after leading whitespace).
#[wasm_bindgen]
pub fn onnx_head() -> usize {
    ONNX_HEAD
}

const ONNX_HEAD: usize = 4096;
