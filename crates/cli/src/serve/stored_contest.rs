//! What `serve --store` shows of its store: the season page when the
//! store holds a season (or `--season` names one), and the contest's door
//! — its teams' pages under `/contest` — when it holds a contest
//! (`spielleiter contest create`). The door's accounts are the store's
//! contest tables ([`ContestStore`]); its passwords' parameters, cookies and
//! public address are the configuration's, and so is the relay its notices
//! are mailed through ([`Mailer`]).

use std::sync::Arc;

use anyhow::Context;
use spielleiter_archive::{ArchiveError, ArchiveFuture, GameArchive};
use spielleiter_contest::ContestAccounts;
use spielleiter_season::{AnyStore, ContestStore, SeasonArchive, SeasonError, SeasonStore};
use spielleiter_server::{Config, limits::AuthBackoff};
use spielleiter_web::{
    accounts::{
        Door, DoorSettings, PasswordParams,
        results_pages::{EncounterArchives, ResultsSource},
        system_clock,
    },
    season::SeasonSource,
};

use super::{mail::Mailer, stored_season};

/// The archives of the contest's encounters' seasons, for their replays
/// on the contest's pages (which decide who may see them; the season page
/// never shows them, [`shown_season`]).
#[derive(Debug)]
struct StoreArchives(Arc<AnyStore>);

impl EncounterArchives for StoreArchives {
    fn archive<'a>(&'a self, season: &'a str) -> ArchiveFuture<'a, Arc<dyn GameArchive>> {
        Box::pin(async move {
            match SeasonArchive::open(Arc::clone(&self.0), season).await {
                Ok(archive) => Ok(Arc::new(archive) as Arc<dyn GameArchive>),
                Err(error) => Err(ArchiveError::Backend {
                    store: self.0.describe(),
                    cause: error.to_string(),
                }),
            }
        })
    }
}

/// What a store gives the web side.
pub struct StorePages {
    /// The season page's source, if the store holds a season to show.
    pub season: Option<Arc<dyn SeasonSource>>,
    /// The contest's door, if the store holds a contest.
    pub contest: Option<Arc<Door>>,
    /// The sender of the contest's notices, if the configuration names a
    /// relay.
    pub mailer: Option<Mailer>,
}

/// Opens the store `url` for the web side: its contest's door, if it holds
/// a contest; its season (`season_name`, or its only one), if it holds any
/// or `season_name` names one — but never a season of the contest's
/// encounters ([`shown_season`]). A store that holds neither stops the
/// start, as a store without its season always did.
///
/// # Errors
///
/// The store cannot be opened, the season named is not there, the door's
/// settings are out of range (the password parameters, the public
/// address).
pub async fn open(
    url: &str,
    season_name: Option<&str>,
    config: &Config,
    auth: &AuthBackoff,
) -> anyhow::Result<StorePages> {
    let store = Arc::new(
        spielleiter_season::open_existing(url)
            .await
            .context("cannot open the store (--store, SPIELLEITER_STORE or season.store)")?,
    );
    let Some(contest) = (match ContestStore::open(Arc::clone(&store)).await {
        Ok(contest) => Some(contest),
        Err(SeasonError::NoContest { .. }) => None,
        Err(error) => return Err(error.into()),
    }) else {
        // A store of seasons only: its season page, as always.
        let season = stored_season::open(url, season_name).await?;
        return Ok(StorePages {
            season: Some(season),
            contest: None,
            mailer: None,
        });
    };
    let shown = shown_season(&store, &contest, season_name).await?;
    let (contest, mailer) = door(contest, Arc::clone(&store), config, auth)?;
    let season = match shown {
        Some(name) => Some(stored_season::open(url, Some(&name)).await?),
        None => None,
    };
    Ok(StorePages {
        season,
        contest: Some(contest),
        mailer,
    })
}

/// The season a contest's store shows on the season page: the one named,
/// else its only season that is not one of the contest's encounters, else
/// none. An encounter's season is never shown there: the season page is
/// everyone's, and an encounter's games are seen by others only once the
/// organiser publishes its matchday (they are the contest's, read through
/// `contest matchday show` and `contest final show`).
async fn shown_season(
    store: &AnyStore,
    contest: &ContestStore<AnyStore>,
    season_name: Option<&str>,
) -> anyhow::Result<Option<String>> {
    let encounters = contest.encounter_seasons().await?;
    if let Some(name) = season_name {
        anyhow::ensure!(
            !encounters.contains(name),
            "season `{name}` is an encounter of the contest \"{}\": its games are shown only as \
             its matchday's publication allows, not on the season page (`contest matchday show`)",
            contest.record().name
        );
        return Ok(Some(name.to_owned()));
    }
    let others: Vec<String> = store
        .season_names()
        .await?
        .into_iter()
        .filter(|name| !encounters.contains(name))
        .collect();
    match others.as_slice() {
        [] => Ok(None),
        [only] => Ok(Some(only.clone())),
        several => anyhow::bail!(
            "{} holds {} seasons besides the contest's encounters ({}); name one with --season",
            store.describe(),
            several.len(),
            several.join(", ")
        ),
    }
}

/// The door of `contest` with the configuration's settings, and the
/// sender of its notices where a relay is configured.
fn door(
    contest: ContestStore<AnyStore>,
    store: Arc<AnyStore>,
    config: &Config,
    auth: &AuthBackoff,
) -> anyhow::Result<(Arc<Door>, Option<Mailer>)> {
    let public_url = match &config.http_public_url {
        Some(url) => Some(
            crate::web_url::parse_web_url(url)
                .map_err(|why| anyhow::anyhow!("http.public_url (--http-public-url) {why}"))?,
        ),
        None => None,
    };
    tracing::info!(
        contest = %contest.record().name,
        store = %contest.describe(),
        secure_cookies = config.http_secure_cookies,
        public_url = public_url.as_deref().unwrap_or("the address a request came to"),
        "the contest's pages are served under /contest"
    );
    let contest = Arc::new(contest);
    let mailer = Mailer::of_config(
        config,
        Arc::clone(&contest) as Arc<dyn spielleiter_contest::TeamNotices>,
        &contest.record().name,
        public_url.clone(),
    )?;
    let settings = DoorSettings {
        versions: Some(Arc::clone(&contest) as Arc<dyn spielleiter_contest::TeamVersions>),
        calendar: Some(Arc::clone(&contest) as Arc<dyn spielleiter_contest::ContestCalendar>),
        friendly: Some(Arc::clone(&contest) as Arc<dyn spielleiter_contest::FriendlyGames>),
        notices: Some(Arc::clone(&contest) as Arc<dyn spielleiter_contest::TeamNotices>),
        sends_mail: mailer.is_some(),
        store: Arc::clone(&contest) as Arc<dyn ContestAccounts>,
        passwords: PasswordParams {
            memory_kib: config.contest_password_memory_kib,
            iterations: config.contest_password_passes,
            parallelism: config.contest_password_lanes,
        },
        secure_cookies: config.http_secure_cookies,
        public_url,
        clock: system_clock(),
        results: Some(ResultsSource {
            results: contest,
            archives: Arc::new(StoreArchives(store)),
        }),
    };
    let door = Door::new(settings, auth).map_err(|error| {
        anyhow::anyhow!(
            "{error} (contest.password_memory_kib, contest.password_passes, contest.password_lanes)"
        )
    })?;
    Ok((Arc::new(door), mailer))
}
