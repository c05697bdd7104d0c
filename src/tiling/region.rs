//! The region arithmetic of patch-based inference: which input rows (or columns) a
//! sliding window's output rows need, and the padding a patch keeps at the border.

/// A half-open range of rows (or columns) `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: i64,
    pub end: i64,
}

impl Span {
    pub fn new(start: i64, end: i64) -> Self {
        Span { start, end }
    }

    pub fn size(self) -> i64 {
        self.end - self.start
    }

    /// The smallest span holding both.
    pub fn union(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// One spatial axis of a sliding window (Conv, pooling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub kernel: i64,
    pub stride: i64,
    pub dilation: i64,
    pub pad_begin: i64,
    pub pad_end: i64,
}

impl Window {
    /// The output length over an input of `extent` (floor, or ceil for a ceil_mode
    /// pooling).
    pub fn output(self, extent: i64, ceil: bool) -> i64 {
        let span = extent + self.pad_begin + self.pad_end - self.dilation * (self.kernel - 1) - 1;
        if span < 0 {
            return 0;
        }
        let q = if ceil {
            (span + self.stride - 1) / self.stride
        } else {
            span / self.stride
        };
        q + 1
    }

    /// The input rows the output rows `out` read, clipped to `[0, extent)`, and the
    /// padding the patch needs before and after them: output row `o` reads input rows
    /// `o·s − p_begin + j·d` for `j < k`, and what falls outside the tensor is padding.
    pub fn input(self, out: Span, extent: i64) -> (Span, i64, i64) {
        let first = out.start * self.stride - self.pad_begin;
        let last = (out.end - 1) * self.stride - self.pad_begin + self.dilation * (self.kernel - 1);
        let clipped = Span::new(first.max(0), (last + 1).min(extent));
        (clipped, (-first).max(0), (last + 1 - extent).max(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Enumerates every tap of every window of `out`: the patch (its span and pads,
    /// laid out as the patch's own window reads it) must read the very row of the
    /// tensor each tap reads, and padding where the tap falls outside the tensor; and
    /// the span is no larger than the taps' extent clipped to the tensor.
    fn taps_agree(w: Window, out: Span, extent: i64, span: Span, pb: i64) -> bool {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for o in out.start..out.end {
            for j in 0..w.kernel {
                let row = o * w.stride - w.pad_begin + j * w.dilation;
                let local = (o - out.start) * w.stride + j * w.dilation - pb;
                let inside = (0..extent).contains(&row);
                if inside != (0..span.size()).contains(&local) {
                    return false;
                }
                if inside && span.start + local != row {
                    return false;
                }
                lo = lo.min(row);
                hi = hi.max(row + 1);
            }
        }
        span == Span::new(lo.max(0), hi.min(extent))
    }

    #[test]
    fn the_input_rows_of_every_window_match_the_receptive_field() {
        for kernel in 1..=7 {
            for stride in 1..=3 {
                for dilation in 1..=3 {
                    for pad in 0..kernel {
                        for extent in [7, 16, 23] {
                            let w = Window {
                                kernel,
                                stride,
                                dilation,
                                pad_begin: pad,
                                pad_end: pad,
                            };
                            let n = w.output(extent, false);
                            for a in 0..n {
                                for b in a + 1..=n {
                                    let out = Span::new(a, b);
                                    let (span, pb, pe) = w.input(out, extent);
                                    assert!(
                                        taps_agree(w, out, extent, span, pb),
                                        "{w:?} {out:?} {extent}"
                                    );
                                    // The patch, with its own pads, yields exactly its rows.
                                    let patch = Window {
                                        pad_begin: pb,
                                        pad_end: pe,
                                        ..w
                                    };
                                    assert_eq!(patch.output(span.size(), false), b - a);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
