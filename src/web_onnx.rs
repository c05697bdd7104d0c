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

/// The deployments the page's "Deploy as" menu offers, as JSON `[{recipes, dtype,
/// label, help}]`, from the Rust tables: the export recipe in float32 and in each
/// smaller dtype ([`crate::recipes::Dtype::ALL`]), then Aidge's seed fusions together
/// ([`crate::recipes::Recipe::SEED_FUSIONS`]; the notice says what each one saves).
#[wasm_bindgen(js_name = deployChoices)]
pub fn deploy_choices() -> String {
    use crate::recipes::{Deploy, Dtype, Recipe};
    let choice = |deploy: Deploy, help: String| {
        serde_json::json!({
            "recipes": deploy.recipes.iter().map(|r| r.name()).collect::<Vec<_>>().join(","),
            "dtype": deploy.dtype.map_or("", Dtype::name),
            "label": deploy.label(), "help": help,
        })
    };
    let mut out = Vec::new();
    for r in Recipe::ALL
        .iter()
        .filter(|r| !Recipe::SEED_FUSIONS.contains(r))
    {
        for d in std::iter::once(None).chain(
            Dtype::ALL
                .iter()
                .filter(|d| **d != Dtype::Float32)
                .map(|d| Some(*d)),
        ) {
            let help = match d {
                Some(d) => format!("{} — {}", r.help(), d.help()),
                None => r.help().to_string(),
            };
            out.push(choice(
                Deploy {
                    recipes: vec![*r],
                    dtype: d,
                },
                help,
            ));
        }
    }
    let seed = Recipe::SEED_FUSIONS;
    out.push(choice(
        Deploy {
            recipes: seed.to_vec(),
            dtype: None,
        },
        seed.iter().map(|r| r.help()).collect::<Vec<_>>().join("; "),
    ));
    serde_json::Value::Array(out).to_string()
}

/// The schedule of `bytes` (a model's memplan JSON, as [`convert_onnx`] made it) as
/// `recipes` and `dtype` deploy it: JSON `{document, warnings}`, the memplan JSON the
/// page opens as a file of its own and what the recipes did.
#[wasm_bindgen]
pub fn deploy(name: &str, bytes: &[u8], recipes: &str, dtype: &str) -> Result<String, JsError> {
    let deploy = crate::recipes::Deploy::parse(recipes, dtype).map_err(|e| js_error(e, name))?;
    let doc = formats::load(name, bytes).map_err(|e| js_error(e, name))?;
    let doc = crate::recipes::document(doc, &deploy).map_err(|e| js_error(e, name))?;
    let out = serde_json::json!({
        "document": formats::memplan_json::write(&doc),
        "warnings": doc.warnings,
    });
    Ok(out.to_string())
}
