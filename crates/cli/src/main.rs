//! The `spielleiter` binary: parses the command line and hands over to the
//! subcommand. Everything of substance lives in the library crates; each
//! subcommand has its own module.

mod arena_options;
mod blksgf;
mod contest;
mod demo;
mod environment;
mod game_help;
mod health;
mod log_filter;
mod match_command;
mod perft;
mod pictures;
mod play;
mod player;
mod season;
mod serve;
mod show;
mod tournament;
mod web_url;
mod worker;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

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
    #[command(disable_help_flag = true, before_help = HOST_NOTE)]
    Play(play::PlayArgs),
    /// Play many games of a game between its players and summarise them
    /// (the official TestClient, plus `--game`, parallel games, resumable
    /// results and Elo).
    #[command(disable_help_flag = true, before_help = HOST_NOTE)]
    Match(Box<match_command::MatchArgs>),
    /// A round-robin league of a game between any number of players
    /// (programs or built-in bots), ranked by the game's rule, with a
    /// rating per player; resumable.
    #[command(disable_help_flag = true, before_help = HOST_NOTE)]
    Tournament(Box<tournament::TournamentArgs>),
    /// A contest for teams kept in a store (a SQLite file or PostgreSQL):
    /// make it, add teams with one-time links for their teachers, disable
    /// teams and members, print password-reset links.
    Contest {
        #[command(subcommand)]
        command: contest::ContestCommand,
    },
    /// A contest season kept in a store (a SQLite file or PostgreSQL):
    /// create it, see its progress and standings, fetch a game's replay.
    Season {
        #[command(subcommand)]
        command: season::SeasonCommand,
    },
    /// Play a season's games from its store until none is left (run one
    /// per machine, or many).
    Worker(Box<worker::WorkerArgs>),
    /// Watch one whole game of built-in bots on a server started in this
    /// process.
    Demo(demo::DemoArgs),
    /// Count a game's move sequences from a position (move generator check
    /// and benchmark).
    Perft(perft::PerftArgs),
    /// Draw one position of a replay as SVG or PNG (`-o FILE.svg`,
    /// `-o FILE.png`).
    Render(pictures::RenderArgs),
    /// Look at replays in the terminal (`show`), or write them in another
    /// format (`export`).
    Replay {
        #[command(subcommand)]
        command: pictures::ReplayCommand,
    },
    /// Check that a server answers on its game port (exit status 0), e.g. as
    /// a container's health check. Finds the port in the server's settings
    /// (config file, `--listen`, `--port` and their variables).
    #[command(
        mut_arg("listen", |arg| arg.help(
            "The address the server listens on, as `serve` takes it [default: 127.0.0.1]"
        )),
        mut_arg("port", |arg| arg.help(
            "The server's game port, as `serve` takes it [default: 13050]"
        )),
        mut_arg("http_port", |arg| arg.help(
            "The server's web port, as `serve` takes it [default: 13080]"
        )),
        mut_arg("http", |arg| arg.help(
            "Whether the server serves its web side, as `serve` takes it [default: true]"
        ))
    )]
    Health(health::HealthArgs),
    /// Teams' player programs for the sandbox (`--player NAME=docker:IMAGE`).
    Player {
        #[command(subcommand)]
        command: player::PlayerCommand,
    },
    /// The server benchmark moved to a binary of its own; this only says so.
    #[command(hide = true, disable_help_flag = true)]
    Bench {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// Said first in the help of the commands whose `-h` is the host.
const HOST_NOTE: &str = "Note: -h is --host here, as the contest's clients (and the official \
                         TestClient) have it; help is --help, or -h with no host after it.";

/// The commands whose `-h` is `--host`, as the contest's clients have it.
const HOST_COMMANDS: [&str; 3] = ["play", "match", "tournament"];

/// `args` with a bare `-h` of a command whose `-h` is `--host` (one with no
/// value after it: last, or before another option) turned into `--help`,
/// so that it prints help instead of an error.
fn bare_host_flag_asks_for_help(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let is_host_command = args
        .get(1)
        .and_then(|command| command.to_str())
        .is_some_and(|command| HOST_COMMANDS.contains(&command));
    if !is_host_command {
        return args;
    }
    for index in 2..args.len() {
        if args[index] != "-h" {
            continue;
        }
        let next = args.get(index + 1).and_then(|next| next.to_str());
        if next.is_none_or(|next| next.starts_with('-')) {
            args[index] = "--help".into();
        }
    }
    args
}

fn main() -> ExitCode {
    exit_quietly_on_closed_pipe();
    let args = bare_host_flag_asks_for_help(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(args) {
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
        Some(Command::Season { command }) => season::run(&command),
        Some(Command::Contest { command }) => contest::run(&command),
        Some(Command::Worker(args)) => worker::run(&args),
        Some(Command::Demo(args)) => demo::run(&args),
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Health(args)) => health::run(&args),
        Some(Command::Render(args)) => pictures::render(&args),
        Some(Command::Replay { command }) => pictures::replay(&command),
        Some(Command::Player { command }) => player::run(&command),
        Some(Command::Bench { args }) => Err(anyhow::anyhow!(
            "the server benchmark is a binary of its own: `spielleiter-bench {}` (`cargo run --release -p spielleiter-bench -- …`)",
            args.join(" ")
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("spielleiter: {error:#}");
            if error.is::<arena_options::Interrupted>() {
                ExitCode::from(INTERRUPTED_STATUS)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// The exit status of a run stopped by Ctrl-C, as a shell reports a
/// command ended by SIGINT.
const INTERRUPTED_STATUS: u8 = 128 + 2;

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
