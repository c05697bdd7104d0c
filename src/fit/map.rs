//! A device's memory map as users write it: `256K+8M` (fast to slow, TiGrIS 0.12.1's
//! form), named banks `sram=512K,psram=8M`, or a board preset ([`PRESETS`]).
//!
//! Sizes read as TiGrIS reads them (`tigris.cli._parse_size`): `K`/`KB` are 1024 bytes,
//! `M`/`MB` 1024², case-insensitive, a decimal number truncated to whole bytes; plain
//! digits are bytes. memplan also takes `KiB`/`MiB`/`GiB`, `G`/`GB` and a `B` suffix, all
//! binary, so that a size TiGrIS reads means the same bytes here.

use crate::model::Bytes;
use crate::{Error, Result};
use serde::Serialize;

/// One memory of the map, fastest first in [`MemoryMap::banks`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bank {
    pub name: String,
    pub size: Bytes,
}

/// The memories a plan may use, fastest first: the first bank is the one whose
/// traffic is free, every later one costs its reads and writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemoryMap {
    pub banks: Vec<Bank>,
    /// The preset the map was named by, if any.
    pub preset: Option<&'static str>,
    /// Where the preset's sizes come from.
    pub source: Option<&'static str>,
}

/// A board's memories, defined once here: the CLI's help, Python's `memplan.PRESETS`
/// and the page take them from this table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Preset {
    pub name: &'static str,
    /// Banks `(name, bytes)`, fastest first.
    pub banks: &'static [(&'static str, Bytes)],
    /// The datasheet or configuration each size is read from.
    pub source: &'static str,
}

const KIB: Bytes = 1024;
const MIB: Bytes = 1024 * 1024;

/// The board presets. Each bank is one contiguous region an arena array can live in.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "stm32h743",
        banks: &[
            ("dtcm", 128 * KIB),
            ("axi_sram", 512 * KIB),
            ("sram123", 288 * KIB),
        ],
        source: "RM0433 rev 8 (STM32H742/743/750/753 reference manual), section 2.3.2 memory \
                 map: DTCM 128 KB at 0x20000000 (zero wait state), AXI SRAM 512 KB at \
                 0x24000000, SRAM1+SRAM2+SRAM3 128+128+32 KB contiguous at 0x30000000. \
                 aidge-export-arm-cortexm 0.10.1's hardware model for this board gives one \
                 1,000,000-byte `sram`: the chip's RAM added up, not a region — one arena \
                 array links into the AXI SRAM at most (512 KiB)",
    },
    Preset {
        name: "esp32s3-psram8m",
        banks: &[("sram", 512 * KIB), ("psram", 8 * MIB)],
        source: "ESP32-S3 datasheet v1.9, section 4.1.3: 512 KB internal SRAM (shared with \
                 the caches and the application: an arena gets less); ESP32-S3-WROOM-1-N8R8 \
                 module datasheet: 8 MB octal PSRAM",
    },
    Preset {
        name: "nrf52840",
        banks: &[("ram", 256 * KIB)],
        source: "nRF52840 product specification v1.8, section 4.2 memory: 256 KB RAM \
                 (AHB slaves RAM0-RAM8, one contiguous region at 0x20000000)",
    },
    Preset {
        name: "rp2040",
        banks: &[("sram", 256 * KIB)],
        source: "RP2040 datasheet, section 2.6.1: SRAM0-3, 4 x 64 KB striped into one 256 KB \
                 region at 0x20000000; SRAM4/5 (4 KB each, SCRATCH_X/Y) hold the cores' stacks \
                 in the Pico SDK's memmap_default.ld",
    },
    Preset {
        name: "ethos-u55-384k",
        banks: &[("sram", 384 * KIB)],
        source: "Arm Vela 5.2.0 vela.ini, Memory_Mode.Dedicated_Sram_384KB: \
                 arena_cache_size=393216. Vela's own default for an Ethos-U55 \
                 (System_Config.Ethos_U55_High_End_Embedded, Memory_Mode.Shared_Sram) puts the \
                 arena in SRAM with no size but the 32-bit address space; 384 KB is the \
                 dedicated SRAM size Vela defaults to for the U65/U85 and lists for the U55",
    },
];

/// The preset names, in table order (what `--memory`'s help and `memplan.PRESETS` list).
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

impl Preset {
    /// The preset as a map.
    pub fn map(&self) -> MemoryMap {
        MemoryMap {
            banks: self
                .banks
                .iter()
                .map(|&(name, size)| Bank {
                    name: name.to_owned(),
                    size,
                })
                .collect(),
            preset: Some(self.name),
            source: Some(self.source),
        }
    }
}

/// What a map is written as, for errors and help.
pub const FORMS: &str = "a board preset, `FAST+SLOW` sizes fastest first (`256K+8M`), or named \
                         banks `NAME=SIZE,…` (`sram=512K,psram=8M`); a size is bytes or a number \
                         with K, M or G (binary: 1K = 1024 B)";

impl MemoryMap {
    /// Reads a map: a preset's name, `256K+8M`, `sram=512K,psram=8M`, or plain bytes.
    pub fn parse(text: &str) -> Result<MemoryMap> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::whole(format!("--memory is empty: expected {FORMS}")));
        }
        if let Some(p) = PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(text)) {
            return Ok(p.map());
        }
        let banks = if text.contains('=') {
            text.split(',')
                .map(|part| {
                    let (name, size) = part.split_once('=').ok_or_else(|| {
                        Error::whole(format!(
                            "--memory `{text}`: bank `{}` has no size: expected NAME=SIZE",
                            part.trim()
                        ))
                    })?;
                    let name = name.trim();
                    if name.is_empty() {
                        return Err(Error::whole(format!(
                            "--memory `{text}`: a bank has no name before `=`: expected NAME=SIZE"
                        )));
                    }
                    Ok(Bank {
                        name: name.to_owned(),
                        size: parse_size(size, &format!("--memory `{text}`"))?,
                    })
                })
                .collect::<Result<Vec<_>>>()?
        } else {
            let parts: Vec<&str> = text.split('+').collect();
            parts
                .iter()
                .enumerate()
                .map(|(i, part)| {
                    Ok(Bank {
                        name: positional_name(i, parts.len()),
                        size: parse_size(part, &format!("--memory `{text}`"))?,
                    })
                })
                .collect::<Result<Vec<_>>>()?
        };
        for (i, b) in banks.iter().enumerate() {
            if banks[..i].iter().any(|o| o.name == b.name) {
                return Err(Error::whole(format!(
                    "--memory `{text}`: bank `{}` is named twice: each bank needs its own name",
                    b.name
                )));
            }
        }
        Ok(MemoryMap {
            banks,
            preset: None,
            source: None,
        })
    }

    /// All the banks' bytes.
    pub fn total(&self) -> Bytes {
        self.banks
            .iter()
            .fold(0, |a: Bytes, b| a.saturating_add(b.size))
    }

    /// The map as users read it: `fast 256 KiB + slow 8 MiB`.
    pub fn describe(&self) -> String {
        self.banks
            .iter()
            .map(|b| format!("{} {}", b.name, human(b.size)))
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// `fast`, `slow`, `slow2`… for `256K+8M+32M`; `mem` for a single size.
fn positional_name(i: usize, n: usize) -> String {
    match (i, n) {
        (0, 1) => "mem".into(),
        (0, _) => "fast".into(),
        (1, _) => "slow".into(),
        _ => format!("slow{i}"),
    }
}

/// One size: digits (bytes), or a number with a binary unit (K, KB, KiB, M, MB, MiB, G,
/// GB, GiB; case-insensitive), as TiGrIS reads `-m`. The one size rule of every option
/// a user types a size into (`memplan fit --memory`, `memplan tile --fast`); `context`
/// names that option (and the whole map) in errors.
pub fn parse_size(text: &str, context: &str) -> Result<Bytes> {
    let t = text.trim();
    let bad = |why: &str| {
        Error::whole(format!(
            "{context}: `{t}` is not a size{why}: expected bytes or a number with K, M \
             or G (`256K`, `8M`, `1.5M`)"
        ))
    };
    if t.is_empty() {
        return Err(bad(" (empty bank)"));
    }
    let upper = t.to_ascii_uppercase();
    let split = upper
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(upper.len());
    let (number, unit) = upper.split_at(split);
    let mult: Bytes = match unit.trim() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => KIB,
        "M" | "MB" | "MIB" => MIB,
        "G" | "GB" | "GIB" => 1024 * MIB,
        _ => return Err(bad("")),
    };
    let bytes = if number.contains('.') {
        let v: f64 = number.parse().map_err(|_| bad(""))?;
        let b = v * mult as f64;
        if !b.is_finite() || b >= u64::MAX as f64 {
            return Err(bad(" (too large)"));
        }
        b as Bytes
    } else {
        let v: Bytes = number.parse().map_err(|_| bad(""))?;
        v.checked_mul(mult).ok_or_else(|| bad(" (too large)"))?
    };
    if bytes == 0 {
        return Err(Error::whole(format!(
            "{context}: a bank of `{t}` holds nothing: every bank needs at least one byte"
        )));
    }
    Ok(bytes)
}

/// Bytes as users read them: `512 B`, `256 KiB`, `1.7 MiB`.
pub fn human(b: Bytes) -> String {
    let f = b as f64;
    if b >= MIB {
        trim(f / MIB as f64, "MiB")
    } else if b >= KIB {
        trim(f / KIB as f64, "KiB")
    } else {
        format!("{b} B")
    }
}

fn trim(v: f64, unit: &str) -> String {
    if (v - v.round()).abs() < 0.05 {
        format!("{} {unit}", v.round())
    } else {
        format!("{v:.1} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(m: &MemoryMap) -> Vec<(&str, Bytes)> {
        m.banks.iter().map(|b| (b.name.as_str(), b.size)).collect()
    }

    #[test]
    fn tigris_form_reads_fast_then_slow_in_binary_units() {
        let m = MemoryMap::parse("256K+8M").unwrap();
        assert_eq!(sizes(&m), [("fast", 262_144), ("slow", 8_388_608)]);
        // TiGrIS truncates a decimal size to whole bytes; case does not matter.
        let m = MemoryMap::parse("1.5m+64kb").unwrap();
        assert_eq!(sizes(&m), [("fast", 1_572_864), ("slow", 65_536)]);
        assert_eq!(sizes(&MemoryMap::parse("1000").unwrap()), [("mem", 1000)]);
        let m = MemoryMap::parse("64K+1M+32MiB").unwrap();
        assert_eq!(m.banks[2].name, "slow2");
    }

    #[test]
    fn named_banks_keep_their_names_and_order() {
        let m = MemoryMap::parse("sram=512K, psram=8M").unwrap();
        assert_eq!(sizes(&m), [("sram", 524_288), ("psram", 8_388_608)]);
        assert_eq!(m.total(), 524_288 + 8_388_608);
    }

    #[test]
    fn presets_are_maps_with_sources() {
        for p in PRESETS {
            let m = MemoryMap::parse(p.name).unwrap();
            assert_eq!(m.preset, Some(p.name));
            assert!(!m.banks.is_empty() && m.banks.iter().all(|b| b.size > 0));
            assert!(
                p.source.len() > 40,
                "{} says where its sizes come from",
                p.name
            );
        }
        let esp = MemoryMap::parse("ESP32S3-PSRAM8M").unwrap();
        assert_eq!(sizes(&esp), [("sram", 512 * KIB), ("psram", 8 * MIB)]);
        assert_eq!(
            MemoryMap::parse("stm32h743").unwrap().banks[1].size,
            512 * KIB
        );
    }

    #[test]
    fn one_size_rule_names_the_option_it_reads() {
        // `memplan tile --fast` reads its size by this rule too.
        assert_eq!(parse_size("1.5MiB", "--fast").unwrap(), 1_572_864);
        assert_eq!(parse_size("300000", "--fast").unwrap(), 300_000);
        let e = parse_size("-1K", "--fast").unwrap_err().message;
        assert!(e.starts_with("--fast: `-1K` is not a size"), "{e}");
    }

    #[test]
    fn bad_maps_say_what_was_wrong_and_what_was_expected() {
        let msg = |t: &str| MemoryMap::parse(t).unwrap_err().message;
        assert!(
            msg("256Q").contains("`256Q` is not a size"),
            "{}",
            msg("256Q")
        );
        assert!(msg("256Q").contains("expected bytes or a number with K, M or G"));
        assert!(msg("0+8M").contains("holds nothing"));
        assert!(msg("sram=0").contains("holds nothing"));
        assert!(msg("").contains("empty"));
        assert!(msg("256K+").contains("empty bank"));
        assert!(msg("a=1K,a=2K").contains("named twice"));
        assert!(msg("a=1K,2K").contains("has no size"));
        assert!(msg("=1K").contains("no name"));
        assert!(msg("99999999999999999999G").contains("not a size"));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(256 * KIB), "256 KiB");
        assert_eq!(human(1_782_579), "1.7 MiB");
    }
}
