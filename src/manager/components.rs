//! Multiple memory components (Aidge 0.10.1's `…MultipleMems` calls), used by
//! `SequentialScheduler::generateMemoryMultipleMems[AutoConcat]`.
//!
//! Each component has a capacity, an "available" byte counter, its own stack and
//! its own list of spaces; spaces made here are *not* in `mMemSpaces`, so the
//! legacy `peak_usage`, `expand` replay and `optimize` never see them. The wheel
//! does not expose these calls to Python; their behaviour was read from the
//! wheel's machine code and is checked end to end through the drivers' parity
//! test (generate_memory_multiple_mems on real models).

use super::ops::MemoryManager;
use super::space::{Layout, MemoryPlane, MemorySpace};
use super::stack::Stack;
use super::{NodeId, SpaceId};
use crate::{Error, Result};

impl MemoryManager {
    /// `MemoryManager(capacities)`: one component per capacity, all available.
    pub fn with_components(capacities: &[u64]) -> Self {
        MemoryManager {
            capacities: capacities.to_vec(),
            available: capacities.to_vec(),
            component_spaces: vec![Vec::new(); capacities.len()],
            component_stacks: vec![Stack::default(); capacities.len()],
            ..Self::default()
        }
    }

    /// Number of memory components (0 for the legacy constructor).
    pub fn nb_components(&self) -> usize {
        self.capacities.len()
    }

    /// Capacity of each component as given to the constructor.
    pub fn capacities(&self) -> &[u64] {
        &self.capacities
    }

    fn check_component(&self, component: usize, what: &str) -> Result<()> {
        if component < self.capacities.len() {
            Ok(())
        } else {
            Err(Error::whole(format!(
                "{what}: memory component {component} does not exist ({} components)",
                self.capacities.len()
            )))
        }
    }

    /// `getAvailableSize(c)`: capacity minus the bytes reserved in it so far
    /// (releases do not give bytes back).
    pub fn available_size(&self, component: usize) -> Result<u64> {
        self.check_component(component, "getAvailableSize()")?;
        Ok(self.available[component])
    }

    /// `peekOffsetComponent(c, size)`: where `size` bytes would go, first fit.
    pub fn peek_offset_component(&self, component: usize, size: u64) -> Result<u64> {
        self.check_component(component, "peekOffsetComponent()")?;
        Ok(Stack::first_fit(
            self.component_stacks[component].blocks(),
            size,
        ))
    }

    /// The spaces of one component, in creation order.
    pub fn component_spaces(&self, component: usize) -> &[SpaceId] {
        self.component_spaces
            .get(component)
            .map_or(&[], Vec::as_slice)
    }

    /// `reserveMultipleMems(c, size, deps, owner)`: a space first-fit on
    /// component `c`'s stack; the component's available bytes drop by `size`.
    pub fn reserve_multiple_mems(
        &mut self,
        component: usize,
        size: u64,
        deps: &[NodeId],
        owner: Option<NodeId>,
    ) -> Result<SpaceId> {
        self.check_component(component, "reserveMultipleMems()")?;
        let offset = self.component_stacks[component].on(size);
        let id = self.spaces.len();
        self.spaces.push(MemorySpace {
            offset,
            size,
            component,
            dependencies: deps.iter().copied().collect(),
            allocated: self.clock,
            released: -1,
            owner,
        });
        self.component_spaces[component].push(id);
        self.available[component] = self.available[component].wrapping_sub(size);
        Ok(id)
    }

    /// `allocateInComponent(c, size, deps, stride, length, count, owner)`: a plane
    /// at offset 0 of a new space of component `c`.
    pub fn allocate_in_component(
        &mut self,
        component: usize,
        size: u64,
        deps: &[NodeId],
        layout: Layout,
        owner: Option<NodeId>,
    ) -> Result<MemoryPlane> {
        let space = self.reserve_multiple_mems(component, layout.full_size(size), deps, owner)?;
        Ok(MemoryPlane::new(
            space, self.clock, 0, size, component, layout,
        ))
    }

    /// `allocateAmongComponents(size, deps, ..., priorityOrder, owner)`: the first
    /// component in `priority_order` whose available bytes are ≥ `size` (the
    /// plane's `size` argument, not its footprint: Aidge's test) gets the plane.
    pub fn allocate_among_components(
        &mut self,
        size: u64,
        deps: &[NodeId],
        layout: Layout,
        priority_order: &[usize],
        owner: Option<NodeId>,
    ) -> Result<MemoryPlane> {
        for &c in priority_order {
            if self.available_size(c)? >= size {
                return self.allocate_in_component(c, size, deps, layout, owner);
            }
        }
        Err(Error::whole(format!(
            "Unable to allocate memory of size {size} in any component ({} total).",
            self.capacities.len()
        )))
    }

    /// `getPeakUsageMultipleMems()`: per component, `max(offset + size)` over its
    /// spaces. When no component holds any space (legacy calls only, or the
    /// legacy constructor), the wheel falls back to a one-element list holding
    /// the legacy peak over `mMemSpaces`.
    pub fn peak_usage_multiple_mems(&self) -> Vec<u64> {
        let mut peaks = vec![0u64; self.capacities.len()];
        let mut any = false;
        for (c, ids) in self.component_spaces.iter().enumerate() {
            any |= !ids.is_empty();
            for &i in ids {
                let end = self.spaces[i].offset.wrapping_add(self.spaces[i].size);
                peaks[c] = peaks[c].max(end);
            }
        }
        if !any {
            peaks.resize(1, 0);
            for &i in &self.order {
                let end = self.spaces[i].offset.wrapping_add(self.spaces[i].size);
                peaks[0] = peaks[0].max(end);
            }
        }
        peaks
    }
}
