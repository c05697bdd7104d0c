//! Resolving a document into a plan: the one planning path of memplan. The CLI
//! (`memplan plan`, `stats`, `check`, `convert`, `render`), the page's Web Worker
//! (`src/web/worker.rs`), `<memplan-view>` (`src/web/shown.rs`) and Python
//! (`src/python.rs`) all build a [`Request`] and call [`Session::plan`], or
//! [`resolve`] for the plan as loaded, so the same file and strategy give the same
//! plan everywhere.
//!
//! `aidge` keeps the plan as the file gives it (a schedule planned the way Aidge
//! 0.10.1 does by default, a buffer list at its offsets or by the default strategy).
//! Any other [`Strategy`] re-places it: buffer lists freely, buffer by buffer;
//! plans (given or from a schedule) by whole memory spaces, so in-place and
//! wrap-around sharing stays valid ([`strategies::replan`]).
//!
//! `formats` only turns bytes into a [`Document`] and back; what a document's plan
//! is (its plan first, else its schedule through Aidge's driver, else its buffers)
//! is decided here.

mod configs;

use crate::check;
use crate::drivers::{self, DriverOptions};
use crate::formats::{self, Document, Export, Format};
use crate::model::{BufferList, Bytes, Plan};
use crate::stats;
use crate::strategies::{self, Budget, Strategy};
use crate::timer::Timer;
use crate::{Error, Result};
use serde::Serialize;
use std::borrow::Cow;

/// The name of the choice that keeps the plan as loaded (the CLI's `--strategy aidge`).
pub const AS_LOADED: &str = "aidge";

/// Which part of a document a run starts from, when the document holds both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The plan the file gives (or its buffer list).
    Plan,
    /// The schedule, planned by Aidge's driver.
    Schedule,
}

/// What to plan a document with: the one request every face builds.
#[derive(Debug, Default)]
pub struct Request {
    /// `None` keeps the plan as loaded (`aidge`); a strategy re-places it.
    pub strategy: Option<Strategy>,
    /// `None`: the document's plan first (as `stats`, `check` and the page read an
    /// Aidge export), else its schedule, else its buffers.
    pub from: Option<Source>,
    /// Options of Aidge's driver; given, the schedule is planned with them (they
    /// imply [`Source::Schedule`]). `None`: Aidge 0.10.1's defaults.
    pub driver: Option<DriverOptions>,
    /// Time the search may take (per memory component), and its progress callback.
    pub budget: Budget,
}

impl Request {
    /// A request for `choice` (`aidge` or a [`Strategy`] name) with `budget`, from
    /// the document's own plan first.
    pub fn new(choice: &str, budget: Budget) -> Result<Request> {
        let strategy = if choice == AS_LOADED {
            None
        } else {
            let s = choice.parse::<Strategy>();
            Some(s.map_err(|e| Error::whole(format!("{}, or {AS_LOADED}", e.message)))?)
        };
        Ok(Request {
            strategy,
            budget,
            ..Request::default()
        })
    }
}

/// What a planning run reports next to its plan. Byte counts are digit strings: JS
/// numbers lose precision above 2^53.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanReport {
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
    /// What this re-plan could not change for want of what the file holds, and how to
    /// get past it (an Aidge log holds a plan, not its graph), or None.
    pub limits: Option<String>,
}

/// An Aidge log re-planned: its spaces move as blocks, what is inside them stays as
/// Aidge laid it out (`wrapped`: wrap-around included); `best` also places them by
/// the bytes their live planes hold and cuts planes out of a space
/// (`strategies::replan`).
fn log_limits(wrapped: bool, strategy: Strategy) -> String {
    let kept = if wrapped {
        " (wrap-around kept as Aidge laid it out)"
    } else {
        ""
    };
    let moved = if strategy == Strategy::Best {
        format!(
            "memplan kept every plane where Aidge put it inside its space{kept}, let a \
             space use the bytes another one no longer holds, and cut a plane out of its \
             space where that lowered the peak (its writer then writes outside its input, \
             as without wrap-around)"
        )
    } else {
        format!(
            "memplan moved its spaces as whole blocks, each with its planes and their \
             lifetimes{kept}"
        )
    };
    format!(
        "An Aidge log holds the plan, not the graph: {moved}. Choosing where each output \
         goes (in place or wrapped around another input, Aidge's other drivers and \
         optimize rules, the order of parallel branches) needs the schedule: write it \
         from the Python that ran Aidge with `from memplan.aidge import exporter; \
         exporter.export(scheduler, \"model.memplan.json\")` and open that file here."
    )
}

/// A document and, once computed, the plan it stands for.
#[derive(Debug)]
pub struct Session {
    name: String,
    doc: Document,
    /// `resolve(doc)`, computed at most once (schedules run the drivers).
    loaded: Option<Plan>,
}

impl Session {
    /// Reads a file (any format `formats::load` reads).
    pub fn open(name: &str, bytes: &[u8]) -> Result<Session> {
        Ok(Session::of(name, formats::load(name, bytes)?))
    }

    /// A document already read, named `name` in errors.
    pub fn of(name: &str, doc: Document) -> Session {
        Session {
            name: name.to_owned(),
            doc,
            loaded: None,
        }
    }

    /// Reads a file with the companion it needs ([`formats::companion`]: XLA's live
    /// ranges beside its buffer assignment).
    pub fn open_pair(
        name: &str,
        bytes: &[u8],
        companion_name: &str,
        companion_bytes: &[u8],
    ) -> Result<Session> {
        Ok(Session {
            name: name.to_owned(),
            doc: formats::load_pair(name, bytes, companion_name, companion_bytes)?,
            loaded: None,
        })
    }

    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The plan the document stands for, as loaded ([`resolve`], computed once).
    pub fn loaded(&mut self) -> Result<&Plan> {
        load_once(&mut self.loaded, &self.doc, &self.name)
    }

    /// The plan `request` asks for, with its report. Errors name the file.
    pub fn plan(&mut self, request: &Request) -> Result<(Plan, PlanReport)> {
        let name = self.name.clone();
        let plain =
            request.strategy.is_none() && request.from.is_none() && request.driver.is_none();
        let planned = if plain {
            self.as_loaded_inner()
        } else {
            self.plan_inner(request)
        };
        planned.map_err(|e| e.in_file(name))
    }

    /// The plan as loaded with its report: [`Session::plan`] of a plain `aidge`
    /// request. It runs no strategy but the default placement of a buffer list without
    /// offsets, so the page's first wasm module (feature `lite`), which plans files
    /// only this way, links none of the others.
    pub fn as_loaded(&mut self) -> Result<(Plan, PlanReport)> {
        let name = self.name.clone();
        self.as_loaded_inner().map_err(|e| e.in_file(name))
    }

    fn as_loaded_inner(&mut self) -> Result<(Plan, PlanReport)> {
        let list = free_list(&self.doc);
        if let Some(list) = list.filter(|l| !has_offsets(l)) {
            return Ok(placed(list, strategies::place_default(list)?, AS_LOADED));
        }
        let capacity = list.and_then(|l| l.capacity).map(|c| c.to_string());
        let timer = Timer::start();
        let plan = load_once(&mut self.loaded, &self.doc, &self.name)?.clone();
        let report = report(AS_LOADED, &plan, &timer, capacity);
        Ok((plan, report))
    }

    /// The precedence every face shares: driver options or `from: Schedule` plan the
    /// schedule; otherwise the document's plan, else its schedule with Aidge's
    /// defaults, else its buffers (placed by the strategy, or by the default
    /// placement when they have no offsets).
    fn plan_inner(&mut self, request: &Request) -> Result<(Plan, PlanReport)> {
        let asked = request.strategy.map_or(AS_LOADED, Strategy::name);
        let from = match (request.from, &request.driver) {
            (Some(Source::Plan), Some(_)) => {
                let msg = "driver options apply to schedules, not to a plan";
                return Err(Error::whole(msg));
            }
            (None, Some(_)) => Some(Source::Schedule),
            (from, _) => from,
        };
        let list = free_list(&self.doc);
        if from != Some(Source::Schedule) {
            if let Some(list) = list.filter(|l| request.strategy.is_some() || !has_offsets(l)) {
                return place(list, request, asked);
            }
        }
        let capacity = list.and_then(|l| l.capacity).map(|c| c.to_string());
        let timer = Timer::start();
        let doc = &self.doc;
        let what = doc.format;
        // The driver options `start` was made with: `best` also tries Aidge's other
        // configurations of the schedule from them (configs::replan_schedule).
        let default = DriverOptions::default();
        let (start, opts) = match (from, &doc.schedule) {
            (Some(Source::Schedule), None) => {
                let msg = format!("no schedule to plan from: this file holds {what}");
                return Err(Error::whole(msg));
            }
            // The loaded plan is the file's own: plan the schedule here.
            (Some(Source::Schedule), Some(schedule))
                if doc.plan.is_some() || request.driver.is_some() =>
            {
                let opts = request.driver.as_ref().unwrap_or(&default);
                (Cow::Owned(drivers::generate(schedule, opts)?), opts.clone())
            }
            (Some(Source::Plan), _) if doc.plan.is_none() && list.is_none() => {
                let msg = format!("no plan to start from: this file holds {what}");
                return Err(Error::whole(msg));
            }
            _ => {
                let loaded = load_once(&mut self.loaded, doc, &self.name)?;
                let opts = match &doc.plan {
                    Some(_) => configs::recorded_options(loaded),
                    None => default,
                };
                (Cow::Borrowed(loaded), opts)
            }
        };
        let wrapped = start.planes.iter().any(|p| p.is_wrapped());
        let plan = match (request.strategy, &doc.schedule) {
            (None, _) => start.into_owned(),
            (Some(s), Some(schedule)) => {
                configs::replan_schedule(&start, schedule, &opts, s, &request.budget)?
            }
            (Some(s), None) => {
                let placed = strategies::replan(&start, s, &request.budget)?;
                // `best` never ends above the plan it started from (an Aidge log of
                // wrap-around + optimize can be below any placement of its spaces).
                let lower = |p: &Plan| stats::stats(p).peak;
                let keep = s == Strategy::Best
                    && lower(&start) < lower(&placed)
                    && check::check(&start).is_valid();
                if keep {
                    start.into_owned()
                } else {
                    placed
                }
            }
        };
        let mut report = report(asked, &plan, &timer, capacity);
        if let (Some(s), None, Format::AidgeLog(_)) = (request.strategy, &doc.schedule, &doc.format)
        {
            report.limits = Some(log_limits(wrapped, s));
        }
        Ok((plan, report))
    }
}

/// The report of a plan made (or kept) as a whole since `timer` started.
fn report(asked: &str, plan: &Plan, timer: &Timer, capacity: Option<String>) -> PlanReport {
    let (peak, lower_bound, proven_optimal) = bounds(plan);
    PlanReport {
        strategy: asked.into(),
        strategy_used: asked.into(),
        peak: peak.to_string(),
        lower_bound: lower_bound.to_string(),
        proven_optimal,
        elapsed_ms: timer.elapsed_ms(),
        iterations: 0,
        capacity,
        limits: None,
    }
}

/// A document that is only a buffer list: its buffers are placed one by one.
fn free_list(doc: &Document) -> Option<&BufferList> {
    match (&doc.plan, &doc.schedule, &doc.buffers) {
        (None, None, Some(list)) => Some(list),
        _ => None,
    }
}

fn has_offsets(list: &BufferList) -> bool {
    list.buffers.iter().all(|b| b.offset.is_some())
}

/// A buffer list placed by the strategy asked for, or, as loaded without offsets,
/// by the default placement (the report names which one ran).
fn place(list: &BufferList, request: &Request, asked: &str) -> Result<(Plan, PlanReport)> {
    let placement = match request.strategy {
        Some(s) => strategies::place(list, s, &request.budget)?,
        None => strategies::place_default(list)?,
    };
    Ok(placed(list, placement, asked))
}

/// A buffer list at the offsets of `placed`, with its report.
fn placed(list: &BufferList, placed: strategies::Placement, asked: &str) -> (Plan, PlanReport) {
    let report = PlanReport {
        strategy: asked.into(),
        strategy_used: placed.strategy_used.name().into(),
        peak: placed.peak.to_string(),
        lower_bound: placed.lower_bound.to_string(),
        proven_optimal: placed.proven_optimal,
        elapsed_ms: placed.elapsed_ms,
        iterations: placed.iterations,
        capacity: list.capacity.map(|c| c.to_string()),
        limits: None,
    };
    (list.to_plan(&placed.offsets), report)
}

/// The plan `slot` caches for `doc`: [`resolve`]d on first use. A function of the
/// fields, not of the session, so the document stays readable while the plan is
/// borrowed.
fn load_once<'a>(slot: &'a mut Option<Plan>, doc: &Document, name: &str) -> Result<&'a Plan> {
    let plan = match slot.take() {
        Some(plan) => plan,
        None => resolve(doc).map_err(|e| e.in_file(name))?,
    };
    Ok(slot.insert(plan))
}

/// Peak, lower bound, and whether every component sits at its lower bound (which
/// proves no placement of these spaces is smaller: live spaces cannot overlap).
/// A broken plan (overlapping live spaces) can reach its bound by overlapping, so
/// the proof also needs the checker's word; it only runs when the bound is reached.
fn bounds(plan: &Plan) -> (Bytes, Bytes, bool) {
    let s = stats::stats(plan);
    let at_bound = s.components.iter().all(|c| c.peak == c.lower_bound);
    (
        s.peak,
        s.lower_bound,
        at_bound && check::check(plan).is_valid(),
    )
}

/// The plan a document stands for, as loaded: the plan as given; else its schedule
/// planned the way Aidge 0.10.1 does by default; else its buffers, at their given
/// offsets or, if they have none, placed by the default strategy.
pub fn resolve(doc: &Document) -> Result<Plan> {
    if let Some(plan) = &doc.plan {
        return Ok(plan.clone());
    }
    if let Some(schedule) = &doc.schedule {
        return drivers::generate(schedule, &DriverOptions::default());
    }
    if let Some(buffers) = &doc.buffers {
        return Ok(plan_buffers(buffers));
    }
    Err(Error::whole(
        "the document holds neither a plan, a schedule nor buffers",
    ))
}

/// A buffer list's plan: given offsets when every buffer has one, else placed by
/// [`strategies::place_default`] (TFLite's greedy by size, or the sweep on lists too
/// dense for it: fast and deterministic, so that opening a file never waits on a
/// search).
pub fn plan_buffers(list: &BufferList) -> Plan {
    let offsets: Option<Vec<Bytes>> = list.buffers.iter().map(|b| b.offset).collect();
    let offsets = offsets.unwrap_or_else(|| match strategies::place_default(list) {
        Ok(placement) => placement.offsets,
        // Placement only fails on lists the readers refuse; stacking the buffers is
        // valid whatever the list.
        Err(_) => stacked(list),
    });
    list.to_plan(&offsets)
}

/// Every buffer above the previous one: valid for any list, never small.
fn stacked(list: &BufferList) -> Vec<Bytes> {
    let mut top: Bytes = 0;
    list.buffers
        .iter()
        .map(|b| {
            let at = top;
            top = top.saturating_add(b.size);
            at
        })
        .collect()
}

/// `doc` written as `export`; formats that need a plan get [`resolve`]'s.
pub fn export(doc: &Document, export: Export) -> Result<String> {
    formats::write(doc, export, resolve)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Buffer;

    fn ask(choice: &str, millis: u64) -> Request {
        Request::new(choice, Budget::millis(millis)).unwrap()
    }

    /// MiniMalloc's example: the lower bound is 12; stacking by size order gives more.
    const CSV: &str = "id,lower,upper,size\na,0,3,4\nb,3,9,4\nc,0,9,4\nd,9,21,4\ne,0,21,4\n";

    #[test]
    fn buffer_lists_are_placed_freely_and_reach_the_bound() {
        let mut s = Session::open("x.csv", CSV.as_bytes()).unwrap();
        let (plan, r) = s.plan(&ask("best", 500)).unwrap();
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
        let (_, r) = s.plan(&ask(AS_LOADED, 100)).unwrap();
        assert_eq!(r.strategy, AS_LOADED);
        // A small list: the default placement is the greedy pass, not the sweep.
        assert_eq!(r.strategy_used, Strategy::GreedyBySize.name());
    }

    #[test]
    fn aidge_keeps_the_given_offsets() {
        let csv = "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,8\n";
        let mut s = Session::open("given.csv", csv.as_bytes()).unwrap();
        let (plan, r) = s.plan(&ask(AS_LOADED, 100)).unwrap();
        assert_eq!(plan.spaces[1].offset, 8);
        assert_eq!((r.peak.as_str(), r.lower_bound.as_str()), ("12", "8"));
        assert!(!r.proven_optimal);
        let (plan, r) = s.plan(&ask("greedy-size", 100)).unwrap();
        assert_eq!(plan.peak(), 8);
        assert!(r.proven_optimal, "{r:?}");
    }

    #[test]
    fn a_broken_plan_at_its_bound_is_not_called_optimal() {
        // a and b overlap in bytes [2, 4) at clock 0; the peak (8) equals the most
        // live bytes (8), which is no proof of anything for a plan that overlaps.
        let csv = "id,lower,upper,size,offset\na,0,2,4,0\nb,0,1,4,2\nc,1,2,2,6\n";
        let mut s = Session::open("broken.csv", csv.as_bytes()).unwrap();
        let (plan, r) = s.plan(&ask(AS_LOADED, 100)).unwrap();
        assert!(!check::check(&plan).is_valid());
        assert_eq!((r.peak.as_str(), r.lower_bound.as_str()), ("8", "8"));
        assert!(!r.proven_optimal, "{r:?}");
    }

    #[test]
    fn aidge_plans_move_whole_spaces() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/aidge/resnet18-multi-None.json"
        );
        let bytes = std::fs::read(path).unwrap();
        let mut s = Session::open("resnet18.json", &bytes).unwrap();
        let (aidge, ra) = s.plan(&ask(AS_LOADED, 100)).unwrap();
        // `search` re-places the loaded plan's spaces (`best` may take another
        // configuration's plan: tests/strategies_aidge.rs).
        let (moved, rm) = s.plan(&ask("search", 1000)).unwrap();
        assert!(check::check(&moved).is_valid());
        assert_eq!(moved.planes.len(), aidge.planes.len());
        for (a, b) in aidge.planes.iter().zip(&moved.planes) {
            let shift = moved.spaces[b.space]
                .offset
                .wrapping_sub(aidge.spaces[a.space].offset);
            assert_eq!(b.cont_offset, a.cont_offset.wrapping_add(shift));
        }
        assert_eq!(ra.lower_bound, rm.lower_bound);
        let (best, rb) = s.plan(&ask("best", 1000)).unwrap();
        assert!(check::check(&best).is_valid());
        assert!(rb.peak.parse::<u64>().unwrap() <= ra.peak.parse::<u64>().unwrap());
        assert_eq!(rb.proven_optimal, rb.peak == rb.lower_bound);
    }

    #[test]
    fn unknown_strategies_name_the_choices() {
        let e = Request::new("fastest", Budget::millis(10)).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("unknown strategy `fastest`"), "{text}");
        assert!(text.contains("or aidge"), "{text}");
    }

    /// An Aidge export holds Aidge's plan and the schedule it came from.
    fn export_session(combo: &str) -> Session {
        let path = format!(
            "{}/tests/data/aidge/{combo}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Session::open(&path, &std::fs::read(&path).unwrap()).unwrap()
    }

    #[test]
    fn a_file_with_a_plan_and_a_schedule_starts_from_its_plan() {
        // Auto-concat's plan differs from the default driver's on the same schedule.
        let mut s = export_session("squeezenet1_1-autoconcat-None");
        let given = s.document().plan.clone().unwrap();
        let (plan, _) = s.plan(&ask(AS_LOADED, 10)).unwrap();
        assert_eq!(plan, given);
        let from_schedule = Request {
            from: Some(Source::Schedule),
            ..ask(AS_LOADED, 10)
        };
        let (planned, _) = s.plan(&from_schedule).unwrap();
        assert_ne!(planned, given, "the default driver is not auto-concat");
        let default = drivers::generate(
            s.document().schedule.as_ref().unwrap(),
            &DriverOptions::default(),
        );
        assert_eq!(planned, default.unwrap());
        // And the plan as loaded is still the file's own.
        assert_eq!(s.loaded().unwrap(), &given);
    }

    #[test]
    fn driver_options_plan_the_schedule_and_contradict_a_plan() {
        let mut s = export_session("squeezenet1_1-single-None");
        let wrap = DriverOptions {
            driver: drivers::Driver::Memory,
            wrap_around: true,
            ..DriverOptions::default()
        };
        let request = Request {
            driver: Some(wrap.clone()),
            ..ask(AS_LOADED, 10)
        };
        let (plan, _) = s.plan(&request).unwrap();
        let schedule = s.document().schedule.clone().unwrap();
        assert_eq!(plan, drivers::generate(&schedule, &wrap).unwrap());
        let contradiction = Request {
            from: Some(Source::Plan),
            ..request
        };
        let e = s.plan(&contradiction).unwrap_err().to_string();
        assert!(e.contains("driver options apply to schedules"), "{e}");
    }

    #[test]
    fn a_file_without_a_schedule_says_so() {
        let mut s = Session::open("x.csv", CSV.as_bytes()).unwrap();
        let request = Request {
            from: Some(Source::Schedule),
            ..ask(AS_LOADED, 10)
        };
        let e = s.plan(&request).unwrap_err().to_string();
        assert!(
            e.starts_with("x.csv: no schedule to plan from: this file holds MiniMalloc CSV"),
            "{e}"
        );
    }

    #[test]
    fn buffers_without_offsets_are_placed_validly() {
        let b = |id: &str, lower, upper, size| Buffer::new(id, lower, upper, size);
        let list = BufferList {
            buffers: vec![
                b("a", 0, 3, 4),
                b("b", 3, 9, 4),
                b("c", 0, 9, 4),
                b("d", 9, 21, 4),
                b("e", 0, 21, 4),
            ],
            capacity: None,
        };
        let plan = plan_buffers(&list);
        assert!(check::check(&plan).is_valid());
        assert_eq!(plan.peak(), 12, "the lower bound of MiniMalloc's example");
        assert!(check::check(&list.to_plan(&stacked(&list))).is_valid());
    }
}
