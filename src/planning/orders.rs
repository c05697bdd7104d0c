//! Other execution orders of a schedule: its parallel branches run in another order.
//!
//! The lower bound of a plan does not depend on which of two independent branches
//! runs first, but wrap-around reuse does: a plane can take the bytes of a consumed
//! plane only when that plane is consumed before it is written, and Aidge orders
//! parallel branches by pointer. ShuffleNet-v2's schedule as the exporter wrote it
//! ends 1.7–1.9 % above its per-plane bound under `best`; run depth first, each
//! branch to its end, it reaches the bound (docs/benchmarks.md, `scripts/bench-wrap.py`).

use crate::schedule::{Port, Schedule};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The depth-first orders of `schedule` (the branch listed first first, then the one
/// listed last first) that differ from its own and from each other, each as the
/// schedule in that order.
pub fn branch_orders(schedule: &Schedule) -> Vec<Schedule> {
    let given: Vec<usize> = (0..schedule.nodes.len()).collect();
    let mut orders: Vec<Vec<usize>> = Vec::new();
    for last_listed_first in [false, true] {
        let order = depth_first(schedule, last_listed_first);
        if order != given && !orders.contains(&order) {
            orders.push(order);
        }
    }
    orders.iter().map(|o| reordered(schedule, o)).collect()
}

/// A topological order of the nodes where the node made ready last runs next (a
/// branch runs to its end before another starts); ties by list position, the first
/// listed or the last.
fn depth_first(schedule: &Schedule, last_listed_first: bool) -> Vec<usize> {
    let n = schedule.nodes.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut waiting = vec![0usize; n];
    let mut edge = |from: usize, to: usize| {
        if from < n && to < n && from != to && !succ[from].contains(&to) {
            succ[from].push(to);
            waiting[to] += 1;
        }
    };
    for (i, node) in schedule.nodes.iter().enumerate() {
        for input in &node.inputs {
            if let Some(Port { node: p, .. }) = input.parent {
                edge(p, i);
            }
        }
        for out in &node.outputs {
            for &r in &out.param_readers {
                edge(i, r);
            }
        }
    }
    // (when it became ready, its position), greatest first. What is ready from the
    // start (Producers, graph inputs) runs first, so no branch stalls on its weights.
    let key = |i: usize, at: usize| (at, if last_listed_first { i } else { n - i });
    let mut ready: BinaryHeap<((usize, usize), usize)> = (0..n)
        .filter(|&i| waiting[i] == 0)
        .map(|i| (key(i, usize::MAX), i))
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some((_, i)) = ready.pop() {
        order.push(i);
        let mut next = succ[i].clone();
        next.sort_unstable_by_key(|&s| Reverse(s));
        for s in next {
            waiting[s] -= 1;
            if waiting[s] == 0 {
                ready.push((key(s, order.len()), s));
            }
        }
    }
    // A validated schedule has no cycle; anything else keeps its own order.
    if order.len() == n {
        order
    } else {
        (0..n).collect()
    }
}

/// `schedule` with its nodes in `order` (old indices), every reference renumbered.
fn reordered(schedule: &Schedule, order: &[usize]) -> Schedule {
    let mut at = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        at[old] = new;
    }
    let nodes = order
        .iter()
        .map(|&old| {
            let mut node = schedule.nodes[old].clone();
            for input in &mut node.inputs {
                if let Some(p) = &mut input.parent {
                    p.node = at[p.node];
                }
            }
            for out in &mut node.outputs {
                for c in &mut out.consumers {
                    c.node = at[c.node];
                }
                for r in &mut out.param_readers {
                    *r = at[*r];
                }
                out.param_readers.sort_unstable();
            }
            node
        })
        .collect();
    Schedule {
        nodes,
        alignment: schedule.alignment,
        aidge_fails: schedule.aidge_fails.clone(),
        aidge_resizes: schedule.aidge_resizes.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{Consumer, Input, Node, Output};

    /// `a` feeds two branches, `b → c` and `d`, which `e` joins; listed a, b, d, c, e.
    fn diamond() -> Schedule {
        let node = |name: &str, parents: &[usize], consumers: &[(usize, usize)]| Node {
            name: name.into(),
            kind: "Op".into(),
            inputs: parents
                .iter()
                .map(|&p| Input {
                    parent: Some(Port { node: p, output: 0 }),
                    ..Input::default()
                })
                .collect(),
            outputs: vec![Output {
                bytes: 4,
                element_bytes: 4,
                required_memory: 1,
                consumers: consumers
                    .iter()
                    .map(|&(node, input)| Consumer { node, input })
                    .collect(),
                ..Output::default()
            }],
            ..Node::default()
        };
        Schedule {
            nodes: vec![
                node("a", &[], &[(1, 0), (2, 0)]),
                node("b", &[0], &[(3, 0)]),
                node("d", &[0], &[(4, 1)]),
                node("c", &[1], &[(4, 0)]),
                node("e", &[3, 2], &[]),
            ],
            ..Schedule::default()
        }
    }

    fn names(s: &Schedule) -> Vec<&str> {
        s.nodes.iter().map(|n| n.name.as_str()).collect()
    }

    #[test]
    fn branches_run_to_their_end_in_either_order_and_stay_valid() {
        let s = diamond();
        s.validate().unwrap();
        let orders = branch_orders(&s);
        let got: Vec<Vec<&str>> = orders.iter().map(names).collect();
        assert_eq!(
            got,
            [vec!["a", "b", "c", "d", "e"], vec!["a", "d", "b", "c", "e"]]
        );
        for o in &orders {
            o.validate().unwrap();
        }
    }
}
