//! An ONNX graph read as aidge_onnx 0.10.1 reads it: names translated to Aidge's
//! convention, initializers that no node reads dropped, and every value's dims
//! inferred from the graph inputs' (fixed) dims, node by node in file order.

use super::proto::{AttributeProto, GraphProto, NodeProto, TensorProto, ValueInfoProto};
use std::collections::HashMap;

/// A node's attributes by name.
pub struct Attrs<'a>(pub &'a [AttributeProto]);

impl<'a> Attrs<'a> {
    pub fn get(&self, name: &str) -> Option<&'a AttributeProto> {
        self.0.iter().find(|a| a.name.as_deref() == Some(name))
    }

    pub fn int(&self, name: &str, default: i64) -> i64 {
        self.get(name).and_then(|a| a.i).unwrap_or(default)
    }

    pub fn float(&self, name: &str, default: f32) -> f32 {
        self.get(name).and_then(|a| a.f).unwrap_or(default)
    }

    pub fn ints(&self, name: &str) -> Option<&'a [i64]> {
        self.get(name).map(|a| a.ints.as_slice())
    }

    pub fn string(&self, name: &str) -> Option<String> {
        self.get(name)
            .and_then(|a| a.s.as_ref())
            .map(|s| String::from_utf8_lossy(s).into_owned())
    }

    pub fn tensor(&self, name: &str) -> Option<&'a TensorProto> {
        self.get(name).and_then(|a| a.t.as_ref())
    }
}

/// A value of the graph (a graph input, an initializer or a node output).
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub dims: Vec<u64>,
    /// The integer contents of a constant, when small and integral (Reshape's shape).
    pub values: Option<Vec<i64>>,
    /// The contents of a small float constant (Resize's scales).
    pub floats: Option<Vec<f32>>,
    /// Bytes per element of a constant's ONNX type (QuantizeLinear's output takes its
    /// zero point's); 4 for computed values.
    pub element_bytes: u64,
    /// Whether `values` were folded through an operator Aidge 0.10.1 does not run
    /// before sizing the graph (Mod, or a Reshape or Transpose of small integer
    /// tensors), or from such values: its forward_dims cannot know them, so a node
    /// sized by them is sized by ONNX's rules ("from the model").
    pub folded: bool,
}

/// aidge_onnx's `onnx_to_aidge_name`: `/`, `.` and `:` become `_`, one leading `_`
/// goes, and a leading digit gets `data_`.
pub fn aidge_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if matches!(c, '/' | '.' | ':') { '_' } else { c })
        .collect();
    if s.starts_with('_') {
        s.remove(0);
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "data_");
    }
    s
}

/// A node's Aidge name as `onnx_to_aidge_model_names` then the converters give it:
/// the translated node name (`layer_` before one that started with a digit), else
/// the translated name of its first output.
pub fn node_name(node: &NodeProto) -> String {
    match node.name.as_deref() {
        Some(n) if !n.is_empty() => {
            let t = aidge_name(n);
            if n.starts_with(|c: char| c.is_ascii_digit()) {
                format!("layer_{t}")
            } else {
                t
            }
        }
        _ => node
            .output
            .first()
            .map(|o| aidge_name(o))
            .unwrap_or_default(),
    }
}

/// Dims of a tensor given by its proto (negative dims are refused by the caller).
pub fn tensor_dims(t: &TensorProto) -> Option<Vec<u64>> {
    t.dims.iter().map(|&d| u64::try_from(d).ok()).collect()
}

/// Bytes per element of an ONNX element type as Aidge stores it: bool, (u)int8, (u)int4
/// → 1; (b)float16, (u)int16 → 2; 64-bit → 8; else 4.
pub fn element_bytes(elem_type: i32) -> u64 {
    match elem_type {
        2 | 3 | 9 | 21 | 22 => 1,
        4 | 5 | 10 | 16 => 2,
        7 | 11 | 13 => 8,
        _ => 4,
    }
}

/// aidge_core's name of an ONNX elem_type (as its registrar keys print it).
pub fn dtype_name(elem_type: i32) -> &'static str {
    match elem_type {
        2 => "uint8",
        3 => "int8",
        4 => "uint16",
        5 => "int16",
        6 => "int32",
        7 => "int64",
        9 => "boolean",
        10 => "float16",
        11 => "float64",
        12 => "uint32",
        13 => "uint64",
        _ => "float32",
    }
}

/// Integer contents of a small integer tensor (INT64 = 7, INT32 = 6), raw or typed.
pub fn tensor_ints(t: &TensorProto) -> Option<Vec<i64>> {
    const MAX: usize = 64;
    match t.data_type {
        Some(7) => {
            if let Some(raw) = &t.raw_data {
                if raw.len() % 8 != 0 || raw.len() > MAX * 8 {
                    return None;
                }
                return Some(
                    raw.chunks_exact(8)
                        .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                        .collect(),
                );
            }
            (t.int64_data.len() <= MAX).then(|| t.int64_data.clone())
        }
        Some(6) => {
            if let Some(raw) = &t.raw_data {
                if raw.len() % 4 != 0 || raw.len() > MAX * 4 {
                    return None;
                }
                return Some(
                    raw.chunks_exact(4)
                        .map(|c| i32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as i64)
                        .collect(),
                );
            }
            (t.int32_data.len() <= MAX).then(|| t.int32_data.iter().map(|&v| v as i64).collect())
        }
        _ => None,
    }
}

/// Contents of a small FLOAT (1) tensor, raw or typed.
pub fn tensor_floats(t: &TensorProto) -> Option<Vec<f32>> {
    const MAX: usize = 64;
    if t.data_type != Some(1) {
        return None;
    }
    if let Some(raw) = &t.raw_data {
        if raw.len() % 4 != 0 || raw.len() > MAX * 4 {
            return None;
        }
        return Some(
            raw.chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
                .collect(),
        );
    }
    (t.float_data.len() <= MAX).then(|| t.float_data.clone())
}

/// Where a value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Def {
    /// Graph input `i` (of the inputs that are not initializers).
    Input(usize),
    /// Initializer `i` of the graph.
    Init(usize),
    /// Output `o` of node `n` (index in the graph's node list).
    Node(usize, usize),
}

/// Names of the values each node reads, with where each is defined; `None` for an
/// omitted optional input (empty name).
pub fn uses(graph: &GraphProto) -> Result<Vec<Vec<Option<Def>>>, String> {
    let inits: HashMap<&str, usize> = graph
        .initializer
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.name.as_deref().map(|n| (n, i)))
        .collect();
    let mut defs: HashMap<String, Def> = HashMap::new();
    for (i, v) in data_inputs(graph).into_iter().enumerate() {
        defs.insert(v.name.clone().unwrap_or_default(), Def::Input(i));
    }
    // Initializers take priority over inputs of the same name.
    for (name, &i) in &inits {
        defs.insert(name.to_string(), Def::Init(i));
    }
    let mut out = Vec::with_capacity(graph.node.len());
    for (n, node) in graph.node.iter().enumerate() {
        let mut row = Vec::with_capacity(node.input.len());
        for name in &node.input {
            if name.is_empty() {
                row.push(None);
                continue;
            }
            let def = defs.get(name).copied().ok_or_else(|| {
                format!(
                    "node '{}' ({}) reads '{name}', which no earlier node, initializer or graph \
                     input defines (nodes must be in topological order)",
                    node.name.as_deref().unwrap_or(""),
                    node.op_type.as_deref().unwrap_or("")
                )
            })?;
            row.push(Some(def));
        }
        for (o, name) in node.output.iter().enumerate() {
            if !name.is_empty() {
                defs.insert(name.clone(), Def::Node(n, o));
            }
        }
        out.push(row);
    }
    Ok(out)
}

/// The graph inputs that are not initializers (older exporters list weights as inputs).
pub fn data_inputs(graph: &GraphProto) -> Vec<&ValueInfoProto> {
    let inits: std::collections::HashSet<&str> = graph
        .initializer
        .iter()
        .filter_map(|t| t.name.as_deref())
        .collect();
    graph
        .input
        .iter()
        .filter(|v| !inits.contains(v.name.as_deref().unwrap_or("")))
        .collect()
}
