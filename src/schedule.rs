//! The schedule document: what a framework's scheduler knows about a graph, and
//! all that Aidge 0.10.1's memory drivers (`crate::drivers`) read from it.
//!
//! A schedule lists the graph's nodes **in execution order** (Aidge's
//! `getSequentialStaticScheduling()`); every reference between nodes is an index
//! into [`Schedule::nodes`]. It is framework-neutral: any framework can write one
//! by filling, for each node, its data inputs (where each comes from and how much
//! of it the kernel must read / must not overwrite) and its outputs (shape, byte
//! size, consumers). `python/memplan/aidge/exporter.py` writes it from a live
//! `aidge_core` scheduler.
//!
//! Units: `bytes` is the output tensor's size in bytes; `required_memory`,
//! `required_data` and `required_protected` are in **elements** (Aidge's `Elts_t`
//! data counts), converted to bytes with the tensor's `element_bytes`, as Aidge does.
//!
//! JSON shape (inside a memplan file, under `"schedule"`):
//! ```json
//! {"nodes": [
//!   {"name": "conv", "type": "Conv2D", "producer": false,
//!    "inputs": [{"parent": null, "required_data": 150528, "required_protected": 150528}],
//!    "outputs": [{"dims": [1,64,112,112], "element_bytes": 4, "bytes": 3211264,
//!                 "required_memory": 802816, "consumers": [{"node": 1, "input": 0}]}]},
//!   {"name": "relu", "type": "ReLU",
//!    "inputs": [{"parent": {"node": 0, "output": 0}, "required_data": 802816, "required_protected": 0}],
//!    "outputs": [{"dims": [1,64,112,112], "element_bytes": 4, "bytes": 3211264,
//!                 "required_memory": 802816, "consumers": []}]}
//! ]}
//! ```

use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// A graph's nodes in execution order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Schedule {
    pub nodes: Vec<Node>,
    /// The memory alignment the framework's planner must keep for this graph, in
    /// bytes (`None`: 1). A deployment sets it (`crate::recipes::Dtype::alignment`:
    /// Aidge's export plans int8 graphs with 16); every driver plans with at least it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alignment: Option<u64>,
    /// Where Aidge 0.10.1 itself fails on the model this schedule was read from (the
    /// first stage that fails, at its first node), when the reader knows it: the plan
    /// is then memplan's sizing, never Aidge's ([`Schedule::sized_by_model_note`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aidge_fails: Option<AidgeFails>,
    /// Nodes Aidge 0.10.1's forward_dims sizes otherwise than ONNX's rules while it still
    /// runs the model (it reads a value input before any kernel computed it): the
    /// schedule holds Aidge's sizes, what its export allocates, and the notes say where
    /// the model Aidge runs is not the model ONNX defines ([`Schedule::notes`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aidge_resizes: Vec<AidgeResize>,
}

/// The stage of Aidge 0.10.1's own flow (`aidge_onnx.load_onnx`, `forward_dims`,
/// `SequentialScheduler.generate_scheduling`) that fails on a model, in that order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AidgeStage {
    /// aidge_onnx's import (an operator imported as a GenericOperator).
    Import,
    /// aidge_core's `forward_dims`.
    ForwardDims,
    /// The scheduler's kernel lookup in aidge_backend_cpu's registrar.
    SchedulerKernel,
}

impl AidgeStage {
    /// How the notes name the stage.
    pub fn words(self) -> &'static str {
        match self {
            AidgeStage::Import => "aidge_onnx's import",
            AidgeStage::ForwardDims => "its forward_dims",
            AidgeStage::SchedulerKernel => "its scheduler's kernel lookup",
        }
    }
}

/// Which node of a model Aidge 0.10.1 fails on, at which stage, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AidgeFails {
    pub stage: AidgeStage,
    /// The node's name in the schedule.
    pub node: String,
    /// The node's type in the schedule.
    #[serde(rename = "type")]
    pub kind: String,
    /// What fails, in Aidge's terms.
    pub why: String,
}

/// A node Aidge 0.10.1 sizes otherwise than ONNX's rules, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AidgeResize {
    /// The node's name in the schedule.
    pub node: String,
    /// The node's type in the schedule.
    #[serde(rename = "type")]
    pub kind: String,
    /// What Aidge reads and the sizes it gives, against ONNX's.
    pub why: String,
}

/// One node of the schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Node {
    /// Node name as the framework prints it (Aidge: `node.name()`).
    pub name: String,
    /// Operator type (Aidge: `node.type()`, e.g. `Conv2D`, `ReLU`, `Concat`, `Producer`).
    /// The drivers read it: Producers are skipped unless `inc_producers`, and
    /// the auto-concat driver treats `Concat` nodes specially.
    #[serde(rename = "type")]
    pub kind: String,
    /// True for nodes that only hold constants or graph inputs (Aidge's
    /// `Producer`): Aidge does not tick for them unless `inc_producers`.
    #[serde(default)]
    pub producer: bool,
    /// Data inputs (parameters such as weights excluded), in Aidge's
    /// `dataInputs()` order: the input index used by `required_*` and by
    /// [`Consumer::input`].
    #[serde(default)]
    pub inputs: Vec<Input>,
    /// Outputs, in order.
    #[serde(default)]
    pub outputs: Vec<Output>,
    /// True when the node's sizes come from the model file (an ONNX operator neither
    /// Aidge nor memplan can size, opened with the shapes the file gives), not from
    /// Aidge's kernels: its data inputs are taken as read whole and protected.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sized_by_model: bool,
}

/// One data input of a node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Input {
    /// Where the data comes from; `None` for an unconnected input (a graph input
    /// fed from outside the schedule).
    #[serde(default)]
    pub parent: Option<Port>,
    /// Elements the kernel reads from this input (Aidge's `getNbRequiredData`).
    #[serde(default)]
    pub required_data: u64,
    /// Elements of this input that must not be overwritten while the kernel runs
    /// (Aidge's `getNbRequiredProtected`). `protected < data` makes the input
    /// wrappable: the output may be written over it (in place / wrap-around).
    #[serde(default)]
    pub required_protected: u64,
}

/// An output of a node, named by the node's index in the schedule and the
/// output's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Port {
    pub node: usize,
    pub output: usize,
}

/// A reader of an output: node index and the index of its data input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Consumer {
    pub node: usize,
    pub input: usize,
}

/// One output tensor of a node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Output {
    /// Tensor dimensions as the framework stores them (Aidge: NCHW by default).
    #[serde(default)]
    pub dims: Vec<u64>,
    /// Bytes per element (4 for float32).
    #[serde(default = "one")]
    pub element_bytes: u64,
    /// Size of the tensor in bytes.
    pub bytes: u64,
    /// Elements the planner must reserve for this output (Aidge's
    /// `getRequiredMemory`; the element count by default).
    #[serde(default)]
    pub required_memory: u64,
    /// Every reader of this output through a data input, in the graph's child
    /// order (Aidge's `getChildren(output)` restricted to data inputs).
    #[serde(default)]
    pub consumers: Vec<Consumer>,
    /// Nodes reading this output through a parameter input (a Producer's
    /// weights read by a Conv). Aidge counts them among the output's children:
    /// they are the dependencies of a Producer's space with `inc_producers`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub param_readers: Vec<usize>,
    /// True when the output is an output of the whole graph (Aidge's
    /// `getOrderedOutputs()`). Aidge 0.10.1 plans no memory for an output that
    /// has no consumer and is not a graph output (e.g. MaxPool's unused indices).
    #[serde(default)]
    pub graph_output: bool,
    /// Memory layout tag of the tensor (Aidge's `dformat`: `nchw`, `nhwc`,
    /// `default`...). Aidge 0.10.1 computes an output in place over its input
    /// only when both tensors carry the same tag, and plans `nhwc`/`nwc`
    /// tensors per pixel.
    #[serde(default)]
    pub data_format: String,
    /// True when the framework can only count this output in *tokens*, not in
    /// data elements (Aidge: `getRequiredMemory(o).type == Elts_t::Token`, e.g.
    /// an operator imported as a GenericOperator, whose dims are unknown):
    /// `required_memory` is then meaningless, and Aidge's drivers refuse the node.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub token_based: bool,
}

fn one() -> u64 {
    1
}

/// The label of a plan of a schedule with nodes Aidge 0.10.1 cannot size: no driver
/// of Aidge's ran on those sizes, so the plan is never called Aidge's (CLI and page say
/// it with [`Schedule::sized_by_model_note`]).
pub const AIDGE_CANNOT: &str =
    "Its plan is memplan's sizing (Aidge cannot run this model), not Aidge's plan.";

/// How many nodes sized from the model a warning names before it counts the rest.
pub const NAMED_SIZED: usize = 8;

impl Schedule {
    /// The nodes sized from the model file (ONNX operators neither Aidge nor memplan
    /// can size), in schedule order: the page marks their planes.
    pub fn sized_by_model(&self) -> Vec<&Node> {
        self.nodes.iter().filter(|n| n.sized_by_model).collect()
    }

    /// What the user must know when Aidge 0.10.1 cannot run the model or the schedule
    /// has nodes sized from the model: first where Aidge fails (stage, node, why) when
    /// known, then the nodes sized from the model (the first [`NAMED_SIZED`], then a
    /// count), then [`AIDGE_CANNOT`]; `None` when neither. Said by every reader of the
    /// schedule (ONNX model, memplan JSON), so the CLI and the page say the same.
    pub fn sized_by_model_note(&self) -> Option<String> {
        let sized = self.sized_by_model();
        let fails = self.aidge_fails.as_ref().map(|f| {
            format!(
                "Aidge 0.10.1 cannot run this model: {} fails at node '{}' ({}): {}.",
                f.stage.words(),
                f.node,
                f.kind,
                f.why
            )
        });
        if sized.is_empty() {
            return fails.map(|f| format!("{f} {AIDGE_CANNOT}"));
        }
        let mut names: Vec<String> = sized
            .iter()
            .take(NAMED_SIZED)
            .map(|n| format!("'{}' ({})", n.name, n.kind))
            .collect();
        if sized.len() > NAMED_SIZED {
            names.push(format!("and {} more", sized.len() - NAMED_SIZED));
        }
        Some(format!(
            "{}{} node(s) sized from the model, not from Aidge's kernels (Aidge 0.10.1 cannot \
             size them): {}. {AIDGE_CANNOT}",
            fails.map(|f| f + " ").unwrap_or_default(),
            sized.len(),
            names.join(", ")
        ))
    }

    /// Every note the user must see with this schedule: [`Schedule::sized_by_model_note`]
    /// (where Aidge fails is said first), then where Aidge sizes nodes otherwise than
    /// ONNX ([`Schedule::aidge_resizes`], the first [`NAMED_SIZED`]). Said by every
    /// reader of the schedule, so the CLI and the page say the same.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self.sized_by_model_note().into_iter().collect();
        if !self.aidge_resizes.is_empty() {
            let mut each: Vec<String> = self
                .aidge_resizes
                .iter()
                .take(NAMED_SIZED)
                .map(|r| format!("node '{}' ({}): {}", r.node, r.kind, r.why))
                .collect();
            if self.aidge_resizes.len() > NAMED_SIZED {
                each.push(format!(
                    "and {} more",
                    self.aidge_resizes.len() - NAMED_SIZED
                ));
            }
            notes.push(format!(
                "Aidge 0.10.1 sizes {} node(s) otherwise than ONNX's rules: {}. These \
                 sizes are Aidge's (what its export allocates), though there the model Aidge \
                 runs does not compute what the ONNX model defines.",
                self.aidge_resizes.len(),
                each.join("; ")
            ));
        }
        notes
    }

    /// Checks every cross-reference: parents and consumers name existing nodes,
    /// outputs and inputs; each consumer's input names this output as its parent
    /// and vice versa; parents run before their readers (no cycles); sizes agree.
    /// Inputs are checked first for every node, then consumers.
    /// Errors carry the JSON path inside a memplan file (`$.schedule...`).
    pub fn validate(&self) -> Result<()> {
        for (i, node) in self.nodes.iter().enumerate() {
            for (k, input) in node.inputs.iter().enumerate() {
                self.validate_input(i, k, input)?;
            }
        }
        // Consumers second, so that a dangling or backward parent is reported at the
        // input that names it rather than as a consumer mismatch.
        for (i, node) in self.nodes.iter().enumerate() {
            for (o, out) in node.outputs.iter().enumerate() {
                self.validate_output(i, o, out)?;
            }
        }
        Ok(())
    }

    /// [`Schedule::validate`] of input `k` of node `i`: its parent exists, runs
    /// before it and lists it as a consumer.
    fn validate_input(&self, i: usize, k: usize, input: &Input) -> Result<()> {
        let (n, node) = (self.nodes.len(), &self.nodes[i]);
        let Some(p) = input.parent else {
            return Ok(());
        };
        let path = format!("$.schedule.nodes[{i}].inputs[{k}].parent");
        let Some(parent) = self.nodes.get(p.node) else {
            return Err(Error::at_path(
                format!("{path}.node"),
                format!(
                    "node {} does not exist (the schedule has {n} nodes)",
                    p.node
                ),
            ));
        };
        let Some(out) = parent.outputs.get(p.output) else {
            return Err(Error::at_path(
                format!("{path}.output"),
                format!(
                    "node {} ({}) has no output {} (it has {})",
                    p.node,
                    parent.name,
                    p.output,
                    parent.outputs.len()
                ),
            ));
        };
        if p.node >= i {
            return Err(Error::at_path(
                path,
                format!(
                    "parent node {} ({}) does not run before node {i} ({}): the data \
                     edges form a cycle or the nodes are not in execution order",
                    p.node, parent.name, node.name
                ),
            ));
        }
        if !out.consumers.contains(&Consumer { node: i, input: k }) {
            return Err(Error::at_path(
                path,
                format!(
                    "nodes[{}].outputs[{}].consumers does not list {{node: {i}, input: {k}}}",
                    p.node, p.output
                ),
            ));
        }
        Ok(())
    }

    /// [`Schedule::validate`] of output `o` of node `i`: positive element size,
    /// existing readers, and consumers whose input names this output as its parent.
    fn validate_output(&self, i: usize, o: usize, out: &Output) -> Result<()> {
        let n = self.nodes.len();
        let opath = format!("$.schedule.nodes[{i}].outputs[{o}]");
        if out.element_bytes == 0 {
            return Err(Error::at_path(
                format!("{opath}.element_bytes"),
                "expected a positive number of bytes per element",
            ));
        }
        for (r, &reader) in out.param_readers.iter().enumerate() {
            if reader >= n {
                return Err(Error::at_path(
                    format!("{opath}.param_readers[{r}]"),
                    format!("node {reader} does not exist (the schedule has {n} nodes)"),
                ));
            }
        }
        for (c, cons) in out.consumers.iter().enumerate() {
            let cpath = format!("{opath}.consumers[{c}]");
            let Some(reader) = self.nodes.get(cons.node) else {
                return Err(Error::at_path(
                    format!("{cpath}.node"),
                    format!(
                        "node {} does not exist (the schedule has {n} nodes)",
                        cons.node
                    ),
                ));
            };
            let Some(input) = reader.inputs.get(cons.input) else {
                return Err(Error::at_path(
                    format!("{cpath}.input"),
                    format!(
                        "node {} ({}) has no data input {} (it has {})",
                        cons.node,
                        reader.name,
                        cons.input,
                        reader.inputs.len()
                    ),
                ));
            };
            if input.parent != Some(Port { node: i, output: o }) {
                return Err(Error::at_path(
                    cpath,
                    format!(
                        "nodes[{}].inputs[{}].parent is not {{node: {i}, output: {o}}}",
                        cons.node, cons.input
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The step list of a plan made from this schedule (clocks filled by the driver).
    pub fn steps(&self) -> Vec<crate::model::Step> {
        self.nodes
            .iter()
            .map(|n| crate::model::Step {
                name: n.name.clone(),
                kind: n.kind.clone(),
                clock: None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Producer whose weights are read by node 1 through a parameter input.
    fn weights_and_conv() -> Schedule {
        let out = |param_readers| Output {
            bytes: 16,
            element_bytes: 4,
            required_memory: 4,
            param_readers,
            ..Output::default()
        };
        Schedule {
            nodes: vec![
                Node {
                    name: "w".into(),
                    kind: "Producer".into(),
                    producer: true,
                    outputs: vec![out(vec![1])],
                    ..Node::default()
                },
                Node {
                    name: "conv".into(),
                    kind: "Conv2D".into(),
                    outputs: vec![out(vec![])],
                    ..Node::default()
                },
            ],
            alignment: None,
            aidge_fails: None,
            aidge_resizes: Vec::new(),
        }
    }

    #[test]
    fn parameter_readers_must_exist() {
        assert!(weights_and_conv().validate().is_ok());
        let mut s = weights_and_conv();
        s.nodes[0].outputs[0].param_readers = vec![1, 7];
        let e = s.validate().unwrap_err();
        assert!(
            e.to_string()
                .contains("$.schedule.nodes[0].outputs[0].param_readers[1]"),
            "{e}"
        );
    }

    #[test]
    fn parameter_readers_stay_out_of_files_that_have_none() {
        let json = serde_json::to_string(&weights_and_conv().nodes[1]).unwrap();
        assert!(!json.contains("param_readers"), "{json}");
        let back: Schedule =
            serde_json::from_str(&serde_json::to_string(&weights_and_conv()).unwrap()).unwrap();
        assert_eq!(back, weights_and_conv());
    }
}
