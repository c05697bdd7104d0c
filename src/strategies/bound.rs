//! The problem in normalized form and its lower bound.

use crate::model::{BufferList, Bytes, Clock};
use crate::{Error, Result};

/// One buffer as the planners see it: live on `[lower, upper)` with `upper > lower`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Item {
    pub lower: Clock,
    pub upper: Clock,
    pub size: Bytes,
}

impl Item {
    pub(crate) fn overlaps(&self, other: &Item) -> bool {
        self.lower < other.upper && other.lower < self.upper
    }
}

/// The tests' own overlap check of a placement, pair by pair (the planners' data
/// structures are what they test).
#[cfg(test)]
pub(crate) fn overlap_free(items: &[Item], offsets: &[Bytes]) -> bool {
    (0..items.len()).all(|i| {
        (0..i).all(|j| {
            !items[i].overlaps(&items[j])
                || offsets[i] + items[i].size <= offsets[j]
                || offsets[j] + items[j].size <= offsets[i]
        })
    })
}

/// The list's buffers as items. A buffer with `upper <= lower` still occupies its
/// `lower` step (that is how [`BufferList::to_plan`] and the checker read it), so it
/// becomes `[lower, lower + 1)`. Fails when the sizes add up past `u64`, so that every
/// `offset + size` the planners compute fits.
pub(crate) fn items(list: &BufferList) -> Result<Vec<Item>> {
    let mut total: Bytes = 0;
    let mut out = Vec::with_capacity(list.buffers.len());
    for (i, b) in list.buffers.iter().enumerate() {
        total = total.checked_add(b.size).ok_or_else(|| {
            Error::whole(format!(
                "buffer {i} (`{}`): the buffer sizes add up to more than 2^64 - 1 bytes",
                b.id
            ))
        })?;
        out.push(Item {
            lower: b.lower,
            upper: b.upper.max(b.lower.saturating_add(1)),
            size: b.size,
        });
    }
    Ok(out)
}

/// The largest total size live at one step: no placement has a smaller peak.
pub(crate) fn lower_bound(items: &[Item]) -> Bytes {
    let mut events: Vec<(Clock, bool, Bytes)> = Vec::with_capacity(items.len() * 2);
    for it in items {
        events.push((it.lower, true, it.size));
        events.push((it.upper, false, it.size));
    }
    // Ends sort before starts at the same step (`false < true`): `upper` is exclusive.
    events.sort_unstable();
    let (mut live, mut best) = (0u64, 0u64);
    for (_, start, size) in events {
        if start {
            live += size;
            best = best.max(live);
        } else {
            live -= size;
        }
    }
    best
}

/// The bytes live at each of `clocks` (sorted ascending).
pub(crate) fn live_at(items: &[Item], clocks: &[Clock]) -> Vec<Bytes> {
    let mut delta: Vec<i128> = vec![0; clocks.len() + 1];
    for it in items {
        let from = clocks.partition_point(|&c| c < it.lower);
        let to = clocks.partition_point(|&c| c < it.upper);
        delta[from] += it.size as i128;
        delta[to] -= it.size as i128;
    }
    let mut live: i128 = 0;
    delta[..clocks.len()]
        .iter()
        .map(|d| {
            live += d;
            live as Bytes
        })
        .collect()
}

/// The peak of a placement: the highest `offset + size`.
pub(crate) fn peak(items: &[Item], offsets: &[Bytes]) -> Bytes {
    items
        .iter()
        .zip(offsets)
        .map(|(it, &o)| o + it.size)
        .max()
        .unwrap_or(0)
}
