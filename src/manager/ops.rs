//! The manager's state and its single-memory operations (Aidge 0.10.1's
//! `reserve`, `expand`, `allocate`, `reallocate`, `release*`, `tick` and the
//! queries). docs/aidge-parity.md lists every Aidge behaviour reproduced and how it
//! is checked against the aidge_core 0.10.1 wheel.

use super::space::{Layout, MemoryPlane, MemorySpace};
use super::stack::Stack;
use super::{cvt_size_t, NodeId, SpaceId, Tick};
use crate::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};

/// Aidge's `MemoryManager`.
#[derive(Debug, Clone, Default)]
pub struct MemoryManager {
    /// Every space ever created, indexed by [`SpaceId`] (creation order).
    pub(super) spaces: Vec<MemorySpace>,
    /// Aidge's `mMemSpaces` order: creation order until `optimize` sorts it.
    pub(super) order: Vec<SpaceId>,
    /// Aidge's `mMemPlanes`: registered planes per node, in insertion order.
    pub(super) planes: BTreeMap<NodeId, Vec<MemoryPlane>>,
    /// Aidge's `mMemStack` (single-memory calls).
    pub(super) stack: Stack,
    pub(super) clock: Tick,
    /// Multiple memory components (empty for the legacy constructor).
    pub(super) capacities: Vec<u64>,
    pub(super) available: Vec<u64>,
    pub(super) component_spaces: Vec<Vec<SpaceId>>,
    pub(super) component_stacks: Vec<Stack>,
    /// Nodes whose operator is a Producer (owner test of
    /// `releaseDependenciesMultipleMems`).
    pub(super) producers: BTreeSet<NodeId>,
    /// `addCyclicDependencies` results: executions left per node, and
    /// schedule-aware consumers per (node, output).
    pub(super) remaining_exec: BTreeMap<NodeId, usize>,
    pub(super) output_consumers: BTreeMap<(NodeId, usize), BTreeSet<NodeId>>,
}

impl MemoryManager {
    /// The legacy constructor: one unbounded memory.
    pub fn new() -> Self {
        Self::default()
    }

    // ---- creation ----------------------------------------------------------

    /// `reserve(size, deps)`: a new space placed first-fit on the stack.
    pub fn reserve(&mut self, size: u64, deps: &[NodeId]) -> SpaceId {
        let offset = self.stack.on(size);
        self.push_space(MemorySpace {
            offset,
            size,
            component: 0,
            dependencies: deps.iter().copied().collect(),
            allocated: self.clock,
            released: -1,
            owner: None,
        })
    }

    pub(super) fn push_space(&mut self, space: MemorySpace) -> SpaceId {
        let id = self.spaces.len();
        self.spaces.push(space);
        self.order.push(id);
        id
    }

    /// `expand(space, required)`: grows the space to `required` if smaller, then
    /// replays the whole history on a cleared stack (for each clock, all
    /// placements in `mMemSpaces` order, then the releases of spaces released at
    /// that clock with no dependencies). Any space may move. Errs like Aidge's
    /// `offStack` when a replayed release finds no block (zero-size quirk).
    pub fn expand(&mut self, space: SpaceId, required: u64) -> Result<()> {
        let s = &mut self.spaces[space];
        s.size = s.size.max(required);
        let clock = self.clock;
        replay(
            &mut self.spaces,
            &self.order,
            clock,
            &mut self.stack,
            Stack::off,
        )
    }

    /// `allocate(size, deps, stride, length, count)`: a plane at offset 0 of a new
    /// space of `max(size, stride) * length * count` bytes. Not registered.
    pub fn allocate(&mut self, size: u64, deps: &[NodeId], layout: Layout) -> MemoryPlane {
        let space = self.reserve(layout.full_size(size), deps);
        MemoryPlane::new(space, self.clock, 0, size, 0, layout)
    }

    /// `allocate(node, ...)`: the same, registered under `node`; returns the
    /// plane's index among the node's planes.
    pub fn allocate_node(
        &mut self,
        node: NodeId,
        size: u64,
        deps: &[NodeId],
        layout: Layout,
    ) -> usize {
        let plane = self.allocate(size, deps, layout);
        self.register(node, plane)
    }

    /// Appends a plane to `mMemPlanes[node]` and returns its index.
    pub(super) fn register(&mut self, node: NodeId, plane: MemoryPlane) -> usize {
        let list = self.planes.entry(node).or_default();
        list.push(plane);
        list.len() - 1
    }

    /// `isWrapAround(space, offset, size, ...)`: `offset + fullSize > space.size`.
    pub fn is_wrap_around(&self, space: SpaceId, offset: u64, size: u64, layout: Layout) -> bool {
        offset.wrapping_add(layout.full_size(size)) > self.spaces[space].size
    }

    /// `reallocate(space, offset, size, wrap, extra, deps, ...)`: a new plane at
    /// `offset` of an existing space. With `wrap`, the space only needs
    /// `max(fullSize, offset) + extra` bytes (rounded up from `offset` to whole lines when
    /// `count > 1`, to whole pixels when `length > 1`); without, `offset +
    /// fullSize`. The space is expanded (replay) when too small *or when already
    /// released* (then revived: `released = -1`). `deps` join the space's set.
    #[allow(clippy::too_many_arguments)]
    pub fn reallocate(
        &mut self,
        space: SpaceId,
        offset: u64,
        size: u64,
        wrap: bool,
        extra: u64,
        deps: &[NodeId],
        layout: Layout,
    ) -> Result<MemoryPlane> {
        let full = layout.full_size(size);
        let need = wrap.then(|| wrap_need(full, offset, extra));
        let required = required(offset, size, layout, need);
        self.settle(space, required, deps, Growth::Legacy)?;
        Ok(MemoryPlane::new(space, self.clock, offset, size, 0, layout))
    }

    /// `reallocate(plane, extraOffset, size, wrap, extra, deps, ...)`: a new plane
    /// that *follows* `prev` (starts at its final offset + `extra_offset`). With
    /// `wrap` the requirement is rounded relative to the start, then again to
    /// `prev`'s own lines/pixels so that `prev`'s floored limit keeps the margin.
    /// The start is recomputed after the expand (`prev`'s limit may change).
    #[allow(clippy::too_many_arguments)]
    pub fn reallocate_after(
        &mut self,
        prev: &MemoryPlane,
        extra_offset: u64,
        size: u64,
        wrap: bool,
        extra: u64,
        deps: &[NodeId],
        layout: Layout,
    ) -> Result<MemoryPlane> {
        self.follow(prev, (extra_offset, size, 0), wrap, extra, deps, layout)
    }

    /// Aidge's `reallocate(plane, ...)` is `reallocateMultipleMems(plane, ...,
    /// componentId = 0, ...)`: one body for both; `component` only labels the
    /// new plane (the space grows through the legacy `expand` either way).
    /// `(extra_offset, size, component)` are the plane's start after `prev`, its size
    /// and its label.
    pub(super) fn follow(
        &mut self,
        prev: &MemoryPlane,
        (extra_offset, size, component): (u64, u64, usize),
        wrap: bool,
        extra: u64,
        deps: &[NodeId],
        layout: Layout,
    ) -> Result<MemoryPlane> {
        let space = prev.space;
        let start = |mm: &Self| {
            let s = &mm.spaces[space];
            prev.final_offset(s)
                .wrapping_sub(s.offset)
                .wrapping_add(extra_offset)
        };
        let init = start(self);
        let full = layout.full_size(size);
        let mut required = required(
            init,
            size,
            layout,
            wrap.then(|| wrap_need(full, init, extra)),
        );
        if wrap {
            required = round_wrap(required, prev.offset, prev.stride, prev.layout());
        }
        self.settle(space, required, deps, Growth::Legacy)?;
        let fin = start(self);
        Ok(MemoryPlane::new(
            space, self.clock, fin, size, component, layout,
        ))
    }

    /// Aidge's `reallocate(…, node, …)` overloads, for any `reallocate` (`make`): the
    /// plane it returns, added to `node`'s planes; its index among them. Like Aidge
    /// (`mMemPlanes[node]` is evaluated first), the node gets an entry even when
    /// `make` throws.
    pub fn registered(
        &mut self,
        node: NodeId,
        make: impl FnOnce(&mut Self) -> Result<MemoryPlane>,
    ) -> Result<usize> {
        self.planes.entry(node).or_default();
        let plane = make(self)?;
        Ok(self.register(node, plane))
    }

    /// The common tail of every `reallocate`: the space grows (through the expand
    /// `growth` names, which replays) when too small *or already released* (then it
    /// is revived: `released = -1`), and `deps` join its set.
    pub(super) fn settle(
        &mut self,
        space: SpaceId,
        required: u64,
        deps: &[NodeId],
        growth: Growth,
    ) -> Result<()> {
        let s = &mut self.spaces[space];
        if required > s.size || s.released >= 0 {
            s.released = -1;
            match growth {
                Growth::Legacy => self.expand(space, required)?,
                Growth::Component => self.expand_multiple_mems(space, required)?,
            }
        }
        self.spaces[space].dependencies.extend(deps.iter().copied());
        Ok(())
    }

    // ---- release and time --------------------------------------------------

    /// `release(space)`: marks a live space released now; frees its stack block
    /// (returning its size) only when it has no pending dependencies.
    pub fn release_space(&mut self, space: SpaceId) -> Result<u64> {
        let s = &mut self.spaces[space];
        if s.released == -1 {
            s.released = self.clock;
            if s.dependencies.is_empty() {
                let off = s.offset;
                return self.stack.off(off);
            }
        }
        Ok(0)
    }

    /// `release(node)`: releases the space of each of the node's planes, then its
    /// dependencies (`releaseDependencies`). A node without planes only warns in
    /// Aidge; here it returns 0.
    pub fn release_node(&mut self, node: NodeId) -> Result<u64> {
        let Some(planes) = self.planes.get(&node) else {
            return Ok(0);
        };
        let spaces: Vec<SpaceId> = planes.iter().map(|p| p.space).collect();
        let mut freed = 0u64;
        for s in spaces {
            freed = freed.wrapping_add(self.release_space(s)?);
        }
        Ok(freed.wrapping_add(self.release_dependencies(node)?))
    }

    /// `releaseDependencies(node)`: removes `node` from every non-empty
    /// dependency set (in `mMemSpaces` order); a set that becomes empty releases
    /// its space now (`released = clock`, block freed). Spaces created without
    /// dependencies are never touched.
    pub fn release_dependencies(&mut self, node: NodeId) -> Result<u64> {
        let mut freed = 0u64;
        for i in 0..self.order.len() {
            if let Some(off) = self.drop_dependency(self.order[i], node, false) {
                freed = freed.wrapping_add(self.stack.off(off)?);
            }
        }
        Ok(freed)
    }

    /// One space's step of both `releaseDependencies`: removes `node` from its
    /// pending dependencies; when that empties the set (and the space is not
    /// released later), the space is released now and the offset of its block, to
    /// free, is returned. With `keep_producers` (the multiple-mems form), a space
    /// whose owner is a Producer loses the dependency but is never released.
    pub(super) fn drop_dependency(
        &mut self,
        id: SpaceId,
        node: NodeId,
        keep_producers: bool,
    ) -> Option<u64> {
        let clock = self.clock;
        let s = &mut self.spaces[id];
        if s.dependencies.is_empty() {
            return None;
        }
        s.dependencies.remove(&node);
        if keep_producers && s.owner.is_some_and(|o| self.producers.contains(&o)) {
            return None;
        }
        if s.released <= clock && s.dependencies.is_empty() {
            s.released = clock;
            return Some(s.offset);
        }
        None
    }

    /// `tick()`: advances the clock. Unlike N2D2, Aidge releases nothing here.
    pub fn tick(&mut self) {
        self.clock = self.clock.wrapping_add(1);
    }

    /// `getCurrentTick()`.
    pub fn current_tick(&self) -> Tick {
        self.clock
    }

    // ---- queries -------------------------------------------------------------

    /// A space by id.
    pub fn space(&self, id: SpaceId) -> &MemorySpace {
        &self.spaces[id]
    }

    /// Every space, in creation order (index = [`SpaceId`]).
    pub fn spaces(&self) -> &[MemorySpace] {
        &self.spaces
    }

    /// `getPlanes(node)`; errs with Aidge's (copy-pasted) message when absent.
    pub fn planes(&self, node: NodeId) -> Result<&[MemoryPlane]> {
        self.planes
            .get(&node)
            .map(|v| v.as_slice())
            .ok_or_else(|| Error::whole(format!("getSize(): no memory allocated for node {node}")))
    }

    /// `getPlanes()`: every node's registered planes, ascending node handle.
    pub fn all_planes(&self) -> &BTreeMap<NodeId, Vec<MemoryPlane>> {
        &self.planes
    }

    /// `getNbPlanes(node)`: 0 when the node has none.
    pub fn nb_planes(&self, node: NodeId) -> usize {
        self.planes.get(&node).map_or(0, Vec::len)
    }

    /// `getNbPlanes(space)`: registered planes in that space.
    pub fn nb_planes_in(&self, space: SpaceId) -> usize {
        self.planes
            .values()
            .flatten()
            .filter(|p| p.space == space)
            .count()
    }

    /// `getOffset(node, plane)`: `space.offset + plane.offset`.
    pub fn offset(&self, node: NodeId, plane: usize) -> Result<u64> {
        let p = self.plane_at(node, plane)?;
        Ok(self.spaces[p.space].offset.wrapping_add(p.offset))
    }

    /// `getSize(node, plane)`: the plane's footprint.
    pub fn size(&self, node: NodeId, plane: usize) -> Result<u64> {
        Ok(self.plane_at(node, plane)?.footprint())
    }

    /// `getSize(node)`: sum of its planes' footprints.
    pub fn node_size(&self, node: NodeId) -> Result<u64> {
        Ok(self
            .planes(node)?
            .iter()
            .fold(0u64, |a, p| a.wrapping_add(p.footprint())))
    }

    fn plane_at(&self, node: NodeId, plane: usize) -> Result<&MemoryPlane> {
        self.planes(node)?
            .get(plane)
            .ok_or_else(|| Error::whole(format!("node {node} has no plane {plane}")))
    }

    /// `getPeakUsage()`: `max(offset + size)` over `mMemSpaces` (0 if none); the
    /// spaces of memory components are not counted (see
    /// [`MemoryManager::peak_usage_multiple_mems`]).
    pub fn peak_usage(&self) -> u64 {
        self.order
            .iter()
            .map(|&i| self.spaces[i].offset.wrapping_add(self.spaces[i].size))
            .max()
            .unwrap_or(0)
    }

    /// `getMaxLifetime()`: `max(max(allocated, released))` over the spaces of the
    /// memory components when any component holds a space, else over
    /// `mMemSpaces` (0 if none). Plane clocks are not considered.
    pub fn max_lifetime(&self) -> Tick {
        let last = |ids: &mut dyn Iterator<Item = &SpaceId>| {
            ids.map(|&i| self.spaces[i].allocated.max(self.spaces[i].released))
                .fold(0, Tick::max)
        };
        if self.component_spaces.iter().any(|c| !c.is_empty()) {
            last(&mut self.component_spaces.iter().flatten())
        } else {
            last(&mut self.order.iter())
        }
    }
}

/// The bytes a wrapping plane needs before rounding: 0.10.1 computes
/// `max(fullSize + extra, start + extra)` (the doc's N2D2 formula is only
/// `fullSize + extra`), so a plane that starts beyond its footprint still keeps
/// its start inside the space (the constructor's `offset <= size`).
/// Which `expand` a `reallocate` grows its space through: the legacy one (one stack
/// for all spaces) or `expandMultipleMems` (the space's component's stack).
#[derive(Debug, Clone, Copy)]
pub(super) enum Growth {
    Legacy,
    Component,
}

/// The replay of both `expand`s: on the cleared `stack`, for each clock up to
/// `clock`, the spaces of `ids` allocated then are placed (in `ids` order), then
/// those released then with no dependencies are freed through `off` (whose error,
/// Aidge's `offStack` or `offStackComponent`, ends the replay).
pub(super) fn replay(
    spaces: &mut [MemorySpace],
    ids: &[SpaceId],
    clock: Tick,
    stack: &mut Stack,
    mut off: impl FnMut(&mut Stack, u64) -> Result<u64>,
) -> Result<()> {
    stack.clear();
    for t in 0..=clock {
        for &id in ids {
            if spaces[id].allocated == t {
                spaces[id].offset = stack.on(spaces[id].size);
            }
        }
        for &id in ids {
            let s = &spaces[id];
            if s.released == t && s.dependencies.is_empty() {
                off(stack, s.offset)?;
            }
        }
    }
    Ok(())
}

/// The bytes a space needs for a plane of `size` starting at `start`: `start +
/// fullSize`, or, when the plane wraps around, the `wrap` bytes it needs rounded up
/// from `start` to whole lines or pixels ([`round_wrap`]).
pub(super) fn required(start: u64, size: u64, layout: Layout, wrap: Option<u64>) -> u64 {
    match wrap {
        None => start.wrapping_add(layout.full_size(size)),
        Some(need) => round_wrap(need, start, size.max(layout.stride), layout),
    }
}

pub(super) fn wrap_need(full: u64, start: u64, extra: u64) -> u64 {
    full.wrapping_add(extra).max(start.wrapping_add(extra))
}

/// The wrap requirement rounding of `reallocate`: with `count > 1` round
/// `required - from` up to whole lines (`stride * length`), with `length > 1` to
/// whole pixels (`stride`), in `double` like Aidge (`std::ceil`), with `size_t`
/// wrap-around when `required < from`.
pub(super) fn round_wrap(required: u64, from: u64, stride: u64, layout: Layout) -> u64 {
    let unit = if layout.count > 1 {
        stride.wrapping_mul(layout.length)
    } else if layout.length > 1 {
        stride
    } else {
        return required;
    };
    let units = (required.wrapping_sub(from) as f64 / unit as f64).ceil();
    cvt_size_t(from as f64 + units * unit as f64)
}
