//! The main thread's end of the worker hand-off: a plan arrives as wire bytes
//! ([`crate::formats::wire`]) and becomes an opened file of the [`Viewer`]. Decoding
//! is a single pass over a compact buffer, so the main thread never parses JSON.

use super::Viewer;
use crate::formats::wire;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Viewer {
    /// Shows a plan planned by the worker. A file of the same name is replaced (a
    /// re-plan with the same strategy), else the plan is added. Returns its index.
    pub fn open_plan(&mut self, name: &str, wire: &[u8]) -> Result<usize, JsValue> {
        let plan =
            wire::decode(wire).map_err(|e| JsValue::from_str(&e.in_file(name).to_string()))?;
        Ok(self.show(name, plan, true))
    }
}
