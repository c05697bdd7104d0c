//! The plan checker: verifies a [`Plan`] on its own terms, without calling the planner,
//! so that it can catch the planner's mistakes as well as a corrupt file's.
//!
//! What it enforces (docs/ARCHITECTURE.md, "Invariants"):
//! * planes of *different* spaces of one component never share a byte while both are
//!   live (contiguous and wrapped parts; a striped plane's parts already span its
//!   footprint, gaps included). Planes of the same space may share bytes by design;
//! * every plane lies inside its space, and its parts add up to its footprint;
//! * spaces fit their component's capacity, are released no earlier than allocated,
//!   start on the plan's alignment; planes do not outlive or predate their space;
//! * indices name existing items.
//!
//! Liveness is per plane ([`Plan::plane_last_lives`]): a plane is live from its own
//! `allocated` clock until the next later non-striped plane of its space is written
//! (that clock included: its writer is the plane's reader), or, for the latest planes
//! of a space, until the space's [`Space::last_live`](crate::model::Space::last_live).
//! A plane that a later plane of its space replaces (in place or wrap-around: Aidge
//! writes over an input only when the writer is its single reader) holds nothing
//! afterwards, so another space may use its bytes from the next clock on. The striped
//! parts of an auto-concat replace nothing: they all live until a non-striped plane
//! or the space's end. That is the reuse
//! Aidge's `optimize` makes with wrap-around (its `getStack`), and it was proven safe
//! by running such plans (docs/aidge-parity.md, "Wrap-around with optimize"). Whole
//! spaces are therefore not compared: two spaces may overlap where no live plane is.
//! Writing over a plane before its replacement (or its space's release) is flagged.
//!
//! Not independent of the planners in one respect: the liveness rule,
//! [`Plan::plane_last_lives`], is the one the planners (`strategies::shapes`) and
//! `stats` use. A wrong rule there would pass unseen, so `tests/check_props.rs` holds
//! the checker's overlaps to a second rule written another way (a clock-by-clock
//! simulation of what each space holds, over every byte and clock of random plans).

use crate::model::{Bytes, Clock, Plan};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet};
use std::fmt;

/// At most this many problems are listed; the rest are only counted.
pub const MAX_PROBLEMS: usize = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// Two planes of different spaces share bytes while both are live.
    PlaneOverlap,
    /// A plane's contiguous or wrapped part leaves its space.
    PlaneOutsideSpace,
    /// A plane's contiguous and wrapped sizes do not add up to its footprint.
    PlaneSize,
    /// A space ends beyond its component's capacity.
    OverCapacity,
    /// A space is released before it is allocated, or a plane is written outside
    /// its space's lifetime.
    Lifetime,
    /// A space's offset is not a multiple of the plan's alignment.
    Misaligned,
    /// An index (plane → space or node, space → component) names nothing.
    BadIndex,
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProblemKind::PlaneOverlap => "plane overlap",
            ProblemKind::PlaneOutsideSpace => "plane outside space",
            ProblemKind::PlaneSize => "plane size",
            ProblemKind::OverCapacity => "over capacity",
            ProblemKind::Lifetime => "lifetime",
            ProblemKind::Misaligned => "misaligned",
            ProblemKind::BadIndex => "bad index",
        })
    }
}

/// One violated rule, with the items involved (indices into the plan).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub kind: ProblemKind,
    pub planes: Vec<usize>,
    pub spaces: Vec<usize>,
    /// One line a user can read: which items, where, when.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The first [`MAX_PROBLEMS`] problems found.
    pub problems: Vec<Problem>,
    /// How many more were found but not listed.
    pub omitted: usize,
}

impl Report {
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
    fn push(&mut self, kind: ProblemKind, planes: Vec<usize>, spaces: Vec<usize>, message: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem {
                kind,
                planes,
                spaces,
                message,
            });
        } else {
            self.omitted += 1;
        }
    }
}

/// Checks every rule of the module comment.
pub fn check(plan: &Plan) -> Report {
    let mut report = Report::default();
    spaces(plan, &mut report);
    planes(plan, &mut report);
    plane_overlaps(plan, &mut report);
    report
}

/// Each space on its own: its component, capacity, end, lifetime and alignment.
fn spaces(plan: &Plan, report: &mut Report) {
    let ncomp = plan.components.len().max(1);
    for (i, s) in plan.spaces.iter().enumerate() {
        let end = s.offset.checked_add(s.size);
        if s.component >= ncomp {
            let msg = format!(
                "space {i} names component {}, the plan has {ncomp}",
                s.component
            );
            report.push(ProblemKind::BadIndex, vec![], vec![i], msg);
        } else if let Some(cap) = plan.components.get(s.component).and_then(|c| c.capacity) {
            if end.map_or(true, |e| e > cap) {
                let msg = format!(
                    "space {i} [{}, {}) exceeds the capacity {cap} of component {}",
                    s.offset,
                    u128::from(s.offset) + u128::from(s.size),
                    plan.components[s.component].name
                );
                report.push(ProblemKind::OverCapacity, vec![], vec![i], msg);
            }
        }
        if end.is_none() {
            let msg = format!(
                "space {i}: offset {} + size {} overflows 64 bits",
                s.offset, s.size
            );
            report.push(ProblemKind::PlaneOutsideSpace, vec![], vec![i], msg);
        }
        if let Some(r) = s.released.filter(|&r| r < s.allocated) {
            let msg = format!(
                "space {i} is released at {r}, before its allocation at {}",
                s.allocated
            );
            report.push(ProblemKind::Lifetime, vec![], vec![i], msg);
        }
        if plan.alignment > 1 && s.offset % plan.alignment != 0 {
            let msg = format!(
                "space {i} starts at {}, not a multiple of {}",
                s.offset, plan.alignment
            );
            report.push(ProblemKind::Misaligned, vec![], vec![i], msg);
        }
    }
}

/// Each plane on its own: its step and space exist, its parts stay in the space,
/// its bytes add up, and it is written while its space is live.
fn planes(plan: &Plan, report: &mut Report) {
    let ml = plan.max_lifetime;
    for (i, p) in plan.planes.iter().enumerate() {
        // Named only when a problem is pushed: formatting a name per plane was most of
        // the checker's time on a million valid planes.
        let who = || plane_name(plan, i);
        if p.node >= plan.steps.len() {
            let msg = format!(
                "plane {i} names step {}, the plan has {}",
                p.node,
                plan.steps.len()
            );
            report.push(ProblemKind::BadIndex, vec![i], vec![], msg);
        }
        let Some(s) = plan.spaces.get(p.space) else {
            let msg = format!(
                "{} names space {}, the plan has {}",
                who(),
                p.space,
                plan.spaces.len()
            );
            report.push(ProblemKind::BadIndex, vec![i], vec![], msg);
            continue;
        };
        let (lo, hi) = (s.offset, s.offset.saturating_add(s.size));
        let parts = [
            (p.cont_offset, p.cont_size, "contiguous"),
            (p.wrap_offset, p.wrap_size, "wrapped"),
        ];
        for (off, size, what) in parts {
            // In 128 bits: a size that wrapped in Aidge's `size_t` ends past 2^64.
            let end = u128::from(off) + u128::from(size);
            if size > 0 && (off < lo || end > u128::from(hi)) {
                let msg = format!(
                    "{}: {what} part [{off}, {end}) leaves space {} [{lo}, {hi})",
                    who(),
                    p.space
                );
                report.push(ProblemKind::PlaneOutsideSpace, vec![i], vec![p.space], msg);
            }
        }
        if p.cont_size.checked_add(p.wrap_size) != Some(p.footprint()) {
            let msg = format!(
                "{}: contiguous {} + wrapped {} bytes differ from its footprint {} (stride {} x length {} x count {})",
                who(),
                p.cont_size,
                p.wrap_size,
                p.footprint(),
                p.stride,
                p.length,
                p.count
            );
            report.push(ProblemKind::PlaneSize, vec![i], vec![p.space], msg);
        }
        let last = s.last_live(ml);
        if p.allocated < s.allocated || p.allocated > last {
            let msg = format!(
                "{} is written at {}, outside its space {}'s lifetime [{}, {last}]",
                who(),
                p.allocated,
                p.space,
                s.allocated
            );
            report.push(ProblemKind::Lifetime, vec![i], vec![p.space], msg);
        }
    }
}

/// `conv1_0` style name of a plane (node name and plane index), or its label.
fn plane_name(plan: &Plan, i: usize) -> String {
    let p = &plan.planes[i];
    match (&p.label, plan.steps.get(p.node)) {
        (Some(l), _) => format!("plane {i} ({l})"),
        (None, Some(step)) => format!("plane {i} ({}#{})", step.name, p.index),
        (None, None) => format!("plane {i}"),
    }
}

/// A byte range live over a closed clock interval, owned by `group` (overlaps inside
/// one group are allowed) and reported as `item`.
#[derive(Clone, Copy)]
struct Segment {
    component: usize,
    start: Bytes,
    end: Bytes,
    from: Clock,
    to: Clock,
    group: usize,
    item: usize,
}

/// Pairs of items of different groups whose segments overlap in bytes and clocks.
/// Sweep over clocks: segments enter by `from` and leave after `to`; each entering
/// segment is compared only with live segments that can reach it in bytes.
fn overlapping_pairs(mut segs: Vec<Segment>) -> Vec<(usize, usize, Segment, Segment)> {
    segs.retain(|s| s.end > s.start && s.to >= s.from);
    segs.sort_by_key(|s| (s.component, s.from, s.start));
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for comp in segs.chunk_by(|a, b| a.component == b.component) {
        let longest = comp.iter().map(|s| s.end - s.start).max().unwrap_or(0);
        let mut live: BTreeMap<(Bytes, usize), usize> = BTreeMap::new();
        let mut leave: BinaryHeap<Reverse<(Clock, Bytes, usize)>> = BinaryHeap::new();
        for (k, s) in comp.iter().enumerate() {
            while let Some(&Reverse((to, start, j))) = leave.peek() {
                if to >= s.from {
                    break;
                }
                leave.pop();
                live.remove(&(start, j));
            }
            let from = (s.start.saturating_sub(longest), 0);
            for (_, &j) in live.range(from..(s.end, 0)) {
                let o = &comp[j];
                if o.end > s.start && o.group != s.group {
                    let key = (o.item.min(s.item), o.item.max(s.item));
                    if seen.insert(key) {
                        out.push((key.0, key.1, *o, *s));
                    }
                }
            }
            live.insert((s.start, k), k);
            leave.push(Reverse((s.to, s.start, k)));
        }
    }
    out
}

fn plane_overlaps(plan: &Plan, report: &mut Report) {
    let mut segs = Vec::new();
    let lives = plan.plane_last_lives();
    for (i, p) in plan.planes.iter().enumerate() {
        let Some(s) = plan.spaces.get(p.space) else {
            continue;
        };
        let to = lives[i];
        for (off, size) in [(p.cont_offset, p.cont_size), (p.wrap_offset, p.wrap_size)] {
            segs.push(Segment {
                component: s.component,
                start: off,
                end: off.saturating_add(size),
                from: p.allocated,
                to,
                group: p.space,
                item: i,
            });
        }
    }
    // A plane whose last live clock is the clock of a later plane of its space is
    // replaced then (and read by that plane's writer).
    let clocks: HashSet<(usize, Clock)> = plan
        .planes
        .iter()
        .filter(|p| p.replaces())
        .map(|p| (p.space, p.allocated))
        .collect();
    let replaced_at = |i: usize, t: Clock| {
        let p = &plan.planes[i];
        lives[i] == t && t > p.allocated && clocks.contains(&(p.space, t))
    };
    for (a, b, sa, sb) in overlapping_pairs(segs) {
        let (lo, hi) = (sa.start.max(sb.start), sa.end.min(sb.end));
        let (from, to) = (sa.from.max(sb.from), sa.to.min(sb.to));
        let (pa, pb) = (&plan.planes[a], &plan.planes[b]);
        let mut msg = format!(
            "{} (space {}) and {} (space {}) share bytes [{lo}, {hi}) at clocks {from}..={to}",
            plane_name(plan, a),
            pa.space,
            plane_name(plan, b),
            pb.space
        );
        // The one overlap Aidge's `optimize` makes (docs/aidge-parity.md): a node
        // writes two planes, one replacing its input in place or wrapping around,
        // the other in another space over that input, which it is still reading.
        let early = [(a, b), (b, a)]
            .into_iter()
            .find(|&(x, y)| from == to && replaced_at(x, to) && plan.planes[y].allocated == to);
        if let Some((x, y)) = early {
            msg.push_str(&format!(
                ": {} is written while {} is read by the same node, which replaces it in its \
                 space at that clock (Aidge's optimize frees a replaced plane one clock early)",
                plane_name(plan, y),
                plane_name(plan, x)
            ));
        }
        report.push(
            ProblemKind::PlaneOverlap,
            vec![a, b],
            vec![pa.space, pb.space],
            msg,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Clock, Component};

    fn kinds(r: &Report) -> Vec<ProblemKind> {
        r.problems.iter().map(|p| p.kind).collect()
    }

    #[test]
    fn disjoint_lifetimes_may_share_bytes() {
        assert!(check(&Plan::of_buffers(&[(0, 2, 8, 0), (2, 4, 8, 0)])).is_valid());
    }

    #[test]
    fn live_overlap_is_reported_once_per_kind() {
        let r = check(&Plan::of_buffers(&[(0, 3, 8, 0), (2, 4, 8, 4)]));
        assert_eq!(kinds(&r), vec![ProblemKind::PlaneOverlap]);
        assert_eq!(r.problems[0].planes, vec![0, 1]);
        assert_eq!(
            r.problems[0].message,
            "plane 0 (b0) (space 0) and plane 1 (b1) (space 1) share bytes [4, 8) at clocks 2..=2"
        );
    }

    #[test]
    fn planes_of_one_space_may_share_bytes() {
        let mut p = Plan::of_buffers(&[(0, 4, 8, 0)]);
        let mut second = p.planes[0].clone();
        second.allocated = 1;
        p.planes.push(second);
        assert!(check(&p).is_valid());
    }

    /// Space 0 holds `a` ([0, 8), written at 0) until its single reader writes `b`
    /// over [0, 4) of it at clock 2 (wrap-around); the space lives until 5. Space 1
    /// writes [4, 8) at `when`, live until 5.
    fn replaced(when: Clock) -> Plan {
        let mut p = Plan::of_buffers(&[(0, 6, 8, 0), (when, 6, 4, 4)]);
        let mut b = p.planes[0].clone();
        (b.allocated, b.size, b.stride, b.cont_size) = (2, 4, 4, 4);
        p.planes.push(b);
        p
    }

    #[test]
    fn bytes_of_a_replaced_plane_are_free_after_its_replacement() {
        assert!(check(&replaced(3)).is_valid());
    }

    #[test]
    fn writing_over_a_plane_before_or_while_it_is_read_is_flagged() {
        let shared = "plane 0 (b0) (space 0) and plane 1 (b1) (space 1) share bytes [4, 8)";
        let r = check(&replaced(1));
        assert_eq!(kinds(&r), vec![ProblemKind::PlaneOverlap]);
        assert_eq!(r.problems[0].message, format!("{shared} at clocks 1..=2"));
        // Written at the replacement clock: what Aidge's optimize does when one node
        // writes two planes; the message says so.
        let r = check(&replaced(2));
        assert_eq!(kinds(&r), vec![ProblemKind::PlaneOverlap]);
        assert_eq!(
            r.problems[0].message,
            format!(
                "{shared} at clocks 2..=2: plane 1 (b1) is written while plane 0 (b0) is read \
                 by the same node, which replaces it in its space at that clock (Aidge's \
                 optimize frees a replaced plane one clock early)"
            )
        );
    }

    #[test]
    fn capacity_alignment_lifetime_and_extent_are_checked() {
        let mut p = Plan::of_buffers(&[(0, 2, 8, 3)]);
        p.components = vec![Component {
            name: "sram".into(),
            capacity: Some(10),
            priority: 0,
        }];
        p.alignment = 2;
        p.spaces[0].released = Some(0);
        p.spaces[0].allocated = 1;
        p.planes[0].cont_size = 9;
        let r = check(&p);
        assert_eq!(
            kinds(&r),
            vec![
                ProblemKind::OverCapacity,
                ProblemKind::Lifetime,
                ProblemKind::Misaligned,
                ProblemKind::PlaneOutsideSpace,
                ProblemKind::PlaneSize,
                ProblemKind::Lifetime,
            ]
        );
    }

    #[test]
    fn bad_indices_do_not_panic() {
        let mut p = Plan::of_buffers(&[(0, 2, 8, 0)]);
        p.planes[0].space = 7;
        p.planes[0].node = 99;
        p.spaces[0].component = 3;
        assert_eq!(kinds(&check(&p)), vec![ProblemKind::BadIndex; 3]);
    }
}
