// Everything a dropped file reaches, on arbitrary bytes: every reader, the plan it
// resolves to, the checker, the stats, every writer, the drivers with every option,
// every placement strategy, replanning and the chart (layout, render, hit-testing).
// Shared by the libFuzzer targets (`fuzz/`) and the proptest mutation pass
// (`tests/mutation.rs`) with `include!`, so both exercise the same paths.
//
// Panics are the findings; errors are fine. Two properties are asserted besides: what
// memplan writes as memplan JSON reads back, and a plan with its stats and report
// crosses the worker hand-off (`formats::wire`) unchanged. The bytes themselves are
// also decoded as a hand-off, which must fail cleanly.

use memplan::drivers::{self, Driver, DriverOptions};
use memplan::formats::{self, wire, Export};
use memplan::manager::OptimizeStrategy as Optimize;
use memplan::scene::{self, Chart, RecordingPainter, View};
use memplan::strategies::{self, Budget};

/// The names a file is dropped with: the extension is a hint the readers use.
pub const NAMES: [&str; 4] = ["dump.json", "memory_info.txt", "set.csv", "set.iree.csv"];

pub fn exercise(name: &str, bytes: &[u8]) {
    if let Ok(h) = wire::decode(bytes) {
        let _ = Chart::with(h.plan, h.stats, h.report);
    }
    let Ok(doc) = formats::load(name, bytes) else {
        return;
    };
    let again = formats::memplan_json::write(&doc);
    if let Err(e) = formats::load("again.json", again.as_bytes()) {
        panic!("memplan JSON written from {name} does not read back: {e}\n{again}");
    }
    for export in [
        Export::Memplan,
        Export::AidgeLog(None),
        Export::Csv,
        Export::Header,
        Export::MemInfo,
    ] {
        let _ = memplan::planning::export(&doc, export);
    }
    if let Some(schedule) = &doc.schedule {
        // Small schedules only: the drivers are exact, not fast, on huge inputs.
        if schedule.nodes.len() <= 64 {
            for driver in [Driver::MultipleMems, Driver::Memory, Driver::AutoConcat] {
                for (wrap_around, inc_producers, optimize, alignment) in [
                    (false, false, None, 1),
                    (true, true, Some(Optimize::MaxHoleMaxLifetimeFirst), 64),
                    (true, false, Some(Optimize::MaxLifetimeMinSizeFirst), 3),
                ] {
                    let opts = DriverOptions {
                        driver,
                        wrap_around,
                        inc_producers,
                        optimize,
                        alignment,
                        ..DriverOptions::default()
                    };
                    if let Ok(plan) = drivers::generate(schedule, &opts) {
                        let _ = memplan::check::check(&plan);
                    }
                }
            }
        }
    }
    let budget = Budget::millis(2);
    if let Some(list) = &doc.buffers {
        if list.buffers.len() <= 256 {
            for s in strategies::Strategy::ALL {
                let _ = strategies::place(list, s, &budget);
            }
        }
    }
    let Ok(plan) = memplan::planning::resolve(&doc) else {
        return;
    };
    let report = memplan::check::check(&plan);
    let stats = memplan::stats::stats(&plan);
    let sent = wire::encode(&plan, &stats, &report);
    match wire::decode(&sent) {
        Ok(h) if h.plan == plan && h.stats == stats && h.report == report => {}
        Ok(_) => panic!("{name}: the plan changed through the worker hand-off"),
        Err(e) => panic!("{name}: the worker hand-off does not read back: {e}"),
    }
    if plan.spaces.len() <= 256 {
        let _ = strategies::replan(&plan, strategies::Strategy::GreedyBySize, &budget);
    }
    let chart = Chart::new(plan);
    let mut view = View::fit(&chart, 800.0, 500.0, 2.0);
    let mut painter = RecordingPainter::new();
    let _ = scene::render(&chart, &view, &scene::Options::default(), &mut painter);
    view.zoom_time(&chart, 400.0, 8.0);
    view.zoom_address(&chart, 250.0, 1e6);
    view.pan(&chart, -37.0, 11.0);
    let _ = scene::render(&chart, &view, &scene::Options::default(), &mut painter);
    for (x, y) in [(10.0, 10.0), (400.0, 250.0), (799.0, 499.0)] {
        let _ = scene::hit_test(&chart, &view, x, y);
    }
}
