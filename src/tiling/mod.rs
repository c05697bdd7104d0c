//! Patch-based inference (MCUNetV2's, issue #48): a model whose first layers'
//! activations do not fit the fast memory runs them patch by patch, each patch
//! recomputing its halo, and the result is written as an ONNX model.
//!
//! A *stage* is the run of nodes from the graph input up to a cut tensor that alone
//! is read after it, all tileable on H and W ([`stage`]). For a patch grid over the
//! cut tensor, each patch's regions are computed backwards ([`region`]) and the
//! stage is copied per patch ([`build`]) into the model's own bytes
//! ([`crate::formats::onnx::write`]), so the rest of the graph is untouched. The
//! search reads each candidate back as memplan reads any model, plans it in its
//! depth-first orders (patch by patch) and keeps, of the tilings under the fast
//! budget, the one that adds the fewest MACs; its figure is `best`'s plan of the
//! written file, what `memplan plan tiled.onnx --strategy best` gives.

pub mod build;
pub mod region;
pub mod stage;

use crate::formats::{onnx, Document};
use crate::planning::{orders, Request, Session};
use crate::schedule::Schedule;
use crate::strategies::Budget;
use crate::timer::Timer;
use crate::{Error, Result};
use serde::Serialize;
use stage::{Graph, Kind, Stage};

/// The search's limits.
#[derive(Debug, Clone)]
pub struct Options {
    /// Milliseconds the whole search may take (the final `best` plan included).
    pub budget_ms: u64,
    /// Milliseconds `best` gets for the final plan: the budget `memplan plan` gives
    /// it by default, so the figure is the one the CLI finds for the written file.
    pub best_ms: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget_ms: 30_000,
            best_ms: 2_000,
        }
    }
}

/// A tiled stage, as the report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct StageReport {
    /// The first and last node of the stage (ONNX names).
    pub first: String,
    pub last: String,
    /// The tensor the patches are concatenated into.
    pub cut: String,
    pub rows: u32,
    pub cols: u32,
    /// The largest patch of the cut tensor, rows × columns.
    pub tile: [u64; 2],
    /// The largest region of the graph input a patch reads, rows × columns.
    pub input_tile: [u64; 2],
    /// What a patch reads of the input beyond its share (`input_tile` less the
    /// input's extent over the grid), rows × columns: the recomputed halo.
    pub halo: [u64; 2],
    /// The model's peak (bytes, `best`) before and after this stage is tiled.
    pub peak_before: u64,
    pub peak_after: u64,
    /// Conv MACs the patches recompute, and that as a percentage of the model's.
    pub macs_added: u64,
    pub macs_added_percent: f64,
    /// The node that ended the stage's walk and why it cannot be tiled (`None`:
    /// the cut is not at that node, a later cut gave more).
    pub ended_by: Option<String>,
}

/// The outcome of [`tile`].
#[derive(Debug, Clone, Serialize)]
pub struct Tiling {
    /// The tiled model (the original bytes when no tiling helps).
    #[serde(skip)]
    pub onnx: Vec<u8>,
    pub fast_budget: u64,
    /// Whether `peak_after` ≤ `fast_budget`.
    pub fits: bool,
    pub peak_before: u64,
    pub peak_after: u64,
    /// Conv, Gemm and MatMul MACs of the model before and after.
    pub macs_before: u64,
    pub macs_after: u64,
    pub stages: Vec<StageReport>,
    /// What ended the walk from the input: the first node that cannot be tiled.
    pub ended_by: Option<String>,
    /// Candidates (cut × grid) built, read back and planned.
    pub candidates: u32,
    pub elapsed_ms: u64,
}

/// The grids tried: rows only (row tiling of a chain), then square and near-square
/// grids, 2 to 8 a side.
fn grids() -> Vec<(i64, i64)> {
    let mut g: Vec<(i64, i64)> = (2..=8).map(|r| (r, 1)).collect();
    for n in 2..=8 {
        g.push((n, n));
        if n > 2 {
            g.push((n, n - 1));
        }
    }
    g
}

/// `0..n` in an order that covers the range coarsely first (0, n/2, n/4, 3n/4, …), so
/// a search cut short by its time budget has still seen shallow and deep cuts.
fn spread(n: usize) -> Vec<usize> {
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(n);
    let mut step = n.next_power_of_two();
    while step >= 1 {
        for i in (0..n).step_by(step) {
            if !seen[i] {
                seen[i] = true;
                out.push(i);
            }
        }
        step /= 2;
    }
    out
}

/// Conv (any kind), FC and MatMul MACs of a schedule: each output element reads a
/// weight row (`Conv`, `FC`: the weight's elements over its first dim) or the left
/// operand's last dim (`MatMul`).
pub fn macs(schedule: &Schedule) -> u64 {
    // Weights are Producers whose `param_readers` name the node; the weight is the
    // one of rank 2 or more (the bias is 1-D).
    let mut weights: Vec<Option<&Vec<u64>>> = vec![None; schedule.nodes.len()];
    for node in &schedule.nodes {
        for out in node.outputs.iter().filter(|o| o.dims.len() >= 2) {
            for &r in &out.param_readers {
                if let Some(w) = weights.get_mut(r) {
                    w.get_or_insert(&out.dims);
                }
            }
        }
    }
    let mut total = 0u64;
    for (i, node) in schedule.nodes.iter().enumerate() {
        let Some(out) = node.outputs.first() else {
            continue;
        };
        let elems: u64 = out.dims.iter().product();
        let per = if node.kind.contains("Conv") || node.kind == "FC" {
            weights[i].map_or(0, |w| {
                w.first()
                    .filter(|&&c| c > 0)
                    .map_or(0, |c| w.iter().product::<u64>() / c)
            })
        } else if node.kind == "MatMul" {
            let a = node.inputs.first().and_then(|i| i.parent).and_then(|p| {
                schedule
                    .nodes
                    .get(p.node)?
                    .outputs
                    .get(p.output)?
                    .dims
                    .last()
                    .copied()
            });
            a.or_else(|| weights[i].and_then(|w| w.first().copied()))
                .unwrap_or(0)
        } else {
            0
        };
        total = total.saturating_add(elems.saturating_mul(per));
    }
    total
}

/// The lowest peak of a quick strategy over the schedule's own order and its
/// depth-first orders (patch by patch).
fn quick_peak(schedule: &Schedule) -> Result<u64> {
    let mut best = u64::MAX;
    for s in std::iter::once(schedule.clone()).chain(orders::branch_orders(schedule)) {
        let mut session = Session::of("tiled.onnx", Document::of_schedule(s));
        // Only the plan's peak is read: no bound over every layout (up to 1 s a candidate).
        let request = Request {
            no_floor: true,
            ..Request::new("greedy-size", Budget::millis(1_000))?
        };
        let (plan, _) = session.plan(&request)?;
        best = best.min(plan.peak());
    }
    Ok(best)
}

/// `best`'s peak of a model, as `memplan plan M.onnx --strategy best` finds it.
fn best_peak(model: &[u8], dims: &[(String, u64)], millis: u64) -> Result<u64> {
    let schedule = onnx::read(model, dims)?;
    let mut session = Session::of("model.onnx", Document::of_schedule(schedule));
    let (plan, _) = session.plan(&Request::new("best", Budget::millis(millis))?)?;
    Ok(plan.peak())
}

/// One candidate: a stage in a grid, written and planned.
struct Candidate {
    stage: usize,
    rows: i64,
    cols: i64,
    rewrite: onnx::write::Rewrite,
    peak: u64,
    macs: u64,
    patches: Vec<build::Patch>,
}

/// Tiles `model` so its peak fits `fast_budget` bytes with the fewest added MACs, or,
/// when no tiling reaches the budget, to the smallest peak the search finds.
pub fn tile(
    model: &[u8],
    dims: &[(String, u64)],
    fast_budget: u64,
    opts: &Options,
) -> Result<Tiling> {
    if fast_budget == 0 {
        return Err(Error::whole("a fast memory of 0 bytes: nothing fits"));
    }
    let timer = Timer::start();
    let original = onnx::read(model, dims)?;
    let graph = Graph::read(model, dims)?;
    let macs_before = macs(&original);
    let peak_before = best_peak(model, dims, opts.best_ms)?;
    let found = graph.stages();
    let untiled = |ended_by: Option<String>| Tiling {
        onnx: model.to_vec(),
        fast_budget,
        fits: peak_before <= fast_budget,
        peak_before,
        peak_after: peak_before,
        macs_before,
        macs_after: macs_before,
        stages: Vec::new(),
        ended_by,
        candidates: 0,
        elapsed_ms: timer.elapsed_ms(),
    };
    if peak_before <= fast_budget {
        return Ok(untiled(found.ended_by));
    }
    let stages: Vec<&Stage> = found
        .stages
        .iter()
        .filter(|s| s.nodes.last().is_some_and(|n| n.dims[2] * n.dims[3] > 1))
        .filter(|s| s.nodes.iter().any(|n| matches!(n.kind, Kind::Window(..))))
        .collect();
    if stages.is_empty() {
        return Err(no_stage(&graph, &found));
    }
    // Candidates are written and read back without the weights' values.
    let light = onnx::write::without_weights(model, 1024)?;
    let search_ms = opts.budget_ms.saturating_sub(2 * opts.best_ms).max(1);
    let mut candidates = 0u32;
    let mut evaluate = |s: usize, rows: i64, cols: i64| -> Result<Option<Candidate>> {
        let stage = stages[s];
        // A grid finer than the cut tensor is no candidate.
        let Ok(built) = build::build(&graph, stage, rows, cols) else {
            return Ok(None);
        };
        let bytes = onnx::write::rewrite(&light, &built.rewrite)?;
        let schedule = onnx::read(&bytes, dims)?;
        candidates += 1;
        let c = Candidate {
            stage: s,
            rows,
            cols,
            peak: quick_peak(&schedule)?,
            macs: macs(&schedule),
            rewrite: built.rewrite,
            patches: built.patches,
        };
        Ok(Some(c))
    };
    // Pass 1: every stage in 4×4 patches (or fewer where the cut is smaller) ranks
    // the cuts; pass 2: every grid on the few best cuts.
    let mut all: Vec<Candidate> = Vec::new();
    for s in spread(stages.len()) {
        if timer.elapsed_ms() > search_ms / 2 {
            break;
        }
        if let Some(c) = evaluate(s, 4, 4)? {
            all.push(c);
        }
    }
    let mut ranked: Vec<(bool, u64, u64, usize)> = all
        .iter()
        .map(|c| {
            (
                c.peak > fast_budget,
                if c.peak > fast_budget { c.peak } else { 0 },
                c.macs,
                c.stage,
            )
        })
        .collect();
    ranked.sort();
    let chosen: Vec<usize> = ranked.iter().take(4).map(|r| r.3).collect();
    'grids: for &s in &chosen {
        for (rows, cols) in grids() {
            if (rows, cols) == (4, 4) {
                continue;
            }
            if timer.elapsed_ms() > search_ms {
                break 'grids;
            }
            if let Some(c) = evaluate(s, rows, cols)? {
                all.push(c);
            }
        }
    }
    let fits = |c: &Candidate| c.peak <= fast_budget;
    let pick = if all.iter().any(fits) {
        all.iter()
            .filter(|c| fits(c))
            .min_by_key(|c| (c.macs, c.peak))
    } else {
        all.iter().min_by_key(|c| (c.peak, c.macs))
    };
    let Some(pick) = pick else {
        return Ok(untiled(found.ended_by));
    };
    let tiled = onnx::write::rewrite(model, &pick.rewrite)?;
    let peak_after = best_peak(&tiled, dims, opts.best_ms)?;
    if peak_after >= peak_before {
        return Ok(untiled(found.ended_by));
    }
    let report = stage_report(
        &graph,
        stages[pick.stage],
        &found,
        pick,
        peak_before,
        peak_after,
        macs_before,
    );
    Ok(Tiling {
        onnx: tiled,
        fast_budget,
        fits: peak_after <= fast_budget,
        peak_before,
        peak_after,
        macs_before,
        macs_after: pick.macs,
        stages: vec![report],
        ended_by: found.ended_by,
        candidates,
        elapsed_ms: timer.elapsed_ms(),
    })
}

/// Why a model has no stage to tile: where the walk from its first node ended.
fn no_stage(graph: &Graph, found: &stage::Stages) -> Error {
    let first = graph
        .proto
        .node
        .iter()
        .enumerate()
        .find(|(i, _)| !graph.constant_nodes.contains(i))
        .map(|(i, n)| stage::node_name(n, i))
        .unwrap_or_default();
    Error::whole(format!(
        "no tileable stage from the graph input (a run of Conv, pooling and element-wise \
         nodes ending in one tensor): the walk from '{first}' ends at {}",
        found.ended_by.as_deref().unwrap_or("the graph's end")
    ))
}

/// The report of the stage `pick` tiles.
fn stage_report(
    graph: &Graph,
    stage: &Stage,
    found: &stage::Stages,
    pick: &Candidate,
    peak_before: u64,
    peak_after: u64,
    macs_before: u64,
) -> StageReport {
    let name = |i: usize| stage::node_name(&graph.proto.node[i], i);
    let max =
        |f: &dyn Fn(&build::Patch) -> i64| pick.patches.iter().map(f).max().unwrap_or(0) as u64;
    let tile = [max(&|p| p.cut[0].size()), max(&|p| p.cut[1].size())];
    let input_tile = [max(&|p| p.input[0].size()), max(&|p| p.input[1].size())];
    let share = |extent: i64, n: i64| ((extent + n - 1) / n) as u64;
    let halo = [
        input_tile[0].saturating_sub(share(graph.input_dims[2], pick.rows)),
        input_tile[1].saturating_sub(share(graph.input_dims[3], pick.cols)),
    ];
    let macs_added = pick.macs.saturating_sub(macs_before);
    let is_last = stage.nodes.len() == found.stages.last().map_or(0, |s| s.nodes.len());
    StageReport {
        first: name(stage.nodes[0].index),
        last: name(stage.nodes[stage.nodes.len() - 1].index),
        cut: stage.cut.clone(),
        rows: pick.rows as u32,
        cols: pick.cols as u32,
        tile,
        input_tile,
        halo,
        peak_before,
        peak_after,
        macs_added,
        macs_added_percent: if macs_before == 0 {
            0.0
        } else {
            100.0 * macs_added as f64 / macs_before as f64
        },
        ended_by: if is_last {
            found.ended_by.clone()
        } else {
            None
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn spread_visits_every_cut_once_coarse_first() {
        for n in 0..40 {
            let order = super::spread(n);
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        }
        assert_eq!(super::spread(8)[..4], [0, 4, 2, 6]);
    }
}
