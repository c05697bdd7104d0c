//! The node loop shared by the three drivers (Aidge's `SequentialScheduler`
//! walks its static schedule once, node by node, one tick per planned node).

use super::{Driver, DriverOptions, DEFAULT_CAPACITY};
use crate::manager::{round_up_to_alignment, Layout, MemoryManager, MemoryPlane, NodeId};
use crate::model::{Component, Plan};
use crate::schedule::{Node, Schedule};
use crate::Result;

/// Where a node's output may be written over one of its inputs.
struct Candidate {
    plane: MemoryPlane,
    /// Bytes of the input plane that may be overwritten.
    wrap_size: u64,
    /// Bytes the space must grow by for the output to fit.
    extra: u64,
    /// The input has no protected data: the output may overwrite it in place.
    in_place: bool,
}

pub(super) fn run(schedule: &Schedule, opts: &DriverOptions) -> Result<Plan> {
    let multi = opts.driver == Driver::MultipleMems;
    let components: Vec<Component> = if opts.components.is_empty() {
        vec![Component {
            name: "MEM_0".into(),
            capacity: Some(DEFAULT_CAPACITY),
            priority: 0,
        }]
    } else {
        opts.components.clone()
    };
    let mut mm = if multi {
        let caps: Vec<u64> = components
            .iter()
            .map(|c| c.capacity.unwrap_or(u64::MAX))
            .collect();
        MemoryManager::with_components(&caps)
    } else {
        MemoryManager::new()
    };
    // Components tried in priority order (stable on ties).
    let mut priority: Vec<usize> = (0..components.len()).collect();
    priority.sort_by_key(|&c| components[c].priority);

    let mut steps = schedule.steps();
    for (id, node) in schedule.nodes.iter().enumerate() {
        if multi && node.producer {
            mm.mark_producer(id);
        }
        if node.producer && !opts.inc_producers {
            release(&mut mm, multi, id)?;
            continue;
        }
        steps[id].clock = Some(mm.current_tick().max(0) as u32);
        let childs = children(node);
        for out in &node.outputs {
            if out.consumers.is_empty() && !out.graph_output {
                continue;
            }
            let mut req = out.required_memory.wrapping_mul(out.element_bytes);
            if multi {
                req = round_up_to_alignment(req, opts.alignment);
            }
            let layout = Layout::FLAT;
            let cand = if opts.driver == Driver::AutoConcat {
                None
            } else {
                candidate(schedule, &mm, node, req)?
            };
            match cand {
                Some(c) if c.wrap_size > 0 && (opts.wrap_around || c.in_place) => {
                    let wrap_extra = if opts.wrap_around { c.extra } else { 0 };
                    if multi {
                        let comp = c.plane.component;
                        mm.reallocate_after_multiple_mems_node(
                            &c.plane, id, 0, req, comp, true, wrap_extra, &childs, layout,
                        )?;
                    } else {
                        mm.reallocate_after_node(
                            &c.plane, id, 0, req, true, wrap_extra, &childs, layout,
                        )?;
                    }
                }
                _ => {
                    if multi {
                        let p = mm.allocate_among_components(
                            req,
                            &childs,
                            layout,
                            &priority,
                            Some(id),
                        )?;
                        mm.reallocate_multiple_mems_node(
                            p.space,
                            id,
                            p.offset,
                            req,
                            p.component,
                            false,
                            0,
                            &childs,
                            layout,
                        )?;
                    } else {
                        let p = mm.allocate(req, &childs, layout);
                        mm.reallocate_node(p.space, id, p.offset, req, false, 0, &childs, layout)?;
                    }
                }
            }
        }
        release(&mut mm, multi, id)?;
        mm.tick();
    }
    if let Some(strategy) = opts.optimize {
        mm.optimize(strategy)?;
    }
    let mut plan = mm.to_plan(steps);
    if multi {
        plan.components = components;
    }
    plan.alignment = if multi { opts.alignment } else { 1 };
    Ok(plan)
}

fn release(mm: &mut MemoryManager, multi: bool, id: NodeId) -> Result<u64> {
    if multi {
        mm.release_dependencies_multiple_mems(id)
    } else {
        mm.release_dependencies(id)
    }
}

/// Aidge's `node->getChildren()`: every consumer of every output, as a set.
fn children(node: &Node) -> Vec<NodeId> {
    let mut c: Vec<NodeId> = node
        .outputs
        .iter()
        .flat_map(|o| o.consumers.iter().map(|c| c.node))
        .collect();
    c.sort_unstable();
    c.dedup();
    c
}

/// The input plane the output may overwrite: the scan of Aidge's
/// `generateMemory` over the node's data inputs.
fn candidate(
    schedule: &Schedule,
    mm: &MemoryManager,
    node: &Node,
    req: u64,
) -> Result<Option<Candidate>> {
    let mut best: Option<Candidate> = None;
    let mut wrap_size = 0u64;
    let mut extra = 0u64;
    for input in &node.inputs {
        let Some(port) = input.parent else { continue };
        let parent = &schedule.nodes[port.node];
        let out = &parent.outputs[port.output];
        if out.consumers.len() != 1 {
            continue;
        }
        let nb = mm.nb_planes(port.node);
        if nb < parent.outputs.len() {
            continue;
        }
        let plane = mm.planes(port.node)?[nb - parent.outputs.len() + port.output].clone();
        let space = mm.space(plane.space);
        if space.released != -1 {
            continue;
        }
        let rd = input.required_data.wrapping_mul(out.element_bytes);
        let rp = input.required_protected.wrapping_mul(out.element_bytes);
        let wrappable = rp < rd;
        let start = plane.final_offset(space).wrapping_sub(space.offset);
        if wrappable || !mm.is_wrap_around(plane.space, start, req, Layout::FLAT) {
            if plane.footprint() > wrap_size.wrapping_add(rp) {
                wrap_size = plane.footprint() - rp;
                if req > wrap_size {
                    extra = req - wrap_size;
                }
                best = Some(Candidate {
                    plane,
                    wrap_size,
                    extra,
                    in_place: rp == 0,
                });
            }
            if extra == 0 {
                break;
            }
        }
    }
    Ok(best.map(|mut c| {
        c.extra = extra;
        c
    }))
}
