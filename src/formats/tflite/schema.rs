//! The part of TFLite's `schema.fbs` that TFLM's allocator reads, as owned data:
//! subgraphs (tensors, inputs, outputs, operators), operator codes, which buffers hold
//! data, and the metadata entries. Field numbers are `schema.fbs`'s (a union takes two:
//! its type, then its value). Everything is read through [`super::flat`], so every
//! count is bounded by the file's size.

use super::flat::{self, Table};
use crate::{Error, Result};

/// The file identifier of a TFLite flatbuffer, at bytes 4..8.
pub const IDENTIFIER: &[u8; 4] = b"TFL3";

#[derive(Debug, Clone)]
pub struct Model {
    pub subgraphs: Vec<Subgraph>,
    /// `max(builtin_code, deprecated_builtin_code)` of each operator code, as TFLM's
    /// `GetBuiltinCode`; custom operators keep their name.
    pub opcodes: Vec<Opcode>,
    pub buffers: Vec<Buffer>,
    pub metadata: Vec<Metadata>,
    /// Where the root table starts (the writer re-references its fields).
    pub root: usize,
}

#[derive(Debug, Clone)]
pub struct Opcode {
    pub builtin: i32,
    pub custom: String,
}

#[derive(Debug, Clone, Copy)]
pub struct Buffer {
    /// Byte range of `data` in the file (empty when absent).
    pub data: (usize, usize),
    /// `offset` (> 1: the data is outside the flatbuffer, in a model over 2 GB).
    pub offset: u64,
}

#[derive(Debug, Clone)]
pub struct Metadata {
    pub name: String,
    pub buffer: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Subgraph {
    pub tensors: Vec<Tensor>,
    pub inputs: Vec<i32>,
    pub outputs: Vec<i32>,
    pub operators: Vec<Operator>,
}

#[derive(Debug, Clone)]
pub struct Tensor {
    /// `None`: no shape (a scalar, one element).
    pub shape: Option<Vec<i32>>,
    /// `TensorType` of `schema.fbs`.
    pub kind: i8,
    pub buffer: u32,
    pub name: String,
    pub is_variable: bool,
}

#[derive(Debug, Clone)]
pub struct Operator {
    pub opcode: u32,
    pub inputs: Vec<i32>,
    pub outputs: Vec<i32>,
    pub intermediates: Vec<i32>,
}

/// True when the bytes carry TFLite's identifier (a `.tflite` of any name).
pub fn is_tflite(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && &bytes[4..8] == IDENTIFIER
}

/// Reads the model, checking every reference against the file.
pub fn read(buf: &[u8]) -> Result<Model> {
    if !is_tflite(buf) {
        // Cut inside the 8-byte header (root offset, identifier): all there is of the
        // identifier is its start.
        if buf.len() < 8 && IDENTIFIER.starts_with(&buf[buf.len().min(4)..]) {
            return Err(flat::truncated(
                buf,
                buf.len(),
                "the 8-byte header (the root offset, then the identifier TFL3) runs past the end of the file",
            ));
        }
        return Err(Error::whole(format!(
            "not a TFLite model (no TFL3 identifier at byte 4; {} bytes): expected a .tflite \
             FlatBuffer, whose bytes 4 to 7 are TFL3",
            buf.len()
        )));
    }
    let root = flat::follow(buf, 0, "root table")?;
    let model = Table::at(buf, root, "Model")?;
    let codes = model.vector(1, 4, "Model.operator_codes")?;
    let mut opcodes = Vec::with_capacity(codes.len);
    for i in 0..codes.len {
        let t = codes.table(i)?;
        let deprecated = t.u8(0, 0)? as i8 as i32;
        let builtin = t.i32(3, 0)?;
        opcodes.push(Opcode {
            builtin: builtin.max(deprecated),
            custom: t.string(1, "OperatorCode.custom_code")?,
        });
    }
    let subs = model.vector(2, 4, "Model.subgraphs")?;
    let mut subgraphs = Vec::with_capacity(subs.len);
    for i in 0..subs.len {
        subgraphs.push(subgraph(&subs.table(i)?)?);
    }
    let bufs = model.vector(4, 4, "Model.buffers")?;
    let mut buffers = Vec::with_capacity(bufs.len);
    for i in 0..bufs.len {
        let t = bufs.table(i)?;
        let data = t.vector(0, 1, "Buffer.data")?;
        buffers.push(Buffer {
            data: (data.start, data.start + data.len),
            offset: t.u64(1, 0)?,
        });
    }
    let meta = model.vector(6, 4, "Model.metadata")?;
    let mut metadata = Vec::with_capacity(meta.len);
    for i in 0..meta.len {
        let t = meta.table(i)?;
        metadata.push(Metadata {
            name: t.string(0, "Metadata.name")?,
            buffer: t.u32(1, 0)?,
        });
    }
    Ok(Model {
        subgraphs,
        opcodes,
        buffers,
        metadata,
        root,
    })
}

fn subgraph(t: &Table) -> Result<Subgraph> {
    let tensors = t.vector(0, 4, "SubGraph.tensors")?;
    let mut out = Subgraph {
        tensors: Vec::with_capacity(tensors.len),
        inputs: t.vector(1, 4, "SubGraph.inputs")?.i32s(),
        outputs: t.vector(2, 4, "SubGraph.outputs")?.i32s(),
        operators: Vec::new(),
    };
    for i in 0..tensors.len {
        let x = tensors.table(i)?;
        let shape = match x.vector(0, 4, "Tensor.shape")? {
            v if v.start == 0 => None,
            v => Some(v.i32s()),
        };
        out.tensors.push(Tensor {
            shape,
            kind: x.u8(1, 0)? as i8,
            buffer: x.u32(2, 0)?,
            name: x.string(3, "Tensor.name")?,
            is_variable: x.u8(5, 0)? != 0,
        });
    }
    let ops = t.vector(3, 4, "SubGraph.operators")?;
    out.operators.reserve(ops.len);
    for i in 0..ops.len {
        let op = ops.table(i)?;
        out.operators.push(Operator {
            opcode: op.u32(0, 0)?,
            inputs: op.vector(1, 4, "Operator.inputs")?.i32s(),
            outputs: op.vector(2, 4, "Operator.outputs")?.i32s(),
            intermediates: op.vector(8, 4, "Operator.intermediates")?.i32s(),
        });
    }
    Ok(out)
}

impl Model {
    /// The data bytes of buffer `i` (empty when it has none or does not exist).
    pub fn data<'a>(&self, buf: &'a [u8], i: u32) -> &'a [u8] {
        self.buffers
            .get(i as usize)
            .and_then(|b| buf.get(b.data.0..b.data.1))
            .unwrap_or(&[])
    }
}
