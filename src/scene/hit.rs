//! Which plane is under the pointer. Works on data, not on the last frame: the point
//! becomes a clock and an address, and the topmost part holding it wins (parts are
//! in drawing order). Parts thinner than a pixel are found within one pixel, so the
//! rasterized ones stay pickable. The clock index ([`super::chart::PartIndex`]) limits
//! the search to the parts live within a pixel of the pointer's clock.

use super::chart::Chart;
use super::view::{PixelLayout, View};
use crate::model::{Bytes, Clock};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub plane: usize,
    /// The pointer is on the wrapped part.
    pub wrapped: bool,
    pub lane: usize,
    pub clock: Clock,
    pub address: Bytes,
}

pub fn hit_test(chart: &Chart, view: &View, x: f64, y: f64) -> Option<Hit> {
    let l = PixelLayout::new(chart, view);
    let lane = l.lane_at(y)?;
    let b = l.lanes[lane].chart;
    if !b.contains(x, y) {
        return None;
    }
    let t = l.clock_at(view, x);
    let a = l.address_at(view, lane, y);
    if t < 0.0 || a < 0.0 {
        return None;
    }
    // One pixel in data units, for the tolerant second pass.
    let dt = (view.t1 - view.t0) / l.plot_w.max(1.0);
    let da = (l.address_at(view, lane, y) - l.address_at(view, lane, y + 1.0)).abs();
    let mut near = None;
    // Clocks are whole: `t0 <= t + dt` is `t0 < floor(t + dt) + 1`.
    let candidates = chart
        .lod_index()
        .visible(chart.parts(), t - dt, (t + dt).floor() + 1.0);
    for q in candidates
        .rev()
        .map(|k| &chart.parts()[k])
        .filter(|q| q.lane == lane)
    {
        let (t0, t1, a0, a1) = (f64::from(q.t0), q.t1 as f64, q.a0 as f64, q.a1 as f64);
        if t0 <= t && t < t1 && a0 <= a && a < a1 {
            near = Some(q);
            break;
        }
        if near.is_none() && t0 - dt <= t && t < t1 + dt && a0 - da <= a && a < a1 + da {
            near = Some(q);
        }
    }
    near.map(|q| Hit {
        plane: q.plane,
        wrapped: q.wrapped,
        lane,
        clock: t.floor() as Clock,
        address: a.floor() as Bytes,
    })
}

/// The clock under `(x, y)` when the point is over a lane's chart, its live strip or
/// the clock axis (with the step names) under the last lane, with the lane (the last
/// for the axis): what the page lists as live when the user clicks there.
pub fn clock_at(chart: &Chart, view: &View, x: f64, y: f64) -> Option<(usize, Clock)> {
    let l = PixelLayout::new(chart, view);
    if x < l.plot_x || x > l.plot_x + l.plot_w {
        return None;
    }
    let below = y >= l.axis_y && y <= l.axis_y + super::view::BOTTOM;
    let lane = l
        .lane_at(y)
        .or_else(|| below.then(|| l.lanes.len().saturating_sub(1)))?;
    let t = l.clock_at(view, x).floor();
    let last = chart.horizon().saturating_sub(1) as f64;
    (t >= 0.0 && t <= last).then_some((lane, t as Clock))
}
