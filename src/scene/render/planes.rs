//! The planes: large parts as rectangles, tiny ones into a raster of 1-px cells (or,
//! zoomed out on a big plan, the occupancy tiles), the connectors of wrapped planes,
//! and the outlines of findings, search matches, hover and selection.

use super::{cells, plane_fill, stroke, Drawn, Frame, LaneCtx, DENSE_RUNS, EXACT_LIMIT, TINY};
use crate::scene::chart::Part;
use crate::scene::lod::Occupancy;
use crate::scene::paint::{Cells, Color, Fill, Painter, Rect, Stroke};
use crate::scene::palette;
use crate::scene::theme::Role;
use crate::scene::view::{PixelLayout, View};

/// Planes outlined at most per emphasis in an occupancy frame.
const MAX_EMPHASIS: usize = 5_000;

impl LaneCtx<'_> {
    /// Planes: large parts as rectangles, batched while the fill stays the same;
    /// tiny ones into the raster. A view with too many parts to visit per frame is
    /// drawn from the chart's occupancy tiles instead (see `lod`); returns whether
    /// it was.
    pub(super) fn planes(
        &self,
        occupancy: &mut Occupancy,
        p: &mut dyn Painter,
        frame: &mut Frame,
    ) -> bool {
        let (chart, view, l, lane, b) = (self.chart, self.view, self.l, self.lane, self.b);
        let (a_lo, a_hi) = (self.a_lo, self.a_hi);
        let cols = b.chart.w.ceil() as usize;
        let rows = b.chart.h.ceil() as usize;
        let mut raster: Vec<u16> = Vec::new();
        let mut colors: Vec<Color> = Vec::new();
        let mut batch: Vec<Rect> = Vec::new();
        let mut batch_fill: Option<Fill> = None;
        let mut outlines: Vec<Rect> = Vec::new();
        let limit = self.opts.exact_limit.unwrap_or(EXACT_LIMIT);
        let aggregate = chart.lod_index().estimate(chart.parts(), view.t0, view.t1) > limit;
        if aggregate {
            raster = vec![0; cols * rows];
            colors = palette::NODES.to_vec();
            let s = occupancy.paint(chart, view, l, lane, &mut raster);
            let total = frame.occupancy.get_or_insert_with(Default::default);
            total.tiles_built += s.tiles_built;
            total.tiles_used += s.tiles_used;
            total.parts_visited += s.parts_visited;
            total.pending += s.pending;
        }
        let visible = chart.lod_index().visible(chart.parts(), view.t0, view.t1);
        for q in visible
            .take_while(|_| !aggregate)
            .map(|k| &chart.parts()[k])
        {
            if q.lane != lane {
                continue;
            }
            if (q.a1 as f64) <= a_lo || (q.a0 as f64) >= a_hi {
                continue;
            }
            frame.parts_visited += 1;
            let r = part_rect(l, view, lane, q, &b.chart);
            let fill = plane_fill(chart, q.plane);
            if r.w < TINY || r.h < TINY {
                if raster.is_empty() {
                    raster = vec![0; cols * rows];
                }
                let ci = match colors.iter().position(|&c| c == fill.color) {
                    Some(i) => i,
                    None => {
                        colors.push(fill.color);
                        colors.len() - 1
                    }
                };
                let (c0, c1) = cells(r.x - b.chart.x, r.w, cols);
                let (r0, r1) = cells(r.y - b.chart.y, r.h, rows);
                for row in r0..r1 {
                    raster[row * cols + c0..row * cols + c1].fill(ci as u16 + 1);
                }
                frame.rasterized += 1;
                continue;
            }
            if batch_fill != Some(fill) && !batch.is_empty() {
                p.fill_rects(batch_fill.unwrap_or(fill), &batch);
                frame.fill_calls += 1;
                batch.clear();
            }
            batch_fill = Some(fill);
            batch.push(r);
            if r.w >= 4.0 && r.h >= 4.0 {
                outlines.push(r);
            }
            frame.drawn.push(Drawn {
                plane: q.plane,
                wrapped: q.wrapped,
                rect: r,
            });
        }
        if let (Some(f), false) = (batch_fill, batch.is_empty()) {
            p.fill_rects(f, &batch);
            frame.fill_calls += 1;
        }
        if !outlines.is_empty() {
            p.stroke_rects(
                Stroke {
                    color: self.color(Role::Outline),
                    width: 1.0 / view.dpr,
                    dash: 0.0,
                },
                &outlines,
            );
        }
        if !raster.is_empty() {
            frame.fill_calls += self.raster(&mut raster, (cols, rows), &colors, p);
        }
        aggregate
    }

    /// Paints the raster of tiny planes (`(cols, rows)` cells, `colors` by index);
    /// returns the fill calls made.
    fn raster(
        &self,
        raster: &mut [u16],
        (cols, rows): (usize, usize),
        colors: &[Color],
        p: &mut dyn Painter,
    ) -> usize {
        // Too fragmented for colours to be told apart: one colour shows occupancy
        // better than noise (and is what the run-length painters fall back to).
        let dense = [self.color(Role::Dense)];
        let fragmented = row_runs(raster, cols) > DENSE_RUNS;
        if fragmented {
            for v in raster.iter_mut().filter(|v| **v != 0) {
                *v = 1;
            }
        }
        let grid = Cells {
            cols,
            rows,
            cells: raster,
            colors: if fragmented { &dense } else { colors },
        };
        p.cells(self.b.chart, &grid)
    }

    /// Wrapped planes: a dashed connector from the top of the contiguous part (the end
    /// of the space) to the bottom of the wrapped part (its start).
    pub(super) fn wrap_connectors(&self, drawn: &[Drawn], p: &mut dyn Painter) {
        let chart = self.chart;
        for d in drawn.iter().filter(|d| d.wrapped) {
            if let Some(c) = drawn.iter().find(|c| c.plane == d.plane && !c.wrapped) {
                let x = c.rect.x + (c.rect.w / 2.0).min(4.0);
                let col = plane_fill(chart, d.plane).color;
                let dark = Color {
                    r: col.r / 2,
                    g: col.g / 2,
                    b: col.b / 2,
                    a: 255,
                };
                p.line(
                    &[(x, c.rect.y), (x, d.rect.bottom())],
                    Stroke {
                        color: dark,
                        width: 1.5,
                        dash: 4.0,
                    },
                );
            }
        }
    }

    /// The rectangles of the parts of `plane` in this lane and in view.
    fn in_view(&self, plane: usize) -> Vec<Rect> {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            a_lo,
            a_hi,
            ..
        } = *self;
        chart
            .parts_of(plane)
            .filter(|q| q.lane == lane && (q.t1 as f64) > view.t0 && f64::from(q.t0) < view.t1)
            .filter(|q| (q.a1 as f64) > a_lo && (q.a0 as f64) < a_hi)
            .map(|q| outlinable(part_rect(l, view, lane, q, &b.chart)))
            .collect()
    }

    /// Emphasis: findings, search matches, hover and selection outline every part of
    /// their plane, so the two parts of a wrapped plane light up together. Drawn from
    /// the frame's rectangles, or, in an occupancy frame, from the planes' data.
    pub(super) fn emphasis(
        &self,
        aggregate: bool,
        drawn: &[Drawn],
        p: &mut dyn Painter,
        frame: &mut Frame,
    ) {
        let (chart, opts) = (self.chart, self.opts);
        let in_view = |plane: usize| self.in_view(plane);
        let emphasis =
            |planes: &mut dyn Iterator<Item = usize>, keep: &dyn Fn(usize) -> bool| -> Vec<Rect> {
                if aggregate {
                    planes.take(MAX_EMPHASIS).flat_map(in_view).collect()
                } else {
                    drawn
                        .iter()
                        .filter(|d| keep(d.plane))
                        .map(|d| d.rect)
                        .collect()
                }
            };
        let flagged = emphasis(
            &mut chart
                .report()
                .problems
                .iter()
                .flat_map(|pr| pr.planes.iter().copied()),
            &|i| chart.flagged(i),
        );
        if !flagged.is_empty() {
            p.stroke_rects(
                Stroke {
                    color: self.color(Role::Finding),
                    width: 2.0,
                    dash: 3.0,
                },
                &flagged,
            );
        }
        if !opts.matches.is_empty() {
            let m = emphasis(&mut opts.matches.iter().copied(), &|i| {
                opts.matches.binary_search(&i).is_ok()
            });
            frame.marked += m.len();
            p.stroke_rects(stroke(self.color(Role::Match), 2.0), &m);
        }
        for (plane, width) in [(opts.hover, 1.5), (opts.selected, 2.5)] {
            if let Some(plane) = plane {
                let rs = in_view(plane);
                p.stroke_rects(stroke(self.color(Role::Select), width), &rs);
                if rs.len() == 2 {
                    let (a, c) = (rs[0], rs[1]);
                    let (top, bottom) = if a.y < c.y { (a, c) } else { (c, a) };
                    let x = top.x + (top.w / 2.0).min(4.0);
                    p.line(
                        &[(x, top.bottom()), (x, bottom.y)],
                        Stroke {
                            color: self.color(Role::Select),
                            width: 1.5,
                            dash: 4.0,
                        },
                    );
                }
            }
        }
    }
}

/// Runs of equal non-empty cells along the rows of a raster.
fn row_runs(raster: &[u16], cols: usize) -> usize {
    raster
        .chunks(cols.max(1))
        .map(|row| {
            let starts = row.windows(2).filter(|w| w[1] != 0 && w[1] != w[0]).count();
            starts + usize::from(row.first().is_some_and(|&v| v != 0))
        })
        .sum()
}

/// The part's rectangle in pixels, snapped to device pixels and clamped to a little
/// beyond the chart (huge coordinates upset canvases).
fn part_rect(l: &PixelLayout, view: &View, lane: usize, q: &Part, clip: &Rect) -> Rect {
    let x0 = view.snap(l.x_of(view, f64::from(q.t0)).max(clip.x - 2.0));
    let x1 = view.snap(l.x_of(view, q.t1 as f64).min(clip.right() + 2.0));
    let y0 = view.snap(l.y_of(view, lane, q.a1 as f64).max(clip.y - 2.0));
    let y1 = view.snap(l.y_of(view, lane, q.a0 as f64).min(clip.bottom() + 2.0));
    Rect {
        x: x0,
        y: y0,
        w: (x1 - x0).max(0.0),
        h: (y1 - y0).max(0.0),
    }
}

/// `r` at least 2 px wide and high, about its centre: a plane thinner than a pixel
/// snaps to a rectangle of no height, whose outline (hover, selection, a finding)
/// would not show, nor hold the pointer that found it.
fn outlinable(r: Rect) -> Rect {
    const MIN: f64 = 2.0;
    let grow = |at: f64, len: f64| {
        if len >= MIN {
            (at, len)
        } else {
            (at - (MIN - len) / 2.0, MIN)
        }
    };
    let (x, w) = grow(r.x, r.w);
    let (y, h) = grow(r.y, r.h);
    Rect { x, y, w, h }
}
