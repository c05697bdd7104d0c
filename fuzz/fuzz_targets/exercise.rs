//! One target for every reader, driver, strategy, the checker and the chart: the
//! first byte picks the file name (the readers use its extension as a hint), the
//! rest is the file.
#![no_main]

include!("../../tests/support/exercise.rs");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    exercise(NAMES[usize::from(pick) % NAMES.len()], bytes);
});
