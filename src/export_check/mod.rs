//! The export memory checker: replays what a generated Aidge export (aidge-export-cpp
//! or aidge-export-arm-cortexm 0.10.1) does to its arena, from its own text, without
//! compiling or running it: the kernel calls of `model_forward` in forward.cpp, in
//! order, and each layer header's `*_MEM_*` placement and size macros.
//!
//! Every arena byte remembers the output that last wrote it. Each kernel first reads
//! its inputs, then writes its outputs; the check reports
//! * a read of bytes no earlier kernel wrote (`unwritten`), or that another output
//!   wrote since its producer did (`overwritten`);
//! * a read longer than the producer's buffer (`beyond_buffer`);
//! * an output declared for a kernel that does not receive it (`never_written`);
//! * a kernel writing an output over bytes of an input it is reading (`input_overlap`).
//!   Aidge plans some outputs over their input by design: wrap-around planes, and
//!   in-place planes (`checkInPlace`: the output starts where its input does). Those
//!   are not reported, except an in-place Transpose, which cannot run in place;
//! * a model output whose bytes are not all its own at the end (`output_unwritten`,
//!   `output_overwritten`), and placements outside their arena (`outside_arena`).
//!
//! What a kernel reads and writes is taken from the macros the export gives it, the
//! way its kernels use them: a Reduce writes the product of its input `DIMS` with the
//! `AXES_TO_REDUCE` set to 1; a kernel with a `<NODE>_NB_ELTS` count (element-wise
//! ops, Transpose) writes that many elements; others write their output's
//! `NB_OUTPUTS × OUT_HEIGHT × OUT_WIDTH × OUT_BATCH`. A kernel reads the
//! `IN_BATCH × NB_CHANNELS × IN_HEIGHT × IN_WIDTH` its header declares for an input,
//! else the `NB_ELTS` it declares for it, else the producer's whole output. The model
//! input and parameters live outside the arena and are not checked.
//!
//! Where those bytes lie follows the kernels too. The convolution, pooling,
//! fully-connected and resize kernels address a tensor pixel by pixel: pixel `p`'s
//! channels at `p × <TENSOR>_MEM_STRIDE` (the int8 Cortex-M export pads every pixel to
//! 16 bytes; auto-concat interleaves its inputs so); every other kernel (Transpose,
//! element-wise, Reduce...) reads and writes its elements packed from the start. A
//! packed writer feeding a strided reader, or the reverse, is thus seen for what it
//! does: bytes read that the producer never wrote.
//!
//! The analysis works on texts (the shell reads the folder: `memplan check --export`,
//! `memplan.aidge.check_export`).

mod source;

use crate::error::Error;
use serde::Serialize;
use source::{element_bytes, eval, Forward, Header, Statement};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// At most this many findings are listed; the rest are only counted.
pub const MAX_FINDINGS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    Unwritten,
    Overwritten,
    BeyondBuffer,
    NeverWritten,
    OutputUnwritten,
    OutputOverwritten,
    OutsideArena,
    InputOverlap,
}

/// One defect: the node it shows at, that node's layer header, the bytes concerned.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    pub node: String,
    pub header: String,
    pub bytes: u64,
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[derive(Debug, Serialize)]
pub struct Report {
    /// The arenas (`mem_K`) and their sizes in bytes.
    pub arenas: Vec<(String, u64)>,
    /// Kernel calls replayed.
    pub kernels: usize,
    pub findings: Vec<Finding>,
    /// Findings past [`MAX_FINDINGS`], counted only.
    pub omitted: usize,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }
}

/// An arena pointer of forward.cpp with the placement its macros give.
struct Var {
    name: String,
    node: String,
    output: String,
    header: usize,
    arena: usize,
    offset: u64,
    /// Bytes before the wrap-around point (all of it when the output does not wrap).
    cont: u64,
    wrap_offset: u64,
    wraps: bool,
    mem_size: u64,
    /// `<TENSOR>_MEM_STRIDE`: bytes from one pixel to the next for the kernels that
    /// address pixels (0 when not given).
    stride: u64,
    /// `<TENSOR>_MEM_LENGTH` > 1: the plane is laid out pixel by pixel.
    per_pixel: bool,
    element: u64,
    /// Bytes of the buffer the kernel wrote, as (start, end) from the buffer's start
    /// (set when it runs).
    written: Vec<(u64, u64)>,
}

/// Kernels that address their tensors pixel by pixel with `*_MEM_STRIDE`
/// (aidge-export-cpp 0.10.1's kernels/: convolution*, pooling, fullyconnected,
/// resize); the others index elements packed.
fn strided_kernel(callee: &str) -> bool {
    let c = callee.to_ascii_lowercase();
    ["convolution", "pooling", "fullyconnected", "resize"]
        .iter()
        .any(|k| c.contains(k))
}

fn total(ranges: &[(u64, u64)]) -> u64 {
    ranges.iter().map(|(a, b)| b - a).sum()
}

/// How a kernel lays `n` elements of `element` bytes out: packed, or as `pixels`
/// pixels of `channels` elements `stride` bytes apart.
fn layout(n: u64, element: u64, strided: Option<(u64, u64, u64)>) -> Vec<(u64, u64)> {
    match strided {
        Some((channels, pixels, stride)) if stride > channels * element && pixels > 1 => (0
            ..pixels)
            .map(|p| (p * stride, p * stride + channels * element))
            .collect(),
        _ => vec![(0, n * element)],
    }
}

struct Checker<'a> {
    headers: &'a [Header],
    globals: HashMap<String, String>,
    defines: HashMap<String, usize>,
    arenas: Vec<(String, u64)>,
    owner: Vec<Vec<u32>>,
    vars: Vec<Var>,
    by_name: HashMap<String, usize>,
    findings: Vec<Finding>,
    omitted: usize,
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `X_output_N` -> (`X`, `N`).
fn split_var(var: &str) -> (String, String) {
    match var.rfind("_output_") {
        Some(i) => (var[..i].to_string(), var[i + 8..].to_string()),
        None => (var.to_string(), "0".to_string()),
    }
}

/// Checks the export given as forward.cpp's text and its layer headers as (path
/// relative to the export's include folder, text).
pub fn check(forward: &str, headers: &[(String, String)]) -> Result<Report, Error> {
    let forward = Forward::parse(forward).map_err(|e| e.in_file("forward.cpp"))?;
    let headers: Vec<Header> = headers.iter().map(|(n, t)| Header::parse(n, t)).collect();
    let mut globals = HashMap::new();
    let mut defines = HashMap::new();
    for (i, h) in headers.iter().enumerate() {
        for (k, v) in &h.macros {
            globals.entry(k.clone()).or_insert_with(|| v.clone());
            defines.entry(k.clone()).or_insert(i);
        }
    }
    let empty = Header::default();
    let mut arenas = Vec::new();
    for (name, size) in &forward.arenas {
        let bytes = eval(size, &empty, &globals).ok_or_else(|| {
            Error::whole(format!(
                "forward.cpp: the size of `{name}` ({size}) is not a number"
            ))
        })?;
        arenas.push((name.clone(), bytes));
    }
    if arenas.is_empty() {
        return Err(Error::whole(
            "forward.cpp: no arena (`static unsigned char mem_0[...]`) found",
        ));
    }
    let owner = arenas
        .iter()
        .map(|(_, n)| vec![0u32; usize::try_from(*n).unwrap_or(0)])
        .collect();
    let mut c = Checker {
        headers: &headers,
        globals,
        defines,
        arenas,
        owner,
        vars: Vec::new(),
        by_name: HashMap::new(),
        findings: Vec::new(),
        omitted: 0,
    };
    let mut kernels = 0;
    let mut pending: Vec<usize> = Vec::new();
    for s in &forward.statements {
        match s {
            Statement::Pointer(p) => {
                let v = c.var(p)?;
                pending.push(v);
            }
            Statement::Call { callee, args } => {
                if pending.is_empty() {
                    continue; // not a kernel of the plan (no output in the arena)
                }
                kernels += 1;
                c.kernel(callee, args, &pending);
                pending.clear();
            }
            Statement::Output { var } => c.model_output(var),
        }
    }
    for &v in &pending {
        c.never_written(v, None);
    }
    Ok(Report {
        arenas: c.arenas,
        kernels,
        findings: c.findings,
        omitted: c.omitted,
    })
}

impl Checker<'_> {
    fn push(&mut self, kind: FindingKind, var: usize, bytes: u64, message: String) {
        if self.findings.len() >= MAX_FINDINGS {
            self.omitted += 1;
            return;
        }
        let v = &self.vars[var];
        self.findings.push(Finding {
            kind,
            node: v.node.clone(),
            header: self
                .headers
                .get(v.header)
                .map_or_else(|| "dnn/src/forward.cpp".to_string(), |h| h.name.clone()),
            bytes,
            message,
        });
    }

    fn header_of(&self, v: usize) -> &str {
        self.headers
            .get(self.vars[v].header)
            .map_or("forward.cpp", |h| h.name.as_str())
    }

    fn value(&self, header: usize, key: &str) -> Option<u64> {
        let empty = Header::default();
        eval(
            key,
            self.headers.get(header).unwrap_or(&empty),
            &self.globals,
        )
        .filter(|_| self.globals.contains_key(key) || self.has(header, key))
    }

    fn has(&self, header: usize, key: &str) -> bool {
        self.headers
            .get(header)
            .is_some_and(|h| h.macros.contains_key(key))
    }

    fn var(&mut self, p: &source::Pointer) -> Result<usize, Error> {
        let (node, output) = split_var(&p.var);
        let up = p.var.to_uppercase();
        let header = [format!("{up}_MEM_OFFSET"), format!("{up}_MEM_SIZE")]
            .iter()
            .find_map(|k| self.defines.get(k).copied())
            .or_else(|| {
                self.headers
                    .iter()
                    .position(|h| h.name.ends_with(&format!("/{node}.h")))
            })
            .unwrap_or(usize::MAX);
        let at = |what: &str| {
            Error::at_line(p.line, 1, what.to_string()).in_file("forward.cpp".to_string())
        };
        let arena = self
            .arenas
            .iter()
            .position(|(n, _)| *n == p.arena)
            .ok_or_else(|| {
                at(&format!(
                    "`{}` points into `{}`, which is not declared",
                    p.var, p.arena
                ))
            })?;
        let offset = self
            .value(header, &p.offset)
            .or_else(|| p.offset.parse().ok())
            .ok_or_else(|| {
                at(&format!(
                    "`{}`: its offset `{}` is defined in no layer header",
                    p.var, p.offset
                ))
            })?;
        let element = element_bytes(&p.ctype)
            .ok_or_else(|| at(&format!("`{}`: unknown element type `{}`", p.var, p.ctype)))?;
        let get = |k: &str| self.value(header, &format!("{up}_MEM_{k}"));
        let wrap_size = get("WRAP_SIZE").unwrap_or(0);
        let mem_size = get("SIZE").unwrap_or(0);
        let stride = get("STRIDE").unwrap_or(0);
        let per_pixel = get("LENGTH").unwrap_or(1) > 1;
        let wraps = wrap_size > 0;
        let v = Var {
            name: p.var.clone(),
            node,
            output,
            header,
            arena,
            offset,
            cont: if wraps {
                get("CONT_SIZE").unwrap_or(mem_size)
            } else {
                u64::MAX
            },
            wrap_offset: get("WRAP_OFFSET").unwrap_or(0),
            wraps,
            mem_size,
            stride,
            per_pixel,
            element,
            written: Vec::new(),
        };
        self.vars.push(v);
        let id = self.vars.len() - 1;
        self.by_name.insert(p.var.clone(), id);
        Ok(id)
    }

    /// Elements of the output as its node's header declares it.
    fn declared(&self, v: usize) -> u64 {
        let var = &self.vars[v];
        let up = var.name.to_uppercase();
        let dims: Option<Vec<u64>> = ["NB_OUTPUTS", "OUT_HEIGHT", "OUT_WIDTH"]
            .iter()
            .map(|k| self.value(var.header, &format!("{up}_{k}")))
            .collect();
        match dims {
            Some(d) => {
                d.iter().product::<u64>()
                    * self
                        .value(var.header, &format!("{up}_OUT_BATCH"))
                        .unwrap_or(1)
            }
            None => {
                var.mem_size
                    * self
                        .value(var.header, &format!("{up}_MEM_LENGTH"))
                        .unwrap_or(1)
                    / var.element.max(1)
            }
        }
    }

    /// Elements the kernel of `v`'s node writes to it, given its inputs.
    fn writes(&self, v: usize, inputs: &[usize]) -> u64 {
        let var = &self.vars[v];
        let node = var.node.to_uppercase();
        if let Some(h) = self.headers.get(var.header) {
            if let Some(axes) = h.arrays.get(&format!("{node}_AXES_TO_REDUCE")) {
                for &i in inputs {
                    if let Some(dims) = h
                        .arrays
                        .get(&format!("{}_DIMS", self.vars[i].name.to_uppercase()))
                    {
                        return dims
                            .iter()
                            .enumerate()
                            .map(|(k, &d)| if axes.contains(&(k as u64)) { 1 } else { d })
                            .product();
                    }
                }
            }
        }
        if var.output == "0" {
            if let Some(n) = self.value(var.header, &format!("{node}_NB_ELTS")) {
                if self.has(var.header, &format!("{node}_NB_ELTS")) {
                    return n;
                }
            }
        }
        self.declared(v)
    }

    /// (channels, pixels) of output `v` as its header declares them.
    fn pixels(&self, v: usize) -> Option<(u64, u64)> {
        let var = &self.vars[v];
        let up = var.name.to_uppercase();
        let get = |k: &str| self.value(var.header, &format!("{up}_{k}"));
        let (c, h, w) = (get("NB_OUTPUTS")?, get("OUT_HEIGHT")?, get("OUT_WIDTH")?);
        Some((c, h * w * get("OUT_BATCH").unwrap_or(1)))
    }

    /// The bytes of `v`'s buffer its kernel `callee` writes, from the buffer's start.
    fn write_layout(&self, callee: &str, v: usize, inputs: &[usize]) -> Vec<(u64, u64)> {
        let var = &self.vars[v];
        let strided = strided_kernel(callee)
            .then(|| self.pixels(v).map(|(c, p)| (c, p, var.stride)))
            .flatten();
        layout(self.writes(v, inputs), var.element, strided)
    }

    /// The bytes of `u`'s buffer a kernel `callee` whose header is `header` reads.
    fn read_layout(&self, callee: &str, header: usize, u: usize) -> Vec<(u64, u64)> {
        let var = &self.vars[u];
        let strided = strided_kernel(callee)
            .then(|| {
                let up = var.name.to_uppercase();
                let local = |k: &str| {
                    let key = format!("{up}_{k}");
                    self.has(header, &key)
                        .then(|| self.value(header, &key))
                        .flatten()
                };
                match (local("NB_CHANNELS"), local("IN_HEIGHT"), local("IN_WIDTH")) {
                    (Some(c), Some(h), Some(w)) => {
                        Some((c, h * w * local("IN_BATCH").unwrap_or(1), var.stride))
                    }
                    _ => self.pixels(u).map(|(c, p)| (c, p, var.stride)),
                }
            })
            .flatten();
        layout(self.reads(header, u), var.element, strided)
    }

    /// Elements a kernel whose header is `header` reads of input `u`.
    fn reads(&self, header: usize, u: usize) -> u64 {
        let up = self.vars[u].name.to_uppercase();
        let local = |k: &str| {
            let key = format!("{up}_{k}");
            if self.has(header, &key) {
                self.value(header, &key)
            } else {
                None
            }
        };
        if let (Some(c), Some(h), Some(w)) =
            (local("NB_CHANNELS"), local("IN_HEIGHT"), local("IN_WIDTH"))
        {
            return c * h * w * local("IN_BATCH").unwrap_or(1);
        }
        if let Some(n) = local("NB_ELTS") {
            return n;
        }
        self.declared(u)
    }

    /// The arena byte ranges of the bytes `logical` (from the start) of `v`'s buffer:
    /// past its contiguous part, a wrapping buffer continues at its wrap offset.
    fn ranges(&self, v: usize, logical: &[(u64, u64)]) -> Vec<(u64, u64)> {
        let var = &self.vars[v];
        let mut out = Vec::with_capacity(logical.len());
        for &(a, b) in logical {
            if var.wraps && b > var.cont {
                if a < var.cont {
                    out.push((var.offset + a, var.offset + var.cont));
                }
                let from = a.max(var.cont) - var.cont;
                out.push((var.wrap_offset + from, var.wrap_offset + (b - var.cont)));
            } else {
                out.push((var.offset + a, var.offset + b));
            }
        }
        out
    }

    fn outside(&mut self, v: usize, end: u64) {
        let (arena, size) = self.arenas[self.vars[v].arena].clone();
        if end > size {
            let msg = format!(
                "`{}` ({}) is placed up to byte {} of `{arena}`, which has {} B",
                self.vars[v].name,
                self.header_of(v),
                thousands(end),
                thousands(size)
            );
            self.push(FindingKind::OutsideArena, v, end - size, msg);
        }
    }

    fn kernel(&mut self, callee: &str, args: &[String], outputs: &[usize]) {
        let inputs: Vec<usize> = args
            .iter()
            .filter_map(|a| self.by_name.get(a).copied())
            .filter(|v| !outputs.contains(v))
            .collect();
        let node_header = self.vars[outputs[0]].header;
        let reader = outputs[0];
        for &u in &inputs {
            self.read(callee, reader, node_header, u);
        }
        for &v in outputs {
            if !args.contains(&self.vars[v].name) {
                self.never_written(v, Some(callee));
                continue;
            }
            let logical = self.write_layout(callee, v, &inputs);
            self.overlaps(callee, v, &logical, node_header, &inputs);
            let id = u32::try_from(v + 1).unwrap_or(u32::MAX);
            let placed = self.ranges(v, &logical);
            self.vars[v].written = logical;
            for (s, e) in placed {
                self.outside(v, e);
                let arena = &mut self.owner[self.vars[v].arena];
                let end = usize::try_from(e).unwrap_or(usize::MAX).min(arena.len());
                let start = usize::try_from(s).unwrap_or(usize::MAX).min(end);
                arena[start..end].fill(id);
            }
        }
    }

    /// Reports the bytes of `inputs` (as the kernel reads them) that output `v`'s
    /// written bytes `logical` cover in the same arena.
    fn overlaps(
        &mut self,
        callee: &str,
        v: usize,
        logical: &[(u64, u64)],
        header: usize,
        inputs: &[usize],
    ) {
        let permutes = callee.to_ascii_lowercase().contains("transpose");
        for &u in inputs {
            let (a, b) = (&self.vars[u], &self.vars[v]);
            let in_place = a.offset == b.offset && !permutes;
            if a.arena != b.arena || a.wraps || b.wraps || in_place {
                continue;
            }
            let read = self.ranges(u, &self.read_layout(callee, header, u));
            let mut shared = 0;
            for (a, b) in self.ranges(v, logical) {
                for &(c, d) in &read {
                    shared += b.min(d).saturating_sub(a.max(c));
                }
            }
            if shared > 0 {
                let msg = format!(
                    "`{}` ({}) writes `{}` over {} B of its input `{}` while it reads them",
                    self.vars[v].node,
                    self.header_of(v),
                    self.vars[v].name,
                    thousands(shared),
                    self.vars[u].name
                );
                self.push(FindingKind::InputOverlap, v, shared, msg);
            }
        }
    }

    /// Who owns the bytes `logical` of `u`'s buffer: unwritten count and the other
    /// outputs found there with their byte counts.
    fn owners(&self, u: usize, logical: &[(u64, u64)]) -> (u64, BTreeMap<usize, u64>) {
        let arena = &self.owner[self.vars[u].arena];
        let mine = u32::try_from(u + 1).unwrap_or(u32::MAX);
        let (mut unwritten, mut others) = (0, BTreeMap::new());
        for (s, e) in self.ranges(u, logical) {
            for b in s..e {
                match arena.get(usize::try_from(b).unwrap_or(usize::MAX)) {
                    Some(&o) if o == mine => {}
                    Some(&0) => unwritten += 1,
                    Some(&o) => *others.entry(o as usize - 1).or_insert(0) += 1,
                    None => {} // outside the arena: reported as such
                }
            }
        }
        (unwritten, others)
    }

    /// Bytes of `u`'s buffer: its declared tensor, or the plane of its pixels when it
    /// is laid out pixel by pixel with a stride.
    fn buffer(&self, u: usize) -> u64 {
        let var = &self.vars[u];
        let packed = self.declared(u) * var.element;
        match self.pixels(u) {
            Some((_, p)) if var.per_pixel => packed.max(p * var.stride),
            _ => packed,
        }
    }

    /// `logical` split into the bytes inside `within` and those outside it.
    fn split(logical: &[(u64, u64)], within: &[(u64, u64)]) -> [Vec<(u64, u64)>; 2] {
        let mut cuts: Vec<(u64, u64)> = within.to_vec();
        cuts.sort_unstable();
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        for &(a, b) in logical {
            let mut at = a;
            for &(c, d) in &cuts {
                if d <= at || c >= b {
                    continue;
                }
                if c > at {
                    outside.push((at, c));
                }
                inside.push((at.max(c), d.min(b)));
                at = d.min(b);
                if at >= b {
                    break;
                }
            }
            if at < b {
                outside.push((at, b));
            }
        }
        [inside, outside]
    }

    fn read(&mut self, callee: &str, reader: usize, header: usize, u: usize) {
        let logical = self.read_layout(callee, header, u);
        let bytes = total(&logical);
        let end = logical.iter().map(|r| r.1).max().unwrap_or(0);
        let node = self.vars[reader].node.clone();
        let hname = self.header_of(reader).to_string();
        let src = self.vars[u].name.clone();
        let buffer = self.buffer(u);
        if end > buffer {
            let msg = format!(
                "`{node}` ({hname}) reads `{src}` up to byte {}, a buffer of {} B: {} B beyond it",
                thousands(end),
                thousands(buffer),
                thousands(end - buffer)
            );
            self.push(FindingKind::BeyondBuffer, reader, end - buffer, msg);
        }
        let [written, missing] = Self::split(&logical, &self.vars[u].written);
        let written_strided = self.vars[u].written.len() > 1;
        if !missing.is_empty() {
            let (zero, stale) = self.owners(u, &missing);
            let holds = if stale.is_empty() {
                "no kernel wrote them".to_string()
            } else {
                let names: Vec<String> = stale
                    .keys()
                    .take(3)
                    .map(|&w| format!("`{}`", self.vars[w].name))
                    .collect();
                format!(
                    "{} B hold stale bytes of {}{}",
                    thousands(stale.values().sum()),
                    names.join(", "),
                    if stale.len() > 3 { ", …" } else { "" }
                ) + &if zero > 0 {
                    format!(", {} B no kernel wrote", thousands(zero))
                } else {
                    String::new()
                }
            };
            let how = match (logical.len() > 1, written_strided) {
                (true, false) => format!(
                    "; it reads pixels {} B apart (`{}_MEM_STRIDE`), they were written packed",
                    self.vars[u].stride,
                    src.to_uppercase()
                ),
                (false, true) => format!(
                    "; it reads packed bytes, they were written {} B apart (`{}_MEM_STRIDE`)",
                    self.vars[u].stride,
                    src.to_uppercase()
                ),
                _ => String::new(),
            };
            let msg = format!(
                "`{node}` ({hname}) reads {} B of `{src}`, but `{}` ({}) wrote only {} B of them: {} B unwritten ({holds}){how}",
                thousands(bytes),
                self.vars[u].node,
                self.header_of(u),
                thousands(bytes - total(&missing)),
                thousands(total(&missing))
            );
            self.push(FindingKind::Unwritten, reader, total(&missing), msg);
        }
        let (_, others) = self.owners(u, &written);
        for (w, n) in others {
            let msg = format!(
                "`{node}` ({hname}) reads {} B of `{src}` overwritten since by `{}` ({})",
                thousands(n),
                self.vars[w].name,
                self.header_of(w)
            );
            self.push(FindingKind::Overwritten, reader, n, msg);
        }
    }

    fn never_written(&mut self, v: usize, callee: Option<&str>) {
        let bytes = self.buffer(v);
        let var = &self.vars[v];
        let by = callee.map_or_else(
            || "no kernel call follows it".to_string(),
            |c| format!("its kernel `{c}` does not receive it"),
        );
        let msg = format!(
            "`{}` ({}) declares output {} (`{}`, {} B at `{}` + {}) but {by}: it is never written",
            var.node,
            self.header_of(v),
            var.output,
            var.name,
            thousands(bytes),
            self.arenas[var.arena].0,
            thousands(var.offset)
        );
        self.push(FindingKind::NeverWritten, v, bytes, msg);
    }

    fn model_output(&mut self, name: &str) {
        let Some(&v) = self.by_name.get(name) else {
            return; // not in the arena
        };
        let bytes = self.declared(v) * self.vars[v].element;
        let [written, missing] = Self::split(&[(0, bytes)], &self.vars[v].written);
        let unwritten = total(&missing);
        let (_, others) = self.owners(v, &written);
        if unwritten > 0 {
            let msg = format!(
                "model output `{name}` ({}): {} of its {} B were never written",
                self.header_of(v),
                thousands(unwritten),
                thousands(bytes)
            );
            self.push(FindingKind::OutputUnwritten, v, unwritten, msg);
        }
        for (w, n) in others {
            let msg = format!(
                "model output `{name}` ({}): {} B overwritten by `{}` ({}) before the model returns",
                self.header_of(v),
                thousands(n),
                self.vars[w].name,
                self.header_of(w)
            );
            self.push(FindingKind::OutputOverwritten, v, n, msg);
        }
    }
}
