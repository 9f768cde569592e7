//! The state every handler shares ([`App`]), what it is built from
//! ([`WebSettings`]) and how it is built.

use std::{path::PathBuf, sync::Arc};

use spielleiter_archive::{DirArchive, GameArchive};
use spielleiter_server::{
    limits::{AddressSlots, AuthBackoff},
    stats::ServerStats,
};
use tokio::sync::Semaphore;

// Each part is named in the file that defines it, never through the
// handler module above it: the handlers import `App`, and `App` imports no
// handler.
use crate::{
    access::{self, Access},
    archive::summaries::SummaryCache,
    connections::WebLimits,
    live::{boards::Boards, pacer::EventPacer},
    play::{registry::Seats, settings::PlaySettings},
    season::source::SeasonSource,
};

/// Event streams open at once; more are refused until one ends.
pub const MAX_STREAMS: usize = 1024;

/// What the web side serves.
#[derive(Debug)]
pub struct WebSettings {
    /// Who may watch running games.
    pub access: Access,
    /// The replay directory; `None` when replays are off.
    pub replay_dir: Option<PathBuf>,
    /// The connection budget and time limits.
    pub limits: WebLimits,
    /// The game port's passphrase back-off, which logins and bearer tokens
    /// share.
    pub auth: Arc<AuthBackoff>,
}

impl WebSettings {
    /// `access` and `replay_dir` with the default limits and a back-off of
    /// its own (not shared with a game port): for tools and tests that
    /// serve only pages.
    pub fn new(access: Access, replay_dir: Option<PathBuf>) -> WebSettings {
        let config = spielleiter_server::Config::default();
        WebSettings {
            access,
            replay_dir,
            limits: WebLimits::from_config(&config),
            auth: Arc::new(AuthBackoff::for_config(&config)),
        }
    }
}

/// The state every handler shares.
#[derive(Debug)]
pub struct App {
    pub(crate) stats: Arc<ServerStats>,
    pub(crate) access: Access,
    /// Checks guesses at the passphrase.
    pub(crate) guard: access::Guard,
    /// The replay directory's games; `None` when replays are off.
    pub(crate) replays: Option<Arc<dyn GameArchive>>,
    /// One permit per open event stream.
    pub(crate) streams: Arc<Semaphore>,
    /// Event streams per address.
    pub(crate) stream_slots: AddressSlots,
    /// The season of `serve --store`, if any.
    pub(crate) season: Option<Arc<dyn SeasonSource>>,
    /// The boards the event streams share.
    pub(crate) boards: Boards,
    /// Spaces out the live events of all streams together.
    pub(crate) pacer: EventPacer,
    /// People's seats (`/play`); `None` when playing in the browser is off.
    pub(crate) play: Option<Seats>,
    /// The replay list's summaries of the files read so far.
    pub(crate) summaries: SummaryCache,
    /// The contest's accounts and pages (`/contest`), if a contest is served.
    pub(crate) contest: Option<Arc<crate::accounts::Door>>,
}

impl App {
    /// The number of open event streams.
    pub(crate) fn open_streams(&self) -> u64 {
        (MAX_STREAMS - self.streams.available_permits()) as u64
    }
}

/// The state the handlers share, and the limits the routes apply.
#[cfg(test)]
pub(crate) fn app_state(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn SeasonSource>>,
) -> (Arc<App>, WebLimits) {
    app_state_with(stats, settings, season, None, None)
}

/// The state the handlers share, with people's seats when `play` is
/// given, and the limits the routes apply.
pub(crate) fn app_state_with(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn SeasonSource>>,
    play: Option<PlaySettings>,
    contest: Option<Arc<crate::accounts::Door>>,
) -> (Arc<App>, WebLimits) {
    let app = Arc::new(App {
        contest,
        play: play
            .filter(|settings| settings.max_seats > 0)
            .map(Seats::new),
        season,
        guard: access::Guard::new(settings.auth, Arc::clone(&stats)),
        stats,
        access: settings.access,
        // The pages never store a game: the compression setting is unused.
        replays: settings
            .replay_dir
            .map(|dir| Arc::new(DirArchive::new(dir, false)) as Arc<dyn GameArchive>),
        streams: Arc::new(Semaphore::new(MAX_STREAMS)),
        stream_slots: AddressSlots::new(
            settings.limits.max_streams_per_ip,
            settings.limits.loopback_exempt,
        ),
        boards: Boards::default(),
        pacer: EventPacer::default(),
        summaries: SummaryCache::default(),
    });
    (app, settings.limits)
}
