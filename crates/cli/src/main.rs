//! The `spielleiter` binary: parses the command line and hands over to the
//! subcommand. Everything of substance lives in the library crates; each
//! subcommand has its own module.

mod perft;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Spielleiter: hosts Software-Challenge style AI matches.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count Blokus 2021 move sequences from a position (move generator check
    /// and benchmark).
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            eprintln!("spielleiter: no server yet; see `spielleiter --help`");
            return ExitCode::FAILURE;
        }
        Some(Command::Perft(args)) => perft::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("spielleiter: {error:#}");
            ExitCode::FAILURE
        }
    }
}
