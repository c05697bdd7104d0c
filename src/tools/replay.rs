//! A small JSON operation language mirroring the Python `MemoryManager` calls,
//! so that one operation sequence can run both in the aidge_core wheel and here
//! (tests/parity/manager_diff.py), and a JSON dump of the resulting state.
//!
//! A sequence is a JSON array of objects `{"op": NAME, ...}`. Fields default like
//! the Python bindings (`deps` [], `stride` 0, `length` 1, `count` 1, `extra` 0).
//! Spaces are named by creation index (every `reserve`/`allocate`/… that makes a
//! space appends one), planes by *handle*: every op that yields a plane appends
//! it to the handle list (for registered forms, the plane as `get_planes(node)`
//! returns it). Nodes are integers.
//!
//! | op | fields | Python call |
//! |---|---|---|
//! | `components` | `capacities` | `MemoryManager(capacities)` (first op only) |
//! | `reserve` | `size deps` | `reserve(size, deps)` |
//! | `expand` | `space size` | `expand(space, size)` |
//! | `allocate` | `[node] size deps stride length count` | `allocate([node,] …)` |
//! | `reallocate` | `space\|plane [node] offset size wrap extra deps stride length count` | `reallocate(space\|plane, [node,] offset, …)` |
//! | `is_wrap_around` | `space offset size stride length count` | result recorded |
//! | `release` | `space\|node` | `release(…)`, freed size recorded |
//! | `release_dependencies` | `node` | freed size recorded |
//! | `tick` | — | `tick()` |
//! | `optimize` | `strategy` (name or 0..3) | `optimize(strategy)` |
//!
//! An op that Aidge would throw on stops the sequence; its index is `error`.
//! The dump: `{"results", "error", "tick", "peak", "max_lifetime", "peaks",
//! "spaces": [{offset,size,allocated,released,deps,component}],
//! "nodes": {"<id>": [plane…]}, "node_queries": {"<id>": {offsets, size}},
//! "space_nb_planes": [n…], "handles": [plane…]}` (`get_offset(node, i)`,
//! `get_size(node)`, `get_nb_planes(space)`) where a plane is
//! `{space,offset,size,stride,length,count,allocated,component,limit,cont_offset,
//! cont_size,wrap_offset,wrap_size,final_offset}`.

use crate::manager::{Layout, MemoryManager, MemoryPlane, NodeId, OptimizeStrategy, SpaceId};
use crate::{Error, Result};
use serde_json::{json, Map, Value};

/// Runs a JSON list of operations and returns the JSON state dump.
pub fn replay_json(ops: &str) -> Result<String> {
    let v: Value = serde_json::from_str(ops)
        .map_err(|e| Error::at_line(e.line(), e.column(), format!("invalid JSON: {e}")))?;
    let list = v
        .as_array()
        .ok_or_else(|| Error::at_path("$", "expected a JSON array of operations"))?;
    Ok(replay(list)?.to_string())
}

/// Runs parsed operations; malformed operations are errors, Aidge throws are
/// recorded in the dump.
pub fn replay(list: &[Value]) -> Result<Value> {
    let mut r = Replay::default();
    let mut error = Value::Null;
    for (i, op) in list.iter().enumerate() {
        let at = |f: &str| format!("$[{i}].{f}");
        match r.step(op, i, &at) {
            Ok(out) => r.results.push(out),
            Err(Thrown::Aidge(msg)) => {
                error = json!({"index": i, "message": msg});
                break;
            }
            Err(Thrown::Input(e)) => return Err(e),
        }
    }
    Ok(r.dump(error))
}

enum Thrown {
    /// What Aidge throws: the sequence stops there.
    Aidge(String),
    /// A malformed operation.
    Input(Error),
}

impl From<Error> for Thrown {
    fn from(e: Error) -> Self {
        Thrown::Aidge(e.message)
    }
}

#[derive(Default)]
struct Replay {
    mm: MemoryManager,
    handles: Vec<MemoryPlane>,
    results: Vec<Value>,
}

fn bad(path: String, msg: &str) -> Thrown {
    Thrown::Input(Error::at_path(path, msg))
}

impl Replay {
    fn u64(
        &self,
        op: &Value,
        f: &str,
        default: Option<u64>,
        at: &dyn Fn(&str) -> String,
    ) -> Result<u64, Thrown> {
        match op.get(f) {
            None | Some(Value::Null) => {
                default.ok_or_else(|| bad(at(f), "missing unsigned integer"))
            }
            Some(v) => v
                .as_u64()
                .ok_or_else(|| bad(at(f), "expected an unsigned 64-bit integer")),
        }
    }

    fn deps(&self, op: &Value, at: &dyn Fn(&str) -> String) -> Result<Vec<NodeId>, Thrown> {
        match op.get("deps") {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(a)) => a
                .iter()
                .map(|d| {
                    d.as_u64()
                        .map(|n| n as NodeId)
                        .ok_or_else(|| bad(at("deps"), "expected node integers"))
                })
                .collect(),
            Some(_) => Err(bad(at("deps"), "expected an array of node integers")),
        }
    }

    fn layout(&self, op: &Value, at: &dyn Fn(&str) -> String) -> Result<Layout, Thrown> {
        Ok(Layout::new(
            self.u64(op, "stride", Some(0), at)?,
            self.u64(op, "length", Some(1), at)?,
            self.u64(op, "count", Some(1), at)?,
        ))
    }

    fn space(&self, op: &Value, at: &dyn Fn(&str) -> String) -> Result<SpaceId, Thrown> {
        let s = self.u64(op, "space", None, at)? as usize;
        if s < self.mm.spaces().len() {
            Ok(s)
        } else {
            Err(bad(at("space"), "no such space"))
        }
    }

    fn node(&self, op: &Value, at: &dyn Fn(&str) -> String) -> Result<Option<NodeId>, Thrown> {
        match op.get("node") {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .map(|n| Some(n as NodeId))
                .ok_or_else(|| bad(at("node"), "expected a node integer")),
        }
    }

    /// Records a registered plane's handle (the copy `get_planes(node)[i]` gives).
    fn registered(&mut self, node: NodeId, index: usize) -> Value {
        let p = self.mm.all_planes()[&node][index].clone();
        self.handles.push(p);
        json!(index)
    }

    /// Runs one operation. Long (about 140 lines) on purpose: one arm per operation
    /// of the language, in the order of the table in the module's documentation, so
    /// that the table and its implementation read side by side.
    fn step(&mut self, op: &Value, i: usize, at: &dyn Fn(&str) -> String) -> Result<Value, Thrown> {
        let name = op
            .get("op")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(at("op"), "missing operation name"))?;
        Ok(match name {
            "components" => {
                if i != 0 {
                    return Err(bad(at("op"), "`components` must be the first operation"));
                }
                let caps = op
                    .get("capacities")
                    .and_then(Value::as_array)
                    .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
                    .ok_or_else(|| {
                        bad(at("capacities"), "expected an array of unsigned integers")
                    })?;
                self.mm = MemoryManager::with_components(&caps);
                Value::Null
            }
            "reserve" => {
                let size = self.u64(op, "size", None, at)?;
                let deps = self.deps(op, at)?;
                json!(self.mm.reserve(size, &deps))
            }
            "expand" => {
                let space = self.space(op, at)?;
                let size = self.u64(op, "size", None, at)?;
                self.mm.expand(space, size)?;
                Value::Null
            }
            "allocate" => {
                let size = self.u64(op, "size", None, at)?;
                let deps = self.deps(op, at)?;
                let layout = self.layout(op, at)?;
                match self.node(op, at)? {
                    Some(n) => {
                        let idx = self.mm.allocate_node(n, size, &deps, layout);
                        self.registered(n, idx)
                    }
                    None => {
                        let p = self.mm.allocate(size, &deps, layout);
                        self.handles.push(p);
                        Value::Null
                    }
                }
            }
            "reallocate" => {
                let offset = self.u64(op, "offset", Some(0), at)?;
                let size = self.u64(op, "size", None, at)?;
                let wrap = op.get("wrap").and_then(Value::as_bool).unwrap_or(false);
                let extra = self.u64(op, "extra", Some(0), at)?;
                let deps = self.deps(op, at)?;
                let layout = self.layout(op, at)?;
                let node = self.node(op, at)?;
                let plane = match op.get("plane") {
                    Some(h) => {
                        let h = h
                            .as_u64()
                            .ok_or_else(|| bad(at("plane"), "expected a plane handle"))?
                            as usize;
                        Some(
                            self.handles
                                .get(h)
                                .cloned()
                                .ok_or_else(|| bad(at("plane"), "no such plane handle"))?,
                        )
                    }
                    None => None,
                };
                match (plane, node) {
                    (Some(p), Some(n)) => {
                        let idx = self.mm.registered(n, |mm| {
                            mm.reallocate_after(&p, offset, size, wrap, extra, &deps, layout)
                        })?;
                        self.registered(n, idx)
                    }
                    (Some(p), None) => {
                        let q = self
                            .mm
                            .reallocate_after(&p, offset, size, wrap, extra, &deps, layout)?;
                        self.handles.push(q);
                        Value::Null
                    }
                    (None, Some(n)) => {
                        let space = self.space(op, at)?;
                        let idx = self.mm.registered(n, |mm| {
                            mm.reallocate(space, offset, size, wrap, extra, &deps, layout)
                        })?;
                        self.registered(n, idx)
                    }
                    (None, None) => {
                        let space = self.space(op, at)?;
                        let q = self
                            .mm
                            .reallocate(space, offset, size, wrap, extra, &deps, layout)?;
                        self.handles.push(q);
                        Value::Null
                    }
                }
            }
            "is_wrap_around" => {
                let space = self.space(op, at)?;
                let offset = self.u64(op, "offset", None, at)?;
                let size = self.u64(op, "size", None, at)?;
                let layout = self.layout(op, at)?;
                json!(self.mm.is_wrap_around(space, offset, size, layout))
            }
            "release" => match self.node(op, at)? {
                Some(n) => json!(self.mm.release_node(n)?),
                None => {
                    let space = self.space(op, at)?;
                    json!(self.mm.release_space(space)?)
                }
            },
            "release_dependencies" => {
                let n = self
                    .node(op, at)?
                    .ok_or_else(|| bad(at("node"), "missing node"))?;
                json!(self.mm.release_dependencies(n)?)
            }
            "tick" => {
                self.mm.tick();
                Value::Null
            }
            "optimize" => {
                let s = match op.get("strategy") {
                    Some(Value::String(s)) => OptimizeStrategy::parse(s),
                    Some(Value::Number(n)) => OptimizeStrategy::parse(&n.to_string()),
                    _ => None,
                }
                .ok_or_else(|| bad(at("strategy"), "expected a strategy name or 0..3"))?;
                self.mm.optimize(s)?;
                Value::Null
            }
            other => return Err(bad(at("op"), &format!("unknown operation `{other}`"))),
        })
    }

    fn plane_json(&self, p: &MemoryPlane) -> Value {
        let s = self.mm.space(p.space);
        let g = p.geometry(s);
        json!({
            "space": p.space, "offset": p.offset, "size": p.size, "stride": p.stride,
            "length": p.length, "count": p.count, "allocated": p.allocated,
            "component": p.component, "limit": g.limit, "cont_offset": g.cont_offset,
            "cont_size": g.cont_size, "wrap_offset": g.wrap_offset, "wrap_size": g.wrap_size,
            "final_offset": g.final_offset,
        })
    }

    fn dump(&self, error: Value) -> Value {
        let spaces: Vec<Value> = self
            .mm
            .spaces()
            .iter()
            .map(|s| {
                json!({
                    "offset": s.offset, "size": s.size, "allocated": s.allocated,
                    "released": s.released, "deps": s.dependencies.iter().collect::<Vec<_>>(),
                    "component": s.component,
                })
            })
            .collect();
        let mut nodes = Map::new();
        let mut queries = Map::new();
        for (n, list) in self.mm.all_planes() {
            nodes.insert(
                n.to_string(),
                list.iter().map(|p| self.plane_json(p)).collect(),
            );
            let offsets: Vec<Value> = (0..list.len())
                .map(|i| self.mm.offset(*n, i).map_or(Value::Null, |o| json!(o)))
                .collect();
            let size = self.mm.node_size(*n).map_or(Value::Null, |z| json!(z));
            queries.insert(n.to_string(), json!({"offsets": offsets, "size": size}));
        }
        let nb_planes: Vec<usize> = (0..self.mm.spaces().len())
            .map(|s| self.mm.nb_planes_in(s))
            .collect();
        json!({
            "results": self.results,
            "error": error,
            "tick": self.mm.current_tick(),
            "peak": self.mm.peak_usage(),
            "max_lifetime": self.mm.max_lifetime(),
            "peaks": self.mm.peak_usage_multiple_mems(),
            "spaces": spaces,
            "nodes": nodes,
            "node_queries": queries,
            "space_nb_planes": nb_planes,
            "handles": self.handles.iter().map(|p| self.plane_json(p)).collect::<Vec<_>>(),
        })
    }
}
