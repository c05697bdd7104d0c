//! What TFLM's allocator puts in the arena's head, read from a model: the buffers
//! `AllocationInfoBuilder` makes (tensors of subgraph 0 that need the arena, then the
//! kernels' scratch buffers), their lifetimes in allocation scopes, the offline plan
//! the model may carry, and `GreedyMemoryPlanner`'s placement as the interpreter runs
//! it (tflite-micro's `micro_allocation_info.cc`, `micro_allocator.cc`,
//! `greedy_memory_planner.cc`).

use super::ops;
use super::schema::{Model, Operator, Subgraph};
use crate::{Error, Result};

/// `MicroArenaBufferAlignment()`: every planned size is rounded up to it.
pub const ALIGNMENT: u64 = 16;
/// The metadata entry TFLM reads an offline plan from.
pub const OFFLINE_METADATA: &str = "OfflineMemoryAllocation";
/// `kOnlinePlannedBuffer`: an offline plan's "plan this one at run time".
const ONLINE: i32 = -1;

/// One buffer of the planner, in the order the allocator adds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alloc {
    /// Tensor index in subgraph 0, or `None` for a kernel's scratch buffer.
    pub tensor: Option<usize>,
    /// The tensor's name, or `scratch N · OP` for a scratch buffer.
    pub name: String,
    /// Bytes, rounded up to [`ALIGNMENT`].
    pub size: u64,
    /// First and last allocation scope, inclusive (0: the inputs, then one per operator).
    pub first: u32,
    pub last: u32,
    /// The offset an offline plan gives it.
    pub offline: Option<u64>,
    /// The tensor's dimensions and element type (`int8`), None for a scratch buffer.
    pub shape: Option<Vec<i32>>,
    pub dtype: Option<&'static str>,
}

/// The planner's input for one model.
#[derive(Debug, Clone)]
pub struct Arena {
    pub allocs: Vec<Alloc>,
    /// Number of tensors of every subgraph (the length of an offline plan).
    pub tensor_count: usize,
    /// Per allocation scope: (builtin operator name, name of its first output).
    pub scopes: Vec<(String, String)>,
    /// Operators whose reference kernel requests scratch buffers of a size memplan
    /// does not model (their scratch buffers are left out of TFLM's plan).
    pub unknown_scratch: Vec<String>,
    /// The model carries an offline plan (`OfflineMemoryAllocation`).
    pub has_offline_plan: bool,
    /// The operators Vela compiled for an Ethos-U NPU (`ethos-u` custom operators).
    pub npu: Vec<NpuOp>,
}

/// The custom operator `ethos-u` Vela writes: the NPU runs a command stream over
/// areas of memory that are operator inputs (Vela's `tflite_writer`: command stream,
/// read-only data, scratch, fast scratch, then the feature maps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpuOp {
    /// Its allocation scope.
    pub scope: u32,
    /// Tensor of the scratch area (feature maps and staging, in the arena).
    pub scratch: Option<usize>,
    /// Tensor of the fast scratch when it is not the scratch itself (Vela's dedicated
    /// SRAM modes: the NPU's own SRAM).
    pub fast: Option<usize>,
    /// Its constant inputs (command stream, read-only data): tensor name, bytes.
    pub constants: Vec<(String, u64)>,
}

/// The custom code of Vela's operator.
pub const ETHOS_U: &str = "ethos-u";

/// The name of a `TensorType` (schema.fbs), as TFLite's tools print it in lower case.
fn type_name(kind: i8) -> Option<&'static str> {
    const NAMES: [&str; 19] = [
        "float32",
        "float16",
        "int32",
        "uint8",
        "int64",
        "string",
        "bool",
        "int16",
        "complex64",
        "int8",
        "float64",
        "complex128",
        "uint64",
        "resource",
        "variant",
        "uint32",
        "uint16",
        "int4",
        "bfloat16",
    ];
    usize::try_from(kind)
        .ok()
        .and_then(|k| NAMES.get(k).copied())
}

/// Bytes per element of each `TensorType` that TFLM sizes (`TfLiteTypeSizeOf`).
fn type_size(kind: i8) -> Option<u64> {
    Some(match kind {
        3 | 6 | 9 | 17 => 1,  // UINT8, BOOL, INT8, INT4 (one byte per element in TFLM)
        1 | 7 | 16 | 18 => 2, // FLOAT16, INT16, UINT16, BFLOAT16
        0 | 2 | 13 | 15 => 4, // FLOAT32, INT32, RESOURCE, UINT32
        4 | 8 | 10 | 12 => 8, // INT64, COMPLEX64, FLOAT64, UINT64
        11 => 16,             // COMPLEX128
        _ => return None,
    })
}

const INT8: i8 = 9;
const INT16: i8 = 7;
const INT4: i8 = 17;

fn elements(shape: Option<&[i32]>) -> Option<u64> {
    shape
        .unwrap_or(&[])
        .iter()
        .try_fold(1u64, |n, &d| n.checked_mul(u64::try_from(d).ok()?))
}

/// Reads the buffers TFLM's planner gets for `model` (`buf`: the file's bytes).
pub fn arena(buf: &[u8], model: &Model) -> Result<Arena> {
    let sub = match model.subgraphs.as_slice() {
        [one] => one,
        [] => return Err(Error::whole("the model has no subgraph")),
        many => {
            return Err(Error::whole(format!(
                "the model has {} subgraphs: memplan plans models of one subgraph \
                 (TFLM nests the scopes of control-flow subgraphs; not supported)",
                many.len()
            )))
        }
    };
    let n = sub.tensors.len();
    let offline = offline_plan(buf, model, n)?;
    let (mut first, last, scopes, scratch, unknown) = lifetimes(model, sub)?;
    let npu = npu_ops(buf, model, sub);
    // Vela's scratch areas are inputs of its operator that nothing writes: TFLM plans
    // them from before the operator (`first_created` unset) to it; they are shown from
    // the operator on.
    for op in &npu {
        for t in op.scratch.iter().chain(&op.fast) {
            first[*t].get_or_insert(op.scope);
        }
    }
    let mut allocs = Vec::new();
    for (i, t) in sub.tensors.iter().enumerate() {
        let has_data = model
            .buffers
            .get(t.buffer as usize)
            .is_some_and(|b| b.data.1 > b.data.0 || b.offset > 1);
        let offline_at = offline.as_ref().map(|o| o[i]).filter(|&o| o != ONLINE);
        let Some(width) = type_size(t.kind) else {
            if has_data || t.is_variable {
                continue;
            }
            return Err(tensor_error(
                i,
                &t.name,
                format!("type {} not supported by TFLM", t.kind),
            ));
        };
        let bytes = elements(t.shape.as_deref())
            .and_then(|e| e.checked_mul(width))
            .filter(|&b| b <= i32::MAX as u64)
            .ok_or_else(|| tensor_error(i, &t.name, "shape with a negative or too large size"))?;
        let needs = !has_data && bytes != 0 && (!t.is_variable || offline_at.is_some());
        if !needs {
            continue;
        }
        let (Some(f), Some(l)) = (first[i], last[i]) else {
            let msg = "neither an input of the model nor written by an operator";
            return Err(tensor_error(i, &t.name, msg));
        };
        let offline = match offline_at {
            Some(o) if o < 0 => {
                return Err(tensor_error(i, &t.name, format!("offline plan offset {o}")))
            }
            o => o.map(|o| o as u64),
        };
        allocs.push(Alloc {
            tensor: Some(i),
            name: t.name.clone(),
            size: bytes.div_ceil(ALIGNMENT) * ALIGNMENT,
            first: f,
            last: l,
            offline,
            // A tensor without a shape is a scalar.
            shape: Some(t.shape.clone().unwrap_or_default()),
            dtype: type_name(t.kind),
        });
    }
    allocs.extend(scratch);
    Ok(Arena {
        allocs,
        tensor_count: n,
        scopes,
        unknown_scratch: unknown,
        has_offline_plan: offline.is_some(),
        npu,
    })
}

/// The `ethos-u` operators of `sub` and the tensors their inputs name.
fn npu_ops(buf: &[u8], model: &Model, sub: &Subgraph) -> Vec<NpuOp> {
    let tensor = |t: Option<&i32>| {
        t.and_then(|&t| usize::try_from(t).ok())
            .filter(|&t| t < sub.tensors.len())
    };
    let mut ops = Vec::new();
    for (k, op) in sub.operators.iter().enumerate() {
        let is_npu = model
            .opcodes
            .get(op.opcode as usize)
            .is_some_and(|c| c.builtin == 32 && c.custom == ETHOS_U);
        if !is_npu {
            continue;
        }
        let scratch = tensor(op.inputs.get(2));
        let fast = tensor(op.inputs.get(3)).filter(|&f| Some(f) != scratch);
        let constants = op.inputs[..op.inputs.len().min(2)]
            .iter()
            .filter_map(|t| tensor(Some(t)))
            .filter_map(|t| {
                let x = &sub.tensors[t];
                let bytes = model.data(buf, x.buffer).len() as u64;
                let bytes = if bytes > 0 {
                    bytes
                } else {
                    elements(x.shape.as_deref())?.checked_mul(type_size(x.kind)?)?
                };
                Some((x.name.clone(), bytes))
            })
            .collect();
        ops.push(NpuOp {
            scope: k as u32 + 1,
            scratch,
            fast,
            constants,
        });
    }
    ops
}

fn tensor_error(i: usize, name: &str, msg: impl std::fmt::Display) -> Error {
    Error::whole(format!("tensor {i} ({name}): {msg}"))
}

/// The offline plan's offsets, one per tensor, as `GetOfflinePlannedOffsets` reads
/// them: `[version, subgraphs, tensor count, offset…]` as 32-bit words.
fn offline_plan(buf: &[u8], model: &Model, tensors: usize) -> Result<Option<Vec<i32>>> {
    let Some(meta) = model.metadata.iter().find(|m| m.name == OFFLINE_METADATA) else {
        return Ok(None);
    };
    if meta.buffer as usize >= model.buffers.len() {
        let msg = format!("{OFFLINE_METADATA}: buffer {} does not exist", meta.buffer);
        return Err(Error::whole(msg));
    }
    let words: Vec<i32> = model
        .data(buf, meta.buffer)
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let count = words.get(2).copied().unwrap_or(-1);
    if count < 0 || count as usize != tensors || words.len() < 3 + tensors {
        return Err(Error::whole(format!(
            "{OFFLINE_METADATA}: {} words for {count} offsets, the model has {tensors} tensors \
             (TFLM would refuse or read past it)",
            words.len()
        )));
    }
    Ok(Some(words[3..3 + tensors].to_vec()))
}

type Lifetimes = (
    Vec<Option<u32>>,
    Vec<Option<u32>>,
    Vec<(String, String)>,
    Vec<Alloc>,
    Vec<String>,
);

/// `MarkAllocationLifetimes` of subgraph 0, with the scratch buffers of each operator.
fn lifetimes(model: &Model, sub: &Subgraph) -> Result<Lifetimes> {
    let n = sub.tensors.len();
    let mut first = vec![None; n];
    let mut last = vec![None; n];
    let index = |t: i32, what: &str| -> Result<usize> {
        usize::try_from(t)
            .ok()
            .filter(|&t| t < n)
            .ok_or_else(|| Error::whole(format!("{what}: tensor {t} does not exist ({n} tensors)")))
    };
    for &t in &sub.inputs {
        let t = index(t, "subgraph input")?;
        first[t].get_or_insert(0);
        last[t] = Some(0);
    }
    let mut scopes = vec![("inputs".to_string(), "inputs".to_string())];
    let mut scratch = Vec::new();
    let mut unknown = Vec::new();
    for (k, op) in sub.operators.iter().enumerate() {
        let scope = k as u32 + 1;
        let code = model.opcodes.get(op.opcode as usize).ok_or_else(|| {
            Error::whole(format!(
                "operator {k}: operator code {} does not exist",
                op.opcode
            ))
        })?;
        let kind = if code.builtin == 32 {
            format!("CUSTOM {}", code.custom)
        } else {
            ops::name(code.builtin)
        };
        if matches!(code.builtin, 118 | 119 | 129) {
            return Err(Error::whole(format!(
                "operator {k} is {kind}, which runs other subgraphs: control flow is not \
                 supported (TFLM nests their allocation scopes)"
            )));
        }
        for &t in &op.intermediates {
            let t = index(t, &format!("operator {k} ({kind}) intermediate"))?;
            let x = &sub.tensors[t];
            if elements(x.shape.as_deref()) != Some(0) {
                return Err(tensor_error(
                    t,
                    &x.name,
                    "an intermediate tensor of non-zero size: TFLM does not support it",
                ));
            }
        }
        for &t in &op.outputs {
            let t = index(t, &format!("operator {k} ({kind}) output"))?;
            first[t].get_or_insert(scope);
        }
        for &t in &op.inputs {
            if t >= 0 {
                last[index(t, &format!("operator {k} ({kind}) input"))?] = Some(scope);
            }
        }
        for &t in &op.outputs {
            last[t as usize] = Some(scope);
        }
        let out_name = op
            .outputs
            .first()
            .map_or_else(String::new, |&t| sub.tensors[t as usize].name.clone());
        // Vela's operator asks TFLM for no scratch buffer: its areas are its inputs.
        let sizes = if code.builtin == 32 && code.custom == ETHOS_U {
            Some(Vec::new())
        } else {
            scratch_sizes(sub, op, code.builtin)
        };
        match sizes {
            Some(sizes) => {
                for size in sizes {
                    let i = scratch.len();
                    scratch.push(Alloc {
                        tensor: None,
                        name: format!("scratch {i} · {kind} {k}"),
                        size: size.div_ceil(ALIGNMENT) * ALIGNMENT,
                        first: scope,
                        last: scope,
                        offline: None,
                        shape: None,
                        dtype: None,
                    });
                }
            }
            None => unknown.push(format!("{kind} (operator {k})")),
        }
        scopes.push((kind, out_name));
    }
    let end = sub.operators.len() as u32;
    for &t in &sub.outputs {
        let t = index(t, "subgraph output")?;
        first[t].get_or_insert(end);
        last[t] = Some(end);
    }
    Ok((first, last, scopes, scratch, unknown))
}

/// The scratch buffers the reference kernel of `builtin` requests in `Prepare`, in
/// request order; `None` where it requests some of a size memplan does not model.
fn scratch_sizes(sub: &Subgraph, op: &Operator, builtin: i32) -> Option<Vec<u64>> {
    let tensor = |slot: Option<&i32>| {
        slot.and_then(|&t| usize::try_from(t).ok())
            .and_then(|t| sub.tensors.get(t))
    };
    let rank =
        |t: Option<&i32>| tensor(t).map_or(0, |x| x.shape.as_ref().map_or(0, Vec::len) as u64);
    let count = |t: Option<&i32>| {
        tensor(t)
            .and_then(|x| elements(x.shape.as_deref()))
            .unwrap_or(0)
    };
    let kind = |t: Option<&i32>| tensor(t).map_or(-1, |x| x.kind);
    let (input, axis, output) = (op.inputs.first(), op.inputs.get(1), op.outputs.first());
    Some(match builtin {
        // MEAN, SUM (reduce_common.cc, PrepareMeanOrSumHelper): an int32 accumulator
        // per output element for int8/int16, then the input's index and the axes.
        40 | 74 => {
            let mut v = Vec::new();
            if matches!(kind(input), INT8 | INT16) {
                v.push(4 * count(output));
            }
            v.extend([4 * rank(input), 4 * count(axis)]);
            v
        }
        // REDUCE_MAX, REDUCE_MIN, REDUCE_ALL: the input's index and the axes.
        82 | 89 | 140 => vec![4 * rank(input), 4 * count(axis)],
        // CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED: int4 weights unpacked to int8.
        3 | 4 | 9 if kind(axis) == INT4 => vec![count(axis)],
        // SVDF, CUSTOM (e.g. detection post-processing), UNIDIRECTIONAL_SEQUENCE_LSTM,
        // TRANSPOSE_CONV, MIRROR_PAD, ADD_N: sizes not modelled.
        27 | 32 | 44 | 67 | 100 | 106 => return None,
        _ => Vec::new(),
    })
}

/// `GreedyMemoryPlanner`'s offsets for `allocs` as the interpreter computes them:
/// offline-planned buffers first at their offsets, then the others by size descending
/// (a stable sort of the buffers in *reverse* order of adding: the planner fills its
/// list from the tail), each in the lowest gap between the placed buffers live with it.
pub fn greedy(allocs: &[Alloc]) -> Vec<u64> {
    let mut order: Vec<usize> = (0..allocs.len())
        .filter(|&i| allocs[i].offline.is_some())
        .collect();
    let mut online: Vec<usize> = (0..allocs.len())
        .rev()
        .filter(|&i| allocs[i].offline.is_none())
        .collect();
    online.sort_by(|&a, &b| allocs[b].size.cmp(&allocs[a].size));
    order.extend(online);
    let mut offsets = vec![0u64; allocs.len()];
    // Placed buffers by offset; equal offsets in placement order.
    let mut by_offset: Vec<usize> = Vec::with_capacity(allocs.len());
    for &i in &order {
        let a = &allocs[i];
        let at = match a.offline {
            Some(o) => o,
            None => {
                let mut candidate = 0u64;
                for &j in &by_offset {
                    let b = &allocs[j];
                    if b.first > a.last || a.first > b.last {
                        continue;
                    }
                    if offsets[j] >= candidate && offsets[j] - candidate >= a.size {
                        break;
                    }
                    candidate = candidate.max(offsets[j] + b.size);
                }
                candidate
            }
        };
        offsets[i] = at;
        let pos = by_offset.partition_point(|&j| offsets[j] <= at);
        by_offset.insert(pos, i);
    }
    offsets
}

/// The head TFLM reports for a placement: the end of its highest buffer.
pub fn head(allocs: &[Alloc], offsets: &[u64]) -> u64 {
    allocs
        .iter()
        .zip(offsets)
        .map(|(a, &o)| o + a.size)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::tflite::schema::{Opcode, Tensor};

    fn tensor(name: &str) -> Tensor {
        Tensor {
            shape: Some(vec![1, 4]),
            kind: 9,
            buffer: 0,
            name: name.into(),
            is_variable: false,
        }
    }

    fn model(builtin: i32, subgraphs: usize) -> Model {
        let sub = Subgraph {
            tensors: vec![tensor("x"), tensor("y")],
            inputs: vec![0],
            outputs: vec![1],
            operators: vec![Operator {
                opcode: 0,
                inputs: vec![0],
                outputs: vec![1],
                intermediates: vec![],
            }],
        };
        Model {
            subgraphs: vec![sub; subgraphs],
            opcodes: vec![Opcode {
                builtin,
                custom: String::new(),
            }],
            buffers: vec![],
            metadata: vec![],
            root: 0,
        }
    }

    #[test]
    fn unsupported_models_are_named() {
        let e = arena(&[], &model(119, 1)).unwrap_err();
        assert!(
            e.message.contains("WHILE") && e.message.contains("control flow"),
            "{e}"
        );
        let e = arena(&[], &model(0, 2)).unwrap_err();
        assert!(e.message.contains("2 subgraphs"), "{e}");
        let a = arena(&[], &model(106, 1)).unwrap();
        assert_eq!(a.unknown_scratch, ["ADD_N (operator 0)"]);
        let a = arena(&[], &model(0, 1)).unwrap();
        assert_eq!(a.allocs.len(), 2);
        assert_eq!(
            (a.allocs[1].first, a.allocs[1].last, a.allocs[1].size),
            (1, 1, 16)
        );
    }

    /// Without an offline plan, the port places as TFLM's greedy rule: size
    /// descending, ties in reverse order of adding, first fit.
    #[test]
    fn ties_go_to_the_buffer_added_last() {
        let alloc = |size, first, last| Alloc {
            tensor: None,
            name: String::new(),
            size,
            first,
            last,
            offline: None,
            shape: None,
            dtype: None,
        };
        let allocs = [alloc(16, 0, 1), alloc(16, 1, 2), alloc(32, 3, 3)];
        assert_eq!(greedy(&allocs), [16, 0, 0]);
        let mut fixed = allocs.clone();
        fixed[0].offline = Some(64);
        assert_eq!(greedy(&fixed), [64, 0, 0]);
    }
}
