//! The benchmark in wasm, for `scripts/bench-wasm.mjs` (node): built with
//! `--features tools`, never in the page's module.

use super::bench::{bench_passes, bench_table, synthetic};
use crate::formats::csv::{self, CsvOptions};
use crate::strategies::{Budget, Strategy};
use wasm_bindgen::prelude::wasm_bindgen;

/// The strategies named in `only` (comma-separated CLI names; empty: all of them).
fn strategies(only: &str) -> Result<Vec<Strategy>, String> {
    if only.is_empty() {
        return Ok(Strategy::ALL.to_vec());
    }
    only.split(',')
        .map(|s| s.parse().map_err(|e: crate::Error| e.to_string()))
        .collect()
}

/// The strategies table (those named in `only`, see [`strategies`]) for one CSV
/// file's text (`name` decides the CSV options: `A.1048576.csv` has a capacity,
/// `iree_*` an inclusive upper).
#[wasm_bindgen]
pub fn bench_csv(name: &str, text: &str, millis: u32, only: &str) -> Result<String, String> {
    let list = csv::read(text, &CsvOptions::for_file(name))
        .map(|(list, _)| list)
        .map_err(|e| e.to_string());
    let sets = [(name.to_string(), list)];
    Ok(bench_table(
        &sets,
        &Budget::millis(millis as u64),
        &strategies(only)?,
    ))
}

/// The table of every greedy pass and the sweep for one CSV file's text.
#[wasm_bindgen]
pub fn bench_csv_passes(name: &str, text: &str) -> String {
    let list = csv::read(text, &CsvOptions::for_file(name))
        .map(|(list, _)| list)
        .map_err(|e| e.to_string());
    bench_passes(&[(name.to_string(), list)])
}

/// The strategies table for a synthetic set of `n` buffers (see [`synthetic`]).
#[wasm_bindgen]
pub fn bench_synthetic(n: u32, millis: u32, only: &str) -> Result<String, String> {
    let list = synthetic(n as usize, 1);
    Ok(bench_table(
        &[(format!("synthetic {n}"), Ok(list))],
        &Budget::millis(millis as u64),
        &strategies(only)?,
    ))
}
