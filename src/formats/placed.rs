//! The plan of a framework that placed its tensors itself (XLA, IREE, ExecuTorch): each
//! of their readers lists *values* (a name, a memory, an offset, a size, first and last
//! live clock, both inclusive) and [`to_plan`] turns them into memplan's model.
//!
//! - Each memory (an XLA allocation, an ExecuTorch `mem_id`, an IREE pack) becomes a
//!   [`Component`]: separate memories are separate arenas, never re-placed into each
//!   other.
//! - Values of one memory that share bytes while both are live are the framework's
//!   in-place reuse (an XLA fusion writing over its operand, the same buffer seen
//!   twice): they become planes of one space, so that the checker accepts them and
//!   re-planning moves them together. Every other value is a space of its own.
//! - Clocks are kept as the framework numbers them when they are dense; sparse or huge
//!   ones (dumps number steps as they like) are replaced by their rank, so no per-clock
//!   array is sized by a raw clock value.

use super::MAX_CLOCK;
use crate::model::{Bytes, Clock, Component, Plan, Plane, Space, Step, Tensor};

/// One tensor as the framework placed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub name: String,
    /// Index into [`Placed::memories`].
    pub memory: usize,
    pub offset: Bytes,
    pub size: Bytes,
    /// First live clock, inclusive.
    pub first: u64,
    /// Last live clock, inclusive (`>= first`).
    pub last: u64,
    /// What the dump tells of the tensor besides (its shape, its module), if anything.
    pub tensor: Option<Tensor>,
}

/// A framework's plan as its reader found it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placed {
    pub memories: Vec<Component>,
    /// Names of clocks (the operation that runs then), where the dump names them.
    pub steps: Vec<(u64, String)>,
    pub values: Vec<Value>,
    /// The last clock of the program, when the dump states one beyond every value.
    pub horizon: Option<u64>,
    /// The alignment of the framework's offsets (0 or 1: none), kept in the plan so
    /// the checker holds re-placed spaces to it.
    pub alignment: Bytes,
}

/// The plan of `placed` (see the module's doc). Readers have checked that every
/// value's memory exists and that `offset + size` does not overflow.
pub fn to_plan(placed: &Placed) -> Plan {
    let clocks = Clocks::new(placed);
    let mut steps: Vec<Step> = (0..clocks.len())
        .map(|i| Step {
            name: String::new(),
            kind: String::new(),
            clock: Some(i as Clock),
        })
        .collect();
    for (raw, name) in &placed.steps {
        if let Some(step) = steps.get_mut(clocks.index(*raw)) {
            step.name.clone_from(name);
        }
    }
    for (i, step) in steps.iter_mut().enumerate() {
        if step.name.is_empty() {
            step.name = format!("clock {}", clocks.raw(i));
        }
    }
    let groups = in_place_groups(&placed.values);
    let mut spaces = Vec::with_capacity(groups.len());
    let mut planes = Vec::with_capacity(placed.values.len());
    let mut per_step = vec![0usize; steps.len()];
    for members in &groups {
        let vs = members.iter().map(|&i| &placed.values[i]);
        let lo = vs.clone().map(|v| v.offset).min().unwrap_or(0);
        let hi = vs.clone().map(end).max().unwrap_or(0);
        let first = vs.clone().map(|v| v.first).min().unwrap_or(0);
        let last = vs.clone().map(|v| v.last).max().unwrap_or(0);
        let space = spaces.len();
        spaces.push(Space {
            offset: lo,
            size: hi - lo,
            allocated: clocks.index(first) as Clock,
            released: Some(clocks.index(last) as Clock),
            has_deps: false,
            component: placed.values[members[0]].memory,
        });
        for v in vs {
            let node = clocks.index(v.first);
            let index = per_step[node];
            per_step[node] += 1;
            planes.push(Plane {
                node,
                index,
                space,
                allocated: node as Clock,
                offset: v.offset - lo,
                size: v.size,
                stride: v.size,
                length: 1,
                count: 1,
                cont_offset: v.offset,
                cont_size: v.size,
                wrap_offset: v.offset,
                wrap_size: 0,
                label: Some(v.name.clone()),
                tensor: v.tensor.clone().map(Box::new),
            });
        }
    }
    Plan {
        steps,
        components: if placed.memories.is_empty() {
            vec![Component::default()]
        } else {
            placed.memories.clone()
        },
        spaces,
        planes,
        max_lifetime: clocks.len().saturating_sub(1) as Clock,
        alignment: placed.alignment.max(1),
        reordered: false,
    }
}

fn end(v: &Value) -> Bytes {
    v.offset.saturating_add(v.size)
}

/// The clocks of a plan: the raw values themselves when they are dense enough
/// (`0..=max`), else the sorted distinct raw values, each standing for its rank.
struct Clocks {
    /// `None`: identity over `0..=max`.
    ranks: Option<Vec<u64>>,
    max: u64,
}

impl Clocks {
    fn new(placed: &Placed) -> Clocks {
        let mut raw: Vec<u64> = placed
            .values
            .iter()
            .flat_map(|v| [v.first, v.last])
            .chain(placed.steps.iter().map(|s| s.0))
            .chain(placed.horizon)
            .collect();
        raw.sort_unstable();
        raw.dedup();
        let max = raw.last().copied().unwrap_or(0);
        let dense = max <= MAX_CLOCK && max <= 4 * raw.len() as u64 + 1024;
        Clocks {
            ranks: (!dense).then_some(raw),
            max,
        }
    }

    fn len(&self) -> usize {
        match &self.ranks {
            None => self.max as usize + 1,
            Some(r) => r.len().max(1),
        }
    }

    /// The clock (step index) standing for `raw`, which must be one of the clocks
    /// `new` saw.
    fn index(&self, raw: u64) -> usize {
        match &self.ranks {
            None => raw as usize,
            Some(r) => r.partition_point(|&x| x < raw),
        }
    }

    fn raw(&self, index: usize) -> u64 {
        match &self.ranks {
            None => index as u64,
            Some(r) => r.get(index).copied().unwrap_or(0),
        }
    }
}

/// Values grouped into spaces: two values of one memory are grouped when their bytes
/// and their (inclusive) lifetimes intersect, transitively. A sweep over time compares
/// each value only with those live when it starts. Groups come in the order of their
/// first value; members in value order.
fn in_place_groups(values: &[Value]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..values.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by_key(|&i| (values[i].first, i));
    let mut live: Vec<usize> = Vec::new();
    for &i in &order {
        let v = &values[i];
        live.retain(|&j| values[j].last >= v.first);
        for &j in &live {
            let w = &values[j];
            if w.memory == v.memory && w.offset < end(v) && v.offset < end(w) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
        live.push(i);
    }
    let mut group_of = vec![usize::MAX; values.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..values.len() {
        let r = root(&mut parent, i);
        if group_of[r] == usize::MAX {
            group_of[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[group_of[r]].push(i);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str, memory: usize, offset: Bytes, size: Bytes, first: u64, last: u64) -> Value {
        Value {
            name: name.into(),
            memory,
            offset,
            size,
            first,
            last,
            tensor: None,
        }
    }

    fn placed(values: Vec<Value>) -> Placed {
        Placed {
            memories: vec![Component::default(), Component::default()],
            steps: vec![(0, "first".into())],
            values,
            horizon: None,
            alignment: 1,
        }
    }

    #[test]
    fn in_place_chains_share_a_space_and_keep_their_lives() {
        // b writes over a at clock 2 (a is read then); c reuses the bytes later.
        let plan = to_plan(&placed(vec![
            v("a", 0, 0, 8, 0, 2),
            v("b", 0, 0, 8, 2, 3),
            v("c", 0, 0, 8, 4, 5),
            v("d", 1, 0, 8, 0, 5),
        ]));
        assert_eq!(plan.spaces.len(), 3);
        assert_eq!(plan.planes[0].space, plan.planes[1].space);
        assert_ne!(plan.planes[1].space, plan.planes[2].space);
        assert_eq!(plan.plane_last_lives(), vec![2, 3, 5, 5]);
        assert!(crate::check::check(&plan).is_valid());
        assert_eq!(plan.steps[0].name, "first");
        assert_eq!(plan.steps[3].name, "clock 3");
        assert_eq!(plan.peaks(), vec![8, 8]);
    }

    #[test]
    fn sparse_huge_clocks_are_ranked() {
        let plan = to_plan(&placed(vec![
            v("a", 0, 0, 8, 1 << 40, (1 << 40) + 5),
            v("b", 0, 8, 8, u64::MAX - 1, u64::MAX),
        ]));
        assert_eq!(plan.steps.len(), 5);
        assert_eq!(plan.max_lifetime, 4);
        assert_eq!(plan.steps[3].name, format!("clock {}", u64::MAX - 1));
        assert!(crate::check::check(&plan).is_valid());
    }
}
