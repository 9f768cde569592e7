//! The match runner: plays games of any hosted game between its players —
//! programs started with the contest's convention or built-in bots, one
//! per seat — on a Spielleiter server through the administration
//! protocol, one game at a time ([`play_table_game`]), and turns the
//! results into statistics. The official TestClient's job, and more: any
//! game and player count (the seats rotate so every player starts and sits
//! in every seat equally often), an Elo estimate for two players, league
//! standings, and players that crash or hang recorded as irregular games
//! instead of stopping the match. Which games are played, how many at
//! once, and where they are kept is a season's (`spielleiter_season`):
//! `match`, `tournament` and `worker` are seasons played by a worker.
//!
//! # Layout
//!
//! - [`settings`]: [`MatchSettings`], the players ([`PlayerSpec`],
//!   [`Program`]), limits and the checks before a match plays; `game`
//!   plays one game and `players` starts and ends players.
//! - [`record`]: [`MatchKey`]; [`GameRecord`], one finished game, is the
//!   archive's (`spielleiter_archive`), as is [`FinishedGame`], everything
//!   a game left, which [`play_table_game`] returns.
//! - [`results_file`]: [`ResultsFile`], the JSON-lines results file a
//!   match resumes from and a tournament exports to.
//! - [`stats`]: [`Summary`] with the Elo difference.
//! - [`tournament`]: [`TournamentSettings`], a round-robin league of any
//!   number of players: its tables and schedule, and [`play_table_game`];
//!   [`standings`]: the league table ranked by the game's rule, with a
//!   rating per player.
//! - [`progress`]: the observers of a match and a tournament, and
//!   [`TerminalProgress`], a progress display.
//! - [`local_server`]: [`LocalServer`], an in-process server for
//!   `--start-server` and the demo. A game's replay is found through the
//!   replay store (`spielleiter_server::replay::archive`), or taken from
//!   the server's memory where it keeps replays for this process.
#![deny(missing_docs)]

pub mod error;
mod game;
pub mod local_server;
mod players;
pub mod progress;
pub mod record;
pub mod results_file;
pub mod settings;
pub mod standings;
pub mod stats;
pub mod tournament;

pub use error::ArenaError;
pub use local_server::{LocalServer, LocalServerSettings};
pub use progress::{MatchObserver, Quiet, TerminalProgress, TournamentObserver};
pub use record::{Cause, GameRecord, MatchKey, ThinkTimes, missing_games};
pub use results_file::ResultsFile;
pub use settings::{
    DEFAULT_SERVER_CONNECTIONS, MatchSettings, PlayerSpec, Program, ProgramError, distinct_names,
};
pub use spielleiter_archive::FinishedGame;
pub use standings::{Rating, Standing, Standings};
pub use stats::{
    EloDifference, PlayerStats, Significance, Summary, never_joined, significantly_better,
};
pub use tournament::{Table, TournamentSettings, play_table_game};
