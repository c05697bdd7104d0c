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

/// [`arb_plan`] with some planes striped (an auto-concat's parts: `size < stride`, the
/// parts spanning the footprint) and some spaces with dependencies (live to the end).
fn arb_plan_striped() -> impl Strategy<Value = Plan> {
    (
        arb_plan(),
        prop::collection::vec(any::<bool>(), 40),
        prop::collection::vec(any::<bool>(), 12),
    )
        .prop_map(|(mut plan, striped, deps)| {
            for (p, &st) in plan.planes.iter_mut().zip(&striped) {
                if st && p.stride >= 2 {
                    p.size = p.stride - 1;
                }
            }
            for (s, &d) in plan.spaces.iter_mut().zip(&deps) {
                s.has_deps = d;
            }
            plan
        })
}

/// A second liveness rule, written without `Plan::plane_last_lives` or its formula: a
/// simulation, clock by clock, of what each space holds. At clock `t` a space holds
/// the planes it held before `t` and those written at `t`; after `t` it keeps only
/// those written at `t` when one of them is not striped (its writer read the space and
/// wrote over it), else all of them; after its last clock (its release, or the plan's
/// end for a space never released or with dependencies) it holds nothing. Then every
/// byte of every component at every clock: two planes of different spaces both live
/// there are an overlap. Returns the pairs of planes (lower index first).
fn simulated_overlaps(plan: &Plan) -> BTreeSet<(usize, usize)> {
    let horizon = plan.max_lifetime;
    let mut held: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); plan.spaces.len()];
    let mut out = BTreeSet::new();
    for t in 0..=horizon {
        // Who is live at t, per space.
        let mut live: Vec<BTreeSet<usize>> = held.clone();
        for (i, p) in plan.planes.iter().enumerate() {
            if p.allocated == t {
                live[p.space].insert(i);
            }
        }
        // Every byte at t: the live planes covering it.
        let top = plan
            .planes
            .iter()
            .map(|p| (p.cont_offset + p.cont_size).max(p.wrap_offset + p.wrap_size))
            .max()
            .unwrap_or(0);
        for component in 0..plan.components.len() {
            for byte in 0..top {
                let owners: Vec<usize> = live
                    .iter()
                    .enumerate()
                    .filter(|(s, _)| plan.spaces[*s].component == component)
                    .flat_map(|(_, planes)| planes.iter().copied())
                    .filter(|&i| {
                        let p = &plan.planes[i];
                        (p.cont_offset..p.cont_offset + p.cont_size).contains(&byte)
                            || (p.wrap_offset..p.wrap_offset + p.wrap_size).contains(&byte)
                    })
                    .collect();
                for (k, &a) in owners.iter().enumerate() {
                    for &b in &owners[k + 1..] {
                        if plan.planes[a].space != plan.planes[b].space {
                            out.insert((a.min(b), a.max(b)));
                        }
                    }
                }
            }
        }
        // What each space holds after t.
        for (s, space) in plan.spaces.iter().enumerate() {
            let written: BTreeSet<usize> = live[s]
                .iter()
                .copied()
                .filter(|&i| plan.planes[i].allocated == t)
                .collect();
            let replaced = written.iter().any(|&i| {
                let p = &plan.planes[i];
                p.size == p.stride
            });
            let end = match space.released {
                Some(r) if !space.has_deps => r,
                _ => horizon,
            };
            held[s] = if t >= end {
                BTreeSet::new()
            } else if replaced {
                written
            } else {
                live[s].clone()
            };
        }
    }
    out
}

proptest! {
    /// The checker's overlaps are the simulation's (above): the checker shares
    /// `Plan::plane_last_lives` with the planners and `stats`, so a wrong liveness
    /// rule there would pass the first brute force below, built on the same
    /// formula; this one states it another way, over bytes × clocks.
    #[test]
    fn plane_overlaps_match_a_simulation_over_bytes_and_clocks(plan in arb_plan_striped()) {
        let found: BTreeSet<(usize, usize)> = check(&plan)
            .problems
            .iter()
            .filter(|p| p.kind == ProblemKind::PlaneOverlap)
            .map(|p| (p.planes[0].min(p.planes[1]), p.planes[0].max(p.planes[1])))
            .collect();
        prop_assert_eq!(found, simulated_overlaps(&plan));
    }

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
