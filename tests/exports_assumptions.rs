//! Issue #39, item 3: `best` may run the parallel branches in another order and wrap
//! outputs around their buffer; every export of such a plan says so, and the exports
//! whose forward pass runs Aidge's scheduler's order (aidge-export-cpp's layer macros,
//! aidge_core's mem_info records) refuse a plan that needs another order. `memplan
//! plan -o x.meminfo.h` keeps the order by itself. ShuffleNet-v2 x1.0 is the case
//! where best's other order wins (tests/strategies_orders.rs); a node budget decides.

use memplan::check::check;
use memplan::formats::{self, Document, Export};
use memplan::planning::{self, Request, Session, Source};

include!("support/planning.rs");
include!("support/cli.rs");

fn shufflenet() -> Session {
    let bytes = gunzip("onnx/corpus/shufflenet_v2_x1_0.onnx.gz");
    Session::open("shufflenet_v2_x1_0.onnx", &bytes).unwrap()
}

fn best(keep_order: bool) -> Request {
    let mut r = Request::new("best", nodes(2_000_000)).unwrap();
    r.from = Some(Source::Schedule);
    r.keep_order = keep_order;
    r
}

/// The plan with the schedule it runs, as `memplan plan -o` writes them.
fn written(session: &Session, plan: memplan::Plan) -> Document {
    Document {
        schedule: session.schedule().cloned(),
        ..Document::of_plan(plan)
    }
}

#[test]
fn a_plan_in_another_order_says_so_and_aidges_exports_refuse_it() {
    let mut s = shufflenet();
    let (plan, report) = s.plan(&best(false)).unwrap();
    assert!(report.order.is_some(), "best kept the order: {report:?}");
    assert!(plan.reordered);
    let doc = written(&s, plan);
    for export in [Export::ExportCpp, Export::MemInfo] {
        let e = planning::export(&doc, export).unwrap_err();
        assert!(e.message.contains("another order") && e.message.contains("--keep-order"));
    }
    let header = planning::export(&doc, Export::Header).unwrap();
    assert!(
        header.contains("The nodes must run in this order"),
        "{header}"
    );
    // The memplan JSON keeps the flag: read back, the plan still refuses.
    let json = planning::export(&doc, Export::Memplan).unwrap();
    let back = formats::load("x.json", json.as_bytes()).unwrap();
    assert!(back.plan.as_ref().unwrap().reordered);
    assert!(planning::export(&back, Export::ExportCpp).is_err());
}

#[test]
fn keeping_the_order_gives_a_plan_aidges_exports_take() {
    let mut s = shufflenet();
    let given = s.document().schedule.clone().unwrap();
    let (plan, report) = s.plan(&best(true)).unwrap();
    assert!(report.order.is_none());
    assert!(!plan.reordered);
    assert!(check(&plan).is_valid());
    // The plan runs the schedule's own order: its steps are the schedule's nodes.
    let names: Vec<&str> = plan.steps.iter().map(|t| t.name.as_str()).collect();
    let scheduled: Vec<&str> = given.nodes.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, scheduled);
    let macros = planning::export(&written(&s, plan), Export::ExportCpp).unwrap();
    assert!(!macros.contains("must run in this order"));
}

#[test]
fn the_cli_keeps_the_order_for_aidges_exports_and_refuses_a_reordered_file() {
    let dir = scratch();
    let model = dir.path().join("shufflenet_v2_x0_5.onnx");
    std::fs::write(&model, gunzip("onnx/corpus/shufflenet_v2_x1_0.onnx.gz")).unwrap();
    let macros = dir.path().join("shufflenet.meminfo.h");
    let out = memplan()
        .args(["plan", "--strategy", "best", "--budget", "500"])
        .arg(&model)
        .arg("-o")
        .arg(&macros)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("kept the schedule's order"), "{said}");
    // A plan written in another order (best's, by the library above) is refused by
    // `convert` to the macros, with what to run instead.
    let mut s = shufflenet();
    let (plan, _) = s.plan(&best(false)).unwrap();
    let file = dir.path().join("shufflenet.best.json");
    let json = planning::export(&written(&s, plan), Export::Memplan).unwrap();
    std::fs::write(&file, json).unwrap();
    let refused = memplan()
        .arg("convert")
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("refused.meminfo.h"))
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("--keep-order"), "{said}");
    // The JSON itself still opens and plans as it is.
    assert!(peak(&file) > 0);
}

#[test]
fn wrapped_outputs_are_said_in_the_exports_that_carry_them() {
    // Aidge's own wrap-around plan of MobileNet-v2 (generate_memory, wrap-around).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bench/aidge/mobilenet_v2-single-wrap-None/memory_info.txt");
    let doc = formats::load("memory_info.txt", &std::fs::read(path).unwrap()).unwrap();
    for export in [Export::ExportCpp, Export::Header] {
        let text = planning::export(&doc, export).unwrap();
        assert!(
            text.contains("wrap around the end of their buffer"),
            "{export:?}"
        );
    }
}
