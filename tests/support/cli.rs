// The `memplan` binary as the CLI tests run it, shared by tests/cli_plan.rs and
// tests/cli_output.rs (included, not a module: each test binary compiles its own copy).

fn memplan() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("memplan").unwrap()
}

/// A fresh directory for one test's files, removed when the test drops it, so runs
/// never share one and leave nothing behind. Keep it alive until the command under
/// test has run (`let dir = scratch();`): a directory dropped before makes a "was not
/// written" assertion pass for the wrong reason.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(concat!("memplan-", env!("CARGO_CRATE_NAME"), "-"))
        .tempdir()
        .unwrap()
}

/// The peak `memplan stats --json` reports for a file.
fn peak(file: &std::path::Path) -> u64 {
    let out = memplan()
        .args(["stats", "--json"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["peak"].as_u64().unwrap()
}
