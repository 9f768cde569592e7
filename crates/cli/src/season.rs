//! `spielleiter season …`: creates a contest season in a store (a SQLite
//! file or a PostgreSQL database) and reads it back — its progress, its
//! standings, a game's replay, a player's log or the wire log of a game
//! (read through the season's archive, `spielleiter_season::SeasonArchive`).
//! The games are played by workers (`spielleiter worker`, [`crate::worker`]).

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use spielleiter_archive::{GameArchive, directory::MAX_UNPACKED_REPLAY_BYTES};
use spielleiter_arena::Program;
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, Created, SeasonArchive, SeasonDefinition, SeasonPlayer, SeasonStore, report,
};

use crate::game_help;

/// The name `season create` gives a season without `--name`: its game and
/// the day, `ID-YYYY-MM-DD`.
fn default_name(game: GameType) -> String {
    format!("{}-{}", game.id(), jiff::Zoned::now().strftime("%Y-%m-%d"))
}

/// The season a command is about: the one named, or without a name the
/// store's only season.
///
/// # Errors
///
/// The store fails, or holds no season or several (then `--name` is
/// needed, and the message lists them).
pub async fn season_name(store: &AnyStore, given: Option<&str>) -> anyhow::Result<String> {
    if let Some(name) = given {
        return Ok(name.to_owned());
    }
    let names = store.season_names().await?;
    match names.as_slice() {
        [only] => Ok(only.clone()),
        [] => anyhow::bail!(
            "{} holds no season; `spielleiter season create --store …` makes one",
            store.describe()
        ),
        several => anyhow::bail!(
            "{} holds {} seasons ({}); name one with --name (--season for serve)",
            store.describe(),
            several.len(),
            several.join(", ")
        ),
    }
}

/// Where a season is kept.
#[derive(Debug, Args)]
pub struct StoreArgs {
    /// The store: a SQLite file (`league.sqlite`, `sqlite:PATH`) or a
    /// PostgreSQL database (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`,
    /// or `host=HOST dbname=DATABASE user=USER password=PASSWORD`). Its
    /// password is shown as `***` wherever the store is named.
    #[arg(
        long,
        env = "SPIELLEITER_STORE",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub store: String,
    /// The season's name in the store [default: `season create` names it
    /// after its game and the day; the other commands take the store's only
    /// season].
    #[arg(long, value_name = "NAME", help = game_help::season_name())]
    pub name: Option<String>,
}

/// `season` subcommands.
#[derive(Debug, Subcommand)]
pub enum SeasonCommand {
    /// Create a season: its game, players and schedule (idempotent: the
    /// same definition again changes nothing; another one under the same
    /// name is refused).
    Create(CreateArgs),
    /// How far the season is: games done, running, waiting, failed; per
    /// worker; the time left.
    Status(StatusArgs),
    /// The league table over the games done (as `tournament` prints it),
    /// optionally as CSV and JSON files.
    Standings(StandingsArgs),
    /// Write a game's replay (gzipped XML) to a file.
    Replay(ReplayArgs),
    /// Print what a player's program printed in a game (or the game's wire
    /// log), as its worker stored it.
    Log(LogArgs),
    /// Play the season's games that were given up as failed (their
    /// workers crashed or lost the store too often) again: they wait for
    /// the workers.
    Retry(StatusArgs),
}

/// `season create`.
#[derive(Debug, Args)]
pub struct CreateArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The game.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    game: GameType,
    /// A player: its name, `=`, and how every worker starts it: a command
    /// line present on each worker host (started as `COMMAND --reservation
    /// CODE --host H --port P`) or `builtin:random` / `builtin:greedy`.
    #[arg(long = "player", value_name = "NAME=COMMAND", value_parser = parse_player, required = true)]
    players: Vec<SeasonPlayer>,
    /// Games each pair plays (each table, in a game of more than two
    /// players) [default: the game's league].
    #[arg(long, value_name = "N")]
    games_per_pair: Option<u32>,
    /// The season's seed: every game's start piece and bots' seeds derive
    /// from it and the game's number [default: from the OS].
    #[arg(long)]
    seed: Option<u64>,
    /// Time no player.
    #[arg(long)]
    no_timeout: bool,
}

/// `season status` and `season retry`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    store: StoreArgs,
}

/// `season standings`.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Also write the standings as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write the standings as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// `season replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The game's number in the season (as `season status` and the
    /// results name it).
    #[arg(value_name = "GAME")]
    game: u32,
    /// The file to write (gzipped replay XML).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// `season log`.
#[derive(Debug, Args)]
pub struct LogArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The game's number in the season (as `season status` and the
    /// results name it).
    #[arg(value_name = "GAME")]
    game: u32,
    /// The player whose log is printed (its name in the season).
    #[arg(
        long,
        value_name = "NAME",
        required_unless_present = "wire",
        conflicts_with = "wire"
    )]
    player: Option<String>,
    /// The game's wire log instead: each seat's bytes as the server read
    /// and wrote them (kept when the workers ran with `--wire-log`).
    #[arg(long)]
    wire: bool,
    /// Write it to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `NAME=COMMAND`, its command read as the match runner reads it.
fn parse_player(text: &str) -> Result<SeasonPlayer, String> {
    let (name, command) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=COMMAND"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{text}` names no player before `=`"));
    }
    command.parse::<Program>().map_err(|e| e.to_string())?;
    Ok(SeasonPlayer {
        name: name.to_owned(),
        start: command.trim().to_owned(),
    })
}

/// Runs a `season` subcommand.
pub fn run(command: &SeasonCommand) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        match command {
            SeasonCommand::Create(args) => create(args).await,
            SeasonCommand::Status(args) => status(args).await,
            SeasonCommand::Standings(args) => standings(args).await,
            SeasonCommand::Replay(args) => replay(args).await,
            SeasonCommand::Log(args) => log(args).await,
            SeasonCommand::Retry(args) => retry(args).await,
        }
    })
}

async fn create(args: &CreateArgs) -> anyhow::Result<()> {
    let definition = SeasonDefinition {
        game: args.game.id().to_owned(),
        players: args.players.clone(),
        games_per_table: args
            .games_per_pair
            .unwrap_or_else(|| args.game.league().games_per_table),
        seed: args.seed.unwrap_or_else(rand::random),
        timed: !args.no_timeout,
    };
    // Everything that can be refused is refused before the store is
    // opened: a refused season writes nothing.
    definition.check()?;
    let schedule = definition.schedule()?;
    let store = spielleiter_season::open(&args.store.store).await?;
    let name = args
        .store
        .name
        .clone()
        .unwrap_or_else(|| default_name(args.game));
    let created = store.create(&name, &definition, &schedule).await?;
    match created {
        Created::New => println!(
            "season \"{name}\" created in {}: {} games of {} between {} players, seed {}",
            store.describe(),
            schedule.len(),
            definition.game,
            definition.players.len(),
            definition.seed
        ),
        Created::Existing => println!(
            "season \"{name}\" is already in {} with this definition; nothing changed",
            store.describe()
        ),
    }
    Ok(())
}

/// The store and its season the command is about: its name and definition.
async fn open_season(args: &StoreArgs) -> anyhow::Result<(AnyStore, String, SeasonDefinition)> {
    let store = spielleiter_season::open_existing(&args.store).await?;
    let name = season_name(&store, args.name.as_deref()).await?;
    let definition = store.definition(&name).await?;
    Ok((store, name, definition))
}

async fn status(args: &StatusArgs) -> anyhow::Result<()> {
    let (store, name, definition) = open_season(&args.store).await?;
    let games = store.games(&name).await?;
    println!(
        "season \"{name}\" ({}, {} players, seed {}) in {}",
        definition.game,
        definition.players.len(),
        definition.seed,
        store.describe()
    );
    print!("{}", report::Progress::of(&games));
    Ok(())
}

async fn retry(args: &StatusArgs) -> anyhow::Result<()> {
    let (store, name, _) = open_season(&args.store).await?;
    let retried = store.retry_failed(&name).await?;
    if retried == 0 {
        anyhow::bail!("season \"{name}\" has no failed game to play again");
    }
    let games = if retried == 1 { "game" } else { "games" };
    println!("{retried} failed {games} of season \"{name}\" wait for the workers again");
    Ok(())
}

async fn standings(args: &StandingsArgs) -> anyhow::Result<()> {
    let (store, name, definition) = open_season(&args.store).await?;
    let games = store.games(&name).await?;
    let standings = report::standings(&definition, &games)?;
    if let Some(csv) = &args.csv {
        std::fs::write(csv, standings.to_csv())
            .with_context(|| format!("cannot write the standings to {}", csv.display()))?;
    }
    if let Some(json) = &args.json {
        let mut text = serde_json::to_string_pretty(&standings.to_json())?;
        text.push('\n');
        std::fs::write(json, text)
            .with_context(|| format!("cannot write the standings to {}", json.display()))?;
    }
    let progress = report::Progress::of(&games);
    println!("{standings}");
    println!("live rating (Weng-Lin, updated game by game; about 95 % within ± 2σ):");
    println!(
        "{:<16} {:>6} {:>8} {:>6}",
        "player", "games", "rating", "± 2σ"
    );
    for row in report::live_ratings(&definition, &games) {
        println!(
            "{:<16} {:>6} {:>8.2} {:>6.2}",
            row.name,
            row.games,
            row.rating,
            2.0 * row.uncertainty
        );
    }
    if !progress.is_over() {
        println!("{} of {} games so far", progress.done, games.len());
    }
    Ok(())
}

/// The season `args` name, as an archive of its finished games.
async fn season_archive(args: &StoreArgs) -> anyhow::Result<(SeasonArchive<AnyStore>, String)> {
    let (store, name, _) = open_season(args).await?;
    let archive = SeasonArchive::open(std::sync::Arc::new(store), &name).await?;
    Ok((archive, name))
}

async fn replay(args: &ReplayArgs) -> anyhow::Result<()> {
    let (archive, name) = season_archive(&args.store).await?;
    let games = archive.games().await?;
    if !(1..=games).contains(&args.game) {
        anyhow::bail!(
            "season \"{name}\" has no game {} (its games are 1 to {games})",
            args.game,
        );
    }
    let stored = archive
        .replay(&args.game.to_string())
        .await
        .with_context(|| {
            format!(
                "game {} has no replay in the store (not played yet, or its replay was not kept)",
                args.game
            )
        })?;
    // As stored: gzipped.
    let bytes = stored.bytes.read_stored(MAX_UNPACKED_REPLAY_BYTES)?;
    std::fs::write(&args.output, bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "game {}'s replay written to {}",
        args.game,
        args.output.display()
    );
    Ok(())
}

async fn log(args: &LogArgs) -> anyhow::Result<()> {
    let (archive, season) = season_archive(&args.store).await?;
    let key = args.game.to_string();
    let stored = match &args.player {
        Some(name) => {
            let record = archive.record(&key).await?;
            let player = record
                .players
                .iter()
                .position(|p| p == name)
                .with_context(|| {
                    format!(
                        "game {} of season \"{season}\" was played by {}, not by {name}",
                        args.game,
                        record.players.join(" and ")
                    )
                })?;
            archive.player_log(&key, player).await.with_context(|| {
                format!(
                    "game {} kept no log of {name} (a built-in bot prints none)",
                    args.game
                )
            })?
        }
        None => archive.wire_log(&key).await.with_context(|| {
            format!(
                "game {} kept no wire log (its worker ran without --wire-log)",
                args.game
            )
        })?,
    };
    let text =
        tokio::task::spawn_blocking(move || stored.read_all(MAX_UNPACKED_REPLAY_BYTES)).await??;
    match &args.output {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::Write::write_all(&mut std::io::stdout().lock(), &text)?,
    }
    Ok(())
}
