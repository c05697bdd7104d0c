//! The wasm API of the page's Web Worker (`www/worker.js`): reads and plans a file
//! off the main thread ([`crate::planning::Session`]) and returns the plan in the
//! compact wire form ([`crate::formats::wire`]) with its stats and checker report, which
//! the worker transfers to the main thread's [`super::Viewer::begin_plan`]. Progress of the search reaches JS
//! through a callback; cancelling is terminating the worker.
//!
//! The page's first module (feature `lite`, `pkg-lite/`) holds a smaller `Planner`:
//! [`Planner::read`] takes well-formed memplan JSON only and plans it as loaded; the
//! worker opens anything else (other formats, broken files, companions, strategies)
//! with the whole crate's (`pkg/`), which it imports only then.

use super::to_js;
use crate::check;
use crate::formats::wire;
use crate::planning::{PlanReport, Session};
use wasm_bindgen::prelude::*;
#[cfg(not(feature = "lite"))]
use {
    crate::planning::Request,
    crate::strategies::{Budget, Progress},
    serde::Serialize,
    std::rc::Rc,
};

/// One opened file in the worker.
#[wasm_bindgen]
pub struct Planner {
    session: Session,
    report: Option<PlanReport>,
    /// Reading the file, in milliseconds, while no plan has counted it yet: a
    /// strategy's budget is a promise for reading, planning and handing off (the
    /// first module plans only as loaded: no budget).
    #[cfg(not(feature = "lite"))]
    reading_ms: u64,
    /// The longest hand-off so far (stats, checker and wire bytes of a plan).
    hand_off_ms: Option<u64>,
}

/// What the progress callback receives (byte counts as digits).
#[cfg(not(feature = "lite"))]
#[derive(Serialize)]
struct Step {
    best_peak: String,
    lower_bound: String,
    iterations: u64,
    elapsed_ms: u64,
}

/// [`Planner::own`]'s answer.
#[derive(serde::Serialize)]
struct Own {
    framework: &'static str,
    total: Option<String>,
    live_peak: Option<String>,
    live_peak_clock: Option<u64>,
}

impl Planner {
    /// Keeps `plan`'s report; its wire bytes with stats and checker report (the
    /// costly part of showing a big plan).
    fn hand_off(&mut self, plan: &crate::Plan, report: PlanReport) -> Vec<u8> {
        let timer = crate::timer::Timer::start();
        let wire = wire::encode(
            plan,
            &crate::planning::stats(plan, &report),
            &check::check(plan),
        );
        self.report = Some(report);
        self.hand_off_ms = self.hand_off_ms.max(Some(timer.elapsed_ms()));
        wire
    }
}

#[wasm_bindgen]
impl Planner {
    /// What the reader accepted but the user should know.
    pub fn warnings(&self) -> Vec<String> {
        self.session.document().warnings.clone()
    }

    /// The nodes sized from the model, not from Aidge's kernels (an ONNX model's
    /// operators Aidge cannot size): the page marks their planes' details.
    #[wasm_bindgen(js_name = sizedByModel)]
    pub fn sized_by_model(&self) -> Vec<String> {
        let schedule = self.session.document().schedule.as_ref();
        schedule.map_or_else(Vec::new, |s| {
            s.sized_by_model().iter().map(|n| n.name.clone()).collect()
        })
    }

    /// What the framework that wrote the file says of its plan
    /// ([`crate::formats::OwnFigures`]), for the page's figures: its own peak of live
    /// bytes, and its name for the total when the last plan is the file's own (a
    /// re-placed plan's total is memplan's). Null when the file says nothing.
    pub fn own(&self) -> JsValue {
        let Some(own) = &self.session.document().own else {
            return JsValue::NULL;
        };
        let as_loaded = self
            .report
            .as_ref()
            .is_some_and(|r| r.strategy == crate::planning::AS_LOADED);
        to_js(&Own {
            framework: own.framework,
            total: as_loaded.then(|| own.total.clone()),
            live_peak: own
                .live_peak
                .map(|(_, bytes)| crate::scene::axis::bytes_long(bytes)),
            live_peak_clock: own.live_peak.map(|(clock, _)| clock),
        })
    }

    /// The last [`Planner::plan`]'s report (`planning::PlanReport`) with `words`, the
    /// key of what the file's format calls things
    /// ([`crate::formats::Document::words`]), or null.
    pub fn report(&self) -> JsValue {
        #[derive(serde::Serialize)]
        struct Shown<'a> {
            #[serde(flatten)]
            report: &'a PlanReport,
            words: &'static str,
        }
        let words = self.session.document().words().key;
        self.report
            .as_ref()
            .map_or(JsValue::NULL, |report| to_js(&Shown { report, words }))
    }
}

#[cfg(feature = "lite")]
#[wasm_bindgen]
impl Planner {
    /// Reads `bytes` when they are well-formed memplan JSON
    /// ([`crate::formats::load_well_formed`]) that is not a buffer list without
    /// offsets; `undefined` for anything else, which the whole crate's module reads,
    /// places or explains.
    pub fn read(name: &str, bytes: &[u8]) -> Option<Planner> {
        console_error_panic_hook::set_once();
        let doc = crate::formats::load_well_formed(bytes)?;
        // A list without offsets is placed by `place_default`, which only the whole
        // crate's module links.
        if crate::planning::Holds::of(&doc) == (crate::planning::Holds::List { offsets: false }) {
            return None;
        }
        Some(Planner {
            session: Session::of(name, doc),
            report: None,
            #[cfg(not(feature = "lite"))]
            reading_ms: 0,
            hand_off_ms: None,
        })
    }

    /// The plan as loaded ([`Session::as_loaded`]), as wire bytes; `strategy` must be
    /// `as-loaded` (the other strategies are in the whole crate's module).
    pub fn plan(&mut self, strategy: &str) -> Result<Vec<u8>, JsValue> {
        if strategy != crate::planning::AS_LOADED {
            return Err(JsValue::from_str(&format!(
                "{strategy}: not in the page's first module (pkg-lite)"
            )));
        }
        let (plan, report) = self
            .session
            .as_loaded()
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        Ok(self.hand_off(&plan, report))
    }
}

#[cfg(not(feature = "lite"))]
#[wasm_bindgen]
impl Planner {
    /// Reads `bytes` (any format the page opens). Errors read `file: place: message`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, bytes: &[u8]) -> Result<Planner, JsValue> {
        console_error_panic_hook::set_once();
        let timer = crate::timer::Timer::start();
        let session = Session::open(name, bytes).map_err(|e| JsValue::from_str(&e.to_string()))?;
        Ok(Planner {
            session,
            report: None,
            reading_ms: timer.elapsed_ms(),
            hand_off_ms: None,
        })
    }

    /// Reads a file with its companion (XLA's `*-live-range.txt` beside a
    /// `*-buffer-assignment.txt`, [`crate::formats::companion`]).
    pub fn pair(
        name: &str,
        bytes: &[u8],
        companion_name: &str,
        companion_bytes: &[u8],
    ) -> Result<Planner, JsValue> {
        console_error_panic_hook::set_once();
        let timer = crate::timer::Timer::start();
        let session = Session::open_pair(name, bytes, companion_name, companion_bytes)
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        Ok(Planner {
            session,
            report: None,
            reading_ms: timer.elapsed_ms(),
            hand_off_ms: None,
        })
    }

    /// Deploys the file read ([`crate::planning::Session::deploy`]): `recipes`, names of
    /// [`crate::recipes::Recipe::ALL`] separated by commas, and `dtype` ("" for none).
    /// The page's "Deploy as" reads a model's memplan JSON and deploys it before planning.
    pub fn deploy(&mut self, recipes: &str, dtype: &str) -> Result<(), JsValue> {
        let err = |e: crate::Error| JsValue::from_str(&e.to_string());
        let deploy = crate::recipes::Deploy::parse(recipes, dtype).map_err(err)?;
        self.session.deploy(&deploy).map_err(err)
    }

    /// Plans with `strategy` (`as-loaded` or a strategy name) within `millis`; calls
    /// `progress` with every better peak found. Returns the plan's wire bytes, with
    /// its stats and checker report (the costly part of showing a big plan).
    pub fn plan(
        &mut self,
        strategy: &str,
        millis: u32,
        progress: Option<js_sys::Function>,
    ) -> Result<Vec<u8>, JsValue> {
        // The hand-off of a plan costs about four times reading its file (measured
        // on the CLI's CSV → JSON) until one is measured.
        let reading = std::mem::take(&mut self.reading_ms);
        let after = self.hand_off_ms.unwrap_or(4 * reading);
        let mut budget = Budget::whole(u64::from(millis), reading, after);
        if let Some(f) = progress {
            budget.progress = Some(Rc::new(move |p: &Progress| {
                let step = Step {
                    best_peak: p.best_peak.to_string(),
                    lower_bound: p.lower_bound.to_string(),
                    iterations: p.iterations,
                    elapsed_ms: p.elapsed_ms,
                };
                // A throwing callback must not stop the search.
                let _ = f.call1(&JsValue::NULL, &to_js(&step));
            }));
        }
        let err = |e: crate::Error| JsValue::from_str(&e.to_string());
        let request = Request::new(strategy, budget).map_err(err)?;
        let (plan, report) = self.session.plan(&request).map_err(err)?;
        Ok(self.hand_off(&plan, report))
    }
}
