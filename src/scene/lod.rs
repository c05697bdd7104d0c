//! Level of detail for big plans: what keeps a zoomed-out frame cheap at a million
//! planes (the clock index that keeps zoomed frames and hovers cheap is the chart's,
//! [`super::chart::PartIndex`]).
//!
//! [`Occupancy`]: when a view holds too many parts to draw one by one, the lane is
//! drawn from tiles of aggregate occupancy (which node colour, if any, covers each
//! cell), a pyramid in the spirit of map tiles: at level `(lt, la)` the lane is cut
//! into `2^lt × 2^la` tiles of [`TILE`]² cells. A frame picks the level whose cells
//! are no larger than a pixel, builds the tiles it lacks (one pass over the parts of
//! their clock range) and keeps them, so panning and hovering reuse them and only
//! the cells on screen are visited. The cache belongs to the renderer of one chart
//! ([`super::render::Renderer`]), not to the chart, which stays immutable.

use super::chart::Chart;
use super::view::{PixelLayout, View};
use std::collections::HashMap;

/// Cells per tile side.
pub const TILE: usize = 256;
/// Tiles kept at most (64 KiB each); beyond, the least recently used half goes.
const MAX_TILES: usize = 384;
/// Parts a frame visits at most to build tiles when coarser ones can stand in: about
/// 15 ms in wasm (measured: 10^6 parts take ~250 ms).
const BUILD_BUDGET: usize = 60_000;
/// Deepest address level: cells of a lane of 2^64 bytes stay above 2^(64-8-40) bytes.
const MAX_ADDRESS_LEVEL: u32 = 40;

/// One tile: a node-colour index per cell (0 = empty, else `palette::NODES` index + 1),
/// row-major with row 0 at the lowest address.
#[derive(Debug, Clone)]
struct Tile {
    cells: Vec<u8>,
    /// Last frame that drew from it, for eviction.
    used: u64,
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

/// The tile cache of one chart, owned by its renderer: a frame takes it `&mut`.
#[derive(Debug, Clone)]
pub struct Occupancy {
    /// Parts a frame visits at most to build tiles when coarser ones can stand in.
    budget: usize,
    tiles: HashMap<TileKey, Tile>,
    frame: u64,
}

/// The tile level a frame draws in a lane: levels `(lt, la)` in time and address,
/// and cell size `(ct, ca)` in clocks and bytes.
#[derive(Debug, Clone, Copy)]
struct Level {
    lane: usize,
    lt: u32,
    la: u32,
    ct: f64,
    ca: f64,
}

impl Level {
    /// The level whose cells are no larger than a pixel (`px_t` clocks × `px_a`
    /// bytes), and no thinner than a quarter clock.
    fn fitting(chart: &Chart, lane: usize, px_t: f64, px_a: f64) -> Level {
        let horizon = chart.horizon().max(1) as f64;
        let extent = chart.lanes()[lane].extent.max(1) as f64;
        let max_lt = level(4.0 * horizon / TILE as f64, 40);
        let lt = level(horizon / TILE as f64 / px_t, max_lt);
        let la = level(extent / TILE as f64 / px_a, MAX_ADDRESS_LEVEL);
        Level {
            lane,
            lt,
            la,
            ct: horizon / ((TILE as u64) << lt) as f64,
            ca: extent / ((TILE as u64) << la) as f64,
        }
    }

    /// Cells per side of the whole lane: `(time, address)`.
    fn cells(&self) -> (u64, u64) {
        ((TILE as u64) << self.lt, (TILE as u64) << self.la)
    }

    fn key(&self, i: u64, j: u64) -> TileKey {
        (self.lane, self.lt, self.la, i, j)
    }
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
            tiles: HashMap::new(),
            frame: 0,
        }
    }

    /// Fills `raster` (one cell per CSS pixel of the lane's chart, `ceil(w) × ceil(h)`,
    /// row 0 at the top; 0 = empty, else `palette::NODES` index + 1) with the
    /// occupancy of lane `lane` in `view`.
    pub fn paint(
        &mut self,
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
        let (a_lo, a_hi) = l.address_range(view, lane);
        let px_t = (view.t1 - view.t0) / l.plot_w.max(1.0);
        let px_a = (a_hi - a_lo) / b.h.max(1.0);
        if !(px_t > 0.0 && px_a > 0.0) || cols == 0 || rows == 0 {
            return stats;
        }
        let lv = Level::fitting(chart, lane, px_t, px_a);
        let (nt, na) = lv.cells();
        let clamp = |v: f64, n: u64| v.clamp(0.0, n as f64) as u64;
        let (gi0, gi1) = (
            clamp((view.t0 / lv.ct).floor(), nt),
            clamp((view.t1 / lv.ct).ceil(), nt),
        );
        let (gj0, gj1) = (
            clamp((a_lo / lv.ca).floor(), na),
            clamp((a_hi / lv.ca).ceil(), na),
        );
        if gi0 >= gi1 || gj0 >= gj1 {
            return stats;
        }
        self.frame += 1;
        // Pixel column of each visible cell column, pixel row of each visible cell row
        // (by the cell's centre), or None off the raster.
        let col_of: Vec<Option<usize>> = (gi0..gi1)
            .map(|gi| {
                let x = ((gi as f64 + 0.5) * lv.ct - view.t0) / px_t;
                (x >= 0.0 && x < cols as f64).then_some(x as usize)
            })
            .collect();
        let row_of: Vec<Option<usize>> = (gj0..gj1)
            .map(|gj| {
                let y = (a_hi - (gj as f64 + 0.5) * lv.ca) / px_a;
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
        let px = Pixels {
            t0: view.t0,
            a_hi,
            px_t,
            px_a,
            cols,
            rows,
        };
        let t = TILE as u64;
        for i in gi0 / t..gi1.div_ceil(t) {
            let column = (i, gj0 / t..gj1.div_ceil(t));
            self.column(chart, lv, column, (&visible, &px), raster, &mut stats);
        }
        self.evict();
        stats
    }

    /// Draws tile column `i`, tile rows `js`, of level `lv` into `raster`: builds the
    /// column's missing tiles unless this frame has built enough and coarser tiles can
    /// stand in for them until the next frame.
    fn column(
        &mut self,
        chart: &Chart,
        lv: Level,
        (i, js): (u64, std::ops::Range<u64>),
        (visible, px): (&Visible, &Pixels),
        raster: &mut [u16],
        stats: &mut OccupancyStats,
    ) {
        let ready = js.clone().all(|j| self.tiles.contains_key(&lv.key(i, j)));
        let covered = || js.clone().all(|j| self.coarser(lv, i, j).is_some());
        if !ready && (stats.parts_visited < self.budget || !covered()) {
            let visited = self.build(chart, lv, i, js.clone(), stats);
            stats.parts_visited += visited;
        }
        let (t, frame) = (TILE as f64, self.frame);
        for j in js {
            if let Some(tile) = self.tiles.get_mut(&lv.key(i, j)) {
                tile.used = frame;
                stats.tiles_used += 1;
                visible.blit(tile, (i, j), raster);
            } else if let Some((key, ct2, ca2)) = self.coarser(lv, i, j) {
                let area = [i as f64 * t * lv.ct, (i + 1) as f64 * t * lv.ct];
                let span = [j as f64 * t * lv.ca, (j + 1) as f64 * t * lv.ca];
                let coarse = self.tiles.get_mut(&key).expect("found by coarser");
                coarse.used = frame;
                px.sample(coarse, (key.3, key.4), (ct2, ca2), area, span, raster);
                stats.pending += 1;
            }
        }
    }

    /// The nearest coarser cached tile covering tile `(i, j)` of level `lv`, with
    /// its cell size in clocks and bytes (both levels are of the same lane).
    fn coarser(&self, lv: Level, i: u64, j: u64) -> Option<(TileKey, f64, f64)> {
        let Level {
            lane,
            lt,
            la,
            ct,
            ca,
        } = lv;
        // Finest first: levels coarser by `d` steps in all, in time or address.
        let levels = (1..=lt + la).flat_map(|d| {
            (d.saturating_sub(la)..=d.min(lt)).map(move |dt| (lt - dt, la - (d - dt)))
        });
        levels.into_iter().find_map(|(lt2, la2)| {
            let key = (lane, lt2, la2, i >> (lt - lt2), j >> (la - la2));
            self.tiles.contains_key(&key).then(|| {
                let scale = |c: f64, from: u32, to: u32| c * f64::from(1u32 << (from - to).min(31));
                (key, scale(ct, lt, lt2), scale(ca, la, la2))
            })
        })
    }

    /// Builds the missing tiles of column `i`, rows `rows`, in one pass over the parts
    /// of the column's clocks. Returns the parts visited.
    fn build(
        &mut self,
        chart: &Chart,
        lv: Level,
        i: u64,
        rows: std::ops::Range<u64>,
        stats: &mut OccupancyStats,
    ) -> usize {
        let missing: Vec<u64> = rows
            .filter(|&j| !self.tiles.contains_key(&lv.key(i, j)))
            .collect();
        let (Some(&j_lo), Some(&j_last)) = (missing.first(), missing.last()) else {
            return 0;
        };
        let (ct, ca) = (lv.ct, lv.ca);
        let (t0, t1) = (
            i as f64 * TILE as f64 * ct,
            (i + 1) as f64 * TILE as f64 * ct,
        );
        let j_hi = j_last + 1;
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
        for k in chart.lod_index().visible(chart.parts(), t0, t1) {
            visited += 1;
            let q = &chart.parts()[k];
            if q.lane != lv.lane || q.a1 as f64 <= a_lo || q.a0 as f64 >= a_hi {
                continue;
            }
            let v = chart.lod_index().tile_value(k);
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
                let used = self.frame;
                self.tiles
                    .insert(lv.key(i, j_lo + k as u64), Tile { cells, used });
                stats.tiles_built += 1;
            }
        }
        visited
    }

    /// Drops the least recently used half when the cache is over budget, never a tile
    /// of the current frame.
    fn evict(&mut self) {
        if self.tiles.len() <= MAX_TILES {
            return;
        }
        let mut ages: Vec<u64> = self.tiles.values().map(|t| t.used).collect();
        ages.sort_unstable();
        let cut = ages[ages.len() / 2].min(self.frame - 1);
        self.tiles.retain(|_, t| t.used > cut);
    }

    /// Tiles held (for tests).
    pub fn tiles_held(&self) -> usize {
        self.tiles.len()
    }
}
