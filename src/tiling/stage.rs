//! The stages of a graph that can run patch by patch: from the graph input, in
//! topological order, every node tileable on the NCHW spatial axes, up to a cut
//! tensor (the one tensor of the stage read after it).

use super::region::Window;
use crate::formats::onnx::graph::{data_inputs, Attrs};
use crate::formats::onnx::proto::{GraphProto, NodeProto};
use crate::{Error, Result};
use std::collections::{HashMap, HashSet};

/// Which sliding window a node computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowOp {
    Conv,
    MaxPool,
    AveragePool,
}

/// How a stage node maps its inputs' regions to its output's.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A window on H and W (index 0 = H, 1 = W).
    Window(WindowOp, [Window; 2]),
    /// Each output pixel reads the same pixel of its inputs (element-wise ops,
    /// BatchNormalization, Quantize/DequantizeLinear, Concat on channels).
    Pointwise,
}

/// A node of a stage.
#[derive(Debug, Clone)]
pub struct StageNode {
    /// Index in the graph's node list.
    pub index: usize,
    pub kind: Kind,
    /// The input slots that read stage tensors (or the graph input).
    pub data_inputs: Vec<usize>,
    pub output: String,
    /// N, C, H, W of the output.
    pub dims: [i64; 4],
}

/// The graph as the tiling reads it.
pub struct Graph {
    pub proto: GraphProto,
    /// The graph's one data input and its dims.
    pub input: String,
    pub input_dims: [i64; 4],
    /// Node indices of the nodes that read no data (Constant nodes, weights'
    /// DequantizeLinear): left in place, read by every patch.
    pub constant_nodes: HashSet<usize>,
    /// The dims of constant tensors, where known.
    pub const_dims: HashMap<String, Vec<i64>>,
    pub constants: HashSet<String>,
    pub consumers: HashMap<String, Vec<usize>>,
    pub graph_outputs: HashSet<String>,
}

/// A stage that ends at `cut`: its nodes, in order.
#[derive(Debug, Clone)]
pub struct Stage {
    pub nodes: Vec<StageNode>,
    pub cut: String,
}

/// Every stage from the graph input (one per cut, shortest first), and what ended the
/// walk (the node that cannot be tiled, with why), `None` when the graph ended.
pub struct Stages {
    pub stages: Vec<Stage>,
    pub ended_by: Option<String>,
}

fn node_label(node: &NodeProto, index: usize) -> String {
    let op = node.op_type.as_deref().unwrap_or("?");
    match node.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("{op} '{name}'"),
        None => format!("{op} (node {index})"),
    }
}

/// The name a node's copies derive from: its own, else `op_index`.
pub fn node_name(node: &NodeProto, index: usize) -> String {
    match node.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => name.to_string(),
        None => format!("{}_{index}", node.op_type.as_deref().unwrap_or("node")),
    }
}

impl Graph {
    pub fn read(bytes: &[u8], dims: &[(String, u64)]) -> Result<Graph> {
        let proto = crate::formats::onnx::decode(bytes)?;
        let inputs = data_inputs(&proto);
        if inputs.len() != 1 {
            return Err(Error::whole(format!(
                "the model has {} data inputs; tiling needs one image input (N, C, H, W)",
                inputs.len()
            )));
        }
        let v = inputs[0];
        let input = v.name.clone().unwrap_or_default();
        let shape = v
            .r#type
            .as_ref()
            .and_then(|t| t.tensor_type.as_ref())
            .and_then(|t| t.shape.as_ref())
            .map(|s| s.dim.clone())
            .unwrap_or_default();
        if shape.len() != 4 {
            return Err(Error::whole(format!(
                "the graph input '{input}' has {} dims; tiling needs N, C, H, W",
                shape.len()
            )));
        }
        let mut input_dims = [0i64; 4];
        for (axis, d) in shape.iter().enumerate() {
            input_dims[axis] = match d.dim_value {
                Some(x) if x > 0 => x,
                _ => {
                    let key = d
                        .dim_param
                        .clone()
                        .filter(|p| !p.is_empty())
                        .unwrap_or_else(|| format!("{input}[{axis}]"));
                    dims.iter()
                        .find(|(k, _)| *k == key)
                        .map_or(1, |(_, v)| *v as i64)
                }
            };
        }
        let mut constants: HashSet<String> = proto
            .initializer
            .iter()
            .filter_map(|t| t.name.clone())
            .collect();
        let mut const_dims: HashMap<String, Vec<i64>> = proto
            .initializer
            .iter()
            .filter_map(|t| Some((t.name.clone()?, t.dims.clone())))
            .collect();
        let mut constant_nodes = HashSet::new();
        let mut consumers: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, node) in proto.node.iter().enumerate() {
            for name in node.input.iter().filter(|n| !n.is_empty()) {
                consumers.entry(name.clone()).or_default().push(i);
            }
            let reads_data = node
                .input
                .iter()
                .any(|n| !n.is_empty() && !constants.contains(n));
            if !reads_data {
                constant_nodes.insert(i);
                let op = node.op_type.as_deref().unwrap_or("");
                let dims = if op == "Constant" {
                    Attrs(&node.attribute)
                        .tensor("value")
                        .map(|t| t.dims.clone())
                } else if matches!(
                    op,
                    "DequantizeLinear" | "QuantizeLinear" | "Identity" | "Cast"
                ) {
                    node.input.first().and_then(|n| const_dims.get(n)).cloned()
                } else {
                    None
                };
                for out in node.output.iter().filter(|n| !n.is_empty()) {
                    constants.insert(out.clone());
                    if let Some(d) = &dims {
                        const_dims.insert(out.clone(), d.clone());
                    }
                }
            }
        }
        let graph_outputs = proto.output.iter().filter_map(|o| o.name.clone()).collect();
        Ok(Graph {
            proto,
            input,
            input_dims,
            constant_nodes,
            const_dims,
            constants,
            consumers,
            graph_outputs,
        })
    }

    /// Every stage from the graph input: the nodes in topological order while they
    /// are tileable, a stage at each point where one tensor alone is read later.
    pub fn stages(&self) -> Stages {
        let mut shapes: HashMap<String, [i64; 4]> = HashMap::new();
        shapes.insert(self.input.clone(), self.input_dims);
        let mut nodes: Vec<StageNode> = Vec::new();
        let mut in_stage: HashSet<usize> = HashSet::new();
        let mut stages = Vec::new();
        let mut ended_by = None;
        for (i, node) in self.proto.node.iter().enumerate() {
            if self.constant_nodes.contains(&i) {
                continue;
            }
            match self.classify(node, &shapes) {
                Ok(s) => {
                    shapes.insert(s.output.clone(), s.dims);
                    in_stage.insert(i);
                    nodes.push(StageNode { index: i, ..s });
                }
                Err(why) => {
                    ended_by = Some(format!("{}: {why}", node_label(node, i)));
                    break;
                }
            }
            // The stage tensors read after this node (or graph outputs).
            let read_after: Vec<&String> = nodes
                .iter()
                .map(|n| &n.output)
                .filter(|t| {
                    self.graph_outputs.contains(*t)
                        || self
                            .consumers
                            .get(*t)
                            .is_some_and(|c| c.iter().any(|n| !in_stage.contains(n)))
                })
                .collect();
            let last = &nodes[nodes.len() - 1].output;
            if read_after.len() == 1 && read_after[0] == last {
                stages.push(Stage {
                    nodes: nodes.clone(),
                    cut: last.clone(),
                });
            }
        }
        Stages { stages, ended_by }
    }

    /// How `node` tiles, or why it does not.
    fn classify(
        &self,
        node: &NodeProto,
        shapes: &HashMap<String, [i64; 4]>,
    ) -> std::result::Result<StageNode, String> {
        let op = node.op_type.as_deref().unwrap_or("");
        if !matches!(node.domain.as_deref(), None | Some("") | Some("ai.onnx")) {
            return Err(format!(
                "operator of domain '{}'",
                node.domain.as_deref().unwrap_or("")
            ));
        }
        let outputs: Vec<&String> = node.output.iter().filter(|o| !o.is_empty()).collect();
        let output = match outputs.as_slice() {
            [o] if node.output[0] == **o => (*o).clone(),
            _ => return Err("it has more than one output".into()),
        };
        let attrs = Attrs(&node.attribute);
        let data_inputs: Vec<usize> = node
            .input
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.is_empty() && !self.constants.contains(*n))
            .map(|(i, _)| i)
            .collect();
        let mut in_dims = Vec::new();
        for &i in &data_inputs {
            let name = &node.input[i];
            match shapes.get(name) {
                Some(d) => in_dims.push(*d),
                None => return Err(format!("it reads '{name}', computed outside the stage")),
            }
        }
        let first = *in_dims.first().ok_or("it reads no data")?;
        match op {
            "Conv" | "MaxPool" | "AveragePool" => self.window(node, op, data_inputs, output, first),
            "Concat" => {
                let axis = attrs.int("axis", 0);
                if axis != 1 && axis != -3 {
                    return Err(format!("concatenation on axis {axis}, not channels"));
                }
                if data_inputs.len() != node.input.len() {
                    return Err("it concatenates constants".into());
                }
                if in_dims
                    .iter()
                    .any(|d| d[0] != first[0] || d[2..] != first[2..])
                {
                    return Err("its inputs differ in N, H or W".into());
                }
                let channels = in_dims.iter().map(|d| d[1]).sum();
                Ok(StageNode {
                    index: 0,
                    kind: Kind::Pointwise,
                    data_inputs,
                    output,
                    dims: [first[0], channels, first[2], first[3]],
                })
            }
            _ if POINTWISE.contains(&op) => {
                if in_dims.iter().any(|d| *d != first) {
                    return Err("its data inputs differ in shape".into());
                }
                let per_channel = matches!(
                    op,
                    "BatchNormalization" | "QuantizeLinear" | "DequantizeLinear" | "Clip"
                );
                if matches!(op, "QuantizeLinear" | "DequantizeLinear") {
                    let axis = attrs.int("axis", 1);
                    if axis != 1 && axis != -3 {
                        return Err(format!("quantized along axis {axis}"));
                    }
                }
                if op == "BatchNormalization" && attrs.int("training_mode", 0) != 0 {
                    return Err("training_mode".into());
                }
                for (i, name) in node.input.iter().enumerate() {
                    if name.is_empty() || data_inputs.contains(&i) || per_channel {
                        continue;
                    }
                    // A constant operand broadcast along H or W would differ per patch.
                    match self.const_dims.get(name) {
                        Some(d) if d.len() <= 4 && d.iter().rev().take(2).all(|&x| x == 1) => {}
                        Some(d) => {
                            return Err(format!("its constant operand '{name}' has dims {d:?}"))
                        }
                        None => {
                            return Err(format!("the shape of its operand '{name}' is unknown"))
                        }
                    }
                }
                Ok(StageNode {
                    index: 0,
                    kind: Kind::Pointwise,
                    data_inputs,
                    output,
                    dims: first,
                })
            }
            _ => Err("not tileable on H and W".into()),
        }
    }

    /// A Conv or pooling node: its windows on H and W with explicit pads.
    fn window(
        &self,
        node: &NodeProto,
        op: &str,
        data_inputs: Vec<usize>,
        output: String,
        first: [i64; 4],
    ) -> std::result::Result<StageNode, String> {
        let attrs = Attrs(&node.attribute);
        if data_inputs != [0] {
            return Err("its weights are computed from the data".into());
        }
        let w_dims = if op == "Conv" {
            let w = node.input.get(1).and_then(|n| self.const_dims.get(n));
            match w {
                Some(d) if d.len() == 4 => Some(d.clone()),
                _ => return Err("its weight is not a known 4-D constant".into()),
            }
        } else {
            None
        };
        let kernel: Vec<i64> = match (attrs.ints("kernel_shape"), &w_dims) {
            (Some(k), _) => k.to_vec(),
            (None, Some(w)) => w[2..].to_vec(),
            _ => return Err("it has no kernel_shape".into()),
        };
        if kernel.len() != 2 {
            return Err("it is not a 2-D window".into());
        }
        let ints = |name: &str| attrs.ints(name).map(|v| v.to_vec());
        let strides = ints("strides").unwrap_or_else(|| vec![1, 1]);
        let dilations = ints("dilations").unwrap_or_else(|| vec![1, 1]);
        if strides.len() != 2 || dilations.len() != 2 {
            return Err("its strides or dilations are not 2-D".into());
        }
        let ceil = attrs.int("ceil_mode", 0) != 0;
        let hw = [first[2], first[3]];
        let auto_pad = attrs.string("auto_pad").unwrap_or_default();
        let pads: Vec<i64> = match auto_pad.as_str() {
            "" | "NOTSET" => ints("pads").unwrap_or_else(|| vec![0; 4]),
            "VALID" => vec![0; 4],
            "SAME_UPPER" | "SAME_LOWER" => {
                let mut p = vec![0; 4];
                for a in 0..2 {
                    let out = (hw[a] + strides[a] - 1) / strides[a];
                    let total = ((out - 1) * strides[a] + dilations[a] * (kernel[a] - 1) + 1
                        - hw[a])
                        .max(0);
                    let small = total / 2;
                    let (b, e) = if auto_pad == "SAME_UPPER" {
                        (small, total - small)
                    } else {
                        (total - small, small)
                    };
                    p[a] = b;
                    p[a + 2] = e;
                }
                p
            }
            other => return Err(format!("auto_pad {other}")),
        };
        if pads.len() != 4 || pads.iter().any(|&p| p < 0) {
            return Err("its pads are not 4 non-negative values".into());
        }
        if kernel
            .iter()
            .chain(&strides)
            .chain(&dilations)
            .any(|&x| x < 1)
        {
            return Err("a kernel, stride or dilation below 1".into());
        }
        let win = |a: usize| Window {
            kernel: kernel[a],
            stride: strides[a],
            dilation: dilations[a],
            pad_begin: pads[a],
            pad_end: pads[a + 2],
        };
        let w = [win(0), win(1)];
        let mut out_hw = [0; 2];
        for a in 0..2 {
            let floor = w[a].output(hw[a], false);
            let size = w[a].output(hw[a], ceil);
            if size != floor {
                // ceil_mode's last window: exact with −inf padding (MaxPool)
                // while it starts inside the input or its begin padding;
                // AveragePool's divisor there differs between runtimes.
                if op != "MaxPool" || (size - 1) * w[a].stride >= hw[a] + w[a].pad_begin {
                    return Err("ceil_mode adds a window memplan cannot make exact".into());
                }
            }
            if size < 1 {
                return Err("its output is empty".into());
            }
            out_hw[a] = size;
        }
        let wop = match op {
            "Conv" => WindowOp::Conv,
            "MaxPool" => WindowOp::MaxPool,
            _ => {
                if attrs.int("count_include_pad", 0) != 0 && pads.iter().any(|&p| p > 0) {
                    return Err("count_include_pad with pads".into());
                }
                WindowOp::AveragePool
            }
        };
        if wop == WindowOp::MaxPool && attrs.int("storage_order", 0) != 0 {
            return Err("storage_order 1".into());
        }
        let channels = w_dims.map_or(first[1], |w| w[0]);
        Ok(StageNode {
            index: 0,
            kind: Kind::Window(wop, w),
            data_inputs,
            output,
            dims: [first[0], channels, out_hw[0], out_hw[1]],
        })
    }
}

/// Operators whose output pixel reads only the same pixel of their inputs, with
/// constants that are per-tensor or per-channel.
const POINTWISE: &[&str] = &[
    "Relu",
    "LeakyRelu",
    "PRelu",
    "Clip",
    "Sigmoid",
    "HardSigmoid",
    "HardSwish",
    "Tanh",
    "Elu",
    "Selu",
    "Celu",
    "Softplus",
    "Softsign",
    "Mish",
    "Gelu",
    "Erf",
    "Neg",
    "Abs",
    "Exp",
    "Sqrt",
    "Reciprocal",
    "Identity",
    "Cast",
    "Dropout",
    "BatchNormalization",
    "QuantizeLinear",
    "DequantizeLinear",
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Max",
    "Min",
];
