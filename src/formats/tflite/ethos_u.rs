//! A model compiled by Arm Vela for an Ethos-U NPU, as it runs: Vela replaces the
//! operators the NPU runs by one custom operator `ethos-u` whose inputs are areas of
//! memory (its command stream and read-only data, in the model; its scratch, in TFLM's
//! arena; its fast scratch, the NPU's own SRAM in Vela's dedicated-SRAM modes) and
//! writes an offline plan that puts the model's inputs and outputs *inside* the
//! scratch, at the addresses Vela gave them. Read as TFLM's arena only, those tensors
//! would overlap; here each memory area is a memory of its own and tensors sharing
//! the scratch's bytes are planes of its space ([`crate::formats::placed`]), so the
//! arena's peak is the scratch Vela sized (its "Allocation Peak Tensor Size"), which
//! `tests/vela.rs` checks against Vela's report of the same compilation.

use super::arena::{Arena, ALIGNMENT};
use crate::formats::placed::{Placed, Value};
use crate::model::Component;

/// The plan of a Vela-compiled model's memories (`offsets`: TFLM's, with Vela's
/// offline plan), and what to tell the user.
pub fn placed(arena: &Arena, offsets: &[u64]) -> (Placed, Vec<String>) {
    let end = arena.scopes.len().saturating_sub(1) as u64;
    let fast: Vec<usize> = arena.npu.iter().filter_map(|op| op.fast).collect();
    let mut memories = vec![Component {
        name: "TFLM arena (NPU scratch)".into(),
        ..Component::default()
    }];
    let mut values = Vec::new();
    let mut fast_memory = None;
    for (a, &offset) in arena.allocs.iter().zip(offsets) {
        let is_fast = a.tensor.is_some_and(|t| fast.contains(&t));
        let memory = if is_fast {
            *fast_memory.get_or_insert_with(|| {
                memories.push(Component {
                    name: "Ethos-U fast memory (scratch_fast)".into(),
                    ..Component::default()
                });
                memories.len() - 1
            })
        } else {
            0
        };
        values.push(Value {
            name: a.name.clone(),
            memory,
            // The fast scratch is the whole of its memory.
            offset: if is_fast { 0 } else { offset },
            size: a.size,
            first: a.first.into(),
            last: a.last.into(),
            tensor: None,
        });
    }
    let constants: Vec<&(String, u64)> = arena.npu.iter().flat_map(|op| &op.constants).collect();
    if !constants.is_empty() {
        memories.push(Component {
            name: "model (command stream, read-only data)".into(),
            ..Component::default()
        });
        let memory = memories.len() - 1;
        let mut at = 0;
        for (name, size) in constants {
            values.push(Value {
                name: name.clone(),
                memory,
                offset: at,
                size: *size,
                first: 0,
                last: end,
                tensor: None,
            });
            at += size.div_ceil(ALIGNMENT) * ALIGNMENT;
        }
    }
    let steps = arena
        .scopes
        .iter()
        .enumerate()
        .map(|(i, (kind, out))| {
            (
                i as u64,
                if out.is_empty() {
                    kind.clone()
                } else {
                    out.clone()
                },
            )
        })
        .collect();
    let mut notes = vec![format!(
        "compiled by Vela for an Ethos-U NPU ({} `{}` operator{}): each memory area is a memory \
         of its own; the model's inputs and outputs sit inside the NPU's scratch, where Vela's \
         offline plan puts them (Vela's --verbose-allocation report shows the tensors inside)",
        arena.npu.len(),
        super::arena::ETHOS_U,
        if arena.npu.len() == 1 { "" } else { "s" }
    )];
    if fast_memory.is_some() {
        notes.push(
            "scratch_fast is the NPU's dedicated SRAM (Vela's Dedicated_Sram modes): shown as a \
             memory of its own, not in TFLM's arena"
                .into(),
        );
    }
    let placed = Placed {
        memories,
        steps,
        values,
        horizon: Some(end),
        alignment: ALIGNMENT,
    };
    (placed, notes)
}
