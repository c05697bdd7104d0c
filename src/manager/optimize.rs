//! `optimize(strategy)` and its helpers `getStack` and `getMaxHole`: re-place
//! whole spaces after generation, using the extents their *planes* occupy at
//! each clock, so two spaces may share addresses when their planes do not
//! overlap in time.

use super::ops::MemoryManager;
use super::stack::Stack;
use super::{OptimizeStrategy, SpaceId, Tick};
use crate::{Error, Result};
use std::collections::BTreeMap;

impl MemoryManager {
    /// The planes of `space` by the clock they are allocated at, in plane-map order.
    fn plane_groups(&self, space: SpaceId) -> BTreeMap<Tick, Vec<&super::MemoryPlane>> {
        let mut groups: BTreeMap<Tick, Vec<&super::MemoryPlane>> = BTreeMap::new();
        for p in self.planes.values().flatten().filter(|p| p.space == space) {
            groups.entry(p.allocated).or_default().push(p);
        }
        groups
    }

    /// `getStack(space, t)`: the blocks `group`'s planes occupy in `space` as it is
    /// placed now (contiguous part, then wrapped part if any), in plane-map order; a
    /// repeated offset keeps the first block. `group` is the planes allocated at the
    /// latest plane clock ≤ `t` (Aidge asserts that there is one).
    fn blocks(&self, space: SpaceId, group: &[&super::MemoryPlane]) -> BTreeMap<u64, u64> {
        let s = &self.spaces[space];
        let mut out = BTreeMap::new();
        for p in group {
            out.entry(p.contiguous_offset(s))
                .or_insert(p.contiguous_size(s));
            let w = p.wrapped_size(s);
            if w > 0 {
                out.entry(p.wrapped_offset(s)).or_insert(w);
            }
        }
        out
    }

    /// `getMaxHole(space)` → (clock, hole): per plane clock, the bytes of the
    /// space its planes leave free; Aidge's selection, quirks included.
    pub fn max_hole(&self, space: SpaceId) -> (Tick, u64) {
        let s = &self.spaces[space];
        let mut holes: BTreeMap<Tick, u64> = BTreeMap::new();
        for p in self.planes.values().flatten().filter(|p| p.space == space) {
            let used = p.contiguous_size(s).wrapping_add(p.wrapped_size(s));
            match holes.get_mut(&p.allocated) {
                None => {
                    holes.insert(p.allocated, s.size.wrapping_sub(used));
                }
                Some(h) => {
                    // std::max(0, static_cast<int>(hole - cont - wrap))
                    *h = (h.wrapping_sub(used) as i32).max(0) as u64;
                }
            }
        }
        // std::max_element with a comparator returning max(a, b) as bool: the
        // "largest" moves on whenever either hole is non-zero.
        let mut it = holes.into_iter();
        let Some(mut best) = it.next() else {
            return (0, 0);
        };
        for e in it {
            if best.1 != 0 || e.1 != 0 {
                best = e;
            }
        }
        best
    }

    /// `optimize(strategy)`: stable-sorts `mMemSpaces` by the strategy, then
    /// places each space first-fit against the union over its lifetime of the
    /// plane extents already placed. Plane offsets stay relative; the stack is
    /// left stale, as in Aidge.
    pub fn optimize(&mut self, strategy: OptimizeStrategy) -> Result<()> {
        if strategy == OptimizeStrategy::None {
            return Ok(());
        }
        let ml = self.max_lifetime();
        let lifetime = |mm: &Self, id: SpaceId| -> Tick {
            let s = &mm.spaces[id];
            let end = if s.released >= 0 { s.released } else { ml };
            end.wrapping_sub(s.allocated)
        };
        let mut order = self.order.clone();
        match strategy {
            OptimizeStrategy::None => {}
            OptimizeStrategy::MaxLifetimeMinSizeFirst => order.sort_by(|&a, &b| {
                lifetime(self, b)
                    .cmp(&lifetime(self, a))
                    .then(self.spaces[a].size.cmp(&self.spaces[b].size))
            }),
            OptimizeStrategy::MaxLifetimeMaxSizeFirst => order.sort_by(|&a, &b| {
                lifetime(self, b)
                    .cmp(&lifetime(self, a))
                    .then(self.spaces[b].size.cmp(&self.spaces[a].size))
            }),
            OptimizeStrategy::MaxHoleMaxLifetimeFirst => {
                let holes: BTreeMap<SpaceId, u64> =
                    order.iter().map(|&id| (id, self.max_hole(id).1)).collect();
                order.sort_by(|&a, &b| {
                    holes[&b]
                        .cmp(&holes[&a])
                        .then(lifetime(self, b).cmp(&lifetime(self, a)))
                })
            }
        }
        self.order = order;

        let mut stacks: Vec<BTreeMap<u64, u64>> = vec![BTreeMap::new(); ml.max(0) as usize + 1];
        for i in 0..self.order.len() {
            let id = self.order[i];
            let s = &self.spaces[id];
            let max_t = if s.released >= 0 && s.dependencies.is_empty() {
                s.released
            } else {
                ml
            };
            if max_t as usize >= stacks.len() {
                // Only reachable by mixing legacy and component spaces: Aidge's
                // getMaxLifetime() then ignores the legacy ones and indexes out of
                // bounds (undefined behaviour); refuse instead.
                return Err(Error::whole(format!(
                    "optimize(): space {id} lives until clock {max_t}, after getMaxLifetime() = {ml}"
                )));
            }
            let clocks = s.allocated..=max_t;
            let mut merged: BTreeMap<u64, u64> = BTreeMap::new();
            for t in clocks.clone() {
                for (&o, &z) in &stacks[t as usize] {
                    let e = merged.entry(o).or_insert(z);
                    *e = (*e).max(z);
                }
            }
            let mut coalesced: Vec<(u64, u64)> = Vec::new();
            for (o, z) in merged {
                match coalesced.last_mut() {
                    Some((lo, lz)) if o <= lo.wrapping_add(*lz) => {
                        *lz = (*lz).max(o.wrapping_add(z).wrapping_sub(*lo));
                    }
                    _ => coalesced.push((o, z)),
                }
            }
            let offset = Stack::first_fit(coalesced.iter().map(|(o, z)| (o, z)), s.size);
            self.spaces[id].offset = offset;
            // `getStack(id, t)` for every clock of the space's life, its planes grouped
            // once: a clock's stack is the latest group's, the same for every clock up
            // to the next group (grouping per clock made this cubic: minutes on Swin-T).
            let groups = self.plane_groups(id);
            let mut latest: Option<(Tick, BTreeMap<u64, u64>)> = None;
            for t in clocks {
                let Some((&at, group)) = groups.range(..=t).next_back() else {
                    return Err(Error::whole(format!(
                        "getStack(): space {id} has no plane allocated at or before clock {t}"
                    )));
                };
                if latest.as_ref().map_or(true, |(k, _)| *k != at) {
                    latest = Some((at, self.blocks(id, group)));
                }
                let (_, blocks) = latest.as_ref().expect("set above");
                for (&o, &z) in blocks {
                    stacks[t as usize].entry(o).or_insert(z);
                }
            }
        }
        Ok(())
    }
}
