//! Parity of `drivers::generate` with aidge_core 0.10.1 on committed exports
//! (tests/data/aidge/CASE-COMBO.json, written by tests/parity/aidge_cases.py from
//! the real wheel): each file holds a schedule and the plan Aidge made for it;
//! the drivers must reproduce that plan plane by plane, and its peak.

use memplan::drivers::{generate, Driver, DriverOptions};
use memplan::manager::OptimizeStrategy;
use memplan::model::Plan;
use memplan::schedule::Schedule;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Doc {
    schedule: Schedule,
    plan: Plan,
}

/// Driver options from a file name's combo tag (the tags of bench/aidge/).
fn options(tag: &str) -> DriverOptions {
    let mut o = DriverOptions::default();
    let parts: Vec<&str> = tag.split('-').collect();
    o.driver = match parts[0] {
        "multi" => Driver::MultipleMems,
        "single" => Driver::Memory,
        "autoconcat" => Driver::AutoConcat,
        other => panic!("unknown driver tag {other}"),
    };
    o.wrap_around = parts.contains(&"wrap");
    o.optimize =
        OptimizeStrategy::parse(parts[parts.len() - 1]).filter(|s| *s != OptimizeStrategy::None);
    o
}

/// The cases of tests/parity/aidge_cases.py's EXPORT_CASES: `inception*` and
/// `densenet` are Concats of PaddedConv2D(+ReLU) branches (GoogLeNet's 3a, plain
/// and fused; a DenseNet chain); the last four are channels-last (per-pixel
/// planes): NHWC and NWC Concats, and two models as aidge_export_cpp prepares
/// them. `inception_fused-autoconcat-wrap-None` was kept from a schedule order
/// where the wrap-around margin rule matters (aidge_cases.py, EXPORT_CASES).
const CASES: [&str; 14] = [
    "resnet18",
    "mobilenet_v2",
    "squeezenet1_1",
    "efficientnet_b0",
    "branches",
    "residual",
    "split",
    "inception",
    "inception_fused",
    "densenet",
    "concat_nhwc",
    "concat_nwc",
    "squeezenet1_1_nhwc",
    "mobilenet_v2_nhwc",
];

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/aidge");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/aidge exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

fn split_name(path: &Path) -> (&'static str, String) {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    let case = CASES
        .iter()
        .find(|c| stem.starts_with(&format!("{c}-")))
        .unwrap_or_else(|| panic!("{stem}: unknown case"));
    (case, stem[case.len() + 1..].to_string())
}

/// First difference between our plan and Aidge's, comparing planes in order
/// with every field, each plane's space by value, the steps' clocks and the peak.
fn diff(ours: &Plan, aidge: &Plan) -> Option<String> {
    if ours.planes.len() != aidge.planes.len() {
        return Some(format!(
            "{} planes, Aidge {}",
            ours.planes.len(),
            aidge.planes.len()
        ));
    }
    for (k, (a, b)) in ours.planes.iter().zip(&aidge.planes).enumerate() {
        let (sa, sb) = (&ours.spaces[a.space], &aidge.spaces[b.space]);
        let fa = (
            a.node,
            a.index,
            a.allocated,
            a.offset,
            a.size,
            a.stride,
            a.length,
            a.count,
        );
        let fb = (
            b.node,
            b.index,
            b.allocated,
            b.offset,
            b.size,
            b.stride,
            b.length,
            b.count,
        );
        let ga = (a.cont_offset, a.cont_size, a.wrap_offset, a.wrap_size);
        let gb = (b.cont_offset, b.cont_size, b.wrap_offset, b.wrap_size);
        let spa = (sa.offset, sa.size, sa.allocated, sa.released, sa.has_deps);
        let spb = (sb.offset, sb.size, sb.allocated, sb.released, sb.has_deps);
        if fa != fb || ga != gb || spa != spb {
            return Some(format!(
                "plane {k} ({}): ours {fa:?} {ga:?} space {spa:?}\n      Aidge {fb:?} {gb:?} space {spb:?}",
                aidge.steps[b.node].name
            ));
        }
    }
    // A step's clock is the clock of its first plane (the exporter's rule): it places
    // the node on the chart's time axis.
    for (a, b) in ours.steps.iter().zip(&aidge.steps) {
        if a.clock != b.clock {
            return Some(format!(
                "step {}: clock {:?} vs Aidge {:?}",
                b.name, a.clock, b.clock
            ));
        }
    }
    if ours.max_lifetime != aidge.max_lifetime {
        return Some(format!(
            "max lifetime {} vs Aidge {}",
            ours.max_lifetime, aidge.max_lifetime
        ));
    }
    if ours.peak() != aidge.peak() {
        return Some(format!("peak {} vs Aidge {}", ours.peak(), aidge.peak()));
    }
    None
}

#[test]
fn drivers_match_aidge_on_every_export() {
    let files = files();
    assert!(
        files.len() >= 149,
        "expected 14 cases x 7 combos + 13 auto-concat with wrap-around \
         + 7 cases x 6 auto-concat with optimize - 4 (aidge_cases.py), found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let (_, tag) = split_name(path);
        let text = std::fs::read_to_string(path).unwrap();
        let doc: Doc = serde_json::from_str(&text).unwrap();
        let ours = generate(&doc.schedule, &options(&tag))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        if let Some(d) = diff(&ours, &doc.plan) {
            failures.push(format!("{stem}: {d}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} exports differ from Aidge's plan:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// `generate_memory_multiple_mems` with several memory components
/// (tests/data/aidge/components/, from aidge_cases.py's COMPONENT_COMBOS: a
/// small first bank that overflows into a large one, and reversed priorities):
/// same planes, spaces and per-plane components as the wheel.
#[test]
fn multiple_mems_with_several_components_match_aidge() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/aidge/components");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/aidge/components exists")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 8, "expected 4 cases x 2 combos");
    let mut failures = Vec::new();
    for path in &files {
        let doc: Doc = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(doc.plan.components.len() > 1, "{}", path.display());
        let opts = DriverOptions {
            components: doc.plan.components.clone(),
            ..DriverOptions::default()
        };
        let ours =
            generate(&doc.schedule, &opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let comp = |p: &Plan| -> Vec<usize> {
            p.planes
                .iter()
                .map(|pl| p.spaces[pl.space].component)
                .collect()
        };
        let d = diff(&ours, &doc.plan).or_else(|| {
            (comp(&ours) != comp(&doc.plan)).then(|| "plane components differ".to_string())
        });
        if let Some(d) = d {
            failures.push(format!("{stem}: {d}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A graph the wheel cannot plan (tests/data/aidge/refused/: a grouped,
/// non-depthwise Conv that aidge_onnx imports as a GenericOperator, whose
/// output Aidge can only count in tokens) is refused by every driver with the
/// wheel's own message, naming the node and its type.
#[test]
fn token_based_outputs_are_refused_like_aidge() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/aidge/refused/grouped_conv.json");
    #[derive(Deserialize)]
    struct Refused {
        schedule: Schedule,
    }
    let doc: Refused = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let base = "Cannot generate memory with token-based producer-consumer model for node \
                grouped_Conv (of type Conv).";
    let hint = " You may need to forward dimensions in the graph first.";
    for (driver, message) in [
        (Driver::MultipleMems, base.to_string()),
        (Driver::Memory, format!("{base}{hint}")),
        (Driver::AutoConcat, format!("{base}{hint}")),
    ] {
        for wrap_around in [false, true] {
            let opts = DriverOptions {
                driver,
                wrap_around,
                ..DriverOptions::default()
            };
            let e = generate(&doc.schedule, &opts).unwrap_err();
            assert_eq!(e.to_string(), message, "{driver:?}");
        }
    }
}
