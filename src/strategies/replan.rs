//! Re-placing an Aidge plan: each memory component is its own arena, and within it
//! only whole spaces move (planes keep their place inside their space), so in-place
//! and wrap-around sharing stays valid.
//!
//! On a schedule, `best` also re-places the plan of every configuration of Aidge's
//! drivers ([`replan_schedule`]): wrap-around and `optimize` let a space reuse the
//! bytes of planes already consumed, so another configuration's spaces can be
//! smaller than any placement of the loaded plan's (SqueezeNet-1.1: 3,154,176 B
//! with `generate_memory`, wrap-around and `OptimizeMaxLifetimeMaxSizeFirst`
//! against 3,928,576 B for the default driver's spaces at their lower bound).

use super::{place, Budget, Strategy};
use crate::drivers::{self, Driver, DriverOptions};
use crate::manager::Strategy as Optimize;
use crate::model::{BufferList, Plan};
use crate::schedule::Schedule;
use crate::{check, stats};
use crate::{Error, Result};

/// `plan`, made from `schedule` with `options`, re-placed by `strategy`. For
/// [`Strategy::Best`], also the plan of every other driver × wrap-around × optimize
/// configuration (the rest of `options` kept), each as made and re-placed, and the
/// lowest peak wins (the given plan, then its re-placement, on ties): never above the
/// given plan nor any configuration's plan. The budget is shared between them;
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
    let share = |b: u64| (b / (configs.len() as u64 + 1)).max(1);
    let budget = Budget {
        millis: share(budget.millis),
        max_nodes: share(budget.max_nodes),
        ..budget.clone()
    };
    // Each configuration's plan as Aidge makes it, then re-placed: moving whole spaces
    // keeps a space's bytes for its whole life, so with wrap-around or optimize the
    // plan as made can be the lower of the two.
    let mut best = plan.clone();
    let mut best_peak = stats::stats(plan).peak;
    let mut consider = |candidate: Plan| {
        let peak = stats::stats(&candidate).peak;
        if peak < best_peak && check::check(&candidate).is_valid() {
            best = candidate;
            best_peak = peak;
        }
    };
    if let Ok(placed) = replan(plan, strategy, &budget) {
        consider(placed);
    }
    for opts in configs {
        let Ok(other) = drivers::generate(schedule, &opts) else {
            continue;
        };
        // A plan whose spaces cannot be re-placed (a space problem whose sizes pass
        // u64 on channels-last concats) still competes as made.
        let placed = replan(&other, strategy, &budget);
        consider(other);
        if let Ok(placed) = placed {
            consider(placed);
        }
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

/// `plan` with its spaces re-placed by `strategy`, component by component. The
/// budget applies to each component.
pub fn replan(plan: &Plan, strategy: Strategy, budget: &Budget) -> Result<Plan> {
    let problem = plan.space_problem();
    let mut out = plan.clone();
    let ncomp = plan.components.len().max(1);
    for comp in 0..ncomp {
        let members: Vec<usize> = (0..plan.spaces.len())
            .filter(|&i| plan.spaces[i].component == comp)
            .collect();
        if members.is_empty() {
            continue;
        }
        let list = BufferList {
            buffers: members
                .iter()
                .map(|&i| problem.buffers[i].clone())
                .collect(),
            capacity: plan.components.get(comp).and_then(|c| c.capacity),
        };
        let placement = place(&list, strategy, budget)?;
        for (&i, &offset) in members.iter().zip(&placement.offsets) {
            out.spaces[i].offset = offset;
        }
    }
    for (k, plane) in out.planes.iter_mut().enumerate() {
        let (Some(old), Some(new)) = (plan.spaces.get(plane.space), out.spaces.get(plane.space))
        else {
            return Err(Error::at_path(
                format!("planes[{k}].space"),
                format!(
                    "plane names space {}, the plan has {}",
                    plane.space,
                    plan.spaces.len()
                ),
            ));
        };
        let shift = |v: u64| v.wrapping_sub(old.offset).wrapping_add(new.offset);
        plane.cont_offset = shift(plane.cont_offset);
        plane.wrap_offset = shift(plane.wrap_offset);
    }
    Ok(out)
}
