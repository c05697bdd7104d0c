//! Every strategy on every bench set and on random lists: placements are valid (an
//! O(n²) checker written here, and `memplan::check`), never below the lower bound,
//! and the search reaches the bound where it is known to be reachable.

use memplan::formats::csv::{read, CsvOptions};
use memplan::formats::load;
use memplan::model::{Buffer, BufferList};
use memplan::strategies::{
    place, place_default, place_pass, replan, Budget, Pass, Placement, Strategy,
};
use proptest::prelude::{prop, prop_assert, prop_assert_eq, proptest, ProptestConfig};
use proptest::strategy::Strategy as _;
use std::path::Path;

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench");

fn sets(dir: &str) -> Vec<(String, BufferList)> {
    let dir = Path::new(BENCH).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.display().to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            let (list, _) = read(&text, &CsvOptions::for_file(&name)).unwrap();
            (name, list)
        })
        .collect()
}

/// Independent check: no two buffers whose lifetimes intersect share a byte (a
/// buffer with `upper <= lower` occupies step `lower`).
fn overlap_free(list: &BufferList, offsets: &[u64]) -> Result<(), String> {
    let b = &list.buffers;
    if offsets.len() != b.len() {
        return Err(format!("{} offsets for {} buffers", offsets.len(), b.len()));
    }
    let end = |x: &Buffer| x.upper.max(x.lower + 1);
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let time = b[i].lower < end(&b[j]) && b[j].lower < end(&b[i]);
            let space = offsets[i] < offsets[j] + b[j].size && offsets[j] < offsets[i] + b[i].size;
            if time && space && b[i].size > 0 && b[j].size > 0 {
                return Err(format!("buffers {} and {} overlap", b[i].id, b[j].id));
            }
        }
    }
    Ok(())
}

fn lower_bound(list: &BufferList) -> u64 {
    let horizon = list
        .buffers
        .iter()
        .map(|b| b.upper.max(b.lower + 1))
        .max()
        .unwrap_or(0);
    (0..horizon)
        .map(|t| {
            list.buffers
                .iter()
                .filter(|b| b.lower <= t && t < b.upper.max(b.lower + 1))
                .map(|b| b.size)
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0)
}

fn assert_valid(name: &str, list: &BufferList, p: &Placement) {
    overlap_free(list, &p.offsets).unwrap_or_else(|e| panic!("{name} {}: {e}", p.strategy_used));
    let report = memplan::check::check(&list.to_plan(&p.offsets));
    assert!(report.is_valid(), "{name}: {:?}", report.problems);
    let peak = list
        .buffers
        .iter()
        .zip(&p.offsets)
        .map(|(b, o)| o + b.size)
        .max()
        .unwrap_or(0);
    assert_eq!(p.peak, peak, "{name}");
    assert!(p.peak >= p.lower_bound, "{name}");
}

#[test]
fn greedy_strategies_are_valid_on_every_bench_set() {
    for dir in ["minimalloc", "idealloc", "models", "aidge-spaces"] {
        for (name, list) in sets(dir) {
            for s in [
                Strategy::GreedyBySize,
                Strategy::GreedyBySizeFirstFit,
                Strategy::GreedyByConflicts,
            ] {
                let p = place(&list, s, &Budget::millis(0)).unwrap();
                assert_valid(&name, &list, &p);
                if list.buffers.len() <= 2000 {
                    assert_eq!(p.lower_bound, lower_bound(&list), "{name}");
                }
            }
        }
    }
}

#[test]
fn search_reaches_the_lower_bound_on_models_and_aidge_spaces() {
    for dir in ["models", "aidge-spaces"] {
        for (name, list) in sets(dir) {
            for s in [Strategy::Search, Strategy::Best] {
                let p = place(&list, s, &Budget::millis(2000)).unwrap();
                assert_valid(&name, &list, &p);
                assert_eq!(p.peak, lower_bound(&list), "{name} {s}");
                assert!(p.proven_optimal, "{name}");
            }
        }
    }
}

/// Under a node limit (the passes complete whatever the clock; with a wall-clock
/// budget of 300 ms they stop at half of it, which on a loaded machine is before
/// TFLM's pass on BERT-base).
#[test]
fn search_is_valid_and_never_worse_than_greedy_on_the_hard_sets() {
    let budget = Budget {
        max_nodes: 500_000,
        ..Budget::millis(u64::MAX)
    };
    for dir in ["minimalloc", "idealloc"] {
        for (name, list) in sets(dir) {
            let greedy = place(&list, Strategy::GreedyBySizeFirstFit, &Budget::millis(0)).unwrap();
            let p = place(&list, Strategy::Best, &budget).unwrap();
            assert_valid(&name, &list, &p);
            assert!(p.peak <= greedy.peak, "{name}");
        }
    }
}

/// `best` runs every greedy pass, TFLite's and TFLM's rules among them, and the
/// sweep before anything else: on every idealloc and MiniMalloc set its peak is at
/// most each of theirs, and every placement is valid. The passes stop at half of the
/// time left (the budget is a wall-clock promise) but never at a node limit, so under
/// one (deterministic) they all complete. Each pass is a fraction of a second in
/// release even on PanGu-2.6B (18,692 buffers); minutes in a debug build.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn best_is_never_worse_than_any_greedy_pass() {
    let budget = Budget {
        max_nodes: 2_000_000,
        ..Budget::millis(u64::MAX)
    };
    for dir in ["idealloc", "minimalloc"] {
        for (name, list) in sets(dir) {
            let best = place(&list, Strategy::Best, &budget).unwrap();
            assert_valid(&name, &list, &best);
            let mut passes: Vec<(String, Placement)> = Pass::ALL
                .into_iter()
                .map(|pass| (pass.name(), place_pass(&list, pass).unwrap()))
                .collect();
            let sweep = place(&list, Strategy::Sweep, &Budget::millis(0)).unwrap();
            passes.push(("sweep".into(), sweep));
            for (pass, p) in &passes {
                let report = memplan::check::check(&list.to_plan(&p.offsets));
                assert!(report.is_valid(), "{name} {pass}: {:?}", report.problems);
                assert!(p.peak >= p.lower_bound, "{name} {pass}");
                assert!(
                    best.peak <= p.peak,
                    "{name}: best {} > {pass} {}",
                    best.peak,
                    p.peak
                );
            }
        }
    }
}

/// `best` anchors at the fullest clock (the exact search on a window of clocks
/// around it, everything else placed around that in breadth order): every SOMAS,
/// IOPDDL and IREE set of idealloc's bench reaches its lower bound, proven, under a
/// node limit (deterministic), with a placement `memplan::check` accepts. On
/// PanGu-2.6B (18,692 buffers) that is strictly below every greedy pass, TFLM's and
/// TFLite's among them, which all end 40 MiB (+0.758 %) above the bound.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn best_reaches_the_lower_bound_of_every_idealloc_set() {
    let budget = Budget {
        max_nodes: 4_000_000,
        ..Budget::millis(u64::MAX)
    };
    for (name, list) in sets("idealloc") {
        let best = place(&list, Strategy::Best, &budget).unwrap();
        assert_valid(&name, &list, &best);
        assert_eq!(best.peak, lower_bound(&list), "{name}");
        assert!(best.proven_optimal, "{name}");
        if name.ends_with("somas_pangu_2.6B.csv") {
            let lowest_pass = Pass::ALL
                .into_iter()
                .map(|pass| place_pass(&list, pass).unwrap().peak)
                .min()
                .unwrap();
            assert_eq!(lowest_pass, 5_572_042_815, "{name}");
            assert!(best.peak < lowest_pass, "{name}");
        }
    }
}

/// The greedy-size strategy is TFLite's pass and greedy-size-first-fit TFLM's, and
/// a list opened without offsets gets greedy-size's placement while it is affordable.
#[test]
fn named_greedy_strategies_are_the_standard_passes() {
    for (name, list) in sets("minimalloc") {
        let tflite = place_pass(&list, Pass::TFLITE).unwrap();
        let tflm = place_pass(&list, Pass::TFLM).unwrap();
        let size = place(&list, Strategy::GreedyBySize, &Budget::millis(0)).unwrap();
        let first = place(&list, Strategy::GreedyBySizeFirstFit, &Budget::millis(0)).unwrap();
        assert_eq!(size.offsets, tflite.offsets, "{name}");
        assert_eq!(first.offsets, tflm.offsets, "{name}");
        assert_eq!(
            place_default(&list).unwrap().offsets,
            size.offsets,
            "{name}"
        );
    }
}

/// TFLM's planner on equal sizes: the buffer listed last first (it sorts a list filled
/// from the tail), each at the lowest gap among the buffers live with it; TFLite's:
/// earlier start first, each in the smallest gap.
#[test]
fn tie_rules_follow_tflm_and_tflite() {
    let b = |id: &str, lower, upper, size| Buffer::new(id, lower, upper, size);
    // Equal sizes: TFLM puts `early` (listed last) first, at 0, and so does TFLite
    // (earlier start); listed the other way round, TFLM puts `late` first.
    let list = BufferList {
        buffers: vec![b("late", 2, 4, 8), b("early", 0, 3, 8)],
        capacity: None,
    };
    let tflm = place_pass(&list, Pass::TFLM).unwrap();
    assert_eq!(tflm.offsets, vec![8, 0]);
    let tflite = place_pass(&list, Pass::TFLITE).unwrap();
    assert_eq!(tflite.offsets, vec![8, 0]);
    let list = BufferList {
        buffers: vec![b("early", 0, 3, 8), b("late", 2, 4, 8)],
        capacity: None,
    };
    let tflm = place_pass(&list, Pass::TFLM).unwrap();
    assert_eq!(tflm.offsets, vec![8, 0]);
    let tflite = place_pass(&list, Pass::TFLITE).unwrap();
    assert_eq!(tflite.offsets, vec![0, 8]);
    // Both place x, a, y, c in that order (a is listed after y and starts before it)
    // at 0, 6, 10, 14, which leaves gaps of 6 (at 0) and 4 (at 10) while `small`
    // lives: first fit takes the lower, best fit the tighter.
    let list = BufferList {
        buffers: vec![
            b("y", 1, 2, 4),
            b("a", 0, 4, 4),
            b("c", 0, 4, 3),
            b("x", 0, 2, 6),
            b("small", 2, 5, 2),
        ],
        capacity: None,
    };
    let tflm = place_pass(&list, Pass::TFLM).unwrap();
    assert_eq!(tflm.offsets, vec![10, 6, 14, 0, 0]);
    let tflite = place_pass(&list, Pass::TFLITE).unwrap();
    assert_eq!(tflite.offsets, vec![10, 6, 14, 0, 10]);
    // TFLite places what lives over the whole horizon first, in input order.
    let list = BufferList {
        buffers: vec![b("big", 1, 2, 9), b("all", 0, 3, 1), b("all2", 0, 3, 5)],
        capacity: None,
    };
    let tflite = place_pass(&list, Pass::TFLITE).unwrap();
    assert_eq!(tflite.offsets, vec![6, 0, 1]);
}

/// The exact search's budget in the tests that expect it to finish: a node limit
/// (2·10^9, about 100 s of nodes here, far above what the sets need) and no time
/// limit, so the result does not depend on the machine's load. With a time limit
/// (120 s) these tests failed on PanGu-2.6B when the machine ran other builds: its
/// 96,132 nodes took longer than the limit there.
fn nodes_only() -> Budget {
    Budget {
        max_nodes: 2_000_000_000,
        ..Budget::millis(u64::MAX)
    }
}

/// MiniMalloc's challenging sets whose lower bound is their capacity (A, B, E, F:
/// 1,048,576) or below it (C: 1,039,360): the search reaches the bound, which proves
/// the placement optimal. (D's bound, 986,112, is not known to
/// be reachable; it fits its capacity, see docs/benchmarks.md.) Seconds in release
/// (what CI runs), minutes in a debug build: ignored there.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn search_solves_minimalloc_challenging_sets_at_their_lower_bounds() {
    for set in [
        "A.1048576.csv",
        "B.1048576.csv",
        "C.1048576.csv",
        "E.1048576.csv",
        "F.1048576.csv",
    ] {
        let (name, list) = sets("minimalloc")
            .into_iter()
            .find(|(n, _)| n.ends_with(set))
            .unwrap();
        let budget = nodes_only();
        let p = place(&list, Strategy::Search, &budget).unwrap();
        assert_valid(&name, &list, &p);
        assert_eq!(p.peak, lower_bound(&list), "{name}");
        assert!(p.peak <= 1_048_576 && p.proven_optimal, "{name}");
    }
}

/// A zero-size buffer live throughout takes no bytes and changes nothing: the
/// search still proves challenging C's lower bound (greedy ends 36 % above it).
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn a_zero_size_buffer_does_not_stop_the_search() {
    let (name, mut list) = sets("minimalloc")
        .into_iter()
        .find(|(n, _)| n.ends_with("C.1048576.csv"))
        .unwrap();
    let end = list.buffers.iter().map(|b| b.upper).max().unwrap();
    list.buffers.push(Buffer::new("empty", 0, end, 0));
    let budget = nodes_only();
    let p = place(&list, Strategy::Search, &budget).unwrap();
    assert_valid(&name, &list, &p);
    assert_eq!(p.peak, lower_bound(&list), "{name}");
    assert!(p.proven_optimal, "{name}");
}

/// The SOMAS and IOPDDL sets, where MiniMalloc reaches the lower bound (BERT-base in
/// 65 s): the search does too, with the same generous budget as above.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn search_reaches_the_lower_bound_on_somas_and_iopddl_sets() {
    for (name, list) in sets("idealloc") {
        if name.contains("iree_") {
            continue;
        }
        let budget = nodes_only();
        let p = place(&list, Strategy::Search, &budget).unwrap();
        assert_valid(&name, &list, &p);
        assert_eq!(p.peak, p.lower_bound, "{name}");
        assert!(p.proven_optimal, "{name}");
    }
}

/// `best` stops at its node limit (deterministic, unlike time) and at the cancel flag,
/// and still answers with a valid placement.
#[test]
fn best_stops_within_its_budget_with_a_valid_placement() {
    // Challenging A: greedy ends 29 % above the bound, so the search runs to the limit.
    let (name, list) = sets("minimalloc")
        .into_iter()
        .find(|(n, _)| n.ends_with("A.1048576.csv"))
        .unwrap();
    let budget = Budget {
        max_nodes: 20_000,
        ..Budget::millis(600_000)
    };
    let p = place(&list, Strategy::Best, &budget).unwrap();
    assert_valid(&name, &list, &p);
    assert!(p.iterations <= 20_000, "{}", p.iterations);
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let budget = Budget {
        cancel: Some(cancel),
        ..Budget::millis(600_000)
    };
    let p = place(&list, Strategy::Best, &budget).unwrap();
    assert_valid(&name, &list, &p);
    assert_eq!(p.iterations, 0);
    assert!(!p.proven_optimal);
}

/// Every phase of `best` and `search` asks the clock (or the cancel flag, which
/// stands in for a spent clock here) within a pass, not only between phases: with
/// the flag set before it starts, `best` on PanGu-2.6B (18,692 buffers, a greedy pass
/// beside 1.2·10^7 overlapping pairs) places nothing with a greedy pass, the anchor,
/// the local search or the search, nor with the sweep, which stops at its first look
/// at the clock and stacks the rest (valid, and `stacked` says how many). A phase that
/// ran to its end regardless would leave a lower peak or count nodes. This is what keeps `memplan plan
/// --budget 30000` at 30 s on IOPDDL S_1 (28,526 buffers; 12 passes of seconds each),
/// where the passes used to complete whatever the time.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn every_phase_stops_within_a_pass_when_the_budget_is_spent() {
    let (name, list) = sets("idealloc")
        .into_iter()
        .find(|(n, _)| n.ends_with("somas_pangu_2.6B.csv"))
        .unwrap();
    let sweep = place(&list, Strategy::Sweep, &Budget::millis(0)).unwrap();
    let greedy = place(&list, Strategy::GreedyBySize, &Budget::millis(0)).unwrap();
    assert!(sweep.peak > greedy.peak, "{name}");
    for strategy in [Strategy::Best, Strategy::Search] {
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let budget = Budget {
            cancel: Some(cancel),
            ..Budget::millis(u64::MAX)
        };
        let p = place(&list, strategy, &budget).unwrap();
        assert_valid(&name, &list, &p);
        // Not even the sweep: it stops at its first look at the clock (1,023 buffers
        // in) and stacks the rest, and says so.
        let n = list.buffers.len();
        assert_eq!(p.stacked, n - 1023, "{name} {strategy}");
        assert!(p.peak > sweep.peak, "{name} {strategy}");
        assert_eq!(p.iterations, 0, "{name} {strategy}");
    }
}

/// The node limit is a hard ceiling on every phase (anchor windows, iterated greedy,
/// local moves, each capacity the search tries), on the hardest sets: MiniMalloc's
/// challenging D and J (bounds 986,112 and 989,184, no plan below the capacity
/// known) and PanGu-2.6B. Same limit, same plan: the result does not depend on the
/// machine.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn best_never_spends_more_nodes_than_its_limit_and_repeats_itself() {
    let hardest = ["D.1048576.csv", "J.1048576.csv", "somas_pangu_2.6B.csv"];
    for (name, list) in sets("minimalloc").into_iter().chain(sets("idealloc")) {
        if !hardest.iter().any(|h| name.ends_with(h)) {
            continue;
        }
        for limit in [1_000, 50_000] {
            let budget = Budget {
                max_nodes: limit,
                ..Budget::millis(u64::MAX)
            };
            let p = place(&list, Strategy::Best, &budget).unwrap();
            assert_valid(&name, &list, &p);
            assert!(p.iterations <= limit, "{name}: {} > {limit}", p.iterations);
            let again = place(&list, Strategy::Best, &budget).unwrap();
            assert_eq!(again.offsets, p.offsets, "{name} {limit}");
        }
    }
}

/// MiniMalloc's challenging D and J end below their capacity (1,048,576), which no
/// public planner did before (MiniMalloc, idealloc, TFLM and TFLite all end at or
/// above it; MiniMalloc finds 1,046,528 for D only when told that capacity): after
/// each plan found, the search tries one size granule (1,024) below it before the
/// bound. Under a node limit, so the result does not depend on the machine.
#[test]
#[ignore = "5.5 min in release on the shared machine: cargo test --release --features tools --test strategies_place -- --ignored"]
fn best_places_challenging_d_and_j_below_their_capacity() {
    let budget = Budget {
        max_nodes: 40_000_000,
        ..Budget::millis(u64::MAX)
    };
    for set in ["D.1048576.csv", "J.1048576.csv"] {
        let (name, list) = sets("minimalloc")
            .into_iter()
            .find(|(n, _)| n.ends_with(set))
            .unwrap();
        let p = place(&list, Strategy::Best, &budget).unwrap();
        assert_valid(&name, &list, &p);
        assert!(p.peak < 1_048_576, "{name}: {}", p.peak);
        assert_eq!(p.peak % 1024, 0, "{name}");
    }
}

#[test]
fn replanned_aidge_plans_keep_their_spaces_and_pass_the_checker() {
    for model in [
        "resnet18",
        "mobilenet_v2",
        "efficientnet_b0",
        "squeezenet1_1",
    ] {
        for kind in ["multi", "single"] {
            let path = format!("{BENCH}/aidge/{model}-{kind}-None/memory_info.txt");
            let bytes = std::fs::read(&path).unwrap();
            let plan = memplan::planning::resolve(&load(&path, &bytes).unwrap()).unwrap();
            let out = replan(&plan, Strategy::Best, &Budget::millis(1000)).unwrap();
            let report = memplan::check::check(&out);
            assert!(report.is_valid(), "{path}: {:?}", report.problems);
            // At or below every placement of the spaces as rectangles: `best` also
            // places them by their live planes and cuts planes out of them.
            let lb = lower_bound(&plan.space_problem());
            assert!(out.peak() <= lb, "{path}: {} > {lb}", out.peak());
            assert!(out.peak() <= plan.peak(), "{path}");
            assert_eq!(out.planes.len(), plan.planes.len());
        }
    }
}

#[test]
fn strategy_names_round_trip() {
    for s in Strategy::ALL {
        assert_eq!(s.name().parse::<Strategy>().unwrap(), s);
    }
    let err = "fastest".parse::<Strategy>().unwrap_err().to_string();
    assert!(
        err.contains("greedy-size") && err.contains("fastest"),
        "{err}"
    );
}

/// The optimum of a tiny list: every canonical placement stacks each buffer right
/// above the placed buffers it meets, for some order; try all orders.
fn brute_force(list: &BufferList) -> u64 {
    fn go(
        list: &BufferList,
        placed: &mut Vec<(usize, u64)>,
        left: &mut Vec<usize>,
        best: &mut u64,
    ) {
        if left.is_empty() {
            let peak = placed
                .iter()
                .map(|&(i, o)| o + list.buffers[i].size)
                .max()
                .unwrap_or(0);
            *best = (*best).min(peak);
            return;
        }
        for k in 0..left.len() {
            let i = left.remove(k);
            let b = &list.buffers[i];
            let at = placed
                .iter()
                .filter(|&&(j, _)| {
                    let c = &list.buffers[j];
                    b.lower < c.upper.max(c.lower + 1) && c.lower < b.upper.max(b.lower + 1)
                })
                .map(|&(j, o)| o + list.buffers[j].size)
                .max()
                .unwrap_or(0);
            placed.push((i, at));
            go(list, placed, left, best);
            placed.pop();
            left.insert(k, i);
        }
    }
    let mut best = u64::MAX;
    go(
        list,
        &mut Vec::new(),
        &mut (0..list.buffers.len()).collect(),
        &mut best,
    );
    best
}

fn lists(max: usize) -> impl proptest::strategy::Strategy<Value = BufferList> {
    prop::collection::vec((0u32..12, 0u32..6, 0u64..40), 0..max).prop_map(|v| BufferList {
        buffers: v
            .into_iter()
            .enumerate()
            .map(|(i, (lower, len, size))| Buffer::new(i.to_string(), lower, lower + len, size))
            .collect(),
        capacity: None,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_strategy_is_valid_on_random_lists(list in lists(40)) {
        for s in Strategy::ALL {
            let p = place(&list, s, &Budget::millis(50)).unwrap();
            prop_assert!(overlap_free(&list, &p.offsets).is_ok());
            // `to_plan` needs a step for every buffer; degenerate lifetimes are
            // covered by the checker above.
            if list.buffers.iter().all(|b| b.upper > b.lower) {
                prop_assert!(memplan::check::check(&list.to_plan(&p.offsets)).is_valid());
            }
            prop_assert_eq!(p.lower_bound, lower_bound(&list));
            prop_assert!(p.peak >= p.lower_bound);
        }
    }

    #[test]
    fn search_finds_the_optimum_of_tiny_lists(list in lists(7)) {
        let p = place(&list, Strategy::Search, &Budget::millis(2000)).unwrap();
        prop_assert!(p.proven_optimal);
        prop_assert_eq!(p.peak, brute_force(&list));
    }
}

/// `--budget` is a promise for the whole command: what reading took and what
/// writing will take come off the planner's time, never off its node limit (a
/// node-bounded run gives the same plan however long the file took to read).
#[test]
fn a_budget_for_the_whole_command_leaves_the_node_limit_alone() {
    let whole = Budget::whole(2000, 300, 1200);
    assert_eq!(whole.millis, 500);
    assert_eq!(whole.max_nodes, Budget::millis(2000).max_nodes);
    // Reading and writing past the budget: the planner still runs (the sweep ends).
    assert_eq!(Budget::whole(2000, 1500, 1200).millis, 1);
}

/// "A bound that best beats is no bound": on every buffer list committed under
/// `tests/data/bench`, `best` (a node limit: deterministic, seconds in release) ends
/// at or above the lower bound it reports, that bound is the largest number of bytes
/// live at one clock (computed here), and the plan is valid (`memplan::check` and
/// this file's own checker).
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn the_bound_is_never_above_best_on_any_committed_set() {
    let budget = Budget {
        max_nodes: 20_000,
        ..Budget::millis(u64::MAX)
    };
    for dir in ["minimalloc", "idealloc", "models", "aidge-spaces"] {
        for (name, list) in sets(dir) {
            let best = place(&list, Strategy::Best, &budget).unwrap();
            assert_valid(&name, &list, &best);
            assert!(best.lower_bound <= best.peak, "{name}");
            if list.buffers.len() <= 2000 {
                assert_eq!(best.lower_bound, lower_bound(&list), "{name}");
            }
        }
    }
}

/// A sweep over time keeping the live address ranges sorted: no two buffers live at
/// one clock share a byte (O(n log n), for lists too long for `overlap_free`).
fn sweep_valid(list: &BufferList, offsets: &[u64]) -> Result<(), String> {
    let mut events: Vec<(u32, bool, usize)> = Vec::new();
    for (i, b) in list.buffers.iter().enumerate() {
        if b.size > 0 {
            events.push((b.lower, true, i));
            events.push((b.upper.max(b.lower + 1), false, i));
        }
    }
    events.sort();
    let mut live = std::collections::BTreeSet::new();
    for (t, start, i) in events {
        let r = (offsets[i], offsets[i] + list.buffers[i].size, i);
        if !start {
            live.remove(&r);
            continue;
        }
        let below = live
            .range(..r)
            .next_back()
            .is_some_and(|p: &(u64, u64, usize)| p.1 > r.0);
        let above = live
            .range(r..)
            .next()
            .is_some_and(|n: &(u64, u64, usize)| n.0 < r.1);
        if below || above {
            return Err(format!(
                "buffer {} overlaps another at clock {t}",
                list.buffers[i].id
            ));
        }
        live.insert(r);
    }
    Ok(())
}

/// A list too large for the exact search (more than 50,000 buffers), with 4,000 small
/// buffers live over the first half of the horizon as IOPDDL S_1's parameters are:
/// `best` runs the repair under a capacity (on blocks of buffers of one lifetime,
/// then on the buffers) after the greedy passes and the local search. Its plan is
/// valid, at or above the bound, never above TFLite's pass, and the same node limit
/// gives the same plan. About 140 s in release on the loaded 2-core machine (the
/// greedy passes and the anchor over 54,500 buffers, twice), too long for CI: run it
/// with `cargo test --release --features tools --test strategies_place -- --ignored`.
/// CI runs `repair`'s unit tests and `the_bound_is_never_above_best_on_any_committed_set`.
#[test]
#[ignore = "about 140 s in release: run with --ignored"]
fn best_repairs_large_lists_validly_and_repeats_itself() {
    let mut list = memplan::tools::bench::synthetic(50_500, 3);
    let horizon = list.buffers.iter().map(|b| b.upper).max().unwrap();
    for k in 0..4_000u64 {
        let id = format!("param{k}");
        list.buffers
            .push(Buffer::new(id, 0, horizon / 2, 64 + 16 * (k % 9)));
    }
    let budget = Budget {
        max_nodes: 200_000,
        ..Budget::millis(u64::MAX)
    };
    let best = place(&list, Strategy::Best, &budget).unwrap();
    sweep_valid(&list, &best.offsets).unwrap();
    assert!(memplan::check::check(&list.to_plan(&best.offsets)).is_valid());
    assert!(best.peak >= best.lower_bound);
    let tflite = place_pass(&list, Pass::TFLITE).unwrap();
    assert!(best.peak <= tflite.peak, "{} > {}", best.peak, tflite.peak);
    let again = place(&list, Strategy::Best, &budget).unwrap();
    assert_eq!(again.offsets, best.offsets);
}

/// The dense trace of `node scripts/gen-synthetic.mjs n --dense` (the same formulas):
/// four buffers start per clock and live 1 to 1,249 clocks, about 2,500 live at once,
/// of 64 B to 8 KiB.
fn dense_trace(n: u32) -> BufferList {
    let buffers = (0..n)
        .map(|i| {
            let lower = i / 4;
            let upper = lower + 1 + i.wrapping_mul(2_654_435_761) % 1249;
            let size = 64 * (1 + (u64::from(i) * 37) % 127);
            Buffer::new(format!("b{i}"), lower, upper, size)
        })
        .collect();
    BufferList {
        buffers,
        capacity: None,
    }
}

/// On the dense trace of 10^4 buffers the sweep is the lowest greedy placement,
/// 2.30 % over the bound; its variant that puts a buffer next to one freed at about
/// the same clock (`sweep::place_near`) is 1.99 % over, and `best` keeps it (under a
/// node limit, which leaves the passes and both sweeps their time; the local search
/// and the exact search get too few nodes to move the peak much). A second run gives
/// the same plan.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only: minutes in a debug build")]
fn best_keeps_the_near_sweep_on_a_dense_trace() {
    let list = dense_trace(10_000);
    let budget = Budget {
        max_nodes: 20_000,
        ..Budget::millis(u64::MAX)
    };
    let best = place(&list, Strategy::Best, &budget).unwrap();
    sweep_valid(&list, &best.offsets).unwrap();
    assert_eq!(best.lower_bound, 10_550_656);
    let sweep = place(&list, Strategy::Sweep, &budget).unwrap();
    assert_eq!(sweep.peak, 10_793_600);
    // +2.1 %: between the near sweep's +1.99 % and the sweep's +2.30 %.
    assert!(
        best.peak * 1000 <= best.lower_bound * 1021,
        "{} is {:.3} % over the bound",
        best.peak,
        (best.peak - best.lower_bound) as f64 * 100.0 / best.lower_bound as f64
    );
    let again = place(&list, Strategy::Best, &budget).unwrap();
    assert_eq!(again.offsets, best.offsets);
}
