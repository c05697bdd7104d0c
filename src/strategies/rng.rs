//! SplitMix64: the small, seedable generator behind the iterated greedy's random
//! orders and the synthetic benchmark sets. Reproducible from its seed on every
//! target (wasm included), which `rand` would not guarantee across versions.

/// A generator of 64-bit values starting from `seed`.
pub(crate) fn splitmix64(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
