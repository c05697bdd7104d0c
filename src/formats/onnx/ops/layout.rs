//! Operators that move or resize data without arithmetic: Reshape, Transpose, Concat, Slice,
//! Split, Pad, Resize, ... and the shape producers (Shape, Size, Range, ConstantOfShape) whose
//! values memplan folds.

use super::*;

/// The conversion of `n` if it is an operator of this family.
pub(super) fn convert(n: &Node) -> Option<OpResult> {
    Some(match n.op_type {
        "DepthToSpace" => depth_to_space(n),
        "Size" => size(n),
        "Concat" => concat(n),
        "Flatten" => flatten(n),
        "Reshape" => n.x().and_then(|x| reshape(n.attrs, x, n.inputs)),
        "Transpose" => transpose(n),
        "Shape" => shape(n),
        "Unsqueeze" => unsqueeze(n),
        "Squeeze" => squeeze(n),
        "Slice" => n.x().and_then(|x| slice(x, n.inputs, n.rules)),
        "Split" => n.x().and_then(|x| split(n.attrs, x, n.inputs, n.outputs)),
        "Expand" => expand(n),
        "Tile" => tile(n),
        "ConstantOfShape" => constant_of_shape(n),
        "Range" => range(n),
        "Pad" => pad(n),
        "Resize" => n.x().and_then(|x| resize(n.attrs, x, n.inputs)),
        _ => return None,
    })
}

fn depth_to_space(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let d = n.x()?.dims.clone();
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

fn size(n: &Node) -> OpResult {
    // Like Shape: its input is no data input of Aidge's node.
    let n = elements(&n.x()?.dims);
    let mut o = op("Size", vec![Category::Param], vec![], vec![1]);
    o.outputs[0].1 = 8;
    o.naming = Naming::Output;
    o.values = vec![i64::try_from(n).ok().map(|n| vec![n])];
    Ok(o)
}

fn concat(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
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

fn flatten(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let d = &n.x()?.dims;
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

fn transpose(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let d = &n.x()?.dims;
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
    let values = n.x()?.values.as_ref().and_then(|v| {
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

fn shape(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let d = &n.x()?.dims;
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

fn unsqueeze(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let v = n.x()?;
    let axes = axes_of(attrs, n.input(1), "axes")?.ok_or("its axes are not constant")?;
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

fn squeeze(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let v = n.x()?;
    let axes = axes_of(attrs, n.input(1), "axes")?.unwrap_or_default();
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

fn expand(n: &Node) -> OpResult {
    let inputs = n.inputs;
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

fn tile(n: &Node) -> OpResult {
    let inputs = n.inputs;
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

fn constant_of_shape(n: &Node) -> OpResult {
    let attrs = n.attrs;
    let s = n.x()?;
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

fn range(n: &Node) -> OpResult {
    let scalar = |i: usize| -> std::result::Result<i64, String> {
        n.input(i)
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

fn pad(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
    let v = n.x()?;
    let pads = match n.input(1) {
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
        // keep_aspect_ratio_policy (opset 18): one scale for every axis given, the least
        // (not_larger) or the greatest (not_smaller) of sizes / dims, rounded half up
        // (ONNX's reference implementation).
        let policy = attrs.string("keep_aspect_ratio_policy");
        if let Some(pick) = policy.as_deref().filter(|p| *p != "stretch") {
            let ratios = at.iter().map(|&a| dims[a] as f64 / x.dims[a].max(1) as f64);
            let scale = match pick {
                "not_larger" => ratios.fold(f64::INFINITY, f64::min),
                "not_smaller" => ratios.fold(0.0, f64::max),
                _ => return Err(format!("keep_aspect_ratio_policy '{pick}' is not ONNX's")),
            };
            for &a in &at {
                dims[a] = (scale * x.dims[a] as f64 + 0.5) as u64;
            }
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
}
