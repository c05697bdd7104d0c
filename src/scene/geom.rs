//! The chart's value types in CSS pixels and sRGB: what the painters, the raster of
//! cells and the palette share, so that none of them depends on another for them.

/// An sRGB colour with alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Color {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b, a: 255 }
    }
    pub const fn with_alpha(self, a: u8) -> Color {
        Color { a, ..self }
    }
    /// `#rrggbb` or `rgba(...)`, what canvas `fillStyle` takes.
    pub fn css(&self) -> String {
        if self.a == 255 {
            format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
        } else {
            format!(
                "rgba({},{},{},{:.3})",
                self.r,
                self.g,
                self.b,
                f64::from(self.a) / 255.0
            )
        }
    }
    /// Relative luminance (WCAG), to pick readable text on this colour.
    pub fn luminance(&self) -> f64 {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }
    /// Black or white, whichever reads better on this colour.
    pub fn text_on(&self) -> Color {
        if self.luminance() > 0.22 {
            Color::rgb(0, 0, 0)
        } else {
            Color::rgb(255, 255, 255)
        }
    }
}

/// An axis-aligned rectangle in CSS pixels (y grows downwards, as on a canvas).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn contains(&self, x: f64, y: f64) -> bool {
        self.x <= x && x < self.right() && self.y <= y && y < self.bottom()
    }
    /// This rectangle moved by `at`'s origin.
    pub fn offset(&self, at: &Rect) -> Rect {
        Rect {
            x: self.x + at.x,
            y: self.y + at.y,
            ..*self
        }
    }
    /// True when the two share some area (touching edges do not count).
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }
}
