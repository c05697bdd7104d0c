//! A grid of one-pixel cells painted as rectangles: runs of equal cells per row,
//! merged downwards. What [`Painter::cells`] does unless the surface can blit an image
//! (the canvas does): SVG, PNG export tiles and the tests' recording painter use it.

use super::paint::{Cells, Fill, Painter, Pattern, Rect};
use super::palette;
use std::collections::BTreeMap;

/// Above this many runs the raster is painted in one colour: its cells are then
/// too dense for colours to be told apart, and one colour merges into long runs.
const RASTER_RUN_BUDGET: usize = 20_000;

/// Paints the raster as runs of equal colour: horizontal runs per row, extended
/// downwards while the next row has the same run. Returns the fill calls made.
pub fn as_runs<P: Painter + ?Sized>(p: &mut P, at: Rect, grid: &Cells) -> usize {
    let Cells {
        cols,
        rows,
        cells: raster,
        colors,
    } = *grid;
    let Some(rects) = raster_runs(raster, cols, rows, |v| v, RASTER_RUN_BUDGET) else {
        let rects =
            raster_runs(raster, cols, rows, |v| u16::from(v != 0), usize::MAX).unwrap_or_default();
        let dense = Fill {
            color: palette::DENSE,
            pattern: Pattern::Solid,
        };
        let all: Vec<Rect> = rects.into_iter().map(|(_, r)| r.offset(&at)).collect();
        p.fill_rects(dense, &all);
        return 1;
    };
    let mut by_color: BTreeMap<u16, Vec<Rect>> = BTreeMap::new();
    for (v, r) in rects {
        by_color.entry(v).or_default().push(r.offset(&at));
    }
    for (v, rs) in &by_color {
        p.fill_rects(
            Fill {
                color: colors[*v as usize - 1],
                pattern: Pattern::Solid,
            },
            rs,
        );
    }
    by_color.len()
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
