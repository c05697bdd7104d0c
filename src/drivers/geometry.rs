//! The plane geometry Aidge 0.10.1's drivers give an output tensor.
//!
//! A channels-last tensor is planned as one plane per pixel, so that a kernel
//! (aidge_export_cpp reads `*_MEM_STRIDE`) may write a pixel's channels and
//! wrap between pixels; every other tensor is one flat block. Established
//! against the wheel (docs/aidge-parity.md, "Drivers", item 10): a tensor
//! tagged `nhwc` with 4 dimensions or `nwc` with 3 is channels-last: its
//! plane's `stride` is the channel bytes `C · bytes` rounded up to
//! `memory_alignment`, `length` is the width and `count` the product of the
//! dimensions before it (`N · H`, or `N`). Every other tag (`nchw`, `ncw`,
//! `nc`, `chwn`, `hwnc`, `ndhwc`, `default`…), and a tag whose rank does not
//! match, gives the flat block of the whole (aligned) tensor.

use crate::manager::{round_up_to_alignment, Layout};
use crate::schedule::Output;

/// The pixels of a channels-last tensor, before alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Pixels {
    /// The channels of one pixel: `C · bytes`.
    pub bytes: u64,
    /// `W`: pixels per line.
    pub width: u64,
    /// Lines: the product of the dimensions before `W`.
    pub lines: u64,
}

impl Pixels {
    /// The per-pixel layout, with pixels rounded up to `alignment`.
    pub fn layout(&self, alignment: u64) -> Layout {
        let stride = round_up_to_alignment(self.bytes, alignment);
        Layout::new(stride, self.width, self.lines)
    }
}

/// The pixels of `out` when Aidge plans it per pixel (`nhwc` 4-D, `nwc` 3-D).
pub(super) fn pixels(out: &Output) -> Option<Pixels> {
    let rank = match out.data_format.as_str() {
        "nhwc" => 4,
        "nwc" => 3,
        _ => return None,
    };
    if out.dims.len() != rank {
        return None;
    }
    let (outer, inner) = out.dims.split_at(rank - 2);
    Some(Pixels {
        bytes: inner[1].wrapping_mul(out.element_bytes),
        width: inner[0],
        lines: outer.iter().fold(1u64, |acc, &d| acc.wrapping_mul(d)),
    })
}

/// The bytes Aidge reserves for `out` as one block: `requiredMemory · bytes`,
/// rounded up to `alignment`.
pub(super) fn block_bytes(out: &Output, alignment: u64) -> u64 {
    round_up_to_alignment(
        out.required_memory.wrapping_mul(out.element_bytes),
        alignment,
    )
}

/// `(size, layout)` of the plane an output gets from `generate_memory` and
/// `generate_memory_multiple_mems`: `size` is what the drivers pass to
/// `allocate`/`reallocate` (the aligned pixel, or the aligned block), the
/// footprint is `layout.full_size(size)`.
pub(super) fn plane_of(out: &Output, alignment: u64) -> (u64, Layout) {
    match pixels(out) {
        Some(px) => {
            let layout = px.layout(alignment);
            (layout.stride, layout)
        }
        None => (block_bytes(out, alignment), Layout::FLAT),
    }
}

/// `(size, layout)` of an output in `generate_memory_auto_concat`, which
/// aligns a pixel's stride but not its size.
pub(super) fn auto_concat_plane_of(out: &Output, alignment: u64) -> (u64, Layout) {
    match pixels(out) {
        Some(px) => (px.bytes, px.layout(alignment)),
        None => (block_bytes(out, alignment), Layout::FLAT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(format: &str, dims: &[u64], element_bytes: u64) -> Output {
        let elements: u64 = dims.iter().product();
        Output {
            dims: dims.to_vec(),
            element_bytes,
            bytes: elements * element_bytes,
            required_memory: elements,
            data_format: format.into(),
            ..Output::default()
        }
    }

    #[test]
    fn channels_last_tensors_get_one_plane_per_pixel() {
        // The wheel: nhwc [2,3,5,7] float32 -> size 28, length 5, count 6.
        let (size, layout) = plane_of(&output("nhwc", &[2, 3, 5, 7], 4), 1);
        assert_eq!((size, layout), (28, Layout::new(28, 5, 6)));
        let (size, layout) = plane_of(&output("nwc", &[2, 3, 5], 1), 1);
        assert_eq!((size, layout), (5, Layout::new(5, 3, 2)));
    }

    #[test]
    fn alignment_rounds_each_pixel() {
        // int8 nhwc [1,1,1,1000] with alignment 16: 1008-byte pixels.
        let (size, layout) = plane_of(&output("nhwc", &[1, 1, 1, 1000], 1), 16);
        assert_eq!((size, layout), (1008, Layout::new(1008, 1, 1)));
    }

    #[test]
    fn auto_concat_aligns_the_stride_only() {
        let out = output("nhwc", &[1, 111, 111, 64], 4);
        assert_eq!(
            auto_concat_plane_of(&out, 100),
            (256, Layout::new(300, 111, 111))
        );
        assert_eq!(plane_of(&out, 100), (300, Layout::new(300, 111, 111)));
    }

    #[test]
    fn other_formats_and_ranks_are_one_block() {
        for (format, dims) in [
            ("nchw", &[2, 3, 5, 7][..]),
            ("default", &[2, 3, 5, 7]),
            ("ndhwc", &[2, 3, 5, 7, 11]),
            ("hwc", &[3, 5, 7]),
            ("nhwc", &[3, 5, 7]),
            ("nc", &[2, 3]),
        ] {
            let out = output(format, dims, 4);
            let block = (out.bytes.div_ceil(100) * 100, Layout::FLAT);
            assert_eq!(plane_of(&out, 100), block);
            assert_eq!(auto_concat_plane_of(&out, 100), block);
        }
    }
}
