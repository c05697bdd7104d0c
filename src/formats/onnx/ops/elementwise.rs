//! Element-wise operators: the in-place unary kernels' neighbours (Clip, Cast, Identity,
//! Dropout, Trilu, Hardmax, the (De)Quantizers) and the broadcasting binary ones, whose
//! constant values memplan folds (Shape arithmetic feeds Reshape and Slice).

use super::*;

/// The conversion of `n` if it is an operator of this family.
pub(super) fn convert(n: &Node) -> Option<OpResult> {
    Some(match n.op_type {
        "Clip" => clip(n),
        "Cast" => cast(n),
        "Identity" => identity(n),
        "Add" | "Mul" | "Div" | "Sub" | "Pow" | "Equal" | "Greater" | "GreaterOrEqual" | "Less"
        | "LessOrEqual" | "And" | "Mod" | "Max" | "Min" | "Sum" => binary(n),
        "Where" => where_(n),
        "Hardmax" => hardmax(n),
        "Dropout" => dropout(n),
        "Trilu" => trilu(n),
        "BitShift" => bit_shift(n),
        "QuantizeLinear" | "DequantizeLinear" => quantize(n),
        _ => return None,
    })
}

fn clip(n: &Node) -> OpResult {
    let inputs = n.inputs;
    // Clip's min and max are attribute inputs; the converter names no node.
    let mut op = unary("Clip", n.x()?, Naming::Nameless)?;
    op.inputs = vec![Category::Data, Category::Param, Category::Param];
    op.inputs.truncate(inputs.len().max(1));
    Ok(op)
}

fn cast(n: &Node) -> OpResult {
    let attrs = n.attrs;
    // Its output has the type it casts to (set_datatype leaves it); a type Aidge
    // has no dtype for makes aidge_onnx import a GenericOperator.
    let to = attrs.int("to", 0);
    if !matches!(to, 1..=7 | 9..=13 | 16 | 21 | 22) {
        return Ok(AidgeOp {
            sized_by_model: true,
            imported_generic: true,
            ..op(
                "Cast",
                vec![Category::Data],
                vec![Protect::All],
                n.x()?.dims.clone(),
            )
        });
    }
    let v = n.x()?;
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

fn identity(n: &Node) -> OpResult {
    let op_type = n.op_type;
    let v = n.x()?;
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

fn binary(n: &Node) -> OpResult {
    let (op_type, attrs, inputs) = (n.op_type, n.attrs, n.inputs);
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
    if matches!(
        op_type,
        "Greater" | "GreaterOrEqual" | "Less" | "LessOrEqual"
    ) {
        // Their output stays boolean (1 byte) when the graph is set to float32
        // (aidge_core 0.10.1, ONNX's node tests: tests/parity/onnx_nodes_diff.py).
        o.outputs[0].1 = 1;
    }
    if vals.len() == 2 {
        let fmod = attrs.int("fmod", 0) != 0;
        o.values = vec![arith(op_type, vals[0], vals[1], &dims, fmod)];
    }
    Ok(o)
}

fn where_(n: &Node) -> OpResult {
    let inputs = n.inputs;
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

fn hardmax(n: &Node) -> OpResult {
    Ok(AidgeOp {
        protect: vec![Protect::All],
        ..unary("Hardmax", n.x()?, Naming::Output)?
    })
}

fn dropout(n: &Node) -> OpResult {
    let inputs = n.inputs;
    // aidge_backend_cpu's Dropout kernel is not registered in place: it protects its
    // whole input (the wheel's getNbRequiredProtected); Aidge's operator always has
    // the mask output, boolean, of its input's dims (ONNX's node tests on the wheel).
    let mut o = AidgeOp {
        protect: vec![Protect::All],
        ..unary("Dropout", n.x()?, Naming::Node)?
    };
    let mask = (o.outputs[0].0.clone(), 1);
    o.outputs.push(mask);
    o.inputs = vec![Category::Data, Category::Param, Category::Param];
    o.inputs.truncate(inputs.len().max(1));
    Ok(o)
}

fn trilu(n: &Node) -> OpResult {
    let inputs = n.inputs;
    let mut o = unary("Trilu", n.x()?, Naming::Output)?;
    o.inputs = vec![Category::Data, Category::Param];
    o.inputs.truncate(inputs.len().max(1));
    Ok(o)
}

fn bit_shift(n: &Node) -> OpResult {
    let inputs = n.inputs;
    // aidge_onnx 0.10.1's converter fails on every BitShift (it reads
    // `BitShiftOp.direction`, which aidge_core does not bind): a GenericOperator
    // Aidge cannot size, sized here by ONNX's broadcasting.
    let (a, b) = two(inputs)?;
    Ok(AidgeOp {
        sized_by_model: true,
        imported_generic: true,
        ..op(
            "BitShift",
            vec![Category::Data; 2],
            vec![Protect::All; 2],
            broadcast(&a.dims, &b.dims)?,
        )
    })
}

fn quantize(n: &Node) -> OpResult {
    let op_type = n.op_type;
    // aidge_onnx folds the scale and zero point into Aidge's (De)Quantizer: their
    // Producers are not in Aidge's graph.
    let kind = if op_type == "QuantizeLinear" {
        "Quantizer"
    } else {
        "Dequantizer"
    };
    let mut o = AidgeOp {
        protect: vec![Protect::All],
        ..unary(kind, n.x()?, Naming::Node)?
    };
    if kind == "Quantizer" {
        // Its output has its zero point's type (uint8 when there is none).
        o.outputs[0].1 = n.input(2).map_or(1, |z| z.element_bytes);
    }
    Ok(o)
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
