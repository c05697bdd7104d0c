//! Files that frameworks write beside a plan dump and that hold no plan: dropping a
//! whole dump folder on the page brings them along. Recognised from their name and
//! first bytes, they are noted as what they are instead of failing in the words of
//! the reader a `.txt` falls back to (Aidge's log: "expected a plane index").

use std::borrow::Cow;

/// What file `file_name` (content `bytes`) is when it is a known sibling of a plan
/// dump and not a plan, else None. TFLite Micro's `print_allocations()` output is
/// one too (a valid file with figures and no plan): its summary says what it holds.
pub fn not_a_plan(file_name: &str, bytes: &[u8]) -> Option<Cow<'static, str>> {
    not_a_plan_kind(file_name, bytes)
        .map(Cow::Borrowed)
        .or_else(|| {
            let text = std::str::from_utf8(bytes).ok()?;
            super::tflm::allocations_summary(text).map(Cow::Owned)
        })
}

fn not_a_plan_kind(file_name: &str, bytes: &[u8]) -> Option<&'static str> {
    let name = file_name
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let text = String::from_utf8_lossy(bytes);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if name.ends_with("-memory-usage-report.txt") || first.starts_with("Memory Space:") {
        return Some("XLA's memory-usage report (its Total bytes is the total the plan shows)");
    }
    if first.starts_with("HloModule") {
        return Some(
            "an XLA HLO module (the plan is its -buffer-assignment.txt with its -live-range.txt)",
        );
    }
    if name.ends_with(".pte") {
        return Some("an ExecuTorch program (the plan is its memory trace JSON)");
    }
    if first.starts_with('{') && text.contains("\"non_const_buffer_sizes\"") {
        return Some("ExecuTorch's program summary (the plan is its memory trace JSON)");
    }
    if text.contains("stream.resource.alloca") && !text.contains("stream.resource.pack") {
        return Some("IREE's transient allocations (the plan is its packs .mlir dump)");
    }
    if name.ends_with(".py") || name.ends_with(".md") {
        return Some("a script or a note, not a dump");
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
            "iree/cnn.transients.txt",
            "executorch/cnn.program.json",
            "tflm/dag6.allocations.txt",
        ] {
            assert!(not_a_plan(sibling, &head(sibling)).is_some(), "{sibling}");
        }
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
