//! Colours. Planes take Paul Tol's "muted" qualitative palette (colour-blind safe),
//! one colour per node, so every plane of a node shares it; lines use reserved
//! colours the palette does not contain. The chrome colours here are the light
//! theme's; the scene asks for them by role ([`super::theme::Role`]).

use super::geom::Color;

/// Paul Tol's muted scheme, ordered so that neighbouring nodes contrast.
pub const NODES: [Color; 9] = [
    Color::rgb(0x33, 0x22, 0x88), // indigo
    Color::rgb(0xDD, 0xCC, 0x77), // sand
    Color::rgb(0x11, 0x77, 0x33), // green
    Color::rgb(0xCC, 0x66, 0x77), // rose
    Color::rgb(0x88, 0xCC, 0xEE), // cyan
    Color::rgb(0x88, 0x22, 0x55), // wine
    Color::rgb(0x44, 0xAA, 0x99), // teal
    Color::rgb(0x99, 0x99, 0x33), // olive
    Color::rgb(0xAA, 0x44, 0x99), // purple
];

pub fn node(node: usize) -> Color {
    NODES[node_index(node)]
}

/// Index into [`NODES`] of a node's colour.
pub fn node_index(node: usize) -> usize {
    node % NODES.len()
}

pub const PEAK: Color = Color::rgb(0xD0, 0x10, 0x10);
pub const LOWER_BOUND: Color = Color::rgb(0x1F, 0x4E, 0xB4);
/// The capacity a file states (dashed): the line a plan must stay under.
pub const CAPACITY: Color = Color::rgb(0x2E, 0x8B, 0x57);
pub const FINDING: Color = Color::rgb(0xFF, 0x00, 0x00);
pub const MATCH: Color = Color::rgb(0xFF, 0x8C, 0x00);
pub const SELECT: Color = Color::rgb(0x00, 0x00, 0x00);
pub const AXIS: Color = Color::rgb(0x44, 0x44, 0x44);
pub const GRID: Color = Color::rgb(0xE6, 0xE6, 0xE6);
pub const BACKGROUND: Color = Color::rgb(0xFF, 0xFF, 0xFF);
/// Planes too thin and too many to draw one by one.
pub const DENSE: Color = Color::rgb(0x55, 0x66, 0x88);
/// The live-bytes strip's background.
pub const STRIP_BACKGROUND: Color = Color::rgb(0xF6, 0xF6, 0xF8);
pub const STRIP: Color = Color::rgb(0x70, 0x70, 0x80);
pub const OUTLINE: Color = Color {
    r: 0,
    g: 0,
    b: 0,
    a: 90,
};
