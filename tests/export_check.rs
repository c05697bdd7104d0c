//! The export memory checker (`memplan check --export DIR`) on real aidge-export-cpp
//! 0.10.1 exports (tests/data/export, written by its make_exports.py from the models
//! of models.py): silent on a correct export, and it names the node, the layer header
//! and the bytes of each known defect: ReduceMean writing 4 of 16 means (MnasNet's
//! tail), the fused HardSwish of a squeeze-excite gate writing 16 of 1,024 floats
//! (MobileNet-v3), MaxPool's index output never written (ResNet, GoogLeNet), and a
//! plan corrupted by hand (from `clean`, in the test); and aidge-export-arm-cortexm's
//! int8 export of `maxpool`, whose pixels are padded to 16 bytes (`cortexm_maxpool`).

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

#[test]
fn cortexm_int8_planes_padded_to_16_bytes_are_read_as_the_kernels_lay_them() {
    // aidge-export-arm-cortexm's int8 export of `maxpool` (tests/data/export/cortexm_maxpool):
    // each pixel's channels padded to 16 bytes (`*_MEM_STRIDE` 16). The convolution and
    // pooling kernels address pixels with that stride, the Transposes around them read
    // and write packed: every hand-over between the two is a read of bytes the producer
    // never wrote, with Aidge's own plan.
    let r = report("cortexm_maxpool");
    let k = kinds(&r);
    let h = |n: &str| format!("dnn/include/layers/{n}.h");
    let expect = [
        // the 3 float channels of the transposed input: 12 of 16 B per pixel, read
        // 16 B apart from a packed 768 B: 48 pixels land in it, 16 past its end
        (FindingKind::Unwritten, "_1_PadConvAct_0", 192),
        // the conv's 8 int8 channels at 16 B per pixel, read packed by the Transpose
        (FindingKind::Unwritten, "_2_Transpose_1", 256),
        (FindingKind::Unwritten, "_4_PadMaxPool_0", 256),
        (FindingKind::NeverWritten, "_4_PadMaxPool_0", 1024),
        (FindingKind::Unwritten, "_5_Transpose_3", 64),
        (FindingKind::Unwritten, "_6_Transpose_4", 1024),
        (FindingKind::Unwritten, "_8_PadConv_0", 64),
        // what reaches the model output: 4 int8 channels at 16 B per pixel, read packed
        (FindingKind::Unwritten, "_9_Transpose_6", 48),
    ];
    let got: Vec<(FindingKind, &str, u64)> = k.iter().map(|f| (f.0, f.1, f.3)).collect();
    assert_eq!(got, expect, "{:#?}", r.findings);
    assert!(k.iter().all(|f| f.2 == h(f.1)));
    let pool = &r.findings[2].message;
    assert!(
        pool.contains("`_3_Transpose_2_output_0`")
            && pool.contains("pixels 16 B apart (`_3_TRANSPOSE_2_OUTPUT_0_MEM_STRIDE`)")
            && pool.contains("written packed")
            && pool.contains("stale bytes of `_1_PadConvAct_0_output_0`"),
        "{pool}"
    );
    assert!(
        r.findings[1]
            .message
            .contains("reads packed bytes, they were written 16 B apart"),
        "{}",
        r.findings[1].message
    );
}

#[test]
fn cortexm_stride_is_what_makes_the_handovers_wrong() {
    // The same export with every pixel stride set to its channels' bytes (what
    // `memory_alignment=1` plans): the pixel-addressing kernels then lay tensors out
    // packed like the Transposes, and only the MaxPool indices defect is left.
    let (forward, mut headers) = export_folder::read(&dir("cortexm_maxpool")).unwrap();
    for (_, text) in headers.iter_mut() {
        let macros: Vec<(String, u64)> = text
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                (w.next() == Some("#define")).then_some(())?;
                Some((w.next()?.to_string(), w.next()?.parse().ok()?))
            })
            .collect();
        let get = |k: &str| macros.iter().find(|(n, _)| n == k).map(|m| m.1);
        for (name, stride) in &macros {
            let Some(t) = name.strip_suffix("_MEM_STRIDE") else {
                continue;
            };
            let Some(c) = get(&format!("{t}_NB_OUTPUTS")) else {
                continue;
            };
            // float for the transposed model input, int64 for the indices, else int8
            let e = if t.starts_with("_0_") {
                4
            } else if t.ends_with("OUTPUT_1") || t.starts_with("_6_") {
                8
            } else {
                1
            };
            if get(&format!("{t}_MEM_LENGTH")) > Some(1) {
                *text = text.replace(
                    &format!("#define {name} {stride}\n"),
                    &format!("#define {name} {}\n", c * e),
                );
            }
        }
    }
    let r = check(&forward, &headers).unwrap();
    let k: Vec<(FindingKind, &str)> = kinds(&r).iter().map(|f| (f.0, f.1)).collect();
    assert_eq!(
        k,
        vec![
            (FindingKind::NeverWritten, "_4_PadMaxPool_0"),
            (FindingKind::Unwritten, "_6_Transpose_4"),
        ],
        "{:#?}",
        r.findings
    );
}
