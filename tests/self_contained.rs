//! A clone of memplan is self-contained: no tracked file reads the reference folder that
//! sits next to the main checkout (`shared/`), which a user's clone does not have.
//! Test data lives in `tests/data/bench` instead (its README says where it came from).

use std::path::Path;
use std::process::Command;

/// The two spellings of the reference folder, built at run time so this file does not
/// match itself.
fn needles() -> [String; 2] {
    let folder = ["sha", "red"].concat();
    [format!("../{folder}"), format!("/work/{folder}")]
}

#[test]
fn no_tracked_file_reads_the_reference_folder_beside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("git")
        // Tracked files and new ones not yet added (but not ignored build output).
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root)
        .output()
        .expect("git runs (this test lists the tracked files)");
    assert!(
        out.status.success(),
        "git ls-files failed in {}: {}",
        root.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let files: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("UTF-8 file names")
        .split('\0')
        .filter(|f| !f.is_empty())
        .collect();
    assert!(
        files.contains(&"Cargo.toml"),
        "git ls-files listed the repository"
    );
    let needles = needles();
    let mut found = Vec::new();
    for file in files {
        // A tracked file deleted in the work tree cannot read anything.
        let Ok(bytes) = std::fs::read(root.join(file)) else {
            continue;
        };
        for needle in &needles {
            let hits = bytes
                .windows(needle.len())
                .filter(|w| *w == needle.as_bytes())
                .count();
            if hits > 0 {
                found.push(format!("{file}: {hits} × {needle}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "tracked files refer to the reference folder beside the repository; use tests/data/bench:\n{}",
        found.join("\n")
    );
}
