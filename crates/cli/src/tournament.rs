//! `spielleiter tournament`: a round-robin league of any hosted game
//! between any number of players, on a server started in this process or a
//! running one, ranked by the game's rule; resumable from its results file.
//! A thin layer over `spielleiter-arena`'s tournament.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::{ArgAction, Args};
use spielleiter_arena::{
    PlayerSpec, Program, ResultsFile, TerminalProgress, TournamentSettings, run_tournament,
};
use spielleiter_rules::GameType;

use crate::arena_options::{GameOptions, Venue, interrupt, prepare};

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
    /// Games each pair plays (each table, in a game of more than two
    /// players), seats alternating [default: 3 for blokus_bcl, as its
    /// league; otherwise one per seat order].
    #[arg(long, value_name = "N")]
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
    #[arg(short, long, requires = "admin_passphrase")]
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

async fn run_async(args: &TournamentArgs) -> anyhow::Result<()> {
    let players = (args.players.iter())
        .map(|(name, program)| {
            Ok(PlayerSpec {
                name: name.clone(),
                program: args.options.sandbox.apply(program)?,
                timed: !args.no_timeout,
            })
        })
        .collect::<anyhow::Result<Vec<PlayerSpec>>>()?;
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
    let (server, mut template) = prepare(venue, Vec::new(), &args.options).await?;
    template.game = args.game;
    template.parallel = args.parallel;
    let mut settings = TournamentSettings::new(players, template);
    if let Some(games) = args.games_per_pair {
        settings.games_per_table = games;
    }
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

    let mut store = ResultsFile::new(&args.results);
    let mut progress = TerminalProgress::new(0);
    let outcome = run_tournament(settings, &mut store, interrupt(), &mut progress).await;
    progress.finish();
    if let Some(server) = server {
        server.stop().await;
    }
    let report = outcome?;
    let csv = args
        .csv
        .clone()
        .unwrap_or_else(|| beside(&args.results, "csv"));
    let json = args
        .json
        .clone()
        .unwrap_or_else(|| beside(&args.results, "json"));
    std::fs::write(&csv, report.standings.to_csv())
        .with_context(|| format!("cannot write the standings to {}", csv.display()))?;
    let mut json_text = serde_json::to_string_pretty(&report.standings.to_json())?;
    json_text.push('\n');
    std::fs::write(&json, json_text)
        .with_context(|| format!("cannot write the standings to {}", json.display()))?;
    if report.ignored > 0 {
        println!(
            "{} games of these players in {} are not part of this schedule and are not counted",
            report.ignored,
            args.results.display()
        );
    }
    println!("\n{}", report.standings);
    println!(
        "Results: {}; standings: {}, {}",
        args.results.display(),
        csv.display(),
        json.display()
    );
    if report.interrupted {
        anyhow::bail!(
            "interrupted after {} of {} games; run the same command again to continue",
            report.records.len(),
            report.scheduled
        );
    }
    Ok(())
}
