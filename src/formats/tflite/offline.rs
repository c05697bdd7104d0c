//! Writes an offline plan into a `.tflite`: the `OfflineMemoryAllocation` metadata TFLM
//! reads (`[0, subgraphs, tensors, offset or -1 per tensor]` as little-endian 32-bit
//! words, in a new buffer).
//!
//! The model is not re-serialized. FlatBuffers references point forward (unsigned
//! offsets from where they are stored), so the new parts go *before* the old ones: a
//! new root `Model` table, which refers to the old model's fields, a new `buffers`
//! vector (the old buffers and one more) and a new `metadata` vector (the old entries
//! but an earlier offline plan, and the new one), followed by the old file from byte 8
//! on, shifted by a multiple of 16 so that every weight keeps its alignment. Every
//! other byte of the model is kept as it was; the old root table is left unreferenced.

use super::arena::OFFLINE_METADATA;
use super::flat::{self, Table};
use super::schema::{Model, IDENTIFIER};
use crate::{Error, Result};

/// `Model`'s fields this writer knows (`version` and references up to
/// `external_buffers`); a later field could be a scalar or a reference, so a model
/// that has one is refused rather than guessed.
const MODEL_FIELDS: usize = 10;
const BUFFERS: usize = 4;
const METADATA: usize = 6;
const VERSION: usize = 0;

/// What the rewritten model keeps of the old one, and the plan's words.
struct Kept {
    /// The offline plan: version, subgraphs, then one offset per tensor (-1: online).
    words: Vec<i32>,
    /// The old Model fields but its buffers and metadata: (id, scalar or reference).
    fields: Vec<(usize, Field)>,
    /// The old buffers, and the old metadata entries but an offline plan.
    old_buffers: Vec<usize>,
    old_meta: Vec<usize>,
}

/// Reads what [`write`] keeps of the model and refuses what it cannot rewrite.
fn kept(buf: &[u8], model: &Model, offsets: &[Option<u64>]) -> Result<Kept> {
    if model.buffers.iter().any(|b| b.offset > 1) {
        return Err(Error::whole(
            "a model with buffers outside the flatbuffer (over 2 GB): not supported",
        ));
    }
    let old = Table::at(buf, model.root, "Model")?;
    let mut words: Vec<i32> = vec![0, model.subgraphs.len() as i32, offsets.len() as i32];
    for o in offsets {
        words.push(match o {
            Some(o) => i32::try_from(*o)
                .map_err(|_| Error::whole(format!("offset {o} does not fit TFLM's int32")))?,
            None => -1,
        });
    }
    // The old fields: (id, Some(target) for a reference, or the scalar word).
    let mut fields: Vec<(usize, Field)> = Vec::new();
    for id in 0..old.slots() {
        if id == BUFFERS || id == METADATA {
            continue;
        }
        let Some(at) = old.field(id, 1)? else {
            continue;
        };
        if id >= MODEL_FIELDS {
            let msg = format!("the Model table has field {id}, newer than memplan's writer knows");
            return Err(Error::whole(msg));
        }
        let f = if id == VERSION {
            Field::Word(flat::u32_at(buf, at, "Model.version")?)
        } else {
            Field::Old(flat::follow(buf, at, "Model field")?)
        };
        fields.push((id, f));
    }
    let old_buffers = old_vector(buf, &old, BUFFERS)?;
    let old_meta: Vec<usize> = old_vector(buf, &old, METADATA)?
        .into_iter()
        .zip(&model.metadata)
        .filter(|(_, m)| m.name != OFFLINE_METADATA)
        .map(|(at, _)| at)
        .collect();

    Ok(Kept {
        words,
        fields,
        old_buffers,
        old_meta,
    })
}

/// The model with `offsets` (one per tensor of subgraph 0; `None`: planned at run time)
/// as its offline plan.
pub fn write(buf: &[u8], model: &Model, offsets: &[Option<u64>]) -> Result<Vec<u8>> {
    let Kept {
        words,
        fields,
        old_buffers,
        old_meta,
    } = kept(buf, model, offsets)?;
    let mut w = Writer::default();
    w.u32(0); // root, patched
    w.bytes(IDENTIFIER);
    // Model: vtable, then the table.
    let slots = MODEL_FIELDS;
    let vtable = w.len();
    w.u16((4 + 2 * slots) as u16);
    let present: Vec<usize> = {
        let mut ids: Vec<usize> = fields.iter().map(|(id, _)| *id).collect();
        ids.extend([BUFFERS, METADATA]);
        ids.sort_unstable();
        ids
    };
    w.u16((4 + 4 * present.len()) as u16);
    for id in 0..slots {
        let k = present.iter().position(|&p| p == id);
        w.u16(k.map_or(0, |k| 4 + 4 * k as u16));
    }
    w.align(4);
    let table = w.len();
    w.patch(0, table as u32);
    w.u32((table - vtable) as u32); // soffset: the vtable is before the table
    let mut refs: Vec<(usize, Target)> = Vec::new();
    for &id in &present {
        let at = w.len();
        w.u32(0);
        match fields.iter().find(|(f, _)| *f == id).map(|(_, f)| f) {
            Some(Field::Word(v)) => w.patch(at, *v),
            Some(Field::Old(t)) => refs.push((at, Target::Old(*t))),
            None if id == BUFFERS => refs.push((at, Target::New("buffers"))),
            None => refs.push((at, Target::New("metadata"))),
        }
    }
    // buffers: the old ones and the plan's.
    let buffers = w.len();
    w.u32(old_buffers.len() as u32 + 1);
    for &b in &old_buffers {
        refs.push((w.len(), Target::Old(b)));
        w.u32(0);
    }
    refs.push((w.len(), Target::New("buffer")));
    w.u32(0);
    let metadata = w.len();
    w.u32(old_meta.len() as u32 + 1);
    for &m in &old_meta {
        refs.push((w.len(), Target::Old(m)));
        w.u32(0);
    }
    refs.push((w.len(), Target::New("entry")));
    w.u32(0);
    // The new Buffer { data } and Metadata { name, buffer }.
    let buffer_vt = w.len();
    w.u16(6);
    w.u16(8);
    w.u16(4);
    w.align(4);
    let buffer = w.len();
    w.u32((buffer - buffer_vt) as u32);
    let data_ref = w.len();
    w.u32(0);
    let entry_vt = w.len();
    w.u16(8);
    w.u16(12);
    w.u16(4);
    w.u16(8);
    let entry = w.len();
    w.u32((entry - entry_vt) as u32);
    let name_ref = w.len();
    w.u32(0);
    w.u32(old_buffers.len() as u32);
    let name = w.len();
    w.u32(OFFLINE_METADATA.len() as u32);
    w.bytes(OFFLINE_METADATA.as_bytes());
    w.bytes(&[0]);
    w.align(4);
    // The plan's data, 16-aligned as `force_align: 16` asks.
    while (w.len() + 4) % 16 != 0 {
        w.bytes(&[0]);
    }
    let data = w.len();
    w.u32(4 * words.len() as u32);
    for v in &words {
        w.bytes(&v.to_le_bytes());
    }
    // The old file from byte 8 lands at `shift + 8`: keep its alignment mod 16.
    while (w.len() - 8) % 16 != 0 {
        w.bytes(&[0]);
    }
    let shift = w.len() - 8;
    w.patch(data_ref, (data - data_ref) as u32);
    w.patch(name_ref, (name - name_ref) as u32);
    for (at, target) in refs {
        let to = match target {
            Target::Old(p) => p + shift,
            Target::New("buffers") => buffers,
            Target::New("metadata") => metadata,
            Target::New("buffer") => buffer,
            Target::New(_) => entry,
        };
        // Every reference points forward: the old parts come after the new ones.
        let forward = to
            .checked_sub(at)
            .filter(|&d| d > 0 && d <= u32::MAX as usize);
        let Some(d) = forward else {
            let msg = "the Model table refers to its own header bytes: not rewritten";
            return Err(Error::whole(msg));
        };
        w.patch(at, d as u32);
    }
    let mut out = w.out;
    out.extend_from_slice(&buf[8..]);
    Ok(out)
}

enum Field {
    Word(u32),
    Old(usize),
}

enum Target {
    Old(usize),
    New(&'static str),
}

/// Positions of the tables a vector field of `t` refers to.
fn old_vector(buf: &[u8], t: &Table, id: usize) -> Result<Vec<usize>> {
    let v = t.vector(id, 4, "Model vector")?;
    (0..v.len)
        .map(|i| flat::follow(buf, v.slot(i), "Model vector"))
        .collect()
}

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn len(&self) -> usize {
        self.out.len()
    }
    fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }
    fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    fn align(&mut self, n: usize) {
        while self.out.len() % n != 0 {
            self.out.push(0);
        }
    }
    fn patch(&mut self, at: usize, v: u32) {
        self.out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}
