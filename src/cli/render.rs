//! `memplan render FILE -o out.svg|out.png`: the chart for documentation pipelines.
//! The picture is drawn by the scene through the SVG painter, the same calls the page's
//! canvas gets; a PNG is that SVG rasterized by resvg, so both formats (and the page's
//! own SVG export) show the same shapes.

use super::args::RenderArgs;
use super::OK;
use crate::scene::svg::to_svg;
use crate::scene::theme::Theme;
use crate::scene::{info, Chart, Options, View};
use crate::{Error, Result};
use std::path::Path;

/// Widest and tallest picture accepted, in output pixels. tiny-skia keeps the whole
/// pixmap in memory (4 bytes a pixel): 200,000 × 20,000 would be 16 GB, so the product
/// is bounded too.
const MAX_SIDE: f64 = 200_000.0;
const MAX_PIXELS: f64 = 1.5e9;

/// The output format, from the file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Svg,
    Png,
}

fn kind(path: &Path) -> Option<Kind> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".svg") {
        Some(Kind::Svg)
    } else if name.ends_with(".png") {
        Some(Kind::Png)
    } else {
        None
    }
}

/// Parses `t0,t1,a0,a1` (clocks, then addresses as fractions of the lane extent).
fn parse_view(text: &str) -> Option<[f64; 4]> {
    let v: Vec<f64> = text
        .split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<std::result::Result<_, _>>()
        .ok()?;
    let v: [f64; 4] = v.try_into().ok()?;
    (v.iter().all(|x| x.is_finite()) && v[0] < v[1] && v[2] < v[3]).then_some(v)
}

pub fn render(a: RenderArgs) -> Result<u8> {
    let out = a.output.display().to_string();
    let kind = kind(&a.output).ok_or_else(|| {
        Error::whole("cannot tell the picture format from the name: use .svg or .png").in_file(&out)
    })?;
    let scale = a.scale;
    let (w, h) = (f64::from(a.width), f64::from(a.height));
    if !(scale > 0.0 && scale <= 16.0) {
        return Err(Error::whole("--scale must be in (0, 16]"));
    }
    if w < 100.0 || h < 80.0 {
        return Err(Error::whole(
            "--width must be at least 100 and --height at least 80",
        ));
    }
    if w * scale > MAX_SIDE || h * scale > MAX_SIDE || w * h * scale * scale > MAX_PIXELS {
        return Err(Error::whole(format!(
            "{} × {} pixels is too large (at most {MAX_SIDE} a side and {MAX_PIXELS} in all)",
            w * scale,
            h * scale
        )));
    }
    let theme = Theme::from_name(&a.theme)
        .ok_or_else(|| Error::whole(format!("--theme `{}`: expected light or dark", a.theme)))?;
    let doc = super::commands::read(&a.file, &a.dims)?;
    let name = a.file.display().to_string();
    let (plan, report) = crate::planning::Session::of(&name, doc.clone()).as_loaded()?;
    // In the words of the file's format, as the page draws it.
    let mut chart = Chart::new(plan).with_words(doc.words());
    // A buffer list's capacity (MiniMalloc's file names) drawn as the page draws it.
    if let Some(capacity) = doc.buffers.as_ref().and_then(|b| b.capacity) {
        chart = chart.with_capacity(0, capacity);
    }
    // The bound its report states, named for what it is, as the page draws it.
    chart = match (report.bound_scope, report.floor()) {
        (crate::planning::BoundScope::Layout, _) => chart.with_layout_bound(),
        (_, Some(floor)) => chart.with_floor(floor),
        _ => chart,
    };
    // Titled like the page's exports: the same picture for the same view.
    let mut view = View {
        title_band: info::TITLE_BAND,
        ..View::fit(&chart, w, h, 1.0)
    };
    let name = a.file.file_name().map_or_else(
        || a.file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let title = info::picture_title(&name, &chart);
    if let Some(text) = &a.view {
        let [t0, t1, y0, y1] = parse_view(text).ok_or_else(|| {
            Error::whole(format!(
                "--view `{text}`: expected t0,t1,a0,a1 with t0 < t1 and a0 < a1"
            ))
        })?;
        view = View {
            t0,
            t1,
            y0,
            y1,
            ..view
        };
    }
    // A picture for a document is exact at any size: one rectangle per part, never
    // the occupancy tiles interactive frames use when zoomed out on big plans.
    let opts = Options {
        names: a.names,
        hex: a.hex,
        exact_limit: Some(usize::MAX),
        theme,
        title: Some(title),
        ..Options::default()
    };
    let (svg, _) = to_svg(&chart, &view, &opts);
    let bytes = match kind {
        Kind::Svg => svg.into_bytes(),
        Kind::Png => png(&svg, scale).map_err(|e| Error::whole(e).in_file(&out))?,
    };
    std::fs::write(&a.output, bytes)
        .map_err(|e| Error::whole(format!("cannot write: {e}")).in_file(&out))?;
    Ok(OK)
}

/// Rasterizes the SVG at `scale` output pixels per CSS pixel, with the system's fonts
/// (text is left out where none is installed).
fn png(svg: &str, scale: f64) -> std::result::Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("internal SVG: {e}"))?;
    let size = tree.size();
    let (w, h) = (
        (f64::from(size.width()) * scale).round() as u32,
        (f64::from(size.height()) * scale).round() as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| format!("cannot allocate a {w} × {h} picture"))?;
    let s = scale as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(s, s),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("PNG encoding: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of tests/data/view_texts.json, which www/memplan-ui.js's `parseView`
    /// reads too (tests/e2e/view_text.test.mjs): one rule for the CLI and the page.
    #[test]
    fn views_parse_as_the_shared_table_says() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/view_texts.json");
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = table["cases"].as_array().unwrap();
        assert!(cases.len() >= 10);
        for case in cases {
            let text = case[0].as_str().unwrap();
            let want: Option<Vec<f64>> = case[1]
                .as_array()
                .map(|v| v.iter().map(|x| x.as_f64().unwrap()).collect());
            assert_eq!(parse_view(text).map(Vec::from), want, "--view `{text}`");
        }
    }
}
