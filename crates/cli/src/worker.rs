//! `spielleiter worker`: a worker of a season — starts a game server in
//! this process and plays the season's games from the store until none is
//! left, `--slots` at a time (see `spielleiter_season::run_worker`).

use std::time::Duration;

use anyhow::Context;
use clap::Args;
use spielleiter_season::{SeasonStore, WorkerSettings, run_worker};
use tracing_subscriber::{EnvFilter, fmt, prelude::*};

use crate::{
    arena_options::{GameOptions, Venue, interrupt, prepare},
    season::StoreArgs,
};

/// Options of a worker.
#[derive(Debug, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Games played at the same time (a player needs a core of its own at
    /// full strength).
    #[arg(
        long,
        default_value_t = 1,
        value_name = "K",
        env = "SPIELLEITER_WORKER_SLOTS"
    )]
    slots: usize,
    /// The worker's name in the store [default: HOST-PID].
    #[arg(long, value_name = "NAME")]
    worker_name: Option<String>,
    /// Milliseconds a claimed game stays this worker's without a
    /// heartbeat; past it, another worker claims the game.
    #[arg(long, default_value_t = 15_000, value_name = "MS")]
    lease_ms: u64,
    /// Milliseconds between heartbeats.
    #[arg(long, default_value_t = 3_000, value_name = "MS")]
    heartbeat_ms: u64,
    /// Failures outside the players (worker crash, lost database or
    /// server) after which a game is given up as failed.
    #[arg(long, default_value_t = 3, value_name = "N")]
    max_failures: u32,
    /// Config file of the server started in this process [default:
    /// config/spielleiter.toml, if it exists].
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    #[command(flatten)]
    options: GameOptions,
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "worker".to_owned())
}

/// Runs the worker until the season is over; Ctrl-C or SIGTERM gives the
/// running games back.
pub fn run(args: &WorkerArgs) -> anyhow::Result<()> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(value) if !value.is_empty() => EnvFilter::try_new(value).context("invalid RUST_LOG")?,
        _ => EnvFilter::new("warn,spielleiter_season=info"),
    };
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(
            fmt::layer()
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_writer(std::io::stderr),
        )
        .try_init();
    if args.lease_ms <= args.heartbeat_ms {
        anyhow::bail!(
            "--lease-ms ({}) must be longer than --heartbeat-ms ({})",
            args.lease_ms,
            args.heartbeat_ms
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: &WorkerArgs) -> anyhow::Result<()> {
    let store = std::sync::Arc::new(spielleiter_season::open_existing(&args.store.store).await?);
    // The season must exist before a server is started for it.
    store.definition(&args.store.name).await?;
    let (server, template) = prepare(
        Venue::InProcess {
            port: 0,
            config: args.config.as_deref(),
        },
        Vec::new(),
        &args.options,
    )
    .await?;
    let mut settings = WorkerSettings::new(
        args.worker_name
            .clone()
            .unwrap_or_else(|| format!("{}-{}", host_name(), std::process::id())),
    );
    settings.slots = args.slots;
    settings.lease = Duration::from_millis(args.lease_ms);
    settings.heartbeat = Duration::from_millis(args.heartbeat_ms);
    settings.max_failures = args.max_failures;
    let shutdown = interrupt();
    let on_term = shutdown.clone();
    tokio::spawn(async move {
        if let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            term.recv().await;
            on_term.cancel();
        }
    });
    let outcome = run_worker(
        std::sync::Arc::clone(&store),
        &args.store.name,
        &template,
        &settings,
        shutdown,
        None,
    )
    .await;
    if let Some(server) = server {
        server.stop().await;
    }
    let report = outcome?;
    println!(
        "worker {}: {} results stored, {} discarded (lease lost), {} games given back",
        settings.name, report.recorded, report.discarded, report.given_back
    );
    if report.interrupted {
        anyhow::bail!("stopped before the season was over; its running games were given back");
    }
    Ok(())
}
