// The `memplan` binary as the CLI tests run it, shared by tests/cli_plan.rs and
// tests/cli_output.rs (included, not a module: each test binary compiles its own copy).

fn memplan() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("memplan").unwrap()
}

/// A file in a directory of this test binary and process, so runs never share one.
fn out_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "memplan-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
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
