//! `memplan plan`'s progress line on stderr: a search can run for its whole budget,
//! and a silent terminal for seconds looks hung. The line
//! appears only once planning has taken a second, so quick plans print nothing,
//! and never when stderr is not a terminal (indicatif hides it), so scripts and
//! piped output see no control characters.

use crate::strategies::{Progress, ProgressFn};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::rc::Rc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long planning runs before the line appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// The line, hidden until [`SHOW_AFTER`]; a thread shows it and keeps its spinner
/// and clock moving while the planner, on this thread, reports better peaks.
pub(super) struct Line {
    bar: ProgressBar,
    stop: Option<mpsc::Sender<()>>,
    ticker: Option<JoinHandle<()>>,
}

impl Line {
    /// Starts the clock of a plan with a budget of `budget_ms` milliseconds.
    pub(super) fn start(budget_ms: u64) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{spinner} planning {elapsed} {msg}") {
            bar.set_style(style);
        }
        bar.set_message(format!("(budget {} s)", budget_ms as f64 / 1000.0));
        let (stop, stopped) = mpsc::channel::<()>();
        let shown = bar.clone();
        let ticker = std::thread::spawn(move || {
            if stopped.recv_timeout(SHOW_AFTER) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            shown.set_draw_target(ProgressDrawTarget::stderr());
            while stopped.recv_timeout(Duration::from_millis(100)) == Err(RecvTimeoutError::Timeout)
            {
                shown.tick();
            }
        });
        Line {
            bar,
            stop: Some(stop),
            ticker: Some(ticker),
        }
    }

    /// The callback for [`crate::strategies::Budget::progress`]: the best peak so far
    /// and how far above the lower bound it is.
    pub(super) fn report(&self) -> ProgressFn {
        let bar = self.bar.clone();
        Rc::new(move |p: &Progress| {
            let over = if p.lower_bound == 0 {
                0.0
            } else {
                (p.best_peak as f64 / p.lower_bound as f64 - 1.0) * 100.0
            };
            bar.set_message(format!(
                "best peak {} bytes, +{over:.2} % over the lower bound {}",
                p.best_peak, p.lower_bound
            ));
        })
    }
}

impl Drop for Line {
    /// Stops the ticker and erases the line, so the next output starts clean.
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
        self.bar.finish_and_clear();
    }
}
