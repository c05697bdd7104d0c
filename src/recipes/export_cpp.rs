//! What `aidge_core.export_utils.export(graph, ExportConfig(target="host"))` with
//! aidge-export-cpp 0.10.1 does to an imported graph before it plans its memory
//! (`prepare_export`: `expand_metaops`, `constant_folding`, `adapt_graph` with the
//! export library's fusions and data formats, `adapt_to_backend`), read from the 0.10.1
//! wheels and checked node by node against the real export on 19 torchvision CNNs and a
//! ViT (`tests/parity/recipes_diff.py`, `tests/recipes.rs`):
//!
//! - `Flatten` is removed (`aidge_core.remove_flatten`; the export has no Flatten
//!   kernel and a Flatten moves no byte);
//! - nodes computing constants only are folded into Producers;
//! - `HardSwish` is expanded (Identity → HardSigmoid → Mul), and a `HardSigmoid` whose
//!   one reader is a `Mul` of something else is fused into the export's `HardSwish`
//!   (its pattern `HardSigmoid->Mul`: squeeze-excitation gates match it);
//! - a convolution, pooling, FC or element-wise node followed by its one reader, a
//!   `ReLU`, becomes the `…Act` meta-operator; padded convolutions and poolings become
//!   `PadConv`, `PadConvDw`, `PadMaxPool`, `PadAvgPool`, and a padded MaxPool's index
//!   output is a graph output of the meta-operator (planned: the export's
//!   MaxPooling2D hotfix does not see it);
//! - the convolutions and poolings compute NHWC (channels last, planned per pixel), and
//!   so does what follows them; MatMul computes channels first and Reshape in no format
//!   (a Transpose to NCHW goes before a Reshape of an NHWC tensor); around the kernels
//!   the library has only in NCHW (BatchNorm2D, Pad, InstanceNorm) a `Transpose` is
//!   inserted on each side;
//! - each input's protected elements are the export's consumer-producer models'
//!   (`ProdConso.in_place_model`: none; `IdentityProdConso`: none; the others: the
//!   whole input. The convolutions' and poolings' `PaddedInPlace_CP` margin needs the
//!   stride and padding, which a schedule does not hold: memplan protects the whole
//!   input, so no plan of it wraps an output over such an input, which is what the
//!   export's default, without wrap-around, does anyway).
//!
//! The export's default data format (`dformat=None`) is what this reproduces: the
//! graph input taken as channels-last, no Transpose at the input.

use super::graph::{GNode, Graph, In, Out};
use super::Note;

/// Kinds whose kernel protects no element of its inputs: the output may be computed
/// in place (aidge-export-cpp's `ProdConso.in_place_model` and `IdentityProdConso`).
const IN_PLACE: &[&str] = &[
    "Abs",
    "Add",
    "AddAct",
    "And",
    "Asin",
    "BatchNorm2D",
    "BitShift",
    "Clip",
    "Div",
    "DivAct",
    "Equal",
    "Erf",
    "GeLU",
    "GlobalAveragePooling",
    "GlobalAvgPoolAct",
    "Greater",
    "GreaterOrEqual",
    "HardSigmoid",
    "HardSwish",
    "Identity",
    "InstanceNorm",
    "LeakyReLU",
    "Less",
    "LessOrEqual",
    "Ln",
    "Max",
    "Min",
    "Mul",
    "MulAct",
    "Neg",
    "Not",
    "Pow",
    "PowAct",
    "QAdd",
    "QDiv",
    "QMul",
    "QPow",
    "QSub",
    "ReLU",
    "Reciprocal",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceSum",
    "Reshape",
    "Round",
    "Sigmoid",
    "Softmax",
    "Sqrt",
    "Squeeze",
    "Sub",
    "SubAct",
    "Sum",
    "Tanh",
    "Unsqueeze",
    "Where",
];

/// Kinds aidge-quantization 0.10.1's PTQ refuses ("GraphView can't be quantized: node
/// type … is not supported"), seen on MobileNet-v3 (HardSigmoid) and MNASNet as
/// torchvision exports it (ReduceMean): the export then stays float32.
/// (The export's own HardSwish is a HardSigmoid fused with a Mul: the quantizer, which
/// runs on the expanded graph, sees the HardSigmoid.)
const NOT_QUANTIZABLE: &[&str] = &["HardSigmoid", "HardSwish", "ReduceMean"];

/// What `export(..., ExportConfig(dtype="int8"))` adds to the graph it plans: the
/// post-training quantization (`quantize_network`, single shift) rescales each
/// operand of an element-wise Add that another node also reads with a `Quantizer` of
/// its own (the producer's own rescaling serves its other readers), fuses the others
/// into their producer (`QConv`, `QFC`, `QAdd`; `…Act` keep their names), and every
/// activation is int8 (MaxPool's indices stay int64). Checked against the real host
/// export of ResNet-18, SqueezeNet-1.1 and MNASNet-0.5 (tests/parity/recipes_diff.py
/// --dtype int8). `Err(kind)`: the node kind the quantizer refuses, in its words; the
/// graph as it was.
pub(super) fn quantize(g: &mut Graph, notes: &mut Vec<Note>) -> Result<(), String> {
    let mut refused: Vec<&GNode> = g
        .nodes
        .iter()
        .filter(|n| n.alive && NOT_QUANTIZABLE.contains(&n.kind.as_str()))
        .collect();
    refused.sort_by_key(|n| n.order);
    if let Some(n) = refused.first() {
        return Err(match n.kind.as_str() {
            "HardSwish" => "HardSigmoid".into(),
            kind => kind.into(),
        });
    }
    let mut quantizers = 0;
    for n in 0..g.nodes.len() {
        let node = &g.nodes[n];
        if !node.alive || node.producer || !matches!(node.kind.as_str(), "Add" | "AddAct") {
            continue;
        }
        for k in 0..node.inputs.len() {
            let Some((p, o)) = g.nodes[n].inputs[k].source else {
                continue;
            };
            if g.nodes[p].producer || g.readers(p, o).len() < 2 {
                continue;
            }
            let out = g.nodes[p].outputs[o].clone();
            let elements = out.elements();
            let order = g.nodes[n].order;
            let q = g.push(GNode {
                name: format!("{}_quantizer_{k}", g.nodes[n].name),
                kind: "Quantizer".into(),
                producer: false,
                sized_by_model: g.nodes[n].sized_by_model,
                inputs: vec![In {
                    source: Some((p, o)),
                    data: elements,
                    protected: elements,
                }],
                outputs: vec![Out {
                    graph_output: false,
                    ..out
                }],
                param_readers: vec![Vec::new()],
                order: (order.0, order.1 - 1),
                alive: true,
            });
            g.nodes[n].inputs[k].source = Some((q, 0));
            quantizers += 1;
        }
    }
    for node in g.nodes.iter_mut().filter(|n| n.alive && !n.producer) {
        let renamed = match node.kind.as_str() {
            "Conv2D" => "QConv",
            "ConvDepthWise2D" => "QConvDw",
            "FC" => "QFC",
            "Add" => "QAdd",
            "Sub" => "QSub",
            "Mul" => "QMul",
            _ => continue,
        };
        node.kind = renamed.into();
    }
    if quantizers > 0 {
        notes.push(Note::whole(format!(
            "{quantizers} Quantizer(s) inserted on the operands of Adds that other nodes also \
             read (aidge-quantization's post-training quantization)"
        )));
    }
    Ok(())
}

/// Kinds whose kernel reads its data input in NCHW only: a Transpose goes on each side.
const NCHW_ONLY: &[&str] = &["BatchNorm2D", "Pad", "InstanceNorm"];

/// Kinds aidge-export-cpp 0.10.1 has a kernel for (its `_export_node_registry`, after
/// the fusions below), apart from the ones this recipe makes.
const KERNELS: &[&str] = &[
    "Abs",
    "Add",
    "And",
    "ArgMax",
    "Asin",
    "AvgPooling2D",
    "BatchNorm2D",
    "BitShift",
    "Cast",
    "Clip",
    "Concat",
    "Conv1D",
    "Conv2D",
    "ConvDepthWise2D",
    "ConvTranspose2D",
    "Div",
    "Equal",
    "Erf",
    "Expand",
    "FC",
    "Gather",
    "GlobalAveragePooling",
    "Greater",
    "GreaterOrEqual",
    "HardSigmoid",
    "Hardmax",
    "Identity",
    "InstanceNorm",
    "LayerNorm",
    "LeakyReLU",
    "Less",
    "LessOrEqual",
    "Ln",
    "MatMul",
    "Max",
    "MaxPooling2D",
    "Min",
    "Mul",
    "Neg",
    "Not",
    "Pad",
    "Pow",
    "ReLU",
    "Reciprocal",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceSum",
    "Reshape",
    "Resize",
    "Round",
    "Shape",
    "Sigmoid",
    "Slice",
    "Softmax",
    "Split",
    "Sqrt",
    "Squeeze",
    "Sub",
    "Sum",
    "Tanh",
    "Tile",
    "Transpose",
    "Unsqueeze",
    "Where",
];

/// The export's meta-operator for `kind` (a padded one when the import made it
/// padded), and the one when a ReLU is fused after it.
fn fused(kind: &str) -> Option<(&'static str, &'static str)> {
    Some(match kind {
        "Conv2D" => ("Conv2D", "ConvAct"),
        "PaddedConv2D" => ("PadConv", "PadConvAct"),
        "ConvDepthWise2D" => ("ConvDepthWise2D", "ConvDwAct"),
        "PaddedConvDepthWise2D" => ("PadConvDw", "PadConvDwAct"),
        "Conv1D" => ("Conv1D", "Conv1DAct"),
        "PaddedConv1D" => ("PadConv1D", "PadConv1DAct"),
        "MaxPooling2D" => ("MaxPooling2D", "MaxPoolAct"),
        "PaddedMaxPooling2D" => ("PadMaxPool", "PadMaxPoolAct"),
        "AvgPooling2D" => ("AvgPooling2D", "AvgPoolAct"),
        "PaddedAvgPooling2D" => ("PadAvgPool", "PadAvgPoolAct"),
        "FC" => ("FC", "FCAct"),
        "Add" => ("Add", "AddAct"),
        "Sub" => ("Sub", "SubAct"),
        "Mul" => ("Mul", "MulAct"),
        "Div" => ("Div", "DivAct"),
        "Pow" => ("Pow", "PowAct"),
        _ => return None,
    })
}

/// The kinds the rewritten graphs of the 19 CNNs and ViT-tiny checked against the real
/// export hold (`tests/parity/recipes_diff.py --all`): a graph with any other is an
/// estimate.
const VERIFIED: &[&str] = &[
    "Add",
    "AddAct",
    "AvgPooling2D",
    "BatchNorm2D",
    "Clip",
    "Concat",
    "Conv2D",
    "ConvAct",
    "Div",
    "Erf",
    "FC",
    "FCAct",
    "Gather",
    "GlobalAveragePooling",
    "HardSigmoid",
    "HardSwish",
    "Identity",
    "LayerNorm",
    "MatMul",
    "MaxPooling2D",
    "Mul",
    "PadAvgPool",
    "PadConv",
    "PadConvAct",
    "PadConvDw",
    "PadConvDwAct",
    "PadMaxPool",
    "QAdd",
    "QConv",
    "QFC",
    "Quantizer",
    "ReLU",
    "ReduceMean",
    "Reshape",
    "Sigmoid",
    "Softmax",
    "Tanh",
    "Transpose",
];

/// Rewrites `g` as the export does; what happened, node by node, goes to `notes`.
/// Returns whether the result is an estimate (a kind never checked against the real
/// export), with the kinds that make it one.
pub(super) fn apply(g: &mut Graph, notes: &mut Vec<Note>) -> crate::Result<Vec<String>> {
    remove_flatten(g, notes);
    fold_constants(g, notes);
    expand_hardswish(g, notes);
    fuse(g, notes);
    refuse_unknown(g)?;
    formats(g, notes);
    protect(g);
    let mut unverified: Vec<String> = g
        .nodes
        .iter()
        .filter(|n| n.alive && !n.producer && !VERIFIED.contains(&n.kind.as_str()))
        .map(|n| n.kind.clone())
        .collect();
    unverified.sort();
    unverified.dedup();
    Ok(unverified)
}

fn remove_flatten(g: &mut Graph, notes: &mut Vec<Note>) {
    for n in 0..g.nodes.len() {
        if !g.nodes[n].alive || g.nodes[n].kind != "Flatten" {
            continue;
        }
        let source = g.nodes[n].inputs.first().and_then(|i| i.source);
        let graph_output = g.nodes[n].outputs.first().is_some_and(|o| o.graph_output);
        g.redirect((n, 0), source);
        if let (Some((p, o)), true) = (source, graph_output) {
            g.nodes[p].outputs[o].graph_output = true;
        }
        g.nodes[n].alive = false;
        notes.push(Note::node(
            &g.nodes[n].name,
            "Flatten removed (aidge-export-cpp has no Flatten kernel; \
             aidge_core.remove_flatten, it moves no byte)",
        ));
    }
}

/// `constant_folding`: a node whose data inputs all come from Producers (or from
/// nodes folded before it) computes a constant; it becomes a Producer.
fn fold_constants(g: &mut Graph, notes: &mut Vec<Note>) {
    let mut folded = 0usize;
    for n in 0..g.nodes.len() {
        let node = &g.nodes[n];
        if !node.alive || node.producer || node.inputs.is_empty() {
            continue;
        }
        let constant = node
            .inputs
            .iter()
            .all(|i| i.source.is_some_and(|(p, _)| g.nodes[p].producer));
        if constant {
            let node = &mut g.nodes[n];
            node.producer = true;
            node.kind = "Producer".into();
            node.inputs.clear();
            folded += 1;
        }
    }
    if folded > 0 {
        notes.push(Note::whole(format!(
            "{folded} node(s) computing constants folded into Producers (constant_folding)"
        )));
    }
}

/// Aidge's `HardSwish` meta-operator, expanded: `Identity` → `HardSigmoid` → `Mul`
/// reading the Identity and the HardSigmoid.
fn expand_hardswish(g: &mut Graph, notes: &mut Vec<Note>) {
    let mut count = 0;
    for n in 0..g.nodes.len() {
        if !g.nodes[n].alive || g.nodes[n].kind != "HardSwish" || g.nodes[n].inputs.len() != 1 {
            continue;
        }
        count += 1;
        let node = g.nodes[n].clone();
        let out = node.outputs[0].clone();
        let elements = out.elements();
        let part = |kind: &str, k: usize, inputs: Vec<In>| GNode {
            name: format!("{}_{}", node.name, kind),
            kind: kind.into(),
            producer: false,
            sized_by_model: node.sized_by_model,
            inputs,
            outputs: vec![Out {
                graph_output: false,
                ..out.clone()
            }],
            param_readers: vec![Vec::new()],
            order: (node.order.0, node.order.1 + k),
            alive: true,
        };
        let input = |source| In {
            source,
            data: elements,
            protected: 0,
        };
        let id = g.push(part("Identity", 0, vec![node.inputs[0].clone()]));
        let hs = g.push(part("HardSigmoid", 1, vec![input(Some((id, 0)))]));
        // The Mul keeps the node: its name, output and readers.
        let mul = &mut g.nodes[n];
        mul.kind = "Mul".into();
        mul.order.1 += 2;
        mul.inputs = vec![input(Some((id, 0))), input(Some((hs, 0)))];
    }
    if count > 0 {
        notes.push(Note::whole(format!(
            "{count} HardSwish expanded into Identity, HardSigmoid and Mul (expand_metaops)"
        )));
    }
}

/// The export library's fusions into meta-operators.
fn fuse(g: &mut Graph, notes: &mut Vec<Note>) {
    for n in 0..g.nodes.len() {
        if !g.nodes[n].alive {
            continue;
        }
        let kind = g.nodes[n].kind.clone();
        // HardSigmoid -> Mul, when the Mul multiplies by something else.
        if kind == "HardSigmoid" && !g.nodes[n].outputs[0].graph_output {
            let readers = g.readers(n, 0);
            if let [(m, k)] = readers[..] {
                let own = g.nodes[n].inputs[0].source;
                let other = &g.nodes[m].inputs.get(1 - k.min(1));
                if g.nodes[m].kind == "Mul"
                    && g.nodes[m].inputs.len() == 2
                    && other.is_some_and(|o| o.source != own)
                {
                    let other = g.nodes[m].inputs[1 - k].clone();
                    let first = g.nodes[n].inputs[0].clone();
                    let order = g.nodes[n].order;
                    let mul = &mut g.nodes[m];
                    mul.kind = "HardSwish".into();
                    mul.inputs = vec![first, other];
                    mul.order = order;
                    g.nodes[n].alive = false;
                    let name = g.nodes[m].name.clone();
                    notes.push(Note::node(
                        &name,
                        "HardSigmoid and Mul fused into the export's HardSwish (its pattern \
                         HardSigmoid->Mul matches this gate)",
                    ));
                    continue;
                }
            }
        }
        let Some((plain, act)) = fused(&kind) else {
            continue;
        };
        let first = &g.nodes[n].outputs[0];
        let relu = if first.graph_output {
            None
        } else {
            match g.readers(n, 0)[..] {
                [(m, 0)] if g.nodes[m].kind == "ReLU" && g.nodes[m].inputs.len() == 1 => Some(m),
                _ => None,
            }
        };
        let node_name = g.nodes[n].name.clone();
        match relu {
            Some(m) => {
                // The meta-operator writes the ReLU's output; the ReLU goes.
                let relu_out = g.nodes[m].outputs[0].clone();
                g.redirect((m, 0), Some((n, 0)));
                g.nodes[m].alive = false;
                let node = &mut g.nodes[n];
                node.kind = act.into();
                node.outputs[0].graph_output = relu_out.graph_output;
                notes.push(Note::node(
                    &node_name,
                    format!("{kind} and its ReLU fused into {act}"),
                ));
            }
            None => g.nodes[n].kind = plain.into(),
        }
        // The padded MaxPool meta-operator exposes MaxPooling2D's indices as an output
        // of the graph, which the export plans (its hotfix drops only MaxPooling2D's).
        if kind == "PaddedMaxPooling2D" {
            let node = &mut g.nodes[n];
            let mut indices = node.outputs[0].clone();
            indices.element_bytes = 8;
            indices.graph_output = true;
            node.outputs.truncate(1);
            node.outputs.push(indices);
            node.param_readers.resize(2, Vec::new());
            notes.push(Note::node(
                &node_name,
                "PadMaxPool's index output (int64) is a graph output of the export, planned \
                 although no kernel reads it",
            ));
        }
    }
}

fn refuse_unknown(g: &Graph) -> crate::Result<()> {
    for node in g.nodes.iter().filter(|n| n.alive && !n.producer) {
        let known = KERNELS.contains(&node.kind.as_str())
            || fused_kinds().any(|k| k == node.kind)
            || node.kind == "HardSwish";
        if !known {
            return Err(crate::Error::whole(format!(
                "recipe export-cpp: node '{}' ({}) has no kernel in aidge-export-cpp 0.10.1, \
                 not even after its fusions: its export cannot take this model (aidge_core \
                 says \"No implementation found for node\")",
                node.name, node.kind
            )));
        }
    }
    Ok(())
}

fn fused_kinds() -> impl Iterator<Item = &'static str> {
    [
        "Conv2D",
        "PaddedConv2D",
        "ConvDepthWise2D",
        "PaddedConvDepthWise2D",
        "Conv1D",
        "PaddedConv1D",
        "MaxPooling2D",
        "PaddedMaxPooling2D",
        "AvgPooling2D",
        "PaddedAvgPooling2D",
        "FC",
        "Add",
        "Sub",
        "Mul",
        "Div",
        "Pow",
    ]
    .into_iter()
    .filter_map(fused)
    .flat_map(|(a, b)| [a, b])
}

/// NCHW dims of rank 4 as NHWC.
fn nhwc(dims: &[u64]) -> Vec<u64> {
    match dims {
        [n, c, h, w] => vec![*n, *h, *w, *c],
        _ => dims.to_vec(),
    }
}

fn tag(rank: usize, last: bool) -> &'static str {
    match (rank, last) {
        (4, true) => "nhwc",
        (4, false) => "nchw",
        _ => "default",
    }
}

/// Where a node's output lies, as the export's kernels and `adapt_to_backend` decide.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    /// Channels last (`nhwc` at rank 4): the convolutions, poolings and what follows them.
    Last,
    /// Channels first (`ncw`, `nchw`): MatMul's kernel, and what follows it.
    First,
    /// No format (`default`): Reshape's, and what follows a Producer.
    Plain,
}

/// Kinds whose kernel computes channels last (the export library's default format).
const CHANNELS_LAST: &[&str] = &[
    "GlobalAveragePooling",
    "GlobalAvgPoolAct",
    "FC",
    "FCAct",
    "QFC",
];

/// The layout of each node's outputs, in data-flow order: a convolution's or pooling's
/// is channels last (the graph input is taken as channels last too), MatMul's channels
/// first, Reshape's none, a Concat's channels last if an input is, else channels first;
/// any other node's follows its first data input's (a Producer's: none; an NCHW-only
/// kernel's 4-D output: channels last, through its Transpose back). Read off the
/// real export of ViT-tiny (`tests/parity/recipes_diff.py hf_vit`) and the 19 CNNs.
fn layouts(g: &Graph) -> Vec<Option<Layout>> {
    let mut layout: Vec<Option<Layout>> = vec![None; g.nodes.len()];
    // (a 4-D output of an NCHW-only kernel is read through the Transpose back to NHWC
    // that `formats` puts after it)
    let of = |layout: &[Option<Layout>], src: Option<(usize, usize)>| match src {
        None => Some(Layout::Last),
        Some((p, _)) if g.nodes[p].producer => Some(Layout::Plain),
        Some((p, o))
            if NCHW_ONLY.contains(&g.nodes[p].kind.as_str())
                && g.nodes[p].outputs[o].dims.len() == 4 =>
        {
            Some(Layout::Last)
        }
        Some((p, _)) => layout[p],
    };
    // Inserted nodes stand after their readers in `nodes`: relax until stable.
    loop {
        let mut changed = false;
        for (n, node) in g.nodes.iter().enumerate() {
            if !node.alive || node.producer || layout[n].is_some() {
                continue;
            }
            let kind = node.kind.as_str();
            let first = node.inputs.first().map(|i| i.source);
            let decided = if NCHW_ONLY.contains(&kind) {
                Some(Layout::First)
            } else if PADDED.contains(&kind) || CHANNELS_LAST.contains(&kind) {
                Some(Layout::Last)
            } else if kind == "Reshape" {
                Some(Layout::Plain)
            } else if kind == "MatMul" {
                Some(Layout::First)
            } else if kind == "Concat" {
                let ins: Vec<Option<Layout>> =
                    node.inputs.iter().map(|i| of(&layout, i.source)).collect();
                if ins.contains(&None) {
                    None
                } else if ins.contains(&Some(Layout::Last)) {
                    Some(Layout::Last)
                } else {
                    Some(Layout::First)
                }
            } else {
                match first {
                    None => Some(Layout::Plain),
                    Some(src) => of(&layout, src),
                }
            };
            if decided.is_some() {
                layout[n] = decided;
                changed = true;
            }
        }
        if !changed {
            return layout;
        }
    }
}

/// The format tag of a tensor of `rank` in `layout`.
fn tag_of(layout: Layout, rank: usize) -> &'static str {
    match (layout, rank) {
        (Layout::Last, 4) => "nhwc",
        (Layout::First, 4) => "nchw",
        (Layout::First, 3) => "ncw",
        _ => "default",
    }
}

/// Data formats (see [`layouts`]), a Transpose on each side of the kernels that read
/// NCHW only, and one to NCHW before a Reshape of a channels-last 4-D tensor (a Reshape
/// reads the tensor in ONNX's order).
fn formats(g: &mut Graph, notes: &mut Vec<Note>) {
    let layout = layouts(g);
    let mut transposes = 0usize;
    for (node, l) in g.nodes.iter_mut().zip(&layout) {
        if !node.alive || node.producer {
            continue;
        }
        let l = l.unwrap_or(Layout::Plain);
        for out in &mut node.outputs {
            out.format = tag_of(l, out.dims.len()).into();
            if l == Layout::Last {
                out.dims = nhwc(&out.dims);
            }
        }
    }
    for n in 0..g.nodes.len() {
        if !g.nodes[n].alive || g.nodes[n].kind != "Reshape" {
            continue;
        }
        let Some((p, o)) = g.nodes[n].inputs[0].source else {
            continue;
        };
        let src = &g.nodes[p].outputs[o];
        if g.nodes[p].producer || src.format != "nhwc" {
            continue;
        }
        let dims = match src.dims[..] {
            [n, h, w, c] => vec![n, c, h, w],
            _ => continue,
        };
        let elements = src.elements();
        let node = &g.nodes[n];
        let t = GNode {
            name: format!("{}_transpose_in", node.name),
            kind: "Transpose".into(),
            producer: false,
            sized_by_model: node.sized_by_model,
            inputs: vec![In {
                source: Some((p, o)),
                data: elements,
                protected: elements,
            }],
            outputs: vec![Out {
                dims,
                element_bytes: src.element_bytes,
                format: "nchw".into(),
                graph_output: false,
            }],
            param_readers: vec![Vec::new()],
            order: (node.order.0, node.order.1 - 1),
            alive: true,
        };
        let t = g.push(t);
        g.nodes[n].inputs[0].source = Some((t, 0));
        transposes += 1;
    }
    for n in 0..g.nodes.len() {
        if !g.nodes[n].alive || g.nodes[n].producer {
            continue;
        }
        let nchw = NCHW_ONLY.contains(&g.nodes[n].kind.as_str());
        if !nchw
            || !g.nodes[n]
                .outputs
                .first()
                .is_some_and(|o| o.dims.len() == 4)
        {
            continue;
        }
        // A Transpose to NCHW before (unless the parent is NCHW already), and one back
        // after, read by every reader that is not NCHW-only.
        let node = g.nodes[n].clone();
        if let Some((p, o)) = node.inputs[0].source {
            if !NCHW_ONLY.contains(&g.nodes[p].kind.as_str()) || g.nodes[p].producer {
                let src = &g.nodes[p].outputs[o];
                let rank = src.dims.len();
                let t = g.push(transpose(&node, rank, node.inputs[0].clone(), 0));
                g.nodes[n].inputs[0].source = Some((t, 0));
                transposes += 1;
            }
        }
        let readers: Vec<(usize, usize)> = g
            .readers(n, 0)
            .into_iter()
            .filter(|&(m, _)| !NCHW_ONLY.contains(&g.nodes[m].kind.as_str()))
            .collect();
        if !readers.is_empty() || node.outputs[0].graph_output {
            let elements = node.outputs[0].elements();
            let input = In {
                source: Some((n, 0)),
                data: elements,
                protected: elements,
            };
            let mut t = transpose(&node, 4, input, 2);
            t.outputs[0].graph_output = node.outputs[0].graph_output;
            g.nodes[n].outputs[0].graph_output = false;
            let t = g.push(t);
            for (m, k) in readers {
                g.nodes[m].inputs[k].source = Some((t, 0));
            }
            transposes += 1;
        }
    }
    if transposes > 0 {
        notes.push(Note::whole(format!(
            "{transposes} Transpose(s) inserted around the kernels aidge-export-cpp has in \
             NCHW only (BatchNorm2D, Pad, InstanceNorm) and before Reshapes of channels-last \
             tensors: the convolutions and poolings compute NHWC"
        )));
    }
}

/// The Transpose adapt_to_backend inserts before (`after` = 0) or after (2) `node`.
fn transpose(node: &GNode, rank: usize, input: In, after: usize) -> GNode {
    let out = &node.outputs[0];
    // Before: the node's NCHW input; after: its output, channels-last.
    let (dims, last) = if after == 0 {
        // The NCHW tensor the node reads: its output's dims (these kernels keep them).
        (out.dims.clone(), false)
    } else {
        (nhwc(&out.dims), true)
    };
    let elements = dims.iter().product::<u64>();
    GNode {
        name: format!(
            "{}_transpose_{}",
            node.name,
            if after == 0 { "in" } else { "out" }
        ),
        kind: "Transpose".into(),
        producer: false,
        sized_by_model: node.sized_by_model,
        inputs: vec![In {
            data: elements,
            protected: elements,
            ..input
        }],
        outputs: vec![Out {
            dims,
            element_bytes: out.element_bytes,
            format: tag(rank, last).into(),
            graph_output: false,
        }],
        param_readers: vec![Vec::new()],
        order: if after == 0 {
            (node.order.0, node.order.1 - 1)
        } else {
            (node.order.0, node.order.1 + 1)
        },
        alive: true,
    }
}

/// Protected elements of every data input, by the export's consumer-producer models.
/// The convolutions' and poolings' margin (`PaddedInPlace_CP`: the most output
/// elements written ahead of the input line last read) needs the stride and padding;
/// without them memplan protects at least the whole input and at most the whole
/// output, an upper bound of the margin, so no wrap-around it plans is one the export's
/// kernels could not run.
fn protect(g: &mut Graph) {
    for node in g.nodes.iter_mut().filter(|n| n.alive && !n.producer) {
        let in_place = IN_PLACE.contains(&node.kind.as_str());
        let padded = PADDED.iter().any(|k| node.kind == *k);
        let written = node.outputs.first().map_or(0, Out::elements);
        for input in &mut node.inputs {
            input.protected = match (in_place, padded) {
                (true, _) => 0,
                (false, true) => input.data.max(written),
                (false, false) => input.data,
            };
        }
    }
}

/// Kinds whose consumer-producer model is `PaddedInPlace_CP`.
const PADDED: &[&str] = &[
    "AvgPoolAct",
    "AvgPooling2D",
    "Conv1D",
    "Conv1DAct",
    "Conv2D",
    "ConvAct",
    "ConvDepthWise2D",
    "ConvDwAct",
    "MaxPoolAct",
    "MaxPooling2D",
    "PadAvgPool",
    "PadAvgPoolAct",
    "PadConv",
    "PadConv1D",
    "PadConvAct",
    "PadConvDw",
    "PadConvDwAct",
    "PadMaxPool",
    "PadMaxPoolAct",
    "QConv",
    "QConvDw",
];
