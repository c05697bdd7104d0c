//! Aidge 0.10.1's memory drivers: `SequentialScheduler::generateMemory`,
//! `generateMemoryAutoConcat` and `generateMemoryMultipleMems`, re-implemented on
//! [`crate::manager::MemoryManager`] from a [`Schedule`].
//!
//! The wheel ships no source for these; their behaviour was established by
//! experiment against aidge_core 0.10.1 (see docs/aidge-parity.md, "Drivers",
//! and `tests/drivers_parity.rs`, which replays real exported schedules and
//! compares with the plans Aidge made for them plane by plane).

mod concat;
mod geometry;
mod inputs;
mod sequential;

use crate::manager::OptimizeStrategy;
use crate::model::{Component, Plan};
use crate::schedule::Schedule;
use crate::Result;

/// Which of Aidge's drivers to imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Driver {
    /// `generate_memory_multiple_mems` (0.10.1's default path).
    #[default]
    MultipleMems,
    /// `generate_memory`.
    Memory,
    /// `generate_memory_auto_concat`.
    AutoConcat,
}

/// Options of [`generate`]. `Default` is what aidge_core 0.10.1 does by default:
/// multiple-mems, one component of 1e9 bytes at priority 0, alignment 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverOptions {
    pub driver: Driver,
    /// Plan Producers too (Aidge's `inc_producers`); they then tick, except in
    /// multiple-mems.
    pub inc_producers: bool,
    /// Aidge's `wrap_around_buffer` (ignored by multiple-mems, which has none).
    pub wrap_around: bool,
    /// `MemoryManager::optimize` strategy applied after the driver.
    pub optimize: Option<OptimizeStrategy>,
    /// `memory_alignment` (1 = none): every driver rounds each output's bytes up
    /// to a multiple of it.
    pub alignment: u64,
    /// Memory components of multiple-mems; empty = one component of 1e9 bytes.
    pub components: Vec<Component>,
}

impl Default for DriverOptions {
    fn default() -> Self {
        DriverOptions {
            driver: Driver::MultipleMems,
            inc_producers: false,
            wrap_around: false,
            optimize: None,
            alignment: 1,
            components: Vec::new(),
        }
    }
}

/// Aidge 0.10.1's default component: `memory_components_capacities=[1000000000]`.
pub const DEFAULT_CAPACITY: u64 = crate::model::AIDGE_DEFAULT_CAPACITY;

/// Plans `schedule` the way Aidge 0.10.1's chosen driver does.
pub fn generate(schedule: &Schedule, opts: &DriverOptions) -> Result<Plan> {
    schedule.validate()?;
    sequential::run(schedule, opts)
}
