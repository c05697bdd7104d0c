//! What each known ONNX operator becomes in Aidge 0.10.1 (aidge_onnx's converters and
//! aidge_backend_cpu's kernels): the Aidge type, which ONNX inputs are data inputs
//! (Aidge's `InputCategory::Data`) and which are parameters, the shapes of the
//! outputs, and how much of each data input the kernel protects (`getNbRequiredProtected`:
//! 0 for the kernels registered with Aidge's in-place model, the whole input for the
//! others, the padding for the Pad inside padded meta-operators). Every row is checked
//! against the real wheels by tests/parity/onnx_diff.py; an operator without a row is
//! refused, never guessed.

use super::graph::{Attrs, Value};

/// Whether an ONNX input is a data input of the Aidge node, a parameter, or dropped
/// (Aidge's node has fewer inputs than the ONNX node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Data,
    Param,
}

/// How much of a data input the kernel must not overwrite while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protect {
    /// Nothing: the output may be computed in place (Aidge's in-place model).
    None,
    /// The whole input (Aidge's default).
    All,
    /// The elements a Pad adds (padded size minus input size): the padded
    /// meta-operators' first inner node.
    Padding(u64),
}

/// One ONNX node as Aidge sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct AidgeOp {
    /// Aidge's type (`PaddedConv2D`, `FC`, ...).
    pub kind: String,
    /// Whether the converter names the node (from the ONNX node's name, else its first
    /// output); some converters (Clip) create nameless nodes.
    pub named: bool,
    /// Category of each ONNX input (shorter than the node's inputs when Aidge drops
    /// trailing ones).
    pub inputs: Vec<Category>,
    /// Protection of each data input, in data-input order.
    pub protect: Vec<Protect>,
    /// Output shapes, and bytes per element of each (4: the exporter's flow sets the
    /// graph to float32; MaxPooling's indices stay int64).
    pub outputs: Vec<(Vec<u64>, u64)>,
}

/// Why a node cannot be converted: the caller adds the node's name and type.
pub type OpResult = std::result::Result<AidgeOp, String>;

/// ONNX operator types memplan converts (documented in docs/formats.md).
pub const KNOWN: &[&str] = &[
    "Add",
    "AveragePool",
    "BatchNormalization",
    "Clip",
    "Concat",
    "Conv",
    "Div",
    "Erf",
    "Flatten",
    "Gemm",
    "GlobalAveragePool",
    "HardSigmoid",
    "HardSwish",
    "LayerNormalization",
    "MatMul",
    "MaxPool",
    "Mul",
    "Relu",
    "Reshape",
    "Sigmoid",
    "Softmax",
    "Transpose",
];

/// Converts one node whose input values are known (`None` for an omitted optional input).
/// Long (about 140 lines) on purpose: one short match arm per operator Aidge maps, so
/// the whole operator table reads in one place (the shape rules are the helpers).
pub fn convert(op_type: &str, attrs: &Attrs, inputs: &[Option<&Value>]) -> OpResult {
    let x = || -> std::result::Result<&Value, String> {
        inputs
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| "its first input is missing".to_string())
    };
    match op_type {
        "Relu" | "Sigmoid" | "HardSwish" | "HardSigmoid" | "Erf" | "Softmax" => {
            let kind = match op_type {
                "Relu" => "ReLU",
                other => other,
            };
            unary(kind, x()?, true)
        }
        "Clip" => {
            // Clip's min and max are parameters; the converter names no node.
            let mut op = unary("Clip", x()?, false)?;
            op.inputs = vec![Category::Data, Category::Param, Category::Param];
            op.inputs.truncate(inputs.len().max(1));
            Ok(op)
        }
        "Add" | "Mul" | "Div" => {
            let (a, b) = two(inputs)?;
            let dims = broadcast(&a.dims, &b.dims)?;
            Ok(op(
                op_type,
                vec![Category::Data; 2],
                vec![Protect::None; 2],
                dims,
            ))
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
        "Conv" => conv(attrs, x()?, inputs),
        "MaxPool" => pool("MaxPooling2D", attrs, x()?, true),
        "AveragePool" => pool("AvgPooling2D", attrs, x()?, false),
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
            Ok(op(
                "Concat",
                vec![Category::Data; vals.len()],
                vec![Protect::All; vals.len()],
                dims,
            ))
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
            let dims = perm
                .iter()
                .map(|&p| axis(p, d.len()).map(|a| d[a]))
                .collect::<std::result::Result<_, _>>()?;
            Ok(op(
                "Transpose",
                vec![Category::Data],
                vec![Protect::All],
                dims,
            ))
        }
        _ => Err(unknown()),
    }
}

/// The message for an operator without a row here.
pub fn unknown() -> String {
    format!(
        "memplan does not know this operator (known: {}, Constant); the rest of the graph \
         is not guessed",
        KNOWN.join(", ")
    )
}

/// Elements of a tensor, saturating: dims come from the file, and a product past 2^64
/// must become a refusal (the caller bounds sizes), not a wrap-around.
pub fn elements(dims: &[u64]) -> u64 {
    dims.iter().fold(1u64, |a, &b| a.saturating_mul(b))
}

fn op(kind: &str, inputs: Vec<Category>, protect: Vec<Protect>, dims: Vec<u64>) -> AidgeOp {
    AidgeOp {
        kind: kind.to_string(),
        named: true,
        inputs,
        protect,
        outputs: vec![(dims, 4)],
    }
}

fn unary(kind: &str, x: &Value, named: bool) -> OpResult {
    Ok(AidgeOp {
        named,
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

/// The spatial attributes shared by Conv and the poolings: kernel, strides,
/// dilations and ONNX pads `[top, left, bottom, right]`.
struct Window {
    kernel: [u64; 2],
    strides: [u64; 2],
    dilations: [u64; 2],
    pads: [u64; 4],
}

fn window(attrs: &Attrs, kernel: Option<[u64; 2]>) -> std::result::Result<Window, String> {
    let pair = |name: &str| -> std::result::Result<Option<[u64; 2]>, String> {
        match attrs.ints(name) {
            None => Ok(None),
            Some([a, b]) if *a >= 1 && *b >= 1 => Ok(Some([*a as u64, *b as u64])),
            Some(v) => Err(format!(
                "{name} {v:?} is not two positive numbers (2-D only)"
            )),
        }
    };
    let kernel = match (pair("kernel_shape")?, kernel) {
        (Some(k), _) | (None, Some(k)) => k,
        (None, None) => return Err("kernel_shape is missing".into()),
    };
    let pads = match attrs.ints("pads") {
        None => [0; 4],
        Some(p) if p.len() == 4 && p.iter().all(|&v| v >= 0) => {
            [p[0] as u64, p[1] as u64, p[2] as u64, p[3] as u64]
        }
        Some(p) => return Err(format!("pads {p:?} are not four non-negative numbers")),
    };
    match attrs.string("auto_pad").as_deref() {
        None | Some("NOTSET") | Some("VALID") => {}
        Some(other) => return Err(format!("auto_pad={other} is not supported")),
    }
    Ok(Window {
        kernel,
        strides: pair("strides")?.unwrap_or([1, 1]),
        dilations: pair("dilations")?.unwrap_or([1, 1]),
        pads,
    })
}

impl Window {
    fn padded(&self) -> bool {
        self.pads.iter().any(|&p| p != 0)
    }

    /// Output height and width of an input of `h` x `w`.
    fn out(&self, h: u64, w: u64, ceil: bool) -> std::result::Result<[u64; 2], String> {
        let one = |i: usize, size: u64| {
            let span = self.dilations[i]
                .saturating_mul(self.kernel[i] - 1)
                .saturating_add(1);
            let full = size
                .saturating_add(self.pads[i])
                .saturating_add(self.pads[i + 2]);
            if full < span {
                return Err(format!(
                    "the window is larger than its padded input ({full})"
                ));
            }
            let steps = full - span;
            let s = self.strides[i];
            Ok(if ceil { steps.div_ceil(s) } else { steps / s } + 1)
        };
        Ok([one(0, h)?, one(1, w)?])
    }

    /// Elements the inner Pad of a padded meta-operator adds to an NCHW input.
    fn padding(&self, d: &[u64]) -> u64 {
        let h = d[2]
            .saturating_add(self.pads[0])
            .saturating_add(self.pads[2]);
        let w = d[3]
            .saturating_add(self.pads[1])
            .saturating_add(self.pads[3]);
        elements(&[d[0], d[1], h, w]).saturating_sub(elements(d))
    }
}

fn conv(attrs: &Attrs, x: &Value, inputs: &[Option<&Value>]) -> OpResult {
    let d = rank4(x)?;
    let w = inputs
        .get(1)
        .copied()
        .flatten()
        .ok_or("its weight input is missing")?;
    if w.dims.len() != 4 {
        return Err(format!("its weight has dims {:?}, expected 4", w.dims));
    }
    let win = window(attrs, Some([w.dims[2], w.dims[3]]))?;
    let group = attrs.int("group", 1);
    let base = if group == 1 {
        "Conv2D"
    } else if w.dims[1] == 1 {
        "ConvDepthWise2D"
    } else {
        return Err(format!(
            "a grouped convolution (group={group}) that is not depth-wise: Aidge 0.10.1 imports it \
             as a GenericOperator and cannot plan it"
        ));
    };
    let [h, wd] = win.out(d[2], d[3], false)?;
    let (kind, protect) = if win.padded() {
        (format!("Padded{base}"), Protect::Padding(win.padding(d)))
    } else {
        (base.to_string(), Protect::None)
    };
    let mut cats = vec![Category::Data, Category::Param, Category::Param];
    cats.truncate(inputs.len());
    Ok(AidgeOp {
        kind,
        named: true,
        inputs: cats,
        protect: vec![protect],
        outputs: vec![(vec![d[0], w.dims[0], h, wd], 4)],
    })
}

/// MaxPool and AveragePool. Aidge's MaxPooling2D has a second output, the argmax
/// indices (int64), that its padded meta-operator does not expose.
fn pool(base: &str, attrs: &Attrs, x: &Value, max: bool) -> OpResult {
    let d = rank4(x)?;
    let win = window(attrs, None)?;
    if !max && win.padded() {
        return Err("a padded AveragePool is not supported".into());
    }
    let [h, w] = win.out(d[2], d[3], attrs.int("ceil_mode", 0) != 0)?;
    let dims = vec![d[0], d[1], h, w];
    let (kind, protect, outputs) = if win.padded() {
        (
            format!("Padded{base}"),
            Protect::Padding(win.padding(d)),
            vec![(dims, 4)],
        )
    } else if max {
        (
            base.to_string(),
            Protect::None,
            vec![(dims.clone(), 4), (dims, 8)],
        )
    } else {
        (base.to_string(), Protect::None, vec![(dims, 4)])
    };
    Ok(AidgeOp {
        kind,
        named: true,
        inputs: vec![Category::Data],
        protect: vec![protect],
        outputs,
    })
}

/// Gemm becomes Aidge's FC when it is `x · Wᵀ + b` (transB=1, no transA, alpha =
/// beta = 1), as torch writes Linear layers; other forms are Aidge's Gemm operator,
/// which memplan does not know.
fn gemm(attrs: &Attrs, inputs: &[Option<&Value>]) -> OpResult {
    let (x, w) = two(&inputs[..inputs.len().min(2)])?;
    let fc = attrs.int("transA", 0) == 0
        && attrs.int("transB", 0) == 1
        && attrs.float("alpha", 1.0) == 1.0
        && attrs.float("beta", 1.0) == 1.0;
    if !fc {
        return Err(
            "only Gemm as a fully-connected layer (transB=1, alpha=beta=1) is supported".into(),
        );
    }
    if x.dims.len() != 2 || w.dims.len() != 2 || x.dims[1] != w.dims[1] {
        return Err(format!(
            "input {:?} and weight {:?} do not fit x·Wᵀ",
            x.dims, w.dims
        ));
    }
    let mut cats = vec![Category::Data, Category::Param, Category::Param];
    cats.truncate(inputs.len());
    Ok(op(
        "FC",
        cats,
        vec![Protect::All],
        vec![x.dims[0], w.dims[0]],
    ))
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
    Ok(op(
        "Reshape",
        vec![Category::Data, Category::Param],
        vec![Protect::None],
        dims,
    ))
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
        let win = Window {
            kernel: [3, 3],
            strides: [2, 2],
            dilations: [1, 1],
            pads: [1; 4],
        };
        assert_eq!(win.out(112, 112, false).unwrap(), [56, 56]);
        assert_eq!(
            win.padding(&[1, 64, 112, 112]),
            64 * (114 * 114 - 112 * 112)
        );
        let ceil = Window {
            pads: [0; 4],
            ..win
        };
        assert_eq!(ceil.out(111, 111, true).unwrap(), [55, 55]);
        assert_eq!(ceil.out(54, 54, true).unwrap(), [27, 27]);
    }
}
