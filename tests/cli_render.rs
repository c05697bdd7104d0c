//! `memplan render`: the chart as SVG or PNG for documentation pipelines, complete at
//! any width (a 30,000-px-wide picture of a plan is not cut), with the page's shapes.

use assert_cmd::Command;
use predicates::prelude::*;
use resvg::tiny_skia::Pixmap;

const PLAN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/aidge/resnet18-multi-None.json"
);

fn render(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("memplan")
        .unwrap()
        .arg("render")
        .arg(PLAN)
        .args(args)
        .assert()
}

#[test]
fn a_wide_png_has_the_asked_size_and_planes_up_to_its_right_end() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("wide.png");
    render(&[
        "-o",
        png.to_str().unwrap(),
        "--width",
        "30000",
        "--height",
        "300",
    ])
    .success();
    let pix = Pixmap::load_png(&png).unwrap();
    assert_eq!((pix.width(), pix.height()), (30000, 300));
    // The last plane of ResNet-18 (the classifier output) ends at the last clock, at
    // the right end of the plot (14-px margin); the column just before it is painted.
    let x = 30000 - 14 - 3;
    let painted = (0..pix.height())
        .filter(|&y| {
            let p = pix.pixel(x, y).unwrap();
            !(p.red() == 255 && p.green() == 255 && p.blue() == 255)
        })
        .count();
    assert!(painted > 5, "{painted} painted pixels in column {x}");
}

#[test]
fn svg_has_one_rect_per_plane_part_and_escaped_names() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("chart.svg");
    render(&["-o", svg.to_str().unwrap(), "--names"]).success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg ") && text.ends_with("</svg>\n"));
    assert!(text.contains("Peak usage = 4,014,080 B"));
    // ResNet-18's plan has 49 non-producer planes: each is at least one filled rect
    // (the chart background, strips and bars add a few more).
    let filled = text
        .lines()
        .filter(|l| l.starts_with("<rect ") && !l.contains("fill=\"none\""))
        .count();
    assert!(filled >= 49, "{filled} filled rects");
}

#[test]
fn bad_requests_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    render(&["-o", dir.path().join("x.jpg").to_str().unwrap()])
        .code(2)
        .stderr(predicate::str::contains("use .svg or .png"));
    render(&[
        "-o",
        dir.path().join("x.svg").to_str().unwrap(),
        "--view",
        "5,1,0,1",
    ])
    .code(2)
    .stderr(predicate::str::contains("--view `5,1,0,1`"));
    render(&[
        "-o",
        dir.path().join("x.png").to_str().unwrap(),
        "--width",
        "200000",
        "--height",
        "20000",
    ])
    .code(2)
    .stderr(predicate::str::contains("too large"));
}

/// A MiniMalloc CSV's capacity (from its name) is drawn and judged as on the page.
#[test]
fn a_buffer_lists_capacity_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("capacity.svg");
    let csv = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench/minimalloc/C.1048576.csv"
    );
    Command::cargo_bin("memplan")
        .unwrap()
        .args(["render", csv, "-o", svg.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(&svg).unwrap();
    // Its own offsets reach 1,417,216 B: over the capacity.
    assert!(text.contains("Peak usage = 1,417,216 B"));
    assert!(text.contains("Capacity = 1,048,576 B (1.00 MiB) (over)"));
}
