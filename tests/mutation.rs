//! The short mutation pass that runs with `cargo test`: real and bad files, mutated
//! the way corruption and hand edits mutate them (bytes flipped, inserted, deleted,
//! duplicated, numbers replaced by extreme ones, truncation), fed to everything a
//! dropped file reaches (`tests/support/exercise.rs`). No input may panic. The long,
//! coverage-guided run is `fuzz/` (docs/robustness.md).

use proptest::prelude::*;

include!("support/exercise.rs");

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// Seed files: every bad input, every small format sample, a few real Aidge exports
/// (schedule + plan) of the smallest graphs, a hand-off made from one, a dump of
/// each framework memplan reads, and a small .tflite and .onnx model. Read once per test binary.
fn seeds() -> &'static [(String, Vec<u8>)] {
    static SEEDS: std::sync::OnceLock<Vec<(String, Vec<u8>)>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(read_seeds)
}

fn read_seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in ["bad", "formats"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{DATA}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for p in paths {
            out.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    for case in [
        "split-multi-None",
        "split-single-wrap-None",
        "branches-autoconcat-None",
    ] {
        let path = format!("{DATA}/aidge/{case}.json");
        out.push((format!("{case}.json"), std::fs::read(path).unwrap()));
    }
    // A worker hand-off of a broken plan, so mutations reach every section of the
    // wire decoder (plan, stats, findings).
    let (_, json) = &out[out.len() - 1];
    let doc = formats::load("plan.json", json).unwrap();
    let mut plan = memplan::planning::resolve(&doc).unwrap();
    plan.planes[0].cont_size += 1;
    let report = memplan::check::check(&plan);
    assert!(!report.is_valid());
    let sent = wire::encode(&plan, &memplan::stats::stats(&plan), &report);
    out.push(("handoff.wire".into(), sent));
    // Frameworks' dumps (issue #16): XLA's two files as one text (as older XLA wrote
    // them), IREE's packs, ExecuTorch's trace.
    let xla: String = ["buffer-assignment", "live-range"]
        .map(|s| {
            std::fs::read_to_string(format!("{DATA}/xla/rnn.cpu_after_optimizations-{s}.txt"))
                .unwrap()
        })
        .concat();
    out.push(("rnn-buffer-assignment.txt".into(), xla.into_bytes()));
    // The binary readers (issue #37): a TFLite Micro model (FlatBuffers) and an ONNX
    // model (protobuf); fuzz/'s `tflite` and `onnx` targets run them longer.
    for file in [
        "iree/mlp.packs.mlir",
        "executorch/cnn.trace.json",
        "tflm/sine_float.tflite",
        "onnx/tiny_cnn.onnx",
    ] {
        let name = file.rsplit('/').next().unwrap().to_owned();
        out.push((name, std::fs::read(format!("{DATA}/{file}")).unwrap()));
    }
    out
}

/// Numbers that break naive arithmetic.
const EXTREMES: [&str; 8] = [
    "0",
    "-1",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
];

#[derive(Debug, Clone)]
enum Edit {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize),
    /// Replace the number at or after this position by an extreme one.
    Number(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        (at, any::<u8>()).prop_map(|(i, b)| Edit::Flip(i, b)),
        (
            at,
            prop::sample::select(&b"{}[],:\"0123456789-\n\r \t@>#"[..])
        )
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        (at, 1usize..64).prop_map(|(i, n)| Edit::Delete(i, n)),
        (at, 1usize..256).prop_map(|(i, n)| Edit::Duplicate(i, n)),
        (at, 0..EXTREMES.len()).prop_map(|(i, k)| Edit::Number(i, k)),
        at.prop_map(Edit::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, e: &Edit) {
    let len = bytes.len().max(1);
    match *e {
        Edit::Flip(i, b) => {
            if let Some(x) = bytes.get_mut(i % len) {
                *x ^= b | 1;
            }
        }
        Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
        Edit::Delete(i, n) => {
            let i = i % len;
            let j = (i + n).min(bytes.len());
            bytes.drain(i.min(j)..j);
        }
        Edit::Duplicate(i, n) => {
            let i = i % len;
            let j = (i + n).min(bytes.len());
            let copy = bytes[i.min(j)..j].to_vec();
            bytes.splice(j..j, copy);
        }
        Edit::Number(i, k) => {
            let Some(start) = (i % len..bytes.len()).find(|&p| bytes[p].is_ascii_digit()) else {
                return;
            };
            let end = (start..bytes.len())
                .find(|&p| !bytes[p].is_ascii_digit())
                .unwrap_or(bytes.len());
            bytes.splice(start..end, EXTREMES[k].bytes());
        }
        Edit::Truncate(i) => bytes.truncate(i % len),
    }
}

proptest! {
    // About a second in release (CI); fewer cases in debug builds.
    #![proptest_config(ProptestConfig {
        cases: if cfg!(debug_assertions) { 64 } else { 20_000 },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_files_never_panic(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..6),
        name in prop::sample::select(&NAMES[..]),
    ) {
        let seeds = seeds();
        let (seed_name, bytes) = &seeds[seed.index(seeds.len())];
        let mut bytes = bytes.clone();
        for e in &edits {
            apply(&mut bytes, e);
        }
        // Half the time under its own name, half under another format's.
        let name = if edits.len() % 2 == 0 { seed_name.as_str() } else { name };
        exercise(name, &bytes);
    }
}

#[test]
fn every_seed_is_exercised_as_is() {
    let seeds = seeds();
    assert!(seeds.len() > 60, "{} seeds", seeds.len());
    for (name, bytes) in seeds {
        exercise(name, bytes);
    }
}
