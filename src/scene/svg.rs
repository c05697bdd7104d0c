//! The SVG [`Painter`]: the same calls the canvas gets, written as SVG elements, so
//! an exported picture (CLI `memplan render`, the page's SVG export) has exactly the
//! shapes of the chart on screen — one drawing code path, two surfaces.
//!
//! Every filled rectangle becomes one `<rect>` (a pattern fill adds a second `<rect>`
//! with the pattern over the base colour, as the canvas fills twice); strokes,
//! polylines and text map one to one; a clip opens a `<g clip-path>` that the next
//! clip closes. Names from dumps are XML-escaped, never markup. Over the picture, an
//! unfilled `<rect class="name">` per drawn plane carries a `<title>` (its full name
//! and size), so a viewer's tooltip names planes whose label is cut or absent.

use super::chart::Chart;
use super::paint::{Align, Color, Fill, Painter, Pattern, Rect, Stroke, TextStyle};
use super::render::{render, Frame, Options};
use super::view::View;
use std::fmt::Write;

/// Font stack of the page, so a rendered SVG looks like the canvas.
const FONT_FAMILY: &str = "system-ui, DejaVu Sans, sans-serif";

/// Collects the elements of one picture; [`SvgPainter::finish`] wraps them.
#[derive(Debug)]
pub struct SvgPainter {
    width: f64,
    height: f64,
    body: String,
    clips: usize,
    clip_open: bool,
}

/// Coordinates with at most 3 decimals and no trailing zeros, to keep files small.
fn num(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r == r.trunc() && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// `fill="#rrggbb"` plus `fill-opacity` when translucent (SVG 1.1 viewers and resvg
/// read these, not every one reads `rgba()`).
fn paint_attr(attr: &str, c: Color) -> String {
    let hex = format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
    if c.a == 255 {
        format!("{attr}=\"{hex}\"")
    } else {
        format!(
            "{attr}=\"{hex}\" {attr}-opacity=\"{:.3}\"",
            f64::from(c.a) / 255.0
        )
    }
}

/// Text as XML character data: `&`, `<`, `>`, quotes escaped; control characters
/// (invalid in XML 1.0) dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

impl SvgPainter {
    /// A picture of `width` × `height` CSS pixels.
    pub fn new(width: f64, height: f64) -> SvgPainter {
        SvgPainter {
            width,
            height,
            body: String::new(),
            clips: 0,
            clip_open: false,
        }
    }

    /// The complete SVG document. The pattern tiles are the canvas painter's: 8-px
    /// light bands for stripes, a dark and a light diagonal for hatching.
    pub fn finish(mut self) -> String {
        self.close_clip();
        let (w, h) = (num(self.width), num(self.height));
        let mut s = String::with_capacity(self.body.len() + 1024);
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">\n<defs>\n\
             <pattern id=\"stripes\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
             <rect width=\"8\" height=\"3\" fill=\"#ffffff\" fill-opacity=\"0.55\"/></pattern>\n\
             <pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\">\
             <path d=\"M0 8L8 0\" stroke=\"#000000\" stroke-opacity=\"0.45\" stroke-width=\"1.5\"/>\
             <path d=\"M0 4L4 0M4 8L8 4\" stroke=\"#ffffff\" stroke-opacity=\"0.5\" stroke-width=\"1.5\"/>\
             </pattern>\n</defs>\n"
        );
        s.push_str(&self.body);
        s.push_str("</svg>\n");
        s
    }

    fn close_clip(&mut self) {
        if self.clip_open {
            self.body.push_str("</g>\n");
            self.clip_open = false;
        }
    }

    fn stroke_attrs(s: Stroke) -> String {
        let mut a = format!(
            "fill=\"none\" {} stroke-width=\"{}\"",
            paint_attr("stroke", s.color),
            num(s.width)
        );
        if s.dash > 0.0 {
            let d = num(s.dash);
            let _ = write!(a, " stroke-dasharray=\"{d} {d}\"");
        }
        a
    }

    fn rect(&mut self, r: &Rect, attrs: &str) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {attrs}/>",
            num(r.x),
            num(r.y),
            num(r.w),
            num(r.h)
        );
    }
}

impl Painter for SvgPainter {
    fn fill_rects(&mut self, fill: Fill, rects: &[Rect]) {
        let base = paint_attr("fill", fill.color);
        let pattern = match fill.pattern {
            Pattern::Solid => None,
            Pattern::Stripes => Some("fill=\"url(#stripes)\" class=\"pattern\""),
            Pattern::Hatch => Some("fill=\"url(#hatch)\" class=\"pattern\""),
        };
        for r in rects {
            self.rect(r, &base);
            if let Some(p) = pattern {
                self.rect(r, p);
            }
        }
    }

    fn stroke_rects(&mut self, stroke: Stroke, rects: &[Rect]) {
        let attrs = Self::stroke_attrs(stroke);
        for r in rects {
            self.rect(r, &attrs);
        }
    }

    fn line(&mut self, points: &[(f64, f64)], stroke: Stroke) {
        if points.len() < 2 {
            return;
        }
        let pts: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{},{}", num(x), num(y)))
            .collect();
        let _ = writeln!(
            self.body,
            "<polyline points=\"{}\" {}/>",
            pts.join(" "),
            Self::stroke_attrs(stroke)
        );
    }

    fn text(&mut self, text: &str, x: f64, y: f64, style: TextStyle) {
        let anchor = match style.align {
            Align::Left => "start",
            Align::Center => "middle",
            Align::Right => "end",
        };
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{} text-anchor=\"{anchor}\" \
             dominant-baseline=\"central\" {}>{}</text>",
            num(x),
            num(y),
            num(style.size),
            if style.bold {
                " font-weight=\"bold\""
            } else {
                ""
            },
            paint_attr("fill", style.color),
            escape(text)
        );
    }

    /// The recording painter's estimate: an SVG has no font to measure with, and the
    /// viewer that opens it picks its own.
    fn text_width(&mut self, text: &str, size: f64, _bold: bool) -> f64 {
        0.6 * size * text.chars().count() as f64
    }

    fn clip(&mut self, rect: Option<Rect>) {
        self.close_clip();
        if let Some(r) = rect {
            self.clips += 1;
            let id = self.clips;
            let _ = writeln!(
                self.body,
                "<clipPath id=\"c{id}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/></clipPath>\n<g clip-path=\"url(#c{id})\">",
                num(r.x),
                num(r.y),
                num(r.w),
                num(r.h)
            );
            self.clip_open = true;
        }
    }
}

/// The chart as an SVG document of `view`'s CSS size, in `opts.theme`, and what was
/// drawn.
pub fn to_svg(chart: &Chart, view: &View, opts: &Options) -> (String, Frame) {
    let mut svg = SvgPainter::new(view.width, view.height);
    let frame = render(chart, view, opts, &mut svg);
    svg.close_clip();
    for d in &frame.drawn {
        let size = chart.plan().planes.get(d.plane).map_or(0, |p| p.size);
        let _ = writeln!(
            svg.body,
            "<rect class=\"name\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
             pointer-events=\"all\"><title>{} · {}</title></rect>",
            num(d.rect.x),
            num(d.rect.y),
            num(d.rect.w),
            num(d.rect.h),
            escape(&chart.name(d.plane)),
            escape(&super::axis::bytes_long(size)),
        );
    }
    (svg.finish(), frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, BufferList, Plan};

    /// Two buffers with names that are markup.
    fn plan() -> Plan {
        let b = |i: u64, lower, upper, size| Buffer::new(format!("n<{i}>&"), lower, upper, size);
        let list = BufferList {
            buffers: vec![b(0, 0, 3, 64), b(1, 1, 4, 32)],
            capacity: None,
        };
        list.to_plan(&[0, 64])
    }

    #[test]
    fn escapes_names_and_drops_control_characters() {
        assert_eq!(escape("a<b>&\"c'\u{1}"), "a&lt;b&gt;&amp;&quot;c&apos;");
    }

    #[test]
    fn one_rect_per_filled_rectangle_like_the_recording() {
        let chart = Chart::new(plan());
        let view = View::fit(&chart, 640.0, 300.0, 1.0);
        let opts = Options {
            names: true,
            ..Options::default()
        };
        let mut rec = crate::scene::RecordingPainter::new();
        render(&chart, &view, &opts, &mut rec);
        let (svg, frame) = to_svg(&chart, &view, &opts);
        let filled = rec.filled().count();
        let patterned = rec
            .filled()
            .filter(|(f, _)| f.pattern != Pattern::Solid)
            .count();
        let base_rects = svg
            .lines()
            .filter(|l| l.starts_with("<rect ") && !l.contains("fill=\"none\""))
            .filter(|l| !l.contains("class=\"pattern\""))
            .count();
        assert_eq!(base_rects, filled);
        assert_eq!(svg.matches("class=\"pattern\"").count(), patterned);
        for d in &frame.drawn {
            let needle = format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
                num(d.rect.x),
                num(d.rect.y),
                num(d.rect.w),
                num(d.rect.h)
            );
            assert!(svg.contains(&needle), "plane {} missing", d.plane);
        }
        // Names are text, escaped; every drawn plane has a title with its full name.
        assert!(svg.contains("n&lt;0&gt;&amp;"));
        assert_eq!(svg.matches("<title>").count(), frame.drawn.len());
        assert!(svg.contains("<title>n&lt;1&gt;&amp; · 32 B</title>"));
        assert!(!svg.contains("n<0>"));
        // Every clip group is closed.
        assert_eq!(svg.matches("<g ").count(), svg.matches("</g>").count());
    }
}
