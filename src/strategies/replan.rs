//! Re-placing an Aidge plan: each memory component is its own arena, and within it
//! only whole spaces move (planes keep their place inside their space), so in-place
//! and wrap-around sharing stays valid.

use super::carve;
use super::shapes::Shapes;
use super::{place, Budget, Strategy};
use crate::model::{BufferList, Plan};
use crate::timer::Timer;
use crate::{Error, Result};

/// `plan` with its spaces re-placed by `strategy`, component by component. The
/// budget is for the whole plan: each component gets an equal share of the time
/// still left and of the nodes. The named strategies place spaces as
/// rectangles (a space's bytes for its whole life); [`Strategy::Best`] then also
/// places them by their live planes ([`Shapes`]), where wrap-around or in-place
/// reuse leaves some of a space's bytes unused for part of its life, with half of
/// the component's budget.
pub fn replan(plan: &Plan, strategy: Strategy, budget: &Budget) -> Result<Plan> {
    if let Some((i, s)) = plan
        .spaces
        .iter()
        .enumerate()
        .find(|(_, s)| s.size > i64::MAX as u64)
    {
        // Said here rather than as "sizes add up past 2^64" about a buffer number.
        return Err(Error::whole(format!(
            "space {i} cannot be re-placed: its size {} is a negative size written unsigned \
             (Aidge's auto-concat gives such sizes on channels-last Concats); \
             `memplan check` lists what is broken in this plan",
            s.size
        )));
    }
    let timer = Timer::start();
    let problem = plan.space_problem();
    let mut out = plan.clone();
    let ncomp = plan.components.len().max(1);
    for comp in 0..ncomp {
        let whole = budget;
        let budget = &Budget {
            millis: (whole.millis.saturating_sub(timer.elapsed_ms()) / (ncomp - comp) as u64)
                .max(1),
            max_nodes: (whole.max_nodes / ncomp as u64).max(1),
            ..whole.clone()
        };
        let comp_timer = Timer::start();
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
        let shapes = match strategy {
            Strategy::Best => Shapes::of(plan, &members),
            _ => None,
        };
        let half = Budget {
            millis: budget.millis / 2,
            max_nodes: (budget.max_nodes / 2).max(1),
            ..budget.clone()
        };
        let rect_budget = if shapes.is_some() { &half } else { budget };
        let placement = place(&list, strategy, rect_budget)?;
        // The shapes of the spaces as they are until three quarters of the budget;
        // the rest cuts planes out of their spaces (one component only: a cut plan
        // has other spaces).
        let carving = ncomp == 1;
        let share = |v: u64| if carving { v / 4 * 3 } else { v };
        let until = Budget {
            millis: share(budget.millis),
            max_nodes: share(budget.max_nodes).max(1),
            ..budget.clone()
        };
        let offsets = match &shapes {
            Some(shapes) => shapes.improve(Some(&placement.offsets), &until, &comp_timer),
            None => placement.offsets,
        };
        for (&i, &offset) in members.iter().zip(&offsets) {
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
    if strategy == Strategy::Best && ncomp == 1 {
        let peak = out.peak();
        if let Some(carved) = carve::search(&out, 0, peak, budget, &timer) {
            return Ok(carved);
        }
    }
    Ok(out)
}
