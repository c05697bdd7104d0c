//! The `// MEMINFO CONF` output macros of aidge-export-cpp 0.10.1's layer headers,
//! written exactly as its `templates/configuration/_meminfo.jinja` writes them from
//! `generate_optimized_memory_info`'s records ([`super::mem_info`]): per output of
//! every node (Producers too: export-cpp writes their standalone records into
//! `layers/<NODE>.h` as well),
//! `<NODE>_OUTPUT_<i>_MEM_{SIZE,OFFSET,STRIDE,LENGTH,CONT_OFFSET,CONT_SIZE,WRAP_OFFSET,WRAP_SIZE}`,
//! the last four zero unless the output wraps around. For users who move a plan into
//! an existing build by hand; `memplan.aidge.patch_export` does it during the export.

use super::mem_info::{records, Record};
use crate::model::Plan;
use crate::schedule::Schedule;
use std::fmt::Write;

/// The macros of every layer, one block per node, with the arena sizes the plan
/// needs first (export-cpp declares them as `static unsigned char mem_<i>[...]`).
pub fn write(plan: &Plan, schedule: Option<&Schedule>) -> String {
    let mut out = String::from(
        "// Memory plan for aidge-export-cpp 0.10.1, written by memplan.\n\
         // Replace each layer header's output MEMINFO macros with these, and size the\n\
         // arenas in dnn/src/forward.cpp as below.\n",
    );
    for line in super::assumptions(plan) {
        let _ = writeln!(out, "// {line}");
    }
    for (i, peak) in plan.peaks().iter().enumerate() {
        let _ = writeln!(out, "// static unsigned char mem_{i}[{peak}];");
    }
    for node in records(plan, schedule) {
        if node.outputs.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n// {} ({})", node.node, node.kind);
        for (i, r) in node.outputs.iter().enumerate() {
            // Jinja's `upper` filter is Python's str.upper.
            let name = format!("{}_output_{i}", node.node).to_uppercase();
            macros(&mut out, &name, r);
        }
    }
    out
}

fn macros(out: &mut String, name: &str, r: &Record) {
    let (cont_offset, cont_size, wrap_offset, wrap_size) = if r.wrap_size > 0 {
        (r.cont_offset, r.cont_size, r.wrap_offset, r.wrap_size)
    } else {
        (0, 0, 0, 0)
    };
    let fields = [
        ("SIZE", r.size),
        ("OFFSET", r.offset),
        ("STRIDE", r.stride),
        ("LENGTH", r.length),
        ("CONT_OFFSET", cont_offset),
        ("CONT_SIZE", cont_size),
        ("WRAP_OFFSET", wrap_offset),
        ("WRAP_SIZE", wrap_size),
    ];
    for (key, value) in fields {
        let _ = writeln!(out, "#define {name}_MEM_{key} {value}");
    }
}
