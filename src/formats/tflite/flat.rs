//! A bounds-checked reader of the FlatBuffers wire format, for the few tables of
//! TFLite's `schema.fbs` that memplan reads (`super::schema`). Every offset is checked
//! against the file before it is followed, so a truncated or hostile `.tflite` gives an
//! [`Error`] naming the byte and the table, never a panic or an out-of-bounds read.
//!
//! The format: a table starts with an `i32` back to its vtable (`u16` vtable length,
//! `u16` table length, then one `u16` offset per field, 0 when absent); a reference to
//! a table, vector or string is a `u32` forward offset from where it is stored; a
//! vector is a `u32` length followed by its elements.

use crate::{Error, Result};

fn fail(at: usize, message: impl std::fmt::Display) -> Error {
    Error::whole(format!("byte {at}: {message}"))
}

/// A read that ran out of file: the model was cut short (a partial download or copy),
/// which is what a user must be told, with how long the file is and where the read stopped.
pub fn truncated(buf: &[u8], at: usize, message: impl std::fmt::Display) -> Error {
    Error::whole(format!(
        "truncated TFLite model ({} bytes): the read stopped at byte {at}, where {message}",
        buf.len()
    ))
}

/// `len` bytes at `at`, or an error saying what ran past the end.
pub fn bytes<'a>(buf: &'a [u8], at: usize, len: usize, what: &str) -> Result<&'a [u8]> {
    at.checked_add(len)
        .and_then(|end| buf.get(at..end))
        .ok_or_else(|| {
            truncated(
                buf,
                at,
                format!("{what} ({len} bytes) runs past the end of the file"),
            )
        })
}

pub fn u32_at(buf: &[u8], at: usize, what: &str) -> Result<u32> {
    let b = bytes(buf, at, 4, what)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u16_at(buf: &[u8], at: usize, what: &str) -> Result<u16> {
    let b = bytes(buf, at, 2, what)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

/// The target of the `u32` forward offset stored at `at`.
pub fn follow(buf: &[u8], at: usize, what: &str) -> Result<usize> {
    let off = u32_at(buf, at, what)? as usize;
    let target = at + off;
    if target >= buf.len() {
        return Err(truncated(
            buf,
            at,
            format!("{what} points past the end of the file (to byte {target})"),
        ));
    }
    Ok(target)
}

/// One table: its position and the fields its vtable lists.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    buf: &'a [u8],
    pos: usize,
    vtable: usize,
    /// Number of fields the vtable has slots for.
    slots: usize,
    /// Bytes of the table itself (fields must lie inside).
    len: usize,
    what: &'static str,
}

impl<'a> Table<'a> {
    pub fn at(buf: &'a [u8], pos: usize, what: &'static str) -> Result<Table<'a>> {
        let soffset = u32_at(buf, pos, what)? as i32 as i64;
        let vtable = pos as i64 - soffset;
        if vtable < 0 || vtable as usize >= buf.len() {
            return Err(fail(pos, format!("{what}: its vtable is outside the file")));
        }
        let vtable = vtable as usize;
        let vlen = u16_at(buf, vtable, what)? as usize;
        let len = u16_at(buf, vtable + 2, what)? as usize;
        if vlen < 4 || vlen % 2 != 0 {
            return Err(fail(vtable, format!("{what}: vtable of {vlen} bytes")));
        }
        bytes(buf, vtable, vlen, what)?;
        bytes(buf, pos, len.max(4), what)?;
        Ok(Table {
            buf,
            pos,
            vtable,
            slots: (vlen - 4) / 2,
            len,
            what,
        })
    }

    /// Number of fields the vtable has slots for.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Where field `id` is stored (`size` bytes, inside the table), if present.
    pub fn field(&self, id: usize, size: usize) -> Result<Option<usize>> {
        if id >= self.slots {
            return Ok(None);
        }
        let off = u16_at(self.buf, self.vtable + 4 + 2 * id, self.what)? as usize;
        if off == 0 {
            return Ok(None);
        }
        if off + size > self.len {
            let what = self.what;
            return Err(fail(
                self.pos,
                format!("{what}: field {id} lies outside the table"),
            ));
        }
        Ok(Some(self.pos + off))
    }

    fn scalar<const N: usize>(&self, id: usize) -> Result<Option<[u8; N]>> {
        let Some(at) = self.field(id, N)? else {
            return Ok(None);
        };
        let b = bytes(self.buf, at, N, self.what)?;
        let mut out = [0; N];
        out.copy_from_slice(b);
        Ok(Some(out))
    }

    pub fn u8(&self, id: usize, default: u8) -> Result<u8> {
        Ok(self.scalar::<1>(id)?.map_or(default, |b| b[0]))
    }

    pub fn i32(&self, id: usize, default: i32) -> Result<i32> {
        Ok(self.scalar::<4>(id)?.map_or(default, i32::from_le_bytes))
    }

    pub fn u32(&self, id: usize, default: u32) -> Result<u32> {
        Ok(self.scalar::<4>(id)?.map_or(default, u32::from_le_bytes))
    }

    pub fn u64(&self, id: usize, default: u64) -> Result<u64> {
        Ok(self.scalar::<8>(id)?.map_or(default, u64::from_le_bytes))
    }

    /// Where the referenced object of field `id` starts, if present.
    fn reference(&self, id: usize, what: &'static str) -> Result<Option<usize>> {
        match self.field(id, 4)? {
            Some(at) => follow(self.buf, at, what).map(Some),
            None => Ok(None),
        }
    }

    /// Vector field `id` of `elem`-byte elements (empty when absent).
    pub fn vector(&self, id: usize, elem: usize, what: &'static str) -> Result<Vector<'a>> {
        match self.reference(id, what)? {
            Some(at) => Vector::at(self.buf, at, elem, what),
            None => Ok(Vector {
                buf: self.buf,
                start: 0,
                len: 0,
                elem,
                what,
            }),
        }
    }

    pub fn string(&self, id: usize, what: &'static str) -> Result<String> {
        let v = self.vector(id, 1, what)?;
        Ok(String::from_utf8_lossy(v.raw()).into_owned())
    }
}

/// A vector: `len` elements of `elem` bytes from `start`, all inside the file.
#[derive(Clone, Copy)]
pub struct Vector<'a> {
    buf: &'a [u8],
    /// Position of the first element (the length word is just before).
    pub start: usize,
    pub len: usize,
    elem: usize,
    what: &'static str,
}

impl<'a> Vector<'a> {
    pub fn at(buf: &'a [u8], at: usize, elem: usize, what: &'static str) -> Result<Vector<'a>> {
        let len = u32_at(buf, at, what)? as usize;
        let total = len
            .checked_mul(elem)
            .ok_or_else(|| fail(at, format!("{what}: {len} elements")))?;
        bytes(buf, at + 4, total, what)?;
        Ok(Vector {
            buf,
            start: at + 4,
            len,
            elem,
            what,
        })
    }

    /// The elements' bytes.
    pub fn raw(&self) -> &'a [u8] {
        &self.buf[self.start..self.start + self.len * self.elem]
    }

    pub fn i32s(&self) -> Vec<i32> {
        self.raw()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// Element `i`'s referenced table (a vector of tables).
    pub fn table(&self, i: usize) -> Result<Table<'a>> {
        let at = follow(self.buf, self.start + 4 * i, self.what)?;
        Table::at(self.buf, at, self.what)
    }

    /// Position of element `i`'s `u32` slot (a vector of tables or strings).
    pub fn slot(&self, i: usize) -> usize {
        self.start + 4 * i
    }
}
