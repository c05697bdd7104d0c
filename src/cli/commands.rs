//! One function per subcommand (but `render`, in its own module). Each returns the exit
//! status or an [`Error`] that `cli::main` prints as `memplan: FILE: place: message`.

use super::args::{CheckArgs, ConvertArgs, Dims, DriverName, PlanArgs, Source, StatsArgs};
use super::{components, INVALID, OK};
use crate::drivers::{Driver, DriverOptions};
use crate::formats::{self, Document, Output};
use crate::manager::OptimizeStrategy;
use crate::model::Plan;
use crate::planning::{self, Request, Session};
use crate::strategies::Budget;
use crate::{Error, Result};
use std::io::Write;
use std::path::Path;

pub(super) fn display(path: &Path) -> String {
    path.display().to_string()
}

/// Reads and sniffs a file (an ONNX model with the `--dims` given); prints its
/// warnings on stderr.
pub(super) fn read(path: &Path, dims: &Dims) -> Result<Document> {
    let (doc, deploy) = read_undeployed(path, dims)?;
    deployed(path, doc, deploy)
}

/// The file as read, and the deployment `--recipes`/`--dtype` ask for.
fn read_undeployed(path: &Path, dims: &Dims) -> Result<(Document, crate::recipes::Deploy)> {
    let doc = read_file(path, dims)?;
    let deploy = crate::recipes::Deploy::parse(
        &dims.recipes.join(","),
        dims.dtype.as_deref().unwrap_or(""),
    )?;
    Ok((doc, deploy))
}

/// `doc` as `deploy` runs it (itself when there is none), what the recipes did on
/// stderr.
fn deployed(path: &Path, doc: Document, deploy: crate::recipes::Deploy) -> Result<Document> {
    if deploy.is_empty() {
        return Ok(doc);
    }
    let name = display(path);
    let doc = crate::recipes::document(doc, &deploy).map_err(|e| e.in_file(&name))?;
    for w in doc.warnings.iter().filter(|w| w.starts_with("deployed as")) {
        eprintln!("memplan: {name}: {w}");
    }
    Ok(doc)
}

fn read_file(path: &Path, dims: &Dims) -> Result<Document> {
    let name = display(path);
    if !dims.dims.is_empty() {
        return read_onnx(path, &dims.dims);
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Error::whole(format!("cannot read: {e}")).in_file(&name))?;
    // An XLA buffer assignment whose live ranges are in a file beside it: read both.
    let companion = formats::companion(&name, &bytes)
        .map(std::path::PathBuf::from)
        .filter(|c| c.is_file());
    let doc = match companion {
        Some(c) => {
            let other = std::fs::read(&c)
                .map_err(|e| Error::whole(format!("cannot read: {e}")).in_file(display(&c)))?;
            formats::load_pair(&name, &bytes, &display(&c), &other)?
        }
        None => formats::load(&name, &bytes)?,
    };
    for w in &doc.warnings {
        eprintln!("memplan: {name}: warning: {w}");
    }
    Ok(doc)
}

pub(super) fn resolve(path: &Path, doc: &Document) -> Result<Plan> {
    planning::resolve(doc).map_err(|e| {
        if e.file.is_some() {
            e
        } else {
            e.in_file(display(path))
        }
    })
}

/// Writes `text` to `path`, or to stdout for `-`.
pub(super) fn write_out(path: &Path, text: &str) -> Result<()> {
    let name = display(path);
    let result = if name == "-" {
        std::io::stdout().lock().write_all(text.as_bytes())
    } else {
        std::fs::write(path, text)
    };
    result.map_err(|e| Error::whole(format!("cannot write: {e}")).in_file(name))
}

pub(super) fn stats(a: StatsArgs) -> Result<u8> {
    let (doc, deploy) = read_undeployed(&a.file, &a.dims)?;
    // A deployment's own block: its name and its net change against the graph as
    // imported (its plan as loaded), not only the recipes' lines on stderr.
    let imported = if deploy.is_empty() {
        None
    } else {
        let plan = resolve(&a.file, &doc)?;
        Some((deploy.label(), crate::stats::stats(&plan).peak))
    };
    let doc = deployed(&a.file, doc, deploy)?;
    // The plan as loaded and the bound its report states: on a schedule, the bound over
    // every layout memplan makes of it (what `--strategy best` cannot go under).
    let mut session = planning::Session::of(&display(&a.file), doc.clone());
    let (plan, report) = session.as_loaded()?;
    let s = planning::stats(&plan, &report);
    let scope = report.bound_scope;
    if a.json {
        let mut value = serde_json::to_value(&s).map_err(|e| Error::whole(e.to_string()))?;
        if let Some(obj) = value.as_object_mut() {
            obj.insert("file".into(), display(&a.file).into());
            obj.insert("format".into(), doc.format.to_string().into());
            obj.insert(
                "bound_scope".into(),
                serde_json::to_value(scope).map_err(|e| Error::whole(e.to_string()))?,
            );
            if let Some((label, before)) = &imported {
                let deploy = serde_json::json!({
                    "as": label,
                    "peak_as_imported": before,
                    "change": s.peak as i128 - *before as i128,
                });
                obj.insert("deployed".into(), deploy);
            }
        }
        println!("{value}");
        return Ok(OK);
    }
    // In the words of the file's format, as the page's panel says it.
    let words = doc.words();
    let line = |label: &str, value: String| println!("{:<13} {value}", format!("{label}:"));
    line("file", format!("{} ({})", display(&a.file), doc.format));
    if let Some((label, before)) = &imported {
        let change = match s.peak.cmp(before) {
            std::cmp::Ordering::Less => format!("{} bytes less than", before - s.peak),
            std::cmp::Ordering::Greater => format!("{} bytes more than", s.peak - before),
            std::cmp::Ordering::Equal => "the same peak as".to_owned(),
        };
        line(
            "deployed as",
            format!("{label}: {change} the graph as imported ({before} bytes)"),
        );
    }
    line(&words.peak.to_lowercase(), format!("{} bytes", s.peak));
    match scope {
        planning::BoundScope::Placements => line("lower bound", format!("{} bytes", s.lower_bound)),
        planning::BoundScope::Layouts => line(
            "lower bound",
            format!(
                "{} bytes (over every layout memplan makes of the schedule)",
                s.lower_bound
            ),
        ),
        planning::BoundScope::Layout => line(
            "layout bound",
            format!(
                "{} bytes (of this plan's spaces; another layout of the schedule can need less: \
                 memplan plan --strategy best)",
                s.lower_bound
            ),
        ),
    }
    line("efficiency", format!("{:.2} %", s.efficiency * 100.0));
    line(words.planes, s.planes.to_string());
    if let Some(spaces) = words.spaces {
        line(spaces, s.spaces.to_string());
    }
    if let Some(steps) = words.steps {
        line(steps, s.steps.to_string());
    }
    for c in &s.components {
        let Some(t) = c.peak_clock else { continue };
        let top: Vec<String> = c
            .live_at_peak
            .iter()
            .take(5)
            .map(|l| {
                let what = words.space.unwrap_or(words.plane);
                format!("{what} {} ({} B)", l.space, l.size)
            })
            .collect();
        let more = c.live_at_peak.len().saturating_sub(5);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        // Over every layout, the bound is not this plan's live bytes at one clock: say both.
        let live = match scope {
            planning::BoundScope::Layouts => format!(
                "{} {} B; this layout's most live {} B",
                scope.name(),
                c.lower_bound,
                c.live_at_peak.iter().map(|l| l.size).sum::<u64>()
            ),
            _ => format!("{} {} B", scope.name(), c.lower_bound),
        };
        println!(
            "{}: {} {} B, {live} at clock {t}: {}{more}",
            c.name,
            words.peak.to_lowercase(),
            c.peak,
            top.join(", ")
        );
    }
    Ok(OK)
}

pub(super) fn check(a: CheckArgs) -> Result<u8> {
    let file = match (a.file, a.export) {
        (_, Some(dir)) => return check_export(&dir, a.json),
        (Some(file), None) => file,
        (None, None) => return Err(Error::whole("check: give a plan file or --export DIR")),
    };
    let doc = read(&file, &a.dims)?;
    let plan = resolve(&file, &doc)?;
    let report = crate::check::check(&plan);
    let name = display(&file);
    if a.json {
        let value = serde_json::to_value(&report).map_err(|e| Error::whole(e.to_string()))?;
        println!("{value}");
        return Ok(if report.is_valid() { OK } else { INVALID });
    }
    if report.is_valid() {
        println!(
            "{name}: valid ({} planes, {} spaces)",
            plan.planes.len(),
            plan.spaces.len()
        );
        return Ok(OK);
    }
    for p in &report.problems {
        println!("{name}: {p}");
    }
    if report.omitted > 0 {
        println!("{name}: {} more problems not listed", report.omitted);
    }
    Ok(INVALID)
}

/// `memplan check --export DIR`: the export memory checker on a generated folder.
fn check_export(dir: &std::path::Path, json: bool) -> Result<u8> {
    let (forward, headers) = crate::export_folder::read(dir)?;
    let report = crate::export_check::check(&forward, &headers).map_err(|e| {
        let name = format!("{}/{}", display(dir), e.file.clone().unwrap_or_default());
        e.in_file(name)
    })?;
    let status = if report.is_clean() { OK } else { INVALID };
    if json {
        let value = serde_json::to_value(&report).map_err(|e| Error::whole(e.to_string()))?;
        println!("{value}");
        return Ok(status);
    }
    let name = display(dir);
    let arenas: Vec<String> = report
        .arenas
        .iter()
        .map(|(n, b)| format!("{n} {b} B"))
        .collect();
    if report.is_clean() {
        println!(
            "{name}: clean ({} kernels replayed on {})",
            report.kernels,
            arenas.join(", ")
        );
        return Ok(OK);
    }
    for f in &report.findings {
        println!("{name}: {f}");
    }
    if report.omitted > 0 {
        println!("{name}: {} more findings not listed", report.omitted);
    }
    Ok(status)
}

pub(super) fn convert(a: ConvertArgs) -> Result<u8> {
    let output = Output::of(&display(&a.output), a.format.as_deref())?;
    let doc = read(&a.file, &a.dims)?;
    let in_input = |e: Error| match e.file {
        Some(_) => e,
        None => e.in_file(display(&a.file)),
    };
    match output {
        Output::Text(export) => {
            let text = planning::export(&doc, export).map_err(in_input)?;
            write_out(&a.output, &text)?;
            Ok(OK)
        }
        Output::Tflite => {
            let plan = resolve(&a.file, &doc)?;
            let is_model = doc.format == formats::Format::Tflite;
            write_tflite(&a.file, &a.output, is_model, &plan)
        }
    }
}

/// An ONNX model read with the symbolic dims given as `NAME=N`.
/// `--dims NAME=N,…` as (name, value) pairs.
pub(super) fn parse_dims(dims: &[String]) -> Result<Vec<(String, u64)>> {
    dims.iter()
        .map(|d| {
            let (k, v) = d.split_once('=').unwrap_or((d, ""));
            match v.trim().parse::<u64>() {
                Ok(n) if n > 0 => Ok((k.trim().to_string(), n)),
                _ => Err(Error::whole(format!(
                    "--dims `{d}`: expected NAME=N with N a positive integer"
                ))),
            }
        })
        .collect()
}

fn read_onnx(path: &Path, dims: &[String]) -> Result<Document> {
    let name = display(path);
    let dims = parse_dims(dims)?;
    let bytes = std::fs::read(path)
        .map_err(|e| Error::whole(format!("cannot read: {e}")).in_file(&name))?;
    let schedule = formats::gzip::inflate(&name, &bytes)
        .and_then(|(_, bytes)| formats::onnx::read(&bytes, &dims))
        .map_err(|e| e.in_file(&name))?;
    let doc = Document::of_schedule(schedule);
    for w in &doc.warnings {
        eprintln!("memplan: {name}: warning: {w}");
    }
    Ok(doc)
}

pub(super) fn plan(a: PlanArgs) -> Result<u8> {
    let name = display(&a.file);
    if a.alignment == Some(0) {
        return Err(Error::whole("--alignment must be at least 1"));
    }
    // `--budget` is for the whole command: reading and writing count.
    let clock = std::time::Instant::now();
    // Decided before planning, so that a name no writer matches costs no search.
    let output = Output::of(&display(&a.output), a.format.as_deref())?;
    let doc = read(&a.file, &a.dims)?;
    let reading = clock.elapsed().as_millis() as u64;
    let driver_flag = [
        (a.driver.is_some(), "--driver"),
        (a.optimize.is_some(), "--optimize"),
        (a.alignment.is_some(), "--alignment"),
        (a.wrap, "--wrap"),
        (a.inc_producers, "--inc-producers"),
        (!a.capacities.is_empty(), "--capacities"),
        (!a.priorities.is_empty(), "--priorities"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag));
    let driver = match driver_flag {
        None => None,
        Some(_) => Some(driver_options(&a, &doc)?),
    };
    // Writing the plan takes two to four times reading the file (IOPDDL Y_1's
    // 62,185 buffers: read 33–65 ms, plan written 115–130 ms later).
    let budget = Budget::whole(a.budget, reading, 4 * reading);
    let mut request = Request::new(&a.strategy, budget)?;
    // Only a strategy plans for a while; as loaded keeps the plan or runs Aidge's driver.
    let line = request
        .strategy
        .map(|_| super::progress::Line::start(a.budget));
    request.budget.progress = line.as_ref().map(super::progress::Line::report);
    request.from = a.from.map(|f| match f {
        Source::Plan => planning::Source::Plan,
        Source::Schedule => planning::Source::Schedule,
    });
    request.driver = driver;
    // `route` refuses driver options with `--from plan`, naming the flag typed.
    request.driver_flag = driver_flag;
    // An export whose forward pass runs Aidge's scheduler's order takes only plans made
    // in that order.
    let aidge_order = matches!(
        output,
        Output::Text(formats::Export::ExportCpp | formats::Export::MemInfo)
    );
    request.keep_order = a.keep_order || aidge_order;
    if aidge_order && !a.keep_order && doc.schedule.is_some() && request.strategy.is_some() {
        eprintln!("memplan: {name}: kept the schedule's order (the export's forward pass runs it)");
    }
    let is_model = doc.format == formats::Format::Tflite;
    // Vela's report is Vela's plan: a strategy says what it saves on it, memory by memory.
    let vela = (doc.format == formats::Format::Vela && request.strategy.is_some())
        .then(|| planning::resolve(&doc).map(|p| p.peaks()))
        .transpose()?;
    // A buffer list's capacity (MiniMalloc's file names) goes with the plan written, as
    // the page's exports keep it (`Chart::with_capacity`): shown, not enforced while
    // planning, so the checker's verdict on the plan made is not about it.
    let capacity = doc
        .buffers
        .as_ref()
        .filter(|_| doc.plan.is_none())
        .and_then(|l| l.capacity);
    let mut session = Session::of(&name, doc);
    let (mut plan, report) = session.plan(&request)?;
    if let (Some(capacity), [component]) = (capacity, plan.components.as_mut_slice()) {
        component.capacity = Some(capacity);
    }
    drop(line);
    if let Some(before) = vela {
        let after = plan.peaks();
        let sum = |v: &[u64]| v.iter().sum::<u64>();
        eprintln!(
            "memplan: {name}: {}: {after:?} B, Vela's {before:?} B: saves {} B",
            a.strategy,
            sum(&before).saturating_sub(sum(&after))
        );
    }
    // What this re-plan could not change for want of what the file holds (an Aidge
    // log's schedule), as the page's report says it.
    if let Some(limits) = &report.limits {
        eprintln!("memplan: {name}: {limits}");
    }
    let export = match output {
        Output::Tflite => return write_tflite(&a.file, &a.output, is_model, &plan),
        Output::Text(export) => export,
    };
    // The schedule stays with its plan: `convert --format mem-info|export-cpp` needs
    // it for complete records, and the page for names and shapes.
    if let Some(order) = &report.order {
        eprintln!("memplan: {name}: {order}");
    }
    let out = Document {
        schedule: session.schedule().cloned(),
        ..Document::of_plan(plan)
    };
    write_out(&a.output, &planning::export(&out, export)?)?;
    Ok(OK)
}

/// `memplan plan model.tflite -o out.tflite`: the model with the plan as its offline
/// plan, and the arena size to set, on stderr.
fn write_tflite(input: &Path, output: &Path, is_model: bool, plan: &Plan) -> Result<u8> {
    let name = display(input);
    if !is_model {
        let msg = "a .tflite output needs a .tflite input (the plan is written into the model)";
        return Err(Error::whole(msg).in_file(name));
    }
    let bytes = std::fs::read(input)
        .map_err(|e| Error::whole(format!("cannot read: {e}")).in_file(&name))?;
    let written = formats::gzip::inflate(&name, &bytes)
        .and_then(|(_, bytes)| formats::tflite::with_plan(&bytes, plan))
        .map_err(|e| e.in_file(&name))?;
    std::fs::write(output, &written.bytes)
        .map_err(|e| Error::whole(format!("cannot write: {e}")).in_file(display(output)))?;
    eprintln!("memplan: {}: {}", display(output), written.summary());
    Ok(OK)
}

/// The driver flags of `memplan plan` as Aidge's driver options (memory components
/// default to the ones the document's plan records).
fn driver_options(a: &PlanArgs, doc: &Document) -> Result<DriverOptions> {
    let opts = DriverOptions {
        driver: match a.driver.unwrap_or(DriverName::MultipleMems) {
            DriverName::MultipleMems => Driver::MultipleMems,
            DriverName::Memory => Driver::Memory,
            DriverName::AutoConcat => Driver::AutoConcat,
        },
        inc_producers: a.inc_producers,
        wrap_around: a.wrap,
        optimize: a
            .optimize
            .and_then(|o| OptimizeStrategy::parse(&format!("{o:?}"))),
        alignment: a.alignment.unwrap_or(1),
        components: components::resolve(&a.capacities, &a.priorities, doc.plan.as_ref())?,
    };
    let flags = !(a.capacities.is_empty() && a.priorities.is_empty());
    if flags && opts.driver != Driver::MultipleMems {
        let msg = "--capacities and --priorities apply to the multiple-mems driver";
        return Err(Error::whole(msg));
    }
    Ok(opts)
}
