//! Axis ticks and the way numbers are written on the chart: clocks as integers,
//! addresses in B/KiB/MiB/GiB (1024-based, as memory sizes are read) or in hex.

use crate::model::Bytes;

/// Ticks of the clock axis between `t0` and `t1`: integer steps of 1, 2 or 5 × 10^k
/// chosen so that about `target` ticks show.
pub fn clock_ticks(t0: f64, t1: f64, target: usize) -> Vec<u64> {
    let span = (t1 - t0).max(1e-9);
    let step = nice_step(span / target.max(1) as f64).max(1.0) as u64;
    let first = (t0.max(0.0) / step as f64).ceil() as u64 * step;
    let mut out = Vec::new();
    let mut t = first;
    while (t as f64) <= t1 && out.len() < 1000 {
        out.push(t);
        t += step;
    }
    out
}

/// Ticks of the address axis between `a0` and `a1` bytes. Decimal: 1/2/5 × 10^k of the
/// unit that suits the span; hex: powers of two, which land on round hex numbers.
pub fn address_ticks(a0: f64, a1: f64, target: usize, hex: bool) -> Vec<Bytes> {
    let span = (a1 - a0).max(1e-9);
    let raw = span / target.max(1) as f64;
    let step = if hex {
        2f64.powi(raw.log2().ceil().max(0.0) as i32)
    } else {
        let unit = unit_for(span).1 as f64;
        (nice_step(raw / unit) * unit).max(1.0).round()
    };
    let first = (a0.max(0.0) / step).ceil() * step;
    let mut out = Vec::new();
    let mut a = first;
    while a <= a1 && out.len() < 1000 {
        out.push(a as Bytes);
        a += step;
    }
    out
}

/// The smallest of 1, 2, 5 × 10^k at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 || raw.is_infinite() {
        return 1.0;
    }
    let mag = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * mag >= raw * (1.0 - 1e-9) {
            return m * mag;
        }
    }
    10.0 * mag
}

/// Unit name and size for a span of bytes: the largest unit the span reaches twice.
fn unit_for(span: f64) -> (&'static str, u64) {
    const UNITS: [(&str, u64); 4] = [
        ("GiB", 1 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
        ("B", 1),
    ];
    UNITS
        .into_iter()
        .find(|&(_, u)| span >= 2.0 * u as f64)
        .unwrap_or(("B", 1))
}

/// An address tick label: `0x3D4000` or `3.83 MiB`-style with the unit of the span.
pub fn address_label(a: Bytes, span: f64, hex: bool) -> String {
    if hex {
        return format!("0x{a:X}");
    }
    if a == 0 {
        return "0".into();
    }
    let (name, unit) = unit_for(span);
    if unit == 1 {
        return format!("{a} B");
    }
    let v = a as f64 / unit as f64;
    let digits = if v == v.trunc() {
        0
    } else if (v * 10.0) == (v * 10.0).trunc() {
        1
    } else {
        2
    };
    format!("{v:.digits$} {name}")
}

/// A byte count for people: `4,014,080 B (3.83 MiB)`; plain `512 B` below a KiB.
pub fn bytes_long(b: Bytes) -> String {
    let exact = group_digits(b);
    if b < 1024 {
        return format!("{exact} B");
    }
    format!("{exact} B ({})", bytes_short(b))
}

/// `3.83 MiB`, `12 B`.
pub fn bytes_short(b: Bytes) -> String {
    let (name, unit) = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        .into_iter()
        .find(|&(_, u)| b >= u)
        .unwrap_or(("B", 1));
    if unit == 1 {
        format!("{b} B")
    } else {
        format!("{:.2} {name}", b as f64 / unit as f64)
    }
}

/// `4014080` → `4,014,080`.
pub fn group_digits(n: impl std::fmt::Display) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside() {
        assert_eq!(
            clock_ticks(0.0, 75.0, 8),
            vec![0, 10, 20, 30, 40, 50, 60, 70]
        );
        assert_eq!(clock_ticks(2.5, 5.0, 10), vec![3, 4, 5]);
        let t = address_ticks(0.0, 4_014_080.0, 5, false);
        assert_eq!(t[1], 1 << 20, "{t:?}");
        assert!(t.iter().all(|&a| a <= 4_014_080));
        let h = address_ticks(0.0, 4_014_080.0, 5, true);
        assert_eq!(h[1], 1 << 20, "{h:?}");
        assert_eq!(address_label(1 << 20, 4e6, true), "0x100000");
        assert_eq!(address_label(3 << 19, 4e6, false), "1.5 MiB");
    }

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(bytes_long(4_014_080), "4,014,080 B (3.83 MiB)");
        assert_eq!(bytes_long(12), "12 B");
        assert_eq!(group_digits(100), "100");
        assert_eq!(group_digits(1000), "1,000");
    }
}
