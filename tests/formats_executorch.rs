//! ExecuTorch's memory traces (tests/data/executorch, written by the real executorch
//! package with tests/data/executorch/gen.py): every tensor's offset, size and steps as
//! the trace shows them, the buffer sizes the program plans, bad input.

use memplan::formats::Format;

include!("support/framework.rs");

const MODELS: [&str; 2] = ["cnn", "mlp"];

fn open(model: &str) -> (Document, Plan) {
    let (name, bytes) = fixture(&format!("executorch/{model}.trace.json"));
    let doc = formats::load(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc.format, Format::ExecuTorch);
    assert!(doc.warnings.is_empty(), "{:?}", doc.warnings);
    let plan = memplan::planning::resolve(&doc).unwrap();
    (doc, plan)
}

fn events(model: &str) -> Vec<serde_json::Value> {
    let trace: serde_json::Value =
        serde_json::from_str(&fixture_text(&format!("executorch/{model}.trace.json"))).unwrap();
    trace["traceEvents"].as_array().unwrap().clone()
}

#[test]
fn the_peak_is_the_buffer_the_program_plans() {
    for model in MODELS {
        let (_, plan) = open(model);
        let program: serde_json::Value =
            serde_json::from_str(&fixture_text(&format!("executorch/{model}.program.json")))
                .unwrap();
        let sizes = program["non_const_buffer_sizes"].as_array().unwrap();
        // Memory id 0 holds constants, not in the trace; ids 1.. are the planned buffers.
        for (c, component) in plan.components.iter().enumerate() {
            let id: usize = component
                .name
                .strip_prefix("mem_id ")
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(
                plan.peaks()[c],
                sizes[id].as_u64().unwrap(),
                "{model} mem_id {id}"
            );
        }
    }
}

#[test]
fn every_event_is_a_live_step_of_its_tensor() {
    for model in MODELS {
        let (_, plan) = open(model);
        let lives = plan.plane_last_lives();
        let events = events(model);
        for e in &events {
            let (name, ts, dur) = (
                e["name"].as_str().unwrap(),
                e["ts"].as_u64().unwrap(),
                e["dur"].as_u64().unwrap(),
            );
            let tid = e["tid"].as_u64().unwrap() as u32;
            let found = plan.planes.iter().enumerate().any(|(i, p)| {
                let label = p.label.as_deref().unwrap();
                (label == name || label.starts_with(&format!("{name} #")))
                    && p.cont_offset == ts
                    && p.size == dur
                    && p.allocated <= tid
                    && tid <= lives[i]
            });
            assert!(found, "{model}: {e}");
        }
        // A tensor is one plane: as many planes as distinct (name, offset, size), and
        // each plane lives exactly the steps it has events at.
        let mut keys: Vec<(String, u64, u64)> = events
            .iter()
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_owned(),
                    e["ts"].as_u64().unwrap(),
                    e["dur"].as_u64().unwrap(),
                )
            })
            .collect();
        keys.sort();
        keys.dedup();
        assert_eq!(plan.planes.len(), keys.len(), "{model}");
        let steps: u64 = plan
            .planes
            .iter()
            .enumerate()
            .map(|(i, p)| u64::from(lives[i] - p.allocated + 1))
            .sum();
        assert_eq!(steps, events.len() as u64, "{model}");
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
fn bad_traces_are_refused_with_their_place() {
    let text = fixture_text("executorch/cnn.trace.json");
    // Truncated: serde says where the JSON stops.
    let cut = &text[..text.len() / 2];
    let line = cut.lines().count();
    let e = formats::load("t.json", cut.as_bytes()).unwrap_err();
    refused_at(&e, "t.json", line, "truncated?");
    // An event without its offset: the JSON path of the event.
    let garbled = text.replacen("\"ts\": 65536,", "", 1);
    let e = formats::load("t.json", garbled.as_bytes()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("t.json: $.traceEvents[0].ts: missing"),
        "{e}"
    );
    // A negative size.
    let garbled = text.replacen("\"dur\": 12288", "\"dur\": -12288", 1);
    let e = formats::load("t.json", garbled.as_bytes()).unwrap_err();
    assert!(
        e.to_string().starts_with("t.json: $.traceEvents[0].dur: "),
        "{e}"
    );
    // The real trace written without enable_memory_offsets=True.
    let (name, bytes) = fixture("executorch/cnn.no-offsets.trace.json");
    let e = formats::load(&name, &bytes).unwrap_err();
    assert!(e.message.contains("enable_memory_offsets=True"), "{e}");
}
