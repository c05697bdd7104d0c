//! Readers never panic, whatever the bytes; text logs written in any dialect read
//! back to a plan that writes the same text and checks clean.

use memplan::formats::{self, aidge_log, wire, LogDialect};
use memplan::model::{Component, Plan, Plane, Space, Step};
use memplan::scene::Chart;
use proptest::prelude::*;

/// A valid plan: spaces stacked without overlap, each with planes written one after
/// the other, some wrapping around the end of their space.
fn arb_plan() -> impl Strategy<Value = Plan> {
    let plane = (1u64..40, 0u64..40);
    let space = (
        1u64..60,
        0u32..3,
        prop::option::of(0u32..4),
        prop::collection::vec(plane, 1..4),
    );
    (prop::collection::vec(space, 1..8), 1usize..3).prop_map(|(spaces, ncomp)| {
        let mut plan = Plan {
            components: (0..ncomp)
                .map(|i| Component {
                    name: format!("m{i}"),
                    capacity: None,
                    priority: 0,
                })
                .collect(),
            alignment: 1,
            ..Plan::default()
        };
        let mut top = vec![0u64; ncomp];
        for (s, (size, allocated, life, planes)) in spaces.into_iter().enumerate() {
            let component = s % ncomp;
            let offset = top[component];
            top[component] += size;
            let released = life.map(|l| allocated + l + planes.len() as u32);
            plan.spaces.push(Space {
                offset,
                size,
                allocated,
                released,
                has_deps: false,
                component,
            });
            for (k, (len, start)) in planes.into_iter().enumerate() {
                let len = len.min(size);
                let start = start % size;
                let cont = len.min(size - start);
                let node = plan.steps.len();
                plan.steps.push(Step {
                    name: format!("n{node}"),
                    kind: String::new(),
                    clock: None,
                });
                plan.planes.push(Plane {
                    node,
                    index: 0,
                    space: s,
                    allocated: allocated + k as u32,
                    offset: start,
                    size: len,
                    stride: len,
                    length: 1,
                    count: 1,
                    cont_offset: offset + start,
                    cont_size: cont,
                    wrap_offset: offset,
                    wrap_size: len - cont,
                    label: None,
                    tensor: None,
                });
            }
        }
        plan.max_lifetime = plan
            .spaces
            .iter()
            .map(|s| s.allocated.max(s.released.unwrap_or(0)))
            .chain(plan.planes.iter().map(|p| p.allocated))
            .max()
            .unwrap_or(0);
        plan
    })
}

fn dialects() -> impl Strategy<Value = LogDialect> {
    prop_oneof![
        Just(LogDialect::Python {
            multiple_mems: true
        }),
        Just(LogDialect::Python {
            multiple_mems: false
        }),
        Just(LogDialect::AidgeCpp),
        Just(LogDialect::N2d2),
    ]
}

proptest! {
    #[test]
    fn any_bytes_load_or_fail_cleanly(bytes in prop::collection::vec(any::<u8>(), 0..300), ext in "(json|csv|txt|bin)") {
        let name = format!("f.{ext}");
        if let Err(e) = formats::load(&name, &bytes) {
            prop_assert_eq!(e.file.as_deref(), Some(name.as_str()));
        }
    }

    #[test]
    fn any_text_loads_or_fails_cleanly(text in "[{}\\[\\]\":,0-9a-zA-Z_ .()>+@\\n-]{0,200}") {
        let _ = formats::load("f", text.as_bytes()).map(|d| memplan::planning::resolve(&d).map(|p| memplan::check::check(&p)));
    }

    #[test]
    fn logs_round_trip_in_every_dialect(plan in arb_plan(), dialect in dialects()) {
        // Only the multiple-mems dialect can say which component a plane is in.
        let dialect = if plan.components.len() > 1 { LogDialect::Python { multiple_mems: true } } else { dialect };
        prop_assert!(memplan::check::check(&plan).is_valid());
        let text = aidge_log::write(&plan, dialect);
        let doc = formats::load("memory_info.txt", text.as_bytes()).unwrap();
        let back = memplan::planning::resolve(&doc).unwrap();
        prop_assert_eq!(aidge_log::write(&back, dialect), text);
        let report = memplan::check::check(&back);
        prop_assert!(report.is_valid(), "{:?}", report.problems);
        let top = plan.planes.iter().map(|p| (p.cont_offset + p.cont_size).max(p.wrap_offset + p.wrap_size)).max();
        prop_assert_eq!(Some(back.peak()), top);
    }

    /// The page's worker sends a plan with its stats and checker report; the main
    /// thread draws what `Chart::new` would have drawn from the plan alone, findings
    /// of broken plans included.
    #[test]
    fn the_worker_hand_off_draws_the_same_chart(
        plan in arb_plan(),
        breaks in prop::collection::vec((0usize..32, 1u64..64, any::<bool>()), 0..4),
    ) {
        let mut plan = plan;
        for (k, d, space) in breaks {
            if space {
                let n = plan.spaces.len();
                plan.spaces[k % n].offset += d;
            } else {
                let n = plan.planes.len();
                plan.planes[k % n].cont_offset += d;
            }
        }
        let (stats, report) = (memplan::stats::stats(&plan), memplan::check::check(&plan));
        let h = wire::decode(&wire::encode(&plan, &stats, &report)).unwrap();
        prop_assert_eq!(&h.plan, &plan);
        prop_assert_eq!(&h.stats, &memplan::stats::stats(&h.plan));
        prop_assert_eq!(&h.report, &memplan::check::check(&h.plan));
        let (a, b) = (Chart::new(plan), Chart::with(h.plan, h.stats, h.report));
        // Drawing order is by allocation, then plane, contiguous part first.
        let keys: Vec<_> = b.parts().iter().map(|q| (q.t0, q.plane, q.wrapped)).collect();
        prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{:?}", keys);
        // A label is readable until a later plane of its space covers some of it.
        for (i, p) in b.plan().planes.iter().enumerate() {
            let mine = b.parts().iter().filter(|q| q.plane == i);
            let end = mine.clone().map(|q| q.t1).min().unwrap_or(u64::MAX);
            let covered = b.parts().iter().filter(|o| {
                o.plane != i
                    && b.plan().planes[o.plane].space == p.space
                    && mine.clone().any(|q| o.t0 > q.t0 && q.a0 < o.a1 && o.a0 < q.a1)
            });
            let from = covered.map(|o| u64::from(o.t0)).fold(end, u64::min);
            prop_assert_eq!(b.covered_from(i), from, "plane {}", i);
        }
        prop_assert_eq!(a.parts(), b.parts());
        prop_assert_eq!(a.lanes(), b.lanes());
        for i in 0..a.plan().planes.len() {
            prop_assert_eq!(a.flagged(i), b.flagged(i));
            prop_assert_eq!(a.covered_from(i), b.covered_from(i));
            prop_assert_eq!(a.producer(i), b.producer(i));
        }
        prop_assert_eq!(a.horizon(), b.horizon());
        prop_assert_eq!(
            memplan::scene::info::summary(&a),
            memplan::scene::info::summary(&b)
        );
    }

    #[test]
    fn truncated_real_logs_fail_cleanly(cut in 0usize..5230) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench/aidge/resnet18-multi-None/memory_info.txt");
        let bytes = std::fs::read(path).unwrap();
        let cut = cut.min(bytes.len());
        let _ = formats::load(path, &bytes[..cut]);
    }
}
