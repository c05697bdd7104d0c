//! The compact binary form of a [`Plan`] that the page's Web Worker hands to the
//! viewer on the main thread (`www/worker.js` → `Viewer::begin_plan`).
//!
//! Why not JSON: a million-plane plan is hundreds of MB of JSON, and parsing it again
//! on the main thread would freeze the page the worker exists to keep responsive.
//! Why not a serde binary format (postcard, bincode): they are not self-describing
//! and [`Plane::label`](crate::model::Plane::label) is skipped when absent, which
//! they cannot read back. So this is a small hand-written encoding: every integer an
//! unsigned LEB128 varint (most values are small: ~30 bytes per plane), strings as
//! length + UTF-8, records in the model's field order, behind a magic and a version.
//! The buffer is transferred (not copied) between threads as an `ArrayBuffer`.
//!
//! The plan travels with its [`Stats`] and checker [`Report`]: for a million planes
//! they are most of the work of preparing the chart (~1 s), which the worker does so
//! that the main thread only decodes and lays out ([`crate::scene::Chart::with`]).
//! The report is capped at [`check::MAX_PROBLEMS`] problems, so a broken plan's
//! findings stay small; plane, space and component counts of the stats are the plan's
//! and are not sent.
//!
//! Decoding never trusts the bytes: every read is bounds-checked, counts are checked
//! against the bytes left before anything is allocated, and errors name the byte
//! offset and the field.

use crate::check::{self, Problem, ProblemKind, Report};
use crate::model::{Clock, Component, Plan, Plane, Space, Step, Tensor};
use crate::stats::{ComponentStats, LiveSpace, Stats};
use crate::{Error, Result};

/// `MPW` + format version 4 (1 had no stats and report, 2 no `Plan::reordered`, 3 no
/// tensors).
const MAGIC: &[u8; 4] = b"MPW\x04";

/// The checker's problem kinds in declaration order: a kind's tag on the wire is
/// `kind as usize`, its index here.
const KINDS: [ProblemKind; 7] = [
    ProblemKind::PlaneOverlap,
    ProblemKind::PlaneOutsideSpace,
    ProblemKind::PlaneSize,
    ProblemKind::OverCapacity,
    ProblemKind::Lifetime,
    ProblemKind::Misaligned,
    ProblemKind::BadIndex,
];

/// What the worker hands to the main thread: a plan with its [`crate::stats::stats`]
/// and [`check::check`].
#[derive(Debug, Clone, PartialEq)]
pub struct Handoff {
    pub plan: Plan,
    pub stats: Stats,
    pub report: Report,
}

/// Encodes a plan with its stats and report (computed from that plan).
pub fn encode(plan: &Plan, stats: &Stats, report: &Report) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(
        64 + plan.steps.len() * 24 + plan.spaces.len() * 12 + plan.planes.len() * 32,
    ));
    w.0.extend_from_slice(MAGIC);
    w.u(u64::from(plan.max_lifetime));
    w.u(plan.alignment);
    w.u(u64::from(plan.reordered));
    // Buffer lists have one unnamed step per clock (`BufferList::to_plan`), a million
    // for MiniMalloc's sets: sent as their count alone.
    let numbered = plan.steps.iter().enumerate().all(|(t, s)| {
        s.kind.is_empty() && s.clock.map(|c| c as usize) == Some(t) && s.name == t.to_string()
    });
    w.u(u64::from(numbered));
    w.u(plan.steps.len() as u64);
    for s in plan.steps.iter().filter(|_| !numbered) {
        w.s(&s.name);
        w.s(&s.kind);
        w.opt(s.clock.map(u64::from));
    }
    w.u(plan.components.len() as u64);
    for c in &plan.components {
        w.s(&c.name);
        w.opt(c.capacity);
        // Zigzag, so small negative priorities stay small.
        w.u(((c.priority << 1) ^ (c.priority >> 63)) as u64);
    }
    w.u(plan.spaces.len() as u64);
    for s in &plan.spaces {
        w.u(s.offset);
        w.u(s.size);
        w.u(u64::from(s.allocated));
        w.opt(s.released.map(u64::from));
        w.u(u64::from(s.has_deps));
        w.u(s.component as u64);
    }
    w.u(plan.planes.len() as u64);
    for p in &plan.planes {
        for v in [
            p.node as u64,
            p.index as u64,
            p.space as u64,
            u64::from(p.allocated),
            p.offset,
            p.size,
            p.stride,
            p.length,
            p.count,
            p.cont_offset,
            p.cont_size,
            p.wrap_offset,
            p.wrap_size,
        ] {
            w.u(v);
        }
        // Bit 0: a label follows; bit 1: a tensor's facts follow.
        w.u(u64::from(p.label.is_some()) | u64::from(p.tensor.is_some()) << 1);
        if let Some(l) = &p.label {
            w.s(l);
        }
        if let Some(t) = &p.tensor {
            w.tensor(t);
        }
    }
    w.stats(stats);
    w.report(report);
    w.0
}

/// Decodes what [`encode`] wrote. Indices in the stats and report are checked
/// against the plan, so the result can be drawn whatever the bytes were.
pub fn decode(bytes: &[u8]) -> Result<Handoff> {
    Decoder::new(bytes)?.finish()
}

/// Decodes a hand-off a slice of records at a time, so that the page's main thread
/// can yield between slices: a million planes take longer than a frame to decode.
pub struct Decoder<B> {
    bytes: B,
    at: usize,
    plan: Plan,
    spaces_left: usize,
    /// Planes still to read, known once the spaces are read.
    planes_left: Option<usize>,
}

impl<B: AsRef<[u8]>> Decoder<B> {
    /// Reads the header, steps and components; spaces and planes are left to
    /// [`Decoder::step`].
    pub fn new(bytes: B) -> Result<Decoder<B>> {
        let b = bytes.as_ref();
        if b.get(..4) != Some(MAGIC.as_slice()) {
            return Err(Error::whole(
                "not a memplan wire plan (bad magic): the worker and the page are from different builds",
            ));
        }
        let mut r = Reader { bytes: b, at: 4 };
        let (plan, spaces_left) = r.header()?;
        let at = r.at;
        Ok(Decoder {
            bytes,
            at,
            plan,
            spaces_left,
            planes_left: None,
        })
    }

    /// Decodes up to `records` more spaces and planes; true once all are read.
    pub fn step(&mut self, records: usize) -> Result<bool> {
        let mut r = Reader {
            bytes: self.bytes.as_ref(),
            at: self.at,
        };
        let done = slice(
            &mut r,
            &mut self.plan,
            &mut self.spaces_left,
            &mut self.planes_left,
            records,
        );
        self.at = r.at;
        done
    }

    /// Decodes what is left: the rest of the planes, the stats and the report.
    pub fn finish(mut self) -> Result<Handoff> {
        while !self.step(usize::MAX)? {}
        let bytes = self.bytes.as_ref();
        let mut r = Reader { bytes, at: self.at };
        let stats = r.stats(&self.plan)?;
        let report = r.report(&self.plan)?;
        if r.at != bytes.len() {
            return Err(r.error("end", "trailing bytes after the report"));
        }
        Ok(Handoff {
            plan: self.plan,
            stats,
            report,
        })
    }
}

/// One [`Decoder::step`]: spaces first, then the planes count, then planes.
fn slice(
    r: &mut Reader,
    plan: &mut Plan,
    spaces_left: &mut usize,
    planes_left: &mut Option<usize>,
    mut records: usize,
) -> Result<bool> {
    while *spaces_left > 0 {
        if records == 0 {
            return Ok(false);
        }
        records -= 1;
        *spaces_left -= 1;
        plan.spaces.push(r.space()?);
    }
    let left = match planes_left {
        Some(n) => n,
        None => {
            let n = r.count("planes", 14)?;
            plan.planes.reserve_exact(n);
            planes_left.insert(n)
        }
    };
    while *left > 0 {
        if records == 0 {
            return Ok(false);
        }
        records -= 1;
        *left -= 1;
        plan.planes.push(r.plane()?);
    }
    Ok(true)
}

struct Writer(Vec<u8>);

impl Writer {
    fn u(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    /// `None` as 0, `Some(v)` as `v + 1` (a value of `u64::MAX` takes an 11-byte form).
    fn opt(&mut self, v: Option<u64>) {
        match v {
            None => self.u(0),
            Some(v) if v < u64::MAX => self.u(v + 1),
            Some(_) => {
                self.u(u64::MAX);
                self.u(0);
            }
        }
    }
    fn s(&mut self, s: &str) {
        self.u(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt_s(&mut self, s: Option<&str>) {
        match s {
            None => self.u(0),
            Some(s) => {
                self.u(1);
                self.s(s);
            }
        }
    }
    fn tensor(&mut self, t: &Tensor) {
        self.opt(t.index.map(u64::from));
        match &t.shape {
            None => self.u(0),
            Some(dims) => {
                self.u(dims.len() as u64 + 1);
                for &d in dims {
                    // Zigzag: TFLite's unknown dimension is -1.
                    self.u(((d << 1) ^ (d >> 63)) as u64);
                }
            }
        }
        self.opt_s(t.dtype.as_deref());
        self.opt_s(t.module.as_deref());
        self.opt_s(t.source.as_deref());
    }
    fn list(&mut self, v: &[usize]) {
        self.u(v.len() as u64);
        for &i in v {
            self.u(i as u64);
        }
    }
    fn stats(&mut self, st: &Stats) {
        self.u(st.peak);
        self.u(st.lower_bound);
        self.u(st.efficiency.to_bits());
        self.u(st.components.len() as u64);
        for c in &st.components {
            self.s(&c.name);
            self.u(c.peak);
            self.u(c.lower_bound);
            self.opt(c.peak_clock.map(u64::from));
            self.u(c.live_at_peak.len() as u64);
            for l in &c.live_at_peak {
                self.u(l.space as u64);
                self.u(l.size);
                self.list(&l.planes);
            }
            // Runs are in clock order: each clock as the step from the previous one.
            self.u(c.live.len() as u64);
            let mut prev = 0;
            for &(t, b) in &c.live {
                self.u(u64::from(t.wrapping_sub(prev)));
                self.u(b);
                prev = t;
            }
        }
    }
    fn report(&mut self, r: &Report) {
        self.u(r.problems.len() as u64);
        for p in &r.problems {
            self.u(p.kind as u64);
            self.list(&p.planes);
            self.list(&p.spaces);
            self.s(&p.message);
        }
        self.u(r.omitted as u64);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    #[cold]
    fn error(&self, field: &str, what: &str) -> Error {
        Error::whole(format!("wire plan, byte {}, {field}: {what}", self.at))
    }

    /// A varint. Inlined with a one-byte fast path and a small error type: decoding
    /// a million planes is ~15 million of these on the page's main thread.
    #[inline]
    fn varint(&mut self) -> std::result::Result<u64, &'static str> {
        match self.bytes.get(self.at) {
            Some(&b) if b < 0x80 => {
                self.at += 1;
                Ok(u64::from(b))
            }
            _ => self.long_varint(),
        }
    }

    #[inline(never)]
    fn long_varint(&mut self) -> std::result::Result<u64, &'static str> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let &b = self.bytes.get(self.at).ok_or("truncated")?;
            self.at += 1;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err("number beyond 2^64");
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("number beyond 2^64")
    }

    #[inline]
    fn u(&mut self, field: &str) -> Result<u64> {
        self.varint().map_err(|what| self.error(field, what))
    }

    fn opt(&mut self, field: &str) -> Result<Option<u64>> {
        Ok(match self.u(field)? {
            0 => None,
            u64::MAX => match self.u(field)? {
                0 => Some(u64::MAX),
                v => return Err(self.error(field, &format!("bad escape {v}"))),
            },
            v => Some(v - 1),
        })
    }

    #[inline]
    fn clock(&mut self, field: &str) -> Result<Clock> {
        let v = self.u(field)?;
        Clock::try_from(v).map_err(|_| self.error(field, &format!("clock {v} beyond 2^32")))
    }

    fn opt_clock(&mut self, field: &str) -> Result<Option<Clock>> {
        match self.opt(field)? {
            None => Ok(None),
            Some(v) => Clock::try_from(v)
                .map(Some)
                .map_err(|_| self.error(field, &format!("clock {v} beyond 2^32"))),
        }
    }

    #[inline]
    fn index(&mut self, field: &str) -> Result<usize> {
        let v = self.u(field)?;
        usize::try_from(v).map_err(|_| self.error(field, &format!("index {v} too large")))
    }

    /// A record count, refused when the bytes left cannot hold that many records of
    /// at least `min_bytes` each (so a corrupt count never allocates).
    fn count(&mut self, field: &str, min_bytes: usize) -> Result<usize> {
        let n = self.index(field)?;
        let left = self.bytes.len() - self.at;
        if n > left / min_bytes {
            return Err(self.error(
                field,
                &format!("{n} records cannot fit in the {left} bytes left"),
            ));
        }
        Ok(n)
    }

    /// Everything before the spaces, and the number of spaces (room for them is
    /// reserved in the plan).
    fn header(&mut self) -> Result<(Plan, usize)> {
        let max_lifetime = self.clock("max_lifetime")?;
        let alignment = self.u("alignment")?;
        let reordered = self.u("reordered")? != 0;
        let steps = match self.u("steps.numbered")? {
            1 => {
                let n = self.clock("steps")?;
                if u64::from(n) > crate::formats::MAX_CLOCK + 1 {
                    return Err(
                        self.error("steps", &format!("{n} clocks, beyond the readers' limit"))
                    );
                }
                (0..n)
                    .map(|t| Step {
                        name: t.to_string(),
                        kind: String::new(),
                        clock: Some(t),
                    })
                    .collect()
            }
            0 => {
                // Each record takes at least this many bytes, which bounds the counts.
                let n = self.count("steps", 3)?;
                let mut steps = Vec::with_capacity(n);
                for _ in 0..n {
                    steps.push(Step {
                        name: self.s("steps.name")?,
                        kind: self.s("steps.type")?,
                        clock: self.opt_clock("steps.clock")?,
                    });
                }
                steps
            }
            v => return Err(self.error("steps.numbered", &format!("{v} is not 0 or 1"))),
        };
        let n = self.count("components", 3)?;
        let mut components = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.s("components.name")?;
            let capacity = self.opt("components.capacity")?;
            let z = self.u("components.priority")?;
            components.push(Component {
                name,
                capacity,
                priority: ((z >> 1) as i64) ^ -((z & 1) as i64),
            });
        }
        let n = self.count("spaces", 6)?;
        let plan = Plan {
            steps,
            components,
            spaces: Vec::with_capacity(n),
            planes: Vec::new(),
            max_lifetime,
            alignment,
            reordered,
        };
        Ok((plan, n))
    }

    fn space(&mut self) -> Result<Space> {
        Ok(Space {
            offset: self.u("spaces.offset")?,
            size: self.u("spaces.size")?,
            allocated: self.clock("spaces.allocated")?,
            released: self.opt_clock("spaces.released")?,
            has_deps: match self.u("spaces.has_deps")? {
                0 => false,
                1 => true,
                v => return Err(self.error("spaces.has_deps", &format!("{v} is not 0 or 1"))),
            },
            component: self.index("spaces.component")?,
        })
    }

    #[inline]
    fn plane(&mut self) -> Result<Plane> {
        let mut p = Plane {
            node: self.index("planes.node")?,
            index: self.index("planes.index")?,
            space: self.index("planes.space")?,
            allocated: self.clock("planes.allocated")?,
            offset: self.u("planes.offset")?,
            size: self.u("planes.size")?,
            stride: self.u("planes.stride")?,
            length: self.u("planes.length")?,
            count: self.u("planes.count")?,
            cont_offset: self.u("planes.cont_offset")?,
            cont_size: self.u("planes.cont_size")?,
            wrap_offset: self.u("planes.wrap_offset")?,
            wrap_size: self.u("planes.wrap_size")?,
            label: None,
            tensor: None,
        };
        // Bit 0: a label follows; bit 1: a tensor's facts follow.
        let tag = self.u("planes.label")?;
        if tag > 3 {
            return Err(self.error("planes.label", &format!("bad tag {tag}")));
        }
        if tag & 1 == 1 {
            p.label = Some(self.s("planes.label")?);
        }
        if tag & 2 == 2 {
            p.tensor = Some(Box::new(self.tensor()?));
        }
        Ok(p)
    }

    fn tensor(&mut self) -> Result<Tensor> {
        let index = match self.opt("planes.tensor.index")? {
            None => None,
            Some(v) => Some(
                u32::try_from(v).map_err(|_| self.error("planes.tensor.index", "beyond 2^32"))?,
            ),
        };
        let shape = match self.u("planes.tensor.shape")? {
            0 => None,
            n => {
                let n = usize::try_from(n - 1).unwrap_or(usize::MAX);
                let left = self.bytes.len() - self.at;
                if n > left {
                    return Err(self.error(
                        "planes.tensor.shape",
                        &format!("{n} dimensions cannot fit in the {left} bytes left"),
                    ));
                }
                let mut dims = Vec::with_capacity(n);
                for _ in 0..n {
                    let z = self.u("planes.tensor.shape")?;
                    dims.push((z >> 1) as i64 ^ -((z & 1) as i64));
                }
                Some(dims)
            }
        };
        Ok(Tensor {
            index,
            shape,
            dtype: self.opt_s("planes.tensor.dtype")?,
            module: self.opt_s("planes.tensor.module")?,
            source: self.opt_s("planes.tensor.source")?,
        })
    }

    fn opt_s(&mut self, field: &str) -> Result<Option<String>> {
        match self.u(field)? {
            0 => Ok(None),
            1 => self.s(field).map(Some),
            v => Err(self.error(field, &format!("bad tag {v}"))),
        }
    }

    /// A list of indices below `bound` (planes or spaces of the plan).
    fn list(&mut self, field: &str, bound: usize) -> Result<Vec<usize>> {
        let n = self.count(field, 1)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            let i = self.index(field)?;
            if i >= bound {
                return Err(self.error(field, &format!("index {i}, the plan has {bound}")));
            }
            v.push(i);
        }
        Ok(v)
    }

    fn stats(&mut self, plan: &Plan) -> Result<Stats> {
        let peak = self.u("stats.peak")?;
        let lower_bound = self.u("stats.lower_bound")?;
        let efficiency = f64::from_bits(self.u("stats.efficiency")?);
        let n = self.count("stats.components", 6)?;
        let ncomp = plan.components.len().max(1);
        if n != ncomp {
            return Err(self.error(
                "stats.components",
                &format!("{n} components, the plan has {ncomp}"),
            ));
        }
        let mut components = Vec::with_capacity(n);
        for _ in 0..n {
            let name = self.s("stats.name")?;
            let peak = self.u("stats.peak")?;
            let lower_bound = self.u("stats.lower_bound")?;
            let peak_clock = self.opt_clock("stats.peak_clock")?;
            let k = self.count("stats.live_at_peak", 3)?;
            let mut live_at_peak = Vec::with_capacity(k);
            for _ in 0..k {
                let space = self.index("stats.live_at_peak.space")?;
                if space >= plan.spaces.len() {
                    return Err(self.error(
                        "stats.live_at_peak.space",
                        &format!("index {space}, the plan has {}", plan.spaces.len()),
                    ));
                }
                live_at_peak.push(LiveSpace {
                    space,
                    size: self.u("stats.live_at_peak.size")?,
                    planes: self.list("stats.live_at_peak.planes", plan.planes.len())?,
                });
            }
            let k = self.count("stats.live", 2)?;
            let mut live = Vec::with_capacity(k);
            let mut t: Clock = 0;
            for _ in 0..k {
                let step = self.clock("stats.live.clock")?;
                t = t
                    .checked_add(step)
                    .ok_or_else(|| self.error("stats.live.clock", "clock beyond 2^32"))?;
                live.push((t, self.u("stats.live.bytes")?));
            }
            components.push(ComponentStats {
                name,
                peak,
                lower_bound,
                peak_clock,
                live_at_peak,
                live,
            });
        }
        Ok(Stats {
            peak,
            lower_bound,
            efficiency,
            planes: plan.planes.len(),
            spaces: plan.spaces.len(),
            steps: plan.steps.len(),
            max_lifetime: plan.max_lifetime,
            components,
        })
    }

    fn report(&mut self, plan: &Plan) -> Result<Report> {
        let n = self.count("report.problems", 4)?;
        if n > check::MAX_PROBLEMS {
            return Err(self.error(
                "report.problems",
                &format!("{n} problems, the checker lists {}", check::MAX_PROBLEMS),
            ));
        }
        let mut problems = Vec::with_capacity(n);
        for _ in 0..n {
            let tag = self.index("report.kind")?;
            let kind = *KINDS
                .get(tag)
                .ok_or_else(|| self.error("report.kind", &format!("unknown kind {tag}")))?;
            problems.push(Problem {
                kind,
                planes: self.list("report.planes", plan.planes.len())?,
                spaces: self.list("report.spaces", plan.spaces.len())?,
                message: self.s("report.message")?,
            });
        }
        Ok(Report {
            problems,
            omitted: self.index("report.omitted")?,
        })
    }

    fn s(&mut self, field: &str) -> Result<String> {
        let n = self.index(field)?;
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| self.error(field, "string runs past the end"))?;
        let s = std::str::from_utf8(&self.bytes[self.at..end])
            .map_err(|_| self.error(field, "invalid UTF-8"))?;
        self.at = end;
        Ok(s.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, BufferList};
    use proptest::prelude::*;

    fn sample() -> Plan {
        let list = BufferList {
            buffers: vec![
                Buffer::new("a<b>", 0, 3, 4),
                Buffer::new("ünï", 2, 9, u64::MAX - 1),
            ],
            capacity: None,
        };
        let mut plan = list.to_plan(&[0, 4]);
        plan.components.push(Component {
            name: "sram".into(),
            capacity: Some(u64::MAX),
            priority: -3,
        });
        plan.spaces[1].component = 1;
        plan.spaces[1].released = None;
        plan.spaces[1].has_deps = true;
        plan.planes[0].label = None;
        plan.planes[0].tensor = Some(Box::new(Tensor {
            index: Some(7),
            shape: Some(vec![1, -1, 96, i64::MIN, i64::MAX]),
            dtype: Some("int8".into()),
            module: None,
            source: Some("gen.py:52".into()),
        }));
        plan.planes[1].wrap_size = 7;
        plan.steps[1].clock = None;
        plan.steps[2].kind = "Conv".into();
        plan.alignment = 64;
        plan.reordered = true;
        plan
    }

    /// The plan with what the worker computes for it.
    fn handoff(plan: Plan) -> Handoff {
        Handoff {
            stats: crate::stats::stats(&plan),
            report: check::check(&plan),
            plan,
        }
    }

    fn wire(h: &Handoff) -> Vec<u8> {
        encode(&h.plan, &h.stats, &h.report)
    }

    #[test]
    fn round_trips_every_field() {
        let h = handoff(sample());
        assert!(
            !h.report.is_valid(),
            "the sample is broken, so findings travel"
        );
        assert_eq!(decode(&wire(&h)).unwrap(), h);
        let empty = handoff(Plan::default());
        assert_eq!(decode(&wire(&empty)).unwrap(), empty);
    }

    #[test]
    fn slices_of_any_size_decode_the_same() {
        let h = handoff(sample());
        let bytes = wire(&h);
        let records = h.plan.spaces.len() + h.plan.planes.len();
        for n in 1..=records + 1 {
            let mut d = Decoder::new(bytes.as_slice()).unwrap();
            let mut calls = 1;
            while !d.step(n).unwrap() {
                calls += 1;
            }
            assert_eq!(calls, records.div_ceil(n), "slices of {n}");
            assert_eq!(d.finish().unwrap(), h);
        }
    }

    #[test]
    fn every_problem_kind_has_its_tag() {
        for (tag, &kind) in KINDS.iter().enumerate() {
            assert_eq!(kind as usize, tag, "{kind}");
        }
    }

    #[test]
    fn findings_naming_items_the_plan_lacks_are_refused() {
        let mut h = handoff(sample());
        h.report.problems[0].planes.push(h.plan.planes.len());
        let e = decode(&wire(&h)).unwrap_err();
        assert!(e.message.contains("report.planes"), "{e}");
        let mut h = handoff(sample());
        h.stats.components[0].live_at_peak[0].space = 99;
        let e = decode(&wire(&h)).unwrap_err();
        assert!(e.message.contains("live_at_peak.space"), "{e}");
    }

    #[test]
    fn numbered_steps_travel_as_a_count() {
        let list = BufferList {
            buffers: vec![Buffer {
                id: "long".into(),
                lower: 0,
                upper: 100_000,
                size: 8,
                offset: Some(0),
            }],
            capacity: None,
        };
        let h = handoff(list.to_plan(&[0]));
        let bytes = wire(&h);
        assert!(
            bytes.len() < 96,
            "{} bytes for 100,000 numbered steps",
            bytes.len()
        );
        assert_eq!(decode(&bytes).unwrap(), h);
    }

    #[test]
    fn is_much_smaller_than_json() {
        // 10,000 buffers of 1–8-step lifetimes and sizes from 64 B to 1 MiB.
        let buffers = (0..10_000u64)
            .map(|i| {
                let lower = (i * 7 % 5000) as u32;
                let size = 64 << (i * 13 % 15);
                crate::model::Buffer::new(i.to_string(), lower, lower + 1 + (i % 8) as u32, size)
            })
            .collect();
        let list = crate::model::BufferList {
            buffers,
            capacity: None,
        };
        let plan = crate::planning::plan_buffers(&list).unwrap();
        let wire = wire(&handoff(plan.clone())).len();
        let json = serde_json::to_string(&plan).unwrap().len();
        assert!(wire * 5 < json, "wire {wire} B, JSON {json} B");
    }

    #[test]
    fn refuses_foreign_and_truncated_bytes() {
        let e = decode(b"{\"format\":\"memplan\"}").unwrap_err();
        assert!(e.message.contains("magic"), "{e}");
        let bytes = wire(&handoff(sample()));
        for cut in 4..bytes.len() {
            let e = decode(&bytes[..cut]).unwrap_err();
            assert!(e.message.starts_with("wire plan, byte "), "{e}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert!(decode(&long).unwrap_err().message.contains("trailing"));
    }

    #[test]
    fn a_huge_count_does_not_allocate() {
        let mut bytes = MAGIC.to_vec();
        bytes.extend([0, 1, 0, 0]); // max_lifetime, alignment, reordered, named steps
        bytes.extend([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]); // 2^56 steps
        let e = decode(&bytes).unwrap_err();
        assert!(e.message.contains("cannot fit"), "{e}");
    }

    proptest! {
        #[test]
        fn mutated_bytes_never_panic(flips in proptest::collection::vec((0usize..400, any::<u8>()), 1..6)) {
            let mut bytes = wire(&handoff(sample()));
            for (at, v) in flips {
                let n = bytes.len();
                bytes[at % n] = v;
            }
            let _ = decode(&bytes);
        }
    }
}
