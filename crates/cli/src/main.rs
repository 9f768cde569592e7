//! The `spielleiter` binary: parses the command line and hands over to the
//! subcommand. Everything of substance lives in the library crates; each
//! subcommand has its own module.

mod perft;
mod serve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Spielleiter: hosts Software-Challenge style AI matches. Without a
/// subcommand it runs the server (`spielleiter serve`).
#[derive(Debug, Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: serve::ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the game server (the default).
    Serve(Box<serve::ServeArgs>),
    /// Count Blokus 2021 move sequences from a position (move generator check
    /// and benchmark).
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => serve::run(&cli.serve),
        Some(Command::Serve(args)) => serve::run(&args),
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
