//! "Will it fit?" (issue #47): a plan placed into a device's memory map.
//!
//! [`fit`] is the one function every face calls (the CLI's `memplan fit`, Python's
//! `memplan.fit`, later the page): it plans the document with `best` in the schedule's
//! own order (so Aidge's exports, which run that order, take the plan), then decides
//! which of the plan's *spaces* live in the first, fast bank so that the slow traffic
//! is least ([`banks`]), places every bank with memplan's strategies and checks it
//! against its size, sweeps the fast size ([`Sweep`]), and puts Aidge 0.10.1's priority
//! spill (the multiple-mems driver with the map's capacities) beside it. One result
//! type, [`Fit`], serialized to JSON for the faces.
//!
//! Tiling is its second lever ([`fit_tiled`], issue #48): for an ONNX model that does
//! not fit the fast bank alone, [`crate::tiling::tile`] rewrites the first stage to run
//! patch by patch with the fast bank's size as its budget, the tiled model is fitted
//! the same way (in memplan's depth-first order: the patches one after another), and
//! the better of the two is the answer.

mod banks;
pub mod map;
#[cfg(all(feature = "onnx", not(feature = "lite")))]
mod tiled;
pub mod traffic;

pub use map::{human, Bank, MemoryMap, Preset, PRESETS};
#[cfg(all(feature = "onnx", not(feature = "lite")))]
pub use tiled::{fit_tiled, Model, Tiled};
pub use traffic::Traffic;

use crate::drivers::{self, DriverOptions};
use crate::model::{Bytes, Clock, Component, Plan};
use crate::planning::{Request, Session};
use crate::schedule::Schedule;
use crate::strategies::{replan, Budget, Strategy};
use crate::timer::Timer;
use crate::Result;
use serde::Serialize;

/// The answer in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every buffer in the first bank.
    FitsFast,
    /// Some buffers in the slower banks, every bank within its size.
    FitsWithSlow,
    /// The map cannot hold the plan.
    DoesNotFit,
}

/// One bank's use: its size and the top of the spaces placed in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BankUse {
    pub name: String,
    pub size: Bytes,
    pub peak: Bytes,
}

/// Where one tensor (a plane) goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placed {
    pub name: String,
    pub bank: String,
    /// Absolute offset in its bank.
    pub offset: Bytes,
    /// The tensor's bytes.
    pub size: Bytes,
    /// The plan's space it belongs to (moved whole with its other planes).
    pub space: usize,
}

/// Why a plan does not fit: the clock where it overflows and what is live there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Overflow {
    pub clock: Clock,
    /// The node that runs at that clock.
    pub node: String,
    /// The bank that overflows, when one bank's placement is the reason (the map as a
    /// whole would hold the bytes); `None` when the map's total is too small.
    pub bank: Option<String>,
    /// Bytes needed there: live bytes, or the bank's placement peak.
    pub needed: Bytes,
    /// What the map (or the bank) holds.
    pub holds: Bytes,
    /// The largest buffers live at that clock, `(name, bytes)`.
    pub live: Vec<(String, Bytes)>,
}

/// One fast size of the sweep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SweepPoint {
    /// The first bank's size.
    pub fast: Bytes,
    pub fits: bool,
    /// Each bank's peak, fastest first (a quick placement).
    pub peaks: Vec<Bytes>,
    pub slow_traffic: Traffic,
}

/// Slow traffic against fast size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sweep {
    /// The smallest first bank that holds the plan with no slow memory: memplan's
    /// best peak of it.
    pub min_fast: Bytes,
    pub points: Vec<SweepPoint>,
}

/// Aidge 0.10.1's multiple-mems driver with the map's capacities, on the same schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AidgeSpill {
    pub fits: bool,
    pub banks: Vec<BankUse>,
    pub slow_traffic: Traffic,
    /// Aidge's own refusal when its driver finds no component with room.
    pub error: Option<String>,
    /// Aidge's plan (what `memplan fit --spill aidge -o` writes).
    #[serde(skip)]
    pub plan: Option<Plan>,
}

/// Everything `fit` found. Faces print it or serialize it.
///
/// `fits`, `verdict`, `summary` and `why` are the answer: the tiled model's when
/// `lever` is `tiling`, else the model's as it is; the banks, traffic, buffers, sweep
/// and Aidge's spill are always the untiled model's (the tiled one's are in `tiling`).
#[derive(Debug, Clone, Serialize)]
pub struct Fit {
    pub fits: bool,
    pub verdict: Verdict,
    /// The verdict in a user's words ("fits 256 KiB fast + 1.7 MiB slow · 16 MiB slow
    /// traffic per inference", "does not fit: at clock 12 (Conv_3) …", "fits 2 MiB mem
    /// alone with tiling: layers conv1…layer1 in 4×4 patches, +14 % MACs …").
    pub summary: String,
    pub why: Option<Overflow>,
    /// `tiling` when the answer is the tiled model's, else `None`.
    pub lever: Option<&'static str>,
    /// The tiled model and its fit, when tiling was tried and rewrote the model.
    #[cfg(all(feature = "onnx", not(feature = "lite")))]
    pub tiling: Option<Box<Tiled>>,
    /// Why the answer is the untiled model's (it fits fast memory alone, the file is
    /// no ONNX model, no stage tiles, the tiled fit is no better), when it is.
    pub untiled_because: Option<String>,
    pub memory: MemoryMap,
    /// Fastest first.
    pub banks: Vec<BankUse>,
    pub slow_traffic: Traffic,
    /// How reads were counted: `consumers` (the schedule's data readers of each
    /// tensor) or `one-per-buffer` (a file without a schedule).
    pub reads_counted: &'static str,
    /// Whose spaces were banked: `best` (memplan's best plan), `aidge-layout` (Aidge's
    /// default layout, a space per output) or `aidge-spill` (Aidge's priority spill
    /// itself, when nothing memplan made moves less).
    pub layout: &'static str,
    pub buffers: Vec<Placed>,
    pub sweep: Sweep,
    /// `None` for a file without a schedule (Aidge's driver needs one).
    pub aidge_spill: Option<AidgeSpill>,
    /// What the figures assume.
    pub notes: Vec<String>,
    /// The plan with one component per bank (what `-o` writes).
    #[serde(skip)]
    pub plan: Plan,
    /// The schedule the plan runs.
    #[serde(skip)]
    pub schedule: Option<Schedule>,
}

impl Fit {
    /// The fit whose plan is the answer: the tiled model's when tiling was chosen.
    pub fn answer(&self) -> &Fit {
        #[cfg(all(feature = "onnx", not(feature = "lite")))]
        if let Some(t) = self.tiling.as_ref().filter(|t| t.chosen) {
            return &t.fit;
        }
        self
    }
}

/// What part of the budget each stage takes: the best plan of the whole, the bank
/// assignment and its placement, the sweep.
const PLAN_SHARE: u64 = 2;
const SHARES: u64 = 5;

/// Fits the session's document (deployed already, if the user asked) into `map`
/// within about `budget_ms` milliseconds, untiled.
pub fn fit(session: &mut Session, map: &MemoryMap, budget_ms: u64) -> Result<Fit> {
    let mut f = fit_in(session, map, budget_ms, None)?;
    f.untiled_because = Some("tiling rewrites an ONNX model, and this file is none".into());
    Ok(f)
}

/// One fit. `tiled` is the lever's words for a tiled model's fit, whose plan may run
/// the branches in other (depth-first) orders: its small peak is the patch-by-patch
/// order. A model as it is keeps its schedule's own order, which Aidge's exports run.
pub(crate) fn fit_in(
    session: &mut Session,
    map: &MemoryMap,
    budget_ms: u64,
    tiled: Option<&str>,
) -> Result<Fit> {
    let timer = Timer::start();
    let request = Request {
        strategy: Some(Strategy::Best),
        budget: Budget::millis((budget_ms * PLAN_SHARE / SHARES).max(1)),
        keep_order: tiled.is_none(),
        ..Request::default()
    };
    let (mut base, _) = session.plan(&request)?;
    let schedule = session.schedule().cloned();
    if base.components.len() > 1 {
        // A plan of several memories (an Aidge multiple-mems export) is first one arena.
        for s in base.spaces.iter_mut() {
            s.component = 0;
        }
        base.components.truncate(1);
        base = replan(&base, Strategy::Best, &Budget::millis(budget_ms / SHARES))?;
    }
    let min_fast = base.peak();
    let caps: Vec<Bytes> = map.banks.iter().map(|b| b.size).collect();
    let components: Vec<Component> = map
        .banks
        .iter()
        .enumerate()
        .map(|(i, b)| Component {
            name: b.name.clone(),
            capacity: Some(b.size),
            priority: i as i64,
        })
        .collect();
    let layouts = Layouts::of(base.clone(), schedule.as_ref())?;
    let step_ms = (budget_ms / SHARES).max(1);
    let (plan, layout) = layouts.bank(&components, step_ms)?;
    let fits = within(&plan, &caps);
    let all_fast = plan.spaces.iter().all(|s| s.component == 0);
    let verdict = match (fits, all_fast) {
        (true, true) => Verdict::FitsFast,
        (true, false) => Verdict::FitsWithSlow,
        (false, _) => Verdict::DoesNotFit,
    };
    let slow = traffic::slow_traffic(&plan, schedule.as_ref());
    let bank_uses = uses(&plan, map);
    let why = (!fits).then(|| overflow(&base, &plan, map));
    let summary = summary(verdict, &bank_uses, slow, why.as_ref(), tiled.unwrap_or(""));
    let spent = timer.elapsed_ms();
    let sweep_ms = budget_ms.saturating_sub(spent).max(1);
    let sweep = sweep(&layouts, &components, sweep_ms, (caps[0], &plan))?;
    let aidge_spill = schedule.as_ref().map(|s| aidge_spill(s, map, &components));
    let reads_counted = match schedule {
        Some(_) => "consumers",
        None => "one-per-buffer",
    };
    let order = match tiled {
        None => "made in the schedule's own order, with no tiling",
        Some(_) => {
            "of the tiled model, made in memplan's order (the patches run one after \
             another, depth first), which aidge-export-cpp 0.10.1's forward pass does not \
             yet run: it runs the scheduler's order, whose peak is higher"
        }
    };
    let mut notes = vec![format!(
        "memplan moves whole spaces of a plan {order} (in-place and wrap-around sharing \
         inside a space is kept), and checks each bank by an actual placement. The best \
         peak, {}, counts the tensors the plan holds: the model's input, fed from outside, \
         and its weights are not in it",
        human(min_fast)
    )];
    if schedule.is_none() {
        notes.push(
            "the file has no schedule: each buffer in a slow bank is counted as read once \
             per inference, and Aidge's priority spill (which needs the schedule) is not shown"
                .into(),
        );
    }
    if let Some(src) = map.source {
        notes.push(format!("{}: {src}", map.preset.unwrap_or("preset")));
    }
    Ok(Fit {
        fits,
        verdict,
        summary,
        why,
        lever: None,
        #[cfg(all(feature = "onnx", not(feature = "lite")))]
        tiling: None,
        untiled_because: None,
        memory: map.clone(),
        banks: bank_uses,
        slow_traffic: slow,
        reads_counted,
        layout,
        buffers: placed(&plan, map),
        sweep,
        aidge_spill,
        notes,
        plan,
        schedule,
    })
}

/// The layouts whose spaces are banked: memplan's best plan (its spaces hold several
/// planes where in-place or wrap-around reuse lets them), and, for a schedule, Aidge's
/// default layout (a space per output but in-place ones), finer to spill; and Aidge's
/// priority spill itself. The banking with the least slow traffic among those that fit
/// is kept, so memplan's placement never moves more than Aidge's.
struct Layouts<'a> {
    schedule: Option<&'a Schedule>,
    plans: Vec<Layout>,
}

struct Layout {
    name: &'static str,
    plan: Plan,
    items: Vec<banks::Item>,
}

impl<'a> Layouts<'a> {
    fn of(base: Plan, schedule: Option<&'a Schedule>) -> Result<Layouts<'a>> {
        let mut plans = vec![Layout::of("best", base, schedule)];
        if let Some(s) = schedule {
            let aidge = drivers::generate(s, &DriverOptions::default())?;
            plans.push(Layout::of("aidge-layout", aidge, schedule));
        }
        Ok(Layouts { schedule, plans })
    }

    /// The best plan's peak: the smallest first bank that holds everything.
    fn min_fast(&self) -> Bytes {
        self.plans[0].plan.peak()
    }

    /// The banked plan with the least slow traffic among those that fit (the first
    /// candidate when none fits), and the name of its layout.
    fn bank(&self, components: &[Component], millis: u64) -> Result<(Plan, &'static str)> {
        let caps: Vec<Bytes> = components.iter().map(|c| c.capacity.unwrap_or(0)).collect();
        let share = (millis / self.plans.len() as u64).max(1);
        let mut found: Vec<(Plan, &'static str)> = Vec::new();
        for l in &self.plans {
            found.push((into_banks(l, &caps, components, share)?, l.name));
            if found[0].0.spaces.iter().all(|s| s.component == 0) && within(&found[0].0, &caps) {
                // Everything fits in the fast bank: nothing to spill better.
                break;
            }
        }
        if let Some(s) = self.schedule {
            let opts = DriverOptions {
                components: components.to_vec(),
                ..DriverOptions::default()
            };
            if let Ok(p) = drivers::generate(s, &opts) {
                found.push((p, "aidge-spill"));
            }
        }
        let key = |p: &Plan| {
            (
                !within(p, &caps),
                traffic::slow_traffic(p, self.schedule).total,
            )
        };
        let best = (0..found.len())
            .min_by_key(|&i| (key(&found[i].0), i))
            .unwrap_or(0);
        Ok(found.swap_remove(best))
    }
}

impl Layout {
    fn of(name: &'static str, plan: Plan, schedule: Option<&Schedule>) -> Layout {
        let costs = traffic::space_costs(&plan, schedule);
        let sums: Vec<Bytes> = costs.iter().map(|&(w, r)| w.saturating_add(r)).collect();
        Layout {
            name,
            items: banks::items(&plan, &sums),
            plan,
        }
    }
}

/// A layout (one arena) placed into banks of `caps`: all in the first when its peak
/// fits there, else the spaces assigned by [`banks::assign`] and each bank placed by
/// `best` (or by the quick placement, where only that one fits).
fn into_banks(l: &Layout, caps: &[Bytes], components: &[Component], millis: u64) -> Result<Plan> {
    let (base, items) = (&l.plan, &l.items);
    let mut p = Plan {
        components: components.to_vec(),
        ..base.clone()
    };
    for s in p.spaces.iter_mut() {
        s.component = 0;
    }
    if base.peak() <= caps[0] {
        return Ok(p);
    }
    let bank = banks::assign(items, caps, millis / 2)?;
    for (s, &b) in p.spaces.iter_mut().zip(&bank) {
        s.component = b;
    }
    let placed = replan(&p, Strategy::Best, &Budget::millis((millis / 2).max(1)))?;
    if within(&placed, caps) {
        return Ok(placed);
    }
    let quick = banks::place_quick(&p, items)?;
    Ok(if within(&quick, caps) { quick } else { placed })
}

/// Every bank's peak within its size (and no space in a bank the map lacks).
fn within(plan: &Plan, caps: &[Bytes]) -> bool {
    plan.spaces.iter().all(|s| s.component < caps.len())
        && plan.peaks().iter().zip(caps).all(|(p, c)| p <= c)
}

fn uses(plan: &Plan, map: &MemoryMap) -> Vec<BankUse> {
    let peaks = plan.peaks();
    map.banks
        .iter()
        .enumerate()
        .map(|(i, b)| BankUse {
            name: b.name.clone(),
            size: b.size,
            peak: peaks.get(i).copied().unwrap_or(0),
        })
        .collect()
}

/// A plane's name: its label, or its node's name (with the output index past the first).
fn plane_name(plan: &Plan, k: usize) -> String {
    let p = &plan.planes[k];
    if let Some(l) = &p.label {
        return l.clone();
    }
    let node = plan
        .steps
        .get(p.node)
        .map_or_else(|| format!("node {}", p.node), |s| s.name.clone());
    match p.index {
        0 => node,
        i => format!("{node}#{i}"),
    }
}

fn placed(plan: &Plan, map: &MemoryMap) -> Vec<Placed> {
    (0..plan.planes.len())
        .map(|k| {
            let p = &plan.planes[k];
            let comp = plan.spaces.get(p.space).map_or(0, |s| s.component);
            Placed {
                name: plane_name(plan, k),
                bank: map
                    .banks
                    .get(comp)
                    .map_or_else(|| format!("component {comp}"), |b| b.name.clone()),
                offset: p.cont_offset,
                size: traffic::plane_bytes(p),
                space: p.space,
            }
        })
        .collect()
}

/// The name of the node that runs at clock `t`.
fn node_at(plan: &Plan, t: Clock) -> String {
    plan.steps
        .iter()
        .find(|s| s.clock == Some(t))
        .map_or_else(|| format!("clock {t}"), |s| s.name.clone())
}

/// The largest buffers of `component` live at `t`.
fn live_names(plan: &Plan, component: usize, t: Clock) -> Vec<(String, Bytes)> {
    crate::stats::live_at(plan, component, t)
        .into_iter()
        .take(5)
        .map(|l| {
            let name = l
                .planes
                .last()
                .map_or_else(|| format!("space {}", l.space), |&k| plane_name(plan, k));
            (name, l.size)
        })
        .collect()
}

/// The fullest clock of a component and its live bytes.
fn fullest(plan: &Plan, component: usize) -> (Clock, Bytes) {
    let live = crate::stats::live_bytes(plan, component);
    live.iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
        .map_or((0, 0), |(t, &b)| (t as Clock, b))
}

/// Why `plan` (banked) does not fit `map`: the map is too small where the base plan is
/// fullest, or a bank's placement overflows it.
fn overflow(base: &Plan, plan: &Plan, map: &MemoryMap) -> Overflow {
    let (t, live) = fullest(base, 0);
    if live > map.total() {
        return Overflow {
            clock: t,
            node: node_at(base, t),
            bank: None,
            needed: live,
            holds: map.total(),
            live: live_names(base, 0, t),
        };
    }
    let peaks = plan.peaks();
    let b = (0..map.banks.len())
        .find(|&b| peaks.get(b).is_some_and(|&p| p > map.banks[b].size))
        .unwrap_or(map.banks.len() - 1);
    let (t, _) = fullest(plan, b);
    Overflow {
        clock: t,
        node: node_at(plan, t),
        bank: Some(map.banks[b].name.clone()),
        needed: peaks.get(b).copied().unwrap_or(0),
        holds: map.banks[b].size,
        live: live_names(plan, b, t),
    }
}

/// The verdict in words; `lever` (` with tiling: …`, or empty) follows "fits …" or
/// "does not fit".
fn summary(
    verdict: Verdict,
    banks: &[BankUse],
    slow: Traffic,
    why: Option<&Overflow>,
    lever: &str,
) -> String {
    match (verdict, why) {
        (Verdict::FitsFast, _) => format!(
            "fits {} {} alone{lever} (peak {}) · no slow traffic",
            human(banks[0].size),
            banks[0].name,
            human(banks[0].peak)
        ),
        (Verdict::FitsWithSlow, _) => {
            let used: Vec<String> =
                std::iter::once(format!("{} {}", human(banks[0].size), banks[0].name))
                    .chain(
                        banks[1..]
                            .iter()
                            .filter(|b| b.peak > 0)
                            .map(|b| format!("{} {}", human(b.peak), b.name)),
                    )
                    .collect();
            let slow_names: Vec<&str> = banks[1..]
                .iter()
                .filter(|b| b.peak > 0)
                .map(|b| b.name.as_str())
                .collect();
            format!(
                "fits {}{lever} · {} {} traffic per inference ({} written, {} read)",
                used.join(" + "),
                human(slow.total),
                slow_names.join("+"),
                human(slow.written),
                human(slow.read)
            )
        }
        (_, Some(o)) => {
            let live: Vec<String> = o
                .live
                .iter()
                .map(|(n, b)| format!("{n} {}", human(*b)))
                .collect();
            let what = match &o.bank {
                None => format!(
                    "{} are live, the whole map holds {}",
                    human(o.needed),
                    human(o.holds)
                ),
                Some(b) => format!(
                    "bank {b} needs {} and holds {} (its buffers do not pack without gaps)",
                    human(o.needed),
                    human(o.holds)
                ),
            };
            format!(
                "does not fit{lever}: at clock {} ({}) {what}: {} too many; live there: {}",
                o.clock,
                o.node,
                human(o.needed.saturating_sub(o.holds)),
                live.join(", ")
            )
        }
        (_, None) => format!("does not fit{lever}"),
    }
}

/// The fast sizes of the sweep: powers of two in KiB from about an eighth of the best
/// peak to the first at or above it, and the map's own fast size.
fn sweep_sizes(min_fast: Bytes, fast: Bytes) -> Vec<Bytes> {
    let kib = 1024u64;
    let mut lo = kib;
    while lo.saturating_mul(2) <= min_fast / 8 {
        lo *= 2;
    }
    let mut sizes = vec![fast];
    let mut s = lo;
    loop {
        sizes.push(s);
        if s >= min_fast || s > u64::MAX / 2 {
            break;
        }
        s *= 2;
    }
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

fn sweep(
    layouts: &Layouts,
    components: &[Component],
    millis: u64,
    (fast, placed): (Bytes, &Plan),
) -> Result<Sweep> {
    let min_fast = layouts.min_fast();
    let sizes = sweep_sizes(min_fast, fast);
    let share = (millis / sizes.len() as u64).max(1);
    let mut points = Vec::with_capacity(sizes.len());
    for size in sizes {
        let mut comps = components.to_vec();
        comps[0].capacity = Some(size);
        let caps: Vec<Bytes> = comps.iter().map(|c| c.capacity.unwrap_or(0)).collect();
        // The map's own size is the fit's own placement.
        let plan = match size == fast {
            true => placed.clone(),
            false => layouts.bank(&comps, share)?.0,
        };
        let mut peaks = plan.peaks();
        peaks.resize(caps.len(), 0);
        points.push(SweepPoint {
            fast: size,
            fits: within(&plan, &caps),
            peaks,
            slow_traffic: traffic::slow_traffic(&plan, layouts.schedule),
        });
    }
    Ok(Sweep { min_fast, points })
}

fn aidge_spill(schedule: &Schedule, map: &MemoryMap, components: &[Component]) -> AidgeSpill {
    let opts = DriverOptions {
        components: components.to_vec(),
        ..DriverOptions::default()
    };
    match drivers::generate(schedule, &opts) {
        Ok(p) => {
            let caps: Vec<Bytes> = map.banks.iter().map(|b| b.size).collect();
            AidgeSpill {
                fits: within(&p, &caps),
                banks: uses(&p, map),
                slow_traffic: traffic::slow_traffic(&p, Some(schedule)),
                error: None,
                plan: Some(p),
            }
        }
        Err(e) => AidgeSpill {
            fits: false,
            banks: map
                .banks
                .iter()
                .map(|b| BankUse {
                    name: b.name.clone(),
                    size: b.size,
                    peak: 0,
                })
                .collect(),
            slow_traffic: Traffic::default(),
            error: Some(e.message),
            plan: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_spans_an_eighth_of_the_peak_to_the_peak_and_the_maps_size() {
        let s = sweep_sizes(1_000_000, 300 * 1024);
        assert_eq!(s.first(), Some(&(64 * 1024)));
        assert_eq!(s.last(), Some(&(1024 * 1024)));
        assert!(s.contains(&(300 * 1024)));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }
}
