//! `memplan fit FILE --memory MAP`: prints what `crate::fit::fit` found — the verdict
//! first, then each bank, the sweep and Aidge's priority spill — or its JSON; `-o`
//! writes the plan with one component per bank.

use super::args::{FitArgs, Spill};
use super::commands::{display, parse_dims, read, write_out};
use super::{FAILED, INVALID, OK};
use crate::fit::{self, human, Fit, MemoryMap};
use crate::formats::{Document, Output};
use crate::planning::{self, Session};
use crate::{Error, Result};

pub(super) fn fit(a: FitArgs) -> Result<u8> {
    let map = MemoryMap::parse(&a.memory)?;
    // Decided before planning, so that a name no writer matches costs no fit.
    let output = a
        .output
        .as_ref()
        .map(|o| Output::of(&display(o), None).map(|f| (o, f)))
        .transpose()?;
    let doc = read(&a.file, &a.dims)?;
    let name = display(&a.file);
    let mut session = Session::of(&name, doc);
    let result = fit_file(&a, &name, &mut session, &map)?;
    let fits = match a.spill {
        Spill::Memplan => result.fits,
        Spill::Aidge => result.aidge_spill.as_ref().is_some_and(|s| s.fits),
    };
    if a.json {
        let text = serde_json::to_string_pretty(&result)
            .map_err(|e| Error::whole(format!("cannot write JSON: {e}")))?;
        println!("{text}");
    } else {
        print!("{}", human_report(&result, a.spill));
    }
    if let Some(path) = &a.onnx_out {
        match result.tiling.as_ref().filter(|t| t.chosen) {
            Some(t) => std::fs::write(path, &t.onnx)
                .map_err(|e| Error::whole(format!("cannot write: {e}")).in_file(display(path)))?,
            None => {
                return Err(Error::whole(format!(
                    "--onnx-out: no tiled model to write: {}",
                    result
                        .untiled_because
                        .as_deref()
                        .unwrap_or("tiling was not chosen")
                ))
                .in_file(display(path)))
            }
        }
    }
    if let Some((path, output)) = output {
        let answer = result.answer();
        let plan = match a.spill {
            Spill::Memplan => answer.plan.clone(),
            Spill::Aidge => match result.aidge_spill.as_ref().and_then(|s| s.plan.clone()) {
                Some(p) => p,
                None => {
                    eprintln!(
                        "memplan: {name}: Aidge's priority spill made no plan of this file: \
                         nothing written"
                    );
                    return Ok(FAILED);
                }
            },
        };
        let Output::Text(export) = output else {
            return Err(
                Error::whole("a .tflite output is not written by `fit`: use .json")
                    .in_file(display(path)),
            );
        };
        let schedule = match a.spill {
            Spill::Memplan => answer.schedule.clone(),
            Spill::Aidge => result.schedule.clone(),
        };
        let out = Document {
            schedule,
            ..Document::of_plan(plan)
        };
        write_out(path, &planning::export(&out, export)?)?;
    }
    Ok(if fits { OK } else { INVALID })
}

/// The fit, with tiling as its second lever for an ONNX model unless `--no-tile`.
fn fit_file(a: &FitArgs, name: &str, session: &mut Session, map: &MemoryMap) -> Result<Fit> {
    if a.no_tile {
        let mut f = fit::fit(session, map, a.budget)?;
        f.untiled_because = Some("--no-tile".into());
        return Ok(f);
    }
    let bytes = std::fs::read(&a.file)
        .map_err(|e| Error::whole(format!("cannot read: {e}")).in_file(name))?;
    if !crate::formats::is_onnx_model(name, &bytes) {
        return fit::fit(session, map, a.budget);
    }
    let dims = parse_dims(&a.dims.dims)?;
    let deploy = crate::recipes::Deploy::parse(
        &a.dims.recipes.join(","),
        a.dims.dtype.as_deref().unwrap_or(""),
    )?;
    let model = fit::Model {
        bytes: &bytes,
        dims: &dims,
        deploy: &deploy,
        tile_ms: a.tile_budget,
    };
    fit::fit_tiled(session, map, a.budget, &model).map_err(|e| e.in_file(name))
}

/// The verdict first, then the banks, the sweep and Aidge's spill; then tiling.
fn human_report(f: &Fit, spill: Spill) -> String {
    let mut s = String::new();
    let mut line = |t: String| {
        s.push_str(&t);
        s.push('\n');
    };
    match (spill, &f.aidge_spill) {
        (Spill::Aidge, Some(a)) => line(format!(
            "Aidge's priority spill: {}",
            match &a.error {
                Some(e) => format!("does not fit: {e}"),
                None => format!(
                    "{} · {} slow traffic per inference",
                    if a.fits { "fits" } else { "does not fit" },
                    human(a.slow_traffic.total)
                ),
            }
        )),
        _ => line(f.summary.clone()),
    }
    line(String::new());
    let untiled = if f.tiling.is_some() { " (untiled)" } else { "" };
    line(format!(
        "{:<12} {:>12} {:>12}{untiled}",
        "bank", "size", "peak"
    ));
    for b in &f.banks {
        let mark = if b.peak > b.size { "  over" } else { "" };
        line(format!(
            "{:<12} {:>12} {:>12}{mark}",
            b.name,
            human(b.size),
            human(b.peak)
        ));
    }
    line(format!(
        "slow traffic per inference: {} written + {} read = {} (reads: {})",
        human(f.slow_traffic.written),
        human(f.slow_traffic.read),
        human(f.slow_traffic.total),
        f.reads_counted
    ));
    line(String::new());
    line(format!(
        "sweep: the smallest {} that holds everything is {} ({} B)",
        f.memory.banks[0].name,
        human(f.sweep.min_fast),
        f.sweep.min_fast
    ));
    line(format!(
        "{:>12} {:>14} {:>14}  verdict",
        "fast", "slow peak", "slow traffic"
    ));
    for p in &f.sweep.points {
        let slow: u64 = p.peaks.iter().skip(1).sum();
        line(format!(
            "{:>12} {:>14} {:>14}  {}",
            human(p.fast),
            human(slow),
            human(p.slow_traffic.total),
            if p.fits { "fits" } else { "does not fit" }
        ));
    }
    line(String::new());
    match &f.aidge_spill {
        None => line("Aidge's priority spill: no schedule in this file".into()),
        Some(a) => {
            let peaks: Vec<String> = a
                .banks
                .iter()
                .map(|b| format!("{} {}", b.name, human(b.peak)))
                .collect();
            line(match &a.error {
                Some(e) => format!("Aidge's priority spill (multiple-mems): fails: {e}"),
                None => format!(
                    "Aidge's priority spill (multiple-mems): {} · peaks {} · {} slow traffic \
                     ({} written, {} read)",
                    if a.fits { "fits" } else { "does not fit" },
                    peaks.join(", "),
                    human(a.slow_traffic.total),
                    human(a.slow_traffic.written),
                    human(a.slow_traffic.read)
                ),
            });
        }
    }
    for n in &f.notes {
        line(format!("note: {n}"));
    }
    if let Some(t) = &f.tiling {
        line(String::new());
        line(format!(
            "tiling ({}): peak {} → {}, MACs +{:.1} %",
            if t.chosen { "the answer" } else { "not chosen" },
            human(t.peak_before),
            human(t.peak_after),
            t.macs_added_percent
        ));
        for st in &t.stages {
            line(format!(
                "  {}…{} in {}×{} patches up to '{}' (patches {}×{}, input {}×{}, halo {}×{})",
                st.first,
                st.last,
                st.rows,
                st.cols,
                st.cut,
                st.tile[0],
                st.tile[1],
                st.input_tile[0],
                st.input_tile[1],
                st.halo[0],
                st.halo[1]
            ));
        }
        line(format!("  untiled: {}", t.untiled_summary));
        line(format!("  tiled:   {}", t.fit.summary));
        for b in &t.fit.banks {
            line(format!(
                "  {:<12} {:>12} {:>12}",
                b.name,
                human(b.size),
                human(b.peak)
            ));
        }
        line(format!(
            "  slow traffic per inference: {}",
            human(t.fit.slow_traffic.total)
        ));
        if let Some(n) = t.fit.notes.first() {
            line(format!("  note: {n}"));
        }
    }
    if let Some(why) = &f.untiled_because {
        line(format!("tiling: untiled because {why}"));
    }
    s
}
