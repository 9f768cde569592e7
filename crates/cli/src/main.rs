//! The `spielleiter` binary: parses the command line and hands over to the
//! subcommand. Everything of substance lives in the library crates; each
//! subcommand has its own module.

mod arena_options;
mod bench;
mod blksgf;
mod counts_line;
mod demo;
mod environment;
mod health;
#[cfg(feature = "heap-profile")]
mod heap_profile;
mod match_command;
mod observers;
mod perft;
mod pictures;
mod play;
mod player;
mod serve;
mod show;
mod syscalls;
mod tournament;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// With the feature `heap-profile`, dhat's allocator records every
/// allocation while a profile is being taken (`bench --heap-profile`).
#[cfg(feature = "heap-profile")]
#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

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
    /// Play one game with a built-in bot, started like a contest client
    /// (`-h HOST -p PORT -r RESERVATION`).
    #[command(disable_help_flag = true)]
    Play(play::PlayArgs),
    /// Play many games of a game between its players and summarise them
    /// (the official TestClient, plus `--game`, parallel games, resumable
    /// results and Elo).
    #[command(disable_help_flag = true)]
    Match(Box<match_command::MatchArgs>),
    /// A round-robin league of a game between any number of players
    /// (programs or built-in bots), ranked by the game's rule, with a
    /// rating per player; resumable.
    #[command(disable_help_flag = true)]
    Tournament(Box<tournament::TournamentArgs>),
    /// Watch one whole game of built-in bots on a server started in this
    /// process.
    Demo(demo::DemoArgs),
    /// Measure the server: many concurrent games of built-in bots over
    /// loopback TCP (games per minute, server-added latency, memory, clock).
    Bench(bench::BenchArgs),
    /// Count a game's move sequences from a position (move generator check
    /// and benchmark).
    Perft(perft::PerftArgs),
    /// Draw one position of a replay as SVG or PNG (`-o FILE.svg`,
    /// `-o FILE.png`).
    Render(pictures::RenderArgs),
    /// Look at replays in the terminal.
    Replay {
        #[command(subcommand)]
        command: pictures::ReplayCommand,
    },
    /// Check that a server answers on its game port (exit status 0), e.g. as
    /// a container's health check. Finds the port in the server's settings
    /// (config file, `--listen`, `--port` and their variables).
    Health(health::HealthArgs),
    /// Teams' player programs for the sandbox (`--player NAME=docker:IMAGE`).
    Player {
        #[command(subcommand)]
        command: player::PlayerCommand,
    },
}

fn main() -> ExitCode {
    exit_quietly_on_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => match environment::explain_parse_error(Cli::command(), &error) {
            Some(text) => {
                eprintln!("spielleiter: {text}");
                return ExitCode::from(2);
            }
            None => error.exit(),
        },
    };
    let result = match cli.command {
        None => serve::run(&cli.serve),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Match(args)) => match_command::run(&args),
        Some(Command::Tournament(args)) => tournament::run(&args),
        Some(Command::Demo(args)) => demo::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Health(args)) => health::run(&args),
        Some(Command::Render(args)) => pictures::render(&args),
        Some(Command::Replay { command }) => pictures::replay(&command),
        Some(Command::Player { command }) => player::run(&command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("spielleiter: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The exit status of a program ended by SIGPIPE, as a shell reports it.
const CLOSED_PIPE_STATUS: i32 = 128 + 13;

/// Output into a closed pipe (`spielleiter … | head`) ends the program
/// quietly, as it ends other command-line tools. Rust ignores SIGPIPE, so
/// printing then panics instead; that panic becomes a quiet exit.
fn exit_quietly_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(CLOSED_PIPE_STATUS);
        }
        report(info);
    }));
}
