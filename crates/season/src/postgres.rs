//! [`PostgresStore`]: a season in a PostgreSQL database, shared by
//! workers on many machines. A claim takes the lowest waiting game with
//! `FOR UPDATE SKIP LOCKED`, so concurrent claims never wait for each other
//! and never take the same game; lease times are the database's clock, so
//! the workers' clocks do not matter. A lost connection is opened again on
//! the next call (the caller retries with back-off). Its statements are the
//! season's, written once for both databases ([`crate::sql`]).

use std::time::Duration;

use tokio::sync::Mutex;
use tokio_postgres::{Client, Config, NoTls};
use tracing::warn;

use crate::{
    error::SeasonError,
    sql::{AnyResult, Database, Mode, Sql, UnitOfWork, full_message, in_mode},
    store::migrate,
    url_mask::masked_store_url,
};

/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one call (its statements) may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// A season store in PostgreSQL.
#[derive(Debug)]
pub struct PostgresStore {
    config: Config,
    /// The connection text with every password masked.
    masked: String,
    /// The store as it is named for people (no password).
    shown: String,
    client: Mutex<Option<Client>>,
}

impl PostgresStore {
    /// Connects and brings the schema to [`SCHEMA_VERSION`](crate::SCHEMA_VERSION) (under an
    /// advisory lock, so workers starting together migrate once).
    ///
    /// # Errors
    ///
    /// The text is no connection string, the database cannot be reached or
    /// refuses (password, missing database), or holds a newer schema (left
    /// untouched).
    pub async fn open(url: &str) -> Result<PostgresStore, SeasonError> {
        let masked = masked_store_url(url);
        let mut config: Config =
            url.parse()
                .map_err(|e: tokio_postgres::Error| SeasonError::BadUrl {
                    url: masked.clone(),
                    why: e.to_string(),
                })?;
        config.connect_timeout(CONNECT_TIMEOUT);
        config.application_name("spielleiter");
        let store = PostgresStore {
            config,
            shown: format!("PostgreSQL store {masked}"),
            masked,
            client: Mutex::new(None),
        };
        let shown = store.shown.clone();
        store
            .transaction(move |db| Box::pin(async move { migrate(db, &shown).await }))
            .await?;
        Ok(store)
    }

    async fn connect(&self) -> Result<Client, SeasonError> {
        let (client, connection) =
            self.config
                .connect(NoTls)
                .await
                .map_err(|e| SeasonError::Connect {
                    store: self.shown.clone(),
                    cause: full_message(&e),
                })?;
        let masked = self.masked.clone();
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                warn!(store = %masked, %error, "the database connection ended");
            }
        });
        Ok(client)
    }

    fn timeout(&self) -> SeasonError {
        SeasonError::Database {
            store: self.shown.clone(),
            cause: format!("no answer within {} s", CALL_TIMEOUT.as_secs()),
        }
    }
}

/// Each call runs on the one connection, opened again first if it was
/// lost; a call that fails on a closed connection or takes too long drops
/// the connection, so the next call opens a new one (and a transaction cut
/// short is rolled back by the server).
impl Database for PostgresStore {
    async fn session_of(
        &self,
        mode: Mode,
        work: Box<dyn UnitOfWork>,
    ) -> Result<AnyResult, SeasonError> {
        let mut slot = self.client.lock().await;
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = None;
            *slot = Some(self.connect().await?);
        }
        let Some(client) = slot.as_ref() else {
            return Err(self.timeout());
        };
        let mut sql = Sql::postgres(client, &self.shown);
        let done = tokio::time::timeout(CALL_TIMEOUT, in_mode(&mut sql, mode, work)).await;
        let lost = sql.lost() || client.is_closed();
        match done {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => {
                if lost {
                    *slot = None;
                }
                Err(error)
            }
            Err(_) => {
                *slot = None;
                Err(self.timeout())
            }
        }
    }

    fn store_name(&self) -> String {
        self.shown.clone()
    }
}
