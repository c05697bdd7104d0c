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
use super::window;

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

/// Converts one node whose input values are known (`None` for an omitted optional input).
/// Long on purpose: one short match arm per operator Aidge maps, so the whole operator
/// table reads in one place (the shape rules are the helpers).
pub fn convert(
    op_type: &str,
    attrs: &Attrs,
    inputs: &[Option<&Value>],
    outputs: usize,
    rules: Rules,
) -> OpResult {
    let x = || -> std::result::Result<&Value, String> {
        inputs
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| "its first input is missing".to_string())
    };
    let input = |i: usize| inputs.get(i).copied().flatten();
    if let Some(kind) = elementwise_unary(op_type) {
        return unary(kind, x()?, Naming::Node);
    }
    match op_type {
        "Clip" => {
            // Clip's min and max are attribute inputs; the converter names no node.
            let mut op = unary("Clip", x()?, Naming::Nameless)?;
            op.inputs = vec![Category::Data, Category::Param, Category::Param];
            op.inputs.truncate(inputs.len().max(1));
            Ok(op)
        }
        "Cast" => {
            // Its output has the type it casts to (set_datatype leaves it); a type Aidge
            // has no dtype for makes aidge_onnx import a GenericOperator.
            let to = attrs.int("to", 0);
            if !matches!(to, 1..=7 | 9..=13 | 16 | 21 | 22) {
                return Ok(AidgeOp {
                    sized_by_model: true,
                    ..op(
                        "Cast",
                        vec![Category::Data],
                        vec![Protect::All],
                        x()?.dims.clone(),
                    )
                });
            }
            let v = x()?;
            let mut o = op(
                "Cast",
                vec![Category::Data],
                vec![Protect::All],
                v.dims.clone(),
            );
            o.outputs[0].1 = super::graph::element_bytes(to as i32);
            o.values = vec![v.values.clone()];
            Ok(o)
        }
        "Identity" => {
            let v = x()?;
            let mut op = op(
                op_type,
                vec![Category::Data],
                vec![Protect::None],
                v.dims.clone(),
            );
            // Aidge's Identity computes nothing in forward_dims: a reader of its output
            // then (Range's start in RMSNormalization's expansion) sees the zeros of a
            // tensor never written. Values memplan folded by ONNX's rules keep them (their
            // readers are sized from the model).
            op.values = vec![v.values.as_ref().map(|vals| {
                if v.folded {
                    vals.clone()
                } else {
                    vec![0; vals.len()]
                }
            })];
            Ok(op)
        }
        "Add" | "Mul" | "Div" | "Sub" | "Pow" | "Equal" | "Greater" | "GreaterOrEqual" | "Less"
        | "LessOrEqual" | "And" | "Mod" | "Max" | "Min" | "Sum" => {
            let kind = OPS
                .iter()
                .find(|(o, _)| *o == op_type)
                .map_or(op_type, |r| r.1);
            let vals: Vec<&Value> = inputs
                .iter()
                .map(|v| v.ok_or_else(|| "an input is missing".to_string()))
                .collect::<std::result::Result<_, _>>()?;
            if vals.len() < 2 && !matches!(op_type, "Sum" | "Max" | "Min") {
                return Err("expected two inputs".into());
            }
            let mut dims = vals.first().ok_or("it has no input")?.dims.clone();
            for v in &vals[1..] {
                dims = broadcast(&dims, &v.dims)?;
            }
            let mut o = op(
                kind,
                vec![Category::Data; vals.len()],
                vec![Protect::None; vals.len()],
                dims.clone(),
            );
            if vals.len() == 2 {
                let fmod = attrs.int("fmod", 0) != 0;
                o.values = vec![arith(op_type, vals[0], vals[1], &dims, fmod)];
            }
            Ok(o)
        }
        "Where" => {
            let (c, a, b) = match inputs {
                [Some(c), Some(a), Some(b)] => (c, a, b),
                _ => return Err("expected three inputs".into()),
            };
            let dims = broadcast(&broadcast(&c.dims, &a.dims)?, &b.dims)?;
            let mut o = op(
                "Where",
                vec![Category::Param, Category::Data, Category::Data],
                vec![Protect::None; 2],
                dims.clone(),
            );
            o.values = vec![select(c, a, b, &dims)];
            Ok(o)
        }
        "MatMul" => {
            let (a, b) = two(inputs)?;
            let dims = matmul(&a.dims, &b.dims)?;
            Ok(op(
                "MatMul",
                vec![Category::Data; 2],
                vec![Protect::All; 2],
                dims,
            ))
        }
        "Hardmax" => Ok(AidgeOp {
            protect: vec![Protect::All],
            ..unary("Hardmax", x()?, Naming::Output)?
        }),
        "Dropout" => {
            let mut o = unary("Dropout", x()?, Naming::Node)?;
            o.inputs = vec![Category::Data, Category::Param, Category::Param];
            o.inputs.truncate(inputs.len().max(1));
            Ok(o)
        }
        "Trilu" => {
            let mut o = unary("Trilu", x()?, Naming::Output)?;
            o.inputs = vec![Category::Data, Category::Param];
            o.inputs.truncate(inputs.len().max(1));
            Ok(o)
        }
        "InstanceNormalization" => {
            if inputs.len() != 3 {
                return Err("it needs its input, scale and bias".into());
            }
            let mut o = unary("InstanceNorm", x()?, Naming::Node)?;
            o.inputs = vec![Category::Data, Category::Param, Category::Param];
            Ok(o)
        }
        "DepthToSpace" => {
            let d = x()?.dims.clone();
            let b = attrs.int("blocksize", 0);
            if d.len() != 4 || b < 1 || d[1] % (b * b) as u64 != 0 {
                return Err(format!("blocksize {b} does not fit its input {d:?}"));
            }
            let b = b as u64;
            Ok(op(
                "DepthToSpace",
                vec![Category::Data],
                vec![Protect::All],
                vec![d[0], d[1] / (b * b), d[2] * b, d[3] * b],
            ))
        }
        "TopK" => {
            let (v, k) = two(inputs)?;
            let k = k
                .values
                .as_ref()
                .and_then(|k| k.first().copied())
                .ok_or("its k is not a constant")?;
            let a = axis(attrs.int("axis", -1), v.dims.len())?;
            let mut dims = v.dims.clone();
            if k < 0 || k as u64 > dims[a] {
                return Err(format!("k={k} does not fit its input {:?}", v.dims));
            }
            dims[a] = k as u64;
            let mut o = op(
                "TopK",
                vec![Category::Data, Category::Param],
                vec![Protect::All],
                dims.clone(),
            );
            o.outputs.push((dims, 8));
            o.naming = Naming::Output;
            Ok(o)
        }
        "Size" => {
            // Like Shape: its input is no data input of Aidge's node.
            let n = elements(&x()?.dims);
            let mut o = op("Size", vec![Category::Param], vec![], vec![1]);
            o.outputs[0].1 = 8;
            o.naming = Naming::Output;
            o.values = vec![i64::try_from(n).ok().map(|n| vec![n])];
            Ok(o)
        }
        "GatherND" => {
            let (data, idx) = two(inputs)?;
            let b = attrs.int("batch_dims", 0).max(0) as usize;
            let last = *idx.dims.last().ok_or("its indices are a scalar")? as usize;
            if b + last > data.dims.len() || b >= idx.dims.len() {
                return Err(format!(
                    "indices {:?} do not fit data {:?}",
                    idx.dims, data.dims
                ));
            }
            let mut dims = idx.dims[..idx.dims.len() - 1].to_vec();
            dims.extend(&data.dims[b + last..]);
            Ok(op(
                "GatherND",
                vec![Category::Data; 2],
                vec![Protect::All; 2],
                dims,
            ))
        }
        "ScatterElements" => {
            let v = x()?;
            Ok(op(
                "Scatter",
                vec![Category::Data, Category::Param, Category::Data],
                vec![Protect::None; 2],
                v.dims.clone(),
            ))
        }
        "OneHot" => {
            let (idx, depth) = two(&inputs[..inputs.len().min(2)])?;
            // ONNX allows any numeric depth (the node tests use a float).
            let depth = depth
                .values
                .as_ref()
                .and_then(|d| d.first().copied())
                .or_else(|| depth.floats.as_ref()?.first().map(|&f| f as i64))
                .filter(|&d| d > 0)
                .ok_or("its depth is not a positive constant")?;
            let r = idx.dims.len() + 1;
            let a = axis(attrs.int("axis", -1), r)?;
            let mut dims = idx.dims.clone();
            dims.insert(a, depth as u64);
            // Its indices, depth and values are all attribute inputs in Aidge.
            let mut o = op("OneHot", vec![Category::Param; 3], vec![], dims);
            o.inputs.truncate(inputs.len());
            o.naming = Naming::Output;
            Ok(o)
        }
        "BitShift" => {
            // aidge_onnx 0.10.1's converter fails on every BitShift (it reads
            // `BitShiftOp.direction`, which aidge_core does not bind): a GenericOperator
            // Aidge cannot size, sized here by ONNX's broadcasting.
            let (a, b) = two(inputs)?;
            Ok(AidgeOp {
                sized_by_model: true,
                ..op(
                    "BitShift",
                    vec![Category::Data; 2],
                    vec![Protect::All; 2],
                    broadcast(&a.dims, &b.dims)?,
                )
            })
        }
        "GridSample" => {
            let (v, grid) = two(inputs)?;
            if v.dims.len() < 3 || grid.dims.len() != v.dims.len() {
                return Err(format!(
                    "its grid {:?} does not fit its input {:?}",
                    grid.dims, v.dims
                ));
            }
            let mut dims = v.dims[..2].to_vec();
            dims.extend(&grid.dims[1..grid.dims.len() - 1]);
            Ok(op(
                "GridSample",
                vec![Category::Data, Category::Param],
                vec![Protect::All],
                dims,
            ))
        }
        "QuantizeLinear" | "DequantizeLinear" => {
            // aidge_onnx folds the scale and zero point into Aidge's (De)Quantizer: their
            // Producers are not in Aidge's graph.
            let kind = if op_type == "QuantizeLinear" {
                "Quantizer"
            } else {
                "Dequantizer"
            };
            let mut o = AidgeOp {
                protect: vec![Protect::All],
                ..unary(kind, x()?, Naming::Node)?
            };
            if kind == "Quantizer" {
                // Its output has its zero point's type (uint8 when there is none).
                o.outputs[0].1 = input(2).map_or(1, |z| z.element_bytes);
            }
            Ok(o)
        }
        "LSTM" | "GRU" => recurrent(op_type, attrs, x()?, inputs),
        "Conv" => window::conv(attrs, x()?, inputs),
        "ConvTranspose" => window::conv_transpose(attrs, x()?, inputs),
        "MaxPool" => window::pool(true, attrs, x()?),
        "AveragePool" => window::pool(false, attrs, x()?),
        "GlobalAveragePool" => {
            let d = rank4(x()?)?;
            Ok(op(
                "GlobalAveragePooling",
                vec![Category::Data],
                vec![Protect::All],
                vec![d[0], d[1], 1, 1],
            ))
        }
        "BatchNormalization" => {
            if attrs.int("training_mode", 0) != 0 {
                return Err("training_mode=1 is not supported".into());
            }
            let d = rank4(x()?)?.to_vec();
            let mut cats = vec![Category::Data];
            cats.extend([Category::Param; 4]);
            Ok(op("BatchNorm2D", cats, vec![Protect::None], d))
        }
        "LayerNormalization" => {
            let d = x()?.dims.clone();
            let n = inputs.len().min(3);
            Ok(op(
                "LayerNorm",
                vec![Category::Data; n],
                vec![Protect::None; n],
                d,
            ))
        }
        "Concat" => {
            let vals: Vec<&Value> = inputs
                .iter()
                .map(|v| v.ok_or_else(|| "an input is missing".to_string()))
                .collect::<std::result::Result<_, _>>()?;
            let first = vals.first().ok_or("it has no input")?;
            let axis = axis(attrs.int("axis", 0), first.dims.len())?;
            let mut dims = first.dims.clone();
            dims[axis] = 0;
            for v in &vals {
                if v.dims.len() != first.dims.len() {
                    return Err("its inputs have different ranks".into());
                }
                dims[axis] += v.dims[axis];
            }
            let values = vals
                .iter()
                .map(|v| v.values.as_deref())
                .collect::<Option<Vec<_>>>()
                .and_then(|parts| {
                    // Each part contributes its rows of `dims[axis..]` in turn.
                    let outer = usize::try_from(elements(&dims[..axis])).ok()?;
                    let rows: Vec<usize> = vals
                        .iter()
                        .map(|v| usize::try_from(elements(&v.dims[axis..])).ok())
                        .collect::<Option<_>>()?;
                    let mut out = Vec::new();
                    for i in 0..outer {
                        for (p, &r) in parts.iter().zip(&rows) {
                            out.extend_from_slice(p.get(i * r..(i + 1) * r)?);
                        }
                    }
                    Some(out)
                });
            let mut o = op(
                "Concat",
                vec![Category::Data; vals.len()],
                vec![Protect::All; vals.len()],
                dims,
            );
            o.values = vec![values];
            Ok(o)
        }
        "Flatten" => {
            let d = &x()?.dims;
            // Flatten's axis may equal the rank; a negative one counts from the rank.
            let a = attrs.int("axis", 1);
            let a = if a < 0 { a + d.len() as i64 } else { a };
            if !(0..=d.len() as i64).contains(&a) {
                return Err(format!("axis {a} is out of range for rank {}", d.len()));
            }
            let a = a as usize;
            let (outer, inner) = (elements(&d[..a]), elements(&d[a..]));
            Ok(op(
                "Flatten",
                vec![Category::Data],
                vec![Protect::None],
                vec![outer, inner],
            ))
        }
        "Gemm" => gemm(attrs, inputs),
        "Reshape" => reshape(attrs, x()?, inputs),
        "Transpose" => {
            let d = &x()?.dims;
            let perm: Vec<i64> = match attrs.ints("perm") {
                Some(p) => p.to_vec(),
                None => (0..d.len() as i64).rev().collect(),
            };
            if perm.len() != d.len() {
                return Err(format!(
                    "perm {perm:?} does not match its input's rank {}",
                    d.len()
                ));
            }
            let at = perm
                .iter()
                .map(|&p| axis(p, d.len()))
                .collect::<std::result::Result<Vec<usize>, _>>()?;
            let dims: Vec<u64> = at.iter().map(|&a| d[a]).collect();
            let values = x()?.values.as_ref().and_then(|v| {
                let from = strides(d);
                let to = strides(&dims);
                let n = usize::try_from(elements(&dims)).ok()?;
                (v.len() == n).then(|| {
                    (0..n)
                        .map(|i| {
                            let src: usize = at
                                .iter()
                                .enumerate()
                                .map(|(k, &a)| (i / to[k]) % dims[k] as usize * from[a])
                                .sum();
                            v[src]
                        })
                        .collect()
                })
            });
            let mut o = op("Transpose", vec![Category::Data], vec![Protect::All], dims);
            o.values = vec![values];
            Ok(o)
        }
        "Shape" => {
            let d = &x()?.dims;
            let r = d.len() as i64;
            let clamp = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
            let (s, e) = (clamp(attrs.int("start", 0)), clamp(attrs.int("end", r)));
            let vals: Vec<i64> = if s < e {
                d[s..e].iter().map(|&v| v as i64).collect()
            } else {
                Vec::new()
            };
            let mut o = op(
                "Shape",
                vec![Category::Param],
                vec![],
                vec![vals.len() as u64],
            );
            // Shape's output stays int64 when the graph is set to float32.
            o.outputs[0].1 = 8;
            o.naming = Naming::Output;
            o.values = vec![Some(vals)];
            Ok(o)
        }
        "Gather" => {
            let (data, idx) = two(inputs)?;
            let a = axis(attrs.int("axis", 0), data.dims.len())?;
            let mut dims = data.dims[..a].to_vec();
            dims.extend(&idx.dims);
            dims.extend(&data.dims[a + 1..]);
            let values = match (&data.values, &idx.values, data.dims.len()) {
                (Some(v), Some(i), 1) => i
                    .iter()
                    .map(|&k| {
                        let k = if k < 0 { k + v.len() as i64 } else { k };
                        v.get(usize::try_from(k).ok()?).copied()
                    })
                    .collect::<Option<Vec<_>>>(),
                _ => None,
            };
            let mut o = op(
                "Gather",
                vec![Category::Data, Category::Param],
                vec![Protect::All],
                dims,
            );
            o.values = vec![values];
            Ok(o)
        }
        "GatherElements" => {
            let (_, idx) = two(inputs)?;
            Ok(op(
                "GatherElements",
                vec![Category::Data, Category::Param],
                vec![Protect::All],
                idx.dims.clone(),
            ))
        }
        "Unsqueeze" => {
            let v = x()?;
            let axes = axes_of(attrs, input(1), "axes")?.ok_or("its axes are not constant")?;
            let r = v.dims.len() + axes.len();
            let mut at = axes
                .iter()
                .map(|&a| axis(a, r))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            at.sort_unstable();
            let mut dims = v.dims.clone();
            for a in at {
                if a > dims.len() {
                    return Err(format!("axes {axes:?} do not fit rank {r}"));
                }
                dims.insert(a, 1);
            }
            let mut o = op(
                "Unsqueeze",
                vec![Category::Data, Category::Param],
                vec![Protect::None],
                dims,
            );
            o.naming = Naming::Output;
            o.values = vec![v.values.clone()];
            Ok(o)
        }
        "Squeeze" => {
            let v = x()?;
            let axes = axes_of(attrs, input(1), "axes")?.unwrap_or_default();
            let at = axes
                .iter()
                .map(|&a| axis(a, v.dims.len()))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let dims: Vec<u64> = v
                .dims
                .iter()
                .enumerate()
                .filter(|(i, &d)| {
                    !(if at.is_empty() {
                        d == 1
                    } else {
                        at.contains(i)
                    })
                })
                .map(|(_, &d)| d)
                .collect();
            let mut o = op(
                "Squeeze",
                vec![Category::Data, Category::Param],
                vec![Protect::None],
                dims,
            );
            o.naming = Naming::Output;
            o.values = vec![v.values.clone()];
            Ok(o)
        }
        "Slice" => slice(x()?, inputs, rules),
        "Split" => split(attrs, x()?, inputs, outputs),
        "ReduceMean" | "ReduceSum" | "ReduceMax" | "ReduceMin" | "ReduceL1" | "ReduceL2" => {
            let v = x()?;
            let axes = axes_of(attrs, input(1), "axes")?.unwrap_or_default();
            let keep = attrs.int("keepdims", 1) != 0;
            let noop = attrs.int("noop_with_empty_axes", 0) != 0;
            let at = axes
                .iter()
                .map(|&a| axis(a, v.dims.len()))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let dims = reduce(&v.dims, &at, keep, noop);
            let mut cats = vec![Category::Data, Category::Param];
            cats.truncate(inputs.len().max(1));
            Ok(op(op_type, cats, vec![Protect::None], dims))
        }
        "ArgMax" => {
            let v = x()?;
            let a = axis(attrs.int("axis", 0), v.dims.len())?;
            let dims = reduce(&v.dims, &[a], attrs.int("keepdims", 1) != 0, false);
            // Its indices stay int64 when the graph is set to float32.
            let mut o = op("ArgMax", vec![Category::Data], vec![Protect::All], dims);
            o.outputs[0].1 = 8;
            Ok(o)
        }
        "Expand" => {
            let (v, s) = two(inputs)?;
            let shape = s.values.as_ref().ok_or("its shape is not constant")?;
            let target: Vec<u64> = shape.iter().map(|&d| d.max(1) as u64).collect();
            let dims = broadcast(&v.dims, &target)?;
            Ok(op(
                "Expand",
                vec![Category::Data, Category::Param],
                vec![Protect::None],
                dims,
            ))
        }
        "Tile" => {
            let (v, r) = two(inputs)?;
            let reps = r.values.as_ref().ok_or("its repeats are not constant")?;
            if reps.len() != v.dims.len() || reps.iter().any(|&k| k < 0) {
                return Err(format!("repeats {reps:?} do not fit dims {:?}", v.dims));
            }
            let dims = v
                .dims
                .iter()
                .zip(reps)
                .map(|(&d, &k)| d.saturating_mul(k as u64))
                .collect();
            Ok(op(
                "Tile",
                vec![Category::Data; 2],
                vec![Protect::All; 2],
                dims,
            ))
        }
        "ConstantOfShape" => {
            let s = x()?;
            let shape = s.values.as_ref().ok_or("its shape is not constant")?;
            let dims = shape
                .iter()
                .map(|&d| u64::try_from(d).map_err(|_| format!("shape {shape:?} is negative")))
                .collect::<std::result::Result<Vec<u64>, _>>()?;
            let fill = attrs
                .tensor("value")
                .and_then(super::graph::tensor_ints)
                .and_then(|v| v.first().copied())
                .unwrap_or(0);
            let mut o = op(
                "ConstantOfShape",
                vec![Category::Data],
                vec![Protect::All],
                dims.clone(),
            );
            o.naming = Naming::Output;
            o.values = vec![(elements(&dims) <= 64).then(|| vec![fill; elements(&dims) as usize])];
            Ok(o)
        }
        "Range" => {
            let scalar = |i: usize| -> std::result::Result<i64, String> {
                input(i)
                    .and_then(|v| v.values.as_ref())
                    .and_then(|v| v.first().copied())
                    .ok_or_else(|| "its start, limit and delta are not constant integers".into())
            };
            let (s, l, d) = (scalar(0)?, scalar(1)?, scalar(2)?);
            if d == 0 {
                return Err("its delta is 0".into());
            }
            let n = ((l - s) as f64 / d as f64).ceil().max(0.0) as u64;
            let mut o = op("Range", vec![Category::Param; 3], vec![], vec![n]);
            o.values = vec![(n <= 64).then(|| (0..n as i64).map(|k| s + k * d).collect())];
            Ok(o)
        }
        "Pad" => {
            let v = x()?;
            let pads = match input(1) {
                Some(p) => p.values.clone().ok_or("its pads are not constant")?,
                None => attrs.ints("pads").map(<[i64]>::to_vec).unwrap_or_default(),
            };
            let r = v.dims.len();
            if pads.len() != 2 * r {
                return Err(format!("pads {pads:?} do not fit rank {r}"));
            }
            let dims = (0..r)
                .map(|i| {
                    let d = v.dims[i] as i64 + pads[i] + pads[i + r];
                    u64::try_from(d).map_err(|_| format!("pads {pads:?} empty its input"))
                })
                .collect::<std::result::Result<Vec<u64>, _>>()?;
            let mut cats = vec![
                Category::Data,
                Category::Param,
                Category::Param,
                Category::Param,
            ];
            cats.truncate(inputs.len().max(1));
            let mut o = op("Pad", cats, vec![Protect::All], dims);
            o.naming = Naming::Output;
            Ok(o)
        }
        "Resize" => resize(attrs, x()?, inputs),
        "Einsum" => {
            let vals: Vec<&Value> = inputs
                .iter()
                .map(|v| v.ok_or_else(|| "an input is missing".to_string()))
                .collect::<std::result::Result<_, _>>()?;
            let eq = attrs.string("equation").ok_or("it has no equation")?;
            let dims = einsum(&eq, &vals)?;
            Ok(AidgeOp {
                sized_by_model: true,
                ..op(
                    "Einsum",
                    vec![Category::Data; vals.len()],
                    vec![Protect::All; vals.len()],
                    dims,
                )
            })
        }
        _ => Err(unknown()),
    }
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

/// Numpy matmul's shape (batch dims broadcast, 1-D operands promoted).
fn matmul(a: &[u64], b: &[u64]) -> std::result::Result<Vec<u64>, String> {
    if a.is_empty() || b.is_empty() {
        return Err("MatMul of a scalar".into());
    }
    let (a2, b2) = (
        if a.len() == 1 {
            vec![1, a[0]]
        } else {
            a.to_vec()
        },
        if b.len() == 1 {
            vec![b[0], 1]
        } else {
            b.to_vec()
        },
    );
    let (m, k) = (a2[a2.len() - 2], a2[a2.len() - 1]);
    let (k2, n) = (b2[b2.len() - 2], b2[b2.len() - 1]);
    if k != k2 {
        return Err(format!("inner dims of {a:?} and {b:?} differ"));
    }
    let mut out = broadcast(&a2[..a2.len() - 2], &b2[..b2.len() - 2])?;
    if a.len() > 1 {
        out.push(m);
    }
    if b.len() > 1 {
        out.push(n);
    }
    Ok(out)
}

/// ONNX's shape rule for Einsum: each input's subscripts name its dims (`...` the
/// broadcast leading ones); the output has the subscripts after `->`, or, without
/// one, the broadcast dims then the letters used once, in alphabetical order.
fn einsum(equation: &str, inputs: &[&Value]) -> std::result::Result<Vec<u64>, String> {
    let eq: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (eq.as_str(), None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != inputs.len() {
        return Err(format!(
            "equation '{equation}' has {} operands, the node {}",
            terms.len(),
            inputs.len()
        ));
    }
    let bad = || format!("equation '{equation}' does not fit its inputs");
    let mut size: std::collections::BTreeMap<char, u64> = Default::default();
    let mut count: std::collections::BTreeMap<char, usize> = Default::default();
    let mut ellipsis: Vec<u64> = Vec::new();
    for (term, v) in terms.iter().zip(inputs) {
        let letters: Vec<char> = term.replace("...", "").chars().collect();
        if letters.iter().any(|c| !c.is_ascii_alphabetic()) {
            return Err(bad());
        }
        let dots = term.contains("...");
        let n_ell = v.dims.len().checked_sub(letters.len()).ok_or_else(bad)?;
        if !dots && n_ell != 0 {
            return Err(bad());
        }
        let (before, after) = term
            .replace("...", "\u{0}")
            .split_once('\u{0}')
            .map_or((term.to_string(), String::new()), |(a, b)| {
                (a.to_string(), b.to_string())
            });
        let mut dims = v.dims.iter();
        for c in before.chars() {
            let d = *dims.next().ok_or_else(bad)?;
            unify(&mut size, c, d).map_err(|_| bad())?;
            *count.entry(c).or_default() += 1;
        }
        let ell: Vec<u64> = dims.by_ref().take(n_ell).copied().collect();
        ellipsis = broadcast(&ellipsis, &ell)?;
        for c in after.chars() {
            let d = *dims.next().ok_or_else(bad)?;
            unify(&mut size, c, d).map_err(|_| bad())?;
            *count.entry(c).or_default() += 1;
        }
    }
    let out_letters: String = match rhs {
        Some(r) => r.to_string(),
        None => std::iter::once("...".to_string())
            .chain(
                count
                    .iter()
                    .filter(|(_, &n)| n == 1)
                    .map(|(c, _)| c.to_string()),
            )
            .collect(),
    };
    let mut out = Vec::new();
    let (before, after) = match out_letters.split_once("...") {
        Some((a, b)) => (a.to_string(), Some(b.to_string())),
        None => (out_letters.clone(), None),
    };
    let letter = |c: char| size.get(&c).copied().ok_or_else(bad);
    for c in before.chars() {
        out.push(letter(c)?);
    }
    if let Some(after) = after {
        out.extend(&ellipsis);
        for c in after.chars() {
            out.push(letter(c)?);
        }
    }
    Ok(out)
}

/// Records that subscript `c` names a dim of `d` elements (1 broadcasts).
fn unify(size: &mut std::collections::BTreeMap<char, u64>, c: char, d: u64) -> Result<(), ()> {
    match size.get(&c).copied() {
        None | Some(1) => {
            size.insert(c, d);
            Ok(())
        }
        Some(e) if e == d || d == 1 => Ok(()),
        Some(_) => Err(()),
    }
}

/// LSTM and GRU: aidge_onnx 0.10.1 makes a meta-operator of Pop, the cell and Stack for a
/// forward one-layer cell and a GenericOperator otherwise; Aidge sizes neither (Pop and
/// Stack have no CPU kernel, forward_dims fails), so the node is sized by ONNX's rule:
/// `Y` is `[seq, directions, batch, hidden]` and `Y_h` (and LSTM's `Y_c`)
/// `[directions, batch, hidden]`, batch first with `layout=1`.
fn recurrent(op_type: &str, attrs: &Attrs, x: &Value, inputs: &[Option<&Value>]) -> OpResult {
    let d = &x.dims;
    if d.len() != 3 {
        return Err(format!("its input has dims {d:?}, expected 3"));
    }
    let hidden = attrs.int("hidden_size", 0);
    if hidden < 1 {
        return Err("its hidden_size is missing".into());
    }
    let dirs = if attrs.string("direction").as_deref() == Some("bidirectional") {
        2
    } else {
        1
    };
    let h = hidden as u64;
    let batch_first = attrs.int("layout", 0) != 0;
    let (seq, batch) = if batch_first {
        (d[1], d[0])
    } else {
        (d[0], d[1])
    };
    let (y, state) = if batch_first {
        (vec![batch, seq, dirs, h], vec![batch, dirs, h])
    } else {
        (vec![seq, dirs, batch, h], vec![dirs, batch, h])
    };
    let n = if op_type == "LSTM" { 3 } else { 2 };
    let mut outputs = vec![(y, 4)];
    outputs.extend(std::iter::repeat((state, 4)).take(n - 1));
    Ok(AidgeOp {
        outputs,
        sized_by_model: true,
        ..op(
            op_type,
            vec![Category::Data; inputs.len()],
            vec![Protect::All; inputs.len()],
            Vec::new(),
        )
    })
}

/// Gemm becomes Aidge's FC when it is `x · Wᵀ + b` (transB=1, no transA, alpha =
/// beta = 1), as torch writes Linear layers; other forms are Aidge's Gemm operator,
/// whose B is a data input when it is not transposed (aidge_onnx flips transB) and C
/// one when beta is not 1; its kernel protects A unless alpha scales it, never C.
fn gemm(attrs: &Attrs, inputs: &[Option<&Value>]) -> OpResult {
    let (x, w) = two(&inputs[..inputs.len().min(2)])?;
    let (ta, tb) = (attrs.int("transA", 0) != 0, attrs.int("transB", 0) != 0);
    let (alpha, beta) = (attrs.float("alpha", 1.0), attrs.float("beta", 1.0));
    if let Some(c) = inputs.get(2).copied().flatten() {
        if c.dims.len() > 1 && !(c.dims.len() == 2 && c.dims[0] == 1) {
            return Err(format!(
                "its bias has dims {:?}: Aidge 0.10.1 imports it as a GenericOperator",
                c.dims
            ));
        }
    }
    if x.dims.len() != 2 || w.dims.len() != 2 {
        return Err(format!(
            "input {:?} and weight {:?} are not matrices",
            x.dims, w.dims
        ));
    }
    let (m, k) = if ta {
        (x.dims[1], x.dims[0])
    } else {
        (x.dims[0], x.dims[1])
    };
    let (k2, n) = if tb {
        (w.dims[1], w.dims[0])
    } else {
        (w.dims[0], w.dims[1])
    };
    if k != k2 {
        return Err(format!(
            "input {:?} and weight {:?} do not multiply",
            x.dims, w.dims
        ));
    }
    // aidge_onnx resizes a `[1, N]` bias to `[N]` before making the node.
    let resized_inputs = match inputs.get(2).copied().flatten() {
        Some(c) if c.dims.len() == 2 => vec![(2, vec![c.dims[1]])],
        _ => Vec::new(),
    };
    let mut cats = if !ta && tb && alpha == 1.0 && beta == 1.0 {
        let mut cats = vec![Category::Data, Category::Param, Category::Param];
        cats.truncate(inputs.len());
        return Ok(AidgeOp {
            resized_inputs,
            ..op("FC", cats, vec![Protect::All], vec![m, n])
        });
    } else {
        vec![
            Category::Data,
            if tb { Category::Param } else { Category::Data },
            if beta != 1.0 {
                Category::Data
            } else {
                Category::Param
            },
        ]
    };
    cats.truncate(inputs.len());
    let mut protect = vec![if alpha != 1.0 {
        Protect::None
    } else {
        Protect::All
    }];
    if !tb {
        protect.push(Protect::All);
    }
    if beta != 1.0 && inputs.len() > 2 {
        protect.push(Protect::None);
    }
    Ok(AidgeOp {
        resized_inputs,
        ..op("Gemm", cats, protect, vec![m, n])
    })
}

/// Reshape to a constant shape (an initializer or Constant): 0 copies the input's
/// dim (unless allowzero), -1 takes what is left.
fn reshape(attrs: &Attrs, x: &Value, inputs: &[Option<&Value>]) -> OpResult {
    let shape = inputs
        .get(1)
        .copied()
        .flatten()
        .and_then(|v| v.values.as_ref())
        .ok_or("its shape is not a constant (an initializer or a Constant node)")?;
    let total = elements(&x.dims);
    let allow_zero = attrs.int("allowzero", 0) != 0;
    let mut dims = Vec::with_capacity(shape.len());
    let mut free = None;
    for (i, &s) in shape.iter().enumerate() {
        dims.push(match s {
            -1 if free.is_none() => {
                free = Some(i);
                1
            }
            0 if !allow_zero => *x.dims.get(i).ok_or("shape copies a dim its input lacks")?,
            s if s >= 0 => s as u64,
            _ => return Err(format!("shape {shape:?} is not a valid Reshape shape")),
        });
    }
    let known = elements(&dims);
    if let Some(i) = free {
        if known == 0 || total % known != 0 {
            return Err(format!("cannot reshape {:?} to {shape:?}", x.dims));
        }
        dims[i] = total / known;
    }
    if elements(&dims) != total {
        return Err(format!("cannot reshape {:?} to {shape:?}", x.dims));
    }
    let mut o = op(
        "Reshape",
        vec![Category::Data, Category::Param],
        vec![Protect::None],
        dims,
    );
    o.values = vec![x.values.clone()];
    Ok(o)
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

/// The shape of a reduction over `axes` (all when empty, unless `noop`); Aidge's
/// reductions give `[1]` where every axis goes (ONNX: a scalar).
fn reduce(dims: &[u64], axes: &[usize], keep: bool, noop: bool) -> Vec<u64> {
    if axes.is_empty() && noop {
        return dims.to_vec();
    }
    let hit = |i: usize| axes.is_empty() || axes.contains(&i);
    let out: Vec<u64> = dims
        .iter()
        .enumerate()
        .filter_map(|(i, &d)| match (hit(i), keep) {
            (true, true) => Some(1),
            (true, false) => None,
            (false, _) => Some(d),
        })
        .collect();
    if out.is_empty() && !dims.is_empty() {
        vec![1]
    } else {
        out
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

/// The flat index in a tensor of `from` dims (numpy-broadcast to `to`) of element
/// `i` of the `to` tensor.
fn broadcast_index(i: usize, to: &[u64], from: &[u64]) -> usize {
    let (st, sf) = (strides(to), strides(from));
    let shift = to.len() - from.len();
    (0..from.len())
        .map(|k| {
            let c = (i / st[k + shift]) % to[k + shift] as usize;
            if from[k] == 1 {
                0
            } else {
                c * sf[k]
            }
        })
        .sum()
}

/// Integer arithmetic of two known small tensors (shape computations), broadcast.
/// Mod follows ONNX: the divisor's sign unless `fmod` (then the dividend's).
fn arith(op_type: &str, a: &Value, b: &Value, dims: &[u64], fmod: bool) -> Option<Vec<i64>> {
    let (va, vb) = (a.values.as_ref()?, b.values.as_ref()?);
    let n = usize::try_from(elements(dims)).ok()?;
    let fits = |v: &Value, vals: &[i64]| elements(&v.dims) == vals.len() as u64;
    if va.is_empty() || vb.is_empty() || !fits(a, va) || !fits(b, vb) {
        return None;
    }
    (0..n)
        .map(|i| {
            let (x, y) = (
                va[broadcast_index(i, dims, &a.dims)],
                vb[broadcast_index(i, dims, &b.dims)],
            );
            Some(match op_type {
                "Add" => x.checked_add(y)?,
                "Sub" => x.checked_sub(y)?,
                "Mul" => x.checked_mul(y)?,
                "Div" => x.checked_div(y)?,
                "Equal" => (x == y) as i64,
                "Greater" => (x > y) as i64,
                "Less" => (x < y) as i64,
                "Max" => x.max(y),
                "Min" => x.min(y),
                "Mod" if fmod => x.checked_rem(y)?,
                "Mod" => {
                    let r = x.checked_rem(y)?;
                    if r != 0 && (r < 0) != (y < 0) {
                        r + y
                    } else {
                        r
                    }
                }
                _ => return None,
            })
        })
        .collect()
}

/// Where of known small tensors.
fn select(c: &Value, a: &Value, b: &Value, dims: &[u64]) -> Option<Vec<i64>> {
    let (vc, va, vb) = (c.values.as_ref()?, a.values.as_ref()?, b.values.as_ref()?);
    let n = usize::try_from(elements(dims)).ok()?;
    if dims.len() > 1 || vc.is_empty() || va.is_empty() || vb.is_empty() {
        return None;
    }
    let at = |v: &[i64], i: usize| v[if v.len() == 1 { 0 } else { i }];
    Some(
        (0..n)
            .map(|i| if at(vc, i) != 0 { at(va, i) } else { at(vb, i) })
            .collect(),
    )
}

/// Slice with constant starts, ends, axes and steps (ONNX's clamping rules).
fn slice(x: &Value, inputs: &[Option<&Value>], rules: Rules) -> OpResult {
    let get = |i: usize| inputs.get(i).copied().flatten();
    let ints = |i: usize, what: &str| -> std::result::Result<Option<Vec<i64>>, String> {
        match get(i) {
            None => Ok(None),
            Some(v) => v
                .values
                .clone()
                .map(Some)
                .ok_or_else(|| format!("its {what} are not constant")),
        }
    };
    // Bounds Aidge can read (constants) take its rule; folded ones ONNX's.
    let aidge = rules == Rules::Aidge && !inputs[1..].iter().flatten().any(|v| v.folded);
    let mut differs = false;
    let starts = ints(1, "starts")?.ok_or("its starts are missing")?;
    let ends = ints(2, "ends")?.ok_or("its ends are missing")?;
    let r = x.dims.len();
    let axes = ints(3, "axes")?.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = ints(4, "steps")?.unwrap_or_else(|| vec![1; starts.len()]);
    if ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return Err("its starts, ends, axes and steps differ in length".into());
    }
    let mut dims = x.dims.clone();
    let mut values = x
        .values
        .clone()
        .filter(|v| v.len() as u64 == elements(&x.dims));
    for k in 0..starts.len() {
        let a = axis(axes[k], r)?;
        let d = x.dims[a] as i64;
        let step = steps[k];
        if step == 0 {
            return Err("a step is 0".into());
        }
        let (s, n) = slice_bounds(d, starts[k], ends[k], step, aidge);
        differs |= !aidge && (s, n) != slice_bounds(d, starts[k], ends[k], step, true);
        let before = dims.clone();
        dims[a] = n as u64;
        // Element i of the result, along axis a at c, is the input's at s + c·step.
        let (from, to) = (strides(&before), strides(&dims));
        let total = elements(&dims) as usize;
        values = values.map(|v| {
            (0..total)
                .map(|i| {
                    let inner = i % to[a];
                    let c = (i / to[a]) % n as usize;
                    let outer = i / (to[a] * n as usize);
                    let src = (s + c as i64 * step) as usize;
                    v[outer * from[a] * before[a] as usize + src * from[a] + inner]
                })
                .collect()
        });
    }
    let mut o = op(
        "Slice",
        vec![
            Category::Data,
            Category::Param,
            Category::Param,
            Category::Param,
            Category::Param,
        ],
        vec![Protect::None],
        dims,
    );
    o.inputs.truncate(inputs.len().max(1));
    o.values = vec![values];
    o.sized_by_model = differs && rules == Rules::Onnx;
    Ok(o)
}

/// The start, end and length of a Slice along an axis of `d` elements, as Aidge's
/// `Slice_Op::forwardDims` computes them: a negative bound plus `d` taken as unsigned
/// (so one still negative wraps to a huge value), the start then capped at `d - 1` and
/// the end at `d`, length `ceil((end - start) / step)`. Where Aidge fails (the step's
/// sign opposite to `end - start`) or unless `aidge` is false (bounds folded by memplan,
/// which Aidge cannot read), ONNX's clamping rules. Returns (start, length).
fn slice_bounds(d: i64, start: i64, end: i64, step: i64, aidge: bool) -> (i64, i64) {
    let wrap = |v: i64| {
        if v < 0 {
            v.wrapping_add(d) as u64
        } else {
            v as u64
        }
    };
    let top = u64::try_from(d).unwrap_or(0);
    let s = wrap(start).min(top.saturating_sub(1)) as i64;
    let e = wrap(end).min(top) as i64;
    if aidge && (e - s).signum() * step.signum() >= 0 {
        let n = if step > 0 {
            (e - s + step - 1) / step
        } else {
            (s - e - step - 1) / -step
        };
        return (s, n);
    }
    let fix = |v: i64| if v < 0 { v.saturating_add(d) } else { v };
    let (s, e) = (fix(start), fix(end));
    let (s, e) = if step > 0 {
        (s.clamp(0, d), e.clamp(0, d))
    } else {
        (s.clamp(0, d - 1), e.clamp(-1, d - 1))
    };
    let n = if step > 0 {
        ((e - s).max(0) + step - 1) / step
    } else {
        ((s - e).max(0) - step - 1) / -step
    };
    (s, n)
}

/// Split into the sizes of its constant `split` input (or attribute), else into
/// `num_outputs` (or as many as the node has outputs) parts as Aidge cuts them: each
/// `d / n` (rounded down), the last one the rest (ONNX's equal parts where Aidge fails:
/// more parts than elements).
fn split(attrs: &Attrs, x: &Value, inputs: &[Option<&Value>], outputs: usize) -> OpResult {
    let a = axis(attrs.int("axis", 0), x.dims.len())?;
    let d = x.dims[a];
    let sizes: Vec<u64> = match inputs.get(1).copied().flatten() {
        Some(v) => v
            .values
            .as_ref()
            .ok_or("its split sizes are not constant")?
            .iter()
            .map(|&s| s.max(0) as u64)
            .collect(),
        None => match attrs.ints("split") {
            Some(s) => s.iter().map(|&s| s.max(0) as u64).collect(),
            None => {
                let n = match attrs.int("num_outputs", 0) {
                    n if n > 0 => n as u64,
                    _ => outputs as u64,
                };
                if n == 0 {
                    return Err("it has no outputs".into());
                }
                if n <= d {
                    let each = d / n;
                    (0..n)
                        .map(|i| if i + 1 == n { d - each * (n - 1) } else { each })
                        .collect()
                } else {
                    let each = d.div_ceil(n);
                    (0..n)
                        .map(|i| each.min(d.saturating_sub(i * each)))
                        .collect()
                }
            }
        },
    };
    if sizes.iter().sum::<u64>() != d {
        return Err(format!("split sizes {sizes:?} do not add up to dim {d}"));
    }
    let outputs = sizes
        .iter()
        .map(|&s| {
            let mut dims = x.dims.clone();
            dims[a] = s;
            (dims, 4)
        })
        .collect();
    let mut cats = vec![Category::Data, Category::Param];
    cats.truncate(inputs.len().max(1));
    Ok(AidgeOp {
        outputs,
        ..op("Split", cats, vec![Protect::All], Vec::new())
    })
}

/// Resize to constant `sizes` (input 3), or by constant `scales` (input 2), given for
/// every axis or for those of its `axes` attribute.
fn resize(attrs: &Attrs, x: &Value, inputs: &[Option<&Value>]) -> OpResult {
    let get = |i: usize| inputs.get(i).copied().flatten();
    let r = x.dims.len();
    let at = match attrs.ints("axes") {
        Some(a) if !a.is_empty() => a
            .iter()
            .map(|&a| axis(a, r))
            .collect::<std::result::Result<Vec<_>, _>>()?,
        _ => (0..r).collect(),
    };
    let mut dims = x.dims.clone();
    if let Some(s) = get(3) {
        let v = s.values.as_ref().ok_or("its sizes are not constant")?;
        if v.len() != at.len() {
            return Err(format!("sizes {v:?} do not fit dims {:?}", x.dims));
        }
        for (&a, &v) in at.iter().zip(v) {
            dims[a] = v.max(0) as u64;
        }
    } else if let Some(sc) = get(2) {
        let f = sc.floats.as_ref().ok_or("its scales are not constant")?;
        if f.len() != at.len() {
            return Err(format!("scales {f:?} do not fit dims {:?}", x.dims));
        }
        for (&a, &s) in at.iter().zip(f) {
            dims[a] = (x.dims[a] as f64 * s as f64).floor().max(0.0) as u64;
        }
    } else {
        return Err("it has neither scales nor sizes".into());
    }
    let mut cats = vec![
        Category::Data,
        Category::Param,
        Category::Param,
        Category::Param,
    ];
    cats.truncate(inputs.len().max(1));
    let mut o = op("Resize", cats, vec![Protect::None], dims);
    o.formatted_inputs = (2..4)
        .filter(|&i| get(i).is_some_and(|v| elements(&v.dims) == r as u64))
        .collect();
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_numpy_and_onnx() {
        assert_eq!(
            broadcast(&[1, 72, 1, 1], &[1, 72, 28, 28]).unwrap(),
            vec![1, 72, 28, 28]
        );
        assert!(broadcast(&[2, 3], &[3, 2]).is_err());
        assert_eq!(
            matmul(&[1, 4, 16, 32], &[1, 4, 32, 16]).unwrap(),
            vec![1, 4, 16, 16]
        );
        assert_eq!(
            matmul(&[1, 16, 128], &[128, 512]).unwrap(),
            vec![1, 16, 512]
        );
    }

    #[test]
    fn slice_bounds_follow_aidge_then_onnx() {
        // Aidge caps the start at d - 1 and wraps a still-negative bound (probed on the
        // wheel: tests/parity/onnx_nodes_diff.py's test_slice_start_out_of_bounds).
        assert_eq!(slice_bounds(10, 1000, 1000, 1, true), (9, 1));
        assert_eq!(slice_bounds(10, 1000, 1000, 1, false).1, 0);
        assert_eq!(slice_bounds(10, -1000, -1000, 1, true), (9, 1));
        assert_eq!(slice_bounds(10, 2, i64::MAX, 1, true), (2, 8));
        assert_eq!(slice_bounds(10, -1, -1000, -1, false), (9, 10));
        // Where Aidge fails (step against end - start), ONNX's rule.
        assert_eq!(slice_bounds(10, 5, 2, 1, true), (5, 0));
    }

    #[test]
    fn einsum_follows_onnx_shape_rule() {
        let v = |d: &[u64]| Value {
            dims: d.to_vec(),
            values: None,
            floats: None,
            element_bytes: 4,
            folded: false,
        };
        let (a, b) = (v(&[2, 4, 49, 32]), v(&[2, 4, 49, 32]));
        assert_eq!(
            einsum("bhid,bhjd->bhij", &[&a, &b]).unwrap(),
            [2, 4, 49, 49]
        );
        let (a, b) = (v(&[3, 5]), v(&[5, 7]));
        assert_eq!(einsum("ij,jk", &[&a, &b]).unwrap(), [3, 7]);
        let (a, b) = (v(&[6, 2, 3]), v(&[3, 4]));
        assert_eq!(einsum("...ij,jk->...ik", &[&a, &b]).unwrap(), [6, 2, 4]);
        assert!(einsum("ij,jk", &[&a, &b]).is_err());
    }
}
