//! The teams' door (issue 35): contest accounts as the field does them —
//! invite links, Argon2id passwords, server-side sessions in `HttpOnly`
//! `SameSite=Lax` cookies with an idle and an absolute expiry, a CSRF
//! token on every form, logins, invite links and registrations throttled
//! per address and per name with a back-off that forgives over time
//! ([`throttle`]), old passwords rehashed when the parameters change — and
//! the pages of teams, their members and the organisers under
//! `/contest` ([`pages`]). What is stored goes through the contest's
//! [`ContestAccounts`] interface (the season store implements it), so this
//! crate knows no database.
//!
//! Who may do what on each route is the one rule of
//! [`route_access`](crate::route_access).

use std::{
    net::IpAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_contest::{
    ContestAccounts, ContestCalendar, FriendlyGames, StoreError, StoreFuture, TeamNotices,
    TeamVersions, Timestamp,
};
use spielleiter_server::limits::AuthBackoff;

pub(crate) mod calendar_pages;
#[cfg(test)]
mod calendar_tests;
pub(crate) mod friendly_pages;
#[cfg(test)]
mod friendly_tests;
pub(crate) mod mail_page;
pub(crate) mod message;
pub(crate) mod notices_page;
pub(crate) mod pages;
pub mod passwords;
pub(crate) mod playing;
pub mod results_pages;
pub mod secrets;
pub(crate) mod test_pages;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
pub mod throttle;
pub(crate) mod versions_pages;
#[cfg(test)]
mod versions_tests;

pub use self::passwords::{PasswordError, PasswordParams, Passwords};

/// The most bytes of a contest form: its fields are a few names and
/// passwords; a larger body is refused before it is read whole.
pub const MAX_FORM_BYTES: usize = 16 * 1024;

/// The most bytes of a team's upload form (its ZIP and a few fields): a
/// larger body is refused with 413 before it is read whole.
pub const MAX_UPLOAD_BYTES: usize = 32 * 1024 * 1024;

/// How long the accounts' store may take to answer one call.
pub const STORE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// The clock the door reads (seconds since 1970); tests set their own.
pub type Clock = Arc<dyn Fn() -> Timestamp + Send + Sync>;

/// The system's clock.
pub fn system_clock() -> Clock {
    Arc::new(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Timestamp(i64::try_from(now).unwrap_or(i64::MAX))
    })
}

/// What the binary hands the web side for a contest's pages.
pub struct DoorSettings {
    /// The contest's accounts (the season store's tables).
    pub store: Arc<dyn ContestAccounts>,
    /// The Argon2id parameters of new password hashes.
    pub passwords: PasswordParams,
    /// Whether cookies are `Secure` (the pages are served over TLS, or
    /// behind a proxy that terminates it).
    pub secure_cookies: bool,
    /// The pages' public address (`https://contest.example.org`), for the
    /// links the organiser and teachers hand out; without it, the address
    /// the request came to.
    pub public_url: Option<String>,
    /// The clock.
    pub clock: Clock,
    /// The contest's calendar and results, for its results pages; without
    /// them, those pages answer that there are none.
    pub results: Option<results_pages::ResultsSource>,
    /// The teams' versions (the season store's tables); without them the
    /// versions' pages say there are none to be had.
    pub versions: Option<Arc<dyn TeamVersions>>,
    /// The organiser's steps on the calendar (the season store's
    /// matchdays and final); without them the calendar's page says there
    /// is none.
    pub calendar: Option<Arc<dyn ContestCalendar>>,
    /// The teams' friendly games; without them the friendly page says
    /// there are none.
    pub friendly: Option<Arc<dyn FriendlyGames>>,
    /// The teams' notices; without them the notices page says there are
    /// none.
    pub notices: Option<Arc<dyn TeamNotices>>,
    /// Whether the server mails notices (an SMTP relay is configured): the
    /// account page offers a member's address for them only then.
    pub sends_mail: bool,
}

impl std::fmt::Debug for DoorSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DoorSettings")
            .field("store", &self.store.describe())
            .field("passwords", &self.passwords)
            .field("secure_cookies", &self.secure_cookies)
            .field("public_url", &self.public_url)
            .finish_non_exhaustive()
    }
}

/// Logins counted for `/metrics`.
#[derive(Debug, Default)]
pub struct LoginCounts {
    /// Signed in.
    pub succeeded: AtomicU64,
    /// Refused: no such name, or the wrong password (one count, as one
    /// answer).
    pub failed: AtomicU64,
    /// Refused unchecked: the address's turn (or the name's from that
    /// address) was too far off.
    pub throttled: AtomicU64,
}

impl LoginCounts {
    pub(crate) fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// The state of the contest's pages.
pub struct Door {
    pub(crate) store: Arc<dyn ContestAccounts>,
    pub(crate) passwords: Passwords,
    /// Guesses per address (wrong passwords, unknown invite links, taken
    /// names), on the schedule of the game port's back-off, forgiven over
    /// time ([`throttle`]).
    pub(crate) by_address: AuthBackoff<IpAddr>,
    /// Wrong passwords per account name (known or not) and address.
    pub(crate) by_name_and_address: AuthBackoff<(u64, IpAddr)>,
    /// Wrong passwords per account name from anywhere: only slows, by at
    /// most [`throttle::NAME_CEILING`].
    pub(crate) by_name: AuthBackoff<u64>,
    pub(crate) secure_cookies: bool,
    pub(crate) public_url: Option<String>,
    pub(crate) clock: Clock,
    pub(crate) logins: LoginCounts,
    pub(crate) results: Option<results_pages::ResultsSource>,
    pub(crate) versions: Option<Arc<dyn TeamVersions>>,
    pub(crate) calendar: Option<Arc<dyn ContestCalendar>>,
    pub(crate) friendly: Option<Arc<dyn FriendlyGames>>,
    pub(crate) notices: Option<Arc<dyn TeamNotices>>,
    pub(crate) sends_mail: bool,
}

impl std::fmt::Debug for Door {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Door")
            .field("store", &self.store.describe())
            .field("secure_cookies", &self.secure_cookies)
            .finish_non_exhaustive()
    }
}

impl Door {
    /// The door of `settings`, its guesses backing off on the schedule of
    /// `address_backoff` (the game port's), with their own counts.
    ///
    /// # Errors
    ///
    /// The password parameters are out of Argon2's range.
    pub fn new(
        settings: DoorSettings,
        address_backoff: &AuthBackoff,
    ) -> Result<Door, PasswordError> {
        Ok(Door {
            passwords: Passwords::new(settings.passwords)?,
            by_address: AuthBackoff::keyed(
                address_backoff.initial_delay(),
                address_backoff.max_delay(),
            ),
            by_name_and_address: AuthBackoff::keyed(
                address_backoff.initial_delay(),
                address_backoff.max_delay(),
            ),
            by_name: AuthBackoff::keyed(
                address_backoff.initial_delay(),
                address_backoff.max_delay(),
            ),
            store: settings.store,
            secure_cookies: settings.secure_cookies,
            public_url: settings.public_url,
            clock: settings.clock,
            logins: LoginCounts::default(),
            results: settings.results,
            versions: settings.versions,
            calendar: settings.calendar,
            friendly: settings.friendly,
            notices: settings.notices,
            sends_mail: settings.sends_mail,
        })
    }

    /// Now, by the door's clock.
    pub(crate) fn now(&self) -> Timestamp {
        (self.clock)()
    }

    /// The login counts so far.
    pub fn logins(&self) -> &LoginCounts {
        &self.logins
    }
}

/// Awaits an archive's answer (a contest season's games) within
/// [`STORE_TIME_LIMIT`], its errors as the JSON routes say them; an archive
/// that does not answer is a failed store.
pub(crate) async fn archive_within<T>(
    call: spielleiter_archive::ArchiveFuture<'_, T>,
) -> Result<T, crate::error::ApiError> {
    match tokio::time::timeout(STORE_TIME_LIMIT, call).await {
        Ok(answer) => answer.map_err(crate::error::archive_error),
        Err(_) => Err(crate::error::ApiError::Internal(
            "the contest's store did not answer in time".to_owned(),
        )),
    }
}

/// Game `game` of a contest season's `archive` as the viewer reads it,
/// named `name`, with what a team may download of it where it is kept: its
/// program's log (the season's player `player`) at `{base}/log` and, with
/// `wire_log`, the game's wire log at `{base}/wire`.
pub(crate) async fn team_game_view(
    archive: &dyn spielleiter_archive::GameArchive,
    game: u32,
    player: usize,
    base: &str,
    wire_log: bool,
    name: String,
) -> Result<crate::viewer::ReplayView, crate::error::ApiError> {
    let key = game.to_string();
    let stored = archive_within(archive.replay(&key)).await?;
    let loaded = crate::viewer::load(stored).await?;
    let contents = archive_within(archive.contents(&key)).await?;
    let mut downloads = Vec::new();
    if contents.player_logs.contains(&player) {
        downloads.push(crate::viewer::DownloadView {
            label: "your program's log".to_owned(),
            href: format!("{base}/log"),
        });
    }
    if wire_log && contents.wire_log {
        downloads.push(crate::viewer::DownloadView {
            label: "wire log".to_owned(),
            href: format!("{base}/wire"),
        });
    }
    Ok(crate::viewer::view(name, loaded, downloads))
}

/// Awaits a store call within [`STORE_TIME_LIMIT`]; a store that does not
/// answer is a failed store.
pub(crate) async fn bounded<T>(call: StoreFuture<'_, T>) -> Result<T, StoreError> {
    match tokio::time::timeout(STORE_TIME_LIMIT, call).await {
        Ok(answer) => answer,
        Err(_) => Err(StoreError::Backend {
            store: "the contest's store".to_owned(),
            cause: "it did not answer in time".to_owned(),
        }),
    }
}
