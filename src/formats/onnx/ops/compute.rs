//! Operators that compute over whole axes: MatMul, Gemm, Einsum, the recurrent cells, the
//! sliding windows (`window`), the normalizations and the reductions.

use super::*;

/// The conversion of `n` if it is an operator of this family.
pub(super) fn convert(n: &Node) -> Option<OpResult> {
    Some(match n.op_type {
        "MatMul" => mat_mul(n),
        "InstanceNormalization" => instance_norm(n),
        "LSTM" | "GRU" => n
            .x()
            .and_then(|x| recurrent(n.op_type, n.attrs, x, n.inputs)),
        "Conv" => n.x().and_then(|x| window::conv(n.attrs, x, n.inputs)),
        "ConvTranspose" => n
            .x()
            .and_then(|x| window::conv_transpose(n.attrs, x, n.inputs)),
        "MaxPool" => n.x().and_then(|x| window::pool(true, n.attrs, x)),
        "AveragePool" => n.x().and_then(|x| window::pool(false, n.attrs, x)),
        "GlobalAveragePool" => global_average_pool(n),
        "BatchNormalization" => batch_norm(n),
        "LayerNormalization" => layer_norm(n),
        "Gemm" => gemm(n.attrs, n.inputs),
        "ReduceMean" | "ReduceSum" | "ReduceMax" | "ReduceMin" | "ReduceL1" | "ReduceL2" => {
            reduce_node(n)
        }
        "ArgMax" => arg_max(n),
        "Einsum" => einsum_node(n),
        _ => return None,
    })
}

fn mat_mul(n: &Node) -> OpResult {
    let inputs = n.inputs;
    let (a, b) = two(inputs)?;
    let dims = matmul(&a.dims, &b.dims)?;
    Ok(op(
        "MatMul",
        vec![Category::Data; 2],
        vec![Protect::All; 2],
        dims,
    ))
}

fn instance_norm(n: &Node) -> OpResult {
    let inputs = n.inputs;
    if inputs.len() != 3 {
        return Err("it needs its input, scale and bias".into());
    }
    let mut o = unary("InstanceNorm", n.x()?, Naming::Node)?;
    o.inputs = vec![Category::Data, Category::Param, Category::Param];
    Ok(o)
}

fn global_average_pool(n: &Node) -> OpResult {
    let d = rank4(n.x()?)?;
    Ok(op(
        "GlobalAveragePooling",
        vec![Category::Data],
        vec![Protect::All],
        vec![d[0], d[1], 1, 1],
    ))
}

fn batch_norm(n: &Node) -> OpResult {
    let attrs = n.attrs;
    if attrs.int("training_mode", 0) != 0 {
        return Err("training_mode=1 is not supported".into());
    }
    // aidge_onnx imports every BatchNormalization as BatchNorm2D, whose forward_dims
    // sizes any input with a channel axis (rank 2, 3 as BatchNorm1d's tokens, 4 or 5;
    // probed on aidge_core 0.10.1): its output has its input's dims.
    let d = n.x()?.dims.clone();
    if d.len() < 2 {
        return Err(format!(
            "its input has dims {d:?}, no channel axis (Aidge's BatchNorm2D needs rank 2 or more)"
        ));
    }
    let mut cats = vec![Category::Data];
    cats.extend([Category::Param; 4]);
    Ok(op("BatchNorm2D", cats, vec![Protect::None], d))
}

fn layer_norm(n: &Node) -> OpResult {
    let inputs = n.inputs;
    let d = n.x()?.dims.clone();
    let n = inputs.len().min(3);
    Ok(op(
        "LayerNorm",
        vec![Category::Data; n],
        vec![Protect::None; n],
        d,
    ))
}

fn reduce_node(n: &Node) -> OpResult {
    let (op_type, attrs, inputs) = (n.op_type, n.attrs, n.inputs);
    let v = n.x()?;
    let axes = axes_of(attrs, n.input(1), "axes")?.unwrap_or_default();
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

fn arg_max(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let v = n.x()?;
    let a = axis(attrs.int("axis", 0), v.dims.len())?;
    let dims = reduce(&v.dims, &[a], attrs.int("keepdims", 1) != 0, false);
    // Its indices stay int64 when the graph is set to float32.
    let mut o = op("ArgMax", vec![Category::Data], vec![Protect::All], dims);
    o.outputs[0].1 = 8;
    Ok(o)
}

fn einsum_node(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
    let vals: Vec<&Value> = inputs
        .iter()
        .map(|v| v.ok_or_else(|| "an input is missing".to_string()))
        .collect::<std::result::Result<_, _>>()?;
    let eq = attrs.string("equation").ok_or("it has no equation")?;
    let dims = einsum(&eq, &vals)?;
    Ok(AidgeOp {
        sized_by_model: true,
        imported_generic: true,
        ..op(
            "Einsum",
            vec![Category::Data; vals.len()],
            vec![Protect::All; vals.len()],
            dims,
        )
    })
}

/// Numpy matmul's shape (batch dims broadcast, 1-D operands promoted).
pub(crate) fn matmul(a: &[u64], b: &[u64]) -> std::result::Result<Vec<u64>, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_follows_numpy() {
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
