//! `spielleiter-bench`: the server benchmark. Runs many concurrent games of
//! built-in bots against one server over loopback TCP and reports complete
//! games per minute, the server-added latency per move (from reading a move
//! to writing the next move request, measured inside the server), the
//! server's peak memory, and how many games were lost on time.
//!
//! The server runs in this process; the players run in a child process (the
//! same binary, `--players-for ADDR`) at the lowest priority available
//! (`chrt --idle`, else `nice -n 19`), so that the bots' own computing
//! competes with the server as little as possible, as it would with players
//! on other machines. Players
//! are ordinary clients (the client library, real sockets); the server's
//! figures come from its own counters, and its CPU time and memory from the
//! operating system's figures for this process (the players' child process
//! is not counted).
//!
//! `--sweep 50,200,1000` runs one benchmark per concurrency, one after the
//! other, each with a fresh server, and prints the figures as one table.
//!
//! The server serves its web side too, as `serve` does by default; with
//! `--web-observers N`, N pages follow running games on it, in a child
//! process of their own at the players' priority (see
//! [`observers`]).
//!
//! A binary of its own rather than a `spielleiter` subcommand, so that the
//! product binary does not carry the harness; it measures the same server
//! library, built with the same profile.

mod counts_line;
#[cfg(feature = "heap-profile")]
mod heap_profile;
mod observers;
mod syscalls;

use std::{
    io::{BufRead, BufReader, Write},
    net::SocketAddr,
    process::{Child, Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use anyhow::{Context, bail};
use clap::Parser;
use spielleiter_bots::{AnyBot, Bot, BotKind};
use spielleiter_client::{Connection, PlayOptions, play};
use spielleiter_protocol::result::ScoreCause;
use spielleiter_rules::GameType;
use spielleiter_server::{Config, EmbeddedServer, config::HttpPublic, stats::ServerStats};
use spielleiter_web::{Access, EmbeddedWeb, WebLimits, WebSettings};
use tokio::time::Instant;

use crate::{observers::Observed, syscalls::SyscallCounter};

/// With the feature `heap-profile`, dhat's allocator records every
/// allocation while a profile is being taken (`--heap-profile`).
#[cfg(feature = "heap-profile")]
#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// Measure the Spielleiter server: many concurrent games of built-in bots
/// over loopback TCP (games per minute, server-added latency, memory,
/// clock).
#[derive(Debug, Parser)]
#[command(name = "spielleiter-bench", version, about)]
struct BenchArgs {
    /// Games played at the same time.
    #[arg(long, default_value_t = 50, value_name = "N", value_parser = at_least_one)]
    concurrency: usize,
    /// Run the benchmark once per concurrency in this list (e.g.
    /// `50,200,1000`) instead of once at `--concurrency`, and print one
    /// table; `--games` and `--duration-secs` apply to each run.
    #[arg(long, value_delimiter = ',', value_name = "N,N,…", conflicts_with_all = ["concurrency", "players_for"], value_parser = at_least_one)]
    sweep: Vec<usize>,
    /// Stop after this many complete games.
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = at_least_one_game)]
    games: u64,
    /// Stop after this many seconds, even if fewer games are complete.
    #[arg(long, default_value_t = 120, value_name = "SECONDS")]
    duration_secs: u64,
    /// How long each bot waits after a move request before it answers, in
    /// milliseconds (e.g. 1950 or 2050 to check the 2 s clock).
    #[arg(long, default_value_t = 0, value_name = "MS")]
    think_ms: u64,
    /// The game played.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    game: GameType,
    /// The bot that plays every seat.
    #[arg(long, default_value = "random", value_name = "BOT")]
    bot: BotKind,
    /// Write replays (to a temporary directory, removed afterwards), as a
    /// production server does.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    replays: bool,
    /// Keep every game's wire log next to its replay (`serve --wire-log`).
    #[arg(long)]
    wire_log: bool,
    /// Server worker threads [default: one per core].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Run the players in this process instead of a child process.
    #[arg(long)]
    same_process: bool,
    /// The priority of the players' child process: `idle` (runs only when
    /// the server does not; for the server's latency), `nice` (nice 19), or
    /// `normal` (as punctual as the server; for checking the clock with
    /// `--think-ms`).
    #[arg(long, default_value = "idle", value_parser = ["idle", "nice", "normal"])]
    players_priority: String,
    /// Web pages following running games: each reads the event stream of
    /// a running room to the end of its game, then the next room's (in a
    /// process of their own, at the players' priority).
    #[arg(long, default_value_t = 0, value_name = "N")]
    web_observers: usize,
    /// Count the server's system calls per move (with `perf stat` on the
    /// kernel's tracepoints: needs `perf`, and root or
    /// `kernel.perf_event_paranoid = -1`; skipped with the reason
    /// otherwise). Counting costs a little CPU per system call.
    #[arg(long)]
    syscalls: bool,
    /// Write a heap profile of the server, taken while the games run, to
    /// FILE and print its live heap by allocation site.
    #[cfg(feature = "heap-profile")]
    #[arg(long, value_name = "FILE")]
    heap_profile: Option<std::path::PathBuf>,
    /// Internal: be the players' process for the server at this address.
    #[arg(long, hide = true, value_name = "ADDR")]
    players_for: Option<SocketAddr>,
    /// Internal: be the web observers' process for the web side at this
    /// address.
    #[arg(long, hide = true, value_name = "ADDR", conflicts_with = "players_for")]
    observers_for: Option<SocketAddr>,
}

/// A count of games, at least one: zero would measure nothing.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (0 games measure nothing)".to_owned()),
        Ok(n) => Ok(n),
        Err(error) => Err(format!("not a whole number: {error}")),
    }
}

/// As [`at_least_one`], for `--games`.
fn at_least_one_game(text: &str) -> Result<u64, String> {
    at_least_one(text).map(|n| n as u64)
}

/// What the players saw, counted across all games.
#[derive(Debug, Default)]
struct Tally {
    /// Moves the bots sent.
    moves_sent: AtomicU64,
    /// Games seen to end by both rules and players (counted by seat ONE).
    regular: AtomicU64,
    /// Games lost by a rule violation or by leaving.
    broken: AtomicU64,
    /// Games lost by a late move (soft timeout).
    soft_timeouts: AtomicU64,
    /// Games lost without a move (hard timeout).
    hard_timeouts: AtomicU64,
    /// Player connections that failed (not a game outcome).
    client_errors: AtomicU64,
}

impl Tally {
    fn snapshot(&self) -> Tally {
        Tally::parse(&self.line()).unwrap_or_default()
    }

    fn line(&self) -> String {
        counts_line::write(
            "tally",
            &[
                &self.moves_sent,
                &self.regular,
                &self.broken,
                &self.soft_timeouts,
                &self.hard_timeouts,
                &self.client_errors,
            ],
        )
    }

    fn parse(line: &str) -> Option<Tally> {
        let [
            moves_sent,
            regular,
            broken,
            soft_timeouts,
            hard_timeouts,
            client_errors,
        ] = counts_line::read("tally", line)?;
        Some(Tally {
            moves_sent,
            regular,
            broken,
            soft_timeouts,
            hard_timeouts,
            client_errors,
        })
    }
}

fn main() -> std::process::ExitCode {
    match run(&BenchArgs::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("spielleiter-bench: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Runs the benchmark (or, with `--players-for`, its players) and prints
/// the report.
fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if let Some(threads) = args.threads {
        builder.worker_threads(threads);
    }
    let runtime = builder.build().context("cannot start the async runtime")?;
    match (args.players_for, args.observers_for) {
        (Some(addr), _) => runtime.block_on(players_process(addr, args)),
        (None, Some(web)) => runtime.block_on(observers_process(web, args.web_observers)),
        (None, None) => runtime.block_on(bench(args)),
    }
}

async fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    // A bot the game does not have fails here, before any server or
    // process starts, not in the players' process once the run is under way.
    args.bot.build(args.game, 0)?;
    // Each game holds a socket per player in both processes and a replay
    // file in the server's; the players' process inherits the limit.
    let most = args.sweep.iter().copied().max().unwrap_or(args.concurrency);
    let needed = most * (args.game.player_count() + 1) + 256;
    match usage::raise_open_files_limit() {
        Some(limit) if limit < needed as u64 => println!(
            "bench: the open-files limit is {limit}, {most} games need about {needed}: runs will fail to connect (raise the hard limit: `ulimit -Hn`)"
        ),
        _ => {}
    }
    if args.sweep.is_empty() {
        run_level(args, args.concurrency).await?;
        return Ok(());
    }
    let mut rows = Vec::with_capacity(args.sweep.len());
    for &concurrency in &args.sweep {
        rows.push(run_level(args, concurrency).await?);
        println!();
    }
    print!("{}", sweep_table(&rows));
    Ok(())
}

/// What one benchmark run measured on the server's side.
#[derive(Debug, Clone)]
struct Figures {
    concurrency: usize,
    elapsed: Duration,
    /// Complete games and applied moves.
    finished: u64,
    moves: u64,
    /// Games lost on time (soft, hard).
    soft: u64,
    hard: u64,
    /// Server-added latency p50, p99, p99.9.
    latency: [Option<Duration>; 3],
    /// The server process's CPU time (user + system) during the run.
    cpu: Option<Duration>,
    /// The server process's resident memory before the games, at the end
    /// of the run and its peak during the run, in bytes.
    rss_start: Option<u64>,
    rss_end: Option<u64>,
    rss_peak: Option<u64>,
}

impl Figures {
    fn games_per_minute(&self) -> f64 {
        self.finished as f64 / (self.elapsed.as_secs_f64() / 60.0)
    }

    fn cpu_per(&self, count: u64) -> Option<Duration> {
        let count = u32::try_from(count).ok().filter(|&c| c > 0)?;
        Some(self.cpu? / count)
    }

    /// What the end's resident memory has more than the start's, per
    /// concurrent game: the memory a running game costs.
    fn rss_per_game(&self) -> Option<u64> {
        let grown = self.rss_end?.saturating_sub(self.rss_start?);
        Some(grown / u64::try_from(self.concurrency).ok()?.max(1))
    }
}

/// One benchmark run at `concurrency` games: starts a server and the
/// players, plays until `--games` or `--duration-secs`, prints the report.
async fn run_level(args: &BenchArgs, concurrency: usize) -> anyhow::Result<Figures> {
    let replay_dir = std::env::temp_dir().join(format!(
        "spielleiter-bench-{}-{concurrency}",
        std::process::id()
    ));
    let config = Config {
        port: 0,
        // Each game's players plus, for a moment, the connections of the
        // games that just ended.
        max_connections: concurrency * args.game.player_count() * 2 + 64,
        // Every player connects from this machine.
        loopback_exempt: true,
        replays: args.replays,
        replay_dir: replay_dir.clone(),
        wire_log: args.wire_log,
        shutdown_grace: Duration::ZERO,
        ..Config::default()
    };
    #[cfg(feature = "heap-profile")]
    let heap_profile = args
        .heap_profile
        .as_deref()
        .map(crate::heap_profile::HeapProfile::start);
    // The peak is the peak of this run, not of an earlier one of a sweep.
    usage::reset_peak_rss();
    let server = EmbeddedServer::start(config).await?;
    let addr = server.addr();
    let stats = Arc::clone(server.stats());
    let web = EmbeddedWeb::start(
        SocketAddr::from(([127, 0, 0, 1], 0)),
        Arc::clone(&stats),
        WebSettings {
            access: Access::new(addr.ip(), HttpPublic::Auto, None),
            replay_dir: args.replays.then(|| replay_dir.clone()),
            // The observers all come from loopback.
            limits: WebLimits {
                loopback_exempt: true,
                max_connections: WebLimits::default()
                    .max_connections
                    .max(2 * args.web_observers),
                ..WebLimits::default()
            },
            auth: Arc::clone(server.auth()),
        },
    )
    .await?;
    println!(
        "bench: {} of {} between `{}` bots, think {} ms, replays {}, players {}, {}, until {} or {} s",
        counted(concurrency as u64, "concurrent game", "concurrent games"),
        args.game,
        args.bot,
        args.think_ms,
        match (args.replays, args.wire_log) {
            (true, true) => "on with wire logs",
            (true, false) => "on",
            (false, _) => "off",
        },
        if args.same_process {
            "in this process".to_owned()
        } else {
            format!("in a child process at {} priority", args.players_priority)
        },
        counted(args.web_observers as u64, "web observer", "web observers"),
        counted(args.games, "game", "games"),
        args.duration_secs
    );

    let rss_start = usage::rss("VmRSS:");
    let syscalls = args.syscalls.then(SyscallCounter::start);
    let started = Instant::now();
    let cpu_at_start = usage::cpu_time();
    let moves_at_start = ServerStats::get(&stats.moves);
    let mut players = if args.same_process {
        Players::Local(LocalPlayers::start(addr, concurrency, args)?)
    } else {
        Players::Child(spawn_players(addr, concurrency, args)?)
    };
    let mut observers = match args.web_observers {
        0 => None,
        count if args.same_process => {
            Some(Observers::Local(LocalObservers::start(web.addr(), count)))
        }
        count => Some(Observers::Child(spawn_observers(web.addr(), count, args)?)),
    };
    let deadline = started + Duration::from_secs(args.duration_secs);
    let mut last_report = started;
    let mut died = None;
    loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let finished = ServerStats::get(&stats.games_finished);
        if finished >= args.games || Instant::now() >= deadline {
            break;
        }
        // A child process that died ends the run at once: without its
        // players (or observers) the run would only count zeros.
        died = players
            .died()
            .or_else(|| observers.as_mut().and_then(Observers::died));
        if died.is_some() {
            break;
        }
        if last_report.elapsed() >= Duration::from_secs(5) {
            last_report = Instant::now();
            println!(
                "  {:>6.1} s: {}, {} moves",
                started.elapsed().as_secs_f64(),
                counted(finished, "game", "games"),
                ServerStats::get(&stats.moves)
            );
        }
    }
    if let Some(reason) = died {
        players.kill();
        if let Some(observers) = observers {
            observers.kill();
        }
        drop(web);
        server.stop().await?;
        let _ = std::fs::remove_dir_all(&replay_dir);
        bail!("{reason}");
    }
    // Freeze the figures before the shutdown ends the games in flight.
    let figures = Figures {
        concurrency,
        elapsed: started.elapsed(),
        finished: ServerStats::get(&stats.games_finished),
        moves: ServerStats::get(&stats.moves),
        soft: ServerStats::get(&stats.soft_timeouts),
        hard: ServerStats::get(&stats.hard_timeouts),
        latency: [0.5, 0.99, 0.999].map(|q| stats.move_latency.quantile(q)),
        cpu: usage::cpu_time()
            .zip(cpu_at_start)
            .map(|(now, then)| now.saturating_sub(then)),
        rss_start,
        rss_end: usage::rss("VmRSS:"),
        rss_peak: usage::rss("VmHWM:"),
    };
    let syscalls = match syscalls {
        Some(Ok(counter)) => Some(tokio::task::spawn_blocking(|| counter.stop()).await?),
        Some(Err(why)) => Some(Err(why)),
        None => None,
    };
    #[cfg(feature = "heap-profile")]
    let heap_summary = heap_profile
        .map(|profile| profile.finish(concurrency))
        .transpose()?;
    let latencies = stats.move_latency.count();
    players.settle(figures.finished).await;
    let tally = players.stop().await?;
    let observed = match observers {
        Some(observers) => Some(observers.stop().await?),
        None => None,
    };
    drop(web);
    server.stop().await?;
    let _ = std::fs::remove_dir_all(&replay_dir);

    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    let with_players = if args.same_process {
        " (with the players)"
    } else {
        " (players not counted)"
    };
    println!(
        "elapsed:                  {:.1} s",
        figures.elapsed.as_secs_f64()
    );
    println!(
        "complete games:           {} ({:.0} per minute)",
        figures.finished,
        figures.games_per_minute()
    );
    println!(
        "moves applied:            {} ({:.0} per second)",
        figures.moves,
        figures.moves as f64 / figures.elapsed.as_secs_f64()
    );
    println!(
        "server-added latency:     p50 {}, p99 {}, p99.9 {} (over {latencies} moves)",
        micros(figures.latency[0]),
        micros(figures.latency[1]),
        micros(figures.latency[2])
    );
    println!(
        "server CPU (user+sys):    {} per move, {} per game, {} in all{with_players}",
        micros(figures.cpu_per(figures.moves)),
        micros(figures.cpu_per(figures.finished)),
        millis(figures.cpu)
    );
    println!(
        "server RSS:               {} at the end, {} peak, {} before the games: {} per game{with_players}",
        mebibytes(figures.rss_end),
        mebibytes(figures.rss_peak),
        mebibytes(figures.rss_start),
        kibibytes(figures.rss_per_game())
    );
    match syscalls {
        Some(Ok(counts)) => println!(
            "server system calls:      {}",
            counts.per_move(figures.moves.saturating_sub(moves_at_start))
        ),
        Some(Err(why)) => println!("server system calls:      not counted: {why}"),
        None => {}
    }
    #[cfg(feature = "heap-profile")]
    if let Some(summary) = heap_summary {
        print!("{summary}");
    }
    println!(
        "games lost on time:       {} soft, {} hard",
        figures.soft, figures.hard
    );
    println!(
        "as the players saw it:    {} moves sent, {} regular games, {} soft and {} hard timeouts, {} violations or leaves, {} client errors",
        get(&tally.moves_sent),
        get(&tally.regular),
        get(&tally.soft_timeouts),
        get(&tally.hard_timeouts),
        get(&tally.broken),
        get(&tally.client_errors)
    );
    if let Some(observed) = observed {
        println!(
            "{}",
            observers_report(args.web_observers, &observed, figures.elapsed)
        );
    }
    Ok(figures)
}

/// The figures of a sweep, one row per concurrency.
fn sweep_table(rows: &[Figures]) -> String {
    let header = [
        "concurrency",
        "games/min",
        "moves/s",
        "CPU/move",
        "CPU/game",
        "p50",
        "p99",
        "p99.9",
        "RSS end",
        "RSS peak",
        "RSS/game",
        "lost on time",
    ];
    let cells: Vec<[String; 12]> = rows
        .iter()
        .map(|row| {
            [
                row.concurrency.to_string(),
                format!("{:.0}", row.games_per_minute()),
                format!("{:.0}", row.moves as f64 / row.elapsed.as_secs_f64()),
                micros(row.cpu_per(row.moves)),
                micros(row.cpu_per(row.finished)),
                micros(row.latency[0]),
                micros(row.latency[1]),
                micros(row.latency[2]),
                mebibytes(row.rss_end),
                mebibytes(row.rss_peak),
                kibibytes(row.rss_per_game()),
                (row.soft + row.hard).to_string(),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|column| {
            cells
                .iter()
                .map(|row| row[column].chars().count())
                .chain([header[column].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |texts: &mut dyn Iterator<Item = &str>| {
        let padded: Vec<String> = texts
            .zip(&widths)
            .map(|(text, &width)| format!("{text:>width$}"))
            .collect();
        padded.join("  ").trim_end().to_owned() + "\n"
    };
    let mut table = line(&mut header.iter().copied());
    for row in &cells {
        table += &line(&mut row.iter().map(String::as_str));
    }
    table
}

/// `1 game`, `2 games`: a count with its noun.
fn counted(count: u64, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

fn micros(duration: Option<Duration>) -> String {
    duration.map_or_else(|| "-".to_owned(), |d| format!("{} µs", d.as_micros()))
}

fn millis(duration: Option<Duration>) -> String {
    duration.map_or_else(
        || "-".to_owned(),
        |d| format!("{:.0} ms", d.as_secs_f64() * 1e3),
    )
}

fn kibibytes(bytes: Option<u64>) -> String {
    bytes.map_or_else(
        || "-".to_owned(),
        |b| format!("{:.0} KiB", b as f64 / 1024.0),
    )
}

fn mebibytes(bytes: Option<u64>) -> String {
    bytes.map_or_else(
        || "-".to_owned(),
        |b| format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
    )
}

/// Where the players run.
enum Players {
    Local(LocalPlayers),
    Child(ChildProcess),
}

impl Players {
    /// Why the players' child process has ended, if it has (players in
    /// this process do not end by themselves).
    fn died(&mut self) -> Option<String> {
        match self {
            Players::Local(_) => None,
            Players::Child(child) => child.died(),
        }
    }

    /// Ends the players at once, without their report.
    fn kill(self) {
        match self {
            Players::Local(local) => {
                local.stop();
            }
            Players::Child(child) => child.kill(),
        }
    }

    /// Gives players in this process a moment to read the results of the
    /// `finished` games the server counted (it counts a game before it
    /// sends the result), so that "as the players saw it" covers them.
    async fn settle(&self, finished: u64) {
        let Players::Local(local) = self else {
            return;
        };
        let seen = || {
            let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
            let tally = &local.tally;
            get(&tally.regular)
                + get(&tally.broken)
                + get(&tally.soft_timeouts)
                + get(&tally.hard_timeouts)
        };
        let until = Instant::now() + Duration::from_secs(2);
        while seen() < finished && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Stops the players and returns what they counted.
    async fn stop(self) -> anyhow::Result<Tally> {
        match self {
            Players::Local(local) => Ok(local.stop()),
            Players::Child(child) => {
                tokio::task::spawn_blocking(move || stop_child(child, Tally::parse)).await?
            }
        }
    }
}

/// Player loops in this process.
struct LocalPlayers {
    tally: Arc<Tally>,
    stopping: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl LocalPlayers {
    fn start(
        addr: SocketAddr,
        concurrency: usize,
        args: &BenchArgs,
    ) -> anyhow::Result<LocalPlayers> {
        // Fails here, before any game, if the game has no such bot.
        args.bot.build(args.game, 0)?;
        let tally = Arc::new(Tally::default());
        let stopping = Arc::new(AtomicBool::new(false));
        let options = PlayOptions {
            think: Duration::from_millis(args.think_ms),
        };
        let (game, kind) = (args.game, args.bot);
        let tasks: Vec<tokio::task::JoinHandle<()>> = (0..concurrency * game.player_count())
            .map(|slot| {
                let (tally, stopping) = (Arc::clone(&tally), Arc::clone(&stopping));
                tokio::spawn(async move {
                    let mut seed = slot as u64 * 1_000_003;
                    while !stopping.load(Ordering::Relaxed) {
                        seed += 1;
                        let played = match kind.build(game, seed) {
                            Ok(bot) => play_one(addr, bot, options, &tally, &stopping).await,
                            Err(error) => Err(error.into()),
                        };
                        if let Err(error) = played {
                            if tally.client_errors.fetch_add(1, Ordering::Relaxed) < 3 {
                                eprintln!("bench: a player failed: {error:#}");
                            }
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                })
            })
            .collect();
        Ok(LocalPlayers {
            tally,
            stopping,
            tasks,
        })
    }

    fn stop(self) -> Tally {
        self.stopping.store(true, Ordering::Relaxed);
        for task in self.tasks {
            task.abort();
        }
        self.tally.snapshot()
    }
}

/// Starts the players' process: this binary, at the requested priority.
fn spawn_players(
    addr: SocketAddr,
    concurrency: usize,
    args: &BenchArgs,
) -> anyhow::Result<ChildProcess> {
    spawn_child(
        "players",
        &[
            "--players-for".to_owned(),
            addr.to_string(),
            "--concurrency".to_owned(),
            concurrency.to_string(),
            "--think-ms".to_owned(),
            args.think_ms.to_string(),
            "--bot".to_owned(),
            args.bot.to_string(),
            "--game".to_owned(),
            args.game.to_string(),
        ],
        args,
    )
    .context("cannot start the players' process")
}

/// Starts the web observers' process: this binary, at the players'
/// priority.
fn spawn_observers(
    web: SocketAddr,
    count: usize,
    args: &BenchArgs,
) -> anyhow::Result<ChildProcess> {
    spawn_child(
        "web observers",
        &[
            "--observers-for".to_owned(),
            web.to_string(),
            "--web-observers".to_owned(),
            count.to_string(),
        ],
        args,
    )
    .context("cannot start the web observers' process")
}

/// Starts this binary with `bench_args` as a child process at the
/// players' priority. `idle` uses `chrt --idle` (the process runs only when
/// the server has nothing to do) and falls back to `nice -n 19`, which
/// falls back to a normal start. `role` names the process in messages.
fn spawn_child(
    role: &'static str,
    bench_args: &[String],
    args: &BenchArgs,
) -> anyhow::Result<ChildProcess> {
    let exe = std::env::current_exe().context("cannot find the spielleiter-bench binary")?;
    let launchers: &[&[&str]] = match args.players_priority.as_str() {
        "idle" => &[&["chrt", "--idle", "0"], &["nice", "-n", "19"], &[]],
        "nice" => &[&["nice", "-n", "19"], &[]],
        _ => &[&[]],
    };
    let mut last_error = None;
    for launcher in launchers {
        let mut command = match launcher.split_first() {
            Some((program, launcher_args)) => {
                let mut command = Command::new(program);
                command.args(launcher_args).arg(&exe);
                command
            }
            None => Command::new(&exe),
        };
        match command
            .args(bench_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(child) => return Ok(ChildProcess::watch(role, child)),
            Err(error) => last_error = Some(error),
        }
    }
    Err(last_error.map_or_else(|| anyhow::anyhow!("no launcher"), anyhow::Error::from))
}

/// A child process of the benchmark (players or web observers). Its
/// standard error is passed on to ours line by line, and its last line is
/// kept: the reason to name if the process ends before it is told to.
struct ChildProcess {
    role: &'static str,
    child: Child,
    last_error_line: Arc<std::sync::Mutex<Option<String>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
}

impl ChildProcess {
    fn watch(role: &'static str, mut child: Child) -> ChildProcess {
        let last_error_line = Arc::new(std::sync::Mutex::new(None));
        let stderr_reader = child.stderr.take().and_then(|stderr| {
            let last = Arc::clone(&last_error_line);
            std::thread::Builder::new()
                .name(format!("{role} stderr"))
                .spawn(move || {
                    for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                        eprintln!("{line}");
                        if let Ok(mut last) = last.lock() {
                            *last = Some(line);
                        }
                    }
                })
                .ok()
        });
        ChildProcess {
            role,
            child,
            last_error_line,
            stderr_reader,
        }
    }

    /// Why the process has ended, if it has: its exit status and the last
    /// line it wrote to standard error.
    fn died(&mut self) -> Option<String> {
        let status = self.child.try_wait().ok()??;
        // The last lines are read once the process has closed its end.
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        let last = self.last_error_line.lock().ok().and_then(|l| l.clone());
        Some(match last {
            Some(line) => format!("the {}' process ended ({status}): {line}", self.role),
            None => format!("the {}' process ended ({status})", self.role),
        })
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Tells a child process to stop (a line on its stdin) and returns the
/// last line of its stdout that `parse` takes.
fn stop_child<T>(process: ChildProcess, parse: impl Fn(&str) -> Option<T>) -> anyhow::Result<T> {
    let ChildProcess {
        role,
        mut child,
        stderr_reader,
        ..
    } = process;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "stop");
    }
    let stdout = child
        .stdout
        .take()
        .context("no stdout of the child process")?;
    let mut report = None;
    for line in BufReader::new(stdout).lines() {
        if let Some(parsed) = parse(&line?) {
            report = Some(parsed);
        }
    }
    let status = child.wait()?;
    // Its last messages before our report.
    if let Some(reader) = stderr_reader {
        let _ = reader.join();
    }
    match report {
        Some(report) => Ok(report),
        None => bail!("the {role}' process ended ({status}) without its report"),
    }
}

/// Waits for a line on stdin (the benchmark's signal to stop).
async fn until_told_to_stop() -> anyhow::Result<()> {
    tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
    })
    .await?;
    Ok(())
}

/// The players' process: play until a line arrives on stdin, then print
/// the tally.
async fn players_process(addr: SocketAddr, args: &BenchArgs) -> anyhow::Result<()> {
    let players = LocalPlayers::start(addr, args.concurrency, args)?;
    until_told_to_stop().await?;
    let tally = players.stop();
    println!("{}", tally.line());
    Ok(())
}

/// The web observers' process: observe until a line arrives on stdin, then
/// print what they read and this process's CPU time.
async fn observers_process(web: SocketAddr, count: usize) -> anyhow::Result<()> {
    let observers = LocalObservers::start(web, count);
    until_told_to_stop().await?;
    let observed = observers.stop();
    println!("{}", observed.line());
    Ok(())
}

/// Where the web observers run.
enum Observers {
    Local(LocalObservers),
    Child(ChildProcess),
}

impl Observers {
    /// Why the observers' child process has ended, if it has.
    fn died(&mut self) -> Option<String> {
        match self {
            Observers::Local(_) => None,
            Observers::Child(child) => child.died(),
        }
    }

    /// Ends the observers at once, without their report.
    fn kill(self) {
        match self {
            Observers::Local(local) => {
                local.stop();
            }
            Observers::Child(child) => child.kill(),
        }
    }

    /// Stops the observers and returns what they read.
    async fn stop(self) -> anyhow::Result<Observed> {
        match self {
            Observers::Local(local) => Ok(local.stop()),
            Observers::Child(child) => {
                tokio::task::spawn_blocking(move || stop_child(child, Observed::parse)).await?
            }
        }
    }
}

/// Web observers in this process.
struct LocalObservers {
    observed: Arc<Observed>,
    stopping: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    cpu_at_start: Option<Duration>,
}

impl LocalObservers {
    fn start(web: SocketAddr, count: usize) -> LocalObservers {
        let observed = Arc::new(Observed::default());
        let stopping = Arc::new(AtomicBool::new(false));
        LocalObservers {
            tasks: observers::start(web, count, &observed, &stopping),
            observed,
            stopping,
            cpu_at_start: usage::cpu_time(),
        }
    }

    /// Stops the observers; the counts with this process's CPU time since
    /// the start (in the benchmark's own process: the server's too).
    fn stop(self) -> Observed {
        self.stopping.store(true, Ordering::Relaxed);
        for task in self.tasks {
            task.abort();
        }
        let cpu = usage::cpu_time()
            .zip(self.cpu_at_start)
            .map(|(now, then)| now.saturating_sub(then));
        let observed = Observed::parse(&self.observed.line()).unwrap_or_default();
        observed.cpu_micros.store(
            cpu.map_or(0, |cpu| u64::try_from(cpu.as_micros()).unwrap_or(u64::MAX)),
            Ordering::Relaxed,
        );
        observed
    }
}

/// The report's line on the web observers.
fn observers_report(count: usize, observed: &Observed, elapsed: Duration) -> String {
    let get = Observed::get;
    let seconds = elapsed.as_secs_f64();
    let events = get(&observed.events);
    format!(
        "web observers:            {count}: {events} events read ({:.0} per second, {:.1} MiB/s), {} games followed to the end and checked, {} rooms gone before asked, {} bad; their process's CPU {:.2} s",
        events as f64 / seconds,
        get(&observed.bytes) as f64 / seconds / f64::from(1 << 20),
        get(&observed.games),
        get(&observed.gone),
        get(&observed.bad),
        get(&observed.cpu_micros) as f64 / 1e6
    )
}

/// One player's game: connect, join, play to the end.
async fn play_one(
    addr: SocketAddr,
    mut bot: AnyBot,
    options: PlayOptions,
    tally: &Tally,
    stopping: &AtomicBool,
) -> anyhow::Result<()> {
    let mut connection = Connection::connect(addr).await?;
    let room = connection.join(bot.game_type()).await?;
    let report = play(&mut connection, &room, options, |game| {
        bot.choose_move(game)
    })
    .await?;
    if stopping.load(Ordering::Relaxed) {
        // Ended by the benchmark's own shutdown: not a game outcome.
        return Ok(());
    }
    tally
        .moves_sent
        .fetch_add(u64::from(report.moves_sent), Ordering::Relaxed);
    // Count each game once: by its first seat's player.
    if report.seat == Some(0)
        && let Some(result) = &report.result
    {
        let causes: Vec<ScoreCause> = result.scores.iter().map(|s| s.cause).collect();
        let counter = if causes.contains(&ScoreCause::SoftTimeout) {
            &tally.soft_timeouts
        } else if causes.contains(&ScoreCause::HardTimeout) {
            &tally.hard_timeouts
        } else if causes.iter().all(|&c| c == ScoreCause::Regular) {
            &tally.regular
        } else {
            &tally.broken
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}

/// The server process's own resource figures, from the operating system.
mod usage {
    use std::time::Duration;

    /// CPU time this process has used so far, user and system (its child
    /// processes not counted); `None` where it cannot be read.
    #[cfg(unix)]
    pub(super) fn cpu_time() -> Option<Duration> {
        use nix::sys::resource::{UsageWho, getrusage};
        let usage = getrusage(UsageWho::RUSAGE_SELF).ok()?;
        let time = |t: nix::sys::time::TimeVal| {
            Duration::from_secs(u64::try_from(t.tv_sec()).ok()?)
                .checked_add(Duration::from_micros(u64::try_from(t.tv_usec()).ok()?))
        };
        time(usage.user_time())?.checked_add(time(usage.system_time())?)
    }

    #[cfg(not(unix))]
    pub(super) fn cpu_time() -> Option<Duration> {
        None
    }

    /// A memory figure of this process from `/proc/self/status` (Linux),
    /// e.g. `VmRSS:` (resident now) or `VmHWM:` (peak), in bytes.
    pub(super) fn rss(field: &str) -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find_map(|l| l.strip_prefix(field))?;
        let kib: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
        Some(kib * 1024)
    }

    /// Raises this process's open-files limit to its hard limit and
    /// returns the limit; `None` where it cannot be read.
    pub(super) fn raise_open_files_limit() -> Option<u64> {
        spielleiter_server::limits::raise_open_file_limit().map(|limit| limit.now)
    }

    /// Starts a new peak (`VmHWM`) at the current resident size (Linux),
    /// so that each run of a sweep reports its own peak. Elsewhere the peak
    /// stays the process's.
    pub(super) fn reset_peak_rss() {
        let _ = std::fs::write("/proc/self/clear_refs", "5");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_crosses_the_process_boundary() {
        let tally = Tally::default();
        tally.moves_sent.store(1234, Ordering::Relaxed);
        tally.soft_timeouts.store(7, Ordering::Relaxed);
        let back = Tally::parse(&tally.line()).expect("parses");
        assert_eq!(back.line(), tally.line());
        assert!(Tally::parse("tally 1 2").is_none());
        assert!(Tally::parse("garbage").is_none());
    }

    #[test]
    fn a_sweep_is_one_table_with_a_row_per_concurrency() {
        let row = |concurrency, cpu| Figures {
            concurrency,
            elapsed: Duration::from_secs(30),
            finished: 5000,
            moves: 400_000,
            soft: 1,
            hard: 0,
            latency: [Some(Duration::from_micros(30)), None, None],
            cpu,
            rss_start: Some(10 << 20),
            rss_end: Some(50 << 20),
            rss_peak: Some(60 << 20),
        };
        let table = sweep_table(&[row(50, Some(Duration::from_secs(12))), row(1000, None)]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert!(
            lines[0].starts_with("concurrency  games/min  moves/s  CPU/move"),
            "{table}"
        );
        // 12 s over 400,000 moves and 5,000 games; 5,000 games in 30 s.
        for cell in [
            "50", "10000", "13333", "30 µs", "2400 µs", "50.0 MiB", "60.0 MiB", "819 KiB",
        ] {
            assert!(
                lines[1].split("  ").any(|c| c.trim() == cell),
                "{cell}: {table}"
            );
        }
        assert!(lines[2].trim_start().starts_with("1000"), "{table}");
        // Every row is as wide as the header: the columns line up.
        assert_eq!(
            lines[1].chars().count(),
            lines[0].chars().count(),
            "{table}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_process_figures_are_read() {
        let before = usage::cpu_time().expect("getrusage");
        // CPU time grows with work done, however long the machine makes us wait.
        let mut x = 0u64;
        while usage::cpu_time().expect("getrusage") < before + Duration::from_millis(5) {
            for i in 0..100_000u64 {
                x = x.wrapping_mul(31).wrapping_add(i);
            }
            std::hint::black_box(x);
        }
        let rss = usage::rss("VmRSS:").expect("VmRSS");
        assert!(rss > 1 << 20, "{rss}");
        usage::reset_peak_rss();
        assert!(usage::rss("VmHWM:").expect("VmHWM") >= rss / 2);
    }
}
