//! The export memory checker (`memplan check --export DIR`) on real aidge-export-cpp
//! 0.10.1 exports (tests/data/export, written by its make_exports.py from the models
//! of models.py): silent on a correct export, and it names the node, the layer header
//! and the bytes of each known defect: ReduceMean writing 4 of 16 means (MnasNet's
//! tail), the fused HardSwish of a squeeze-excite gate writing 16 of 1,024 floats
//! (MobileNet-v3), MaxPool's index output never written (ResNet, GoogLeNet), and a
//! plan corrupted by hand (from `clean`, in the test).

use assert_cmd::Command;
use memplan::export_check::{check, FindingKind, Report};
use memplan::export_folder;
use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/export")
        .join(name)
}

fn report(name: &str) -> Report {
    let (forward, headers) = export_folder::read(&dir(name)).unwrap();
    check(&forward, &headers).unwrap()
}

fn kinds(r: &Report) -> Vec<(FindingKind, &str, &str, u64)> {
    r.findings
        .iter()
        .map(|f| (f.kind, f.node.as_str(), f.header.as_str(), f.bytes))
        .collect()
}

#[test]
fn a_correct_export_is_clean() {
    let r = report("clean");
    assert!(r.is_clean(), "{:#?}", r.findings);
    assert_eq!(r.kernels, 10);
    assert_eq!(r.arenas, vec![("mem_0".to_string(), 6912)]);
}

#[test]
fn reducemean_on_channels_last_dims_writes_a_quarter_of_its_means() {
    // dims {1,4,4,16} (NHWC) with ONNX's axes {2,3}: 1·4·1·1 = 4 of 16 floats.
    let r = report("reducemean");
    assert_eq!(
        kinds(&r),
        vec![(
            FindingKind::Unwritten,
            "_6_FC_0",
            "dnn/include/layers/_6_FC_0.h",
            48
        )]
    );
    let m = &r.findings[0].message;
    assert!(
        m.contains("`_5_ReduceMean_0`") && m.contains("wrote only 16 B"),
        "{m}"
    );
}

#[test]
fn the_fused_squeeze_excite_hardswish_writes_only_its_gate() {
    let r = report("se_hardswish");
    assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
    let f = &r.findings[0];
    assert_eq!(f.kind, FindingKind::Unwritten);
    assert_eq!(f.header, "dnn/include/layers/_13_Transpose_8.h");
    // 16·8·8 floats read, 16 written
    assert_eq!(f.bytes, 4096 - 64);
    assert!(f.message.contains("`_12_HardSwish_0`"), "{}", f.message);
}

#[test]
fn maxpool_indices_are_declared_but_never_written() {
    let r = report("maxpool");
    let k = kinds(&r);
    assert_eq!(k.len(), 2, "{:#?}", r.findings);
    assert_eq!(
        k[0],
        (
            FindingKind::NeverWritten,
            "_4_PadMaxPool_0",
            "dnn/include/layers/_4_PadMaxPool_0.h",
            1024
        )
    );
    assert_eq!(k[1].0, FindingKind::Unwritten);
    assert_eq!(k[1].3, 1024);
    assert!(r.findings[1].message.contains("`_4_PadMaxPool_0_output_1`"));
}

/// The `#define NAME_OUTPUT_0_MEM_OFFSET n` value of the header whose file name ends
/// with `suffix`, and that header's index.
fn offset_macro(headers: &[(String, String)], suffix: &str) -> (usize, String, u64) {
    let i = headers
        .iter()
        .position(|(path, _)| path.ends_with(suffix))
        .unwrap_or_else(|| panic!("no header ending in {suffix}"));
    let line = headers[i]
        .1
        .lines()
        .find(|l| l.starts_with("#define") && l.contains("_OUTPUT_0_MEM_OFFSET "))
        .unwrap();
    let mut words = line.split_whitespace().skip(1);
    let name = words.next().unwrap().to_string();
    (i, name, words.next().unwrap().parse().unwrap())
}

#[test]
fn a_corrupted_plan_is_caught_where_the_overwritten_bytes_are_read() {
    // `clean` with its plan corrupted by hand: the second conv writes over the skip
    // branch (the Transpose of the first ReLU's output) that the residual Add still reads.
    let (forward, mut headers) = export_folder::read(&dir("clean")).unwrap();
    let (_, _, skip) = offset_macro(&headers, "_Transpose_1.h");
    let (conv, name, was) = offset_macro(&headers, "_PadConvAct_1.h");
    assert_ne!(skip, was);
    headers[conv].1 = headers[conv].1.replace(
        &format!("#define {name} {was}\n"),
        &format!("#define {name} {skip}\n"),
    );
    let r = check(&forward, &headers).unwrap();
    assert_eq!(
        kinds(&r),
        vec![(
            FindingKind::Overwritten,
            "_6_Add_0",
            "dnn/include/layers/_6_Add_0.h",
            2048
        )]
    );
    assert!(r.findings[0].message.contains("`_4_PadConvAct_1_output_0`"));
}

#[test]
fn cli_exit_status_and_messages() {
    let ok = Command::cargo_bin("memplan")
        .unwrap()
        .args(["check", "--export"])
        .arg(dir("clean"))
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("clean (10 kernels"));
    let bad = Command::cargo_bin("memplan")
        .unwrap()
        .args(["check", "--json", "--export"])
        .arg(dir("reducemean"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(v["findings"][0]["kind"], "unwritten");
    let missing = Command::cargo_bin("memplan")
        .unwrap()
        .args(["check", "--export"])
        .arg(dir("no-such-export"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("not a folder"));
}

#[test]
fn a_forward_without_model_forward_is_a_clear_error() {
    let e = check("int main() {}", &[]).unwrap_err();
    assert!(e.to_string().contains("model_forward"), "{e}");
}
