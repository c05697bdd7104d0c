//! `memplan fit` (issue #47) on real models: the verdict, the bank placement (a valid
//! plan, each bank within its size), the slow traffic recomputed here from the plan and
//! its schedule, memplan's placement against Aidge 0.10.1's priority spill on the same
//! schedule, bad maps, and the CLI's exit codes and JSON.

use memplan::check::check;
use memplan::fit::{fit, fit_tiled, Fit, MemoryMap, Model, Verdict};
use memplan::planning::Request;
use memplan::planning::Session;
use memplan::recipes::Deploy;
use memplan::strategies::Budget;
use serde_json::Value;

include!("support/cli.rs");

/// The bytes of a gzipped file under tests/data.
fn gunzip(path: &str) -> Vec<u8> {
    use std::io::Read;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut bytes)
        .unwrap();
    bytes
}

fn fit_model(name: &str, memory: &str) -> Fit {
    let bytes = gunzip(&format!("bench/models/{name}.onnx.gz"));
    let mut session = Session::open(&format!("{name}.onnx"), &bytes).unwrap();
    fit(&mut session, &MemoryMap::parse(memory).unwrap(), 1000).unwrap()
}

/// The slow traffic of a banked plan, stated again: each plane in a bank after the
/// first is written once and read by each data consumer of its output.
fn traffic_of(f: &Fit) -> (u64, u64) {
    let schedule = f.schedule.as_ref().expect("an ONNX model has a schedule");
    let (mut written, mut read) = (0u64, 0u64);
    for p in &f.plan.planes {
        if f.plan.spaces[p.space].component == 0 {
            continue;
        }
        let bytes = p.size * p.length.max(1) * p.count.max(1);
        let readers = schedule.nodes[p.node].outputs[p.index]
            .consumers
            .len()
            .max(1) as u64;
        written += bytes;
        read += bytes * readers;
    }
    (written, read)
}

#[test]
fn a_map_at_least_the_best_peak_fits_in_fast_memory_alone() {
    let small = fit_model("resnet18", "64K+8M");
    let best = small.sweep.min_fast;
    let f = fit_model("resnet18", &format!("{best}+8M"));
    assert_eq!(f.verdict, Verdict::FitsFast, "{}", f.summary);
    assert!(f.fits);
    assert_eq!(f.slow_traffic.total, 0);
    assert_eq!(f.banks[0].peak, best);
    assert!(check(&f.plan).is_valid());
    // One byte less and something must go to slow memory.
    let f = fit_model("resnet18", &format!("{}+8M", best - 1));
    assert_eq!(f.verdict, Verdict::FitsWithSlow, "{}", f.summary);
}

#[test]
fn a_small_fast_bank_spills_validly_within_every_banks_size() {
    for (model, memory) in [
        ("resnet18", "256K+8M"),
        ("resnet18", "1M+8M"),
        ("mobilenet_v2", "512K+8M"),
        ("mobilenet_v2", "sram=128K,psram=6M"),
    ] {
        let f = fit_model(model, memory);
        assert_eq!(
            f.verdict,
            Verdict::FitsWithSlow,
            "{model} {memory}: {}",
            f.summary
        );
        let report = check(&f.plan);
        assert!(report.is_valid(), "{model} {memory}: {:?}", report.problems);
        assert_eq!(f.plan.components.len(), f.banks.len());
        for (b, peak) in f.banks.iter().zip(f.plan.peaks()) {
            assert!(b.peak <= b.size, "{model} {memory}: {b:?}");
            assert_eq!(b.peak, peak);
        }
        let (written, read) = traffic_of(&f);
        assert!(written > 0);
        assert_eq!(
            (f.slow_traffic.written, f.slow_traffic.read),
            (written, read),
            "{model} {memory}"
        );
        assert_eq!(f.slow_traffic.total, written + read);
        // Every plane is listed with its bank.
        assert_eq!(f.buffers.len(), f.plan.planes.len());
        let slow = f.buffers.iter().filter(|b| b.bank != f.banks[0].name);
        assert_eq!(slow.map(|b| b.size).sum::<u64>(), written);
    }
}

#[test]
fn memplans_placement_moves_no_more_than_aidges_priority_spill() {
    let (mut compared, mut better) = (0, 0);
    for model in ["resnet18", "mobilenet_v2"] {
        for fast in ["64K", "128K", "256K", "512K", "1M"] {
            let f = fit_model(model, &format!("{fast}+8M"));
            let aidge = f.aidge_spill.as_ref().expect("a schedule");
            assert!(f.fits, "{model} {fast}: {}", f.summary);
            if aidge.fits {
                compared += 1;
                assert!(
                    f.slow_traffic.total <= aidge.slow_traffic.total,
                    "{model} {fast}+8M: memplan {} B, Aidge {} B",
                    f.slow_traffic.total,
                    aidge.slow_traffic.total
                );
                // memplan's own banking, not Aidge's spill kept as a candidate.
                if f.layout != "aidge-spill" && f.slow_traffic.total < aidge.slow_traffic.total {
                    better += 1;
                }
            }
        }
    }
    assert!(compared >= 4, "Aidge's spill fitted only {compared} maps");
    assert!(
        better >= 3,
        "memplan's banking moved less on {better} of {compared} maps only"
    );
}

#[test]
fn the_sweep_falls_as_the_fast_bank_grows_and_ends_at_the_best_peak() {
    let f = fit_model("resnet18", "256K+8M");
    let points = &f.sweep.points;
    assert!(points.len() >= 4);
    assert!(points.windows(2).all(|w| w[0].fast < w[1].fast));
    let last = points.last().unwrap();
    assert!(last.fast >= f.sweep.min_fast && last.slow_traffic.total == 0);
    assert!(points[0].slow_traffic.total > 0);
    // The map's own size is the fit's own placement.
    let own = points.iter().find(|p| p.fast == 256 * 1024).unwrap();
    assert_eq!(own.slow_traffic, f.slow_traffic);
}

#[test]
fn a_map_too_small_says_where_and_by_how_much() {
    let f = fit_model("resnet18", "64K+256K");
    assert_eq!(f.verdict, Verdict::DoesNotFit);
    assert!(!f.fits);
    let why = f.why.as_ref().unwrap();
    assert!(why.needed > why.holds);
    assert!(!why.live.is_empty());
    assert!(
        f.summary.starts_with("does not fit: at clock"),
        "{}",
        f.summary
    );
    assert!(f.summary.contains(&why.node), "{}", f.summary);
    assert!(f.summary.contains("too many"), "{}", f.summary);
}

#[test]
fn a_buffer_list_counts_one_read_per_buffer_and_has_no_aidge_spill() {
    // MiniMalloc's example: five buffers, best peak 12 bytes.
    let csv = "id,lower,upper,size\na,0,3,4\nb,3,9,4\nc,0,9,4\nd,9,21,4\ne,0,21,4\n";
    let mut session = Session::open("x.csv", csv.as_bytes()).unwrap();
    let f = fit(&mut session, &MemoryMap::parse("8+100").unwrap(), 500).unwrap();
    assert_eq!(f.sweep.min_fast, 12);
    assert_eq!(f.verdict, Verdict::FitsWithSlow, "{}", f.summary);
    assert_eq!(f.reads_counted, "one-per-buffer");
    assert!(f.aidge_spill.is_none());
    assert!(check(&f.plan).is_valid());
    // Each buffer in the slow bank: written once, read once.
    let slow: u64 = f
        .buffers
        .iter()
        .filter(|b| b.bank == "slow")
        .map(|b| b.size)
        .sum();
    assert_eq!((f.slow_traffic.written, f.slow_traffic.read), (slow, slow));
    // 8 bytes hold two of the three buffers live together, never all three.
    assert!(slow >= 4 && f.banks[0].peak <= 8);
}

fn model_file(dir: &tempfile::TempDir, name: &str) -> std::path::PathBuf {
    let path = dir.path().join(format!("{name}.onnx"));
    std::fs::write(&path, gunzip(&format!("bench/models/{name}.onnx.gz"))).unwrap();
    path
}

#[test]
fn cli_exit_codes_and_json_fields() {
    let dir = scratch();
    let model = model_file(&dir, "resnet18");
    let out = dir.path().join("banked.json");
    let run = memplan()
        .arg("fit")
        .arg(&model)
        .args([
            "--memory",
            "256K+8M",
            "--json",
            "--budget",
            "1000",
            "--no-tile",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(v["fits"], true);
    assert_eq!(v["verdict"], "fits-with-slow");
    assert_eq!(v["banks"][0]["name"], "fast");
    assert_eq!(v["banks"][0]["size"], 262_144);
    assert!(v["banks"][0]["peak"].as_u64().unwrap() <= 262_144);
    let t = &v["slow_traffic"];
    assert_eq!(
        t["total"].as_u64().unwrap(),
        t["written"].as_u64().unwrap() + t["read"].as_u64().unwrap()
    );
    assert!(v["buffers"][0]["bank"].is_string() && v["buffers"][0]["offset"].is_u64());
    assert!(v["sweep"]["points"].as_array().unwrap().len() >= 4);
    assert!(v["aidge_spill"]["slow_traffic"]["total"].is_u64());
    // The plan written has one component per bank, and `check` verifies it.
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let comps = written["plan"]["components"].as_array().unwrap();
    assert_eq!(comps.len(), 2);
    assert_eq!(comps[0]["capacity"], 262_144);
    memplan().arg("check").arg(&out).assert().code(0);
    let fast_peak = v["banks"][0]["peak"].as_u64().unwrap();
    let slow_peak = v["banks"][1]["peak"].as_u64().unwrap();
    assert_eq!(peak(&out), fast_peak.max(slow_peak));
    // A bank over its size is a finding of `check`.
    let mut broken = written.clone();
    broken["plan"]["components"][0]["capacity"] = Value::from(1000);
    let bad = dir.path().join("over.json");
    std::fs::write(&bad, broken.to_string()).unwrap();
    let run = memplan().arg("check").arg(&bad).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stdout).contains("over capacity"));
    // Does not fit: exit 1, and the reason on stdout.
    let run = memplan()
        .arg("fit")
        .arg(&model)
        .args(["--memory", "64K+256K", "--budget", "500", "--no-tile"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stdout).starts_with("does not fit: at clock"));
    // Bad maps: exit 2 and a message that says what was expected.
    for (map, says) in [
        ("256Q", "`256Q` is not a size"),
        ("0+8M", "holds nothing"),
        ("a=1K,a=2K", "named twice"),
        ("", "empty"),
    ] {
        let run = memplan()
            .arg("fit")
            .arg(&model)
            .args(["--memory", map])
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{map}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(says), "{map}: {err}");
    }
}

#[test]
fn presets_are_listed_in_help() {
    let help = memplan().args(["fit", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    for p in memplan::fit::PRESETS {
        assert!(text.contains(p.name), "{}", p.name);
    }
    assert!(text.contains("1 it does not fit"));
}

/// MobileNetV2's first stage (4.6 MiB live at its widest, 1.6 MiB tiled): a fast bank
/// between the two holds it only patch by patch.
const TILE_FAST: u64 = 2 << 20;

fn fit_tiled_model(name: &str, memory: &str) -> Fit {
    let bytes = gunzip(&format!("bench/models/{name}.onnx.gz"));
    let mut session = Session::open(&format!("{name}.onnx"), &bytes).unwrap();
    let model = Model {
        bytes: &bytes,
        dims: &[],
        deploy: &Deploy::default(),
        tile_ms: 5000,
    };
    fit_tiled(
        &mut session,
        &MemoryMap::parse(memory).unwrap(),
        1000,
        &model,
    )
    .unwrap()
}

#[test]
fn a_first_stage_over_the_fast_bank_fits_it_alone_with_tiling() {
    let memory = TILE_FAST.to_string();
    let untiled = fit_model("mobilenet_v2", &memory);
    assert_eq!(untiled.verdict, Verdict::DoesNotFit, "{}", untiled.summary);
    let f = fit_tiled_model("mobilenet_v2", &memory);
    assert_eq!(f.verdict, Verdict::FitsFast, "{}", f.summary);
    assert!(f.fits && f.lever == Some("tiling"));
    assert!(
        f.summary.contains("alone with tiling: layers "),
        "{}",
        f.summary
    );
    // The untiled figures stay beside it.
    assert!(f.banks[0].peak > TILE_FAST);
    let t = f.tiling.as_ref().expect("the tiled fit");
    assert!(t.chosen && !t.stages.is_empty());
    assert_eq!(t.untiled_verdict, Verdict::DoesNotFit);
    assert!(t.peak_after < t.peak_before && t.macs_after > t.macs_before);
    assert!(t.macs_added_percent > 0.0);
    // The answer's plan is the tiled model's: valid, and within the fast bank.
    let answer = f.answer();
    assert!(std::ptr::eq(answer, &t.fit));
    assert!(answer.banks[0].peak <= TILE_FAST);
    assert!(check(&answer.plan).is_valid());
    assert!(answer.notes[0].contains("forward pass does not yet run"));
}

#[test]
fn with_slow_memory_the_tiled_fit_moves_no_more_slow_traffic() {
    let f = fit_tiled_model("mobilenet_v2", &format!("{TILE_FAST}+8M"));
    assert_eq!(
        f.tiling.as_ref().map(|t| t.untiled_verdict),
        Some(Verdict::FitsWithSlow)
    );
    assert!(f.slow_traffic.total > 0, "the untiled fit spills");
    let t = f.tiling.as_ref().unwrap();
    assert!(
        t.fit.slow_traffic.total <= f.slow_traffic.total,
        "tiled {} > untiled {}",
        t.fit.slow_traffic.total,
        f.slow_traffic.total
    );
    assert!(t.chosen, "{}", f.summary);
}

#[test]
fn cli_onnx_out_writes_the_tiled_model_whose_best_plan_fits_the_fast_bank() {
    let dir = scratch();
    let model = model_file(&dir, "mobilenet_v2");
    let tiled = dir.path().join("tiled.onnx");
    let memory = TILE_FAST.to_string();
    let run = memplan()
        .arg("fit")
        .arg(&model)
        .args(["--memory", &memory, "--json", "--budget", "1000"])
        .args(["--tile-budget", "5000", "--onnx-out"])
        .arg(&tiled)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(v["verdict"], "fits-fast");
    assert_eq!(v["lever"], "tiling");
    let t = &v["tiling"];
    assert!(t["stages"][0]["rows"].as_u64().unwrap() >= 1);
    assert!(t["fit"]["banks"][0]["peak"].as_u64().unwrap() <= TILE_FAST);
    // The file reads back, and `memplan plan tiled.onnx --strategy best` holds it in
    // the fast size: the figure and the file agree.
    let bytes = std::fs::read(&tiled).unwrap();
    let mut session = Session::open("tiled.onnx", &bytes).unwrap();
    let request = Request::new("best", Budget::millis(2000)).unwrap();
    let (plan, _) = session.plan(&request).unwrap();
    assert!(plan.peak() <= TILE_FAST, "{} > {TILE_FAST}", plan.peak());
    assert!(plan.peak() <= t["peak_after"].as_u64().unwrap());

    // --no-tile: the untiled verdict, and no tiling tried.
    let run = memplan()
        .arg("fit")
        .arg(&model)
        .args([
            "--memory",
            &memory,
            "--json",
            "--budget",
            "1000",
            "--no-tile",
        ])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(v["verdict"], "does-not-fit");
    assert!(v["tiling"].is_null() && v["lever"].is_null());
    assert_eq!(v["untiled_because"], "--no-tile");

    // --onnx-out with no tiling chosen says why, and writes nothing.
    let none = dir.path().join("none.onnx");
    let run = memplan()
        .arg("fit")
        .arg(&model)
        .args(["--memory", "8M", "--budget", "500", "--onnx-out"])
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("no tiled model to write") && err.contains("no tiling needed"),
        "{err}"
    );
    assert!(!none.exists());
}
