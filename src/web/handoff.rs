//! The main thread's end of the worker hand-off: a plan arrives as wire bytes
//! ([`crate::formats::wire`]) with its stats and checker report, and becomes an
//! opened file of the [`Viewer`]. The main thread neither parses JSON nor runs the
//! whole-plan passes ([`crate::scene::Chart::with`]), and decodes in slices
//! ([`Opening::step`]) so that the page can yield between them.

use super::Viewer;
use crate::formats::wire::Decoder;
use crate::scene::Chart;
use wasm_bindgen::prelude::*;

/// A plan being decoded on the main thread (`Viewer::begin_plan`).
#[wasm_bindgen]
pub struct Opening {
    name: String,
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
            .map_err(|e| in_file(&self.name, e))
    }
}

#[wasm_bindgen]
impl Viewer {
    /// Starts decoding a plan the worker planned, named `name`; call
    /// [`Opening::step`] until it is done, then [`Viewer::finish_plan`].
    pub fn begin_plan(&self, name: &str, wire: Vec<u8>) -> Result<Opening, JsValue> {
        Ok(Opening {
            name: name.to_owned(),
            decoder: Decoder::new(wire).map_err(|e| in_file(name, e))?,
        })
    }

    /// Shows a plan begun with [`Viewer::begin_plan`] (decoding what is left). A file
    /// of the same name is replaced (a re-plan with the same strategy), else the plan
    /// is added. Returns its index.
    pub fn finish_plan(&mut self, opening: Opening) -> Result<usize, JsValue> {
        let Opening { name, decoder } = opening;
        let h = decoder.finish().map_err(|e| in_file(&name, e))?;
        Ok(self.show(&name, Chart::with(h.plan, h.stats, h.report), true))
    }
}
