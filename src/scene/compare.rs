//! Two plans side by side: of the same problem (Aidge's plan and a re-plan) or two
//! dumps (a model before and after fusion). Buffers are matched by display name (the
//! node and output for Aidge plans, the id for buffer lists); the k-th plane of a
//! name in one plan pairs with the k-th of that name in the other. What names leave
//! unpaired then pairs by place: a plane of B at the same address with the same size
//! as one of A, the first in plan order (`fuse_to_metaops` leaves the meta-ops it
//! makes without a name in Aidge's log, `unnamed · step N`, where the unfused graph
//! had the node whose output they write: `conv1` and `unnamed · step 0`). The two
//! charts are given the same time and address scale, so one view shows both alike.

use super::axis::{bytes_long, group_digits};
use super::chart::Chart;
use crate::model::Bytes;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashMap;

/// One matched (or unmatched) buffer whose placement differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub name: String,
    /// Plane index in plan A / B (None: the buffer is only in the other plan).
    pub plane_a: Option<usize>,
    pub plane_b: Option<usize>,
    /// Absolute address of the contiguous part, digits.
    pub address_a: Option<String>,
    pub address_b: Option<String>,
    pub size_a: Option<String>,
    pub size_b: Option<String>,
    /// `address_b - address_a` in bytes, grouped digits after `+` or `−` (U+2212,
    /// the page's one minus sign), None when unmatched.
    pub delta: Option<String>,
    /// `moved`, `resized`, `moved, resized`, `only in A`, `only in B`.
    pub change: String,
    /// The text of each of [`COLUMNS`]' cells, as the table shows it (grouped digits,
    /// `—` for a blank).
    pub cells: Vec<String>,
    /// What each column sorts by: numbers, not their text ([`Comparison::order`]).
    #[serde(skip)]
    key: RowKey,
}

/// The columns of the change table: the page's header is made from this list.
pub const COLUMNS: [&str; 6] = [
    "buffer",
    "change",
    "address A",
    "address B",
    "B \u{2212} A",
    "size",
];

/// A row's values to sort by, per column; None is a blank.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct RowKey {
    address_a: Option<Bytes>,
    address_b: Option<Bytes>,
    delta: Option<i128>,
    size: Option<Bytes>,
}

impl Row {
    /// Orders `self` and `other` by column `column` of [`COLUMNS`], blanks equal.
    fn cmp_by(&self, other: &Row, column: usize) -> Option<std::cmp::Ordering> {
        let (k, o) = (&self.key, &other.key);
        let both = |x: Option<i128>, y: Option<i128>| Some(x?.cmp(&y?));
        match column {
            0 => Some(self.name.cmp(&other.name)),
            1 => Some(self.change.cmp(&other.change)),
            2 => both(k.address_a.map(i128::from), o.address_a.map(i128::from)),
            3 => both(k.address_b.map(i128::from), o.address_b.map(i128::from)),
            4 => both(k.delta, o.delta),
            _ => both(k.size.map(i128::from), o.size.map(i128::from)),
        }
    }

    fn blank(&self, column: usize) -> bool {
        match column {
            2 => self.key.address_a.is_none(),
            3 => self.key.address_b.is_none(),
            4 => self.key.delta.is_none(),
            _ => false,
        }
    }
}

/// What the compare view shows about the pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comparison {
    pub peak_a: String,
    pub peak_b: String,
    /// `peak B - peak A`, signed digits (for tests and copy-paste).
    pub peak_delta_bytes: String,
    /// The same, readable: `-378 KiB (−26.7%)`.
    pub peak_delta: String,
    pub lower_bound_a: String,
    pub lower_bound_b: String,
    /// What each plan's bound is called ([`Chart::bound_name`]).
    pub bound_name_a: &'static str,
    pub bound_name_b: &'static str,
    /// Buffers found in both plans (by name, then by place).
    pub matched: usize,
    /// Of these, paired by place (same address and size) rather than by name.
    pub matched_by_place: usize,
    /// Matched buffers at the same address with the same size.
    pub unchanged: usize,
    pub only_a: usize,
    pub only_b: usize,
    /// What the buffers only in A, and only in B, were: their count per operator type
    /// ([`operator_of`]), most first (a fused graph's compare says the fusion removed
    /// twelve GeLUs' intermediates, not only "49 only in A").
    pub only_a_kinds: Vec<(String, usize)>,
    pub only_b_kinds: Vec<(String, usize)>,
    /// The changed buffers, largest move first, at most `max_rows`.
    pub rows: Vec<Row>,
    pub rows_omitted: usize,
    /// Every changed or unmatched plane of A and of B (not only the listed rows): the
    /// compare view marks them on the charts.
    #[serde(skip)]
    pub changed: [Vec<usize>; 2],
    /// Every pair `(plane of A, plane of B)`, changed or not: B's planes take their
    /// pair's colour.
    #[serde(skip)]
    pub pairs: Vec<(usize, usize)>,
}

impl Comparison {
    /// The indices of [`Comparison::rows`] sorted by column `column` of [`COLUMNS`]
    /// on its values (bytes as numbers, signed moves with their sign), ascending or
    /// descending, blanks last either way; ties keep the rows' order (largest change
    /// first).
    pub fn order(&self, column: usize, descending: bool) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        order.sort_by(|&x, &y| {
            let (a, b) = (&self.rows[x], &self.rows[y]);
            match (a.blank(column), b.blank(column)) {
                (false, true) => std::cmp::Ordering::Less,
                (true, false) => std::cmp::Ordering::Greater,
                _ => {
                    let o = a.cmp_by(b, column).unwrap_or(std::cmp::Ordering::Equal);
                    if descending {
                        o.reverse()
                    } else {
                        o
                    }
                }
            }
        });
        order
    }
}

/// The minus sign (U+2212) of every signed number shown, so `−1,972,224 B` and
/// `(−31.2%)` read alike.
const MINUS: char = '\u{2212}';

/// A table row for plane `a` of A and/or plane `b` of B, each `(index, (address,
/// size))`.
fn row(
    name: String,
    a: Option<(usize, (Bytes, Bytes))>,
    b: Option<(usize, (Bytes, Bytes))>,
    change: &str,
) -> Row {
    let key = RowKey {
        address_a: a.map(|(_, (at, _))| at),
        address_b: b.map(|(_, (at, _))| at),
        delta: a
            .zip(b)
            .map(|((_, (x, _)), (_, (y, _)))| i128::from(y) - i128::from(x)),
        size: b.or(a).map(|(_, (_, size))| size),
    };
    let delta = key.delta.map(signed);
    let blank = || "\u{2014}".to_owned();
    let grouped = |v: Option<Bytes>| v.map_or_else(blank, group_digits);
    let cells = vec![
        name.clone(),
        change.to_owned(),
        grouped(key.address_a),
        grouped(key.address_b),
        delta.clone().unwrap_or_else(blank),
        grouped(key.size),
    ];
    Row {
        name,
        plane_a: a.map(|(i, _)| i),
        plane_b: b.map(|(j, _)| j),
        address_a: a.map(|(_, (at, _))| at.to_string()),
        address_b: b.map(|(_, (at, _))| at.to_string()),
        size_a: a.map(|(_, (_, size))| size.to_string()),
        size_b: b.map(|(_, (_, size))| size.to_string()),
        delta,
        change: change.into(),
        cells,
        key,
    }
}

/// B's peak against A's: `+1,024 B (+12.5%)`, `−…` when smaller.
fn peak_delta(pa: Bytes, pb: Bytes) -> String {
    let d = i128::from(pb) - i128::from(pa);
    let sign = if d < 0 { MINUS } else { '+' };
    let pct = if pa == 0 {
        String::new()
    } else {
        let pct = format!("{:.1}", (d as f64 / pa as f64 * 100.0).abs());
        format!(" ({sign}{pct}%)")
    };
    format!("{sign}{}{pct}", bytes_long(d.unsigned_abs() as Bytes))
}

fn signed(v: i128) -> String {
    if v < 0 {
        format!("{MINUS}{}", group_digits(v.unsigned_abs() as u64))
    } else {
        format!("+{}", group_digits(v as u64))
    }
}

/// Matches the buffers of `a` and `b` and measures what changed.
pub fn compare(a: &Chart, b: &Chart, max_rows: usize) -> Comparison {
    let mut by_name: HashMap<Cow<str>, Vec<usize>> = HashMap::new();
    for i in (0..b.plan().planes.len()).rev() {
        by_name.entry(b.name(i)).or_default().push(i);
    }
    let mut rows: Vec<(u128, Row)> = Vec::new();
    let mut matched = 0;
    let mut unchanged = 0;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let side = |c: &Chart, i: usize| {
        let p = &c.plan().planes[i];
        (p.cont_offset, p.size)
    };
    // Names pair in order: the last pushed (reversed) is the first occurrence.
    let mut left_a: Vec<usize> = Vec::new();
    for i in 0..a.plan().planes.len() {
        match by_name.get_mut(a.name(i).as_ref()).and_then(Vec::pop) {
            Some(j) => pairs.push((i, j)),
            None => left_a.push(i),
        }
    }
    let mut left_b: Vec<usize> = by_name.into_values().flatten().collect();
    left_b.sort_unstable();
    // Then by place: each unpaired plane of B with the first unpaired plane of A at
    // its address and of its size.
    let mut by_place: HashMap<(Bytes, Bytes), Vec<usize>> = HashMap::new();
    for &i in left_a.iter().rev() {
        by_place.entry(side(a, i)).or_default().push(i);
    }
    let before = pairs.len();
    let mut rest: Vec<usize> = Vec::new();
    for j in left_b {
        match by_place.get_mut(&side(b, j)).and_then(Vec::pop) {
            Some(i) => pairs.push((i, j)),
            None => rest.push(j),
        }
    }
    let matched_by_place = pairs.len() - before;
    let mut paired_a = vec![false; a.plan().planes.len()];
    for &(i, _) in &pairs {
        paired_a[i] = true;
    }
    let mut only_a = 0;
    let mut kinds_a: Vec<String> = Vec::new();
    for i in left_a.into_iter().filter(|&i| !paired_a[i]) {
        only_a += 1;
        kinds_a.push(operator_of(a, i));
        let r = row(
            a.name(i).into_owned(),
            Some((i, side(a, i))),
            None,
            "only in A",
        );
        rows.push((u128::from(side(a, i).1), r));
    }
    pairs.sort_unstable();
    for &(i, j) in &pairs {
        let name = a.name(i);
        let (addr_a, size_a) = side(a, i);
        matched += 1;
        let (addr_b, size_b) = side(b, j);
        let delta = i128::from(addr_b) - i128::from(addr_a);
        let change = match (delta != 0, size_a != size_b) {
            (false, false) => {
                unchanged += 1;
                continue;
            }
            (true, false) => "moved",
            (false, true) => "resized",
            (true, true) => "moved, resized",
        };
        let r = row(
            name.into_owned(),
            Some((i, side(a, i))),
            Some((j, side(b, j))),
            change,
        );
        rows.push((delta.unsigned_abs(), r));
    }
    let mut only_b = 0;
    let mut kinds_b: Vec<String> = Vec::new();
    for j in rest {
        only_b += 1;
        kinds_b.push(operator_of(b, j));
        let (_, size_b) = side(b, j);
        let r = row(
            b.name(j).into_owned(),
            None,
            Some((j, side(b, j))),
            "only in B",
        );
        rows.push((u128::from(size_b), r));
    }
    // Largest change first; stable, so plan order breaks ties.
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut changed = [Vec::new(), Vec::new()];
    for (_, r) in &rows {
        changed[0].extend(r.plane_a);
        changed[1].extend(r.plane_b);
    }
    changed[0].sort_unstable();
    changed[1].sort_unstable();
    let rows_omitted = rows.len().saturating_sub(max_rows);
    rows.truncate(max_rows);
    let (pa, pb) = (a.stats().peak, b.stats().peak);
    Comparison {
        peak_a: bytes_long(pa),
        peak_b: bytes_long(pb),
        peak_delta_bytes: (i128::from(pb) - i128::from(pa)).to_string(),
        peak_delta: peak_delta(pa, pb),
        lower_bound_a: bytes_long(a.stats().lower_bound),
        lower_bound_b: bytes_long(b.stats().lower_bound),
        bound_name_a: a.bound_name(),
        bound_name_b: b.bound_name(),
        matched,
        matched_by_place,
        unchanged,
        only_a,
        only_b,
        only_a_kinds: counted(kinds_a),
        only_b_kinds: counted(kinds_b),
        rows: rows.into_iter().map(|r| r.1).collect(),
        rows_omitted,
        changed,
        pairs,
    }
}

/// The operator type of plane `i`'s writer: the step's type where the file says it
/// (an ONNX model, a JSON export), else the last token of its name with a letter in it
/// (an Aidge log names nodes only: `block0_fc1_matmul` → `matmul`, `Mul_1` → `Mul`), else
/// `unnamed`.
fn operator_of(chart: &Chart, i: usize) -> String {
    let plan = chart.plan();
    let kind = plan
        .planes
        .get(i)
        .and_then(|p| plan.steps.get(p.node))
        .map_or("", |s| s.kind.trim());
    if !kind.is_empty() {
        return kind.to_owned();
    }
    let name = chart.name(i);
    let node = name.split(['#', ' ']).next().unwrap_or("");
    node.rsplit(crate::scene::chart::SEPARATORS)
        .find(|t| t.chars().any(char::is_alphabetic))
        .filter(|_| !node.is_empty())
        .map_or_else(|| "unnamed".to_owned(), str::to_owned)
}

/// `(value, count)` of `items`, most first, then by value.
fn counted(items: Vec<String>) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for k in items {
        *counts.entry(k).or_default() += 1;
    }
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// Both charts on one scale: the longer horizon, and for each lane index the larger
/// address extent. A view (clock range, address fractions) then means the same
/// clocks and bytes in both.
pub fn on_one_scale(a: Chart, b: Chart) -> (Chart, Chart) {
    let horizon = a.horizon().max(b.horizon());
    let extents: Vec<Bytes> = a
        .lanes()
        .iter()
        .zip(b.lanes())
        .map(|(la, lb)| la.extent.max(lb.extent))
        .collect();
    (a.rescaled(horizon, &extents), b.rescaled(horizon, &extents))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, BufferList};
    use crate::scene::{render, Options, RecordingPainter, View};

    fn chart(bufs: &[(&str, u32, u32, u64, u64)]) -> Chart {
        let list = BufferList {
            buffers: bufs
                .iter()
                .map(|&(id, lower, upper, size, _)| Buffer::new(id, lower, upper, size))
                .collect(),
            capacity: None,
        };
        let offsets: Vec<u64> = bufs.iter().map(|b| b.4).collect();
        Chart::new(list.to_plan(&offsets))
    }

    #[test]
    fn what_names_leave_unpaired_pairs_by_address_and_size() {
        // B is A fused: `conv` became an unnamed meta-op at the same place; `relu`
        // became another at a new address (no pair: only in A, only in B).
        let a = chart(&[
            ("conv", 0, 1, 8, 0),
            ("relu", 1, 2, 8, 8),
            ("fc", 2, 3, 4, 0),
        ]);
        let b = chart(&[("", 0, 1, 8, 0), ("", 1, 2, 8, 16), ("fc", 2, 3, 4, 0)]);
        let c = compare(&a, &b, 10);
        assert_eq!(
            (c.matched, c.matched_by_place, c.only_a, c.only_b),
            (2, 1, 1, 1)
        );
        assert_eq!(c.pairs, vec![(0, 0), (2, 2)]);
        assert_eq!(c.changed, [vec![1], vec![1]]);
    }

    #[test]
    fn matches_by_name_and_reports_moves_and_peaks() {
        let a = chart(&[
            ("x", 0, 2, 8, 0),
            ("y", 1, 3, 4, 8),
            ("dup", 0, 1, 2, 12),
            ("dup", 2, 3, 2, 12),
            ("gone", 0, 1, 1, 14),
        ]);
        let b = chart(&[
            ("y", 1, 3, 4, 0),
            ("x", 0, 2, 8, 4),
            ("dup", 0, 1, 2, 12),
            ("dup", 2, 3, 2, 4),
            ("new", 3, 4, 16, 0),
        ]);
        let c = compare(&a, &b, 10);
        assert_eq!((c.matched, c.unchanged, c.only_a, c.only_b), (4, 1, 1, 1));
        assert_eq!(c.peak_delta_bytes, "1", "peak 15 -> 16");
        assert!(c.peak_delta.starts_with('+'), "{}", c.peak_delta);
        let find = |n: &str, ch: &str| c.rows.iter().find(|r| r.name == n && r.change == ch);
        let y = find("y", "moved").unwrap();
        assert_eq!(y.delta.as_deref(), Some("\u{2212}8"));
        assert_eq!((y.plane_a, y.plane_b), (Some(1), Some(0)));
        let dup = find("dup", "moved").unwrap();
        assert_eq!(
            (dup.plane_a, dup.plane_b),
            (Some(3), Some(3)),
            "k-th with k-th"
        );
        assert_eq!(dup.delta.as_deref(), Some("\u{2212}8"));
        assert_eq!(find("x", "moved").unwrap().delta.as_deref(), Some("+4"));
        assert!(find("gone", "only in A").is_some());
        assert_eq!(
            c.only_a_kinds,
            [("gone".to_owned(), 1)],
            "by the name's last word"
        );
        assert_eq!(
            find("new", "only in B").unwrap().size_b.as_deref(),
            Some("16")
        );
        assert_eq!(c.changed[0], vec![0, 1, 3, 4], "x, y, the second dup, gone");
        assert_eq!(c.changed[1], vec![0, 1, 3, 4], "y, x, the second dup, new");
        // The cap keeps the largest changes.
        let capped = compare(&a, &b, 2);
        assert_eq!((capped.rows.len(), capped.rows_omitted), (2, 3));
        assert_eq!(capped.rows[0].name, "new", "16 bytes, the biggest change");
    }

    #[test]
    fn the_table_sorts_by_values_not_their_text_blanks_last() {
        // Moves of −8, +4 and +16 (text order would put "+16" before "+4"), and a
        // buffer only in B (no move: a blank).
        let a = chart(&[("x", 0, 2, 4, 8), ("y", 0, 2, 4, 0), ("z", 0, 2, 4, 100)]);
        let b = chart(&[
            ("x", 0, 2, 4, 0),
            ("y", 0, 2, 4, 4),
            ("z", 0, 2, 4, 116),
            ("new", 0, 2, 1000, 200),
        ]);
        let c = compare(&a, &b, 10);
        let names = |order: Vec<usize>| -> Vec<&str> {
            order.iter().map(|&i| c.rows[i].name.as_str()).collect()
        };
        assert_eq!(names(c.order(4, false)), ["x", "y", "z", "new"]);
        assert_eq!(names(c.order(4, true)), ["z", "y", "x", "new"]);
        assert_eq!(
            names(c.order(5, true))[0],
            "new",
            "1,000 B is the largest size"
        );
        assert_eq!(c.rows[0].cells[5], "1,000");
        let x = c.rows.iter().find(|r| r.name == "x").unwrap();
        assert_eq!(x.cells[4], "\u{2212}8");
        assert_eq!(
            c.rows.iter().find(|r| r.name == "new").unwrap().cells[2],
            "\u{2014}"
        );
    }

    #[test]
    fn shared_scale_draws_equal_bytes_at_equal_rows() {
        let (a, b) = on_one_scale(chart(&[("x", 0, 2, 100, 0)]), chart(&[("x", 0, 6, 50, 0)]));
        assert_eq!((a.horizon(), b.horizon()), (6, 6));
        let view = View::fit(&a, 800.0, 400.0, 1.0);
        let opts = Options::default();
        let fa = render(&a, &view, &opts, &mut RecordingPainter::default());
        let fb = render(&b, &view, &opts, &mut RecordingPainter::default());
        let (ra, rb) = (fa.drawn[0].rect, fb.drawn[0].rect);
        // Edges snap to device pixels: within a pixel or so.
        assert!(
            (ra.h - 2.0 * rb.h).abs() < 1.0,
            "100 B is twice 50 B: {ra:?} {rb:?}"
        );
        assert!(
            (rb.w - 3.0 * ra.w).abs() < 1.5,
            "6 clocks vs 2: {ra:?} {rb:?}"
        );
        assert!((ra.bottom() - rb.bottom()).abs() < 1.0);
    }
}
