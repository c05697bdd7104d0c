//! An editable copy of a [`Schedule`]'s graph: what the recipes rewrite. A schedule
//! is indices into a list in execution order; a rewrite removes, fuses and inserts
//! nodes, which would renumber everything at each step. Here nodes are never moved
//! or deleted while a recipe runs (a removed node is marked dead), and
//! [`Graph::schedule`] numbers the survivors once, in the order Aidge's scheduler runs
//! the rewritten graph.

use crate::schedule::{Consumer, Input, Node, Output, Port, Schedule};

/// Where a data input reads from: output `output` of node `node` (an index into
/// [`Graph::nodes`]), or nothing (a graph input).
pub(super) type Source = Option<(usize, usize)>;

/// One data input of a node.
#[derive(Debug, Clone)]
pub(super) struct In {
    pub source: Source,
    /// Elements the kernel reads (Aidge's `getNbRequiredData`).
    pub data: u64,
    /// Elements the kernel must not overwrite (`getNbRequiredProtected`).
    pub protected: u64,
}

/// One output of a node.
#[derive(Debug, Clone)]
pub(super) struct Out {
    pub dims: Vec<u64>,
    pub element_bytes: u64,
    pub format: String,
    pub graph_output: bool,
}

impl Out {
    pub fn elements(&self) -> u64 {
        self.dims.iter().fold(1u64, |a, &b| a.saturating_mul(b))
    }
}

/// The rank of an original node among those a recipe makes at its place: nodes
/// inserted before it take lower ranks.
pub(super) const ORDER_BASE: usize = 8;

/// A node of the graph being rewritten.
#[derive(Debug, Clone)]
pub(super) struct GNode {
    pub name: String,
    pub kind: String,
    pub producer: bool,
    pub sized_by_model: bool,
    pub inputs: Vec<In>,
    pub outputs: Vec<Out>,
    /// Nodes reading an output of this one through a parameter input, by output.
    pub param_readers: Vec<Vec<usize>>,
    /// Where the node stands among the nodes of its wave: its first original node's
    /// place in the schedule, then its rank among the nodes a recipe made there.
    pub order: (usize, usize),
    /// False once a recipe removed or fused it away.
    pub alive: bool,
}

/// The graph of a schedule, being rewritten.
#[derive(Debug, Clone)]
pub(super) struct Graph {
    pub nodes: Vec<GNode>,
    /// Where Aidge fails on the model (kept: the rewritten schedule still says it).
    pub aidge_fails: Option<crate::schedule::AidgeFails>,
    /// Where Aidge sizes nodes otherwise than ONNX (kept, as `aidge_fails`).
    pub aidge_resizes: Vec<crate::schedule::AidgeResize>,
}

impl Graph {
    pub fn of(schedule: &Schedule) -> Graph {
        let nodes = schedule
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| GNode {
                name: n.name.clone(),
                kind: n.kind.clone(),
                producer: n.producer,
                sized_by_model: n.sized_by_model,
                inputs: n
                    .inputs
                    .iter()
                    .map(|input| In {
                        source: input.parent.map(|p| (p.node, p.output)),
                        data: input.required_data,
                        protected: input.required_protected,
                    })
                    .collect(),
                outputs: n
                    .outputs
                    .iter()
                    .map(|o| Out {
                        dims: o.dims.clone(),
                        element_bytes: o.element_bytes,
                        format: o.data_format.clone(),
                        graph_output: o.graph_output,
                    })
                    .collect(),
                param_readers: n.outputs.iter().map(|o| o.param_readers.clone()).collect(),
                order: (i, ORDER_BASE),
                alive: true,
            })
            .collect();
        Graph {
            nodes,
            aidge_fails: schedule.aidge_fails.clone(),
            aidge_resizes: schedule.aidge_resizes.clone(),
        }
    }

    /// The data readers of output `o` of node `n`: (node, input index), in node order.
    pub fn readers(&self, n: usize, o: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (m, node) in self.nodes.iter().enumerate() {
            if !node.alive {
                continue;
            }
            for (k, input) in node.inputs.iter().enumerate() {
                if input.source == Some((n, o)) {
                    out.push((m, k));
                }
            }
        }
        out
    }

    /// Every data input reading `from` reads `to` instead.
    pub fn redirect(&mut self, from: (usize, usize), to: Source) {
        for node in self.nodes.iter_mut().filter(|n| n.alive) {
            for input in &mut node.inputs {
                if input.source == Some(from) {
                    input.source = to;
                }
            }
        }
    }

    /// Adds a node; its index.
    pub fn push(&mut self, node: GNode) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The schedule of the rewritten graph, in the order Aidge's `SequentialScheduler`
    /// runs it: Producers first, then in waves (a node runs in the pass after its
    /// latest non-Producer parent on a data input), inside a wave in [`GNode::order`]
    /// (Aidge's own order there is that of pointers; the original schedule's order is
    /// what `formats::onnx` follows too).
    pub fn schedule(&self) -> Schedule {
        let alive: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].alive)
            .collect();
        // Waves over a topological order: parents may stand after their readers in
        // `nodes` (inserted nodes), so relax until stable (the graph is acyclic).
        let mut wave = vec![0usize; self.nodes.len()];
        loop {
            let mut changed = false;
            for &i in &alive {
                let node = &self.nodes[i];
                if node.producer {
                    continue;
                }
                let w = node
                    .inputs
                    .iter()
                    .filter_map(|input| input.source)
                    .filter(|&(p, _)| !self.nodes[p].producer)
                    .map(|(p, _)| wave[p] + 1)
                    .max()
                    .unwrap_or(0);
                if w != wave[i] {
                    wave[i] = w;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut order = alive.clone();
        order.sort_by_key(|&i| {
            let n = &self.nodes[i];
            (!n.producer, wave[i], n.order)
        });
        let mut index = vec![usize::MAX; self.nodes.len()];
        for (k, &i) in order.iter().enumerate() {
            index[i] = k;
        }
        let mut nodes: Vec<Node> = order
            .iter()
            .map(|&i| {
                let n = &self.nodes[i];
                Node {
                    name: n.name.clone(),
                    kind: n.kind.clone(),
                    producer: n.producer,
                    sized_by_model: n.sized_by_model,
                    inputs: n
                        .inputs
                        .iter()
                        .map(|input| Input {
                            parent: input.source.map(|(p, o)| Port {
                                node: index[p],
                                output: o,
                            }),
                            required_data: input.data,
                            required_protected: input.protected,
                        })
                        .collect(),
                    outputs: n
                        .outputs
                        .iter()
                        .enumerate()
                        .map(|(o, out)| Output {
                            dims: out.dims.clone(),
                            element_bytes: out.element_bytes,
                            bytes: out.elements().saturating_mul(out.element_bytes),
                            required_memory: out.elements(),
                            consumers: Vec::new(),
                            param_readers: n
                                .param_readers
                                .get(o)
                                .map(|r| {
                                    let mut r: Vec<usize> = r
                                        .iter()
                                        .filter(|&&m| self.nodes[m].alive)
                                        .map(|&m| index[m])
                                        .collect();
                                    r.dedup();
                                    r
                                })
                                .unwrap_or_default(),
                            graph_output: out.graph_output,
                            data_format: out.format.clone(),
                            token_based: false,
                        })
                        .collect(),
                }
            })
            .collect();
        for k in 0..nodes.len() {
            for j in 0..nodes[k].inputs.len() {
                if let Some(p) = nodes[k].inputs[j].parent {
                    nodes[p.node].outputs[p.output]
                        .consumers
                        .push(Consumer { node: k, input: j });
                }
            }
        }
        Schedule {
            nodes,
            alignment: None,
            aidge_fails: self.aidge_fails.clone(),
            aidge_resizes: self.aidge_resizes.clone(),
        }
    }
}
