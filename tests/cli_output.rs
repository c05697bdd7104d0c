//! The format of the file `memplan plan` and `memplan convert` write: the output's
//! name picks it (or `--format`), by one rule for both commands; a name no writer
//! matches is refused before anything is planned or written.

use predicates::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

include!("support/cli.rs");

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

/// MiniMalloc CSV rows `(id, lower, upper, size, offset)`, read here, not by memplan.
fn rows(text: &str) -> Vec<(String, u64, u64, u64, Option<u64>)> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..4], ["id", "lower", "upper", "size"], "{text}");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let n = |i: usize| f[i].trim().parse::<u64>().unwrap();
            (f[0].to_owned(), n(1), n(2), n(3), f.get(4).map(|_| n(4)))
        })
        .collect()
}

/// `plan x.csv -o out.csv` writes the CSV of the plan (it wrote memplan JSON into
/// the .csv before): the same buffers as the input, each at an offset where no other
/// buffer live at the same time overlaps it (checked here pair by pair), reaching
/// the peak of the same plan written as JSON.
#[test]
fn plan_writes_the_format_its_output_name_asks_for() {
    let dir = scratch();
    let input = data("bench/minimalloc/C.1048576.csv");
    let (csv, json) = (dir.path().join("c.csv"), dir.path().join("c.json"));
    for out in [&csv, &json] {
        memplan()
            .arg("plan")
            .arg(&input)
            .args(["--strategy", "greedy-size", "-o"])
            .arg(out)
            .assert()
            .success();
    }
    let written = std::fs::read_to_string(&csv).unwrap();
    assert!(!written.trim_start().starts_with('{'), "JSON in a .csv");
    let placed = rows(&written);
    let given = rows(&std::fs::read_to_string(&input).unwrap());
    let strip = |r: &[(String, u64, u64, u64, Option<u64>)]| {
        let mut v: Vec<_> = r
            .iter()
            .map(|(i, l, u, s, _)| (i.clone(), *l, *u, *s))
            .collect();
        v.sort();
        v
    };
    assert_eq!(strip(&placed), strip(&given));
    let mut top = 0;
    for (i, a) in placed.iter().enumerate() {
        let oa = a.4.expect("every buffer has its offset");
        top = top.max(oa + a.3);
        for b in &placed[i + 1..] {
            let ob = b.4.unwrap();
            let live_together = a.1 < b.2 && b.1 < a.2;
            let share_bytes = oa < ob + b.3 && ob < oa + a.3;
            assert!(!(live_together && share_bytes), "{a:?} overlaps {b:?}");
        }
    }
    assert_eq!(top, peak(&json));
    // The JSON output is still memplan JSON.
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["format"], "memplan");
}

/// An Aidge export planned into a `.txt` is Aidge's text log, which reads back with
/// the same peak; `--format` wins over the name; stdout stays memplan JSON.
#[test]
fn plan_writes_an_aidge_log_and_takes_format_over_the_name() {
    let dir = scratch();
    let input = data("aidge/resnet18-multi-None.json");
    let log = dir.path().join("resnet18.memory_info.txt");
    memplan()
        .arg("plan")
        .arg(&input)
        .arg("-o")
        .arg(&log)
        .assert()
        .success();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("[MEM_0]"), "{text}");
    assert_eq!(peak(&log), peak(&input));

    let forced = dir.path().join("forced.out");
    memplan()
        .arg("plan")
        .arg(&input)
        .args(["--format", "csv", "-o"])
        .arg(&forced)
        .assert()
        .success();
    let placed = rows(&std::fs::read_to_string(&forced).unwrap());
    assert!(!placed.is_empty());

    let out = memplan()
        .arg("plan")
        .arg(&input)
        .args(["-o", "-"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "memplan");
}

/// A name no writer matches is refused by both commands with the same message,
/// naming the file and the endings there are; nothing is written.
#[test]
fn an_output_name_no_writer_matches_is_refused() {
    let dir = scratch();
    let input = data("aidge/resnet18-multi-None.json");
    for command in ["plan", "convert"] {
        let out = dir.path().join(format!("{command}.bin"));
        memplan()
            .arg(command)
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{}: cannot tell the output format from the name",
                out.display()
            )))
            .stderr(predicate::str::contains(".csv"))
            .stderr(predicate::str::contains("--format"));
        assert!(!out.exists(), "{command} wrote {}", out.display());
    }
}
