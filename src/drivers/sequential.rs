//! The node loop shared by the three drivers (Aidge's `SequentialScheduler`
//! walks its static schedule once, node by node, one tick per planned node).

use super::inputs::{consumers, data_consumers, is_planned, parent_plane, readers, scan_inputs};
use super::{concat, geometry, Driver, DriverOptions, DEFAULT_CAPACITY};
use crate::manager::{Layout, MemoryManager, MemoryPlane, NodeId};
use crate::model::{Component, Plan, Step};
use crate::schedule::{Node, Output, Schedule};
use crate::{Error, Result};
use std::collections::BTreeMap;

pub(super) fn run(schedule: &Schedule, opts: &DriverOptions) -> Result<Plan> {
    // The schedule's own alignment (a deployment's: int8 kernels need 16 bytes) is a
    // floor under the one asked for.
    let aligned;
    let opts = match schedule.alignment {
        Some(a) if a > opts.alignment => {
            aligned = DriverOptions {
                alignment: a,
                ..opts.clone()
            };
            &aligned
        }
        _ => opts,
    };
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
    let mm = if multi {
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
    let mut run = Run {
        schedule,
        opts,
        multi,
        mm,
        priority,
        steps: schedule.steps(),
        concats: BTreeMap::new(),
    };
    for (id, node) in schedule.nodes.iter().enumerate() {
        run.node(id, node)?;
    }
    let mut mm = run.mm;
    if let Some(strategy) = opts.optimize {
        mm.optimize(strategy)?;
    }
    let mut plan = mm.to_plan(run.steps);
    if multi {
        plan.components = components;
    }
    plan.alignment = opts.alignment;
    Ok(plan)
}

/// One driver run: the manager and what the node loop carries from node to node.
struct Run<'a> {
    schedule: &'a Schedule,
    opts: &'a DriverOptions,
    multi: bool,
    mm: MemoryManager,
    /// Components in the order multiple-mems tries them.
    priority: Vec<usize>,
    steps: Vec<Step>,
    /// Auto-concat: the base plane of each Concat already planned together with
    /// its first input.
    concats: BTreeMap<NodeId, MemoryPlane>,
}

impl Run<'_> {
    /// Plans node `id`'s outputs, releases what it was the last to read, and ticks.
    fn node(&mut self, id: NodeId, node: &Node) -> Result<()> {
        let (multi, mm) = (self.multi, &mut self.mm);
        if multi && node.producer {
            mm.mark_producer(id);
        }
        if node.producer && !self.opts.inc_producers {
            release(mm, multi, id)?;
            return Ok(());
        }
        if self.concats.contains_key(&id) {
            // Planned with its first input; Aidge does not tick for it.
            release(mm, multi, id)?;
            return Ok(());
        }
        self.steps[id].clock = Some(mm.current_tick().max(0) as u32);
        for (o, out) in node.outputs.iter().enumerate() {
            if out.token_based {
                return Err(token_based(node, self.opts.driver));
            }
            if is_planned(out) {
                self.output(id, node, o, out)?;
            }
        }
        release(&mut self.mm, multi, id)?;
        // With inc_producers, multiple-mems plans Producers without ticking
        // (all at the clock of the next node); the other drivers tick for them.
        if !(multi && node.producer) {
            self.mm.tick();
        }
        Ok(())
    }

    /// Plans output `o` of node `id`: into its Concat (auto-concat), over an input it
    /// may reuse (in place or wrapping around), or in a new space.
    fn output(&mut self, id: NodeId, node: &Node, o: usize, out: &Output) -> Result<()> {
        let (schedule, opts, multi) = (self.schedule, self.opts, self.multi);
        let childs = match opts.driver {
            Driver::Memory => data_consumers(out),
            _ => consumers(out),
        };
        // Every driver rounds the bytes it reserves up to `memory_alignment`;
        // checkInPlace and the auto-concat offsets compare unrounded bytes.
        let raw = out.required_memory.wrapping_mul(out.element_bytes);
        let (req, layout) = match opts.driver {
            Driver::AutoConcat => geometry::auto_concat_plane_of(out, opts.alignment),
            _ => geometry::plane_of(out, opts.alignment),
        };
        let mm = &mut self.mm;
        if opts.driver == Driver::AutoConcat {
            if let Some(target) = concat::target(schedule, out) {
                concat::place(schedule, mm, &mut self.concats, (id, out), opts, target)?;
                // The Concat's own plane is made with its first input, at this clock
                // (not its space's: with wrap-around the space is an older one).
                self.steps[target.node]
                    .clock
                    .get_or_insert(mm.current_tick().max(0) as u32);
                return Ok(());
            }
        }
        let reuse = if opts.driver == Driver::AutoConcat {
            // No checkInPlace here: only the wrap-around scan reuses inputs.
            match opts.wrap_around {
                true => wrap_candidate(schedule, mm, node, out, (req, layout))?,
                false => None,
            }
        } else if let Some(plane) = in_place(schedule, mm, node, o, raw)? {
            Some((plane, 0))
        } else if opts.wrap_around && !multi {
            wrap_candidate(schedule, mm, node, out, (req, layout))?
        } else {
            None
        };
        match (reuse, multi) {
            (Some((plane, extra)), true) => {
                let comp = plane.component;
                mm.registered(id, |mm| {
                    mm.reallocate_after_multiple_mems(
                        &plane, 0, req, comp, true, extra, &childs, layout,
                    )
                })?;
            }
            (Some((plane, extra)), false) => {
                mm.registered(id, |mm| {
                    mm.reallocate_after(&plane, 0, req, true, extra, &childs, layout)
                })?;
            }
            (None, true) => {
                let priority = &self.priority;
                let p = mm.allocate_among_components(req, &childs, layout, priority, Some(id))?;
                mm.registered(id, |mm| {
                    let (space, at, c) = (p.space, p.offset, p.component);
                    mm.reallocate_multiple_mems(space, at, req, c, false, 0, &childs, layout)
                })?;
            }
            (None, false) => {
                let p = mm.allocate(req, &childs, layout);
                mm.registered(id, |mm| {
                    mm.reallocate(p.space, p.offset, req, false, 0, &childs, layout)
                })?;
            }
        }
        Ok(())
    }
}

/// Aidge's refusal of an output it can only count in tokens (its drivers
/// assert `requiredSize.type == Elts_t::Data`), word for word: it names the
/// node and its type, and the single-memory drivers add a hint.
fn token_based(node: &Node, driver: Driver) -> Error {
    let hint = match driver {
        Driver::MultipleMems => "",
        Driver::Memory | Driver::AutoConcat => {
            " You may need to forward dimensions in the graph first."
        }
    };
    Error::whole(format!(
        "Cannot generate memory with token-based producer-consumer model for node {} (of type \
         {}).{hint}",
        node.name, node.kind
    ))
}

fn release(mm: &mut MemoryManager, multi: bool, id: NodeId) -> Result<u64> {
    if multi {
        mm.release_dependencies_multiple_mems(id)
    } else {
        mm.release_dependencies(id)
    }
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
/// - the first candidate is taken, even when its plane is smaller than its
///   protected bytes; a later one only when it leaves more reusable bytes
///   (`getSize() - protected`, in `size_t`);
/// - `extra` is the first candidate's protected bytes, even when a later one
///   replaces its plane (the bytes the kernel still reads when it starts
///   writing; 0.10.1's `reallocate` then needs `max(fullSize, start) + extra`).
fn wrap_candidate(
    schedule: &Schedule,
    mm: &MemoryManager,
    node: &Node,
    output: &Output,
    req: (u64, Layout),
) -> Result<Option<(MemoryPlane, u64)>> {
    if readers(output) == 0 {
        return Ok(None);
    }
    let mut best = None;
    scan_inputs(schedule, mm, node, req, &mut best, &mut 0)?;
    Ok(best)
}
