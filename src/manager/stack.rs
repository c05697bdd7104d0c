//! Aidge's `mMemStack`: an ordered map offset → size of the blocks live at the
//! current clock, used for first-fit placement.
//!
//! Quirks reproduced on purpose (docs/aidge-parity.md, "Memory manager"):
//! inserting an existing key is a no-op (a zero-size block at an occupied offset
//! is not recorded, and its later release removes the *other* block), and the
//! first-fit test `o - off >= size` is unsigned, so a block that starts before
//! the running end (overlap) also stops the walk.

use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stack {
    blocks: BTreeMap<u64, u64>,
}

impl Stack {
    /// First-fit offset for `size` among `blocks` (Aidge's walk, unsigned test).
    pub fn first_fit<'a>(blocks: impl IntoIterator<Item = (&'a u64, &'a u64)>, size: u64) -> u64 {
        let mut off = 0u64;
        for (&o, &s) in blocks {
            if o.wrapping_sub(off) >= size {
                break;
            }
            off = o.wrapping_add(s);
        }
        off
    }

    /// `onStack(size)`: first fit, then insert `(off, size)` unless the key exists.
    pub fn on(&mut self, size: u64) -> u64 {
        let off = Self::first_fit(&self.blocks, size);
        self.blocks.entry(off).or_insert(size);
        off
    }

    /// `offStack(offset)`: erase the block keyed `offset` and return its size.
    pub fn off(&mut self, offset: u64) -> crate::Result<u64> {
        match self.blocks.remove(&offset) {
            Some(size) => Ok(size),
            None => Err(crate::Error::whole(format!(
                "offStack(): offset {offset} not found in stack (stack size is {})",
                self.blocks.len()
            ))),
        }
    }

    pub fn clear(&mut self) {
        self.blocks.clear();
    }

    pub fn blocks(&self) -> &BTreeMap<u64, u64> {
        &self.blocks
    }

    pub fn remove(&mut self, offset: u64) -> Option<u64> {
        self.blocks.remove(&offset)
    }
}
