//! Planning one opened document with a strategy the user picks: what the page's Web
//! Worker runs (`src/web/worker.rs`), kept here so it is tested natively.
//!
//! `aidge` keeps the plan as the file gives it (a schedule planned the way Aidge
//! 0.10.1 does by default, a buffer list at its offsets or by the default strategy).
//! Any other [`Strategy`] re-places it: buffer lists freely, buffer by buffer;
//! plans (given or from a schedule) by whole memory spaces, so in-place and
//! wrap-around sharing stays valid ([`strategies::replan`]).

use crate::formats::{self, Document};
use crate::model::{Bytes, Plan};
use crate::stats;
use crate::strategies::{self, Budget, Strategy};
use crate::{Error, Result};
use serde::Serialize;

/// The name of the choice that keeps the plan as loaded (the CLI's `--strategy aidge`).
pub const AS_LOADED: &str = "aidge";

/// What a planning run reports next to its plan. Byte counts are digit strings: JS
/// numbers lose precision above 2^53.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The choice asked for (`aidge` or a strategy name).
    pub strategy: String,
    /// For `best`, the strategy whose placement won; for `aidge` on a buffer list
    /// without offsets, the strategy that placed it (the file says nothing of where
    /// its buffers go, so "as loaded" would be a lie).
    pub strategy_used: String,
    pub peak: String,
    pub lower_bound: String,
    /// No placement of these buffers (spaces) has a smaller peak.
    pub proven_optimal: bool,
    pub elapsed_ms: u64,
    /// Search nodes visited (0 for the greedy strategies and `aidge`).
    pub iterations: u64,
    /// The capacity a buffer list states (MiniMalloc's file names), digits: the
    /// viewer draws it. Not in the plan, whose checker would then flag every space
    /// above it of a placement that does not fit.
    pub capacity: Option<String>,
}

/// A document and, once computed, the plan it stands for.
#[derive(Debug)]
pub struct Session {
    name: String,
    doc: Document,
    /// `formats::resolve_plan(doc)`, computed at most once (schedules run the drivers).
    loaded: Option<Plan>,
}

impl Session {
    /// Reads a file (any format `formats::load` reads).
    pub fn open(name: &str, bytes: &[u8]) -> Result<Session> {
        Ok(Session {
            name: name.to_owned(),
            doc: formats::load(name, bytes)?,
            loaded: None,
        })
    }

    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The plan for `choice` (`aidge` or a [`Strategy`] name) within `budget`.
    pub fn plan(&mut self, choice: &str, budget: &Budget) -> Result<(Plan, Report)> {
        let strategy = if choice == AS_LOADED {
            None
        } else {
            Some(choice.parse::<Strategy>().map_err(|e| {
                Error::whole(format!("{}, or {AS_LOADED}", e.message)).in_file(&self.name)
            })?)
        };
        let free_list = match (&self.doc.plan, &self.doc.schedule, &self.doc.buffers) {
            (None, None, Some(list)) => Some(list),
            _ => None,
        };
        let missing_offsets =
            free_list.is_some_and(|l| l.buffers.iter().any(|b| b.offset.is_none()));
        // A list placed here: by the strategy asked for, or, as loaded without offsets, by
        // the default placement (the report names which one ran).
        let placement = match (free_list, strategy) {
            (Some(list), Some(s)) => Some((list, s.name(), strategies::place(list, s, budget))),
            (Some(list), None) if missing_offsets => {
                Some((list, AS_LOADED, strategies::place_default(list)))
            }
            _ => None,
        };
        if let Some((list, asked, placed)) = placement {
            let placed = placed.map_err(|e| e.in_file(&self.name))?;
            let plan = list.to_plan(&placed.offsets);
            let report = Report {
                strategy: asked.into(),
                strategy_used: placed.strategy_used.name().into(),
                peak: placed.peak.to_string(),
                lower_bound: placed.lower_bound.to_string(),
                proven_optimal: placed.proven_optimal,
                elapsed_ms: placed.elapsed_ms,
                iterations: placed.iterations,
                capacity: list.capacity.map(|c| c.to_string()),
            };
            return Ok((plan, report));
        }
        let capacity = free_list.and_then(|l| l.capacity).map(|c| c.to_string());
        let t = Clock::start();
        let schedule = self.doc.schedule.clone();
        let loaded = self.loaded()?;
        // On a schedule, `best` also tries Aidge's other driver configurations.
        let plan = match (strategy, &schedule) {
            (None, _) => Ok(loaded.clone()),
            (Some(s), Some(schedule)) => {
                let options = strategies::recorded_options(loaded);
                strategies::replan_schedule(loaded, schedule, &options, s, budget)
            }
            (Some(s), None) => strategies::replan(loaded, s, budget),
        }
        .map_err(|e| e.in_file(&self.name))?;
        let (peak, lower_bound, proven_optimal) = bounds(&plan);
        let name = strategy.map_or(AS_LOADED, Strategy::name).to_owned();
        let report = Report {
            strategy_used: name.clone(),
            strategy: name,
            peak: peak.to_string(),
            lower_bound: lower_bound.to_string(),
            proven_optimal,
            elapsed_ms: t.elapsed_ms(),
            iterations: 0,
            capacity,
        };
        Ok((plan, report))
    }

    fn loaded(&mut self) -> Result<&Plan> {
        let plan = match self.loaded.take() {
            Some(plan) => plan,
            None => formats::resolve_plan(&self.doc).map_err(|e| e.in_file(&self.name))?,
        };
        Ok(self.loaded.insert(plan))
    }
}

/// Peak, lower bound, and whether every component sits at its lower bound (which
/// proves no placement of these spaces is smaller: live spaces cannot overlap).
fn bounds(plan: &Plan) -> (Bytes, Bytes, bool) {
    let s = stats::stats(plan);
    let at_bound = s.components.iter().all(|c| c.peak == c.lower_bound);
    (s.peak, s.lower_bound, at_bound)
}

/// Milliseconds for the report; `std::time::Instant` panics in wasm32.
struct Clock(f64);

impl Clock {
    fn start() -> Clock {
        Clock(now())
    }
    fn elapsed_ms(&self) -> u64 {
        (now() - self.0).max(0.0) as u64
    }
}

#[cfg(target_arch = "wasm32")]
fn now() -> f64 {
    js_sys::Date::now()
}

#[cfg(not(target_arch = "wasm32"))]
fn now() -> f64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check;

    /// MiniMalloc's example: the lower bound is 12; stacking by size order gives more.
    const CSV: &str = "id,lower,upper,size\na,0,3,4\nb,3,9,4\nc,0,9,4\nd,9,21,4\ne,0,21,4\n";

    #[test]
    fn buffer_lists_are_placed_freely_and_reach_the_bound() {
        let mut s = Session::open("x.csv", CSV.as_bytes()).unwrap();
        let (plan, r) = s.plan("best", &Budget::millis(500)).unwrap();
        assert!(check::check(&plan).is_valid());
        assert_eq!(r.peak, plan.peak().to_string());
        assert_eq!(r.lower_bound, "12");
        assert_eq!(r.peak, "12");
        assert!(r.proven_optimal);
        assert_eq!(r.strategy, "best");
    }

    #[test]
    fn a_list_without_offsets_says_who_placed_it() {
        let mut s = Session::open("x.csv", CSV.as_bytes()).unwrap();
        let (_, r) = s.plan(AS_LOADED, &Budget::millis(100)).unwrap();
        assert_eq!(r.strategy, AS_LOADED);
        // A small list: the default placement is the greedy pass, not the sweep.
        assert_eq!(r.strategy_used, Strategy::GreedyBySize.name());
    }

    #[test]
    fn aidge_keeps_the_given_offsets() {
        let csv = "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,8\n";
        let mut s = Session::open("given.csv", csv.as_bytes()).unwrap();
        let (plan, r) = s.plan(AS_LOADED, &Budget::millis(100)).unwrap();
        assert_eq!(plan.spaces[1].offset, 8);
        assert_eq!((r.peak.as_str(), r.lower_bound.as_str()), ("12", "8"));
        assert!(!r.proven_optimal);
        let (plan, r) = s.plan("greedy-size", &Budget::millis(100)).unwrap();
        assert_eq!(plan.peak(), 8);
        assert!(r.proven_optimal, "{r:?}");
    }

    #[test]
    fn aidge_plans_move_whole_spaces() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/aidge/resnet18-multi-None.json"
        );
        let bytes = std::fs::read(path).unwrap();
        let mut s = Session::open("resnet18.json", &bytes).unwrap();
        let (aidge, ra) = s.plan(AS_LOADED, &Budget::millis(100)).unwrap();
        // `search` re-places the loaded plan's spaces (`best` may take another
        // configuration's plan: tests/strategies_aidge.rs).
        let (moved, rm) = s.plan("search", &Budget::millis(1000)).unwrap();
        assert!(check::check(&moved).is_valid());
        assert_eq!(moved.planes.len(), aidge.planes.len());
        for (a, b) in aidge.planes.iter().zip(&moved.planes) {
            let shift = moved.spaces[b.space]
                .offset
                .wrapping_sub(aidge.spaces[a.space].offset);
            assert_eq!(b.cont_offset, a.cont_offset.wrapping_add(shift));
        }
        assert_eq!(ra.lower_bound, rm.lower_bound);
        let (best, rb) = s.plan("best", &Budget::millis(1000)).unwrap();
        assert!(check::check(&best).is_valid());
        assert!(rb.peak.parse::<u64>().unwrap() <= ra.peak.parse::<u64>().unwrap());
        assert_eq!(rb.proven_optimal, rb.peak == rb.lower_bound);
    }

    #[test]
    fn unknown_strategies_name_the_file_and_the_choices() {
        let mut s = Session::open("x.csv", CSV.as_bytes()).unwrap();
        let e = s.plan("fastest", &Budget::millis(10)).unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("x.csv: unknown strategy `fastest`"),
            "{text}"
        );
        assert!(text.contains("or aidge"), "{text}");
    }
}
