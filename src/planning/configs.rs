//! Aidge's other configurations of a schedule, as rivals of a re-placement.
//!
//! On a schedule, `best` also re-places the plan of every configuration of Aidge's
//! drivers ([`replan_schedule`]): wrap-around and `optimize` let a space reuse the
//! bytes of planes already consumed, so another configuration's spaces can be
//! smaller than any placement of the loaded plan's (SqueezeNet-1.1: 3,154,176 B
//! with `generate_memory`, wrap-around and `OptimizeMaxLifetimeMaxSizeFirst`
//! against 3,928,576 B for the default driver's spaces at their lower bound).
//! It lives in `planning`, not `strategies`: it runs the drivers, and placement
//! only knows spaces.

use super::orders;
use crate::drivers::{self, Driver, DriverOptions};
use crate::manager::OptimizeStrategy as Optimize;
use crate::model::Plan;
use crate::schedule::Schedule;
use crate::strategies::{replan, Budget, Strategy};
use crate::timer::Timer;
use crate::Result;
use crate::{check, stats};

/// `plan`, made from `schedule` with `options`, re-placed by `strategy`. For
/// [`Strategy::Best`], also the plan of every other driver × wrap-around × optimize
/// configuration (the rest of `options` kept), on the schedule as given and, unless
/// `keep_order`, with its parallel branches in other orders ([`orders::branch_orders`]),
/// each as made and
/// re-placed; the lowest valid peak wins (the given plan, then its re-placement, on
/// ties): never above the given plan (when the checker accepts it) nor any plan made.
/// The schedule comes back when the winner runs the nodes in another order (the plan's
/// steps follow it; an export must run them so). Configurations the drivers refuse, or
/// whose plan the checker rejects, are left out.
///
/// When every configuration of every order was made within the budget, the lowest of
/// their per-plane bounds comes back too: no plan `best` can return is below it (each
/// is one of these layouts, as made or with its spaces moved, and a layout's bound
/// holds for any placement of its spaces), so it is a lower bound over every plan
/// memplan makes of this schedule, where a plan's own bound is only its layout's.
///
/// The budget: plans are made for up to half of it (the schedule's own order first);
/// then they are re-placed lowest per-plane bound first, each with an equal share of
/// the time left and of the nodes, and only while that bound is below the best peak
/// found (a re-placement never goes under it). Making DenseNet-121's 15 plans takes
/// about a second on a loaded machine, so an equal share for every plan in the order
/// made left the promising ones a few milliseconds each.
pub fn replan_schedule(
    plan: &Plan,
    schedule: &Schedule,
    options: &DriverOptions,
    strategy: Strategy,
    budget: &Budget,
    keep_order: bool,
) -> Result<(Plan, Option<Schedule>, Option<u64>)> {
    if strategy != Strategy::Best {
        return Ok((replan(plan, strategy, budget)?, None, None));
    }
    let timer = Timer::start();
    let configs = configurations(options);
    // `keep_order`: the schedule's own order only (an export that runs its own).
    let orders = if keep_order {
        Vec::new()
    } else {
        orders::branch_orders(schedule)
    };
    // A broken given plan (the wheel's auto-concat + optimize plans can overlap live
    // planes) is no rival: anything valid beats it.
    let given = stats::stats(plan);
    let mut win = Winner {
        peak: match check::check(plan).is_valid() {
            true => given.peak,
            false => u64::MAX,
        },
        plan: plan.clone(),
        order: None,
    };
    // The longest making and checking of one plan: the caller checks the winner too.
    let mut overhead = timer.elapsed_ms();
    // (per-plane bound, plan as made, its order): the given plan first.
    let mut made: Vec<(u64, Plan, Option<usize>)> = vec![(given.lower_bound, plan.clone(), None)];
    let schedules: Vec<&Schedule> = std::iter::once(schedule).chain(&orders).collect();
    // The given configuration in every order first, then the others order by order:
    // on a graph of many parallel branches (a tiled model's patches, `crate::tiling`)
    // making the 20 configurations of the scheduler's own order can take the whole
    // half budget, and a depth-first order is where such a graph fits.
    let mut jobs: Vec<(usize, &DriverOptions)> = (0..schedules.len())
        .flat_map(|k| configs.iter().map(move |c| (k, c)))
        .collect();
    jobs.sort_by_key(|(_, c)| {
        (c.driver, c.wrap_around, c.optimize)
            != (options.driver, options.wrap_around, options.optimize)
    });
    let mut complete = true;
    for (k, opts) in jobs {
        let order = k.checked_sub(1);
        if timer.elapsed_ms() >= budget.millis / 2 || budget.cancelled() {
            complete = false;
            break;
        }
        let clock = Timer::start();
        let Ok(other) = drivers::generate(schedules[k], opts) else {
            continue;
        };
        let bound = stats::stats(&other).lower_bound;
        win.consider(&other, order);
        made.push((bound, other, order));
        overhead = overhead.max(clock.elapsed_ms());
    }
    // Re-placed lowest bound first (stable: the given plan first on ties).
    made.sort_by_key(|(bound, _, _)| *bound);
    let layouts_bound = complete.then(|| made[0].0);
    let worth = |from: usize, peak: u64| made[from..].iter().filter(|(b, _, _)| *b < peak).count();
    let nodes = (budget.max_nodes / worth(0, win.peak).max(1) as u64).max(1);
    for (k, (bound, other, order)) in made.iter().enumerate() {
        if *bound >= win.peak || budget.cancelled() {
            break;
        }
        let left = budget.millis.saturating_sub(timer.elapsed_ms() + overhead);
        let share = Budget {
            millis: (left / worth(k, win.peak).max(1) as u64).max(1),
            max_nodes: nodes,
            ..budget.clone()
        };
        // A plan whose spaces cannot be re-placed (a space problem whose sizes pass
        // u64 on channels-last concats) still competed as made.
        if let Ok(placed) = replan(other, strategy, &share) {
            win.consider(&placed, *order);
        }
    }
    // Aidge's drivers name their one memory differently (multiple-mems `MEM_0`, the
    // others `mem`): the plan's memories keep the names the given plan shows them by.
    let mut best = win.plan;
    if best.components.len() == plan.components.len() {
        for (c, given) in best.components.iter_mut().zip(&plan.components) {
            c.name.clone_from(&given.name);
        }
    }
    Ok((best, win.order.map(|k| orders[k].clone()), layouts_bound))
}

/// The lowest valid plan so far, and the order of the branches it runs them in
/// (an index into the other orders; `None`: the schedule's own).
struct Winner {
    peak: u64,
    plan: Plan,
    order: Option<usize>,
}

impl Winner {
    /// Keeps `candidate` when its peak is lower and the checker accepts it.
    fn consider(&mut self, candidate: &Plan, order: Option<usize>) {
        let peak = stats::stats(candidate).peak;
        if peak < self.peak && check::check(candidate).is_valid() {
            *self = Winner {
                peak,
                plan: candidate.clone(),
                order,
            };
        }
    }
}

/// Every driver × wrap-around × optimize configuration with the rest of `options`
/// (multiple-mems has no wrap-around).
fn configurations(options: &DriverOptions) -> Vec<DriverOptions> {
    let optimizes = [
        None,
        Some(Optimize::MaxLifetimeMinSizeFirst),
        Some(Optimize::MaxLifetimeMaxSizeFirst),
        Some(Optimize::MaxHoleMaxLifetimeFirst),
    ];
    let mut out = Vec::new();
    for driver in [Driver::MultipleMems, Driver::Memory, Driver::AutoConcat] {
        for wrap_around in [false, true] {
            if wrap_around && driver == Driver::MultipleMems {
                continue;
            }
            for optimize in optimizes {
                out.push(DriverOptions {
                    driver,
                    wrap_around,
                    optimize,
                    ..options.clone()
                });
            }
        }
    }
    out
}
