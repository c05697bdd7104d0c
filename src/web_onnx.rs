//! The page's second wasm module (feature `onnx-module`, `pkg-onnx/` in the built
//! site): the ONNX reader alone, loaded by `www/onnx.js` only when an `.onnx` file
//! is opened, so that the first frame of any other plan does not pay for it. It turns a
//! model into memplan JSON (the schedule document), which the page then opens as
//! any dropped export.

use crate::formats::{self, onnx, Document};
use wasm_bindgen::prelude::*;

fn js_error(e: crate::Error, name: &str) -> JsError {
    JsError::new(&e.in_file(name).to_string())
}

/// The model's symbolic input dims as JSON: `[{name, default, used_by}]`.
#[wasm_bindgen(js_name = symbolicDims)]
pub fn symbolic_dims(name: &str, bytes: &[u8]) -> Result<String, JsError> {
    let dims = onnx::symbolic_dims(bytes).map_err(|e| js_error(e, name))?;
    serde_json::to_string(&dims).map_err(|e| JsError::new(&e.to_string()))
}

/// The model's schedule document (memplan JSON), its symbolic dims fixed by `names`
/// and `values` (same length; the others take their default).
#[wasm_bindgen(js_name = convertOnnx)]
pub fn convert_onnx(
    name: &str,
    bytes: &[u8],
    names: Vec<String>,
    values: Vec<f64>,
) -> Result<String, JsError> {
    let dims: Vec<(String, u64)> = names
        .into_iter()
        .zip(values)
        .map(|(n, v)| (n, v.max(1.0) as u64))
        .collect();
    let schedule = onnx::read(bytes, &dims).map_err(|e| js_error(e, name))?;
    Ok(formats::memplan_json::write(&Document::of_schedule(
        schedule,
    )))
}
