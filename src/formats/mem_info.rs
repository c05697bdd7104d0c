//! The `mem_info` records of aidge_core 0.10.1's `generate_optimized_memory_info`,
//! as JSON: `{"mem_size": [peak per component], "mem_info": [{"node", "type",
//! "outputs": [record per output]}]}` in step order. A record has the keys and
//! values of the Python dict (`size` = plane size, `offset` = `cont_offset` =
//! contiguous offset, ..., `mem_component_id`); an output index without a plane gets
//! the all-zero dict without `mem_component_id`, as in Python.
//!
//! With the document's schedule (what Aidge's exports carry), the records are
//! complete as Python makes them: one per output of every node, including trailing
//! outputs without a plane (MaxPool's indices), and the standalone pointers of nodes
//! the manager does not plan (Producers), derived from the output's shape, element
//! size and data format. Without a schedule (a text log) only what the plan holds
//! can be given: steps without planes get no records.

use crate::model::{Bytes, Plan, Plane};
use crate::schedule::{Output, Schedule};
use serde::Serialize;

/// One output's record: the keys and values of 0.10.1's Python dict.
#[derive(Serialize)]
pub(crate) struct Record {
    pub size: Bytes,
    pub offset: Bytes,
    pub stride: Bytes,
    pub length: Bytes,
    pub count: Bytes,
    pub cont_offset: Bytes,
    pub cont_size: Bytes,
    pub wrap_offset: Bytes,
    pub wrap_size: Bytes,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mem_component_id: Option<usize>,
}

/// The records of one scheduled node.
#[derive(Serialize)]
pub(crate) struct NodeInfo<'a> {
    pub node: &'a str,
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub outputs: Vec<Record>,
}

#[derive(Serialize)]
struct MemInfo<'a> {
    mem_size: Vec<Bytes>,
    mem_info: Vec<NodeInfo<'a>>,
}

fn record(plan: &Plan, p: Option<&Plane>) -> Record {
    match p {
        Some(p) => Record {
            size: p.size,
            offset: p.cont_offset,
            stride: p.stride,
            length: p.length,
            count: p.count,
            cont_offset: p.cont_offset,
            cont_size: p.cont_size,
            wrap_offset: p.wrap_offset,
            wrap_size: p.wrap_size,
            mem_component_id: Some(plan.spaces.get(p.space).map_or(0, |s| s.component)),
        },
        None => Record {
            size: 0,
            offset: 0,
            stride: 0,
            length: 0,
            count: 0,
            cont_offset: 0,
            cont_size: 0,
            wrap_offset: 0,
            wrap_size: 0,
            mem_component_id: None,
        },
    }
}

/// The standalone pointer Python gives an output the manager does not plan: per
/// pixel for NHWC/NWC tensors of 3 or more dimensions (with `cont_size` in
/// elements, as 0.10.1 writes it), one block otherwise.
fn standalone(out: &Output) -> Record {
    let elems = out.dims.iter().fold(1u64, |a, &d| a.saturating_mul(d));
    let eb = out.element_bytes;
    let per_pixel = matches!(
        out.data_format.to_ascii_lowercase().as_str(),
        "nhwc" | "nwc"
    ) && out.dims.len() >= 3;
    let (size, length, count, cont_size) = if per_pixel {
        let c = out.dims[out.dims.len() - 1];
        let w = out.dims[out.dims.len() - 2];
        let count = elems.checked_div(c.saturating_mul(w)).unwrap_or(0);
        (c.saturating_mul(eb), w, count, elems)
    } else {
        let bytes = elems.saturating_mul(eb);
        (bytes, 1, 1, bytes)
    };
    Record {
        size,
        offset: 0,
        stride: size,
        length,
        count,
        cont_offset: 0,
        cont_size,
        wrap_offset: 0,
        wrap_size: 0,
        mem_component_id: None,
    }
}

/// The schedule when it describes the plan's steps (same nodes, same order).
fn matching<'a>(plan: &Plan, schedule: Option<&'a Schedule>) -> Option<&'a Schedule> {
    schedule.filter(|s| {
        s.nodes.len() == plan.steps.len()
            && s.nodes
                .iter()
                .zip(&plan.steps)
                .all(|(n, st)| n.name == st.name)
    })
}

/// Every step's records, in step order (see the module comment).
pub(crate) fn records<'a>(plan: &'a Plan, schedule: Option<&'a Schedule>) -> Vec<NodeInfo<'a>> {
    let schedule = matching(plan, schedule);
    let mut by_step: Vec<Vec<&Plane>> = vec![Vec::new(); plan.steps.len()];
    for p in &plan.planes {
        if let Some(v) = by_step.get_mut(p.node) {
            v.push(p);
        }
    }
    plan.steps
        .iter()
        .zip(by_step)
        .enumerate()
        .map(|(i, (step, planes))| {
            let node = schedule.map(|s| &s.nodes[i]);
            let count = planes
                .iter()
                .map(|p| p.index.saturating_add(1))
                .max()
                .unwrap_or(0);
            let outputs = match node {
                Some(n) if planes.is_empty() => n.outputs.iter().map(standalone).collect(),
                // One record per output index, empty where no plane; but a corrupt
                // index (a log saying plane 4294967295) must not ask for billions of
                // records: then only the planes' own records, in index order.
                _ if count <= planes.len() + 64 => {
                    let count = count.max(node.map_or(0, |n| n.outputs.len()));
                    (0..count)
                        .map(|k| record(plan, planes.iter().find(|p| p.index == k).copied()))
                        .collect()
                }
                _ => {
                    let mut sorted = planes.clone();
                    sorted.sort_by_key(|p| p.index);
                    sorted.into_iter().map(|p| record(plan, Some(p))).collect()
                }
            };
            NodeInfo {
                node: &step.name,
                kind: &step.kind,
                outputs,
            }
        })
        .collect()
}

/// The records as pretty JSON.
pub fn write(plan: &Plan, schedule: Option<&Schedule>) -> String {
    let out = MemInfo {
        mem_size: plan.peaks(),
        mem_info: records(plan, schedule),
    };
    let mut s = serde_json::to_string_pretty(&out).unwrap_or_default();
    s.push('\n');
    s
}
