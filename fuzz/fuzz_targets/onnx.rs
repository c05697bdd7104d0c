//! The ONNX reader (protobuf, hand-written prost messages, then the schedule Aidge
//! gives the graph) on arbitrary bytes, then everything its schedule reaches
//! (`tests/support/exercise.rs`). Seeds: `fuzz/corpus/onnx` (tests/data/onnx's small
//! models).
#![no_main]

include!("../../tests/support/exercise.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    exercise("model.onnx", data);
});
