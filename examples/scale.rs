//! `cargo run --release --example scale -- FILE...`: where the time goes when the page opens and
//! draws a big plan, natively (the wasm build is slower by a roughly constant factor): load,
//! stats, checker, `Chart::new`; the worker hand-off (wire encode in the worker, then decode and
//! `Chart::with` on the main thread); a fitted frame, a zoomed frame, a hover. Prints a Markdown
//! table.

use memplan::check;
use memplan::formats::{self, wire};
use memplan::scene::{hit_test, render, Chart, Options, RecordingPainter, View};
use memplan::stats;
use std::time::Instant;

fn ms(t: Instant) -> String {
    format!("{:.1}", t.elapsed().as_secs_f64() * 1e3)
}

fn main() {
    let repeat = std::env::var("SCALE_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    println!("| file | planes | load + resolve ms | stats ms | check ms | Chart::new ms | wire encode ms | wire decode ms | Chart::with ms | fitted frame ms: first / again | zoomed 4× ms: first / again | zoomed 64× ms | hover ms |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable file");
        let t = Instant::now();
        let plan = formats::load(&path, &bytes)
            .and_then(|d| memplan::planning::resolve(&d))
            .expect("a plan");
        let load = ms(t);
        let t = Instant::now();
        let stats = stats::stats(&plan);
        let st = ms(t);
        let t = Instant::now();
        let report = check::check(&plan);
        let ck = ms(t);
        let n = plan.planes.len();
        let t = Instant::now();
        let bytes = wire::encode(&plan, &stats, &report);
        let enc = ms(t);
        let t = Instant::now();
        let chart = Chart::new(plan);
        let cn = ms(t);
        drop(chart);
        let t = Instant::now();
        let h = wire::decode(&bytes).expect("wire bytes of our own");
        let dec = ms(t);
        drop(bytes);
        let t = Instant::now();
        let chart = Chart::with(h.plan, h.stats, h.report);
        let cw = ms(t);
        let mut view = View::fit(&chart, 1280.0, 640.0, 1.0);
        let frame = |view: &View| {
            let t = Instant::now();
            let mut p = RecordingPainter::new();
            render(&chart, view, &Options::default(), &mut p);
            ms(t)
        };
        let fitted = frame(&view);
        let fitted2 = frame(&view);
        view.zoom_time(&chart, 640.0, 4.0);
        let (z4, z4again) = (frame(&view), frame(&view));
        view.zoom_time(&chart, 640.0, 16.0);
        let zoomed = frame(&view);
        let fit = View::fit(&chart, 1280.0, 640.0, 1.0);
        for _ in 0..repeat {
            frame(&fit);
        }
        let t = Instant::now();
        let _ = hit_test(&chart, &view, 640.0, 300.0);
        let hover = ms(t);
        println!("| {path} | {n} | {load} | {st} | {ck} | {cn} | {enc} | {dec} | {cw} | {fitted} / {fitted2} | {z4} / {z4again} | {zoomed} | {hover} |");
    }
}
