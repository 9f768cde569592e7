//! The match runner: plays many games of any hosted game between its
//! players — programs started with the contest's convention or built-in
//! bots, one per seat — on a Spielleiter server through the administration
//! protocol, and turns the results into statistics. The official
//! TestClient's job, and more: any game and player count (the seats rotate
//! so every player starts and sits in every seat equally often), parallel
//! games, a resumable results file, an Elo estimate for two players, and
//! players that crash or hang recorded as irregular games instead of
//! stopping the match.
//!
//! # Layout
//!
//! - [`settings`]: [`MatchSettings`], the players ([`PlayerSpec`],
//!   [`Program`]) and limits.
//! - [`runner`]: [`run_match`], scheduling games and recording them;
//!   `game` plays one game and `players` starts and ends players.
//! - [`record`]: [`GameRecord`], one finished game, and [`MatchKey`].
//! - [`stats`]: [`Summary`] with the Elo difference.
//! - [`tournament`]: [`TournamentSettings`], a round-robin league of any
//!   number of players: its tables and schedule (played as a season, one
//!   game at a time through [`play_table_game`]);
//!   [`standings`]: the league table ranked by the game's rule, with a
//!   rating per player; [`store`]: [`GameStore`], where finished games are
//!   kept (the JSON-lines [`ResultsFile`], a [`MemoryStore`]).
//! - [`progress`]: [`TerminalProgress`], a progress display.
//! - [`local_server`]: [`LocalServer`], an in-process server for
//!   `--start-server` and the demo. A game's replay is found through the
//!   replay store (`spielleiter_server::replay::archive`).
#![deny(missing_docs)]

pub mod error;
mod game;
pub mod local_server;
mod players;
pub mod progress;
pub mod record;
pub mod runner;
pub mod settings;
pub mod standings;
pub mod stats;
pub mod store;
pub mod tournament;

pub use error::ArenaError;
pub use local_server::{LocalServer, LocalServerSettings};
pub use progress::TerminalProgress;
pub use record::{Cause, GameRecord, MatchKey, ThinkTimes};
pub use runner::{MatchObserver, MatchReport, Quiet, run_match};
pub use settings::{
    DEFAULT_SERVER_CONNECTIONS, MatchSettings, PlayerSpec, Program, ProgramError, distinct_names,
};
pub use standings::{Rating, Standing, Standings};
pub use stats::{
    EloDifference, PlayerStats, Significance, Summary, never_joined, significantly_better,
};
pub use store::{GameStore, MemoryStore, ResultsFile};
pub use tournament::{Table, TournamentObserver, TournamentSettings, play_table_game};
