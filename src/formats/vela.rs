//! Arm Vela's tensor allocation report: what `vela --verbose-allocation` prints while
//! it compiles a TFLite model for an Ethos-U NPU (pip `ethos-u-vela`, 5.2.0). One
//! section per memory area Vela allocates, then one for the read-only NPU tensors:
//!
//! ```text
//! Allocation, memory Sram, usage mask: FeatureMap|Staging
//! Start Time - End Time  : Start Addr -   End Addr: Tensor Size: Memory Usage: Format         : Name
//!          0 -          1:      0xb20 -     0x1720:        3072:        23072: NHWC           : input:0
//! Allocation Peak Tensor Size: 52000 bytes == 50.78125 KiB
//! ################################################################################
//! Tensor Allocation for read-only NPU tensors:
//! …
//! ```
//!
//! Each row is a tensor at Vela's addresses, live from its start to its end time (both
//! inclusive, in Vela's schedule); each section is a memory of its own (a lane), so the
//! plan's peak of each memory is Vela's "Allocation Peak Tensor Size" of that section
//! (`tests/vela.rs` checks it on real reports). Rows that share a live range (Vela
//! prints one row per tensor of the range) share bytes and become planes of one space
//! ([`super::placed`]).
//!
//! The read-only tensors (encoded weights, look-up tables) are constant data in the
//! model: their bytes can never be reused, whatever their times, so they are read as
//! live for the whole inference and no re-placement overlaps them. Lines outside the
//! sections (warnings, the network summary, other `--verbose-*` output) are skipped.

use super::clip;
use super::placed::{Placed, Value};
use crate::model::{Bytes, Component};
use crate::{Error, Result};

const MEMORY: &str = "Allocation, memory ";
const READ_ONLY: &str = "Tensor Allocation for read-only NPU tensors:";
const PEAK: &str = "Allocation Peak Tensor Size:";
const HEADER: &str = "Start Time - End Time";

/// True for text with a section of Vela's allocation report: a section heading and
/// a peak line (an Aidge log or a CSV has neither).
pub fn is_vela(text: &str) -> bool {
    let mut heading = false;
    for line in text.lines() {
        let l = line.trim_start();
        heading |= l.starts_with(MEMORY) || l.starts_with(READ_ONLY);
        if heading && (l.starts_with(PEAK) || l.starts_with(HEADER)) {
            return true;
        }
    }
    false
}

/// One section of the report: a memory area and what Vela says it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// `Sram (FeatureMap|Staging)`, or `read-only NPU tensors`.
    pub name: String,
    /// Vela's "Allocation Peak Tensor Size" of the section, in bytes.
    pub peak: Bytes,
    /// True for the read-only NPU tensors.
    pub read_only: bool,
}

/// A report read: the placement, its sections (one memory each, in order) and the
/// reader's warnings.
#[derive(Debug, Clone)]
pub struct Report {
    pub placed: Placed,
    pub sections: Vec<Section>,
    pub warnings: Vec<String>,
}

impl Report {
    /// Vela's figures in its words, for the page's headline: each memory area's
    /// "Allocation Peak Tensor Size", which the plan as loaded's peaks equal.
    pub fn own_total(&self) -> String {
        let parts: Vec<String> = self
            .sections
            .iter()
            .map(|s| format!("{} {} B", s.name, s.peak))
            .collect();
        format!(
            "Vela's “Allocation Peak Tensor Size” of each area ({})",
            parts.join(" + ")
        )
    }
}

/// A section being read: its heading's line and its rows so far.
struct Open {
    line: usize,
    name: String,
    read_only: bool,
    header: bool,
    rows: Vec<(Value, usize)>,
}

/// Reads a report. Errors name the line and say what was expected there.
pub fn read(text: &str) -> Result<Report> {
    let mut sections: Vec<Section> = Vec::new();
    let mut values: Vec<Value> = Vec::new();
    let mut read_only_rows: Vec<usize> = Vec::new();
    let mut open: Option<Open> = None;
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let l = line.trim();
        let heading = if let Some(rest) = l.strip_prefix(MEMORY) {
            Some((area_name(rest), false))
        } else if l == READ_ONLY {
            Some(("read-only NPU tensors".to_owned(), true))
        } else {
            None
        };
        if let Some((name, read_only)) = heading {
            if let Some(o) = &open {
                return Err(Error::at_line(
                    n,
                    1,
                    format!(
                        "a new section begins, but the section of line {} ({}) has no `{PEAK}` line: \
                         expected one at the end of each section (is the report cut or mixed?)",
                        o.line, o.name
                    ),
                ));
            }
            open = Some(Open {
                line: n,
                name,
                read_only,
                header: false,
                rows: Vec::new(),
            });
            continue;
        }
        let Some(o) = open.as_mut() else {
            continue;
        };
        if l.starts_with(HEADER) {
            o.header = true;
            continue;
        }
        if let Some(rest) = l.strip_prefix(PEAK) {
            let peak = rest
                .split_whitespace()
                .next()
                .and_then(|w| w.parse::<Bytes>().ok())
                .ok_or_else(|| {
                    Error::at_line(
                        n,
                        line.len() - line.trim_start().len() + PEAK.len() + 1,
                        format!(
                            "expected the peak in bytes after `{PEAK}`, found `{}`",
                            clip(rest.trim())
                        ),
                    )
                })?;
            let Some(o) = open.take() else { continue };
            let memory = sections.len();
            for (mut v, _) in o.rows {
                v.memory = memory;
                if o.read_only {
                    read_only_rows.push(values.len());
                }
                values.push(v);
            }
            sections.push(Section {
                name: o.name,
                peak,
                read_only: o.read_only,
            });
            continue;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if !o.header {
            return Err(Error::at_line(
                n,
                1,
                format!(
                    "expected the column heading `{HEADER} : Start Addr - End Addr: …` of the section of line {}, found `{}`",
                    o.line,
                    clip(l)
                ),
            ));
        }
        let v = row(line, n)?;
        o.rows.push((v, n));
    }
    if let Some(o) = open {
        return Err(Error::at_line(
            last_line.max(1),
            1,
            format!(
                "the report ends inside the section of line {} ({}, {} rows read): expected its `{PEAK} N bytes` line; \
                 the report is cut short",
                o.line,
                o.name,
                o.rows.len()
            ),
        ));
    }
    if sections.is_empty() {
        return Err(Error::whole(format!(
            "no allocation section: expected `{MEMORY}NAME, usage mask: …` or `{READ_ONLY}` \
             headings, as `vela --verbose-allocation` prints them"
        )));
    }
    // Constants live for the whole inference (see the module's doc).
    let horizon = values.iter().map(|v| v.last).max().unwrap_or(0);
    for &i in &read_only_rows {
        values[i].first = 0;
        values[i].last = horizon;
    }
    let mut warnings = Vec::new();
    if !read_only_rows.is_empty() {
        warnings.push(
            "Vela's read-only NPU tensors (encoded weights, look-up tables) are constant data in \
             the model: shown live for the whole inference, so no plan reuses their bytes"
                .to_owned(),
        );
    }
    let alignment = if values.iter().all(|v| v.offset % 16 == 0) {
        16
    } else {
        1
    };
    let placed = Placed {
        memories: sections
            .iter()
            .map(|s| Component {
                name: s.name.clone(),
                ..Component::default()
            })
            .collect(),
        steps: Vec::new(),
        values,
        horizon: Some(horizon),
        alignment,
    };
    Ok(Report {
        placed,
        sections,
        warnings,
    })
}

/// `Sram, usage mask: FeatureMap|Staging` → `Sram (FeatureMap|Staging)`.
fn area_name(rest: &str) -> String {
    match rest.split_once(", usage mask:") {
        Some((area, mask)) if !mask.trim().is_empty() => {
            format!("{} ({})", area.trim(), mask.trim())
        }
        Some((area, _)) => area.trim().to_owned(),
        None => rest.trim().to_owned(),
    }
}

/// One row: `start - end: 0xstart - 0xend: size: usage: format : name` (the name may
/// hold colons: it is the rest of the line).
fn row(line: &str, n: usize) -> Result<Value> {
    let expected = "expected a row `START - END: 0xADDR - 0xADDR: SIZE: USAGE: FORMAT : NAME`";
    let fields: Vec<&str> = line.splitn(6, ':').collect();
    if fields.len() < 6 {
        return Err(Error::at_line(
            n,
            1,
            format!(
                "{expected}, found `{}` ({} of its 6 fields)",
                clip(line.trim()),
                fields.len()
            ),
        ));
    }
    // 1-based column of field `k`.
    let column = |k: usize| {
        fields[..k]
            .iter()
            .map(|f| f.chars().count() + 1)
            .sum::<usize>()
            + 1
    };
    let pair = |k: usize, what: &str, hex: bool| -> Result<(u64, u64)> {
        let bad = || {
            Error::at_line(
                n,
                column(k),
                format!("{expected}: `{}` is not {what}", clip(fields[k].trim())),
            )
        };
        let (a, b) = fields[k].split_once(" - ").ok_or_else(bad)?;
        let num = |s: &str| {
            let s = s.trim();
            if hex {
                s.strip_prefix("0x")
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
            } else {
                s.parse().ok()
            }
        };
        Ok((num(a).ok_or_else(bad)?, num(b).ok_or_else(bad)?))
    };
    let (first, last) = pair(0, "two times `START - END`", false)?;
    let (start, end) = pair(1, "two hexadecimal addresses `0xSTART - 0xEND`", true)?;
    let size: Bytes = fields[2].trim().parse().map_err(|_| {
        Error::at_line(
            n,
            column(2),
            format!(
                "{expected}: the tensor size `{}` is not a number of bytes",
                clip(fields[2].trim())
            ),
        )
    })?;
    if first > last || first > super::MAX_CLOCK || last > super::MAX_CLOCK {
        return Err(Error::at_line(
            n,
            column(0),
            format!(
                "times {first} - {last}: expected a start no later than the end, both at most {}",
                super::MAX_CLOCK
            ),
        ));
    }
    if end < start || end - start != size {
        return Err(Error::at_line(
            n,
            column(1),
            format!("addresses {start:#x} - {end:#x} do not span the tensor size {size}"),
        ));
    }
    let name = fields[5].trim();
    Ok(Value {
        name: if name.is_empty() {
            format!("line {n}")
        } else {
            name.to_owned()
        },
        memory: 0,
        offset: start,
        size,
        first,
        last,
        tensor: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
Warning: No configuration file specified.
################################################################################
Allocation, memory Sram, usage mask: FeatureMap|Staging
Start Time - End Time  : Start Addr -   End Addr: Tensor Size: Memory Usage: Format         : Name
         0 -          1:       0x20 -       0x40:          32:           48: NHWC           : in:0
         0 -          3:        0x0 -       0x10:          16:           48: Unknown        : WB_single_16_op0
         2 -          3:        0x0 -       0x10:          16:           48: NHCWB16        : a
         2 -          3:        0x0 -       0x10:          16:           48: NHCWB16        : b
Allocation Peak Tensor Size: 64 bytes == 0.0625 KiB
################################################################################
Tensor Allocation for read-only NPU tensors:
Start Time - End Time  : Start Addr -   End Addr: Tensor Size: Memory Usage: Format         : Name
         0 -          1:        0x0 -      0x300:         768:          768: Unknown        : w
Allocation Peak Tensor Size: 768 bytes == 0.75 KiB
";

    #[test]
    fn sections_are_memories_and_shared_ranges_share_a_space() {
        assert!(is_vela(REPORT));
        let r = read(REPORT).unwrap();
        assert_eq!(r.sections.len(), 2);
        assert_eq!(r.sections[0].name, "Sram (FeatureMap|Staging)");
        assert_eq!((r.sections[0].peak, r.sections[1].peak), (64, 768));
        let v = &r.placed.values;
        assert_eq!(v[0].name, "in:0");
        assert_eq!((v[4].first, v[4].last, v[4].memory), (0, 3, 1));
        let plan = super::super::placed::to_plan(&r.placed);
        assert_eq!(plan.peaks(), vec![64, 768]);
        assert!(crate::check::check(&plan).is_valid());
    }

    #[test]
    fn cut_and_broken_reports_say_where() {
        let cut = &REPORT[..REPORT.find("Allocation Peak Tensor Size: 64").unwrap()];
        let e = read(cut).unwrap_err().to_string();
        assert!(e.contains("cut short") && e.contains("line 3"), "{e}");
        let bad = REPORT.replace("0x20 -       0x40", "0x20 -       0x50");
        let e = read(&bad).unwrap_err().to_string();
        assert!(e.contains("line 5") && e.contains("do not span"), "{e}");
        let bad = REPORT.replace(
            "         2 -          3:        0x0",
            "         2 -          x:        0x0",
        );
        let e = read(&bad).unwrap_err().to_string();
        assert!(e.contains("line 7") && e.contains("two times"), "{e}");
        assert!(!is_vela("MEM_0 foo\nStart Time - End Time\n"));
    }
}
