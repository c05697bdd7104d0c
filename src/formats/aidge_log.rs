//! The text log of a memory plan, `memory_info.txt`, in its three dialects:
//!
//! * aidge_core ≥ 0.7 Python `mem_info.log_meminfo_text` (0.10.1 is the reference):
//!   `name:` then `  idx co (0xCO......U) -> end (0x........U)[ + wrap part] [size] @ t[ to r]`
//!   with UPPERCASE 8-digit hex, and with `multiple_mems` a ` [MEM_i] @ t` suffix;
//! * Aidge C++ `MemoryManager::log` (2024): no colon after the name, hex `{:#08x}`
//!   (lowercase, the width counts the `0x`);
//! * N2D2 `MemoryManager::log`: colon, lowercase 8-digit hex.
//!
//! The log has no memory spaces, only planes. [`read`] rebuilds spaces with this rule
//! (docs/formats.md): planes of the same component whose space had the same release
//! (same ` to r` suffix, or none) and whose *hulls* intersect belong to one space,
//! transitively. A hull is the contiguous part, or for a wrapped plane everything from
//! the wrapped part (which restarts at the space's start) to the end of the contiguous
//! part. Planes that share bytes while live in the real plan share a real space (only
//! a space's own planes may) and so the same suffix: the rebuilt plan never shows a
//! conflict the real one lacks, and keeps its peak. A rebuilt space may be a part of a
//! real one (hulls that do not meet), whose planes then live as long or longer
//! ([`Plan::plane_last_lives`]). Wrap-around plans re-placed by Aidge's `optimize` can
//! put a space over the bytes of another's replaced plane; when both have the same
//! release, the rebuild merges them and checks them as one space. The exact formats
//! (memplan JSON, `planes.json`) carry the real spaces.
//!
//! Ends past 2^64: Aidge's auto-concat gives some Concat inputs a size that wrapped
//! below zero in `size_t` (docs/aidge-parity.md), and Python prints `offset + size`
//! as an unbounded integer, e.g. `18446744073709552640 (0x10000000000000400U)`. Such
//! an end is read in 128 bits and the part keeps its `size_t` size (`end - start`,
//! below 2^64), so the plan holds what Aidge's `MemoryManager` held and writes back
//! the same text. The part does not widen the rebuilt space (the hull stops at the
//! contiguous part's end): `check` then names the plane whose part leaves its space.

use super::MAX_CLOCK;
use crate::model::{Bytes, Clock, Component, Plan, Plane, Space, Step};
use crate::{Error, Result};
use std::collections::HashMap;
use std::fmt;

/// Which program wrote the log (it decides punctuation and hex digits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogDialect {
    /// aidge_core Python `log_meminfo_text`; `multiple_mems` adds ` [MEM_i] @ t`.
    Python { multiple_mems: bool },
    /// Aidge C++ `MemoryManager::log`: no colon, `{:#08x}` hex.
    AidgeCpp,
    /// N2D2 `MemoryManager::log`: lowercase 8-digit hex.
    N2d2,
}

impl Default for LogDialect {
    /// What aidge_core 0.10.1's `generate_optimized_memory_info` writes by default.
    fn default() -> Self {
        LogDialect::Python {
            multiple_mems: true,
        }
    }
}

impl fmt::Display for LogDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LogDialect::Python {
                multiple_mems: true,
            } => "Aidge memory_info.txt (Python, multiple mems)",
            LogDialect::Python {
                multiple_mems: false,
            } => "Aidge memory_info.txt (Python)",
            LogDialect::AidgeCpp => "Aidge C++ memory log",
            LogDialect::N2d2 => "N2D2 memory log",
        })
    }
}

/// One plane line as written; parts are `(start, size)`.
struct Record {
    step: usize,
    index: usize,
    cont: (Bytes, Bytes),
    wrap: Option<(Bytes, Bytes)>,
    size: Bytes,
    allocated: Clock,
    released: Option<Clock>,
    mem: usize,
}

impl Record {
    /// The bytes `[start, end)` the plane's space must span: a wrapped part restarts
    /// at the start of the space, so a wrapped plane covers everything from there to
    /// the end of its contiguous part, the gap between its parts included. The end
    /// saturates at 2^64 - 1: a contiguous part ending past it is out of any space.
    fn hull(&self) -> (Bytes, Bytes) {
        let (start, size) = self.cont;
        let end = start.saturating_add(size);
        match self.wrap {
            Some((a, n)) if n > 0 => (a.min(start), end),
            _ => (start, end),
        }
    }
}

/// What the hex digits told about the writer.
#[derive(Default)]
struct HexSeen {
    upper: bool,
    lower: bool,
    short: bool,
}

/// A cursor over one plane line; columns are 1-based byte positions (the grammar is
/// ASCII, so they are character columns too).
struct Cursor<'a> {
    s: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn err(&self, msg: impl Into<String>) -> Error {
        Error::at_line(self.line, self.pos + 1, msg)
    }
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }
    fn eat(&mut self, lit: &str) -> bool {
        if self.rest().starts_with(lit) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, lit: &str) -> Result<()> {
        if self.eat(lit) {
            return Ok(());
        }
        let found: String = self.rest().chars().take(12).collect();
        Err(self.err(format!("expected `{lit}`, found `{found}`")))
    }
    fn digits(&mut self, radix: u32) -> &'a str {
        let start = self.pos;
        let len = self
            .rest()
            .find(|c: char| !c.is_digit(radix))
            .unwrap_or(self.rest().len());
        self.pos += len;
        &self.s[start..start + len]
    }
    fn number(&mut self, what: &str) -> Result<u64> {
        let at = self.pos;
        let wide = self.wide(what)?;
        u64::try_from(wide).map_err(|_| {
            Error::at_line(
                self.line,
                at + 1,
                format!("{what} {wide} does not fit in 64 bits"),
            )
        })
    }
    /// A whole number in 128 bits: the end of a part may pass 2^64 (module comment).
    fn wide(&mut self, what: &str) -> Result<u128> {
        let at = self.pos;
        let d = self.digits(10);
        if d.is_empty() {
            return Err(self.err(format!("expected {what} (a whole number)")));
        }
        d.parse::<u128>().map_err(|_| {
            Error::at_line(
                self.line,
                at + 1,
                format!("{what} {d} does not fit in 128 bits"),
            )
        })
    }
    fn clock(&mut self, what: &str) -> Result<Clock> {
        let at = self.pos;
        let v = self.number(what)?;
        if v > MAX_CLOCK {
            return Err(Error::at_line(
                self.line,
                at + 1,
                format!("{what} {v} is above the supported maximum {MAX_CLOCK}"),
            ));
        }
        Ok(v as Clock)
    }
    /// ` (0xHEX U)` after a decimal value, checked against it.
    fn hex_of(&mut self, value: u128, seen: &mut HexSeen) -> Result<()> {
        self.expect(" (0x")?;
        let at = self.pos;
        let d = self.digits(16);
        if d.is_empty() {
            return Err(self.err("expected hex digits"));
        }
        if u128::from_str_radix(d, 16).ok() != Some(value) {
            return Err(Error::at_line(
                self.line,
                at + 1,
                format!("hex 0x{d} does not match {value}"),
            ));
        }
        seen.upper |= d.bytes().any(|b| b.is_ascii_uppercase());
        seen.lower |= d.bytes().any(|b| b.is_ascii_lowercase());
        seen.short |= d.len() < 8;
        self.expect("U)")
    }
    /// `co (0x..U) -> end (0x..U)` → (start, size): the end may pass 2^64, the
    /// size may not (it is a `size_t`).
    fn range(&mut self, seen: &mut HexSeen) -> Result<(Bytes, Bytes)> {
        let start = self.number("an offset")?;
        self.hex_of(start.into(), seen)?;
        self.expect(" -> ")?;
        let at = self.pos;
        let end = self.wide("an end offset")?;
        self.hex_of(end, seen)?;
        let Some(size) = end.checked_sub(start.into()) else {
            return Err(Error::at_line(
                self.line,
                at + 1,
                format!("end {end} is below start {start}"),
            ));
        };
        let size = u64::try_from(size).map_err(|_| {
            Error::at_line(
                self.line,
                at + 1,
                format!("end {end} is 2^64 or more bytes after start {start}"),
            )
        })?;
        Ok((start, size))
    }
}

/// Parses one plane line (after the two-space indent).
fn plane_line(
    cur: &mut Cursor,
    step: usize,
    seen: &mut HexSeen,
    mems: &mut bool,
) -> Result<Record> {
    let index = cur.number("a plane index")? as usize;
    cur.expect(" ")?;
    let cont = cur.range(seen)?;
    let wrap = if cur.eat(" + ") {
        Some(cur.range(seen)?)
    } else {
        None
    };
    cur.expect(" [")?;
    let size = cur.number("a plane size")?;
    cur.expect("] @ ")?;
    let allocated = cur.clock("a clock")?;
    let released = if cur.eat(" to ") {
        Some(cur.clock("a release clock")?)
    } else {
        None
    };
    let mut mem = 0;
    if cur.eat(" [MEM_") {
        *mems = true;
        let at = cur.pos;
        mem = cur.number("a memory component")? as usize;
        if mem > 1024 {
            return Err(Error::at_line(
                cur.line,
                at + 1,
                format!("memory component {mem}: at most 1024 are supported"),
            ));
        }
        cur.expect("] @ ")?;
        let at = cur.pos;
        if cur.clock("a clock")? != allocated {
            return Err(Error::at_line(
                cur.line,
                at + 1,
                "the [MEM_i] clock differs from the plane's clock",
            ));
        }
    }
    if !cur.rest().trim_end().is_empty() {
        return Err(cur.err(format!(
            "unexpected `{}` at the end of the plane line",
            cur.rest().trim_end()
        )));
    }
    let parts = u128::from(cont.1) + u128::from(wrap.map_or(0, |w| w.1));
    if parts != u128::from(size) {
        return Err(cur.err(format!(
            "plane size [{size}] differs from its contiguous and wrapped parts ({parts} bytes)"
        )));
    }
    Ok(Record {
        step,
        index,
        cont,
        wrap,
        size,
        allocated,
        released,
        mem,
    })
}

/// Reads a log of any dialect: the plan with rebuilt spaces, and the dialect.
pub fn read(text: &str) -> Result<(Plan, LogDialect)> {
    // A plane line cut short (a copy or a download stopped mid-way) fails on whatever
    // token it was cut in (`hex 0x00 does not match 1577472`): say what happened.
    let last = text.trim_end_matches(['\r', '\n']).lines().count();
    let cut = !text.ends_with('\n');
    read_lines(text).map_err(|mut e| {
        if let crate::error::Location::LineCol { line, .. } = e.location {
            if cut && line == last {
                e.message = format!("the file ends in the middle of a line ({})", e.message);
            }
        }
        e
    })
}

fn read_lines(text: &str) -> Result<(Plan, LogDialect)> {
    let mut steps: Vec<Step> = Vec::new();
    let mut records: Vec<Record> = Vec::new();
    let mut colon: Option<bool> = None;
    let mut seen = HexSeen::default();
    let mut mems = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("  ") {
            let Some(step) = steps.len().checked_sub(1) else {
                return Err(Error::at_line(n + 1, 1, "plane line before any node name"));
            };
            let mut cur = Cursor {
                s: rest,
                pos: 0,
                line: n + 1,
            };
            let rec = plane_line(&mut cur, step, &mut seen, &mut mems).map_err(|mut e| {
                if let crate::error::Location::LineCol { column, .. } = &mut e.location {
                    *column += 2;
                }
                e
            })?;
            if steps[step].clock.is_none() {
                steps[step].clock = Some(rec.allocated);
            }
            records.push(rec);
        } else if line.starts_with(char::is_whitespace) {
            return Err(Error::at_line(
                n + 1,
                1,
                "expected a node name or a plane line indented by two spaces",
            ));
        } else {
            let has_colon = *colon.get_or_insert(line.ends_with(':'));
            let name = if has_colon {
                line.strip_suffix(':').ok_or_else(|| {
                    Error::at_line(
                        n + 1,
                        line.len() + 1,
                        "expected `:` after the node name, as on the first node",
                    )
                })?
            } else {
                line
            };
            steps.push(Step {
                name: name.to_string(),
                kind: String::new(),
                clock: None,
            });
        }
    }
    if records.is_empty() {
        return Err(Error::whole(
            "no plane line found: expected an Aidge/N2D2 memory_info.txt log \
             (`name:` then `  0 0 (0x00000000U) -> ...`), memplan JSON or a MiniMalloc CSV",
        ));
    }
    let dialect = match colon {
        Some(false) => LogDialect::AidgeCpp,
        _ if seen.lower && !mems => LogDialect::N2d2,
        _ => LogDialect::Python {
            multiple_mems: mems,
        },
    };
    if dialect != LogDialect::AidgeCpp && seen.short {
        return Err(Error::whole(
            "hex with fewer than 8 digits after a `name:` header: not a known dialect",
        ));
    }
    Ok((rebuild(steps, &records), dialect))
}

/// Union-find with path halving, enough for grouping planes into spaces.
fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// A non-empty byte range `[start, end)` of record `.2`.
type Part = (Bytes, Bytes, usize);

/// Builds the plan: planes grouped into spaces by the rule of the module comment.
fn rebuild(steps: Vec<Step>, records: &[Record]) -> Plan {
    let mut parent: Vec<usize> = (0..records.len()).collect();
    // Non-empty byte ranges per (component, release), merged when they intersect.
    let mut parts: HashMap<(usize, Option<Clock>), Vec<Part>> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        let group = parts.entry((r.mem, r.released)).or_default();
        let (a, b) = r.hull();
        if b > a {
            group.push((a, b, i));
        }
    }
    for group in parts.values_mut() {
        group.sort_unstable();
        let mut run: Option<(Bytes, usize)> = None; // (end, representative)
        for &(a, b, i) in group.iter() {
            match &mut run {
                Some((end, rep)) if a < *end => {
                    let (x, y) = (find(&mut parent, *rep), find(&mut parent, i));
                    parent[y] = x;
                    *end = (*end).max(b);
                }
                _ => run = Some((b, i)),
            }
        }
    }
    let mut space_of: HashMap<usize, usize> = HashMap::new();
    let mut spaces: Vec<Space> = Vec::new();
    let mut extent: Vec<(Bytes, Bytes)> = Vec::new();
    let mut plane_space = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let root = find(&mut parent, i);
        let (lo, hi) = r.hull();
        let s = *space_of.entry(root).or_insert_with(|| {
            spaces.push(Space {
                offset: lo,
                size: 0,
                allocated: r.allocated,
                released: r.released,
                has_deps: false,
                component: r.mem,
            });
            extent.push((lo, hi));
            spaces.len() - 1
        });
        extent[s] = (extent[s].0.min(lo), extent[s].1.max(hi));
        spaces[s].allocated = spaces[s].allocated.min(r.allocated);
        plane_space.push(s);
    }
    for (s, (lo, hi)) in spaces.iter_mut().zip(&extent) {
        s.offset = *lo;
        s.size = hi - lo;
    }
    let planes = records
        .iter()
        .zip(plane_space)
        .map(|(r, s)| {
            let base = spaces[s].offset;
            let (wrap_offset, wrap_size) = r.wrap.unwrap_or((base, 0));
            Plane {
                node: r.step,
                index: r.index,
                space: s,
                allocated: r.allocated,
                offset: r.cont.0 - base,
                size: r.size,
                stride: r.size,
                length: 1,
                count: 1,
                cont_offset: r.cont.0,
                cont_size: r.cont.1,
                wrap_offset,
                wrap_size,
                label: None,
                tensor: None,
            }
        })
        .collect();
    let max_lifetime = records
        .iter()
        .map(|r| r.allocated.max(r.released.unwrap_or(0)))
        .max()
        .unwrap_or(0);
    let components = (0..=records.iter().map(|r| r.mem).max().unwrap_or(0))
        .map(|i| Component {
            name: format!("MEM_{i}"),
            capacity: None,
            priority: i as i64,
        })
        .collect();
    Plan {
        steps,
        components,
        spaces,
        planes,
        max_lifetime,
        alignment: 1,
        reordered: false,
    }
}

/// Writes the log exactly as the given dialect's writer does for the same plan:
/// nodes in step order, each node's planes in plane-index order.
pub fn write(plan: &Plan, dialect: LogDialect) -> String {
    let mut by_step: Vec<Vec<&Plane>> = vec![Vec::new(); plan.steps.len()];
    for p in &plan.planes {
        if let Some(v) = by_step.get_mut(p.node) {
            v.push(p);
        }
    }
    let hex = |v: u128| match dialect {
        LogDialect::Python { .. } => format!("0x{v:08X}U"),
        LogDialect::N2d2 => format!("0x{v:08x}U"),
        LogDialect::AidgeCpp => format!("{v:#08x}U"),
    };
    // End of a part: Python adds unbounded integers (a wrapped size near 2^64,
    // as auto-concat's size quirk makes, prints past 2^64); C++ wraps in size_t.
    let end = |offset: Bytes, size: Bytes| match dialect {
        LogDialect::Python { .. } => offset as u128 + size as u128,
        _ => offset.wrapping_add(size) as u128,
    };
    let mut out = String::new();
    for (step, planes) in plan.steps.iter().zip(&mut by_step) {
        if planes.is_empty() {
            continue;
        }
        planes.sort_by_key(|p| p.index);
        out.push_str(&step.name);
        out.push_str(if dialect == LogDialect::AidgeCpp {
            "\n"
        } else {
            ":\n"
        });
        for (idx, p) in planes.iter().enumerate() {
            let (co, ce) = (p.cont_offset, end(p.cont_offset, p.cont_size));
            out.push_str(&format!(
                "  {idx} {co} ({}) -> {ce} ({})",
                hex(co as u128),
                hex(ce)
            ));
            if p.wrap_size > 0 {
                let (wo, we) = (p.wrap_offset, end(p.wrap_offset, p.wrap_size));
                out.push_str(&format!(
                    " + {wo} ({}) -> {we} ({})",
                    hex(wo as u128),
                    hex(we)
                ));
            }
            // Aidge prints `getSize()`, a `size_t` product: it wraps (an NHWC
            // auto-concat input with the size quirk), where `footprint` saturates.
            let size = p.stride.wrapping_mul(p.length).wrapping_mul(p.count);
            out.push_str(&format!(" [{size}] @ {}", p.allocated));
            if let Some(space) = plan.spaces.get(p.space) {
                if let (Some(r), false) = (space.released, space.has_deps) {
                    out.push_str(&format!(" to {r}"));
                }
                if dialect
                    == (LogDialect::Python {
                        multiple_mems: true,
                    })
                {
                    out.push_str(&format!(" [MEM_{}] @ {}", space.component, p.allocated));
                }
            }
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PY: &str =
        "conv:\n  0 0 (0x00000000U) -> 3211264 (0x00310000U) [3211264] @ 0 to 2 [MEM_0] @ 0\n\n\
relu:\n  0 0 (0x00000000U) -> 3211264 (0x00310000U) [3211264] @ 1 to 2 [MEM_0] @ 1\n\n\
pool:\n  0 3211264 (0x00310000U) -> 4014080 (0x003D4000U) [802816] @ 2 to 6 [MEM_0] @ 2\n\n";

    #[test]
    fn python_log_round_trips_and_rebuilds_in_place_spaces() {
        let (plan, dialect) = read(PY).unwrap();
        assert_eq!(
            dialect,
            LogDialect::Python {
                multiple_mems: true
            }
        );
        assert_eq!(plan.spaces.len(), 2, "conv and relu share one space");
        assert_eq!(plan.peak(), 4014080);
        assert_eq!(write(&plan, dialect), PY);
    }

    #[test]
    fn older_dialects_are_recognised() {
        let cpp = "conv\n  0 0 (0x000000U) -> 1024 (0x000400U) + 0 (0x000000U) -> 16 (0x000010U) [1040] @ 0\n\n";
        let (plan, d) = read(cpp).unwrap();
        assert_eq!(d, LogDialect::AidgeCpp);
        assert_eq!(write(&plan, d), cpp);
        let n2d2 = "env:\n  0 0 (0x00000000U) -> 3072 (0x00000c00U) [3072] @ 0 to 1\n\n";
        let (plan, d) = read(n2d2).unwrap();
        assert_eq!(d, LogDialect::N2d2);
        assert_eq!(write(&plan, d), n2d2);
    }

    #[test]
    fn an_end_past_2_64_keeps_the_size_t_size_and_does_not_widen_the_space() {
        // A line of Aidge's auto-concat log of an Inception block (the fixture
        // tests/data/formats/inception-autoconcat.memory_info.txt).
        let log = "i3b_b2b:\n  0 2304 (0x00000900U) -> 3072 (0x00000C00U) + 1792 (0x00000700U) \
                   -> 18446744073709552384 (0x10000000000000300U) [18446744073709551360] @ 12 to 15\n\n";
        let (plan, dialect) = read(log).unwrap();
        let p = &plan.planes[0];
        assert_eq!((p.cont_offset, p.cont_size), (2304, 768));
        assert_eq!(
            (p.wrap_offset, p.wrap_size),
            (1792, 0u64.wrapping_sub(1024))
        );
        assert_eq!((plan.spaces[0].offset, plan.spaces[0].size), (1792, 1280));
        assert_eq!(write(&plan, dialect), log);
    }

    #[test]
    fn errors_give_line_and_column() {
        let bad = "conv:\n  0 0 (0x00000000U) -> 16 (0x00000011U) [16] @ 0\n";
        assert_eq!(
            read(bad).unwrap_err().to_string(),
            "line 2, column 30: hex 0x00000011 does not match 16"
        );
        let bad = "conv:\n  0 0 (0x00000000U) -> 16 (0x00000010U) [17] @ 0\n";
        assert!(read(bad)
            .unwrap_err()
            .message
            .contains("differs from its contiguous"));
        assert_eq!(
            read("  0 1\n").unwrap_err().to_string(),
            "line 1, column 1: plane line before any node name"
        );
    }

    #[test]
    fn a_file_cut_mid_line_says_so() {
        let cut = "conv:\n  0 0 (0x00000000U) -> 1577472 (0x00";
        assert_eq!(
            read(cut).unwrap_err().to_string(),
            "line 2, column 35: the file ends in the middle of a line \
             (hex 0x00 does not match 1577472)"
        );
    }
}
