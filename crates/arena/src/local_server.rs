//! [`LocalServer`]: a Spielleiter server in this process on a loopback port,
//! for `--start-server` and the demo, administered in-process: no
//! passphrase crosses TCP, so a player guessing one (it reaches the same
//! port from the same address) delays no game's administrator.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::PathBuf,
    time::Duration,
};

use spielleiter_server::{Config, EmbeddedServer, in_process::InProcess};

use crate::error::ArenaError;

/// How the in-process server is set up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalServerSettings {
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Where replays go; `None` writes none.
    pub replay_dir: Option<PathBuf>,
    /// Keep every finished game's replay in memory for this process
    /// ([`LocalServer::kept_replays`]) instead of writing files (a season's
    /// worker, which stores the games in its store); `replay_dir` is then
    /// not used.
    pub keep_replays: bool,
    /// Seed of the start pieces; `None` seeds from the OS.
    pub seed: Option<u64>,
    /// Whether administration over TCP is on too, under a fresh random
    /// passphrase ([`LocalServer::passphrase`]): for tools and tests that
    /// administer the server from another process. Off, `authenticate` on
    /// the port is refused at once (administration disabled) and only the
    /// in-process door ([`LocalServer::in_process`]) administers.
    pub admin_over_tcp: bool,
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
    passphrase: Option<String>,
    replay_dir: Option<PathBuf>,
    /// Connections it admits at once (loopback is exempt from the limit
    /// per address, so this is the total).
    connections: usize,
}

impl LocalServer {
    /// Starts a server on `127.0.0.1`, administered through
    /// [`LocalServer::in_process`] (and over TCP only if
    /// [`LocalServerSettings::admin_over_tcp`]). Players are timed as by
    /// default; slots prepared with `canTimeout="false"` are not.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Server`] if the port cannot be bound.
    pub async fn start(settings: LocalServerSettings) -> Result<LocalServer, ArenaError> {
        let passphrase = settings
            .admin_over_tcp
            .then(|| format!("{:032x}", rand::random::<u128>()));
        let replay_dir = settings
            .replay_dir
            .filter(|_| !settings.keep_replays)
            .map(|dir| std::path::absolute(&dir).unwrap_or(dir));
        let config = Config {
            listen: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: settings.port,
            admin_passphrase: passphrase.clone(),
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
        let server = if settings.keep_replays {
            EmbeddedServer::start_keeping_replays(config).await
        } else {
            EmbeddedServer::start(config).await
        }
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

    /// The server's passphrase back-off (with
    /// [`LocalServerSettings::admin_over_tcp`]: the guesses on its port).
    pub fn auth(&self) -> &std::sync::Arc<spielleiter_server::limits::AuthBackoff> {
        self.server.auth()
    }

    /// How many connections the server admits at once, for
    /// [`MatchSettings::server_connections`](crate::MatchSettings::server_connections).
    pub fn connections(&self) -> usize {
        self.connections
    }

    /// The administrator passphrase over TCP, if
    /// [`LocalServerSettings::admin_over_tcp`] asked for one.
    pub fn passphrase(&self) -> Option<&str> {
        self.passphrase.as_deref()
    }

    /// The door for connections from this process: an administrator
    /// without a passphrase, players that cannot administer.
    pub fn in_process(&self) -> &InProcess {
        self.server.in_process()
    }

    /// The finished games the server keeps in memory, when started to
    /// keep them ([`LocalServerSettings::keep_replays`]).
    pub fn kept_replays(&self) -> Option<&spielleiter_server::replay::KeptReplays> {
        self.server.kept_replays()
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
