//! A grid of one-pixel cells painted as rectangles: runs of equal cells per row,
//! merged downwards: what `Painter::cells` paints unless the surface can blit an image
//! (the canvas does): SVG, PNG export tiles and the tests' recording painter use it.
//! Whether a raster is too fragmented for its colours is decided once, by the renderer
//! (`render::DENSE_RUNS`), before any surface sees it: a canvas and an SVG of one
//! frame show the same colours.

use super::geom::{Color, Rect};
use std::collections::BTreeMap;

/// `cols × rows` cells, row-major from the top: 0 is empty, `k` is `colors[k - 1]`.
#[derive(Debug, Clone, Copy)]
pub struct Cells<'a> {
    pub cols: usize,
    pub rows: usize,
    pub cells: &'a [u16],
    pub colors: &'a [Color],
}

/// Runs of equal cells, in cell units from the raster's corner: horizontal runs per
/// row, extended downwards while the next row has the same run; grouped by colour, in
/// colour order.
pub fn runs(grid: &Cells) -> Vec<(Color, Vec<Rect>)> {
    let mut by_key: BTreeMap<u16, Vec<Rect>> = BTreeMap::new();
    for (v, r) in raster_runs(grid.cells, grid.cols, grid.rows) {
        by_key.entry(v).or_default().push(r);
    }
    by_key
        .into_iter()
        .map(|(v, rs)| (grid.colors[v as usize - 1], rs))
        .collect()
}

/// Runs of equal non-zero cells in cell units, merged vertically.
fn raster_runs(raster: &[u16], cols: usize, rows: usize) -> Vec<(u16, Rect)> {
    let mut out: Vec<(u16, Rect)> = Vec::new();
    // Runs of the previous and the current row, by start: (start, end, key, index
    // into `out`). Both are sorted, so matching is a merge, not a lookup.
    let mut prev: Vec<(usize, usize, u16, usize)> = Vec::new();
    let mut cur: Vec<(usize, usize, u16, usize)> = Vec::new();
    for row in 0..rows {
        let line = &raster[row * cols..(row + 1) * cols];
        let mut c = 0;
        let mut j = 0;
        while c < cols {
            let v = line[c];
            let start = c;
            while c < cols && line[c] == v {
                c += 1;
            }
            if v == 0 {
                continue;
            }
            while j < prev.len() && prev[j].0 < start {
                j += 1;
            }
            let idx = match prev.get(j) {
                Some(&(s, e, k, i)) if s == start && e == c && k == v => {
                    out[i].1.h += 1.0;
                    i
                }
                _ => {
                    out.push((
                        v,
                        Rect {
                            x: start as f64,
                            y: row as f64,
                            w: (c - start) as f64,
                            h: 1.0,
                        },
                    ));
                    out.len() - 1
                }
            };
            cur.push((start, c, v, idx));
        }
        std::mem::swap(&mut prev, &mut cur);
        cur.clear();
    }
    out
}
