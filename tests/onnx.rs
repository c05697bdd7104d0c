//! ONNX models read as Aidge 0.10.1 reads them (`formats::onnx`), planned through
//! the same path as a dropped export. The facts asserted here (names, Aidge types,
//! protected data) are those tests/parity/onnx_diff.py checks against the real wheels
//! on the same model; here they guard the reader without Python.

use assert_cmd::Command;
use memplan::check::check;
use memplan::drivers::{self, Driver, DriverOptions};
use memplan::formats::{self, Format};
use memplan::planning::{Request, Session};
use memplan::schedule::Schedule;
use memplan::strategies::Budget;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/onnx")
        .join(name)
}

fn tiny() -> Schedule {
    let bytes = std::fs::read(data("tiny_cnn.onnx")).unwrap();
    let doc = formats::load("tiny_cnn.onnx", &bytes).unwrap();
    assert_eq!(doc.format, Format::Onnx);
    doc.schedule.unwrap()
}

fn node<'a>(s: &'a Schedule, name: &str) -> &'a memplan::schedule::Node {
    s.nodes
        .iter()
        .find(|n| n.name == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

#[test]
fn a_model_reads_as_aidge_names_and_maps_it() {
    let s = tiny();
    // Producers first (weights, Clip's bounds), then the operators.
    let first_op = s.nodes.iter().position(|n| !n.producer).unwrap();
    assert!(s.nodes[first_op..].iter().all(|n| !n.producer));
    assert!(s.nodes[..first_op].iter().all(|n| n.kind == "Producer"));
    // A padded Conv is Aidge's PaddedConv2D; its Pad protects the padding only.
    let stem = node(&s, "stem_Conv");
    assert_eq!(stem.kind, "PaddedConv2D");
    assert_eq!(stem.inputs[0].required_data, 3 * 16 * 16);
    assert_eq!(stem.inputs[0].required_protected, 3 * 18 * 18 - 3 * 16 * 16);
    assert_eq!(stem.outputs[0].dims, vec![1, 8, 16, 16]);
    assert_eq!(stem.outputs[0].data_format, "nchw");
    // MaxPooling2D has Aidge's second (int64 indices) output, unread.
    let pool = node(&s, "pool_MaxPool");
    assert_eq!(pool.kind, "MaxPooling2D");
    assert_eq!(pool.outputs.len(), 2);
    assert_eq!(pool.outputs[1].bytes, 8 * 8 * 8 * 8);
    assert!(pool.outputs[1].consumers.is_empty());
    // A depth-wise Conv, a Clip (which aidge_onnx leaves nameless), a node named by
    // its output, Gemm as FC (the graph output, protecting its whole input).
    assert_eq!(node(&s, "dw_Conv").kind, "PaddedConvDepthWise2D");
    assert!(s
        .nodes
        .iter()
        .any(|n| n.kind == "Clip" && n.name.is_empty()));
    assert_eq!(node(&s, "gate_Mul_output_0").kind, "Mul");
    let fc = node(&s, "fc_Gemm");
    assert_eq!(fc.kind, "FC");
    assert!(fc.outputs[0].graph_output);
    assert_eq!(fc.inputs[0].required_protected, fc.inputs[0].required_data);
    assert_eq!(fc.inputs.len(), 1, "weight and bias are parameters");
    let weight = node(&s, "fc_weight");
    assert_eq!(
        weight.outputs[0].param_readers,
        vec![s.nodes.iter().position(|n| n.name == "fc_Gemm").unwrap()]
    );
    assert_eq!(node(&s, "Flatten").outputs[0].data_format, "default");
}

#[test]
fn every_driver_and_strategy_plans_it_validly() {
    let s = tiny();
    for driver in [Driver::MultipleMems, Driver::Memory, Driver::AutoConcat] {
        for wrap in [false, true] {
            let opts = DriverOptions {
                driver,
                wrap_around: wrap,
                ..DriverOptions::default()
            };
            let plan = drivers::generate(&s, &opts).unwrap();
            let report = check(&plan);
            assert!(report.is_valid(), "{driver:?} wrap={wrap}: {report:?}");
        }
    }
    let bytes = std::fs::read(data("tiny_cnn.onnx")).unwrap();
    let mut session = Session::open("tiny_cnn.onnx", &bytes).unwrap();
    let ask = |choice: &str| Request::new(choice, Budget::millis(500)).unwrap();
    let (aidge, aidge_report) = session.plan(&ask("aidge")).unwrap();
    let (best, report) = session.plan(&ask("best")).unwrap();
    assert!(check(&aidge).is_valid() && check(&best).is_valid());
    let peak = |r: &memplan::planning::PlanReport| r.peak.parse::<u64>().unwrap();
    assert!(peak(&report) <= peak(&aidge_report));
    assert!(peak(&report) >= report.lower_bound.parse::<u64>().unwrap());
    for strategy in ["greedy-size", "search"] {
        let (plan, _) = session.plan(&ask(strategy)).unwrap();
        assert!(check(&plan).is_valid(), "{strategy}");
    }
}

#[test]
fn the_memory_keeps_its_name_after_best() {
    // As loaded, Aidge's default driver (multiple-mems) calls the model's memory MEM_0;
    // best wins here with another driver, whose plan named it `mem`: the page showed
    // one memory under two names.
    let bytes = std::fs::read(data("tiny_cnn.onnx")).unwrap();
    let mut session = Session::open("tiny_cnn.onnx", &bytes).unwrap();
    let names = |plan: &memplan::Plan| -> Vec<String> {
        plan.components.iter().map(|c| c.name.clone()).collect()
    };
    let ask = |choice: &str| Request::new(choice, Budget::millis(500)).unwrap();
    let (loaded, _) = session.plan(&ask("as-loaded")).unwrap();
    assert_eq!(names(&loaded), ["MEM_0"]);
    for strategy in ["best", "greedy-size"] {
        let (plan, _) = session.plan(&ask(strategy)).unwrap();
        assert_eq!(names(&plan), ["MEM_0"], "{strategy}");
    }
}

#[test]
fn symbolic_dims_take_the_values_given() {
    let bytes = std::fs::read(data("tiny_cnn.onnx")).unwrap();
    let dims = formats::onnx::symbolic_dims(&bytes).unwrap();
    assert_eq!(dims.len(), 1);
    assert_eq!((dims[0].name.as_str(), dims[0].default), ("N", 1));
    assert_eq!(dims[0].used_by, vec!["input[0]".to_string()]);
    let one = formats::onnx::read(&bytes, &[]).unwrap();
    let four = formats::onnx::read(&bytes, &[("N".into(), 4)]).unwrap();
    let stem = |s: &Schedule| node(s, "stem_Conv").outputs[0].bytes;
    assert_eq!(stem(&four), 4 * stem(&one));
}

fn memplan() -> Command {
    Command::cargo_bin("memplan").unwrap()
}

#[test]
fn cli_converts_and_plans_onnx() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tiny_cnn.memplan.json");
    memplan()
        .args(["convert", data("tiny_cnn.onnx").to_str().unwrap(), "-o"])
        .arg(&out)
        .args(["--dims", "N=2"])
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = formats::load("x.memplan.json", text.as_bytes()).unwrap();
    assert_eq!(
        node(doc.schedule.as_ref().unwrap(), "stem_Conv").outputs[0].dims,
        vec![2, 8, 16, 16]
    );
    let stats = memplan()
        .args(["stats", "--json", data("tiny_cnn.onnx").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(stats.status.success());
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(v["format"], "ONNX model");
    memplan()
        .args([
            "plan",
            data("tiny_cnn.onnx").to_str().unwrap(),
            "--strategy",
            "best",
            "-o",
            "-",
        ])
        .assert()
        .success();
}

/// `--dims` works on every command that reads a file, not only `convert`: a batch of
/// 4 plans four times the bytes of a batch of 1 (tiny_cnn's activations all scale
/// with N).
#[test]
fn every_command_takes_the_models_dims() {
    let model = data("tiny_cnn.onnx");
    let peak = |dims: &[&str]| -> u64 {
        let out = memplan()
            .args(["stats", "--json", model.to_str().unwrap()])
            .args(dims)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["peak"].as_u64().unwrap()
    };
    assert_eq!(peak(&["--dims", "N=4"]), 4 * peak(&[]));
    for command in [&["check"][..], &["plan", "--strategy", "best", "-o", "-"]] {
        memplan()
            .args(command)
            .arg(&model)
            .args(["--dims", "N=4"])
            .assert()
            .success();
    }
    memplan()
        .args(["check", model.to_str().unwrap(), "--dims", "N=zero"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--dims `N=zero`"));
}

#[test]
fn bad_models_get_clear_messages() {
    let run = |file: &str| {
        let out = memplan()
            .args(["stats", data(file).to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{file}");
        String::from_utf8(out.stderr).unwrap()
    };
    let e = run("external_data.onnx");
    assert!(
        e.contains("external_data.onnx")
            && e.contains("external data")
            && e.contains("tiny_cnn.weights"),
        "{e}"
    );
    let e = run("unknown_op.onnx");
    assert!(
        e.contains("node '/dw/Sigmoid' (op type Celu)") && e.contains("does not know"),
        "{e}"
    );
    // Refused before the page asks for the symbolic dims.
    let unknown = std::fs::read(data("unknown_op.onnx")).unwrap();
    let e = formats::onnx::symbolic_dims(&unknown).unwrap_err();
    assert!(e.message.contains("(op type Celu)"), "{e}");
    // The same operator with its output shape in value_info: opened, sized from the model.
    let generic = std::fs::read(data("generic_op.onnx")).unwrap();
    let s = formats::onnx::read(&generic, &[("N".into(), 2)]).unwrap();
    let sized: Vec<&str> = s
        .nodes
        .iter()
        .filter(|n| n.sized_by_model)
        .map(|n| n.kind.as_str())
        .collect();
    assert_eq!(sized, ["Celu"]);
    let celu = s.nodes.iter().find(|n| n.sized_by_model).unwrap();
    assert_eq!(celu.outputs[0].dims, [2, 8, 8, 8]);
    assert_eq!(
        celu.inputs[0].required_protected,
        celu.inputs[0].required_data
    );
    // Converted to memplan JSON (what the page opens), the file still warns, naming it:
    // aidge_onnx has no Celu converter, so Aidge's import is where it fails.
    let json = formats::memplan_json::write(&formats::Document::of_schedule(s.clone()));
    let doc = formats::load("generic_op.memplan.json", json.as_bytes()).unwrap();
    let want = format!(
        "Aidge 0.10.1 cannot run this model: aidge_onnx's import fails at node '{0}' (Celu): \
         aidge_onnx imports it as a GenericOperator, which Aidge cannot size. 1 node(s) sized \
         from the model, not from Aidge's kernels (Aidge 0.10.1 cannot size them): '{0}' \
         (Celu). {1}",
        celu.name,
        memplan::schedule::AIDGE_CANNOT
    );
    assert_eq!(doc.warnings, [want]);
    // Truncated or garbage bytes under an .onnx name: a message, never a panic.
    let bytes = std::fs::read(data("tiny_cnn.onnx")).unwrap();
    for cut in [1, 7, 100, bytes.len() / 2, bytes.len() - 1] {
        let r = formats::load("cut.onnx", &bytes[..cut]);
        assert!(r.is_err(), "cut at {cut}");
    }
    // Every byte of a model changed in turn: an error or a schedule, never a panic.
    for at in 0..bytes.len() {
        let mut b = bytes.clone();
        b[at] = b[at].wrapping_add(0x41);
        if let Ok(doc) = formats::load("flip.onnx", &b) {
            doc.schedule.unwrap().validate().unwrap();
        }
    }
    let e = formats::load("x.onnx", b"\x08\x07garbage").unwrap_err();
    assert!(e.to_string().starts_with("x.onnx: "), "{e}");
}

/// The operator list of docs/formats.md is the code's (`formats::onnx::OPS`), between
/// its two markers; on a difference the test prints the block to paste.
#[test]
fn docs_list_the_operators_of_the_code() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"),
    )
    .unwrap();
    let (start, end) = (
        "<!-- onnx-ops: generated from formats::onnx::OPS -->",
        "<!-- /onnx-ops -->",
    );
    let block = docs
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(b, _)| b.trim().to_string())
        .expect("docs/formats.md lacks the onnx-ops markers");
    let want = formats::onnx::OPS
        .iter()
        .map(|(onnx, aidge)| {
            if onnx == aidge {
                format!("`{onnx}`")
            } else {
                format!("`{onnx}` → `{aidge}`")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(block, want, "paste this between the markers:\n{want}");
    let block = docs
        .split_once("<!-- onnx-contrib: generated from formats::onnx::CONTRIB -->")
        .and_then(|(_, rest)| rest.split_once("<!-- /onnx-contrib -->"))
        .map(|(b, _)| b.trim().to_string())
        .expect("docs/formats.md lacks the onnx-contrib markers");
    let want = formats::onnx::CONTRIB
        .iter()
        .map(|(domain, op)| match *domain {
            "" => format!("`{op}` (ONNX domain, as onnxruntime registers it)"),
            d => format!("`{d}` `{op}`"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(block, want, "paste this between the markers:\n{want}");
}

/// Two import rules of aidge_onnx 0.10.1 that ONNX's own expansion of RMSNormalization
/// shows (tests/data/onnx/rms_normalization.onnx, ONNX's node test
/// `test_rms_normalization_4d_axis2_expanded`; the figures are what the wheel gives,
/// probed with `aidge_core.SequentialScheduler` and re-checked against it by
/// tests/parity/onnx_nodes_diff.py, whose CI subset has every Size model).
#[test]
fn rms_normalization_follows_aidges_import_rules() {
    let bytes = std::fs::read(data("rms_normalization.onnx")).unwrap();
    let doc = formats::load("rms_normalization.onnx", &bytes).unwrap();
    let s = doc.schedule.unwrap();
    let by_suffix = |suffix: &str| {
        s.nodes
            .iter()
            .find(|n| n.name.ends_with(suffix))
            .unwrap_or_else(|| panic!("no node ending in {suffix}"))
    };
    // Identity computes nothing in Aidge's forward_dims: Range reads its start (the
    // axis, 2) as the zeros of a tensor never written, and makes the axes 0..4, not
    // 2..4; the ReduceMean then reduces every axis.
    assert_eq!(by_suffix("_PosAxis").kind, "Identity");
    assert_eq!(by_suffix("_ReduceAxes").outputs[0].dims, vec![4]);
    assert_eq!(by_suffix("_XSquaredMean").outputs[0].dims, vec![1, 1, 1, 1]);
    // A node's data format comes from its first input's rank as ONNX's shape
    // inference gives it: none for the output of a ReduceMean with computed axes, nor
    // for anything computed from it, so those nodes stay `default` while the rank-4
    // ones whose first input has a rank are `nchw`.
    let formats: Vec<(&str, &str)> = [
        "_XU",
        "_XSquared",
        "_XSquaredMean",
        "_MeanSquareEpsilon",
        "_RMS",
        "_Normalized",
        "_NormalizedT",
    ]
    .iter()
    .map(|&n| (n, by_suffix(n).outputs[0].data_format.as_str()))
    .collect();
    assert_eq!(
        formats,
        [
            ("_XU", "nchw"),
            ("_XSquared", "nchw"),
            ("_XSquaredMean", "nchw"),
            ("_MeanSquareEpsilon", "default"),
            ("_RMS", "default"),
            ("_Normalized", "nchw"),
            ("_NormalizedT", "default"),
        ]
    );
    assert_eq!(by_suffix("Y").outputs[0].data_format, "default");
}

/// A model of tests/data/onnx/families (tests/parity/onnx_families.py), gunzipped.
fn family(name: &str) -> Vec<u8> {
    use std::io::Read;
    let raw = std::fs::read(data(&format!("families/{name}.onnx.gz"))).unwrap();
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut bytes)
        .unwrap();
    bytes
}

/// The default plan's peak of a model as memplan opens it.
fn default_peak(name: &str, bytes: &[u8]) -> u64 {
    let mut session = Session::open(name, bytes).unwrap();
    let (plan, report) = session
        .plan(&Request::new("aidge", Budget::millis(500)).unwrap())
        .unwrap();
    assert!(check(&plan).is_valid(), "{name}");
    report.peak.parse().unwrap()
}

/// BatchNorm1d over tokens (rank 3, LeViT-style), exported by torch 2.15: aidge_onnx
/// 0.10.1 imports every BatchNormalization as BatchNorm2D, whose forward_dims sizes any
/// rank from 2 up; memplan sizes it so, not as a node Aidge cannot size. The default
/// peak is the one aidge_core 0.10.1's `generate_memory_multiple_mems` gives on the
/// wheel (6,144 bytes; tests/parity/onnx_diff.py re-checks the schedule and the three
/// drivers' plans against the wheel in CI).
#[test]
fn batch_norm_on_tokens_is_aidges_batchnorm2d() {
    let bytes = family("token_batchnorm");
    let doc = formats::load("token_batchnorm.onnx", &bytes).unwrap();
    let s = doc.schedule.unwrap();
    let bn = node(&s, "bn_BatchNormalization");
    assert_eq!(bn.kind, "BatchNorm2D");
    assert_eq!(bn.outputs[0].dims, vec![1, 16, 32]);
    assert!(
        s.sized_by_model().is_empty(),
        "no node sized from the model"
    );
    assert_eq!(default_peak("token_batchnorm.onnx", &bytes), 6144);
}

/// Issue #35's RMSNorm case: transformers' T5LayerFF exported by torch 2.15's dynamo
/// exporter with its optimizer off computes the ReduceMean's axes (a Reshape of a
/// constant). Aidge 0.10.1's forward_dims reads them before any kernel ran (zeros),
/// reduces axis 0 and keeps the tensor 1×16×32, and still runs the model: memplan gives
/// Aidge's sizes (its schedule and the three drivers' plans equal the wheel's, checked
/// by tests/parity/onnx_diff.py; default peak 24,580 bytes on the wheel), says where they are not
/// ONNX's, and does not call it a model Aidge cannot run.
#[test]
fn rms_norm_with_computed_axes_keeps_aidges_sizes() {
    let bytes = family("t5_layer_ff_dynamo");
    let doc = formats::load("t5_layer_ff_dynamo.onnx", &bytes).unwrap();
    let s = doc.schedule.as_ref().unwrap();
    assert_eq!(node(s, "node_mean").outputs[0].dims, vec![1, 16, 32]);
    // Sized from it: the epsilon's Add and the Sqrt.
    assert_eq!(node(s, "node_Sqrt_5").outputs[0].dims, vec![1, 16, 32]);
    assert!(s.aidge_fails.is_none(), "{:?}", s.aidge_fails);
    assert!(
        s.sized_by_model().is_empty(),
        "no node sized from the model"
    );
    assert_eq!(s.aidge_resizes.len(), 1);
    assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
    let note = &doc.warnings[0];
    assert!(
        note.contains("node 'node_mean' (ReduceMean)")
            && note.contains("[1, 16, 32], where ONNX's rules give [1, 16, 1]")
            && !note.contains(memplan::schedule::AIDGE_CANNOT),
        "{note}"
    );
    assert_eq!(default_peak("t5_layer_ff_dynamo.onnx", &bytes), 24580);
}

/// A Whisper-style Conv1d stem and a 2-layer Whisper encoder of our own config: the
/// same schedule as Aidge's and, in memplan's own order, the default peak aidge_core
/// 0.10.1 gives (65,536 and 57,344 bytes on the wheel): where a default peak differs
/// from Aidge's (tests/parity/onnx_diff.py's families), the order inside a scheduler
/// pass does, never the driver.
#[test]
fn conv1d_stem_encoders_have_aidges_default_peak() {
    for (name, peak) in [("conv1d_stem", 65536), ("whisper_tiny", 57344)] {
        let bytes = family(name);
        assert_eq!(
            default_peak(&format!("{name}.onnx"), &bytes),
            peak,
            "{name}"
        );
    }
}

/// Models Aidge 0.10.1 cannot run, found by their ONNX alone (each rule probed on the
/// wheel; tests/parity/onnx_diff.py checks on every model of the corpus and the
/// families that the CLI then says so first): an Expand whose shape, or a Resize whose
/// Sizes, is not a Shape-like int64 output (set_datatype(float32) makes it float and
/// Aidge's forward_dims refuses it). The nodes are sized from the model and the CLI's
/// first line labels the plan memplan's sizing, never Aidge's plan.
#[test]
fn models_aidge_cannot_run_are_labelled_so() {
    let dir = tempfile::tempdir().unwrap();
    let label = memplan::schedule::AIDGE_CANNOT;
    assert!(label.contains("memplan's sizing (Aidge cannot run this model)"));
    for (name, kind) in [("bart_encoder", "Expand"), ("deit", "Expand")] {
        let bytes = family(name);
        let doc = formats::load(&format!("{name}.onnx"), &bytes).unwrap();
        let s = doc.schedule.as_ref().unwrap();
        assert!(
            s.sized_by_model().iter().any(|n| n.kind == kind),
            "{name}: its {kind} is marked"
        );
        assert!(
            doc.warnings[0].contains(label),
            "{name}: {:?}",
            doc.warnings
        );
        let path = dir.path().join(format!("{name}.onnx"));
        std::fs::write(&path, &bytes).unwrap();
        let out = memplan()
            .args(["stats", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success());
        let first = String::from_utf8(out.stderr).unwrap();
        let first = first.lines().next().unwrap_or("");
        assert!(
            first.contains(label) && first.contains(kind),
            "{name}: {first}"
        );
    }
    // A model Aidge runs has no such note.
    let doc = formats::load("token_batchnorm.onnx", &family("token_batchnorm")).unwrap();
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
}

/// A gzipped model of tests/data/onnx (`families/…`, `corpus/…`), gunzipped.
fn gunzipped(path: &str) -> Vec<u8> {
    use std::io::Read;
    let raw = std::fs::read(data(&format!("{path}.onnx.gz"))).unwrap();
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut bytes)
        .unwrap();
    bytes
}

/// Where Aidge 0.10.1 fails on a model, found by the rule it fails by (each probed on
/// the wheel; tests/parity/onnx_diff.py checks on every corpus and families model that
/// the CLI labels exactly the models Aidge cannot run, at no later stage than Aidge's):
/// - forward_dims reads a value input (Reshape's shape, Slice's bounds) that only a
///   Producer, Shape, Size or Range has written by then; any other operator's output
///   holds zeros: LeViT's Reshape to a Concat of a Gather of a Shape reads [0, 0, 0]
///   ("Reshape: output size (128) does not match input size (512)"), ShuffleNet-v2's
///   channel split slices up to Shape → Gather → Add → Div → Mul, read as 0 (an empty
///   Slice, then forward_dims returns false);
/// - the scheduler looks each kernel up by its inputs' and outputs' data types
///   (formats/onnx/kernels.rs, the wheel's registrar): T5's Add of a Cast to int64 and
///   a float32 Producer, DeBERTa-v2's Where whose condition, a bool initializer, became
///   float32 ("missing or invalid registrar key");
/// - aidge_onnx has no converter for the operator (formats/onnx/converters.rs, the
///   wheel's registry) and imports it as a GenericOperator: the IsNaN → Where that
///   torch's dynamo exporter writes after LLaMA's attention Softmax.
///
/// The CLI's first line and the page's notice say the stage and the node first, then
/// label the plan memplan's sizing.
#[test]
fn where_aidge_fails_is_said_first_stage_and_node() {
    use memplan::schedule::AidgeStage::{ForwardDims, Import, SchedulerKernel};
    let label = "memplan's sizing (Aidge cannot run this model)";
    for (path, stage, node, kind) in [
        (
            "families/levit",
            ForwardDims,
            "m_patch_embeddings_Reshape",
            "Reshape",
        ),
        (
            "families/segformer",
            ForwardDims,
            "m_stages_0_patch_embeddings_Reshape",
            "Reshape",
        ),
        (
            "corpus/shufflenet_v2_x1_0",
            ForwardDims,
            "stage2_stage2_1_Slice",
            "Slice",
        ),
        (
            "families/t5_encoder",
            SchedulerKernel,
            "m_encoder_block_0_layer_0_SelfAttention_Add",
            "Add",
        ),
        (
            "families/deberta_v2",
            SchedulerKernel,
            "m_encoder_layer_0_attention_self_Where",
            "Where",
        ),
        (
            "families/bart_encoder",
            ForwardDims,
            "m_embed_positions_Expand",
            "Expand",
        ),
        ("families/opt", Import, "m_decoder_CumSum", "CumSum"),
        ("families/dynamo/llama", Import, "node_IsNaN_220", "IsNaN"),
    ] {
        let bytes = gunzipped(path);
        let doc = formats::load("m.onnx", &bytes).unwrap();
        let fails = doc.schedule.as_ref().unwrap().aidge_fails.clone();
        let fails = fails.unwrap_or_else(|| panic!("{path}: Aidge's failure not found"));
        assert_eq!(
            (fails.stage, fails.node.as_str(), fails.kind.as_str()),
            (stage, node, kind),
            "{path}: {}",
            fails.why
        );
        let first = &doc.warnings[0];
        let said = format!(
            "Aidge 0.10.1 cannot run this model: {} fails at node '{node}' ({kind})",
            stage.words()
        );
        assert!(first.starts_with(&said), "{path}: {first}");
        assert!(first.contains(label), "{path}: {first}");
        // Kept through memplan JSON (what the page opens after its ONNX worker).
        let json = formats::memplan_json::write(&doc);
        let again = formats::load("m.memplan.json", json.as_bytes()).unwrap();
        assert_eq!(again.warnings[0], *first, "{path}");
    }
    // Where the cause is values Aidge reads as zeros, the node says which it reads.
    let doc = formats::load("levit.onnx", &gunzipped("families/levit")).unwrap();
    let why = doc.schedule.unwrap().aidge_fails.unwrap().why;
    assert!(
        why.contains("(Concat)") && why.contains("[0, 0, 0]"),
        "{why}"
    );
    // Models Aidge runs, the same kinds of nodes among them: no failure, no label.
    for path in [
        "families/whisper_tiny",
        "families/poolformer",
        "families/dynamo/levit",
        "corpus/mnasnet1_0",
    ] {
        let doc = formats::load("m.onnx", &gunzipped(path)).unwrap();
        assert_eq!(doc.schedule.unwrap().aidge_fails, None, "{path}");
        assert!(doc.warnings.is_empty(), "{path}: {:?}", doc.warnings);
    }
}

/// Aidge's scheduler takes a node among its consumers when a parent ran: a Shape (it
/// reads only dims, no data input in the schedule) runs in the pass after its input's
/// node, as aidge_core 0.10.1's SequentialScheduler orders PoolFormer (probed on the
/// wheel: each block's Shape right after the Conv or Add it reads), never all at the
/// start of the schedule.
#[test]
fn shape_nodes_run_after_the_node_they_read() {
    let doc = formats::load("poolformer.onnx", &family("poolformer")).unwrap();
    let s = doc.schedule.unwrap();
    let at = |name: &str| s.nodes.iter().position(|n| n.name == name).unwrap();
    for (shape, reads) in [
        (
            "m_encoder_block_0_0_before_norm_Shape_output_0",
            "m_encoder_patch_embeddings_0_projection_Conv",
        ),
        (
            "m_encoder_block_0_0_after_norm_Shape_output_0",
            "m_encoder_block_0_0_Add",
        ),
        (
            "m_encoder_block_1_0_before_norm_Shape_output_0",
            "m_encoder_patch_embeddings_1_projection_Conv",
        ),
    ] {
        assert!(at(shape) > at(reads), "{shape} runs before {reads}");
    }
    let first = s.nodes.iter().position(|n| !n.producer).unwrap();
    assert_eq!(
        s.nodes[first + 1].kind,
        "Reshape",
        "one Shape at most beside it"
    );
}

/// aidge_onnx's name of a node of the shapes file: its ONNX name (else its first
/// output's) with `/`, `.` and `:` made `_`, one leading `_` dropped and a leading
/// digit prefixed, as formats/onnx/graph.rs gives it; `_token_K` after the K-th repeat.
fn aidge_names(
    node: &serde_json::Value,
    seen: &mut std::collections::HashMap<String, usize>,
) -> Vec<String> {
    let tr = |s: &str, digit: &str| {
        let mut t: String = s
            .chars()
            .map(|c| if matches!(c, '/' | '.' | ':') { '_' } else { c })
            .collect();
        if t.starts_with('_') {
            t.remove(0);
        }
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            t.insert_str(0, digit);
        }
        t
    };
    let first = node["outputs"][0]["name"].as_str().unwrap_or("");
    let by_output = tr(first, "data_");
    let name = node["name"].as_str().unwrap_or("");
    let base = if name.is_empty() {
        by_output.clone()
    } else {
        let t = tr(name, "");
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            format!("layer_{t}")
        } else {
            t
        }
    };
    let k = seen.entry(base.clone()).or_insert(0);
    let named = if *k == 0 {
        base
    } else {
        format!("{base}_token_{k}")
    };
    *k += 1;
    vec![named, by_output]
}

/// Models whose graph holds onnxruntime's contrib operators (com.microsoft Attention,
/// EmbedLayerNormalization, SkipLayerNormalization, BiasGelu, FastGelu, FusedMatMul,
/// MultiHeadAttention, RotaryEmbedding, ..., and SimplifiedLayerNormalization of the
/// ONNX domain), as onnxruntime 1.32's transformer optimizer writes them, without a
/// value_info for them (tests/data/onnx/contrib, tests/parity/onnx_contrib.py): memplan
/// opens them, every node's outputs of the dims and bytes onnxruntime gives them when it
/// runs the model (its `*.shapes.json`), and labels each a model Aidge cannot run:
/// aidge_onnx 0.10.1 imports every contrib node as a GenericOperator (probed on the
/// wheel), the first one in the file named.
#[test]
fn contrib_operators_open_with_onnxruntimes_shapes() {
    use memplan::schedule::AidgeStage::Import;
    for (name, first) in [
        ("bert", "EmbedLayerNormalization_0"),
        (
            "t5_encoder",
            "m_encoder_block_0_layer_0_layer_norm_Mul_1_SimplifiedLayerNormFusion_",
        ),
        (
            "distilbert_embeds",
            "m_transformer_layer_0_attention_MatMul_MatMulScaleFusion_",
        ),
        ("single_ops", "Attention_0"),
    ] {
        let bytes = gunzipped(&format!("contrib/{name}"));
        let truth: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(data(&format!("contrib/{name}.shapes.json"))).unwrap(),
        )
        .unwrap();
        let dims: Vec<(String, u64)> = truth["dims"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
            .collect();
        let s = formats::onnx::read(&bytes, &dims).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut seen = std::collections::HashMap::new();
        let (mut wrong, mut contrib) = (Vec::new(), 0);
        for n in truth["nodes"].as_array().unwrap() {
            if n["op_type"] == "Constant" {
                continue;
            }
            let names = aidge_names(n, &mut seen);
            let ours = s
                .nodes
                .iter()
                .find(|m| names.contains(&m.name))
                .unwrap_or_else(|| panic!("{name}: no node {names:?}"));
            let standard = matches!(n["domain"].as_str(), Some("" | "ai.onnx"));
            contrib += usize::from(ours.sized_by_model && !standard);
            for (i, o) in n["outputs"].as_array().unwrap().iter().enumerate() {
                if o.is_null() || (standard && i >= ours.outputs.len()) {
                    continue;
                }
                let want: Vec<u64> = serde_json::from_value(o["dims"].clone()).unwrap();
                // A standard node's element type is Aidge's (set_datatype(float32) makes
                // int64 values float32 but for Shape-like outputs: onnx_diff.py checks
                // them on the wheel); a contrib node's is onnxruntime's.
                let eb = o["element_bytes"].as_u64().unwrap();
                let eb = ours
                    .outputs
                    .get(i)
                    .filter(|_| standard)
                    .map_or(eb, |x| x.element_bytes);
                let bytes = want.iter().product::<u64>() * eb;
                let got = ours.outputs.get(i).map(|x| (x.dims.clone(), x.bytes));
                if got != Some((want.clone(), bytes)) {
                    wrong.push(format!(
                        "{} #{i}: {got:?}, onnxruntime {want:?} {bytes}",
                        ours.name
                    ));
                }
            }
        }
        assert!(wrong.is_empty(), "{name}: {wrong:#?}");
        assert!(contrib > 0, "{name}");
        let fails = s.aidge_fails.clone().expect(name);
        assert_eq!(
            (fails.stage, fails.node.as_str()),
            (Import, first),
            "{name}"
        );
        let note = s.sized_by_model_note().unwrap();
        assert!(
            note.contains(memplan::schedule::AIDGE_CANNOT),
            "{name}: {note}"
        );
    }
    // A contrib operator memplan has no rule for, without a shape in the file: refused,
    // naming the node (its op type, NodeProto field 4, renamed in place: protobuf
    // strings are length-prefixed).
    let bytes = gunzipped("contrib/single_ops");
    let at = bytes
        .windows(11)
        .position(|w| w == b"\x22\x09QuickGelu")
        .unwrap();
    let mut renamed = bytes.clone();
    renamed[at + 2..at + 11].copy_from_slice(b"QuickGelX");
    let e = formats::onnx::read(&renamed, &[]).unwrap_err().to_string();
    assert!(
        e.contains("(op type QuickGelX, domain com.microsoft)")
            && e.contains("com.microsoft Attention, BiasAdd")
            && e.contains("no static shape"),
        "{e}"
    );
}
