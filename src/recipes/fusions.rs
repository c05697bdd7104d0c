//! The fusions an Aidge user applies by hand before planning, with
//! `aidge_core.fuse_to_metaops(graph, pattern, type)` on the imported graph: the seed's
//! transformer patterns. A meta-operator's inner tensors are not planned (its micro-graph
//! runs inside one node), which is what lowers a transformer's peak. Each rule below is
//! what aidge_core 0.10.1 gives, observed node by node on ViT and DINOv2 exports and on a
//! block where every pattern matches (docs/recipes.md, "Fusions"):
//!
//! - the meta-operator's data inputs are its inner nodes' inputs that come from outside
//!   the match, in data-flow order (a tensor read by two inner nodes is read twice); the
//!   Producers the pattern names move inside it; each input keeps the required and
//!   protected data of the inner input it feeds;
//! - its one output is the last inner node's tensor (dims, format, readers);
//! - it runs in the scheduler pass of a node of its size (one node), placed where its
//!   first inner node was.
//!
//! Aidge leaves the meta-operator unnamed; memplan names it after the node whose output
//! it writes, so that the compare view pairs it with that tensor as imported.

use super::graph::{GNode, Graph, In};
use super::Note;

/// `MatMul-*>Add` → `Linear`: x·W + b (or any Add of the product).
pub(super) fn linear(g: &mut Graph, notes: &mut Vec<Note>) {
    let mut n_fused = 0;
    for m in 0..g.nodes.len() {
        if !is(g, m, "MatMul") {
            continue;
        }
        let Some((a, k)) = one_reader(g, m) else {
            continue;
        };
        if !is(g, a, "Add") || g.nodes[a].inputs.len() != 2 {
            continue;
        }
        let other = g.nodes[a].inputs[1 - k].clone();
        let mut inputs = g.nodes[m].inputs.clone();
        inputs.push(other);
        absorb(g, m, &[], a, inputs, "Linear");
        n_fused += 1;
    }
    said(
        notes,
        n_fused,
        "MatMul and Add fused into Linear (MatMul-*>Add)",
    );
}

/// The seed's decomposed-LayerNorm pattern, as an opset-16 export writes LayerNorm:
/// `ReduceMean-*>Sub#1~>(Pow#1->ReduceMean-*>Add#1->Sqrt)-*>Div#1-*>Mul#1-*>Add#2;
/// Sub#1~*>Div#1` with the Pow's exponent, the epsilon, γ and β constants → `LayerNorm`.
/// The centred tensor x − mean is read twice inside (by the Pow and the Div), so the
/// Sub is the one inner node with two readers, both in the match. The meta-operator
/// reads x twice, as the first ReduceMean's and the Sub's input (aidge_core's
/// meta-operator lists them in that order). (An opset-17 export's LayerNormalization is
/// a LayerNorm already as aidge_onnx imports it.)
pub(super) fn layernorm(g: &mut Graph, notes: &mut Vec<Note>) {
    let mut n_fused = 0;
    for r1 in 0..g.nodes.len() {
        if !is(g, r1, "ReduceMean") || g.nodes[r1].inputs.len() != 1 {
            continue;
        }
        let Some(m) = layernorm_match(g, r1) else {
            continue;
        };
        let inputs = vec![
            g.nodes[r1].inputs[0].clone(),
            g.nodes[m.sub].inputs[1 - m.sub_input].clone(),
        ];
        absorb(g, r1, &m.inner, m.last, inputs, "LayerNorm");
        n_fused += 1;
    }
    said(
        notes,
        n_fused,
        "ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul and Add fused into LayerNorm \
         (the seed's decomposed-LayerNorm pattern)",
    );
}

/// A decomposed LayerNorm starting at the ReduceMean `r1`: its Sub (and which input of
/// it the mean is), the inner nodes after the Sub, and its last Add.
struct LayerNormMatch {
    sub: usize,
    sub_input: usize,
    inner: Vec<usize>,
    last: usize,
}

fn layernorm_match(g: &Graph, r1: usize) -> Option<LayerNormMatch> {
    let (sub, sub_input) = one_reader(g, r1)?;
    if !is(g, sub, "Sub") || g.nodes[sub].inputs.len() != 2 {
        return None;
    }
    // x − mean: read by the Pow (its base) and the Div, nobody else.
    let node = &g.nodes[sub];
    if node.outputs.len() != 1
        || node.outputs[0].graph_output
        || node.param_readers.first().is_some_and(|r| !r.is_empty())
    {
        return None;
    }
    let readers = g.readers(sub, 0);
    let pow = readers.iter().find(|&&(n, k)| k == 0 && is(g, n, "Pow"))?.0;
    let div = readers.iter().find(|&&(n, _)| is(g, n, "Div"))?.0;
    if readers.len() != 2 || !constant_input(g, pow, 1) {
        return None;
    }
    let (r2, 0) = one_reader(g, pow)? else {
        return None;
    };
    let (add, k) = one_reader(g, r2)?;
    if !is(g, r2, "ReduceMean") || !is(g, add, "Add") || !constant_input(g, add, 1 - k.min(1)) {
        return None;
    }
    let (sqrt, 0) = one_reader(g, add)? else {
        return None;
    };
    if !is(g, sqrt, "Sqrt") || one_reader(g, sqrt)?.0 != div {
        return None;
    }
    let (mul, k) = one_reader(g, div)?;
    if !is(g, mul, "Mul") || !constant_input(g, mul, 1 - k.min(1)) {
        return None;
    }
    let (last, k) = one_reader(g, mul)?;
    if !is(g, last, "Add") || !constant_input(g, last, 1 - k.min(1)) {
        return None;
    }
    Some(LayerNormMatch {
        sub,
        sub_input,
        inner: vec![sub, pow, r2, add, sqrt, div, mul],
        last,
    })
}

/// `MatMul->Div#1->Softmax-*>MatMul; Div#1<1~Producer` → `ScaledDotProductAttention`.
pub(super) fn attention(g: &mut Graph, notes: &mut Vec<Note>) {
    let mut n_fused = 0;
    for m1 in 0..g.nodes.len() {
        if !is(g, m1, "MatMul") {
            continue;
        }
        let Some((dv, 0)) = one_reader(g, m1) else {
            continue;
        };
        if !is(g, dv, "Div") || !constant_input(g, dv, 1) {
            continue;
        }
        let Some((s, 0)) = one_reader(g, dv) else {
            continue;
        };
        if !is(g, s, "Softmax") {
            continue;
        }
        let Some((m2, k)) = one_reader(g, s) else {
            continue;
        };
        if !is(g, m2, "MatMul") || g.nodes[m2].inputs.len() != 2 {
            continue;
        }
        let mut inputs = g.nodes[m1].inputs.clone();
        inputs.push(g.nodes[m2].inputs[1 - k].clone());
        absorb(g, m1, &[dv, s], m2, inputs, "ScaledDotProductAttention");
        n_fused += 1;
    }
    said(
        notes,
        n_fused,
        "MatMul, Div, Softmax and MatMul fused into ScaledDotProductAttention",
    );
}

/// `Div#1->Erf->Add#1-*>Mul->Mul#2` with the Div's, Add's and last Mul's constants →
/// `GeLU` (x·½·(1 + erf(x/√2))).
pub(super) fn gelu(g: &mut Graph, notes: &mut Vec<Note>) {
    let mut n_fused = 0;
    for d in 0..g.nodes.len() {
        if !is(g, d, "Div") || !constant_input(g, d, 1) {
            continue;
        }
        let Some((e, 0)) = one_reader(g, d) else {
            continue;
        };
        if !is(g, e, "Erf") {
            continue;
        }
        let Some((a, ka)) = one_reader(g, e) else {
            continue;
        };
        if !is(g, a, "Add") || !constant_input(g, a, 1 - ka.min(1)) {
            continue;
        }
        let Some((mu, k)) = one_reader(g, a) else {
            continue;
        };
        if !is(g, mu, "Mul") || g.nodes[mu].inputs.len() != 2 {
            continue;
        }
        let Some((m2, k2)) = one_reader(g, mu) else {
            continue;
        };
        if !is(g, m2, "Mul") || !constant_input(g, m2, 1 - k2.min(1)) {
            continue;
        }
        let inputs = vec![
            g.nodes[d].inputs[0].clone(),
            g.nodes[mu].inputs[1 - k].clone(),
        ];
        absorb(g, d, &[e, a, mu], m2, inputs, "GeLU");
        n_fused += 1;
    }
    said(
        notes,
        n_fused,
        "Div, Erf, Add, Mul and Mul fused into GeLU (the erf form)",
    );
}

fn is(g: &Graph, n: usize, kind: &str) -> bool {
    let node = &g.nodes[n];
    node.alive && !node.producer && node.kind == kind
}

/// The one data reader of output 0 of `n`, when it has exactly one, nothing reads it
/// as a parameter and it is no graph output (an inner tensor of a meta-operator is
/// seen by nobody else).
fn one_reader(g: &Graph, n: usize) -> Option<(usize, usize)> {
    let node = &g.nodes[n];
    if node.outputs.len() != 1 || node.outputs[0].graph_output {
        return None;
    }
    if node.param_readers.first().is_some_and(|r| !r.is_empty()) {
        return None;
    }
    match g.readers(n, 0)[..] {
        [one] => Some(one),
        _ => None,
    }
}

/// Whether data input `i` of `n` comes from a Producer (a constant the pattern takes in).
fn constant_input(g: &Graph, n: usize, i: usize) -> bool {
    let node = &g.nodes[n];
    node.inputs.len() == 2
        && node
            .inputs
            .get(i)
            .and_then(|x| x.source)
            .is_some_and(|(p, _)| g.nodes[p].producer)
}

/// Node `first` becomes the meta-operator `kind` reading `inputs` and writing `last`'s
/// output; `inner` and `last` go, and the Producers they read that nothing else reads
/// move inside it.
fn absorb(g: &mut Graph, first: usize, inner: &[usize], last: usize, inputs: Vec<In>, kind: &str) {
    let kept: Vec<Option<(usize, usize)>> = inputs.iter().map(|i| i.source).collect();
    let mut gone: Vec<usize> = inner.to_vec();
    gone.push(last);
    let mut constants: Vec<usize> = std::iter::once(first)
        .chain(gone.iter().copied())
        .flat_map(|n| g.nodes[n].inputs.iter().filter_map(|i| i.source))
        .filter(|s| !kept.contains(&Some(*s)))
        .map(|(p, _)| p)
        .filter(|&p| g.nodes[p].producer)
        .collect();
    constants.sort_unstable();
    constants.dedup();
    let last_node: GNode = g.nodes[last].clone();
    g.redirect((last, 0), Some((first, 0)));
    for &n in &gone {
        g.nodes[n].alive = false;
    }
    let node = &mut g.nodes[first];
    node.kind = kind.into();
    node.name = last_node.name;
    node.inputs = inputs;
    node.outputs = last_node.outputs;
    node.param_readers = last_node.param_readers;
    for p in constants {
        let read = (0..g.nodes.len()).any(|n| {
            g.nodes[n].alive
                && g.nodes[n]
                    .inputs
                    .iter()
                    .any(|i| i.source.is_some_and(|(q, _)| q == p))
        });
        let param = g.nodes[p]
            .param_readers
            .iter()
            .flatten()
            .any(|&r| g.nodes[r].alive);
        if !read && !param {
            g.nodes[p].alive = false;
        }
    }
}

fn said(notes: &mut Vec<Note>, count: usize, text: &str) {
    if count > 0 {
        notes.push(Note::whole(format!("{count} × {text}")));
    }
}
