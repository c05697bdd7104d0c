//! The JSON path (`$.plan.planes[3].size`) of the place where a reading of JSON text
//! stopped, found after the fact from the byte offset serde_json reports.
//!
//! Why not track the path while deserializing (serde_path_to_error): that wraps every
//! `Deserialize` impl of the document in one more deserializer, a second copy of all of
//! them in the page's wasm module (about 100 KB), and copies every key of the document
//! on the way (a third of the time of a 30 MB plan) only to explain an error that most
//! files never have. Scanning the text up to the error is a few lines, and costs
//! nothing until there is an error.
//!
//! The path is the one serde_path_to_error gives (a test compares the two on every
//! kind of error the readers report): an error inside a value names the value's key
//! or index; an error between an object's members (a duplicate key, a missing field
//! found at the closing brace) names the object.

/// One open container on the way to the offset.
enum Frame {
    /// An object: the last key read, and whether its value has begun (after `:`).
    Object { key: String, in_value: bool },
    /// An array: the index of the current element. An element begins at its `[` or
    /// `,`, as the reader asks for it there, before it looks at what follows.
    Array { index: usize },
}

/// The path of the value that holds byte `offset` of `text` (the end of what the
/// parser had read), `$` for the root.
pub fn at(text: &str, offset: usize) -> String {
    let bytes = &text.as_bytes()[..offset.min(text.len())];
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => continue,
            b'"' => {
                let start = i;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object { key, in_value }) = stack.last_mut() {
                    if !*in_value {
                        let end = i.min(bytes.len());
                        // As the reader saw it, escapes decoded (`"a\"b"` is `a"b`).
                        *key =
                            serde_json::from_slice(&bytes[start - 1..(end + 1).min(bytes.len())])
                                .unwrap_or_else(|_| {
                                    String::from_utf8_lossy(&bytes[start..end]).into_owned()
                                });
                        i += 1;
                        continue;
                    }
                }
                i += 1;
                continue;
            }
            b':' => {
                if let Some(Frame::Object { in_value, .. }) = stack.last_mut() {
                    *in_value = true;
                }
                continue;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Object { in_value, .. }) => *in_value = false,
                    Some(Frame::Array { index }) => *index += 1,
                    None => {}
                }
                continue;
            }
            b'}' | b']' => {
                stack.pop();
                continue;
            }
            _ => {}
        }
        match b {
            b'{' => stack.push(Frame::Object {
                key: String::new(),
                in_value: false,
            }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            _ => {}
        }
    }
    let mut path = String::from("$");
    for frame in &stack {
        match frame {
            Frame::Object {
                key,
                in_value: true,
            } => {
                path.push('.');
                path.push_str(key);
            }
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
            _ => break,
        }
    }
    path
}

/// The byte offset of serde_json's 1-based line and column (the column counts the
/// bytes of the line up to and including the last one read).
pub fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    start + column
}

#[cfg(test)]
mod tests {
    use super::at;

    #[test]
    fn names_the_value_an_offset_is_in() {
        let t = r#"{"plan": {"spaces": [{"size": 1}, {"size": -1}]}}"#;
        let after = |s: &str| t.find(s).unwrap() + s.len();
        assert_eq!(at(t, after("-1")), "$.plan.spaces[1].size");
        assert_eq!(at(t, after("1}")), "$.plan.spaces[0]");
        assert_eq!(at(t, after("[{\"size\"")), "$.plan.spaces[0]");
        assert_eq!(at(t, after("spaces\": [")), "$.plan.spaces[0]");
        assert_eq!(at(t, after("}]")), "$.plan.spaces");
        assert_eq!(at(t, t.len()), "$");
    }

    #[test]
    fn keys_with_escapes_and_quotes_in_values_do_not_confuse_it() {
        let t = r#"{"a\"b": ["x\"]", {"c": 3"#;
        assert_eq!(at(t, t.len()), "$.a\"b[1].c");
    }
}
