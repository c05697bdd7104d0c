//! `best` on Aidge 0.10.1's own wrap-around logs of real models
//! (tests/data/aidge/wrap-logs, written by tests/parity/wrap_logs.py): a log holds
//! the plan, not the graph, so memplan may only move what Aidge's semantics let move.
//! The plan must pass the checker, never end above Aidge's plan, and end below the
//! lower bound of every placement of whole spaces as rectangles (the bound of the
//! space problem: spaces that a narrower plane replaced still take their whole size),
//! which proves the re-plan uses the bytes wrap-around frees; where memplan's per-plane
//! bound is reached, it says so. Deterministic: a node budget decides, not the clock.

use memplan::check::check;
use memplan::model::Plan;
use memplan::planning::{Request, Session};
use memplan::stats::stats;
use memplan::strategies::{place, Budget, Strategy};
use std::io::Read;
use std::path::Path;

fn log(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/aidge/wrap-logs")
        .join(format!("{name}.memory_info.txt.gz"));
    let raw = std::fs::read(&path).unwrap();
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut text)
        .unwrap();
    text
}

/// A budget the node limit decides on any machine.
fn nodes(max_nodes: u64) -> Budget {
    Budget {
        millis: 600_000,
        max_nodes,
        ..Budget::default()
    }
}

/// The smallest peak any placement of `plan`'s spaces as rectangles can have.
fn rectangle_bound(plan: &Plan) -> u64 {
    let list = plan.space_problem();
    place(&list, Strategy::GreedyBySize, &Budget::default())
        .unwrap()
        .lower_bound
}

struct Replanned {
    aidge: u64,
    rectangles: u64,
    per_plane: u64,
    best: u64,
}

fn replan(name: &str) -> Replanned {
    let mut session = Session::open("memory_info.txt", &log(name)).unwrap();
    let loaded = session.loaded().unwrap().clone();
    let request = Request::new("best", nodes(400_000)).unwrap();
    let (plan, report) = session.plan(&request).unwrap();
    let findings = check(&plan);
    assert!(findings.is_valid(), "{name}: {findings:?}");
    let s = stats(&plan);
    assert_eq!(report.peak, s.peak.to_string());
    Replanned {
        aidge: stats(&loaded).peak,
        rectangles: rectangle_bound(&loaded),
        per_plane: stats(&loaded).lower_bound,
        best: s.peak,
    }
}

#[test]
fn wrap_logs_replanned_below_every_placement_of_rectangles() {
    // name, whether memplan's per-plane bound of Aidge's plan is reached.
    let cases = [
        ("squeezenet1_1-single-wrap", true),
        ("squeezenet1_1-single-wrap-optimize", true),
        ("mobilenet_v3_small-single-wrap", true),
        ("mobilenet_v3_small-single-wrap-optimize", true),
        ("googlenet-single-wrap", false),
        ("googlenet-single-wrap-optimize", false),
        ("densenet121-single-wrap", false),
        ("densenet121-single-wrap-optimize", false),
    ];
    for (name, at_bound) in cases {
        let r = replan(name);
        println!(
            "{name}: Aidge {}, rectangles >= {}, best {}, per-plane bound {}",
            r.aidge, r.rectangles, r.best, r.per_plane
        );
        assert!(
            r.best <= r.aidge,
            "{name}: best {} > Aidge {}",
            r.best,
            r.aidge
        );
        assert!(
            r.best < r.rectangles,
            "{name}: best {} not below the rectangles' bound {}",
            r.best,
            r.rectangles
        );
        if at_bound {
            assert_eq!(r.best, r.per_plane, "{name}");
        }
    }
}
