//! Issue #39, item 1: "lower bound" and "proven optimal" are true of every plan memplan
//! can make for the file, or named for what they are. A schedule's plan is one layout of
//! it; `best` tries other layouts (Aidge's other drivers, wrap-around, optimize, branch
//! orders) and can end below that layout's bound, so the bound is reported as the
//! layout's, and "proven optimal" needs the bound over every layout `best` made.

use memplan::formats;
use memplan::planning::{BoundScope, Request, Session};
use memplan::strategies::Strategy;

include!("support/cli.rs");
include!("support/planning.rs");

fn data(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

fn open(path: &str) -> Session {
    let bytes = match path.strip_suffix(".gz") {
        Some(_) => gunzip(path),
        None => std::fs::read(data(path)).unwrap(),
    };
    let name = path.trim_end_matches(".gz");
    Session::of(name, formats::load(name, &bytes).unwrap())
}

fn best() -> Request {
    Request {
        strategy: Some(Strategy::Best),
        budget: nodes(20_000),
        ..Request::default()
    }
}

/// SqueezeNet-1.1 as an ONNX model: a schedule, as Aidge 0.10.1 imports it.
const SQUEEZENET: &str = "bench/models/squeezenet1_1.onnx.gz";

fn squeezenet_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("squeezenet1_1.onnx");
    std::fs::write(&path, gunzip(SQUEEZENET)).unwrap();
    path
}

#[test]
fn a_schedules_bound_is_its_layouts_and_best_goes_under_it() {
    // SqueezeNet-1.1's schedule: Aidge's default layout is at its own bound, 3,928,576 B;
    // generate_memory with wrap-around and optimize needs 3,154,176 B.
    let mut s = open(SQUEEZENET);
    let (_, loaded) = s.as_loaded().unwrap();
    assert_eq!(loaded.bound_scope, BoundScope::Layout);
    assert!(loaded.at_bound, "{loaded:?}");
    assert!(
        !loaded.proven_optimal,
        "at its layout's bound is no proof: {loaded:?}"
    );
    let (_, b) = s.plan(&best()).unwrap();
    let peak: u64 = b.peak.parse().unwrap();
    let layout: u64 = loaded.lower_bound.parse().unwrap();
    assert!(
        peak < layout,
        "best {peak}, the loaded layout's bound {layout}"
    );
    // best made every layout it tries: their lowest bound is a true one.
    let all: u64 = b.layouts_bound.as_deref().unwrap().parse().unwrap();
    assert!(all <= peak, "bound over every layout {all} > best {peak}");
    assert_eq!(b.proven_optimal, all == peak);
}

#[test]
fn a_list_or_a_plan_without_schedule_has_a_true_lower_bound() {
    for path in [
        "bench/minimalloc/C.1048576.csv",
        "bench/aidge/resnet18-multi-None/memory_info.txt",
    ] {
        let mut s = open(path);
        let (_, loaded) = s.as_loaded().unwrap();
        assert_eq!(loaded.bound_scope, BoundScope::Placements, "{path}");
        let (_, b) = s.plan(&best()).unwrap();
        let bound: u64 = loaded.lower_bound.parse().unwrap();
        assert!(b.peak.parse::<u64>().unwrap() >= bound, "{path}");
        assert!(b.layouts_bound.is_none());
        assert_eq!(b.proven_optimal, b.at_bound, "{path}");
    }
}

#[test]
fn the_cli_names_the_bound_for_what_it_is() {
    let dir = scratch();
    let model = squeezenet_file(dir.path());
    let out = memplan().arg("stats").arg(&model).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("layout bound: 3928576 bytes"), "{text}");
    assert!(!text.contains("lower bound"), "{text}");
    let json = memplan()
        .args(["stats", "--json"])
        .arg(&model)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["bound_scope"], "layout");
    let csv = memplan()
        .args(["stats", "--json"])
        .arg(data("bench/minimalloc/C.1048576.csv"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&csv.stdout).unwrap();
    assert_eq!(v["bound_scope"], "placements");
    // The chart names it too.
    let svg = dir.path().join("squeezenet.svg");
    let status = memplan()
        .arg("render")
        .arg(&model)
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(status.status.success());
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("Layout bound = "), "no layout bound label");
    assert!(!drawn.contains("Lower bound = "));
    // The plan as loaded sits at that layout's bound.
    assert_eq!(peak(&model), 3_928_576);
}
