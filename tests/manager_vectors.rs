//! The manager against the test vectors of tests/data/manager_vectors.json (the
//! N2D2 `MemoryManager` unit tests under Aidge semantics, and vectors derived
//! from them). tests/parity/manager_diff.py asserts the same
//! expected values against the real aidge_core 0.10.1 wheel, so every number
//! here is one the wheel produces.

use memplan::manager::{cvt_size_t, Layout, MemoryManager, OptimizeStrategy};
use memplan::model::Step;
use memplan::tools::replay::{replay, replay_json};
use serde_json::Value;

fn vectors() -> Vec<Value> {
    let text = include_str!("data/manager_vectors.json");
    let doc: Value = serde_json::from_str(text).expect("vectors file is JSON");
    doc["vectors"].as_array().expect("vectors array").clone()
}

#[test]
fn every_vector_value_matches() {
    let mut checked = 0;
    for v in vectors() {
        let name = v["name"].as_str().unwrap();
        let ops = v["ops"].as_array().unwrap();
        for c in v["checks"].as_array().unwrap() {
            let after = c[0].as_u64().unwrap() as usize;
            let ptr = c[1].as_str().unwrap();
            let state = replay(&ops[..after]).expect("valid sequence");
            assert_eq!(
                state["error"],
                Value::Null,
                "{name}: Aidge would not throw here"
            );
            let got = state
                .pointer(ptr)
                .unwrap_or_else(|| panic!("{name}: {ptr} missing"));
            assert_eq!(got, &c[2], "{name} after {after} ops: {ptr}");
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} values checked");
}

/// Aidge's `tick()` releases nothing: a space whose consumers are all gone is
/// released by `releaseDependencies`, a space without consumers never is.
#[test]
fn tick_does_not_release() {
    let mut mm = MemoryManager::new();
    mm.allocate_node(0, 100, &[1], Layout::FLAT);
    mm.allocate_node(1, 100, &[], Layout::FLAT);
    mm.tick();
    mm.tick();
    assert_eq!(mm.space(0).released, -1);
    assert_eq!(mm.release_dependencies(1).unwrap(), 100);
    assert_eq!(mm.space(0).released, 2);
    assert_eq!(mm.space(1).released, -1);
    assert_eq!(mm.max_lifetime(), 2);
}

/// Zero-size spaces share a stack key with the block at their offset: releasing
/// one frees the *other* block and the second release throws (checked against
/// the wheel: `release(sp)` returned 1024, then "offStack(): offset 0 not found").
#[test]
fn zero_size_space_quirk() {
    let mut mm = MemoryManager::new();
    mm.allocate_node(0, 1024, &[1], Layout::FLAT);
    let a = mm.reserve(0, &[]);
    let b = mm.reserve(0, &[]);
    assert_eq!((mm.space(a).offset, mm.space(b).offset), (0, 0));
    assert_eq!(mm.release_space(a).unwrap(), 1024);
    let err = mm.release_space(b).unwrap_err();
    assert!(
        err.message.contains("offStack(): offset 0 not found"),
        "{err}"
    );
}

/// A wrapping plane that starts beyond its footprint still needs
/// `offset + extra` bytes (0.10.1's max), checked in the wheel:
/// reserve(100); reallocate(sp, 300, 10, wrap) → space size 300, limit 0,
/// contiguous = the whole plane at the space start.
#[test]
fn wrap_requirement_keeps_the_offset_inside() {
    let mut mm = MemoryManager::new();
    let sp = mm.reserve(100, &[]);
    let p = mm
        .reallocate(sp, 300, 10, true, 0, &[], Layout::FLAT)
        .unwrap();
    assert_eq!(mm.space(sp).size, 300);
    let g = p.geometry(mm.space(sp));
    assert_eq!(
        (g.limit, g.cont_offset, g.cont_size, g.wrap_size),
        (0, 0, 10, 0)
    );
}

/// optimize() on a space with no registered plane at its allocation clock makes
/// the wheel crash (empty map in getStack); the port reports it instead.
#[test]
fn optimize_without_planes_is_an_error() {
    let mut mm = MemoryManager::new();
    mm.reserve(100, &[]);
    mm.tick();
    assert!(mm
        .optimize(OptimizeStrategy::MaxLifetimeMinSizeFirst)
        .is_err());
    assert!(mm.optimize(OptimizeStrategy::None).is_ok());
}

#[test]
fn double_to_size_t_like_gcc() {
    assert_eq!(cvt_size_t(12.9), 12);
    assert_eq!(cvt_size_t(9_223_372_036_854_775_808.0), 1 << 63);
    assert_eq!(cvt_size_t(18_446_744_073_709_551_616.0), 0);
    assert_eq!(cvt_size_t(f64::NAN), 1 << 63);
    assert_eq!(cvt_size_t(-1.0), u64::MAX);
}

#[test]
fn plan_export_carries_the_accessors() {
    let mut mm = MemoryManager::new();
    mm.allocate_node(0, 1024, &[1], Layout::FLAT);
    mm.release_dependencies(0).unwrap();
    mm.tick();
    let p = mm.planes(0).unwrap()[0].clone();
    mm.registered(1, |mm| {
        mm.reallocate_after(&p, 512, 1024, true, 0, &[], Layout::FLAT)
    })
    .unwrap();
    mm.release_dependencies(1).unwrap();
    mm.tick();
    let steps = vec![Step::default(), Step::default()];
    let plan = mm.to_plan(steps);
    assert_eq!(plan.spaces.len(), 1);
    assert_eq!(plan.spaces[0].released, Some(1));
    assert!(!plan.spaces[0].has_deps);
    let b = &plan.planes[1];
    assert_eq!((b.node, b.index, b.offset), (1, 0, 1536));
    // Values checked in the wheel: the space grew to max(1024 + 0, 1536 + 0) =
    // 1536, so the plane starts at the space end (immediate wrap).
    assert_eq!(plan.spaces[0].size, 1536);
    assert_eq!((b.cont_offset, b.cont_size, b.wrap_size), (0, 1024, 0));
    assert_eq!(plan.peak(), 1536);
}

#[test]
fn replay_reports_bad_input_with_its_place() {
    let err = replay_json(r#"[{"op":"tick"},{"op":"expand","space":3,"size":1}]"#).unwrap_err();
    assert_eq!(err.to_string(), "$[1].space: no such space");
    let err = replay_json(r#"[{"op":"allocate"}]"#).unwrap_err();
    assert_eq!(err.to_string(), "$[0].size: missing unsigned integer");
    assert!(replay_json("[").is_err());
}

// ---- multiple memory components ------------------------------------------------
// The wheel does not expose these calls to Python; the expected values below are
// worked by hand from the behaviour read in the wheel's machine code
// (docs/aidge-parity.md, "Memory manager"). End-to-end parity comes from the
// drivers' generate_memory_multiple_mems check.

/// Priority order, "available" bytes that releases give back, per-component
/// first fit and peaks.
#[test]
fn components_place_by_priority_and_capacity() {
    let mut mm = MemoryManager::with_components(&[1000, 10_000]);
    let order = [0, 1];
    let a = mm
        .allocate_among_components(600, &[9], Layout::FLAT, &order, Some(1))
        .unwrap();
    assert_eq!((a.component, mm.space(a.space).offset), (0, 0));
    assert_eq!(mm.available_size(0).unwrap(), 400);
    // 600 > 400 available in component 0: goes to component 1.
    let b = mm
        .allocate_among_components(600, &[], Layout::FLAT, &order, Some(2))
        .unwrap();
    assert_eq!((b.component, mm.space(b.space).offset), (1, 0));
    // Releasing a's consumer frees its block and gives the bytes back.
    assert_eq!(mm.release_dependencies_multiple_mems(9).unwrap(), 600);
    assert_eq!(mm.available_size(0).unwrap(), 1000);
    assert_eq!(mm.space(a.space).released, 0);
    mm.tick();
    let c = mm
        .allocate_among_components(300, &[], Layout::FLAT, &order, Some(3))
        .unwrap();
    assert_eq!((c.component, mm.space(c.space).offset), (0, 0));
    assert_eq!(mm.peak_usage_multiple_mems(), vec![600, 600]);
    // The legacy peak only sees legacy spaces.
    assert_eq!(mm.peak_usage(), 0);
}

/// allocateAmongComponents tests the plane size, allocateInComponent the
/// footprint: a striped plane that fits by size but not by footprint throws.
#[test]
fn component_choice_tests_size_not_footprint() {
    let mut mm = MemoryManager::with_components(&[100, 10_000]);
    let err = mm
        .allocate_among_components(10, &[], Layout::new(0, 4, 4), &[0, 1], None)
        .unwrap_err();
    assert!(err.message.contains("size 160 in component 0"), "{err}");
    let err = mm
        .allocate_among_components(20_000, &[], Layout::FLAT, &[0, 1], None)
        .unwrap_err();
    assert!(err.message.contains("in any component (2 total)"), "{err}");
}

/// A space owned by a Producer is never released by
/// releaseDependenciesMultipleMems, though its dependency is removed.
#[test]
fn producer_owned_spaces_stay() {
    let mut mm = MemoryManager::with_components(&[1000]);
    mm.mark_producer(5);
    let p = mm
        .allocate_in_component(0, 100, &[6], Layout::FLAT, Some(5))
        .unwrap();
    assert_eq!(mm.release_dependencies_multiple_mems(6).unwrap(), 0);
    assert!(mm.space(p.space).dependencies.is_empty());
    assert_eq!(mm.space(p.space).released, -1);
}

/// reallocateMultipleMems from a space grows it through the component replay;
/// releaseIfLast waits for the last execution recorded by addCyclicDependencies.
#[test]
fn component_reallocation_and_cyclic_release() {
    let mut mm = MemoryManager::with_components(&[1000]);
    mm.add_cyclic_dependencies(&[vec![1, 2], vec![2]], |n| {
        if n == 2 {
            vec![Some((1, 0))]
        } else {
            vec![]
        }
    });
    assert_eq!(mm.scheduled_consumers(1, 0, &[7]), vec![2]);
    assert_eq!(mm.scheduled_consumers(2, 0, &[7]), vec![7]);
    let a = mm
        .allocate_in_component(0, 100, &[2], Layout::FLAT, Some(1))
        .unwrap();
    let b = mm
        .allocate_in_component(0, 50, &[], Layout::FLAT, Some(2))
        .unwrap();
    assert_eq!(mm.space(b.space).offset, 100);
    let q = mm
        .reallocate_multiple_mems(a.space, 0, 300, 0, false, 0, &[], Layout::FLAT)
        .unwrap();
    assert_eq!(q.component, 0);
    assert_eq!(mm.space(a.space).size, 300);
    assert_eq!(
        mm.space(b.space).offset,
        300,
        "replay moved b after the grown a"
    );
    assert_eq!(mm.available_size(0).unwrap(), 650);
    assert_eq!(
        mm.release_if_last_multiple_mems(2).unwrap(),
        0,
        "2 runs twice"
    );
    assert_eq!(mm.release_if_last_multiple_mems(2).unwrap(), 300);
}
