//! Multiple memory components (Aidge 0.10.1's `…MultipleMems` calls), used by
//! `SequentialScheduler::generateMemoryMultipleMems[AutoConcat]`.
//!
//! Each component has a capacity, an "available" byte counter, its own stack and
//! its own list of spaces; spaces made here are *not* in `mMemSpaces`, so the
//! legacy `peak_usage`, `expand` replay and `optimize` never see them. The wheel
//! does not expose these calls to Python; their behaviour was read from the
//! wheel's machine code and is checked end to end through the drivers' parity
//! test (generate_memory_multiple_mems on real models).

use super::ops::{replay, required, Growth, MemoryManager};

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
    /// at offset 0 of a new space of component `c`; errs when the component's
    /// available bytes are fewer than the footprint.
    pub fn allocate_in_component(
        &mut self,
        component: usize,
        size: u64,
        deps: &[NodeId],
        layout: Layout,
        owner: Option<NodeId>,
    ) -> Result<MemoryPlane> {
        let available = self.available_size(component)?;
        let full = layout.full_size(size);
        if available < full {
            return Err(Error::whole(format!(
                "Unable to allocate memory of size {full} in component {component} (available: {available})."
            )));
        }
        let space = self.reserve_multiple_mems(component, full, deps, owner)?;
        Ok(MemoryPlane::new(
            space, self.clock, 0, size, component, layout,
        ))
    }

    /// `allocateAmongComponents(size, deps, ..., priorityOrder, owner)`: the first
    /// component in `priority_order` whose available bytes are ≥ `size` (the
    /// plane's `size` argument, not its footprint: Aidge's test) gets the plane.
    /// Quirk kept: a component with room for `size` but not for the footprint
    /// is still chosen, and `allocateInComponent` then throws instead of trying
    /// the next component.
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

    /// `expandMultipleMems(space, required)`: grows the space, adds it to its
    /// component's list if missing, then replays that component's history on a
    /// cleared stack (placements then releases of each clock, like `expand`) and
    /// recomputes the component's available bytes as capacity minus the blocks
    /// left on its stack.
    pub fn expand_multiple_mems(&mut self, space: SpaceId, required: u64) -> Result<()> {
        let c = self.spaces[space].component;
        self.check_component(c, "expandMultipleMems()")?;
        if !self.component_spaces[c].contains(&space) {
            self.component_spaces[c].push(space);
        }
        let s = &mut self.spaces[space];
        s.size = s.size.max(required);
        // The replay's frees need not give bytes back to `available`: it is
        // recomputed from the blocks left.
        let off = |stack: &mut Stack, offset| {
            stack
                .remove(offset)
                .ok_or_else(|| off_stack_error(c, offset, stack))
        };
        let (ids, stack) = (&self.component_spaces[c], &mut self.component_stacks[c]);
        replay(&mut self.spaces, ids, self.clock, stack, off)?;
        let used = self.component_stacks[c]
            .blocks()
            .values()
            .fold(0u64, |a, &z| a.wrapping_add(z));
        self.available[c] = self.capacities[c].wrapping_sub(used);
        Ok(())
    }

    /// `offStackComponent(c, offset)`: frees the block and gives its bytes back
    /// to the component's available counter.
    fn off_stack_component(&mut self, c: usize, offset: u64) -> Result<u64> {
        self.check_component(c, "offStackComponent()")?;
        let stack = &mut self.component_stacks[c];
        let size = stack
            .remove(offset)
            .ok_or_else(|| off_stack_error(c, offset, stack))?;
        self.available[c] = self.available[c].wrapping_add(size);
        Ok(size)
    }

    /// `reallocateMultipleMems(space, offset, size, c, wrap, extra, deps, ...)`:
    /// like [`MemoryManager::reallocate`] but the space grows through
    /// `expandMultipleMems`, the plane is labelled with component `c`, and the
    /// wrap requirement is plain `fullSize + extra` (no `max` with the offset,
    /// unlike the legacy form).
    #[allow(clippy::too_many_arguments)]
    pub fn reallocate_multiple_mems(
        &mut self,
        space: SpaceId,
        offset: u64,
        size: u64,
        component: usize,
        wrap: bool,
        extra: u64,
        deps: &[NodeId],
        layout: Layout,
    ) -> Result<MemoryPlane> {
        let need = wrap.then(|| layout.full_size(size).wrapping_add(extra));
        let required = required(offset, size, layout, need);
        self.settle(space, required, deps, Growth::Component)?;
        Ok(MemoryPlane::new(
            space, self.clock, offset, size, component, layout,
        ))
    }

    /// `reallocateMultipleMems(plane, extraOffset, size, c, ...)`: exactly the
    /// legacy [`MemoryManager::reallocate_after`] (Aidge implements the legacy
    /// call with this one and `c = 0`, so the space grows through the *legacy*
    /// `expand`), the new plane labelled with component `c`.
    #[allow(clippy::too_many_arguments)]
    pub fn reallocate_after_multiple_mems(
        &mut self,
        prev: &MemoryPlane,
        extra_offset: u64,
        size: u64,
        component: usize,
        wrap: bool,
        extra: u64,
        deps: &[NodeId],
        layout: Layout,
    ) -> Result<MemoryPlane> {
        let args = (extra_offset, size, component);
        self.follow(prev, args, wrap, extra, deps, layout)
    }

    /// Marks `node` as a Producer: `releaseDependenciesMultipleMems` never
    /// releases a space whose owner is a Producer (Aidge tests the owner's
    /// operator type).
    pub fn mark_producer(&mut self, node: NodeId) {
        self.producers.insert(node);
    }

    /// `releaseDependenciesMultipleMems(node)`: for every component, for every
    /// space with pending dependencies, removes `node`; a space whose set becomes
    /// empty is released now and its block freed, unless its owner is a Producer.
    pub fn release_dependencies_multiple_mems(&mut self, node: NodeId) -> Result<u64> {
        let mut freed = 0u64;
        for c in 0..self.component_spaces.len() {
            for i in 0..self.component_spaces[c].len() {
                if let Some(off) = self.drop_dependency(self.component_spaces[c][i], node, true) {
                    freed = freed.wrapping_add(self.off_stack_component(c, off)?);
                }
            }
        }
        Ok(freed)
    }

    /// `addCyclicDependencies(staticSchedule)`: forgets previous records, then
    /// for every node of every step counts one execution and, for each of its
    /// connected data inputs `(parent, output)`, records the node as a consumer
    /// of that parent output. `data_inputs(node)` gives Aidge's
    /// `node->dataInputs()` (parameters excluded; `None` for an unconnected
    /// input).
    pub fn add_cyclic_dependencies<F>(&mut self, schedule: &[Vec<NodeId>], data_inputs: F)
    where
        F: Fn(NodeId) -> Vec<Option<(NodeId, usize)>>,
    {
        self.remaining_exec.clear();
        self.output_consumers.clear();
        for &node in schedule.iter().flatten() {
            *self.remaining_exec.entry(node).or_insert(0) += 1;
            for (parent, output) in data_inputs(node).into_iter().flatten() {
                self.output_consumers
                    .entry((parent, output))
                    .or_default()
                    .insert(node);
            }
        }
    }

    /// `getScheduledConsumers(node, out, fallback)`: the recorded consumers, or
    /// `fallback` (the node's children) when none were recorded.
    pub fn scheduled_consumers(
        &self,
        node: NodeId,
        output: usize,
        fallback: &[NodeId],
    ) -> Vec<NodeId> {
        match self.output_consumers.get(&(node, output)) {
            Some(set) => set.iter().copied().collect(),
            None => fallback.to_vec(),
        }
    }

    /// Counts one execution down; true when the node has no recorded count, a
    /// zero count, or has just run for the last time (then Aidge releases).
    fn last_execution(&mut self, node: NodeId) -> bool {
        match self.remaining_exec.get_mut(&node) {
            None | Some(0) => true,
            Some(n) => {
                *n -= 1;
                *n == 0
            }
        }
    }

    /// `releaseIfLastMultipleMems(node)`: the same with
    /// `releaseDependenciesMultipleMems`.
    pub fn release_if_last_multiple_mems(&mut self, node: NodeId) -> Result<u64> {
        if self.last_execution(node) {
            self.release_dependencies_multiple_mems(node)
        } else {
            Ok(0)
        }
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

/// `offStackComponent`'s error: no block at `offset` in component `c`'s stack.
fn off_stack_error(c: usize, offset: u64, stack: &Stack) -> Error {
    Error::whole(format!(
        "offStackComponent(): offset {offset} not found in component {c} (stack size is {})",
        stack.blocks().len()
    ))
}
