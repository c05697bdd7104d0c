//! Rewriting an ONNX model at the protobuf wire level, without losing what memplan
//! does not read.
//!
//! The reader ([`super::proto`]) decodes a subset of `onnx.proto` and skips every
//! other field, so re-encoding a model from it would drop doc strings, metadata,
//! attribute types, quantization annotations… Instead every field of the
//! `ModelProto` but the graph is copied as bytes, and in the `GraphProto` every field
//! is copied as bytes but the nodes a [`Rewrite`] replaces (and the `value_info`
//! entries of the tensors that no longer exist). New nodes go where the rewrite says
//! (ONNX wants nodes in topological order); new initializers are appended. A copied
//! node ([`NewNode::Copy`]) keeps its own bytes but its inputs, outputs, name and the
//! attributes the rewrite replaces, so an operator's attributes the rewrite does not
//! know survive too.

use crate::{Error, Result};
use prost::encoding::{decode_key, decode_varint, encode_key, encode_varint, WireType};
use prost::Message;
use std::collections::HashSet;

/// A node as written: a complete `NodeProto` (fields 1–5, 7).
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeOut {
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    #[prost(string, tag = "3")]
    pub name: String,
    #[prost(string, tag = "4")]
    pub op_type: String,
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeOut>,
    #[prost(string, tag = "7")]
    pub domain: String,
}

/// An attribute as written, with its `type` (tag 20), which the ONNX checker requires.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributeOut {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(int64, optional, tag = "3")]
    pub i: Option<i64>,
    #[prost(int64, repeated, packed = "false", tag = "8")]
    pub ints: Vec<i64>,
    /// `AttributeProto.AttributeType`: 2 = INT, 7 = INTS.
    #[prost(int32, tag = "20")]
    pub r#type: i32,
}

impl AttributeOut {
    pub fn int(name: &str, value: i64) -> Self {
        AttributeOut {
            name: name.into(),
            i: Some(value),
            ints: Vec::new(),
            r#type: 2,
        }
    }

    pub fn ints(name: &str, values: Vec<i64>) -> Self {
        AttributeOut {
            name: name.into(),
            i: None,
            ints: values,
            r#type: 7,
        }
    }
}

/// An int64 initializer (`TensorProto` with `data_type` 7 and its values as raw
/// little-endian bytes).
#[derive(Clone, PartialEq, prost::Message)]
pub struct TensorOut {
    #[prost(int64, repeated, packed = "false", tag = "1")]
    pub dims: Vec<i64>,
    #[prost(int32, tag = "2")]
    pub data_type: i32,
    #[prost(string, tag = "8")]
    pub name: String,
    #[prost(bytes = "vec", tag = "9")]
    pub raw_data: Vec<u8>,
}

impl TensorOut {
    /// A 1-D int64 tensor.
    pub fn int64s(name: &str, values: &[i64]) -> Self {
        TensorOut {
            dims: vec![values.len() as i64],
            data_type: 7,
            name: name.into(),
            raw_data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        }
    }
}

/// A node to write.
#[derive(Debug, Clone, PartialEq)]
pub enum NewNode {
    /// The graph's node `index`, its bytes kept but its name, inputs and outputs, and
    /// its attributes named in `replace` (dropped, then `attributes` appended).
    Copy {
        index: usize,
        name: String,
        input: Vec<String>,
        output: Vec<String>,
        replace: Vec<&'static str>,
        attributes: Vec<AttributeOut>,
    },
    /// A node of its own.
    Fresh(NodeOut),
}

/// What to change in a graph.
#[derive(Debug, Clone, Default)]
pub struct Rewrite {
    /// Indices (in the graph's node list) of the nodes removed.
    pub remove: HashSet<usize>,
    /// The new nodes go just before the original node of this index (the node count:
    /// at the end).
    pub insert_at: usize,
    pub nodes: Vec<NewNode>,
    pub initializers: Vec<TensorOut>,
    /// `value_info` entries to drop (tensors that no longer exist).
    pub drop_value_info: HashSet<String>,
}

/// One field of a message: its tag, wire type and byte range (key included), and
/// the range of a length-delimited field's payload.
struct Field {
    tag: u32,
    span: std::ops::Range<usize>,
    payload: std::ops::Range<usize>,
}

/// The fields of a message, in order.
fn fields(bytes: &[u8], what: &str) -> Result<Vec<Field>> {
    let bad = |e: String| Error::whole(format!("not a valid ONNX model ({what}: {e})"));
    let mut out = Vec::new();
    let mut buf = bytes;
    while !buf.is_empty() {
        let start = bytes.len() - buf.len();
        let (tag, wire) = decode_key(&mut buf).map_err(|e| bad(e.to_string()))?;
        let mut payload = 0..0;
        match wire {
            WireType::Varint => {
                decode_varint(&mut buf).map_err(|e| bad(e.to_string()))?;
            }
            WireType::SixtyFourBit | WireType::ThirtyTwoBit => {
                let n = if wire == WireType::SixtyFourBit { 8 } else { 4 };
                if buf.len() < n {
                    return Err(bad("truncated field".into()));
                }
                buf = &buf[n..];
            }
            WireType::LengthDelimited => {
                let len = decode_varint(&mut buf).map_err(|e| bad(e.to_string()))?;
                let len = usize::try_from(len)
                    .ok()
                    .filter(|&l| l <= buf.len())
                    .ok_or_else(|| bad("a field runs past the end".into()))?;
                let at = bytes.len() - buf.len();
                payload = at..at + len;
                buf = &buf[len..];
            }
            WireType::StartGroup | WireType::EndGroup => {
                return Err(bad("protobuf groups are not ONNX".into()));
            }
        }
        out.push(Field {
            tag,
            span: start..bytes.len() - buf.len(),
            payload,
        });
    }
    Ok(out)
}

fn put_message(out: &mut Vec<u8>, tag: u32, payload: &[u8]) {
    encode_key(tag, WireType::LengthDelimited, out);
    encode_varint(payload.len() as u64, out);
    out.extend_from_slice(payload);
}

fn put_strings(out: &mut Vec<u8>, tag: u32, values: &[String]) {
    for v in values {
        put_message(out, tag, v.as_bytes());
    }
}

/// The model with `rewrite` applied to its graph; every other byte as it was.
pub fn rewrite(model: &[u8], rewrite: &Rewrite) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(model.len() + 4096);
    let mut graphs = 0;
    for f in fields(model, "ModelProto")? {
        if f.tag == 7 {
            graphs += 1;
            let graph = rewrite_graph(&model[f.payload.clone()], rewrite)?;
            put_message(&mut out, 7, &graph);
        } else {
            out.extend_from_slice(&model[f.span.clone()]);
        }
    }
    if graphs != 1 {
        return Err(Error::whole(format!(
            "not an ONNX model: {graphs} graphs (ModelProto.graph) where one was expected"
        )));
    }
    Ok(out)
}

fn rewrite_graph(graph: &[u8], rw: &Rewrite) -> Result<Vec<u8>> {
    let fields = fields(graph, "GraphProto")?;
    let node_bytes: Vec<&[u8]> = fields
        .iter()
        .filter(|f| f.tag == 1)
        .map(|f| &graph[f.payload.clone()])
        .collect();
    let mut out = Vec::with_capacity(graph.len() + 4096);
    let mut index = 0;
    let mut inserted = false;
    let insert = |out: &mut Vec<u8>| -> Result<()> {
        for n in &rw.nodes {
            let bytes = match n {
                NewNode::Fresh(node) => node.encode_to_vec(),
                NewNode::Copy {
                    index,
                    name,
                    input,
                    output,
                    replace,
                    attributes,
                } => {
                    let original = node_bytes.get(*index).ok_or_else(|| {
                        Error::whole(format!("the rewrite copies node {index}, not in the graph"))
                    })?;
                    copy_node(original, name, input, output, replace, attributes)?
                }
            };
            put_message(out, 1, &bytes);
        }
        Ok(())
    };
    for f in &fields {
        match f.tag {
            1 => {
                if index == rw.insert_at {
                    insert(&mut out)?;
                    inserted = true;
                }
                if !rw.remove.contains(&index) {
                    out.extend_from_slice(&graph[f.span.clone()]);
                }
                index += 1;
            }
            13 => {
                let name = value_info_name(&graph[f.payload.clone()])?;
                if !rw.drop_value_info.contains(&name) {
                    out.extend_from_slice(&graph[f.span.clone()]);
                }
            }
            _ => out.extend_from_slice(&graph[f.span.clone()]),
        }
    }
    if !inserted {
        insert(&mut out)?;
    }
    for t in &rw.initializers {
        put_message(&mut out, 5, &t.encode_to_vec());
    }
    Ok(out)
}

/// The model with the values of its large initializers (over `limit` bytes) left
/// out: their name, dims and type kept, which is all memplan's reader needs of them.
/// A search that writes and reads back many rewrites of a model works on this copy
/// (a VGG's 500 MB of weights copied per candidate would take the time budget).
pub fn without_weights(model: &[u8], limit: usize) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(model.len().min(1 << 20));
    for f in fields(model, "ModelProto")? {
        if f.tag != 7 {
            out.extend_from_slice(&model[f.span.clone()]);
            continue;
        }
        let graph = &model[f.payload.clone()];
        let mut g = Vec::new();
        for gf in fields(graph, "GraphProto")? {
            if gf.tag == 5 && gf.payload.len() > limit {
                let t = &graph[gf.payload.clone()];
                let mut kept = Vec::new();
                for tf in fields(t, "TensorProto")? {
                    // float_data, int32_data, int64_data, raw_data, double_data, uint64_data
                    if !matches!(tf.tag, 4 | 5 | 7 | 9 | 10 | 11) {
                        kept.extend_from_slice(&t[tf.span.clone()]);
                    }
                }
                put_message(&mut g, 5, &kept);
            } else {
                g.extend_from_slice(&graph[gf.span.clone()]);
            }
        }
        put_message(&mut out, 7, &g);
    }
    Ok(out)
}

fn value_info_name(bytes: &[u8]) -> Result<String> {
    for f in fields(bytes, "ValueInfoProto")? {
        if f.tag == 1 {
            return Ok(String::from_utf8_lossy(&bytes[f.payload]).into_owned());
        }
    }
    Ok(String::new())
}

/// A node's bytes with a new name, inputs and outputs and the `replace`d attributes
/// swapped for `attributes`; its other fields and attributes as they were.
fn copy_node(
    node: &[u8],
    name: &str,
    input: &[String],
    output: &[String],
    replace: &[&str],
    attributes: &[AttributeOut],
) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(node.len() + 64);
    put_strings(&mut out, 1, input);
    put_strings(&mut out, 2, output);
    put_message(&mut out, 3, name.as_bytes());
    for f in fields(node, "NodeProto")? {
        match f.tag {
            1..=3 => {}
            5 => {
                let attr = &node[f.payload.clone()];
                let attr_name = fields(attr, "AttributeProto")?
                    .into_iter()
                    .find(|a| a.tag == 1)
                    .map(|a| String::from_utf8_lossy(&attr[a.payload]).into_owned())
                    .unwrap_or_default();
                if !replace.contains(&attr_name.as_str()) {
                    out.extend_from_slice(&node[f.span.clone()]);
                }
            }
            _ => out.extend_from_slice(&node[f.span.clone()]),
        }
    }
    for a in attributes {
        put_message(&mut out, 5, &a.encode_to_vec());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, op: &str, input: &[&str], output: &[&str]) -> NodeOut {
        NodeOut {
            input: input.iter().map(|s| s.to_string()).collect(),
            output: output.iter().map(|s| s.to_string()).collect(),
            name: name.into(),
            op_type: op.into(),
            attribute: vec![AttributeOut::ints("pads", vec![1, 1, 1, 1])],
            domain: String::new(),
        }
    }

    /// A graph of three nodes with an unknown field (doc string, tag 6) in the graph
    /// and a model field memplan does not read (tag 14, metadata).
    fn model() -> Vec<u8> {
        let mut graph = Vec::new();
        for n in [
            node("a", "Relu", &["x"], &["y"]),
            node("b", "Conv", &["y", "w"], &["z"]),
            node("c", "Relu", &["z"], &["out"]),
        ] {
            put_message(&mut graph, 1, &n.encode_to_vec());
        }
        put_message(&mut graph, 10, b"graph doc");
        let mut model = Vec::new();
        encode_key(1, WireType::Varint, &mut model);
        encode_varint(8, &mut model);
        put_message(&mut model, 7, &graph);
        put_message(&mut model, 14, b"metadata kept");
        model
    }

    #[test]
    fn a_copied_node_keeps_its_other_bytes_and_the_rest_is_verbatim() {
        let m = model();
        let rw = Rewrite {
            remove: [1].into(),
            insert_at: 1,
            nodes: vec![NewNode::Copy {
                index: 1,
                name: "b_p0".into(),
                input: vec!["y".into(), "w".into()],
                output: vec!["z".into()],
                replace: vec!["pads"],
                attributes: vec![AttributeOut::ints("pads", vec![0, 1, 0, 1])],
            }],
            initializers: vec![TensorOut::int64s("starts", &[0, 2])],
            ..Rewrite::default()
        };
        let out = rewrite(&m, &rw).unwrap();
        let top = fields(&out, "m").unwrap();
        assert_eq!(top.len(), 3);
        assert_eq!(
            &out[top[2].span.clone()],
            &m[fields(&m, "m").unwrap()[2].span.clone()]
        );
        let g = &out[top[1].payload.clone()];
        let gf = fields(g, "g").unwrap();
        let nodes: Vec<NodeOut> = gf
            .iter()
            .filter(|f| f.tag == 1)
            .map(|f| NodeOut::decode(&g[f.payload.clone()]).unwrap())
            .collect();
        assert_eq!(
            nodes.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(),
            ["a", "b_p0", "c"]
        );
        assert_eq!(nodes[1].op_type, "Conv");
        assert_eq!(
            nodes[1].attribute,
            [AttributeOut::ints("pads", vec![0, 1, 0, 1])]
        );
        assert!(gf.iter().any(|f| f.tag == 10));
        let init = gf.iter().find(|f| f.tag == 5).unwrap();
        let t = TensorOut::decode(&g[init.payload.clone()]).unwrap();
        assert_eq!(t.raw_data.len(), 16);
    }

    #[test]
    fn truncated_bytes_are_an_error_not_a_panic() {
        let m = model();
        for cut in 1..m.len() {
            let _ = rewrite(&m[..cut], &Rewrite::default());
        }
    }
}
