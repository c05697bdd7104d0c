//! The drawing seam: the scene speaks to a [`Painter`] in CSS pixels, and two painters
//! listen — `web::CanvasPainter` in the page and [`RecordingPainter`] in native tests.
//!
//! The calls are few and batched (a list of rectangles per fill) because from wasm
//! every canvas call crosses into JS: the scene groups, culls and merges before it
//! calls, so the painter never has to.

pub use super::cells::Cells;
pub use super::geom::{Color, Rect};

/// How a rectangle is filled. Patterns carry meaning, not decoration: stripes mark
/// planes whose size differs from their stride (interleaved concatenation), hatching
/// marks producers (weights and inputs), so the information survives without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    Solid,
    /// Horizontal stripes over the base colour.
    Stripes,
    /// Diagonal hatching over the base colour.
    Hatch,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fill {
    pub color: Color,
    pub pattern: Pattern,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    pub color: Color,
    pub width: f64,
    /// Dash length (gap equal); 0 for a solid line.
    pub dash: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextStyle {
    pub color: Color,
    /// Font size in CSS pixels.
    pub size: f64,
    pub align: Align,
    pub bold: bool,
}

/// What the scene needs from a drawing surface. Coordinates are CSS pixels; text `y`
/// is the vertical middle of the text.
pub trait Painter {
    /// Fills every rectangle with one fill.
    fn fill_rects(&mut self, fill: Fill, rects: &[Rect]);
    /// Paints a grid of one-CSS-pixel cells from `at`'s corner and returns the fill
    /// calls made. By default runs of equal cells become rectangles; a canvas blits
    /// the grid as one image, which costs the same whatever the plan shows.
    fn cells(&mut self, at: Rect, grid: &Cells) -> usize {
        paint_runs(self, at, grid)
    }
    /// Outlines every rectangle with one stroke.
    fn stroke_rects(&mut self, stroke: Stroke, rects: &[Rect]);
    /// A polyline.
    fn line(&mut self, points: &[(f64, f64)], stroke: Stroke);
    fn text(&mut self, text: &str, x: f64, y: f64, style: TextStyle);
    /// Width the text would take, for label placement.
    fn text_width(&mut self, text: &str, size: f64, bold: bool) -> f64;
    /// Restricts drawing to `rect` until the next call; `None` lifts the clip.
    fn clip(&mut self, rect: Option<Rect>);
}

/// One recorded call of a [`RecordingPainter`].
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Fill(Fill, Vec<Rect>),
    Stroke(Stroke, Vec<Rect>),
    Line(Vec<(f64, f64)>, Stroke),
    Text(String, f64, f64, TextStyle),
    Clip(Option<Rect>),
}

/// Records every call, for tests and for the page's test hook. Text is measured as
/// `0.6 × size` per character, close to a sans-serif font's average.
#[derive(Debug, Default, Clone)]
pub struct RecordingPainter {
    pub calls: Vec<Call>,
}

impl RecordingPainter {
    pub fn new() -> Self {
        Self::default()
    }
    /// Every filled rectangle with its fill, in drawing order.
    pub fn filled(&self) -> impl Iterator<Item = (Fill, Rect)> + '_ {
        self.calls.iter().flat_map(|c| match c {
            Call::Fill(f, rs) => rs.iter().map(|r| (*f, *r)).collect::<Vec<_>>(),
            _ => Vec::new(),
        })
    }
    /// Every text drawn with its position.
    pub fn texts(&self) -> impl Iterator<Item = (&str, f64, f64, &TextStyle)> + '_ {
        self.calls.iter().filter_map(|c| match c {
            Call::Text(t, x, y, s) => Some((t.as_str(), *x, *y, s)),
            _ => None,
        })
    }
}

impl Painter for RecordingPainter {
    fn fill_rects(&mut self, fill: Fill, rects: &[Rect]) {
        self.calls.push(Call::Fill(fill, rects.to_vec()));
    }
    fn stroke_rects(&mut self, stroke: Stroke, rects: &[Rect]) {
        self.calls.push(Call::Stroke(stroke, rects.to_vec()));
    }
    fn line(&mut self, points: &[(f64, f64)], stroke: Stroke) {
        self.calls.push(Call::Line(points.to_vec(), stroke));
    }
    fn text(&mut self, text: &str, x: f64, y: f64, style: TextStyle) {
        self.calls.push(Call::Text(text.to_owned(), x, y, style));
    }
    fn text_width(&mut self, text: &str, size: f64, _bold: bool) -> f64 {
        0.6 * size * text.chars().count() as f64
    }
    fn clip(&mut self, rect: Option<Rect>) {
        self.calls.push(Call::Clip(rect));
    }
}

/// Paints a raster as [`super::cells::runs`]: one fill per colour. Returns the fill
/// calls made.
pub fn paint_runs<P: Painter + ?Sized>(p: &mut P, at: Rect, grid: &Cells) -> usize {
    let by_color = super::cells::runs(grid);
    for (color, rects) in &by_color {
        let placed: Vec<Rect> = rects.iter().map(|r| r.offset(&at)).collect();
        let fill = Fill {
            color: *color,
            pattern: Pattern::Solid,
        };
        p.fill_rects(fill, &placed);
    }
    by_color.len()
}
