//! The one error type that crosses module boundaries: a message a user can act on,
//! naming the file and the place in it.

use std::fmt;

/// Where in an input the problem is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Location {
    /// No finer place than the file itself.
    #[default]
    File,
    /// 1-based line and column of a text format.
    LineCol { line: usize, column: usize },
    /// A JSON path such as `$.plan.planes[3].size`.
    Path(String),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::File => Ok(()),
            Location::LineCol { line, column } => write!(f, "line {line}, column {column}"),
            Location::Path(p) => write!(f, "{p}"),
        }
    }
}

/// An input or planning error. `Display` prints `file: place: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Error {
    /// File name as the user gave it; filled in by the caller that knows it.
    pub file: Option<String>,
    pub location: Location,
    pub message: String,
}

impl Error {
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        Error {
            file: None,
            location,
            message: message.into(),
        }
    }
    pub fn at_line(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self::new(Location::LineCol { line, column }, message)
    }
    pub fn at_path(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(Location::Path(path.into()), message)
    }
    pub fn whole(message: impl Into<String>) -> Self {
        Self::new(Location::File, message)
    }
    /// Names the file the error came from.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if self.location != Location::File {
            write!(f, "{}: ", self.location)?;
        }
        f.write_str(&self.message)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
