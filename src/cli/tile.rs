//! `memplan tile MODEL --fast SIZE -o tiled.onnx`: the model's first layers run
//! patch by patch ([`crate::tiling`]) so its peak fits the fast memory.

use super::commands::{display, parse_dims};
use crate::tiling::{self, Options, Tiling};
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct TileArgs {
    /// An ONNX model (one N, C, H, W image input).
    pub file: PathBuf,
    /// The fast memory's size: bytes, or with a unit (`256K`, `1M`, `1.5M`; K = 1024).
    #[arg(long, value_parser = parse_size)]
    pub fast: u64,
    /// The model's symbolic input dims, as NAME=N (those not given are 1).
    #[arg(long, value_delimiter = ',')]
    pub dims: Vec<String>,
    /// The tiled model (ONNX).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Time budget of the search, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    pub budget: u64,
}

/// `256K`, `1M`, `1.5M`, `300000`: bytes (K, M, G are powers of 1024).
fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let scale: f64 = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1.0,
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("`{text}`: expected bytes or a size like 256K, 1M")),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 0.0 => Ok((n * scale).round() as u64),
        _ => Err(format!("`{text}`: expected bytes or a size like 256K, 1M")),
    }
}

fn mb(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.0} kB", bytes as f64 / 1024.0)
    }
}

fn human(t: &Tiling) -> String {
    let mut out = String::new();
    for s in &t.stages {
        out += &format!(
            "tile {}…{} in {}×{} patches: {} → {}, +{:.1} % MACs\n  \
             cut '{}', patches of {}×{} (input {}×{}, halo {}×{})\n",
            s.first,
            s.last,
            s.rows,
            s.cols,
            mb(s.peak_before),
            mb(s.peak_after),
            s.macs_added_percent,
            s.cut,
            s.tile[0],
            s.tile[1],
            s.input_tile[0],
            s.input_tile[1],
            s.halo[0],
            s.halo[1],
        );
    }
    if let Some(e) = &t.ended_by {
        out += &format!("tiling ends at {e}\n");
    }
    if t.stages.is_empty() && t.fits {
        out += &format!(
            "fits untiled: peak {} ≤ {} (no tiling needed)\n",
            mb(t.peak_before),
            mb(t.fast_budget)
        );
    } else if t.fits {
        out += &format!("fits: peak {} ≤ {}\n", mb(t.peak_after), mb(t.fast_budget));
    } else {
        out += &format!(
            "does not fit {}: the smallest peak memplan reaches is {} ({} untiled)\n",
            mb(t.fast_budget),
            mb(t.peak_after),
            mb(t.peak_before)
        );
    }
    out
}

pub(super) fn tile(a: TileArgs) -> Result<u8> {
    let name = display(&a.file);
    let dims = parse_dims(&a.dims)?;
    let bytes = std::fs::read(&a.file)
        .map_err(|e| Error::whole(format!("cannot read: {e}")).in_file(&name))?;
    let opts = Options {
        budget_ms: a.budget,
        ..Options::default()
    };
    let t = tiling::tile(&bytes, &dims, a.fast, &opts).map_err(|e| e.in_file(&name))?;
    let out = display(&a.output);
    std::fs::write(&a.output, &t.onnx)
        .map_err(|e| Error::whole(format!("cannot write: {e}")).in_file(&out))?;
    if a.json {
        let json = serde_json::to_string_pretty(&t)
            .map_err(|e| Error::whole(format!("cannot write the report: {e}")))?;
        println!("{json}");
    } else {
        print!("{}", human(&t));
        println!("wrote {out}");
    }
    Ok(super::OK)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(parse_size("256K"), Ok(256 * 1024));
        assert_eq!(parse_size("1M"), Ok(1 << 20));
        assert_eq!(parse_size("1.5MiB"), Ok(3 << 19));
        assert_eq!(parse_size("300000"), Ok(300_000));
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("-1K").is_err());
    }
}
