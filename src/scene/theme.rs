//! Light and dark themes. The scene names what each chrome colour is for (a [`Role`]:
//! background, axes, grid, strip, outlines, reference lines) and the frame's theme
//! ([`super::render::Options::theme`]) says which colour that is. Plane colours are not
//! roles: they identify nodes and must read the same in both themes, in the page, in
//! an embedded view and in an export.

use super::geom::Color;
use super::palette;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

/// What a chrome colour is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Background,
    Axis,
    Grid,
    /// The live-bytes strip's background, and its bars.
    StripBackground,
    Strip,
    /// The thin outline of planes large enough to have one.
    Outline,
    /// Hover and selection.
    Select,
    Peak,
    LowerBound,
    Capacity,
    Finding,
    Match,
    /// Planes too thin and too many to draw one by one.
    Dense,
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

    /// The colour of `role` in this theme.
    pub fn color(self, role: Role) -> Color {
        let light = match role {
            Role::Background => palette::BACKGROUND,
            Role::Axis => palette::AXIS,
            Role::Grid => palette::GRID,
            Role::StripBackground => palette::STRIP_BACKGROUND,
            Role::Strip => palette::STRIP,
            Role::Outline => palette::OUTLINE,
            Role::Select => palette::SELECT,
            Role::Peak => palette::PEAK,
            Role::LowerBound => palette::LOWER_BOUND,
            Role::Capacity => palette::CAPACITY,
            Role::Finding => palette::FINDING,
            Role::Match => palette::MATCH,
            Role::Dense => palette::DENSE,
        };
        if self == Theme::Light {
            return light;
        }
        let dark = match role {
            Role::Background => Color::rgb(0x1B, 0x1D, 0x23),
            Role::Axis => Color::rgb(0xC8, 0xCA, 0xD0),
            Role::Grid => Color::rgb(0x2E, 0x31, 0x39),
            Role::StripBackground => Color::rgb(0x23, 0x26, 0x2D),
            Role::Strip => Color::rgb(0x9A, 0x9C, 0xB0),
            // The light outline is translucent black: translucent white here.
            Role::Select | Role::Outline => Color::rgb(0xFF, 0xFF, 0xFF),
            Role::Peak => Color::rgb(0xFF, 0x6B, 0x6B),
            Role::LowerBound => Color::rgb(0x7F, 0xA8, 0xFF),
            Role::Dense => Color::rgb(0x8A, 0x9A, 0xC0),
            Role::Capacity => Color::rgb(0x6F, 0xD0, 0x8C),
            Role::Finding | Role::Match => light,
        };
        dark.with_alpha(light.a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_swaps_chrome_and_light_is_the_palette() {
        let dark = Theme::Dark;
        assert!(dark.color(Role::Background).luminance() < 0.05);
        assert!(dark.color(Role::Axis).luminance() > 0.5);
        // Alpha survives the swap (the outline is translucent black, then white).
        assert_eq!(dark.color(Role::Outline).a, palette::OUTLINE.a);
        assert_eq!(Theme::Light.color(Role::Background), palette::BACKGROUND);
        assert_eq!(Theme::Light.color(Role::Outline), palette::OUTLINE);
    }
}
