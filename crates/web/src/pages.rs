//! The pages and their files, embedded in the binary, the login and the
//! health check. The pages fetch their data from the JSON routes.

use std::sync::Arc;

use axum::{
    Form,
    extract::{Path, State},
    http::{StatusCode, header},
    response::{Html, IntoResponse, Redirect, Response},
};
use serde::Deserialize;

use crate::{access::SESSION_COOKIE, app::App, connections::Peer};

const INDEX: &str = include_str!("../assets/index.html");
const ROOM: &str = include_str!("../assets/room.html");
const REPLAYS: &str = include_str!("../assets/replays.html");
const REPLAY: &str = include_str!("../assets/replay.html");
const SEASON: &str = include_str!("../assets/season.html");
const LOGIN: &str = include_str!("../assets/login.html");
const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/app.css");

/// `GET /`.
pub async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /rooms/{id}` (the page reads the id from its address).
pub async fn room() -> Html<&'static str> {
    Html(ROOM)
}

/// `GET /replays`.
pub async fn replays() -> Html<&'static str> {
    Html(REPLAYS)
}

/// `GET /replays/{name}` (the page reads the name from its address).
pub async fn replay() -> Html<&'static str> {
    Html(REPLAY)
}

/// `GET /season`.
pub async fn season() -> Html<&'static str> {
    Html(SEASON)
}

/// Any address without a page: a page that says so, with the way back.
pub async fn not_found() -> (StatusCode, Html<&'static str>) {
    (StatusCode::NOT_FOUND, Html(NOT_FOUND))
}

/// The page of an address that has none.
const NOT_FOUND: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>No such page · Spielleiter</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<header><a class="brand" href="/">Spielleiter</a><nav><a href="/">Games</a><a href="/replays">Replays</a><a href="/metrics">Metrics</a></nav></header>
<main>
<h1>No such page</h1>
<p>There is nothing at this address. The <a href="/">games</a> and the <a href="/replays">replays</a> are.</p>
</main>
</body>
</html>
"#;

/// `GET /login`.
pub async fn login_form() -> Html<&'static str> {
    Html(LOGIN)
}

/// The login form's fields.
#[derive(Debug, Deserialize)]
pub struct Login {
    passphrase: String,
}

/// `POST /login`: with the administrator passphrase, sets the session
/// cookie and goes to the room list; otherwise back to the form.
pub async fn log_in(
    State(app): State<Arc<App>>,
    Peer(peer): Peer,
    Form(login): Form<Login>,
) -> Response {
    match app.access.log_in(&login.passphrase, peer, &app.guard).await {
        Ok(Some(session)) => {
            // Secure where the contest's cookies are (served over TLS).
            let secure = app.contest.as_ref().is_some_and(|door| door.secure_cookies);
            let cookie = crate::accounts::secrets::cookie(
                SESSION_COOKIE,
                &session,
                "/",
                "Strict",
                i64::try_from(crate::access::ADMIN_SESSION.as_secs()).unwrap_or(i64::MAX),
                secure,
            );
            ([(header::SET_COOKIE, cookie)], Redirect::to("/")).into_response()
        }
        Ok(None) => Redirect::to("/login?failed").into_response(),
        Err(too_soon) => (StatusCode::TOO_MANY_REQUESTS, too_soon.to_string()).into_response(),
    }
}

/// `GET /assets/{file}`: the pages' script and style.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "app.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "app.css" => (STYLE, "text/css; charset=utf-8"),
        "wire.js" => (crate::wire_log::SCRIPT, "text/javascript; charset=utf-8"),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /healthz`: the web side answers (the game port has its own check).
pub async fn health() -> &'static str {
    "ok\n"
}
