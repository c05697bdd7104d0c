//! What a converter of `ops` (and of `window`, its convolutions and poolings) makes of
//! one ONNX node: the Aidge node's type, naming, input categories, protected inputs and
//! outputs. A module of its own so that `ops` can hand the window operators to `window`
//! without the two depending on each other.

/// Whether an ONNX input is a data input of the Aidge node (`Data`, `OptionalData`) or
/// not (a parameter or an attribute input: `Param`, `Attr`, `OptionalAttr`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    Data,
    Param,
}

/// How much of a data input the kernel must not overwrite while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protect {
    /// Nothing: the output may be computed in place (Aidge's in-place model).
    None,
    /// The whole input (Aidge's default).
    All,
    /// The elements a Pad adds (padded size minus input size): the padded
    /// meta-operators' first inner node.
    Padding(u64),
}

/// Which name aidge_onnx's converter gives the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// The ONNX node's name, else its first output's.
    Node,
    /// Its first output's name, whatever the node's (Shape, Squeeze, Unsqueeze, Pad,
    /// ConstantOfShape).
    Output,
    /// No name (Clip).
    Nameless,
}

/// One ONNX node as Aidge sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct AidgeOp {
    /// Aidge's type (`PaddedConv2D`, `FC`, ...).
    pub kind: String,
    /// How the converter names the node.
    pub naming: Naming,
    /// Category of each ONNX input (shorter than the node's inputs when Aidge drops
    /// trailing ones).
    pub inputs: Vec<Category>,
    /// Protection of each data input, in data-input order.
    pub protect: Vec<Protect>,
    /// Output shapes, and bytes per element of each (4: the exporter's flow sets the
    /// graph to float32; MaxPooling's indices stay int64).
    pub outputs: Vec<(Vec<u64>, u64)>,
    /// The integer contents of each output when they are known at import (shape
    /// arithmetic: Shape, Gather, Concat, ... of constants), as Aidge's forward_dims
    /// computes them; empty when none is.
    pub values: Vec<Option<Vec<i64>>>,
    /// True for a node opened with the shapes the file gives (see `Builder::generic`).
    pub sized_by_model: bool,
    /// Initializer inputs aidge_onnx's converter resizes in place at import (ONNX input
    /// index, new dims): Gemm's `[1, N]` bias becomes `[N]`. The Producer, shared by
    /// every reader, takes the new dims.
    pub resized_inputs: Vec<(usize, Vec<u64>)>,
    /// Constant inputs whose tensor the node's `set_dataformat` tags with the node's own
    /// data format (Resize's scales, which it permutes along with the data's axes).
    pub formatted_inputs: Vec<usize>,
    /// True for a node aidge_onnx 0.10.1 imports as a GenericOperator (its converter
    /// has no Aidge operator for it): Aidge's import is where it fails.
    pub imported_generic: bool,
}

/// Why a node cannot be converted: the caller adds the node's name and type.
pub type OpResult = std::result::Result<AidgeOp, String>;

/// Elements of a tensor, saturating: dims come from the file, and a product past 2^64
/// must become a refusal (the caller bounds sizes), not a wrap-around.
pub fn elements(dims: &[u64]) -> u64 {
    dims.iter().fold(1u64, |a, &b| a.saturating_mul(b))
}

/// A node of one float output, named after the ONNX node: what most converters make.
pub(super) fn op(
    kind: &str,
    inputs: Vec<Category>,
    protect: Vec<Protect>,
    dims: Vec<u64>,
) -> AidgeOp {
    AidgeOp {
        kind: kind.to_string(),
        naming: Naming::Node,
        inputs,
        protect,
        outputs: vec![(dims, 4)],
        values: Vec::new(),
        sized_by_model: false,
        resized_inputs: Vec::new(),
        formatted_inputs: Vec::new(),
        imported_generic: false,
    }
}
