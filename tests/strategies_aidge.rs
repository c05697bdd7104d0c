//! `best` on an Aidge schedule never loses to any plan Aidge can make for it: not to
//! the plans aidge_core 0.10.1 made (tests/data/aidge/CASE-COMBO.json, one schedule
//! per case in several driver configurations), nor to any driver × wrap-around ×
//! optimize configuration of `drivers::generate` that passes the checker; its plan passes the checker and its
//! lower bound is below every one of those peaks (wrap-around and optimize reuse the
//! bytes of consumed planes, so a bound on whole spaces would not hold for them).

use memplan::check::check;
use memplan::drivers::{generate, Driver, DriverOptions};
use memplan::manager::OptimizeStrategy as Optimize;
use memplan::planning::{Request, Session};
use memplan::stats::stats;
use memplan::strategies::Budget;
use std::collections::BTreeMap;
use std::path::Path;

/// The committed exports, grouped by case (the file name before its driver tag).
fn cases() -> BTreeMap<String, Vec<(String, Vec<u8>)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/aidge");
    let mut out: BTreeMap<String, Vec<(String, Vec<u8>)>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        let Some(at) = ["-multi-", "-single-", "-autoconcat-"]
            .iter()
            .find_map(|tag| stem.find(tag))
        else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        out.entry(stem[..at].to_owned())
            .or_default()
            .push((name, bytes));
    }
    out
}

fn every_configuration() -> Vec<DriverOptions> {
    let mut out = Vec::new();
    for driver in [Driver::MultipleMems, Driver::Memory, Driver::AutoConcat] {
        for wrap_around in [false, true] {
            for optimize in [
                None,
                Some(Optimize::MaxLifetimeMinSizeFirst),
                Some(Optimize::MaxLifetimeMaxSizeFirst),
                Some(Optimize::MaxHoleMaxLifetimeFirst),
            ] {
                out.push(DriverOptions {
                    driver,
                    wrap_around,
                    optimize,
                    ..DriverOptions::default()
                });
            }
        }
    }
    out
}

/// `best`'s search nodes of a 50 ms budget with no wall-clock limit: it then makes every
/// configuration whatever the machine's load (a wall-clock budget made this test fail
/// on a loaded machine, EfficientNet-B0's best above one configuration), and what it
/// gives is the same on every run.
fn deterministic() -> Budget {
    Budget {
        millis: 600_000,
        ..Budget::millis(50)
    }
}

#[test]
fn best_is_never_worse_than_any_aidge_configuration() {
    let cases = cases();
    assert!(cases.len() >= 10, "{:?}", cases.keys());
    for files in cases.into_values() {
        // Aidge's own plans of this case's schedule, and the drivers' of every
        // configuration.
        let mut peaks: Vec<(String, u64)> = Vec::new();
        let mut schedule = None;
        for (name, bytes) in &files {
            let mut s = Session::open(name, bytes).unwrap();
            let (plan, _) = s
                .plan(&Request::new("aidge", Budget::millis(10)).unwrap())
                .unwrap();
            // The wheel's auto-concat + optimize plans can overlap live planes
            // (tests/drivers_parity.rs reproduces them): such a plan is no rival.
            if check(&plan).is_valid() {
                peaks.push((name.clone(), stats(&plan).peak));
            }
            schedule = s.document().schedule.clone();
        }
        let schedule = schedule.unwrap();
        for opts in every_configuration() {
            // Optimize after auto-concat can overlap live planes, as in the wheel:
            // such a plan is no rival.
            if let Some(plan) = generate(&schedule, &opts)
                .ok()
                .filter(|p| check(p).is_valid())
            {
                peaks.push((format!("{opts:?}"), stats(&plan).peak));
            }
        }
        // `best` from each file (its loaded plan differs, its schedule does not).
        for (name, bytes) in &files {
            let mut s = Session::open(name, bytes).unwrap();
            let (plan, report) = s
                .plan(&Request::new("best", deterministic()).unwrap())
                .unwrap();
            let report_check = check(&plan);
            assert!(
                report_check.is_valid(),
                "{name}: {:?}",
                report_check.problems
            );
            let peak: u64 = report.peak.parse().unwrap();
            let bound: u64 = report.lower_bound.parse().unwrap();
            assert_eq!(peak, stats(&plan).peak, "{name}");
            for (other, p) in &peaks {
                assert!(peak <= *p, "{name}: best {peak} > {other} {p}");
                assert!(bound <= *p, "{name}: bound {bound} > {other} {p}");
            }
        }
    }
}
