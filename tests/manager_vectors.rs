//! The manager against the test vectors of tests/data/manager_vectors.json (the
//! N2D2 unit tests of docs/aidge-memory-manager.md §5.1 under Aidge semantics
//! and the derived §5.4 vectors). tests/parity/manager_diff.py asserts the same
//! expected values against the real aidge_core 0.10.1 wheel, so every number
//! here is one the wheel produces.

use memplan::manager::replay::{replay, replay_json};
use memplan::manager::{cvt_size_t, Layout, MemoryManager, Strategy};
use memplan::model::Step;
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
    assert!(mm.optimize(Strategy::MaxLifetimeMinSizeFirst).is_err());
    assert!(mm.optimize(Strategy::None).is_ok());
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
    mm.reallocate_after_node(&p, 1, 512, 1024, true, 0, &[], Layout::FLAT)
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
