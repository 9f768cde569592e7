//! Contest seasons: a season is its game, its players (a name and how to
//! start it), its schedule — every game with its seats and its own seeds,
//! derived from the season's seed and the game's number — and its
//! results. A season lives in a [`SeasonStore`]: one SQLite file
//! ([`SqliteStore`], no set-up) or a PostgreSQL database
//! ([`PostgresStore`], shared by workers on many machines). Workers
//! ([`run_worker`]) claim games under leases fenced by attempt numbers, so
//! every game gets exactly one result whatever crashes.
//!
//! # Layout
//!
//! - [`definition`]: [`SeasonDefinition`], [`SeasonPlayer`] and the
//!   schedule.
//! - [`store`]: the [`SeasonStore`] interface and the schema's
//!   migrations. Its statements (`store_sql`, and `archive_sql` for what
//!   a game leaves besides its result) are written once for both
//!   databases on [`sql`], the layer (statements, rows, transactions)
//!   that [`sqlite`] and [`postgres`] implement as a [`sql::Database`];
//!   what the stored columns mean is `columns`'.
//! - [`any_store`]: [`open`] by `--store` text, [`AnyStore`] (either
//!   store).
//! - [`contest_sql`]: a contest in the store ([`create_contest`]) and its
//!   accounts ([`ContestStore`], the web side's
//!   `spielleiter_contest::ContestAccounts`); [`matchday_sql`]: its teams'
//!   versions and its matchdays, whose encounters are seasons the workers
//!   play; [`knockout_sql`]: the final's bracket and rounds, whose tied
//!   encounters' seasons grow; [`upkeep_sql`]: failed games played again,
//!   deadlines and automatic publication acted on.
//! - [`worker`]: [`run_worker`], a worker of a season.
//! - [`match_season`]: [`run_match`], a match as a season of one table in
//!   memory, played by this process's worker and resumed from its results
//!   file.
//! - [`season_archive`]: [`SeasonArchive`], a season as an archive of
//!   finished games (`spielleiter_archive::GameArchive`).
//! - [`url_mask`]: [`masked_store_url`], a store's text as it may be
//!   shown (every password masked).
//! - [`report`]: standings and progress from the stored games.
#![deny(missing_docs)]

pub mod any_store;
pub(crate) mod archive_sql;
pub mod build_sql;
pub mod build_worker;
pub mod calendar_sql;
pub(crate) mod columns;
#[cfg(feature = "test-suite")]
pub mod conformance;
pub mod contest_sql;
pub mod definition;
pub mod error;
pub mod friendly_sql;
pub mod knockout_sql;
pub mod match_season;
pub mod matchday_sql;
pub mod notice_sql;
pub mod postgres;
pub mod report;
pub(crate) mod results_sql;
pub mod season_archive;
pub mod sql;
pub mod sqlite;
pub mod store;
pub(crate) mod store_sql;
pub mod test_sql;
pub mod upkeep_sql;
pub mod url_mask;
pub mod worker;

pub use any_store::{AnyStore, StoreUrl, open, open_existing};
pub use build_sql::{BuildJob, BuildOutcome, StoredBuild, contest_image_key};
pub use build_worker::{BuildReport, Built, ImageBuilder, run_build_worker};
pub use contest_sql::{ContestStore, NewContest, create_contest};
pub use definition::{
    InvalidName, MAX_NAME_CHARS, ScheduledGame, SeasonDefinition, SeasonPlayer, check_player_name,
};
pub use error::SeasonError;
pub use knockout_sql::{FinalReport, RoundPlay, RoundReport};
pub use match_season::{MatchReport, run_match};
pub use matchday_sql::{
    ActivationRecord, Bye, MatchdayReport, MatchdayState, StoredEncounter, StoredMatchday,
    StoredVersion,
};
pub use postgres::PostgresStore;
pub use season_archive::SeasonArchive;
pub use sqlite::SqliteStore;
pub use store::{Claim, Created, GameRow, GameState, GivenBack, SCHEMA_VERSION, SeasonStore};
pub use upkeep_sql::Upkeep;
pub use url_mask::masked_store_url;
pub use worker::{
    WorkerEvent, WorkerObserver, WorkerReport, WorkerSettings, play_tables, run_worker,
};
