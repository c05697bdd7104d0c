//! The command line, as clap derive types. Adding a subcommand = one variant here
//! and one arm in `cli::run`.

use crate::formats::Export;
use crate::planning;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "memplan",
    version,
    about = "Static memory planner for neural-network inference (Aidge/N2D2 MemoryManager, exact)",
    after_help = "Exit status: 0 success, 1 `check` found problems, 2 unreadable input or bad usage."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Peak, lower bound, efficiency and sizes of a plan (or of what a file resolves to).
    Stats(StatsArgs),
    /// Plan a schedule or a buffer list, or re-place a plan's spaces.
    Plan(PlanArgs),
    /// Verify a plan (or, with --export DIR, a generated export's memory): exit 0 when
    /// valid, 1 with one line per problem.
    Check(CheckArgs),
    /// Convert between formats (chosen by the output's extension or --format).
    Convert(ConvertArgs),
    /// Draw the chart to an SVG or PNG file (the page's drawing, for documentation).
    Render(RenderArgs),
    /// Will it fit a device? Places the plan into a memory map (fast bank first, the
    /// rest spilled with the least slow traffic), sweeps the fast size and shows Aidge's
    /// priority spill beside it. Exit 0 when it fits, 1 when it does not, 2 on bad input.
    Fit(FitArgs),
    /// Tile an ONNX model's first layers (patch-based inference) so its peak fits a
    /// fast memory; writes the tiled model.
    Tile(TileArgs),
}

#[derive(Debug, Args)]
#[command(after_help = fit_after_help())]
pub struct FitArgs {
    /// Any file `memplan plan` reads (an ONNX model, a .tflite, a plan, a schedule, a
    /// buffer list).
    pub file: PathBuf,
    #[command(flatten)]
    pub dims: Dims,
    /// The device's memories, fastest first: `256K+8M`, `sram=512K,psram=8M`, or a board
    /// preset (listed below). 1K = 1024 bytes, as TiGrIS reads `-m`.
    #[arg(short, long, value_name = "MAP")]
    pub memory: String,
    /// Whose placement the plan written with -o and the headline are: memplan's (least
    /// slow traffic) or Aidge 0.10.1's priority spill (the multiple-mems driver with the
    /// map's capacities). Both are always reported.
    #[arg(long, value_enum, default_value = "memplan")]
    pub spill: Spill,
    /// Milliseconds the whole fit may take (best plan, bank placement and sweep).
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub budget: u64,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the plan with one memory component per bank (memplan JSON, or any format
    /// its extension picks, as `memplan plan -o`): the tiled model's when tiling is the
    /// answer.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Do not try tiling: an ONNX model that does not fit the fast bank alone is
    /// otherwise also fitted with its first layers run patch by patch (`memplan tile`),
    /// and the better fit is the answer.
    #[arg(long)]
    pub no_tile: bool,
    /// Milliseconds the tiling search may take (beside --budget).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub tile_budget: u64,
    /// Write the tiled model (ONNX) when tiling is the answer; an error when it is not.
    #[arg(long, value_name = "FILE", conflicts_with = "no_tile")]
    pub onnx_out: Option<PathBuf>,
}

/// Whose bank placement `memplan fit` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Spill {
    Memplan,
    Aidge,
}

/// The presets and the exit status, below `memplan fit --help`.
fn fit_after_help() -> String {
    let presets: Vec<String> = crate::fit::PRESETS
        .iter()
        .map(|p| {
            let banks: Vec<String> = p
                .banks
                .iter()
                .map(|(n, b)| format!("{n}={}", crate::fit::human(*b)))
                .collect();
            format!("  {:<16} {}", p.name, banks.join(", "))
        })
        .collect();
    format!(
        "Presets (sizes and sources: `--json`'s notes, docs/fit.md):\n{}\n\nExit status: 0 \
         the plan fits the map, 1 it does not fit, 2 unreadable input or bad usage (a bad \
         --memory).",
        presets.join("\n")
    )
}

#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Any file the other commands read (plan, Aidge log, schedule, CSV).
    pub file: PathBuf,
    #[command(flatten)]
    pub dims: Dims,
    /// Output picture: `.svg` or `.png` (the extension picks the format).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Draw plane names where they fit.
    #[arg(long)]
    pub names: bool,
    /// Hexadecimal addresses on the axis.
    #[arg(long)]
    pub hex: bool,
    /// Width in CSS pixels (a 30000-wide picture of a large plan is fine).
    #[arg(long, default_value_t = 1600)]
    pub width: u32,
    /// Height in CSS pixels.
    #[arg(long, default_value_t = 600)]
    pub height: u32,
    /// PNG pixels per CSS pixel (2 for a sharp print).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// light or dark.
    #[arg(long, default_value = "light")]
    pub theme: String,
    /// Visible part `t0,t1,a0,a1`: clocks, then addresses as fractions of the lane's
    /// extent (the page's link fragment uses the same numbers) [default: whole plan].
    #[arg(long)]
    pub view: Option<String>,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// memplan JSON, Aidge memory_info.txt, planes.json or MiniMalloc CSV.
    pub file: PathBuf,
    #[command(flatten)]
    pub dims: Dims,
    /// One JSON object (peak, lower_bound, efficiency, planes, spaces, steps, components).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A plan (any format memplan reads).
    #[arg(required_unless_present = "export")]
    pub file: Option<PathBuf>,
    /// Check a generated Aidge export folder instead (aidge-export-cpp or
    /// aidge-export-arm-cortexm): replays forward.cpp's kernels on the arena its layer
    /// headers place, and reports reads of bytes no kernel wrote or that were
    /// overwritten, reads past a buffer, and outputs never written.
    #[arg(long, value_name = "DIR", conflicts_with = "file")]
    pub export: Option<PathBuf>,
    #[command(flatten)]
    pub dims: Dims,
    /// Print the report as one JSON object (`problems`: kind, planes, spaces, message).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    pub file: PathBuf,
    /// Output file (`-` for stdout: memplan JSON unless --format); its extension picks
    /// the format: .json, .txt/.log, .csv, .h/.hpp, .meminfo.json, .meminfo.h
    /// (export-cpp), .tflite (a .tflite input with its plan as its offline plan).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Force the output format.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<String>,
    #[command(flatten)]
    pub dims: Dims,
}

/// Every command reads ONNX models, whose symbolic dims the user may set, and how the
/// model is deployed (the recipes and dtype of a file holding a schedule).
#[derive(Debug, Args)]
pub struct Dims {
    /// An ONNX model's symbolic input dims, as NAME=N (e.g. `--dims batch=1,sequence=128`);
    /// those not given are 1.
    #[arg(long, value_delimiter = ',')]
    pub dims: Vec<String>,
    /// Plan the graph as a deployment runs it: recipes applied to the schedule (an ONNX
    /// model, a memplan JSON with a schedule) in order, comma-separated.
    #[arg(long, value_parser = recipe_parser(), value_delimiter = ',')]
    pub recipes: Vec<String>,
    /// Element type of the activations on the device (int8 plans with 16-byte alignment,
    /// as Aidge's export does).
    #[arg(long, value_parser = dtype_parser())]
    pub dtype: Option<String>,
}

/// `--recipes`' choices with their help, from [`crate::recipes::Recipe::ALL`].
fn recipe_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::recipes::Recipe::ALL
            .iter()
            .map(|r| PossibleValue::new(r.name()).help(r.help())),
    )
}

/// `--dtype`'s choices, from [`crate::recipes::Dtype::ALL`].
fn dtype_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::recipes::Dtype::ALL
            .iter()
            .map(|d| PossibleValue::new(d.name()).help(d.help())),
    )
}

/// Aidge 0.10.1's three memory generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriverName {
    /// `generate_memory_multiple_mems` (0.10.1's default).
    MultipleMems,
    /// `generate_memory`.
    Memory,
    /// `generate_memory_auto_concat`.
    AutoConcat,
}

/// `MemoryManager::optimize` strategies, spelled as in Aidge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OptimizeName {
    #[value(name = "None")]
    None,
    #[value(name = "OptimizeMaxLifetimeMinSizeFirst")]
    OptimizeMaxLifetimeMinSizeFirst,
    #[value(name = "OptimizeMaxLifetimeMaxSizeFirst")]
    OptimizeMaxLifetimeMaxSizeFirst,
    #[value(name = "OptimizeMaxHoleMaxLifetimeFirst")]
    OptimizeMaxHoleMaxLifetimeFirst,
}

/// What `memplan plan` plans (`--from`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Source {
    /// The plan the file gives (or its buffer list).
    Plan,
    /// The schedule, with Aidge's driver.
    Schedule,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    pub file: PathBuf,
    #[command(flatten)]
    pub dims: Dims,
    /// Placement strategy: a strategy re-places a plan's spaces as whole blocks (in-place
    /// and wrap-around sharing kept) and a buffer list's buffers one by one.
    #[arg(long, default_value = planning::AS_LOADED, value_parser = strategy_parser())]
    pub strategy: String,
    /// Memory generator for schedules [default: multiple-mems].
    #[arg(long, value_enum)]
    pub driver: Option<DriverName>,
    /// Wrap-around buffers (generate_memory and auto-concat only).
    #[arg(long)]
    pub wrap: bool,
    /// Aidge optimize() strategy applied after generation [default: None].
    #[arg(long, value_enum)]
    pub optimize: Option<OptimizeName>,
    /// Memory alignment in bytes [default: 1].
    #[arg(long)]
    pub alignment: Option<u64>,
    /// Allocate Producers' outputs too (Aidge's inc_producers).
    #[arg(long)]
    pub inc_producers: bool,
    /// Memory components of multiple-mems, in bytes (Aidge's
    /// memory_components_capacities) [default: those the file's plan records, else 1e9].
    #[arg(long, value_delimiter = ',', num_args = 1)]
    pub capacities: Vec<u64>,
    /// Their priorities, lowest tried first (memory_components_priorities)
    /// [default: the order of --capacities].
    #[arg(
        long,
        value_delimiter = ',',
        num_args = 1,
        allow_negative_numbers = true
    )]
    pub priorities: Vec<i64>,
    /// What to plan in a file that holds both a plan and a schedule (Aidge exports
    /// do): `plan` re-places the plan as given, as the page and `stats` read such a
    /// file (the default); `schedule` runs a driver on the schedule (implied by
    /// --driver, --wrap, --optimize, --alignment, --inc-producers, --capacities and
    /// --priorities).
    #[arg(long, value_enum)]
    pub from: Option<Source>,
    /// Time budget of `search` and `best`, in milliseconds, for the whole command
    /// (reading, planning every memory component, writing).
    #[arg(long, default_value_t = 2000)]
    pub budget: u64,
    /// Keep the schedule's order: best tries no other order of the parallel branches
    /// (implied when -o names aidge-export-cpp's .meminfo.h or .meminfo.json, whose
    /// forward pass runs Aidge's scheduler's order).
    #[arg(long)]
    pub keep_order: bool,
    /// Output file (`-` for stdout: memplan JSON); its extension picks the format, as
    /// for `convert`: .json, .txt/.log, .csv, .h/.hpp, .meminfo.json, .meminfo.h,
    /// .tflite (a .tflite input with the plan as its offline plan).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Force the output format.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<String>,
}

/// `--strategy`'s choices with their help, from [`planning::choices`] (the one list
/// of the strategies' names): clap lists them in `--help` and refuses others.
fn strategy_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(planning::choices().into_iter().map(|(name, help)| {
        let value = PossibleValue::new(name).help(help);
        match name == planning::AS_LOADED {
            true => value.alias(planning::AS_LOADED_ALIAS),
            false => value,
        }
    }))
}

/// `--format`'s choices with their help, from [`Export::CHOICES`].
fn format_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(Export::CHOICES.iter().map(|c| {
        PossibleValue::new(c.name)
            .help(c.help)
            .aliases(c.aliases.iter().copied())
    }))
}

#[derive(Debug, Args)]
pub struct TileArgs {
    /// An ONNX model (one N, C, H, W image input).
    pub file: PathBuf,
    /// The fast memory's size: bytes, or with a unit (`256K`, `1M`, `1.5M`; K = 1024), as
    /// `memplan fit --memory` reads a bank.
    #[arg(long, value_parser = parse_fast)]
    pub fast: u64,
    /// The model's symbolic input dims, as NAME=N (those not given are 1).
    #[arg(long, value_delimiter = ',')]
    pub dims: Vec<String>,
    /// The tiled model (ONNX).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Time budget of the search, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    pub budget: u64,
}

/// `memplan tile`'s `--fast`: one size, read by the memory map's size rule
/// ([`crate::fit::map::parse_size`]), so `--fast 256K` is the bytes `fit --memory 256K`'s
/// fast bank holds.
fn parse_fast(text: &str) -> std::result::Result<u64, String> {
    crate::fit::map::parse_size(text, "--fast").map_err(|e| e.message)
}
