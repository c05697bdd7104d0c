//! Every kind of bad input a user's toolchain can write, through the `memplan` CLI
//! as a user runs it: the message names the file, the place (line and column, a
//! JSON path, or the item the checker found wrong) and what was expected; the exit
//! status is 2 for an unreadable file, 1 for a readable but invalid plan; nothing
//! panics. The files are in `tests/data/bad/`; the page is fed a subset of them by
//! `tests/e2e/robust.test.mjs`.

use assert_cmd::Command;
use std::path::Path;
use std::process::Output;

const BAD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bad");

/// `memplan ARGS` run in `tests/data/bad`, so that messages name the bare file.
fn run(args: &[&str]) -> Output {
    let out = Command::cargo_bin("memplan")
        .unwrap()
        .current_dir(BAD)
        .args(args)
        .output()
        .unwrap();
    let all = text(&out);
    assert!(
        !all.contains("panicked") && !all.contains("internal error"),
        "memplan {args:?} panicked:\n{all}"
    );
    out
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `memplan check FILE` exits with `code` and prints `FILE: PLACE: ...` with every
/// `expected` fragment on that line.
fn refused(file: &str, code: i32, place: &str, expected: &[&str]) {
    let out = run(&["check", file]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(code), "{file}:\n{all}");
    let head = format!("{file}: {place}");
    let line = all
        .lines()
        .find(|l| l.starts_with(&head) || l.starts_with(&format!("memplan: {head}")))
        .unwrap_or_else(|| panic!("no line starting with `{head}`:\n{all}"));
    for e in expected {
        assert!(line.contains(e), "`{e}` missing from:\n{line}");
    }
}

/// `memplan check FILE` accepts the file (exit 0, `valid`).
fn accepted(file: &str) -> String {
    let out = run(&["check", file]);
    let all = text(&out);
    assert_eq!(out.status.code(), Some(0), "{file}:\n{all}");
    assert!(all.contains(&format!("{file}: valid")), "{all}");
    all
}

macro_rules! refused {
    ($name:ident, $file:literal, $code:literal, $place:literal, $($expected:literal),+) => {
        #[test]
        fn $name() {
            refused($file, $code, $place, &[$($expected),+]);
        }
    };
}

// --- Not a file of ours at all -------------------------------------------------------

refused!(
    empty_file,
    "empty.json",
    2,
    "empty file",
    "expected memplan JSON"
);
refused!(
    blank_file,
    "blank.txt",
    2,
    "empty file",
    "Aidge memory_info.txt log"
);
refused!(
    binary_garbage,
    "binary.bin",
    2,
    "line 1, column 1",
    "not a text file",
    "UTF-8"
);
refused!(
    nul_byte,
    "nul.txt",
    2,
    "line 2, column 26",
    "NUL byte",
    "expected memplan JSON"
);
refused!(
    non_utf8_bytes,
    "latin1.csv",
    2,
    "line 2, column 4",
    "not UTF-8",
    "in UTF-8"
);
refused!(
    other_tools_json,
    "other-json.json",
    2,
    "$.format",
    "expected memplan JSON v1"
);
refused!(
    json_array,
    "array.json",
    2,
    "$.format",
    "expected memplan JSON v1"
);
refused!(
    wrong_version,
    "wrong-version.json",
    2,
    "$.version",
    "version 2",
    "reads version 1"
);
refused!(
    not_a_log,
    "not-a-log.txt",
    2,
    "no plane line found",
    "expected an Aidge/N2D2"
);

// --- Broken JSON ---------------------------------------------------------------------

refused!(
    truncated_json,
    "truncated.json",
    2,
    "line 3, column 46",
    "EOF",
    "truncated?"
);
refused!(
    trailing_garbage,
    "trailing.json",
    2,
    "line 6, column 1",
    "trailing characters"
);
refused!(
    control_character,
    "control-char.json",
    2,
    "line 2, column 30",
    "control character"
);
refused!(
    nan,
    "nan.json",
    2,
    "line 5, column 17",
    "JSON has no NaN or Infinity"
);
refused!(
    infinity,
    "infinity.json",
    2,
    "line 5, column 18",
    "JSON has no NaN or Infinity"
);
refused!(
    deep_nesting,
    "deep.json",
    2,
    "line 1, column 138",
    "nested more than 128 levels"
);
refused!(
    duplicate_key,
    "duplicate-key.json",
    2,
    "$.plan.spaces[0]",
    "duplicate field `size`",
    "line 3"
);

// --- Well-formed JSON, wrong content -------------------------------------------------

refused!(
    wrong_type,
    "wrong-type.json",
    2,
    "$.plan.steps",
    "expected a sequence",
    "line 2, column 24"
);
refused!(
    missing_field,
    "missing-field.json",
    2,
    "$.plan",
    "missing field `components`"
);
refused!(
    nothing_to_show,
    "nothing.json",
    2,
    "$",
    "needs `plan`, `schedule` or `buffers`"
);
refused!(
    negative_size,
    "negative.json",
    2,
    "$.plan.spaces[0].size",
    "-16",
    "negative values are not allowed"
);
refused!(
    fractional_clock,
    "float.json",
    2,
    "$.plan.max_lifetime",
    "1.5",
    "whole number"
);
refused!(
    number_beyond_u64,
    "beyond-u64.json",
    2,
    "$.plan.spaces[0].size",
    "whole number from 0 to 2^64-1"
);
refused!(
    clock_beyond_u32,
    "clock-beyond-u32.json",
    2,
    "$.plan.max_lifetime",
    "4294967296",
    "0 to 2^32-1"
);
refused!(
    clock_beyond_supported,
    "clock-too-large.json",
    2,
    "$.plan.max_lifetime",
    "above the supported maximum"
);
refused!(
    index_out_of_range,
    "bad-index.json",
    2,
    "$.plan.planes[0].space",
    "space 3 out of range",
    "1 space(s)"
);
refused!(
    zero_alignment,
    "alignment-zero.json",
    2,
    "$.plan.alignment",
    "at least 1"
);
refused!(
    duplicate_buffer_id,
    "duplicate-id.json",
    2,
    "$.buffers.buffers[1].id",
    "buffers[0]",
    "expected unique ids"
);

// --- Plans that read but are wrong (exit 1, the checker's report) --------------------

refused!(
    offset_plus_size_overflows,
    "offset-size-overflow.json",
    1,
    "plane outside space: space 0",
    "overflows 64 bits"
);
refused!(
    release_before_allocation,
    "release-before-allocation.json",
    1,
    "lifetime: space 0",
    "released at 0, before its allocation at 1"
);
refused!(
    plane_outside_its_space,
    "plane-outside-space.json",
    1,
    "plane outside space: plane 0 (a#0)",
    "[8, 24) leaves space 0 [0, 16)"
);
refused!(
    log_release_before_allocation,
    "log-release-before-allocation.txt",
    1,
    "lifetime: space 0",
    "before its allocation at 3"
);
refused!(
    csv_offset_plus_size_overflows,
    "csv-offset-size-overflow.csv",
    1,
    "plane outside space: space 0",
    "overflows 64 bits"
);

// --- Schedules -----------------------------------------------------------------------

refused!(
    schedule_cycle,
    "schedule-cycle.json",
    2,
    "$.schedule.nodes[1].inputs[0].parent",
    "form a cycle"
);
refused!(
    schedule_dangling_input,
    "schedule-dangling-input.json",
    2,
    "$.schedule.nodes[1].inputs[0].parent.node",
    "node 7 does not exist",
    "2 nodes"
);
refused!(
    schedule_missing_output,
    "schedule-missing-output.json",
    2,
    "$.schedule.nodes[1].inputs[0].parent.output",
    "has no output 3"
);
refused!(
    schedule_missing_consumer,
    "schedule-missing-consumer.json",
    2,
    "$.schedule.nodes[0].outputs[0].consumers[1].node",
    "node 9 does not exist"
);
refused!(
    schedule_unlisted_consumer,
    "schedule-unlisted-consumer.json",
    2,
    "$.schedule.nodes[1].inputs[0].parent",
    "consumers does not list {node: 1, input: 0}"
);
refused!(
    schedule_missing_bytes,
    "schedule-missing-bytes.json",
    2,
    "$.schedule.nodes[1].outputs[0]",
    "missing field `bytes`"
);

// --- MiniMalloc CSV ------------------------------------------------------------------

refused!(
    csv_column_count,
    "csv-columns.csv",
    2,
    "line 3, column 1",
    "expected 4 fields, found 3"
);
// Vela's --verbose-allocation report, cut short and garbled.
refused!(
    vela_truncated,
    "vela-truncated.txt",
    2,
    "line 9, column 1",
    "the report ends inside the section of line 2 (Sram (FeatureMap|Staging), 6 rows read)",
    "`Allocation Peak Tensor Size: N bytes`",
    "cut short"
);
refused!(
    vela_garbled_row,
    "vela-garbled-row.txt",
    2,
    "line 6, column 1",
    "expected a row `START - END: 0xADDR - 0xADDR: SIZE: USAGE: FORMAT : NAME`",
    "is not two times"
);
refused!(
    csv_non_numeric,
    "csv-non-numeric.csv",
    2,
    "line 2, column 5",
    "upper: expected a whole number",
    "`two`"
);
refused!(
    csv_negative,
    "csv-negative.csv",
    2,
    "line 2, column 7",
    "size: expected a whole number",
    "`-8`"
);
refused!(
    csv_lower_above_upper,
    "csv-lower-above-upper.csv",
    2,
    "line 2, column 5",
    "upper must be greater than lower (5)"
);
refused!(
    csv_duplicate_id,
    "csv-duplicate-id.csv",
    2,
    "line 3, column 1",
    "`a` is already on line 2",
    "expected unique ids"
);
refused!(
    csv_header_lacks_column,
    "csv-header-lacks-size.csv",
    2,
    "line 1, column 1",
    "lacks column `size`"
);
refused!(
    csv_mixed_offsets,
    "csv-mixed-offsets.csv",
    2,
    "line 3, column 1",
    "buffer `b` has no offset",
    "every buffer or for none"
);
refused!(
    csv_header_only,
    "csv-header-only.csv",
    2,
    "no buffers",
    "expected lines id,lower,upper,size"
);
refused!(
    csv_crlf_error_column,
    "csv-crlf-error.csv",
    2,
    "line 3, column 7",
    "size: expected a whole number",
    "`x`"
);

// --- Aidge / N2D2 text logs ----------------------------------------------------------

refused!(
    log_truncated_line,
    "log-truncated.txt",
    2,
    "line 5, column 31",
    "expected ` (0x`"
);
refused!(
    log_garbled_line,
    "log-garbled.txt",
    2,
    "line 5, column 35",
    "does not match 3072"
);
refused!(
    log_part_of_2_64_bytes,
    "log-part-of-2-64-bytes.txt",
    2,
    "line 5, column 27",
    "end 18446744073709552640 is 2^64 or more bytes after start 1024"
);
refused!(
    log_hex_mismatch,
    "log-hex-mismatch.txt",
    2,
    "line 5, column 13",
    "0x00000500 does not match 1024"
);
refused!(
    log_plane_before_name,
    "log-plane-before-name.txt",
    2,
    "line 1, column 1",
    "before any node name"
);

// --- Accepted with care --------------------------------------------------------------

#[test]
fn unknown_fields_warn_and_keep_going() {
    let all = accepted("unknown-field.json");
    assert!(
        all.contains("memplan: unknown-field.json: warning: $.plan.colour: unknown field, ignored"),
        "{all}"
    );
}

#[test]
fn deep_nesting_in_an_unknown_field_is_skipped_without_recursion() {
    let all = accepted("deep-unknown.json");
    assert!(all.contains("$.plan.extra: unknown field"), "{all}");
}

#[test]
fn byte_order_marks_and_crlf_line_ends_are_read() {
    accepted("csv-bom.csv");
    accepted("log-crlf-bom.txt");
    // Same plan as the LF log without BOM.
    let stats = |f: &str| text(&run(&["stats", "--json", f]));
    let json =
        |s: String| serde_json::from_str::<serde_json::Value>(s.lines().next().unwrap()).unwrap();
    let (a, b) = (
        json(stats("log-crlf-bom.txt")),
        json(stats("log-valid.txt")),
    );
    assert_eq!(a["peak"], 3072);
    assert_eq!(a["peak"], b["peak"]);
}

#[test]
fn values_beyond_2_pow_53_stay_exact() {
    // b lies at 2^53 + 1 and is 8 bytes: the peak is 2^53 + 9, which a double cannot hold.
    let out = run(&["stats", "--json", "beyond-2-53.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"peak\":9007199254741001"), "{stdout}");
    let scratch = tempdir("beyond");
    let dir = scratch.path();
    let json = dir.join("out.json");
    let out = run(&["convert", "beyond-2-53.csv", "-o", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = std::fs::read_to_string(&json).unwrap();
    assert!(written.contains("9007199254740993"), "{written}");
    // And back: the same exact numbers.
    let csv = dir.join("back.csv");
    let out = run(&[
        "convert",
        json.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .contains(",8,9007199254740993"));
}

#[test]
fn other_commands_refuse_the_same_way() {
    for args in [
        &["stats", "truncated.json"][..],
        &["plan", "truncated.json", "-o", "-"],
        &["convert", "truncated.json", "-o", "x.csv"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("memplan: truncated.json: line 3, column 46: EOF"),
            "{args:?}: {err}"
        );
    }
    assert!(!Path::new(BAD).join("x.csv").exists());
}

#[test]
fn the_valid_neighbours_of_the_bad_files_are_valid() {
    // Each bad file is one edit away from one of these: the edit is what fails.
    for f in ["valid.json", "schedule-valid.json", "log-valid.txt"] {
        accepted(f);
    }
}

// --- Hundreds of megabytes -----------------------------------------------------------

/// A fresh directory, removed (with the hundreds of megabytes some tests write) when
/// the test drops it, also when it fails; concurrent runs never share one.
fn tempdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("memplan-bad-{tag}-"))
        .tempdir()
        .unwrap()
}

/// Largest resident set of any child this test process has waited for, in bytes.
#[cfg(unix)]
fn children_max_rss() -> u64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024
}

#[test]
fn files_of_hundreds_of_megabytes_fail_fast_in_bounded_memory() {
    const MB: usize = 1 << 20;
    let scratch = tempdir("huge");
    let dir = scratch.path();
    // 200 MB of one garbage line, and 200 MB of memplan JSON cut off mid-way.
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, vec![b'x'; 200 * MB]).unwrap();
    let json = dir.join("cut.json");
    let step = r#"{"name": "conv", "kind": "Conv2D"}, "#;
    let mut text = String::with_capacity(200 * MB + 100);
    text.push_str(r#"{"format": "memplan", "version": 1, "plan": {"steps": ["#);
    while text.len() < 200 * MB {
        text.push_str(step);
    }
    std::fs::write(&json, &text).unwrap();
    let column = text.len(); // serde_json points at the last byte read
    drop(text);
    for (file, place) in [
        (&garbage, "no plane line found".to_string()),
        (&json, format!("line 1, column {column}: EOF")),
    ] {
        let out = run(&["check", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        let head = format!("memplan: {}: {place}", file.display());
        assert!(err.starts_with(&head), "{err}");
    }
    // The file is read once into memory; no parser may hold more than a copy of it.
    #[cfg(unix)]
    {
        let rss = children_max_rss();
        assert!(rss < 3 * 200 * MB as u64, "peak RSS {} MB", rss >> 20);
    }
}

#[test]
fn unknown_fields_by_the_thousand_are_summed_up() {
    // 30 buffers with an extra field each: 20 listed, then one line for the rest.
    let out = run(&["check", "many-unknown-fields.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 21, "{err}");
    assert!(
        err.contains("$.buffers.buffers[19].note: unknown field"),
        "{err}"
    );
    assert!(err.contains("10 more unknown fields ignored"), "{err}");
}

#[test]
fn a_tiny_file_with_a_huge_clock_stays_tiny() {
    // Found by the fuzzer: 28 bytes asking for clock 9,029,925 cost 9 M steps (seconds,
    // hundreds of MB) in every command that planned the list.
    let scratch = tempdir("clock");
    let dir = scratch.path();
    let file = dir.join("far.csv");
    std::fs::write(&file, "a,4,9029925,402993\nb,0,2,8\n").unwrap();
    let out = run(&["stats", "--json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["steps"], 2, "one step per start clock");
    assert_eq!(stats["peak"], 402993, "a and b never live together");
}

#[test]
fn a_corrupt_plane_index_does_not_ask_for_billions_of_records() {
    // Found by the mutation pass: a log line with plane index 4294967295 made the
    // mem_info export allocate 378 GB.
    let scratch = tempdir("index");
    let dir = scratch.path();
    let log = dir.join("index.txt");
    let log_text = std::fs::read_to_string(Path::new(BAD).join("log-valid.txt")).unwrap();
    std::fs::write(&log, log_text.replace("  0 1024 (", "  4294967295 1024 (")).unwrap();
    let out_file = dir.join("out.meminfo.json");
    let out = run(&[
        "convert",
        log.to_str().unwrap(),
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(
        v["mem_info"][1]["outputs"].as_array().map(Vec::len),
        Some(1),
        "{v}"
    );
}

// A .tflite cut short: told it is a truncated model, how long the file is, and where
// the read stopped (the byte and the table).
refused!(
    truncated_tflite,
    "truncated.tflite",
    2,
    "truncated TFLite model (700 bytes)",
    "the read stopped at byte 52",
    "Model.operator_codes points past the end of the file"
);

/// `memplan check` of `bytes` written as `name` in a fresh folder: its message line.
fn refusal_of(tag: &str, name: &str, bytes: &[u8]) -> String {
    let scratch = tempdir(tag);
    let dir = scratch.path();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    text(&out)
}

#[test]
fn a_tflite_by_name_or_identifier_is_told_truncated_or_not_a_model() {
    let model = std::fs::read(Path::new(BAD).join("truncated.tflite")).unwrap();
    // Cut inside its header, and cut short under another name (its identifier tells it).
    let cut = refusal_of("tflite-header", "model.tflite", &model[..6]);
    assert!(
        cut.contains("truncated TFLite model (6 bytes): the read stopped at byte 6"),
        "{cut}"
    );
    let renamed = refusal_of("tflite-renamed", "model.bin", &model[..30]);
    assert!(
        renamed.contains("truncated TFLite model (30 bytes): the read stopped at byte 28"),
        "{renamed}"
    );
    // Random bytes named .tflite: no identifier, not a text format's complaint.
    let noise: Vec<u8> = (0u32..64)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let random = refusal_of("tflite-random", "random.tflite", &noise);
    assert!(
        random
            .contains("random.tflite: not a TFLite model (no TFL3 identifier at byte 4; 64 bytes)"),
        "{random}"
    );
    assert!(!random.contains("memplan JSON"), "{random}");
}

// A file a framework writes beside its plan, given alone: what it is and which file
// holds the plan, not "expected a plane index".
#[test]
fn a_dump_folders_other_files_name_the_plan_they_belong_with() {
    let data = Path::new(BAD).parent().unwrap();
    let stem = "cnn.cpu_after_optimizations";
    let cases = [
        (
            format!("xla/{stem}-buffer-assignment-values.txt"),
            format!(
                "this is XLA's -buffer-assignment-values.txt, a list of the module's values \
                 without their offsets or live ranges: open {stem}-buffer-assignment.txt beside \
                 {stem}-live-range.txt"
            ),
        ),
        (
            format!("xla/{stem}-memory-usage-report.txt"),
            format!("this is XLA's memory-usage report (its Total bytes is the total the plan shows): open {stem}-buffer-assignment.txt beside {stem}-live-range.txt"),
        ),
        (
            "xla/cnn.stablehlo.mlir".to_owned(),
            "this is an MLIR program as given to a compiler (StableHLO".to_owned(),
        ),
        (
            "iree/cnn.transients.txt".to_owned(),
            "this is IREE's transient allocations".to_owned(),
        ),
        (
            "iree/cnn.input.mlir".to_owned(),
            "this is an MLIR program as given to a compiler".to_owned(),
        ),
        (
            "executorch/cnn.program.json".to_owned(),
            "this is ExecuTorch's program summary".to_owned(),
        ),
        (
            "executorch/cnn.tensor_specs.json".to_owned(),
            "this is ExecuTorch's tensor specs".to_owned(),
        ),
    ];
    for (file, said) in cases {
        let out = Command::cargo_bin("memplan")
            .unwrap()
            .current_dir(data)
            .args(["check", &file])
            .output()
            .unwrap();
        let all = text(&out);
        assert_eq!(out.status.code(), Some(2), "{file}:\n{all}");
        assert!(all.contains(&format!("{file}: {said}")), "{file}:\n{all}");
        assert!(
            !all.contains("plane index") && !all.contains("memplan JSON"),
            "{all}"
        );
    }
}
