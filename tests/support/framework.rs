// What every framework's plan must allow, shared by tests/formats_{xla,iree,executorch}.rs
// (included, not a module: each test binary compiles its own copy).

use memplan::formats::{self, Document, Export};
use memplan::model::Plan;
use memplan::strategies::{self, Budget, Strategy};

/// A fixture's path and bytes.
fn fixture(path: &str) -> (String, Vec<u8>) {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    (full, bytes)
}

fn fixture_text(path: &str) -> String {
    String::from_utf8(fixture(path).1).unwrap()
}

/// The plan checks clean; every strategy re-places it validly; `best` is, component by
/// component, no worse than the framework's own plan and no better than the lower bound.
fn replans_within_bounds(name: &str, plan: &Plan) {
    let report = memplan::check::check(plan);
    assert!(report.is_valid(), "{name}: {report:?}");
    let stats = memplan::stats::stats(plan);
    for strategy in Strategy::ALL {
        let out = strategies::replan(plan, strategy, &Budget::millis(200))
            .unwrap_or_else(|e| panic!("{name} {strategy}: {e}"));
        let report = memplan::check::check(&out);
        assert!(report.is_valid(), "{name} {strategy}: {report:?}");
        if strategy == Strategy::Best {
            for (c, (after, before)) in out.peaks().iter().zip(plan.peaks()).enumerate() {
                let bound = stats.components[c].lower_bound;
                assert!(
                    bound <= *after && *after <= before,
                    "{name} component {c}: best {after}, file {before}, bound {bound}"
                );
            }
        }
    }
}

/// The plan written as MiniMalloc CSV reads back as a valid plan of the same
/// buffers: components laid end to end, never overlapping.
fn csv_reads_back(name: &str, doc: &Document) {
    let plan = memplan::planning::resolve(doc).unwrap();
    let csv = memplan::planning::export(doc, Export::Csv).unwrap();
    let back = formats::load("back.csv", csv.as_bytes()).unwrap();
    let back = memplan::planning::resolve(&back).unwrap();
    let report = memplan::check::check(&back);
    assert!(report.is_valid(), "{name} as CSV: {report:?}");
    assert_eq!(back.spaces.len(), plan.spaces.len(), "{name}");
    assert_eq!(back.peak(), plan.peaks().iter().sum::<u64>(), "{name}");
}

/// The error's text starts with `file: line L, column C: ` and says `what`.
fn refused_at(e: &memplan::Error, file: &str, line: usize, what: &str) {
    let text = e.to_string();
    assert!(
        text.starts_with(&format!("{file}: line {line}, column ")),
        "{text}"
    );
    assert!(text.contains(what), "{text}");
}
