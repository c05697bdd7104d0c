//! Aligning two schedules by node for the compare view. A fused graph runs fewer steps
//! than the plain one (a MatMul and its Add become one Linear), so on a shared clock
//! axis the same layer sits at different clocks and nothing lines up. Here the clocks
//! of plan B are mapped onto plan A's: a step of B whose node has a step of A of the
//! same name lands on that step's clock, and clocks between two such anchors are
//! spread linearly between them. Addresses are untouched, so peaks and moves compare
//! as before; only where B is drawn in time changes.

use crate::model::{Clock, Plan};
use std::collections::HashMap;

/// `(clock in B, clock in A)` of the steps both plans name alike, increasing in both
/// (a pair that would run backwards is skipped), from `(0, 0)` to the two ends.
fn anchors(a: &Plan, b: &Plan) -> Vec<(Clock, Clock)> {
    let mut in_a: HashMap<&str, Clock> = HashMap::new();
    for s in a.steps.iter().filter(|s| !s.name.trim().is_empty()) {
        if let Some(c) = s.clock {
            in_a.entry(s.name.as_str()).or_insert(c);
        }
    }
    let mut steps_b: Vec<(Clock, &str)> = b
        .steps
        .iter()
        .filter_map(|s| Some((s.clock?, s.name.as_str())))
        .collect();
    steps_b.sort_unstable();
    let mut out = vec![(0, 0)];
    let ends = std::iter::once((b.max_lifetime, a.max_lifetime));
    for (cb, ca) in steps_b
        .into_iter()
        .filter_map(|(cb, name)| Some((cb, *in_a.get(name)?)))
        .chain(ends)
    {
        if out.last().is_some_and(|&(lb, la)| cb > lb && ca > la) {
            out.push((cb, ca));
        }
    }
    out
}

/// Where clock `c` of B goes on A's axis, given the anchors.
fn map(anchors: &[(Clock, Clock)], c: Clock) -> Clock {
    let k = anchors.partition_point(|&(b, _)| b <= c).saturating_sub(1);
    let Some(&(b0, a0)) = anchors.get(k) else {
        return c;
    };
    match anchors.get(k + 1) {
        Some(&(b1, a1)) => {
            let spread = u64::from(c - b0) * u64::from(a1 - a0) / u64::from(b1 - b0);
            a0.saturating_add(Clock::try_from(spread).unwrap_or(Clock::MAX))
        }
        // Past the last anchor: one clock per clock.
        None => a0.saturating_add(c - b0),
    }
}

/// Plan `b` with its clocks on `a`'s axis (see the module comment). The result is for
/// drawing: where B has more steps between two anchors than A, some of its clocks
/// share one, so compute its checker report and bounds on `b` itself.
pub fn align_to(a: &Plan, b: &Plan) -> Plan {
    let anchors = anchors(a, b);
    let f = |c: Clock| map(&anchors, c);
    let mut out = b.clone();
    for s in &mut out.steps {
        s.clock = s.clock.map(f);
    }
    for s in &mut out.spaces {
        s.allocated = f(s.allocated);
        s.released = s.released.map(f);
    }
    for p in &mut out.planes {
        p.allocated = f(p.allocated);
    }
    out.max_lifetime = f(out.max_lifetime);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Step;

    fn plan(names: &[&str]) -> Plan {
        Plan {
            steps: names
                .iter()
                .enumerate()
                .map(|(i, n)| Step {
                    name: (*n).into(),
                    kind: String::new(),
                    clock: Some(i as Clock),
                })
                .collect(),
            max_lifetime: names.len().saturating_sub(1) as Clock,
            ..Plan::default()
        }
    }

    #[test]
    fn named_steps_land_on_their_clocks_and_the_rest_spread_between() {
        // A: conv, matmul, add, relu, matmul2, add2, out. B fuses each matmul+add.
        let a = plan(&["conv", "mm", "add", "relu", "mm2", "add2", "out"]);
        let b = plan(&["conv", "", "relu", "", "out"]);
        let aligned = align_to(&a, &b);
        let clocks: Vec<_> = aligned.steps.iter().map(|s| s.clock.unwrap()).collect();
        assert_eq!(clocks, vec![0, 1, 3, 4, 6]);
        assert_eq!(aligned.max_lifetime, a.max_lifetime);
    }

    #[test]
    fn crossing_names_are_skipped_and_order_is_kept() {
        let a = plan(&["x", "y", "z"]);
        let b = plan(&["z", "y", "x"]);
        let aligned = align_to(&a, &b);
        let clocks: Vec<_> = aligned.steps.iter().map(|s| s.clock.unwrap()).collect();
        assert!(clocks.windows(2).all(|w| w[0] <= w[1]), "{clocks:?}");
    }
}
