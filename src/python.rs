//! The Python extension `memplan._native` (feature `python`, built by maturin): the
//! core, in-process, for `python/memplan/aidge.py`. A thin shell like the CLI and the
//! wasm module: documents go in and come out as text in memplan's own formats, so the
//! Python side needs no type of ours, and errors become `ValueError` with the same
//! message (file, place, what was expected) the CLI prints.

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

/// The plan `text` (any format memplan reads, named `name` in messages) stands for,
/// planned with `strategy` (`aidge` keeps it as loaded, or a strategy name) within
/// `budget_ms`. Returns the plan as memplan JSON and the report as JSON.
#[pyfunction]
fn plan(text: &str, name: &str, strategy: &str, budget_ms: u64) -> PyResult<(String, String)> {
    let mut session = Session::open(name, text.as_bytes()).map_err(value_error)?;
    let request = Request::new(strategy, Budget::millis(budget_ms)).map_err(value_error)?;
    let (plan, report) = session.plan(&request).map_err(value_error)?;
    let doc = formats::Document::of_plan(plan);
    let report = serde_json::to_string(&report)
        .map_err(|e| PyValueError::new_err(format!("report: {e}")))?;
    Ok((formats::memplan_json::write(&doc), report))
}

/// `text` written in `format` (a name `memplan convert --format` takes).
#[pyfunction]
fn convert(text: &str, name: &str, format: &str) -> PyResult<String> {
    let export = Export::from_name(format).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown format `{format}`: expected one of {}",
            Export::NAMES
        ))
    })?;
    let doc = formats::load(name, text.as_bytes()).map_err(value_error)?;
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

/// The chart of the plan `text` stands for, as SVG (what `memplan render -o x.svg`
/// draws), `width` × `height` CSS pixels, with node names on the planes if `names`.
#[pyfunction]
fn svg(text: &str, name: &str, names: bool, width: u32, height: u32) -> PyResult<String> {
    let doc = formats::load(name, text.as_bytes()).map_err(value_error)?;
    let plan = planning::resolve(&doc).map_err(|e| value_error(e.in_file(name)))?;
    let chart = Chart::new(plan);
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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(check_export, m)?)?;
    Ok(())
}
