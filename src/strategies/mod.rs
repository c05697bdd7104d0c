//! Placement strategies for buffer lists: give every buffer an offset so that no two
//! buffers live at the same step share a byte, with the smallest peak possible.
//!
//! - [`Strategy::GreedyBySize`]: TFLite's arena planner (largest first, best fit).
//! - [`Strategy::GreedyBySizeFirstFit`]: TFLM's greedy memory planner (first fit).
//! - [`Strategy::GreedyByConflicts`]: TVM USMP's greedy by conflicts.
//! - [`Strategy::Search`]: MiniMalloc-style exact search ([`search`]) over capacities
//!   between the lower bound and the best greedy peak.
//! - [`Strategy::Best`]: seven greedy orders, iterated greedy from the best one,
//!   then the search, within the budget.
//!
//! Every result is a valid placement; `proven_optimal` says when its peak is known to
//! be the smallest (it equals the lower bound, or the search proved nothing lower fits).

mod bench;
mod bound;
mod clock;
mod greedy;
mod replan;
mod rng;
mod search;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use bench::{bench, bench_lists, bench_table, read_sets, synthetic};
pub use replan::replan;

use crate::model::{BufferList, Bytes};
use crate::{Error, Result};
use bound::Item;
use clock::Timer;
use greedy::Fit;
use search::{Limits, Outcome};
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
    Search,
    Best,
}

impl Strategy {
    /// Every strategy, in the order the benchmark reports them.
    pub const ALL: [Strategy; 5] = [
        Strategy::GreedyBySize,
        Strategy::GreedyBySizeFirstFit,
        Strategy::GreedyByConflicts,
        Strategy::Search,
        Strategy::Best,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::GreedyBySize => "greedy-size",
            Strategy::GreedyBySizeFirstFit => "greedy-size-first-fit",
            Strategy::GreedyByConflicts => "greedy-conflicts",
            Strategy::Search => "search",
            Strategy::Best => "best",
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
}

/// Places `list`'s buffers with `strategy` within `budget`. A buffer whose `upper` is
/// not above its `lower` occupies its `lower` step, as the checker reads it.
pub fn place(list: &BufferList, strategy: Strategy, budget: &Budget) -> Result<Placement> {
    let items = bound::items(list)?;
    let timer = Timer::start();
    let lower_bound = bound::lower_bound(&items);
    let mut run = Run {
        items: &items,
        lower_bound,
        limits: Limits {
            budget,
            timer: &timer,
            nodes: 0,
            stop_at: budget.max_nodes,
            stride: 256,
        },
    };
    let (offsets, used, exhausted) = match strategy {
        Strategy::GreedyBySize | Strategy::GreedyBySizeFirstFit | Strategy::GreedyByConflicts => {
            (run.greedy(strategy), strategy, false)
        }
        Strategy::Search | Strategy::Best => {
            let (start, used) = if strategy == Strategy::Search {
                (run.greedy(Strategy::GreedyBySize), Strategy::Search)
            } else {
                let start = run.best_greedy();
                run.iterate(start)
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
    Ok(Placement {
        proven_optimal: peak == lower_bound || exhausted,
        offsets,
        peak,
        lower_bound,
        strategy_used: used,
        elapsed_ms: timer.elapsed_ms(),
        iterations: run.limits.nodes,
    })
}

/// Iterated greedy stops after this many passes in a row without a lower peak.
const STALL: u32 = 30;

/// Above this many buffers the exact search is not tried: one of its nodes sorts all
/// the buffers, so it would spend the budget on a handful of nodes.
const SEARCH_MAX: usize = 50_000;

/// A greedy placement with the order and fit that made it.
struct Greedy {
    offsets: Vec<Bytes>,
    peak: Bytes,
    order: Vec<usize>,
    fit: Fit,
    used: Strategy,
}

/// One planning run's state.
struct Run<'a> {
    items: &'a [Item],
    lower_bound: Bytes,
    limits: Limits<'a>,
}

impl Run<'_> {
    fn greedy(&self, strategy: Strategy) -> Vec<Bytes> {
        let (order, fit) = self.order(strategy);
        greedy::place_in_order(self.items, &order, fit)
    }

    /// The visiting order and fit of a greedy strategy.
    fn order(&self, strategy: Strategy) -> (Vec<usize>, Fit) {
        match strategy {
            Strategy::GreedyBySizeFirstFit => (greedy::by_size(self.items), Fit::First),
            Strategy::GreedyByConflicts => (greedy::by_conflicts(self.items), Fit::First),
            _ => (greedy::by_size(self.items), Fit::Best),
        }
    }

    /// The lowest-peak greedy placement (earlier ones win ties): the three greedy
    /// strategies, then largest-area-first and longest-first orders with both fits
    /// (those report [`Strategy::Best`]). The first pass always completes; later
    /// ones end with the budget.
    fn best_greedy(&self) -> Greedy {
        let mut best: Option<Greedy> = None;
        let named = |s: Strategy| {
            let (order, fit) = self.order(s);
            (order, fit, s)
        };
        for k in 0..7 {
            let (order, fit, used) = match k {
                0 => named(Strategy::GreedyBySize),
                1 => named(Strategy::GreedyBySizeFirstFit),
                2 => named(Strategy::GreedyByConflicts),
                3 | 4 => (
                    greedy::by_area(self.items),
                    Fit::from(k == 3),
                    Strategy::Best,
                ),
                _ => (
                    greedy::by_length(self.items),
                    Fit::from(k == 5),
                    Strategy::Best,
                ),
            };
            let offsets = if best.is_none() {
                greedy::place_in_order(self.items, &order, fit)
            } else {
                match greedy::place_until(self.items, &order, fit, || self.limits.out_of_time()) {
                    Some(o) => o,
                    None => break,
                }
            };
            let peak = bound::peak(self.items, &offsets);
            if best.as_ref().map_or(true, |b| peak < b.peak) {
                best = Some(Greedy {
                    offsets,
                    peak,
                    order,
                    fit,
                    used,
                });
            }
            if peak == self.lower_bound {
                break;
            }
        }
        best.unwrap_or(Greedy {
            offsets: Vec::new(),
            peak: 0,
            order: Vec::new(),
            fit: Fit::Best,
            used: Strategy::GreedyBySize,
        })
    }

    /// Iterated greedy from `start`'s order for up to a tenth of the budget (all of
    /// it above [`SEARCH_MAX`] buffers, where the search does not run), and until
    /// [`STALL`] passes in a row find nothing lower. Each pass counts as one node
    /// per buffer, so a node limit decides deterministically.
    fn iterate(&mut self, start: Greedy) -> (Vec<Bytes>, Strategy) {
        if start.peak == self.lower_bound || self.items.is_empty() {
            return (start.offsets, start.used);
        }
        let budget = self.limits.budget;
        let share = if self.items.len() > SEARCH_MAX { 1 } else { 10 };
        let until_ms = budget.millis / share;
        let until_nodes = budget.max_nodes / share;
        let pass = self.items.len() as u64;
        let timer = self.limits.timer;
        let nodes = &mut self.limits.nodes;
        let cancelled = || {
            budget
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        };
        let (offsets, peak) = greedy::iterate(
            self.items,
            (start.order, start.offsets, start.peak),
            start.fit,
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

    /// Searches capacities below `start`'s peak: a stated capacity first (the file's
    /// promise that it fits), then the lower bound (where the search succeeds most
    /// often), then bisection. Returns
    /// the best offsets, whether they beat `start`, and whether the search proved
    /// that no smaller peak exists.
    fn search(&mut self, start: Vec<Bytes>, capacity: Option<Bytes>) -> (Vec<Bytes>, bool, bool) {
        if self.items.len() > SEARCH_MAX {
            return (start, false, false);
        }
        let mut best = start;
        let mut hi = bound::peak(self.items, &best);
        let mut lo = self.lower_bound;
        let mut improved = false;
        let mut proven = true;
        let mut tries: Vec<Bytes> = vec![lo];
        if let Some(c) = capacity.filter(|&c| c > lo && c < hi) {
            tries.push(c);
        }
        while lo < hi {
            let cap = match tries.pop() {
                Some(c) if c >= lo && c < hi => c,
                Some(_) => continue,
                None => lo + (hi - lo) / 2,
            };
            // Each attempt may spend half of what is left, so an undecided capacity
            // leaves room to bisect above it.
            let left = self
                .limits
                .budget
                .max_nodes
                .saturating_sub(self.limits.nodes);
            self.limits.stop_at = self.limits.nodes + (left / 2).max(1);
            let outcome = search::fits(self.items, cap, &mut self.limits);
            match outcome {
                Outcome::Fits(o) => {
                    hi = bound::peak(self.items, &o);
                    best = o;
                    improved = true;
                    self.report(hi);
                }
                Outcome::Infeasible => lo = cap + 1,
                Outcome::Undecided => {
                    proven = false;
                    if self.limits.out_of_time() {
                        break;
                    }
                    lo = cap + 1;
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
