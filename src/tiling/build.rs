//! A stage rewritten patch by patch: per patch a Slice of the graph input, the
//! stage's nodes copied with their own pads (and Slice crops where a consumer needs
//! less than was computed), then Concats that write the cut tensor's own name.

use super::region::Span;
use super::stage::{node_name, Graph, Kind, Stage, WindowOp};
use crate::formats::onnx::write::{AttributeOut, NewNode, NodeOut, Rewrite, TensorOut};
use crate::{Error, Result};
use std::collections::{HashMap, HashSet};

/// A region of a tensor: rows and columns.
pub type Rect = [Span; 2];

/// What one patch computes: its region of the cut tensor and of the graph input.
#[derive(Debug, Clone)]
pub struct Patch {
    pub cut: Rect,
    pub input: Rect,
}

/// The rewrite of a stage in `rows × cols` patches and what the patches read.
pub struct Built {
    pub rewrite: Rewrite,
    pub patches: Vec<Patch>,
}

/// `n` near-equal parts of `[0, extent)`.
fn split(extent: i64, n: i64) -> Vec<Span> {
    (0..n)
        .map(|i| Span::new(i * extent / n, (i + 1) * extent / n))
        .collect()
}

/// Names of the Slice operands, shared between patches with the same values.
struct Operands {
    prefix: String,
    made: HashMap<Vec<i64>, String>,
    tensors: Vec<TensorOut>,
}

impl Operands {
    fn get(&mut self, values: Vec<i64>) -> String {
        if let Some(n) = self.made.get(&values) {
            return n.clone();
        }
        let name = format!("{}{}", self.prefix, self.made.len());
        self.tensors.push(TensorOut::int64s(&name, &values));
        self.made.insert(values, name.clone());
        name
    }
}

fn slice_node(
    ops: &mut Operands,
    name: String,
    from: &str,
    to: &str,
    start: [i64; 2],
    end: [i64; 2],
) -> NewNode {
    let starts = ops.get(start.to_vec());
    let ends = ops.get(end.to_vec());
    let axes = ops.get(vec![2, 3]);
    NewNode::Fresh(NodeOut {
        input: vec![from.into(), starts, ends, axes],
        output: vec![to.into()],
        name,
        op_type: "Slice".into(),
        attribute: Vec::new(),
        domain: String::new(),
    })
}

fn concat_node(name: String, inputs: Vec<String>, output: String, axis: i64) -> NewNode {
    NewNode::Fresh(NodeOut {
        input: inputs,
        output: vec![output],
        name,
        op_type: "Concat".into(),
        attribute: vec![AttributeOut::int("axis", axis)],
        domain: String::new(),
    })
}

/// The stage of `graph` in `rows × cols` patches of its cut tensor.
pub fn build(graph: &Graph, stage: &Stage, rows: i64, cols: i64) -> Result<Built> {
    let last = stage
        .nodes
        .last()
        .ok_or_else(|| Error::whole("an empty stage"))?;
    let [_, _, h, w] = last.dims;
    if rows > h || cols > w {
        return Err(Error::whole(format!(
            "{rows}×{cols} patches over a {h}×{w} tensor"
        )));
    }
    let names: HashSet<&str> = graph
        .proto
        .node
        .iter()
        .flat_map(|n| n.output.iter().chain(n.input.iter()).chain(n.name.iter()))
        .chain(
            graph
                .proto
                .initializer
                .iter()
                .filter_map(|t| t.name.as_ref()),
        )
        .map(String::as_str)
        .collect();
    let mut prefix = "memplan_tile_".to_string();
    while names.iter().any(|n| n.starts_with(&prefix)) {
        prefix.insert(0, '_');
    }
    let mut ops = Operands {
        prefix: format!("{prefix}const_"),
        made: HashMap::new(),
        tensors: Vec::new(),
    };
    let dims: HashMap<&str, [i64; 4]> = std::iter::once((graph.input.as_str(), graph.input_dims))
        .chain(stage.nodes.iter().map(|n| (n.output.as_str(), n.dims)))
        .collect();
    let mut nodes = Vec::new();
    let mut patches = Vec::new();
    let mut row_outputs = Vec::new();
    for (r, rs) in split(h, rows).into_iter().enumerate() {
        let mut row = Vec::new();
        for (c, cs) in split(w, cols).into_iter().enumerate() {
            let tag = format!("_p{r}_{c}");
            let patch = [rs, cs];
            let (mut new, input) = patch_nodes(graph, stage, &dims, patch, &tag, &mut ops)?;
            nodes.append(&mut new);
            patches.push(Patch { cut: patch, input });
            row.push(format!("{}{tag}", stage.cut));
        }
        row_outputs.push(row);
    }
    // Per row on W, then the rows on H; one Concat when one axis is split.
    if cols == 1 || rows == 1 {
        let all: Vec<String> = row_outputs.into_iter().flatten().collect();
        let axis = if cols == 1 { 2 } else { 3 };
        nodes.push(concat_node(
            format!("{prefix}concat"),
            all,
            stage.cut.clone(),
            axis,
        ));
    } else {
        let mut rows_out = Vec::new();
        for (r, row) in row_outputs.into_iter().enumerate() {
            let out = format!("{}_row{r}", stage.cut);
            nodes.push(concat_node(
                format!("{prefix}concat_row{r}"),
                row,
                out.clone(),
                3,
            ));
            rows_out.push(out);
        }
        nodes.push(concat_node(
            format!("{prefix}concat"),
            rows_out,
            stage.cut.clone(),
            2,
        ));
    }
    let rewrite = Rewrite {
        remove: stage.nodes.iter().map(|n| n.index).collect(),
        insert_at: last.index,
        nodes,
        initializers: ops.tensors,
        drop_value_info: stage
            .nodes
            .iter()
            .map(|n| n.output.clone())
            .filter(|t| *t != stage.cut)
            .collect(),
    };
    Ok(Built { rewrite, patches })
}

/// One patch's nodes, and the region of the graph input it reads.
fn patch_nodes(
    graph: &Graph,
    stage: &Stage,
    dims: &HashMap<&str, [i64; 4]>,
    patch: Rect,
    tag: &str,
    ops: &mut Operands,
) -> Result<(Vec<NewNode>, Rect)> {
    // Backwards: the region each tensor must have (the bounding box of what its
    // consumers read), and per node the region it reads of each input and its pads.
    let mut need: HashMap<&str, Rect> = HashMap::new();
    need.insert(stage.cut.as_str(), patch);
    let mut wants: HashMap<(usize, usize), Rect> = HashMap::new();
    let mut pads: HashMap<usize, [i64; 4]> = HashMap::new();
    for (k, n) in stage.nodes.iter().enumerate().rev() {
        let Some(&out) = need.get(n.output.as_str()) else {
            continue;
        };
        let node = &graph.proto.node[n.index];
        for &slot in &n.data_inputs {
            let name = node.input[slot].as_str();
            let d = dims[name];
            let want = match &n.kind {
                Kind::Window(_, win) => {
                    let (hs, hb, he) = win[0].input(out[0], d[2]);
                    let (ws, wb, we) = win[1].input(out[1], d[3]);
                    pads.insert(k, [hb, wb, he, we]);
                    [hs, ws]
                }
                Kind::Pointwise => out,
            };
            wants.insert((k, slot), want);
            let e = need.entry(name).or_insert(want);
            *e = [e[0].union(want[0]), e[1].union(want[1])];
        }
    }
    let input = *need
        .get(graph.input.as_str())
        .ok_or_else(|| Error::whole("the stage does not read the graph input"))?;
    let mut nodes = vec![slice_node(
        ops,
        format!("{}{tag}_slice", graph.input),
        &graph.input,
        &format!("{}{tag}", graph.input),
        [input[0].start, input[1].start],
        [input[0].end, input[1].end],
    )];
    let mut crops: HashMap<(&str, Rect), String> = HashMap::new();
    for (k, n) in stage.nodes.iter().enumerate() {
        if !need.contains_key(n.output.as_str()) {
            continue;
        }
        let node = &graph.proto.node[n.index];
        let name = node_name(node, n.index);
        let mut input = node.input.clone();
        for &slot in &n.data_inputs {
            let t = node.input[slot].as_str();
            let have = need[t];
            let want = wants[&(k, slot)];
            let computed = format!("{t}{tag}");
            input[slot] = if want == have {
                computed
            } else {
                let key = (t, want);
                if let Some(c) = crops.get(&key) {
                    c.clone()
                } else {
                    let crop = format!("{t}{tag}_crop{}", crops.len());
                    nodes.push(slice_node(
                        ops,
                        format!("{crop}_slice"),
                        &computed,
                        &crop,
                        [want[0].start - have[0].start, want[1].start - have[1].start],
                        [want[0].end - have[0].start, want[1].end - have[1].start],
                    ));
                    crops.insert(key, crop.clone());
                    crop
                }
            };
        }
        let (replace, attributes) = match (&n.kind, pads.get(&k)) {
            (Kind::Window(op, _), Some(p)) => {
                let mut replace = vec!["pads", "auto_pad"];
                if *op != WindowOp::Conv {
                    // The patch's own pads give its exact output length with floor.
                    replace.push("ceil_mode");
                }
                (replace, vec![AttributeOut::ints("pads", p.to_vec())])
            }
            _ => (Vec::new(), Vec::new()),
        };
        nodes.push(NewNode::Copy {
            index: n.index,
            name: format!("{name}{tag}"),
            input,
            output: vec![format!("{}{tag}", n.output)],
            replace,
            attributes,
        });
    }
    Ok((nodes, input))
}
