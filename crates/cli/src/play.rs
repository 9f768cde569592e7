//! `spielleiter play`: one game with a built-in bot, started with the
//! contest's convention (`--host`, `--port`, `--reservation`), so the bot
//! can stand in for any player program.

use std::time::Duration;

use anyhow::Context;
use clap::{ArgAction, Args};
use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{Connection, PlayOptions, play};
use spielleiter_protocol::{GameState, seats::seat_label};
use spielleiter_rules::GameType;

use crate::{game_help, show};

/// Plays one game. `-h` is the host, as the contest's clients have it;
/// help is `--help`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The built-in bot (the help names the games of the rule breaker).
    #[arg(long, default_value = "greedy", value_name = "BOT", help = game_help::play_bot())]
    bot: BotKind,
    /// The game, to join without a reservation; with one, the room's first
    /// state tells it.
    #[arg(long, value_name = "ID", help = game_help::play_game())]
    game: Option<GameType>,
    /// The server's host.
    #[arg(short = 'h', long, default_value = "localhost")]
    host: String,
    /// The server's port.
    #[arg(short, long, default_value_t = 13050, allow_negative_numbers = true)]
    port: u16,
    /// Reservation code of a prepared slot; without one, the bot joins any
    /// open game of `--game` (or opens one).
    #[arg(short, long, value_name = "CODE")]
    reservation: Option<String>,
    /// Milliseconds between a move request and the bot's answer.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    think_ms: u64,
    /// Seed of the random bot [default: from the OS].
    #[arg(long)]
    seed: Option<u64>,
    /// Print help.
    #[arg(long, action = ArgAction::Help)]
    help: Option<bool>,
}

/// Connects, joins, plays until the server ends the game, prints the result.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(play_game(args))
}

async fn play_game(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(rand::random);
    // A bot that cannot play the game named is refused before connecting.
    if let Some(game) = args.game {
        args.bot.build(game, seed)?;
    }
    let mut connection = Connection::connect((args.host.as_str(), args.port)).await?;
    let (room, game) = match (&args.reservation, args.game) {
        (Some(code), Some(game)) => (connection.join_prepared(code, game).await?, game),
        (Some(code), None) => {
            connection
                .join_prepared_learning(code, GameType::DEFAULT)
                .await?
        }
        (None, game) => {
            let game = game.unwrap_or(GameType::DEFAULT);
            (connection.join(game).await?, game)
        }
    };
    let mut bot = args.bot.build(game, seed)?;
    println!("{} joined room {room} ({game})", args.bot);
    let options = PlayOptions {
        think: Duration::from_millis(args.think_ms),
    };
    let report = play(&mut connection, &room, options, |game| {
        bot.choose_move(game)
    })
    .await?;
    if let Some(seat) = report.seat {
        println!(
            "played team {} with {} moves",
            seat_label(seat),
            report.moves_sent
        );
    }
    for error in &report.errors {
        println!("server: {error}");
    }
    let names = report
        .final_state
        .as_ref()
        .map(GameState::display_names)
        .unwrap_or_default();
    match &report.result {
        Some(result) => {
            print!("{}", show::result_text(game, result, &names));
            Ok(())
        }
        None => anyhow::bail!("the server ended the connection without a result"),
    }
}
