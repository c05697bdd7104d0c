//! The checker against a brute-force definition on random plans, and on real plans
//! broken on purpose.

use memplan::check::{check, ProblemKind};
use memplan::formats;
use memplan::model::{Buffer, BufferList, Clock, Component, Plan, Plane, Space, Step};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Random plan: spaces in two components, each with one to three planes whose
/// contiguous and wrapped parts stay inside the space.
fn arb_plan() -> impl Strategy<Value = Plan> {
    let space = (
        0u64..64,
        1u64..24,
        0u32..10,
        0u32..6,
        any::<bool>(),
        0usize..2,
    );
    let plane = (0u64..24, 0u64..24, 0u64..24, 0u32..4);
    prop::collection::vec((space, prop::collection::vec(plane, 1..4)), 1..12).prop_map(|items| {
        let mut plan = Plan {
            steps: vec![Step {
                name: "n".into(),
                kind: String::new(),
                clock: Some(0),
            }],
            components: vec![
                Component::default(),
                Component {
                    name: "b".into(),
                    capacity: None,
                    priority: 1,
                },
            ],
            max_lifetime: 16,
            alignment: 1,
            ..Plan::default()
        };
        for (s, ((offset, size, allocated, life, never, component), planes)) in
            items.into_iter().enumerate()
        {
            plan.spaces.push(Space {
                offset,
                size,
                allocated,
                released: (!never).then_some(allocated + life),
                has_deps: false,
                component,
            });
            for (k, (start, len, wrap, delay)) in planes.into_iter().enumerate() {
                let start = start % size;
                let cont = len.min(size - start);
                let wrap = wrap.min(start);
                plan.planes.push(Plane {
                    node: 0,
                    index: k,
                    space: s,
                    allocated: allocated + delay.min(life),
                    offset: start,
                    size: cont + wrap,
                    stride: cont + wrap,
                    length: 1,
                    count: 1,
                    cont_offset: offset + start,
                    cont_size: cont,
                    wrap_offset: offset,
                    wrap_size: wrap,
                    label: None,
                    tensor: None,
                });
            }
        }
        plan
    })
}

/// A plane lives from its clock to the first later clock of a non-striped plane of
/// its space, or to its space's end.
fn brute_force_live(plan: &Plan, p: &Plane) -> (Clock, Clock) {
    let s = &plan.spaces[p.space];
    let end = match s.released {
        Some(r) if !s.has_deps => r,
        _ => plan.max_lifetime,
    };
    let next = plan
        .planes
        .iter()
        .filter(|q| q.space == p.space && q.allocated > p.allocated && q.size == q.stride)
        .map(|q| q.allocated)
        .min();
    (p.allocated, next.map_or(end, |n| n.min(end)))
}

fn brute_force_plane_overlaps(plan: &Plan) -> BTreeSet<(usize, usize)> {
    let live = |p: &Plane| brute_force_live(plan, p);
    let parts = |p: &Plane| {
        [
            (p.cont_offset, p.cont_offset + p.cont_size),
            (p.wrap_offset, p.wrap_offset + p.wrap_size),
        ]
    };
    let mut out = BTreeSet::new();
    for (i, a) in plan.planes.iter().enumerate() {
        for (j, b) in plan.planes.iter().enumerate().skip(i + 1) {
            let (sa, sb) = (&plan.spaces[a.space], &plan.spaces[b.space]);
            if a.space == b.space || sa.component != sb.component {
                continue;
            }
            let ((a0, a1), (b0, b1)): ((Clock, Clock), (Clock, Clock)) = (live(a), live(b));
            if a0.max(b0) > a1.min(b1) {
                continue;
            }
            let bytes = parts(a).iter().any(|&(x0, x1)| {
                parts(b)
                    .iter()
                    .any(|&(y0, y1)| x0 < x1 && y0 < y1 && x0 < y1 && y0 < x1)
            });
            if bytes {
                out.insert((i, j));
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn plane_overlaps_match_brute_force(plan in arb_plan()) {
        let report = check(&plan);
        let found: BTreeSet<(usize, usize)> = report
            .problems
            .iter()
            .filter(|p| p.kind == ProblemKind::PlaneOverlap)
            .map(|p| (p.planes[0], p.planes[1]))
            .collect();
        prop_assert_eq!(found, brute_force_plane_overlaps(&plan));
        prop_assert!(report.problems.iter().all(|p| p.kind == ProblemKind::PlaneOverlap));
    }

    /// Whatever a plan's planes do inside their spaces, a plan the checker accepts
    /// peaks at or above the lower bound `stats` reports (live planes of different
    /// spaces are disjoint), and the live bytes at the peak clock add up to it.
    #[test]
    fn valid_plans_peak_at_or_above_the_lower_bound(plan in arb_plan()) {
        if check(&plan).is_valid() {
            let s = memplan::stats::stats(&plan);
            for c in &s.components {
                prop_assert!(c.lower_bound <= c.peak, "{} > {}", c.lower_bound, c.peak);
                prop_assert_eq!(c.live_at_peak.iter().map(|l| l.size).sum::<u64>(), c.lower_bound);
            }
        }
    }

    #[test]
    fn placed_buffer_lists_check_clean(items in prop::collection::vec((0u32..20, 1u32..8, 1u64..100), 1..40)) {
        let buffers = items
            .iter()
            .enumerate()
            .map(|(i, &(lower, len, size))| Buffer::new(i.to_string(), lower, lower + len, size))
            .collect();
        let plan = memplan::planning::plan_buffers(&BufferList { buffers, capacity: None }).unwrap();
        let report = check(&plan);
        prop_assert!(report.is_valid(), "{:?}", report.problems);
        let stats = memplan::stats::stats(&plan);
        prop_assert!(stats.lower_bound <= stats.peak);
    }
}

#[test]
fn a_moved_space_in_a_real_plan_is_caught() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench/aidge/resnet18-single-None/planes.json"
    );
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut plan = memplan::planning::resolve(&formats::load(path, &bytes).unwrap()).unwrap();
    assert!(check(&plan).is_valid());
    // Move the space of the maxpool output (live 2..=6) onto the conv1 space (live 0..=2).
    let (pool, conv) = (plan.planes[2].space, plan.planes[0].space);
    let delta = plan.spaces[pool].offset - plan.spaces[conv].offset;
    plan.spaces[pool].offset -= delta;
    for p in plan.planes.iter_mut().filter(|p| p.space == pool) {
        p.cont_offset -= delta;
        p.wrap_offset -= delta;
    }
    let report = check(&plan);
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::PlaneOverlap && p.message.contains("clocks 2..=2")),
        "{:?}",
        report.problems
    );
}
