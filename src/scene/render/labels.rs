//! Plane names inside their planes, and the rule that shortens a name to its room
//! (shared with the step names under the clock ticks).

use super::{plane_fill, style, Drawn, Frame, LaneCtx, FONT};
use crate::scene::chart::SEPARATORS;
use crate::scene::paint::{Align, Painter, Rect};
use std::collections::BTreeMap;

/// At most this many labels per frame: beyond, nobody reads them.
const MAX_LABELS: usize = 4000;

/// How names are shortened to fit: the start most names of the plan share, and the
/// operator type of the name's writer.
pub(super) struct Short<'a> {
    pub(super) prefix: &'a str,
    pub(super) kind: &'a str,
}

impl Short<'_> {
    /// The name, or a shorter form of it that fits in `room` pixels at font `size`,
    /// with its width: what tells it from its neighbours first. In order, the first
    /// that fits: the whole; the first of several names joined by `;` (a TFLite
    /// tensor of fused operators names its own first), without the start most names
    /// share (`functional_3_1/`: every box of a TFLite model read `functional_…`) and
    /// without a token repeated right after itself (`layer1_layer1_0_conv1` →
    /// `layer1_0_conv1`); without a trailing operator type (`_Conv`, `/Relu6`: the
    /// colour and the tooltip tell it); then, as the room shrinks, its head and its
    /// last token (`layer1_0…conv1`), its head (`block_1_ex…`, at least [`MIN_HEAD`]
    /// characters), and last its writer's operator type (`Conv2D`). A short form is
    /// never a bare index: a step that would leave no letter is skipped
    /// (`m_layers_0_Add` of a transformer, whose shared start is `m_layers_`, reads
    /// `0_Add`, not `0`; one layer's `Add` from another's).
    pub(super) fn fit(
        &self,
        name: &str,
        room: f64,
        size: f64,
        p: &mut dyn Painter,
    ) -> Option<(String, f64)> {
        let mut fits = |t: &str| {
            let w = p.text_width(t, size, false);
            (w <= room).then_some(w)
        };
        if let Some(w) = fits(name) {
            return Some((name.to_owned(), w));
        }
        let first = name
            .split(';')
            .find(|s| !s.trim().is_empty())
            .unwrap_or(name);
        // The shared start goes before repeats collapse (which would change it).
        let first = match first.strip_prefix(self.prefix) {
            Some(rest) if !self.prefix.is_empty() && meaningful(rest) => rest,
            _ => first,
        };
        let mut short = collapse_repeats(first);
        let steps: [&dyn Fn(&str) -> String; 2] =
            [&|s| s.to_owned(), &|s| without_kind(s).to_owned()];
        for step in steps {
            let next = step(&short);
            if !meaningful(&next) && meaningful(&short) {
                continue;
            }
            short = next;
            if let Some(w) = fits(&short) {
                return Some((short, w));
            }
        }
        let chars: Vec<char> = short.chars().collect();
        // The last token, when short enough to be what tells the name apart and more
        // than a number (`layer…_1` says less than `layer1_1_r…`).
        let last = short
            .rfind(SEPARATORS)
            .map(|i| &short[i..])
            .filter(|t| (3..=9).contains(&t.chars().count()))
            .filter(|t| t.chars().skip(1).any(|c| !c.is_ascii_digit()));
        let tail_len = last.map_or(0, |t| t.chars().count());
        // Estimate from the average glyph width, then step down until it fits.
        let avg = p.text_width(&short, size, false) / chars.len().max(1) as f64;
        let mut fits = |t: &str| {
            let w = p.text_width(t, size, false);
            (w <= room).then_some(w)
        };
        if let Some(last) = last {
            let head_max = chars.len().saturating_sub(tail_len + 1);
            let mut n = (((room / avg) as usize).saturating_sub(tail_len + 1)).min(head_max);
            while n >= MIN_HEAD {
                let t: String = chars[..n].iter().chain(['…'].iter()).collect::<String>() + last;
                if let Some(w) = fits(&t) {
                    return Some((t, w));
                }
                n -= 1;
            }
        }
        let mut n = ((room / avg) as usize).min(chars.len().saturating_sub(1));
        while n >= MIN_HEAD {
            let t: String = chars[..n].iter().chain(['…'].iter()).collect();
            if let Some(w) = fits(&t) {
                return Some((t, w));
            }
            n -= 1;
        }
        let kind = self.kind.trim();
        fits(kind)
            .filter(|_| !kind.is_empty())
            .map(|w| (kind.to_owned(), w))
    }
}

/// Whether a short form says something: a letter in it (`0`, `12` of a name whose
/// letters were its shared start and operator type say nothing).
fn meaningful(short: &str) -> bool {
    short.chars().any(char::is_alphabetic)
}

/// Fewer characters of a name's head than this say nothing: its head and last token,
/// or its operator type, or no label then.
const MIN_HEAD: usize = 5;

/// `name` without a last `_`- or `/`-separated token that is an operator type
/// (`Conv`, `MatMul`, TFLite's `Relu6`: an upper-case letter then letters or digits),
/// when something is left.
fn without_kind(name: &str) -> &str {
    match name.rsplit_once(['_', '/']) {
        Some((head, kind))
            if !head.is_empty()
                && kind.starts_with(|c: char| c.is_ascii_uppercase())
                && kind.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            head
        }
        _ => name,
    }
}

/// `name` without a `_`/`.`/`/`-separated token that repeats the one before it
/// (ONNX paths exported by Aidge read `layer1_layer1_0_…`).
fn collapse_repeats(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut last: Option<&str> = None;
    let mut rest = name;
    while !rest.is_empty() {
        let end = rest.find(['_', '.', '/']).map_or(rest.len(), |i| i + 1);
        let (tok, more) = rest.split_at(end);
        let word = tok.trim_end_matches(['_', '.', '/']);
        if last != Some(word) || word.is_empty() {
            out.push_str(tok);
        }
        last = Some(word);
        rest = more;
    }
    out
}

impl LaneCtx<'_> {
    /// Names inside their planes where they fit, largest planes first, never overlapping
    /// another label; a label stays in the span before a later plane covers its plane.
    pub(super) fn place_labels(&self, drawn: &[Drawn], p: &mut dyn Painter, frame: &mut Frame) {
        let LaneCtx {
            chart, view, l, b, ..
        } = *self;
        let clip = b.chart;
        let mut order: Vec<&Drawn> = drawn
            .iter()
            .filter(|d| d.rect.h >= FONT + 2.0 && d.rect.w >= 12.0)
            .collect();
        order.sort_by(|a, b| (b.rect.w * b.rect.h).total_cmp(&(a.rect.w * a.rect.h)));
        // Placed boxes bucketed by 64-px column, to keep the overlap test short.
        let mut buckets: BTreeMap<i64, Vec<Rect>> = BTreeMap::new();
        let mut placed_planes: Vec<bool> = vec![false; chart.plan().planes.len()];
        for d in order {
            if frame.labels.len() >= MAX_LABELS {
                break;
            }
            if placed_planes[d.plane] {
                continue;
            }
            let covered = l.x_of(view, chart.covered_from(d.plane) as f64);
            let x0 = d.rect.x.max(clip.x);
            let x1 = d.rect.right().min(clip.right()).min(covered);
            let y0 = d.rect.y.max(clip.y);
            let y1 = d.rect.bottom().min(clip.bottom());
            if x1 - x0 < 12.0 || y1 - y0 < FONT + 2.0 {
                continue;
            }
            let kind = chart
                .plan()
                .steps
                .get(chart.plan().planes[d.plane].node)
                .map_or("", |s| s.kind.as_str());
            let short = Short {
                prefix: chart.name_prefix(),
                kind,
            };
            let Some((name, w)) = short.fit(&chart.name(d.plane), x1 - x0 - 6.0, FONT, p) else {
                continue;
            };
            let cx = (x0 + x1) / 2.0;
            let cy = (y0 + y1) / 2.0;
            let bx = Rect {
                x: cx - w / 2.0 - 2.0,
                y: cy - FONT / 2.0 - 1.0,
                w: w + 4.0,
                h: FONT + 2.0,
            };
            let k0 = (bx.x / 64.0).floor() as i64;
            let k1 = (bx.right() / 64.0).floor() as i64;
            let clash = (k0..=k1).any(|k| {
                buckets
                    .get(&k)
                    .is_some_and(|v| v.iter().any(|o| o.intersects(&bx)))
            });
            if clash {
                continue;
            }
            for k in k0..=k1 {
                buckets.entry(k).or_default().push(bx);
            }
            placed_planes[d.plane] = true;
            let color = plane_fill(chart, d.plane).color.text_on();
            p.text(&name, cx, cy, style(color, FONT, Align::Center));
            frame.labels.push((d.plane, bx, name));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::collapse_repeats;

    #[test]
    fn a_trailing_operator_type_is_dropped() {
        use super::without_kind;
        assert_eq!(without_kind("layer1_0_conv1_Conv"), "layer1_0_conv1");
        assert_eq!(without_kind("block0_fc1_add"), "block0_fc1_add");
        assert_eq!(without_kind("Conv"), "Conv");
    }

    /// Issue #50, item 3: a transformer's labels shrank to "0"…"11" (`m_layers_0_Add`:
    /// the shared start `m_layers_` and the operator type left the index alone).
    #[test]
    fn a_short_form_is_never_a_bare_index() {
        use super::Short;
        use crate::scene::paint::RecordingPainter;
        let short = Short {
            prefix: "m_layers_",
            kind: "Add",
        };
        let mut p = RecordingPainter::new();
        for room in (10..200).step_by(5) {
            for name in ["m_layers_0_Add", "m_layers_11_Add", "m_layers_3"] {
                if let Some((text, _)) = short.fit(name, f64::from(room), 11.0, &mut p) {
                    assert!(
                        text.chars().any(char::is_alphabetic),
                        "{name} in {room} px: {text:?}"
                    );
                }
            }
        }
        let wide = short.fit("m_layers_0_Add", 1e9, 11.0, &mut p).unwrap().0;
        assert_eq!(wide, "m_layers_0_Add");
    }

    #[test]
    fn a_token_repeated_right_after_itself_is_dropped() {
        assert_eq!(
            collapse_repeats("layer1_layer1_0_conv1_Conv"),
            "layer1_0_conv1_Conv"
        );
        assert_eq!(collapse_repeats("a__b"), "a__b");
        assert_eq!(collapse_repeats("conv1_Conv"), "conv1_Conv");
        assert_eq!(collapse_repeats("x/x/y"), "x/y");
    }
}
