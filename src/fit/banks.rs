//! Which bank each space of a plan lives in. A space moves whole (its planes keep
//! their place inside it, so in-place and wrap-around sharing stays valid). The first
//! bank keeps the spaces whose slow traffic would cost the most per byte; the rest
//! spill to the next banks in order, each filled the same way, and the last takes
//! what is left.
//!
//! The fill of a bank is greedy then repaired: while its spaces do not fit (the most
//! bytes live at a clock above its size, or a quick placement above it), the space
//! live at the fullest clock that is cheapest to move out is moved out; then the
//! spaces moved out are tried back, dearest per byte·clock first, each kept where a
//! placement still fits. Two orders of eviction are tried (traffic per byte, and per
//! byte·clock), and two fills from empty (dearest per byte·clock first, or in allocation
//! order as Aidge's spill fills its first memory; each kept where it still fits), and the
//! one with the least traffic kept. Everything is deterministic: ties go
//! to the larger space, then the lower index.

use crate::model::{BufferList, Bytes, Plan};
use crate::strategies::{place, Budget, Strategy};
use crate::timer::Timer;
use crate::Result;

/// A space as the assignment sees it: its clocks, bytes and what it costs in a slow bank.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    lower: usize,
    /// Exclusive.
    upper: usize,
    size: Bytes,
    cost: Bytes,
}

/// The spaces of `plan` with their slow-bank costs (written + read bytes).
pub(crate) fn items(plan: &Plan, costs: &[Bytes]) -> Vec<Item> {
    plan.space_problem()
        .buffers
        .iter()
        .zip(costs)
        .map(|(b, &cost)| Item {
            lower: b.lower as usize,
            upper: (b.upper as usize).max(b.lower as usize + 1),
            size: b.size,
            cost,
        })
        .collect()
}

/// Whether `members` of `items` can be placed within `cap` bytes by a quick placement
/// (greedy by size, then by conflicts, then the sweep), and the lowest peak found.
pub(crate) fn quick_peak(items: &[Item], members: &[usize]) -> Result<Bytes> {
    if members.is_empty() {
        return Ok(0);
    }
    let list = list_of(items, members);
    let mut best = Bytes::MAX;
    for s in [Strategy::GreedyBySize, Strategy::GreedyByConflicts] {
        best = best.min(place(&list, s, &Budget::millis(100))?.peak);
    }
    Ok(best)
}

fn quick_fits(items: &[Item], members: &[usize], cap: Bytes) -> Result<bool> {
    if live_max(items, members) > cap {
        return Ok(false);
    }
    if quick_peak(items, members)? <= cap {
        return Ok(true);
    }
    let list = list_of(items, members);
    Ok(place(&list, Strategy::Sweep, &Budget::millis(100))?.peak <= cap)
}

fn list_of(items: &[Item], members: &[usize]) -> BufferList {
    BufferList {
        buffers: members
            .iter()
            .map(|&i| {
                let it = &items[i];
                crate::model::Buffer::new(i.to_string(), it.lower as u32, it.upper as u32, it.size)
            })
            .collect(),
        capacity: None,
    }
}

fn horizon(items: &[Item]) -> usize {
    items.iter().map(|i| i.upper).max().unwrap_or(0)
}

/// Bytes live at each clock when the `members` hold their whole size for their life.
fn live(items: &[Item], members: &[usize]) -> Vec<Bytes> {
    let mut diff = vec![0i128; horizon(items) + 1];
    for &m in members {
        diff[items[m].lower] += i128::from(items[m].size);
        diff[items[m].upper] -= i128::from(items[m].size);
    }
    let mut acc = 0i128;
    diff.iter()
        .map(|d| {
            acc += d;
            acc.clamp(0, i128::from(u64::MAX)) as Bytes
        })
        .collect()
}

fn live_max(items: &[Item], members: &[usize]) -> Bytes {
    live(items, members).into_iter().max().unwrap_or(0)
}

/// The order spaces leave a bank in.
#[derive(Debug, Clone, Copy)]
enum Key {
    /// Cheapest traffic per byte freed at the fullest clock.
    PerByte,
    /// Cheapest traffic per byte·clock freed over its life.
    PerByteClock,
}

/// `a`'s cost ratio below `b`'s (a leaves first), exactly: cost_a / w_a < cost_b / w_b.
fn cheaper(items: &[Item], key: Key, a: usize, b: usize) -> std::cmp::Ordering {
    let w = |i: usize| {
        let it = &items[i];
        let life = (it.upper - it.lower) as u128;
        match key {
            Key::PerByte => u128::from(it.size.max(1)),
            Key::PerByteClock => u128::from(it.size.max(1)).saturating_mul(life.max(1)),
        }
    };
    let (ca, cb) = (u128::from(items[a].cost), u128::from(items[b].cost));
    // Cross-multiplied in 256 bits' worth: both factors fit u128 products when sizes
    // and costs stay below 2^64 and lives below 2^32, so compare as f64 past overflow.
    match (ca.checked_mul(w(b)), cb.checked_mul(w(a))) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => (ca as f64 / w(a) as f64).total_cmp(&(cb as f64 / w(b) as f64)),
    }
    .then(items[b].size.cmp(&items[a].size))
    .then(a.cmp(&b))
}

/// The candidates a bank of `cap` bytes keeps when it is filled up from empty, each
/// kept where a quick placement still fits (what wins when the bank is small beside
/// the spaces, most of which must leave): the dearest per byte·clock first, or
/// (`by_clock`) in the order they are allocated, as Aidge's priority spill fills its
/// first memory.
fn fill_up(
    items: &[Item],
    candidates: &[usize],
    cap: Bytes,
    by_clock: bool,
    (timer, millis): (&Timer, u64),
) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut order = candidates.to_vec();
    match by_clock {
        true => order.sort_by_key(|&i| (items[i].lower, i)),
        false => order.sort_by(|&a, &b| cheaper(items, Key::PerByteClock, b, a)),
    }
    let (mut kept, mut out) = (Vec::new(), Vec::new());
    for s in order {
        let mut trial = kept.clone();
        trial.push(s);
        if items[s].size <= cap && timer.elapsed_ms() <= millis && quick_fits(items, &trial, cap)? {
            kept = trial;
        } else {
            out.push(s);
        }
    }
    kept.sort_unstable();
    out.sort_unstable();
    Ok((kept, out))
}

/// How a bank is filled: by eviction from full, or from empty.
#[derive(Debug, Clone, Copy)]
enum Way {
    Evict(Key),
    FillUp { by_clock: bool },
}

/// The candidates a bank of `cap` bytes keeps, the rest spilling on.
fn fill(
    items: &[Item],
    candidates: &[usize],
    cap: Bytes,
    key: Key,
    timer: &Timer,
    millis: u64,
) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut kept: Vec<usize> = candidates.to_vec();
    let mut out: Vec<usize> = Vec::new();
    loop {
        let l = live(items, &kept);
        let (t, &max) = match l
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
        {
            Some(x) => x,
            None => break,
        };
        if max <= cap && quick_fits(items, &kept, cap)? {
            break;
        }
        let at_t = kept
            .iter()
            .copied()
            .filter(|&i| items[i].lower <= t && t < items[i].upper);
        let Some(victim) = at_t.min_by(|&a, &b| cheaper(items, key, a, b)) else {
            break;
        };
        kept.retain(|&i| i != victim);
        out.push(victim);
    }
    // Repair: the dearest spaces moved out come back where they still fit.
    let mut order = out.clone();
    order.sort_by(|&a, &b| cheaper(items, Key::PerByteClock, b, a));
    for s in order {
        if timer.elapsed_ms() > millis {
            break;
        }
        let mut trial = kept.clone();
        trial.push(s);
        if quick_fits(items, &trial, cap)? {
            kept = trial;
            out.retain(|&i| i != s);
        }
    }
    kept.sort_unstable();
    out.sort_unstable();
    Ok((kept, out))
}

/// The bank of every item for banks of `caps` (fastest first): each bank but the last
/// keeps what it can, the last takes the rest (whether it fits is the caller's check).
/// Of the two eviction orders and the two fills from empty, the assignment with the
/// least slow traffic.
pub(crate) fn assign(items: &[Item], caps: &[Bytes], millis: u64) -> Result<Vec<usize>> {
    let timer = Timer::start();
    let mut best: Option<(Bytes, Vec<usize>)> = None;
    let ways = [
        Way::Evict(Key::PerByte),
        Way::Evict(Key::PerByteClock),
        Way::FillUp { by_clock: false },
        Way::FillUp { by_clock: true },
    ];
    for (k, way) in ways.into_iter().enumerate() {
        // Each way gets its share of the time.
        let until = millis / ways.len() as u64 * (k as u64 + 1);
        let mut bank = vec![caps.len().saturating_sub(1); items.len()];
        let mut left: Vec<usize> = (0..items.len()).collect();
        for (b, &cap) in caps.iter().enumerate().take(caps.len().saturating_sub(1)) {
            let (kept, rest) = match way {
                Way::Evict(key) => fill(items, &left, cap, key, &timer, until)?,
                Way::FillUp { by_clock } => fill_up(items, &left, cap, by_clock, (&timer, until))?,
            };
            for &i in &kept {
                bank[i] = b;
            }
            left = rest;
        }
        let traffic: Bytes = (0..items.len())
            .filter(|&i| bank[i] > 0)
            .fold(0, |a: Bytes, i| a.saturating_add(items[i].cost));
        if best.as_ref().map_or(true, |(t, _)| traffic < *t) {
            best = Some((traffic, bank));
        }
    }
    Ok(best.map(|(_, b)| b).unwrap_or_default())
}

/// Members of bank `b`.
pub(crate) fn members(bank: &[usize], b: usize) -> Vec<usize> {
    (0..bank.len()).filter(|&i| bank[i] == b).collect()
}

/// `plan` with its spaces at `offsets` (absolute), its planes moved with them.
pub(crate) fn moved(plan: &Plan, offsets: &[Bytes]) -> Plan {
    let mut out = plan.clone();
    for (s, &o) in out.spaces.iter_mut().zip(offsets) {
        s.offset = o;
    }
    for plane in out.planes.iter_mut() {
        if let (Some(old), Some(new)) = (plan.spaces.get(plane.space), out.spaces.get(plane.space))
        {
            let shift = |v: u64| v.wrapping_sub(old.offset).wrapping_add(new.offset);
            plane.cont_offset = shift(plane.cont_offset);
            plane.wrap_offset = shift(plane.wrap_offset);
        }
    }
    out
}

/// Each bank of `plan` (its spaces' components set) placed by its quick placement.
pub(crate) fn place_quick(plan: &Plan, items: &[Item]) -> Result<Plan> {
    let mut offsets = vec![0; plan.spaces.len()];
    let bank: Vec<usize> = plan.spaces.iter().map(|s| s.component).collect();
    for b in 0..plan.components.len() {
        let m = members(&bank, b);
        if m.is_empty() {
            continue;
        }
        let list = list_of(items, &m);
        let mut best: Option<crate::strategies::Placement> = None;
        for s in [
            Strategy::GreedyBySize,
            Strategy::GreedyByConflicts,
            Strategy::Sweep,
        ] {
            let p = place(&list, s, &Budget::millis(100))?;
            if best.as_ref().map_or(true, |b| p.peak < b.peak) {
                best = Some(p);
            }
        }
        if let Some(p) = best {
            for (&i, &o) in m.iter().zip(&p.offsets) {
                offsets[i] = o;
            }
        }
    }
    Ok(moved(plan, &offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(lower: usize, upper: usize, size: Bytes, cost: Bytes) -> Item {
        Item {
            lower,
            upper,
            size,
            cost,
        }
    }

    #[test]
    fn the_cheapest_per_byte_spills_and_the_rest_stays_fast() {
        // Three spaces live together; 100 bytes of fast memory hold two of them.
        let items = [
            item(0, 3, 50, 500),
            item(0, 3, 50, 100),
            item(0, 3, 50, 900),
        ];
        let bank = assign(&items, &[100, 1000], 1000).unwrap();
        assert_eq!(bank, [0, 1, 0]);
    }

    #[test]
    fn the_space_cheapest_per_byte_at_the_fullest_clock_leaves() {
        let items = [item(0, 2, 80, 80), item(1, 3, 40, 4000), item(2, 4, 60, 60)];
        let bank = assign(&items, &[100, 1000], 1000).unwrap();
        // 80 + 40 > 100 at clock 1: of the two live there the 80-byte space (1 byte of
        // traffic per byte) leaves, not the 40-byte one (100 per byte); then
        // 40 + 60 = 100 at clock 2 fits, and the 80-byte space cannot come back.
        assert_eq!(bank, [1, 0, 0]);
    }

    #[test]
    fn the_last_bank_takes_what_is_left() {
        let items = [item(0, 1, 10, 1), item(0, 1, 10, 1)];
        assert_eq!(assign(&items, &[5, 5], 100).unwrap(), [1, 1]);
    }
}
