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
//!   migrations; [`sqlite`] and [`postgres`] implement it, with the
//!   decoding of the stored columns they share (`columns`).
//! - [`any_store`]: [`open`] by `--store` text, [`AnyStore`] (either
//!   store).
//! - [`worker`]: [`run_worker`], a worker of a season.
//! - [`report`]: standings and progress from the stored games.
#![deny(missing_docs)]

pub mod any_store;
pub(crate) mod columns;
pub mod definition;
pub mod error;
pub mod postgres;
pub mod report;
pub mod sqlite;
pub mod store;
pub mod worker;

pub use any_store::{AnyStore, StoreUrl, open, open_existing};
pub use definition::{ScheduledGame, SeasonDefinition, SeasonPlayer};
pub use error::SeasonError;
pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;
pub use store::{Claim, Created, GameRow, GameState, GivenBack, SCHEMA_VERSION, SeasonStore};
pub use worker::{WorkerEvent, WorkerObserver, WorkerReport, WorkerSettings, run_worker};
