//! Tools that are not the product (feature `tools`, off by default): they serve the
//! developers who measure and verify memplan, not its users, so they stay out of the
//! library's API, the CLI and the page's wasm module.
//!
//! - [`bench`]: every strategy on every data set, as a Markdown table
//!   (`examples/bench.rs`, docs/benchmarks.md);
//! - [`replay`]: the manager's operation language, run both here and in the
//!   aidge_core wheel (`src/bin/memplan-replay.rs`, tests/parity/manager_diff.py);
//! - `wasm`: the benchmark's wasm bindings (`scripts/bench-wasm.mjs`).

pub mod bench;
pub mod replay;
#[cfg(target_arch = "wasm32")]
mod wasm;
