//! `spielleiter match`: many games between the players of a game (two, or
//! as many as the game has seats) with a summary — the official
//! TestClient's options, plus `--game`, parallel games, a resumable results
//! file, a progress bar and an Elo estimate. A match is a season of one
//! table in memory played by this process's own worker
//! (`spielleiter_season::run_match`), the code path of `tournament` and
//! `worker`; its results file is where it resumes from.

use std::path::PathBuf;

use anyhow::Context;
use clap::{ArgAction, Args};
use spielleiter_arena::{PlayerSpec, Program, TerminalProgress, distinct_names, never_joined};
use spielleiter_rules::GameType;
use spielleiter_season::run_match;

use crate::arena_options::{GameOptions, Interrupted, Venue, check_players, interrupt, prepare};

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
    /// --port P`, `builtin:random` / `builtin:greedy`, or `docker:IMAGE` (a
    /// sandboxed container).
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
    #[arg(short, long, allow_negative_numbers = true)]
    port: Option<u16>,
    /// Administrator passphrase of a running server (needed unless
    /// --start-server).
    #[arg(
        long,
        env = "SPIELLEITER_ADMIN_PASSPHRASE",
        hide_env_values = true,
        value_name = "TEXT"
    )]
    admin_passphrase: Option<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_name = "K")]
    parallel: usize,
    /// Results file, one JSON line per game; a match resumes from it.
    #[arg(long, default_value = "match-results.jsonl", value_name = "FILE")]
    results: PathBuf,
    /// Stop early once one player is better at this significance level
    /// (one-sided binomial test on the wins, as the TestClient does).
    #[arg(long, value_name = "P")]
    significance: Option<f64>,
    /// Games played before significance is tested.
    #[arg(long, default_value_t = 20, value_name = "N")]
    min_tests: u32,
    #[command(flatten)]
    options: GameOptions,
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
    // The server refuses such a name; said before anything starts.
    for name in &names {
        spielleiter_season::check_player_name(name)?;
    }
    let players = (given.into_iter().zip(names))
        .map(|((program, _, untimed), name)| {
            Ok(PlayerSpec {
                name,
                program: args.options.sandbox.apply(program)?,
                timed: !(args.no_timeout || untimed),
            })
        })
        .collect::<anyhow::Result<Vec<PlayerSpec>>>()?;
    let venue = match (args.start_server, &args.admin_passphrase) {
        (true, _) => Venue::InProcess {
            port: args.port.unwrap_or(0),
            config: args.config.as_deref(),
        },
        (false, Some(passphrase)) => Venue::Running {
            host: &args.host,
            port: args.port.unwrap_or(13050),
            passphrase,
        },
        (false, None) => anyhow::bail!(
            "a match needs a server: --start-server starts one in this process; for a \
             running one give its administrator passphrase (--admin-passphrase TEXT, or \
             SPIELLEITER_ADMIN_PASSPHRASE) with -h HOST -p PORT"
        ),
    };
    // Found before anything starts, so that a typo is one message.
    check_players(args.game, &players)?;
    let (server, mut settings) = prepare(venue, players, &args.options).await?;
    settings.game = args.game;
    settings.games = args.tests;
    settings.parallel = args.parallel;
    settings.results = args.results.clone();
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

    let shutdown = interrupt();
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
        return Err(Interrupted(format!(
            "interrupted after {} of {} games; run the same command again to continue",
            report.records.len(),
            args.tests
        ))
        .into());
    }
    let played = &report.records[report.resumed as usize..];
    let never_played = never_joined(played);
    if !never_played.is_empty() {
        anyhow::bail!(
            "every game of {} this run ended before it joined (crashed or did not connect); \
             its log in {} says why",
            never_played.join(", "),
            args.options.log_dir.display()
        );
    }
    Ok(())
}
