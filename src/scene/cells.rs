//! A grid of one-pixel cells painted as rectangles: runs of equal cells per row,
//! merged downwards: what [`super::paint::Painter::cells`] paints unless the surface can blit an image
//! (the canvas does): SVG, PNG export tiles and the tests' recording painter use it.

use super::geom::{Color, Rect};
use std::collections::BTreeMap;

/// Above this many runs the raster is painted in one colour: its cells are then
/// too dense for colours to be told apart, and one colour merges into long runs.
const RASTER_RUN_BUDGET: usize = 20_000;

/// `cols × rows` cells, row-major from the top: 0 is empty, `k` is `colors[k - 1]`.
#[derive(Debug, Clone, Copy)]
pub struct Cells<'a> {
    pub cols: usize,
    pub rows: usize,
    pub cells: &'a [u16],
    pub colors: &'a [Color],
}

/// A raster as rectangles in cell units, from its corner.
pub enum Runs {
    /// Too many runs: the occupied cells, to be painted in one colour.
    Dense(Vec<Rect>),
    /// Rectangles of each colour, in colour order.
    ByColor(Vec<(Color, Vec<Rect>)>),
}

/// Runs of equal cells: horizontal runs per row, extended downwards while the next
/// row has the same run.
pub fn runs(grid: &Cells) -> Runs {
    let Cells {
        cols,
        rows,
        cells: raster,
        colors,
    } = *grid;
    let Some(rects) = raster_runs(raster, cols, rows, |v| v, RASTER_RUN_BUDGET) else {
        let rects =
            raster_runs(raster, cols, rows, |v| u16::from(v != 0), usize::MAX).unwrap_or_default();
        return Runs::Dense(rects.into_iter().map(|(_, r)| r).collect());
    };
    let mut by_key: BTreeMap<u16, Vec<Rect>> = BTreeMap::new();
    for (v, r) in rects {
        by_key.entry(v).or_default().push(r);
    }
    Runs::ByColor(
        by_key
            .into_iter()
            .map(|(v, rs)| (colors[v as usize - 1], rs))
            .collect(),
    )
}

/// Runs of equal non-zero `key(cell)` in cell units, merged vertically; `None` once
/// there are more than `limit`.
fn raster_runs(
    raster: &[u16],
    cols: usize,
    rows: usize,
    key: impl Fn(u16) -> u16,
    limit: usize,
) -> Option<Vec<(u16, Rect)>> {
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
            let v = key(line[c]);
            let start = c;
            while c < cols && key(line[c]) == v {
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
                    if out.len() >= limit {
                        return None;
                    }
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
    Some(out)
}
