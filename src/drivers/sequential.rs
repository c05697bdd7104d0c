//! The node loop shared by the three drivers (Aidge's `SequentialScheduler`
//! walks its static schedule once, node by node, one tick per planned node).

use super::{Driver, DriverOptions, DEFAULT_CAPACITY};
use crate::manager::{round_up_to_alignment, Layout, MemoryManager, MemoryPlane, NodeId};
use crate::model::{Component, Plan};
use crate::schedule::{Node, Output, Port, Schedule};
use crate::Result;

/// Where a node's output may be written over one of its inputs (wrap-around).
struct Candidate {
    plane: MemoryPlane,
    /// Bytes of the input plane that may be overwritten.
    wrap_size: u64,
    /// Bytes the space must grow by for the output to fit.
    extra: u64,
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
        for (o, out) in node.outputs.iter().enumerate() {
            if !is_planned(out) {
                continue;
            }
            let mut req = out.required_memory.wrapping_mul(out.element_bytes);
            if multi {
                req = round_up_to_alignment(req, opts.alignment);
            }
            let layout = Layout::FLAT;
            let reuse = if opts.driver == Driver::AutoConcat {
                None
            } else if let Some(plane) = in_place(schedule, &mm, node, o, req)? {
                Some((plane, 0))
            } else if opts.wrap_around {
                wrap_candidate(schedule, &mm, node, req)?
                    .filter(|c| c.wrap_size > 0)
                    .map(|c| (c.plane, c.extra))
            } else {
                None
            };
            match reuse {
                Some((plane, extra)) => {
                    if multi {
                        let comp = plane.component;
                        mm.reallocate_after_multiple_mems_node(
                            &plane, id, 0, req, comp, true, extra, &childs, layout,
                        )?;
                    } else {
                        mm.reallocate_after_node(&plane, id, 0, req, true, extra, &childs, layout)?;
                    }
                }
                None => {
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

/// The parent's live plane feeding `input`, if planned (Aidge takes the last
/// `nbOutputs` planes of the parent) and its space is not released.
fn parent_plane(
    schedule: &Schedule,
    mm: &MemoryManager,
    port: Port,
) -> Result<Option<MemoryPlane>> {
    let parent = &schedule.nodes[port.node];
    let nb = mm.nb_planes(port.node);
    let planned = parent.outputs.iter().filter(|o| is_planned(o)).count();
    if nb < planned || port.output >= planned {
        return Ok(None);
    }
    let plane = mm.planes(port.node)?[nb - planned + port.output].clone();
    Ok((mm.space(plane.space).released == -1).then_some(plane))
}

/// Aidge 0.10.1 plans an output only when something reads it or the graph
/// returns it.
pub(super) fn is_planned(out: &Output) -> bool {
    !out.consumers.is_empty() || out.graph_output
}

/// `SequentialScheduler::checkInPlace(node, o)`, read from the wheel: output
/// `o` may overwrite input `o` (same index) when that input is connected, its
/// parent output has a single reader, the input has no protected data, both
/// tensors have the same data format, and the output needs exactly the bytes
/// the node reads from the input (`requiredMemory(o)·outBytes ==
/// requiredData(o)·inBytes`). Returns the input's plane then.
fn in_place(
    schedule: &Schedule,
    mm: &MemoryManager,
    node: &Node,
    o: usize,
    req: u64,
) -> Result<Option<MemoryPlane>> {
    let Some(input) = node.inputs.get(o) else {
        return Ok(None);
    };
    let Some(port) = input.parent else {
        return Ok(None);
    };
    let src = &schedule.nodes[port.node].outputs[port.output];
    let out = &node.outputs[o];
    let fits = src.consumers.len() <= 1
        && input.required_protected == 0
        && src.data_format == out.data_format
        && input.required_data.wrapping_mul(src.element_bytes) == req;
    if !fits {
        return Ok(None);
    }
    parent_plane(schedule, mm, port)
}

/// The input plane the output may wrap over: the scan of Aidge's
/// `generateMemory` over the node's data inputs (wrap-around mode).
fn wrap_candidate(
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
        let out = &schedule.nodes[port.node].outputs[port.output];
        if out.consumers.len() != 1 {
            continue;
        }
        let Some(plane) = parent_plane(schedule, mm, port)? else {
            continue;
        };
        let space = mm.space(plane.space);
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
