//! [`SeasonStore`]: where a season's definition, schedule, claims and
//! results live — one interface, implemented once (`store_sql`) for every
//! [`Database`](crate::sql::Database): [`SqliteStore`](crate::SqliteStore),
//! one file and no set-up, and [`PostgresStore`](crate::PostgresStore),
//! shared by workers on many machines; [`open`](crate::open), in
//! [`any_store`](crate::any_store), picks one by its `--store` text. The
//! schema's migrations are here, one list for both databases.
//!
//! A game is `waiting`, `running` (claimed by a worker until its lease
//! ends), `done` (one result) or `failed` (given up after too many
//! failures outside the players). Every claim raises the game's attempt
//! number; a heartbeat or a result is accepted only under the current
//! attempt and an unexpired lease, so a worker whose lease ran out can
//! write nothing (fencing).

use std::{future::Future, time::Duration};

use spielleiter_arena::{FinishedGame, GameRecord};

use tracing::info;

use crate::{SeasonDefinition, definition::ScheduledGame, error::SeasonError, sql::Sql};

/// The newest schema version this program writes and reads. Version 1:
/// seasons and games; 2: each game's players' logs and wire log
/// (`archive_sql`); 3: a contest and its groups, teams, accounts, invite
/// links and sessions (`contest_sql`); 4: a team's versions and their
/// activations, matchdays, their encounters and the teams sitting out
/// (`matchday_sql`); 5: the final's bracket, its seeds by place
/// (`knockout_sql`); 6: a decided encounter's result, kept
/// (`matchday_sql`); 7: a team's uploads and their build jobs
/// (`build_sql`).
pub const SCHEMA_VERSION: i64 = 10;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameState {
    /// Not claimed yet, or given back.
    Waiting,
    /// Claimed by a worker.
    Running,
    /// Played; its one result is stored.
    Done,
    /// Given up after too many failures outside the players.
    Failed,
}

impl GameState {
    /// The state as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            GameState::Waiting => "waiting",
            GameState::Running => "running",
            GameState::Done => "done",
            GameState::Failed => "failed",
        }
    }

    pub(crate) fn parse(text: &str) -> Result<GameState, SeasonError> {
        Ok(match text {
            "waiting" => GameState::Waiting,
            "running" => GameState::Running,
            "done" => GameState::Done,
            "failed" => GameState::Failed,
            other => {
                return Err(SeasonError::Corrupt {
                    what: "game state",
                    cause: format!("`{other}`"),
                });
            }
        })
    }
}

/// A game a worker holds: which game, and under which attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The season's name.
    pub season: String,
    /// The game's place in the schedule.
    pub game: ScheduledGame,
    /// The attempt number this claim holds; the fence for every write.
    pub attempt: i64,
}

/// One game of a season as stored.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's place in the schedule.
    pub game: ScheduledGame,
    /// Where it stands.
    pub state: GameState,
    /// Claims so far.
    pub attempt: i64,
    /// Failures outside the players so far.
    pub failures: i64,
    /// The worker that holds or held it last.
    pub worker: Option<String>,
    /// Its result, once done.
    pub record: Option<GameRecord>,
    /// Why it failed last.
    pub error: Option<String>,
    /// When it was claimed last (ms since the Unix epoch, the store's clock).
    pub started_ms: Option<i64>,
    /// When its result was stored (ms since the Unix epoch).
    pub finished_ms: Option<i64>,
}

/// What creating a season did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Created {
    /// The season is new; its games are scheduled.
    New,
    /// The same season was there already; nothing changed.
    Existing,
}

/// What giving a game back did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GivenBack {
    /// The game waits for the next claim.
    Waiting,
    /// The game failed too often and is given up.
    Failed,
    /// The claim was no longer valid; nothing changed.
    Stale,
}

/// A season's store. Every method is one short transaction; workers on
/// many machines may call them at once.
pub trait SeasonStore: Send + Sync {
    /// Names the store for people (no password).
    fn describe(&self) -> String;

    /// Creates the season `name` with its schedule, or finds the same
    /// season there already.
    ///
    /// # Errors
    ///
    /// A season of that name with another definition
    /// ([`SeasonError::OtherDefinition`]), or the store fails.
    fn create(
        &self,
        name: &str,
        definition: &SeasonDefinition,
        schedule: &[ScheduledGame],
    ) -> impl Future<Output = Result<Created, SeasonError>> + Send;

    /// The names of the seasons the store holds, in order (a command
    /// without `--name` takes the store's only season).
    ///
    /// # Errors
    ///
    /// The store fails.
    fn season_names(&self) -> impl Future<Output = Result<Vec<String>, SeasonError>> + Send;

    /// The season's definition.
    ///
    /// # Errors
    ///
    /// No such season, or the store fails.
    fn definition(
        &self,
        name: &str,
    ) -> impl Future<Output = Result<SeasonDefinition, SeasonError>> + Send;

    /// Claims the waiting game with the lowest number, or a running one
    /// whose lease has expired (a failure of its worker: one whose
    /// failures reach `max_failures` is marked failed instead), for
    /// `lease`; only games of `tables` when given (a worker that cannot
    /// start some player leaves that player's games to others); `None`
    /// when no game can be claimed now.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn claim(
        &self,
        season: &str,
        worker: &str,
        lease: Duration,
        max_failures: u32,
        tables: Option<&[u32]>,
    ) -> impl Future<Output = Result<Option<Claim>, SeasonError>> + Send;

    /// Extends the claim's lease by `lease` from now; false if the claim
    /// is no longer valid (expired, or claimed again).
    ///
    /// # Errors
    ///
    /// The store fails.
    fn heartbeat(
        &self,
        claim: &Claim,
        lease: Duration,
    ) -> impl Future<Output = Result<bool, SeasonError>> + Send;

    /// Stores the finished game — its result, its replay (gzipped), its
    /// players' logs and its wire log — in one transaction, only under a
    /// valid claim; false (nothing written) otherwise.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn record(
        &self,
        claim: &Claim,
        game: &FinishedGame,
    ) -> impl Future<Output = Result<bool, SeasonError>> + Send;

    /// Gives a claimed game back: after a failure outside the players
    /// (`error`: counted; after `max_failures` the game fails), or unplayed
    /// at a worker's shutdown (`error` `None`: not counted).
    ///
    /// # Errors
    ///
    /// The store fails.
    fn give_back(
        &self,
        claim: &Claim,
        error: Option<&str>,
        max_failures: u32,
    ) -> impl Future<Output = Result<GivenBack, SeasonError>> + Send;

    /// Gives back every game `worker` holds, uncounted: for a store one
    /// process owns (a `tournament`'s file), whose earlier run was killed
    /// holding games. Returns how many.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn release_worker(
        &self,
        season: &str,
        worker: &str,
    ) -> impl Future<Output = Result<u64, SeasonError>> + Send;

    /// Sets every game of the season that was given up as failed waiting
    /// again (its failures and error cleared, its attempt kept, so that an
    /// old claim on it is still refused its record); how many.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn retry_failed(&self, season: &str) -> impl Future<Output = Result<u64, SeasonError>> + Send;

    /// Every game of the season, by number.
    ///
    /// # Errors
    ///
    /// The store fails or holds something unreadable.
    fn games(&self, season: &str)
    -> impl Future<Output = Result<Vec<GameRow>, SeasonError>> + Send;

    /// One page of the season's games: those numbered after `after`, by
    /// number, at most `limit` (keyset paging: a page costs the same
    /// wherever it starts, and a long season is read a page at a time).
    ///
    /// # Errors
    ///
    /// The store fails or holds something unreadable.
    fn games_after(
        &self,
        season: &str,
        after: u32,
        limit: u32,
    ) -> impl Future<Output = Result<Vec<GameRow>, SeasonError>> + Send;

    /// The gzipped replay of game `number`, if stored.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn replay(
        &self,
        season: &str,
        number: u32,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, SeasonError>> + Send;

    /// The log of player `player` (an index of the game's record's
    /// players) of game `number`, if stored.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn player_log(
        &self,
        season: &str,
        number: u32,
        player: usize,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, SeasonError>> + Send;

    /// The gzipped wire log of game `number`, if stored.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn wire_log(
        &self,
        season: &str,
        number: u32,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, SeasonError>> + Send;

    /// Which logs game `number` keeps, without reading them: the players
    /// whose logs are stored (in order) and whether its wire log is.
    ///
    /// # Errors
    ///
    /// The store fails.
    fn logs_of(
        &self,
        season: &str,
        number: u32,
    ) -> impl Future<Output = Result<(Vec<usize>, bool), SeasonError>> + Send;

    /// For a worker that finds every game of the season settled: whether
    /// it has games to play after all. A knockout encounter's season
    /// (`knockout_sql`) tied after its games gets the next ones here, in
    /// one transaction, as the contest's rules say; any other season never
    /// grows.
    ///
    /// # Errors
    ///
    /// The store fails or holds a result that does not fit its encounter.
    fn more_games(&self, season: &str) -> impl Future<Output = Result<bool, SeasonError>> + Send;
}

/// The SQL of each schema version, in order, written once for both
/// databases (see [`crate::sql`]; `{blob}` is the store's type of bytes).
/// Never change a released step: add one (a new table is a new step).
const MIGRATIONS: &[&str] = &[
    // Version 1: seasons and their games.
    "
CREATE TABLE seasons (
    name TEXT PRIMARY KEY,
    definition TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE games (
    season TEXT NOT NULL REFERENCES seasons (name),
    number INTEGER NOT NULL,
    table_index INTEGER NOT NULL,
    table_game INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'waiting',
    attempt BIGINT NOT NULL DEFAULT 0,
    failures BIGINT NOT NULL DEFAULT 0,
    worker TEXT,
    lease_until BIGINT,
    started_ms BIGINT,
    finished_ms BIGINT,
    record TEXT,
    replay {blob},
    error TEXT,
    PRIMARY KEY (season, number)
);
CREATE INDEX games_by_state ON games (season, state, number);
CREATE INDEX games_open ON games (season, number) WHERE state IN ('waiting', 'running');
",
    // Version 2: the players' logs (capped as a sandboxed player's:
    // `spielleiter_archive::PLAYER_LOG_BYTES`) and the wire log (gzipped)
    // of each game, beside its row in `games` (`archive_sql`).
    "
CREATE TABLE game_player_logs (
    season TEXT NOT NULL,
    number INTEGER NOT NULL,
    player INTEGER NOT NULL,
    log {blob} NOT NULL,
    PRIMARY KEY (season, number, player),
    FOREIGN KEY (season, number) REFERENCES games (season, number)
);
CREATE TABLE game_wire_logs (
    season TEXT NOT NULL,
    number INTEGER NOT NULL,
    log {blob} NOT NULL,
    PRIMARY KEY (season, number),
    FOREIGN KEY (season, number) REFERENCES games (season, number)
);
",
    // Version 3: a contest (issue 35) with its championship groups, teams,
    // accounts, invite links and sessions (`contest_sql`). Names are unique
    // by their lower-case key within the contest; invite tokens and session
    // ids are kept only as their SHA-256 digests; truth values are 0 or 1;
    // instants are seconds since the Unix epoch, as the caller's clock read
    // them. An invite's `created_by` names no row: its maker may be the
    // administrator (no account) or a member removed since.
    "
CREATE TABLE contests (
    id {id},
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    seed TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE TABLE contest_groups (
    id {id},
    contest BIGINT NOT NULL REFERENCES contests (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    UNIQUE (contest, name_key)
);
CREATE TABLE contest_teams (
    id {id},
    contest BIGINT NOT NULL REFERENCES contests (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    group_id BIGINT REFERENCES contest_groups (id),
    enabled INTEGER NOT NULL DEFAULT 1,
    auto_accept_friendly INTEGER NOT NULL DEFAULT 0,
    UNIQUE (contest, name_key)
);
CREATE TABLE contest_accounts (
    id {id},
    contest BIGINT NOT NULL REFERENCES contests (id),
    display_name TEXT NOT NULL,
    login_key TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    team BIGINT REFERENCES contest_teams (id),
    role TEXT CHECK (role IN ('teacher', 'student')),
    enabled INTEGER NOT NULL DEFAULT 1,
    UNIQUE (contest, login_key),
    CHECK ((team IS NULL) = (role IS NULL))
);
CREATE INDEX contest_accounts_by_team ON contest_accounts (team, id);
CREATE TABLE contest_invites (
    id {id},
    token {blob} NOT NULL UNIQUE,
    team BIGINT NOT NULL REFERENCES contest_teams (id),
    kind TEXT NOT NULL CHECK (kind IN ('teacher', 'student', 'password_reset')),
    reset_member BIGINT REFERENCES contest_accounts (id),
    created_by BIGINT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    CHECK ((kind = 'password_reset') = (reset_member IS NOT NULL))
);
CREATE INDEX contest_invites_by_team ON contest_invites (team, id);
CREATE INDEX contest_invites_by_member ON contest_invites (reset_member);
CREATE TABLE contest_sessions (
    id {id},
    token {blob} NOT NULL UNIQUE,
    member BIGINT NOT NULL REFERENCES contest_accounts (id),
    signed_in_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    user_agent TEXT NOT NULL,
    address TEXT NOT NULL
);
CREATE INDEX contest_sessions_by_member ON contest_sessions (member);
",
    // Version 4: a team's versions (issue 36) and the matchdays (issue 37),
    // `matchday_sql`. A version is numbered within its team and names how
    // it is started as a season's player does (`builtin:BOT`,
    // `docker:IMAGE`, a command); its state is how far its build and test
    // went, and whether it is the team's active one is a flag of its own, at
    // most one per team (the partial unique index). Every activation is
    // kept: by an account (`by_member`) or the administrator on the command
    // line (none), and the name shown either way. An encounter keeps the
    // entry each side was frozen to at its matchday's deadline and the
    // season (one per encounter, of its two teams) whose games the workers
    // play; a forfeited encounter has none. Phases are stored as their
    // snake-case names, entries as `version`, `stand_in` or `forfeit`.
    "
CREATE TABLE contest_versions (
    id {id},
    team BIGINT NOT NULL REFERENCES contest_teams (id),
    number INTEGER NOT NULL,
    player TEXT NOT NULL,
    comment TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('uploaded', 'building', 'built', 'build_failed',
        'testing', 'tested', 'test_failed')),
    active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
    created_at BIGINT NOT NULL,
    UNIQUE (team, number)
);
CREATE UNIQUE INDEX contest_versions_one_active ON contest_versions (team) WHERE active = 1;
CREATE TABLE contest_activations (
    id {id},
    team BIGINT NOT NULL REFERENCES contest_teams (id),
    version BIGINT NOT NULL REFERENCES contest_versions (id),
    replaced BIGINT REFERENCES contest_versions (id),
    by_member BIGINT,
    by_name TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX contest_activations_by_team ON contest_activations (team, id);
CREATE TABLE contest_matchdays (
    id {id},
    contest BIGINT NOT NULL REFERENCES contests (id),
    phase TEXT NOT NULL CHECK (phase IN ('trial', 'championship', 'champions_league', 'final')),
    number INTEGER NOT NULL,
    deadline BIGINT,
    timed INTEGER NOT NULL DEFAULT 1 CHECK (timed IN (0, 1)),
    state TEXT NOT NULL DEFAULT 'planned'
        CHECK (state IN ('planned', 'scheduled', 'played', 'published')),
    frozen_at BIGINT,
    published_at BIGINT,
    UNIQUE (contest, phase, number)
);
CREATE TABLE contest_encounters (
    id {id},
    matchday BIGINT NOT NULL REFERENCES contest_matchdays (id),
    group_id BIGINT REFERENCES contest_groups (id),
    group_number INTEGER NOT NULL,
    slot INTEGER NOT NULL,
    home BIGINT NOT NULL REFERENCES contest_teams (id),
    away BIGINT NOT NULL REFERENCES contest_teams (id),
    home_entry TEXT NOT NULL CHECK (home_entry IN ('version', 'stand_in', 'forfeit')),
    home_version BIGINT REFERENCES contest_versions (id),
    away_entry TEXT NOT NULL CHECK (away_entry IN ('version', 'stand_in', 'forfeit')),
    away_version BIGINT REFERENCES contest_versions (id),
    season TEXT UNIQUE REFERENCES seasons (name),
    UNIQUE (matchday, group_number, slot),
    CHECK (home <> away),
    CHECK ((home_entry = 'version') = (home_version IS NOT NULL)),
    CHECK ((away_entry = 'version') = (away_version IS NOT NULL))
);
CREATE TABLE contest_byes (
    matchday BIGINT NOT NULL REFERENCES contest_matchdays (id),
    group_id BIGINT REFERENCES contest_groups (id),
    group_number INTEGER NOT NULL,
    team BIGINT NOT NULL REFERENCES contest_teams (id),
    PRIMARY KEY (matchday, team)
);
",
    // Version 5: the final's bracket (issue 37, `knockout_sql`): its size,
    // the phase whose places seeded it, and its teams by place (seed 1 is
    // the best). Its rounds are matchdays of the phase `final` numbered as
    // the rounds are (`KnockoutRound::number`), their encounters rows of
    // `contest_encounters` whose seasons grow by the extra games of a tie;
    // the winners are not stored, they follow from the stored games.
    "
CREATE TABLE contest_brackets (
    contest BIGINT PRIMARY KEY REFERENCES contests (id),
    size INTEGER NOT NULL CHECK (size IN (4, 8)),
    seeded_from TEXT NOT NULL CHECK (seeded_from IN ('championship', 'champions_league')),
    created_at BIGINT NOT NULL
);
CREATE TABLE contest_bracket_seeds (
    contest BIGINT NOT NULL REFERENCES contest_brackets (contest),
    seed INTEGER NOT NULL,
    team BIGINT NOT NULL REFERENCES contest_teams (id),
    PRIMARY KEY (contest, seed),
    UNIQUE (contest, team)
);
",
    // Version 6: a decided encounter's result (issue 37, `matchday_sql`),
    // the JSON of the model's `EncounterResult`, written the first time
    // its report finds it decided; NULL until then. It follows from the
    // stored games alone, which never change once done (a record is
    // fenced), so it is kept rather than worked out again from every game
    // record on every table of the standings.
    "
ALTER TABLE contest_encounters ADD COLUMN result TEXT;
",
    // Version 7: a team's uploads and their builds (issue 36,
    // `build_sql`). An upload keeps the ZIP as sent, its runtime and start
    // parameters, so that any worker can build it; its version's `player`
    // is empty until the build names the image. A build is a job claimed
    // and fenced as a game is: its state, the attempt that claimed it last
    // (a late finish of an earlier attempt changes nothing), the worker,
    // the lease on the database's clock in milliseconds, the log (capped
    // by the writer) and the image it made.
    "
CREATE TABLE contest_uploads (
    version BIGINT PRIMARY KEY REFERENCES contest_versions (id),
    runtime TEXT NOT NULL CHECK (runtime IN ('native', 'python', 'java')),
    start_parameters TEXT NOT NULL,
    archive {blob} NOT NULL,
    uploaded_by BIGINT NOT NULL REFERENCES contest_accounts (id)
);
CREATE TABLE contest_builds (
    version BIGINT PRIMARY KEY REFERENCES contest_versions (id),
    state TEXT NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'building', 'built', 'build_failed')),
    attempt INTEGER NOT NULL DEFAULT 0,
    worker TEXT,
    lease_until BIGINT,
    log TEXT NOT NULL DEFAULT '',
    image TEXT,
    finished_at BIGINT
);
CREATE INDEX contest_builds_queue ON contest_builds (state, version);
",
    // Version 8: friendly challenges between teams (issue 36,
    // `friendly_sql`): who challenged whom, when, where the challenge
    // stands, and the season of its games once it is accepted (the two
    // teams' active versions at that moment). Its games never count.
    "
CREATE TABLE contest_challenges (
    id {id},
    contest BIGINT NOT NULL REFERENCES contests (id),
    challenger BIGINT NOT NULL REFERENCES contest_teams (id),
    challenged BIGINT NOT NULL REFERENCES contest_teams (id),
    state TEXT NOT NULL
        CHECK (state IN ('open', 'accepted', 'declined', 'withdrawn', 'played')),
    created_at BIGINT NOT NULL,
    answered_at BIGINT,
    season TEXT UNIQUE REFERENCES seasons (name),
    CHECK (challenger <> challenged),
    CHECK ((state IN ('accepted', 'played')) = (season IS NOT NULL))
);
CREATE INDEX contest_challenges_by_challenger ON contest_challenges (challenger, created_at);
CREATE INDEX contest_challenges_by_challenged ON contest_challenges (challenged, created_at);
",
    // Version 9: what a team's members are told (issue 36, `notice_sql`),
    // written once per key by the change it tells of.
    "
CREATE TABLE contest_notices (
    id {id},
    team BIGINT NOT NULL REFERENCES contest_teams (id),
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (team, key)
);
",
    // Version 10: each member's read mark on their team's notices (issue
    // 36, `notice_sql`): the greatest notice id they marked as read; the
    // address a member gets notices mailed to (those told since it was
    // set), and each notice's mail to each member, claimed by a sender
    // for a lease on the database's clock in milliseconds and fenced by
    // its attempt, as a game is.
    "
CREATE TABLE contest_notice_reads (
    member BIGINT PRIMARY KEY REFERENCES contest_accounts (id),
    up_to BIGINT NOT NULL
);
CREATE TABLE contest_mail_addresses (
    member BIGINT PRIMARY KEY REFERENCES contest_accounts (id),
    address TEXT NOT NULL,
    since BIGINT NOT NULL
);
CREATE TABLE contest_notice_mail (
    notice BIGINT NOT NULL REFERENCES contest_notices (id),
    member BIGINT NOT NULL REFERENCES contest_accounts (id),
    state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'failed')),
    attempt INTEGER NOT NULL,
    lease_until BIGINT NOT NULL,
    error TEXT,
    PRIMARY KEY (notice, member)
);
CREATE INDEX contest_notice_mail_due ON contest_notice_mail (state, lease_until);
",
];

// A new step raises SCHEMA_VERSION with it.
const _: () = assert!(MIGRATIONS.len() as i64 == SCHEMA_VERSION);

/// The schema's version table, made where a store has none yet.
const VERSION_TABLE: &str = "CREATE TABLE spielleiter_schema (version INTEGER NOT NULL);
INSERT INTO spielleiter_schema VALUES (0);";

/// The SQL batches that bring `store`, whose schema is at `version`, to
/// [`SCHEMA_VERSION`]: first the version table where it has none
/// (`has_version_table`), then each missing step. None when it is at the
/// newest version; the caller then records the version.
///
/// # Errors
///
/// [`SeasonError::NewerSchema`] for a schema newer than this program's (the
/// store is left untouched), [`SeasonError::Corrupt`] for a negative one.
fn migrations(
    store: impl FnOnce() -> String,
    has_version_table: bool,
    version: i64,
) -> Result<Vec<&'static str>, SeasonError> {
    if version > SCHEMA_VERSION {
        return Err(SeasonError::NewerSchema {
            store: store(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    let done = usize::try_from(version).map_err(|_| SeasonError::Corrupt {
        what: "schema version",
        cause: version.to_string(),
    })?;
    let version_table = (!has_version_table).then_some(VERSION_TABLE);
    Ok(version_table
        .into_iter()
        .chain(MIGRATIONS[done..].iter().copied())
        .collect())
}

/// Brings the schema of the store `db` is connected to (named `store`) to
/// [`SCHEMA_VERSION`]; in a transaction, so that a failed step leaves the
/// store as it was and stores opened together migrate once.
///
/// # Errors
///
/// As [`migrations`], or a statement fails.
pub(crate) async fn migrate(db: &mut Sql<'_>, store: &str) -> Result<(), SeasonError> {
    db.lock_schema().await?;
    let has_version = db.has_table("spielleiter_schema").await?;
    let version: i64 = if has_version {
        db.query_opt("SELECT version FROM spielleiter_schema", &[])
            .await?
            .map_or(Ok(0), |row| row.get(0))?
    } else {
        0
    };
    let steps = migrations(|| store.to_owned(), has_version, version)?;
    if steps.is_empty() {
        return Ok(());
    }
    for step in steps {
        db.batch(step).await?;
    }
    db.execute(
        "UPDATE spielleiter_schema SET version = $1",
        &[SCHEMA_VERSION.into()],
    )
    .await?;
    info!(store, version = SCHEMA_VERSION, "schema migrated");
    Ok(())
}

/// The failure message of a game given up because its worker stopped
/// holding it: the text before and after the game's count of failures
/// (the claim's statement joins them, `store_sql`).
pub(crate) const EXPIRED_MESSAGE: [&str; 2] = [
    "its worker stopped renewing the lease ",
    " times (crash, lost machine or database)",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_is_migrated_from_where_its_schema_stands() {
        let store = || "test store".to_owned();
        let fresh = migrations(store, false, 0).expect("fresh");
        assert_eq!(fresh.len(), 1 + MIGRATIONS.len());
        assert!(fresh[0].starts_with("CREATE TABLE spielleiter_schema"));
        assert!(fresh[1].contains("replay {blob}"), "{}", fresh[1]);
        let current = migrations(store, true, SCHEMA_VERSION).expect("current");
        assert!(current.is_empty());
        assert!(matches!(
            migrations(store, true, SCHEMA_VERSION + 1),
            Err(SeasonError::NewerSchema { found, .. }) if found == SCHEMA_VERSION + 1
        ));
        assert!(matches!(
            migrations(store, true, -1),
            Err(SeasonError::Corrupt {
                what: "schema version",
                ..
            })
        ));
    }
}
