//! `memplan plan` on Aidge exports, which hold both a schedule and Aidge's plan for
//! it: which of the two is planned (`--from`), and the time budget (`--budget`).

use predicates::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

include!("support/cli.rs");

/// An export made by real aidge_core 0.10.1: schedule + Aidge's plan of `combo`.
fn export(combo: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/aidge")
        .join(format!("{combo}.json"))
}

fn read_plan(path: &Path) -> Value {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["plan"].clone()
}

/// Every plane's (node, index, absolute offset, size): what a plan places where.
fn placement(plan: &Value) -> Vec<(u64, u64, u64, u64)> {
    plan["planes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let n = |k: &str| p[k].as_u64().unwrap();
            (n("node"), n("index"), n("cont_offset"), n("size"))
        })
        .collect()
}

fn plan(file: &Path, out: &Path, args: &[&str]) {
    memplan()
        .arg("plan")
        .arg(file)
        .args(args)
        .arg("-o")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn plan_keeps_the_files_own_plan_by_default_as_stats_and_the_page_read_it() {
    let dir = scratch();
    // Aidge's auto-concat plan differs from the default driver's (multiple_mems).
    let file = export("resnet18-autoconcat-None");
    let given = read_plan(&file);
    let out = dir.path().join("default.json");
    plan(&file, &out, &[]);
    assert_eq!(placement(&read_plan(&out)), placement(&given));
    assert_eq!(peak(&out), peak(&file));

    let from_schedule = dir.path().join("schedule.json");
    plan(&file, &from_schedule, &["--from", "schedule"]);
    assert_ne!(
        placement(&read_plan(&from_schedule)),
        placement(&given),
        "--from schedule runs the default driver, not auto-concat"
    );
    let multi = dir.path().join("multi.json");
    plan(&file, &multi, &["--driver", "multiple-mems"]);
    assert_eq!(
        placement(&read_plan(&from_schedule)),
        placement(&read_plan(&multi))
    );
}

#[test]
fn a_strategy_re_places_the_files_plan_not_a_new_one() {
    let dir = scratch();
    // Re-placing Aidge's optimized plan keeps its spaces: every plane keeps its
    // size and its offset inside its space; only spaces move, never upwards in peak.
    // (`best` may instead return another Aidge configuration's plan of the same
    // schedule when it is lower: tests/strategies_aidge.rs; never above the file's.)
    let file = export("mobilenet_v2-single-OptimizeMaxLifetimeMinSizeFirst");
    let given = read_plan(&file);
    let best = dir.path().join("best.json");
    plan(&file, &best, &["--strategy", "best", "--budget", "200"]);
    assert!(peak(&best) <= peak(&file));
    memplan().arg("check").arg(&best).assert().code(0);
    let out = dir.path().join("search.json");
    plan(&file, &out, &["--strategy", "search", "--budget", "200"]);
    let placed = read_plan(&out);
    assert_eq!(
        placed["planes"].as_array().unwrap().len(),
        given["planes"].as_array().unwrap().len()
    );
    for (a, b) in placed["planes"]
        .as_array()
        .unwrap()
        .iter()
        .zip(given["planes"].as_array().unwrap())
    {
        for key in [
            "node", "index", "space", "offset", "size", "stride", "length", "count",
        ] {
            assert_eq!(a[key], b[key], "{key}");
        }
    }
    assert!(peak(&out) <= peak(&file));
    memplan().arg("check").arg(&out).assert().code(0);
}

#[test]
fn driver_options_imply_the_schedule_and_contradict_from_plan() {
    let dir = scratch();
    let file = export("squeezenet1_1-single-None");
    let out = dir.path().join("contradiction.json");
    memplan()
        .arg("plan")
        .arg(&file)
        .args(["--from", "plan", "--wrap", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--wrap applies to schedules, not to --from plan",
        ));

    // A file without a schedule (Aidge's text log) cannot be planned from one.
    let plan_only = dir.path().join("memory_info.txt");
    memplan()
        .arg("convert")
        .arg(&file)
        .arg("-o")
        .arg(&plan_only)
        .assert()
        .success();
    memplan()
        .arg("plan")
        .arg(&plan_only)
        .args(["--from", "schedule", "-o"])
        .arg(dir.path().join("never.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no schedule to plan from"));
}

#[test]
fn the_output_keeps_the_schedule_so_records_stay_complete() {
    let dir = scratch();
    // Producers have no plane; their standalone records come from the schedule.
    let file = export("resnet18-multi-None");
    let out = dir.path().join("kept.json");
    plan(&file, &out, &["--strategy", "greedy-size"]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let given: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(v["schedule"], given["schedule"]);
    let records = memplan()
        .args(["convert", "--format", "mem-info", "-o", "-"])
        .arg(&out)
        .output()
        .unwrap();
    let records: Value = serde_json::from_slice(&records.stdout).unwrap();
    let nodes = given["schedule"]["nodes"].as_array().unwrap();
    let info = records["mem_info"].as_array().unwrap();
    assert_eq!(info.len(), nodes.len());
    for (node, entry) in nodes.iter().zip(info) {
        assert_eq!(
            entry["outputs"].as_array().unwrap().len(),
            node["outputs"].as_array().unwrap().len(),
            "{}",
            node["name"]
        );
    }
}

#[test]
fn budget_must_be_a_number_of_milliseconds() {
    let dir = scratch();
    memplan()
        .arg("plan")
        .arg(export("residual-single-None"))
        .args(["--strategy", "search", "--budget", "soon", "-o"])
        .arg(dir.path().join("x.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--budget"));
}

/// Aidge's auto-concat of a channels-last Concat writes a negative space size as
/// unsigned (the wheel's own plan, committed as it came): re-placing its spaces is
/// refused naming the space and what happened, while `best`, which also tries
/// Aidge's other configurations of the schedule, still gives a valid plan.
#[test]
fn a_space_of_negative_size_is_named_when_its_plan_cannot_be_re_placed() {
    let dir = scratch();
    let file = export("concat_nhwc-autoconcat-None");
    memplan()
        .args(["plan", file.to_str().unwrap(), "--strategy", "greedy-size"])
        .args(["-o", dir.path().join("negative.json").to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("space 0 cannot be re-placed"))
        .stderr(predicate::str::contains("negative size"))
        .stderr(predicate::str::contains("memplan check"));
    let out = dir.path().join("negative-best.json");
    plan(&file, &out, &["--strategy", "best"]);
    memplan()
        .args(["check", out.to_str().unwrap()])
        .assert()
        .success();
}

/// Re-planning an Aidge log says on stderr, as the page's report does, what the log
/// allowed and which command writes the schedule that allows more; the plan is no
/// larger than Aidge's.
#[test]
fn re_planning_a_wrap_log_says_what_only_the_schedule_allows() {
    let dir = scratch();
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bench/aidge/resnet18-single-wrap-None/memory_info.txt");
    let out = dir.path().join("wrap-log-best.json");
    let run = memplan()
        .arg("plan")
        .arg(&log)
        .args(["--strategy", "best", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("holds the plan, not the graph"), "{stderr}");
    assert!(
        stderr.contains("wrap-around kept as Aidge laid it out"),
        "{stderr}"
    );
    assert!(
        stderr.contains("exporter.export(scheduler, \"model.memplan.json\")"),
        "{stderr}"
    );
    assert!(peak(&out) <= peak(&log));
}
