//! onnxruntime's contrib operators (domain `com.microsoft`, and the few onnxruntime
//! registers in the ONNX domain): the fused nodes its transformer optimizer
//! (`onnxruntime.transformers.optimizer.optimize_model`) and its own graph
//! optimizations write. aidge_onnx 0.10.1 has no converter for any of them and imports
//! each as a GenericOperator, so Aidge cannot size or run such a model; memplan opens
//! it through its generic path with the output shapes onnxruntime's contrib operator
//! schemas give (docs/ContribOperators.md of onnxruntime 1.32), checked against
//! onnxruntime's own run by tests/onnx.rs (tests/data/onnx/contrib).

use super::graph::{Attrs, Value};

/// Every contrib operator memplan sizes, as (domain, op type): the one list of them
/// (docs/formats.md's list is checked against it by tests/onnx.rs).
pub const CONTRIB: &[(&str, &str)] = &[
    ("com.microsoft", "Attention"),
    ("com.microsoft", "BiasAdd"),
    ("com.microsoft", "BiasGelu"),
    ("com.microsoft", "EmbedLayerNormalization"),
    ("com.microsoft", "FastGelu"),
    ("com.microsoft", "FusedMatMul"),
    ("com.microsoft", "Gelu"),
    ("com.microsoft", "MatMulNBits"),
    ("com.microsoft", "MultiHeadAttention"),
    ("com.microsoft", "QuickGelu"),
    ("com.microsoft", "RotaryEmbedding"),
    ("com.microsoft", "SkipLayerNormalization"),
    ("com.microsoft", "SkipSimplifiedLayerNormalization"),
    ("", "SimplifiedLayerNormalization"),
];

/// Whether memplan sizes operator `op_type` of `domain` (`ai.onnx` and "" alike).
pub fn known(domain: &str, op_type: &str) -> bool {
    let domain = if domain == "ai.onnx" { "" } else { domain };
    CONTRIB.iter().any(|&(d, o)| d == domain && o == op_type)
}

/// The message for an operator of another domain memplan has no rule for.
pub fn unknown() -> String {
    format!(
        "memplan does not know this operator (of other domains than ONNX's it sizes \
         onnxruntime's com.microsoft {}); the rest of the graph is not guessed",
        CONTRIB
            .iter()
            .filter(|(d, _)| !d.is_empty())
            .map(|(_, o)| *o)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

type Shapes = Result<Vec<Vec<u64>>, String>;

/// The dims of each of the node's `outputs` outputs (an output the node does not
/// write, its name empty, gets the dims it would have), by onnxruntime's schema of a
/// [`known`] operator; an error says what the rule cannot read.
pub fn shapes(op_type: &str, attrs: &Attrs, ins: &[Option<&Value>], outputs: usize) -> Shapes {
    let input = |i: usize, what: &str| -> Result<&[u64], String> {
        ins.get(i)
            .copied()
            .flatten()
            .map(|v| v.dims.as_slice())
            .ok_or_else(|| format!("its input #{i} ({what}) is missing"))
    };
    let x = input(0, "input")?;
    let mut out = match op_type {
        "Attention" => attention(attrs, x, input(1, "weights")?, ins)?,
        "MultiHeadAttention" => multi_head(attrs, x, ins)?,
        "EmbedLayerNormalization" => {
            let words = input(2, "word_embedding")?;
            let (&[b, s], &[_, h]) = (x, words) else {
                return Err(format!(
                    "input_ids {x:?} and word_embedding {words:?} are not 2-D"
                ));
            };
            vec![vec![b, s, h], vec![b], vec![b, s, h]]
        }
        "FusedMatMul" => vec![fused_matmul(attrs, x, input(1, "B")?)?],
        // A (…, K) times the N×K weights quantized to `bits` (their packed layout
        // aside): (…, N).
        "MatMulNBits" => match (x.split_last(), attrs.int("N", 0)) {
            (Some((_, lead)), n) if n > 0 => vec![[lead, &[n as u64]].concat()],
            _ => return Err(format!("input A {x:?} or its N attribute is not usable")),
        },
        // Normalized over axes from `axis` (the last one for the Skip* forms): the
        // statistics keep the leading dims, 1 for the others.
        "SimplifiedLayerNormalization" => {
            let stats = reduced(x, attrs.int("axis", -1))?;
            vec![x.to_vec(), stats.clone(), stats]
        }
        "SkipLayerNormalization" | "SkipSimplifiedLayerNormalization" => {
            let stats = reduced(x, -1)?;
            vec![x.to_vec(), stats.clone(), stats, x.to_vec()]
        }
        // Element-wise (the bias, the skip broadcast over the input).
        "BiasAdd" | "BiasGelu" | "FastGelu" | "Gelu" | "QuickGelu" | "RotaryEmbedding" => {
            vec![x.to_vec()]
        }
        _ => return Err(format!("memplan has no rule for {op_type}")),
    };
    if outputs > out.len() {
        return Err(format!(
            "it has {outputs} outputs; onnxruntime's {op_type} has {}",
            out.len()
        ));
    }
    out.truncate(outputs);
    Ok(out)
}

/// `x`'s dims with every axis from `axis` on set to 1.
fn reduced(x: &[u64], axis: i64) -> Result<Vec<u64>, String> {
    let rank = x.len() as i64;
    let a = if axis < 0 { axis + rank } else { axis };
    if !(0..rank).contains(&a) {
        return Err(format!("axis {axis} is out of range for rank {rank}"));
    }
    Ok(x.iter()
        .enumerate()
        .map(|(i, &d)| if (i as i64) < a { d } else { 1 })
        .collect())
}

fn heads(attrs: &Attrs) -> Result<u64, String> {
    match attrs.int("num_heads", 0) {
        n if n > 0 => Ok(n as u64),
        n => Err(format!("its num_heads is {n}")),
    }
}

/// Attention: input (B, S, I), weights (I, Dq + Dk + Dv) (`qkv_hidden_sizes`, else
/// three equal parts), past (2, B, N, P, Hk); output (B, S, Dv) and present
/// (2, B, N, P + S, Hk), or past's dims when the two share a buffer.
fn attention(attrs: &Attrs, x: &[u64], w: &[u64], ins: &[Option<&Value>]) -> Shapes {
    let (&[b, s, _], &[_, all]) = (x, w) else {
        return Err(format!("input {x:?} is not 3-D or weights {w:?} not 2-D"));
    };
    let n = heads(attrs)?;
    let (k, v) = match attrs.ints("qkv_hidden_sizes") {
        Some(&[_, k, v]) if k > 0 && v > 0 => (k as u64, v as u64),
        Some(q) if !q.is_empty() => return Err(format!("its qkv_hidden_sizes are {q:?}")),
        _ => (all / 3, all / 3),
    };
    let past = ins.get(4).copied().flatten().map(|p| p.dims.as_slice());
    let present = match past {
        Some(p) if attrs.int("past_present_share_buffer", 0) != 0 => p.to_vec(),
        Some(&[_, _, _, p, _]) => vec![2, b, n, p + s, k / n],
        Some(p) => return Err(format!("its past {p:?} is not 5-D")),
        None => vec![2, b, n, s, k / n],
    };
    Ok(vec![vec![b, s, v], present])
}

/// MultiHeadAttention: query (B, S, D) or packed (B, S, N, 3, H); key (B, L, D),
/// (B, N, L, H) or packed key-value (B, L, N, 2, H); value (B, L, Dv) or
/// (B, N, L, Hv); past key (B, N, P, H). Outputs: (B, S, Dv), present key
/// (B, N, P + L, H), present value (B, N, P + L, Hv), and Q·Kᵀ (B, N, S, P + L).
fn multi_head(attrs: &Attrs, q: &[u64], ins: &[Option<&Value>]) -> Shapes {
    let n = heads(attrs)?;
    let dims = |i: usize| ins.get(i).copied().flatten().map(|v| v.dims.as_slice());
    let (b, s, h) = match *q {
        [b, s, d] => (b, s, d / n),
        [b, s, _, 3, h] => (b, s, h),
        _ => return Err(format!("query {q:?} is neither 3-D nor packed 5-D")),
    };
    let (l, hv) = match (dims(1), dims(2)) {
        (None, _) if q.len() == 5 => (s, h),
        (Some(&[_, l, _, 2, hk]), _) => (l, hk),
        (Some(&[_, l, _]), Some(&[_, _, dv])) => (l, dv / n),
        (Some(&[_, _, l, _]), Some(&[_, _, _, hv])) => (l, hv),
        (k, v) => {
            return Err(format!(
                "its key {k:?} and value {v:?} are not of a form the schema gives"
            ))
        }
    };
    let past = match dims(6) {
        Some(&[_, _, p, _]) => p,
        Some(p) => return Err(format!("its past_key {p:?} is not 4-D")),
        None => 0,
    };
    Ok(vec![
        vec![b, s, n * hv],
        vec![b, n, past + l, h],
        vec![b, n, past + l, hv],
        vec![b, n, s, past + l],
    ])
}

/// FusedMatMul: MatMul of A and B, each with its last two dims swapped when `transA`
/// (`transB`) is set.
fn fused_matmul(attrs: &Attrs, a: &[u64], b: &[u64]) -> Result<Vec<u64>, String> {
    if attrs.int("transBatchA", 0) != 0 || attrs.int("transBatchB", 0) != 0 {
        return Err("memplan has no rule for its transBatchA/transBatchB".into());
    }
    let t = |d: &[u64], on: bool| {
        let mut d = d.to_vec();
        let r = d.len();
        if on && r >= 2 {
            d.swap(r - 1, r - 2);
        }
        d
    };
    super::ops::matmul(
        &t(a, attrs.int("transA", 0) != 0),
        &t(b, attrs.int("transB", 0) != 0),
    )
}
