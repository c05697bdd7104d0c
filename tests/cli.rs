//! The `memplan` command line as a user runs it: exit statuses, messages naming file
//! and place, and the peaks of the real Aidge plans.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn memplan() -> Command {
    Command::cargo_bin("memplan").unwrap()
}

/// The reference bench copied into the repository (tests/data/bench/README.md).
fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench")
}

/// `content` written to `name` in `dir` (the test's `tempfile::tempdir()`, removed with it).
fn temp(dir: &Path, name: &str, content: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn stats_json_gives_golden_peaks_for_every_real_plan() {
    let bench = bench();
    let golden = std::fs::read_to_string(bench.join("aidge/golden.log")).unwrap();
    let mut seen = 0;
    for line in golden.lines() {
        let Some((name, rest)) = line.split_once(": peak=") else {
            continue;
        };
        let peak: u64 = rest.split_whitespace().next().unwrap().parse().unwrap();
        for file in ["memory_info.txt", "planes.json"] {
            let out = memplan()
                .arg("stats")
                .arg("--json")
                .arg(bench.join("aidge").join(name).join(file))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{name}/{file}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["peak"], peak, "{name}/{file}");
            assert!(v["lower_bound"].as_u64().unwrap() <= peak);
            assert!(v["planes"].as_u64().unwrap() > 0 && v["steps"].as_u64().unwrap() > 0);
        }
        seen += 1;
    }
    assert_eq!(seen, 28);
}

#[test]
fn check_exit_statuses() {
    let dir = tempfile::tempdir().unwrap();
    let bench = bench();
    memplan()
        .arg("check")
        .arg(bench.join("aidge/efficientnet_b0-single-wrap-None/memory_info.txt"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("valid"));
    let bad = temp(
        dir.path(),
        "overlap.csv",
        "id,lower,upper,size,offset\na,0,2,8,0\nb,1,3,8,4\n",
    );
    memplan()
        .arg("check")
        .arg(&bad)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("overlap.csv: plane overlap: plane 0 (a) (space 0) and plane 1 (b) (space 1) share bytes [4, 8) at clocks 1..=1"));
    let broken = temp(
        dir.path(),
        "broken.txt",
        "conv:\n  0 0 (0x00000000U) -> 16 (0x00000010U) [16] @ zero\n",
    );
    memplan()
        .arg("check")
        .arg(&broken)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::is_match(r"^memplan: .*broken\.txt: line 2, column 48: expected a clock \(a whole number\)\n$").unwrap());
}

#[test]
fn unreadable_inputs_exit_2_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 5] = [
        ("empty.json", b"", "empty file"),
        ("garbage.bin", &[0x00, 0xff, 0x13, 0x37], "not a text file"),
        ("trunc.json", b"{\"format\":\"memplan\",\"version\":1,\"plan\":{\"steps\":[", "line 1, column 49"),
        ("neg.json", b"{\"format\":\"memplan\",\"version\":1,\"buffers\":{\"buffers\":[{\"id\":\"a\",\"lower\":0,\"upper\":1,\"size\":-1}]}}", "$.buffers.buffers[0].size"),
        ("v9.json", b"{\"format\":\"memplan\",\"version\":9}", "version 9"),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        memplan()
            .arg("stats")
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(format!(
                "memplan: {}: ",
                path.display()
            )))
            .stderr(predicate::str::contains(expected))
            .stderr(predicate::str::contains("internal error").not());
    }
    memplan()
        .args(["stats", "/nonexistent/x.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
    memplan().args(["frobnicate"]).assert().code(2);
}

#[test]
fn convert_round_trips_and_picks_formats_by_extension() {
    let dir = tempfile::tempdir().unwrap();
    let bench = bench();
    let log = bench.join("aidge/mobilenet_v2-single-wrap-None/memory_info.txt");
    let original = std::fs::read_to_string(&log).unwrap();
    memplan()
        .arg("convert")
        .arg(&log)
        .args(["-o", "-", "--format", "aidge-single"])
        .assert()
        .code(0)
        .stdout(original.clone());
    // Through memplan JSON and back: the log keeps every byte.
    let json = temp(dir.path(), "m.json", "");
    memplan()
        .arg("convert")
        .arg(&log)
        .arg("-o")
        .arg(&json)
        .assert()
        .code(0);
    memplan()
        .arg("convert")
        .arg(&json)
        .args(["-o", "-", "--format", "aidge-single"])
        .assert()
        .code(0)
        .stdout(original);
    let out = memplan()
        .arg("convert")
        .arg(&log)
        .args(["-o", "-", "--format", "header"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("#define MEMORY_SIZE 6754560\n"));
    // A buffer list stays a buffer list through CSV.
    let csv = bench.join("minimalloc/example.12.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    memplan()
        .arg("convert")
        .arg(&csv)
        .args(["-o", "-", "--format", "csv"])
        .assert()
        .code(0)
        .stdout(text);
    memplan()
        .arg("convert")
        .arg(&csv)
        .args(["-o", "out.xyz"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("out.xyz"));
}

/// A placed CSV whose ids are not its row numbers (IOPDDL's sets list them out of
/// order) keeps its ids through `convert --format csv`: from the list itself, and
/// from the plan `memplan plan` makes of it (which keeps the offsets; the ids are
/// then only the planes' labels). Each buffer comes back with its own id and offset,
/// even where an id is another row's number.
#[test]
fn convert_to_csv_keeps_the_buffers_ids() {
    let dir = tempfile::tempdir().unwrap();
    let text = "id,lower,upper,size,offset\n3,0,2,8,0\n1,1,3,4,8\n0,2,4,8,12\nb,0,4,2,20\n";
    let csv = temp(dir.path(), "ids.csv", text);
    let plan = temp(dir.path(), "ids.plan.json", "");
    memplan()
        .arg("plan")
        .arg(&csv)
        .arg("-o")
        .arg(&plan)
        .assert()
        .code(0);
    for input in [&csv, &plan] {
        memplan()
            .arg("convert")
            .arg(input)
            .args(["-o", "-", "--format", "csv"])
            .assert()
            .code(0)
            .stdout(text);
    }
}

/// Aidge's auto-concat on Inception blocks (4-input Concats) wraps some plane sizes
/// below zero in `size_t` and prints their ends past 2^64; this log was written by the
/// real wheel (tests/parity/wrapped_log_diff.py, which also found the peak 4224 and the
/// five broken planes in Aidge's own plan).
#[test]
fn a_log_with_ends_past_2_64_opens_and_check_names_its_broken_planes() {
    let dir = tempfile::tempdir().unwrap();
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/formats/inception-autoconcat.memory_info.txt");
    let original = std::fs::read_to_string(&log).unwrap();
    assert!(original.contains("-> 18446744073709552384 (0x10000000000000300U)"));
    let out = memplan()
        .arg("stats")
        .arg(&log)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["peak"], 4224);
    assert_eq!(stats["planes"], 18);
    let out = memplan().arg("check").arg(&log).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    let mut broken: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("leaves space"))
        .filter_map(|l| l.split_once(" (")?.1.split_once(")"))
        .map(|(name, _)| name)
        .collect();
    broken.sort_unstable();
    assert_eq!(
        broken,
        [
            "i3a_b3b#0",
            "i3a_b4#0",
            "i3b_b2b#0",
            "i3b_b3b#0",
            "i3b_b4#0"
        ]
    );
    assert!(report.contains(
        "plane 13 (i3b_b2b#0): wrapped part [1792, 18446744073709552384) leaves space 5 [1792, 3072)"
    ));
    // The text and memplan JSON keep every byte: convert back gives Aidge's file.
    memplan()
        .arg("convert")
        .arg(&log)
        .args(["-o", "-", "--format", "aidge-single"])
        .assert()
        .code(0)
        .stdout(original.clone());
    let json = temp(dir.path(), "wrapped.json", "");
    memplan()
        .arg("convert")
        .arg(&log)
        .arg("-o")
        .arg(&json)
        .assert()
        .code(0);
    memplan()
        .arg("convert")
        .arg(&json)
        .args(["-o", "-", "--format", "aidge-single"])
        .assert()
        .code(0)
        .stdout(original);
}

#[test]
fn plan_places_a_buffer_list_validly() {
    let dir = tempfile::tempdir().unwrap();
    let bench = bench();
    let out = temp(dir.path(), "placed.json", "");
    memplan()
        .arg("plan")
        .arg(bench.join("models/resnet18.buffers.csv"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(0);
    memplan().arg("check").arg(&out).assert().code(0);
}

/// `memplan plan` on the schedules Aidge exported (tests/data/aidge, DRIVERS'
/// exports) gives golden.log's peak with the options the name encodes, and a plan
/// that checks clean. Wrap-around configurations are left to the drivers' own
/// parity test (not all exact yet).
#[test]
fn plan_reproduces_aidge_peaks_from_schedules() {
    let dir = tempfile::tempdir().unwrap();
    let bench = bench();
    let golden = std::fs::read_to_string(bench.join("aidge/golden.log")).unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/aidge");
    for line in golden
        .lines()
        .filter(|l| l.starts_with("resnet18") || l.starts_with("squeezenet1_1"))
    {
        let Some((name, rest)) = line.split_once(": peak=") else {
            continue;
        };
        if name.contains("-wrap-") {
            continue;
        }
        let peak: u64 = rest.split_whitespace().next().unwrap().parse().unwrap();
        let parts: Vec<&str> = name.split('-').collect();
        let driver = match parts[1] {
            "multi" => "multiple-mems",
            "single" => "memory",
            _ => "auto-concat",
        };
        let out = temp(dir.path(), &format!("{name}.plan.json"), "");
        memplan()
            .arg("plan")
            .arg(data.join(format!("{name}.json")))
            .args(["--driver", driver, "--optimize", parts[2], "-o"])
            .arg(&out)
            .assert()
            .code(0);
        let stats = memplan()
            .arg("stats")
            .arg("--json")
            .arg(&out)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
        assert_eq!(v["peak"], peak, "{name}");
        memplan().arg("check").arg(&out).assert().code(0);
    }
}

#[test]
fn plan_with_a_strategy_replaces_spaces_validly() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/aidge/resnet18-single-OptimizeMaxLifetimeMaxSizeFirst.json");
    let out = temp(dir.path(), "replanned.json", "");
    memplan()
        .arg("plan")
        .arg(&data)
        .args([
            "--driver",
            "memory",
            "--optimize",
            "OptimizeMaxLifetimeMaxSizeFirst",
        ])
        .args(["--strategy", "greedy-size", "-o"])
        .arg(&out)
        .assert()
        .code(0);
    memplan().arg("check").arg(&out).assert().code(0);
    let stats = memplan()
        .arg("stats")
        .arg("--json")
        .arg(&out)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    // Aidge's optimize reaches 4,816,896 here; whole spaces re-placed reach the bound.
    assert!(v["peak"].as_u64().unwrap() < 4816896, "{v}");
    memplan()
        .arg("plan")
        .arg(&data)
        .args(["--strategy", "nope", "-o", "-"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("invalid value 'nope' for '--strategy")
                .and(predicate::str::contains("as-loaded, greedy-size")),
        );
}

/// `memplan plan` gives multiple-mems the memory components the export records
/// (here a 20,000-byte bank that overflows into a 1e9-byte one), so the file
/// re-plans to Aidge's own plan; `--capacities`/`--priorities` override them.
#[test]
fn plan_honours_recorded_components_and_the_component_flags() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/aidge/components/resnet18-small-first.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&data).unwrap()).unwrap();
    let plan_of = |args: &[&str]| -> serde_json::Value {
        let out = temp(
            dir.path(),
            &format!("components-{}.json", args.join("_")),
            "",
        );
        memplan()
            .arg("plan")
            .arg(&data)
            .args(args)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(0);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        v["plan"].clone()
    };
    let components_of = |plan: &serde_json::Value| -> Vec<u64> {
        let spaces = plan["spaces"].as_array().unwrap();
        spaces
            .iter()
            .map(|s| s["component"].as_u64().unwrap())
            .collect()
    };
    let recorded = plan_of(&[]);
    assert_eq!(recorded["spaces"], doc["plan"]["spaces"]);
    assert_eq!(recorded["planes"], doc["plan"]["planes"]);
    assert!(
        components_of(&recorded).contains(&1),
        "the second bank is used"
    );
    let flags = plan_of(&["--capacities", "20000,1000000000", "--priorities", "0,1"]);
    assert_eq!(flags["spaces"], doc["plan"]["spaces"]);
    let one = plan_of(&["--capacities", "1000000000"]);
    assert!(components_of(&one).iter().all(|&c| c == 0));
    assert_eq!(one["components"].as_array().unwrap().len(), 1);
    // Swapping the priorities fills the large bank first.
    let swapped = plan_of(&["--capacities", "20000,1000000000", "--priorities", "1,0"]);
    assert!(components_of(&swapped).iter().all(|&c| c == 1));
    for (args, message) in [
        (
            &["--priorities", "0,1"][..],
            "--priorities needs --capacities",
        ),
        (
            &["--capacities", "1,2", "--priorities", "0"],
            "1 values for 2 --capacities",
        ),
        (
            &["--driver", "memory", "--capacities", "9"],
            "apply to the multiple-mems driver",
        ),
        (
            &["--capacities", "100"],
            "Unable to allocate memory of size",
        ),
    ] {
        memplan()
            .arg("plan")
            .arg(&data)
            .args(args)
            .args(["-o", "-"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn output_into_a_closed_pipe_ends_quietly_as_head_expects() {
    // `memplan stats big.csv | head -1`: the reader is gone before memplan prints
    // (it is closed at once, while memplan still reads and places 18,692 buffers).
    let csv = bench().join("idealloc/somas_pangu_2.6B.csv");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("memplan"))
        .arg("stats")
        .arg(&csv)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.is_empty(),
        "a closed pipe is neither a bug nor an error: {stderr}"
    );
}

/// Issue #39, item 8: `memplan stats` says what the file's format calls things: TFLM's
/// arena head, buffers and operators, XLA's values and instructions; Aidge's peak,
/// planes, spaces and steps only for Aidge's plans.
#[test]
fn stats_speak_the_words_of_the_files_format() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let stats = |file: &str| {
        let out = memplan()
            .arg("stats")
            .arg(data.join(file))
            .output()
            .unwrap();
        assert!(out.status.success(), "{file}");
        String::from_utf8(out.stdout).unwrap()
    };
    let aidge_only = ["planes:", "spaces:", "steps:", "space "];
    let tflm = stats("tflm/dag6.tflite");
    let head = tflm.lines().find(|l| l.starts_with("arena head:"));
    assert!(head.is_some_and(|l| l.ends_with(" 101376 bytes")), "{tflm}");
    assert!(
        tflm.contains("buffers:") && tflm.contains("operators:"),
        "{tflm}"
    );
    for w in aidge_only {
        assert!(!tflm.contains(w), "`{w}` in TFLM's stats:\n{tflm}");
    }
    let xla = stats("xla/cnn.cpu_after_optimizations-buffer-assignment.txt");
    assert!(
        xla.contains("values:") && xla.contains("instructions:"),
        "{xla}"
    );
    for w in ["planes:", "steps:"] {
        assert!(!xla.contains(w), "`{w}` in XLA's stats:\n{xla}");
    }
    let aidge = stats("aidge/resnet18-multi-None.json");
    for w in ["peak:", "planes:", "spaces:", "steps:"] {
        assert!(aidge.contains(w), "`{w}` not in Aidge's stats:\n{aidge}");
    }
}

/// Models travel gzipped: every command opens `model.onnx.gz` as it opens the model
/// (formats::load inflates it), and a cut-short one is an error naming the file.
#[test]
fn every_command_opens_a_gzipped_model() {
    let dir = tempfile::tempdir().unwrap();
    let gz = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/onnx/corpus/alexnet.onnx.gz");
    let zipped = std::fs::read(&gz).unwrap();
    let mut raw = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&zipped[..]), &mut raw).unwrap();
    let plain = dir.path().join("alexnet.onnx");
    std::fs::write(&plain, &raw).unwrap();
    let stats = |file: &Path| {
        let out = memplan()
            .args(["stats", "--json"])
            .arg(file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v["peak"].as_u64().unwrap(), v["format"].clone())
    };
    assert_eq!(stats(&gz), stats(&plain));
    memplan().arg("check").arg(&gz).assert().success();
    let out = dir.path().join("alexnet.json");
    memplan()
        .args(["plan", "--strategy", "greedy-size", "-o"])
        .arg(&out)
        .arg(&gz)
        .assert()
        .success();
    let csv = dir.path().join("alexnet.csv");
    memplan()
        .arg("convert")
        .arg(&gz)
        .arg("-o")
        .arg(&csv)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&csv).unwrap().lines().count() > 10);
    let cut = dir.path().join("cut.onnx.gz");
    std::fs::write(&cut, &zipped[..zipped.len() / 2]).unwrap();
    memplan()
        .arg("stats")
        .arg(&cut)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cut.onnx.gz").and(predicate::str::contains("gzip")));
}
