//! The benchmark: every strategy on every data set, as a Markdown table (peak, peak /
//! lower bound, time), each placement checked by [`crate::check::check`].

use crate::formats::csv::{self, CsvOptions};
use crate::model::{Buffer, BufferList};
use crate::strategies::{place, place_pass, rng, Budget, Pass, Placement, Strategy};
use std::fmt::Write;
use std::path::PathBuf;

/// Benchmarks the CSV files named (directories: their `*.csv`, sorted). Files that do
/// not read become a row saying why.
pub fn bench(paths: &[PathBuf], budget: &Budget) -> String {
    bench_lists(&read_sets(paths), budget)
}

/// The CSV files named (directories: their `*.csv`, sorted), read as buffer lists
/// under their file names, or the reason one could not be read.
pub fn read_sets(paths: &[PathBuf]) -> Vec<(String, Result<BufferList, String>)> {
    let mut files = Vec::new();
    for p in paths {
        match std::fs::read_dir(p) {
            Ok(dir) => {
                let mut inside: Vec<PathBuf> = dir
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|f| f.extension().is_some_and(|x| x == "csv"))
                    .collect();
                inside.sort();
                files.extend(inside);
            }
            Err(_) => files.push(p.clone()),
        }
    }
    let mut sets = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let read = std::fs::read_to_string(&f)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                csv::read(&text, &CsvOptions::for_file(&name))
                    .map(|(list, _)| list)
                    .map_err(|e| e.to_string())
            });
        let short = f
            .file_name()
            .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        sets.push((short, read));
    }
    sets
}

/// The table for named buffer lists (or the reason one could not be read).
pub fn bench_lists(sets: &[(String, Result<BufferList, String>)], budget: &Budget) -> String {
    bench_table(sets, budget, &Strategy::ALL)
}

/// The table for named buffer lists with the `strategies` given, in that order.
pub fn bench_table(
    sets: &[(String, Result<BufferList, String>)],
    budget: &Budget,
    strategies: &[Strategy],
) -> String {
    let mut out = String::from("| set | buffers | lower bound |");
    for s in strategies {
        let _ = write!(out, " {s} |");
    }
    out.push_str("\n|---|---:|---:|");
    out.push_str(&"---:|".repeat(strategies.len()));
    out.push('\n');
    for (name, list) in sets {
        let list = match list {
            Ok(l) => l,
            Err(e) => {
                let _ = writeln!(out, "| {name} | unreadable: {} |", e.replace('|', "/"));
                continue;
            }
        };
        let _ = write!(out, "| {name} | {} |", list.buffers.len());
        let mut lb_written = false;
        for &s in strategies {
            match place(list, s, budget) {
                Ok(p) => {
                    if !lb_written {
                        let _ = write!(out, " {} |", thousands(p.lower_bound));
                        lb_written = true;
                    }
                    out.push_str(&cell(list, &p));
                }
                Err(e) => {
                    if !lb_written {
                        out.push_str(" – |");
                        lb_written = true;
                    }
                    let _ = write!(out, " error: {} |", e.to_string().replace('|', "/"));
                }
            }
        }
        out.push('\n');
    }
    out
}

/// One table cell: peak (peak / lower bound[, opt][, fits/over]; time), flagged
/// **INVALID** if the checker refuses the placement.
fn cell(list: &BufferList, p: &Placement) -> String {
    let valid = crate::check::check(&list.to_plan(&p.offsets)).is_valid();
    let ratio = if p.lower_bound == 0 {
        1.0
    } else {
        p.peak as f64 / p.lower_bound as f64
    };
    let fits = match list.capacity {
        Some(c) if p.peak <= c => " fits",
        Some(_) => " over",
        None => "",
    };
    format!(
        " {} ({ratio:.4}{}{fits}; {}){} |",
        thousands(p.peak),
        if p.proven_optimal { ", opt" } else { "" },
        ms(p.elapsed_ms as f64),
        if valid { "" } else { " **INVALID**" },
    )
}

/// The table of every greedy pass ([`Pass::ALL`], the tie rules compared) and the
/// sweep on named buffer lists.
pub fn bench_passes(sets: &[(String, Result<BufferList, String>)]) -> String {
    let mut out = String::from("| set | buffers | lower bound |");
    for pass in Pass::ALL {
        let _ = write!(out, " {} |", pass.name());
    }
    out.push_str(" sweep |\n|---|---:|---:|");
    out.push_str(&"---:|".repeat(Pass::ALL.len() + 1));
    out.push('\n');
    for (name, list) in sets {
        let Ok(list) = list else { continue };
        let mut row = String::new();
        let mut lower_bound = 0;
        for pass in Pass::ALL {
            match place_pass(list, pass) {
                Ok(p) => {
                    lower_bound = p.lower_bound;
                    row.push_str(&cell(list, &p));
                }
                Err(e) => {
                    let _ = write!(row, " error: {} |", e.to_string().replace('|', "/"));
                }
            }
        }
        match place(list, Strategy::Sweep, &Budget::millis(0)) {
            Ok(p) => row.push_str(&cell(list, &p)),
            Err(e) => {
                let _ = write!(row, " error: {} |", e.to_string().replace('|', "/"));
            }
        }
        let n = list.buffers.len();
        let _ = writeln!(out, "| {name} | {n} | {} |{row}", thousands(lower_bound));
    }
    out
}

fn ms(v: f64) -> String {
    if v < 1.0 {
        "<1 ms".into()
    } else if v < 10_000.0 {
        format!("{v:.0} ms")
    } else {
        format!("{:.1} s", v / 1000.0)
    }
}

fn thousands(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (k, ch) in s.chars().enumerate() {
        if k > 0 && (s.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A reproducible synthetic set of `n` buffers shaped like a network's activations:
/// short lifetimes (1–8 steps, now and then a long skip connection) over `n / 2`
/// steps, sizes from 64 bytes to 1 MiB. Same `n` and `seed`, same list.
pub fn synthetic(n: usize, seed: u64) -> BufferList {
    let mut next = rng::splitmix64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let steps = (n as u64 / 2).max(1);
    let buffers = (0..n)
        .map(|i| {
            let lower = (next() % steps) as u32;
            let len = if next() % 20 == 0 {
                8 + next() % 64
            } else {
                1 + next() % 8
            };
            let size = 64u64 << (next() % 15);
            Buffer::new(
                i.to_string(),
                lower,
                lower + len as u32,
                size + 64 * (next() % 16),
            )
        })
        .collect();
    BufferList {
        buffers,
        capacity: None,
    }
}
