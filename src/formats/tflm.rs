//! TensorFlow Lite Micro's memory plan as `GreedyMemoryPlanner::PrintMemoryPlan()`
//! prints it (through `MicroPrintf`, so lines may end in CR LF and carry a device
//! log's prefix): one line per buffer the planner placed, in the order the allocator
//! added them (the tensors that need the arena, in tensor order, then the kernels'
//! scratch buffers), then an 80-column chart with one row per clock.
//!
//! ```text
//! 0 (id=0): size=3072, offset=0, first_used=0 last_used=1
//! * (id=14): size=16, offset=0, first_used=14 last_used=14
//!    0: 00000........................................ (3k)
//! ```
//!
//! Clocks are TFLM's allocation scopes: 0 for the subgraph's inputs, then one per
//! operator; `last_used` is inclusive. Before 2022 the planner printed
//! `Planner buffer ID: 0, calculated offset: 0, size required: 3072,
//! first_time_created: 0, last_time_used: 1` and chart rows without clock or total;
//! both dialects are read. The buffers become a buffer list with their offsets, so the
//! plan's peak is the planner's own `GetMaximumMemorySize()`. The chart is derived
//! from the buffers: it is checked against them (each row's total) and a disagreement
//! is reported as a warning, never trusted over the buffer lines.

use super::MAX_CLOCK;
use crate::model::{Buffer, BufferList, Bytes};
use crate::{Error, Result};

/// The buffer line of the current planner, after the ordinal character.
const CURRENT: [&str; 5] = [
    "(id=",
    "): size=",
    ", offset=",
    ", first_used=",
    " last_used=",
];
/// The buffer line of the planner before 2022 (TF_LITE_REPORT_ERROR).
const LEGACY: [&str; 5] = [
    "Planner buffer ID: ",
    ", calculated offset: ",
    ", size required: ",
    ", first_time_created: ",
    ", last_time_used: ",
];
/// Width of the chart, `kLineWidth` in the planner.
const CHART_WIDTH: usize = 80;

/// True when one of the first lines is a buffer line of either dialect (a device log
/// may print other things before the plan).
pub fn looks_like_dump(text: &str) -> bool {
    text.lines()
        .take(256)
        .any(|l| buffer_start(l).is_some_and(|(at, legacy)| parse_buffer(l, at, legacy).is_ok()))
}

/// One buffer line, read.
struct Line {
    id: i64,
    ordinal: Option<char>,
    size: i64,
    offset: i64,
    first: i64,
    last: i64,
}

/// Reads the first plan of the text; returns its buffers (with offsets) and warnings.
pub fn read(text: &str) -> Result<(BufferList, Vec<String>)> {
    let mut warnings = Vec::new();
    let mut buffers: Vec<Buffer> = Vec::new();
    // (line number, clock, total in KiB) of each chart row.
    let mut rows: Vec<(usize, Option<i64>, Option<i64>)> = Vec::new();
    let mut skipped: Option<(usize, usize)> = None; // (count, first line)
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        if let Some((at, legacy)) = buffer_start(line) {
            if !rows.is_empty() {
                warnings.push(format!(
                    "line {n}: a second plan starts here; only the first (lines up to {}) is read",
                    n - 1
                ));
                break;
            }
            let b =
                parse_buffer(line, at, legacy).map_err(|(col, msg)| Error::at_line(n, col, msg))?;
            buffers.push(buffer(&b, buffers.len(), n, &mut warnings)?);
            continue;
        }
        if !buffers.is_empty() {
            if let Some((clock, kib)) = chart_row(line) {
                rows.push((n, clock, kib));
                continue;
            }
        }
        let s = skipped.get_or_insert((0, n));
        s.0 += 1;
    }
    if buffers.is_empty() {
        return Err(Error::whole(
            "no buffer line: expected TFLite Micro's PrintMemoryPlan output, lines such as `0 (id=0): size=3072, offset=0, first_used=0 last_used=1`",
        ));
    }
    if let Some((count, first)) = skipped {
        warnings.push(format!(
            "{count} line(s) that are not part of the plan skipped (the first: line {first})"
        ));
    }
    check_chart(&buffers, &rows, &mut warnings);
    Ok((
        BufferList {
            buffers,
            capacity: None,
        },
        warnings,
    ))
}

/// Where a buffer line's fields start (the `(id=` of the current dialect, the whole
/// legacy sentence) and whether it is the legacy one. Text before is a log prefix.
fn buffer_start(line: &str) -> Option<(usize, bool)> {
    if let Some(at) = line.find(LEGACY[0]) {
        return Some((at, true));
    }
    let at = line.find(CURRENT[0])?;
    // `c (id=`: the ordinal character and a space come first.
    let before = &line[..at];
    (before.ends_with(' ') && before.trim_end().chars().next_back().is_some())
        .then_some((at, false))
}

/// Parses the fields of a buffer line from `at`; errors are (column, message).
fn parse_buffer(line: &str, at: usize, legacy: bool) -> Result<Line, (usize, String)> {
    let pieces = if legacy { &LEGACY } else { &CURRENT };
    let mut values = [0i64; 5];
    let mut pos = at;
    for (k, piece) in pieces.iter().enumerate() {
        // `): size=` is named `size=` in messages.
        let name = piece.trim_start_matches([')', ':', ',', ' ']).trim_end();
        if !line[pos..].starts_with(piece) {
            return Err((
                column(line, pos),
                format!("expected `{name}` in a PrintMemoryPlan buffer line"),
            ));
        }
        pos += piece.len();
        let digits = line[pos..]
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
            .map_or(line.len() - pos, |(i, _)| i);
        let text = &line[pos..pos + digits];
        values[k] = text.parse().map_err(|_| {
            let what = if text.is_empty() || text == "-" {
                "expected a number"
            } else {
                "number out of range"
            };
            (column(line, pos), format!("{what} after `{name}`"))
        })?;
        pos += digits;
    }
    if !line[pos..].trim().is_empty() {
        return Err((
            column(line, pos),
            "unexpected text after `last_used`: expected the end of the line".into(),
        ));
    }
    let [a, b, c, d, e] = values;
    Ok(if legacy {
        Line {
            id: a,
            ordinal: None,
            offset: b,
            size: c,
            first: d,
            last: e,
        }
    } else {
        Line {
            id: a,
            ordinal: line[..at].trim_end().chars().next_back(),
            size: b,
            offset: c,
            first: d,
            last: e,
        }
    })
}

/// The buffer of a parsed line, the `index`-th of the plan, checked.
fn buffer(b: &Line, index: usize, n: usize, warnings: &mut Vec<String>) -> Result<Buffer> {
    let err = |message: String| Error::at_line(n, 1, message);
    if b.id != index as i64 {
        return Err(err(format!(
            "buffer id={} where id={index} was expected: the planner numbers its buffers from 0, one line each",
            b.id
        )));
    }
    if b.size < 0 {
        return Err(err(format!(
            "negative size {} of buffer id={index}",
            b.size
        )));
    }
    if b.offset < 0 {
        return Err(err(format!(
            "offset {} of buffer id={index}: the planner placed no buffer there (expected an offset ≥ 0)",
            b.offset
        )));
    }
    if b.first < 0 || b.last < b.first || b.last as u64 >= MAX_CLOCK {
        return Err(err(format!(
            "buffer id={index} used from {} to {}: expected 0 ≤ first_used ≤ last_used < {MAX_CLOCK}",
            b.first, b.last
        )));
    }
    if let Some(c) = b.ordinal {
        let expected = if b.first == b.last {
            '*'
        } else {
            ordinal(index)
        };
        if c != expected {
            warnings.push(format!(
                "line {n}: buffer id={index} is marked `{c}`, the planner marks it `{expected}`"
            ));
        }
    }
    Ok(Buffer {
        id: format!("id={index}"),
        lower: b.first as u32,
        upper: b.last as u32 + 1,
        size: b.size as Bytes,
        offset: Some(b.offset as Bytes),
    })
}

/// The character the planner draws buffer `i` with (`GetOrdinalCharacter`).
fn ordinal(i: usize) -> char {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    DIGITS[i % DIGITS.len()] as char
}

/// A chart row: `%4d: <80 chars> (%dk)` (clock and total in KiB), or in the legacy
/// dialect the 80 characters alone.
fn chart_row(line: &str) -> Option<(Option<i64>, Option<i64>)> {
    let is_chart = |s: &str| {
        s.len() == CHART_WIDTH
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'*' || c == b'!')
    };
    let line = line.trim_end();
    if let Some(head) = line.strip_suffix("k)") {
        let (head, kib) = head.rsplit_once(" (")?;
        let kib = kib.parse().ok()?;
        let row_start = head.len().checked_sub(CHART_WIDTH)?;
        let (head, row) = (head.get(..row_start)?, head.get(row_start..)?);
        let clock = head.strip_suffix(": ")?.trim_start();
        let clock = clock.rsplit(' ').next()?.parse().ok()?;
        return is_chart(row).then_some((Some(clock), Some(kib)));
    }
    let row = line.rsplit(' ').next()?;
    is_chart(row).then_some((None, None))
}

/// Warns when the chart does not follow from the buffers: rows out of order or
/// missing, or a row's total (KiB, rounded up as the planner does) not the bytes live.
fn check_chart(
    buffers: &[Buffer],
    rows: &[(usize, Option<i64>, Option<i64>)],
    warnings: &mut Vec<String>,
) {
    if rows.is_empty() {
        return;
    }
    let clocks = buffers.iter().map(|b| b.upper).max().unwrap_or(0) as usize;
    if rows.len() != clocks {
        warnings.push(format!(
            "the chart has {} row(s) where the buffers span {clocks} clock(s)",
            rows.len()
        ));
    }
    for (t, &(n, clock, kib)) in rows.iter().enumerate() {
        if clock.is_some_and(|c| c != t as i64) {
            warnings.push(format!(
                "line {n}: chart row of clock {} where clock {t} was expected",
                clock.unwrap_or_default()
            ));
            return;
        }
        let live: u128 = buffers
            .iter()
            .filter(|b| (b.lower as usize) <= t && t < b.upper as usize)
            .map(|b| b.size as u128)
            .sum();
        let expected = live.div_ceil(1024);
        if let Some(k) = kib.filter(|&k| k as u128 != expected) {
            warnings.push(format!(
                "line {n}: the chart says {k}k live at clock {t}, the buffers {expected}k"
            ));
            return;
        }
    }
}

/// 1-based column (in characters) of byte `pos` of `line`.
fn column(line: &str, pos: usize) -> usize {
    line.get(..pos).map_or(pos, |s| s.chars().count()) + 1
}

/// TFLM's `print_allocations()` output (`RecordingMicroAllocator::PrintAllocations`):
/// the arena's head, tail and total, and one line per kind of persistent allocation.
/// It holds no plan (no buffer, no lifetime), so it is read into a summary that says
/// so: the message of the error [`super::load`] returns for it.
pub fn allocations_summary(text: &str) -> Option<String> {
    let mut arena: Vec<String> = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    for line in text.lines().take(64) {
        let Some(at) = line.find("[RecordingMicroAllocator] ") else {
            continue;
        };
        let rest = line[at + 26..].trim();
        if let Some(figure) = rest.strip_prefix("Arena allocation ") {
            arena.push(figure.replace(" bytes", " B"));
        } else if rest.starts_with('\'') {
            kinds.push(rest.to_string());
        }
    }
    if arena.is_empty() {
        return None;
    }
    let mut out = format!(
        "TFLite Micro print_allocations() output, a summary: arena {}",
        arena.join(", ")
    );
    for k in &kinds {
        out.push_str("; ");
        out.push_str(k);
    }
    out.push_str(
        ". It holds no plan: open the model's .tflite for TFLM's plan of the head \
         (or the PrintMemoryPlan() dump of a TF_LITE_SHOW_MEMORY_USE build)",
    );
    Some(out)
}

/// The arena figures of TFLM's `print_allocations()` output: the head (the planned
/// tensors and scratch buffers), the tail (persistent data: TFLM's structs, the
/// quantization data, kernels' persistent buffers) and their total, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocations {
    pub head: Bytes,
    pub tail: Bytes,
    pub total: Bytes,
}

/// The head, tail and total of `print_allocations()` output, when it prints all three
/// (a cut output without its tail cannot size an arena).
pub fn allocations(text: &str) -> Option<Allocations> {
    let (mut head, mut tail, mut total) = (None, None, None);
    for line in text.lines().take(64) {
        let Some(at) = line.find("[RecordingMicroAllocator] Arena allocation ") else {
            continue;
        };
        let rest = &line[at + 43..];
        let Some((what, n)) = rest.split_once(' ') else {
            continue;
        };
        let n: Option<Bytes> = n
            .trim()
            .strip_suffix("bytes")
            .and_then(|n| n.trim().parse().ok());
        match what {
            "head" => head = n,
            "tail" => tail = n,
            "total" => total = n,
            _ => {}
        }
    }
    let (head, tail) = (head?, tail?);
    Some(Allocations {
        head,
        tail,
        total: total.unwrap_or(head.saturating_add(tail)),
    })
}

/// The byte alignment TFLM gives the arena's start (`MicroArenaBufferAlignment()`): a
/// `tensor_arena` array not aligned to it loses up to this minus one bytes. The same
/// rule as the planned sizes' ([`super::tflite::arena::ALIGNMENT`]): one definition.
pub const ARENA_ALIGNMENT: Bytes = super::tflite::arena::ALIGNMENT;

/// The `kTensorArenaSize` to set for a model whose plan has arena head `head`, told by
/// its `print_allocations()` output `a`; `model_head` is the head of TFLM's own plan
/// of the model (as loaded), which the output's head must be, or the output is of
/// another model (or another build) and its tail says nothing of this one: then the
/// error says so.
pub fn arena_size(a: &Allocations, model_head: Bytes, head: Bytes) -> Result<(Bytes, String)> {
    if a.head != model_head {
        return Err(Error::whole(format!(
            "print_allocations() says arena head {} bytes, TFLM's plan of this model {} bytes: \
             it is the output of another model (or build), so its tail ({} bytes) is not \
             this model's",
            a.head, model_head, a.tail
        )));
    }
    let size = head.saturating_add(a.tail);
    let what = if head == model_head {
        "TFLM's own plan"
    } else {
        "this plan"
    };
    Ok((
        size,
        format!(
            "set kTensorArenaSize to {size} bytes: arena head {head} ({what}) + tail {} \
             (print_allocations()), with the array aligned to {ARENA_ALIGNMENT} bytes \
             (alignas({ARENA_ALIGNMENT}); else up to {} more)",
            a.tail,
            ARENA_ALIGNMENT - 1
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = concat!(
        "0 (id=0): size=16, offset=0, first_used=0 last_used=1\r\n",
        "1 (id=1): size=64, offset=64, first_used=1 last_used=2\r\n",
        "2 (id=2): size=64, offset=0, first_used=2 last_used=3\r\n",
        "* (id=3): size=16, offset=64, first_used=3 last_used=3\r\n",
        "   0: 0000000000...................................................................... (1k)\r\n",
        "   1: 0000000000..............................1111111111111111111111111111111111111111 (1k)\r\n",
        "   2: 22222222222222222222222222222222222222221111111111111111111111111111111111111111 (1k)\r\n",
        "   3: 2222222222222222222222222222222222222222**********.............................. (1k)\r\n",
    );

    #[test]
    fn the_packaged_sine_model_reads_without_warnings() {
        // The wheel's own sine_float.tflite, as its interpreter prints it.
        assert!(looks_like_dump(DUMP));
        let (list, warnings) = read(DUMP).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let spans: Vec<_> = list
            .buffers
            .iter()
            .map(|b| (b.lower, b.upper, b.size, b.offset))
            .collect();
        assert_eq!(
            spans,
            [
                (0, 2, 16, Some(0)),
                (1, 3, 64, Some(64)),
                (2, 4, 64, Some(0)),
                (3, 4, 16, Some(64))
            ]
        );
    }

    #[test]
    fn a_chart_that_disagrees_is_reported() {
        let wrong = DUMP.replace("(1k)\r\n   3", "(2k)\r\n   3");
        let (_, warnings) = read(&wrong).unwrap();
        assert!(warnings[0].contains("2k live at clock 2"), "{warnings:?}");
    }

    #[test]
    fn ordinals_follow_the_planner() {
        assert_eq!(
            [ordinal(9), ordinal(10), ordinal(36), ordinal(62)],
            ['9', 'a', 'A', '0']
        );
    }

    #[test]
    fn print_allocations_sizes_the_arena_of_its_model_only() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/tflm/dag6.allocations.txt"
        ))
        .unwrap();
        let a = allocations(&text).unwrap();
        assert_eq!((a.head, a.tail, a.total), (101_376, 4_304, 105_680));
        let (size, says) = arena_size(&a, 101_376, 101_376).unwrap();
        assert_eq!(size, 105_680);
        assert!(says.contains("kTensorArenaSize to 105680 bytes"), "{says}");
        let (size, says) = arena_size(&a, 101_376, 90_000).unwrap();
        assert_eq!(size, 94_304);
        assert!(says.contains("(this plan)"), "{says}");
        let e = arena_size(&a, 100_000, 100_000).unwrap_err().to_string();
        assert!(e.contains("another model"), "{e}");
        // Without its tail (a cut output), nothing to size with.
        let cut: String = text
            .lines()
            .filter(|l| !l.contains(" tail "))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(allocations(&cut), None);
    }
}
