//! ExecuTorch's memory trace: the Chrome-trace JSON that
//! `executorch.util.activation_memory_profiler.generate_memory_trace(program, path,
//! enable_memory_offsets=True)` writes. One `"ph": "X"` event per tensor and step it is
//! live at: `ts` = its offset, `dur` = its size in bytes, `pid` = its memory id, `tid` =
//! the step (steps where nothing is live are not numbered), `name` = the node that
//! writes it, `args.op_name` = its operator.
//!
//! A tensor is the run of consecutive steps at which one `(pid, name, ts, dur)` appears;
//! each memory id is a memory of its own ([`super::placed`]). Without
//! `enable_memory_offsets=True`, `ts` is the tensor's place in a stack redrawn at every
//! step, not ExecuTorch's offset: such a trace is refused with the option to use.

use super::memplan_json::from_json;
use super::placed::{Placed, Value};
use crate::model::{Bytes, Component, Tensor};
use crate::{Error, Result};
use serde::de::IgnoredAny;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

#[derive(Deserialize)]
struct Sniff {
    #[serde(rename = "traceEvents")]
    trace_events: Option<IgnoredAny>,
    format: Option<IgnoredAny>,
}

/// True for a JSON object with `traceEvents` (a Chrome trace) and no `format`.
pub fn is_trace(text: &str) -> bool {
    matches!(
        serde_json::from_str::<Sniff>(text),
        Ok(Sniff {
            trace_events: Some(_),
            format: None
        })
    )
}

#[derive(Deserialize)]
struct Trace {
    #[serde(rename = "traceEvents")]
    events: Vec<Event>,
}

#[derive(Deserialize)]
struct Event {
    #[serde(default)]
    name: String,
    #[serde(default)]
    ph: String,
    #[serde(default)]
    ts: Option<Bytes>,
    #[serde(default)]
    dur: Option<Bytes>,
    #[serde(default)]
    pid: Option<u64>,
    #[serde(default)]
    tid: Option<u64>,
    #[serde(default)]
    args: Option<Args>,
}

#[derive(Deserialize)]
struct Args {
    #[serde(default)]
    op_name: Option<String>,
    /// The module that computes the tensor (`c1`, `layer1.0.conv1`), empty for none.
    #[serde(default)]
    fqn: Option<String>,
    /// The Python stack that computes it, the model's own frame first (`None` for none).
    #[serde(default)]
    source: Option<String>,
}

impl Args {
    /// The module and the model's own source line, when the trace names them.
    fn tensor(&self) -> Option<Tensor> {
        let module = self.fqn.as_deref().map(str::trim).filter(|m| !m.is_empty());
        let source = self.source.as_deref().and_then(first_frame);
        (module.is_some() || source.is_some()).then(|| Tensor {
            module: module.map(str::to_owned),
            source,
            ..Tensor::default()
        })
    }
}

/// The first frame of a Python stack as `file.py:LINE  code`: from
/// `File "/path/gen.py", line 52, in forward\n    x = torch.relu(self.c1(x))\n  File …`,
/// `gen.py:52  x = torch.relu(self.c1(x))`. None for `None` or anything else.
fn first_frame(stack: &str) -> Option<String> {
    let mut lines = stack.lines();
    let head = lines.next()?.trim().strip_prefix("File \"")?;
    let (path, rest) = head.split_once('"')?;
    let line = rest.strip_prefix(", line ")?.split(',').next()?.trim();
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let code = lines
        .next()
        .map(str::trim)
        .filter(|c| !c.starts_with("File \""));
    Some(match code {
        Some(code) if !code.is_empty() => format!("{file}:{line}  {code}"),
        _ => format!("{file}:{line}"),
    })
}

/// A tensor's identity in the trace: `(pid, name, ts, dur)`.
type Key<'a> = (u64, &'a str, Bytes, Bytes);

/// Each tensor → the index of its first event and the steps (`tid`) it appears at.
type Seen<'a> = BTreeMap<Key<'a>, (usize, Vec<u64>)>;

/// Reads a trace into the framework's placement, with the reader's warnings.
pub fn read(text: &str) -> Result<(Placed, Vec<String>)> {
    // Chrome traces carry fields memplan has no use for (`cat`, `args.fqn`, other
    // tools' own): not worth a warning each.
    let (trace, _): (Trace, _) = from_json(text)?;
    let mut warnings = Vec::new();
    let (seen, ops, skipped) = events(&trace)?;
    if skipped > 0 {
        warnings.push(format!(
            "{skipped} event(s) without `\"ph\": \"X\"` ignored"
        ));
    }
    if seen.is_empty() {
        return Err(Error::at_path(
            "$.traceEvents",
            "no `\"ph\": \"X\"` event: expected the memory trace of ExecuTorch's generate_memory_trace",
        ));
    }
    refuse_stacked(&seen)?;
    let pids: Vec<u64> = {
        let mut p: Vec<u64> = seen.keys().map(|k| k.0).collect();
        p.dedup();
        p
    };
    let mut placed = Placed {
        memories: pids
            .iter()
            .map(|p| Component {
                name: format!("mem_id {p}"),
                capacity: None,
                priority: 0,
            })
            .collect(),
        ..Placed::default()
    };
    // Tensors in the order the trace first shows them; a second output of one node
    // (same name, another offset) is told apart by its number.
    let mut tensors: Vec<(&Key, &(usize, Vec<u64>))> = seen.iter().collect();
    tensors.sort_by_key(|(_, (first, _))| *first);
    let mut outputs: HashMap<(u64, &str), usize> = HashMap::new();
    let mut named: HashMap<u64, &str> = HashMap::new();
    for (key, (first_event, tids)) in tensors {
        let (pid, name, ts, dur) = *key;
        let tensor = trace.events[*first_event]
            .args
            .as_ref()
            .and_then(Args::tensor);
        let k = outputs.entry((pid, name)).or_default();
        *k += 1;
        let label = if *k == 1 {
            name.to_owned()
        } else {
            format!("{name} #{k}")
        };
        let mut tids = tids.clone();
        tids.sort_unstable();
        tids.dedup();
        for run in tids.chunk_by(|a, b| b.checked_sub(*a) == Some(1)) {
            let (first, last) = (run[0], run[run.len() - 1]);
            named.entry(first).or_insert(name);
            placed.values.push(Value {
                name: label.clone(),
                memory: pids.binary_search(&pid).unwrap_or(0),
                offset: ts,
                size: dur,
                first,
                last,
                tensor: tensor.clone(),
            });
        }
    }
    placed.steps = named
        .into_iter()
        .map(|(t, name)| {
            let op = ops.get(name).copied().unwrap_or_default();
            let label = if op.is_empty() || op == name {
                name.to_owned()
            } else {
                format!("{name} ({op})")
            };
            (t, label)
        })
        .collect();
    placed.steps.sort_unstable();
    Ok((placed, warnings))
}

/// The trace's `"ph": "X"` events: each tensor with its first event and steps, each
/// tensor name's operator, and the count of other events (skipped). Errs at an
/// event without its fields or whose offset + size passes 2^64.
fn events(trace: &Trace) -> Result<(Seen<'_>, HashMap<&str, &str>, usize)> {
    let mut seen: Seen = BTreeMap::new();
    let mut ops: HashMap<&str, &str> = HashMap::new();
    let mut skipped = 0usize;
    for (i, e) in trace.events.iter().enumerate() {
        if e.ph != "X" {
            skipped += 1;
            continue;
        }
        let field = |v: Option<u64>, name: &str| {
            v.ok_or_else(|| {
                Error::at_path(
                    format!("$.traceEvents[{i}].{name}"),
                    format!(
                        "missing: a memory trace's events have `{name}` (generate_memory_trace)"
                    ),
                )
            })
        };
        let (ts, dur) = (field(e.ts, "ts")?, field(e.dur, "dur")?);
        let (pid, tid) = (field(e.pid, "pid")?, field(e.tid, "tid")?);
        if ts.checked_add(dur).is_none() {
            return Err(Error::at_path(
                format!("$.traceEvents[{i}].dur"),
                format!("offset {ts} + size {dur} passes 2^64"),
            ));
        }
        let entry = seen
            .entry((pid, &e.name, ts, dur))
            .or_insert((i, Vec::new()));
        entry.1.push(tid);
        if let Some(op) = e.args.as_ref().and_then(|a| a.op_name.as_deref()) {
            ops.entry(&e.name).or_insert(op);
        }
    }
    Ok((seen, ops, skipped))
}

/// Refuses a trace written without `enable_memory_offsets=True`: at every step its
/// events are stacked from 0 in order, and a tensor's `ts` moves from step to step.
fn refuse_stacked(seen: &Seen) -> Result<()> {
    // (pid, name, dur) → the ts it was seen with at each step.
    let mut at: HashMap<(u64, &str, Bytes), HashMap<u64, Bytes>> = HashMap::new();
    let mut moved = false;
    for (&(pid, name, ts, dur), (_, tids)) in seen {
        let steps = at.entry((pid, name, dur)).or_default();
        for &t in tids {
            let moved_here = [t.wrapping_sub(1), t.wrapping_add(1)]
                .iter()
                .any(|n| steps.get(n).is_some_and(|&other| other != ts));
            moved |= moved_here;
            steps.insert(t, ts);
        }
    }
    if !moved {
        return Ok(());
    }
    let mut per_step: BTreeMap<(u64, u64), Vec<(Bytes, Bytes)>> = BTreeMap::new();
    for (&(pid, _, ts, dur), (_, tids)) in seen {
        for &t in tids {
            per_step.entry((pid, t)).or_default().push((ts, dur));
        }
    }
    let stacked = per_step.values_mut().all(|parts| {
        parts.sort_unstable();
        let mut top = 0;
        parts.iter().all(|&(ts, dur)| {
            let ok = ts == top;
            top = ts + dur;
            ok
        })
    });
    if stacked {
        return Err(Error::at_path(
            "$.traceEvents",
            "this trace has no offsets: each step's tensors are stacked from 0 and move between steps; \
             write it with generate_memory_trace(..., enable_memory_offsets=True)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: &str, ts: u64, dur: u64, tid: u64) -> String {
        format!(
            r#"{{"name":"{name}","cat":"memory_allocation","ph":"X","ts":{ts},"dur":{dur},"pid":1,"tid":{tid},"args":{{"op_name":"aten.{name}.out","Memory ID":1,"fqn":"","source":"None","bytes":{dur}}}}}"#
        )
    }

    fn trace(events: &[String]) -> String {
        format!(r#"{{"traceEvents":[{}]}}"#, events.join(","))
    }

    #[test]
    fn runs_of_steps_are_tensors() {
        let t = trace(&[
            event("x", 16, 16, 0),
            event("x", 16, 16, 1),
            event("conv", 0, 16, 1),
            event("conv", 0, 16, 2),
            event("relu", 16, 16, 2),
        ]);
        assert!(is_trace(&t));
        let (placed, warnings) = read(&t).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(placed.memories[0].name, "mem_id 1");
        let v = &placed.values;
        assert_eq!(v.len(), 3);
        assert_eq!((v[0].name.as_str(), v[0].first, v[0].last), ("x", 0, 1));
        assert_eq!(
            (v[2].name.as_str(), v[2].offset, v[2].first),
            ("relu", 16, 2)
        );
        assert_eq!(placed.steps[1], (1, "conv (aten.conv.out)".to_owned()));
    }

    #[test]
    fn a_trace_without_offsets_is_refused() {
        let t = trace(&[
            event("x", 0, 16, 0),
            event("x", 0, 16, 1),
            event("conv", 16, 16, 1),
            event("conv", 0, 16, 2),
        ]);
        let e = read(&t).unwrap_err();
        assert!(e.message.contains("enable_memory_offsets=True"), "{e}");
    }
}
