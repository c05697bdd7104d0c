//! The Python extension `memplan._native` (feature `python`, built by maturin): the
//! core, in-process, for the package `python/memplan` (`memplan.aidge`, `memplan.tflm`).
//! A thin shell like the CLI and the wasm module: documents go in as text in memplan's
//! own formats (or as bytes: binary models, `.onnx` and `.tflite`), results come out as
//! memplan JSON or JSON records the Python side loads into its dataclasses (never CSV
//! text it would split), and errors become `ValueError` with the same message (file,
//! place, what was expected) the CLI prints.
//! The names a user types (`STRATEGIES`, `EXPORT_FORMATS`, `RECIPES`, `DTYPES`) are
//! Rust's lists (`planning::choices`, `Export::CHOICES`, `recipes::Recipe::ALL`); the stub `_native.pyi` types them all.

use crate::formats::{self, Export};
use crate::planning::{self, Request, Session};
use crate::scene::svg::to_svg;
use crate::scene::{Chart, Options, View};
use crate::strategies::Budget;
use crate::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(e: Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A file's contents as Python hands them: `bytes` (any file, binary models included:
/// `.onnx`, `.tflite`) or `str` (a document as text).
fn contents(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = data.cast::<pyo3::types::PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    data.extract::<String>()
        .map(String::into_bytes)
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("expected the file as str or bytes"))
}

/// The plan `text` (any file memplan reads, as text or bytes, named `name` in messages)
/// stands for, planned with `strategy` (`as-loaded` keeps it, or a strategy name) within
/// `budget_ms`. Returns the plan as memplan JSON and the report as JSON.
#[pyfunction]
fn plan(
    text: &Bound<'_, PyAny>,
    name: &str,
    strategy: &str,
    budget_ms: u64,
) -> PyResult<(String, String)> {
    let mut session = Session::open(name, &contents(text)?).map_err(value_error)?;
    let request = Request::new(strategy, Budget::millis(budget_ms)).map_err(value_error)?;
    let (plan, report) = session.plan(&request).map_err(value_error)?;
    let doc = formats::Document::of_plan(plan);
    let report = serde_json::to_string(&report)
        .map_err(|e| PyValueError::new_err(format!("report: {e}")))?;
    Ok((formats::memplan_json::write(&doc), report))
}

/// `text` (text or bytes: an ONNX model's `memplan` is its schedule document) written in
/// `format` (a name `memplan convert --format` takes).
#[pyfunction]
fn convert(text: &Bound<'_, PyAny>, name: &str, format: &str) -> PyResult<String> {
    let export = Export::from_name(format).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown format `{format}`: expected one of {}",
            Export::names()
        ))
    })?;
    let doc = formats::load(name, &contents(text)?).map_err(value_error)?;
    planning::export(&doc, export).map_err(|e| value_error(e.in_file(name)))
}

/// The problems `memplan check` reports for the plan `text` stands for (empty: valid).
#[pyfunction]
fn check(text: &str, name: &str) -> PyResult<Vec<String>> {
    let doc = formats::load(name, text.as_bytes()).map_err(value_error)?;
    let plan = planning::resolve(&doc).map_err(|e| value_error(e.in_file(name)))?;
    let report = crate::check::check(&plan);
    let mut lines: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    if report.omitted > 0 {
        lines.push(format!("… and {} more", report.omitted));
    }
    Ok(lines)
}

/// The export memory checker's report on the generated Aidge export in folder `dir`
/// (`memplan check --export DIR --json`), as JSON.
#[pyfunction]
fn check_export(dir: &str) -> PyResult<String> {
    let (forward, headers) =
        crate::export_folder::read(std::path::Path::new(dir)).map_err(value_error)?;
    let report = crate::export_check::check(&forward, &headers)
        .map_err(|e| value_error(e.in_file(format!("{dir}/dnn/src/forward.cpp"))))?;
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(format!("report: {e}")))
}

/// The chart of the plan `text` (text or bytes) stands for, as SVG (what `memplan render
/// -o x.svg` draws), `width` × `height` CSS pixels, with node names on the planes if
/// `names`.
#[pyfunction]
fn svg(
    text: &Bound<'_, PyAny>,
    name: &str,
    names: bool,
    width: u32,
    height: u32,
) -> PyResult<String> {
    let doc = formats::load(name, &contents(text)?).map_err(value_error)?;
    let (plan, report) = Session::of(name, doc).as_loaded().map_err(value_error)?;
    // The bound its report states (over every layout, on a schedule), as the page draws it.
    let chart = match (report.bound_scope, report.floor()) {
        (planning::BoundScope::Layout, _) => Chart::new(plan).with_layout_bound(),
        (_, Some(floor)) => Chart::new(plan).with_floor(floor),
        _ => Chart::new(plan),
    };
    let view = View::fit(
        &chart,
        f64::from(width.max(100)),
        f64::from(height.max(80)),
        1.0,
    );
    let opts = Options {
        names,
        exact_limit: Some(usize::MAX),
        ..Options::default()
    };
    Ok(to_svg(&chart, &view, &opts).0)
}

/// TFLM's buffers of a `.tflite` (`model`, named `name` in messages) as JSON: one
/// `{tensor, name, size, first_used, last_used, offset}` per buffer its planner gets,
/// in its order (`tensor` is null for a kernel's scratch buffer; `offset` is where
/// TFLM puts it), and the warnings.
#[pyfunction]
fn tflite_buffers(model: &[u8], name: &str) -> PyResult<String> {
    let read = formats::tflite::read(model).map_err(|e| value_error(e.in_file(name)))?;
    let buffers: Vec<_> = read
        .arena
        .allocs
        .iter()
        .zip(&read.offsets)
        .map(|(a, o)| {
            serde_json::json!({
                "tensor": a.tensor, "name": a.name, "size": a.size,
                "first_used": a.first, "last_used": a.last, "offset": o,
            })
        })
        .collect();
    let out = serde_json::json!({"buffers": buffers, "warnings": read.warnings});
    Ok(out.to_string())
}

/// TFLM's `PrintMemoryPlan()` output `dump` for `model` as MiniMalloc CSV whose
/// buffers carry the model's tensor names ([`formats::tflite::name_dump`]).
#[pyfunction]
fn tflite_named_dump(model: &[u8], name: &str, dump: &str) -> PyResult<String> {
    let read = formats::tflite::read(model).map_err(|e| value_error(e.in_file(name)))?;
    let doc = formats::load("plan.txt", dump.as_bytes()).map_err(value_error)?;
    let list = doc
        .buffers
        .filter(|_| doc.plan.is_none())
        .ok_or_else(|| PyValueError::new_err("plan.txt: not a TFLM memory plan dump"))?;
    let named =
        formats::tflite::name_dump(&read, &list).map_err(|e| value_error(e.in_file("plan.txt")))?;
    Ok(formats::csv::write(&named))
}

/// The model planned with `strategy` within `budget_ms` (as `memplan plan model.tflite
/// --strategy S -o out.tflite`): the model with that plan as its offline plan, what to
/// set the arena to, and the plan's report as JSON.
#[pyfunction]
fn tflite_plan<'py>(
    py: Python<'py>,
    model: &[u8],
    name: &str,
    strategy: &str,
    budget_ms: u64,
) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, String, String)> {
    let mut session = Session::open(name, model).map_err(value_error)?;
    let request = Request::new(strategy, Budget::millis(budget_ms)).map_err(value_error)?;
    let (plan, report) = session.plan(&request).map_err(value_error)?;
    let written =
        formats::tflite::with_plan(model, &plan).map_err(|e| value_error(e.in_file(name)))?;
    let report = serde_json::to_string(&report)
        .map_err(|e| PyValueError::new_err(format!("report: {e}")))?;
    let bytes = pyo3::types::PyBytes::new(py, &written.bytes);
    Ok((bytes, written.summary(), report))
}

/// The model with `offsets` (tensor index → arena offset) as its offline plan, checked
/// as `tflite_plan` checks a plan; the bytes and what to set the arena to.
#[pyfunction]
fn tflite_with_offsets<'py>(
    py: Python<'py>,
    model: &[u8],
    name: &str,
    offsets: std::collections::HashMap<usize, u64>,
) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, String)> {
    let written =
        formats::tflite::with_offsets(model, &offsets).map_err(|e| value_error(e.in_file(name)))?;
    let bytes = pyo3::types::PyBytes::new(py, &written.bytes);
    Ok((bytes, written.summary()))
}

/// A memplan JSON document of `plan` and, if given, `schedule` (each a JSON object
/// as `memplan.aidge.plan_of` and `schedule_of` make them), checked by the core's
/// reader as any file is.
#[pyfunction]
#[pyo3(signature = (plan, schedule=None))]
fn document(plan: &str, schedule: Option<&str>) -> PyResult<String> {
    let parse = |what: &str, text: &str| {
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
    };
    let mut doc = serde_json::json!({"format": "memplan", "version": 1});
    if let Some(schedule) = schedule {
        doc["schedule"] = parse("schedule", schedule)?;
    }
    doc["plan"] = parse("plan", plan)?;
    let text = doc.to_string();
    formats::memplan_json::read(&text).map_err(value_error)?;
    Ok(text)
}

/// The model or schedule `model` (any file memplan reads that holds a schedule: an ONNX
/// model, a memplan JSON with its schedule), named `name` in messages, as the
/// deployment of `recipes` (comma-separated names of `RECIPES`) and `dtype` (one of
/// `DTYPES`, or "") runs it: the memplan JSON of the rewritten schedule, and what the
/// recipes did (the lines `memplan --recipes` prints).
#[pyfunction]
fn deploy(model: &[u8], name: &str, recipes: &str, dtype: &str) -> PyResult<(String, Vec<String>)> {
    let deploy = crate::recipes::Deploy::parse(recipes, dtype).map_err(value_error)?;
    let doc = formats::load(name, model).map_err(value_error)?;
    let doc = crate::recipes::document(doc, &deploy).map_err(|e| value_error(e.in_file(name)))?;
    let text = formats::memplan_json::write(&doc);
    Ok((text, doc.warnings))
}

/// `memplan.fit`: the model or plan `model` (any file memplan reads, as text or bytes,
/// named `name` in messages), deployed as `recipes`/`dtype` first when they are given,
/// fitted into `memory` (a map `crate::fit::MemoryMap` reads: `256K+8M`, named banks,
/// a preset) within `budget_ms`, and, for an ONNX model when `tile`, also with its
/// first stage tiled (`crate::fit::fit_tiled`, a search of `tile_budget_ms`): the
/// core's `Fit` as JSON, the answer's banked plan as memplan JSON, and the tiled model
/// when tiling is the answer.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn fit<'py>(
    py: Python<'py>,
    model: &Bound<'_, PyAny>,
    name: &str,
    memory: &str,
    recipes: &str,
    dtype: &str,
    budget_ms: u64,
    tile: bool,
    tile_budget_ms: u64,
) -> PyResult<(String, String, Option<Bound<'py, pyo3::types::PyBytes>>)> {
    let map = crate::fit::MemoryMap::parse(memory).map_err(value_error)?;
    let data = contents(model)?;
    let mut session = Session::open(name, &data).map_err(value_error)?;
    let deploy = crate::recipes::Deploy::parse(recipes, dtype).map_err(value_error)?;
    if !deploy.is_empty() {
        session.deploy(&deploy).map_err(value_error)?;
    }
    let tiling = tile.then_some((name, &data[..], &deploy, tile_budget_ms));
    let (result, tiled) = fit_with(&mut session, &map, budget_ms, tiling).map_err(value_error)?;
    let json =
        serde_json::to_string(&result).map_err(|e| PyValueError::new_err(format!("fit: {e}")))?;
    let answer = result.answer();
    let doc = formats::Document {
        schedule: answer.schedule.clone(),
        ..formats::Document::of_plan(answer.plan.clone())
    };
    let tiled = tiled.map(|b| pyo3::types::PyBytes::new(py, &b));
    Ok((json, formats::memplan_json::write(&doc), tiled))
}

/// What `tile` asks of [`fit`]: the file's name and bytes, its deployment, the
/// search's milliseconds.
type TileAsk<'a> = Option<(&'a str, &'a [u8], &'a crate::recipes::Deploy, u64)>;

/// The fit, tiled too when asked and the file is an ONNX model, and the tiled model
/// when tiling is the answer.
#[cfg(feature = "onnx")]
fn fit_with(
    session: &mut Session,
    map: &crate::fit::MemoryMap,
    budget_ms: u64,
    tile: TileAsk,
) -> crate::Result<(crate::fit::Fit, Option<Vec<u8>>)> {
    let Some((name, bytes, deploy, tile_ms)) = tile.filter(|t| formats::is_onnx_model(t.0, t.1))
    else {
        let mut f = crate::fit::fit(session, map, budget_ms)?;
        if tile.is_none() {
            f.untiled_because = Some("tile=False".into());
        }
        return Ok((f, None));
    };
    let model = crate::fit::Model {
        bytes,
        dims: &[],
        deploy,
        tile_ms,
    };
    let f = crate::fit::fit_tiled(session, map, budget_ms, &model).map_err(|e| e.in_file(name))?;
    let tiled = f
        .tiling
        .as_ref()
        .filter(|t| t.chosen)
        .map(|t| t.onnx.clone());
    Ok((f, tiled))
}

/// Without the ONNX reader there is no model to tile.
#[cfg(not(feature = "onnx"))]
fn fit_with(
    session: &mut Session,
    map: &crate::fit::MemoryMap,
    budget_ms: u64,
    _tile: TileAsk,
) -> crate::Result<(crate::fit::Fit, Option<Vec<u8>>)> {
    Ok((crate::fit::fit(session, map, budget_ms)?, None))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let choices = planning::choices();
    let names: Vec<&str> = choices.iter().map(|c| c.0).collect();
    m.add("STRATEGIES", names)?;
    m.add(
        "STRATEGY_HELP",
        choices
            .into_iter()
            .collect::<std::collections::HashMap<_, _>>(),
    )?;
    m.add("AS_LOADED", planning::AS_LOADED)?;
    m.add("EMBED_BUDGET_MS", planning::EMBED_BUDGET_MS)?;
    // TFLM's rules, for `memplan.tflm` (its `ALIGNMENT` and `METADATA` are these).
    m.add("TFLM_ALIGNMENT", crate::formats::tflite::arena::ALIGNMENT)?;
    m.add(
        "TFLM_METADATA",
        crate::formats::tflite::arena::OFFLINE_METADATA,
    )?;
    m.add("AS_LOADED_ALIAS", planning::AS_LOADED_ALIAS)?;
    let formats: Vec<&str> = Export::CHOICES.iter().map(|c| c.name).collect();
    m.add("EXPORT_FORMATS", formats)?;
    let recipes = crate::recipes::Recipe::ALL;
    m.add(
        "RECIPES",
        recipes.iter().map(|r| r.name()).collect::<Vec<_>>(),
    )?;
    m.add(
        "RECIPE_HELP",
        recipes
            .iter()
            .map(|r| (r.name(), r.help()))
            .collect::<std::collections::HashMap<_, _>>(),
    )?;
    m.add(
        "DTYPES",
        crate::recipes::Dtype::ALL
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>(),
    )?;
    m.add(
        "PRESETS",
        crate::fit::PRESETS
            .iter()
            .map(|p| (p.name, p.banks.to_vec(), p.source))
            .collect::<Vec<_>>(),
    )?;
    m.add_function(wrap_pyfunction!(fit, m)?)?;
    m.add_function(wrap_pyfunction!(deploy, m)?)?;
    m.add_function(wrap_pyfunction!(document, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(tflite_buffers, m)?)?;
    m.add_function(wrap_pyfunction!(tflite_plan, m)?)?;
    m.add_function(wrap_pyfunction!(tflite_with_offsets, m)?)?;
    m.add_function(wrap_pyfunction!(tflite_named_dump, m)?)?;
    m.add_function(wrap_pyfunction!(check_export, m)?)?;
    Ok(())
}
