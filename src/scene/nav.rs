//! Keyboard navigation between planes: the arrow keys move the selection to the
//! nearest plane in time (left/right) or address (up/down), `P` to the plane at the
//! peak. Pure functions of the chart, so the page, the embedded element and the
//! tests agree on where a key leads.

use super::chart::{Chart, Part};

/// A direction on the chart: time runs right, addresses run up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Left,
    Right,
    Up,
    Down,
}

impl Dir {
    /// `ArrowLeft`, `ArrowRight`, `ArrowUp`, `ArrowDown` (the DOM's key names).
    pub fn from_key(key: &str) -> Option<Dir> {
        Some(match key {
            "ArrowLeft" => Dir::Left,
            "ArrowRight" => Dir::Right,
            "ArrowUp" => Dir::Up,
            "ArrowDown" => Dir::Down,
            _ => return None,
        })
    }
}

/// Centre of a part as fractions of the horizon and of its lane's extent.
fn centre(chart: &Chart, q: &Part) -> (f64, f64) {
    let h = chart.horizon().max(1) as f64;
    let e = chart.lanes().get(q.lane).map_or(1, |l| l.extent.max(1)) as f64;
    (
        (f64::from(q.t0) + q.t1 as f64) / 2.0 / h,
        (q.a0 as f64 + q.a1 as f64) / 2.0 / e,
    )
}

/// The plane an arrow key leads to from `from`: among the planes of the same lane
/// whose centre lies in that direction, the closest one, where straying sideways
/// costs three times as much as going forward (so Right follows the planes of one
/// address band through time). `None` at the edge.
pub fn neighbour(chart: &Chart, from: usize, dir: Dir) -> Option<usize> {
    let cur = chart.parts_of(from).next()?;
    let (ct, ca) = centre(chart, cur);
    let mut best: Option<(f64, usize)> = None;
    for q in chart
        .parts()
        .iter()
        .filter(|q| q.lane == cur.lane && q.plane != from)
    {
        let (t, a) = centre(chart, q);
        let (ahead, side) = match dir {
            Dir::Right => (t - ct, a - ca),
            Dir::Left => (ct - t, a - ca),
            Dir::Up => (a - ca, t - ct),
            Dir::Down => (ca - a, t - ct),
        };
        if ahead <= 0.0 {
            continue;
        }
        let cost = ahead + 3.0 * side.abs();
        if best.map_or(true, |(c, p)| cost < c || (cost == c && q.plane < p)) {
            best = Some((cost, q.plane));
        }
    }
    best.map(|(_, p)| p)
}

/// The plane that reaches the highest address of the lane with the largest peak:
/// the one the peak line touches.
pub fn peak_plane(chart: &Chart) -> Option<usize> {
    let lane = (0..chart.lanes().len()).max_by_key(|&i| chart.lanes()[i].peak)?;
    chart
        .parts()
        .iter()
        .filter(|q| q.lane == lane)
        .max_by(|a, b| a.a1.cmp(&b.a1).then(b.t0.cmp(&a.t0)))
        .map(|q| q.plane)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, BufferList};

    /// Three buffers in a row at the bottom (0→1→2 in time) and one above the middle.
    fn chart() -> Chart {
        let b = |id: &str, lower, upper, size| Buffer::new(id, lower, upper, size);
        let list = BufferList {
            buffers: vec![
                b("a", 0, 2, 100),
                b("b", 2, 4, 100),
                b("c", 4, 6, 100),
                b("top", 2, 4, 50),
            ],
            capacity: None,
        };
        Chart::new(list.to_plan(&[0, 0, 0, 100]))
    }

    #[test]
    fn arrows_walk_time_and_address() {
        let c = chart();
        assert_eq!(neighbour(&c, 0, Dir::Right), Some(1));
        assert_eq!(neighbour(&c, 1, Dir::Right), Some(2));
        assert_eq!(neighbour(&c, 2, Dir::Right), None);
        assert_eq!(neighbour(&c, 2, Dir::Left), Some(1));
        assert_eq!(neighbour(&c, 1, Dir::Up), Some(3));
        assert_eq!(neighbour(&c, 3, Dir::Down), Some(1));
        assert_eq!(neighbour(&c, 0, Dir::Down), None);
    }

    #[test]
    fn peak_is_the_highest_plane() {
        assert_eq!(peak_plane(&chart()), Some(3));
    }
}
