//! Grid, the address and clock axes with the step names under the ticks, the lanes'
//! titles, the live-bytes strip and the marked clock.

use super::labels::Short;
use super::{cells, stroke, style, Frame, LaneCtx, Options};
use crate::model::Clock;
use crate::scene::axis::{self, address_label};
use crate::scene::chart::Chart;
use crate::scene::paint::{Align, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use crate::scene::theme::Role;
use crate::scene::view::{PixelLayout, View};

/// A lane's title stands this far above its chart (its middle), in the margin the
/// layout leaves there ([`super::view::TITLED_TOP`]).
const TITLE_ABOVE: f64 = 10.0;

/// Font size of the step names under the clock ticks.
const NAME_FONT: f64 = 9.0;

/// Under each clock tick, the name of the step that runs then (shortened to the room
/// between ticks, as plane labels are), when the plan names its steps: the x axis
/// reads as the model's operators, not only as numbers.
pub(super) fn step_names(
    chart: &Chart,
    view: &View,
    layout: &PixelLayout,
    xticks: &[u64],
    p: &mut dyn Painter,
    frame: &mut Frame,
    opts: &Options,
) {
    if chart.words().node.is_none() {
        return;
    }
    let room = match xticks {
        [a, b, ..] => (layout.x_of(view, *b as f64) - layout.x_of(view, *a as f64)) - 8.0,
        _ => layout.plot_w - 8.0,
    };
    let st = style(opts.theme.color(Role::Axis), NAME_FONT, Align::Center);
    let y = layout.axis_y + 24.0;
    for &t in xticks {
        let Some(step) = Clock::try_from(t).ok().and_then(|c| chart.step_at(c)) else {
            continue;
        };
        let name = chart.step_name(step);
        // A buffer list's steps are named by their clock: nothing more to say.
        if name == t.to_string() {
            continue;
        }
        let kind = &chart.plan().steps[step].kind;
        let short = Short {
            prefix: chart.name_prefix(),
            kind,
        };
        let Some((text, _)) = short.fit(&name, room, NAME_FONT, p) else {
            continue;
        };
        let x = view.snap(layout.x_of(view, t as f64)) + 0.5 / view.dpr;
        p.text(&text, x, y, st);
        frame.tick_names.push((t, text));
    }
}

impl LaneCtx<'_> {
    /// The clock whose live buffers the page lists ([`Options::clock`]): a dashed line
    /// down the middle of its column in the chart, its column filled in the strip.
    pub(super) fn clock_mark(&self, p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            view, l, b, opts, ..
        } = *self;
        let Some(t) = opts.clock else {
            return;
        };
        let (x0, x1) = (l.x_of(view, f64::from(t)), l.x_of(view, f64::from(t) + 1.0));
        let x = view.snap((x0 + x1) / 2.0);
        if x < b.chart.x || x > b.chart.right() {
            return;
        }
        let color = self.color(Role::Select);
        p.line(
            &[(x, b.chart.y), (x, b.chart.bottom())],
            Stroke {
                color,
                width: 1.5,
                dash: 4.0,
            },
        );
        let (c0, c1) = (x0.max(b.strip.x), x1.min(b.strip.right()));
        let band = Rect {
            x: c0.min(x - 1.0),
            y: b.strip.y,
            w: (c1 - c0).max(2.0),
            h: b.strip.h,
        };
        p.fill_rects(
            Fill {
                color: color.with_alpha(110),
                pattern: Pattern::Solid,
            },
            &[band],
        );
        frame.clock_x = Some(x);
    }

    /// Grid lines at the clock and address ticks.
    pub(super) fn grid(&self, xticks: &[u64], yticks: &[u64], p: &mut dyn Painter) {
        let LaneCtx {
            view, l, lane, b, ..
        } = *self;
        let grid = stroke(self.color(Role::Grid), 1.0);
        for &t in xticks {
            let x = view.snap(l.x_of(view, t as f64)) + 0.5 / view.dpr;
            p.line(&[(x, b.chart.y), (x, b.chart.bottom())], grid);
        }
        for &a in yticks {
            let y = view.snap(l.y_of(view, lane, a as f64)) + 0.5 / view.dpr;
            p.line(&[(b.chart.x, y), (b.chart.right(), y)], grid);
        }
    }

    /// The address axis and the lane's title, above its chart.
    pub(super) fn axes(&self, yticks: &[u64], p: &mut dyn Painter) {
        let LaneCtx {
            chart,
            view,
            opts,
            l,
            lane,
            b,
            a_lo,
            a_hi,
        } = *self;
        let axis = self.color(Role::Axis);
        p.stroke_rects(stroke(axis, 1.0), &[b.chart]);
        let span = a_hi - a_lo;
        for &a in yticks {
            let y = l.y_of(view, lane, a as f64);
            p.line(&[(b.chart.x - 4.0, y), (b.chart.x, y)], stroke(axis, 1.0));
            let label = address_label(a, span, opts.hex);
            p.text(&label, b.chart.x - 6.0, y, style(axis, 10.0, Align::Right));
        }
        if chart.titled() {
            let info = &chart.lanes()[lane];
            let st = TextStyle {
                bold: true,
                ..style(axis, 11.0, Align::Left)
            };
            let peak = format!(" — peak {}", axis::bytes_short(info.peak));
            let title = lane_title(p, &info.name, &peak, b.chart.w, st);
            p.text(&title, b.chart.x, b.chart.y - TITLE_ABOVE, st);
        }
    }

    /// Live bytes per clock as bars, merged per pixel column (max of the column).
    pub(super) fn strip(&self, xticks: &[u64], p: &mut dyn Painter) {
        let LaneCtx {
            chart,
            view,
            l,
            lane,
            b,
            ..
        } = *self;
        let info = &chart.lanes()[lane];
        let s = b.strip;
        let solid = |role| Fill {
            color: self.color(role),
            pattern: Pattern::Solid,
        };
        p.clip(Some(s));
        p.fill_rects(solid(Role::StripBackground), &[s]);
        for &t in xticks {
            let x = view.snap(l.x_of(view, t as f64)) + 0.5 / view.dpr;
            p.line(
                &[(x, s.y), (x, s.bottom())],
                stroke(self.color(Role::Grid), 1.0),
            );
        }
        let cols = s.w.ceil() as usize;
        let mut col_max: Vec<u64> = vec![0; cols];
        let top = info.max_live.max(1) as f64;
        for (k, &(from, bytes)) in info.live.iter().enumerate() {
            let to = info
                .live
                .get(k + 1)
                .map_or(chart.horizon() as f64, |r| f64::from(r.0));
            let (x0, x1) = (l.x_of(view, f64::from(from)), l.x_of(view, to));
            if x1 <= s.x || x0 >= s.right() || bytes == 0 {
                continue;
            }
            let (c0, c1) = cells(x0 - s.x, (x1 - x0).max(0.01), cols);
            for c in &mut col_max[c0..c1] {
                *c = (*c).max(bytes);
            }
        }
        let mut bars = Vec::new();
        let mut c = 0;
        while c < cols {
            let v = col_max[c];
            let start = c;
            while c < cols && col_max[c] == v {
                c += 1;
            }
            if v > 0 {
                let h = v as f64 / top * (s.h - 2.0);
                bars.push(Rect {
                    x: s.x + start as f64,
                    y: s.bottom() - h,
                    w: (c - start) as f64,
                    h,
                });
            }
        }
        p.fill_rects(solid(Role::Strip), &bars);
        p.clip(None);
        let axis = self.color(Role::Axis);
        p.stroke_rects(stroke(axis, 1.0), &[s]);
        let middle = s.y + s.h / 2.0;
        p.text(
            "live",
            s.x - 6.0,
            middle - 6.0,
            style(axis, 10.0, Align::Right),
        );
        let max = axis::bytes_short(info.max_live);
        p.text(
            &max,
            s.x - 6.0,
            middle + 6.0,
            style(axis, 9.0, Align::Right),
        );
    }
}

/// A lane's title within `width`: its name, cut at the end with `…` when the whole
/// does not fit, then `peak` whole (the figure is what a narrow screen must keep: a
/// phone cut "— peak 576.1…" off at the edge).
fn lane_title<P: Painter + ?Sized>(
    p: &mut P,
    name: &str,
    peak: &str,
    width: f64,
    st: TextStyle,
) -> String {
    let whole = format!("{name}{peak}");
    if p.text_width(&whole, st.size, st.bold) <= width {
        return whole;
    }
    let chars: Vec<char> = name.chars().collect();
    for keep in (1..chars.len()).rev() {
        let t: String = chars[..keep].iter().chain(['…'].iter()).collect();
        let t = format!("{}{peak}", t.trim_end());
        if p.text_width(&t, st.size, st.bold) <= width {
            return t;
        }
    }
    peak.trim_start_matches(" — ").to_owned()
}
