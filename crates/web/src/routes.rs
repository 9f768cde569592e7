//! The web side's routes: which path each handler answers, and the time
//! limit every route but the event stream runs within.

use std::sync::Arc;

use axum::{
    Router,
    routing::{get, post},
};
use spielleiter_server::stats::ServerStats;

use crate::{
    app::{WebSettings, app_state_with},
    archive, games, live, metrics, pages, play,
    season::{self, source::SeasonSource},
    wire_log,
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
    season: Option<Arc<dyn SeasonSource>>,
) -> Router {
    router_with(stats, settings, season, None)
}

/// The web side's routes over the server's `stats`, with the season page
/// when `season` is given (`serve --store`) and people's seats (`/play`)
/// when `play` is.
pub fn router_with(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn SeasonSource>>,
    play: Option<play::PlaySettings>,
) -> Router {
    router_with_contest(stats, settings, season, play, None)
}

/// [`router_with`], with the contest's pages (`/contest`) when `contest`
/// is given.
pub fn router_with_contest(
    stats: Arc<ServerStats>,
    settings: WebSettings,
    season: Option<Arc<dyn SeasonSource>>,
    play: Option<play::PlaySettings>,
    contest: Option<Arc<crate::accounts::Door>>,
) -> Router {
    let (app, limits) = app_state_with(stats, settings, season, play, contest);
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
        .merge(crate::accounts::pages::routes())
        .merge(crate::accounts::results_pages::routes())
        .merge(crate::accounts::versions_pages::routes())
        .merge(crate::accounts::calendar_pages::routes())
        .merge(crate::accounts::playing::routes())
        .merge(crate::accounts::test_pages::routes())
        .merge(crate::accounts::friendly_pages::routes())
        .merge(crate::accounts::notices_page::routes())
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
        .route(
            "/api/season/games/{number}/logs/{player}",
            get(season::player_log),
        )
        .route("/api/season/games/{number}/wire", get(season::wire_log))
        .route("/api/games", get(games::list))
        .route("/metrics", get(metrics::metrics))
        .route("/healthz", get(pages::health))
        // Every route so far answers soon or not at all (a request body
        // trickling in, say); the event stream, added after, lasts.
        .layer(axum::middleware::from_fn(move |request, next| {
            time_limited(stall_timeout, request, next)
        }))
        .route("/api/rooms/{id}/events", get(live::events))
        // Every route is decided by the one access rule.
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            crate::route_access::decide,
        ))
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
