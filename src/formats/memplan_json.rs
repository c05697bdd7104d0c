//! memplan JSON v1: `{"format": "memplan", "version": 1, "plan"?, "buffers"?}` where
//! `plan` is the serde form of [`Plan`] and `buffers` of [`BufferList`]
//! (`docs/formats.md`, `docs/memplan.schema.json`).
//!
//! Errors carry the JSON path (`$.plan.planes[3].size`) and serde_json's line and
//! column; unknown fields are accepted with a warning so that files written by a newer
//! memplan still open.

use super::{Document, Format, MAX_CLOCK};
use crate::model::{BufferList, Component, Plan};
use crate::schedule::Schedule;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// The only version this reader understands.
pub const VERSION: u64 = 1;

#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    format: Option<serde_json::Value>,
    #[serde(default)]
    version: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct FileV1 {
    /// Checked by [`Head`] on the careful path, after the parse on the quick one.
    #[serde(default)]
    format: Option<serde_json::Value>,
    #[serde(default)]
    version: Option<serde_json::Value>,
    #[serde(default)]
    plan: Option<Plan>,
    #[serde(default)]
    schedule: Option<Schedule>,
    #[serde(default)]
    buffers: Option<BufferList>,
}

#[derive(Serialize)]
struct FileOut<'a> {
    format: &'static str,
    version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<&'a Plan>,
    #[serde(skip_serializing_if = "Option::is_none")]
    schedule: Option<&'a Schedule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    buffers: Option<&'a BufferList>,
}

fn head(text: &str) -> Result<Head> {
    serde_json::from_str(text).map_err(|e| json_error(text, e))
}

/// True when the text is a JSON object whose `format` is `"memplan"`. Fails only
/// when the head cannot be read at all (nesting beyond serde_json's limit), so that
/// the user is told that rather than "not memplan JSON".
pub fn is_memplan(text: &str) -> Result<bool> {
    if !text.trim_start().starts_with('{') {
        return Ok(false);
    }
    match serde_json::from_str::<Head>(text) {
        Ok(Head {
            format: Some(serde_json::Value::String(f)),
            ..
        }) => Ok(f == "memplan"),
        Ok(_) => Ok(false),
        Err(e) if e.classify() == serde_json::error::Category::Data => Ok(false),
        Err(e) => Err(json_error(text, e)),
    }
}

/// A serde_json error at its line and column.
pub(super) fn json_error(text: &str, e: serde_json::Error) -> Error {
    let (line, column) = (e.line(), e.column());
    let at = text
        .lines()
        .nth(line.saturating_sub(1))
        .and_then(|l| l.get(column.saturating_sub(1)..));
    let msg = explain(&e);
    if at.is_some_and(|t| {
        ["NaN", "Infinity", "-Infinity", "inf", "nan"]
            .iter()
            .any(|w| t.starts_with(w))
    }) {
        return Error::at_line(line, column, format!("{msg}: JSON has no NaN or Infinity"));
    }
    Error::at_line(line, column, msg)
}

/// serde_json's message without its " at line L column C" (the location says it),
/// with a hint where its wording is obscure to someone who wrote a size.
fn explain(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg);
    // serde names Rust types; a user wrote a JSON number.
    let msg = msg
        .replace("expected u64", "expected a whole number from 0 to 2^64-1")
        .replace(
            "expected u32",
            "expected a clock, a whole number from 0 to 2^32-1",
        )
        .replace("expected usize", "expected an index, a whole number from 0");
    if msg.starts_with("invalid type: floating point") {
        format!("{msg}: sizes, offsets and clocks are whole numbers")
    } else if msg.starts_with("invalid value: integer `-") {
        format!("{msg}: negative values are not allowed")
    } else if msg.starts_with("EOF while parsing") {
        format!("{msg}: the file ends before the JSON does (truncated?)")
    } else if msg == "recursion limit exceeded" {
        "nested more than 128 levels deep: expected memplan JSON (docs/formats.md)".into()
    } else {
        msg
    }
}

/// Reads memplan JSON v1.
pub fn read(text: &str) -> Result<Document> {
    let head = head(text)?;
    match &head.format {
        Some(serde_json::Value::String(f)) if f == "memplan" => {}
        other => {
            return Err(Error::at_path(
                "$.format",
                format!(
                    "expected \"memplan\", found {}",
                    other.as_ref().map_or("nothing".into(), |v| v.to_string())
                ),
            ))
        }
    }
    match &head.version {
        Some(v) if v.as_u64() == Some(VERSION) => {}
        Some(v) => {
            return Err(Error::at_path(
                "$.version",
                format!(
                    "unsupported memplan JSON version {v}: this memplan reads version {VERSION}"
                ),
            ))
        }
        None => {
            return Err(Error::at_path(
                "$.version",
                format!("missing; this memplan reads version {VERSION}"),
            ))
        }
    }
    let (file, warnings): (FileV1, _) = from_json(text)?;
    finish(file, warnings)
}

/// Reads a well-formed memplan JSON v1 document in one pass, or `None` when the text
/// is anything else (not JSON, not memplan, another version, a type error...), for
/// [`read`] and the format sniffing to explain. The careful path's extra passes (head,
/// head again) cost more than the parse itself on a 30 MB file.
pub(super) fn read_well_formed(text: &str) -> Option<Result<Document>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let (file, warnings): (FileV1, _) = from_json(text).ok()?;
    let is_v1 = matches!(&file.format, Some(serde_json::Value::String(f)) if f == "memplan")
        && file.version.as_ref().and_then(serde_json::Value::as_u64) == Some(VERSION);
    is_v1.then(|| finish(file, warnings))
}

/// Checks a parsed v1 document: it holds something, and what it holds is valid.
fn finish(file: FileV1, mut warnings: Vec<String>) -> Result<Document> {
    let FileV1 {
        mut plan,
        schedule,
        buffers,
        ..
    } = file;
    if plan.is_none() && schedule.is_none() && buffers.is_none() {
        return Err(Error::at_path(
            "$",
            "a memplan document needs `plan`, `schedule` or `buffers`",
        ));
    }
    if let Some(schedule) = &schedule {
        schedule.validate()?;
        // A converted ONNX model (the page's, `memplan convert`'s) still says it.
        warnings.extend(schedule.notes());
    }
    if let Some(plan) = &mut plan {
        validate_plan(plan, "$.plan")?;
    }
    if let Some(buffers) = &buffers {
        validate_buffers(buffers, "$.buffers")?;
    }
    Ok(Document {
        format: Format::Memplan,
        plan,
        schedule,
        buffers,
        warnings,
        own: None,
    })
}

/// Writes memplan JSON v1 (pretty-printed) with whatever the document holds.
pub fn write(doc: &Document) -> String {
    let out = FileOut {
        format: "memplan",
        version: VERSION,
        plan: doc.plan.as_ref(),
        schedule: doc.schedule.as_ref(),
        buffers: doc.buffers.as_ref(),
    };
    let mut s = serde_json::to_string_pretty(&out).unwrap_or_default();
    s.push('\n');
    s
}

/// Unknown fields listed one by one; a file with one per plane (a newer writer, another
/// tool's extras) would otherwise print a million lines.
pub const MAX_WARNINGS: usize = 20;

/// Unknown fields as warnings: the first [`MAX_WARNINGS`] by path, then a count.
#[derive(Default)]
struct Unknown {
    warnings: Vec<String>,
    unlisted: usize,
}

impl Unknown {
    fn note(&mut self, path: serde_ignored::Path) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings
                .push(format!("{}: unknown field, ignored", json_path(&path)));
        } else {
            self.unlisted += 1;
        }
    }

    fn finish(mut self) -> Vec<String> {
        if self.unlisted > 0 {
            self.warnings
                .push(format!("{} more unknown fields ignored", self.unlisted));
        }
        self.warnings
    }
}

/// Deserializes JSON with the path of the first error and one warning per unknown
/// field (`$.plan.colour: unknown field, ignored`). Every JSON reader goes through this
/// one deserializer (serde_ignored over serde_json, the callback behind `dyn`), so each
/// `Deserialize` impl is compiled once; the error's path is found afterwards from its
/// place in the text ([`super::json_path`]).
pub(super) fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<(T, Vec<String>)> {
    let mut unknown = Unknown::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let value = {
        let mut note = |p: serde_ignored::Path| unknown.note(p);
        let mut note: &mut dyn FnMut(serde_ignored::Path) = &mut note;
        T::deserialize(serde_ignored::Deserializer::new(&mut de, &mut note)).map_err(|e| {
            if e.classify() != serde_json::error::Category::Data {
                // Not JSON (or cut short): the place in the text says more than a path.
                return json_error(text, e);
            }
            let (line, column) = (e.line(), e.column());
            let path = super::json_path::at(text, super::json_path::offset(text, line, column));
            Error::at_path(
                path,
                format!("{} (line {line}, column {column})", explain(&e)),
            )
        })?
    };
    de.end().map_err(|e| json_error(text, e))?;
    Ok((value, unknown.finish()))
}

fn json_path(path: &serde_ignored::Path) -> String {
    use serde_ignored::Path as P;
    match path {
        P::Root => "$".into(),
        P::Seq { parent, index } => format!("{}[{index}]", json_path(parent)),
        P::Map { parent, key } => format!("{}.{key}", json_path(parent)),
        P::Some { parent } | P::NewtypeStruct { parent } | P::NewtypeVariant { parent } => {
            json_path(parent)
        }
    }
}

fn clock_ok(value: u32, path: String) -> Result<()> {
    if u64::from(value) > MAX_CLOCK {
        return Err(Error::at_path(
            path,
            format!("clock {value} is above the supported maximum {MAX_CLOCK}"),
        ));
    }
    Ok(())
}

/// Checks what a checker cannot report on: every index names an existing item and
/// clocks stay in a range the per-clock arrays can hold. An empty component list
/// gets the default component.
pub fn validate_plan(plan: &mut Plan, at: &str) -> Result<()> {
    if plan.components.is_empty() {
        plan.components.push(Component::default());
    }
    if plan.alignment == 0 {
        return Err(Error::at_path(
            format!("{at}.alignment"),
            "must be at least 1 (1 = no alignment)",
        ));
    }
    clock_ok(plan.max_lifetime, format!("{at}.max_lifetime"))?;
    for (i, step) in plan.steps.iter().enumerate() {
        if let Some(c) = step.clock {
            clock_ok(c, format!("{at}.steps[{i}].clock"))?;
        }
    }
    let (nc, ns, nn) = (plan.components.len(), plan.spaces.len(), plan.steps.len());
    for (i, s) in plan.spaces.iter().enumerate() {
        if s.component >= nc {
            return Err(Error::at_path(
                format!("{at}.spaces[{i}].component"),
                format!(
                    "component {} out of range: the plan has {nc} component(s)",
                    s.component
                ),
            ));
        }
        clock_ok(s.allocated, format!("{at}.spaces[{i}].allocated"))?;
        if let Some(r) = s.released {
            clock_ok(r, format!("{at}.spaces[{i}].released"))?;
        }
    }
    for (i, p) in plan.planes.iter().enumerate() {
        if p.space >= ns {
            return Err(Error::at_path(
                format!("{at}.planes[{i}].space"),
                format!("space {} out of range: the plan has {ns} space(s)", p.space),
            ));
        }
        if p.node >= nn {
            return Err(Error::at_path(
                format!("{at}.planes[{i}].node"),
                format!("node {} out of range: the plan has {nn} step(s)", p.node),
            ));
        }
        clock_ok(p.allocated, format!("{at}.planes[{i}].allocated"))?;
    }
    Ok(())
}

/// Every buffer has a unique id and a non-empty lifetime within the supported clock
/// range. Ids must be unique because they are how a placement's offsets are told back
/// to the tool that asked (MiniMalloc's output CSV, the chart's labels).
pub fn validate_buffers(list: &BufferList, at: &str) -> Result<()> {
    let mut seen = std::collections::HashMap::with_capacity(list.buffers.len());
    for (i, b) in list.buffers.iter().enumerate() {
        if let Some(first) = seen.insert(b.id.as_str(), i) {
            return Err(Error::at_path(
                format!("{at}.buffers[{i}].id"),
                format!(
                    "id {:?} is already the id of {at}.buffers[{first}]: expected unique ids",
                    b.id
                ),
            ));
        }
        if b.lower >= b.upper {
            return Err(Error::at_path(
                format!("{at}.buffers[{i}].upper"),
                format!(
                    "upper {} must be greater than lower {} (upper is exclusive)",
                    b.upper, b.lower
                ),
            ));
        }
        clock_ok(b.upper, format!("{at}.buffers[{i}].upper"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Error {
        read(text).unwrap_err()
    }

    #[test]
    fn round_trips_a_buffer_list() {
        let text = r#"{"format":"memplan","version":1,"buffers":{"buffers":[{"id":"a","lower":0,"upper":2,"size":8}]}}"#;
        let doc = read(text).unwrap();
        assert!(doc.warnings.is_empty());
        let again = read(&write(&doc)).unwrap();
        assert_eq!(again.buffers, doc.buffers);
    }

    #[test]
    fn errors_name_the_json_path_and_line() {
        let e = err("{\"format\":\"memplan\",\"version\":1,\n\"buffers\":{\"buffers\":[{\"id\":\"a\",\"lower\":0,\"upper\":2,\n\"size\":-8}]}}");
        assert_eq!(
            e.location,
            crate::error::Location::Path("$.buffers.buffers[0].size".into()),
            "{e}"
        );
        assert!(e.message.contains("line 3"), "{e}");
        let e = err(
            r#"{"format":"memplan","version":1,"buffers":{"buffers":[{"id":"a","lower":0,"upper":2,"size":1e30}]}}"#,
        );
        assert!(e.message.contains("floating point"), "{e}");
        let e = err(
            r#"{"format":"memplan","version":1,"buffers":{"buffers":[{"id":"a","lower":0,"upper":2,"size":18446744073709551616}]}}"#,
        );
        assert!(e.to_string().contains("$.buffers.buffers[0].size"), "{e}");
    }

    #[test]
    fn wrong_version_and_truncation_are_explained() {
        assert!(err(r#"{"format":"memplan","version":2,"plan":{}}"#)
            .message
            .contains("version 2"));
        let e = err(r#"{"format":"memplan","version":1,"plan":{"steps":["#);
        assert!(
            matches!(e.location, crate::error::Location::LineCol { line: 1, .. }),
            "{e:?}"
        );
        assert!(err(r#"{"format":"memplan","version":1,"x":NaN}"#)
            .message
            .contains("expected value"));
    }

    #[test]
    fn unknown_fields_warn_and_bad_indices_fail() {
        let text = r#"{"format":"memplan","version":1,"future":3,"plan":{"steps":[],"components":[],"spaces":[],
            "planes":[],"max_lifetime":0,"colour":"red"}}"#;
        let doc = read(text).unwrap();
        assert_eq!(
            doc.warnings,
            vec![
                "$.future: unknown field, ignored",
                "$.plan.colour: unknown field, ignored"
            ]
        );
        let bad = r#"{"format":"memplan","version":1,"plan":{"steps":[{"name":"n"}],"components":[],"spaces":[],
            "planes":[{"node":0,"index":0,"space":4,"allocated":0,"offset":0,"size":1,"stride":1,"length":1,
            "count":1,"cont_offset":0,"cont_size":1,"wrap_offset":0,"wrap_size":0}],"max_lifetime":0}}"#;
        let e = err(bad);
        assert_eq!(
            e.to_string(),
            "$.plan.planes[0].space: space 4 out of range: the plan has 0 space(s)"
        );
    }

    /// The path serde_path_to_error tracks while deserializing (what this reader used
    /// before it found paths afterwards), or `None` when the text reads.
    fn tracked_path(text: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(text);
        let mut skip = |_: serde_ignored::Path| {};
        let ignored = serde_ignored::Deserializer::new(&mut de, &mut skip);
        let e = serde_path_to_error::deserialize::<_, FileV1>(ignored).err()?;
        Some(match e.path().to_string().as_str() {
            "." => "$".to_string(),
            p => format!("$.{p}"),
        })
    }

    /// Every number, string, key and ending of `text` broken in the ways users break them.
    fn mutations(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            if b[i].is_ascii_digit() {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                for bad in [
                    "-1",
                    "1.5",
                    "\"x\"",
                    "{}",
                    "[]",
                    "null",
                    "99999999999999999999",
                    "true",
                ] {
                    out.push(format!("{}{bad}{}", &text[..start], &text[i..]));
                }
            } else if b[i] == b'"' {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
                i += 1;
                let token = &text[start..i];
                if text[i..].starts_with(':') {
                    // A key: repeated, renamed, or its member dropped.
                    out.push(format!("{}{token}:0,{}", &text[..start], &text[start..]));
                    out.push(format!("{}\"zz\"{}", &text[..start], &text[i..]));
                } else {
                    for bad in ["7", "[1]", "{\"a\":1}"] {
                        out.push(format!("{}{bad}{}", &text[..start], &text[i..]));
                    }
                }
            } else {
                if matches!(b[i], b'{' | b'[') {
                    out.push(format!("{}\"x\"{}", &text[..start], &text[start + 1..]));
                }
                i += 1;
            }
            if start % 5 == 0 {
                out.push(text[..start].to_string());
            }
        }
        out
    }

    #[test]
    fn error_paths_found_afterwards_are_the_tracked_ones() {
        let docs = [
            include_str!("../../tests/data/bad/valid.json"),
            include_str!("../../tests/data/aidge/concat_nwc-autoconcat-wrap-None.json"),
            r#"{"format":"memplan","version":1,"buffers":{"buffers":[{"id":"a","lower":0,"upper":2,"size":8},{"id":"b","lower":1,"upper":3,"size":4,"offset":8}]}}"#,
        ];
        let mut compared = 0;
        for doc in docs {
            assert!(tracked_path(doc).is_none());
            for text in mutations(doc) {
                let ours = from_json::<FileV1>(&text).err().map(|e| e.location);
                let tracked = tracked_path(&text).map(crate::error::Location::Path);
                if tracked.is_some() {
                    compared += 1;
                }
                // Text that is not JSON (or cut short, or followed by more) is reported
                // by line and column.
                if matches!(ours, Some(crate::error::Location::LineCol { .. })) {
                    continue;
                }
                assert_eq!(ours, tracked, "{text}");
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    #[test]
    fn the_one_pass_reading_agrees_with_the_careful_one() {
        let plan = r#"{"format":"memplan","version":1,"future":3,"plan":{"steps":[],"components":[],"spaces":[],
            "planes":[],"max_lifetime":0,"colour":"red"}}"#;
        let buffers = r#"{"format":"memplan","version":1,"buffers":{"buffers":[{"id":"a","lower":0,"upper":2,"size":8,"x":1}]}}"#;
        for text in [plan, buffers] {
            let quick = read_well_formed(text).expect("well-formed v1").unwrap();
            assert_eq!(quick, read(text).unwrap());
            assert!(!quick.warnings.is_empty());
        }
        // Anything the careful path must explain is left to it.
        for text in [
            r#"{"format":"memplan","version":2,"plan":{}}"#,
            r#"{"format":"other","version":1,"plan":{}}"#,
            r#"{"format":"memplan","version":1,"buffers":{"buffers":[{"id":"a","lower":0,"upper":2,"size":-8}]}}"#,
            r#"{"format":"memplan","version":1,"plan":{"steps":["#,
            "[1]",
        ] {
            assert!(read_well_formed(text).is_none(), "{text}");
        }
        // A valid parse that fails validation gives the careful path's error.
        let empty = r#"{"format":"memplan","version":1}"#;
        assert_eq!(read_well_formed(empty).unwrap().unwrap_err(), err(empty));
    }
}
