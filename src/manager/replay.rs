//! A small JSON operation language mirroring the Python `MemoryManager` calls,
//! used by the differential test against the wheel.

/// Runs a JSON list of operations and returns the JSON state dump.
pub fn replay_json(_ops: &str) -> crate::Result<String> {
    Err(crate::Error::whole("replay: not implemented yet"))
}
