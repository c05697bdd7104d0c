//! What each known ONNX operator becomes in Aidge 0.10.1 (aidge_onnx's converters and
//! aidge_backend_cpu's kernels): the Aidge type, which ONNX inputs are data inputs
//! (Aidge's `InputCategory::Data`) and which are parameters, the shapes of the
//! outputs, and how much of each data input the kernel protects (`getNbRequiredProtected`:
//! 0 for the kernels registered with Aidge's in-place model, the whole input for the
//! others, the padding for the Pad inside padded meta-operators). Every row is checked
//! against the real wheels by tests/parity/onnx_diff.py; an operator without a row is
//! refused, never guessed.

use super::aidge_op::op;
pub use super::aidge_op::{elements, AidgeOp, Category, Naming, OpResult, Protect};
use super::graph::{Attrs, Value};
use super::{graph, window};

mod compute;
pub(crate) use compute::matmul;
mod elementwise;
mod index;
mod layout;

/// Every ONNX operator memplan converts, with the Aidge node type aidge_onnx 0.10.1
/// makes of it: the one list of them (docs/formats.md's list is checked against it by
/// tests/onnx.rs). Where the type depends on attributes, the usual one is given.
pub const OPS: &[(&str, &str)] = &[
    ("Abs", "Abs"),
    ("Add", "Add"),
    ("And", "And"),
    ("ArgMax", "ArgMax"),
    ("Asin", "Asin"),
    ("Atan", "Atan"),
    ("AveragePool", "AvgPooling2D"),
    ("BatchNormalization", "BatchNorm2D"),
    ("BitShift", "GenericOperator"),
    ("Cast", "Cast"),
    ("Ceil", "Ceil"),
    ("Clip", "Clip"),
    ("Concat", "Concat"),
    ("ConstantOfShape", "ConstantOfShape"),
    ("Conv", "Conv2D"),
    ("ConvTranspose", "ConvTranspose2D"),
    ("Cos", "Cos"),
    ("Cosh", "Cosh"),
    ("DepthToSpace", "DepthToSpace"),
    ("DequantizeLinear", "Dequantizer"),
    ("Div", "Div"),
    ("Dropout", "Dropout"),
    ("Equal", "Equal"),
    ("Erf", "Erf"),
    ("Exp", "Exp"),
    ("Expand", "Expand"),
    ("Flatten", "Flatten"),
    ("Floor", "Floor"),
    ("Gather", "Gather"),
    ("GatherElements", "GatherElements"),
    ("GatherND", "GatherND"),
    ("Gemm", "FC"),
    ("GlobalAveragePool", "GlobalAveragePooling"),
    ("Greater", "Greater"),
    ("GreaterOrEqual", "GreaterOrEqual"),
    ("GridSample", "GridSample"),
    ("GRU", "GRU_ONNX"),
    ("Hardmax", "Hardmax"),
    ("HardSigmoid", "HardSigmoid"),
    ("HardSwish", "HardSwish"),
    ("Identity", "Identity"),
    ("InstanceNormalization", "InstanceNorm"),
    ("LayerNormalization", "LayerNorm"),
    ("LeakyRelu", "LeakyReLU"),
    ("Less", "Less"),
    ("LessOrEqual", "LessOrEqual"),
    ("Log", "Ln"),
    ("LogSoftmax", "LogSoftmax"),
    ("LRN", "LRN"),
    ("LSTM", "LSTM_ONNX"),
    ("MatMul", "MatMul"),
    ("Max", "Max"),
    ("MaxPool", "MaxPooling2D"),
    ("Min", "Min"),
    ("Mod", "Mod"),
    ("Mul", "Mul"),
    ("Neg", "Neg"),
    ("Not", "Not"),
    ("OneHot", "OneHot"),
    ("Pad", "Pad"),
    ("Pow", "Pow"),
    ("QuantizeLinear", "Quantizer"),
    ("Range", "Range"),
    ("Reciprocal", "Reciprocal"),
    ("ReduceL1", "ReduceL1"),
    ("ReduceL2", "ReduceL2"),
    ("ReduceMax", "ReduceMax"),
    ("ReduceMean", "ReduceMean"),
    ("ReduceMin", "ReduceMin"),
    ("ReduceSum", "ReduceSum"),
    ("Relu", "ReLU"),
    ("Reshape", "Reshape"),
    ("Resize", "Resize"),
    ("Round", "Round"),
    ("ScatterElements", "Scatter"),
    ("Shape", "Shape"),
    ("Sigmoid", "Sigmoid"),
    ("Sin", "Sin"),
    ("Sinh", "Sinh"),
    ("Size", "Size"),
    ("Slice", "Slice"),
    ("Softmax", "Softmax"),
    ("Softplus", "Softplus"),
    ("Split", "Split"),
    ("Sqrt", "Sqrt"),
    ("Squeeze", "Squeeze"),
    ("Sub", "Sub"),
    ("Sum", "Sum"),
    ("Tan", "Tan"),
    ("Tanh", "Tanh"),
    ("Tile", "Tile"),
    ("TopK", "TopK"),
    ("Transpose", "Transpose"),
    ("Trilu", "Trilu"),
    ("Unsqueeze", "Unsqueeze"),
    ("Where", "Where"),
];

/// ONNX operators aidge_onnx 0.10.1 imports as a GenericOperator whose output has,
/// by ONNX's shape rules, its first input's shape: opened as generic nodes sized so,
/// even when the file gives no shape.
pub const SAME_SHAPE_GENERIC: &[&str] = &[
    "CumSum",
    "Elu",
    "Mish",
    "PRelu",
    "ScatterND",
    "Selu",
    "Shrink",
    "Softsign",
    "ThresholdedRelu",
];

/// Whose shape rules a converter follows where Aidge 0.10.1's differ from ONNX's
/// (Slice's out-of-range bounds): Aidge's, or ONNX's for a model Aidge's cannot size
/// (the nodes where they differ are then marked as sized from the model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    Aidge,
    Onnx,
}

/// ONNX operators aidge_onnx 0.10.1 imports as a GenericOperator that memplan sizes by
/// ONNX's shape rule for them (every input read whole and protected, as Aidge's default
/// model does), marked as sized from the model.
pub const RULE_GENERIC: &[&str] = &["Einsum"];

/// Whether memplan converts this ONNX operator type.
pub fn known(op_type: &str) -> bool {
    OPS.iter().any(|(o, _)| *o == op_type) || RULE_GENERIC.contains(&op_type)
}

/// The Aidge type of an operator of [`OPS`] whose kernel computes in place and whose
/// output has its first input's shape (aidge_backend_cpu registers these kernels with
/// the in-place model).
fn elementwise_unary(op_type: &str) -> Option<&'static str> {
    let kind = OPS.iter().find(|(o, _)| *o == op_type)?.1;
    matches!(
        op_type,
        "Abs"
            | "Asin"
            | "Atan"
            | "Ceil"
            | "Cos"
            | "Cosh"
            | "Erf"
            | "Exp"
            | "Floor"
            | "HardSigmoid"
            | "HardSwish"
            | "LeakyRelu"
            | "Log"
            | "LogSoftmax"
            | "LRN"
            | "Neg"
            | "Not"
            | "Reciprocal"
            | "Relu"
            | "Round"
            | "Sigmoid"
            | "Sin"
            | "Sinh"
            | "Softmax"
            | "Softplus"
            | "Sqrt"
            | "Tan"
            | "Tanh"
    )
    .then_some(kind)
}

/// One node being converted: its operator, attributes and input values (`None` for an
/// omitted optional input), the number of its outputs, and whose shape rules apply.
pub struct Node<'a> {
    pub op_type: &'a str,
    pub attrs: &'a Attrs<'a>,
    pub inputs: &'a [Option<&'a Value>],
    pub outputs: usize,
    pub rules: Rules,
}

impl<'a> Node<'a> {
    /// Its first input, which every operator here needs.
    fn x(&self) -> std::result::Result<&'a Value, String> {
        self.inputs
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| "its first input is missing".to_string())
    }

    /// Its `i`-th input, if present.
    fn input(&self, i: usize) -> Option<&'a Value> {
        self.inputs.get(i).copied().flatten()
    }
}

/// Converts one node whose input values are known (`None` for an omitted optional input):
/// each operator family (a submodule) converts its own operators, one short function
/// each; an operator of none is refused.
pub fn convert(
    op_type: &str,
    attrs: &Attrs,
    inputs: &[Option<&Value>],
    outputs: usize,
    rules: Rules,
) -> OpResult {
    let n = Node {
        op_type,
        attrs,
        inputs,
        outputs,
        rules,
    };
    if let Some(kind) = elementwise_unary(op_type) {
        let mut o = unary(kind, n.x()?, Naming::Node)?;
        if op_type == "Not" {
            // Its output stays boolean (1 byte) when the graph is set to float32.
            o.outputs[0].1 = 1;
        }
        return Ok(o);
    }
    elementwise::convert(&n)
        .or_else(|| compute::convert(&n))
        .or_else(|| layout::convert(&n))
        .or_else(|| index::convert(&n))
        .unwrap_or_else(|| Err(unknown()))
}

/// The message for an operator without a row here.
pub fn unknown() -> String {
    format!(
        "memplan does not know this operator (known: {}, Constant); the rest of the graph \
         is not guessed",
        OPS.iter().map(|(o, _)| *o).collect::<Vec<_>>().join(", ")
    )
}

fn unary(kind: &str, x: &Value, naming: Naming) -> OpResult {
    Ok(AidgeOp {
        naming,
        ..op(
            kind,
            vec![Category::Data],
            vec![Protect::None],
            x.dims.clone(),
        )
    })
}

fn two<'a>(inputs: &[Option<&'a Value>]) -> std::result::Result<(&'a Value, &'a Value), String> {
    match inputs {
        [Some(a), Some(b)] => Ok((a, b)),
        _ => Err("expected two inputs".into()),
    }
}

fn rank4(x: &Value) -> std::result::Result<&[u64], String> {
    if x.dims.len() == 4 {
        Ok(&x.dims)
    } else {
        Err(format!(
            "only 2-D (rank-4 NCHW) inputs are supported, its input has dims {:?}",
            x.dims
        ))
    }
}

/// A possibly negative axis of a rank-`rank` tensor.
fn axis(a: i64, rank: usize) -> std::result::Result<usize, String> {
    let r = rank as i64;
    let a2 = if a < 0 { a + r } else { a };
    if (0..r).contains(&a2) {
        Ok(a2 as usize)
    } else {
        Err(format!("axis {a} is out of range for rank {rank}"))
    }
}

/// Numpy broadcasting of two shapes.
fn broadcast(a: &[u64], b: &[u64]) -> std::result::Result<Vec<u64>, String> {
    let n = a.len().max(b.len());
    let at = |d: &[u64], i: usize| {
        if i + d.len() >= n {
            d[i + d.len() - n]
        } else {
            1
        }
    };
    (0..n)
        .map(|i| match (at(a, i), at(b, i)) {
            (x, y) if x == y || y == 1 => Ok(x),
            (1, y) => Ok(y),
            (x, y) => Err(format!(
                "its inputs' dims {a:?} and {b:?} do not broadcast ({x} vs {y})"
            )),
        })
        .collect()
}

/// Axes given by an attribute (older opsets) or by a constant input; `None` when the
/// input is there but not constant.
fn axes_of(
    attrs: &Attrs,
    input: Option<&Value>,
    name: &str,
) -> std::result::Result<Option<Vec<i64>>, String> {
    match input {
        Some(v) => Ok(v.values.clone()),
        None => Ok(Some(
            attrs.ints(name).map(<[i64]>::to_vec).unwrap_or_default(),
        )),
    }
}

/// Row-major strides (in elements) of a tensor of `dims`.
fn strides(dims: &[u64]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1].saturating_mul(dims[k + 1] as usize);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_numpy() {
        assert_eq!(
            broadcast(&[1, 72, 1, 1], &[1, 72, 28, 28]).unwrap(),
            vec![1, 72, 28, 28]
        );
        assert!(broadcast(&[2, 3], &[3, 2]).is_err());
    }

    /// memplan's rows agree with aidge_onnx's registry (super::converters, the wheel's):
    /// an operator memplan converts to an Aidge type has a converter there, and the
    /// operators memplan opens as GenericOperators have none.
    #[test]
    fn rows_agree_with_aidge_onnxs_converters() {
        for (onnx, aidge) in OPS {
            if *aidge != "GenericOperator" {
                assert!(super::super::converters::has(onnx), "{onnx}");
            }
        }
        for onnx in SAME_SHAPE_GENERIC.iter().chain(RULE_GENERIC) {
            assert!(!super::super::converters::has(onnx), "{onnx}");
        }
    }
}
