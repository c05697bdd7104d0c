//! `cargo run --release --example bench -- [--millis N] [--synthetic] PATH...`: the
//! strategies benchmark as a Markdown table (see docs/benchmarks.md).

use memplan::strategies::{bench, bench_lists, synthetic, Budget};
use std::path::PathBuf;

fn main() {
    let mut millis = 2000;
    let mut paths = Vec::new();
    let mut synth = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--millis" => millis = args.next().and_then(|v| v.parse().ok()).unwrap_or(millis),
            "--synthetic" => synth = true,
            _ => paths.push(PathBuf::from(a)),
        }
    }
    let budget = Budget::millis(millis);
    if synth {
        let sets: Vec<_> = [1_000, 10_000, 60_000, 250_000]
            .into_iter()
            .map(|n| (format!("synthetic {n}"), Ok(synthetic(n, 1))))
            .collect();
        print!("{}", bench_lists(&sets, &budget));
    }
    if !paths.is_empty() {
        print!("{}", bench(&paths, &budget));
    }
}
