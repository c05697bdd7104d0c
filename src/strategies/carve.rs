//! Planes cut out of their space: the per-plane freedom a plan allows without its graph.
//!
//! In an Aidge space, each plane is written over the one before it (in place or
//! wrapping around) by that plane's single reader. Cutting a space's chain of planes
//! before plane group `j` gives groups `j..` a space of their own: the writer of
//! group `j` then reads its input from one space and writes to another, as any
//! kernel does without wrap-around, so every kernel accepts it. The first part is
//! released at that clock (its last planes are read then); the second keeps the
//! space's release. A part none of whose planes wraps is shrunk to the bytes its
//! planes use (a `Conv` output of 401,408 B left in a 2,007,040 B DenseNet Concat
//! space takes 401,408 B). A part of one group (the planes one node writes at one
//! clock) with a wrapped plane is laid out contiguous in a space of its planes'
//! bytes: its writer writes into memory no input of it shares, so nothing needs to
//! wrap, and its readers read it through its plane (memplan adds no wrapped part).
//! A longer part with a wrapped plane keeps the space's size and the planes their
//! place in it, so the wrapped parts stay where the kernels read them.
//!
//! A cut costs the bytes the two planes shared at that clock and frees the others
//! from the space's shape: [`search`] starts from the lowest drop ([`Shapes`]) of no
//! cut, every chain cut before its last group (DenseNet's layer outputs, read by
//! every later Concat of their block, each useless to cut alone) and every chain cut
//! before every group, then adds the cuts that lower the drop one at a time, within
//! its budget.

use super::shapes::Shapes;
use super::Budget;
use crate::model::{Bytes, Clock, Plan};
use crate::timer::Timer;

/// A cut: the space and the index of the first plane group (planes written at one
/// clock) that leaves it.
type Cut = (usize, usize);

/// The plane groups of each space that may be cut: planes by allocation clock, for
/// spaces of `component` without striped planes and with two groups or more.
fn groups(plan: &Plan, component: usize) -> Vec<Vec<(Clock, Vec<usize>)>> {
    let (start, order) = plan.planes_by_space();
    plan.spaces
        .iter()
        .enumerate()
        .map(|(s, space)| {
            let planes = &order[start[s]..start[s + 1]];
            if space.component != component || planes.iter().any(|&k| !plan.planes[k].replaces()) {
                return Vec::new();
            }
            let mut sorted = planes.to_vec();
            sorted.sort_by_key(|&k| (plan.planes[k].allocated, k));
            let mut out: Vec<(Clock, Vec<usize>)> = Vec::new();
            for k in sorted {
                let t = plan.planes[k].allocated;
                match out.last_mut() {
                    Some((c, ks)) if *c == t => ks.push(k),
                    _ => out.push((t, vec![k])),
                }
            }
            if out.len() < 2 {
                out.clear();
            }
            out
        })
        .collect()
}

/// `plan` with `cuts` made (at most one per space and group; sorted or not).
fn cut(plan: &Plan, groups: &[Vec<(Clock, Vec<usize>)>], cuts: &[Cut]) -> Plan {
    let mut out = plan.clone();
    for (s, chain) in groups.iter().enumerate() {
        let mut at: Vec<usize> = cuts.iter().filter(|c| c.0 == s).map(|c| c.1).collect();
        if at.is_empty() {
            continue;
        }
        at.sort_unstable();
        at.dedup();
        let space = plan.spaces[s].clone();
        let mut bounds = vec![0];
        bounds.extend(at.iter().copied().filter(|&j| j > 0 && j < chain.len()));
        bounds.push(chain.len());
        for w in 0..bounds.len() - 1 {
            let (from, to) = (bounds[w], bounds[w + 1]);
            let last = to == chain.len();
            let mut part = space.clone();
            part.allocated = chain[from].0;
            if !last {
                part.released = Some(chain[to].0);
                part.has_deps = false;
            }
            let index = if w == 0 {
                s
            } else {
                out.spaces.push(part.clone());
                out.spaces.len() - 1
            };
            let planes: Vec<usize> = chain[from..to]
                .iter()
                .flat_map(|g| g.1.iter().copied())
                .collect();
            let wrapped = planes.iter().any(|&k| plan.planes[k].is_wrapped());
            if wrapped && to - from == 1 {
                // One group: its writer writes into a space of its own, so its planes
                // need not wrap; laid out one after another, contiguous.
                let mut at = 0;
                part.offset = space.offset;
                for &k in &planes {
                    let q = &mut out.planes[k];
                    let size = plan.planes[k].footprint();
                    q.offset = at;
                    q.cont_offset = space.offset + at;
                    q.cont_size = size;
                    q.wrap_offset = space.offset;
                    q.wrap_size = 0;
                    at += size;
                }
                part.size = at;
            } else if !wrapped {
                // Shrunk to the bytes its planes use; absolute places unchanged.
                let rel = |k: usize| plan.planes[k].cont_offset.wrapping_sub(space.offset);
                let lo = planes.iter().map(|&k| rel(k)).min().unwrap_or(0);
                let hi = planes
                    .iter()
                    .map(|&k| rel(k).saturating_add(plan.planes[k].cont_size))
                    .max()
                    .unwrap_or(0);
                if hi <= space.size {
                    part.offset = space.offset + lo;
                    part.size = hi - lo;
                    for &k in &planes {
                        out.planes[k].offset = rel(k) - lo;
                        // Aidge's wrapped offset of a plane that does not wrap: its
                        // space's start.
                        out.planes[k].wrap_offset = part.offset;
                    }
                }
            }
            out.spaces[index] = part;
            for &k in &planes {
                out.planes[k].space = index;
            }
        }
    }
    out
}

/// The members of `component` in `plan` (space indices).
fn members(plan: &Plan, component: usize) -> Vec<usize> {
    (0..plan.spaces.len())
        .filter(|&i| plan.spaces[i].component == component)
        .collect()
}

/// The plan of `plan`'s spaces of `component` with the cuts that lower the shapes'
/// drop, placed, when it is lower than `beat`; `None` otherwise. Starts from the
/// lowest of no cut and two whole sets (every chain cut before its last group, before
/// every group), then tries each other cut once
/// (spaces by size times the life of what follows the cut, largest first) and keeps
/// it if the drop gets lower, then improves the best plan's placement with what is
/// left of the budget (time from `timer`).
pub(super) fn search(
    plan: &Plan,
    component: usize,
    beat: Bytes,
    budget: &Budget,
    timer: &Timer,
) -> Option<Plan> {
    let groups = groups(plan, component);
    let mut candidates: Vec<(u128, Cut)> = Vec::new();
    for (s, chain) in groups.iter().enumerate() {
        let last = plan.spaces[s].last_live(plan.max_lifetime);
        for (j, g) in chain.iter().enumerate().skip(1) {
            let weight = u128::from(plan.spaces[s].size) * u128::from(last - g.0 + 1);
            candidates.push((weight, (s, j)));
        }
    }
    if candidates.is_empty() {
        return None;
    }
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut work = 0u64;
    let max_work = budget.max_nodes.saturating_mul(2);
    let spent =
        |work: u64| work >= max_work || timer.elapsed_ms() >= budget.millis || budget.cancelled();
    let drop = |cuts: &[Cut], work: &mut u64| -> Option<Bytes> {
        let p = cut(plan, &groups, cuts);
        let shapes = Shapes::of(&p, &members(&p, component))?;
        *work += p.planes.len() as u64;
        Some(shapes.drops(None, work).1)
    };
    let mut cuts: Vec<Cut> = Vec::new();
    let mut lowest = drop(&cuts, &mut work).unwrap_or(Bytes::MAX);
    // Whole sets first: every chain cut before its last group (the planes that
    // outlive their chain, as DenseNet's layer outputs read by every later Concat),
    // then before every group.
    let last: Vec<Cut> = (0..groups.len())
        .filter(|&s| groups[s].len() > 1)
        .map(|s| (s, groups[s].len() - 1))
        .collect();
    let every: Vec<Cut> = candidates.iter().map(|c| c.1).collect();
    for set in [last, every] {
        if spent(work) {
            break;
        }
        if let Some(peak) = drop(&set, &mut work) {
            if peak < lowest {
                (lowest, cuts) = (peak, set);
            }
        }
    }
    for &(_, c) in &candidates {
        if spent(work) {
            break;
        }
        if cuts.contains(&c) {
            continue;
        }
        cuts.push(c);
        match drop(&cuts, &mut work) {
            Some(peak) if peak < lowest => lowest = peak,
            _ => {
                cuts.pop();
            }
        }
    }
    if cuts.is_empty() {
        return None;
    }
    let mut out = cut(plan, &groups, &cuts);
    let ids = members(&out, component);
    let shapes = Shapes::of(&out, &ids)?;
    let offsets = shapes.improve(None, budget, timer);
    if shapes.peak(&offsets) >= beat {
        return None;
    }
    let mut moved: Vec<(Bytes, Bytes)> =
        out.spaces.iter().map(|sp| (sp.offset, sp.offset)).collect();
    for (&s, &offset) in ids.iter().zip(&offsets) {
        moved[s].1 = offset;
        out.spaces[s].offset = offset;
    }
    for p in out.planes.iter_mut() {
        if let Some(&(old, new)) = moved.get(p.space) {
            let shift = |v: u64| v.wrapping_sub(old).wrapping_add(new);
            p.cont_offset = shift(p.cont_offset);
            p.wrap_offset = shift(p.wrap_offset);
        }
    }
    Some(out)
}
