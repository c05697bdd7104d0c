//! IREE's `stream.resource.pack` slices (tests/data/iree, written by the real
//! iree-base-compiler with tests/data/iree/gen.py): every slice's range and size, laid
//! out as IREE lays them, to the transient allocation IREE itself makes; bad input.

use memplan::formats::Format;

include!("support/framework.rs");

const MODELS: [&str; 2] = ["cnn", "mlp"];

fn open(model: &str) -> (Document, Plan) {
    let (name, bytes) = fixture(&format!("iree/{model}.packs.mlir"));
    let doc = formats::load(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::Iree);
    let plan = memplan::planning::resolve(&doc).unwrap();
    (doc, plan)
}

/// The size of each transient allocation of IREE's final stream IR: `{%cN}` or
/// `{%cN_K}` (MLIR names an index constant by its value).
fn iree_transients(model: &str) -> Vec<u64> {
    fixture_text(&format!("iree/{model}.transients.txt"))
        .lines()
        .map(|l| {
            let rest = &l[l.find("<transient>{%c").unwrap() + 14..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap()
        })
        .collect()
}

#[test]
fn the_peak_is_the_transient_allocation_iree_makes() {
    for model in MODELS {
        let (_, plan) = open(model);
        assert_eq!(plan.peaks(), iree_transients(model), "{model}");
        assert_eq!(plan.alignment, 64, "{model}: IREE's offset alignment");
    }
}

#[test]
fn every_slice_keeps_its_range_and_size() {
    for model in MODELS {
        let (_, plan) = open(model);
        let lives = plan.plane_last_lives();
        let text = fixture_text(&format!("iree/{model}.packs.mlir"));
        let slices: Vec<(u32, u32, u64)> = text
            .lines()
            .skip_while(|l| !l.contains("stream.resource.pack"))
            .skip(1)
            .take_while(|l| l.trim_start().starts_with('['))
            .map(|l| {
                let (range, size) = l.trim().split_once("] = %c").unwrap();
                let (a, b) = range[1..].split_once(", ").unwrap();
                let size: String = size.chars().take_while(char::is_ascii_digit).collect();
                (
                    a.parse().unwrap(),
                    b.parse().unwrap(),
                    size.parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(plan.planes.len(), slices.len(), "{model}");
        for (k, (first, last, size)) in slices.into_iter().enumerate() {
            let i = plan
                .planes
                .iter()
                .position(|p| {
                    p.label
                        .as_deref()
                        .is_some_and(|l| l.starts_with(&format!("slice {} ", k + 1)))
                })
                .unwrap_or_else(|| panic!("{model}: slice {}", k + 1));
            let p = &plan.planes[i];
            assert_eq!(
                p.size,
                size.div_ceil(64) * 64,
                "{model} slice {k}: IREE reserves aligned sizes"
            );
            assert_eq!((p.allocated, lives[i]), (first, last), "{model} slice {k}");
            assert_eq!(p.cont_offset % 64, 0, "{model} slice {k}");
        }
        // Slices are named by the dispatch that writes them.
        assert!(
            plan.planes
                .iter()
                .any(|p| p.label.as_deref().unwrap().contains("_dispatch_")),
            "{model}"
        );
    }
}

#[test]
fn every_strategy_replans_within_bounds() {
    for model in MODELS {
        let (doc, plan) = open(model);
        replans_within_bounds(model, &plan);
        csv_reads_back(model, &doc);
    }
}

#[test]
fn bad_packs_are_refused_at_their_line() {
    let text = fixture_text("iree/cnn.packs.mlir");
    let at = text.find("[5, 6] = %c65536").unwrap();
    let line = text[..at].matches('\n').count() + 1;
    // Cut inside the pack.
    let e = formats::load("p.mlir", &text.as_bytes()[..at + 4]).unwrap_err();
    refused_at(&e, "p.mlir", line, "expected a slice");
    let e = formats::load("p.mlir", &text.as_bytes()[..at]).unwrap_err();
    assert!(e.to_string().starts_with("p.mlir: line "), "{e}");
    assert!(e.message.contains("truncated"), "{e}");
    // Cut before its first pack: IREE's reader says what it expected (by the name, or
    // by the IR dump's header), not another format's.
    let first = text.find("stream.resource.pack").unwrap();
    for name in ["p.mlir", "dump.txt"] {
        let e = formats::load(name, &text.as_bytes()[..first]).unwrap_err();
        assert!(
            e.message.contains("no `stream.resource.pack` op"),
            "{name}: {e}"
        );
    }
    // A size that is no constant of the function.
    let garbled = text.replacen("[5, 6] = %c65536", "[5, 6] = %c65537", 1);
    let e = formats::load("p.mlir", garbled.as_bytes()).unwrap_err();
    refused_at(
        &e,
        "p.mlir",
        line,
        "slice size %c65537 is not an `arith.constant`",
    );
    // A range that ends before it starts.
    let garbled = text.replacen("[5, 6] = %c65536", "[6, 5] = %c65536", 1);
    let e = formats::load("p.mlir", garbled.as_bytes()).unwrap_err();
    refused_at(&e, "p.mlir", line, "ends before it starts");
}
