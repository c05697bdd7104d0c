//! XLA's buffer assignment, as `XLA_FLAGS=--xla_dump_to=DIR` writes it:
//! `*-buffer-assignment.txt` (allocations, each with its values' sizes and offsets) and
//! the `HloLiveRange` section (the instruction sequence and one `BufferLiveRange` line
//! per value, `name{index}:first-last`, inclusive). Recent XLA (jaxlib 0.4.3x on)
//! writes the live ranges in a separate `*-live-range.txt` beside the assignment; older
//! XLA appended them to the assignment. [`parse_assignment`] and [`parse_live`] find
//! their section anywhere in a text, so one file holding both, the two files
//! concatenated, or the pair read by [`super::load_pair`] all work.
//!
//! XLA allocates each allocation separately: the preallocated temp buffer (where its heap
//! simulator packs the temporaries) and the outputs are memories of their own, so their
//! peak is the allocation's size. The allocations XLA makes by the dozen, one per entry
//! parameter or constant, share one memory per kind, laid end to end in XLA's order (a
//! model's weights would otherwise be a lane each).
//!
//! Thread-local allocations are not in the plan. XLA marks so the values of
//! computations called in a parallel context (a reduce's or a map's reducer): its
//! `BufferAllocation::is_thread_local` ("such allocations need to be thread local"),
//! which `IsPreallocatedTempBuffer` leaves out because "thread-local buffers are
//! allocated using `alloca`s", and which are never reused "because they are
//! dynamically allocated and their lifetimes are hard to compute". They live on the
//! stack of whichever thread runs the reducer, while the instruction calling it runs;
//! `HloLiveRange` gives them no range (its schedule holds the entry's instructions and
//! sequentially called computations only). XLA's memory-usage report still counts
//! their sizes in its `Total bytes`: [`build`] says how many bytes that is.
//! Values that share bytes while both are live (a fusion writing over its operand in
//! place) become planes of one space ([`super::placed`]).

use super::clip;
use super::placed::{Placed, Value};
use crate::model::{Bytes, Component, Tensor};
use crate::{Error, Result};
use std::collections::HashMap;

const ASSIGNMENT: &str = "BufferAssignment:";
const LIVE_RANGE: &str = "HloLiveRange (max ";

/// True when the first non-blank line opens an XLA buffer assignment or live range.
pub fn is_xla(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l == ASSIGNMENT || l.starts_with(LIVE_RANGE))
}

/// The file that holds the live ranges of buffer assignment `file_name` in recent XLA
/// (`X-buffer-assignment.txt` → `X-live-range.txt`).
pub fn companion_name(file_name: &str) -> Option<String> {
    file_name
        .strip_suffix("buffer-assignment.txt")
        .map(|stem| format!("{stem}live-range.txt"))
}

/// True when `text` holds a buffer assignment and no live ranges: it needs its
/// companion file.
pub fn needs_companion(text: &str) -> bool {
    is_xla(text) && has_line(text, ASSIGNMENT) && !has_live(text)
}

/// True when `text` has a `BufferAssignment:` section.
pub fn has_assignment(text: &str) -> bool {
    has_line(text, ASSIGNMENT)
}

fn has_line(text: &str, line: &str) -> bool {
    text.lines().any(|l| l.trim_end() == line)
}

fn has_live(text: &str) -> bool {
    text.lines().any(|l| l.starts_with(LIVE_RANGE))
}

/// One allocation: its memory, and its values with their 1-based lines.
#[derive(Debug, Clone)]
struct Allocation {
    /// `allocation N (ATTRIBUTES)`.
    name: String,
    /// Allocations of one kind that XLA makes by the dozen (the entry's parameters,
    /// constants) share a memory of the kind's name, laid end to end; `None` for a
    /// memory of its own (the temp buffer, outputs).
    group: Option<String>,
    /// XLA's `thread-local`: on a thread's stack, not in the plan (module docs).
    thread_local: bool,
    size: Bytes,
    values: Vec<AssignedValue>,
}

#[derive(Debug, Clone)]
struct AssignedValue {
    /// `name{index}`, as `BufferLiveRange` lines name it.
    key: String,
    offset: Bytes,
    size: Bytes,
    /// Its shape and element type (`f32[2,32,32,3]`), when an array's.
    tensor: Option<Tensor>,
}

/// The `BufferAssignment:` section of a dump.
#[derive(Debug, Clone)]
pub struct Assignment {
    allocations: Vec<Allocation>,
    /// `Total bytes used:` when the dump prints it (older XLA, in this file).
    total: Option<Bytes>,
}

/// The `HloLiveRange` section: the schedule and each value's live range.
#[derive(Debug, Clone, Default)]
pub struct LiveRanges {
    max: u64,
    sequence: Vec<(u64, String)>,
    ranges: HashMap<String, (u64, u64)>,
    /// XLA's own peak of live bytes: `Live ranges at T (peak):` and the last
    /// `(cumulative: N bytes)` of its lines, when the dump prints them.
    peak: Option<(u64, Bytes)>,
}

impl LiveRanges {
    /// XLA's own peak of live bytes and its clock, as the dump prints it. memplan's
    /// count from the same ranges can differ: XLA counts each buffer once.
    pub fn peak(&self) -> Option<(u64, Bytes)> {
        self.peak
    }
}

/// Reads the `BufferAssignment:` section of `text`.
pub fn parse_assignment(text: &str) -> Result<Assignment> {
    let mut lines = text.lines().enumerate();
    if !lines.any(|(_, l)| l.trim_end() == ASSIGNMENT) {
        return Err(Error::whole(
            "no `BufferAssignment:` line: expected XLA's *-buffer-assignment.txt (XLA_FLAGS=--xla_dump_to=DIR)",
        ));
    }
    let mut allocations: Vec<Allocation> = Vec::new();
    let mut total = None;
    for (n, raw) in lines {
        let line = raw.trim_end_matches('\r');
        let at = |column: usize, message: String| Error::at_line(n + 1, column, message);
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with("Used values:") || line.starts_with(LIVE_RANGE) {
            break;
        }
        if let Some(rest) = line.strip_prefix("Total bytes used: ") {
            let digits = rest.split_whitespace().next().unwrap_or_default();
            total = Some(number(digits).map_err(|m| at(19, m))?);
        } else if let Some(rest) = line.strip_prefix("allocation ") {
            allocations.push(allocation(rest).map_err(|(c, m)| at(c + 12, m))?);
        } else if let Some(rest) = line.strip_prefix(" value: ") {
            let Some(alloc) = allocations.last_mut() else {
                return Err(at(
                    1,
                    "a value before any `allocation N: size S` line".into(),
                ));
            };
            let v = value(rest).map_err(|(c, m)| at(c + 9, m))?;
            if v.offset.checked_add(v.size).is_none() {
                return Err(at(
                    9,
                    format!("offset {} + size {} passes 2^64", v.offset, v.size),
                ));
            }
            alloc.values.push(v);
        } else {
            return Err(at(
                1,
                format!(
                    "expected `allocation N: size S, ...:` or ` value: <ID NAME> (size=S,offset=O): SHAPE`, found `{}`",
                    clip(line)
                ),
            ));
        }
    }
    Ok(Assignment { allocations, total })
}

/// Reads the `HloLiveRange (max N):` section of `text`, if it has one.
pub fn parse_live(text: &str) -> Result<Option<LiveRanges>> {
    let mut lines = text.lines().enumerate();
    let Some(max) = lines.find_map(|(n, l)| l.strip_prefix(LIVE_RANGE).map(|r| (n, r))) else {
        return Ok(None);
    };
    let (n, rest) = max;
    let digits = rest.trim_end().trim_end_matches("):");
    let mut live = LiveRanges {
        max: number(digits).map_err(|m| Error::at_line(n + 1, 19, m))?,
        ..LiveRanges::default()
    };
    #[derive(PartialEq)]
    enum Part {
        None,
        Sequence,
        Ranges,
        Peak,
    }
    let mut part = Part::None;
    let mut peak_clock = None;
    for (n, raw) in lines {
        let line = raw.trim_end_matches('\r');
        let at = |column: usize, message: String| Error::at_line(n + 1, column, message);
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with("    ") {
            match line.trim() {
                "InstructionSequence:" => part = Part::Sequence,
                "BufferLiveRange:" => part = Part::Ranges,
                // `Live ranges at T (peak):`, a summary read for XLA's own figure.
                t if t.starts_with("Live ranges at ") && t.ends_with(" (peak):") => {
                    let clock = &t["Live ranges at ".len()..t.len() - " (peak):".len()];
                    peak_clock = Some(number(clock).map_err(|m| at(17, m))?);
                    part = Part::Peak;
                }
                // The stack-trace breakdown: a summary.
                _ if line.starts_with("  ") => part = Part::None,
                _ => break,
            }
            continue;
        }
        let item = line.trim();
        match part {
            Part::None => {}
            // `NAME: SIZE bytes (cumulative: N bytes)`: the last N is the peak.
            Part::Peak => {
                let cumulative = item
                    .rsplit_once("(cumulative: ")
                    .and_then(|(_, r)| r.strip_suffix(" bytes)"));
                if let (Some(c), Some(clock)) = (cumulative, peak_clock) {
                    live.peak = Some((clock, number(c).map_err(|m| at(5, m))?));
                }
            }
            Part::Sequence => {
                let (clock, name) = item.split_once(':').ok_or_else(|| {
                    at(
                        5,
                        format!("expected `CLOCK:INSTRUCTION`, found `{}`", clip(item)),
                    )
                })?;
                let clock = number(clock).map_err(|m| at(5, m))?;
                live.sequence.push((clock, name.to_owned()));
            }
            Part::Ranges => {
                let bad = || {
                    at(
                        5,
                        format!(
                            "expected `VALUE{{INDEX}}:FIRST-LAST`, found `{}`",
                            clip(item)
                        ),
                    )
                };
                let (key, range) = item.rsplit_once(':').ok_or_else(bad)?;
                let (a, b) = range.split_once('-').ok_or_else(bad)?;
                let column = 5 + key.len() + 1;
                let first = number(a).map_err(|m| at(column, m))?;
                let last = number(b).map_err(|m| at(column + a.len() + 1, m))?;
                if last < first {
                    return Err(at(
                        column,
                        format!("live range {first}-{last} ends before it starts"),
                    ));
                }
                live.ranges.insert(key.to_owned(), (first, last));
            }
        }
    }
    Ok(Some(live))
}

/// What [`build`] left out of the plan: XLA's thread-local allocations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadLocal {
    pub allocations: usize,
    /// Their sizes' sum, which XLA's `Total bytes` counts.
    pub bytes: Bytes,
}

/// The plan of an assignment and its live ranges, with the reader's warnings and the
/// thread-local allocations left out of it (module docs).
pub fn build(assignment: &Assignment, live: &LiveRanges) -> (Placed, Vec<String>, ThreadLocal) {
    let mut warnings = Vec::new();
    let mut left_out = ThreadLocal::default();
    for a in assignment.allocations.iter().filter(|a| a.thread_local) {
        left_out.allocations += 1;
        left_out.bytes = left_out.bytes.saturating_add(a.size);
    }
    let mut placed = Placed {
        steps: live.sequence.clone(),
        horizon: Some(live.max),
        alignment: 1,
        ..Placed::default()
    };
    // Memories: allocations of their own first (the temp buffer, outputs), in XLA's
    // order, then one per group; each allocation's base offset in its memory.
    let mut place: Vec<(usize, Bytes)> = vec![(0, 0); assignment.allocations.len()];
    let mut groups: Vec<(String, usize, Bytes)> = Vec::new();
    for (i, alloc) in assignment.allocations.iter().enumerate() {
        if alloc.group.is_none() && !alloc.thread_local {
            place[i] = (placed.memories.len(), 0);
            placed.memories.push(component(alloc.name.clone()));
        }
    }
    for (i, alloc) in assignment.allocations.iter().enumerate() {
        let Some(group) = &alloc.group else { continue };
        let k = match groups.iter().position(|g| &g.0 == group) {
            Some(k) => k,
            None => {
                groups.push((group.clone(), placed.memories.len(), 0));
                placed.memories.push(component(String::new()));
                groups.len() - 1
            }
        };
        let (_, memory, top) = &mut groups[k];
        place[i] = (*memory, *top);
        *top = top.saturating_add(alloc.size);
    }
    for (group, memory, _) in &groups {
        let n = assignment
            .allocations
            .iter()
            .filter(|a| a.group.as_ref() == Some(group))
            .count();
        placed.memories[*memory].name = format!("{group} ({n} allocations, end to end)");
    }
    let mut unranged = 0usize;
    let placed_allocations = assignment.allocations.iter().zip(&place);
    for (alloc, &(memory, base)) in placed_allocations.filter(|(a, _)| !a.thread_local) {
        for v in &alloc.values {
            let (first, last) = live.ranges.get(&v.key).copied().unwrap_or_else(|| {
                unranged += 1;
                (0, live.max)
            });
            if v.offset + v.size > alloc.size {
                warnings.push(format!(
                    "{}: value {} ends at {}, past the allocation's size {}",
                    alloc.name,
                    v.key,
                    v.offset + v.size,
                    alloc.size
                ));
            }
            placed.values.push(Value {
                name: v.key.strip_suffix("{}").unwrap_or(&v.key).to_owned(),
                memory,
                offset: v.offset.saturating_add(base),
                size: v.size,
                first,
                last,
                tensor: v.tensor.clone(),
            });
        }
    }
    if unranged > 0 {
        warnings.push(format!(
            "{unranged} value(s) have no BufferLiveRange line: drawn live for the whole program"
        ));
    }
    if left_out.allocations > 0 {
        warnings.push(format!(
            "{} thread-local allocation(s), {} B (values of reducers and other computations \
             XLA calls in parallel), left out of the plan: XLA allocates them on the stack \
             of the thread that runs them (alloca), not in its buffers, and gives them no \
             live range; its “Total bytes” counts them",
            left_out.allocations, left_out.bytes
        ));
    }
    let sum: u128 = assignment
        .allocations
        .iter()
        .map(|a| u128::from(a.size))
        .sum();
    if let Some(total) = assignment.total.filter(|&t| u128::from(t) != sum) {
        warnings.push(format!(
            "`Total bytes used: {total}` differs from the allocations' sizes, which add up to {sum}"
        ));
    }
    (placed, warnings, left_out)
}

fn component(name: String) -> Component {
    Component {
        name,
        capacity: None,
        priority: 0,
    }
}

/// `N: size S[, attributes]:` after `allocation `; errors carry a 0-based column.
fn allocation(rest: &str) -> Result<Allocation, (usize, String)> {
    let (index, rest) = rest
        .split_once(": size ")
        .ok_or((0, "expected `allocation N: size S, ...:`".to_owned()))?;
    let index = number(index).map_err(|m| (0, m))?;
    let rest = rest.strip_suffix(':').unwrap_or(rest);
    let (size, attributes) = rest.split_once(',').unwrap_or((rest, ""));
    let column = index.to_string().len() + 7;
    let size = number(size).map_err(|m| (column, m))?;
    let mut kinds: Vec<String> = Vec::new();
    let words: Vec<&str> = attributes.split(", ").map(str::trim).collect();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "constant" | "thread-local" | "maybe-live-out" | "preallocated-temp" => {
                kinds.push((*w).to_owned())
            }
            _ if w.starts_with("parameter ") || w.starts_with("color ") => {
                kinds.push((*w).to_owned())
            }
            _ if w.starts_with("output shape is")
                && !words[i + 1..].contains(&"maybe-live-out") =>
            {
                kinds.push("output".into())
            }
            _ => {}
        }
    }
    let name = if kinds.is_empty() {
        format!("allocation {index}")
    } else {
        format!("allocation {index} ({})", kinds.join(", "))
    };
    let has = |k: &str| kinds.iter().any(|x| x == k);
    let thread_local = has("thread-local");
    let kind = if thread_local {
        None
    } else if has("constant") {
        Some("constants")
    } else if kinds.iter().any(|k| k.starts_with("parameter ")) && !has("maybe-live-out") {
        Some("parameters")
    } else {
        None
    };
    let color = kinds.iter().find(|k| k.starts_with("color "));
    let group = kind.map(|k| match color {
        Some(c) => format!("{k} ({c})"),
        None => k.to_owned(),
    });
    Ok(Allocation {
        name,
        group,
        thread_local,
        size,
        values: Vec::new(),
    })
}

/// `<ID NAME[{INDEX}][ (phi)][ @COLOR]> (size=S,offset=O): SHAPE` after ` value: `.
fn value(rest: &str) -> Result<AssignedValue, (usize, String)> {
    let expected = || {
        (
            0,
            format!(
                "expected `<ID NAME> (size=S,offset=O): SHAPE`, found `{}`",
                clip(rest)
            ),
        )
    };
    let inner = rest.strip_prefix('<').ok_or_else(expected)?;
    let (inner, tail) = inner.split_once('>').ok_or_else(expected)?;
    let mut words = inner.split_whitespace();
    let (_id, name) = (words.next(), words.next().ok_or_else(expected)?);
    let key = if name.contains('{') {
        name.to_owned()
    } else {
        match words.next().filter(|w| w.starts_with('{')) {
            Some(index) => format!("{name}{index}"),
            None => format!("{name}{{}}"),
        }
    };
    let column = inner.len() + 3;
    let numbers = tail
        .strip_prefix(" (size=")
        .and_then(|t| t.split_once(')'))
        .map(|(t, _)| t)
        .ok_or_else(|| {
            (
                column,
                "expected ` (size=S,offset=O)` after the value".to_owned(),
            )
        })?;
    let (size, offset) = numbers.split_once(",offset=").ok_or_else(|| {
        (
            column,
            "expected ` (size=S,offset=O)` after the value".to_owned(),
        )
    })?;
    Ok(AssignedValue {
        key,
        size: number(size).map_err(|m| (column + 6, m))?,
        offset: number(offset).map_err(|m| (column + 6 + size.len() + 8, m))?,
        tensor: tail
            .split_once("): ")
            .and_then(|(_, shape)| array_shape(shape)),
    })
}

/// An array's element type and dimensions from XLA's shape text, `f32[2,32,32,3]{3,2,1,0}`
/// (the layout after `{` left out); None for a tuple, a token or a dynamic dimension.
fn array_shape(text: &str) -> Option<Tensor> {
    let text = text.trim();
    let text = text.split_once('{').map_or(text, |(shape, _)| shape);
    let (dtype, dims) = text.strip_suffix(']')?.split_once('[')?;
    if dtype.is_empty() || !dtype.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let dims = match dims {
        "" => Vec::new(),
        _ => dims
            .split(',')
            .map(|d| d.trim().parse().ok())
            .collect::<Option<Vec<i64>>>()?,
    };
    Some(Tensor {
        shape: Some(dims),
        dtype: Some(dtype.to_owned()),
        ..Tensor::default()
    })
}

fn number(text: &str) -> Result<u64, String> {
    let t = text.trim();
    t.parse::<u64>().map_err(|_| {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            format!("`{t}` does not fit in 64 bits")
        } else {
            format!("expected a number, found `{}`", clip(t))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "BufferAssignment:
allocation 0: size 16, parameter 0, shape |f32[4]| at ShapeIndex {}:
 value: <1 p.1 @0> (size=16,offset=0): f32[4]{0}
allocation 1: size 32, preallocated-temp:
 value: <2 a @0> (size=16,offset=0): f32[4]{0}
 value: <3 b @0> (size=16,offset=16): f32[4]{0}
 value: <4 c @0> (size=16,offset=0): f32[4]{0}
HloLiveRange (max 4):
  InstructionSequence:
    0:p.1
    1:a
    2:b
    3:c
  BufferLiveRange:
    p.1{}:0-4
    a{}:1-2
    b{}:2-3
    c{}:3-4
  Live ranges at 2 (peak):
    a{}: 16 bytes (cumulative: 16 bytes)
";

    #[test]
    fn reads_allocations_values_and_ranges() {
        let a = parse_assignment(DUMP).unwrap();
        let live = parse_live(DUMP).unwrap().unwrap();
        let (placed, warnings, left_out) = build(&a, &live);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(left_out, ThreadLocal::default());
        assert_eq!(placed.memories[0].name, "allocation 1 (preallocated-temp)");
        assert_eq!(
            placed.memories[1].name,
            "parameters (1 allocations, end to end)"
        );
        assert_eq!(placed.values[3].name, "c");
        assert_eq!((placed.values[3].first, placed.values[3].last), (3, 4));
        let plan = super::super::placed::to_plan(&placed);
        assert_eq!(plan.peaks(), vec![32, 16]);
        assert_eq!(plan.steps[2].name, "b");
        assert!(crate::check::check(&plan).is_valid());
        assert_eq!(live.peak(), Some((2, 16)));
    }

    #[test]
    fn thread_local_allocations_are_left_out_with_their_bytes() {
        let dump = DUMP.replace(
            "HloLiveRange (max 4):",
            "allocation 2: size 4, thread-local:\n value: <5 r @0> (size=4,offset=0): f32[]\nHloLiveRange (max 4):",
        );
        let a = parse_assignment(&dump).unwrap();
        let live = parse_live(&dump).unwrap().unwrap();
        let (placed, warnings, left_out) = build(&a, &live);
        let expected = ThreadLocal {
            allocations: 1,
            bytes: 4,
        };
        assert_eq!(left_out, expected);
        assert!(placed.values.iter().all(|v| v.name != "r"));
        assert_eq!(placed.memories.len(), 2);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("1 thread-local allocation(s), 4 B"));
    }

    #[test]
    fn the_companion_is_named_after_the_assignment() {
        assert_eq!(
            companion_name("d/m.cpu_after_optimizations-buffer-assignment.txt").as_deref(),
            Some("d/m.cpu_after_optimizations-live-range.txt")
        );
        let (assignment, _) = DUMP.split_once("HloLiveRange").unwrap();
        assert!(needs_companion(assignment));
        assert!(!needs_companion(DUMP));
    }

    #[test]
    fn garbled_lines_are_placed() {
        let bad = DUMP.replace("(size=16,offset=16)", "(size=16,ofset=16)");
        let e = parse_assignment(&bad).unwrap_err();
        assert_eq!(
            e.location,
            crate::error::Location::LineCol {
                line: 6,
                column: 18
            }
        );
        let bad = DUMP.replace("b{}:2-3", "b{}:3-2");
        let e = parse_live(&bad).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 17, column 9: live range 3-2"),
            "{e}"
        );
    }
}
