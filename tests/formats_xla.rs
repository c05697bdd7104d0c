//! XLA's buffer assignments (tests/data/xla, written by the real jaxlib with
//! tests/data/xla/gen.py): every allocation, value, offset, size and live range as XLA
//! printed them, XLA's own totals, the pair of files read together, bad input.

use memplan::formats::Format;

include!("support/framework.rs");

const MODELS: [&str; 2] = ["cnn", "rnn"];

fn files(model: &str) -> (String, String) {
    let stem = format!("xla/{model}.cpu_after_optimizations");
    (
        format!("{stem}-buffer-assignment.txt"),
        format!("{stem}-live-range.txt"),
    )
}

fn open(model: &str) -> (Document, Plan) {
    let (a, l) = files(model);
    let ((an, ab), (ln, lb)) = (fixture(&a), fixture(&l));
    let doc = formats::load_pair(&an, &ab, &ln, &lb).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::Xla);
    let plan = memplan::planning::resolve(&doc).unwrap();
    (doc, plan)
}

/// The number after `key` in `line`, up to the first character that is not a digit.
fn after(line: &str, key: &str) -> u64 {
    let rest = &line[line.find(key).unwrap() + key.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// Each allocation of the dump but the thread-local ones: its size and where memplan
/// put it (the component and the base its offsets are shifted by), checked to be the
/// same for all its values; every value's size, offset and allocation as XLA printed
/// them. The values of thread-local allocations are not in the plan.
fn allocations(model: &str, plan: &Plan) -> Vec<(u64, usize, u64, String)> {
    let text = fixture_text(&files(model).0);
    let mut out: Vec<(u64, usize, u64, String)> = Vec::new();
    let mut values = 0;
    let mut thread_local = false;
    for line in text.lines() {
        if line.starts_with("allocation ") {
            thread_local = line.contains(", thread-local");
            if !thread_local {
                out.push((after(line, ": size "), usize::MAX, 0, line.to_owned()));
            }
        }
        let Some(rest) = line.strip_prefix(" value: <") else {
            continue;
        };
        if thread_local {
            let name = rest.split_whitespace().nth(1).unwrap();
            let label = name.strip_suffix("{}").unwrap_or(name);
            let found = plan
                .planes
                .iter()
                .any(|p| p.label.as_deref() == Some(label));
            assert!(!found, "{model}: thread-local {name} is in the plan");
            continue;
        }
        values += 1;
        let name = rest.split_whitespace().nth(1).unwrap();
        let p = &plan.planes[plane(model, plan, name)];
        assert_eq!(p.size, after(line, "(size="), "{model} {name}");
        let space = &plan.spaces[p.space];
        assert_eq!(p.cont_offset, space.offset + p.offset);
        let base = p.cont_offset - after(line, ",offset=");
        let alloc = out.last_mut().unwrap();
        if alloc.1 == usize::MAX {
            (alloc.1, alloc.2) = (space.component, base);
        }
        assert_eq!(
            (space.component, base),
            (alloc.1, alloc.2),
            "{model} {name}: one place per allocation"
        );
    }
    assert_eq!(plan.planes.len(), values, "{model}");
    out
}

/// The plane of value `name` (`name`, `name{}` or `name{index}`).
fn plane(model: &str, plan: &Plan, name: &str) -> usize {
    let name = name.strip_suffix("{}").unwrap_or(name);
    plan.planes
        .iter()
        .position(|p| p.label.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("{model}: no plane {name}"))
}

#[test]
fn allocations_keep_their_size_and_add_up_to_xla_s_total() {
    for model in MODELS {
        let (_, plan) = open(model);
        let allocs = allocations(model, &plan);
        let peaks = plan.peaks();
        for (c, component) in plan.components.iter().enumerate() {
            let mut mine: Vec<&(u64, usize, u64, String)> =
                allocs.iter().filter(|a| a.1 == c).collect();
            mine.sort_by_key(|a| a.2);
            assert!(
                !mine.is_empty(),
                "{model}: {} holds no allocation",
                component.name
            );
            // Laid end to end, in XLA's order, each as large as XLA made it.
            let mut top = 0;
            for a in &mine {
                assert_eq!(a.2, top, "{model} {}", a.3);
                top += a.0;
            }
            assert_eq!(peaks[c], top, "{model} {}", component.name);
            if mine.len() == 1 {
                let index = after(&mine[0].3, "allocation ");
                assert!(
                    component.name.starts_with(&format!("allocation {index} (")),
                    "{}",
                    component.name
                );
            }
        }
        // The temp buffer is a memory of its own, named as XLA names it.
        let temp = allocs
            .iter()
            .find(|a| a.3.contains("preallocated-temp"))
            .unwrap();
        assert!(plan.components[temp.1]
            .name
            .ends_with("(preallocated-temp)"));
        assert_eq!(peaks[temp.1], temp.0, "{model}");
        let report = fixture_text(&format!(
            "xla/{model}.cpu_after_optimizations-memory-usage-report.txt"
        ));
        let total = after(&report, "Total bytes: ");
        // XLA's total counts its thread-local allocations, which are on threads'
        // stacks, not in the plan.
        let thread_local: u64 = fixture_text(&files(model).0)
            .lines()
            .filter(|l| l.starts_with("allocation ") && l.contains(", thread-local"))
            .map(|l| after(l, ": size "))
            .sum();
        assert_eq!(peaks.iter().sum::<u64>() + thread_local, total, "{model}");
    }
}

#[test]
fn every_value_keeps_its_live_range_and_steps_are_xla_s_sequence() {
    for model in MODELS {
        let (_, plan) = open(model);
        let lives = plan.plane_last_lives();
        let live = fixture_text(&files(model).1);
        let ranges = live
            .lines()
            .skip_while(|l| l.trim() != "BufferLiveRange:")
            .skip(1)
            .take_while(|l| l.starts_with("    "));
        let mut ranged = 0;
        for line in ranges {
            let (key, range) = line.trim().rsplit_once(':').unwrap();
            let (first, last) = range.split_once('-').unwrap();
            let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
            let i = plane(model, &plan, key);
            let (p, space) = (&plan.planes[i], &plan.spaces[plan.planes[i].space]);
            assert_eq!(p.allocated, first, "{model} {key}");
            assert!(
                space.allocated <= first && space.released >= Some(last),
                "{model} {key}"
            );
            let alone = plan.planes.iter().filter(|q| q.space == p.space).count() == 1;
            if alone {
                assert_eq!(lives[i], last, "{model} {key}");
            }
            ranged += 1;
        }
        assert!(ranged > 10, "{model}");
        for line in live
            .lines()
            .skip_while(|l| l.trim() != "InstructionSequence:")
            .skip(1)
        {
            let Some((clock, name)) = line.trim().split_once(':') else {
                break;
            };
            let Ok(clock) = clock.parse::<usize>() else {
                break;
            };
            assert_eq!(plan.steps[clock].name, name, "{model}");
        }
    }
}

/// XLA prints the bytes live at its peak time, summed over all allocations:
/// `Live ranges at T (peak):` then `name: B bytes (cumulative: C bytes)`.
#[test]
fn live_bytes_at_xla_s_peak_time_are_xla_s_figure() {
    for model in MODELS {
        let (_, plan) = open(model);
        let live = fixture_text(&files(model).1);
        let header = live
            .lines()
            .find(|l| l.contains("Live ranges at "))
            .unwrap();
        let t = after(header, "Live ranges at ") as u32;
        let cumulative = live
            .lines()
            .skip_while(|l| !l.contains("Live ranges at "))
            .skip(1)
            .take_while(|l| l.contains("(cumulative: "))
            .map(|l| after(l, "(cumulative: "))
            .last()
            .unwrap();
        let ours: u64 = (0..plan.components.len())
            .flat_map(|c| memplan::stats::live_at(&plan, c, t))
            .map(|s| s.size)
            .sum();
        assert_eq!(ours, cumulative, "{model} at clock {t}");
    }
}

/// XLA's thread-local allocations (the scalars of the CNN's max and sum reducers) are
/// `alloca`s on the stack of the thread running the reducer, without a live range:
/// they are left out of the plan, with a warning that counts them, instead of being
/// drawn live for the whole program. Every value in the plan has XLA's live range.
#[test]
fn thread_local_values_are_not_in_the_plan_and_every_value_has_xla_s_range() {
    for model in MODELS {
        let (doc, plan) = open(model);
        let text = fixture_text(&files(model).0);
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("allocation ") && l.contains(", thread-local"))
            .collect();
        let bytes: u64 = lines.iter().map(|l| after(l, ": size ")).sum();
        let warned = doc.warnings.iter().find(|w| w.contains("thread-local"));
        match lines.len() {
            0 => assert_eq!(warned, None, "{model}"),
            n => {
                let w = warned.unwrap_or_else(|| panic!("{model}: no warning"));
                let head = format!("{n} thread-local allocation(s), {bytes} B");
                assert!(w.starts_with(&head), "{model}: {w}");
                let total = &doc.own.as_ref().unwrap().total;
                assert!(
                    total.ends_with(&format!(
                        "less its {n} thread-local allocations ({bytes} B, on threads' stacks)"
                    )),
                    "{total}"
                );
            }
        }
        assert!(
            !doc.warnings.iter().any(|w| w.contains("whole program")),
            "{model}: {:?}",
            doc.warnings
        );
        let live = fixture_text(&files(model).1);
        for p in &plan.planes {
            let label = p.label.as_deref().unwrap();
            let key = if label.contains('{') {
                label.to_owned()
            } else {
                format!("{label}{{}}")
            };
            assert!(
                live.lines()
                    .any(|l| l.trim().starts_with(&format!("{key}:"))),
                "{model}: {label} has no BufferLiveRange line"
            );
        }
    }
    // The CNN has twelve (its pools' and softmax's reducers); the RNN none.
    assert_eq!(
        open("cnn")
            .0
            .warnings
            .iter()
            .filter(|w| w.starts_with("12 thread-local"))
            .count(),
        1
    );
}

#[test]
fn every_strategy_replans_each_allocation_within_bounds() {
    for model in MODELS {
        let (doc, plan) = open(model);
        replans_within_bounds(model, &plan);
        csv_reads_back(model, &doc);
    }
}

#[test]
fn the_assignment_alone_names_the_file_it_needs() {
    let (a, _) = files("cnn");
    let (name, bytes) = fixture(&a);
    let e = formats::load(&name, &bytes).unwrap_err();
    assert!(
        e.to_string()
            .contains("`cnn.cpu_after_optimizations-live-range.txt`"),
        "{e}"
    );
    assert_eq!(
        formats::companion(&name, &bytes),
        Some(name.replace("buffer-assignment", "live-range"))
    );
    // The live ranges alone say which file to open.
    let (l, lb) = fixture(&files("cnn").1);
    let e = formats::load(&l, &lb).unwrap_err();
    assert!(e.message.contains("buffer-assignment.txt"), "{e}");
    // Both in one text (older XLA wrote one file) read the same.
    let joined = format!("{}{}", fixture_text(&a), fixture_text(&files("cnn").1));
    let one = formats::load("cnn.txt", joined.as_bytes()).unwrap();
    assert_eq!(one.plan, open("cnn").0.plan);
}

#[test]
fn bad_dumps_are_refused_at_their_line() {
    let (a, l) = files("rnn");
    let (text, live) = (fixture_text(&a), fixture_text(&l));
    // Cut in the middle of a value line.
    let cut = &text[..text.find("(size=512,offset=0)").unwrap() + 8];
    let line = cut.lines().count();
    let e = formats::load_pair("a.txt", cut.as_bytes(), "l.txt", live.as_bytes()).unwrap_err();
    refused_at(&e, "a.txt", line, "expected ` (size=S,offset=O)`");
    // A live range that ends before it starts, in the second file.
    let garbled = live.replacen("copy.4{}:24-30", "copy.4{}:24-3", 1);
    let line = garbled
        .lines()
        .position(|l| l.contains("copy.4{}:24-3"))
        .unwrap()
        + 1;
    let e = formats::load_pair("a.txt", text.as_bytes(), "l.txt", garbled.as_bytes()).unwrap_err();
    refused_at(&e, "l.txt", line, "ends before it starts");
    // A number too large for 64 bits.
    let huge = text.replacen("size 4096,", "size 99999999999999999999,", 1);
    let e = formats::load_pair("a.txt", huge.as_bytes(), "l.txt", live.as_bytes()).unwrap_err();
    refused_at(&e, "a.txt", 2, "does not fit in 64 bits");
}

/// The CLI as a user runs it: the assignment alone on the command line reads its live
/// ranges from beside it, and a CSV of the plan (several memories) reads back valid.
#[test]
fn the_cli_reads_the_pair_and_writes_a_csv_that_reads_back() {
    use assert_cmd::Command;
    let dir = format!("{}/tests/data/xla", env!("CARGO_MANIFEST_DIR"));
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("memplan")
            .unwrap()
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let (code, text) = run(&["check", "cnn.cpu_after_optimizations-buffer-assignment.txt"]);
    assert_eq!(code, Some(0), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rnn.csv");
    let csv = csv.to_str().unwrap();
    let (code, text) = run(&[
        "convert",
        "rnn.cpu_after_optimizations-buffer-assignment.txt",
        "-o",
        csv,
    ]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&["check", csv]);
    assert_eq!(
        code,
        Some(0),
        "the CSV of several memories reads back valid: {text}"
    );
}
