//! The `mem_info` records of aidge_core 0.10.1's `generate_optimized_memory_info`,
//! as JSON: `{"mem_size": [peak per component], "mem_info": [{"node", "type",
//! "outputs": [record per output]}]}` in step order. A record has the keys and
//! values of the Python dict (`size` = plane size, `offset` = `cont_offset` =
//! contiguous offset, ..., `mem_component_id`); an output index without a plane gets
//! the all-zero dict without `mem_component_id`, as in Python. Steps without planes
//! (Producers, memory outside the manager) get no records: the plan does not hold
//! the tensor shapes Python derives their standalone pointers from.

use crate::model::{Bytes, Plan, Plane};
use serde::Serialize;

#[derive(Serialize)]
struct Record {
    size: Bytes,
    offset: Bytes,
    stride: Bytes,
    length: Bytes,
    count: Bytes,
    cont_offset: Bytes,
    cont_size: Bytes,
    wrap_offset: Bytes,
    wrap_size: Bytes,
    #[serde(skip_serializing_if = "Option::is_none")]
    mem_component_id: Option<usize>,
}

#[derive(Serialize)]
struct NodeInfo<'a> {
    node: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    outputs: Vec<Record>,
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

/// The records as pretty JSON.
pub fn write(plan: &Plan) -> String {
    let mut by_step: Vec<Vec<&Plane>> = vec![Vec::new(); plan.steps.len()];
    for p in &plan.planes {
        if let Some(v) = by_step.get_mut(p.node) {
            v.push(p);
        }
    }
    let mem_info = plan
        .steps
        .iter()
        .zip(by_step)
        .map(|(step, planes)| {
            let count = planes
                .iter()
                .map(|p| p.index.saturating_add(1))
                .max()
                .unwrap_or(0);
            // One record per output index, empty where no plane; but a corrupt index
            // (a log saying plane 4294967295) must not ask for billions of records:
            // then only the planes' own records, in index order.
            let outputs = if count <= planes.len() + 64 {
                (0..count)
                    .map(|k| record(plan, planes.iter().find(|p| p.index == k).copied()))
                    .collect()
            } else {
                let mut sorted = planes.clone();
                sorted.sort_by_key(|p| p.index);
                sorted.into_iter().map(|p| record(plan, Some(p))).collect()
            };
            NodeInfo {
                node: &step.name,
                kind: &step.kind,
                outputs,
            }
        })
        .collect();
    let out = MemInfo {
        mem_size: plan.peaks(),
        mem_info,
    };
    let mut s = serde_json::to_string_pretty(&out).unwrap_or_default();
    s.push('\n');
    s
}
