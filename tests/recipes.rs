//! Recipes (`src/recipes`): an ONNX model planned as its deployment runs it. The
//! figures asserted here are the real aidge-export-cpp 0.10.1 export's, recorded by
//! `tests/parity/recipes_diff.py --all --full --record=tests/data/recipes/export_cpp.json`
//! (which also checks every node of the rewritten graph against the export's own, and
//! runs in CI on a subset); here they guard the recipe without Python.

use memplan::formats;
use memplan::planning::Session;
use memplan::recipes::{self, Deploy, Dtype, Recipe};

include!("support/planning.rs");
include!("support/best.rs");
include!("support/cli.rs");

/// The model's file: a corpus CNN, or the transformer, ViT-tiny, folded (the fixture of
/// the seed fusions: aidge_onnx 0.10.1 imports a ViT only with its shape arithmetic
/// folded, tests/parity/fusion_models.py).
fn model_file(model: &str) -> String {
    match model {
        "hf_vit" => "onnx/fusions/hf_vit.onnx.gz".into(),
        _ => format!("onnx/corpus/{model}.onnx.gz"),
    }
}

fn deployed(model: &str, deploy: &Deploy) -> memplan::Result<Session> {
    let bytes = gunzip(&model_file(model));
    let doc = formats::load(&format!("{model}.onnx"), &bytes)?;
    Ok(Session::of(model, recipes::document(doc, deploy)?))
}

fn export_cpp() -> Deploy {
    Deploy {
        recipes: vec![Recipe::ExportCpp],
        dtype: None,
    }
}

fn session_peak(session: &mut Session) -> u64 {
    let (_, report) = session.as_loaded().unwrap();
    report.peak.parse().unwrap()
}

/// The recorded real exports: model → (mem_0, whether it changes from one run of the
/// export to the next).
fn recorded() -> Vec<(String, u64, bool)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/recipes/export_cpp.json");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, r)| {
            (
                k.clone(),
                r["mem_0"].as_u64().unwrap(),
                r["order_dependent"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

#[test]
fn export_cpp_gives_the_real_exports_mem_0() {
    let models = recorded();
    // Models with parallel branches get another mem_0 at each run of the real export
    // (Aidge orders a scheduler pass by pointer); recipes_diff.py checks those in the
    // export's own order. The others must give the export's figure from the model alone.
    let fixed: Vec<_> = models.iter().filter(|(.., varies)| !varies).collect();
    assert!(
        fixed.len() >= 15,
        "only {} models recorded with one order",
        fixed.len()
    );
    for (model, real, _) in fixed {
        let mut s = deployed(model, &export_cpp()).unwrap();
        assert_eq!(session_peak(&mut s), *real, "{model}: the export's mem_0");
    }
}

#[test]
fn the_recipe_changes_the_figure_where_the_export_does() {
    // MobileNet-v3-Small: the graph as imported is planned in 1,329,728 B; the export's
    // HardSwish expansion and squeeze-excitation gates need 2,408,448 (issue #33).
    let bytes = gunzip("onnx/corpus/mobilenet_v3_small.onnx.gz");
    let mut imported = Session::of("m", formats::load("m.onnx", &bytes).unwrap());
    let mut exported = deployed("mobilenet_v3_small", &export_cpp()).unwrap();
    let (a, b) = (session_peak(&mut imported), session_peak(&mut exported));
    let real = recorded()
        .into_iter()
        .find(|(m, ..)| m == "mobilenet_v3_small")
        .unwrap()
        .1;
    assert_eq!(b, real);
    assert!(a < b, "as imported {a}, as exported {b}");
    // What the recipe did is said, fusion by fusion.
    let doc = exported.document();
    assert!(doc
        .warnings
        .iter()
        .any(|w| w.contains("fused into ConvAct") && w.contains("11 ×")));
    assert!(doc.warnings.iter().all(|w| !w.contains("an estimate")));
}

#[test]
fn a_node_the_export_has_no_kernel_for_is_named() {
    // ResNeXt's grouped convolutions: Aidge imports them as a generic Conv, and the
    // export stops there ("No implementation found for node").
    let e = deployed("resnext50_32x4d", &export_cpp()).unwrap_err();
    assert!(
        e.message.contains("'layer1_layer1_0_conv2_Conv' (Conv)")
            && e.message.contains("no kernel in aidge-export-cpp"),
        "{}",
        e.message
    );
}

#[test]
fn kinds_never_checked_make_an_estimate() {
    // ShuffleNet's channel shuffle (its shape arithmetic and Slices): the real export
    // fails on it; memplan plans it but says it is an estimate, naming the kinds.
    let s = deployed("shufflenet_v2_x0_5", &export_cpp()).unwrap();
    let w = &s.document().warnings;
    assert!(
        w.iter()
            .any(|w| w.contains("an estimate") && w.contains("Slice")),
        "{w:?}"
    );
}

/// The recorded int8 exports: model → mem_0 of `ExportConfig(dtype="int8")`.
fn recorded_int8() -> Vec<(String, u64)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/recipes/export_cpp.json");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v.as_object()
        .unwrap()
        .iter()
        .filter_map(|(k, r)| Some((k.clone(), r.get("int8")?["mem_0"].as_u64()?)))
        .collect()
}

#[test]
fn int8_gives_the_int8_exports_mem_0() {
    // The quantized export: Quantizers on shared Add operands (ResNet-18: 5), one-byte
    // activations with 16-byte pixels, int64 MaxPool indices; a graph the quantizer
    // refuses (MobileNet-v3's HardSigmoid, MNASNet's ReduceMean) stays float32.
    let int8 = Deploy {
        recipes: vec![Recipe::ExportCpp],
        dtype: Some(Dtype::Int8),
    };
    let models = recorded_int8();
    assert!(models.len() >= 4, "{models:?}");
    for (model, real) in models {
        let mut s = deployed(&model, &int8).unwrap();
        assert_eq!(
            session_peak(&mut s),
            real,
            "{model}: the int8 export's mem_0"
        );
        let w = &s.document().warnings;
        assert!(
            w.iter().all(|w| !w.contains("an estimate")),
            "{model}: {w:?}"
        );
        let refused = w.iter().any(|w| w.contains("cannot quantize"));
        assert_eq!(
            refused,
            model == "mobilenet_v3_small" || model == "mnasnet0_5",
            "{model}"
        );
    }
}

#[test]
fn int8_plans_one_byte_activations_with_the_exports_alignment() {
    let int8 = Deploy {
        recipes: vec![Recipe::ExportCpp],
        dtype: Some(Dtype::Int8),
    };
    let mut s = deployed("squeezenet1_1", &int8).unwrap();
    let plan = s.loaded().unwrap().clone();
    assert_eq!(plan.alignment, 16);
    for p in &plan.planes {
        // NHWC planes are per pixel: each pixel's bytes rounded up to 16.
        assert_eq!(p.stride % 16, 0, "{p:?}");
        assert_eq!(plan.spaces[p.space].offset % 16, 0);
    }
    let float = session_peak(&mut deployed("squeezenet1_1", &export_cpp()).unwrap());
    let small = session_peak(&mut s);
    assert!(
        small * 4 >= float && small < float,
        "int8 {small}, float32 {float}"
    );
    // float16 changes only the activations' size: an estimate, said so.
    let half = Deploy {
        recipes: vec![Recipe::ExportCpp],
        dtype: Some(Dtype::Float16),
    };
    let h = deployed("squeezenet1_1", &half).unwrap();
    assert!(h
        .document()
        .warnings
        .iter()
        .any(|w| w.contains("an estimate")));
}

#[test]
fn recipes_need_a_schedule() {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/bench/aidge/resnet18-multi-None/memory_info.txt"),
    )
    .unwrap();
    let doc = formats::load("memory_info.txt", &bytes).unwrap();
    let e = recipes::document(doc, &export_cpp()).unwrap_err();
    assert!(e.message.contains("without one"), "{}", e.message);
}

#[test]
fn the_cli_takes_recipe_and_dtype_names_from_the_table() {
    let dir = scratch();
    let model = dir.path().join("mobilenet_v3_small.onnx");
    std::fs::write(&model, gunzip("onnx/corpus/mobilenet_v3_small.onnx.gz")).unwrap();
    let out = memplan()
        .args(["stats", "--json", "--recipes", "export-cpp"])
        .arg(&model)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let deployed_peak = v["peak"].as_u64().unwrap();
    assert_eq!(deployed_peak, 2_408_448);
    // Without --recipes, the graph as imported.
    let imported = peak(&model);
    assert!(imported < deployed_peak);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("deployed as export-cpp"), "{stderr}");
    // stats' own output names the deployment and its net change, not only stderr.
    assert_eq!(v["deployed"]["as"], "export-cpp");
    assert_eq!(v["deployed"]["peak_as_imported"].as_u64(), Some(imported));
    let change = deployed_peak as i64 - imported as i64;
    assert_eq!(v["deployed"]["change"].as_i64(), Some(change));
    let text = memplan()
        .args(["stats", "--recipes", "export-cpp"])
        .arg(&model)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    let line = format!(
        "deployed as:  export-cpp: {change} bytes more than the graph as imported ({imported} bytes)"
    );
    assert!(text.contains(&line), "{text}");
    let help = memplan().args(["stats", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for r in Recipe::ALL {
        assert!(help.contains(r.name()), "{help}");
    }
    for d in Dtype::ALL {
        assert!(help.contains(d.name()), "{help}");
    }
    let bad = memplan()
        .args(["stats", "--recipes", "export-tvm"])
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("export-cpp"));
}

/// What `patch_export(strategy="best")` ships is memplan's plan of the export's own
/// graph: from the model alone, `best` of the deployed schedule is valid and below the
/// real export's `mem_0` (recorded, tests/data/recipes/export_cpp.json), not merely at
/// or below memplan's own default plan, which it never exceeds by construction: on the
/// models where docs/recipes.md's table says `best` saves (SqueezeNet-1.0: 5,682,048 B
/// against 6,345,216).
#[test]
fn best_replans_the_deployed_graph_below_the_real_exports_mem_0() {
    let recorded = recorded();
    for model in ["mobilenet_v3_small", "mnasnet0_5", "squeezenet1_0"] {
        let (_, mem_0, varies) = recorded.iter().find(|(m, ..)| m == model).unwrap();
        assert!(!varies, "{model}: one mem_0 per run of the export");
        let mut s = deployed(model, &export_cpp()).unwrap();
        let (_, best) = best_of(&mut s);
        assert!(
            best < *mem_0,
            "{model}: best {best}, the real export's {mem_0}"
        );
    }
}
