//! `spielleiter match`: many games between the players of a game (two, or
//! as many as the game has seats) with a summary — the official
//! TestClient's options, plus `--game`, parallel games, a resumable results
//! file, a progress bar and an Elo estimate. A thin layer over
//! `spielleiter-arena`.

use std::{path::PathBuf, time::Duration};

use anyhow::Context;
use clap::{ArgAction, Args};
use spielleiter_arena::{
    LocalServer, LocalServerSettings, MatchSettings, PlayerSpec, Program, TerminalProgress,
    distinct_names, run_match,
};
use spielleiter_rules::GameType;
use tokio_util::sync::CancellationToken;

/// Options of a match. As in the TestClient, `-h` is the host; help is
/// `--help`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    game: GameType,
    /// Number of games in the match (games already in the results file
    /// count).
    #[arg(short, long, default_value_t = 100, value_name = "N")]
    tests: u32,
    /// Player 1: a program, started as `EXE --reservation CODE --host H
    /// --port P`, or `builtin:random` / `builtin:greedy`.
    #[arg(long, value_name = "EXE")]
    player1: Program,
    /// Player 2, like player 1.
    #[arg(long, value_name = "EXE")]
    player2: Program,
    /// Player 3, for games of three or four players.
    #[arg(long, value_name = "EXE")]
    player3: Option<Program>,
    /// Player 4, for games of four players.
    #[arg(long, value_name = "EXE", requires = "player3")]
    player4: Option<Program>,
    /// Display name of player 1.
    #[arg(long, default_value = "player1", value_name = "NAME")]
    name1: String,
    /// Display name of player 2.
    #[arg(long, default_value = "player2", value_name = "NAME")]
    name2: String,
    /// Display name of player 3.
    #[arg(long, default_value = "player3", value_name = "NAME")]
    name3: String,
    /// Display name of player 4.
    #[arg(long, default_value = "player4", value_name = "NAME")]
    name4: String,
    /// Time neither player.
    #[arg(long)]
    no_timeout: bool,
    /// Do not time player 1.
    #[arg(long)]
    no_timeout1: bool,
    /// Do not time player 2.
    #[arg(long)]
    no_timeout2: bool,
    /// Do not time player 3.
    #[arg(long)]
    no_timeout3: bool,
    /// Do not time player 4.
    #[arg(long)]
    no_timeout4: bool,
    /// Start a server in this process on a free port (or on `--port`) with
    /// a random administrator passphrase. Its other settings (move clock,
    /// limits, replay compression) come from the config file and the
    /// `SPIELLEITER_*` variables, as for `serve`.
    #[arg(long)]
    start_server: bool,
    /// Config file of the server started with --start-server [default:
    /// config/spielleiter.toml, if it exists].
    #[arg(long, value_name = "FILE", requires = "start_server")]
    config: Option<PathBuf>,
    /// Host of a running server.
    #[arg(
        short = 'h',
        long,
        default_value = "localhost",
        conflicts_with = "start_server"
    )]
    host: String,
    /// Port of the server [default: 13050; with --start-server a free one].
    #[arg(short, long)]
    port: Option<u16>,
    /// Administrator passphrase of a running server.
    #[arg(
        long,
        env = "SPIELLEITER_ADMIN_PASSPHRASE",
        hide_env_values = true,
        value_name = "TEXT",
        required_unless_present = "start_server"
    )]
    admin_passphrase: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_name = "K")]
    parallel: usize,
    /// Results file, one JSON line per game; a match resumes from it.
    #[arg(long, default_value = "match-results.jsonl", value_name = "FILE")]
    results: PathBuf,
    /// Directory of the players' logs (`NAME_gameN.log`).
    #[arg(long, default_value = "log", value_name = "DIR")]
    log_dir: PathBuf,
    /// Where the server writes replays, to name each game's replay in the
    /// results [default with --start-server: replays].
    #[arg(long, value_name = "DIR")]
    replay_dir: Option<PathBuf>,
    /// Milliseconds a player program may take to join its game.
    #[arg(long, default_value_t = 30_000, value_name = "MS")]
    connect_timeout_ms: u64,
    /// Milliseconds a whole game may take before the player on turn counts
    /// as hung.
    #[arg(long, default_value_t = 1_200_000, value_name = "MS")]
    game_timeout_ms: u64,
    /// Milliseconds a program may keep running after its game before it is
    /// killed.
    #[arg(long, default_value_t = 5_000, value_name = "MS")]
    exit_grace_ms: u64,
    /// Stop early once one player is better at this significance level
    /// (one-sided binomial test on the wins, as the TestClient does).
    #[arg(long, value_name = "P")]
    significance: Option<f64>,
    /// Games played before significance is tested.
    #[arg(long, default_value_t = 20, value_name = "N")]
    min_tests: u32,
    /// Seed of the built-in random bots and, with --start-server, of the
    /// start pieces [default: from the OS].
    #[arg(long)]
    seed: Option<u64>,
    /// Print help.
    #[arg(long, action = ArgAction::Help)]
    help: Option<bool>,
}

/// Runs the match; Ctrl-C stops it (running games are not recorded and are
/// played by the next run).
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: &MatchArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(rand::random);
    let programs = [
        (Some(&args.player1), &args.name1, args.no_timeout1),
        (Some(&args.player2), &args.name2, args.no_timeout2),
        (args.player3.as_ref(), &args.name3, args.no_timeout3),
        (args.player4.as_ref(), &args.name4, args.no_timeout4),
    ];
    let given: Vec<(&Program, &String, bool)> = programs
        .into_iter()
        .filter_map(|(program, name, untimed)| Some((program?, name, untimed)))
        .collect();
    let seats = args.game.player_count();
    if given.len() != seats {
        anyhow::bail!(
            "{} is a game of {seats} players; the match names {} (--player1 … --player4)",
            args.game,
            given.len()
        );
    }
    let names = distinct_names(given.iter().map(|(_, name, _)| (*name).clone()).collect());
    let players: Vec<PlayerSpec> = given
        .into_iter()
        .zip(names)
        .map(|((program, _, untimed), name)| PlayerSpec {
            name,
            program: program.clone(),
            timed: !(args.no_timeout || untimed),
        })
        .collect();
    let server = if args.start_server {
        Some(
            LocalServer::start(LocalServerSettings {
                port: args.port.unwrap_or(0),
                replay_dir: Some(
                    args.replay_dir
                        .clone()
                        .unwrap_or_else(|| PathBuf::from("replays")),
                ),
                seed: Some(seed),
                base: crate::serve::environment_config(args.config.as_deref())?,
            })
            .await?,
        )
    } else {
        None
    };
    let mut settings = match &server {
        Some(server) => {
            let mut settings = MatchSettings::new(
                players,
                server.addr().ip().to_string(),
                server.addr().port(),
                server.passphrase().to_owned(),
            );
            settings.replay_dir = server.replay_dir().cloned();
            settings
        }
        None => {
            let mut settings = MatchSettings::new(
                players,
                args.host.clone(),
                args.port.unwrap_or(13050),
                args.admin_passphrase.clone().unwrap_or_default(),
            );
            settings.replay_dir = args.replay_dir.clone();
            settings
        }
    };
    settings.game = args.game;
    settings.games = args.tests;
    settings.parallel = args.parallel;
    settings.results = args.results.clone();
    settings.log_dir = args.log_dir.clone();
    settings.connect_timeout = Duration::from_millis(args.connect_timeout_ms);
    settings.game_timeout = Duration::from_millis(args.game_timeout_ms);
    settings.exit_grace = Duration::from_millis(args.exit_grace_ms);
    settings.seed = seed;
    settings.significance = args.significance;
    settings.min_tests = args.min_tests;
    let lineup: Vec<String> = settings
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.program))
        .collect();
    println!(
        "{}: {} on {}:{}",
        settings.game,
        lineup.join(" vs "),
        settings.host,
        settings.port
    );

    let shutdown = CancellationToken::new();
    let on_interrupt = shutdown.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_interrupt.cancel();
        }
    });
    let mut progress = TerminalProgress::new(args.tests);
    let results = settings.results.clone();
    let outcome = run_match(settings, shutdown, &mut progress).await;
    progress.finish();
    if let Some(server) = server {
        server.stop().await;
    }
    let report = outcome?;
    println!("\n{}", report.summary);
    if let Some(found) = report.significant {
        println!(
            "{} is significantly better (p = {:.4}); stopped after {} games",
            report.summary.players[found.better].name, found.p_value, report.summary.games
        );
    }
    println!("Results: {}", results.display());
    if report.interrupted {
        anyhow::bail!(
            "interrupted after {} of {} games; run the same command again to continue",
            report.records.len(),
            args.tests
        );
    }
    Ok(())
}
