//! What a node's ports offer the drivers, as Aidge 0.10.1's `SequentialScheduler` reads
//! them: an output's readers, the live plane of a parent output, and the scan of the
//! inputs a new output may wrap over. Shared by the node loop ([`super::sequential`])
//! and auto-concat's slots ([`super::concat`]).

use crate::manager::{Layout, MemoryManager, MemoryPlane, NodeId};
use crate::schedule::{Node, Output, Port, Schedule};
use crate::Result;

/// Aidge 0.10.1's `node->getChildren(outputIdx)`: the readers of one output
/// (data and parameter inputs), as a set. They become the dependencies of the
/// output's space, so each output of a multi-output node is released on its
/// own (a Split's parts free as soon as their own reader ran).
pub(super) fn consumers(out: &Output) -> Vec<NodeId> {
    let mut c: Vec<NodeId> = out.consumers.iter().map(|c| c.node).collect();
    c.extend(&out.param_readers);
    c.sort_unstable();
    c.dedup();
    c
}

/// The dependencies `generate_memory` (the single-memory driver) gives an output's space:
/// its data readers only, or, for an output read through parameter inputs alone, those
/// readers. A node reading the output as a parameter (a Shape, a Gather's indices, a
/// Clip's bound) after its last data reader does not keep the space alive there, as it
/// does in the two other drivers; found against the wheel on the graphs of
/// docs/aidge-parity.md ("Parameter readers").
pub(super) fn data_consumers(out: &Output) -> Vec<NodeId> {
    if out.consumers.is_empty() {
        return consumers(out);
    }
    let mut c: Vec<NodeId> = out.consumers.iter().map(|c| c.node).collect();
    c.sort_unstable();
    c.dedup();
    c
}

/// The parent's live plane feeding `input`, if planned (Aidge takes the last
/// `nbOutputs` planes of the parent) and its space is not released.
pub(super) fn parent_plane(
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
pub(super) fn readers(out: &Output) -> usize {
    out.consumers.len() + out.param_readers.len()
}

/// The candidate scan of [`wrap_candidate`] over `node`'s data inputs, for an
/// output of `req` bytes, updating the best `(plane, extra bytes)` so far and
/// its reusable size (`getSize() - protected`). `req` is the output's
/// plane size and layout.
pub(super) fn scan_inputs(
    schedule: &Schedule,
    mm: &MemoryManager,
    node: &Node,
    (req, layout): (u64, Layout),
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
        if rp < rd || !mm.is_wrap_around(plane.space, start, req, layout) {
            let size = plane.footprint();
            match best {
                None => {
                    *wrap_size = size.wrapping_sub(rp);
                    *best = Some((plane, rp));
                }
                // A better plane replaces the first one, but the extra bytes
                // stay the first candidate's (the wheel's GoogLeNet margin).
                Some((kept, _)) if size > wrap_size.wrapping_add(rp) => {
                    *wrap_size = size.wrapping_sub(rp);
                    *kept = plane;
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}
