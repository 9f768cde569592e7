//! The web side of Spielleiter: pages to watch running games live and to
//! step through replays, board pictures, Prometheus metrics and a health
//! check, served over HTTP (axum) on a port of its own in the server's
//! process and runtime.
//!
//! The web side reads what the server publishes and nothing else: the
//! rooms' snapshots and the counters ([`ServerStats`], with its
//! [`showroom`](spielleiter_server::showroom)), the replay directory and,
//! with `serve --store`, a season through the read-only
//! [`SeasonSource`](season::SeasonSource). It cannot send anything to a
//! room, so watching never lets anyone move, and
//! a slow or busy page never slows a game (see [`live`]).
//!
//! # Routes
//!
//! | route | what |
//! | --- | --- |
//! | `/` | the open rooms (live) and the last finished games |
//! | `/rooms/{id}` | one room's board, players, points and clock, live |
//! | `/replays`, `/replays/{name}` | the replays, and a viewer for one |
//! | `/season`, `/season/games/{n}` | the season of `serve --store` ([`season`]), and a game's replay in the viewer |
//! | `/login` | the administrator's login (see [`access`]) |
//! | `/api/rooms`, `/api/rooms/{id}`, `/api/rooms/{id}/events`, `/api/rooms/{id}/board.svg` | the rooms' JSON, event stream and board |
//! | `/api/replays`, `/api/replays/{name}` | the replays' JSON (the list with players, winner and length, filtered by `?game=` and `?player=`) |
//! | `/api/replays/{name}/file`, `/api/replays/{name}/blksgf` | a replay as stored, and a classic game as Pentobi's record, to download |
//! | `/api/season`, `/api/season/games`, `/api/season/games/{n}/replay` | the season's standings and progress, its games a page at a time, a stored replay |
//! | `/api/season/games/{n}/replay.xml.gz`, `…/replay.blksgf` | a stored replay, and a classic game as Pentobi's record, to download |
//! | `/api/games` | the hosted games' ids and titles ([`games`]) |
//! | `/metrics` | Prometheus text ([`metrics`]) |
//! | `/healthz` | `ok` |
//!
//! The pages are plain HTML with a little JavaScript, embedded in the
//! binary (`assets/`).
//!
//! The web side has a budget of its own ([`connections`]): connections in
//! all and per address, a time limit for a request's headers, event
//! streams per address; guesses at the passphrase share the game port's
//! back-off ([`access`]).

pub mod access;
pub mod archive;
pub mod connections;
pub mod error;
pub mod games;
pub mod live;
pub mod metrics;
mod pages;
pub mod season;
pub mod views;

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use axum::{Router, routing::get};
use spielleiter_server::{
    limits::{AddressSlots, AuthBackoff},
    stats::ServerStats,
};
use tokio::{net::TcpListener, sync::Semaphore};

pub use crate::{
    access::Access,
    connections::{WebLimits, serve},
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
    stats: Arc<ServerStats>,
    access: Access,
    /// Checks guesses at the passphrase.
    guard: access::Guard,
    replay_dir: Option<PathBuf>,
    /// One permit per open event stream.
    streams: Arc<Semaphore>,
    /// Event streams per address.
    stream_slots: AddressSlots,
    /// The season of `serve --store`, if any.
    season: Option<Arc<dyn season::SeasonSource>>,
    /// The boards the event streams share.
    boards: live::Boards,
    /// Spaces out the live events of all streams together.
    pacer: live::EventPacer,
    /// The replay list's summaries of the files read so far.
    summaries: archive::SummaryCache,
}

impl App {
    /// The number of open event streams.
    fn open_streams(&self) -> u64 {
        (MAX_STREAMS - self.streams.available_permits()) as u64
    }
}

/// The state the handlers share, and the limits the routes apply.
fn app_state(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn season::SeasonSource>>,
) -> (Arc<App>, WebLimits) {
    let app = Arc::new(App {
        season,
        guard: access::Guard::new(settings.auth, Arc::clone(&stats)),
        stats,
        access: settings.access,
        replay_dir: settings.replay_dir,
        streams: Arc::new(Semaphore::new(MAX_STREAMS)),
        stream_slots: AddressSlots::new(
            settings.limits.max_streams_per_ip,
            settings.limits.loopback_exempt,
        ),
        boards: live::Boards::default(),
        pacer: live::EventPacer::default(),
        summaries: archive::SummaryCache::default(),
    });
    (app, settings.limits)
}

/// The web side's routes over the server's `stats`.
pub fn router(stats: Arc<ServerStats>, settings: WebSettings) -> Router {
    router_with_season(stats, settings, None)
}

/// The web side's routes over the server's `stats`, with the season page
/// when `season` is given (`serve --store`).
pub fn router_with_season(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn season::SeasonSource>>,
) -> Router {
    let (app, limits) = app_state(stats, settings, season);
    let stall_timeout = limits.stall_timeout;
    Router::new()
        .route("/", get(pages::index))
        .route("/rooms/{id}", get(pages::room))
        .route("/replays", get(pages::replays))
        .route("/replays/{name}", get(pages::replay))
        .route("/login", get(pages::login_form).post(pages::log_in))
        .route("/assets/{file}", get(pages::asset))
        .route("/api/rooms", get(live::list))
        .route("/api/rooms/{id}", get(live::room))
        .route("/api/rooms/{id}/board.svg", get(live::board))
        .route("/api/replays", get(archive::list))
        .route("/api/replays/{name}", get(archive::replay))
        .route("/api/replays/{name}/file", get(archive::file))
        .route("/api/replays/{name}/blksgf", get(archive::blksgf))
        .route("/season", get(pages::season))
        .route("/season/games/{number}", get(pages::replay))
        .route("/api/season", get(season::overview))
        .route("/api/season/games", get(season::games))
        .route("/api/season/games/{number}/replay", get(season::replay))
        .route(
            "/api/season/games/{number}/replay.xml.gz",
            get(season::replay_file),
        )
        .route(
            "/api/season/games/{number}/replay.blksgf",
            get(season::replay_blksgf),
        )
        .route("/api/games", get(games::list))
        .route("/metrics", get(metrics::metrics))
        .route("/healthz", get(pages::health))
        // Every route so far answers soon or not at all (a request body
        // trickling in, say); the event stream, added after, lasts.
        .layer(axum::middleware::from_fn(move |request, next| {
            time_limited(stall_timeout, request, next)
        }))
        .route("/api/rooms/{id}/events", get(live::events))
        .fallback(pages::not_found)
        .with_state(app)
}

/// Runs `request` to its answer within `limit`; beyond it, the answer is
/// `408 Request Timeout` and the connection is closed.
async fn time_limited(
    limit: std::time::Duration,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(answer) => answer,
        Err(_) => (
            axum::http::StatusCode::REQUEST_TIMEOUT,
            [(axum::http::header::CONNECTION, "close")],
            "the request took too long\n",
        )
            .into_response(),
    }
}

/// A web side running on the current runtime, for tools and tests that
/// embed a server. Dropping it stops serving.
#[derive(Debug)]
pub struct EmbeddedWeb {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl EmbeddedWeb {
    /// Binds `addr` (port 0 picks a free one) and serves the pages of the
    /// server whose counters are `stats`.
    ///
    /// # Errors
    ///
    /// The address cannot be bound.
    pub async fn start(
        addr: SocketAddr,
        stats: Arc<ServerStats>,
        settings: WebSettings,
    ) -> std::io::Result<EmbeddedWeb> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let limits = settings.limits.clone();
        let router = router(stats, settings);
        let task =
            tokio::spawn(
                async move { serve(listener, router, &limits, std::future::pending()).await },
            );
        Ok(EmbeddedWeb { addr, task })
    }

    /// Where the pages are served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for EmbeddedWeb {
    fn drop(&mut self) {
        self.task.abort();
    }
}
