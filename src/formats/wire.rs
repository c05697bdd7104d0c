//! The compact binary form of a [`Plan`] that the page's Web Worker hands to the
//! viewer on the main thread (`www/worker.js` → `Viewer::open_plan`).
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
//! Decoding never trusts the bytes: every read is bounds-checked, counts are checked
//! against the bytes left before anything is allocated, and errors name the byte
//! offset and the field.

use crate::model::{Clock, Component, Plan, Plane, Space, Step};
use crate::{Error, Result};

/// `MPW` + format version 1.
const MAGIC: &[u8; 4] = b"MPW\x01";

/// Encodes a plan.
pub fn encode(plan: &Plan) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(
        64 + plan.steps.len() * 24 + plan.spaces.len() * 12 + plan.planes.len() * 32,
    ));
    w.0.extend_from_slice(MAGIC);
    w.u(u64::from(plan.max_lifetime));
    w.u(plan.alignment);
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
        match &p.label {
            None => w.u(0),
            Some(l) => {
                w.u(1);
                w.s(l);
            }
        }
    }
    w.0
}

/// Decodes what [`encode`] wrote.
pub fn decode(bytes: &[u8]) -> Result<Plan> {
    if bytes.get(..4) != Some(MAGIC.as_slice()) {
        return Err(Error::whole(
            "not a memplan wire plan (bad magic): the worker and the page are from different builds",
        ));
    }
    let mut r = Reader { bytes, at: 4 };
    let max_lifetime = r.clock("max_lifetime")?;
    let alignment = r.u("alignment")?;
    let steps = match r.u("steps.numbered")? {
        1 => {
            let n = r.clock("steps")?;
            if u64::from(n) > crate::formats::MAX_CLOCK + 1 {
                return Err(r.error("steps", &format!("{n} clocks, beyond the readers' limit")));
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
            let n = r.count("steps", 3)?;
            let mut steps = Vec::with_capacity(n);
            for _ in 0..n {
                steps.push(Step {
                    name: r.s("steps.name")?,
                    kind: r.s("steps.type")?,
                    clock: r.opt_clock("steps.clock")?,
                });
            }
            steps
        }
        v => return Err(r.error("steps.numbered", &format!("{v} is not 0 or 1"))),
    };
    let n = r.count("components", 3)?;
    let mut components = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.s("components.name")?;
        let capacity = r.opt("components.capacity")?;
        let z = r.u("components.priority")?;
        components.push(Component {
            name,
            capacity,
            priority: ((z >> 1) as i64) ^ -((z & 1) as i64),
        });
    }
    let n = r.count("spaces", 6)?;
    let mut spaces = Vec::with_capacity(n);
    for _ in 0..n {
        spaces.push(Space {
            offset: r.u("spaces.offset")?,
            size: r.u("spaces.size")?,
            allocated: r.clock("spaces.allocated")?,
            released: r.opt_clock("spaces.released")?,
            has_deps: match r.u("spaces.has_deps")? {
                0 => false,
                1 => true,
                v => return Err(r.error("spaces.has_deps", &format!("{v} is not 0 or 1"))),
            },
            component: r.index("spaces.component")?,
        });
    }
    let n = r.count("planes", 14)?;
    let mut planes = Vec::with_capacity(n);
    for _ in 0..n {
        planes.push(Plane {
            node: r.index("planes.node")?,
            index: r.index("planes.index")?,
            space: r.index("planes.space")?,
            allocated: r.clock("planes.allocated")?,
            offset: r.u("planes.offset")?,
            size: r.u("planes.size")?,
            stride: r.u("planes.stride")?,
            length: r.u("planes.length")?,
            count: r.u("planes.count")?,
            cont_offset: r.u("planes.cont_offset")?,
            cont_size: r.u("planes.cont_size")?,
            wrap_offset: r.u("planes.wrap_offset")?,
            wrap_size: r.u("planes.wrap_size")?,
            label: match r.u("planes.label")? {
                0 => None,
                1 => Some(r.s("planes.label")?),
                v => return Err(r.error("planes.label", &format!("bad tag {v}"))),
            },
        });
    }
    if r.at != bytes.len() {
        return Err(r.error("end", "trailing bytes after the last plane"));
    }
    Ok(Plan {
        steps,
        components,
        spaces,
        planes,
        max_lifetime,
        alignment,
    })
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
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, field: &str, what: &str) -> Error {
        Error::whole(format!("wire plan, byte {}, {field}: {what}", self.at))
    }

    fn u(&mut self, field: &str) -> Result<u64> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(self.error(field, "truncated"));
            };
            self.at += 1;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(self.error(field, "number beyond 2^64"));
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.error(field, "number beyond 2^64"))
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
                Buffer {
                    id: "a<b>".into(),
                    lower: 0,
                    upper: 3,
                    size: 4,
                    offset: None,
                },
                Buffer {
                    id: "ünï".into(),
                    lower: 2,
                    upper: 9,
                    size: u64::MAX - 1,
                    offset: None,
                },
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
        plan.planes[1].wrap_size = 7;
        plan.steps[1].clock = None;
        plan.steps[2].kind = "Conv".into();
        plan.alignment = 64;
        plan
    }

    #[test]
    fn round_trips_every_field() {
        let plan = sample();
        assert_eq!(decode(&encode(&plan)).unwrap(), plan);
        assert_eq!(decode(&encode(&Plan::default())).unwrap(), Plan::default());
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
        let plan = list.to_plan(&[0]);
        let bytes = encode(&plan);
        assert!(
            bytes.len() < 64,
            "{} bytes for 100,000 numbered steps",
            bytes.len()
        );
        assert_eq!(decode(&bytes).unwrap(), plan);
    }

    #[test]
    fn is_much_smaller_than_json() {
        let list = crate::strategies::synthetic(10_000, 1);
        let plan = crate::formats::plan_buffers(&list);
        let wire = encode(&plan).len();
        let json = serde_json::to_string(&plan).unwrap().len();
        assert!(wire * 5 < json, "wire {wire} B, JSON {json} B");
    }

    #[test]
    fn refuses_foreign_and_truncated_bytes() {
        let e = decode(b"{\"format\":\"memplan\"}").unwrap_err();
        assert!(e.message.contains("magic"), "{e}");
        let bytes = encode(&sample());
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
        bytes.extend([0, 1, 0]); // max_lifetime, alignment, named steps
        bytes.extend([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]); // 2^56 steps
        let e = decode(&bytes).unwrap_err();
        assert!(e.message.contains("cannot fit"), "{e}");
    }

    proptest! {
        #[test]
        fn mutated_bytes_never_panic(flips in proptest::collection::vec((0usize..400, any::<u8>()), 1..6)) {
            let mut bytes = encode(&sample());
            for (at, v) in flips {
                let n = bytes.len();
                bytes[at % n] = v;
            }
            let _ = decode(&bytes);
        }
    }
}
