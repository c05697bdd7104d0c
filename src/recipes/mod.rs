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

mod cortexm;
mod export_cpp;
mod fusions;
mod graph;

use crate::formats::Document;
use crate::schedule::Schedule;
use crate::{Error, Result};

/// A named graph rewrite that reproduces a deployment flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recipe {
    /// aidge-export-cpp 0.10.1's `export()` (target "host", its default data format).
    ExportCpp,
    /// aidge-export-arm-cortexm 0.10.1's `export()` for the stm32h743, int8.
    CortexmInt8,
    /// `fuse_to_metaops(graph, "MatMul-*>Add", "Linear")`.
    FuseLinear,
    /// `fuse_to_metaops(graph, "ReduceMean-*>Sub#1~>(Pow#1->ReduceMean-*>Add#1->Sqrt)…",
    /// "LayerNorm")`: LayerNorm as an opset-16 export writes it.
    FuseLayerNorm,
    /// `fuse_to_metaops(graph, "MatMul->Div#1->Softmax-*>MatMul;…",
    /// "ScaledDotProductAttention")`.
    FuseAttention,
    /// `fuse_to_metaops(graph, "Div#1->Erf->Add#1-*>Mul->Mul#2;…", "GeLU")`.
    FuseGelu,
}

impl Recipe {
    pub const ALL: &'static [Recipe] = &[
        Recipe::ExportCpp,
        Recipe::CortexmInt8,
        Recipe::FuseLinear,
        Recipe::FuseLayerNorm,
        Recipe::FuseAttention,
        Recipe::FuseGelu,
    ];

    /// The fusions an Aidge user applies by hand to a transformer, the seed's
    /// `fuse_to_metaops` patterns in its order (the LayerNorm one matches an opset-16
    /// export only: aidge_onnx imports an opset-17 LayerNormalization as a LayerNorm
    /// meta-operator already).
    pub const SEED_FUSIONS: &'static [Recipe] = &[
        Recipe::FuseLinear,
        Recipe::FuseLayerNorm,
        Recipe::FuseAttention,
        Recipe::FuseGelu,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Recipe::ExportCpp => "export-cpp",
            Recipe::CortexmInt8 => "cortexm-int8",
            Recipe::FuseLinear => "fuse-linear",
            Recipe::FuseLayerNorm => "fuse-layernorm",
            Recipe::FuseAttention => "fuse-attention",
            Recipe::FuseGelu => "fuse-gelu",
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
            Recipe::CortexmInt8 => {
                "what aidge-export-arm-cortexm 0.10.1's int8 export for the stm32h743 does \
                 before planning: export-cpp's rewrite, aidge-quantization's Quantizers, \
                 int8 activations, 16-byte alignment, the 1,000,000-byte SRAM; an estimate \
                 for a quantized graph with element-wise nodes (residual Adds)"
            }
            Recipe::FuseLinear => {
                "Aidge's fuse_to_metaops(graph, \"MatMul-*>Add\", \"Linear\"): a MatMul and the \
                 Add of its product become one node, whose product is not planned"
            }
            Recipe::FuseLayerNorm => {
                "Aidge's fuse_to_metaops of the decomposed LayerNorm (ReduceMean, Sub, Pow, \
                 ReduceMean, Add, Sqrt, Div, Mul, Add: an opset-16 export's) into LayerNorm: \
                 its eight intermediate tensors are not planned"
            }
            Recipe::FuseAttention => {
                "Aidge's fuse_to_metaops of MatMul->Div->Softmax->MatMul (the Div by a \
                 constant) into ScaledDotProductAttention: the scores are not planned"
            }
            Recipe::FuseGelu => {
                "Aidge's fuse_to_metaops of Div->Erf->Add->Mul->Mul (the erf GeLU) into \
                 GeLU: its four intermediate tensors are not planned"
            }
        }
    }

    /// The dtype the recipe's export is of, if it is one dtype's (`cortexm-int8`).
    pub fn dtype(self) -> Option<Dtype> {
        match self {
            Recipe::CortexmInt8 => Some(Dtype::Int8),
            _ => None,
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
                 does; with export-cpp, the quantized export's graph (its Quantizers), checked \
                 against the real int8 export; otherwise an estimate"
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

    /// The activations' dtype: the one asked for, or the one of a recipe that is one
    /// dtype's export (`cortexm-int8`; another dtype with it is an error).
    pub fn effective_dtype(&self) -> Result<Option<Dtype>> {
        let Some((r, own)) = self.recipes.iter().find_map(|r| Some((r, r.dtype()?))) else {
            return Ok(self.dtype);
        };
        match self.dtype {
            Some(d) if d != own => Err(Error::whole(format!(
                "{} is the {} export: --dtype {} contradicts it",
                r.name(),
                own.name(),
                d.name()
            ))),
            _ => Ok(Some(own)),
        }
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
    // The rewrite follows the schedule's references: they must hold.
    schedule.validate()?;
    let mut notes = Vec::new();
    let mut g = graph::Graph::of(schedule);
    let kept = schedule.alignment;
    let mut estimate = Vec::new();
    // The default plan's peak before and after each step: what each one saves.
    let mut peaks = vec![("as given".to_string(), default_peak(schedule))];
    for recipe in &deploy.recipes {
        match recipe {
            Recipe::ExportCpp | Recipe::CortexmInt8 => {
                let kinds = export_cpp::apply(&mut g, &mut notes)?;
                if !kinds.is_empty() {
                    estimate.push(format!(
                        "{}: node kinds never checked against the real export ({})",
                        recipe.name(),
                        kinds.join(", ")
                    ));
                }
            }
            Recipe::FuseLinear => fusions::linear(&mut g, &mut notes),
            Recipe::FuseLayerNorm => fusions::layernorm(&mut g, &mut notes),
            Recipe::FuseAttention => fusions::attention(&mut g, &mut notes),
            Recipe::FuseGelu => fusions::gelu(&mut g, &mut notes),
        }
        peaks.push((recipe.name().to_string(), default_peak(&g.schedule())));
    }
    // An int8 export quantizes the graph first (aidge_quantization's PTQ): its
    // Quantizer nodes are part of the graph the export plans.
    let cortexm = deploy.recipes.contains(&Recipe::CortexmInt8);
    if cortexm && deploy.recipes.contains(&Recipe::ExportCpp) {
        return Err(Error::whole(
            "export-cpp and cortexm-int8 are two exports of the same graph: choose one",
        ));
    }
    let exported = cortexm || deploy.recipes.contains(&Recipe::ExportCpp);
    let dtype = deploy.effective_dtype()?;
    // (read before the quantization renames Add to QAdd)
    let elementwise = cortexm.then(|| cortexm::estimate(&g)).flatten();
    let mut float_kept = None;
    if exported && dtype == Some(Dtype::Int8) {
        match export_cpp::quantize(&mut g, &mut notes) {
            Ok(()) => estimate.extend(elementwise),
            Err(kind) => float_kept = Some(kind),
        }
    }
    let mut schedule = g.schedule();
    schedule.alignment = kept;
    if let Some(kind) = float_kept {
        // aidge_quantization refuses the graph: the export keeps float32 activations
        // (only its input is int8), planned with the int8 export's 16-byte alignment.
        schedule.alignment = schedule_alignment(schedule.alignment, Dtype::Int8.alignment());
        notes.push(Note::whole(format!(
            "aidge-quantization 0.10.1 cannot quantize a graph with a {kind} node (\"GraphView \
             can't be quantized\"): the int8 export keeps float32 activations, planned with \
             16-byte alignment"
        )));
        peaks.push(("int8".to_string(), default_peak(&schedule)));
    } else if let Some(dtype) = dtype {
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
        // export-cpp int8 is the quantized export's graph (checked against the real one);
        // elsewhere a smaller dtype only changes the activations' size.
        let reproduced = exported && dtype == Dtype::Int8;
        if dtype != Dtype::Float32 && !reproduced {
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
        peaks.push((dtype.name().to_string(), default_peak(&schedule)));
    }
    if cortexm {
        cortexm::sram_note(default_peak(&schedule), &mut notes);
    }
    notes.push(Note::whole(steps_text(&peaks)));
    schedule.validate()?;
    Ok(Applied {
        schedule,
        notes,
        estimate: (!estimate.is_empty()).then(|| estimate.join("; ")),
    })
}

/// The peak of Aidge's default plan of `schedule` (0.10.1's driver and options), or
/// `None` when the driver refuses it.
fn default_peak(schedule: &Schedule) -> Option<u64> {
    let plan = crate::drivers::generate(schedule, &crate::drivers::DriverOptions::default());
    plan.ok().map(|p| crate::stats::stats(&p).peak)
}

/// "Aidge's default plan: 5,921,280 B as given → 4,812,800 B with fuse-linear
/// (−1,108,480 B) → …": what each step changed.
fn steps_text(peaks: &[(String, Option<u64>)]) -> String {
    let mut parts = Vec::new();
    let mut last: Option<u64> = None;
    for (k, (step, peak)) in peaks.iter().enumerate() {
        let Some(p) = *peak else {
            parts.push(format!("not plannable with {step}"));
            continue;
        };
        let what = if k == 0 {
            format!("{} B {step}", thousands(p))
        } else {
            format!("{} B with {step}", thousands(p))
        };
        parts.push(match last {
            Some(l) if p < l => format!("{what} (−{} B)", thousands(l - p)),
            Some(l) if p > l => format!("{what} (+{} B)", thousands(p - l)),
            Some(_) => format!("{what} (no change)"),
            None => what,
        });
        last = Some(p);
    }
    format!("Aidge's default plan: {}", parts.join(" → "))
}

/// Digits grouped by thousands (`1,329,728`).
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
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
