//! The `.tflite` reader (a FlatBuffers model, as TFLite Micro plans it) on arbitrary
//! bytes, then everything its plan reaches (`tests/support/exercise.rs`). Seeds:
//! `fuzz/corpus/tflite` (real models of tests/data/tflm and tests/data/vela).
#![no_main]

include!("../../tests/support/exercise.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    exercise("model.tflite", data);
});
