//! What the chart needs from a plan, computed once per file: the rectangles in data
//! units (clock × address), one lane per memory component, the checker's findings,
//! and the numbers of the stats panel, and the clock index over the parts. Immutable
//! once made (private fields; a change is a new chart, made by a constructor that
//! checks the chart's invariant): what frames keep between them (occupancy tiles) is the renderer's
//! ([`super::render::Renderer`]). Views and frames are cheap on top of this.

use super::palette;
use crate::check::{self, Report};
use crate::formats::words::{self, Words};
use crate::model::{Bytes, Clock, Plan, Step, AIDGE_DEFAULT_CAPACITY};
use crate::stats::{self, Stats};
use std::borrow::Cow;

/// Parts per block of the clock index.
const BLOCK: usize = 128;

/// One drawn piece of a plane: its contiguous part, or the wrapped part that
/// continues at the start of its space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub plane: usize,
    /// True for the wrapped part (drawn at the start of the space).
    pub wrapped: bool,
    /// Index into [`Chart::lanes`].
    pub lane: usize,
    /// First clock, and one past the plane's last live clock (the chart draws
    /// `[allocated, last_live + 1)`, [`Plan::plane_last_lives`]).
    pub t0: Clock,
    pub t1: u64,
    /// Absolute address range `[a0, a1)`, cut at the lane's extent.
    pub a0: Bytes,
    pub a1: Bytes,
}

/// One memory component shown as its own band of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    pub component: usize,
    pub name: String,
    pub peak: Bytes,
    pub lower_bound: Bytes,
    /// Highest address drawn (the peak, or beyond it for a broken plan, up to twice
    /// the peak); never 0.
    pub extent: Bytes,
    /// Live bytes per clock as `(clock, bytes from then on)` runs.
    pub live: Vec<(Clock, Bytes)>,
    pub max_live: Bytes,
    /// The component's capacity when the file states one (drawn as a line).
    pub capacity: Option<Bytes>,
}

impl Lane {
    /// Makes room for the capacity line: a capacity near the peak is in the fitted
    /// view, over or under it; a nominal one far above (Aidge's 1e9-byte default)
    /// would flatten the plan, so it is only drawn when zoomed out to it.
    fn fit_capacity(&mut self) {
        if let Some(c) = self.capacity.filter(|&c| c / 2 <= self.extent) {
            self.extent = self.extent.max(c);
        }
    }
}

/// A plan prepared for drawing. Its fields are private so that its invariant holds:
/// every per-plane array (`flagged`, `covered_from`, `producer`, `last_live`,
/// `colors`) has one entry per plane of `plan`, every part's lane is in `lanes`, and
/// the part index is of `parts`. Only its constructors make one, and they check it
/// ([`Chart::checked`]); a change (a capacity, the compare view's colours and scale)
/// is a new chart.
#[derive(Debug, Clone)]
pub struct Chart {
    plan: Plan,
    stats: Stats,
    report: Report,
    lanes: Vec<Lane>,
    /// Parts in drawing order: by allocation clock, then plane; later planes of an
    /// in-place chain are drawn over earlier ones, as in Aidge's plots.
    parts: Vec<Part>,
    /// One past the last clock.
    horizon: u64,
    /// Per plane: named by a checker finding.
    flagged: Vec<bool>,
    /// Per plane: the clock where a later plane of its space starts covering it,
    /// which bounds where its label can be read.
    covered_from: Vec<u64>,
    /// Per plane: its writer is a producer (weights, inputs), drawn hatched.
    producer: Vec<bool>,
    /// Per plane: its last live clock ([`Plan::plane_last_lives`]), which its details
    /// tell (computed once: a table of a plane's details must not cost a pass over
    /// every plane per row).
    last_live: Vec<Clock>,
    /// Level of detail: parts by clock, so a frame or a hover visits what is in view.
    lod_index: PartIndex,
    /// Per plane, the palette key of its fill, when not its node: the compare view
    /// gives B's planes the node of their pair in A, so a buffer has one colour in both.
    colors: Option<Vec<usize>>,
    /// The plan's lower bound is its layout's only (a plan of a schedule, whose other
    /// layouts can need fewer bytes): drawn and listed as "Layout bound".
    layout_bound: bool,
    /// What the file's format calls things ([`Chart::with_words`]).
    words: &'static Words,
    /// `(clock, step)` of every step with a clock, by clock (the first step of a
    /// clock first): what runs at a clock ([`Chart::step_at`]).
    clock_steps: Vec<(Clock, usize)>,
    /// The start most plane names share ([`dominant_prefix`]), which labels leave out.
    name_prefix: String,
}

/// What separates the tokens of a framework's names (`layer1_0/conv1`, `a.b;c:0`).
pub const SEPARATORS: [char; 6] = ['/', '_', '.', ';', ':', '-'];

/// Plane names looked at for their [`dominant_prefix`], at most (evenly spread).
const PREFIX_SAMPLE: usize = 2048;

/// The longest start, whole tokens ending in a separator, that at least half of
/// `names` share with something left after it: `functional_3_1/` of a TFLite model's
/// tensors, `aten_` of ExecuTorch's nodes; empty when none (`layer1_…`, `layer2_…`).
/// Built a token at a time: the next token most of the names with the start so far
/// share.
pub fn dominant_prefix(names: &[&str]) -> String {
    let mut prefix = String::new();
    loop {
        let mut counts: std::collections::HashMap<&str, usize> = Default::default();
        for n in names {
            let Some(rest) = n.strip_prefix(prefix.as_str()) else {
                continue;
            };
            if let Some(end) = rest.find(SEPARATORS) {
                if end + 1 < rest.len() {
                    *counts.entry(&rest[..=end]).or_default() += 1;
                }
            }
        }
        let best = counts
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)));
        match best {
            Some((token, n)) if n * 2 >= names.len() && n > 1 => prefix.push_str(token),
            _ => return prefix,
        }
    }
}

impl Chart {
    /// Prepares `plan`, computing its stats and checker report.
    pub fn new(plan: Plan) -> Chart {
        let stats = stats::stats(&plan);
        let report = check::check(&plan);
        Chart::with(plan, stats, report)
    }

    /// Prepares `plan` with its [`stats::stats`] and [`check::check`] computed
    /// elsewhere: the page's worker sends them with the plan
    /// ([`crate::formats::wire`]), as they are most of the work for a big plan. The
    /// rest is linear in the plan and allocates nothing per plane.
    pub fn with(plan: Plan, stats: Stats, report: Report) -> Chart {
        let (mut lanes, lane_of) = lanes(&plan, &stats);
        let horizon = u64::from(plan.max_lifetime) + 1;
        let last_live = plan.plane_last_lives();
        let mut parts = parts(&plan, &lane_of, &last_live);
        // Keys are unique, so an unstable sort gives the same order; plans usually
        // list planes by allocation, which the check finds in one pass.
        let key = |q: &Part| (q.t0, q.plane, q.wrapped);
        if !parts.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
            parts.sort_unstable_by_key(key);
        }
        // A part that leaves its space far above the peak (auto-concat's wrapped sizes
        // end past 2^64) would crush the rest of the plan into one row: a lane shows at
        // most twice its peak, and such parts are drawn up to that edge (the checker's
        // finding and the plane's details give their exact range).
        let caps: Vec<Bytes> = lanes
            .iter()
            .map(|l| l.peak.max(l.max_live).max(1).saturating_mul(2))
            .collect();
        for q in &mut parts {
            let lane = &mut lanes[q.lane];
            (q.a0, q.a1) = (q.a0.min(caps[q.lane]), q.a1.min(caps[q.lane]));
            lane.extent = lane.extent.max(q.a1);
        }
        for lane in &mut lanes {
            lane.extent = lane.extent.max(lane.peak).max(lane.max_live).max(1);
            lane.fit_capacity();
        }
        let mut flagged = vec![false; plan.planes.len()];
        for pr in &report.problems {
            for &p in &pr.planes {
                if let Some(f) = flagged.get_mut(p) {
                    *f = true;
                }
            }
        }
        let producer_step: Vec<bool> = plan.steps.iter().map(|s| s.kind == "Producer").collect();
        let producer = plan
            .planes
            .iter()
            .map(|p| producer_step.get(p.node).copied().unwrap_or(false))
            .collect();
        let covered_from = covered_from(&plan, &parts);
        let lod_index = PartIndex::new(&plan, &parts);
        let mut clock_steps: Vec<(Clock, usize)> = plan
            .steps
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((s.clock?, i)))
            .collect();
        if !clock_steps.windows(2).all(|w| w[0] <= w[1]) {
            clock_steps.sort_unstable();
        }
        let name_prefix = {
            let n = plan.planes.len();
            let every = n.div_ceil(PREFIX_SAMPLE).max(1);
            let names: Vec<Cow<str>> = (0..n)
                .step_by(every)
                .map(|i| plane_name(&plan, i))
                .collect();
            let names: Vec<&str> = names.iter().map(|n| n.as_ref()).collect();
            dominant_prefix(&names)
        };
        Chart {
            plan,
            stats,
            report,
            lanes,
            parts,
            horizon: horizon.max(1),
            flagged,
            covered_from,
            producer,
            last_live,
            lod_index,
            colors: None,
            layout_bound: false,
            words: &words::MEMPLAN,
            clock_steps,
            name_prefix,
        }
        .checked()
    }

    /// `self`, after checking the invariant every constructor keeps (see [`Chart`]).
    /// A failure is memplan's bug, never the input's: every array is computed here
    /// from the plan.
    fn checked(self) -> Chart {
        let n = self.plan.planes.len();
        let per_plane = [
            ("flagged", self.flagged.len()),
            ("covered_from", self.covered_from.len()),
            ("producer", self.producer.len()),
            ("last_live", self.last_live.len()),
            ("colors", self.colors.as_ref().map_or(n, Vec::len)),
        ];
        for (what, len) in per_plane {
            assert_eq!(len, n, "Chart::{what} has {len} entries for {n} planes");
        }
        assert!(
            self.parts
                .iter()
                .all(|q| q.lane < self.lanes.len() && q.plane < n),
            "a part outside the chart's lanes or planes"
        );
        assert_eq!(self.lod_index.tile_value.len(), self.parts.len());
        self
    }

    /// The plan drawn.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The plan's stats ([`stats::stats`]).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The plan's checker report ([`check::check`]).
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// One lane per memory component that holds a space (and always the first).
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// Parts in drawing order: by allocation clock, then plane; later planes of an
    /// in-place chain are drawn over earlier ones, as in Aidge's plots.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// One past the last clock.
    pub fn horizon(&self) -> u64 {
        self.horizon
    }

    /// Whether plane `i` is named by a checker finding.
    pub fn flagged(&self, i: usize) -> bool {
        self.flagged.get(i).copied().unwrap_or(false)
    }

    /// The clock where a later plane of plane `i`'s space starts covering it, which
    /// bounds where its label can be read.
    pub fn covered_from(&self, i: usize) -> u64 {
        self.covered_from.get(i).copied().unwrap_or(u64::MAX)
    }

    /// Whether plane `i`'s writer is a producer (weights, inputs), drawn hatched.
    pub fn producer(&self, i: usize) -> bool {
        self.producer.get(i).copied().unwrap_or(false)
    }

    /// Plane `i`'s last live clock ([`Plan::plane_last_lives`]).
    pub fn last_live(&self, i: usize) -> Clock {
        self.last_live.get(i).copied().unwrap_or(0)
    }

    /// The clock index over [`Chart::parts`].
    pub fn lod_index(&self) -> &PartIndex {
        &self.lod_index
    }

    /// The same chart with the fill of plane `i` keyed by `key(i)` instead of its node
    /// (the compare view gives B's planes the node of their pair in A).
    pub fn recolored(mut self, key: impl Fn(usize) -> usize) -> Chart {
        self.colors = Some((0..self.plan.planes.len()).map(key).collect());
        self.checked()
    }

    /// The same chart drawn on a scale of `horizon` clocks (at least its own) and, per
    /// lane, `extents` bytes (at least its own): two charts given one scale draw the
    /// same clocks and bytes at the same pixels ([`super::compare::on_one_scale`]).
    pub fn rescaled(mut self, horizon: u64, extents: &[Bytes]) -> Chart {
        self.horizon = self.horizon.max(horizon);
        for (lane, &e) in self.lanes.iter_mut().zip(extents) {
            lane.extent = lane.extent.max(e);
        }
        self.checked()
    }

    /// Display name of plane `i` ([`plane_name`]).
    pub fn name(&self, i: usize) -> Cow<'_, str> {
        plane_name(&self.plan, i)
    }

    /// The start most plane names share ([`dominant_prefix`]): labels leave it out.
    pub fn name_prefix(&self) -> &str {
        &self.name_prefix
    }

    /// True when lanes carry a title (name and peak) above their chart: several
    /// memories, or one with a name of its own (a single Aidge memory is `mem`).
    pub fn titled(&self) -> bool {
        self.lanes.len() > 1 || self.lanes.first().is_some_and(|l| l.name != "mem")
    }

    /// The palette key of plane `i`'s fill: its node, or [`Chart::colors`]'s.
    pub fn color_key(&self, i: usize) -> usize {
        match self.colors.as_ref().and_then(|c| c.get(i)) {
            Some(&k) => k,
            None => self.plan.planes.get(i).map_or(0, |p| p.node),
        }
    }

    /// Display name of step `step` ([`step_name`]).
    pub fn step_name(&self, step: usize) -> Cow<'_, str> {
        step_name(&self.plan, step)
    }

    /// The same chart with lane `lane` showing `capacity` (a buffer list's, from a
    /// MiniMalloc file name: shown, not enforced, as the checker would flag every
    /// space above it). The plan drawn records it as its component's capacity, so
    /// what is made of the plan shown (an export, a link's plan) keeps it.
    pub fn with_capacity(mut self, lane: usize, capacity: Bytes) -> Chart {
        if let Some(l) = self.lanes.get_mut(lane) {
            l.capacity = Some(capacity);
            l.fit_capacity();
            if let Some(c) = self.plan.components.get_mut(l.component) {
                c.capacity = Some(capacity);
            }
        }
        self.checked()
    }

    /// The same chart with its bound named for what it is, the bound of this plan's
    /// layout (`planning::BoundScope::Layout`: a schedule's plan, which another layout
    /// can beat), not a lower bound over every plan.
    pub fn with_layout_bound(mut self) -> Chart {
        self.layout_bound = true;
        self
    }

    /// The same chart with its bounds lowered to `floor` ([`Stats::floored`]): the
    /// bound over every layout of a schedule (`planning::BoundScope::Layouts`), which
    /// the line, the panel and the efficiency then show instead of this layout's.
    pub fn with_floor(mut self, floor: Bytes) -> Chart {
        self.stats = self.stats.floored(floor);
        for l in &mut self.lanes {
            l.lower_bound = l.lower_bound.min(floor);
        }
        self.layout_bound = false;
        self
    }

    /// The same chart in the words of the file's format
    /// ([`crate::formats::Document::words`]): memplan's own until told.
    pub fn with_words(mut self, words: &'static Words) -> Chart {
        self.words = words;
        self
    }

    /// What the file's format calls things.
    pub fn words(&self) -> &'static Words {
        self.words
    }

    /// The step that runs at clock `t` (the first, when several share it), if any.
    pub fn step_at(&self, t: Clock) -> Option<usize> {
        let k = self.clock_steps.partition_point(|&(c, _)| c < t);
        self.clock_steps
            .get(k)
            .filter(|&&(c, _)| c == t)
            .map(|&(_, i)| i)
    }

    /// Whether the plan's bound is its layout's only ([`Chart::with_layout_bound`]).
    pub fn layout_bound(&self) -> bool {
        self.layout_bound
    }

    /// The name of the plan's bound: "Lower bound", or "Layout bound"
    /// ([`Chart::with_layout_bound`]).
    pub fn bound_name(&self) -> &'static str {
        if self.layout_bound {
            "Layout bound"
        } else {
            "Lower bound"
        }
    }

    /// The parts of plane `plane` (adjacent in [`Chart::parts`], found by bisection).
    pub fn parts_of(&self, plane: usize) -> impl Iterator<Item = &Part> + '_ {
        let at = self.plan.planes.get(plane).map_or(0, |p| p.allocated);
        let start = self
            .parts
            .partition_point(|q| (q.t0, q.plane) < (at, plane));
        self.parts[start..]
            .iter()
            .take_while(move |q| q.plane == plane)
    }

    /// Case-insensitive substring search over display names and node names.
    pub fn search(&self, query: &str) -> Vec<usize> {
        let q = query.trim().to_lowercase();
        if q.is_empty() {
            return Vec::new();
        }
        (0..self.plan.planes.len())
            .filter(|&i| self.name(i).to_lowercase().contains(&q))
            .collect()
    }
}

/// Display name of plane `i` of `plan`: its label, else its node's name with the
/// output index after `#` when not 0. Made when asked for, as a million planes would
/// be a million strings up front. Never empty: Aidge logs can hold nodes without a
/// name (fused graphs), and a blank in a list or a tooltip reads as a bug, so those
/// are called `unnamed · step N · output K`, N being the step's clock (see
/// [`step_name`]).
fn plane_name(plan: &Plan, i: usize) -> Cow<'_, str> {
    let Some(p) = plan.planes.get(i) else {
        return Cow::Borrowed("?");
    };
    if let Some(l) = p.label.as_deref().filter(|l| !l.trim().is_empty()) {
        return Cow::Borrowed(l);
    }
    match plan.steps.get(p.node).map(|s| s.name.as_str()) {
        Some(node) if node.trim().is_empty() => {
            Cow::Owned(format!("{} · output {}", step_name(plan, p.node), p.index))
        }
        node => {
            let node = node.unwrap_or("?");
            if p.index == 0 {
                Cow::Borrowed(node)
            } else {
                Cow::Owned(format!("{node}#{}", p.index))
            }
        }
    }
}

/// Display name of step `step` of `plan`: its name, or `unnamed · step N` with N its
/// clock (the scheduling step on the chart's axis), not its index in the plan: the
/// same model's log (no producers) and JSON export (producers first, without a clock)
/// number their steps differently but run them at the same clocks, so one node has
/// one label in both. A step without a clock is `unnamed · producer K`.
fn step_name(plan: &Plan, step: usize) -> Cow<'_, str> {
    match plan.steps.get(step) {
        Some(s) if !s.name.trim().is_empty() => Cow::Borrowed(&s.name),
        Some(Step { clock: Some(t), .. }) => Cow::Owned(format!("unnamed · step {t}")),
        _ => Cow::Owned(format!("unnamed · producer {step}")),
    }
}

/// One lane per memory component that holds a space (and always the first), with
/// its stats; and the lane of each component (`usize::MAX` for those without one).
fn lanes(plan: &Plan, stats: &Stats) -> (Vec<Lane>, Vec<usize>) {
    let ncomp = plan.components.len().max(1);
    let mut used = vec![false; ncomp];
    used[0] = true;
    for s in &plan.spaces {
        if let Some(u) = used.get_mut(s.component) {
            *u = true;
        }
    }
    let mut lane_of = vec![usize::MAX; ncomp];
    let mut lanes = Vec::new();
    for c in (0..ncomp).filter(|&c| used[c]) {
        lane_of[c] = lanes.len();
        let cs = stats.components.get(c);
        let live = cs.map_or_else(Vec::new, |s| s.live.clone());
        let max_live = live.iter().map(|r| r.1).max().unwrap_or(0);
        lanes.push(Lane {
            component: c,
            name: cs.map_or_else(|| "mem".into(), |s| s.name.clone()),
            peak: cs.map_or(0, |s| s.peak),
            lower_bound: cs.map_or(0, |s| s.lower_bound),
            extent: 1,
            live,
            max_live,
            capacity: stated_capacity(plan, c),
        });
    }
    (lanes, lane_of)
}

/// The capacity of component `c` as a limit someone set: a lone component at Aidge's
/// default ([`AIDGE_DEFAULT_CAPACITY`]) is what every Aidge export and every schedule
/// planned as Aidge does records, not a constraint, so it is neither drawn nor judged
/// (a green "fits" under a limit nobody set reads as a check that passed).
fn stated_capacity(plan: &Plan, c: usize) -> Option<Bytes> {
    let cap = plan.components.get(c)?.capacity?;
    (plan.components.len() > 1 || cap != AIDGE_DEFAULT_CAPACITY).then_some(cap)
}

/// The parts of every plane in plan order: the contiguous one, and the wrapped one
/// of a wrapped plane, each in its component's lane.
fn parts(plan: &Plan, lane_of: &[usize], lives: &[Clock]) -> Vec<Part> {
    let ncomp = lane_of.len();
    let mut parts = Vec::with_capacity(plan.planes.len());
    for (i, p) in plan.planes.iter().enumerate() {
        let Some(space) = plan.spaces.get(p.space) else {
            continue;
        };
        let lane = lane_of[space.component.min(ncomp - 1)];
        let t1 = u64::from(lives[i]) + 1;
        let mut push = |wrapped, a0: Bytes, size: Bytes| {
            if size > 0 {
                parts.push(Part {
                    plane: i,
                    wrapped,
                    lane,
                    t0: p.allocated,
                    t1: t1.max(u64::from(p.allocated) + 1),
                    a0,
                    a1: a0.saturating_add(size),
                });
            }
        };
        push(false, p.cont_offset, p.cont_size);
        if p.is_wrapped() {
            push(true, p.wrap_offset, p.wrap_size);
        }
    }
    parts
}

/// For each plane, the first clock after its allocation at which another plane of the
/// same space, allocated later, starts to share bytes with it (in-place reuse); its
/// own end otherwise. Spaces with very many planes skip the quadratic scan.
fn covered_from(plan: &Plan, parts: &[Part]) -> Vec<u64> {
    let mut out: Vec<u64> = vec![u64::MAX; plan.planes.len()];
    for q in parts {
        out[q.plane] = out[q.plane].min(q.t1);
    }
    // Parts grouped by space (a counting sort, in drawing order within a space),
    // without a vector per space: a million spaces of one plane each are common.
    let space_of = |q: &Part| plan.planes[q.plane].space;
    let mut start = vec![0usize; plan.spaces.len() + 1];
    for q in parts {
        start[space_of(q) + 1] += 1;
    }
    let mut sum = 0;
    for v in &mut start {
        sum += *v;
        *v = sum;
    }
    let mut next = start.clone();
    let mut grouped = vec![0usize; parts.len()];
    for (k, q) in parts.iter().enumerate() {
        let s = space_of(q);
        grouped[next[s]] = k;
        next[s] += 1;
    }
    for w in start.windows(2) {
        let group = &grouped[w[0]..w[1]];
        if group.len() < 2 || group.len() > 256 {
            continue;
        }
        for &ka in group {
            let a = &parts[ka];
            for &kb in group {
                let b = &parts[kb];
                let later = b.t0 > a.t0;
                if later && b.plane != a.plane && a.a0 < b.a1 && b.a0 < a.a1 {
                    let slot = &mut out[a.plane];
                    *slot = (*slot).min(u64::from(b.t0));
                }
            }
        }
    }
    out
}

/// Blocks of consecutive parts (in drawing order) with the latest end of each.
#[derive(Debug, Clone, Default)]
pub struct PartIndex {
    block_end: Vec<u64>,
    /// Per part: its occupancy-tile value (`palette::NODES` index + 1), so building a
    /// tile ([`super::lod`]) reads the parts alone.
    tile_value: Vec<u8>,
}

impl PartIndex {
    pub fn new(plan: &Plan, parts: &[Part]) -> PartIndex {
        PartIndex {
            block_end: parts
                .chunks(BLOCK)
                .map(|b| b.iter().map(|q| q.t1).max().unwrap_or(0))
                .collect(),
            tile_value: parts
                .iter()
                .map(|q| (palette::node_index(plan.planes[q.plane].node) + 1) as u8)
                .collect(),
        }
    }

    /// Indices of the blocks that may hold a part live somewhere in `[lo, hi)`, and
    /// the number of parts that start before `hi`.
    fn blocks(
        &self,
        parts: &[Part],
        lo: f64,
        hi: f64,
    ) -> (impl DoubleEndedIterator<Item = usize> + '_, usize) {
        let end = parts.partition_point(|q| f64::from(q.t0) < hi);
        let kept = (0..end.div_ceil(BLOCK)).filter(move |&b| self.block_end[b] as f64 > lo);
        (kept, end)
    }

    /// Indices of the parts live somewhere in clocks `[lo, hi)`, in drawing order
    /// (reverse it for topmost first).
    pub fn visible<'a>(
        &'a self,
        parts: &'a [Part],
        lo: f64,
        hi: f64,
    ) -> impl DoubleEndedIterator<Item = usize> + 'a {
        let (blocks, end) = self.blocks(parts, lo, hi);
        blocks
            .flat_map(move |b| b * BLOCK..((b + 1) * BLOCK).min(end))
            .filter(move |&i| parts[i].t1 as f64 > lo)
    }

    /// The occupancy-tile value of part `k`: its node's `palette::NODES` index + 1.
    pub fn tile_value(&self, k: usize) -> u8 {
        self.tile_value[k]
    }

    /// An upper bound of `visible(lo, hi).count()`, from block counts alone.
    pub fn estimate(&self, parts: &[Part], lo: f64, hi: f64) -> usize {
        let (blocks, end) = self.blocks(parts, lo, hi);
        blocks.map(|b| ((b + 1) * BLOCK).min(end) - b * BLOCK).sum()
    }
}
