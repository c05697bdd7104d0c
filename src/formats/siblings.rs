//! Files that frameworks write beside a plan dump and that hold no plan: dropping a
//! whole dump folder on the page brings them along. Recognised from their content
//! (and their name, where the framework gives it one), they are noted as what they
//! are, with the file that holds the plan they belong with, instead of failing in the
//! words of the reader a `.txt` falls back to (Aidge's log: "expected a plane index").
//! [`super::load`] refuses them in the same words (the CLI's message).

use std::borrow::Cow;

/// What file `file_name` (content `bytes`) is when it is a known sibling of a plan
/// dump and not a plan, and which file to open instead, else None. TFLite Micro's
/// `print_allocations()` output is one too (a valid file with figures and no plan):
/// its summary says what it holds.
pub fn not_a_plan(file_name: &str, bytes: &[u8]) -> Option<Cow<'static, str>> {
    sibling(file_name, bytes).map(Cow::Owned).or_else(|| {
        let text = std::str::from_utf8(bytes).ok()?;
        super::tflm::allocations_summary(text).map(Cow::Owned)
    })
}

/// XLA's dump files of one module share a stem (`module_0001.jit_f.cpu_after_optimizations`)
/// and differ by their suffix: the plan is the first two.
const ASSIGNMENT: &str = "-buffer-assignment.txt";
const LIVE_RANGE: &str = "-live-range.txt";
const VALUES: &str = "-buffer-assignment-values.txt";
const REPORT: &str = "-memory-usage-report.txt";

/// IREE's plan, and how to print it.
const IREE_PLAN: &str =
    "open IREE's stream IR printed before its slices are laid out, which holds \
     its `stream.resource.pack` ops (iree-compile --compile-to=stream \
     --mlir-print-ir-before=iree-stream-layout-slices)";

/// ExecuTorch's plan, and how to write it.
const EXECUTORCH_PLAN: &str =
    "open its memory trace JSON (executorch.util.activation_memory_profiler.\
     generate_memory_trace(program, path, enable_memory_offsets=True))";

/// "open X-buffer-assignment.txt beside X-live-range.txt" for a file of XLA's dump
/// named `name` with suffix `suffix` (`X` = its stem), or in general words when the
/// name does not tell the stem.
fn open_xla(name: &str, suffix: Option<&str>) -> String {
    match suffix
        .and_then(|suffix| name.strip_suffix(suffix))
        .filter(|s| !s.is_empty())
    {
        Some(stem) => format!("open {stem}{ASSIGNMENT} beside {stem}{LIVE_RANGE}"),
        None => format!(
            "open the module's *{ASSIGNMENT} beside its *{LIVE_RANGE} (written by XLA_FLAGS=--xla_dump_to=DIR)"
        ),
    }
}

/// What file `file_name` (content `bytes`) is and which file to open instead, when a
/// framework writes it beside a plan dump and it holds no plan (TFLM's summary aside).
pub(super) fn sibling(file_name: &str, bytes: &[u8]) -> Option<String> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or_default();
    let name = base.to_ascii_lowercase();
    // Keys and headers are read from the head of the file; what must be absent from a
    // whole text (IREE's pack ops) from all of it.
    let head = &bytes[..bytes.len().min(1 << 20)];
    let text = String::from_utf8_lossy(head);
    let whole = std::str::from_utf8(bytes).unwrap_or(&text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    // XLA: `BufferAssignment::ValuesToString()` (`Total bytes used:`, then `Used
    // values:`), `MemoryUsageReport()` (`Memory Space:`), the HLO module.
    if name.ends_with(VALUES)
        || (first.starts_with("Total bytes used:") && text.contains("\nUsed values:"))
    {
        return Some(format!(
            "XLA's {VALUES}, a list of the module's values without their offsets or live ranges: {}",
            open_xla(base, Some(VALUES))
        ));
    }
    if name.ends_with(REPORT) || first.starts_with("Memory Space:") {
        return Some(format!(
            "XLA's memory-usage report (its Total bytes is the total the plan shows): {}",
            open_xla(base, Some(REPORT))
        ));
    }
    if first.starts_with("HloModule") {
        // `X.cpu_after_optimizations.txt` is the module the plan `X-…` is of; the
        // module before optimizations does not name its backend.
        let suffix = name.contains("after_optimizations").then_some(".txt");
        return Some(format!(
            "an XLA HLO module (the program, not its memory plan): {}",
            open_xla(base, suffix)
        ));
    }
    // ExecuTorch: the program, its summary, its tensor specs (TensorSpec's fields).
    if name.ends_with(".pte") {
        return Some(format!(
            "an ExecuTorch program (.pte), not its memory plan: {EXECUTORCH_PLAN}"
        ));
    }
    let json = first.starts_with('{') || first.starts_with('[');
    if json && text.contains("\"non_const_buffer_sizes\"") {
        return Some(format!(
            "ExecuTorch's program summary (the buffer sizes it plans, not their layout): {EXECUTORCH_PLAN}"
        ));
    }
    let spec_fields = ["\"mem_offset\"", "\"mem_obj_id\"", "\"lifetime\""];
    if json
        && !text.contains("\"traceEvents\"")
        && (name.contains("tensor_spec")
            || (text.contains("\"mem_id\"") && spec_fields.iter().any(|f| text.contains(f))))
    {
        return Some(format!(
            "ExecuTorch's tensor specs (each tensor's memory id and offset, not the steps it is live at): \
             {EXECUTORCH_PLAN}"
        ));
    }
    // IREE: the transients' allocations of the compiled stream IR, and the program it
    // is given (StableHLO, torch, TOSA or linalg MLIR, before any stream op).
    // (An IR dump printed before the layout pass but cut before its first pack is the
    // plan's file cut short: its reader says so.)
    if text.contains("stream.resource.alloca")
        && !whole.contains("stream.resource.pack")
        && !first.starts_with("// -----// IR Dump")
    {
        return Some(format!(
            "IREE's transient allocations (the sizes it allocates, not their layout): {IREE_PLAN}"
        ));
    }
    let opening = [
        "module @",
        "module {",
        "module attributes",
        "func.func",
        "#loc",
    ];
    let mlir = name.ends_with(".mlir") || opening.iter().any(|o| first.starts_with(o));
    let input = [
        "stablehlo.",
        "mhlo.",
        "torch.",
        "tosa.",
        "linalg.",
        "func.func",
    ];
    // IREE's stream IR has its ops; an input names at most its parameters
    // (`#stream.parameter.named`).
    let stream = ["stream.resource", "stream.async", "stream.cmd"];
    if mlir && !stream.iter().any(|op| whole.contains(op)) && input.iter().any(|d| text.contains(d))
    {
        return Some(format!(
            "an MLIR program as given to a compiler (StableHLO, torch, TOSA or linalg: no memory plan yet): \
             for IREE's plan, {IREE_PLAN}; for XLA's, {}",
            open_xla(base, None)
        ));
    }
    // IREE's stream IR without a pack op, in a folder of IR dumps (`--mlir-print-ir-after-all`):
    // printed after the slices were laid out (`after_layout_slices.mlir`: the packs are
    // offsets now) or by another pass. Only IR printed *before* the layout pass without
    // a pack is the plan's file cut short, which its reader says.
    let dump = first.starts_with("// -----// IR Dump");
    let before_layout = dump && first.contains("Before") && first.contains("LayoutSlices");
    if (mlir || dump)
        && stream.iter().any(|op| whole.contains(op))
        && !whole.contains("stream.resource.pack")
        && !before_layout
    {
        return Some(format!(
            "IREE's stream IR without its `stream.resource.pack` ops (printed after its slices \
             were laid out, or by another pass): {IREE_PLAN}"
        ));
    }
    // The rest of an XLA dump folder (`module_0004.jit_f.….ll`, `.o`, `.debug_options`,
    // `module_0004.jit_f/compile_options.textproto`): XLA names every file and folder
    // of a module `module_NNNN.…`; its plan files are read, not noted.
    let in_xla_dump = file_name.split(['/', '\\']).any(|part| {
        part.strip_prefix("module_").is_some_and(|rest| {
            rest.len() > 5
                && rest.as_bytes()[..4].iter().all(u8::is_ascii_digit)
                && rest.as_bytes()[4] == b'.'
        })
    });
    if in_xla_dump && !super::xla::is_xla(&text) {
        let kind = match () {
            _ if first.starts_with("; ModuleID") => " (a kernel's LLVM IR)",
            _ if head.starts_with(b"\x7fELF") => " (a kernel's object code)",
            _ if name.ends_with(".debug_options") || name.ends_with(".textproto") => {
                " (its compile options)"
            }
            _ => "",
        };
        return Some(format!(
            "part of XLA's dump{kind}, not its memory plan: {}",
            open_xla(base, None)
        ));
    }
    if name.ends_with(".py") || name.ends_with(".md") {
        return Some("a script or a note, not a dump".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::not_a_plan;
    use std::fs;

    fn head(path: &str) -> Vec<u8> {
        fs::read(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn the_siblings_in_the_framework_fixtures_are_known_and_the_plans_are_not() {
        for sibling in [
            "xla/cnn.cpu_after_optimizations-memory-usage-report.txt",
            "xla/cnn.cpu_after_optimizations-buffer-assignment-values.txt",
            "xla/cnn.stablehlo.mlir",
            "iree/cnn.transients.txt",
            "iree/cnn.input.mlir",
            "executorch/cnn.program.json",
            "executorch/cnn.tensor_specs.json",
            "tflm/dag6.allocations.txt",
        ] {
            assert!(not_a_plan(sibling, &head(sibling)).is_some(), "{sibling}");
        }
        // Issue #50: IREE's IR dumped after every pass holds the packs before the
        // layout pass and laid-out offsets after it; the latter is no error.
        let after = "// -----// IR Dump After LayoutSlicesPass: iree-stream-layout-slices //----- //\n\
            util.func public @main() {\n  %c1280 = arith.constant 1280 : index\n\
            %r, %t = stream.resource.alloca uninitialized : !stream.resource<transient>{%c1280} => !stream.timepoint\n}\n";
        let what = not_a_plan("after_layout_slices.mlir", after.as_bytes()).unwrap();
        assert!(what.contains("stream.resource.pack"), "{what}");
        for plan in [
            "xla/cnn.cpu_after_optimizations-buffer-assignment.txt",
            "xla/cnn.cpu_after_optimizations-live-range.txt",
            "iree/cnn.packs.mlir",
            "executorch/cnn.trace.json",
            "vit/fused/memory_info.txt",
            "bench/minimalloc/A.1048576.csv",
        ] {
            assert_eq!(not_a_plan(plan, &head(plan)), None, "{plan}");
        }
    }
}
