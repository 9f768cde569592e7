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
//! a slow or busy page never slows a game (see [`live`]). The one way in
//! is a person's own seat ([`play`]): an ordinary player connection to the
//! game port, whose moves go through the same wire and rules as any
//! client's, and only from the browser that opened it.
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
//! | `/api/replays/{name}/wire` | a replay's wire log as text, to whoever may watch running games ([`wire_log`]) |
//! | `/api/season`, `/api/season/games`, `/api/season/games/{n}/replay` | the season's standings and progress, its games a page at a time, a stored replay |
//! | `/api/season/games/{n}/replay.xml.gz`, `…/replay.blksgf` | a stored replay, and a classic game as Pentobi's record, to download |
//! | `/api/games` | the hosted games' ids and titles ([`games`]) |
//! | `/play`, `/play/{id}` | a person takes a seat and plays in the browser ([`play`]) |
//! | `/api/play`, `/api/play/{id}`, `/api/play/{id}/move`, `/api/play/{id}/why`, `/api/play/{id}/leave` | the seats' JSON: open, view, move, why a click is no move, leave |
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
pub mod app;
pub mod archive;
pub mod connections;
pub mod error;
pub mod games;
pub mod live;
pub mod metrics;
mod pages;
pub mod play;
pub mod season;
pub mod views;
pub mod wire_log;

use std::{net::SocketAddr, sync::Arc};

use axum::{
    Router,
    routing::{get, post},
};
use spielleiter_server::stats::ServerStats;
use tokio::net::TcpListener;

use crate::app::app_state_with;
pub use crate::{
    access::Access,
    app::{App, MAX_STREAMS, WebSettings},
    connections::{WebLimits, serve},
};

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
    router_with(stats, settings, season, None)
}

/// The web side's routes over the server's `stats`, with the season page
/// when `season` is given (`serve --store`) and people's seats (`/play`)
/// when `play` is.
pub fn router_with(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn season::SeasonSource>>,
    play: Option<play::PlaySettings>,
) -> Router {
    let (app, limits) = app_state_with(stats, settings, season, play);
    let stall_timeout = limits.stall_timeout;
    // The play routes read small JSON bodies only.
    let play_routes = Router::new()
        .route("/api/play", get(play::games).post(play::open))
        .route("/api/play/{id}", get(play::view))
        .route("/api/play/{id}/move", post(play::play))
        .route("/api/play/{id}/why", post(play::why))
        .route("/api/play/{id}/leave", post(play::leave))
        .layer(axum::extract::DefaultBodyLimit::max(play::MAX_BODY_BYTES));
    Router::new()
        .merge(play_routes)
        .route("/play", get(play::page))
        .route("/play/{id}", get(play::page))
        .route("/assets/play.js", get(play::script))
        .route("/assets/play.css", get(play::style))
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
        .route("/api/replays/{name}/wire", get(wire_log::wire_log))
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
        let router = router(Arc::clone(&stats), settings);
        let task = tokio::spawn(async move {
            serve(listener, router, &limits, stats, std::future::pending()).await
        });
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
