//! `cargo run --release --features tools --example bench -- [--millis N] [--only S,S...] [--synthetic] [--passes] PATH...`:
//! the strategies benchmark as a Markdown table (see docs/benchmarks.md). `--only`
//! names the strategies to run (default: all); `--passes` prints every greedy pass
//! (tie rule and fit) and the sweep instead.

use memplan::strategies::{Budget, Strategy};
use memplan::tools::bench::{bench_passes, bench_table, read_sets, synthetic};
use std::path::PathBuf;

fn main() {
    let mut millis = 2000;
    let mut paths = Vec::new();
    let mut synth = false;
    let mut passes = false;
    let mut only: Vec<Strategy> = Strategy::ALL.to_vec();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--millis" => millis = args.next().and_then(|v| v.parse().ok()).unwrap_or(millis),
            "--synthetic" => synth = true,
            "--passes" => passes = true,
            "--only" => {
                let names = args.next().unwrap_or_default();
                match names.split(',').map(str::parse).collect() {
                    Ok(list) => only = list,
                    Err(e) => {
                        eprintln!("--only: {e}");
                        std::process::exit(2);
                    }
                }
            }
            _ => paths.push(PathBuf::from(a)),
        }
    }
    let budget = Budget::millis(millis);
    let mut sets: Vec<_> = Vec::new();
    if synth {
        sets.extend(
            [1_000, 10_000, 60_000, 250_000]
                .into_iter()
                .map(|n| (format!("synthetic {n}"), Ok(synthetic(n, 1)))),
        );
    }
    sets.extend(read_sets(&paths));
    if passes {
        print!("{}", bench_passes(&sets));
    } else {
        print!("{}", bench_table(&sets, &budget, &only));
    }
}
