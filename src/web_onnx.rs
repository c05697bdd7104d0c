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

/// The deployments the page's "Deploy as" menu offers (only models have one: the menu
/// comes with this module, which a model loads), from the Rust tables
/// (`[{recipes, dtype, label, help}]`): the export recipe in float32 and in each smaller
/// dtype ([`crate::recipes::Dtype::ALL`]), then Aidge's seed fusions together
/// ([`crate::recipes::Recipe::SEED_FUSIONS`]; the notice says what each one saves).
#[wasm_bindgen(js_name = deployChoices)]
pub fn deploy_choices() -> Result<String, JsError> {
    use crate::recipes::{Deploy, Dtype, Recipe};
    #[derive(serde::Serialize)]
    struct Choice {
        recipes: String,
        dtype: &'static str,
        label: String,
        help: String,
    }
    let choice = |deploy: Deploy, help: String| Choice {
        recipes: deploy
            .recipes
            .iter()
            .map(|r| r.name())
            .collect::<Vec<_>>()
            .join(","),
        dtype: deploy.dtype.map_or("", Dtype::name),
        label: deploy.label(),
        help,
    };
    let mut out = Vec::new();
    for r in Recipe::ALL
        .iter()
        .filter(|r| !Recipe::SEED_FUSIONS.contains(r))
    {
        let smaller = Dtype::ALL.iter().filter(|d| **d != Dtype::Float32);
        for d in std::iter::once(None).chain(smaller.map(|d| Some(*d))) {
            let help = match d {
                Some(d) => format!("{} — {}", r.help(), d.help()),
                None => r.help().to_string(),
            };
            let recipes = vec![*r];
            out.push(choice(Deploy { recipes, dtype: d }, help));
        }
    }
    let seed = Recipe::SEED_FUSIONS;
    let help = seed.iter().map(|r| r.help()).collect::<Vec<_>>().join("; ");
    out.push(choice(
        Deploy {
            recipes: seed.to_vec(),
            dtype: None,
        },
        help,
    ));
    serde_json::to_string(&out).map_err(|e| JsError::new(&e.to_string()))
}
