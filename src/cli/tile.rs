//! `memplan tile MODEL --fast SIZE -o tiled.onnx`: the model's first layers run
//! patch by patch ([`crate::tiling`]) so its peak fits the fast memory.

use super::args::TileArgs;
use super::commands::{display, parse_dims};
use crate::tiling::{self, Options, Tiling};
use crate::{Error, Result};

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
