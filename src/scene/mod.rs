//! The chart of a plan, computed in the core and tested natively: x = clock,
//! y = address, one rectangle per plane part, one lane per memory component, a
//! live-bytes strip under each lane, peak and lower-bound lines, labels and
//! hit-testing. It meets pixels only through a [`View`] and draws only through a
//! [`Painter`]; the wasm shell (`src/web`) supplies a canvas painter.
//!
//! Flow: `Chart::new(plan)` once per file (immutable from then on) and a [`Renderer`]
//! beside it (its frames' caches) → `renderer.render(&chart, &view, &options, &mut
//! painter)` per frame → [`Frame`] (what was drawn); `hit_test` answers hovers.

pub mod align;
pub mod axis;
pub mod cells;
pub mod chart;
pub mod compare;
pub mod geom;
pub mod hit;
pub mod info;
pub mod lod;
pub mod nav;
pub mod paint;
pub mod palette;
pub mod render;
pub mod svg;
pub mod theme;
pub mod view;

pub use chart::{Chart, Lane, Part};
pub use hit::{clock_at, hit_test, Hit};
pub use paint::{
    Call, Cells, Color, Fill, Painter, Pattern, RecordingPainter, Rect, Stroke, TextStyle,
};
pub use render::{render, Frame, Options, Renderer};
pub use view::{PixelLayout, View};
