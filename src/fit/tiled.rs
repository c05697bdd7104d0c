//! Tiling as a lever of the fit (issues #47 and #48): [`fit_tiled`].

use super::{fit_in, human, Fit, MemoryMap, Verdict};
use crate::formats::{onnx, Document};
use crate::model::Bytes;
use crate::planning::Session;
use crate::recipes::Deploy;
use crate::tiling::{self, StageReport};
use crate::Result;
use serde::Serialize;

/// A tiled model fitted to the same map.
#[derive(Debug, Clone, Serialize)]
pub struct Tiled {
    /// Whether the tiled fit is the answer: it fits where the untiled does not, fits
    /// the fast bank alone where the untiled needs slow memory, or moves less slow
    /// traffic.
    pub chosen: bool,
    /// The tiled stages (`crate::tiling`'s report: layers, grid, halo, MACs added).
    pub stages: Vec<StageReport>,
    /// `best`'s peak of the model before and after tiling (depth-first orders).
    pub peak_before: Bytes,
    pub peak_after: Bytes,
    pub macs_before: u64,
    pub macs_after: u64,
    pub macs_added_percent: f64,
    /// The untiled model's verdict and summary, beside the tiled one's in `fit`.
    pub untiled_verdict: Verdict,
    pub untiled_summary: String,
    /// The tiled model's fit: its banks, slow traffic, buffers, sweep.
    pub fit: Fit,
    /// The tiled model (what `--onnx-out` writes).
    #[serde(skip)]
    pub onnx: Vec<u8>,
}

/// An ONNX model's own bytes, which tiling rewrites (a document read from them has
/// lost what the rewrite copies: weights, attributes, other fields).
pub struct Model<'a> {
    pub bytes: &'a [u8],
    /// The symbolic input dims the document was read with.
    pub dims: &'a [(String, u64)],
    /// The recipes the session's document was deployed with: the tiled model is
    /// deployed the same way before it is fitted.
    pub deploy: &'a Deploy,
    /// Milliseconds the tiling search may take.
    pub tile_ms: u64,
}

/// [`fit`], then, when the model does not fit the fast bank alone, the same with its
/// first stage tiled for the fast bank's size; the better fit is the answer: fits the
/// fast bank alone, then fits with slow memory, then does not fit, then the least slow
/// traffic. `budget_ms` is each fit's; the search takes `model.tile_ms` more.
pub fn fit_tiled(
    session: &mut Session,
    map: &MemoryMap,
    budget_ms: u64,
    model: &Model,
) -> Result<Fit> {
    let mut untiled = fit_in(session, map, budget_ms, None)?;
    if untiled.verdict == Verdict::FitsFast {
        untiled.untiled_because = Some(format!(
            "it fits {} alone untiled: no tiling needed",
            map.banks[0].name
        ));
        return Ok(untiled);
    }
    let fast = map.banks[0].size;
    let opts = tiling::Options {
        budget_ms: model.tile_ms,
        best_ms: (model.tile_ms / 4).clamp(1, tiling::Options::default().best_ms),
    };
    let t = match tiling::tile(model.bytes, model.dims, fast, &opts) {
        Ok(t) => t,
        Err(e) => {
            untiled.untiled_because = Some(format!("no tiling: {}", e.message));
            return Ok(untiled);
        }
    };
    if t.stages.is_empty() {
        untiled.untiled_because = Some(format!(
            "no tiling lowers the peak ({}){}",
            human(t.peak_before),
            t.ended_by
                .as_ref()
                .map_or_else(String::new, |e| format!("; the tileable stage ends at {e}"))
        ));
        return Ok(untiled);
    }
    let added = t.macs_after.saturating_sub(t.macs_before);
    let percent = match t.macs_before {
        0 => 0.0,
        m => 100.0 * added as f64 / m as f64,
    };
    let stages: Vec<String> = t
        .stages
        .iter()
        .map(|s| {
            format!(
                "layers {}…{} in {}×{} patches",
                s.first, s.last, s.rows, s.cols
            )
        })
        .collect();
    let lever = format!(" with tiling: {}, +{percent:.1} % MACs", stages.join(", "));
    let schedule = onnx::read(&t.onnx, model.dims)?;
    let mut tiled_session = Session::of("tiled.onnx", Document::of_schedule(schedule));
    if !model.deploy.is_empty() {
        tiled_session.deploy(model.deploy)?;
    }
    let tiled = fit_in(&mut tiled_session, map, budget_ms, Some(&lever))?;
    let rank = |f: &Fit| {
        let v = match f.verdict {
            Verdict::FitsFast => 0,
            Verdict::FitsWithSlow => 1,
            Verdict::DoesNotFit => 2,
        };
        (v, f.slow_traffic.total)
    };
    let chosen = rank(&tiled) < rank(&untiled);
    let (untiled_verdict, untiled_summary) = (untiled.verdict, untiled.summary.clone());
    if chosen {
        untiled.fits = tiled.fits;
        untiled.verdict = tiled.verdict;
        untiled.summary = tiled.summary.clone();
        untiled.why = tiled.why.clone();
        untiled.lever = Some("tiling");
    } else {
        untiled.untiled_because = Some(format!(
            "the tiled model's fit is no better: {}",
            tiled.summary
        ));
    }
    untiled.tiling = Some(Box::new(Tiled {
        chosen,
        stages: t.stages,
        peak_before: t.peak_before,
        peak_after: t.peak_after,
        macs_before: t.macs_before,
        macs_after: t.macs_after,
        macs_added_percent: percent,
        untiled_verdict,
        untiled_summary,
        fit: tiled,
        onnx: t.onnx,
    }));
    Ok(untiled)
}
