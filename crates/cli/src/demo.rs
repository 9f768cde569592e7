//! `spielleiter demo`: the quickest way to see a whole game. Starts a server
//! and its web side in this process, lets two built-in bots play one game
//! over real TCP, and prints the game as it goes, the final board, the
//! result and the replay file.
//!
//! By default the game is paced so that a person can follow it: the room
//! is prepared paused and the demo, observing it as administrator, lets it
//! ask for one move at a time ([`DEFAULT_PACE_MS`] apart), printing each
//! position (the board redrawn in a terminal, a line per move otherwise)
//! while the live page shows the same game. A long game keeps to about a
//! minute ([`PACED_BUDGET`]): past it the rest is played at full speed.
//! `--fast` plays at full speed and prints only the end, as before.

use std::{
    io::{IsTerminal, Write},
    net::{Ipv4Addr, SocketAddr},
    path::PathBuf,
    time::{Duration, SystemTime},
};

use anyhow::Context;
use clap::Args;
use spielleiter_arena::{LocalServer, LocalServerSettings, distinct_names};
use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{Connection, GameReport, PlayOptions, play};
use spielleiter_protocol::{ClientMessage, Prepare, RoomData, ServerMessage, SlotDescriptor};
use spielleiter_render::{Labels, picture};
use spielleiter_rules::{AnyGame, Game, GameType};
use spielleiter_server::{config::HttpPublic, replay::archive::find_published};
use spielleiter_web::{Access, EmbeddedWeb, WebSettings};

use spielleiter_protocol::seats::seat_label;

use crate::{game_help, show};

/// Settings of the demo game.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The game.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID", help = game_help::with_example("The game"))]
    game: GameType,
    /// The bot of team ONE (in Blokus: BLUE and RED, moves first).
    #[arg(long, default_value = "greedy", value_name = "BOT")]
    one: BotKind,
    /// The bot of team TWO (in Blokus: YELLOW and GREEN); in games of
    /// more players, of every further team.
    #[arg(long, default_value = "random", value_name = "BOT")]
    two: BotKind,
    /// Where the replay is written.
    #[arg(long, default_value = "replays", value_name = "DIR")]
    replay_dir: PathBuf,
    /// Seed of the start piece and the random bot [default: from the OS].
    #[arg(long)]
    seed: Option<u64>,
    /// Play at full speed and print only the end (no pacing, no live
    /// page).
    #[arg(long)]
    fast: bool,
    /// Milliseconds between two moves of the paced game.
    #[arg(long, default_value_t = DEFAULT_PACE_MS, value_name = "MS", conflicts_with = "fast")]
    pace_ms: u64,
}

/// The pause between two moves by default: long enough to see each.
pub const DEFAULT_PACE_MS: u64 = 400;

/// How long a paced game is paced at most; the rest is played at full
/// speed, so that the demo ends in about a minute whatever the game.
pub const PACED_BUDGET: Duration = Duration::from_secs(50);

/// What the paced demo does after a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Wait this long, then let the room ask for one move.
    Step(Duration),
    /// The budget is spent: let the room play on by itself.
    Release,
}

/// The pacing after `elapsed` of paced play, with `pace` between moves.
fn next_step(elapsed: Duration, pace: Duration) -> Next {
    if elapsed + pace > PACED_BUDGET {
        Next::Release
    } else {
        Next::Step(pace)
    }
}

/// Plays the demo game and prints it.
pub fn run(args: &DemoArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(demo(args))
}

async fn demo(args: &DemoArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(rand::random);
    let kinds: Vec<BotKind> = (0..args.game.player_count())
        .map(|seat| if seat == 0 { args.one } else { args.two })
        .collect();
    // Every bot is built first: one that does not play the game is refused
    // before anything is started or printed.
    let mut bots = Vec::new();
    for (index, kind) in kinds.iter().enumerate() {
        bots.push(kind.build(args.game, seed.wrapping_add(index as u64))?);
    }
    let server = LocalServer::start(LocalServerSettings {
        port: 0,
        replay_dir: Some(args.replay_dir.clone()),
        seed: Some(seed),
        ..LocalServerSettings::default()
    })
    .await?;
    let paced = !args.fast;
    // The live page, in this process on a free loopback port.
    let web = if paced {
        let loopback = Ipv4Addr::LOCALHOST.into();
        Some(
            EmbeddedWeb::start(
                SocketAddr::new(loopback, 0),
                std::sync::Arc::clone(server.stats()),
                WebSettings::new(
                    Access::new(loopback, HttpPublic::Auto, None),
                    server.replay_dir().cloned(),
                ),
            )
            .await
            .context("cannot start the live page")?,
        )
    } else {
        None
    };
    let since = SystemTime::now();
    let names = distinct_names(kinds.iter().map(|kind| kind.name().to_owned()).collect());
    let teams: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(seat, name)| format!("{name} (team {})", seat_label(seat)))
        .collect();
    println!(
        "Spielleiter demo of {} on {}: {}",
        args.game,
        server.addr(),
        teams.join(" vs ")
    );

    let mut admin = Connection::over(server.in_process().administrator().await?).await?;
    let prepared = admin
        .prepare(Prepare {
            seed: None,
            wire_log: false,
            game_type: Some(args.game.id().to_owned()),
            // The paced game asks for each move when the demo says so.
            pause: paced,
            slots: names
                .iter()
                .map(|name| SlotDescriptor {
                    display_name: Some(name.clone()),
                    can_timeout: true,
                    reserved: true,
                })
                .collect(),
        })
        .await?;
    let room = prepared.room_id.clone();
    if let Some(web) = &web {
        println!(
            "Live page: http://{}/rooms/{room} (open while the game runs)",
            web.addr()
        );
        admin.observe(&room, args.game).await?;
    }
    let mut players = Vec::new();
    for (code, mut bot) in prepared.reservations.iter().zip(bots) {
        let mut connection = Connection::connect(server.addr()).await?;
        let room = connection.join_prepared(code, args.game).await?;
        players.push(tokio::spawn(async move {
            play(&mut connection, &room, PlayOptions::default(), |game| {
                bot.choose_move(game)
            })
            .await
        }));
    }
    let replay_dir = server
        .replay_dir()
        .cloned()
        .unwrap_or_else(|| args.replay_dir.clone());
    // The paced game's last position as its observer saw it: a player of
    // a paused room gets the result without the state its last move made.
    let followed = if paced {
        let pace = Duration::from_millis(args.pace_ms);
        follow(&mut admin, &room, pace, &names).await?
    } else {
        None
    };
    let mut reports: Vec<GameReport> = Vec::new();
    for player in players {
        reports.push(player.await.context("a bot task failed")??);
    }
    drop(web);
    server.stop().await;

    let report = reports.first().context("no player report")?;
    let position = match followed {
        Some(game) => game,
        None => report
            .final_position()
            .context("the game sent no state")?
            .context("the final state is inconsistent")?,
    };
    let labels = Labels {
        names: names.to_vec(),
        notes: Vec::new(),
        ended: report.result.is_some(),
        last_move: None,
    };
    let color = std::io::stdout().is_terminal();
    println!("\n{}", picture(&position, &labels).text(color));
    let result = report
        .result
        .as_ref()
        .context("the game ended without a result")?;
    print!("{}", show::result_text(args.game, result, &names));
    match find_published(&replay_dir, &prepared.room_id, since).await {
        Some(path) => println!("Replay: {}", path.display()),
        None => println!("Replay: not found in {}", replay_dir.display()),
    }
    Ok(())
}

/// Follows the paced game as its observer: prints each position and lets
/// the paused room ask for the next move after `pace`, until the result
/// (or, past [`PACED_BUDGET`], lets the room play on by itself). Returns
/// the last position shown.
async fn follow(
    admin: &mut Connection,
    room: &str,
    pace: Duration,
    names: &[String],
) -> anyhow::Result<Option<AnyGame>> {
    let terminal = std::io::stdout().is_terminal();
    let started = tokio::time::Instant::now();
    let mut released = false;
    let mut positions = 0u32;
    let mut shown = None;
    let mut last = None;
    while let Some(message) = admin.recv().await? {
        let state = match message {
            ServerMessage::Room {
                data: RoomData::Memento(state),
                ..
            } => state,
            ServerMessage::Room {
                data: RoomData::Result(_),
                ..
            }
            | ServerMessage::Left { .. } => break,
            _ => continue,
        };
        // A step sends the players the state they were kept from, and
        // observers get it again: shown once.
        if shown.as_ref() == Some(&state) {
            continue;
        }
        let game = state
            .to_game()
            .context("the server sent an inconsistent state")?;
        show_position(&game, positions, names, terminal)?;
        shown = Some(state);
        positions += 1;
        let over = game.is_over();
        last = Some(game);
        if released || over {
            continue;
        }
        match next_step(started.elapsed(), pace) {
            Next::Step(wait) => {
                tokio::time::sleep(wait).await;
                admin
                    .send(&ClientMessage::Step {
                        room_id: room.to_owned(),
                        forced: false,
                    })
                    .await?;
            }
            Next::Release => {
                released = true;
                println!(
                    "(the rest at full speed: the demo keeps to about a minute; --pace-ms sets the pace)"
                );
                admin
                    .send(&ClientMessage::Pause {
                        room_id: room.to_owned(),
                        pause: false,
                    })
                    .await?;
            }
        }
    }
    Ok(last)
}

/// Prints position number `index` of the game: in a terminal the board
/// drawn anew in place, elsewhere one line.
fn show_position(
    game: &AnyGame,
    index: u32,
    names: &[String],
    terminal: bool,
) -> anyhow::Result<()> {
    let points: Vec<String> = (0..game.player_count())
        .map(|seat| {
            let score = game.score(seat);
            let points = score.as_slice().first().copied().unwrap_or_default();
            let name = names.get(seat).map_or("", String::as_str);
            format!("{name} {points}")
        })
        .collect();
    let next = match game.player_to_move() {
        Some(seat) if !game.is_over() => {
            format!(", {} to move", names.get(seat).map_or("", String::as_str))
        }
        _ => ", over".to_owned(),
    };
    let line = format!(
        "position {index:>3} (turn {}): {}{next}",
        game.turn(),
        points.join(" : ")
    );
    let mut out = std::io::stdout().lock();
    if terminal {
        let labels = Labels {
            names: names.to_vec(),
            notes: Vec::new(),
            ended: game.is_over(),
            last_move: None,
        };
        // Back to the top left and clear, then the board and the line.
        write!(
            out,
            "\x1b[H\x1b[2J{}\n{line}\n",
            picture(game, &labels).text(true)
        )?;
    } else {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paced_game_keeps_to_its_budget() {
        let pace = Duration::from_millis(DEFAULT_PACE_MS);
        assert_eq!(next_step(Duration::ZERO, pace), Next::Step(pace));
        assert_eq!(
            next_step(PACED_BUDGET - pace, pace),
            Next::Step(pace),
            "the last paced move"
        );
        assert_eq!(
            next_step(PACED_BUDGET - pace + Duration::from_millis(1), pace),
            Next::Release
        );
        // A game of 84 moves (Blokus: 4 colours, 21 pieces) at the default
        // pace fits the budget.
        assert!(pace * 84 <= PACED_BUDGET);
    }
}
