//! The two stores a test body runs against: a SQLite file in a temporary
//! directory, and a database of its own on a PostgreSQL server the tests
//! start (`spielleiter_test_support::Postgres`, shared by the tests running
//! at the same time and stopped after the last). [`both_stores!`] makes a
//! test of each case per store, in the modules `sqlite` and `postgres`
//! (`cargo test -- --skip postgres` leaves the second out). Each store is
//! read behind its back through a client of its own ([`TestStore::sql`]:
//! `rusqlite`, `psql`), so that a test sees the rows as they are, not as the
//! store reports them.
#![allow(dead_code)] // each test file uses its own part.

use std::{path::PathBuf, sync::Arc};

use spielleiter_season::{AnyStore, SeasonError};
use spielleiter_test_support::Postgres;

/// A fresh store of one kind, and how to reach its rows directly.
#[derive(Debug)]
pub struct TestStore {
    /// The store, as `--store URL` opens it.
    pub store: AnyStore,
    /// Its `--store` text.
    pub url: String,
    place: Place,
}

#[derive(Debug)]
enum Place {
    Sqlite {
        _dir: tempfile::TempDir,
        path: PathBuf,
    },
    Postgres {
        server: Arc<Postgres>,
        database: String,
    },
}

impl TestStore {
    /// A new SQLite file.
    pub async fn sqlite() -> TestStore {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("season.sqlite");
        let url = path.to_str().unwrap().to_owned();
        TestStore {
            store: spielleiter_season::open(&url).await.unwrap(),
            url,
            place: Place::Sqlite { _dir: dir, path },
        }
    }

    /// A new database on the shared PostgreSQL server.
    pub async fn postgres() -> TestStore {
        let server = tokio::task::spawn_blocking(Postgres::shared).await.unwrap();
        let database = server.fresh_database();
        let url = server.url(&database);
        TestStore {
            store: spielleiter_season::open(&url).await.unwrap(),
            url,
            place: Place::Postgres { server, database },
        }
    }

    /// Whether this is the PostgreSQL store.
    pub fn is_postgres(&self) -> bool {
        matches!(self.place, Place::Postgres { .. })
    }

    /// Opens the store again (another connection, its schema checked and
    /// migrated anew).
    pub async fn open_again(&self) -> Result<AnyStore, SeasonError> {
        spielleiter_season::open(&self.url).await
    }

    /// Runs one statement on the store's database through a client of its
    /// own; its rows, one a line, columns joined by `|` (NULL empty).
    pub fn sql(&self, sql: &str) -> String {
        match &self.place {
            Place::Sqlite { path, .. } => {
                let connection = rusqlite::Connection::open(path).unwrap();
                let mut statement = connection.prepare(sql).unwrap();
                let columns = statement.column_count();
                let mut rows = statement.query([]).unwrap();
                let mut lines = Vec::new();
                while let Some(row) = rows.next().unwrap() {
                    let cells: Vec<String> = (0..columns)
                        .map(|i| match row.get_ref(i).unwrap() {
                            rusqlite::types::ValueRef::Null => String::new(),
                            rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                            rusqlite::types::ValueRef::Real(x) => x.to_string(),
                            rusqlite::types::ValueRef::Text(t) => {
                                String::from_utf8_lossy(t).into_owned()
                            }
                            rusqlite::types::ValueRef::Blob(b) => format!("{b:02x?}"),
                        })
                        .collect();
                    lines.push(cells.join("|"));
                }
                lines.join("\n")
            }
            Place::Postgres { server, database } => server.sql(database, sql),
        }
    }

    /// Drops the tables of schema version 3 (a contest's) and those of
    /// version 4 that refer to them, as a store of an earlier version is
    /// without them.
    pub fn drop_contest_tables(&self) {
        for table in [
            // Schema version 10's, 8's, 6's, 5's and 4's, which refer to version 3's.
            "contest_notice_mail",
            "contest_mail_addresses",
            "contest_notice_reads",
            "contest_notices",
            "contest_challenges",
            "contest_builds",
            "contest_uploads",
            "contest_bracket_seeds",
            "contest_brackets",
            "contest_byes",
            "contest_encounters",
            "contest_matchdays",
            "contest_activations",
            "contest_versions",
            "contest_sessions",
            "contest_invites",
            "contest_accounts",
            "contest_teams",
            "contest_groups",
            "contests",
        ] {
            self.sql(&format!("DROP TABLE {table}"));
        }
    }

    /// Every row of the season's tables, in order: what a refused write
    /// must leave exactly as it was.
    pub fn rows(&self) -> String {
        [
            "SELECT * FROM seasons ORDER BY name",
            "SELECT * FROM games ORDER BY season, number",
            "SELECT * FROM game_player_logs ORDER BY season, number, player",
            "SELECT * FROM game_wire_logs ORDER BY season, number",
        ]
        .map(|query| self.sql(query))
        .join("\n--\n")
    }
}

/// For each async function `case(store: TestStore)` named, a test
/// `sqlite::case` on a new SQLite file and a test `postgres::case` on a
/// new PostgreSQL database (the test file declares this module with
/// `#[macro_use]`).
macro_rules! both_stores {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $case() {
                    super::$case(super::both_stores::TestStore::sqlite().await).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $case() {
                    super::$case(super::both_stores::TestStore::postgres().await).await;
                }
            )*
        }
    };
}
