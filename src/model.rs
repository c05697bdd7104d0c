//! The plan: what every format reads into, what the planner produces, and what the
//! checker and the chart read. Plain data, no behaviour beyond derived quantities.
//!
//! A plan mirrors Aidge's `MemoryManager` state after planning: *spaces* are contiguous
//! blocks of one memory component; *planes* are tensors (one output of one node) placed
//! inside a space, and planes of one space may share bytes by design (in-place and
//! wrap-around reuse). A space holds data only where its live planes are (see
//! [`Plan::plane_last_lives`]): two spaces may share bytes that only a replaced plane
//! of one of them occupies, as Aidge's `optimize` places them. Buffer lists
//! (MiniMalloc CSV) are plans where every buffer is one space holding one plane.

use serde::{Deserialize, Serialize};

/// Byte counts and offsets. 64-bit, like Aidge 0.10.1's `size_t`.
pub type Bytes = u64;

/// A logical clock value: the index of a scheduling step (Aidge ticks once per
/// non-producer node).
pub type Clock = u32;

/// One node of the schedule, in execution order. Planes name their writer by index
/// into [`Plan::steps`]; the chart labels clock `t` with the step whose `clock` is `t`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Step {
    /// Node name as the framework prints it.
    pub name: String,
    /// Operator type (`Conv2D`, `ReLU`, ...). Empty when unknown (CSV buffer lists).
    #[serde(default, rename = "type")]
    pub kind: String,
    /// Clock at which the node ran. `None` for nodes that do not tick (Aidge skips
    /// Producers unless `inc_producers`).
    #[serde(default)]
    pub clock: Option<Clock>,
}

/// The capacity of Aidge 0.10.1's default component (`memory_components_capacities=
/// [1000000000]`), which its exports record whether or not a user asked for it.
pub const AIDGE_DEFAULT_CAPACITY: Bytes = 1_000_000_000;

/// A memory component (bank): Aidge 0.10.1's `generate_memory_multiple_mems` places
/// spaces in the first component, by priority, whose capacity fits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Component {
    pub name: String,
    /// Capacity in bytes; `None` means unbounded.
    #[serde(default)]
    pub capacity: Option<Bytes>,
    #[serde(default)]
    pub priority: i64,
}

impl Default for Component {
    fn default() -> Self {
        Component {
            name: "mem".into(),
            capacity: None,
            priority: 0,
        }
    }
}

/// A contiguous block of a component, alive from `allocated` to its release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Space {
    /// Absolute offset inside its component.
    pub offset: Bytes,
    pub size: Bytes,
    pub allocated: Clock,
    /// Aidge's `released`: `None` while never released (Aidge's −1).
    #[serde(default)]
    pub released: Option<Clock>,
    /// True when consumers were still pending at the end: Aidge then treats the space
    /// as live until the max lifetime, whatever `released` says.
    #[serde(default)]
    pub has_deps: bool,
    /// Index into [`Plan::components`].
    #[serde(default)]
    pub component: usize,
}

impl Space {
    /// Last clock (inclusive) at which the space holds data, given the plan's
    /// max lifetime. Same rule as Aidge's `optimize` and `log_meminfo`.
    pub fn last_live(&self, max_lifetime: Clock) -> Clock {
        match self.released {
            Some(r) if !self.has_deps => r,
            _ => max_lifetime,
        }
    }
}

/// One tensor placed in a space. Field meanings follow Aidge's `MemoryPlane`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plane {
    /// Index into [`Plan::steps`] of the node that writes this plane.
    pub node: usize,
    /// Index of this plane among the node's planes (Aidge's plane index).
    pub index: usize,
    /// Index into [`Plan::spaces`].
    pub space: usize,
    pub allocated: Clock,
    /// Offset relative to the space.
    pub offset: Bytes,
    pub size: Bytes,
    pub stride: Bytes,
    pub length: Bytes,
    pub count: Bytes,
    /// Absolute start and size of the contiguous part (Aidge 0.10.1 accessors).
    pub cont_offset: Bytes,
    pub cont_size: Bytes,
    /// Absolute start and size of the wrapped part (size 0 when not wrapped).
    pub wrap_offset: Bytes,
    pub wrap_size: Bytes,
    /// Display name when the node's name is not the plane's (buffer ids of buffer
    /// lists); `None` for Aidge plans, which show `node_index`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What the framework's file says of the tensor beyond its bytes, where it says
    /// anything ([`Tensor`]): shown in the plane's details. Not in memplan JSON.
    #[serde(skip)]
    pub tensor: Option<Box<Tensor>>,
}

/// What a framework's file tells of one tensor besides its bytes and clocks: a
/// `.tflite` its index, shape and type; XLA's buffer assignment its shape and type;
/// ExecuTorch's memory trace the module that computes it and the source line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tensor {
    /// The framework's index of the tensor (TFLite: its index in subgraph 0).
    pub index: Option<u32>,
    /// Its dimensions (TFLite: -1 for one unknown until run time).
    pub shape: Option<Vec<i64>>,
    /// Its element type as the framework names it (`int8`, `f32`).
    pub dtype: Option<String>,
    /// The module that computes it (ExecuTorch's `fqn`, `layer1.0.conv1`).
    pub module: Option<String>,
    /// Where in the model's source it is computed (ExecuTorch's `source`: the
    /// model's own frame, `gen.py:52  x = torch.relu(self.c1(x))`).
    pub source: Option<String>,
}

impl Tensor {
    /// True when it tells nothing.
    pub fn is_empty(&self) -> bool {
        *self == Tensor::default()
    }
}

impl Plane {
    /// Footprint: `stride * length * count` (gaps included), Aidge's `getSize()`.
    pub fn footprint(&self) -> Bytes {
        self.stride
            .saturating_mul(self.length)
            .saturating_mul(self.count)
    }
    pub fn is_wrapped(&self) -> bool {
        self.wrap_size > 0
    }
    /// Striped planes (concatenation): several planes interleave with a common stride.
    pub fn is_striped(&self) -> bool {
        self.size != self.stride
    }
    /// Whether writing this plane ends the life of the earlier planes of its space
    /// ([`Plan::plane_last_lives`]): any plane but a striped one.
    pub fn replaces(&self) -> bool {
        !self.is_striped()
    }
}

/// A complete placement: what the chart draws and the checker verifies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
    pub components: Vec<Component>,
    pub spaces: Vec<Space>,
    pub planes: Vec<Plane>,
    /// Aidge's `getMaxLifetime()`: the last clock of the plan.
    pub max_lifetime: Clock,
    /// Byte alignment the planner was asked to respect (1 = none).
    #[serde(default = "one")]
    pub alignment: Bytes,
    /// True when the plan runs the nodes in an order memplan chose (`best`'s
    /// parallel-branch orders), not the one the file's schedule gave: it holds only when
    /// the nodes run in the order of its steps. Exports for a target that runs its own
    /// order refuse it (`formats::write`); the others say it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reordered: bool,
}

fn one() -> Bytes {
    1
}

impl Plan {
    /// Peak of each component: max over its spaces of `offset + size`.
    pub fn peaks(&self) -> Vec<Bytes> {
        let n = self.components.len().max(1);
        let mut peaks = vec![0; n];
        for s in &self.spaces {
            let c = s.component.min(n - 1);
            peaks[c] = peaks[c].max(s.offset.saturating_add(s.size));
        }
        peaks
    }

    /// Peak over all components (the arena size when there is one component).
    pub fn peak(&self) -> Bytes {
        self.peaks().into_iter().max().unwrap_or(0)
    }

    /// Last clock (inclusive) at which each plane holds data, by plane index: the
    /// clock of the next later plane of its space that *replaces* it (a plane that is
    /// not striped, [`Plane::replaces`]: its writer read the space's data, Aidge
    /// writing over an input in place or wrapping around only when the writer is its
    /// single reader), or its space's [`last_live`](Space::last_live) when none
    /// follows, whichever is first. The replaced plane is still live at that clock
    /// (being read). Striped planes (the parts of an auto-concat) replace nothing:
    /// each part's writer reads none of the others. Planes written at one clock live
    /// together. For wrap-around and in-place spaces this is the liveness of Aidge's
    /// `optimize` (`getStack`: a space holds its latest planes) kept one clock longer.
    /// A plane naming no space is live only at its own clock.
    pub fn plane_last_lives(&self) -> Vec<Clock> {
        let (start, order) = self.planes_by_space();
        let mut out: Vec<Clock> = self.planes.iter().map(|p| p.allocated).collect();
        let mut clocks: Vec<Clock> = Vec::new();
        for (s, space) in self.spaces.iter().enumerate() {
            let planes = &order[start[s]..start[s + 1]];
            let last = space.last_live(self.max_lifetime);
            clocks.clear();
            clocks.extend(
                planes
                    .iter()
                    .map(|&i| &self.planes[i])
                    .filter(|p| p.replaces())
                    .map(|p| p.allocated),
            );
            clocks.sort_unstable();
            clocks.dedup();
            for &i in planes {
                let k = clocks.partition_point(|&x| x <= self.planes[i].allocated);
                out[i] = clocks.get(k).map_or(last, |&next| next.min(last));
            }
        }
        out
    }

    /// Plane indices grouped by space (a counting sort, no vector per space: a million
    /// one-plane spaces are common): the planes of space `s` are
    /// `order[start[s]..start[s + 1]]`, in plane order. Planes naming no space are left
    /// out.
    pub fn planes_by_space(&self) -> (Vec<usize>, Vec<usize>) {
        let n = self.spaces.len();
        let mut start = vec![0usize; n + 1];
        for p in self.planes.iter().filter(|p| p.space < n) {
            start[p.space + 1] += 1;
        }
        for s in 0..n {
            start[s + 1] += start[s];
        }
        let mut next = start.clone();
        let mut order = vec![0usize; start[n]];
        for (i, p) in self.planes.iter().enumerate().filter(|(_, p)| p.space < n) {
            order[next[p.space]] = i;
            next[p.space] += 1;
        }
        (start, order)
    }
}

/// One buffer of a buffer list (MiniMalloc CSV): live on steps `[lower, upper)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Buffer {
    pub id: String,
    pub lower: Clock,
    /// Exclusive end step.
    pub upper: Clock,
    pub size: Bytes,
    /// Given offset, when the list already carries a placement.
    #[serde(default)]
    pub offset: Option<Bytes>,
}

impl Buffer {
    /// A buffer without a given offset, live in clocks `lower..upper`.
    pub fn new(id: impl Into<String>, lower: Clock, upper: Clock, size: Bytes) -> Buffer {
        Buffer {
            id: id.into(),
            lower,
            upper,
            size,
            offset: None,
        }
    }
}

/// A free placement problem: buffers placed anywhere in one arena. The strategies
/// solve these; Aidge plans are re-optimized as one buffer per memory space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct BufferList {
    pub buffers: Vec<Buffer>,
    /// Capacity to fit in, when the data set states one (MiniMalloc file names do).
    #[serde(default)]
    pub capacity: Option<Bytes>,
}

#[cfg(test)]
impl Plan {
    /// A test's plan of buffers `(lower, upper, size, offset)`, named `b0`, `b1`…
    pub(crate) fn of_buffers(items: &[(Clock, Clock, Bytes, Bytes)]) -> Plan {
        let buffers = items
            .iter()
            .enumerate()
            .map(|(i, &(lower, upper, size, _))| Buffer::new(format!("b{i}"), lower, upper, size))
            .collect();
        let offsets: Vec<Bytes> = items.iter().map(|i| i.3).collect();
        BufferList {
            buffers,
            capacity: None,
        }
        .to_plan(&offsets)
    }
}

impl BufferList {
    /// The plan of this list with the given offsets (one per buffer, in order): each
    /// buffer becomes one space holding one plane, so the checker and the chart treat
    /// buffer lists and Aidge plans alike. Steps are the clocks `0..max upper`, or
    /// only the clocks where a buffer starts when the horizon dwarfs the list: a
    /// 30-byte file with a clock of 2^24 must not cost 2^24 steps.
    pub fn to_plan(&self, offsets: &[Bytes]) -> Plan {
        let horizon = self.buffers.iter().map(|b| b.upper).max().unwrap_or(0);
        let starts: Vec<Clock> = if (horizon as usize) <= 4 * self.buffers.len() + 1024 {
            (0..horizon).collect()
        } else {
            let mut starts: Vec<Clock> = self.buffers.iter().map(|b| b.lower).collect();
            starts.sort_unstable();
            starts.dedup();
            starts
        };
        let steps = starts
            .iter()
            .map(|&t| Step {
                name: t.to_string(),
                kind: String::new(),
                clock: Some(t),
            })
            .collect();
        let mut per_step = vec![0usize; starts.len()];
        let mut spaces = Vec::with_capacity(self.buffers.len());
        let mut planes = Vec::with_capacity(self.buffers.len());
        for (i, (b, &offset)) in self.buffers.iter().zip(offsets).enumerate() {
            let last = b.upper.saturating_sub(1).max(b.lower);
            spaces.push(Space {
                offset,
                size: b.size,
                allocated: b.lower,
                released: Some(last),
                has_deps: false,
                component: 0,
            });
            let node = starts.binary_search(&b.lower).unwrap_or(0);
            let index = per_step.get(node).copied().unwrap_or(0);
            if let Some(n) = per_step.get_mut(node) {
                *n += 1;
            }
            planes.push(Plane {
                node,
                index,
                space: i,
                allocated: b.lower,
                offset: 0,
                size: b.size,
                stride: b.size,
                length: 1,
                count: 1,
                cont_offset: offset,
                cont_size: b.size,
                wrap_offset: offset,
                wrap_size: 0,
                label: Some(b.id.clone()),
                tensor: None,
            });
        }
        Plan {
            steps,
            components: vec![Component::default()],
            spaces,
            planes,
            max_lifetime: horizon.saturating_sub(1),
            alignment: 1,
            reordered: false,
        }
    }
}

impl Plan {
    /// The placement problem of this plan's memory spaces: one buffer per space, live
    /// from its allocation to its last live clock. Re-optimizing a plan moves whole
    /// spaces, so in-place and wrap-around sharing inside a space stays valid.
    pub fn space_problem(&self) -> BufferList {
        let buffers = self
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| Buffer {
                id: i.to_string(),
                lower: s.allocated,
                upper: s.last_live(self.max_lifetime).saturating_add(1),
                size: s.size,
                offset: Some(s.offset),
            })
            .collect();
        BufferList {
            buffers,
            capacity: None,
        }
    }
}
