//! The reference lines of each lane (peak, lower bound, capacity) and their labels,
//! placed off the planes and off each other.

use super::{style, Frame, LaneCtx};
use crate::model::Bytes;
use crate::scene::axis::bytes_long;
use crate::scene::paint::{Align, Color, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use crate::scene::theme::Role;
use crate::scene::view::{PixelLayout, View};

/// Parts a label's spot is checked against at most before it counts as taken.
const SPOT_CHECKS: usize = 20_000;
/// How many lines a reference label may move away from its line to stay off the
/// other labels.
const MOVED_LINES: usize = 3;

impl LaneCtx<'_> {
    /// The peak, lower-bound and capacity lines with their labels. A label sits at an
    /// end of its line, inside the chart (never cut by its top border), on the first of
    /// its spots that no plane covers and no other label takes: the peak's above its
    /// line when there is room, else under it; the lower bound's under its line, else
    /// above it, at the right end, else at the left.
    pub(super) fn reference_lines(&self, p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            ..
        } = *self;
        let info = &chart.lanes()[lane];
        let line = |a: Bytes, role, dash, p: &mut dyn Painter| {
            hline(l, view, lane, a as f64, self.color(role), dash, p)
        };
        frame.peak_y.push(line(info.peak, Role::Peak, 0.0, p));
        // A layout's own bound is no floor of what a re-plan reaches (another layout
        // goes under it): not drawn until the bound over every layout is known.
        let bound = match chart.layout_bound() {
            true => None,
            false => line(info.lower_bound, Role::LowerBound, 5.0, p),
        };
        frame.lower_bound_y.push(bound);
        let cap_y = info
            .capacity
            .and_then(|cap| line(cap, Role::Capacity, 2.0, p));
        frame.capacity_y.push(cap_y);
        let (right, left) = (b.chart.right() - 6.0, b.chart.x + 6.0);
        let mut taken = Vec::new();
        if let Some(y) = frame.peak_y[lane] {
            let text = format!("{} = {}", chart.words().peak_line, bytes_long(info.peak));
            let st = TextStyle {
                bold: true,
                ..style(self.color(Role::Peak), 12.0, Align::Right)
            };
            let spots = [(right, y - 8.0), (right, y + 10.0), (left, y + 10.0)];
            self.reference_label(&text, st, y, &spots, &mut taken, p);
        }
        if let Some(y) = frame.lower_bound_y[lane] {
            let text = format!("{} = {}", chart.bound_name(), bytes_long(info.lower_bound));
            let st = style(self.color(Role::LowerBound), 11.0, Align::Right);
            // Last, a line lower: under the peak's label when both lines are one.
            let spots = [
                (right, y + 9.0),
                (right, y - 8.0),
                (left, y + 9.0),
                (left, y - 8.0),
                (left, y + 27.0),
                (right, y + 27.0),
            ];
            self.reference_label(&text, st, y, &spots, &mut taken, p);
        }
        if let (Some(cap), Some(y)) = (info.capacity, cap_y) {
            let verdict = if info.peak <= cap { "fits" } else { "over" };
            let text = format!("Capacity = {} ({verdict})", bytes_long(cap));
            let st = TextStyle {
                bold: true,
                ..style(self.color(Role::Capacity), 11.0, Align::Left)
            };
            let spots = [
                (left, y - 8.0),
                (left, y + 9.0),
                (right, y - 8.0),
                (right, y + 9.0),
            ];
            self.reference_label(&text, st, y, &spots, &mut taken, p);
        }
    }

    /// Draws a reference line's label at the first of `spots` (the text's anchor: its
    /// right end at the right of the chart, its left end at the left, and its middle)
    /// that lies inside the chart, off the labels `taken` and off every plane; else at
    /// the first inside the chart and off `taken`; else, when lines lie a few pixels
    /// apart (a capacity just above a peak at its bound) and every spot touches another
    /// label, at the nearest spot moved a line at a time away from its line (up for
    /// spots above it, down for those below) that is inside and off `taken`; else at
    /// the first. Right-aligned styles turn left-aligned at the left end.
    fn reference_label(
        &self,
        text: &str,
        st: TextStyle,
        line_y: f64,
        spots: &[(f64, f64)],
        taken: &mut Vec<Rect>,
        p: &mut dyn Painter,
    ) {
        let w = p.text_width(text, st.size, st.bold);
        let mid = self.b.chart.x + self.b.chart.w / 2.0;
        let placed: Vec<(TextStyle, f64, f64, Rect)> = spots
            .iter()
            .map(|&(x, y)| {
                let align = if x < mid { Align::Left } else { Align::Right };
                let st = TextStyle { align, ..st };
                (st, x, y, label_box(x, y, w, st))
            })
            .collect();
        let chart = self.b.chart;
        let inside = |r: &Rect| r.y >= chart.y + 1.0 && r.bottom() <= chart.bottom() - 1.0;
        let free = |r: &Rect| inside(r) && !taken.iter().any(|t| t.intersects(r));
        let step = st.size + 5.0;
        let moved = (1..=MOVED_LINES).flat_map(|k| {
            placed.iter().map(move |&(st, x, y, _)| {
                let y = if y < line_y {
                    y - k as f64 * step
                } else {
                    y + k as f64 * step
                };
                (st, x, y, label_box(x, y, w, st))
            })
        });
        let best = placed
            .iter()
            .copied()
            .find(|s| free(&s.3) && !self.covered(&s.3))
            .or_else(|| placed.iter().copied().find(|s| free(&s.3)))
            .or_else(|| moved.clone().find(|s| free(&s.3) && !self.covered(&s.3)))
            .or_else(|| moved.clone().find(|s| free(&s.3)))
            .unwrap_or(placed[0]);
        let (st, x, y, patch) = best;
        backed_text(p, text, x, y, st, self.color(Role::Background));
        taken.push(patch);
    }

    /// True when a part of the lane lies under `r` (pixels), judged from the data so
    /// that tiny and aggregated planes count; a spot over more parts than
    /// [`SPOT_CHECKS`] looked at counts as covered.
    fn covered(&self, r: &Rect) -> bool {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            ..
        } = *self;
        let (t0, t1) = (l.clock_at(view, r.x), l.clock_at(view, r.right()));
        let (a0, a1) = (
            l.address_at(view, lane, r.bottom()),
            l.address_at(view, lane, r.y),
        );
        let mut visible = chart.lod_index().visible(chart.parts(), t0, t1);
        let mut checked = 0;
        visible.any(|k| {
            checked += 1;
            let q = &chart.parts()[k];
            let under = q.lane == lane && f64::from(q.t0) < t1 && (q.a0 as f64) < a1;
            checked > SPOT_CHECKS || (under && (q.a1 as f64) > a0)
        })
    }
}

/// The translucent patch under a reference label: the text's box (`x` its right end,
/// or its left end for left-aligned text; `y` its middle; `w` its width) and a margin.
fn label_box(x: f64, y: f64, w: f64, st: TextStyle) -> Rect {
    let left = match st.align {
        Align::Left => x,
        _ => x - w,
    };
    Rect {
        x: left - 3.0,
        y: y - st.size / 2.0 - 2.0,
        w: w + 6.0,
        h: st.size + 4.0,
    }
}

/// Text on a translucent patch of `background`, so the peak, lower-bound and capacity
/// labels stay readable over a dense plan. `x` is the text's right end, or its left
/// end for left-aligned text.
fn backed_text(p: &mut dyn Painter, text: &str, x: f64, y: f64, st: TextStyle, background: Color) {
    let patch = label_box(x, y, p.text_width(text, st.size, st.bold), st);
    p.fill_rects(
        Fill {
            color: background.with_alpha(210),
            pattern: Pattern::Solid,
        },
        &[patch],
    );
    p.text(text, x, y, st);
}

/// A horizontal line across a lane's chart at address `a`; its row if visible.
#[allow(clippy::too_many_arguments)]
fn hline(
    l: &PixelLayout,
    view: &View,
    lane: usize,
    a: f64,
    color: Color,
    dash: f64,
    p: &mut dyn Painter,
) -> Option<f64> {
    let b = l.lanes[lane].chart;
    let y = view.snap(l.y_of(view, lane, a));
    if y < b.y - 0.5 || y > b.bottom() + 0.5 {
        return None;
    }
    p.line(
        &[(b.x, y), (b.right(), y)],
        Stroke {
            color,
            width: 1.5,
            dash,
        },
    );
    Some(y)
}
