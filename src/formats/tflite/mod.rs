//! TensorFlow Lite models (`.tflite`) as TensorFlow Lite Micro plans them: the buffers
//! its allocator gives its `GreedyMemoryPlanner` ([`arena`]), the plan that planner
//! makes (or the model's own offline plan, as TFLM uses it), named by the model's
//! tensors and operators; and the way back ([`with_plan`]): any valid plan of those
//! buffers written into the model as its offline plan, which every TFLM build reads.
//!
//! A `.tflite` is untrusted input: [`flat`] checks every offset before following it.
//! Only what TFLM's allocator reads is decoded ([`schema`]).

pub mod arena;
mod ethos_u;
mod flat;
mod offline;
mod ops;
pub mod schema;

pub use arena::{Alloc, Arena, ALIGNMENT};
pub use schema::is_tflite;

use crate::check;
use crate::model::{Buffer, BufferList, Plan, Tensor};
use crate::{Error, Result};

/// A model read: its buffers and the plan TFLM makes of them.
#[derive(Debug, Clone)]
pub struct Read {
    pub arena: Arena,
    /// TFLM's offsets, one per buffer of `arena.allocs`.
    pub offsets: Vec<u64>,
    /// The plan at those offsets, clocks named by operators, buffers by tensors.
    pub plan: Plan,
    pub warnings: Vec<String>,
}

/// TFLM's own dump of this model's plan (`PrintMemoryPlan()`, read as `dump`: its
/// buffers in the planner's order, at TFLM's offsets) with the model's tensor names
/// instead of the planner's ids; the kernels' scratch buffers, after the tensors,
/// become `scratch N`. The dump must be of this model: each tensor's lifetime and size
/// are checked against it.
pub fn name_dump(read: &Read, dump: &BufferList) -> Result<BufferList> {
    let tensors: Vec<&Alloc> = read
        .arena
        .allocs
        .iter()
        .filter(|a| a.tensor.is_some())
        .collect();
    if dump.buffers.len() < tensors.len() {
        return Err(Error::whole(format!(
            "the dump has {} buffers, the model {} tensors to place",
            dump.buffers.len(),
            tensors.len()
        )));
    }
    let mut seen = std::collections::HashSet::new();
    let mut buffers = Vec::with_capacity(dump.buffers.len());
    for (i, b) in dump.buffers.iter().enumerate() {
        let mut name = match tensors.get(i) {
            Some(t) => {
                if (b.lower, b.upper, b.size) != (t.first, t.last + 1, t.size) {
                    let tensor = t.tensor.unwrap_or_default();
                    return Err(Error::whole(format!(
                        "buffer id={i} of the dump is not tensor {tensor} of the model"
                    )));
                }
                match t.name.is_empty() {
                    true => format!("tensor {}", t.tensor.unwrap_or_default()),
                    false => t.name.clone(),
                }
            }
            None => format!("scratch {}", i - tensors.len()),
        };
        while !seen.insert(name.clone()) {
            name.push('\'');
        }
        buffers.push(Buffer {
            id: name,
            ..b.clone()
        });
    }
    Ok(BufferList {
        buffers,
        capacity: dump.capacity,
    })
}

/// Reads a model into TFLM's plan of it.
pub fn read(bytes: &[u8]) -> Result<Read> {
    let model = schema::read(bytes)?;
    let arena = arena::arena(bytes, &model)?;
    if arena.allocs.is_empty() {
        return Err(Error::whole("the model has no tensor for the arena"));
    }
    let offsets = arena::greedy(&arena.allocs);
    let mut warnings = Vec::new();
    let plan = if arena.npu.is_empty() {
        plan_of(&arena, &offsets)
    } else {
        let (placed, notes) = ethos_u::placed(&arena, &offsets);
        warnings.extend(notes);
        super::placed::to_plan(&placed)
    };
    if arena.has_offline_plan {
        warnings.push(format!(
            "the model carries an offline plan ({}): shown as TFLM uses it",
            arena::OFFLINE_METADATA
        ));
    }
    if !arena.unknown_scratch.is_empty() {
        warnings.push(format!(
            "scratch buffers of {} are not shown: their kernels' sizes are not modelled, so \
             TFLM's head may be larger",
            arena.unknown_scratch.join(", ")
        ));
    }
    Ok(Read {
        arena,
        offsets,
        plan,
        warnings,
    })
}

/// The buffers as a list (ids: the tensors' names, unique), live `first..=last`.
fn buffer_list(arena: &Arena) -> BufferList {
    let mut seen = std::collections::HashSet::new();
    let buffers = arena
        .allocs
        .iter()
        .map(|a| {
            let base = match (&a.tensor, a.name.is_empty()) {
                (Some(t), true) => format!("tensor {t}"),
                _ => a.name.clone(),
            };
            let mut id = base.clone();
            let mut k = 1;
            while !seen.insert(id.clone()) {
                k += 1;
                id = format!("{base} ({k})");
            }
            Buffer::new(id, a.first, a.last + 1, a.size)
        })
        .collect();
    BufferList {
        buffers,
        capacity: None,
    }
}

/// The plan of the buffers at `offsets`, each clock named by its operator, each
/// tensor's plane with its index, shape and type.
pub fn plan_of(arena: &Arena, offsets: &[u64]) -> Plan {
    let mut plan = buffer_list(arena).to_plan(offsets);
    for (plane, a) in plan.planes.iter_mut().zip(&arena.allocs) {
        plane.tensor = a.tensor.map(|t| {
            Box::new(Tensor {
                index: u32::try_from(t).ok(),
                shape: a
                    .shape
                    .as_ref()
                    .map(|s| s.iter().map(|&d| i64::from(d)).collect()),
                dtype: a.dtype.map(str::to_owned),
                ..Tensor::default()
            })
        });
    }
    for step in &mut plan.steps {
        if let Some((kind, out)) = step.clock.and_then(|c| arena.scopes.get(c as usize)) {
            step.kind = kind.clone();
            if !out.is_empty() {
                step.name = out.clone();
            }
        }
    }
    plan.alignment = ALIGNMENT;
    plan
}

/// The model with the tensors at `offsets` (tensor index of subgraph 0 → arena
/// offset; every tensor TFLM plans must have one) as its offline plan: [`with_plan`]
/// of those offsets, checked the same way.
pub fn with_offsets(
    bytes: &[u8],
    offsets: &std::collections::HashMap<usize, u64>,
) -> Result<Written> {
    let read = read(bytes)?;
    let mut placed = read.offsets.clone();
    for (a, o) in read.arena.allocs.iter().zip(&mut placed) {
        if let Some(t) = a.tensor {
            *o = *offsets.get(&t).ok_or_else(|| {
                Error::whole(format!("tensor {t} ({}) has no offset in the plan", a.name))
            })?;
        }
    }
    with_plan(bytes, &plan_of(&read.arena, &placed))
}

/// A model with a plan written in, and what the interpreter will need.
#[derive(Debug, Clone)]
pub struct Written {
    pub bytes: Vec<u8>,
    /// The arena head the interpreter will plan: the offline tensors, and the scratch
    /// buffers TFLM places at run time in the holes.
    pub head: u64,
    /// The head of the model as it was (TFLM's own plan, or its earlier offline plan).
    pub head_before: u64,
}

impl Written {
    /// What to tell the user: the arena size to set.
    pub fn summary(&self) -> String {
        let change = match self.head.cmp(&self.head_before) {
            std::cmp::Ordering::Less => format!("minus {} bytes", self.head_before - self.head),
            std::cmp::Ordering::Equal => "as it was".to_string(),
            std::cmp::Ordering::Greater => format!("plus {} bytes", self.head - self.head_before),
        };
        format!(
            "arena head {} bytes (was {}): set kTensorArenaSize to the size this model needed \
             {change} (head + tail: the tail, TFLM's persistent data, is unchanged; \
             print_allocations() or arena_used_bytes() gives it)",
            self.head, self.head_before
        )
    }
}

/// The model with `plan`'s offsets as its offline plan. `plan` must be a plan of this
/// model's buffers (as [`read`] gives them, in order, e.g. re-placed by a strategy).
/// What is written is checked as TFLM will read it: offsets aligned and within
/// `int32`, no two live tensors sharing a byte, and the file read back gives the same
/// plan; otherwise nothing is written.
pub fn with_plan(bytes: &[u8], plan: &Plan) -> Result<Written> {
    let model = schema::read(bytes)?;
    let mut arena = arena::arena(bytes, &model)?;
    if !arena.npu.is_empty() {
        return Err(Error::whole(
            "a model compiled by Vela for an Ethos-U NPU: its offline plan is Vela's (the NPU's \
             scratch areas and the tensors inside them); plan the model before Vela compiles it",
        ));
    }
    let head_before = arena::head(&arena.allocs, &arena::greedy(&arena.allocs));
    if plan.spaces.len() != arena.allocs.len() {
        return Err(Error::whole(format!(
            "the plan has {} buffers, the model {}: not a plan of this model",
            plan.spaces.len(),
            arena.allocs.len()
        )));
    }
    let mut offsets = vec![None; arena.tensor_count];
    for (i, (a, s)) in arena.allocs.iter_mut().zip(&plan.spaces).enumerate() {
        let last = s.last_live(plan.max_lifetime);
        if s.size != a.size || s.allocated != a.first || last != a.last {
            return Err(Error::whole(format!(
                "buffer {i} ({}) is {} bytes live {}..={} in the plan, {} bytes live {}..={} \
                 in the model: not a plan of this model",
                a.name, s.size, s.allocated, last, a.size, a.first, a.last
            )));
        }
        if s.offset % ALIGNMENT != 0 || s.offset.saturating_add(a.size) > i32::MAX as u64 {
            return Err(Error::whole(format!(
                "buffer {i} ({}) at offset {}: TFLM needs offsets that are multiples of \
                 {ALIGNMENT} and fit in int32",
                a.name, s.offset
            )));
        }
        // Tensors take the plan's offsets; scratch buffers are always planned at run
        // time, in the holes those leave.
        if let Some(t) = a.tensor {
            a.offline = Some(s.offset);
            offsets[t] = Some(s.offset);
        }
    }
    let placed = arena::greedy(&arena.allocs);
    let report = check::check(&plan_of(&arena, &placed));
    if let Some(p) = report.problems.first() {
        return Err(Error::whole(format!(
            "the plan is not valid, nothing written: {p}{}",
            match report.problems.len() + report.omitted {
                1 => String::new(),
                n => format!(" (and {} more)", n - 1),
            }
        )));
    }
    let out = offline::write(bytes, &model, &offsets)?;
    let back = read(&out).map_err(|e| Error::whole(format!("the written model: {}", e.message)))?;
    if back.offsets != placed {
        return Err(Error::whole(
            "the written model reads back with another plan: nothing written (a bug)",
        ));
    }
    Ok(Written {
        bytes: out,
        head: arena::head(&arena.allocs, &placed),
        head_before,
    })
}
