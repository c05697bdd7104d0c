// Gzipped fixtures and the node-bounded budget of the deterministic planning tests,
// shared by tests/strategies_{shapes,orders}.rs (included, not a module: each test
// binary compiles its own copy).

/// The bytes of a gzipped file under tests/data.
fn gunzip(path: &str) -> Vec<u8> {
    use std::io::Read;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut bytes)
        .unwrap();
    bytes
}

/// A budget the node limit decides on any machine.
fn nodes(max_nodes: u64) -> memplan::strategies::Budget {
    memplan::strategies::Budget {
        millis: 600_000,
        max_nodes,
        ..memplan::strategies::Budget::default()
    }
}
