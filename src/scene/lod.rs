//! Level of detail for big plans: what keeps a frame and a hover cheap at a million planes.
//!
//! Two structures, both built from [`Chart::parts`] (sorted by first clock):
//!
//! - [`PartIndex`]: the parts cut into blocks of consecutive parts, each with the latest
//!   end of its parts. A clock window visits only the blocks that can hold a part live in
//!   it, so a zoomed frame and a hover touch what is on screen, not the whole plan.
//! - [`Occupancy`]: when a view holds too many parts to draw one by one, the lane is
//!   drawn from tiles of aggregate occupancy (which node colour, if any, covers each
//!   cell), a pyramid in the spirit of map tiles: at level `(lt, la)` the lane is cut
//!   into `2^lt × 2^la` tiles of [`TILE`]² cells. A frame picks the level whose cells
//!   are no larger than a pixel, builds the tiles it lacks (one pass over the parts of
//!   their clock range) and keeps them, so panning and hovering reuse them and only
//!   the cells on screen are visited.

use super::chart::{Chart, Part};
use super::palette;
use super::view::{PixelLayout, View};
use crate::model::Plan;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Parts per block of the index.
const BLOCK: usize = 128;
/// Cells per tile side.
pub const TILE: usize = 256;
/// Tiles kept at most (64 KiB each); beyond, the least recently used half goes.
const MAX_TILES: usize = 384;
/// Parts a frame visits at most to build tiles when coarser ones can stand in: about
/// 15 ms in wasm (measured: 10^6 parts take ~250 ms).
const BUILD_BUDGET: usize = 60_000;
/// Deepest address level: cells of a lane of 2^64 bytes stay above 2^(64-8-40) bytes.
const MAX_ADDRESS_LEVEL: u32 = 40;

/// Blocks of consecutive parts (in drawing order) with the latest end of each.
#[derive(Debug, Clone, Default)]
pub struct PartIndex {
    block_end: Vec<u64>,
    /// Per part: its tile value (`palette::NODES` index + 1), so building a tile
    /// reads the parts alone.
    tile_value: Vec<u8>,
}

impl PartIndex {
    pub fn new(plan: &Plan, parts: &[Part]) -> PartIndex {
        PartIndex {
            block_end: parts
                .chunks(BLOCK)
                .map(|b| b.iter().map(|q| q.t1).max().unwrap_or(0))
                .collect(),
            tile_value: parts
                .iter()
                .map(|q| (palette::node_index(plan.planes[q.plane].node) + 1) as u8)
                .collect(),
        }
    }

    /// Indices of the blocks that may hold a part live somewhere in `[lo, hi)`, and
    /// the number of parts that start before `hi`.
    fn blocks(
        &self,
        parts: &[Part],
        lo: f64,
        hi: f64,
    ) -> (impl DoubleEndedIterator<Item = usize> + '_, usize) {
        let end = parts.partition_point(|q| f64::from(q.t0) < hi);
        let kept = (0..end.div_ceil(BLOCK)).filter(move |&b| self.block_end[b] as f64 > lo);
        (kept, end)
    }

    /// Indices of the parts live somewhere in clocks `[lo, hi)`, in drawing order
    /// (reverse it for topmost first).
    pub fn visible<'a>(
        &'a self,
        parts: &'a [Part],
        lo: f64,
        hi: f64,
    ) -> impl DoubleEndedIterator<Item = usize> + 'a {
        let (blocks, end) = self.blocks(parts, lo, hi);
        blocks
            .flat_map(move |b| b * BLOCK..((b + 1) * BLOCK).min(end))
            .filter(move |&i| parts[i].t1 as f64 > lo)
    }

    /// An upper bound of `visible(lo, hi).count()`, from block counts alone.
    pub fn estimate(&self, parts: &[Part], lo: f64, hi: f64) -> usize {
        let (blocks, end) = self.blocks(parts, lo, hi);
        blocks.map(|b| ((b + 1) * BLOCK).min(end) - b * BLOCK).sum()
    }
}

/// One tile: a node-colour index per cell (0 = empty, else `palette::NODES` index + 1),
/// row-major with row 0 at the lowest address.
#[derive(Debug, Clone)]
struct Tile {
    cells: Vec<u8>,
    /// Last frame that drew from it, for eviction.
    used: Cell<u64>,
}

/// The cells a frame shows (global cell columns `gi`, rows `gj`, ends excluded) and
/// the raster pixel of each (by the cell's centre; `None` off the raster).
struct Visible {
    gi: (u64, u64),
    gj: (u64, u64),
    col_of: Vec<Option<usize>>,
    row_of: Vec<Option<usize>>,
    /// Raster width.
    cols: usize,
}

impl Visible {
    /// Copies the visible cells of tile `(i, j)` into the raster.
    fn blit(&self, tile: &Tile, (i, j): (u64, u64), raster: &mut [u16]) {
        let t = TILE as u64;
        let ((gi0, gi1), (gj0, gj1), cols) = (self.gi, self.gj, self.cols);
        for cj in 0..t {
            let gj = j * t + cj;
            if gj < gj0 || gj >= gj1 {
                continue;
            }
            let Some(row) = self.row_of[(gj - gj0) as usize] else {
                continue;
            };
            let line = &tile.cells[cj as usize * TILE..(cj as usize + 1) * TILE];
            let out = &mut raster[row * cols..(row + 1) * cols];
            for gi in gi0.max(i * t)..gi1.min((i + 1) * t) {
                let v = line[(gi - i * t) as usize];
                if v != 0 {
                    if let Some(col) = self.col_of[(gi - gi0) as usize] {
                        out[col] = u16::from(v);
                    }
                }
            }
        }
    }
}

/// Lane, time level, address level, tile column, tile row.
type TileKey = (usize, u32, u32, u64, u64);

/// The tile cache of one chart. Interior mutability because frames draw from a
/// shared `&Chart`; the page is single-threaded.
#[derive(Debug, Clone)]
pub struct Occupancy {
    /// Parts a frame visits at most to build tiles when coarser ones can stand in.
    budget: usize,
    tiles: RefCell<HashMap<TileKey, Tile>>,
    frame: Cell<u64>,
    /// Cell size (clocks, bytes) of the level the current frame draws.
    cell_size: Cell<(f64, f64)>,
}

/// What an occupancy frame did, for tests and the page's test hook.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct OccupancyStats {
    pub tiles_built: usize,
    pub tiles_used: usize,
    pub parts_visited: usize,
    /// Tiles of the frame's level drawn from a coarser level meanwhile: the frame
    /// should be drawn again (the next one builds more).
    pub pending: usize,
}

/// The pixel grid of a lane's raster in data units.
struct Pixels {
    t0: f64,
    a_hi: f64,
    px_t: f64,
    px_a: f64,
    cols: usize,
    rows: usize,
}

impl Pixels {
    /// Paints the pixels whose centre lies in clocks `area` × bytes `span` from a
    /// coarser tile `(i, j)` of cell size `(ct, ca)`: each pixel takes the cell under
    /// its centre (coarse cells are larger than pixels, so every pixel gets one).
    fn sample(
        &self,
        tile: &Tile,
        (i, j): (u64, u64),
        (ct, ca): (f64, f64),
        area: [f64; 2],
        span: [f64; 2],
        raster: &mut [u16],
    ) {
        let first = |v: f64, n: usize| ((v - 0.5).ceil().max(0.0) as usize).min(n);
        let (c0, c1) = (
            first((area[0] - self.t0) / self.px_t, self.cols),
            first((area[1] - self.t0) / self.px_t, self.cols),
        );
        let (r0, r1) = (
            first((self.a_hi - span[1]) / self.px_a, self.rows),
            first((self.a_hi - span[0]) / self.px_a, self.rows),
        );
        let origin = (i as f64 * TILE as f64 * ct, j as f64 * TILE as f64 * ca);
        let cell = |v: f64| (v.floor().max(0.0) as usize).min(TILE - 1);
        let cell_of_col: Vec<usize> = (c0..c1)
            .map(|col| cell((self.t0 + (col as f64 + 0.5) * self.px_t - origin.0) / ct))
            .collect();
        for row in r0..r1 {
            let a = self.a_hi - (row as f64 + 0.5) * self.px_a;
            let line = &tile.cells[cell((a - origin.1) / ca) * TILE..][..TILE];
            let out = &mut raster[row * self.cols + c0..row * self.cols + c1];
            for (px, &c) in out.iter_mut().zip(&cell_of_col) {
                if line[c] != 0 {
                    *px = u16::from(line[c]);
                }
            }
        }
    }
}

/// `ceil(log2(r))` clamped to `[0, max]`.
fn level(r: f64, max: u32) -> u32 {
    if r.is_finite() && r > 1.0 {
        (r.log2().ceil() as u32).min(max)
    } else {
        0
    }
}

impl Default for Occupancy {
    fn default() -> Occupancy {
        Occupancy::with_budget(BUILD_BUDGET)
    }
}

impl Occupancy {
    /// A cache whose frames visit at most `budget` parts to build tiles, as long as
    /// coarser tiles can be shown meanwhile (a zoom then refines over a few frames
    /// instead of freezing one).
    pub fn with_budget(budget: usize) -> Occupancy {
        Occupancy {
            budget,
            tiles: RefCell::default(),
            frame: Cell::default(),
            cell_size: Cell::new((1.0, 1.0)),
        }
    }

    /// Fills `raster` (one cell per CSS pixel of the lane's chart, `ceil(w) × ceil(h)`,
    /// row 0 at the top; 0 = empty, else `palette::NODES` index + 1) with the
    /// occupancy of lane `lane` in `view`.
    pub fn paint(
        &self,
        chart: &Chart,
        view: &View,
        l: &PixelLayout,
        lane: usize,
        raster: &mut [u16],
    ) -> OccupancyStats {
        let mut stats = OccupancyStats::default();
        let b = l.lanes[lane].chart;
        let (cols, rows) = (b.w.ceil() as usize, b.h.ceil() as usize);
        if raster.len() != cols * rows {
            return stats;
        }
        let horizon = chart.horizon.max(1) as f64;
        let extent = chart.lanes[lane].extent.max(1) as f64;
        let (a_lo, a_hi) = l.address_range(view, lane);
        let px_t = (view.t1 - view.t0) / l.plot_w.max(1.0);
        let px_a = (a_hi - a_lo) / b.h.max(1.0);
        if !(px_t > 0.0 && px_a > 0.0) || cols == 0 || rows == 0 {
            return stats;
        }
        // Cells no larger than a pixel, and no thinner than a quarter clock.
        let max_lt = level(4.0 * horizon / TILE as f64, 40);
        let lt = level(horizon / TILE as f64 / px_t, max_lt);
        let la = level(extent / TILE as f64 / px_a, MAX_ADDRESS_LEVEL);
        let (nt, na) = ((TILE as u64) << lt, (TILE as u64) << la);
        let ct = horizon / nt as f64;
        let ca = extent / na as f64;
        let clamp = |v: f64, n: u64| v.clamp(0.0, n as f64) as u64;
        let (gi0, gi1) = (
            clamp((view.t0 / ct).floor(), nt),
            clamp((view.t1 / ct).ceil(), nt),
        );
        let (gj0, gj1) = (
            clamp((a_lo / ca).floor(), na),
            clamp((a_hi / ca).ceil(), na),
        );
        if gi0 >= gi1 || gj0 >= gj1 {
            return stats;
        }
        let frame = self.frame.get() + 1;
        self.frame.set(frame);
        self.cell_size.set((ct, ca));
        let t = TILE as u64;
        // Pixel column of each visible cell column, pixel row of each visible cell row
        // (by the cell's centre), or None off the raster.
        let col_of: Vec<Option<usize>> = (gi0..gi1)
            .map(|gi| {
                let x = ((gi as f64 + 0.5) * ct - view.t0) / px_t;
                (x >= 0.0 && x < cols as f64).then_some(x as usize)
            })
            .collect();
        let row_of: Vec<Option<usize>> = (gj0..gj1)
            .map(|gj| {
                let y = (a_hi - (gj as f64 + 0.5) * ca) / px_a;
                (y >= 0.0 && y < rows as f64).then_some(y as usize)
            })
            .collect();
        let visible = Visible {
            gi: (gi0, gi1),
            gj: (gj0, gj1),
            col_of,
            row_of,
            cols,
        };
        let (j0, j1) = (gj0 / t, gj1.div_ceil(t));
        let px = Pixels {
            t0: view.t0,
            a_hi,
            px_t,
            px_a,
            cols,
            rows,
        };
        for i in gi0 / t..gi1.div_ceil(t) {
            // Build the column's missing tiles unless this frame has built enough and
            // coarser tiles can stand in for them until the next frame.
            let ready = (j0..j1).all(|j| self.tiles.borrow().contains_key(&(lane, lt, la, i, j)));
            let covered = || (j0..j1).all(|j| self.coarser(lane, lt, la, i, j).is_some());
            if !ready && (stats.parts_visited < self.budget || !covered()) {
                let visited = self.build(chart, lane, lt, la, i, j0..j1, &mut stats);
                stats.parts_visited += visited;
            }
            let tiles = self.tiles.borrow();
            for j in j0..j1 {
                let Some(tile) = tiles.get(&(lane, lt, la, i, j)) else {
                    if let Some((key, ct2, ca2)) = self.coarser(lane, lt, la, i, j) {
                        let area = [i as f64 * t as f64 * ct, (i + 1) as f64 * t as f64 * ct];
                        let span = [j as f64 * t as f64 * ca, (j + 1) as f64 * t as f64 * ca];
                        let coarse = &tiles[&key];
                        coarse.used.set(frame);
                        px.sample(coarse, (key.3, key.4), (ct2, ca2), area, span, raster);
                        stats.pending += 1;
                    }
                    continue;
                };
                tile.used.set(frame);
                stats.tiles_used += 1;
                visible.blit(tile, (i, j), raster);
            }
        }
        self.evict(frame);
        stats
    }

    /// The nearest coarser cached tile covering tile `(i, j)` of level `(lt, la)`, with
    /// its cell size in clocks and bytes (both levels are of the same lane).
    fn coarser(
        &self,
        lane: usize,
        lt: u32,
        la: u32,
        i: u64,
        j: u64,
    ) -> Option<(TileKey, f64, f64)> {
        let tiles = self.tiles.borrow();
        let (ct, ca) = self.cell_size.get();
        // Finest first: levels coarser by `d` steps in all, in time or address.
        let levels = (1..=lt + la).flat_map(|d| {
            (d.saturating_sub(la)..=d.min(lt)).map(move |dt| (lt - dt, la - (d - dt)))
        });
        levels.into_iter().find_map(|(lt2, la2)| {
            let key = (lane, lt2, la2, i >> (lt - lt2), j >> (la - la2));
            tiles.contains_key(&key).then(|| {
                let scale = |c: f64, from: u32, to: u32| c * f64::from(1u32 << (from - to).min(31));
                (key, scale(ct, lt, lt2), scale(ca, la, la2))
            })
        })
    }

    /// Builds the missing tiles of column `i`, rows `rows`, in one pass over the parts
    /// of the column's clocks. Returns the parts visited.
    #[allow(clippy::too_many_arguments)]
    fn build(
        &self,
        chart: &Chart,
        lane: usize,
        lt: u32,
        la: u32,
        i: u64,
        rows: std::ops::Range<u64>,
        stats: &mut OccupancyStats,
    ) -> usize {
        let mut tiles = self.tiles.borrow_mut();
        let frame = self.frame.get();
        let missing: Vec<u64> = rows
            .filter(|&j| !tiles.contains_key(&(lane, lt, la, i, j)))
            .collect();
        if missing.is_empty() {
            return 0;
        }
        let horizon = chart.horizon.max(1) as f64;
        let extent = chart.lanes[lane].extent.max(1) as f64;
        let (nt, na) = ((TILE as u64) << lt, (TILE as u64) << la);
        let ct = horizon / nt as f64;
        let ca = extent / na as f64;
        let (t0, t1) = (
            i as f64 * TILE as f64 * ct,
            (i + 1) as f64 * TILE as f64 * ct,
        );
        let (j_lo, j_hi) = (missing[0], missing[missing.len() - 1] + 1);
        let (a_lo, a_hi) = (
            j_lo as f64 * TILE as f64 * ca,
            j_hi as f64 * TILE as f64 * ca,
        );
        let mut fresh: Vec<Option<Vec<u8>>> = (j_lo..j_hi)
            .map(|j| missing.contains(&j).then(|| vec![0u8; TILE * TILE]))
            .collect();
        let (per_t, per_a) = (1.0 / ct, 1.0 / ca);
        let span = (j_hi - j_lo) as usize * TILE;
        let mut visited = 0;
        for k in chart.lod_index.visible(&chart.parts, t0, t1) {
            visited += 1;
            let q = &chart.parts[k];
            if q.lane != lane || q.a1 as f64 <= a_lo || q.a0 as f64 >= a_hi {
                continue;
            }
            let v = chart.lod_index.tile_value[k];
            // Cell ranges in the column (time) and in the rows' span (address), edges
            // rounded to the nearest cell as exact frames round them to pixels; a part
            // always covers at least one cell, as a pixel always shows a tiny plane.
            // (`floor(x + 0.5)`: `round` is a library call in wasm, `floor` an instruction.)
            let near = |x: f64| (x + 0.5).floor().max(0.0) as usize;
            let c0 = near((f64::from(q.t0) - t0) * per_t).min(TILE - 1);
            let c1 = near((q.t1 as f64 - t0) * per_t).clamp(c0 + 1, TILE);
            let r0 = near((q.a0 as f64 - a_lo) * per_a).min(span - 1);
            let r1 = near((q.a1 as f64 - a_lo) * per_a).clamp(r0 + 1, span);
            for r in r0..r1 {
                if let Some(cells) = &mut fresh[r / TILE] {
                    let at = (r % TILE) * TILE;
                    // Most parts are a cell or two wide: no memset call for those.
                    for cell in &mut cells[at + c0..at + c1] {
                        *cell = v;
                    }
                }
            }
        }
        for (k, cells) in fresh.into_iter().enumerate() {
            if let Some(cells) = cells {
                tiles.insert(
                    (lane, lt, la, i, j_lo + k as u64),
                    Tile {
                        cells,
                        used: Cell::new(frame),
                    },
                );
                stats.tiles_built += 1;
            }
        }
        visited
    }

    /// Drops the least recently used half when the cache is over budget, never a tile
    /// of the current frame.
    fn evict(&self, frame: u64) {
        let mut tiles = self.tiles.borrow_mut();
        if tiles.len() <= MAX_TILES {
            return;
        }
        let mut ages: Vec<u64> = tiles.values().map(|t| t.used.get()).collect();
        ages.sort_unstable();
        let cut = ages[ages.len() / 2].min(frame - 1);
        tiles.retain(|_, t| t.used.get() > cut);
    }

    /// Tiles held (for tests).
    pub fn tiles_held(&self) -> usize {
        self.tiles.borrow().len()
    }
}
