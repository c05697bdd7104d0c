//! The `memplan` command line (native only). `src/bin/memplan.rs` calls [`main`].
//!
//! Output contract: results on stdout; errors on stderr as `memplan: FILE: place:
//! message` with exit status 2; `check` exits 1 when it finds problems.

pub mod args;
mod commands;
mod components;
mod fit;
mod progress;
mod render;
mod tile;

use args::Command;
use std::process::ExitCode;

/// Exit status of a successful run.
pub const OK: u8 = 0;
/// `check` found problems.
pub const INVALID: u8 = 1;
/// Unreadable input, bad usage, unwritable output.
pub const FAILED: u8 = 2;

/// Lets a closed pipe end the process silently (`memplan stats big.csv | head`),
/// as it ends `cat` or `grep`: Rust's runtime ignores SIGPIPE, which turns the
/// write into an error and every `println!` into a panic.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first in `main`, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs one subcommand.
fn run(command: Command) -> crate::Result<u8> {
    match command {
        Command::Stats(a) => commands::stats(a),
        Command::Plan(a) => commands::plan(a),
        Command::Check(a) => commands::check(a),
        Command::Convert(a) => commands::convert(a),
        Command::Render(a) => render::render(a),
        Command::Fit(a) => fit::fit(a),
        Command::Tile(a) => tile::tile(a),
    }
}

/// Parses the arguments, runs the command, maps the outcome to an exit status.
pub fn main() -> ExitCode {
    restore_sigpipe();
    std::panic::set_hook(Box::new(|info| {
        eprintln!("memplan: internal error (a bug, please report it with the input): {info}");
    }));
    let cli = match <args::Cli as clap::Parser>::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { FAILED } else { OK });
        }
    };
    match std::panic::catch_unwind(|| run(cli.command)) {
        Ok(Ok(code)) => ExitCode::from(code),
        Ok(Err(e)) => {
            eprintln!("memplan: {e}");
            ExitCode::from(FAILED)
        }
        Err(_) => ExitCode::from(101),
    }
}
