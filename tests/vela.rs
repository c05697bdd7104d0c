//! Arm Vela's allocation reports (tests/data/vela, printed by the real
//! `ethos-u-vela==5.2.0` with tests/data/vela/gen.py): memplan's peak of each memory area
//! is the "Allocation Peak Tensor Size" Vela prints for it, read here from the text on
//! its own; the plans check clean; `best` re-places them within bounds; cut or garbled
//! reports are refused at their line; the CLI's `stats` reads them.

use memplan::formats::Format;

include!("support/framework.rs");

/// Every report of the corpus (`<model>.<config>.txt`), by name.
fn reports() -> Vec<String> {
    let dir = format!("{}/tests/data/vela", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "the corpus has {} reports", names.len());
    names
}

fn open(name: &str) -> (Document, Plan) {
    let (path, bytes) = fixture(&format!("vela/{name}"));
    let doc = formats::load(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::Vela, "{name}");
    let plan = memplan::planning::resolve(&doc).unwrap();
    (doc, plan)
}

/// Vela's printed peaks, section by section: the number after each
/// `Allocation Peak Tensor Size:`.
fn vela_peaks(name: &str) -> Vec<u64> {
    fixture_text(&format!("vela/{name}"))
        .lines()
        .filter_map(|l| l.strip_prefix("Allocation Peak Tensor Size: "))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn each_memory_s_peak_is_vela_s_allocation_peak() {
    for name in reports() {
        let (doc, plan) = open(&name);
        let peaks = vela_peaks(&name);
        assert!(peaks.len() >= 2, "{name}: {peaks:?}");
        assert_eq!(plan.peaks(), peaks, "{name}");
        let report = memplan::check::check(&plan);
        assert!(report.is_valid(), "{name}: {report:?}");
        let own = doc.own.as_ref().unwrap();
        assert_eq!(own.framework, "Vela");
        for p in &peaks {
            assert!(
                own.total.contains(&format!(" {p} B")),
                "{name}: {}",
                own.total
            );
        }
        // Every row is a plane, at Vela's address.
        let rows = fixture_text(&format!("vela/{name}"))
            .lines()
            .filter(|l| {
                l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains("0x")
            })
            .count();
        assert_eq!(plan.planes.len(), rows, "{name}");
    }
}

/// The largest "Memory Usage" Vela prints in each section but the read-only one (its
/// live bytes at a row's start time): the live peak of that memory.
fn vela_usage(name: &str) -> Vec<Option<u64>> {
    let mut out = Vec::new();
    let (mut most, mut read_only) = (0, false);
    for l in fixture_text(&format!("vela/{name}")).lines() {
        if l.starts_with("Tensor Allocation for read-only") {
            read_only = true;
        } else if l.starts_with("Allocation Peak Tensor Size") {
            out.push((!read_only).then_some(most));
            (most, read_only) = (0, false);
        } else if l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains("0x") {
            let usage: u64 = l.split(':').nth(3).unwrap().trim().parse().unwrap();
            most = most.max(usage);
        }
    }
    out
}

#[test]
fn each_memory_s_lower_bound_is_vela_s_most_memory_usage() {
    for name in reports() {
        let (_, plan) = open(&name);
        let stats = memplan::stats::stats(&plan);
        for (c, usage) in vela_usage(&name).into_iter().enumerate() {
            if let Some(usage) = usage {
                assert_eq!(stats.components[c].lower_bound, usage, "{name} memory {c}");
            }
        }
    }
}

/// `best` moves Vela's SRAM tensors and never its constants; its figures are printed
/// (`cargo test --test vela -- --nocapture`) for the docs.
#[test]
fn best_replans_every_report_and_keeps_the_constants() {
    let mut saved = 0;
    for name in reports() {
        let (_, plan) = open(&name);
        let best = strategies::replan(&plan, Strategy::Best, &Budget::millis(30)).unwrap();
        let report = memplan::check::check(&best);
        assert!(report.is_valid(), "{name}: {report:?}");
        let stats = memplan::stats::stats(&plan);
        for (c, (after, before)) in best.peaks().iter().zip(plan.peaks()).enumerate() {
            assert!(
                stats.components[c].lower_bound <= *after && *after <= before,
                "{name} {c}"
            );
            if plan.components[c].name.starts_with("read-only") {
                assert_eq!(*after, before, "{name}: constants are never reused");
            }
        }
        eprintln!("{name}: Vela {:?}, best {:?}", plan.peaks(), best.peaks());
        // Vela's LinearAlloc leaves room that best takes back.
        if name.ends_with("-linear.txt") {
            saved += 1;
            assert!(best.peaks() < plan.peaks(), "{name}: best saves nothing");
        }
    }
    assert!(saved >= 5);
    let (_, plan) = open("resnet_tiny.u65-256-dedicated.txt");
    replans_within_bounds("resnet_tiny", &plan);
    let (doc, _) = open("ds_cnn_kws.u55-128-shared.txt");
    csv_reads_back("ds_cnn_kws", &doc);
}

#[test]
fn cut_or_garbled_reports_are_refused_at_their_line() {
    let name = "ch17.u55-128-shared.txt";
    let text = fixture_text(&format!("vela/{name}"));
    // Cut before the first peak line.
    let cut = &text[..text.find("Allocation Peak Tensor Size").unwrap()];
    let e = formats::load("r.txt", cut.as_bytes()).unwrap_err();
    refused_at(&e, "r.txt", cut.lines().count(), "cut short");
    assert!(
        e.message.contains("Allocation, memory") || e.message.contains("Sram"),
        "{e}"
    );
    // Cut in the middle of a row.
    let at = text.find(": NHCWB16").unwrap();
    let cut = &text[..at];
    let e = formats::load("r.txt", cut.as_bytes()).unwrap_err();
    refused_at(&e, "r.txt", cut.lines().count(), "expected a row");
    // An end address that does not match the size.
    let line = text
        .lines()
        .position(|l| l.contains(": 0x") || l.contains("  0x"))
        .unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[line] = lines[line].replacen("0x", "0x1", 1);
    let garbled = lines.join("\n");
    let e = formats::load("r.txt", garbled.as_bytes()).unwrap_err();
    refused_at(&e, "r.txt", line + 1, "do not span the tensor size");
    // A peak that is not a number.
    let garbled = text.replacen(
        "Allocation Peak Tensor Size: ",
        "Allocation Peak Tensor Size: many ",
        1,
    );
    let e = formats::load("r.txt", garbled.as_bytes()).unwrap_err();
    assert!(e.message.contains("expected the peak in bytes"), "{e}");
}

/// An Aidge log stays an Aidge log (the fallback reader Vela's reports used to reach).
#[test]
fn aidge_logs_are_not_vela_reports() {
    let (path, bytes) = fixture("formats/two_mems_memory_info.txt");
    let doc = formats::load(&path, &bytes).unwrap();
    assert!(
        matches!(doc.format, Format::AidgeLog(_)),
        "{:?}",
        doc.format
    );
}

#[test]
fn the_cli_prints_vela_s_peaks() {
    use assert_cmd::Command;
    let name = "dag6.u65-256-dedicated.txt";
    let path = format!("{}/tests/data/vela/{name}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::cargo_bin("memplan")
        .unwrap()
        .args(["stats", &path])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for p in vela_peaks(name) {
        assert!(text.contains(&p.to_string()), "{p} not in {text}");
    }
}

/// The compiled models (`<model>.<config>.tflite`) beside the report of the same
/// compilation: the TFLM arena is Vela's first area (the scratch), the fast memory its
/// SRAM area in the dedicated modes, and the read-only data is as large as Vela's
/// read-only peak; the plan checks clean.
#[test]
fn compiled_models_open_with_vela_s_areas() {
    let dir = format!("{}/tests/data/vela", env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for name in reports() {
        let stem = name.trim_end_matches(".txt");
        if !std::path::Path::new(&format!("{dir}/{stem}.tflite")).exists() {
            continue;
        }
        seen += 1;
        let (path, bytes) = fixture(&format!("vela/{stem}.tflite"));
        let doc = formats::load(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc.format, Format::Tflite);
        let plan = memplan::planning::resolve(&doc).unwrap();
        let report = memplan::check::check(&plan);
        assert!(report.is_valid(), "{stem}: {report:?}");
        let peaks = vela_peaks(&name);
        let (vela, _) = open(&name);
        let areas: Vec<String> = vela
            .plan
            .unwrap()
            .components
            .into_iter()
            .map(|c| c.name)
            .collect();
        let of = |prefix: &str| areas.iter().position(|a| a.starts_with(prefix)).unwrap();
        let mine = plan.peaks();
        if areas.len() == 3 {
            // Dedicated SRAM: the arena holds the Dram area, the fast memory the Sram one.
            assert_eq!(mine[0], peaks[of("Dram")], "{stem}");
            assert_eq!(mine[1], peaks[of("Sram")], "{stem}");
        } else {
            assert_eq!(mine[0], peaks[of("Sram")], "{stem}");
        }
        let read_only = plan
            .planes
            .iter()
            .find(|p| p.label.as_deref() == Some("read_only"))
            .unwrap();
        assert_eq!(read_only.size, peaks[of("read-only")], "{stem}");
        // best re-places it validly, never above the file's plan.
        let best = strategies::replan(&plan, Strategy::Best, &Budget::millis(30)).unwrap();
        assert!(memplan::check::check(&best).is_valid(), "{stem}");
        assert!(best.peaks() <= mine, "{stem}");
        eprintln!("{stem}: {mine:?}");
    }
    assert!(seen >= 10, "{seen} compiled models");
}

/// Writing a plan into a Vela-compiled model is refused: its plan is Vela's.
#[test]
fn a_compiled_model_takes_no_other_plan() {
    let (_, bytes) = fixture("vela/ch17.u55-128-shared.tflite");
    let read = memplan::formats::tflite::read(&bytes).unwrap();
    let e = memplan::formats::tflite::with_plan(&bytes, &read.plan).unwrap_err();
    assert!(e.message.contains("compiled by Vela"), "{e}");
}

/// `memplan plan REPORT --strategy best` says what best saves on Vela's plan.
#[test]
fn the_cli_says_what_best_saves() {
    use assert_cmd::Command;
    let name = "resnet_tiny.u55-128-shared-linear.txt";
    let path = format!("{}/tests/data/vela/{name}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::cargo_bin("memplan")
        .unwrap()
        .args(["plan", &path, "--strategy", "best", "-o", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("saves"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        line.contains(&format!("Vela's {:?} B", vela_peaks(name))),
        "{line}"
    );
    let saved: u64 = line
        .rsplit("saves ")
        .next()
        .unwrap()
        .trim_end_matches(" B")
        .parse()
        .unwrap();
    assert!(saved > 0, "{line}");
}
