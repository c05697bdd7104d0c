//! The 28 real Aidge 0.10.1 plans in tests/data/bench/aidge: every `memory_info.txt`
//! imports with the peak of golden.log, checks clean, and writes back byte for byte;
//! every `planes.json` (the exact plan with its spaces) checks clean and agrees with
//! the log's planes.

use memplan::formats::{self, Format, LogDialect};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Aidge's logs and plans in the bench copied into the repository.
fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench/aidge")
}

/// golden.log: `NAME: peak=P steps=S T`.
fn golden(dir: &Path) -> HashMap<String, u64> {
    let text = std::fs::read_to_string(dir.join("golden.log")).unwrap();
    text.lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(": peak=")?;
            Some((
                name.to_string(),
                rest.split_whitespace().next()?.parse().ok()?,
            ))
        })
        .collect()
}

fn load(path: &Path) -> formats::Document {
    let bytes = std::fs::read(path).unwrap();
    formats::load(&path.display().to_string(), &bytes).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_real_log_imports_with_its_peak_checks_clean_and_round_trips() {
    let dir = bench();
    let golden = golden(&dir);
    assert_eq!(golden.len(), 28);
    for (name, peak) in &golden {
        let path = dir.join(name).join("memory_info.txt");
        let doc = load(&path);
        let Format::AidgeLog(dialect) = doc.format else {
            panic!("{name}: read as {}", doc.format)
        };
        let multi = name.contains("-multi-");
        assert_eq!(
            dialect,
            LogDialect::Python {
                multiple_mems: multi
            },
            "{name}"
        );
        let plan = memplan::planning::resolve(&doc).unwrap();
        assert_eq!(plan.peak(), *peak, "{name}: peak");
        let report = memplan::check::check(&plan);
        assert!(
            report.is_valid(),
            "{name}: {:#?}",
            &report.problems[..report.problems.len().min(5)]
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            formats::aidge_log::write(&plan, dialect) == text,
            "{name}: text differs after a round trip"
        );
    }
}

#[test]
fn every_real_planes_dump_checks_clean_and_matches_its_log() {
    let dir = bench();
    for (name, peak) in golden(&dir) {
        let doc = load(&dir.join(&name).join("planes.json"));
        assert_eq!(doc.format, Format::AidgePlanes);
        assert!(doc.warnings.is_empty(), "{name}: {:?}", doc.warnings);
        let exact = memplan::planning::resolve(&doc).unwrap();
        assert_eq!(exact.peak(), peak, "{name}");
        let report = memplan::check::check(&exact);
        assert!(
            report.is_valid(),
            "{name}: {:#?}",
            &report.problems[..report.problems.len().min(5)]
        );
        // The exact plan written as a log is Aidge's own log.
        let text = std::fs::read_to_string(dir.join(&name).join("memory_info.txt")).unwrap();
        let dialect = LogDialect::Python {
            multiple_mems: name.contains("-multi-"),
        };
        assert!(
            formats::aidge_log::write(&exact, dialect) == text,
            "{name}: log of planes.json differs"
        );
        // The log's rebuilt plan keeps every plane's bytes and lifetime.
        let rebuilt =
            memplan::planning::resolve(&load(&dir.join(&name).join("memory_info.txt"))).unwrap();
        assert_eq!(rebuilt.planes.len(), exact.planes.len());
        // Rebuilt spaces may split a real one (a wrap-around space whose planes'
        // hulls do not meet), never merge two: a plane of a split space has fewer
        // later planes in it, so it lives as long or longer, never shorter. Not so
        // for auto-concat: a log does not tell striped parts (which replace
        // nothing) from whole planes, so rebuilt parts replace each other
        // (docs/formats.md).
        let (ra, ea) = (rebuilt.plane_last_lives(), exact.plane_last_lives());
        for (k, (a, b)) in ra.iter().zip(&ea).enumerate() {
            assert!(
                a >= b || name.contains("autoconcat"),
                "{name}: plane {k} lives until {a} rebuilt, {b} exact"
            );
        }
        assert_eq!(
            rebuilt
                .planes
                .iter()
                .map(|p| rebuilt.spaces[p.space].last_live(rebuilt.max_lifetime))
                .collect::<Vec<_>>(),
            exact
                .planes
                .iter()
                .map(|p| exact.spaces[p.space].last_live(exact.max_lifetime))
                .collect::<Vec<_>>(),
            "{name}"
        );
        for (a, b) in rebuilt.planes.iter().zip(&exact.planes) {
            assert_eq!(
                (
                    a.cont_offset,
                    a.cont_size,
                    a.wrap_size,
                    a.allocated,
                    a.footprint()
                ),
                (
                    b.cont_offset,
                    b.cont_size,
                    b.wrap_size,
                    b.allocated,
                    b.footprint()
                ),
                "{name}"
            );
        }
    }
}

/// mem_info records equal the dicts 0.10.1's `generate_optimized_memory_info` builds
/// from the same planes (`size`, `offset` = contiguous offset, ...), in step order.
#[test]
fn mem_info_records_follow_the_python_dicts() {
    let dir = bench();
    for name in [
        "resnet18-single-wrap-None",
        "mobilenet_v2-autoconcat-None",
        "squeezenet1_1-multi-None",
    ] {
        let path = dir.join(name).join("planes.json");
        let plan = memplan::planning::resolve(&load(&path)).unwrap();
        let ours: serde_json::Value =
            serde_json::from_str(&formats::mem_info::write(&plan, None)).unwrap();
        assert_eq!(ours["mem_size"], serde_json::json!([plan.peak()]));
        let dump: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let expected: Vec<serde_json::Value> = dump["planes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                serde_json::json!({
                    "size": p["size"], "offset": p["cont_offset"], "stride": p["stride"],
                    "length": p["length"], "count": p["count"], "cont_offset": p["cont_offset"],
                    "cont_size": p["cont_size"], "wrap_offset": p["wrap_offset"],
                    "wrap_size": p["wrap_size"], "mem_component_id": 0,
                })
            })
            .collect();
        let got: Vec<serde_json::Value> = ours["mem_info"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|n| n["outputs"].as_array().unwrap().clone())
            .collect();
        assert_eq!(got, expected, "{name}");
    }
}
