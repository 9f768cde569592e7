//! How the web side reaches the game server for people's seats:
//! [`PlaySettings`], which the registry and each seat's task read.

use std::{net::SocketAddr, time::Duration};

use spielleiter_rules::GameType;
use spielleiter_server::{clock::TimeLimits, in_process::InProcess};

/// How the web side reaches the game server for people's seats.
#[derive(Clone)]
pub struct PlaySettings {
    /// The game port, which a person's own client is told to connect to.
    pub game_addr: SocketAddr,
    /// The game server of this process: the seats' rooms are prepared by an
    /// in-process administrator, and the seats (the person's, the bots')
    /// are in-process players that cannot administer.
    pub server: InProcess,
    /// Seats playing at once.
    pub max_seats: usize,
    /// Seats playing at once for one address (an IPv6 address counts by
    /// its /64, as the connection caps count it).
    pub max_seats_per_address: usize,
    /// How long a seat's page may stay silent, or the person take for a
    /// move on their turn, before the seat leaves.
    pub idle_limit: Duration,
    /// How long the built-in bots wait before they answer, so that a
    /// person sees their moves one by one ([`BOT_THINK`](super::seat::BOT_THINK) for people).
    pub bot_think: Duration,
    /// The game server's move limits per game (empty when it times
    /// nobody): what a person whose moves are timed is told.
    pub move_limits: std::collections::BTreeMap<GameType, TimeLimits>,
}

impl std::fmt::Debug for PlaySettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlaySettings")
            .field("game_addr", &self.game_addr)
            .field("max_seats", &self.max_seats)
            .field("max_seats_per_address", &self.max_seats_per_address)
            .field("idle_limit", &self.idle_limit)
            .field("bot_think", &self.bot_think)
            .finish_non_exhaustive()
    }
}
