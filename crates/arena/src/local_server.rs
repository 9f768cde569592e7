//! [`LocalServer`]: a Spielleiter server in this process on a loopback port,
//! with a random administrator passphrase, for `--start-server` and the
//! demo.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::PathBuf,
    time::Duration,
};

use spielleiter_server::{Config, EmbeddedServer};

use crate::error::ArenaError;

/// How the in-process server is set up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalServerSettings {
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Where replays go; `None` writes none.
    pub replay_dir: Option<PathBuf>,
    /// Seed of the start pieces; `None` seeds from the OS.
    pub seed: Option<u64>,
    /// Everything else: the move clock, limits, gzip (from the config file
    /// and environment, for `match`). Address, port, passphrase, seed and
    /// replay directory are this server's own.
    pub base: Config,
}

/// A running in-process server. Stop it with [`LocalServer::stop`]; dropping
/// it aborts the server.
#[derive(Debug)]
pub struct LocalServer {
    server: EmbeddedServer,
    passphrase: String,
    replay_dir: Option<PathBuf>,
    /// Connections it admits at once (loopback is exempt from the limit
    /// per address, so this is the total).
    connections: usize,
}

impl LocalServer {
    /// Starts a server on `127.0.0.1` with administration enabled under a
    /// fresh random passphrase. Players are timed as by default; slots
    /// prepared with `canTimeout="false"` are not.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Server`] if the port cannot be bound.
    pub async fn start(settings: LocalServerSettings) -> Result<LocalServer, ArenaError> {
        let passphrase = format!("{:032x}", rand::random::<u128>());
        let replay_dir = settings
            .replay_dir
            .map(|dir| std::path::absolute(&dir).unwrap_or(dir));
        let config = Config {
            listen: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: settings.port,
            admin_passphrase: Some(passphrase.clone()),
            seed: settings.seed,
            replays: replay_dir.is_some(),
            replay_dir: replay_dir.clone().unwrap_or_default(),
            // Games are over when the match stops the server.
            shutdown_grace: Duration::ZERO,
            // Every player runs on this machine; --parallel may need many.
            loopback_exempt: true,
            ..settings.base
        };
        let connections = config.max_connections;
        let server = EmbeddedServer::start(config)
            .await
            .map_err(ArenaError::Server)?;
        Ok(LocalServer {
            server,
            passphrase,
            replay_dir,
            connections,
        })
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// The server's counters and room snapshots, for a web side next to
    /// it (the demo's live page).
    pub fn stats(&self) -> &std::sync::Arc<spielleiter_server::stats::ServerStats> {
        self.server.stats()
    }

    /// How many connections the server admits at once, for
    /// [`MatchSettings::server_connections`](crate::MatchSettings::server_connections).
    pub fn connections(&self) -> usize {
        self.connections
    }

    /// The administrator passphrase.
    pub fn passphrase(&self) -> &str {
        &self.passphrase
    }

    /// The absolute replay directory, if replays are written.
    pub fn replay_dir(&self) -> Option<&PathBuf> {
        self.replay_dir.as_ref()
    }

    /// Shuts the server down and waits until it has (games still running
    /// end at once, with a result and a complete replay).
    pub async fn stop(self) {
        // A failed shutdown has been logged by the server; the match is
        // over either way.
        let _ = self.server.stop().await;
    }
}
