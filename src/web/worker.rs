//! The wasm API of the page's Web Worker (`www/worker.js`): reads and plans a file
//! off the main thread ([`crate::planning::Session`]) and returns the plan in the
//! compact wire form ([`crate::formats::wire`]) with its stats and checker report, which
//! the worker transfers to the main thread's [`super::Viewer::begin_plan`]. Progress of the search reaches JS
//! through a callback; cancelling is terminating the worker.

use super::to_js;
use crate::formats::wire;
use crate::planning::{PlanReport, Request, Session};
use crate::strategies::{Budget, Progress};
use crate::{check, stats};
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One opened file in the worker.
#[wasm_bindgen]
pub struct Planner {
    session: Session,
    report: Option<PlanReport>,
}

/// What the progress callback receives (byte counts as digits).
#[derive(Serialize)]
struct Step {
    best_peak: String,
    lower_bound: String,
    iterations: u64,
    elapsed_ms: u64,
}

#[wasm_bindgen]
impl Planner {
    /// Reads `bytes` (any format the page opens). Errors read `file: place: message`.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, bytes: &[u8]) -> Result<Planner, JsValue> {
        console_error_panic_hook::set_once();
        let session = Session::open(name, bytes).map_err(|e| JsValue::from_str(&e.to_string()))?;
        Ok(Planner {
            session,
            report: None,
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
        let session = Session::open_pair(name, bytes, companion_name, companion_bytes)
            .map_err(|e| JsValue::from_str(&e.to_string()))?;
        Ok(Planner {
            session,
            report: None,
        })
    }

    /// What the reader accepted but the user should know.
    pub fn warnings(&self) -> Vec<String> {
        self.session.document().warnings.clone()
    }

    /// Plans with `strategy` (`aidge` or a strategy name) within `millis`; calls
    /// `progress` with every better peak found. Returns the plan's wire bytes, with
    /// its stats and checker report (the costly part of showing a big plan).
    pub fn plan(
        &mut self,
        strategy: &str,
        millis: u32,
        progress: Option<js_sys::Function>,
    ) -> Result<Vec<u8>, JsValue> {
        let mut budget = Budget::millis(u64::from(millis));
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
        self.report = Some(report);
        Ok(wire::encode(
            &plan,
            &stats::stats(&plan),
            &check::check(&plan),
        ))
    }

    /// The last [`Planner::plan`]'s report (`planning::PlanReport`), or null.
    pub fn report(&self) -> JsValue {
        self.report.as_ref().map_or(JsValue::NULL, to_js)
    }
}
