//! TensorFlow Lite Micro's `GreedyMemoryPlanner::PrintMemoryPlan()` output, as the
//! real `tflite-micro` interpreter printed it for four int8 CNNs
//! (`tests/data/tflm/`, written by `dump_plans.py`; its README says how): every
//! buffer where TFLM put it, the peak TFLM's planner and interpreter report, and
//! memplan's re-placement against them.

use memplan::formats::{self, Document, Format};
use memplan::planning::{Request, Session};
use memplan::strategies::Budget;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tflm");
/// `resnet_tiny` is the control: TFLM's own plan is at the lower bound there.
const MODELS: [&str; 4] = ["dag6", "dag10", "dag21", "resnet_tiny"];

fn text(model: &str) -> String {
    std::fs::read_to_string(format!("{DIR}/{model}.plan.txt")).unwrap()
}

fn load(model: &str, text: &str) -> Document {
    formats::load(&format!("{model}.plan.txt"), text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// The figures the real package reported (`<model>.json`: the planner's
/// `GetMaximumMemorySize()`, the arena's head, tail and total).
fn figures(model: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(format!("{DIR}/{model}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The buffer lines read by hand, independently of the reader: (size, offset,
/// first_used, last_used) in id order.
fn by_hand(text: &str) -> Vec<[u64; 4]> {
    text.lines()
        .filter(|l| l.contains("(id="))
        .map(|l| {
            let value = |key: &str| -> u64 {
                let rest = &l[l.find(key).unwrap() + key.len()..];
                let end = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                rest[..end].parse().unwrap()
            };
            [
                value("size="),
                value("offset="),
                value("first_used="),
                value("last_used="),
            ]
        })
        .collect()
}

#[test]
fn every_buffer_is_where_tflm_put_it() {
    for model in MODELS {
        let text = text(model);
        let doc = load(model, &text);
        assert_eq!(doc.format, Format::TflmPlan, "{model}");
        assert!(doc.warnings.is_empty(), "{model}: {:?}", doc.warnings);
        let plan = memplan::planning::resolve(&doc).unwrap();
        let report = memplan::check::check(&plan);
        assert!(report.is_valid(), "{model}: {:?}", report.problems);
        let expected = by_hand(&text);
        assert!(expected.len() >= 10, "{model}: {} buffers", expected.len());
        assert_eq!(plan.planes.len(), expected.len(), "{model}");
        let lasts = plan.plane_last_lives();
        for (i, [size, offset, first, last]) in expected.into_iter().enumerate() {
            let p = &plan.planes[i];
            let s = &plan.spaces[p.space];
            assert_eq!(
                p.label.as_deref(),
                Some(format!("id={i}").as_str()),
                "{model}"
            );
            assert_eq!(
                (s.offset, s.size, p.size),
                (offset, size, size),
                "{model} id={i}"
            );
            assert_eq!(
                (p.allocated as u64, lasts[i] as u64),
                (first, last),
                "{model} id={i}"
            );
        }
    }
}

#[test]
fn a_few_buffers_of_resnet_tiny_as_printed() {
    // `1 (id=1): size=16384, offset=32768, first_used=1 last_used=4` and the scratch
    // buffer `* (id=15): size=96, offset=6144, first_used=12 last_used=12`.
    let plan = memplan::planning::resolve(&load("resnet_tiny", &text("resnet_tiny"))).unwrap();
    let lasts = plan.plane_last_lives();
    let at = |i: usize| {
        let s = &plan.spaces[plan.planes[i].space];
        (s.offset, s.size, plan.planes[i].allocated, lasts[i])
    };
    assert_eq!(at(1), (32768, 16384, 1, 4));
    assert_eq!(at(15), (6144, 96, 12, 12));
    assert_eq!(plan.max_lifetime, 14);
}

#[test]
fn the_peak_is_the_figure_tflm_reports() {
    for model in MODELS {
        let text = text(model);
        let plan = memplan::planning::resolve(&load(model, &text)).unwrap();
        let f = figures(model);
        assert_eq!(plan.peak(), f["planner_peak"].as_u64().unwrap(), "{model}");
        assert_eq!(plan.peak(), f["arena"]["head"].as_u64().unwrap(), "{model}");
        // The chart's busiest row (KiB, rounded up) is the lower bound memplan computes.
        let busiest = text
            .lines()
            .filter_map(|l| {
                l.trim_end()
                    .strip_suffix("k)")?
                    .rsplit_once('(')?
                    .1
                    .parse::<u64>()
                    .ok()
            })
            .max()
            .unwrap();
        let stats = memplan::stats::stats(&plan);
        assert_eq!(stats.lower_bound.div_ceil(1024), busiest, "{model}");
        assert!(stats.lower_bound <= plan.peak(), "{model}");
    }
}

#[test]
fn memplan_places_the_same_buffers_in_less_where_tflm_leaves_holes() {
    for model in MODELS {
        let name = format!("{model}.plan.txt");
        let mut session = Session::open(&name, text(model).as_bytes()).unwrap();
        let (plan, report) = session
            .plan(&Request::new("best", Budget::millis(2000)).unwrap())
            .unwrap();
        assert!(memplan::check::check(&plan).is_valid(), "{model}");
        let tflm = figures(model)["planner_peak"].as_u64().unwrap();
        let stats = memplan::stats::stats(&plan);
        // Optimal: the peak is the bytes live at the busiest clock.
        assert_eq!(plan.peak(), stats.lower_bound, "{model}: {report:?}");
        if model == "resnet_tiny" {
            assert_eq!(plan.peak(), tflm, "{model}: TFLM is at the lower bound");
        } else {
            assert!(
                plan.peak() < tflm,
                "{model}: {} ≥ TFLM's {tflm}",
                plan.peak()
            );
        }
    }
}

#[test]
fn the_legacy_dialect_and_a_device_log_prefix_read_the_same() {
    let text = text("dag10");
    let expected = load("dag10", &text).buffers.unwrap();
    // What the planner printed before 2022 (TF_LITE_REPORT_ERROR, chart rows alone).
    let legacy: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| match by_hand(l).first() {
            Some([size, offset, first, last]) => format!(
                "Planner buffer ID: {i}, calculated offset: {offset}, size required: {size}, first_time_created: {first}, last_time_used: {last}\n"
            ),
            None => format!("{}\n", &l[6..86]),
        })
        .collect();
    let doc = load("legacy", &legacy);
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    assert_eq!(doc.buffers.unwrap(), expected);
    // A serial console's log, with a prefix on every line and other output around.
    let logged: String = std::iter::once("I (301) main: model loaded\n".to_string())
        .chain(text.lines().map(|l| format!("I (312) tflm: {l}\n")))
        .chain(std::iter::once("I (330) main: invoke ok\n".to_string()))
        .collect();
    let doc = load("console.log", &logged);
    assert_eq!(doc.buffers.unwrap(), expected);
    assert_eq!(doc.warnings.len(), 1, "{:?}", doc.warnings);
    assert!(doc.warnings[0].contains("2 line(s)"), "{:?}", doc.warnings);
}

#[test]
fn bad_dumps_are_refused_with_the_line_and_column() {
    let good = text("dag21");
    let first = good.lines().next().unwrap();
    let second = good.lines().nth(1).unwrap();
    let cases = [
        // A line cut off by the serial console.
        (
            good.replacen(second, &second[..28], 1),
            "line 2, column 29: expected a number after `offset=`",
        ),
        // A buffer missing: ids run 0, 2, ...
        (
            good.replacen(&format!("{second}\r\n"), "", 1),
            "line 2, column 1: buffer id=2 where id=1 was expected",
        ),
        (
            good.replacen("offset=0,", "offset=-1,", 1),
            "offset -1 of buffer id=1",
        ),
        (
            good.replacen("first_used=0 last_used=1", "first_used=2 last_used=1", 1),
            "used from 2 to 1",
        ),
        (
            good.replacen(first, &format!("{first} (x)"), 1),
            "line 1, column 59: unexpected text after `last_used`",
        ),
        (
            good.replacen("size=4608", "size=99999999999999999999", 1),
            "number out of range after `size=`",
        ),
    ];
    for (text, expected) in cases {
        let e = formats::load("bad.plan.txt", text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("bad.plan.txt: "), "{e}");
        assert!(e.contains(expected), "`{expected}` not in: {e}");
    }
    // The chart alone is not a plan.
    let chart: String = good
        .lines()
        .filter(|l| !l.contains("(id="))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(formats::load("chart.txt", chart.as_bytes()).is_err());
}

#[test]
fn no_cut_of_a_dump_panics() {
    let text = text("dag21");
    for cut in 0..=text.len() {
        let _ = formats::load("cut.plan.txt", &text.as_bytes()[..cut]);
    }
}
