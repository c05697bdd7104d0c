//! Resolving a document into a plan: the one planning path of memplan. The CLI
//! (`memplan plan`, `stats`, `check`, `convert`, `render`), the page's Web Worker
//! (`src/web/worker.rs`), `<memplan-view>` (`src/web/shown.rs`) and Python
//! (`src/python.rs`) all build a [`Request`] and call [`Session::plan`], or
//! [`resolve`] for the plan as loaded, so the same file and strategy give the same
//! plan everywhere.
//!
//! [`route`] states the precedence once: what a file's own plan, a schedule, a buffer
//! list (with or without offsets) and a request lead to. [`AS_LOADED`] (`as-loaded`,
//! first named `aidge`) keeps the plan as the file gives it (a schedule planned the
//! way Aidge 0.10.1 does by default, a buffer list at its offsets or by the default
//! placement). Any other [`Strategy`] re-places it: buffer lists freely, buffer by
//! buffer; plans (given or from a schedule) by whole memory spaces, so in-place and
//! wrap-around sharing stays valid ([`strategies::replan`]).
//!
//! `formats` only turns bytes into a [`Document`] and back; what a document's plan
//! is, is decided here.

// The page's first module (feature `lite`) plans only as loaded: it calls no strategy.
#[cfg(not(feature = "lite"))]
mod configs;
#[cfg(not(feature = "lite"))]
pub mod orders;

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

/// The choice that keeps the plan as loaded: the file's own plan, its schedule
/// through Aidge's default driver, a list at its offsets (or, without offsets, by
/// [`strategies::place_default`]): see [`route`].
pub const AS_LOADED: &str = "as-loaded";
/// The former name of [`AS_LOADED`], still accepted (users' scripts pass it): an Aidge
/// export, the first files memplan read, loads as Aidge's own plan.
pub const AS_LOADED_ALIAS: &str = "aidge";
/// The search budget of a strategy chosen in an embedded view (`<memplan-view>`'s
/// `Viewer::open_with`, the notebook's static export through Python's
/// `_native.EMBED_BUDGET_MS`): short enough that opening a page with one stays
/// interactive. One value, here; the faces take it.
pub const EMBED_BUDGET_MS: u64 = 300;
/// What [`AS_LOADED`] does, in the words every face shows next to it.
pub const AS_LOADED_HELP: &str = "keep the plan as the file gives it (a schedule: Aidge's default \
                                  driver; a list without offsets: greedy-size, or sweep when dense); \
                                  also accepted as `aidge`";

/// Every choice of a strategy a user can type, with its help: as loaded first, then
/// every [`Strategy`] in [`Strategy::ALL`]'s order. The CLI's `--strategy`, the page's
/// menu (`web::shown::strategies`) and `memplan.STRATEGIES` (`_native.STRATEGIES`) are
/// made from this list, so a strategy added to the enum is offered everywhere.
pub fn choices() -> Vec<(&'static str, &'static str)> {
    std::iter::once((AS_LOADED, AS_LOADED_HELP))
        .chain(Strategy::ALL.iter().map(|s| (s.name(), s.help())))
        .collect()
}

/// The strategy a choice names: `None` for [`AS_LOADED`] (or its alias).
pub fn parse_choice(choice: &str) -> Result<Option<Strategy>> {
    if choice == AS_LOADED || choice == AS_LOADED_ALIAS {
        return Ok(None);
    }
    let s = choice.parse::<Strategy>();
    Ok(Some(s.map_err(|e| {
        Error::whole(format!("{}, or {AS_LOADED}", e.message))
    })?))
}

/// The name of a choice: the strategy's, or [`AS_LOADED`].
fn choice_name(strategy: Option<Strategy>) -> &'static str {
    strategy.map_or(AS_LOADED, Strategy::name)
}

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
    /// `None` keeps the plan as loaded ([`AS_LOADED`]); a strategy re-places it.
    pub strategy: Option<Strategy>,
    /// `None`: the document's plan first (as `stats`, `check` and the page read an
    /// Aidge export), else its schedule, else its buffers.
    pub from: Option<Source>,
    /// Options of Aidge's driver; given, the schedule is planned with them (they
    /// imply [`Source::Schedule`]). `None`: Aidge 0.10.1's defaults.
    pub driver: Option<DriverOptions>,
    /// Time the whole planning run may take (every memory component shares it:
    /// `strategies::replan` gives each what is left), and its progress callback.
    pub budget: Budget,
    /// The option the user typed that asked for `driver` (the CLI's first driver flag,
    /// `--wrap`, `--driver`…), which [`Refusal::DriverOnPlan`] names with the CLI's
    /// `--from plan`; `None` (a face without such flags) says "driver options".
    pub driver_flag: Option<&'static str>,
    /// Keep the schedule's order: `best` tries no other order of the parallel branches
    /// (an export whose target runs its own order, aidge-export-cpp's, needs it).
    pub keep_order: bool,
    /// Skip the bound over every layout of a schedule ([`BoundScope::Layouts`]), which
    /// makes every layout (up to [`FLOOR_MS`]): for callers that read only the plan, as
    /// `tiling`'s search, which plans hundreds of candidates.
    pub no_floor: bool,
}

impl Request {
    /// A request for `choice` ([`AS_LOADED`], its alias or a [`Strategy`] name) with
    /// `budget`, from the document's own plan first.
    pub fn new(choice: &str, budget: Budget) -> Result<Request> {
        Ok(Request {
            strategy: parse_choice(choice)?,
            budget,
            ..Request::default()
        })
    }
}

/// What a document holds, as the precedence reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    /// A plan of its own (an Aidge export or log, a framework's dump, memplan JSON),
    /// with or without the schedule it was made from.
    Plan { schedule: bool },
    /// A schedule and no plan (an ONNX model, `memplan.aidge.schedule_of`).
    Schedule,
    /// A buffer list alone; `offsets`: every buffer has one.
    List { offsets: bool },
    /// Nothing to plan.
    Nothing,
}

impl Holds {
    pub fn of(doc: &Document) -> Holds {
        match (&doc.plan, &doc.schedule, &doc.buffers) {
            (Some(_), schedule, _) => Holds::Plan {
                schedule: schedule.is_some(),
            },
            (None, Some(_), _) => Holds::Schedule,
            (None, None, Some(list)) => Holds::List {
                offsets: has_offsets(list),
            },
            (None, None, None) => Holds::Nothing,
        }
    }
}

/// What a request leads to ([`route`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The file's own plan; a strategy moves its spaces as whole blocks (with a
    /// schedule, `best` also tries Aidge's other configurations: `configs`).
    Plan(Option<Strategy>),
    /// The schedule through Aidge's driver with these options (`None`: Aidge 0.10.1's
    /// defaults); a strategy then moves that plan's spaces, as for [`Route::Plan`].
    Schedule(Option<DriverOptions>, Option<Strategy>),
    /// The buffer list at its own offsets.
    Offsets,
    /// The buffer list placed buffer by buffer: by the strategy, or, when `None` (a list
    /// without offsets kept "as loaded"), by [`strategies::place_default`].
    Place(Option<Strategy>),
}

impl Route {
    fn strategy(&self) -> Option<Strategy> {
        match self {
            Route::Plan(s) | Route::Schedule(_, s) | Route::Place(s) => *s,
            Route::Offsets => None,
        }
    }
}

/// Why a request cannot be planned on a document ([`route`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Driver options with `from: Plan`: the flag that asked for them, if typed.
    DriverOnPlan(Option<&'static str>),
    /// `from: Schedule` (or driver options) on a document without a schedule.
    NoSchedule,
    /// `from: Plan` on a document that holds only a schedule.
    NoPlan,
    /// The document holds neither a plan, a schedule nor buffers.
    Nothing,
}

impl Refusal {
    fn error(self, what: Format) -> Error {
        Error::whole(match self {
            Refusal::DriverOnPlan(Some(flag)) => {
                format!("{flag} applies to schedules, not to --from plan")
            }
            Refusal::DriverOnPlan(None) => {
                "driver options apply to schedules, not to a plan".into()
            }
            Refusal::NoSchedule => format!("no schedule to plan from: this file holds {what}"),
            Refusal::NoPlan => format!("no plan to start from: this file holds {what}"),
            Refusal::Nothing => "the document holds neither a plan, a schedule nor buffers".into(),
        })
    }
}

/// The planning precedence, stated once (docs/ARCHITECTURE.md, "Planning precedence",
/// has it as a table, each row a test below): a file's own plan comes first, then its
/// schedule, then its buffers; driver options or `from: Schedule` choose the schedule;
/// a buffer list without offsets, kept as loaded, is placed by `place_default`.
pub fn route(holds: Holds, request: &Request) -> std::result::Result<Route, Refusal> {
    let strategy = request.strategy;
    let from = match (request.from, &request.driver) {
        (Some(Source::Plan), Some(_)) => return Err(Refusal::DriverOnPlan(request.driver_flag)),
        (None, Some(_)) => Some(Source::Schedule),
        (from, _) => from,
    };
    let schedule = || Route::Schedule(request.driver.clone(), strategy);
    Ok(match (holds, from) {
        (Holds::Nothing, _) => return Err(Refusal::Nothing),
        (Holds::Plan { schedule: true } | Holds::Schedule, Some(Source::Schedule)) => schedule(),
        (_, Some(Source::Schedule)) => return Err(Refusal::NoSchedule),
        (Holds::Schedule, Some(Source::Plan)) => return Err(Refusal::NoPlan),
        (Holds::Schedule, None) => schedule(),
        (Holds::Plan { .. }, _) => Route::Plan(strategy),
        (Holds::List { offsets: true }, _) if strategy.is_none() => Route::Offsets,
        (Holds::List { .. }, _) => Route::Place(strategy),
    })
}

/// What a planning run reports next to its plan. Byte counts are digit strings: JS
/// numbers lose precision above 2^53.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlanReport {
    /// The choice asked for ([`AS_LOADED`] or a strategy name).
    pub strategy: String,
    /// For `best`, the strategy whose placement won; for [`AS_LOADED`] on a buffer
    /// list without offsets, the strategy that placed it (the file says nothing of
    /// where its buffers go, so "as loaded" would be a lie).
    pub strategy_used: String,
    pub peak: String,
    /// The bound of [`PlanReport::bound_scope`]: the most bytes live at once in this
    /// plan's buffers or spaces (`stats`), or on a schedule the lowest such bound over
    /// every layout memplan makes of it ([`BoundScope::Layouts`]).
    pub lower_bound: String,
    /// What `lower_bound` bounds: every plan memplan can make of the file
    /// (`placements`), every plan it makes of a schedule (`layouts`: over Aidge's
    /// drivers, wrap-around, optimize and branch orders, the layouts `best` tries), or,
    /// when those layouts could not all be made in time (or in the page's first
    /// module), only the placements of this plan's layout (`layout`).
    pub bound_scope: BoundScope,
    /// For `best` on a schedule that made every layout it tries: the lowest of their
    /// bounds, below which no plan memplan makes of this schedule goes. Digits.
    pub layouts_bound: Option<String>,
    /// Every component sits at the bound of its scope (`lower_bound`).
    pub at_bound: bool,
    /// The top of each memory component, digits, in the plan's component order
    /// (what Aidge's `get_peak_usage` gives per component; `memplan.aidge` compares
    /// them).
    pub component_peaks: Vec<String>,
    /// No plan memplan can make of this file has a smaller peak: at a `placements`
    /// bound, or at the `layouts_bound` of a schedule (never at a layout's own bound
    /// alone, which another layout can go under).
    pub proven_optimal: bool,
    pub elapsed_ms: u64,
    /// Search nodes visited (0 for the greedy strategies and as loaded).
    pub iterations: u64,
    /// The capacity a buffer list states (MiniMalloc's file names), digits: the
    /// viewer draws it. Not in the plan, whose checker would then flag every space
    /// above it of a placement that does not fit.
    pub capacity: Option<String>,
    /// What this re-plan could not change for want of what the file holds, and how to
    /// get past it (an Aidge log holds a plan, not its graph), or what the budget left
    /// undone (buffers stacked, `strategies::Placement::stacked`), or None.
    pub limits: Option<String>,
    /// Set when `best`'s plan runs the parallel branches in another order than the
    /// file's schedule: the plan holds only for that order, which the plan's steps
    /// and the written schedule give. Said in the page's report and on the CLI's stderr.
    pub order: Option<String>,
}

impl PlanReport {
    /// The bound over every layout of a schedule ([`BoundScope::Layouts`]), which the
    /// chart, the panel and `stats` show in place of the plan's own (`Chart::with_floor`).
    pub fn floor(&self) -> Option<u64> {
        match self.bound_scope {
            BoundScope::Layouts => self.lower_bound.parse().ok(),
            _ => None,
        }
    }
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

/// What a report's `lower_bound` bounds ([`PlanReport::bound_scope`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoundScope {
    /// Every plan memplan can make of the file: its buffers, or its spaces as the file
    /// lays them out (a plan without its schedule), are all there is to place.
    Placements,
    /// Every plan memplan makes of a schedule: the lowest bound of every layout `best`
    /// makes (`configs::layouts_floor`), so no re-plan goes under it.
    Layouts,
    /// The placements of this plan's layout only: the file holds a schedule, and
    /// another layout of it (another driver, wrap-around, optimize, branch order) can
    /// need fewer bytes.
    Layout,
}

impl BoundScope {
    /// The bound's name in every face: "lower bound" or "layout bound".
    pub fn name(self) -> &'static str {
        match self {
            BoundScope::Placements | BoundScope::Layouts => "lower bound",
            BoundScope::Layout => "layout bound",
        }
    }
}

/// The scope of the bound of a document's plans as loaded or re-placed: a layout's
/// when the document holds a schedule (whose other layouts `best` tries), else every
/// plan memplan can make of it.
pub fn bound_scope(doc: &Document) -> BoundScope {
    match doc.schedule {
        Some(_) => BoundScope::Layout,
        None => BoundScope::Placements,
    }
}

/// A document and, once computed, the plan it stands for.
#[derive(Debug)]
pub struct Session {
    name: String,
    doc: Document,
    /// `resolve(doc)`, computed at most once (schedules run the drivers).
    loaded: Option<Plan>,
    /// The schedule in the order the last plan runs its nodes, when `best` ran the
    /// parallel branches in another order than the document's.
    reordered: Option<crate::schedule::Schedule>,
    /// The bound over every layout of the schedule ([`BoundScope::Layouts`]) per
    /// driver options and `keep_order` it was computed for.
    floors: Vec<(DriverOptions, bool, u64)>,
}

/// How long making every layout of a schedule may take for its bound
/// ([`BoundScope::Layouts`]) when no `best` made them, at most (and no longer than
/// the request's budget leaves): DenseNet-121's plans take about a second on a loaded
/// machine.
pub const FLOOR_MS: u64 = 2_000;

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
            reordered: None,
            floors: Vec::new(),
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
            reordered: None,
            floors: Vec::new(),
        })
    }

    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The schedule the last plan follows: the document's, or the document's with
    /// its parallel branches in the order `best` found lower (the plan's steps run in
    /// that order; a file written with the plan must carry this one).
    pub fn schedule(&self) -> Option<&crate::schedule::Schedule> {
        self.reordered.as_ref().or(self.doc.schedule.as_ref())
    }

    /// Whether the last plan runs the nodes in another order than the document's.
    pub fn reordered(&self) -> bool {
        self.reordered.is_some()
    }

    /// Rewrites the document's schedule as `deploy` runs it ([`crate::recipes::document`]):
    /// every later plan is of the deployed graph, and the document's warnings say what
    /// the recipes did. The page's worker deploys the model it read (its "Deploy as").
    pub fn deploy(&mut self, deploy: &crate::recipes::Deploy) -> Result<()> {
        let doc = crate::recipes::document(self.doc.clone(), deploy)
            .map_err(|e| e.in_file(self.name.clone()))?;
        self.doc = doc;
        self.loaded = None;
        self.reordered = None;
        self.floors.clear();
        Ok(())
    }

    /// The plan the document stands for, as loaded ([`resolve`], computed once).
    pub fn loaded(&mut self) -> Result<&Plan> {
        load_once(&mut self.loaded, &self.doc, &self.name)
    }

    /// The plan `request` asks for ([`route`]), with its report. Errors name the file.
    pub fn plan(&mut self, request: &Request) -> Result<(Plan, PlanReport)> {
        let name = self.name.clone();
        self.run(request).map_err(|e| e.in_file(name))
    }

    /// The plan as loaded with its report: [`Session::plan`] of [`AS_LOADED`].
    pub fn as_loaded(&mut self) -> Result<(Plan, PlanReport)> {
        self.plan(&Request::default())
    }

    fn run(&mut self, request: &Request) -> Result<(Plan, PlanReport)> {
        self.reordered = None;
        let doc = &self.doc;
        let route = route(Holds::of(doc), request).map_err(|r| r.error(doc.format))?;
        let asked = choice_name(request.strategy);
        let timer = Timer::start();
        let list = doc.buffers.as_ref().filter(|_| doc.plan.is_none());
        if let (Route::Place(strategy), Some(list)) = (&route, list) {
            let placement = place_list(list, *strategy, &request.budget)?;
            return Ok(placed(list, placement, asked));
        }
        let capacity = list.and_then(|l| l.capacity).map(|c| c.to_string());
        // The plan the strategy starts from, and the driver options it was made with
        // (`best` also tries Aidge's other configurations from them).
        let (start, opts) = match (&route, &doc.schedule) {
            (Route::Schedule(Some(opts), _), Some(schedule)) => {
                (Cow::Owned(drivers::generate(schedule, opts)?), opts.clone())
            }
            // The loaded plan is the file's own: Aidge's defaults are run here.
            (Route::Schedule(None, _), Some(schedule)) if doc.plan.is_some() => {
                let opts = DriverOptions::default();
                (Cow::Owned(drivers::generate(schedule, &opts)?), opts)
            }
            _ => {
                let loaded = load_once(&mut self.loaded, doc, &self.name)?;
                let opts = match &doc.plan {
                    Some(_) => recorded_options(loaded),
                    None => DriverOptions::default(),
                };
                (Cow::Borrowed(loaded), opts)
            }
        };
        let wrapped = start.planes.iter().any(|p| p.is_wrapped());
        let (mut plan, reordered, layouts_bound) = match route.strategy() {
            None => (start.into_owned(), None, None),
            Some(s) => move_spaces(
                &start,
                doc.schedule.as_ref(),
                &opts,
                s,
                &request.budget,
                request.keep_order,
            )?,
        };
        // The plan holds only in its own order when best chose another (or the file's
        // plan already said so).
        plan.reordered |= reordered.is_some();
        // On a schedule, the bound is the one over every layout (best's, when it made
        // them all; else made here, once per options): never one a re-plan goes under.
        let floor = match &doc.schedule {
            Some(_) if request.no_floor => None,
            Some(schedule) => {
                let keep = request.keep_order;
                let cached = self.floors.iter().find(|f| f.0 == opts && f.1 == keep);
                let floor = match (layouts_bound, cached, route.strategy()) {
                    (Some(b), _, _) => Some(b),
                    (None, Some(f), _) => Some(f.2),
                    // A best that could not make every layout in its budget: no time
                    // for them here either.
                    (None, None, Some(Strategy::Best)) => None,
                    // Within what is left of the request's budget (`memplan plan
                    // --budget` bounds the whole command), at most FLOOR_MS.
                    (None, None, _) => strategy_step::layouts_floor(
                        &plan,
                        schedule,
                        &opts,
                        keep,
                        FLOOR_MS.min(request.budget.millis.saturating_sub(timer.elapsed_ms())),
                        &request.budget,
                    ),
                };
                // Kept once known (a floor not made in one request's time may be in
                // another's).
                if let Some(b) = floor {
                    self.floors.retain(|f| !(f.0 == opts && f.1 == keep));
                    self.floors.push((opts.clone(), keep, b));
                }
                floor
            }
            None => None,
        };
        let scope = match floor {
            Some(_) => BoundScope::Layouts,
            None => bound_scope(doc),
        };
        let mut report = report(asked, &plan, &timer, capacity, scope, layouts_bound, floor);
        if let (Some(s), None, Format::AidgeLog(_)) = (route.strategy(), &doc.schedule, &doc.format)
        {
            report.limits = Some(log_limits(wrapped, s));
        }
        if reordered.is_some() {
            report.order = Some(
                "best runs the parallel branches in another order than the file's schedule: \
                 run the nodes in the order of the plan's steps (memplan plan writes that \
                 schedule with the plan)"
                    .into(),
            );
        }
        self.reordered = reordered;
        Ok((plan, report))
    }
}

/// A buffer list placed by `strategy`, or by [`strategies::place_default`] (`None`:
/// the list has no offsets and is kept as loaded).
fn place_list(
    list: &BufferList,
    strategy: Option<Strategy>,
    budget: &Budget,
) -> Result<strategies::Placement> {
    match strategy {
        None => strategy_step::place_default(list),
        Some(s) => strategy_step::place(list, s, budget),
    }
}

/// `plan`'s spaces moved by `strategy`; with the schedule, `best` also tries Aidge's
/// other configurations (made with `opts` otherwise).
fn move_spaces(
    plan: &Plan,
    schedule: Option<&crate::schedule::Schedule>,
    opts: &DriverOptions,
    strategy: Strategy,
    budget: &Budget,
    keep_order: bool,
) -> Result<Moved> {
    strategy_step::move_spaces(plan, schedule, opts, strategy, budget, keep_order)
}

/// A plan with its spaces moved, the schedule it runs when `best` reordered the
/// branches, and the bound over every layout `best` made (`configs::replan_schedule`).
type Moved = (Plan, Option<crate::schedule::Schedule>, Option<u64>);

/// The strategies themselves. The page's first wasm module (feature `lite`) plans
/// only as loaded, and never a list without offsets (its `Planner::read` leaves such
/// a list to the whole crate's module): these steps are left out of it so it links
/// none of the strategies, `place_default` included (a ninth of the module: each
/// greedy order is a sort of its own).
#[cfg(not(feature = "lite"))]
mod strategy_step {
    use super::*;

    pub(super) fn place_default(list: &BufferList) -> Result<strategies::Placement> {
        strategies::place_default(list)
    }

    pub(super) fn place(
        list: &BufferList,
        s: Strategy,
        budget: &Budget,
    ) -> Result<strategies::Placement> {
        strategies::place(list, s, budget)
    }

    pub(super) fn move_spaces(
        plan: &Plan,
        schedule: Option<&crate::schedule::Schedule>,
        opts: &DriverOptions,
        s: Strategy,
        budget: &Budget,
        keep_order: bool,
    ) -> Result<Moved> {
        let Some(schedule) = schedule else {
            let placed = strategies::replan(plan, s, budget)?;
            // `best` never ends above the plan it started from (an Aidge log of
            // wrap-around + optimize can be below any placement of its spaces).
            let peak = |p: &Plan| stats::stats(p).peak;
            let keep =
                s == Strategy::Best && peak(plan) < peak(&placed) && check::check(plan).is_valid();
            return Ok((if keep { plan.clone() } else { placed }, None, None));
        };
        configs::replan_schedule(plan, schedule, opts, s, budget, keep_order)
    }

    pub(super) fn layouts_floor(
        plan: &Plan,
        schedule: &crate::schedule::Schedule,
        opts: &DriverOptions,
        keep_order: bool,
        millis: u64,
        budget: &Budget,
    ) -> Option<u64> {
        configs::layouts_floor(plan, schedule, opts, keep_order, millis, budget)
    }
}

#[cfg(feature = "lite")]
mod strategy_step {
    use super::*;

    fn absent(s: impl std::fmt::Display) -> Error {
        Error::whole(format!("{s}: not in the page's first module (pkg-lite)"))
    }

    pub(super) fn place_default(_: &BufferList) -> Result<strategies::Placement> {
        Err(absent("a buffer list without offsets"))
    }

    pub(super) fn place(_: &BufferList, s: Strategy, _: &Budget) -> Result<strategies::Placement> {
        Err(absent(s))
    }

    pub(super) fn move_spaces(
        _: &Plan,
        _: Option<&crate::schedule::Schedule>,
        _: &DriverOptions,
        s: Strategy,
        _: &Budget,
        _: bool,
    ) -> Result<Moved> {
        Err(absent(s))
    }

    /// The first module does not make the other layouts: its plans keep their
    /// layout's bound, and the page asks the whole crate's module for the rest.
    pub(super) fn layouts_floor(
        _: &Plan,
        _: &crate::schedule::Schedule,
        _: &DriverOptions,
        _: bool,
        _: u64,
        _: &Budget,
    ) -> Option<u64> {
        None
    }
}

/// The report of a plan made (or kept) as a whole since `timer` started, its bound
/// of `scope`: `floor`, the bound over every layout of a schedule, when known
/// ([`BoundScope::Layouts`]); and, for `best` on a schedule, the bound over every
/// layout it made.
fn report(
    asked: &str,
    plan: &Plan,
    timer: &Timer,
    capacity: Option<String>,
    scope: BoundScope,
    layouts_bound: Option<u64>,
    floor: Option<u64>,
) -> PlanReport {
    let (s, at_bound) = bounds(plan, floor);
    let proven_optimal = match scope {
        BoundScope::Placements => at_bound,
        // One component: the layouts' bound is the component's. A plan at it is
        // valid (`bounds` checked it when at its bound).
        BoundScope::Layouts => s.components.len() == 1 && at_bound,
        BoundScope::Layout => false,
    };
    PlanReport {
        strategy: asked.into(),
        strategy_used: asked.into(),
        peak: s.peak.to_string(),
        lower_bound: s.lower_bound.to_string(),
        bound_scope: scope,
        layouts_bound: layouts_bound.map(|b| b.to_string()),
        at_bound,
        component_peaks: component_peaks(plan),
        proven_optimal,
        elapsed_ms: timer.elapsed_ms(),
        iterations: 0,
        capacity,
        limits: None,
        order: None,
    }
}

/// The stats every face shows of `plan` with its `report` ([`Session::plan`]'s): on a
/// schedule, their bounds are the one over every layout ([`BoundScope::Layouts`]), so
/// the chart's line, the panel, `memplan stats` and its JSON show the bound the report
/// states, not one a re-plan goes under.
pub fn stats(plan: &Plan, report: &PlanReport) -> stats::Stats {
    let s = stats::stats(plan);
    match report.floor() {
        Some(floor) => s.floored(floor),
        None => s,
    }
}

/// The top of every component of `plan` ([`Plan::peaks`]), digits.
fn component_peaks(plan: &Plan) -> Vec<String> {
    plan.peaks().iter().map(ToString::to_string).collect()
}

fn has_offsets(list: &BufferList) -> bool {
    list.buffers.iter().all(|b| b.offset.is_some())
}

/// A buffer list at the offsets of `placed`, with its report.
fn placed(list: &BufferList, placed: strategies::Placement, asked: &str) -> (Plan, PlanReport) {
    let plan = list.to_plan(&placed.offsets);
    let report = PlanReport {
        strategy: asked.into(),
        strategy_used: placed.strategy_used.name().into(),
        peak: placed.peak.to_string(),
        lower_bound: placed.lower_bound.to_string(),
        bound_scope: BoundScope::Placements,
        layouts_bound: None,
        at_bound: placed.peak == placed.lower_bound,
        component_peaks: component_peaks(&plan),
        proven_optimal: placed.proven_optimal,
        elapsed_ms: placed.elapsed_ms,
        iterations: placed.iterations,
        capacity: list.capacity.map(|c| c.to_string()),
        limits: (placed.stacked > 0).then(|| {
            format!(
                "the budget ended before the sweep placed every buffer: {} of {} are stacked \
                 one above the other over the rest, far above what a longer budget gives",
                placed.stacked,
                list.buffers.len()
            )
        }),
        order: None,
    };
    (plan, report)
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

/// The stats of `plan` (its bounds lowered to `floor`, [`stats::Stats::floored`]) and
/// whether every component sits at its lower bound (which proves no placement of these
/// spaces is smaller: live spaces cannot overlap). A broken plan (overlapping live
/// spaces) can reach its bound by overlapping, so the proof also needs the checker's
/// word; it only runs when the bound is reached.
fn bounds(plan: &Plan, floor: Option<u64>) -> (stats::Stats, bool) {
    let s = stats::stats(plan);
    let s = match floor {
        Some(f) => s.floored(f),
        None => s,
    };
    let at_bound = s.components.iter().all(|c| c.peak == c.lower_bound);
    let proven = at_bound && check::check(plan).is_valid();
    (s, proven)
}

/// The plan a document stands for, as loaded ([`route`] of [`AS_LOADED`]): its plan
/// as given; else its schedule through Aidge 0.10.1's default driver; else its
/// buffers at their offsets or, without offsets, placed by `place_default`.
pub fn resolve(doc: &Document) -> Result<Plan> {
    let route = route(Holds::of(doc), &Request::default()).map_err(|r| r.error(doc.format))?;
    match (&route, &doc.plan, &doc.schedule, &doc.buffers) {
        (Route::Plan(_), Some(plan), _, _) => Ok(plan.clone()),
        (Route::Schedule(..), _, Some(schedule), _) => {
            drivers::generate(schedule, &DriverOptions::default())
        }
        (Route::Offsets | Route::Place(_), _, _, Some(list)) => plan_buffers(list),
        _ => Err(Refusal::Nothing.error(doc.format)),
    }
}

/// A buffer list's plan as loaded: its offsets when every buffer has one, else
/// placed by [`strategies::place_default`] (TFLite's greedy by size, or the sweep on
/// lists too dense for it: fast and deterministic, so that opening a file never waits
/// on a search).
pub fn plan_buffers(list: &BufferList) -> Result<Plan> {
    let route = route(
        Holds::List {
            offsets: has_offsets(list),
        },
        &Request::default(),
    );
    let offsets: Vec<Bytes> = match route {
        Ok(Route::Place(s)) => place_list(list, s, &Budget::default())?.offsets,
        _ => list.buffers.iter().map(|b| b.offset.unwrap_or(0)).collect(),
    };
    Ok(list.to_plan(&offsets))
}

/// `doc` written as `export`; formats that need a plan get [`resolve`]'s.
pub fn export(doc: &Document, export: Export) -> Result<String> {
    formats::write(doc, export, resolve)
}

/// Aidge's default options with the memory components `plan` records when every one
/// has a capacity (an export of multiple-mems), as `memplan plan` re-plans a file.
fn recorded_options(plan: &Plan) -> DriverOptions {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Buffer;

    fn ask(choice: &str, millis: u64) -> Request {
        Request::new(choice, Budget::millis(millis)).unwrap()
    }

    // The precedence table of docs/ARCHITECTURE.md ("Planning precedence"), one test
    // per row, named in its last column.

    const PLAN: Holds = Holds::Plan { schedule: false };
    const EXPORT: Holds = Holds::Plan { schedule: true };
    const LIST: Holds = Holds::List { offsets: true };
    const BARE_LIST: Holds = Holds::List { offsets: false };
    const BEST: Option<Strategy> = Some(Strategy::Best);

    fn req(strategy: Option<Strategy>, from: Option<Source>, driver: bool) -> Request {
        Request {
            strategy,
            from,
            driver: driver.then(DriverOptions::default),
            ..Request::default()
        }
    }

    #[test]
    fn precedence_a_plan_as_loaded_is_kept() {
        for holds in [PLAN, EXPORT] {
            for from in [None, Some(Source::Plan)] {
                assert_eq!(route(holds, &req(None, from, false)), Ok(Route::Plan(None)));
            }
        }
    }

    #[test]
    fn precedence_a_strategy_moves_a_plans_spaces() {
        for holds in [PLAN, EXPORT] {
            assert_eq!(route(holds, &req(BEST, None, false)), Ok(Route::Plan(BEST)));
        }
    }

    #[test]
    fn precedence_the_schedule_when_asked_for() {
        let d = Some(DriverOptions::default());
        for holds in [EXPORT, Holds::Schedule] {
            for strategy in [None, BEST] {
                let from = Some(Source::Schedule);
                let r = route(holds, &req(strategy, from, false));
                assert_eq!(r, Ok(Route::Schedule(None, strategy)));
                let r = route(holds, &req(strategy, None, true));
                assert_eq!(r, Ok(Route::Schedule(d.clone(), strategy)));
                let r = route(holds, &req(strategy, from, true));
                assert_eq!(r, Ok(Route::Schedule(d.clone(), strategy)));
            }
        }
    }

    #[test]
    fn precedence_a_schedule_alone_goes_through_the_driver() {
        for strategy in [None, BEST] {
            let r = route(Holds::Schedule, &req(strategy, None, false));
            assert_eq!(r, Ok(Route::Schedule(None, strategy)));
        }
        let r = route(Holds::Schedule, &req(None, Some(Source::Plan), false));
        assert_eq!(r, Err(Refusal::NoPlan));
    }

    #[test]
    fn precedence_no_schedule_to_plan_from() {
        for holds in [PLAN, LIST, BARE_LIST] {
            let r = route(holds, &req(BEST, Some(Source::Schedule), false));
            assert_eq!(r, Err(Refusal::NoSchedule));
            assert_eq!(
                route(holds, &req(None, None, true)),
                Err(Refusal::NoSchedule)
            );
        }
    }

    #[test]
    fn precedence_driver_options_contradict_a_plan() {
        for holds in [PLAN, EXPORT, Holds::Schedule, LIST] {
            let mut asked = req(None, Some(Source::Plan), true);
            assert_eq!(route(holds, &asked), Err(Refusal::DriverOnPlan(None)));
            // The flag the user typed is the one the refusal names.
            asked.driver_flag = Some("--wrap");
            let refusal = route(holds, &asked).unwrap_err();
            assert_eq!(refusal, Refusal::DriverOnPlan(Some("--wrap")));
            let message = refusal.error(Format::Memplan).message;
            assert_eq!(message, "--wrap applies to schedules, not to --from plan");
        }
    }

    #[test]
    fn precedence_a_list_keeps_its_offsets() {
        for from in [None, Some(Source::Plan)] {
            assert_eq!(route(LIST, &req(None, from, false)), Ok(Route::Offsets));
        }
    }

    #[test]
    fn precedence_a_list_without_offsets_is_placed_by_default() {
        for from in [None, Some(Source::Plan)] {
            assert_eq!(
                route(BARE_LIST, &req(None, from, false)),
                Ok(Route::Place(None))
            );
        }
    }

    #[test]
    fn precedence_a_strategy_places_a_lists_buffers() {
        for holds in [LIST, BARE_LIST] {
            assert_eq!(
                route(holds, &req(BEST, None, false)),
                Ok(Route::Place(BEST))
            );
        }
    }

    #[test]
    fn precedence_nothing_to_plan() {
        for r in [
            req(None, None, false),
            req(BEST, Some(Source::Schedule), true),
        ] {
            let got = route(Holds::Nothing, &r);
            assert!(
                matches!(got, Err(Refusal::Nothing | Refusal::DriverOnPlan(_))),
                "{got:?}"
            );
        }
        assert_eq!(
            route(Holds::Nothing, &req(BEST, None, false)),
            Err(Refusal::Nothing)
        );
    }

    #[test]
    fn the_alias_of_as_loaded_still_works() {
        assert_eq!(parse_choice(AS_LOADED_ALIAS).unwrap(), None);
        assert_eq!(parse_choice(AS_LOADED).unwrap(), None);
        let r = ask(AS_LOADED_ALIAS, 10);
        let mut s = Session::open("x.csv", CSV.as_bytes()).unwrap();
        assert_eq!(
            s.plan(&r).unwrap().1.strategy,
            AS_LOADED,
            "reports the honest name"
        );
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
        assert!(text.contains("or as-loaded"), "{text}");
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
        let plan = plan_buffers(&list).unwrap();
        assert!(check::check(&plan).is_valid());
        assert_eq!(plan.peak(), 12, "the lower bound of MiniMalloc's example");
    }
}
