//! `best` on Aidge 0.10.1's own wrap-around logs of real models
//! (tests/data/aidge/wrap-logs, written by tests/parity/wrap_logs.py): a log holds
//! the plan, not the graph, so memplan may only move what Aidge's semantics let move.
//! The plan must pass the checker, never end above Aidge's plan, and end below the
//! lower bound of every placement of whole spaces as rectangles (the bound of the
//! space problem: spaces that a narrower plane replaced still take their whole size),
//! which proves the re-plan uses the bytes wrap-around frees (and cuts planes out of
//! spaces, `strategies::carve`); where memplan's per-plane bound of Aidge's plan is
//! reached, it says so. Deterministic: a node budget decides, not the clock.

use memplan::check::check;
use memplan::model::Plan;
use memplan::planning::{Request, Session};
use memplan::stats::stats;
use memplan::strategies::{place, Budget, Strategy};

include!("support/planning.rs");

fn log(name: &str) -> Vec<u8> {
    gunzip(&format!("aidge/wrap-logs/{name}.memory_info.txt.gz"))
}

/// The smallest peak any placement of `plan`'s spaces as rectangles can have.
fn rectangle_bound(plan: &Plan) -> u64 {
    let list = plan.space_problem();
    place(&list, Strategy::GreedyBySize, &Budget::default())
        .unwrap()
        .lower_bound
}

struct Replanned {
    limits: String,
    aidge: u64,
    rectangles: u64,
    per_plane: u64,
    best: u64,
}

fn replan(name: &str) -> Replanned {
    let mut session = Session::open("memory_info.txt", &log(name)).unwrap();
    let loaded = session.loaded().unwrap().clone();
    let request = Request::new("best", nodes(4_000_000)).unwrap();
    let (plan, report) = session.plan(&request).unwrap();
    let findings = check(&plan);
    assert!(findings.is_valid(), "{name}: {findings:?}");
    let s = stats(&plan);
    assert_eq!(report.peak, s.peak.to_string());
    Replanned {
        limits: report.limits.unwrap_or_default(),
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
        ("googlenet-single-wrap", true),
        ("googlenet-single-wrap-optimize", true),
        ("densenet121-single-wrap", true),
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

/// DenseNet-121's single-wrap log (issue #26's case) ends below what Aidge makes of
/// the same schedule with wrap-around and `OptimizeMaxLifetimeMaxSizeFirst`, a plan
/// the log cannot give, and the report says what the log allowed and which command
/// writes the schedule that allows more.
#[test]
fn a_wrap_log_re_planned_beats_aidges_optimize_and_says_what_the_schedule_allows() {
    let single = replan("densenet121-single-wrap");
    let optimized = replan("densenet121-single-wrap-optimize");
    assert!(
        single.best < optimized.aidge,
        "best {} >= Aidge's wrap + optimize {}",
        single.best,
        optimized.aidge
    );
    for text in [
        "holds the plan, not the graph",
        "wrap-around kept as Aidge laid it out",
        "cut a plane out of its space",
        "exporter.export(scheduler, \"model.memplan.json\")",
    ] {
        assert!(single.limits.contains(text), "{text}: {}", single.limits);
    }
}
