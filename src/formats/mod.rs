//! File formats: one module per format, plus the single entry point [`load`] that the
//! CLI and the viewer share (it sniffs the format from the name and the content), and
//! [`write`], its way back. What plan a document stands for is `crate::planning`'s
//! to say (`planning::resolve`): formats only turn bytes into the model and back.
//!
//! Readers never panic on input: every problem becomes an [`Error`] naming the file
//! and the place (line and column for text, a JSON path for JSON).

pub mod aidge_log;
pub mod aidge_planes;
pub mod csv;
pub mod executorch;
pub mod export_cpp;
pub mod gzip;
pub mod header;
pub mod iree;
mod json_path;
pub mod mem_info;
pub mod memplan_json;
#[cfg(feature = "onnx")]
pub mod onnx;
pub mod placed;
pub mod siblings;
pub mod tflite;
pub mod tflm;
pub mod vela;
pub mod wire;
pub mod words;
pub mod xla;

use crate::model::{BufferList, Bytes, Plan};
use crate::{Error, Result};
use std::fmt;

pub use aidge_log::LogDialect;

/// Largest clock a reader accepts. Clocks index per-clock arrays (live bytes, the
/// chart), so absurd values from a corrupt file must not turn into huge allocations;
/// MiniMalloc's challenging sets use clocks up to 2^20.
pub const MAX_CLOCK: u64 = 1 << 24;

/// What a file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// memplan JSON v1 (`docs/formats.md`).
    Memplan,
    /// An Aidge / N2D2 `memory_info.txt` text log, in the dialect it was written in.
    AidgeLog(LogDialect),
    /// The `planes.json` record of `tests/data/bench/tools/aidge_golden.py` (every plane with
    /// its space, exactly as the aidge_core wheel reported it).
    AidgePlanes,
    /// MiniMalloc CSV `id,lower,upper,size[,offset]`.
    Csv,
    /// TensorFlow Lite Micro's `GreedyMemoryPlanner::PrintMemoryPlan()` output.
    TflmPlan,
    /// A TensorFlow Lite model, as TFLite Micro plans it ([`tflite`]).
    Tflite,
    /// An ONNX model, read into the schedule Aidge 0.10.1 gives it (`onnx`).
    Onnx,
    /// XLA's `*-buffer-assignment.txt` with its live ranges ([`xla`]).
    Xla,
    /// ExecuTorch's memory trace, a Chrome-trace JSON ([`executorch`]).
    ExecuTorch,
    /// IREE's `stream.resource.pack` ops, laid out as IREE does ([`iree`]).
    Iree,
    /// Arm Vela's `--verbose-allocation` report ([`vela`]).
    Vela,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Memplan => f.write_str("memplan JSON"),
            Format::AidgeLog(d) => write!(f, "{d}"),
            Format::AidgePlanes => f.write_str("Aidge planes.json"),
            Format::Csv => f.write_str("MiniMalloc CSV"),
            Format::TflmPlan => f.write_str("TFLite Micro PrintMemoryPlan"),
            Format::Tflite => f.write_str("TFLite model"),
            Format::Onnx => f.write_str("ONNX model"),
            Format::Xla => f.write_str("XLA buffer assignment"),
            Format::ExecuTorch => f.write_str("ExecuTorch memory trace"),
            Format::Iree => f.write_str("IREE stream.resource.pack"),
            Format::Vela => f.write_str("Vela allocation report"),
        }
    }
}

/// Everything one file holds. At least one of `plan`, `schedule`, `buffers` is set.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub format: Format,
    pub plan: Option<Plan>,
    pub schedule: Option<crate::schedule::Schedule>,
    pub buffers: Option<BufferList>,
    /// Things the reader accepted but the user should know (unknown fields, guesses).
    pub warnings: Vec<String>,
    /// What the framework that wrote the dump says of its plan (XLA), if anything.
    pub own: Option<OwnFigures>,
}

/// A framework's own figures of the plan it dumped, in its terms: the page heads
/// with them, beside memplan's counts, which follow memplan's rules and can differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnFigures {
    /// Who says it ("XLA").
    pub framework: &'static str,
    /// What the plan as loaded's total of the memories' peaks equals, in the
    /// framework's terms: its name for the sum of its memories' sizes, less what it
    /// counts outside the plan (XLA's thread-local allocations) (`tests/formats_xla.rs`).
    pub total: String,
    /// Its own peak of live bytes over all memories: `(clock, bytes)`.
    pub live_peak: Option<(u64, Bytes)>,
}

impl Document {
    /// What this document's format calls the things memplan shows ([`words`]): a
    /// memplan JSON holding only a buffer list is a buffer list.
    pub fn words(&self) -> &'static words::Words {
        match self.format {
            Format::Memplan if self.plan.is_none() && self.schedule.is_none() => {
                &words::BUFFER_LIST
            }
            Format::Memplan => &words::MEMPLAN,
            Format::AidgeLog(_) | Format::AidgePlanes | Format::Onnx => &words::AIDGE,
            Format::Csv => &words::BUFFER_LIST,
            Format::TflmPlan | Format::Tflite => &words::TFLM,
            Format::Xla => &words::XLA,
            Format::ExecuTorch => &words::EXECUTORCH,
            Format::Iree => &words::IREE,
            Format::Vela => &words::VELA,
        }
    }

    /// A memplan JSON document holding only `plan` (what `memplan plan` writes).
    pub fn of_plan(plan: Plan) -> Self {
        Document::plan(Format::Memplan, plan)
    }

    /// A document holding only a schedule read from an ONNX model, warning of its
    /// nodes sized from the model and of those Aidge sizes otherwise.
    pub fn of_schedule(schedule: crate::schedule::Schedule) -> Self {
        Document {
            format: Format::Onnx,
            plan: None,
            warnings: schedule.notes(),
            schedule: Some(schedule),
            buffers: None,
            own: None,
        }
    }

    fn plan(format: Format, plan: Plan) -> Self {
        Document {
            format,
            plan: Some(plan),
            schedule: None,
            buffers: None,
            warnings: Vec::new(),
            own: None,
        }
    }
}

/// Reads a file of any supported format. `file_name` is used as a hint (extension)
/// and to name the file in errors; the content decides in the end.
/// A gzip stream is inflated first ([`gzip`]), its name's `.gz` dropped for the hint.
pub fn load(file_name: &str, bytes: &[u8]) -> Result<Document> {
    gzip::inflate(file_name, bytes)
        .and_then(|(name, bytes)| load_inner(name, &bytes))
        .map_err(|e| e.in_file(file_name))
}

fn load_inner(file_name: &str, bytes: &[u8]) -> Result<Document> {
    // A `.tflite` by its identifier, or by its name (cut short or not one: its reader
    // says which, not the text readers).
    if tflite::is_tflite(bytes) || file_name.to_ascii_lowercase().ends_with(".tflite") {
        let read = tflite::read(bytes)?;
        return Ok(Document {
            warnings: read.warnings,
            ..Document::plan(Format::Tflite, read.plan)
        });
    }
    // A file a framework writes beside its plan (a dump folder's other files): what it
    // is and which file to open, not another reader's complaint about it.
    if let Some(what) = siblings::sibling(file_name, bytes) {
        return Err(Error::whole(format!("this is {what}")));
    }
    if let Some(doc) = load_onnx(file_name, bytes) {
        return doc;
    }
    let text = as_text(bytes)?;
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(Error::whole(
            "empty file: expected memplan JSON, an Aidge memory_info.txt log, a MiniMalloc CSV, an ONNX model or a TFLite Micro, XLA, IREE, ExecuTorch or Vela plan dump",
        ));
    }
    let lower = file_name.to_ascii_lowercase();
    // `[RecordingMicroAllocator] …` lines start like a JSON array.
    if let Some(summary) = tflm::allocations_summary(text) {
        return Err(Error::whole(summary));
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return load_json(text);
    }
    if tflm::looks_like_dump(text) {
        let (buffers, warnings) = tflm::read(text)?;
        return Ok(Document {
            format: Format::TflmPlan,
            plan: None,
            schedule: None,
            buffers: Some(buffers),
            warnings,
            own: None,
        });
    }
    // Before the Aidge log reader, the fallback: a report of Vela's is no log of Aidge's.
    if vela::is_vela(text) {
        let report = vela::read(text)?;
        let total = report.own_total();
        return Ok(Document {
            warnings: report.warnings,
            own: Some(OwnFigures {
                framework: "Vela",
                total,
                live_peak: None,
            }),
            ..Document::plan(Format::Vela, placed::to_plan(&report.placed))
        });
    }
    if xla::is_xla(text) {
        return load_xla(file_name, text, None);
    }
    // An MLIR dump without a whole pack op (cut short, or printed after the pass) is
    // still IREE's: its reader says what it expected, not the Aidge log reader.
    if iree::is_iree(text) || lower.ends_with(".mlir") || trimmed.starts_with("// -----// IR Dump")
    {
        let (placed, warnings) = iree::read(text)?;
        return Ok(Document {
            warnings,
            ..Document::plan(Format::Iree, placed::to_plan(&placed))
        });
    }
    if lower.ends_with(".csv") || csv::looks_like_csv(text) {
        let (buffers, warnings) = csv::read(text, &csv::CsvOptions::for_file(file_name))?;
        return Ok(Document {
            format: Format::Csv,
            plan: None,
            schedule: None,
            buffers: Some(buffers),
            warnings,
            own: None,
        });
    }
    let (plan, dialect) = aidge_log::read(text)?;
    Ok(Document::plan(Format::AidgeLog(dialect), plan))
}

/// An ONNX model (a binary `.onnx`; a `.onnx` name over JSON text is the page's
/// converted model) as the schedule Aidge gives it, its symbolic dims at their
/// defaults. The page's main wasm module does not carry the reader: it converts
/// models in its lazily loaded ONNX module first.
fn load_onnx(file_name: &str, bytes: &[u8]) -> Option<Result<Document>> {
    if !is_onnx_model(file_name, bytes) {
        return None;
    }
    #[cfg(all(feature = "onnx", not(target_arch = "wasm32")))]
    return Some(onnx::read(bytes, &[]).map(Document::of_schedule));
    #[allow(unreachable_code)]
    Some(Err(Error::whole(
        "an ONNX model: this build of memplan reads none (build with the `onnx` feature, \
         or drop it on the page, which converts it in its ONNX module)",
    )))
}

/// Whether `load` reads the file as a binary ONNX model: not JSON (a `.onnx` name over
/// JSON text is the page's converted model), and named `.onnx` or starting as an ONNX
/// `ModelProto` does (field 1, `ir_version`, a small varint). The page routes a file to
/// its ONNX module by the name alone (`www/onnx.js` `isOnnx`); tests/formats_samples.rs
/// holds the two rules to agree on every file of tests/data.
pub fn is_onnx_model(file_name: &str, bytes: &[u8]) -> bool {
    let is_json = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'{');
    !is_json && onnx_named(file_name, bytes)
}

fn onnx_named(file_name: &str, bytes: &[u8]) -> bool {
    file_name.to_ascii_lowercase().ends_with(".onnx")
        || matches!(bytes, [0x08, v, ..] if *v > 0 && *v < 0x20)
}

/// Reads a file and the companion it needs: XLA's buffer assignment and, when the
/// assignment lacks them, its live ranges ([`companion`]). Errors name the file they
/// are in.
pub fn load_pair(
    file_name: &str,
    bytes: &[u8],
    companion_name: &str,
    companion_bytes: &[u8],
) -> Result<Document> {
    let text = as_text(bytes).map_err(|e| e.in_file(file_name))?;
    let other = as_text(companion_bytes).map_err(|e| e.in_file(companion_name))?;
    let live = xla::parse_live(other).map_err(|e| e.in_file(companion_name))?;
    if live.is_none() {
        return Err(Error::whole(
            "no `HloLiveRange (max N):` section: expected XLA's *-live-range.txt",
        )
        .in_file(companion_name));
    }
    load_xla(file_name, text, live).map_err(|e| e.in_file(file_name))
}

/// The file that `file_name` needs beside it to be read, when it needs one: an XLA
/// buffer assignment without live ranges (recent XLA writes them in
/// `*-live-range.txt`). The CLI reads it from the same folder; the page pairs the two
/// when both are dropped.
pub fn companion(file_name: &str, bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    xla::needs_companion(text)
        .then(|| xla::companion_name(file_name))
        .flatten()
}

fn load_xla(file_name: &str, text: &str, live: Option<xla::LiveRanges>) -> Result<Document> {
    let live = match live {
        Some(live) => live,
        None => xla::parse_live(text)?.ok_or_else(|| {
            let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
            let beside = xla::companion_name(base)
                .map_or_else(|| "the *-live-range.txt of the same module".to_owned(), |c| format!("`{c}`"));
            Error::whole(format!(
                "XLA buffer assignment without live ranges: XLA writes them in {beside} beside it; \
                 give both (the CLI reads that file when it is in the same folder; on the page, drop both files together)"
            ))
        })?,
    };
    if !xla::has_assignment(text) {
        return Err(Error::whole(
            "XLA live ranges without a buffer assignment: open the *-buffer-assignment.txt beside this file (memplan reads the live ranges from it)",
        ));
    }
    let assignment = xla::parse_assignment(text)?;
    let (placed, warnings, left_out) = xla::build(&assignment, &live);
    let mut total = "XLA's “Total bytes” (its memory-usage report)".to_owned();
    if left_out.allocations > 0 {
        total.push_str(&format!(
            " less its {} thread-local allocations ({} B, on threads' stacks)",
            left_out.allocations, left_out.bytes
        ));
    }
    Ok(Document {
        warnings,
        own: Some(OwnFigures {
            framework: "XLA",
            total,
            live_peak: live.peak(),
        }),
        ..Document::plan(Format::Xla, placed::to_plan(&placed))
    })
}

/// At most 60 characters of a line, for the readers' messages.
pub(crate) fn clip(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// [`load`] of a well-formed memplan JSON document, and `None` for anything else
/// (other formats, broken or unexpected files), which [`load`] reads or explains. The
/// page's first wasm module (feature `lite`) carries this reader alone: the page's
/// sample and every export of the Aidge hook are such documents.
pub fn load_well_formed(bytes: &[u8]) -> Option<Document> {
    let text = as_text(bytes).ok()?;
    if !text.trim_start().starts_with('{') {
        return None;
    }
    syntax(text).ok()?;
    memplan_json::read_well_formed(text)?.ok()
}

/// Syntax first, so that a truncated file says where it stops, and so that no parser
/// builds structures for a file that turns out broken (a 200 MB file cut off mid-way
/// would otherwise cost gigabytes). It costs a quarter of a full load.
fn syntax(text: &str) -> Result<()> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|e| memplan_json::json_error(text, e))
}

fn load_json(text: &str) -> Result<Document> {
    syntax(text)?;
    if let Some(doc) = memplan_json::read_well_formed(text) {
        return doc;
    }
    if memplan_json::is_memplan(text)? {
        return memplan_json::read(text);
    }
    if executorch::is_trace(text) {
        let (placed, warnings) = executorch::read(text)?;
        return Ok(Document {
            warnings,
            ..Document::plan(Format::ExecuTorch, placed::to_plan(&placed))
        });
    }
    if aidge_planes::is_planes_dump(text) {
        let (plan, warnings) = aidge_planes::read(text)?;
        return Ok(Document {
            warnings,
            ..Document::plan(Format::AidgePlanes, plan)
        });
    }
    Err(Error::at_path(
        "$.format",
        "JSON without `\"format\": \"memplan\"`: expected memplan JSON v1 (see docs/formats.md), an Aidge planes.json dump or an ExecuTorch memory trace",
    ))
}

/// The file as UTF-8 text, or an error saying where the binary data starts.
fn as_text(bytes: &[u8]) -> Result<&str> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let (line, column) = line_col(&bytes[..at]);
        Error::at_line(
            line,
            column,
            format!(
                "not a text file (byte {at} is not UTF-8): expected memplan JSON, an Aidge log or a CSV, in UTF-8"
            ),
        )
    })?;
    if let Some(pos) = text.find('\0') {
        let (line, column) = line_col(&bytes[..pos]);
        return Err(Error::at_line(
            line,
            column,
            format!("not a text file (NUL byte at byte {pos}): expected memplan JSON, an Aidge log or a CSV"),
        ));
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// 1-based line and column (in characters) just after `before`, valid UTF-8 text.
fn line_col(before: &[u8]) -> (usize, usize) {
    let text = std::str::from_utf8(before).unwrap_or_default();
    let line = text.matches('\n').count() + 1;
    let last = text.rsplit('\n').next().unwrap_or_default();
    (line, last.chars().count() + 1)
}

/// A format a document can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// memplan JSON v1, with what the document holds (a buffer list stays one).
    Memplan,
    /// The text log; `None` keeps the dialect the document was read in (default:
    /// aidge_core 0.10.1's, with `[MEM_i]`).
    AidgeLog(Option<LogDialect>),
    /// MiniMalloc CSV: the buffer list, or the plan's spaces with their offsets.
    Csv,
    /// C header of offsets (N2D2 `mem_info.hpp` macros).
    Header,
    /// aidge_core `generate_optimized_memory_info` records as JSON.
    MemInfo,
    /// aidge-export-cpp's per-layer `*_MEM_*` macros.
    ExportCpp,
}

/// A name of an [`Export`] a user can type, with what it writes: the one list the
/// CLI's `--format` (its help and parser), the page's Export menu
/// (`web::shown::export_formats`) and Python's `memplan.EXPORT_FORMATS` are made from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportName {
    pub name: &'static str,
    /// Other names accepted for it (file extensions users type).
    pub aliases: &'static [&'static str],
    pub export: Export,
    /// What it writes, in a line.
    pub help: &'static str,
    /// The ending of a file of this format (the page's downloads): one per format, so
    /// a plan saved in several formats gets as many files, none overwriting another.
    pub suffix: &'static str,
    pub mime: &'static str,
}

impl Export {
    /// Every format `memplan convert --format` takes, in the order help lists them.
    pub const CHOICES: &'static [ExportName] = &[
        ExportName {
            name: "memplan",
            aliases: &["json"],
            export: Export::Memplan,
            help: "memplan JSON",
            suffix: ".memplan.json",
            mime: "application/json",
        },
        ExportName {
            name: "aidge",
            aliases: &["txt"],
            export: Export::AidgeLog(Some(LogDialect::Python {
                multiple_mems: true,
            })),
            help: "Aidge text log (aidge_core 0.10.1's memory_info.txt, with [MEM_i])",
            suffix: ".memory_info.txt",
            mime: "text/plain",
        },
        ExportName {
            name: "aidge-single",
            aliases: &[],
            export: Export::AidgeLog(Some(LogDialect::Python {
                multiple_mems: false,
            })),
            help: "Aidge text log of a single memory (no [MEM_i])",
            suffix: ".memory_info.single.txt",
            mime: "text/plain",
        },
        ExportName {
            name: "aidge-cpp",
            aliases: &[],
            export: Export::AidgeLog(Some(LogDialect::AidgeCpp)),
            help: "Aidge C++ MemoryManager::log text",
            suffix: ".memory_info.cpp.txt",
            mime: "text/plain",
        },
        ExportName {
            name: "n2d2",
            aliases: &[],
            export: Export::AidgeLog(Some(LogDialect::N2d2)),
            help: "N2D2 memory log text",
            suffix: ".memory_info.n2d2.txt",
            mime: "text/plain",
        },
        ExportName {
            name: "csv",
            aliases: &[],
            export: Export::Csv,
            help: "MiniMalloc CSV",
            suffix: ".csv",
            mime: "text/csv",
        },
        ExportName {
            name: "header",
            aliases: &["h"],
            export: Export::Header,
            help: "C header of offsets",
            suffix: ".h",
            mime: "text/x-c",
        },
        ExportName {
            name: "mem-info",
            aliases: &["meminfo"],
            export: Export::MemInfo,
            help: "aidge_core's generate_optimized_memory_info records as JSON",
            suffix: ".meminfo.json",
            mime: "application/json",
        },
        ExportName {
            name: "export-cpp",
            aliases: &[],
            export: Export::ExportCpp,
            help: "aidge-export-cpp's *_MEM_* layer macros",
            suffix: ".meminfo.h",
            mime: "text/x-c",
        },
    ];

    /// The names of [`Export::CHOICES`], comma-separated (error messages).
    pub fn names() -> String {
        let names: Vec<&str> = Export::CHOICES.iter().map(|c| c.name).collect();
        names.join(", ")
    }

    /// The format a name or an alias of [`Export::CHOICES`] stands for.
    pub fn from_name(name: &str) -> Option<Export> {
        Export::CHOICES
            .iter()
            .find(|c| c.name == name || c.aliases.contains(&name))
            .map(|c| c.export)
    }

    /// The format an output file name asks for: `.meminfo.json`, `.meminfo.h`,
    /// `.json`, `.txt`, `.log`, `.csv`, `.h`, `.hpp`.
    pub fn from_file_name(name: &str) -> Option<Export> {
        let lower = name.to_ascii_lowercase();
        let ends = |ext: &str| lower.ends_with(ext);
        Some(if ends(".meminfo.json") || ends(".mem_info.json") {
            Export::MemInfo
        } else if ends(".meminfo.h") {
            Export::ExportCpp
        } else if ends(".json") {
            Export::Memplan
        } else if ends(".txt") || ends(".log") {
            Export::AidgeLog(None)
        } else if ends(".csv") {
            Export::Csv
        } else if ends(".h") || ends(".hpp") {
            Export::Header
        } else {
            return None;
        })
    }
}

/// What a command writes to its output file: decided once, by [`Output::of`], for
/// `memplan plan` and `memplan convert` alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A text export ([`write`]).
    Text(Export),
    /// The `.tflite` model read, with the plan as its offline plan ([`tflite::with_plan`]).
    Tflite,
}

impl Output {
    /// The format of output `file_name`: `--format` when given, else the name's
    /// ending ([`Export::from_file_name`], or `.tflite`); stdout (`-`) without
    /// `--format` gets memplan JSON. A name no writer matches is refused, saying which
    /// endings and formats there are, rather than given a format it does not name.
    pub fn of(file_name: &str, format: Option<&str>) -> Result<Output> {
        if let Some(f) = format {
            return Export::from_name(f).map(Output::Text).ok_or_else(|| {
                Error::whole(format!(
                    "unknown --format `{f}`: expected one of {}",
                    Export::names()
                ))
            });
        }
        if file_name == "-" {
            return Ok(Output::Text(Export::Memplan));
        }
        if file_name.to_ascii_lowercase().ends_with(".tflite") {
            return Ok(Output::Tflite);
        }
        Export::from_file_name(file_name)
            .map(Output::Text)
            .ok_or_else(|| {
                Error::whole(format!(
                    "cannot tell the output format from the name: use .json, .txt, .log, .csv, \
                     .h, .meminfo.json, .meminfo.h, .tflite (from a .tflite) or --format ({})",
                    Export::names()
                ))
                .in_file(file_name)
            })
    }
}

/// Writes a document in a format; formats that need a plan get `plan(doc)` (the
/// caller's resolution, `planning::resolve`), which is not called for the others.
pub fn write(
    doc: &Document,
    export: Export,
    plan: impl FnOnce(&Document) -> Result<Plan>,
) -> Result<String> {
    Ok(match export {
        Export::Memplan => memplan_json::write(doc),
        Export::Csv => match (&doc.plan, &doc.buffers) {
            (None, Some(buffers)) => csv::write(buffers),
            _ => csv::write(&csv::from_plan(&plan(doc)?)),
        },
        Export::AidgeLog(dialect) => {
            let dialect = dialect.unwrap_or(match doc.format {
                Format::AidgeLog(d) => d,
                _ => LogDialect::default(),
            });
            aidge_log::write(&plan(doc)?, dialect)
        }
        Export::Header => header::write(&plan(doc)?),
        Export::MemInfo => {
            let plan = plan(doc)?;
            runs_aidges_order(&plan, "aidge_core's mem_info records")?;
            mem_info::write(&plan, doc.schedule.as_ref())
        }
        Export::ExportCpp => {
            let plan = plan(doc)?;
            runs_aidges_order(&plan, "aidge-export-cpp's layer macros")?;
            export_cpp::write(&plan, doc.schedule.as_ref())
        }
    })
}

/// What a plan assumes of the code that runs it, one sentence each, for the comments
/// of the exports that carry it (C header, export-cpp macros): the order of its steps
/// when memplan chose it, and the outputs written around the end of their buffer.
pub fn assumptions(plan: &Plan) -> Vec<String> {
    let mut out = Vec::new();
    if plan.reordered {
        let order: Vec<&str> = plan
            .steps
            .iter()
            .filter(|s| s.clock.is_some())
            .map(|s| s.name.as_str())
            .collect();
        out.push(format!(
            "The nodes must run in this order (memplan's best chose it; the buffers could \
             overlap in another): {}.",
            order.join(", ")
        ));
    }
    let wrapped = plan.planes.iter().filter(|p| p.is_wrapped()).count();
    if wrapped > 0 {
        out.push(format!(
            "{wrapped} output(s) wrap around the end of their buffer (the *_WRAP_OFFSET and \
             *_WRAP_SIZE macros): the kernels writing them must continue at the wrap offset, \
             as aidge-export-cpp's kernels do."
        ));
    }
    out
}

/// Refuses a plan that holds only in an order memplan chose ([`Plan::reordered`]) for
/// `target`, whose forward code runs Aidge's scheduler's order, where its buffers could
/// overlap: the plan to write is one made keeping the order.
fn runs_aidges_order(plan: &Plan, target: &str) -> Result<()> {
    if !plan.reordered {
        return Ok(());
    }
    Err(Error::whole(format!(
        "this plan runs the parallel branches in another order than the file's schedule \
         (best chose it), and {target} are used by a forward pass that runs Aidge's \
         scheduler's order, where its buffers could overlap: plan keeping the order \
         (`memplan plan FILE --strategy best --keep-order`; `memplan plan` keeps it by itself \
         when -o names a .meminfo.h or .meminfo.json file)"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_refused_with_the_file_name() {
        let e = load("x.bin", &[0xff, 0xfe, 0x00]).unwrap_err();
        assert_eq!(e.file.as_deref(), Some("x.bin"));
        assert!(e.message.contains("UTF-8"), "{e}");
        let e = load("x.csv", b"id,lower\n\xc3\xbc,\xff").unwrap_err();
        assert!(
            e.to_string().starts_with("x.csv: line 2, column 3: "),
            "{e}"
        );
        let e = load("empty.txt", b"  \n").unwrap_err();
        assert!(e.to_string().starts_with("empty.txt: empty file"), "{e}");
    }
}
