//! What `aidge_core.export_utils.export(graph, ExportConfig(target="stm32h743",
//! dtype="int8"))` with aidge-export-arm-cortexm 0.10.1 does to an imported graph before
//! it plans its memory, read in the 0.10.1 wheels and checked against the real export
//! (`tests/parity/cortexm_qemu.py`, `tests/recipes_cortexm.rs`):
//!
//! - the same front half as export-cpp (`prepare_export`: Flatten removed, constants
//!   folded, `adapt_graph` fusions, NHWC): the target's libraries are the Cortex-M
//!   one (`export_arm_cortexm`: convolutions, FC, Quantizer) then aidge-export-cpp for
//!   every other kernel, so on the graphs checked the planned graph is export-cpp's;
//! - the same post-training quantization and 16-byte alignment as export-cpp's int8
//!   (`write_export`: `memory_alignment = 16 if dtype == "int8"`);
//! - the stm32h743's memories (`sram` 1,000,000 B first, then `flash`): the plan must
//!   fit the SRAM, or the export stops ("Unable to allocate memory … in component 0").
//!
//! Not reproduced (the figure is then said to be an estimate): a quantized graph with
//! an element-wise node. The Cortex-M library has no `QAdd`/`AddAct` kernel, so the
//! export keeps the Add with an int32 output, a standalone Quantizer after it, the ReLU
//! apart, and NCHW Transposes `adapt_graph`'s format heuristic places around them
//! (ResNet-18 at 32×32: 36 Transposes), which memplan does not place the same way.

use super::graph::Graph;
use super::Note;

/// The stm32h743's SRAM, the first memory the Cortex-M export plans in (its hardware
/// model in aidge_core 0.10.1: `sram` 1,000,000 B, then `flash` 2,000,000 B).
pub(super) const SRAM_BYTES: u64 = 1_000_000;

/// Element-wise kinds (after export-cpp's fusions) the quantized Cortex-M export plans
/// otherwise than export-cpp does (no `QAdd` in its library: see the module doc).
const ELEMENTWISE: &[&str] = &[
    "Add", "AddAct", "Sub", "SubAct", "Mul", "MulAct", "Div", "DivAct", "Pow", "PowAct",
];

/// Why the quantized graph's figure is an estimate: the element-wise nodes it holds, or
/// `None` when it has none (the graphs checked byte for byte against the export).
pub(super) fn estimate(g: &Graph) -> Option<String> {
    let mut kinds: Vec<&str> = g
        .nodes
        .iter()
        .filter(|n| n.alive && !n.producer && ELEMENTWISE.contains(&n.kind.as_str()))
        .map(|n| n.kind.as_str())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    (!kinds.is_empty()).then(|| {
        format!(
            "cortexm-int8: quantized element-wise nodes ({}): the Cortex-M library has no \
             QAdd, and the export's int32 Add, its Quantizer and the Transposes around them \
             are not reproduced (docs/recipes.md)",
            kinds.join(", ")
        )
    })
}

/// A note when the default plan does not fit the stm32h743's SRAM: the real export
/// refuses such a model rather than spilling it, so the figure is not a build's.
pub(super) fn sram_note(peak: Option<u64>, notes: &mut Vec<Note>) {
    if let Some(p) = peak.filter(|&p| p > SRAM_BYTES) {
        notes.push(Note::whole(format!(
            "the plan ({} B) exceeds the stm32h743's SRAM ({} B): the real Cortex-M export \
             stops (\"Unable to allocate memory … in component 0\"); try a smaller input",
            super::thousands(p),
            super::thousands(SRAM_BYTES)
        )));
    }
}
