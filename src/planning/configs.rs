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
/// configuration (the rest of `options` kept), each as made and re-placed, and the
/// lowest valid peak wins (the given plan, then its re-placement, on ties): never above
/// the given plan (when the checker accepts it) nor any configuration's plan. The budget is shared between them;
/// configurations the drivers refuse, or whose plan the checker rejects, are left out.
pub fn replan_schedule(
    plan: &Plan,
    schedule: &Schedule,
    options: &DriverOptions,
    strategy: Strategy,
    budget: &Budget,
) -> Result<Plan> {
    if strategy != Strategy::Best {
        return replan(plan, strategy, budget);
    }
    let configs = configurations(options);
    let timer = Timer::start();
    // Each re-placement gets an equal share of the nodes and of the time still left
    // once making and checking the plans still to come is set aside (about a second
    // for DenseNet-121's 15 plans on a loaded machine; `overhead` is the longest one
    // so far, and one more for the caller's check of the winner), so the whole stays
    // within the budget's time.
    let share = |left: u64, parts: usize| (left / parts as u64).max(1);
    let total = budget;
    let budget_for = |parts: usize, overhead: u64| Budget {
        millis: share(
            total
                .millis
                .saturating_sub(timer.elapsed_ms() + overhead * (parts as u64 + 1)),
            parts,
        ),
        max_nodes: share(total.max_nodes, configs.len() + 1),
        ..total.clone()
    };
    // Each configuration's plan as Aidge makes it, then re-placed: moving whole spaces
    // keeps a space's bytes for its whole life, so with wrap-around or optimize the
    // plan as made can be the lower of the two.
    // A broken given plan (the wheel's auto-concat + optimize plans can overlap live
    // planes) is no rival: anything valid beats it.
    let mut best = plan.clone();
    let mut best_peak = match check::check(plan).is_valid() {
        true => stats::stats(plan).peak,
        false => u64::MAX,
    };
    let mut overhead = timer.elapsed_ms();
    let mut consider = |candidate: Plan| {
        let peak = stats::stats(&candidate).peak;
        if peak < best_peak && check::check(&candidate).is_valid() {
            best = candidate;
            best_peak = peak;
        }
    };
    if let Ok(placed) = replan(plan, strategy, &budget_for(configs.len() + 1, overhead)) {
        consider(placed);
    }
    for (k, opts) in configs.iter().enumerate() {
        let made = Timer::start();
        let Ok(other) = drivers::generate(schedule, opts) else {
            continue;
        };
        let making = made.elapsed_ms();
        // A plan whose spaces cannot be re-placed (a space problem whose sizes pass
        // u64 on channels-last concats) still competes as made.
        let placed = replan(&other, strategy, &budget_for(configs.len() - k, overhead));
        let checking = Timer::start();
        consider(other);
        if let Ok(placed) = placed {
            consider(placed);
        }
        overhead = overhead.max(making + checking.elapsed_ms());
    }
    Ok(best)
}

/// Aidge's default options with the memory components `plan` records when every one
/// has a capacity (an export of multiple-mems), as `memplan plan` re-plans a file.
pub fn recorded_options(plan: &Plan) -> DriverOptions {
    let recorded = plan.components.iter().all(|c| c.capacity.is_some());
    DriverOptions {
        components: if recorded {
            plan.components.clone()
        } else {
            Vec::new()
        },
        ..DriverOptions::default()
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
