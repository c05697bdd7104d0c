//! Placement strategies for buffer lists: give every buffer an offset so that no two
//! buffers live at the same step share a byte, with the smallest peak possible.
//!
//! - [`Strategy::GreedyBySize`]: TFLite's `ArenaPlanner` ([`Pass::TFLITE`]: largest
//!   first, earlier start on ties, best fit by gap size).
//! - [`Strategy::GreedyBySizeFirstFit`]: TFLM's `GreedyMemoryPlanner` ([`Pass::TFLM`]:
//!   largest first, the buffer listed last first on ties, first fit).
//! - [`Strategy::GreedyByConflicts`]: TVM USMP's greedy by conflicts.
//! - [`Strategy::Sweep`]: start order, best fit in a free list ([`sweep`]): O(n log n)
//!   whatever the density, for lists too dense for a greedy pass.
//! - [`Strategy::Search`]: MiniMalloc-style exact search ([`search`]) over capacities
//!   between the lower bound and the best greedy peak.
//! - [`Strategy::Best`]: anchoring at the fullest clock ([`anchor`]: a window of
//!   clocks around it solved exactly, the rest placed around it), every greedy pass
//!   ([`Pass::ALL`]), the sweep and its variant [`sweep::place_near`], iterated
//!   greedy from the best one, the local search at the peak ([`local`]), then the
//!   search, within the budget; where the search cannot run (too many buffers or
//!   pairs), repairs under lower and lower capacities ([`repair`]) instead.
//!
//! Every result is a valid placement; `proven_optimal` says when its peak is known to
//! be the smallest (it equals the lower bound, or the search proved nothing lower fits).

mod anchor;
mod bound;
mod carve;
mod greedy;
mod local;
mod repair;
mod replan;
pub(crate) mod rng;
mod search;
mod shapes;
mod sweep;

pub use greedy::{Fit, Order, Pass};
pub use replan::replan;

use crate::model::{BufferList, Bytes};
use crate::timer::Timer;
use crate::{Error, Result};
use bound::Item;
use search::{Limits, Outcome};
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A placement strategy, named on the command line as [`Strategy::name`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    GreedyBySize,
    GreedyBySizeFirstFit,
    GreedyByConflicts,
    Sweep,
    Search,
    Best,
}

impl Strategy {
    /// Every strategy, in the order the benchmark reports them.
    pub const ALL: [Strategy; 6] = [
        Strategy::GreedyBySize,
        Strategy::GreedyBySizeFirstFit,
        Strategy::GreedyByConflicts,
        Strategy::Sweep,
        Strategy::Search,
        Strategy::Best,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::GreedyBySize => "greedy-size",
            Strategy::GreedyBySizeFirstFit => "greedy-size-first-fit",
            Strategy::GreedyByConflicts => "greedy-conflicts",
            Strategy::Sweep => "sweep",
            Strategy::Search => "search",
            Strategy::Best => "best",
        }
    }

    /// What the strategy does, in a line: the help of `memplan plan --strategy`, the
    /// page's menu and `memplan.STRATEGIES` (every face shows this text).
    pub fn help(self) -> &'static str {
        match self {
            Strategy::GreedyBySize => "TFLite's greedy by size: largest first, best fit",
            Strategy::GreedyBySizeFirstFit => {
                "TFLM's GreedyMemoryPlanner: largest first, first fit"
            }
            Strategy::GreedyByConflicts => "TVM USMP's greedy by conflicts",
            Strategy::Sweep => "start order, best fit in a free list: fast on dense lists",
            Strategy::Search => "exact search between the lower bound and the best greedy peak",
            Strategy::Best => {
                "every greedy pass, anchoring, local search, then the search, within the budget"
            }
        }
    }

    /// The CLI names of every strategy.
    pub fn names() -> Vec<&'static str> {
        Strategy::ALL.iter().map(|s| s.name()).collect()
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Strategy::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                Error::whole(format!(
                    "unknown strategy `{s}`: expected one of {}",
                    Strategy::names().join(", ")
                ))
            })
    }
}

/// What a running search reports to [`Budget::progress`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub best_peak: Bytes,
    pub lower_bound: Bytes,
    pub iterations: u64,
    pub elapsed_ms: u64,
}

/// A callback told of every better peak the search finds.
pub type ProgressFn = Rc<dyn Fn(&Progress)>;

/// How long the search may run. It stops at whichever comes first: `millis` of wall
/// time, `max_nodes` search nodes (deterministic: the same input and node limit give
/// the same result on every machine), or `cancel` set to true (the page's Web Worker).
#[derive(Clone)]
pub struct Budget {
    pub millis: u64,
    pub max_nodes: u64,
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called whenever the search finds a smaller peak.
    pub progress: Option<ProgressFn>,
}

impl Budget {
    /// A budget of `millis` milliseconds and a node limit sized to take about as long
    /// on this class of machine, so the time rarely decides.
    pub fn millis(millis: u64) -> Self {
        Budget {
            millis,
            max_nodes: millis.saturating_mul(20_000).max(1),
            cancel: None,
            progress: None,
        }
    }

    /// The part of a `total_ms` wall-clock promise a planner may spend, when
    /// `spent_ms` went before it (reading the file) and about `after_ms` will go after
    /// it (checking and writing the plan): the budget is a promise for the whole
    /// command, not only for the search. The node limit stays the one of `total_ms`,
    /// so a node-bounded run gives the same plan whatever the reading took.
    pub fn whole(total_ms: u64, spent_ms: u64, after_ms: u64) -> Self {
        Budget {
            millis: total_ms.saturating_sub(spent_ms + after_ms).max(1),
            ..Budget::millis(total_ms)
        }
    }

    /// The user cancelled (the page's Cancel button).
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }
}

impl Default for Budget {
    /// Two seconds.
    fn default() -> Self {
        Budget::millis(2000)
    }
}

impl fmt::Debug for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget")
            .field("millis", &self.millis)
            .field("max_nodes", &self.max_nodes)
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.as_ref().map(|_| "Fn"))
            .finish()
    }
}

/// A strategy's answer for a buffer list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// One offset per buffer, in list order.
    pub offsets: Vec<Bytes>,
    pub peak: Bytes,
    pub lower_bound: Bytes,
    /// No placement has a smaller peak.
    pub proven_optimal: bool,
    /// The strategy whose placement this is (for [`Strategy::Best`], the winner).
    pub strategy_used: Strategy,
    pub elapsed_ms: u64,
    /// Search nodes visited (0 for the greedy strategies).
    pub iterations: u64,
    /// Buffers the budget left unplaced: it ended before the sweep, the first
    /// placement of a list too dense for a greedy pass, completed, and nothing after it
    /// did better; they sit one above the other over the rest ([`sweep::place_until`]).
    /// 0 but for a budget too short for the list.
    pub stacked: usize,
}

/// Places `list`'s buffers with `strategy` within `budget`. A buffer whose `upper` is
/// not above its `lower` occupies its `lower` step, as the checker reads it.
pub fn place(list: &BufferList, strategy: Strategy, budget: &Budget) -> Result<Placement> {
    // The clock starts before the items are read and their pairs counted (a quarter
    // of a second on IOPDDL Y_1's 62,185 buffers on a loaded machine).
    let timer = Timer::start();
    let items = bound::items(list)?;
    let lower_bound = bound::lower_bound(&items);
    let mut run = Run {
        items: &items,
        lower_bound,
        pairs: pairs(&items),
        limits: Limits {
            budget,
            timer: &timer,
            nodes: 0,
            stop_at: budget.max_nodes,
            stride: 256,
        },
        stacked: Cell::new(None),
    };
    let (offsets, used, exhausted) = match strategy {
        Strategy::GreedyBySize | Strategy::GreedyBySizeFirstFit | Strategy::GreedyByConflicts => {
            (run.greedy(strategy), strategy, false)
        }
        Strategy::Sweep => (sweep::place(&items), strategy, false),
        Strategy::Search | Strategy::Best => {
            let (start, used) = if strategy == Strategy::Search {
                (run.search_start(), Strategy::Search)
            } else {
                // Anchoring first: where it reaches the bound, no pass can be lower.
                match run.anchor() {
                    Some((offsets, peak)) if peak == lower_bound => {
                        run.report(peak);
                        (offsets, Strategy::Best)
                    }
                    anchored => {
                        let start = run.best_greedy();
                        run.report(start.peak);
                        let (offsets, used) = match anchored {
                            Some((offsets, peak)) if peak < start.peak => {
                                run.report(peak);
                                (offsets, Strategy::Best)
                            }
                            _ => run.iterate(start),
                        };
                        let (offsets, used) = run.local(offsets, used);
                        run.repair(offsets, used)
                    }
                }
            };
            let (offsets, improved, exhausted) = run.search(start, list.capacity);
            (
                offsets,
                if improved { Strategy::Search } else { used },
                exhausted,
            )
        }
    };
    let peak = bound::peak(&items, &offsets);
    // The stacked sweep is what stands when nothing after it went lower.
    let stacked = match run.stacked.get() {
        Some((n, stacked_peak)) if peak >= stacked_peak => n,
        _ => 0,
    };
    Ok(Placement {
        proven_optimal: peak == lower_bound || exhausted,
        offsets,
        peak,
        lower_bound,
        strategy_used: used,
        elapsed_ms: timer.elapsed_ms(),
        iterations: run.limits.nodes,
        stacked,
    })
}

/// Places `list` with one greedy pass (any of [`Pass::ALL`], not only the named
/// strategies'), e.g. to compare tie rules. Reports [`Strategy::Best`] as used.
pub fn place_pass(list: &BufferList, pass: Pass) -> Result<Placement> {
    let items = bound::items(list)?;
    let timer = Timer::start();
    let offsets = greedy::place_in_order(&items, &pass.order.sort(&items), pass.fit);
    Ok(finish(&items, offsets, Strategy::Best, &timer))
}

/// The placement of a list opened without offsets (what [`crate::planning::plan_buffers`]
/// uses): [`Strategy::GreedyBySize`] when a greedy pass is affordable, else
/// [`Strategy::Sweep`]. No search and no budget, so opening a file never waits on
/// one, and the same list always gets the same offsets.
pub fn place_default(list: &BufferList) -> Result<Placement> {
    let items = bound::items(list)?;
    let timer = Timer::start();
    let (offsets, used) = if greedy_affordable(&items) {
        let order = Pass::TFLITE.order.sort(&items);
        let offsets = greedy::place_in_order(&items, &order, Pass::TFLITE.fit);
        (offsets, Strategy::GreedyBySize)
    } else {
        (sweep::place(&items), Strategy::Sweep)
    };
    Ok(finish(&items, offsets, used, &timer))
}

/// Above this many pairs of overlapping lifetimes a greedy pass, which visits every
/// placed neighbour of every buffer, takes seconds (about 2 s for 10^8 pairs on the
/// bench machine); the sweep does not depend on them.
const GREEDY_PAIRS: u64 = 50_000_000;

/// Up to this many pairs a pass still ends within seconds after the sweep (IOPDDL
/// Y_1's 1.8·10^8 in 14–20 s on a loaded machine), so the first one is given the
/// time to end.
const FIRST_PASS_PAIRS: u64 = 400_000_000;

/// A greedy pass over `items` stays under [`GREEDY_PAIRS`].
fn greedy_affordable(items: &[Item]) -> bool {
    pairs(items) <= GREEDY_PAIRS
}

/// The greatest common divisor of the sizes (1 when there are none).
fn granularity(items: &[Item]) -> Bytes {
    let gcd = |mut a: Bytes, mut b: Bytes| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    items.iter().fold(0, |g, it| gcd(g, it.size)).max(1)
}

/// The number of pairs of buffers whose lifetimes overlap.
fn pairs(items: &[Item]) -> u64 {
    greedy::conflicts(items)
        .iter()
        .map(|&c| c as u64)
        .sum::<u64>()
        / 2
}

/// A placement without search: its peak, proven optimal only at the lower bound.
fn finish(items: &[Item], offsets: Vec<Bytes>, used: Strategy, timer: &Timer) -> Placement {
    let peak = bound::peak(items, &offsets);
    let lower_bound = bound::lower_bound(items);
    Placement {
        proven_optimal: peak == lower_bound,
        offsets,
        peak,
        lower_bound,
        strategy_used: used,
        elapsed_ms: timer.elapsed_ms(),
        iterations: 0,
        stacked: 0,
    }
}

/// Iterated greedy stops after this many passes in a row without a lower peak.
const STALL: u32 = 30;

/// The local search gives way to the exact search after this many moves in a row
/// without a lower peak.
const LOCAL_STALL: u32 = 20_000;

/// Above this many buffers the exact search is not tried: one of its nodes sorts all
/// the buffers, so it would spend the budget on a handful of nodes.
const SEARCH_MAX: usize = 50_000;

/// Nor above this many overlapping pairs: the search keeps every buffer's list of
/// overlapping neighbours (8 bytes a pair, 350 MB on the 28,526-buffer IOPDDL S_1's
/// 4.3·10^7 pairs) and builds it again for every capacity it tries. PanGu-2.6B has
/// 1.2·10^7.
const SEARCH_PAIRS: u64 = 20_000_000;

/// Half-widths of the windows [`Run::anchor`] tries around the fullest clock, in
/// this order (a window that does not fit at the lower bound ends the tries: the
/// wider ones contain it).
const ANCHOR_HALVES: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// Windows of more buffers than this are not solved exactly by [`Run::anchor`].
const ANCHOR_MAX: usize = 5_000;

/// The most search nodes [`Run::anchor`] spends on one window.
const ANCHOR_NODES: u64 = 200_000;

/// A greedy placement with the pass that made it (the sweep's is iterated from
/// [`Pass::TFLITE`]'s order).
struct Greedy {
    offsets: Vec<Bytes>,
    peak: Bytes,
    pass: Pass,
    used: Strategy,
}

/// One planning run's state.
struct Run<'a> {
    items: &'a [Item],
    lower_bound: Bytes,
    /// Pairs of buffers whose lifetimes overlap ([`pairs`]).
    pairs: u64,
    limits: Limits<'a>,
    /// Set when the budget stopped the sweep: how many buffers it stacked, and the
    /// peak of that placement ([`Placement::stacked`]).
    stacked: Cell<Option<(usize, Bytes)>>,
}

impl Run<'_> {
    /// The exact search is worth setting up ([`SEARCH_MAX`], [`SEARCH_PAIRS`]); where it
    /// is not, iterated greedy and the local search get its share of the budget.
    fn searchable(&self) -> bool {
        self.items.len() <= SEARCH_MAX && self.pairs <= SEARCH_PAIRS
    }

    fn greedy(&self, strategy: Strategy) -> Vec<Bytes> {
        let pass = Self::pass(strategy);
        greedy::place_in_order(self.items, &pass.order.sort(self.items), pass.fit)
    }

    /// Where [`Strategy::Search`] starts: greedy-size's placement, or the sweep's
    /// when that pass has not ended by half of the budget (205 s on a dense trace of
    /// 10^6 buffers; the sweep takes 2).
    fn search_start(&self) -> Vec<Bytes> {
        let pass = Pass::TFLITE;
        let half = self.limits.budget.millis / 2;
        let timer = self.limits.timer;
        let spent = || timer.elapsed_ms() >= half || self.limits.budget.cancelled();
        greedy::place_until(self.items, &pass.order.sort(self.items), pass.fit, spent)
            .unwrap_or_else(|| self.sweep())
    }

    /// The sweep, stopped at the budget's end (or a cancel), its rest stacked
    /// ([`sweep::place_until`]; recorded in `stacked`). Where the budget allows it, the
    /// same plan as [`sweep::place`].
    fn sweep(&self) -> Vec<Bytes> {
        let (timer, budget) = (self.limits.timer, self.limits.budget);
        let spent = || timer.elapsed_ms() >= budget.millis || budget.cancelled();
        let (offsets, stacked) = sweep::place_until(self.items, spent);
        if stacked > 0 {
            let peak = bound::peak(self.items, &offsets);
            self.stacked.set(Some((stacked, peak)));
        }
        offsets
    }

    /// The pass of a named greedy strategy (the search starts from greedy-size's).
    fn pass(strategy: Strategy) -> Pass {
        match strategy {
            Strategy::GreedyBySizeFirstFit => Pass::TFLM,
            Strategy::GreedyByConflicts => Pass::CONFLICTS,
            _ => Pass::TFLITE,
        }
    }

    /// The lowest-peak placement of every pass in [`Pass::ALL`], the sweep and
    /// [`sweep::place_near`] (earlier ones win ties; the sweeps come last). A named
    /// strategy's pass reports that strategy, the others [`Strategy::Best`]. The
    /// passes stop (a pass is dropped within 1,024 buffers) once half of the time
    /// left when they began is spent (the first one where none ended before, and no
    /// sweep, at the budget's end), so that passes of seconds each (12 passes of 6 s
    /// on IOPDDL S_1's 4.3·10^7 overlapping pairs on a loaded machine) leave the
    /// rest to the searches and the budget holds; the sweep, O(n log n), and
    /// `place_near` stop at the budget's end (the sweep stacking what it did not
    /// place: 2 s on a dense trace of 10^6 buffers, more than a short budget). With the time, every pass
    /// completes and `best` is never above any of them (a node budget never stops
    /// them). Where a greedy pass is not affordable the sweep goes first.
    fn best_greedy(&self) -> Greedy {
        let sweep_first = self.pairs > GREEDY_PAIRS;
        let timer = self.limits.timer;
        let began = timer.elapsed_ms();
        // Where the search does not run, the repair after the passes lowers the peak
        // more than another pass (IOPDDL S_1: +0.46 % against +1.58 % for the best
        // pass): the passes get a quarter of the time left, not half.
        let share = if self.searchable() { 2 } else { 4 };
        let passes_until = began + self.limits.budget.millis.saturating_sub(began) / share;
        let mut best: Option<Greedy> = None;
        // Keeps the placement if it is the lowest so far; true at the lower bound.
        let consider = |best: &mut Option<Greedy>, offsets: Vec<Bytes>, pass, used| {
            let peak = bound::peak(self.items, &offsets);
            if best.as_ref().map_or(true, |b| peak < b.peak) {
                *best = Some(Greedy {
                    offsets,
                    peak,
                    pass,
                    used,
                });
            }
            peak == self.lower_bound
        };
        // The sweep (stopped at the budget's end, its rest stacked: [`Run::sweep`]),
        // then its variant that looks at when
        // neighbours are freed ([`sweep::place_near`]: 0.1–0.3 points lower on the
        // dense synthetic traces, where the sweep is the lowest pass; 1.3 times the
        // sweep's time), which stops at the budget's end. Where the passes go first
        // it is made before them (10 ms on 10^4 buffers), else they may leave it no
        // time, and weighed after them, in the same order as the sweep. It reports
        // [`Strategy::Best`], as the passes no named strategy makes do.
        let end = self.limits.budget.millis;
        let near = || {
            let spent = || timer.elapsed_ms() >= end || self.limits.budget.cancelled();
            // Not even its sort of every buffer once the time is spent.
            (!spent())
                .then(|| sweep::place_near(self.items, spent))
                .flatten()
        };
        let early = if sweep_first { None } else { near() };
        let sweeps = |best: &mut Option<Greedy>, early: Option<Vec<Bytes>>| {
            let swept = self.sweep();
            consider(best, swept, Pass::TFLITE, Strategy::Sweep)
                || early
                    .or_else(near)
                    .is_some_and(|near| consider(best, near, Pass::TFLITE, Strategy::Best))
        };
        let mut done = sweep_first && sweeps(&mut best, None);
        // After the sweep, where a pass is still within reach (IOPDDL Y_1: 1.8·10^8
        // pairs, a pass of 14–20 s on a loaded machine), TFLM's pass goes first and
        // may run to three quarters of the budget: it ends 0.36 % above Y_1's bound,
        // the sweep 0.79 %. Denser lists (a pass of minutes) keep their time for the
        // local search.
        let reach = sweep_first && self.pairs <= FIRST_PASS_PAIRS;
        let first_until = began + self.limits.budget.millis.saturating_sub(began) / 4 * 3;
        let mut passes = Pass::ALL.to_vec();
        if reach {
            passes.retain(|&p| p != Pass::TFLM);
            passes.insert(0, Pass::TFLM);
        }
        let mut ended = false;
        for pass in passes {
            if done {
                break;
            }
            // The first pass may run to the end of the budget: on a real graph any
            // pass is far below the sweep (PanGu-2.6B: +0.76 % against +19.4 %).
            let until = match best {
                None => self.limits.budget.millis,
                Some(_) if reach && !ended => first_until,
                Some(_) => passes_until,
            };
            let spent = || timer.elapsed_ms() >= until || self.limits.budget.cancelled();
            // Not even the pass's order (a sort of every buffer, 0.2 s on 10^6) when
            // its time is already spent.
            if spent() {
                break;
            }
            let order = pass.order.sort(self.items);
            let Some(offsets) = greedy::place_until(self.items, &order, pass.fit, spent) else {
                break;
            };
            ended = true;
            let used = [
                Strategy::GreedyBySize,
                Strategy::GreedyBySizeFirstFit,
                Strategy::GreedyByConflicts,
            ]
            .into_iter()
            .find(|&s| Self::pass(s) == pass)
            .unwrap_or(Strategy::Best);
            done = consider(&mut best, offsets, pass, used);
        }
        if !sweep_first && !done {
            sweeps(&mut best, early);
        }
        best.unwrap_or(Greedy {
            offsets: Vec::new(),
            peak: 0,
            pass: Pass::TFLITE,
            used: Strategy::GreedyBySize,
        })
    }

    /// Anchoring at the fullest clock ([`anchor`]): windows of clocks around it,
    /// narrowest first, each solved exactly at the lower bound, its offsets kept and
    /// every other buffer placed around them in breadth order (first fit, then best
    /// fit; a placement is abandoned as soon as it passes the lowest so far). Returns
    /// the lowest placement and its peak. Only where a greedy pass is affordable
    /// (each try costs up to two); stops at the bound, at half of the budget (the
    /// passes and searches after it need the rest where it does not reach the bound:
    /// on IOPDDL S_1, where it never does, three quarters left the passes no time;
    /// PanGu-2.6B needs about a third of the 2 s default on a loaded machine), or at
    /// a window that does not fit at the bound.
    fn anchor(&mut self) -> Option<(Vec<Bytes>, Bytes)> {
        if self.pairs > GREEDY_PAIRS {
            return None;
        }
        let until_ms = self.limits.budget.millis / 4 * 3;
        let half_ms = self.limits.budget.millis / 2;
        let timer = self.limits.timer;
        // Past half of the budget only while the anchored plan is within 10 % of the
        // bound (PanGu-2.6B: +7.4 % at half width 1, +0.38 % at 2, at the bound at 4;
        // IOPDDL S_1: +35 % at 1).
        let near = self.lower_bound.saturating_add(self.lower_bound / 10);
        // A placement around a window is abandoned once it passes that too (IOPDDL
        // S_1: +35 % at half width 1, which took half of the budget to find out).
        let spent = |limits: &Limits, best: Option<Bytes>| {
            let t = timer.elapsed_ms();
            limits.out_of_time()
                || t >= until_ms
                || (t >= half_ms && best.map_or(true, |b| b > near))
        };
        let clock = anchor::fullest_clock(self.items)?;
        let order = Order::Breadth.sort(self.items);
        let mut best: Option<(Vec<Bytes>, Bytes)> = None;
        for half in ANCHOR_HALVES {
            let lowest = best.as_ref().map(|b| b.1);
            if spent(&self.limits, lowest) || lowest == Some(self.lower_bound) {
                break;
            }
            let (from, to) = (clock.saturating_sub(half), clock.saturating_add(half + 1));
            let window = anchor::Window::new(self.items, from, to);
            if window.items.len() > ANCHOR_MAX {
                break;
            }
            let left = self
                .limits
                .budget
                .max_nodes
                .saturating_sub(self.limits.nodes);
            self.limits.stop_at = self.limits.nodes + (left / 8).clamp(1, ANCHOR_NODES);
            let Outcome::Fits(o) = search::fits(&window.items, self.lower_bound, &mut self.limits)
            else {
                break;
            };
            let fixed = window.fixed(self.items.len(), &o);
            for fit in [Fit::First, Fit::Best] {
                let lowest = best.as_ref().map(|b| b.1);
                let below = lowest.map_or(near, |b| b - 1);
                let limits = &self.limits;
                let placed = greedy::place_around(self.items, (&fixed, below), &order, fit, || {
                    spent(limits, lowest)
                });
                if let Some(offsets) = placed {
                    let peak = bound::peak(self.items, &offsets);
                    best = Some((offsets, peak));
                    if peak == self.lower_bound {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Iterated greedy from `start`'s order for up to a tenth of the budget (half of
    /// it where the search does not run, [`Run::searchable`]), and until
    /// [`STALL`] passes in a row find nothing lower. Each pass counts as one node
    /// per buffer, so a node limit decides deterministically.
    fn iterate(&mut self, start: Greedy) -> (Vec<Bytes>, Strategy) {
        if start.peak == self.lower_bound || self.items.is_empty() {
            return (start.offsets, start.used);
        }
        let budget = self.limits.budget;
        let share = if self.searchable() { 10 } else { 2 };
        let until_ms = budget.millis / share;
        let until_nodes = budget.max_nodes / share;
        let pass = self.items.len() as u64;
        let timer = self.limits.timer;
        let nodes = &mut self.limits.nodes;
        let cancelled = || budget.cancelled();
        // No pass would run: not even the sort of its order (0.2 s on 10^6 buffers).
        if timer.elapsed_ms() >= until_ms || cancelled() {
            return (start.offsets, start.used);
        }
        let (offsets, peak) = greedy::iterate(
            self.items,
            (start.pass.order.sort(self.items), start.offsets, start.peak),
            start.pass.fit,
            self.lower_bound,
            1,
            |stalled| {
                let go = stalled < STALL
                    && *nodes + pass <= until_nodes
                    && timer.elapsed_ms() < until_ms
                    && !cancelled();
                if go {
                    *nodes += pass;
                }
                go
            },
            || timer.elapsed_ms() >= until_ms || cancelled(),
        );
        if peak < start.peak {
            self.report(peak);
            (offsets, Strategy::Best)
        } else {
            (offsets, start.used)
        }
    }

    /// Ruin and recreate at the peak ([`local::improve`]) from `offsets` for a tenth
    /// of what is left of the budget (an eighth where the search does not run and the
    /// repair, which lowers IOPDDL S_1 and Y_1 further, gets the rest; below, the
    /// search reaches the bound of BERT-base in seconds and needs them), stopping after [`LOCAL_STALL`] moves in a row without a
    /// lower peak where the search is still to come. Every buffer a move looks at
    /// counts as a quarter node, so a node limit decides deterministically.
    fn local(&mut self, offsets: Vec<Bytes>, used: Strategy) -> (Vec<Bytes>, Strategy) {
        let start = bound::peak(self.items, &offsets);
        if start == self.lower_bound || self.limits.out_of_time() {
            return (offsets, used);
        }
        let budget = self.limits.budget;
        let timer = self.limits.timer;
        let last = !self.searchable();
        // Where the search does not run, the repair after it gets the rest.
        let share = if last { 8 } else { 10 };
        let until_ms =
            timer.elapsed_ms() + budget.millis.saturating_sub(timer.elapsed_ms()) / share;
        let until_nodes =
            self.limits.nodes + budget.max_nodes.saturating_sub(self.limits.nodes) / share;
        let nodes = &mut self.limits.nodes;
        let cancelled = || budget.cancelled();
        let go = |work: u64, stalled: u32| {
            // The node count never passes the limit, even by the last move's cost.
            *nodes = (*nodes + work / 4 + 1).min(until_nodes);
            *nodes < until_nodes
                && (last || stalled < LOCAL_STALL)
                && timer.elapsed_ms() < until_ms
                && !cancelled()
        };
        let stop = || timer.elapsed_ms() >= until_ms || cancelled();
        let (offsets, peak) = local::improve(self.items, offsets, self.lower_bound, 1, go, stop);
        if peak < start {
            self.report(peak);
            (offsets, Strategy::Best)
        } else {
            (offsets, used)
        }
    }

    /// Repairs under lower and lower capacities ([`repair::improve`]) from `offsets`
    /// for the rest of the budget, where the exact search does not run. Every buffer
    /// a step looks at counts as a quarter node, so a node limit decides
    /// deterministically.
    fn repair(&mut self, offsets: Vec<Bytes>, used: Strategy) -> (Vec<Bytes>, Strategy) {
        let start = bound::peak(self.items, &offsets);
        if start == self.lower_bound || self.searchable() || self.limits.out_of_time() {
            return (offsets, used);
        }
        let budget = self.limits.budget;
        let timer = self.limits.timer;
        let (mut best, mut peak) = (offsets, start);
        // First on blocks of buffers of one lifetime (where there are some, and a
        // pass over the blocks is affordable), for half of the time left; then on the
        // buffers, from the lower of the two placements.
        let blocks = repair::Blocks::of(self.items);
        let grouped = blocks.items.len() < self.items.len() - self.items.len() / 20
            && pairs(&blocks.items) <= GREEDY_PAIRS;
        let rounds: &[bool] = if grouped { &[true, false] } else { &[false] };
        for &on_blocks in rounds {
            let left_ms = budget.millis.saturating_sub(timer.elapsed_ms());
            let until_ms = timer.elapsed_ms() + if on_blocks { left_ms / 2 } else { left_ms };
            let left = budget.max_nodes.saturating_sub(self.limits.nodes);
            let until_nodes = self.limits.nodes + if on_blocks { left / 2 } else { left };
            let nodes = &mut self.limits.nodes;
            let go = |work: u64| {
                *nodes = (*nodes + work / 4 + 1).min(until_nodes);
                *nodes < until_nodes && timer.elapsed_ms() < until_ms && !budget.cancelled()
            };
            let (offsets, p) = if on_blocks {
                let items = &blocks.items;
                let order = Pass::TFLITE.order.sort(items);
                let stop = || timer.elapsed_ms() >= until_ms || budget.cancelled();
                let Some(start) = greedy::place_until(items, &order, Pass::TFLITE.fit, stop) else {
                    continue;
                };
                let (o, _) = repair::improve(items, start, self.lower_bound, 1, go);
                let o = blocks.unpack(&o, self.items.len());
                let p = bound::peak(self.items, &o);
                (o, p)
            } else {
                repair::improve(self.items, best.clone(), self.lower_bound, 1, go)
            };
            if p < peak {
                (best, peak) = (offsets, p);
            }
        }
        if peak < start {
            self.report(peak);
            (best, Strategy::Best)
        } else {
            (best, used)
        }
    }

    /// Searches capacities below `start`'s peak: a stated capacity first (the file's
    /// promise that it fits), then the lower bound (where the search succeeds most
    /// often), then bisection. Returns
    /// the best offsets, whether they beat `start`, and whether the search proved
    /// that no smaller peak exists.
    fn search(&mut self, start: Vec<Bytes>, capacity: Option<Bytes>) -> (Vec<Bytes>, bool, bool) {
        if !self.searchable() {
            return (start, false, false);
        }
        let mut best = start;
        let mut hi = bound::peak(self.items, &best);
        // Every canonical placement's offsets are sums of sizes, so the optimum is a
        // multiple of their greatest common divisor (1,024 on MiniMalloc's sets):
        // capacities between two multiples need no search.
        let step = granularity(self.items);
        let round_up = |b: Bytes| b.div_ceil(step).saturating_mul(step);
        let mut lo = round_up(self.lower_bound);
        let mut improved = false;
        let mut proven = true;
        // After every plan found, one step below it comes next (with a quarter of the
        // nodes left): MiniMalloc's challenging D fits in 1,047,552 (MiniMalloc finds
        // 1,046,528 there), where trying the bound right after the capacity spent the
        // whole budget on one undecided capacity.
        let mut below_best = false;
        let mut tries: Vec<Bytes> = vec![lo];
        if let Some(c) = capacity.filter(|&c| c > lo && c < hi) {
            tries.push(c);
        }
        while lo < hi {
            // Setting a search up costs a pass over every overlapping pair (a second
            // on PanGu-2.6B): not worth starting once the passes spent the budget.
            if self.limits.out_of_time() {
                proven = false;
                break;
            }
            let stepping = below_best && hi >= lo.saturating_add(step);
            below_best = false;
            let cap = if stepping {
                hi - step
            } else {
                match tries.pop() {
                    Some(c) if c >= lo && c < hi => c,
                    Some(_) => continue,
                    None => lo + (hi - lo) / 2,
                }
            };
            // Each attempt may spend half of what is left, so an undecided capacity
            // leaves room to bisect above it.
            let left = self
                .limits
                .budget
                .max_nodes
                .saturating_sub(self.limits.nodes);
            let share = if stepping { 4 } else { 2 };
            self.limits.stop_at = self.limits.nodes + (left / share).max(1);
            let outcome = search::fits(self.items, cap, &mut self.limits);
            match outcome {
                Outcome::Fits(o) => {
                    hi = bound::peak(self.items, &o);
                    best = o;
                    improved = true;
                    below_best = true;
                    self.report(hi);
                }
                Outcome::Infeasible => lo = round_up(cap + 1),
                Outcome::Undecided => {
                    proven = false;
                    if self.limits.out_of_time() {
                        break;
                    }
                    // An undecided step below the best says nothing of the bound.
                    if !stepping {
                        lo = round_up(cap + 1);
                    }
                }
            }
        }
        (best, improved, proven && lo >= hi)
    }

    fn report(&self, best_peak: Bytes) {
        if let Some(f) = &self.limits.budget.progress {
            f(&Progress {
                best_peak,
                lower_bound: self.lower_bound,
                iterations: self.limits.nodes,
                elapsed_ms: self.limits.timer.elapsed_ms(),
            });
        }
    }
}
