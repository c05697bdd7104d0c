//! ONNX models (`.onnx`): the schedule document Aidge 0.10.1 would give for the model,
//! without Aidge. It reproduces, for a fixed input shape, what
//! `python/memplan/aidge/exporter.py` writes after `aidge_onnx.load_onnx`,
//! `set_datatype(float32)`, `forward_dims` and `SequentialScheduler.generate_scheduling`:
//! node names as aidge_onnx gives them, Aidge's operator mapping (padded convolutions
//! and poolings become `Padded*` meta-operators, Gemm becomes FC, ...), each output's
//! bytes, readers and parameter readers, each data input's required and protected data
//! as aidge_backend_cpu's kernels answer them, and the scheduler's order (Aidge runs
//! its consumers in waves; inside a wave its order is that of pointers, arbitrary, and
//! memplan takes the file's). Parity with the real wheels: tests/parity/onnx_diff.py.
//!
//! Only what the plan needs is read: the graph, the initializers' dims (their bytes stay
//! slices of the file) and the integer constants Reshape takes. Operators memplan does
//! not know are refused by name ([`ops::KNOWN`]) unless the file gives their output
//! shapes or they are onnxruntime's contrib operators ([`contrib::CONTRIB`]); so are
//! models whose weights live in external files.

mod aidge_op;
mod contrib;
mod converters;
pub mod graph;
mod kernels;
mod ops;
pub mod proto;
mod window;
pub mod write;

use crate::schedule::{
    AidgeFails, AidgeResize, AidgeStage, Consumer, Input, Node, Output, Port, Schedule,
};
use crate::{Error, Result};
use graph::{Attrs, Def, Value};
use ops::{Category, Protect};
use prost::Message;

pub use contrib::CONTRIB;
pub use ops::OPS;

/// Largest tensor accepted, in elements: far above any real model, far below 2^64
/// bytes, so that sizes computed from a corrupt file never wrap.
const MAX_ELEMENTS: u64 = 1 << 48;

/// A symbolic dimension of the graph inputs (`batch`, `sequence`), which the user
/// fixes before planning.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SymbolicDim {
    /// The name the model gives it (`dim_param`), or `input[axis]` when it has none.
    pub name: String,
    /// The value used when the user gives none: 1.
    pub default: u64,
    /// The graph inputs that carry it, as `name[axis]`.
    pub used_by: Vec<String>,
}

/// The graph of a model (the subset [`proto`] reads), refused when it has none or no nodes.
pub fn decode(bytes: &[u8]) -> Result<proto::GraphProto> {
    let model = proto::ModelProto::decode(prost::bytes::Bytes::copy_from_slice(bytes))
        .map_err(|e| Error::whole(format!("not a valid ONNX model (protobuf: {e})")))?;
    let graph = model
        .graph
        .ok_or_else(|| Error::whole("not an ONNX model: it has no graph (ModelProto.graph)"))?;
    if graph.node.is_empty() {
        return Err(Error::whole("the ONNX model's graph has no nodes"));
    }
    Ok(graph)
}

/// The symbolic dimensions of the model's inputs, in order of first use. A model that
/// cannot be read whatever its dims (weights in external files, an operator memplan
/// does not know) is refused here already, before anyone is asked for numbers.
pub fn symbolic_dims(bytes: &[u8]) -> Result<Vec<SymbolicDim>> {
    let graph = decode(bytes)?;
    refuse_unreadable(&graph)?;
    let mut out: Vec<SymbolicDim> = Vec::new();
    for v in graph::data_inputs(&graph) {
        let name = v.name.clone().unwrap_or_default();
        for (axis, d) in input_shape(v).unwrap_or_default().iter().enumerate() {
            if d.dim_value.is_some_and(|x| x > 0) {
                continue;
            }
            let key = symbol(&name, axis, d);
            let at = format!("{name}[{axis}]");
            match out.iter_mut().find(|s| s.name == key) {
                Some(s) => s.used_by.push(at),
                None => out.push(SymbolicDim {
                    name: key,
                    default: 1,
                    used_by: vec![at],
                }),
            }
        }
    }
    Ok(out)
}

fn input_shape(v: &proto::ValueInfoProto) -> Option<&[proto::Dimension]> {
    let t = v.r#type.as_ref()?.tensor_type.as_ref()?;
    Some(&t.shape.as_ref()?.dim)
}

fn symbol(input: &str, axis: usize, d: &proto::Dimension) -> String {
    match d.dim_param.as_deref() {
        Some(p) if !p.is_empty() => p.to_string(),
        _ => format!("{input}[{axis}]"),
    }
}

/// Reads a model into the schedule document Aidge 0.10.1 gives for it, with the
/// symbolic dimensions fixed by `dims` (name, value); the others take their default.
pub fn read(bytes: &[u8], dims: &[(String, u64)]) -> Result<Schedule> {
    let graph = decode(bytes)?;
    // Aidge's own rules first, with the sizes its forward_dims gives a node whose value
    // inputs no kernel has computed yet: when Aidge then runs the model, that is the
    // schedule its export allocates.
    if let Ok(b) = Builder::new(&graph, dims, ops::Rules::Aidge, true) {
        if b.fails.is_empty() || b.resizes.is_empty() {
            return b.schedule();
        }
    }
    // A model Aidge cannot run: ONNX's sizes there, the node said as where Aidge goes
    // wrong. A model Aidge's rules cannot size (its Slice bounds giving shapes that no
    // longer fit) is read again with ONNX's, the nodes where the two differ marked as
    // sized from the model.
    match Builder::new(&graph, dims, ops::Rules::Aidge, false) {
        Ok(b) => b.schedule(),
        Err(first) => match Builder::new(&graph, dims, ops::Rules::Onnx, false) {
            Ok(b) => b.schedule(),
            Err(_) => Err(first),
        },
    }
}

/// Where a value of the graph comes from, in Aidge's graph.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A graph input: Aidge's input is left unconnected.
    GraphInput,
    /// Output `o` of Aidge node `n` (index in [`Builder::nodes`]).
    Node(usize, usize),
}

struct Builder<'g> {
    graph: &'g proto::GraphProto,
    uses: Vec<Vec<Option<Def>>>,
    inputs: Vec<Value>,
    inits: Vec<Value>,
    /// Per ONNX node: its Aidge op (None for Constant) and its output values.
    ops: Vec<Option<ops::AidgeOp>>,
    outs: Vec<Vec<Value>>,
    /// Where Aidge 0.10.1 fails on the model: stage, ONNX node index, why.
    fails: Vec<(AidgeStage, usize, String)>,
    /// Where it sizes a node otherwise than ONNX and goes on: ONNX node index, why.
    resizes: Vec<(usize, String)>,
}

/// What Aidge's forward_dims meets on a node whose value input no kernel computed yet.
enum Unwritten {
    /// It fails there (why).
    Fails(String),
    /// It sizes the node so (Aidge's op) and goes on (why).
    Resizes(ops::AidgeOp, String),
}

fn external(t: &proto::TensorProto) -> bool {
    t.data_location == Some(1) || !t.external_data.is_empty()
}

fn refuse_external(what: &str, name: &str, t: &proto::TensorProto) -> Result<()> {
    if external(t) {
        let file = t
            .external_data
            .iter()
            .find(|e| e.key.as_deref() == Some("location"))
            .and_then(|e| e.value.clone())
            .unwrap_or_default();
        return Err(Error::whole(format!(
            "{what} '{name}' is stored as external data (in '{file}'): memplan reads \
             self-contained .onnx files only (save the model with \
             onnx.save_model(model, path, save_as_external_data=False), under 2 GB)"
        )));
    }
    Ok(())
}

/// The shape and element bytes the file gives for a value (a value_info or graph
/// output entry with every dim a positive number), for operators memplan cannot size.
fn file_shape(graph: &proto::GraphProto, name: &str) -> Option<(Vec<u64>, u64)> {
    let v = graph
        .value_info
        .iter()
        .chain(&graph.output)
        .find(|v| v.name.as_deref() == Some(name))?;
    let t = v.r#type.as_ref()?.tensor_type.as_ref()?;
    let dims = t
        .shape
        .as_ref()?
        .dim
        .iter()
        .map(|d| d.dim_value.filter(|&x| x > 0).map(|x| x as u64))
        .collect::<Option<Vec<u64>>>()?;
    let bytes = graph::element_bytes(t.elem_type.unwrap_or(1));
    Some((dims, bytes))
}

/// The checks that do not depend on the input dims: external data, and operators
/// memplan cannot size that the file gives no shape for.
fn refuse_unreadable(graph: &proto::GraphProto) -> Result<()> {
    for t in &graph.initializer {
        refuse_external("initializer", t.name.as_deref().unwrap_or(""), t)?;
    }
    for node in &graph.node {
        let op_type = node.op_type.as_deref().unwrap_or("");
        let name = node.name.as_deref().unwrap_or("");
        if let Some(t) = Attrs(&node.attribute).tensor("value") {
            refuse_external("Constant", name, t)?;
        }
        let standard = matches!(node.domain.as_deref(), None | Some("") | Some("ai.onnx"));
        let same_shape = standard && ops::SAME_SHAPE_GENERIC.contains(&op_type);
        let contrib = contrib::known(node.domain.as_deref().unwrap_or(""), op_type);
        if !same_shape && !contrib && (!standard || (op_type != "Constant" && !ops::known(op_type)))
        {
            // Opened as a generic node when the file gives every output's shape.
            if let Some(missing) = node
                .output
                .iter()
                .find(|o| !o.is_empty() && file_shape(graph, o).is_none())
            {
                return Err(Error::whole(format!(
                    "node '{name}' (op type {op_type}{}): {}; the file gives no static shape \
                     for its output '{missing}' (no value_info or graph output entry), so \
                     no size can be known",
                    node.domain
                        .as_deref()
                        .filter(|d| !d.is_empty())
                        .map(|d| format!(", domain {d}"))
                        .unwrap_or_default(),
                    if standard {
                        ops::unknown()
                    } else {
                        contrib::unknown()
                    }
                )));
            }
        }
    }
    Ok(())
}

impl<'g> Builder<'g> {
    fn new(
        graph: &'g proto::GraphProto,
        dims: &[(String, u64)],
        rules: ops::Rules,
        aidge_resizes: bool,
    ) -> Result<Self> {
        refuse_unreadable(graph)?;
        let mut inits = Vec::with_capacity(graph.initializer.len());
        for t in &graph.initializer {
            let name = t.name.clone().unwrap_or_default();
            refuse_external("initializer", &name, t)?;
            let d = graph::tensor_dims(t).ok_or_else(|| {
                Error::whole(format!(
                    "initializer '{name}' has a negative dim {:?}",
                    t.dims
                ))
            })?;
            if ops::elements(&d) > MAX_ELEMENTS {
                return Err(Error::whole(format!(
                    "initializer '{name}' has dims {d:?}: too large"
                )));
            }
            inits.push(Value {
                dims: d,
                values: graph::tensor_ints(t),
                floats: graph::tensor_floats(t),
                element_bytes: graph::element_bytes(t.data_type.unwrap_or(1)),
                folded: false,
            });
        }
        let mut inputs = Vec::new();
        for v in graph::data_inputs(graph) {
            let name = v.name.clone().unwrap_or_default();
            let shape = input_shape(v)
                .ok_or_else(|| Error::whole(format!("graph input '{name}' has no tensor shape")))?;
            let d = shape
                .iter()
                .enumerate()
                .map(|(axis, d)| match d.dim_value {
                    Some(x) if x > 0 => x as u64,
                    _ => {
                        let key = symbol(&name, axis, d);
                        dims.iter()
                            .find(|(k, _)| *k == key)
                            .map(|(_, v)| *v)
                            .unwrap_or(1)
                    }
                })
                .collect::<Vec<u64>>();
            if ops::elements(&d) > MAX_ELEMENTS {
                return Err(Error::whole(format!(
                    "graph input '{name}' has dims {d:?}: too large"
                )));
            }
            inputs.push(Value {
                dims: d,
                values: None,
                floats: None,
                element_bytes: 4,
                folded: false,
            });
        }
        let uses = graph::uses(graph).map_err(Error::whole)?;
        let mut b = Builder {
            graph,
            uses,
            inputs,
            inits,
            ops: Vec::new(),
            outs: Vec::new(),
            fails: Vec::new(),
            resizes: Vec::new(),
        };
        b.infer(rules, aidge_resizes)?;
        Ok(b)
    }

    /// A node Aidge cannot size, opened as a generic node (every input read whole and
    /// protected, as Aidge's default model does) with the output shapes the file gives,
    /// else its input's for the operators of [`ops::SAME_SHAPE_GENERIC`], else
    /// onnxruntime's schema for a contrib operator ([`contrib::CONTRIB`]). The file's
    /// shapes win where it gives them all: they are the exporter's own, and memplan's
    /// rules are only needed where it gives none (usually: onnxruntime's optimizer
    /// writes no value_info for its fused nodes). `Err(None)` when none of these
    /// sizes it, `Err(Some(why))` when a contrib rule cannot.
    fn generic(
        &self,
        node: &proto::NodeProto,
        ins: &[Option<&Value>],
    ) -> std::result::Result<ops::AidgeOp, Option<String>> {
        let inputs = ins.len();
        let op_type = node.op_type.as_deref().unwrap_or("");
        let from_file = || {
            node.output
                .iter()
                .map(|o| file_shape(self.graph, o))
                .collect::<Option<Vec<_>>>()
        };
        let outputs = match ins.first().copied().flatten() {
            Some(x) if ops::SAME_SHAPE_GENERIC.contains(&op_type) && node.output.len() == 1 => {
                vec![(x.dims.clone(), 4)]
            }
            _ => match from_file() {
                Some(o) => o,
                None if contrib::known(node.domain.as_deref().unwrap_or(""), op_type) => {
                    contrib::shapes(op_type, &Attrs(&node.attribute), ins, node.output.len())
                        .map_err(Some)?
                        .into_iter()
                        .map(|d| (d, 4))
                        .collect()
                }
                None => return Err(None),
            },
        };
        Ok(ops::AidgeOp {
            kind: node.op_type.clone().unwrap_or_default(),
            naming: ops::Naming::Node,
            inputs: vec![Category::Data; inputs],
            protect: vec![Protect::All; inputs],
            values: Vec::new(),
            outputs,
            sized_by_model: true,
            resized_inputs: Vec::new(),
            formatted_inputs: Vec::new(),
            imported_generic: false,
        })
    }

    /// The elem_type the graph outputs give a node's first output, if it is one.
    fn output_type(&self, node: &proto::NodeProto) -> Option<i32> {
        let name = node.output.first()?;
        self.graph
            .output
            .iter()
            .find(|v| v.name.as_ref() == Some(name))?
            .r#type
            .as_ref()?
            .tensor_type
            .as_ref()?
            .elem_type
            .filter(|&t| t != 0)
    }

    fn value(&self, def: Def) -> &Value {
        match def {
            Def::Input(i) => &self.inputs[i],
            Def::Init(i) => &self.inits[i],
            Def::Node(n, o) => &self.outs[n][o],
        }
    }

    /// Whether input `i` of ONNX node `n` is int64 in Aidge's graph once
    /// set_datatype(float32) ran: an output of a converted node that keeps 8-byte
    /// elements (Shape, Size, ArgMax, a Cast to int64, ...); never an initializer, a
    /// Constant or a graph input, which become float32.
    fn int64_in_aidge(&self, n: usize, i: usize) -> bool {
        match self.uses[n].get(i).copied().flatten() {
            Some(Def::Node(m, o)) => self.ops[m]
                .as_ref()
                .and_then(|op| op.outputs.get(o))
                .is_some_and(|out| out.1 == 8),
            _ => false,
        }
    }

    /// The rules by which Aidge 0.10.1 fails on ONNX node `n` (converted as `op`) that
    /// the node alone shows, added to `fails`; a node whose forward_dims fails is sized
    /// by ONNX's rules, marked. `onnx_rules`: a standard node read with ONNX's rules.
    fn failures(
        &self,
        n: usize,
        onnx_rules: bool,
        op: &mut ops::AidgeOp,
        fails: &mut Vec<(AidgeStage, String)>,
    ) {
        let node = &self.graph.node[n];
        let op_type = node.op_type.as_deref().unwrap_or("");
        let standard = matches!(node.domain.as_deref(), None | Some("") | Some("ai.onnx"));
        // Aidge 0.10.1's Expand and Resize forwardDims require an int64 shape (Expand's
        // input 1, Resize's Sizes, input 3), and set_datatype(float32) leaves int64
        // only the outputs of Shape-like nodes: a shape from an initializer, a Constant
        // or arithmetic (as transformers' and torchvision's exports compute it) makes
        // Aidge's forward_dims fail ("shape input (#1) Data type must be int64",
        // "Input#3 (Sizes) data type Resize must be UInt64 or Int64"; probed on the
        // wheel). memplan sizes those nodes by ONNX's rule, marked.
        let shape_input = match op_type {
            "Expand" => Some(1),
            "Resize" => Some(3),
            _ => None,
        };
        if let Some(i) = shape_input.filter(|_| standard) {
            if self.uses[n].get(i).copied().flatten().is_some() && !self.int64_in_aidge(n, i) {
                op.sized_by_model = true;
                fails.push((
                    AidgeStage::ForwardDims,
                    format!("its input #{i} is not int64 (set_datatype(float32) made it float32)"),
                ));
            }
        }
        if op.imported_generic {
            fails.push((
                AidgeStage::Import,
                "aidge_onnx imports it as a GenericOperator, which Aidge cannot size".into(),
            ));
        } else if op.sized_by_model && onnx_rules && op_type == "Slice" {
            fails.push((
                AidgeStage::ForwardDims,
                "Aidge's Slice rule (its bounds capped to the axis; a negative step \
                 with End not below Start) cannot size it"
                    .into(),
            ));
        }
        if fails.iter().any(|f| f.0 == AidgeStage::ForwardDims) {
            op.sized_by_model = true;
        }
    }

    /// Where Aidge's forward_dims sizes node `n` otherwise than ONNX's rules (`op`): it
    /// reads a value input (Reshape's shape, Slice's bounds, ...) as the tensor holds it
    /// then, and only Producers and Shape, Size and Range nodes (whose forward_dims
    /// computes them; a Range of unwritten values is itself found here) have written
    /// theirs by then; the output of any other operator still holds zeros (probed on
    /// the wheel: Gather, Slice,
    /// Concat, Cast, Unsqueeze, Add, Mul, Div, Reshape, Transpose of a Shape all read as
    /// zeros). The node is sized again by Aidge's rules with those inputs zero: an error
    /// is where Aidge's forward_dims fails; other dims are Aidge's sizes, with which it
    /// goes on (a ReduceMean whose axes an exporter computes reduces axis 0: probed on
    /// the wheel with torch's dynamo export of an RMSNorm).
    fn unwritten(&self, n: usize, ins: &[Option<&Value>], op: &ops::AidgeOp) -> Option<Unwritten> {
        let g = self.graph;
        let mut zeros: Vec<Option<Value>> = vec![None; ins.len()];
        let mut from = None;
        for (i, (d, cat)) in self.uses[n].iter().zip(&op.inputs).enumerate() {
            let Some(Def::Node(m, _)) = *d else { continue };
            let written = self.ops[m].is_none()
                || matches!(
                    g.node[m].op_type.as_deref(),
                    Some("Shape" | "Size" | "Range")
                );
            let Some(v) = ins.get(i).copied().flatten() else {
                continue;
            };
            let Some(vals) = v.values.as_ref().filter(|v| v.iter().any(|&x| x != 0)) else {
                continue;
            };
            if *cat == Category::Param && !written {
                zeros[i] = Some(Value {
                    values: Some(vec![0; vals.len()]),
                    folded: false,
                    ..v.clone()
                });
                from.get_or_insert(m);
            }
        }
        let m = from?;
        let node = &g.node[n];
        let ins: Vec<Option<&Value>> = ins
            .iter()
            .zip(&zeros)
            .map(|(v, z)| z.as_ref().or(*v))
            .collect();
        let source = &g.node[m];
        let read = format!(
            "it reads values of node '{}' ({}), which no kernel has computed when forward_dims \
             reads them (Aidge reads zeros)",
            source.name.as_deref().unwrap_or(""),
            source.op_type.as_deref().unwrap_or("")
        );
        let aidge = ops::convert(
            node.op_type.as_deref().unwrap_or(""),
            &Attrs(&node.attribute),
            &ins,
            node.output.len(),
            ops::Rules::Aidge,
        );
        match aidge {
            Err(e) => Some(Unwritten::Fails(format!("{read}; then {e}"))),
            Ok(a)
                if a.outputs
                    .iter()
                    .map(|o| &o.0)
                    .ne(op.outputs.iter().map(|o| &o.0)) =>
            {
                let why = format!(
                    "{read}; then it sizes its output {:?}, where ONNX's rules give {:?}",
                    a.outputs.first().map(|o| &o.0).unwrap_or(&Vec::new()),
                    op.outputs.first().map(|o| &o.0).unwrap_or(&Vec::new())
                );
                Some(Unwritten::Resizes(a, why))
            }
            Ok(_) => None,
        }
    }

    /// Where Aidge's scheduler finds no kernel for node `n`: aidge_backend_cpu looks a
    /// kernel up by the data types of all the node's inputs and outputs
    /// ([`kernels::KERNELS`], the wheel's registrar) as set_datatype(float32) leaves
    /// them: float32 but for the outputs of Shape-like nodes (int64, 8 bytes) and of
    /// comparisons (boolean, 1 byte), and for a graph input read by this node alone,
    /// which keeps the file's type (an Identity aidge_onnx puts before an input read by
    /// several nodes, `identity`, gives float32; probed on the wheel: a bool input of
    /// Not and Where's condition run, an int64 one of Neg finds no kernel).
    fn kernel_missing(&self, n: usize, op: &ops::AidgeOp, identity: &[bool]) -> Option<String> {
        let (_, keys) = kernels::KERNELS.iter().find(|(k, _)| *k == op.kind)?;
        let dtype = |bytes: u64| match bytes {
            8 => "int64",
            2 => "float16",
            1 => "boolean",
            _ => "float32",
        };
        let ins: Vec<Option<&str>> = self.uses[n]
            .iter()
            .zip(&op.inputs)
            .map(|(d, _)| {
                d.map(|d| match d {
                    Def::Node(m, o) => self.ops[m]
                        .as_ref()
                        .and_then(|p| p.outputs.get(o))
                        .map_or("float32", |x| dtype(x.1)),
                    Def::Input(i) if !identity[i] => graph::data_inputs(self.graph)[i]
                        .r#type
                        .as_ref()
                        .and_then(|t| t.tensor_type.as_ref()?.elem_type)
                        .map_or("float32", graph::dtype_name),
                    _ => "float32",
                })
            })
            .collect();
        let outs: Vec<Option<&str>> = op.outputs.iter().map(|x| Some(dtype(x.1))).collect();
        // A key gives a type per input (output), its last one for the rest.
        let fits = |want: &[&str], got: &[Option<&str>]| {
            got.iter().enumerate().all(|(i, g)| {
                let w = want.get(i).or(want.last()).copied().unwrap_or("any");
                g.map_or(true, |g| w == "any" || w == g)
            })
        };
        let found = keys.iter().any(|k| {
            let (i, o) = k.split_once(" -> ").unwrap_or((k, ""));
            let i: Vec<&str> = i.split(' ').collect();
            let o: Vec<&str> = o.split(' ').collect();
            fits(&i, &ins) && fits(&o, &outs)
        });
        let list = |v: &[Option<&str>]| {
            v.iter()
                .map(|t| t.unwrap_or("none"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        (!found).then(|| {
            format!(
                "aidge_backend_cpu registers no {} kernel for inputs [{}] and outputs [{}] \
                 (\"missing or invalid registrar key\")",
                op.kind,
                list(&ins),
                list(&outs)
            )
        })
    }

    /// Node `n` as Aidge's operator (a standard one by `rules`, else a generic node),
    /// where Aidge fails on it pushed to `fails`, and Aidge's own op and why when its
    /// forward_dims, reading values no kernel computed yet, sizes it otherwise and
    /// `aidge_resizes` (else that is said as where Aidge fails). `infer` takes Aidge's
    /// op unless forward_dims fails on the node for another reason.
    #[allow(clippy::type_complexity)]
    fn convert(
        &self,
        n: usize,
        ins: &[Option<&Value>],
        rules: ops::Rules,
        aidge_resizes: bool,
        fails: &mut Vec<(AidgeStage, String)>,
    ) -> Result<(ops::AidgeOp, Option<(ops::AidgeOp, String)>)> {
        let node = &self.graph.node[n];
        let op_type = node.op_type.as_deref().unwrap_or("");
        let name = node.name.as_deref().unwrap_or("");
        let fail = |why: String| Error::whole(format!("node '{name}' (op type {op_type}): {why}"));
        let standard = matches!(node.domain.as_deref(), None | Some("") | Some("ai.onnx"));
        let converted = if standard {
            ops::convert(
                op_type,
                &Attrs(&node.attribute),
                ins,
                node.output.len(),
                rules,
            )
        } else {
            Err(format!(
                "operators of domain '{}' are not known to memplan",
                node.domain.as_deref().unwrap_or("")
            ))
        };
        let mut resize = None;
        let op = match converted {
            Ok(op) => match self.unwritten(n, ins, &op) {
                Some(Unwritten::Resizes(aidge, why)) if aidge_resizes => {
                    resize = Some((aidge, why));
                    op
                }
                Some(Unwritten::Resizes(_, why) | Unwritten::Fails(why)) => {
                    fails.push((AidgeStage::ForwardDims, why));
                    op
                }
                None => op,
            },
            Err(why) => {
                let op = self
                    .generic(node, ins)
                    .map_err(|rule| fail(rule.unwrap_or(why)))?;
                // Imported as a GenericOperator: an operator aidge_onnx has no converter
                // for (aidge_onnx looks converters up by name alone, whatever the domain).
                let domain = node.domain.as_deref().unwrap_or("");
                if !converters::has(op_type) || contrib::known(domain, op_type) {
                    fails.push((
                        AidgeStage::Import,
                        "aidge_onnx imports it as a GenericOperator, which Aidge cannot size"
                            .to_string(),
                    ));
                }
                op
            }
        };
        Ok((op, resize))
    }

    /// Converts every node in file order (a valid ONNX graph is topologically sorted).
    /// `aidge_resizes`: a node Aidge's forward_dims sizes otherwise than ONNX (reading
    /// unwritten values) takes Aidge's sizes; else ONNX's, said as where Aidge fails.
    fn infer(&mut self, rules: ops::Rules, aidge_resizes: bool) -> Result<()> {
        for (n, node) in self.graph.node.iter().enumerate() {
            let op_type = node.op_type.as_deref().unwrap_or("");
            let name = node.name.as_deref().unwrap_or("");
            let fail =
                |why: String| Error::whole(format!("node '{name}' (op type {op_type}): {why}"));
            let standard = matches!(node.domain.as_deref(), None | Some("") | Some("ai.onnx"));
            if standard && op_type == "Constant" {
                let v = constant(node).map_err(fail)?;
                if ops::elements(&v.dims) > MAX_ELEMENTS {
                    return Err(fail(format!("its dims {:?} are too large", v.dims)));
                }
                self.ops.push(None);
                self.outs.push(vec![v]);
                continue;
            }
            let ins: Vec<Option<&Value>> = self.uses[n]
                .iter()
                .map(|d| d.map(|d| self.value(d)))
                .collect();
            let mut fails = Vec::new();
            let (mut op, resize) = self.convert(n, &ins, rules, aidge_resizes, &mut fails)?;
            if matches!(op_type, "Cast" | "ArgMax") && !op.sized_by_model {
                // Their output keeps the type aidge_onnx gives a graph output (the ONNX
                // output's elem_type) through set_datatype.
                if let Some(t) = self.output_type(node) {
                    op.outputs[0].1 = graph::element_bytes(t);
                }
            }
            // A node sized by folded values is sized by ONNX's rules, which Aidge's
            // forward_dims cannot follow (it reads them before any kernel ran).
            let folded_in = ins.iter().flatten().any(|v| v.folded && v.values.is_some());
            if !matches!(op_type, "Shape" | "Size")
                && resize.is_none()
                && ins
                    .iter()
                    .zip(&op.inputs)
                    .any(|(v, c)| *c == Category::Param && v.is_some_and(|v| v.folded))
            {
                op.sized_by_model = true;
            }
            self.failures(
                n,
                standard && rules == ops::Rules::Onnx,
                &mut op,
                &mut fails,
            );
            // Aidge's own sizes, unless its forward_dims fails on the node for another reason.
            let resized = match resize {
                Some((mut aidge, why)) if !fails.iter().any(|f| f.0 == AidgeStage::ForwardDims) => {
                    for (a, o) in aidge.outputs.iter_mut().zip(&op.outputs) {
                        a.1 = o.1;
                    }
                    op = aidge;
                    Some(why)
                }
                _ => None,
            };
            for (i, dims) in &op.resized_inputs {
                if let Some(Some(Def::Init(k))) = self.uses[n].get(*i) {
                    self.inits[*k].dims.clone_from(dims);
                }
            }
            if let Some((d, _)) = op
                .outputs
                .iter()
                .find(|(d, _)| ops::elements(d) > MAX_ELEMENTS)
            {
                return Err(fail(format!(
                    "its output of dims {d:?} is larger than memplan plans (2^48 elements)"
                )));
            }
            let folds = folded_in || matches!(op_type, "Mod" | "Reshape" | "Transpose");
            let outs: Vec<Value> = op
                .outputs
                .iter()
                .enumerate()
                .map(|(o, (d, _))| {
                    let values = op.values.get(o).cloned().flatten();
                    Value {
                        dims: d.clone(),
                        folded: folds && values.is_some(),
                        values,
                        floats: None,
                        element_bytes: 4,
                    }
                })
                .collect();
            self.ops.push(Some(op));
            self.outs.push(outs);
            self.fails
                .extend(fails.into_iter().map(|(stage, why)| (stage, n, why)));
            self.resizes.extend(resized.map(|why| (n, why)));
        }
        // The scheduler's kernel lookup, once every node's types are known.
        let identity = self.used().3;
        for (n, op) in self.ops.iter().enumerate() {
            let Some(op) = op else { continue };
            if let Some(why) = self.kernel_missing(n, op, &identity) {
                self.fails.push((AidgeStage::SchedulerKernel, n, why));
            }
        }
        // An ONNX output that Aidge's node lacks must not be read.
        for (n, row) in self.uses.iter().enumerate() {
            for d in row.iter().flatten() {
                if let Def::Node(m, o) = *d {
                    if o >= self.outs[m].len() {
                        let node = &self.graph.node[m];
                        return Err(Error::whole(format!(
                            "node '{}' (op type {}): its output {o} is read by node '{}', but \
                             Aidge's operator has {} output(s)",
                            node.name.as_deref().unwrap_or(""),
                            node.op_type.as_deref().unwrap_or(""),
                            self.graph.node[n].name.as_deref().unwrap_or(""),
                            self.outs[m].len()
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// Which initializers and which nodes some node reads, the graph outputs'
    /// definitions, and which graph inputs get an Identity node (aidge_onnx inserts one
    /// for an input read by several nodes or also a graph output).
    #[allow(clippy::type_complexity)]
    fn used(&self) -> (Vec<bool>, Vec<bool>, Vec<Option<Def>>, Vec<bool>) {
        let g = self.graph;
        let mut used_init = vec![false; self.inits.len()];
        let mut used_node = vec![false; g.node.len()];
        let mut readers = vec![0usize; self.inputs.len()];
        for (n, row) in self.uses.iter().enumerate() {
            // An input past the Aidge op's own (Quantizer's folded scale) is not read.
            let kept = self.ops[n].as_ref().map_or(row.len(), |op| op.inputs.len());
            for d in row.iter().take(kept).flatten() {
                match *d {
                    Def::Init(i) => used_init[i] = true,
                    Def::Node(m, _) => used_node[m] = true,
                    Def::Input(i) => readers[i] += 1,
                }
            }
        }
        let outputs: Vec<Option<Def>> = self.graph_outputs();
        let identity = (0..self.inputs.len())
            .map(|i| readers[i] > 1 || outputs.contains(&Some(Def::Input(i))))
            .collect();
        (used_init, used_node, outputs, identity)
    }

    /// The schedule: Producers first (used initializers in file order, then Constant
    /// nodes), then the operators in the scheduler's waves.
    fn schedule(&self) -> Result<Schedule> {
        let g = self.graph;
        let (used_init, used_node, outputs, identity) = self.used();
        let mut nodes: Vec<Node> = Vec::new();
        let mut init_node = vec![usize::MAX; self.inits.len()];
        let mut op_node = vec![usize::MAX; g.node.len()];
        for (i, t) in g.initializer.iter().enumerate() {
            if used_init[i] {
                init_node[i] = nodes.len();
                let name = graph::aidge_name(t.name.as_deref().unwrap_or(""));
                nodes.push(producer(name, &self.inits[i]));
            }
        }
        for (n, node) in g.node.iter().enumerate() {
            if self.ops[n].is_none() && used_node[n] {
                op_node[n] = nodes.len();
                nodes.push(producer(graph::node_name(node), &self.outs[n][0]));
            }
        }
        // aidge_onnx's Identity nodes, named after their graph input, run first.
        let mut id_node = vec![usize::MAX; self.inputs.len()];
        for (i, v) in graph::data_inputs(g).iter().enumerate() {
            if identity[i] {
                id_node[i] = nodes.len();
                let dims = &self.inputs[i].dims;
                nodes.push(Node {
                    name: graph::aidge_name(v.name.as_deref().unwrap_or("")),
                    kind: "Identity".into(),
                    producer: false,
                    sized_by_model: false,
                    inputs: vec![Input {
                        parent: None,
                        required_data: ops::elements(dims),
                        required_protected: 0,
                    }],
                    outputs: vec![output(dims, 4, tag(dims.len(), dims.len()))],
                });
            }
        }
        let unknown = self.rank_unknown();
        for n in self.wave_order(&identity) {
            let (node, op) = (&g.node[n], self.ops[n].as_ref().expect("ops only"));
            op_node[n] = nodes.len();
            let rank = self.format_rank(n, &unknown);
            nodes.push(Node {
                name: match op.naming {
                    ops::Naming::Node => graph::node_name(node),
                    ops::Naming::Output => node
                        .output
                        .first()
                        .map(|o| graph::aidge_name(o))
                        .unwrap_or_default(),
                    ops::Naming::Nameless => String::new(),
                },
                kind: op.kind.clone(),
                producer: false,
                inputs: Vec::new(),
                sized_by_model: op.sized_by_model,
                outputs: op
                    .outputs
                    .iter()
                    .map(|(d, eb)| output(d, *eb, tag(rank, d.len())))
                    .collect(),
            });
        }
        self.tag_formatted(&mut nodes, &init_node, &op_node, &unknown);
        let source = |d: Def| match d {
            Def::Input(i) if identity[i] => Source::Node(id_node[i], 0),
            Def::Input(_) => Source::GraphInput,
            Def::Init(i) => Source::Node(init_node[i], 0),
            Def::Node(m, o) => Source::Node(op_node[m], o),
        };
        // Edges in file order, as aidge_onnx adds them (each output's readers in order).
        for (n, row) in self.uses.iter().enumerate() {
            let Some(op) = &self.ops[n] else { continue };
            let me = op_node[n];
            for (def, cat) in row.iter().zip(&op.inputs) {
                match cat {
                    Category::Data => {
                        let index = nodes[me].inputs.len();
                        let elems = def.map_or(0, |d| ops::elements(&self.value(d).dims));
                        let protected = match op.protect.get(index).copied().unwrap_or(Protect::All)
                        {
                            Protect::None => 0,
                            Protect::All => elems,
                            Protect::Padding(p) => p,
                        };
                        // An empty tensor (an empty Slice of a shape, ONNX's rules) is no
                        // edge: nothing to place, and Aidge's stacks refuse 0-byte blocks.
                        let parent = match def.map(source) {
                            Some(Source::Node(p, o))
                                if elems > 0
                                    || !matches!(def, Some(Def::Node(m, _)) if self.ops[*m].is_some()) =>
                            {
                                nodes[p].outputs[o].consumers.push(Consumer {
                                    node: me,
                                    input: index,
                                });
                                Some(Port { node: p, output: o })
                            }
                            _ => None,
                        };
                        nodes[me].inputs.push(Input {
                            parent,
                            required_data: elems,
                            required_protected: protected,
                        });
                    }
                    Category::Param => {
                        let empty = matches!(def, Some(Def::Node(m, _)) if self.ops[*m].is_some())
                            && def.is_some_and(|d| ops::elements(&self.value(d).dims) == 0);
                        if let (Some(Source::Node(p, o)), false) = (def.map(source), empty) {
                            let readers = &mut nodes[p].outputs[o].param_readers;
                            if !readers.contains(&me) {
                                readers.push(me);
                            }
                        }
                    }
                }
            }
        }
        for d in outputs.into_iter().flatten() {
            match d {
                Def::Node(m, o) if self.ops[m].is_some() => {
                    nodes[op_node[m]].outputs[o].graph_output = true;
                }
                Def::Input(i) if identity[i] => nodes[id_node[i]].outputs[0].graph_output = true,
                _ => {}
            }
        }
        let schedule = Schedule {
            aidge_fails: self.first_failure(&nodes, &op_node),
            aidge_resizes: self.resizes_of(&nodes, &op_node),
            nodes,
            alignment: None,
        };
        schedule.validate()?;
        Ok(schedule)
    }

    /// Tags the Producers a node's set_dataformat tags with its own format (Resize's
    /// scales); `init_node`, `op_node`: each initializer's and ONNX node's index in `nodes`.
    fn tag_formatted(
        &self,
        nodes: &mut [Node],
        init_node: &[usize],
        op_node: &[usize],
        unknown: &[bool],
    ) {
        for (n, op) in self.ops.iter().enumerate() {
            let Some(op) = op else { continue };
            let rank = self.format_rank(n, unknown);
            for &i in &op.formatted_inputs {
                let p = match self.uses[n].get(i).copied().flatten() {
                    Some(Def::Init(k)) => init_node[k],
                    Some(Def::Node(m, 0)) if self.ops[m].is_none() => op_node[m],
                    _ => continue,
                };
                nodes[p].outputs[0].data_format = tag(rank, rank);
            }
        }
    }

    /// Where Aidge fails first: the earliest stage, at its first node in file order
    /// (`op_node`: each ONNX node's index in `nodes`).
    fn first_failure(&self, nodes: &[Node], op_node: &[usize]) -> Option<AidgeFails> {
        self.fails
            .iter()
            .min_by_key(|(stage, n, _)| (*stage, *n))
            .map(|(stage, n, why)| AidgeFails {
                stage: *stage,
                node: nodes[op_node[*n]].name.clone(),
                kind: nodes[op_node[*n]].kind.clone(),
                why: why.clone(),
            })
    }

    /// The nodes Aidge sizes otherwise than ONNX, as the schedule names them.
    fn resizes_of(&self, nodes: &[Node], op_node: &[usize]) -> Vec<AidgeResize> {
        self.resizes
            .iter()
            .map(|(n, why)| AidgeResize {
                node: nodes[op_node[*n]].name.clone(),
                kind: nodes[op_node[*n]].kind.clone(),
                why: why.clone(),
            })
            .collect()
    }

    fn graph_outputs(&self) -> Vec<Option<Def>> {
        // The definition each graph output names, found as a node input would be.
        let mut last: std::collections::HashMap<&str, Def> = std::collections::HashMap::new();
        for (i, v) in graph::data_inputs(self.graph).iter().enumerate() {
            last.insert(v.name.as_deref().unwrap_or(""), Def::Input(i));
        }
        for (n, node) in self.graph.node.iter().enumerate() {
            for (o, name) in node.output.iter().enumerate() {
                last.insert(name, Def::Node(n, o));
            }
        }
        self.graph
            .output
            .iter()
            .map(|v| last.get(v.name.as_deref().unwrap_or("")).copied())
            .filter(|d| !matches!(d, Some(Def::Node(m, o)) if *o >= self.outs[*m].len()))
            .collect()
    }

    /// Which nodes' outputs ONNX's `infer_shapes` (run by aidge_onnx at import, without
    /// data propagation) leaves without a rank: a Reduce* whose axes input is neither an
    /// initializer nor a Constant node (RMSNormalization's expansion computes them),
    /// and every node but Shape and Size reading such an output, unless the file
    /// declares the output's shape (value_info or graph output).
    fn rank_unknown(&self) -> Vec<bool> {
        let g = self.graph;
        let mut unknown = vec![false; g.node.len()];
        for (n, node) in g.node.iter().enumerate() {
            let op_type = node.op_type.as_deref().unwrap_or("");
            let declared = node.output.iter().all(|o| {
                g.value_info
                    .iter()
                    .chain(&g.output)
                    .find(|v| v.name.as_deref() == Some(o.as_str()))
                    .and_then(|v| v.r#type.as_ref()?.tensor_type.as_ref()?.shape.as_ref())
                    .is_some()
            });
            if declared || matches!(op_type, "Shape" | "Size" | "Constant") {
                continue;
            }
            let computed_axes = op_type.starts_with("Reduce")
                && matches!(self.uses[n].get(1).copied().flatten(),
                            Some(Def::Node(m, _)) if self.ops[m].is_some());
            unknown[n] = computed_axes
                || self.uses[n]
                    .iter()
                    .flatten()
                    .any(|d| matches!(*d, Def::Node(m, _) if unknown[m]));
        }
        unknown
    }

    /// The rank aidge_onnx takes a node's data format from (`primary_rank`), 0 where
    /// ONNX's inference gives its first input none (the node stays `default`).
    fn format_rank(&self, n: usize, unknown: &[bool]) -> usize {
        match self.uses[n].iter().flatten().next() {
            Some(Def::Node(m, _)) if unknown[*m] => 0,
            _ => self.primary_rank(n),
        }
    }

    /// Rank of the node's first named input (aidge_onnx sets the node's data format
    /// from it: 4 → nchw, 3 → ncw).
    fn primary_rank(&self, n: usize) -> usize {
        self.uses[n]
            .iter()
            .flatten()
            .next()
            .map_or(0, |&d| self.value(d).dims.len())
    }

    /// Aidge's SequentialScheduler runs, in each pass, every consumer whose data
    /// inputs have all been produced: a node runs in the pass after its latest operator
    /// parent on a data input (Producers and graph inputs are there from the start;
    /// attribute inputs such as a Reshape's shape were computed by forward_dims); a node
    /// with no data input, in the pass after its first operator parent. Inside a pass,
    /// file order.
    fn wave_order(&self, identity: &[bool]) -> Vec<usize> {
        let mut wave = vec![0usize; self.graph.node.len()];
        let mut order = Vec::new();
        for (n, row) in self.uses.iter().enumerate() {
            let Some(op) = &self.ops[n] else { continue };
            let after = |d: &Option<Def>| match *d {
                Some(Def::Node(m, _)) if self.ops[m].is_some() => Some(wave[m] + 1),
                Some(Def::Input(i)) if identity[i] => Some(1),
                _ => None,
            };
            let data = op.inputs.contains(&Category::Data);
            wave[n] = if data {
                row.iter()
                    .zip(&op.inputs)
                    .filter(|(_, c)| **c == Category::Data)
                    .filter_map(|(d, _)| after(d))
                    .max()
                    .unwrap_or(0)
            } else {
                // A node without a data input (Shape, Size: they read only dims) enters
                // the scheduler's consumers when a parent ran, and runs in the next pass
                // (probed: each of PoolFormer's Shapes runs right after its input's node).
                row.iter().filter_map(after).min().unwrap_or(0)
            };
            order.push(n);
        }
        order.sort_by_key(|&n| wave[n]);
        order
    }
}

/// Aidge's data format tag of an output of rank `rank` of a node whose data format was
/// set from a primary input of rank `node_rank`.
fn tag(node_rank: usize, rank: usize) -> String {
    match (node_rank, rank) {
        (4, 4) => "nchw",
        (3, 3) => "ncw",
        _ => "default",
    }
    .into()
}

fn output(dims: &[u64], element_bytes: u64, data_format: String) -> Output {
    let elems = ops::elements(dims);
    Output {
        dims: dims.to_vec(),
        element_bytes,
        bytes: elems.saturating_mul(element_bytes),
        required_memory: elems,
        consumers: Vec::new(),
        param_readers: Vec::new(),
        graph_output: false,
        data_format,
        token_based: false,
    }
}

/// A Constant node's value as aidge_onnx's converter makes it: its `value` tensor, an
/// int64 scalar or vector (`value_int(s)`), a float32 one (`value_float(s)`).
fn constant(node: &proto::NodeProto) -> std::result::Result<Value, String> {
    let attrs = Attrs(&node.attribute);
    // (A `value` in external data is refused by refuse_unreadable already.)
    if let Some(t) = attrs.tensor("value") {
        let dims = graph::tensor_dims(t).ok_or("negative dims")?;
        return Ok(Value {
            dims,
            values: graph::tensor_ints(t),
            floats: graph::tensor_floats(t),
            element_bytes: graph::element_bytes(t.data_type.unwrap_or(1)),
            folded: false,
        });
    }
    let value = |dims: Vec<u64>, values, floats, element_bytes| Value {
        dims,
        values,
        floats,
        element_bytes,
        folded: false,
    };
    if let Some(i) = attrs.get("value_int").and_then(|a| a.i) {
        Ok(value(Vec::new(), Some(vec![i]), None, 8))
    } else if let Some(a) = attrs.get("value_ints") {
        let n = a.ints.len() as u64;
        Ok(value(vec![n], Some(a.ints.clone()), None, 8))
    } else if let Some(f) = attrs.get("value_float").and_then(|a| a.f) {
        Ok(value(Vec::new(), None, Some(vec![f]), 4))
    } else if let Some(a) = attrs.get("value_floats") {
        let n = a.floats.len() as u64;
        Ok(value(vec![n], None, Some(a.floats.clone()), 4))
    } else {
        Err(
            "only a Constant with a `value` tensor or a `value_int(s)` / `value_float(s)` \
             attribute is supported (aidge_onnx imports the others as a GenericOperator)"
                .into(),
        )
    }
}

/// The Producer node of an initializer or a Constant node's value `v`.
fn producer(name: String, v: &Value) -> Node {
    Node {
        name,
        kind: "Producer".into(),
        producer: true,
        sized_by_model: false,
        inputs: Vec::new(),
        outputs: vec![output(&v.dims, 4, tag(v.dims.len(), v.dims.len()))],
    }
}
