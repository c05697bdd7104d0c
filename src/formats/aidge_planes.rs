//! The `planes.json` record written by `tests/data/bench/tools/aidge_golden.py` next to each
//! real Aidge 0.10.1 `memory_info.txt`: every plane with its space, exactly as the
//! aidge_core wheel reported it, so the plan (spaces included) is exact.
//!
//! `{"peak", "max_lifetime", "steps": [{"name", "type"}], "planes": [{"node" (a step
//! name), "plane", "allocated", "space_offset", "space_size", "space_allocated",
//! "space_released" (-1 = never), "space_has_deps", "offset", "size", "stride",
//! "length", "count", "cont_offset", "cont_size", "wrap_offset", "wrap_size"}]}`

use super::memplan_json::{from_json, validate_plan};
use crate::model::{Bytes, Clock, Component, Plan, Plane, Space, Step};
use crate::{Error, Result};
use serde::Deserialize;
use std::collections::HashMap;

#[derive(Deserialize)]
struct Dump {
    peak: Bytes,
    max_lifetime: Clock,
    steps: Vec<DumpStep>,
    planes: Vec<DumpPlane>,
}

#[derive(Deserialize)]
struct DumpStep {
    name: String,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct DumpPlane {
    node: String,
    plane: usize,
    allocated: Clock,
    space_offset: Bytes,
    space_size: Bytes,
    space_allocated: Clock,
    space_released: i64,
    space_has_deps: bool,
    offset: Bytes,
    size: Bytes,
    stride: Bytes,
    length: Bytes,
    count: Bytes,
    cont_offset: Bytes,
    cont_size: Bytes,
    wrap_offset: Bytes,
    wrap_size: Bytes,
}

#[derive(Deserialize)]
struct Sniff {
    peak: Option<serde::de::IgnoredAny>,
    planes: Option<serde::de::IgnoredAny>,
    format: Option<serde::de::IgnoredAny>,
}

/// True for a JSON object with `peak` and `planes` and no `format`.
pub fn is_planes_dump(text: &str) -> bool {
    matches!(
        serde_json::from_str::<Sniff>(text),
        Ok(Sniff {
            peak: Some(_),
            planes: Some(_),
            format: None
        })
    )
}

/// Reads the dump. Planes of one space repeat the space's fields; a space is
/// identified by them (two live spaces cannot share offset and allocation clock).
pub fn read(text: &str) -> Result<(Plan, Vec<String>)> {
    let (dump, mut warnings): (Dump, _) = from_json(text)?;
    let mut steps: Vec<Step> = dump
        .steps
        .iter()
        .map(|s| Step {
            name: s.name.clone(),
            kind: s.kind.clone(),
            clock: None,
        })
        .collect();
    let mut spaces: Vec<Space> = Vec::new();
    let mut space_of: HashMap<(Bytes, Bytes, Clock, i64, bool), usize> = HashMap::new();
    let mut planes = Vec::with_capacity(dump.planes.len());
    let mut current: Option<usize> = None;
    for (i, p) in dump.planes.iter().enumerate() {
        // Names need not be unique (ONNX nodes may be unnamed): the dump lists planes
        // in step order, so plane 0 opens the next step of that name, later planes
        // stay on it.
        let node = match current {
            Some(n) if p.plane > 0 && dump.steps[n].name == p.node => n,
            _ => {
                let from = current.map_or(0, |n| n + 1);
                let later = dump.steps.get(from..).unwrap_or_default();
                let found = later.iter().position(|s| s.name == p.node);
                found.map(|k| from + k).ok_or_else(|| {
                    Error::at_path(
                        format!("$.planes[{i}].node"),
                        format!("`{}` is not the name of a later step", p.node),
                    )
                })?
            }
        };
        current = Some(node);
        let released = match p.space_released {
            -1 => None,
            r => Some(Clock::try_from(r).map_err(|_| {
                Error::at_path(
                    format!("$.planes[{i}].space_released"),
                    format!("{r}: expected -1 or a clock"),
                )
            })?),
        };
        let key = (
            p.space_offset,
            p.space_size,
            p.space_allocated,
            p.space_released,
            p.space_has_deps,
        );
        let space = *space_of.entry(key).or_insert_with(|| {
            spaces.push(Space {
                offset: p.space_offset,
                size: p.space_size,
                allocated: p.space_allocated,
                released,
                has_deps: p.space_has_deps,
                component: 0,
            });
            spaces.len() - 1
        });
        steps[node].clock.get_or_insert(p.allocated);
        planes.push(Plane {
            node,
            index: p.plane,
            space,
            allocated: p.allocated,
            offset: p.offset,
            size: p.size,
            stride: p.stride,
            length: p.length,
            count: p.count,
            cont_offset: p.cont_offset,
            cont_size: p.cont_size,
            wrap_offset: p.wrap_offset,
            wrap_size: p.wrap_size,
            label: None,
            tensor: None,
        });
    }
    let mut plan = Plan {
        steps,
        components: vec![Component::default()],
        spaces,
        planes,
        max_lifetime: dump.max_lifetime,
        alignment: 1,
        reordered: false,
    };
    validate_plan(&mut plan, "$")?;
    if plan.peak() != dump.peak {
        warnings.push(format!(
            "$.peak: the file says {}, its spaces reach {}",
            dump.peak,
            plan.peak()
        ));
    }
    Ok((plan, warnings))
}
