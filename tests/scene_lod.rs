//! Level of detail (`scene::lod`): the clock index finds exactly the parts a window
//! shows, occupancy frames cover the same pixels as exact frames, the tiles are reused
//! while the user only hovers or pans a little, and hover/selection still outline the
//! right plane when a big plan is zoomed out.

use memplan::model::{Buffer, BufferList, Plan};
use memplan::scene::{
    self, hit_test, palette, render, Call, Chart, Options, PixelLayout, RecordingPainter, Renderer,
    View,
};
use proptest::prelude::*;

/// `n` buffers, four starting per clock, each live 1..7 clocks, in 32 slots of 4 KiB
/// (valid: buffers sharing a slot start at least 8 clocks apart), and every 97th
/// buffer instead long-lived (300 clocks) in one of 16 slots above: long buffers sharing
/// a slot start 388 clocks apart. They cross many index blocks.
fn synthetic(n: usize) -> Plan {
    let buffers: Vec<Buffer> = (0..n)
        .map(|i| {
            let lower = (i / 4) as u32;
            let (upper, offset) = if i % 97 == 0 {
                (lower + 300, 32 * 4096 + ((i / 97) % 16) as u64 * 256)
            } else {
                (lower + 1 + (i % 7) as u32, (i % 32) as u64 * 4096)
            };
            Buffer {
                id: format!("b{i}"),
                lower,
                upper,
                size: if i % 97 == 0 {
                    256
                } else {
                    64 + (i as u64 * 37) % 4032
                },
                offset: Some(offset),
            }
        })
        .collect();
    memplan::planning::plan_buffers(&BufferList {
        buffers,
        capacity: None,
    })
    .unwrap()
}

/// A frame with nothing cached before it.
fn frame(chart: &Chart, view: &View, opts: &Options) -> (RecordingPainter, scene::Frame) {
    let mut p = RecordingPainter::new();
    let f = render(chart, view, opts, &mut p);
    (p, f)
}

/// A frame of `renderer`, which keeps the occupancy tiles of the frames before it.
fn frame_of(
    renderer: &mut Renderer,
    chart: &Chart,
    view: &View,
    opts: &Options,
) -> (RecordingPainter, scene::Frame) {
    let mut p = RecordingPainter::new();
    let f = renderer.render(chart, view, opts, &mut p);
    (p, f)
}

fn exact() -> Options {
    Options {
        exact_limit: Some(usize::MAX),
        ..Options::default()
    }
}

fn occupancy() -> Options {
    Options {
        exact_limit: Some(0),
        ..Options::default()
    }
}

/// Pixels of lane 0's chart whose centre some plane fill covers.
fn coverage(chart: &Chart, view: &View, rec: &RecordingPainter) -> (Vec<bool>, usize, usize) {
    let b = PixelLayout::new(chart, view).lanes[0].chart;
    let (cols, rows) = (b.w.ceil() as usize, b.h.ceil() as usize);
    let mut mask = vec![false; cols * rows];
    for (fill, r) in rec.filled() {
        if fill.color.with_alpha(255) == palette::BACKGROUND {
            continue;
        }
        let c0 = ((r.x - b.x - 0.5).ceil().max(0.0)) as usize;
        let c1 = ((r.right() - b.x - 0.5).ceil().max(0.0) as usize).min(cols);
        let r0 = ((r.y - b.y - 0.5).ceil().max(0.0)) as usize;
        let r1 = ((r.bottom() - b.y - 0.5).ceil().max(0.0) as usize).min(rows);
        for row in r0..r1 {
            for c in c0..c1 {
                mask[row * cols + c] = true;
            }
        }
    }
    (mask, cols, rows)
}

/// Pixels set in `a` with no set pixel of `b` within one pixel. The first and last
/// columns are left out: a part just beyond the view's clocks may round into them.
fn unmatched(a: &[bool], b: &[bool], cols: usize, rows: usize) -> usize {
    let near = |r: usize, c: usize| {
        (r.saturating_sub(1)..(r + 2).min(rows))
            .any(|rr| (c.saturating_sub(1)..(c + 2).min(cols)).any(|cc| b[rr * cols + cc]))
    };
    (0..rows)
        .flat_map(|r| (1..cols - 1).map(move |c| (r, c)))
        .filter(|&(r, c)| a[r * cols + c] && !near(r, c))
        .count()
}

#[test]
fn occupancy_frames_cover_the_pixels_exact_frames_cover() {
    let chart = Chart::new(synthetic(20_000));
    let fit = View::fit(&chart, 1000.0, 600.0, 1.0);
    let mut zoomed = fit;
    zoomed.zoom_time(&chart, 500.0, 6.0);
    zoomed.zoom_address(&chart, 300.0, 2.5);
    for view in [fit, zoomed] {
        let (re, fe) = frame(&chart, &view, &exact());
        let (ro, fo) = frame(&chart, &view, &occupancy());
        assert!(fe.occupancy.is_none() && fo.occupancy.is_some());
        assert!(
            fo.drawn.is_empty(),
            "no per-plane rectangles in an occupancy frame"
        );
        let (me, cols, rows) = coverage(&chart, &view, &re);
        let (mo, _, _) = coverage(&chart, &view, &ro);
        let (ne, no) = (
            me.iter().filter(|&&v| v).count(),
            mo.iter().filter(|&&v| v).count(),
        );
        assert!(
            ne > cols * rows / 10,
            "the plan fills the chart: {ne} pixels"
        );
        // Cells are rounded to the tile grid, then to pixels: a few edges land two
        // pixels off, never more than one pixel in 5,000.
        let (missing, extra) = (
            unmatched(&me, &mo, cols, rows),
            unmatched(&mo, &me, cols, rows),
        );
        assert!(
            missing * 5_000 < ne,
            "{missing} exact pixels missing from occupancy"
        );
        assert!(
            extra * 5_000 < ne,
            "{extra} occupancy pixels not in the plan"
        );
        // Cells a little smaller than pixels shift some edges by one pixel.
        assert!(
            ne.abs_diff(no) * 8 < ne,
            "{ne} exact vs {no} occupancy pixels"
        );
    }
}

#[test]
fn tiles_are_reused_while_hovering_and_panning() {
    let chart = Chart::new(synthetic(60_000));
    let mut r = Renderer::default();
    let view = View::fit(&chart, 1280.0, 700.0, 1.0);
    let lod = Options {
        exact_limit: Some(5_000),
        ..Options::default()
    };
    let (_, first) = frame_of(&mut r, &chart, &view, &lod);
    let s = first
        .occupancy
        .expect("60,000 planes fitted is an occupancy frame");
    assert!(s.tiles_built > 0 && s.parts_visited >= chart.parts().len());
    // Hovering and selecting redraw from the same tiles.
    let opts = Options {
        hover: Some(10),
        selected: Some(20),
        ..lod.clone()
    };
    let (_, again) = frame_of(&mut r, &chart, &view, &opts);
    let s = again.occupancy.expect("occupancy");
    assert_eq!((s.tiles_built, s.parts_visited), (0, 0));
    assert_eq!(again.parts_visited, 0);
    // Zoomed in 3x then panned: new tiles for the new level, then few for the pan.
    let mut z = view;
    z.zoom_time(&chart, 640.0, 3.0);
    let (_, zf) = frame_of(&mut r, &chart, &z, &lod);
    let built = zf.occupancy.expect("occupancy").tiles_built;
    assert!(built > 0);
    z.pan(&chart, -40.0, 0.0);
    let (_, pf) = frame_of(&mut r, &chart, &z, &lod);
    let s = pf.occupancy.expect("occupancy");
    assert!(
        s.tiles_built <= 3,
        "a 40-px pan built {} tiles",
        s.tiles_built
    );
    assert!(s.parts_visited < chart.parts().len() / 2);
}

#[test]
fn a_zoom_refines_over_frames_from_coarser_tiles_to_the_exact_level() {
    let chart = Chart::new(synthetic(60_000));
    let mut r = Renderer::with_budget(4_000);
    let opts = occupancy();
    let mut view = View::fit(&chart, 1280.0, 700.0, 1.0);
    // Nothing cached yet: the first frame builds all it needs, whatever the budget.
    let (_, f) = frame_of(&mut r, &chart, &view, &opts);
    assert!(!f.refining() && f.occupancy.expect("occupancy").tiles_built > 0);
    view.zoom_time(&chart, 640.0, 2.5);
    view.zoom_address(&chart, 300.0, 2.5);
    let (rec, f) = frame_of(&mut r, &chart, &view, &opts);
    assert!(f.refining(), "a zoom over budget shows coarser tiles first");
    let (exact_rec, _) = frame_of(&mut r, &chart, &view, &exact());
    let (me, cols, rows) = coverage(&chart, &view, &exact_rec);
    let (mc, _, _) = coverage(&chart, &view, &rec);
    let ne = me.iter().filter(|&&v| v).count();
    assert!(
        unmatched(&me, &mc, cols, rows) * 5_000 < ne,
        "coarse tiles cover the plan"
    );
    let mut frames = 1;
    let last = loop {
        let (rec, f) = frame_of(&mut r, &chart, &view, &opts);
        frames += 1;
        if !f.refining() {
            break rec;
        }
        assert!(frames < 100, "refining never ends");
    };
    assert!(
        frames > 2,
        "the budget spread the work over {frames} frames"
    );
    // Once refined, the picture is the one a cache without budget draws at once.
    let fresh = Chart::new(synthetic(60_000));
    let mut unbounded = Renderer::with_budget(usize::MAX);
    let fitted = View::fit(&fresh, 1280.0, 700.0, 1.0);
    let (_, _) = frame_of(&mut unbounded, &fresh, &fitted, &opts);
    let (direct, f) = frame_of(&mut unbounded, &fresh, &view, &opts);
    assert!(!f.refining());
    assert_eq!(last.calls, direct.calls);
}

#[test]
fn zoomed_frames_visit_only_the_parts_in_view() {
    let chart = Chart::new(synthetic(60_000));
    let mut view = View::fit(&chart, 1280.0, 700.0, 1.0);
    view.t0 = 5_000.0;
    view.t1 = 5_200.0;
    let (_, f) = frame(&chart, &view, &Options::default());
    assert!(f.occupancy.is_none());
    let live = chart
        .parts()
        .iter()
        .filter(|q| q.t1 as f64 > view.t0 && (q.t0 as f64) < view.t1)
        .count();
    assert!(
        f.parts_visited <= live && live < 2_000,
        "{} of {live}",
        f.parts_visited
    );
    assert!(!f.drawn.is_empty());
}

#[test]
fn hover_and_selection_outline_their_plane_in_an_occupancy_frame() {
    let chart = Chart::new(synthetic(20_000));
    let view = View::fit(&chart, 1000.0, 600.0, 1.0);
    // The pointer on a long-lived plane.
    let long = chart
        .parts()
        .iter()
        .find(|q| q.t1 - u64::from(q.t0) >= 300)
        .expect("a long-lived plane");
    let l = PixelLayout::new(&chart, &view);
    let x = l.x_of(&view, (f64::from(long.t0) + long.t1 as f64) / 2.0);
    let y = l.y_of(&view, 0, (long.a0 + long.a1) as f64 / 2.0);
    let hit = hit_test(&chart, &view, x, y).expect("the pointer is on a plane");
    assert_eq!(hit.plane, long.plane);
    let opts = Options {
        hover: Some(hit.plane),
        ..occupancy()
    };
    let (rec, f) = frame(&chart, &view, &opts);
    assert!(f.occupancy.is_some());
    let outlined: Vec<scene::Rect> = rec
        .calls
        .iter()
        .filter_map(|c| match c {
            Call::Stroke(s, rs) if s.color == palette::SELECT => Some(rs.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    assert_eq!(outlined.len(), 1, "{outlined:?}");
    assert!(
        outlined[0].contains(x, y),
        "{:?} holds the pointer",
        outlined[0]
    );
}

/// The topmost part under (t, a) by scanning every part, as hit-testing did before
/// the index.
fn brute_hit(chart: &Chart, t: f64, a: f64) -> Option<usize> {
    chart.parts().iter().rev().find_map(|q| {
        (f64::from(q.t0) <= t && t < q.t1 as f64 && q.a0 as f64 <= a && a < q.a1 as f64)
            .then_some(q.plane)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_index_finds_exactly_the_parts_of_a_window(
        n in 1usize..3_000,
        lo in -50.0f64..900.0,
        len in 0.1f64..400.0,
    ) {
        let chart = Chart::new(synthetic(n));
        let hi = lo + len;
        let got: Vec<usize> = chart.lod_index().visible(chart.parts(), lo, hi).collect();
        let want: Vec<usize> = (0..chart.parts().len())
            .filter(|&k| chart.parts()[k].t1 as f64 > lo && (chart.parts()[k].t0 as f64) < hi)
            .collect();
        prop_assert_eq!(&got, &want);
        prop_assert!(chart.lod_index().estimate(chart.parts(), lo, hi) >= want.len());
        let back: Vec<usize> = chart.lod_index().visible(chart.parts(), lo, hi).rev().collect();
        prop_assert!(back.iter().rev().eq(want.iter()));
    }

    #[test]
    fn hit_testing_through_the_index_finds_the_topmost_plane(
        n in 50usize..2_000,
        fx in 0.0f64..1.0,
        fy in 0.0f64..1.0,
        zoom in 1.0f64..64.0,
    ) {
        let chart = Chart::new(synthetic(n));
        let mut view = View::fit(&chart, 1000.0, 600.0, 1.0);
        view.zoom_time(&chart, 76.0 + fx * 900.0, zoom);
        let l = PixelLayout::new(&chart, &view);
        let b = l.lanes[0].chart;
        let (x, y) = (b.x + fx * b.w, b.y + fy * b.h);
        let (t, a) = (l.clock_at(&view, x), l.address_at(&view, 0, y));
        if let Some(want) = brute_hit(&chart, t, a) {
            let hit = hit_test(&chart, &view, x, y).map(|h| h.plane);
            prop_assert_eq!(hit, Some(want));
        }
    }
}
