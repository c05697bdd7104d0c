//! Memory spaces and planes, and the plane accessors of Aidge 0.10.1
//! (`MemoryPlane::getLimit`, `getContiguousOffset`, ...).
//!
//! Every accessor takes the plane's space explicitly: Aidge's plane holds a
//! `shared_ptr` to its space, and its limit is computed *dynamically* from the
//! space's current size and offset, so a plane's geometry changes when its space
//! grows (`expand`) or moves (`expand` replay, `optimize`).

use super::{cvt_size_t, NodeId, SpaceId, Tick};
use std::collections::BTreeSet;

/// Aidge's `MemorySpace`: a contiguous block of one memory component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemorySpace {
    /// Absolute offset inside its component (moved by `expand` replays and `optimize`).
    pub offset: u64,
    /// Size in bytes; only grows (`expand`).
    pub size: u64,
    /// Memory component (bank) index. Spaces made by the legacy single-memory
    /// calls (`reserve`, `allocate`, `reallocate`) are in component 0.
    pub component: usize,
    /// Nodes that still have to read this space (a set, as in Aidge).
    pub dependencies: BTreeSet<NodeId>,
    /// Clock at creation.
    pub allocated: Tick,
    /// Clock of release, −1 while live (Aidge's `released`).
    pub released: Tick,
    /// Node that allocated the space through the multiple-memories calls.
    pub owner: Option<NodeId>,
}

/// Tensor geometry of a plane: (N)HWC with `stride` = C total, `length` = W,
/// `count` = H. `Layout::FLAT` (stride 0 → size, length 1, count 1) is a flat
/// blob that may wrap anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub stride: u64,
    pub length: u64,
    pub count: u64,
}

impl Layout {
    /// Aidge's defaults `stride = 0, length = 1, count = 1`.
    pub const FLAT: Layout = Layout {
        stride: 0,
        length: 1,
        count: 1,
    };

    pub fn new(stride: u64, length: u64, count: u64) -> Self {
        Layout {
            stride,
            length,
            count,
        }
    }

    /// `max(size, stride) * length * count` with `size_t` wrapping: the footprint
    /// (`fullSize`) that `allocate`/`reallocate` reserve for a plane of `size`.
    pub fn full_size(&self, size: u64) -> u64 {
        size.max(self.stride)
            .wrapping_mul(self.length)
            .wrapping_mul(self.count)
    }
}

impl Default for Layout {
    fn default() -> Self {
        Layout::FLAT
    }
}

/// Aidge's `MemoryPlane`: one tensor inside a space, at an offset relative to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryPlane {
    pub space: SpaceId,
    /// Clock at which the plane was created.
    pub allocated: Tick,
    /// Offset relative to the space; may equal the space size (issue #63: immediate wrap).
    pub offset: u64,
    pub size: u64,
    /// Memory component index (`mem_component_id`).
    pub component: usize,
    /// `max(size, stride)` as the constructor stores it.
    pub stride: u64,
    pub length: u64,
    pub count: u64,
}

/// The absolute geometry of a plane at one moment (all 0.10.1 accessors at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaneGeometry {
    pub limit: u64,
    pub cont_offset: u64,
    pub cont_size: u64,
    pub wrap_offset: u64,
    pub wrap_size: u64,
    pub final_offset: u64,
}

impl MemoryPlane {
    /// The constructor: `stride = max(size, stride)`.
    pub fn new(
        space: SpaceId,
        clock: Tick,
        offset: u64,
        size: u64,
        component: usize,
        layout: Layout,
    ) -> Self {
        MemoryPlane {
            space,
            allocated: clock,
            offset,
            size,
            component,
            stride: size.max(layout.stride),
            length: layout.length,
            count: layout.count,
        }
    }

    /// The plane's own layout (stride already resolved).
    pub fn layout(&self) -> Layout {
        Layout {
            stride: self.stride,
            length: self.length,
            count: self.count,
        }
    }

    /// `getSize()`: `stride * length * count`, gaps included (wrapping).
    pub fn footprint(&self) -> u64 {
        self.stride
            .wrapping_mul(self.length)
            .wrapping_mul(self.count)
    }

    /// `getLimit()`: room from the plane's offset to the space end, floored to a
    /// whole line (`count > 1`) or pixel (`length > 1`). Aidge computes it in
    /// `double` (`std::floor`, and the whole conditional expression is `double`)
    /// and converts back; reproduced bit for bit.
    pub fn limit(&self, space: &MemorySpace) -> u64 {
        let room = space.size.wrapping_sub(self.offset);
        if self.count > 1 {
            floor_to(room, self.stride.wrapping_mul(self.length))
        } else if self.length > 1 {
            floor_to(room, self.stride)
        } else {
            // The ternary's common type is `double`: even the plain branch makes
            // the round trip (exact below 2^53 only).
            cvt_size_t(room as f64)
        }
    }

    /// `min(getSize(), getLimit())`, the raw contiguous size before the 0.10.1 fold.
    fn raw_contiguous(&self, space: &MemorySpace) -> u64 {
        self.footprint().min(self.limit(space))
    }

    /// `getContiguousOffset()` (0.10.1): when nothing fits before the space end
    /// (offset == space size, issue #63) the plane restarts at the space start.
    pub fn contiguous_offset(&self, space: &MemorySpace) -> u64 {
        if self.raw_contiguous(space) > 0 {
            space.offset.wrapping_add(self.offset)
        } else {
            space.offset
        }
    }

    /// `getContiguousSize()` (0.10.1): the whole footprint when the raw contiguous
    /// part is empty (immediate wrap shown as one block at the space start).
    pub fn contiguous_size(&self, space: &MemorySpace) -> u64 {
        let c = self.raw_contiguous(space);
        if c > 0 {
            c
        } else {
            self.footprint()
        }
    }

    /// `getWrappedOffset()`: always the space start.
    pub fn wrapped_offset(&self, space: &MemorySpace) -> u64 {
        space.offset
    }

    /// `getWrappedSize()`: footprint minus the contiguous part.
    pub fn wrapped_size(&self, space: &MemorySpace) -> u64 {
        self.footprint().wrapping_sub(self.contiguous_size(space))
    }

    /// `getFinalOffset()`: absolute offset just past the plane's last byte.
    pub fn final_offset(&self, space: &MemorySpace) -> u64 {
        let w = self.wrapped_size(space);
        if w > 0 {
            self.wrapped_offset(space).wrapping_add(w)
        } else {
            self.contiguous_offset(space)
                .wrapping_add(self.contiguous_size(space))
        }
    }

    /// Every accessor at once.
    pub fn geometry(&self, space: &MemorySpace) -> PlaneGeometry {
        PlaneGeometry {
            limit: self.limit(space),
            cont_offset: self.contiguous_offset(space),
            cont_size: self.contiguous_size(space),
            wrap_offset: self.wrapped_offset(space),
            wrap_size: self.wrapped_size(space),
            final_offset: self.final_offset(space),
        }
    }
}

/// `std::floor(room / (double)unit) * unit`, converted back to `size_t`.
fn floor_to(room: u64, unit: u64) -> u64 {
    cvt_size_t((room as f64 / unit as f64).floor() * unit as f64)
}
