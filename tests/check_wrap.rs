//! Wrap-around plans re-placed by Aidge's `optimize` (issue #11): Aidge puts a space
//! over bytes that only a *replaced* plane of another space occupies (a plane that a
//! later plane of its space was written over by its single reader). Such plans were
//! built with aidge-export-cpp and run: their outputs equal the plain build's
//! (docs/aidge-parity.md, "Wrap-around with optimize"). The checker must accept them,
//! `stats`' lower bound must not exceed their peak, and moving a space onto a plane
//! that is still to be read must still be flagged.
//!
//! The plans are made by the drivers (exact ports: `tests/drivers_parity.rs`,
//! `tests/parity/models_diff.py` compare memory + wrap + optimize with the wheel) from
//! the committed schedules of tests/data/aidge.

use memplan::check::{check, ProblemKind};
use memplan::drivers::{generate, Driver, DriverOptions};
use memplan::manager::OptimizeStrategy;
use memplan::model::{Clock, Plan};
use memplan::schedule::Schedule;
use memplan::stats::stats;

fn wrap_plan(case: &str, optimize: Option<OptimizeStrategy>) -> Plan {
    wrap_plan_and_schedule(case, optimize).0
}

fn wrap_plan_and_schedule(case: &str, optimize: Option<OptimizeStrategy>) -> (Plan, Schedule) {
    let path = format!(
        "{}/tests/data/aidge/{case}-single-None.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let schedule: Schedule = serde_json::from_value(doc["schedule"].clone()).unwrap();
    let opts = DriverOptions {
        driver: Driver::Memory,
        wrap_around: true,
        optimize,
        ..DriverOptions::default()
    };
    (generate(&schedule, &opts).unwrap(), schedule)
}

/// Per plane, the last clock at which its tensor is read, from the schedule (not from
/// the plan): its readers' clocks, or the end for a graph output.
fn last_reads(plan: &Plan, schedule: &Schedule) -> Vec<Clock> {
    plan.planes
        .iter()
        .map(|p| {
            let out = &schedule.nodes[p.node].outputs[p.index];
            let reads = out
                .consumers
                .iter()
                .filter_map(|c| plan.steps[c.node].clock)
                .max();
            match reads {
                Some(t) if !out.graph_output => t.max(p.allocated),
                _ => plan.max_lifetime,
            }
        })
        .collect()
}

const OPTIMIZE: [Option<OptimizeStrategy>; 4] = [
    None,
    Some(OptimizeStrategy::MaxLifetimeMinSizeFirst),
    Some(OptimizeStrategy::MaxLifetimeMaxSizeFirst),
    Some(OptimizeStrategy::MaxHoleMaxLifetimeFirst),
];

/// Pairs of planes of different spaces that share bytes at a clock where both
/// spaces are live: the reuse the old space-lifetime rule rejected.
fn space_rule_overlaps(plan: &Plan) -> usize {
    let mut n = 0;
    let ml = plan.max_lifetime;
    for (i, a) in plan.planes.iter().enumerate() {
        for b in &plan.planes[i + 1..] {
            let (sa, sb) = (&plan.spaces[a.space], &plan.spaces[b.space]);
            if a.space == b.space
                || a.allocated.max(b.allocated) > sa.last_live(ml).min(sb.last_live(ml))
            {
                continue;
            }
            let parts = |p: &memplan::Plane| {
                [
                    (p.cont_offset, p.cont_offset + p.cont_size),
                    (p.wrap_offset, p.wrap_offset + p.wrap_size),
                ]
            };
            if parts(a).iter().any(|&(x0, x1)| {
                parts(b)
                    .iter()
                    .any(|&(y0, y1)| x0 < x1 && y0 < y1 && x0 < y1 && y0 < x1)
            }) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn aidge_wrap_around_optimize_plans_check_clean_and_bound_their_peak() {
    let mut reuse = 0;
    for case in [
        "squeezenet1_1",
        "resnet18",
        "mobilenet_v2",
        "efficientnet_b0",
        "branches",
        "residual",
        "split",
    ] {
        for opt in OPTIMIZE {
            let plan = wrap_plan(case, opt);
            let report = check(&plan);
            assert!(
                report.is_valid(),
                "{case} {opt:?}: {:#?}",
                &report.problems[..report.problems.len().min(3)]
            );
            let s = stats(&plan);
            assert!(
                s.lower_bound <= s.peak,
                "{case} {opt:?}: lower bound {} above the peak {}",
                s.lower_bound,
                s.peak
            );
            reuse += space_rule_overlaps(&plan);
        }
    }
    // The reuse is really there: 10 of the 12 CNN plans with optimize have some.
    assert!(reuse > 100, "{reuse}");
}

/// SqueezeNet-1.1, wrap-around + OptimizeMaxLifetimeMaxSizeFirst, the plan of the
/// issue: Aidge's peak is 3,154,176 B, below any placement of its spaces as whole
/// rectangles (the old lower bound, 4,702,976 B); the lower bound is now that peak.
#[test]
fn squeezenet_wrap_optimize_reuses_a_replaced_plane() {
    let plan = wrap_plan(
        "squeezenet1_1",
        Some(OptimizeStrategy::MaxLifetimeMaxSizeFirst),
    );
    assert_eq!(plan.peak(), 3_154_176);
    let s = stats(&plan);
    assert_eq!(s.lower_bound, 3_154_176);
    // features_3_expand1x1 (space 1, written at 5) over [1548800, 2323200) of space 0,
    // which only features_0's Conv and its in-place ReLU used: both were replaced at
    // clock 2 by the MaxPool wrapping over them.
    let lives = plan.plane_last_lives();
    assert_eq!((plan.planes[0].space, plan.planes[5].space), (0, 1));
    assert_eq!((lives[0], lives[1]), (1, 2));
    assert!(plan.spaces[0].last_live(plan.max_lifetime) >= 5);
    assert!(plan.planes[5].cont_offset < 2_323_200);
    assert!(plan.planes[5].cont_offset + plan.planes[5].cont_size > 1_548_800);
}

/// Every way of moving one space so that one of its planes lands on a plane of
/// another space before that plane's last reader ran (readers from the schedule, not
/// from the plan's liveness) is flagged, naming both planes. The plans' planes are
/// never read after their replacement, so this is as strict as the dataflow.
#[test]
fn a_space_moved_onto_a_plane_still_read_is_flagged() {
    for opt in [
        Some(OptimizeStrategy::MaxLifetimeMaxSizeFirst),
        Some(OptimizeStrategy::MaxHoleMaxLifetimeFirst),
    ] {
        let (base, schedule) = wrap_plan_and_schedule("squeezenet1_1", opt);
        let reads = last_reads(&base, &schedule);
        assert!(base
            .plane_last_lives()
            .iter()
            .zip(&reads)
            .all(|(live, read)| live >= read));
        let mut tried = 0;
        for (i, p) in base.planes.iter().enumerate() {
            for (j, q) in base.planes.iter().enumerate() {
                if p.space == q.space || q.allocated < p.allocated || q.allocated > reads[i] {
                    continue;
                }
                if q.cont_size == 0 || p.cont_size == 0 {
                    continue;
                }
                let mut plan = base.clone();
                let shift = p.cont_offset.wrapping_sub(q.cont_offset);
                let moved = q.space;
                plan.spaces[moved].offset = plan.spaces[moved].offset.wrapping_add(shift);
                for r in plan.planes.iter_mut().filter(|r| r.space == moved) {
                    r.cont_offset = r.cont_offset.wrapping_add(shift);
                    r.wrap_offset = r.wrap_offset.wrapping_add(shift);
                }
                let report = check(&plan);
                let pair = (i.min(j), i.max(j));
                assert!(
                    report
                        .problems
                        .iter()
                        .any(|x| x.kind == ProblemKind::PlaneOverlap
                            && (x.planes[0], x.planes[1]) == pair),
                    "{opt:?}: plane {j} moved onto plane {i}: {:?}",
                    &report.problems[..report.problems.len().min(3)]
                );
                tried += 1;
            }
        }
        assert!(tried > 50, "{tried}");
    }
}

/// Auto-concat + optimize: the parts of a concatenation are striped planes, written
/// by different nodes, none reading the others, so none replaces another. Aidge's
/// `optimize` frees the first parts when the last is written (getStack keeps the
/// latest clock only) and puts `features_7_squeeze` over the first half of the
/// `features_6` Concat it is reading: flagged.
#[test]
fn auto_concat_parts_stay_live_together() {
    let path = format!(
        "{}/tests/data/aidge/squeezenet1_1-single-None.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let schedule: Schedule = serde_json::from_value(doc["schedule"].clone()).unwrap();
    let opts = DriverOptions {
        driver: Driver::AutoConcat,
        optimize: Some(OptimizeStrategy::MaxLifetimeMaxSizeFirst),
        ..DriverOptions::default()
    };
    let plan = generate(&schedule, &opts).unwrap();
    let report = check(&plan);
    let name = |i: usize| plan.steps[plan.planes[i].node].name.clone();
    assert!(
        report.problems.iter().any(|p| {
            p.kind == ProblemKind::PlaneOverlap
                && name(p.planes[0]) == "features_features_6_Concat"
                && name(p.planes[1]) == "features_features_7_squeeze_Conv"
        }),
        "{:#?}",
        report.problems
    );
    // Without optimize the same parts check clean.
    let plain = generate(
        &schedule,
        &DriverOptions {
            optimize: None,
            ..opts
        },
    )
    .unwrap();
    assert!(check(&plain).is_valid());
}
