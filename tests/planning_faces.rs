//! The faces of memplan give the same plan for the same file and strategy: the CLI
//! (`memplan plan`, run as a user runs it) and the request the page's worker,
//! `<memplan-view>` and Python build (`planning::Request::new` + `Session::plan`, the
//! code of `src/web/worker.rs`, `src/web/embed.rs` and `src/python.rs`). The e2e
//! twin, `tests/e2e/one_plan.test.mjs`, runs the real worker and element in chromium.

use assert_cmd::Command;
use memplan::formats;
use memplan::model::Plan;
use memplan::planning::{Request, Session};
use memplan::strategies::Budget;
use std::path::{Path, PathBuf};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// Documents of every kind: an Aidge export holding both Aidge's auto-concat plan
/// and its schedule (whose default driver gives another plan), Aidge's text log (a
/// plan only), a buffer list without offsets, and one with offsets.
const DOCUMENTS: &[&str] = &[
    "aidge/squeezenet1_1-autoconcat-None.json",
    "aidge/resnet18-multi-None.json",
    "bench/aidge/mobilenet_v2-single-wrap-None/memory_info.txt",
    "bench/minimalloc/example.12.csv",
    "formats/example.memplan.json",
    "vit/fused/memory_info.txt",
];

/// Strategies whose result does not depend on the time they are given.
const STRATEGIES: &[&str] = &["aidge", "greedy-size", "greedy-conflicts", "sweep"];

fn cli_plan(file: &Path, strategy: &str) -> Plan {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan.json");
    Command::cargo_bin("memplan")
        .unwrap()
        .arg("plan")
        .arg(file)
        .args(["--strategy", strategy, "-o"])
        .arg(&out)
        .assert()
        .success();
    let bytes = std::fs::read(&out).unwrap();
    formats::load("cli.json", &bytes).unwrap().plan.unwrap()
}

/// What `Planner::plan` (the worker) and `Viewer::open_with` (the element) run, with
/// the buffer list's capacity the page shows recorded in the plan (the report's
/// `capacity`, which `Chart::with_capacity` records), as the CLI writes it.
fn session_plan(file: &Path, strategy: &str) -> Plan {
    let bytes = std::fs::read(file).unwrap();
    let name = file.display().to_string();
    let request = Request::new(strategy, Budget::millis(300)).unwrap();
    let (mut plan, report) = Session::open(&name, &bytes)
        .unwrap()
        .plan(&request)
        .unwrap();
    if let Some(c) = report.capacity {
        plan.components[0].capacity = Some(c.parse().unwrap());
    }
    plan
}

#[test]
fn the_cli_and_the_page_plan_every_document_alike() {
    for doc in DOCUMENTS {
        let file = data(doc);
        assert!(file.exists(), "{doc} is missing");
        for strategy in STRATEGIES {
            let (cli, page) = (cli_plan(&file, strategy), session_plan(&file, strategy));
            assert!(
                cli == page,
                "{doc} with {strategy}: the CLI and the page differ"
            );
            assert!(memplan::check::check(&cli).is_valid(), "{doc} {strategy}");
        }
    }
}

#[test]
fn a_file_with_a_plan_and_a_schedule_is_planned_from_its_plan() {
    let file = data("aidge/squeezenet1_1-autoconcat-None.json");
    let bytes = std::fs::read(&file).unwrap();
    let doc = formats::load("x.json", &bytes).unwrap();
    let given = doc.plan.clone().unwrap();
    assert!(doc.schedule.is_some());
    assert_eq!(
        cli_plan(&file, "aidge"),
        given,
        "aidge keeps the file's plan"
    );
    // A strategy moves the file's spaces, so the planes keep their place in them.
    let moved = cli_plan(&file, "greedy-size");
    assert_eq!(moved.planes.len(), given.planes.len());
    assert_eq!(moved.spaces.len(), given.spaces.len());
    for (a, b) in given.planes.iter().zip(&moved.planes) {
        assert_eq!((a.space, a.offset, a.size), (b.space, b.offset, b.size));
    }
}
