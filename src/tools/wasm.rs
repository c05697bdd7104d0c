//! The benchmark in wasm, for `scripts/bench-wasm.mjs` (node): built with
//! `--features tools`, never in the page's module.

use super::bench::{bench_lists, synthetic};
use crate::formats::csv::{self, CsvOptions};
use crate::strategies::Budget;
use wasm_bindgen::prelude::wasm_bindgen;

/// The strategies table for one CSV file's text (`name` decides the CSV options:
/// `A.1048576.csv` has a capacity, `iree_*` an inclusive upper).
#[wasm_bindgen]
pub fn bench_csv(name: &str, text: &str, millis: u32) -> String {
    let list = csv::read(text, &CsvOptions::for_file(name))
        .map(|(list, _)| list)
        .map_err(|e| e.to_string());
    bench_lists(&[(name.to_string(), list)], &Budget::millis(millis as u64))
}

/// The strategies table for a synthetic set of `n` buffers (see [`synthetic`]).
#[wasm_bindgen]
pub fn bench_synthetic(n: u32, millis: u32) -> String {
    let list = synthetic(n as usize, 1);
    bench_lists(
        &[(format!("synthetic {n}"), Ok(list))],
        &Budget::millis(millis as u64),
    )
}
