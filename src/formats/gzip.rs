//! gzip-compressed input. Models and logs travel gzipped (`model.onnx.gz`, the corpus
//! of tests/data), so [`super::load`] inflates a gzip stream before it sniffs the
//! format: the CLI, Python and the page's whole-crate module open them alike.

use crate::{Error, Result};
use std::borrow::Cow;
use std::io::Read;

/// gzip's magic number (RFC 1952, section 2.3.1).
const MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Largest inflated size accepted: protobuf's 2 GiB limit, which bounds every ONNX
/// model, well above any plan dump; a small file that inflates past it is a gzip bomb,
/// refused before it takes the machine's memory.
pub const MAX_INFLATED: u64 = 2 << 30;

/// Whether `bytes` start as a gzip stream does.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// `bytes` inflated when they are a gzip stream (every member of a multi-member one),
/// else as they are; `file_name` without its `.gz`, the name the readers sniff.
pub fn inflate<'a>(file_name: &'a str, bytes: &'a [u8]) -> Result<(&'a str, Cow<'a, [u8]>)> {
    if !is_gzip(bytes) {
        return Ok((file_name, Cow::Borrowed(bytes)));
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)
        .map_err(|e| {
            Error::whole(format!(
                "a gzip file that does not inflate ({e}): cut short, or not gzip"
            ))
        })?;
    if out.len() as u64 > MAX_INFLATED {
        return Err(Error::whole(format!(
            "a gzip file that inflates past {MAX_INFLATED} bytes, more than any model or plan"
        )));
    }
    let lower = file_name.to_ascii_lowercase();
    let name = match lower.strip_suffix(".gz") {
        Some(stem) => &file_name[..stem.len()],
        None => file_name,
    };
    Ok((name, Cow::Owned(out)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn a_gzip_stream_is_inflated_and_its_name_loses_gz() {
        let zipped = gzip(b"id,lower,upper,size\n0,0,1,8\n");
        let (name, bytes) = inflate("plan.CSV.GZ", &zipped).unwrap();
        assert_eq!(name, "plan.CSV");
        assert_eq!(&*bytes, b"id,lower,upper,size\n0,0,1,8\n");
        let (name, bytes) = inflate("plan.csv", b"0,0,1,8").unwrap();
        assert_eq!((name, &*bytes), ("plan.csv", &b"0,0,1,8"[..]));
    }

    #[test]
    fn a_truncated_stream_is_an_error_not_a_panic() {
        let zipped = gzip(&[7u8; 4096]);
        let err = inflate("x.gz", &zipped[..zipped.len() / 2]).unwrap_err();
        assert!(err.to_string().contains("does not inflate"), "{err}");
    }
}
