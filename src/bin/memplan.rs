//! The `memplan` command line. All logic lives in `memplan::cli` (native only).
fn main() -> std::process::ExitCode {
    memplan::cli::main()
}
