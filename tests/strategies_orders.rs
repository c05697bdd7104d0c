//! `best` on a schedule tries the orders of its parallel branches the graph allows
//! (`planning::orders`): the lower bound of a plan does not depend on which branch
//! runs first, wrap-around reuse does. ShuffleNet-v2 x1.0 (the ONNX corpus' weight-free
//! torchvision export, read as `memplan plan MODEL.onnx --from schedule` reads it) with
//! its branches run depth first ends at the per-plane bound of its own plan, not above
//! that of Aidge's wrap-around + `OptimizeMaxLifetimeMaxSizeFirst` plan of its own
//! order, and the schedule that comes back runs the nodes in the plan's order. (Before
//! memplan ran each Shape after the node it reads, as Aidge's scheduler does, instead of
//! all at the start, the given order ended above that bound and best below it: the
//! gain came from memplan's order, not Aidge's; x0.5 now has nothing to reorder.) Deterministic: a node
//! budget decides, not the clock.

use memplan::check::check;
use memplan::drivers::{self, Driver, DriverOptions};
use memplan::manager::OptimizeStrategy;
use memplan::planning::{Request, Session, Source};
use memplan::stats::stats;

include!("support/planning.rs");

fn model(name: &str) -> Vec<u8> {
    gunzip(&format!("onnx/corpus/{name}.onnx.gz"))
}

#[test]
fn shufflenet_branches_run_depth_first_reach_the_per_plane_bound() {
    {
        let name = "shufflenet_v2_x1_0";
        let mut session = Session::open(&format!("{name}.onnx"), &model(name)).unwrap();
        let given = session.document().schedule.clone().unwrap();
        // Aidge's wrap-around + optimize plan of the schedule in its own order, and
        // the per-plane bound no placement of that plan's planes can go under.
        let wrap = DriverOptions {
            driver: Driver::Memory,
            wrap_around: true,
            optimize: Some(OptimizeStrategy::MaxLifetimeMaxSizeFirst),
            ..DriverOptions::default()
        };
        let aidge = stats(&drivers::generate(&given, &wrap).unwrap());
        let mut request = Request::new("best", nodes(2_000_000)).unwrap();
        request.from = Some(Source::Schedule);
        let (plan, report) = session.plan(&request).unwrap();
        let findings = check(&plan);
        assert!(findings.is_valid(), "{name}: {findings:?}");
        let s = stats(&plan);
        assert_eq!(report.peak, s.peak.to_string());
        assert!(
            s.peak <= aidge.lower_bound,
            "{name}: best {} above the per-plane bound {} of the given order's \
             wrap-around plan",
            s.peak,
            aidge.lower_bound
        );
        assert_eq!(s.peak, s.lower_bound, "{name}: not at its own bound");
        // The plan runs the nodes in another order; the schedule given back has it
        // (every node once, parents first) and the plan's steps follow it.
        assert!(session.reordered(), "{name}");
        // ... and the report says so, for the page and the CLI to tell the user.
        assert!(
            report.order.is_some(),
            "{name}: the reordering is not reported"
        );
        let order = session.schedule().unwrap();
        order.validate().unwrap();
        assert_ne!(order, &given, "{name}");
        let mut names: Vec<&str> = order.nodes.iter().map(|n| n.name.as_str()).collect();
        let steps: Vec<&str> = plan.steps.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            steps, names,
            "{name}: the plan's steps are not the schedule's nodes"
        );
        let mut before: Vec<&str> = given.nodes.iter().map(|n| n.name.as_str()).collect();
        names.sort_unstable();
        before.sort_unstable();
        assert_eq!(names, before, "{name}: not the same nodes");
    }
}

#[test]
fn a_plan_in_the_files_order_gives_back_the_files_schedule() {
    // SqueezeNet-1.1 reaches its bound in its own order: no reordering is kept.
    let mut session = Session::open("squeezenet1_1.onnx", &model("squeezenet1_1")).unwrap();
    let mut request = Request::new("best", nodes(500_000)).unwrap();
    request.from = Some(Source::Schedule);
    let (plan, report) = session.plan(&request).unwrap();
    assert!(check(&plan).is_valid());
    assert!(!session.reordered());
    assert_eq!(report.order, None);
    assert_eq!(session.schedule(), session.document().schedule.as_ref());
}

/// DenseNet-121 (issue #38): each dense layer's output is the last plane of the
/// space its Concat opened, and every later Concat of the block reads it, so it pins
/// a wide space to the block's end. `best` cuts every chain before its last planes
/// (`strategies::carve`; a plane cut alone out of a wrapped chain is laid out
/// contiguous) and ends at the bound of its own plan, below the per-plane bound of
/// Aidge's wrap-around plan of the given order (6,562,304 B) and below the
/// auto-concat plan `best` ended at before (7,225,344 B).
#[test]
fn densenet_layer_outputs_cut_out_of_their_concat_spaces() {
    let mut session = Session::open("densenet121.onnx", &model("densenet121")).unwrap();
    let given = session.document().schedule.clone().unwrap();
    let wrap = DriverOptions {
        driver: Driver::Memory,
        wrap_around: true,
        ..DriverOptions::default()
    };
    let aidge = stats(&drivers::generate(&given, &wrap).unwrap());
    assert_eq!(aidge.lower_bound, 6_562_304);
    let mut request = Request::new("best", nodes(2_000_000)).unwrap();
    request.from = Some(Source::Schedule);
    let (plan, report) = session.plan(&request).unwrap();
    let findings = check(&plan);
    assert!(findings.is_valid(), "{findings:?}");
    let s = stats(&plan);
    println!(
        "densenet121: best {}, its bound {}, layouts' bound {:?}",
        s.peak, s.lower_bound, report.layouts_bound
    );
    assert!(
        s.peak <= aidge.lower_bound,
        "best {} above the wrap-around plan's per-plane bound {}",
        s.peak,
        aidge.lower_bound
    );
    assert_eq!(s.peak, s.lower_bound, "not at its own bound");
    // At the lowest bound of every layout `best` makes of the schedule: no plan
    // memplan can make of it is lower.
    assert_eq!(report.layouts_bound, Some(s.peak.to_string()));
    assert!(report.proven_optimal);
}
