//! The sliding-window operators, in 1, 2 or 3 spatial dims, as aidge_onnx 0.10.1 makes
//! them: Conv (`Conv{n}D`, `ConvDepthWise{n}D`), ConvTranspose (`ConvTranspose{n}D`),
//! MaxPool and AveragePool (`MaxPooling{n}D`, `AvgPooling{n}D`), each the `Padded*`
//! meta-operator (a Pad, then the operator) when it pads. aidge_core 0.10.1 lacks some of
//! those classes (`PaddedAvgPooling1D`, `ConvDepthWise3D`, ...): aidge_onnx then imports a
//! GenericOperator that Aidge cannot size, and memplan sizes the node by ONNX's rule,
//! marked as sized from the model.

use super::aidge_op::{elements, op, AidgeOp, Category, OpResult, Protect};
use super::graph::{Attrs, Value};

/// The classes aidge_core 0.10.1 has (`dir(aidge_core)`) and aidge_backend_cpu has a
/// kernel for: a name outside the list is a GenericOperator in Aidge, or (the 3-D
/// poolings) a node Aidge cannot run, both sized here by ONNX's rule.
const AIDGE_CLASSES: &[&str] = &[
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "PaddedConv1D",
    "PaddedConv2D",
    "PaddedConv3D",
    "ConvDepthWise1D",
    "ConvDepthWise2D",
    "PaddedConvDepthWise1D",
    "PaddedConvDepthWise2D",
    "ConvTranspose1D",
    "ConvTranspose2D",
    "ConvTranspose3D",
    "PaddedConvTranspose1D",
    "PaddedConvTranspose2D",
    "PaddedConvTranspose3D",
    "AvgPooling1D",
    "AvgPooling2D",
    "PaddedAvgPooling2D",
    "MaxPooling1D",
    "MaxPooling2D",
    "PaddedMaxPooling2D",
];

/// Kernel, strides, dilations and Aidge's `padding_dims` (begins, then ends; negative
/// for ConvTranspose's cropping) of one window operator.
pub(super) struct Window {
    pub(super) kernel: Vec<u64>,
    pub(super) strides: Vec<u64>,
    pub(super) dilations: Vec<u64>,
    pub(super) pads: Vec<i64>,
}

/// Whose `auto_pad=SAME_*` rule applies: aidge_onnx puts the odd padding element at the
/// end for Conv's SAME_UPPER and at the beginning for the poolings' (sizes only see the
/// sum).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Conv,
    Pool,
}

fn positive(attrs: &Attrs, name: &str, n: usize) -> std::result::Result<Vec<u64>, String> {
    match attrs.ints(name) {
        None => Ok(vec![1; n]),
        Some(v) if v.len() == n && v.iter().all(|&x| x >= 1) => {
            Ok(v.iter().map(|&x| x as u64).collect())
        }
        Some(v) => Err(format!(
            "{name} {v:?} is not {n} positive numbers (its kernel has {n} dims)"
        )),
    }
}

/// The window of a node with kernel `kernel`, padded as aidge_onnx pads it: `pads`, or
/// for auto_pad SAME_UPPER/SAME_LOWER `kernel - stride` split in two (Aidge's rule,
/// whatever the input size and dilation).
fn window(attrs: &Attrs, kernel: Vec<u64>, family: Family) -> std::result::Result<Window, String> {
    let n = kernel.len();
    if !(1..=3).contains(&n) || kernel.contains(&0) {
        return Err(format!("kernel {kernel:?} is not 1, 2 or 3 positive dims"));
    }
    let strides = positive(attrs, "strides", n)?;
    let dilations = positive(attrs, "dilations", n)?;
    let mut pads = match attrs.ints("pads") {
        None => vec![0; 2 * n],
        Some(p) if p.len() == 2 * n && p.iter().all(|&v| v >= 0) => p.to_vec(),
        Some(p) => return Err(format!("pads {p:?} are not {} non-negative numbers", 2 * n)),
    };
    let auto = attrs.string("auto_pad").unwrap_or_default();
    match auto.as_str() {
        "" | "NOTSET" | "VALID" => {}
        "SAME_UPPER" | "SAME_LOWER" => {
            if pads.iter().any(|&p| p != 0) {
                return Err("it has both pads and auto_pad (malformed ONNX)".into());
            }
            let upper = auto == "SAME_UPPER";
            for i in 0..n {
                let total = kernel[i] as i64 - strides[i] as i64;
                let (half, odd) = (total.div_euclid(2), total.rem_euclid(2));
                let odd_first = (family == Family::Pool) == upper;
                pads[i] = half + if odd_first { odd } else { 0 };
                pads[i + n] = half + if odd_first { 0 } else { odd };
            }
        }
        other => return Err(format!("auto_pad={other} is not an ONNX value")),
    }
    Ok(Window {
        kernel,
        strides,
        dilations,
        pads,
    })
}

impl Window {
    fn padded(&self) -> bool {
        self.pads.iter().any(|&p| p != 0)
    }

    /// The input's dims after the meta-operator's Pad.
    fn padded_dims(&self, d: &[u64]) -> std::result::Result<Vec<u64>, String> {
        let n = self.kernel.len();
        let mut out = d.to_vec();
        for i in 0..n {
            let v = d[2 + i] as i64 + self.pads[i] + self.pads[i + n];
            out[2 + i] = u64::try_from(v)
                .map_err(|_| format!("pads {:?} leave nothing of its input {d:?}", self.pads))?;
        }
        Ok(out)
    }

    /// Spatial output dims of a convolution or pooling of an input of dims `d`.
    fn out(&self, d: &[u64], ceil: bool) -> std::result::Result<Vec<u64>, String> {
        let full = self.padded_dims(d)?;
        (0..self.kernel.len())
            .map(|i| {
                let span = self.dilations[i]
                    .saturating_mul(self.kernel[i] - 1)
                    .saturating_add(1);
                let f = full[2 + i];
                if f < span {
                    return Err(format!("the window is larger than its padded input ({f})"));
                }
                let (steps, s) = (f - span, self.strides[i]);
                Ok(if ceil { steps.div_ceil(s) } else { steps / s } + 1)
            })
            .collect()
    }

    /// Elements the inner Pad of a padded meta-operator adds to its input.
    fn padding(&self, d: &[u64]) -> u64 {
        self.padded_dims(d)
            .map_or(0, |p| elements(&p).saturating_sub(elements(d)))
    }
}

/// An input of rank 3 to 5 (N, C and 1 to 3 spatial dims).
fn spatial(x: &Value) -> std::result::Result<&[u64], String> {
    if (3..=5).contains(&x.dims.len()) {
        Ok(&x.dims)
    } else {
        Err(format!(
            "its input has dims {:?}: expected N, C and 1 to 3 spatial dims",
            x.dims
        ))
    }
}

/// A node Aidge 0.10.1 imports as a GenericOperator (every input a data input, read
/// whole), sized by ONNX's rule.
fn generic(op_type: &str, inputs: usize, dims: Vec<u64>) -> AidgeOp {
    AidgeOp {
        sized_by_model: true,
        imported_generic: true,
        ..op(
            op_type,
            vec![Category::Data; inputs],
            vec![Protect::All; inputs],
            dims,
        )
    }
}

/// Conv: `Conv{n}D`, `ConvDepthWise{n}D` when every group has one input channel, a
/// GenericOperator for other groupings.
pub(super) fn conv(attrs: &Attrs, x: &Value, inputs: &[Option<&Value>]) -> OpResult {
    let d = spatial(x)?;
    let w = inputs
        .get(1)
        .copied()
        .flatten()
        .ok_or("its weight input is missing")?;
    if w.dims.len() != d.len() {
        return Err(format!(
            "its weight has dims {:?}, its input {d:?}: ranks differ",
            w.dims
        ));
    }
    let kernel = match attrs.ints("kernel_shape") {
        Some(k) => k.iter().map(|&v| v.max(0) as u64).collect(),
        None => w.dims[2..].to_vec(),
    };
    let win = window(attrs, kernel, Family::Conv)?;
    let n = win.kernel.len();
    if d.len() != n + 2 {
        return Err(format!("its kernel has {n} dims, its input {d:?}"));
    }
    let mut dims = vec![d[0], w.dims[0]];
    dims.extend(win.out(d, false)?);
    let base = match attrs.int("group", 1) {
        1 => format!("Conv{n}D"),
        _ if w.dims[1] == 1 => format!("ConvDepthWise{n}D"),
        _ => return Ok(generic("Conv", inputs.len(), dims)),
    };
    let mut cats = vec![Category::Data, Category::Param, Category::Param];
    cats.truncate(inputs.len());
    finish(base, &win, d, cats, vec![(dims, 4)], inputs.len())
}

/// The node of class `base` (or its `Padded*` meta-operator), or a GenericOperator
/// when aidge_core lacks that class.
fn finish(
    base: String,
    win: &Window,
    d: &[u64],
    inputs: Vec<Category>,
    outputs: Vec<(Vec<u64>, u64)>,
    n_inputs: usize,
) -> OpResult {
    let (kind, protect) = if win.padded() {
        (format!("Padded{base}"), Protect::Padding(win.padding(d)))
    } else {
        (base, Protect::None)
    };
    if !AIDGE_CLASSES.contains(&kind.as_str()) {
        let onnx = if kind.contains("Pooling") {
            if kind.contains("Max") {
                "MaxPool"
            } else {
                "AveragePool"
            }
        } else {
            "Conv"
        };
        let first = outputs.into_iter().next().map(|o| o.0).unwrap_or_default();
        return Ok(generic(onnx, n_inputs, first));
    }
    Ok(AidgeOp {
        kind,
        inputs,
        protect: vec![protect],
        outputs,
        ..op("", Vec::new(), Vec::new(), Vec::new())
    })
}

/// MaxPool and AveragePool. Aidge's MaxPooling has a second output, the argmax
/// indices (int64), that its padded meta-operator does not expose.
pub(super) fn pool(max: bool, attrs: &Attrs, x: &Value) -> OpResult {
    let d = spatial(x)?;
    let kernel: Vec<u64> = attrs
        .ints("kernel_shape")
        .ok_or("kernel_shape is missing")?
        .iter()
        .map(|&v| v.max(0) as u64)
        .collect();
    let win = window(attrs, kernel, Family::Pool)?;
    let n = win.kernel.len();
    if d.len() != n + 2 {
        return Err(format!("its kernel has {n} dims, its input {d:?}"));
    }
    let mut dims = vec![d[0], d[1]];
    dims.extend(win.out(d, attrs.int("ceil_mode", 0) != 0)?);
    let base = format!("{}Pooling{n}D", if max { "Max" } else { "Avg" });
    let outputs = if max && !win.padded() {
        vec![(dims.clone(), 4), (dims, 8)]
    } else {
        vec![(dims, 4)]
    };
    finish(base, &win, d, vec![Category::Data], outputs, 1)
}

/// ConvTranspose: `ConvTranspose{n}D`, whose output
/// `stride·(in−1) + dilation·(kernel−1) + 1` the meta-operator's Pad then crops by the
/// pads (aidge_onnx negates them, adds output_padding at the end, and for auto_pad or
/// output_shape computes them from the input's dims). Groups: Aidge 0.10.1 refuses the
/// model; memplan sizes the node by ONNX's rule.
pub(super) fn conv_transpose(attrs: &Attrs, x: &Value, inputs: &[Option<&Value>]) -> OpResult {
    let d = spatial(x)?;
    let w = inputs
        .get(1)
        .copied()
        .flatten()
        .ok_or("its weight input is missing")?;
    if w.dims.len() != d.len() {
        return Err(format!(
            "its weight has dims {:?}, its input {d:?}: ranks differ",
            w.dims
        ));
    }
    let kernel: Vec<u64> = match attrs.ints("kernel_shape") {
        Some(k) => k.iter().map(|&v| v.max(0) as u64).collect(),
        None => w.dims[2..].to_vec(),
    };
    let n = kernel.len();
    if d.len() != n + 2 || kernel.contains(&0) {
        return Err(format!(
            "its kernel {kernel:?} does not fit its input {d:?}"
        ));
    }
    let strides = positive(attrs, "strides", n)?;
    let dilations = positive(attrs, "dilations", n)?;
    let out_pad = attrs
        .ints("output_padding")
        .map_or(vec![0; n], <[i64]>::to_vec);
    let out_shape = attrs.ints("output_shape");
    if out_pad.len() != n || out_shape.is_some_and(|s| s.len() != n) {
        return Err("output_padding or output_shape does not fit its kernel".into());
    }
    let mut pads = vec![0i64; 2 * n];
    if let Some(p) = attrs.ints("pads") {
        if p.len() != 2 * n {
            return Err(format!("pads {p:?} are not {} numbers", 2 * n));
        }
        if out_shape.is_none() {
            for i in 0..2 * n {
                pads[i] -= p[i];
            }
        }
    }
    let auto = attrs.string("auto_pad").unwrap_or_default();
    let same = matches!(auto.as_str(), "SAME_UPPER" | "SAME_LOWER");
    let span = |i: usize| dilations[i] as i64 * (kernel[i] as i64 - 1) + 1;
    if same || out_shape.is_some() {
        for i in 0..n {
            let (inp, s) = (d[2 + i] as i64, strides[i] as i64);
            let mut total = s * (inp - 1) + out_pad[i] + span(i);
            total -= match out_shape {
                Some(o) => o[i],
                None => inp * s,
            };
            let (half, odd) = (total.div_euclid(2), total.rem_euclid(2));
            if auto == "SAME_UPPER" {
                pads[i] -= half;
                pads[i + n] -= half + odd;
            } else {
                pads[i] -= half + odd;
                pads[i + n] -= half;
            }
        }
    }
    for i in 0..n {
        pads[i + n] += out_pad[i];
    }
    let mut dims = vec![
        d[0],
        w.dims[1].saturating_mul(attrs.int("group", 1).max(1) as u64),
    ];
    for i in 0..n {
        let v = strides[i] as i64 * (d[2 + i] as i64 - 1) + span(i) + pads[i] + pads[i + n];
        dims.push(u64::try_from(v).map_err(|_| "its output would be empty".to_string())?);
    }
    if attrs.int("group", 1) != 1 {
        return Ok(generic("ConvTranspose", inputs.len(), dims));
    }
    let win = Window {
        kernel,
        strides,
        dilations,
        pads,
    };
    let mut cats = vec![Category::Data, Category::Param, Category::Param];
    cats.truncate(inputs.len());
    let base = format!("ConvTranspose{n}D");
    // Its kernel protects nothing, padded or not (the meta-operator's first node is
    // the ConvTranspose itself).
    let kind = if win.padded() {
        format!("Padded{base}")
    } else {
        base
    };
    Ok(AidgeOp {
        kind,
        inputs: cats,
        protect: vec![Protect::None],
        outputs: vec![(dims, 4)],
        ..op("", Vec::new(), Vec::new(), Vec::new())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_size_as_onnx() {
        let win = Window {
            kernel: vec![3, 3],
            strides: vec![2, 2],
            dilations: vec![1, 1],
            pads: vec![1; 4],
        };
        assert_eq!(win.out(&[1, 64, 112, 112], false).unwrap(), [56, 56]);
        assert_eq!(
            win.padding(&[1, 64, 112, 112]),
            64 * (114 * 114 - 112 * 112)
        );
        let ceil = Window {
            pads: vec![0; 4],
            ..win
        };
        assert_eq!(ceil.out(&[1, 1, 111, 111], true).unwrap(), [55, 55]);
        assert_eq!(ceil.out(&[1, 1, 54, 54], true).unwrap(), [27, 27]);
        let one = Window {
            kernel: vec![3],
            strides: vec![2],
            dilations: vec![1],
            pads: vec![1, 1],
        };
        // Whisper's second encoder conv: 3000 frames → 1500.
        assert_eq!(one.out(&[1, 384, 3000], false).unwrap(), [1500]);
    }
}
