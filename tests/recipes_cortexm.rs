//! `--recipes cortexm-int8` (src/recipes/cortexm.rs) against the real
//! aidge-export-arm-cortexm 0.10.1 export for the stm32h743, int8. The figures are the
//! real exports', recorded with the fixtures they were made of (the corpus models
//! resized, weight-free) by `tests/parity/cortexm_qemu.py --qemu --record` (outside CI:
//! it runs the whole export and builds and runs it in QEMU); here they hold the recipe
//! without Python.

use memplan::formats;
use memplan::planning::Session;
use memplan::recipes::{self, Deploy, Dtype, Recipe};

include!("support/planning.rs");
include!("support/best.rs");

fn cortexm() -> Deploy {
    Deploy {
        recipes: vec![Recipe::CortexmInt8],
        dtype: None,
    }
}

/// The model `path` (under tests/data) deployed as cortexm-int8.
fn session(path: &str) -> Session {
    let bytes = gunzip(path);
    let doc = formats::load("m.onnx", &bytes).unwrap();
    Session::of("m", recipes::document(doc, &cortexm()).unwrap())
}

/// The model `path` deployed as cortexm-int8: (default plan's peak, warnings).
fn deployed(path: &str) -> (u64, Vec<String>) {
    let mut s = session(path);
    let (_, report) = s.as_loaded().unwrap();
    (report.peak.parse().unwrap(), s.document().warnings.clone())
}

fn record() -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/recipes/cortexm_int8.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn is_estimate(warnings: &[String]) -> bool {
    warnings.iter().any(|w| w.contains("an estimate"))
}

#[test]
fn cortexm_int8_gives_the_real_exports_mem_0_or_says_estimate() {
    let rec = record();
    let models = rec["models"].as_array().unwrap();
    // the architectures (not rows: one model at two sizes is one) memplan plans byte
    // for byte as the export and whose export was built and ran in QEMU
    let mut exact_run = std::collections::BTreeSet::new();
    for m in models {
        let (model, size) = (m["model"].as_str().unwrap(), m["size"].as_u64().unwrap());
        let (peak, warnings) = deployed(&format!("recipes/cortexm/{model}-{size}.onnx.gz"));
        let real = m["mem_0"].as_u64().unwrap();
        // what memplan says of its figure is what it said when the export was recorded
        let estimate = is_estimate(&warnings);
        assert_eq!(
            Some(estimate),
            m["estimate"].as_bool(),
            "{model} {size}: {warnings:?}"
        );
        if estimate {
            continue;
        }
        assert_eq!(peak, real, "{model} {size}: the Cortex-M export's mem_0");
        let qemu = &m["qemu"];
        if qemu["ran"].as_bool() == Some(true) && qemu["mem_0"].as_u64() == Some(real) {
            exact_run.insert(model);
        }
    }
    assert!(
        exact_run.len() >= 3,
        "only {exact_run:?} exact and recorded as built and run in QEMU"
    );
}

#[test]
fn a_residual_add_makes_an_estimate() {
    // ResNet-18: the Cortex-M library has no QAdd; the export's int32 Adds, Quantizers
    // and Transposes are not reproduced, and memplan says so.
    let (_, warnings) = deployed("recipes/cortexm/resnet18-32.onnx.gz");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("an estimate") && w.contains("no QAdd")),
        "{warnings:?}"
    );
}

#[test]
fn a_plan_beyond_the_sram_is_said() {
    // MobileNet-v3-Small at 224×224: 2,408,448 B, which the stm32h743's 1,000,000-byte
    // SRAM does not hold; the real export stops there.
    let (peak, warnings) = deployed("onnx/corpus/mobilenet_v3_small.onnx.gz");
    assert!(peak > 1_000_000);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("exceeds the stm32h743's SRAM")),
        "{warnings:?}"
    );
    let (small, warnings) = deployed("recipes/cortexm/mobilenet_v3_small-32.onnx.gz");
    assert!(small < 1_000_000);
    assert!(!warnings.iter().any(|w| w.contains("SRAM")), "{warnings:?}");
}

#[test]
fn cortexm_int8_is_int8_only_and_alone() {
    let bytes = gunzip("onnx/corpus/squeezenet1_1.onnx.gz");
    let doc = || formats::load("m.onnx", &bytes).unwrap();
    let float16 = Deploy {
        recipes: vec![Recipe::CortexmInt8],
        dtype: Some(Dtype::Float16),
    };
    let e = recipes::document(doc(), &float16).unwrap_err();
    assert!(e.message.contains("contradicts"), "{}", e.message);
    let both = Deploy {
        recipes: vec![Recipe::ExportCpp, Recipe::CortexmInt8],
        dtype: None,
    };
    let e = recipes::document(doc(), &both).unwrap_err();
    assert!(e.message.contains("choose one"), "{}", e.message);
    // --dtype int8 with it is the same deployment
    let int8 = Deploy {
        recipes: vec![Recipe::CortexmInt8],
        dtype: Some(Dtype::Int8),
    };
    let a = recipes::document(doc(), &int8).unwrap().schedule;
    let b = recipes::document(doc(), &cortexm()).unwrap().schedule;
    assert_eq!(a, b);
}

#[test]
fn best_ships_at_most_the_exports_arena() {
    // The plan to ship (`--strategy best` of the deployed graph, 16-byte aligned as the
    // export): valid, and at most the real export's mem_0 where memplan's graph is it.
    let rec = record();
    let m = rec["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["model"] == "squeezenet1_1" && m["size"] == 64)
        .unwrap();
    let real = m["mem_0"].as_u64().unwrap();
    let mut s = session("recipes/cortexm/squeezenet1_1-64.onnx.gz");
    let (plan, best) = best_of(&mut s);
    assert!(best <= real, "best {best}, the export's {real}");
    assert_eq!(plan.alignment, 16);
    assert!(plan.spaces.iter().all(|s| s.offset % 16 == 0));
}
