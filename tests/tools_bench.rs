//! The strategies benchmark (`src/tools/bench.rs`, feature `tools`): what
//! docs/benchmarks.md's tables are made with.

use memplan::strategies::Budget;
use std::path::Path;

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench");

#[test]
fn bench_table_has_a_checked_row_per_set_and_names_unreadable_files() {
    let paths = [
        Path::new(BENCH).join("models"),
        Path::new("/nonexistent/x.csv").to_path_buf(),
    ];
    let table = memplan::tools::bench::bench(&paths, &Budget::millis(100));
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert_eq!(rows.len(), 5, "{table}");
    assert!(!table.contains("INVALID"), "{table}");
    assert!(
        rows[..4]
            .iter()
            .all(|r| r.matches("(1.0000, opt").count() >= 2),
        "{table}"
    );
    assert!(
        rows[4].contains("x.csv") && rows[4].contains("unreadable"),
        "{table}"
    );
}
