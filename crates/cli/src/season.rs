//! `spielleiter season …`: creates a contest season in a store (a SQLite
//! file or a PostgreSQL database) and reads it back — its progress, its
//! standings, a game's replay. The games are played by workers
//! (`spielleiter worker`, [`crate::worker`]).

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use spielleiter_arena::Program;
use spielleiter_rules::GameType;
use spielleiter_season::{AnyStore, Created, SeasonDefinition, SeasonPlayer, SeasonStore, report};

/// The season's name when none is given: one season per store.
pub const DEFAULT_SEASON: &str = "season";

/// Where a season is kept.
#[derive(Debug, Args)]
pub struct StoreArgs {
    /// The store: a SQLite file (`league.sqlite`, `sqlite:PATH`) or a
    /// PostgreSQL database (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`).
    #[arg(
        long,
        env = "SPIELLEITER_STORE",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub store: String,
    /// The season's name in the store.
    #[arg(long, default_value = DEFAULT_SEASON, value_name = "NAME")]
    pub name: String,
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

/// `season status`.
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
    let created = store
        .create(&args.store.name, &definition, &schedule)
        .await?;
    match created {
        Created::New => println!(
            "season {} created in {}: {} games of {} between {} players, seed {}",
            args.store.name,
            store.describe(),
            schedule.len(),
            definition.game,
            definition.players.len(),
            definition.seed
        ),
        Created::Existing => println!(
            "season {} is already in {} with this definition; nothing changed",
            args.store.name,
            store.describe()
        ),
    }
    Ok(())
}

async fn open_season(args: &StoreArgs) -> anyhow::Result<(AnyStore, SeasonDefinition)> {
    let store = spielleiter_season::open_existing(&args.store).await?;
    let definition = store.definition(&args.name).await?;
    Ok((store, definition))
}

async fn status(args: &StatusArgs) -> anyhow::Result<()> {
    let (store, definition) = open_season(&args.store).await?;
    let games = store.games(&args.store.name).await?;
    println!(
        "season {} ({}, {} players, seed {}) in {}",
        args.store.name,
        definition.game,
        definition.players.len(),
        definition.seed,
        store.describe()
    );
    print!("{}", report::Progress::of(&games));
    Ok(())
}

async fn standings(args: &StandingsArgs) -> anyhow::Result<()> {
    let (store, definition) = open_season(&args.store).await?;
    let games = store.games(&args.store.name).await?;
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

async fn replay(args: &ReplayArgs) -> anyhow::Result<()> {
    let (store, _) = open_season(&args.store).await?;
    let games = store.games(&args.store.name).await?;
    if !games.iter().any(|g| g.game.number == args.game) {
        anyhow::bail!(
            "season {} has no game {} (its games are 1 to {})",
            args.store.name,
            args.game,
            games.len()
        );
    }
    let bytes = store
        .replay(&args.store.name, args.game)
        .await?
        .with_context(|| {
            format!(
                "game {} has no replay in the store (not played yet, or its replay was not found)",
                args.game
            )
        })?;
    std::fs::write(&args.output, bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "game {}'s replay written to {}",
        args.game,
        args.output.display()
    );
    Ok(())
}
