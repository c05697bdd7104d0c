//! `memplan tile` / `tiling::tile` (issue #48): the tiled model reads back, its `best`
//! plan is under the budget asked and no higher than the figure reported, the nodes
//! and initializers the rewrite does not touch keep their bytes, bad input is refused
//! in words. (tests/parity/tiling_exec.py runs the models in onnxruntime; the region
//! arithmetic is checked against a brute-force receptive field in `tiling::region`.)

use assert_cmd::Command;
use memplan::formats::{onnx, Document};
use memplan::planning::{Request, Session};
use memplan::strategies::Budget;
use memplan::tiling::{self, Options};
use predicates::prelude::*;
use prost::encoding::{decode_key, decode_varint, WireType};
use std::io::Read;

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("tests/data/onnx/corpus/{name}.onnx.gz");
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The payloads of the length-delimited fields `tag` of a message.
fn fields(bytes: &[u8], tag: u32) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut buf = bytes;
    while !buf.is_empty() {
        let (t, wire) = decode_key(&mut buf).unwrap();
        match wire {
            WireType::Varint => {
                decode_varint(&mut buf).unwrap();
            }
            WireType::SixtyFourBit => buf = &buf[8..],
            WireType::ThirtyTwoBit => buf = &buf[4..],
            WireType::LengthDelimited => {
                let len = decode_varint(&mut buf).unwrap() as usize;
                if t == tag {
                    out.push(&buf[..len]);
                }
                buf = &buf[len..];
            }
            _ => panic!("group"),
        }
    }
    out
}

fn graph(model: &[u8]) -> &[u8] {
    fields(model, 7)[0]
}

fn best_peak(model: &[u8]) -> u64 {
    let schedule = onnx::read(model, &[]).expect("the tiled model reads back");
    let mut session = Session::of("tiled.onnx", Document::of_schedule(schedule));
    let request = Request::new("best", Budget::millis(10_000)).unwrap();
    session.plan(&request).unwrap().0.peak()
}

#[test]
fn a_tiled_resnet_fits_reads_back_and_keeps_the_rest_of_the_model_byte_for_byte() {
    let model = corpus("resnet18");
    let budget = 2_000_000;
    let t = tiling::tile(&model, &[], budget, &Options::default()).unwrap();
    assert!(
        t.peak_before > budget,
        "the untiled model must not fit already"
    );
    assert!(t.fits && t.peak_after <= budget, "{t:?}");
    assert_eq!(t.stages.len(), 1);
    let s = &t.stages[0];
    assert!(s.rows * s.cols > 1 && t.macs_after > t.macs_before);
    assert!(
        s.ended_by
            .as_deref()
            .unwrap_or("")
            .contains("GlobalAveragePool")
            || s.ended_by.is_none()
    );
    // The file's own plan: never above the figure reported (best given more time).
    let peak = best_peak(&t.onnx);
    assert!(
        peak <= t.peak_after && peak <= budget,
        "{peak} vs {}",
        t.peak_after
    );

    // Every node not replaced, every initializer, every other model field: same bytes.
    let (before, after) = (graph(&model), graph(&t.onnx));
    let nodes_after = fields(after, 1);
    let kept: Vec<&[u8]> = fields(before, 1)
        .into_iter()
        .filter(|n| nodes_after.contains(n))
        .collect();
    let replaced = fields(before, 1).len() - kept.len();
    assert!(
        replaced > 0 && kept.len() > 10,
        "{replaced} replaced, {} kept",
        kept.len()
    );
    let inits_after = fields(after, 5);
    for init in fields(before, 5) {
        assert!(inits_after.contains(&init), "an initializer changed");
    }
    assert_eq!(fields(&model, 8), fields(&t.onnx, 8), "opset imports");
    // The cut tensor keeps its name, so the untouched consumers still read it.
    let cut = s.cut.as_bytes();
    assert!(nodes_after
        .iter()
        .any(|n| fields(n, 4).first() == Some(&&b"Concat"[..]) && fields(n, 2) == [cut]));
}

#[test]
fn bad_input_is_refused_in_words() {
    let err = |bytes: &[u8], budget| {
        tiling::tile(bytes, &[], budget, &Options::default())
            .unwrap_err()
            .to_string()
    };
    assert!(err(&corpus("resnet18"), 0).contains("0 bytes"));
    assert!(err(b"not a model at all", 1000).contains("ONNX"));
    // A language model's input is token ids, not an image.
    assert!(err(&corpus("gpt2"), 1000).contains("N, C, H, W"));
}

#[test]
fn the_cli_writes_the_tiled_model_and_names_what_ended_the_stage() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.onnx");
    std::fs::write(&model, corpus("squeezenet1_1")).unwrap();
    let out = dir.path().join("t.onnx");
    let assert = Command::cargo_bin("memplan")
        .unwrap()
        .args(["tile", model.to_str().unwrap(), "--fast", "1500K", "-o"])
        .arg(&out)
        .args(["--budget", "10000"])
        .assert()
        .success();
    let text = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("patches") && text.contains("% MACs"),
        "{text}"
    );
    assert!(text.contains("tiling ends at"), "{text}");
    assert!(best_peak(&std::fs::read(&out).unwrap()) <= 1500 * 1024);

    let bad = dir.path().join("bad.onnx");
    std::fs::write(&bad, b"plain text").unwrap();
    Command::cargo_bin("memplan")
        .unwrap()
        .args(["tile", bad.to_str().unwrap(), "--fast", "1M", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.onnx").and(predicates::str::contains("ONNX")));
}
