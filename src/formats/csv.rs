//! MiniMalloc CSV: one buffer per line, `id,lower,upper,size[,offset]`, `upper`
//! exclusive. The header line is optional; with one, columns are found by name (any
//! order, unknown columns ignored with a warning); without one they are positional.
//! Ids are free text; one with a comma, a quote or spaces at its ends is quoted as
//! RFC 4180 says (`"conv, 1"`, a quote doubled), both when written and read. IREE's dumps (idealloc's `iree_*` sets) use an inclusive upper:
//! [`CsvOptions::for_file`] reads files named `iree*` that way, with a warning.

use super::MAX_CLOCK;
use crate::model::{Buffer, BufferList, Bytes, Clock, Plan};
use crate::{Error, Result};
use std::borrow::Cow;

/// How to read a CSV that the content alone cannot tell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CsvOptions {
    /// `upper` is the last live step (IREE) instead of one past it (MiniMalloc).
    pub inclusive_upper: bool,
    /// Capacity to record in the list (MiniMalloc names files `NAME.CAPACITY.csv`).
    pub capacity: Option<Bytes>,
}

impl CsvOptions {
    /// Options guessed from a file name: `A.1048576.csv` has capacity 1048576;
    /// `iree_*.csv` has an inclusive upper.
    pub fn for_file(file_name: &str) -> Self {
        let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
        let stem = base
            .strip_suffix(".csv")
            .or_else(|| base.strip_suffix(".CSV"))
            .unwrap_or(base);
        let capacity = stem
            .rsplit_once('.')
            .and_then(|(_, n)| n.parse::<Bytes>().ok());
        CsvOptions {
            inclusive_upper: base.to_ascii_lowercase().starts_with("iree"),
            capacity,
        }
    }
}

const COLUMNS: [&str; 5] = ["id", "lower", "upper", "size", "offset"];

/// True when the first non-empty line looks like a MiniMalloc header or row.
pub fn looks_like_csv(text: &str) -> bool {
    let Some(first) = text.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return false;
    };
    let fields = split(first);
    let fields: Vec<&str> = fields.iter().map(|f| f.text.trim()).collect();
    if is_header(&fields) {
        return true;
    }
    (fields.len() == 4 || fields.len() == 5) && fields[1..].iter().all(|f| f.parse::<u64>().is_ok())
}

/// A header names the `id` and `lower` columns (data rows have a number as lower).
fn is_header(fields: &[&str]) -> bool {
    let has = |name: &str| fields.iter().any(|f| f.eq_ignore_ascii_case(name));
    has("id") && has("lower")
}

/// Reads a buffer list; returns it with the reader's warnings.
pub fn read(text: &str, options: &CsvOptions) -> Result<(BufferList, Vec<String>)> {
    let mut warnings = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l))
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let mut columns = Columns::POSITIONAL;
    if let Some((n, first)) = lines.peek().copied() {
        if let Some(header) = Columns::header(n, first, &mut warnings)? {
            columns = header;
            lines.next();
        }
    }
    if options.inclusive_upper {
        warnings.push("upper read as inclusive (IREE convention), stored as upper + 1".into());
    }
    let mut buffers = Vec::new();
    // Line of each id seen: ids must be unique (see `memplan_json::validate_buffers`).
    let mut ids: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    // 1-based line of each buffer, for errors about the list as a whole.
    let mut lines_of = Vec::new();
    for (n, line) in lines {
        let row = columns.row(n, line, options)?;
        if let Some(first) = ids.insert(row.id.to_string(), n) {
            return Err(Error::at_line(
                n,
                row.id_column,
                format!(
                    "id `{}` is already on line {first}: expected unique ids",
                    row.id
                ),
            ));
        }
        lines_of.push(n);
        buffers.push(Buffer {
            id: row.id.to_string(),
            ..row.buffer
        });
    }
    all_or_no_offsets(&buffers, &lines_of)?;
    if buffers.is_empty() {
        return Err(Error::whole(
            "no buffers: expected lines id,lower,upper,size[,offset]",
        ));
    }
    Ok((
        BufferList {
            buffers,
            capacity: options.capacity,
        },
        warnings,
    ))
}

/// Where each of [`COLUMNS`] is in a line (`offset` optional), and how many fields a
/// line has (known from the header, else from the first data line).
struct Columns {
    index: [Option<usize>; 5],
    width: Option<usize>,
}

/// One data line: its id (a slice of the line unless it was quoted), the 1-based
/// column where the id starts, and the buffer it describes.
struct Row<'a> {
    id: Cow<'a, str>,
    id_column: usize,
    buffer: Buffer,
}

impl Columns {
    /// No header: `id,lower,upper,size[,offset]` in this order.
    const POSITIONAL: Columns = Columns {
        index: [Some(0), Some(1), Some(2), Some(3), Some(4)],
        width: None,
    };

    /// The columns a header line (on line `n`) names, or `None` when the line is data.
    fn header(n: usize, first: &str, warnings: &mut Vec<String>) -> Result<Option<Columns>> {
        let fields = split(first);
        let names: Vec<&str> = fields.iter().map(|f| f.text.trim()).collect();
        if !is_header(&names) {
            return Ok(None);
        }
        let mut index = [None; 5];
        for (col, name) in names.iter().enumerate() {
            match COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(name)) {
                Some(k) if index[k].is_none() => index[k] = Some(col),
                Some(_) => {
                    let at = fields[col].column;
                    return Err(Error::at_line(n, at, format!("column `{name}` twice")));
                }
                None => warnings.push(format!("line {n}: unknown column `{name}` ignored")),
            }
        }
        if let Some(k) = (0..4).find(|&k| index[k].is_none()) {
            return Err(Error::at_line(
                n,
                1,
                format!(
                    "header lacks column `{}`: expected id,lower,upper,size[,offset]",
                    COLUMNS[k]
                ),
            ));
        }
        Ok(Some(Columns {
            index,
            width: Some(names.len()),
        }))
    }

    /// The number of fields every line must have; the first data line of a file
    /// without a header decides it (4, or 5 with offsets).
    fn width(&mut self, n: usize, fields: usize) -> Result<usize> {
        if let Some(w) = self.width {
            return Ok(w);
        }
        if fields != 4 && fields != 5 {
            return Err(Error::at_line(
                n,
                1,
                format!("expected 4 or 5 fields (id,lower,upper,size[,offset]), found {fields}"),
            ));
        }
        if fields == 4 {
            self.index[4] = None;
        }
        Ok(*self.width.insert(fields))
    }

    /// 1-based column of field `k` (one of [`COLUMNS`]) among a line's `fields`.
    fn col(&self, fields: &[Field], k: usize) -> usize {
        self.index[k].map_or(1, |c| fields[c].column)
    }

    /// Reads data line `n`.
    fn row<'a>(&mut self, n: usize, line: &'a str, options: &CsvOptions) -> Result<Row<'a>> {
        let fields = split(line);
        let expected = self.width(n, fields.len())?;
        if fields.len() != expected {
            let msg = format!("expected {expected} fields, found {}", fields.len());
            return Err(Error::at_line(n, 1, msg));
        }
        let field = |k: usize| self.index[k].map(|c| fields[c].text.trim());
        let num = |k: usize| -> Result<Option<u64>> {
            let Some(f) = field(k) else {
                return Ok(None);
            };
            if f.is_empty() && k == 4 {
                return Ok(None);
            }
            f.parse::<u64>().map(Some).map_err(|_| {
                Error::at_line(
                    n,
                    self.col(&fields, k),
                    format!(
                        "{}: expected a whole number from 0 to 2^64-1, found `{f}`",
                        COLUMNS[k]
                    ),
                )
            })
        };
        let clock = |k: usize, v: u64| -> Result<Clock> {
            if v > MAX_CLOCK {
                return Err(Error::at_line(
                    n,
                    self.col(&fields, k),
                    format!(
                        "{} {v} is above the supported maximum {MAX_CLOCK}",
                        COLUMNS[k]
                    ),
                ));
            }
            Ok(v as Clock)
        };
        let lower = clock(1, num(1)?.unwrap_or(0))?;
        let inclusive = u64::from(options.inclusive_upper);
        let upper = clock(2, num(2)?.unwrap_or(0).saturating_add(inclusive))?;
        let size = num(3)?.unwrap_or(0);
        let offset = num(4)?;
        if lower >= upper {
            let rule = if options.inclusive_upper {
                "at least"
            } else {
                "greater than"
            };
            let msg = format!("upper must be {rule} lower ({lower})");
            return Err(Error::at_line(n, self.col(&fields, 2), msg));
        }
        let id_column = self.col(&fields, 0);
        let id = match self.index[0].map(|c| &fields[c].text) {
            // A quoted id is kept as written (its spaces too); a bare one trimmed.
            Some(Cow::Owned(quoted)) => Cow::Owned(quoted.clone()),
            Some(Cow::Borrowed(bare)) => Cow::Borrowed(bare.trim()),
            None => Cow::Borrowed(""),
        };
        Ok(Row {
            id,
            id_column,
            buffer: Buffer {
                id: String::new(),
                lower,
                upper,
                size,
                offset,
            },
        })
    }
}

/// Offsets are given for every buffer or for none; `lines_of` gives each buffer's line.
fn all_or_no_offsets(buffers: &[Buffer], lines_of: &[usize]) -> Result<()> {
    let with = buffers.iter().filter(|b| b.offset.is_some()).count();
    if with != 0 && with != buffers.len() {
        let first = buffers.iter().position(|b| b.offset.is_none()).unwrap_or(0);
        return Err(Error::at_line(
            lines_of[first],
            1,
            format!(
                "buffer `{}` has no offset but {with} of {} buffers have one: expected an offset for every buffer or for none",
                buffers[first].id,
                buffers.len()
            ),
        ));
    }
    Ok(())
}

/// One field of a line: its text (unquoted, borrowed when it was not quoted) and the
/// 1-based column where it starts (for errors).
struct Field<'a> {
    text: Cow<'a, str>,
    column: usize,
}

/// A line's comma-separated fields, a field in double quotes as RFC 4180 has it (a
/// comma inside, a quote doubled). A field that only starts with a quote (no closing
/// quote before the next comma or the end) is text like any other: MiniMalloc's and
/// idealloc's readers take quotes literally, and such ids (`"><svg…`) must still open.
fn split(line: &str) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    let mut rest = line;
    let mut column = 1;
    loop {
        let (text, used) = match quoted(rest) {
            Some((text, used)) => (Cow::Owned(text), used),
            None => {
                let end = rest.find(',').unwrap_or(rest.len());
                (Cow::Borrowed(&rest[..end]), end)
            }
        };
        out.push(Field { text, column });
        column += rest[..used].chars().count() + 1;
        match rest[used..].strip_prefix(',') {
            Some(r) => rest = r,
            None => return out,
        }
    }
}

/// The text of a quoted field at the start of `rest` (spaces around it allowed) and the
/// bytes it spans, when it is one: closed, then followed by a comma or the end.
fn quoted(rest: &str) -> Option<(String, usize)> {
    let lead = rest.len() - rest.trim_start().len();
    let body = rest[lead..].strip_prefix('"')?;
    let mut text = String::new();
    let mut chars = body.char_indices();
    let end = loop {
        match chars.next()? {
            (i, '"') if body[i + 1..].starts_with('"') => {
                text.push('"');
                chars.next();
            }
            (i, '"') => break i + 1,
            (_, c) => text.push(c),
        }
    };
    let after = &body[end..];
    let tail = after.len() - after.trim_start().len();
    let used = lead + 1 + end + tail;
    (rest[used..].is_empty() || rest[used..].starts_with(',')).then_some((text, used))
}

/// Writes a buffer list, with the offset column when every buffer has an offset.
pub fn write(list: &BufferList) -> String {
    let with_offsets = !list.buffers.is_empty() && list.buffers.iter().all(|b| b.offset.is_some());
    let mut out = String::from(if with_offsets {
        "id,lower,upper,size,offset\n"
    } else {
        "id,lower,upper,size\n"
    });
    for b in &list.buffers {
        let id = csv_id(&b.id);
        out.push_str(&format!("{id},{},{},{}", b.lower, b.upper, b.size));
        if let (true, Some(o)) = (with_offsets, b.offset) {
            out.push_str(&format!(",{o}"));
        }
        out.push('\n');
    }
    out
}

/// A plan's memory spaces as a placed buffer list (what MiniMalloc would be asked to
/// place): one buffer per space, live from its allocation to its last live clock.
/// A space holding exactly one labelled plane keeps the label as its id.
///
/// A CSV is one arena: the spaces of a plan with several memory components (XLA's
/// allocations, Aidge's or ExecuTorch's memories) would overlap in it, so the
/// components are laid end to end, each above the peaks of those before it. The list
/// reads back as a valid plan whose peak is the sum of the components' peaks.
pub fn from_plan(plan: &Plan) -> BufferList {
    let mut list = plan.space_problem();
    let mut base: Vec<Bytes> = Vec::with_capacity(plan.components.len().max(1));
    let mut top: Bytes = 0;
    for peak in plan.peaks() {
        base.push(top);
        top = top.saturating_add(peak);
    }
    for (b, s) in list.buffers.iter_mut().zip(&plan.spaces) {
        let shift = base[s.component.min(base.len() - 1)];
        b.offset = b.offset.map(|o| o.saturating_add(shift));
    }
    let mut label: Vec<Option<&str>> = vec![None; plan.spaces.len()];
    let mut count = vec![0usize; plan.spaces.len()];
    for p in &plan.planes {
        if let Some(c) = count.get_mut(p.space) {
            *c += 1;
            label[p.space] = p.label.as_deref();
        }
    }
    // A space's label is its id when no other label is the same (a buffer list's
    // plan labels each space with the buffer's own id, so its ids come back as they
    // were, whatever their order); the others get their space number, made unique
    // against the labels kept (`3` may be another buffer's label), so that the CSV
    // reads back (ids are unique).
    let ids: Vec<Option<String>> = (0..list.buffers.len())
        .map(|i| match (count[i], label[i]) {
            (1, Some(l)) => Some(l.replace(['\n', '\r'], " ")).filter(|l| !l.trim().is_empty()),
            _ => None,
        })
        .collect();
    let mut uses: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for id in ids.iter().flatten() {
        *uses.entry(id).or_default() += 1;
    }
    let kept: Vec<bool> = ids
        .iter()
        .map(|id| id.as_deref().is_some_and(|id| uses[id] == 1))
        .collect();
    let mut taken: std::collections::HashSet<String> = ids
        .iter()
        .zip(&kept)
        .filter_map(|(id, &k)| id.clone().filter(|_| k))
        .collect();
    for ((b, id), k) in list.buffers.iter_mut().zip(ids).zip(kept) {
        match (id, k) {
            (Some(id), true) => b.id = id,
            _ => {
                let mut fallback = b.id.clone();
                let mut n = 1;
                while taken.contains(&fallback) {
                    n += 1;
                    fallback = format!("{} ({n})", b.id);
                }
                taken.insert(fallback.clone());
                b.id = fallback;
            }
        }
    }
    list
}

/// An id as a CSV field: quoted when it holds a comma or a quote or has spaces at its
/// ends (which a bare field loses); a line break, which no line-based reader of these
/// files (MiniMalloc's, idealloc's) takes even quoted, becomes a space.
fn csv_id(id: &str) -> String {
    let id = id.replace(['\n', '\r'], " ");
    if id.contains([',', '"']) || id.trim() != id {
        format!("\"{}\"", id.replace('"', "\"\""))
    } else {
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_with_and_without_header_and_offsets() {
        let (a, w) = read(
            "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n",
            &CsvOptions::default(),
        )
        .unwrap();
        assert!(w.is_empty());
        assert_eq!(a.buffers[1], Buffer::new("b2", 3, 9, 4));
        let (b, _) = read("b1,0,3,4,8\nb2,3,9,4,0\n", &CsvOptions::default()).unwrap();
        assert_eq!(b.buffers[0].offset, Some(8));
        let (c, _) = read("size,upper,id,lower\n4,3,x,0\n", &CsvOptions::default()).unwrap();
        assert_eq!(c.buffers[0], Buffer::new("x", 0, 3, 4));
        assert_eq!(read(&write(&b), &CsvOptions::default()).unwrap().0, b);
    }

    /// A plan's labels come back as ids where they are unique, even when one is
    /// another space's number; the rest get their number, made unique.
    #[test]
    fn plan_labels_become_unique_ids() {
        let list = BufferList {
            buffers: vec![
                Buffer::new("2", 0, 2, 8),
                Buffer::new("x", 0, 2, 8),
                Buffer::new("x", 0, 2, 8),
                Buffer::new("0", 0, 2, 8),
            ],
            capacity: None,
        };
        let out = from_plan(&list.to_plan(&[0, 8, 16, 24]));
        let ids: Vec<&str> = out.buffers.iter().map(|b| b.id.as_str()).collect();
        assert_eq!(ids, ["2", "1", "2 (2)", "0"]);
        let (back, _) = read(&write(&out), &CsvOptions::default()).unwrap();
        assert_eq!(back, out);
    }

    #[test]
    fn errors_point_at_the_field() {
        let e = read("id,lower,upper,size\nb1,0,3,-4\n", &CsvOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 8: size: expected a whole number from 0 to 2^64-1, found `-4`"
        );
        let e = read("id,lower,upper,size\nb1,3,3,4\n", &CsvOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 6: upper must be greater than lower (3)"
        );
        let e = read(
            "id,lower,upper,size\nb1,0,3,99999999999999999999\n",
            &CsvOptions::default(),
        )
        .unwrap_err();
        assert!(e.message.contains("found `99999999999999999999`"), "{e}");
        assert!(read("id,lower,size\n", &CsvOptions::default())
            .unwrap_err()
            .message
            .contains("`upper`"));
    }

    /// Ids with commas, quotes and spaces at their ends come back as they were (they
    /// were written `_` for `,` before); a quote that closes no field is text.
    #[test]
    fn ids_are_quoted_both_ways() {
        let list = BufferList {
            buffers: vec![
                Buffer::new("conv, 1", 0, 2, 8),
                Buffer::new("say \"hi\"", 1, 3, 4),
                Buffer::new(" padded ", 2, 4, 4),
                Buffer::new("plain", 3, 5, 4),
            ],
            capacity: None,
        };
        let text = write(&list);
        assert!(text.contains("\"conv, 1\",0,2,8\n"), "{text}");
        assert!(text.contains("\"say \"\"hi\"\"\",1,3,4\n"), "{text}");
        assert_eq!(read(&text, &CsvOptions::default()).unwrap().0, list);
        let plan = from_plan(&list.to_plan(&[0, 8, 12, 16]));
        let ids: Vec<&str> = plan.buffers.iter().map(|b| b.id.as_str()).collect();
        assert_eq!(ids, ["conv, 1", "say \"hi\"", " padded ", "plain"]);
        assert_eq!(read(&write(&plan), &CsvOptions::default()).unwrap().0, plan);

        // A quote that does not close a field is text (ids like `"><svg…` still open).
        let (l, _) = read(
            "id,lower,upper,size\n\"b2,0,3,4\n\"a\"b,1,3,4\n",
            &CsvOptions::default(),
        )
        .unwrap();
        let ids: Vec<&str> = l.buffers.iter().map(|b| b.id.as_str()).collect();
        assert_eq!(ids, ["\"b2", "\"a\"b"]);
        let e = read("\"x, y\",0,3,4\n\"x, y\",1,2,4\n", &CsvOptions::default()).unwrap_err();
        assert!(e.message.contains("id `x, y` is already on line 1"), "{e}");
    }

    #[test]
    fn file_names_give_capacity_and_iree_convention() {
        assert_eq!(
            CsvOptions::for_file("bench/minimalloc/A.1048576.csv").capacity,
            Some(1048576)
        );
        let iree = CsvOptions::for_file("x/iree_mobilenet.csv");
        assert!(iree.inclusive_upper && iree.capacity.is_none());
        let (l, w) = read("id,lower,upper,size\n0,2,2,8\n", &iree).unwrap();
        assert_eq!((l.buffers[0].lower, l.buffers[0].upper), (2, 3));
        assert_eq!(w.len(), 1);
    }
}
