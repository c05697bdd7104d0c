//! memplan: a planner for the static memory of neural-network inference.
//!
//! One crate, four faces (docs/ARCHITECTURE.md has the map): this library, a web-free
//! core (formats, the Aidge-exact memory manager and its drivers, strategies, the plan
//! checker, the chart's layout), and three thin shells over it: the `memplan` CLI
//! (`src/bin`, `src/cli`, feature `cli`), the page's wasm modules (`src/web`, only on
//! `wasm32`; `src/web_onnx.rs`, feature `onnx-module`) and the Python extension
//! (`src/python.rs`, feature `python`).

pub mod check;
#[cfg(all(feature = "cli", not(target_arch = "wasm32")))]
pub mod cli;
pub mod drivers;
pub mod error;
pub mod export_check;
#[cfg(all(any(feature = "cli", feature = "python"), not(target_arch = "wasm32")))]
pub mod export_folder;
pub mod fit;
pub mod formats;
pub mod manager;
pub mod model;
pub mod planning;
#[cfg(all(feature = "python", not(target_arch = "wasm32")))]
mod python;
pub mod recipes;
pub mod scene;
pub mod schedule;
pub mod stats;
pub mod strategies;
#[cfg(all(feature = "onnx", not(feature = "lite")))]
pub mod tiling;
pub mod timer;
#[cfg(feature = "tools")]
pub mod tools;

#[cfg(all(target_arch = "wasm32", not(feature = "onnx-module")))]
pub mod web;
#[cfg(all(target_arch = "wasm32", feature = "onnx-module"))]
mod web_onnx;

pub use error::{Error, Result};
pub use model::{Bytes, Clock, Component, Plan, Plane, Space, Step};
