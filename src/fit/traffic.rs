//! Slow traffic per inference: the bytes moved to and from every bank after the first.
//! A plane placed there is written once (by its writer) and read once per data reader
//! (the consumers the schedule lists); a file without a schedule counts one read per
//! buffer, and the report says so.

use crate::model::{Bytes, Plan, Plane};
use crate::schedule::Schedule;
use serde::Serialize;

/// Bytes per inference to and from the slow banks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Traffic {
    pub written: Bytes,
    pub read: Bytes,
    pub total: Bytes,
}

impl Traffic {
    pub(crate) fn add(&mut self, written: Bytes, read: Bytes) {
        self.written = self.written.saturating_add(written);
        self.read = self.read.saturating_add(read);
        self.total = self.written.saturating_add(self.read);
    }
}

/// The tensor's bytes (a per-pixel plane is `size` bytes `length × count` times; gaps
/// between its stripes are not data).
pub fn plane_bytes(p: &Plane) -> Bytes {
    p.size
        .saturating_mul(p.length.max(1))
        .saturating_mul(p.count.max(1))
}

/// How many times the plane's tensor is read per inference: its data readers in the
/// schedule (at least one: a graph output is read by whoever called the model), one
/// when there is no schedule.
pub fn plane_reads(schedule: Option<&Schedule>, p: &Plane) -> Bytes {
    schedule
        .and_then(|s| s.nodes.get(p.node))
        .and_then(|n| n.outputs.get(p.index))
        .map_or(1, |o| (o.consumers.len() as Bytes).max(1))
}

/// What one space costs per inference when it lives in a slow bank: `(written, read)`.
pub fn space_costs(plan: &Plan, schedule: Option<&Schedule>) -> Vec<(Bytes, Bytes)> {
    let mut costs: Vec<(Bytes, Bytes)> = vec![(0, 0); plan.spaces.len()];
    for p in &plan.planes {
        if let Some(c) = costs.get_mut(p.space) {
            let b = plane_bytes(p);
            c.0 = c.0.saturating_add(b);
            c.1 =
                c.1.saturating_add(b.saturating_mul(plane_reads(schedule, p)));
        }
    }
    costs
}

/// The slow traffic of a plan whose spaces are placed in banks: every plane of a space
/// in a component after the first.
pub fn slow_traffic(plan: &Plan, schedule: Option<&Schedule>) -> Traffic {
    let mut t = Traffic::default();
    for (s, (w, r)) in space_costs(plan, schedule).into_iter().enumerate() {
        if plan.spaces[s].component > 0 {
            t.add(w, r);
        }
    }
    t
}
