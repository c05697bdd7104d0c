//! Light and dark themes. The scene draws with the light palette; a dark theme is a
//! [`Painter`] adapter that swaps the chrome colours (background, axes, grid, strip,
//! outlines, reference lines) on their way to the real painter. Plane colours stay:
//! they identify nodes and must read the same in both themes, in the page, in an
//! embedded view and in an export.

use super::paint::{Cells, Color, Fill, Painter, Rect, Stroke, TextStyle};
use super::palette;

/// The live-bytes strip's background (drawn by `render` as a literal).
const STRIP_BACKGROUND: Color = Color::rgb(0xF6, 0xF6, 0xF8);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    /// `light` / `dark`; anything else is `None` (callers decide what auto means).
    pub fn from_name(name: &str) -> Option<Theme> {
        match name {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }

    /// The colour this theme draws for one the scene asked for.
    pub fn map(self, c: Color) -> Color {
        if self == Theme::Light {
            return c;
        }
        let opaque = c.with_alpha(255);
        let swapped = match opaque {
            x if x == palette::BACKGROUND => Color::rgb(0x1B, 0x1D, 0x23),
            x if x == palette::AXIS => Color::rgb(0xC8, 0xCA, 0xD0),
            x if x == palette::GRID => Color::rgb(0x2E, 0x31, 0x39),
            x if x == STRIP_BACKGROUND => Color::rgb(0x23, 0x26, 0x2D),
            x if x == palette::STRIP => Color::rgb(0x9A, 0x9C, 0xB0),
            x if x == palette::SELECT => Color::rgb(0xFF, 0xFF, 0xFF),
            x if x == palette::PEAK => Color::rgb(0xFF, 0x6B, 0x6B),
            x if x == palette::LOWER_BOUND => Color::rgb(0x7F, 0xA8, 0xFF),
            x if x == palette::DENSE => Color::rgb(0x8A, 0x9A, 0xC0),
            x if x == palette::CAPACITY => Color::rgb(0x6F, 0xD0, 0x8C),
            _ => return c,
        };
        swapped.with_alpha(c.a)
    }
}

/// A painter that draws through `inner` in a theme.
pub struct Themed<'a> {
    inner: &'a mut dyn Painter,
    theme: Theme,
}

impl<'a> Themed<'a> {
    pub fn new(inner: &'a mut dyn Painter, theme: Theme) -> Self {
        Themed { inner, theme }
    }
}

impl Painter for Themed<'_> {
    fn fill_rects(&mut self, fill: Fill, rects: &[Rect]) {
        let color = self.theme.map(fill.color);
        self.inner.fill_rects(Fill { color, ..fill }, rects);
    }
    fn cells(&mut self, at: Rect, grid: &Cells) -> usize {
        let colors: Vec<Color> = grid.colors.iter().map(|&c| self.theme.map(c)).collect();
        self.inner.cells(
            at,
            &Cells {
                colors: &colors,
                ..*grid
            },
        )
    }
    fn stroke_rects(&mut self, stroke: Stroke, rects: &[Rect]) {
        let color = self.theme.map(stroke.color);
        self.inner.stroke_rects(Stroke { color, ..stroke }, rects);
    }
    fn line(&mut self, points: &[(f64, f64)], stroke: Stroke) {
        let color = self.theme.map(stroke.color);
        self.inner.line(points, Stroke { color, ..stroke });
    }
    /// Labels inside planes are black or white for their plane's colour
    /// ([`Color::text_on`]) and keep it; other text follows the theme.
    fn text(&mut self, text: &str, x: f64, y: f64, style: TextStyle) {
        let on_plane = [Color::rgb(0, 0, 0), Color::rgb(255, 255, 255)];
        let color = if on_plane.contains(&style.color) {
            style.color
        } else {
            self.theme.map(style.color)
        };
        self.inner.text(text, x, y, TextStyle { color, ..style });
    }
    fn text_width(&mut self, text: &str, size: f64, bold: bool) -> f64 {
        self.inner.text_width(text, size, bold)
    }
    fn clip(&mut self, rect: Option<Rect>) {
        self.inner.clip(rect);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_swaps_chrome_and_keeps_node_colours() {
        let dark = Theme::Dark;
        assert!(dark.map(palette::BACKGROUND).luminance() < 0.05);
        assert!(dark.map(palette::AXIS).luminance() > 0.5);
        for c in palette::NODES {
            assert_eq!(dark.map(c), c);
        }
        // Alpha survives the swap (the hover outline is translucent black).
        let outline = palette::SELECT.with_alpha(90);
        assert_eq!(dark.map(outline).a, 90);
        assert_eq!(Theme::Light.map(palette::BACKGROUND), palette::BACKGROUND);
    }
}
