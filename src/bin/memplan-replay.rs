//! `memplan-replay FILE`: runs every operation sequence of FILE (one JSON array
//! per line, the language of `memplan::tools::replay`) through the manager and
//! prints one JSON state per line, in order. A malformed line prints
//! `{"input_error": "..."}` so the batch keeps its alignment. Used by the parity
//! test against the aidge_core wheel (tests/parity/manager_diff.py).

use std::io::{BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: memplan-replay FILE   (one JSON operation list per line)");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let state = memplan::tools::replay::replay_json(line).unwrap_or_else(|e| {
            let e = e.in_file(format!("{path}:{}", i + 1));
            serde_json::json!({ "input_error": e.to_string() }).to_string()
        });
        if writeln!(out, "{state}").is_err() {
            return ExitCode::from(1);
        }
    }
    if out.flush().is_err() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
