//! The manager's state as a [`crate::model::Plan`].

use super::ops::MemoryManager;
use crate::model::{Component, Plan, Plane, Space, Step};

impl MemoryManager {
    /// The plan of the current state. `steps[n]` describes node handle `n`;
    /// planes are listed node by node (ascending handle), each node's planes in
    /// order, with the 0.10.1 accessor values; spaces in creation order.
    /// `released` is `None` for Aidge's −1; `has_deps` is "dependencies pending".
    /// One [`Component`] per memory component (one unbounded `mem` for the legacy
    /// constructor).
    pub fn to_plan(&self, steps: Vec<Step>) -> Plan {
        let spaces = self
            .spaces
            .iter()
            .map(|s| Space {
                offset: s.offset,
                size: s.size,
                allocated: s.allocated.max(0) as u32,
                released: (s.released >= 0).then_some(s.released as u32),
                has_deps: !s.dependencies.is_empty(),
                component: s.component,
            })
            .collect();
        let mut planes = Vec::new();
        for (&node, list) in &self.planes {
            for (index, p) in list.iter().enumerate() {
                let s = &self.spaces[p.space];
                let g = p.geometry(s);
                planes.push(Plane {
                    node,
                    index,
                    space: p.space,
                    allocated: p.allocated.max(0) as u32,
                    offset: p.offset,
                    size: p.size,
                    stride: p.stride,
                    length: p.length,
                    count: p.count,
                    cont_offset: g.cont_offset,
                    cont_size: g.cont_size,
                    wrap_offset: g.wrap_offset,
                    wrap_size: g.wrap_size,
                    label: None,
                    tensor: None,
                });
            }
        }
        let components = if self.capacities.is_empty() {
            vec![Component::default()]
        } else {
            self.capacities
                .iter()
                .enumerate()
                .map(|(i, &c)| Component {
                    name: format!("mem{i}"),
                    capacity: Some(c),
                    priority: 0,
                })
                .collect()
        };
        Plan {
            steps,
            components,
            spaces,
            planes,
            max_lifetime: self.max_lifetime().max(0) as u32,
            alignment: 1,
            reordered: false,
        }
    }
}
