//! Recipes: what a deployment flow does to a graph before it plans its memory, so that
//! the plan of a model is the plan of what the device will run, not of the graph as
//! imported. A recipe rewrites a [`Schedule`] (fusions into meta-operators, removed
//! and folded nodes, data formats and the Transposes they need, each kernel's in-place
//! rule); a [`Dtype`] sets the activations' element size and the alignment the
//! deployment plans with. The result is a schedule like any other, planned by Aidge's
//! driver and re-placed by every strategy.
//!
//! Every name a user types is here, once: [`Recipe::ALL`] (name, help) and
//! [`Dtype::ALL`]; the CLI's `--recipes`/`--dtype`, the page's "Deploy as" menu and
//! `memplan.RECIPES` are made from them.

mod export_cpp;
mod graph;

use crate::formats::Document;
use crate::schedule::Schedule;
use crate::{Error, Result};

/// A named graph rewrite that reproduces a deployment flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipe {
    /// aidge-export-cpp 0.10.1's `export()` (target "host", its default data format).
    ExportCpp,
}

impl Recipe {
    pub const ALL: &'static [Recipe] = &[Recipe::ExportCpp];

    pub fn name(self) -> &'static str {
        match self {
            Recipe::ExportCpp => "export-cpp",
        }
    }

    /// What the recipe does, in the words every face shows.
    pub fn help(self) -> &'static str {
        match self {
            Recipe::ExportCpp => {
                "what aidge-export-cpp 0.10.1's export does before planning (Flatten removed, \
                 constants folded, Conv/Pool/FC/element-wise + ReLU fused, padded ops as \
                 PadConv…, NHWC with Transposes around NCHW-only kernels, the export's \
                 in-place rules): the arena mem_0 of aidge_core.export_utils.export(graph, \
                 ExportConfig(target=\"host\"))"
            }
        }
    }

    /// The recipes of a comma-separated list (`export-cpp`), in order.
    pub fn parse_list(list: &str) -> Result<Vec<Recipe>> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                Recipe::ALL
                    .iter()
                    .copied()
                    .find(|r| r.name() == s)
                    .ok_or_else(|| {
                        Error::whole(format!(
                            "unknown recipe '{s}': expected one of {}",
                            Recipe::ALL
                                .iter()
                                .map(|r| r.name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })
            })
            .collect()
    }
}

/// The element type of the activations on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dtype {
    Float32,
    Float16,
    Int8,
}

impl Dtype {
    pub const ALL: &'static [Dtype] = &[Dtype::Float32, Dtype::Float16, Dtype::Int8];

    pub fn name(self) -> &'static str {
        match self {
            Dtype::Float32 => "float32",
            Dtype::Float16 => "float16",
            Dtype::Int8 => "int8",
        }
    }

    /// What choosing it does, in the words every face shows.
    pub fn help(self) -> &'static str {
        match self {
            Dtype::Float32 => "4-byte activations (what the graph as imported plans)",
            Dtype::Float16 => "2-byte activations (an estimate: no export of memplan's checks it)",
            Dtype::Int8 => {
                "1-byte activations planned with 16-byte alignment, as Aidge's int8 export \
                 does (an estimate: its Quantizer nodes are not inserted)"
            }
        }
    }

    /// Bytes of one activation element.
    pub fn bytes(self) -> u64 {
        match self {
            Dtype::Float32 => 4,
            Dtype::Float16 => 2,
            Dtype::Int8 => 1,
        }
    }

    /// The memory alignment Aidge's export plans with (`write_export`: 16 bytes for
    /// int8, whose kernels need it; 1 otherwise).
    pub fn alignment(self) -> u64 {
        match self {
            Dtype::Int8 => 16,
            _ => 1,
        }
    }

    pub fn parse(s: &str) -> Result<Dtype> {
        Dtype::ALL
            .iter()
            .copied()
            .find(|d| d.name() == s.trim())
            .ok_or_else(|| {
                Error::whole(format!(
                    "unknown dtype '{s}': expected one of {}",
                    Dtype::ALL
                        .iter()
                        .map(|d| d.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
}

/// How a model is deployed: the recipes applied in order, then the dtype.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deploy {
    pub recipes: Vec<Recipe>,
    pub dtype: Option<Dtype>,
}

impl Deploy {
    /// From the texts a user types (`export-cpp[,…]`, `int8`); empty texts are none.
    pub fn parse(recipes: &str, dtype: &str) -> Result<Deploy> {
        Ok(Deploy {
            recipes: Recipe::parse_list(recipes)?,
            dtype: match dtype.trim() {
                "" => None,
                d => Some(Dtype::parse(d)?),
            },
        })
    }

    pub fn is_empty(&self) -> bool {
        self.recipes.is_empty() && self.dtype.is_none()
    }

    /// The words naming it (`export-cpp, int8`), for headlines and file names.
    pub fn label(&self) -> String {
        self.recipes
            .iter()
            .map(|r| r.name())
            .chain(self.dtype.map(Dtype::name))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What a recipe did, or could not do, to one node (or to the graph).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Note {
    /// The node's name, if the note is about one node.
    pub node: Option<String>,
    pub text: String,
}

impl Note {
    fn node(name: &str, text: impl Into<String>) -> Note {
        Note {
            node: Some(name.to_owned()),
            text: text.into(),
        }
    }

    fn whole(text: impl Into<String>) -> Note {
        Note {
            node: None,
            text: text.into(),
        }
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.node {
            Some(n) => write!(f, "node '{n}': {}", self.text),
            None => f.write_str(&self.text),
        }
    }
}

/// A schedule rewritten for a deployment, with what was done.
#[derive(Debug, Clone)]
pub struct Applied {
    pub schedule: Schedule,
    pub notes: Vec<Note>,
    /// Why the result is an estimate, or `None` when every node is of a kind checked
    /// against the real deployment (docs/recipes.md).
    pub estimate: Option<String>,
}

/// `schedule` as `deploy` runs it. A recipe that cannot apply (a node the deployment
/// has no kernel for) is an error naming the node.
pub fn apply(schedule: &Schedule, deploy: &Deploy) -> Result<Applied> {
    let mut notes = Vec::new();
    let mut g = graph::Graph::of(schedule);
    let kept = schedule.alignment;
    let mut estimate = Vec::new();
    for recipe in &deploy.recipes {
        match recipe {
            Recipe::ExportCpp => {
                let kinds = export_cpp::apply(&mut g, &mut notes)?;
                if !kinds.is_empty() {
                    estimate.push(format!(
                        "{}: node kinds never checked against the real export ({})",
                        recipe.name(),
                        kinds.join(", ")
                    ));
                }
            }
        }
    }
    let mut schedule = g.schedule();
    schedule.alignment = kept;
    if let Some(dtype) = deploy.dtype {
        for node in schedule.nodes.iter_mut().filter(|n| !n.producer) {
            for out in &mut node.outputs {
                // Floating-point activations take the dtype; integer tensors (MaxPool's
                // int64 indices, shape arithmetic) keep theirs.
                if out.element_bytes == 4 || out.element_bytes == 2 {
                    out.element_bytes = dtype.bytes();
                    out.bytes = out.required_memory.saturating_mul(dtype.bytes());
                }
            }
        }
        schedule.alignment = schedule_alignment(schedule.alignment, dtype.alignment());
        if dtype != Dtype::Float32 {
            estimate.push(format!(
                "{}: the activations' size only (a quantized export also inserts and fuses \
                 its Quantizer nodes)",
                dtype.name()
            ));
        }
        notes.push(Note::whole(format!(
            "activations in {} ({} byte(s) each), planned with {}-byte alignment",
            dtype.name(),
            dtype.bytes(),
            dtype.alignment()
        )));
    }
    schedule.validate()?;
    Ok(Applied {
        schedule,
        notes,
        estimate: (!estimate.is_empty()).then(|| estimate.join("; ")),
    })
}

/// The larger of a schedule's alignment and `at_least`; `None` for 1 (no alignment).
fn schedule_alignment(current: Option<u64>, at_least: u64) -> Option<u64> {
    Some(current.unwrap_or(1).max(at_least)).filter(|&a| a > 1)
}

/// `doc` as `deploy` runs it: its schedule rewritten, its own plan (of the graph
/// before the recipes) dropped, and what the recipes did said in its warnings, one line
/// per kind of change (`deployed as export-cpp: 12 × Conv2D and its ReLU fused into
/// ConvAct ('conv1', …)`).
pub fn document(mut doc: Document, deploy: &Deploy) -> Result<Document> {
    let Some(schedule) = &doc.schedule else {
        return Err(Error::whole(format!(
            "--recipes and --dtype rewrite a graph's schedule, and this file holds {} \
             without one (open the ONNX model, or a memplan JSON with its schedule)",
            doc.format
        )));
    };
    let applied = apply(schedule, deploy)?;
    if doc.plan.take().is_some() {
        doc.warnings.push(
            "the file's own plan is of the graph before the recipes: the deployed graph is \
             planned from its schedule"
                .into(),
        );
    }
    if let Some(why) = &applied.estimate {
        doc.warnings.push(format!(
            "deployed as {}: an estimate, not checked against the real build ({why})",
            deploy.label()
        ));
    }
    doc.warnings
        .extend(summary(&deploy.label(), &applied.notes));
    doc.schedule = Some(applied.schedule);
    Ok(doc)
}

/// The notes of a deployment, one line per text, naming the first nodes.
pub fn summary(label: &str, notes: &[Note]) -> Vec<String> {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for note in notes {
        match groups.iter_mut().find(|(t, _)| *t == note.text) {
            Some((_, nodes)) => nodes.extend(note.node.as_deref()),
            None => groups.push((&note.text, note.node.as_deref().into_iter().collect())),
        }
    }
    groups
        .into_iter()
        .map(|(text, nodes)| match nodes.len() {
            0 => format!("deployed as {label}: {text}"),
            n => {
                let mut named: Vec<String> =
                    nodes.iter().take(3).map(|n| format!("'{n}'")).collect();
                if n > 3 {
                    named.push("…".into());
                }
                format!("deployed as {label}: {n} × {text} ({})", named.join(", "))
            }
        })
        .collect()
}
