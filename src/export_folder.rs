//! Reads a generated Aidge export folder for [`crate::export_check`]: a shell helper
//! of the CLI (`memplan check --export DIR`) and the Python module
//! (`memplan.aidge.check_export`), the one place that knows where the exports keep
//! forward.cpp and the layer headers.

use crate::error::Error;
use std::path::{Path, PathBuf};

/// Where aidge-export-cpp and aidge-export-arm-cortexm 0.10.1 write `forward.cpp`.
const FORWARD: [&str; 3] = ["dnn/src/forward.cpp", "src/forward.cpp", "forward.cpp"];

/// forward.cpp's text and every `.h` under the export's include folder (parameters
/// excepted: weights only), as (path relative to `dir`, text), sorted by path.
pub fn read(dir: &Path) -> Result<(String, Vec<(String, String)>), Error> {
    let shown = dir.display().to_string();
    if !dir.is_dir() {
        return Err(Error::whole("not a folder (expected an Aidge export folder)").in_file(shown));
    }
    let forward = FORWARD
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            Error::whole(format!(
                "no forward.cpp (looked for {}): is this an Aidge export folder?",
                FORWARD.join(", ")
            ))
            .in_file(shown.clone())
        })?;
    let text = std::fs::read_to_string(&forward)
        .map_err(|e| Error::whole(e.to_string()).in_file(forward.display().to_string()))?;
    let include = forward
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("include"))
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| dir.to_path_buf());
    let mut files = Vec::new();
    walk(&include, &mut files)?;
    files.sort();
    let mut headers = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f)
            .map_err(|e| Error::whole(e.to_string()).in_file(f.display().to_string()))?;
        let name = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
        headers.push((name, text));
    }
    Ok((text, headers))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::whole(e.to_string()).in_file(dir.display().to_string()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "parameters") {
                walk(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "h") {
            out.push(path);
        }
    }
    Ok(())
}
