//! `generate_memory_auto_concat`'s Concat handling: the inputs of a Concat are
//! written straight into the Concat's space, each at its place in the result,
//! so that the Concat itself costs no copy and no memory.

use super::geometry::{self, Pixels};
use super::inputs::{consumers, readers, scan_inputs};
use super::DriverOptions;
use crate::manager::{Layout, MemoryManager, MemoryPlane, NodeId};
use crate::schedule::{Consumer, Node, Output, Schedule};
use crate::Result;
use std::collections::BTreeMap;

/// The Concat that the auto-concat driver writes `output` into directly: its
/// single reader, when that reader is a `Concat` all of whose inputs come from
/// outputs read by it alone (otherwise Aidge plans the Concat like any node).
pub(super) fn target(schedule: &Schedule, output: &Output) -> Option<Consumer> {
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

/// Where one input of a Concat goes, as the 0.10.1 wheel computes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    /// Bytes before the input inside the Concat's block (flat) or pixel (NHWC).
    offset: u64,
    /// The input plane's `size`: its own bytes minus `offset`, in `size_t`
    /// (the wheel's quirk: inputs past the first half get 0 or a huge size).
    size: u64,
    /// The Concat's layout, shared by the inputs' planes.
    layout: Layout,
    /// The `size` of the Concat's own plane when this input runs first.
    concat_size: u64,
    /// The Concat's fresh allocation when no plane can be reused.
    fresh: (u64, Layout),
}

/// The slot of `out` as input `k` of `concat`. A flat Concat is one block: the
/// offset sums the bytes its earlier inputs read (`requiredData`, unaligned),
/// the layout's stride is the Concat's aligned size, and the Concat's plane is
/// that size. A channels-last Concat (`nhwc`, `nwc`) is laid out per pixel
/// (its aligned pixel as stride), and its own plane gets the first input's
/// pixel bytes; only an `nhwc` one also counts the offset and the input's size
/// in pixel bytes, an `nwc` one keeps whole-tensor bytes there (the wheel).
fn slot(schedule: &Schedule, concat: &Node, k: usize, out: &Output, alignment: u64) -> Slot {
    let source = |i: usize| {
        let p = concat.inputs[i].parent?;
        Some(&schedule.nodes[p.node].outputs[p.output])
    };
    let cout = concat.outputs.first();
    let cpixels = cout.and_then(geometry::pixels);
    let nhwc_offsets = cpixels.is_some() && cout.is_some_and(|o| o.data_format == "nhwc");
    let bytes_of = |i: usize, o: Option<&Output>| match (nhwc_offsets, o.and_then(geometry::pixels))
    {
        (true, Some(Pixels { bytes, .. })) => bytes,
        _ => {
            let eb = o.map_or(1, |o| o.element_bytes);
            concat.inputs[i].required_data.wrapping_mul(eb)
        }
    };
    let offset = (0..k).fold(0u64, |acc, i| acc.wrapping_add(bytes_of(i, source(i))));
    let own = match (nhwc_offsets, geometry::pixels(out)) {
        (true, Some(px)) => px.bytes,
        _ => out.required_memory.wrapping_mul(out.element_bytes),
    };
    let block = cout.map_or(0, |o| geometry::block_bytes(o, alignment));
    let (layout, concat_size, fresh) = match cpixels {
        Some(px) => {
            let first = geometry::pixels(out).map_or(own, |p| p.bytes);
            (px.layout(alignment), first, (first, px.layout(alignment)))
        }
        None => (Layout::new(block, 1, 1), block, (block, Layout::FLAT)),
    };
    Slot {
        offset,
        size: own.wrapping_sub(offset),
        layout,
        concat_size,
        fresh,
    }
}

/// Auto-concat placement of output `out` of node `id`, input `target.input`
/// of a Concat: a plane at its [`Slot`], relative to the Concat's *base*
/// plane. The first input to run sets the base: with wrap-around, the plane
/// of a parent of one of the Concat's inputs when one qualifies
/// ([`candidate`], N2D2's no-branch concat), otherwise a new allocation of the
/// Concat. Each input (and, with the first, the Concat's own plane) then
/// follows the base plane by its offset (`reallocate(base, offset, ..., wrap,
/// extra)`) when *its own* candidate scan found one, else lands at
/// `base.offset + offset` in the base's space without wrapping (which grows a
/// fresh space to `offset + size`). Dependencies are the Concat's readers.
pub(super) fn place(
    schedule: &Schedule,
    mm: &mut MemoryManager,
    concats: &mut BTreeMap<NodeId, MemoryPlane>,
    (id, out): (NodeId, &Output),
    opts: &DriverOptions,
    target: Consumer,
) -> Result<()> {
    let concat = &schedule.nodes[target.node];
    let slot = slot(schedule, concat, target.input, out, opts.alignment);
    let cchilds = concat.outputs.first().map(consumers).unwrap_or_default();
    let (offset, size, layout, csize) = (slot.offset, slot.size, slot.layout, slot.concat_size);
    let candidate = if opts.wrap_around {
        candidate(schedule, mm, concat, (csize, layout))?
    } else {
        None
    };
    let first = !concats.contains_key(&target.node);
    let base = match (concats.get(&target.node), &candidate) {
        (Some(b), _) => b.clone(),
        (None, Some((plane, _))) => plane.clone(),
        (None, None) => mm.allocate(slot.fresh.0, &cchilds, slot.fresh.1),
    };
    match candidate {
        Some((_, extra)) => {
            mm.registered(id, |mm| {
                mm.reallocate_after(&base, offset, size, true, extra, &cchilds, layout)
            })?;
            if first {
                mm.registered(target.node, |mm| {
                    mm.reallocate_after(&base, 0, csize, true, extra, &cchilds, layout)
                })?;
            }
        }
        None => {
            let at = base.offset;
            let sp = base.space;
            let dst = at.wrapping_add(offset);
            mm.registered(id, |mm| {
                mm.reallocate(sp, dst, size, false, 0, &cchilds, layout)
            })?;
            if first {
                mm.registered(target.node, |mm| {
                    mm.reallocate(sp, at, csize, false, 0, &cchilds, layout)
                })?;
            }
        }
    }
    concats.entry(target.node).or_insert(base);
    Ok(())
}

/// The plane a Concat's space starts from in wrap-around mode: the
/// wrap-around scan of the other outputs run over the data inputs of every
/// node that feeds the Concat (their parents' planes), with the Concat's
/// plane as the output.
fn candidate(
    schedule: &Schedule,
    mm: &MemoryManager,
    concat: &Node,
    plane: (u64, Layout),
) -> Result<Option<(MemoryPlane, u64)>> {
    let mut best: Option<(MemoryPlane, u64)> = None;
    let mut wrap_size = 0u64;
    for feeder in concat.inputs.iter().filter_map(|i| i.parent) {
        let node = &schedule.nodes[feeder.node];
        scan_inputs(schedule, mm, node, plane, &mut best, &mut wrap_size)?;
    }
    Ok(best)
}
