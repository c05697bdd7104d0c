//! IREE's transient memory: the `stream.resource.pack` ops of the stream dialect, as
//! `iree-compile --compile-to=stream --mlir-print-ir-before=iree-stream-layout-slices`
//! prints them (the stream phase lays the packs out before it ends, so its final output
//! has none left). One pack per allocation of transients:
//!
//! ```text
//! %3:10 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
//!   [0, 2] = %c13872,
//!   [2, 5] = %c65536,
//!   ...
//! }) : index
//! ```
//!
//! Each slice is live over its inclusive range of the pack's execution order, with a
//! size that is an `arith.constant` of the function. The pack has no offsets yet: IREE's
//! `LayoutSlicesPass` gives them, by a best-fit greedy pass over the slices in order
//! (sizes rounded up to the range alignment, offsets to the offset alignment; both
//! `--iree-stream-resource-min-offset-alignment`, 64 by default, unless the IR carries a
//! `#stream.resource_config`). [`layout`] is that pass, so the plan memplan opens is the
//! one IREE compiles, and its peak is the transient allocation IREE makes. Each pack is
//! a memory of its own; a slice is named by the operation that first writes it.

use super::clip;
use super::placed::{Placed, Value};
use crate::model::{Bytes, Component};
use crate::{Error, Result};
use std::collections::HashMap;

const PACK: &str = "stream.resource.pack";

/// IREE's default `--iree-stream-resource-min-offset-alignment` (offsets and ranges).
pub const DEFAULT_ALIGNMENT: Bytes = 64;

/// True when the text holds a `stream.resource.pack` op (MLIR of IREE's stream dialect).
pub fn is_iree(text: &str) -> bool {
    text.lines()
        .any(|l| l.contains(PACK) && l.contains(" slices({"))
}

/// One slice of a pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slice {
    pub first: u64,
    pub last: u64,
    pub size: Bytes,
    /// The operation that first writes the slice, when the IR shows one.
    pub writer: Option<String>,
}

/// One pack op: its function, result name and slices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pack {
    pub function: String,
    pub slices: Vec<Slice>,
}

/// Reads every pack of the text, with the alignments to lay them out with.
pub fn read(text: &str) -> Result<(Placed, Vec<String>)> {
    let (offset_alignment, range_alignment) = alignments(text)?;
    let packs = packs(text)?;
    let mut warnings = Vec::new();
    if packs.is_empty() {
        return Err(Error::whole(
            "no `stream.resource.pack` op: expected IREE's stream IR printed before its slices are laid out \
             (iree-compile --compile-to=stream --mlir-print-ir-before=iree-stream-layout-slices)",
        ));
    }
    if (offset_alignment, range_alignment) == (DEFAULT_ALIGNMENT, DEFAULT_ALIGNMENT) {
        warnings.push(format!(
            "laid out as IREE does with its default alignment of {DEFAULT_ALIGNMENT} bytes (no #stream.resource_config in the IR)"
        ));
    }
    let mut placed = Placed {
        alignment: if range_alignment % offset_alignment == 0 {
            offset_alignment
        } else {
            1
        },
        ..Placed::default()
    };
    let mut step_names: HashMap<u64, String> = HashMap::new();
    let mut base = 0u64;
    for (p, pack) in packs.iter().enumerate() {
        placed.memories.push(Component {
            name: format!("pack {} in {}", p + 1, pack.function),
            capacity: None,
            priority: 0,
        });
        let offsets = layout(&pack.slices, offset_alignment, range_alignment);
        for (k, (slice, offset)) in pack.slices.iter().zip(offsets).enumerate() {
            let name = match &slice.writer {
                Some(w) => format!("slice {} · {w}", k + 1),
                None => format!("slice {}", k + 1),
            };
            // Packs of different functions have their own clocks: laid one after the
            // other, so that their steps keep their own names.
            step_names
                .entry(base + slice.first)
                .or_insert_with(|| name.clone());
            placed.values.push(Value {
                name,
                memory: p,
                offset,
                size: align(slice.size, range_alignment),
                first: base + slice.first,
                last: base + slice.last,
                tensor: None,
            });
        }
        base += pack.slices.iter().map(|s| s.last + 1).max().unwrap_or(0);
    }
    placed.steps = step_names.into_iter().collect();
    placed.steps.sort_unstable();
    Ok((placed, warnings))
}

/// IREE's `packStaticSlicesGreedily`: slices in order, each at the start of the
/// smallest gap that fits it among the placed slices whose lifetimes intersect its own
/// (sorted by offset), else above them all.
pub fn layout(slices: &[Slice], offset_alignment: Bytes, range_alignment: Bytes) -> Vec<Bytes> {
    // (offset, aligned size, index), sorted by offset; a new one goes before equal ones.
    let mut placed: Vec<(Bytes, Bytes, usize)> = Vec::with_capacity(slices.len());
    let mut offsets = vec![0; slices.len()];
    for (i, slice) in slices.iter().enumerate() {
        let size = align(slice.size, range_alignment);
        let mut best: Option<(Bytes, Bytes)> = None;
        let mut current: Bytes = 0;
        for &(offset, reserved, j) in &placed {
            let other = &slices[j];
            if !(other.last >= slice.first && slice.last >= other.first) {
                continue;
            }
            let aligned = align(current, offset_alignment);
            if aligned.saturating_add(size) <= offset
                && best.map_or(true, |(_, fit)| offset - current < fit)
            {
                best = Some((aligned, offset - current));
            }
            current = current.max(offset.saturating_add(reserved));
        }
        let at = best.map_or_else(|| align(current, offset_alignment), |(o, _)| o);
        offsets[i] = at;
        let k = placed.partition_point(|&(o, _, _)| o < at);
        placed.insert(k, (at, size, i));
    }
    offsets
}

fn align(value: Bytes, alignment: Bytes) -> Bytes {
    if alignment <= 1 {
        return value;
    }
    value.div_ceil(alignment).saturating_mul(alignment)
}

/// The offset and range alignments of a `#stream.resource_config<{...}>` in the text,
/// else IREE's defaults.
fn alignments(text: &str) -> Result<(Bytes, Bytes)> {
    let field = |name: &str| -> Result<Option<Bytes>> {
        for (n, line) in text.lines().enumerate() {
            if !line.contains("resource_config") && !line.contains(name) {
                continue;
            }
            if let Some(at) = line.find(&format!("{name} = ")) {
                let rest = &line[at + name.len() + 3..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let value = digits
                    .parse::<Bytes>()
                    .ok()
                    .filter(|&v| v > 0)
                    .ok_or_else(|| {
                        Error::at_line(
                            n + 1,
                            at + name.len() + 4,
                            format!("expected a positive {name}"),
                        )
                    })?;
                return Ok(Some(value));
            }
        }
        Ok(None)
    };
    let offset = field("min_buffer_offset_alignment")?.unwrap_or(DEFAULT_ALIGNMENT);
    let range = field("min_buffer_range_alignment")?.unwrap_or(offset);
    Ok((offset, range))
}

/// Every pack of the text with its slices' sizes resolved and their first writers.
fn packs(text: &str) -> Result<Vec<Pack>> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut out = Vec::new();
    let mut constants: HashMap<&str, Bytes> = HashMap::new();
    let mut function = String::from("?");
    let mut n = 0;
    while n < lines.len() {
        let line = lines[n];
        let trimmed = line.trim_start();
        if let Some(name) = function_name(trimmed) {
            function = name;
            constants.clear();
        }
        if let Some((name, value)) = constant(trimmed) {
            constants.insert(name, value);
        }
        if !(line.contains(PACK) && line.contains(" slices({")) {
            n += 1;
            continue;
        }
        let result = trimmed
            .split([' ', ':'])
            .next()
            .filter(|r| r.starts_with('%'))
            .ok_or_else(|| {
                Error::at_line(
                    n + 1,
                    1,
                    "expected `%NAME:COUNT = stream.resource.pack ...`",
                )
            })?;
        let mut slices = Vec::new();
        n += 1;
        loop {
            let Some(&line) = lines.get(n) else {
                return Err(Error::at_line(
                    n,
                    1,
                    "the file ends inside a `stream.resource.pack` (truncated?): expected `}) : index`",
                ));
            };
            let item = line.split("//").next().unwrap_or_default().trim();
            if item.starts_with("})") {
                break;
            }
            if item.is_empty() {
                n += 1;
                continue;
            }
            slices.push(slice(item, &constants).map_err(|(c, m)| {
                Error::at_line(n + 1, line.len() - line.trim_start().len() + c + 1, m)
            })?);
            n += 1;
        }
        writers(&lines[n..], result, &mut slices);
        out.push(Pack {
            function: function.clone(),
            slices,
        });
        n += 1;
    }
    Ok(out)
}

/// `[FIRST, LAST] = %SIZE,`; errors carry a 0-based column.
fn slice(item: &str, constants: &HashMap<&str, Bytes>) -> Result<Slice, (usize, String)> {
    let expected = || {
        (
            0,
            format!(
                "expected a slice `[FIRST, LAST] = %SIZE`, found `{}`",
                clip(item)
            ),
        )
    };
    let range = item.strip_prefix('[').ok_or_else(expected)?;
    let (range, size) = range.split_once("] = ").ok_or_else(expected)?;
    let (a, b) = range.split_once(',').ok_or_else(expected)?;
    let number = |t: &str, column: usize| {
        t.trim().parse::<u64>().map_err(|_| {
            (
                column,
                format!("expected a number, found `{}`", clip(t.trim())),
            )
        })
    };
    let first = number(a, 1)?;
    let last = number(b, a.len() + 2 + b.len() - b.trim_start().len())?;
    if last < first {
        return Err((1, format!("slice [{first}, {last}] ends before it starts")));
    }
    let size_name = size.trim().trim_end_matches(',').trim();
    let column = range.len() + 5;
    let size = match size_name.strip_prefix('%') {
        Some(_) => *constants.get(size_name).ok_or_else(|| {
            (
                column,
                format!(
                    "slice size {size_name} is not an `arith.constant` of this function: memplan reads packs of static sizes"
                ),
            )
        })?,
        None => return Err((column, format!("expected a size `%NAME`, found `{}`", clip(size_name)))),
    };
    Ok(Slice {
        first,
        last,
        size,
        writer: None,
    })
}

/// `%NAME = arith.constant VALUE : index`.
fn constant(line: &str) -> Option<(&str, Bytes)> {
    let (name, rest) = line.split_once(" = arith.constant ")?;
    let (value, ty) = rest.split_once(" : ")?;
    (name.starts_with('%') && ty.trim() == "index")
        .then(|| value.trim().parse().ok().map(|v| (name, v)))
        .flatten()
}

/// The name of a function a line opens (`util.func public @f(...`), or the pass
/// dump's header, which starts a new scope.
fn function_name(line: &str) -> Option<String> {
    let rest = ["util.func ", "func.func ", "util.initializer"]
        .iter()
        .find_map(|k| line.strip_prefix(k))?;
    let name = rest
        .split_whitespace()
        .find(|w| w.starts_with('@'))
        .map(|w| w.split('(').next().unwrap_or(w).to_owned());
    Some(name.unwrap_or_else(|| "initializer".into()))
}

/// Names each slice by the first operation that writes it (`wo`/`rw` of `%R#k`), in the
/// lines after its pack, up to the end of the function.
fn writers(lines: &[&str], result: &str, slices: &mut [Slice]) {
    let mut op = String::new();
    let tag = format!("{result}#");
    for line in lines {
        let t = line.trim_start();
        if function_name(t).is_some() || t.starts_with("// -----//") {
            break;
        }
        if let Some(at) = t.find("stream.cmd.dispatch @") {
            let target = &t[at + "stream.cmd.dispatch ".len()..];
            let target = target.split([' ', '{']).next().unwrap_or_default();
            op = target
                .rsplit("::@")
                .next()
                .unwrap_or(target)
                .trim_start_matches('@')
                .to_owned();
        }
        let writes = t.starts_with("wo ") || t.starts_with("rw ");
        let (writes, this) = match ["stream.cmd.fill", "stream.cmd.copy"]
            .iter()
            .find(|k| t.starts_with(**k))
        {
            Some(k) => (true, k.trim_start_matches("stream.cmd.").to_owned()),
            None => (writes, op.clone()),
        };
        if !writes {
            continue;
        }
        // A copy writes its last operand; a fill its only one.
        let target = if this == "copy" {
            t.rsplit(',').next().unwrap_or(t)
        } else {
            t
        };
        let mut rest = target;
        while let Some(at) = rest.find(&tag) {
            rest = &rest[at + tag.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Some(s) = digits
                .parse::<usize>()
                .ok()
                .and_then(|k| k.checked_sub(1))
                .and_then(|k| slices.get_mut(k))
            {
                if s.writer.is_none() && !this.is_empty() {
                    s.writer = Some(this.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(first: u64, last: u64, size: Bytes) -> Slice {
        Slice {
            first,
            last,
            size,
            writer: None,
        }
    }

    #[test]
    fn layout_is_iree_s_best_fit() {
        // The case and the offsets of IREE's own test of the pass
        // (Stream/Transforms/test/layout_slices.mlir, @layoutStatic), read from its IR.
        let ir = "#config = #stream.resource_config<{
  min_buffer_offset_alignment = 16,
  min_buffer_range_alignment = 16
}>
func.func @layoutStatic() -> (index, index, index, index, index, index, index)
    attributes {stream.resources = #config} {
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %t:7 = stream.resource.pack slices({
    [0, 1] = %c100,  // +0
    [1, 2] = %c100,  // +112 (100 align 16)
    [2, 3] = %c100,  // +0 (reuse [0, 1])
    [0, 4] = %c200,  // +224 (after 112 + 112; end align 16)
    [5, 6] = %c200,  // +0 (reuse [0, 1]/[2, 3])
    [5, 8] = %c100,  // +208 (after 200 align 16)
  }) : index
}
";
        let (placed, warnings) = read(ir).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let offsets: Vec<Bytes> = placed.values.iter().map(|v| v.offset).collect();
        assert_eq!(offsets, vec![0, 112, 0, 224, 0, 208]);
        let plan = super::super::placed::to_plan(&placed);
        assert_eq!(plan.peak(), 432, "IREE's total");
        assert_eq!(plan.alignment, 16);
        assert!(crate::check::check(&plan).is_valid());
        assert_eq!(layout(&[s(0, 1, 100)], 16, 16), vec![0]);
    }

    const IR: &str = "util.func public @f$async(%arg0: !hal.buffer_view) {
  %c1024 = arith.constant 1024 : index
  %c100 = arith.constant 100 : index
  %3:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
    [0, 1] = %c1024,
    [1, 2] = %c100
  }) : index
  %5 = stream.cmd.execute {
    stream.cmd.dispatch @f$async_dispatch_0::@f$async_dispatch_0_conv {
      ro %arg3[%c0 for %c1024] : !stream.resource<external>{%c1024},
      wo %arg10[%3#1 for %c1024] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.fill %c0_i8, %arg10[%3#2 for %c100] : i8 -> !stream.resource<transient>{%3#0}
  }
}
";

    #[test]
    fn reads_slices_sizes_and_writers() {
        assert!(is_iree(IR));
        let (placed, _) = read(IR).unwrap();
        assert_eq!(placed.memories[0].name, "pack 1 in @f$async");
        let v = &placed.values;
        assert_eq!(
            (v[0].offset, v[0].size, v[0].first, v[0].last),
            (0, 1024, 0, 1)
        );
        assert_eq!((v[1].offset, v[1].size), (1024, 128));
        assert_eq!(v[0].name, "slice 1 · f$async_dispatch_0_conv");
        assert_eq!(v[1].name, "slice 2 · fill");
        let plan = super::super::placed::to_plan(&placed);
        assert_eq!(plan.peak(), 1152);
        assert_eq!(plan.alignment, 64);
        assert!(crate::check::check(&plan).is_valid());
    }

    #[test]
    fn errors_name_the_line() {
        let e = read(&IR.replace("%c100\n", "%c7\n")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 6, column 14: slice size %c7"),
            "{e}"
        );
        let cut = &IR[..IR.find("[1, 2]").unwrap()];
        let e = read(cut).unwrap_err();
        assert!(e.message.contains("truncated"), "{e}");
    }
}
