//! [`SeasonError`]: why a season's store or worker failed.

/// Why a season command, store or worker failed.
#[derive(Debug, thiserror::Error)]
pub enum SeasonError {
    /// The `--store` text is no store this program knows.
    #[error(
        "`{url}` is no store: {why} (a file path for SQLite, or postgres://USER:PASSWORD@HOST:PORT/DATABASE)"
    )]
    BadUrl {
        /// The text as given.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// The store cannot be reached or refused the connection.
    #[error("cannot connect to {store}: {cause}")]
    Connect {
        /// The store, without password.
        store: String,
        /// The database's own message.
        cause: String,
    },
    /// The store's schema is newer than this program knows.
    #[error(
        "{store} holds schema version {found}, newer than this program's {supported}; use a newer spielleiter"
    )]
    NewerSchema {
        /// The store, without password.
        store: String,
        /// The version found.
        found: i64,
        /// The newest version this program knows.
        supported: i64,
    },
    /// A statement failed.
    #[error("{store}: {cause}")]
    Database {
        /// The store, without password.
        store: String,
        /// The database's own message.
        cause: String,
    },
    /// No season of that name in the store.
    #[error(
        "{store} holds no season named `{name}` ({}); create it with `spielleiter season create`",
        held_seasons(.held)
    )]
    NoSeason {
        /// The store.
        store: String,
        /// The season's name.
        name: String,
        /// The seasons the store holds, by name.
        held: Vec<String>,
    },
    /// A store that is only read does not exist.
    #[error(
        "{store} does not exist; `spielleiter season create --store …` or `spielleiter tournament` makes one"
    )]
    Missing {
        /// The store.
        store: String,
    },
    /// A season of that name exists with another definition.
    #[error(
        "{store} already holds a season named `{name}` with another definition ({difference}); choose another --name"
    )]
    OtherDefinition {
        /// The store.
        store: String,
        /// The season's name.
        name: String,
        /// What differs.
        difference: String,
    },
    /// The season's definition is unusable.
    #[error("{0}")]
    Definition(String),
    /// No game of that number, or no replay of it.
    #[error("{0}")]
    NotFound(String),
    /// The game runner failed (its server, its log directory).
    #[error(transparent)]
    Arena(#[from] spielleiter_arena::ArenaError),
    /// The store holds no contest.
    #[error("{store} holds no contest; `spielleiter contest create --store …` makes one")]
    NoContest {
        /// The store.
        store: String,
    },
    /// The store holds another contest (a store holds one).
    #[error("{store} holds the contest `{name}` already, {difference}; a store holds one contest")]
    OtherContest {
        /// The store.
        store: String,
        /// The contest it holds.
        name: String,
        /// How it differs from the one asked for (`not \`Other\``).
        difference: String,
    },
    /// A contest's accounts refused a call as asked (a taken name, a used
    /// link, no such team): carried through a unit of work so that its
    /// transaction is rolled back, and handed to the caller as it is.
    #[error(transparent)]
    Contest(spielleiter_contest::StoreError),
    /// The contest refused a change to its versions or matchdays as asked
    /// (no such team or version, a matchday played already): one line
    /// saying why, carried through a unit of work so that its transaction
    /// is rolled back.
    #[error("{0}")]
    Refused(String),
    /// A stored value cannot be read back.
    #[error("a stored {what} cannot be read: {cause}")]
    Corrupt {
        /// What was read.
        what: &'static str,
        /// Why not.
        cause: String,
    },
}

/// The seasons a store holds, for [`SeasonError::NoSeason`].
fn held_seasons(held: &[String]) -> String {
    match held {
        [] => "it holds none".to_owned(),
        names => format!(
            "it holds {}; name one with --name, or --season for serve",
            names
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl SeasonError {
    /// Whether trying again later may help (a lost or refused connection),
    /// as opposed to a mistake that stays one.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            SeasonError::Connect { .. } | SeasonError::Database { .. }
        )
    }
}
