//! Aidge 0.10.1's `MemoryManager`, ported exactly (web-free, no I/O).
//!
//! The manager places the tensors of a schedule in static memory: *spaces* are
//! contiguous blocks that never overlap while live, *planes* are tensors placed
//! inside a space (planes of one space may share bytes: in-place and wrap-around
//! reuse). Drivers (`crate::drivers`) call it node by node, the way Aidge's
//! `SequentialScheduler::generateMemory*` do, then export a [`crate::model::Plan`].
//!
//! Port conventions:
//! - Nodes are `usize` handles chosen by the caller ([`NodeId`]). Aidge keys its
//!   plane map by `shared_ptr<Node>` (pointer order); here the map iterates in
//!   ascending handle order. That order only matters where Aidge's does (ties in
//!   `getStack`/`getMaxHole` during `optimize`), so a caller that wants the wheel's
//!   exact result gives handles in the wheel's map order; drivers give them in
//!   schedule order (deterministic, documented in docs/aidge-parity.md).
//! - Spaces are indices ([`SpaceId`]) into a creation-ordered vector that never
//!   reorders; Aidge's `mMemSpaces` order (which `optimize` sorts and `expand`
//!   replays) is kept separately.
//! - Sizes are `u64` with `size_t` wrapping arithmetic wherever Aidge computes in
//!   `size_t`; clocks are `i32` (Aidge's `Clock_T`, −1 = not released); the
//!   `double` round trips of `getLimit` and of the wrap rounding are reproduced
//!   with x86-64 `double → size_t` conversion semantics ([`cvt_size_t`]).
//! - Where Aidge throws (`offStack`, `getPlanes`, component overflow) the port
//!   returns `Err` after the same partial state changes.

mod components;
mod export;
mod ops;
mod optimize;
mod space;
mod stack;

pub use ops::MemoryManager;
pub use space::{Layout, MemoryPlane, MemorySpace, PlaneGeometry};
pub use stack::Stack;

/// A node handle chosen by the caller (the drivers map graph nodes to these).
pub type NodeId = usize;
/// Index of a space in creation order (stable across `optimize`).
pub type SpaceId = usize;
/// Aidge's `Clock_T` (`int`); −1 marks a space that was never released.
pub type Tick = i32;

/// Aidge's `MemoryManager::OptimizeStrategy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OptimizeStrategy {
    #[default]
    None,
    MaxLifetimeMinSizeFirst,
    MaxLifetimeMaxSizeFirst,
    MaxHoleMaxLifetimeFirst,
}

impl OptimizeStrategy {
    /// Parses the enum names as Aidge spells them (`OptimizeMaxLifetimeMaxSizeFirst`,
    /// with or without the `Optimize` prefix) or their integer values 0..=3.
    pub fn parse(s: &str) -> Option<OptimizeStrategy> {
        let t = s.strip_prefix("Optimize").unwrap_or(s);
        Some(match t {
            "None" | "0" => OptimizeStrategy::None,
            "MaxLifetimeMinSizeFirst" | "1" => OptimizeStrategy::MaxLifetimeMinSizeFirst,
            "MaxLifetimeMaxSizeFirst" | "2" => OptimizeStrategy::MaxLifetimeMaxSizeFirst,
            "MaxHoleMaxLifetimeFirst" | "3" => OptimizeStrategy::MaxHoleMaxLifetimeFirst,
            _ => return None,
        })
    }
}

/// `MemoryManager::roundUpToAlignment(size, alignment)`:
/// `((size + alignment - 1) / alignment) * alignment` in `size_t`. An alignment
/// of 0 would divide by zero in Aidge; here it leaves the size unchanged.
pub fn round_up_to_alignment(size: u64, alignment: u64) -> u64 {
    if alignment == 0 {
        return size;
    }
    (size.wrapping_add(alignment - 1) / alignment).wrapping_mul(alignment)
}

/// `(size_t)x` as gcc compiles it for x86-64 (no AVX-512): values below 2^63 go
/// through `cvttsd2si`, larger ones are shifted down by 2^63 first. Out-of-range
/// inputs (NaN, ≥ 2^64, < −2^63) give the hardware's "integer indefinite", so the
/// result matches the wheel even where C++ calls the conversion undefined.
pub fn cvt_size_t(x: f64) -> u64 {
    const TWO63: f64 = 9_223_372_036_854_775_808.0;
    fn cvttsd2si(x: f64) -> i64 {
        if x.is_nan() || !(-TWO63..TWO63).contains(&x) {
            i64::MIN
        } else {
            x.trunc() as i64
        }
    }
    if x >= TWO63 {
        (cvttsd2si(x - TWO63) as u64) ^ (1u64 << 63)
    } else {
        cvttsd2si(x) as u64
    }
}
