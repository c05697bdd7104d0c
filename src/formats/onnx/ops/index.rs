//! Operators that index: Gather*, Scatter, TopK, OneHot, GridSample.

use super::*;

/// The conversion of `n` if it is an operator of this family.
pub(super) fn convert(n: &Node) -> Option<OpResult> {
    Some(match n.op_type {
        "TopK" => top_k(n),
        "GatherND" => gather_nd(n),
        "ScatterElements" => scatter_elements(n),
        "OneHot" => one_hot(n),
        "GridSample" => grid_sample(n),
        "Gather" => gather(n),
        "GatherElements" => gather_elements(n),
        _ => return None,
    })
}

fn top_k(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
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

fn gather_nd(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
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

fn scatter_elements(n: &Node) -> OpResult {
    let v = n.x()?;
    Ok(op(
        "Scatter",
        vec![Category::Data, Category::Param, Category::Data],
        vec![Protect::None; 2],
        v.dims.clone(),
    ))
}

fn one_hot(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
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

fn grid_sample(n: &Node) -> OpResult {
    let inputs = n.inputs;
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

fn gather(n: &Node) -> OpResult {
    let (attrs, inputs) = (n.attrs, n.inputs);
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

fn gather_elements(n: &Node) -> OpResult {
    let inputs = n.inputs;
    let (_, idx) = two(inputs)?;
    Ok(op(
        "GatherElements",
        vec![Category::Data, Category::Param],
        vec![Protect::All],
        idx.dims.clone(),
    ))
}
