//! The `spielleiter` binary: parses the command line and hands over to the
//! subcommand. Everything of substance lives in the library crates.

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
enum Command {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            eprintln!("spielleiter: no server yet; see `spielleiter --help`");
            ExitCode::FAILURE
        }
        Some(command) => match command {},
    }
}
