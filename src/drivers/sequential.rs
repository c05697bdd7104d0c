//! The node loop shared by the three drivers (Aidge's `SequentialScheduler`
//! walks its static schedule once, node by node, one tick per planned node).

use super::{Driver, DriverOptions, DEFAULT_CAPACITY};
use crate::manager::{round_up_to_alignment, Layout, MemoryManager, MemoryPlane, NodeId, SpaceId};
use crate::model::{Component, Plan};
use crate::schedule::{Consumer, Node, Output, Port, Schedule};
use crate::Result;
use std::collections::BTreeMap;

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
    // Auto-concat: the base plane of each Concat already planned together with
    // its first input.
    let mut concats: BTreeMap<NodeId, MemoryPlane> = BTreeMap::new();
    for (id, node) in schedule.nodes.iter().enumerate() {
        if multi && node.producer {
            mm.mark_producer(id);
        }
        if node.producer && !opts.inc_producers {
            release(&mut mm, multi, id)?;
            continue;
        }
        if concats.contains_key(&id) {
            // Planned with its first input; Aidge does not tick for it.
            release(&mut mm, multi, id)?;
            continue;
        }
        steps[id].clock = Some(mm.current_tick().max(0) as u32);
        for (o, out) in node.outputs.iter().enumerate() {
            if !is_planned(out) {
                continue;
            }
            let childs = consumers(out);
            // Every driver rounds the bytes it reserves up to `memory_alignment`;
            // checkInPlace and the auto-concat offsets compare unrounded bytes.
            let raw = out.required_memory.wrapping_mul(out.element_bytes);
            let req = round_up_to_alignment(raw, opts.alignment);
            let layout = Layout::FLAT;
            if opts.driver == Driver::AutoConcat {
                if let Some(target) = concat_target(schedule, out) {
                    let concat =
                        place_in_concat(schedule, &mut mm, &mut concats, (id, raw), opts, target)?;
                    steps[target.node]
                        .clock
                        .get_or_insert(mm.space(concat).allocated.max(0) as u32);
                    continue;
                }
            }
            let reuse = if opts.driver == Driver::AutoConcat {
                // No checkInPlace here: only the wrap-around scan reuses inputs.
                match opts.wrap_around {
                    true => wrap_candidate(schedule, &mm, node, out, req)?,
                    false => None,
                }
            } else if let Some(plane) = in_place(schedule, &mm, node, o, raw)? {
                Some((plane, 0))
            } else if opts.wrap_around && !multi {
                wrap_candidate(schedule, &mm, node, out, req)?
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
        // With inc_producers, multiple-mems plans Producers without ticking
        // (all at the clock of the next node); the other drivers tick for them.
        if !(multi && node.producer) {
            mm.tick();
        }
    }
    if let Some(strategy) = opts.optimize {
        mm.optimize(strategy)?;
    }
    let mut plan = mm.to_plan(steps);
    if multi {
        plan.components = components;
    }
    plan.alignment = opts.alignment;
    Ok(plan)
}

fn release(mm: &mut MemoryManager, multi: bool, id: NodeId) -> Result<u64> {
    if multi {
        mm.release_dependencies_multiple_mems(id)
    } else {
        mm.release_dependencies(id)
    }
}

/// Aidge 0.10.1's `node->getChildren(outputIdx)`: the readers of one output
/// (data and parameter inputs), as a set. They become the dependencies of the
/// output's space, so each output of a multi-output node is released on its
/// own (a Split's parts free as soon as their own reader ran).
fn consumers(out: &Output) -> Vec<NodeId> {
    let mut c: Vec<NodeId> = out.consumers.iter().map(|c| c.node).collect();
    c.extend(&out.param_readers);
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
    readers(out) > 0 || out.graph_output
}

/// `getChildren(outputIdx).size()`: readers through data and parameter inputs.
fn readers(out: &Output) -> usize {
    out.consumers.len() + out.param_readers.len()
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
    let fits = readers(src) <= 1
        && input.required_protected == 0
        && src.data_format == out.data_format
        && input.required_data.wrapping_mul(src.element_bytes) == req;
    if !fits {
        return Ok(None);
    }
    parent_plane(schedule, mm, port)
}

/// The input plane the output may wrap over, and the `extra` bytes the space
/// must hold beyond it: the wrap-around scan of Aidge 0.10.1's drivers, as
/// established against the wheel (docs/aidge-parity.md, "Drivers"):
/// - an output nobody reads (a graph output) is never wrapped over an input;
/// - an input is a candidate when its parent output has this node as single
///   reader, is planned and live, and either it is wrappable (`protected <
///   data`) or the output fits after it without wrapping;
/// - the first candidate whose plane covers its protected bytes is taken, a
///   later one only when it leaves more reusable bytes (`getSize() - protected`);
/// - `extra` is the chosen input's protected bytes: the bytes the kernel still
///   reads when it starts writing (0.10.1's `reallocate` then needs
///   `max(fullSize, start) + extra`).
fn wrap_candidate(
    schedule: &Schedule,
    mm: &MemoryManager,
    node: &Node,
    output: &Output,
    req: u64,
) -> Result<Option<(MemoryPlane, u64)>> {
    if readers(output) == 0 {
        return Ok(None);
    }
    let mut best = None;
    scan_inputs(schedule, mm, node, req, &mut best, &mut 0)?;
    Ok(best)
}

/// The candidate scan of [`wrap_candidate`] over `node`'s data inputs, for an
/// output of `req` bytes, updating the best `(plane, protected bytes)` so far
/// and its reusable size (`getSize() - protected`).
fn scan_inputs(
    schedule: &Schedule,
    mm: &MemoryManager,
    node: &Node,
    req: u64,
    best: &mut Option<(MemoryPlane, u64)>,
    wrap_size: &mut u64,
) -> Result<()> {
    for input in &node.inputs {
        let Some(port) = input.parent else { continue };
        let out = &schedule.nodes[port.node].outputs[port.output];
        if readers(out) != 1 {
            continue;
        }
        let Some(plane) = parent_plane(schedule, mm, port)? else {
            continue;
        };
        let space = mm.space(plane.space);
        let rd = input.required_data.wrapping_mul(out.element_bytes);
        let rp = input.required_protected.wrapping_mul(out.element_bytes);
        let start = plane.final_offset(space).wrapping_sub(space.offset);
        if rp < rd || !mm.is_wrap_around(plane.space, start, req, Layout::FLAT) {
            let size = plane.footprint();
            let better = match best {
                None => size >= rp,
                Some(_) => size > wrap_size.wrapping_add(rp),
            };
            if better {
                *wrap_size = size - rp;
                *best = Some((plane, rp));
            }
        }
    }
    Ok(())
}

/// The Concat that the auto-concat driver writes `output` into directly: its
/// single reader, when that reader is a `Concat` all of whose inputs come from
/// outputs read by it alone (otherwise Aidge plans the Concat like any node).
fn concat_target(schedule: &Schedule, output: &Output) -> Option<Consumer> {
    let [target] = output.consumers.as_slice() else {
        return None;
    };
    if !output.param_readers.is_empty() {
        return None;
    }
    let concat = &schedule.nodes[target.node];
    if concat.kind != "Concat" {
        return None;
    }
    let fed_alone = concat.inputs.iter().all(|i| {
        i.parent
            .is_some_and(|p| readers(&schedule.nodes[p.node].outputs[p.output]) == 1)
    });
    fed_alone.then_some(*target)
}

/// Auto-concat placement of output `(id, req)` (node, unaligned bytes), input
/// `target.input` of a Concat: a plane at the bytes of the Concat's inputs
/// before it (`offset`), with the Concat's size (rounded to the alignment) as
/// stride, relative to the Concat's *base* plane. The first input to run sets
/// the base: with wrap-around, the plane of a parent of one of the Concat's
/// inputs when one qualifies ([`concat_candidate`], N2D2's no-branch concat),
/// otherwise a new allocation of the Concat's size. Each input (and, with the
/// first, the Concat's own plane) then follows the base plane by `offset`
/// (`reallocate(base, offset, ..., wrap, extra)`) when *its own* candidate
/// scan found one, else lands at `base.offset + offset` in the base's space
/// without wrapping (which grows a fresh space to `offset + size`). As in the
/// 0.10.1 wheel the plane's `size` is `req - offset` (wrapping: inputs after
/// the first half of the Concat get 0 or a huge size), and dependencies are
/// the Concat's readers. Returns the space.
fn place_in_concat(
    schedule: &Schedule,
    mm: &mut MemoryManager,
    concats: &mut BTreeMap<NodeId, MemoryPlane>,
    (id, req): (NodeId, u64),
    opts: &DriverOptions,
    target: Consumer,
) -> Result<SpaceId> {
    let concat = &schedule.nodes[target.node];
    let offset = concat.inputs[..target.input].iter().fold(0u64, |acc, i| {
        let eb = i.parent.map_or(1, |p| {
            schedule.nodes[p.node].outputs[p.output].element_bytes
        });
        acc.wrapping_add(i.required_data.wrapping_mul(eb))
    });
    let (creq, cchilds) = match concat.outputs.first() {
        Some(o) => (
            round_up_to_alignment(
                o.required_memory.wrapping_mul(o.element_bytes),
                opts.alignment,
            ),
            consumers(o),
        ),
        None => (0, Vec::new()),
    };
    let layout = Layout::new(creq, 1, 1);
    let size = req.wrapping_sub(offset);
    let candidate = if opts.wrap_around {
        concat_candidate(schedule, mm, concat, creq)?
    } else {
        None
    };
    let first = !concats.contains_key(&target.node);
    let base = match (concats.get(&target.node), &candidate) {
        (Some(b), _) => b.clone(),
        (None, Some((plane, _))) => plane.clone(),
        (None, None) => mm.allocate(creq, &cchilds, Layout::FLAT),
    };
    match candidate {
        Some((_, extra)) => {
            mm.reallocate_after_node(&base, id, offset, size, true, extra, &cchilds, layout)?;
            if first {
                let c = target.node;
                mm.reallocate_after_node(&base, c, 0, creq, true, extra, &cchilds, layout)?;
            }
        }
        None => {
            let at = base.offset;
            let sp = base.space;
            let dst = at.wrapping_add(offset);
            mm.reallocate_node(sp, id, dst, size, false, 0, &cchilds, layout)?;
            if first {
                mm.reallocate_node(sp, target.node, at, creq, false, 0, &cchilds, layout)?;
            }
        }
    }
    let space = base.space;
    concats.entry(target.node).or_insert(base);
    Ok(space)
}

/// The plane a Concat's space starts from in wrap-around mode: the
/// wrap-around scan of [`wrap_candidate`] run over the data inputs of every
/// node that feeds the Concat (their parents' planes), with the Concat's size
/// as the output size.
fn concat_candidate(
    schedule: &Schedule,
    mm: &MemoryManager,
    concat: &Node,
    creq: u64,
) -> Result<Option<(MemoryPlane, u64)>> {
    let mut best: Option<(MemoryPlane, u64)> = None;
    let mut wrap_size = 0u64;
    for feeder in concat.inputs.iter().filter_map(|i| i.parent) {
        let node = &schedule.nodes[feeder.node];
        scan_inputs(schedule, mm, node, creq, &mut best, &mut wrap_size)?;
    }
    Ok(best)
}
