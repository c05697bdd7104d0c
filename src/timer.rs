//! Wall-clock time for budgets and reports: the one module of the core that reads the
//! browser's clock. `std::time::Instant` panics in wasm32, so the page's build reads
//! `Date.now()` instead; results stay reproducible because the searches also stop at a
//! deterministic node limit (see [`crate::strategies::Budget::max_nodes`]).

/// Milliseconds since the timer started.
pub struct Timer {
    #[cfg(not(target_arch = "wasm32"))]
    start: std::time::Instant,
    #[cfg(target_arch = "wasm32")]
    start: f64,
}

impl Timer {
    pub fn start() -> Self {
        Timer {
            #[cfg(not(target_arch = "wasm32"))]
            start: std::time::Instant::now(),
            #[cfg(target_arch = "wasm32")]
            start: js_sys::Date::now(),
        }
    }

    /// Elapsed time in milliseconds, as a float for sub-millisecond bench figures.
    pub fn elapsed(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.start.elapsed().as_secs_f64() * 1000.0
        }
        #[cfg(target_arch = "wasm32")]
        {
            (js_sys::Date::now() - self.start).max(0.0)
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.elapsed() as u64
    }
}
