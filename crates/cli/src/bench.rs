//! `spielleiter bench`: the server benchmark. Runs many concurrent games of
//! built-in bots against one server over loopback TCP and reports complete
//! games per minute, the server-added latency per move (from reading a move
//! to writing the next move request, measured inside the server), the
//! server's peak memory, and how many games were lost on time.
//!
//! The server runs in this process; the players run in a child process (the
//! same binary, `bench --players-for ADDR`) at the lowest priority available
//! (`chrt --idle`, else `nice -n 19`), so that the bots' own computing
//! competes with the server as little as possible, as it would with players
//! on other machines. Players
//! are ordinary clients (the client library, real sockets); the server's
//! figures come from its own counters.

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
use clap::Args;
use spielleiter_bots::{AnyBot, Bot, BotKind};
use spielleiter_client::{Connection, PlayOptions, play};
use spielleiter_protocol::result::ScoreCause;
use spielleiter_rules::GameType;
use spielleiter_server::{Config, EmbeddedServer, stats::ServerStats};
use tokio::time::Instant;

/// Options of the benchmark.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Games played at the same time.
    #[arg(long, default_value_t = 50, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    concurrency: usize,
    /// Stop after this many complete games.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Stop after this many seconds, even if fewer games are complete.
    #[arg(long, default_value_t = 120)]
    duration_secs: u64,
    /// How long each bot waits after a move request before it answers, in
    /// milliseconds (e.g. 1950 or 2050 to check the 2 s clock).
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// The game played.
    #[arg(long, default_value_t = GameType::DEFAULT, value_name = "ID")]
    game: GameType,
    /// The bot that plays every seat.
    #[arg(long, default_value = "random")]
    bot: BotKind,
    /// Write replays (to a temporary directory, removed afterwards), as a
    /// production server does.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    replays: bool,
    /// Server worker threads [default: one per core].
    #[arg(long)]
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
    /// Internal: be the players' process for the server at this address.
    #[arg(long, hide = true, value_name = "ADDR")]
    players_for: Option<SocketAddr>,
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
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        format!(
            "tally {} {} {} {} {} {}",
            get(&self.moves_sent),
            get(&self.regular),
            get(&self.broken),
            get(&self.soft_timeouts),
            get(&self.hard_timeouts),
            get(&self.client_errors)
        )
    }

    fn parse(line: &str) -> Option<Tally> {
        let mut numbers = line
            .strip_prefix("tally ")?
            .split(' ')
            .map(str::parse::<u64>);
        let mut next = || numbers.next()?.ok().map(AtomicU64::new);
        Some(Tally {
            moves_sent: next()?,
            regular: next()?,
            broken: next()?,
            soft_timeouts: next()?,
            hard_timeouts: next()?,
            client_errors: next()?,
        })
    }
}

/// Runs the benchmark (or, with `--players-for`, its players) and prints
/// the report.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if let Some(threads) = args.threads {
        builder.worker_threads(threads);
    }
    let runtime = builder.build().context("cannot start the async runtime")?;
    match args.players_for {
        Some(addr) => runtime.block_on(players_process(addr, args)),
        None => runtime.block_on(bench(args)),
    }
}

async fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    let replay_dir = std::env::temp_dir().join(format!("spielleiter-bench-{}", std::process::id()));
    let config = Config {
        port: 0,
        // Each game's players plus, for a moment, the connections of the
        // games that just ended.
        max_connections: args.concurrency * args.game.player_count() * 2 + 64,
        // Every player connects from this machine.
        loopback_exempt: true,
        replays: args.replays,
        replay_dir: replay_dir.clone(),
        shutdown_grace: Duration::ZERO,
        ..Config::default()
    };
    let server = EmbeddedServer::start(config).await?;
    let addr = server.addr();
    let stats = Arc::clone(server.stats());
    println!(
        "bench: {} concurrent games of {} between `{}` bots, think {} ms, replays {}, players {}, until {} games or {} s",
        args.concurrency,
        args.game,
        args.bot,
        args.think_ms,
        if args.replays { "on" } else { "off" },
        if args.same_process {
            "in this process".to_owned()
        } else {
            format!("in a child process at {} priority", args.players_priority)
        },
        args.games,
        args.duration_secs
    );

    let started = Instant::now();
    let players = if args.same_process {
        Players::Local(LocalPlayers::start(addr, args)?)
    } else {
        Players::Child(spawn_players(addr, args)?)
    };
    let deadline = started + Duration::from_secs(args.duration_secs);
    let mut last_report = started;
    loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let finished = ServerStats::get(&stats.games_finished);
        if finished >= args.games || Instant::now() >= deadline {
            break;
        }
        if last_report.elapsed() >= Duration::from_secs(5) {
            last_report = Instant::now();
            println!(
                "  {:>6.1} s: {finished} games, {} moves",
                started.elapsed().as_secs_f64(),
                ServerStats::get(&stats.moves)
            );
        }
    }
    let elapsed = started.elapsed();
    // Freeze the figures before the shutdown ends the games in flight.
    let finished = ServerStats::get(&stats.games_finished);
    let moves = ServerStats::get(&stats.moves);
    let soft = ServerStats::get(&stats.soft_timeouts);
    let hard = ServerStats::get(&stats.hard_timeouts);
    let latency = [0.5, 0.99, 0.999].map(|q| stats.move_latency.quantile(q));
    let latencies = stats.move_latency.count();
    let rss = peak_rss();
    players.settle(finished).await;
    let tally = players.stop().await?;
    server.stop().await?;
    let _ = std::fs::remove_dir_all(&replay_dir);

    let minutes = elapsed.as_secs_f64() / 60.0;
    let micros =
        |d: Option<Duration>| d.map_or_else(|| "-".to_owned(), |d| format!("{} µs", d.as_micros()));
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
    println!("elapsed:                  {:.1} s", elapsed.as_secs_f64());
    println!(
        "complete games:           {finished} ({:.0} per minute)",
        finished as f64 / minutes
    );
    println!(
        "moves applied:            {moves} ({:.0} per second)",
        moves as f64 / elapsed.as_secs_f64()
    );
    println!(
        "server-added latency:     p50 {}, p99 {}, p99.9 {} (over {latencies} moves)",
        micros(latency[0]),
        micros(latency[1]),
        micros(latency[2])
    );
    println!(
        "peak RSS of the server:   {}{}",
        rss.unwrap_or_else(|| "unknown".to_owned()),
        if args.same_process {
            " (with the players)"
        } else {
            ""
        }
    );
    println!("games lost on time:       {soft} soft, {hard} hard");
    println!(
        "as the players saw it:    {} moves sent, {} regular games, {} soft and {} hard timeouts, {} violations or leaves, {} client errors",
        get(&tally.moves_sent),
        get(&tally.regular),
        get(&tally.soft_timeouts),
        get(&tally.hard_timeouts),
        get(&tally.broken),
        get(&tally.client_errors)
    );
    Ok(())
}

/// Where the players run.
enum Players {
    Local(LocalPlayers),
    Child(Child),
}

impl Players {
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
            Players::Child(child) => tokio::task::spawn_blocking(move || stop_child(child)).await?,
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
    fn start(addr: SocketAddr, args: &BenchArgs) -> anyhow::Result<LocalPlayers> {
        // Fails here, before any game, if the game has no such bot.
        args.bot.build(args.game, 0)?;
        let tally = Arc::new(Tally::default());
        let stopping = Arc::new(AtomicBool::new(false));
        let options = PlayOptions {
            think: Duration::from_millis(args.think_ms),
        };
        let (game, kind) = (args.game, args.bot);
        let tasks = (0..args.concurrency * game.player_count())
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
/// `idle` uses `chrt --idle` (the process runs only when the server has
/// nothing to do) and falls back to `nice -n 19`, which falls back to a
/// normal start.
fn spawn_players(addr: SocketAddr, args: &BenchArgs) -> anyhow::Result<Child> {
    let exe = std::env::current_exe().context("cannot find the spielleiter binary")?;
    let player_args = [
        "bench".to_owned(),
        "--players-for".to_owned(),
        addr.to_string(),
        "--concurrency".to_owned(),
        args.concurrency.to_string(),
        "--think-ms".to_owned(),
        args.think_ms.to_string(),
        "--bot".to_owned(),
        args.bot.to_string(),
        "--game".to_owned(),
        args.game.to_string(),
    ];
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
            .args(&player_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
        {
            Ok(child) => return Ok(child),
            Err(error) => last_error = Some(error),
        }
    }
    Err(last_error.map_or_else(|| anyhow::anyhow!("no launcher"), anyhow::Error::from))
        .context("cannot start the players' process")
}

/// Tells the players' process to stop (a line on its stdin) and reads its
/// tally (a line on its stdout).
fn stop_child(mut child: Child) -> anyhow::Result<Tally> {
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "stop");
    }
    let stdout = child
        .stdout
        .take()
        .context("no stdout of the players' process")?;
    let mut tally = None;
    for line in BufReader::new(stdout).lines() {
        if let Some(parsed) = Tally::parse(&line?) {
            tally = Some(parsed);
        }
    }
    let status = child.wait()?;
    match tally {
        Some(tally) => Ok(tally),
        None => bail!("the players' process ended ({status}) without a tally"),
    }
}

/// The players' process: play until a line arrives on stdin, then print
/// the tally.
async fn players_process(addr: SocketAddr, args: &BenchArgs) -> anyhow::Result<()> {
    let players = LocalPlayers::start(addr, args)?;
    tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
    })
    .await?;
    let tally = players.stop();
    println!("{}", tally.line());
    Ok(())
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

/// The process's peak resident memory, from `/proc/self/status` (Linux).
fn peak_rss() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_owned())
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
}
