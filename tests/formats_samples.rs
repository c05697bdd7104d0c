//! Small hand-made files of each dialect (tests/data/formats): recognised, written
//! back byte for byte, checked clean, with peaks worked out by hand.

use memplan::formats::{self, Format, LogDialect};

fn sample(name: &str) -> (String, formats::Document) {
    let path = format!("{}/tests/data/formats/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = formats::load(&path, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    (text, doc)
}

#[test]
fn log_dialects_round_trip() {
    // (file, dialect, peak per component)
    let cases = [
        // env [0,3072) then conv1 [3072,11264): 11264.
        ("n2d2_memory_mapping.log", LogDialect::N2d2, vec![11264]),
        // hex 0x1000000 has 7 digits: the C++ writer's width 8 counts the 0x.
        (
            "aidge_cpp_memory_info.log",
            LogDialect::AidgeCpp,
            vec![16781312],
        ),
        (
            "two_mems_memory_info.txt",
            LogDialect::Python {
                multiple_mems: true,
            },
            vec![1600, 2048],
        ),
    ];
    for (name, dialect, peaks) in cases {
        let (text, doc) = sample(name);
        assert_eq!(doc.format, Format::AidgeLog(dialect), "{name}");
        let plan = memplan::planning::resolve(&doc).unwrap();
        assert_eq!(plan.peaks(), peaks, "{name}");
        assert!(memplan::check::check(&plan).is_valid(), "{name}");
        assert_eq!(
            memplan::planning::export(&doc, formats::Export::AidgeLog(None)).unwrap(),
            text,
            "{name}"
        );
    }
}

#[test]
fn the_documented_memplan_example_loads() {
    let (_, doc) = sample("example.memplan.json");
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let plan = doc.plan.as_ref().unwrap();
    assert_eq!((plan.peak(), plan.planes.len()), (3211264, 2));
    assert!(memplan::check::check(plan).is_valid());
    assert_eq!(doc.buffers.as_ref().unwrap().buffers[0].id, "b1");
    // The two planes of one space share bytes (in place): their log lines agree.
    let log = formats::aidge_log::write(
        plan,
        LogDialect::Python {
            multiple_mems: false,
        },
    );
    assert_eq!(
        log,
        "conv1_Conv:\n  0 0 (0x00000000U) -> 3211264 (0x00310000U) [3211264] @ 0 to 2\n\n\
         relu_Relu:\n  0 0 (0x00000000U) -> 3211264 (0x00310000U) [3211264] @ 1 to 2\n\n"
    );
}

/// Every file under `dir`, recursively.
fn files_under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The page tells an ONNX model by the core's rule (`formats::is_onnx_model`, exported
/// to the page's first module as `is_onnx`: `www/main.js` hands it to `www/onnx.js`,
/// `<memplan-view>`'s loader calls it), never by a name rule of its own (issue #50: a
/// model named `model.bin` opened in the CLI, not the page); a `.tflite` by its name
/// (`www/tflite.js`), the core by its content (`tflite::is_tflite`). On every file of
/// tests/data the two agree (but the deliberately cut `.tflite` of tests/data/bad,
/// which only its name says is one); the page's rules are quoted from its source, so
/// changing them changes this test.
#[test]
fn the_pages_file_types_by_name_agree_with_the_cores_sniffing() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"));
    let js = |f: &str| std::fs::read_to_string(format!("{root}/www/{f}")).unwrap();
    const ONNX_BY_NAME: &str = r"/\.onnx$/i";
    const TFLITE_BY_NAME: &str = r"/\.tflite$/i";
    for f in ["onnx.js", "memplan-view.js", "main.js", "deploy.js"] {
        assert!(
            !js(f).contains(ONNX_BY_NAME),
            "{f} tells a model by its name"
        );
    }
    assert!(js("main.js").contains("is_onnx as isOnnx"));
    assert!(js("onnx.js").contains("sniff.is(item.name, head)"));
    assert!(js("memplan-view.js").contains("wasm.is_onnx(name,"));
    assert!(js("tflite.js").contains(&format!("{TFLITE_BY_NAME}.test(src.name)")));
    let mut files = Vec::new();
    files_under(&std::path::Path::new(root).join("tests/data"), &mut files);
    let mut checked = (0, 0);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
        let bytes = std::fs::read(&path).unwrap();
        let (onnx, tflite) = (name.ends_with(".onnx"), name.ends_with(".tflite"));
        assert_eq!(
            formats::is_onnx_model(&name, &bytes),
            onnx,
            "{}: the page and the core disagree on whether it is an ONNX model",
            path.display()
        );
        if name != "truncated.tflite" {
            assert_eq!(
                formats::tflite::is_tflite(&bytes),
                tflite,
                "{}: the page and the core disagree on whether it is a .tflite",
                path.display()
            );
        }
        checked.0 += usize::from(onnx);
        checked.1 += usize::from(tflite);
    }
    assert!(checked.0 >= 5 && checked.1 >= 10, "{checked:?}");
}
