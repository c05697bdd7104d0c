//! The main thread's end of the worker hand-off: a plan arrives as wire bytes
//! ([`crate::formats::wire`]) with its stats and checker report, and becomes an
//! opened file of the [`Viewer`]. The main thread neither parses JSON nor runs the
//! whole-plan passes ([`crate::scene::Chart::with`]), and decodes in slices
//! ([`Opening::step`]) so that the page can yield between them.

use super::files::PlanJob;
use super::Viewer;
use crate::formats::wire::Decoder;
use crate::scene::Chart;
use wasm_bindgen::prelude::*;

/// A plan being decoded on the main thread (`Viewer::begin_plan`).
#[wasm_bindgen]
pub struct Opening {
    job: PlanJob,
    report: JsValue,
    decoder: Decoder<Vec<u8>>,
}

fn in_file(name: &str, e: crate::Error) -> JsValue {
    JsValue::from_str(&e.in_file(name).to_string())
}

#[wasm_bindgen]
impl Opening {
    /// Decodes up to `records` more spaces and planes; true once all are read.
    pub fn step(&mut self, records: usize) -> Result<bool, JsValue> {
        self.decoder
            .step(records)
            .map_err(|e| in_file(&self.job.name(), e))
    }
}

#[wasm_bindgen]
impl Viewer {
    /// Starts decoding the plan the worker made for `job`, with its planning
    /// `report`; call [`Opening::step`] until it is done, then [`Viewer::finish_plan`].
    pub fn begin_plan(
        &self,
        job: &PlanJob,
        wire: Vec<u8>,
        report: JsValue,
    ) -> Result<Opening, JsValue> {
        Ok(Opening {
            job: job.clone(),
            report,
            decoder: Decoder::new(wire).map_err(|e| in_file(&job.name(), e))?,
        })
    }

    /// Shows a plan begun with [`Viewer::begin_plan`] (decoding what is left) as the
    /// file its job says: the family's plan of that strategy is replaced, else a file
    /// is added. Returns the file's id.
    pub fn finish_plan(&mut self, opening: Opening) -> Result<u32, JsValue> {
        let Opening {
            job,
            report,
            decoder,
        } = opening;
        let h = decoder.finish().map_err(|e| in_file(&job.name(), e))?;
        Ok(self.place(&job, Chart::with(h.plan, h.stats, h.report), report))
    }
}
