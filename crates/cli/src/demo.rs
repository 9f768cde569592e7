//! `spielleiter demo`: the quickest way to see a whole game. Starts a server
//! in this process, lets two built-in bots play one game over real TCP, and
//! prints the final board, the result and the replay file.

use std::{io::IsTerminal, path::PathBuf, time::SystemTime};

use anyhow::Context;
use clap::Args;
use spielleiter_arena::{LocalServer, LocalServerSettings, distinct_names};
use spielleiter_bots::{Bot, BotKind};
use spielleiter_client::{Connection, GameReport, PlayOptions, play};
use spielleiter_protocol::{Prepare, SlotDescriptor};
use spielleiter_render::{Labels, picture};
use spielleiter_rules::GameType;
use spielleiter_server::replay::archive::find_published;

use spielleiter_protocol::seats::seat_label;

use crate::show;

/// Settings of the demo game.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The game, e.g. `swc_2021_blokus`.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
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

    let mut admin = Connection::connect(server.addr()).await?;
    admin.authenticate(server.passphrase()).await?;
    let prepared = admin
        .prepare(Prepare {
            seed: None,
            wire_log: false,
            game_type: Some(args.game.id().to_owned()),
            pause: false,
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
    let mut reports: Vec<GameReport> = Vec::new();
    for player in players {
        reports.push(player.await.context("a bot task failed")??);
    }
    server.stop().await;

    let report = reports.first().context("no player report")?;
    let position = report
        .final_position()
        .context("the game sent no state")?
        .context("the final state is inconsistent")?;
    let labels = Labels {
        names: names.to_vec(),
        notes: Vec::new(),
        ended: report.result.is_some(),
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
