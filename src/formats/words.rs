//! Each format's own words for what memplan draws: what its figure is called (TFLite
//! Micro's arena head), its tensors (Aidge's planes, TFLM's buffers, XLA's values), the
//! clocks of the x axis (Aidge's scheduling steps, TFLM's allocation scopes, XLA's HLO
//! sequence), and a short help. One table, keyed by the document's format
//! ([`super::Format::words`]): the page's panel, tooltips and chart, `memplan render`
//! and `memplan stats` all read it, so they say the same thing.

use serde::Serialize;

/// What one family of formats calls the things memplan shows.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct Words {
    /// The table's key: travels from the page's worker to its viewer.
    pub key: &'static str,
    /// Who wrote the plan: the framework, or memplan.
    pub framework: &'static str,
    /// The plan's figure, the top of its memory (Aidge's peak, TFLM's arena head), and
    /// the label of its line on the chart (Aidge's plots say "Peak usage").
    pub peak: &'static str,
    pub peak_line: &'static str,
    /// One placed tensor, and several (Aidge's plane, TFLM's buffer, XLA's value).
    pub plane: &'static str,
    pub planes: &'static str,
    /// A block of bytes several tensors share (Aidge's memory space), or None where
    /// each tensor is a block of its own and memplan's spaces say nothing new.
    pub space: Option<&'static str>,
    pub spaces: Option<&'static str>,
    /// What writes a tensor, run at a clock (Aidge's node, TFLM's operator, XLA's
    /// instruction), and what the clocks run, counted (Aidge's scheduled steps); None
    /// where clocks are only times (a buffer list).
    pub node: Option<&'static str>,
    pub steps: Option<&'static str>,
    /// One memory of several (a lane of the chart: XLA's allocation, ExecuTorch's mem_id).
    pub memory: &'static str,
    /// The title of the x axis: what a clock is.
    pub clock: &'static str,
    /// Steps without a clock are Aidge's Producers (weights, inputs): counted apart.
    pub producers: bool,
    /// Planes carry Aidge's geometry (stride × length × count, output index).
    pub geometry: bool,
    /// What the chart shows, in this format's terms: a sentence or two for the panel.
    pub help: &'static str,
}

/// Aidge's `MemoryManager` (its logs, planes records, and the schedules and models
/// memplan plans as Aidge does).
pub const AIDGE: Words = Words {
    key: "aidge",
    framework: "Aidge",
    peak: "Peak",
    peak_line: "Peak usage",
    plane: "plane",
    planes: "planes",
    space: Some("space"),
    spaces: Some("spaces"),
    node: Some("node"),
    steps: Some("steps"),
    memory: "memory",
    clock: "clock (scheduling step)",
    producers: true,
    geometry: true,
    help: "Each rectangle is a plane: one output of a node, from the step its node runs \
           to its last reader's. Planes of one memory space share bytes where Aidge \
           writes in place or wraps around. x: the scheduler's steps; y: the address.",
};

/// memplan JSON: memplan's own model, Aidge's words.
pub const MEMPLAN: Words = Words {
    key: "memplan",
    framework: "memplan",
    ..AIDGE
};

/// TensorFlow Lite Micro: a `.tflite` as its allocator plans it, and its
/// `PrintMemoryPlan()` dumps.
pub const TFLM: Words = Words {
    key: "tflm",
    framework: "TFLite Micro",
    peak: "Arena head",
    peak_line: "Arena head",
    plane: "buffer",
    planes: "buffers",
    space: None,
    spaces: None,
    node: Some("operator"),
    steps: Some("operators"),
    memory: "arena",
    clock: "allocation scope (0: the inputs, then one per operator)",
    producers: false,
    geometry: false,
    help: "Each rectangle is a buffer of TFLite Micro's arena (a tensor, or a kernel's \
           scratch buffer) at the offset GreedyMemoryPlanner gives it, over the \
           allocation scopes it is live in. The arena head is their top: \
           kTensorArenaSize must hold the head and the tail (TFLM's persistent data, \
           which print_allocations() prints).",
};

/// XLA's buffer assignment with its live ranges.
pub const XLA: Words = Words {
    key: "xla",
    framework: "XLA",
    peak: "Peak",
    peak_line: "Peak usage",
    plane: "value",
    planes: "values",
    space: Some("block"),
    spaces: Some("blocks"),
    node: Some("instruction"),
    steps: Some("instructions"),
    memory: "allocation",
    clock: "position in the HLO sequence",
    producers: false,
    geometry: false,
    help: "Each rectangle is an HLO value at its offset in its allocation (a lane each), \
           over the positions of the HLO instruction sequence where it is live \
           (BufferLiveRange). Values XLA writes in place share a block of bytes.",
};

/// IREE's `stream.resource.pack` ops, laid out as IREE does.
pub const IREE: Words = Words {
    key: "iree",
    framework: "IREE",
    peak: "Peak",
    peak_line: "Peak usage",
    plane: "slice",
    planes: "slices",
    space: Some("block"),
    spaces: Some("blocks"),
    node: Some("op"),
    steps: Some("ops"),
    memory: "pack",
    clock: "pack's execution order",
    producers: false,
    geometry: false,
    help: "Each rectangle is a slice of a stream.resource.pack (a lane each) at the offset \
           IREE's LayoutSlicesPass gives it, over the pack's execution order.",
};

/// Arm Vela's `--verbose-allocation` report of an Ethos-U compilation.
pub const VELA: Words = Words {
    key: "vela",
    framework: "Vela",
    peak: "Allocation peak",
    peak_line: "Allocation Peak Tensor Size",
    plane: "tensor",
    planes: "tensors",
    space: None,
    spaces: None,
    node: None,
    steps: None,
    memory: "memory area",
    clock: "Vela's live-range time",
    producers: false,
    geometry: false,
    help: "Each rectangle is a tensor at the address Vela's tensor allocator gives it in \
           a memory area (a lane each, as the report's sections), over the live-range \
           times the report prints. A lane's top is Vela's Allocation Peak Tensor Size.",
};

/// ExecuTorch's memory trace.
pub const EXECUTORCH: Words = Words {
    key: "executorch",
    framework: "ExecuTorch",
    peak: "Peak",
    peak_line: "Peak usage",
    plane: "tensor",
    planes: "tensors",
    space: Some("block"),
    spaces: Some("blocks"),
    node: Some("node"),
    steps: Some("instructions"),
    memory: "mem_id",
    clock: "instruction of the execution plan",
    producers: false,
    geometry: false,
    help: "Each rectangle is a tensor at the offset ExecuTorch's memory planning gives it \
           in its mem_id (a lane each), over the instructions where the memory trace \
           shows it live.",
};

/// A buffer list: MiniMalloc's CSV.
pub const BUFFER_LIST: Words = Words {
    key: "buffers",
    framework: "MiniMalloc",
    peak: "Peak",
    peak_line: "Peak usage",
    plane: "buffer",
    planes: "buffers",
    space: None,
    spaces: None,
    node: None,
    steps: None,
    memory: "memory",
    clock: "time (a buffer is live from its lower to its upper bound, exclusive)",
    producers: false,
    geometry: false,
    help: "Each rectangle is a buffer of the list at its offset, live from its lower \
           bound to its upper bound (exclusive).",
};

/// Every table, for [`by_key`].
const ALL: [&Words; 8] = [
    &AIDGE,
    &MEMPLAN,
    &TFLM,
    &XLA,
    &IREE,
    &EXECUTORCH,
    &VELA,
    &BUFFER_LIST,
];

/// The words of key `key` ([`Words::key`]), if it is one.
pub fn by_key(key: &str) -> Option<&'static Words> {
    ALL.into_iter().find(|w| w.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_found() {
        // By key, not by address: `&CONST` may or may not be one address per use.
        for w in ALL {
            assert_eq!(
                ALL.iter().filter(|x| x.key == w.key).count(),
                1,
                "{}",
                w.key
            );
            assert_eq!(by_key(w.key).unwrap().key, w.key);
        }
        assert!(by_key("nothing").is_none());
    }
}
