//! The page's opened files, registered in one place. The [`Viewer`] hands out an id per
//! file (never reused, so a menu's value or a re-plan in flight cannot land on another
//! file after a close) and keeps, beside the chart, what the page needs to know of it:
//! the name it is shown by, its [`Source`] (what the worker reads again to re-plan), the
//! strategy and report of its plan, and its lineage (a planned copy knows the file it
//! was planned from). JS asks for these by id: it keeps no store of files of its own and
//! never reads anything out of a name (every Aidge dump is called `memory_info.txt`, and
//! a user may rename any file).
//!
//! A re-plan is a [`PlanJob`]: what the worker must read and with which strategy, and
//! which file its plan becomes when it comes back ([`Viewer::finish_plan`]): the family
//! of a file (the file and its planned copies) holds one plan per strategy.

use super::Viewer;
use crate::formats::words;
use crate::planning::AS_LOADED;
use crate::scene::{Chart, Renderer, View};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// What a file was read from, shared by the file and its planned copies.
pub(super) struct Source {
    /// The worker's cache key: a re-plan of the same source skips parsing.
    key: u32,
    /// The file's own name, which the worker reads it by (formats are told by it).
    name: String,
    /// The bytes, a JS `Blob` (opaque here: only the worker reads it).
    blob: JsValue,
    /// The file it is read with (XLA's live ranges beside its buffer assignment).
    companion: Option<(String, JsValue)>,
    /// How the worker deploys what it read (`recipes`, `dtype`: the page's "Deploy as",
    /// `planning::Session::deploy`), or None for the file as read.
    deploy: Option<(String, String)>,
}

/// One opened file: its chart and view, and the page's record of it.
pub(super) struct Opened {
    pub(super) id: u32,
    /// The name shown in the menus; unique among the open files.
    pub(super) name: String,
    pub(super) chart: Chart,
    /// The caches of the chart's frames (occupancy tiles of a big plan).
    pub(super) renderer: Renderer,
    pub(super) view: View,
    /// None for a file handed over as bytes (`Viewer::open`, `<memplan-view>`).
    source: Option<Rc<Source>>,
    /// The strategy of its plan (`planning::AS_LOADED`: as loaded).
    strategy: String,
    /// The worker's planning report (`planning::PlanReport` plus `worker_ms`), or null.
    report: JsValue,
    /// The file it was planned from (a planned copy), or None (a file as opened).
    parent: Option<u32>,
    /// The name of the file it was planned from (its own for a file as opened), kept
    /// for re-plans once that file is closed.
    base: String,
    /// Renamed by the user: a copy's name no longer follows its parent's.
    named: bool,
    /// The address it was opened from, where its plan can be fetched again (a link).
    link: Option<String>,
    /// The file it was deployed from ("Deploy as": a file of its own, not a planned
    /// copy), which Compare pairs it with.
    origin: Option<u32>,
    /// Changes whenever the plan shown under this id changes (a re-plan replaces it).
    revision: u32,
}

impl Opened {
    /// A file as opened, with no source to re-plan from.
    pub(super) fn new(
        id: u32,
        name: &str,
        chart: Chart,
        strategy: &str,
        size: (f64, f64, f64),
    ) -> Self {
        let (w, h, dpr) = size;
        Opened {
            id,
            name: name.to_owned(),
            view: View::fit(&chart, w, h, dpr),
            chart,
            renderer: Renderer::default(),
            source: None,
            strategy: strategy.to_owned(),
            report: JsValue::NULL,
            parent: None,
            base: name.to_owned(),
            named: false,
            link: None,
            origin: None,
            revision: id,
        }
    }

    /// Keeps the planning report of a file planned on the main thread
    /// (`Viewer::open_with`: `<memplan-view>`, embed.html, the notebook widget).
    #[cfg(not(feature = "lite"))]
    pub(super) fn set_report(&mut self, report: JsValue) {
        self.report = report;
    }
}

/// A plan to make in the worker: which source, with which strategy, and which file it
/// becomes ([`Viewer::open_job`], [`Viewer::replan_job`]).
#[wasm_bindgen]
#[derive(Clone)]
pub struct PlanJob {
    pub(super) source: Rc<Source>,
    strategy: String,
    /// The file whose family is re-planned (the one a planned copy came from), or None
    /// for a file being opened.
    root: Option<u32>,
    /// The root's name when asked (its copies are called `name · strategy`).
    base: String,
    /// For a deployment, the file deployed ([`Opened::origin`]).
    origin: Option<u32>,
}

#[wasm_bindgen]
impl PlanJob {
    /// The worker's cache key of the source.
    #[wasm_bindgen(getter)]
    pub fn key(&self) -> u32 {
        self.source.key
    }
    /// The file's own name, which the worker reads it by.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.source.name.clone()
    }
    /// The file's bytes (a `Blob`).
    #[wasm_bindgen(getter)]
    pub fn source(&self) -> JsValue {
        self.source.blob.clone()
    }
    /// `{ recipes, dtype }`: how the worker deploys what it reads before planning it
    /// ("Deploy as"), or undefined.
    #[wasm_bindgen(getter)]
    pub fn deploy(&self) -> JsValue {
        let Some((recipes, dtype)) = &self.source.deploy else {
            return JsValue::UNDEFINED;
        };
        let o = js_sys::Object::new();
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &"recipes".into(), &recipes.into());
        let _ = js_sys::Reflect::set(&o, &"dtype".into(), &dtype.into());
        o.into()
    }
    /// `{ name, source }` of the file read with it, or undefined.
    #[wasm_bindgen(getter)]
    pub fn companion(&self) -> JsValue {
        let Some((name, blob)) = &self.source.companion else {
            return JsValue::UNDEFINED;
        };
        let o = js_sys::Object::new();
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &"name".into(), &name.into());
        let _ = js_sys::Reflect::set(&o, &"source".into(), blob);
        o.into()
    }
    #[wasm_bindgen(getter)]
    pub fn strategy(&self) -> String {
        self.strategy.clone()
    }
}

/// The `capacity` (digits) of a planning report, if it states one.
fn capacity(report: &JsValue) -> Option<u64> {
    js_sys::Reflect::get(report, &"capacity".into())
        .ok()?
        .as_string()?
        .parse()
        .ok()
}

impl Viewer {
    /// A number no file, source or revision had before.
    pub(super) fn fresh_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    pub(super) fn index_of(&self, id: u32) -> Option<usize> {
        self.files.iter().position(|f| f.id == id)
    }

    fn by_id(&self, id: u32) -> Option<&Opened> {
        self.files.iter().find(|f| f.id == id)
    }

    /// `name`, else `name (2)`, `name (3)`…: a name no open file but `except` has.
    /// Every Aidge dump is called memory_info.txt, and comparing two of them is the
    /// point: they must be told apart in the menus.
    fn unique_name(&self, name: &str, except: Option<u32>) -> String {
        let taken = |n: &str| {
            self.files
                .iter()
                .any(|f| Some(f.id) != except && f.name == n)
        };
        if !taken(name) {
            return name.to_owned();
        }
        (2..)
            .map(|k| format!("{name} ({k})"))
            .find(|n| !taken(n))
            .unwrap_or_default()
    }

    /// Adds `opened` to the list and shows it; returns its index.
    pub(super) fn add(&mut self, opened: Opened) -> usize {
        self.files.push(opened);
        let i = self.files.len() - 1;
        self.select_index(i);
        i
    }

    /// Shows the plan a job brought back (`finish_plan`): it replaces the plan of the
    /// member of the job's family with the job's strategy, else becomes a new file
    /// (a planned copy of the root, or a file as opened). Returns the file's id.
    pub(super) fn place(&mut self, job: &PlanJob, mut chart: Chart, report: JsValue) -> u32 {
        if let Some(c) = capacity(&report) {
            chart = chart.with_capacity(0, c);
        }
        let scope = js_sys::Reflect::get(&report, &"bound_scope".into()).ok();
        if scope.and_then(|s| s.as_string()).as_deref() == Some("layout") {
            chart = chart.with_layout_bound();
        }
        // What the file's format calls things (the worker's `Planner::report`).
        let key = js_sys::Reflect::get(&report, &"words".into()).ok();
        if let Some(words) = key
            .and_then(|k| k.as_string())
            .and_then(|k| words::by_key(&k))
        {
            chart = chart.with_words(words);
        }
        let revision = self.fresh_id();
        let strategy = job.strategy.as_str();
        let member = job.root.and_then(|root| {
            self.files.iter().position(|f| {
                f.strategy == strategy
                    && (f.parent == Some(root) || (f.id == root && f.parent.is_none()))
            })
        });
        let (w, h, dpr) = self.size;
        if let Some(i) = member {
            let f = &mut self.files[i];
            f.view = View::fit(&chart, w, h, dpr);
            f.chart = chart;
            f.renderer = Renderer::default();
            f.report = report;
            f.revision = revision;
            let id = f.id;
            self.select_index(i);
            return id;
        }
        let (name, parent) = match job.root {
            Some(root) if strategy != AS_LOADED => {
                (format!("{} · {strategy}", job.base), Some(root))
            }
            _ => (job.base.clone(), None),
        };
        let id = self.fresh_id();
        let name = self.unique_name(&name, None);
        let mut opened = Opened::new(id, &name, chart, strategy, self.size);
        opened.source = Some(job.source.clone());
        opened.report = report;
        opened.parent = parent;
        opened.origin = job.origin;
        opened.base = job.base.clone();
        opened.revision = revision;
        self.add(opened);
        id
    }
}

#[wasm_bindgen]
impl Viewer {
    /// The ids of the opened files, in order (`file_name`, `parent`, `report` tell
    /// the rest).
    pub fn files(&self) -> Vec<u32> {
        self.files.iter().map(|f| f.id).collect()
    }

    /// The id of the file shown.
    pub fn current(&self) -> Option<u32> {
        self.current.and_then(|i| self.files.get(i)).map(|f| f.id)
    }

    /// Shows file `id` (its own view is kept across switches).
    pub fn select_file(&mut self, id: u32) {
        if let Some(i) = self.index_of(id) {
            self.select_index(i);
        }
    }

    /// The name file `id` is shown by.
    pub fn file_name(&self, id: u32) -> Option<String> {
        self.by_id(id).map(|f| f.name.clone())
    }

    /// `{ name, source }`: the name and bytes (a `Blob`) file `id` was read from (a
    /// planned copy's are its original's), or undefined; a `.tflite`'s download with
    /// the shown plan writes into these bytes.
    pub fn file_source(&self, id: u32) -> JsValue {
        let Some(source) = self.by_id(id).and_then(|f| f.source.as_ref()) else {
            return JsValue::UNDEFINED;
        };
        let o = js_sys::Object::new();
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &"name".into(), &source.name.clone().into());
        let _ = js_sys::Reflect::set(&o, &"source".into(), &source.blob);
        o.into()
    }

    /// The open file that file `id` was deployed from ("Deploy as"), if any: with its
    /// [`Viewer::parent`], what Compare pairs it with by default.
    pub fn origin(&self, id: u32) -> Option<u32> {
        self.by_id(id)?
            .origin
            .filter(|p| self.index_of(*p).is_some())
    }

    /// The open file that file `id` was planned from, if any.
    pub fn parent(&self, id: u32) -> Option<u32> {
        self.by_id(id)?
            .parent
            .filter(|p| self.index_of(*p).is_some())
    }

    /// The planning report of file `id` (as the worker made it), or null.
    pub fn report(&self, id: u32) -> JsValue {
        self.by_id(id).map_or(JsValue::NULL, |f| f.report.clone())
    }

    /// The peak of the plan file `id`'s family has as loaded (the file it was planned
    /// from, or itself), when that plan is open.
    fn as_loaded_peak(&self, id: u32) -> Option<crate::model::Bytes> {
        let f = self.by_id(id)?;
        let root = f.parent.unwrap_or(f.id);
        self.files
            .iter()
            .find(|g| g.strategy == AS_LOADED && (g.id == root || g.parent == Some(root)))
            .map(|g| g.chart.stats().peak)
    }

    /// What the shown plan gains over the file's plan as loaded:
    /// `{ as_loaded, before, after, saved }` (digits; `saved` is 0 for the plan as loaded
    /// itself and for a re-plan that gains nothing, and the page then offers no
    /// "planned" model), or null when the plan as loaded is not open.
    pub fn replan_gain(&self) -> JsValue {
        #[derive(serde::Serialize)]
        struct Gain {
            as_loaded: bool,
            before: String,
            after: String,
            saved: String,
        }
        let Some(f) = self.current.and_then(|i| self.files.get(i)) else {
            return JsValue::NULL;
        };
        let Some(before) = self.as_loaded_peak(f.id) else {
            return JsValue::NULL;
        };
        let after = f.chart.stats().peak;
        super::to_js(&Gain {
            as_loaded: f.strategy == AS_LOADED,
            before: before.to_string(),
            after: after.to_string(),
            saved: before.saturating_sub(after).to_string(),
        })
    }

    /// The `kTensorArenaSize` to set for the shown plan of a `.tflite` model, told by
    /// TFLM's `print_allocations()` output `text` (its tail: `formats::tflm::arena_size`):
    /// `{ size, text }` (digits, and what to tell the user), `{ error }` when the output
    /// is another model's, or null when the shown plan is not of a `.tflite` (or its
    /// plan as loaded is not open) or `text` has no head and tail.
    pub fn tflm_arena(&self, text: &str) -> JsValue {
        #[derive(serde::Serialize)]
        struct Arena {
            size: Option<String>,
            text: String,
            error: bool,
        }
        let Some(f) = self.current.and_then(|i| self.files.get(i)) else {
            return JsValue::NULL;
        };
        let tflite = f
            .source
            .as_ref()
            .is_some_and(|s| s.name.to_ascii_lowercase().ends_with(".tflite"));
        let (Some(a), Some(model_head), true) = (
            crate::formats::tflm::allocations(text),
            self.as_loaded_peak(f.id),
            tflite,
        ) else {
            return JsValue::NULL;
        };
        let shown = match crate::formats::tflm::arena_size(&a, model_head, f.chart.stats().peak) {
            Ok((size, text)) => Arena {
                size: Some(size.to_string()),
                text,
                error: false,
            },
            Err(e) => Arena {
                size: None,
                text: e.to_string(),
                error: true,
            },
        };
        super::to_js(&shown)
    }

    /// Renames file `id`; its planned copies that the user did not name follow
    /// (`name · strategy`). False when there is no such file or `name` is blank or
    /// taken by another file.
    pub fn rename_file(&mut self, id: u32, name: &str) -> bool {
        let name = name.trim();
        let taken = self.files.iter().any(|f| f.id != id && f.name == name);
        let Some(i) = self.index_of(id) else {
            return false;
        };
        if name.is_empty() || taken {
            return false;
        }
        self.files[i].name = name.to_owned();
        self.files[i].named = true;
        let copies: Vec<usize> = (0..self.files.len())
            .filter(|&j| self.files[j].parent == Some(id))
            .collect();
        for j in copies {
            self.files[j].base = name.to_owned();
            if !self.files[j].named {
                let wanted = format!("{name} · {}", self.files[j].strategy);
                self.files[j].name = self.unique_name(&wanted, Some(self.files[j].id));
            }
        }
        true
    }

    /// Closes file `id`; the file after it (else before it) is shown if it was shown.
    /// Its planned copies stay open. False when there is no such file.
    pub fn close_file(&mut self, id: u32) -> bool {
        let Some(i) = self.index_of(id) else {
            return false;
        };
        self.files.remove(i);
        self.current = match self.current {
            _ if self.files.is_empty() => None,
            Some(c) if c == i => Some(i.min(self.files.len() - 1)),
            Some(c) if c > i => Some(c - 1),
            c => c,
        };
        if let Some(c) = self.current {
            self.select_index(c);
        }
        true
    }

    /// What a download of the shown file is named before its extension: the file's
    /// name without folders or the extension of a format the page reads, else `plan`.
    pub fn file_stem(&self) -> String {
        let name = self
            .current
            .and_then(|i| self.files.get(i))
            .map_or("", |f| f.name.as_str());
        stem_of(name)
    }

    /// What a download of the shown plan in text format `format` (a name or an alias
    /// of [`crate::formats::Export::CHOICES`]) is named: [`Viewer::file_stem`] and the
    /// format's own suffix, so no two formats of one plan share a name; a stem that
    /// already ends with the suffix's first word has it once (`memory_info` in the
    /// Aidge logs: `memory_info.txt`, `memory_info.single.txt`, not
    /// `memory_info.memory_info.txt`). None for a name that is no format.
    pub fn export_name(&self, format: &str) -> Option<String> {
        let choice = crate::formats::Export::CHOICES
            .iter()
            .find(|c| c.name == format || c.aliases.contains(&format))?;
        Some(download_name(&self.file_stem(), choice.suffix))
    }

    /// The name of the file that file `id` was read from (a planned copy's: its
    /// original's), without its folder: the file a link asks its receiver to open when
    /// the plan is too large to travel in it.
    pub fn source_name(&self, id: u32) -> Option<String> {
        let source = self.by_id(id)?.source.as_ref()?;
        let name = source.name.rsplit(['/', '\\']).next().unwrap_or_default();
        Some(name.to_owned())
    }

    /// How file `id`'s plan was made, for a link to say it: `{ strategy, budget, peak }`
    /// (the strategy's name, the budget in ms it was given and the peak it reached, in
    /// digits), or undefined for a plan as loaded.
    pub fn planned_as(&self, id: u32) -> JsValue {
        let Some(f) = self.by_id(id).filter(|f| f.strategy != AS_LOADED) else {
            return JsValue::UNDEFINED;
        };
        let o = js_sys::Object::new();
        let field = |key: &str| js_sys::Reflect::get(&f.report, &key.into()).ok();
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&o, &"strategy".into(), &f.strategy.as_str().into());
        if let Some(budget) = field("budget_ms").filter(|v| v.as_f64().is_some()) {
            let _ = js_sys::Reflect::set(&o, &"budget".into(), &budget);
        }
        if let Some(peak) = field("peak").filter(|v| v.as_string().is_some()) {
            let _ = js_sys::Reflect::set(&o, &"peak".into(), &peak);
        }
        o.into()
    }

    /// Records that file `id` (a link's plan, opened as loaded) is a plan its sender made
    /// with `strategy`: it becomes its family's plan of that strategy (a re-plan with it
    /// replaces it), and its report says so (`linked`) instead of "as loaded".
    pub fn set_planned(&mut self, id: u32, strategy: &str) {
        let Some(i) = self.index_of(id) else {
            return;
        };
        let f = &mut self.files[i];
        f.strategy = strategy.to_owned();
        if f.report.is_object() {
            for (key, value) in [
                ("strategy", JsValue::from_str(strategy)),
                ("strategy_used", JsValue::from_str(strategy)),
                ("linked", JsValue::TRUE),
            ] {
                let _ = js_sys::Reflect::set(&f.report, &key.into(), &value);
            }
        }
    }

    /// Gives file `id` (a schedule's plan shown with its layout's bound, from the page's
    /// first module) the bound over every layout memplan makes, `floor` (digits: the
    /// `layouts_bound` of `best`'s report, which the page asks the whole crate's module
    /// for after the first frame), and what `best` reached, `best` (digits): the chart
    /// draws and measures against `floor` ([`Chart::with_floor`]) and the report says
    /// both. False when `id` is not open or `floor` is not digits.
    pub fn set_floor(&mut self, id: u32, floor: &str, best: &str) -> bool {
        let (Some(i), Ok(floor)) = (self.index_of(id), floor.parse::<u64>()) else {
            return false;
        };
        let f = &mut self.files[i];
        f.chart = f.chart.clone().with_floor(floor);
        let s = f.chart.stats();
        let at_bound = s.components.iter().all(|c| c.peak == c.lower_bound);
        let proven = at_bound && s.components.len() == 1 && f.chart.report().is_valid();
        if f.report.is_object() {
            for (key, value) in [
                ("bound_scope", JsValue::from_str("layouts")),
                ("lower_bound", JsValue::from_str(&floor.to_string())),
                ("at_bound", JsValue::from_bool(at_bound)),
                ("proven_optimal", JsValue::from_bool(proven)),
                ("best_reaches", JsValue::from_str(best)),
            ] {
                let _ = js_sys::Reflect::set(&f.report, &key.into(), &value);
            }
        }
        true
    }

    /// The address file `id` was opened from (a link's `src`), if any.
    pub fn link(&self, id: u32) -> Option<String> {
        self.by_id(id)?.link.clone()
    }

    /// Records that file `id`'s plan was fetched from `url`: a link to it can say where.
    pub fn set_link(&mut self, id: u32, url: &str) {
        if let Some(i) = self.index_of(id) {
            self.files[i].link = Some(url.to_owned());
        }
    }

    /// A number that changes whenever the plan shown changes (another file, or a
    /// re-plan of this one): what a cache of the plan's export is keyed by.
    pub fn revision(&self) -> Option<u32> {
        self.current
            .and_then(|i| self.files.get(i))
            .map(|f| f.revision)
    }

    /// The job of opening a file as loaded: `name` (its own), `source` (a `Blob`), and
    /// the file it is read with, if any.
    pub fn open_job(
        &mut self,
        name: &str,
        source: JsValue,
        companion_name: Option<String>,
        companion_source: JsValue,
    ) -> PlanJob {
        let key = self.fresh_id();
        PlanJob {
            source: Rc::new(Source {
                key,
                name: name.to_owned(),
                blob: source,
                companion: companion_name.map(|n| (n, companion_source)),
                deploy: None,
            }),
            strategy: AS_LOADED.to_owned(),
            root: None,
            base: name.to_owned(),
            origin: None,
        }
    }

    /// The job of opening file `id`'s source as `recipes` and `dtype` deploy it ("Deploy
    /// as"): the worker reads the same bytes, deploys them and plans the result, which
    /// opens as a file of its own, `name · label` (its re-plans are its own family).
    pub fn deploy_job(
        &mut self,
        id: u32,
        recipes: &str,
        dtype: &str,
        label: &str,
    ) -> Result<PlanJob, JsValue> {
        let f = self
            .by_id(id)
            .ok_or_else(|| JsValue::from_str(&format!("no opened file {id}")))?;
        let source = f.source.clone().ok_or_else(|| {
            JsValue::from_str(&format!(
                "{}: opened without its source; open the file again to deploy it",
                f.name
            ))
        })?;
        let base = format!("{} · {label}", f.name);
        let key = self.fresh_id();
        Ok(PlanJob {
            source: Rc::new(Source {
                key,
                name: source.name.clone(),
                blob: source.blob.clone(),
                companion: None,
                deploy: Some((recipes.to_owned(), dtype.to_owned())),
            }),
            strategy: AS_LOADED.to_owned(),
            root: None,
            base,
            origin: Some(id),
        })
    }

    /// The job of re-planning file `id` with `strategy`: the file it was planned from
    /// (or itself) is read again, and the plan replaces that family's plan of the same
    /// strategy, or becomes its planned copy `name · strategy`.
    pub fn replan_job(&self, id: u32, strategy: &str) -> Result<PlanJob, JsValue> {
        let f = self
            .by_id(id)
            .ok_or_else(|| JsValue::from_str(&format!("no opened file {id}")))?;
        let source = f.source.clone().ok_or_else(|| {
            JsValue::from_str(&format!(
                "{}: opened without its source; open the file again to re-plan it",
                f.name
            ))
        })?;
        let root = f.parent.unwrap_or(f.id);
        let base = self
            .by_id(root)
            .map_or_else(|| f.base.clone(), |r| r.name.clone());
        Ok(PlanJob {
            source,
            strategy: strategy.to_owned(),
            root: Some(root),
            base,
            origin: None,
        })
    }
}

/// A file name fit for a download and a C `#include`: the shown name (`memory_info.txt ·
/// best`, `a/memory_info.txt (2)`) without its folder and without the extensions of
/// the formats memplan reads, wherever they stand, its other characters outside
/// `[A-Za-z0-9_.-]` folded into single `_`s (`memory_info_best`); `plan` when nothing is left.
pub(super) fn stem_of(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let mut words = String::new();
    for word in base.split([' ', '\u{b7}', '(', ')']) {
        let lower = word.to_ascii_lowercase();
        let end = [
            ".memplan.json",
            ".json",
            ".txt",
            ".log",
            ".csv",
            ".onnx",
            ".mlir",
            // A model's exports are `x.h`, `x.csv`, `x.svg`, not `x.tflite.h`, as an
            // `x.onnx`'s: not `x_tflite.h`, the name TFLM projects give the model itself
            // (`xxd -i x.tflite` makes the array `x_tflite[]`), which a header of offsets
            // would be taken for, or overwrite.
            ".tflite",
        ]
        .iter()
        .find(|ext| lower.ends_with(*ext))
        .map_or(word.len(), |ext| word.len() - ext.len());
        words.push_str(&word[..end]);
        words.push(' ');
    }
    let mut out = String::new();
    for c in words.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches(['_', '.']);
    if out.is_empty() {
        "plan".to_owned()
    } else {
        out.to_owned()
    }
}

/// `stem` + `suffix` (`.memory_info.cpp.txt`), the suffix's first word left out when the
/// stem ends with it after a separator or as a whole (`memory_info` → `memory_info.cpp.txt`).
fn download_name(stem: &str, suffix: &str) -> String {
    let rest = suffix.strip_prefix('.').unwrap_or(suffix);
    if let Some((word, tail)) = rest.split_once('.') {
        if let Some(head) = stem.strip_suffix(word) {
            if head.is_empty() || head.ends_with(['.', '_', '-']) {
                return format!("{stem}.{tail}");
            }
        }
    }
    format!("{stem}{suffix}")
}
