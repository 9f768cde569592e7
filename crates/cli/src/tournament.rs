//! `spielleiter tournament`: a round-robin league of any hosted game
//! between any number of players, on a server started in this process or a
//! running one, ranked by the game's rule; resumable. A tournament is a
//! season in a SQLite file beside its results file (`league.jsonl` →
//! `league.season.sqlite`), played by this process's own worker — the
//! code path of `spielleiter worker`; the results file (JSON lines) is an
//! export of the store, written again at every start.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{ArgAction, Args};
use std::sync::Arc;

use spielleiter_arena::{
    GameRecord, MatchSettings, PlayerSpec, Program, ResultsFile, Standings, TerminalProgress,
    TournamentObserver,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    GameState, SeasonDefinition, SeasonError, SeasonPlayer, SeasonStore, SqliteStore, WorkerEvent,
    WorkerObserver, WorkerSettings, check_player_name, run_worker,
};

use crate::{
    arena_options::{GameOptions, Interrupted, Venue, check_players, interrupt, prepare},
    game_help,
};

/// Options of a tournament. `-h` is the host, as for `match`; help is
/// `--help`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The game.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    game: GameType,
    /// A player: its name, `=`, and a program started as `COMMAND
    /// --reservation CODE --host H --port P` (a command line with its own
    /// arguments, quoted as one word), `builtin:random` / `builtin:greedy`,
    /// or `docker:IMAGE` (a sandboxed container). Give it once per player, at least as many as the game has seats.
    #[arg(long = "player", value_name = "NAME=COMMAND", value_parser = parse_player, required = true)]
    players: Vec<(String, Program)>,
    /// Games each pair plays, seats alternating [default: as the game's
    /// league].
    #[arg(long, value_name = "N", help = game_help::games_per_pair())]
    games_per_pair: Option<u32>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_name = "K")]
    parallel: usize,
    /// Results file, one JSON line per game; re-running the same command
    /// resumes from it.
    #[arg(long, default_value = "tournament-results.jsonl", value_name = "FILE")]
    results: PathBuf,
    /// Where the standings go as CSV [default: the results file's name with
    /// `-standings.csv`].
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Where the standings go as JSON [default: the results file's name
    /// with `-standings.json`].
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Time no player (the server's move clock does not apply).
    #[arg(long)]
    no_timeout: bool,
    /// Host of a running server to play on [default: a server started in
    /// this process, on a free port, with a random administrator
    /// passphrase].
    #[arg(short = 'h', long, requires = "admin_passphrase")]
    host: Option<String>,
    /// Port of the running server [default with --host: 13050].
    #[arg(
        short,
        long,
        requires = "admin_passphrase",
        allow_negative_numbers = true
    )]
    port: Option<u16>,
    /// Administrator passphrase of the running server.
    #[arg(
        long,
        env = "SPIELLEITER_ADMIN_PASSPHRASE",
        hide_env_values = true,
        value_name = "TEXT"
    )]
    admin_passphrase: Option<String>,
    /// Config file of the server started in this process (its move clock,
    /// limits, replay compression) [default: config/spielleiter.toml, if it
    /// exists].
    #[arg(long, value_name = "FILE", conflicts_with_all = ["host", "port"])]
    config: Option<PathBuf>,
    #[command(flatten)]
    options: GameOptions,
    /// Print help.
    #[arg(long, action = ArgAction::Help)]
    help: Option<bool>,
}

/// `NAME=COMMAND`.
fn parse_player(text: &str) -> Result<(String, Program), String> {
    let (name, command) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not NAME=COMMAND"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{text}` names no player before `=`"));
    }
    let program = command.parse::<Program>().map_err(|e| e.to_string())?;
    Ok((name.to_owned(), program))
}

/// `league.jsonl` → `league-standings.EXTENSION`, in the same directory.
fn beside(results: &Path, extension: &str) -> PathBuf {
    let stem = results
        .file_stem()
        .map_or_else(|| "tournament".into(), |s| s.to_string_lossy());
    results.with_file_name(format!("{stem}-standings.{extension}"))
}

/// Runs the tournament; Ctrl-C stops it (running games are not recorded and
/// are played by the next run of the same command).
pub fn run(args: &TournamentArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

/// The season's name in a tournament's own store.
const SEASON: &str = "tournament";
/// The worker's name in a tournament's own store: one process owns it.
const WORKER: &str = "tournament";

/// `league.jsonl` → `league.season.sqlite`, in the same directory: the
/// tournament's season store (the results file is its export).
fn season_file(results: &Path) -> PathBuf {
    let stem = results
        .file_stem()
        .map_or_else(|| "tournament".into(), |s| s.to_string_lossy());
    results.with_file_name(format!("{stem}.season.sqlite"))
}

/// Writes every stored result to the results file again (in the order
/// they were stored), through a temporary file, so that the export agrees
/// with the store after a run that was killed.
fn export_results(path: &Path, records: &[GameRecord]) -> anyhow::Result<ResultsFile> {
    let mut text = String::new();
    for record in records {
        text.push_str(&serde_json::to_string(record)?);
        text.push('\n');
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let temporary = path.with_extension("jsonl.partial");
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .with_context(|| format!("cannot write the results file {}", path.display()))?;
    Ok(ResultsFile::new(path))
}

/// A tournament is a season in a SQLite file beside the results file,
/// played by this process's own worker with `--parallel` slots: the same
/// code path as `spielleiter worker` on a season of many machines.
async fn run_async(args: &TournamentArgs) -> anyhow::Result<()> {
    let venue = if args.host.is_some() || args.port.is_some() {
        Venue::Running {
            host: args.host.as_deref().unwrap_or("localhost"),
            port: args.port.unwrap_or(13050),
            passphrase: args.admin_passphrase.as_deref().unwrap_or_default(),
        }
    } else {
        Venue::InProcess {
            port: 0,
            config: args.config.as_deref(),
        }
    };
    // Found before anything starts (and before the store is created), so
    // that a typo is one message and writes nothing.
    let players = (args.players.iter())
        .map(|(name, program)| {
            check_player_name(name)?;
            Ok(PlayerSpec {
                name: name.clone(),
                program: args.options.sandbox.apply(program)?,
                timed: !args.no_timeout,
            })
        })
        .collect::<anyhow::Result<Vec<PlayerSpec>>>()?;
    check_players(args.game, &players)?;
    let store_path = season_file(&args.results);
    let store = Arc::new(SqliteStore::open_async(&store_path).await?);
    // Without --seed, a resumed tournament keeps the seed it began with.
    let stored_seed = match store.definition(SEASON).await {
        Ok(definition) => Some(definition.seed),
        Err(SeasonError::NoSeason { .. }) => None,
        Err(error) => return Err(error.into()),
    };
    let (server, mut template) = prepare(venue, Vec::new(), &args.options).await?;
    template.game = args.game;
    template.parallel = args.parallel;
    let definition = SeasonDefinition {
        game: args.game.id().to_owned(),
        players: args
            .players
            .iter()
            .map(|(name, program)| SeasonPlayer {
                name: name.clone(),
                start: program.to_string(),
            })
            .collect(),
        games_per_table: args
            .games_per_pair
            .unwrap_or_else(|| args.game.league().games_per_table),
        seed: args.options.seed.or(stored_seed).unwrap_or(template.seed),
        timed: !args.no_timeout,
    };
    let outcome = play(args, &definition, &store, &template).await;
    if let Some(server) = server {
        server.stop().await;
    }
    outcome
}

async fn play(
    args: &TournamentArgs,
    definition: &SeasonDefinition,
    store: &Arc<SqliteStore>,
    template: &MatchSettings,
) -> anyhow::Result<()> {
    let settings = definition.tournament(template)?;
    if template.parallel == 0 {
        anyhow::bail!("--parallel must be at least 1");
    }
    // As before a match: Docker and the players' images are there, and
    // what a killed run left of its containers is swept away.
    MatchSettings {
        players: settings.players.clone(),
        ..settings.template.clone()
    }
    .check_players()
    .await?;
    let schedule = definition.schedule()?;
    store.create(SEASON, definition, &schedule).await?;
    // A run killed before held games; they are played again.
    store.release_worker(SEASON, WORKER).await?;
    let tables = match settings.tables().len() {
        1 => "1 table".to_owned(),
        n => format!("{n} tables"),
    };
    println!(
        "{} tournament: {} players, {tables} of {}, {} games each, on {}:{}",
        settings.game(),
        settings.players.len(),
        settings.game().player_count(),
        settings.games_per_table,
        settings.template.host,
        settings.template.port
    );

    let stored: Vec<GameRecord> = {
        let mut done: Vec<_> = store
            .games(SEASON)
            .await?
            .into_iter()
            .filter(|g| g.state == GameState::Done)
            .collect();
        done.sort_by_key(|g| g.finished_ms);
        done.into_iter().filter_map(|g| g.record).collect()
    };
    let mut results = export_results(&args.results, &stored)?;
    let names = definition.names();
    let ranking = settings.game().league().ranking;
    let scheduled = schedule.len() as u32;
    let mut records = stored;
    let mut progress = TerminalProgress::new(0);
    progress.started(
        records.len() as u32,
        scheduled - records.len() as u32,
        &Standings::from_records(&names, ranking, &records),
    );

    let mut worker = WorkerSettings::new(WORKER.to_owned());
    worker.slots = template.parallel;
    worker.keep_replay_files = true;
    worker.leave_unstartable = false;
    let (events, mut finished) = tokio::sync::mpsc::unbounded_channel();
    let observer: WorkerObserver = Arc::new(move |event: &WorkerEvent| {
        let _ = events.send(event.clone());
    });
    let shutdown = interrupt();
    let run = run_worker(
        Arc::clone(store),
        SEASON,
        template,
        &worker,
        shutdown,
        Some(observer),
    );
    tokio::pin!(run);
    let mut export_failure = None;
    let mut on_event = |event: WorkerEvent, records: &mut Vec<GameRecord>| {
        if let WorkerEvent::Recorded(record) = event {
            if let Err(error) = results.append(&record) {
                export_failure.get_or_insert(error);
            }
            records.push(*record);
            let standings = Standings::from_records(&names, ranking, records);
            if let Some(record) = records.last() {
                progress.game_finished(record, &standings);
            }
        }
    };
    let report = loop {
        tokio::select! {
            report = &mut run => break report,
            Some(event) = finished.recv() => on_event(event, &mut records),
        }
    };
    while let Ok(event) = finished.try_recv() {
        on_event(event, &mut records);
    }
    progress.finish();
    let report = report?;
    if let Some(error) = export_failure {
        return Err(error.into());
    }
    // The final table adds the games in the order of the schedule, so the
    // same results give the same table however they were played.
    let games = store.games(SEASON).await?;
    let standings = spielleiter_season::report::standings(definition, &games)?;
    let done = games.iter().filter(|g| g.state == GameState::Done).count();
    let csv = args
        .csv
        .clone()
        .unwrap_or_else(|| beside(&args.results, "csv"));
    let json = args
        .json
        .clone()
        .unwrap_or_else(|| beside(&args.results, "json"));
    std::fs::write(&csv, standings.to_csv())
        .with_context(|| format!("cannot write the standings to {}", csv.display()))?;
    let mut json_text = serde_json::to_string_pretty(&standings.to_json())?;
    json_text.push('\n');
    std::fs::write(&json, json_text)
        .with_context(|| format!("cannot write the standings to {}", json.display()))?;
    println!("\n{standings}");
    println!(
        "Results: {}; standings: {}, {}; season store: {}",
        args.results.display(),
        csv.display(),
        json.display(),
        season_file(&args.results).display()
    );
    let failed: Vec<_> = games
        .iter()
        .filter(|g| g.state == GameState::Failed)
        .collect();
    if !failed.is_empty() {
        for game in &failed {
            eprintln!(
                "game {} failed: {}",
                game.game.number,
                game.error.as_deref().unwrap_or("?")
            );
        }
    }
    if report.interrupted {
        return Err(Interrupted(format!(
            "interrupted after {done} of {scheduled} games; run the same command again to continue"
        ))
        .into());
    }
    if !failed.is_empty() {
        anyhow::bail!("{} games failed outside the players", failed.len());
    }
    Ok(())
}
